"""Fail rates of starter rubrics on real histories, agent-written vs human-written.

    python bench/bench_starter.py REPO... [--limit 300] [--old-ref main]
        [--rubric NAME=FILE]... [--jobs 2] [--details OUT.json]

For each REPO (a clone or a bare snapshot), takes the last `--limit`
first-parent commits of HEAD (a squash-merged PR is one such commit; a merge
commit is judged as `M^1..M`, the diff it brought) and sorts each by who
wrote it, with the signals of `gate.base.agents.AGENTS`:

* `agent`: the commit's author e-mail, or the e-mail of a `Co-authored-by`
  trailer, is an agent's (case-folded), or the message holds a marker its
  tool writes (`Generated with [Claude Code]`), or a merge subject names a
  head branch that matches an agent's branch globs;
* `automation`: a release or dependency bot (github-actions, Dependabot,
  Renovate, pre-commit.ci) with no agent signal: counted apart, in neither rate;
* `human`: everything else.

Then runs `gate check --base C^ --head C --rubric-file FILE --format json`
for each rubric (a subprocess, as a user would) and tallies, per rubric and
kind, the commits judged, the share that fail, and the share each rule fails.
The rubrics: `new` is today's `gate init` starter, `old` the starter at
`--old-ref` (read from this repository's git), plus any `--rubric NAME=FILE`.
An exit 2 (the gate could not judge; a snapshot can lack a blob) is counted
as `error` and left out of the rates.

`--backtest` takes the verdicts from one `gate backtest --format json` run
per repository and rubric instead (the same verdicts, in one process, far
faster); the kinds are still this script's.
`--cache FILE` keeps every verdict by rubric text (SHA-256) and commit, so
a second run judges only what changed (a new rubric, more commits).
`--details` writes every judged commit (sha, kind, agent and signal, subject,
diff stat, failed rules per rubric) as JSON, to read the failures one by one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gate.base import globs  # noqa: E402
from gate.base.agents import AGENTS  # noqa: E402
from gate.starter import STARTER_RUBRIC  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
AUTOMATION = re.compile(
    r"(github-actions|dependabot|renovate|pre-commit-ci)\[bot\]|^actions@github\.com$", re.I
)
COAUTHOR = re.compile(r"^co-authored-by:\s*(.*?)\s*<([^>]*)>\s*$", re.I | re.M)
MERGED_BRANCH = re.compile(r"^Merge pull request #\d+ from [^/\s]+/(\S+)")
EMAILS = {e.casefold(): a.name for a in AGENTS for e in a.emails}
BRANCHES = [(a.name, globs.matcher(a.branches)) for a in AGENTS if a.branches]
MARKERS = [(m.casefold(), a.name) for a in AGENTS for m in a.markers]


@dataclass
class Commit:
    sha: str
    parent: str
    kind: str
    agent: str | None
    how: str
    subject: str
    stat: str = ""
    failed: dict[str, list[str] | None] = field(default_factory=dict)


def classify(name: str, email: str, message: str) -> tuple[str, str | None, str]:
    if email.casefold() in EMAILS:
        return "agent", EMAILS[email.casefold()], f"author {name} <{email}>"
    for co_name, co_email in COAUTHOR.findall(message):
        if co_email.casefold() in EMAILS:
            return "agent", EMAILS[co_email.casefold()], f"co-author {co_name} <{co_email}>"
    folded = message.casefold()
    for marker, agent in MARKERS:
        if marker in folded:
            return "agent", agent, f"message marker {marker!r}"
    branch = MERGED_BRANCH.match(message)
    if branch:
        for agent, matches in BRANCHES:
            if matches(branch.group(1)):
                return "agent", agent, f"branch {branch.group(1)}"
    if AUTOMATION.search(email) or AUTOMATION.search(name):
        return "automation", None, f"author {name} <{email}>"
    return "human", None, ""


def commits(repo: str, limit: int) -> list[Commit]:
    out = subprocess.run(
        ["git", "-C", repo, "log", "--first-parent", f"-n{limit}",
         "--format=%H%x00%P%x00%an%x00%ae%x00%B%x1e", "HEAD"],
        check=True, capture_output=True, text=True, errors="replace",
    ).stdout  # fmt: skip
    found = []
    for record in out.split("\x1e"):
        record = record.lstrip("\n")
        if not record:
            continue
        sha, parents, name, email, message = record.split("\x00", 4)
        if not parents:
            continue  # the root commit has no base to judge against
        kind, agent, how = classify(name, email, message)
        subject = message.split("\n", 1)[0]
        found.append(Commit(sha, parents.split()[0], kind, agent, how, subject))
    return found


def judge(repo: str, commit: Commit, rubric: str) -> list[str] | None:
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "check", "--base", commit.parent, "--head", commit.sha,
         "--rubric-file", rubric, "--format", "json"],
        cwd=repo, env=ENV, capture_output=True, text=True,
    )  # fmt: skip
    if proc.returncode not in (0, 1):
        return None
    failed: list[str] = json.loads(proc.stdout)["failed"]
    return failed


def backtest(repo: str, rubric: str, limit: int, jobs: int) -> dict[str, list[str] | None]:
    """Every commit's failed ids from one `gate backtest` run (the same
    verdicts as `gate check --base C^ --head C`, in one process)."""
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "backtest", "HEAD", "--repo", repo, "--last", str(limit),
         "--rubric-file", rubric, "--jobs", str(jobs), "--format", "json"],
        env=ENV, capture_output=True, text=True,
    )  # fmt: skip
    if proc.returncode not in (0, 1, 2) or not proc.stdout.strip():
        raise SystemExit(f"gate backtest failed on {repo}: {proc.stderr.strip()}")
    found: dict[str, list[str] | None] = {}
    for row in json.loads(proc.stdout)["commits"]:
        found[row["sha"]] = row["failed"] if row.get("pass") is not None else None
    return found


def stat(repo: str, commit: Commit) -> str:
    out = subprocess.run(
        ["git", "-C", repo, "diff", "--shortstat", commit.parent, commit.sha],
        capture_output=True, text=True,
    ).stdout  # fmt: skip
    return out.strip()


def old_starter(ref: str) -> str:
    text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:gate/starter/__init__.py"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    found = re.search(r'STARTER_RUBRIC = """\\\n(.*?)"""', text, re.S)
    if found is None:
        raise SystemExit(f"{ref}:gate/starter/__init__.py has no STARTER_RUBRIC literal")
    return found.group(1)


def rate(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def table(every: list[dict[str, Any]], name: str, rules: list[str]) -> list[str]:
    """Markdown rows for rubric `name`: the share of agent and human commits
    that fail (any rule, then each rule); exit-2 commits are left out."""
    judged = {
        kind: [c for c in every if c["kind"] == kind and c["failed"][name] is not None]
        for kind in ("agent", "human")
    }

    def cell(kind: str, rule: str | None) -> str:
        rows = judged[kind]
        hits = [c for c in rows if (rule in c["failed"][name] if rule else c["failed"][name])]
        return f"{rate(len(hits), len(rows))} ({len(hits)}/{len(rows)})"

    out = [f"| {name} | any | {cell('agent', None)} | {cell('human', None)} |"]
    out += [
        f"| {name} | {rule} | {cell('agent', rule)} | {cell('human', rule)} |" for rule in rules
    ]
    errors = sum(1 for c in every if c["failed"][name] is None)
    if errors:
        out.append(f"| {name} | error (exit 2) | {errors} commits | |")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+")
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--old-ref", default="main")
    parser.add_argument("--rubric", action="append", default=[], metavar="NAME=FILE")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--details")
    parser.add_argument("--cache")
    parser.add_argument("--backtest", action="store_true")
    args = parser.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="bench-starter-"))
    cache_path = Path(args.cache) if args.cache else None
    cache: dict[str, dict[str, list[str] | None]] = {}
    if cache_path is not None and cache_path.exists():
        cache = json.loads(cache_path.read_text(encoding="utf-8"))
    rubrics: dict[str, str] = {}
    for name, text in (("old", old_starter(args.old_ref)), ("new", STARTER_RUBRIC)):
        path = tmp / f"{name}.yml"
        path.write_text(text, encoding="utf-8")
        rubrics[name] = str(path)
    for spec in args.rubric:
        name, _, path = spec.partition("=")
        rubrics[name] = str(Path(path).resolve())

    details: dict[str, list[dict[str, Any]]] = {}
    rule_ids: dict[str, set[str]] = defaultdict(set)
    keys = {
        name: hashlib.sha256(Path(path).read_bytes()).hexdigest() for name, path in rubrics.items()
    }
    for repo in args.repos:
        found = commits(repo, args.limit)
        jobs = [
            (c, name, path)
            for c in found
            for name, path in rubrics.items()
            if c.sha not in cache.get(keys[name], {})
        ]
        if args.backtest:
            for name in {name for _, name, _ in jobs}:
                verdicts = backtest(repo, rubrics[name], args.limit, args.jobs)
                for commit in found:
                    cache.setdefault(keys[name], {})[commit.sha] = verdicts.get(commit.sha)
        else:
            with ThreadPoolExecutor(args.jobs) as pool:
                verdicts = pool.map(
                    partial(judge, repo), [c for c, _, _ in jobs], [p for *_, p in jobs]
                )
                for (commit, name, _), failed in zip(jobs, verdicts, strict=True):
                    cache.setdefault(keys[name], {})[commit.sha] = failed
        if cache_path is not None:
            cache_path.write_text(json.dumps(cache, sort_keys=True) + "\n", encoding="utf-8")
        for commit in found:
            for name in rubrics:
                commit.failed[name] = cache[keys[name]][commit.sha]
                rule_ids[name].update(commit.failed[name] or ())
        for commit in found:
            if any(commit.failed.values()):
                commit.stat = stat(repo, commit)
        label = Path(repo.rstrip("/")).name
        label = Path(repo.rstrip("/")).parent.name if label in ("repo", ".git") else label
        details[label] = [vars(c) for c in found]
        kinds = Counter(c.kind for c in found)
        agents = Counter(c.agent for c in found if c.agent)
        print(f"== {label}: {len(found)} first-parent commits: {dict(kinds)}; {dict(agents)}")

    every = [c for rows in details.values() for c in rows]
    print()
    print("| rubric | rule | agent | human |")
    print("| --- | --- | --- | --- |")
    for name in rubrics:
        for row in table(every, name, sorted(rule_ids[name])):
            print(row)
    if args.details:
        Path(args.details).write_text(json.dumps(details, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
