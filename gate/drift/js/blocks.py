"""Whether code inside a describe block keeps to that block (`Blocks.within`),
so that the block, when it is new in an existing file, adds new cases only.

Jest and Vitest scope hooks to describe blocks: a `beforeEach`, `afterEach`,
`beforeAll` or `afterAll` inside a `describe` runs for the tests of that
describe alone (Jest: "Setup and Teardown", scoping; Vitest: "Setup and
Teardown" hooks are called in the context of their suite); Mocha's `before`,
`after`, `beforeEach`, `afterEach` in a `describe` likewise.  A hook, a
declaration or a test inside a describe that stores only through names
bound inside the describe's callback (its own `let`s: nothing outside the
block can name them; `Writes.stays`) and writes nothing outside the file
(`Escapes.within`) changes what that block's tests see alone.

The runner's own state is the exception: `vi.useFakeTimers()` and the
like last past the block's tests. Such a call (`STATEFUL`) keeps to the
block only in a `beforeEach` (`beforeAll`; Mocha's `before`, `setup`,
`suiteSetup`) whose block also has the matching after-hook (`afterEach`,
`afterAll`; `after`, `teardown`, `suiteTeardown`) that undoes it
(`vi.useRealTimers()`), and a spy (`spy = vi.spyOn(mod, 'f')`) only
where that after-hook restores it (`spy.mockRestore()`); any other call
of the runner's object (`vi.mock`, hoisted to the top of the file by the
transformer; `vi.resetModules`) does not keep to the block at all,
wherever it stands.

A block that is focused or runs code at collection (its frame is COLLECTION),
that runs its tests concurrently (`describe.concurrent`: they overlap other
work), or whose key repeats another's (`describe x #2`: the same full title
as an existing block, so snapshot keys, which are test titles, collide)
confines nothing."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from gate.drift._treesitter import ParsedText, holder, named

if TYPE_CHECKING:
    from tree_sitter import Node

    from gate.drift import Unit
    from gate.drift.js.escapes import Escapes
    from gate.drift.js.writes import Writes

# The runner's calls that change its state past a test, with what undoes each.
STATEFUL = {
    "useFakeTimers": frozenset({"useRealTimers"}),
    "setSystemTime": frozenset({"useRealTimers"}),
}
# The runner's calls that change nothing past the test that makes them.
_HARMLESS = frozenset(
    {
        "fn",
        "mocked",
        "waitFor",
        "waitUntil",
        "advanceTimersByTime",
        "advanceTimersByTimeAsync",
        "advanceTimersToNextTimer",
        "advanceTimersToNextTimerAsync",
        "runAllTimers",
        "runAllTimersAsync",
        "runOnlyPendingTimers",
        "runOnlyPendingTimersAsync",
        "runAllTicks",
        "getTimerCount",
        "getMockedSystemTime",
        "getRealSystemTime",
        "isFakeTimers",
        "isMockFunction",
        "now",
        "useRealTimers",  # an undo, allowed where it undoes (`_undone`)
    }
)
_RUNNER_OBJECTS = frozenset({"vi", "jest"})
# Each before-hook and the after-hook that undoes what it did.
_AFTER = {
    "beforeEach": "afterEach",
    "beforeAll": "afterAll",
    "before": "after",
    "setup": "teardown",
    "suiteSetup": "suiteTeardown",
}
_REPEAT = re.compile(r" #\d+\Z")


class Block(NamedTuple):
    key: str  # the describe's unit key
    callback: Node  # its callback function
    plain: bool  # not focused, not running at collection, not concurrent, not a repeat


class Blocks:
    """The describes whose bodies the statements being split are in, and
    which of them a statement keeps to."""

    def __init__(self, source: ParsedText, writes: Writes, escapes: Escapes) -> None:
        self.source = source
        self.writes = writes
        self.escapes = escapes
        self.open: list[Block] = []

    def enter(self, key: str, callback: Node, modifiers: tuple[str, ...], inert: bool) -> None:
        plain = inert and "concurrent" not in modifiers and _REPEAT.search(key) is None
        self.open.append(Block(key, callback, plain))

    def leave(self) -> None:
        self.open.pop()

    def within(self, node: Node, key: str, what: str, local: bool) -> tuple[str, ...]:
        """The keys of the open describes that `node` keeps to (`what`: a
        hook's name, `declaration`, or `test`, whose unit key `key` must
        not repeat another's): it stores only through names bound inside
        the describe's callback, writes nothing outside the file, calls the
        runner's object only as the block allows, and that describe and
        each inside it around `node` are plain.  `local`: `Escapes.within`
        of `node` found nothing (asked again sparing the restored spies)."""
        if not self.open or (what == "test" and _REPEAT.search(key)):
            return ()
        spared = self._restored_spies(node, what)
        escapes = self.escapes.within(node, spared) if spared else not local
        if escapes or not self._runner_calls(node, what, len(spared)):
            return ()
        found: list[str] = []
        for i, block in enumerate(self.open):
            if not all(b.plain for b in self.open[i:]):
                continue
            span = range(block.callback.start_byte, block.callback.end_byte)
            if self.writes.stays(node, span):
                found.append(block.key)
        return tuple(found)

    def settle(self, found: list[Unit]) -> list[Unit]:
        """`found`, the file's units, with no unit kept to a block that holds
        a test or describe whose key repeats another's (`it x > y #2`: the
        same full title as another test, so a snapshot key, which is the
        test's title with a counter, moves)."""
        repeated = {k for u in found if _REPEAT.search(u.key) for k in u.scope}
        repeated.update(u.key for u in found if _REPEAT.search(u.key))
        return [
            replace(u, within=tuple(k for k in u.within if k not in repeated))
            if set(u.within) & repeated
            else u
            for u in found
        ]

    def _restored_spies(self, node: Node, hook: str) -> frozenset[tuple[int, int]]:
        """The (start, end) bytes of the spies a before-hook `node` makes
        into a name (`spy = vi.spyOn(mod, 'f')`, `.mockReturnValue(...)`
        chained on it) that the matching after-hook of its block restores
        (`spy.mockRestore()` as a statement of its own body)."""
        body = self.open[-1].callback.child_by_field_name("body")
        if hook not in _AFTER or body is None:
            return frozenset()
        found = set()
        stack = [node]
        while stack:
            current = stack.pop()
            stack.extend(current.named_children)
            callee = current.child_by_field_name("function")
            if current.type != "call_expression" or callee is None:
                continue
            if self.source.text(callee) not in ("vi.spyOn", "jest.spyOn"):
                continue
            holder = _assigned(self.source, current)
            if holder and _undone(self.source, body, _AFTER[hook], frozenset(), holder):
                found.add((current.start_byte, current.end_byte))
        return frozenset(found)

    def _runner_calls(self, node: Node, hook: str, spies: int = 0) -> bool:
        """Whether each call of `vi.*`/`jest.*` in `node` is harmless, or a
        stateful one that the matching after-hook of the block undoes
        (`spies`: how many `spyOn` calls it restores)."""
        body = self.open[-1].callback.child_by_field_name("body")
        for name in _runner_methods(self.source, node):
            if name in _HARMLESS:
                continue
            if name == "spyOn" and spies > 0:
                spies -= 1
                continue
            undo = STATEFUL.get(name)
            if undo is None or hook not in _AFTER or body is None:
                return False
            if not _undone(self.source, body, _AFTER[hook], undo):
                return False
        return True


def _runner_methods(source: ParsedText, node: Node) -> list[str]:
    """The methods of the runner's object (`vi`, `jest`) `node` calls or names."""
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "member_expression":
            host = current.child_by_field_name("object")
            prop = current.child_by_field_name("property")
            if host is not None and prop is not None and source.text(host) in _RUNNER_OBJECTS:
                found.append(source.text(prop))
        stack.extend(current.named_children)
    return found


def _assigned(source: ParsedText, call: Node) -> str:
    """The name `call` (a spy, with mock methods chained on it) is assigned
    to as a statement of its own (`spy = vi.spyOn(...)`), or ""."""
    up = call.parent
    while up is not None and up.type in ("member_expression", "call_expression"):
        if up.type == "member_expression" and up.child_by_field_name("object") != call:
            return ""
        call, up = up, up.parent
    up = holder(call, "assignment_expression", "right")
    if up is None:
        return ""
    left = up.child_by_field_name("left")
    statement = up.parent
    if left is None or left.type != "identifier" or statement is None:
        return ""
    return source.text(left) if statement.type == "expression_statement" else ""


def _undone(
    source: ParsedText, body: Node, after: str, undo: frozenset[str], spy: str = ""
) -> bool:
    """Whether a statement of the describe body `body` is the hook `after`
    whose callback calls one of `undo` on the runner's object, or with
    `spy`, restores it: `spy.mockRestore()` as a statement of its body."""
    for statement in named(body):
        call = named(statement)[0] if statement.type == "expression_statement" else None
        if call is None or call.type != "call_expression":
            continue
        callee = call.child_by_field_name("function")
        if callee is None or source.text(callee) != after:
            continue
        if undo & set(_runner_methods(source, call)):
            return True
        if spy and _restores(source, call, spy):
            return True
    return False


def _restores(source: ParsedText, hook: Node, spy: str) -> bool:
    """Whether the callback of the hook call `hook` has the statement `spy.mockRestore();`."""
    arguments = hook.child_by_field_name("arguments")
    for function in named(arguments) if arguments is not None else []:
        inner = function.child_by_field_name("body")
        if inner is None or inner.type != "statement_block":
            continue
        if any(
            source.text(s) in (f"{spy}.mockRestore();", f"{spy}.mockRestore()")
            for s in named(inner)
        ):
            return True
    return False
