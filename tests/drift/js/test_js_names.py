"""The names a JS/TS unit reads: identifiers in a module, words elsewhere
(gate.drift.js.names)."""

from __future__ import annotations

import pytest

from gate.drift import compare
from gate.drift.js import units

USED = "binds Request, a name existing code uses"

# How a file shows it is a module: (its first line, its suffix).
MODULE_FORMS = [
    ("import { test } from 'vitest';\nglobalThis.x = window;", ".ts"),  # no module name on it
    ("import test from 'ava';", ".js"),
    ("import { test } from 'vitest';", ".ts"),
    ("import { test } from 'vitest';", ".tsx"),
    ("const test = require('node:test');", ".js"),
    ("const { test } = require('node:test');", ".ts"),
    ("export const ROOT = 1;", ".js"),
    ("const x = 1;", ".mjs"),
    ("const x = 1;", ".cjs"),
    ("const x = 1;", ".mts"),
    ("const x = 1;", ".cts"),
]
# An existing test that spells Request without reading it.
WORDS_ONLY = [
    "test('Request works', () => {});",
    'test("sends a Request", () => {});',
    "test(`a Request`, () => {});",
    "test('x', () => { expect(res.Request).toBe(1); });",
    "test('x', () => { const o = { Request: 1 }; });",
    "test('x', () => { /* Request */ });",
    "test('x', () => {}); // Request",
]
# An existing test that reads Request, one syntax each.
READS = [
    "test('x', () => { Request(); });",
    "test('x', () => { new Request('u'); });",
    "test('x', () => { typeof Request; });",
    "test('x', () => { `${Request}`; });",
    "test('x', () => { const o = { Request }; });",
    "test('x', () => { f(...Request); });",
    "test('x', () => { const { a = Request } = {}; });",
    "test('x', () => { class A extends Request {} });",
    "test('x', () => { x instanceof Request; });",
]
TS_READS = [
    "test('x', () => { let r: Request; });",
    "test('x', () => { const r = {} as Request; });",
    "test('x', () => { type R = typeof Request; });",
]
JSX_READS = ["test('x', () => { render(<Request />); });"]


def _new_import(first: str, body: str, suffix: str) -> str:
    base = f"{first}\n{body}\n"
    head = f"{first}\nimport {{ Request }} from 'undici';\n{body}\n"
    drift = compare(units(base, suffix), units(head, suffix))
    return "; ".join(why for _, why in drift.refused)


@pytest.mark.parametrize(("first", "suffix"), MODULE_FORMS)
@pytest.mark.parametrize("body", WORDS_ONLY)
def test_a_word_that_reads_nothing_does_not_block_a_new_import(
    first: str, suffix: str, body: str
) -> None:
    assert _new_import(first, body, suffix) == ""


@pytest.mark.parametrize(("first", "suffix"), MODULE_FORMS)
@pytest.mark.parametrize("body", READS)
def test_a_name_existing_code_reads_blocks_a_new_binding(
    first: str, suffix: str, body: str
) -> None:
    assert _new_import(first, body, suffix) == USED


@pytest.mark.parametrize("body", TS_READS)
@pytest.mark.parametrize("suffix", [".ts", ".tsx", ".mts"])
def test_a_type_that_names_it_reads_it(body: str, suffix: str) -> None:
    assert _new_import("import { test } from 'vitest';", body, suffix) == USED


@pytest.mark.parametrize("body", JSX_READS)
@pytest.mark.parametrize("suffix", [".jsx", ".tsx"])
def test_a_jsx_element_reads_its_name(body: str, suffix: str) -> None:
    assert _new_import("import { test } from 'vitest';", body, suffix) == USED


# An existing test whose functions or blocks bind Request themselves.
LOCAL = [
    "test('x', async (t, Request) => { Request(); });",
    "test('x', Request => { Request(); });",
    "test('x', function (Request) { Request(); });",
    "test('x', () => { const Request = 1; Request; });",
    "test('x', () => { if (a) { let Request = 1; f(Request); } });",
    "test('x', () => { try { f(); } catch (Request) { Request; } });",
    "test('x', () => { function Request() {} Request(); });",
    "test('x', () => { class Request {} new Request(); });",
    "test('x', function () { var Request = 1; Request; });",
    "test('x', ({ Request }) => { Request; });",
    "test('x', ({ a: Request }) => { Request; });",
    "test('x', ([a, Request = 1]) => { Request; });",
    "test('x', (...Request) => { Request; });",
]
TS_LOCAL = [
    "test('x', (Request: number) => { Request; });",
    "test('x', (Request?: number) => { Request; });",
    "test('x', ({ Request }: { Request: number }) => { Request; });",
]
# A name the unit binds only somewhere else than where it is read, or as
# a default's value: still the module's.
NOT_LOCAL = [
    "test('x', (a = Request) => {});",
    "test('x', ({ a = Request }) => {});",
    "test('x', ({ a: b = Request }) => {});",
    "test('x', () => { { const Request = 1; } Request(); });",
    "test('x', () => { const f = (Request) => 1; Request(); });",
    "test('x', () => { if (a) { var Request = 1; } Request; });",
    "test('x', () => { for (const Request of xs) {} });",
    "test('x', () => { const f = function Request() {}; });",
]


@pytest.mark.parametrize(("first", "suffix"), MODULE_FORMS)
@pytest.mark.parametrize("body", LOCAL)
def test_a_name_the_test_binds_itself_is_not_the_modules(
    first: str, suffix: str, body: str
) -> None:
    assert _new_import(first, body, suffix) == ""


@pytest.mark.parametrize("body", TS_LOCAL)
def test_a_typed_parameter_is_the_functions_own(body: str) -> None:
    assert _new_import("import { test } from 'vitest';", body, ".ts") == ""


def test_a_type_named_like_a_parameter_is_still_the_modules() -> None:
    body = "test('x', (Request: Request) => { Request; });"
    assert _new_import("import { test } from 'vitest';", body, ".ts") == USED


@pytest.mark.parametrize(("first", "suffix"), MODULE_FORMS)
@pytest.mark.parametrize("body", NOT_LOCAL)
def test_a_name_bound_elsewhere_in_the_test_is_still_read(
    first: str, suffix: str, body: str
) -> None:
    assert _new_import(first, body, suffix) == USED


# Files whose top-level names another file or a computed name can reach:
# every word stands for a name read, as before.
SCRIPTS = [
    ("const x = 1;", ".js"),  # a classic script: its bindings are the global object's
    ("const x = 1;", ".ts"),
    ("require(name);", ".js"),  # not a require of a module by its name
    ("import { test } from 'vitest';\neval(code);", ".js"),  # a direct eval reads the module
    ("const x = 1;\neval(code);", ".mjs"),
    ("const x = 1;\nwith (o) { p(); }", ".cjs"),
    ("const t = require('node:test');\nglobalThis.x = 1;", ".ts"),
    ("const t = require('node:test');\nwindow.x = 1;", ".js"),
    ("const t = require('node:test');\nconst g = self;", ".js"),
    ("const t = require('node:test');\nglobal.x = 1;", ".js"),
    ("const t = require('node:test');\nnew Function('return 1');", ".js"),
    ("const t = require('node:test');\nwith (o) { p(); }", ".js"),
]


@pytest.mark.parametrize(("first", "suffix"), SCRIPTS)
@pytest.mark.parametrize("body", WORDS_ONLY[:3])
def test_where_names_can_be_computed_every_word_counts(first: str, suffix: str, body: str) -> None:
    assert USED in _new_import(first, body, suffix)


def test_a_name_a_describe_frame_reads_still_blocks() -> None:
    """A describe's frame (its title, table, call) is judged by its words."""
    body = "describe.each(Request)('x', () => { test('y', () => {}); });"
    assert _new_import("import { test, describe } from 'vitest';", body, ".ts") == USED


def test_a_new_test_binding_a_name_is_still_judged_by_binds() -> None:
    """Only what existing code reads changes; rebinding a base name is still drift."""
    base = "import { test } from 'vitest';\nconst Request = 1;\ntest('a', () => {});\n"
    head = base + "function Request() {}\n"
    drift = compare(units(base, ".ts"), units(head, ".ts"))
    assert [why for _, why in drift.refused] == ["replaces Request of the base version"]


@pytest.mark.parametrize(("first", "suffix"), MODULE_FORMS)
def test_a_var_in_a_top_level_block_is_the_modules(first: str, suffix: str) -> None:
    """`var` belongs to the enclosing function, here the module: a new
    top-level function of its name changes what the block reads."""
    base = f"{first}\nif (a) {{ var Request = 1; f(Request); }}\n"
    head = base + "function Request() {}\n"
    drift = compare(units(base, suffix), units(head, suffix))
    assert [why for _, why in drift.refused] == [USED]
