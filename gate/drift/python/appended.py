"""Which statements at the end of a Python test function's body it may gain
as new checks (`appended`), read by `gate.drift.python.cases` as spans a
head version may insert.

A test whose base statements all stay, in order and each the same by the
engine's tokens (`Unit.same`'s tree, without positions), and which gains
statements only after the last of them, at the function's own top level,
keeps every check it had: each base statement runs as before, and an
appended one runs only once all of them have passed (a failing `assert`,
`self.assertEqual` or call raised already), so it can make the test fail,
never pass where it failed.  The same holds for a unittest method, a method
of a pytest class and a coroutine test (an `await` in an `async def` that
was one at base).  Whether the test's code, appended part included, writes
state other tests read is the unit's role (`shares_state`, `sharing_defs`:
a test that does is collection-time code, and `gate.drift.grown` never
passes it).

Not appended cases, so the test is changed (each a way to bend a base check):

* a statement inserted before or between base statements, or inside a
  base block (a `break` in a loop's body skips the rows after it): only a
  suffix of the function's own top-level statements counts;
* an appended statement with a `yield` or `yield from` at the function's
  own level (not in a nested def, lambda or class): the test becomes a
  generator, whose body pytest no longer runs and unittest never starts;
  an `await` in a function that is not a coroutine; `global` or `nonlocal`;
* an appended call of a skip, an xfail or a process exit (`pytest.skip`,
  `pytest.xfail`, `self.skipTest`, `sys.exit`, `os._exit`, ...): after a
  soft failure that recorded itself without raising (a subtest's,
  `pytest-check`'s) an xfail or skip can hide it, and an exit ends the run
  with the code it names; none of them adds a check;
* any append where the base part registers code that runs after the body
  and reads what it did (`self.addCleanup`, `request.addfinalizer`, an
  `ExitStack`'s `callback`/`enter_context`, a task or thread started with
  `create_task`, `Thread`, `submit`): appended code could satisfy or undo
  such a check.  A fixture's own teardown is not seen: one that checks at
  teardown what the test did (each mocked response requested) can be
  satisfied by an appended call, which the gate cannot tell from a new
  check.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from gate.drift.python.tree import child_nodes, dotted, walk

# Last names of callees an appended statement may not call.
_ENDS_RUN = frozenset(
    {"skip", "skipTest", "xfail", "exit", "_exit", "abort", "kill", "importorskip"}
)
# Last names of calls in the base part that register code run after the body.
_RUNS_AFTER = frozenset(
    {
        "addCleanup",
        "addAsyncCleanup",
        "addClassCleanup",
        "addfinalizer",
        "enter_context",
        "enter_async_context",
        "enterContext",
        "enterAsyncContext",
        "enterClassContext",
        "callback",
        "push",
        "push_async_callback",
        "push_async_exit",
        "create_task",
        "ensure_future",
        "start_soon",
        "Thread",
        "Timer",
        "submit",
    }
)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def appended(node: ast.FunctionDef | ast.AsyncFunctionDef) -> range:
    """The indexes `k` of `node`'s body at which a head version may have
    started appending: every statement from `k` on may be an appended check
    (the module's docstring), and none before it registers code that runs
    after the body; at least one statement before it (the base's body)."""
    body = node.body
    first = len(body)
    coroutine = isinstance(node, ast.AsyncFunctionDef)
    while first > 0 and _appendable(body[first - 1], coroutine):
        first -= 1
    registers = next((i for i, s in enumerate(body) if _registers(s)), len(body))
    return range(max(first, 1), min(registers, len(body) - 1) + 1)


def _own_nodes(statement: ast.stmt) -> Sequence[ast.AST]:
    """The nodes of `statement` at its function's own level: not inside a
    nested def, lambda or class."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = [statement]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(c for c in child_nodes(current) if not isinstance(c, _SCOPES))
    return out


def _appendable(statement: ast.stmt, coroutine: bool) -> bool:
    for sub in _own_nodes(statement):
        if isinstance(sub, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)):
            return False
        if isinstance(sub, ast.Await) and not coroutine:
            return False
    for sub in walk(statement):
        if isinstance(sub, ast.Call) and _last(sub.func) in _ENDS_RUN:
            return False
    return True


def _registers(statement: ast.stmt) -> bool:
    return any(
        isinstance(sub, ast.Call) and _last(sub.func) in _RUNS_AFTER for sub in walk(statement)
    )


def _last(func: ast.expr) -> str:
    name = dotted(func)
    if name:
        return name.rsplit(".", 1)[-1]
    return func.attr if isinstance(func, ast.Attribute) else ""
