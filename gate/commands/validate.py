"""`gate validate [FILE]`: check a rubric against the schema (exit 0 or 2)."""

from __future__ import annotations

import argparse

from gate.base import output
from gate.base.errors import EXIT_PASS
from gate.base.escape import printable


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def run(args: argparse.Namespace) -> int:
    from gate.rubric.source import RubricSource

    rubric = RubricSource(file=args.file).load()
    output.write(
        f"{printable(args.file)}: valid rubric, {_count(len(rubric.rules), 'rule')}, "
        f"{_count(len(rubric.examples), 'example')}\n"
    )
    return EXIT_PASS
