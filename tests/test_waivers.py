"""The rubric's waivers: strict loading, and `gate.waivers` (pure) deciding
which failed rules a pull request's reviews clear.  Generated review
histories check the classes a hostile writer would try: a stale approval,
a self-approval, a bot's, an approval voided later, a built-in rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.errors import GateError
from gate.report import Report
from gate.rubric import Waiver
from gate.rubric.load import load_rubric_bytes
from gate.waivers import APPROVED, Review, Waivable, decide, not_waivable, waivable
from tests.gitrepo import GitRepo

HEAD = "a" * 40
OLD = "b" * 40
AUTHOR = "writer"

RUBRIC = """\
rules:
  - id: LINES
    kind: max_lines
    limit: 3
  - id: FILES
    kind: max_files
    limit: 1
"""


def load(waivers: str) -> tuple[Waiver, ...]:
    return load_rubric_bytes((RUBRIC + waivers).encode(), "r.yml").waivers


def test_waivers_load_into_values() -> None:
    waivers = load(
        "waivers:\n  - rules: [LINES]\n    approvers:\n      logins: [alice]\n"
        "      associations: [MEMBER, OWNER]\n  - rules: [LINES, FILES]\n"
        "    approvers: {logins: [bob]}\n"
    )
    assert waivers == (
        Waiver(("LINES",), ("alice",), ("MEMBER", "OWNER")),
        Waiver(("LINES", "FILES"), ("bob",), ()),
    )
    (lines, files) = waivable(waivers, ["gate.rubric-edited", "LINES", "FILES"])
    assert lines == Waivable("LINES", ("alice", "bob"), ("MEMBER", "OWNER"))
    assert files == Waivable("FILES", ("bob",), ())
    assert lines.who() == "alice, bob or a reviewer whose association is MEMBER or OWNER"


@pytest.mark.parametrize(
    ("waivers", "line", "words"),
    [
        ("  - rules: [gate.rubric-edited]\n    approvers: {logins: [a]}\n", 9, "built-in"),
        ("  - rules: [GATE.x]\n    approvers: {logins: [a]}\n", 9, "built-in"),
        ("  - rules: [NOPE]\n    approvers: {logins: [a]}\n", 9, 'unknown rule id "NOPE"'),
        ("  - rules: []\n    approvers: {logins: [a]}\n", 9, "must not be an empty list"),
        ("  - rules: [LINES, LINES]\n    approvers: {logins: [a]}\n", 9, "same value twice"),
        ("  - rules: [LINES]\n    approvers: {}\n", 10, '"approvers" must not be empty'),
        ("  - rules: [LINES]\n", 9, 'missing key "approvers"'),
        ("  - rules: [LINES]\n    approvers: {logins: []}\n", 10, "empty list"),
        ("  - rules: [LINES]\n    approvers: {logins: ['x[bot]']}\n", 10, "is a bot"),
        ("  - rules: [LINES]\n    approvers: {logins: ['a b']}\n", 10, "not a GitHub login"),
        ("  - rules: [LINES]\n    approvers: {logins: [-a]}\n", 10, "not a GitHub login"),
        ("  - rules: [LINES]\n    approvers: {teams: [x]}\n", 10, 'unknown key "teams"'),
        ("  - rules: [LINES]\n    approver: {logins: [a]}\n", 10, 'unknown key "approver"'),
        (
            "  - rules: [LINES]\n    approvers: {associations: [CONTRIBUTOR]}\n",
            10,
            "one of: OWNER, MEMBER, COLLABORATOR",
        ),
    ],
)
def test_a_bad_waiver_is_one_sentence_naming_file_and_line(
    waivers: str, line: int, words: str
) -> None:
    with pytest.raises(GateError) as caught:
        load("waivers:\n" + waivers)
    message = caught.value.message
    assert message.startswith(f"invalid rubric: r.yml:{line}: waiver #1: "), message
    assert words in message, message
    assert "\n" not in message


def test_an_empty_waiver_list_is_an_error() -> None:
    with pytest.raises(GateError, match="empty list"):
        load("waivers: []\n")


def test_builtin_rules_are_never_waivable_whatever_the_values_say() -> None:
    """Even a Waiver built by hand (not through the loader) cannot list a built-in."""
    hand = (Waiver(("gate.rubric-edited", "Gate.Workflow-Edited", "LINES"), ("alice",)),)
    found = waivable(hand, ["gate.rubric-edited", "Gate.Workflow-Edited", "LINES"])
    assert [w.rule for w in found] == ["LINES"]
    assert not_waivable(["gate.rubric-edited", "FILES"], found) == (
        ("gate.rubric-edited", "a built-in rule, never waived"),
        ("FILES", "no waiver in the rubric lists it"),
    )


def test_report_waive_clears_only_the_waived_rules() -> None:
    from gate.changes import ChangeSet
    from gate.waivers import Waived

    report = Report(
        passed=False,
        failed=("gate.rubric-edited", "LINES"),
        rule_count=1,
        rubric_sha256="0" * 64,
        base=OLD,
        head=HEAD,
        stats=ChangeSet().stats(),
        results=(),
    )
    waived = report.waive((Waived("LINES", "alice", "MEMBER", HEAD),))
    assert waived.failed == ("gate.rubric-edited",) and not waived.passed
    assert report.waive((Waived("LINES", "alice", "", HEAD),)).waive(()).failed == waived.failed


LINES = Waivable("LINES", ("alice",), ("MEMBER",))

logins = st.sampled_from(["alice", "ALICE", "bob", "dave", AUTHOR, "Writer", "ci[bot]", ""])
states = st.sampled_from(["APPROVED", "CHANGES_REQUESTED", "DISMISSED", "COMMENTED", "PENDING"])
associations = st.sampled_from(["MEMBER", "OWNER", "CONTRIBUTOR", "NONE", ""])
reviews = st.lists(
    st.builds(
        Review,
        login=logins,
        state=states,
        commit_id=st.sampled_from([HEAD, OLD, None]),
        association=associations,
        user_type=st.sampled_from(["User", "Bot", ""]),
    ),
    max_size=8,
)


def counts(review: Review) -> bool:
    """An approval that counts for LINES, said from scratch."""
    person = review.user_type != "Bot" and not review.login.lower().endswith("[bot]")
    listed = review.login.lower() == "alice" or review.association == "MEMBER"
    return (
        review.state == APPROVED
        and review.commit_id == HEAD
        and person
        and review.login != ""
        and review.login.lower() != AUTHOR
        and listed
    )


def last_states(history: list[Review]) -> list[Review]:
    last: dict[str, Review] = {}
    for review in history:
        if review.login and review.state not in ("COMMENTED", "PENDING"):
            last[review.login.lower()] = review
    return list(last.values())


@settings(max_examples=400, deadline=None)
@given(reviews)
def test_a_rule_is_waived_exactly_when_some_reviewers_latest_state_counts(
    history: list[Review],
) -> None:
    decision = decide([LINES], history, author=AUTHOR, head=HEAD)
    expected = any(counts(r) for r in last_states(history))
    assert bool(decision.waived) == expected
    for item in decision.waived:
        assert item.commit == HEAD and item.reviewer.lower() not in (AUTHOR, "ci[bot]")


@settings(max_examples=200, deadline=None)
@given(reviews, logins, st.sampled_from(["CHANGES_REQUESTED", "DISMISSED"]))
def test_a_later_request_for_changes_or_dismissal_voids_that_reviewers_approval(
    history: list[Review], who: str, state: str
) -> None:
    voided = [*history, Review(who, state, HEAD, "MEMBER", "User")]
    decision = decide([LINES], voided, author=AUTHOR, head=HEAD)
    assert all(w.reviewer.lower() != who.lower() for w in decision.waived)


@settings(max_examples=200, deadline=None)
@given(reviews, st.integers(min_value=0, max_value=8), logins)
def test_comments_change_no_decision(history: list[Review], at: int, who: str) -> None:
    commented = [*history[:at], Review(who, "COMMENTED", OLD, "MEMBER", "User"), *history[at:]]
    before = decide([LINES], history, author=AUTHOR, head=HEAD).waived
    assert decide([LINES], commented, author=AUTHOR, head=HEAD).waived == before


@settings(max_examples=200, deadline=None)
@given(reviews)
def test_an_unknown_author_waives_nothing(history: list[Review]) -> None:
    """When the payload does not say who wrote the PR, no approval counts."""
    assert decide([LINES], history, author="", head=HEAD).waived == ()


@settings(max_examples=200, deadline=None)
@given(reviews, st.sampled_from(["alice", "ALICE", "Alice"]))
def test_the_authors_own_approval_never_counts(history: list[Review], author: str) -> None:
    mine = [r for r in history if r.login.lower() != "alice"]
    mine.append(Review("alice", APPROVED, HEAD, "MEMBER", "User"))
    decision = decide([LINES], mine, author=author, head=HEAD)
    assert all(w.reviewer.lower() != "alice" for w in decision.waived)


# -- offline: gate check and gate backtest say which failures are waivable -------

CHECK_RUBRIC = """\
rules:
  - id: FILES
    kind: max_files
    limit: 1
  - id: SECRETS
    kind: forbidden_paths
    paths: ["secrets/"]
waivers:
  - rules: [FILES]
    approvers: {logins: [alice], associations: [MEMBER]}
"""


def _run(capsys: pytest.CaptureFixture[str], cwd: object, *argv: str) -> tuple[int, str]:
    import contextlib
    import os

    from gate.cli import main

    here = os.getcwd()
    os.chdir(str(cwd))
    try:
        with contextlib.suppress(SystemExit):
            code = main(list(argv))
    finally:
        os.chdir(here)
    return code, capsys.readouterr().out


def test_gate_check_and_backtest_mark_the_waivable_failures(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    repo.write_many({".github/blast-radius.yml": CHECK_RUBRIC, "app.py": "x = 1\n"})
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write_many({"a.py": "1\n", "secrets/k": "k\n"})
    repo.commit("sprawl and a secret")

    code, text = _run(capsys, repo.root, "check", "--base", "main")
    assert code == 1
    lines = text.splitlines()
    at = lines.index("FAIL FILES (max_files): 2 paths touched; limit 1")
    assert lines[at + 1] == (
        "    waivable by an approval from alice or a reviewer whose association is MEMBER"
    )
    secrets = lines.index(next(line for line in lines if line.startswith("FAIL SECRETS")))
    assert "waivable" not in lines[secrets + 1]

    code, out = _run(capsys, repo.root, "check", "--base", "main", "--format", "json")
    data = json.loads(out)
    assert data["failed"] == ["FILES", "SECRETS"]  # offline nothing is waived
    assert data["waivable"] == [{"rule": "FILES", "logins": ["alice"], "associations": ["MEMBER"]}]
    assert "waived" not in data

    code, out = _run(capsys, repo.root, "check", "--base", "main", "--format", "markdown")
    assert "`FILES` can be waived by alice or a reviewer whose association is MEMBER" in out
    assert "`SECRETS` cannot be waived (no waiver in the rubric lists it)" in out

    code, out = _run(capsys, repo.root, "backtest", "--rubric-file", ".github/blast-radius.yml")
    assert "  FILES: by alice or a reviewer whose association is MEMBER" in out.splitlines()
    code, out = _run(
        capsys,
        repo.root,
        "backtest",
        "--rubric-file",
        ".github/blast-radius.yml",
        "--format",
        "json",
    )
    rules = json.loads(out)["rules"]
    assert rules["FILES"]["waivable_by"]["logins"] == ["alice"]
    assert "waivable_by" not in rules["SECRETS"]
