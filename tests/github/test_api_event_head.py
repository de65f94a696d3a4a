"""API mode judges the event's own commits, and a listing that repeats
entries never counts as complete.

Driven through the GitHub API double (real HTTP, every request checked
against GitHub's OpenAPI description) by the real PyGithub client, with no
checkout in the workspace, so the change is read from the API.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from conftest import REPO, Scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.github import action


def api_mode(scenario: Scenario, tmp_path: Path) -> None:
    empty = tmp_path / "no-checkout"
    empty.mkdir(exist_ok=True)
    scenario.workspace = empty


@pytest.mark.parametrize("forbidden", ["secrets/key", "secrets/deep/token"])
@pytest.mark.parametrize("later_bad", [False, True])
@pytest.mark.parametrize("event_bad", [False, True])
def test_a_push_after_the_event_never_changes_the_verdict_on_the_event_head(
    scenario: Scenario, tmp_path: Path, event_bad: bool, later_bad: bool, forbidden: str
) -> None:
    """The event names head H1; the PR moves to H2 before the gate reads it.
    The check run goes on H1 with H1's verdict, whatever H2 holds."""
    first = {forbidden: "k\n"} if event_bad else {"lib/one.py": "ONE = 1\n"}
    event_head = scenario.push(first)
    api_mode(scenario, tmp_path)
    env = scenario.env()  # the event, written now: its head is H1
    later = {forbidden + "2": "k\n"} if later_bad else {"lib/two.py": "TWO = 2\n"}
    new_head = scenario.push(later)  # the PR files listing now shows H2's change
    assert scenario.github.pulls[(REPO, scenario.number)].head_sha == new_head
    code = action.run(env, out=io.StringIO())
    assert code == (1 if event_bad else 0)
    (run,) = scenario.github.check_runs
    assert run["head_sha"] == event_head
    assert run["conclusion"] == ("failure" if event_bad else "success")
    assert not any(r.path.endswith("/files") for r in scenario.github.requests)


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    paths=st.lists(
        st.sampled_from(["a.txt", "b.txt", "c.txt", "d.txt", "secrets/key"]),
        min_size=2,
        max_size=5,
        unique=True,
    ),
    dropped=st.integers(1, 3),
    seed=st.integers(0, 1000),
)
def test_a_listing_that_repeats_entries_is_never_complete(
    scenario: Scenario, tmp_path: Path, paths: list[str], dropped: int, seed: int
) -> None:
    """The compare API answers with some entries missing and others repeated
    in their place, so the count of entries matches `changed_files`: the
    distinct paths fall short and gate.diff-incomplete fails."""
    scenario.github.check_runs.clear()
    scenario.push({p: f"{p}\n" for p in paths})
    api_mode(scenario, tmp_path)
    pull = scenario.github.pulls[(REPO, scenario.number)]
    comparison = scenario.github.comparisons[(REPO, pull.base_sha, pull.head_sha)]
    true = list(comparison.files)
    assert len(true) == pull.changed_files
    rng = random.Random(seed)
    dropped = min(dropped, len(true) - 1)
    kept = rng.sample(true, len(true) - dropped)
    served = kept + [rng.choice(kept) for _ in range(dropped)]
    rng.shuffle(served)
    comparison.files = served
    out = scenario.run()
    assert out.code == 1, out.log
    report = out.report()
    assert "gate.diff-incomplete" in report["failed"]
    result = next(r for r in report["results"] if r["id"] == "gate.diff-incomplete")
    assert f"listed {len(true) - dropped} of {len(true)}" in result["message"]


def test_a_merge_of_other_history_in_api_mode_exits_2(scenario: Scenario, tmp_path: Path) -> None:
    """The API names one merge base; a merge in base..head that brings in
    history the base holds too may hide another (criss-cross merges), which
    only git can judge: exit 2, naming the fix."""
    head = scenario.push({"app.py": "def main():\n    return 2\n"})
    pull = scenario.github.pulls[(REPO, scenario.number)]
    comparison = scenario.github.comparisons[(REPO, pull.base_sha, head)]
    other = "e" * 40
    comparison.commits = [(head, [pull.merge_base_sha, other])]
    api_mode(scenario, tmp_path)
    out = scenario.run()
    assert out.code == 2
    assert "the API names one merge base" in out.log
    run = scenario.github.check_runs[-1]
    assert run["conclusion"] == "failure"
    shown = json.dumps(run["output"])
    assert "several merge bases" in shown and "fetch-depth: 0" in shown
