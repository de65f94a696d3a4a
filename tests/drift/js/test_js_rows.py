"""A JS/TS test or describe over a literal table (`it.each`, `test.each`,
`describe.each`, Vitest's `it.for`) that only gained rows has only gained
cases (gate.drift.js.rows, gate.drift.grown); each hostile twin (a row
edited, removed, reordered, split or merged, the body, title or a
modifier changed, a row that runs code, a table that is no literal)
changes the test."""

from __future__ import annotations

from typing import Any

import pytest

from gate.drift import compare
from gate.drift.js import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

HEADER = (
    "import { describe, it, test, expect } from 'vitest';\nimport { parse } from '../src/p.js';\n\n"
)
# Each shape: the call before its table, the rows, and what follows the table.
SHAPES = {
    "it.each arrays": (
        "it.each(",
        ["['a', 1]", "['b', 2]"],
        ")('reads %s', (x, n) => {\n  expect(parse(x)).toBe(n);\n});\n",
    ),
    "test.each objects": (
        "test.each(",
        ["{ x: 'a', n: 1 }", "{ x: 'b', n: 2 }"],
        ")('reads $x', ({ x, n }) => {\n  expect(parse(x)).toBe(n);\n});\n",
    ),
    "it.for values": (
        "it.for(",
        ["'a'", "'b'"],
        ")('reads %s', (x) => {\n  expect(parse(x)).toBeTruthy();\n});\n",
    ),
    "describe.each": (
        "describe.each(",
        ["['a']", "['b']"],
        ")('mode %s', (x) => {\n"
        "  it('reads', () => {\n    expect(parse(x)).toBeTruthy();\n  });\n});\n",
    ),
    "nested it.each": (
        "describe('p', () => {\n  it.each(",
        ["[1]", "[2]"],
        ")('n %i', (n) => {\n    expect(n).toBeGreaterThan(0);\n  });\n});\n",
    ),
}
NEW_ROW = {
    "it.each arrays": "['c', 3]",
    "test.each objects": "{ x: 'c', n: 3 }",
    "it.for values": "'c'",
    "describe.each": "['c']",
    "nested it.each": "[3]",
}
# How the rows are laid out: one line each with a trailing comma, inline.
LAYOUTS = {
    "lines": lambda rows: "[\n" + "".join(f"  {r}, // row\n" for r in rows) + "]",
    "inline": lambda rows: "[" + ", ".join(rows) + "]",
}


def _file(shape: str, rows: list[str], layout: str, tail: str | None = None) -> str:
    head, _, after = SHAPES[shape]
    return HEADER + head + LAYOUTS[layout](rows) + (after if tail is None else tail)


def _drift(base: str, head: str) -> Any:
    return compare(units(base, ".ts"), units(head, ".ts"))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("where", [0, 1, 2])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_rows_inserted_into_a_literal_table_are_new_cases(
    shape: str, where: int, layout: str
) -> None:
    rows = SHAPES[shape][1]
    grown = [*rows[:where], NEW_ROW[shape], *rows[where:]]
    found = _drift(_file(shape, rows, layout), _file(shape, grown, layout))
    assert found.ok and found.grew, found.summary()


def _twins(shape: str) -> dict[str, tuple[list[str], str | None, str]]:
    """Each twin: the head's rows, its tail (None: the same) and the call."""
    rows = SHAPES[shape][1]
    head, _, after = SHAPES[shape]
    new = NEW_ROW[shape]
    return {
        "a row edited": ([rows[0], new], None, head),
        "a row removed": ([rows[1], new], None, head),
        "rows reordered": ([rows[1], rows[0], new], None, head),
        "a row that runs code": ([*rows, "compute()"], None, head),
        "a row appended and the body changed": (
            [*rows, new],
            after.replace("expect(", "expect.soft("),
            head,
        ),
        "a row appended and the title changed": (
            [*rows, new],
            after.replace("', (", " again', (", 1),
            head,
        ),
        "a row appended and the test skipped": (
            [*rows, new],
            None,
            head.replace(".each(", ".skip.each(").replace(".for(", ".skip.for("),
        ),
        "a row appended and the test focused": (
            [*rows, new],
            None,
            head.replace(".each(", ".only.each(").replace(".for(", ".only.for("),
        ),
    }


TWINS = [(shape, twin) for shape in sorted(SHAPES) for twin in sorted(_twins(shape))]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize(("shape", "twin"), TWINS)
def test_each_hostile_twin_changes_the_test(shape: str, twin: str, layout: str) -> None:
    rows, tail, call = _twins(shape)[twin]
    base = _file(shape, SHAPES[shape][1], layout)
    head = HEADER + call + LAYOUTS[layout](rows) + (SHAPES[shape][2] if tail is None else tail)
    assert head != base
    found = _drift(base, head)
    assert not found.ok, (twin, head)


@pytest.mark.parametrize(
    ("base_rows", "head_rows"),
    [
        ("[['a'], ['b']]", "[['a'], ['b'], ['c']]"),
        ("[['a', 'b']]", "[['a'], ['b']]"),  # a row split in two
        ("[['a'], ['b']]", "[['a', 'b']]"),  # two rows merged
        ("[a, -b]", "[a - b]"),  # commas dropped from the tokens must not merge rows
        ("[1, 2]", "[1, , 2, 3]"),  # a hole is no row
        ("ROWS", "[...ROWS, 3]"),  # a table that is a name
    ],
)
def test_only_whole_rows_of_a_literal_array_are_cases(base_rows: str, head_rows: str) -> None:
    body = ")('n %s', (v) => {\n  expect(v).toBeTruthy();\n});\n"
    base = f"{HEADER}const ROWS = [1];\nconst a = 1, b = 2;\nit.each({base_rows}{body}"
    head = f"{HEADER}const ROWS = [1];\nconst a = 1, b = 2;\nit.each({head_rows}{body}"
    found = _drift(base, head)
    assert found.ok == (head_rows == "[['a'], ['b'], ['c']]"), found.summary()


def test_a_template_string_table_is_judged_as_a_whole() -> None:
    body = "('$a', ({ a }) => {\n  expect(a).toBe(1);\n});\n"
    base = HEADER + "it.each`\n  a\n  ${1}\n`" + body
    head = HEADER + "it.each`\n  a\n  ${1}\n  ${1}\n`" + body
    assert not _drift(base, head).ok


def test_the_rule_passes_appended_rows_and_fails_an_edited_row(rubric_repo: RubricRepo) -> None:
    path = "src/__tests__/p.test.ts"
    rows = SHAPES["it.each arrays"][1]
    rubric_repo.write_many({path: _file("it.each arrays", rows, "lines"), "package.json": "{}\n"})
    base = rubric_repo.commit("base")
    rubric_repo.write(path, _file("it.each arrays", [*rows, NEW_ROW["it.each arrays"]], "lines"))
    grew = rubric_repo.commit("a row")
    rubric_repo.write(path, _file("it.each arrays", [rows[0], "['b', 3]"], "lines"))
    bent = rubric_repo.commit("a row edited")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (grew, bent)
    )
    message, bent_message = result["message"], bent_result["message"]
    assert code == 0 and "new cases added to 1 existing test" in message, message
    assert bent_code == 1 and "reads %s changed" in bent_message, bent_message
