"""Test files as test cases: what `test_drift` compares between base and head.

A test file's text is split into `Unit`s, one per thing a reader of the
file would name: a test case (a pytest/unittest test function, method or
class; a Jest/Vitest/Mocha `test(...)`/`it(...)`; a Go `func TestX`), a
piece of support code (a fixture, a helper, a hook, an import, a
module-level statement), each with its exact code.  `test_drift` keeps every
base unit as it is and judges what the head adds.

One module per language family, each exposing
`units(text: str) -> tuple[Unit, ...]`, raising `Unparsable` with one
sentence when the text is not that language (a syntax error, a grammar that
is not installed).  `units_for(path, text)` picks the module by the path's
suffix and returns None for a file no module reads (the whole file is then
the unit).
"""

from __future__ import annotations

from dataclasses import dataclass

# A unit's role.  CASE: a test the runner collects and runs.  SUPPORT: code
# that defines something tests use without running at collection (a helper
# def, a non-autouse fixture, an import, a constant).  COLLECTION: code that
# runs when the file is collected or changes what other tests see (a call
# at module level, an assignment into another module, a sys.path change, an
# autouse fixture, a runner hook, setUp/beforeEach/TestMain/init, ...).
CASE = "case"
SUPPORT = "support"
COLLECTION = "collection"


class Unparsable(Exception):
    """The text cannot be split into units; the message says why, in one sentence."""


@dataclass(frozen=True)
class Unit:
    """One unit of a test file.

    `key` identifies the unit across base and head (for example
    `function test_high_edge`, `method TestClamp.test_low`, `it clamp > rounds
    down`, `import os`, `statement 3`), unique within one file's units (a
    language module disambiguates repeats, and reports a repeated test name,
    which would shadow the first, as COLLECTION).  `name` is how a message names it
    (`test_high_edge`, `TestClamp.test_low`).  `code` is the unit's exact
    source text (decorators, signature and body), compared as is.  `binds`
    are the module-level names it binds (so a new import or definition that
    rebinds a name existing tests use is seen)."""

    key: str
    name: str
    role: str
    code: str
    binds: tuple[str, ...] = ()
    line: int = 0  # 1-based line where the unit starts at its side
