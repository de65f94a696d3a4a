"""A frozen run, whole: `frozen_run` freezes the base's tests in a worktree
of HEAD, runs COMMAND there, reads the runners' reports, attributes each
failure, and, when some are red, runs COMMAND once more on the plain head
to set apart the failures the normal test job shows anyway.  `execute` runs
one COMMAND: its output passed through as it comes, its process group
signalled and ended with the run, whatever ends it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import FrameType
from typing import IO, Any

from gate.base import output
from gate.base.errors import GateError
from gate.frozen import reports
from gate.frozen.attribute import (
    AT_HEAD,
    EXCUSED,
    RED,
    Failure,
    Static,
    attribute,
    go_modules,
    set_apart,
)
from gate.frozen.plan import Entry, Plan, frozen_matcher, plan
from gate.frozen.tree import apply, link
from gate.git.repo import Repo, short, span
from gate.git.worktree import temporary_worktree, tree_entries
from gate.model.change import FileTexts
from gate.model.rubric import Rubric

# What a run keeps of COMMAND's output for the reports read from it (go's
# events, unittest's summary); what passes through to the user is all of it.
KEEP_BYTES = 64 * 1024 * 1024


@dataclass
class Ran:
    """One run of COMMAND: its exit code (negative: killed by that signal),
    and what its reports said."""

    code: int
    results: reports.Results


@dataclass
class Outcome:
    """A frozen run's verdict and everything it rests on."""

    command: tuple[str, ...]
    base: str
    head: str
    plan: Plan
    removed_folders: list[str]
    linked: list[str]
    frozen: Ran
    head_run: Ran | None
    failures: list[Failure]
    notes: list[str] = field(default_factory=list)

    @property
    def red(self) -> list[Failure]:
        return [f for f in self.failures if f.status == RED]

    @property
    def passed(self) -> bool:
        return not self.red and not self.unexplained_exit

    @property
    def unexplained_exit(self) -> str | None:
        """Why COMMAND's exit is red although no failing test is: it failed
        and its reports name no failure, or say too little to judge."""
        ran = self.frozen
        if ran.code == 0:
            return None
        if ran.code < 0:
            return f"COMMAND was killed by signal {-ran.code}: the base's tests did not finish"
        if not ran.results.readable:
            unread = "; ".join(ran.results.problems) or "no runner the gate reads wrote a report"
            return (
                f"COMMAND exited {ran.code} and its per-case results cannot be read ({unread}), "
                "so every failure is red"
            )
        if not ran.results.failures:
            return (
                f"COMMAND exited {ran.code} but its reports name no failing test (no tests "
                "ran, or something else failed): red"
            )
        return None

    def to_dict(self) -> dict[str, Any]:
        def count(status: str) -> int:
            return sum(1 for f in self.failures if f.status == status)

        return {
            "pass": self.passed,
            "command": list(self.command),
            "base": self.base,
            "head": self.head,
            "exit_code": self.frozen.code,
            "frozen": {**self.plan.to_dict(), "replaced": list(self.removed_folders)},
            "linked": list(self.linked),
            "reports": list(self.frozen.results.read),
            "unreadable": list(self.frozen.results.problems),
            "counts": {"red": count(RED), "excused": count(EXCUSED), "at_head": count(AT_HEAD)},
            "failures": [f.to_dict() for f in self.failures],
            "red_exit": self.unexplained_exit,
            "head_run": None if self.head_run is None else self.head_run.code,
            "notes": list(self.notes),
        }


class Interrupted(Exception):
    """The run was interrupted (Ctrl-C, SIGTERM): the worktree is removed,
    the checkout untouched."""


@contextlib.contextmanager
def _forwarding(group: list[int]) -> Iterator[list[int]]:
    """While COMMAND runs, SIGINT and SIGTERM go to its process group and end
    the run (`Interrupted` once COMMAND has ended)."""
    got: list[int] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        got.append(signum)
        if group:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group[0], signum)

    if threading.current_thread() is not threading.main_thread():
        yield got
        return
    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield got
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def execute(
    argv: Sequence[str],
    cwd: Path,
    env: dict[str, str],
    *,
    stdout_to_stderr: bool = False,
    transform: Callable[[str], str] | None = None,
) -> tuple[int, str, str]:
    """Run `argv` in `cwd`: its output passed through line by line as it
    comes (`gate.base.output.relay`; stdout to stderr when the gate's own stdout
    is JSON; `transform` rewrites each stdout line shown), kept for the
    reports (up to `KEEP_BYTES`); (exit code, stdout, stderr).  Its whole
    process group is ended with it.  GateError when it cannot start."""
    try:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        raise GateError(
            f"COMMAND {argv[0]!r} cannot be started ({exc.strerror}): name a program on PATH, "
            "after -- (an argv, no shell: write sh -c '...' for a shell line)"
        ) from None
    kept: dict[str, list[str]] = {"out": [], "err": []}

    def pump(stream: IO[bytes], name: str) -> None:
        size = 0
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace")
            if size < KEEP_BYTES:
                kept[name].append(line)
                size += len(raw)
            shown = transform(line) if transform is not None and name == "out" else line
            if shown:
                output.relay(shown, stderr=name == "err" or stdout_to_stderr)

    threads = [
        threading.Thread(target=pump, args=(proc.stdout, "out"), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, "err"), daemon=True),
    ]
    for thread in threads:
        thread.start()
    with _forwarding([proc.pid]) as got:
        try:
            code = proc.wait()
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # what COMMAND left running
            for thread in threads:
                thread.join(timeout=5)
    if got:
        raise Interrupted(f"interrupted by signal {got[0]}")
    return code, "".join(kept["out"]), "".join(kept["err"])


def _run_in(root: Path, repo: Repo, argv: Sequence[str], *, json_out: bool) -> Ran:
    """COMMAND once in the tree at `root`, in the folder matching the one
    the gate was started in (when the checkout has it), with its reports."""
    here = Path.cwd().resolve()
    top = Path(repo.path).resolve()
    cwd = root
    with contextlib.suppress(ValueError):
        inner = root / here.relative_to(top)
        if inner.is_dir():
            cwd = inner
    with tempfile.TemporaryDirectory(prefix="gate-frozen-reports-") as folder:
        asked = reports.prepare(argv, Path(folder), dict(os.environ))
        code, out, err = execute(
            asked.argv,
            cwd,
            asked.env,
            stdout_to_stderr=json_out,
            transform=reports.render_go if asked.go_json else None,
        )
        return Ran(code, reports.read(asked, out, err, root))


def _static(
    repo: Repo,
    rubric: Rubric,
    span_: tuple[str, str, str],
    base_paths: frozenset[str],
    head_paths: Sequence[str],
) -> Static:
    """What the rubric's own `test_drift` rules flag in base...head."""
    from gate.changes.git import changes_from_git
    from gate.rules import REGISTRY, text_wants

    base, head, old = span_
    changes = changes_from_git(repo, base, head, text_wants(rubric.rules))
    flagged: set[str] = set()
    for rule in rubric.rules:
        if rule.kind == "test_drift":
            result = REGISTRY[rule.kind].judge(rule, changes)
            if not result.passed:
                flagged.update(result.paths)
                flagged.update(f.path for f in result.findings)

    @cache
    def texts(path: str) -> FileTexts | None:
        found = repo.read_texts(old, head, [path]).get(path)
        if found is None or (found.base is None and found.head is None):
            return None
        return found

    def head_text(path: str) -> str | None:
        found = texts(path)
        return None if found is None else found.head

    modules = go_modules(sorted(head_paths), head_text)
    return Static(frozenset(flagged), texts, base_paths, modules)


def plan_between(
    repo: Repo, base: str, head: str, frozen: Callable[[str], bool]
) -> tuple[Plan, dict[str, Entry], dict[str, Entry]]:
    """The plan that freezes `head`'s tree against `base`'s (commits or
    trees), and both trees' entries."""
    base_entries, head_entries = tree_entries(repo, base), tree_entries(repo, head)

    def read(object_id: str, _path: str) -> bytes | None:
        return repo.read_object(object_id)

    return plan(base_entries, head_entries, frozen, read), base_entries, head_entries


def freeze_tree(repo: Repo, base: str, tree: str, root: Path, rubric: Rubric) -> Plan:
    """Make the checkout of `tree` at `root` frozen against `base` in place
    (a throwaway worktree: `gate loop run --frozen-tests`); the plan applied.
    GateError when it cannot be (see `gate.frozen.plan`)."""
    the_plan = plan_between(repo, base, tree, frozen_matcher(rubric))[0]
    apply(repo, root, the_plan)
    return the_plan


def frozen_run(
    repo: Repo,
    base_rev: str,
    rubric: Rubric,
    argv: Sequence[str],
    *,
    json_out: bool = False,
    head_check: bool = True,
) -> Outcome:
    """The base's tests (`base_rev`'s side of base...HEAD) run by `argv`
    against HEAD's code; see the package docstring."""
    base, head = repo.resolve(base_rev, "HEAD")
    judged = span(repo, base, head)
    frozen = frozen_matcher(rubric)
    the_plan, base_entries, head_entries = plan_between(repo, judged.old, head, frozen)
    notes = []
    if judged.merged:
        notes.append(
            f"base and head have several merge bases: the tests are as at base {short(base)}"
        )
    count = repo.uncommitted_paths()
    if count:
        notes.append(
            f"{count} uncommitted path(s) are not in the run: it runs HEAD's commit; commit them"
        )
    with temporary_worktree(repo, head) as root:
        replaced = apply(repo, root, the_plan)
        linked = link(repo, root, frozen, head_entries)
        ran = _run_in(root, repo, argv, json_out=json_out)
    if not ran.results.failures:  # nothing to attribute: the static rule is not read
        return Outcome(tuple(argv), base, head, the_plan, replaced, linked, ran, None, [], notes)
    static = _static(
        repo, rubric, (base, head, judged.old), frozenset(base_entries), sorted(head_entries)
    )
    with repo.blob_session():  # the texts attribution reads, through one cat-file
        failures = attribute(ran.results.failures, static)
    head_run = None
    if ran.results.readable and any(f.status == RED for f in failures) and head_check:
        output.note("gate frozen-tests: red failures: running COMMAND on the plain head to compare")
        with temporary_worktree(repo, head) as root:
            link(repo, root, lambda _p: False, head_entries)
            head_run = _run_in(root, repo, argv, json_out=json_out)
        if head_run.results.readable:
            failures = set_apart(failures, {c.key for c in head_run.results.failures})
        else:
            notes.append(
                "the plain run of the head wrote no readable report: no failure is set "
                "apart as failing at head"
            )
    return Outcome(
        tuple(argv), base, head, the_plan, replaced, linked, ran, head_run, failures, notes
    )
