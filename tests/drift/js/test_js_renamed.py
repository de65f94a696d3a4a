"""A JS/TS test whose title changed but whose code did not (but for comments
and layout) is the same test renamed, and a comment or layout changed in a
test changes nothing (gate.drift.compare `Drift.renamed`, `Unit.retitled`,
`Unit.same` of a test: gate.drift.js.rows `tree_form`).

The shape is microsoft/genaiscript's 3086c6ba: `chunk llms-full.txt`
renamed `chunk genaiscript/llms-full.txt` and a commented-out assertion
deleted from its body."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift import compare
from gate.drift.js import units

BASE = """import { describe, test } from "node:test"
import assert from "node:assert/strict"
import { chunk } from "./chunk"

describe("chunk", async () => {
    await test(`chunk llms-full.txt`, async () => {
        const result = chunk("a b")
        console.debug(`chunks => ${result.length}`)
        /*    assert.strictEqual(
            result.length,
            2
        )*/
        assert.ok(result.length)
    })

    test("keeps words", () => {
        assert.deepEqual(chunk("a"), ["a"])
    })
})
"""
RENAMED = "await test(`chunk genaiscript/llms-full.txt`, async () => {"


def _drift(head: str, base: str = BASE, suffix: str = ".ts"):  # type: ignore[no-untyped-def]
    return compare(units(base, suffix), units(head, suffix))


# Heads that leave every test as it was: what each does.
SAME = {
    "a commented-out assertion deleted": BASE.replace(
        "        /*    assert.strictEqual(\n            result.length,\n"
        "            2\n        )*/\n",
        "",
    ),
    "a line comment added": BASE.replace(
        "        assert.ok(result.length)",
        "        // at least one\n        assert.ok(result.length)",
    ),
    "the body re-wrapped": BASE.replace(
        'assert.deepEqual(chunk("a"), ["a"])',
        'assert.deepEqual(\n            chunk("a"),\n            ["a"]\n        )',
    ),
}


@pytest.mark.parametrize("head", SAME.values(), ids=list(SAME))
def test_a_comment_or_layout_changed_in_a_test_changes_nothing(head: str) -> None:
    assert head != BASE
    drift = _drift(head)
    assert drift.ok and not drift.renamed, drift.summary()


def test_genaiscript_s_rename_with_its_commented_out_line_deleted_is_a_rename() -> None:
    head = SAME["a commented-out assertion deleted"].replace(
        "await test(`chunk llms-full.txt`, async () => {", RENAMED
    )
    drift = _drift(head)
    assert drift.ok, drift.summary()
    assert drift.renamed == (
        ("chunk > `chunk llms-full.txt`", "chunk > `chunk genaiscript/llms-full.txt`"),
    )
    assert drift.added == ()


@pytest.mark.parametrize("suffix", [".ts", ".js", ".mjs", ".tsx"])
@pytest.mark.parametrize("word", ["it", "test", "specify"])
def test_a_renamed_test_is_a_rename_in_each_grammar(suffix: str, word: str) -> None:
    base = f"describe('d', () => {{\n  {word}('old', () => {{ expect(f(1)).toBe(2); }});\n}});\n"
    head = base.replace("'old'", "'new title'")
    drift = _drift(head, base, suffix)
    assert drift.ok and drift.renamed == (("d > old", "d > new title"),), drift.summary()


# Hostile twins: a rename bent to change what runs, or a live line deleted.
HOSTILE = {
    "a rename that also edits an assertion": (
        SAME["a commented-out assertion deleted"]
        .replace("await test(`chunk llms-full.txt`, async () => {", RENAMED)
        .replace("assert.ok(result.length)", "assert.ok(result.length >= 0)")
    ),
    "a live assertion deleted": BASE.replace("        assert.ok(result.length)\n", ""),
    "a rename that deletes a live assertion": BASE.replace(
        "        assert.ok(result.length)\n", ""
    ).replace("await test(`chunk llms-full.txt`, async () => {", RENAMED),
    "a rename onto another test's title": BASE.replace("`chunk llms-full.txt`", '"keeps words"'),
    "a rename that skips it": BASE.replace(
        "await test(`chunk llms-full.txt`, async () => {", "await test.skip(`other`, async () => {"
    ),
    "a rename that focuses it": BASE.replace(
        "await test(`chunk llms-full.txt`, async () => {", "await test.only(`other`, async () => {"
    ),
    "a rename that adds a tag a grep selects": BASE.replace(
        "`chunk llms-full.txt`", "`chunk @slow`"
    ),
    "a rename whose body reads its title": (
        BASE.replace('const result = chunk("a b")', "const result = chunk(t.name)").replace(
            "async () => {\n        const result", "async (t) => {\n        const result"
        )
    ),
    "a renamed snapshot test": BASE.replace(
        "assert.ok(result.length)", "t.assert.snapshot(result)"
    ),
}


def test_a_rename_into_another_describe_is_no_rename() -> None:
    base = "describe('a', () => {\n  it('x', () => { f(); });\n});\ndescribe('b', () => {});\n"
    head = "describe('a', () => {});\ndescribe('b', () => {\n  it('y', () => { f(); });\n});\n"
    drift = _drift(head, base)
    assert drift.removed == ("a > x",) and not drift.renamed


def test_two_tests_renamed_to_one_code_are_no_rename() -> None:
    base = "it('a', () => { f(); });\nit('b', () => { f(); });\n"
    head = "it('c', () => { f(); });\nit('d', () => { f(); });\n"
    drift = _drift(head, base)
    assert set(drift.removed) == {"a", "b"} and not drift.renamed


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_rename_bent_to_change_what_runs_fails(name: str) -> None:
    head = HOSTILE[name]
    base = BASE
    if name in ("a rename whose body reads its title", "a renamed snapshot test"):
        base, head = head, head.replace("`chunk llms-full.txt`", "`renamed`")
    drift = _drift(head, base)
    assert not drift.ok, name
    assert not drift.renamed, name


# Generated: a test's body of assertions, renamed alone (a rename) or
# renamed with one assertion edited, dropped or added (a change).
_ASSERTS = st.lists(
    st.tuples(st.sampled_from(["f", "g", "h"]), st.integers(0, 9), st.integers(0, 9)),
    min_size=1,
    max_size=5,
)


def _file(title: str, rows: list[tuple[str, int, int]], comment: bool = False) -> str:
    lines = [f"    expect({f}({a})).toBe({b});" for f, a, b in rows]
    if comment:
        lines.insert(len(lines) // 2, "    // expect(f(0)).toBe(0);")
    body = "\n".join(lines)
    return f"describe('d', () => {{\n  it('{title}', () => {{\n{body}\n  }});\n}});\n"


@settings(max_examples=60, deadline=None)
@given(rows=_ASSERTS, comment=st.booleans(), edit=st.integers(0, 3), at=st.integers(0, 4))
def test_a_generated_rename_passes_and_a_rename_with_an_edit_fails(
    rows: list[tuple[str, int, int]], comment: bool, edit: int, at: int
) -> None:
    base = _file("old", rows)
    assert _drift(_file("new", rows, comment), base).renamed == (("d > old", "d > new"),)
    changed = list(rows)
    i = at % len(rows)
    if edit == 0:
        changed[i] = (changed[i][0], changed[i][1], (changed[i][2] + 1) % 10)
    elif edit == 1:
        del changed[i]
    elif edit == 2:
        changed.insert(i, ("f", 1, 2))
    else:
        changed[i] = ("k", changed[i][1], changed[i][2])
    drift = _drift(_file("new", changed, comment), base)
    assert not drift.ok and not drift.renamed
