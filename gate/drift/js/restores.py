"""A store a JS/TS test undoes itself (`restored`): a global or a module's
member patched for the length of one test and put back in a `finally` of
the same code, so no other test ever sees the patched value:

    const original = process.cwd;
    process.cwd = () => '/root';        // or the first statements of the try
    try {
      ...
    } finally {
      process.cwd = original;
    }

A store `P = value` (`P` a name or a chain of plain members, `(process as
any).cwd`) is restored when all of these hold:

* the statement is `P = ...` alone, and it is a statement of the `try`
  block itself or the statement right before the `try` (nothing that may
  throw stands between the store and the `try`);
* the `try` has a `finally` whose first statements are plain restores
  (`Q = name;`), one of them `P = original;`;
* `const original = P;` is a statement of the block that holds the `try`,
  before the store (a `const`: the saved value cannot be rebound; read
  before the first store of `P`, so it is the value every other test sees);
* every other store of `P` in the same code (`scope`) is another such store
  of the same `try`, or its restore: a store after the `finally`, in a
  nested function (which may run after the restore), by `+=`, `++` or
  `delete` keeps it shared;
* the file never runs tests concurrently (no `concurrent` anywhere in it:
  `it.concurrent`, `describe.concurrent`), where another test would run
  while the value is patched.

Anything else the code does is judged as ever (`gate.drift.js.writes`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.drift._treesitter import ParsedText, holder, named
from gate.drift.js.loading import TYPE_WRAPPERS

if TYPE_CHECKING:
    from tree_sitter import Node

_WRAPPERS = TYPE_WRAPPERS | {"parenthesized_expression", "type_assertion", "non_null_expression"}


def path_of(source: ParsedText, node: Node | None) -> str | None:
    """`process.cwd` for `(process as any).cwd` or `process.cwd`: a name and
    plain member names through type wrappers; None for anything else (a
    computed member, a call)."""
    parts: list[str] = []
    while node is not None:
        if node.type in _WRAPPERS and named(node):
            node = named(node)[0]
        elif node.type == "member_expression":
            member = node.child_by_field_name("property")
            if member is None or member.type != "property_identifier":
                return None
            parts.append(source.text(member))
            node = node.child_by_field_name("object")
        elif node.type == "identifier":
            parts.append(source.text(node))
            return ".".join(reversed(parts))
        else:
            return None
    return None


def _statement(assignment: Node) -> Node | None:
    """The expression statement that is the assignment alone, or None."""
    up = assignment.parent
    return up if up is not None and up.type == "expression_statement" else None


def _plain_store(source: ParsedText, target: Node) -> tuple[str, Node, Node] | None:
    """`(path, assignment, statement)` when `target` is the left side of a
    statement `path = value;`, else None."""
    assignment = holder(target, "assignment_expression", "left")
    if assignment is None:
        return None
    statement = _statement(assignment)
    spelled = path_of(source, target)
    if statement is None or spelled is None:
        return None
    return spelled, assignment, statement


def _finalizer(try_statement: Node) -> Node | None:
    clause = try_statement.child_by_field_name("finalizer")
    body = clause.child_by_field_name("body") if clause is not None else None
    return body


def _restores(source: ParsedText, block: Node) -> dict[str, list[tuple[str, Node]]]:
    """The leading plain restores of a `finally` block: path -> [(saved
    name, statement)]; the first statement that is anything else ends them."""
    out: dict[str, list[tuple[str, Node]]] = {}
    for statement in named(block):
        expression = named(statement)[0] if statement.type == "expression_statement" else None
        if expression is None or expression.type != "assignment_expression":
            break
        left = expression.child_by_field_name("left")
        right = expression.child_by_field_name("right")
        spelled = path_of(source, left)
        if spelled is None or right is None or right.type != "identifier":
            break
        out.setdefault(spelled, []).append((source.text(right), statement))
    return out


def _try_of(statement: Node) -> Node | None:
    """The `try` a store statement is guarded by: the `try` whose block
    holds it directly, or the `try` right after it."""
    block = statement.parent
    if block is not None and block.type == "statement_block":
        up = block.parent
        if up is not None and up.type == "try_statement":
            return up if up.child_by_field_name("body") == block else None
    after = statement.next_named_sibling
    while after is not None and after.type == "comment":
        after = after.next_named_sibling
    return after if after is not None and after.type == "try_statement" else None


def _saved(source: ParsedText, holder: Node, name: str, spelled: str, before: int) -> bool:
    """Whether `holder` (the block holding the `try`) has `const name = P;`
    (P spelled `spelled`) as a statement ending before byte `before`."""
    for statement in named(holder):
        if statement.start_byte >= before:
            return False
        if statement.type != "lexical_declaration" or statement.children[0].type != "const":
            continue
        for declarator in named(statement):
            if declarator.type != "variable_declarator":
                continue
            bound = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if (
                bound is not None
                and bound.type == "identifier"
                and source.text(bound) == name
                and path_of(source, value) == spelled
            ):
                return True
    return False


def restored(source: ParsedText, target: Node, stores: list[Node], scope: range) -> bool:
    """Whether the store into `target` is undone in a `finally` of the same
    code (see the module docstring); `stores`: the targets of every store
    (`=`, `+=`, `++`, `delete`, a destructuring or loop head) inside
    `scope`, the code judged."""
    if b"concurrent" in source.data:
        return False
    found = _plain_store(source, target)
    if found is None:
        return False
    spelled, _, statement = found
    guard = _try_of(statement)
    if guard is None:  # perhaps `target` is the restore itself
        clause = statement.parent.parent if statement.parent is not None else None
        guard = clause.parent if clause is not None and clause.type == "finally_clause" else None
    if guard is None:
        return False
    final = _finalizer(guard)
    holder = guard.parent
    if final is None or holder is None or holder.type != "statement_block":
        return False
    undone = _restores(source, final).get(spelled, [])
    if len(undone) != 1:
        return False  # none, or a second restore that may put back another value
    restore_statements = {s.id for _, s in undone}
    writes: list[Node] = []
    for other in stores:
        if not (scope.start <= other.start_byte and other.end_byte <= scope.stop):
            continue
        if path_of(source, other) != spelled:
            continue
        plain = _plain_store(source, other)
        if plain is None:
            return False  # `+=`, `++`, `delete`, a destructuring or loop head
        if plain[2].id in restore_statements:
            continue
        if _try_of(plain[2]) != guard:
            return False  # after the `finally`, in a nested function, elsewhere
        writes.append(plain[2])
    if not writes or not undone:
        return False
    first = min(w.start_byte for w in writes)
    return any(_saved(source, holder, name, spelled, first) for name, _ in undone)
