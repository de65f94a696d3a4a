"""Class 7 of docs/hostile-input.md: tests cannot be bent from outside the
test files.  Generated layouts, configuration files and pytest sections;
real repositories for the texts `test_drift` reads."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate import starter
from gate.base import globs
from gate.base.errors import GateError
from gate.changes.api import changes_from_api, listing
from gate.drift.runners import CONFIG_FILES, SECTION_FILES
from gate.github.client_types import PullFile
from gate.model.change import ADDED, COPIED, DELETED, MODIFIED, ChangeSet, FileChange, FileTexts
from gate.model.rubric import DEFAULT_TESTS, Rule
from gate.rubric.load import load_rubric_bytes
from gate.rubric.schema import schema
from gate.rules import must_include, test_drift, text_wants
from tests.gitrepo import RubricRepo

PROPS = settings(max_examples=200, deadline=None)

SPEC_FLOOR = (
    "tests/",
    "test/",
    "**/test_*.py",
    "**/*_test.py",
    "**/conftest.py",
    "pytest.ini",
    "tox.ini",
    "**/*_test.go",
    "**/__tests__/",
    "**/*.test.*",
    "**/*.spec.*",
    "spec/",
)

# How the rule names the runner part of each section file (runners' one owner).
_WHAT = {section.glob: f"({section.what})" for section in SECTION_FILES}
PYPROJECT_WHAT = _WHAT["**/pyproject.toml"]
SETUP_CFG_WHAT = _WHAT["**/setup.cfg"]


def drift(changes: ChangeSet, allow_added: bool = True, paths: Any = DEFAULT_TESTS) -> Any:
    params = {"allow_added": allow_added, "paths": tuple(paths)}
    return test_drift.check(Rule("T", "test_drift", params), changes)


# --- the default globs ---------------------------------------------------------


def test_the_defaults_keep_the_spec_list_first() -> None:
    assert DEFAULT_TESTS[: len(SPEC_FLOOR)] == SPEC_FLOOR


def test_every_place_that_lists_the_defaults_lists_them_all() -> None:
    root = Path(__file__).resolve().parents[2]
    rubric_page = (root / "docs" / "rubric.md").read_text(encoding="utf-8")
    described = schema()["properties"]["tests"]["description"]
    for glob in DEFAULT_TESTS:
        assert f"`{glob}`" in rubric_page, glob
        assert f'"{glob}"' in starter.STARTER_RUBRIC, glob
        assert f"`{glob}`" in (test_drift.__doc__ or ""), glob
        assert glob in described, glob


DIR = st.sampled_from(["", "app/", "src/pkg/", "web/components/", "cmd/x/"])
NAME = st.text(alphabet="abcxyz_", min_size=1, max_size=8)
LAYOUT = st.one_of(
    st.tuples(DIR, NAME).map(lambda t: f"{t[0]}tests.py"),  # Django
    st.tuples(DIR, NAME).map(lambda t: f"{t[0]}tests/{t[1]}.py"),  # a tests package
    st.tuples(DIR, NAME).map(lambda t: f"{t[0]}test{t[1]}.py"),  # unittest discovery
    st.tuples(DIR, NAME).map(lambda t: f"{t[0]}__tests__/{t[1]}.js"),  # Jest
    st.tuples(DIR, NAME, st.sampled_from(["test", "spec"]), st.sampled_from(["js", "tsx"])).map(
        lambda t: f"{t[0]}{t[1]}.{t[2]}.{t[3]}"
    ),
    st.tuples(DIR, NAME).map(lambda t: f"{t[0]}__snapshots__/{t[1]}.test.js.snap"),
    st.tuples(DIR, NAME).map(lambda t: f"{t[0]}{t[1]}_test.go"),  # Go
    st.tuples(DIR, NAME).map(lambda t: f"{t[0]}testdata/{t[1]}.golden"),
    st.tuples(DIR, NAME).map(lambda t: f"spec/{t[0]}{t[1]}_spec.rb"),  # RSpec
    st.tuples(DIR, NAME).map(lambda t: f"lib/{t[0]}{t[1]}_spec.rb"),
)


@PROPS
@given(LAYOUT, st.sampled_from([MODIFIED, DELETED]))
def test_the_common_frameworks_layouts_are_tests(path: str, status: str) -> None:
    assert globs.matches(path, DEFAULT_TESTS)
    result = drift(ChangeSet(files=(FileChange(path, status, added=1, deleted=1),)))
    assert result.passed is False
    assert result.paths == (path,)


# --- configuration that can switch tests off ----------------------------------

CONFIG_NAME = st.sampled_from(
    [
        "conftest.py",
        "pytest.ini",
        ".pytest.ini",
        "tox.ini",
        "jest.config.js",
        "vitest.config.ts",
        "babel.config.js",
        ".mocharc.yml",
        "karma.conf.js",
        "noxfile.py",
        "playwright.config.ts",
        ".npmrc",
        "go.work",
        "phpunit.xml",
        "build.rs",
    ]
)


@st.composite
def config_path(draw: st.DrawFn) -> str:
    name = draw(CONFIG_NAME)
    if draw(st.booleans()):
        name = "".join(c.upper() if draw(st.booleans()) else c for c in name)
    return draw(DIR) + name


@PROPS
@given(config_path(), st.sampled_from([ADDED, COPIED]), st.booleans())
def test_new_test_configuration_is_drift_even_when_tests_may_be_added(
    path: str, status: str, custom_paths: bool
) -> None:
    old = "tests/test_a.py" if status == COPIED else None
    change = FileChange(path, status, old, added=3, deleted=0)
    paths = ("tests/",) if custom_paths else DEFAULT_TESTS
    result = drift(ChangeSet(files=(change,)), allow_added=True, paths=paths)
    assert result.passed is False
    assert "test configuration file added" in result.message
    assert result.paths == (path,)


TEST_DIRS = st.sampled_from(["tests/", "test/", "tests/unit/", "spec/", "src/pkg/__tests__/"])


@PROPS
@given(
    TEST_DIRS,
    st.sampled_from(["pyproject.toml", "setup.cfg"]),
    st.sampled_from([ADDED, COPIED]),
    st.booleans(),
    st.booleans(),
)
def test_a_nested_pyproject_or_setup_cfg_in_a_test_folder_is_configuration(
    folder: str, name: str, status: str, cased: bool, custom_paths: bool
) -> None:
    """`pytest tests` reads the pytest section of tests/pyproject.toml (or
    tests/setup.cfg) before the root's: adding one can deselect every test,
    so it is configuration, not a new test; elsewhere below the root it is
    no test path and not judged."""
    if cased:
        name = name.upper()
    old = "pyproject.toml" if status == COPIED else None
    change = FileChange(folder + name, status, old, added=2, deleted=0)
    paths = (folder,) if custom_paths else DEFAULT_TESTS
    result = drift(ChangeSet(files=(change,)), allow_added=True, paths=paths)
    assert result.passed is False, result.message
    assert "test configuration file added" in result.message
    # elsewhere it is judged by its test runner section (gate.drift.runners)
    elsewhere = FileChange("pkg/" + name, ADDED, added=2, deleted=0)
    plain = "[project]\nname = 'x'\n" if name.casefold().endswith(".toml") else "[metadata]\n"
    bent = (
        "[tool.pytest]\naddopts = '-k nothing'\n"
        if name.casefold().endswith(".toml")
        else ("[tool:pytest]\naddopts = -k nothing\n")
    )
    for text, passed in ((plain, True), (bent, False)):
        texts = {elsewhere.path: FileTexts(None, text)}
        changes = ChangeSet(files=(elsewhere,), texts=texts)
        assert drift(changes, allow_added=True, paths=paths).passed is passed, text


@PROPS
@given(TEST_DIRS, NAME, st.booleans(), st.booleans())
def test_a_submodule_added_at_a_test_path_is_drift(
    folder: str, name: str, custom_paths: bool, deeper: bool
) -> None:
    """A submodule brings whatever files its commit holds, a conftest.py
    too: added at a test path it is drift even when tests may be added."""
    path = folder + name + ("/inner" if deeper else "")
    change = FileChange(path, ADDED, added=0, deleted=0, new_mode="160000")
    paths = (folder,) if custom_paths else DEFAULT_TESTS
    result = drift(ChangeSet(files=(change,)), allow_added=True, paths=paths)
    assert result.passed is False
    assert "submodule added at a test path" in result.message
    assert result.paths == (path,)
    plain = FileChange(path, ADDED, added=1, deleted=0, new_mode="100644")
    outside = FileChange("vendor/" + name, ADDED, added=0, deleted=0, new_mode="160000")
    for other in (plain, outside):
        assert drift(ChangeSet(files=(other,)), allow_added=True, paths=paths).passed


def test_a_new_test_is_still_welcome() -> None:
    change = FileChange("tests/test_new.py", ADDED, added=9)
    texts = {change.path: FileTexts(None, "def test_new():\n    pass\n")}
    assert drift(ChangeSet(files=(change,), texts=texts)).passed is True
    for name in ("conftest.py", "pytest.ini", "tox.ini", "tests/conftest.py", "a/b/.rspec"):
        assert globs.matches(name, CONFIG_FILES, globs.FOLDED), name


# --- pytest sections in pyproject.toml and setup.cfg ----------------------------

# Spellings of a pytest table, each with the class of value TOML gives it:
# the first, third and fourth spell the same table.
PYTEST_TABLES = [
    ('[tool.pytest.ini_options]\naddopts = "{opts}"\n', "ini"),
    ('[tool.pytest]\naddopts = ["{opts}"]\n', "native"),
    ('[tool]\npytest.ini_options.addopts = "{opts}"\n', "ini"),
    ('[tool]\npytest = {{ ini_options = {{ addopts = "{opts}" }} }}\n', "ini"),
    ('[tool.pytest.ini_options]\nmarkers = [\n  "slow",\n]\naddopts = """\n{opts}\n"""\n', "multi"),
]
OTHER_TABLES = [
    '[project]\nname = "x"\nversion = "{n}"\ndependencies = ["pytest>=8"]\n',
    "[tool.ruff]\nline-length = {n}\n",
    '[build-system]\nrequires = ["setuptools>={n}"]\n',
]
OPTS = st.sampled_from(["-q", "-k 'not slow'", "-p no:cacheprovider", "--deselect tests/x.py"])


@st.composite
def pyproject(draw: st.DrawFn) -> tuple[str, tuple[str, str] | None]:
    """(text, (spelling class, options) of its pytest table or None), with
    other tables around it in random order."""
    n = draw(st.integers(1, 99))
    tables = [t.format(n=n) for t in draw(st.lists(st.sampled_from(OTHER_TABLES), unique=True))]
    opts = draw(st.none() | OPTS)
    if opts is None:
        return "\n".join(tables), None
    spelled, kind = draw(st.sampled_from(PYTEST_TABLES))
    at = draw(st.integers(0, len(tables)))
    if spelled.startswith("[tool]\n"):
        at = len(tables)  # keep [tool] last, so later keys do not land in it
    tables.insert(at, spelled.format(opts=opts))
    return "\n".join(tables), (kind, opts)


def edited(name: str, base: str | None, head: str | None) -> ChangeSet:
    status = ADDED if base is None else DELETED if head is None else MODIFIED
    return ChangeSet(
        files=(FileChange(name, status, added=1, deleted=1),),
        texts={name: FileTexts(base=base, head=head)},
    )


@PROPS
@given(pyproject(), pyproject(), st.booleans())
def test_a_pytest_section_added_changed_or_removed_in_pyproject_is_drift(
    base: tuple[str, tuple[str, str] | None],
    head: tuple[str, tuple[str, str] | None],
    new_file: bool,
) -> None:
    before = None if new_file else base[1]
    result = drift(edited("pyproject.toml", None if new_file else base[0], head[0]))
    # a declared test tool added or removed (pytest in [project]
    # dependencies) is drift too, named as such (gate/drift/pins.py)
    pin = '["pytest>=8"]'
    tools_moved = (pin in head[0]) != (not new_file and pin in base[0])
    assert result.passed is (before == head[1] and not tools_moved), (base, head, result.message)
    if before != head[1]:
        assert (
            f"the test runner configuration of pyproject.toml {PYPROJECT_WHAT} was"
            in result.message
        )
        assert result.paths == ("pyproject.toml",)
    elif tools_moved:
        assert "pyproject.toml changes the test tools it declares" in result.message
        assert result.paths == ("pyproject.toml",)


SETUP_SECTIONS = st.sampled_from(
    [
        "[metadata]\nname = x\n",
        "[flake8]\nmax-line-length = 100\n",
        "[options]\npackages = find:\n",
    ]
)
BREAKS = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def setup_cfg(draw: st.DrawFn) -> tuple[str, str | None]:
    sections = draw(st.lists(SETUP_SECTIONS, unique=True, max_size=3))
    opts = draw(st.none() | OPTS)
    if opts is not None:
        body = f"[tool:pytest]\naddopts =\n    [x]\n    {opts}\n"  # `[` inside a value
        sections.insert(draw(st.integers(0, len(sections))), body)
    newline = draw(BREAKS)
    return "\n".join(sections).replace("\n", newline), opts


@PROPS
@given(setup_cfg(), setup_cfg())
def test_a_pytest_section_in_setup_cfg_is_drift(
    base: tuple[str, str | None], head: tuple[str, str | None]
) -> None:
    result = drift(edited("setup.cfg", base[0], head[0]))
    if base[1] != head[1]:
        assert result.passed is False
        assert f"the test runner configuration of setup.cfg {SETUP_CFG_WHAT} was" in result.message


@pytest.mark.parametrize(
    ("base", "head", "fragment"),
    [
        ("[project]\nname = 'x'\n", "[project\n", "the head version is not valid TOML"),
        ("[tool.pytest.ini_options\n", "", "the base version is not valid TOML"),
    ],
)
def test_an_unreadable_pyproject_fails(base: str, head: str, fragment: str) -> None:
    result = drift(edited("pyproject.toml", base, head))
    assert result.passed is False
    assert "cannot tell whether its test runner configuration" in result.message
    assert fragment in result.message


def test_a_source_without_texts_fails_and_an_example_is_not_checked() -> None:
    change = FileChange("pyproject.toml", MODIFIED, added=1, deleted=1)
    for source, passed in (("writer", False), ("api", False), ("example", True)):
        result = drift(ChangeSet(files=(change,), source=source))
        assert result.passed is passed, source
        if not passed:
            assert "text is unavailable from this source" in result.message


def test_untouched_or_unrelated_edits_are_not_drift() -> None:
    text = '[tool.pytest.ini_options]\naddopts = "-q"\n[project]\nname = "x"\n'
    assert drift(ChangeSet(texts={"pyproject.toml": FileTexts(text, text)})).passed
    later = text.replace('name = "x"', 'name = "y"')
    assert drift(edited("pyproject.toml", text, later)).passed


# --- the texts reach the rule from git, from a patch and from the API ---------

RUBRIC = "rules:\n  - {id: T, kind: test_drift}\n"
PYPROJECT = '[project]\nname = "x"\n'
BENT = PYPROJECT + '\n[tool.pytest.ini_options]\naddopts = "--deselect tests/test_a.py"\n'


def test_git_mode_reads_the_config_texts(rubric_repo: RubricRepo) -> None:
    rubric_repo.write_many(
        {
            ".github/blast-radius.yml": RUBRIC,
            "pyproject.toml": PYPROJECT,
            "tests/test_a.py": "def test_a():\n    assert False\n",
        }
    )
    base = rubric_repo.commit("base")
    rubric_repo.write("pyproject.toml", BENT)
    rubric_repo.write("src/conftest.py", "collect_ignore = ['tests']\n")
    head = rubric_repo.commit("bend the tests from outside")
    checked = rubric_repo.check(base, head)
    report = checked.report
    assert checked.code == 1
    assert report["failed"] == ["T"]
    result = report["results"][-1]
    assert result["paths"] == ["pyproject.toml", "src/conftest.py"]
    assert (
        f"the test runner configuration of pyproject.toml {PYPROJECT_WHAT} was added"
        in result["message"]
    )
    assert "1 test configuration file added" in result["message"]


def test_api_mode_reads_the_config_texts() -> None:
    rubric = load_rubric_bytes(RUBRIC.encode(), "r.yml")
    found = listing([PullFile("pyproject.toml", "modified", 2, 0, 2, None, True)], expected=1)
    # the touched file, and the root's runner configuration (what it collects)
    assert text_wants(rubric.rules).paths(found.files) == tuple(sorted(test_drift.TEXT_FILES))
    texts = {("fork", "pyproject.toml"): PYPROJECT, ("head", "pyproject.toml"): BENT}
    changes = changes_from_api(
        found,
        base="base",
        head="head",
        content_files=text_wants(rubric.rules),
        read_file=lambda ref, path: texts[(ref, path)].encode() if (ref, path) in texts else None,
        merge_base="fork",
    )
    result = test_drift.check(rubric.rules[0], changes)
    assert result.passed is False
    assert (
        f"the test runner configuration of pyproject.toml {PYPROJECT_WHAT} was added"
        in result.message
    )


# --- must_include on the last line --------------------------------------------

NOT_A_BREAK = st.sampled_from(["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
PIECE = st.one_of(
    st.sampled_from(["EXIT=0", "EXIT=1", "ok", "FAILED", " ", "\t", ""]),
    NOT_A_BREAK,
    st.text(alphabet="abc =01", max_size=6),
)


def reference_last_line(text: str) -> str | None:
    lines = re.split("\r\n|\r|\n", text)
    kept = [line for line in lines if line.strip(" \t")]
    return kept[-1] if kept else None


@PROPS
@given(st.lists(st.tuples(st.lists(PIECE, max_size=4).map("".join), BREAKS), max_size=6))
def test_last_line_means_the_last_line_a_harness_printed(lines: list[tuple[str, str]]) -> None:
    stdout = "".join(text + end for text, end in lines)
    rule = Rule("G", "must_include", {"token": "EXIT=0", "where": "last_line"})
    result = must_include.check(rule, ChangeSet(stdout=stdout))
    last = reference_last_line(stdout)
    assert result.passed is (last is not None and last.rstrip(" \t").endswith("EXIT=0"))
    anywhere = must_include.check(
        Rule("G", "must_include", {"token": "EXIT=0", "where": "anywhere"}),
        ChangeSet(stdout=stdout),
    )
    assert anywhere.passed is ("EXIT=0" in stdout)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(["EXIT=0", "ok\n", "FAILED\n", "EXIT=0\n", " ", "\x1b[0m"]), max_size=4
    ),
    st.sampled_from(["EXIT=0", "EXIT=0 ", "EXIT=0\t"]),
    st.integers(0, 3),
)
def test_a_token_printed_without_a_newline_never_passes_last_line(
    pieces: list[str], tail: str, code: int
) -> None:
    """A test process that writes the token without a newline as it ends
    runs into the harness's own line (`EXIT=0EXIT=1`): `last_line` passes
    exactly when the real harness printed `EXIT=0`, i.e. the run exited 0."""
    import subprocess
    import sys

    script = f"import sys; sys.stdout.write({''.join(pieces) + tail!r}); sys.exit({code})"
    run = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -c "$1"; echo "EXIT=$?"', "harness", script],
        capture_output=True,
        text=True,
        check=True,
    )
    rule = Rule("G", "must_include", {"token": "EXIT=0", "where": "last_line"})
    assert must_include.check(rule, ChangeSet(stdout=run.stdout)).passed is (code == 0)


def test_a_failing_run_that_printed_the_token_earlier_fails() -> None:
    stdout = "test_x ... EXIT=0 printed by a test\nFAILED test_x\nEXIT=1\n\n"
    rule = Rule("G", "must_include", {"token": "EXIT=0", "where": "last_line"})
    result = must_include.check(rule, ChangeSet(stdout=stdout))
    assert result.passed is False
    assert "not on its last non-empty line" in result.message


def test_where_is_loaded_checked_and_defaulted() -> None:
    rubric = load_rubric_bytes(b"rules:\n  - {id: G, kind: must_include, token: ok}\n", "r")
    assert rubric.rules[0].params["where"] == "anywhere"
    with pytest.raises(GateError, match="where"):
        load_rubric_bytes(
            b"rules:\n  - {id: G, kind: must_include, token: ok, where: first_line}\n", "r"
        )
    with pytest.raises(GateError, match="line break"):
        load_rubric_bytes(
            b'rules:\n  - {id: G, kind: must_include, token: "a\\nb", where: last_line}\n', "r"
        )


# --- every runner's files and sections, from runners.py, through git -------------


def judge_git(repo: RubricRepo, base: str, head: str) -> dict[str, Any]:
    result: dict[str, Any] = repo.check(base, head).report["results"][-1]
    return result


PACKAGE = '{"name": "x", "version": "1.0.0", "scripts": {"test": "jest"}}\n'


@pytest.mark.parametrize(
    ("path", "before", "after", "passed", "fragment"),
    [
        # a section file in a subfolder counts exactly as one at the root
        ("web/package.json", PACKAGE, PACKAGE.replace("1.0.0", "1.0.1"), True, ""),
        (
            "web/package.json",
            PACKAGE,
            PACKAGE.replace('"jest"', '"jest --testPathIgnorePatterns tests"'),
            False,
            "the test runner configuration of web/package.json",
        ),
        ("web/package.json", PACKAGE, "{", False, "is not strict JSON"),
        ("src/pkg/__init__.py", "X = 1\n", "X = 2\n", True, ""),
        (
            "src/pkg/__init__.py",
            "X = 1\n",
            "def load_tests(loader, tests, pattern):\n    return tests\n",
            False,
            "src/pkg/__init__.py (a load_tests hook (the whole file)) was added",
        ),
        # a new go.mod starts a module of its own: where no test is below
        # it at base it governs new tests only (gate/drift/growth.py); over
        # existing tests it is drift
        ("sub/go.mod", None, "module x\n", True, ""),
        ("tests/go.mod", None, "module x\n", False, "tests/go.mod (its presence"),
        ("sub/Cargo.toml", '[package]\nname = "x"\n', '[package]\nname = "y"\n', True, ""),
        (
            "sub/Cargo.toml",
            '[package]\nname = "x"\n',
            '[package]\nname = "x"\nautotests = false\n',
            False,
            "sub/Cargo.toml",
        ),
        # a whole file of a runner, changed: drift naming the runner
        (
            "babel.config.js",
            "module.exports = {};\n",
            "module.exports = {x: 1};\n",
            False,
            "babel.config.js (jest) modified",
        ),
        ("web/.mocharc.yml", None, "spec: none\n", False, "web/.mocharc.yml (mocha)"),
        ("web/.mocharc.yml", "spec: t\n", None, False, "web/.mocharc.yml (mocha) deleted"),
    ],
)
def test_every_runner_file_and_section_reaches_the_rule_from_git(
    rubric_repo: RubricRepo,
    path: str,
    before: str | None,
    after: str | None,
    passed: bool,
    fragment: str,
) -> None:
    files = {".github/blast-radius.yml": RUBRIC, "tests/test_a.py": "def test_a():\n    pass\n"}
    # web/ holds a test at base: a package without tests governs new tests
    # only (tests/drift/test_growth.py)
    files["web/a.test.js"] = "test('a', () => {});\n"
    if before is not None:
        files[path] = before
    rubric_repo.write_many(files)
    base = rubric_repo.commit("base")
    if after is None:
        rubric_repo.remove(path)
    else:
        rubric_repo.write(path, after)
    head = rubric_repo.commit("edit " + path)
    result = judge_git(rubric_repo, base, head)
    assert result["pass"] is passed, result["message"]
    if not passed:
        assert fragment in result["message"]
        assert result["paths"] == [path]


def test_a_renamed_section_file_is_the_old_removed_and_the_new_added(
    rubric_repo: RubricRepo,
) -> None:
    """`section_change(old, base, None)` and `section_change(new, None, head)`."""
    rubric_repo.write_many({".github/blast-radius.yml": RUBRIC, "pyproject.toml": BENT})
    base = rubric_repo.commit("base")
    (rubric_repo.root / "sub").mkdir()
    rubric_repo.git("mv", "pyproject.toml", "sub/pyproject.toml")
    head = rubric_repo.commit("move it")
    result = judge_git(rubric_repo, base, head)
    assert result["pass"] is False
    assert "the test runner configuration of pyproject.toml" in result["message"]
    assert f"{PYPROJECT_WHAT} was removed" in result["message"]
    assert f"sub/pyproject.toml {PYPROJECT_WHAT} was added" in result["message"]
    assert result["paths"] == ["pyproject.toml", "sub/pyproject.toml"]
    # a rename that carries no runner section is no drift
    rubric_repo.write("sub/pyproject.toml", PYPROJECT)
    base = rubric_repo.commit("plain")
    rubric_repo.git("mv", "sub/pyproject.toml", "pyproject.toml")
    head = rubric_repo.commit("move back")
    assert judge_git(rubric_repo, base, head)["pass"] is True


def test_api_mode_counts_section_files_toward_its_cap_and_fails_past_it() -> None:
    """Past the contents-API cap a runner section file is unread: drift."""
    from gate.changes.api import GLOB_READS

    rubric = load_rubric_bytes(RUBRIC.encode(), "r.yml")
    tests = [f"tests/test_{i:03}.py" for i in range(GLOB_READS)]
    found = listing(
        [PullFile(p, "modified", 1, 0, 1, None, True) for p in (*tests, "web/package.json")],
        expected=GLOB_READS + 1,
    )
    body = "def test_a():\n    pass\n"

    def read(ref: str, path: str) -> bytes | None:
        if path == "web/package.json":
            return PACKAGE.encode()
        return (body if ref == "fork" else body + "\n\ndef test_b():\n    pass\n").encode()

    changes = changes_from_api(
        found,
        base="base",
        head="head",
        content_files=text_wants(rubric.rules),
        read_file=read,
        merge_base="fork",
    )
    result = test_drift.check(rubric.rules[0], changes)
    assert result.passed is False
    assert result.paths == ("web/package.json",)
    assert f"reads at most {GLOB_READS} test and test runner configuration files" in (
        result.message
    )
    assert "cannot tell whether its test runner configuration" in result.message
