"""What a new file in the test tree makes Python import instead of the
module a test means: `test_drift`'s check of the import path.  Pure.

Derived from the import system's documentation (the language reference's
"The import system", `importlib.machinery`, PEP 420, PEP 3147, PEP 552,
the `site` module) and pytest's "pytest import mechanisms and
sys.path/PYTHONPATH":

- pytest's default import mode (`prepend`) inserts, for each test module
  and `conftest.py`, its basedir (the first folder upward without an
  `__init__.py`) at the start of `sys.path`; so a test folder comes before
  the repository's root (`python -m pytest`, `rootdir`) and before `src/`
  (an install, or `pythonpath = src`);
- the path-based finder takes the first entry of `sys.path` that holds a
  regular package (`name/__init__` + any suffix it loads), an extension
  module or a module (`name.py`, a sourceless `name.pyc`); a folder
  without `__init__` is a namespace portion, used only when no entry holds
  a module or a regular package, and the portions of a namespace package
  are searched in `sys.path` order for its submodules (PEP 420);
- cached bytecode (`__pycache__/name.TAG.pyc`) runs instead of the source
  when it is hash-based (PEP 552: unchecked, the source is never read);
  an extension module comes before the source beside it;
- the `site` module runs a site folder's `.pth` import lines and imports
  `sitecustomize`/`usercustomize` at startup, before any test.

So a file the change places in a folder a test runner may put first on
`sys.path` replaces, for every test, a first-party top-level module or
package of the same name (at the root or under `src/`, from the base
tree's layout, `gate.model.change.BaseTree`, and from the change itself) or a
standard-library module; a new namespace portion of that name extends a
first-party namespace package ahead of it; bytecode and extension modules
replace what they are named like; a startup file replaces anything.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from gate.drift.folders import LAYOUT_ROOTS
from gate.drift.python.finder import PLACES, SITE_DIRS, SITE_MODULES, is_extension, module_name
from gate.model.change import ADDED, COPIED, DELETED, MODE_SYMLINK, RENAMED, BaseTree, ChangeSet

# Modules a new file at a test path may shadow for every test: the
# standard library's, less the built-in ones (no path entry can replace
# those) and `test` (the CPython test suite, which no test imports).
STDLIB = frozenset(sys.stdlib_module_names) - set(sys.builtin_module_names) - {"test"}
# What Python's finder loads a package's `__init__` from (and a module
# from), besides extension modules: `importlib.machinery.all_suffixes()`.
_SOURCES = (".py", ".pyw", ".pyc")

# Test runners (and what they import first) that a module at the root can
# stand in for: `python -m pytest` from the root puts the root first on
# `sys.path`, ahead of the standard library and of every installed package,
# so a root `pytest.py` is what runs instead of pytest.
RUNNER_MODULES = frozenset(
    {"pytest", "_pytest", "pluggy", "py", "iniconfig", "xdist", "nose", "nose2"}
)

MODULE = "module"
PACKAGE = "package"
NAMESPACE = "namespace package"
UNLISTED = "folder"  # a folder the source did not list: module, package or namespace


@dataclass(frozen=True)
class FirstParty:
    """A first-party top-level name: where it is (a path of the base tree,
    or one the change places) and what it is at head."""

    name: str
    path: str
    kind: str


def _importable(leaf: str) -> str | None:
    """The module name a file named `leaf` is imported as, or None."""
    stem = leaf.partition(".")[0]
    if not stem.isidentifier():
        return None
    suffix = leaf[len(stem) :]
    return stem if suffix in _SOURCES or is_extension(suffix) else None


def _init(leaf: str) -> bool:
    return _importable(leaf) == "__init__"


def first_party(changes: ChangeSet) -> dict[str, list[FirstParty]]:
    """The first-party top-level modules and packages at head, by name:
    each entry of a layout root (`LAYOUT_ROOTS`) of the base tree that
    Python imports (a module; a folder with an `__init__`, a regular
    package; a folder holding modules or folders, a namespace package; a
    folder the source did not list, any of them), then the change: a
    package whose `__init__` it removes is a namespace package at head,
    and what it places at a layout root is first-party too.  A folder of
    data only holds nothing to import.  Dunder names (`__pycache__`) and
    `conftest` (test configuration) are not modules a test imports."""
    tree = changes.tree or BaseTree()
    found: dict[str, FirstParty] = {}
    for root in LAYOUT_ROOTS:
        kids = tree.children(root)
        for name, kind in sorted((kids or {}).items()):
            path = f"{root}/{name}" if root else name
            module = _importable(name)
            if kind == "file" or (kind == "link" and module is not None):
                if module is not None and path not in found:
                    found[path] = FirstParty(module, path, MODULE)
                continue
            if not name.isidentifier():
                continue
            inside = tree.children(path)
            if inside is None:
                found[path] = FirstParty(name, f"{path}/", UNLISTED)
            elif any(_init(n) and k != "folder" for n, k in inside.items()):
                found[path] = FirstParty(name, f"{path}/", PACKAGE)
            elif any(k != "file" or _importable(n) for n, k in inside.items()):
                found[path] = FirstParty(name, f"{path}/", NAMESPACE)
    for f in changes.files:
        gone = f.path if f.status == DELETED else f.old_path if f.status == RENAMED else None
        placed = f.path if f.status in PLACES else None
        for side, removed in ((gone, True), (placed, False)):
            if side is None:
                continue
            root, rest = _at_layout_root(side)
            top = rest.split("/")[0]
            key = f"{root}/{top}" if root else top
            if removed:
                entry = found.get(key)
                if entry is not None and entry.kind == PACKAGE and _is_init(rest, top):
                    found[key] = FirstParty(entry.name, entry.path, NAMESPACE)
                continue
            if "/" not in rest:
                module = _importable(rest)
                if module is not None and key not in found:
                    found[key] = FirstParty(module, side, MODULE)
            elif top.isidentifier() and _importable(rest.rpartition("/")[2]) is not None:
                kind = PACKAGE if _is_init(rest, top) else NAMESPACE
                entry = found.get(key)
                if entry is None or (kind == PACKAGE and entry.kind == NAMESPACE):
                    found[key] = FirstParty(top, f"{key}/", kind)
    out: dict[str, list[FirstParty]] = {}
    for entry in found.values():
        if entry.name.startswith("__") or entry.name == "conftest":
            continue
        out.setdefault(entry.name, []).append(entry)
    return out


def _is_init(rest: str, top: str) -> bool:
    """Whether `rest` (a path inside a layout root) is `top/__init__.*`."""
    return rest.count("/") == 1 and _init(rest.partition("/")[2])


def _at_layout_root(path: str) -> tuple[str, str]:
    """(the layout root, the path inside it): `src/x` is in `src/` (and
    also, as the namespace package `src`, in the root: `first_party` adds
    the root's folders from the base tree)."""
    if path.startswith("src/"):
        return "src", path[len("src/") :]
    return "", path


class _Layout:
    """What `shadows` asks of a change set per folder, indexed once (a
    change of 10,000 files asks it 10,000 times)."""

    def __init__(self, changes: ChangeSet, is_test: Callable[[str], bool]) -> None:
        self.tree = changes.tree or BaseTree()
        self.is_test = is_test
        self.inits: set[str] = set()  # folders the change places an `__init__` in
        self.removed: set[str] = set()  # paths the change deletes or renames away
        self.written: dict[str, list[str]] = {}  # folder -> the paths the change writes there
        for f in changes.files:
            if f.status in PLACES and _init(f.path.rpartition("/")[2]):
                self.inits.add(f.path.rpartition("/")[0])
            if f.status == DELETED:
                self.removed.add(f.path)
            elif f.status == RENAMED and f.old_path is not None and f.old_path != f.path:
                self.removed.add(f.old_path)
            for p in f.written:
                self.written.setdefault(p.rpartition("/")[0], []).append(p)
        self._init: dict[str, bool | None] = {}
        self._tests: dict[str, bool] = {}

    def has_init(self, folder: str) -> bool | None:
        """Whether `folder` holds an `__init__` at head (None: unknown)."""
        if folder not in self._init:
            kids = self.tree.children(folder)
            if folder in self.inits:
                self._init[folder] = True
            elif kids is None:
                self._init[folder] = None
            else:
                self._init[folder] = any(
                    _init(n) and f"{folder}/{n}" not in self.removed for n in kids
                )
        return self._init[folder]

    def entries(self, path: str) -> list[str]:
        """The folders a test runner may put on `sys.path` ahead of the
        layout roots for a module at `path`, innermost first: pytest's
        basedir, the first folder upward from it without an `__init__.py`
        (a folder with one is a package on the way, not an entry); where
        a folder's `__init__` is unknown (not listed), both; never the
        root or `src/`."""
        folder = path.rpartition("/")[0]
        out: list[str] = []
        while folder and folder not in LAYOUT_ROOTS:
            has = self.has_init(folder)
            if has is not True:
                out.append(folder)
            if has is False:
                break
            folder = folder.rpartition("/")[0]
        return out

    def test_folder(self, folder: str) -> bool:
        """Whether `folder` holds a test path (one the change writes, or
        one the base tree's listing shows): pytest collects it, and puts
        `folder` (or a folder above it, `entries`) on `sys.path`."""
        if folder not in self._tests:
            kids = self.tree.children(folder) or {}
            here = [f"{folder}/{n}" for n in kids] + self.written.get(folder, [])
            self._tests[folder] = any(self.is_test(p) for p in here)
        return self._tests[folder]

    def roots_listed(self) -> bool:
        """Whether each layout root of the base tree is listed (the root,
        and `src/` when the root shows it as a folder)."""
        if "" not in self.tree.listed:
            return False
        kinds = self.tree.children("") or {}
        return all(kinds.get(r) != "folder" or r in self.tree.listed for r in LAYOUT_ROOTS if r)

    def in_test_folder(self, path: str) -> bool:
        """Whether `path` is a test path, or sits in or under a folder
        that holds one, below the layout roots."""
        if self.is_test(path):
            return True
        folder = path.rpartition("/")[0]
        while folder and folder not in LAYOUT_ROOTS:
            if self.test_folder(folder):
                return True
            folder = folder.rpartition("/")[0]
        return False


def _source_of(path: str) -> str:
    """The source a cached bytecode file stands for (`a/__pycache__/m.TAG.pyc`
    -> `a/m.py`, PEP 3147); any other path itself."""
    folder, _, leaf = path.rpartition("/")
    above, _, cache = folder.rpartition("/")
    if cache != "__pycache__" and folder != "__pycache__":
        return path
    source = f"{leaf.partition('.')[0]}.py"
    return f"{above}/{source}" if above and cache == "__pycache__" else source


def _startup(path: str) -> bool:
    folders = path.split("/")
    return any(folder in SITE_DIRS for folder in folders[:-1]) and (
        folders[-1].endswith(".pth") or module_name(path) in SITE_MODULES
    )


def _shown(entries: list[FirstParty]) -> str:
    return ", ".join(f"{e.path} ({e.kind})" for e in entries)


def shadows(changes: ChangeSet, is_test: Callable[[str], bool]) -> list[tuple[str, str]]:
    """(path, why) for each file the change places (adds, copies, renames
    or changes into place, or names with unknown status) that makes Python
    import or run something else than what a test means, in path order:

    - a `.pth` or `sitecustomize`/`usercustomize` in a site-packages
      folder (a virtual environment in the checkout), anywhere;
    - an `__init__` deleted or renamed away in a test folder: pytest then
      puts that folder itself on `sys.path`, and its modules become
      top-level names;
    - at the repository's root: a module or package named like a
      first-party one under `src/`, which the root comes before, or like
      a test runner (`RUNNER_MODULES`) or a standard-library module,
      which `python -m pytest` from the root puts it before;
    - in a test folder (a test path, or beside one): bytecode or an
      extension module; a module or regular package named like a
      first-party top-level module or package (`first_party`) or a
      standard-library module, from each folder pytest may put on
      `sys.path` for it (`_Layout.entries`); a namespace portion named like a
      first-party namespace package (or a folder the source did not
      list), which comes before it for its submodules.

    git and patch mode always list the base tree's layout for a rule
    that reads it (`TextWants.tree`); API mode lists it through the
    contents API, and without a listing a module in a test folder fails
    there (what it shadows is unknown).  A rubric example, a writer's
    `result.json` (whose test paths fail as of unknown status) and a
    change set built by hand have no base tree: there only the startup,
    bytecode and standard-library forms are judged."""
    first = first_party(changes) if changes.tree is not None else {}
    layout = _Layout(changes, is_test)
    out: list[tuple[str, str]] = []
    for f in sorted(changes.files, key=lambda f: f.path):
        gone = f.path if f.status == DELETED else f.old_path if f.status == RENAMED else None
        if (
            gone is not None
            and _init(gone.rpartition("/")[2])
            and gone.rpartition("/")[0] not in LAYOUT_ROOTS
            and layout.in_test_folder(gone)
        ):
            folder = gone.rpartition("/")[0]
            out.append(
                (
                    gone,
                    f"{gone} ({f.status}) makes {folder}/ a folder pytest's default import mode "
                    f"puts first on sys.path: the modules in it become top-level names, "
                    "which replace first-party and standard-library modules of the same name "
                    "for every test (keep it)",
                )
            )
        if f.status not in PLACES:
            continue
        path = f.path
        how = "new" if f.status in (ADDED, COPIED) else f.status.replace("_", " ")
        where = f"{path} ({how})"
        leaf = path.rpartition("/")[2]
        if _startup(path):
            out.append(
                (
                    path,
                    f"{where} is a startup file in a site-packages folder: Python's site "
                    "module runs it before any test, and it can replace any module "
                    "(remove it; keep virtual environments out of the repository)",
                )
            )
            continue
        above = _above_src(path, first, layout.removed) or _at_root(path)
        if above is not None:
            out.append((path, f"{where} {above}"))
            continue
        if path.rpartition("/")[0] in LAYOUT_ROOTS or leaf.lower() == "conftest.py":
            continue  # first-party itself; a conftest.py is runner configuration
        if not layout.in_test_folder(_source_of(path)):
            continue
        stem = leaf.partition(".")[0]
        if leaf.endswith((".pyc", ".pyo")) or is_extension(leaf[len(stem) :]):
            kind = "an extension module" if is_extension(leaf[len(stem) :]) else "bytecode"
            out.append(
                (
                    path,
                    f"{where} is {kind} in a test folder, which Python loads before or "
                    "instead of the source of the same name (a hash-based .pyc without "
                    "reading the source): the gate cannot read what it runs; remove it",
                )
            )
            continue
        module = module_name(path)
        if module in STDLIB:
            out.append(
                (
                    path,
                    f"{where} is named like the standard library's {module}: pytest's "
                    "default import mode puts a test folder without __init__.py first on "
                    f"sys.path, so a test that imports {module} after it is collected gets "
                    "this file instead (rename it)",
                )
            )
            continue
        link = f.new_mode == MODE_SYMLINK or (f.new_mode is None and changes.source != "example")
        if changes.tree is None or not layout.roots_listed():
            if (changes.tree is not None or changes.source == "api") and (
                _reaches_top(path) or (link and leaf.isidentifier())
            ):
                out.append(
                    (
                        path,
                        f"{where} may be imported instead of a first-party module of the "
                        f"same name, and this source ({changes.source}) did not list the "
                        "base tree's modules (its root and src/) to tell; judge it with "
                        "`gate check` on a git repository",
                    )
                )
            continue
        found = _first_party_shadow(layout, path, first, link)
        if found is not None:
            out.append((path, f"{where} {found}"))
    return out


def _above_src(path: str, first: dict[str, list[FirstParty]], removed: set[str]) -> str | None:
    """How a module or package placed at the repository's root shadows a
    first-party one under `src/` (None: it does not): the root comes first
    on `sys.path` (`python -m pytest` puts the working folder there, and
    pytest's rootdir-based modes the rootdir), before `src/` (an install,
    or `pythonpath = src`).  One the change moves away from `src/` (its
    module, or its package's `__init__`) does not count: a layout change."""
    top, slash, inner = path.partition("/")
    name = _importable(top) if not slash else top if "/" not in inner and _init(inner) else None
    if name is None:
        return None
    under = [
        e
        for e in first.get(name, [])
        if e.path.startswith("src/")
        and e.path not in removed
        and not any(f"{e.path}{p}" in removed for p in ("__init__.py", "__init__.pyc"))
    ]
    if not under:
        return None
    form = "a module" if not slash else "a package"
    return (
        f"is {form} {name} at the repository's root, which comes before src/ on sys.path "
        f"when the tests run from the root (`python -m pytest`): every test that imports "
        f"{name} gets it instead of the first-party {_shown(under)} (rename it, or move it "
        "into src/)"
    )


def _at_root(path: str) -> str | None:
    """How a module or regular package placed at the repository's root
    stands in for a test runner or a standard-library module (None: it
    does not): `python -m pytest` and `python -m unittest` from the root
    put the root first on `sys.path`, before the standard library and
    every installed package, so the runner itself, or every import of the
    name by the runner and the tests, gets the root's."""
    top, slash, inner = path.partition("/")
    name = _importable(top) if not slash else top if "/" not in inner and _init(inner) else None
    if name is None or not (name in RUNNER_MODULES or name in STDLIB):
        return None
    form = "a module" if not slash else "a package"
    what = "the test runner" if name in RUNNER_MODULES else "the standard library's"
    return (
        f"is {form} {name} at the repository's root, named like {what} {name}: "
        "`python -m pytest` (or `python -m unittest`) from the root puts the root first "
        f"on sys.path, so the run imports this {name}, and may run it as the test runner "
        "itself, instead of the real one (rename it)"
    )


def _reaches_top(path: str) -> bool:
    """Whether Python may import the file `path` under some top-level name."""
    return _importable(path.rpartition("/")[2]) is not None


def _first_party_shadow(
    layout: _Layout, path: str, first: dict[str, list[FirstParty]], link: bool
) -> str | None:
    """How the file `path` in a test folder shadows a first-party name, or
    None.  `link`: `path` may be a symlink (its mode says so, or the source
    gives no modes), which a checkout makes a folder when it points to one:
    named like a first-party name, it may be a package."""
    for entry in layout.entries(path):
        rest = path[len(entry) + 1 :]
        top, slash, inner = rest.partition("/")
        if not slash:
            name = _importable(top)
            form = "a module"
            if name is None and top.isidentifier() and link:
                name, form = top, "a link that may be a package folder"
        else:
            name = top if top.isidentifier() else None
            form = "a package" if "/" not in inner and _init(inner) else "a namespace portion"
            if form == "a namespace portion" and _importable(rest.rpartition("/")[2]) is None:
                name = None  # a data file: nothing of it is imported
        if name is None or name not in first:
            continue
        hits = first[name]
        if form == "a namespace portion":
            hits = [e for e in hits if e.kind in (NAMESPACE, UNLISTED)]
            if not hits:
                continue  # a module or regular package anywhere comes first (PEP 420)
            return (
                f"makes {entry}/{top}/ {form} of the first-party namespace package {name} "
                f"({_shown(hits)}), which pytest's default import mode puts first on "
                f"sys.path: its modules replace {name}'s of the same name for every test "
                f"(rename the folder, or give {name} an __init__.py)"
            )
        rename = f"{top.partition('.')[0]}_helpers" if not slash else f"{top}_helpers"
        return (
            f"is {form} {name} in {entry}/, which pytest's default import mode puts first "
            f"on sys.path: every test that imports {name} gets it instead of the "
            f"first-party {_shown(hits)} (rename it, e.g. to {rename})"
        )
    return None
