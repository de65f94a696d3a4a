"""Waivers in the Action, end to end against the API double: a listed
maintainer's approval of the judged head clears a flagged rule; a new push,
a dismissal, a later request for changes, the author's own approval, a bot's
and an association the waiver does not name do not; built-in `gate.*` rules
and rules no waiver lists are never cleared."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, RUBRIC, Scenario, parse_outputs

from gate.action import action

RUBRIC_PATH = ".github/blast-radius.yml"
WAIVERS = """\
waivers:
  - rules: [F1]
    approvers:
      logins: [Alice]
      associations: [MEMBER]
"""
SPRAWL = {f"{name}.py": "X = 1\n" for name in "abcd"}  # fails F1 (limit 3) alone
SECRET = {"secrets/key": "k\n"}


@pytest.fixture
def waiving(scenario: Scenario) -> Scenario:
    """The scenario with a base whose rubric waives F1 on alice's or a MEMBER's
    approval (with write access); alice and dave have write access."""
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    repo.write_many({RUBRIC_PATH: RUBRIC + WAIVERS})
    scenario.base = repo.commit("waivers")
    repo.git("checkout", "-q", "-B", "feature", scenario.base)
    for login in ("alice", "dave"):
        scenario.github.grant(REPO, login, "write")
    return scenario


def review(s: Scenario, user: str, state: str = "APPROVED", **kw: Any) -> int:
    return s.github.add_review(REPO, s.number, user=user, state=state, **kw)


def reviews_read(s: Scenario) -> int:
    return sum(1 for r in s.github.requests if r.path.endswith(f"/pulls/{s.number}/reviews"))


def test_an_approval_of_the_head_waives_and_the_check_passes(waiving: Scenario) -> None:
    head = waiving.push(SPRAWL)
    review(waiving, "alice", author_association="NONE")  # listed by login (any case)

    out = waiving.run()

    assert out.code == 0, out.log
    assert out.outputs["passed"] == "true"
    assert out.outputs["failed-rules"] == ""
    assert out.outputs["waived-rules"] == "F1"
    run = waiving.github.check_runs[-1]
    assert run["head_sha"] == head and run["conclusion"] == "success", run
    assert "waived" in run["output"]["title"] and "alice" in run["output"]["title"]
    assert run["output"]["annotations"] == []  # a waived rule is not annotated
    report = out.report()
    assert report["pass"] is True and report["failed"] == []
    alice = waiving.github.user_id("alice")
    assert report["waived"] == [
        {
            "rule": "F1",
            "reviewer": "alice",
            "user_id": alice,
            "access": "write",
            "association": "NONE",
            "commit": head,
        }
    ]
    assert [r["pass"] for r in report["results"] if r["id"] == "F1"] == [False]
    assert "waived by alice" in out.summary and head[:12] in out.summary
    assert "pass (waived)" in run["output"]["summary"]


def test_a_failing_pr_names_the_next_step(waiving: Scenario) -> None:
    """The comment: F1 can be waived by approving at this commit; SECRETS cannot."""
    head = waiving.push({**SPRAWL, **SECRET})
    out = waiving.run()
    assert out.code == 1, out.log
    (comment,) = waiving.github.comments_on(REPO, waiving.number)
    body = comment["body"]
    assert "**Next step:**" in body
    assert f"approve this pull request at commit `{head[:12]}`" in body
    assert (
        "`F1` can be waived by Alice or a reviewer whose association is MEMBER with write access"
        in body
    )
    assert "`SECRETS` cannot be waived (no waiver in the rubric lists it)" in body
    # Nothing was approved: the reviews were read (to judge, and again after
    # posting, to see that none changed meanwhile), and nothing is waived.
    assert reviews_read(waiving) == 2 and out.outputs["waived-rules"] == ""


def test_a_rule_no_waiver_lists_keeps_the_check_red(waiving: Scenario) -> None:
    waiving.push({**SPRAWL, **SECRET})
    review(waiving, "alice")
    out = waiving.run()
    assert out.code == 1, out.log
    assert out.outputs["failed-rules"] == "SECRETS"
    assert out.outputs["waived-rules"] == "F1"
    assert waiving.github.check_runs[-1]["conclusion"] == "failure"


def test_a_builtin_rule_is_never_waived(waiving: Scenario) -> None:
    """The PR edits the rubric (gate.rubric-edited) and sprawls (F1): an approval
    clears F1 only; no rubric can list a gate.* id (the loader refuses it)."""
    rubric = (waiving.repo.root / RUBRIC_PATH).read_text(encoding="utf-8")
    waiving.push({**SPRAWL, RUBRIC_PATH: rubric + "# tidied\n"})
    review(waiving, "alice")
    out = waiving.run()
    assert out.code == 1, out.log
    assert out.outputs["failed-rules"] == "gate.rubric-edited"
    assert out.outputs["waived-rules"] == "F1"
    (comment,) = waiving.github.comments_on(REPO, waiving.number)
    body = comment["body"]
    assert "`gate.rubric-edited` cannot be waived (a built-in rule, never waived)" in body


def test_a_new_push_voids_the_approval(waiving: Scenario) -> None:
    waiving.push(SPRAWL)
    review(waiving, "alice")
    assert waiving.run().code == 0
    new_head = waiving.push({"e.py": "X = 2\n"})
    out = waiving.run()
    assert out.code == 1, out.log
    assert out.outputs["waived-rules"] == "" and out.outputs["failed-rules"] == "F1"
    assert waiving.github.check_runs[-1]["head_sha"] == new_head
    notes = " ".join(out.report()["notes"])
    assert "a new push voids an approval" in notes


def test_a_dismissed_approval_does_not_count(waiving: Scenario) -> None:
    waiving.push(SPRAWL)
    review_id = review(waiving, "alice")
    assert waiving.run().code == 0
    waiving.github.dismiss_review(REPO, waiving.number, review_id)
    out = waiving.run()
    assert out.code == 1, out.log
    assert out.outputs["waived-rules"] == ""


@pytest.mark.parametrize(
    ("later", "code"),
    [("CHANGES_REQUESTED", 1), ("DISMISSED", 1), ("COMMENTED", 0), ("PENDING", 0)],
)
def test_only_a_later_state_changing_review_voids_an_approval(
    waiving: Scenario, later: str, code: int
) -> None:
    waiving.push(SPRAWL)
    review(waiving, "alice")
    review(waiving, "ALICE", later)  # the same reviewer, another spelling
    out = waiving.run()
    assert out.code == code, out.log


def test_the_authors_own_approval_does_not_count(waiving: Scenario) -> None:
    waiving.push(SPRAWL, user="Alice")
    review(waiving, "alice")  # the author, listed by login, a MEMBER
    out = waiving.run()
    assert out.code == 1, out.log
    assert "cannot approve their own change" in " ".join(out.report()["notes"])


@pytest.mark.parametrize(
    ("user", "user_type"), [("helper[bot]", None), ("helper", "Bot"), ("Alice", "Bot")]
)
def test_a_bots_approval_does_not_count(
    waiving: Scenario, user: str, user_type: str | None
) -> None:
    waiving.push(SPRAWL)
    review(waiving, user, user_type=user_type)  # a MEMBER, or listed by login
    out = waiving.run()
    assert out.code == 1, out.log
    assert "a bot's approval never counts" in " ".join(out.report()["notes"])


@pytest.mark.parametrize(
    ("association", "code"),
    [("MEMBER", 0), ("OWNER", 1), ("COLLABORATOR", 1), ("CONTRIBUTOR", 1), ("NONE", 1)],
)
def test_the_waivers_associations_decide(waiving: Scenario, association: str, code: int) -> None:
    """The waiver names MEMBER: a MEMBER with write access who is not listed
    by login counts; others do not."""
    waiving.push(SPRAWL)
    review(waiving, "dave", author_association=association)
    out = waiving.run()
    assert out.code == code, out.log


def test_an_approval_of_an_older_commit_does_not_count(waiving: Scenario) -> None:
    first = waiving.push(SPRAWL)
    waiving.push({"e.py": "X = 2\n"})
    review(waiving, "alice", commit_id=first)
    out = waiving.run()
    assert out.code == 1, out.log


def test_a_change_to_the_workflows_is_never_waived(waiving: Scenario) -> None:
    waiving.push({**SPRAWL, ".github/workflows/blast-radius-review.yml": "on: push\n"})
    review(waiving, "alice")
    out = waiving.run()
    assert out.code == 1, out.log
    assert "F1" in out.outputs["failed-rules"].split(",")
    assert "no approval waives a rule" in " ".join(out.report()["notes"])


def test_unreadable_reviews_could_not_judge(waiving: Scenario) -> None:
    """A waivable failure whose reviews cannot be read has no known verdict:
    exit 2 and a "could not judge" check, never a pass and never a plain
    failure."""
    waiving.push(SPRAWL)
    review(waiving, "alice")
    waiving.github.fail_always("GET", r"/reviews$", 403)
    out = waiving.run()
    assert out.code == 2, out.log
    assert "reviews could not be read" in out.log


def test_without_waivers_the_reviews_are_never_read(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    review(scenario, "alice")
    out = scenario.run()
    assert out.code == 1, out.log
    assert reviews_read(scenario) == 0
    assert "waived-rules" in out.outputs and out.outputs["waived-rules"] == ""
    assert "waivable" not in out.report()


def test_a_review_run_rejudges_the_pr_it_names(waiving: Scenario) -> None:
    """workflow_run (the review workflow ended): the PR comes from the run's
    title, is read from the API at its head now, and is judged in full."""
    head = waiving.push(SPRAWL)
    review(waiving, "alice")
    waiving.event_name = "workflow_run"
    event = {
        "action": "completed",
        "workflow_run": {"display_title": f"blast-radius review of #{waiving.number}"},
    }
    env = waiving.env()
    with open(env["GITHUB_EVENT_PATH"], "w", encoding="utf-8") as fh:
        json.dump(event, fh)
    code = action.run(env, out=io.StringIO())
    assert code == 0
    outputs = parse_outputs(Path(env["GITHUB_OUTPUT"]).read_text(encoding="utf-8"))
    assert outputs["waived-rules"] == "F1"
    assert waiving.github.check_runs[-1]["head_sha"] == head


def test_a_review_run_that_names_no_pr_cannot_judge(waiving: Scenario) -> None:
    waiving.push(SPRAWL)
    waiving.event_name = "workflow_run"
    env = waiving.env()
    with open(env["GITHUB_EVENT_PATH"], "w", encoding="utf-8") as fh:
        json.dump({"workflow_run": {"display_title": "something", "pull_requests": []}}, fh)
    assert action.run(env, out=io.StringIO()) == 2


def test_a_queue_entry_of_the_approved_head_alone_keeps_the_waiver(waiving: Scenario) -> None:
    head = waiving.push(SPRAWL)
    review(waiving, "alice")
    waiving.enqueue()
    out = waiving.run()
    assert out.code == 0, out.log
    assert out.report()["waived"][0]["commit"] == head


def test_a_queue_entry_with_more_than_the_approved_head_loses_the_waiver(
    waiving: Scenario,
) -> None:
    waiving.push(SPRAWL)
    review(waiving, "alice")
    waiving.enqueue(also={"z.py": "Z = 1\n"})  # another PR grouped into the entry
    out = waiving.run()
    assert out.code == 1, out.log
    assert "holds more than its base merged with the approved head" in " ".join(
        out.report()["notes"]
    )


def test_a_queue_run_reads_the_reviews_again(waiving: Scenario) -> None:
    """An approval dismissed after the PR's green run no longer waives in the queue."""
    waiving.push(SPRAWL)
    review_id = review(waiving, "alice")
    assert waiving.run().code == 0
    waiving.github.dismiss_review(REPO, waiving.number, review_id)
    waiving.enqueue()
    out = waiving.run()
    assert out.code == 1, out.log
    assert out.outputs["waived-rules"] == ""


@pytest.mark.parametrize(
    ("run", "number"),
    [
        ({"pull_requests": [{"number": 12}], "display_title": "review of #7"}, 12),
        ({"pull_requests": [], "display_title": "blast-radius review of #7"}, 7),
        ({"pull_requests": [{"number": 1}, {"number": 2}], "display_title": "x #9"}, 9),
        ({"pull_requests": [{"number": True}], "display_title": "x #3"}, 3),
        ({"display_title": "x #0"}, None),
        ({"display_title": "#7 and more"}, None),
        ({"display_title": 7}, None),
        ({}, None),
    ],
)
def test_the_review_run_names_its_pull_request(run: dict[str, Any], number: int | None) -> None:
    """GitHub's own pull_requests list first (one entry), else the run title's
    trailing #N; anything else cannot judge."""
    from gate.action.event import review_run_number
    from gate.base.errors import GateError

    if number is None:
        with pytest.raises(GateError, match="names no pull request"):
            review_run_number({"workflow_run": run}, "event.json")
    else:
        assert review_run_number({"workflow_run": run}, "event.json") == number
