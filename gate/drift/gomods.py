"""The Go import paths a change renames in a `go.mod` it modifies, for
`gate.drift.identities` (see its docstring): the module path (`module A`
becoming `module B`) and a dependency's next major version (`P` required
at base, `P/vN` at head, or a `replace` that follows it); `prefixes`
gives a test file those of the nearest `go.mod` above it."""

from __future__ import annotations

import posixpath
import re

from gate.base.structured import go_mod_lines
from gate.drift.moved import World
from gate.model.change import MODIFIED, ChangeSet

_MODULE = re.compile(r"module\s+(\S+)")
_REQUIRE_ONE = re.compile(r"require\s+([^\s(]+)\s+\S+")
_REQUIRE_OPENS = re.compile(r"require\s*\((.*)")
_MAJOR = re.compile(r"\A(?P<root>.+?)(?:/v(?P<n>[2-9]|[1-9]\d+))?\Z")


def _opens(line: str) -> str | None:
    return "require" if _REQUIRE_OPENS.match(line) is not None else None


def _module(text: str) -> str | None:
    found = [
        m[1].strip('"')
        for _, line, _, _ in go_mod_lines(text, _opens)
        if (m := _MODULE.match(line)) is not None
    ]
    return found[0] if len(found) == 1 else None


def _requires(text: str) -> set[str]:
    """The module paths a go.mod requires, on one line or in a block."""
    found: set[str] = set()
    for block, line, _, _ in go_mod_lines(text, _opens):
        one = _REQUIRE_ONE.match(line) if block is None else None
        if one is not None:
            found.add(one[1].strip('"'))
            continue
        opened = _REQUIRE_OPENS.match(line) if block is None else None
        # a block's line, or the first requirement after its `(`
        words = line.split() if block == "require" else opened[1].split() if opened else []
        if len(words) == 2:
            found.add(words[0].strip('"'))
    return found


def _mod_pairs(base: str, head: str) -> set[tuple[str, str]]:
    """The Go import path prefixes one `go.mod` renamed (base and head texts)."""
    out: set[tuple[str, str]] = set()
    was, now = _module(base), _module(head)
    if was is None or now is None:
        return set()  # no single module line: nothing is proved
    before, after = _requires(base), _requires(head)
    if was != now and not any(below(p, was) or below(p, now) for p in before | after):
        out.add((was, now))  # neither also required: an import names the one module
    families: dict[str, tuple[set[str], set[str]]] = {}
    for side, paths in enumerate((before, after)):
        for path in paths:
            m = _MAJOR.match(path)
            if m is not None:
                families.setdefault(m.group("root"), (set(), set()))[side].add(path)
    for old, new in families.values():
        if len(old) == 1 and len(new) == 1 and not old & new:
            (a,), (b,) = old, new
            if _major(b) > _major(a):
                out.add((a, b))
    # a path a `replace` directive redirects may mean other code: proves
    # nothing, unless the base redirects the old path and the head the new
    # one to the same target and neither side redirects the other path
    # (`replace P/v88 => ../` becoming `replace P/v89 => ../`)
    return {
        (a, b)
        for a, b in out
        if not any(_in_replace(t, x) for t in (base, head) for x in (a, b))
        or (
            not _in_replace(base, b)
            and not _in_replace(head, a)
            and (target := _replaced(base, a)) is not None
            and target == _replaced(head, b)
        )
    }


def below(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(f"{prefix}/")


def _major(path: str) -> int:
    m = _MAJOR.match(path)
    return int(m.group("n")) if m is not None and m.group("n") else 1


def _redirects(text: str, path: str) -> list[tuple[list[str], list[str]]]:
    """The words before and after `=>` of each line of `text` (a `go.mod`)
    that redirects `path`: a `replace` line or a line of a `replace` block,
    and a commented-out one too (counted as one: the stricter reading)."""
    return [
        (left.split(), right.split())
        for line in text.splitlines()
        if "=>" in line
        for left, right in [line.split("=>", 1)]
        if path in left.split()
    ]


def _in_replace(text: str, path: str) -> bool:
    return bool(_redirects(text, path))


def _replaced(text: str, path: str) -> tuple[str, ...] | None:
    """What the one `replace` line of `text` that names `path`, with no
    version, redirects it to (its words after `=>`); None when no line,
    or more than one, names it, or the line names a version of it."""
    found = _redirects(text, path)
    if len(found) != 1:
        return None
    left, right = found[0]
    words = [w for w in left if w not in ("replace", "(")]
    return tuple(right) if words == [path] and right else None


def prefixes(changes: ChangeSet, test: str) -> dict[str, str]:
    """Each Go import path the change renamed for the test file `test`
    (old -> new), from the nearest `go.mod` above it when the change
    modifies it (both texts known) and no other stands between."""
    mods = {
        f.path: changes.texts.get(f.path)
        for f in changes.files
        if f.status == MODIFIED and not (f.symlink or f.submodule) and _is_go_mod(f.path)
    }
    if not mods:
        return {}
    world = World(changes)
    folder = posixpath.dirname(test)
    while True:
        path = f"{folder}/go.mod" if folder else "go.mod"
        texts = mods.get(path)
        if texts is not None and texts.base is not None and texts.head is not None:
            return dict(_mod_pairs(texts.base, texts.head))
        if path in mods or not all(world.exists(path, at) is False for at in (False, True)):
            return {}  # its text unknown, or another module (or an unknown one) between
        if not folder:
            return {}
        folder = posixpath.dirname(folder)


def _is_go_mod(path: str) -> bool:
    return path == "go.mod" or path.endswith("/go.mod")
