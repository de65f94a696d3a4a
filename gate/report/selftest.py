"""A rubric selftest rendered for people (text) and pull requests (markdown):
`gate selftest` and `gate demo` (its first step) show the same lines."""

from __future__ import annotations

from gate.base.escape import markdown_text, printable
from gate.judge.selftest import BaseFinding, SelftestReport


def outcome_lines(report: SelftestReport, indent: str) -> list[str]:
    """One line per example: `ok` or `WRONG`, its name and why."""
    lines = []
    for outcome in report.outcomes:
        mark = "ok   " if outcome.agrees else "WRONG"
        lines.append(f"{indent}{mark} {printable(outcome.name)}: {outcome.describe()}")
    return lines


def _base_lines(at_base: list[BaseFinding], strict: bool) -> list[str]:
    lines = []
    for f in at_base:
        label = "error" if strict and f.strict else "warning"
        lines.append(f"{label}: rule {f.rule_id} ({f.kind}): {printable(f.message)}")
    return lines


def to_text(
    report: SelftestReport, source: str, strict: bool, at_base: list[BaseFinding] | None = None
) -> str:
    lines = [f"selftest of {printable(source)} (sha256 {report.rubric_sha256[:12]})"]
    if not report.outcomes:
        lines.append("  no examples: add `examples:` so the judge shows it can pass and fail")
    lines += outcome_lines(report, "  ")
    if report.unproven:
        label = "error" if strict else "warning"
        lines.append(
            f"{label}: unproven rules (no example makes them fail): {', '.join(report.unproven)}"
        )
    if not report.has_passing_example and report.outcomes:
        label = "error" if strict else "warning"
        lines.append(f"{label}: no example expects a pass")
    lines += _base_lines(at_base or [], strict)
    wrong = sum(not o.agrees for o in report.outcomes)
    verdict = "agree" if wrong == 0 else f"{wrong} disagree"
    lines.append(f"{len(report.outcomes)} examples, {verdict}")
    return "\n".join(lines) + "\n"


def to_markdown(
    report: SelftestReport, source: str, at_base: list[BaseFinding] | None = None
) -> str:
    lines = [
        f"### Rubric selftest: {markdown_text(source)}",
        "",
        "| example | expected | got | verdict |",
        "| --- | --- | --- | --- |",
    ]
    for o in report.outcomes:
        want = ", ".join(o.expect) or "pass"
        got = ", ".join(o.failed) or "pass"
        verdict = "agrees" if o.agrees else "**disagrees**"
        lines.append(f"| {markdown_text(o.name)} | {want} | {got} | {verdict} |")
    if report.unproven:
        lines += ["", "Unproven rules: " + ", ".join(report.unproven)]
    if at_base:
        lines += [""]
        lines += [
            f"- rule {markdown_text(f.rule_id)} ({f.kind}): {markdown_text(f.message)}"
            for f in at_base
        ]
    return "\n".join(lines) + "\n"
