"""The replay writer: recorded outputs from a folder, for `gate loop run`.

`python -m gate.research.writers.replay DIR` (or `gate loop replay DIR`) reads
`GATE_WRITER`, `GATE_PROMPT` and `GATE_ATTEMPT` (set by the loop) and replays
`DIR/<writer>/<prompt>/<attempt>.patch` (printed on stdout: a writer that
prints a diff), or else copies the files under `DIR/<writer>/<prompt>/<attempt>.files/`
over the current folder (a writer that edits the worktree).  No recording
for the attempt: exit 3 with one sentence on stderr (the loop files it as
`infrastructure`).  It reads the prompt from stdin and ignores it.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from gate.base.errors import GateError
from gate.base.files import read_input

NO_RECORDING = 3


def replay(folder: str, environ: Mapping[str, str], cwd: str = ".") -> int:
    missing = [n for n in ("GATE_WRITER", "GATE_PROMPT", "GATE_ATTEMPT") if not environ.get(n)]
    if missing:
        print(f"replay: {', '.join(missing)} not set: run me from gate loop run", file=sys.stderr)
        return 2
    parts = [environ["GATE_WRITER"], environ["GATE_PROMPT"]]
    if any(p in ("", ".", "..") or "/" in p or "\\" in p for p in parts):
        print("replay: writer or prompt name is not a plain name", file=sys.stderr)
        return 2
    here = Path(folder, *parts)
    attempt = environ["GATE_ATTEMPT"]
    if not attempt.isdigit():
        print(f"replay: GATE_ATTEMPT {attempt!r} is not a number", file=sys.stderr)
        return 2
    patch = here / f"{attempt}.patch"
    files = here / f"{attempt}.files"
    if patch.is_file():
        sys.stdout.buffer.write(read_input(patch, "recording", fix="record the attempt again"))
        sys.stdout.buffer.flush()
        return 0
    if files.is_dir():
        shutil.copytree(files, cwd, dirs_exist_ok=True)
        return 0
    print(f"replay: no recording {patch} nor {files}/", file=sys.stderr)
    return NO_RECORDING


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m gate.research.writers.replay DIR", file=sys.stderr)
        return 2
    if not sys.stdin.isatty():
        sys.stdin.buffer.read()  # the prompt: read, so the loop's write never blocks
    try:
        return replay(args[0], os.environ)
    except GateError as exc:
        print(f"replay: {exc.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
