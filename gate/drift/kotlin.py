"""Kotlin test files (JUnit 4 and 5, kotlin.test) as units, on
tree-sitter's Kotlin grammar (`tree-sitter-kotlin`; `gate.drift.classes`
says what the units, names and tokens are).  Only `.kt` files are read:
a `.kts` file is a Gradle or other script, no test module.

* **A case** is a function annotated `@Test` (kotlin.test, JUnit 4,
  JUnit 5), `@ParameterizedTest`, `@RepeatedTest`, `@TestFactory` or
  `@TestTemplate`, but for one marked `override` (it replaces an
  inherited test: judged as a helper).  Its key is `fun Class.name`
  (`fun Outer.Inner.name` in a nested class, `fun Class.Companion.name` in
  a companion object); its whole text (annotations, signature, body) is
  compared, so an assertion edited, an `@Ignore`/`@Disabled` added or a
  test renamed is a change.  Rows of a parameterized test are not read
  apart: a `@ValueSource` row added is a change.  A test whose body
  writes state other tests of the run see (`gate.drift.classes.Sharing`:
  `System.setProperty`, `Dispatchers.setMain`, a property of an `object`
  or a companion, a top-level property of the file, `Foo.items.add(1)`,
  `mockkStatic`/`mockkObject` but scoped, `mockkStatic(X::class) { }`, or
  undone, `unmockkAll()`, in a later `finally`; not an `@AfterEach`
  that undoes it; but a write put back in a `finally` from its old
  value) is COLLECTION, still a test (`Unit.test`).
* **COLLECTION** is what runs around a class's existing tests, or what
  changes names they resolve without being named by them: a function
  annotated `@BeforeTest`, `@AfterTest`, `@BeforeEach`, `@BeforeAll`,
  `@Before`, `@After`, `@BeforeClass`, ... (key `hook Class.name`, in the
  class or its companion object, `@JvmStatic` or not) and an override of
  `Any`'s `toString`, `equals`, `hashCode` (printing, comparing or hashing
  an instance calls it); an `init` block (of the class or of an object:
  it runs when the class or object is created or loaded); a secondary
  constructor; a property with an annotation (`@get:Rule`, `@TempDir`,
  `@RegisterExtension`, `@JvmField`, ...), a delegate (`by lazy`) or an
  initializer that is not a plain literal (a call, an object made,
  another object's property read, an operator: code that runs when each
  instance, the object or the file's top-level code is set up); a
  `@file:` annotation (`@file:JvmName`, `@file:RunWith`); an import on
  demand (`import a.b.*`: in Kotlin its names win over the default
  imports, `kotlin.*`, so it may take a call such as `println` or
  `assert` of existing code); an import, function or property bound to an
  operator's name (`plus`, `get`, `invoke`, `getValue`, `component1`,
  ...: code calls it through an operator, never by name); and at the top
  level of the file, a function or property that is not `private`: it is
  seen by every file of the package, where it wins over an import on
  demand or a default import of its name.
* **SUPPORT** is everything else: the `package` line, an import (binding
  its last name, or its `as` alias), a class, object or interface header
  (its annotations, modifiers, name, primary constructor and
  supertypes, without the body: a change of a class annotation,
  supertype or constructor parameter is a change of the header), a
  helper function, a property with a literal or no initializer, a type
  alias, an enum or annotation class.  A new member of an existing class
  is open (`Unit.open`, `gate.drift.classes.opens`) when it is `private`
  in a class that extends nothing (its supertypes' tests may name even a
  private member by a string: `@MethodSource("rows")`), or when the class
  has no supertype and no annotation but `@Nested`, `@DisplayName`,
  `@Tag` or `@ExtendWith`; never when it is `override`, `open`,
  `abstract`, `operator` or `infix`, has an annotation but `@Suppress`,
  or is named as a hook (`gate.drift.classes.HOOK_NAMES`).  The members
  of a companion object are members of its class for this (the class's
  code calls them unqualified): a new companion object's `init` or hook
  is refused like the class's own.  A new private top-level helper passes
  when no base code spells its name.
* **Kotest and other spec styles** (`class X : FunSpec({ test("a") { }
  })`) keep every test inside one lambda of the class header, which is
  one unit: any change to the spec, a new `test(...)` included, is a
  change of the header, so such a file is judged as a whole.  A spec
  written in an `init { }` block is judged the same way (the block is
  one COLLECTION unit).
* **In a new file** (`reaches`), a `@file:` annotation and a top-level
  declaration named like a framework's or an operator (`Test`,
  `assertEquals`, `runTest`, `plus`: every file of the package resolves
  that name to it before an import on demand or a default import) reach
  the tests of other files, and so does a test writing state other
  tests see (above); an import (on demand, or of an operator such
  as ktor's `routing.get`) binds names in its own file alone, and a
  class's hooks, properties and `init` act on its own tests.

A text tree-sitter cannot read without repair (an ERROR or MISSING node;
the grammar refuses some one-line bodies, `object O { val q = 2 }`) is
`Unparsable`, and the file is judged as a whole.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gate.drift import CASE, COLLECTION, SUPPORT, Unit, Unparsable
from gate.drift._treesitter import ParsedText, descendants, named, parse
from gate.drift.classes import Sharing, Splitter, opens, simple
from gate.drift.java import FRAMEWORK_TYPES as JAVA_FRAMEWORK_TYPES
from gate.drift.java import HOOKS as JAVA_HOOKS
from gate.drift.java import MARKERS as JAVA_MARKERS
from gate.drift.java import TESTS
from gate.drift.reader import Reader

if TYPE_CHECKING:
    from tree_sitter import Node

# kotlin.test's `@BeforeTest`/`@AfterTest` share TestNG's names.
HOOKS = JAVA_HOOKS
# `Any`'s open members: printing, comparing or hashing an instance calls them.
OBJECT_METHODS = frozenset({"toString", "equals", "hashCode", "finalize"})
# Names code calls through an operator or a convention, never spelled:
# `a + b` calls `plus`, `a[i]` `get`, `val (x, y) = p` `component1`, ...
OPERATORS = frozenset(
    {
        "plus",
        "minus",
        "times",
        "div",
        "rem",
        "mod",
        "rangeTo",
        "rangeUntil",
        "unaryPlus",
        "unaryMinus",
        "not",
        "inc",
        "dec",
        "contains",
        "get",
        "set",
        "invoke",
        "iterator",
        "next",
        "hasNext",
        "compareTo",
        "equals",
        "plusAssign",
        "minusAssign",
        "timesAssign",
        "divAssign",
        "remAssign",
        "modAssign",
        "getValue",
        "setValue",
        "provideDelegate",
    }
)
_COMPONENT = re.compile(r"component\d+\Z")
_PLAIN = re.compile(r"\A\w+\Z")
# Names of the frameworks' types and functions that test files of a
# package resolve through an import on demand or a default import
# (`import kotlin.test.*`): a top-level declaration so named in the
# package wins over it in every file of the package.
FRAMEWORK_NAMES = JAVA_FRAMEWORK_TYPES | frozenset(
    {
        "BeforeTest",
        "AfterTest",
        "Ignore",
        "assertEquals",
        "assertNotEquals",
        "assertTrue",
        "assertFalse",
        "assertNull",
        "assertNotNull",
        "assertIs",
        "assertIsNot",
        "assertSame",
        "assertNotSame",
        "assertContains",
        "assertContentEquals",
        "assertFails",
        "assertFailsWith",
        "assertThrows",
        "assertDoesNotThrow",
        "assert",
        "assertAll",
        "expect",
        "fail",
        "runTest",
        "runBlocking",
        "check",
        "require",
        "error",
        "println",
        "print",
        "TODO",
    }
)
MARKERS = JAVA_MARKERS
# Annotations the compiler alone reads (no framework acts on them).
NO_OPS = frozenset({"Suppress", "SuppressWarnings", "OptIn"})
COMMENTS = frozenset({"line_comment", "block_comment"})
IDENTIFIERS = frozenset({"identifier"})
# Node types of a property initializer that runs no code: literals.
LITERALS = frozenset(
    {
        "number_literal",
        "float_literal",
        "string_literal",
        "string_content",
        "character_literal",
        "boolean_literal",
        "null_literal",
        "unsigned_literal",
        "long_literal",
        "escape_sequence",
        "multiline_string_literal",
    }
)
# Modifiers with which a new member can replace or be called by code
# that does not spell its name.
_REPLACES = frozenset({"override", "open", "abstract", "operator", "infix", "actual", "expect"})
_BODIES = frozenset({"class_body", "enum_class_body"})
_REACHING = ("file annotation ",)


def reaches(unit: Unit) -> bool:
    """Whether `unit`, collection-time code of a NEW test file, changes
    what the tests of other files see: a `@file:` annotation, a
    top-level declaration named like a framework's or an operator, a
    test writing state other tests see."""
    if unit.key.startswith(_REACHING):
        return True
    if unit.key.startswith("import "):  # binds a name in its own file alone
        return False
    if unit.test:  # a test writing what other tests see (`gate.drift.classes.Sharing`)
        return True
    return unit.role == COLLECTION and not unit.parent and any(_shadows(n) for n in unit.binds)


def _shadows(name: str) -> bool:
    return name in FRAMEWORK_NAMES or _operator(name)


def _operator(name: str) -> bool:
    return name in OPERATORS or bool(_COMPONENT.match(name))


def units(text: str) -> tuple[Unit, ...]:
    """The units of a Kotlin test file."""
    source = parse(text, "kotlin")
    splitter = _Kotlin(source)
    for node in splitter.declarations(source.root):
        splitter.top(node)
    return splitter.units()


def spelled(name: str) -> str:
    """The name an identifier spells: `` `doubles` `` is `doubles`; one
    that needs its backquotes (`` `keeps a value` ``) keeps them."""
    inner = name[1:-1] if len(name) > 2 and name[0] == name[-1] == "`" else ""
    return inner if _PLAIN.match(inner) else name


def _open(names: tuple[str, ...], private: bool, plain: bool, quiet: bool) -> bool:
    """`gate.drift.classes.opens`, for names `compare` can find in base
    code (a name that needs its backquotes is never open: no word of the
    base code spells it, yet a call of it may be taken)."""
    return all(_PLAIN.match(n) for n in names) and opens(names, private, plain, quiet)


class _Kotlin(Splitter):
    def __init__(self, source: ParsedText) -> None:
        super().__init__(source, IDENTIFIERS, COMMENTS, spelled)

    def text(self, node: Node) -> str:
        return spelled(super().text(node)) if node.type == "identifier" else super().text(node)

    def top(self, node: Node) -> None:
        kind = node.type
        if kind == "package_header":
            self.add(node, "package", "package", SUPPORT)
        elif kind == "import":
            self.import_(node)
        elif kind == "file_annotation":
            names = ", ".join(self.annotation_name(a) for a in [node])
            self.add(node, f"file annotation {names}", f"@file:{names}", COLLECTION)
        elif kind in ("class_declaration", "object_declaration"):
            self.type_(node, "", "", None)
        elif kind == "function_declaration":
            self.function(node, "", "", None)
        elif kind == "property_declaration":
            self.property_(node, "", "", None)
        elif kind == "type_alias":
            name = self.name(node)
            role = COLLECTION if _shadows(name) else SUPPORT
            self.add(node, f"typealias {name}", name, role, (name,))
        else:
            raise Unparsable(
                f"a {kind} at line {self.source.line(node)} is not a Kotlin declaration"
            )

    def name(self, node: Node) -> str:
        found = node.child_by_field_name("name") or node.child_by_field_name("type")
        if found is None:
            found = next((c for c in node.named_children if c.type == "identifier"), None)
        return self.text(found) if found is not None else ""

    def import_(self, node: Node) -> None:
        path_node = next((c for c in node.named_children if c.type == "qualified_identifier"), None)
        path = ".".join(self.names_in(path_node))
        if any(c.type == "*" for c in node.children):
            key = f"import {path}.*"
            self.add(node, key, key[len("import ") :], COLLECTION)
            return
        alias = [c for c in node.named_children if c.type == "identifier"]
        bound = self.text(alias[-1]) if alias else path.rsplit(".", 1)[-1]
        key = f"import {path}" + (f" as {bound}" if alias else "")
        role = COLLECTION if _operator(bound) else SUPPORT
        self.add(node, key, key[len("import ") :], role, (bound,))

    def annotations(self, node: Node) -> list[Node]:
        return [
            a
            for m in node.named_children
            if m.type == "modifiers"
            for a in m.named_children
            if a.type == "annotation"
        ]

    def annotation_name(self, annotation: Node) -> str:
        """The annotation's simple name (`@field:org.junit.Rule` -> `Rule`)."""
        stack = [annotation]
        while stack:
            current = stack.pop(0)
            if current.type == "user_type":
                return simple(self.text(current).split("<", 1)[0])
            stack.extend(current.named_children)
        return ""

    def marks(self, node: Node) -> set[str]:
        return {self.annotation_name(a) for a in self.annotations(node)}

    def modifiers(self, node: Node) -> set[str]:
        """The declaration's modifier keywords (`private`, `override`)."""
        return {
            self.text(m)
            for c in node.named_children
            if c.type == "modifiers"
            for m in c.named_children
            if m.type != "annotation"
        }

    def type_(self, node: Node, outer: str, parent: str, at: bool | None) -> None:
        """A class, interface or object; `at`: for a member, whether its class is plain."""
        companion = node.type == "companion_object"
        name = self.name(node) or ("Companion" if companion else "")
        label = f"{outer}.{name}" if outer else name
        body = next((c for c in node.named_children if c.type in _BODIES), None)
        marks = self.marks(node)
        modifiers = self.modifiers(node)
        open_ = None
        if at is not None:
            private = "private" in modifiers and not self.inherits
            open_ = _open((name,), private, at, marks <= NO_OPS | MARKERS) and not (
                modifiers & _REPLACES
            )
        role = COLLECTION if not parent and name in FRAMEWORK_NAMES else SUPPORT
        kind = "companion" if companion else "class"
        if body is None or body.type == "enum_class_body":
            self.add(node, f"type {label}", label, role, (name,), parent, open_=open_)
            return
        own = node.child_by_field_name("name")
        supertypes = any(c.type == "delegation_specifiers" for c in node.named_children)
        key = self.header(
            node, body, f"{kind} {label}", label, role, (name,), parent, own, open_=open_
        )
        plain = not supertypes and marks <= MARKERS
        # A companion object's members are its class's to the class's code.
        owner = parent if companion else key
        if companion:
            plain = bool(at) and plain
        enclosing = self.inherits
        self.inherits = (enclosing if companion else False) or supertypes
        for member in self.declarations(body):
            self.member(member, label, owner, plain)
        self.inherits = enclosing

    def member(self, node: Node, owner: str, parent: str, plain: bool) -> None:
        kind = node.type
        if kind in ("class_declaration", "object_declaration", "companion_object"):
            self.type_(node, owner, parent, plain)
        elif kind == "function_declaration":
            self.function(node, owner, parent, plain)
        elif kind == "property_declaration":
            self.property_(node, owner, parent, plain)
        elif kind == "anonymous_initializer":
            self.add(node, f"initializer {owner}", f"{owner} init", COLLECTION, (), parent)
        elif kind == "secondary_constructor":
            self.add(node, f"constructor {owner}", f"{owner} constructor", COLLECTION, (), parent)
        elif kind == "type_alias":
            name = self.name(node)
            label = f"{owner}.{name}"
            self.add(node, f"typealias {label}", label, SUPPORT, (name,), parent, open_=False)
        else:
            self.add(node, f"{kind} {owner}", f"{owner} {kind}", COLLECTION, (), parent)

    def function(self, node: Node, owner: str, parent: str, plain: bool | None) -> None:
        name = self.name(node)
        label = f"{owner}.{name}" if owner else name
        marks = self.marks(node)
        modifiers = self.modifiers(node)
        own = node.child_by_field_name("name")
        receiver = next(
            (c for c in node.children if c.type == "." and own and c.end_byte <= own.start_byte),
            None,
        )
        if receiver is not None and not owner:  # an extension: `fun String.name`
            type_ = self.source.span(self._after_fun(node), receiver.start_byte).strip()
            label = f"{type_}.{name}"
        if marks & HOOKS or (owner and name in OBJECT_METHODS and "override" in modifiers):
            self.add(node, f"hook {label}", label, COLLECTION, (name,), parent)
            return
        if marks & TESTS and "override" not in modifiers:
            body = next((c for c in named(node) if c.type == "function_body"), None)
            if self.sharing(node).shares(body):
                self.add(node, f"fun {label}", label, COLLECTION, (name,), parent, test=True)
                return
            self.add(node, f"fun {label}", label, CASE, (name,), parent)
            return
        if plain is None:  # the file's top level
            private = "private" in modifiers
            quiet = marks <= NO_OPS
            role = SUPPORT if private and quiet and not _operator(name) else COLLECTION
            self.add(node, f"fun {label}", label, role, (name,))
            return
        private = "private" in modifiers and not self.inherits
        open_ = _open((name,), private, plain, marks <= NO_OPS) and not (modifiers & _REPLACES)
        self.add(node, f"fun {label}", label, SUPPORT, (name,), parent, open_=open_)

    def sharing_in(self, function: Node) -> _Sharing:
        """`Sharing` for a function of a class: the file's top-level
        properties, its companion object's and an `object`'s are shared
        (`statics`); the class's own properties and constructor
        parameters are an instance's (JUnit makes one per test; Kotest's
        specs and a `PER_CLASS` lifecycle share one, read as JUnit's)."""
        statics: set[str] = set()
        instances: set[str] = set()
        body = function.parent
        holder = body.parent if body is not None else None
        for top in named(self.source.root):
            if top.type == "property_declaration":
                statics.update(self._declared(top))
        shared = holder is not None and holder.type in ("object_declaration", "companion_object")
        for member in named(body) if body is not None else []:
            if member.type == "property_declaration":
                (statics if shared else instances).update(self._declared(member))
            elif member.type == "companion_object":
                inner = next((c for c in named(member) if c.type == "class_body"), None)
                for found in named(inner) if inner is not None else []:
                    if found.type == "property_declaration":
                        statics.update(self._declared(found))
        for found in descendants(holder) if holder is not None and not shared else []:
            if found.type == "class_parameter" and found.parent is not None:
                instances.update(self.text(i) for i in named(found) if i.type == "identifier")
        return _Sharing(self.source, frozenset(statics), frozenset(instances))

    def _declared(self, node: Node) -> list[str]:
        return [
            self.text(i)
            for d in descendants(node)
            if d.type == "variable_declaration"
            for i in named(d)
            if i.type == "identifier"
        ]

    def _after_fun(self, node: Node) -> int:
        keyword = next(c for c in node.children if c.type == "fun")
        return keyword.end_byte + 1

    def property_(self, node: Node, owner: str, parent: str, plain: bool | None) -> None:
        found = [d for d in node.named_children if d.type == "variable_declaration"]
        for many in (d for d in node.named_children if d.type == "multi_variable_declaration"):
            found += [d for d in many.named_children if d.type == "variable_declaration"]
        names = tuple(
            self.text(i) for d in found for i in self.declarations(d) if i.type == "identifier"
        )
        label = f"{owner}.{', '.join(names)}" if owner else ", ".join(names)
        marks = self.marks(node)
        modifiers = self.modifiers(node)
        runs = not marks <= NO_OPS or not self.literal(node)
        if plain is None:  # the file's top level: seen by the whole package
            private = "private" in modifiers
            role = SUPPORT if private and not runs else COLLECTION
            self.add(node, f"property {label}", label, role, names)
            return
        role = COLLECTION if runs else SUPPORT
        private = "private" in modifiers and not self.inherits
        open_ = _open(names, private, plain, True) and not (modifiers & _REPLACES)
        self.add(node, f"property {label}", label, role, names, parent, open_=open_)

    def literal(self, node: Node) -> bool:
        """Whether the property runs no code when it is set up: no
        delegate, no getter or setter that is not a bare one, an
        initializer of literals alone."""
        seen_value = False
        for child in self.declarations(node):
            if child.type in ("modifiers", "variable_declaration", "type_constraints"):
                continue
            if child.type in ("property_delegate", "getter", "setter"):
                return False
            if child.type == "multi_variable_declaration":
                return False  # destructuring calls componentN
            seen_value = True
            if not self._literal(child):
                return False
        return seen_value or True

    def _literal(self, node: Node) -> bool:
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in COMMENTS:
                continue
            if current.type not in LITERALS:
                return False
            stack.extend(current.named_children)
        return True


class _Sharing(Sharing):
    """`Sharing` on Kotlin's grammar."""

    accesses = frozenset({"navigation_expression"})
    calls = frozenset({"call_expression"})
    assignments = frozenset({"assignment"})
    updates = frozenset({"unary_expression"})
    indexes = frozenset({"index_expression"})
    selves = frozenset({"this_expression", "super_expression"})
    mocks = frozenset({"mockkStatic", "mockkObject", "mockkConstructor"})
    undo = frozenset({"unmockkStatic", "unmockkObject", "unmockkConstructor", "unmockkAll"})

    def text(self, node: Node) -> str:
        return spelled("".join(self.source.text(node).split()))

    def access(self, node: Node) -> tuple[Node | None, str]:
        parts = named(node)
        member = parts[-1] if len(parts) > 1 else None
        return (parts[0] if parts else None), self.text(member) if member is not None else ""

    def call(self, node: Node) -> tuple[Node | None, str, list[Node]]:
        parts = named(node)
        callee = parts[0] if parts else None
        arguments = next((c for c in parts if c.type == "value_arguments"), None)
        args = [a for a in named(arguments) if a.type == "value_argument"] if arguments else []
        if callee is not None and callee.type in self.accesses:
            receiver, name = self.access(callee)
            return receiver, name, args
        return None, self.text(callee) if callee is not None else "", args

    def targets(self, node: Node) -> list[Node]:
        if node.type in self.updates:
            operator = node.child_by_field_name("operator")
            argument = node.child_by_field_name("argument")
            if operator is None or argument is None or self.text(operator) not in ("++", "--"):
                return []
            return [argument]
        left = node.child_by_field_name("left")
        return [left] if left is not None else []

    def bindings(self, found: list[Node]) -> tuple[set[str], dict[str, list[Node]]]:
        declared: set[str] = set()
        values: dict[str, list[Node]] = {}
        for node in found:
            if node.type == "variable_declaration" or node.type == "parameter":
                declared |= {self.text(i) for i in named(node) if i.type == "identifier"}
            if node.type != "property_declaration":
                continue
            names = [
                self.text(i)
                for d in named(node)
                if d.type == "variable_declaration"
                for i in named(d)
                if i.type == "identifier"
            ]
            after = [c for c in node.children if c.type == "="]
            value = after[0].next_named_sibling if after else None
            for name in names:
                values.setdefault(name, []).extend([value] if value is not None else [])
        self.reassigned(found, values)
        return declared, values

    def finally_(self, node: Node) -> tuple[Node | None, Node | None]:
        if node.type != "try_expression":
            return None, None
        final = next((c for c in named(node) if c.type == "finally_block"), None)
        return next((c for c in named(node) if c.type == "block"), None), final

    def resources(self, node: Node) -> list[Node]:
        """A scoped mock (`mockkStatic(X::class) { ... }`) undoes itself:
        the mock's call, not its block."""
        parts = named(node)
        if node.type not in self.calls or not any(c.type == "annotated_lambda" for c in parts):
            return []
        return [parts[0]] if self.mocked(parts[0]) else []


def _read(text: str, suffix: str) -> tuple[Unit, ...]:
    """`units`, as the engine calls every language (one grammar: `suffix` unused)."""
    return units(text)


# What the engine reads Kotlin test files with (`gate.drift.language.KOTLIN`).
READER = Reader(units=_read, reaches=reaches)
