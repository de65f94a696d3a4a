"""The tree-sitter side of `gate.drift.js`, `gate.drift.go`,
`gate.drift.java`, `gate.drift.csharp`, `gate.drift.rust`,
`gate.drift.kotlin` and `gate.drift.ruby`: a grammar loaded on first
use, a parse that refuses what it cannot split, and a node's exact text
and line.

Nothing here is imported until a JS/TS, Go, Java, C#, Rust, Kotlin or Ruby
test file must be judged: the `tree_sitter` wheel and its grammars are
loaded by `parse`, never at import
(`gate check` start-up does not pay for them; figures in
docs/development.md, "Splitting test files (tree-sitter)").

* The text is the gate's text (`gate.base.text`): a UTF-8 byte-order mark is
  skipped (it is part of line 1, as for git), a text that is not UTF-8 (a
  lone surrogate from `gate.base.text.decode`) is refused, and line numbers
  count `\\n`, `\\r\\n` and `\\r` as `gate.base.text.lines` does.
* A tree with an ERROR or MISSING node is refused (`Unparsable`): a file
  tree-sitter had to repair is not split into units, unless the caller
  asks for the tree as it is (`tolerant`, `gate.drift.js.pair`) and
  refuses it itself where a repair could hide code (`refuse`).  So is a text over
  `gate.model.change.TEXT_LIMIT` bytes, or one whose parse takes more than
  `PARSE_SECONDS`.
"""

from __future__ import annotations

import re
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, NoReturn

from gate.base.text import BOM
from gate.drift import Unparsable

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Point, Tree

# A whole 1 MiB test file parses in well under a second (docs/development.md,
# "Splitting test files (tree-sitter)");
# a parse still running after this is refused rather than waited on.
PARSE_SECONDS = 10.0
_CHUNK = 1 << 16
_BREAK = re.compile(rb"\r\n|\r|\n")

# grammar name -> (wheel that ships it, module, function returning the language)
GRAMMARS = {
    "javascript": ("tree-sitter-javascript", "tree_sitter_javascript", "language"),
    "typescript": ("tree-sitter-typescript", "tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree-sitter-typescript", "tree_sitter_typescript", "language_tsx"),
    "go": ("tree-sitter-go", "tree_sitter_go", "language"),
    "java": ("tree-sitter-java", "tree_sitter_java", "language"),
    "c_sharp": ("tree-sitter-c-sharp", "tree_sitter_c_sharp", "language"),
    "rust": ("tree-sitter-rust", "tree_sitter_rust", "language"),
    "kotlin": ("tree-sitter-kotlin", "tree_sitter_kotlin", "language"),
    "ruby": ("tree-sitter-ruby", "tree_sitter_ruby", "language"),
}


@cache
def _language(grammar: str) -> Language:
    """`grammar`'s language, loaded once per process (a failure is not kept)."""
    import importlib

    wheel, module, function = GRAMMARS[grammar]
    try:
        import tree_sitter

        language = tree_sitter.Language(getattr(importlib.import_module(module), function)())
    except ImportError as exc:
        raise Unparsable(
            f"the {grammar} grammar cannot be loaded ({exc}): install the gate with its "
            f"dependencies (tree-sitter and {wheel})"
        ) from None
    except ValueError as exc:  # an ABI the installed tree-sitter does not read
        raise Unparsable(
            f"the installed {wheel} does not fit the installed tree-sitter ({exc}): "
            "install the versions in requirements.lock"
        ) from None
    return language


# A tree-sitter `Parser` keeps its parse state in itself and may not be used
# by two threads at once (`gate backtest --jobs 2` and `gate lab` split test
# files on several threads): each thread has its own parsers, all sharing the
# one loaded `Language` of each grammar.
_THREAD = threading.local()


def _parser(grammar: str) -> Parser:
    """This thread's parser for `grammar`."""
    parsers: dict[str, Parser] | None = getattr(_THREAD, "parsers", None)
    if parsers is None:
        parsers = _THREAD.parsers = {}
    parser = parsers.get(grammar)
    if parser is None:
        import tree_sitter

        parser = parsers[grammar] = tree_sitter.Parser(_language(grammar))
    return parser


class ParsedText:
    """A parsed text: its bytes (without a byte-order mark), the tree, and
    each node's exact text and 1-based line."""

    def __init__(self, data: bytes, tree: Tree, grammar: str = "") -> None:
        self.data = data
        self.tree = tree
        self.grammar = grammar
        self.root: Node = tree.root_node
        self._starts = [m.end() for m in _BREAK.finditer(data)]

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8")

    def span(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8")

    def line(self, node: Node) -> int:
        return self.line_at(node.start_byte)

    def line_at(self, offset: int) -> int:
        return bisect_right(self._starts, offset) + 1


def parse(text: str, grammar: str, tolerant: bool = False) -> ParsedText:
    """`text` parsed with `grammar`; `Unparsable` when it is not that
    language, or, when `tolerant`, only when it cannot be parsed at all
    (the tree may then hold ERROR and MISSING nodes: `refuse` names one)."""
    from gate.model.change import TEXT_LIMIT

    try:
        data = text.removeprefix(BOM).encode("utf-8")
    except UnicodeEncodeError:
        raise Unparsable("the file is not UTF-8 text, so no grammar reads it") from None
    if len(data) > TEXT_LIMIT:
        raise Unparsable(f"the file is over {TEXT_LIMIT >> 20} MiB, too large to split")
    parser = _parser(grammar)
    deadline = time.monotonic() + PARSE_SECONDS

    def read(offset: int, _point: Point) -> bytes:
        return data[offset : offset + _CHUNK]

    def too_long(_offset: int, _has_error: bool) -> bool:
        return time.monotonic() > deadline

    try:
        tree = parser.parse(read, progress_callback=too_long)
    except ValueError:  # py-tree-sitter's word for a parse the callback stopped
        tree = None
    if tree is None:
        # A stopped parse is kept in the parser, and its next parse would
        # resume it instead of reading the next text: start it afresh.
        parser.reset()
        if time.monotonic() > deadline:
            raise Unparsable(f"the {grammar} parse took over {PARSE_SECONDS:g} s and was stopped")
        raise Unparsable(f"tree-sitter could not parse the file with the {grammar} grammar")
    source = ParsedText(data, tree, grammar)
    if source.root.has_error and not tolerant:
        refuse(source, source.root)
    return source


def refuse(source: ParsedText, node: Node) -> NoReturn:
    """Raise `Unparsable` naming the line of the first syntax error in `node`."""
    line = source.line(_first_error(node))
    raise Unparsable(f"the {source.grammar} grammar finds a syntax error at line {line}")


@cache
def _query(grammar: str, pattern: str) -> object:
    import tree_sitter

    return tree_sitter.Query(_language(grammar), pattern)


def captures(source: ParsedText, pattern: str) -> dict[str, list[Node]]:
    """The nodes of `source`'s tree that the query `pattern` (written for
    its grammar) captures, by capture name."""
    import tree_sitter

    query = _query(source.grammar, pattern)
    return tree_sitter.QueryCursor(query).captures(source.root)  # type: ignore[arg-type]


def _first_error(root: Node) -> Node:
    """The first ERROR or MISSING node in document order, or the innermost
    node whose subtree has one that the visible tree does not show (an
    error in a hidden node); iterative, so any depth is fine."""
    node = root
    while True:
        if node.is_error or node.is_missing:
            return node
        inner = [c for c in node.children if c.has_error or c.is_missing]
        if not inner:
            return node
        node = inner[0]


class UniqueKeys:
    """Unit keys made unique in file order: a repeat of `key` becomes
    `key #2`, `key #3`, ... (skipping any already taken), so appending a
    unit never changes an earlier key; amortized constant time per key, so
    100,000 tests of one title cost no more than 100,000 titles."""

    def __init__(self) -> None:
        self._taken: set[str] = set()
        self._next: dict[str, int] = {}

    def add(self, key: str) -> tuple[str, int]:
        """The unique key for `key` and its number (1 for the first)."""
        if key not in self._taken:
            self._taken.add(key)
            return key, 1
        n = self._next.get(key, 2)
        while f"{key} #{n}" in self._taken:
            n += 1
        self._next[key] = n + 1
        unique = f"{key} #{n}"
        self._taken.add(unique)
        return unique, n

    def unit(self, key: str, name: str) -> tuple[str, str]:
        """The unique key for `key` and the name a unit of it shows: `name`
        for the first, `name #2`, ... for the repeats, numbered as the key."""
        unique, n = self.add(key)
        return unique, name if n == 1 else f"{name} #{n}"


class NamesByPlace:
    """Names found in a file, each at the byte where it starts: the ones
    inside a node's range (`within`), by bisection, so asking for every
    unit of a file costs a lookup each, not a scan."""

    def __init__(self, found: Iterable[tuple[int, str]]) -> None:
        ordered = sorted(found)
        self._starts = [start for start, _ in ordered]
        self._names = [name for _, name in ordered]

    def within(self, node: Node) -> tuple[str, ...]:
        """The distinct names in `node`'s source range, in order."""
        low = bisect_left(self._starts, node.start_byte)
        high = bisect_left(self._starts, node.end_byte)
        return tuple(dict.fromkeys(self._names[low:high]))


# Node types that are never code (tree-sitter "extras").
COMMENTS = frozenset({"comment", "html_comment", "hash_bang_line"})


def descendants(node: Node) -> Iterator[Node]:
    """Every named node below `node` (not `node` itself), each once."""
    stack = list(node.named_children)
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.named_children)


def bound_to(
    values: Mapping[str, Sequence[Node]], reaches: Callable[[Node], bool], found: set[str]
) -> set[str]:
    """`found` with each name one of whose `values` `reaches` added, until
    no name is left to add (`reaches` may read `found`: a local bound to a
    local already found is found too, `a = Foo.LIST; b = a`)."""
    grew = True
    while grew:
        grew = False
        for name, rights in values.items():
            if name not in found and any(reaches(r) for r in rights):
                found.add(name)
                grew = True
    return found


def spelled_alike(
    values: Mapping[str, Sequence[Node]], text: Callable[[Node], str]
) -> dict[str, str]:
    """Each name whose `values` are all spelled alike (`old = $stdin`,
    however many times), with that spelling."""
    return {
        name: spelled.pop()
        for name, rights in values.items()
        if len(spelled := {text(r) for r in rights}) == 1
    }


def inside(node: Node, ancestor: Node) -> bool:
    """Whether `node` is `ancestor` or below it."""
    current: Node | None = node
    while current is not None:
        if current == ancestor:
            return True
        current = current.parent
    return False


def has_kind(node: Node, kind: str) -> bool:
    """Whether `node` or a named node below it is of `kind`."""
    return node.type == kind or any(d.type == kind for d in descendants(node))


def named(node: Node) -> list[Node]:
    """`node`'s named children without comments."""
    return [c for c in node.named_children if c.type not in COMMENTS]


def holder(node: Node, kind: str, field: str) -> Node | None:
    """`node`'s parent where that is a `kind` with `node` as its `field`
    (the assignment `node` is the left side of: `holder(node,
    "assignment_expression", "left")`), else None."""
    up = node.parent
    if up is None or up.type != kind or up.child_by_field_name(field) != node:
        return None
    return up
