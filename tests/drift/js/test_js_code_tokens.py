"""`gate.drift.js.code_tokens`: a JS/TS text's code as tokens without
comments and layout, which `test_evidence` compares to tell a source edit
of comments alone."""

from __future__ import annotations

import pytest

from gate.drift import Unparsable
from gate.drift.js import code_tokens

BASE = "export function f(x: number): string {\n  return `a ${x}  b` // why\n}\n"


@pytest.mark.parametrize(
    "head",
    [
        "/** Docs. */\nexport function f(x: number): string {\n  return `a ${x}  b`\n}\n",
        "export function f(x: number): string { return `a ${x}  b` }\n",
        "export function f(\n  x: number\n): string {\n  /* why */ return `a ${x}  b`\n}\n",
    ],
)
def test_comments_and_layout_are_no_tokens(head: str) -> None:
    assert code_tokens(head, ".ts") == code_tokens(BASE, ".ts")


@pytest.mark.parametrize(
    "head",
    [
        BASE.replace("`a ${x}  b`", "`a ${x} b`"),  # a string's blanks
        BASE.replace("x: number", "x: string"),
        BASE.replace("b` // why", "b`; // why"),
        BASE.replace("// why", "+ '// why'"),
    ],
)
def test_code_is_tokens(head: str) -> None:
    assert code_tokens(head, ".ts") != code_tokens(BASE, ".ts")


def test_a_text_the_grammar_refuses() -> None:
    with pytest.raises(Unparsable):
        code_tokens("export const = ;\n", ".js")
