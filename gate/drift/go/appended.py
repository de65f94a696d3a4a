"""Which statements at the end of a Go test function's body it may gain as
new checks (`appended`), read by `gate.drift.go.cases.Cases` as spans a
head version may insert.

A test whose base statements all stay, in order and each the same by the
engine's tokens (`Unit.same`: without comments or layout), and which gains
statements only after the last of them, at the function's own top level,
keeps every check it had: each base statement runs as before, and an
appended one runs after all of them (a `t.Fatal` before it ended the test;
a `t.Error` before it already marked the test failed, and nothing after it
can unmark it).  Whether the test's code, appended part included, stores
into what other tests read is the unit's role (`gate.drift.go.writes`: a
test that does is collection-time code, and `gate.drift.grown` never passes
it).

Not appended cases, so the test is changed:

* a statement inserted before or between base statements, or inside a
  base block (a loop's body, a `t.Run` closure): only a suffix of the
  function's own top-level statements counts;
* an appended `go` statement (it may run on after the test) or `goto` (it
  can jump back into base code);
* an appended call of `Parallel` (anywhere in it: the rest of the test,
  or a new subtest, then runs beside other tests), of `Skip`, `SkipNow` or
  `Skipf` outside a closure, of `os.Exit`, `syscall.Exit` or
  `runtime.Goexit`.  `go test` still reports a test failed that skips
  after a failure, but a skip adds no check, so nothing is lost by
  refusing one;
* any append where the base part registers code that runs after the body
  and may read what it did: a `defer` of anything but a call with no
  arguments (`defer srv.Close()`, `defer cancel()`; not `defer
  ctrl.Finish()`), a `go` statement, a `Cleanup` call, a `Parallel` call
  inside a closure (a parallel subtest runs once the body has returned),
  or gomock's `NewController` (it registers its `Finish`): appended code
  could satisfy or undo such a check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.drift._treesitter import ParsedText, named

if TYPE_CHECKING:
    from tree_sitter import Node

# Import path -> functions of it that end the test or the process.
_EXITS = {
    "os": frozenset({"Exit"}),
    "syscall": frozenset({"Exit"}),
    "runtime": frozenset({"Goexit"}),
}
_SKIPS = frozenset({"Skip", "SkipNow", "Skipf"})
_REFUSED = frozenset({"go_statement", "goto_statement"})
# Deferred methods that check what the body did, even without arguments.
_CHECKING = frozenset({"Finish", "AssertExpectations", "Wait"})


def body_statements(function: Node) -> list[Node]:
    """The statements at the top level of a function's body, in order."""
    body = function.child_by_field_name("body")
    if body is None:
        return []
    out: list[Node] = []
    for child in named(body):
        if child.type == "statement_list":
            out.extend(s for s in named(child) if s.type != "comment")
        elif child.type != "comment":
            out.append(child)
    return out


def appended(statements: list[Node], source: ParsedText, imports: dict[str, str]) -> range:
    """The indexes `k` of `statements` (a function body's, `body_statements`)
    at which a head version may have started appending: every statement
    from `k` on may be an appended check (the module's docstring), and none
    before it registers code that runs after the body; at least one
    statement before it (the base's body)."""
    first = len(statements)
    while first > 0 and _appendable(statements[first - 1], source, imports):
        first -= 1
    registers = next(
        (i for i, s in enumerate(statements) if _registers(s, source)), len(statements)
    )
    return range(max(first, 1), min(registers, len(statements) - 1) + 1)


def _calls(node: Node, closures: bool) -> list[tuple[Node, bool]]:
    """The call expressions inside `node`, each with whether it is inside
    a function literal (`closures`: look inside them at all)."""
    out: list[tuple[Node, bool]] = []
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        current, inside = stack.pop()
        if current.type == "func_literal":
            if not closures:
                continue
            inside = True
        if current.type == "call_expression":
            out.append((current, inside))
        stack.extend((c, inside) for c in current.named_children)
    return out


def _callee(call: Node, source: ParsedText) -> tuple[str, str]:
    """(operand text, method or function name) of a call's callee."""
    function = call.child_by_field_name("function")
    if function is None:
        return "", ""
    if function.type == "selector_expression":
        operand = function.child_by_field_name("operand")
        field = function.child_by_field_name("field")
        return (
            source.text(operand) if operand is not None else "",
            source.text(field) if field is not None else "",
        )
    return "", source.text(function)


def _appendable(statement: Node, source: ParsedText, imports: dict[str, str]) -> bool:
    if statement.type in _REFUSED:
        return False
    for sub in _all(statement):
        if sub.type in _REFUSED:
            return False
    for call, inside in _calls(statement, closures=True):
        operand, name = _callee(call, source)
        if name == "Parallel" or (name in _SKIPS and not inside):
            return False
        if name in _EXITS.get(imports.get(operand, ""), frozenset()):
            return False
    return True


def _registers(statement: Node, source: ParsedText) -> bool:
    """Whether `statement` registers code that runs after the body (a
    closure's own `defer`, `go` or `Cleanup` ends with the closure, as a
    `t.Run` subtest's does before the next statement)."""
    for sub in _all(statement, closures=False):
        if sub.type == "go_statement":
            return True
        if sub.type == "defer_statement" and not _plain_defer(sub, source):
            return True
    for call, inside in _calls(statement, closures=True):
        _, name = _callee(call, source)
        if name == "NewController" or (name == "Parallel" and inside):
            return True
        if name == "Cleanup" and not inside:
            return True
    return False


def _plain_defer(defer: Node, source: ParsedText) -> bool:
    """`defer x.Close()` or `defer cancel()`: a call with no arguments of
    a name or a method that checks nothing (`_CHECKING`)."""
    calls = [c for c in named(defer) if c.type == "call_expression"]
    if len(calls) != 1:
        return False
    arguments = calls[0].child_by_field_name("arguments")
    function = calls[0].child_by_field_name("function")
    if arguments is None or named(arguments) or function is None:
        return False
    if function.type not in ("identifier", "selector_expression"):
        return False
    return _callee(calls[0], source)[1] not in _CHECKING


def _all(node: Node, closures: bool = True) -> list[Node]:
    out = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "func_literal" and not closures:
            continue
        out.append(current)
        stack.extend(current.named_children)
    return out
