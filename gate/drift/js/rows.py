"""A JS/TS test or describe over a table (`it.each(table)(...)`,
`test.each`, `describe.each`, Vitest's `it.for`) as tokens, and the rows
a head version may insert as new cases (`table_tokens`, `Unit.tokens`,
`gate.drift.grown`); and a test's tokens as one text (`tree_form`:
`Unit.same`, and without its title `Unit.retitled`).

**Tokens** are the statement's syntax tree: each named node's kind as an
opening and a closing token, each anonymous node's text (an operator, a
keyword, punctuation), a literal (a string, a template string, a regular
expression, a number) as its exact text; comments and layout are no
tokens (but a pragma comment, `PRAGMA_COMMENT`, is its text), and
neither is a comma between the table's rows.  Automatic
semicolon insertion, which makes a line break mean something, changes the
tree, so it changes the tokens.  A describe's body is left out (its
statements are units of their own): the tokens are the frame's
(`Tokens.frame`), which grows as a test does.

**A new case** is an element of the array literal the table is, when the
table is one array literal (not a template-string table, not a name):
each element is wrapped in row tokens, so a row inserted anywhere, as a
whole, is a new case; a row edited, removed or reordered, a title, an
option, a body or anything else changed is a change.  A row that may run
code makes the unit collection-time code, which never grows."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.drift import Tokens, Unparsable
from gate.drift._treesitter import COMMENTS, ParsedText, named, parse
from gate.drift.js.frameworks import Call

if TYPE_CHECKING:
    from tree_sitter import Node

# The curried calls whose argument is a table of rows.
TABLES = frozenset({"each", "for"})
# Nodes whose exact text is one token.
_ATOMS = frozenset({"string", "template_string", "regex", "number"})
_OPEN, _CLOSE = "\x00row", "\x00end"
# A comment a tool reads (a pragma), which is code: a directive of the type
# checker (`@ts-expect-error`, `@ts-ignore`, `@type` in a checked JS file,
# `/// <reference ...>`), of a linter (`eslint-disable`, `/* global x */`,
# `biome-ignore`, ...), of coverage (`istanbul ignore`, `c8 ignore`, `v8
# ignore`, `node:coverage`), of a formatter (`prettier-ignore`), of a test
# runner (`@jest-environment`, `@vitest-environment`), of a bundler or
# minifier (`#__PURE__`, `@__NO_SIDE_EFFECTS__`, `webpackChunkName`,
# `@vite-ignore`), a source map (`# sourceMappingURL=`), Flow; any `@word`
# and any `#` directive counts, whatever tool reads it.
PRAGMA_COMMENT = re.compile(
    r"@[A-Za-z_$]|#\s*[_A-Za-z]|<reference|<amd-"
    r"|\b(?:istanbul|c8|v8|node:coverage|eslint[\w-]*|jshint|jslint|jscs|tslint|biome-ignore"
    r"|deno-lint-ignore|deno-fmt-ignore|oxlint[\w-]*|prettier-ignore|dprint-ignore"
    r"|webpack\w*|vite\w*|turbopack\w*|flow|noflow|sourceMappingURL|sourceURL)\b"
    r"|^\s*/[*/]+\s*(?:globals?|exported)\b",
    re.IGNORECASE,
)


def table_of(source: ParsedText, call: Call) -> Node | None:
    """The array literal that is the table of `call`'s `.each(...)` or
    `.for(...)`, when it is its one argument; else None."""
    found = None
    for arguments in call.curried:
        up = arguments.parent
        function = up.child_by_field_name("function") if up is not None else None
        member = function.child_by_field_name("property") if function is not None else None
        if member is None or source.text(member) not in TABLES:
            continue
        if found is not None or arguments.type != "arguments":
            return None  # two tables, or a template-string table
        inner = named(arguments)
        if len(inner) != 1 or inner[0].type != "array":
            return None
        found = inner[0]
    return found


def table_tokens(
    source: ParsedText, statement: Node, call: Call, skip: Node | None = None
) -> Callable[[], Tokens] | None:
    """`Unit.tokens` for a test or describe `statement` over a literal
    table (None: it has none); `skip`: a describe's body, left out."""
    table = table_of(source, call)
    if table is None or any(_hole(table)):
        return None

    def build() -> Tokens:
        tokens, spans = _walk(source, statement, table, skip)
        return Tokens(tuple(tokens), tuple(spans), frame=skip is not None)

    return build


def tree_form(grammar: str, code: str, title: tuple[int, int] | None = None) -> str | None:
    """The tokens of a unit's `code`, parsed alone with `grammar` (no
    table's rows marked), as one text, equal across versions exactly when
    both mean the same (`Unit.same`); with `title`, the (start, end) bytes
    of the node of `code` that is its title, that node's tokens are left
    out, standing as one `(title ...)` token that holds the `@tags` of its
    text, which Playwright's `--grep` selects tests by (`Unit.retitled`).
    None where `code` does not parse alone, or `title` is no node of it.
    Parsed when asked, so that no unit keeps its file's tree."""
    try:
        source = parse(code, grammar)
    except Unparsable:
        return None
    if _pragma(source, code):
        return None
    node = None
    if title is not None:
        node = source.root.descendant_for_byte_range(*title)
        if node is None or (node.start_byte, node.end_byte) != title:
            return None
    tokens, _ = _walk(source, source.root, None, None, node)
    return "\x00".join(tokens)


TAG = re.compile(r"@[\w-]+")


def _walk(
    source: ParsedText,
    statement: Node,
    table: Node | None,
    skip: Node | None,
    title: Node | None = None,
) -> tuple[list[str], list[tuple[int, int]]]:
    """The tokens of `statement` and the spans of `table`'s rows in them."""
    tokens: list[str] = []
    spans: list[tuple[int, int]] = []
    stack: list[tuple[Node, bool]] = [(statement, False)]
    starts: dict[int, int] = {}
    rows = -1 if table is None else table.id
    while stack:
        node, leaving = stack.pop()
        if leaving:
            tokens.append(")")
            if node.parent is not None and node.parent.id == rows:
                tokens.append(_CLOSE)
                spans.append((starts.pop(node.id), len(tokens)))
            continue
        if node.type in COMMENTS:
            # a pragma is a token: a row inserted beside a new
            # `// @ts-expect-error` is more than a new case
            text = source.text(node)
            if PRAGMA_COMMENT.search(text) is not None:
                tokens.append(text)
            continue
        if title is not None and node.id == title.id:
            tags = sorted(set(TAG.findall(source.text(node))))
            tokens.append(f"(title {' '.join(tags)})")
            continue
        if not node.is_named:
            if not (node.type == "," and node.parent is not None and node.parent.id == rows):
                tokens.append(source.text(node))
            continue
        if node.parent is not None and node.parent.id == rows:
            starts[node.id] = len(tokens)
            tokens.append(_OPEN)
        tokens.append(f"({node.type}")
        stack.append((node, True))
        if node.type in _ATOMS or not node.children:
            tokens.append(source.text(node))
        elif skip is None or node.id != skip.id:
            stack.extend((child, False) for child in reversed(node.children))
    return tokens, spans


def holds_pragma(grammar: str, code: str) -> bool:
    """Whether `code`, parsed alone with `grammar`, holds a pragma comment
    (`PRAGMA_COMMENT`); False where it does not parse alone."""
    try:
        source = parse(code, grammar)
    except Unparsable:
        return False
    return _pragma(source, code)


def _pragma(source: ParsedText, code: str) -> bool:
    """Whether a comment of `source` (the parse of `code`) is a pragma."""
    return ("//" in code or "/*" in code or "<!--" in code) and any(
        PRAGMA_COMMENT.search(source.text(c)) is not None for c in _comments(source.root)
    )


def _comments(root: Node) -> list[Node]:
    """The comments of the tree under `root`."""
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in COMMENTS:
            found.append(node)
        else:
            stack.extend(node.children)
    return found


def _hole(table: Node) -> list[bool]:
    """A hole in the array (`[a, , b]`, `[, a]`): a comma with no element before it."""
    previous = None
    found = []
    for child in table.children:
        if child.type in COMMENTS:
            continue
        found.append(child.type == "," and previous in (",", "["))
        previous = child.type
    return found
