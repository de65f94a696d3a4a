"""`gate backtest [--repo DIR] [--rubric-file FILE] [--last N | RANGE]`: what a
rubric would have done to the repository's own history (`gate.research.backtest`)."""

from __future__ import annotations

import argparse
import sys

from gate.base import output
from gate.base.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.report import rendered
from gate.research.backtest_report import to_markdown, to_text


def _progress(done: int, total: int) -> None:
    end = "\n" if done == total else ""
    output.note(f"\rgate: backtest: judged {done}/{total} commits", end=end)


def run(args: argparse.Namespace) -> int:
    from gate.research.backtest import load_and_run

    result = load_and_run(
        args.repo,
        rubric_path=args.rubric,
        rubric_file=args.rubric_file,
        revision=args.range,
        last=args.last,
        jobs=args.jobs,
        progress=_progress if sys.stderr.isatty() else None,
    )
    output.write(rendered(result, args.format, to_text, to_markdown))
    if result.unjudged:
        raise GateError(
            f"could not judge {len(result.unjudged)} of "
            f"{len(result.unjudged) + len(result.commits)} commits (the report's unjudged "
            "list says why); fetch the missing history or pass a shorter --last"
        )
    return EXIT_FAIL if any(c.failed for c in result.commits) else EXIT_PASS
