"""gate.base.structured.go_mod_lines: a go.mod's lines, each with the
directive block it stands in, its code and its comment apart."""

from __future__ import annotations

import re

import pytest

from gate.base.structured import go_mod_lines


def _opens(line: str) -> str | None:
    opened = re.match(r"(require|replace)\s*\(\s*$", line)
    return opened[1] if opened is not None else None


def _read(text: str) -> list[tuple[str | None, str, str | None]]:
    """Each line's block, code and comment."""
    return [(x.block, x.code, x.comment) for x in go_mod_lines(text, _opens)]


GO_MOD = """module example.com/m // the module

require (
\tgithub.com/stretchr/testify v1.9.0 // indirect
)
replace example.com/x => ./x
require (
)
"""


def test_lines_carry_their_block_and_lose_their_comments() -> None:
    assert _read(GO_MOD) == [
        (None, "module example.com/m", " the module"),
        (None, "", None),
        (None, "require (", None),
        ("require", "github.com/stretchr/testify v1.9.0", " indirect"),
        (None, "replace example.com/x => ./x", None),
        (None, "require (", None),
    ]


def test_only_the_callers_rule_opens_a_block() -> None:
    text = "exclude (\n\tgithub.com/x v1.0.0\n)\n"
    assert _read(text) == [
        (None, "exclude (", None),
        (None, "github.com/x v1.0.0", None),
        (None, ")", None),
    ]


# (a go.mod, its one requirement's line as read): the go command's lexer
# (golang.org/x/mod/modfile) starts a comment at any `//` outside a quoted
# or backquoted string, in a block or on a single `require` line.
COMMENTS = [
    (
        "require (\n\tgotest.tools/v3 v3.5.1 // indirect\n)\n",
        ("require", "gotest.tools/v3 v3.5.1", " indirect"),
    ),
    (
        "require (\n\tgotest.tools/v3 v3.5.1 //indirect\n)\n",
        ("require", "gotest.tools/v3 v3.5.1", "indirect"),
    ),
    (
        "require gotest.tools/v3 v3.5.1 // indirect\n",
        (None, "require gotest.tools/v3 v3.5.1", " indirect"),
    ),
    (
        "require gotest.tools/v3 v3.5.1//indirect\n",
        (None, "require gotest.tools/v3 v3.5.1", "indirect"),
    ),
    (
        "require gotest.tools/v3 v3.5.1 // indirect; for docker\n",
        (None, "require gotest.tools/v3 v3.5.1", " indirect; for docker"),
    ),
    ("require gotest.tools/v3 v3.5.1 ///x\n", (None, "require gotest.tools/v3 v3.5.1", "/x")),
    ("require gotest.tools/v3 v3.5.1\n", (None, "require gotest.tools/v3 v3.5.1", None)),
    ("require gotest.tools/v3 v3.5.1 //\n", (None, "require gotest.tools/v3 v3.5.1", "")),
    ('require "a.com/x//y" v1.0.0\n', (None, 'require "a.com/x//y" v1.0.0', None)),
    (
        'require "a.com/x//y" v1.0.0 // indirect\n',
        (None, 'require "a.com/x//y" v1.0.0', " indirect"),
    ),
    (
        'require (\n\t"a.com/x//y" v1.0.0 //indirect\n)\n',
        ("require", '"a.com/x//y" v1.0.0', "indirect"),
    ),
    ('require (\n\t"a.com/\\"//y" v1.0.0\n)\n', ("require", '"a.com/\\"//y" v1.0.0', None)),
    ("require `a.com/x//y` v1.0.0 // c\n", (None, "require `a.com/x//y` v1.0.0", " c")),
    ("require a.com/x//y v1.0.0\n", (None, "require a.com/x", "y v1.0.0")),
    # a string left open: the go command refuses the line; all of it is code
    ('require "a.com/x // indirect\n', (None, 'require "a.com/x // indirect', None)),
]


@pytest.mark.parametrize(("text", "line"), COMMENTS)
def test_a_comment_starts_at_a_double_slash_outside_a_string(
    text: str, line: tuple[str | None, str, str | None]
) -> None:
    assert [read for read in _read(text) if read[1] != "require ("] == [line]


def test_each_line_keeps_its_number() -> None:
    """A block's closing line is not given, but counted."""
    assert [(x.number, x.code) for x in go_mod_lines(GO_MOD, _opens)] == [
        (1, "module example.com/m"),
        (2, ""),
        (3, "require ("),
        (4, "github.com/stretchr/testify v1.9.0"),
        (6, "replace example.com/x => ./x"),
        (7, "require ("),
    ]
