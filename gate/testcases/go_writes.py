"""Whether a Go test changes what the package's other tests see when it runs
(`Writes.shares`), as Python's `shares_state` and JS's `Writes.shares` ask
of a test body.

`go test` runs a package's top-level tests one after another in one
process, in source order, files by name, so a new test that stores into a
package-level variable or an imported package changes what the tests after
it read: `timeout = 0` in a new `TestA` before an existing test turns it
green.  A test shares state when its body (its closures, subtests and
deferred calls included) assigns, however spelled (`=`, `+=`, `++`, a
`range` or a `select` case with `=`), a name it does not declare, or
stores through one (`cfg.Limit = 0`, `table[k] = v`, `*p = 3`, `pkg.X =
1`), hands one's address to a call (`json.Unmarshal(b, &cfg)`,
`atomic.AddInt32(&hits, 1)`), or hands one to `delete`, `clear` or `copy`;
a store through what a call returned (`config().Limit = 0`) counts, as in
JS.  It also shares when it calls one of the standard library's
setters of process-wide state (`os.Setenv`, `os.Unsetenv`, `os.Clearenv`,
`os.Chdir` and syscall's, `flag.Set`, `log.SetOutput`, `log.SetFlags`,
`log.SetPrefix`, `slog.SetDefault`, `rand.Seed`, `http.Handle` and
`http.HandleFunc` on the default mux; `t.Setenv` and `t.Chdir` undo
themselves), or calls or hands on a function or method of the file that
does any of this, to any depth (`bend()`, `t.Cleanup(bend)`, `h.bend()`
matched by the method's name, `f()()` for what `f` returns).

A store the test undoes is its own: `old := timeout` before the first
store, and `timeout = old` in a `defer` or a `Cleanup` callback (or `defer
func(old int) { timeout = old }(timeout)`), with `old` never assigned
again, registered in the same function before the store or right after
it (with only plain assignments between: nothing that may return first; a
store in a closure may run after the function ended); so is `os.Setenv(K,
v)` with a registered `os.Unsetenv(K)` (the idiom assumes K was unset; a
registered `os.Setenv(K, old)` after `old := os.Getenv(K)` is no undo: an
unset K stays set, to ""), and `os.Chdir(d)` with a registered
`os.Chdir(old)` (`old, err := os.Getwd()`).  A reset to some other value (`defer func() { exit =
defaultExit }()`) is a store: the gate cannot see that it is what the
variable held.  A function literal a function returns runs when called,
not in it (`return func() { hits++ }`).

A name is the test's own where the test declares it and in the block
that holds the declaration, from it on (`:=`, `var`, `const`, a
parameter, the receiver, a `range`, `select` or type switch binding):
`x := 1` in one `if` leaves `x = 2` in another a store into the package.
Where the line is drawn, as in JS: a method call on a shared value
(`registry.Add(x)`, `suite.s.field = ...` through the receiver), a local
alias (`p := &cfg; p.Limit = 0`, `f(p)`), and `reflect` or `unsafe`
writes are not seen; a helper in another file of the
package is not read.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from gate.testcases._treesitter import ParsedText, captures, named

if TYPE_CHECKING:
    from tree_sitter import Node

# Import path -> the functions of it that set process-wide state.
SETTERS: dict[str, frozenset[str]] = {
    "os": frozenset({"Setenv", "Unsetenv", "Clearenv", "Chdir"}),
    "syscall": frozenset({"Setenv", "Unsetenv", "Clearenv", "Chdir"}),
    "flag": frozenset({"Set"}),
    "log": frozenset({"SetOutput", "SetFlags", "SetPrefix", "SetDefault"}),
    "log/slog": frozenset({"SetDefault", "SetLogLoggerLevel"}),
    "math/rand": frozenset({"Seed"}),
    "net/http": frozenset({"Handle", "HandleFunc"}),
}
FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})
# Nodes that open a scope for what is declared directly in them.
SCOPES = frozenset(
    {
        "block",
        "if_statement",
        "for_statement",
        "expression_switch_statement",
        "type_switch_statement",
        "expression_case",
        "type_case",
        "default_case",
        "communication_case",
        *FUNCTIONS,
    }
)
# The nodes a scan reads, captured as `node` in one query over the file.
SCAN = """[
(assignment_statement) (inc_statement) (dec_statement) (short_var_declaration)
(var_spec) (const_spec) (range_clause) (receive_statement) (type_switch_statement)
(call_expression) (defer_statement) (func_literal) (return_statement)
] @node"""
# The statements and clauses that may store (`_Scan._store`).
_STORES = frozenset(
    {
        "assignment_statement",
        "inc_statement",
        "dec_statement",
        "range_clause",
        "receive_statement",
        "call_expression",
    }
)
# Built-ins that store into their first argument.
_BUILTIN_STORES = frozenset({"delete", "clear", "copy"})
# The type part of a composite literal (`HandlersChain{...}`).
_TYPES = frozenset(
    {"type_identifier", "qualified_type", "slice_type", "array_type", "map_type", "generic_type"}
)
# What a store goes through to reach its root name (`x.f`, `x[k]`, `*x`).
_THROUGH = frozenset(
    {"selector_expression", "index_expression", "slice_expression", "unary_expression"}
)
# Statements that store and, without a call in them, run on to the next.
_PLAIN = frozenset(
    {"assignment_statement", "short_var_declaration", "inc_statement", "dec_statement"}
)
_WRAPPERS = frozenset({"parenthesized_expression", "type_assertion_expression"})


def _compact(text: str) -> str:
    return "".join(text.split())


class Writes:
    """The state-sharing code of one parsed Go file, its helpers found once."""

    def __init__(
        self, source: ParsedText, imports: dict[str, str], found: list[Node] | None = None
    ) -> None:
        """`found`: what `SCAN` captures in the file, if the caller's own
        query over it did (one pass over the tree for both)."""
        self.source = source
        # bound package name -> the functions of it that set process-wide state
        self.setters = {name: SETTERS[path] for name, path in imports.items() if path in SETTERS}
        self._sharing: frozenset[str] | None = None
        self._functions: dict[str, list[Node]] | None = None
        self._scans: dict[tuple[int, bool], _Scan] = {}
        self._found: tuple[list[int], list[Node]] | None = None
        if found is not None:
            nodes = sorted(found, key=_start)
            self._found = [n.start_byte for n in nodes], nodes

    def scan(self, function: Node, whole: bool = False) -> _Scan:
        """`function`'s declarations and stores, scanned once (`whole`: with
        the function literals it returns)."""
        key = (function.start_byte, whole)
        found = self._scans.get(key)
        if found is None:
            nodes, skipped = self._nodes(function, whole)
            if whole and not skipped:
                return self.scan(function)  # it returns no function literal
            found = self._scans[key] = _Scan(self.source, function, nodes)
        return found

    def _nodes(self, function: Node, whole: bool) -> tuple[list[Node], bool]:
        """The nodes inside `function` a scan reads, in order, less
        (unless `whole`) those in the function literals a `return` hands
        back (`return func() { x = 1 }`: they run when called, not here);
        and whether there are such literals."""
        if self._found is None:
            nodes = sorted(captures(self.source, SCAN).get("node", []), key=_start)
            self._found = [n.start_byte for n in nodes], nodes
        starts, found = self._found
        inside = found[
            bisect_left(starts, function.start_byte) : bisect_left(starts, function.end_byte)
        ]
        returned = [
            (c.start_byte, c.end_byte)
            for n in inside
            if n.type == "return_statement"
            for c in n.named_children
            if _returned(c)
        ]
        if not returned:
            return inside, False
        if whole:
            return inside, True
        kept = [n for n in inside if not any(a <= n.start_byte < b for a, b in returned)]
        return kept, True

    def shares(self, function: Node) -> bool:
        """Whether running `function` (a test, a suite method) stores outside it."""
        if self._stores(function):
            return True
        called = self._called(function)
        # `f` or `f()` for a function of the file: only then are helpers read
        if not {c.removesuffix("()") for c in called} & self.functions().keys():
            return False
        return bool(called & self.helpers())

    def functions(self) -> dict[str, list[Node]]:
        """The file's functions by name, and its methods by `.name` (of any
        receiver type: a call `x.m()` is matched by the method's name)."""
        if self._functions is None:
            self._functions = {}
            for node in self.source.root.children:
                label = node.child_by_field_name("name")
                if label is None:
                    continue
                if node.type == "function_declaration":
                    self._functions.setdefault(self.source.text(label), []).append(node)
                elif node.type == "method_declaration":
                    self._functions.setdefault(f".{self.source.text(label)}", []).append(node)
        return self._functions

    def helpers(self) -> frozenset[str]:
        """The names of the file's functions (and `.name` of its methods)
        that share state, to a fixpoint; `f()` for one whose returned
        function literal does (called as `f()()`)."""
        if self._sharing is None:
            sharing: set[str] = set()
            calls: dict[str, set[str]] = {}
            for called, nodes in self.functions().items():
                for whole, key in ((False, called), (True, f"{called}()")):
                    for node in nodes:
                        if self._stores(node, whole):
                            sharing.add(key)
                        calls.setdefault(key, set()).update(self._called(node, whole))
            changed = bool(sharing)
            while changed:
                grown = {n for n, called in calls.items() if n not in sharing and called & sharing}
                sharing |= grown
                changed = bool(grown)
            self._sharing = frozenset(sharing)
        return self._sharing

    def _called(self, function: Node, whole: bool = False) -> set[str]:
        """What `function` calls or hands on as a value, by name: `f` for
        `f()`, `defer f()` or `t.Cleanup(f)`; `.m` for `x.m()` or a method
        value `x.m`; `f()` and `.m()` for a call of what they return
        (`f()()`).  `whole`: in the function literals it returns too."""
        out = set()
        for node in self.scan(function, whole).nodes:
            if node.type != "call_expression":
                continue
            callee = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            for value in [callee, *(named(arguments) if arguments is not None else [])]:
                name = self._callable(value)
                if name is not None:
                    out.add(name)
            if callee is not None and callee.type == "call_expression":
                name = self._callable(callee.child_by_field_name("function"))
                if name is not None:
                    out.add(f"{name}()")
        return out

    def _callable(self, node: Node | None) -> str | None:
        """`f` for an identifier, `.m` for a selector `x.m`, else None."""
        if node is None:
            return None
        if node.type == "identifier":
            return self.source.text(node)
        if node.type == "selector_expression":
            field = node.child_by_field_name("field")
            return f".{self.source.text(field)}" if field is not None else None
        return None

    def _stores(self, function: Node, whole: bool = False) -> bool:
        scan = self.scan(function, whole)
        return scan.calls_setter(self.setters) or bool(scan.outside())


def _statement(node: Node) -> Node | None:
    """The statement of a block's statement list that holds `node`."""
    current: Node | None = node
    while current is not None and (
        current.parent is None or current.parent.type not in ("statement_list", "block")
    ):
        current = current.parent
    return current


def _function_of(node: Node) -> Node | None:
    """The function (declaration or literal) `node` is in."""
    current = node.parent
    while current is not None and current.type not in FUNCTIONS:
        current = current.parent
    return current


def _start(node: Node) -> int:
    return node.start_byte


def _calls_in(node: Node) -> bool:
    """Whether a call is inside `node`."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            return True
        stack.extend(current.named_children)
    return False


def _returned(node: Node) -> bool:
    """Whether a returned expression is a function literal, or a literal
    of them (`HandlersChain{func(c *Context) {...}}`)."""
    if node.type == "func_literal":
        return True
    if node.type == "expression_list":
        return all(_returned(c) for c in node.named_children)
    if node.type in ("composite_literal", "literal_value", "literal_element", "keyed_element"):
        values = [c for c in node.named_children if c.type not in _TYPES]
        return bool(values) and all(_returned(c) for c in values)
    return False


class _Scan:
    """One function's declarations, stores and restores."""

    def __init__(self, source: ParsedText, function: Node, nodes: list[Node]) -> None:
        self.source = source
        self.function = function
        self.nodes = nodes  # `Writes._nodes`
        # (a store's target, the value a plain `=` stores in it or None, its statement)
        self.stores: list[tuple[Node, Node | None, Node]] = []
        for node in self.nodes:
            if node.type in _STORES:
                self._store(node)
        # name -> (visible from, scope start, scope end) of each declaration
        # of it; read when a store or a call asks (`own`)
        self._declared: dict[str, list[tuple[int, int, int]]] | None = None

    def _store(self, node: Node) -> None:
        kind = node.type
        if kind in ("range_clause", "receive_statement"):
            left = node.child_by_field_name("left")
            if left is not None and not any(c.type == ":=" for c in node.children):
                for target in named(left):
                    self.stores.append((target, None, node))
        elif kind == "assignment_statement":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            values = named(right) if right is not None else []
            plain = any(c.type == "=" for c in node.children)
            targets = named(left) if left is not None else []
            for i, target in enumerate(targets):
                value = values[i] if plain and len(values) == len(targets) else None
                self.stores.append((target, value, node))
        elif kind == "call_expression":
            arguments = node.child_by_field_name("arguments")
            values = named(arguments) if arguments is not None else []
            callee = node.child_by_field_name("function")
            if callee is not None and self.source.text(callee) in _BUILTIN_STORES and values:
                self.stores.append((values[0], None, node))  # delete(m, k), clear(m), copy(s, t)
            for value in values:  # a pointer handed on: json.Unmarshal(b, &cfg), atomic.Add(&n, 1)
                if value.type != "unary_expression":
                    continue
                operator = value.child_by_field_name("operator")
                operand = value.child_by_field_name("operand")
                if operand is not None and operator is not None and operator.type == "&":
                    self.stores.append((operand, None, node))
        else:  # `++`, `--`
            for target in named(node):
                self.stores.append((target, None, node))

    # -- declarations ------------------------------------------------------

    @property
    def declared(self) -> dict[str, list[tuple[int, int, int]]]:
        if self._declared is None:
            self._declared = {}
            self._parameters(self.function)
            for node in self.nodes:
                self._declaration(node)
        return self._declared

    def _declare(self, ident: Node, start: int, scope: Node) -> None:
        if ident.type != "identifier":
            return
        name = self.source.text(ident)
        if name != "_":
            self.declared.setdefault(name, []).append((start, scope.start_byte, scope.end_byte))

    def _scope_of(self, node: Node) -> Node:
        current = node.parent
        while current is not None and current.type not in SCOPES:
            current = current.parent
        return current if current is not None else self.function

    def _parameters(self, function: Node) -> None:
        for field in ("receiver", "parameters", "result"):
            params = function.child_by_field_name(field)
            if params is None or params.type != "parameter_list":
                continue
            for param in named(params):
                for ident in param.children_by_field_name("name"):
                    self._declare(ident, function.start_byte, function)

    def _declaration(self, node: Node) -> None:
        kind = node.type
        if kind in FUNCTIONS:
            self._parameters(node)
        elif kind == "short_var_declaration":
            left = node.child_by_field_name("left")
            scope = self._scope_of(node)
            for ident in named(left) if left is not None else ():
                self._declare(ident, node.end_byte, scope)
        elif kind in ("var_spec", "const_spec"):
            scope = self._scope_of(node)
            for ident in node.children_by_field_name("name"):
                self._declare(ident, node.end_byte, scope)
        elif kind in ("range_clause", "receive_statement"):
            left = node.child_by_field_name("left")
            if left is not None and any(c.type == ":=" for c in node.children):
                scope = self._scope_of(node)
                for ident in named(left):
                    self._declare(ident, node.end_byte, scope)
        elif kind == "type_switch_statement":
            alias = node.child_by_field_name("alias")
            for ident in named(alias) if alias is not None else ():
                self._declare(ident, ident.end_byte, node)

    def own(self, name: str, at: int) -> bool:
        return any(
            start <= at and low <= at < high for start, low, high in self.declared.get(name, ())
        )

    # -- stores ------------------------------------------------------------

    def root(self, target: Node) -> Node | None:
        """The identifier a store goes through, or the fresh literal (None:
        a call's result or anything else that is not a name: not the
        test's own)."""
        current: Node | None = target
        while current is not None:
            kind = current.type
            if kind in ("identifier", "composite_literal", "func_literal"):
                return current
            if kind in _THROUGH:
                current = current.child_by_field_name("operand")
            elif kind in _WRAPPERS:
                inner = named(current)
                current = inner[0] if inner else None
            else:
                return None
        return None

    def outside(self) -> list[Node]:
        """The targets of the stores through a name that is not the
        function's own and that no deferred restore undoes (`undoes`)."""
        out = []
        restores = [entry for entry in self.stores if self.restore(*entry)]
        for target, value, statement in self.stores:
            if target.type == "identifier" and self.source.text(target) == "_":
                continue
            root = self.root(target)
            if root is not None and root.type != "identifier":
                continue  # a fresh literal's field
            if root is not None and self.own(self.source.text(root), target.start_byte):
                continue
            if (target, value, statement) in restores:
                continue
            if not any(self.undoes(r, target, statement) for r in restores):
                out.append(target)
        return out

    def saved(self, name: str, at: int) -> tuple[str, int, range] | None:
        """What the local `name` visible at `at` (its innermost, latest
        declaration there) was set to, by `name := X` (or `var name = X`,
        or as a deferred literal's parameter), as (X's text, from where,
        the declaration's scope), or None."""
        visible = [
            (start, low, high)
            for start, low, high in self.declared.get(name, ())
            if start <= at and low <= at < high
        ]
        if not visible:
            return None
        declared, low, high = max(visible)
        scope = range(low, high)
        for node in self.nodes:
            if node.type in ("short_var_declaration", "var_spec") and node.end_byte == declared:
                left = node.child_by_field_name("left")
                names = named(left) if left is not None else node.children_by_field_name("name")
                value = node.child_by_field_name("right") or node.child_by_field_name("value")
                values = named(value) if value is not None else []
                if len(names) != len(values):
                    return None
                for ident, val in zip(names, values, strict=True):
                    if self.source.text(ident) == name:
                        return _compact(self.source.text(val)), node.end_byte, scope
            elif node.type == "defer_statement" and node.start_byte <= at < node.end_byte:
                literal = named(node)[0].child_by_field_name("function") if named(node) else None
                if literal is not None and literal.start_byte == declared:
                    found = self._deferred_parameter(node, name)
                    if found is not None:
                        return found, node.start_byte, scope
        return None

    def _deferred_parameter(self, defer: Node, name: str) -> str | None:
        call = named(defer)[0] if named(defer) else None
        if call is None or call.type != "call_expression":
            return None
        literal = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if literal is None or literal.type != "func_literal" or arguments is None:
            return None
        params = literal.child_by_field_name("parameters")
        names = [
            self.source.text(ident)
            for param in (named(params) if params is not None else [])
            for ident in param.children_by_field_name("name")
        ]
        values = named(arguments)
        if name in names and len(names) == len(values):
            return _compact(self.source.text(values[names.index(name)]))
        return None

    def restore(self, target: Node, value: Node | None, statement: Node) -> bool:
        """Whether the store `target = value` writes back, when the test
        ends (`registration`), the value `target` had before any store to
        it: a local saved from it (`saved`) and never assigned again,
        before every store to it where the local is declared."""
        if value is None or value.type != "identifier" or self.registration(statement) is None:
            return False
        text, name = _compact(self.source.text(target)), self.source.text(value)
        found = self.saved(name, value.start_byte)
        if found is None or found[0] != text:
            return False
        since, scope = found[1], found[2]
        within = [t for t, _v, _s in self.stores if t.start_byte in scope]
        if any(t.type == "identifier" and self.source.text(t) == name for t in within):
            return False  # the saved value was changed since
        return all(since <= t.start_byte for t in within if _compact(self.source.text(t)) == text)

    def registration(self, node: Node) -> Node | None:
        """The statement that registers `node` to run when the test ends:
        the `defer` or the `x.Cleanup(func() {...})` holding it, or None."""
        current = node.parent
        while current is not None and current is not self.function:
            if current.type == "defer_statement":
                return current
            if current.type == "func_literal":
                call = current.parent.parent if current.parent is not None else None
                if call is not None and call.type == "call_expression":
                    callee = call.child_by_field_name("function")
                    field = callee.child_by_field_name("field") if callee is not None else None
                    if field is not None and self.source.text(field) == "Cleanup":
                        return _statement(call)
            current = current.parent
        return None

    def undoes(self, restore: tuple[Node, Node | None, Node], target: Node, store: Node) -> bool:
        """Whether the restore `restore` undoes the store of `target` in
        `store`: the same target, registered (`before_it_ends`) before the store runs (a
        statement of a block around it, before it), or right after it (in
        its block, with only plain assignments and other registrations
        between: nothing that returns or fails first)."""
        restored, _value, statement = restore
        if _compact(self.source.text(restored)) != _compact(self.source.text(target)):
            return False
        return self.before_it_ends(self.registration(statement), store)

    def before_it_ends(self, registered: Node | None, store: Node) -> bool:
        """Whether the registration `registered` runs after `store`
        whenever `store` runs (`undoes`): both in the same function (a
        store in a closure may run after the function ended: a goroutine,
        a parallel subtest, which runs once its parent's defers have)."""
        stored = _statement(store)
        if registered is None or stored is None or registered.parent is None:
            return False
        if _function_of(stored) != _function_of(registered):
            return False
        holder = registered.parent
        if registered.end_byte <= stored.start_byte and holder.start_byte <= stored.start_byte:
            return stored.end_byte <= holder.end_byte
        if stored.parent != holder or stored.start_byte > registered.start_byte:
            return False
        between = [
            s
            for s in named(holder)
            if stored.end_byte <= s.start_byte and s.end_byte <= registered.start_byte
        ]
        return all(self._quiet(s) for s in between)

    def _quiet(self, statement: Node) -> bool:
        """A statement that cannot return or fail the test: an assignment
        or `++` without calls (a panic ends the whole test binary), or a
        registration."""
        if statement.type in ("defer_statement", "comment"):
            return True
        if statement.type not in _PLAIN:
            return statement.type == "expression_statement" and self._cleanup(statement)
        return not _calls_in(statement)

    def _cleanup(self, statement: Node) -> bool:
        call = named(statement)[0] if named(statement) else None
        callee = call.child_by_field_name("function") if call is not None else None
        field = callee.child_by_field_name("field") if callee is not None else None
        return field is not None and self.source.text(field) == "Cleanup"

    # -- calls -------------------------------------------------------------

    def calls_setter(self, setters: dict[str, frozenset[str]]) -> bool:
        """Whether the function calls a setter of process-wide state
        (`SETTERS`) that it does not undo: `os.Setenv(K, v)` with a
        registered `os.Unsetenv(K)`, `os.Chdir(d)` with a registered
        `os.Chdir(old)` (`old, err := os.Getwd()` before it)."""
        if not setters:
            return False
        calls = []
        for node in self.nodes:
            if node.type != "call_expression":
                continue
            callee = node.child_by_field_name("function")
            if callee is None or callee.type != "selector_expression":
                continue
            operand = callee.child_by_field_name("operand")
            field = callee.child_by_field_name("field")
            if operand is None or field is None or operand.type != "identifier":
                continue
            package, name = self.source.text(operand), self.source.text(field)
            if name in setters.get(package, ()) and not self.own(package, operand.start_byte):
                calls.append((node, package, name))
        undo = [(node, package) for node, package, _name in calls if self._undo(node, package)]
        for node, package, name in calls:
            key = self._key(node, name)
            if any(node == u for u, _p in undo):
                if name != "Unsetenv" or any(
                    self._key(n, m) == key and not any(n == u for u, _p in undo)
                    for n, _p, m in calls
                ):
                    continue  # a lone deferred Unsetenv(K) is a change, not an undo
                return True
            if key is None or not any(
                u_package == package
                and self._key(u, self._name(u)) == key
                and self.before_it_ends(self.registration(u), node)
                for u, u_package in undo
            ):
                return True
        return False

    def _name(self, call: Node) -> str:
        callee = call.child_by_field_name("function")
        field = callee.child_by_field_name("field") if callee is not None else None
        return self.source.text(field) if field is not None else ""

    def _arguments(self, call: Node) -> list[Node]:
        arguments = call.child_by_field_name("arguments")
        return named(arguments) if arguments is not None else []

    def _key(self, call: Node, name: str) -> str | None:
        """What a setter call sets: the variable's name for the env
        setters, "cwd" for Chdir; None for the others (never undone)."""
        if name == "Chdir":
            return "cwd"
        if name in ("Setenv", "Unsetenv"):
            arguments = self._arguments(call)
            return _compact(self.source.text(arguments[0])) if arguments else None
        return None

    def _undo(self, call: Node, package: str) -> bool:
        """Whether `call`, registered to run when the test ends, puts back
        what was: `Unsetenv(K)` (the idiom's assumption: K was unset),
        `Chdir(old)` with `old, _ := package.Getwd()`.  Not `Setenv(K, old)`
        with `old := Getenv(K)`: that leaves an unset K set, to ""."""
        if self.registration(call) is None:
            return False
        name, arguments = self._name(call), self._arguments(call)
        if name == "Unsetenv":
            return True
        if name == "Chdir" and len(arguments) == 1:
            expected = f"{package}.Getwd()"
            arguments = [call, *arguments]
        else:
            return False
        value = arguments[1]
        if value.type != "identifier":
            return False
        return self._first_from(self.source.text(value), value.start_byte) == expected

    def _first_from(self, name: str, at: int) -> str | None:
        """The call that `name, ... := call` (before `at`) set `name` from."""
        for node in self.nodes:
            if node.type != "short_var_declaration" or node.end_byte > at:
                continue
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            names = named(left) if left is not None else []
            values = named(right) if right is not None else []
            if names and self.source.text(names[0]) == name and len(values) == 1:
                return _compact(self.source.text(values[0]))
        return None
