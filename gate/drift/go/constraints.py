"""A Go file's build constraints as one unit whose `same` is what they mean.

`gofmt` (Go 1.17 on) writes a `//go:build` line above a file's old
`// +build` lines, with the same meaning in the new syntax: a commit that
runs it over a repository adds a line to every constrained test file, and
no test runs on one build it did not run on before.  `header` finds the
constraints Go reads and `meaning` says what they select, so the splitter
can make them one unit (`gate.drift.go`) that changes only when the set of
builds a file is part of changes.

What Go reads (go/build's rule): the lines `//go:build EXPR` and `// +build
OPTIONS` in the file's leading run of `//` comments and blank lines, up to
the last blank line before the package clause (a constraint must be
followed by a blank line, or it is a package comment).  Go 1.17 and later
use the `//go:build` line where there is one, else the `// +build` lines
(all of them must hold; in one line, any of its space-separated options,
each a comma-separated list of terms that must all hold, a term a tag or
`!tag`); earlier versions read the `// +build` lines alone.  `meaning` is
the truth table of both readings over the tags the constraints name.

`header` returns no constraint (the caller keeps each directive its own
unit, judged as any other) where the header is not plain: a block comment
before the package clause, a constraint after the last blank line (a
comment Go does not read as one), two `//go:build` lines (a compile
error), a line that is not the syntax above, or more than `MAX_TAGS`
tags.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import product
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from gate.drift._treesitter import ParsedText

# More tags than this and the truth table is not built (2**12 rows).
MAX_TAGS = 12
_GO_BUILD = re.compile(r"//go:build(?:\s|$)")
_PLUS_BUILD = re.compile(r"//\s*\+build(?:\s|$)")
_TAG = re.compile(r"[A-Za-z0-9_.]+")
_TOKEN = re.compile(r"\s*(\(|\)|!|&&|\|\||[A-Za-z0-9_.]+)")

Expr = Callable[[dict[str, bool]], bool]


def is_constraint(text: str) -> bool:
    """Whether a comment's text is a build constraint line."""
    return bool(_GO_BUILD.match(text) or _PLUS_BUILD.match(text))


def header(source: ParsedText) -> tuple[list[Node], str]:
    """The comment nodes of the build constraints Go reads in `source`,
    when its header is plain (module docstring), and their `meaning`;
    else no node."""
    comments: list[Node] = []
    package: Node | None = None
    for node in source.root.children:
        if node.type == "package_clause":
            package = node
            break
        if node.type != "comment":
            return [], ""
        comments.append(node)
    if package is None or not comments:
        return [], ""
    texts = [source.text(c) for c in comments]
    if any(not t.startswith("//") for t in texts):
        return [], ""  # a block comment in the header
    found = [i for i, t in enumerate(texts) if is_constraint(t)]
    if not found:
        return [], ""
    # the index of the last comment followed by a blank line
    ends = [c.end_byte for c in comments]
    starts = [c.start_byte for c in comments[1:]] + [package.start_byte]
    gaps = enumerate(zip(ends, starts, strict=True))
    blank = [i for i, (e, s) in gaps if source.span(e, s).count("\n") > 1]
    if not blank or found[-1] > blank[-1]:
        return [], ""
    selects = meaning([texts[i] for i in found])
    return ([comments[i] for i in found], selects) if selects is not None else ([], "")


def meaning(lines: Sequence[str]) -> str | None:
    """What constraint lines select, as Go 1.17 on and earlier versions
    read them: the tags, then each reading's truth table over them; None
    when a line is not the syntax Go reads, there are two `//go:build`
    lines, or more than `MAX_TAGS` tags."""
    go_lines = [line for line in lines if _GO_BUILD.match(line)]
    plus_lines = [line for line in lines if _PLUS_BUILD.match(line)]
    if len(go_lines) > 1 or len(go_lines) + len(plus_lines) != len(lines):
        return None
    tags: set[str] = set()
    go_expr = _go_expr(go_lines[0].strip()[len("//go:build") :], tags) if go_lines else None
    if go_lines and go_expr is None:
        return None
    options = [_plus_line(line, tags) for line in plus_lines]
    if any(o is None for o in options) or len(tags) > MAX_TAGS:
        return None
    plus = [o for o in options if o is not None]

    def old(env: dict[str, bool]) -> bool:
        return all(line(env) for line in plus)

    new = go_expr if go_expr is not None else old
    names = sorted(tags)
    values = product((False, True), repeat=len(names))
    rows = [dict(zip(names, row, strict=True)) for row in values]
    table = "".join(f"{int(new(env))}{int(old(env))}" for env in rows)
    return f"{' '.join(names)}|{table}"


def _plus_line(line: str, tags: set[str]) -> Expr | None:
    """One `// +build` line: any option holds; an option's terms all hold."""
    fields = line.split("+build", 1)[1].split()
    if not fields:
        return None
    options: list[list[tuple[bool, str]]] = []
    for field in fields:
        terms: list[tuple[bool, str]] = []
        for term in field.split(","):
            negated = term.startswith("!")
            tag = term[1:] if negated else term
            if not _TAG.fullmatch(tag):
                return None
            tags.add(tag)
            terms.append((negated, tag))
        options.append(terms)
    return lambda env: any(all(env[t] != n for n, t in terms) for terms in options)


def _go_expr(text: str, tags: set[str]) -> Expr | None:
    """A `//go:build` expression (`||`, `&&`, `!`, parentheses, tags)."""
    tokens: list[str] = []
    position = 0
    text = text.rstrip()
    while position < len(text):
        m = _TOKEN.match(text, position)
        if m is None:
            return None
        tokens.append(m.group(1))
        position = m.end()
    parser = _Parser(tokens, tags)
    expr = parser.either()
    return expr if expr is not None and parser.at == len(tokens) else None


class _Parser:
    """Recursive descent over `//go:build`'s grammar."""

    def __init__(self, tokens: list[str], tags: set[str]) -> None:
        self.tokens = tokens
        self.tags = tags
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def either(self) -> Expr | None:
        parts = [self.both()]
        while self.peek() == "||":
            self.at += 1
            parts.append(self.both())
        if any(p is None for p in parts):
            return None
        found = [p for p in parts if p is not None]
        return found[0] if len(found) == 1 else lambda env: any(p(env) for p in found)

    def both(self) -> Expr | None:
        parts = [self.unary()]
        while self.peek() == "&&":
            self.at += 1
            parts.append(self.unary())
        if any(p is None for p in parts):
            return None
        found = [p for p in parts if p is not None]
        return found[0] if len(found) == 1 else lambda env: all(p(env) for p in found)

    def unary(self) -> Expr | None:
        token = self.peek()
        if token == "!":
            self.at += 1
            negated = self.unary()
            if negated is None:
                return None
            operand: Expr = negated
            return lambda env: not operand(env)
        if token == "(":
            self.at += 1
            inner = self.either()
            if inner is None or self.peek() != ")":
                return None
            self.at += 1
            return inner
        if token is None or not _TAG.fullmatch(token):
            return None
        self.at += 1
        self.tags.add(token)
        return lambda env: env[token]
