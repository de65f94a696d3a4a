"""`gate backtest`: judge one rubric against the repository's own history.

Each first-parent commit of the walked branch (a merged PR, squashed or
merged) is judged as the change from its first parent, exactly as `gate
check --base SHA^ --head SHA --rubric-file FILE` judges it: the change set
comes from `gate.changes.git.changes_from_git` (the diff and texts of
`Repo.start_diff` and `Repo.read_texts`, which `gate check` runs too) and
the verdict from `gate.judge.judge`, which `gate check` calls.
A test compares every commit's `failed` with the real `gate check`.  One
process, one rubric load, one run of the rubric's examples (their verdict,
built-in `gate.rubric-selftest`, is the same for every commit: a rubric that
disagrees with its examples fails every commit, as it fails every check),
one `git log` for the metadata, and one `git cat-file --batch` session per
thread for the texts content rules read (`Repo.blob_session`).

Who wrote each commit comes from `gate.agents.classify` (author, committer,
co-author trailers, the merged branch); `how` says which signal decided.

A root commit has no parent to judge from: it is skipped, with a note.  A
commit that cannot be judged (its parent or an object outside a shallow or
partial clone) is *unjudged*: listed with the reason, never counted as a
pass or a failure; the command then exits 2 after printing the report.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gate.agents import AGENT, HUMAN, Authorship, Commit, classify, pull_request
from gate.changes import ChangeSet
from gate.changes.git import changes_from_git
from gate.errors import GateError
from gate.git.repo import LogEntry, Repo
from gate.judge import examples_verdict, judge
from gate.rubric import Rubric, Rule
from gate.rubric.budgets import BUDGET_KINDS
from gate.rules import REGISTRY, text_wants
from gate.rules.builtin import RUBRIC_EDITED, RUBRIC_SELFTEST
from gate.waivers import Waivable, waivable

DEFAULT_LAST = 200
_MEASURE_CAP = 1 << 40  # a count no budget reaches: the rule fails at every limit
DEFAULT_JOBS = 4  # threads; see docs/development.md (measured on a two-core machine)


@dataclass(frozen=True)
class Judged:
    """One judged commit: who wrote it, which rules it fails, and (when
    asked) the count each budget rule measured."""

    sha: str
    subject: str
    authorship: Authorship
    failed: tuple[str, ...]
    merge: bool = False
    counts: Mapping[str, int | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sha": self.sha,
            "subject": self.subject,
            "author_kind": self.authorship.kind,
            "agent": self.authorship.agent,
            "how": self.authorship.how,
            "failed": list(self.failed),
            "pass": not self.failed,
            "merge": self.merge,
            "pr": pull_request(self.subject),
        }
        if self.authorship.bot is not None:
            out["bot"] = self.authorship.bot
        if self.counts:
            out["counts"] = dict(self.counts)
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
    # clears them (`gate.waivers`); a backtest has no approvals, so it only says so.
    waivable: tuple[Waivable, ...] = ()

    def count(self, kind: str) -> int:
        return sum(1 for c in self.commits if c.authorship.kind == kind)

    def rule_summary(self) -> dict[str, dict[str, Any]]:
        """Per rule id: its kind, how many agent- and human-written commits
        failed it, and the failing shas (newest first)."""
        out: dict[str, dict[str, Any]] = {}
        for rule_id, kind in self.rules:
            failing = [c for c in self.commits if rule_id in c.failed]
            out[rule_id] = {
                "kind": kind,
                "agent": sum(1 for c in failing if c.authorship.kind == AGENT),
                "human": sum(1 for c in failing if c.authorship.kind == HUMAN),
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
                "failed": sum(1 for c in self.commits if c.failed),
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
    measure_budgets: bool = False,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = DEFAULT_JOBS,
) -> Backtest:
    """Judge each commit of `entries` (newest first, from `Repo.history`)
    against `rubric`, as `gate check --base SHA^ --head SHA` would.

    `rubric_path` is the path `gate.rubric-edited` watches; `progress` is
    called with (done, total) after each commit; `jobs` threads judge at
    once (git does the work, in its own processes), the verdicts in the
    order of `entries` whatever finishes first."""
    selftest = examples_verdict(rubric)
    content = text_wants(rubric.rules)  # the fixed files and the written files read by glob
    budgets = [r for r in rubric.rules if r.kind in BUDGET_KINDS] if measure_budgets else []

    def judge_commit(entry: LogEntry) -> Judged | Unjudged:
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
        )

    judged: list[Judged] = []
    skipped: list[Unjudged] = []
    unjudged: list[Unjudged] = []
    roots = [e for e in entries if not e.parents and not e.shallow]
    skipped = [
        Unjudged(e.sha, e.subject, "the root commit: no parent to judge from") for e in roots
    ]
    todo = [e for e in entries if e.parents or e.shallow]
    for done, outcome in enumerate(_in_threads(repo, judge_commit, todo, jobs), 1):
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


def _in_threads(
    repo: Repo,
    work: Callable[[LogEntry], Judged | Unjudged],
    entries: Sequence[LogEntry],
    jobs: int,
) -> Iterator[Judged | Unjudged]:
    """`work` on each entry, by `jobs` threads each with its own `git
    cat-file` session; yielded in the order of `entries`.  An exception in
    a thread (a bug: GateError is an outcome) is raised here."""
    if jobs <= 1 or len(entries) <= 1:
        with repo.blob_session():
            yield from (work(e) for e in entries)
        return
    results: dict[int, Judged | Unjudged | BaseException] = {}
    ready = threading.Condition()
    next_index = iter(range(len(entries)))
    stop = threading.Event()

    def worker() -> None:
        with repo.blob_session():
            while not stop.is_set():
                with ready:
                    i = next(next_index, None)
                if i is None:
                    return
                try:
                    outcome: Judged | Unjudged | BaseException = work(entries[i])
                except BaseException as exc:  # handed to the main thread, raised there
                    outcome = exc
                with ready:
                    results[i] = outcome
                    ready.notify_all()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(jobs)]
    for t in threads:
        t.start()
    try:
        for i in range(len(entries)):
            with ready:
                ready.wait_for(lambda i=i: i in results)  # type: ignore[misc]
                outcome = results.pop(i)
            if isinstance(outcome, BaseException):
                raise outcome
            yield outcome
    finally:
        stop.set()
        for t in threads:
            t.join()


def percentile(values: Iterable[int], p: float) -> int:
    """The nearest-rank `p`th percentile (0 < p <= 100) of `values`: the
    least value at least p% of them do not exceed."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, -(-len(ordered) * p // 100))  # ceil(n * p / 100)
    return ordered[int(min(rank, len(ordered))) - 1]


def human_counts(result: Backtest, rule_id: str) -> list[int]:
    """The counts rule `rule_id` measured on the human-written commits,
    dependency bots left out (a lock-file refresh is not a person's change
    size) and commits too large to count left out."""
    out = []
    for c in result.commits:
        if c.authorship.kind != HUMAN or c.authorship.bot is not None:
            continue
        value = c.counts.get(rule_id)
        if value is not None:
            out.append(value)
    return out


def default_branch(repo: Repo) -> str:
    """The branch changes merge into: the first of `gate.names.DEFAULT_BASES`
    that names a commit, else HEAD."""
    from gate.names import DEFAULT_BASES

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
    measure_budgets: bool = False,
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
        measure_budgets=measure_budgets,
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


@dataclass(frozen=True)
class Budget:
    """A budget rule's limit learned from history (`learn_budgets`)."""

    rule_id: str
    kind: str
    was: int  # the limit before
    limit: int  # the limit now
    value: int  # the percentile of the human-written changes' counts
    samples: int  # how many human-written changes were counted
    floor: int  # the count the rubric's examples need to stay as they expect

    def sentence(self, p: float) -> str:
        shown = f"{p:g}"
        text = (
            f"{self.rule_id} ({self.kind}): limit {self.limit} (was {self.was}): the "
            f"{shown}th percentile of {self.samples} human-written changes is {self.value}"
        )
        if self.limit > self.value:
            text += f", raised to {self.floor} so that the examples expecting it to pass still do"
        return text


def learn_budgets(result: Backtest, rubric: Rubric, p: float) -> list[Budget]:
    """Each budget rule's limit set to the `p`th percentile of what it
    counted on the human-written changes (dependency bots left out), but
    never below what an example that must not fail it needs (the example
    that proves the rule follows its limit symbolically)."""
    if not 0 < p <= 100:
        raise GateError(f"--percentile {p:g}: choose a percentile above 0 and at most 100")
    out = []
    for rule in rubric.rules:
        if rule.kind not in BUDGET_KINDS:
            continue
        counts = human_counts(result, rule.id)
        if not counts:
            raise GateError(
                f"no human-written change of {result.revision} to learn {rule.id}'s limit "
                "from; pass a larger --last, or run gate init without --from-history"
            )
        value = percentile(counts, p)
        needs = [
            measure(rule, example.changes)
            for example in rubric.examples
            if rule.id not in example.expect
        ]
        floor = max((n for n in needs if n is not None), default=0)
        out.append(
            Budget(
                rule_id=rule.id,
                kind=rule.kind,
                was=int(rule.params["limit"]),
                limit=max(value, floor),
                value=value,
                samples=len(counts),
                floor=floor,
            )
        )
    return out
