"""The JS/TS test frameworks' globals (Jest, Vitest, Mocha, node:test, AVA):
the test, describe and hook functions (`TESTS`, `DESCRIBES`, `HOOKS`), the
modules that export them (`RUNNER_MODULES`), their modifiers (`.only`,
`.each(table)`, ...), the comment pragmas that change how a file runs, and
a call's shape read off the tree (`runner_call` -> `Call`: the function,
its modifiers, curried arguments and arguments)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from gate.drift._treesitter import ParsedText, named

if TYPE_CHECKING:
    from tree_sitter import Node

# The runner's globals: the name a key shows for each root.
TESTS = {
    "it": "it",
    "xit": "it",
    "fit": "it",
    "test": "test",
    "xtest": "test",
    "specify": "specify",
    "xspecify": "specify",
    "bench": "bench",
}
DESCRIBES = {
    "describe": "describe",
    "xdescribe": "describe",
    "fdescribe": "describe",
    "context": "context",
    "xcontext": "context",
    "suite": "suite",
    "xsuite": "suite",
}
HOOKS = frozenset(
    {
        "beforeEach",
        "beforeAll",
        "afterEach",
        "afterAll",
        "before",
        "after",
        "setup",
        "teardown",
        "suiteSetup",
        "suiteTeardown",
    }
)
FOCUSED = frozenset({"fit", "fdescribe"})
# Names whose calls are read as the runner's (tests, hooks) or as only
# defining (`require('x')`, `jest.fn()`); a file that binds one itself,
# other than by importing it from a runner module, loses that reading.
TRUSTED = frozenset({*TESTS, *DESCRIBES, *HOOKS, "require", "jest", "vi"})
RUNNER_MODULES = frozenset(
    {"vitest", "@jest/globals", "mocha", "node:test", "bun:test", "@playwright/test", "ava"}
)
# Runners whose hooks at a file's top level run around that file's tests
# alone (each file is a suite of its own), imported from these modules; not
# Mocha's root hooks or node:test's, which a run of several files may share.
FILE_SUITES = frozenset({"vitest", "@jest/globals", "bun:test", "@playwright/test"})
FILE_HOOKS = frozenset({"beforeEach", "beforeAll", "afterEach", "afterAll"})
MODIFIERS = frozenset(
    {
        "only",
        "skip",
        "todo",
        "concurrent",
        "sequential",
        "shuffle",
        "each",
        "for",
        "failing",
        "fails",
        "runIf",
        "skipIf",
        "serial",
    }
)
CURRIED = frozenset({"each", "for", "runIf", "skipIf"})  # take arguments, return the test function
# Playwright spells its describe and hooks as members of its test function
# (`test.describe.serial(...)`, `test.beforeEach(...)`); `parallel` and
# `fixme` are modifiers of its describe and tests.
MEMBERS = frozenset({"describe", *FILE_HOOKS})
PLAYWRIGHT_MODIFIERS = frozenset({"parallel", "fixme"})
# Comment pragmas that change how the whole file runs.
PRAGMA = re.compile(r"@(?:jest-environment|vitest-environment|jsx|ts-nocheck|flow\b)")


class Call(NamedTuple):
    root: str  # the called global: it, describe, beforeEach, ...
    modifiers: tuple[str, ...]  # .only, .each, ... in order
    curried: tuple[Node, ...]  # arguments of `.each(table)`, `.skipIf(cond)`
    args: tuple[Node, ...]  # the last call's arguments


_OPTIONAL = ("optional_chain", "?.")


def runner_call(
    source: ParsedText, node: Node, resolve: Callable[[str], str | None]
) -> Call | None:
    """`node` as a call of a runner global (`it.only`, `test.each(t)`, ...), or None."""
    if node.type != "call_expression":
        return None
    args = node.child_by_field_name("arguments")
    current = node.child_by_field_name("function")
    if args is None or args.type != "arguments" or current is None:
        return None
    if any(c.type in _OPTIONAL for c in node.children):  # `it?.(...)`
        return None
    modifiers: list[str] = []
    curried: list[Node] = []
    while True:
        if current.type == "identifier":
            root = source.text(current)
            break
        if current.type == "member_expression":
            prop = current.child_by_field_name("property")
            obj = current.child_by_field_name("object")
            optional = any(c.type in _OPTIONAL for c in current.children)
            if prop is None or obj is None or optional:
                return None
            if prop.type != "property_identifier" or source.text(prop) not in _MEMBER_WORDS:
                return None
            modifiers.append(source.text(prop))
            current = obj
        elif current.type == "call_expression":
            function = current.child_by_field_name("function")
            inner = current.child_by_field_name("arguments")
            if function is None or inner is None or function.type != "member_expression":
                return None
            prop = function.child_by_field_name("property")
            if prop is None or source.text(prop) not in CURRIED:
                return None
            curried.append(inner)
            current = function
        else:
            return None
    canonical = resolve(root)
    if canonical is None:
        return None
    spelled = tuple(reversed(modifiers))
    if spelled[:1] and spelled[0] in MEMBERS and canonical == "test":
        canonical, spelled = spelled[0], spelled[1:]  # Playwright's `test.describe`
        if canonical != "describe" and spelled:
            return None
    if any(m in MEMBERS for m in spelled):
        return None  # `it.describe`, `test.only.describe`: no runner's shape
    return Call(canonical, spelled, tuple(reversed(curried)), tuple(named(args)))


_MEMBER_WORDS = MODIFIERS | MEMBERS | PLAYWRIGHT_MODIFIERS


class _Specifier(NamedTuple):
    local: str  # the name the file binds
    imported: str  # the name the module exports
    aliased: bool  # `{ a as b }`
    typed: bool  # `{ type T }`


_IMPORT_PARTS = ("import_clause", "named_imports", "namespace_import", "import_require_clause")


def import_bindings(clause: Node) -> list[tuple[Node, Node]]:
    """Each name an import clause (or one of its parts) binds, in the order
    written, as (where it is bound, the identifier bound): an import
    specifier with its alias, else its name (`{ a as b }`: `b`), or an
    identifier alone (the default import, `* as X`'s name, `import X =
    require(...)`'s) with itself."""
    found: list[tuple[Node, Node]] = []
    stack = [clause]
    while stack:
        node = stack.pop()
        if node.type == "import_specifier":
            alias = node.child_by_field_name("alias")
            bound = alias if alias is not None else node.child_by_field_name("name")
            if bound is not None:
                found.append((node, bound))
        elif node.type == "identifier":
            found.append((node, node))
        elif node.type in _IMPORT_PARTS:
            stack.extend(reversed([c for c in named(node) if c.type != "string"]))
    return found


def _specifiers(source: ParsedText, clause: Node) -> list[_Specifier]:
    """Each named import specifier of an import clause, the last written
    first (a dict built from them keeps the first binding of a name bound
    twice)."""
    found: list[_Specifier] = []
    for node, local in reversed(import_bindings(clause)):
        if node.type != "import_specifier":
            continue
        name = node.child_by_field_name("name")
        if name is not None:
            aliased = node.child_by_field_name("alias") is not None
            typed = source.text(node).startswith("type ")
            found.append(_Specifier(source.text(local), source.text(name), aliased, typed))
    return found


def imported_names(source: ParsedText, clause: Node) -> dict[str, str]:
    """`import { afterEach, test as base }`: each local name a value import
    binds by name -> the name it imports ({"afterEach": "afterEach",
    "base": "test"}); none from `import type`."""
    return {s.local: s.imported for s in _specifiers(source, clause) if not s.typed}


def runner_aliases(source: ParsedText, clause: Node) -> dict[str, str]:
    """`import { test as base, it }`: {"base": "test"}, the runner names
    imported under another name."""
    return {
        s.local: s.imported
        for s in _specifiers(source, clause)
        if s.aliased and (s.imported in TESTS or s.imported in DESCRIBES or s.imported in HOOKS)
    }


def summary(source: ParsedText, expr: Node | None) -> str:
    """A short name for a statement: its callee and first string argument,
    the target of an assignment, or its node type."""
    if expr is None:
        return "statement"
    if expr.type == "call_expression":
        function = expr.child_by_field_name("function")
        args = expr.child_by_field_name("arguments")
        callee = " ".join(source.text(function).split()) if function is not None else "call"
        parts = named(args) if args is not None and args.type == "arguments" else []
        if parts and parts[0].type == "string":
            return f"{callee[:80]} {source.text(parts[0])[1:-1][:80]}"
        return callee[:80]
    if expr.type in ("assignment_expression", "augmented_assignment_expression"):
        left = expr.child_by_field_name("left")
        target = " ".join(source.text(left).split()) if left is not None else "?"
        return f"{target[:80]} ="
    if expr.type == "string":
        return source.text(expr)[:80]
    return expr.type
