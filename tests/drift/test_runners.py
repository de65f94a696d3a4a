"""gate.drift.runners: which files and sections each test runner reads,
from each runner's documented discovery, and `section_change` on them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base import globs
from gate.drift import runners, sections, vendored
from gate.drift.runners import CONFIG_FILES, RUNNERS, SECTION_GLOBS, section_change

is_config = globs.matcher(CONFIG_FILES, globs.FOLDED)
is_section = globs.matcher(SECTION_GLOBS, globs.FOLDED)

# Documented configuration files, per runner, at the root and in a package.
DOCUMENTED = {
    "pytest": ["pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "tox.ini"],
    "pytest conftest": ["conftest.py", "tests/unit/conftest.py"],
    "tox": ["tox.toml"],
    "nox": ["noxfile.py"],
    "hatch": ["hatch.toml"],
    "jest": [f"jest.config.{e}" for e in ("js", "ts", "mjs", "cjs", "cts", "json")],
    "jest preset and setup": ["jest-preset.json", "src/setupTests.ts", "jest.setup.js"],
    "babel (babel-jest)": ["babel.config.js", "babel.config.json", ".babelrc", ".babelrc.json"],
    "npm": [".npmrc"],
    "yarn": [".yarnrc.yml", ".yarnrc", ".yarn/releases/yarn-4.5.0.cjs", ".yarn/plugins/p.cjs"],
    "pnpm": [".pnpmfile.cjs"],
    "coverage": [
        ".coveragerc",
        ".nycrc",
        ".nycrc.json",
        ".c8rc.json",
        "codecov.yml",
        ".codecov.yml",
    ],
    "vitest": [
        "vitest.config.ts",
        "vitest.config.mjs",
        "vite.config.js",
        "vite.config.mts",
        "vitest.workspace.ts",
        "vitest.workspace.json",
        "vitest.projects.ts",
        "vitest.unit.config.ts",
        "vite.e2e.config.js",
        "vitest.setup.ts",
    ],
    "mocha": [f".mocharc.{e}" for e in ("js", "cjs", "mjs", "yaml", "yml", "json", "jsonc")]
    + ["test/mocha.opts"],
    "jasmine": ["spec/support/jasmine.json", "spec/support/jasmine.mjs"],
    "karma": ["karma.conf.js", "karma.conf.ts", ".config/karma.conf.js"],
    "ava": ["ava.config.js", "ava.config.cjs", "ava.config.mjs"],
    "tap": [".taprc"],
    "playwright": ["playwright.config.ts", "playwright-ct.config.ts"],
    "cypress": ["cypress.config.ts", "cypress.json", "cypress/support/e2e.ts"],
    "rspec": [".rspec", ".rspec-local", "spec/spec_helper.rb", "spec/rails_helper.rb"],
    "rake": ["Rakefile"],
    "phpunit": ["phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"],
    "go": ["go.work"],
    "cargo": [".cargo/config.toml", ".cargo/config", "build.rs"],
}
NOT_CONFIG = [
    "src/app.ts",
    "README.md",
    "vite.svg",
    "src/jest_helpers.md",
    "docs/pytest.md",
    "main.go",
    "src/lib.rs",
]


@pytest.mark.parametrize(
    "path", [p for paths in DOCUMENTED.values() for p in paths], ids=lambda p: p
)
def test_documented_config_files_are_config_at_root_and_nested(path: str) -> None:
    assert is_config(path)
    assert is_config(f"packages/web/{path}")  # a package's own config counts too
    assert runners.runners_for(path) != ()


@pytest.mark.parametrize("path", NOT_CONFIG)
def test_other_files_are_not_config(path: str) -> None:
    assert not is_config(path)
    assert not is_section(path)


@pytest.mark.parametrize(
    "path",
    [
        "pyproject.toml",
        "setup.cfg",
        "setup.py",
        "package.json",
        "Cargo.toml",
        "bunfig.toml",
        "go.mod",
        "tests/__init__.py",
    ],
)
def test_section_files_are_not_whole_config(path: str) -> None:
    """A section file is read in part, never whole: a package.json edit that
    bumps a dependency is not drift."""
    assert is_section(path) and is_section(f"a/b/{path}")
    assert not is_config(path)


def test_every_runner_names_its_doc_and_something_it_reads() -> None:
    for runner in RUNNERS:
        assert runner.doc.startswith("https://"), runner.name
        assert runner.files or runner.sections, runner.name
        assert all(s in SECTION_GLOBS for s in runner.sections), runner.name
    assert len(CONFIG_FILES) == len(set(CONFIG_FILES))


def test_the_module_docstring_names_every_whole_file() -> None:
    """The docs list each runner's files: a glob added without its line in
    the docstring fails here."""
    doc = (runners.__doc__ or "") + (vendored.__doc__ or "")  # vendored lists its own
    for glob in CONFIG_FILES:
        name = glob.removeprefix("**/").rstrip("/")
        shown = name.replace(".*", "").split("/")[-1] if "*" in name else name
        assert shown.replace("*", "") in doc, glob


# Every glob of CONFIG_FILES, made concrete: `*` filled by generated text.
_fill = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=8)
_dirs = st.lists(_fill, max_size=3)


@settings(max_examples=60)
@given(st.sampled_from(CONFIG_FILES), _fill, _dirs, st.booleans())
def test_every_glob_matches_a_generated_path_at_root_and_nested(
    glob: str, fill: str, dirs: list[str], upper: bool
) -> None:
    name = glob.removeprefix("**/").replace("*", fill)
    if name.endswith("/"):
        name += f"{fill}.js"
    for path in (name, "/".join([*dirs, name])):
        shown = path.upper() if upper else path  # a case-insensitive checkout
        assert is_config(shown), (glob, shown)


# section_change: documented examples per runner.

TABLE = [
    # pytest: pyproject.toml, either table, however spelled
    ("pyproject.toml", "[project]\nname='x'\n", '[tool.pytest]\naddopts = ["-q"]\n', "added"),
    ("pyproject.toml", "[tool.pytest.ini_options]\naddopts='-q'\n", "", "removed"),
    (
        "pyproject.toml",
        "[tool.pytest.ini_options]\naddopts = '-q'\n",
        "tool.pytest.ini_options.addopts = '-q'\n",
        None,
    ),
    ("pyproject.toml", "[tool.black]\nx=1\n", "[tool.black]\nx=2\n", None),
    ("pyproject.toml", "[tool.tox]\nenv_list=['a']\n", "[tool.tox]\nenv_list=['b']\n", "changed"),
    (
        "pyproject.toml",
        "[tool.hatch.envs.hatch-test]\nx=1\n",
        "[tool.hatch.envs.hatch-test]\nx=2\n",
        "changed",
    ),
    (
        "pyproject.toml",
        "[tool.hatch.version]\npath='a'\n",
        "[tool.hatch.version]\npath='b'\n",
        None,
    ),
    # setup.cfg: pytest and tox sections
    ("setup.cfg", "[metadata]\nname=x\n", "[metadata]\nname=y\n", None),
    ("setup.cfg", "[tool:pytest]\naddopts=-q\n", "[tool:pytest]\naddopts=-k nothing\n", "changed"),
    ("setup.cfg", "[metadata]\nname=x\n", "[metadata]\nname=x\n[pytest]\nx=1\n", "added"),
    ("setup.cfg", "[tox:tox]\nenvlist=py\n", "", "removed"),
    ("setup.cfg", "[testenv]\ncommands=pytest\n", "[testenv]\ncommands=true\n", "changed"),
    # package.json: jest, mocha, ava, tap, scripts
    ("package.json", '{"name":"a"}', '{"name":"a","jest":{"testMatch":[]}}', "added"),
    ("package.json", '{"mocha":{"grep":"x"}}', '{"mocha":{"grep":"y"}}', "changed"),
    ("package.json", '{"ava":{"files":["t/*"]}}', "{}", "removed"),
    ("package.json", '{"tap":{"timeout":1}}', '{"tap":{"timeout":2}}', "changed"),
    ("package.json", '{"version":"1.0.0"}', '{"version":"1.0.1"}', None),
    ("package.json", '{"dependencies":{"a":"1"}}', '{"dependencies":{"a":"2"}}', None),
    ("package.json", '{"scripts":{"test":"jest"}}', '{"scripts":{"test":"true"}}', "changed"),
    ("package.json", '{"scripts":{"build":"tsc"}}', '{"scripts":{"build":"vite"}}', None),
    (
        "package.json",
        '{"scripts":{"test":"node --test"}}',
        '{"scripts":{"test":"node --test","pretest":"rm -rf test"}}',
        "changed",
    ),
    (
        "package.json",
        '{"scripts":{"build":"tsc"}}',
        '{"scripts":{"build":"tsc","posttest":"exit 0"}}',
        "added",
    ),
    (
        "package.json",
        '{"scripts":{"test":"npm run unit","unit":"mocha"}}',
        '{"scripts":{"test":"npm run unit","unit":"true"}}',
        "changed",
    ),
    (
        "package.json",
        '{"scripts":{"check":"run-s lint:*","lint:a":"x","test":"run-s check"}}',
        '{"scripts":{"check":"run-s lint:*","lint:a":"y","test":"run-s check"}}',
        "changed",
    ),
    (
        "package.json",
        '{"scripts":{"postinstall":"a"}}',
        '{"scripts":{"postinstall":"b"}}',
        "changed",
    ),
    ("package.json", '{"workspaces":["a"]}', '{"workspaces":["a","b"]}', "changed"),
    ("package.json", '{"config":{"args":"-t a"}}', '{"config":{"args":"-t zz"}}', "changed"),
    ("package.json", "{}", '{"babel":{"plugins":["./strip.js"]}}', "added"),
    ("package.json", '{"jest":{"a":1},"b":2}', '{\n  "b": 2,\n  "jest": {"a": 1}\n}\n', None),
    # Cargo
    ("Cargo.toml", "[package]\nname='a'\n", "[package]\nname='a'\n[[test]]\nname='t'\n", "added"),
    ("Cargo.toml", "[dependencies]\nx='1'\n", "[dependencies]\nx='2'\n", None),
    ("Cargo.toml", "[dev-dependencies]\nx='1'\n", "[dev-dependencies]\nx='2'\n", "changed"),
    ("Cargo.toml", "[lib]\ntest=true\n", "[lib]\ntest=false\n", "changed"),
    ("Cargo.toml", "[package]\nautotests=true\n", "[package]\nautotests=false\n", "changed"),
    ("Cargo.toml", "[package]\nversion='1'\n", "[package]\nversion='2'\n", None),
    ("Cargo.toml", "[workspace]\nmembers=['a']\n", "[workspace]\nmembers=[]\n", "changed"),
    ("Cargo.toml", "[profile.test]\ndebug-assertions=true\n", "", "removed"),
    # Bun
    ("bunfig.toml", "[install]\nx=1\n", "[install]\nx=2\n", None),
    ("bunfig.toml", "", "[test]\npreload=['./skip.ts']\n", "added"),
    # Go
    ("go.mod", "module a\n\ngo 1.22\n", "module a\n\ngo 1.23\n", None),
    ("sub/go.mod", None, "module a/sub\n", "added"),
    ("sub/go.mod", "module a/sub\n", None, "removed"),
    ("go.mod", "module a\n", "module a\nignore ./slow\n", "changed"),
    ("go.mod", "module a\n", "module a\nignore (\n\t./x // why\n)\n", "changed"),
    ("go.mod", "module a\nrequire b v1\n", "module a\nrequire b v2\n", None),
    # unittest's load_tests in a package __init__.py
    ("pkg/__init__.py", "VERSION = 1\n", "VERSION = 2\n", None),
    ("pkg/__init__.py", "", "def load_tests(l, t, p):\n    return t\n", "added"),
    ("pkg/__init__.py", "def load_tests(l, t, p):\n    return f(t)\n", "", "removed"),
    (
        "pkg/__init__.py",
        "def load_tests(l, t, p):\n    return f(t)\ndef f(t):\n    return t\n",
        "def load_tests(l, t, p):\n    return f(t)\ndef f(t):\n    return l.suiteClass()\n",
        "changed",
    ),
    ("pkg/__init__.py", "", 'globals()["load_" + "tests"] = 1\n', "added"),
    ("pkg/__init__.py", "", "from .hooks import *\n", "added"),
    ("pkg/__init__.py", "", "def __getattr__(name):\n    pass\n", "added"),
    ("pkg/__init__.py", "", "def (:\n", "added"),  # cannot parse: counted as able
    # a fullwidth l: Python's NFKC reading makes this `load_tests`
    ("pkg/__init__.py", "", "def \uff4coad_tests(l, t, p):\n    return t\n", "added"),
]


@pytest.mark.parametrize(("path", "base", "head", "expected"), TABLE)
def test_section_change_documented_examples(
    path: str, base: str | None, head: str | None, expected: str | None
) -> None:
    assert section_change(path, base, head) == expected


@pytest.mark.parametrize(
    ("path", "base", "head", "why"),
    [
        ("pyproject.toml", "[tool]\nx=1\n", "[tool\n", "the head version is not valid TOML"),
        ("Cargo.toml", "a = = 1", "", "the base version is not valid TOML"),
        ("package.json", "{", "{}", "the base version is not strict JSON"),
        ("package.json", "{}", '{"jest":{},"jest":{}}', 'duplicate key "jest"'),
        ("package.json", "{}", "[1]", "the head version is not a JSON object"),
        ("package.json", "{}", '{"a": NaN}', "the head version is not strict JSON"),
        ("package.json", "{}", "", "empty file"),
        ("package.json", "{}", '{"a":"\udcff"}', "not UTF-8"),
    ],
)
def test_unreadable_sides_fail_closed(path: str, base: str, head: str, why: str) -> None:
    got = section_change(path, base, head)
    assert got is not None and got.startswith("unreadable: "), got
    assert why in got


def test_a_path_that_is_no_section_file_is_a_callers_mistake() -> None:
    with pytest.raises(ValueError, match="not a runner section file"):
        section_change("src/app.py", "", "")


# Generated package.json texts.

# The keys package.json's runner section reads (runners' one owner): never an "other" key.
PACKAGE_JSON_KEYS = runners.section_for("package.json").keys  # type: ignore[union-attr]
_name = st.text(alphabet="abcdefghijklmnopqrsuvwxyz", min_size=1, max_size=6).filter(
    lambda n: n not in sections.LIFECYCLE and n not in PACKAGE_JSON_KEYS and n != "node"
)
_value = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_name, inner, max_size=3),
    max_leaves=6,
)
_other = st.dictionaries(
    _name.filter(lambda n: n not in ("scripts", "workspaces")), _value, max_size=4
)
_scripts = st.dictionaries(_name, _name, max_size=3)  # a non-test script runs a plain word


def _render(data: dict[str, object], style: int) -> str:
    if style == 0:
        return json.dumps(data)
    if style == 1:
        return json.dumps(data, indent=2, sort_keys=True) + "\n"
    return json.dumps(dict(reversed(list(data.items()))), indent="\t")


@given(_other, _other, _scripts, _scripts, _value, st.integers(0, 2), st.integers(0, 2))
def test_package_json_non_runner_edits_are_no_change(
    base_other: dict[str, object],
    head_other: dict[str, object],
    base_scripts: dict[str, str],
    head_scripts: dict[str, str],
    jest: object,
    base_style: int,
    head_style: int,
) -> None:
    """Other keys and scripts that are not test scripts (nor named by one)
    change freely; the runner keys stay; reformatting is no change."""
    scripts_test = {"test": "node --test"}
    base = {**base_other, "jest": jest, "scripts": {**base_scripts, **scripts_test}}
    head = {**head_other, "jest": jest, "scripts": {**head_scripts, **scripts_test}}
    assert (
        section_change("package.json", _render(base, base_style), _render(head, head_style)) is None
    )


@given(
    _other,
    st.sampled_from(["jest", "mocha", "ava", "tap", "workspaces"]),
    _value,
    _value,
    st.integers(0, 2),
)
def test_package_json_runner_key_edits_are_seen(
    other: dict[str, object], key: str, before: object, after: object, style: int
) -> None:
    base = _render({**other, key: before}, style)
    head = _render({**other, key: after}, style)
    expected = None if before == after else "changed"
    assert section_change("web/package.json", base, head) == expected
    assert section_change("web/package.json", _render(other, style), head) == "added"
    assert section_change("web/package.json", base, _render(other, style)) == "removed"


@given(_other, _scripts, st.sampled_from(["test", "pretest", "posttest", "test:unit"]), _name)
def test_package_json_test_script_edits_are_seen(
    other: dict[str, object], scripts: dict[str, str], name: str, command: str
) -> None:
    base = json.dumps({**other, "scripts": {**scripts, name: "jest"}})
    head = json.dumps({**other, "scripts": {**scripts, name: command}})
    assert section_change("package.json", base, head) == (None if command == "jest" else "changed")


# Generated pyproject.toml / Cargo.toml / setup.cfg texts.

_key = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=6)
_scalar = st.integers(-5, 5) | st.booleans() | st.text(alphabet="abc xyz-", max_size=5)
_table = st.dictionaries(_key, _scalar | st.lists(_scalar, max_size=3), max_size=3)


def _toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return json.dumps(v)


def _toml(tables: dict[str, dict[str, object]], dotted: bool) -> str:
    """`tables` (dotted name -> keys) as TOML: `[a.b]` headers, or dotted
    keys at the top level: the same values either way."""
    out = []
    for name, keys in tables.items():
        if dotted:
            out += [f'{name}."{k}" = {_toml_value(v)}' for k, v in keys.items()]
            if not keys:
                out.append(f"{name} = {{}}")
        else:
            out.append(f"[{name}]")
            out += [f'"{k}" = {_toml_value(v)}' for k, v in keys.items()]
    return "\n".join(out) + "\n"


_tool_names = st.sampled_from(["tool.black", "tool.ruff", "project", "tool.mypy", "build-system"])


@given(
    st.dictionaries(_tool_names, _table, max_size=3),
    st.dictionaries(_tool_names, _table, max_size=3),
    _table,
    st.booleans(),
    st.booleans(),
)
def test_pyproject_other_tables_change_freely(
    base_other: dict[str, dict[str, object]],
    head_other: dict[str, dict[str, object]],
    pytest_keys: dict[str, object],
    base_dotted: bool,
    head_dotted: bool,
) -> None:
    section = {"tool.pytest.ini_options": pytest_keys}
    base = _toml({**base_other, **section}, base_dotted)
    head = _toml({**head_other, **section}, head_dotted)
    assert section_change("pyproject.toml", base, head) is None


@given(
    st.dictionaries(_tool_names, _table, max_size=3),
    st.sampled_from(["tool.pytest", "tool.pytest.ini_options", "tool.tox"]),
    _table,
    _table,
    st.booleans(),
)
def test_pyproject_runner_tables_are_seen(
    other: dict[str, dict[str, object]],
    name: str,
    before: dict[str, object],
    after: dict[str, object],
    dotted: bool,
) -> None:
    base = _toml({**other, name: before}, dotted)
    head = _toml({**other, name: after}, dotted)
    assert section_change("sub/pyproject.toml", base, head) == (
        None if before == after else "changed"
    )
    assert section_change("sub/pyproject.toml", _toml(other, dotted), head) == "added"
    assert section_change("sub/pyproject.toml", base, _toml(other, dotted)) == "removed"


_cargo_runner = st.sampled_from(["dev-dependencies", "lib", "features", "profile.test"])


@given(_table, _table, _cargo_runner, _table)
def test_cargo_dependencies_change_freely_test_targets_do_not(
    deps_before: dict[str, object],
    deps_after: dict[str, object],
    name: str,
    runner_keys: dict[str, object],
) -> None:
    base = _toml({"dependencies": deps_before, name: runner_keys}, False)
    head = _toml({"dependencies": deps_after, name: runner_keys}, True)
    assert section_change("crates/a/Cargo.toml", base, head) is None
    changed = _toml({"dependencies": deps_after, name: {**runner_keys, "zz_new": 1}}, False)
    assert section_change("crates/a/Cargo.toml", base, changed) == "changed"


_ini_line = st.from_regex(r"[a-z]{1,5} = [a-z0-9 ]{0,6}", fullmatch=True)
_ini_other = st.sampled_from(["metadata", "options", "flake8", "mypy"])


@given(
    st.dictionaries(_ini_other, st.lists(_ini_line, max_size=3), max_size=3),
    st.dictionaries(_ini_other, st.lists(_ini_line, max_size=3), max_size=3),
    st.lists(_ini_line, max_size=3),
    _ini_line,
)
def test_setup_cfg_other_sections_change_freely(
    base_other: dict[str, list[str]],
    head_other: dict[str, list[str]],
    pytest_lines: list[str],
    extra: str,
) -> None:
    def render(other: dict[str, list[str]], section: list[str]) -> str:
        parts = [f"[{n}]\n" + "".join(f"{x}\n" for x in body) for n, body in other.items()]
        return "".join(parts) + "[tool:pytest]\n" + "".join(f"{x}\n" for x in section)

    base = render(base_other, pytest_lines)
    assert section_change("setup.cfg", base, render(head_other, pytest_lines)) is None
    assert section_change("setup.cfg", base, render(head_other, [*pytest_lines, extra])) == (
        "changed"
    )


_py_name = st.from_regex(r"[a-k][a-z]{0,5}", fullmatch=True)


@given(
    st.dictionaries(_py_name, st.integers(), max_size=4),
    st.dictionaries(_py_name, st.integers(), max_size=4),
)
def test_init_without_load_tests_changes_freely(
    before: dict[str, int], after: dict[str, int]
) -> None:
    def render(names: dict[str, int]) -> str:
        return "".join(f"{k}_ = {v}\n" for k, v in names.items())

    assert section_change("src/pkg/__init__.py", render(before), render(after)) is None
    hook = "def load_tests(loader, tests, pattern):\n    return tests\n"
    assert section_change("src/pkg/__init__.py", render(before), render(after) + hook) == "added"


# The real tools: a file of the list changes which tests run.


def _pytest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


def test_real_pytest_a_new_pytest_toml_in_a_subfolder_deselects_every_test(
    tmp_path: Path,
) -> None:
    """pytest 9 reads `pkg/pytest.toml` for `pytest pkg/tests`: the nested
    file the list matches switches every test off."""
    root = tmp_path / "repo"
    (root / "pkg" / "tests").mkdir(parents=True)
    (root / "pkg" / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    before = _pytest(root, "pkg/tests")
    assert before.returncode == 0 and "1 passed" in before.stdout, before.stdout
    (root / "pkg" / "pytest.toml").write_text('[pytest]\naddopts = ["-k", "nothing"]\n')
    after = _pytest(root, "pkg/tests")
    assert after.returncode == 5 and "1 deselected" in after.stdout, after.stdout
    assert is_config("pkg/pytest.toml")


def test_real_pytest_a_pyproject_section_deselects_every_test(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    base = "[project]\nname = 'x'\n"
    head = base + '[tool.pytest]\naddopts = ["-k", "nothing"]\n'
    (root / "pyproject.toml").write_text(base)
    assert "1 passed" in _pytest(root).stdout
    (root / "pyproject.toml").write_text(head)
    assert "1 deselected" in _pytest(root).stdout
    assert section_change("pyproject.toml", base, head) == "added"


def test_real_unittest_load_tests_in_a_package_init_empties_its_tests(tmp_path: Path) -> None:
    """unittest discovery calls a package's `load_tests`: a hook in
    `__init__.py` (outside any test glob) drops the package's tests."""
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "test_a.py").write_text(
        "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n"
    )
    (root / "pkg" / "__init__.py").write_text("")

    def ran() -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "unittest", "discover", "-s", ".", "-t", "."],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        found = re.search(r"Ran (\d+) test", proc.stderr)
        assert found, proc.stderr
        return found.group(1)

    assert ran() == "1"
    hook = "def load_tests(loader, tests, pattern):\n    return loader.suiteClass()\n"
    (root / "pkg" / "__init__.py").write_text(hook)
    assert ran() == "0"
    assert section_change("pkg/__init__.py", "", hook) == "added"
    assert is_section("pkg/__init__.py")


# Captured at import, before the autouse fixture points HOME at a temp folder:
# rustup finds its toolchains under the real one.
_REAL_HOME = os.environ.get("HOME", "")


def _cargo_test(root: Path) -> int:
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("cargo is not installed")
    env = {
        **os.environ,
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", os.path.join(_REAL_HOME, ".rustup")),
        "CARGO_HOME": os.environ.get("CARGO_HOME", os.path.join(_REAL_HOME, ".cargo")),
        "CARGO_TARGET_DIR": str(root / "target"),
    }
    proc = subprocess.run(
        [cargo, "test", "--offline", "-q"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    return proc.returncode


def test_real_cargo_a_runner_in_cargo_config_or_lib_test_false_passes_a_failing_test(
    tmp_path: Path,
) -> None:
    """`cargo test` with a failing test fails; a `.cargo/config.toml` whose
    target runner is `true`, or `[lib] test = false` in Cargo.toml, turns it
    into a pass: both are in the list."""
    root = tmp_path / "crate"
    (root / "src").mkdir(parents=True)
    manifest = '[package]\nname = "probe"\nversion = "0.1.0"\nedition = "2021"\n'
    (root / "Cargo.toml").write_text(manifest)
    (root / "src" / "lib.rs").write_text(
        '#[cfg(test)]\nmod t {\n    #[test]\n    fn fails() {\n        panic!("boom");\n    }\n}\n'
    )
    assert _cargo_test(root) == 101
    (root / ".cargo").mkdir()
    (root / ".cargo" / "config.toml").write_text("[target.'cfg(all())']\nrunner = \"true\"\n")
    assert _cargo_test(root) == 0
    assert is_config(".cargo/config.toml") and is_config("crates/a/.cargo/config.toml")
    (root / ".cargo" / "config.toml").unlink()
    assert _cargo_test(root) == 101
    head = manifest + "[lib]\ntest = false\ndoctest = false\n"
    (root / "Cargo.toml").write_text(head)
    assert _cargo_test(root) == 0
    assert section_change("Cargo.toml", manifest, head) == "added"


@pytest.mark.parametrize(
    ("path", "base", "head", "expected"),
    [
        ("deno.json", '{"fmt":{"a":1}}', '{"fmt":{"a":2}}', None),
        ("deno.json", "{}", '{"test":{"exclude":["tests/"]}}', "added"),
        ("deno.jsonc", '{"exclude":["a"]}', '{"exclude":["a","tests"]}', "changed"),
        (
            "deno.jsonc",
            '{"tasks": {"test": "deno test"}, // the tests\n}',
            '{\n  /* same */ "tasks": {"test": "deno test",},\n}',
            None,
        ),
        ("deno.jsonc", '{"tasks":{"test":"deno test"}}', '{"tasks":{"test":"true"}}', "changed"),
        (
            "deno.jsonc",
            '{"test":{"include":["a,]//b"]}}',
            '{"test":{"include":["a]//b"]}}',
            "changed",
        ),
        ("apps/x/deno.json", '{"workspace":["a"]}', "{}", "removed"),
    ],
)
def test_deno_sections_jsonc(
    path: str, base: str | None, head: str | None, expected: str | None
) -> None:
    assert section_change(path, base, head) == expected


@pytest.mark.parametrize(
    "text", ['{"test": 1 /* never closed', '{"test": 1,, }', '{"test": "unterminated}']
)
def test_deno_unreadable(text: str) -> None:
    got = section_change("deno.jsonc", "{}", text)
    assert got is not None and got.startswith("unreadable: the head version "), got


@given(_other, _value, st.booleans(), st.booleans())
def test_deno_comments_and_trailing_commas_change_nothing(
    other: dict[str, object], tests: object, comment: bool, trailing: bool
) -> None:
    """The same values written with comments and trailing commas are no change."""
    data = {**other, "test": tests}
    plain = json.dumps(data, indent=2)
    fancy = plain
    if trailing:
        fancy = re.sub(r"(\S)(\n\s*[}\]])", r"\1,\2", fancy)
    if comment:
        fancy = fancy.replace("\n", ' // a "comment", ]\n').replace("{", "{ /* } */", 1)
    assert section_change("deno.jsonc", plain, fancy) is None


_POM = """<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <artifactId>app</artifactId>
  <version>{version}</version>
  <properties>
    <java.version>{java}</java.version>{extra_property}
  </properties>
  <dependencies>
    <dependency><groupId>g</groupId><artifactId>lib</artifactId><version>{lib}</version></dependency>
    {engine}
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>{compiler}</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId>{surefire}</plugin>
    </plugins>
  </build>
  {modules}
</project>
"""
_ENGINE = (
    "<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine"
    "</artifactId><scope>test</scope></dependency>"
)


def _pom(**changes: str) -> str:
    fields = {
        "version": "1.0",
        "java": "17",
        "extra_property": "",
        "lib": "1",
        "engine": _ENGINE,
        "compiler": "3.11",
        "surefire": "",
        "modules": "<modules><module>core</module></modules>",
    }
    return _POM.format(**{**fields, **changes})


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"version": "1.1", "java": "21", "lib": "2", "compiler": "3.12"}, None),
        ({"extra_property": "\n    <skipTests>true</skipTests>"}, "changed"),
        ({"extra_property": "\n    <maven.test.skip>true</maven.test.skip>"}, "changed"),
        ({"extra_property": "\n    <excludedGroups>slow</excludedGroups>"}, "changed"),
        ({"engine": ""}, "changed"),
        ({"surefire": "<configuration><excludes>**/*</excludes></configuration>"}, "changed"),
        ({"modules": ""}, "changed"),
    ],
)
def test_pom_sections(change: dict[str, str], expected: str | None) -> None:
    assert section_change("svc/pom.xml", _pom(), _pom(**change)) == expected


def test_pom_reformatted_is_no_change_and_broken_is_unreadable() -> None:
    base = _pom()
    assert section_change("pom.xml", base, re.sub(r">\s+<", "><", base)) is None
    got = section_change("pom.xml", base, base.replace("</project>", ""))
    assert got is not None and got.startswith("unreadable: the head version is not well-formed XML")
    assert section_change("pom.xml", None, "<project/>") is None  # nothing of the tests in it
    assert is_config(".mvn/maven.config") and is_section("core/pom.xml")


# Entities a pom.xml from a PR may declare: nine levels of ten (10**9 "lol"s
# if expanded), and an external entity naming a local file and a URL.
_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE project [\n  <!ENTITY lol0 "lol">\n'
    + "".join(f'  <!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">\n' for n in range(1, 10))
    + "]>\n<project><properties><skipTests>&lol9;</skipTests></properties></project>\n"
)
_EXTERNAL = (
    '<?xml version="1.0"?>\n<!DOCTYPE project [\n  <!ENTITY leak SYSTEM "{target}">\n]>\n'
    "<project><properties><skipTests>&leak;</skipTests></properties></project>\n"
)


@pytest.mark.parametrize(
    ("hostile", "entity"),
    [
        (_LAUGHS, "lol0"),
        (_EXTERNAL.format(target="file:///etc/passwd"), "leak"),
        (_EXTERNAL.format(target="http://127.0.0.1:9/x.dtd"), "leak"),
    ],
    ids=["billion-laughs", "external-file", "external-url"],
)
def test_a_pom_declaring_entities_is_unreadable_never_expanded(hostile: str, entity: str) -> None:
    """An entity in a pom.xml is refused (defusedxml) before anything is
    expanded or fetched: the change counts as drift, at once."""
    for base, head, side in ((_pom(), hostile, "head"), (hostile, _pom(), "base")):
        assert section_change("pom.xml", base, head) == (
            f"unreadable: the {side} version declares the XML entity {entity!r}, which the gate "
            "does not expand (a pom.xml needs none)"
        )
    with pytest.raises(sections.Unreadable):
        sections.pom_modules(hostile)


@given(
    body=st.sampled_from(
        [
            "import importlib\n\ndef __getattr__(n):\n    return importlib.import_module(n)\n",
            "import sys\n_mods = sys.modules\n__all__ = sorted(globals())\n",
            "from .core import *\n",
        ]
    ),
    edit=st.text(alphabet="abcdefgh_ ", min_size=1, max_size=20),
)
def test_a_source_package_init_counts_only_when_it_spells_load_tests(body: str, edit: str) -> None:
    """A source package's `__init__.py` using the dynamic forms for its own
    ends is not runner configuration; one that spells `load_tests` is; at a
    test path the dynamic forms alone still count."""
    head = body + f"X = {edit!r}\n"
    path = "src/pkg/__init__.py"
    assert section_change(path, body, head, at_test_path=False) is None
    hooked = head + "\ndef load_tests(loader, tests, pattern):\n    return tests\n"
    assert section_change(path, body, hooked, at_test_path=False) == "added"
    fullwidth = head + "\nｌoad_tests = None\n"  # Python reads names NFKC-normalized
    assert section_change(path, body, fullwidth, at_test_path=False) == "added"
    assert section_change("tests/pkg/__init__.py", body, head) == "changed"
