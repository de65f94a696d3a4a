"""What a rubric is: the values the loader (`gate.rubric.load`) builds and
the rules read (`Rubric`, `Rule`, `AppliesTo`, `Example`), the default
test globs, and the one spelling of the rubric's repository path
(`repo_path`).  Plain values, so rules and the judge depend on nothing that
loads, validates or runs git.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gate.base.errors import GateError
from gate.base.names import (  # re-exported
    DEFAULT_CHECK_NAME,
    DEFAULT_RUBRIC_PATH,
    FAIL,
    LEVELS,
    SCOPE_NONE,
    WARN,
)
from gate.model.change import ChangeSet

__all__ = ["DEFAULT_CHECK_NAME", "DEFAULT_RUBRIC_PATH", "FAIL", "LEVELS", "WARN"]
# The default `tests` globs.  The SPEC's list comes first and is a floor;
# the rest covers the layouts of the common frameworks' own discovery.
DEFAULT_TESTS = (
    "tests/",
    "test/",
    "**/test_*.py",
    "**/*_test.py",
    "**/conftest.py",
    "pytest.ini",
    "tox.ini",
    "**/*_test.go",
    "**/__tests__/",
    "**/*.test.*",
    "**/*.spec.*",
    "spec/",
    "**/test*.py",  # unittest's default discovery pattern; Django's app/tests.py
    ".pytest.ini",
    "**/__snapshots__/",  # Jest snapshots: the expected values of existing tests
    "**/jest.config.*",
    "**/vitest.config.*",
    "**/testdata/",  # Go test fixtures
    "**/*_spec.rb",
    ".rspec",
    "**/*_test.rb",  # minitest, Rails
    "**/test_*.rb",  # Rake's TestTask
    # expected values outside `__snapshots__/`: insta's and Go tool
    # snapshots (`__toolsnaps__/*.snap`), syrupy's, ApprovalTests', golden files
    "**/*.snap",
    "**/*.ambr",
    "**/*.approved.*",
    "**/*.golden",
    # test helpers by name outside the test folders (not `testing/`: a
    # package's shipped public module, such as numpy.testing, is named so)
    "**/_test*.py",
    "**/testutil*.go",
    "**/testhelper*.go",
    "**/test_utils/",
    "**/testutils/",
    "**/testutil/",
    "**/test_helpers/",
    "**/testhelpers/",
)


@dataclass(frozen=True)
class Rule:
    """One rubric rule. `params` are validated and carry their defaults
    (for example `test_drift.paths` defaults to the rubric's `tests`);
    `level` is `FAIL` or `WARN`."""

    id: str
    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)
    description: str | None = None
    level: str = FAIL

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


@dataclass(frozen=True)
class AppliesTo:
    authors: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    head_branches: tuple[str, ...] = ()


# The author associations (as GitHub's review API reports a reviewer's
# `author_association`) a waiver may name: the ones that say the reviewer
# belongs to the repository.  CONTRIBUTOR, FIRST_TIMER, NONE... say only that
# someone once opened a pull request, so they never clear a rule.
WAIVER_ASSOCIATIONS = ("OWNER", "MEMBER", "COLLABORATOR")


# The least access to the repository a waiver may ask of an approver
# (`Waiver.permission`): what GitHub's branch protection asks of a reviewer
# whose approval counts, or more.
WAIVER_PERMISSIONS = ("write", "maintain", "admin")


@dataclass(frozen=True)
class Waiver:
    """Rules a maintainer's approval may clear (`rules`), and whose approval
    counts: a reviewer these GitHub `logins` (any ASCII letter case) or user
    `ids` name, or whose `author_association` is one of `associations` (a
    waiver naming none of these names anyone), who holds `permission` on the
    repository when judged.  Never the PR's author, never a bot, never a
    built-in `gate.*` rule (`gate.model.waivers`)."""

    rules: tuple[str, ...]
    logins: tuple[str, ...] = ()
    associations: tuple[str, ...] = ()
    ids: tuple[int, ...] = ()
    permission: str = "write"


@dataclass(frozen=True)
class Example:
    """A synthetic change and the verdict it must get.

    `expect` is the exact tuple of rule ids that must fail; `()` means pass.
    """

    name: str
    expect: tuple[str, ...]
    changes: ChangeSet


@dataclass(frozen=True)
class Scope:
    """A task's own scope: the scope block of the issue a pull request
    closes, or of a file (`gate.rubric.task_scope` reads and joins them;
    `gate.judge.apply_scope` applies one).  `sources` names where each part
    came from (`issue #12`, a file)."""

    sources: tuple[str, ...]
    paths: tuple[str, ...] | None = None
    max_files: int | None = None
    max_lines: int | None = None
    levels: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"from": list(self.sources)}
        if self.paths is not None:
            out["paths"] = list(self.paths)
        if self.max_files is not None:
            out["max_files"] = self.max_files
        if self.max_lines is not None:
            out["max_lines"] = self.max_lines
        if self.levels:
            out["levels"] = dict(sorted(self.levels.items()))
        return out


@dataclass(frozen=True)
class Rubric:
    rules: tuple[Rule, ...]
    sha256: str
    source: str = "<rubric>"  # how messages name it, e.g. "abc123:.github/blast-radius.yml"
    version: int = 1
    tests: tuple[str, ...] = DEFAULT_TESTS
    applies_to: AppliesTo | None = None
    examples: tuple[Example, ...] = ()
    waivers: tuple[Waiver, ...] = ()
    # `frozen_tests`: test-support globs `gate frozen-tests` also freezes,
    # and globs it leaves to the pull request (`gate.frozen.plan`).
    frozen_paths: tuple[str, ...] = ()
    frozen_exclude: tuple[str, ...] = ()
    # What the scope block of the issue a pull request closes may do
    # (`gate.base.names.SCOPE_MODES`): off, tighten or loosen.
    scope: str = SCOPE_NONE


def repo_path(
    path: str,
    *,
    name: str = "rubric path",
    fix: str = "pass --rubric like .github/blast-radius.yml",
) -> str:
    """`path` as the one repository path git names it, or GateError.

    The one owner of rubric-path normalization: every `RubricSource`, the
    Action's `rubric-path` input and `gate.judge.evaluate` (for
    `gate.rubric-edited`) go through it, so `./x.yml`, `x//y.yml` and
    `x/./y.yml` name the same file everywhere.  Refused: an empty path,
    an absolute one, `..`, a backslash and control characters.
    """
    parts = [part for part in path.split("/") if part not in ("", ".")]
    problem = None
    if not parts:
        problem = "is empty"
    elif path.startswith("/"):
        problem = "is absolute"
    elif ".." in parts:
        problem = "leaves the repository (..)"
    elif "\\" in path:
        problem = "contains a backslash (use / separators)"
    elif any(ord(c) < 32 or ord(c) == 127 for c in path):
        problem = "contains a control character"
    if problem is not None:
        shown = json.dumps(path[:60] + ("..." if len(path) > 60 else ""), ensure_ascii=False)
        raise GateError(
            f"{name} {shown} {problem}: it must be a path relative to the repository root; {fix}"
        )
    return "/".join(parts)
