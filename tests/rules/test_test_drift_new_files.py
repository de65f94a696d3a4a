"""test_drift on NEW test files: cases and support code are welcome, code
that runs at collection or changes what other tests see is drift (SPEC:
"code added to a test file, new or existing, that runs at collection other
than defining tests").  Generated modules (hypothesis), every source that
reads texts, and real pytest runs where a new file turns another file's red
test green."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.changes.api import changes_from_api, listing
from gate.changes.example import changes_from_example
from gate.drift import COLLECTION
from gate.drift.collected import PYTEST_CONFIGS
from gate.drift.growth import ROOT_CONFIGS
from gate.drift.python.units import reaches, units
from gate.github.client_types import PullFile
from gate.model.change import ADDED, COPIED, TEXT_LIMIT, ChangeSet, FileChange, FileTexts
from gate.model.rubric import DEFAULT_TESTS, Rule
from gate.rubric.load import load_rubric_bytes
from gate.rules import test_drift, text_wants
from tests.drift.test_units import COLLECTION_CODE, NEW_CASE, RED, module, run_pytest, text
from tests.gitrepo import RubricRepo
from tests.rulecase import Builder, Files, RuleCase, edit

PROPS = settings(max_examples=120, deadline=None)
# The property tests judge through the example builder (no git per example;
# tests/test_rulecase.py holds it to the git builder's verdicts), the others
# commit the change.
RUBRIC = "rules:\n  - {id: TESTS, kind: test_drift}\n"


DRIFT = RuleCase("test_drift", id="T", paths=list(DEFAULT_TESTS))


def new_file(path: str, head: str, allow_added: bool = True, source: Builder = "git") -> Any:
    """The verdict on a change that adds `path` with `head` (committed, by default)."""
    return DRIFT.check(edit(path, None, head), allow_added=allow_added, source=source)


@pytest.mark.parametrize(
    ("path", "head", "named"),
    [
        (
            "tests/test_zz.py",
            "import clamp_kit\nclamp_kit.clamp = lambda x, lo, hi: x\n",
            "statement at line 2 (`clamp_kit.clamp = lambda x, lo, hi: x`)",
        ),
        (
            "tests/test_zz.py",
            "import sys\nimport types\nsys.modules['clamp_kit'] = types.SimpleNamespace()\n",
            "statement at line 3",
        ),
        (
            "tests/test_zz.py",
            "def pytest_collection_modifyitems(items):\n    items.clear()\n",
            "pytest_collection_modifyitems at line 1",
        ),
        (
            "tests/test_zz.py",
            "def test_leaks():\n    import clamp_kit\n    clamp_kit.LIMIT = 2\n",
            "test_leaks at line 1",
        ),
        ("web/zz.test.js", 'jest.mock("./clamp");\ntest("x", () => {});\n', "jest.mock"),
        # a directive acts on the file's own code, but the call after it on everything
        ("test/zz.js", "'use strict'\nglobalThis.fetch = null\n", "globalThis.fetch = at line 2"),
        ("test/zz.mjs", "'use strict';\n`${install()}`;\n", "template_string at line 2"),
        (
            "pkg/zz_test.go",
            'package pkg\n\nimport "testing"\n\nfunc TestMain(m *testing.M) {}\n',
            "TestMain at line 5",
        ),
        ("pkg/zz_test.go", "package pkg\n\nfunc init() {}\n", "init at line 3"),
        (
            "spec/zz_spec.rb",
            "RSpec.configure { |c| c.filter_run_excluding :all }\n",
            "RSpec.configure at line 1",
        ),
        # a helper module at a test path runs at collection when a test imports it
        ("tests/helpers.py", "import clamp_kit\nclamp_kit.LIMIT = 2\n", "statement at line 2"),
    ],
)
def test_collection_time_code_in_a_new_test_file_is_drift(path: str, head: str, named: str) -> None:
    # a Go package with a test at base: its init or TestMain reaches that test
    # (tests/drift/go/test_go_packages.py has the package without one)
    neighbour = {"pkg/a_test.go": "package pkg\n"}
    result = DRIFT.check(edit(path, None, head) | Files(base=neighbour, head=neighbour))
    assert result.passed is False
    assert f"{path} (new): " in result.message
    assert named in result.message
    assert "runs at collection or changes what other tests see" in result.message
    assert result.paths == (path,)
    source = {"tests/test_a.py": head, **neighbour}
    copy = DRIFT.change(Files(base=source, head={**source, path: head}))
    assert [f.status for f in copy.files] == [COPIED]
    assert DRIFT.check(copy).passed is False  # a copy is a new file too


@pytest.mark.parametrize(
    ("path", "head"),
    [
        (
            "tests/test_zz.py",
            "import pytest\n\nfrom clamp_kit import clamp\n\n\n@pytest.fixture\ndef lim():\n"
            "    return 1\n\n\ndef helper(x):\n    return x\n\n\n"
            "def test_a(lim):\n    assert clamp(1, 0, lim) == 1\n\n\n"
            "class TestB:\n    def setup_method(self):\n        self.v = 1\n\n"
            "    def test_b(self):\n        assert self.v\n",
        ),
        # collection-time code that acts on the new module's own tests only
        (
            "tests/test_zz.py",
            "from __future__ import annotations\n\nimport pytest\n\n"
            "pytestmark = pytest.mark.slow\n\n\n@pytest.fixture(autouse=True)\n"
            "def fresh():\n    yield\n\n\nHERE = str(1)\n\n\n"
            "class Clock:\n    now = float(0)\n\n\ndef test_a():\n    assert Clock.now == 0\n",
        ),
        ("web/zz.test.js", 'const { clamp } = require("./clamp");\ntest("x", () => {});\n'),
        # a directive (a string literal alone) sets how the new file's own code runs
        ("test/zz.js", "'use strict'\nconst test = require('node:test');\ntest('x', () => {});\n"),
        ("test/zz.ts", '"use client";\nimport test from "ava";\ntest("x", (t) => t.pass());\n'),
        ("pkg/zz_test.go", 'package pkg\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n'),
        ("spec/zz.spec.lua", 'describe("x", function() end)\n'),  # no parser
        (
            "spec/zz_spec.rb",
            'require "spec_helper"\n\nRSpec.describe Clamp do\n  before { @x = 1 }\n'
            '  it "clamps" do\n  end\nend\n',
        ),
        ("tests/helpers.py", "import clamp_kit\n\n\ndef bent():\n    return clamp_kit\n"),
        ("tests/data/input.txt", "def (:\n"),  # no parser
        ("pkg/testdata/broken.go", "package {\n"),  # a data folder
    ],
)
def test_a_new_test_file_of_cases_and_support_is_welcome(path: str, head: str) -> None:
    result = new_file(path, head)
    assert result.passed is True, result.message


def test_the_pass_message_counts_the_new_tests() -> None:
    result = new_file("tests/test_zz.py", "def test_a():\n    pass\n\n\ndef test_b():\n    pass\n")
    assert result.passed
    assert "2 new tests in new test files" in result.message


@pytest.mark.parametrize(
    ("path", "head", "fragment"),
    [
        ("tests/test_zz.py", "def (:\n", "the head version does not parse as Python"),
        ("web/zz.test.ts", "test(('x', () => {});\n", "the head version"),
        ("pkg/zz_test.go", "package pkg\nfunc {\n", "the head version"),
    ],
)
def test_a_new_test_module_that_has_a_parser_but_does_not_parse_is_drift(
    path: str, head: str, fragment: str
) -> None:
    result = new_file(path, head)
    assert result.passed is False
    assert fragment in result.message
    assert "a new test module could run anything" in result.message


def test_a_new_test_module_without_text_fails_except_in_a_count_only_example() -> None:
    change = FileChange("tests/test_zz.py", ADDED, added=3, deleted=0, new_mode="100644")
    rule = Rule("T", "test_drift", {"allow_added": True, "paths": DEFAULT_TESTS})
    for source in ("git", "patch", "api"):
        result = test_drift.check(rule, ChangeSet(files=(change,), source=source))
        assert result.passed is False, source
        assert "text is unavailable from this source" in result.message
    withheld = {"tests/test_zz.py": FileTexts(None, None, withheld="too large")}
    result = test_drift.check(rule, ChangeSet(files=(change,), texts=withheld))
    assert result.passed is False
    assert "cannot be read (too large)" in result.message
    # a rubric example given by counts says nothing about content
    by_counts = changes_from_example([{"path": "tests/test_zz.py", "status": "added", "added": 3}])
    assert test_drift.check(rule, by_counts).passed
    with_text = changes_from_example(
        [{"path": "tests/test_zz.py", "status": "added", "after": "import m\nm.x = 1\n"}]
    )
    assert not test_drift.check(rule, with_text).passed


def test_a_new_symlinked_test_module_is_drift() -> None:
    change = FileChange("tests/test_zz.py", ADDED, added=1, deleted=0, new_mode="120000")
    rule = Rule("T", "test_drift", {"allow_added": True, "paths": DEFAULT_TESTS})
    texts = {"tests/test_zz.py": FileTexts(None, "../src/evil.py")}
    result = test_drift.check(rule, ChangeSet(files=(change,), texts=texts))
    assert result.passed is False
    assert "a symlink" in result.message


def test_allow_added_false_still_names_the_new_file() -> None:
    result = new_file("tests/test_zz.py", "def test_a():\n    pass\n", allow_added=False)
    assert result.passed is False
    assert "1 new test file added and allow_added is false" in result.message


# --- generated modules ---------------------------------------------------------


@PROPS
@given(module(), st.lists(NEW_CASE, max_size=3))
def test_a_generated_new_module_of_cases_and_helpers_passes(
    pieces: list[tuple[str, str]], new: list[str]
) -> None:
    head = text(pieces) + "".join("\n\n" + code.format(n=n) for n, code in enumerate(new))
    result = new_file("tests/test_gen.py", head, source="example")
    assert result.passed is True, result.message


_OWN_ONLY = (
    "pytestmark = pytest.mark.skip\n",
    "@pytest.fixture(autouse=True)\ndef everywhere():\n    yield\n",
    "with open(__file__):\n    pass\n",
)


# Collection-time code that reaches the tests of other files (`reaches`): the
# forms of COLLECTION_CODE that act beyond the module, and calls made for
# their effect.  The others (`pytestmark`, an autouse fixture, a loop or a
# `with` that changes nothing shared) act on the new module's own tests.
REACHING_CODE = st.sampled_from(
    [
        "import clamp_kit\nclamp_kit.LIMIT = 99\n",
        "import sys\nsys.modules['clamp_kit'] = None\n",
        "import os\nos.environ['MODE'] = 'lenient'\n",
        "def pytest_collection_modifyitems(items):\n    del items[:]\n",
        "def test_patches():\n    import clamp_kit\n    clamp_kit.clamp = max\n",
        "setattr(pytest, 'approx', None)\n",
        "import clamp_kit\nclamp_kit.configure(strict=False)\n",
        "if True:\n    import clamp_kit\n    clamp_kit.reset()\n",
        "pytest_plugins = ['evil']\n",
        "class Setup:\n    import clamp_kit\n    clamp_kit.install()\n",
    ]
)


@PROPS
@given(module(), COLLECTION_CODE.filter(lambda c: c not in _OWN_ONLY))
def test_collection_code_of_existing_files_still_reaches_from_a_new_one(
    pieces: list[tuple[str, str]], added: str
) -> None:
    """Every form the existing-file tests call collection-time code, except
    those that act on the module's own tests only, fails a new file too."""
    assert (
        new_file("tests/test_gen.py", text(pieces) + "\n\n" + added, source="example").passed
        is False
    )


@PROPS
@given(module(), st.sampled_from(_OWN_ONLY))
def test_collection_code_that_acts_on_its_own_module_only_is_welcome_in_a_new_one(
    pieces: list[tuple[str, str]], added: str
) -> None:
    assert (
        new_file("tests/test_gen.py", text(pieces) + "\n\n" + added, source="example").passed
        is True
    )


@PROPS
@given(module(), REACHING_CODE, st.data())
def test_collection_code_inserted_anywhere_in_a_new_module_fails_naming_its_line(
    pieces: list[tuple[str, str]], added: str, data: st.DataObject
) -> None:
    at = data.draw(st.integers(min_value=0, max_value=len(pieces)))
    before = text(pieces[:at])
    head = (before + "\n\n" if before else "") + added + "\n\n" + text(pieces[at:])
    start = head.index(added)
    offset = next(u.line for u in units(added) if u.role == COLLECTION and reaches(u)) - 1
    line = head[:start].count("\n") + 1 + offset
    result = new_file("tests/test_gen.py", head, source="example")
    assert result.passed is False
    assert "tests/test_gen.py (new): " in result.message
    assert f"at line {line}" in result.message, (line, result.message)


# --- every source reads a new test file's head text -----------------------------

BEND = "import clamp_kit\n\nclamp_kit.LIMIT = 2\n"


@pytest.mark.parametrize(
    "bend",
    [
        BEND,
        "import sys\nimport types\n\nsys.modules['clamp_kit'] = types.SimpleNamespace(LIMIT=2)\n",
    ],
)
def test_a_new_file_that_turns_another_files_red_test_green_fails_the_gate(
    rubric_repo: RubricRepo, bend: str
) -> None:
    """`tests/test_a.py` is red; a new `tests/test_0.py` (collected first)
    patches the module at import and the red test passes under real pytest:
    the gate fails the new file, in git mode and in patch mode."""
    rubric_repo.write_many(
        {
            ".github/blast-radius.yml": RUBRIC,
            "clamp_kit.py": "LIMIT = 1\n",
            "tests/test_a.py": RED,
        }
    )
    base = rubric_repo.commit("base")
    assert "1 failed" in run_pytest(rubric_repo.root)
    rubric_repo.write("tests/test_0.py", bend + "\n\ndef test_new():\n    assert True\n")
    head = rubric_repo.commit("a new test file")
    assert "2 passed" in run_pytest(rubric_repo.root)
    checked = rubric_repo.check(base, head)
    assert checked.code == 1
    result = checked.report["results"][-1]
    assert result["pass"] is False
    assert "tests/test_0.py (new): statement at line" in result["message"]
    assert result["paths"] == ["tests/test_0.py"]
    patch = rubric_repo.git("diff", "--binary", base, head)
    (rubric_repo.root.parent / "p.diff").write_text(patch, encoding="utf-8")
    checked = rubric_repo.check(base, args=["--patch", str(rubric_repo.root.parent / "p.diff")])
    assert checked.code == 1
    result = checked.report["results"][-1]
    assert "tests/test_0.py (new): statement at line" in result["message"]


def test_api_mode_reads_a_new_test_file_at_head_only() -> None:
    rubric = load_rubric_bytes(RUBRIC.encode(), "r.yml")
    found = listing([PullFile("tests/test_0.py", "added", 3, 0, 3, None, True)], expected=1)
    requests: list[tuple[str, str]] = []

    def read(ref: str, path: str) -> bytes | None:
        requests.append((ref, path))
        return BEND.encode() if ref == "head" else None

    changes = changes_from_api(
        found,
        base="base",
        head="head",
        content_files=text_wants(rubric.rules),
        read_file=read,
        merge_base="fork",
    )
    # absent at base: not asked for; the root's pytest, Jest and Vitest
    # configuration (what it collects) is read once, untouched
    roots = (*PYTEST_CONFIGS, *ROOT_CONFIGS)
    configs = [(ref, path) for ref, path in requests if path in roots]
    assert sorted(configs) == [("head", path) for path in sorted(roots)]
    assert [r for r in requests if r not in configs] == [("head", "tests/test_0.py")]
    result = test_drift.check(rubric.rules[0], changes)
    assert result.passed is False
    assert "tests/test_0.py (new): statement at line 3" in result.message


def test_a_new_test_module_too_large_to_read_fails(rubric_repo: RubricRepo) -> None:
    rubric_repo.write_many({".github/blast-radius.yml": RUBRIC, "clamp_kit.py": "LIMIT = 1\n"})
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/test_big.py", "X = 1\n" * (TEXT_LIMIT // 6 + 1))
    head = rubric_repo.commit("big")
    checked = rubric_repo.check(base, head)
    assert checked.code == 1
    result = checked.report["results"][-1]
    assert "tests/test_big.py (new) cannot be read" in result["message"]


def test_a_new_helper_that_bends_at_import_fails_the_gate(rubric_repo: RubricRepo) -> None:
    """A new test imports a new helper (an import is support code), whose
    module code patches the module at collection: the red test in another
    file turns green under real pytest, and the gate fails the helper."""
    rubric_repo.write_many(
        {
            ".github/blast-radius.yml": RUBRIC,
            "clamp_kit.py": "LIMIT = 1\n",
            "tests/test_a.py": RED,
        }
    )
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/helpers.py", BEND)
    rubric_repo.write(
        "tests/test_0.py", "import helpers\n\n\ndef test_new():\n    assert helpers\n"
    )
    head = rubric_repo.commit("a new test and its helper")
    assert "2 passed" in run_pytest(rubric_repo.root)
    checked = rubric_repo.check(base, head)
    assert checked.code == 1
    result = checked.report["results"][-1]
    assert "tests/helpers.py (new): statement at line 3" in result["message"]
    assert result["paths"] == ["tests/helpers.py"]


# --- a new module at a test path named like a standard-library module ------------


@pytest.mark.parametrize(
    "path", ["tests/colorsys.py", "tests/json.py", "tests/decimal/__init__.py", "test/random.py"]
)
def test_a_new_module_named_like_the_standard_library_is_drift(path: str) -> None:
    result = new_file(path, "X = 1\n")
    assert result.passed is False
    assert f"{path} (new) is named like the standard library's" in result.message
    assert result.paths == (path,)
    assert new_file("tests/helpers.py", "X = 1\n").passed
    assert new_file("tests/sys.py", "X = 1\n").passed  # built in: no path entry replaces it
    assert new_file("src/" + path.split("/", 1)[1], "X = 1\n").passed  # not a test path


def test_a_new_stdlib_named_module_in_a_rootless_test_folder_turns_a_red_test_green(
    rubric_repo: RubricRepo,
) -> None:
    red = "def test_c():\n    import colorsys\n\n    assert colorsys.X == 1\n"
    rubric_repo.write_many({".github/blast-radius.yml": RUBRIC, "tests/test_a.py": red})
    base = rubric_repo.commit("base")
    assert "1 failed" in run_pytest(rubric_repo.root)
    rubric_repo.write("tests/colorsys.py", "X = 1\n")
    head = rubric_repo.commit("a helper")
    assert "1 passed" in run_pytest(rubric_repo.root)
    checked = rubric_repo.check(base, head)
    assert checked.code == 1
    result = checked.report["results"][-1]
    assert (
        "tests/colorsys.py (new) is named like the standard library's colorsys"
        in (result["message"])
    )


AVA_FILE = "import test from 'ava';\nprocess.env.MODE = 'x';\ntest('new', (t) => { t.pass(); });\n"
OLD_AVA = "import test from 'ava';\n\ntest('old', (t) => { t.pass(); });\n"


def test_a_new_ava_file_is_welcome_unless_another_file_of_the_change_loads_it() -> None:
    """AVA runs the new file in a worker of its own: its load-time code
    reaches no other file's tests, unless an existing test file of the
    change imports it and so runs it in its own worker (committed: the
    rule reads the other file's head through git)."""
    alone = Files(
        base={"test/old.ts": OLD_AVA}, head={"test/old.ts": OLD_AVA, "test/new.ts": AVA_FILE}
    )
    assert DRIFT.check(alone, allow_added=True).passed
    # a named import is support code; the module it loads runs its code here
    loaded = OLD_AVA.replace("\n\n", "\nimport { helper } from './new.js';\n\n", 1)
    both = Files(
        base={"test/old.ts": OLD_AVA}, head={"test/old.ts": loaded, "test/new.ts": AVA_FILE}
    )
    result = DRIFT.check(both, allow_added=True)
    assert not result.passed
    # the import alone is welcome support code: the new file's code is what fails
    assert result.message.startswith("test/new.ts (new): process.env.MODE = at line 2")


def test_a_new_ava_file_is_not_isolated_when_another_test_file_has_no_text() -> None:
    """A modified test file whose text this source withholds may import the
    new file: its load-time code is judged as Mocha's would be."""
    rule = Rule("T", "test_drift", {"allow_added": True, "paths": DEFAULT_TESTS})
    new = FileChange("test/new.ts", ADDED, added=3, deleted=0, new_mode="100644")
    old = FileChange("test/old.ts", "modified", added=1, deleted=0)
    texts = {"test/new.ts": FileTexts(None, AVA_FILE)}
    known = {**texts, "test/old.ts": FileTexts(OLD_AVA, OLD_AVA + "\n")}
    assert test_drift.check(rule, ChangeSet(files=(new, old), texts=known)).passed
    withheld = {**texts, "test/old.ts": FileTexts(None, None, withheld="too large")}
    result = test_drift.check(rule, ChangeSet(files=(new, old), texts=withheld))
    assert "test/new.ts (new): process.env.MODE = at line 2" in result.message
    result = test_drift.check(rule, ChangeSet(files=(new, old), texts=texts, source="api"))
    assert "test/new.ts (new): process.env.MODE = at line 2" in result.message
