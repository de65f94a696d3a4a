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
from gate.drift._treesitter import (
    COMMENTS,
    NamesByPlace,
    ParsedText,
    UniqueKeys,
    bound_to,
    captures,
    descendants,
    inside,
    spelled_alike,
)

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
        # each class body's `Sharing`, made once for all its tests (`sharing`)
        self._sharings: dict[tuple[int, int], Sharing] = {}
        # one query over the tree, in tree-sitter's own code (no comment holds a node)
        pattern = "[" + " ".join(f"({kind})" for kind in sorted(identifiers)) + "] @name"
        found = captures(source, pattern).get("name", [])
        # `spelled`: a name as code reads it (Kotlin's `` `name` `` is `name`)
        self.read = NamesByPlace((n.start_byte, spelled(source.text(n))) for n in found)

    def text(self, node: Node) -> str:
        return self.source.text(node)

    def sharing(self, member: Node) -> Sharing:
        """`Sharing` for a member of the class whose body holds it, made
        once per body (`sharing_in`): reading the class's fields for each
        of its tests would take time in the square of its size."""
        body = member.parent
        key = (body.start_byte, body.end_byte) if body is not None else (-1, -1)
        found = self._sharings.get(key)
        if found is None:
            found = self._sharings[key] = self.sharing_in(member)
        return found

    def sharing_in(self, member: Node) -> Sharing:
        """`Sharing` for a member of the class whose body holds it (a
        language's: what its fields are)."""
        raise NotImplementedError

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
        test: bool = False,
    ) -> str:
        """Add the unit of `node`'s exact text (`code`: of that text
        instead, compared as is, reading no name); its unique key.  `rows`:
        for a CASE, the rows a head version may add (`Unit.tokens`);
        `open_`: a member's `Unit.open` (False for any role but SUPPORT);
        `test`: a COLLECTION unit that is still a test (`Unit.test`)."""
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
                test=test,
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


class Sharing:
    """Whether a new test's body writes state other tests see (`shares`),
    for Java, Kotlin and C# (each module's subclass says how its grammar
    spells an access, a call, an assignment, a local, a `finally` and a
    resource).  A test so writing is COLLECTION, still a test (`Unit.test`).

    Shared: an assignment (`=`, `op=`, `++`/`--`) to a static field of the
    test class (`statics`), bare or qualified, to a member of a type (a
    capitalized name that is no local, parameter or field of the test:
    `Config.level = 3`), or into an object reached from one of those
    (`Foo.INSTANCE.level = 1`, `Foo.LIST[0] = 1`) or from a local bound to
    one (`var l = Foo.LIST`, however many hops); a call of a mutator
    (`MUTATORS`: `add`, `put`, `set*`, `clear`, `register`, ...) on such
    an object (`System.setProperty`, `Locale.setDefault`,
    `Registry.ITEMS.add`) but on a framework's or the JDK's stateless
    helpers (`STATELESS`: `Mockito.reset`, `Collections.addAll`) and a
    static helper whose first argument is an object the test made
    (`made`: `TestHelper.addProperties(model)`) or whose value the test
    reads (`_used`: `out = Conventions.removeInvalid(input)`) but on the
    process's own
    types (`PROCESS`); a static mock (`mocks`: `Mockito.mockStatic`,
    `mockkStatic`).  A chain through a call that does not read held
    state (`_reads`: `Foo.builder()`, `Foo.of(...)`; `getInstance()`
    reads), through `new Foo()`, or from an immutable value's type
    (`VALUES`: `DateTime.UtcNow.AddMinutes(-30)` makes a new value) is
    the test's own, and so are its locals, its parameters and its
    instance fields.

    Put back (the test's own): a write inside a `try` block, or in the
    statement right before it, whose
    `finally` writes the same place back from a local holding its old
    value (`var old = System.getProperty("x")` ... `finally {
    System.setProperty("x", old); }`, every assignment to that local the
    place's getter, `getX(...)` or the property `X`/`x`); a write that is
    the resource of a try-with-resources or a C# `using`.  Anything else
    (a restore outside the `finally`, of a new value or of another place,
    a write after the `try`, a `clearProperty` in the `finally`) fails."""

    # node types, each grammar's
    accesses: frozenset[str] = frozenset()
    calls: frozenset[str] = frozenset()
    assignments: frozenset[str] = frozenset()
    updates: frozenset[str] = frozenset()
    indexes: frozenset[str] = frozenset()
    selves: frozenset[str] = frozenset()
    # a static mock, unless it is a resource or undone in a `finally`
    mocks: frozenset[str] = frozenset()
    undo: frozenset[str] = frozenset()
    # where an assignment sets a member of the object being made (C#'s
    # `new Foo { Level = 3 }`), not a place of its own
    initializers: frozenset[str] = frozenset()

    def __init__(
        self,
        source: ParsedText,
        statics: frozenset[str],
        instances: frozenset[str],
        inherited: bool = False,
    ) -> None:
        """`statics`, `instances`: the test class's fields (and properties)
        by kind; `inherited`: whether a capitalized name none of these may
        be an instance member of a base class in another file (C#'s
        PascalCase properties in a class that extends one), read then as
        the test's own but for the process's own types (`PROCESS`)."""
        self.source = source
        self.statics = statics
        self.instances = instances
        self.inherited = inherited
        self.locals: set[str] = set()
        self.values: dict[str, list[Node]] = {}
        self.aliases: set[str] = set()

    def text(self, node: Node) -> str:
        return "".join(self.source.text(node).split())

    # --- what each grammar answers -------------------------------------
    def access(self, node: Node) -> tuple[Node | None, str]:
        """A member access's receiver and member name."""
        raise NotImplementedError

    def call(self, node: Node) -> tuple[Node | None, str, list[Node]]:
        """A call's receiver (None without one), name and arguments."""
        raise NotImplementedError

    def index(self, node: Node) -> Node | None:
        """An element access's object."""
        return node.named_children[0] if node.named_children else None

    def targets(self, node: Node) -> list[Node]:
        """The places an assignment or an update writes."""
        raise NotImplementedError

    def bindings(self, found: list[Node]) -> tuple[set[str], dict[str, list[Node]]]:
        """The names the body declares (locals, parameters), and each
        local's values (its initializer and every assignment to it)."""
        raise NotImplementedError

    def reassigned(self, found: list[Node], values: dict[str, list[Node]]) -> None:
        """Add to `values` the right side of each assignment in `found` to
        one of its locals (`x = ...`, `x += ...`)."""
        for node in found:
            if node.type in self.assignments:
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                if left is not None and right is not None and self.text(left) in values:
                    values[self.text(left)].append(right)

    def finally_(self, node: Node) -> tuple[Node | None, Node | None]:
        """A `try`'s block and its `finally` block."""
        raise NotImplementedError

    def resources(self, node: Node) -> list[Node]:
        """The resource expressions of a try-with-resources or `using`."""
        raise NotImplementedError

    # --- the rule ------------------------------------------------------
    def shares(self, body: Node | None) -> bool:
        """Whether `body`, a test's, writes state other tests see."""
        return self.first(body) is not None

    def first(self, body: Node | None) -> Node | None:
        """The first node of `body`, a test's, that writes state other
        tests see, or None."""
        if body is None:
            return None
        found = list(descendants(body))
        declared, values = self.bindings(found)
        self.locals = declared
        self.values = values
        self.aliases = set()
        bound_to(values, self.shared, self.aliases)
        captured = spelled_alike(values, self.text)
        owned = [r for n in found for r in self.resources(n)]
        tries = [(t, b, f) for t in found for b, f in [self.finally_(t)] if b and f]
        undone = {id(t) for t, _b, f in tries if any(self.undoes(n) for n in descendants(f))}
        restores = [(t, b, self.restored(f, captured)) for t, b, f in tries]
        skip = {id(n) for _t, _b, (_places, nodes) in restores for n in nodes}
        for node in found:
            if id(node) in skip or any(inside(node, r) for r in owned):
                continue
            place = self.write(node)
            if place and not any(
                place in p and (inside(node, b) or _just_before(node, t))
                for t, b, (p, _n) in restores
            ):
                return node
            # `m = mockStatic(X); try { ... } finally { m.close() }` is the test's own
            if self.mocked(node) and not any(
                id(t) in undone and node.start_byte < f.start_byte for t, _b, f in tries
            ):
                return node
        return None

    def write(self, node: Node) -> str:
        """The place `node` writes that other tests share, as spelled
        (`System.setProperty("x",` for a setter), or ''."""
        if node.type in self.assignments or node.type in self.updates:
            if node.parent is not None and node.parent.type in self.initializers:
                return ""
            for target in self.targets(node):
                if self.shared_place(target):
                    return self.text(target)
            return ""
        if node.type not in self.calls:
            return ""
        receiver, name, args = self.call(node)
        if receiver is None or not _mutates(name) or not self.shared(receiver):
            return ""
        # `TestHelper.AddProperties(model)`, `McpApps.SetAppUi(tool, meta)`: a
        # static helper acting on the object the test made; `x =
        # Service.RemoveInvalidCharacters(input)`: a function of its arguments
        spelled = self.text(receiver)
        if (
            receiver.type == "identifier"
            and self.type_(spelled)
            and (
                spelled in STATELESS
                or (spelled not in PROCESS and (self.made(args) or _used(node)))
            )
        ):
            return ""
        head = ",".join(self.text(a) for a in args[:-1])
        return f"{self.text(receiver)}.{name}({head}"

    def shared_place(self, target: Node) -> bool:
        if target.type == "identifier":
            name = self.text(target)
            if name in self.locals or name in self.instances:
                return False
            # a capitalized name none of these: a type's (Kotlin's `--Config.level`
            # parses as one), a static import's, a base class's
            return name in self.statics or self.type_(name)
        return self.shared(target)

    def type_(self, name: str) -> bool:
        """Whether a name no local, parameter or field of the test spells is
        read as a type's (or a static import's): a capitalized one, but
        where it may be a base class's property (`inherited`)."""
        if name in self.statics or name in self.locals or name in self.instances:
            return False
        return name[:1].isupper() and (not self.inherited or name in PROCESS)

    def shared(self, node: Node) -> bool:
        """Whether the object `node` reaches is one other tests share."""
        current: Node | None = node
        member = ""
        while current is not None:
            kind = current.type
            if kind in self.accesses:
                current, member = self.access(current)
                if current is None:  # C#'s `this.x` spelled without a node
                    return member in self.statics
            elif kind in self.calls:
                receiver, name, _args = self.call(current)
                if not _reads(name):
                    return False  # `Foo.builder()`, `CodeNamespace.InitRootNamespace()`
                current, member = receiver, ""
            elif kind in self.indexes:
                current, member = self.index(current), ""
            elif kind == "parenthesized_expression":
                current = current.named_children[0] if current.named_children else None
            elif kind in self.selves:
                return member in self.statics
            elif kind == "identifier":
                name = self.text(current)
                if name in self.aliases or name in self.statics:
                    return True
                if name in VALUES:
                    return False  # `DateTime.UtcNow.AddMinutes(-30)`: a new value
                return self.type_(name)
            else:
                return False  # a new object, a literal, a lambda: the test's own
        return False

    def mocked(self, node: Node) -> bool:
        return node.type in self.calls and self.call(node)[1] in self.mocks

    def made(self, args: list[Node]) -> bool:
        """Whether the first of `args` is a local holding an object the test
        made: every value assigned to it a call or a new object, none
        shared (`var model = new Model()`, not `var level = 3`)."""
        first = _value(args[0]) if args else None
        if first is None or first.type != "identifier":
            return False
        name = self.text(first)
        rights = self.values.get(name, [])
        return (
            name not in self.aliases
            and bool(rights)
            and all("literal" not in r.type and r.type not in _CONSTANTS for r in rights)
        )

    def undoes(self, node: Node) -> bool:
        return node.type in self.calls and self.call(node)[1] in self.undo

    def restored(self, final: Node, captured: dict[str, str]) -> tuple[frozenset[str], list[Node]]:
        """The places a `finally` block writes back from a captured local,
        as `write` spells them, and the writes that do it."""
        places: set[str] = set()
        nodes: list[Node] = []
        for node in descendants(final):
            old = ""
            if node.type in self.assignments:
                targets = self.targets(node)
                right = node.child_by_field_name("right")
                if len(targets) == 1 and right is not None and right.type == "identifier":
                    old = captured.get(self.text(right), "")
                    if old == self.text(targets[0]):
                        places.add(old)
                        nodes.append(node)
            elif node.type in self.calls:
                receiver, name, args = self.call(node)
                last = args[-1] if args else None
                value = _value(last)
                if receiver is None or value is None or value.type != "identifier":
                    continue
                old = captured.get(self.text(value), "")
                head = ",".join(self.text(a) for a in args[:-1])
                spelled = self.text(receiver)
                if old in _getters(spelled, name, head):
                    places.add(f"{spelled}.{name}({head}")
                    nodes.append(node)
        return frozenset(places), nodes


def _value(argument: Node | None) -> Node | None:
    """An argument's expression (Kotlin's and C#'s wrap it)."""
    if argument is not None and argument.type in ("argument", "value_argument"):
        return argument.named_children[-1] if argument.named_children else None
    return argument


def _getters(receiver: str, setter: str, head: str) -> set[str]:
    """How code reads the place a setter writes: `R.getX(head)`, and with
    no other argument the property `R.X`/`R.x` (`System.out` for `setOut`)."""
    for prefix in ("set", "Set"):
        if setter.startswith(prefix) and setter[len(prefix) : len(prefix) + 1].isupper():
            rest = setter[len(prefix) :]
            out = {f"{receiver}.{'g' if prefix == 'set' else 'G'}et{rest}({head})"}
            if not head:
                out |= {f"{receiver}.{rest}", f"{receiver}.{rest[0].lower()}{rest[1:]}"}
            return out
    return set()


def _mutates(name: str) -> bool:
    """Whether a method so named changes the object it is called on."""
    return _verb(name) in MUTATORS


def _verb(name: str) -> str:
    """The verb a method's name starts with among `MUTATORS` (`add` of
    `addAll`, `Set` of `SetOut`), or ''."""
    lower = name[:1].lower() + name[1:]
    return next(
        (
            verb
            for verb in MUTATORS
            if lower == verb
            or (lower.startswith(verb) and lower[len(verb) : len(verb) + 1].isupper())
        ),
        "",
    )


def _reads(name: str) -> bool:
    """Whether a call so named returns state it holds (`getInstance()`,
    `getRuntime()`, `currentThread()`, `Default()`): a chain through any
    other call (`builder()`, `of(...)`, `InitRootNamespace()`,
    `toMutableList()`) reaches an object the call made, the test's own."""
    lower = name.lower()
    return (lower.startswith("get") and name[3:4].isupper()) or any(
        word in lower for word in ACCESSORS
    )


def _used(call: Node) -> bool:
    """Whether a call's value is read (assigned, passed, returned): not a
    statement of its own."""
    return call.parent is not None and call.parent.type not in _STATEMENTS


# Where a call stands as a statement of its own (Kotlin's calls are the
# block's children).
_STATEMENTS = frozenset({"expression_statement", "block", "statements", "function_body"})


def _just_before(node: Node, try_: Node) -> bool:
    """Whether `node` is (in) the statement right before `try_`, in its
    block: nothing can run between the write and the `try`."""
    current: Node | None = node
    while current is not None and current.parent != try_.parent:
        current = current.parent
    return current is not None and current.next_named_sibling == try_


# Verbs of methods that change the object they are called on (`add`,
# `addAll`, `setProperty`, `SetOut`, `putIfAbsent`, `clearProperty`).
MUTATORS = frozenset(
    {"set", "add", "put", "remove", "clear", "register", "unregister", "reset", "install"}
    | {"uninstall", "push", "pop", "insert", "replace", "merge", "compute", "retain"}
    | {"append", "prepend", "configure", "override"}
)
# Types whose static state is the process's: the JVM's and .NET's
# properties, streams, defaults, security and culture.
PROCESS = frozenset(
    {"System", "Runtime", "Security", "Locale", "TimeZone", "Thread", "Authenticator"}
    | {"CookieHandler", "ProxySelector", "ResponseCache", "HttpsURLConnection", "URL"}
    | {"HttpURLConnection", "URLConnection", "SSLContext", "LogManager", "Logger", "Policy"}
    | {"Environment", "Console", "CultureInfo", "AppContext", "ServicePointManager"}
    | {"Directory", "AppDomain", "GC", "Trace", "Debug", "Activity", "TaskScheduler"}
    | {"Dispatchers", "Schedulers", "Hooks", "RxJavaPlugins"}
)
# Types whose members are values no code can change (immutable dates,
# times, strings, ids): a chain from one reaches nothing shared, and a
# method named like a mutator on it (`DateTime.UtcNow.AddMinutes(-30)`,
# `Instant.now().plusSeconds(3)`) makes a new value.
VALUES = frozenset(
    {"DateTime", "DateTimeOffset", "TimeSpan", "DateOnly", "TimeOnly", "Guid", "Uri"}
    | {"Instant", "LocalDate", "LocalDateTime", "LocalTime", "ZonedDateTime", "Duration"}
    | {"OffsetDateTime", "Period", "UUID", "BigDecimal", "BigInteger"}
)
# Words of a call that returns state it holds (`getInstance`, `current`).
ACCESSORS = frozenset({"instance", "current", "default", "shared", "global", "singleton"})
# Value nodes that hold no object (`null`, `true`): not an object the test made.
_CONSTANTS = frozenset({"true", "false", "null", "null_literal", "boolean_literal"})
# Types whose static methods change only their arguments or a mock the
# test made (`Mockito.reset(mock)`, `Collections.addAll(list, ...)`), or
# files a test names (`Files.delete(tmp)`).
STATELESS = frozenset(
    {"Mockito", "BDDMockito", "Assertions", "Assert", "Assume", "Assumptions", "Collections"}
    | {"Arrays", "Objects", "Files", "Paths", "Math", "String", "Array", "Enumerable"}
    | {"CollectionAssert", "StringAssert", "StepVerifier", "Task"}
)
