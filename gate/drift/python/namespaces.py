"""Where an `exec` or `eval` writes: into a namespace of its own (`own_exec`).

`exec(code)` runs in the module's globals and `exec(code, globals())`,
`exec(code, vars(mod))` or `exec(code, NS)` with `NS` a module-level dict
into what other code reads; `exec(code, ns)` with `ns = {}` made in the same
function, never handed anywhere else, writes into that dict alone, as a
call of other code would into its own locals.  `own_exec(call, node)` says
which: None when the call may write into shared state, else the statements
of the code it runs where that code is a string constant (`"x = 1"`, also
through `compile(...)`, `textwrap.dedent(...)` or a name of the function
bound only to such a constant), which `shares_state` then judges as any
other code; () where the code comes from elsewhere (a file read, an
attribute), which is what any call of other code is: not seen.  Code built
from strings in view (an f-string, `+`, `%`, `.format`) is refused: its
constant parts may spell the write."""

from __future__ import annotations

import ast
import textwrap

from gate.drift.python.tree import dotted, parameters, walk

_EXEC = frozenset({"exec", "eval"})
# What a name of the function may be bound to and stay a dict of its own.
_FRESH_CALLS = frozenset({"dict"})
# What the function may do with such a dict besides handing it to `exec`:
# read or fill an item, test membership, call one of these methods.
_DICT_METHODS = frozenset(
    {"get", "items", "keys", "values", "update", "setdefault", "pop", "copy", "__contains__"}
)
_TEXT_CALLS = frozenset({"compile", "textwrap.dedent", "dedent", "inspect.cleandoc"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
Function = ast.FunctionDef | ast.AsyncFunctionDef


def _none(arg: ast.expr) -> bool:
    return isinstance(arg, ast.Constant) and arg.value is None


def _innermost(call: ast.Call, node: ast.AST) -> Function | None:
    """The innermost function of `node` (itself included) whose code holds `call`."""
    found: Function | None = None
    todo: list[tuple[ast.AST, Function | None]] = [(node, None)]
    while todo:
        sub, inside = todo.pop()
        if sub is call:
            found = inside
            break
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside = sub
        elif isinstance(sub, ast.Lambda):
            inside = None  # a lambda binds nothing a statement could make fresh
        todo.extend((child, inside) for child in ast.iter_child_nodes(sub))
    return found


def _fresh_value(value: ast.expr | None) -> bool:
    """A new dict: a literal, a comprehension, `dict(...)`."""
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return True
    return (
        isinstance(value, ast.Call)
        and dotted(value.func) in _FRESH_CALLS
        and not any(isinstance(a, ast.Starred) for a in value.args)
    )


def _parents(nodes: list[ast.AST]) -> dict[int, ast.AST]:
    return {id(child): up for up in nodes for child in ast.iter_child_nodes(up)}


def _own_dict(name: str, function: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call) -> bool:
    """Whether `name`, in `function`, is a dict the function makes and
    keeps: every binding of it anywhere in the function an assignment of a
    new dict to the plain name (no parameter, loop or `with` target,
    `global`/`nonlocal`, import, def), and every other read of it an item, a
    membership test, a dict method called on it, or an argument of `call`."""
    if any(a.arg == name for a in parameters(function.args)):
        return False
    nodes = walk(function)
    parents = _parents(nodes)
    assigned = False
    for sub in nodes:
        if isinstance(sub, (ast.Global, ast.Nonlocal)) and name in sub.names:
            return False
        if (
            isinstance(sub, _FUNCTIONS)
            and sub is not function
            and any(a.arg == name for a in parameters(sub.args))
        ):
            return False
        if isinstance(sub, _DEFS) and sub.name == name and sub is not function:
            return False
        if isinstance(sub, ast.alias) and (sub.asname or sub.name.split(".")[0]) == name:
            return False
        if not isinstance(sub, ast.Name) or sub.id != name:
            continue
        up = parents.get(id(sub))
        if isinstance(sub.ctx, (ast.Store, ast.Del)):
            if isinstance(up, ast.Assign) and up.targets == [sub] and _fresh_value(up.value):
                assigned = True
                continue
            if isinstance(up, ast.AnnAssign) and up.target is sub and _fresh_value(up.value):
                assigned = True
                continue
            return False
        if up is call or (isinstance(up, ast.keyword) and parents.get(id(up)) is call):
            continue
        if isinstance(up, ast.Subscript) and up.value is sub:
            continue
        if (
            isinstance(up, ast.Compare)
            and sub in up.comparators
            and all(isinstance(op, (ast.In, ast.NotIn)) for op in up.ops)
        ):
            continue
        if (
            isinstance(up, ast.Attribute)
            and up.attr in _DICT_METHODS
            and isinstance(parents.get(id(up)), ast.Call)
        ):
            continue
        return False
    return assigned


def _fresh(arg: ast.expr, function: Function | None, call: ast.Call) -> bool:
    if _fresh_value(arg):
        return True
    return isinstance(arg, ast.Name) and function is not None and _own_dict(arg.id, function, call)


def _bound_text(name: str, function: Function | None) -> ast.expr | None:
    """The one value `name` is bound to in `function`, when every binding of
    it is one plain assignment (None: a parameter, several, or none)."""
    if function is None or any(a.arg == name for a in parameters(function.args)):
        return None
    nodes = walk(function)
    stores = 0
    for sub in nodes:
        if isinstance(sub, ast.Name) and sub.id == name and not isinstance(sub.ctx, ast.Load):
            stores += 1
        if isinstance(sub, (ast.Global, ast.Nonlocal)) and name in sub.names:
            return None
    assigns = [
        s.value
        for s in nodes
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name)
        and s.targets[0].id == name
    ]
    if stores != 1 or len(assigns) != 1:
        return None
    return assigns[0]


def _code(
    arg: ast.expr, function: Function | None, mode: str, depth: int = 0
) -> list[ast.stmt] | None:
    """The statements of the code `arg` spells: () from elsewhere, None
    when built from strings in view or not Python."""
    if depth > 8:
        return None
    if isinstance(arg, ast.Constant):
        if isinstance(arg.value, bytes):
            try:
                text = arg.value.decode()
            except UnicodeDecodeError:
                return None
        elif isinstance(arg.value, str):
            text = arg.value
        else:
            return None
        try:
            if mode == "eval":
                return [ast.Expr(ast.parse(textwrap.dedent(text), mode="eval").body)]
            return list(ast.parse(textwrap.dedent(text)).body)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    if isinstance(arg, (ast.JoinedStr, ast.BinOp)):
        return None  # code built from strings in view
    if isinstance(arg, ast.Call):
        callee = dotted(arg.func)
        if isinstance(arg.func, ast.Attribute) and isinstance(arg.func.value, ast.Constant):
            return None  # "...".format(...), "".join(...) of a string in view
        if callee in _TEXT_CALLS and arg.args:
            inner = "exec" if callee == "compile" else mode
            if callee == "compile" and len(arg.args) >= 3:
                how = arg.args[2]
                if isinstance(how, ast.Constant) and how.value in ("exec", "eval", "single"):
                    inner = "exec" if how.value == "single" else str(how.value)
            return _code(arg.args[0], function, inner, depth + 1)
        return []
    if isinstance(arg, ast.Name):
        value = _bound_text(arg.id, function)
        if value is None:
            return []  # a parameter, or bound from elsewhere
        return _code(value, function, mode, depth + 1)
    return []


def own_exec(call: ast.Call, node: ast.AST) -> list[ast.stmt] | None:
    """For `call`, an `exec(...)` or `eval(...)` inside `node`: None when
    it may write into shared state (no namespace, or one that is not a dict
    made and kept by the innermost function around it), else the statements
    of the code it runs where they are in view (see the module docstring)."""
    name = dotted(call.func)
    if name not in _EXEC or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    spaces = list(call.args[1:2])
    # a `None` locals stands for the globals given
    spaces += [a for a in call.args[2:3] if not _none(a)]
    code_arg = call.args[0] if call.args else None
    for k in call.keywords:
        if k.arg in ("globals", "locals"):
            if k.arg == "globals" or not _none(k.value):
                spaces.append(k.value)
        elif k.arg == "source" and code_arg is None:
            code_arg = k.value
        else:
            return None  # `closure=`, `**kwargs`: cells or spaces out of view
    globals_given = len(call.args) > 1 or any(k.arg == "globals" for k in call.keywords)
    if not globals_given or not spaces or code_arg is None:
        return None
    function = _innermost(call, node)
    if not all(_fresh(s, function, call) for s in spaces):
        return None
    return _code(code_arg, function, "eval" if name == "eval" else "exec")
