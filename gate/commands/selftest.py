"""`gate selftest [FILE | --base REV]`: every rubric example must get its verdict."""

from __future__ import annotations

import argparse

from gate import output
from gate.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.escape import markdown_text, printable
from gate.jsontext import dumps
from gate.model import Rubric
from gate.selftest import SelftestReport, describe, run_selftest


def load(args: argparse.Namespace) -> Rubric:
    if args.file is not None and args.base is not None:
        raise GateError("give either a rubric FILE or --base REV, not both")
    if args.base is not None:
        from gate.frozen import rubric_from_commit
        from gate.git import Repo

        return rubric_from_commit(Repo(args.repo), args.base, args.rubric)
    from gate.rubric import load_rubric_file

    return load_rubric_file(args.file if args.file is not None else args.rubric)


def to_text(report: SelftestReport, source: str, strict: bool) -> str:
    lines = [f"selftest of {printable(source)} (sha256 {report.rubric_sha256[:12]})"]
    if not report.outcomes:
        lines.append("  no examples: add `examples:` so the judge shows it can pass and fail")
    for outcome in report.outcomes:
        mark = "ok   " if outcome.agrees else "WRONG"
        lines.append(f"  {mark} {printable(outcome.name)}: {describe(outcome)}")
    if report.unproven:
        label = "error" if strict else "warning"
        lines.append(
            f"{label}: unproven rules (no example makes them fail): {', '.join(report.unproven)}"
        )
    if not report.has_passing_example and report.outcomes:
        label = "error" if strict else "warning"
        lines.append(f"{label}: no example expects a pass")
    wrong = sum(not o.agrees for o in report.outcomes)
    verdict = "agree" if wrong == 0 else f"{wrong} disagree"
    lines.append(f"{len(report.outcomes)} examples, {verdict}")
    return "\n".join(lines) + "\n"


def to_markdown(report: SelftestReport, source: str) -> str:
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
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    rubric = load(args)
    report = run_selftest(rubric)
    if args.format == "json":
        output.write(dumps(report.to_dict()))
    elif args.format == "markdown":
        output.write(to_markdown(report, rubric.source))
    else:
        output.write(to_text(report, rubric.source, args.strict))
    if not report.agrees:
        return EXIT_FAIL
    if args.strict and report.strict_problems():
        return EXIT_FAIL
    return EXIT_PASS
