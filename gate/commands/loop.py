"""`gate loop run|merge|report|replay`: the article's whole loop (gate/research/loop/)."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Iterator, Sequence
from types import FrameType

from gate.base import output
from gate.base.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.base.escape import printable
from gate.report import rendered
from gate.research.lab import PASS
from gate.research.loop import Attempt


def _progress(done: int, total: int) -> None:
    end = "\n" if done == total else ""
    output.note(f"\rran {done}/{total} attempts", end=end)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a cancelled CI job) stops the run as Ctrl-C does: the running
    attempts are killed and not recorded, their worktrees removed."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _finish(
    args: argparse.Namespace,
    records: Sequence[Attempt],
    *,
    verdict: bool,
    problem: str | None = None,
) -> int:
    """Print the scoreboard of `records` (and write --html); the exit code.
    `verdict` (run): 0 every attempt passed, 1 not, 2 an attempt the gate
    could not judge or `problem`.  Otherwise (merge, report): 0, the
    scoreboard written; the attempts the gate could not judge named on stderr."""
    from gate.base.files import write_report
    from gate.research.loop.html import to_html
    from gate.research.loop.scoreboard import scoreboard
    from gate.research.loop.scoreboard_report import to_markdown, to_text

    board = scoreboard(records)
    if getattr(args, "html", None):
        write_report(args.html, to_html(board), fix="loop --html")
    output.write(rendered(board, args.format, to_text, to_markdown))
    if problem is not None:
        raise GateError(problem)
    if board.judge_errors:
        names = ", ".join(
            f"{printable(a.writer)}/{printable(a.prompt)}/{a.attempt}" for a in board.judge_errors
        )
        said = (
            f"could not judge {len(board.judge_errors)} of {len(board.attempts)} attempts "
            f"({names}); their records say why"
        )
        if verdict:
            raise GateError(said)
        output.note(f"gate: {said}")
    if not verdict:
        return EXIT_PASS
    return EXIT_PASS if all(a.bucket == PASS for a in records) else EXIT_FAIL


def _run(args: argparse.Namespace) -> int:
    from gate.git.repo import Repo
    from gate.research.loop import ResultsFile, parse_shard, prompt_files, read_records
    from gate.research.loop.run import (
        Plan,
        parse_writer,
        read_writers,
        run_loop,
        same_failure,
        unique_writers,
    )
    from gate.rubric.source import RubricSource

    if args.freeze is not None and args.rubric_file is None:
        raise GateError("--freeze goes with --rubric-file: it pins a local rubric's hash")
    if args.attempts < 1:
        raise GateError(f"--attempts must be at least 1, not {args.attempts}")
    for option, seconds in (
        ("--writer-timeout", args.writer_timeout),
        ("--test-timeout", args.test_timeout),
    ):
        if not seconds > 0:
            raise GateError(f"{option} must be a positive number of seconds, not {seconds:g}")
    writers = [parse_writer(w) for w in args.writer]
    if args.writers is not None:
        writers += read_writers(args.writers)
    plan = Plan(
        writers=unique_writers(writers),
        prompts=prompt_files(args.prompts),
        attempts=args.attempts,
        test_command=args.test_cmd,
        writer_timeout=args.writer_timeout,
        test_timeout=args.test_timeout,
        pass_env=tuple(args.pass_env),
        shard=parse_shard(args.shard) if args.shard else None,
        jobs=args.jobs,
        frozen_tests=args.frozen_tests,
    )
    source = RubricSource(args.rubric, file=args.rubric_file, freeze=args.freeze)
    repo = Repo(args.repo)
    base_sha = repo.rev_parse(args.base)
    rubric = source.load(repo.read_blob, base_sha)
    progress = _progress if sys.stderr.isatty() else None
    with (
        _terminate_as_interrupt(),
        ResultsFile(args.results, base_sha, rubric.sha256, plan.commands) as results,
    ):
        skipped = len([k for k in plan.selected() if k in results.done])
        if skipped:
            output.note(f"gate: {skipped} attempts already in {printable(args.results)}: skipped")
        _, base = run_loop(
            repo, rubric, base_sha, plan, results, rubric_path=source.path, progress=progress
        )
    keys = set(plan.selected())
    records = [r for r in read_records(args.results) if r.key in keys]
    return _finish(args, records, verdict=True, problem=same_failure(base, records))


def _merge(args: argparse.Namespace) -> int:
    from gate.research.loop import merge, write_records

    records = merge(args.results_files)
    write_records(args.results, records)
    return _finish(args, records, verdict=False)


def _report(args: argparse.Namespace) -> int:
    from gate.research.loop import read_records

    return _finish(args, read_records(args.results_file), verdict=False)


def _replay(args: argparse.Namespace) -> int:
    from gate.research.writers.replay import main

    return main([args.folder])


def run(args: argparse.Namespace) -> int:
    handlers = {"run": _run, "merge": _merge, "report": _report, "replay": _replay}
    if args.loop_command is None:
        raise GateError("gate loop needs a subcommand: run, merge, report or replay")
    return handlers[args.loop_command](args)
