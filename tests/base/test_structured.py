"""gate.base.structured.go_mod_lines: a go.mod's lines without comments,
each with the directive block it stands in."""

from __future__ import annotations

import re

from gate.base.structured import go_mod_lines


def _opens(line: str) -> str | None:
    opened = re.match(r"(require|replace)\s*\(\s*$", line)
    return opened[1] if opened is not None else None


GO_MOD = """module example.com/m // the module

require (
\tgithub.com/stretchr/testify v1.9.0 // indirect
)
replace example.com/x => ./x
require (
)
"""


def test_lines_carry_their_block_and_lose_their_comments() -> None:
    assert list(go_mod_lines(GO_MOD, _opens)) == [
        (None, "module example.com/m"),
        (None, ""),
        (None, "require ("),
        ("require", "github.com/stretchr/testify v1.9.0"),
        (None, "replace example.com/x => ./x"),
        (None, "require ("),
    ]


def test_only_the_callers_rule_opens_a_block() -> None:
    text = "exclude (\n\tgithub.com/x v1.0.0\n)\n"
    assert list(go_mod_lines(text, _opens)) == [
        (None, "exclude ("),
        (None, "github.com/x v1.0.0"),
        (None, ")"),
    ]
