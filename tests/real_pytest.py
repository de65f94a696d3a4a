"""Runs the real pytest on a folder of test files, for tests that show a
bend is real: what the gate refuses turns a red test green."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_pytest(folder: Path) -> str:
    """pytest's summary line for the tests of `folder` (no cache, no random order)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return done.stdout.strip().splitlines()[-1]
