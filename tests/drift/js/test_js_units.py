"""gate.drift.js: real Jest, Vitest, Mocha and node:test files as units,
and generated files (every test one CASE with its exact code, stable keys,
syntax errors refused, CRLF and a byte-order mark)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift import CASE, COLLECTION, SUPPORT, Unit, Unparsable, compare
from gate.drift.js import units


def _roles(found: tuple[Unit, ...]) -> list[tuple[str, str]]:
    return [(u.key, u.role) for u in found]


JEST = """\
/**
 * @jest-environment jsdom
 */
import { clamp } from '../src/clamp';
import * as db from './db';
import './setup-globals';

jest.mock('./db', () => ({ query: jest.fn() }));

const LIMIT = 10;
const spy = jest.fn();
const server = startServer();

beforeAll(() => db.connect());

describe('clamp', () => {
  let calls = 0;
  beforeEach(() => { calls = 0; });
  afterEach(() => jest.restoreAllMocks());

  it('rounds down', () => {
    expect(clamp(1.5)).toBe(1);
  });

  it.skip('rounds up', () => {});

  test.each([[1, 1], [2, 2]])('keeps %i', (a, b) => {
    expect(clamp(a)).toBe(b);
  });

  test.each`
    a    | b
    ${1} | ${1}
  `('table $a', ({ a, b }) => {});

  describe('edges', () => {
    it('rounds down', () => {});
    it.todo('handles NaN');
  });

  it('rounds down', () => {});
});

it(`top level ${'x'}`, async () => {});
"""


def test_jest_file() -> None:
    found = units(JEST, ".ts")
    assert _roles(found) == [
        ("pragma @jest-environment", COLLECTION),
        ("import clamp from ../src/clamp", SUPPORT),
        ("import db from ./db", SUPPORT),
        ("import ./setup-globals", COLLECTION),
        ("statement jest.mock ./db", COLLECTION),
        ("const LIMIT", SUPPORT),
        ("const spy", SUPPORT),
        ("const server", COLLECTION),
        ("beforeAll", COLLECTION),
        ("describe clamp", SUPPORT),
        ("let clamp > calls", SUPPORT),
        ("beforeEach clamp", COLLECTION),
        ("afterEach clamp", COLLECTION),
        ("it clamp > rounds down", CASE),
        ("it clamp > rounds up", CASE),
        ("test clamp > keeps %i", CASE),
        ("test clamp > table $a", CASE),
        ("describe clamp > edges", SUPPORT),
        ("it clamp > edges > rounds down", CASE),
        ("it clamp > edges > handles NaN", CASE),
        ("it clamp > rounds down #2", CASE),
        ("it `top level ${'x'}`", CASE),
    ]
    by_key = {u.key: u for u in found}
    assert by_key["import clamp from ../src/clamp"].binds == ("clamp",)
    assert by_key["import clamp from ../src/clamp"].code == "import { clamp } from '../src/clamp'"
    assert by_key["import db from ./db"].binds == ("db",)
    assert by_key["it clamp > rounds down"].code == (
        "it('rounds down', () => {\n    expect(clamp(1.5)).toBe(1);\n  });"
    )
    assert by_key["it clamp > rounds down"].line == 21
    assert by_key["it clamp > rounds down"].name == "clamp > rounds down"
    assert by_key["it clamp > rounds down #2"].code == "it('rounds down', () => {});"
    assert by_key["it clamp > rounds down #2"].line == 41
    # the describe is its call without the body: `.skip` on it changes this unit
    assert by_key["describe clamp"].code == "describe('clamp', () => {});"
    assert by_key["describe clamp > edges"].code == "describe('edges', () => {});"


def test_skipping_a_describe_or_a_test_keeps_the_key_and_changes_the_code() -> None:
    base = {u.key: u.code for u in units(JEST, ".ts")}
    head = JEST.replace("describe('clamp'", "describe.skip('clamp'").replace(
        "it('rounds down', () => {\n    expect", "xit('rounds down', () => {\n    expect"
    )
    after = {u.key: u.code for u in units(head, ".ts")}
    assert base.keys() == after.keys()
    changed = sorted(k for k in base if base[k] != after[k])
    assert changed == ["describe clamp", "it clamp > rounds down"]


VITEST = """\
import { describe, it, expect, vi, beforeEach, test } from 'vitest';
import type { Config } from './config';

vi.mock('./net');
vi.stubGlobal('fetch', vi.fn());

interface Row { id: number }
type Pair = [number, number];
enum Mode { A, B = 2 }
enum Live { C = compute() }

describe.concurrent('net', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  it.concurrent('fetches', async ({ expect }) => {});
  test.skipIf(process.env.CI)('local only', () => {});
  test.for([1, 2])('n=%i', (n) => {});
  it.only('focused', () => {});
  bench('speed', () => {});
});

describe.only('focused suite', () => {
  it('inside', () => {});
});

export const helper = (x: number): number => x + 1;
export default {};
"""


def test_vitest_file() -> None:
    found = units(VITEST, ".ts")
    assert _roles(found) == [
        ("import describe from vitest", SUPPORT),
        ("import it from vitest", SUPPORT),
        ("import expect from vitest", SUPPORT),
        ("import vi from vitest", SUPPORT),
        ("import beforeEach from vitest", SUPPORT),
        ("import test from vitest", SUPPORT),
        ("import Config from ./config", SUPPORT),
        ("statement vi.mock ./net", COLLECTION),
        ("statement vi.stubGlobal fetch", COLLECTION),
        ("interface Row", SUPPORT),
        ("type Pair", SUPPORT),
        ("enum Mode", SUPPORT),
        ("enum Live", COLLECTION),
        ("describe net", SUPPORT),
        ("beforeEach net", COLLECTION),
        ("it net > fetches", CASE),
        # the condition is read when the file loads, from the platform alone
        # (gate.drift.js.pure): no code of the project runs
        ("test net > local only", CASE),
        ("test net > n=%i", CASE),
        ("it net > focused", COLLECTION),
        ("bench net > speed", CASE),
        ("describe focused suite", COLLECTION),
        ("it focused suite > inside", CASE),
        ("export const helper", SUPPORT),
        ("export default", SUPPORT),
    ]
    by_key = {u.key: u for u in found}
    assert by_key["import vi from vitest"].binds == ("vi",)
    assert by_key["import Config from ./config"].code == "import type { Config } from './config'"
    assert by_key["export const helper"].binds == ("helper",)


MOCHA = """\
'use strict';
const assert = require('assert');
const { expect } = require('chai');
const sinon = require('sinon');

describe('Array', function () {
  this.timeout(5000);
  before(function () {});
  after(function () {});

  context('#indexOf()', function () {
    specify('returns -1', function () {
      assert.equal([1, 2, 3].indexOf(4), -1);
    });
    xit('pending', function () {});
  });
});

suite('TDD', function () {
  setup(function () {});
  teardown(function () {});
  suiteSetup(function () {});
  test('works', function () {});
});

module.exports = { helper: 1 };
Object.defineProperty(globalThis, 'x', { get() { return 1; } });
sinon.stub(Math, 'random').returns(0);
"""


def test_mocha_file() -> None:
    assert _roles(units(MOCHA, ".js")) == [
        ("statement 'use strict'", COLLECTION),
        ("const assert", SUPPORT),
        ("const expect", SUPPORT),
        ("const sinon", SUPPORT),
        ("describe Array", SUPPORT),
        ("statement Array > this.timeout", COLLECTION),
        ("before Array", COLLECTION),
        ("after Array", COLLECTION),
        ("context Array > #indexOf()", SUPPORT),
        ("specify Array > #indexOf() > returns -1", CASE),
        ("it Array > #indexOf() > pending", CASE),
        ("suite TDD", SUPPORT),
        ("setup TDD", COLLECTION),
        ("teardown TDD", COLLECTION),
        ("suiteSetup TDD", COLLECTION),
        ("test TDD > works", CASE),
        ("statement module.exports =", COLLECTION),
        ("statement Object.defineProperty", COLLECTION),
        ("statement sinon.stub(Math, 'random').returns", COLLECTION),
    ]


NODE_TEST = """\
import test, { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';

test('top', async (t) => {
  await t.test('sub', () => {});
  mock.method(Math, 'random');
});

for (const n of [1, 2]) {
  test(`loop ${n}`, () => {});
}

[1, 2].forEach((n) => it(`each ${n}`, () => {}));
"""


def test_node_test_file() -> None:
    found = units(NODE_TEST, ".mjs")
    assert _roles(found) == [
        ("import test from node:test", SUPPORT),
        ("import describe from node:test", SUPPORT),
        ("import it from node:test", SUPPORT),
        ("import mock from node:test", SUPPORT),
        ("import assert from node:assert/strict", SUPPORT),
        ("test top", CASE),  # t.test and mock calls inside run with the test
        ("loop for (const n of [1, 2])", SUPPORT),  # a loop over a literal table
        ("test for (const n of [1, 2]) > `loop ${n}`", CASE),
        ("loop [1, 2].forEach(n)", SUPPORT),
        ("it [1, 2].forEach(n) > `each ${n}`", CASE),
    ]
    assert [u.binds for u in found[:4]] == [("test",), ("describe",), ("it",), ("mock",)]


AVA_TEST = """\
import test from 'ava';
import withServer from './helpers/with-server.js';

test.before(async () => {});

test('works', withServer, async (t, server) => {
  t.is(await server.get('/'), 'ok');
});

test.serial('one at a time', async (t) => {
  t.pass();
});

test.failing('known bug', (t) => {
  t.fail();
});
"""


def test_ava_file() -> None:
    """AVA's `test` is imported from `ava`: its calls are cases, a macro
    argument that is a plain name included; its hooks run at collection."""
    assert _roles(units(AVA_TEST, ".ts")) == [
        ("import test from ava", SUPPORT),
        ("import withServer from ./helpers/with-server.js", SUPPORT),
        ("statement test.before", COLLECTION),
        ("test works", CASE),
        ("test one at a time", CASE),
        ("test known bug", CASE),
    ]


def test_a_test_bound_from_another_module_is_no_case() -> None:
    """`test` from a module that is no runner (here a look-alike of AVA's
    name) runs whatever it likes when the file loads."""
    found = units(AVA_TEST.replace("from 'ava'", "from 'ava-like'"), ".ts")
    assert [role for _, role in _roles(found)][3:] == [COLLECTION] * 3


@pytest.mark.parametrize(
    ("statement", "role"),
    [
        # definitions
        ("const a = 1, b = 'x', c = `y`, d = null, e = /re/g;", SUPPORT),
        ("const f = () => evil(), g = function () { evil(); };", SUPPORT),
        ("const h = { a: 1, b: [2, 3], m() { evil(); }, get x() { return evil(); } };", SUPPORT),
        ("const i = 60 * 1000, j = -1, k = !x, l = typeof y;", SUPPORT),
        ("const m = x as unknown as number, n = y!, o = { a: 1 } satisfies object;", SUPPORT),
        ("let p: number;", SUPPORT),
        ("const { q, r: [s] } = require('q');", SUPPORT),
        ("const t = require('t').u.v;", SUPPORT),
        ("const w = jest.fn(() => 1);", SUPPORT),
        ("class A extends B { static x = 1; y = evil(); m() { evil(); } }", SUPPORT),
        ("function helper() { evil(); }", SUPPORT),
        ("declare const ambient: number;", SUPPORT),
        ("const a = 4 * 1024 * 1024;", SUPPORT),  # arithmetic on literals calls nothing
        ("const a = -(1 << 20);", SUPPORT),
        ("const a = 'x' + 1 + ('y' + 2);", SUPPORT),
        ("declare function f(): void;", SUPPORT),
        ("export { a as b };", SUPPORT),
        ("export * from './x';", SUPPORT),
        # code that runs when the file loads
        ("const a = evil();", COLLECTION),
        ("const a = new Map();", COLLECTION),
        ("const a = await load();", COLLECTION),
        ("const a = obj.prop;", COLLECTION),  # a getter
        ("const a = obj['prop'];", COLLECTION),
        ("const a = [...items];", COLLECTION),  # an iterator
        ("const a = { ...other };", COLLECTION),  # getters
        ("const { a } = other;", COLLECTION),  # getters
        ("const [a] = other;", COLLECTION),  # an iterator
        ("const { a = evil() } = require('x');", COLLECTION),
        ("const a = x + 1;", COLLECTION),  # valueOf
        ("const a = 4 * 1024 * x;", COLLECTION),
        ("const a = -(1 + x);", COLLECTION),
        ("const a = (1 + {}) * 2;", COLLECTION),  # toString
        ("const a = 1 + ('x' in proxy);", COLLECTION),
        ("const a = -x;", COLLECTION),
        ("const a = `${x}`;", COLLECTION),  # toString
        ("const a = (globalThis.fetch = fake);", COLLECTION),
        ("const a = x++;", COLLECTION),
        ("const a = delete globalThis.fetch;", COLLECTION),
        ("const a = jest.fn(evil());", COLLECTION),
        ("const a = jest.spyOn(Math, 'random');", COLLECTION),
        ("const a = 'x' in proxy;", COLLECTION),
        ("const a = tag`x`;", COLLECTION),
        ("const a = import('x');", COLLECTION),
        ("const a = require(name);", COLLECTION),
        ("const a = class { static { evil(); } };", COLLECTION),
        ("class A { static x = evil(); }", COLLECTION),
        ("class A { [evil()]() {} }", COLLECTION),
        ("class A extends mixin(B) {}", COLLECTION),
        ("@decorate class A {}", COLLECTION),
        ("class A { @decorate m() {} }", COLLECTION),
        ("namespace N { evil(); }", COLLECTION),
        ("export default evil();", COLLECTION),
        ("export const a = evil();", COLLECTION),
        ("if (x) { it('hidden', () => {}); }", COLLECTION),
        ("try { evil(); } catch {}", COLLECTION),
        ("globalThis.x = 1;", COLLECTION),
        ("process.env.X = '1';", COLLECTION),
        ("x += 1;", COLLECTION),
        ("expect.extend({});", COLLECTION),
        ("jest.setTimeout(1000);", COLLECTION),
        ("using r = open();", COLLECTION),
        # a test whose arguments run code when the file loads
        ("it((globalThis.x = 1, 'sneaky'), () => {});", COLLECTION),
        ("it(name(), () => {});", COLLECTION),
        ("it(`${evil()}`, () => {});", COLLECTION),
        ("it('x', wrap(() => {}));", COLLECTION),
        ("it('x', () => {}, evil());", COLLECTION),
        ("test.each(makeCases())('x %s', () => {});", COLLECTION),
        ("describe('d', (a = evil()) => {});", COLLECTION),
        ("describe(evil(), () => {});", COLLECTION),
        ("describe('d', suiteBody);", COLLECTION),
        ("describe('d', () => it('x', () => {}));", COLLECTION),
        ("fit('x', () => {});", COLLECTION),
        ("fdescribe('d', () => {});", COLLECTION),
        ("test.only.each([1])('x', () => {});", COLLECTION),
        # a test whose arguments only define
        ("it('x', () => { evil(); });", CASE),
        ("it('x', helperFn);", CASE),
        ("it('x', { timeout: 10 }, () => {});", CASE),
        ("it('x', () => {}, 5000);", CASE),
        ("test.each(cases)('x %s', () => {});", CASE),
        ("it.todo('later');", CASE),
        ("test.failing('x', () => {});", CASE),
        ("it.fails('x', () => {});", CASE),
        # not a runner call: an unknown modifier or root
        ("it.evil('x', () => {});", COLLECTION),
        ("myTest('x', () => {});", COLLECTION),
        ("it?.('x', () => {});", COLLECTION),
    ],
)
def test_statement_roles(statement: str, role: str) -> None:
    found = units(statement + "\n", ".ts")
    assert len(found) == 1, found
    assert (found[0].role, found[0].code) == (role, statement)


def test_rebinding_a_runner_name_is_seen_in_binds() -> None:
    found = units(
        "import { it } from './fake';\nconst test = (n, f) => {};\nfunction describe() {}\n",
        ".ts",
    )
    assert [u.binds for u in found] == [("it",), ("test",), ("describe",)]
    assert [u.role for u in found] == [SUPPORT, SUPPORT, SUPPORT]


@pytest.mark.parametrize(
    "definition",
    [
        "function it(name, fn) { fn(); }",
        "const it = (name, fn) => fn();",
        "import { it } from './fake-runner';",
        "const { it } = require('./fake-runner');",
        "describe('d', () => { var it = run; });",
    ],
)
def test_a_runner_name_the_file_defines_is_not_a_test(definition: str) -> None:
    """`it(...)` calling the file's own `it` runs its callback when the file
    loads: not a CASE, wherever the definition is."""
    text = "it('x', () => { globalThis.fetch = fake; });\n" + definition + "\n"
    found = units(text, ".ts")
    assert (found[0].key, found[0].role) == ("statement it x", COLLECTION)


@pytest.mark.parametrize(
    ("definition", "roles"),
    [
        ("function require(name) { globalThis.fetch = fake; }", [COLLECTION, SUPPORT]),
        ("const jest = { fn() { globalThis.fetch = fake; } };", [SUPPORT, COLLECTION]),
        ("const unrelated = 1;", [SUPPORT, SUPPORT]),
    ],
)
def test_a_shadowed_require_or_jest_runs_code(definition: str, roles: list[str]) -> None:
    text = definition + "\nconst a = require('a');\nconst b = jest.fn();\n"
    assert [u.role for u in units(text, ".js")][1:] == roles


def test_runner_imports_keep_runner_names() -> None:
    for imported in (
        "import { it, describe, beforeEach, vi } from 'vitest';",
        "import { jest, it } from '@jest/globals';",
        "const { it, describe } = require('mocha');",
        "import test, { it } from 'node:test';",
        "const test = require('node:test');",
    ):
        found = units(imported + "\nit('x', () => {});\ntest('y', () => {});\n", ".ts")
        roles = [u.role for u in found]
        assert roles[-2:] == [CASE, CASE] and set(roles[:-2]) == {SUPPORT}, imported


@pytest.mark.parametrize("word", ["const", "let", "var"])
def test_a_destructuring_require_is_a_unit_a_name(word: str) -> None:
    """As for an import: each name taken from `require('x')` is its own
    unit, spelled canonically, so taking one more leaves the others."""
    text = f'{word} {{Agent,  Pool: P2}} = require("../index.js")\n'
    found = units(text, ".js")
    assert [(u.key, u.code, u.role, u.binds) for u in found] == [
        (f"{word} Agent", f"{word} {{ Agent }} = require('../index.js')", SUPPORT, ("Agent",)),
        (f"{word} P2", f"{word} {{ Pool: P2 }} = require('../index.js')", SUPPORT, ("P2",)),
    ]
    one = units(f"{word} {{ Agent }} = require('../index.js')\n", ".js")
    assert one[0].code == found[0].code


@pytest.mark.parametrize(
    "statement",
    [
        "const { a = evil() } = require('x');",  # a default runs code
        "const { a: { b } } = require('x');",
        "const { a, ...rest } = require('x');",
        "const { [key]: a } = require('x');",
        "const { a } = require('x').y;",  # a getter
        "const { a }: T = require('x');",
        "const { a } = require('x'), { b } = require('y');",
        "const { a, /* b */ } = require('x');",
    ],
)
def test_other_destructurings_stay_one_statement(statement: str) -> None:
    assert len(units(statement + "\n", ".ts")) == 1


def test_a_shadowed_require_is_not_split() -> None:
    text = "const require = (m) => globalThis[m];\nconst { a, b } = require('x');\n"
    found = units(text, ".js")
    assert [(u.key, u.role) for u in found] == [
        ("const require", SUPPORT),
        ("const a, b", COLLECTION),
    ]


def test_grammar_by_suffix() -> None:
    jsx = "it('renders', () => { render(<App a={1} />); });\n"
    assert [u.role for u in units(jsx, ".jsx")] == [CASE]
    assert [u.role for u in units(jsx, ".tsx")] == [CASE]
    with pytest.raises(Unparsable):
        units(jsx, ".ts")  # `<App` is a type assertion in .ts
    typed = "it('x', () => { const n: number = <number>y; });\n"
    assert [u.role for u in units(typed, ".ts")] == [CASE]
    for suffix in (".js", ".mjs", ".cjs", ".JS"):
        # a type annotation in a JavaScript file is Flow's: read as TSX once more
        assert [u.role for u in units("let n: number = 1;\n", suffix)] == [SUPPORT]
        with pytest.raises(Unparsable, match="javascript grammar"):
            units("let n = <number>y;\n", suffix)  # neither grammar reads a cast here
    with pytest.raises(Unparsable, match=r"'\.py'"):
        units("x = 1\n", ".py")


@pytest.mark.parametrize(
    "text",
    [
        "it('x', () => {\n",
        "it('x', () => {});\n)\n",
        "describe('d', () => {\n  it('x', () => {});\n",
        "const = 1;\n",
        "it('x' () => {});\n",
        "it('unterminated, () => {});\n",
    ],
)
def test_syntax_errors_are_unparsable(text: str) -> None:
    with pytest.raises(Unparsable, match="syntax error at line"):
        units(text, ".ts")


def test_not_utf8_is_unparsable() -> None:
    text = b"it('\xff', () => {});\n".decode("utf-8", errors="surrogateescape")
    with pytest.raises(Unparsable, match="not UTF-8"):
        units(text, ".js")


def test_deep_describes_are_unparsable() -> None:
    depth = 80
    text = "describe('d', () => {\n" * depth + "});\n" * depth
    with pytest.raises(Unparsable, match="nest more than"):
        units(text, ".js")
    text = "describe('d', () => {\n" * 30 + "it('x', () => {});\n" + "});\n" * 30
    assert units(text, ".js")[-1].key == "it " + " > ".join(["d"] * 30 + ["x"])


def test_deep_expression_is_fine() -> None:
    text = "const a = " + "[" * 3000 + "]" * 3000 + ";\n"
    assert [u.role for u in units(text, ".js")] == [SUPPORT]


def test_line_numbers_follow_the_gates_lines() -> None:
    # a lone \\r ends a line for the gate (gate.base.text.lines) and for JavaScript
    text = "const a = 1;\rit('x', () => {});\r\nit('y', () => {});\n"
    assert [u.line for u in units(text, ".js")] == [1, 2, 3]


# --- generated files ---

_TITLE_CHARS = st.characters(
    blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\u2028\u2029"
)
_TITLES = st.text(_TITLE_CHARS | st.sampled_from("'\"`\\${}> #"), max_size=12)
_QUOTES = st.sampled_from(["'", '"', "`", "`sub"])


def _literal(title: str, quote: str) -> tuple[str, str]:
    """JS source for a title and the title part of its key."""
    escaped = title.replace("\\", "\\\\")
    if quote in ("'", '"'):
        escaped = escaped.replace(quote, "\\" + quote)
        return f"{quote}{escaped}{quote}", escaped
    escaped = escaped.replace("`", "\\`").replace("$", "\\$")
    source = f"`{escaped}${{'x'}}`" if quote == "`sub" else f"`{escaped}`"
    return source, source


class _Gen:
    """Builds a file of tests, describes and hooks and what units it must give."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.tests: list[tuple[str, str]] = []  # (key without #n, code)
        self.slots: list[int] = []  # where a statement may go: between units
        self.test_lines: list[int] = []  # the entry of each test in `lines`
        self.describe_lines: list[int] = []  # the opening entry of each describe

    def emit(self, data: st.DataObject, path: tuple[str, ...], depth: int) -> None:
        for _ in range(data.draw(st.integers(0, 4))):
            self.slots.append(len(self.lines))
            kind = data.draw(st.sampled_from(["test", "test", "describe", "hook", "const"]))
            indent = "  " * depth
            if kind == "test" or (kind == "describe" and depth >= 3):
                fn = data.draw(
                    st.sampled_from(
                        ["it", "test", "it.skip", "test.concurrent", "test.each([[1]])"]
                    )
                )
                source, key = _literal(data.draw(_TITLES), data.draw(_QUOTES))
                body = data.draw(st.sampled_from(["", " expect(1).toBe(1); ", "\n" + indent]))
                code = f"{fn}({source}, () => {{{body}}});"
                self.test_lines.append(len(self.lines))
                self.lines.append(indent + code)
                self.tests.append((f"{fn.split('.')[0]} {' > '.join((*path, key))}", code))
            elif kind == "describe":
                source, key = _literal(data.draw(_TITLES), data.draw(_QUOTES))
                each = data.draw(st.sampled_from(["describe", "describe.each([1, 2])"]))
                self.describe_lines.append(len(self.lines))
                self.lines.append(f"{indent}{each}({source}, () => {{")
                self.emit(data, (*path, key), depth + 1)
                self.lines.append(indent + "});")
            elif kind == "hook":
                hook = data.draw(st.sampled_from(["beforeEach", "afterAll", "before"]))
                self.lines.append(f"{indent}{hook}(() => {{ setup(); }});")
            else:
                self.lines.append(f"{indent}const v{len(self.lines)} = {len(self.lines)};")
        self.slots.append(len(self.lines))


def _generated(data: st.DataObject) -> tuple[str, list[tuple[str, str]]]:
    gen = _Gen()
    gen.emit(data, (), 0)
    return "".join(line + "\n" for line in gen.lines), gen.tests


def _generator(data: st.DataObject) -> _Gen:
    gen = _Gen()
    gen.emit(data, (), 0)
    return gen


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_generated_tests_are_one_case_each(data: st.DataObject) -> None:
    text, tests = _generated(data)
    found = units(text, ".ts")
    keys = [u.key for u in found]
    assert len(set(keys)) == len(keys)
    cases = [u for u in found if u.role == CASE]
    assert Counter(u.code for u in cases) == Counter(code for _, code in tests)
    for unit, (key, code) in zip(cases, tests, strict=True):
        assert unit.code == code
        assert unit.key == key or unit.key.startswith(key + " #")
        assert text.splitlines()[unit.line - 1].strip() == code.splitlines()[0]
    # hooks are COLLECTION
    hooks = [u for u in found if u.key.split()[0] in ("beforeEach", "afterAll", "before")]
    assert all(u.role == COLLECTION for u in hooks)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_appending_a_test_keeps_every_unit(data: st.DataObject) -> None:
    text, _ = _generated(data)
    before = units(text, ".ts")
    source, _key = _literal(data.draw(_TITLES), data.draw(_QUOTES))
    added = f"it({source}, () => {{ expect(2).toBe(2); }});\n"
    after = units(text + added, ".ts")
    assert after[: len(before)] == before
    assert len(after) == len(before) + 1
    assert (after[-1].role, after[-1].code) == (CASE, added.strip())


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_crlf_and_bom_give_the_same_units(data: st.DataObject) -> None:
    text, _ = _generated(data)
    base = units(text, ".ts")
    crlf = units(text.replace("\n", "\r\n"), ".ts")
    assert [(u.key, u.role, u.line) for u in crlf] == [(u.key, u.role, u.line) for u in base]
    assert [u.code for u in crlf] == [u.code.replace("\n", "\r\n") for u in base]
    assert units("\ufeff" + text, ".ts") == base


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_broken_test_is_unparsable(data: st.DataObject) -> None:
    text, tests = _generated(data)
    if not tests:
        text, tests = "it('x', () => {});\n", [("it x", "it('x', () => {});")]
    _, code = tests[data.draw(st.integers(0, len(tests) - 1))]
    broken = code.removesuffix(");") + ";"  # the call's `)` removed
    with pytest.raises(Unparsable, match="syntax error"):
        units(text.replace(code, broken, 1), ".ts")


_EFFECTS = [
    "globalThis.fetch = fake;",
    "jest.mock('./x');",
    "vi.spyOn(Math, 'random');",
    "process.env.TZ = 'UTC';",
    "const leaked = setUp();",
    "Object.assign(globalThis, { x: 1 });",
    "it((globalThis.y = 2, 'title'), () => {});",
    "it.only('focus', () => {});",
    "beforeEach(() => {});",
]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_effects_anywhere_are_collection(data: st.DataObject) -> None:
    """An effect put at the top level or in any describe body is its own
    COLLECTION unit, never inside a CASE."""
    gen = _generator(data)
    lines = list(gen.lines)
    effect = data.draw(st.sampled_from(_EFFECTS))
    lines.insert(data.draw(st.sampled_from(gen.slots)), effect)
    found = units("\n".join(lines) + "\n", ".ts")
    hits = [u for u in found if effect in u.code]
    assert [u.code for u in hits] == [effect]
    assert hits[0].role == COLLECTION


def test_typescript_declarations_and_exports() -> None:
    text = """\
export default function main() {}
export = helper;
export import Alias = Space.Name;
declare global { var leaked: number }
declare module 'm' {}
namespace Space { export const Name = 1; }
export abstract class Base { abstract run(): void }
export type { Row } from './row';
function overload(a: string): void;
function overload(a: unknown) {}
"""
    assert [(u.key, u.role, u.binds) for u in units(text, ".ts")] == [
        ("export function main", SUPPORT, ("main",)),
        ("export default", SUPPORT, ()),
        ("export import Alias", SUPPORT, ("Alias",)),
        ("declare global", SUPPORT, ()),
        ("declare 'm'", SUPPORT, ()),
        ("namespace Space", COLLECTION, ("Space",)),
        ("export class Base", SUPPORT, ("Base",)),
        ("export './row'", SUPPORT, ()),
        ("function overload", SUPPORT, ("overload",)),
        ("function overload #2", SUPPORT, ("overload",)),
    ]


def test_pragmas_and_declarations_inside_describes() -> None:
    text = """\
describe('d', () => {
  /** @vitest-environment happy-dom */
  // an ordinary comment
  const fixture = { a: 1 };
  function helper() {}
  it('x', () => helper(fixture));
});
"""
    assert [(u.key, u.role, u.binds) for u in units(text, ".ts")] == [
        ("describe d", SUPPORT, ()),
        ("pragma d > @vitest-environment", COLLECTION, ()),
        ("const d > fixture", SUPPORT, ("fixture",)),
        ("function d > helper", SUPPORT, ("helper",)),
        ("it d > x", CASE, ()),
    ]


def test_many_repeats_of_one_title_are_linear() -> None:
    """20,000 tests of one title: keys #2 to #20000 in well under a second, not
    the minutes a quadratic search for a free number takes."""
    text = "it('x', () => {});\n" * 20_000 + "it('x #3', () => {});\n"
    found = units(text, ".js")
    keys = [u.key for u in found]
    assert len(set(keys)) == len(keys) == 20_001
    assert keys[:3] == ["it x", "it x #2", "it x #3"]
    assert keys[-1] == "it x #3 #2"  # `it x #3` was taken by a repeat


_TEST_EDITS = [
    lambda code: code.replace("() => {", "() => { evil();", 1),
    lambda code: code.replace("(", ".skip(", 1),
    lambda code: code.replace("(", ".only(", 1),
    lambda code: "x" + code if code.startswith("it") else code.replace("test", "it", 1),
    lambda code: code.removesuffix(");") + ", 5000);",
]


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_editing_a_test_or_its_describe_changes_a_unit(data: st.DataObject) -> None:
    """No edit of an existing test, or of a describe around it, leaves every
    base unit's key and code in place: the comparison always sees it."""
    gen = _generator(data)
    if not gen.test_lines:
        return
    before = units("".join(line + "\n" for line in gen.lines), ".ts")
    lines = list(gen.lines)
    if gen.describe_lines and data.draw(st.booleans()):
        where = data.draw(st.sampled_from(gen.describe_lines))
        lines[where] = lines[where].replace("describe", "describe.skip", 1)
    else:
        where = data.draw(st.sampled_from(gen.test_lines))
        indent = lines[where][: len(lines[where]) - len(lines[where].lstrip())]
        lines[where] = indent + data.draw(st.sampled_from(_TEST_EDITS))(lines[where].lstrip())
    after = units("".join(line + "\n" for line in lines), ".ts")
    assert {(u.key, u.code) for u in before} - {(u.key, u.code) for u in after}


def test_vitest_fixtures_keep_tests_cases() -> None:
    text = """\
import { test as baseTest, it as baseIt, expect } from 'vitest';

const test = baseTest.extend({ db: async ({}, use) => { await use(open()); } });
const myIt = baseIt.extend({ a: 1 }).extend({ b: [undefined, { injected: true }] });
const sneaky = baseTest.extend(makeFixtures());

test('uses db', ({ db }) => {});
myIt('uses a', ({ a }) => {});
baseTest('plain', () => {});
sneaky('x', () => {});
"""
    assert [(u.key, u.role) for u in units(text, ".ts")] == [
        ("import baseTest from vitest", SUPPORT),
        ("import baseIt from vitest", SUPPORT),
        ("import expect from vitest", SUPPORT),
        ("const test", SUPPORT),
        ("const myIt", SUPPORT),
        ("const sneaky", COLLECTION),
        ("test uses db", CASE),
        ("it uses a", CASE),
        ("test plain", CASE),
        ("statement sneaky x", COLLECTION),
    ]


def test_extend_of_a_name_not_from_a_runner_is_not_a_runner() -> None:
    text = "const test = fake.extend({});\ntest('x', () => {});\n"
    assert [u.role for u in units(text, ".ts")] == [COLLECTION, COLLECTION]


@settings(max_examples=50)
@given(
    extra=st.lists(
        st.from_regex(r"\An[a-z]{1,6}\Z", fullmatch=True), min_size=1, max_size=4, unique=True
    ),
    wrapped=st.booleans(),
)
def test_a_name_added_to_an_existing_import_changes_no_unit(
    extra: list[str], wrapped: bool
) -> None:
    """A new test usually imports one more name from the module under test:
    `import { clamp } from '../src/clamp'` gaining names (on one line or
    wrapped) keeps the units of the names already imported as they were;
    importing `clamp` from elsewhere changes its unit."""
    before = {(u.key, u.code) for u in units(JEST, ".ts")}
    names = ", ".join(["clamp", *extra])
    line = (
        "import {\n  " + names.replace(", ", ",\n  ") + ",\n}"
        if wrapped
        else "import { " + names + " }"
    )
    after = {(u.key, u.code) for u in units(JEST.replace("import { clamp }", line), ".ts")}
    assert before <= after
    moved = {
        (u.key, u.code) for u in units(JEST.replace("'../src/clamp'", "'../src/other'"), ".ts")
    }
    assert (
        "import clamp from ../src/clamp",
        "import { clamp } from '../src/clamp'",
    ) in before - moved


PLAYWRIGHT = """\
import { test, expect } from '@playwright/test';

test.describe('checkout', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
  });

  test('pays', async ({ page }) => {
    await expect(page).toHaveTitle('paid');
  });
});

test.describe.serial('steps', () => {
  test('one', async () => {});
});
"""


def test_playwrights_describe_and_hooks_are_members_of_its_test() -> None:
    """Playwright spells describe and its hooks as `test.describe(...)` and
    `test.beforeEach(...)`: a describe's body is opened into its tests."""
    found = units(PLAYWRIGHT, ".ts")
    assert [(u.key, u.role) for u in found if not u.key.startswith("import ")] == [
        ("describe checkout", SUPPORT),
        ("beforeEach checkout", COLLECTION),
        ("test checkout > pays", CASE),
        ("describe steps", SUPPORT),
        ("test steps > one", CASE),
    ]
    one = "test('one', async () => {});"
    added = PLAYWRIGHT.replace(one, f"{one}\n  test('two', async () => {{}});")
    drift = compare(found, units(added, ".ts"))
    assert drift.ok and drift.added == ("steps > two",), drift.summary()
    bent = PLAYWRIGHT.replace("'paid'", "'unpaid'")
    assert compare(found, units(bent, ".ts")).changed == ("checkout > pays",)


@pytest.mark.parametrize(
    "call",
    [
        "it.describe('x', () => {});",  # no runner's shape: one statement, as before
        "test.only.describe('x', () => {});",
        "test.beforeEach.skip(() => {});",
    ],
)
def test_other_member_shapes_stay_statements(call: str) -> None:
    found = units(f"{call}\n", ".ts")
    assert [u.role for u in found] == [COLLECTION]
    assert found[0].key.startswith("statement ")
