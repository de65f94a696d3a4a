"""A backtest (`gate.backtest.Backtest`) rendered for people (text) and pull
requests (markdown).  Subjects are the committers' text: escaped."""

from __future__ import annotations

from gate.agents import AGENT
from gate.backtest import Backtest, Judged
from gate.escape import markdown_text, printable
from gate.words import plural

SUBJECT_SHOWN = 72


def _subject(text: str) -> str:
    return text if len(text) <= SUBJECT_SHOWN else text[: SUBJECT_SHOWN - 3] + "..."


def _who(c: Judged) -> str:
    if c.authorship.kind == AGENT:
        return f"agent {c.authorship.agent}"
    return "human" if c.authorship.bot is None else f"human ({c.authorship.bot})"


def _header(result: Backtest) -> list[str]:
    agent, human = result.count("agent"), result.count("human")
    lines = [
        f"backtest of {result.revision}",
        f"rubric: {result.rubric} (sha256 {result.rubric_sha256[:12]})",
        f"judged {plural(len(result.commits), 'commit')}: {agent} agent-written, "
        f"{human} human-written",
    ]
    if result.skipped:
        lines.append(f"skipped {plural(len(result.skipped), 'root commit')} (no parent)")
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
    rows = [("rule", "kind", "agent failed", "human failed")]
    for rule_id, info in result.rule_summary().items():
        rows.append(
            (rule_id, info["kind"], f"{info['agent']} of {agent}", f"{info['human']} of {human}")
        )
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines += [
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3]
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
    for title, items in (("skipped", result.skipped), ("unjudged", result.unjudged)):
        if items:
            lines += ["", f"{title}:"]
            lines += [f"  {u.sha[:12]}  {printable(u.reason)}" for u in items]
    return "\n".join(lines) + "\n"


def to_markdown(result: Backtest) -> str:
    agent, human = result.count("agent"), result.count("human")
    lines = [*(markdown_text(line) + "  " for line in _header(result)), ""]
    lines += ["| rule | kind | agent failed | human failed |", "| --- | --- | --- | --- |"]
    for rule_id, info in result.rule_summary().items():
        lines.append(
            f"| {markdown_text(rule_id)} | {info['kind']} | {info['agent']} of {agent} "
            f"| {info['human']} of {human} |"
        )
    if result.waivable:
        lines += ["", "**Waivable** in the Action by an approval of the pull request's head:", ""]
        lines += [
            f"- {markdown_text(w.rule)}: by {markdown_text(w.who())}" for w in result.waivable
        ]
    failing = [c for c in result.commits if c.failed]
    if failing:
        lines += ["", "| commit | failed | author | subject |", "| --- | --- | --- | --- |"]
        for c in failing:
            lines.append(
                f"| `{c.sha[:12]}` | {markdown_text(', '.join(c.failed))} "
                f"| {markdown_text(_who(c))} | {markdown_text(_subject(c.subject))} |"
            )
    for title, items in (("Skipped", result.skipped), ("Unjudged", result.unjudged)):
        if items:
            lines += ["", f"**{title}:**", ""]
            lines += [f"- `{u.sha[:12]}`: {markdown_text(u.reason)}" for u in items]
    return "\n".join(lines) + "\n"
