"""The rubric's waivers: strict loading, and `gate.model.waivers` (pure) deciding
which failed rules a pull request's reviews clear.  Generated review
histories check the classes a hostile writer would try: a stale approval,
a self-approval, a bot's, an approval voided later, a built-in rule."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.model.report import Report
from gate.model.rubric import Waiver
from gate.model.waivers import (
    APPROVED,
    Access,
    Review,
    Waivable,
    decide,
    not_waivable,
    ordered,
    waivable,
)
from gate.rubric.load import load_rubric_bytes
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
        "    approvers: {ids: [583231], permission: maintain}\n"
    )
    first = Waiver(("LINES",), ("alice",), ("MEMBER", "OWNER"))
    second = Waiver(("LINES", "FILES"), ids=(583231,), permission="maintain")
    assert waivers == (first, second)
    assert first.permission == "write"  # the default: what branch protection asks
    (lines, files) = waivable(waivers, ["gate.rubric-edited", "LINES", "FILES"])
    assert lines == Waivable("LINES", (first, second))
    assert files == Waivable("FILES", (second,))
    assert lines.who() == (
        "alice or a reviewer whose association is MEMBER or OWNER with write access "
        "or user 583231 with maintain access"
    )
    assert Waivable("X", (Waiver(("X",), permission="admin"),)).who() == "anyone with admin access"


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
        ("  - rules: [LINES]\n    approvers: {ids: []}\n", 10, "empty list"),
        ("  - rules: [LINES]\n    approvers: {ids: [0]}\n", 10, "must be >= 1"),
        ("  - rules: [LINES]\n    approvers: {ids: [alice]}\n", 10, "integer"),
        ("  - rules: [LINES]\n    approvers: {ids: [true]}\n", 10, "integer"),
        ("  - rules: [LINES]\n    approvers: {permission: read}\n", 10, "write, maintain, admin"),
        ("  - rules: [LINES]\n    approvers: {permission: triage}\n", 10, "write, maintain, admin"),
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
    from gate.model.change import ChangeSet
    from gate.model.waivers import Waived

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


# -- deciding: generated review histories against an oracle written from the docs --

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Person:
    """An account: its id, its login now, its type, its access now."""

    user_id: int
    login: str
    user_type: str
    level: str


# alice (listed by login) and her look-alikes, which GitHub keeps apart: a
# dotless i, a zero-width space, a Kelvin sign; bob (listed by id 7); dave,
# carol and a bot (named only by association or permission); the author.
PEOPLE = (
    Person(1, "alice", "User", "write"),
    Person(2, "al\u0131ce", "User", "admin"),
    Person(3, "al\u200bice", "User", "admin"),
    Person(4, "\u212aalice", "User", "admin"),
    Person(7, "bobby", "User", "maintain"),
    Person(8, "dave", "User", "read"),
    Person(9, "carol", "User", "write"),
    Person(10, "ci[bot]", "Bot", "admin"),
    Person(11, AUTHOR, "User", "admin"),
    Person(12, "helper", "Bot", "write"),
    Person(13, "\u212aate", "User", "admin"),  # a Kelvin sign: casefolds to "kate"
    Person(14, "ro\u00df", "User", "admin"),  # a sharp s: casefolds to "ross"
)
BY_ID = {p.user_id: p for p in PEOPLE}

LINES = Waivable(
    "LINES",
    (
        Waiver(("LINES",), logins=("Alice", "kate", "ROSS"), ids=(7,)),
        Waiver(("LINES",), associations=("MEMBER",), permission="maintain"),
    ),
)
ANYONE = Waivable("LINES", (Waiver(("LINES",), permission="admin"),))


class TableFacts:
    """`Facts` from a table: access by account, the head's writers, the last base change."""

    def __init__(
        self,
        people: dict[int, Person],
        writers: frozenset[int] = frozenset(),
        base_at: datetime | None = None,
        renamed: dict[str, int] | None = None,
    ) -> None:
        self.people = people
        self.writers = writers
        self.base_at = base_at
        self.renamed = renamed or {}
        self.asked: list[int | None] = []

    def access(self, review: Review) -> Access:
        self.asked.append(review.user_id)
        owner = self.renamed.get(review.login, review.user_id)
        person = self.people.get(owner) if owner is not None else None
        return Access(owner, person.level if person else "none")

    def head_writers(self) -> frozenset[int]:
        return self.writers

    def base_changed_at(self) -> datetime | None:
        return self.base_at


def review_of(
    review_id: int, who: Person | None, state: str, commit: str | None, minute: int, assoc: str
) -> Review:
    return Review(
        id=review_id,
        login=who.login if who else "",
        user_id=who.user_id if who else None,
        state=state,
        commit_id=commit,
        submitted_at=None if state == "PENDING" else T0 + timedelta(minutes=minute),
        association=assoc,
        user_type=who.user_type if who else "",
    )


people = st.sampled_from([*PEOPLE, None])
# Weighted toward approvals of the head, so most histories decide something.
states = st.sampled_from(
    ["APPROVED"] * 5
    + ["CHANGES_REQUESTED"] * 2
    + ["DISMISSED", "COMMENTED", "PENDING", "approved", "ESCALATED"]
)
associations = st.sampled_from(["MEMBER", "OWNER", "COLLABORATOR", "CONTRIBUTOR", "NONE", ""])


@st.composite
def histories(draw: st.DrawFn) -> list[Review]:
    """Reviews with distinct ids, listed in any order (times decide, not the listing)."""
    size = draw(st.integers(0, 8))
    out = []
    for index in range(size):
        out.append(
            review_of(
                100 + index,
                draw(people),
                draw(states),
                draw(st.sampled_from([HEAD, HEAD, HEAD, OLD, None])),
                draw(st.integers(0, 20)),
                draw(associations),
            )
        )
    return draw(st.permutations(out))


def oracle(
    rule: Waivable,
    history: list[Review],
    *,
    writers: frozenset[int] = frozenset(),
    base_at: datetime | None = None,
) -> set[int]:
    """The accounts whose approval waives `rule`, from the docs' words alone."""
    ordered_history = sorted(
        (r for r in history if r.submitted_at is not None), key=lambda r: (r.submitted_at, r.id)
    )
    latest: dict[int, Review] = {}
    for r in ordered_history:
        if r.user_id is not None and r.state not in ("COMMENTED", "PENDING"):
            latest[r.user_id] = r

    def names(w: Waiver, r: Review) -> bool:
        if not (w.logins or w.ids or w.associations):
            return True
        ascii_same = any(x.encode().lower() == r.login.encode().lower() for x in w.logins)
        return ascii_same or r.user_id in w.ids or r.association in w.associations

    def qualifies(r: Review) -> bool:
        order = ["none", "read", "triage", "write", "maintain", "admin"]
        person = BY_ID[r.user_id] if r.user_id is not None else None
        return person is not None and any(
            names(w, r) and order.index(person.level) >= order.index(w.permission) for w in rule.by
        )

    blockers = [
        r
        for r in latest.values()
        if r.state == "CHANGES_REQUESTED" and r.user_type != "Bot" and qualifies(r)
    ]
    out = set()
    for r in latest.values():
        person = BY_ID[r.user_id] if r.user_id is not None else None
        if (
            r.state == "APPROVED"
            and person is not None
            and person.user_type != "Bot"
            and not person.login.endswith("[bot]")
            and person.login.lower() != AUTHOR
            and r.commit_id == HEAD
            and (base_at is None or (r.submitted_at is not None and r.submitted_at > base_at))
            and r.user_id not in writers
            and qualifies(r)
        ):
            out.add(r.user_id)
    return set() if blockers else out


@settings(max_examples=500, deadline=None)
@given(histories(), st.sampled_from([LINES, ANYONE]))
def test_a_rule_is_waived_exactly_when_the_oracle_says(
    history: list[Review], rule: Waivable
) -> None:
    decision = decide([rule], history, author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID))
    expected = oracle(rule, history)
    assert bool(decision.waived) == bool(expected)
    for item in decision.waived:
        assert item.user_id in expected and item.commit == HEAD


@settings(max_examples=300, deadline=None)
@given(histories(), st.lists(st.sampled_from(list(BY_ID)), max_size=3))
def test_whoever_wrote_the_head_commit_does_not_approve_it(
    history: list[Review], writer_ids: list[int]
) -> None:
    writers = frozenset(writer_ids)
    decision = decide([LINES], history, author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID, writers))
    assert bool(decision.waived) == bool(oracle(LINES, history, writers=writers))
    assert all(item.user_id not in writers for item in decision.waived)


@settings(max_examples=300, deadline=None)
@given(histories(), st.integers(-1, 21))
def test_an_approval_before_the_last_base_change_does_not_count(
    history: list[Review], minute: int
) -> None:
    base_at = T0 + timedelta(minutes=minute)
    decision = decide(
        [LINES], history, author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID, base_at=base_at)
    )
    assert bool(decision.waived) == bool(oracle(LINES, history, base_at=base_at))


@pytest.mark.parametrize("person", [p for p in PEOPLE if p.login != "alice" and p.user_id != 7])
@pytest.mark.parametrize("association", ["NONE", "CONTRIBUTOR", "COLLABORATOR"])
def test_a_listed_login_matches_only_in_ascii_letter_case(person: Person, association: str) -> None:
    """Look-alikes of the listed logins (a dotless i, a zero-width space; a
    Kelvin sign and a sharp s, which Unicode's case fold turns into `k` and
    `ss`) with admin access waive nothing: GitHub compares logins in ASCII."""
    only_login = Waivable("LINES", (Waiver(("LINES",), logins=("Alice", "kate", "ROSS")),))
    reviews = [review_of(1, person, APPROVED, HEAD, 1, association)]
    decision = decide([only_login], reviews, author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID))
    assert decision.waived == ()


@pytest.mark.parametrize("spelling", ["alice", "ALICE", "aLiCe"])
def test_a_listed_login_matches_in_any_ascii_letter_case(spelling: str) -> None:
    only_login = Waivable("LINES", (Waiver(("LINES",), logins=(spelling,)),))
    reviews = [review_of(1, PEOPLE[0], APPROVED, HEAD, 1, "NONE")]
    decision = decide([only_login], reviews, author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID))
    assert [w.user_id for w in decision.waived] == [1]


@pytest.mark.parametrize("level", ["none", "read", "triage"])
@pytest.mark.parametrize("association", ["OWNER", "MEMBER", "COLLABORATOR"])
def test_association_is_not_permission(level: str, association: str) -> None:
    """A reviewer the waiver names by association or login waives nothing
    without write access now (a member of a public repository's organization
    with read access can approve)."""
    waiver = Waivable(
        "LINES", (Waiver(("LINES",), logins=("dave",), associations=("OWNER", "MEMBER")),)
    )
    dave = Person(8, "dave", "User", level)
    reviews = [review_of(1, dave, APPROVED, HEAD, 1, association)]
    facts = TableFacts({8: dave})
    decision = decide([waiver], reviews, author=AUTHOR, head=HEAD, facts=facts)
    assert decision.waived == ()
    assert any(f"{level} access to the repository now" in note for note in decision.notes)


@pytest.mark.parametrize(
    ("level", "wanted", "waives"),
    [
        ("write", "write", True),
        ("maintain", "write", True),
        ("write", "maintain", False),
        ("maintain", "maintain", True),
        ("maintain", "admin", False),
        ("admin", "admin", True),
    ],
)
def test_the_waivers_permission_is_the_least_access(level: str, wanted: str, waives: bool) -> None:
    waiver = Waivable("LINES", (Waiver(("LINES",), logins=("dave",), permission=wanted),))
    dave = Person(8, "dave", "User", level)
    reviews = [review_of(1, dave, APPROVED, HEAD, 1, "NONE")]
    decision = decide([waiver], reviews, author=AUTHOR, head=HEAD, facts=TableFacts({8: dave}))
    assert bool(decision.waived) is waives


def test_a_login_renamed_away_and_taken_by_someone_else_waives_nothing() -> None:
    """The review names account 3 under the login `alice`, but the permission
    API answers for account 1 (who holds `alice` now): not the reviewer."""
    impostor = Person(30, "alice", "User", "admin")
    reviews = [review_of(1, impostor, APPROVED, HEAD, 1, "NONE")]
    facts = TableFacts({**BY_ID, 30: impostor}, renamed={"alice": 1})
    decision = decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=facts)
    assert decision.waived == ()
    assert any("now names another account" in note for note in decision.notes)


def test_a_listed_id_follows_the_account_whatever_its_login() -> None:
    renamed = Person(7, "robert", "User", "write")
    reviews = [review_of(1, renamed, APPROVED, HEAD, 1, "NONE")]
    decision = decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=TableFacts({7: renamed}))
    assert [(w.reviewer, w.user_id) for w in decision.waived] == [("robert", 7)]


def test_a_named_reviewers_request_for_changes_blocks_anothers_approval() -> None:
    carol = Person(9, "carol", "User", "maintain")
    reviews = [
        review_of(1, carol, "CHANGES_REQUESTED", OLD, 1, "MEMBER"),  # on an older commit
        review_of(2, PEOPLE[0], APPROVED, HEAD, 2, "NONE"),  # alice, listed, write
    ]
    facts = TableFacts({1: PEOPLE[0], 9: carol})
    decision = decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=facts)
    assert decision.waived == ()
    assert any(
        "carol (user 9), whom its waiver names, requests changes" in n for n in decision.notes
    )
    # Someone the waivers do not name (read access) requests changes: no block.
    facts = TableFacts({1: PEOPLE[0], 9: Person(9, "carol", "User", "read")})
    assert decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=facts).waived != ()


@pytest.mark.parametrize("state", ["ESCALATED", "approved", "", "APPROVED "])
def test_an_unknown_state_after_an_approval_voids_it(state: str) -> None:
    alice = PEOPLE[0]
    reviews = [
        review_of(1, alice, APPROVED, HEAD, 1, "NONE"),
        review_of(2, alice, state, HEAD, 2, "NONE"),
    ]
    decision = decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID))
    assert decision.waived == ()


def test_the_listing_order_decides_nothing_but_times_and_ids_do() -> None:
    alice = PEOPLE[0]
    approve = review_of(1, alice, APPROVED, HEAD, 1, "NONE")
    dismiss = review_of(2, alice, "CHANGES_REQUESTED", HEAD, 2, "NONE")
    for listing in ([approve, dismiss], [dismiss, approve], [dismiss, approve, dismiss]):
        assert (
            decide([LINES], listing, author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID)).waived == ()
        )
    # Same second: the larger id is the later review.
    same = review_of(0, alice, "CHANGES_REQUESTED", HEAD, 1, "NONE")
    assert decide(
        [LINES], [approve, same], author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID)
    ).waived


@pytest.mark.parametrize(
    "twin",
    [
        {"state": "CHANGES_REQUESTED"},
        {"commit_id": OLD},
        {"submitted_at": T0},
        {"login": "bobby", "user_id": 7},
    ],
)
def test_a_review_listed_twice_with_other_contents_cannot_be_read(twin: dict[str, object]) -> None:
    from dataclasses import replace

    approve = review_of(5, PEOPLE[0], APPROVED, HEAD, 1, "NONE")
    with pytest.raises(ValueError, match="listed twice"):
        decide(
            [LINES],
            [approve, replace(approve, **twin)],  # type: ignore[arg-type]
            author=AUTHOR,
            head=HEAD,
            facts=TableFacts(BY_ID),
        )
    # Listed twice alike (a page shifted under the listing): one review.
    assert ordered([approve, approve]) == (approve,)


def test_a_submitted_review_without_a_time_cannot_be_read() -> None:
    from dataclasses import replace

    approve = replace(review_of(5, PEOPLE[0], APPROVED, HEAD, 1, "NONE"), submitted_at=None)
    with pytest.raises(ValueError, match="no submission time"):
        ordered([approve])


@pytest.mark.parametrize("bot", [PEOPLE[7], PEOPLE[9]])  # a [bot] login, a Bot type
def test_a_bots_request_for_changes_blocks_nothing(bot: Person) -> None:
    reviews = [
        review_of(1, bot, "CHANGES_REQUESTED", HEAD, 1, "MEMBER"),
        review_of(2, PEOPLE[0], APPROVED, HEAD, 2, "NONE"),
    ]
    decision = decide([ANYONE], reviews, author=AUTHOR, head=HEAD, facts=TableFacts(BY_ID))
    assert decision.waived == ()  # alice has write, ANYONE asks for admin
    facts = TableFacts({**BY_ID, 1: Person(1, "alice", "User", "admin")})
    assert [
        w.user_id for w in decide([ANYONE], reviews, author=AUTHOR, head=HEAD, facts=facts).waived
    ] == [1]


@pytest.mark.parametrize("writer", ["author", "committer"])
def test_the_head_commits_writer_approves_nothing_another_approves(writer: str) -> None:
    carol = Person(9, "carol", "User", "maintain")
    reviews = [review_of(1, carol, APPROVED, HEAD, 1, "MEMBER")]
    people = {9: carol, 1: PEOPLE[0]}
    facts = TableFacts(people, writers=frozenset({9}))
    decision = decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=facts)
    assert decision.waived == ()
    assert any("wrote or committed the head commit" in note for note in decision.notes)
    reviews.append(review_of(2, PEOPLE[0], APPROVED, HEAD, 2, "NONE"))
    assert [
        w.user_id for w in decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=facts).waived
    ] == [1]


def test_an_approval_at_or_before_the_base_change_does_not_count() -> None:
    reviews = [review_of(1, PEOPLE[0], APPROVED, HEAD, 5, "NONE")]
    for minute, waives in ((4, True), (5, False), (6, False)):
        facts = TableFacts(BY_ID, base_at=T0 + timedelta(minutes=minute))
        decision = decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=facts)
        assert bool(decision.waived) is waives, minute


def test_facts_are_read_only_when_an_approval_could_count() -> None:
    """No approval on the head: no permission is asked (no API call)."""
    facts = TableFacts(BY_ID)
    reviews = [review_of(1, PEOPLE[0], APPROVED, OLD, 1, "NONE")]
    assert decide([LINES], reviews, author=AUTHOR, head=HEAD, facts=facts).waived == ()
    assert facts.asked == []


@settings(max_examples=200, deadline=None)
@given(histories())
def test_an_unknown_author_waives_nothing(history: list[Review]) -> None:
    """When the payload does not say who wrote the PR, no approval counts."""
    assert decide([LINES], history, author="", head=HEAD, facts=TableFacts(BY_ID)).waived == ()


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

    from gate.commands.cli import main

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
        "    waivable by an approval from alice or a reviewer whose association is MEMBER "
        "with write access"
    )
    secrets = lines.index(next(line for line in lines if line.startswith("FAIL SECRETS")))
    assert "waivable" not in lines[secrets + 1]

    code, out = _run(capsys, repo.root, "check", "--base", "main", "--format", "json")
    data = json.loads(out)
    assert data["failed"] == ["FILES", "SECRETS"]  # offline nothing is waived
    assert data["waivable"] == [
        {
            "rule": "FILES",
            "logins": ["alice"],
            "associations": ["MEMBER"],
            "approvers": [
                {"logins": ["alice"], "ids": [], "associations": ["MEMBER"], "permission": "write"}
            ],
        }
    ]
    assert "waived" not in data

    code, out = _run(capsys, repo.root, "check", "--base", "main", "--format", "markdown")
    assert (
        "`FILES` can be waived by alice or a reviewer whose association is MEMBER with write "
        "access" in out
    )
    assert "`SECRETS` cannot be waived (no waiver in the rubric lists it)" in out

    code, out = _run(capsys, repo.root, "backtest", "--rubric-file", ".github/blast-radius.yml")
    assert (
        "  FILES: by alice or a reviewer whose association is MEMBER with write access"
        in out.splitlines()
    )
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
