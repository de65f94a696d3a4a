"""The rule-test helper (tests/rulecase.py) and the git helper it uses
(tests/gitrepo.py): each builder gives what the gate's own entry point gives,
and the example builder, which property tests use for speed, gives the git
builder's verdicts on the content rules and on test_drift."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.commands.cli import main
from gate.model.change import ADDED, DELETED, MODIFIED, RENAMED
from gate.model.report import RuleResult
from tests.gitrepo import GitRepo
from tests.rulecase import Executable, Files, RuleCase, edit

F = "m.py"
SOME = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

LINE = st.sampled_from(
    [
        "def clamp(x):",
        "def test_a():",
        "    return x",
        "    assert -x",
        "x = 1",
        "x = 2",
        "",
        "# note",
        "import os",
    ]
)
ENDING = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def texts(draw: st.DrawFn) -> str | None:
    if draw(st.integers(0, 7)) == 0:
        return None  # absent on this side
    body = draw(st.lists(LINE, max_size=6))
    return "".join(line + draw(ENDING) for line in body)


CONTENT_RULES = [
    RuleCase("keep_lines", file=F, lines=["x = 1", "return x"]),
    RuleCase("keep_symbols", file=F, symbols=["clamp", "x"]),
    RuleCase("confine_to_symbols", file=F, symbols=["clamp"]),
    RuleCase("test_drift", path="tests/test_m.py"),
    RuleCase("test_drift", path="tests/test_m.py", allow_added=False),
]


def verdict(result: RuleResult) -> tuple[bool, str, tuple[object, ...]]:
    return result.passed, result.message, result.findings


@SOME
@given(texts(), texts())
def test_the_example_builder_gives_the_git_builders_verdicts(
    base: str | None, head: str | None
) -> None:
    for case in CONTENT_RULES:
        change = case.edit(base, head)
        by_git = verdict(case.check(change, source="git"))
        assert verdict(case.check(change, source="example")) == by_git, case.kind
        if base != head:  # an empty patch is refused (`gate check --patch` exits 3)
            assert verdict(case.check(change, source="patch")) == by_git, case.kind


def test_the_git_builder_reports_what_gate_check_reports(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same files through `gate check` on real commits: the same verdict."""
    base = {F: "def clamp(x):\n    return x\n", "old.txt": "a\n" * 20}
    head = {F: "def clamp(x):\n    return -x\nX = 1\n", "new.txt": "a\n" * 20}
    case = RuleCase("confine_to_symbols", id="SCOPE", file=F, symbols=["clamp"])
    mine = case.check(Files(base=base, head=head))
    rubric = {"version": 1, "rules": [{"id": "SCOPE", **case.rule_params(), "kind": case.kind}]}
    repo.write_many({**base, ".github/blast-radius.yml": json.dumps(rubric)})
    first = repo.commit("base")
    repo.remove("old.txt")
    repo.write_many(head)
    second = repo.commit("head")
    capsys.readouterr()
    code = main(
        ["check", "--repo", str(repo.root), "--base", first, "--head", second, "--format", "json"]
    )
    assert code == 1
    (theirs,) = (r for r in json.loads(capsys.readouterr().out)["results"] if r["id"] == "SCOPE")
    assert (theirs["pass"], theirs["message"]) == (mine.passed, mine.message)


def test_a_change_is_what_git_makes_of_the_files() -> None:
    """Statuses come from git: added, deleted, modified, a rename found by
    content, a mode change; an unchanged file is not in the change."""
    case = RuleCase("max_files", limit=100)
    body = "line\n" * 20
    files = Files(
        base={"gone.py": "x\n", "same.py": "s\n", "mod.py": "a\n", "old.py": body, "run": "r\n"},
        head={"new.py": "y\n", "same.py": "s\n", "mod.py": "b\n", "moved.py": body, "run": ""},
    )
    files = Files(base=files.base, head={**files.head, "run": Executable("r\n")})
    changes = case.change(files)
    assert {(f.path, f.status, f.old_path) for f in changes.files} == {
        ("gone.py", DELETED, None),
        ("new.py", ADDED, None),
        ("mod.py", MODIFIED, None),
        ("moved.py", RENAMED, "old.py"),
        ("run", MODIFIED, None),
    }
    (run,) = (f for f in changes.files if f.path == "run")
    assert (run.old_mode, run.new_mode) == ("100644", "100755")
    assert changes.source == "git"


def test_only_the_texts_the_rule_reads_are_read() -> None:
    """The registry says what a rule reads; the builder reads nothing else."""
    files = Files(base={F: "a\n", "other.py": "b\n"}, head={F: "a2\n", "other.py": "b2\n"})
    changes = RuleCase("keep_lines", file=F, lines=["a"]).change(files)
    assert set(changes.texts) == {F}
    assert RuleCase("max_files", limit=1).change(files).texts == {}


def test_the_assertions_fail_on_the_wrong_verdict() -> None:
    case = RuleCase("keep_lines", file=F, lines=["keep"])
    removed, kept = case.edit("keep\n", "gone\n"), case.edit("keep\n", "keep\nmore\n")
    with pytest.raises(AssertionError, match="passed"):
        case.fails(kept)
    with pytest.raises(AssertionError, match="failed"):
        case.passes(removed)
    with pytest.raises(AssertionError):
        case.fails(removed, "a reason it does not give")
    with pytest.raises(AssertionError):
        case.fails(removed, findings=[(7, "removed")])
    with pytest.raises(AssertionError):
        case.fails(removed, reported=["elsewhere.py"])
    case.fails(removed, "is gone", reported=[F], findings=[(1, "removed"), (None, "base line 1")])


def test_the_rule_goes_through_the_loader() -> None:
    """Defaults are filled and a bad parameter is refused, as in a rubric."""
    assert RuleCase("max_lines", limit=3).rule_params()["count"] == "changed"
    with pytest.raises(Exception, match="limit"):
        RuleCase("max_lines", limit=-1).rubric()


def test_edit_names_one_file_and_none_is_absent() -> None:
    assert edit("a.py", None, "x") == Files(base={}, head={"a.py": "x"})
    with pytest.raises(ValueError, match="names no path"):
        RuleCase("max_files", limit=1).edit("a", "b")
