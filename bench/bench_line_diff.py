"""The line diff under `confine_to_symbols` on changes that regenerate a table
of repeated lines, side by side with `git diff --numstat` on the same blobs.

    python bench/bench_line_diff.py [--lines 200000] [--runs 3] [--python VENV/bin/python]

Builds (with git's plumbing, in a temporary folder) one repository per
shape below: a Python module holding `TABLE = [...]` of `--lines` lines and
a small `clamp`, changed so that few or no lines are unique (where a
patience diff finds no anchor and a plain longest-common-subsequence
search goes quadratic).  The rubric confines the change to `TABLE` and
`clamp`.  Prints, per shape, the median wall time of

* `gate.base.text.line_diff` on the two texts, in this process,
* `git diff --numstat BLOB_A BLOB_B` on the same two blobs,
* `python -m gate check --base B --head H --format json` (a subprocess:
  git, the parse of both versions, the diff and the verdict), and
* `git diff --numstat -z -M B...H`,

with the changed-line counts of each diff (the gate's never mark a line
unchanged that is not; they may count more than git's).  Target: within
a few times git's own time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

RUBRIC = b"""\
version: 1
rules:
  - {id: SCOPE, kind: confine_to_symbols, file: table.py, symbols: [TABLE, clamp]}
"""


def module(rows: list[str]) -> bytes:
    body = "".join(f"    {row},\n" for row in rows)
    return f"TABLE = [\n{body}]\n\n\ndef clamp(x):\n    return x\n".encode()


def shapes(n: int) -> dict[str, tuple[list[str], list[str]]]:
    """(base rows, head rows) per shape: few or no unique lines."""
    return {
        "every 10th row changed": (["0"] * n, ["1" if k % 10 == 0 else "0" for k in range(n)]),
        "period 7 -> period 5": ([str(k % 7) for k in range(n)], [str(k % 5) for k in range(n)]),
        "pairs swapped": (
            ["'a'" if k % 2 else "'b'" for k in range(n)],
            ["'b'" if k % 2 else "'a'" for k in range(n)],
        ),
        "unique rows, blocks reversed": (
            [str(k) for k in range(n)],
            [str(k) for b in reversed(range(0, n, 1000)) for k in range(b, min(b + 1000, n))],
        ),
    }


def git(root: Path, *args: str, data: bytes | None = None, index: str | None = None) -> bytes:
    env = dict(ENV)
    if index is not None:
        env["GIT_INDEX_FILE"] = index
    return subprocess.run(
        ["git", *args], cwd=root, input=data, capture_output=True, check=True, env=env
    ).stdout


def commit(root: Path, tree: dict[str, bytes], parent: str | None) -> tuple[str, dict[str, str]]:
    index = str(root / ".git" / "bench-index")
    if os.path.exists(index):
        os.unlink(index)
    records = b""
    blobs = {}
    for path, data in tree.items():
        sha = git(root, "hash-object", "-w", "--stdin", data=data).decode().strip()
        blobs[path] = sha
        records += f"100644 {sha}\t{path}\0".encode()
    git(root, "update-index", "-z", "--index-info", data=records, index=index)
    tree_sha = git(root, "write-tree", index=index).decode().strip()
    args = ["commit-tree", tree_sha, "-m", "bench"] + (["-p", parent] if parent else [])
    return git(root, *args).decode().strip(), blobs


def timed(runs: int, work: Callable[[], object]) -> float:
    """Median wall time of `runs` calls of `work`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(argv: list[str], cwd: Path) -> bytes:
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, env=ENV, check=False)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv[:4]} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout


def measure(old: list[str], new: list[str], runs: int, python: str) -> str:
    """One row of the table for one shape."""
    from gate.base.text import decode, line_diff

    base_text, head_text = module(old), module(new)
    with tempfile.TemporaryDirectory(prefix="gate-bench-diff-") as tmp:
        root = Path(tmp)
        git(root, "init", "-q", "-b", "main")
        base, blobs_a = commit(
            root, {".github/blast-radius.yml": RUBRIC, "table.py": base_text}, None
        )
        head, blobs_b = commit(
            root, {".github/blast-radius.yml": RUBRIC, "table.py": head_text}, base
        )
        a, b = decode(base_text), decode(head_text)
        diff = line_diff(a, b)
        diff_s = timed(runs, partial(line_diff, a, b))
        blob_argv = ["git", "diff", "--numstat", blobs_a["table.py"], blobs_b["table.py"]]
        numstat = run(blob_argv, root)
        blobs_s = timed(runs, partial(run, blob_argv, root))
        gate_argv = [python, "-m", "gate", "check", "--base", base, "--head", head]
        gate_s = timed(runs, partial(run, [*gate_argv, "--format", "json"], root))
        git_argv = ["git", "diff", "--numstat", "-z", "-M", f"{base}...{head}"]
        git_s = timed(runs, partial(run, git_argv, root))
    git_added, git_deleted = numstat.split()[:2]
    ours = f"+{len(diff.added):,} -{len(diff.removed):,}"
    theirs = f"+{int(git_added):,} -{int(git_deleted):,}"
    return (
        f"{diff_s:9.3f} {blobs_s:9.3f} {diff_s / blobs_s:6.1f}"
        f" {gate_s:10.3f} {git_s:9.3f} {gate_s / git_s:6.1f}   {ours} / {theirs}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    print(f"TABLE of {args.lines:,} rows; median of {args.runs} runs; times in seconds")
    print(
        f"{'shape':30s} {'line_diff':>9s} {'git blobs':>9s} {'ratio':>6s}"
        f" {'gate check':>10s} {'git diff':>9s} {'ratio':>6s}   changed (gate / git)"
    )
    for name, (old, new) in shapes(args.lines).items():
        print(f"{name:30s} {measure(old, new, args.runs, args.python)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
