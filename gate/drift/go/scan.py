"""One Go function's declarations, stores and what undoes them
(`Scan`), for `gate.drift.go.writes`, which says what counts as a
store outside a test and reads each function of a file once.

A name is the function's own where it declares it and in the block that
holds the declaration, from it on (`:=`, `var`, `const`, a parameter, the
receiver, a `range`, `select` or type switch binding).  A store is undone
when a value saved before it (`old := x`, or a deferred literal's
parameter) is written back in a `defer` or a `Cleanup` callback
registered in the same function, before the store or right after it;
`os.Setenv(K, v)` is undone by a registered `os.Unsetenv(K)` or
`os.Setenv(K, old)` (`old := os.Getenv(K)`), `os.Chdir` by a registered
`os.Chdir` back to a saved `os.Getwd()`, in a function that calls no
`t.Parallel()`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.drift._treesitter import ParsedText, named

if TYPE_CHECKING:
    from tree_sitter import Node

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
# The statements and clauses that may store (`Scan._store`).
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
# What a store goes through to reach its root name (`x.f`, `x[k]`, `*x`).
_THROUGH = frozenset(
    {"selector_expression", "index_expression", "slice_expression", "unary_expression"}
)
# Statements that store and, without a call in them, run on to the next.
_PLAIN = frozenset(
    {"assignment_statement", "short_var_declaration", "inc_statement", "dec_statement"}
)
_WRAPPERS = frozenset({"parenthesized_expression", "type_assertion_expression"})
# Calls that only format a value (`Scan._formats`).
_FORMATS = frozenset({"fmt.Sprint", "fmt.Sprintf", "strconv.Itoa", "strconv.FormatInt"})


def compact(text: str) -> str:
    return "".join(text.split())


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


def _sides(declaration: Node) -> tuple[list[Node], list[Node]]:
    """The names and the values of a `:=` or a `var` spec."""
    left = declaration.child_by_field_name("left")
    names = named(left) if left is not None else declaration.children_by_field_name("name")
    value = declaration.child_by_field_name("right") or declaration.child_by_field_name("value")
    return names, named(value) if value is not None else []


def _calls_in(node: Node) -> bool:
    """Whether a call is inside `node`."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            return True
        stack.extend(current.named_children)
    return False


class Scan:
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
        self._leaks: bool | None = None
        self._called: frozenset[str] | None = None

    def leaks(self, setters: dict[str, frozenset[str]]) -> bool:
        """Whether the function stores outside itself, undone by nothing:
        a setter of process-wide state (`calls_setter`, with the file's
        `setters`, the same for each function of it) or a store
        (`outside`); found once."""
        if self._leaks is None:
            self._leaks = self.calls_setter(setters) or bool(self.outside())
        return self._leaks

    @property
    def called(self) -> frozenset[str]:
        """What the function calls or hands on as a value, by name: `f`
        for `f()`, `defer f()` or `t.Cleanup(f)`; `.m` for `x.m()` or a
        method value `x.m`; `f()` and `.m()` for a call of what they return
        (`f()()`)."""
        if self._called is None:
            out = set()
            for node in self.nodes:
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
            self._called = frozenset(out)
        return self._called

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

    def visible(self, name: str, at: int) -> tuple[int, range] | None:
        """The declaration of `name` that `at` sees (the innermost, latest
        one whose scope holds `at`), as (where it takes effect, its
        scope), or None: the name is not the function's own there."""
        found = [
            (start, low, high)
            for start, low, high in self.declared.get(name, ())
            if start <= at and low <= at < high
        ]
        if not found:
            return None
        start, low, high = max(found)
        return start, range(low, high)

    def own(self, name: str, at: int) -> bool:
        return self.visible(name, at) is not None

    def declaring(self, name: str, at: int) -> tuple[Node, range] | None:
        """The statement whose declaration of `name` `at` sees (`visible`)
        and that declaration's scope: a `:=` or `var` (found by where it
        takes effect, its end), or the `defer` of a literal whose
        parameter it is; None for any other (a parameter of the function,
        a `range` binding, ...)."""
        seen = self.visible(name, at)
        if seen is None:
            return None
        declared, scope = seen
        for node in self.nodes:
            if node.type in ("short_var_declaration", "var_spec") and node.end_byte == declared:
                return node, scope
            if node.type == "defer_statement" and node.start_byte <= at < node.end_byte:
                literal = named(node)[0].child_by_field_name("function") if named(node) else None
                if literal is not None and literal.start_byte == declared:
                    return node, scope
        return None

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
        """What the local `name` visible at `at` (`declaring`) was set to,
        by `name := X` (or `var name = X`, or as a deferred literal's
        parameter), as (X's text, from where, the declaration's scope), or
        None."""
        found = self.declaring(name, at)
        if found is None:
            return None
        node, scope = found
        if node.type == "defer_statement":
            value = self._deferred_parameter(node, name)
            return None if value is None else (value, node.start_byte, scope)
        names, values = _sides(node)
        if len(names) != len(values):
            return None
        for ident, val in zip(names, values, strict=True):
            if self.source.text(ident) == name:
                return compact(self.source.text(val)), node.end_byte, scope
        return None

    def reassigned(self, name: str, scope: range) -> bool:
        """Whether a store inside `scope` assigns the name `name`."""
        return any(
            t.type == "identifier" and self.source.text(t) == name and t.start_byte in scope
            for t, _v, _s in self.stores
        )

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
            return compact(self.source.text(values[names.index(name)]))
        return None

    def restore(self, target: Node, value: Node | None, statement: Node) -> bool:
        """Whether the store `target = value` writes back, when the test
        ends (`registration`), the value `target` had before any store to
        it: a local saved from it (`saved`) and never assigned again,
        before every store to it where the local is declared."""
        if value is None or value.type != "identifier" or self.registration(statement) is None:
            return False
        text, name = compact(self.source.text(target)), self.source.text(value)
        found = self.saved(name, value.start_byte)
        if found is None or found[0] != text:
            return False
        since, scope = found[1], found[2]
        if self.reassigned(name, scope):
            return False  # the saved value was changed since
        return all(
            since <= t.start_byte
            for t, _v, _s in self.stores
            if t.start_byte in scope and compact(self.source.text(t)) == text
        )

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
        if compact(self.source.text(restored)) != compact(self.source.text(target)):
            return False
        return self.before_it_ends(self.registration(statement), store)

    def _formats(self, node: Node) -> bool:
        """Whether every call inside `node` only formats a value
        (`_FORMATS`: `fmt.Sprintf("%d", port)`), which cannot end the test."""
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type == "call_expression":
                callee = current.child_by_field_name("function")
                text = compact(self.source.text(callee)) if callee is not None else ""
                package = text.partition(".")[0]
                if text not in _FORMATS or self.own(package, current.start_byte):
                    return False
            stack.extend(current.named_children)
        return True

    def before_it_ends(
        self, registered: Node | None, store: Node, quiet: frozenset[int] = frozenset()
    ) -> bool:
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
        return all(s.start_byte in quiet or self._quiet(s) for s in between)

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
        registered `os.Unsetenv(K)` or `os.Setenv(K, old)`, `os.Chdir(d)`
        with a registered `os.Chdir(old)` (`old, err := os.Getwd()` before
        it); in a function calling `x.Parallel()`, none is undone.  Env
        setters between a store and its registration (`_formats`) do not
        end the test first."""
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
        # a test that runs in parallel (`t.Parallel()`, a subtest's too)
        # sets process-wide state while other tests run: nothing undoes that
        parallel = self._parallel()
        undo = [
            (node, package)
            for node, package, _name in calls
            if not parallel and self._undo(node, package)
        ]
        # env setters between a store and its registration return nothing first
        settings = frozenset(
            statement.start_byte
            for node, _package, name in calls
            if name in ("Setenv", "Unsetenv")
            and (statement := _statement(node)) is not None
            and statement.type == "expression_statement"
            and named(statement)[0] == node
            and all(self._formats(a) for a in self._arguments(node))
        )
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
                and self.before_it_ends(self.registration(u), node, settings)
                for u, u_package in undo
            ):
                return True
        return False

    def _parallel(self) -> bool:
        """Whether the function, or a subtest of it, calls `x.Parallel()`."""
        for node in self.nodes:
            if node.type == "call_expression" and not self._arguments(node):
                callee = node.child_by_field_name("function")
                selector = callee is not None and callee.type == "selector_expression"
                if selector and self._name(node) == "Parallel":
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
            return compact(self.source.text(arguments[0])) if arguments else None
        return None

    def _saved_env(self, call: Node, package: str, arguments: list[Node]) -> bool:
        """Whether the registered `Setenv(K, old)` writes back what K held:
        `old := package.Getenv(K)` (or a deferred literal's parameter given
        it), `old` never assigned again, saved before any `Setenv(K, ...)`
        or `Unsetenv(K)` in its scope that runs in the test itself."""
        value = arguments[1]
        if value.type != "identifier":
            return False
        old, key = self.source.text(value), compact(self.source.text(arguments[0]))
        found = self.saved(old, value.start_byte)
        if found is None or found[0] != f"{package}.Getenv({key})":
            return False
        since, scope = found[1], found[2]
        return not self.reassigned(old, scope) and not any(
            n.type == "call_expression"
            and n.start_byte in scope
            and n.start_byte < since
            and self._name(n) in ("Setenv", "Unsetenv", "Clearenv")
            and self._key(n, self._name(n)) in (key, None)
            and self.registration(n) is None
            for n in self.nodes
            if n is not call
        )

    def _undo(self, call: Node, package: str) -> bool:
        """Whether `call`, registered to run when the test ends, puts back
        what was: `Unsetenv(K)` (the idiom's assumption: K was unset),
        `Chdir(old)` with `old, _ := package.Getwd()` (the declaration `old`
        sees there, before any Chdir in its scope, `old` never assigned
        again), or `Setenv(K, old)` (`_saved_env`)."""
        if self.registration(call) is None:
            return False
        name, arguments = self._name(call), self._arguments(call)
        if name == "Unsetenv":
            return True
        if name == "Setenv":
            return len(arguments) == 2 and self._saved_env(call, package, arguments)
        if name != "Chdir" or len(arguments) != 1 or arguments[0].type != "identifier":
            return False
        old = self.source.text(arguments[0])
        found = self.declaring(old, arguments[0].start_byte)
        if found is None or found[0].type != "short_var_declaration":
            return False
        names, values = _sides(found[0])
        return (
            bool(names)
            and self.source.text(names[0]) == old
            and len(values) == 1
            and compact(self.source.text(values[0])) == f"{package}.Getwd()"
            and not self.reassigned(old, found[1])
            and not any(  # saved after a Chdir it would undo
                n.type == "call_expression"
                and n.start_byte in found[1]
                and n.start_byte < found[0].start_byte
                and self._name(n) == "Chdir"
                and self.registration(n) is None
                for n in self.nodes
            )
        )
