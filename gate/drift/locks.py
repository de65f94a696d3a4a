"""Which version of each test tool a lock file installs, and how a change
moved it (`lock_changes`): the locked twin of `gate.drift.pins`.  A lock
file decides the exact copy of every package an install takes, so a
test runner, assertion library, plugin or coverage tool (the same lists
as `gate.drift.pins`: `gate.drift.vendored`, read through
`gate.drift.elsewhere`'s name tests, and `vendored.RUST_TEST_CRATES` for
Cargo.lock) whose locked copy moves changes how the existing tests run,
as a bump in a manifest does.

A tool's copies in a lock file (`Copy`): its version, its source (empty
for the ecosystem's default registry; else the registry URL, git
repository and commit, tarball URL, folder or link the file names) and
the hashes of its artifacts.  Per tool, the set of (version, source)
pairs is compared: a version moved, a copy added or removed (a new test
tool, a nested second copy), or the same version taken from another
source is a change.  Where both sides name the same version and source,
hashes are compared per artifact and algorithm: a hash that neither side's
set contains the other of (a swapped tarball) is a change; a hash added
or dropped beside the others (a new wheel, a `resolved` or `integrity`
dropped) is not.  Where a copy sits (hoisted, nested, which workspace
member) is not compared, so re-hoisting or reordering moves nothing;
other packages' moves, formatting and comments are no change.

The formats, read with the parsers made for them (`gate.drift.lockjs`
for the npm ecosystem's):

* `uv.lock`, `poetry.lock`, `pdm.lock`: TOML, each `[[package]]`'s
  `name` (PEP 503 normalized, so `PyTest_Asyncio` is `pytest-asyncio`),
  `version`, source (uv's `source` table but PyPI's registry; Poetry's
  `[package.source]`; PDM's `git`, `revision`, `url`, `path`, `editable`)
  and file hashes (`sdist`, `wheels`, `files`, Poetry 1.x's
  `[metadata.files]`).
* `Pipfile.lock`: JSON, `default` and `develop`, each entry's `version`,
  its index (by `_meta.sources`' URL; PyPI's is the default), `git`,
  `ref`, `path`, `file`, `editable`, and `hashes`.
* `Cargo.lock`: TOML `[[package]]` `name`, `version`, `source` (crates.io,
  through its git or sparse index, is the default) and `checksum`.
* npm's `package-lock.json` and `npm-shrinkwrap.json`, `pnpm-lock.yaml`,
  `yarn.lock` (classic and Berry) and `bun.lock`: `gate.drift.lockjs`.

A lock file the gate cannot read (not valid TOML, JSON or YAML, a
shape its format does not have) raises `Unreadable`, which `test_drift`
counts as drift.  A renamed lock file is compared across its two paths
(`test_drift` pairs them); a new lock file's tools are added, a deleted
one's removed (what installs then floats).  Where a change writes several
lock files of one ecosystem, a tool whose copies only moved between them
(`pooled_moves`: per-package locks folded into the workspace's root lock,
or a root lock split per package, each copy at the same version, source
and artifact) moved nothing; a copy dropped on the way, or taken from
another source or artifact, did, and is named per file as above.  Out of reach: `go.sum`
(it lists every version a build may have considered, not the one chosen:
go.mod's `require` is `gate.drift.pins`'), `bun.lockb` (binary), and
`.pnp.cjs` and `.yarn/cache/`.  Pure."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from gate.base import globs
from gate.base.paths import fold_names
from gate.base.structured import Unreadable, json_object, json_text, toml
from gate.drift import lockjs
from gate.drift.elsewhere import is_py_test_distribution
from gate.drift.lockcopy import Copy, Locked, add, hashes, packages, shape
from gate.drift.vendored import RUST_TEST_CRATES
from gate.manifests.dependency import py_name
from gate.model.change import LOCK_NAMES


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise shape(f"{what} is not a string")
    return value


_PYPI = ("https://pypi.org/simple", "https://pypi.org/simple/", "https://pypi.python.org/simple")


def _python_toml(
    text: str, source_of: Callable[[dict[str, Any]], str], read: Callable[[str], Any] = toml
) -> Locked:
    data = read(text)
    found: Locked = {}
    files = (
        data.get("metadata", {}).get("files", {}) if isinstance(data.get("metadata"), dict) else {}
    )
    for package in packages(data):
        name = _text(package.get("name"), "a package's name")
        if not is_py_test_distribution(name):
            continue
        version = package.get("version", "")
        artifacts: list[dict[str, Any]] = []
        for key in ("sdist", "wheels", "files"):
            value = package.get(key)
            artifacts += (
                [value] if isinstance(value, dict) else value if isinstance(value, list) else []
            )
        old = files.get(name) if isinstance(files, dict) else None
        artifacts += old if isinstance(old, list) else []
        digests: set[tuple[str, str, str]] = set()
        for artifact in artifacts:
            if isinstance(artifact, dict):
                where = artifact.get("file") or artifact.get("url") or artifact.get("path") or ""
                digests |= hashes([artifact.get("hash")], str(where).rsplit("/", 1)[-1])
        add(found, py_name(name), Copy(str(version), source_of(package), frozenset(digests)))
    return found


def _uv_source(package: dict[str, Any]) -> str:
    source = package.get("source")
    if isinstance(source, dict) and set(source) == {"registry"} and source["registry"] in _PYPI:
        return ""
    return "" if source is None else json_text(source)


def _poetry_source(package: dict[str, Any]) -> str:
    source = package.get("source")
    return "" if source is None else json_text(source)


_PDM_SOURCE = ("git", "revision", "ref", "url", "path", "editable", "subdirectory")


def _pdm_source(package: dict[str, Any]) -> str:
    source = {k: package[k] for k in _PDM_SOURCE if k in package}
    return json_text(source) if source else ""


def _uv(text: str) -> Locked:
    return _python_toml(text, _uv_source, _package_tables)


# A `uv.lock`'s `[[package]]` tables parsed one at a time, each kept by its
# text: a history's versions of the lock share nearly all of them.
_KEPT_TABLE_CHARS = 16_000_000
_tables: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
_table_chars = [0]
_TABLE = "\n[[package]]"


def _package_tables(text: str) -> dict[str, Any]:
    """`toml(text)`, read as the text before its first `[[package]]` line
    and each `[[package]]` table apart (to the next such line), the tables
    seen before not parsed again.  Read so only where every piece parses
    alone, none but the first names `package` and no other top-level key,
    and the first names no `package`: then the pieces are the document's
    own top-level parts (a line cut inside a multi-line string or array
    leaves the piece before it unparsable), and the document is the first
    piece's keys and the tables in order.  Else the text is read whole (its
    error, if any, is the text's own)."""
    first, *rest = text.split(_TABLE)
    try:
        data = toml(first)
    except Unreadable:
        return toml(text)
    if not rest or "package" in data:
        return toml(text)
    tables: list[dict[str, Any]] = []
    for piece in rest:
        held = _tables.get(piece)
        if held is None:
            try:
                read = toml("[[package]]" + piece)
            except Unreadable:
                return toml(text)
            found = read.get("package")
            if len(read) != 1 or not isinstance(found, list):
                return toml(text)
            held = _tables[piece] = found
            _table_chars[0] += len(piece)
            while _table_chars[0] > _KEPT_TABLE_CHARS:
                old, _ = _tables.popitem(last=False)
                _table_chars[0] -= len(old)
        else:
            _tables.move_to_end(piece)
        tables.extend(held)
    data["package"] = tables
    return data


def _poetry(text: str) -> Locked:
    return _python_toml(text, _poetry_source)


def _pdm(text: str) -> Locked:
    return _python_toml(text, _pdm_source)


_PIPENV_SOURCE = ("git", "ref", "path", "file", "editable", "subdirectory")


def _pipfile(text: str) -> Locked:
    data = json_object(text)
    meta = data.get("_meta")
    indexes: dict[str, str] = {}
    for source in meta.get("sources", []) if isinstance(meta, dict) else []:
        if isinstance(source, dict) and isinstance(source.get("name"), str):
            indexes[source["name"]] = str(source.get("url", ""))
    found: Locked = {}
    for group in ("default", "develop"):
        entries = data.get(group, {})
        if not isinstance(entries, dict):
            raise shape(f"`{group}` is not an object")
        for name, entry in entries.items():
            if not is_py_test_distribution(name):
                continue
            if not isinstance(entry, dict):
                raise shape(f"`{group}.{name}` is not an object")
            source = {k: entry[k] for k in _PIPENV_SOURCE if k in entry}
            index = entry.get("index")
            if index is not None and indexes.get(str(index), "").rstrip("/") + "/" not in (
                "https://pypi.org/simple/",
                "https://pypi.python.org/simple/",
            ):
                source["index"] = indexes.get(str(index), str(index))
            version = str(entry.get("version", "")).removeprefix("==")
            copy = Copy(
                version, json_text(source) if source else "", hashes(entry.get("hashes", []))
            )
            add(found, py_name(name), copy)
    return found


_CRATES_IO = (
    "registry+https://github.com/rust-lang/crates.io-index",
    "sparse+https://index.crates.io/",
)


def _cargo(text: str) -> Locked:
    found: Locked = {}
    for package in packages(toml(text)):
        name = _text(package.get("name"), "a package's name")
        if name.replace("_", "-") not in {c.replace("_", "-") for c in RUST_TEST_CRATES}:
            continue
        source = str(package.get("source", ""))
        copy = Copy(
            str(package.get("version", "")),
            "" if source in _CRATES_IO else source,
            hashes([package.get("checksum")]) if package.get("checksum") else frozenset(),
        )
        add(found, name, copy)
    return found


# A lock file's name (letter case folded) -> its reader.
READERS: dict[str, Callable[[str], Locked]] = {
    "uv.lock": _uv,
    "poetry.lock": _poetry,
    "pdm.lock": _pdm,
    "pipfile.lock": _pipfile,
    "cargo.lock": _cargo,
    "package-lock.json": lockjs.npm,
    "npm-shrinkwrap.json": lockjs.npm,
    "pnpm-lock.yaml": lockjs.pnpm,
    "yarn.lock": lockjs.yarn,
    "bun.lock": lockjs.bun,
}
LOCK_GLOBS = tuple(f"**/{name}" for name in sorted(LOCK_NAMES))
WHAT = "the test tools' locked versions"


def is_lock(path: str) -> bool:
    """Whether `path` is a lock file this module reads (its name, letter
    case and Unicode folded as `test_drift` matches)."""
    return globs.matches(path, LOCK_GLOBS, globs.FOLDED)


def _reader(path: str) -> Callable[[str], Locked]:
    name = fold_names(path).rsplit("/", 1)[-1]
    reader = READERS.get(name)
    if reader is None:
        raise ValueError(f"{path!r} is not a lock file")  # a caller's mistake
    return reader


def same_kind(path: str, other: str) -> bool:
    """Whether both paths are lock files of one format (a renamed lock)."""
    return is_lock(path) and is_lock(other) and _reader(path) is _reader(other)


def locked(path: str, text: str) -> Locked:
    """The test tools `path`'s text locks (a value to read, not to change);
    raises `Unreadable` when the text cannot be read."""
    return _locked(_reader(path), text)


@lru_cache(maxsize=4)
def _locked(reader: Callable[[str], Locked], text: str) -> Locked:
    """One parse a text: a history's head is its next commit's base (a
    1.5 MB uv.lock takes a second to parse)."""
    try:
        return reader(text)
    except RecursionError:
        raise Unreadable("is nested too deeply to read") from None


def _shown(copies: set[Copy]) -> str:
    versions = sorted({c.version + (f" from {c.source}" if c.source else "") for c in copies})
    text = ", ".join(versions)
    return f"`{text if len(text) <= 96 else text[:93] + '...'}`"


def _swapped(before: set[Copy], after: set[Copy]) -> list[str]:
    """The (version, source) pairs both sides hold whose hashes neither
    side's set contains the other of, per artifact and algorithm."""
    out = []
    for key in sorted({(c.version, c.source) for c in before}):
        sides = []
        for copies in (before, after):
            groups: dict[tuple[str, str], set[str]] = {}
            for c in copies:
                if (c.version, c.source) == key:
                    for artifact, algorithm, digest in c.hashes:
                        groups.setdefault((artifact, algorithm), set()).add(digest)
            sides.append(groups)
        was, now = sides
        for group in sorted(set(was) & set(now)):
            if not (was[group] <= now[group] or now[group] <= was[group]):
                out.append(key[0])
                break
    return out


def lock_sides(
    path: str, base: str | None, head: str | None, base_path: str | None = None
) -> tuple[Locked, Locked]:
    """The test tools `path` locks at base and at head (`base_path`: where
    the base side was; None text: the side has no such file); raises
    `Unreadable`, naming the side, when one cannot be read."""
    sides: list[Locked] = []
    for side, where, text in (("base", base_path or path, base), ("head", path, head)):
        try:
            sides.append(locked(where, text) if text is not None else {})
        except Unreadable as exc:
            raise Unreadable(f"the {side} version {exc}") from None
    return sides[0], sides[1]


def moves(before: Locked, after: Locked) -> list[tuple[str, str]]:
    """(tool, phrase) for each tool whose copies moved from `before` to
    `after` (`syrupy: `5.1.0` -> `5.3.1``), in order."""
    out = []
    for name in sorted(set(before) | set(after)):
        was, now = before.get(name, set()), after.get(name, set())
        if not was:
            out.append((name, f"{name} added ({_shown(now)})"))
        elif not now:
            out.append((name, f"{name} removed (was {_shown(was)})"))
        elif {(c.version, c.source) for c in was} != {(c.version, c.source) for c in now}:
            out.append((name, f"{name}: {_shown(was)} -> {_shown(now)}"))
        else:
            out += [
                (name, f"{name} {version}: another artifact (its hash changed)")
                for version in _swapped(was, now)
            ]
    return out


def lock_changes(
    path: str, base: str | None, head: str | None, base_path: str | None = None
) -> tuple[str, ...]:
    """How the change moved the test tools `path` locks, one phrase a tool
    (`syrupy: `5.1.0` -> `5.3.1``), in order; empty when none moved.
    `base_path`: where the base side was (a renamed lock file).  Raises
    `Unreadable` (naming the side) when a side cannot be read."""
    return tuple(phrase for _, phrase in moves(*lock_sides(path, base, head, base_path)))


# Lock files whose copies are one ecosystem's, comparable across files;
# every other lock file is the npm registry's.
_FAMILIES = {
    "uv.lock": "python",
    "poetry.lock": "python",
    "pdm.lock": "python",
    "pipfile.lock": "python",
    "cargo.lock": "rust",
}


def family(path: str) -> str:
    """The ecosystem whose packages the lock file `path` installs."""
    return _FAMILIES.get(fold_names(path).rsplit("/", 1)[-1], "npm")


def pooled_moves(files: list[tuple[str, Locked, Locked]]) -> frozenset[tuple[str, str]]:
    """The (ecosystem, tool) pairs whose copies moved over all of `files`
    together, each (path, base tools, head tools: `lock_sides`) a lock
    file the change writes: per ecosystem (`family`), every file's base
    copies of a tool pooled against every file's head copies, compared as
    `lock_changes` compares one file's.  Copies that only moved from one
    lock file to another (a package's lock folded into the workspace's
    root lock, a lock split per package) move nothing."""
    before: dict[str, Locked] = {}
    after: dict[str, Locked] = {}
    for path, was, now in files:
        kind = family(path)
        for pool, side in ((before, was), (after, now)):
            for name, copies in side.items():
                pool.setdefault(kind, {}).setdefault(name, set()).update(copies)
    return frozenset(
        (kind, name)
        for kind in sorted(set(before) | set(after))
        for name, _ in moves(before.get(kind, {}), after.get(kind, {}))
    )
