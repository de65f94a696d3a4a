"""What a run leaves behind: check run, sticky PR comment, job summary, outputs.

Building (pure) and posting are apart: `Verdict` holds everything that is
published, `publish()` posts it through a client.  A refused post (a fork's
read-only token answers 403) is a warning, never a change of verdict: the
verdict still reaches the log, the job summary and the exit code.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gate.base.errors import EXIT_ERROR, EXIT_FAIL, EXIT_PASS
from gate.base.escape import markdown_code, markdown_text, printable
from gate.base.paths import RAW_MARK, shown
from gate.base.words import plural
from gate.base.workflow import Log
from gate.github.client_types import (
    Annotation,
    ApiError,
    CheckOutput,
    Conclusion,
    IdentityUnknown,
    Publisher,
)
from gate.github.settings import CommentPolicy, Mode
from gate.model.report import Report
from gate.report import GITHUB_MARKDOWN_LIMIT, to_markdown, truncate_markdown

ANNOTATIONS_PER_REQUEST = 50  # the checks API's limit per create/update
MAX_ANNOTATIONS = 500  # beyond this, the summary says how many were left out
TITLE_LIMIT = 250


@dataclass(frozen=True)
class Verdict:
    """Everything a run publishes.  `state` is "judged", "skipped" or "error"."""

    state: Literal["judged", "skipped", "error"]
    title: str
    markdown: str
    conclusion: Conclusion
    exit_code: int
    failed: tuple[str, ...] = ()
    waived: tuple[str, ...] = ()
    annotations: tuple[Annotation, ...] = ()
    annotations_dropped: int = 0
    report: Report | None = None
    warned: tuple[str, ...] = ()  # rules that failed at level warn
    trial: bool = False  # `mode: report-only`: concludes neutral, whatever it found

    @property
    def passed(self) -> bool:
        return self.exit_code == EXIT_PASS

    @property
    def failing(self) -> bool:
        """Rules failed (`mode: enforce` concludes failure), trial or not."""
        return self.conclusion == "failure" or (self.trial and bool(self.failed))

    @property
    def noteworthy(self) -> bool:
        """Something to tell the pull request: a failure, or a warning."""
        return self.failing or bool(self.warned)


def marker(check_name: str) -> str:
    """The hidden marker that finds this check's comment again."""
    name = urllib.parse.quote(check_name, safe=" ._")
    return f"<!-- blast-radius-gate:{name} -->"


def title_for(report: Report) -> str:
    waived = ""
    if report.waived:
        waived = "; waived: " + ", ".join(
            f"{w.rule} (by {w.reviewer} on {w.commit[:7]})" for w in report.waived
        )
    warned = "; warned: " + ", ".join(report.warned) if report.warned else ""
    if report.passed and report.waived:
        return _cut("every failed rule was waived" + waived + warned)
    if report.passed and report.warned:
        return _cut("passed with warnings: " + ", ".join(report.warned))
    if report.passed:
        n = len(report.results)
        return f"all {plural(n, 'rule')} passed"
    n = len(report.failed)
    return _cut(f"{plural(n, 'rule')} failed: " + ", ".join(report.failed) + waived + warned)


def _cut(text: str, limit: int = TITLE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def annotation_path(path: str) -> str:
    """A path as a check-run annotation names it: exactly, when it is UTF-8
    (`gate.base.paths.shown`); a path with bytes that are not UTF-8, for which
    GitHub has no exact name either, in the text form (`\\xNN`,
    `gate.base.escape.printable`), so no payload carries the U+0000 of the
    JSON form."""
    text = shown(path)
    return printable(path) if RAW_MARK in text else text


def annotations_for(report: Report) -> list[Annotation]:
    """File-level findings of failed rules as check-run annotations: a rule's
    `findings` when it has them, else one per offending path at line 1."""
    out: list[Annotation] = []
    for r in report.results:
        if r.passed or report.waived_by(r.id) is not None:
            continue
        seen: set[tuple[str, int]] = set()
        for f in r.located():
            line = f.line or 1
            if (f.path, line) in seen:  # a finding without a line and one at line 1
                continue
            seen.add((f.path, line))
            out.append(
                {
                    "path": annotation_path(f.path),
                    "start_line": line,
                    "end_line": line,
                    "annotation_level": "warning" if r.warned else "failure",
                    "title": _cut(f"{r.id} ({r.kind})", 255),
                    "message": _cut(f.message, 4000),
                }
            )
    return out


TRIAL_TITLE = "report-only trial: "


def trial_note(report: Report) -> str:
    """The lead of a report-only run's markdown: a trial, and what enforcing would do."""
    would = "fail" if not report.passed else "pass"
    return (
        "> **Report-only trial** (`mode: report-only`): this run concludes `neutral` and "
        f"blocks nothing. With `mode: enforce` this pull request would **{would}**"
        + (" (`failure`)." if not report.passed else ".")
        + "\n\n"
    )


def judged(report: Report, check_name: str, mode: Mode = "enforce") -> Verdict:
    """The verdict on a judged report: under `mode: enforce` `success` (every
    `fail` rule passed or was waived; `warn` rules may have warned) or
    `failure`; under `report-only` always `neutral`, exit 0, the report still
    saying what failed and that it is a trial."""
    annotations = annotations_for(report)
    kept = annotations[:MAX_ANNOTATIONS]
    trial = mode == "report-only"
    title = title_for(report)
    markdown = to_markdown(report, title=check_name)
    conclusion: Conclusion = "success" if report.passed else "failure"
    exit_code = EXIT_PASS if report.passed else EXIT_FAIL
    if trial:
        title = _cut(TRIAL_TITLE + title)
        markdown = trial_note(report) + markdown
        conclusion, exit_code = "neutral", EXIT_PASS
    return Verdict(
        state="judged",
        title=title,
        markdown=markdown,
        conclusion=conclusion,
        exit_code=exit_code,
        failed=report.failed,
        waived=tuple(w.rule for w in report.waived),
        annotations=tuple(kept),
        annotations_dropped=len(annotations) - len(kept),
        report=report,
        warned=report.warned,
        trial=trial,
    )


def _skip(check_name: str, title: str, why: str, report: Report) -> Verdict:
    lines = [
        f"### ⏭️ {markdown_text(check_name)}: skipped",
        "",
        why,
        "",
        *(f"- {markdown_text(note)}" for note in report.notes),
        "",
        f"**Rubric** SHA-256 {markdown_code(report.rubric_sha256 or 'none')} · "
        f"base {markdown_code(report.base or 'none')} · "
        f"head {markdown_code(report.head or 'none')}",
    ]
    return Verdict(
        state="skipped",
        title=title,
        markdown="\n".join(lines) + "\n",
        conclusion="neutral",
        exit_code=EXIT_PASS,
        report=report,
    )


def skipped(check_name: str, report: Report) -> Verdict:
    """The rubric's `applies_to` leaves this pull request out (the report's note says why)."""
    return _skip(
        check_name,
        "skipped: the rubric's applies_to does not match this pull request",
        "The rubric's `applies_to` does not match this pull request, so no rule was "
        "judged and nothing is claimed about it.",
        report,
    )


def no_rubric(check_name: str, rubric_path: str, report: Report) -> Verdict:
    """`missing-rubric: skip` and the base commit has no rubric."""
    return _skip(
        check_name,
        _cut(f"skipped: no rubric at {rubric_path} in the base commit"),
        f"No rubric exists at {markdown_code(rubric_path)} in the base commit, and the "
        "workflow sets `missing-rubric: skip`, so no rule was judged and nothing is "
        "claimed about this change. Commit a rubric to this base branch to judge its "
        "pull requests.",
        report,
    )


def errored(
    check_name: str, message: str, notes: Sequence[str] = (), mode: Mode = "enforce"
) -> Verdict:
    """The "could not judge" verdict: `failure`, exit 2, under every `mode`
    (a neutral one would count as passing for a required check)."""
    lines = [
        f"### ⚠️ {markdown_text(check_name)}: could not judge",
        "",
        markdown_text(message),
        "",
        "The gate fails closed: nothing was judged as passing (exit code 2).",
    ]
    if mode == "report-only":
        lines += [
            "",
            "This is a report-only trial, and still a failing check: a trial that cannot "
            "judge tells nothing about the rubric, and a neutral check would read like a pass.",
        ]
    if notes:
        lines += ["", "**Notes:**", ""]
        lines.extend(f"- {markdown_text(n)}" for n in notes)
    return Verdict(
        state="error",
        title=_cut("could not judge: " + message.replace("\n", " ")),
        markdown="\n".join(lines) + "\n",
        conclusion="failure",
        exit_code=EXIT_ERROR,
    )


def fit(markdown: str, extra: str = "") -> str:
    """`markdown` (then `extra`) cut to GitHub's 65,535-character limit, with a note."""
    return truncate_markdown(markdown + extra, GITHUB_MARKDOWN_LIMIT)


def check_summary(verdict: Verdict) -> str:
    extra = ""
    if verdict.annotations_dropped:
        extra = (
            f"\n> {verdict.annotations_dropped} more annotations were left out "
            f"(at most {MAX_ANNOTATIONS} are posted); every path is in the JSON report.\n"
        )
    return fit(verdict.markdown, extra)


STATE_PREFIX = "<!-- blast-radius-gate-state:"


def comment_state(body: str) -> str | None:
    """The state our earlier comment recorded on its second line."""
    lines = body.split("\n", 2)
    if len(lines) >= 2 and lines[1].startswith(STATE_PREFIX) and lines[1].endswith(" -->"):
        return lines[1][len(STATE_PREFIX) : -len(" -->")]
    return None


def comment_body(verdict: Verdict, check_name: str, previous_state: str | None) -> str:
    """The sticky comment: marker, state line, then the verdict.  A pass after a
    failure (state "fixed") says so, on this and every later passing run."""
    failing = verdict.failing
    was_failing = previous_state in ("failure", "fixed")
    if failing:
        state = "failure"
    elif was_failing:
        state = "fixed"
    else:
        state = verdict.conclusion
    lead = ""
    if state == "fixed" and verdict.state == "judged":
        lead = "**This pull request now passes** (an earlier run failed).\n\n"
    elif state == "fixed":
        lead = "**This pull request is no longer failing** (an earlier run failed).\n\n"
    head = f"{marker(check_name)}\n{STATE_PREFIX}{state} -->\n"
    body = lead + verdict.markdown
    return head + truncate_markdown(body, GITHUB_MARKDOWN_LIMIT - len(head) - 1)


@dataclass(frozen=True)
class Published:
    """What publishing did: the check run and comment it posted, and its refusals."""

    check_run_id: int | None = None
    comment_id: int | None = None
    comment_action: str = "none"  # created / edited / unchanged / none
    warnings: tuple[str, ...] = ()


def _refused(what: str, status: int | None, message: str) -> str:
    if status in (401, 403, 404):
        return (
            f"could not {what} (HTTP {status}): the token may not have the permission "
            "(a fork's pull_request token is read-only; grant checks: write and "
            "pull-requests: write, or see the security model in docs/action.md); the verdict "
            "stands in the log, the job summary and the exit code"
        )
    return f"could not {what}: {message}; the verdict stands in the log, job summary and exit code"


def publish(
    client: Publisher,
    *,
    verdict: Verdict,
    check_name: str,
    head_sha: str,
    pr_number: int,
    comment_policy: CommentPolicy,
    log: Log,
) -> Published:
    """Post the check run and the sticky comment; refusals become warnings
    (logged, and returned for the job summary)."""
    run_id, run_refused = post_check_run(client, verdict, check_name, head_sha)
    comment = post_comment(client, verdict, check_name, pr_number, comment_policy)
    published = Published(
        check_run_id=run_id,
        comment_id=comment.comment_id,
        comment_action=comment.comment_action,
        warnings=run_refused + comment.warnings,
    )
    for warning in published.warnings:
        log.warning(warning, title="blast-radius: not published")
    return published


def post_check_run(
    client: Publisher, verdict: Verdict, check_name: str, head_sha: str
) -> tuple[int | None, tuple[str, ...]]:
    """The completed check run on `head_sha`, its annotations in batches of
    50 (created with the first, added by updates): (its id, why not posted)."""
    batches = [
        list(verdict.annotations[i : i + ANNOTATIONS_PER_REQUEST])
        for i in range(0, len(verdict.annotations), ANNOTATIONS_PER_REQUEST)
    ] or [[]]
    summary = check_summary(verdict)

    def output(annotations: list[Annotation]) -> CheckOutput:
        if not annotations:
            return CheckOutput(title=verdict.title, summary=summary)
        return CheckOutput(title=verdict.title, summary=summary, annotations=annotations)

    run_id = None
    try:
        run_id = client.create_check_run(
            check_name, head_sha, verdict.conclusion, output(batches[0])
        )
        for batch in batches[1:]:
            client.update_check_run(run_id, output(batch))
    except ApiError as exc:
        what = "post the check run" if run_id is None else "add annotations"
        return run_id, (_refused(what, exc.status, exc.message),)
    return run_id, ()


def post_comment(
    client: Publisher, verdict: Verdict, check_name: str, pr_number: int, policy: CommentPolicy
) -> Published:
    """The sticky comment under `policy`: the oldest comment the gate's own
    identity wrote with the marker (`Publisher.find_comments`), edited in
    place; none is started for a pass under on-failure.  When a run racing
    this one made a second, the oldest keeps the verdict and the others go.
    When who the token is cannot be told before writing (no check run was
    created), a failing verdict's comment is created first, which names it,
    and then folded into an older one of the gate's if there is one."""
    if policy == "never":
        return Published()
    tag = marker(check_name)
    noteworthy = verdict.noteworthy  # a failure (a trial's too) or a warning
    made = None
    try:
        try:
            found = client.find_comments(pr_number, tag)
        except IdentityUnknown:
            if not noteworthy and policy == "on-failure":
                raise
            made = client.create_comment(pr_number, comment_body(verdict, check_name, None))
            found = client.find_comments(pr_number, tag)
        if not found and not noteworthy and policy == "on-failure":
            return Published()
        body = comment_body(verdict, check_name, comment_state(found[0][1]) if found else None)
        if not found:
            made = client.create_comment(pr_number, body)
            found = client.find_comments(pr_number, tag)
        if not found:  # the listing has not caught up with the create
            return Published(comment_id=made, comment_action="created")
        first, body_now = found[0]
        for duplicate, _ in found[1:]:
            client.delete_comment(duplicate)
        if body_now != body:
            client.edit_comment(first, body)
        action = "created" if first == made else "unchanged" if body_now == body else "edited"
        return Published(comment_id=first, comment_action=action)
    except ApiError as exc:
        return Published(warnings=(_refused("write the PR comment", exc.status, exc.message),))
