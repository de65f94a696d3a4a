"""Pick the commits a round of readings reads: a seeded, stratified sample of
backtest reports.

    python bench/sample_readings.py REPORT.json... --seed N [--fail 6] [--pass 3]

Each REPORT is `gate backtest --format json` of one repository (its file
name, without `.json`, names the repository in the output).  Of each
report's commits it leaves out automation (a bot's, `author_kind` or
`automation`) and a merge that is no pull request's (`merge` without
`pr`: a `git pull` merge on the first-parent history, judged against its
first parent, re-raises commits merged elsewhere, and no pull request
check ever sees it), then takes one commit from each repository in turn (a repository with
none left is passed over, and the others make up its share) until it has:

* `--fail` failing commits a repository on average (agent commits first;
  among them, one failing a rule sampled least so far, so every failing
  rule is read before any is read twice);
* `--pass` passing commits that change more than one file a repository on
  average (agent commits first).

The order within each stratum is the seed's shuffle, so the same reports
and seed give the same sample.  Prints a JSON list of
`{repo, sha, kind, author, failed, subject}`, failures first."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

Commit = dict[str, Any]


def eligible(commit: Commit) -> bool:
    """Whether a reader should see `commit`: no bot's, and no merge but a
    pull request's."""
    if commit["author_kind"] == "automation" or commit.get("automation"):
        return False
    return not (commit.get("merge") and commit.get("pr") is None)


def sample(reports: dict[str, list[Commit]], seed: int, fails: int, passes: int) -> list[Commit]:
    """The round's items: `fails` failing and `passes` passing commits of
    each repository of `reports` (name -> its commits), as the module
    docstring says."""
    rng = random.Random(seed)
    failing: dict[str, list[Commit]] = {}
    passing: dict[str, list[Commit]] = {}
    for name, commits in reports.items():
        kept = [c for c in commits if eligible(c)]
        rng.shuffle(kept)
        kept.sort(key=lambda c: c["author_kind"] != "agent")
        failing[name] = [c for c in kept if not c["pass"]]
        passing[name] = [c for c in kept if c["pass"] and c["stats"]["files_touched"] > 1]
    seen: dict[str, int] = {}
    picked: list[Commit] = []

    def item(name: str, commit: Commit, kind: str) -> Commit:
        return {
            "repo": name,
            "sha": commit["sha"],
            "kind": kind,
            "author": commit["author_kind"],
            "failed": commit["failed"],
            "subject": commit["subject"],
        }

    names = list(reports)
    turn = 0
    while sum(p["kind"] == "fail" for p in picked) < fails * len(names) and any(failing.values()):
        name = names[turn % len(names)]
        turn += 1
        pool = failing[name]
        if not pool:
            continue
        best = min(
            range(len(pool)),
            key=lambda k: (
                min(seen.get(rule, 0) for rule in pool[k]["failed"]),
                pool[k]["author_kind"] != "agent",
                k,
            ),
        )
        commit = pool.pop(best)
        for rule in commit["failed"]:
            seen[rule] = seen.get(rule, 0) + 1
        picked.append(item(name, commit, "fail"))
    turn = 0
    while sum(p["kind"] == "pass" for p in picked) < passes * len(names) and any(passing.values()):
        name = names[turn % len(names)]
        turn += 1
        if passing[name]:
            picked.append(item(name, passing[name].pop(0), "pass"))
    return picked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("reports", nargs="+", type=Path)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--fail", type=int, default=6, help="failing commits a repository")
    parser.add_argument("--pass", dest="passes", type=int, default=3, help="passes a repository")
    args = parser.parse_args()
    reports: dict[str, list[Commit]] = {}
    for path in args.reports:
        try:
            reports[path.stem] = json.loads(path.read_text(encoding="utf-8"))["commits"]
        except (OSError, ValueError, KeyError, TypeError) as err:
            print(f"sample_readings: {path}: not a backtest report ({err})", file=sys.stderr)
            return 2
    json.dump(sample(reports, args.seed, args.fail, args.passes), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
