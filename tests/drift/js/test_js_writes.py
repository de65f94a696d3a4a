"""A new JS/TS test that stores into a module or a module-level object,
however it spells the store or wherever it hides the name, changes what
the file's other tests see (gate.drift.js.writes); one that stores
into its own objects is a new test."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.drift import CASE, COLLECTION, compare
from gate.drift.js import units

IMPORTS = [
    "const mod = require('../src/m');",
    "import mod from '../src/m.js';",
    "import * as mod from '../src/m.js';",
    "let mod = {};",
]
BASE_TEST = "test('f', () => {\n  expect(mod.f()).toBe(1);\n});"

# Statements that store into (or delete from) what `mod` names, or rebind it.
STORES = [
    "mod.f = () => 2;",
    "mod.count += 1;",
    "mod.count++;",
    "--mod.count;",
    "mod['f'] = () => 2;",
    "mod.table[0] = 2;",
    "delete mod.f;",
    "[mod.f] = [() => 2];",
    "({ a: mod.f } = { a: () => 2 });",
    "({ f: mod.table[0] = 2 } = {});",
    "for (mod.f of [() => 2]) {}",
    "for (mod.key in { a: 1 }) {}",
    "(mod as any).f = () => 2;",
    "mod!.f = () => 2;",
    "Object.assign(mod, { f: () => 2 });",
    "Object.defineProperty(mod, 'f', { value: () => 2 });",
    "Reflect.set(mod, 'f', () => 2);",
    "Reflect.deleteProperty(mod.table, 0);",
    "mod = { f: () => 2 };",
    "globalThis.f = () => 2;",
    "process.env.MODE = 'x';",
    "process.chdir('/');",
    "eval('mod.f = () => 2');",
    "with (mod) { f = () => 2; }",
]
# Code that binds `mod` in a scope of its own: the store still reaches the module.
SHADOWS = [
    "const g = (mod) => 0;",
    "function inner(mod) {}",
    "{ let mod = {}; }",
    "try {} catch (mod) {}",
    "for (const mod of []) {}",
    "class C { m(mod) {} }",
    "if (true) { const mod = 1; }",
]
FORMS = [
    "test('g', () => {{\n{body}\n}});",
    "test('g', async () => {{\n{body}\n}});",
    "it('g', function () {{\n{body}\n}});",
    "test.each([1])('g %i', (n) => {{\n{body}\n}});",
    "test('g', {{ timeout: 5 }}, async (t) => {{\n{body}\n}});",
]


def _new_roles(base: str, head: str) -> dict[str, str]:
    before = {u.key for u in units(base, ".ts")}
    return {u.key: u.role for u in units(head, ".ts") if u.key not in before}


@given(
    imported=st.sampled_from(IMPORTS),
    store=st.sampled_from(STORES),
    shadows=st.lists(st.sampled_from(SHADOWS), max_size=3),
    shadow_first=st.booleans(),
    form=st.sampled_from(FORMS),
    before=st.booleans(),
)
def test_a_store_outside_the_test_changes_what_other_tests_see(
    imported: str,
    store: str,
    shadows: list[str],
    shadow_first: bool,
    form: str,
    before: bool,
) -> None:
    base = f"{imported}\n\n{BASE_TEST}\n"
    lines = [*shadows, store] if shadow_first else [store, *shadows]
    new = form.format(body="\n".join(lines))
    head = f"{imported}\n\n{new}\n\n{BASE_TEST}\n" if before else f"{base}\n{new}\n"
    assert list(_new_roles(base, head).values()) == [COLLECTION], head
    found = compare(units(base, ".ts"), units(head, ".ts"))
    assert "changes what other tests see" in found.summary(), head


# The same kinds of store through what the test binds itself.
OWN = [
    "const o = { table: [1] };\no.f = () => 2;\no.table[0] = 2;\ndelete o.f;",
    "let x = 0;\nx = 1;\nx++;",
    "t.context.f = () => 2;",
    "const [a, b] = [1, 2];\nlet c;\n[c] = [a + b];",
    "for (const el of [{}]) { el.v = 1; }",
    "for (const [k, v] of Object.entries({ a: 1 })) { const out = {}; out[k] = v; }",
    "class A { constructor() { this.x = 1; } static s() { this.y = 2; } }\nnew A();",
    "({}).x = 1;\n[].length = 0;\nnew Map().extra = 1;",
    "const copy = Object.assign({}, mod);\ncopy.f = () => 2;",
    "function helper(o) { o.x = 1; }\nhelper({});",
    "await expect(async () => { const z = {}; z.q = 1; }).resolves;",
    "mod.f();\nconst s = new Set();\ns.add(mod);",
    # a `using` declaration (the TypeScript grammar spells it as an assignment)
    "using res = open();\nres.closed = false;",
    "await using res = open();\nres.closed = false;",
]


@given(own=st.sampled_from(OWN), imported=st.sampled_from(IMPORTS))
def test_a_store_into_the_tests_own_objects_is_a_new_test(own: str, imported: str) -> None:
    base = f"{imported}\n\n{BASE_TEST}\n"
    head = f"{base}\ntest('g', async (t) => {{\n{own}\n}});\n"
    assert list(_new_roles(base, head).values()) == [CASE], head
    found = compare(units(base, ".ts"), units(head, ".ts"))
    assert found.ok and found.added == ("g",), found.summary()


HELPERS = [
    "function bend() {\n  mod.f = () => 2;\n}",
    "const bend = () => {\n  Object.assign(mod, { f: () => 2 });\n};",
    "function set() {\n  mod.f = () => 2;\n}\nfunction bend() {\n  set();\n}",
    "class Bender {\n  static run() {\n    mod.f = () => 2;\n  }\n}\n"
    "const bend = () => Bender.run();",
    "const helpers = {\n  run() {\n    mod.f = () => 2;\n  },\n};\n"
    "const bend = () => helpers.run();",
    "export function bend() {\n  mod.f = () => 2;\n}",
]
CALLS = [
    "test('g', () => {{\n  {call}();\n}});",
    "test('g', () => {{\n  const run = {call};\n  run();\n}});",
    "test('g', {call});",
]


@given(helper=st.sampled_from(HELPERS), call=st.sampled_from(CALLS))
def test_a_new_test_naming_a_helper_that_stores_outside_shares_too(helper: str, call: str) -> None:
    base = f"const mod = require('../src/m');\n\n{helper}\n\n{BASE_TEST}\n"
    head = f"{base}\n{call.format(call='bend')}\n"
    assert list(_new_roles(base, head).values()) == [COLLECTION], head


def test_a_local_function_of_the_helpers_name_is_the_tests_own() -> None:
    base = f"const mod = require('../src/m');\n\nfunction bend() {{ mod.f = 1; }}\n\n{BASE_TEST}\n"
    head = f"{base}\ntest('g', () => {{\n  const bend = () => 0;\n  bend();\n}});\n"
    assert list(_new_roles(base, head).values()) == [CASE]


def test_mochas_test_context_is_shared_and_a_class_of_the_tests_is_its_own() -> None:
    base = f"const mod = require('../src/m');\n\n{BASE_TEST}\n"
    shared = f"{base}\nit('g', function () {{\n  this.value = 1;\n}});\n"
    assert list(_new_roles(base, shared).values()) == [COLLECTION]
    called = f"{base}\nit('g', function () {{\n  this.timeout(100);\n}});\n"
    assert list(_new_roles(base, called).values()) == [CASE]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (the CI installs nodejs)")
@pytest.mark.parametrize("store", [s for s in STORES if "as any" not in s and "!" not in s])
def test_each_store_turns_a_later_red_test_green_under_node_test(
    tmp_path_factory: pytest.TempPathFactory, store: str
) -> None:
    """What the tests above refuse is real: under `node --test`, a new test
    placed before an existing failing one, with one of the stores, makes it
    pass (the stores that write `mod` itself are read back through it)."""
    folder = tmp_path_factory.mktemp("node")
    (folder / "m.js").write_text(
        "exports.f = () => 1;\nexports.count = 0;\nexports.table = [1];\nexports.key = '';\n",
        encoding="utf-8",
    )
    header = "const test = require('node:test');\nconst assert = require('node:assert');\n"
    header += "let mod = require('./m.js');\n"
    red = (
        "test('existing', () => {\n"
        "  const m = require('./m.js');\n"
        "  const changed = m.f === undefined || m.f() === 2 || m.count !== 0 || m.table[0] !== 1"
        " || m.key !== '' || mod !== m || globalThis.f !== undefined"
        " || process.env.MODE === 'x' || process.cwd() === '/';\n"
        "  assert.ok(changed);\n"
        "});\n"
    )
    base = header + "\n" + red
    test_file = folder / "m.test.js"
    test_file.write_text(base, encoding="utf-8")
    assert _node_test(folder, test_file) != 0
    bent = header + "\ntest('new', () => {\n" + store + "\n});\n\n" + red
    test_file.write_text(bent, encoding="utf-8")
    assert _node_test(folder, test_file) == 0, store
    assert (
        "changes what other tests see" in compare(units(base, ".js"), units(bent, ".js")).summary()
    )


def _node_test(folder: Path, test_file: Path) -> int:
    done = subprocess.run(
        ["node", "--test", test_file.name],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return done.returncode


SLOT_BASE = "let server;\n\n{hook}\n\ntest('f', async () => {{\n  server = await start();\n}});\n"


@pytest.mark.parametrize(
    ("hook", "role"),
    [
        ("afterEach(() => server.close());", CASE),
        ("afterEach(() => {\n  server.close();\n  server = null;\n});", CASE),
        ("beforeAll(async () => {\n  server = await start();\n});", COLLECTION),
        ("test.before(async () => {\n  server = await start();\n});", COLLECTION),
        ("server = start();", COLLECTION),
    ],
)
def test_a_slot_each_test_fills_is_no_shared_state_unless_a_hook_fills_it(
    hook: str, role: str
) -> None:
    """`let server;` that every test assigns for itself: a new test that
    assigns it too is a new test; where a hook or the file's load fills
    it, the tests after a new assignment read the new value."""
    base = SLOT_BASE.format(hook=hook)
    head = f"{base}\ntest('g', async () => {{\n  server = await start();\n}});\n"
    assert list(_new_roles(base, head).values()) == [role]


@pytest.mark.parametrize("suffix", [".ts", ".tsx", ".js", ".mjs"])
@pytest.mark.parametrize("word", ["using", "await using"])
def test_a_using_declaration_binds_in_its_own_block_alone(suffix: str, word: str) -> None:
    """`using res = open()` declares `res` in its block, in every grammar;
    outside that block `res` is the module's."""
    inside = f"test('g', async () => {{\n  {word} res = open();\n  res.closed = false;\n}});\n"
    assert [u.role for u in units(inside, suffix)] == [CASE]
    outside = inside.replace(f"  {word} res = open();\n", f"  {{ {word} res = open(); }}\n")
    assert [u.role for u in units(outside, suffix)] == [COLLECTION]


FRESH_TARGETS = [
    "Readable.from([init.body])",
    "new Map()",
    "{}",
    "[]",
    "make({ a: 1 })",
    "await build(init)",
    "(make() as Req)",
]
SHARED_TARGETS = [
    "globalThis",
    "process.env",
    "helper",
    "helper.inner",
    "Object(globalThis)",
    "wrap(helper)",
    "wrap(globalThis)",
    "(() => globalThis)()",
    "Reflect.get(globalThis, 'x')",
]


@pytest.mark.parametrize(
    ("target", "fresh"),
    [(t, True) for t in FRESH_TARGETS] + [(t, False) for t in SHARED_TARGETS],
)
@pytest.mark.parametrize(
    "how", ["Object.assign({t}, {{ m: 1 }})", "Object.defineProperty({t}, 'm', {{ value: 1 }})"]
)
def test_a_writer_into_a_fresh_object_shares_nothing(target: str, fresh: bool, how: str) -> None:
    """`Object.assign(<call, new or literal>, ...)` writes into an object
    made there; the global object, `process.env`, an import, or a call
    handed one of them, is shared."""
    call = how.format(t=target)
    text = (
        "import { it } from 'vitest';\nimport { Readable } from 'node:stream';\n"
        "import { helper } from './helper';\n"
        f"function req(init) {{ return {call}; }}\n"
        "it('a', async () => { req({}); });\n"
        f"it('b', async () => {{ const init = {{}}; {call}; }});\n"
    )
    roles = {u.name: u.role for u in units(text, ".ts")}
    assert roles["a"] == roles["b"] == (CASE if fresh else COLLECTION), roles
