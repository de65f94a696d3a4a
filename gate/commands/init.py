"""`gate init [--path PATH]`: write the starter rubric (never overwrites)."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate import output
from gate.errors import EXIT_PASS, GateError
from gate.escape import printable
from gate.model import DEFAULT_RUBRIC_PATH
from gate.starter import STARTER_RUBRIC


def write_starter(path: str) -> None:
    target = Path(path)
    name = printable(path)
    if target.exists() or target.is_symlink():
        raise GateError(
            f"{name} already exists; gate init never overwrites a rubric: "
            "edit it, or pass --path to write the starter somewhere else"
        )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("x", encoding="utf-8", newline="\n") as fh:
            fh.write(STARTER_RUBRIC)
    except FileExistsError:
        raise GateError(
            f"{name} already exists; gate init never overwrites a rubric: "
            "edit it, or pass --path to write the starter somewhere else"
        ) from None
    except OSError as exc:
        raise GateError(f"cannot write {name} ({exc.strerror or exc}): check --path") from None


def run(args: argparse.Namespace) -> int:
    path: str = args.path
    write_starter(path)
    name = printable(path)
    default = path == DEFAULT_RUBRIC_PATH
    lines = [
        f"wrote {name}: a starter rubric with 5 rules and an example for each",
        "next:",
        f"  gate selftest --strict {name}   # the examples prove every rule can fail",
        "  edit the limits and paths to fit your repository, then commit it in its own PR",
    ]
    if default:
        lines.append(
            "  gate check --base main           # judges your branch by the rubric at main"
        )
    else:
        lines.append(f"  gate check --base main --rubric {name}")
    output.write("\n".join(lines) + "\n")
    return EXIT_PASS
