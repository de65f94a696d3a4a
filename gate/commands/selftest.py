"""`gate selftest [FILE | --base REV]`: every rubric example must get its verdict.

With `--base`, it also names the rules whose `file` or paths the base tree
does not have (`gate.judge.selftest.check_at_base`): a content rule's missing
`file` is an error under `--strict`, a path rule matching nothing a warning.
"""

from __future__ import annotations

import argparse
from typing import Any

from gate.base import output
from gate.base.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.judge.selftest import BaseFinding, check_at_base, run_selftest
from gate.model.rubric import Rubric
from gate.report import in_format
from gate.report.selftest import to_markdown, to_text
from gate.rubric.source import RubricSource


def load(args: argparse.Namespace) -> tuple[Rubric, list[BaseFinding]]:
    """The rubric, and (with --base) the rules that name what the base lacks."""
    if args.file is not None and args.base is not None:
        raise GateError("give either a rubric FILE or --base REV, not both")
    if args.base is not None:
        from gate.git.repo import Repo, short

        repo = Repo(args.repo)
        sha = repo.rev_parse(args.base)
        rubric = RubricSource(args.rubric).load(repo.read_blob, sha)
        return rubric, check_at_base(rubric, repo.list_files(sha), short(sha))
    return RubricSource(file=args.file if args.file is not None else args.rubric).load(), []


def run(args: argparse.Namespace) -> int:
    rubric, at_base = load(args)
    report = run_selftest(rubric)

    def data() -> dict[str, Any]:
        found = report.to_dict()
        if args.base is not None:
            found["at_base"] = [f.to_dict() for f in at_base]
        return found

    output.write(
        in_format(
            args.format,
            data=data,
            text=lambda: to_text(report, rubric.source, args.strict, at_base),
            markdown=lambda: to_markdown(report, rubric.source, at_base),
        )
    )
    if not report.agrees:
        return EXIT_FAIL
    if args.strict and (report.strict_problems() or any(f.strict for f in at_base)):
        return EXIT_FAIL
    return EXIT_PASS
