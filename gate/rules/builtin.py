"""The built-in rules: always on, not part of any rubric, and no rubric can
switch them off.  Their ids start with `gate.`, which a rubric may not use.

Ids are public API: an id is never renamed, renumbered or reused (more
built-ins may be added under the prefix).  `BUILTINS` is their report
order: `gate.judge.evaluate` reports built-ins first, in this order, then
the rubric's rules.  Each built-in is a pure function of plain values that
returns a ready `RuleResult` (kind `builtin`); the caller that holds those
values (the judge, the Action, the self-test) runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from gate.base.names import BUILTIN_PREFIX as BUILTIN_PREFIX  # re-exported
from gate.base.words import plural
from gate.model.change import ChangeSet
from gate.model.report import RuleResult

KIND = "builtin"  # the `kind` of every built-in result

RUBRIC_EDITED = "gate.rubric-edited"
WORKFLOW_EDITED = "gate.workflow-edited"
DIFF_INCOMPLETE = "gate.diff-incomplete"
RUBRIC_SELFTEST = "gate.rubric-selftest"

# Where GitHub keeps workflow files; watched whole when the running one is unknown.
WORKFLOWS_DIR = ".github/workflows/"
# The compare API lists at most this many files for one comparison.
FILES_API_LIMIT = 300


def rubric_edited(changes: ChangeSet, rubric_path: str) -> RuleResult:
    """Built-in `gate.rubric-edited`: fails when the change writes the
    rubric's own path: edits, deletes, renames it (away or into its place),
    changes its mode, or overwrites it.  The rubric used is still the base
    version.  A copy *of* the rubric leaves it as it was (its new path is a
    new file, judged by the rubric's rules), so it does not count; a copy
    written *over* the rubric does."""
    hits = tuple(p for p in changes.written_paths() if p == rubric_path)
    if hits:
        message = (
            f"the change touches the rubric {rubric_path}; "
            "it was judged by the base version, and a rubric change needs its own reviewed PR"
        )
    else:
        message = f"the rubric {rubric_path} is untouched"
    return RuleResult(id=RUBRIC_EDITED, kind=KIND, passed=not hits, message=message, paths=hits)


def workflow_edited(changes: ChangeSet, workflow_path: str | None) -> RuleResult:
    """Built-in `gate.workflow-edited` (Action only): fails when the change
    touches the workflow file that runs the gate (`GITHUB_WORKFLOW_REF`):
    under `pull_request` that file comes from the PR itself.

    Without `GITHUB_WORKFLOW_REF` the running workflow is unknown, so every
    file under `.github/workflows/` counts (fail closed).  As for the
    rubric, the paths the change writes count: a copy of the workflow
    elsewhere leaves it as it was (a copy into `.github/workflows/` is a
    new workflow there, and counts when the running one is unknown)."""
    touched = changes.written_paths()
    if workflow_path is not None:
        hits = tuple(p for p in touched if p == workflow_path)
        watched = workflow_path
    else:
        hits = tuple(p for p in touched if p.startswith(WORKFLOWS_DIR))
        watched = f"{WORKFLOWS_DIR} (GITHUB_WORKFLOW_REF is not set)"
    if hits:
        message = (
            f"the change touches the workflow that runs the gate ({watched}); under "
            "pull_request that file comes from the PR itself, so a workflow change needs "
            "its own reviewed PR"
        )
    else:
        message = f"the workflow that runs the gate ({watched}) is untouched"
    return RuleResult(id=WORKFLOW_EDITED, kind=KIND, passed=not hits, message=message, paths=hits)


class Listing(Protocol):
    """How much of a change set an API listing holds."""

    @property
    def listed(self) -> int: ...  # entries the API returned

    @property
    def expected(self) -> int | None: ...  # the PR's changed_files (None: unknown)


def diff_incomplete(found: Listing | None) -> RuleResult:
    """Built-in `gate.diff-incomplete` (Action only): fails when the change
    set could not be read completely (the compare API lists at most 300
    files; its distinct paths are counted, so repeated entries never make a
    listing complete).

    `found` is the compare API's listing; None means the change came whole
    from git."""
    if found is None:
        return RuleResult(
            id=DIFF_INCOMPLETE,
            kind=KIND,
            passed=True,
            message="the change set was read completely from git",
        )
    if found.expected is None:
        return RuleResult(
            id=DIFF_INCOMPLETE,
            kind=KIND,
            passed=False,
            message=(
                f"the compare API listed {found.listed} files but the PR's changed_files "
                "count is unknown, so the listing cannot be shown complete; check out both "
                "commits (actions/checkout with fetch-depth: 0) to judge from git"
            ),
        )
    if found.listed < found.expected:
        full = found.listed >= FILES_API_LIMIT
        cap = f" (the compare API lists at most {FILES_API_LIMIT} files)" if full else ""
        return RuleResult(
            id=DIFF_INCOMPLETE,
            kind=KIND,
            passed=False,
            message=(
                f"the compare API listed {found.listed} of {found.expected} changed files"
                f"{cap}; the change cannot be judged from a partial listing: check out both "
                "commits (actions/checkout with fetch-depth: 0) so the gate reads git, "
                "or split the PR"
            ),
        )
    return RuleResult(
        id=DIFF_INCOMPLETE,
        kind=KIND,
        passed=True,
        message=f"the compare API listed all {found.listed} changed files",
    )


class Outcome(Protocol):
    """What one of the rubric's examples got (`gate.judge.ExampleOutcome`)."""

    @property
    def name(self) -> str: ...

    @property
    def agrees(self) -> bool: ...  # it got the verdict it expects

    def describe(self) -> str: ...  # one sentence: expected what, got what


def rubric_selftest(outcomes: Sequence[Outcome]) -> RuleResult:
    """Built-in `gate.rubric-selftest`: fails when one of the rubric's own
    `examples` got a verdict other than the one it expects.  Every command
    that judges a real change runs the examples first (`gate.judge.judge`),
    so nothing is judged as passing by rules that disagree with their own
    examples."""
    wrong = [o for o in outcomes if not o.agrees]
    if not wrong:
        n = len(outcomes)
        message = (
            f"all {plural(n, 'rubric example')} got their expected verdict"
            if n
            else "the rubric has no examples (`gate selftest` says why to add some)"
        )
        return RuleResult(id=RUBRIC_SELFTEST, kind=KIND, passed=True, message=message)
    details = "; ".join(f'example "{o.name}": {o.describe()}' for o in wrong)
    disagree = "disagrees" if len(wrong) == 1 else "disagree"
    return RuleResult(
        id=RUBRIC_SELFTEST,
        kind=KIND,
        passed=False,
        message=f"{plural(len(wrong), 'rubric example')} {disagree}, so no verdict can be trusted: "
        f"{details}",
    )


# Report order (never reorder an existing id; a new built-in goes where it reads best).
BUILTINS: tuple[tuple[str, Callable[..., RuleResult]], ...] = (
    (RUBRIC_EDITED, rubric_edited),
    (WORKFLOW_EDITED, workflow_edited),
    (DIFF_INCOMPLETE, diff_incomplete),
    (RUBRIC_SELFTEST, rubric_selftest),
)
BUILTIN_IDS = tuple(rule_id for rule_id, _ in BUILTINS)


def order(results: Iterable[RuleResult]) -> list[RuleResult]:
    """Built-in results in report order (`BUILTIN_IDS`; an unknown id last, by id)."""
    rank = {rule_id: i for i, rule_id in enumerate(BUILTIN_IDS)}
    return sorted(results, key=lambda r: (rank.get(r.id, len(rank)), r.id))
