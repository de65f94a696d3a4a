"""`gate lab`: grind many writer patches against one base and one frozen rubric.

Each patch is judged on its own, exactly as `gate check --patch` judges it:
applied into a private temporary index (never the working tree), diffed
against the base, evaluated.  No state leaks between patches.  The seed's
buckets sort the corpses:

* `pass`: every rule passed.
* `thrash`: tests red (a `must_include` rule failed) and over budget (a
  `max_files` or `max_lines` rule failed).
* `rename`: a kept symbol was lost (`keep_symbols` failed).
* `kitchen-mop`: paths, bait lines or scope broken (any other rule failed),
  or over budget with tests green.

`gate loop` reads the same verdicts with one bucket more (`EXACT_BUCKETS`,
`bucket_for(..., exact=True)`): `over-budget`, over budget and nothing else
(only `max_files` or `max_lines` rules failed, tests green), the seed's
"drive-by cleanup" row made exact, apart from the scope breaks it usually
comes with.  `gate lab` keeps the seed's five buckets, as its scoreboard
has always shown them.

Each rule kind declares its part (`LAB` in its module: `BUDGET`, `TESTS`,
`RENAME` or `SCOPE`, see `gate.rules.kind`); the kinds named above are
today's, read from the registry.  A built-in rule counts as scope.
* A patch whose only failure is red tests (within budget, shape fine) is
  `thrash` too: the seed's buckets have no other place for it, and a red
  suite is the fire that bucket is about.
* `infrastructure`: the patch was not a pure unified diff or did not apply.
  Infrastructure, not intelligence: rerun the writer.  A patch the gate
  could not judge (an unreadable file, input too large to judge, an error
  the gate did not expect) is an `infrastructure` row too, with the reason
  and `judge_error` set; the other patches are still judged, and the lab
  exits 2 after printing the whole scoreboard.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gate.base.errors import GateError, PatchError, internal_error
from gate.base.files import read_captured
from gate.changes.patch import BaseIndex, changes_from_patch, read_patch
from gate.git.repo import Repo
from gate.judge import examples_verdict, judge
from gate.model.change import TextWants
from gate.model.report import Report, RuleResult
from gate.model.rubric import Rubric, Scope
from gate.report import to_json
from gate.rules import REGISTRY, kind, text_wants

PASS = "pass"
THRASH = "thrash"
RENAME = "rename"
OVER_BUDGET = "over-budget"
KITCHEN_MOP = "kitchen-mop"
INFRASTRUCTURE = "infrastructure"
BUCKETS = (PASS, THRASH, RENAME, KITCHEN_MOP, INFRASTRUCTURE)  # `gate lab`: the seed's
EXACT_BUCKETS = (PASS, THRASH, RENAME, OVER_BUDGET, KITCHEN_MOP, INFRASTRUCTURE)  # `gate loop`


@dataclass(frozen=True)
class LabEntry:
    patch: str
    applies: bool
    bucket: str
    report: Report | None = None
    error: str | None = None  # why the patch was refused (infrastructure)
    disagreement: bool = False
    judge_error: bool = False  # the gate could not judge it (exit 2), not a bad patch
    stdout_captured: bool = True  # False: no captured test output was found for it

    @property
    def failed(self) -> tuple[str, ...]:
        return self.report.failed if self.report is not None else ()

    @property
    def verdict(self) -> str:
        if self.report is None:
            return "error"
        return "pass" if self.report.passed else "fail"

    def to_dict(self) -> dict[str, Any]:
        return {
            "patch": self.patch,
            "applies": self.applies,
            "verdict": self.verdict,
            "failed": list(self.failed),
            "bucket": self.bucket,
            "error": self.error,
            "disagreement": self.disagreement,
            "judge_error": self.judge_error,
        }


@dataclass(frozen=True)
class Scoreboard:
    """A lab run: every patch's row (`LabEntry`) and the bucket counts."""

    base: str
    rubric_sha256: str
    repeat: int
    entries: tuple[LabEntry, ...]
    notes: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(BUCKETS, 0)
        for entry in self.entries:
            out[entry.bucket] += 1
        return out

    @property
    def disagreements(self) -> tuple[str, ...]:
        return tuple(e.patch for e in self.entries if e.disagreement)

    @property
    def judge_errors(self) -> tuple[str, ...]:
        """Patches the gate could not judge (their rows say why)."""
        return tuple(e.patch for e in self.entries if e.judge_error)

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "rubric_sha256": self.rubric_sha256,
            "repeat": self.repeat,
            "patches": [e.to_dict() for e in self.entries],
            "buckets": self.counts(),
            "disagreements": list(self.disagreements),
            "judge_errors": list(self.judge_errors),
            **({"notes": list(self.notes)} if self.notes else {}),
        }


def bucket_for(
    report: Report, rubric: Rubric, *, tests_red: bool = False, exact: bool = False
) -> str:
    """The seed's bucket for a judged (applied) patch.  `tests_red`: a test
    run of the patched tree failed (`gate loop`), which counts as a failed
    `TESTS` part whatever the rubric's rules say.  `exact`: one of
    `EXACT_BUCKETS`, where over budget alone is `over-budget`; otherwise one
    of the seed's `BUCKETS`, where it is `kitchen-mop`."""
    if report.passed and not tests_red:
        return PASS
    role_of = {rule.id: REGISTRY[rule.kind].lab for rule in rubric.rules}
    roles = {role_of.get(rule_id, kind.SCOPE) for rule_id in report.failed}  # built-ins: scope
    if tests_red:
        roles.add(kind.TESTS)
    if not roles:  # a failed report that names no rule: never a pass
        roles.add(kind.SCOPE)
    if kind.TESTS in roles and kind.BUDGET in roles:
        return THRASH
    if kind.RENAME in roles:
        return RENAME
    if roles == {kind.BUDGET}:
        return OVER_BUDGET if exact else KITCHEN_MOP
    if roles - {kind.TESTS}:
        return KITCHEN_MOP
    return THRASH  # only the tests are red


def judge_patch(
    repo: Repo,
    rubric: Rubric,
    base_sha: str,
    data: bytes,
    name: str,
    *,
    rubric_path: str | None,
    stdout: str | None = None,
    base_index: BaseIndex | None = None,
    wants: TextWants | None = None,
    selftest: RuleResult | None = None,
    scope: Scope | None = None,
) -> Report:
    """Judge one patch as if applied to `base_sha` (with a task's `scope`,
    as `gate check --scope`). Raises PatchError when it is not a pure diff
    or does not apply (`apply_patch` checks purity first).  `wants` (the
    texts the rules read) and `selftest` (the examples' verdict) depend on
    the rubric alone: computed here when not given, or once by a caller that
    judges many patches (`run_lab`, as `gate backtest` does)."""
    if wants is None:
        wants = text_wants(rubric.rules)
    if selftest is None:
        selftest = examples_verdict(rubric)
    changes = changes_from_patch(
        repo, base_sha, data, name, wants, stdout=stdout, base_index=base_index
    )
    return judge(rubric, changes, rubric_path=rubric_path, selftest=selftest, scope=scope)


def stdout_for(patch: str, stdout_dir: str | None) -> str | None:
    """Captured test output for a patch: DIR/<name>.stdout, else <patch>.stdout beside it."""
    candidate = (
        Path(stdout_dir) / (Path(patch).name + ".stdout")
        if stdout_dir is not None
        else Path(patch + ".stdout")
    )
    if not candidate.exists():
        return None
    return read_captured(candidate, "captured stdout", fix="check --stdout-dir")


def run_lab(
    repo: Repo,
    rubric: Rubric,
    base_sha: str,
    patches: Sequence[str],
    *,
    rubric_path: str | None,
    repeat: int = 1,
    jobs: int = 0,
    stdout_dir: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    scope: Scope | None = None,
) -> Scoreboard:
    if repeat < 1:
        raise GateError(f"--repeat must be at least 1, not {repeat}")
    base_index = BaseIndex(repo, base_sha)
    # The examples' verdict depends on the rubric alone: run once for all patches.
    selftest = examples_verdict(rubric)
    wants = text_wants(rubric.rules)
    lock = threading.Lock()
    done = [0]

    def judge_once(patch: str, stdout: str | None) -> tuple[Report | None, str | None, bool]:
        """(report, None, False), or (None, why, judge_error) for a patch that is
        refused (PatchError) or that the gate could not judge (any other error)."""
        try:
            data = read_patch(patch)
            report = judge_patch(
                repo,
                rubric,
                base_sha,
                data,
                patch,
                rubric_path=rubric_path,
                stdout=stdout,
                base_index=base_index,
                wants=wants,
                selftest=selftest,
                scope=scope,
            )
        except PatchError as exc:
            return None, exc.message, False
        except GateError as exc:
            return None, exc.message, True
        except Exception as exc:  # one bad patch must not sink the scoreboard
            return None, internal_error(exc), True
        return report, None, False

    def one(patch: str) -> LabEntry:
        outcomes: list[tuple[Report | None, str | None, bool]] = []
        stdout: str | None = None
        try:
            stdout = stdout_for(patch, stdout_dir)
        except GateError as exc:
            outcomes.append((None, exc.message, True))
        else:
            outcomes.extend(judge_once(patch, stdout) for _ in range(repeat))
        # Compared only when judged more than once (`--repeat`): a single
        # verdict has nothing to disagree with, and encoding it costs time.
        signatures = (
            {to_json(r) if r is not None else f"error: {e}" for r, e, _ in outcomes}
            if len(outcomes) > 1
            else set()
        )
        first, error, judge_error = outcomes[0]
        if first is None:
            entry = LabEntry(
                patch=patch,
                applies=False,
                bucket=INFRASTRUCTURE,
                error=error,
                judge_error=judge_error,
            )
        else:
            entry = LabEntry(
                patch=patch, applies=True, bucket=bucket_for(first, rubric), report=first
            )
        if len(signatures) > 1:
            entry = replace(entry, disagreement=True)
        if stdout is None:
            entry = replace(entry, stdout_captured=False)
        if progress is not None:
            with lock:
                done[0] += 1
                progress(done[0], len(patches))
        return entry

    workers = min(jobs if jobs > 0 else (os.cpu_count() or 1), len(patches))
    found: list[LabEntry | None] = [None] * len(patches)
    order = iter(range(len(patches)))

    def worker() -> None:
        # One `git cat-file` per thread for every patch it judges (the
        # texts and the line counts of `gate.git`), as `gate backtest` does.
        with repo.blob_session():
            while True:
                with lock:
                    i = next(order, None)
                if i is None:
                    return
                found[i] = one(patches[i])

    try:
        if workers <= 1:
            worker()
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                for future in [pool.submit(worker) for _ in range(workers)]:
                    future.result()  # a bug in a thread is raised here
    finally:
        base_index.close()
    entries = [e for e in found if e is not None]
    return Scoreboard(
        base=base_sha,
        rubric_sha256=rubric.sha256,
        repeat=repeat,
        entries=tuple(entries),
        notes=uncaptured_notes(rubric, entries, stdout_dir),
    )


def uncaptured_notes(
    rubric: Rubric, entries: Sequence[LabEntry], stdout_dir: str | None
) -> tuple[str, ...]:
    """Say so when rules that read the captured output (`must_include`) judged
    patches without captured test output: those rules then fail every such
    patch, which is a missing file, not a verdict."""
    readers = [r for r in rubric.rules if kind.STDOUT in REGISTRY[r.kind].reads]
    rules = [r.id for r in readers]
    kinds = ", ".join(sorted({r.kind for r in readers}))
    missing = [e for e in entries if e.applies and not e.stdout_captured]
    if not rules or not missing:
        return ()
    where = (
        f"no {stdout_dir}/<patch name>.stdout"
        if stdout_dir is not None
        else "no --stdout-dir, and no PATCH.stdout beside the patch"
    )
    return (
        f"no test output was captured for {len(missing)} of {len(entries)} patches ({where}), "
        f"so {', '.join(rules)} ({kinds}) failed for each of them; capture each patch's "
        "test output and pass --stdout-dir DIR holding <patch name>.stdout files",
    )
