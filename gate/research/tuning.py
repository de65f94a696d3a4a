"""What `gate init --from-history` learns from a backtest of the starter.

Three things, all read from one `gate.research.backtest.Backtest`:

* each budget rule's limit (`learn_budgets`): a percentile of what the rule
  counted on the human-written changes, never below what the examples need;
* each rule's fail rate on human- and agent-written commits (`rates`);
* for each path rule (`forbidden_paths`, `allowed_paths`, `test_drift`),
  the globs that human-written commits tripped (`propose`), each with the
  commits that tripped it, and the exact YAML line that would let such
  changes pass.  A glob is proposed for dropping only when what it alone
  protects at the history's newest commit (the tree's paths it matches
  and no glob kept matches) is nearly all what tripped it (`NEARLY`):
  dropping `tests/` because two commits edited the only files no other
  glob matched would unprotect every helper and data file under it.
  Proposals are shown, never written: the rubric `gate init` writes stays
  as strict as the starter, and loosening it is the reader's
  decision, made with the commits in view.

A fourth, for any rule: `level: warn` for a rule too noisy on this history
(`noisy`): one that fails more than `NOISY` of the human-written commits
(budgets at their learned limits), at least `AT_LEAST` of them.  It is a
comment in the rubric `gate init` writes (`comment`: uncomment the line to
apply it) and a line of the summary, both naming the commits; never applied
by itself, since a warning no longer blocks what the rule is for.

Only human-written commits teach: an agent commit that trips a forbidden
path is what the rule is for, and a bot's (`automation`) is neither.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gate.base import globs
from gate.base.agents import AGENT, HUMAN
from gate.base.errors import GateError
from gate.git.repo import LogEntry, Repo
from gate.model.rubric import WARN, Rubric, Rule
from gate.research.backtest import DEFAULT_LAST, Backtest, Judged, measure, totals_line, walk
from gate.rubric.budgets import BUDGET_KINDS

PATH_KINDS = ("forbidden_paths", "allowed_paths", "test_drift")
AT_LEAST = 2  # human commits a glob must trip before it is proposed
SHAS_SHOWN = 5  # commits named per proposal (the JSON backtest has them all)
# A glob may be dropped when at most this share of the files it alone
# protects at HEAD are files no commit tripped it on (none of up to 9).
NEARLY = 0.1
SHOWN_KEPT = 3  # files named of what a kept glob alone protects
# A rule failing more than this share of the human-written commits is
# proposed at `level: warn`: one change in five held up by a rule the
# maintainers themselves keep tripping gets it waived or removed, where a
# warning keeps it in view.
NOISY = 0.2


def percentile(values: Iterable[int], p: float) -> int:
    """The nearest-rank `p`th percentile (0 < p <= 100) of `values`: the
    least value at least p% of them do not exceed."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, -(-len(ordered) * p // 100))  # ceil(n * p / 100)
    return ordered[int(min(rank, len(ordered))) - 1]


def people(result: Backtest) -> list[Judged]:
    """The human-written commits, newest first, dependency bots left out (a
    lock-file refresh is not a person's change)."""
    return [c for c in result.commits if c.authorship.kind == HUMAN and c.authorship.bot is None]


def human_counts(result: Backtest, rule_id: str) -> list[int]:
    """The counts rule `rule_id` measured on the human-written commits
    (`people`), commits too large to count left out."""
    out = []
    for c in people(result):
        value = c.counts.get(rule_id)
        if value is not None:
            out.append(value)
    return out


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


def _rate(failed: int, of: int) -> str:
    return f"{failed} of {of}" + (f" ({100 * failed // of}%)" if of else "")


def rates(result: Backtest) -> list[str]:
    """One line per rule: how many human- and agent-written commits failed it."""
    human, agent = result.count(HUMAN), result.count(AGENT)
    return [
        f"{rule_id} ({info['kind']}): human {_rate(info['human'], human)}, "
        f"agent {_rate(info['agent'], agent)}"
        for rule_id, info in result.rule_summary().items()
    ]


@dataclass(frozen=True)
class Proposal:
    """Human-written commits a path rule failed, grouped by the glob that
    made them fail (`group`), and what would let them pass."""

    rule_id: str
    kind: str
    # The rule's (or `tests`') globs the paths matched, all of them (dropping
    # one while another still matches lets nothing pass); for allowed_paths
    # the folder to add; empty for a test runner's configuration, which
    # test_drift judges whatever its globs say.
    group: tuple[str, ...]
    paths: tuple[str, ...]  # the tripping paths, sorted
    human: tuple[str, ...]  # the human-written commits, newest first
    agent: int  # agent-written commits the same group tripped (what loosening loses)
    # Dropping the group's globs would let at least half of the human
    # commits the rule failed pass: it is what the rule is about
    # (`.github/workflows/` for CI, the test tree for TESTS), not a stray
    # match, so no YAML drops it.
    core: bool = False
    # The files at HEAD that only the group's globs (and the globs dropped
    # before it) protect and that did not trip it, when too many to drop
    # the group: it is kept (`propose`).
    protects: tuple[str, ...] = ()

    @property
    def kept(self) -> bool:
        """Whether no YAML line drops the group: the rule's core, or what it
        alone protects at HEAD."""
        return self.core or bool(self.protects)

    def sentence(self) -> str:
        shas = ", ".join(sha[:12] for sha in self.human[:SHAS_SHOWN])
        more = len(self.human) - SHAS_SHOWN
        if more > 0:
            shas += f" and {more} more"
        globs_shown = ", ".join(json.dumps(g) for g in self.group)
        if self.core:
            what, change = (
                globs_shown,
                (
                    "most of the rule's human failures: its core, kept (judge only "
                    "agent-written PRs with applies_to, or name who may waive it)"
                ),
            )
        elif not self.group:
            what, change = "a test runner's configuration", "no glob to drop: test_drift judges it"
        elif self.protects:
            shown_files = ", ".join(self.protects[:SHOWN_KEPT])
            more_files = ", ..." if len(self.protects) > SHOWN_KEPT else ""
            what, change = (
                globs_shown,
                (
                    f"kept: {'it' if len(self.group) == 1 else 'they'} alone "
                    f"{'protects' if len(self.group) == 1 else 'protect'} "
                    f"{len(self.protects)} other files at HEAD, e.g. {shown_files}{more_files}"
                ),
            )
        elif self.kind == "allowed_paths":
            what, change = globs_shown, "add it"
        else:
            what, change = globs_shown, "drop " + ("it" if len(self.group) == 1 else "them")
        shown = ", ".join(self.paths[:3]) + (", ..." if len(self.paths) > 3 else "")
        text = (
            f"{self.rule_id}: {what} tripped {len(self.human)} human commits ({shas}); "
            f"{change}; paths: {shown}"
        )
        if self.agent:
            text += f"; it also caught {self.agent} agent commits"
            text += "" if self.kept else ", which would pass too"
        return text


def _globs_of(rule: Rule, rubric: Rubric) -> list[str]:
    """The globs a path rule's proposals edit: its `paths`, or for
    test_drift without them the rubric's `tests`."""
    value = rule.params.get("paths")
    if value is None and rule.kind == "test_drift":
        return list(rubric.tests)  # the loader gives test_drift them anyway
    return [value] if isinstance(value, str) else [str(v) for v in value or ()]


def _group(rule: Rule, patterns: Sequence[str], path: str) -> tuple[str, ...]:
    """The globs of `patterns` that `path` matches, as the rule matches
    them; for allowed_paths the folder to allow (`docs/`, or the path at
    the root); empty when none matches (a runner's configuration, which
    test_drift judges whatever its globs say)."""
    if rule.kind == "allowed_paths":
        folder = path.rpartition("/")[0]
        return (f"{folder}/" if folder else path,)
    mode = globs.REACH if rule.kind == "forbidden_paths" else globs.FOLDED
    return tuple(p for p in patterns if globs.matches(path, [p], mode))


def _freed(human: dict[tuple[str, ...], list[str]], g: tuple[str, ...]) -> int:
    """How many commits of `human` (group -> commits) dropping the globs `g`
    lets pass: those of the groups whose globs are all in `g`.  A commit of
    several groups is counted when one of them is freed: an approximation
    that can only call more groups core (kept), never fewer."""
    return len({sha for h, shas in human.items() if set(h) <= set(g) for sha in shas})


def _matchers(rule: Rule, patterns: Sequence[str]) -> dict[str, Callable[[str], bool]]:
    mode = globs.REACH if rule.kind == "forbidden_paths" else globs.FOLDED
    return {p: globs.matcher([p], mode) for p in patterns}


def _guarding(
    found: list[Proposal], rule: Rule, patterns: Sequence[str], tree: Sequence[str]
) -> list[Proposal]:
    """`found` (most commits first) with `protects` set on each group that
    may not be dropped: dropping its globs with the ones dropped before it
    would unprotect more than `NEARLY` of their files at HEAD (`tree`) that
    tripped none of them.  A group dropped is counted for the ones after."""
    if rule.kind == "allowed_paths":
        return found
    match = _matchers(rule, patterns)
    dropped: set[str] = set()
    tripped: set[str] = set()
    out = []
    for p in found:
        if p.core or not p.group:
            out.append(p)
            continue
        trial = dropped | set(p.group)
        kept = [match[g] for g in patterns if g not in trial]
        dropping = [match[g] for g in patterns if g in trial]
        alone = [
            path
            for path in tree
            if any(m(path) for m in dropping) and not any(m(path) for m in kept)
        ]
        others = tuple(path for path in alone if path not in tripped and path not in p.paths)
        if len(others) > NEARLY * len(alone):
            out.append(dataclasses.replace(p, protects=others))
            continue
        dropped, tripped = trial, tripped | set(p.paths)
        out.append(p)
    return out


def propose(
    result: Backtest, rubric: Rubric, tree: Sequence[str], at_least: int = AT_LEAST
) -> list[Proposal]:
    """For each path rule (in the rubric's order), the groups (`_group`) of
    paths that tripped it on at least `at_least` human-written commits,
    most commits first; `core` when dropping the group's globs would let
    at least half of the human commits the rule failed pass (a commit
    passes when every path that tripped it matched only dropped globs);
    `protects` when its globs alone protect other files of `tree` (the
    paths at the history's newest commit) that no commit tripped them on
    (`_guarding`)."""
    out = []
    for rule in rubric.rules:
        if rule.kind not in PATH_KINDS:
            continue
        patterns = _globs_of(rule, rubric)
        human: dict[tuple[str, ...], list[str]] = {}
        agent: dict[tuple[str, ...], int] = {}
        paths: dict[tuple[str, ...], set[str]] = {}
        for c in result.commits:
            if c.authorship.kind not in (HUMAN, AGENT):
                continue
            groups = {_group(rule, patterns, p) for p in c.paths.get(rule.id, ())}
            for g in groups:
                if c.authorship.kind == HUMAN:
                    human.setdefault(g, []).append(c.sha)
                    paths.setdefault(g, set()).update(
                        p for p in c.paths[rule.id] if _group(rule, patterns, p) == g
                    )
                else:
                    agent[g] = agent.get(g, 0) + 1
        total = len({sha for shas in human.values() for sha in shas})
        found = [
            Proposal(
                rule.id,
                rule.kind,
                g,
                tuple(sorted(paths[g])),
                tuple(shas),
                agent.get(g, 0),
                core=bool(g) and rule.kind != "allowed_paths" and 2 * _freed(human, g) >= total,
            )
            for g, shas in human.items()
            if len(shas) >= at_least
        ]
        ordered = sorted(found, key=lambda p: (-len(p.human), p.group))
        out += _guarding(ordered, rule, patterns, tree)
    return out


def yaml_lines(proposals: Iterable[Proposal], rubric: Rubric) -> list[str]:
    """Per rule with proposals (those kept left out: its core, and globs
    that alone protect other files), the one YAML line that applies them
    all: the rule's `paths:` (or the rubric's `tests:`) with the groups
    dropped, or for allowed_paths added."""
    by_rule: dict[str, list[Proposal]] = {}
    for p in proposals:
        if not p.kept:
            by_rule.setdefault(p.rule_id, []).append(p)
    lines = []
    for rule in rubric.rules:
        if rule.id not in by_rule:
            continue
        groups = {g for p in by_rule[rule.id] for g in p.group}
        if not groups:
            continue
        patterns = _globs_of(rule, rubric)
        if rule.kind == "allowed_paths":
            new = patterns + sorted(groups - set(patterns))
        else:
            new = [p for p in patterns if p not in groups]
        top = rule.kind == "test_drift" and tuple(patterns) == tuple(rubric.tests)
        where = "tests" if top else f"{rule.id}'s paths"
        key = "tests" if where == "tests" else "paths"
        if not new:
            lines.append(f"{rule.id}: nothing would be left of {where}; remove the rule instead")
            continue
        lines.append(f"{rule.id} ({where}):")
        lines.append(f"  {key}: {json.dumps(new, ensure_ascii=False)}")
    return lines


@dataclass(frozen=True)
class Noisy:
    """A rule that failed more than `NOISY` of the human-written commits:
    proposed at `level: warn`, never applied by itself."""

    rule_id: str
    kind: str
    human: tuple[str, ...]  # the failing human-written commits, newest first
    of: int  # the human-written commits judged

    def _words(self) -> str:
        shas = ", ".join(sha[:12] for sha in self.human[:SHAS_SHOWN])
        more = len(self.human) - SHAS_SHOWN
        if more > 0:
            shas += f" and {more} more"
        return (
            f"failed {len(self.human)} of {self.of} human-written commits "
            f"({100 * len(self.human) // self.of}%): {shas}"
        )

    def sentence(self) -> str:
        return f"{self.rule_id} ({self.kind}): {self._words()}"

    def comment(self) -> str:
        """The commented YAML line `gate init` writes into the rule (`#` and
        its indentation are the writer's): uncommented, it applies."""
        return f"level: warn  # proposed by gate init --from-history: {self._words()}"


def noisy(result: Backtest, rubric: Rubric, learned: Sequence[Budget]) -> list[Noisy]:
    """The rules (in rubric order) that failed more than `NOISY` of the
    human-written commits (`people`) and at least `AT_LEAST` of them: a
    budget rule at its learned limit (a count over it; a count too large to
    measure left out), every other rule as the backtest judged it.  A rule
    already at `level: warn` is left out."""
    limits = {b.rule_id: b.limit for b in learned}
    humans = people(result)
    out = []
    for rule in rubric.rules:
        if rule.level == WARN:
            continue
        if rule.id in limits:
            failing = [
                c.sha
                for c in humans
                if (n := c.counts.get(rule.id)) is not None and n > limits[rule.id]
            ]
        else:
            failing = [c.sha for c in humans if rule.id in c.failed]
        if len(failing) >= AT_LEAST and len(failing) > NOISY * len(humans):
            out.append(Noisy(rule.id, rule.kind, tuple(failing), len(humans)))
    return out


def noisy_lines(found: Sequence[Noisy]) -> list[str]:
    """What the summary says of `noisy` rules."""
    if not found:
        return [
            f"no rule failed more than {NOISY:.0%} of the human-written commits: "
            "every rule keeps its level"
        ]
    return [
        f"level: warn proposed as a comment in the rubric, not applied (uncomment it to "
        f"apply): rules that failed more than {NOISY:.0%} of the human-written commits",
        *(f"  {n.sentence()}" for n in found),
    ]


def history(repo: Repo, at: str | None, last: int | None) -> tuple[list[LogEntry], str]:
    """The commits `gate init --from-history` learns from, and in words:
    the last `last` (default `DEFAULT_LAST`) first-parent commits of the
    default branch, or with `at` (`--at REV`) of REV's first parent, so
    that the history ends just before REV: REV itself, the commit whose
    proposal is being judged, is not learnt from."""
    if at is None:
        return walk(repo, None, last)
    sha = repo.try_rev_parse(at)
    if sha is None:
        raise GateError(f"--at {at}: no such commit here; name a commit of this repository")
    parent = repo.try_rev_parse(f"{sha}^")
    if parent is None:
        raise GateError(
            f"--at {at}: {sha[:12]} has no parent, so no history before it; name a later commit"
        )
    count = DEFAULT_LAST if last is None else last
    entries, _ = walk(repo, parent, count)
    return entries, f"the last {count} first-parent commits before {at} ({sha[:12]})"


def summary(
    result: Backtest,
    rubric: Rubric,
    learned: Sequence[Budget],
    p: float,
    replaced: Sequence[str],
    tree: Sequence[str],
) -> list[str]:
    """What `gate init --from-history` prints: the budgets learnt, each
    rule's rate, and the path rules' proposals with their YAML (`tree`:
    the paths at the history's newest commit, `propose`)."""
    lines = [f"learned from {result.revision}:"]
    lines += [f"  {b.sentence(p)}" for b in learned]
    if replaced:
        lines.append(
            f"  examples that now follow their limits ({{over: ID}}): {', '.join(replaced)}"
        )
    if result.unjudged:
        lines.append(f"  {len(result.unjudged)} commits could not be judged and were left out")
    lines.append(f"each rule on this history ({totals_line(result)}):")
    lines += [f"  {line}" for line in rates(result)]
    lines += noisy_lines(noisy(result, rubric, learned))
    proposals = propose(result, rubric, tree)
    if not proposals:
        lines.append(
            f"no path rule failed {AT_LEAST} or more human-written commits by the same glob: "
            "nothing to propose"
        )
        return lines
    lines.append(
        "proposed, not written (the rubric stays strict; add what you accept): globs that "
        "failed human-written commits"
    )
    lines += [f"  {p.sentence()}" for p in proposals]
    applied = yaml_lines(proposals, rubric)
    if applied:
        lines.append("  the line that applies them all, per rule:")
        lines += [f"    {line}" for line in applied]
    lines.append(
        "  or keep the rules and judge only agent-written PRs (applies_to: the rubric's "
        "comment lists the logins), or name who may waive them (waivers)"
    )
    return lines
