"""`gate freeze FILE...`: print one `NAME SHA256` line per file.

Every file is read before anything is printed, so a missing file (exit 2)
never leaves a partial freeze file behind a shell redirection.
"""

from __future__ import annotations

import argparse

from gate.base import output
from gate.base.errors import EXIT_PASS


def run(args: argparse.Namespace) -> int:
    from gate.rubric.freeze import freeze_line

    lines = [freeze_line(path) for path in args.files]
    output.write("\n".join(lines) + "\n")
    return EXIT_PASS
