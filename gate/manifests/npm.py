"""package.json's dependencies, as npm, pnpm, Yarn and Bun read them, and
pnpm-workspace.yaml's catalogs.

The four maps `dependencies`, `devDependencies`, `peerDependencies` and
`optionalDependencies`; a value that asks the registry (a version, a
range, a prerelease, a dist-tag) is a spec, anything else is a source
(`source_of`): `git+...`, `git://`, `github:`, `gitlab:`, `bitbucket:`,
`user/repo`, a URL or tarball, `file:`, `link:`, `portal:`, `patch:`, and
an alias `npm:other@1` (source `npm:other`, spec `1`).  A `workspace:`
value names a package of the repository itself, and a `catalog:` value
takes what pnpm-workspace.yaml's catalog names (read there): neither is
read in package.json.  Each key of `overrides`, `resolutions` and
`pnpm.overrides` whose value is a source is a source for the package its
key names (an override's `$name` takes the version the manifest asks for
`name`)."""

from __future__ import annotations

import re
from typing import Any

import yaml

from gate.base.structured import Unreadable, json_object, json_text
from gate.manifests.dependency import Dependency, entry

MAPS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


# What npm, pnpm, Yarn and Bun read as a source rather than a registry
# version: a protocol, a URL, a path, a tarball, a hosted `user/repo`.
_PROTOCOL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_TARBALL = re.compile(r"\.(?:tgz|tar|tar\.gz)$", re.IGNORECASE)


def source_of(spec: str) -> bool:
    """Whether a dependency's value names a source, not a registry version
    (npm-package-arg's reading: a version, a range, a dist-tag is the
    registry's; anything with a protocol, `://`, a path's start, a `/`
    (a hosted `user/repo`) or a tarball's suffix is a source)."""
    text = spec.strip()
    return (
        _PROTOCOL.match(text) is not None
        or "://" in text
        or ":" in text
        or text.startswith(("./", "../", "/", "~/"))
        or text in (".", "..")
        or "/" in text
        or _TARBALL.search(text) is not None
    )


def _split(spec: object) -> tuple[str, str] | None:
    """(spec, source) of one value; None for a package of the repository
    itself (`workspace:`) or one the pnpm catalog names (`catalog:`)."""
    if not isinstance(spec, str):
        return "", json_text(spec)
    if spec.startswith(("workspace:", "catalog:")):
        return None
    if spec.startswith("$") or not source_of(spec):
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


def pnpm_workspace(path: str, text: str) -> list[Dependency]:
    """pnpm-workspace.yaml's catalogs: `catalog` (the default) and each of
    `catalogs`, a package -> the version every `catalog:` reference takes."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise Unreadable(f"is not valid YAML ({str(exc).splitlines()[0]})") from None
    if data is None:
        return []
    if not isinstance(data, dict):
        raise Unreadable("is not a YAML mapping")
    tables: list[tuple[str, Any]] = [("catalog", data.get("catalog"))]
    named = data.get("catalogs")
    for name, table in named.items() if isinstance(named, dict) else ():
        tables.append((f"catalogs.{name}", table))
    out: list[Dependency] = []
    for section, table in tables:
        for name, value in table.items() if isinstance(table, dict) else ():
            split = _split(str(value))
            if split is not None:
                out.append(entry("npm", path, section, str(name), spec=split[0], source=split[1]))
    return out
