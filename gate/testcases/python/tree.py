"""The Python syntax tree, walked once: each node's children kept on the
node (`child_nodes`, `walk`), each statement's nodes and the names it binds
computed once per file (`Walked`), the shapes every check reads off a
node (`dotted` names, `chain_root`, `parameters`, `target_names`), and a
tree dumped as `Unit.same` compares it (`dump`)."""

from __future__ import annotations

import ast
from copy import deepcopy

# Each node type's fields, read once: `child_nodes` is `ast.iter_child_nodes`
# without its two generators, and keeps its list on the node.
_FIELDS: dict[type, tuple[str, ...]] = {}


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)`, as a list, in the same order; kept on
    the node (read by the walk and again by `module_loads`), so never
    changed by a caller."""
    held = node.__dict__.get("_gate_children")
    if held is not None:
        return held  # type: ignore[no-any-return]
    kind = type(node)
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(kind._fields)
    out: list[ast.AST] = []
    for field in fields:
        value = getattr(node, field, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST))
    node.__dict__["_gate_children"] = out
    return out


def walk(node: ast.AST) -> list[ast.AST]:
    """`list(ast.walk(node))`: the same nodes, in the same order."""
    out = [node]
    i = 0
    while i < len(out):
        out.extend(child_nodes(out[i]))
        i += 1
    return out


_BINDING_KINDS = frozenset(
    {ast.Name, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.alias}
)


class Walked:
    """Each statement's nodes (`walk`) and the names it binds, computed
    once per file and read by every module-level scan (`import_origins`,
    `trusted_names`, `mark_aliases`, `introspects`) and by the splitter.
    A class's nodes are its members' nodes, so a test class's members are
    walked once, not again for the class."""

    def __init__(self) -> None:
        self._nodes: dict[int, list[ast.AST]] = {}
        self._binds: dict[int, list[tuple[str, int]]] = {}

    def of(self, node: ast.AST) -> list[ast.AST]:
        found = self._nodes.get(id(node))
        if found is None:
            if isinstance(node, ast.ClassDef):
                found = [node]
                for child in child_nodes(node):
                    found.extend(self.of(child))
            else:
                found = walk(node)
            self._nodes[id(node)] = found
        return found

    def binds(self, node: ast.AST) -> list[tuple[str, int]]:
        """(name, weight) for each binding in `node`'s nodes: a name stored
        or deleted (1), a `def`/`class` name or an imported name (2)."""
        found = self._binds.get(id(node))
        if found is None:
            found = []
            for sub in self.of(node):
                if type(sub) not in _BINDING_KINDS:
                    continue
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
                    found.append((sub.id, 1))
                elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    found.append((sub.name, 2))
                elif isinstance(sub, ast.alias):
                    found.append(((sub.asname or sub.name).split(".")[0], 2))
            self._binds[id(node)] = found
        return found


def dotted(node: ast.expr, limit: int = 64) -> str:
    """`a.b.c` for a name or attribute chain, the callee for a call, else ''
    ('' too past `limit` parts: a chain may be as long as Python's parser
    allows, and every node of one is looked at; the checks that use this
    look at the inner, shorter chains too)."""
    parts: list[str] = []
    while len(parts) < limit:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            return ".".join(reversed(parts))
        else:
            return ""
    return ""


def target_names(target: ast.expr) -> list[str]:
    """The plain names an assignment target binds (`a`, `a, *b`, `[a, (b, c)]`)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in target_names(elt)]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


def chain_root(node: ast.expr) -> ast.expr:
    """What an attribute or item chain starts from (`a` of `a.b[0].c`)."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node


def parameters(args: ast.arguments) -> list[ast.arg]:
    """Every parameter of a signature: positional-only, positional,
    keyword-only, then `*args` and `**kwargs`."""
    out = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    out.extend(a for a in (args.vararg, args.kwarg) if a is not None)
    return out


def dump(node: ast.AST) -> str:
    """`ast.dump(node)`, but for the whitespace of a string that stands as a
    statement of its own (a docstring): runs of spaces, tabs and line breaks
    there count as one space, unless it holds `>>>` (a doctest, whose
    expected output is compared as written).  Pytest and unittest read a
    docstring only to show it."""
    if not any(_prose(sub) for sub in ast.walk(node)):
        return ast.dump(node)
    copy = deepcopy(node)
    for sub in ast.walk(copy):
        if _prose(sub):
            assert isinstance(sub, ast.Expr) and isinstance(sub.value, ast.Constant)
            sub.value.value = " ".join(str(sub.value.value).split())
    return ast.dump(copy)


def _prose(node: ast.AST) -> bool:
    """A string statement (a docstring) that holds no doctest."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and ">>>" not in node.value.value
    )
