"""One test tool's locked copies, as every lock file reader gives them
(`gate.drift.locks`, `gate.drift.lockjs`): `Copy` (a version, a source, the
artifacts' hashes), `Locked` (a tool's name -> its copies), hash strings
read as (artifact, algorithm, digest), and the error for a lock file of
another shape than its format's.  Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gate.base.structured import Unreadable


@dataclass(frozen=True, order=True)
class Copy:
    """One locked copy of a tool: its version, its source ("" for the
    ecosystem's default registry) and its artifacts' hashes, each
    (artifact, algorithm, digest); artifact "" where the format names one
    artifact or none."""

    version: str
    source: str = ""
    hashes: frozenset[tuple[str, str, str]] = frozenset()


# A tool's name -> its copies in one lock file.
Locked = dict[str, set[Copy]]


def add(found: Locked, name: str, copy: Copy) -> None:
    found.setdefault(name, set()).add(copy)


def hashes(items: Iterable[object], artifact: str = "") -> frozenset[tuple[str, str, str]]:
    """Hash strings (`sha256:HEX`, `sha512-BASE64`, several in one string
    split on spaces) as (artifact, algorithm, digest)."""
    out = set()
    for item in items:
        for one in item.split() if isinstance(item, str) else ():
            algorithm, sep, digest = one.partition(":" if ":" in one.split("-")[0] else "-")
            out.add((artifact, algorithm.lower(), digest) if sep else (artifact, "", one))
    return frozenset(out)


def shape(why: str) -> Unreadable:
    return Unreadable(f"is not a lock file of its format ({why})")


def packages(data: dict[str, Any], key: str = "package") -> list[dict[str, Any]]:
    """A TOML lock's `[[package]]` tables; `Unreadable` for another shape."""
    items = data.get(key, [])
    if not isinstance(items, list) or not all(isinstance(p, dict) for p in items):
        raise shape(f"`{key}` is not a list of tables")
    return items
