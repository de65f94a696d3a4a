"""The judging stage: the event's pull request or merge queue entry to an
`Outcome` (`judge`): the target, the checkout, the rubric at the base, the
change, the task's scope from the issues it closes, `gate.judge.judge` with
the built-ins, the waivers.  A stage that
cannot judge ends it with "could not judge" and the notes so far
(`could_not_judge`); a run that judges nothing gets `skip_report`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gate.action import publish
from gate.action.approvals import waive
from gate.action.change import Skip, in_scope
from gate.action.checkout import open_checkout, queue_needs_git
from gate.action.event import Target, find_target, read_event
from gate.action.issues import issue_scope
from gate.action.scope import base_rubric
from gate.base.errors import GateError, internal_error
from gate.base.workflow import Log
from gate.git.repo import Repo
from gate.github.client_types import ApiError, Client, PullInfo
from gate.github.settings import Mode, Settings
from gate.model.change import ChangeSet
from gate.model.report import Report
from gate.model.rubric import Rubric
from gate.rules.builtin import workflow_edited


@dataclass(frozen=True)
class Rewaive:
    """How to read the approvals again for a judged report (`waive` on the
    report as judged, before any waiver): `finish` asks after posting, so a
    verdict posted from reviews that changed meanwhile is replaced."""

    target: Target
    repo: Repo | None
    changes: ChangeSet
    judged: Report
    check_name: str
    mode: Mode = "enforce"

    def verdict(self, client: Client, log: Log) -> publish.Verdict:
        report = waive(client, log, self.target, self.repo, self.changes, self.judged)
        return publish.judged(report, self.check_name, self.mode)


@dataclass(frozen=True)
class Outcome:
    """What judging hands to `finish`: the verdict, the pull request it is
    about (None: the event named none the gate could read), the notes, how
    to read its approvals again (None: no waiver was in play), and whether
    the pull request's head may move under it (not a queue entry's)."""

    verdict: publish.Verdict
    pull: PullInfo | None = None
    notes: tuple[str, ...] = ()
    rewaive: Rewaive | None = None
    head_may_move: bool = False


def judge(settings: Settings, log: Log, client: Client) -> Outcome:
    """The verdict on the pull request or queue entry the event names.  A
    stage that cannot judge ends it with "could not judge" and the notes so far."""
    import gate.judge

    pull: PullInfo | None = None
    notes: tuple[str, ...] = ()
    try:
        target = find_target(settings, client, read_event(settings))
        pull, notes = target.pull, target.notes
        announce(log, target)
        checkout = open_checkout(settings.workspace, log, pull.base_sha, pull.head_sha)
        notes += checkout.notes
        repo = checkout.repo
        if target.queue is not None and repo is None:
            raise GateError(queue_needs_git(pull))
        log.line("reading the change from " + ("git" if repo is not None else "the GitHub API"))
        rubric = base_rubric(settings, client, repo, pull.base_sha)
        if rubric is None:
            why = (
                f"no rubric at {settings.rubric_path} in base commit {pull.base_sha} "
                "(missing-rubric: skip)"
            )
            report = skip_report(pull, why, None, notes)
            verdict = publish.no_rubric(settings.check_name, settings.rubric_path, report)
            return Outcome(verdict, pull, notes)
        scope = in_scope(settings, client, target, repo, rubric)
        if isinstance(scope, Skip):
            report = skip_report(pull, scope.reason, rubric, notes)
            return Outcome(publish.skipped(settings.check_name, report), pull, notes)
        notes += scope.notes
        task, unscoped = issue_scope(
            client, log, target, rubric, settings.repository, scope.changes
        )
        notes += unscoped
        judged = gate.judge.judge(  # the rubric's examples run first, as in `gate check`
            rubric,
            scope.changes,
            rubric_path=settings.rubric_path,
            builtins=(workflow_edited(scope.changes, settings.workflow_path), scope.complete),
            notes=notes,
            scope=task,
        )
        report = waive(client, log, target, repo, scope.changes, judged)
        rewaive = None
        if any(w.rule in judged.failed for w in judged.waivable):
            rewaive = Rewaive(
                target, repo, scope.changes, judged, settings.check_name, settings.mode
            )
        verdict = publish.judged(report, settings.check_name, settings.mode)
        return Outcome(verdict, pull, notes, rewaive, head_may_move=target.queue is None)
    except Exception as exc:  # GateError, ApiError, or not expected: exit 2
        return Outcome(could_not_judge(settings, log, exc, notes), pull, notes)


def announce(log: Log, target: Target) -> None:
    pull = target.pull
    what = "pull request" if target.queue is None else "merge queue entry for pull request"
    log.line(f"judging {what} #{pull.number}")
    log.untrusted(
        f"title: {pull.title}\nauthor: {pull.author}\nbase: {pull.base_ref} {pull.base_sha}\n"
        f"head: {pull.head_ref} {pull.head_sha}"
    )


def could_not_judge(
    settings: Settings, log: Log, exc: Exception, notes: tuple[str, ...]
) -> publish.Verdict:
    """The "could not judge" verdict for `exc`; never a pass or a rule failure."""
    if isinstance(exc, GateError):
        message = exc.message
    elif isinstance(exc, ApiError):
        message = f"the GitHub API failed: {exc.message}"
    else:  # not expected: never a verdict, always exit 2
        message = internal_error(exc)
        if settings.debug:
            log_traceback(log, exc)
    return publish.errored(settings.check_name, message, notes, settings.mode)


def skip_report(
    pull: PullInfo, reason: str, rubric: Rubric | None, notes: tuple[str, ...]
) -> Report:
    """The report of a run that judged nothing (applies_to, or no rubric at the base)."""
    return Report(
        passed=True,
        failed=(),
        rule_count=len(rubric.rules) if rubric is not None else 0,
        rubric_sha256=rubric.sha256 if rubric is not None else None,
        base=pull.base_sha,
        head=pull.head_sha,
        stats=ChangeSet().stats(),
        results=(),
        notes=(f"skipped: {reason}", *notes),
    )


def log_traceback(log: Log, exc: BaseException) -> None:
    """`exc`'s traceback, fenced (GATE_DEBUG)."""
    import traceback

    log.untrusted("".join(traceback.format_exception(exc)))
