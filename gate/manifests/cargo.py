"""Cargo.toml, as Cargo reads it.

`[dependencies]`, `[dev-dependencies]`, `[build-dependencies]` (and the
old `dev_dependencies`, `build_dependencies` spellings), the same under
each `[target.'cfg(...)']`, and `[workspace.dependencies]`.  A string is
a version; a table's `version` is the spec and its `git` (with `rev`,
`tag` or `branch`), `path` or `registry` its source; `package = "other"`
renames, and the crate compared is `other`.  A `workspace = true` entry
inherits what the workspace root declares (judged there) and is not
read.  Each entry of `[patch.<registry>]` and the old `[replace]` is a
source for the crate it names.  Crate names compare in lower case with
`_` as `-`, as crates.io does."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gate.base.structured import json_text, toml
from gate.manifests.dependency import Dependency, entry

_KINDS = (
    "dependencies",
    "dev-dependencies",
    "build-dependencies",
    "dev_dependencies",
    "build_dependencies",
)
_PLACES = ("git", "path", "registry", "registry-index", "rev", "tag", "branch")


def _one(path: str, section: str, name: str, value: object) -> Dependency | None:
    if isinstance(value, str):
        return entry("cargo", path, section, name, spec=value)
    if not isinstance(value, dict):
        return entry("cargo", path, section, name, source=json_text(value))
    if value.get("workspace") is True:
        return None
    crate = value.get("package", name)
    placed = {k: v for k, v in value.items() if k in _PLACES}
    source = json_text(placed) if placed else ""
    shown = crate if crate == name else f"{name} (package {crate})"
    found = entry("cargo", path, section, str(crate), spec=str(value.get("version", "")))
    return replace(found, name=str(shown), source=source)


def _tables(data: dict[str, Any]) -> list[tuple[str, Any]]:
    tables = [(kind, data.get(kind)) for kind in _KINDS]
    targets = data.get("target")
    for cfg, body in targets.items() if isinstance(targets, dict) else ():
        if isinstance(body, dict):
            tables += [(f"target.{cfg!r}.{kind}", body.get(kind)) for kind in _KINDS]
    workspace = data.get("workspace")
    if isinstance(workspace, dict):
        tables.append(("workspace.dependencies", workspace.get("dependencies")))
    return tables


def cargo_toml(path: str, text: str) -> list[Dependency]:
    data = toml(text)
    out: list[Dependency] = []
    for section, deps in _tables(data):
        for name, value in deps.items() if isinstance(deps, dict) else ():
            found = _one(path, section, name, value)
            if found is not None:
                out.append(found)
    patch = data.get("patch")
    patches = [(f"patch.{r}", t) for r, t in (patch.items() if isinstance(patch, dict) else ())]
    patches.append(("replace", data.get("replace")))
    for section, table in patches:
        for name, value in table.items() if isinstance(table, dict) else ():
            found = _one(path, section, name, value)
            if found is not None:
                crate = name.split(":")[0] if section == "replace" else found.key
                source = found.source or found.spec
                out.append(entry("cargo", path, section, crate, spec=found.spec, source=source))
    return out
