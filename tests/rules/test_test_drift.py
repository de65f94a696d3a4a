"""test_drift: tests that exist at base stay as they are."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.changes.api import GLOB_READS, changes_from_api, listing
from gate.changes.example import changes_from_example
from gate.drift import collected, growth
from gate.github.client_types import PullFile
from gate.model.change import (
    ADDED,
    COPIED,
    DELETED,
    RENAMED,
    TEXT_LIMIT,
    TYPE_CHANGED,
    ChangeSet,
    FileChange,
    FileTexts,
    from_paths,
)
from gate.model.rubric import DEFAULT_TESTS, Rule
from gate.rubric.load import load_rubric_bytes
from gate.rules import REGISTRY, test_drift, text_wants
from tests.drift.test_units import LAYOUT, MUTATIONS, NEW_CASE, module, mutate, text
from tests.gitrepo import GitRepo, RubricRepo
from tests.rulecase import table

TESTS = list(DEFAULT_TESTS)


def one(f: FileChange) -> ChangeSet:
    return ChangeSet(files=(f,))


def new(f: FileChange, head: str = "def test_new():\n    pass\n") -> ChangeSet:
    """A new test file with its head text (a new test module is read too)."""
    return ChangeSet(files=(f,), texts={f.path: FileTexts(None, head)})


CASES = [
    # (label, changes, params, passed, message, paths)
    ("no change", ChangeSet(), {}, True, "no test that exists at base was changed", []),
    (
        "source file only",
        one(FileChange("clamp_kit.py", added=1, deleted=1)),
        {},
        True,
        "no test",
        [],
    ),
    (
        "modified test",
        one(FileChange("test_clamp.py", added=0, deleted=2)),
        {},
        False,
        "1 test file that exists at base changed (1 modified)",
        ["test_clamp.py"],
    ),
    (
        "deleted test directory file",
        one(FileChange("tests/unit/x.txt", status=DELETED)),
        {},
        False,
        "(1 deleted)",
        ["tests/unit/x.txt"],
    ),
    (
        "renamed test, both sides listed",
        one(FileChange("tests/b.py", old_path="tests/a.py", status=RENAMED)),
        {},
        False,
        "(1 renamed)",
        ["tests/a.py", "tests/b.py"],
    ),
    (
        "renamed away from the test tree",
        one(FileChange("src/helper.py", old_path="tests/helper.py", status=RENAMED)),
        {},
        False,
        "(1 renamed)",
        ["src/helper.py", "tests/helper.py"],
    ),
    (
        "renamed onto a test path",
        one(FileChange("tests/helper.py", old_path="src/helper.py", status=RENAMED)),
        {},
        False,
        "(1 renamed)",
        ["src/helper.py", "tests/helper.py"],
    ),
    (
        "mode change only",
        one(FileChange("tests/run.sh", old_mode="100644", new_mode="100755")),
        {},
        False,
        "(1 mode-changed)",
        ["tests/run.sh"],
    ),
    (
        "type change",
        one(FileChange("tests/link", status=TYPE_CHANGED, old_mode="100644", new_mode="120000")),
        {},
        False,
        "(1 type-changed)",
        ["tests/link"],
    ),
    (
        "new test allowed by default",
        new(FileChange("tests/test_new.py", status=ADDED, added=5)),
        {},
        True,
        "no test",
        [],
    ),
    (
        "new test refused",
        one(FileChange("tests/test_new.py", status=ADDED, added=5)),
        {"allow_added": False},
        False,
        "1 new test file added and allow_added is false",
        ["tests/test_new.py"],
    ),
    (
        "copy into the tests is a new test",
        one(FileChange("tests/test_b.py", old_path="tests/test_a.py", status=COPIED)),
        {"allow_added": False},
        False,
        "1 new test file added",
        ["tests/test_b.py"],
    ),
    (
        "copy allowed by default",
        new(FileChange("tests/test_b.py", old_path="tests/test_a.py", status=COPIED)),
        {},
        True,
        "no test",
        [],
    ),
    (
        "unknown status from result.json",
        ChangeSet(files=from_paths(["tests/test_a.py", "src/a.py"]), source="writer"),
        {},
        False,
        "1 test path with unknown status (the source, writer, does not say",
        ["tests/test_a.py"],
    ),
    (
        "unknown status outside the tests passes",
        ChangeSet(files=from_paths(["src/a.py"]), source="writer"),
        {},
        True,
        "no test",
        [],
    ),
    (
        "custom paths replace the defaults",
        ChangeSet(files=(FileChange("tests/a.py"), FileChange("qa/check.py"))),
        {"paths": ["qa/"]},
        False,
        "(1 modified)",
        ["qa/check.py"],
    ),
    (
        "mixed breakdown in a fixed order",
        ChangeSet(
            files=(
                FileChange("tests/z.py", status=DELETED),
                FileChange("tests/a.py"),
                FileChange("tests/new.py", status=ADDED),
                FileChange("a_test.go"),
            )
        ),
        {"allow_added": False},
        False,
        "3 test files that exist at base changed (2 modified, 1 deleted)",
        ["a_test.go", "tests/a.py", "tests/new.py", "tests/z.py"],
    ),
    (
        "default globs: conftest at depth",
        one(FileChange("pkg/conftest.py")),
        {},
        False,
        "1 test runner configuration file that exists at base changed "
        "(pkg/conftest.py (pytest) modified)",
        ["pkg/conftest.py"],
    ),
    (
        "default globs: js spec",
        one(FileChange("web/app.spec.ts")),
        {},
        False,
        "1 modified",
        ["web/app.spec.ts"],
    ),
    (
        "default globs: __tests__ dir",
        one(FileChange("web/__tests__/x.js")),
        {},
        False,
        "1 modified",
        ["web/__tests__/x.js"],
    ),
    ("default globs: not a test", one(FileChange("src/contest.py")), {}, True, "no test", []),
    (
        "default globs: unittest discovers test*.py",
        one(FileChange("src/testing.py")),
        {},
        False,
        "1 modified",
        ["src/testing.py"],
    ),
    (
        "default globs: Django's app/tests.py",
        one(FileChange("shop/tests.py")),
        {},
        False,
        "1 modified",
        ["shop/tests.py"],
    ),
]


@table(("changes", "params", "passed", "message", "paths"), CASES)
def test_test_drift(
    changes: ChangeSet, params: dict[str, Any], passed: bool, message: str, paths: list[str]
) -> None:
    full = {"allow_added": True, "paths": TESTS, **params}
    result = test_drift.check(Rule(id="TESTS", kind="test_drift", params=full), changes)
    assert result.passed is passed
    assert message in result.message
    assert list(result.paths) == paths


def test_defaults_apply_when_params_are_absent() -> None:
    changes = one(FileChange("tests/test_a.py"))
    result = REGISTRY["test_drift"].judge(Rule(id="T", kind="test_drift"), changes)
    assert not result.passed
    assert result.paths == ("tests/test_a.py",)


# --- modified test files are judged case by case, from every source -----------

RUBRIC = "rules:\n  - {id: TESTS, kind: test_drift}\n"
CLAMP = "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n"
TEST_CLAMP = (
    "from clamp_kit import clamp\n\n\n"
    "def test_low_edge():\n    assert clamp(-1, 0, 10) == 0\n\n\n"
    "def test_high_edge():\n    assert clamp(11, 0, 10) == 10\n"
)
APPENDED = TEST_CLAMP + (
    "\n\ndef test_inside():\n    assert clamp(5, 0, 10) == 5\n"
    "\n\ndef test_inside_low():\n    assert clamp(1, 0, 10) == 1\n"
)
EDITED = APPENDED.replace("clamp(11, 0, 10) == 10", "clamp(11, 0, 10) >= 0")
EDITED_MESSAGE = "tests/test_clamp.py: test_high_edge changed; 2 new tests added"


def clamp_repo(
    repo: GitRepo, head_text: str, extra: dict[str, str] | None = None
) -> tuple[str, str]:
    repo.write_many(
        {
            ".github/blast-radius.yml": RUBRIC,
            "clamp_kit.py": CLAMP,
            "tests/test_clamp.py": TEST_CLAMP,
        }
    )
    base = repo.commit("base")
    repo.write_many({"tests/test_clamp.py": head_text, **(extra or {})})
    return base, repo.commit("head")


@pytest.mark.parametrize(
    ("head_text", "code", "message"),
    [
        (APPENDED, 0, "no test that exists at base was changed; 2 new tests added to existing"),
        (EDITED, 1, EDITED_MESSAGE),
        (
            TEST_CLAMP.replace("def test_low_edge():\n    assert clamp(-1, 0, 10) == 0\n\n\n", ""),
            1,
            "test_low_edge removed",
        ),
        (
            APPENDED + "\nimport clamp_kit\nclamp_kit.clamp = max\n",
            1,
            "runs at collection or changes what other tests see",
        ),
        (
            TEST_CLAMP + "\ndef broken(:\n",
            1,
            "tests/test_clamp.py judged as a whole file: the head version does not parse "
            "as Python at line 11",
        ),
    ],
)
def test_git_and_patch_mode_judge_cases(
    rubric_repo: RubricRepo, head_text: str, code: int, message: str
) -> None:
    base, head = clamp_repo(rubric_repo, head_text)
    git_code, git_result = rubric_repo.check(base, head).verdict()
    patch = rubric_repo.root.parent / "writer.patch"
    patch.write_bytes(rubric_repo.git_bytes("diff", "--binary", base, head))
    patch_code, patch_result = rubric_repo.check(base, args=["--patch", str(patch)]).verdict()
    for got, result in ((git_code, git_result), (patch_code, patch_result)):
        assert got == code, result
        assert message in result["message"]
        assert result["paths"] == ([] if code == 0 else ["tests/test_clamp.py"])


def test_a_mode_change_with_new_cases_is_still_drift(rubric_repo: RubricRepo) -> None:
    base, _ = clamp_repo(rubric_repo, TEST_CLAMP)
    rubric_repo.write("tests/test_clamp.py", APPENDED, mode=0o755)
    head = rubric_repo.commit("appended, and executable")
    code, result = rubric_repo.check(base, head).verdict()
    assert code == 1
    assert "(1 mode-changed)" in result["message"]


def test_a_modified_test_file_with_the_same_text_changed_its_mode() -> None:
    """The PR files API gives no modes: a test file listed as `modified` with
    the same text on both sides changed only its mode, and that is drift."""
    rubric = load_rubric_bytes(RUBRIC.encode(), "r.yml")
    found = listing([PullFile("tests/test_clamp.py", "modified", 0, 0, 0, None, False)], 1)
    changes = changes_from_api(
        found,
        base="base",
        head="head",
        content_files=text_wants(rubric.rules),
        read_file=lambda ref, path: TEST_CLAMP.encode() if path.startswith("tests/") else None,
        merge_base="fork",
    )
    result = test_drift.check(rubric.rules[0], changes)
    assert not result.passed
    assert "(1 mode-changed)" in result.message


def test_a_file_without_a_parser_or_too_large_is_judged_whole(rubric_repo: RubricRepo) -> None:
    rubric_repo.write_many(
        {
            ".github/blast-radius.yml": RUBRIC,
            "spec/clamp.spec.lua": "it('a', function() end)\n",
            "tests/test_big.py": "X = 1\n",
        }
    )
    base = rubric_repo.commit("base")
    big = "def test_x():\n    assert True\n" + "# padding\n" * (TEXT_LIMIT // 10 + 1)
    rubric_repo.write_many(
        {
            "spec/clamp.spec.lua": "it('a', function() end)\nit('b', function() end)\n",
            "tests/test_big.py": "X = 1\n" + big,
        }
    )
    head = rubric_repo.commit("head")
    code, result = rubric_repo.check(base, head).verdict()
    assert code == 1
    assert "spec/clamp.spec.lua judged as a whole file: no parser for .lua" in result["message"]
    assert "tests/test_big.py judged as a whole file: its head version is" in result["message"]
    assert result["paths"] == ["spec/clamp.spec.lua", "tests/test_big.py"]


AVA_BASE = """\
import test from 'ava';
import {clamp} from '../source/clamp.js';

test('low edge', (t) => {
  t.is(clamp(-1, 0, 10), 0);
});
"""
AVA_APPENDED = AVA_BASE + "\ntest('inside', (t) => {\n  t.is(clamp(5, 0, 10), 5);\n});\n"
AVA_EDITED = AVA_APPENDED.replace("clamp(-1, 0, 10), 0", "clamp(-1, 0, 10) <= 0, true")

# The forms a runner that collects by folder or by more names (node:test,
# AVA, Mocha) reads as test modules, each with every JavaScript suffix.
JS_FORMS = ("test/{}", "tests/a/{}", "lib/test", "lib/test-{}", "lib/{}-test", "lib/{}_test")


@pytest.mark.parametrize("form", JS_FORMS)
@pytest.mark.parametrize("ext", collected._JS_SUFFIXES)
def test_runner_folders_and_names_make_js_test_modules(form: str, ext: str) -> None:
    path = form.format("clamp") + ext
    assert collected.is_test_module(path)
    # `paths` says where the tests are (here everywhere); the runners' names
    # say which of those files are judged case by case
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": True, "paths": ["**"]})
    added = test_drift.check(
        rule, changes_from_example([{"path": path, "before": AVA_BASE, "after": AVA_APPENDED}])
    )
    assert added.passed, added.message
    edited = test_drift.check(
        rule, changes_from_example([{"path": path, "before": AVA_BASE, "after": AVA_EDITED}])
    )
    assert not edited.passed
    assert f"{path}: low edge changed; 1 new test added" in edited.message


CJS_BASE = """\
'use strict'

const { test } = require('node:test')
const { Pool } = require('..')

test('pool', () => new Pool('http://localhost'))
"""


@pytest.mark.parametrize(
    ("head", "verdict"),
    [
        # one more name taken, one more test: the existing test sees the same Pool
        (
            CJS_BASE.replace("{ Pool }", "{ Agent, Pool }")
            + "\ntest('agent', () => new Agent())\n",
            "1 new test added",
        ),
        (CJS_BASE.replace("require('..')", "require('./fake-pool')"), "Pool changed"),
        (CJS_BASE.replace("{ Pool }", "{ FakePool: Pool }"), "Pool changed"),
    ],
)
def test_names_taken_from_a_require_are_judged_one_by_one(head: str, verdict: str) -> None:
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": True, "paths": TESTS})
    changes = changes_from_example([{"path": "test/pool.js", "before": CJS_BASE, "after": head}])
    result = test_drift.check(rule, changes)
    assert result.passed is (verdict == "1 new test added"), result.message
    assert verdict in result.message


@pytest.mark.parametrize(
    "path",
    [
        "test/helpers/server.js",
        "test/unit/helper/server.ts",
        "tests/fixtures/input.mjs",
        "test/fixture/input.cjs",
        "test/_setup.js",
        "test/_util/server.js",
        "TEST/Helpers/Server.JS",
        "tests/helpers.py",  # pytest collects no folder: only its default names
        "test/data.json",
        "src/clamp.js",
    ],
)
def test_js_helpers_and_fixtures_in_test_folders_are_no_test_modules(path: str) -> None:
    assert not collected.is_test_module(path)
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": True, "paths": ["**"]})
    changes = changes_from_example([{"path": path, "before": AVA_BASE, "after": AVA_APPENDED}])
    result = test_drift.check(rule, changes)
    assert not result.passed
    assert f"{path} judged as a whole file: not a test module" in result.message


@pytest.mark.parametrize(
    "path",
    [
        "tests/fixtures/sample.py",
        "tests/Data/helpers.py",
        "tests/expected/out.py",
        "pkg/testdata/x_test.go",
        "web/__snapshots__/a.test.js",
    ],
)
def test_a_file_that_is_no_test_module_is_judged_whole(path: str) -> None:
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": True, "paths": TESTS})
    changes = changes_from_example([{"path": path, "before": TEST_CLAMP, "after": APPENDED}])
    result = test_drift.check(rule, changes)
    assert not result.passed
    assert f"{path} judged as a whole file: not a test module" in result.message


def test_a_python_helper_module_that_only_grew_passes_and_an_edited_one_fails() -> None:
    """`tests/helpers.py` is no test module, but a Python helper that only
    gained definitions changes no existing test (`gate.drift.python.helpers`)."""
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": True, "paths": TESTS})
    grown = changes_from_example(
        [{"path": "tests/helpers.py", "before": TEST_CLAMP, "after": APPENDED}]
    )
    assert test_drift.check(rule, grown).passed
    edited = changes_from_example(
        [{"path": "tests/helpers.py", "before": TEST_CLAMP, "after": EDITED}]
    )
    result = test_drift.check(rule, edited)
    assert not result.passed
    assert "tests/helpers.py (a helper module): test_high_edge changed" in result.message


def test_examples_with_texts_are_judged_by_cases_and_by_counts_whole() -> None:
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": True, "paths": TESTS})
    appended = changes_from_example(
        [{"path": "tests/test_clamp.py", "before": TEST_CLAMP, "after": APPENDED}]
    )
    assert test_drift.check(rule, appended).passed
    edited = changes_from_example(
        [{"path": "tests/test_clamp.py", "before": TEST_CLAMP, "after": EDITED}]
    )
    assert EDITED_MESSAGE in test_drift.check(rule, edited).message
    by_counts = changes_from_example([{"path": "tests/test_app.py", "added": 1, "deleted": 1}])
    result = test_drift.check(rule, by_counts)
    assert not result.passed
    assert "judged as a whole file: the example gives line counts" in result.message


def api_changes(pairs: dict[str, tuple[str, str]], wants: Any) -> ChangeSet:
    found = listing(
        [PullFile(p, "modified", 2, 1, 3, None, True) for p in sorted(pairs)], expected=len(pairs)
    )
    requests: list[tuple[str, str]] = []

    def read(ref: str, path: str) -> bytes | None:
        requests.append((ref, path))
        if path not in pairs:
            return None
        before, after = pairs[path]
        return (before if ref == "fork" else after).encode()

    changes = changes_from_api(
        found, base="base", head="head", content_files=wants, read_file=read, merge_base="fork"
    )
    # each file read at the fork and at head, up to the cap; of the untouched
    # files, only the root's pytest, Jest and Vitest configuration, once (what it collects)
    untouched = [(ref, path) for ref, path in requests if path not in pairs]
    roots = (*collected.PYTEST_CONFIGS, *growth.ROOT_CONFIGS)
    assert sorted(untouched) == [("head", p) for p in sorted(roots)]
    assert len(requests) - len(untouched) == 2 * min(len(pairs), GLOB_READS)
    return changes


def test_api_mode_reads_modified_tests_up_to_its_cap() -> None:
    rubric = load_rubric_bytes(RUBRIC.encode(), "r.yml")
    rule = rubric.rules[0]
    one_file = api_changes(
        {"tests/test_clamp.py": (TEST_CLAMP, APPENDED)}, text_wants(rubric.rules)
    )
    assert test_drift.check(rule, one_file).passed
    many = {f"tests/test_{i:03}.py": (TEST_CLAMP, APPENDED) for i in range(GLOB_READS + 1)}
    changes = api_changes(many, text_wants(rubric.rules))
    result = test_drift.check(rule, changes)
    assert not result.passed
    assert result.paths == (f"tests/test_{GLOB_READS:03}.py",)
    assert f"judged as a whole file: the Action's API mode reads at most {GLOB_READS}" in (
        result.message
    )


@settings(max_examples=60, deadline=None)
@given(module(), st.lists(NEW_CASE, max_size=3), st.one_of(st.none(), MUTATIONS), st.data())
def test_the_rule_passes_appended_cases_and_fails_any_edit(
    pieces: list[tuple[str, str]], new: list[str], how: str | None, data: st.DataObject
) -> None:
    """Generated test modules through the rule: appended cases pass, and
    with one existing unit edited the rule fails naming the file and it."""
    base = text(pieces)
    edited = pieces
    if how is not None:
        index = data.draw(st.integers(min_value=1, max_value=len(pieces) - 1))
        name, code = pieces[index]
        edited = [*pieces[:index], (name, mutate(code, how)), *pieces[index + 1 :]]
    head = text([p for p in edited if p[1]]) + "".join(
        "\n\n" + code.format(n=n) for n, code in enumerate(new)
    )
    if head == base:
        return
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": True, "paths": TESTS})
    changes = changes_from_example([{"path": "tests/test_gen.py", "before": base, "after": head}])
    result = test_drift.check(rule, changes)
    assert result.passed is (how is None), result.message
    if how is not None:
        assert result.paths == ("tests/test_gen.py",)
        assert f"tests/test_gen.py: {name.split('.')[0]}" in result.message


@settings(max_examples=40, deadline=None)
@given(module(), LAYOUT, st.data())
def test_the_rule_passes_an_edit_of_layout_alone(
    pieces: list[tuple[str, str]], how: str, data: st.DataObject
) -> None:
    """A reformat of an existing test (a comment, a wrapped line) leaves
    its syntax tree as it was: the rule passes, as it does for the base."""
    import ast

    index = data.draw(st.integers(min_value=1, max_value=len(pieces) - 1))
    name, code = pieces[index]
    base = text(pieces)
    head = text([*pieces[:index], (name, mutate(code, how)), *pieces[index + 1 :]])
    try:
        same_tree = ast.dump(ast.parse(base)) == ast.dump(ast.parse(head))
    except SyntaxError:
        return
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": True, "paths": TESTS})
    changes = changes_from_example([{"path": "tests/test_gen.py", "before": base, "after": head}])
    assert test_drift.check(rule, changes).passed is same_tree


def test_symlinks_and_allow_added_false_in_modified_files() -> None:
    texts = {"tests/test_clamp.py": FileTexts(base=TEST_CLAMP, head=APPENDED)}
    link = FileChange(
        "tests/test_clamp.py", added=2, deleted=1, old_mode="120000", new_mode="120000"
    )
    result = drift(ChangeSet(files=(link,), texts=texts))
    assert "tests/test_clamp.py judged as a whole file: a symlink or submodule" in result.message
    plain = FileChange(
        "tests/test_clamp.py", added=8, deleted=0, old_mode="100644", new_mode="100644"
    )
    assert drift(ChangeSet(files=(plain,), texts=texts)).passed
    refused = drift(ChangeSet(files=(plain,), texts=texts), allow_added=False)
    assert not refused.passed
    assert "new test test_inside added and allow_added is false" in refused.message


def drift(changes: ChangeSet, allow_added: bool = True) -> Any:
    rule = Rule(id="TESTS", kind="test_drift", params={"allow_added": allow_added, "paths": TESTS})
    return test_drift.check(rule, changes)
