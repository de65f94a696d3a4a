"""pyproject.toml, setup.cfg and Pipfile, as pip, uv, Poetry, PDM and
Pipenv read them.

pyproject.toml: `[project] dependencies`, each extra of
`[project.optional-dependencies]`, each group of `[dependency-groups]`,
`[tool.uv] dev-dependencies`, each group of `[tool.pdm.dev-dependencies]`
(PEP 508 strings; `name @ URL` takes its source from the URL), Hatch's
metadata hooks' `dependencies` and `optional-dependencies` (dynamic
ones; an item holding the hook's `{{ template }}` is its leading name)
and each environment's `dependencies` and `extra-dependencies`, and
Poetry's `[tool.poetry.dependencies]`, `[tool.poetry.dev-dependencies]`
and `[tool.poetry.group.*.dependencies]` (a string is a spec; a table's
`git`, `path`, `url`, `file` or `source` is a source, `version` the spec;
`python` is the interpreter, not a package).  `[tool.uv.sources]` gives
the named packages its source; one it names `workspace = true` is a
package of the repository itself and is not read (as npm's
`workspace:`); `[[tool.uv.index]]`, `[tool.uv]`'s
`index-url`, `extra-index-url` and `find-links`, and
`[[tool.poetry.source]]` are indexes.  setup.cfg: `[options]`'s
`install_requires`, `setup_requires` and `tests_require` and each extra
of `[options.extras_require]` (a `file:` value is an include).  Pipfile:
each category table (`[packages]`, `[dev-packages]`, any other but
`source`, `requires`, `pipenv` and `scripts`), a table value's `git`,
`path`, `file` or `index` its source, and each `[[source]]` an index."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from gate.base.structured import json_text, lookup, setup_cfg_options, toml
from gate.manifests.dependency import INCLUDE, INDEX, Dependency, entry
from gate.manifests.requirements import logical_lines, requirement_line

_ARRAYS = ("project.dependencies", "tool.uv.dev-dependencies")
_GROUPS = ("project.optional-dependencies", "dependency-groups", "tool.pdm.dev-dependencies")
_LOCATED = ("git", "path", "url", "file")


def _strings(path: str, section: str, items: object) -> list[Dependency]:
    out = []
    for item in items if isinstance(items, list) else ():
        if isinstance(item, str):  # a dependency group's {include-group = ...} is no package
            found = requirement_line(path, section, item)
            if found is not None:
                out.append(found)
    return out


def _table_source(value: dict[str, Any]) -> str:
    """A Poetry, uv or Pipenv table's source: its place keys, canonical."""
    placed = {k: v for k, v in value.items() if k in (*_LOCATED, "source", "index", "registry")}
    if not placed:
        return ""
    for ref in ("rev", "tag", "branch", "ref", "subdirectory"):
        if ref in value and "git" in value:
            placed[ref] = value[ref]
    return json_text(placed)


def _tabled(path: str, section: str, name: str, value: object) -> Dependency:
    """A Poetry or Pipenv dependency given as a string, a table or a list of tables."""
    if isinstance(value, str):
        return entry("python", path, section, name, spec=value)
    tables = value if isinstance(value, list) else [value]
    specs = [str(t.get("version", "")) for t in tables if isinstance(t, dict)]
    sources = [s for t in tables if isinstance(t, dict) and (s := _table_source(t))]
    if not isinstance(value, dict | list):
        sources = [json_text(value)]
    return entry("python", path, section, name, spec=",".join(specs), source=";".join(sources))


def _indexes(path: str, section: str, items: object, key: str = "url") -> list[Dependency]:
    out = []
    for item in items if isinstance(items, list) else [items]:
        url = item.get(key) if isinstance(item, dict) else item
        if isinstance(url, str):
            out.append(entry("python", path, section, url, source=url, role=INDEX))
    return out


def pyproject(path: str, text: str) -> list[Dependency]:
    data = toml(text)
    out: list[Dependency] = []
    for section in _ARRAYS:
        out += _strings(path, section, lookup(data, section))
    for table in _GROUPS:
        groups = lookup(data, table)
        for group, items in groups.items() if isinstance(groups, dict) else ():
            out += _strings(path, f"{table}.{group}", items)
    out += _hatch(path, data)
    poetry = [(s, lookup(data, s)) for s in _POETRY]
    groups = lookup(data, "tool.poetry.group")
    for group, body in groups.items() if isinstance(groups, dict) else ():
        if isinstance(body, dict):
            poetry.append((f"tool.poetry.group.{group}.dependencies", body.get("dependencies")))
    for section, deps in poetry:
        for name, value in deps.items() if isinstance(deps, dict) else ():
            if name.lower() != "python":
                out.append(_tabled(path, section, name, value))
    sources = lookup(data, "tool.uv.sources")
    placed: dict[str, str] = {}
    own: set[str] = set()  # the workspace's own packages
    for name, value in sources.items() if isinstance(sources, dict) else ():
        tables = value if isinstance(value, list) else [value]
        key = entry("python", path, "", name).key
        if all(isinstance(t, dict) and t.get("workspace") is True for t in tables):
            own.add(key)
        else:
            placed[key] = json_text(value)
    out = [d for d in out if d.key not in own]
    declared = {d.key for d in out}
    out = [d if d.key not in placed else replace(d, source=placed[d.key]) for d in out]
    for name in sources if isinstance(sources, dict) else ():
        key = entry("python", path, "", name).key
        if key in placed and key not in declared:
            out.append(entry("python", path, "tool.uv.sources", name, source=placed[key]))
    out += _indexes(path, "tool.uv.index", lookup(data, "tool.uv.index"))
    for option in ("index-url", "extra-index-url", "find-links"):
        out += _indexes(path, f"tool.uv.{option}", lookup(data, f"tool.uv.{option}"))
    out += _indexes(path, "tool.poetry.source", lookup(data, "tool.poetry.source"))
    return out


_POETRY = ("tool.poetry.dependencies", "tool.poetry.dev-dependencies")


_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)")


def _templated(path: str, section: str, items: object) -> list[Dependency]:
    """A metadata hook's requirements, which may hold a template the hook
    fills in (`mcp-types=={{ version }}`): such an item is its leading
    name and the rest as written."""
    out = []
    for item in items if isinstance(items, list) else ():
        named = _NAME.match(item) if isinstance(item, str) and "{{" in item else None
        if named is not None:
            out.append(entry("python", path, section, named[1], spec=item[named.end() :]))
        else:
            out += _strings(path, section, [item])
    return out


def _hatch(path: str, data: dict[str, Any]) -> list[Dependency]:
    """Hatch's: a metadata hook's `dependencies` and `optional-dependencies`
    (a project whose `[project]` leaves them `dynamic`), and each
    environment's `dependencies` and `extra-dependencies`."""
    out: list[Dependency] = []
    hooks = lookup(data, "tool.hatch.metadata.hooks")
    for hook, body in hooks.items() if isinstance(hooks, dict) else ():
        where = f"tool.hatch.metadata.hooks.{hook}"
        out += _templated(path, f"{where}.dependencies", lookup(body, "dependencies"))
        extras = lookup(body, "optional-dependencies")
        for extra, items in extras.items() if isinstance(extras, dict) else ():
            out += _templated(path, f"{where}.optional-dependencies.{extra}", items)
    envs = lookup(data, "tool.hatch.envs")
    for env, body in envs.items() if isinstance(envs, dict) else ():
        for key in ("dependencies", "extra-dependencies"):
            out += _strings(path, f"tool.hatch.envs.{env}.{key}", lookup(body, key))
    return out


def setup_cfg(path: str, text: str) -> list[Dependency]:
    places = setup_cfg_options(text)
    out: list[Dependency] = []
    for section, value in places:
        if value.strip().startswith("file:"):
            for named in value.strip()[5:].split(","):
                if named.strip():
                    out.append(entry("python", path, section, named.strip(), role=INCLUDE))
            continue
        for _, line in logical_lines(value):
            found = requirement_line(path, section, line)
            if found is not None:
                out.append(found)
    return out


_NOT_PACKAGES = ("source", "requires", "pipenv", "scripts")


def pipfile(path: str, text: str) -> list[Dependency]:
    data = toml(text)
    out: list[Dependency] = []
    for section, deps in data.items():
        if section in _NOT_PACKAGES or not isinstance(deps, dict):
            continue
        for name, value in deps.items():
            spec = "" if value == "*" else value
            out.append(_tabled(path, section, name, spec))
    out += _indexes(path, "source", data.get("source"))
    return out
