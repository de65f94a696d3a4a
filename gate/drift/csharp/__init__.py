"""C# test files (xUnit, NUnit, MSTest) as units, on tree-sitter's C#
grammar (`gate.drift.classes` says what the units, names and tokens are).

* **A case** is a method with a test attribute: xUnit's `[Fact]` and
  `[Theory]` (and any attribute whose name ends so, `[SkippableFact]`),
  NUnit's `[Test]`, `[TestCase]`, `[TestCaseSource]`, MSTest's
  `[TestMethod]`, `[DataTestMethod]` (an `Attribute` suffix and a
  namespace are read through), but for one that overrides or hides an
  inherited member (`override`, `new`), judged as a helper.  Its key is
  `method Class.Name`.  Its
  `[InlineData]`, `[TestCase]` and `[DataRow]` attributes are its rows: a
  row added while the rest of the method is unchanged is a test that
  grew; a row edited or removed is a change.  A test whose body writes
  state other tests of the run see (`gate.drift.classes.Sharing`:
  `Environment.SetEnvironmentVariable`, `Console.SetOut`,
  `CultureInfo.CurrentCulture = ...`, a static field or property, an
  object reached from one, but a write put back in a `finally` from its
  old value or made by a `using` resource; an object initializer's
  members are the new object's; in a class that extends a class an
  unknown PascalCase name may be an inherited property, the test's own
  but for the process's types) is COLLECTION, still a test (`Unit.test`).
* **COLLECTION** is what runs around the class's existing tests: a
  method with a setup or teardown attribute (NUnit's `[SetUp]`,
  `[TearDown]`, `[OneTimeSetUp]`, `[OneTimeTearDown]`, MSTest's
  `[TestInitialize]`, `[TestCleanup]`, `[ClassInitialize]`,
  `[ClassCleanup]`) or name (`InitializeAsync`, `DisposeAsync` of xUnit's
  `IAsyncLifetime`, `Dispose`), an override of `object`'s `ToString`,
  `Equals`, `GetHashCode` (printing, comparing or hashing an instance
  calls it), keyed `hook Class.Name`; a constructor (xUnit's setup, which also receives
  the `IClassFixture<>` and collection fixtures), a static constructor,
  a finalizer; a field, property or event with an attribute or whose
  initializer calls, creates an object or reads a member of another type
  (its static constructor runs); an operator, indexer or conversion;
  `using static` (its methods take part in the overload resolution of
  every call of that name); a `#if` (its condition line is a unit; the
  declarations of each of its branches are units as anywhere else, keyed
  with the branch, `#if DEBUG: method Class.Name`, so a unit moved into
  or out of a branch, or under a new `#if`, is another unit) and other
  preprocessor directives but `#nullable`, `#pragma`, `#region` and
  `#endregion`; a top-level statement.  Class-level attributes (`[Collection]`,
  `[TestFixture]`) and base types (`IClassFixture<T>`, `IAsyncLifetime`)
  are part of the class header, and compared.
* **SUPPORT** is everything else: the namespace, a `using` (an alias
  binds its name; `using N;` binds none: a type it would bring that the
  file already names otherwise is an ambiguity the compiler refuses),
  a class header (binds its name), a helper method, a plain field or
  property, a nested enum, struct, record, interface or delegate.  A new
  one is open to an existing class (`Unit.open`) when it has no access
  modifier but `private` in a class that is not `partial` (its other
  parts, in other files, see private members) and whose base types are
  all named as interfaces are (`_interface`: a base class's tests, in
  another file, may name even a private member by a string, NUnit's
  `[TestCaseSource("Rows")]`), or when the class has no
  base type and no attribute but `[TestFixture]` or `[TestClass]`
  without arguments (a public method of a class with a base type may
  implement an interface's member; a non-private one may hide what a
  subclass in another file calls); never with `override`, `new`,
  `virtual`, `abstract`, `extern` or `partial`, as an explicit interface
  member (`void IDisposable.Dispose()`), with an attribute but
  `[SuppressMessage]` or `[ExcludeFromCodeCoverage]`, or named as a hook
  (`gate.drift.classes.HOOK_NAMES`).
* **In a new file** (`reaches`), what acts on the whole test assembly
  reaches the tests of other files: an `[assembly: ...]` attribute, a
  `global using`, MSTest's `[AssemblyInitialize]`/`[AssemblyCleanup]`,
  `[ModuleInitializer]`, a static constructor, a class marked
  NUnit `[SetUpFixture]` or xUnit `[CollectionDefinition]` (a fixture
  that other classes' tests share), an extension method (key
  `extension Class.Name`: the files of its namespace call it instead of
  another extension of that name), and a top-level type named like a
  framework's (`Assert`, `FactAttribute`, `TestContext`: a type of the
  namespace wins over one a `using` brings, in every file of it), and a
  test writing state other tests see (above).  The class's hooks, fields and
  constructors act on its own tests, unless the class is `partial`: its
  other parts, in other files (at base, or new beside it), are the same
  class, so its header and every member but a test (a hook, a
  constructor, a field, a helper, whose overload may be the one an
  existing test's call now picks) are collection-time code (key `partial
  class X` and its members), in a new file and in an existing one alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from gate.drift import CASE, COLLECTION, SUPPORT, Unit, Unparsable
from gate.drift._treesitter import ParsedText, descendants, named, parse
from gate.drift.classes import Sharing, Splitter, contains, opens, simple
from gate.drift.reader import Reader

if TYPE_CHECKING:
    from tree_sitter import Node

TESTS = frozenset(
    {"Fact", "Theory", "Test", "TestCase", "TestCaseSource", "TestMethod", "DataTestMethod"}
)
HOOKS = frozenset(
    {
        "SetUp",
        "TearDown",
        "OneTimeSetUp",
        "OneTimeTearDown",
        "TestFixtureSetUp",
        "TestFixtureTearDown",
        "TestInitialize",
        "TestCleanup",
        "ClassInitialize",
        "ClassCleanup",
    }
)
# Hooks the runner calls around the whole test assembly.
RUN_WIDE = frozenset({"AssemblyInitialize", "AssemblyCleanup", "ModuleInitializer"})
# xUnit's IAsyncLifetime and IDisposable: called around each test of the class.
HOOK_NAMES = frozenset({"InitializeAsync", "DisposeAsync", "Dispose"})
# `object`'s virtual methods, which a class overrides without a base
# list: code that prints, compares or hashes an instance calls them.
OBJECT_METHODS = frozenset({"ToString", "Equals", "GetHashCode", "Finalize"})
# Class attributes whose class other classes' tests share.
SHARED_CLASSES = frozenset({"SetUpFixture", "CollectionDefinition"})
ROWS = frozenset({"InlineData", "TestCase", "DataRow"})
# The frameworks' own type names: a type of the test namespace named so
# takes the place of the framework's in every file of that namespace
# (a `static class Assert` with no-op methods), so it reaches their tests.
FRAMEWORK_TYPES = (
    TESTS
    | HOOKS
    | RUN_WIDE
    | ROWS
    | SHARED_CLASSES
    | frozenset(
        {
            "Assert",
            "CollectionAssert",
            "StringAssert",
            "Assume",
            "Ignore",
            "Skip",
            "Trait",
            "Collection",
            "MemberData",
            "ClassData",
            "TestContext",
            "TestFixture",
            "TestClass",
        }
    )
)
# Class attributes that, without arguments, only mark a test class: a
# class with none but these, no base type and no `partial` is open to a
# new non-private helper, field or property.
MARKERS = frozenset({"TestFixture", "TestClass"})
# Member attributes that only analyzers and coverage tools read.
NO_OPS = frozenset({"SuppressMessage", "UnconditionalSuppressMessage", "ExcludeFromCodeCoverage"})
# Modifiers of a member that overrides, hides, may be overridden, or
# completes another declaration; and those that show it outside its class.
_REPLACES = frozenset({"override", "new", "virtual", "abstract", "extern", "partial"})
_ACCESS = frozenset({"public", "protected", "internal"})
COMMENTS = frozenset({"comment"})
IDENTIFIERS = frozenset({"identifier"})
RUNS = frozenset(
    {
        "invocation_expression",
        "object_creation_expression",
        "implicit_object_creation_expression",
        "member_access_expression",
        "conditional_access_expression",
        "element_access_expression",
        "await_expression",
    }
)
_QUIET_DIRECTIVES = frozenset(
    {"preproc_nullable", "preproc_pragma", "preproc_region", "preproc_endregion"}
)
_TYPES = frozenset(
    {
        "class_declaration",
        "struct_declaration",
        "record_declaration",
        "interface_declaration",
        "enum_declaration",
        "delegate_declaration",
    }
)
_FIELDS = frozenset({"field_declaration", "event_field_declaration"})
_REACHING = (
    "static constructor ",
    "run-wide hook ",
    "assembly attribute ",
    "global using ",
    "extension ",
)


def reaches(unit: Unit) -> bool:
    """Whether `unit`, collection-time code of a NEW test file, changes
    what the tests of other files see: what acts on the whole assembly,
    a test writing state other tests see."""
    if unit.key.startswith(("class ", "type ", "partial class ")):
        return unit.role == COLLECTION  # a SetUpFixture, CollectionDefinition, `Assert`
    if unit.parent.startswith("partial class "):
        return True  # a member of a class whose other parts other files may hold
    if unit.test:  # a test writing what other tests see (`gate.drift.classes.Sharing`)
        return True
    return unit.key.startswith(_REACHING)


def units(text: str) -> tuple[Unit, ...]:
    """The units of a C# test file."""
    source = parse(text, "c_sharp")
    splitter = _CSharp(source)
    for node in splitter.declarations(source.root):
        splitter.top(node)
    return splitter.units()


class _CSharp(Splitter):
    def __init__(self, source: ParsedText) -> None:
        super().__init__(source, IDENTIFIERS, COMMENTS)

    def words(self, node: Node | None) -> str:
        """`node`'s text with its whitespace collapsed (a key)."""
        return " ".join(self.text(node).split()) if node is not None else ""

    def top(self, node: Node) -> None:
        kind = node.type
        if kind == "using_directive":
            self.using(node)
        elif kind == "global_attribute":
            names = ", ".join(self.attribute_names(node))
            self.add(node, f"assembly attribute {names}", f"[assembly: {names}]", COLLECTION)
        elif kind == "extern_alias_directive":
            name = node.child_by_field_name("name")
            alias = self.text(name) if name is not None else ""
            self.add(node, f"extern alias {alias}", f"extern alias {alias}", SUPPORT, (alias,))
        elif kind == "namespace_declaration":
            body = node.child_by_field_name("body")
            label = self.namespace_name(node)
            self.header(node, body, f"namespace {label}", label, SUPPORT, (), "", None)
            for child in self.declarations(body):
                self.top(child)
        elif kind == "file_scoped_namespace_declaration":
            label = self.namespace_name(node)
            self.add(node, f"namespace {label}", label, SUPPORT)
        elif kind in _TYPES:
            self.type_(node, "", "", None)
        elif kind == "global_statement":
            self.add(node, "statement", "top-level statement", COLLECTION)
        elif kind.startswith("preproc_"):
            self.directive(node, "", self.top)
        else:
            raise Unparsable(f"a {kind} at line {self.source.line(node)} is not a C# declaration")

    def namespace_name(self, node: Node) -> str:
        name = node.child_by_field_name("name")
        return self.words(name) if name is not None else ""

    def directive(self, node: Node, parent: str, inside: Callable[[Node], None]) -> None:
        """A preprocessor directive: a `#if` is a unit of its condition
        (new, it is collection-time code) and each of its branches' declarations
        are read by `inside` with the branch as their keys' guard."""
        if node.type == "preproc_if":
            self.branches(
                node, f"#if {self.words(node.child_by_field_name('condition'))}", parent, inside
            )
            return
        role = SUPPORT if node.type in _QUIET_DIRECTIVES else COLLECTION
        first = " ".join(self.text(node).split("\n", 1)[0].split())
        self.add(node, f"directive {first}", first, role, (), parent, open_=role == SUPPORT)

    def branches(self, node: Node, label: str, parent: str, inside: Callable[[Node], None]) -> None:
        condition = node.child_by_field_name("condition")
        alternative = node.child_by_field_name("alternative")
        ends = [c for c in (condition,) if c is not None]
        line = self.source.span(node.start_byte, ends[0].end_byte if ends else node.start_byte + 5)
        self.add(node, f"directive {label}", label, COLLECTION, (), parent, code=line)
        outer = self.guard
        self.guard = f"{outer}{label}: "
        for child in self.declarations(node):
            if child in (condition, alternative):
                continue
            inside(child)
        self.guard = outer
        if alternative is not None:
            if alternative.type == "preproc_elif":
                more = self.words(alternative.child_by_field_name("condition"))
                self.branches(alternative, f"{label} #elif {more}", parent, inside)
            else:
                self.guard = f"{outer}{label} #else: "
                for child in self.declarations(alternative):
                    inside(child)
                self.guard = outer

    def using(self, node: Node) -> None:
        text = self.words(node)
        key = text.rstrip(";").strip()
        words = [c.type for c in node.children]
        if "global" in words:
            self.add(node, key, key, COLLECTION)
            return
        if "static" in words:
            self.add(node, key, key, COLLECTION)
            return
        alias = node.child_by_field_name("name")
        binds = (self.text(alias),) if alias is not None else ()
        self.add(node, key, key, SUPPORT, binds)

    def attributes(self, node: Node) -> list[Node]:
        """The attributes of a declaration (or of one `[...]` list)."""
        lists = [node] if node.type in ("attribute_list", "global_attribute") else named(node)
        out: list[Node] = []
        for group in lists:
            if group.type in ("attribute_list", "global_attribute"):
                out += [a for a in named(group) if a.type == "attribute"]
        return out

    def attribute_name(self, attribute: Node) -> str:
        name = attribute.child_by_field_name("name")
        if name is None:
            return ""
        if name.type == "generic_name":
            inner = named(name)
            name = inner[0] if inner else name
        return simple(self.text(name), "Attribute")

    def attribute_names(self, node: Node) -> list[str]:
        return [self.attribute_name(a) for a in self.attributes(node)]

    def type_(self, node: Node, outer: str, parent: str, at: tuple[bool, bool] | None) -> None:
        """A type; `at`: for a nested one, its class's (partial, plain)."""
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        label = f"{outer}.{name}" if outer else name
        body = node.child_by_field_name("body")
        framework = not parent and simple(name, "Attribute") in FRAMEWORK_TYPES
        modifiers = {self.text(m) for m in named(node) if m.type == "modifier"}
        open_ = self.open_(node, (name,), modifiers, at) if at is not None else None
        if node.type != "class_declaration" or body is None:
            role = COLLECTION if framework else SUPPORT
            self.add(node, f"type {label}", label, role, (name,), parent, open_=open_)
            return
        shared = set(self.attribute_names(node)) & SHARED_CLASSES
        # a partial class's other parts, in other files, see its private
        # members, and its header and members are theirs too (`partial`)
        partial = any(m.type == "modifier" and self.text(m) == "partial" for m in named(node))
        role = COLLECTION if shared or framework or partial else SUPPORT
        kind = "partial class" if partial else "class"
        key = self.header(
            node, body, f"{kind} {label}", label, role, (name,), parent, name_node, open_=open_
        )
        markers = all(
            self.attribute_name(a) in MARKERS and not self.declarations(self.arguments(a))
            for a in self.attributes(node)
        )
        bases = [c for c in named(node) if c.type == "base_list"]
        plain = markers and not partial and not bases
        enclosing, self.inherits = self.inherits, any(not _interface(self.text(b)) for b in bases)
        start = len(self.found)
        for member in self.declarations(body):
            self.member(member, label, key, (partial, plain))
        self.inherits = enclosing
        if partial:  # a helper, field or property of the class other parts' tests run in
            self.found[start:] = [
                replace(u, role=COLLECTION, open=False)
                if u.parent == key and u.role == SUPPORT
                else u
                for u in self.found[start:]
            ]

    def arguments(self, attribute: Node) -> Node | None:
        return next((c for c in named(attribute) if c.type == "attribute_argument_list"), None)

    def open_(
        self, node: Node, names: tuple[str, ...], modifiers: set[str], at: tuple[bool, bool]
    ) -> bool:
        """`Unit.open` of the member `node` of a class that is `at` =
        (partial, plain): no `override`, `new`, `virtual`, `partial`, no
        explicit interface name (`void IFoo.Bar()`), no attribute but a
        no-op; private (no access modifier but `private`, in a class that
        is not partial: a public method may implement an interface of a
        base type) or of a plain class."""
        partial, plain = at
        if modifiers & _REPLACES or any(
            c.type == "explicit_interface_specifier" for c in named(node)
        ):
            return False
        private = not (modifiers & _ACCESS or partial or self.inherits)
        return opens(names, private, plain, set(self.attribute_names(node)) <= NO_OPS)

    def member(self, node: Node, owner: str, parent: str, at: tuple[bool, bool]) -> None:
        kind = node.type
        modifiers = {self.text(m) for m in named(node) if m.type == "modifier"}
        if kind in _TYPES:
            self.type_(node, owner, parent, at)
        elif kind == "method_declaration":
            self.method(node, owner, parent, modifiers, at)
        elif kind in _FIELDS:
            declaration = next((c for c in named(node) if c.type == "variable_declaration"), None)
            declarators = (
                [c for c in named(declaration) if c.type == "variable_declarator"]
                if declaration is not None
                else []
            )
            found = [d.child_by_field_name("name") for d in declarators]
            names = tuple(self.text(n) for n in found if n is not None)
            label = f"{owner}.{', '.join(names)}"
            runs = bool(self.attributes(node)) or any(contains(d, RUNS) for d in declarators)
            role = COLLECTION if runs else SUPPORT
            open_ = self.open_(node, names, modifiers, at)
            self.add(node, f"field {label}", label, role, names, parent, open_=open_)
        elif kind == "property_declaration":
            name_node = node.child_by_field_name("name")
            name = self.text(name_node) if name_node is not None else ""
            value = node.child_by_field_name("value")
            initialized = value is not None and value.type != "arrow_expression_clause"
            runs = bool(self.attributes(node)) or (initialized and contains(value, RUNS))
            role = COLLECTION if runs else SUPPORT
            open_ = self.open_(node, (name,), modifiers, at)
            key, shown = f"property {owner}.{name}", f"{owner}.{name}"
            self.add(node, key, shown, role, (name,), parent, open_=open_)
        elif kind == "constructor_declaration":
            if "static" in modifiers:
                label = f"{owner} static constructor"
                self.add(node, f"static constructor {owner}", label, COLLECTION, (), parent)
            else:
                label = f"{owner} constructor"
                self.add(node, f"constructor {owner}", label, COLLECTION, (), parent)
        elif kind.startswith("preproc_"):
            self.directive(node, parent, lambda n: self.member(n, owner, parent, at))
        else:  # a finalizer, an operator, an indexer, a conversion: runs where code reads it
            self.add(node, f"{kind} {owner}", f"{owner} {kind}", COLLECTION, (), parent)

    def method(
        self, node: Node, owner: str, parent: str, modifiers: set[str], at: tuple[bool, bool]
    ) -> None:
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        label = f"{owner}.{name}"
        marks = set(self.attribute_names(node))
        if marks & RUN_WIDE:
            self.add(node, f"run-wide hook {label}", label, COLLECTION, (name,), parent)
        elif self.extends(node):
            self.add(node, f"extension {label}", label, COLLECTION, (name,), parent)
        elif marks & HOOKS or name in HOOK_NAMES or name in OBJECT_METHODS:
            self.add(node, f"hook {label}", label, COLLECTION, (name,), parent)
        elif (marks & TESTS or any(m.endswith(("Fact", "Theory")) for m in marks)) and not (
            modifiers & {"override", "new"}  # replaces an inherited member: judged as a helper
        ):
            if self.sharing(node).shares(node.child_by_field_name("body")):
                self.add(node, f"method {label}", label, COLLECTION, (name,), parent, test=True)
                return
            rows = lambda: self.rows_of(node)  # noqa: E731
            self.add(node, f"method {label}", label, CASE, (name,), parent, rows)
        else:
            open_ = self.open_(node, (name,), modifiers, at)
            self.add(node, f"method {label}", label, SUPPORT, (name,), parent, open_=open_)

    def sharing_in(self, method: Node) -> _Sharing:
        """`Sharing` for a method of the class whose body holds it: its
        fields and properties, `static` (or `const`) or not (xUnit and
        MSTest make an instance per test; NUnit shares one across a
        fixture's tests, and a test writing an instance field there is
        read as its own, as the other two); in a class that extends a
        class, an unknown PascalCase name may be a property it inherits
        (`Builder.Services.AddX()`), read as the test's own but for the
        process's types (`gate.drift.classes.PROCESS`)."""
        statics: set[str] = set()
        instances: set[str] = set()
        for member in named(method.parent) if method.parent is not None else []:
            modifiers = {self.text(m) for m in named(member) if m.type == "modifier"}
            names: list[str] = []
            if member.type in _FIELDS:
                names = [
                    self.text(n)
                    for d in descendants(member)
                    if d.type == "variable_declarator"
                    and (n := d.child_by_field_name("name")) is not None
                ]
            elif member.type == "property_declaration":
                name = member.child_by_field_name("name")
                names = [self.text(name)] if name is not None else []
            (statics if modifiers & {"static", "const"} else instances).update(names)
        return _Sharing(self.source, frozenset(statics), frozenset(instances), self.inherits)

    def extends(self, node: Node) -> bool:
        """Whether the method is an extension method (`this` on its first
        parameter): every file of its namespace may now call it instead
        of another type's extension of that name."""
        parameters = node.child_by_field_name("parameters")
        first = (
            next((p for p in named(parameters) if p.type == "parameter"), None)
            if parameters
            else None
        )
        return first is not None and any(
            m.type == "modifier" and self.text(m) == "this" for m in named(first)
        )

    def rows_of(self, node: Node) -> list[Node]:
        """The method's row attributes: a whole `[...]` list that holds one
        row alone, else the row attribute in its list."""
        out: list[Node] = []
        for group in named(node):
            if group.type != "attribute_list":
                continue
            found = self.attributes(group)
            rows = [a for a in found if self.attribute_name(a) in ROWS]
            if rows and len(rows) == len(found):
                out.append(group) if len(found) == 1 else out.extend(rows)
            else:
                out.extend(rows)
        return out


class _Sharing(Sharing):
    """`Sharing` on C#'s grammar."""

    accesses = frozenset({"member_access_expression"})
    calls = frozenset({"invocation_expression"})
    assignments = frozenset({"assignment_expression"})
    updates = frozenset({"postfix_unary_expression", "prefix_unary_expression"})
    indexes = frozenset({"element_access_expression"})
    selves = frozenset({"this", "base"})
    initializers = frozenset({"initializer_expression", "with_initializer"})

    def access(self, node: Node) -> tuple[Node | None, str]:
        name = node.child_by_field_name("name")
        return node.child_by_field_name("expression"), self.text(name) if name else ""

    def call(self, node: Node) -> tuple[Node | None, str, list[Node]]:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        args = [a for a in named(arguments) if a.type == "argument"] if arguments else []
        if function is not None and function.type in self.accesses:
            receiver, name = self.access(function)
            return receiver, name.split("<", 1)[0], args
        name = self.text(function).split("<", 1)[0] if function is not None else ""
        return None, name, args

    def index(self, node: Node) -> Node | None:
        return node.child_by_field_name("expression")

    def targets(self, node: Node) -> list[Node]:
        if node.type in self.updates:
            found = [c for c in named(node) if c.type != "comment"]
            return found[:1] if self.text(node).count("++") + self.text(node).count("--") else []
        left = node.child_by_field_name("left")
        return [left] if left is not None else []

    def bindings(self, found: list[Node]) -> tuple[set[str], dict[str, list[Node]]]:
        declared: set[str] = set()
        values: dict[str, list[Node]] = {}
        for node in found:
            if node.type == "variable_declarator":
                name = node.child_by_field_name("name")
                value = next(
                    (c for c in named(node) if c != name and c.type != "bracketed_argument_list"),
                    None,
                )
                if name is not None:
                    values.setdefault(self.text(name), [])
                    declared.add(self.text(name))
                    if value is not None:
                        values[self.text(name)].append(value)
            elif node.type in ("parameter", "catch_declaration", "declaration_pattern"):
                name = node.child_by_field_name("name")
                declared |= {self.text(name)} if name is not None else set()
            elif node.type == "foreach_statement":
                left = node.child_by_field_name("left")
                declared |= {self.text(left)} if left is not None else set()
            elif node.type in ("implicit_parameter", "single_variable_designation"):
                declared.add(self.text(node))
        self.reassigned(found, values)
        return declared, values

    def finally_(self, node: Node) -> tuple[Node | None, Node | None]:
        if node.type != "try_statement":
            return None, None
        final = next((c for c in named(node) if c.type == "finally_clause"), None)
        return node.child_by_field_name("body"), final

    def resources(self, node: Node) -> list[Node]:
        if node.type == "using_statement":  # `using (var x = ...)`, `using (...)`
            body = node.child_by_field_name("body")
            return [c for c in named(node) if c != body]
        if node.type == "local_declaration_statement" and any(
            c.type == "using" for c in node.children
        ):
            return named(node)  # `using var x = ...;`
        return []


def _read(text: str, suffix: str) -> tuple[Unit, ...]:
    """`units`, as the engine calls every language (one grammar: `suffix` unused)."""
    return units(text)


# What the engine reads C# test files with (`gate.drift.language.CSHARP`).
READER = Reader(units=_read, reaches=reaches)


# A base type named by .NET's convention for interfaces (`IDisposable`,
# `IClassFixture<T>`, `Xunit.IAsyncLifetime`): an interface brings no
# inherited tests.  Any other base may be a class with tests of its own
# (NUnit and MSTest run a base class's tests in each derived fixture).
_INTERFACE = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*\.)*I[A-Z][A-Za-z0-9_]*\s*(?:<.*>)?")


def _interface(base_list: str) -> bool:
    """Whether every type of the base list `base_list` (`: A, IB<T>`) is
    named as an interface is (`_INTERFACE`); generic arguments aside."""
    text = base_list.strip().removeprefix(":")
    depth, parts, start = 0, [], 0
    for i, ch in enumerate(text):
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return all(_INTERFACE.fullmatch(p.strip()) for p in parts)
