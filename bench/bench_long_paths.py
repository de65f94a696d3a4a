"""`gate check` on a change whose paths are hundreds of thousands of characters
long, side by side with the `git diff` it is built on.

    python bench/bench_long_paths.py [--length 400000] [--runs 5] [--python VENV/bin/python]

Builds (with git's plumbing, in a temporary folder) a repository whose
change adds one file per shape below, each path about `--length`
characters, crafted against the default test globs (`**/*.test.*`,
`**/*.spec.*`, `**/__tests__/`, ...): repeated literal runs a backtracking
matcher would retry at every position.  The rubric matches every path
against the default test globs (`test_drift`), a forbidding and an
allowing glob list.  Prints the median wall time of

* `python -m gate check --base B --head H --format json` (a subprocess),
* the same for the same files at short paths (the gate's fixed cost), and
* `git diff --numstat -z -M B...H`,

and, in this process, the time to match each path against the default test
globs in every mode.  Target: what long paths add to the gate's time stays
within a few times git's own time on them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

RUBRIC = b"""\
version: 1
rules:
  - {id: TESTS, kind: test_drift, allow_added: false}
  - {id: SECRETS, kind: forbidden_paths, paths: ["secrets/", "**/*.pem", "/.github/workflows/"]}
  - {id: WHERE, kind: allowed_paths, paths: ["src/**", "docs/*.md"]}
  - {id: FILES, kind: max_files, limit: 100, exclude: ["**/*.lock"]}
"""


def shapes(length: int) -> dict[str, str]:
    """Paths of about `length` characters, each crafted against one default glob."""
    return {
        "dot-test": ".test." * (length // 6) + "/x",
        "dot-spec": ".spec" * (length // 5) + "/z",
        "tests-dir": "__tests__x" * (length // 10) + "/y",
        "test_-prefix": "test_" * (length // 5) + "/x.py",
        "one-name": "a" * length,
    }


def git(root: Path, *args: str, data: bytes | None = None, index: str | None = None) -> bytes:
    env = dict(ENV)
    if index is not None:
        env["GIT_INDEX_FILE"] = index
    return subprocess.run(
        ["git", *args], cwd=root, input=data, capture_output=True, check=True, env=env
    ).stdout


def commit(root: Path, tree: dict[str, bytes], parent: str | None) -> str:
    index = str(root / ".git" / "bench-index")
    if os.path.exists(index):
        os.unlink(index)
    records = b""
    for path, data in tree.items():
        sha = git(root, "hash-object", "-w", "--stdin", data=data).decode().strip()
        records += f"100644 {sha}\t{path}\0".encode()
    git(root, "update-index", "-z", "--index-info", data=records, index=index)
    tree_sha = git(root, "write-tree", index=index).decode().strip()
    args = ["commit-tree", tree_sha, "-m", "bench"] + (["-p", parent] if parent else [])
    return git(root, *args).decode().strip()


def median_time(argv: list[str], cwd: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(argv, cwd=cwd, capture_output=True, env=ENV, check=False)
        times.append(time.perf_counter() - start)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{argv[:4]} failed: {proc.stderr.decode(errors='replace')}")
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=400_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()

    from gate.base import globs
    from gate.model.rubric import DEFAULT_TESTS

    paths = shapes(args.length)
    print(f"paths of ~{args.length:,} characters, matched against the default test globs:")
    for name, path in paths.items():
        for mode in globs.MODES:
            globs._compile.cache_clear()
            start = time.perf_counter()
            globs.matches(path, DEFAULT_TESTS, mode)
            took = time.perf_counter() - start
            print(f"  {name:14s} {mode:6s} {took * 1000:8.1f} ms")

    with tempfile.TemporaryDirectory(prefix="gate-bench-long-") as tmp:
        root = Path(tmp)
        git(root, "init", "-q", "-b", "main")
        base_tree = {".github/blast-radius.yml": RUBRIC, "src/a.py": b"a = 1\n"}
        base = commit(root, base_tree, None)
        head = commit(root, {**base_tree, **{p: b"x\n" for p in paths.values()}}, base)
        short = commit(root, {**base_tree, **{f"{n}/x": b"x\n" for n in paths}}, base)
        gate = [args.python, "-m", "gate", "check", "--base", base, "--format", "json"]
        gate_s = median_time([*gate, "--head", head], root, args.runs)
        floor_s = median_time([*gate, "--head", short], root, args.runs)
        git_s = median_time(
            ["git", "diff", "--numstat", "-z", "-M", f"{base}...{head}"], root, args.runs
        )
    print(f"\n{len(paths)} files, {sum(map(len, paths.values())):,} path characters in all")
    print(f"  gate check, long paths    {gate_s:7.3f} s (median of {args.runs})")
    print(f"  gate check, short paths   {floor_s:7.3f} s (the same files at ~10-character paths)")
    print(f"  long paths cost           {gate_s - floor_s:7.3f} s")
    print(f"  git diff, long paths      {git_s:7.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
