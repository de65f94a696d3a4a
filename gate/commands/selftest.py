"""`gate selftest [FILE | --base REV]`: every rubric example must get its verdict.

With `--base`, it also names the rules whose `file` or paths the base tree
does not have (`gate.selftest.check_at_base`): a content rule's missing
`file` is an error under `--strict`, a path rule matching nothing a warning.
"""

from __future__ import annotations

import argparse

from gate import output
from gate.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.escape import markdown_text, printable
from gate.jsontext import dumps
from gate.rubric import Rubric
from gate.rubric.source import RubricSource
from gate.selftest import BaseFinding, SelftestReport, check_at_base, run_selftest


def load(args: argparse.Namespace) -> tuple[Rubric, list[BaseFinding]]:
    """The rubric, and (with --base) the rules that name what the base lacks."""
    if args.file is not None and args.base is not None:
        raise GateError("give either a rubric FILE or --base REV, not both")
    if args.base is not None:
        from gate.git import Repo, short

        repo = Repo(args.repo)
        sha = repo.rev_parse(args.base)
        rubric = RubricSource(args.rubric).load(repo.read_blob, sha)
        return rubric, check_at_base(rubric, repo.list_files(sha), short(sha))
    return RubricSource(file=args.file if args.file is not None else args.rubric).load(), []


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
    for outcome in report.outcomes:
        mark = "ok   " if outcome.agrees else "WRONG"
        lines.append(f"  {mark} {printable(outcome.name)}: {outcome.describe()}")
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


def run(args: argparse.Namespace) -> int:
    rubric, at_base = load(args)
    report = run_selftest(rubric)
    if args.format == "json":
        data = report.to_dict()
        if args.base is not None:
            data["at_base"] = [f.to_dict() for f in at_base]
        output.write(dumps(data))
    elif args.format == "markdown":
        output.write(to_markdown(report, rubric.source, at_base))
    else:
        output.write(to_text(report, rubric.source, args.strict, at_base))
    if not report.agrees:
        return EXIT_FAIL
    if args.strict and (report.strict_problems() or any(f.strict for f in at_base)):
        return EXIT_FAIL
    return EXIT_PASS
