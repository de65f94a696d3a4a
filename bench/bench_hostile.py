"""Hostile inputs, side by side with git on the same input.

    python bench/bench_hostile.py [CASE ...] [--scale 1.0] [--runs 3] [--python VENV/bin/python]
    python bench/bench_hostile.py --list

docs/hostile-input.md (section 5) asks that each hostile input finishes
within a few times git's own time and memory on the same input, or fails
closed with a named reason.  Each case builds its input in a temporary
folder, then runs the gate and the git command any tool has to pay for on
that input, and prints the median wall time and the peak RSS of each (from
`wait4`: the process and the children it waited for, so the gate's git
processes count) and their ratios.  `--scale 0.1` builds a ten-times
smaller input for a quick look.

Adding a case is one function: build the input under `folder` at `scale`
and return a `Trial`; register it with `@case(NAME, WHAT)`.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bench_check import ENV, PYTHON, measure

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the gate's own limits, from the checkout being measured

from gate.changes.purity import HUNK_LIMIT  # noqa: E402


@dataclass(frozen=True)
class Trial:
    """One measurement: the gate's arguments (after `python -m gate`), the git
    command it is compared with, the folder both run in, what the input is,
    a text the gate's output must contain (proof it judged what we think),
    and the exit codes the gate may give (2 for an input it refuses)."""

    gate: list[str]
    git: list[str]
    cwd: Path
    about: str
    expect: str = ""
    codes: tuple[int, ...] = (0, 1)  # the gate's exit codes that mean it worked


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    build: Callable[[Path, float], Trial]


CASES: dict[str, Case] = {}


def case(name: str, what: str) -> Callable[[Callable[[Path, float], Trial]], Callable[..., Trial]]:
    """Register `build(folder, scale) -> Trial` as the case `name`."""

    def register(build: Callable[[Path, float], Trial]) -> Callable[..., Trial]:
        CASES[name] = Case(name, what, build)
        return build

    return register


# -- building repositories ------------------------------------------------------


def fast_import(folder: Path, commits: list[dict[str, bytes | None]]) -> None:
    """A repository whose branch `main` has one commit per mapping (path -> bytes,
    None deletes), the first at `base`, the last at `head`."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True, env=ENV)
    proc = subprocess.Popen(
        ["git", "fast-import", "--quiet"], cwd=folder, stdin=subprocess.PIPE, env=ENV
    )
    assert proc.stdin is not None
    for n, files in enumerate(commits):
        proc.stdin.write(b"commit refs/heads/main\n")
        proc.stdin.write(f"committer bench <b@example.invalid> {1767225600 + n} +0000\n".encode())
        proc.stdin.write(b"data 1\nc\n")
        for path, data in files.items():
            if data is None:
                proc.stdin.write(f"D {path}\n".encode())
                continue
            proc.stdin.write(f"M 100644 inline {path}\ndata {len(data)}\n".encode())
            proc.stdin.write(data)
            proc.stdin.write(b"\n")
        proc.stdin.write(b"\n")
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit("git fast-import failed")
    for name, back in (("base", len(commits) - 1), ("head", 0)):  # one commit: both
        subprocess.run(
            ["git", "-C", str(folder), "branch", "-f", name, f"main~{back}"], check=True, env=ENV
        )


def rubric(rules: str) -> bytes:
    return f"version: 1\nrules:\n{rules}".encode()


def gate_check(*extra: str) -> list[str]:
    return ["check", "--base", "base", "--head", "head", "--format", "json", *extra]


GIT_DIFF = ["git", "diff", "--numstat", "-z", "-M", "base...head"]
APPLY = "GIT_INDEX_FILE=bench-index git"


# -- cases ----------------------------------------------------------------------


@case("binary", "a change to many files git calls binary: each counted line by line")
def many_binary_files(folder: Path, scale: float) -> Trial:
    files = max(1, round(2000 * scale))
    size = 50_000
    rng = random.Random(7)
    base: dict[str, bytes | None] = {
        ".github/blast-radius.yml": rubric("  - {id: LINES, kind: max_lines, limit: 100000000}\n")
    }
    head: dict[str, bytes | None] = {}
    for i in range(files):
        data = bytearray(rng.randbytes(size))
        base[f"assets/f{i:05d}.bin"] = bytes(data)
        data[100:200] = rng.randbytes(100)
        head[f"assets/f{i:05d}.bin"] = bytes(data)
    fast_import(folder, [base, head])
    return Trial(
        gate=gate_check(),
        git=GIT_DIFF,
        cwd=folder,
        about=f"{files} binary files of {size // 1000} kB, each edited",
        expect="binary files counted whole",
    )


@case("big-python", "a 50 MB Python file under the three content rules")
def big_python_file(folder: Path, scale: float) -> Trial:
    rows = max(1, round(2_100_000 * scale))  # about 24 bytes a row: ~50 MB
    text = "".join(f"value_{i:07d} = {i}\n" for i in range(rows))
    edited = text.replace("value_0000001 = 1\n", "value_0000001 = 2\n", 1)
    rules = (
        "  - {id: KEEP, kind: keep_symbols, file: app.py, symbols: [value_0000000]}\n"
        "  - {id: LINES, kind: keep_lines, file: app.py, lines: ['value_0000000 = 0']}\n"
        "  - {id: SCOPE, kind: confine_to_symbols, file: app.py, symbols: [value_0000001]}\n"
    )
    fast_import(
        folder,
        [
            {".github/blast-radius.yml": rubric(rules), "app.py": text.encode()},
            {"app.py": edited.encode()},
        ],
    )
    return Trial(
        gate=gate_check(),
        git=GIT_DIFF,
        cwd=folder,
        about=f"app.py of {len(text) / 1e6:.0f} MB, one line edited",
        expect="content rules read",
    )


@case("tiny-lines", "a patch of millions of tiny lines (one hunk), through --patch")
def tiny_lines_patch(folder: Path, scale: float) -> Trial:
    rows = max(1, round(3_000_000 * scale))
    rules = "  - {id: LINES, kind: max_lines, limit: 100}\n"
    fast_import(folder, [{".github/blast-radius.yml": rubric(rules), "f": b"x\n" * rows}])
    header = f"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,{rows} +1,{rows} @@\n"
    patch = folder / "writer.patch"
    with patch.open("wb") as out:
        out.write(header.encode())
        for _ in range(rows // 100_000):
            out.write(b"-x\n+y\n" * 100_000)
        out.write(b"-x\n+y\n" * (rows % 100_000))
    return Trial(
        gate=["check", "--patch", str(patch), "--base", "base", "--format", "json"],
        # what the gate runs: the patch applied to the base in a temporary index
        git=["sh", "-c", f"{APPLY} read-tree base && {APPLY} apply --cached --check {patch}"],
        cwd=folder,
        about=f"{2 * rows:,} lines of 2 bytes in one hunk ({patch.stat().st_size / 1e6:.0f} MB)",
        expect="lines changed",
    )


def hunks_patch(folder: Path, scale: float, hunks: int) -> tuple[Path, int]:
    """A base whose file `f` has enough distinct lines for `hunks` hunks (at
    least 100,000 at full scale), and a patch of `hunks` hunks on it, each
    changing one line between two lines of context, the way git writes them."""
    rows = max(3 * hunks, round(100_000 * scale))
    rules = "  - {id: LINES, kind: max_lines, limit: 100000000}\n"
    text = "".join(f"line {i}\n" for i in range(rows)).encode()
    fast_import(folder, [{".github/blast-radius.yml": rubric(rules), "f": text}])
    step = rows // hunks
    patch = folder / f"hunks-{hunks}.patch"
    with patch.open("wb") as out:
        out.write(b"diff --git a/f b/f\n--- a/f\n+++ b/f\n")
        for k in range(hunks):
            i = k * step + 1  # the changed line (0-based), after one line of context
            hunk = f"@@ -{i},3 +{i},3 @@\n line {i - 1}\n-line {i}\n+edit {i}\n line {i + 1}\n"
            out.write(hunk.encode())
    return patch, rows


def _apply_check(patch: Path) -> list[str]:
    return ["sh", "-c", f"{APPLY} read-tree base && {APPLY} apply --cached --check {patch}"]


@case("hunks", "a patch of as many hunks as the gate takes (HUNK_LIMIT), through --patch")
def hunks_at_limit(folder: Path, scale: float) -> Trial:
    hunks = max(1, round(HUNK_LIMIT * min(scale, 1.0)))
    patch, rows = hunks_patch(folder, scale, hunks)
    return Trial(
        gate=["check", "--patch", str(patch), "--base", "base", "--format", "json"],
        git=_apply_check(patch),
        cwd=folder,
        about=f"{hunks:,} one-line hunks on a file of {rows:,} lines",
        expect="lines changed",
    )


@case("too-many-hunks", "a patch of 50 times HUNK_LIMIT hunks: refused before git runs")
def hunks_past_limit(folder: Path, scale: float) -> Trial:
    patch, rows = hunks_patch(folder, scale, 50 * HUNK_LIMIT)
    at_limit = folder / "at-limit.patch"
    with patch.open("rb") as whole, at_limit.open("wb") as out:
        out.write(whole.readline() + whole.readline() + whole.readline())
        for _ in range(5 * HUNK_LIMIT):  # five lines a hunk
            out.write(whole.readline())
    return Trial(
        gate=["check", "--patch", str(patch), "--base", "base", "--format", "json"],
        # `git apply` of the whole patch takes over ten minutes; the most the
        # gate ever hands git is a patch of HUNK_LIMIT hunks, timed here
        git=_apply_check(at_limit),
        cwd=folder,
        about=(
            f"{50 * HUNK_LIMIT:,} hunks on a file of {rows:,} lines (gate: refused, exit 2); "
            f"git: the first {HUNK_LIMIT:,} of them"
        ),
        codes=(2,),
    )


# -- running --------------------------------------------------------------------


def run_case(entry: Case, scale: float, runs: int) -> dict[str, float | str]:
    with tempfile.TemporaryDirectory(prefix=f"gate-bench-{entry.name}-") as tmp:
        started = time.perf_counter()
        trial = entry.build(Path(tmp) / "input", scale)
        built = time.perf_counter() - started
        gate = [PYTHON[0], "-m", "gate", *trial.gate]
        out = measure(gate, trial.cwd, trial.codes)[2]  # warm the caches, check the verdict
        if trial.expect and trial.expect.encode() not in out:
            raise SystemExit(f"{entry.name}: gate output lacks {trial.expect!r}: {out[:200]!r}")
        measure(trial.git, trial.cwd)
        gate_runs = [measure(gate, trial.cwd, trial.codes) for _ in range(runs)]
        git_runs = [measure(trial.git, trial.cwd) for _ in range(runs)]
        gate_s = statistics.median(r[0] for r in gate_runs)
        git_s = statistics.median(r[0] for r in git_runs)
        gate_mb = max(r[1] for r in gate_runs) / 1024
        git_mb = max(r[1] for r in git_runs) / 1024
        return {
            "case": entry.name,
            "about": trial.about,
            "gate_s": gate_s,
            "git_s": git_s,
            "time_ratio": gate_s / git_s,
            "gate_mb": gate_mb,
            "git_mb": git_mb,
            "rss_ratio": gate_mb / git_mb,
            "git": " ".join(trial.git),
            "build_s": built,
        }


def rows(names: list[str], scale: float, runs: int) -> Iterator[dict[str, float | str]]:
    for name in names:
        yield run_case(CASES[name], scale, runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help="cases to run (default: all)")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full size")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each command")
    parser.add_argument("--python", default=sys.executable, help="interpreter that runs the gate")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--json", action="store_true", help="print one JSON object per case")
    args = parser.parse_args()
    if args.list:
        for entry in CASES.values():
            print(f"{entry.name}: {entry.what}")
        return 0
    unknown = [n for n in args.cases if n not in CASES]
    if unknown:
        parser.error(f"unknown case(s) {', '.join(unknown)}; --list shows them")
    PYTHON[0] = args.python
    with tempfile.TemporaryDirectory(prefix="gate-bench-pyc-") as pyc:
        ENV["PYTHONPYCACHEPREFIX"] = pyc
        for row in rows(args.cases or list(CASES), args.scale, args.runs):
            if args.json:
                print(json.dumps(row, sort_keys=True), flush=True)
                continue
            print(
                f"{row['case']}: {row['about']}\n"
                f"  gate {row['gate_s']:.3f}s vs `{row['git']}` {row['git_s']:.3f}s "
                f"(x{row['time_ratio']:.1f}); peak RSS gate {row['gate_mb']:.1f}MB vs git "
                f"{row['git_mb']:.1f}MB (x{row['rss_ratio']:.1f}); median of {args.runs}, "
                f"input built in {row['build_s']:.1f}s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
