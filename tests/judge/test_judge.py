"""gate.judge.evaluate: ordering, built-ins, counts, descriptions, deterministic JSON."""

from __future__ import annotations

import json

import pytest

from gate import judge
from gate.model.change import RENAMED, ChangeSet, FileChange, FileTexts
from gate.model.report import RuleResult
from gate.model.rubric import Rubric, Rule
from gate.report import to_json
from gate.rules.builtin import DIFF_INCOMPLETE, RUBRIC_EDITED, RUBRIC_SELFTEST, WORKFLOW_EDITED
from gate.starter.demo_fixture import CLAMP_KIT, CLEANUP_KIT

RUBRIC_PATH = ".github/blast-radius.yml"
SHA = "ab" * 32


def rubric(*rules: Rule) -> Rubric:
    return Rubric(rules=rules, sha256=SHA)


RULES = (
    Rule("Z9", "max_files", {"limit": 1}, description="one focused change"),
    Rule("A1", "forbidden_path", {"prefix": "secrets/"}),
    Rule("M5", "must_include", {"token": "EXIT=0"}),
)

CHANGES = ChangeSet(
    files=(
        FileChange("src/a.py", added=2, deleted=1),
        FileChange("secrets/key", added=3),
    ),
    base="b" * 40,
    head="c" * 40,
    stdout="EXIT=0\n",
)


def builtin(rule_id: str, passed: bool) -> RuleResult:
    return RuleResult(id=rule_id, kind="builtin", passed=passed, message="m")


def test_rubric_rules_in_rubric_order_and_failed_in_that_order() -> None:
    report = judge.evaluate(rubric(*RULES), CHANGES)
    assert [r.id for r in report.results] == ["Z9", "A1", "M5"]
    assert report.failed == ("Z9", "A1")
    assert not report.passed
    assert report.rule_count == 3


def test_builtins_first_in_builtin_order_and_not_counted() -> None:
    given = [
        builtin(RUBRIC_SELFTEST, False),
        builtin(DIFF_INCOMPLETE, True),
        builtin(WORKFLOW_EDITED, False),
    ]
    changes = ChangeSet(files=(FileChange(RUBRIC_PATH),), stdout="EXIT=0")
    report = judge.evaluate(rubric(*RULES), changes, rubric_path=RUBRIC_PATH, builtins=given)
    assert [r.id for r in report.results] == [
        RUBRIC_EDITED,
        WORKFLOW_EDITED,
        DIFF_INCOMPLETE,
        RUBRIC_SELFTEST,
        "Z9",
        "A1",
        "M5",
    ]
    assert report.failed == (RUBRIC_EDITED, WORKFLOW_EDITED, RUBRIC_SELFTEST)
    assert report.rule_count == 3


@pytest.mark.parametrize(
    ("files", "edited"),
    [
        ((FileChange(RUBRIC_PATH),), True),
        ((FileChange("docs/x.md"), FileChange(RUBRIC_PATH, status="deleted")), True),
        ((FileChange(".github/old.yml", old_path=RUBRIC_PATH, status=RENAMED),), True),
        ((FileChange(RUBRIC_PATH, old_path=".github/new.yml", status=RENAMED),), True),
        ((FileChange(".github/blast-radius.yml.bak"),), False),
        ((FileChange("x/.github/blast-radius.yml"),), False),
        ((), False),
    ],
)
def test_rubric_edited(files: tuple[FileChange, ...], edited: bool) -> None:
    report = judge.evaluate(rubric(), ChangeSet(files=files), rubric_path=RUBRIC_PATH)
    (result,) = report.results
    assert result.id == RUBRIC_EDITED
    assert result.passed is not edited
    assert (RUBRIC_EDITED in report.failed) is edited
    assert report.passed is not edited
    if edited:
        assert result.paths == (RUBRIC_PATH,)
        assert "base version" in result.message


def test_no_rubric_path_means_no_rubric_edited_result() -> None:
    report = judge.evaluate(rubric(*RULES), ChangeSet(files=(FileChange(RUBRIC_PATH),)))
    assert RUBRIC_EDITED not in [r.id for r in report.results]


def test_all_pass() -> None:
    changes = ChangeSet(files=(FileChange("src/a.py"),), stdout="EXIT=0")
    report = judge.evaluate(rubric(*RULES), changes, rubric_path=RUBRIC_PATH)
    assert report.passed
    assert report.failed == ()
    assert len(report.results) == 4


def test_description_propagates_to_results_and_json() -> None:
    report = judge.evaluate(rubric(*RULES), CHANGES)
    by_id = {r.id: r for r in report.results}
    assert by_id["Z9"].description == "one focused change"
    assert by_id["A1"].description is None
    data = json.loads(to_json(report))
    results = {r["id"]: r for r in data["results"]}
    assert results["Z9"]["description"] == "one focused change"
    assert "description" not in results["A1"]


def test_report_fields() -> None:
    report = judge.evaluate(rubric(*RULES), CHANGES, notes=("head moved",))
    data = json.loads(to_json(report))
    assert data["pass"] is False
    assert data["failed"] == ["Z9", "A1"]
    assert data["rule_count"] == 3
    assert data["rubric_sha256"] == SHA
    assert data["base"] == "b" * 40 and data["head"] == "c" * 40
    assert data["stats"] == {"files_touched": 2, "added_lines": 5, "deleted_lines": 1}
    assert data["notes"] == ["head moved"]
    z9 = data["results"][0]
    assert z9 == {
        "id": "Z9",
        "kind": "max_files",
        "pass": False,
        "level": "fail",
        "message": "2 paths touched; limit 1",
        "paths": ["secrets/key", "src/a.py"],
        "description": "one focused change",
    }
    assert data["warned"] == []


def test_stated_files_touched_reaches_stats() -> None:
    changes = ChangeSet(files=(FileChange("a"),), files_touched=7, source="writer")
    assert judge.evaluate(rubric(), changes).stats.files_touched == 7


def content_rubric() -> Rubric:
    return rubric(
        Rule("NAMES", "keep_symbols", {"file": "clamp_kit.py", "symbols": ["_noisy_helper"]}),
        Rule("SCOPE", "confine_to_symbols", {"file": "clamp_kit.py", "symbols": ["clamp"]}),
    )


def cleanup() -> ChangeSet:
    return ChangeSet(
        files=(FileChange("clamp_kit.py", added=4, deleted=6), FileChange("é\n::error::x")),
        texts={"clamp_kit.py": FileTexts(CLAMP_KIT, CLEANUP_KIT)},
    )


def test_json_is_deterministic_bytes() -> None:
    first = to_json(judge.evaluate(content_rubric(), cleanup(), rubric_path=RUBRIC_PATH))
    second = to_json(judge.evaluate(content_rubric(), cleanup(), rubric_path=RUBRIC_PATH))
    assert first.encode() == second.encode()
    assert first.endswith("}\n")
    data = json.loads(first)
    assert list(data) == sorted(data)
    assert data["failed"] == ["NAMES", "SCOPE"]
    findings = data["results"][2]["findings"]
    assert findings and all(set(f) == {"path", "line", "message"} for f in findings)


def test_json_keeps_unicode_and_escapes_control_characters() -> None:
    report = judge.evaluate(rubric(Rule("F", "max_files", {"limit": 0})), cleanup())
    text = to_json(report)
    assert "é\\n::error::x" in text
    assert "\n::error::" not in text


def test_every_kind_is_documented_by_its_module() -> None:
    import pytest

    from gate import rules

    for module in rules.MODULES:
        text = rules.doc(module.KIND)
        assert module.KIND in text
        assert len(text.splitlines()) > 3
    with pytest.raises(KeyError):
        rules.doc("no_such_kind")
