"""Runs the real pytest on a folder of test files, for tests that show a
bend is real: what the gate refuses turns a red test green."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def run_pytest(folder: Path, path: Sequence[Path] = ()) -> str:
    """pytest's summary line for the tests of `folder` (no cache, no random
    order), with `path` on PYTHONPATH when given (as an install puts them
    on `sys.path`)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in path)} if path else None
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=env,
    )
    return (done.stdout.strip().splitlines() or [""])[-1]
