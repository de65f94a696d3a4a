"""A Go test function's code as tokens (`Unit.same`, `Unit.tokens`), and
which pieces of it a head version may insert as new cases (`Cases`).

**Tokens** are the function's syntax tree, each node's kind and each
leaf's text, without comments, layout, a `;` that ends a statement or a
trailing comma: a changed comment or a `gofmt` run changes no test.  A
directive comment (`//go:...`, `//line ...`) stays a token, and so does
the last comment group of an `Example` function's body (`output_group`),
which `go test` checks the example's output against when it begins with
`Output:`; the example's other comments are comments.  `interface{}` is the token `any`, its
predeclared alias (Go 1.18), where the file declares no `any` of its own
(`gate.drift.go.spelled.predeclared_any`; a type `any` another file of the package declares is
not seen).

**Inert spans** (`Tokens.inert`): a blank `_`, with its comma, on the
left side of an `=` or `:=` (`x, err :=` -> `x, _, err :=`, a result the
called function gained, discarded), unless its right side is a type
assertion (`v, _ := x.(T)` no longer panics where `v := x.(T)` did).
A head version that only inserts such blanks checks what the base did;
a name replaced by `_`, a `_` moved, or a `_` beside any other change
is a change.

**New cases** a test may gain without changing what it checked before
(`gate.drift.grown`), each a complete piece of the head's tree:

* an element of a composite literal that the test ranges over in the
  same function (`tests := []struct{...}{...}` or a map, then `for _, tc
  := range tests`; or `range []T{...}` itself), where the table's name
  is read nowhere else in the function (no `tests[0]`, `tests[:1]`, no
  second loop) and the loop's body cannot end the other rows' run or
  carry anything from one row to the next: no `return`, `break` or
  `goto`, no `Skip` call outside a closure, no store to, or `&` of, a
  name declared outside the body;
* a statement `t.Run("name", func(t *testing.T) {...})`;
* an assertion statement: a call of testify's `assert.*` or
  `require.*`, or of `t.Error`, `t.Errorf`, `t.Fatal`, `t.Fatalf`,
  `t.Fail`, `t.FailNow`, `t.Log`, `t.Logf`; or an `if` without
  initializer or `else` whose body holds only such calls.  The calls in
  its arguments and condition (outside a closure) may only be `len`,
  `cap`, a conversion, or a function of `strings`, `bytes` (`Equal`,
  `Contains`, `HasPrefix`, `HasSuffix`), `errors.Is`, `fmt.Sprint*`,
  `reflect.DeepEqual`, `unicode/utf8`.

* statements appended after the last statement of the function's body,
  at its own top level, which neither run on after the test, jump, skip,
  exit nor call `Parallel`, where the statements before them register
  nothing that runs after the body (`gate.drift.go.appended`): these may
  store into the function's variables, since no base statement runs
  after them.

And any of the pieces above but the appended statements only when it
touches nothing the rest of the function reads: inside it, a name
declared in the function outside the piece is never stored to, has no
`&` taken, has no method called on it (the test's `t` only its reporting
methods and `Run`: not `Skip`, `Parallel`, `Setenv`, `Cleanup`) and is
handed to no call but an assertion's; it calls no setter of process-wide
state (`os.Setenv`, ...: `gate.drift.go.writes.SETTERS`); a table's row may call a method of
such a name or hand it to a call where the base version of the function
calls that callee too (`Tokens.needs`: the helper the existing rows are
built by, `mockResponse(t, 200, body)`, `srv.Client()`). Anything else
inserted (`t.Skip()`, `t.Parallel()`, a `return`, an `if ... { return
}`, a declaration, a changed mock) changes the test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.drift import Tokens
from gate.drift._treesitter import ParsedText, descendants, named
from gate.drift.go.appended import appended, body_statements
from gate.drift.go.spelled import is_field, is_statement
from gate.drift.go.writes import SETTERS

if TYPE_CHECKING:
    from tree_sitter import Node

    from gate.drift.go.scan import Scan
    from gate.drift.go.writes import Writes

TESTIFY = frozenset(
    {
        "github.com/stretchr/testify/assert",
        "github.com/stretchr/testify/require",
    }
)
# Methods of *testing.T (B, F, TB) that only report or start a subtest.
REPORTING = frozenset(
    {"Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow", "Log", "Logf", "Helper", "Name"}
)
TESTING = frozenset({"*testing.T", "*testing.B", "*testing.F", "testing.TB"})
# Functions an inserted assertion may call in its arguments: they compute a value only.
PURE: dict[str, frozenset[str] | None] = {
    "strings": None,
    "unicode/utf8": None,
    "bytes": frozenset({"Equal", "Contains", "HasPrefix", "HasSuffix"}),
    "errors": frozenset({"Is"}),
    "fmt": frozenset({"Sprint", "Sprintf", "Sprintln"}),
    "reflect": frozenset({"DeepEqual"}),
}
PURE_BUILTINS = frozenset({"len", "cap"})
# Types a call may convert to (`string(b)`, `int64(n)`).
BASIC = frozenset(
    {
        "string",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "byte",
        "rune",
        "bool",
    }
)
# Where a `;` only ends a statement, as a line break does.
_ENDS = frozenset({"statement_list", "block", "source_file"})
_CLOSERS = frozenset({"}", ")", "]"})
_OPEN, _CLOSE, _EXACT = "\x01", "\x02", "\x03"
_FUNCTIONS = frozenset({"function_declaration", "method_declaration"})
_ROOTS = frozenset(
    {"selector_expression", "index_expression", "slice_expression", "parenthesized_expression"}
)
# Statements whose left side may gain a blank `_` (`Tokens.inert`).
_ASSIGNS = frozenset({"assignment_statement", "short_var_declaration"})


def _blank(node: Node, source: ParsedText) -> bool:
    """Whether a leaf is a `_` on the left side of an `=` or `:=` whose
    right side is no type assertion."""
    side = node.parent
    holder = side.parent if side is not None else None
    if node.type != "identifier" or side is None or holder is None or source.text(node) != "_":
        return False
    if side.type != "expression_list" or holder.type not in _ASSIGNS:
        return False
    operator = holder.child_by_field_name("operator")
    if not is_field(holder, "left", side) or (operator is not None and operator.type != "="):
        return False
    right = holder.child_by_field_name("right")
    values = named(right) if right is not None else []
    while len(values) == 1 and values[0].type == "parenthesized_expression":
        values = named(values[0])
    # `v, _ := x.(T)` no longer panics where `v := x.(T)` did
    return not (len(values) == 1 and values[0].type == "type_assertion_expression")


def _kept(node: Node, keep: frozenset[int], source: ParsedText) -> bool:
    """Whether `node` is a token: anything but a comment, a directive
    comment, and a comment of `keep` (start offsets: an `Example`'s
    output group, `output_group`)."""
    if node.type != "comment":
        return True
    if node.start_byte in keep:
        return True
    text = source.text(node)
    return text.startswith(("//go:", "//line ", "/*line "))


def _trailing_comma(node: Node, keep: frozenset[int], source: ParsedText) -> bool:
    """A `,` right before a closing bracket (comments aside): gofmt's choice."""
    after = node.next_sibling
    while after is not None and not _kept(after, keep, source):
        after = after.next_sibling
    return after is not None and after.type in _CLOSERS


def output_group(function: Node, source: ParsedText) -> frozenset[int]:
    """The start offsets of the comments of `function`'s body that `go
    test` may read as an `Example`'s expected output: the body's last
    comment group (go/doc's rule: the last group of comments, with no
    empty line and no other token between them, anywhere in the body,
    is the output when it begins with `Output:` or `Unordered output:`;
    a comment after code on its line is a group with the comments of
    that line alone, as Go's parser groups them).  Empty when no comment
    of that group says `output:` (in any letter case): the example then
    checks no output, whatever its comments say.  Otherwise the whole
    group is kept, whatever else it says: a group that becomes the last,
    or stops being it, changes what the example checks."""
    body = function.child_by_field_name("body")
    if body is None:
        return frozenset()
    comments = sorted(
        (n for n in descendants(body) if n.type == "comment"), key=lambda n: n.start_byte
    )
    group: list[Node] = []
    for comment in reversed(comments):
        if group:
            between = source.span(comment.end_byte, group[-1].start_byte)
            if between.strip() or between.count("\n") > 1:
                break
            # a comment after code on its line groups with that line's comments alone
            if "\n" in between and _after_code(comment, source):
                break
        group.append(comment)
    # a last group that cannot be an output leaves the example unchecked,
    # as no group does (go/doc: `(?i)^\s*(unordered )?output:`, looser here)
    if not any("output:" in source.text(c).lower() for c in group):
        return frozenset()
    return frozenset(c.start_byte for c in group)


def _after_code(comment: Node, source: ParsedText) -> bool:
    """Whether a token stands before `comment` on its line."""
    line_start = source.data.rfind(b"\n", 0, comment.start_byte) + 1
    return bool(source.data[line_start : comment.start_byte].strip())


class Cases:
    """The tokens of one Go function and the spans of them a head version
    may insert as new cases (see the module's docstring)."""

    def __init__(
        self,
        source: ParsedText,
        node: Node,
        writes: Writes | None,
        imports: dict[str, str],
        alias_any: bool = False,
    ) -> None:
        """`node`: a unit's node; `writes`: the file's, which scans it
        when it is a function (only a function's pieces are looked for);
        `alias_any`: `any` is the predeclared alias (`predeclared_any`),
        so `interface{}` is one token with it."""
        self.source = source
        self.alias_any = alias_any
        self._made: Tokens | None = None
        self.function = node
        self._writes = writes
        self.imports = imports
        name = node.child_by_field_name("name") if node.type in _FUNCTIONS else None
        self.example = name is not None and source.text(name).startswith("Example")
        self.keep = output_group(node, source) if self.example else frozenset()
        self._testing: frozenset[str] | None = None
        self._needs: dict[tuple[int, int, str], frozenset[str] | None] = {}

    @property
    def scan(self) -> Scan:
        assert self._writes is not None  # only asked while looking for a function's pieces
        return self._writes.scan(self.function)

    @property
    def testing(self) -> frozenset[str]:
        if self._testing is None:
            self._testing = self._testing_names()
        return self._testing

    def same(self) -> str:
        """`Unit.same`: the tokens, joined."""
        return "\n".join(self.tokens(spans=False).tokens)

    def text(self, node: Node) -> str:
        return self.source.text(node)

    # -- tokens ----------------------------------------------------------

    def tokens(self, spans: bool = True) -> Tokens:
        """`Unit.tokens` (`spans`: with the insertable pieces), made once."""
        if not spans:
            return self._tokens(False)
        if self._made is None:
            self._made = self._tokens(True)
        return self._made

    def _tokens(self, spans: bool) -> Tokens:
        repaired = self.function.has_error  # no new case is looked for in it
        found = self.candidates() if spans and self._writes is not None and not repaired else []
        marks = {(n.start_byte, n.end_byte, n.type): n for n in found}
        # the body's top-level statements, from each of which on a head may append
        tops: dict[tuple[int, int, str], int] = {}
        starts = range(0)
        if spans and self._writes is not None and not repaired and not self.example:
            statements = body_statements(self.function)
            starts = appended(statements, self.source, self.imports)
            tops = {(n.start_byte, n.end_byte, n.type): i for i, n in enumerate(statements)}
        edges: dict[int, tuple[int, int]] = {}  # statement index -> its tokens' range
        out: list[str] = []
        places: list[tuple[int, int, frozenset[str] | tuple[str, ...]]] = []
        blanks: list[int] = []
        stack: list[tuple[Node, bool]] = [(self.function, False)]
        opened: dict[tuple[int, int, str], int] = {}
        while stack:
            node, closing = stack.pop()
            key = (node.start_byte, node.end_byte, node.type)
            if closing:
                out.append(_CLOSE)
                if key in marks:
                    places.append((opened[key], len(out), self._needs.get(key) or ()))
                if key in tops:
                    edges[tops[key]] = (opened[key], len(out))
                continue
            if not _kept(node, self.keep, self.source):
                continue
            if repaired and (node.has_error or node.is_missing) and is_statement(node):
                out.append(_EXACT + self.text(node))  # a statement the grammar repairs
                continue
            if self.alias_any and node.type == "interface_type" and not named(node):
                out.append("any")  # `interface{}`, spelled as its predeclared alias
                continue
            if node.child_count == 0:
                text = self.text(node)
                parent = node.parent
                if node.type == ";" and parent is not None and parent.type in _ENDS:
                    continue
                if node.type == "," and _trailing_comma(node, self.keep, self.source):
                    continue
                if node.type == "comment":
                    text = text.rstrip()
                if key in marks:
                    places.append((len(out), len(out) + 1, self._needs.get(key) or ()))
                if key in tops:
                    edges[tops[key]] = (len(out), len(out) + 1)
                if text == "_" and _blank(node, self.source):
                    blanks.append(len(out))
                out.append(text)
                continue
            opened[key] = len(out)
            out.append(_OPEN + node.type)
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node.children))
        pieces: set[tuple[int, int]] = set()
        needs: dict[tuple[int, int], tuple[str, ...]] = {}
        for start, end, need in places:
            variants = [(start, end)]
            if end < len(out) and out[end] == ",":
                variants.append((start, end + 1))
            if start > 0 and out[start - 1] == ",":
                variants.append((start - 1, end))
            pieces.update(variants)
            if need:
                needs.update((v, tuple(sorted(need))) for v in variants)
        if starts and len(edges) == len(tops):
            pieces.update((edges[k][0], edges[len(tops) - 1][1]) for k in starts)
        inert: set[tuple[int, int]] = set()
        for at in blanks:  # a `_` with the comma before or after it
            if out[at - 1] == ",":
                inert.add((at - 1, at + 1))
            if at + 1 < len(out) and out[at + 1] == ",":
                inert.add((at, at + 2))
        return Tokens(
            tuple(out),
            tuple(sorted(pieces)),
            inert=tuple(sorted(inert)),
            needs=tuple(sorted(needs.items())),
            calls=self.called() if spans else frozenset(),
        )

    # -- which pieces are new cases ---------------------------------------

    def candidates(self) -> list[Node]:
        found: list[Node] = []
        stack = [self.function]
        while stack:
            node = stack.pop()
            if node.type == "range_clause":
                found += self.rows(node)
            elif node.type == "statement_list":
                found += [s for s in named(node) if self.new_case(s) and self.untouched(s)]
            stack.extend(node.named_children)
        return found

    def rows(self, clause: Node) -> list[Node]:
        """The elements of the table a `range` clause iterates, when rows may be inserted."""
        right = clause.child_by_field_name("right")
        loop = clause.parent
        body = loop.child_by_field_name("body") if loop is not None else None
        if right is None or loop is None or body is None or not self.separate(loop, body):
            return []
        table = right if right.type == "composite_literal" else None
        if right.type == "identifier":
            table = self.table(self.text(right), right)
        value = table.child_by_field_name("body") if table is not None else None
        if value is None:
            return []
        return [
            e
            for e in named(value)
            if e.type in ("literal_element", "keyed_element") and self._row_needs(e) is not None
        ]

    def _row_needs(self, row: Node) -> frozenset[str] | None:
        """`needs` of a row, kept for the span it makes."""
        key = (row.start_byte, row.end_byte, row.type)
        if key not in self._needs:
            self._needs[key] = self.needs(row)
        return self._needs[key]

    def table(self, name: str, use: Node) -> Node | None:
        """The composite literal the function's one `name := T{...}` binds,
        when `name` is read only by the `range` at `use`."""
        found = None
        for node in self._all(self.function):
            if node.type == "identifier" and self.text(node) == name and node != use:
                holder = node.parent
                if holder is not None and holder.type == "expression_list":
                    holder = holder.parent
                if holder is None or holder.type not in ("short_var_declaration", "var_spec"):
                    return None
                if found is not None or holder.parent is None:
                    return None
                names, values = self._sides(holder)
                if len(names) != 1 or len(values) != 1 or values[0].type != "composite_literal":
                    return None
                found = values[0]
        return found

    def _sides(self, declaration: Node) -> tuple[list[Node], list[Node]]:
        left = declaration.child_by_field_name("left")
        names = named(left) if left is not None else declaration.children_by_field_name("name")
        value = declaration.child_by_field_name("right") or declaration.child_by_field_name("value")
        return names, named(value) if value is not None else []

    def separate(self, loop: Node, body: Node) -> bool:
        """Whether a loop body runs each row apart: it cannot stop the
        loop or skip the test, nor store into what the next row reads
        (the loop's own variables are each row's)."""
        for node in self._all(body, closures=False):
            if node.type in ("return_statement", "break_statement", "goto_statement"):
                return False
            if node.type == "call_expression" and self._method(node).startswith("Skip"):
                return False
        return all(not self._outside(target, at, loop) for target, at in self._stores(body))

    def new_case(self, statement: Node) -> bool:
        """A subtest or an assertion statement (the module's docstring)."""
        if statement.type == "if_statement":
            if any(
                statement.child_by_field_name(f) is not None for f in ("initializer", "alternative")
            ):
                return False
            condition = statement.child_by_field_name("condition")
            block = statement.child_by_field_name("consequence")
            inner = [s for s in named(block) if s.type == "statement_list"] if block else []
            statements = [s for group in inner for s in named(group) if s.type != "comment"]
            return (
                condition is not None
                and self.pure(condition)
                and bool(statements)
                and all(self.assertion(s) for s in statements)
            )
        return self.assertion(statement) or self.subtest(statement)

    def _call(self, statement: Node) -> Node | None:
        if statement.type != "expression_statement" or not named(statement):
            return None
        call = named(statement)[0]
        return call if call.type == "call_expression" else None

    def subtest(self, statement: Node) -> bool:
        call = self._call(statement)
        if call is None or self._method(call) != "Run" or not self._on_testing(call):
            return False
        arguments = call.child_by_field_name("arguments")
        values = named(arguments) if arguments is not None else []
        return len(values) == 2 and values[1].type == "func_literal"

    def assertion(self, statement: Node) -> bool:
        call = self._call(statement)
        if call is None:
            return False
        callee = call.child_by_field_name("function")
        if not (
            self._testify(callee) or (self._method(call) in REPORTING and self._on_testing(call))
        ):
            return False
        arguments = call.child_by_field_name("arguments")
        return arguments is None or self.pure(arguments)

    def pure(self, node: Node) -> bool:
        """Whether every call in `node`, outside closures, only computes."""
        for inner in self._all(node, closures=False):
            if inner.type == "call_expression" and inner != node:
                callee = inner.child_by_field_name("function")
                if not (self._computes(callee) or self._testify(callee)):
                    return False
        return True

    def _computes(self, callee: Node | None) -> bool:
        """A callee that only computes a value from its arguments (`PURE`)."""
        if callee is None:
            return False
        text = self.text(callee)
        if text in PURE_BUILTINS or text in BASIC:
            return not self.scan.own(text, callee.start_byte)
        package, _, name = text.partition(".")
        path = self.imports.get(package)
        allowed = PURE.get(path or "", frozenset())
        if path is None or "." in name or self.scan.own(package, callee.start_byte):
            return False
        return allowed is None or name in allowed

    def untouched(self, piece: Node) -> bool:
        """Whether `piece` leaves what the rest of the function reads as it was."""
        return self.needs(piece) == frozenset()

    def needs(self, piece: Node) -> frozenset[str] | None:
        """What `piece` needs of the base version to leave what the rest of
        the function reads as it was: None when it cannot (a store into, or
        `&` of, a name declared outside it; a setter of process-wide
        state), else the callees it calls on, or hands, such a name, which
        leave it as it was only where the base version of the function
        calls them too (a table's rows built by the helper the existing
        rows call: `mockResponse(t, ...)`; `rows`, `gate.drift.grown`)."""
        for target, at in self._stores(piece):
            if self._outside(target, at, piece, include_package=True):
                return None
        needed: set[str] = set()
        for node in self._all(piece):
            if node.type != "call_expression":
                continue
            callee = node.child_by_field_name("function")
            if callee is None:
                continue
            if callee.type == "selector_expression":
                operand = callee.child_by_field_name("operand")
                package = self.text(operand) if operand is not None else ""
                if self.imports.get(package) in SETTERS and self._method(node) in SETTERS.get(
                    self.imports.get(package, ""), frozenset()
                ):
                    return None
                root = self._root(operand)
                if root is not None and self._outside(root, root.start_byte, piece, True):
                    name = self.text(root)
                    if not (name in self.testing and self._method(node) in REPORTING | {"Run"}):
                        needed.add(_callee_text(self.text(callee)))
            if (
                self._testify(callee)
                or self._computes(callee)
                or (self._method(node) in REPORTING and self._on_testing(node))
            ):
                continue
            arguments = node.child_by_field_name("arguments")
            for value in named(arguments) if arguments is not None else []:
                root = self._root(value)
                if root is not None and self._outside(root, root.start_byte, piece, False):
                    needed.add(_callee_text(self.text(callee)))
        return frozenset(needed)

    def called(self) -> frozenset[str]:
        """The callees the function calls, spelled as `needs` spells them."""
        return frozenset(
            _callee_text(self.text(c))
            for node in self._all(self.function)
            if node.type == "call_expression" and (c := node.child_by_field_name("function"))
        )

    # -- helpers ----------------------------------------------------------

    def _testing_names(self) -> frozenset[str]:
        """The names of the function's (and its literals') *testing.T-like parameters."""
        out: set[str] = set()
        for node in self._all(self.function):
            if node.type == "parameter_declaration":
                kind = node.child_by_field_name("type")
                if kind is not None and "".join(self.text(kind).split()) in TESTING:
                    out.update(self.text(n) for n in node.children_by_field_name("name"))
        return frozenset(out)

    def _testify(self, callee: Node | None) -> bool:
        if callee is None or callee.type != "selector_expression":
            return False
        operand = callee.child_by_field_name("operand")
        if operand is None or operand.type != "identifier":
            return False
        name = self.text(operand)
        return self.imports.get(name) in TESTIFY and not self.scan.own(name, operand.start_byte)

    def _method(self, call: Node) -> str:
        callee = call.child_by_field_name("function")
        if callee is None or callee.type != "selector_expression":
            return ""
        field = callee.child_by_field_name("field")
        return self.text(field) if field is not None else ""

    def _on_testing(self, call: Node) -> bool:
        callee = call.child_by_field_name("function")
        operand = callee.child_by_field_name("operand") if callee is not None else None
        return (
            operand is not None
            and operand.type == "identifier"
            and self.text(operand) in self.testing
            and self.scan.declaring(self.text(operand), operand.start_byte) is None
        )

    def _root(self, node: Node | None) -> Node | None:
        """The identifier an expression reads through (`x.f[i]`, `*x`), or None."""
        current = node
        while current is not None:
            if current.type == "identifier":
                return current
            if current.type in _ROOTS:
                inner = current.child_by_field_name("operand") or (
                    named(current)[0] if named(current) else None
                )
                current = inner
            elif current.type == "unary_expression":
                current = current.child_by_field_name("operand")
            else:
                return None
        return None

    def _stores(self, piece: Node) -> list[tuple[Node, int]]:
        """The roots of what `piece` stores into or takes the address of."""
        out = []
        for node in self._all(piece):
            targets: list[Node] = []
            if node.type in ("assignment_statement",):
                left = node.child_by_field_name("left")
                targets = named(left) if left is not None else []
            elif node.type in ("inc_statement", "dec_statement"):
                targets = named(node)
            elif node.type in ("range_clause", "receive_statement"):
                left = node.child_by_field_name("left")
                if left is not None and not any(c.type == ":=" for c in node.children):
                    targets = named(left)
            elif node.type == "unary_expression":
                operator = node.child_by_field_name("operator")
                operand = node.child_by_field_name("operand")
                if operator is not None and operator.type == "&" and operand is not None:
                    targets = [operand]
            for target in targets:
                root = self._root(target)
                if (
                    root is None
                    and target is not None
                    and target.type
                    not in (
                        "composite_literal",
                        "func_literal",
                    )
                ):
                    out.append((target, target.start_byte))  # through a call's result
                elif root is not None:
                    out.append((root, root.start_byte))
        return out

    def _outside(self, node: Node, at: int, piece: Node, include_package: bool = True) -> bool:
        """Whether the name `node` is declared outside `piece`: in the
        function before it, or (`include_package`) at package level; a
        store through a call's result counts as outside."""
        if node.type != "identifier":
            return True
        name = self.text(node)
        if name == "_":
            return False
        seen = self.scan.visible(name, at)
        if seen is None:
            return include_package and name not in self.imports
        return not (piece.start_byte <= seen[0] < piece.end_byte)

    def _all(self, node: Node, closures: bool = True) -> list[Node]:
        out = []
        stack = [node]
        while stack:
            current = stack.pop()
            out.append(current)
            if not closures and current.type == "func_literal" and current != node:
                continue
            stack.extend(current.named_children)
        return out


def _callee_text(text: str) -> str:
    """A callee as `needs` compares it: without layout."""
    return "".join(text.split())
