"""`gate backtest` over real histories: commits a second, against separate `gate check` runs.

    python bench/bench_backtest.py REPO... [--last 200] [--jobs 1,4] [--checks 30]
        [--python VENV/bin/python] [--rubric-file F | --rubric-dir D] [--before SRC]
        [--runs N]

For each REPO (a clone or a bare snapshot), with the starter rubric (`gate
init`'s text, given as `--rubric-file`):

* `gate backtest --last N --format json` as one subprocess, once per
  `--jobs` value, timed end to end (start-up, rubric load, examples and all):
  commits judged a second, and per CPU second (the workers' and git's CPU
  included: what a machine others share still measures fairly);
* `gate check --base SHA^ --head SHA --rubric-file STARTER --format json`,
  one subprocess per commit, for the newest `--checks` commits of the same
  walk, timed: commits a second that way, and each one's `failed` compared
  with the backtest's (any difference is a bug: exit 1).

With `--before SRC` (another checkout of the gate, e.g. `git worktree add
SRC main`), the same backtest is run from SRC too: its CPU seconds, this
checkout's speed-up over it in CPU seconds (`x cpu`), and whether the two
JSON outputs are byte-identical (a difference is a bug: exit 1), and its
commits a second (`before c/s`).  `--runs N` runs each backtest N times,
this checkout and SRC in turn (the machine's load moves by the minute),
and prints the medians.
`--rubric-file` replaces the starter rubric (e.g. a fixed copy of it, so
that the figures of two checkouts compare); `--rubric-dir D` gives each
repository its own, `D/NAME.yml`, NAME the repository's folder name (or,
for a snapshot at `.../OWNER+NAME/repo`, `OWNER+NAME`).

Prints one row per repository and `--jobs` value.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gate.starter import STARTER_RUBRIC  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "GIT_CONFIG_NOSYSTEM": "1"}


def cpu_seconds() -> float:
    """User + system CPU of the finished child processes (and theirs: the
    backtest's workers and git), so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def gate(python: str, *argv: str, root: Path = ROOT) -> tuple[int, bytes, float]:
    start = time.perf_counter()
    env = {**ENV, "PYTHONPATH": str(root)}
    proc = subprocess.run(
        [python, "-m", "gate", *argv], capture_output=True, env=env, check=False, cwd=root
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"gate {argv[0]} exited {proc.returncode}: {proc.stderr[-400:]!r}")
    return proc.returncode, proc.stdout, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+")
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--jobs", default="1,4", help="comma-separated --jobs values")
    parser.add_argument("--checks", type=int, default=30, help="separate gate check runs")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--rubric-file", help="instead of the starter rubric")
    parser.add_argument("--rubric-dir", type=Path, help="NAME.yml per repository")
    parser.add_argument("--before", type=Path, help="another checkout to compare with")
    parser.add_argument("--runs", type=int, default=1, help="interleaved runs, medians shown")
    args = parser.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        rubric = Path(tmp, "starter.yml")
        rubric.write_text(STARTER_RUBRIC, encoding="utf-8")
        if args.rubric_file:
            rubric = Path(args.rubric_file).resolve()
        print(
            f"{'repository':<28} {'jobs':>4} {'judged':>6} {'unjudged':>8} {'backtest s':>10} "
            f"{'commits/s':>9} {'cpu s':>6} {'per cpu-s':>9} {'checks/s':>8} {'ratio':>5} "
            f"{'agree':>5}"
            + (
                f" {'before cpu s':>12} {'x cpu':>5} {'before c/s':>10} {'same':>4}"
                if args.before
                else ""
            )
        )
        for repo in args.repos:
            name = Path(repo).resolve().as_posix().split("/.mirror/")[-1][:28]
            if args.rubric_dir:
                rubric = (args.rubric_dir / f"{_folder(repo)}.yml").resolve()
            check_rate: float | None = None
            agree = "-"
            for jobs in (int(j) for j in args.jobs.split(",")):
                argv = ["backtest", "--repo", repo, "--rubric-file", str(rubric)]
                argv += ["--last", str(args.last), "--jobs", str(jobs), "--format", "json"]
                times: list[float] = []
                cpus: list[float] = []
                old_times: list[float] = []
                old_cpus: list[float] = []
                same_json = True
                for _ in range(max(1, args.runs)):
                    cpu = cpu_seconds()
                    _, out, took = gate(args.python, *argv)
                    cpus.append(cpu_seconds() - cpu)
                    times.append(took)
                    if args.before:
                        old_cpu = cpu_seconds()
                        _, old_out, old_took = gate(args.python, *argv, root=args.before.resolve())
                        old_cpus.append(cpu_seconds() - old_cpu)
                        old_times.append(old_took)
                        same_json = same_json and old_out == out
                elapsed, cpu = statistics.median(times), statistics.median(cpus)
                versus = ""
                data = json.loads(out)
                if args.before:
                    bad += not same_json
                    old_cpu = statistics.median(old_cpus)
                    old_rate = len(data["commits"]) / statistics.median(old_times)
                    versus = (
                        f" {old_cpu:>12.1f} {old_cpu / cpu:>5.2f} {old_rate:>10.1f}"
                        f" {'yes' if same_json else 'NO':>4}"
                    )
                judged = data["commits"]
                if check_rate is None and args.checks:
                    sample = judged[: args.checks]
                    total = 0.0
                    same = 0
                    for commit in sample:
                        sha = commit["sha"]
                        _, report, took = gate(
                            args.python,
                            "check",
                            "--repo",
                            repo,
                            "--base",
                            f"{sha}^",
                            "--head",
                            sha,
                            "--rubric-file",
                            str(rubric),
                            "--format",
                            "json",
                        )
                        total += took
                        if json.loads(report)["failed"] == commit["failed"]:
                            same += 1
                        else:
                            bad += 1
                            print(f"  DISAGREES {sha}: backtest {commit['failed']}", flush=True)
                    check_rate = len(sample) / total if total else 0.0
                    agree = f"{same}/{len(sample)}"
                rate = len(judged) / elapsed
                ratio = rate / check_rate if check_rate else 0.0
                print(
                    f"{name:<28} {jobs:>4} {len(judged):>6} {len(data['unjudged']):>8} "
                    f"{elapsed:>10.2f} {rate:>9.1f} {cpu:>6.1f} {len(judged) / cpu:>9.1f} "
                    f"{check_rate or 0:>8.1f} {ratio:>5.1f} "
                    f"{agree:>5}{versus}",
                    flush=True,
                )
    return 1 if bad else 0


def _folder(repo: str) -> str:
    """The repository's name for `--rubric-dir`: its folder's, or for a
    snapshot at `.../OWNER+NAME/repo`, `OWNER+NAME`."""
    path = Path(repo).resolve()
    return path.parent.name if path.name == "repo" else path.name


if __name__ == "__main__":
    raise SystemExit(main())
