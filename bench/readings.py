"""Re-measure a round of flags read by hand with today's gate.

    python bench/readings.py ROUND.json... --mirrors DIR [--python VENV/bin/python]
        [--work DIR]

A round (`bench/readings/round-N.json`) records what readers decided, as a
maintainer would, of each commit they read: for a failing commit, each
failed rule wanted or a false alarm (with its class); for a passing one,
whether a rule should have failed it.  The figures in docs/agents.md are
re-measured from these records, not copied: for each repository of the
round this script clones `DIR/OWNER+NAME` (a clone or a bare snapshot, as
`fetch` leaves them), checks out the recorded HEAD, writes the starter
rubric there with `gate init --path` and judges every read commit with
`gate check --base C^ --head C --format json`, the way the readers did.

Then, per round:

* a flag today's gate still raises keeps its reader's verdict;
* a flag it no longer raises turns into a pass: a wanted one is a miss;
* a pass read as missed that today's gate flags with the rule the reader
  named counts as caught, not missed;
* a flag nobody read (raised anew) is listed as `unread`, to be read by
  hand before the figure is trusted; once read, its verdict goes under the
  item's `later` (rule -> verdict, class, borderline, and what raised it),
  which counts as the readers' verdicts do but never in the "when read"
  figure.

Prints one row per round: flags today, wanted (share), passes, missed,
unread, and every unread flag and every new miss below it; with
`--alarms`, also every false alarm today's gate still raises, with its
reader's class.  Exits 1 when
a commit could not be judged (exit 2 from the gate)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Tally:
    flags: int = 0
    wanted: int = 0
    passes: int = 0
    missed: int = 0
    unread: list[str] = field(default_factory=list)
    new_misses: list[str] = field(default_factory=list)
    alarms: list[str] = field(default_factory=list)

    def row(self, name: str) -> str:
        share = f"{100 * self.wanted / self.flags:.0f}%" if self.flags else "-"
        return (
            f"{name}: flags {self.flags}, wanted {self.wanted} ({share}), "
            f"passes {self.passes}, missed {self.missed}, unread {len(self.unread)}"
        )


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, text=True, capture_output=True, check=False)


def checkout(mirror: Path, head: str, into: Path) -> Path:
    """A work tree of `mirror` at `head`, with the starter rubric `gate
    init` writes there; the rubric's path."""
    done = run(["git", "clone", "-q", "--no-checkout", str(mirror), str(into)], into.parent)
    if done.returncode:
        sys.exit(f"readings: cannot clone {mirror}: {done.stderr.strip()}")
    # a snapshot may lack a large file's blob: the rest of the tree is enough
    run(["git", "checkout", "-q", head], into)
    return into / ".git" / "blast-radius.yml"


def gate(python: str, clone: Path, *args: str, ok: tuple[int, ...] = (0,)) -> str:
    """`gate ARGS` in `clone`: its output; exits when its code is not `ok`."""
    done = run([python, "-m", "gate", *args], clone)
    if done.returncode not in ok:
        why = done.stderr.strip()
        sys.exit(f"readings: gate {args[0]} in {clone} exited {done.returncode}: {why}")
    return done.stdout


def failed_rules(python: str, clone: Path, rubric: Path, sha: str) -> list[str]:
    """The rules `gate check` fails on `sha` (against its first parent)."""
    span = ["--base", f"{sha}^", "--head", sha, "--rubric-file", str(rubric)]
    out = gate(python, clone, "check", *span, "--format", "json", ok=(0, 1))
    return sorted(json.loads(out)["failed"])


def measure(round_file: Path, mirrors: Path, python: str, work: Path) -> Tally:
    record = json.loads(round_file.read_text())
    tally = Tally()
    for repo, head in sorted(record["repositories"].items()):
        clone = work / repo.replace("/", "+")
        rubric = checkout(mirrors / repo.replace("/", "+"), head, clone)
        gate(python, clone, "init", "--path", str(rubric))
        for item in (i for i in record["items"] if i["repo"] == repo):
            now = failed_rules(python, clone, rubric, item["sha"])
            read = dict(item.get("flags", {}))
            read.update(item.get("later", {}))  # flags a later gate raised, read then
            if item.get("missed"):  # a pass the reader said this rule should fail
                read[item["missed"]] = {"verdict": "wanted", "class": item.get("class", "")}
            where = f"{repo} {item['sha'][:12]}"
            for rule in now:
                if rule in read:
                    tally.flags += 1
                    tally.wanted += read[rule]["verdict"] == "wanted"
                    if read[rule]["verdict"] != "wanted":
                        tally.alarms.append(f"{where} {rule}: {read[rule].get('class', '')}")
                else:
                    tally.unread.append(f"{where} {rule}")
            if now:
                continue
            tally.passes += 1
            if any(v["verdict"] == "wanted" for v in read.values()):
                tally.missed += 1
                if not item.get("missed"):
                    tally.new_misses.append(f"{where} no longer fails {', '.join(sorted(read))}")
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("rounds", nargs="+", type=Path)
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--work", type=Path, help="where the clones go (made if missing)")
    parser.add_argument("--alarms", action="store_true", help="list the false alarms still raised")
    args = parser.parse_args()
    if args.work:
        args.work.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.work) as tmp:
        for n, round_file in enumerate(args.rounds):
            work = Path(tmp) / str(n)
            work.mkdir()
            tally = measure(round_file, args.mirrors, args.python, work)
            print(tally.row(round_file.stem))
            for line in tally.unread:
                print(f"  unread: {line}")
            for line in tally.new_misses:
                print(f"  missed: {line}")
            for line in tally.alarms if args.alarms else ():
                print(f"  false alarm: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
