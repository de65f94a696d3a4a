"""A store a Python function undoes itself (`restored`): a module's
attribute patched for the length of one call and put back in a `finally`
of the same code, so no other test ever sees the patched value:

    original = clamp_kit.LIMIT
    clamp_kit.LIMIT = 9              # or the first statements of the try
    try:
        ...
    finally:
        clamp_kit.LIMIT = original

A store `P = value` (`P` a dotted chain of plain attributes, none a dunder)
is restored when all of these hold:

* the statement is `P = ...` alone, and it is a statement of the `try`
  body itself or the statement right before the `try` (nothing that may
  raise stands between the store and the `try`);
* the `try` has a `finally` whose first statements are plain restores
  (`Q = name`), exactly one of them `P = original`;
* `original = P` is a statement of the list that holds the `try`, before
  every store of `P`, and the code binds `original` nowhere else (no
  second assignment, loop target, `global` or `nonlocal` of it);
* every other store or `del` of `P` in the code is another such store of
  the same `try`, or its restore (a store after the `finally`, in a
  nested function, or by `+=` keeps it shared);
* the code has no `yield` (a generator's `finally` runs whenever it is
  closed, after other tests).

The store itself may be out of sight, made by a call that configures the
module (`mod.configure(cache=...)` between `original = mod.cache` and the
`try`): the restore alone is then the code's one store of `P`, and it puts
back the value read before the `try`.

Anything else the code does is judged as ever
(`gate.drift.python.shared.shares_state`)."""

from __future__ import annotations

import ast

from gate.drift.python.tree import child_nodes, dotted


def _path(node: ast.expr) -> str:
    """`a.b.c` for a chain of plain attributes of a name (no call, no item,
    no dunder), else ''."""
    probe = node
    while isinstance(probe, ast.Attribute):
        if probe.attr.startswith("__"):
            return ""
        probe = probe.value
    return dotted(node) if isinstance(probe, ast.Name) and probe is not node else ""


def _plain(statement: ast.stmt) -> str:
    """The path a statement `P = value` stores into, else ''."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        return _path(statement.targets[0])
    return ""


def _restores(final: list[ast.stmt]) -> dict[str, list[tuple[str, ast.Assign]]]:
    """The leading plain restores `P = name` of a `finally` body."""
    out: dict[str, list[tuple[str, ast.Assign]]] = {}
    for statement in final:
        path = _plain(statement)
        if not path or not isinstance(statement, ast.Assign):
            break
        if not isinstance(statement.value, ast.Name):
            break
        out.setdefault(path, []).append((statement.value.id, statement))
    return out


def _lists(node: ast.AST) -> list[list[ast.stmt]]:
    """Every statement list in `node` (bodies, `else`, `finally`, handlers)."""
    found: list[list[ast.stmt]] = []
    todo: list[ast.AST] = [node]
    while todo:
        sub = todo.pop()
        for field in ("body", "orelse", "finalbody"):
            value = getattr(sub, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                found.append(value)
        todo.extend(child_nodes(sub))
    return found


def restored(node: ast.AST, nodes: list[ast.AST]) -> set[int]:
    """The ids of the attribute store targets in `node` that the code puts
    back in a `finally` of its own (see the module docstring); `nodes`:
    `ast.walk(node)`."""
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return set()
    stores: dict[str, list[ast.expr]] = {}
    bindings: dict[str, int] = {}
    declared: set[str] = set()
    for sub in nodes:
        if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            stores.setdefault(dotted(sub), []).append(sub)
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            bindings[sub.id] = bindings.get(sub.id, 0) + 1
        elif isinstance(sub, (ast.Global, ast.Nonlocal)):
            declared.update(sub.names)
    out: set[int] = set()
    for statements in _lists(node):
        for i, guard in enumerate(statements):
            if not isinstance(guard, ast.Try):  # `try`/`except*` is not read: stricter
                continue
            for path, undone in _restores(guard.finalbody).items():
                if len(undone) != 1:
                    continue  # a second restore may put back another value
                saved, restore = undone[0]
                writes = [s for s in guard.body if _plain(s) == path]
                if i > 0 and _plain(statements[i - 1]) == path:
                    writes.insert(0, statements[i - 1])
                targets = {id(t) for w in writes if isinstance(w, ast.Assign) for t in w.targets}
                targets.add(id(restore.targets[0]))
                if any(id(t) not in targets for t in stores.get(path, [])):
                    continue  # another store of the path: after the finally, nested, `+=`
                if bindings.get(saved) != 1 or saved in declared:
                    continue
                first = statements.index(writes[0]) if writes and writes[0] in statements else i
                if any(_saves(s, saved, path) for s in statements[:first]):
                    out |= targets
    return out


def _saves(statement: ast.stmt, saved: str, path: str) -> bool:
    """Whether `statement` is `saved = P` (`P` spelled `path`)."""
    return (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id == saved
        and _path(statement.value) == path
    )
