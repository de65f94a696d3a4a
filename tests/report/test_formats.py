"""`gate check --format github` (workflow-command annotations) and
`--format sarif` (SARIF 2.1.0), on real repositories with generated hostile
file names; SARIF validated against the official schema (tests/sarif/)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

import jsonschema
import pytest

from gate.base.paths import from_bytes
from gate.commands.cli import main
from gate.model.report import Finding, Report, RuleResult
from gate.report import render
from gate.report.annotations import PATHS_ANNOTATED, rule_lines
from tests.gitrepo import GitRepo

SCHEMA = json.loads(
    (Path(__file__).parents[1] / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)

RUBRIC = """\
version: 1
rules:
  - id: ONLY-SRC
    kind: allowed_paths
    paths: ["src/"]
    description: "keep to src"
  - id: FEW
    kind: max_lines
    limit: 0
"""

# Pieces a hostile name is made of: what ends a line or a property, what
# GitHub unescapes, what starts a command anywhere in a line.
PIECES = ["\n", "\r", "::", "%0A", "%25", "%3A", ",", ":", "##[error]", "%", "::error::x", " "]


def hostile_names() -> list[str]:
    """Every pair of pieces around a plain stem, and a nested folder."""
    names = [f"{a}n{b}.py" for a, b in itertools.product(PIECES, repeat=2)]
    names += [f"d{a}/e{b}/f.py" for a, b in zip(PIECES, reversed(PIECES), strict=True)]
    return sorted(set(names))


def broken(name: str) -> str:
    """A name as an annotation's `file=` gives it: exact, but `##[` (which the
    runner obeys anywhere in a line) broken by a zero-width space."""
    return name.replace("##[", "##\u200b[")


def hostile_repo(repo: GitRepo, names: list[str]) -> GitRepo:
    repo.write(".github/blast-radius.yml", RUBRIC)
    repo.commit("rubric")
    repo.git("checkout", "-q", "-b", "agent")
    for name in names:
        repo.write(name, "x\n")
    repo.commit("hostile names")
    return repo


def run(capsys: pytest.CaptureFixture[str], repo: GitRepo, fmt: str) -> tuple[int, str]:
    code = main(["check", "--repo", str(repo.root), "--base", "main", "--format", fmt])
    out, _ = capsys.readouterr()
    return code, out


# ---------------------------------------------------------------------------
# A model of the runner's parser: `::name props::data` at the start of a line,
# properties split on `,` and `=`, then unescaped (%0D %0A %3A %2C, then %25).


def unescape(value: str, *, prop: bool) -> str:
    value = value.replace("%0D", "\r").replace("%0A", "\n")
    if prop:
        value = value.replace("%3A", ":").replace("%2C", ",")
    return value.replace("%25", "%")


def parse_command(line: str) -> tuple[str, dict[str, str], str] | None:
    if not line.startswith("::"):
        return None
    body = line[2:]
    end = body.find("::")
    assert end >= 0, line
    head, data = body[:end], body[end + 2 :]
    name, _, props = head.partition(" ")
    parsed: dict[str, str] = {}
    for prop in filter(None, props.split(",")):
        key, sep, value = prop.partition("=")
        assert sep, line
        assert key not in parsed, f"a property given twice: {line!r}"
        parsed[key] = unescape(value, prop=True)
    return name, parsed, unescape(data, prop=False)


def commands(out: str) -> list[tuple[str, dict[str, str], str]]:
    """Every command the runner would obey in `out` (lines as the runner
    splits them: on LF, CR or CRLF), and no `##[` anywhere."""
    assert "##[" not in out  # broken wherever it occurs (`broken`)
    lines = out.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [c for c in map(parse_command, lines) if c is not None]


def test_github_annotations_name_each_hostile_path_once_and_forge_nothing(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One `::error` per failed rule and path, `file=` the real path after
    GitHub's unescaping, whatever the name holds; nothing else a command;
    exit 1 as for every format; not fenced inside a workflow."""
    names = hostile_names()
    hostile_repo(repo, names)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out = run(capsys, repo, "github")
    assert code == 1
    assert "::stop-commands::" not in out
    found = commands(out)
    assert {name for name, _, _ in found} == {"error"}
    by_rule: dict[str, list[str]] = {}
    for _, props, data in found:
        assert data
        by_rule.setdefault(props["title"], []).append(props.get("file", ""))
    paths = sorted(broken(n) for n in names)
    for title in ("Blast Radius Gate: ONLY-SRC", "Blast Radius Gate: FEW"):
        shown = by_rule[title]
        assert len(shown) == min(len(paths), PATHS_ANNOTATED) + (len(paths) > PATHS_ANNOTATED)
    assert set(by_rule["Blast Radius Gate: ONLY-SRC"]) - {""} <= set(paths)
    last = out.rstrip("\n").split("\n")[-1]
    assert last.startswith("Blast Radius Gate: FAIL: 2 of ")


def test_github_annotations_round_trip_every_path_when_few(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under the cap, the set of annotated files is exactly the set of
    hostile paths (one to one after unescaping)."""
    names = hostile_names()[:PATHS_ANNOTATED]
    hostile_repo(repo, names)
    code, out = run(capsys, repo, "github")
    assert code == 1
    files = [props["file"] for _, props, _ in commands(out) if "ONLY-SRC" in props["title"]]
    assert sorted(files) == sorted(broken(n) for n in names)


def test_github_passing_change_prints_no_command_and_exits_0(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(".github/blast-radius.yml", RUBRIC.replace("limit: 0", "limit: 10"))
    repo.commit("rubric")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write("src/a.py", "x\n")
    repo.commit("in src")
    code, out = run(capsys, repo, "github")
    assert code == 0
    assert commands(out) == []
    assert out.startswith("Blast Radius Gate: PASS")


def _rule(**kw: Any) -> RuleResult:
    base: dict[str, Any] = {"id": "R", "kind": "k", "passed": False, "message": "m"}
    return RuleResult(**{**base, **kw})


def test_github_rule_without_paths_has_no_file_and_findings_have_lines() -> None:
    assert [parse_command(x) for x in rule_lines(_rule())] == [
        ("error", {"title": "Blast Radius Gate: R"}, "m")
    ]
    # Findings, when a rule has them, are where it points (as in the Action's
    # check-run annotations); each (path, line) once.
    found = Finding("a.py", "gone\n::error::x", 7)
    r = _rule(paths=("a.py", "b.py"), findings=(found, found, Finding("a.py", "other", 7)))
    parsed = [parse_command(x) for x in rule_lines(r)]
    assert parsed == [
        (
            "error",
            {"file": "a.py", "line": "7", "title": "Blast Radius Gate: R"},
            "gone\n::error::x",
        ),
    ]
    parsed = [parse_command(x) for x in rule_lines(_rule(paths=("a.py", "b.py")))]
    assert parsed == [
        ("error", {"file": "a.py", "title": "Blast Radius Gate: R"}, "m"),
        ("error", {"file": "b.py", "title": "Blast Radius Gate: R"}, "m"),
    ]


def test_github_hostile_message_and_rule_id_stay_in_one_line() -> None:
    """A message or note holding every piece stays data of its own line."""
    for piece in PIECES:
        r = _rule(id=f"R{piece}", message=f"m{piece}%0A::warning::y")
        report = Report(
            passed=False,
            failed=(r.id,),
            rule_count=1,
            rubric_sha256=None,
            base=None,
            head=None,
            stats=_stats(),
            results=(r,),
            notes=(f"note{piece}",),
        )
        found = commands(render(report, "github"))
        assert [(n, d) for n, _, d in found] == [
            ("error", broken(f"m{piece}%0A::warning::y")),
            ("notice", broken(f"note{piece}")),
        ]
        assert found[0][1]["title"] == broken(f"Blast Radius Gate: R{piece}")


def _stats() -> Any:
    from gate.model.change import Stats

    return Stats(files_touched=0, added_lines=0, deleted_lines=0)


# ---------------------------------------------------------------------------
# SARIF


def validate(log: dict[str, Any]) -> None:
    jsonschema.Draft4Validator(SCHEMA).validate(log)


def test_sarif_is_valid_one_result_per_path_and_byte_identical(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    names = hostile_names()
    hostile_repo(repo, names)
    code, first = run(capsys, repo, "sarif")
    assert code == 1
    _, second = run(capsys, repo, "sarif")
    assert first == second
    log = json.loads(first)
    validate(log)
    assert log["version"] == "2.1.0"
    (the_run,) = log["runs"]
    driver = the_run["tool"]["driver"]
    assert driver["name"] == "Blast Radius Gate"
    assert driver["version"] and driver["informationUri"].startswith("https://")
    ids = [r["id"] for r in driver["rules"]]
    assert {"ONLY-SRC", "FEW"} <= set(ids)
    assert driver["rules"][ids.index("ONLY-SRC")]["fullDescription"]["text"] == "keep to src"
    results = the_run["results"]
    for result in results:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        (loc,) = result["locations"]
        uri = loc["physicalLocation"]["artifactLocation"]["uri"]
        assert urlsplit(uri).scheme == "" and not uri.startswith("/")
        assert all(ch not in uri for ch in "\n\r #?,:")
    for rule in ("ONLY-SRC", "FEW"):
        uris = [
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in results
            if r["ruleId"] == rule
        ]
        assert sorted(unquote_to_bytes(u) for u in uris) == sorted(n.encode() for n in names)
    prints = [tuple(r["partialFingerprints"].items()) for r in results]
    assert len(set(prints)) == len(prints)


def test_sarif_passing_change_has_no_results_and_is_valid(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(".github/blast-radius.yml", RUBRIC.replace("limit: 0", "limit: 10"))
    repo.commit("rubric")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write("src/a.py", "x\n")
    repo.commit("in src")
    code, out = run(capsys, repo, "sarif")
    assert code == 0
    log = json.loads(out)
    validate(log)
    assert log["runs"][0]["results"] == []


def test_sarif_rule_without_paths_is_located_at_the_rubric_and_lines_kept() -> None:
    from gate.report.sarif import to_sarif

    no_path = _rule(id="A")
    with_line = _rule(id="B", paths=("x y.py",), findings=(Finding("x y.py", "why", 3),))
    report = Report(
        passed=False,
        failed=("A", "B"),
        rule_count=2,
        rubric_sha256=None,
        base=None,
        head=None,
        stats=_stats(),
        results=(no_path, with_line),
    )
    log = json.loads(to_sarif(report, ".github/blast-radius.yml"))
    validate(log)
    a, b = log["runs"][0]["results"]
    assert a["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": ".github/blast-radius.yml"}
    }
    assert b["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "x%20y.py"},
        "region": {"startLine": 3},
    }
    assert b["message"]["text"] == "why"


def test_sarif_uri_encodes_a_byte_that_is_not_utf8_as_itself() -> None:
    from gate.report.sarif import uri

    raw = b"caf\xe9/%0A:x.py"
    assert unquote_to_bytes(uri(from_bytes(raw))) == raw
    assert uri(from_bytes(raw)) == "caf%E9/%250A%3Ax.py"


def test_grade_takes_the_verdict_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = tmp_path / "r.yml"
    rubric.write_text(RUBRIC, encoding="utf-8")
    result = tmp_path / "result.json"
    result.write_text(
        json.dumps({"files_touched": 1, "stdout": "", "paths": ["a\n::error::b.py"]}),
        encoding="utf-8",
    )
    code = main(["grade", str(result), "--rubric-file", str(rubric), "--format", "github"])
    out, _ = capsys.readouterr()
    assert code == 1
    files = {props.get("file") for _, props, _ in commands(out)}
    assert "a\n::error::b.py" in files
    code = main(["grade", str(result), "--rubric-file", str(rubric), "--format", "sarif"])
    out, _ = capsys.readouterr()
    assert code == 1
    validate(json.loads(out))


def test_github_could_not_judge_is_one_annotation(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A run that cannot judge (no rubric at the base; a patch, named with a
    newline and `::`, that is not a diff) exits as always and leaves one
    escaped `::error`."""
    repo.write("app.py", "x\n")
    repo.commit("app")
    code = main(["check", "--repo", str(repo.root), "--format", "github"])
    out, err = capsys.readouterr()
    assert code == 2 and "no rubric at" in err
    ((name, props, data),) = commands(out)
    assert name == "error" and props == {"title": "Blast Radius Gate: could not judge"}
    assert data.startswith("no rubric at .github/blast-radius.yml")
    hostile = tmp_path / "p\n::error::x%0A.patch"
    hostile.write_bytes(b"garbage\n")
    repo.write(".github/blast-radius.yml", RUBRIC)
    repo.commit("rubric")
    code = main(["check", "--repo", str(repo.root), "--patch", str(hostile), "--format", "github"])
    out, _ = capsys.readouterr()
    assert code == 3  # not a pure unified diff: exit 3 as in every format
    ((name, _, data),) = commands(out)
    assert str(hostile) in data


def test_a_warn_rule_is_a_warning_in_both_formats_and_exit_0(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rule at `level: warn` that fails is reported (`::warning`, SARIF
    level warning) and fails nothing; beside a failing rule it stays a
    warning while the other is an error."""
    warned = RUBRIC.replace('    description: "keep to src"\n', "    level: warn\n")
    repo.write(".github/blast-radius.yml", warned.replace("limit: 0", "limit: 10"))
    repo.commit("rubric")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write("docs/a.md", "x\n")
    repo.commit("outside src")
    code, out = run(capsys, repo, "github")
    assert code == 0
    found = commands(out)
    assert [(name, props.get("file")) for name, props, _ in found] == [("warning", "docs/a.md")]
    assert "warned: ONLY-SRC" in out.splitlines()[-1]
    code, out = run(capsys, repo, "sarif")
    assert code == 0
    log = json.loads(out)
    validate(log)
    (result,) = log["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("ONLY-SRC", "warning")
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["ONLY-SRC"]["defaultConfiguration"]["level"] == "warning"
    assert rules["FEW"]["defaultConfiguration"]["level"] == "error"
    # beside a failing rule: an error and a warning, exit 1
    repo.write(".github/blast-radius.yml", warned)
    repo.commit(
        "rubric at base",
    )
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--ff-only", "agent")
    repo.git("checkout", "-q", "-b", "again")
    repo.write("docs/b.md", "y\n")
    repo.commit("again outside src")
    code = main(["check", "--repo", str(repo.root), "--base", "main", "--format", "github"])
    out, _ = capsys.readouterr()
    assert code == 1
    kinds = sorted({(name, props["title"].rsplit(" ", 1)[-1]) for name, props, _ in commands(out)})
    assert kinds == [("error", "FEW"), ("warning", "ONLY-SRC")]
