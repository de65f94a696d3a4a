"""`gate schema`: print the rubric's JSON Schema (Draft 2020-12)."""

from __future__ import annotations

import argparse
import json

from gate.errors import EXIT_PASS


def run(args: argparse.Namespace) -> int:
    from gate.rubric import schema

    print(json.dumps(schema(), sort_keys=True, indent=2, ensure_ascii=False))
    return EXIT_PASS
