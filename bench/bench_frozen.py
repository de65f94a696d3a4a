"""`gate frozen-tests`' own cost beyond COMMAND, on a 1,000- and a
10,000-file repository.

    python bench/bench_frozen.py [--runs 5] [--python VENV/bin/python]

Builds (in a temporary folder, with `git fast-import`) a repository whose
files are a tenth tests (`tests/test_*.py`), with a rubric holding a
`test_drift` rule at the base, and a pull request that edits 50 source
files and 5 tests, adds 5 tests and a conftest.py.  COMMAND is `true`, so
the whole wall time of `python -m gate frozen-tests --base main -- true` is
the frozen run's own cost: the plan, the worktree of HEAD (a checkout of
every file), the frozen paths written, the links, the static rule, and the
worktree removed.  Beside it, `git worktree add` and `git worktree remove`
of the same commit (the floor any frozen run in a worktree pays), and their
ratio.  Targets: under 0.5 s at 1,000 files, under 2 s at 10,000.
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
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "PYTHONPATH": str(ROOT),
}
RUBRIC = (
    b"rules:\n  - {id: TESTS, kind: test_drift}\n  - {id: FILES, kind: max_files, limit: 999}\n"
)
TARGETS = {1_000: 0.5, 10_000: 2.0}


def _blob(out: list[bytes], path: str, data: bytes) -> None:
    out.append(f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n")


def build(folder: Path, files: int) -> None:
    """The repository: main, and branch pr one commit ahead of it."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True, env=ENV)
    tests = files // 10
    stream: list[bytes] = []
    stream.append(b"commit refs/heads/main\nmark :1\ncommitter bench <b@x> 0 +0000\ndata 4\nbase\n")
    _blob(stream, ".github/blast-radius.yml", RUBRIC)
    for i in range(files - tests):
        _blob(
            stream, f"src/pkg{i // 100}/mod{i}.py", f"def f{i}(x):\n    return x + {i}\n".encode()
        )
    for i in range(tests):
        text = f"from src.pkg{i // 100}.mod{i} import f{i}\n\n\n"
        text += f"def test_{i}():\n    assert f{i}(0) == {i}\n"
        _blob(stream, f"tests/test_{i}.py", text.encode())
    stream.append(
        b"commit refs/heads/pr\nmark :2\ncommitter bench <b@x> 1 +0000\ndata 2\npr\nfrom :1\n"
    )
    for i in range(50):
        _blob(
            stream,
            f"src/pkg{i // 100}/mod{i}.py",
            f"def f{i}(x):\n    return x + {i} * 1\n".encode(),
        )
    for i in range(5):
        _blob(stream, f"tests/test_{i}.py", f"def test_{i}():\n    assert True  # {i}\n".encode())
        _blob(stream, f"tests/test_new_{i}.py", f"def test_new_{i}():\n    assert True\n".encode())
    _blob(stream, "tests/conftest.py", b"import pytest\n")
    subprocess.run(
        ["git", "fast-import", "--quiet"], input=b"".join(stream), cwd=folder, check=True, env=ENV
    )
    subprocess.run(["git", "checkout", "-q", "pr"], cwd=folder, check=True, env=ENV)


def timed(argv: list[str], cwd: Path, tmp: str | None = None) -> float:
    env = ENV if tmp is None else {**ENV, "TMPDIR": tmp}
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode()[-2000:]}")
    return took


def floor(cwd: Path, tree: Path) -> list[str]:
    """git's own worktree add and remove, with the parallel checkout the gate uses."""
    parallel = "-c checkout.workers=0 -c checkout.thresholdForParallelism=100"
    return [
        "sh",
        "-c",
        f"git {parallel} worktree add -q --detach {tree} HEAD && "
        f"git worktree remove --force {tree}",
    ]


def choice(repo: Path) -> str:
    """Where the gate puts its worktree when TMPDIR is unset (`scratch_folder`)."""
    sys.path.insert(0, str(ROOT))
    from gate.git.repo import Repo
    from gate.git.worktree import scratch_folder

    return scratch_folder(Repo(repo), "HEAD") or tempfile.gettempdir()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-frozen-") as tmp:
        for files, target in TARGETS.items():
            repo = Path(tmp) / f"r{files}"
            build(repo, files)
            gate = [args.python, "-m", "gate", "frozen-tests", "--base", "main", "--", "true"]
            disk = str(Path(tmp) / "disk")
            Path(disk).mkdir(exist_ok=True)
            places = [(None, "the gate's choice"), (disk, f"{disk} (TMPDIR: the disk)")]
            for tmpdir, where in places:
                timed(gate, repo, tmpdir)  # warm: bytecode, the page cache
                runs, floors = [], []
                for _ in range(args.runs):
                    runs.append(timed(gate, repo, tmpdir))
                    place = tmpdir or choice(repo)
                    floors.append(timed(floor(repo, Path(place) / "floor"), repo))
                gate_s, floor_s = statistics.median(runs), statistics.median(floors)
                verdict = "ok" if gate_s < target else "OVER"
                if tmpdir is None:
                    failed |= gate_s >= target
                    where = f"{where}, {choice(repo)}"
                print(
                    f"{files:>6} files, worktree in {where}: gate frozen-tests -- true "
                    f"{gate_s:.3f} s (min {min(runs):.3f}); git worktree add+remove "
                    f"{floor_s:.3f} s; ratio {gate_s / floor_s:.2f}; target < {target} s: {verdict}"
                )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
