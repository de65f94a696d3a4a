"""`--format github`: a verdict as GitHub Actions workflow commands.

One `::error` line per failed rule (`::warning` per rule that failed at
level warn) and place it points at
(`RuleResult.located`, as the Action's check-run annotations: `file=`, and
`line=` where a finding names one), or one without `file=` when the rule
names no path; a
`::notice` for each note (an empty change says so); then one plain summary
line.  Any CI step can run `gate check --format github` and the runner turns
the lines into annotations on the pull request.

The runner obeys a workflow command at the start of any line, so every line
here is built by `gate.base.workflow.command_line`: property values and
messages escaped as GitHub documents (`%`, CR and LF in both; `:` and `,` in
properties), so a path or message holding a newline, `::` or `%0A` stays
inside its own line's data and cannot start a second command.  The summary
line starts with the tool's name, never `::`, and `##[` in it is broken.
`gate.base.output` does not fence this format (a fence would stop the commands).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.base.escape import printable
from gate.base.names import TOOL_NAME
from gate.base.paths import visible
from gate.base.workflow import ZERO_WIDTH_SPACE, command_line

if TYPE_CHECKING:
    from gate.model.report import Report, RuleResult

# GitHub shows a few annotations per step (10 errors); the log keeps more,
# but a rule naming thousands of paths gets this many and one line more.
PATHS_ANNOTATED = 50


def _error(r: RuleResult, message: str, path: str | None = None, line: int | None = None) -> str:
    """One annotation: `::error`, or `::warning` for a rule that failed at
    level warn (`RuleResult.warned`)."""
    props: dict[str, str] = {}
    if path is not None:
        props["file"] = visible(path)
        if line is not None:
            props["line"] = str(line)
    props["title"] = f"{TOOL_NAME}: {visible(r.id)}"
    return command_line("warning" if r.warned else "error", visible(message), **props)


def rule_lines(r: RuleResult) -> list[str]:
    """The annotations of one failed rule: one per place it points at
    (`RuleResult.located`: its findings with their lines, else each
    offending path), or one without a file when it names none."""
    places = r.located()
    lines = [_error(r, f.message, f.path, f.line) for f in places[:PATHS_ANNOTATED]]
    hidden = len(places) - len(lines)
    if hidden > 0:
        lines.append(_error(r, f"{r.message}; {hidden} more places (all in --format json)"))
    if not lines:
        lines.append(_error(r, r.message))
    return lines


def to_github(report: Report) -> str:
    """The report as workflow commands, then the summary line."""
    lines: list[str] = []
    failed = set(report.failed)
    for r in report.results:
        if r.id in failed or r.warned:
            lines += rule_lines(r)
    lines += [command_line("notice", visible(n), title=TOOL_NAME) for n in report.notes]
    if report.passed and report.judged_nothing:
        verdict = "PASS, NOTHING JUDGED: the change touches no file"
    elif report.passed:
        verdict = f"PASS: {len(report.results)} rules judged, none failed"
    else:
        verdict = f"FAIL: {len(report.failed)} of {len(report.results)} rules failed: " + ", ".join(
            printable(i) for i in report.failed
        )
    if report.warned:
        verdict += "; warned: " + ", ".join(printable(i) for i in report.warned)
    summary = f"{TOOL_NAME}: {verdict}; {report.stats.summary()}"
    lines.append(summary.replace("##[", "##" + ZERO_WIDTH_SPACE + "["))
    return "\n".join(lines) + "\n"


def could_not_judge(message: str) -> str:
    """The one annotation of a run that could not judge (exit 2 or 3): the
    error sentence, as an `::error` without a file."""
    return command_line("error", visible(message), title=f"{TOOL_NAME}: could not judge") + "\n"
