"""An existing JS/TS test file's new code that follows the file's own
patterns, or changes nothing at run time: type-only declarations
(`Unit.same`), describe-local names (`Unit.scope`), each judged by
`gate.drift.compare` between real splits of a base and a head text."""

from __future__ import annotations

import pytest

from gate.drift import Drift, compare
from gate.drift.js import units

HEADER = "import { describe, it, expect, beforeEach, afterEach, vi } from 'vitest';\n"


def _drift(base: str, head: str, suffix: str = ".ts") -> Drift:
    return compare(units(HEADER + base, suffix), units(HEADER + head, suffix))


# --- type-only declarations (F-TYPE-ONLY 2c0c481c) ---

TYPE_EDITS = [
    (  # an interface's member widened (exactOptionalPropertyTypes)
        "interface Config {\n  on?: (id: string) => void;\n}\n",
        "interface Config {\n  on?: ((id: string) => void) | undefined;\n}\n",
    ),
    ("type Row = { a: number };\n", "type Row = { a: number; b?: string };\n"),
    ("export interface Shape { x: number }\n", "export interface Shape { x: number; y: 1 }\n"),
    ("export type Id = string;\n", "export type Id = string | number;\n"),
    ("declare const token: string;\n", "declare const token: string | undefined;\n"),
    ("declare global {\n  var seen: number;\n}\n", "declare global {\n  var seen: string;\n}\n"),
    (
        "declare module 'x' {\n  export const a: 1;\n}\n",
        "declare module 'x' {\n  export const a: 2;\n}\n",
    ),
]
TEST = "it('uses it', () => { expect(make({} as Config)).toBe(1); });\n"


@pytest.mark.parametrize(("base", "head"), TYPE_EDITS)
@pytest.mark.parametrize("suffix", [".ts", ".mts", ".tsx"])
def test_a_type_only_declaration_changes_nothing_that_runs(
    base: str, head: str, suffix: str
) -> None:
    drift = _drift(base + TEST, head + TEST, suffix)
    assert drift.ok, drift.summary()


# A file whose tests check types: there the types are the test.
TYPE_TESTS = [
    "it('types', () => { expectTypeOf(make()).toEqualTypeOf<Config>(); });\n",
    "it('types', () => { assertType<Config>(make()); });\n",
    "// @ts-expect-error the id is a string\nconst bad: Config = { on: 1 };\n",
    "import { expectType } from 'tsd';\nexpectType<Config>(make());\n",
]


@pytest.mark.parametrize(("base", "head"), TYPE_EDITS)
@pytest.mark.parametrize("checks", TYPE_TESTS)
def test_in_a_file_that_tests_types_a_type_change_is_a_change(
    base: str, head: str, checks: str
) -> None:
    drift = _drift(base + checks, head + checks)
    assert drift.changed, drift.summary()


# What runs, though it looks like a type.
RUNTIME = [
    ("enum Mode { A = 1 }\n", "enum Mode { A = 2 }\n"),
    ("const enum Mode { A = 1 }\n", "const enum Mode { A = 2 }\n"),
    ("class Config { on = 1 }\n", "class Config { on = 2 }\n"),
    ("abstract class Config { on = 1 }\n", "abstract class Config { on = 2 }\n"),
    ("namespace N { export const a = 1; }\n", "namespace N { export const a = 2; }\n"),
    ("const config: Config = { on: 1 };\n", "const config: Config = { on: 2 };\n"),
]


@pytest.mark.parametrize(("base", "head"), RUNTIME)
def test_a_runtime_declaration_beside_types_is_still_compared(base: str, head: str) -> None:
    drift = _drift(base + TEST, head + TEST)
    assert not drift.ok, drift.summary()


def test_a_removed_type_or_a_test_whose_type_argument_changed_is_still_seen() -> None:
    base = "interface Config { on: 1 }\n" + TEST
    assert _drift(base, TEST).removed == ("Config",)
    head = "interface Config { on: 1 }\n" + TEST.replace("{} as Config", "{} as Other")
    assert _drift(base, head).changed == ("uses it",)


# --- describe-local names (F-SIBLING-SCOPE 1772473b) ---

SIBLING = """describe('first', () => {
  function apply(code: string) { return transform(code, 'a'); }
  const IMPORT = "import { x } from 'y';";
  it('works', () => { expect(apply(IMPORT)).toBe(1); });
});
"""
NEW_SIBLINGS = [
    "describe('second', () => {\n  function apply(code: string) { return transform(code, 'b'); }\n"
    "  const IMPORT = 'other';\n  it('also', () => { expect(apply(IMPORT)).toBe(2); });\n});\n",
    "describe.each([1, 2])('second %s', (n) => {\n  const apply = (c: string) => c + n;\n"
    "  it('also', () => { expect(apply('x')).toBe('x1'); });\n});\n",
    "describe('outer', () => {\n  describe('inner', () => {\n    let IMPORT = 'z';\n"
    "    function apply() { return IMPORT; }\n    it('deep', () => { apply(); });\n  });\n});\n",
]


@pytest.mark.parametrize("new", NEW_SIBLINGS)
def test_a_new_describe_may_bind_the_names_a_sibling_describe_binds(new: str) -> None:
    drift = _drift(SIBLING, SIBLING + new)
    assert drift.ok, drift.summary()
    assert drift.added


# The same names where existing tests see them.
REPLACING = [
    # a new top-level binding of a name a top-level base unit binds
    (
        "function apply(c: string) { return c; }\n" + TEST.replace("make", "apply"),
        "function apply(c: string) { return c; }\n"
        + TEST.replace("make", "apply")
        + "function apply(c: string) { return 'bent'; }\n",
    ),
    # a new top-level binding of a name a describe's tests read from the top level
    (
        "describe('d', () => {\n  it('t', () => { expect(apply(1)).toBe(1); });\n});\n",
        "const apply = (x: number) => 1;\n"
        "describe('d', () => {\n  it('t', () => { expect(apply(1)).toBe(1); });\n});\n",
    ),
    # a new binding inside the existing describe that shadows what its tests read
    (
        "import { apply } from './apply';\n"
        "describe('d', () => {\n  it('t', () => { expect(apply(1)).toBe(1); });\n});\n",
        "import { apply } from './apply';\n"
        "describe('d', () => {\n  it('t', () => { expect(apply(1)).toBe(1); });\n"
        "  function apply() { return 1; }\n});\n",
    ),
    # a second binding of a describe's own name in the same describe
    (SIBLING, SIBLING.replace("  it('works'", "  const IMPORT = 'bent';\n  it('works'")),
    # a new test in a nested describe of its own that reads the outer name: welcome,
    # but a new `apply` beside the existing tests that read it is not
    (
        SIBLING,
        SIBLING.replace(
            "  it('works'",
            "  describe('in', () => { var apply = 1; });\n  var apply;\n  it('works'",
        ),
    ),
]


def test_a_new_nested_describe_may_bind_a_name_its_enclosing_describe_binds() -> None:
    head = SIBLING.replace(
        "  it('works'",
        "  describe('in', () => {\n    var apply = 1;\n    it('n', () => { apply; });\n  });\n"
        "  it('works'",
    )
    drift = _drift(SIBLING, head)
    assert drift.ok, drift.summary()


@pytest.mark.parametrize(("base", "head"), REPLACING)
def test_a_name_existing_tests_see_is_still_replaced(base: str, head: str) -> None:
    drift = _drift(base, head)
    assert drift.refused or drift.changed, drift.summary()


# --- a new test that fills a describe's renewed `let` (F-DESCRIBE-LET 1eb31236) ---

RENEWED = [
    # beforeEach assigns it, afterEach closes it (streamableHttp.test.ts)
    "describe('S', () => {\n  let transport: T;\n"
    "  beforeEach(() => {\n    transport = new T(1);\n    vi.spyOn(globalThis, 'fetch');\n  });\n"
    "  afterEach(async () => { await transport.close(); });\n{tests}});\n",
    # an async beforeEach that awaits it
    "describe('S', () => {\n  let transport;\n"
    "  beforeEach(async () => { transport = await make(); });\n{tests}});\n",
    # an afterEach that resets it
    "describe('S', () => {\n  let transport = make();\n"
    "  afterEach(() => { transport = undefined; });\n{tests}});\n",
    # a nested describe's own `let` of the same name, renewed there
    "let transport = make();\ndescribe('S', () => {\n  let transport;\n"
    "  beforeEach(() => { transport = make(); });\n{tests}});\n",
]
BASE_TEST = "  it('old', async () => { transport = new T(2); await transport.send(1); });\n"
NEW_TEST = (
    "  it('new', async () => {\n    transport = new T(3);\n    await transport.send(2);\n  });\n"
)


@pytest.mark.parametrize("shape", RENEWED)
def test_a_new_test_may_fill_a_let_its_describe_renews_around_each_test(shape: str) -> None:
    base = shape.replace("{tests}", BASE_TEST)
    head = shape.replace("{tests}", BASE_TEST + NEW_TEST)
    drift = _drift(base, head)
    assert drift.ok, drift.summary()
    assert drift.added == ("S > new",)


# The same test where its value reaches the tests after it.
NOT_RENEWED = [
    # renewed once for all tests, not around each
    "describe('S', () => {\n  let transport = make();\n"
    "  beforeAll(() => { transport = make(); });\n{tests}});\n",
    # renewed only under a condition
    "describe('S', () => {\n  let transport = make();\n"
    "  beforeEach(() => { if (flag) transport = make(); });\n{tests}});\n",
    # a describe with no hook at all
    "describe('S', () => {\n  let transport = make();\n{tests}});\n",
    # a module-level `let` read by another describe's tests
    "let transport = make();\nbeforeEach(() => { transport = make(); });\n"
    "describe('S', () => {\n{tests}});\n"
    "describe('other', () => { it('reads', () => { expect(transport).toBe(1); }); });\n",
    # the hook renews another describe's `let`, not this one's
    "describe('S', () => {\n  let transport = make();\n"
    "  describe('in', () => {\n    let transport;\n"
    "    beforeEach(() => { transport = make(); });\n  });\n{tests}});\n",
    # a hook that renews something else of the same name inside a function
    "describe('S', () => {\n  let transport = make();\n"
    "  beforeEach(() => { const f = () => { transport = make(); }; });\n{tests}});\n",
]


@pytest.mark.parametrize("shape", NOT_RENEWED)
def test_a_new_test_that_fills_an_unrenewed_let_is_refused(shape: str) -> None:
    base = shape.replace("{tests}", BASE_TEST)
    head = shape.replace("{tests}", BASE_TEST + NEW_TEST)
    drift = _drift(base, head)
    assert any("S > new" in name for name, _ in drift.refused), drift.summary()


def test_an_existing_test_that_now_fills_the_renewed_let_is_still_changed() -> None:
    shape = RENEWED[0]
    base = shape.replace("{tests}", BASE_TEST)
    head = shape.replace("{tests}", BASE_TEST.replace("new T(2)", "new T(9)"))
    assert _drift(base, head).changed == ("S > old",)


# --- a new test that stores into a shared mock object a beforeEach resets ---

STATE = "const state = vi.hoisted(() => ({ session: undefined as any, calls: [] as number[] }));\n"
RESET = [
    # the describe's beforeEach stores the very chain anew (pi-session.test.ts)
    STATE + "describe('S', () => {\n  beforeEach(() => {\n    state.session = undefined;\n"
    "    state.calls = [];\n  });\n{tests}});\n",
    # the file's own beforeEach, a `let` root, an awaited hook
    "let state = { session: 1 };\nbeforeEach(async () => {\n  await tick();\n"
    "  state.session = make();\n});\ndescribe('S', () => {\n{tests}});\n",
    # an outer describe's hook covers a nested describe's tests
    STATE + "describe('S', () => {\n  beforeEach(() => { state.session = null; });\n"
    "  describe('in', () => {});\n{tests}});\n",
    # Mocha's setup, spelled with spaces in the chain
    STATE + "suite('S', () => {\n  setup(() => { state . session = 0; });\n{tests}});\n",
]
BASE_STORE = "  it('old', () => { state.session = 2; expect(run()).toBe(2); });\n"
NEW_STORE = "  it('new', () => {\n    state.session = 3;\n    expect(run()).toBe(3);\n  });\n"


@pytest.mark.parametrize("shape", RESET)
def test_a_new_test_may_store_into_a_chain_a_beforeEach_resets(shape: str) -> None:
    base = shape.replace("{tests}", BASE_STORE)
    head = shape.replace("{tests}", BASE_STORE + NEW_STORE)
    drift = _drift(base, head)
    assert drift.ok, drift.summary()
    assert drift.added in (("S > new",), ("new",))


# The same store where its value reaches a test after it.
NOT_RESET = [
    # reset after each test only: a new first test leaves it for the old one
    STATE + "describe('S', () => {\n  afterEach(() => { state.session = undefined; });\n"
    "{tests}});\n",
    # reset once, or only under a condition
    STATE + "describe('S', () => {\n  beforeAll(() => { state.session = undefined; });\n"
    "{tests}});\n",
    STATE + "describe('S', () => {\n  beforeEach(() => { if (on) state.session = 1; });\n"
    "{tests}});\n",
    # another chain of the same object is reset, not this one
    STATE + "describe('S', () => {\n  beforeEach(() => { state.calls = []; });\n{tests}});\n",
    # the hook's value reads the object it resets
    STATE + "describe('S', () => {\n  beforeEach(() => { state.session = state.session ?? 1; });\n"
    "{tests}});\n",
    # a test of another describe runs outside the hook
    STATE + "describe('S', () => {\n  beforeEach(() => { state.session = undefined; });\n"
    "{tests}});\ndescribe('other', () => { it('reads', () => { expect(run()).toBe(1); }); });\n",
    STATE + "describe('S', () => {\n  beforeEach(() => { state.session = undefined; });\n"
    "{tests}});\ntest('top', () => { expect(run()).toBe(1); });\n",
    # the hook of a nested describe covers its own tests alone
    STATE + "describe('S', () => {\n  describe('in', () => {\n"
    "    beforeEach(() => { state.session = undefined; });\n  });\n{tests}});\n",
    # tests that run concurrently overlap between the hooks
    STATE
    + "describe.concurrent('S', () => {\n  beforeEach(() => { state.session = undefined; });\n"
    "{tests}});\n",
    STATE + "describe('S', () => {\n  beforeEach(() => { state.session = undefined; });\n"
    "{tests}  it.concurrent('c', () => {});\n});\n",
    # the root is imported, a global, or assigned again
    "import { state } from './state';\ndescribe('S', () => {\n"
    "  beforeEach(() => { state.session = undefined; });\n{tests}});\n",
    "describe('S', () => {\n  beforeEach(() => { globalThis.session = undefined; });\n{tests}});\n",
    "let state = {};\nstate = make();\ndescribe('S', () => {\n"
    "  beforeEach(() => { state.session = undefined; });\n{tests}});\n",
]


@pytest.mark.parametrize("shape", NOT_RESET)
def test_a_new_store_into_a_chain_no_beforeEach_resets_for_every_test_is_refused(
    shape: str,
) -> None:
    base = shape.replace("{tests}", BASE_STORE)
    head = shape.replace("{tests}", BASE_STORE + NEW_STORE)
    if "globalThis" in shape:
        base, head = (t.replace("state.session", "globalThis.session") for t in (base, head))
    drift = _drift(base, head)
    assert any(name.endswith("new") for name, _ in drift.refused), drift.summary()


@pytest.mark.parametrize(
    "deeper", ["state.session.id = 4;", "state.session!.id = 4;", "state['session'].x = 1;"]
)
def test_a_store_deeper_than_the_reset_chain_still_reaches_the_hooks_object(deeper: str) -> None:
    shape = RESET[0]
    base = shape.replace("{tests}", BASE_STORE)
    head = shape.replace("{tests}", BASE_STORE + f"  it('new', () => {{ {deeper} }});\n")
    drift = _drift(base, head)
    assert any(name.endswith("new") for name, _ in drift.refused), drift.summary()
