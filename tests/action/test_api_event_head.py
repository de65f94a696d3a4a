"""API mode judges the event's own commits, and a listing that repeats
entries never counts as complete.

Driven through the GitHub API double (real HTTP, every request checked
against GitHub's OpenAPI description) by the real PyGithub client, with no
checkout in the workspace, so the change is read from the API.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, Scenario
from github_api.double import Comparison
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gate.action import action
from gate.changes.api import FORK_CHECKS


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


def real_commits(scenario: Scenario, base: str, head: str) -> list[tuple[str, list[str]]]:
    """`base..head` with each commit's parents, from git, as the compare API lists it."""
    out = scenario.repo.git("rev-list", "--parents", "--topo-order", f"{base}..{head}")
    rows = [line.split() for line in out.splitlines()]
    return [(row[0], row[1:]) for row in rows]


def serve_real_history(scenario: Scenario) -> list[str]:
    """Make the double's compare answers those of the real commit graph: the
    change's commits with their parents, and for any pair (p, M) whether p
    is an ancestor of M.  Returns git's merge bases of base and head."""
    github, repo = scenario.github, scenario.repo
    pull = github.pulls[(REPO, scenario.number)]
    comparison = github.comparisons[(REPO, pull.base_sha, pull.head_sha)]
    comparison.commits = real_commits(scenario, pull.base_sha, pull.head_sha)
    fork = comparison.merge_base_sha
    shas = {p for _, parents in comparison.commits for p in parents}
    for sha in shas:
        first = repo.git("merge-base", sha, fork).split()[0]
        github.comparisons[(REPO, sha, fork)] = Comparison(
            number=scenario.number, merge_base_sha=first, files=[]
        )
    return repo.git("merge-base", "--all", pull.base_sha, pull.head_sha).split()


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    merge_line=st.booleans(),
    ours=st.sampled_from([(False, False), (True, False), (False, True), (True, True)]),
    line_first=st.booleans(),
)
@example(merge_line=True, ours=(False, True), line_first=False)  # two merge bases: M1 and L
def test_api_mode_never_passes_with_several_merge_bases(
    make_repo: Any,
    github: Any,
    tmp_path_factory: pytest.TempPathFactory,
    merge_line: bool,
    ours: tuple[bool, bool],
    line_first: bool,
) -> None:
    """Real criss-cross histories (the branch, built from the base's old
    commit, merges the base's M1 and another line L, either with `-s ours`;
    the base merged L or not), served by the double as git has them: API
    mode exits 2 whenever base and head have several merge bases, and
    otherwise judges as git mode does."""
    github.check_runs.clear()
    tmp = tmp_path_factory.mktemp("api")
    scenario = Scenario(
        github=github, tmp=tmp, make_repo=lambda name: make_repo(f"{tmp.name}-{name}")
    )
    repo = scenario.repo
    old = scenario.base
    repo.git("checkout", "-q", "-b", "line", old)
    repo.write("secrets/from-line", "the other line's guarded file\n")
    line = repo.commit("the other line")
    repo.git("checkout", "-q", "main")
    repo.write("lib/m1.py", "M1 = 1\n")
    m1 = repo.commit("M1")
    if merge_line:
        repo.git("merge", "-q", "--no-edit", "--no-ff", line)
    scenario.base = repo.head()
    repo.git("checkout", "-q", "feature")
    merges = [(m1, ours[0]), (line, ours[1])]
    if line_first:
        merges.reverse()
    for commit, with_ours in merges:
        repo.git("merge", "-q", "--no-edit", "--no-ff", *(["-s", "ours"] * with_ours), commit)
    scenario.push({"lib/own.py": "OWN = 1\n"})
    bases = serve_real_history(scenario)
    git_out = scenario.run()
    api_mode(scenario, tmp)
    api_out = scenario.run()
    if (merge_line, ours, line_first) == (True, (False, True), False):
        assert len(bases) == 2  # the example is the hole it names
    if len(bases) > 1:
        assert api_out.code == 2, api_out.log
        assert "the API names one merge base" in api_out.log
    else:
        assert api_out.code == git_out.code, api_out.log
        assert repo.git("merge-base", "--all", scenario.base, scenario.head).split() == bases


def test_too_many_outside_parents_exit_2(scenario: Scenario, tmp_path: Path) -> None:
    """Past FORK_CHECKS parents outside the change, API mode does not try."""
    head = scenario.push({"app.py": "def main():\n    return 2\n"})
    pull = scenario.github.pulls[(REPO, scenario.number)]
    comparison = scenario.github.comparisons[(REPO, pull.base_sha, head)]
    outside = [f"{i:x}" * 40 for i in range(1, FORK_CHECKS + 2)]
    comparison.commits = [(head, [pull.merge_base_sha, *(o[:40] for o in outside)])]
    api_mode(scenario, tmp_path)
    out = scenario.run()
    assert out.code == 2
    assert "the API names one merge base" in out.log
    assert not any(
        "/compare/" in r.path and r.path.count("...") and "1111" in r.path
        for r in scenario.github.requests
    )
