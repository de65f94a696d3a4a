"""`test_drift`: test cases that exist at base stay exactly as they are,
and the test runner's configuration with them.

What counts as a test file: `paths`, by default the rubric's `tests`
globs, which default to `tests/`, `test/`, `**/test_*.py`,
`**/*_test.py`, `**/conftest.py`, `pytest.ini`, `tox.ini`,
`**/*_test.go`, `**/__tests__/`, `**/*.test.*`, `**/*.spec.*`, `spec/`
(the SPEC's list), then `**/test*.py` (unittest's discovery pattern, and
Django's `app/tests.py`), `.pytest.ini`, `**/__snapshots__/` (Jest),
`**/jest.config.*`, `**/vitest.config.*`, `**/testdata/` (Go),
`**/*_spec.rb` and `.rspec` (RSpec).

A path is a test path when it matches a glob as written, or in another
letter case or Unicode normalization (`gate.globs.FOLDED`): `Tests/x.py`
and `TEST_CLAMP.PY` are test paths, because a case-insensitive checkout
treats them as `tests/x.py` and `test_clamp.py`.  Counting more paths as
tests can only make the rule fail more often, never less.  A new test
whose path differs from an existing test's only in case
(`Tests/test_x.py` beside `tests/test_x.py`) is judged as a new test: in
git's tree and on the Linux runner both files exist and both run, and the
rule sees the change, not the base tree's other paths (a case-insensitive
checkout keeps one of the two; set `allow_added: false` where that
matters).

Fails when a test file that exists at base is deleted, renamed (either
side of the rename is a test path: moving a test away and moving a file
onto a test path both count), changes type or has its mode changed.  With
`allow_added: false`, a new test file (added, or a copy's new path) also
fails; copying a test leaves its source as it was.  When the source only
knows a path but not what happened to it (a writer's `result.json`), a
test path fails and the message says its status is unknown: the gate
cannot tell a new test from an edited one.

**A modified test file is judged case by case.**  The rule reads its
text at base and head and splits both into units (`gate.testcases`): each
test case (a test function, a test method, a test class's header, with
their decorators), each fixture, helper, import and module-level
statement.  Python files are read with `ast` (pytest's and unittest's
default names: `test*` functions and methods, `Test*` classes and
`TestCase` subclasses); JavaScript/TypeScript and Go files with their own
modules where those are installed.  It fails when:

* a unit that exists at base is changed (any character of its lines:
  decorator, signature, body, indentation) or removed; moving an
  unchanged unit elsewhere in the file is not a change, unless it is one
  of several that bind the same name (`from m import clamp` and a later
  `def clamp`: the last one wins), whose order must stay;
* a new unit runs at collection or changes what other tests see: a
  module-level call (a value computed by a call, a call in a default
  argument or a class body included), `pytestmark`, an assignment into
  another module or through an attribute or item (`mod.attr = x`,
  `sys.path.insert(...)`, `os.environ[...] = x`),
  `if`/`try`/`with`/loops at module level, a star or `__future__`
  import, an autouse fixture, a `pytest_*` hook, `setup_module`, a
  decorator that is not a fixture's, a mark's or a plain standard
  wrapper (imported from pytest, unittest, functools, hypothesis and the
  like: a `given` imported from elsewhere may run anything); and any
  unit, a new test included, whose code declares `global`, assigns into
  a name that is not its own, calls `setattr`, `exec` or `os.chdir`,
  touches `sys.modules`, `sys.path`, `os.environ` or `builtins`, or
  starts a mock patcher without a `with` (pytest's `monkeypatch` is
  undone after each test and is fine). Where the line is drawn: a method
  call that mutates a shared object (`CONFIG.update(...)`) is not seen,
  since any call may mutate and counting every call would count every
  test;
* a new unit binds a name that a base unit binds (a second `def
  test_a` replaces the first in the module, and the old test never runs)
  or that any base unit's code mentions (a new fixture `tmp_path`, an
  import or a helper `clamp` would change what existing tests get);
* a new member is added to a class that exists at base and is not a test
  method (a setUp, a helper or an attribute there runs around, or
  overrides what, the existing methods use), or is a test method that
  overrides one the class inherits from a class of the file;
* a new test is added while `allow_added` is false.

New test cases appended to an existing file, new helpers and fixtures
under new names, and new test classes with their own setUp are welcome.
The message names each case (`tests/test_clamp.py: test_high_edge
changed; 2 new tests added`), so a writer knows what to undo.

Only test modules are judged case by case: files a runner collects by
its default names (`test*.py`, `*_test.py`, `*.test.*`, `*.spec.*`,
anything under `__tests__/`, `*_test.go`, `*_spec.rb`), outside `testdata/` and
`__snapshots__/`.  Another modified file at a test path (a helper module,
a data fixture, a snapshot) is judged whole: existing tests may read every
byte of it.

Where the units cannot be compared, the whole file is the unit and a
modified test file fails, and the message says why: no module reads its
suffix (`tests/test_x.rb judged as a whole file: no parser for .rb`), a
version does not parse (a syntax error; a parser that is not installed),
it is a symlink or submodule, its text is too large to read, or the source
has no text for it (a rubric example given by line counts rather than
`before`/`after`; the Action's API mode past its cap of modified test
files read through the contents API).  A test-runner configuration file
(below) is always judged whole.  A modified test file whose text is the
same on both sides changed its mode or type: drift (the Action's API
mode, whose listing has no modes, sees a mode change only that way).

**Tests cannot be bent from outside the test files.**  Whatever `paths`
say, the rule also judges the test runner's configuration, because a new
one can switch existing tests off:

* a new `conftest.py` (any depth), `pytest.ini`, `.pytest.ini`, `tox.ini`,
  `jest.config.*`, `vitest.config.*` or `.rspec` is drift, even with
  `allow_added: true`; changing, deleting or renaming one is drift too;
* so is a new `pyproject.toml` or `setup.cfg` below the root at a test
  path (`tests/pyproject.toml`): `pytest tests` reads its pytest section
  before the root's, so it could deselect every test;
* and a new submodule at a test path (`tests/vendor`): a checkout with
  submodules puts whatever its commit holds there, a `conftest.py`
  included (the Action's API mode cannot tell a submodule from a file);
* a pytest section added to, changed in or removed from the repository
  root's `pyproject.toml` (`[tool.pytest.ini_options]`, `[tool.pytest]`,
  however the TOML spells the table) or `setup.cfg` (`[tool:pytest]`) is
  drift.  The rule reads both files' text at base and head; other edits
  to them are not drift.  When either version cannot be read (a
  `pyproject.toml` that is not valid TOML, or a source that has no file
  contents, such as a writer's `result.json`), the rule fails: it cannot
  tell.  A section is compared generously: for `setup.cfg`, every line
  from a `[...]` header that mentions `pytest` to the next header at the
  start of a line, under both Python's and git's notion of a line.

Configuration read from elsewhere (a `pyproject.toml` below the root
outside the test paths, an
environment variable set by CI, a plugin installed by a dependency
change) is out of this rule's reach; `forbidden_paths` on CI files and
lock files covers part of it.

```yaml
- id: TESTS
  kind: test_drift
  allow_added: true
  paths: ["tests/", "**/test_*.py"]
```
"""

from __future__ import annotations

import sys
from typing import Any

from gate import globs
from gate.changes import (
    ADDED,
    COPIED,
    DELETED,
    MODE_SUBMODULE,
    MODE_SYMLINK,
    MODIFIED,
    RENAMED,
    TYPE_CHANGED,
    UNKNOWN,
    ChangeSet,
    FileChange,
)
from gate.report import RuleResult
from gate.rubric import Rule
from gate.rules._common import file_state, names, param_bool, param_list, plural, result
from gate.rules.kind import PATHS, TEXTS
from gate.testcases import Unparsable, compare, suffix, units_for
from gate.text import lines
from gate.words import plural as count

KIND = "test_drift"
PARAMETERS = {
    "allow_added": {
        "description": "Whether new test files may be added.",
        "type": "boolean",
        "default": True,
    },
    "paths": {
        "description": "Globs of what counts as a test file (default: the rubric's `tests`).",
        "$ref": "#/$defs/globs",
    },
}
FROM_RUBRIC = {"paths": "tests"}
GLOBS = {"paths": globs.FOLDED}  # a test in another spelling is a test
READS = {PATHS, TEXTS}
TEXT_GLOBS = ("paths",)  # each modified test file's texts, to compare its test cases
FORBIDS = True

# Files that configure a test runner: a new one can switch existing tests
# off (a conftest.py that skips them, a pytest.ini that deselects them), so
# `test_drift` counts adding one as drift, never as "a new test", whatever
# its `paths` say.
TEST_CONFIG = (
    "**/conftest.py",
    "pytest.ini",
    ".pytest.ini",
    "tox.ini",
    "**/jest.config.*",
    "**/vitest.config.*",
    ".rspec",
)

# Files that hold a test runner's configuration in one section among others
# (pytest reads `[tool.pytest.ini_options]` / `[tool.pytest]` in
# pyproject.toml and `[tool:pytest]` in setup.cfg): `test_drift` reads their
# text at base and head and counts a pytest section added, changed or
# removed as drift.  The repository root's only, as pytest finds them.
TEST_CONFIG_SECTIONS = ("pyproject.toml", "setup.cfg")
TEXT_FILES = TEST_CONFIG_SECTIONS
# pytest takes its configuration from the nearest of those files at or above
# the common folder of its arguments: `pytest tests` reads a pytest section
# in `tests/pyproject.toml` or `tests/setup.cfg` before the root's.  Below the
# root, such a file at a test path is test configuration (adding one is
# drift, as for a conftest.py): a test folder has no other use for it.
NESTED_CONFIG = tuple(f"**/{name}" for name in TEST_CONFIG_SECTIONS)

# The files a test runner collects as test modules, by its default names
# (pytest's and unittest's `test*.py` and `*_test.py`, Jest's and Vitest's
# `*.test.*`, `*.spec.*` and `__tests__/`, Go's `*_test.go`, RSpec's
# `*_spec.rb`, which no module reads yet): only those are
# judged case by case.  Another file at a test path (a helper module, a
# data fixture, a snapshot; anything under a `testdata/` or `__snapshots__/`
# folder) is judged whole: existing tests may read every byte of it.
TEST_MODULES = (
    "**/test*.py",
    "**/*_test.py",
    "**/*.test.*",
    "**/*.spec.*",
    "**/__tests__/**",
    "**/*_test.go",
    "**/*_spec.rb",
)
DATA_FOLDERS = ("**/testdata/", "**/__snapshots__/")

_ORDER = ("modified", "mode-changed", "type-changed", "deleted", "renamed", "added", "unknown")
_CHANGED = frozenset(_ORDER) - {"added", "unknown"}


class _NoParser(Exception):
    pass


def _toml(text: str) -> dict[str, Any]:
    """`text` parsed as TOML by the parser pytest itself uses: the standard
    library's on Python 3.11+, else `tomli` (the same parser, a dependency
    of the gate on Python 3.10)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
        except ImportError:  # an install that skipped the gate's dependencies
            raise _NoParser(
                "cannot be read: TOML needs Python 3.11 or the tomli package, a dependency "
                "of the gate on Python 3.10 (pip install tomli)"
            ) from None
    data: dict[str, Any] = tomllib.loads(text)
    return data


def _ini_sections(lines: list[str]) -> list[list[str]]:
    """Every section whose `[...]` header mentions pytest, with its lines up
    to the next header at the start of a line."""
    sections: list[list[str]] = []
    current: list[str] | None = None
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("[") and "pytest" in stripped.casefold():
            current = [line]
            sections.append(current)
        elif line.startswith("["):
            current = None
        elif current is not None:
            current.append(line)
    return sections


def pytest_section(name: str, text: str | None) -> object:
    """What `text` (the file `name` of TEST_CONFIG_SECTIONS) holds of
    pytest's configuration, as a comparable value (None: nothing).  Raises
    ValueError when the text cannot be read."""
    if text is None:
        return None
    if name.endswith(".toml"):
        try:
            data = _toml(text)
        except _NoParser as exc:
            raise ValueError(str(exc)) from None
        except Exception as exc:  # tomllib.TOMLDecodeError, RecursionError
            raise ValueError(f"is not valid TOML ({exc})") from None
        tool = data.get("tool")
        return tool.get("pytest") if isinstance(tool, dict) else None
    # The gate's notion of a line (`gate.text.lines`) and Python's
    # `str.splitlines`, which ini parsers use: a section is compared under both.
    ours = _ini_sections([line.rstrip("\r\n") for line in lines(text)])
    pythons = _ini_sections(text.splitlines())
    return (ours, pythons) if ours or pythons else None


def _section_change(changes: ChangeSet, name: str) -> str | None:
    """How the change moved the pytest section of `name`: None (untouched,
    or no pytest section on either side), "added", "changed", "removed", or
    "unreadable: WHY"."""
    state = file_state(changes, name)
    if state.change is None:
        return None
    texts = changes.texts.get(name)
    if texts is None:
        if changes.source == "example":
            return None  # an example given by counts says nothing about content
        why = changes.withheld.get(name)
        if why is not None:
            return f"unreadable: {why}"
        return f"unreadable: its text is unavailable from this source ({changes.source})"
    sides = []
    for side, text in (("base", texts.base), ("head", texts.head)):
        try:
            sides.append(pytest_section(name, text))
        except ValueError as exc:
            return f"unreadable: the {side} version {exc}"
    before, after = sides
    if before == after:
        return None
    if before is None:
        return "added"
    return "removed" if after is None else "changed"


def _whole_file_why(changes: ChangeSet, f: FileChange) -> str | None:
    """Why the modified test file `f` cannot be judged case by case (None: it can)."""
    if not globs.matches(f.path, TEST_MODULES, GLOBS["paths"]) or globs.matches(
        f.path, DATA_FOLDERS, GLOBS["paths"]
    ):
        return (
            "not a test module by its runner's default names (a helper, data or snapshot "
            "of the tests, which existing tests may read whole)"
        )
    if MODE_SYMLINK in (f.old_mode, f.new_mode) or MODE_SUBMODULE in (f.old_mode, f.new_mode):
        return "a symlink or submodule, not a file of test code"
    texts = changes.texts.get(f.path)
    if texts is None:
        why = changes.withheld.get(f.path)
        if why is not None:
            return why
        if changes.source == "example":
            return "the example gives line counts, not its before and after text"
        return f"its text is unavailable from this source ({changes.source})"
    if texts.base is None or texts.head is None:
        return "its text is missing on one side"
    return None


def _same_text(changes: ChangeSet, path: str) -> bool:
    texts = changes.texts.get(path)
    return texts is not None and texts.base is not None and texts.base == texts.head


def _by_cases(changes: ChangeSet, f: FileChange, allow_added: bool) -> tuple[str | None, int]:
    """The drift in the modified test file `f` judged case by case (None:
    none), and how many new tests it adds."""
    why = _whole_file_why(changes, f)
    texts = changes.texts.get(f.path)
    if why is None and texts is not None and texts.base is not None and texts.head is not None:
        base = head = None
        try:
            side = "base"
            base = units_for(f.path, texts.base)
            side = "head"
            head = units_for(f.path, texts.head)
        except Unparsable as exc:
            base = head = None
            why = f"the {side} version {exc}"
        else:
            if base is None or head is None:
                why = f"no parser for {suffix(f.path) or 'a file without a suffix'}"
        if base is not None and head is not None:
            drift = compare(base, head, allow_added=allow_added)
            if drift.ok:
                return None, len(drift.added)
            return f"{f.path}: {drift.summary()}", 0
    return f"{f.path} judged as a whole file: {why}", 0


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    patterns = param_list(rule, "paths")
    allow_added = param_bool(rule, "allow_added")
    counts: dict[str, int] = {}
    offending: list[str] = []
    config_added: list[str] = []
    submodules: list[str] = []
    is_config = globs.matcher(TEST_CONFIG, GLOBS["paths"])
    is_either = globs.matcher((*patterns, *TEST_CONFIG), GLOBS["paths"])  # one match a path
    is_nested = globs.matcher(NESTED_CONFIG, GLOBS["paths"])
    cases: list[str] = []  # what changed in modified test files, per file
    new_tests = 0
    for f in changes.files:
        hits = [p for p in f.written if is_either(p)]
        if not hits:
            continue
        # a hit that is no runner's file is a test path: there a nested
        # pyproject.toml or setup.cfg is configuration too
        configs = [p for p in hits if is_config(p) or ("/" in p and is_nested(p))]
        if f.status in (ADDED, COPIED):
            if configs:
                config_added.extend(configs)
                continue
            if f.submodule:  # its commit may hold any file, a conftest.py too
                submodules.append(f.path)
                continue
            if allow_added:
                continue
            what = "added"
        elif f.status == UNKNOWN:
            what = "unknown"
        elif f.status == RENAMED:
            what = "renamed"
            hits = list(f.touched)
        elif f.status == DELETED:
            what = "deleted"
        elif f.status == TYPE_CHANGED:
            what = "type-changed"
        elif f.status == MODIFIED and f.mode_changed:
            what = "mode-changed"
        elif f.status == MODIFIED and _same_text(changes, f.path):
            # touched with the same text: its mode or type changed, which
            # a source without modes (the PR files API) cannot say
            what = "mode-changed"
        elif f.status == MODIFIED and not configs:
            problem, added = _by_cases(changes, f, allow_added)
            new_tests += added
            if problem is None:
                continue
            cases.append(problem)
            what = "modified"
        else:
            what = "modified"
        counts[what] = counts.get(what, 0) + 1
        offending.extend(hits)
    sections = {}
    for name in TEST_CONFIG_SECTIONS:
        how = _section_change(changes, name)
        if how is not None:
            sections[name] = how
            offending.append(name)
    if not counts and not config_added and not submodules and not sections and not cases:
        extra = "" if allow_added else "; no test file added"
        if new_tests:
            extra += f"; {count(new_tests, 'new test')} added to existing test files"
        return result(rule, True, f"no test that exists at base was changed{extra}")
    parts: list[str] = []
    existing = sum(n for k, n in counts.items() if k in _CHANGED)
    if existing:
        detail = ", ".join(f"{counts[k]} {k}" for k in _ORDER if k in counts and k in _CHANGED)
        verb = "exists" if existing == 1 else "exist"
        parts.append(f"{plural(existing, 'test file')} that {verb} at base changed ({detail})")
        parts.extend(cases)
    if config_added:
        parts.append(
            f"{plural(len(config_added), 'test configuration file')} added "
            f"({names(sorted(config_added))}), which can switch existing tests off"
        )
    if submodules:
        parts.append(
            f"{plural(len(submodules), 'submodule')} added at a test path "
            f"({names(sorted(submodules))}), which can bring a conftest.py or any other file"
        )
    for name, how in sections.items():
        if how.startswith("unreadable: "):
            parts.append(
                f"{name} is touched but the gate cannot tell whether its pytest section "
                f"changed: {how[len('unreadable: ') :]}"
            )
        else:
            parts.append(f"the pytest section of {name} was {how}")
    if "added" in counts:
        parts.append(f"{plural(counts['added'], 'new test file')} added and allow_added is false")
    if "unknown" in counts:
        parts.append(
            f"{plural(counts['unknown'], 'test path')} with unknown status "
            f"(the source, {changes.source}, does not say whether it existed at base)"
        )
    return result(rule, False, "; ".join(parts), paths=[*offending, *config_added, *submodules])
