"""A backtest (`gate.research.backtest.Backtest`) rendered for people (text) and pull
requests (markdown).  Subjects are the committers' text: escaped."""

from __future__ import annotations

from gate.base.agents import AGENT, AUTOMATION
from gate.base.escape import markdown_text, printable
from gate.base.words import plural
from gate.research.backtest import Backtest, Judged, totals_line

SUBJECT_SHOWN = 72


def _subject(text: str) -> str:
    return text if len(text) <= SUBJECT_SHOWN else text[: SUBJECT_SHOWN - 3] + "..."


def _who(c: Judged) -> str:
    if c.authorship.kind == AGENT:
        return f"agent {c.authorship.agent}"
    if c.authorship.kind == AUTOMATION:
        return f"automation {c.authorship.bot}"
    return "human"


def _size(c: Judged) -> str:
    """`3 files, +40 -2 lines` (what git's diff says), then what each budget
    rule counted (`FILES 2, LINES 30`: their excludes left out)."""
    stats = c.stats
    text = (
        f"{stats.get('files_touched', 0)} files, +{stats.get('added_lines', 0)} "
        f"-{stats.get('deleted_lines', 0)} lines"
    )
    counted = ", ".join(
        f"{rule} {'too large to count' if n is None else n}" for rule, n in c.counts.items()
    )
    return f"{text} ({counted})" if counted else text


def _tripped(c: Judged) -> list[str]:
    """`TESTS: tests/test_a.py, tests/test_b.py` per failed path rule."""
    return [f"{rule}: {', '.join(paths)}" for rule, paths in c.paths.items()]


def _header(result: Backtest) -> list[str]:
    lines = [
        f"backtest of {result.revision}",
        f"rubric: {result.rubric} (sha256 {result.rubric_sha256[:12]})",
        totals_line(result),
    ]
    if result.unjudged:
        lines.append(f"UNJUDGED {plural(len(result.unjudged), 'commit')} (not counted)")
    if not result.examples_agree:
        lines.append(
            "the rubric's examples disagree with it: gate.rubric-selftest fails every commit, "
            "as it fails every check; run gate selftest"
        )
    return lines


def to_text(result: Backtest) -> str:
    agent, human = result.count("agent"), result.count("human")
    lines = [*map(printable, _header(result)), ""]
    rows = [("rule", "kind", "agent failed", "human failed", "automation failed")]
    for rule_id, info in result.rule_summary().items():
        rows.append(
            (
                rule_id,
                info["kind"],
                f"{info['agent']} of {agent}",
                f"{info['human']} of {human}",
                f"{info['automation']} of {result.count(AUTOMATION)}",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines += [
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4]
        for row in rows
    ]
    if result.waivable:
        lines += ["", "waivable in the Action by an approval of the pull request's head:"]
        lines += [f"  {printable(w.rule)}: by {printable(w.who())}" for w in result.waivable]
    failing = [c for c in result.commits if c.failed]
    if failing:
        lines += ["", "failing commits (newest first):"]
        for c in failing:
            lines.append(
                f"  {c.sha[:12]}  {', '.join(c.failed)}  [{printable(_who(c))}]  "
                f"{printable(_subject(c.subject))}"
            )
            lines.append(f"      {_size(c)}")
            lines += [f"      {printable(t)}" for t in _tripped(c)]
    for title, items in (("skipped", result.skipped), ("unjudged", result.unjudged)):
        if items:
            lines += ["", f"{title}:"]
            lines += [f"  {u.sha[:12]}  {printable(u.reason)}" for u in items]
    return "\n".join(lines) + "\n"


def to_markdown(result: Backtest) -> str:
    agent, human = result.count("agent"), result.count("human")
    lines = [*(markdown_text(line) + "  " for line in _header(result)), ""]
    lines += [
        "| rule | kind | agent failed | human failed | automation failed |",
        "| --- | --- | --- | --- | --- |",
    ]
    for rule_id, info in result.rule_summary().items():
        lines.append(
            f"| {markdown_text(rule_id)} | {info['kind']} | {info['agent']} of {agent} "
            f"| {info['human']} of {human} | {info['automation']} of "
            f"{result.count(AUTOMATION)} |"
        )
    if result.waivable:
        lines += ["", "**Waivable** in the Action by an approval of the pull request's head:", ""]
        lines += [
            f"- {markdown_text(w.rule)}: by {markdown_text(w.who())}" for w in result.waivable
        ]
    failing = [c for c in result.commits if c.failed]
    if failing:
        lines += [
            "",
            "| commit | failed | author | subject | size | tripped by |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for c in failing:
            tripped = "<br>".join(markdown_text(t) for t in _tripped(c))
            lines.append(
                f"| `{c.sha[:12]}` | {markdown_text(', '.join(c.failed))} "
                f"| {markdown_text(_who(c))} | {markdown_text(_subject(c.subject))} "
                f"| {markdown_text(_size(c))} | {tripped} |"
            )
    for title, items in (("Skipped", result.skipped), ("Unjudged", result.unjudged)):
        if items:
            lines += ["", f"**{title}:**", ""]
            lines += [f"- `{u.sha[:12]}`: {markdown_text(u.reason)}" for u in items]
    return "\n".join(lines) + "\n"
