"""A new JS/TS test whose own arguments call what the base's tests already
call when the file loads (AVA's `test('x', withServer(), ...)`): a new
test, not collection-time code (gate.drift.js.loading.imported_calls,
`Unit.calls`)."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import compare
from gate.drift.js import units

LOUD = "new b runs at collection or changes what other tests see"

# How the file gets the callee `{f}`, and how a call spells it.
IMPORTS = [
    ("import {f} from './helpers/{f}.js';", "{f}"),
    ("import {{ {f} }} from './helpers/server.js';", "{f}"),
    ("import {{ make as {f} }} from './helpers/server.js';", "{f}"),
    ("import * as helpers from './helpers/index.js';", "helpers.{f}"),
    ("import * as helpers from './helpers/index.js';", "helpers.servers.{f}"),
    ("const {f} = require('./helpers/{f}');", "{f}"),
    ("const {{ {f} }} = require('./helpers');", "{f}"),
    ("const {{ {f}, other }} = require('./helpers');", "{f}"),
]
RUNNERS = [
    "import test from 'ava';",
    "const test = require('node:test');",
    "import { test } from 'vitest';",
]
# A base test that calls `{c}` in its own arguments.
AT_BASE = [
    "test('a', {c}(), async (t) => {{ t.pass(); }});",
    "test('a', {{ timeout: 5 }}, {c}(1), (t) => {{}});",
    "test(`a`, {c}({{ port: 0 }}), (t) => {{}});",
]
# The new test: the same callee, other arguments, maybe nested in a literal.
AGAIN = [
    "test('b', {c}(), async (t) => {{ t.pass(); }});",
    "test('b', {c}({{ https: true, n: [1, 'x'] }}), async (t) => {{}});",
    "test.serial('b', {c}(), (t) => {{}});",
    "test('b', [{c}(2)], (t) => {{}});",
    "test.skip('b', {c}(), (t) => {{}});",
]


def _drift(base: str, head: str, suffix: str = ".ts") -> str:
    found = compare(units(base, suffix), units(head, suffix))
    return "ok" if found.ok else found.summary()


def _assert_adds_b(base: str, head: str) -> None:
    """`head` adds the one new test `b` to `base`, and nothing drifts."""
    found = compare(units(base, ".ts"), units(head, ".ts"))
    assert found.ok and found.added == ("b",), found.summary()


def _file(runner: str, imported: str, body: str) -> str:
    return f"{runner}\n{imported}\n\n{body}\n"


@pytest.mark.parametrize(
    ("runner", "how", "at_base", "again"),
    [
        (runner, how, at_base, again)
        for (runner, how), at_base, again in itertools.product(
            itertools.product(RUNNERS, IMPORTS), AT_BASE, AGAIN
        )
    ],
)
def test_a_call_the_base_makes_at_load_may_be_made_again(
    runner: str, how: tuple[str, str], at_base: str, again: str
) -> None:
    imported, spelled = (part.format(f="withServer") for part in how)
    base = _file(runner, imported, at_base.format(c=spelled))
    head = base + again.format(c=spelled) + "\n"
    _assert_adds_b(base, head)


def test_several_callees_each_called_at_base() -> None:
    base = _file(
        RUNNERS[0],
        "import { withServer, makeAgent } from './helpers.js';",
        "test('a', withServer(), (t) => {});\ntest('c', new Agent(makeAgent()), (t) => {});"
        "\nimport { Agent } from './agent.js';",
    )
    head = base + "test('b', withServer(new Agent(makeAgent(1))), (t) => {});\n"
    _assert_adds_b(base, head)
    head = base + "test('b', withServer(makeOther()), (t) => {});\n"
    assert LOUD in _drift(base, head)


# (what the base also has, the new test): each stays collection-time code,
# however often the base's tests make the same call.
STILL_LOUD = [
    # the base makes it nowhere at load, only inside a test's body
    ("import { other } from './h.js';", "test('b', other(), (t) => {});"),
    # a function or class the file defines itself, or binds again
    ("function made() { return 1; }", "test('b', made(), (t) => {});"),
    ("import { made } from './h.js';\nmade = () => 2;", "test('b', made(), (t) => {});"),
    ("import { made } from './h.js';\nlet made2 = made;", "test('b', made2(), (t) => {});"),
    # Node's own modules, the runners' and the mocking libraries'
    ("import fs from 'node:fs';", "test('b', fs.readFileSync('x'), (t) => {});"),
    ("import { mkdirSync } from 'fs';", "test('b', mkdirSync('x'), (t) => {});"),
    ("const cp = require('child_process');", "test('b', cp.execSync('x'), (t) => {});"),
    ("import sinon from 'sinon';", "test('b', sinon.useFakeTimers(), (t) => {});"),
    ("import nock from 'nock';", "test('b', nock('http://x'), (t) => {});"),
    # a writing method, a method of a call's result, a tagged template
    ("import { REG } from './h.js';", "test('b', REG.push(1), (t) => {});"),
    ("import { made } from './h.js';", "test('b', made().build(), (t) => {});"),
    ("import { made } from './h.js';", "test('b', made`x`, (t) => {});"),
    # a computed member, a require of a computed name, a require of its own
    ("import * as h from './h.js';", "test('b', h['made'](), (t) => {});"),
    ("const made = require('./' + 'h');", "test('b', made(), (t) => {});"),
    (
        "import { createRequire } from 'node:module';\nconst require = createRequire('x');\n"
        "const made = require('./h');",
        "test('b', made(), (t) => {});",
    ),
    # a focused test runs alone, whatever its arguments
    ("import { made } from './h.js';", "test.only('b', made(), (t) => {});"),
    # code of the file's handed to the callee, which may call it at load
    ("import { made } from './h.js';", "test('b', made(() => evil()), (t) => {});"),
    ("import { made } from './h.js';", "test('b', made({ f() { evil(); } }), (t) => {});"),
    ("import { made } from './h.js';", "test('b', made({ cls: class {} }), (t) => {});"),
    ("import { made } from './h.js';\nfunction hook() {}", "test('b', made(hook), (t) => {});"),
    ("import { made } from './h.js';\nconst cfg = {};", "test('b', made({ cfg }), (t) => {});"),
]


@pytest.mark.parametrize(("extra", "added"), STILL_LOUD)
def test_other_calls_at_load_stay_drift(extra: str, added: str) -> None:
    """The base's tests make every call of STILL_LOUD in their arguments;
    the new test is still collection-time code (or, focused, drift)."""
    calls = [
        "other()",
        "made()",
        "made2()",
        "fs.readFileSync('x')",
        "mkdirSync('x')",
        "cp.execSync('x')",
        "sinon.useFakeTimers()",
        "nock('http://x')",
        "REG.push(1)",
        "made().build()",
        "h['made']()",
    ]
    at_base = "\n".join(f"test('a{i}', {call}, (t) => {{}});" for i, call in enumerate(calls))
    at_base = at_base.replace("other()", "(t) => { other(); }")
    base = _file(RUNNERS[0], extra, at_base)
    head = base + added + "\n"
    found = _drift(base, head)
    assert LOUD in found or "new b" in found, found


def test_a_new_file_calling_at_load_still_reaches_other_tests() -> None:
    """A new file has no base to compare with: its calls at load stay
    collection-time code (Mocha loads every file into one process; an AVA
    file's stay in its worker: test_js_isolated.py; a Vitest file's in its
    own module registry: test_js_registry.py)."""
    from gate.drift import reaching

    head = _file(RUNNERS[1], "import { withServer } from './h.js';", IMPORTS_AGAIN)
    assert [u.name for u in reaching("test/new.ts", units(head, ".ts"))] == ["b"]


IMPORTS_AGAIN = "test('b', withServer(), (t) => {});"


def test_a_script_whose_names_are_unknown_keeps_the_call_as_code() -> None:
    """No import and no string `require`: the names are the global
    object's, so a call of one is code."""
    base = "test('a', withServer(), (t) => {});\n"
    head = base + "test('b', withServer(), (t) => {});\n"
    assert LOUD in _drift(base, head, ".js")


def test_a_name_the_base_hands_the_same_callee_may_be_handed_again() -> None:
    """The file's own `handler`, handed to `withServer` as a base test
    hands it: a new test that does the same is a new test; a changed
    `handler` is a changed unit; a name no base test hands is new code."""
    base = _file(
        RUNNERS[0],
        "import { withServer } from './h.js';",
        "function handler(request) { return 1; }\nconst other = () => 2;\n"
        "test('a', withServer({ handler }), (t) => {});",
    )
    head = base + "test('b', withServer({ handler, port: 1 }), (t) => {});\n"
    _assert_adds_b(base, head)
    changed = head.replace("return 1;", "return 3;")
    assert "handler changed" in _drift(base, changed)
    for added in ("withServer({ handler: other })", "withServer({ handler: () => 3 })"):
        head = base + f"test('b', {added}, (t) => {{}});\n"
        assert LOUD in _drift(base, head), added
