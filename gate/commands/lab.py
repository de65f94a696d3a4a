"""`gate lab PATCH...`: the writer loop at scale, as a scoreboard."""

from __future__ import annotations

import argparse
import sys

from gate.base import output
from gate.base.errors import EXIT_ERROR, EXIT_FAIL, EXIT_PASS, GateError
from gate.base.escape import printable
from gate.report import rendered
from gate.research.lab import run_lab
from gate.research.lab_report import to_markdown, to_text


def _progress(done: int, total: int) -> None:
    end = "\n" if done == total else ""
    output.note(f"\rjudged {done}/{total} patches", end=end)


def run(args: argparse.Namespace) -> int:
    from gate.git.repo import Repo
    from gate.rubric.source import RubricSource

    source = RubricSource(args.rubric, file=args.rubric_file, freeze=args.freeze)
    if args.freeze is not None and args.rubric_file is None:
        raise GateError("--freeze goes with --rubric-file: it pins a local rubric's hash")
    repo = Repo(args.repo)
    base_sha = repo.rev_parse(args.base)
    rubric = source.load(repo.read_blob, base_sha)
    progress = _progress if sys.stderr.isatty() else None
    scope = None
    if args.scope is not None:
        from gate.judge import apply_scope
        from gate.rubric.task_scope import read_scope_file

        scope = read_scope_file(args.scope)
        apply_scope(rubric, scope)  # a scope the rubric refuses: one error, not one per patch
    board = run_lab(
        repo,
        rubric,
        base_sha,
        args.patches,
        rubric_path=source.path,
        repeat=args.repeat,
        jobs=args.jobs,
        stdout_dir=args.stdout_dir,
        progress=progress,
        scope=scope,
    )
    for note in board.notes:  # on stderr too: a must_include failure without output is no verdict
        output.note(f"gate: note: {note}")
    output.write(rendered(board, args.format, to_text, to_markdown))
    if board.judge_errors:
        names = ", ".join(printable(p) for p in board.judge_errors)
        raise GateError(
            f"could not judge {len(board.judge_errors)} of {len(board.entries)} patches "
            f"({names}); their scoreboard rows say why"
        )
    if board.disagreements:
        return EXIT_ERROR
    return EXIT_PASS if all(e.bucket == "pass" for e in board.entries) else EXIT_FAIL
