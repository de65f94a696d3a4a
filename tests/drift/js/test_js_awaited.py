"""An awaited test or describe call (`await test('x', ...)`, node:test's way
of running a file's tests one after another) is the same test or describe
as its unawaited form, under the same key (gate.drift.js.splitter
`Splitter.awaited`); and a new node:test file, which `node --test` runs in a
process of its own, keeps its load-time code that writes nothing outside the
file to itself (gate.drift.js.own_registry).

The shapes are microsoft/genaiscript's: `describe("X", async () => { const
client = X.default(); await test("a", async () => {...}); ... })`."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import CASE, COLLECTION, SUPPORT, compare, reaching
from gate.drift.js import units

IMPORTS = "import { describe, test, it, suite, beforeEach } from 'node:test';\n"
IMPORTS += "import assert from 'node:assert/strict';\nimport { Client } from './client';\n"

# Awaited calls, with the key and role of the unit the call is.
CALLS = [
    ("await test('adds', async () => { assert.equal(1 + 1, 2); });", "test", "adds", CASE),
    ("await it('adds', async () => { assert.equal(1 + 1, 2); });", "it", "adds", CASE),
    ("await test.skip('adds', async () => { assert.equal(1 + 1, 2); });", "test", "adds", CASE),
    (
        "await test('adds', async (t) => { await t.test('inner', () => { assert.ok(1); }); });",
        "test",
        "adds",
        CASE,
    ),
    (
        "await describe('group', async () => { await test('a', () => {}); });",
        "describe",
        "group",
        SUPPORT,
    ),
    ("await suite('group', async () => { await it('a', () => {}); });", "suite", "group", SUPPORT),
]


def _split(body: str, nested: bool) -> list[tuple[str, str]]:
    text = IMPORTS + (f"describe('outer', async () => {{\n{body}\n}});\n" if nested else body)
    return [(u.key, u.role) for u in units(text + "\n", ".ts")]


@pytest.mark.parametrize(("call", "nested"), list(itertools.product(CALLS, [False, True])))
def test_an_awaited_call_is_its_unawaited_form(
    call: tuple[str, str, str, str], nested: bool
) -> None:
    awaited, word, title, role = call
    found = _split(awaited, nested)
    assert found == _split(awaited.replace("await ", "", 1), nested)
    assert (f"{word} {'outer > ' if nested else ''}{title}", role) in found


def test_an_awaited_test_keeps_the_keys_of_the_files_unawaited_tests() -> None:
    """A base file of unawaited tests gains an awaited one: the old keys
    stand and their code is the same, the new one is a new test."""
    base = IMPORTS + "describe('d', () => {\n  test('a', () => { assert.ok(1); });\n});\n"
    head = base.replace("});\n});", "});\n  await test('b', () => { assert.ok(2); });\n});")
    head = head.replace("describe('d', () =>", "describe('d', async () =>")
    drift = compare(units(base, ".ts"), units(head, ".ts"))
    assert drift.added == ("d > b",)
    assert drift.changed == ("d",)  # the describe's frame: `async` added to its callback


GENAISCRIPT = """import { describe, test, beforeEach } from "node:test"
import assert from "node:assert/strict"
import { GitHubClient } from "./githubclient"

describe("GitHubClient", async () => {
    const client = GitHubClient.default()
    let count = 0
    beforeEach(() => { count = 0 })

    await test("info() returns GitHub options", async () => {
        const info = await client.info()
        assert(info.owner)
    })

    await test("api() returns GitHub client", async () => {
        const api = await client.api()
        assert(api.client)
    })
})
"""


def test_a_new_node_test_file_in_genaiscript_s_shape_reaches_nothing() -> None:
    found = units(GENAISCRIPT, ".ts")
    roles = {u.key: u.role for u in found}
    assert roles["test GitHubClient > info() returns GitHub options"] == CASE
    assert roles["const GitHubClient > client"] == COLLECTION
    assert reaching("packages/core/src/githubclient.test.ts", found, [], configs={}) == ()


# Hostile twins: the same shapes bent to reach other tests.
HOSTILE = {
    # an awaited test at module level that writes the process's state
    "an awaited test that writes a global": (
        "await test('a', () => { globalThis.mode = 'lenient'; });\n"
        "test('b', () => { assert.equal(globalThis.mode, 'strict'); });"
    ),
    "an awaited describe whose hook writes process.env": (
        "await describe('d', async () => {\n  beforeEach(() => { process.env.MODE = 'x'; });\n"
        "  await test('a', () => {});\n});"
    ),
    "an awaited describe whose declaration writes a file": (
        "import { writeFileSync } from 'node:fs';\n"
        "await describe('d', async () => {\n  const done = writeFileSync('/tmp/x', 'y');\n"
        "  await test('a', () => {});\n});"
    ),
    "an awaited focused test": "await test.only('a', () => {});",
    "an awaited test whose title runs code": "await test(title(), () => {});",
}


@pytest.mark.parametrize("body", HOSTILE.values(), ids=list(HOSTILE))
def test_an_awaited_call_bent_to_reach_other_tests_still_fails(body: str) -> None:
    text = IMPORTS + "declare function title(): string;\n" + body + "\n"
    found = units(text, ".ts")
    # in an existing file
    drift = compare(units(IMPORTS + "declare function title(): string;\n", ".ts"), found)
    assert drift.refused, [(u.key, u.role) for u in found]
    # and, but for the focused test and the title (which stay in the file), in a new one
    if "only" not in body and "title()" not in body:
        assert reaching("test/new.test.ts", found, []), [(u.key, u.role) for u in found]


def test_an_await_of_any_other_call_is_collection_time_code() -> None:
    found = units(IMPORTS + "await setup();\nawait beforeEach(() => {});\n", ".ts")
    assert [u.role for u in found if u.key.startswith("statement")] == [COLLECTION] * 2


NODE_LOCAL = IMPORTS + "const client = Client.default();\ntest('a', () => { client.ok(); });\n"


def test_a_new_node_test_file_s_local_load_time_code_reaches_nothing() -> None:
    found = units(NODE_LOCAL, ".ts")
    assert any(u.role == COLLECTION for u in found)
    assert reaching("test/new.test.ts", found, [], configs={}) == ()


@pytest.mark.parametrize(
    "others",
    [
        ['{"scripts": {"test": "node --test --test-isolation=none"}}'],
        ["import { run } from 'node:test';\nrun({ isolation: 'none' });"],
        ["import './new.test.ts';"],
        None,
    ],
)
def test_a_new_node_test_file_sharing_a_process_keeps_its_code_reaching(
    others: list[str] | None,
) -> None:
    found = units(NODE_LOCAL, ".ts")
    assert reaching("test/new.test.ts", found, others)


def test_a_node_test_file_writing_outside_itself_still_reaches() -> None:
    text = IMPORTS + "import { rmSync } from 'node:fs';\nrmSync('/tmp/shared');\n"
    assert reaching("test/new.test.ts", units(text, ".ts"), [])
