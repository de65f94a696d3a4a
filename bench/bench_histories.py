"""`gate check` over the history of real repositories, against `git diff` itself.

    python bench/bench_histories.py REPO... [--limit 150] [--wide 10,100]
        [--merges 20] [--python VENV/bin/python] [--slowest 5]

For each REPO (a clone; a `--no-checkout` clone is best, so that no work
tree `.gitattributes` touches the reference `git diff`), walks the
first-parent history of HEAD and judges, with a starter rubric (`gate
init`, whose `max_lines` rule counts every line) given as `--rubric-file`:

* each consecutive pair `C^ -> C` of the last `--limit` first-parent
  commits (for a merge commit that is `M^1..M`, the diff the merge brought);
* pairs `--wide` first-parent commits apart (default 10 and 100);
* up to `--merges` merge commits as a pull request: `M^1...M^2` (the merge
  base diff of the merged branch).

For every pair it runs `gate check --base A --head B --rubric-file STARTER
--format json` (a subprocess, timed) and `git diff --numstat -z -M -l1000
A...B` (timed), and checks:

* the exit code is 0 or 1, never a traceback; an exit 2 is accepted only when
  git itself cannot diff the pair (`git fails`: no merge base, or the
  snapshot lacks an object numstat reads), or when the gate names an object
  the clone really lacks (`lacks`: the near-copy search reads every file of
  the base, which numstat does not);
* every file's counts, from the same code `gate check` runs
  (`gate.changes.git.changes_from_git`, in this process), equal git's numstat,
  except where docs/hostile-input.md says the gate counts more: a file git
  calls binary, and a file with a carriage return alone in either version,
  count every line of both blobs (checked against the blobs with a line
  counter of this script's own: a line ends at `\\n`, `\\r\\n` or `\\r`);
* a submodule pointer counts no lines and the file side of a file <->
  submodule change counts whole (docs/commands.md), checked the same way;
* the report's `stats` equal the sum of those counts;
* the same paths: every path git's numstat names is a path of the gate's
  change (a copy the gate finds is still git's added file at that path).

It prints one row per repository (pairs judged, exit codes, count
disagreements, the gate's time and its ratio to git's, median and max) and
the slowest pairs, and exits 1 when any pair broke a check.  Most of these
diffs take git a few milliseconds, so the ratio is mostly the gate's fixed
cost (Python, YAML, JSON Schema, the rubric's examples): `start s` is `gate
check` on an empty change (HEAD...HEAD, median of 5), and `over start` what
each judged pair took beyond it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gate.base.errors import GateError  # noqa: E402
from gate.changes.git import changes_from_git  # noqa: E402
from gate.git.repo import Repo  # noqa: E402
from gate.model.change import MODE_SUBMODULE, FileChange  # noqa: E402

# The reference diff runs with no attributes file and no system attributes,
# as the gate's does (docs/hostile-input.md section 1).
ENV = {
    **os.environ,
    "GIT_ATTR_NOSYSTEM": "1",
    "GIT_CONFIG_NOSYSTEM": "1",
    "PYTHONPATH": str(ROOT),
}
GIT = ["git", "-c", "core.attributesFile=/dev/null", "-c", "core.quotePath=false"]
LINE_END = re.compile(rb"\r\n|\r|\n")
LACKS = re.compile(r"this clone lacks object ([0-9a-f]+)")


def git(repo: str, *args: str) -> bytes:
    return subprocess.run(
        [*GIT, "-C", repo, *args], env=ENV, check=True, capture_output=True
    ).stdout


def has_object(repo: str, oid: str) -> bool:
    return subprocess.run([*GIT, "-C", repo, "cat-file", "-e", oid], env=ENV).returncode == 0


def blob(repo: str, rev: str, path: str) -> tuple[str | None, int, bool]:
    """The blob at `rev:path` (None when absent, a submodule or a
    directory), its lines, and whether it holds a carriage return alone."""
    proc = subprocess.run(
        [*GIT, "-C", repo, "rev-parse", "--verify", "-q", f"{rev}:{path}"],
        env=ENV, capture_output=True,
    )  # fmt: skip
    oid = proc.stdout.decode().strip()
    kind = subprocess.run([*GIT, "-C", repo, "cat-file", "-t", oid], env=ENV, capture_output=True)
    if proc.returncode != 0 or kind.stdout.strip() != b"blob":  # a submodule's commit is absent
        return None, 0, False
    data = git(repo, "cat-file", "blob", oid)
    ends = LINE_END.findall(data)
    lines = len(ends) + (1 if data and not data.endswith((b"\n", b"\r")) else 0)
    return oid, lines, b"\r" in ends


def numstat(repo: str, old: str, new: str) -> dict[str, tuple[int | None, int | None, str | None]]:
    """git's counts by path (the new path of a rename): (added, deleted, old path)."""
    out = git(
        repo,
        "diff",
        "--numstat",
        "-z",
        "-M",
        "-l1000",
        "--no-textconv",
        "--no-ext-diff",
        "--ignore-submodules=none",
        "--diff-algorithm=myers",
        old,
        new,
        "--",
    )
    tokens = iter(out.split(b"\0"))
    result: dict[str, tuple[int | None, int | None, str | None]] = {}
    for token in tokens:
        if not token:
            continue
        a, d, path = token.split(b"\t", 2)
        old_path = None
        if path == b"":
            old_path = next(tokens).decode("utf-8", "surrogateescape")
            path = next(tokens)
        result[path.decode("utf-8", "surrogateescape")] = (
            None if a == b"-" else int(a),
            None if d == b"-" else int(d),
            old_path,
        )
    return result


@dataclass
class Tally:
    pairs: int = 0
    exits: dict[int, int] = field(default_factory=dict)
    git_failed: int = 0
    lacks: int = 0  # exit 2 naming an object the snapshot lacks, where numstat runs
    whole: int = 0  # files counted whole (binary, lone CR), checked against blobs
    problems: list[str] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    slow: list[tuple[float, float, float, str]] = field(default_factory=list)
    gate_times: list[float] = field(default_factory=list)
    start_up: float = 0.0  # gate check on an empty change (head...head): the fixed cost


def pairs_of(repo: str, limit: int, wide: list[int], merges: int) -> list[tuple[str, str, str]]:
    chain = git(repo, "rev-list", "--first-parent", "HEAD").decode().split()
    chain.reverse()
    recent = chain[-(limit + 1) :]
    out = [("step", a, b) for a, b in itertools.pairwise(recent)]
    for gap in wide:
        for i in range(0, len(chain) - gap, max(gap, len(chain) // 10)):
            out.append((f"+{gap}", chain[i], chain[i + gap]))
    found = git(repo, "rev-list", "--merges", f"--max-count={merges}", "HEAD").decode().split()
    for m in found:
        parents = git(repo, "rev-list", "--parents", "-n1", m).decode().split()[1:]
        out.append(("pr", parents[0], parents[-1]))
    return out


def gate_check(
    repo: str, base: str, head: str, rubric: str, python: str
) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    start = time.perf_counter()
    proc = subprocess.run(
        [python, "-m", "gate", "check", "--repo", repo, "--base", base, "--head", head,
         "--rubric-file", rubric, "--format", "json"],
        env=ENV, capture_output=True,
    )  # fmt: skip
    return time.perf_counter() - start, proc


def check_pair(
    repo: str, kind: str, base: str, head: str, rubric: str, python: str, tally: Tally
) -> None:
    label = f"{kind} {base[:9]}...{head[:9]}"
    gate_time, proc = gate_check(repo, base, head, rubric, python)
    start = time.perf_counter()
    ref = subprocess.run(
        [*GIT, "-C", repo, "diff", "--numstat", "-z", "-M", f"{base}...{head}", "--"],
        env=ENV, capture_output=True,
    )  # fmt: skip
    git_time = time.perf_counter() - start
    tally.pairs += 1
    tally.exits[proc.returncode] = tally.exits.get(proc.returncode, 0) + 1
    err = proc.stderr.decode(errors="replace")
    if "Traceback" in err or "internal error" in err:
        tally.problems.append(f"{label}: crashed: {err.strip()[:300]}")
        return
    if proc.returncode == 2:
        lost = LACKS.search(err)
        if ref.returncode != 0:
            tally.git_failed += 1
        elif lost is not None and not has_object(repo, lost.group(1)):
            tally.lacks += 1  # the near-copy search reads a blob git's numstat does not
        else:
            tally.problems.append(f"{label}: exit 2 where git diffs: {err.strip()[:300]}")
        return
    if proc.returncode not in (0, 1):
        tally.problems.append(f"{label}: exit {proc.returncode}: {err.strip()[:300]}")
        return
    tally.ratios.append(gate_time / git_time)
    tally.gate_times.append(gate_time)
    tally.slow.append((gate_time, git_time, gate_time / git_time, label))
    try:
        change = changes_from_git(Repo(repo), base, head, ())
    except GateError as exc:
        tally.problems.append(f"{label}: gate judged, the change set failed: {exc}")
        return
    old = git(repo, "merge-base", base, head).decode().strip()
    report = json.loads(proc.stdout)
    stats = report["stats"]
    added = sum(f.added or 0 for f in change.files)
    deleted = sum(f.deleted or 0 for f in change.files)
    if (stats["added_lines"], stats["deleted_lines"]) != (added, deleted):
        tally.problems.append(f"{label}: report stats {stats} but files sum to +{added} -{deleted}")
    problems, whole = disagreements(repo, old, head, change.files)
    tally.problems.extend(f"{label}: {p}" for p in problems)
    tally.whole += whole


def disagreements(
    repo: str, old: str, head: str, files: Sequence[FileChange]
) -> tuple[list[str], int]:
    """Where the gate's counts of the diff `old` -> `head` (`files`) differ
    from git's numstat other than as docs/hostile-input.md documents, and how
    many files were counted whole (and checked against their blobs)."""
    theirs = numstat(repo, old, head)
    ours = {f.path: f for f in files}
    problems = [f"git names {p!r}, the gate does not" for p in sorted(theirs.keys() - ours.keys())]
    whole = 0
    for path, f in ours.items():
        if path not in theirs:
            problems.append(f"the gate names {path!r}, git does not")
            continue
        a, d, git_old = theirs[path]
        if (a, d) == (f.added, f.deleted) and a is not None:
            continue
        source = git_old if git_old is not None else path
        new_oid, new_lines, new_cr = blob(repo, head, path)
        old_oid, old_lines, old_cr = blob(repo, old, source)
        if a is None or new_cr or old_cr or MODE_SUBMODULE in (f.old_mode, f.new_mode):
            whole += 1
            want = (0, 0) if new_oid == old_oid else (new_lines, old_lines)
            if (f.added, f.deleted) != want:
                problems.append(
                    f"{path!r} counted +{f.added} -{f.deleted}, its blobs say "
                    f"+{want[0]} -{want[1]} (git: {a} {d})"
                )
            continue
        problems.append(f"{path!r} counted +{f.added} -{f.deleted}, git says +{a} -{d}")
    return problems, whole


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+")
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--wide", default="10,100")
    parser.add_argument("--merges", type=int, default=20)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--slowest", type=int, default=5)
    args = parser.parse_args()
    wide = [int(w) for w in args.wide.split(",") if w]
    with tempfile.TemporaryDirectory(prefix="bench-hist-") as tmp:
        rubric = os.path.join(tmp, "starter.yml")
        subprocess.run(
            [args.python, "-m", "gate", "init", "--path", rubric],
            env=ENV, check=True, capture_output=True, cwd=tmp,
        )  # fmt: skip
        tallies: dict[str, Tally] = {}
        for repo in args.repos:
            tally = tallies[repo] = Tally()
            tip = git(repo, "rev-parse", "HEAD").decode().strip()
            tally.start_up = statistics.median(
                gate_check(repo, tip, tip, rubric, args.python)[0] for _ in range(5)
            )
            for kind, base, head in pairs_of(repo, args.limit, wide, args.merges):
                check_pair(repo, kind, base, head, rubric, args.python, tally)
            print(f"{repo}: {tally.pairs} pairs", file=sys.stderr)
    print(
        f"{'repository':<40} {'pairs':>5} {'exit 0/1/2':>11} {'git fails':>9} {'lacks':>5} "
        f"{'whole':>5} {'problems':>8} {'gate med s':>10} {'gate max s':>10} "
        f"{'ratio med':>9} {'ratio max':>9} {'start s':>7} {'over start med/max':>18}"
    )
    bad = 0
    for repo, t in tallies.items():
        exits = "/".join(str(t.exits.get(c, 0)) for c in (0, 1, 2))
        med = statistics.median(t.ratios) if t.ratios else 0.0
        top = max(t.ratios) if t.ratios else 0.0
        extra = [g - t.start_up for g in t.gate_times] or [0.0]
        over = f"{statistics.median(extra):.2f}/{max(extra):.2f}"
        print(
            f"{Path(repo).name:<40} {t.pairs:>5} {exits:>11} {t.git_failed:>9} {t.lacks:>5} "
            f"{t.whole:>5} {len(t.problems):>8} {statistics.median(t.gate_times or [0]):>10.2f} "
            f"{max(t.gate_times or [0]):>10.2f} {med:>9.1f} {top:>9.1f} {t.start_up:>7.2f} "
            f"{over:>18}"
        )
        bad += len(t.problems)
    for repo, t in tallies.items():
        for problem in t.problems:
            print(f"PROBLEM {Path(repo).name}: {problem}")
        for gate_time, git_time, ratio, label in sorted(t.slow, reverse=True)[: args.slowest]:
            print(
                f"slow {Path(repo).name}: {label}: gate {gate_time:.2f} s, "
                f"git {git_time:.3f} s (x{ratio:.0f})"
            )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
