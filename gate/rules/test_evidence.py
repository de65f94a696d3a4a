"""`test_evidence`: a change to the source files comes with a test case
added or changed.

For repositories that want every fix to come with a regression test.  The
rule fails when a source file (`sources`, less `exclude`) changes and no
test case is added or changed in the same change; test files are `tests`,
by default the rubric's `tests` globs (those `test_drift` uses).  It reads
test cases with the test-drift engine (`gate.drift`): the same units, the
same comparison.

**A source change** is a path matching `sources` (in another letter case
or Unicode normalization too, `gate.base.globs.FOLDED`: `SRC/App.py` is under
`src/`), matching no `exclude` glob (as written) and no test glob, that a
change adds, copies, modifies (content or type) or renames with edits; or
a file renamed *into* the sources from elsewhere, edited or not (code that
was no source is now one).  A deletion, a rename inside the sources
without edits, a change of the file mode alone (no line added or
removed), and an edit that leaves the code the same as the engine reads
it need no test.  The same code: a Python file whose syntax tree, without
docstrings (prose; a type annotation is code), is the same, so a
comment, a blank line, a reformat or a docstring edited changes none;
in another language the engine splits, the same units (each function,
class, import, statement, in any order) each of the same form (Go's
tokens, so a comment or a reformat changes none; a JavaScript or
TypeScript unit's text as written, so imports reordered change none),
or a JavaScript or TypeScript file whose tokens without comments are the
same, in order (a comment, a JSDoc block, a reformat change none; a
semicolon or a string's blanks do), or a Rust file whose tokens without
comments are the same, in order (a comment or a `///` doc comment
edited, a reformat change none; a `#[doc = ".."]` attribute does).
A path whose status the source does not know (a writer's `result.json`)
counts as changed.

**Evidence** is one test file (a written path matching `tests`) that:

* is new (added or copied) and holds at least one test case the engine
  sees (a `test*` function, a `Test*` class's test, an `it(...)`, a Go
  `func TestX`, ...); a new file of helpers or fixtures only is no
  evidence;
* exists at base and gains a test case, or a test case's code changes
  (a new row of a table-driven case, a `@pytest.mark.parametrize` row, a
  subtest, an assertion added or edited all count; a test only removed,
  a comment, a blank line or a reformat that changes no test, a helper
  or import edited, do not, but for a helper's new checks, below); a
  test file renamed is compared across its two paths, so a rename
  without edits is no evidence.

A test case is one its runner collects and runs, whatever its body
writes: a pytest test that sets attributes on a shared mock, a Vitest
`test()` that calls a helper changing module-level state (which
`test_drift` judges as collection-time code) count as any test does; a
helper, a fixture, a hook or an import never does.  A call
`xTest('title', fn)` of a test function another file builds (Vitest's
`export const volumeTest = test.extend({...})`, imported; a camelCase
name ending in `Test` or `It`) is a test case too; a call of another
function (`register('title', fn)`) is not.

A helper of a test file (a function that is no test case, at the top
level or in a describe) that makes more checks than at base (`assert`,
`expect`, `should`, `self.assert*`, `pytest.raises`, Go's `t.Error`,
`t.Fatal`, testify's `require.*`, comments aside) and that a test case
of the file, not skipped, names in its code, is evidence too: the
assertions a table of cases looping over one helper runs.  A helper
whose checks are only edited, reformatted, replaced or commented, one
no test calls, or one only skipped tests call, is none.

A Rust file (`.rs`), source or test, holds its test cases in itself (a
`#[cfg(test)] mod tests` block): a `fn` with `#[test]`, `#[tokio::test]`
(any `...::test`), `#[rstest]`, `#[test_case(..)]`,
`#[test_matrix(..)]`, `#[wasm_bindgen_test]` or `#[quickcheck]`, at any
module depth (`gate.drift.rust`, on the
tree-sitter Rust grammar).  A source or test `.rs` file that gains such
a function, or one whose tokens without comments change (an assertion,
a `#[case(..)]` row), is evidence, so a changed source file can be its
own; a comment, a doc comment or a reformat, a helper edited, a test
renamed, copied or removed, a test `#[ignore]`d (a conditional
`#[cfg_attr(.., ignore)]` runs) are not, nor a test a macro generates.
A Rust file the grammar cannot parse brings no evidence (a test file is
then judged as a file the engine does not split).

A new test whose code, but for its name, comments and blanks, is that of
a test the base holds in a test file the change writes is a test
renamed, copied or moved to another file: no evidence.  A test file git
reports as a copy of a file the change does not write is judged as a new
file (the copy's source is not read), so its tests count and the pass
message names them.  A test case that never runs its checks, skipped by
its decorator (`@pytest.mark.skip`, `@unittest.skip`), its call
(`it.skip`, `xit`, `it.todo`, `test.skip.each`) or its first statement
(Go's `t.Skip`, `pytest.skip`, `self.skipTest`), new or edited, is no
evidence; a conditional skip (`skipif`) is.  Beyond that the evidence
is structural: a new test that asserts nothing counts.

A test file in a language the engine does not split (a Ruby spec, a
shell test, data a test reads) counts as evidence when it gains a line
that is not blank (new or modified, the message says so); one whose
language's parser is not installed is judged the same way.  A test file
one of whose versions its grammar cannot parse is split around the
statements the grammar repairs, each such statement one unit of its
exact text (`gate.drift.paired_units`, as `test_drift` does; tree-sitter
grammars lag the newest TypeScript); one that still cannot be read (a
Python syntax error), or whose text the source cannot give, is no
evidence, and the failure message names it and why.

The failure names the changed sources (the first five, then a count) and
says that no test case was added or changed, naming the test files the
change wrote that hold no evidence; the pass names the evidence
(`tests/test_clamp.py: 1 new test (test_low_edge)`).

`test_evidence` is not in the starter rubric: opt in.

```yaml
- id: EVIDENCE
  kind: test_evidence
  sources: ["src/", "lib/**/*.py"]
  exclude: ["src/**/_version.py"]
```
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gate.base import globs
from gate.base.text import line_diff, lines
from gate.drift import (
    CASE,
    SUPPORT,
    Unit,
    Unparsable,
    compare,
    paired_units,
    reader_of,
    suffix,
    units_for,
)
from gate.drift.language import BY_SUFFIX, JS
from gate.drift.python.tree import docstring
from gate.drift.rust import RustTest, test_functions
from gate.drift.rust import code_tokens as rust_tokens
from gate.model.change import (
    ADDED,
    COPIED,
    DELETED,
    MODIFIED,
    RENAMED,
    UNKNOWN,
    ChangeSet,
    FileChange,
)
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules._common import names, param_list, plural, quote, result
from gate.rules.kind import PATHS, TEXTS

KIND = "test_evidence"
PARAMETERS = {
    "sources": {
        "description": (
            "Globs of the source files whose change needs a test case added or changed "
            "(matched in any letter case)."
        ),
        "$ref": "#/$defs/globs",
    },
    "exclude": {
        "description": "Source files that need no test, matched exactly as written.",
        "$ref": "#/$defs/globs",
        "default": [],
    },
    "tests": {
        "description": "Globs of what counts as a test file (default: the rubric's `tests`).",
        "$ref": "#/$defs/globs",
    },
}
FROM_RUBRIC = {"tests": "tests"}
# a source or a test in another spelling is one; an exclude lets through as written
GLOBS = {"sources": globs.FOLDED, "exclude": globs.EXACT, "tests": globs.FOLDED}
READS = {PATHS, TEXTS}
# each written test file's texts, to find its test cases; each written
# source file's, to tell a change of code from one of comments or layout
TEXT_GLOBS = ("tests", "sources")

Is = Callable[[str], bool]


def _edited(f: FileChange) -> bool:
    """Whether `f` changed any line (unknown counts: it may have)."""
    return not (f.added == 0 and f.deleted == 0)


def source_changes(changes: ChangeSet, is_source: Is, is_test: Is) -> list[str]:
    """The source files the change writes that need a test (see the kind's
    docstring), sorted."""
    out: set[str] = set()
    for f in changes.files:
        if not is_source(f.path) or is_test(f.path) or f.status == DELETED:
            continue
        if f.status == RENAMED and f.old_path is not None:
            entering = not is_source(f.old_path) or is_test(f.old_path)
            if not (entering or _edited(f)):
                continue  # moved inside the sources unchanged
        elif f.status == MODIFIED and not _edited(f):
            continue  # its mode alone
        if f.status in (MODIFIED, RENAMED) and _same_code(changes, f):
            continue  # comments or layout
        out.add(f.path)
    return sorted(out)


def _same_code(changes: ChangeSet, f: FileChange) -> bool:
    """Whether the modified (or renamed) source file `f` holds the same
    code at head as at base, as the engine reads it: the same units, each
    of the same form (`_form`: a comment, a blank line, a reformat, an
    order changed nothing).  False when a text is missing or a language
    cannot split it."""
    was = f.old_path if f.status == RENAMED and f.old_path is not None else f.path
    before, after = changes.texts.get(was), changes.texts.get(f.path)
    if before is None or after is None or before.base is None or after.head is None:
        return False
    if suffix(f.path) == suffix(was) == ".py":
        old, new = _python_code(before.base), _python_code(after.head)
        return old is not None and old == new
    if suffix(f.path) == suffix(was) == ".rs":
        try:
            return rust_tokens(before.base) == rust_tokens(after.head)
        except Unparsable:
            return False
    if _same_tokens(was, before.base, f.path, after.head):
        return True
    if not (_splittable(f.path) and _splittable(was)):
        return False
    try:
        base = units_for(was, before.base) or ()
        head = units_for(f.path, after.head) or ()
    except Unparsable:
        return False
    forms = {u.key: _form(u, loose=False) for u in base}
    return len(base) == len(head) and all(forms.get(u.key) == _form(u, loose=False) for u in head)


def _same_tokens(was: str, base: str, path: str, head: str) -> bool:
    """Whether the JavaScript or TypeScript `base` (at `was`) and `head`
    (at `path`) are the same tokens without comments, in order
    (`gate.drift.js.code_tokens`)."""
    if suffix(was) != suffix(path) or BY_SUFFIX.get(suffix(path)) is not JS:
        return False
    if not _splittable(path):
        return False
    from gate.drift.js import code_tokens

    try:
        return code_tokens(base, suffix(was)) == code_tokens(head, suffix(path))
    except Unparsable:
        return False


def _python_code(text: str) -> str | None:
    """The Python `text`'s syntax tree without positions and without
    docstrings (a module's, a class's, a function's: prose, which no test
    of the behaviour reads), or None when it is not Python."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(node, DOCUMENTED) or not isinstance(body, list) or not body:
            continue
        if docstring(body[0]) is not None:
            node.body = body[1:] or [ast.Pass()]
    try:
        return ast.dump(tree, include_attributes=False)
    except RecursionError:
        return None


DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _splittable(path: str) -> bool:
    """Whether the engine splits `path` into test cases: a language reads
    its suffix and that language's parser is installed."""
    try:
        return reader_of(suffix(path)) is not None
    except Unparsable:
        return False


def _gained_lines(base: str | None, head: str) -> int:
    """How many non-blank head lines are new or changed against `base`."""
    head_lines = lines(head)
    return sum(1 for n in line_diff(base, head).added if head_lines[n - 1].strip())


def _new_tests(base: Sequence[Unit], head: Sequence[Unit]) -> list[str]:
    """The test cases of `head` that `base` does not hold (`is_case`)
    that are not a class header of other units."""
    keys = {u.key for u in base}
    parents = {u.parent for u in head if u.parent}
    return [u.name for u in head if u.key not in keys and is_case(u) and u.key not in parents]


def is_case(unit: Unit) -> bool:
    """Whether `unit` is a test case its runner collects: the engine's
    CASE, a case but for other modules' callables (`Unit.quiet`), or a
    test whose body writes what other tests see (`Unit.test`; COLLECTION
    for `test_drift`, a test case all the same)."""
    return CASE in (unit.role, unit.quiet) or unit.test


# What a comment or layout may change in a language whose units carry no
# form free of them (`Unit.same`, `Unit.tokens`): JavaScript's comments and
# every blank.  Taking out a comment marker inside a string, or a blank
# inside one, can only hide a change, never make one: the rule then asks
# for a test.
_NOISE = re.compile(r"//[^\n]*|/\*.*?\*/|\s+", re.DOTALL)


def _form(unit: Unit, *, loose: bool = True) -> str | tuple[str, ...]:
    """`unit`'s code in a form equal across versions when only comments or
    layout changed: its language's (`Unit.same`, `Unit.tokens`), else the
    code without comments and blanks (`loose`: for a test, where treating
    a change as none only asks for a test) or the code as written (for a
    source, where it would let a change pass untested)."""
    if unit.same is not None:
        return unit.same()
    if unit.tokens is not None:
        return unit.tokens().tokens
    return _NOISE.sub("", unit.code) if loose else unit.code


def _edited_cases(base: Sequence[Unit], head: Sequence[Unit], changed: Sequence[str]) -> list[str]:
    """The test cases among `changed` (names of base units the engine calls
    changed, `Drift.changed`) whose code changed beyond comments and layout."""
    at_head = {u.key: u for u in head}
    out = []
    for u in base:
        now = at_head.get(u.key)
        if not is_case(u) or u.name not in changed or now is None or _skipped(now):
            continue
        if _form(u) != _form(now):
            out.append(u.name)
    return out


# A test case that never runs its checks: skipped by its decorator (pytest,
# unittest), its call (`it.skip`, `xit`, `it.todo`, `test.skip.each`), or
# its first statement (Go's `t.Skip`, pytest's `pytest.skip`, unittest's
# `self.skipTest`).  A conditional skip (`skipif`, `t.Skip` under an `if`)
# is not matched: the test runs somewhere.
_SKIPPED = re.compile(
    r"^\s*@(?:pytest\.mark\.skip|unittest\.skip|skip)\b(?!if)"
    r"|^\s*(?:x(?:it|test|describe)|(?:it|test|describe)(?:\.\w+)*\.(?:skip|todo))\b",
    re.MULTILINE,
)
# Go: `t.Skip` as the first statement of the test function itself (comments
# aside), not under an `if` or in a subtest.
_GO_SKIPPED = re.compile(r"^func\b[^{]*\{\s*(?://[^\n]*\s*)*t\.Skip(?:Now|f)?\(", re.MULTILINE)
_PY_SKIPS = ("pytest.skip", "self.skipTest", "unittest.skip")


def _py_skipped(code: str) -> bool:
    """A Python test function whose first statement (after its docstring)
    is `pytest.skip(...)` or `self.skipTest(...)`; a skip under an `if` is not."""
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(code))
    except (SyntaxError, ValueError, RecursionError):
        return False
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if len(defs) != 1:
        return False
    body = defs[0].body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    first = body[0] if body else None
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Call)
        and ast.unparse(first.value.func) in _PY_SKIPS
    )


def _skipped(unit: Unit) -> bool:
    """Whether the test case `unit` never runs its checks (`_SKIPPED`, and
    an unconditional first-statement skip in Go or Python)."""
    code = unit.code
    return (
        _SKIPPED.search(code) is not None
        or _GO_SKIPPED.search(code) is not None
        or ("skip" in code and _py_skipped(code))
    )


def _anonymous(unit: Unit) -> str:
    """A test case's code without its own name, comments and blanks: equal
    for a test renamed or copied under another name."""
    code = unit.code
    last = unit.name.split(" > ")[-1]
    # a call of a test function built elsewhere is named by its callee and title
    title = last.split(" ", 1)[-1] if unit.test and unit.key.startswith("statement ") else last
    for name in dict.fromkeys((last, last.rsplit(".", 1)[-1], title)):
        if name:
            code = code.replace(name, "\0")
    return _NOISE.sub("", code)


@dataclass(frozen=True)
class Read:
    """A written test file as read: its texts (a new file's base, a deleted
    one's head, None), and its base and head units, None where the engine
    does not split such a file."""

    base: str | None
    head: str | None
    units: tuple[tuple[Unit, ...], tuple[Unit, ...]] | None


def read(changes: ChangeSet, f: FileChange, is_test: Is) -> Read | str:
    """The written test file `f` read (a rename's texts across its paths,
    or, from a path that is no test path, as new), or why it cannot be."""
    was = f.old_path if f.status == RENAMED and f.old_path is not None else f.path
    fresh = f.status in (ADDED, COPIED) or not is_test(was)
    texts, before = changes.texts.get(f.path), changes.texts.get(was)
    base_text = None if fresh or before is None else before.base
    head_text = None if f.status == DELETED or texts is None else texts.head
    if (f.status != DELETED and head_text is None) or not (fresh or base_text is not None):
        gone = [p for p in (f.path, was) if p in changes.withheld]
        why = changes.withheld[gone[0]] if gone else None
        return why or f"its text is unavailable from this source ({changes.source})"
    if not _splittable(f.path):
        return Read(base_text, head_text, None)
    side = "head"
    try:
        head = () if head_text is None else units_for(f.path, head_text) or ()
        side = "base"
        base = () if base_text is None else units_for(was, base_text) or ()
    except Unparsable as exc:
        why = f"the {side} version {exc}"
        try:  # statements the grammar repairs as opaque units, where a language can
            base, head = paired_units(f.path, base_text or "", head_text or "")
        except Unparsable:
            return why
    return Read(base_text, head_text, (base, head))


def evidence(got: Read, known: set[str]) -> str | None:
    """What a written test file, as `read`, brings as evidence (None:
    nothing).  A new test whose code is that of a test in `known`
    (`_anonymous` forms of the base's tests) but for its name is a test
    renamed or copied: no evidence."""
    if got.units is None:
        gained = _gained_lines(got.base, got.head or "")
        return (
            f"{plural(gained, 'non-blank line')} in a file the engine does not split"
            if gained
            else None
        )
    base, head = got.units
    parts = []
    by_name = {u.name: u for u in head}
    added = [
        n
        for n in _new_tests(base, head)
        if _anonymous(by_name[n]) not in known and not _skipped(by_name[n])
    ]
    if added:
        parts.append(f"{plural(len(added), 'new test')} ({names(added, 3)})")
    if base:
        drift = compare(base, head, allow_added=True)
        edited = _edited_cases(base, head, drift.changed)
        if edited:
            parts.append(f"{names(edited, 3)} changed")
        if drift.grew:
            parts.append(f"new cases in {names(list(drift.grew), 3)}")
        checked = _checked_helpers(base, head)
        if checked:
            parts.append(f"new checks in {names(checked, 3)}, called by test cases")
    return "; ".join(parts) or None


# A check: an assertion of pytest, unittest, Jest, Vitest, Chai, Node's
# assert, Go's testing, testify.
_CHECK = re.compile(
    r"\b(?:assert\w*|expect|should|t\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)"
    r"|require\.\w+|pytest\.raises)\b"
)
# comments: to the end of a line (`//`, or `#` after a blank or at a
# line's start), and blocks
_COMMENTS = re.compile(r"//[^\n]*|(?:^|(?<=\s))#[^\n]*|/\*.*?\*/", re.MULTILINE | re.DOTALL)


def _checks(code: str) -> int:
    """How many checks (`_CHECK`) `code` makes, comments aside (a check
    reformatted over several lines is one still)."""
    return len(_CHECK.findall(_COMMENTS.sub("", code)))


def _checked_helpers(base: Sequence[Unit], head: Sequence[Unit]) -> list[str]:
    """The helpers (support code that is no test case) the file holds at
    base and head that make more checks (`_checks`), each named in the
    code of a test case of the head that is not skipped (a helper bound
    inside a describe is not among a test's `Unit.uses`): assertions a
    test runs through its helper (a table of cases looping over one)."""
    at_base = {u.key: u for u in base}
    called: set[str] = set()
    for u in head:
        if is_case(u) and not _skipped(u):
            called.update(re.findall(r"\w+", _COMMENTS.sub("", u.code)))
    out = []
    for u in head:
        was = at_base.get(u.key)
        if was is None or is_case(u) or u.role != SUPPORT or not set(u.binds) & called:
            continue
        if _checks(u.code) > _checks(was.code):
            out.append(u.name)
    return out


RustTests = dict[str, RustTest]


def _rust_files(
    changes: ChangeSet, sources: Is, is_test: Is
) -> dict[str, tuple[FileChange, RustTests, RustTests]]:
    """Each written Rust file, source or test, whose versions the Rust
    grammar reads (`gate.drift.rust`): its test functions at base (none
    for a new file) and at head.  A test file it cannot read is left to
    the reading of other test files; a source file, to no evidence."""
    out: dict[str, tuple[FileChange, RustTests, RustTests]] = {}
    for f in changes.files:
        if suffix(f.path) != ".rs" or f.status in (DELETED, UNKNOWN):
            continue
        if not (sources(f.path) or is_test(f.path)):
            continue
        was = f.old_path if f.status == RENAMED and f.old_path is not None else f.path
        fresh = f.status in (ADDED, COPIED) or suffix(was) != ".rs"
        texts, before = changes.texts.get(f.path), changes.texts.get(was)
        head = None if texts is None else texts.head
        base = None if fresh or before is None else before.base
        if head is None or not (fresh or base is not None):
            continue
        try:
            out[f.path] = (
                f,
                {} if base is None else test_functions(base),
                test_functions(head),
            )
        except Unparsable:
            continue
    return out


def _anonymous_rust(test: RustTest) -> tuple[str, ...]:
    """A Rust test's tokens without its own name: equal for a test renamed
    or copied under another name."""
    last = test.name.rsplit("::", 1)[-1]
    return tuple("\0" if t == last else t for t in test.tokens)


def _rust_evidence(base: RustTests, head: RustTests, known: set[tuple[str, ...]]) -> str | None:
    """What a Rust file's test functions bring as evidence: a new one (not
    `#[ignore]`d, not a test of `known` renamed), or one whose tokens
    changed and that is not ignored at head."""
    added = [
        n
        for n, t in head.items()
        if n not in base and not t.ignored and _anonymous_rust(t) not in known
    ]
    edited = [
        n for n, t in head.items() if n in base and not t.ignored and t.tokens != base[n].tokens
    ]
    parts = []
    if added:
        parts.append(f"{plural(len(added), 'new test')} ({names(added, 3)})")
    if edited:
        parts.append(f"{names(edited, 3)} changed")
    return "; ".join(parts) or None


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    is_test = globs.matcher(param_list(rule, "tests"), GLOBS["tests"])
    through = globs.matcher(param_list(rule, "exclude"), GLOBS["exclude"])
    sources = globs.matcher(param_list(rule, "sources"), GLOBS["sources"])
    changed = source_changes(changes, lambda p: sources(p) and not through(p), is_test)
    if not changed:
        return result(rule, True, "no source file matching `sources` changed")
    tests = [f for f in changes.files if is_test(f.path) and f.status != UNKNOWN]
    reads = {f: read(changes, f, is_test) for f in tests}
    known = {
        _anonymous(u)
        for got in reads.values()
        if isinstance(got, Read) and got.units is not None
        for u in got.units[0]
        if is_case(u)
    }
    found: list[str] = []
    unread: list[str] = []
    idle: list[str] = []
    rust = _rust_files(changes, sources, is_test)
    known_rust = {_anonymous_rust(t) for _, base, _ in rust.values() for t in base.values()}
    for path, (f, base_tests, head_tests) in sorted(rust.items()):
        if (what := _rust_evidence(base_tests, head_tests, known_rust)) is not None:
            found.append(f"{quote(path)}: {what}")
        elif f in reads:
            idle.append(path)
    for f, got in reads.items():
        if f.status == DELETED or f.path in rust:
            continue
        if isinstance(got, str):
            unread.append(f"{quote(f.path)} could not be read as test cases ({got})")
        elif (what := evidence(got, known)) is not None:
            found.append(f"{quote(f.path)}: {what}")
        else:
            idle.append(f.path)
    what = f"{plural(len(changed), 'source file')} changed ({names(changed)})"
    if found:
        return result(rule, True, f"{what}; test evidence: {'; '.join(sorted(found))}")
    message = f"{what} and no test case was added or changed"
    if idle:
        message += f"; {plural(len(idle), 'test file')} written without one ({names(sorted(idle))})"
    if unread:
        message += "; " + "; ".join(sorted(unread))
    return result(rule, False, message, paths=changed)
