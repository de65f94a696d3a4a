"""Which version of each test tool the dependency files ask for, and how a
change moved it (`pin_changes`): a test runner, assertion library,
plugin or coverage tool (`gate.drift.vendored`'s lists, read through
`gate.drift.elsewhere`'s name tests) added, removed, given another
version, range, marker or source, or moved to another dependency group,
in a file `gate.drift.runners.SECTION_FILES` names.  A bumped runner can
collect, skip or judge the existing tests differently without a test file
changing (a Dependabot bump of pytest, a testify bump inside a feature),
so `test_drift` counts it as runner drift.

Where each format declares them:

* `package.json`: `dependencies`, `devDependencies`, `peerDependencies`,
  `optionalDependencies` (each test package's spec as written); overrides
  and resolutions are `gate.drift.elsewhere`'s already, whatever they say.
* `pyproject.toml`: `[project] dependencies`,
  `[project.optional-dependencies]`, `[dependency-groups]`,
  `[tool.pdm.dev-dependencies]`, `[tool.uv] dev-dependencies`,
  `override-dependencies` and `constraint-dependencies`, and Poetry's
  `[tool.poetry.dependencies]`, `[tool.poetry.dev-dependencies]` and
  `[tool.poetry.group.*.dependencies]`.  (`[tool.hatch.envs]` is runner
  configuration as a whole already.)
* pip's requirements files (`requirements*.txt`, `*-requirements.txt`,
  `requirements/*.txt`): each line that names a test distribution.
* `setup.cfg`: `[options] install_requires` and `tests_require`, and
  every extra of `[options.extras_require]`.
* `go.mod`: each `require` and `exclude` of a test module (`replace` is
  `gate.drift.sections`' already).  A requirement marked `// indirect` on
  both sides (or on the one side that has it) is no test tool of this
  module's: the go command marks a module so when no package of the main
  module, its tests included, imports it (a test library that came in
  with another dependency, `gotest.tools/v3` through docker), so moving
  or dropping it moves no tool the tests call; a requirement that gains
  or loses the mark still counts.  Out of reach: a go.mod no one keeps
  tidy, whose `// indirect` says what is not so.

A Python name is compared as PEP 503 normalizes it (`PyTest`,
`pytest_asyncio`), a requirement without its whitespace (`pytest >= 8`
is `pytest>=8`; extras, version and markers are kept: a marker decides
whether it installs at all); TOML and JSON are parsed and comments are
dropped, so reformatting or a comment is no change.  A manifest the
change adds that takes a tool's version from pnpm's catalog (`catalog:`)
moves no installed version (a new workspace package's own tests).  The
versions lock files install are `gate.drift.locks`' (`lock_changes`).
Out of reach: pnpm's catalog in `pnpm-workspace.yaml`, and a version an
unpinned declaration resolves to on the day CI installs where no lock
file is committed.  Pure."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gate.base.structured import (
    Unreadable,
    go_mod_lines,
    json_text,
    lookup,
    setup_cfg_options,
    toml,
)
from gate.drift.elsewhere import (
    DEPENDENCY_MAPS,
    REQUIREMENT,
    REQUIREMENT_TABLES,
    is_py_test_distribution,
    is_test_package,
)
from gate.drift.runners import section_for
from gate.drift.sections import package_json
from gate.drift.vendored import GO_TEST_MODULES
from gate.manifests.dependency import py_name
from gate.manifests.requirements import logical_lines

# (where it is declared, the tool's name) -> what is declared there.
Pins = dict[tuple[str, str], str]


def _requirement(item: object) -> tuple[str, str] | None:
    """A PEP 508 requirement string's normalized name and its text without
    whitespace under that name, when it names a test distribution."""
    if not isinstance(item, str):
        return None
    match = REQUIREMENT.match(item)
    if match is None or not is_py_test_distribution(match[1]):
        return None
    name = py_name(match[1])
    return name, name + re.sub(r"\s+", "", item[match.end(1) :])


def _package_json(text: str) -> Pins:
    runner = section_for("package.json")
    assert runner is not None  # runners.json names it
    data = package_json(runner.keys, text)
    found: Pins = {}
    for section in DEPENDENCY_MAPS:
        deps = data.get(section)
        for name, spec in deps.items() if isinstance(deps, dict) else ():
            if is_test_package(name):
                found[(section, name)] = spec if isinstance(spec, str) else json_text(spec)
    return found


_UV_LISTS = (
    "tool.uv.dev-dependencies",
    "tool.uv.override-dependencies",
    "tool.uv.constraint-dependencies",
)
_POETRY = ("tool.poetry.dependencies", "tool.poetry.dev-dependencies")


def _pyproject(text: str) -> Pins:
    data = toml(text)
    arrays: list[tuple[str, Any]] = [("project.dependencies", lookup(data, "project.dependencies"))]
    arrays += [(where, lookup(data, where)) for where in _UV_LISTS]
    for table in REQUIREMENT_TABLES:
        groups = lookup(data, table)
        if isinstance(groups, dict):
            arrays += [(f"{table}.{name}", items) for name, items in groups.items()]
    found: Pins = {}
    for where, items in arrays:
        for item in items if isinstance(items, list) else ():
            named = _requirement(item)
            if named is not None:
                found[(where, named[0])] = named[1]
    tables = [(where, lookup(data, where)) for where in _POETRY]
    groups = lookup(data, "tool.poetry.group")
    if isinstance(groups, dict):
        tables += [
            (f"tool.poetry.group.{name}.dependencies", g.get("dependencies"))
            for name, g in groups.items()
            if isinstance(g, dict)
        ]
    for where, deps in tables:
        for name, spec in deps.items() if isinstance(deps, dict) else ():
            if is_py_test_distribution(name):
                found[(where, py_name(name))] = json_text(spec)
    return found


def _requirement_lines(text: str) -> list[str]:
    """A requirements list's requirement lines as pip reads them
    (`gate.manifests.requirements.logical_lines`: continuations joined, a
    comment line never continued), options left out."""
    return [line for _, line in logical_lines(text) if not line.startswith("-")]


def _requirements(text: str) -> Pins:
    found: dict[str, list[str]] = {}
    for line in _requirement_lines(text):
        named = _requirement(line)
        if named is not None:
            found.setdefault(named[0], []).append(named[1])
    return {("requirements", name): " ".join(sorted(lines)) for name, lines in found.items()}


def _setup_cfg(text: str) -> Pins:
    places = [
        (_pins_key(place), value)
        for place, value in setup_cfg_options(text)
        if place != "options.setup_requires"
    ]
    found: Pins = {}
    for where, value in places:
        for line in _requirement_lines(value):
            named = _requirement(line)
            if named is not None:
                found[(where, named[0])] = named[1]
    return found


def _pins_key(place: str) -> str:
    """A setup.cfg place as the pins key spells it: `options install_requires`,
    `options.extras_require EXTRA`."""
    extras = "options.extras_require."
    if place.startswith(extras):
        return "options.extras_require " + place.removeprefix(extras)
    return "options " + place.removeprefix("options.")


def _is_go_test_module(module: str) -> bool:
    return any(module == m or module.startswith(m + "/") for m in GO_TEST_MODULES)


def _go_mod_opens(line: str) -> str | None:
    opened = re.match(r"(require|exclude)\s*\(\s*$", line)
    return opened[1] if opened is not None else None


# A `require` line's comment saying no package of the module imports it
# (the go command writes it; `go mod tidy` keeps it true): `// indirect`,
# `//indirect`, `// indirect; for docker`.
_INDIRECT = " // indirect"
_INDIRECT_COMMENT = re.compile(r"\s*indirect\b")


def _go_mod(text: str) -> Pins:
    found: Pins = {}
    for block, line, comment, _ in go_mod_lines(text, _go_mod_opens):
        if block is not None:
            words = line.split()
        else:  # a block's opening line (`require (`) has no second word
            single = re.match(r"(require|exclude)\s+(.*)", line)
            if single is None:
                continue
            words = single[2].split()
        verb = block or line.split()[0]
        if len(words) >= 2 and _is_go_test_module(words[0].strip('"')):
            module = words[0].strip('"')
            if verb == "require":
                indirect = (
                    len(words) == 2
                    and comment is not None
                    and _INDIRECT_COMMENT.match(comment) is not None
                )
                found[("require", module)] = words[1] + (_INDIRECT if indirect else "")
            else:
                found[(f"exclude {words[1]}", module)] = "excluded"
    return found


READERS: dict[str, Callable[[str], Pins]] = {
    "json": _package_json,
    "pyproject": _pyproject,
    "requirements": _requirements,
    "ini": _setup_cfg,
    "gomod": _go_mod,
}


def pins(path: str, text: str) -> Pins | None:
    """The test tools `path`'s text declares (None: its format declares
    none); raises `Unreadable` when the text cannot be read."""
    section = section_for(path)
    reader = READERS.get(section.format) if section is not None else None
    return None if reader is None else reader(text)


def _shown(spec: str, limit: int = 48) -> str:
    return f"`{spec if len(spec) <= limit else spec[: limit - 3] + '...'}`"


def pin_changes(path: str, base: str | None, head: str | None) -> tuple[str, ...]:
    """How the change moved the test tools `path` declares, one phrase a
    tool and place (`vitest in devDependencies: `^1.6.0` -> `^2.0.0``), in
    order; empty when none moved or the format declares none.  Raises
    `Unreadable` (naming the side) when a side cannot be read."""
    sides: list[Pins] = []
    for side, text in (("base", base), ("head", head)):
        try:
            found = pins(path, text) if text is not None else {}
        except Unreadable as exc:
            raise Unreadable(f"the {side} version {exc}") from None
        sides.append(found or {})
    before, after = sides
    section = section_for(path)
    gomod = section is not None and section.format == "gomod"
    out = []
    for where, name in sorted(set(before) | set(after)):
        was, now = before.get((where, name)), after.get((where, name))
        if was == now:
            continue
        if was is None and base is None and now is not None and now.startswith("catalog:"):
            continue  # a new manifest takes the workspace catalog's version: none moved
        if gomod and all(v is None or v.endswith(_INDIRECT) for v in (was, now)):
            continue  # a Go module no package of this module imports: not its tests' tool
        if was is None:
            out.append(f"{name} added to {where} ({_shown(str(now))})")
        elif now is None:
            out.append(f"{name} removed from {where} (was {_shown(was)})")
        else:
            out.append(f"{name} in {where}: {_shown(was)} -> {_shown(now)}")
    return tuple(out)
