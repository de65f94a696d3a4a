"""Lab throughput: judge N writer patches against the seed lab in one `gate lab` run.

    python bench/bench_lab.py [--patches 1000] [--jobs 0]

Builds the clamp lab in a temporary repository, writes N distinct writer
patches (honest fixes, bait deletions, renames, rewrites, fenced and truncated
outputs, in rotation), then times one `gate lab` subprocess over all of them
and prints patches per second and the bucket counts.  The target is
1,000 patches in well under a minute on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gate.starter import demo_fixture  # noqa: E402

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "PYTHONPATH": str(ROOT),
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, env=ENV, check=True, capture_output=True, text=True
    ).stdout


def variants() -> list[tuple[str, str]]:
    fix = demo_fixture.HONEST_FIX
    return [
        ("honest", fix),
        ("no-bait", fix.replace("import math  # bait: unused on purpose\n", "")),
        ("rename", fix.replace("_noisy_helper", "_identity")),
        ("cleanup", demo_fixture.CLEANUP_KIT),
        ("comment", fix.replace("    # off-by-one on the high side: uses hi - 1\n", "")),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patches", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gate-bench-lab-") as tmp:
        repo = Path(tmp) / "lab"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        for name, text in demo_fixture.FILES.items():
            (repo / name).write_text(text)
        (repo / ".github").mkdir()
        (repo / ".github" / "blast-radius.yml").write_text(demo_fixture.RUBRIC)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "base")
        templates = []
        for name, text in variants():
            (repo / "clamp_kit.py").write_text(text)
            templates.append((name, git(repo, "diff").encode()))
            git(repo, "checkout", "-q", "--", "clamp_kit.py")
        out = Path(tmp) / "patches"
        out.mkdir()
        paths = []
        for i in range(args.patches):
            name, data = templates[i % len(templates)]
            if i % 50 == 7:
                data = b"```diff\n" + data + b"```\n"
                name = "fenced"
            elif i % 50 == 13:
                data = data[: len(data) // 2]
                name = "truncated"
            path = out / f"{i:05d}-{name}.patch"
            path.write_bytes(data)
            paths.append(str(path))
        cmd = [sys.executable, "-m", "gate", "lab", "--format", "json", "--jobs", str(args.jobs)]
        start = time.perf_counter()
        proc = subprocess.run(
            [*cmd, *paths], cwd=repo, env=ENV, capture_output=True, text=True, check=False
        )
        elapsed = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            print(proc.stderr, file=sys.stderr)
            return 2
        data = json.loads(proc.stdout)
    print(f"patches:      {args.patches}")
    print(f"cores:        {os.cpu_count()}")
    print(f"wall time:    {elapsed:.2f} s")
    print(f"throughput:   {args.patches / elapsed:.1f} patches/s")
    print(f"buckets:      {json.dumps(data['buckets'], sort_keys=True)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
