"""A JS/TS file's own test wrapper (`wrapped_test`): a function of the
file whose body only registers a test, passing its arguments through, so
that each top-level call of it is a test case:

    function check(name, fn) {
      it(name, fn);
    }
    check('reads', () => { ... });      // a case, as `it('reads', ...)` is

The wrapper is a `function` declaration at the top level, or a `const`
bound there to an arrow function or function expression, the file's one
binding of its name; its parameters are plain names (no default, no
rest, no destructuring); its body is the one statement (or the arrow's
expression) `it(a, b, ...)` or `test(...)` (a runner's test global, no
modifier such as `.only`, `.skip` or `.each`), whose arguments are its
parameters in order, then at most a number (a timeout).  A call of it
passing as many arguments as it has parameters is then that test: its
title is its first argument, and it is judged as a test call is (its own
arguments, what its callback stores outside itself)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.drift._treesitter import ParsedText, named
from gate.drift.js.frameworks import TESTS, Call, runner_call
from gate.drift.js.names import Names

if TYPE_CHECKING:
    from tree_sitter import Node

_FUNCTIONS = frozenset({"function_expression", "arrow_function", "function"})


def _function_of(names: Names, name: str) -> Node | None:
    """The one top-level function `name` is bound to, or None."""
    bindings = names.bindings(name)
    if len(bindings) != 1:
        return None
    up = bindings[0].parent
    if up is not None and up.type == "function_declaration":
        return up if up.parent is not None and up.parent.type == "program" else None
    if (
        up is None
        or up.type != "variable_declarator"
        or up.child_by_field_name("name") != bindings[0]
    ):
        return None
    declaration = up.parent
    if declaration is None or declaration.type != "lexical_declaration":
        return None
    if declaration.children[0].type != "const" or declaration.parent is None:
        return None
    if declaration.parent.type != "program":
        return None
    value = up.child_by_field_name("value")
    return value if value is not None and value.type in _FUNCTIONS else None


def _parameters(source: ParsedText, function: Node) -> list[str] | None:
    """The function's parameters when each is a plain name, else None."""
    single = function.child_by_field_name("parameter")  # `x => ...`
    if single is not None:
        return [source.text(single)] if single.type == "identifier" else None
    params = function.child_by_field_name("parameters")
    if params is None:
        return None
    out = []
    for p in named(params):
        pattern: Node | None = p
        if p.type == "required_parameter":
            pattern = p.child_by_field_name("pattern")
            rest = [c for c in named(p) if c.type != "type_annotation" and c != pattern]
            if pattern is None or rest:
                return None  # a default value
        if pattern is None or pattern.type != "identifier":
            return None  # an optional or rest parameter, a pattern
        out.append(source.text(pattern))
    return out


def _registered(
    source: ParsedText, function: Node, resolve: Callable[[str], str | None]
) -> Call | None:
    """The test call that is the function's whole body, or None."""
    body = function.child_by_field_name("body")
    if body is None:
        return None
    if body.type == "statement_block":
        statements = named(body)
        if len(statements) != 1 or statements[0].type != "expression_statement":
            return None
        inner = named(statements[0])
        expression = inner[0] if len(inner) == 1 else None
    else:
        expression = body
    call = runner_call(source, expression, resolve) if expression is not None else None
    if call is None or call.root not in TESTS or call.modifiers or call.curried:
        return None
    return call


def wrapped_test(
    source: ParsedText, names: Names, expr: Node | None, resolve: Callable[[str], str | None]
) -> tuple[str, Call] | None:
    """`(wrapper name, the call as a test call)` when `expr` is a call of
    the file's own test wrapper (see the module docstring), else None."""
    if expr is None or expr.type != "call_expression":
        return None
    callee = expr.child_by_field_name("function")
    arguments = expr.child_by_field_name("arguments")
    if callee is None or callee.type != "identifier" or arguments is None:
        return None
    if arguments.type != "arguments":
        return None
    name = source.text(callee)
    if not names.known:
        return None
    function = _function_of(names, name)
    if function is None:
        return None
    params = _parameters(source, function)
    inner = _registered(source, function, resolve)
    if params is None or inner is None or not params:
        return None
    passed = [source.text(a) if a.type == "identifier" else None for a in inner.args]
    extra = inner.args[len(params) :]
    if passed[: len(params)] != params or any(a.type != "number" for a in extra):
        return None
    given = tuple(named(arguments))
    if len(given) != len(params):
        return None
    return name, Call(inner.root, (), (), given)


# A test function another file builds (Vitest's `export const volumeTest =
# test.extend({...})`, imported): a camelCase name ending in `Test` or `It`.
_IMPORTED_TEST = re.compile(r"[a-z]\w*(?:Test|It)\Z")


def imported_test(source: ParsedText, expr: Node | None) -> bool:
    """Whether the statement `expr` is a call `xTest('title', fn)` of a
    test function built elsewhere (`_IMPORTED_TEST`, no modifier such as
    `.skip`): a string or template title first and a function last.  The
    engine cannot see what such a callee does, so the unit keeps its role
    (COLLECTION); it is a test case (`Unit.test`) for `test_evidence`."""
    if expr is None or expr.type != "call_expression":
        return False
    callee, args = expr.child_by_field_name("function"), expr.child_by_field_name("arguments")
    if callee is None or args is None or callee.type != "identifier":
        return False
    parts = named(args)
    return (
        _IMPORTED_TEST.match(source.text(callee)) is not None
        and len(parts) >= 2
        and parts[0].type in ("string", "template_string")
        and parts[-1].type in _FUNCTIONS
    )
