"""Loops that only define tests over a literal table are opened as a
describe is: their tests are cases (gate.drift.js.tables)."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import CASE, COLLECTION, SUPPORT, compare, reaching
from gate.drift.js import units

HEADER = "import { test, describe } from 'vitest';\nimport { Client, Pool } from '../index.js';\n"

# (declarations before the loop, the loop with `{body}` for its statements).
LOOPS = [
    ("", "for (const n of [1, 2, 'three']) {{\n{body}\n}}"),
    ("const SEEDS = [1, 2, -3];", "for (const n of SEEDS) {{\n{body}\n}}"),
    ("", "for (let n of [`a`, null, true]) {{\n{body}\n}}"),
    ("", "for (const [n, make] of [['a', Client], ['b', Pool]]) {{\n{body}\n}}"),
    ("", "for (const {{ n, make }} of [{{ n: 'a', make: Client }}, {{ n: 'b' }}]) {{\n{body}\n}}"),
    (
        "const D = { client: (o) => new Client(o), 'pool': Pool };",
        "for (const [n, make] of Object.entries(D)) {{\n{body}\n}}",
    ),
    ("const D = { a: 1, b: 2 };", "for (const n of Object.keys(D)) {{\n{body}\n}}"),
    ("const D = { a: 1, b: 2 };", "for (const n of Object.values(D)) {{\n{body}\n}}"),
    ("", "['chunked', 'gzip, chunked'].forEach(function (n) {{\n{body}\n}});"),
    ("const TE = ['chunked'];", "TE.forEach((n) => {{\n{body}\n}});"),
    ("", "[[1, [2, 3]]].forEach(([n, [a, b]]) => {{\n{body}\n}});"),
    ("let SEEDS = [1, 2];", "for (const n of SEEDS) {{\n{body}\n}}"),
    # Mocha's style: the table a `var` of the describe around the loop
    (
        "",
        "describe('res', function () {{\n  var TE = ['chunked', 'gzip'];\n"
        "  TE.forEach(function (n) {{\n{body}\n  }});\n}});",
    ),
]
# What a loop's body defines, substituting the row's literal `n`.
BODIES = [
    "test(`works with ${n}`, async () => {});",
    "test('works with ' + n, () => {});",
    "test(`${n}`, { timeout: 5 }, () => {});",
    "describe(`${n}`, () => {\n  test('a', () => {});\n  test(`b ${n}`, () => {});\n});",
]


def _roles(text: str) -> dict[str, str]:
    return {u.name: u.role for u in units(text, ".ts")}


@pytest.mark.parametrize(
    ("before", "loop", "body"),
    [(b, loop, body) for (b, loop), body in itertools.product(LOOPS, BODIES)],
)
def test_a_loop_over_a_literal_table_defines_cases(before: str, loop: str, body: str) -> None:
    text = f"{HEADER}{before}\n{loop.format(body=body)}\n"
    assert reaching("test/new.ts", units(text, ".ts")) == ()
    roles = _roles(text)
    loops = [u for u in units(text, ".ts") if u.key.startswith("loop ")]
    assert len(loops) == 1 and loops[0].role == SUPPORT
    assert CASE in roles.values()
    # beside an existing test: new tests, nothing drifts
    base = f"{HEADER}{before}\ntest('old', () => {{}});\n"
    found = compare(units(base, ".ts"), units(base + loop.format(body=body) + "\n", ".ts"))
    assert found.ok and found.added, found.summary()


def test_a_changed_table_changes_the_tests_it_defines() -> None:
    base = f"{HEADER}for (const n of [1, 2]) {{\n  test(`t ${{n}}`, () => {{}});\n}}\n"
    head = base.replace("[1, 2]", "[1, 3]")
    found = compare(units(base, ".ts"), units(head, ".ts"))
    assert not found.ok and "`t ${n}` removed" in found.summary()
    base = (
        f"{HEADER}const T = [1, 2];\nfor (const n of T) {{\n  test(`t ${{n}}`, () => {{}});\n}}\n"
    )
    found = compare(units(base, ".ts"), units(base.replace("[1, 2]", "[1, 3]"), ".ts"))
    assert not found.ok and "T changed" in found.summary()


# Tables and loops that may run code when the file loads: the statement
# stays collection-time code.
NO_TABLE = [
    ("import { ROWS } from './rows.js';", "for (const n of ROWS) {{\n{body}\n}}"),
    ("const ROWS = makeRows();", "for (const n of ROWS) {{\n{body}\n}}"),
    ("let ROWS = [1];\nROWS = makeRows();", "for (const n of ROWS) {{\n{body}\n}}"),
    ("var ROWS = [1];\nfunction f() { ROWS = make(); }", "ROWS.forEach((n) => {{\n{body}\n}});"),
    ("function f() { const ROWS = [1]; }", "for (const n of ROWS) {{\n{body}\n}}"),
    (
        "const ROWS = [1];\nfunction f(ROWS) { return ROWS; }",
        "for (const n of ROWS) {{\n{body}\n}}",
    ),
    ("const ROWS = [...OTHER];", "for (const n of ROWS) {{\n{body}\n}}"),
    ("", "for (const n of [{{ get a() {{ return run(); }} }}]) {{\n{body}\n}}"),
    ("", "for (const {{ a }} of [{{ a() {{}} }}]) {{\n{body}\n}}"),
    ("", "for (const {{ a }} of [{{ [key]: 1 }}]) {{\n{body}\n}}"),
    ("", "for (const [a] of [Client]) {{\n{body}\n}}"),
    ("", "for (const {{ a }} of [Client]) {{\n{body}\n}}"),
    ("", "for (const [a = run()] of [[1]]) {{\n{body}\n}}"),
    ("", "for (const [, n] of [['a', 'b']]) {{\n{body}\n}}"),
    ("", "for (const [a, n] of [[, Client]]) {{\n{body}\n}}"),
    ("", "for (const {{ n }} of [{{ __proto__: Client }}]) {{\n{body}\n}}"),
    ("", "for (const {{ n }} of [{{ '__proto__': Client }}]) {{\n{body}\n}}"),
    ("", "for (const [...a] of [[1]]) {{\n{body}\n}}"),
    ("let n;", "for (n of [1]) {{\n{body}\n}}"),
    ("", "for (var n of [1]) {{\n{body}\n}}"),
    ("", "for (const n in {{ a: 1 }}) {{\n{body}\n}}"),
    ("const Object = fake;\nconst D = { a: 1 };", "for (const n of Object.keys(D)) {{\n{body}\n}}"),
    ("const D = { a: 1 };", "for (const n of Object.fromEntries(D)) {{\n{body}\n}}"),
    ("", "getRows().forEach((n) => {{\n{body}\n}});"),
    ("", "[1].forEach((n, i) => {{\n{body}\n}});"),
    ("", "[1].forEach((n = run()) => {{\n{body}\n}});"),
    ("", "[1].forEach(handler);"),
]


@pytest.mark.parametrize(("before", "loop"), NO_TABLE)
def test_a_loop_that_may_run_code_stays_collection_time_code(before: str, loop: str) -> None:
    text = f"{HEADER}{before}\n{loop.format(body=BODIES[0])}\n"
    assert not any(u.code.startswith("for (") and u.role == SUPPORT for u in units(text, ".ts"))
    assert not any(".forEach(" in u.name and u.role == SUPPORT for u in units(text, ".ts"))
    # under node:test with --test-isolation=none every file shares one
    # process (under Vitest, each its own registry)
    shared = text.replace("from 'vitest'", "from 'node:test'")
    one = ["node --test --test-isolation=none"]
    assert reaching("test/new.ts", units(shared, ".ts"), one), "a new file's loop reaches others"


def test_a_table_declared_after_the_loop_is_no_table() -> None:
    text = f"{HEADER}for (const n of ROWS) {{\n{BODIES[0]}\n}}\nvar ROWS = [1];\n"
    assert not any(u.key.startswith("loop ") for u in units(text, ".ts"))


# Inside a loop over a literal table, code that runs at load is still code.
LOUD_BODIES = [
    # a row name holding a function or an object, substituted into a title
    ("for (const make of [Client, Pool]) {\n  test(`${make}`, () => {});\n}", "`${make}`"),
    ("for (const [n, o] of [['a', {}]]) {\n  test(`${o}`, () => {});\n}", "`${o}`"),
    # the body binds the row's name again, to an object with a toString
    (
        "for (const n of ['a']) {\n  describe('d', () => {\n"
        "    const n = { toString() { return run(); } };\n    test(`${n}`, () => {});\n  });\n}",
        "`${n}`",
    ),
    # a name of the loop's row bound elsewhere too, read through a value there
    (
        "let n = { valueOf() { return run(); } };\nconst x = n + 1;\n"
        "for (const n of [1]) {\n  test(`${x}`, () => {});\n}",
        "`${x}`",
    ),
    # other statements, focused tests and hooks run when the file loads
    ("for (const n of [1]) {\n  setup(n);\n  test(`${n}`, () => {});\n}", "setup"),
    ("for (const n of [1]) {\n  test.only(`${n}`, () => {});\n}", "`${n}`"),
    ("for (const n of [1]) {\n  beforeEach(() => {});\n}", "beforeEach"),
]


@pytest.mark.parametrize(("text", "part"), LOUD_BODIES)
def test_code_in_a_table_loop_still_runs_at_collection(text: str, part: str) -> None:
    found = [u for u in units(f"{HEADER}{text}\n", ".ts") if part in u.name]
    assert found and all(u.role == COLLECTION for u in found), [(u.name, u.role) for u in found]
