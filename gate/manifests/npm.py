"""package.json's dependencies, as npm, pnpm, Yarn and Bun read them.

The four maps `dependencies`, `devDependencies`, `peerDependencies` and
`optionalDependencies`; a value that asks the registry (a version, a
range, a dist-tag, pnpm's `catalog:`) is a spec, anything else is a
source: `git+...`, `git://`, `github:`, `gitlab:`, `bitbucket:`,
`user/repo`, a URL or tarball, `file:`, `link:`, `portal:`, `patch:`, and
an alias `npm:other@1` (source `npm:other`, spec `1`); an override's
`$name` takes the version the manifest asks for `name`.  A `workspace:`
value names a package of the repository itself and is not read.  Each key
of `overrides`, `resolutions` and `pnpm.overrides` whose value is not a
registry spec is a source for the package its key names."""

from __future__ import annotations

from typing import Any

from gate.drift.elsewhere import is_registry_spec, json_text
from gate.drift.structured import json_object
from gate.manifests.dependency import Dependency, entry

MAPS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def _split(spec: object) -> tuple[str, str] | None:
    """(spec, source) of one value; None for a workspace package."""
    if not isinstance(spec, str):
        return "", json_text(spec)
    if spec.startswith("workspace:"):
        return None
    if is_registry_spec(spec) or spec.startswith(("catalog:", "$")):
        return spec, ""
    if spec.startswith("npm:"):
        target = spec[4:]
        at = target.find("@", 1)
        name, version = (target, "") if at < 0 else (target[:at], target[at + 1 :])
        return version, f"npm:{name}"
    return "", spec


def _override_name(key: str) -> str:
    """The package an override's or a resolution's key names: its last
    package (`foo>bar`, `**/bar`, `foo/@scope/bar`), without a version."""
    parts = key.replace(">", "/").split("/")
    last = parts[-1]
    if len(parts) >= 2 and parts[-2].startswith("@"):
        last = f"{parts[-2]}/{last}"
    at = last.find("@", 1)
    return last if at < 0 else last[:at]


def package_json(path: str, text: str) -> list[Dependency]:
    data = json_object(text)
    out: list[Dependency] = []
    for section in MAPS:
        deps = data.get(section)
        for name, value in deps.items() if isinstance(deps, dict) else ():
            split = _split(value)
            if split is not None:
                out.append(entry("npm", path, section, name, spec=split[0], source=split[1]))
    pnpm = data.get("pnpm")
    tables: list[tuple[str, Any]] = [
        ("overrides", data.get("overrides")),
        ("resolutions", data.get("resolutions")),
        ("pnpm.overrides", pnpm.get("overrides") if isinstance(pnpm, dict) else None),
    ]
    while tables:
        where, table = tables.pop(0)
        for key, value in table.items() if isinstance(table, dict) else ():
            if isinstance(value, dict):
                tables.append((f"{where}.{key}", value))
                continue
            split = _split(value)
            if split is not None and split[1] and key != ".":
                name = _override_name(key)
                out.append(entry("npm", path, where, name, spec=split[0], source=split[1]))
    return out
