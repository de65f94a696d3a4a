"""Where Python imports, or runs, something else than a named module.

From the import system's order (`importlib.machinery`, PEP 3147, PEP 552,
PEP 420, the `site` module): a package folder or an extension module
beside the module (`shadows`), its cached bytecode (`cached_bytecode`), a
startup file or a module in a `site-packages` folder, a module on an
earlier `sys.path` entry (a test folder: `shadows_from_tests`; a folder
above it: `shadows_from_above`).  `shadow_of` says where for one path;
`shadowed` finds the file a change places that does it, the first check
of a Python content rule's opening (`gate.rules._opening.versions`).

Also the words `gate.drift.python.shadow` (what a file in the test tree makes
every test import instead) shares with it: the statuses that place a file
(`PLACES`), the site folders and startup modules (`SITE_DIRS`,
`SITE_MODULES`), an extension module's suffix (`is_extension`) and the
name a file is imported as (`module_name`).  Pure.
"""

from __future__ import annotations

from collections.abc import Callable

from gate.model.change import ADDED, COPIED, RENAMED, TYPE_CHANGED, UNKNOWN, ChangeSet


def shadows(path: str, other: str) -> bool:
    """Whether a file at `other` makes Python import something else than
    the module `path` (a `.py` file) from the same folder.  Python's finder
    looks in a folder for a package (a folder `name/` with an `__init__`
    of any suffix it loads) first, then an extension module
    (`name.so`, `name.cpython-311-x86_64-linux-gnu.so`, `name.pyd`, ...),
    and only then `name.py`: so `clamp_kit/__init__.py` or `clamp_kit.so`
    beside `clamp_kit.py` replaces it for `import clamp_kit`.  (For a
    package's own `pkg/__init__.py`, an extension `pkg/__init__.so` does.)"""
    folder, _, name = path.rpartition("/")
    if not name.endswith(".py"):
        return False
    stem = name[: -len(".py")]
    prefix = f"{folder}/" if folder else ""
    if not other.startswith(prefix):
        return False
    rest = other[len(prefix) :]
    init = f"{stem}/__init__"
    if stem != "__init__" and rest.startswith(init + "."):
        return rest[len(init) :] in _INIT_SUFFIXES or is_extension(rest[len(init) :])
    return rest.startswith(stem + ".") and "/" not in rest and is_extension(rest[len(stem) :])


# What Python's finder loads a package's `__init__` from, besides extensions.
_INIT_SUFFIXES = frozenset({".py", ".pyw", ".pyc"})


def is_extension(suffix: str) -> bool:
    """`.so`/`.pyd`, alone or after a tag (`.abi3.so`, `.cp311-win_amd64.pyd`):
    every platform's extension module suffix, not only this one's."""
    return suffix.endswith((".so", ".pyd")) and suffix.count(".") <= 2


def shadowed(changes: ChangeSet, path: str) -> tuple[str, str] | None:
    """(a file the change adds, or renames, copies or changes into place,
    that Python imports or runs instead of the module `path`; where) or
    None (`shadow_of`).  A path known only by name (a writer's
    `result.json`) counts as added."""
    from gate.base import globs
    from gate.model.rubric import DEFAULT_TESTS

    in_tests = globs.matcher(DEFAULT_TESTS, globs.FOLDED)  # built once, not per file
    # Every form is named like a name the file is imported by, or is an
    # `__init__`, or sits in a site folder: a cheap test on the name first
    # (on 10,000 added files, 3 ms with it and 80 ms without).
    stems = _import_names(path) | {"__init__"}
    for f in changes.files:
        if f.status not in PLACES:
            continue
        leaf = f.path.rpartition("/")[2]
        if leaf.partition(".")[0] not in stems and "-packages/" not in f.path:
            continue
        where = shadow_of(path, f.path, in_tests)
        if where is not None:
            return f.path, where
    return None


# The statuses that put a file at a path where the base had none (or another
# type: a dangling symlink made a real extension module).
PLACES = frozenset({ADDED, COPIED, RENAMED, TYPE_CHANGED, UNKNOWN})
# Folders whose `.pth` files and `sitecustomize`/`usercustomize` modules
# Python's `site` module runs at startup (a virtual environment committed
# inside the repository: `.venv/lib/python3.12/site-packages/`,
# `.venv/Lib/site-packages/`, Debian's `dist-packages`).
SITE_DIRS = frozenset({"site-packages", "dist-packages"})
SITE_MODULES = frozenset({"sitecustomize", "usercustomize"})


def shadow_of(path: str, other: str, in_tests: Callable[[str], bool]) -> str | None:
    """Where a file at `other` makes Python import, or run, something else
    than the module `path` (a `.py` file), or None.  Derived from the
    import system (`importlib.machinery`, PEP 3147, PEP 552, PEP 420, the
    `site` module); every form this platform loads is checked against a
    real import in the tests (`tests/drift/test_hostile_imports.py`):

    - beside it (`shadows`): a package folder of the same name, or an
      extension module, which Python's finder tries before the source;
    - its cached bytecode (`cached_bytecode`): `__pycache__/NAME.TAG.pyc`,
      which a hash-based pyc (PEP 552) makes Python run instead of the
      source, unchecked or checked against a source the writer knows;
    - at startup: a `.pth` file or a `sitecustomize`/`usercustomize` module
      in a `site-packages` folder (a virtual environment in the checkout),
      whose `import` lines run before any test and may replace any module;
      and a module there named like a name the file may be imported by
      (an editable install appends the project's folder after it);
    - on an earlier `sys.path` entry: a module or package in a test folder
      (`shadows_from_tests`), or in a folder above the file (the
      repository's root, a `src/`), named like a name the file may be
      imported by (`shadows_from_above`).

    Not shadows, as Python's finder decides: a sourceless `NAME.pyc`
    beside the source (the source comes first), a namespace folder
    `NAME/` without `__init__` on any entry (a module anywhere on the path
    comes first, PEP 420)."""
    folders = other.split("/")
    if any(folder in SITE_DIRS for folder in folders[:-1]):
        if folders[-1].endswith(".pth") or module_name(other) in SITE_MODULES:
            return (
                "in a site-packages folder, which Python's site module runs at startup "
                "from a virtual environment in the checkout"
            )
        if module_name(other) in _import_names(path):
            return (
                "in a site-packages folder, which comes before a folder an editable "
                "install adds to sys.path"
            )
    if shadows(path, other):
        return "beside it"
    if cached_bytecode(path, other):
        return (
            "as its cached bytecode, which Python runs instead of the source when the "
            "file is a hash-based .pyc (PEP 552)"
        )
    if shadows_from_tests(path, other, in_tests):
        return "from a test folder, which pytest puts first on sys.path"
    if shadows_from_above(path, other):
        return (
            "from a folder above it, which comes first on sys.path when Python runs "
            "from there (the repository's root, a src/ folder)"
        )
    return None


def cached_bytecode(path: str, other: str) -> bool:
    """Whether `other` is cached bytecode of the module `path`:
    `__pycache__/NAME.TAG.pyc` in its folder (PEP 3147; any interpreter's
    tag, `cpython-312`, `pypy310`, with or without `.opt-1`/`.opt-2`)."""
    folder, _, name = path.rpartition("/")
    if not name.endswith(".py"):
        return False
    cache = f"{folder}/__pycache__/" if folder else "__pycache__/"
    if not other.startswith(cache):
        return False
    rest = other[len(cache) :]
    stem = name[: -len(".py")]
    return "/" not in rest and rest.startswith(stem + ".") and rest.endswith(".pyc")


def shadows_from_above(path: str, other: str) -> bool:
    """Whether a module at `other`, in a folder above the file `path` (an
    ancestor, the repository's root included), is named like a name the
    file may be imported by (its stem, or a folder on its way): when that
    folder comes before the file's own on `sys.path` (Python run from the
    root puts it first; a `src/` layout puts `src/` on the path), `import
    clamp_kit` finds `clamp_kit.py` at the root before `src/clamp_kit.py`,
    and `src.py` at the root replaces the namespace folder `src/`.  The
    file's own package folders do not count (`src/__init__.py` for
    `src/clamp_kit.py` is the same package), nor a module beside a folder
    the file proves a regular package (`pkg.py` beside `pkg/__init__.py`:
    the package comes first)."""
    name = module_name(other)
    if name is None:
        return False
    where, _, leaf = other.rpartition("/")
    package = leaf.startswith("__init__.")
    if package:
        where = where.rpartition("/")[0]  # a package lives in its parent folder
    above = path.split("/")[:-1]
    here = where.split("/") if where else []
    if len(here) >= len(above) or above[: len(here)] != here:
        return False  # not strictly above the file (its own folder: `shadows`)
    below = above[len(here) :]
    stem = path.rpartition("/")[2].removesuffix(".py")
    if name == below[0] and (package or (stem == "__init__" and len(below) == 1)):
        return False
    return name in {*below, stem} - {"__init__"}


def module_name(path: str) -> str | None:
    """The top-level name a file is imported as from its own folder
    (`c` for `a/b/c.py`, `a/b/c/__init__.py` or `a/b/c.abi3.so`), or None."""
    folder, _, name = path.rpartition("/")
    if name.startswith("__init__."):
        name = folder.rpartition("/")[2]
        return name or None
    stem, dot, _ = name.partition(".")
    if not dot or not (name.endswith((".py", ".pyc", ".pyw")) or is_extension(name[len(stem) :])):
        return None
    return stem


def shadows_from_tests(path: str, other: str, in_tests: Callable[[str], bool]) -> bool:
    """Whether a module at `other`, in a test folder (`in_tests`: the default
    test globs, folded), may replace the module `path` for the tests: pytest puts each
    test module's folder first on `sys.path` (its default import mode), so
    `tests/clamp_kit.py` is what `from clamp_kit import clamp` in
    `tests/test_clamp.py` imports.  `other` counts when it is named like any
    folder or the file of `path` (the name a test may import it by)."""
    name = module_name(other)
    if name is None:
        return False
    return name in _import_names(path) and in_tests(other)


def _import_names(path: str) -> set[str]:
    """The top-level names the file `path` may be imported by: its stem and
    each folder on its way (`src`, `pkg`, `mod` for `src/pkg/mod.py`),
    whichever of its folders is on `sys.path`."""
    return {segment.removesuffix(".py") for segment in path.split("/")} - {"__init__"}
