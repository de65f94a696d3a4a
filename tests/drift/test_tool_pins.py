"""A test runner, assertion library, plugin or coverage tool whose declared
version a change moves (in package.json, pyproject.toml, pip's
requirements files, setup.cfg or go.mod) can collect, skip or judge the
existing tests differently without a test file changing: `test_drift`
counts it as runner drift, naming the tool and the file.  Another
library's bump, a comment, a reformatting are no drift."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.base.structured import Unreadable
from gate.drift.pins import pin_changes, pins
from gate.drift.vendored import GO_TEST_MODULES
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift")


def _package_json(deps: dict[str, dict[str, str]], indent: int | None = 2) -> str:
    return json.dumps({"name": "app", "version": "1.0.0", **deps}, indent=indent) + "\n"


# (path, base, head, a phrase the message must hold): each moves a test tool.
DRIFT = [
    (
        "package.json",
        _package_json({"devDependencies": {"vitest": "^1.6.0", "lodash": "^4"}}),
        _package_json({"devDependencies": {"vitest": "^2.0.0", "lodash": "^4"}}),
        "vitest in devDependencies: `^1.6.0` -> `^2.0.0`",
    ),
    (
        "packages/a/package.json",
        _package_json({"devDependencies": {"lodash": "^4"}}),
        _package_json({"devDependencies": {"lodash": "^4", "@vitest/coverage-v8": "^2"}}),
        "@vitest/coverage-v8 added to devDependencies",
    ),
    (
        "package.json",
        _package_json({"dependencies": {"ts-jest": "29.1.0"}}),
        _package_json({"dependencies": {}}),
        "ts-jest removed from dependencies",
    ),
    (
        "package.json",
        _package_json({"peerDependencies": {"jest-environment-jsdom": "^29"}}),
        _package_json({"peerDependencies": {"jest-environment-jsdom": "^30"}}),
        "jest-environment-jsdom in peerDependencies",
    ),
    (
        "pyproject.toml",
        '[dependency-groups]\ndev = ["pytest>=8.3", "ruff"]\n',
        '[dependency-groups]\ndev = ["pytest>=8.4", "ruff"]\n',
        "pytest in dependency-groups.dev: `pytest>=8.3` -> `pytest>=8.4`",
    ),
    (
        "pyproject.toml",
        '[project]\nname = "x"\n[project.optional-dependencies]\ntest = ["hypothesis"]\n',
        '[project]\nname = "x"\n[project.optional-dependencies]\ntest = ["hypothesis<7"]\n',
        "hypothesis in project.optional-dependencies.test",
    ),
    (
        "pyproject.toml",
        '[tool.poetry.group.test.dependencies]\npytest-asyncio = "^0.23"\n',
        '[tool.poetry.group.test.dependencies]\npytest-asyncio = "^0.24"\n',
        "pytest-asyncio in tool.poetry.group.test.dependencies",
    ),
    (
        "pyproject.toml",
        '[tool.uv]\ndev-dependencies = ["coverage"]\n',
        '[tool.uv]\ndev-dependencies = ["coverage==7.6"]\n',
        "coverage in tool.uv.dev-dependencies",
    ),
    (
        "pyproject.toml",
        '[project]\nname = "x"\ndependencies = ["click"]\n',
        '[project]\nname = "x"\ndependencies = ["click", "pytest_timeout"]\n',
        "pytest-timeout added to project.dependencies",
    ),
    (
        "requirements/test.txt",
        "pytest==8.2.0\nrequests==2.32.0\n",
        "pytest==8.3.0\nrequests==2.32.0\n",
        "pytest in requirements: `pytest==8.2.0` -> `pytest==8.3.0`",
    ),
    (
        "dev-requirements.txt",
        "nox\n",
        "nox\ntox>=4\n",
        "tox added to requirements",
    ),
    (
        "setup.cfg",
        "[metadata]\nname = x\n[options.extras_require]\ntesting =\n    pytest>=7\n",
        "[metadata]\nname = x\n[options.extras_require]\ntesting =\n    pytest>=8\n",
        "pytest in options.extras_require testing",
    ),
    (
        "go.mod",
        "module x\n\ngo 1.22\n\nrequire (\n\tgithub.com/stretchr/testify v1.9.0\n)\n",
        "module x\n\ngo 1.22\n\nrequire (\n\tgithub.com/stretchr/testify v1.10.0\n)\n",
        "github.com/stretchr/testify in require: `v1.9.0` -> `v1.10.0`",
    ),
    (
        "tools/go.mod",
        "module x\n\nrequire github.com/google/go-cmp v0.6.0\n",
        "module x\n\nrequire github.com/google/go-cmp v0.7.0 // indirect\n",
        "github.com/google/go-cmp in require",
    ),
    (
        "go.mod",
        "module x\n\nrequire github.com/pkg/errors v0.9.1\n",
        "module x\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n\tgotest.tools/v3 v3.5.1\n)\n",
        "gotest.tools/v3 added to require",
    ),
    (  # a test now imports what came in with another dependency: it gains the version it names
        "go.mod",
        "module x\n\nrequire gotest.tools/v3 v3.5.1 // indirect\n",
        "module x\n\nrequire gotest.tools/v3 v3.5.2\n",
        "gotest.tools/v3 in require",
    ),
    (  # the mark on another module's line says nothing of this one
        "go.mod",
        "module x\n\nrequire (\n\tgithub.com/stretchr/testify v1.9.0\n"
        "\tgolang.org/x/sys v0.1.0 // indirect\n)\n",
        "module x\n\nrequire (\n\tgithub.com/stretchr/testify v1.10.0\n"
        "\tgolang.org/x/sys v0.1.0 // indirect\n)\n",
        "github.com/stretchr/testify in require",
    ),
    (  # an `exclude` of a test module counts, marked or not
        "go.mod",
        "module x\n",
        "module x\n\nexclude github.com/stretchr/testify v1.9.0 // indirect\n",
        "github.com/stretchr/testify",
    ),
]


@pytest.mark.parametrize(("path", "base", "head", "phrase"), DRIFT)
def test_a_moved_test_tool_is_runner_drift(path: str, base: str, head: str, phrase: str) -> None:
    assert any(phrase in moved for moved in pin_changes(path, base, head)), path
    result = CASE.fails(
        Files(base={path: base}, head={path: head}),
        f"{path} changes the test tools it declares",
        reported=[path],
    )
    assert phrase in result.message


# Each the same file touched without moving a test tool.
QUIET = [
    (  # another library's bump
        "package.json",
        _package_json({"devDependencies": {"vitest": "^1.6.0", "lodash": "^4"}}),
        _package_json({"devDependencies": {"vitest": "^1.6.0", "lodash": "^5"}}),
    ),
    (  # reformatted, keys reordered
        "package.json",
        _package_json({"devDependencies": {"vitest": "^1.6.0", "lodash": "^4"}}),
        _package_json({"devDependencies": {"lodash": "^4", "vitest": "^1.6.0"}}, indent=None),
    ),
    (  # the package's own version (a release)
        "package.json",
        _package_json({"devDependencies": {"jest": "^29"}}),
        _package_json({"devDependencies": {"jest": "^29"}}).replace("1.0.0", "1.1.0"),
    ),
    (  # spelling, whitespace, a comment
        "pyproject.toml",
        '[dependency-groups]\ndev = ["PyTest >= 8", "ruff"]\n',
        '[dependency-groups]\ndev = [\n  "pytest>=8",  # the runner\n  "ruff>=0.6",\n]\n',
    ),
    (  # another distribution whose name merely starts alike
        "pyproject.toml",
        '[project]\nname = "x"\ndependencies = ["pytestify==1"]\n',
        '[project]\nname = "x"\ndependencies = ["pytestify==2"]\n',
    ),
    (  # a comment beside the pin, another requirement bumped
        "requirements-dev.txt",
        "pytest==8.2.0\nrequests==2.31.0\n",
        "pytest == 8.2.0  # keep in step with CI\nrequests==2.32.0\n",
    ),
    (
        "setup.cfg",
        "[options.extras_require]\ntesting =\n    pytest>=7\n    requests\n",
        "[options.extras_require]\ntesting =\n    # the runner\n    pytest>=7\n    requests>2\n",
    ),
    (  # a test library no package of this module imports (`// indirect`): bumped
        "go.mod",
        "module x\n\nrequire (\n\tgotest.tools/v3 v3.5.1 // indirect\n)\n",
        "module x\n\nrequire (\n\tgotest.tools/v3 v3.5.2 // indirect\n)\n",
    ),
    (  # ... dropped with the dependency that brought it (aks-mcp, go-sqlcmd)
        "go.mod",
        "module x\n\nrequire (\n\tgithub.com/docker/docker v28.0.0\n"
        "\tgotest.tools/v3 v3.5.1 // indirect\n)\n",
        "module x\n\nrequire github.com/pkg/errors v0.9.1\n",
    ),
    (  # ... or brought in, on its own line or with the go command's `; ` note
        "go.mod",
        "module x\n",
        'module x\n\nrequire "github.com/google/go-cmp" v0.7.0 //indirect; for docker\n',
    ),
    (  # another module's bump, a comment on the test library's line
        "go.mod",
        "module x\n\nrequire (\n\tgithub.com/stretchr/testify v1.9.0\n"
        "\tgolang.org/x/sys v0.1.0\n)\n",
        "module x\n\nrequire (\n\tgithub.com/stretchr/testify v1.9.0 // tests\n"
        "\tgolang.org/x/sys v0.2.0\n)\n",
    ),
]


@pytest.mark.parametrize(("path", "base", "head"), QUIET)
def test_other_edits_of_a_dependency_file_move_no_test_tool(
    path: str, base: str, head: str
) -> None:
    assert pin_changes(path, base, head) == ()
    CASE.passes(Files(base={path: base}, head={path: head}))


# Every spelling pip and PEP 503 read as the same distribution.
SPELLINGS = st.sampled_from(
    ["pytest-asyncio", "pytest_asyncio", "PyTest-AsyncIO", "pytest.asyncio", "pytest__asyncio"]
)
EXTRAS_AND_MARKERS = st.sampled_from(
    ["", "[testing]", ' ; python_version > "3.9"', '[a,b]>=0.20; sys_platform != "win32"']
)


@given(SPELLINGS, SPELLINGS, EXTRAS_AND_MARKERS)
def test_spellings_of_a_python_test_tool_are_one_tool(before: str, after: str, rest: str) -> None:
    """Renaming the spelling is no change; bumping any spelling's version,
    with extras and markers around it, is."""

    def render(name: str, version: str) -> str:
        extras = rest if rest.startswith("[") else ""
        marker = rest if not rest.startswith("[") else ""
        return f"[dependency-groups]\ntest = ['{name}{extras}{version}{marker}']\n"

    assert pin_changes("pyproject.toml", render(before, ">=0.23"), render(after, ">=0.23")) == ()
    moved = pin_changes("pyproject.toml", render(before, ">=0.23"), render(after, ">=0.24"))
    assert len(moved) == 1 and moved[0].startswith("pytest-asyncio in dependency-groups.test")
    req = pin_changes("requirements.txt", f"{before}==0.23\n", f"{after}==0.24\n")
    assert req and req[0].startswith("pytest-asyncio in requirements")


@given(st.sampled_from(GO_TEST_MODULES), st.sampled_from(["", "/v2", "/v3", "/assert"]))
def test_every_go_test_module_and_its_major_versions_count(module: str, major: str) -> None:
    base = f"module x\n\nrequire {module}{major} v1.0.0\n"
    assert pin_changes("go.mod", base, base.replace("v1.0.0", "v1.0.1"))
    twin = f"module x\n\nrequire {module}x{major} v1.0.0\n"  # a look-alike path
    assert pin_changes("go.mod", twin, twin.replace("v1.0.0", "v1.0.1")) == ()


def test_a_tool_moved_between_dependency_groups_counts() -> None:
    """Which install gets the runner decides whether CI's install has it at
    all (and at which version): a move is a removal and an addition."""
    base = '[dependency-groups]\ntest = ["pytest>=8"]\ndocs = ["sphinx"]\n'
    head = '[dependency-groups]\ntest = []\ndocs = ["sphinx", "pytest>=8"]\n'
    moved = pin_changes("pyproject.toml", base, head)
    assert moved == (
        "pytest added to dependency-groups.docs (`pytest>=8`)",
        "pytest removed from dependency-groups.test (was `pytest>=8`)",
    )
    js_base = _package_json({"devDependencies": {"jest": "^29"}})
    js_head = _package_json({"dependencies": {"jest": "^29"}})
    assert len(pin_changes("package.json", js_base, js_head)) == 2


def test_the_hidden_bump_of_a_docs_commit_fails_with_the_tool_named() -> None:
    """The shape of github-mcp-server bbdd9e30 (testify bumped in go.mod
    beside unrelated code): drift even though no test file moved."""
    base = {
        "go.mod": "module x\n\nrequire github.com/stretchr/testify v1.10.0\n",
        "main.go": "package main\n",
        "main_test.go": 'package main\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n',
    }
    head = {
        **base,
        "go.mod": base["go.mod"].replace("v1.10.0", "v1.11.1"),
        "main.go": "package main\n\n// docs\n",
    }
    CASE.fails(Files(base=base, head=head), "github.com/stretchr/testify", reported=["go.mod"])


def test_a_setup_cfg_configparser_cannot_read_fails_closed() -> None:
    with pytest.raises(Unreadable, match="the head version"):
        pin_changes("setup.cfg", "[options]\n", "key = value\n[options]\n")


def test_a_new_manifest_on_the_workspace_catalog_moves_no_version() -> None:
    """typescript-sdk's new workspace packages (48251fe2, ba27d201) declare
    `"vitest": "catalog:devTools"`: the version every package already has.
    The hostile twins: a new manifest pinning its own version, and an
    existing one switched to or from the catalog."""
    new = _package_json({"devDependencies": {"vitest": "catalog:devTools"}})
    assert pin_changes("packages/new/package.json", None, new) == ()
    own = _package_json({"devDependencies": {"vitest": "^0.34.0"}})
    assert pin_changes("packages/new/package.json", None, own)
    assert pin_changes("package.json", own, new) and pin_changes("package.json", new, own)


# (a go.mod's requirement, as pins reads it): `// indirect` is the line's
# own comment, spelt as the go command accepts it, in a block or on a
# single `require` line; a `//` inside a quoted path is no comment.
GO_COMMENTS = [
    ("require (\n\tgotest.tools/v3 v3.5.1 // indirect\n)", "v3.5.1 // indirect"),
    ("require (\n\tgotest.tools/v3 v3.5.1 //indirect\n)", "v3.5.1 // indirect"),
    ("require gotest.tools/v3 v3.5.1 // indirect", "v3.5.1 // indirect"),
    ("require gotest.tools/v3 v3.5.1//indirect; for docker", "v3.5.1 // indirect"),
    ('require "gotest.tools/v3" v3.5.1 //indirect', "v3.5.1 // indirect"),
    ("require gotest.tools/v3 v3.5.1 // indirectly", "v3.5.1"),
    ("require gotest.tools/v3 v3.5.1 // tests; indirect", "v3.5.1"),
    ("require gotest.tools/v3 v3.5.1", "v3.5.1"),
    ("require (\n\tgotest.tools/v3 v3.5.1\n\tgolang.org/x/sys v0.1.0 // indirect\n)", "v3.5.1"),
    ("require (\n\tgotest.tools/v3 v3.5.1 extra // indirect\n)", "v3.5.1"),
    (
        "exclude (\n\tgotest.tools/v3 v3.5.0 // indirect\n)\nrequire gotest.tools/v3 v3.5.1",
        "v3.5.1",
    ),
]


@pytest.mark.parametrize(("requirement", "declared"), GO_COMMENTS)
def test_indirect_is_the_requirement_lines_own_comment(requirement: str, declared: str) -> None:
    found = pins("go.mod", f"module x\n\n{requirement}\n")
    assert found is not None
    assert found[("require", "gotest.tools/v3")] == declared


@pytest.mark.parametrize(
    "line",
    [
        'require "gotest.tools/v3//indirect" v3.5.1',
        'require (\n\t"gotest.tools/v3//indirect" v3.5.1\n)',
    ],
)
def test_a_double_slash_inside_a_quoted_path_is_no_comment(line: str) -> None:
    """The whole quoted path is the module (a test module's path below
    it), and its `//indirect` is no mark."""
    assert pins("go.mod", f"module x\n\n{line}\n") == {
        ("require", "gotest.tools/v3//indirect"): "v3.5.1"
    }
