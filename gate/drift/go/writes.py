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
it (with only plain assignments between, and for a setter's undo other
`os.Setenv` and `os.Unsetenv` calls given constants or formatted values:
nothing that may return first; a store in a closure may run after the function ended); so
is `os.Setenv(K, v)` with a registered `os.Unsetenv(K)` (the idiom
assumes K was unset) or `os.Setenv(K, old)` after `old := os.Getenv(K)`
(it assumes K was set: an unset K comes back set to "", which only
`os.LookupEnv` tells apart), and `os.Chdir(d)` with a registered
`os.Chdir(old)` (`old, err := os.Getwd()`); but no setter is undone in a
test that calls `t.Parallel()`, itself or in a subtest: `go test` starts
a parallel test only once every sequential one has ended, and then runs
it beside the others.  A reset to some other value (`defer func() { exit =
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
writes are not seen; a helper in another file of the package is not
read.  One function's declarations, stores and restores are read by
`gate.drift.go.scan.Scan`.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from gate.drift._treesitter import ParsedText
from gate.drift.go.scan import Scan

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
# The nodes a scan reads, captured as `node` in one query over the file.
SCAN = """[
(assignment_statement) (inc_statement) (dec_statement) (short_var_declaration)
(var_spec) (const_spec) (range_clause) (receive_statement) (type_switch_statement)
(call_expression) (defer_statement) (func_literal) (return_statement)
] @node"""
# The type part of a composite literal (`HandlersChain{...}`).
_TYPES = frozenset(
    {"type_identifier", "qualified_type", "slice_type", "array_type", "map_type", "generic_type"}
)


class Writes:
    """The state-sharing code of one parsed Go file, its helpers found once."""

    def __init__(
        self,
        source: ParsedText,
        imports: dict[str, str],
        found: list[Node],
        unread: frozenset[str] = frozenset(),
    ) -> None:
        """`found`: what `SCAN` captures in the file, from the caller's own
        query over it (one pass over the tree for both); `unread`: the
        functions (`.name` for methods) whose code cannot be read (a
        syntax error the grammar repairs), which count as sharing state."""
        self.source = source
        self.unread = unread
        # bound package name -> the functions of it that set process-wide state
        self.setters = {name: SETTERS[path] for name, path in imports.items() if path in SETTERS}
        self._sharing: frozenset[str] | None = None
        self._functions: dict[str, list[Node]] | None = None
        self._scans: dict[tuple[int, bool], Scan] = {}
        self._nodes_in_order = sorted(found, key=_start)
        self._starts = [n.start_byte for n in self._nodes_in_order]

    def scan(self, function: Node, whole: bool = False) -> Scan:
        """`function`'s declarations and stores, scanned once (`whole`: with
        the function literals it returns)."""
        key = (function.start_byte, whole)
        found = self._scans.get(key)
        if found is None:
            nodes, skipped = self._nodes(function, whole)
            if whole and not skipped:
                return self.scan(function)  # it returns no function literal
            found = self._scans[key] = Scan(self.source, function, nodes)
        return found

    def _nodes(self, function: Node, whole: bool) -> tuple[list[Node], bool]:
        """The nodes inside `function` a scan reads, in order, less
        (unless `whole`) those in the function literals a `return` hands
        back (`return func() { x = 1 }`: they run when called, not here);
        and whether there are such literals."""
        starts = self._starts
        inside = self._nodes_in_order[
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
        called = self.scan(function).called
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
            sharing = {k for name in self.unread for k in (name, f"{name}()")}
            calls: dict[str, set[str]] = {}
            for called, nodes in self.functions().items():
                for whole, key in ((False, called), (True, f"{called}()")):
                    for node in nodes:
                        if self._stores(node, whole):
                            sharing.add(key)
                        calls.setdefault(key, set()).update(self.scan(node, whole).called)
            changed = bool(sharing)
            while changed:
                grown = {n for n, called in calls.items() if n not in sharing and called & sharing}
                sharing |= grown
                changed = bool(grown)
            self._sharing = frozenset(sharing)
        return self._sharing

    def kept_to(self, function: Node, names: frozenset[str]) -> bool:
        """Whether every store of `function` outside itself goes into one of
        `names` (the package-level vars a new file declares, which no test
        of the base can name): no setter of process-wide state, no store
        through what a call returned, no call of a helper of the file that
        shares state (`helpers`)."""
        scan = self.scan(function)
        if scan.calls_setter(self.setters):
            return False
        for target in scan.outside():
            root = scan.root(target)
            if root is None or self.source.text(root) not in names:
                return False
        called = {c.removesuffix("()") for c in scan.called}
        return not (called & self.functions().keys() and scan.called & self.helpers())

    def _stores(self, function: Node, whole: bool = False) -> bool:
        return self.scan(function, whole).leaks(self.setters)


def _start(node: Node) -> int:
    return node.start_byte


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
