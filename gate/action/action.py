"""`gate action`: the container's entry point (`run`), one function a stage,
each stage in the module named on its right.

    env --Settings.from_env--> Settings                       (settings.py)
        --read_event, find_target--> Target: the pull request
          or the merge queue entry                             (event.py)
        --open_checkout--> Checkout: git on the workspace when it
          holds both commits, else the API                     (checkout.py)
        --base_rubric--> the Rubric at the base (None: missing-rubric: skip)
                                                               (scope.py)
        --in_scope--> Skip (applies_to) or Change: the change set
          from git or the API, and built-in gate.diff-incomplete (change.py)
        --gate.judge.judge--> Report (the rubric's examples first, with the
          built-ins, as in `gate check`)                       (judging.py)
        --waive--> the Report with what approvals waive        (approvals.py)
        --publish.judged--> Verdict, in an Outcome             (judging.py)
        --finish--> the log, the JSON report, the check run and the
          comment, the job summary and the outputs --> exit code (finish.py)

Each stage takes values and returns values; notes travel in them and `judge`
joins them, so a stage that cannot judge still reports the notes so far.  The
injected parts are the API `Client` (tests pass the real PyGithub client
pointed at the API double) and the `Log`.

The pull request's code is never checked out or executed: git is only asked
for objects (diff, cat-file) and to fetch the two commits; the API is only
asked for the listing and file bytes.  The rubric comes from the base commit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from gate.action.finish import finish, last_resort
from gate.action.judging import Outcome, judge, log_traceback
from gate.base.errors import GateError, debug_enabled, internal_error
from gate.base.workflow import Log
from gate.github.client_types import Client
from gate.github.settings import Settings

ClientFactory = Callable[[Settings], Client]


def default_client(settings: Settings) -> Client:
    """The PyGithub-backed client (imported here: nothing else loads PyGithub)."""
    from gate.github.client import GitHubClient

    return GitHubClient(settings)


def run(
    env: Mapping[str, str],
    *,
    client_factory: ClientFactory | None = None,
    out: TextIO | None = None,
) -> int:
    """Judge the pull request the runner's environment names; returns the exit code.

    Any exception the gate did not expect (a bug, RecursionError, MemoryError)
    is a "could not judge" verdict like a `GateError`: exit 2, `passed=false`,
    the job summary and a failing check run.  If publishing itself breaks,
    `last_resort` still leaves the outputs and the summary.
    """
    log = Log(out if out is not None else sys.stdout)
    settings: Settings | None = None
    client: Client | None = None
    outcome: Outcome | None = None
    try:
        try:
            settings = Settings.from_env(env)
        except GateError as exc:
            return last_resort(env, log, exc.message)
        client = (client_factory or default_client)(settings)
        outcome = judge(settings, log, client)
        return finish(settings, log, client, outcome)
    except Exception as exc:  # finishing broke: leave outputs and a summary regardless
        if debug_enabled(env):
            log_traceback(log, exc)
        return last_resort(env, log, internal_error(exc), settings, client, outcome)
