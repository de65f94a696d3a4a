"""What the Java and C# readers share (`gate.drift.java`,
`gate.drift.csharp`): a test file as classes and their members, on a
tree-sitter tree, each language saying what its members are (`Splitter`).

* **Units** are the file's declarations: the package or namespace, each
  import, each class header (its annotations or attributes, modifiers,
  name and base types, without its body: `class Outer`, a nested class
  `class Outer.Inner`), and each member of a class, whose unit names the
  class as `Unit.parent`: a method, a field, a constructor, an
  initializer block.  A type that is not a class (an enum, an interface,
  a record) is one unit, a member of its class when nested.
* **Roles** come from each language's tables: a method a test framework
  runs is a CASE; a setup or teardown method, a constructor, an
  initializer block, an annotated field or a field whose initializer
  runs code is COLLECTION (it runs around the class's existing tests, so
  a new one in an existing class fails); everything else is SUPPORT.
* **Names**: `binds` is what a unit declares (a member's name, a class's
  name, an import's simple name); `uses` the identifiers its code reads
  (not a string or a comment), but a class header's `uses` leave out the
  class's own name.  A header's `uses` name its annotations and base
  types.  A member's `Unit.open` says whether a new one can change its
  class's existing tests only through the names it binds (`opens`): a
  private member, or one of a class without base types whose
  annotations or attributes only mark it as a test class; never one
  named as a hook (`HOOK_NAMES`) or with an annotation or attribute a
  framework reads (`gate.drift.compare` then checks that no base code
  spells its names).
* **Tokens** (`Unit.same`, `Unit.tokens`) are the leaves of a unit's
  tree without comments and without a trailing comma before a closing
  bracket; a node whose text holds more than its children (outside
  whitespace) is one token of its exact text.  So a comment or a
  reformat changes no unit.  A test's rows (`Splitter.rows`: the
  elements of `@ValueSource`/`@CsvSource`, one `[InlineData]`,
  `[TestCase]`, `[DataRow]` attribute) are the spans a head version may
  insert as new cases (`gate.drift.grown`), with the comma that joins
  one to its neighbour.

A text that does not parse (an ERROR or MISSING node) is `Unparsable`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from gate.drift import CASE, COLLECTION, SUPPORT, Tokens, Unit
from gate.drift._treesitter import COMMENTS, NamesByPlace, ParsedText, UniqueKeys, captures

if TYPE_CHECKING:
    from tree_sitter import Node

_CLOSERS = frozenset({"}", ")", "]"})
ROLES = (CASE, COLLECTION, SUPPORT)


def leaves(source: ParsedText, nodes: Iterable[Node], comments: frozenset[str]) -> list[Node]:
    """The token nodes of `nodes` in order: leaves, and a node whose text
    holds more than its children's (a string whose content is no child),
    without comments."""
    out: list[Node] = []
    stack = list(reversed(list(nodes)))
    while stack:
        node = stack.pop()
        if node.type in comments or node.type in COMMENTS:
            continue
        if node.child_count == 0 or _gaps(source, node):
            out.append(node)
            continue
        stack.extend(reversed(node.children))
    return out


def _gaps(source: ParsedText, node: Node) -> bool:
    """Whether `node`'s text has more than whitespace outside its children."""
    at = node.start_byte
    for child in node.children:
        if source.data[at : child.start_byte].strip():
            return True
        at = max(at, child.end_byte)
    return bool(source.data[at : node.end_byte].strip())


def tokens(
    source: ParsedText, nodes: Iterable[Node], comments: frozenset[str], rows: Iterable[Node] = ()
) -> Tokens:
    """The tokens of `nodes` (see the module's docstring) and the spans of
    the `rows` nodes among them, each alone and with the comma before or
    after it."""
    found = leaves(source, nodes, comments)
    kept: list[Node] = []
    for i, node in enumerate(found):
        following = found[i + 1] if i + 1 < len(found) else None
        if node.type == "," and following is not None and following.type in _CLOSERS:
            continue  # a trailing comma: a formatter's choice
        kept.append(node)
    texts = tuple(source.text(n) for n in kept)
    starts = {n.start_byte: i for i, n in enumerate(kept)}
    ends = {n.end_byte: i + 1 for i, n in enumerate(kept)}
    spans: set[tuple[int, int]] = set()
    for row in rows:
        start, end = starts.get(row.start_byte), ends.get(row.end_byte)
        if start is None or end is None or start >= end:
            continue
        spans.add((start, end))
        if start > 0 and texts[start - 1] == ",":
            spans.add((start - 1, end))
        if end < len(texts) and texts[end] == ",":
            spans.add((start, end + 1))
    return Tokens(texts, tuple(sorted(spans)))


class Splitter:
    """A file's units, gathered as a language's reader walks its tree
    (`add`, `header`); `identifiers` the node types whose text is a name
    code reads, `comments` the comment node types, `spelled` the name an
    identifier's text spells."""

    def __init__(
        self,
        source: ParsedText,
        identifiers: frozenset[str],
        comments: frozenset[str],
        spelled: Callable[[str], str] = str,
    ) -> None:
        self.source = source
        self.comments = comments
        self.identifiers = identifiers
        self.found: list[Unit] = []
        self._keys = UniqueKeys()
        # The conditional-compilation branch being read (`#if DEBUG: `),
        # which starts the keys of the units inside it: a unit moved into
        # or out of a branch is another unit.
        self.guard = ""
        # Whether the class whose members are being read extends a class:
        # a test it inherits from another file may name a member of this
        # class by a string (JUnit's `@MethodSource("rows")`, `@EnabledIf`,
        # NUnit's `[TestCaseSource("Rows")]`, looked up on the concrete
        # class, private members included), so a new private member there
        # is not open.
        self.inherits = False
        # one query over the tree, in tree-sitter's own code (no comment holds a node)
        pattern = "[" + " ".join(f"({kind})" for kind in sorted(identifiers)) + "] @name"
        found = captures(source, pattern).get("name", [])
        # `spelled`: a name as code reads it (Kotlin's `` `name` `` is `name`)
        self.read = NamesByPlace((n.start_byte, spelled(source.text(n))) for n in found)

    def text(self, node: Node) -> str:
        return self.source.text(node)

    def declarations(self, node: Node | None) -> list[Node]:
        """`node`'s named children without the language's comments."""
        if node is None:
            return []
        return [c for c in node.named_children if c.type not in self.comments]

    def add(
        self,
        node: Node,
        key: str,
        name: str,
        role: str,
        binds: tuple[str, ...] = (),
        parent: str = "",
        rows: Callable[[], list[Node]] | None = None,
        code: str | None = None,
        open_: bool | None = None,
    ) -> str:
        """Add the unit of `node`'s exact text (`code`: of that text
        instead, compared as is, reading no name); its unique key.  `rows`:
        for a CASE, the rows a head version may add (`Unit.tokens`);
        `open_`: a member's `Unit.open` (False for any role but SUPPORT)."""
        assert role in ROLES
        unique, shown = self._keys.unit(self.guard + key, name)
        source, comments = self.source, self.comments

        def same() -> str:
            return "\n".join(tokens(source, [node], comments).tokens)

        def grows() -> Tokens:
            return tokens(source, [node], comments, rows() if rows is not None else ())

        self.found.append(
            Unit(
                key=unique,
                name=shown,
                role=role,
                code=self.text(node) if code is None else code,
                binds=tuple(dict.fromkeys(b for b in binds if b)),
                line=self.source.line(node),
                uses=self.read.within(node) if code is None else (),
                parent=parent,
                same=same if code is None else None,
                tokens=grows if role == CASE and rows is not None else None,
                open=open_ if open_ is None or role == SUPPORT else False,
            )
        )
        return unique

    def header(
        self,
        node: Node,
        body: Node | None,
        key: str,
        name: str,
        role: str,
        binds: tuple[str, ...],
        parent: str,
        own: Node | None,
        more: tuple[str, ...] = (),
        open_: bool | None = None,
    ) -> str:
        """Add the header of the class `node` (its text up to `body`) as a
        unit; `own` is the node of its name, left out of its `uses`, and
        `more` names its `uses` add; `open_`: a nested class's `Unit.open`."""
        unique, shown = self._keys.unit(self.guard + key, name)
        end = body.start_byte if body is not None else node.end_byte
        parts = [c for c in node.children if c.end_byte <= end]
        found = [n for n in self._names(parts) if own is None or n.start_byte != own.start_byte]
        source, comments = self.source, self.comments

        def same() -> str:
            return "\n".join(tokens(source, parts, comments).tokens)

        self.found.append(
            Unit(
                key=unique,
                name=shown,
                role=role,
                code=self.source.span(node.start_byte, end).rstrip(),
                binds=binds,
                line=self.source.line(node),
                uses=tuple(dict.fromkeys([*(self.text(n) for n in found), *more])),
                parent=parent,
                same=same,
                open=open_ if open_ is None or role == SUPPORT else False,
            )
        )
        return unique

    def units(self) -> tuple[Unit, ...]:
        """The units found; a test method whose name another member of
        its class binds too (an overload) is SUPPORT: a call that one
        overload took may be the other's, so a new one is judged as a
        helper of that name, which existing code names."""
        named_in: dict[tuple[str, str], int] = {}
        for unit in self.found:
            for bound in unit.binds:
                named_in[unit.parent, bound] = named_in.get((unit.parent, bound), 0) + 1
        return tuple(
            replace(u, role=SUPPORT, tokens=None, open=False)
            if u.role == CASE and any(named_in[u.parent, b] > 1 for b in u.binds)
            else u
            for u in self.found
        )

    def _names(self, nodes: list[Node]) -> list[Node]:
        out: list[Node] = []
        stack = list(reversed(nodes))
        while stack:
            node = stack.pop()
            if node.type in self.identifiers:
                out.append(node)
            elif node.type not in self.comments:
                stack.extend(reversed(node.children))
        return out

    def names_in(self, node: Node | None) -> list[str]:
        """The identifiers `node` reads, in order."""
        return [self.text(n) for n in self._names([node])] if node is not None else []


# Names a runner or a base class calls a member by in some framework
# (JUnit 3's `setUp`, `runTest`; xUnit's `InitializeAsync`, `Dispose`;
# `AutoCloseable.close`), in any letter case: a new member so named is
# never open to a class, whatever its modifiers.
HOOK_NAMES = frozenset(
    {
        "setup",
        "teardown",
        "setupclass",
        "teardownclass",
        "before",
        "after",
        "beforeeach",
        "aftereach",
        "beforeall",
        "afterall",
        "beforeclass",
        "afterclass",
        "init",
        "initialize",
        "initializeasync",
        "dispose",
        "disposeasync",
        "cleanup",
        "close",
        "run",
        "runtest",
        "runbare",
        "main",
    }
)


def opens(names: tuple[str, ...], private: bool, plain: bool, quiet: bool) -> bool:
    """`Unit.open` of a new member binding `names`: its annotations or
    attributes are none or documented no-ops (`quiet`), no name is a hook's
    (`HOOK_NAMES`), and it is private (no other class's code, a subclass's
    in another file included, can call, override, implement or hide by it)
    or its class is `plain` (no base types; its annotations or attributes
    only mark it as a test class)."""
    return quiet and (private or plain) and not any(n.lower() in HOOK_NAMES for n in names)


def simple(name: str, suffix: str = "") -> str:
    """An annotation's or attribute's simple name: `org.junit.Test` ->
    `Test`, `FactAttribute` -> `Fact` (`suffix`: `Attribute` for C#)."""
    last = name.rsplit(".", 1)[-1].rsplit("::", 1)[-1].strip()
    if suffix and last.endswith(suffix) and last != suffix:
        last = last[: -len(suffix)]
    return last


def contains(node: Node | None, kinds: frozenset[str]) -> bool:
    """Whether `node`'s tree holds a node of one of `kinds`."""
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if current.type in kinds:
            return True
        stack.extend(current.named_children)
    return False
