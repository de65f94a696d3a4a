"""`gate backtest`: judge one rubric against the repository's own history.

Each first-parent commit of the walked branch (a merged PR, squashed or
merged) is judged as the change from its first parent, exactly as `gate
check --base SHA^ --head SHA --rubric-file FILE` judges it: the change set
comes from `gate.changes.git.changes_from_git` (the diff and texts of
`Repo.start_diff` and `Repo.read_texts`, which `gate check` runs too) and
the verdict from `gate.judge.judge`, which `gate check` calls.
A test compares every commit's `failed` with the real `gate check`.  One
command, one rubric load, one run of the rubric's examples (their verdict,
built-in `gate.rubric-selftest`, is the same for every commit: a rubric that
disagrees with its examples fails every commit, as it fails every check),
one `git log` for the metadata, and one `git cat-file --batch` session per
worker process for the texts content rules read (`Repo.blob_session`).

Who wrote each commit comes from `gate.base.agents.classify` (author, committer,
co-author trailers, the merged branch): agent, human or automation (a
bot); `how` says which signal decided.

A root commit has no parent to judge from: it is skipped, with a note.  A
commit that cannot be judged (its parent or an object outside a shallow or
partial clone) is *unjudged*: listed with the reason, never counted as a
pass or a failure; the command then exits 2 after printing the report.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import multiprocessing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gate.base.agents import AGENT, AUTOMATION, HUMAN, Authorship, Commit, classify, pull_request
from gate.base.errors import GateError
from gate.base.paths import shown
from gate.changes.git import changes_from_git
from gate.git.repo import LogEntry, Repo
from gate.judge import examples_verdict, judge
from gate.model.change import ChangeSet
from gate.model.report import Report
from gate.model.rubric import Rubric, Rule
from gate.model.waivers import Waivable, waivable
from gate.rubric.budgets import BUDGET_KINDS
from gate.rules import REGISTRY, text_wants
from gate.rules.builtin import RUBRIC_EDITED, RUBRIC_SELFTEST

DEFAULT_LAST = 200
_MEASURE_CAP = 1 << 40  # a count no budget reaches: the rule fails at every limit
DEFAULT_JOBS = 4  # worker processes (`_in_parallel`); docs/development.md, "gate backtest"


@dataclass(frozen=True)
class Judged:
    """One judged commit: who wrote it, which rules it fails, its size
    (`stats`: files touched, lines added and deleted, as `gate check`'s
    report says), the count each budget rule measured (`counts`: what
    FILES and LINES judge, their excludes left out), and for each failed
    rule that names paths the paths that tripped it (`paths`)."""

    sha: str
    subject: str
    authorship: Authorship
    failed: tuple[str, ...]
    merge: bool = False
    counts: Mapping[str, int | None] = field(default_factory=dict)
    stats: Mapping[str, int | bool] = field(default_factory=dict)
    paths: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    warned: tuple[str, ...] = ()  # rules at `level: warn` that failed (never in `failed`)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sha": self.sha,
            "subject": self.subject,
            # the product contract's two values: a bot's commit is no
            # agent's, so `human` there, and `automation` says it was a bot
            "author_kind": AGENT if self.authorship.kind == AGENT else HUMAN,
            "automation": self.authorship.kind == AUTOMATION,
            "agent": self.authorship.agent,
            "how": self.authorship.how,
            "failed": list(self.failed),
            "warned": list(self.warned),
            "pass": not self.failed,
            "merge": self.merge,
            "pr": pull_request(self.subject),
        }
        if self.authorship.bot is not None:
            out["bot"] = self.authorship.bot
        if self.stats:
            out["stats"] = dict(self.stats)
        if self.counts:
            out["counts"] = dict(self.counts)
        if self.paths:
            out["paths"] = {rule: [shown(p) for p in found] for rule, found in self.paths.items()}
        return out


@dataclass(frozen=True)
class Unjudged:
    """A commit left out, and why (a root commit; an object the clone lacks)."""

    sha: str
    subject: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"sha": self.sha, "subject": self.subject, "reason": self.reason}


@dataclass(frozen=True)
class Backtest:
    """What a rubric would have done to a history."""

    rubric: str  # where the rubric came from, in words
    rubric_sha256: str
    revision: str  # what was walked, in words
    rules: tuple[tuple[str, str], ...]  # (id, kind): built-ins, then the rubric's
    commits: tuple[Judged, ...]
    skipped: tuple[Unjudged, ...] = ()  # root commits
    unjudged: tuple[Unjudged, ...] = ()
    examples_agree: bool = True
    # The rules a waiver lists: in the Action a listed approver's approval
    # clears them (`gate.model.waivers`); a backtest has no approvals, so it only says so.
    waivable: tuple[Waivable, ...] = ()

    def count(self, kind: str, *, failed: bool = False) -> int:
        """How many judged commits `kind` wrote (with `failed`: that fail)."""
        return sum(
            1 for c in self.commits if c.authorship.kind == kind and (c.failed or not failed)
        )

    def rule_summary(self) -> dict[str, dict[str, Any]]:
        """Per rule id: its kind, how many agent- and human-written commits
        failed it (and bot-written: `automation`), and the failing shas
        (newest first).  A rule at `level: warn` counts the commits it
        failed too (each commit's `warned`): what its check judged."""
        out: dict[str, dict[str, Any]] = {}
        for rule_id, kind in self.rules:
            failing = [c for c in self.commits if rule_id in c.failed or rule_id in c.warned]
            out[rule_id] = {
                "kind": kind,
                "agent": sum(1 for c in failing if c.authorship.kind == AGENT),
                "human": sum(1 for c in failing if c.authorship.kind == HUMAN),
                "automation": sum(1 for c in failing if c.authorship.kind == AUTOMATION),
                "failed": [c.sha for c in failing],
            }
        for item in self.waivable:
            out[item.rule]["waivable_by"] = item.to_dict()
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "rubric": self.rubric,
            "rubric_sha256": self.rubric_sha256,
            "revision": self.revision,
            "examples_agree": self.examples_agree,
            "totals": {
                "judged": len(self.commits),
                "agent": self.count(AGENT),
                "human": self.count(HUMAN),
                "automation": self.count(AUTOMATION),
                "failed": sum(1 for c in self.commits if c.failed),
                "agent_failed": self.count(AGENT, failed=True),
                "human_failed": self.count(HUMAN, failed=True),
                "automation_failed": self.count(AUTOMATION, failed=True),
                "skipped": len(self.skipped),
                "unjudged": len(self.unjudged),
            },
            "commits": [c.to_dict() for c in self.commits],
            "rules": self.rule_summary(),
            "skipped": [s.to_dict() for s in self.skipped],
            "unjudged": [u.to_dict() for u in self.unjudged],
        }


def commit_of(entry: LogEntry) -> Commit:
    """What `classify` reads of a `git log` entry."""
    return Commit(
        author_name=entry.author_name,
        author_email=entry.author_email,
        committer_name=entry.committer_name,
        committer_email=entry.committer_email,
        subject=entry.subject,
        co_authors=entry.co_authors,
    )


def measure(rule: Rule, changes: ChangeSet) -> int | None:
    """The count a budget rule (`BUDGET_KINDS`) judges on `changes`, found
    by the rule itself: the least `limit` under which it passes (its count is
    over the limit exactly when it fails, so the rule's own counting, with
    its `exclude`, renames and binary files, is the measure; nothing counts
    twice).  None when it fails at every limit (a file too large to count)."""
    check = REGISTRY[rule.kind].check

    def passes(limit: int) -> bool:
        params = {**rule.params, "limit": limit}
        return check(dataclasses.replace(rule, params=params), changes).passed

    high = max(1, int(rule.params.get("limit", 1)))
    while not passes(high):
        high *= 2
        if high > _MEASURE_CAP:
            return None
    low = -1  # passes(low) is False (no count is below 0), passes(high) is True
    while high - low > 1:
        middle = (low + high) // 2
        if passes(middle):
            high = middle
        else:
            low = middle
    return high


def tripped(report: Report) -> dict[str, tuple[str, ...]]:
    """For each failed rule that is no budget, the paths that tripped it
    (its result's paths and its findings' paths, sorted, each once)."""
    out = {}
    for result in report.results:
        if result.passed or result.kind in BUDGET_KINDS:
            continue
        found = {*result.paths, *(f.path for f in result.findings)}
        if found:
            out[result.id] = tuple(sorted(found))
    return out


def rule_ids(rubric: Rubric) -> tuple[tuple[str, str], ...]:
    """The ids a backtest reports: the built-ins a git-mode check can fail
    (`gate.rubric-edited`, `gate.rubric-selftest`), then the rubric's."""
    return (
        (RUBRIC_EDITED, "builtin"),
        (RUBRIC_SELFTEST, "builtin"),
        *((r.id, r.kind) for r in rubric.rules),
    )


def run_backtest(
    repo: Repo,
    rubric: Rubric,
    entries: Sequence[LogEntry],
    *,
    rubric_path: str,
    rubric_name: str,
    revision: str,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = DEFAULT_JOBS,
) -> Backtest:
    """Judge each commit of `entries` (newest first, from `Repo.history`)
    against `rubric`, as `gate check --base SHA^ --head SHA` would.

    `rubric_path` is the path `gate.rubric-edited` watches; `progress` is
    called with (done, total) after each commit; `jobs` processes judge at
    once (`_in_parallel`), the verdicts in the order of `entries` whatever
    finishes first."""
    selftest = examples_verdict(rubric)
    content = text_wants(rubric.rules)  # the fixed files and the written files read by glob
    budgets = [r for r in rubric.rules if r.kind in BUDGET_KINDS]

    def judge_commit(entry: LogEntry) -> Judged | Unjudged:
        with _collected_once():
            return _judge_commit(entry)

    def _judge_commit(entry: LogEntry) -> Judged | Unjudged:
        if entry.shallow:
            return Unjudged(
                entry.sha,
                entry.subject,
                "its parent is outside this shallow clone; fetch the full history "
                "(git fetch --unshallow)",
            )
        try:
            changes = changes_from_git(repo, entry.parents[0], entry.sha, content, parent=True)
        except GateError as exc:
            return Unjudged(entry.sha, entry.subject, exc.message)
        report = judge(rubric, changes, rubric_path=rubric_path, selftest=selftest)
        return Judged(
            entry.sha,
            entry.subject,
            classify(commit_of(entry)),
            report.failed,
            merge=len(entry.parents) > 1,
            counts={r.id: measure(r, changes) for r in budgets},
            stats=report.stats.to_dict(),
            paths=tripped(report),
            warned=report.warned,
        )

    judged: list[Judged] = []
    skipped: list[Unjudged] = []
    unjudged: list[Unjudged] = []
    roots = [e for e in entries if not e.parents and not e.shallow]
    skipped = [
        Unjudged(e.sha, e.subject, "the root commit: no parent to judge from") for e in roots
    ]
    todo = [e for e in entries if e.parents or e.shallow]
    for done, outcome in enumerate(_in_parallel(repo, judge_commit, todo, jobs), 1):
        if isinstance(outcome, Judged):
            judged.append(outcome)
        else:
            unjudged.append(outcome)
        if progress is not None:
            progress(done, len(todo))
    return Backtest(
        rubric=rubric_name,
        rubric_sha256=rubric.sha256,
        revision=revision,
        rules=rule_ids(rubric),
        commits=tuple(judged),
        skipped=tuple(skipped),
        unjudged=tuple(unjudged),
        examples_agree=selftest.passed,
        waivable=waivable(rubric.waivers, [rule_id for rule_id, _ in rule_ids(rubric)]),
    )


@contextlib.contextmanager
def _collected_once() -> Iterator[None]:
    """Judge one commit with the cyclic collector off, then collect once
    and freeze what is left (`gc.freeze`).  What the judging keeps for the
    next commits (the splitter's cases and trees, millions of objects)
    leaves the collector's sight: scanned again at every collection, it
    cost two thirds of the splitting time; none of it is cyclic, and what a
    cache drops is freed by reference counting.  Within a commit the
    collector ran every 700 objects made and found little (pydantic-ai's
    last 100 commits: 2,131 runs, 9,500 objects freed, 3.1 of 21 CPU s):
    one run after the commit frees the same cycles and reads each object
    the commit left at most once."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
        gc.collect(0)  # the commit's objects: the older ones are frozen
        gc.freeze()


def _in_parallel(
    repo: Repo,
    work: Callable[[LogEntry], Judged | Unjudged],
    entries: Sequence[LogEntry],
    jobs: int,
) -> Iterator[Judged | Unjudged]:
    """`work` on each entry, yielded in the order of `entries`.  The work
    is Python's (splitting test files into cases, most of all), which one
    interpreter runs on one core whatever its threads: `jobs` > 1 forks
    `jobs` worker processes (`_in_processes`); where fork is missing
    (Windows, macOS's default spawn cannot inherit `work`), one process
    judges them all.  An exception in a worker (a bug: GateError is an
    outcome) is raised here."""
    if jobs > 1 and len(entries) > 1 and "fork" in multiprocessing.get_all_start_methods():
        yield from _in_processes(repo, work, entries, jobs)
        return
    with repo.blob_session():
        yield from (work(e) for e in entries)


# What a forked worker runs: set just before the fork, read by `_worker_*`.
_WORK: tuple[Repo, Callable[[LogEntry], Judged | Unjudged]] | None = None


def _worker_start() -> None:
    assert _WORK is not None
    session = _WORK[0].blob_session()
    session.__enter__()  # closed when the worker exits (git sees end of input)


def _worker_judge(entry: LogEntry) -> Judged | Unjudged:
    assert _WORK is not None
    return _WORK[1](entry)


def _in_processes(
    repo: Repo,
    work: Callable[[LogEntry], Judged | Unjudged],
    entries: Sequence[LogEntry],
    jobs: int,
) -> Iterator[Judged | Unjudged]:
    """`work` on each entry in `jobs` forked processes, each with its own
    `git cat-file` session.  Neighbouring commits go to the same worker in
    runs (`chunksize`): a file's head in one commit is often its base in the
    next, and the test-case splitter keeps its last texts' cases."""
    global _WORK
    _WORK = (repo, work)
    try:
        context = multiprocessing.get_context("fork")
        chunk = max(1, min(8, len(entries) // (jobs * 4)))
        with context.Pool(min(jobs, len(entries)), initializer=_worker_start) as pool:
            yield from pool.imap(_worker_judge, entries, chunksize=chunk)
    finally:
        _WORK = None


def default_branch(repo: Repo) -> str:
    """The branch changes merge into: the first of `gate.base.names.DEFAULT_BASES`
    that names a commit, else HEAD."""
    from gate.base.names import DEFAULT_BASES

    for candidate in DEFAULT_BASES:
        if repo.try_rev_parse(candidate) is not None:
            return candidate
    return "HEAD"


def load_and_run(
    repo_dir: str,
    *,
    rubric_path: str,
    rubric_file: str | None,
    revision: str | None,
    last: int | None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = DEFAULT_JOBS,
) -> Backtest:
    """The whole backtest from the command line's words: the commits
    (`revision`, a range, else the last `last` first-parent commits of the
    default branch), the rubric (`rubric_file`, else the one at HEAD),
    judged (`run_backtest`)."""
    from gate.rubric.source import RubricSource

    if jobs < 1:
        raise GateError(f"--jobs {jobs}: name how many commits to judge at once, 1 or more")
    repo = Repo(repo_dir)
    repo.check_repository()
    source = RubricSource(rubric_path, file=rubric_file)
    entries, words = walk(repo, revision, last)
    if rubric_file is not None:
        rubric = source.load()
        name = f"--rubric-file {rubric_file}"
    else:
        head = repo.try_rev_parse("HEAD")
        found = source.at_commit(repo.read_blob, head) if head is not None else None
        if found is None or head is None:
            raise GateError(
                f"no rubric at {source.path} in HEAD: pass --rubric-file FILE (the one "
                "gate init wrote, say), or --rubric PATH for another path"
            )
        rubric, name = found, f"{source.path} at HEAD {head[:12]}"
    return run_backtest(
        repo,
        rubric,
        entries,
        rubric_path=source.path,
        rubric_name=name,
        revision=words,
        progress=progress,
        jobs=jobs,
    )


def walk(repo: Repo, revision: str | None, last: int | None) -> tuple[list[LogEntry], str]:
    """The commits to judge and, in words, what they are: `revision` (a
    range) or else the last `last` (default `DEFAULT_LAST`) first-parent
    commits of the default branch."""
    if last is not None and last < 1:
        raise GateError(f"--last {last}: name how many commits to judge, 1 or more")
    if revision is None:
        walked = default_branch(repo)
        count = DEFAULT_LAST if last is None else last
        return (
            repo.history(walked, last=count),
            f"the last {count} first-parent commits of {walked}",
        )
    words = f"the first-parent commits of {revision}"
    if last is not None:
        words = f"the last {last} " + words.removeprefix("the ")
    return repo.history(revision, last=last), words


def totals_line(result: Backtest) -> str:
    """One line of totals: `150 commits judged: 42 agent (30 failed, 71%),
    100 human (12 failed, 12%), 8 automation (0 failed); 1 root skipped,
    2 unjudged` (the parts after `;` only when not zero); `nothing judged: ...`
    when no commit was judged."""
    parts = []
    for kind in (AGENT, HUMAN, AUTOMATION):
        n, failed = result.count(kind), result.count(kind, failed=True)
        share = f", {100 * failed // n}%" if n else ""
        parts.append(f"{n} {kind} ({failed} failed{share})")
    line = f"{len(result.commits)} commits judged: " + ", ".join(parts)
    if not result.commits:  # an empty range, or only a root commit: say so plainly
        line = f"nothing judged: no commit with a parent in {result.revision}"
    rest = []
    if result.skipped:
        rest.append(f"{len(result.skipped)} root skipped")
    if result.unjudged:
        rest.append(f"{len(result.unjudged)} unjudged")
    return line + ("; " + ", ".join(rest) if rest else "")
