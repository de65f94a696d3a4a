"""A new Jest or Vitest test file has a module registry of its own: its
load-time code, hooks and describe-scoped `let`s stay in the file, and only
writes that escape it reach the tests of other files
(gate.drift.js.own_registry, gate.drift.js.writes.Escapes)."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import reaching
from gate.drift.js import units

# How a file says its runner gives it a registry of its own.
REGISTRY = [
    ("import { describe, it, beforeEach, afterEach, expect, vi } from 'vitest';", "vi", ".ts"),
    ("import { describe, it, beforeEach, afterEach, vi } from 'vitest';", "vi", ".mts"),
    (
        "import { describe, it, beforeEach, afterEach, jest } from '@jest/globals';",
        "jest",
        ".ts",
    ),
    ("const { helper } = require('./helper');", "jest", ".js"),  # Jest's globals
]
# A runner that loads every file into one process (Mocha, node:test).
SHARED = [
    ("import { describe, it, beforeEach, afterEach } from 'mocha';", ".ts"),
    ("const { describe, it, beforeEach, afterEach } = require('node:test');", ".js"),
]
# A new file's own business under such a runner.
OWN = [
    # F-DESCRIBE-LET: a describe's `let`s filled by its hooks and tests
    "describe('X', () => {\n  let transport;\n  let stored;\n"
    "  beforeEach(async () => { stored = new Map(); transport = makeTransport(); });\n"
    "  afterEach(() => { if (transport) transport.close(); });\n"
    "  it('a', () => { transport = makeTransport(); });\n});",
    "describe('r', () => {\n  let dir;\n  afterEach(() => { if (dir) rmSync(dir); });\n"
    "  it('x', () => { dir = mkdtempSync('x'); });\n});",
    # F-NEWFILE-TOPLEVEL: values computed by calls, spreads, mocks
    "const info = { token: 'x', expiresAt: Date.now() / 1000 + 3600 };\nit('a', () => {});",
    "const migration = getMigration('v1-to-v2');\nit('a', () => {});",
    "describe('d', () => {\n  const S = z.object({ q: z.string() });\n"
    "  const bad = { ...info, x: { ...info } };\n  it('a', () => {});\n});",
    "{m}.mock('../src/x', () => ({ f: {m}.fn() }));\nit('a', () => {});",
    "const h = {m}.hoisted(() => ({ f: {m}.fn() }));\nit('a', () => {});",
    "beforeEach(() => { {m}.resetModules(); });\nit('a', () => {});",
    # F-FRESH-ASSIGN: Object.assign into a fresh object
    "function req(init) {\n  return Object.assign(Readable.from([init.body]), { m: init.m });\n}\n"
    "it('a', () => { req({}); });",
    "const opts = Object.assign({}, base, { x: 1 });\nit('a', () => {});",
    "const o = new Map();\no.extra = 1;\nit('a', () => {});",
]
# Writes that escape the file, however a runner isolates its modules.
ESCAPES = [
    "globalThis.bent = 1;",
    "global.bent = 1;",
    "window['bent'] = 1;",
    "process.env.BENT = '1';",
    "process.env['BENT'] = '1';",
    "delete process.env.HOME;",
    "process.chdir('/');",
    "Object.defineProperty(globalThis, 'bent', { value: 1 });",
    "Object.assign(globalThis, { bent: 1 });",
    "Object.assign(process.env, { BENT: '1' });",
    "Object.assign(helper, { bent: 1 });",
    "Reflect.set(globalThis, 'bent', 1);",
    "Array.prototype.bent = function () {};",
    "String.prototype.trim = () => '';",
    "helper.bent = 1;",
    "const g = globalThis; g.bent = 1;",
    "const e = process.env; e.BENT = '1';",
    "const { env } = process; env.BENT = '1';",
    "const g = Object(globalThis); g.bent = 1;",
    "patch(globalThis);",
    "patch(process.env);",
    "{m}.stubGlobal('fetch', {m}.fn());",
    "{m}.spyOn(globalThis, 'fetch');",
    "{m}.spyOn(helper, 'run');",
    "bent = 1;",  # an implicit global
    "eval('x');",
]
# Of those, the writes into `process.env` alone, which Jest gives each test
# file a copy of (test_js_own_env.py): they reach the others under Vitest.
INTO_ENV = frozenset(
    {
        "process.env.BENT = '1';",
        "process.env['BENT'] = '1';",
        "delete process.env.HOME;",
        "Object.assign(process.env, { BENT: '1' });",
        "patch(process.env);",
    }
)
# Where the escaping write stands in the new file: at load, in a hook, in
# a describe's hook or body, in a helper the file calls at load.
PLACES = [
    "{code}\nit('a', () => {{}});",
    "beforeEach(() => {{ {code} }});\nit('a', () => {{}});",
    "describe('d', () => {{\n  beforeAll(() => {{ {code} }});\n  it('a', () => {{}});\n}});",
    "describe('d', () => {{\n  {code}\n  it('a', () => {{}});\n}});",
    "function helperOfFile() {{ {code} }}\nhelperOfFile();\nit('a', () => {{}});",
    "const helperOfFile = () => {{ {code} }};\n"
    "describe('d', () => {{\n  afterEach(() => helperOfFile());\n  it('a', () => {{}});\n}});",
]
# In a test's body, or a helper a test calls, a store through what is not the
# test's own, or a writer handed it, makes the test shared state
# (`Writes.shares`, test_js_writes.py); one that escapes the file reaches
# the others too.  (A method call such as `vi.spyOn(globalThis, ...)` in a
# test body is not seen there: any call may mutate.)
IN_TESTS = [c for c in ESCAPES if not c.startswith(("const", "patch", "{m}"))]
TEST_PLACES = [
    "describe('d', () => {{\n  it('a', () => {{ {code} }});\n}});",
    "function helperOfFile() {{ {code} }}\nit('a', () => {{ helperOfFile(); }});",
]


def _file(header: str, mocker: str, body: str) -> str:
    text = f"{header}\nimport {{ helper }} from './helper';\n{body.replace('{m}', mocker)}\n"
    return text.replace("import { helper } from './helper';\n", "") if "require" in header else text


@pytest.mark.parametrize(
    ("runner", "body"), list(itertools.product(REGISTRY, OWN)), ids=lambda x: str(x)[:40]
)
def test_a_new_files_own_business_reaches_no_other_file(
    runner: tuple[str, str, str], body: str
) -> None:
    header, mocker, suffix = runner
    if mocker != "jest" and "{m}" not in body and "jest" in header:
        pass
    text = _file(header, mocker, body)
    if mocker == "jest" and "require" in header and "{m}" not in body:
        text += "jest.setTimeout(5000);\n"  # a file that reads Jest's global
    found = units(text, suffix)
    assert [u.name for u in reaching(f"test/new{suffix}", found, configs={})] == []


@pytest.mark.parametrize(
    ("runner", "code", "place"),
    [
        *itertools.product(REGISTRY[:1] + REGISTRY[2:3], ESCAPES, PLACES),
        *itertools.product(REGISTRY[:1] + REGISTRY[2:3], IN_TESTS, TEST_PLACES),
    ],
    ids=lambda x: str(x)[:30],
)
def test_a_write_that_escapes_the_file_still_reaches_the_others(
    runner: tuple[str, str, str], code: str, place: str
) -> None:
    header, mocker, suffix = runner
    if mocker == "jest" and "stubGlobal" in code:
        code = code.replace("stubGlobal", "replaceProperty").replace(
            "'fetch', {m}.fn()", "globalThis, 'fetch', 1"
        )
    body = place.format(code=code)
    found = units(_file(header, mocker, body), suffix)
    if mocker == "jest" and code in INTO_ENV:
        assert reaching(f"test/new{suffix}", found) == ()
    else:
        assert reaching(f"test/new{suffix}", found), [(u.name, u.role, u.local) for u in found]


@pytest.mark.parametrize(("runner", "body"), list(itertools.product(SHARED, OWN[3:8])))
def test_load_time_code_of_a_new_mocha_file_still_reaches_the_others(
    runner: tuple[str, str], body: str
) -> None:
    """Mocha loads every file into one process and registry, and so does
    node:test with `--test-isolation=none` (by default it runs each file
    in a process of its own): a call at load may change a module the
    other files' tests import."""
    header, suffix = runner
    text = f"{header}\n{body.replace('{m}', 'sinon')}\n"
    assert reaching(f"test/new{suffix}", units(text, suffix), _others(header))


def _others(header: str) -> list[str]:
    """The change's other files: for node:test, one that runs every file in one process."""
    return ['"test": "node --test --test-isolation=none"'] if "node:test" in header else []


@pytest.mark.parametrize("runner", SHARED)
def test_a_describes_own_lets_stay_in_a_new_mocha_file(runner: tuple[str, str]) -> None:
    """A `let` declared in the file is the file's own under every runner: a
    hook inside a describe, and a test, that fill it reach no other file."""
    header, suffix = runner
    for body in OWN[:2]:
        text = f"{header}\n{body}\n"
        assert reaching(f"test/new{suffix}", units(text, suffix), configs={}) == ()
    hook = f"{header}\nlet s;\nbeforeEach(() => {{ s = 1; }});\nit('a', () => {{}});\n"
    found = reaching(f"test/new{suffix}", units(hook, suffix), _others(header))
    assert [u.name for u in found] == ["beforeEach"]


@pytest.mark.parametrize(
    "other",
    [
        "import { x } from './new.test';",
        "const m = require('../test/new.test.ts');",
        "export * from './new.test.js';",
        None,
        "import { x } from '../src/new';",  # the module under test, not the test
        "import { x } from './new.js';",
    ],
)
def test_a_new_vitest_file_another_file_loads_shares_its_registry(other: str | None) -> None:
    text = f"{REGISTRY[0][0]}\nvi.mock('../src/x');\nit('a', () => {{}});\n"
    found = units(text, ".ts")
    loads = other is not None and ".test" in other
    assert reaching("test/new.test.ts", found, [] if other is None else [other], configs={}) == (
        found[-2:-1] if loads else ()
    )
    assert reaching("test/new.test.ts", found, None), "other files unknown: shared"
