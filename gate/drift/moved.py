"""Imports that name the same code at its new place: what `test_drift`
proves from the change set alone before it compares a test's units.

A change that moves code renames files; a test that follows the move
edits its import specifiers.  An import unit of the base whose head twin
differs only in its specifier (the same names bound, the same text but for
the specifier, written once) reads the same code when both specifiers
resolve, each at its own side, to one file, and

* both name the same repository path (a test moved with its imports:
  `./foo` at `src/a.test.ts` and `../src/foo` at `test/a.test.ts`), or
* the change renamed the base's file to the head's unchanged
  (`identical_moves`: a rename with no line added or removed, the same
  mode, neither a symlink nor a submodule, not only the letter case), and
  the old specifier resolves to nothing at head (a module left or added at
  the old place leaves the old name meaning something: ambiguous).

`align` then puts the head's unit in the base's place, so that `compare`
sees no change there; every other edit is judged as ever.  Resolution:

* JavaScript and TypeScript: relative specifiers only (`./`, `../`), as
  TypeScript's resolution reads them (`.js` naming a `.ts`, the suffixes
  and `index` files tried for a bare path); every candidate must be known
  present or absent (`exists`), and exactly one present.
* Python: relative imports against the file's package; an absolute dotted
  name only through a rename of that module (`a/x.py` to `b/x.py` under
  one root, each package `__init__` on the way either the same file,
  renamed unchanged, or absent on both sides); `from M import n` checks
  the submodule `M.n` too, where one may exist.
* Go: an import path whose folder the change moved whole (every Go file
  of the base folder renamed unchanged into the new folder, which holds no
  other Go file, and no Go file left at or added to the old one).

A path's presence comes from the change's own files (`gate.changes.sides`)
and from the base tree's listing (`BaseTree`, whose folders
`gate.drift.folders` asks for); anything unknown (a folder not listed, a
symlink, a name that folds alike on a case-insensitive checkout) proves
nothing.  `still_collected` says whether a moved test file runs at its
new path as at its old one."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence

from gate import globs
from gate.changes import (
    MODE_SUBMODULE,
    MODE_SYMLINK,
    RENAMED,
    ChangeSet,
    FileChange,
    sides,
)
from gate.drift import Unit, suffix
from gate.drift.collected import (
    JS_SUPPORT,
    JS_TEST_MODULES,
    PYTEST_CONFIGS,
    TEST_MODULES,
    is_test_module,
    js_collects,
    pytest_collects,
)
from gate.drift.growth import ROOT_CONFIGS
from gate.drift.language import JS
from gate.paths import fold

# TypeScript's candidates for a bare relative path, in its order.
_SUFFIXES = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs")
# A specifier's written suffix -> the files TypeScript may read for it.
_WRITTEN = {
    ".js": (".ts", ".tsx", ".d.ts", ".js"),
    ".jsx": (".tsx", ".jsx"),
    ".mjs": (".mts", ".d.mts", ".mjs"),
    ".cjs": (".cts", ".d.cts", ".cjs"),
}


def identical_moves(changes: ChangeSet) -> dict[str, str]:
    """Each path the change renamed unchanged -> its new path."""
    out: dict[str, str] = {}
    for f in changes.files:
        if (
            f.status == RENAMED
            and f.old_path is not None
            and f.added == 0
            and f.deleted == 0
            and not f.binary
            and f.old_mode == f.new_mode
            and not {MODE_SYMLINK, MODE_SUBMODULE} & {f.old_mode, f.new_mode}
            and fold(f.old_path) != fold(f.path)
        ):
            out[f.old_path] = f.path
    return out


class _World:
    """What the change set says about which paths exist at each side."""

    def __init__(self, changes: ChangeSet) -> None:
        self.changes = changes
        self.sides = sides(f for f in changes.files if f.status != "unknown")
        self.unknown = {p for f in changes.files if f.status == "unknown" for p in f.written}
        self.moves = identical_moves(changes)
        self.folded = {fold(p): p for f in changes.files for p in f.written}

    def exists(self, path: str, head: bool) -> bool | None:
        """Whether `path` is a file at base (or at head); None: unknown."""
        if path in self.unknown or not path or path.startswith("../"):
            return None
        if path in self.sides:
            return self.sides[path][1 if head else 0]
        if self.folded.get(fold(path), path) != path:
            return None  # another spelling the change writes: one file when case folds
        tree = self.changes.tree
        if tree is None:
            return None
        folder, _, name = path.rpartition("/")
        entries = tree.folder(folder)
        if entries is None:
            return None
        kind = entries.get(name)
        if kind is None:
            if any(fold(other) == fold(name) for other in entries):
                return None
            return False
        return {"file": True, "folder": False}.get(kind)

    def one(self, candidates: Sequence[str], head: bool) -> str | None:
        """The one candidate present at that side; None when none, several,
        or any unknown."""
        found = [self.exists(c, head) for c in candidates]
        if None in found or found.count(True) != 1:
            return None
        return candidates[found.index(True)]

    def none(self, candidates: Sequence[str], head: bool) -> bool:
        return all(self.exists(c, head) is False for c in candidates)


def _js_candidates(importer: str, spec: str) -> list[str] | None:
    if not spec.startswith(("./", "../")):
        return None
    path = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
    if path.startswith("../") or path in (".", ".."):
        return None
    stem, dot, written = path.rpartition(".")
    if dot and "/" not in written and f".{written}" in _WRITTEN:
        return [stem + s for s in _WRITTEN[f".{written}"]]
    if dot and "/" not in written and f".{written}" in JS.suffixes:
        return [path]
    return [path, *(path + s for s in _SUFFIXES), *(f"{path}/index{s}" for s in _SUFFIXES)]


def _same_js(world: _World, old: tuple[str, str], new: tuple[str, str]) -> bool:
    """Whether specifier `old[1]` read from `old[0]` at base names the code
    `new[1]` read from `new[0]` names at head."""
    before = _js_candidates(*old)
    after = _js_candidates(*new)
    if before is None or after is None:
        return False
    was = world.one(before, head=False)
    now = world.one(after, head=True)
    if was is None or now is None:
        return False
    if was == now:
        return True
    still = _js_candidates(new[0], old[1])
    return world.moves.get(was) == now and still is not None and world.none(still, head=True)


def _py_files(dotted: str) -> tuple[str, str]:
    path = dotted.replace(".", "/")
    return f"{path}.py", f"{path}/__init__.py"


def _py_relative(importer: str, spec: str) -> str | None:
    """The relative import `spec` from `importer` as a folder path plus
    dotted rest (`tests/helpers`); None when it climbs past the root."""
    dots = len(spec) - len(spec.lstrip("."))
    folder = posixpath.dirname(importer)
    for _ in range(dots - 1):
        if not folder:
            return None
        folder = posixpath.dirname(folder)
    rest = spec[dots:].replace(".", "/")
    return "/".join(p for p in (folder, rest) if p)


def _same_py(world: _World, old: tuple[str, str], new: tuple[str, str]) -> bool:
    (was_at, was), (now_at, now) = old, new
    if was.startswith(".") and now.startswith("."):
        before, after = _py_relative(was_at, was), _py_relative(now_at, now)
        if before is None or after is None:
            return False
        pre = [f"{before}.py", f"{before}/__init__.py"] if before else ["__init__.py"]
        post = [f"{after}.py", f"{after}/__init__.py"] if after else ["__init__.py"]
        got, put = world.one(pre, head=False), world.one(post, head=True)
        return got is not None and (got == put or world.moves.get(got) == put)
    if was.startswith(".") or now.startswith("."):
        return False
    return _same_absolute(world, was, now)


def _same_absolute(world: _World, was: str, now: str) -> bool:
    """Whether the dotted module `was` at base is `now` at head through a
    rename the change made unchanged, under one root."""
    old, new = was.split("."), now.split(".")
    if len(old) != len(new):
        return False
    roots = set()
    for form in range(2):
        tail = _py_files(was)[form]
        for path, to in world.moves.items():
            if path == tail or path.endswith("/" + tail):
                root = path[: len(path) - len(tail)]
                if to == root + _py_files(now)[form]:
                    roots.add((root, form))
    if len(roots) != 1:
        return False
    ((root, form),) = roots
    others = (root + _py_files(was)[1 - form], root + _py_files(now)[1 - form])
    if world.exists(others[0], head=True) is not False:
        return False  # the old name still names a module at head
    if world.exists(others[1], head=True) is not False:
        return False
    for depth in range(1, len(old)):
        a = root + "/".join(old[:depth]) + "/__init__.py"
        b = root + "/".join(new[:depth]) + "/__init__.py"
        if a == b or world.moves.get(a) == b:
            continue
        if world.exists(a, head=False) is False and world.exists(b, head=True) is False:
            continue
        return False
    return True


def _same_go(world: _World, was: str, now: str) -> bool:
    """Whether the Go import path `was` names at head, as `now`, the
    package folder the change moved whole."""
    old, new = was.split("/"), now.split("/")
    common = 0
    while common < min(len(old), len(new)) - 1 and old[common] == new[common]:
        common += 1
    tail_old, tail_new = "/".join(old[common:]), "/".join(new[common:])
    roots = set()
    for path in world.moves:
        folder = posixpath.dirname(path)
        if path.endswith(".go") and (folder == tail_old or folder.endswith("/" + tail_old)):
            roots.add(folder[: len(folder) - len(tail_old)])
    if len(roots) != 1 or world.changes.tree is None:
        return False
    (root,) = roots
    source, target = root + tail_old, root + tail_new
    listed, there = world.changes.tree.folder(source), world.changes.tree.folder(target)
    if listed is None or there is None:
        return False
    files = [n for n, k in listed.items() if n.endswith(".go") and k != "folder"]
    if not files or any(world.moves.get(f"{source}/{n}") != f"{target}/{n}" for n in files):
        return False
    if any(n.endswith(".go") and k != "folder" for n, k in there.items()):
        return False  # the package it joins held code of its own
    for f in world.changes.files:
        for path in f.written:
            folder = posixpath.dirname(path)
            if path.endswith(".go") and folder in (source, target):
                moved = path in world.moves or path in world.moves.values()
                if not moved:
                    return False  # a Go file added, changed or left in either folder
    return True


# The specifier in an import unit's key, per language family.
def _specifier(key: str, kind: str) -> str | None:
    if kind == "py":
        if key.startswith("from ") and " import " in key:
            return key[5:].split(" import ", 1)[0]
        if key.startswith("import "):
            return key[7:].split(" as ", 1)[0]
    elif kind == "js":
        if key.startswith("import ") and " from " in key:
            return key.rsplit(" from ", 1)[1]
    elif kind == "go" and key.startswith('import "') and key.endswith('"'):
        return key[8:-1]
    return None


def _kind(path: str) -> str | None:
    end = suffix(path)
    if end == ".py":
        return "py"
    if end in JS.suffixes:
        return "js"
    return "go" if end == ".go" else None


def _same(world: _World, kind: str, old: tuple[str, str], new: tuple[str, str]) -> bool:
    if kind == "js":
        return _same_js(world, old, new)
    if kind == "py":
        return _same_py(world, old, new)
    return _same_go(world, old[1], new[1])


def _submodule(key: str, spec: str) -> str | None:
    """`a.b` for the Python import `from a import b` (`b` may be a module)."""
    if not key.startswith("from "):
        return None
    name = key.split(" import ", 1)[1].split(" as ", 1)[0].strip()
    if not name.isidentifier():
        return None
    return f"{spec}{name}" if spec.endswith(".") else f"{spec}.{name}"


def _twin(world: _World, kind: str, b: Unit, h: Unit, was: str, now: str) -> bool:
    """Whether the base import `b` and the head import `h` read the same
    code (`was`, `now`: the files they are read from)."""
    old, new = _specifier(b.key, kind), _specifier(h.key, kind)
    if old is None or new is None or old == new or b.binds != h.binds or b.role != h.role:
        return False
    if b.code.count(old) != 1 or b.code.replace(old, new) != h.code:
        return False
    if not _same(world, kind, (was, old), (now, new)):
        return False
    if kind == "py":
        sub_old, sub_new = _submodule(b.key, old), _submodule(h.key, new)
        if sub_old is not None and sub_new is not None:
            base_files = _py_candidates(was, sub_old)
            if base_files is None or not world.none(base_files, head=False):
                return _same(world, kind, (was, sub_old), (now, sub_new))
    return True


def _py_candidates(importer: str, dotted: str) -> list[str] | None:
    if not dotted.startswith("."):
        return None  # an absolute submodule: `_same_absolute` decides
    folder = _py_relative(importer, dotted)
    return None if folder is None else [f"{folder}.py", f"{folder}/__init__.py"]


def align(
    changes: ChangeSet, was: str, now: str, base: Sequence[Unit], head: Sequence[Unit]
) -> tuple[Unit, ...]:
    """The base units of the test file at `was` (its path at base) with
    each import that reads the same code as an import of the head version
    at `now` (`_twin`) replaced by that head unit."""
    kind = _kind(now)
    if kind is None or _kind(was) != kind:
        return tuple(base)
    head_keys = {u.key for u in head}
    base_keys = {u.key for u in base}
    gone = [u for u in base if u.key not in head_keys and _specifier(u.key, kind) is not None]
    new = [u for u in head if u.key not in base_keys and _specifier(u.key, kind) is not None]
    if not gone or not new:
        return tuple(base)
    world = _World(changes)
    swap: dict[str, Unit] = {}
    taken: set[str] = set()
    for b in gone:
        found = [h for h in new if h.key not in taken and _twin(world, kind, b, h, was, now)]
        if len(found) == 1:
            swap[b.key] = found[0]
            taken.add(found[0].key)
    if not swap:
        return tuple(base)
    return tuple(swap.get(u.key, u) for u in base)


def still_collected(changes: ChangeSet, f: FileChange) -> bool:
    """Whether the renamed test file `f` is collected at its new path as
    at its old one: by the base's root pytest, Jest or Vitest
    configuration where it names the modules (`python_files`, `include`,
    `testMatch`), else by the default names; a `testpaths` setting keeps
    the file in the same top folder, and no runner's configuration file may
    stand in a folder between the root and either path (`configs`: what a
    runner reads whole), where the gate does not read what it collects."""
    old, new = f.old_path, f.path
    if old is None:
        return False
    got = {p: t.base for p, t in changes.texts.items() if p in (*PYTEST_CONFIGS, *ROOT_CONFIGS)}
    rules: Callable[[str], bool]
    if suffix(new) == ".py":
        found = pytest_collects(got)
        rules = found if found is not None else is_test_module
        if any(t and "testpaths" in t for t in got.values()) and (
            old.partition("/")[0] != new.partition("/")[0]
        ):
            return False
    else:
        found_js = js_collects(got)
        rules = found_js if found_js is not None else is_test_module
    if _kind(old) is None or _kind(old) != _kind(new) or not (rules(old) and rules(new)):
        return False
    return rules is not is_test_module or _same_name(old, new)


def _same_name(old: str, new: str) -> bool:
    """Whether one default name of the runners matches both paths
    (`**/*.test.*` for `src/a.test.ts` and `test/a.test.ts`): the runner
    that collected the old path collects the new one."""
    if globs.matches(new, JS_SUPPORT, globs.FOLDED):
        return False
    return any(
        globs.matches(old, (p,), globs.FOLDED) and globs.matches(new, (p,), globs.FOLDED)
        for p in (*TEST_MODULES, *JS_TEST_MODULES)
    )


def configs_between(changes: ChangeSet, f: FileChange, configs: Callable[[str], bool]) -> bool:
    """Whether a runner's configuration file may stand in a folder above
    either path of the renamed `f` (the root's own are read: left out);
    True when a folder's contents are unknown."""
    tree = changes.tree
    for path in (f.old_path or f.path, f.path):
        folder = posixpath.dirname(path)
        while folder:
            entries = tree.folder(folder) if tree is not None else None
            if entries is None:
                return True
            if any(configs(f"{folder}/{name}") for name in entries):
                return True
            folder = posixpath.dirname(folder)
    return False
