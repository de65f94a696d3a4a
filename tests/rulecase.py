"""The one rule-test helper, in the manner of yamllint's `RuleTestCase`: a
test names a rule kind and its parameters once, then states changes and the
verdict each must get.

    CASE = RuleCase("keep_lines", file="app.py", lines=["keep me"])

    def test_a_removed_line_fails() -> None:
        CASE.fails(CASE.edit("keep me\\n", ""), "is gone", findings=[(1, "removed")])

A table of such changes is a list of rows, each led by its label, which
`table` turns into pytest parameters (the label is the test id):

    CASES = [("a line kept", CASE.edit("keep me\\n", "keep me\\nnew\\n"), True, "kept")]

    @table(("change", "passed", "message"), CASES)
    def test_keep_lines(change: Change, passed: bool, message: str) -> None:
        CASE.judged(change, passed, message)

Each check does what `gate check` does with the parts the gate has: the rule
goes through the rubric loader (`gate.rubric.load.load_rubric_bytes`: its
schema, defaults and semantic checks), the change is committed to a real git
repository and built by the real builder (`gate.git.changes_from_git`,
reading only the texts the registry says the rule reads), and the verdict is
`gate.judge.evaluate`'s.  Nothing is built by hand, so a rule that forgets to
declare what it reads, or a builder that reports a change differently, fails
its tests.

Changes are values, built when judged (so a table of cases costs nothing at
import): `Files(base={path: content}, head={path: content})`, a path missing
from a side being absent on it and a path with the same content on both
sides untouched; `RuleCase.edit(base, head)` is the one-file form, for the
case's `path`.  A test may also pass a ready `ChangeSet` for what no git
commit can express (a writer's `result.json` knows paths only:
`gate.model.change.from_paths`; a rubric example given by counts:
`changes_from_example`).

`source` picks the builder: "git" (the default: two commits, `base...head`),
"patch" (`git diff --binary` applied by `gate.changes.patch.changes_from_patch`,
as `gate check --patch` and `gate lab` judge), or "example" (a rubric example's
`before`/`after`, `gate.changes.example.changes_from_example`: no git, for
property tests of hundreds of examples; tests/test_rulecase.py checks that it
gives the git builder's verdicts).
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest

from gate.changes.example import changes_from_example
from gate.changes.git import changes_from_git
from gate.changes.patch import changes_from_patch
from gate.git.repo import Repo
from gate.judge import evaluate
from gate.model.change import ADDED, DELETED, MODIFIED, ChangeSet
from gate.model.report import RuleResult
from gate.model.rubric import Rubric
from gate.rubric.load import load_rubric_bytes
from gate.rules import text_wants
from tests.gitrepo import GIT_ENV, GitRepo


@dataclass(frozen=True)
class Executable:
    """A file's content with the executable bit (mode 100755): the same text
    in another mode is a change (git and patch builders only)."""

    content: str | bytes


Content = str | bytes | Executable
Builder = Literal["git", "patch", "example"]
BUILDERS: tuple[Builder, ...] = ("git", "patch", "example")


@dataclass(frozen=True)
class Files:
    """A change as the files on its two sides: path -> content (text is
    written as UTF-8).  A path missing from `base` is added, one missing
    from `head` is deleted; a path with the same content on both sides is
    not part of the change.  git finds renames and copies itself.
    `stdout` is the test run's captured output that comes with the change
    (`gate check --stdout-file`), None when none was captured."""

    base: Mapping[str, Content] = field(default_factory=dict)
    head: Mapping[str, Content] = field(default_factory=dict)
    stdout: str | None = None

    def __or__(self, other: Files) -> Files:
        """Both changes in one (`other`'s files and output win where both have one)."""
        return Files(
            base={**self.base, **other.base},
            head={**self.head, **other.head},
            stdout=other.stdout if other.stdout is not None else self.stdout,
        )


def edit(path: str, base: Content | None, head: Content | None) -> Files:
    """One file changed from `base` to `head` (None: absent on that side)."""
    return Files(
        base={} if base is None else {path: base}, head={} if head is None else {path: head}
    )


# A file body long enough for git to call an unchanged copy of it a rename or a copy.
BODY = "a line git can match\n" * 8


def modified(*paths: str) -> Files:
    """Each of `paths` modified (for the rules that read paths only)."""
    return Files(base={p: "old\n" for p in paths}, head={p: "new\n" for p in paths})


def renamed(old: str, new: str) -> Files:
    """`old` renamed to `new`, its content unchanged."""
    return Files(base={old: BODY}, head={new: BODY})


def copied(source: str, copy: str) -> Files:
    """`source` copied to `copy`, both unchanged."""
    return Files(base={source: BODY}, head={source: BODY, copy: BODY})


Change = Files | ChangeSet


class RuleCase:
    """One rule under test: its kind and parameters (overridable per check)
    and the path its one-file edits name (default: its `file` parameter)."""

    def __init__(
        self,
        kind: str,
        *,
        id: str = "R",
        path: str | None = None,
        source: Builder = "git",
        **params: Any,
    ) -> None:
        self.kind = kind
        self.id = id
        self.params = params
        self.path = path if path is not None else params.get("file")
        self.source = source

    # --- the rule ------------------------------------------------------------

    def rubric(self, **params: Any) -> Rubric:
        """A rubric of this one rule, `params` over the case's, through the loader."""
        entry = {"id": self.id, "kind": self.kind, **self.params, **params}
        return _load(json.dumps({"version": 1, "rules": [entry]}, sort_keys=True))

    def rule_params(self, **params: Any) -> Mapping[str, Any]:
        """The rule's parameters as the loader built them (defaults filled)."""
        (rule,) = self.rubric(**params).rules
        return rule.params

    # --- changes ---------------------------------------------------------------

    def edit(self, base: Content | None, head: Content | None) -> Files:
        """The case's one file changed from `base` to `head` (None: absent)."""
        if self.path is None:
            raise ValueError(f"RuleCase({self.kind!r}) names no path: pass path=")
        return edit(self.path, base, head)

    def change(self, change: Change, *, source: Builder | None = None, **params: Any) -> ChangeSet:
        """The change set the gate builds for `change` (a ready one as it is)."""
        if isinstance(change, ChangeSet):
            return change
        return build(change, self.rubric(**params), source or self.source)

    # --- verdicts --------------------------------------------------------------

    def check(self, change: Change, *, source: Builder | None = None, **params: Any) -> RuleResult:
        """The rule's verdict on `change`, as `gate check` reports it."""
        rubric = self.rubric(**params)
        changes = self.change(change, source=source, **params)
        (result,) = (r for r in evaluate(rubric, changes).results if r.id == self.id)
        return result

    def passes(
        self,
        change: Change,
        reason: str | None = None,
        *,
        source: Builder | None = None,
        **params: Any,
    ) -> RuleResult:
        """Assert the rule passes `change` (with `reason` in its message)."""
        result = self.check(change, source=source, **params)
        assert result.passed, f"{self.kind} failed: {result.message}"
        if reason is not None:
            assert reason in result.message, result.message
        return result

    def fails(
        self,
        change: Change,
        reason: str | None = None,
        *,
        reported: Iterable[str] = (),
        findings: Sequence[tuple[int | None, str]] = (),
        source: Builder | None = None,
        **params: Any,
    ) -> RuleResult:
        """Assert the rule fails `change`: `reason` in its message, each of
        `reported` among its paths, and for each (line, fragment) of `findings`
        a finding at that line (None: any) whose message holds the fragment."""
        result = self.check(change, source=source, **params)
        assert not result.passed, f"{self.kind} passed: {result.message}"
        if reason is not None:
            assert reason in result.message, result.message
        for path in reported:
            assert path in result.paths, (path, result.paths)
        for line, fragment in findings:
            assert any(
                (line is None or f.line == line) and fragment in f.message for f in result.findings
            ), (line, fragment, result.findings)
        return result

    def judged(
        self,
        change: Change,
        passed: bool,
        message: str,
        *,
        listed: Sequence[str] | None = None,
        source: Builder | None = None,
        **params: Any,
    ) -> RuleResult:
        """Assert the rule's verdict on `change`: it passes exactly when
        `passed`, with `message` in its message and, when `listed` is given,
        exactly those paths in that order (a row of a table of cases)."""
        result = self.check(change, source=source, **params)
        assert result.passed is passed
        assert message in result.message
        if listed is not None:
            assert list(result.paths) == list(listed)
        return result


def table(names: str | Sequence[str], rows: Sequence[Sequence[Any]]) -> pytest.MarkDecorator:
    """`pytest.mark.parametrize` over a table of cases: each row is its label
    (the test id) and then one value for each of `names`."""
    return pytest.mark.parametrize(names, [row[1:] for row in rows], ids=[row[0] for row in rows])


@functools.lru_cache(maxsize=256)
def _load(text: str) -> Rubric:
    return load_rubric_bytes(text.encode(), "rule-test")


# --- building a change the gate's way -------------------------------------------


def build(files: Files, rubric: Rubric, source: Builder = "git") -> ChangeSet:
    """The change set `source`'s builder makes of `files` for `rubric`'s rules."""
    if source == "example":
        return _example(files)
    scratch = _scratch()
    base, head = _commit_pair(scratch, files)
    wants = text_wants(rubric.rules)
    repo = Repo(scratch.root)
    if source == "git":
        return changes_from_git(repo, base, head, wants, stdout=files.stdout)
    if source == "patch":
        patch = scratch.git_bytes("diff", "--binary", base, head)
        return changes_from_patch(repo, base, patch, "rule-test.patch", wants, stdout=files.stdout)
    raise ValueError(f"unknown source {source!r}: one of {', '.join(BUILDERS)}")


def _example(files: Files) -> ChangeSet:
    entries: list[dict[str, Any]] = []
    for path in sorted({*files.base, *files.head}):
        before, after = files.base.get(path), files.head.get(path)
        if before == after:
            continue
        if not isinstance(before, str | None) or not isinstance(after, str | None):
            raise ValueError(f"{path}: a rubric example holds text only; use source='git'")
        status = ADDED if before is None else DELETED if after is None else MODIFIED
        entries.append({"path": path, "status": status, "before": before, "after": after})
    return changes_from_example(entries, stdout=files.stdout)


@functools.lru_cache(maxsize=1)
def _scratch() -> GitRepo:
    """One scratch repository per test process: every pair of commits goes
    into it (no work tree, no `git init` per case)."""
    root = Path(tempfile.mkdtemp(prefix="rulecase-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    env = {**GIT_ENV, "PATH": os.environ.get("PATH", ""), "HOME": str(root), "LC_ALL": "C"}
    return GitRepo(root / "repo", env=env)


def _quoted(path: str) -> bytes:
    """A path as git fast-import reads it (C-style quoted)."""
    raw = path.encode("utf-8", errors="surrogateescape")
    return b'"' + raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n") + b'"'


def _data(content: str | bytes) -> bytes:
    raw = content.encode("utf-8", errors="surrogateescape") if isinstance(content, str) else content
    return b"data %d\n" % len(raw) + raw + b"\n"


def _commit_pair(scratch: GitRepo, files: Files) -> tuple[str, str]:
    """Commit `files.base`, then `files.head` on top of it (one `git
    fast-import`, fixed dates: the same files, the same shas); both shas."""
    stream = b""
    for mark, tree in ((1, files.base), (2, files.head)):
        stream += b"commit refs/rulecase/%d\nmark :%d\n" % (mark, mark)
        stream += b"committer Rule Case <rulecase@example.invalid> 0 +0000\n" + _data("c")
        if mark == 2:
            stream += b"from :1\n"
        stream += b"deleteall\n"
        for path, content in sorted(tree.items()):
            mode = b"100755" if isinstance(content, Executable) else b"100644"
            data = content.content if isinstance(content, Executable) else content
            stream += b"M " + mode + b" inline " + _quoted(path) + b"\n" + _data(data)
    stream += b"get-mark :1\nget-mark :2\ndone\n"
    out = scratch.git(
        "fast-import", "--quiet", "--force", "--done", "--cat-blob-fd=1", input=stream
    ).split()
    return out[0], out[1]
