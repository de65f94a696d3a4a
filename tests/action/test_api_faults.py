"""The Action under API faults: no POST made twice, every wait bounded.

Driven through the GitHub API double (real HTTP, every request checked
against GitHub's OpenAPI description) by the real PyGithub client.  Faults
are generated: a server that does the work and then answers 5xx, one that
fails before doing it, a primary rate limit whose reset is an hour away, a
Retry-After of an hour.  No test sleeps for long: the scenario's waits are
capped at 0.05 s (GATE_RETRY_MAX_SECONDS) and the budget is set per test
(GATE_API_BUDGET_SECONDS).
"""

from __future__ import annotations

import time
from pathlib import Path

from conftest import REPO, Scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

POSTS = {"check run": r"/check-runs$", "comment": r"/issues/\d+/comments$"}


def posts(scenario: Scenario, pattern: str) -> int:
    import re

    return sum(
        1 for r in scenario.github.requests if r.method == "POST" and re.search(pattern, r.path)
    )


def api_mode(scenario: Scenario, tmp_path: Path) -> None:
    empty = tmp_path / "no-checkout"
    empty.mkdir(exist_ok=True)
    scenario.workspace = empty


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    what=st.sampled_from(sorted(POSTS)),
    status=st.sampled_from([500, 502, 503, 504]),
    after=st.booleans(),
    failing=st.booleans(),
)
def test_a_post_answered_5xx_is_never_made_twice(
    scenario: Scenario, what: str, status: int, after: bool, failing: bool
) -> None:
    """`after`: the server made the check run or comment, then answered 5xx:
    it is found, not made again (one POST).  Else it was not made: it is
    made once more (two POSTs).  Either way exactly one exists."""
    scenario.github.check_runs.clear()
    scenario.github.comments.clear()
    scenario.github.requests.clear()
    scenario.github.clear_faults()
    scenario.inputs["comment"] = "always"
    # one scenario serves every example: each pushes a commit onto the last
    planted = (scenario.repo.root / "secrets/key").exists()
    if failing:
        head = scenario.push({"secrets/key": f"k {time.monotonic()}\n"})
    else:
        head = scenario.push(
            {"notes.txt": f"{time.monotonic()!r}\n"}, remove=("secrets/key",) * planted
        )
    scenario.github.fail_next("POST", POSTS[what], status, after=after)
    out = scenario.run()
    assert out.code == (1 if failing else 0), out.log
    runs = [r for r in scenario.github.check_runs if r["head_sha"] == head]
    assert len(runs) == 1
    assert len(scenario.github.comments_on(REPO, scenario.number)) == 1
    assert posts(scenario, POSTS[what]) == (1 if after else 2)
    other = next(k for k in POSTS if k != what)
    assert posts(scenario, POSTS[other]) == 1


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from([r"/compare/", r"/contents/"]),
    kind=st.sampled_from(["primary", "retry-after-403", "retry-after-503"]),
    wait=st.integers(600, 7200),
)
def test_every_wait_is_bounded_and_the_run_ends_with_exit_2(
    scenario: Scenario, tmp_path: Path, path: str, kind: str, wait: int
) -> None:
    """A read the gate needs keeps failing with a rate limit whose reset, or
    a Retry-After, is up to two hours away: the run ends with exit 2 and a
    posted "could not judge" check run in well under the budget."""
    scenario.github.check_runs.clear()
    scenario.github.requests.clear()
    scenario.github.clear_faults()
    scenario.push({"app.py": "def main():\n    return 2\n"})
    api_mode(scenario, tmp_path)
    scenario.extra_env["GATE_API_BUDGET_SECONDS"] = "2"
    if kind == "primary":
        headers = {
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": str(int(time.time()) + wait),
        }
        scenario.github.fail_always(
            "GET", path, 403, headers=headers, body={"message": "API rate limit exceeded for x"}
        )
    else:
        status = 403 if kind == "retry-after-403" else 503
        body = {"message": "You have exceeded a secondary rate limit"} if status == 403 else None
        scenario.github.fail_always(
            "GET", path, status, headers={"Retry-After": str(wait)}, body=body
        )
    started = time.monotonic()
    out = scenario.run()
    elapsed = time.monotonic() - started
    assert out.code == 2, out.log
    assert elapsed < 10, elapsed  # each wait capped at 0.05 s, the budget 2 s
    tries = sum(
        1 for r in scenario.github.requests if r.method == "GET" and path.strip("/") in r.path
    )
    assert 1 <= tries <= 5  # the first try and at most GATE_RETRY_ATTEMPTS (4) more
    assert scenario.github.check_runs[-1]["conclusion"] == "failure"


def test_the_budget_stops_retries_before_the_attempts_run_out(
    scenario: Scenario, tmp_path: Path
) -> None:
    """A budget of 0 s: no retry at all, whatever GATE_RETRY_ATTEMPTS allows."""
    scenario.push({"app.py": "def main():\n    return 2\n"})
    api_mode(scenario, tmp_path)
    scenario.extra_env["GATE_API_BUDGET_SECONDS"] = "0"
    scenario.github.fail_always("GET", r"/compare/", 502)
    out = scenario.run()
    assert out.code == 2
    tries = sum(1 for r in scenario.github.requests if "/compare/" in r.path)
    assert tries == 1
    assert "retry budget" in out.log or "502" in out.log
