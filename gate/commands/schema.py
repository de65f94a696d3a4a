"""`gate schema`: print the rubric's JSON Schema (Draft 2020-12)."""

from __future__ import annotations

import argparse

from gate.base import output
from gate.base.errors import EXIT_PASS
from gate.base.jsontext import dumps


def run(args: argparse.Namespace) -> int:
    from gate.rubric.schema import schema

    output.write(dumps(schema()))
    return EXIT_PASS
