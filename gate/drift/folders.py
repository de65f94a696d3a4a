"""Which folders of the base tree a change source lists for `test_drift`
(`gate.model.change.BaseTree`, read when a kind reads `TREE`): where Python may
find what a change's new modules shadow (`gate.drift.python.shadow`), and
whether a new Go test file's package had tests at base
(`gate.drift.go.apart`).  Pure; the sources (`gate/changes/git.py`,
`gate/changes/patch.py`, `gate/changes/api.py`) list what it names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gate.base import globs
from gate.drift import suffix
from gate.drift.growth import NEW_FOLDER_FILES
from gate.drift.language import BY_SUFFIX
from gate.model.change import ADDED, COPIED, MODIFIED, RENAMED, UNKNOWN, BaseTree, FileChange

# Where Python finds a project's own top-level modules and packages: the
# repository's root (a flat layout, and `python -m pytest` puts it on
# `sys.path`) and `src/` (the src layout), the two layouts setuptools,
# hatch, PDM, flit and Poetry discover by themselves.
LAYOUT_ROOTS = ("", "src")
# The suffixes of what Python may import or run (sources, bytecode,
# extension modules, `.pth` files).
_IMPORTABLE = (".py", ".pyw", ".pyc", ".pyo", ".so", ".pyd", ".pth")


def tree_folders(files: Iterable[FileChange]) -> tuple[str, ...]:
    """The base folders a source lists for `BaseTree`, sorted: the layout
    roots; in each, the folders named like a folder or module a written
    path goes through (`clamp` for `tests/clamp.py` or `tests/clamp/x.py`:
    a first-party package of that name, regular or namespace, which
    its listing tells apart); and each folder above a written path that
    Python may import (what sits beside a new module there, and which of
    them hold an `__init__`, which decides the folder pytest puts on
    `sys.path`; a file without a suffix counts, being maybe a symlink to
    a package folder).  Only Python identifiers: nothing else is imported.
    A folder absent at base is simply not found.  Only what a change
    places or removes (added, copied, renamed, type-changed, deleted) asks
    for folders: a file changed in place, mode included, was already where
    Python finds it (`gate.drift.python.shadow` judges those paths alone).
    Also the folder of each new Go test file (`x_test.go`) and the folders
    above it: whether its package had tests at base (`BaseTree.folder`),
    which its `init` or `TestMain` would reach; and of each Go test file
    it modifies: the package's files (`go_package_files`).  And, as `D/**` (the
    folder and every folder below it) with the folders above it, the folder
    of each `package.json` written below the root and of each new Jest or
    Vitest configuration there (`gate.drift.growth.FOLDER_CONFIGS`):
    whether it holds tests at base (`gate.drift.growth.untested`).  And
    the folders of both paths of each rename of a code file and every
    folder above them:
    what an import names before and after a move (`gate.drift.moved`).
    And where the change modifies a `go.mod`, the folder of each Go file it
    modifies and every folder above it: which `go.mod` governs it
    (`gate.drift.gomods.prefixes`)."""
    packages = _go_packages(files) | _package_folders(files) | _moved_folders(files)
    packages |= _go_modules(files)
    wanted: set[str] = set()
    names: set[str] = set()
    # Each folder's names once, however many written paths it holds.
    folders: set[str] = set()  # "a/b/" for a/b/x.py ("" for a path without "/")
    importable: set[str] = set()  # those folders, above a path Python may import
    for f in files:
        if f.status in (UNKNOWN, MODIFIED):
            continue  # a file changed in place moves nothing on the import path
        for path in f.written:
            leaf = path.rpartition("/")[2]
            folder = path[: len(path) - len(leaf)]
            names.add(leaf.partition(".")[0])
            if folder not in folders:
                folders.add(folder)
                names.update(p.partition(".")[0] for p in folder[:-1].split("/") if folder)
            if folder not in importable and (
                leaf.endswith(_IMPORTABLE) or ("." not in leaf and leaf.isidentifier())
            ):
                importable.add(folder)
                parts = folder[:-1].split("/") if folder else []
                wanted.update("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
                wanted.update(LAYOUT_ROOTS)
    if not wanted:
        return tuple(sorted(packages))  # nothing Python imports is written: nothing to shadow
    for root in LAYOUT_ROOTS:
        prefix = f"{root}/" if root else ""
        wanted.update(prefix + n for n in names if n.isidentifier() and not n.startswith("__"))
    python = {w for w in wanted if all(p.isidentifier() for p in w.split("/") if p)}
    return tuple(sorted(python | packages))


def _add_with_parents(wanted: set[str], folder: str) -> None:
    """Add `folder` and every folder above it ("" the root) to `wanted`,
    up to the first one it already holds."""
    while folder not in wanted:
        wanted.add(folder)
        if not folder:
            break
        folder = folder.rpartition("/")[0]


def _moved_folders(files: Iterable[FileChange]) -> set[str]:
    """The folder of each side of each rename of a code file (a suffix a
    language reads, `gate.drift.language.BY_SUFFIX`), and every folder
    above it."""
    wanted: set[str] = set()
    for f in files:
        if f.status != RENAMED or f.old_path is None:
            continue
        if not {suffix(f.old_path).lower(), suffix(f.path).lower()} & BY_SUFFIX.keys():
            continue
        for path in (f.old_path, f.path):
            _add_with_parents(wanted, path.rpartition("/")[0])
    return wanted


def _go_modules(files: Iterable[FileChange]) -> set[str]:
    """Where a change modifies a `go.mod`: the folder of each Go file it
    modifies, and every folder above it ("" the root)."""
    files = tuple(files)
    wanted: set[str] = set()
    if not any(f.status == MODIFIED and f.path.rpartition("/")[2] == "go.mod" for f in files):
        return wanted
    for f in files:
        if f.status == MODIFIED and f.path.endswith(".go"):
            _add_with_parents(wanted, f.path.rpartition("/")[0])
    return wanted


def _go_packages(files: Iterable[FileChange]) -> set[str]:
    """The folder of each Go test file a change adds, copies or modifies,
    and every folder above it ("" the root): a source lists parents first."""
    wanted: set[str] = set()
    for f in files:
        if f.status not in (ADDED, COPIED, MODIFIED) or not f.path.endswith("_test.go"):
            continue
        _add_with_parents(wanted, f.path.rpartition("/")[0])
    return wanted


def go_package_files(files: Sequence[FileChange], tree: BaseTree) -> list[str]:
    """Every Go file at base (`.go`, a file entry) of the folder of each
    Go test file `files` modifies in place, as `tree` lists it (a folder
    not listed: none): what `gate.drift.go.unread` reads to prove that no
    code of the package reads a declaration the test file removed."""
    out: list[str] = []
    for folder in sorted({f.path.rpartition("/")[0] for f in files if _go_modified(f)}):
        entries = tree.folder(folder) or {}
        prefix = f"{folder}/" if folder else ""
        out += [f"{prefix}{n}" for n, kind in sorted(entries.items()) if _go_file(n, kind)]
    return out


def _go_modified(f: FileChange) -> bool:
    return f.status == MODIFIED and f.path.endswith("_test.go") and not (f.symlink or f.submodule)


def _go_file(name: str, kind: str) -> bool:
    return kind == "file" and name.endswith(".go")


def _package_folders(files: Iterable[FileChange]) -> set[str]:
    """`D/**` for the folder D of each package.json written below the root
    and of each new runner configuration scoped to its folder
    (`NEW_FOLDER_FILES`), and every folder above D ("" the root); `/**`
    (the root and every folder below it) for such a new file at the root."""
    wanted: set[str] = set()
    for f in files:
        if f.status == UNKNOWN:
            continue
        for path in f.written:
            folder = path.rpartition("/")[0]
            name = path.rpartition("/")[2]
            new = f.status in (ADDED, COPIED) and globs.matches(
                path, NEW_FOLDER_FILES, globs.FOLDED
            )
            if not folder and new:
                wanted.add("/**")  # the whole base: whether it holds any test
            if not folder or (name != "package.json" and not new):
                continue
            wanted.add(f"{folder}/**")
            _add_with_parents(wanted, folder)
    return wanted
