"""Where a test tool comes from: the dependency declarations that take a
test runner or assertion library (`gate.drift.vendored`) from a copy
the change controls instead of the registry or the index, so that the
tests run against it.  package.json's dependency maps and overrides
(`js_elsewhere`), pyproject.toml's requirements, uv sources and Poetry
tables (`py_elsewhere`), and a pip requirements file's lines
(`requirements_lines`).  Pure: parsed data or text in, what counts out."""

from __future__ import annotations

import fnmatch
import re
from typing import Any

from gate.base.structured import json_text, lookup
from gate.drift.vendored import JS_TEST_PACKAGES, PY_TEST_DISTRIBUTIONS
from gate.manifests.dependency import py_name

# How package.json names where a dependency comes from, and the registry's
# own forms: a version, a range of versions, or a dist-tag.
ELSEWHERE = "test packages taken from elsewhere than the registry"
DEPENDENCY_MAPS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies")
# The overrides `js_elsewhere` reads (`pnpm`: its `overrides`), and every
# top-level package.json key it reads.
JS_OVERRIDES = ("overrides", "resolutions")
JS_READS = (*DEPENDENCY_MAPS, *JS_OVERRIDES, "pnpm")
_REGISTRY_SPEC = re.compile(r"[\s0-9.xX*^~<>=|v+-]*|[A-Za-z][A-Za-z0-9._-]*")


# `JS_TEST_PACKAGES` as one expression: a scope (`@jest`) takes every
# package in it, a name or a `*` glob (`@playwright/experimental-ct-*`)
# the whole name (a lock file asks it
# of every package it holds, thousands).
_JS_TEST_PACKAGE = re.compile(
    "|".join(
        f"{re.escape(p)}(?:/.*)?"
        if p.startswith("@") and "/" not in p
        else re.escape(p).replace(r"\*", ".*")
        for p in JS_TEST_PACKAGES
    ),
    re.DOTALL,
)


def is_test_package(name: str) -> bool:
    """Whether npm package `name` is a test runner's or assertion library's
    (`gate.drift.vendored.JS_TEST_PACKAGES`: a name, a glob, or a scope)."""
    return _JS_TEST_PACKAGE.fullmatch(name) is not None


def js_elsewhere(data: dict[str, Any]) -> dict[str, str]:
    """Each test package that package.json takes from a file, a link, a
    workspace, a git repository, a URL or another package (`npm:` aliases):
    "MAP NAME" -> spec, for the dependency maps, and every key of
    `overrides`, `resolutions` and `pnpm.overrides` (at any depth of an
    override; a resolution's key is a path whose last package is meant)
    whose package is a test package, whatever its value says."""
    found: dict[str, str] = {}
    for section in DEPENDENCY_MAPS:
        deps = data.get(section)
        if isinstance(deps, dict):
            for name, spec in deps.items():
                if is_test_package(name) and not (
                    isinstance(spec, str) and _REGISTRY_SPEC.fullmatch(spec)
                ):
                    found[f"{section} {name}"] = json_text(spec)
    pnpm = data.get("pnpm")
    overrides = [(key, data.get(key)) for key in JS_OVERRIDES]
    if isinstance(pnpm, dict):
        overrides.append(("pnpm.overrides", pnpm.get("overrides")))
    todo = [(where, value) for where, value in overrides if isinstance(value, dict)]
    while todo:
        where, table = todo.pop()
        for key, value in table.items():
            if any(is_test_package(name) for name in _packages_in(key)):
                found[f"{where} {key}"] = json_text(value)
            if isinstance(value, dict):
                todo.append((f"{where} {key}", value))
    return found


def _packages_in(key: str) -> list[str]:
    """The package names an override's or a resolution's key names, each
    without its version: `jest`, `jest@<29`, `**/jest`, `foo>jest`,
    `@jest/core@^29`, `foo/@jest/core`."""
    tokens = re.split(r"[/>]", key)
    names: list[str] = []
    i = 0
    while i < len(tokens):
        name = tokens[i]
        if name.startswith("@") and i + 1 < len(tokens):
            name, i = f"{name}/{tokens[i + 1]}", i + 2
        else:
            i += 1
        at = name.find("@", 1)
        names.append(name if at < 0 else name[:at])
    return names


def is_py_test_distribution(name: str) -> bool:
    """Whether distribution `name` (any spelling) runs or judges the tests
    (`gate.drift.vendored.PY_TEST_DISTRIBUTIONS`)."""
    normalized = py_name(name)
    return any(fnmatch.fnmatchcase(normalized, pattern) for pattern in PY_TEST_DISTRIBUTIONS)


REQUIREMENT_TABLES = (
    "project.optional-dependencies",
    "dependency-groups",
    "tool.pdm.dev-dependencies",
)
REQUIREMENT = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(@)?")


def py_elsewhere(data: dict[str, Any]) -> dict[str, str]:
    """Each test distribution (`PY_TEST_DISTRIBUTIONS`) that pyproject.toml
    takes from a path, a URL or a git repository: a PEP 508 direct
    reference (`pytest @ file:///...`) in the project's, an extra's, a
    dependency group's or PDM's dev dependencies; any `[tool.uv.sources]`
    entry; a Poetry dependency given as a table with `path`, `git`, `url`,
    `file` or `source`, or as a list of them."""
    found: dict[str, str] = {}
    arrays: list[tuple[str, object]] = [
        ("project.dependencies", lookup(data, "project.dependencies"))
    ]
    for table in REQUIREMENT_TABLES:
        groups = lookup(data, table)
        if isinstance(groups, dict):
            arrays.extend((f"{table}.{name}", items) for name, items in groups.items())
    for where, items in arrays:
        for item in items if isinstance(items, list) else ():
            found.update(_direct_reference(where, item))
    sources = lookup(data, "tool.uv.sources")
    for name, source in sources.items() if isinstance(sources, dict) else ():
        if is_py_test_distribution(name):
            found[f"tool.uv.sources {name}"] = json_text(source)
    poetry = [
        lookup(data, "tool.poetry.dependencies"),
        lookup(data, "tool.poetry.dev-dependencies"),
    ]
    groups = lookup(data, "tool.poetry.group")
    if isinstance(groups, dict):
        poetry.extend(g.get("dependencies") for g in groups.values() if isinstance(g, dict))
    for deps in poetry:
        for name, spec in deps.items() if isinstance(deps, dict) else ():
            specs = spec if isinstance(spec, list) else [spec]
            if is_py_test_distribution(name) and any(
                isinstance(s, dict) and {"path", "git", "url", "file", "source"} & set(s)
                for s in specs
            ):
                found[f"tool.poetry {name}"] = json_text(spec)
    return found


def _direct_reference(where: str, item: object) -> dict[str, str]:
    if not isinstance(item, str):
        return {}
    match = REQUIREMENT.match(item)
    if match is None or match[2] is None or not is_py_test_distribution(match[1]):
        return {}
    return {f"{where} {match[1]}": item}


# A pip requirements file's options that decide where packages come from.
_SOURCE_OPTIONS = re.compile(
    r"(-i|--index-url|--extra-index-url|-f|--find-links|--no-index|-r|--requirement|"
    r"-c|--constraint)(?:[\s=]|$)"
)
_EDITABLE = re.compile(r"(-e|--editable)(?:[\s=]+|$)(.*)")


# What pip installs as a file: an archive it finds by name (a path, with or
# without a folder in it).
_ARCHIVE = re.compile(r"\.(?:whl|zip|tar|tgz|tar\.gz|tar\.bz2|tar\.xz)$", re.IGNORECASE)


def _is_path(target: str) -> bool:
    """Whether a requirement line's target is a local path, not a name or a
    URL: it starts like one, names a folder, or is an archive's file name."""
    first = target.split(";")[0].split()[0] if target.split() else ""
    if "://" in first:
        return False
    return (
        first.startswith((".", "/", "~", "file:"))
        or "/" in first
        or "\\" in first
        or re.match(r"[A-Za-z]:", first) is not None
        or _ARCHIVE.search(first) is not None
    )


def requirements_lines(text: str) -> tuple[str, ...]:
    """A pip requirements file's lines (joined where one ends with `\\`,
    comments removed) that decide where a test tool comes from: an index,
    find-links, an included requirements or constraints file; an editable
    or local install of anything but the project itself (`.`, `.[test]`),
    whose name only its own metadata knows; and a test distribution given
    by a direct reference (`pytest @ https://...`), a URL or a VCS link."""
    found: list[str] = []
    for line in re.sub(r"\\\r?\n", " ", text).splitlines():
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        if not line:
            continue
        editable = _EDITABLE.match(line)
        target = editable[2].strip() if editable else line
        local = editable is not None or _is_path(target)
        if _SOURCE_OPTIONS.match(line) or (
            local and re.sub(r"\[[^\]]*\]$", "", target) not in (".", "./")
        ):
            found.append(line)
        elif "://" in line or line.startswith("git+") or _direct_reference("", line):
            named = re.search(r"egg=([A-Za-z0-9._-]+)", line)
            plain = REQUIREMENT.match(line)
            name = named[1] if named else plain[1] if plain else ""
            leaf = re.split(r"[/@#]", line.rstrip("/"))[-1]
            stem = re.split(r"[-_.]\d", leaf)[0]  # pytest_xdist-3.0.0-py3-none-any.whl
            if is_py_test_distribution(name) or is_py_test_distribution(stem):
                found.append(line)
    return tuple(found)
