"""Which dependencies a change brings in: the comparison of the
declarations of the manifests a change writes, at base and at head.

The declarations are pooled per ecosystem over every manifest the change
writes (the base versions of modified, deleted and renamed-away ones, the
head versions of modified, added and renamed-in ones), so a dependency
moved between sections of a manifest, or between manifests of one
ecosystem that the change writes (a requirements file folded into
pyproject.toml, a package's dependency moved to the workspace root), is
not new.  A head declaration is:

* `ADDED` when no base declaration of its ecosystem has its role and
  normalized name (`Dependency.key`);
* `NEW_SOURCE` when some do but none takes it from its source (a
  registry package now taken from a git repository, a path, a tarball,
  an alias, another index);
* `BUMPED` when it names a version no base declaration of that name and
  source names (reported only when asked: `news(..., bumps=True)`).

An npm alias (`"undici8": "npm:undici@^8"`) of a package some base
declaration takes from the registry under its own name brings in no new
package (a second major version of one the project depends on); an alias
of any other package is `ADDED` under its alias.

A go.mod's new `// indirect` requirement is not judged when the same
go.mod gains or moves a direct requirement (the go command adds what
those need); one that comes alone is `ADDED`.  Each (manifest, role,
name, source) is reported once.  Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gate.manifests.dependency import PACKAGE, Dependency

ADDED = "added"
NEW_SOURCE = "new source"
BUMPED = "bumped"


@dataclass(frozen=True, order=True)
class New:
    """One head declaration the change brings in, `why` (`ADDED`,
    `NEW_SOURCE`, `BUMPED`), and what the base declared for its name
    (`was`: the sources, or the specs, sorted)."""

    dependency: Dependency
    why: str
    was: tuple[str, ...] = ()


def _pool(deps: Iterable[Dependency]) -> dict[tuple[str, str, str], list[Dependency]]:
    pool: dict[tuple[str, str, str], list[Dependency]] = {}
    for d in deps:
        pool.setdefault((d.ecosystem, d.role, d.key), []).append(d)
    return pool


def _direct_moved(
    base: dict[tuple[str, str, str], list[Dependency]], head: list[Dependency]
) -> set[str]:
    """The go.mod files whose direct requirements the change adds or moves."""
    moved = set()
    for d in head:
        if d.ecosystem == "go" and d.section == "require" and not d.indirect:
            known = base.get((d.ecosystem, d.role, d.key), [])
            if d.spec not in {k.spec for k in known}:
                moved.add(d.manifest)
    return moved


def _aliases_known(d: Dependency, before: dict[tuple[str, str, str], list[Dependency]]) -> bool:
    """`d` is an npm alias of a package a base declaration takes from the
    registry under its own name."""
    if d.ecosystem != "npm" or not d.source.startswith("npm:"):
        return False
    target = d.source.removeprefix("npm:")
    return any(not k.source for k in before.get((d.ecosystem, d.role, target), []))


def news(base: Iterable[Dependency], head: Iterable[Dependency], *, bumps: bool) -> list[New]:
    """The head declarations that are new (see the module docstring), by
    manifest, section and name."""
    before = _pool(base)
    after = sorted(set(head))
    explained = _direct_moved(before, after)
    out: dict[tuple[str, str, str, str], New] = {}
    for d in after:
        seen = (d.manifest, d.role, d.key, d.source)
        if seen in out:
            continue
        known = before.get((d.ecosystem, d.role, d.key))
        if not known:
            if (d.indirect and d.manifest in explained) or _aliases_known(d, before):
                continue
            out[seen] = New(d, ADDED)
            continue
        sources = sorted({k.source for k in known})
        if d.source and d.source not in sources:
            out[seen] = New(d, NEW_SOURCE, tuple(s for s in sources if s))
            continue
        specs = sorted({k.spec for k in known if k.source == d.source})
        if bumps and d.role == PACKAGE and d.spec not in specs:
            out[seen] = New(d, BUMPED, tuple(specs))
    return sorted(
        out.values(),
        key=lambda n: (
            n.dependency.manifest,
            n.dependency.section,
            n.dependency.key,
            n.dependency.source,
        ),
    )
