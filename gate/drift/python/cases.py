"""A Python test function's code as tokens (`Unit.tokens`), and which
pieces of it a head version may insert as new cases (`case_tokens`).

**Tokens** are the function's syntax tree, each node's kind, each field's
name and each leaf's value, without positions: a comment, a line break,
parentheses or another quote change no token (as `Unit.same` compares the
dumped tree), and a docstring's whitespace counts as one space.

**New cases** a test may gain without changing what it checked before
(`gate.drift.grown`), each a complete piece of the head's tree:

* a row of the list or tuple literal that a `@pytest.mark.parametrize`
  (through `pytest` or `from pytest import mark`) gives as its argument
  values, with the argument names first and at most `indirect` beside
  them positionally.  Where its `ids=` is a list or tuple literal, each
  row goes with the id at its index, and a row is a new case only with
  its id inserted at the same index (a row or an id inserted alone
  shifts the ids of the other rows; an id dropped or changed is a
  change).  A new row may carry its own marks
  (`pytest.param(..., marks=pytest.mark.skip)`: the new case is
  skipped); a mark added to an existing row changes it.  Rows reach a
  fixture through `indirect=` as a new test reaches a fixture it
  requests.  A list bound at module level and named in the decorator is
  another unit: its rows are a change of that unit;
* an `assert` statement among the last statements of the function's
  body, after which only such statements follow, whose condition and
  message read only names the rest of the function reads and call only
  builtins that compute a value (`len`, `isinstance`, `str`, `repr`,
  `sorted`, `set`, `list`, `tuple`, `dict`, `any`, `all`, `abs`,
  `round`, `type`, ...) the module never rebinds, with no keyword
  argument; no method call, `:=`, `await`, `yield` or lambda: nothing the
  assertion runs can change what the test or another test sees.

* statements appended after the last statement of the function's body,
  at its own top level, which neither make it a generator nor skip or end
  the run, where the statements before them register nothing that runs
  after the body (`gate.drift.python.appended`).

Anything else inserted (a `pytest.mark.skip` on the test, a statement in
the middle, an `assert x.pop()` before an existing statement) changes the
test.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from gate.drift import Tokens
from gate.drift.python.appended import appended
from gate.drift.python.tree import child_nodes, is_prose, walk

# Builtins an inserted assertion may call: they compute a value only.
PURE_BUILTINS = frozenset(
    {
        "len",
        "isinstance",
        "issubclass",
        "str",
        "repr",
        "sorted",
        "set",
        "frozenset",
        "list",
        "tuple",
        "dict",
        "any",
        "all",
        "abs",
        "round",
        "type",
        "bool",
        "int",
        "float",
        "min",
        "max",
        "sum",
    }
)
# What an inserted assertion may be made of, besides calls of PURE_BUILTINS.
_ASSERTION_NODES = (
    ast.Assert,
    ast.Name,
    ast.Attribute,
    ast.Constant,
    ast.Compare,
    ast.BoolOp,
    ast.UnaryOp,
    ast.BinOp,
    ast.Subscript,
    ast.Slice,
    ast.Tuple,
    ast.List,
    ast.Set,
    ast.Dict,
    ast.JoinedStr,
    ast.FormattedValue,
    ast.expr_context,
    ast.cmpop,
    ast.operator,
    ast.boolop,
    ast.unaryop,
)
_PARAMETRIZE = frozenset({"pytest.mark.parametrize"})


def case_tokens(
    node: ast.FunctionDef | ast.AsyncFunctionDef, origins: Mapping[str, str]
) -> Callable[[], Tokens]:
    """`Unit.tokens` of the test function `node` in a module whose
    imports `origins` names (`gate.drift.python.calls.import_origins`).
    Made once per unit: `compare` asks a changed unit's tokens up to three
    times (`grown`, `inert`), and a file's head in one commit is its base
    in the next (`units` keeps the last texts' units, and with them these
    tokens, no longer)."""
    held: list[Tokens] = []

    def tokens() -> Tokens:
        if not held:
            held.append(_Stream(origins).function(node))
        return held[0]

    return tokens


class _Stream:
    def __init__(self, origins: Mapping[str, str]) -> None:
        self.origins = origins
        self.out: list[str] = []
        self.spans: list[tuple[int, int]] = []
        self.bound: set[str] = set()

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Tokens:
        places: dict[int, tuple[int, int]] = {}
        self.out.append(f"({type(node).__name__}")
        for field in node._fields:
            if field != "body":
                self.field(field, getattr(node, field, None))
                continue
            self.out.append("[body")
            for statement in node.body:
                start = len(self.out)
                self.emit(statement)
                places[id(statement)] = (start, len(self.out))
            self.out.append("]")
        self.out.append(")")
        self.bound = _binds(node)
        for statement in reversed(node.body):
            if not isinstance(statement, ast.Assert):
                break
            if not self.assertion(statement, _reads(node, skip={id(statement)})):
                break
            self.spans.append(places[id(statement)])
        if node.body:
            end = places[id(node.body[-1])][1]
            self.spans.extend((places[id(node.body[k])][0], end) for k in appended(node))
        return Tokens(tuple(self.out), tuple(sorted(set(self.spans))))

    def field(self, name: str, value: object) -> None:
        if isinstance(value, ast.AST):
            self.out.append(f".{name}")
            self.emit(value)
        elif isinstance(value, list):
            self.out.append(f"[{name}")
            for item in value:
                if isinstance(item, ast.AST):
                    self.emit(item)
                else:
                    self.out.append(repr(item))
            self.out.append("]")
        else:
            self.out.append(f"{name}={value!r}")

    def emit(self, node: ast.AST) -> None:
        if isinstance(node, ast.Call) and self.table(node):
            return
        if isinstance(node, ast.Expr) and is_prose(node):
            assert isinstance(node.value, ast.Constant)
            self.out.append(f"(docstring {' '.join(str(node.value.value).split())!r})")
            return
        self.out.append(f"({type(node).__name__}")
        for field in node._fields:
            self.field(field, getattr(node, field, None))
        self.out.append(")")

    def table(self, call: ast.Call) -> bool:
        """Emit a parametrize call with each row (and its id) a span; False
        when `call` is not one whose rows may be inserted."""
        if not self.parametrize(call.func):
            return False
        rows = call.args[1] if len(call.args) > 1 else _keyword(call, "argvalues")
        ids = _keyword(call, "ids")
        if len(call.args) > 3 or not isinstance(rows, (ast.List, ast.Tuple)):
            return False
        labels = ids if isinstance(ids, (ast.List, ast.Tuple)) else None
        paired = labels is not None
        if labels is not None and (
            len(labels.elts) != len(rows.elts) or any(isinstance(e, ast.Starred) for e in rows.elts)
        ):
            return False
        self.out.append("(parametrize")
        self.field("func", call.func)
        self.out.append("[args")
        for arg in call.args:
            self.rows(rows, ids if paired else None) if arg is rows else self.emit(arg)
        self.out.append("]")
        self.out.append("[keywords")
        for keyword in call.keywords:
            if keyword.value is rows:
                self.out.append(f"(keyword {keyword.arg}")
                self.rows(rows, ids if paired else None)
                self.out.append(")")
            elif not (paired and keyword.value is ids):
                self.emit(keyword)
        self.out.append("]")
        self.out.append(")")
        return True

    def rows(self, rows: ast.List | ast.Tuple, ids: ast.expr | None) -> None:
        labels = ids.elts if isinstance(ids, (ast.List, ast.Tuple)) else None
        self.out.append(f"(rows {type(rows).__name__} ids={labels is not None}")
        for i, row in enumerate(rows.elts):
            start = len(self.out)
            self.out.append("(row")
            self.emit(row)
            if labels is not None:
                self.emit(labels[i])
            self.out.append(")")
            self.spans.append((start, len(self.out)))
        self.out.append(")")

    def parametrize(self, func: ast.expr) -> bool:
        """`pytest.mark.parametrize` through the module's imports."""
        parts: list[str] = []
        while isinstance(func, ast.Attribute):
            parts.append(func.attr)
            func = func.value
        if not isinstance(func, ast.Name) or func.id not in self.origins:
            return False
        return ".".join([self.origins[func.id], *reversed(parts)]) in _PARAMETRIZE

    def assertion(self, statement: ast.Assert, reads: set[str]) -> bool:
        """An assertion that computes only (the module's docstring)."""
        for sub in walk(statement):
            if isinstance(sub, ast.Call):
                if not (isinstance(sub.func, ast.Name) and self.builtin(sub.func.id)):
                    return False
                if sub.keywords:
                    return False
            elif not isinstance(sub, _ASSERTION_NODES) or (
                isinstance(sub, ast.Name) and sub.id not in reads and not self.builtin(sub.id)
            ):
                return False
        return True

    def builtin(self, name: str) -> bool:
        """One of `PURE_BUILTINS` that neither the module nor the function rebinds."""
        builtin = self.origins.get(name) == f"builtins.{name}"
        return name in PURE_BUILTINS and builtin and name not in self.bound


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _binds(node: ast.AST) -> set[str]:
    """The names the function `node` binds anywhere inside it."""
    out: set[str] = set()
    for sub in walk(node):
        if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
            out.add(sub.id)
        elif isinstance(sub, ast.arg):
            out.add(sub.arg)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(sub.name)
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in sub.names)
        elif isinstance(sub, (ast.Global, ast.Nonlocal)):
            out.update(sub.names)
    return out


def _reads(node: ast.AST, skip: set[int]) -> set[str]:
    """The names `node` spells (read, bound, its parameters), outside the
    statements `skip` names by id."""
    out: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in skip:
            continue
        if isinstance(current, ast.Name):
            out.add(current.id)
        elif isinstance(current, ast.arg):
            out.add(current.arg)
        stack.extend(child_nodes(current))
    return out
