"""A JS/TS test file with syntax the grammar does not know (tree-sitter-
typescript 0.23.2 on `f<typeof import('x')>()`): each statement holding a
repair is one opaque unit compared by its exact text, the rest split as
ever (gate.drift.js.pair, gate.drift.paired_units); where a repair could
hide a change the file is judged whole."""

from __future__ import annotations

import pytest

from gate.drift import Unparsable, compare, paired_units, units_for

# Statements tree-sitter-typescript repairs; each at the top level.
BROKEN = [
    "vi.mock('./shims', async (importOriginal) => {\n"
    "    const actual = await importOriginal<typeof import('./shims')>();\n"
    "    return { ...actual, flag: true };\n"
    "});",
    "async function loaded() {\n    return await load<typeof import('./x')>();\n}",
    "beforeEach(async () => {\n    state = await make<typeof import('./y')>();\n});",
]
HEAD = "import { it, expect, vi, beforeEach } from 'vitest';\nlet state = 0;\n"
OLD = "it('a', () => {\n    expect(1).toBe(1);\n});\n"
NEW = "it('b', () => {\n    expect(2).toBe(2);\n});\n"
DESCRIBED = "describe('d', () => {{\n{inner}\n    it('a', () => {{ expect(1).toBe(1); }});\n}});\n"


def _refused(path: str, text: str) -> bool:
    try:
        units_for(path, text)
    except Unparsable:
        return True
    return False


def _drift(base: str, head: str, path: str = "a.test.ts") -> str:
    assert _refused(path, base) or _refused(path, head)
    found = compare(*paired_units(path, base, head))
    return "ok" if found.ok else found.summary()


@pytest.mark.parametrize("broken", BROKEN)
@pytest.mark.parametrize("path", ["a.test.ts", "a.test.mts", "a.test.tsx"])
def test_a_new_test_beside_an_unchanged_repaired_statement_is_a_new_test(
    broken: str, path: str
) -> None:
    base = f"{HEAD}{broken}\n{OLD}"
    found = compare(*paired_units(path, base, base + NEW))
    assert found.ok and found.added == ("b",), found.summary()


@pytest.mark.parametrize("broken", BROKEN)
def test_an_edit_of_a_test_beside_it_is_still_a_change(broken: str) -> None:
    base = f"{HEAD}{broken}\n{OLD}"
    head = base.replace("toBe(1)", "toBe(2)")
    assert _drift(base, head) == "a changed"


@pytest.mark.parametrize("broken", BROKEN)
def test_a_changed_repaired_statement_is_judged_whole(broken: str) -> None:
    base = f"{HEAD}{broken}\n{OLD}"
    head = f"{HEAD}{broken.replace('import(', 'import( ')}\n{OLD}"
    with pytest.raises(Unparsable, match="changed"):
        paired_units("a.test.ts", base, head)


@pytest.mark.parametrize("broken", BROKEN)
def test_a_new_or_removed_repaired_statement_is_drift(broken: str) -> None:
    plain = f"{HEAD}{OLD}"
    assert "runs at collection" in _drift(plain, plain + broken + "\n")
    assert _drift(f"{HEAD}{broken}\n{OLD}", plain).endswith("removed")


def test_two_repaired_statements_each_their_own_unit() -> None:
    base = f"{HEAD}{BROKEN[0]}\n{BROKEN[1]}\n{OLD}"
    found = compare(*paired_units("a.test.ts", base, base + NEW))
    assert found.ok and found.added == ("b",)
    with pytest.raises(Unparsable):
        paired_units("a.test.ts", base, base.replace("'./x'", "'./z'") + NEW)


def test_a_repair_inside_a_describe_body_opens_the_describe() -> None:
    base = DESCRIBED.format(inner="    " + BROKEN[1])
    head = base.replace("});\n", "    it('b', () => {});\n});\n")[: -len("});\n")]
    head = base[: base.rindex("});")] + "    it('b', () => {});\n});\n"
    found = compare(*paired_units("a.test.ts", base, head))
    assert found.ok and found.added == ("d > b",), found.summary()
    bent = base.replace("toBe(1)", "toBe(3)")
    assert _drift(base, bent) == "d > a changed"


def test_a_repair_that_takes_in_the_next_test_never_passes_it() -> None:
    # tree-sitter's repair of this declaration runs on over the test after it at
    # base, and stops before it once another test follows: no new test is seen
    top = "const loaded = await load<typeof import('./x')>();\n"
    base = f"{HEAD}{top}{OLD}"
    assert _drift(base, base + NEW) != "ok"
    assert _drift(base, base.replace("toBe(1)", "toBe(4)") + NEW) != "ok"


def test_a_repair_that_swallows_its_neighbours_hides_no_edit() -> None:
    # an unclosed callback: the repair runs to the end of the file, over the test after it
    base = f"{HEAD}vi.mock('./a', () => {{\n{OLD}"
    head = f"{HEAD}vi.mock('./a', () => {{\n{OLD.replace('toBe(1)', 'toBe(5)')}"
    with pytest.raises(Unparsable):
        paired_units("a.test.ts", base, head)


def test_a_file_the_repair_leaves_no_statement_of_is_refused() -> None:
    # an unclosed call at the top level: the whole file is one ERROR node
    base = f"{HEAD}vi.mock('./a', () => {{\n{OLD}"
    with pytest.raises(Unparsable, match="syntax error"):
        paired_units("a.test.ts", base, base + NEW)


def test_a_repair_between_statements_is_refused() -> None:
    base = f"{HEAD}{OLD}}}}})\n{OLD}"
    with pytest.raises(Unparsable, match="syntax error"):
        paired_units("a.test.ts", base, base + NEW)


def test_a_new_file_with_a_repaired_statement_is_still_refused() -> None:
    with pytest.raises(Unparsable, match="syntax error"):
        units_for("a.test.ts", f"{HEAD}{BROKEN[1]}\n{NEW}")
