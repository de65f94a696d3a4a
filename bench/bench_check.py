"""`gate check` on a huge change, side by side with the `git diff` it is built on.

    python bench/bench_check.py [--scale 1.0] [--runs 5] [--python VENV/bin/python]

Builds (with `git fast-import`, in a temporary folder) a repository whose
change touches 10,000 files and about 1,000,000 changed lines (500,000 added,
500,000 deleted; plus 100 added and 100 deleted files), with a rubric at the
base.  Then, for the full size and for 1/10 of it, prints the median wall
time of

* `python -m gate check --base B --head H --format json` (a subprocess), and
* `git diff --numstat -z -M B...H` (what any tool has to pay for the numbers),

their ratio, and the peak RSS of each (from `wait4`, which covers the process
and its waited-for children).  A third command, the floor, is what any
gate written in Python pays before it judges anything: the same diff, and
every changed blob piped out of `git cat-file --batch` beside it (the
lone-`\r` and binary defences read each one), both outputs read by Python
threads and thrown away; no import of the gate, no rubric, no rule.
Targets: ratio <= 1.3, gate peak RSS <= 100 MB, and an RSS that does not
grow with the size of the diff.  `--scale 0.1` runs
a ten-times smaller pair (1/10 and 1/100) for a quick look.  Python
bytecode is cached in a temporary prefix, as it is for an installed package.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "PYTHONPATH": str(ROOT),
}

PYTHON = [sys.executable]  # set from --python

FILES = 10_000
LINES_PER_FILE = 100  # 50 of them change: 50 added + 50 deleted = 100 changed lines
CHANGED_PER_FILE = 50
MOVED = 100  # files deleted and files added (rename candidates that do not match)

RUBRIC = b"""\
version: 1
rules:
  - {id: FILES, kind: max_files, limit: 20000, exclude: ["docs/"]}
  - {id: LINES, kind: max_lines, limit: 5000000}
  - {id: SECRETS, kind: forbidden_paths, paths: ["secrets/", "**/*.pem"]}
  - {id: PREFIX, kind: forbidden_path, prefix: "vendor/"}
  - {id: WHERE, kind: allowed_paths, paths: ["src/**", "tests/"]}
  - {id: TESTS, kind: test_drift}
  - {id: KEEP, kind: keep_lines, file: src/d000/f00000.py, lines: ["value_99 = 99"]}
"""


def path_of(i: int) -> str:
    return f"src/d{i // 100:03d}/f{i:05d}.py"


def body(i: int, head: bool) -> bytes:
    lines = []
    for n in range(LINES_PER_FILE):
        if head and n < CHANGED_PER_FILE:
            lines.append(f"value_{n} = {n} + {i}  # changed\n")
        else:
            lines.append(f"value_{n} = {n}\n")
    return "".join(lines).encode()


def blob(path: str, data: bytes) -> Iterator[bytes]:
    yield f"M 100644 inline {path}\n".encode()
    yield f"data {len(data)}\n".encode()
    yield data
    yield b"\n"


def stream(files: int, moved: int) -> Iterator[bytes]:
    yield b"commit refs/heads/base\n"
    yield b"committer bench <bench@example.invalid> 1767225600 +0000\n"
    yield b"data 4\nbase\n"
    yield from blob(".github/blast-radius.yml", RUBRIC)
    for i in range(files):
        yield from blob(path_of(i), body(i, head=False))
    for i in range(moved):
        yield from blob(f"src/old/gone{i:04d}.py", f"gone = {i}\n".encode() * 3)
    yield b"\n"
    yield b"commit refs/heads/head\n"
    yield b"committer bench <bench@example.invalid> 1767225601 +0000\n"
    yield b"data 4\nhead\n"
    yield b"from refs/heads/base\n"
    for i in range(files):
        yield from blob(path_of(i), body(i, head=True))
    for i in range(moved):
        yield f"D src/old/gone{i:04d}.py\n".encode()
        yield from blob(f"src/new/fresh{i:04d}.py", f"fresh_{i} = '{i}'\n".encode() * 7)
    yield b"\n"


def build(folder: Path, files: int, moved: int) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True, env=ENV)
    proc = subprocess.Popen(
        ["git", "fast-import", "--quiet"], cwd=folder, stdin=subprocess.PIPE, env=ENV
    )
    assert proc.stdin is not None
    buffer: list[bytes] = []
    size = 0
    for part in stream(files, moved):
        buffer.append(part)
        size += len(part)
        if size > 1 << 20:
            proc.stdin.write(b"".join(buffer))
            buffer, size = [], 0
    proc.stdin.write(b"".join(buffer))
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit("git fast-import failed")


# Runs one command and writes "seconds maxrss_kib exit_code cpu_seconds" to the
# file named by its first argument.  A process started directly by the bench
# would inherit the bench's own peak RSS (Linux keeps the high-water mark of
# the memory a process had when it called exec), so a small launcher starts
# it: its ~8 MB is the floor under every figure.
LAUNCHER = """\
import os, sys, time
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{time.perf_counter() - start} {usage.ru_maxrss} "
              f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime}")
"""


# The floor: git's diff and the blob read beside it, read by Python and
# thrown away (`python -S -c FLOOR BASE HEAD`, in the repository).
FLOOR = """\
import os, subprocess, sys, threading, time
base, head = sys.argv[1:3]
run = lambda *a: subprocess.run(["git", *a], capture_output=True, check=True).stdout
fork = run("merge-base", base, head).strip().decode()
pipe = subprocess.PIPE
big = 1 << 20  # pipes of 1 MiB, as the gate's
diff = subprocess.Popen(["git", "diff", "--raw", "--numstat", "-z", "-M", "--no-abbrev",
                         fork, head], stdout=pipe, pipesize=big)
cat = subprocess.Popen(["git", "cat-file", "--batch", "--buffer"], stdin=pipe, stdout=pipe,
                       pipesize=big)
def drain():
    short = False
    while True:
        if short:
            time.sleep(0.001)
        got = os.read(cat.stdout.fileno(), big)
        if not got:
            return
        short = len(got) < big // 16
reader = threading.Thread(target=drain)
reader.start()
sent, tail = set(), b""
while True:
    got = os.read(diff.stdout.fileno(), big)
    if not got:
        break
    data = tail + got
    cut = data.rfind(b"\\0")
    tail = data[cut + 1:]
    names = []
    for token in data[:cut].split(b"\\0"):
        if token[:1] == b":":
            fields = token.split(b" ")
            for oid in fields[2:4]:
                if oid not in sent and oid.strip(b"0"):
                    sent.add(oid)
                    names.append(oid)
    if names:
        cat.stdin.write(b"\\n".join(names) + b"\\n")
cat.stdin.close()
reader.join()
sys.exit(diff.wait() or cat.wait())
"""


def measure(
    argv: list[str], cwd: Path, codes: tuple[int, ...] = (0, 1)
) -> tuple[float, int, bytes, float]:
    """(wall seconds, peak RSS in KiB, stdout, CPU seconds) of one run, which
    must exit with one of `codes` (a run expected to refuse, without 0 among
    them, keeps its error sentence off the console).

    stdout is drained through a pipe; RSS and CPU come from `wait4` and cover
    the process and the children it waited for (the gate's git processes)."""
    with tempfile.NamedTemporaryFile(prefix="gate-bench-run-") as result:
        launch = [sys.executable, "-S", "-I", "-c", LAUNCHER, result.name, *argv]
        stderr = None if 0 in codes else subprocess.DEVNULL
        proc = subprocess.Popen(launch, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=stderr)
        assert proc.stdout is not None
        chunks = []
        while True:
            chunk = proc.stdout.read(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        if proc.wait() != 0:
            raise SystemExit(f"cannot run {argv[:4]}")
        elapsed, rss, code, cpu = Path(result.name).read_text().split()
    if int(code) not in codes:
        raise SystemExit(f"{argv[:4]} exited {code}")
    return float(elapsed), int(rss), b"".join(chunks), float(cpu)


def bench(files: int, moved: int, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="gate-bench-check-") as tmp:
        repo = Path(tmp) / "repo"
        started = time.perf_counter()
        build(repo, files, moved)
        built = time.perf_counter() - started
        gate = [PYTHON[0], "-m", "gate", "check", "--base", "base", "--head", "head"]
        gate += ["--format", "json", "--repo", str(repo)]
        git = ["git", "diff", "--numstat", "-z", "-M", "base...head"]
        floor = [PYTHON[0], "-S", "-c", FLOOR, "base", "head"]
        # warm the page cache and check the two agree on the size of the change
        raw = measure(git, repo)[2]
        numstat = [r for r in raw.split(b"\0") if r]
        report = measure(gate, repo)[2]
        import json

        stats = json.loads(report)["stats"]
        gate_times, git_times, gate_rss, git_rss = [], [], [], []
        gate_cpu, git_cpu, floor_times = [], [], []
        for _ in range(runs):
            t, rss, _, cpu = measure(gate, repo)
            gate_times.append(t)
            gate_rss.append(rss)
            gate_cpu.append(cpu)
            t, rss, _, cpu = measure(git, repo)
            git_times.append(t)
            git_rss.append(rss)
            git_cpu.append(cpu)
            floor_times.append(measure(floor, repo, codes=(0,))[0])
        return {
            "files": stats["files_touched"],
            "changed": stats["added_lines"] + stats["deleted_lines"],
            "numstat_records": len(numstat),
            "build_s": built,
            "gate_s": statistics.median(gate_times),
            "git_s": statistics.median(git_times),
            "gate_cpu_s": statistics.median(gate_cpu),
            "git_cpu_s": statistics.median(git_cpu),
            "floor_s": statistics.median(floor_times),
            "gate_rss_mb": max(gate_rss) / 1024,
            "git_rss_mb": max(git_rss) / 1024,
        }


def main() -> int:
    # An installed package has its bytecode compiled; measure that, not the
    # compiler: bytecode goes to a throwaway prefix (the source tree stays clean).
    with tempfile.TemporaryDirectory(prefix="gate-bench-pyc-") as pyc:
        ENV["PYTHONPYCACHEPREFIX"] = pyc
        return run()


def run() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full size")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command")
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="interpreter that runs the gate, e.g. a clean virtualenv's (default: this one); "
        "site-packages .pth hooks of a shared interpreter add to every start",
    )
    args = parser.parse_args()
    PYTHON[0] = args.python
    rows = []
    for factor in (args.scale, args.scale / 10):
        files = max(1, round(FILES * factor))
        moved = max(1, round(MOVED * factor))
        row = bench(files, moved, args.runs)
        rows.append(row)
        print(
            f"files={row['files']:>6} changed_lines={row['changed']:>8} "
            f"gate={row['gate_s']:.3f}s git_diff={row['git_s']:.3f}s "
            f"ratio={row['gate_s'] / row['git_s']:.2f} "
            f"cpu gate={row['gate_cpu_s']:.3f}s git={row['git_cpu_s']:.3f}s "
            f"gate_peak_rss={row['gate_rss_mb']:.1f}MB git_peak_rss={row['git_rss_mb']:.1f}MB "
            f"floor={row['floor_s']:.3f}s (ratio {row['floor_s'] / row['git_s']:.2f}) "
            f"(repo built in {row['build_s']:.1f}s, median of {args.runs})",
            flush=True,
        )
    startup = statistics.median(
        measure([PYTHON[0], "-c", "pass"], ROOT)[0] for _ in range(max(3, args.runs))
    )
    print(
        f"baseline: `python -c pass` takes {startup:.3f}s here (part of every gate run); "
        "the gate's peak RSS includes its git children (wait4)"
    )
    full = rows[0]
    ratio = full["gate_s"] / full["git_s"]
    growth = full["gate_rss_mb"] - rows[1]["gate_rss_mb"]
    print(
        f"targets: ratio {ratio:.2f} <= 1.3: {'ok' if ratio <= 1.3 else 'MISSED'}; "
        f"peak RSS {full['gate_rss_mb']:.1f}MB <= 100MB: "
        f"{'ok' if full['gate_rss_mb'] <= 100 else 'MISSED'}; "
        f"RSS growth from 1/10 to full size: {growth:+.1f}MB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
