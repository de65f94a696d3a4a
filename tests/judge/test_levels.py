"""Rule levels (`level: fail`, the default, or `level: warn`) through the
loader, the judge and every local output (text, JSON, markdown, exit code).

The GitHub outputs (check run, comment, summary) are in
tests/action/test_levels_action.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.base.errors import GateError
from gate.commands.cli import main
from gate.model.rubric import FAIL, LEVELS, WARN
from gate.rubric.load import load_rubric_bytes
from gate.rubric.schema import schema
from gate.rules import REGISTRY
from tests.gitrepo import GitRepo

RUBRIC_PATH = ".github/blast-radius.yml"

# The least rule of each kind (its required parameters), as YAML flow mappings.
MINIMAL = {
    "max_files": "limit: 0",
    "max_lines": "limit: 0",
    "forbidden_path": "prefix: secrets/",
    "forbidden_paths": "paths: [secrets/]",
    "allowed_paths": "paths: [src/]",
    "test_drift": "allow_added: true",
    "keep_symbols": "file: a.py, symbols: [f]",
    "keep_lines": "file: a.py, lines: [x]",
    "confine_to_symbols": "file: a.py, symbols: [f]",
    "must_include": "token: ok",
    "new_dependencies": "bumps: pass",
    "test_evidence": "sources: [src/]",
}


def test_the_minimal_table_covers_every_kind() -> None:
    assert set(MINIMAL) == set(REGISTRY)


def _rubric(kind: str, level: str | None) -> bytes:
    extra = "" if level is None else f", level: {level}"
    return f"rules:\n  - {{id: R1, kind: {kind}, {MINIMAL[kind]}{extra}}}\n".encode()


@pytest.mark.parametrize("kind", sorted(MINIMAL))
def test_every_kind_takes_a_level(kind: str) -> None:
    assert load_rubric_bytes(_rubric(kind, None), "r.yml").rules[0].level == FAIL
    assert load_rubric_bytes(_rubric(kind, "fail"), "r.yml").rules[0].level == FAIL
    assert load_rubric_bytes(_rubric(kind, "warn"), "r.yml").rules[0].level == WARN
    assert load_rubric_bytes(_rubric(kind, '"warn"'), "r.yml").rules[0].level == WARN
    # the level is no parameter of the kind
    assert "level" not in load_rubric_bytes(_rubric(kind, "warn"), "r.yml").rules[0].params


def test_the_schema_names_exactly_the_levels() -> None:
    shipped = schema()
    assert shipped["$defs"]["level"]["enum"] == list(LEVELS) == ["fail", "warn"]
    assert shipped["$defs"]["rule"]["properties"]["level"] == {"$ref": "#/$defs/level"}


# Hostile twins: spellings someone may write meaning "warn" (or hoping to slip
# a rule past), each refused with exit 2 naming the rule, the key and the fix.
NOT_A_LEVEL = [
    ("upper case", "WARN"),
    ("title case", "Warn"),
    ("trailing space", '"warn "'),
    ("leading space", '" warn"'),
    ("tab", '"warn\\t"'),
    ("warning", "warning"),
    ("warnings", "warnings"),
    ("Cyrillic a", '"w\u0430rn"'),
    ("full-width", '"\uff57\uff41\uff52\uff4e"'),
    ("zero-width space", '"warn\u200b"'),
    ("fail upper", "FAIL"),
    ("empty", '""'),
    ("off", '"off"'),
    ("error", "error"),
    ("info", "info"),
]
NOT_A_STRING = [
    ("boolean", "true"),
    ("YAML 1.1 boolean", "off"),
    ("number", "1"),
    ("null", "null"),
    ("list", "[warn]"),
    ("mapping", "{warn: true}"),
]


def _validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, name: str = "r.yml"
) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("kind", sorted(MINIMAL))
@pytest.mark.parametrize(("case", "value"), NOT_A_LEVEL, ids=[c for c, _ in NOT_A_LEVEL])
def test_a_level_that_is_not_exactly_fail_or_warn_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, case: str, value: str
) -> None:
    err = _validate(tmp_path, capsys, _rubric(kind, value).decode())
    assert f'r.yml:2: rule "R1" ({kind}): "level" must be one of: fail, warn; not ' in err


@pytest.mark.parametrize(("case", "value"), NOT_A_STRING, ids=[c for c, _ in NOT_A_STRING])
def test_a_level_that_is_not_a_string_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, value: str
) -> None:
    err = _validate(tmp_path, capsys, _rubric("max_files", value).decode())
    assert 'r.yml:2: rule "R1" (max_files): "level" must be a string, not ' in err


@pytest.mark.parametrize(("case", "value"), NOT_A_LEVEL[:4], ids=[c for c, _ in NOT_A_LEVEL[:4]])
def test_json_rubrics_refuse_the_same_spellings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, value: str
) -> None:
    level = json.loads(value) if value.startswith('"') else value
    text = json.dumps({"rules": [{"id": "R1", "kind": "max_files", "limit": 1, "level": level}]})
    err = _validate(tmp_path, capsys, text, "r.json")
    assert 'r.json:1: rule "R1" (max_files): "level" must be one of: fail, warn; not ' in err


def test_a_level_in_the_wrong_place_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # on the rubric, not a rule
    err = _validate(
        tmp_path, capsys, "level: warn\nrules:\n  - {id: A, kind: max_files, limit: 1}\n"
    )
    assert 'unknown key "level" at the top level' in err
    # twice on one rule
    err = _validate(
        tmp_path,
        capsys,
        "rules:\n  - {id: A, kind: max_files, limit: 1, level: warn, level: fail}\n",
    )
    assert "level" in err and "duplicate" in err.lower()


def test_a_built_in_rule_cannot_be_given_a_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for builtin in ("gate.rubric-edited", "gate.workflow-edited", "GATE.rubric-edited"):
        text = f"rules:\n  - {{id: {builtin}, kind: max_files, limit: 1, level: warn}}\n"
        err = _validate(tmp_path, capsys, text)
        assert f'rule "{builtin}"' in err and "reserved for built-in rules" in err


@pytest.mark.parametrize(
    "text",
    [
        "x: &lvl warn\nrules:\n  - {id: A, kind: max_files, limit: 1, level: *lvl}\n",
        "x: &base {level: warn}\nrules:\n  - {<<: *base, id: A, kind: max_files, limit: 1}\n",
        "rules:\n  - &a {id: A, kind: max_files, limit: 1, level: warn}\n  - *a\n",
        "rules:\n  - {id: A, kind: max_files, limit: 1, level: !!binary d2Fybg==}\n",
        "rules:\n  - {id: A, kind: max_files, limit: 1, level: !warn warn}\n",
    ],
    ids=["alias", "merge key", "aliased rule", "binary tag", "custom tag"],
)
def test_yaml_tricks_giving_a_level_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    err = _validate(tmp_path, capsys, text)
    assert "invalid rubric" in err and "r.yml:" in err


def test_the_plain_string_tag_is_the_string_itself() -> None:
    """`!!str warn` is the string "warn": the schema accepts it, as it would `"warn"`."""
    text = b"rules:\n  - {id: A, kind: max_files, limit: 1, level: !!str warn}\n"
    assert load_rubric_bytes(text, "r.yml").rules[0].level == WARN


def test_a_loader_refusal_names_the_rule_and_the_fix() -> None:
    with pytest.raises(GateError) as caught:
        load_rubric_bytes(_rubric("forbidden_paths", "Warn"), "r.yml")
    assert caught.value.message == (
        'invalid rubric: r.yml:2: rule "R1" (forbidden_paths): "level" must be one of: '
        'fail, warn; not "Warn"'
    )


# --- judged: every local output ------------------------------------------------

WARN_AND_FAIL = """\
rules:
  - {id: FILES, kind: max_files, limit: 1, level: warn, description: keep it small}
  - {id: SECRETS, kind: forbidden_paths, paths: [secrets/], level: LEVEL}
"""


def _judged(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], secrets_level: str, *touch: str
) -> dict[str, tuple[int, str]]:
    repo.write(RUBRIC_PATH, WARN_AND_FAIL.replace("LEVEL", secrets_level))
    repo.write("a.txt", "a\n")
    base = repo.commit("base")
    for path in touch:
        repo.write(path, "x\n")
    head = repo.commit("head")
    out = {}
    for fmt in ("text", "json", "markdown"):
        code = main(
            ["check", "--repo", str(repo.root), "--base", base, "--head", head, "--format", fmt]
        )
        out[fmt] = (code, capsys.readouterr().out)
    return out


def test_warn_only_exits_0_and_every_output_says_warned(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _judged(repo, capsys, "fail", "b.txt", "c.txt")
    assert {code for code, _ in out.values()} == {0}
    data = json.loads(out["json"][1])
    assert data["pass"] is True
    assert data["failed"] == []
    assert data["warned"] == ["FILES"]
    results = {r["id"]: r for r in data["results"]}
    assert results["FILES"]["pass"] is False and results["FILES"]["level"] == "warn"
    assert results["SECRETS"]["pass"] is True and results["SECRETS"]["level"] == "fail"
    assert {results[i]["level"] for i in results if i.startswith("gate.")} == {"fail"}
    text = out["text"][1]
    assert text.startswith(
        "PASS with warnings: 1 of 4 rules warned (level warn: reported, not failing): FILES\n"
    )
    assert "\nWARN FILES (max_files): 2 paths touched; limit 1\n" in text
    assert "    - b.txt\n" in text
    md = out["markdown"][1]
    assert md.startswith("### ⚠️ Blast Radius Gate: pass with warnings\n")
    assert "| `FILES` | max\\_files | ⚠️ warn | 2 paths touched; limit 1 (keep it small) |" in md
    assert "**`FILES`** offending paths:" in md


def test_fail_and_warn_exit_1_and_failed_never_lists_the_warn_rule(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _judged(repo, capsys, "fail", "b.txt", "secrets/key")
    assert {code for code, _ in out.values()} == {1}
    data = json.loads(out["json"][1])
    assert data["pass"] is False
    assert data["failed"] == ["SECRETS"]
    assert data["warned"] == ["FILES"]
    text = out["text"][1]
    assert text.startswith("FAIL: 1 of 4 rules failed: SECRETS\nWARN: 1 of 4 rules warned")
    assert "\nFAIL SECRETS (forbidden_paths)" in text and "\nWARN FILES (max_files)" in text
    md = out["markdown"][1]
    assert md.startswith("### ❌ Blast Radius Gate: fail\n")
    assert "\nWarned: 1 of 4 rules warned (level warn: reported, not failing): `FILES`\n" in md
    assert "| ❌ **fail** |" in md and "| ⚠️ warn |" in md


def test_the_same_change_fails_when_the_level_is_fail(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """The twin of the warn-only run: only the level differs, and so does the exit."""
    out = _judged(repo, capsys, "warn", "b.txt", "secrets/key")
    data = json.loads(out["json"][1])
    assert out["json"][0] == 0 and data["warned"] == ["FILES", "SECRETS"]
    repo.write(RUBRIC_PATH, WARN_AND_FAIL.replace("LEVEL", "fail"))
    base = repo.commit("rubric at fail")
    repo.write("secrets/other", "x\n")
    head = repo.commit("head 2")
    code = main(["check", "--repo", str(repo.root), "--base", base, "--head", head])
    assert code == 1
    assert capsys.readouterr().out.startswith("FAIL: 1 of 4 rules failed: SECRETS\n")


def test_a_passing_warn_rule_is_a_plain_pass(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _judged(repo, capsys, "warn", "b.txt")
    data = json.loads(out["json"][1])
    assert out["json"][0] == 0
    assert data["warned"] == [] and data["failed"] == []
    assert out["text"][1].startswith("PASS: all 4 rules passed\n")


def test_the_json_report_is_byte_identical_on_a_rerun(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _judged(repo, capsys, "warn", "b.txt", "secrets/key")
    base, head = repo.rev_parse("HEAD^"), repo.rev_parse("HEAD")
    main(["check", "--repo", str(repo.root), "--base", base, "--head", head, "--format", "json"])
    assert capsys.readouterr().out == out["json"][1]


EXAMPLES = """\
rules:
  - {id: FILES, kind: max_files, limit: 1, level: warn}
examples:
  - name: too many files
    expect: EXPECT
    change:
      - {path: a.py, added: 1}
      - {path: b.py, added: 1}
"""


def test_an_example_names_a_warn_rule_whose_check_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.yml"
    path.write_text(EXAMPLES.replace("EXPECT", "[FILES]"), encoding="utf-8")
    assert main(["selftest", str(path)]) == 0
    capsys.readouterr()
    path.write_text(EXAMPLES.replace("EXPECT", "pass"), encoding="utf-8")
    assert main(["selftest", str(path)]) == 1
    assert "FILES" in capsys.readouterr().out


def test_level_is_reported_on_every_result(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _judged(repo, capsys, "fail", "b.txt")
    data: dict[str, Any] = json.loads(out["json"][1])
    assert all(r["level"] in LEVELS for r in data["results"])


# --- gate init --from-history: level: warn proposed for a noisy rule ------------


def test_init_from_history_proposes_warn_for_a_noisy_rule_as_a_comment(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.research.test_backtest import tuning_history

    shas = tuning_history(repo)  # CI fails 5 of 12 human commits, TESTS 5, AGENTS 1
    monkeypatch.chdir(repo.root)
    assert main(["init", "--from-history", "--path", "r.yml"]) == 0
    out = capsys.readouterr().out
    section = out.split("level: warn proposed as a comment in the rubric, not applied")[1]
    lines = section.splitlines()
    ci = next(line for line in lines if line.startswith("  CI (forbidden_paths): "))
    assert "failed 5 of 12 human-written commits (41%)" in ci
    for name in ("owners1", "owners0", "ci2", "ci1", "ci0"):
        assert shas[name][:12] in ci
    assert any(line.startswith("  TESTS (test_drift): failed 5 of 12") for line in lines)
    assert not any(line.startswith("  AGENTS") for line in lines)  # 1 of 12: not noisy
    # written: a comment in the rule, never applied
    text = (repo.root / "r.yml").read_text(encoding="utf-8")
    rubric = load_rubric_bytes(text.encode(), "r.yml")
    levels = {r.id: r.level for r in rubric.rules}
    assert levels.pop("DEPS") == WARN  # the starter's own warn rule
    assert set(levels.values()) == {FAIL}
    ci_block = text.split("  - id: CI\n", 1)[1].split("\n  - id: ", 1)[0]
    assert ci_block.startswith("    kind: forbidden_paths\n    # level: warn  # proposed by ")
    assert shas["ci2"][:12] in ci_block
    # uncommented, it applies: the rubric loads with CI at warn and its examples still agree
    applied = text.replace("    # level: warn  # proposed", "    level: warn  # proposed")
    rubric = load_rubric_bytes(applied.encode(), "r.yml")
    levels = {r.id: r.level for r in rubric.rules}
    assert levels["CI"] == WARN and levels["TESTS"] == WARN and levels["AGENTS"] == FAIL
    (repo.root / "applied.yml").write_text(applied, encoding="utf-8")
    assert main(["selftest", str(repo.root / "applied.yml")]) == 0


def test_init_from_history_proposes_no_warn_for_a_quiet_history(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.research.test_backtest import _commit

    repo.write("app.py", "x = 0\n")
    _commit(repo, "root")
    for i in range(6):
        repo.write("app.py", f"x = {i + 1}\n")
        _commit(repo, f"change {i}")
    monkeypatch.chdir(repo.root)
    assert main(["init", "--from-history", "--path", "r.yml"]) == 0
    out = capsys.readouterr().out
    assert "no rule failed more than 20% of the human-written commits" in out
    assert "# level: warn" not in (repo.root / "r.yml").read_text(encoding="utf-8")


def test_backtest_lists_a_warned_rule_apart_from_failed(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.research.test_backtest import _commit

    repo.write("a.txt", "a\n")
    _commit(repo, "root")
    repo.write("b.txt", "b\n")
    repo.write("c.txt", "c\n")
    sprawl = _commit(repo, "two files")
    repo.write("secrets/k", "k\n")
    secret = _commit(repo, "a secret")
    rubric = tmp_path / "r.yml"
    rubric.write_text(WARN_AND_FAIL.replace("LEVEL", "fail"), encoding="utf-8")
    argv = ["backtest", "--repo", str(repo.root), "--rubric-file", str(rubric), "--format", "json"]
    assert main(argv) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    commits = {c["sha"]: c for c in data["commits"]}
    assert commits[sprawl]["failed"] == [] and commits[sprawl]["warned"] == ["FILES"]
    assert commits[sprawl]["pass"] is True
    assert commits[secret]["failed"] == ["SECRETS"] and commits[secret]["warned"] == []
    assert data["rules"]["FILES"]["failed"] == [sprawl]  # what the warn rule's check judged
    # each commit's verdict is gate check's
    for sha, commit in commits.items():
        main(["check", "--repo", str(repo.root), "--base", f"{sha}^", "--head", sha,
              "--rubric-file", str(rubric), "--format", "json"])  # fmt: skip
        report = json.loads(capsys.readouterr().out)
        assert (report["failed"], report["warned"]) == (commit["failed"], commit["warned"])


def _report(*, waived: bool) -> Any:
    from gate.model.change import ChangeSet
    from gate.model.report import Report, RuleResult
    from gate.model.waivers import Waived

    results = (
        RuleResult(id="F", kind="max_files", passed=False, message="3 paths; limit 1"),
        RuleResult(id="W", kind="max_lines", passed=False, message="9 lines", level=WARN),
    )
    report = Report(
        passed=False,
        failed=("F",),
        rule_count=2,
        rubric_sha256="0" * 64,
        base="b" * 40,
        head="c" * 40,
        stats=ChangeSet().stats(),
        results=results,
        warned=("W",),
    )
    if waived:
        report = report.waive((Waived("F", "maintainer", "MEMBER", "c" * 40),))
    return report


def test_waived_and_warned_are_told_apart_everywhere() -> None:
    from gate.action.publish import annotations_for, judged, title_for
    from gate.report import to_markdown, to_text

    report = _report(waived=True)
    assert report.passed and report.failed == () and report.warned == ("W",)
    assert title_for(report) == (
        "every failed rule was waived; waived: F (by maintainer on ccccccc); warned: W"
    )
    text = to_text(report)
    assert text.startswith("PASS: every failed rule was waived: F\nWARN: 1 of 2 rules warned")
    assert "\nWAIVED F (max_files)" in text and "\nWARN W (max_lines)" in text
    md = to_markdown(report)
    assert "| ⏭️ waived |" in md and "| ⚠️ warn |" in md and "\nWarned: 1 of 2" in md
    verdict = judged(report, "blast-radius")
    assert (verdict.conclusion, verdict.exit_code, verdict.warned) == ("success", 0, ("W",))
    assert annotations_for(report) == []  # neither names paths here
    # the same report before the waiver fails, and says what warned
    failing = judged(_report(waived=False), "blast-radius")
    assert failing.conclusion == "failure" and failing.title == "1 rule failed: F; warned: W"
    trial = judged(_report(waived=False), "blast-radius", "report-only")
    assert (trial.conclusion, trial.exit_code, trial.failing, trial.noteworthy) == (
        "neutral",
        0,
        True,
        True,
    )
    assert trial.title == "report-only trial: 1 rule failed: F; warned: W"
