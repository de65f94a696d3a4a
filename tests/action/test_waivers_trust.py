"""Waivers a maintainer really gave, end to end against the API double: each
class of way to a green check without a legitimate maintainer's approval of
the head commit, in generated variants.

1. Association is not permission: only an approver with the waiver's
   permission on the repository now (the permission API) counts; when it
   cannot be read the run could not judge.
2. A login is not an identity: logins compare as GitHub compares them (ASCII
   letters in any case), a login renamed away and taken by someone else is
   not the listed person, a listed id follows its account, a maintainer who
   left counts no more.
3. The sticky comment is the gate's: found only among the comments the
   token's own identity wrote, whatever the PR's author planted.
4. One PR, one verdict: approvals that change while a run posts are read
   again and the fresh verdict posted; a moved head keeps the comment; two
   runs at once leave one sticky comment.
5. Review data read strictly: an unknown state voids an approval, a review
   listed twice with other contents, a listing that loops or an empty answer
   could not judge, a reviewer's login never issues workflow commands.
Also: an approval from before a base change, and one by whoever wrote the
head commit, do not count; another maintainer's request for changes blocks.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest
from conftest import REPO, RUBRIC, Scenario, parse_outputs

from gate.action import action
from gate.action.publish import marker

RUBRIC_PATH = ".github/blast-radius.yml"
SPRAWL = {f"{name}.py": "X = 1\n" for name in "abcd"}  # fails F1 (limit 3) alone


def with_waivers(scenario: Scenario, approvers: str) -> Scenario:
    """A base whose rubric waives F1 on the approval of `approvers` (YAML flow mapping)."""
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    waivers = f"waivers:\n  - rules: [F1]\n    approvers: {approvers}\n"
    repo.write_many({RUBRIC_PATH: RUBRIC + waivers})
    scenario.base = repo.commit("waivers")
    repo.git("checkout", "-q", "-B", "feature", scenario.base)
    return scenario


@pytest.fixture
def waiving(scenario: Scenario) -> Scenario:
    """F1 waivable by alice (by login) or a MEMBER, with write access; alice
    and dave have write access."""
    with_waivers(scenario, "{logins: [Alice], associations: [MEMBER]}")
    for login in ("alice", "dave"):
        scenario.github.grant(REPO, login, "write")
    return scenario


def approve(s: Scenario, user: str, **kw: object) -> int:
    return s.github.add_review(REPO, s.number, user=user, **kw)  # type: ignore[no-any-return]


def waived(out: object) -> str:
    return out.outputs["waived-rules"]  # type: ignore[attr-defined,no-any-return]


# -- 1. association is not permission --------------------------------------------

ROLES = ["read", "triage", "write", "maintain", "admin", "custom:read", "custom:write"]
RANK = {"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}


CASES = [
    # (role now, the waiver's permission): every role against `maintain`, the
    # boundaries of `write` and `admin`; the pure tests hold the whole matrix.
    *((role, "maintain") for role in (None, *ROLES)),
    ("triage", "write"),
    ("write", "write"),
    ("maintain", "admin"),
    ("admin", "admin"),
]


@pytest.mark.parametrize(
    ("role", "permission", "association"),
    [(*case, ("OWNER", "MEMBER", "COLLABORATOR")[i % 3]) for i, case in enumerate(CASES)],
)
def test_an_approval_counts_only_with_the_permission_now(
    scenario: Scenario, permission: str, role: str | None, association: str
) -> None:
    """Every association a waiver may name, every role (a custom role reads
    as its base role), every permission a waiver may ask: the approval
    waives exactly when the role reaches the permission."""
    with_waivers(
        scenario, f"{{associations: [OWNER, MEMBER, COLLABORATOR], permission: {permission}}}"
    )
    scenario.push(SPRAWL)
    scenario.github.grant(REPO, "dave", role)
    approve(scenario, "dave", author_association=association)
    out = scenario.run()
    base = (role or "read").removeprefix("custom:")  # a public repository: read without a role
    expected = RANK[base] >= RANK[permission]
    assert out.code == (0 if expected else 1), out.log
    assert waived(out) == ("F1" if expected else "")


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (403, None),
        (500, None),
        (401, None),
        (200, b""),
        (200, b"[]"),
        (200, b'{"permission": "superuser", "role_name": "wizard", "user": null}'),
        (200, b'{"permission": "write"}'),
    ],
)
def test_a_permission_that_cannot_be_read_could_not_judge(
    waiving: Scenario, status: int, body: bytes | None
) -> None:
    waiving.push(SPRAWL)
    waiving.github.grant(REPO, "alice", "write")
    approve(waiving, "alice")
    if body is None:
        waiving.github.fail_always("GET", r"/collaborators/.*/permission$", status)
    else:
        waiving.github.answer_next_raw("GET", r"/collaborators/.*/permission$", status, body)
    out = waiving.run()
    assert out.code == 2, out.log
    assert out.outputs["passed"] == "false" and waived(out) == ""
    run = waiving.github.check_runs[-1]
    assert run["conclusion"] == "failure" and run["output"]["title"].startswith("could not judge")
    assert "permission" in run["output"]["title"]


def test_a_reviewer_without_an_account_waives_nothing(waiving: Scenario) -> None:
    """The permission API answers 404 for an account it does not know: no access."""
    waiving.push(SPRAWL)
    approve(waiving, "alice")
    waiving.github.fail_always("GET", r"/collaborators/alice/permission$", 404)
    out = waiving.run()
    assert out.code == 1 and waived(out) == "", out.log
    assert "GitHub knows no account named alice now" in " ".join(out.report()["notes"])


def test_no_permission_is_read_when_no_approval_could_count(waiving: Scenario) -> None:
    waiving.push(SPRAWL)
    approve(waiving, "alice", commit_id="0" * 40)  # of another commit
    out = waiving.run()
    assert out.code == 1
    asked = [r for r in waiving.github.requests if "/collaborators/" in r.path]
    assert asked == []


# -- 2. a login is not an identity ----------------------------------------------


@pytest.mark.parametrize(
    "lookalike",
    ["al\u0131ce", "al\u200bice", "alice\u00ad", "AL\u0130CE", "\uff41lice", "alic\u0435"],
)
def test_a_lookalike_login_is_not_the_listed_one(scenario: Scenario, lookalike: str) -> None:
    """A login a Unicode fold or normalization would merge with `Alice`
    (dotless i, zero-width space, soft hyphen, dotted capital I, fullwidth a,
    Cyrillic e), with admin access, waives nothing: only the listed login does."""
    with_waivers(scenario, "{logins: [Alice]}")
    scenario.push(SPRAWL)
    scenario.github.grant(REPO, lookalike, "admin")
    approve(scenario, lookalike, author_association="NONE")
    out = scenario.run()
    assert out.code == 1 and waived(out) == "", out.log


def test_a_login_renamed_away_and_taken_is_not_the_listed_person(scenario: Scenario) -> None:
    """alice renames herself; someone takes the login `alice` and approves.
    A waiver listing alice's id ignores them; one listing the login needs
    write access, which the newcomer lacks."""
    gh = scenario.github
    with_waivers(scenario, "{ids: [" + str(gh.add_user("alice")) + "]}")
    scenario.push(SPRAWL)
    gh.grant(REPO, "alice", "write")
    gh.rename_user("alice", "alice-renamed")
    gh.add_user("alice", user_id=9001)  # the login, free again, taken
    gh.grant(REPO, "alice", "write")
    approve(scenario, "alice", author_association="NONE")
    out = scenario.run()
    assert out.code == 1 and waived(out) == "", out.log
    # The real alice, under her new login, still counts: the id is the person.
    approve(scenario, "alice-renamed", author_association="NONE")
    out = scenario.run()
    assert out.code == 0 and waived(out) == "F1", out.log
    assert out.report()["waived"][0]["reviewer"] == "alice-renamed"


def test_a_login_taken_by_someone_without_access_waives_nothing(waiving: Scenario) -> None:
    gh = waiving.github
    waiving.push(SPRAWL)
    gh.add_user("alice")
    gh.rename_user("alice", "alice-elsewhere")
    gh.add_user("alice", user_id=9002)  # no role: read, on a public repository
    approve(waiving, "alice", author_association="NONE")
    out = waiving.run()
    assert out.code == 1 and waived(out) == "", out.log


def test_a_maintainer_who_left_counts_no_more(waiving: Scenario) -> None:
    head = waiving.push(SPRAWL)
    waiving.github.grant(REPO, "alice", "write")
    approve(waiving, "alice", author_association="MEMBER")
    assert waiving.run().code == 0
    waiving.github.grant(REPO, "alice", None)  # left the organization: no role
    out = waiving.run()
    assert out.code == 1 and waived(out) == "", out.log
    assert waiving.github.check_runs[-1]["head_sha"] == head


# -- 3. the sticky comment is the gate's -------------------------------------------

PLANTERS = [
    "copilot-swe-agent[bot]",  # the PR's author, an agent: a bot too
    "some-contributor",
    "renovate[bot]",
    "github-actions",  # a person whose login spells the bot's without [bot]
]


@pytest.mark.parametrize("planter", PLANTERS)
@pytest.mark.parametrize("where", ["start", "state"])
def test_a_planted_marker_comment_is_never_the_gates(
    scenario: Scenario, planter: str, where: str
) -> None:
    scenario.push({"secrets/key": "k\n"})
    tag = marker("blast-radius")
    planted = (
        tag + "\n<!-- blast-radius-gate-state:fixed -->\nall good" if where == "state" else tag
    )
    planted_id = scenario.github.add_comment(REPO, scenario.number, planted, user=planter)
    out = scenario.run()
    assert out.code == 1, out.log
    comments = scenario.github.comments_on(REPO, scenario.number)
    mine = [c for c in comments if c["user"] == "github-actions[bot]"]
    assert len(mine) == 1 and mine[0]["body"].startswith(tag)
    assert "SECRETS" in mine[0]["body"]
    (theirs,) = [c for c in comments if c["id"] == planted_id]
    assert theirs["body"] == planted  # never edited
    # The next run edits the gate's own comment, still not the planted one.
    scenario.push({"app.py": "def main():\n    return 3\n"}, remove=("secrets/key",))
    assert scenario.run().code == 0
    comments = scenario.github.comments_on(REPO, scenario.number)
    assert [c["body"] for c in comments if c["id"] == planted_id] == [planted]
    assert len([c for c in comments if c["user"] == "github-actions[bot]"]) == 1


def test_a_personal_token_finds_its_own_comment_by_user(scenario: Scenario) -> None:
    """A personal token cannot create check runs; GET /user names it, and its
    own earlier comment is the sticky one (not the author's planted copy)."""
    gh = scenario.github
    gh.token_kind = "user"
    gh.token_user = "release-maintainer"
    gh.add_user("release-maintainer")
    scenario.push({"secrets/key": "k\n"})
    gh.add_comment(REPO, scenario.number, marker("blast-radius"), user="copilot-swe-agent[bot]")
    out = scenario.run()
    assert out.code == 1, out.log
    assert "could not post the check run" in out.log
    mine = [c for c in gh.comments_on(REPO, scenario.number) if c["user"] == "release-maintainer"]
    assert len(mine) == 1
    scenario.run()
    again = [c for c in gh.comments_on(REPO, scenario.number) if c["user"] == "release-maintainer"]
    assert [c["id"] for c in again] == [mine[0]["id"]]


def test_without_a_check_run_the_comment_it_creates_names_the_identity(
    scenario: Scenario,
) -> None:
    """No check run was created (its app would name the token) and GET /user
    is refused: a failing verdict's comment is created, whose user names the
    token, and the planted comment stays as it was."""
    gh = scenario.github
    scenario.push({"secrets/key": "k\n"})
    planted = gh.add_comment(
        REPO, scenario.number, marker("blast-radius"), user="copilot-swe-agent[bot]"
    )
    gh.fail_always("POST", r"/check-runs$", 403)
    for _ in range(2):  # the second run finds the first run's comment by its user
        out = scenario.run()
        assert out.code == 1 and out.outputs["failed-rules"] == "SECRETS", out.log
    comments = gh.comments_on(REPO, scenario.number)
    assert [c["user"] for c in comments] == ["copilot-swe-agent[bot]", "github-actions[bot]"]
    assert comments[0]["id"] == planted and comments[0]["body"] == marker("blast-radius")


def test_a_pass_with_an_unknown_identity_writes_no_comment(scenario: Scenario) -> None:
    """A passing verdict under on-failure edits the gate's comment only; with
    no way to tell which that is, none is touched, and the summary says why."""
    gh = scenario.github
    scenario.push({"app.py": "def main():\n    return 2\n"})
    planted = gh.add_comment(
        REPO, scenario.number, marker("blast-radius"), user="copilot-swe-agent[bot]"
    )
    gh.fail_always("POST", r"/check-runs$", 403)
    out = scenario.run()
    assert out.code == 0, out.log
    assert [c["id"] for c in gh.comments_on(REPO, scenario.number)] == [planted]
    assert "which comments are the gate" in out.summary and "own is unknown" in out.summary


# -- 4. one PR, one verdict at a time ------------------------------------------------


def test_an_approval_dismissed_while_the_run_posts_is_not_posted_green(waiving: Scenario) -> None:
    """The run reads alice's approval; before it posts, a maintainer dismisses
    it (and the dismissal's own re-judge could post red first).  The run
    reads the reviews again after posting and posts the fresh verdict: the
    last check run is red."""
    gh = waiving.github
    waiving.push(SPRAWL)
    review_id = approve(waiving, "alice")
    gh.after_request(
        "GET",
        r"/pulls/7/reviews$",
        lambda: gh.dismiss_review(REPO, waiving.number, review_id),
    )
    out = waiving.run()
    assert out.code == 1, out.log
    assert waived(out) == ""
    assert gh.check_runs[-1]["conclusion"] == "failure"
    assert "the approvals changed while this run posted" in " ".join(out.report()["notes"])


def test_an_approval_given_while_the_run_posts_is_posted(waiving: Scenario) -> None:
    gh = waiving.github
    waiving.push(SPRAWL)
    gh.after_request("POST", r"/check-runs$", lambda: approve(waiving, "alice"))
    out = waiving.run()
    assert out.code == 0 and waived(out) == "F1", out.log
    assert [r["conclusion"] for r in gh.check_runs] == ["failure", "success"]


def test_approvals_that_never_settle_could_not_judge(waiving: Scenario) -> None:
    gh = waiving.github
    waiving.push(SPRAWL)
    approve(waiving, "alice")
    flips = iter(range(100))

    def flip() -> None:
        state = "APPROVED" if next(flips) % 2 else "CHANGES_REQUESTED"
        approve(waiving, "alice", state=state)

    gh.after_request("GET", r"/pulls/7/reviews$", flip, times=100)
    out = waiving.run()
    assert out.code == 2, out.log
    assert gh.check_runs[-1]["conclusion"] == "failure"
    assert "kept changing" in gh.check_runs[-1]["output"]["title"]


def test_a_head_that_moved_keeps_the_comment_for_the_newer_run(waiving: Scenario) -> None:
    """The head moves while judging: the judged commit still gets its check run
    (a note says so), but the PR's comment is the newer run's."""
    gh = waiving.github
    head = waiving.push({"secrets/key": "k\n"})
    env = waiving.env()
    gh.set_pull_head(REPO, waiving.number, "e" * 40)
    code = action.run(env, out=io.StringIO())
    assert code == 1
    assert gh.check_runs[-1]["head_sha"] == head
    assert "head moved" in gh.check_runs[-1]["output"]["summary"]
    assert gh.comments_on(REPO, waiving.number) == []


def test_a_base_changed_while_judging_keeps_the_comment(waiving: Scenario) -> None:
    gh = waiving.github
    waiving.push({"secrets/key": "k\n"})
    env = waiving.env()
    gh.change_base(REPO, waiving.number, "release", waiving.base)
    assert action.run(env, out=io.StringIO()) == 1
    assert "base changed to release" in gh.check_runs[-1]["output"]["summary"]
    assert gh.comments_on(REPO, waiving.number) == []


def test_two_runs_at_once_leave_one_sticky_comment(scenario: Scenario, tmp_path: Path) -> None:
    """Two runs for one PR at the same moment (a push and a review re-judge)
    each find no comment and each create one; the oldest stays, edited with
    the verdict, and the other is deleted."""
    gh = scenario.github
    scenario.push({"secrets/key": "k\n"})
    envs = []
    for name in ("one", "two"):
        env = scenario.env()
        run_dir = tmp_path / name
        run_dir.mkdir()
        for key, file in (("GITHUB_OUTPUT", "output"), ("GITHUB_STEP_SUMMARY", "summary")):
            (run_dir / file).touch()
            env[key] = str(run_dir / file)
        envs.append(env)
    barrier = threading.Barrier(2)

    def wait_for_the_other() -> None:
        barrier.wait(timeout=30)  # both have listed the comments and found none

    gh.after_request("GET", r"/issues/7/comments$", wait_for_the_other, times=2)
    codes: list[int] = []
    threads = [
        threading.Thread(target=lambda e=env: codes.append(action.run(e, out=io.StringIO())))
        for env in envs
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert codes == [1, 1]
    comments = gh.comments_on(REPO, scenario.number)
    assert len(comments) == 1, comments
    assert "SECRETS" in comments[0]["body"]
    deletes = [r for r in gh.requests if r.method == "DELETE"]
    assert len(deletes) >= 1


# -- 5. review data read strictly ------------------------------------------------------


@pytest.mark.parametrize("state", ["ESCALATED", "approved", "APPROVED_WITH_NOTES", "Approved"])
def test_an_unknown_state_after_an_approval_voids_it(waiving: Scenario, state: str) -> None:
    waiving.push(SPRAWL)
    approve(waiving, "alice")
    approve(waiving, "alice", state=state)
    out = waiving.run()
    assert out.code == 1 and waived(out) == "", out.log


@pytest.mark.parametrize("later", ["CHANGES_REQUESTED", "DISMISSED", "APPROVED"])
def test_a_review_listed_twice_with_other_contents_could_not_judge(
    waiving: Scenario, later: str
) -> None:
    gh = waiving.github
    waiving.push(SPRAWL)
    review_id = approve(
        waiving, "alice", state="CHANGES_REQUESTED" if later == "APPROVED" else "APPROVED"
    )
    listed = gh.reviews[(REPO, waiving.number)]
    listed.append({**listed[0], "state": later})  # the same id again, its last listing other
    out = waiving.run()
    assert out.code == 2, out.log
    assert f"review {review_id} is listed twice" in out.log


def test_a_review_listed_twice_alike_is_one_review(waiving: Scenario) -> None:
    gh = waiving.github
    waiving.push(SPRAWL)
    approve(waiving, "alice")
    listed = gh.reviews[(REPO, waiving.number)]
    listed.append(dict(listed[0]))
    out = waiving.run()
    assert out.code == 0 and waived(out) == "F1", out.log


@pytest.mark.parametrize(
    "listing", [r"/pulls/7/reviews$", r"/issues/7/events$", r"/issues/7/comments$"]
)
def test_a_listing_that_loops_could_not_judge_or_is_not_published(
    waiving: Scenario, listing: str
) -> None:
    waiving.push(SPRAWL)
    approve(waiving, "alice")
    waiving.github.loop_listing(listing)
    out = waiving.run()
    if "comments" in listing:  # publishing: a warning, the verdict stands
        assert out.code == 0, out.log
        assert "the listing does not end" in out.summary
        return
    assert out.code == 2, out.log
    assert "the listing does not end" in out.log


@pytest.mark.parametrize(
    "body", [b"", b"{}", b'{"message": "ok"}', b"null", b"[1, 2]", b"not json"]
)
def test_a_reviews_page_that_is_not_a_list_could_not_judge(waiving: Scenario, body: bytes) -> None:
    waiving.push(SPRAWL)
    approve(waiving, "alice")
    waiving.github.answer_next_raw("GET", r"/pulls/7/reviews$", 200, body)
    out = waiving.run()
    assert out.code == 2, out.log
    assert waiving.github.check_runs[-1]["conclusion"] == "failure"


@pytest.mark.parametrize(
    "login",
    [
        "alice\n::error::pwned",
        "alice\r\n::set-output name=passed::true",
        "alice ##[error]pwned",
        "alice%0A::error::pwned",
    ],
)
def test_a_reviewers_login_never_issues_workflow_commands(scenario: Scenario, login: str) -> None:
    """A waiver naming anyone with write access, and a reviewer whose login
    carries workflow commands: the login reaches the log only fenced."""
    with_waivers(scenario, "{permission: write}")
    scenario.push(SPRAWL)
    scenario.github.add_user(login)
    scenario.github.grant(REPO, login, "write")
    approve(scenario, login)
    out = scenario.run()
    assert out.code == 0, out.log
    fenced = None
    for line in out.log.splitlines():
        if fenced is None and line.startswith("::stop-commands::"):
            fenced = "::" + line.removeprefix("::stop-commands::") + "::"
        elif fenced is not None:
            fenced = None if line == fenced else fenced
        else:  # a line the runner reads for commands: only the gate's own
            assert not line.startswith(("::error::pwned", "::set-output")), out.log
            assert "##[error]" not in line, out.log


# -- also: a base change, the head's writer, a request for changes ----------------------


def test_an_approval_from_before_a_base_change_does_not_count(waiving: Scenario) -> None:
    gh = waiving.github
    waiving.push(SPRAWL)
    approve(waiving, "alice")
    gh.add_issue_event(REPO, waiving.number, "base_ref_changed")
    out = waiving.run()
    assert out.code == 1 and waived(out) == "", out.log
    assert "before the pull request's base branch last changed" in " ".join(out.report()["notes"])
    approve(waiving, "alice")  # approved again, after the change
    assert waiving.run().code == 0


@pytest.mark.parametrize("event", ["base_ref_changed", "automatic_base_change_succeeded"])
def test_base_changes_that_cannot_be_read_could_not_judge(waiving: Scenario, event: str) -> None:
    waiving.push(SPRAWL)
    waiving.github.add_issue_event(REPO, waiving.number, event)
    approve(waiving, "alice")
    waiving.github.fail_always("GET", r"/issues/7/events$", 500)
    out = waiving.run()
    assert out.code == 2, out.log
    assert "base changes could not be read" in out.log


@pytest.mark.parametrize(
    ("author", "committer"), [("alice", None), (None, "alice"), ("alice", "alice")]
)
def test_whoever_wrote_the_head_commit_does_not_approve_it(
    waiving: Scenario, author: str | None, committer: str | None
) -> None:
    head = waiving.push(SPRAWL)
    waiving.github.set_commit_people(REPO, head, author=author, committer=committer)
    approve(waiving, "alice")
    out = waiving.run()
    assert out.code == 1 and waived(out) == "", out.log
    assert "wrote or committed the head commit" in " ".join(out.report()["notes"])
    approve(waiving, "dave")  # another maintainer (a MEMBER with write access)
    assert waiving.run().code == 0


def test_another_maintainers_request_for_changes_blocks_the_waiver(waiving: Scenario) -> None:
    waiving.push(SPRAWL)
    approve(waiving, "dave", state="CHANGES_REQUESTED", commit_id="0" * 40)
    approve(waiving, "alice")
    out = waiving.run()
    assert out.code == 1 and waived(out) == "", out.log
    assert "requests changes" in " ".join(out.report()["notes"])
    # A reader's request for changes (not someone the waiver names) does not block.
    waiving.github.grant(REPO, "dave", "read")
    assert waiving.run().code == 0


def test_a_review_run_rejudge_reads_everything_again(waiving: Scenario) -> None:
    """The review workflow's run ends, the PR is re-judged from the API: the
    permission is read for that run too (no verdict is carried over)."""
    import json

    waiving.push(SPRAWL)
    approve(waiving, "alice")
    waiving.event_name = "workflow_run"
    env = waiving.env()
    event = {"workflow_run": {"display_title": f"blast-radius review of #{waiving.number}"}}
    with open(env["GITHUB_EVENT_PATH"], "w", encoding="utf-8") as fh:
        json.dump(event, fh)
    assert action.run(env, out=io.StringIO()) == 0
    waiving.github.grant(REPO, "alice", "read")
    assert action.run(env, out=io.StringIO()) == 1
    outputs = parse_outputs(Path(env["GITHUB_OUTPUT"]).read_text(encoding="utf-8"))
    assert outputs["waived-rules"] == ""  # the second run's, the last written
