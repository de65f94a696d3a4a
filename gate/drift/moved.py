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
  renamed unchanged, empty on both sides, or absent on both sides); `from M import n` checks
  the submodule `M.n` too, where one may exist.
* Go: an import path whose folder the change moved whole (every Go file
  of the base folder renamed unchanged into the new folder, which holds no
  other Go file, and no Go file left at or added to the old one).

A path's presence comes from the change's own files (`gate.model.change.sides`)
and from the base tree's listing (`BaseTree`, whose folders
`gate.drift.folders` asks for); anything unknown (a folder not listed, a
symlink, a name that folds alike on a case-insensitive checkout) proves
nothing.  `still_collected` says whether a moved test file runs at its
new path as at its old one."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence

from gate.base import globs
from gate.base.paths import fold
from gate.drift import Unit, runners, suffix
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
from gate.model.change import (
    ADDED,
    DELETED,
    MODE_SUBMODULE,
    MODE_SYMLINK,
    RENAMED,
    UNKNOWN,
    ChangeSet,
    FileChange,
    sides,
)

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


class World:
    """What the change set says about which paths exist at each side."""

    def __init__(self, changes: ChangeSet) -> None:
        self.changes = changes
        self.sides = sides(f for f in changes.files if f.status != UNKNOWN)
        self.unknown = {p for f in changes.files if f.status == UNKNOWN for p in f.written}
        self.moves = identical_moves(changes)
        self.folded = {fold(p): p for f in changes.files for p in f.written}
        # files a deletion or an addition shows empty (no line, not binary)
        self.empty = {
            (f.path, f.status == ADDED)
            for f in changes.files
            if f.status in (ADDED, DELETED)
            and not f.binary
            and (f.added if f.status == ADDED else f.deleted) == 0
            and f.new_mode != MODE_SYMLINK
            and f.old_mode != MODE_SYMLINK
        }

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
        kind = tree.kind(path)
        if kind is None:
            return None
        return False if kind == "" else {"file": True, "folder": False}.get(kind)

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


def _same_js(world: World, old: tuple[str, str], new: tuple[str, str]) -> bool:
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


def _py_pair(world: World, old: tuple[str, str], new: tuple[str, str]) -> tuple[str, str] | None:
    """The files the Python module `old[1]` read from `old[0]` at base and
    `new[1]` read from `new[0]` at head name, when both read the same code."""
    (was_at, was), (now_at, now) = old, new
    if was.startswith(".") and now.startswith("."):
        before, after = _py_relative(was_at, was), _py_relative(now_at, now)
        if before is None or after is None:
            return None
        got = world.one(_py_module(before), head=False)
        put = world.one(_py_module(after), head=True)
        if got is None or put is None or not (got == put or world.moves.get(got) == put):
            return None
        return got, put
    if was.startswith(".") or now.startswith("."):
        return None
    return _same_absolute(world, was, now)


def _py_module(folder: str) -> list[str]:
    """The files a module at `folder` (a path without suffix) may be."""
    return [f"{folder}.py", f"{folder}/__init__.py"] if folder else ["__init__.py"]


def _same_absolute(world: World, was: str, now: str) -> tuple[str, str] | None:
    """The files of the dotted module `was` at base and `now` at head when
    the change renamed the one to the other unchanged, under one root."""
    old, new = was.split("."), now.split(".")
    if len(old) != len(new):
        return None
    roots = set()
    for form in range(2):
        tail = _py_files(was)[form]
        for path, to in world.moves.items():
            if path == tail or path.endswith("/" + tail):
                root = path[: len(path) - len(tail)]
                if to == root + _py_files(now)[form]:
                    roots.add((root, form))
    if len(roots) != 1:
        return None
    ((root, form),) = roots
    after = (*(root + p for p in _py_files(was)), root + _py_files(now)[1 - form])
    if not world.none(after, head=True):
        return None  # the old name still names a module at head, or the new one two
    for depth in range(1, len(old)):
        a = root + "/".join(old[:depth]) + "/__init__.py"
        b = root + "/".join(new[:depth]) + "/__init__.py"
        if a == b or world.moves.get(a) == b or {(a, False), (b, True)} <= world.empty:
            continue  # the same file, moved unchanged, or empty on both sides
        if world.exists(a, head=False) is False and world.exists(b, head=True) is False:
            continue
        return None
    return root + _py_files(was)[form], root + _py_files(now)[form]


def _same_go(world: World, was: str, now: str) -> bool:
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
    elif kind == "js" and key.startswith("import "):
        return key.rsplit(" from ", 1)[1] if " from " in key else key[7:]
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


def _same(world: World, kind: str, old: tuple[str, str], new: tuple[str, str]) -> bool:
    if kind == "js":
        return _same_js(world, old, new)
    if kind == "py":
        return _py_pair(world, old, new) is not None
    return _same_go(world, old[1], new[1])


def _twin(world: World, kind: str, b: Unit, h: Unit, was: str, now: str) -> bool:
    """Whether the base import `b` and the head import `h` read the same
    code (`was`, `now`: the files they are read from)."""
    old, new = _specifier(b.key, kind), _specifier(h.key, kind)
    if old is None or new is None or old == new or b.binds != h.binds or b.role != h.role:
        return False
    if b.code.count(old) != 1 or b.code.replace(old, new) != h.code:
        return False
    if kind != "py":
        return _same(world, kind, (was, old), (now, new))
    pair = _py_pair(world, (was, old), (now, new))
    if pair is None:
        return False
    name = _imported(b.key)
    if name is None or not (pair[0].endswith("/__init__.py") or pair[0] == "__init__.py"):
        return True
    # `from package import name`: `name` may be a submodule, read too
    below = _py_module(posixpath.join(posixpath.dirname(pair[0]), name))
    above = _py_module(posixpath.join(posixpath.dirname(pair[1]), name))
    if world.none(below, head=False):
        return world.none(above, head=True)
    got, put = world.one(below, head=False), world.one(above, head=True)
    return got is not None and put is not None and (got == put or world.moves.get(got) == put)


def _imported(key: str) -> str | None:
    """`b` for the Python import `from a import b` (`b` may be a module)."""
    if not key.startswith("from "):
        return None
    name = key.split(" import ", 1)[1].split(" as ", 1)[0].strip()
    return name if name.isidentifier() else None


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
    world = World(changes)
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


# What reads a test file's place: a path relative to it, its own name or
# folder, a snapshot stored beside it by its name.
_PLACE = re.compile(
    r"""["'`]\.\.?/|__dirname|__filename|import\.meta|__file__|__name__|__module__"""
    r"""|__package__|__spec__|testPath|snapshot|\btestdata\b|\bRuntime\.Caller\b""",
    re.IGNORECASE,
)


def strays(
    changes: ChangeSet, was: str, now: str, base: Sequence[Unit], head: Sequence[Unit]
) -> tuple[str, ...]:
    """The units of the test file moved from `was` to `now` that kept
    their text but may read other code or data from the new place: a
    relative import (`./x`, `from .x`) that does not name the same file, or
    one that is unknown; in Python an absolute import whose top name
    stands beside either path (pytest puts a test's folder on `sys.path`
    where no `__init__.py` makes it a package); any other unit that names
    its place (`_PLACE`: `__dirname`, `__file__`, `'./data.json'`, a
    snapshot, `testdata`).  A Go test moved to another folder joins
    another package: all of it.  Their base names."""
    kind = _kind(now)
    if kind is None or was == now:
        return ()
    if kind == "go":
        return ("its package",) if posixpath.dirname(was) != posixpath.dirname(now) else ()
    head_keys = {u.key: u for u in head}
    world = World(changes)
    out: list[str] = []
    for b in base:
        spec = _specifier(b.key, kind)
        h = head_keys.get(b.key)
        if h is None or h.code != b.code:
            continue
        if spec is None:
            if _PLACE.search(b.code):
                out.append(b.name)
        elif spec.startswith("."):
            if not _same(world, kind, (was, spec), (now, spec)):
                out.append(b.name)
        elif kind == "py" and not _far(world, was, now, spec.partition(".")[0]):
            out.append(b.name)
    return tuple(out)


def _far(world: World, was: str, now: str, top: str) -> bool:
    """Whether no module named `top` stands beside `was` at base or `now` at head."""
    for path, at_head in ((was, False), (now, True)):
        folder = posixpath.dirname(path)
        near = posixpath.join(folder, top)
        if not world.none([f"{near}.py", f"{near}/__init__.py"], head=at_head):
            return False
        tree = world.changes.tree
        entries = tree.folder(folder) if tree is not None else None
        if entries is None or top in entries:
            return False  # unknown, or a folder of that name (a namespace package)
    return True


# The class-based languages whose test file may be renamed in place
# (`still_collected`): xUnit, NUnit, MSTest; JUnit, TestNG; Kotlin's.
RETITLED = (".cs", ".java", ".kt")


def still_collected(changes: ChangeSet, f: FileChange) -> bool:
    """Whether the renamed test file `f` is collected at its new path as
    at its old one: by the base's root pytest, Jest or Vitest
    configuration where it names the modules (`python_files`, `include`,
    `testMatch`), else by the default names (a C#, Java or Kotlin file:
    renamed within its folder, one default name matching both: its
    project compiles it there as before); a `testpaths` setting keeps
    the file in the same top folder, and no runner's configuration file may
    stand in a folder between the root and either path (`configs`: what a
    runner reads whole), where the gate does not read what it collects."""
    old, new = f.old_path, f.path
    if old is None:
        return False
    if suffix(new) in RETITLED:
        # a class-based runner finds tests by attribute or annotation in every
        # file its project compiles: renamed in its folder, under one default name
        return (
            suffix(old) == suffix(new)
            and posixpath.dirname(old) == posixpath.dirname(new)
            and _same_name(old, new)
        )
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


# The files that set how a JavaScript or TypeScript file's bare and aliased
# specifiers resolve for the files below them.
_PROJECT = re.compile(r"package\.json|[jt]sconfig(\..*)?\.json", re.IGNORECASE)


def configs_between(changes: ChangeSet, f: FileChange, configs: Callable[[str], bool]) -> bool:
    """Whether a runner's configuration file may stand in a folder above
    either path of the renamed `f` (the root's own are read: left out), or
    the nearest `package.json`, `tsconfig*.json` or `jsconfig.json` above
    them differs (another package: other dependencies, aliases); True
    when a folder's contents are unknown.  A configuration file the change
    itself writes there, or a file where a runner reads a section
    (`pyproject.toml`, `package.json`: `runners.SECTION_GLOBS`), counts as
    one the base has (a new `pytest.ini` beside a test moved in can
    deselect it)."""
    tree = changes.tree
    sections = globs.matcher(runners.SECTION_GLOBS, globs.FOLDED)  # pyproject.toml, ...
    written = {
        posixpath.dirname(p) for g in changes.files for p in g.written if configs(p) or sections(p)
    }
    nearest: list[str | None] = []  # the folder of the package.json nearest each path
    for path in (f.old_path or f.path, f.path):
        folder = posixpath.dirname(path)
        nearest.append(None)
        while folder:
            if folder in written:
                return True
            entries = tree.folder(folder) if tree is not None else None
            if entries is None:
                return True
            if any(configs(f"{folder}/{name}") for name in entries):
                return True
            if nearest[-1] is None and any(_PROJECT.fullmatch(name) for name in entries):
                nearest[-1] = folder
            folder = posixpath.dirname(folder)
    return nearest[0] != nearest[1]
