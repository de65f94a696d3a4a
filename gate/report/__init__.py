"""The report's renderings: JSON, text for people, markdown for pull
requests, and the choice among every verdict format; pure."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from gate.base.escape import markdown_code, markdown_text, printable
from gate.base.jsontext import dumps
from gate.base.names import DEFAULT_RUBRIC_PATH
from gate.base.words import plural
from gate.model.report import Report

if TYPE_CHECKING:
    from gate.model.waivers import Waived


def to_json(report: Report) -> str:
    """Deterministic JSON: sorted keys, no timestamps, no absolute paths;
    valid UTF-8 (paths in `gate.base.paths.shown` form, and any byte that is not
    UTF-8 left in prose as `\\xNN`); see `gate.base.jsontext.dumps`."""
    return dumps(report.to_dict())


# ---------------------------------------------------------------------------
# Renderers for people (text) and for pull requests (markdown).  Every piece of
# text that a change can control (paths, messages, descriptions, notes) goes
# through gate.base.escape, so it can neither forge a line nor open HTML.

FORMATS = ("text", "json", "markdown")
# A verdict (`render`) also reads as workflow commands and as SARIF.
VERDICT_FORMATS = (*FORMATS, "github", "sarif")

# GitHub refuses a check-run summary or a comment body over 65,535 characters.
GITHUB_MARKDOWN_LIMIT = 65535

TEXT_PATHS_SHOWN = 100  # per failed rule; the JSON report always has them all
MARKDOWN_PATHS_SHOWN = 50

PASS_NOTE = "A pass only clears the frozen rule list above; it never claims more."


def _sha(value: str | None) -> str:
    return "none" if value is None else value


def _headline_ids(report: Report) -> str:
    return ", ".join(report.failed)


def to_text(report: Report) -> str:
    """The report for people: a headline, the stats, one line per rule.

    Paths, messages and notes are shown with `printable`, so a path with a
    newline in it stays on its own indented line and cannot forge a verdict.
    """
    total = len(report.results)
    if report.passed and report.waived:
        lines = [
            "PASS: every failed rule was waived: "
            + ", ".join(printable(w.rule) for w in report.waived)
        ]
    elif report.passed and report.judged_nothing:
        lines = [f"PASS, NOTHING JUDGED: the change touches no file ({plural(total, 'rule')} ran)"]
    elif report.passed and not report.warned:
        lines = [f"PASS: all {plural(total, 'rule')} passed"]
    elif report.passed:
        lines = ["PASS with warnings: " + _warned_words(report, printable)]
    else:
        lines = [
            f"FAIL: {len(report.failed)} of {plural(total, 'rule')} failed: "
            + ", ".join(printable(i) for i in report.failed)
        ]
    if report.warned and not (report.passed and not report.waived):
        lines.append("WARN: " + _warned_words(report, printable))
    s = report.stats
    lines.append(f"stats: {s.summary()}")
    lines.append(
        f"rubric sha256 {_sha(report.rubric_sha256)}; base {_sha(report.base)}; "
        f"head {_sha(report.head)}"
    )
    lines.append("")
    for r in report.results:
        waived = report.waived_by(r.id)
        verdict = "PASS" if r.passed else "WARN" if r.warned else "WAIVED" if waived else "FAIL"
        lines.append(f"{verdict} {printable(r.id)} ({printable(r.kind)}): {printable(r.message)}")
        if r.description:
            lines.append(f"    why: {printable(r.description)}")
        if r.passed:
            continue
        if waived is not None:
            lines.append(f"    waived: {printable(_waived_words(waived))}")
        else:
            can = report.waivable_by(r.id)
            if can is not None:
                lines.append(f"    waivable by an approval from {printable(can.who())}")
        for path in r.paths[:TEXT_PATHS_SHOWN]:
            lines.append(f"    - {printable(path)}")
        hidden = len(r.paths) - TEXT_PATHS_SHOWN
        if hidden > 0:
            lines.append(f"    ... and {hidden} more paths (all of them are in --format json)")
        for f in r.findings:
            where = printable(f.path) if f.line is None else f"{printable(f.path)}:{f.line}"
            lines.append(f"    at {where}: {printable(f.message)}")
    if report.scope is not None:
        lines.append("")
        lines.append(printable(report.scope.describe()))
    if report.notes:
        lines.append("")
        lines.append("notes:")
        lines.extend(f"  - {printable(n)}" for n in report.notes)
    return "\n".join(lines) + "\n"


def _warned_words(report: Report, show: Callable[[str], str]) -> str:
    """`1 of 3 rules warned (level warn: reported, not failing): W1`, each id through `show`."""
    return (
        f"{len(report.warned)} of {plural(len(report.results), 'rule')} warned "
        "(level warn: reported, not failing): " + ", ".join(show(i) for i in report.warned)
    )


def _waived_words(waived: Waived) -> str:
    about = [waived.association] if waived.association else []
    if waived.access:
        about.append(f"{waived.access} access")
    shown = f" ({', '.join(about)})" if about else ""
    return f"by {waived.reviewer}{shown}'s approval of commit {waived.commit[:12]}"


def _next_steps(report: Report) -> list[str]:
    """What a maintainer can do about each rule still failing: which a
    listed approver can waive and how, which cannot be waived and why."""
    from gate.model.waivers import not_waivable

    left = [w for w in report.waivable if w.rule in report.failed]
    cannot = not_waivable(report.failed, report.waivable)
    if not report.waivable or not report.failed or report.head is None:
        return []  # a rubric without waivers, or nothing left failing
    commit = markdown_code(report.head[:12])
    lines = ["", "**Next step:**", ""]
    for w in left:
        lines.append(
            f"- {markdown_code(w.rule)} can be waived by {markdown_text(w.who())}: "
            f"approve this pull request at commit {commit} (an approval of an earlier "
            "commit, or one by the pull request's author or a bot, does not count)"
        )
    for rule, why in cannot:
        lines.append(f"- {markdown_code(rule)} cannot be waived ({markdown_text(why)}): fix it")
    return lines


def _md_size(text: str) -> int:
    """Size as GitHub may count it: UTF-16 code units (never less than code points)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def truncate_markdown(text: str, limit: int = GITHUB_MARKDOWN_LIMIT) -> str:
    """Cut `text` at a line boundary so it fits `limit`, and say so.

    Lines the renderer writes never contain a raw newline from the change,
    so cutting between lines never leaves a half-escaped construct.
    """
    if _md_size(text) <= limit:
        return text
    note = (
        f"\n\n> **Report truncated** to fit {limit} characters; "
        "the full report is in the JSON output and the job log.\n"
    )
    budget = limit - _md_size(note)
    kept: list[str] = []
    used = 0
    for line in text.split("\n"):
        size = _md_size(line) + 1
        if used + size > budget:
            break
        kept.append(line)
        used += size
    if not kept and budget > 0:  # one enormous first line: hard cut
        head = text[: max(budget - 1, 0)]
        while _md_size(head) > budget - 1:
            head = head[:-1]
        kept = [head]
    out = "\n".join(kept).rstrip("\n") + note
    if _md_size(out) > limit:
        out = out[:limit]
        while _md_size(out) > limit:
            out = out[:-1]
    return out


def to_markdown(
    report: Report,
    *,
    title: str = "Blast Radius Gate",
    max_chars: int | None = None,
) -> str:
    """The report for a check-run summary, a PR comment or a job summary.

    A headline naming the failed ids, a table of every rule, the offending
    paths under each failed rule, the stats, the rubric's SHA-256 and the
    judged base/head, and notes.  All change-controlled text is escaped with
    `gate.base.escape`; with `max_chars`, the result is cut to fit (with a note).
    """

    def ids(values: tuple[str, ...]) -> str:
        return ", ".join(markdown_code(v) for v in values)

    name = markdown_text(title)
    if report.passed and report.waived:
        lines = [
            f"### ✅ {name}: pass (waived)",
            "",
            "Every failed rule was waived by an approval of this commit: "
            + ids(tuple(w.rule for w in report.waived)),
        ]
    elif report.passed and report.judged_nothing:
        lines = [
            f"### ✅ {name}: pass, nothing judged",
            "",
            f"The change touches no file ({plural(len(report.results), 'rule')} ran).",
        ]
    elif report.passed and not report.warned:
        lines = [f"### ✅ {name}: pass", "", f"All {plural(len(report.results), 'rule')} passed."]
    elif report.passed:
        lines = [f"### ⚠️ {name}: pass with warnings", "", _warned_words(report, markdown_code)]
    else:
        lines = [
            f"### ❌ {name}: fail",
            "",
            f"Failed rules ({len(report.failed)} of {len(report.results)}): " + ids(report.failed),
        ]
        if report.waived:
            lines += ["", "Waived: " + ids(tuple(w.rule for w in report.waived))]
    if report.warned and not (report.passed and not report.waived):
        lines += ["", "Warned: " + _warned_words(report, markdown_code)]
    lines += ["", "| rule | kind | verdict | message |", "| --- | --- | --- | --- |"]
    for r in report.results:
        waived = report.waived_by(r.id)
        verdict = (
            "✅ pass"
            if r.passed
            else "⚠️ warn"
            if r.warned
            else "⏭️ waived"
            if waived
            else "❌ **fail**"
        )
        message = markdown_text(r.message)
        if waived is not None:
            message += " (waived " + markdown_text(_waived_words(waived)) + ")"
        elif not r.passed and (can := report.waivable_by(r.id)) is not None:
            message += " (waivable by an approval from " + markdown_text(can.who()) + ")"
        if r.description:
            message += " (" + markdown_text(r.description.strip()) + ")"
        lines.append(
            f"| {markdown_code(r.id, table=True)} | {markdown_text(r.kind)} "
            f"| {verdict} | {message} |"
        )
    for r in report.results:
        if r.passed or not (r.paths or r.findings):
            continue
        lines += ["", f"**{markdown_code(r.id)}** offending paths:", ""]
        for path in r.paths[:MARKDOWN_PATHS_SHOWN]:
            lines.append(f"- {markdown_code(path)}")
        hidden = len(r.paths) - MARKDOWN_PATHS_SHOWN
        if hidden > 0:
            lines.append(f"- … and {hidden} more (see the JSON report)")
        for f in r.findings[:MARKDOWN_PATHS_SHOWN]:
            where = markdown_code(f.path if f.line is None else f"{f.path}:{f.line}")
            lines.append(f"- {where}: {markdown_text(f.message)}")
    lines += _next_steps(report)
    s = report.stats
    lines += [
        "",
        f"**Stats:** {markdown_text(s.summary())}",
        "",
        f"**Rubric** SHA-256 {markdown_code(_sha(report.rubric_sha256))} · "
        f"base {markdown_code(_sha(report.base))} · head {markdown_code(_sha(report.head))}",
    ]
    if report.scope is not None:
        lines += ["", f"**Scope:** {markdown_text(report.scope.describe())}"]
    if report.notes:
        lines += ["", "**Notes:**", ""]
        lines.extend(f"- {markdown_text(n)}" for n in report.notes)
    lines += ["", f"_{PASS_NOTE}_"]
    text = "\n".join(lines) + "\n"
    if max_chars is not None:
        text = truncate_markdown(text, max_chars)
    return text


def for_machines(fmt: str) -> bool:
    """Whether a report in `fmt` is read by a program (`json`): then nothing
    else may go to stdout beside it."""
    return fmt == "json"


def in_format(
    fmt: str,
    *,
    data: Callable[[], Any],
    text: Callable[[], str],
    markdown: Callable[[], str],
) -> str:
    """The one way any report is written in a format (one of `FORMATS`):
    `json` is `data()` through `gate.base.jsontext.dumps` (the one encoder),
    `text` and `markdown` their renderers; only the one asked for runs."""
    if fmt == "json":
        return dumps(data())
    if fmt == "markdown":
        return markdown()
    if fmt == "text":
        return text()
    raise ValueError(f"unknown report format {fmt!r}; use one of {', '.join(FORMATS)}")


class _Reported(Protocol):
    def to_dict(self) -> Any: ...


_R = TypeVar("_R", bound=_Reported)


def rendered(value: _R, fmt: str, text: Callable[[_R], str], markdown: Callable[[_R], str]) -> str:
    """A report value in `fmt` (`in_format`): its `to_dict()` as JSON, or
    `text(value)`, or `markdown(value)`."""
    return in_format(
        fmt, data=value.to_dict, text=lambda: text(value), markdown=lambda: markdown(value)
    )


def render(report: Report, fmt: str, *, rubric_path: str = DEFAULT_RUBRIC_PATH) -> str:
    """A verdict report in `fmt` (one of `VERDICT_FORMATS`): `to_json`,
    `to_text`, `to_markdown`, workflow commands (`gate.report.annotations`)
    or SARIF (`gate.report.sarif`, which locates a rule naming no path at
    `rubric_path`, the rubric's repository path)."""
    if fmt == "github":
        from gate.report.annotations import to_github

        return to_github(report)
    if fmt == "sarif":
        from gate.report.sarif import to_sarif

        return to_sarif(report, rubric_path)
    return rendered(report, fmt, to_text, to_markdown)
