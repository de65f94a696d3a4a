"""Which module names a unit's code reads (`uses_of`, the `Unit.uses`
that `compare` judges a new binding against): the names its code reads
through the module's namespace, scope by scope (`module_loads`: a name a
function binds is its own), every parameter, the identifiers of strings
that read as names or a type expression, and whether a file reaches its
own globals by computed names (`introspects`), which makes every string's
identifiers count.  Of those, `words_of` are the names only a bare word
spells, a string that no lookup by name is handed (`Unit.words`)."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable

from gate.drift.python.tree import BINDING_KINDS, child_nodes, parameters, walk

_IDENTIFIER = re.compile(r"[^\W\d]\w*")
# What a string may hold to be read as code naming module names: a name, a
# dotted path, a comma-separated list, a type expression (`"db"`, `"a, b"`,
# `"pkg.mod.json"`, `"Foo | None"`, `"dict[str, Any]"`,
# `"Annotated[int, Field(gt=0)]"`).  Prose and data (`"application/json"`,
# a docstring) parse as something else or not at all.
_SHAPED_CHARS = re.compile(r"[\w\s.,|\[\]()'\"=*:/-]+")
_SHAPED_NODES = (
    ast.Expression,
    ast.Name,
    ast.Attribute,
    ast.Subscript,
    ast.Tuple,
    ast.List,
    ast.Constant,
    ast.Call,
    ast.keyword,
    ast.Load,
    ast.BinOp,
    ast.BitOr,
    ast.Starred,
)
# Names whose use lets a module's code reach its own globals by a computed
# name (`globals()[name]`, `sys.modules[__name__]`): where a file's code
# spells one, every identifier in every string counts as a use.
_INTROSPECTION = frozenset(
    {
        "globals",
        "vars",
        "locals",
        "eval",
        "exec",
        "__import__",
        "import_module",
        "modules",
        "__dict__",
        "__globals__",
    }
)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_MATCH_CAPTURES = (ast.MatchAs, ast.MatchStar, ast.MatchMapping)


@functools.lru_cache(maxsize=4096)
def _string_names(value: str) -> tuple[tuple[str, ...], bool]:
    """The identifiers of a string whose whole text reads as names, a
    dotted path, a comma-separated list or a type expression (see
    `_SHAPED_CHARS`), () for prose and data; and whether the text is bare
    words (a name, or names separated by commas: `"db"`, `"a, b"`), which
    reach a module-level name only where a lookup by name is handed them
    (`_lookups`), where a dotted path or a type expression may resolve
    through the module anywhere (`"pkg.mod.json"`, `"json.JSONDecoder"`)."""
    stripped = value.strip()
    if not stripped or not _SHAPED_CHARS.fullmatch(stripped):
        return (), False
    try:
        tree = ast.parse(stripped, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return (), False
    if not all(isinstance(n, _SHAPED_NODES) for n in ast.walk(tree)):
        return (), False
    body = tree.body
    items = body.elts if isinstance(body, ast.Tuple) else [body]
    bare = all(isinstance(n, ast.Name) for n in items)
    return tuple(_IDENTIFIER.findall(stripped)), bare


_NAMING_KINDS = frozenset({ast.Name, ast.Attribute})


def introspects(nodes: Iterable[ast.AST]) -> bool:
    """Whether `nodes` (a module's, walked) spell a way to reach the
    module's globals by a computed name (`_INTROSPECTION`: `globals()`,
    `sys.modules`, `eval`, ...)."""
    for sub in nodes:
        if type(sub) not in _NAMING_KINDS:
            continue
        if isinstance(sub, ast.Name) and sub.id in _INTROSPECTION:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in _INTROSPECTION:
            return True
    return False


_NESTING_KINDS = frozenset(
    {ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, *_COMPREHENSIONS}
)


def _own_nodes(roots: list[ast.AST]) -> tuple[list[ast.AST], list[ast.AST]]:
    """The nodes of one scope's own code, from `roots`, and the nested
    scopes met there (functions, lambdas, classes, comprehensions), whose
    decorators, defaults, annotations, bases and first iterable are
    evaluated in this scope and so are this scope's nodes."""
    stack = list(roots)
    own: list[ast.AST] = []
    nested: list[ast.AST] = []
    while stack:
        node = stack.pop()
        if type(node) not in _NESTING_KINDS:  # the common case, as the last branch below
            own.append(node)
            stack.extend(child_nodes(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            stack.extend(args.defaults)
            stack.extend(d for d in args.kw_defaults if d is not None)
            if not isinstance(node, ast.Lambda):
                own.append(node)  # binds its name here
                stack.extend(node.decorator_list)
                stack.extend(a.annotation for a in parameters(args) if a.annotation is not None)
                if node.returns is not None:
                    stack.append(node.returns)
            nested.append(node)
        elif isinstance(node, ast.ClassDef):
            own.append(node)
            stack.extend((*node.decorator_list, *node.bases, *node.keywords))
            nested.append(node)
        elif isinstance(node, _COMPREHENSIONS):
            stack.append(node.generators[0].iter)
            nested.append(node)
        else:
            own.append(node)
            stack.extend(child_nodes(node))
    return own, nested


# ... and `global`/`nonlocal`, which name a binding of another scope
_BINDING_NODE_KINDS = BINDING_KINDS | {ast.Nonlocal, ast.Global}


def _bound_in(own: list[ast.AST]) -> set[str]:
    """The names a function scope's own nodes bind (so read locally there):
    assignment and `del` targets, imports, `def`/`class` names, `except
    ... as`, match captures, `nonlocal` names; less `global` ones."""
    bound: set[str] = set()
    declared_global: set[str] = set()
    for node in own:
        if type(node) not in _BINDING_NODE_KINDS:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name is not None:
            bound.add(node.name)
        elif isinstance(node, ast.Nonlocal):
            bound.update(node.names)
        elif isinstance(node, ast.Global):
            declared_global.update(node.names)
        elif isinstance(node, _MATCH_CAPTURES):
            for value in (getattr(node, "name", None), getattr(node, "rest", None)):
                if isinstance(value, str):
                    bound.add(value)
    return bound - declared_global


def module_loads(roots: list[ast.AST], scope: str = "module") -> set[str]:
    """The names the code of `roots` reads through the module's namespace
    when it runs: every name read at module level or in a class body
    (where a name the class assigns may still be read from the module
    first; a name a class body only assigns, `time: str` or `time = 1`,
    is a class attribute, not a read), and in a function, lambda or comprehension the names it reads
    that neither it nor an enclosing function binds (a local `import json`
    makes `json` local to that function: a module-level `json` never
    reaches it).  `scope` "class": `roots` are statements of a class body."""
    out: set[str] = set()
    todo: list[tuple[str, list[ast.AST], frozenset[str], frozenset[str]]] = [
        (scope, roots, frozenset(), frozenset())
    ]
    while todo:
        scope, body, enclosing, params = todo.pop()
        own, nested = _own_nodes(body)
        local = _bound_in(own) | params if scope == "function" else set()
        seen = local | enclosing
        # a class body's assignment binds a class attribute, read from the
        # class (`self.time`), not the module's name; an augmented one reads first
        kept = {id(n.target) for n in own if isinstance(n, ast.AugAssign)}
        for node in own:
            if not isinstance(node, ast.Name) or node.id in seen:
                continue
            if scope != "class" or isinstance(node.ctx, ast.Load) or id(node) in kept:
                out.add(node.id)
        inner = enclosing | local if scope == "function" else enclosing
        for node in nested:
            if isinstance(node, ast.ClassDef):
                todo.append(("class", list(node.body), inner, frozenset()))
            elif isinstance(node, _COMPREHENSIONS):
                parts: list[ast.AST] = []
                if isinstance(node, ast.DictComp):
                    parts += [node.key, node.value]
                else:
                    parts.append(node.elt)
                for i, gen in enumerate(node.generators):
                    parts += [gen.target, *gen.ifs] + ([gen.iter] if i else [])
                targets = frozenset(
                    n.id
                    for gen in node.generators
                    for n in ast.walk(gen.target)
                    if isinstance(n, ast.Name)
                )
                todo.append(("function", parts, inner, targets))
            else:
                assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                names = frozenset(a.arg for a in parameters(node.args))
                body_of: list[ast.AST] = (
                    [node.body] if isinstance(node, ast.Lambda) else list(node.body)
                )
                todo.append(("function", body_of, inner, names))
    return out


_USES_KINDS = frozenset({ast.arg, ast.JoinedStr, ast.Constant, ast.Call})
# Keywords that hand a call a name to look up on an object
# (`monkeypatch.setattr(target, name=...)`, `patch.object(target, attribute=...)`).
_LOOKUP_KEYWORDS = frozenset({"name", "attr", "attribute"})


def _lookups(call: ast.Call) -> Iterable[ast.AST]:
    """The arguments of `call` that may be a name it looks up on an object
    (`getattr(mod, "json")`, `monkeypatch.setattr(mod, "json", ...)`,
    `patch.object(mod, "json")`, `attrgetter("json")`, a file's own wrapper
    of one): every positional argument (a starred tuple's or list's items
    too) and the `_LOOKUP_KEYWORDS` (a `**` dict's values too).  A keyword
    such as `mode="json"`, an item of a dict or a list, a comparison or a
    return value hands its string to no lookup."""
    for arg in call.args:
        if isinstance(arg, ast.Starred) and isinstance(arg.value, (ast.Tuple, ast.List)):
            yield from arg.value.elts
        else:
            yield arg
    for keyword in call.keywords:
        if keyword.arg is None and isinstance(keyword.value, ast.Dict):
            yield from keyword.value.values
        elif keyword.arg in _LOOKUP_KEYWORDS:
            yield keyword.value


def uses_of(
    node: ast.AST,
    nodes: list[ast.AST] | None = None,
    *,
    every_string: bool = False,
    in_class: bool = False,
) -> tuple[str, ...]:
    """The names `node`'s code may read from the module, sorted: the names
    it reads through the module's namespace (`module_loads`; a class
    body's code reads as module-level code does), every parameter (a pytest test or
    fixture requests a fixture by parameter name), and the identifiers of
    every string that reads as names or a type expression
    (`usefixtures("db")`, `getfixturevalue("db")`, `patch("pkg.mod.json")`,
    a string annotation that `typing.get_type_hints` or pydantic evaluates
    through the module: `"Foo | None"`); with `every_string` (the file
    reaches its globals by computed names, `introspects`) every identifier
    of every string.  An annotation counts even under `from __future__
    import annotations`: a framework may evaluate it.  Attribute names are
    not module names (`self.helper`, `mod.clamp`); a name bound in the
    function that reads it is not read from the module, nor one a class
    body only assigns (`in_class`: `node` is a statement of a class body).
    Kept on the node (a statement the parser reuses in the file's next
    version, `parsed.parse_module`, is read once)."""
    return _reads(node, nodes, every_string, in_class)[0]


def words_of(
    node: ast.AST,
    nodes: list[ast.AST] | None = None,
    *,
    every_string: bool = False,
    in_class: bool = False,
) -> tuple[str, ...]:
    """Of `uses_of(node, ...)`, sorted, the names only bare words spell
    (`_string_names`: `"json"`, `"a, b"`) in strings that no call is handed
    as a name to look up (`_lookups`): data (`mode="json"`, `{"type":
    "json"}`, `["json", "yaml"]`, `fmt == "json"`) and a bare string
    annotation (`x: "Foo"`).  Such a word reaches a module-level name only
    as pytest's fixture of that name or a type, never as a module object
    (`Unit.words`).  () with `every_string`."""
    return _reads(node, nodes, every_string, in_class)[1]


def _reads(
    node: ast.AST, nodes: list[ast.AST] | None, every_string: bool, in_class: bool
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`uses_of` and `words_of`, kept on the node."""
    held: dict[tuple[bool, bool], tuple[tuple[str, ...], tuple[str, ...]]]
    held = node.__dict__.setdefault("_gate_uses", {})
    key = (every_string, in_class)
    if key in held:
        return held[key]
    found = module_loads([node], "class" if in_class else "module")
    bare: list[tuple[ast.Constant, tuple[str, ...]]] = []
    calls: list[ast.Call] = []
    for sub in walk(node) if nodes is None else nodes:
        if type(sub) not in _USES_KINDS:
            continue
        if isinstance(sub, ast.arg):
            found.add(sub.arg)
        elif isinstance(sub, ast.Call):
            calls.append(sub)
        elif isinstance(sub, ast.JoinedStr):  # an f-string's text: every identifier
            for part in sub.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    found.update(_IDENTIFIER.findall(part.value))
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            if every_string:
                found.update(_IDENTIFIER.findall(sub.value))
                continue
            names, words = _string_names(sub.value)
            if words:
                bare.append((sub, names))
            else:
                found.update(names)
    data: set[str] = set()
    if bare:
        looked_up = {id(arg) for call in calls for arg in _lookups(call)}
        for constant, names in bare:
            (found if id(constant) in looked_up else data).update(names)
    held[key] = (tuple(sorted(found | data)), tuple(sorted(data - found)))
    return held[key]
