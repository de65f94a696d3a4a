"""`gate action` under merge_group: the queue's commit, the rubric at its base, the PR's comment.

Payloads come from the double's `merge_group_payload`, which checks them against
GitHub's webhook schema (`merge-group-checks-requested` in @octokit/openapi).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, Scenario
from hypothesis import given
from hypothesis import strategies as st

from gate.action import merge_queue
from gate.action.publish import marker
from gate.base.errors import GateError
from gate.model.change import FileChange

RUBRIC_PATH = ".github/blast-radius.yml"
SMALL_FIX = {"app.py": "def main():\n    return 2\n", "lib/util.py": "X = 2\n"}


def on_main(scenario: Scenario, files: dict[str, str], message: str = "main moves") -> str:
    """Commit `files` on the base branch (main moving on after the PR was approved)."""
    scenario.repo.git("checkout", "-q", "main")
    scenario.repo.write_many(files)
    sha = scenario.repo.commit(message)
    scenario.repo.git("checkout", "-q", "feature")
    return sha


def tightened_rubric(scenario: Scenario) -> str:
    text = (scenario.repo.root / RUBRIC_PATH).read_text(encoding="utf-8")
    assert "limit: 3" in text
    return text.replace("limit: 3", "limit: 1")


def queue_run(scenario: Scenario) -> dict[str, Any]:
    runs = [r for r in scenario.github.check_runs if r["head_sha"] == scenario.queue[1]]  # type: ignore[index]
    assert len(runs) == 1, scenario.github.check_runs
    run: dict[str, Any] = runs[0]
    return run


def test_queue_entry_gets_the_check_run_on_its_head(scenario: Scenario) -> None:
    pr_head = scenario.push(SMALL_FIX)
    assert scenario.run().code == 0  # the PR itself passes
    base, head = scenario.enqueue()
    out = scenario.run()
    assert out.code == 0, out.log
    run = queue_run(scenario)
    assert run["name"] == "blast-radius" and run["conclusion"] == "success"
    assert head != pr_head
    report = out.report()
    assert (report["base"], report["head"]) == (base, head)
    assert report["stats"]["files_touched"] == 2
    assert any("merge queue entry for pull request #7" in n for n in report["notes"])
    assert "merge queue entry for pull request #7" in out.log
    assert out.outputs["passed"] == "true"


def test_rubric_tightened_after_approval_applies_in_the_queue(scenario: Scenario) -> None:
    scenario.push(SMALL_FIX)
    assert scenario.run().code == 0
    assert scenario.github.comments_on(REPO, scenario.number) == []
    tip = on_main(scenario, {RUBRIC_PATH: tightened_rubric(scenario)}, "tighten F1")
    base, _head = scenario.enqueue(onto=tip)
    assert base == tip
    out = scenario.run()
    assert out.code == 1
    run = queue_run(scenario)
    assert run["conclusion"] == "failure"
    assert run["output"]["title"] == "1 rule failed: F1"
    report = out.report()
    assert report["failed"] == ["F1"] and report["base"] == tip
    # The sticky comment goes on the pull request the entry adds.
    comments = scenario.github.comments_on(REPO, scenario.number)
    assert len(comments) == 1 and comments[0]["body"].startswith(marker("blast-radius"))
    assert "merge queue entry" in comments[0]["body"]


def test_queue_base_is_the_entry_ahead(scenario: Scenario) -> None:
    """An entry behind another is judged on what it adds to that entry, not to main."""
    scenario.push(SMALL_FIX)
    ahead = on_main(scenario, {f"other/f{i}.py": "x\n" for i in range(5)}, "entry ahead")
    scenario.repo.git("update-ref", "refs/heads/main", scenario.base)  # main has not moved
    scenario.enqueue(onto=ahead)
    out = scenario.run()
    assert out.code == 0, out.log
    report = out.report()
    assert report["base"] == ahead and report["stats"]["files_touched"] == 2


def test_grouped_entry_is_judged_as_one_change(scenario: Scenario) -> None:
    scenario.push(SMALL_FIX)
    scenario.enqueue(also={"docs/a.md": "a\n", "docs/b.md": "b\n"})
    out = scenario.run()
    assert out.code == 1
    assert out.report()["failed"] == ["F1"]
    assert out.report()["stats"]["files_touched"] == 4


def applies_to_agents(scenario: Scenario) -> None:
    text = (scenario.repo.root / RUBRIC_PATH).read_text(encoding="utf-8")
    rubric = "applies_to:\n  authors: ['copilot-swe-agent[bot]']\n" + text
    scenario.base = on_main(scenario, {RUBRIC_PATH: rubric}, "applies_to")
    scenario.repo.git("checkout", "-q", "-B", "feature", scenario.base)


def test_applies_to_skips_a_queue_entry_that_is_the_pr_alone(scenario: Scenario) -> None:
    applies_to_agents(scenario)
    scenario.push({f"lib/m{i}.py": "x\n" for i in range(5)}, user="maintainer")
    assert scenario.run().code == 0
    scenario.enqueue()
    out = scenario.run()
    assert out.code == 0
    run = queue_run(scenario)
    assert run["conclusion"] == "neutral"
    assert out.report()["skipped"] is True


def test_applies_to_cannot_skip_a_group_holding_other_changes(scenario: Scenario) -> None:
    applies_to_agents(scenario)
    scenario.push({"lib/m0.py": "x\n"}, user="maintainer")
    scenario.enqueue(also={f"agent/f{i}.py": "x\n" for i in range(5)})
    out = scenario.run()
    assert out.code == 1
    assert queue_run(scenario)["conclusion"] == "failure"
    report = out.report()
    assert report["failed"] == ["F1"]
    assert any("not that pull request's change alone" in n for n in report["notes"])


def test_queue_without_a_checkout_fails_closed(scenario: Scenario, tmp_path: Path) -> None:
    scenario.push(SMALL_FIX)
    scenario.enqueue()
    empty = tmp_path / "empty"
    empty.mkdir()
    scenario.workspace = empty
    out = scenario.run()
    assert out.code == 2
    assert "actions/checkout" in out.log and "fetch-depth: 0" in out.log
    assert queue_run(scenario)["output"]["title"].startswith("could not judge")


def write_event(scenario: Scenario, event: dict[str, Any]) -> dict[str, str]:
    env = scenario.env()
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event), encoding="utf-8")
    return env


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda e: e.update(action="destroyed"), "checks_requested"),
        (lambda e: e["merge_group"].update(head_ref="refs/heads/feature"), "does not name"),
        (lambda e: e["merge_group"].pop("base_sha"), "merge_group.base_sha"),
        (lambda e: e["merge_group"].update(head_sha="HEAD"), "not a full commit SHA"),
        (lambda e: e.pop("merge_group"), "no merge_group object"),
    ],
)
def test_unusable_payload_exits_2(scenario: Scenario, edit: Any, needle: str) -> None:
    import io

    from gate.action import action

    scenario.push(SMALL_FIX)
    scenario.enqueue()
    event = json.loads(Path(scenario.env()["GITHUB_EVENT_PATH"]).read_text(encoding="utf-8"))
    edit(event)
    env = write_event(scenario, event)
    buf = io.StringIO()
    assert action.run(env, out=buf) == 2
    assert needle in buf.getvalue()


# -- the head_ref grammar and the shape comparison ------------------------------

BRANCH = st.text(
    alphabet=st.characters(
        min_codepoint=33, max_codepoint=0x2FF, blacklist_characters="\\~^:?*[\x7f"
    ),
    min_size=1,
    max_size=30,
)


@given(base=st.lists(BRANCH, min_size=1, max_size=3), number=st.integers(1, 10**9))
def test_pr_number_from_any_base_branch(base: list[str], number: int) -> None:
    """Base branches may hold slashes, `pr-` and digits: N is always the last segment's."""
    name = "/".join(base)
    sha = "0123456789abcdef" * 2 + "01234567"
    assert merge_queue.pr_number(f"refs/heads/gh-readonly-queue/{name}/pr-{number}-{sha}") == (
        number
    )


@pytest.mark.parametrize(
    "ref",
    [
        "refs/heads/main",
        "refs/heads/gh-readonly-queue/main/pr-7",
        "refs/heads/gh-readonly-queue/main/pr-0-" + "a" * 40,
        "refs/heads/gh-readonly-queue/main/pr-7-" + "A" * 40,
        "refs/heads/gh-readonly-queue/pr-7-" + "a" * 40,
        "refs/heads/gh-readonly-queue/main/pr-7-" + "a" * 40 + "\n",
        "refs/tags/gh-readonly-queue/main/pr-7-" + "a" * 40,
    ],
)
def test_refs_that_are_not_queue_entries(ref: str) -> None:
    assert merge_queue.pr_number(ref) is None


def test_parse_event_strips_refs_heads() -> None:
    event = {
        "action": "checks_requested",
        "merge_group": {
            "head_sha": "b" * 40,
            "base_sha": "a" * 40,
            "head_ref": "refs/heads/gh-readonly-queue/release/2.x/pr-12-" + "a" * 40,
            "base_ref": "refs/heads/release/2.x",
        },
    }
    entry = merge_queue.parse_event(event, "event.json")
    assert (entry.number, entry.base_branch) == (12, "release/2.x")
    event["merge_group"]["head_ref"] = "refs/heads/release/2.x"  # type: ignore[index]
    with pytest.raises(GateError, match="does not name a pull request"):
        merge_queue.parse_event(event, "event.json")


CHANGE = st.builds(
    FileChange,
    path=st.sampled_from(["a.py", "b.py", "c/d.py", "e.bin"]),
    status=st.just("modified"),
    old_path=st.none(),
    added=st.integers(0, 5),
    deleted=st.integers(0, 5),
    binary=st.just(False),
    old_mode=st.none(),
    new_mode=st.none(),
)


@given(files=st.lists(CHANGE, max_size=4, unique_by=lambda f: f.path), data=st.data())
def test_differs_sees_any_extra_path_or_count(files: list[FileChange], data: Any) -> None:
    assert merge_queue.differs(files, list(reversed(files))) is None
    extra = FileChange(path="z/extra.py", added=data.draw(st.integers(0, 3)))
    assert merge_queue.differs([*files, extra], files) is not None
    assert merge_queue.differs(files, [*files, extra]) is not None
    if files:
        first = files[0]
        bumped = first._replace(added=(first.added or 0) + data.draw(st.integers(1, 3)))
        assert merge_queue.differs([bumped, *files[1:]], files) is not None
        as_binary = first._replace(binary=True)
        assert merge_queue.differs([as_binary, *files[1:]], files) is not None


def test_queue_entry_for_an_unknown_pr_exits_2(scenario: Scenario) -> None:
    scenario.push(SMALL_FIX)
    scenario.enqueue()
    scenario.github.fail_always("GET", r"/pulls/7$", 404)
    out = scenario.run()
    assert out.code == 2
    assert "cannot read pull request #7" in out.summary
    assert "check merge_group.head_ref and the token" in out.log
