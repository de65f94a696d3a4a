"""Go test files (`_test.go`) as units.

`units(text)` parses with tree-sitter's Go grammar and makes one unit of
each top-level declaration; a grouped `import (...)`, `var (...)` or
`type (...)` is split into one unit per spec (adding an import to a group
changes no existing unit), and a `const (...)` group stays one unit when a
spec takes its value from its place (`iota`, or a spec without a value).

* **A case** is what `go test` runs: a function `TestX`, `BenchmarkX`,
  `FuzzX` or `ExampleX` whose name is the prefix alone or goes on with a
  character that is not a lower-case letter (Go's rule: `Testify` is not
  a test, `Test_x` and `TestÅ` are).  Its key is `func TestX`; `t.Run`
  subtests and table-driven cases are inside its code.
* **COLLECTION** is code that decides what the package's tests see or
  whether they run: `func TestMain` (it runs the whole package's tests),
  every `func init`, a `var` whose initializer calls a function or
  receives from a channel (it runs when the package loads, `var _ =
  setup()` included; a conversion such as `var _ I = (*T)(nil)`, or
  `make` and `new` given a type, runs no code), an import for effects
  only (`import _ "x"`: its `init` runs; not `embed`, which has none and
  only allows `//go:embed`),
  and a compiler directive comment outside a function (`//go:build`,
  `// +build`, `//go:embed`, `//go:linkname`, `//line`, ...: `//go:build
  ignore` turns the whole file off), also inside a grouped declaration.
  The build constraints Go reads in a plain header are one unit
  (`gate.drift.go.constraints`) compared by the builds they select:
  gofmt's `//go:build` line written above the same `// +build` lines
  changes nothing; any other edit of them is a change.
* **In a new file** (`reaches`, `apart`), a directive that acts on that
  file alone (a build constraint, `//line`, `//go:embed`, `//go:noinline`,
  ...) reaches no other test, and nothing reaches one when the file's
  folder had no `_test.go` file at base: `go test` builds a test binary
  per folder, and that package's tests are all new.
* **A case that stores outside itself** (a package-level variable,
  process-wide state, undone in no `defer` or `Cleanup`:
  `gate.drift.go.writes`) is COLLECTION: the tests after it see the
  store.
* **In a new file, the file's own** (`Unit.local`, which `reaches`
  passes): a case (`Benchmark*` with its sink) whose only stores outside
  itself go into package-level vars the file itself declares, which no
  test of the base can name (`Writes.kept_to`: no setter of process-wide
  state, no helper that shares state); and a package-level var whose
  initializer calls only conversions, `len`, `cap`, `append`, `min`,
  `max`, the standard library's pure functions an inserted assertion may
  call (`gate.drift.go.cases.PURE`) and functions of the file that do
  the same, on top of methods of their own locals (`strings.Builder`),
  and store nothing outside themselves (`benchBody = buildClean(1024)`).
  `init`, `TestMain`, a store into a var another file declares and
  `os.Setenv` not put back (`gate.drift.go.writes`) still reach every
  test of the package (`b.Setenv` undoes itself).
* **Suites**: a method whose name starts with `Test` is a case too (testify's
  `suite` and gocheck run a suite's `Test*` methods), and the methods they
  call around a suite's tests (`SetupTest`, `SetupSuite`, `TearDownTest`,
  `BeforeTest`, gocheck's `SetUpTest`, ...) are COLLECTION, except on a
  type the file defines: there a hook is a member of its type's unit
  (`Unit.parent`), so it is drift on a type that exists at base and
  welcome on a new suite, unless it stores outside itself.
* **SUPPORT** is every other declaration: the `package` clause, imports
  with names, `const`, `type`, a `var` without a call, helper functions,
  and methods (keyed by receiver type, `method T.M`).  `binds` are the
  names it declares (a method binds its receiver type's name: a new method
  changes that type's method set, which interfaces and reflection see; an
  import binds its package name: the alias, or the
  path's last element without a `.vN`/`/vN` version and `go-` prefix; a
  dot import binds `.`).  `uses` are the identifiers, type and package
  names of its code (not a selector's field, a string or a comment): Go
  resolves every name statically, so a word in `"net/http"` or a comment
  reads nothing, and a new `import "net"` beside it changes no existing
  code.

`Unparsable` when the grammar is not installed or the tree has an ERROR
or MISSING node; but for a modified file (`pair`), a function or method
whose code tree-sitter-go repairs (a local named `make` or `new` called
with a value, `make(3)`, which the grammar reads as a call of the
built-in, or Go 1.26's `new(expr)`) is a COLLECTION unit (never grown,
refused when new) whose tokens hold each repaired statement as its
exact text (`gate.drift.go.spelled.in_statements`); one whose repair lies
outside its statements (its signature), and a `var` or `const`
declaration holding one (`var p = new(3)`), is its exact text alone.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from gate.drift import CASE, COLLECTION, SUPPORT, Unit, Unparsable, repaired_pair
from gate.drift._treesitter import (
    NamesByPlace,
    ParsedText,
    UniqueKeys,
    captures,
    has_kind,
    named,
    parse,
    refuse,
)
from gate.drift.go import constraints
from gate.drift.go.cases import PURE, Cases
from gate.drift.go.spelled import in_statements, predeclared_any
from gate.drift.go.writes import SCAN, Writes
from gate.drift.reader import Reader

if TYPE_CHECKING:
    from tree_sitter import Node

    from gate.drift.go.scan import Scan
    from gate.model.change import BaseTree

PREFIXES = ("Test", "Benchmark", "Fuzz", "Example")
DIRECTIVE = re.compile(r"//(?:go:|line |export |extern |\s*\+build)")
# Type nodes that only a type can be: the first argument of a call that
# passes one is a call of the builtin `make` or `new`, never of a function
# (a function takes values), and a call whose callee is one is a conversion.
_TYPES = frozenset(
    {
        "slice_type",
        "array_type",
        "map_type",
        "channel_type",
        "pointer_type",
        "struct_type",
        "interface_type",
        "function_type",
    }
)
# What may wrap a conversion's type: `(*T)(nil)`.
_WRAPPERS = ("parenthesized_expression", "unary_expression")
FUNCTION_LITERALS = frozenset({"func_literal"})
_DECLARED = frozenset({"function_declaration", "method_declaration"})
# Declarations whose repairs the grammar keeps inside them (`pair`).
_REPAIRABLE = _DECLARED | {"var_declaration", "const_declaration"}
GROUPS = frozenset(
    {"import_declaration", "var_declaration", "const_declaration", "type_declaration"}
)
# Methods a test suite runner (testify's suite, gocheck) calls around a suite's tests.
SUITE_HOOKS = frozenset(
    {
        "SetupSuite",
        "SetupTest",
        "SetupSubTest",
        "TearDownSuite",
        "TearDownTest",
        "TearDownSubTest",
        "BeforeTest",
        "AfterTest",
        "HandleStats",
        "SetUpSuite",
        "SetUpTest",
    }
)
# Built-ins that only compute a value from their arguments.
_PURE_BUILTINS = frozenset({"len", "cap", "append", "min", "max"})
_VERSION = re.compile(r"v[0-9]+")
# The names Go code reads: identifiers, type names and package names, and
# the predeclared `nil`, `true`, `false`, `iota` (a package may declare its
# own), not a selector's field (`x.net`), a string (`"net/http"`) or a comment.
_NAMES = """[(identifier) (type_identifier) (package_identifier) (nil) (true) (false) (iota)]
@name"""


# Directives whose reach ends at the file or the declaration they sit on:
# a build constraint turns this file on or off, `//line` renumbers its
# code, the rest tell the compiler how to build the function or var after
# them.  Any other (`//go:linkname` reaches another package's symbols,
# `//go:debug` sets GODEBUG for the whole test binary) reaches further.
_OWN_DIRECTIVES = frozenset(
    {
        "//go:build",
        "//+build",
        "//line",
        "//go:embed",
        "//go:generate",
        "//go:noinline",
        "//go:nosplit",
        "//go:norace",
        "//go:nocheckptr",
        "//go:noescape",
        "//go:uintptrescapes",
    }
)


def reaches(unit: Unit) -> bool:
    """Whether `unit`, collection-time code of a NEW test file, changes what
    the tests of the package's other files see: all of it does (`init`,
    `TestMain`, a `var` that calls, an import for effects, a test that
    stores outside itself), except a directive that acts on this file's own
    code alone (`_OWN_DIRECTIVES`: `//go:build ignore` in a new file turns
    off only that file)."""
    if unit.local:
        return False
    if unit.key.startswith("directive "):
        word = _first_word(unit.code)
        return ("//+build" if word == "//" else word) not in _OWN_DIRECTIVES  # `// +build`
    return True


def _first_word(text: str) -> str:
    """A directive comment's first word (`//go:build`), which names its unit."""
    words = text.split(None, 1)
    return words[0] if words else text


def apart(path: str, tree: BaseTree) -> bool:
    """Whether the new test file `path` joins a package without tests at
    base: its folder holds no `_test.go` file there, or is absent
    (`BaseTree.folder`; unknown: False).  `go test` builds one binary per
    folder, so what the file runs when the package loads reaches new
    tests only."""
    folder = path.rpartition("/")[0]
    entries = tree.folder(folder)
    if entries is None:
        return False
    return not any(name.endswith("_test.go") and kind != "folder" for name, kind in entries.items())


def units(text: str) -> tuple[Unit, ...]:
    """The units of a Go test file."""
    return tuple(split(parse(text, "go")).found)


def split(source: ParsedText) -> _Splitter:
    """A Go file read declaration by declaration: its units (`found`),
    each unit's syntax node (`nodes`) and the names it binds (`bound`),
    for `units` and for `gate.drift.go.unread`."""
    splitter = _Splitter(source)
    folded, selects = constraints.header(source)
    if folded:
        splitter.constraints(folded, selects)
    skip = {n.start_byte for n in folded}
    for node in source.root.children:
        if node.start_byte not in skip:
            splitter.declaration(node)
    return splitter


def pair(base: str, head: str, suffix: str) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    """The units of a modified file's two versions when `units` refuses
    one for a syntax error tree-sitter-go repairs (the module's
    docstring: `_Splitter.opaque` holds the units of exact text alone).
    `Unparsable` when a repair lies between declarations, in an import
    or a type, or when a unit of exact text alone has the same key on
    both sides but another text: what changed inside it cannot be told."""
    sides = [split(parse(text, "go", tolerant=True)) for text in (base, head)]
    return repaired_pair(
        sides[0].found, sides[0].opaque, sides[1].found, sides[1].opaque, "go", "declaration"
    )


def is_test_name(name: str) -> bool:
    """Whether `go test` runs a function of this name (given the signature)."""
    for prefix in PREFIXES:
        if name == prefix:
            return True
        if name.startswith(prefix):
            return unicodedata.category(name[len(prefix)]) != "Ll"
    return False


class _Splitter:
    def __init__(self, source: ParsedText) -> None:
        self.source = source
        self.found: list[Unit] = []
        self.opaque: list[str] = []  # the keys of the units of repaired functions
        self.nodes: dict[str, Node] = {}  # each unit's key -> its declaration or spec
        self._keys = UniqueKeys()
        # the names each unit's code reads (`_NAMES`)
        found = captures(source, f"{_NAMES}\n{SCAN}")  # one pass over the tree for both
        self.bound = self.imports()
        # a repaired function's stores cannot be read: it counts as storing
        unread = frozenset(
            ("." if node.type == "method_declaration" else "") + self.text(label)
            for node in source.root.children
            if node.type in _DECLARED
            and node.has_error
            and (label := node.child_by_field_name("name")) is not None
        )
        self.writes = Writes(source, self.bound, found.get("node", []), unread)
        self.read = NamesByPlace((n.start_byte, source.text(n)) for n in found.get("name", []))
        self.alias_any = not source.root.has_error and predeclared_any(source)
        self.types = self.defined_types()
        self.file_vars = frozenset(
            name
            for node in source.root.children
            if node.type == "var_declaration"
            for spec in self.specs(node, "var_spec_list", "var_spec")
            for name in self.names(spec)
        )

    def text(self, node: Node) -> str:
        return self.source.text(node)

    def add(
        self,
        node: Node,
        key: str,
        name: str,
        role: str,
        binds: tuple[str, ...] = (),
        parent: str = "",
        local: bool = False,
        test: bool = False,
    ) -> None:
        unique, shown = self._keys.unit(key, name)
        self.nodes[unique] = node
        function = node.type in _DECLARED
        repaired = node.has_error  # a function the grammar repairs (`pair`)
        if repaired and not in_statements(node):  # its exact text alone
            self.opaque.append(unique)
            code, line = self.text(node), self.source.line(node)
            binds = tuple(dict.fromkeys(binds))
            self.found.append(Unit(unique, shown, COLLECTION, code, binds, line, parent=parent))
            return
        writes = self.writes if function else None
        cases = Cases(self.source, node, writes, self.bound, self.alias_any)
        self.found.append(
            Unit(
                key=unique,
                name=shown,
                role=COLLECTION if repaired else role,
                code=self.text(node),
                binds=tuple(dict.fromkeys(binds)),
                line=self.source.line(node),
                uses=None if repaired else self.read.within(node),
                parent=parent,
                same=cases.same,
                tokens=cases.tokens if function else None,
                local=local and not repaired,
                test=test,
            )
        )

    def constraints(self, nodes: list[Node], selects: str) -> None:
        """The file's build constraints, one unit (`gate.drift.go.constraints`):
        its text the lines', its `same` what they select (`selects`)."""
        lines = [self.text(n) for n in nodes]
        unique, shown = self._keys.unit("directive build constraint", "build constraint")
        self.nodes[unique] = nodes[0]
        self.found.append(
            Unit(
                key=unique,
                name=shown,
                role=COLLECTION,
                code="\n".join(lines),
                line=self.source.line(nodes[0]),
                uses=(),
                same=lambda: selects,
            )
        )

    def defined_types(self) -> frozenset[str]:
        """The names of the types the file defines (`type T struct{...}`;
        not an alias, `type T = U`, whose methods are `U`'s)."""
        found: set[str] = set()
        for node in self.source.root.children:
            if node.type == "type_declaration":
                for spec in named(node):
                    if spec.type == "type_spec":
                        found.update(self.names(spec))
        return frozenset(found)

    def declaration(self, node: Node) -> None:
        kind = node.type
        if node.is_error or node.is_missing or (node.has_error and kind not in _REPAIRABLE):
            refuse(self.source, node)  # a repair between declarations, in an import or a type
        if node.has_error and kind in ("var_declaration", "const_declaration"):
            specs = self.specs(node, "var_spec_list", "var_spec")
            specs += [c for c in named(node) if c.type == "const_spec"]
            names = tuple(n for spec in specs for n in self.names(spec))
            label = ", ".join(names)
            self.add(node, f"{kind.split('_')[0]} {label}", label, COLLECTION, names)
            self.directives_inside(node)
            return
        if kind == "comment":
            text = self.text(node)
            if DIRECTIVE.match(text):
                word = _first_word(text)
                self.add(node, f"directive {word}", word, COLLECTION)
            return
        if not node.is_named:
            return
        if kind == "package_clause":
            self.add(node, "package", "package", SUPPORT)
        elif kind == "function_declaration":
            self.function(node)
        elif kind == "method_declaration":
            self.method(node)
        elif kind == "import_declaration":
            for spec in self.specs(node, "import_spec_list", "import_spec"):
                self.import_(spec)
        elif kind == "var_declaration":
            for spec in self.specs(node, "var_spec_list", "var_spec"):
                names = self.names(spec)
                label = ", ".join(names)
                value = spec.child_by_field_name("value")
                role = COLLECTION if self.runs(value) else SUPPORT
                local = role == COLLECTION and self.computes(value, set())
                self.add(spec, f"var {label}", label, role, names, local=local)
        elif kind == "const_declaration":
            self.const(node)
        elif kind == "type_declaration":
            for spec in named(node):
                if spec.type in ("type_spec", "type_alias"):
                    names = self.names(spec)
                    self.add(spec, f"type {', '.join(names)}", ", ".join(names), SUPPORT, names)
        elif kind != "empty_statement":  # the grammar allows statements at the top level
            raise Unparsable(f"a {kind} at line {self.source.line(node)} is not a Go declaration")
        if kind in GROUPS:
            self.directives_inside(node)

    def directives_inside(self, node: Node) -> None:
        """Directive comments inside a grouped declaration (`//go:embed` before a spec)."""
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type == "comment":
                self.declaration(current)
            stack.extend(reversed(current.children))

    def specs(self, node: Node, group: str, spec: str) -> list[Node]:
        found: list[Node] = []
        for child in named(node):
            if child.type == group:
                found += [c for c in named(child) if c.type == spec]
            elif child.type == spec:
                found.append(child)
        return found

    def names(self, spec: Node) -> tuple[str, ...]:
        return tuple(self.text(n) for n in spec.children_by_field_name("name"))

    def function(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        if name in ("TestMain", "init"):
            role = COLLECTION
        elif is_test_name(name):
            role = COLLECTION if self.writes.shares(node) else CASE
        else:
            role = SUPPORT
        binds = (name,) if name not in ("init", "_") else ()
        local = role == COLLECTION and name not in ("TestMain", "init")
        local = local and self.writes.kept_to(node, self.file_vars)
        self.add(
            node,
            f"func {name}",
            name,
            role,
            binds,
            local=local,
            test=role != SUPPORT and name not in ("TestMain", "init"),
        )

    def method(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        receiver = node.child_by_field_name("receiver")
        owner = self.receiver_type(receiver) if receiver is not None else ""
        label = f"{owner}.{name}"
        if name in SUITE_HOOKS and owner in self.types:
            # a hook of a suite the file defines runs around that suite's
            # tests alone: a member of its type, drift when the type is at
            # base (`compare`), welcome on a new one unless it stores outside
            role = COLLECTION if self.writes.shares(node) else SUPPORT
            self.add(node, f"method {label}", label, role, (owner,), f"type {owner}")
            return
        if name in SUITE_HOOKS:
            role = COLLECTION
        elif name.startswith("Test"):  # testify and gocheck run a suite's Test* methods
            role = COLLECTION if self.writes.shares(node) else CASE
        else:
            role = SUPPORT
        test = name.startswith("Test") and name not in SUITE_HOOKS
        self.add(node, f"method {label}", label, role, (owner,) if owner else (), test=test)

    def receiver_type(self, receiver: Node) -> str:
        """`T` for a receiver `(t *T)`, `(T)`, `(v V[K])`."""
        params = [p for p in named(receiver) if p.type == "parameter_declaration"]
        if not params:
            return ""
        current = params[0].child_by_field_name("type")
        while current is not None:
            if current.type == "type_identifier":
                return self.text(current)
            if current.type in ("pointer_type", "parenthesized_type"):
                inner = named(current)
                current = inner[0] if inner else None
            elif current.type == "generic_type":
                current = current.child_by_field_name("type")
            else:
                return self.text(current)
        return ""

    def imports(self) -> dict[str, str]:
        """Each package name the file's imports bind -> its import path."""
        out = {}
        for node in self.source.root.children:
            if node.type == "import_declaration":
                for spec in self.specs(node, "import_spec_list", "import_spec"):
                    bound, path = self.binding(spec)
                    out[bound] = path
        return out

    def binding(self, spec: Node) -> tuple[str, str]:
        """(the name an import spec binds, its path): the alias as written
        (`_`, `.` included) or the path's package name."""
        path_node = spec.child_by_field_name("path")
        path = self.text(path_node)[1:-1] if path_node is not None else ""
        alias = spec.child_by_field_name("name")
        return (self.text(alias) if alias is not None else package_name(path)), path

    def import_(self, spec: Node) -> None:
        bound, path = self.binding(spec)
        alias = spec.child_by_field_name("name")
        if alias is not None and alias.type == "blank_identifier":
            # `embed` has no init: a blank import of it only allows `//go:embed`
            self.add(spec, f'import _ "{path}"', path, SUPPORT if path == "embed" else COLLECTION)
            return
        self.add(spec, f'import "{path}"', path, SUPPORT, (bound,))

    def const(self, node: Node) -> None:
        specs = [c for c in named(node) if c.type == "const_spec"]
        if len(specs) > 1:
            positional = any(
                spec.child_by_field_name("value") is None or has_kind(spec, "iota")
                for spec in specs
            )
            if positional:  # a value taken from the spec's place: the group is one unit
                names = tuple(n for spec in specs for n in self.names(spec))
                label = ", ".join(names)
                self.add(node, f"const {label}", label, SUPPORT, names)
                return
        for spec in specs:
            names = self.names(spec)
            label = ", ".join(names)
            self.add(spec, f"const {label}", label, SUPPORT, names)

    def runs(self, value: Node | None) -> bool:
        """Whether a var initializer calls or receives (outside a function
        literal, whose body runs only when called).  A conversion runs no
        code (`[]byte("x")`, `T(3)` or `(*T)(nil)` for a type `T` the file
        defines: `var _ I = (*T)(nil)`), nor do `make` and `new` given a
        type; what they are given is judged in turn."""
        if value is None:
            return False
        stack = [value]
        while stack:
            current = stack.pop()
            if current.type in FUNCTION_LITERALS:
                continue
            if current.type == "call_expression" and not self.converts(current):
                return True
            if current.type == "type_conversion_expression" and not self.is_type(
                current.child_by_field_name("type")
            ):
                return True  # `List[int](x)` may call a generic function
            if current.type == "unary_expression":
                operator = current.child_by_field_name("operator")
                if operator is not None and self.text(operator) == "<-":
                    return True
            stack.extend(current.named_children)
        return False

    def computes(self, node: Node | None, seen: set[str]) -> bool:
        """Whether `node` (a var's initializer, a helper's body) only
        computes a value: each call in it (outside a function literal) a
        conversion, a pure built-in, a pure function of the standard
        library, a method of a local of `function`'s own, or a function of
        the file that only computes in turn (`seen`: those being read);
        no receive, no `go`."""
        if node is None:
            return True
        function = node if node.type == "function_declaration" else None
        scan = self.writes.scan(function) if function is not None else None
        stack = [node]
        while stack:
            current = stack.pop()
            stack.extend(current.named_children)
            if current.type == "go_statement":
                return False
            if current.type == "unary_expression" and self.text(current)[:2] == "<-":
                return False
            if current.type == "type_conversion_expression" and not self.is_type(
                current.child_by_field_name("type")
            ):
                return False
            if current.type in FUNCTION_LITERALS and function is None:
                stack = [c for c in stack if not _inside(c, current)]
            if current.type != "call_expression" or self.converts(current):
                continue
            callee = current.child_by_field_name("function")
            if not self.pure_callee(callee, scan, seen):
                return False
        return True

    def pure_callee(self, callee: Node | None, scan: Scan | None, seen: set[str]) -> bool:
        """A callee `computes` accepts."""
        if callee is None:
            return False
        text = self.text(callee)
        if callee.type == "identifier":
            local = scan is not None and scan.own(text, callee.start_byte)
            if text in _PURE_BUILTINS and not local:
                return True
            found = self.writes.functions().get(text, [])
            if local or len(found) != 1 or text in self.writes.helpers():
                return False
            if text in seen:
                return True
            seen.add(text)
            return self.computes(found[0], seen)
        if callee.type != "selector_expression":
            return False
        operand = callee.child_by_field_name("operand")
        field = callee.child_by_field_name("field")
        if operand is None or field is None or operand.type != "identifier":
            return False
        name = self.text(operand)
        if scan is not None and scan.own(name, operand.start_byte):
            return True  # a method of the helper's own local (`b.WriteString`)
        allowed = PURE.get(self.bound.get(name, ""), frozenset())
        return name in self.bound and (allowed is None or self.text(field) in allowed)

    def converts(self, call: Node) -> bool:
        """Whether a call expression is a conversion, or `make` or `new`
        given a type: no code of the program runs."""
        callee = call.child_by_field_name("function")
        while callee is not None and callee.type in _WRAPPERS:
            if callee.type == "unary_expression" and self.text(callee)[:1] != "*":
                return False
            inner = named(callee)
            callee = inner[0] if len(inner) == 1 else None
        if callee is None:
            return False
        if self.is_type(callee):
            return True
        if callee.type != "identifier" or self.text(callee) not in ("make", "new"):
            return False
        arguments = call.child_by_field_name("arguments")
        first = named(arguments)[:1] if arguments is not None else []
        return bool(first) and self.is_type(first[0])

    def is_type(self, node: Node | None) -> bool:
        """A node that can only be a type: a composite type, or a name of a
        type the file defines (generic or not)."""
        if node is not None and node.type == "generic_type":
            node = node.child_by_field_name("type")
        if node is None:
            return False
        if node.type in _TYPES:
            return True
        return node.type in ("identifier", "type_identifier") and self.text(node) in self.types


def _inside(node: Node, outer: Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


def package_name(path: str) -> str:
    """The name an import of `path` binds, by Go's convention: the last
    element, less a `.vN` or a whole `vN` element and a `go-` prefix."""
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and _VERSION.fullmatch(parts[-1]):
        parts.pop()
    last = parts[-1] if parts else path
    last = re.sub(r"\.v[0-9]+$", "", last)
    last = last.removeprefix("go-")
    return last.replace("-", "_").replace(".", "_")


def _read(text: str, suffix: str) -> tuple[Unit, ...]:
    """`units`, as the engine calls every language (one grammar: `suffix` unused)."""
    return units(text)


# What the engine reads Go test files with (`gate.drift.language.GO`).
READER = Reader(units=_read, reaches=reaches, apart=apart, pair=pair)
