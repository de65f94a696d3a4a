"""bench/sample_readings.py picks a round's commits: seeded and stratified,
never a bot's commit or a merge that is no pull request's, agent commits
first, every failing rule read before any is read twice, passes that
change more than one file."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "sample_readings.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sample_readings", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SAMPLE = _module()


def commit(
    sha: str, *failed: str, kind: str = "human", files: int = 2, **more: Any
) -> dict[str, Any]:
    return {
        "sha": sha,
        "author_kind": kind,
        "pass": not failed,
        "failed": list(failed),
        "stats": {"files_touched": files},
        "subject": f"commit {sha}",
        "merge": False,
        "pr": None,
        **more,
    }


def shas(items: list[dict[str, Any]], kind: str) -> list[str]:
    return [i["sha"] for i in items if i["kind"] == kind]


@pytest.mark.parametrize(
    ("left_out", "why"),
    [
        (commit("bot", "CI", kind="automation"), "a bot's commit"),
        (commit("dep", "CI", automation=True), "automation by its trailer"),
        (commit("pull", "FILES", merge=True), "a git pull merge"),
        (commit("pullpass", merge=True), "a passing git pull merge"),
    ],
)
def test_commits_no_reader_should_see_are_left_out(left_out: dict[str, Any], why: str) -> None:
    commits = [left_out] + [commit(f"f{n}", "TESTS") for n in range(3)]
    commits += [commit(f"p{n}") for n in range(3)]
    for seed in range(20):
        items = SAMPLE.sample({"r": commits}, seed, 6, 3)
        assert left_out["sha"] not in {i["sha"] for i in items}, why


def test_a_pull_requests_merge_is_kept() -> None:
    merged = commit("m", "FILES", merge=True, pr=12)
    items = SAMPLE.sample({"r": [merged]}, 1, 6, 3)
    assert shas(items, "fail") == ["m"]


def test_agent_commits_come_first_and_passes_change_more_than_one_file() -> None:
    commits = [commit(f"h{n}", "TESTS") for n in range(5)]
    commits += [commit("a1", "TESTS", kind="agent"), commit("a2", "TESTS", kind="agent")]
    commits += [commit("one", files=1), commit("hp"), commit("ap", kind="agent")]
    for seed in range(10):
        items = SAMPLE.sample({"r": commits}, seed, 3, 2)
        assert set(shas(items, "fail")[:2]) == {"a1", "a2"}
        assert shas(items, "pass") == ["ap", "hp"]


def test_every_failing_rule_is_read_before_any_is_read_twice() -> None:
    commits = [commit(f"t{n}", "TESTS") for n in range(6)] + [commit("ci", "CI")]
    commits += [commit("files", "FILES", "LINES")]
    for seed in range(10):
        items = SAMPLE.sample({"r": commits}, seed, 3, 0)
        assert {"ci", "files"} <= set(shas(items, "fail"))


def test_repositories_take_turns_and_make_up_a_short_ones_share() -> None:
    reports = {
        "a": [commit(f"a{n}", "TESTS") for n in range(6)],
        "b": [commit("b0", "CI")],
    }
    items = SAMPLE.sample(reports, 3, 3, 0)
    assert [i["repo"] for i in items][:2] == ["a", "b"]
    assert len(shas(items, "fail")) == 6


def test_the_same_reports_and_seed_give_the_same_sample_from_the_command(tmp_path: Path) -> None:
    commits = [commit(f"c{n}", "TESTS" if n % 2 else "CI") for n in range(30)]
    commits += [commit(f"p{n}") for n in range(10)]
    (tmp_path / "demo.json").write_text(json.dumps({"commits": commits}))
    argv = [sys.executable, str(SCRIPT), str(tmp_path / "demo.json"), "--seed", "7"]
    first = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    again = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    assert first == again
    items = json.loads(first)
    assert len(shas(items, "fail")) == 6 and len(shas(items, "pass")) == 3
    assert {i["repo"] for i in items} == {"demo"}
    other = subprocess.run([*argv[:-1], "8"], capture_output=True, text=True, check=True).stdout
    assert other != first


def test_a_file_that_is_no_backtest_report_stops_it(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("[1, 2]")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "x.json"), "--seed", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "x.json: not a backtest report" in done.stderr
    assert "Traceback" not in done.stderr
