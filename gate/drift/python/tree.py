"""The one Python syntax-tree toolkit, for the engine and the content rules.

The tree walked once: each node's children kept on the node (`child_nodes`,
`walk`), each statement's nodes and the names it binds computed once per
file (`Walked`), and the shapes every check reads off a node (`dotted`
names, `chain_root`, `parameters`, `target_names`), and a tree dumped as
`Unit.same` compares it (`dump`).

A Python file as its top-level statements, for the content rules that
judge Python (`keep_symbols`, `confine_to_symbols`): `module_statements`
parses one version of a file from its bytes, as Python reads it (a
byte-order mark, a coding declaration), and walks each top-level
statement once: its lines, what it defines, declares, binds, rebinds or
changes at module level, now or when a function in it runs, and which
module names it reads (`Statement`).  A version that is not Python is
`NotPython`, a rule failure (`gate.rules._opening.both_statements` turns
it into the failing verdict); one Python's parser cannot hold (too deep)
is a `GateError`, never a verdict.  Pure.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache

from gate.base.errors import GateError
from gate.base.paths import quoted
from gate.base.text import encode, python_encoding_problem
from gate.model.report import Finding

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
    return _child_list(node)


def _child_list(node: ast.AST) -> list[ast.AST]:
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
            out += [item for item in value if isinstance(item, ast.AST)]
    node.__dict__["_gate_children"] = out
    return out


def walk(node: ast.AST) -> list[ast.AST]:
    """`list(ast.walk(node))`: the same nodes, in the same order (each
    node's `child_nodes`, read here without a call per node)."""
    out = [node]
    i = 0
    while i < len(out):
        one = out[i]
        held = one.__dict__.get("_gate_children")
        out += held if held is not None else _child_list(one)
        i += 1
    return out


# The nodes that bind a name where they stand: a name stored, a def or
# class, an import's alias, `except ... as`, a `match` capture.
BINDING_KINDS = frozenset(
    {
        ast.Name,
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.ClassDef,
        ast.alias,
        ast.ExceptHandler,
        ast.MatchAs,
        ast.MatchStar,
        ast.MatchMapping,
    }
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
            # kept on the node too, but for the node itself (no reference
            # cycle): a statement the parser reuses in the file's next
            # version (`parsed.parse_module`) is walked once
            below = node.__dict__.get("_gate_walked")
            if below is None:
                if isinstance(node, ast.ClassDef):
                    found = [node]
                    for child in child_nodes(node):
                        found.extend(self.of(child))
                else:
                    found = walk(node)
                node.__dict__["_gate_walked"] = found[1:]
            else:
                found = [node, *below]
            self._nodes[id(node)] = found
        return found

    def binds(self, node: ast.AST) -> list[tuple[str, int]]:
        """(name, weight) for each binding in `node`'s nodes: a name stored
        or deleted (1; an `except ... as name` and a `match` capture too), a
        `def`/`class` name or an imported name (2); never changed by a caller."""
        found = self._binds.get(id(node))
        if found is None:
            # kept on the node too, as its nodes are (`of`)
            found = node.__dict__.get("_gate_binds")
            if found is not None:
                assert isinstance(found, list)
                self._binds[id(node)] = found
                return found
            found = []
            for sub in self.of(node):
                if type(sub) not in BINDING_KINDS:
                    continue
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
                    found.append((sub.id, 1))
                elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    found.append((sub.name, 2))
                elif isinstance(sub, ast.alias):
                    found.append(((sub.asname or sub.name).split(".")[0], 2))
                elif isinstance(sub, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
                    if sub.name is not None:
                        found.append((sub.name, 1))
                elif isinstance(sub, ast.MatchMapping) and sub.rest is not None:
                    found.append((sub.rest, 1))
            self._binds[id(node)] = node.__dict__["_gate_binds"] = found
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


# Where a node is evaluated: the module itself, a function or lambda body, a
# class body, or a comprehension (whose `:=` binds in the nearest enclosing
# scope that is not a comprehension: the module, or not).
_MODULE, _FUNCTION, _CLASS, _COMP_IN_MODULE, _COMP_ELSEWHERE = range(5)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_COMPOUND: dict[type[ast.AST], str] = {
    ast.If: "if",
    ast.For: "for",
    ast.AsyncFor: "async for",
    ast.While: "while",
    ast.Try: "try",
    ast.With: "with",
    ast.AsyncWith: "async with",
    ast.Match: "match",
}
if hasattr(ast, "TryStar"):  # Python 3.11+
    _COMPOUND[ast.TryStar] = "try"
_KINDS: dict[type[ast.AST], str] = {
    ast.FunctionDef: "a `def`",
    ast.AsyncFunctionDef: "an `async def`",
    ast.ClassDef: "a `class`",
    ast.Assign: "an assignment",
    ast.AnnAssign: "an annotated assignment",
    ast.AugAssign: "an augmented assignment",
    ast.Delete: "`del`",
    ast.Import: "an import",
    ast.ImportFrom: "an import",
    ast.Expr: "an expression",
}


@dataclass(frozen=True)
class Statement:
    """One top-level statement of a Python module and the module-level names
    it touches when it runs.

    `first`/`last` are 1-based lines (`first` is the first decorator's line).
    `defines` are the symbols it defines: a `def`/`class` name, the targets
    of an assignment (`X = ...`, each name of `A, (B, *C) = ...`,
    `X: T = ...`).  `declares` are bare annotations (`X: T`).  `binds` are
    all names it binds, rebinds or deletes at module level (`defines`
    included; also `:=` anywhere outside a function body, imports, `del`,
    `for`/`with`/`except ... as`/`match` targets of top-level blocks).
    `mutates` are names whose object it changes through an attribute or
    item target (`helper.x = 1`).  `rebinders` are `(name, line)` of each
    `global name` in a function or class inside it: calling that function
    may rebind the name.  `star` is a `from m import *`, which may bind any
    name.  `reads` are the module names it reads while it runs.
    """

    first: int
    last: int
    kind: str
    defines: frozenset[str]
    declares: frozenset[str]
    binds: frozenset[str]
    mutates: frozenset[str]
    rebinders: tuple[tuple[str, int], ...]
    star: bool
    reads: frozenset[str]

    def touches(self) -> frozenset[str]:
        """Every module-level name the statement may bind, rebind, delete,
        annotate or change through an attribute or item, now or when a
        function in it runs (`*` for a star import)."""
        names = self.binds | self.declares | self.mutates | {n for n, _ in self.rebinders}
        return names | {"*"} if self.star else names


class NotPython(Exception):
    """A version of a file that content rules cannot read as Python."""

    def __init__(self, message: str, finding: Finding | None) -> None:
        super().__init__(message)
        self.message = message
        self.findings = (finding,) if finding is not None else ()


def module_statements(path: str, side: str, text: str | None) -> list[Statement]:
    """The top-level statements of one version of a Python file (none when
    the file is absent), parsed by Python from the file's bytes, so line
    numbers index `gate.base.text.lines` and a byte-order mark or a coding
    declaration is read as Python reads it.

    Raises `NotPython` (a rule failure) when the text is not Python, or
    declares an encoding under which Python's lines are not its bytes'
    (`gate.base.text.python_encoding_problem`: UTF-7, HZ), and
    `GateError` (cannot judge, exit 2, naming the file) when Python's parser
    runs out of stack or memory (deeply nested expressions: `((((...` or
    `a+a+...+a` by the hundred thousand): never a crash, never a verdict.
    """
    if text is None:
        return []
    return list(_statements(path, side, text))


# Kept: `gate lab` parses a file's base version once for all its patches,
# and keep_symbols and confine_to_symbols share each parse: two thirds of the
# lab's parses (docs/development.md, "Measured choices in the rubric loader
# and the rules").  Statements are frozen; an error is not remembered.
@lru_cache(maxsize=16)
def _statements(path: str, side: str, text: str) -> tuple[Statement, ...]:
    try:
        data = encode(text)
        tree = ast.parse(data)
    except SyntaxError as exc:
        raise NotPython(*syntax_problem(path, side, exc)) from None
    except ValueError as exc:  # NUL bytes; a text no file decodes to
        raise NotPython(
            f"the {side} version of {quoted(path)} is not Python source: {exc}", None
        ) from None
    except (RecursionError, MemoryError) as exc:
        raise GateError(
            f"the {side} version of {quoted(path)} nests too deeply for Python's parser "
            f"({type(exc).__name__}): the gate cannot judge it, and Python cannot import "
            "it either; split the expression"
        ) from None
    encoding = python_encoding_problem(data)
    if encoding is not None:
        raise NotPython(
            f"the {side} version of {quoted(path)} declares the source encoding {encoding}, "
            "under which Python's lines are not the lines of its bytes (a character that "
            "decodes to a line break, or a line break that decodes to nothing): the rule "
            "cannot tell which lines changed; save the file as UTF-8",
            None,
        )
    return tuple(_statement(node) for node in tree.body)


def syntax_problem(path: str, side: str, exc: SyntaxError) -> tuple[str, Finding]:
    """Message and finding for a version of `path` that is not Python."""
    line = exc.lineno
    where = f" at line {line}" if line is not None else ""
    detail = exc.msg or "invalid syntax"
    message = f"the {side} version of {quoted(path)} does not parse as Python{where}: {detail}"
    return message, Finding(path=path, message=message, line=line if side == "head" else None)


def _defines(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {name for target in node.targets for name in target_names(target)}
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return set(target_names(node.target))
    alias = getattr(ast, "TypeAlias", None)  # `type X = ...`, Python 3.12+
    if alias is not None and isinstance(node, alias):
        return set(target_names(node.name))
    return set()


def _root_name(node: ast.expr) -> str | None:
    """`helper` for `helper.x[0].y`; None when the chain starts elsewhere (`f().x`)."""
    root = chain_root(node)
    return root.id if isinstance(root, ast.Name) else None


def _signature(args: ast.arguments) -> list[ast.expr]:
    """The parts of a signature evaluated where the function is defined."""
    out: list[ast.expr] = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    out.extend(a.annotation for a in parameters(args) if a.annotation is not None)
    return out


def _children(node: ast.AST) -> list[ast.AST]:
    """The child nodes that can bind or read a name (not constants or contexts)."""
    out: list[ast.AST] = []
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            out.extend(v for v in value if isinstance(v, ast.AST) and type(v) not in _INERT)
        elif isinstance(value, ast.AST) and type(value) not in _INERT:
            out.append(value)
    return out


_INERT = {ast.Constant, ast.Load, ast.Store, ast.Del}
_SPECIAL = {
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    *_COMPREHENSIONS,
    ast.NamedExpr,
    ast.Global,
    ast.Name,
    ast.Import,
    ast.ImportFrom,
    ast.AnnAssign,
    ast.Attribute,
    ast.Subscript,
    ast.ExceptHandler,
    ast.MatchAs,
    ast.MatchStar,
    ast.MatchMapping,
}


def _statement(stmt: ast.stmt) -> Statement:
    """Walk one top-level statement (iteratively: any depth Python parsed)."""
    binds: set[str] = set()
    declares: set[str] = set()
    mutates: set[str] = set()
    reads: set[str] = set()
    rebinders: list[tuple[str, int]] = []
    star = False
    stack: list[tuple[ast.AST, int]] = [(stmt, _MODULE)]
    while stack:
        node, scope = stack.pop()
        if type(node) not in _SPECIAL:  # most nodes: just look inside
            stack.extend((n, scope) for n in _children(node))
            continue
        here = scope == _MODULE
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                if scope in (_MODULE, _COMP_IN_MODULE):
                    reads.add(node.id)
            elif here:
                binds.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if here:
                binds.add(node.name)
            outer: list[ast.AST] = [*node.decorator_list, *_signature(node.args)]
            if node.returns is not None:
                outer.append(node.returns)
            stack.extend((n, scope) for n in outer)
            stack.extend((n, _FUNCTION) for n in node.body)
        elif isinstance(node, ast.ClassDef):
            if here:
                binds.add(node.name)
            stack.extend((n, scope) for n in (*node.decorator_list, *node.bases))
            stack.extend((k.value, scope) for k in node.keywords)
            stack.extend((n, _CLASS) for n in node.body)
        elif isinstance(node, ast.Lambda):
            stack.extend((n, scope) for n in _signature(node.args))
            stack.append((node.body, _FUNCTION))
        elif isinstance(node, _COMPREHENSIONS):
            inner = _COMP_IN_MODULE if scope in (_MODULE, _COMP_IN_MODULE) else _COMP_ELSEWHERE
            gen0, *rest = node.generators
            stack.append((gen0.iter, scope))  # evaluated outside the comprehension
            parts: list[ast.AST] = [gen0.target, *gen0.ifs]
            for gen in rest:
                parts.extend((gen.target, gen.iter, *gen.ifs))
            if isinstance(node, ast.DictComp):
                parts.extend((node.key, node.value))
            else:
                parts.append(node.elt)
            stack.extend((n, inner) for n in parts)
        elif isinstance(node, ast.NamedExpr):
            if scope in (_MODULE, _COMP_IN_MODULE) and isinstance(node.target, ast.Name):
                binds.add(node.target.id)
            stack.append((node.value, scope))
        elif isinstance(node, ast.Global):
            if not here:
                rebinders.extend((name, node.lineno) for name in node.names)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if here:
                for alias in node.names:
                    if alias.name == "*":
                        star = True
                    else:
                        binds.add(alias.asname or alias.name.split(".")[0])
        elif (
            here
            and isinstance(node, ast.AnnAssign)
            and node.value is None
            and isinstance(node.target, ast.Name)
        ):
            declares.add(node.target.id)  # `X: T` annotates X but binds nothing
            stack.append((node.annotation, scope))
        else:
            if here:
                name = _pattern_name(node)
                if name is not None:
                    binds.add(name)
                if isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(
                    node.ctx, ast.Load
                ):
                    root = _root_name(node)
                    if root is not None:
                        mutates.add(root)
            stack.extend((n, scope) for n in _children(node))
    first = stmt.lineno
    decorators = getattr(stmt, "decorator_list", None)
    if decorators:
        first = min(first, *(d.lineno for d in decorators))
    last = stmt.end_lineno if stmt.end_lineno is not None else stmt.lineno
    compound = _COMPOUND.get(type(stmt))
    kind = f"a top-level `{compound}` statement" if compound else _KINDS.get(type(stmt), "")
    return Statement(
        first=first,
        last=last,
        kind=kind or f"a `{type(stmt).__name__.lower()}` statement",
        defines=frozenset(_defines(stmt)),
        declares=frozenset(declares),
        binds=frozenset(binds),
        mutates=frozenset(mutates),
        rebinders=tuple(sorted(rebinders, key=lambda r: (r[1], r[0]))),
        star=star,
        reads=frozenset(reads),
    )


def _pattern_name(node: ast.AST) -> str | None:
    """The name an `except ... as` clause or a `match` pattern binds, if any."""
    if isinstance(node, ast.ExceptHandler):
        return node.name
    if isinstance(node, (ast.MatchAs, ast.MatchStar)):
        return node.name
    if isinstance(node, ast.MatchMapping):
        return node.rest
    return None


def dump(node: ast.AST) -> str:
    """`ast.dump(node)`, but for the whitespace of a string that stands as a
    statement of its own (a docstring): runs of spaces, tabs and line breaks
    there count as one space, unless it holds `>>>` (a doctest, whose
    expected output is compared as written).  Pytest and unittest read a
    docstring only to show it.  Kept on the node: a statement the parser
    reuses in the file's next version (`parsed.parse_module`) is dumped once."""
    held = node.__dict__.get("_gate_dump")
    if held is not None:
        return held  # type: ignore[no-any-return]
    prose = [sub.value for sub in walk(node) if is_prose(sub)]  # type: ignore[attr-defined]
    if not prose:
        held = ast.dump(node)
    else:
        # the docstrings' words put in place for the dump, then put back
        # (the nodes are shared: a copy of the tree would copy what is kept on them)
        written = [constant.value for constant in prose]
        try:
            for constant in prose:
                constant.value = " ".join(str(constant.value).split())
            held = ast.dump(node)
        finally:
            for constant, value in zip(prose, written, strict=True):
                constant.value = value
    node.__dict__["_gate_dump"] = held
    return held


def prose_docstring(body: list[ast.stmt], walked: Walked) -> ast.stmt | None:
    """A module's docstring (its first statement, a string) when it is prose:
    it holds no `>>>` (a doctest) and no code of the module spells `__doc__`
    (a name, an attribute, a string) or `getdoc`.  Pytest and unittest never
    read it; its words change no test.  None when the module has no such
    docstring."""
    if not body or not is_prose(body[0]):
        return None
    if any(_spells_doc(statement, walked) for statement in body):
        return None
    return body[0]


def _spells_doc(statement: ast.stmt, walked: Walked) -> bool:
    """Whether a node of `statement` spells `__doc__` or `getdoc`; kept on
    the statement (one the parser reuses in the file's next version is
    walked once)."""
    held: bool | None = statement.__dict__.get("_gate_spells_doc")
    if held is None:
        held = False
        for sub in walked.of(statement):
            if (
                (isinstance(sub, ast.Name) and sub.id in _DOC_READERS)
                or (isinstance(sub, ast.Attribute) and sub.attr in _DOC_READERS)
                or (isinstance(sub, ast.Constant) and sub.value in _DOC_READERS)
            ):
                held = True
                break
        statement.__dict__["_gate_spells_doc"] = held
    return held


_DOC_READERS = frozenset({"__doc__", "getdoc"})


def docstring(node: ast.AST) -> str | None:
    """The words of `node` when it is a string statement (a docstring, when
    it opens a module's, a class's or a function's body), else None."""
    if isinstance(node, ast.Expr):
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return None


def is_prose(node: ast.AST) -> bool:
    """A string statement (a docstring) that holds no doctest."""
    if not isinstance(node, ast.Expr):  # most nodes, answered without a call
        return False
    words = docstring(node)
    return words is not None and ">>>" not in words
