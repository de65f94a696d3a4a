"""Loops that only define tests over a literal table (`table_loop`):

    for (const [name, make] of Object.entries(DISPATCHERS)) { test(`${name}`, ...) }
    for (const seed of [1, 2, 3]) { describe(...) }
    ['chunked', 'gzip, chunked'].forEach(function (te) { it(...) })

When the file loads, such a loop reads a table of literals and calls the
runner once a row; the splitter opens its body as it opens a describe's
(`Splitter.loop`), so the tests it defines are cases and a changed table is
a changed unit.  A loop is one only when running it runs none of the file's
or the project's code:

* the table is an array or object literal (`Object.entries`, `.keys` or
  `.values` of one, with `Object` the global), written in the loop or the
  value of the file's one binding of that name, a declaration before the
  loop in a block around it that nothing assigns (`Names.declared_value`);
  every part of it only defines (`Loading.inert`), no object in it has a
  method, a getter, a spread, a computed key or a `__proto__` (destructuring
  a row reads its properties), and no array in it or pattern has a hole;
* the loop binds its row with `const` or `let` (a `for...of`), or as the
  one parameter of a function literal (`forEach`), without defaults, by a
  name or a pattern the rows' shapes fit (`[a, b]` only from rows that are
  array literals, `{ a }` only from object literals): destructuring
  anything else may call an iterator or a getter;
* a name the loop binds stands for a literal in every row (a string, a
  number, ...) where the body's titles and options substitute it
  (`Pure.value`, through `Pure.literal_names`, in the body's range only:
  a value declared elsewhere that reads the same name reads another
  binding), unless the body binds that name again; a name holding a
  function or an object is code there, as any name is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from gate.drift._treesitter import COMMENTS, ParsedText, named
from gate.drift.js.names import FUNCTIONS, Names

if TYPE_CHECKING:
    from tree_sitter import Node

    from gate.drift.js.loading import Loading

# A row's shape: a literal, anything else, or an array or object literal of shapes.
LITERAL = "literal"
OTHER = "other"
Shape = str | list["Shape"] | dict[str, "Shape"]

_PRIMITIVES = frozenset({"number", "string", "true", "false", "null", "undefined"})
_ENTRIES = {"entries", "keys", "values"}


class TableLoop(NamedTuple):
    """A loop `table_loop` accepts: a short label, its body (a statement
    block, or the expression of an arrow function: `forEach((n) => it(...))`),
    and the names it binds that hold a literal in every row."""

    label: str
    body: Node
    literals: frozenset[str]


class _NotATable(Exception):
    pass


def table_loop(source: ParsedText, names: Names, loading: Loading, node: Node) -> TableLoop | None:
    """The loop over a literal table the statement `node` is, or None (see
    the module's docstring)."""
    try:
        found = _loop_parts(source, node)
        if found is None:
            return None
        pattern, table, body, label = found
        rows = _rows(source, names, loading, table)
        bound = _bind(source, pattern, rows)
    except _NotATable:
        return None
    literals = {name for name, literal in bound.items() if literal}
    literals -= names.rebound_within(body, literals)  # there the name may hold anything
    return TableLoop(label, body, frozenset(literals))


def _loop_parts(source: ParsedText, node: Node) -> tuple[Node, Node, Node, str] | None:
    """(row pattern, table, body, label) of a `for...of` or `forEach` statement."""
    if node.type == "for_in_statement":
        kind = node.child_by_field_name("kind")
        operator = node.child_by_field_name("operator")
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        body = node.child_by_field_name("body")
        if kind is None or source.text(kind) not in ("const", "let"):
            return None
        if operator is None or source.text(operator) != "of" or left is None or right is None:
            return None
        if body is None or body.type != "statement_block":
            return None
        label = f"for ({source.text(kind)} {_short(source, left)} of {_short(source, right)})"
        return left, right, body, label
    if node.type != "expression_statement" or len(named(node)) != 1:
        return None
    call = named(node)[0]
    function = call.child_by_field_name("function") if call.type == "call_expression" else None
    args = call.child_by_field_name("arguments") if call.type == "call_expression" else None
    if function is None or args is None or function.type != "member_expression":
        return None
    prop = function.child_by_field_name("property")
    table = function.child_by_field_name("object")
    if prop is None or table is None or source.text(prop) != "forEach":
        return None
    parts = named(args) if args.type == "arguments" else []
    if len(parts) != 1 or parts[0].type not in FUNCTIONS:
        return None
    callback = parts[0]
    body = callback.child_by_field_name("body")  # a block, or an arrow's expression
    if body is None or (body.type != "statement_block" and callback.type != "arrow_function"):
        return None
    params = callback.child_by_field_name("parameters")
    single = callback.child_by_field_name("parameter")  # `x => {...}`
    if single is not None:
        pattern = single
    elif params is not None and len(named(params)) == 1:
        param = named(params)[0]
        if param.type in ("required_parameter", "optional_parameter"):  # TypeScript
            if param.type == "optional_parameter" or param.child_by_field_name("value"):
                return None
            inner = param.child_by_field_name("pattern")
            if inner is None:
                return None
            param = inner
        pattern = param
    else:
        return None
    return pattern, table, body, f"{_short(source, table)}.forEach({_short(source, pattern)})"


def _short(source: ParsedText, node: Node, limit: int = 60) -> str:
    text = " ".join(source.text(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _rows(source: ParsedText, names: Names, loading: Loading, table: Node) -> list[Shape]:
    """The shapes of a literal table's rows."""
    entries = ""
    if table.type == "call_expression":
        function = table.child_by_field_name("function")
        args = table.child_by_field_name("arguments")
        parts = named(args) if args is not None and args.type == "arguments" else []
        if function is None or function.type != "member_expression" or len(parts) != 1:
            raise _NotATable
        obj = function.child_by_field_name("object")
        prop = function.child_by_field_name("property")
        if obj is None or prop is None or source.text(obj) != "Object":
            raise _NotATable
        if not names.free("Object") or source.text(prop) not in _ENTRIES:
            raise _NotATable
        entries, table = source.text(prop), parts[0]
    if table.type == "identifier":
        value = names.declared_value(source.text(table), table)
        if value is None:
            raise _NotATable
        table = value
    if not loading.inert(table):
        raise _NotATable
    shape = _shape(source, table)
    if entries:
        if not isinstance(shape, dict):
            raise _NotATable
        if entries == "keys":
            return [LITERAL for _ in shape]
        if entries == "values":
            return list(shape.values())
        return [[LITERAL, v] for v in shape.values()]
    if not isinstance(shape, list):
        raise _NotATable
    return shape


def _shape(source: ParsedText, node: Node) -> Shape:
    """The shape of an inert value: literals, array and object literals of
    shapes; raises for an object literal that runs code when read."""
    kind = node.type
    while kind in ("parenthesized_expression", "as_expression", "satisfies_expression"):
        node = named(node)[0]
        kind = node.type
    if kind in _PRIMITIVES:
        return LITERAL
    if kind == "template_string" and not any(
        c.type == "template_substitution" for c in named(node)
    ):
        return LITERAL
    if kind == "unary_expression" and source.text(node)[:1] in "-+" and named(node):
        return LITERAL if named(node)[0].type == "number" else OTHER
    if kind == "array":
        _no_holes(node)
        parts = [c for c in named(node) if c.type not in COMMENTS]
        if any(c.type == "spread_element" for c in parts):
            raise _NotATable
        return [_shape(source, c) for c in parts]
    if kind == "object":
        out: dict[str, Shape] = {}
        for part in named(node):
            if part.type in COMMENTS:
                continue
            if part.type == "shorthand_property_identifier":
                out[source.text(part)] = OTHER
                continue
            if part.type != "pair":
                raise _NotATable  # a method, a getter, a spread
            key = part.child_by_field_name("key")
            value = part.child_by_field_name("value")
            if key is None or value is None:
                raise _NotATable
            if key.type == "property_identifier":
                name = source.text(key)
            elif key.type in ("string", "number"):
                name = source.text(key).strip("'\"") if key.type == "string" else source.text(key)
            else:
                raise _NotATable  # a computed key
            if name == "__proto__":  # sets the row's prototype, whose getters a read may run
                raise _NotATable
            out[name] = _shape(source, value)
        return out
    return OTHER


def _bind(source: ParsedText, pattern: Node, rows: list[Shape]) -> dict[str, bool]:
    """Each name `pattern` binds from the rows -> whether it holds a literal
    in every row; raises where destructuring a row may run code."""
    kind = pattern.type
    if kind == "identifier":
        return {source.text(pattern): all(r == LITERAL for r in rows)}
    out: dict[str, bool] = {}

    def merge(found: dict[str, bool]) -> None:
        for name, literal in found.items():
            out[name] = out.get(name, True) and literal

    if kind == "array_pattern":
        _no_holes(pattern)
        if not all(isinstance(r, list) for r in rows):
            raise _NotATable
        for i, part in enumerate(c for c in named(pattern) if c.type not in COMMENTS):
            if part.type not in ("identifier", "array_pattern", "object_pattern"):
                raise _NotATable  # a default, a rest
            column = [r[i] if isinstance(r, list) and i < len(r) else LITERAL for r in rows]
            merge(_bind(source, part, column))
        return out
    if kind == "object_pattern":
        if not all(isinstance(r, dict) for r in rows):
            raise _NotATable
        for part in named(pattern):
            if part.type in COMMENTS:
                continue
            if part.type == "shorthand_property_identifier_pattern":
                key, inner = source.text(part), None
            elif part.type == "pair_pattern":
                key_node = part.child_by_field_name("key")
                inner = part.child_by_field_name("value")
                if key_node is None or inner is None or key_node.type != "property_identifier":
                    raise _NotATable
                if inner.type not in ("identifier", "array_pattern", "object_pattern"):
                    raise _NotATable
                key = source.text(key_node)
            else:
                raise _NotATable  # a default, a rest
            column = [r.get(key, LITERAL) if isinstance(r, dict) else OTHER for r in rows]
            if inner is None:
                merge({key: all(c == LITERAL for c in column)})
            else:
                merge(_bind(source, inner, column))
        return out
    raise _NotATable


def _no_holes(node: Node) -> None:
    """Raise for an array literal or pattern with a hole (`[, x]`): its
    named parts would not be its places."""
    previous = ""
    for child in node.children:
        if child.type in COMMENTS:
            continue
        if child.type == "," and previous in ("[", ","):
            raise _NotATable
        previous = child.type
