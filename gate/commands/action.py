"""`gate action`: the GitHub Action's entry point (reads the runner's environment)."""

from __future__ import annotations

import argparse
import os


def run(args: argparse.Namespace) -> int:
    from gate.action.action import run as run_action

    return run_action(os.environ)
