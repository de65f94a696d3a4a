"""Java test files (JUnit 4 and 5, TestNG) as units, on tree-sitter's
Java grammar (`gate.drift.classes` says what the units, names and tokens
are).

* **A case** is a method annotated `@Test` (JUnit 4, JUnit 5, TestNG),
  `@ParameterizedTest`, `@RepeatedTest`, `@TestFactory` or
  `@TestTemplate`, or a JUnit 3 `test*` method of a class that extends
  `TestCase`.  Its key is `method Class.name` (`method Outer.Inner.name`
  in a nested class); one marked `@Override` is judged as a helper (it
  replaces the inherited test; an override without the annotation is not
  seen).  The elements of its `@ValueSource` and
  `@CsvSource` arrays are its rows: a row added while the rest of the
  method is unchanged is a test that grew; a row edited or removed is a
  change.  A test whose body writes state other tests of the run see
  (`gate.drift.classes.Sharing`: `System.setProperty`, `Locale.setDefault`,
  a static field, `Registry.ITEMS.add(x)`, a static mock outside a
  try-with-resources, but a write put back in a `finally` from its old
  value) is COLLECTION, still a test (`Unit.test`).
* **COLLECTION** is what runs around the class's existing tests: a
  method annotated `@BeforeEach`, `@BeforeAll`, `@AfterEach`,
  `@AfterAll`, `@Before`, `@After`, `@BeforeClass`, `@AfterClass`,
  TestNG's `@BeforeMethod`, `@AfterMethod`, `@BeforeTest`, ... (key
  `hook Class.name`), JUnit 3's `setUp`/`tearDown`, and an override of
  `Object`'s `toString`, `equals`, `hashCode`, `finalize`, `clone`
  (printing, comparing or hashing an instance calls it); a constructor; an
  instance or static initializer block; a field with an annotation
  (`@Rule`, `@ClassRule`, `@RegisterExtension`, `@Mock`, `@TempDir`, ...)
  or whose initializer calls, creates an object or reads another class's
  field (which runs that class's initializer); a static import on demand
  (`import static org.junit.Assert.*`, whose methods take part in the
  overload resolution of every call of that name).  Class-level
  annotations (`@ExtendWith`, `@TestInstance`, TestNG's class `@Test`)
  are part of the class header, and compared.
* **SUPPORT** is everything else: the `package` clause, an import (a
  single-type or static import binds its simple name; an import on
  demand, `a.b.*`, binds none: a type it would bring that the file
  already names otherwise is a compile error, not a new meaning), a
  class header (binds its name), a helper method (binds its name), a
  plain field, a nested enum, record, interface or annotation type.  A
  new one is open to an existing class (`Unit.open`) when it is
  `private` (a private method never overrides nor implements, and no
  subclass sees it) in a class that extends no class (a test it inherits
  from another file may name even a private member by a string:
  `@MethodSource("rows")`, `@EnabledIf("ready")`), or when the class
  has no supertype and no class
  annotation but `@ExtendWith`, `@DisplayName`, `@Tag`, `@Nested` (a
  package-private, protected or public instance method of a class with
  a supertype overrides an inherited one of its signature, `@Override`
  or not; a static one or a field hides one a subclass in another file
  reads); and never with an annotation but `@SuppressWarnings` or
  `@SafeVarargs`, or named as a hook (`gate.drift.classes.HOOK_NAMES`).
* **In a new file** (`reaches`), a static initializer block reaches the
  tests of other files (it runs once in the test JVM that runs them
  all), and so does a top-level type named like a framework's (`Test`,
  `Assertions`, `BeforeEach`: a type of the package wins over one an
  import on demand brings, in every file of the package), and so does a
  test writing state other tests see (above); the class's
  hooks, fields and constructors act on its own tests.  A static
  field's initializer runs when the class loads too, and is read as the
  class's own state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.drift import CASE, COLLECTION, SUPPORT, Unit, Unparsable
from gate.drift._treesitter import ParsedText, named, parse
from gate.drift.classes import Sharing, Splitter, contains, opens, simple
from gate.drift.reader import Reader

if TYPE_CHECKING:
    from tree_sitter import Node

TESTS = frozenset({"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate"})
HOOKS = frozenset(
    {
        "BeforeEach",
        "BeforeAll",
        "AfterEach",
        "AfterAll",
        "Before",
        "After",
        "BeforeClass",
        "AfterClass",
        # TestNG
        "BeforeMethod",
        "AfterMethod",
        "BeforeTest",
        "AfterTest",
        "BeforeSuite",
        "AfterSuite",
        "BeforeGroups",
        "AfterGroups",
    }
)
# Annotations whose array elements are a parameterized test's rows.
ROWS = frozenset({"ValueSource", "CsvSource"})
JUNIT3_HOOKS = frozenset({"setUp", "tearDown"})
# The frameworks' own type names: a top-level type of the package named so
# takes the place of the one an import on demand brings (`import
# org.junit.jupiter.api.*`) in every file of the package.
FRAMEWORK_TYPES = (
    TESTS
    | HOOKS
    | ROWS
    | frozenset(
        {
            "Assertions",
            "Assert",
            "Assumptions",
            "Assume",
            "Disabled",
            "Ignore",
            "Nested",
            "ExtendWith",
            "RegisterExtension",
            "Rule",
            "ClassRule",
            "MethodSource",
            "DisplayName",
            "Tag",
            "Timeout",
        }
    )
)
# `Object`'s methods, which a class overrides without a supertype of its
# own: code that prints, compares or hashes an instance calls them.
OBJECT_METHODS = frozenset({"toString", "equals", "hashCode", "finalize", "clone"})
# Class annotations that only mark a test class: a class with none but
# these and no supertype is open to a new non-private helper or field.
MARKERS = frozenset({"ExtendWith", "DisplayName", "Tag", "Tags", "Nested"})
# Member annotations the compiler alone reads (no framework acts on them).
NO_OPS = frozenset({"SuppressWarnings", "SafeVarargs"})
COMMENTS = frozenset({"line_comment", "block_comment"})
IDENTIFIERS = frozenset({"identifier", "type_identifier"})
# Expressions in a field's initializer that run code: a call, an object
# created, another class's field read (its static initializer runs).
RUNS = frozenset(
    {
        "method_invocation",
        "object_creation_expression",
        "field_access",
        "explicit_constructor_invocation",
        "method_reference",
    }
)
_SPLIT = frozenset({"class_declaration", "interface_declaration"})
_TYPES = frozenset(
    {
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "annotation_type_declaration",
    }
)


def reaches(unit: Unit) -> bool:
    """Whether `unit`, collection-time code of a NEW test file, changes
    what the tests of other files see: a static initializer block, a
    top-level type named like a framework's, a test writing state other
    tests see."""
    if unit.key.startswith(("class ", "type ")):
        return unit.role == COLLECTION
    if unit.test:  # a test writing what other tests see (`gate.drift.classes.Sharing`)
        return True
    return unit.key.startswith("static initializer ")


def units(text: str) -> tuple[Unit, ...]:
    """The units of a Java test file."""
    source = parse(text, "java")
    splitter = _Java(source)
    for node in splitter.declarations(source.root):
        splitter.top(node)
    return splitter.units()


class _Java(Splitter):
    def __init__(self, source: ParsedText) -> None:
        super().__init__(source, IDENTIFIERS, COMMENTS)

    def top(self, node: Node) -> None:
        kind = node.type
        if kind == "package_declaration":
            self.add(node, "package", "package", SUPPORT)
        elif kind == "import_declaration":
            self.import_(node)
        elif kind in _TYPES:
            self.type_(node, "", "", False)
        else:
            raise Unparsable(f"a {kind} at line {self.source.line(node)} is not a Java declaration")

    def import_(self, node: Node) -> None:
        path = ".".join(self.names_in(node))  # without layout or comments
        static = any(c.type == "static" for c in node.children)
        wildcard = any(c.type == "asterisk" for c in self.declarations(node))
        key = f"import {'static ' if static else ''}{path}{'.*' if wildcard else ''}"
        if wildcard:
            self.add(node, key, key[len("import ") :], COLLECTION if static else SUPPORT)
            return
        self.add(node, key, key[len("import ") :], SUPPORT, (path.rsplit(".", 1)[-1],))

    def annotations(self, node: Node) -> list[Node]:
        out: list[Node] = []
        for child in self.declarations(node):
            if child.type == "modifiers":
                out += [
                    a
                    for a in self.declarations(child)
                    if a.type in ("annotation", "marker_annotation")
                ]
        return out

    def annotation_name(self, annotation: Node) -> str:
        name = annotation.child_by_field_name("name")
        return simple(self.text(name)) if name is not None else ""

    def type_(self, node: Node, outer: str, parent: str, plain: bool) -> None:
        """A type; `plain`: whether its class, if it is nested, is plain."""
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        label = f"{outer}.{name}" if outer else name
        body = node.child_by_field_name("body")
        role = COLLECTION if not parent and name in FRAMEWORK_TYPES else SUPPORT
        marks = {self.annotation_name(a) for a in self.annotations(node)}
        private = "private" in self.modifiers(node) and not self.inherits
        open_ = opens((name,), private, plain, marks <= NO_OPS | MARKERS) if parent else None
        if node.type not in _SPLIT or body is None:
            self.add(node, f"type {label}", label, role, (name,), parent, open_=open_)
            return
        # A supertype's code may call a new member by name (`runTest` of
        # JUnit 3's `TestCase`): its keyword is among the header's names,
        # so the class is never open to a new helper.
        supertypes = tuple(
            c.type
            for c in self.declarations(node)
            if c.type in ("superclass", "super_interfaces", "extends_interfaces")
        )
        key = self.header(
            node, body, f"class {label}", label, role, (name,), parent, name_node, supertypes, open_
        )
        junit3 = "TestCase" in self.names_in(node.child_by_field_name("superclass"))
        plain = not supertypes and marks <= MARKERS
        enclosing, self.inherits = self.inherits, "superclass" in supertypes
        for member in self.declarations(body):
            self.member(member, label, key, junit3, plain)
        self.inherits = enclosing

    def modifiers(self, node: Node) -> set[str]:
        """The member's modifier keywords (`private`, `static`)."""
        return {
            self.text(m)
            for c in self.declarations(node)
            if c.type == "modifiers"
            for m in c.children
            if m.type not in ("annotation", "marker_annotation")
        }

    def member(self, node: Node, owner: str, parent: str, junit3: bool, plain: bool) -> None:
        kind = node.type
        if kind in _TYPES:
            self.type_(node, owner, parent, plain)
        elif kind == "method_declaration":
            self.method(node, owner, parent, junit3, plain)
        elif kind in ("field_declaration", "constant_declaration"):
            names = tuple(
                self.text(n)
                for d in node.children_by_field_name("declarator")
                if (n := d.child_by_field_name("name")) is not None
            )
            label = f"{owner}.{', '.join(names)}"
            runs = self.annotations(node) or any(
                contains(v, RUNS)
                for d in node.children_by_field_name("declarator")
                if (v := d.child_by_field_name("value")) is not None
            )
            role = COLLECTION if runs else SUPPORT
            private = "private" in self.modifiers(node) and not self.inherits
            open_ = opens(names, private, plain, True)
            self.add(node, f"field {label}", label, role, names, parent, open_=open_)
        elif kind in ("constructor_declaration", "compact_constructor_declaration"):
            self.add(node, f"constructor {owner}", f"{owner} constructor", COLLECTION, (), parent)
        elif kind == "static_initializer":
            label = f"{owner} static initializer"
            self.add(node, f"static initializer {owner}", label, COLLECTION, (), parent)
        elif kind == "block":
            self.add(node, f"initializer {owner}", f"{owner} initializer", COLLECTION, (), parent)
        else:
            self.add(node, f"{kind} {owner}", f"{owner} {kind}", COLLECTION, (), parent)

    def method(self, node: Node, owner: str, parent: str, junit3: bool, plain: bool) -> None:
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        label = f"{owner}.{name}"
        marks = {self.annotation_name(a) for a in self.annotations(node)}
        params = node.child_by_field_name("parameters")
        bare = params is not None and not self.declarations(params)
        if marks & HOOKS or name in OBJECT_METHODS or (name in JUNIT3_HOOKS and bare):
            self.add(node, f"hook {label}", label, COLLECTION, (name,), parent)
            return
        test = marks & TESTS or (junit3 and name.startswith("test") and bare)
        if test and "Override" not in marks:  # an override is judged as a helper
            if self.sharing(node).shares(node.child_by_field_name("body")):
                self.add(node, f"method {label}", label, COLLECTION, (name,), parent, test=True)
                return
            rows = lambda: self.rows_of(node)  # noqa: E731
            self.add(node, f"method {label}", label, CASE, (name,), parent, rows)
            return
        # Private methods never override nor implement, and no subclass
        # (of another file) sees them; any other needs a plain class (and
        # in a class that extends another, a test it inherits may name
        # even a private one: `inherits`).
        private = "private" in self.modifiers(node) and not self.inherits
        open_ = opens((name,), private, plain, marks <= NO_OPS)
        self.add(node, f"method {label}", label, SUPPORT, (name,), parent, open_=open_)

    def sharing_in(self, method: Node) -> _Sharing:
        """`Sharing` for a method of the class whose body holds it: its
        fields, `static` or not (JUnit and TestNG make an instance per
        test method... JUnit 5's `PER_CLASS` and TestNG share one, whose
        fields a test may write for the next: read as its own, as JUnit's
        default)."""
        statics: set[str] = set()
        instances: set[str] = set()
        body = method.parent
        for member in self.declarations(body):
            if member.type not in ("field_declaration", "constant_declaration"):
                continue
            static = "static" in self.modifiers(member) or member.type == "constant_declaration"
            for declarator in member.children_by_field_name("declarator"):
                if (n := declarator.child_by_field_name("name")) is not None:
                    (statics if static else instances).add(self.text(n))
        return _Sharing(self.source, frozenset(statics), frozenset(instances))

    def rows_of(self, node: Node) -> list[Node]:
        """The elements of the method's `@ValueSource`/`@CsvSource` arrays."""
        out: list[Node] = []
        for annotation in self.annotations(node):
            if self.annotation_name(annotation) not in ROWS:
                continue
            arguments = annotation.child_by_field_name("arguments")
            for argument in self.declarations(arguments) if arguments is not None else []:
                value = argument
                if argument.type == "element_value_pair":
                    key = argument.child_by_field_name("key")
                    if self.annotation_name(annotation) == "CsvSource" and (
                        key is None or self.text(key) != "value"
                    ):
                        continue  # delimiter, textBlock, ...: not rows
                    value = argument.child_by_field_name("value")  # type: ignore[assignment]
                if value is not None and value.type == "element_value_array_initializer":
                    out += self.declarations(value)
        return out


class _Sharing(Sharing):
    """`Sharing` on Java's grammar."""

    accesses = frozenset({"field_access"})
    calls = frozenset({"method_invocation"})
    assignments = frozenset({"assignment_expression"})
    updates = frozenset({"update_expression"})
    indexes = frozenset({"array_access"})
    selves = frozenset({"this", "super"})
    mocks = frozenset({"mockStatic", "mockConstruction", "mockConstructionWithAnswer"})
    undo = frozenset({"close", "closeOnDemand"})

    def access(self, node: Node) -> tuple[Node | None, str]:
        field = node.child_by_field_name("field")
        return node.child_by_field_name("object"), self.text(field) if field else ""

    def call(self, node: Node) -> tuple[Node | None, str, list[Node]]:
        name = node.child_by_field_name("name")
        arguments = node.child_by_field_name("arguments")
        return (
            node.child_by_field_name("object"),
            self.text(name) if name is not None else "",
            named(arguments) if arguments is not None else [],
        )

    def index(self, node: Node) -> Node | None:
        return node.child_by_field_name("array")

    def targets(self, node: Node) -> list[Node]:
        if node.type == "update_expression":
            return named(node)[:1]
        left = node.child_by_field_name("left")
        return [left] if left is not None else []

    def bindings(self, found: list[Node]) -> tuple[set[str], dict[str, list[Node]]]:
        declared: set[str] = set()
        values: dict[str, list[Node]] = {}
        for node in found:
            if node.type in ("variable_declarator", "resource"):
                name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                if name is not None:
                    declared.add(self.text(name))
                    values.setdefault(self.text(name), [])
                    if value is not None:
                        values[self.text(name)].append(value)
            elif node.type in _PARAMETERS:
                name = node.child_by_field_name("name")
                declared |= {self.text(name)} if name is not None else set()
            elif node.type == "lambda_expression":
                params = node.child_by_field_name("parameters")
                if params is not None and params.type == "identifier":
                    declared.add(self.text(params))
                elif params is not None and params.type == "inferred_parameters":
                    declared |= {self.text(p) for p in named(params)}
        self.reassigned(found, values)
        return declared, values

    def finally_(self, node: Node) -> tuple[Node | None, Node | None]:
        if node.type not in ("try_statement", "try_with_resources_statement"):
            return None, None
        final = next((c for c in named(node) if c.type == "finally_clause"), None)
        return node.child_by_field_name("body"), final

    def resources(self, node: Node) -> list[Node]:
        if node.type != "resource_specification":
            return []
        return named(node)


# Nodes that declare one parameter or pattern variable (`name` field).
_PARAMETERS = frozenset(
    {"formal_parameter", "spread_parameter", "catch_formal_parameter", "enhanced_for_statement"}
    | {"type_pattern", "record_pattern_component"}
)


def _read(text: str, suffix: str) -> tuple[Unit, ...]:
    """`units`, as the engine calls every language (one grammar: `suffix` unused)."""
    return units(text)


# What the engine reads Java test files with (`gate.drift.language.JAVA`).
READER = Reader(units=_read, reaches=reaches)
