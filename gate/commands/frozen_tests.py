"""`gate frozen-tests [--base REV] [--repo DIR] [--rubric PATH | --rubric-file
FILE] -- COMMAND [ARG...]`: the base's tests run against HEAD's code
(`gate.frozen`).  Exit 0 when no failure is red, 1 when one is (COMMAND's
output passed through), 2 when the run cannot be prepared."""

from __future__ import annotations

import argparse

from gate.base import output
from gate.base.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.base.names import DEFAULT_RUBRIC_PATH
from gate.git.repo import Repo, default_base
from gate.report import for_machines, rendered


def run(args: argparse.Namespace) -> int:
    from gate.frozen.render import to_markdown, to_text
    from gate.frozen.run import Interrupted, frozen_run
    from gate.rubric.source import RubricSource

    command = list(args.argv)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        raise GateError(
            "no COMMAND: name the test command after --, as an argv "
            "(gate frozen-tests -- python -m pytest -q)"
        )
    if args.rubric_file is not None and args.rubric is not None:
        raise GateError("--rubric and --rubric-file name two rubrics: pass one")
    repo = Repo(args.repo)
    base_rev = args.base if args.base is not None else default_base(repo)
    base = repo.rev_parse(base_rev)
    source = RubricSource(args.rubric or DEFAULT_RUBRIC_PATH, file=args.rubric_file)
    rubric = source.load(repo.read_blob, base)
    try:
        outcome = frozen_run(repo, base_rev, rubric, command, json_out=for_machines(args.format))
    except Interrupted as exc:
        raise GateError(
            f"{exc}: the frozen run's worktree was removed and the checkout is as it was; "
            "nothing was judged"
        ) from None
    output.write(rendered(outcome, args.format, to_text, to_markdown))
    return EXIT_PASS if outcome.passed else EXIT_FAIL
