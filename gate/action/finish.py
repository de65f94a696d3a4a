"""The last stage: leave the verdict everywhere a user looks (`finish`): the
log, the JSON report in the workspace, the check run and the comment
(`post`), the job summary and the step outputs; and `last_resort`, which
fails closed when there are no settings or `finish` itself broke.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping

from gate.action import publish
from gate.action.change import moved
from gate.action.judging import Outcome
from gate.base.errors import EXIT_ERROR, GateError
from gate.base.files import write_new_file
from gate.base.jsontext import dumps
from gate.base.workflow import Log, append_summary, write_outputs
from gate.github.client_types import Client, PullInfo
from gate.github.settings import REPORT_NAME, Settings, output_paths
from gate.model.rubric import DEFAULT_CHECK_NAME
from gate.report import to_json, to_text


def report_json(verdict: publish.Verdict) -> str | None:
    if verdict.report is None:
        return None
    if verdict.state == "skipped":
        data = verdict.report.to_dict()
        data["skipped"] = True
        return dumps(data)
    return to_json(verdict.report)


def log_verdict(log: Log, verdict: publish.Verdict, check_name: str) -> None:
    title = check_name
    if verdict.state == "judged" and verdict.report is not None:
        if verdict.failing and not verdict.trial:
            log.error(verdict.title, title=title)
        elif verdict.noteworthy:
            log.warning(verdict.title, title=title)
        else:
            log.notice(verdict.title, title=title)
        log.untrusted(to_text(verdict.report))
    elif verdict.state == "skipped":
        log.notice(verdict.title, title=title)
        if verdict.report is not None:
            log.untrusted("\n".join(verdict.report.notes))
    else:
        log.error(verdict.title, title=title)


def write_report(workspace: str | None, log: Log, verdict: publish.Verdict) -> str:
    """Write the JSON report into the workspace; the `report` output ("" when none)."""
    data = report_json(verdict)
    if data is None:
        return ""
    target = os.path.join(workspace or ".", REPORT_NAME)
    try:
        write_new_file(target, data)
    except OSError as exc:
        log.warning(f"could not write the JSON report {target}: {exc.strerror}")
        return ""
    return REPORT_NAME if workspace else os.path.abspath(target)


def post(
    settings: Settings,
    log: Log,
    client: Client,
    verdict: publish.Verdict,
    pull: PullInfo,
    *,
    comment: bool = True,
) -> tuple[str, ...]:
    """The check run and (unless not `comment`) the comment on `pull`; what
    was not published, for the summary."""
    if not settings.token:
        warning = "no github-token: the check run and the comment were not posted"
        log.warning(warning)
        return (warning,)
    try:
        published = publish.publish(
            client,
            verdict=verdict,
            check_name=settings.check_name,
            head_sha=pull.head_sha,
            pr_number=pull.number,
            comment_policy=settings.comment if comment else "never",
            log=log,
        )
    except Exception as exc:  # publishing must never change the verdict
        warning = f"publishing failed: {type(exc).__name__}: {exc}"
        log.warning(warning)
        return (warning,)
    posted = "posted" if published.check_run_id is not None else "not posted"
    log.line(f"check run {posted}; comment: {published.comment_action}")
    return published.warnings


# How many times a run posts a verdict whose approvals changed while it
# posted before it gives up (exit 2): each round is a post and a re-read.
SETTLE_ROUNDS = 3


def settle(
    settings: Settings, log: Log, client: Client, outcome: Outcome, pull: PullInfo
) -> tuple[publish.Verdict, tuple[str, ...]]:
    """Post the verdict on `pull` so that no stale one stands: the verdict
    posted, and what was not published.

    A pull request whose head moved or whose base changed since it was read
    gets the verdict on the commit judged (a check run on that commit) and
    a note, but not the PR's comment, which the newer run owns.  A verdict
    an approval decided is checked after posting: the reviews are read
    again (`Rewaive`), and when they waive something else now the fresh
    verdict is posted, up to `SETTLE_ROUNDS` times; a run that races a
    reviewer longer than that, or cannot read the reviews again, could not
    judge (exit 2), never a pass it did not check."""
    verdict, comment = outcome.verdict, True
    if outcome.head_may_move and verdict.state == "judged" and verdict.report is not None:
        why = moved(client, log, pull)
        if why is not None:
            verdict = publish.judged(verdict.report.noted(why), settings.check_name, settings.mode)
            comment = False
    for _ in range(SETTLE_ROUNDS):
        warnings = post(settings, log, client, verdict, pull, comment=comment)
        if outcome.rewaive is None or verdict.state != "judged":
            return verdict, warnings
        try:
            fresh = outcome.rewaive.verdict(client, log)
        except GateError as exc:
            verdict = publish.errored(
                settings.check_name,
                f"after posting its verdict the gate could not read the approvals again to "
                f"see that none changed meanwhile: {exc.message}",
                outcome.notes,
                settings.mode,
            )
            return verdict, post(settings, log, client, verdict, pull, comment=comment)
        if _same_waivers(fresh, verdict):
            return verdict, warnings
        log.line("the approvals changed while the verdict was posted: posting the fresh verdict")
        assert fresh.report is not None
        verdict = publish.judged(
            fresh.report.noted(
                "the approvals changed while this run posted its verdict; this verdict "
                "reads them as they were after that post"
            ),
            settings.check_name,
            settings.mode,
        )
    verdict = publish.errored(
        settings.check_name,
        f"the approvals kept changing while the gate posted its verdict ({SETTLE_ROUNDS} "
        "times): re-run the job once reviews settle",
        outcome.notes,
        settings.mode,
    )
    return verdict, post(settings, log, client, verdict, pull, comment=comment)


def _same_waivers(a: publish.Verdict, b: publish.Verdict) -> bool:
    """Whether two verdicts on one judged report waive the same rules by the same people."""
    return a.report is not None and b.report is not None and a.report.waived == b.report.waived


def finish(settings: Settings, log: Log, client: Client, outcome: Outcome) -> int:
    """Leave the verdict everywhere a user looks; its exit code.  The verdict
    is settled by posting it (`settle`) before the log, the report, the
    summary and the outputs say it, so all of them say the one posted."""
    verdict = outcome.verdict
    report_json(verdict)  # a report that cannot be written fails before anything is posted
    warnings: tuple[str, ...] = ()
    if outcome.pull is not None:
        verdict, warnings = settle(settings, log, client, outcome, outcome.pull)
    log_verdict(log, verdict, settings.check_name)
    report_value = write_report(settings.workspace, log, verdict)
    summary = verdict.markdown
    if warnings:
        from gate.base.escape import markdown_text

        summary += "\n**Not published:**\n\n" + "".join(f"- {markdown_text(w)}\n" for w in warnings)
    try:
        append_summary(settings.summary_file, publish.fit(summary))
        write_outputs(
            settings.output_file,
            {
                "passed": "true" if verdict.passed and not verdict.failing else "false",
                "failed-rules": ",".join(verdict.failed),
                "waived-rules": ",".join(verdict.waived),
                "warned-rules": ",".join(verdict.warned),
                "report": report_value,
            },
        )
    except OSError as exc:
        log.warning(f"could not write the job summary or outputs: {exc}")
    return verdict.exit_code


def last_resort(
    env: Mapping[str, str],
    log: Log,
    message: str,
    settings: Settings | None = None,
    client: Client | None = None,
    outcome: Outcome | None = None,
) -> int:
    """Fail closed when there are no settings or `finish` broke: the error in
    the log, `passed=false` in the outputs, the job summary, and (when the PR
    and a client are known) a failing check run.  Each step is tried on its
    own; nothing here may raise, and the exit code is always 2."""
    check_name = settings.check_name if settings is not None else DEFAULT_CHECK_NAME
    verdict = publish.errored(
        check_name,
        message,
        outcome.notes if outcome is not None else (),
        settings.mode if settings is not None else "enforce",
    )
    with contextlib.suppress(Exception):
        log.error(message, title=f"{check_name}: could not judge")
    output_file, summary_file = output_paths(env)
    with contextlib.suppress(Exception):
        write_outputs(
            output_file,
            {
                "passed": "false",
                "failed-rules": "",
                "waived-rules": "",
                "warned-rules": "",
                "report": "",
            },
        )
    with contextlib.suppress(Exception):
        append_summary(summary_file, verdict.markdown)
    pull = outcome.pull if outcome is not None else None
    if settings is not None and client is not None and pull is not None:
        with contextlib.suppress(Exception):
            post(settings, log, client, verdict, pull)
    return EXIT_ERROR
