"""`gate validate [FILE]`: check a rubric against the schema (exit 0 or 2)."""

from __future__ import annotations

import argparse

from gate.errors import EXIT_PASS


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def run(args: argparse.Namespace) -> int:
    from gate.rubric import load_rubric_file

    rubric = load_rubric_file(args.file)
    print(
        f"{args.file}: valid rubric, {_count(len(rubric.rules), 'rule')}, "
        f"{_count(len(rubric.examples), 'example')}"
    )
    return EXIT_PASS
