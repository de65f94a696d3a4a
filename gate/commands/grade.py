"""`gate grade RESULT.json --rubric-file FILE [--freeze FILE]`: judge a writer's result.

The frozen-judge loop of seed 003: the rubric is hashed and checked against
the freeze *before* the writer's result is even read, so a run graded by a
rubric edited after the freeze is discarded, never scored.  The result must
meet the field contract (`gate.changes.writer`); a missing field prints
`{"missing": [...]}` on stdout and exits 2.
"""

from __future__ import annotations

import argparse

from gate.base import output
from gate.base.errors import EXIT_FAIL, EXIT_PASS
from gate.base.files import write_report
from gate.base.jsontext import dumps
from gate.model.rubric import DEFAULT_RUBRIC_PATH
from gate.report import render, to_json


def notes_for(files_touched: int | None, path_count: int) -> list[str]:
    if files_touched is not None and files_touched < path_count:
        from gate.rules.max_files import stated_count

        return [
            f"the result says files_touched {files_touched} but lists {path_count} paths; "
            f"max_files judged {stated_count(files_touched, path_count)} (the stated count, "
            "never less than half the paths: a rename lists two)"
        ]
    return []


def run(args: argparse.Namespace) -> int:
    from gate.changes.writer import WriterContractError, changes_from_writer
    from gate.judge import judge
    from gate.rubric.source import RubricSource

    # The freeze is checked as the rubric loads, before the result is read.
    rubric = RubricSource(file=args.rubric_file, freeze=args.freeze).load()
    try:
        changes = changes_from_writer(args.writer_result)
    except WriterContractError as exc:
        # The machine-readable part on stdout; the sentence goes to stderr
        # through cli.main like every other error.
        output.write(dumps(exc.payload(), indent=None))
        raise
    notes = notes_for(changes.files_touched, len(changes.touched_paths()))
    # The rubric's examples run first, as in every other entry point, so a
    # rubric that disagrees with its own examples fails here as on GitHub.
    report = judge(rubric, changes, rubric_path=DEFAULT_RUBRIC_PATH, notes=notes)
    if args.output is not None:
        write_report(args.output, to_json(report))
    output.write(render(report, args.format, rubric_path=DEFAULT_RUBRIC_PATH))
    return EXIT_PASS if report.passed else EXIT_FAIL
