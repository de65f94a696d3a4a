"""Whether code changes state that other tests share (`shares_state`): a
`global`, an assignment through a name that is not the code's own, the
interpreter's shared objects (`sys.modules`, `sys.path`, `os.environ`,
`builtins`) touched other than by reading, `setattr` and its kin, a
patcher's `.start()`.  Such a unit is collection-time code wherever it
stands."""

from __future__ import annotations

import ast

from gate.testcases.python.tree import chain_root, child_nodes, dotted, parameters, walk

# Calls that change what other tests see, wherever they are made.
_SHARING_CALLS = frozenset(
    {
        "setattr",
        "delattr",
        "exec",
        "eval",
        "globals",
        "vars",
        "__import__",
        "reload",
        "importlib.reload",
        "importlib.invalidate_caches",
        "os.chdir",
        "os.putenv",
        "os.unsetenv",
        "sys.setrecursionlimit",
        "sys.settrace",
        "sys.setprofile",
        "site.addsitedir",
    }
)
# Objects of the interpreter that every test shares: touching them (an item,
# an attribute, a method call) changes what later tests see.
_SHARED = ("sys.modules", "sys.path", "sys.meta_path", "sys.path_hooks", "os.environ", "builtins")
_SHARED_ATTRS = frozenset(s.rsplit(".", 1)[-1] for s in _SHARED)
_DUNDERS = frozenset({"__class__", "__dict__", "__globals__", "__builtins__", "__code__"})


def _chain_attrs(node: ast.expr) -> set[str]:
    """Every attribute name along an attribute/item chain (`a.__class__[0].x`)."""
    found = set()
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        if isinstance(node, ast.Attribute):
            found.add(node.attr)
        node = node.value
    return found


# Methods that read a shared object (`os.environ.get("X")`) and calls that
# copy it (`dict(os.environ)`) or change it only until they exit
# (`patch.dict(os.environ, {...})` as a context manager or decorator; its
# `.start()` is caught apart).
_READ_METHODS = frozenset({"get", "copy", "items", "keys", "values", "index", "count"})
_COPY_CALLS = frozenset({"dict", "list", "tuple", "set", "frozenset", "sorted", "len", "iter"})


def _only_read(node: ast.expr, parents: dict[int, ast.AST]) -> bool:
    """Whether `node` (`os.environ`, `sys.path`, ...) is only read where it
    stands: a read method called on it, an item read, an `in` test, `**`
    unpacked into a dict, copied (`dict(os.environ)`), handed to
    `patch.dict` or as a subprocess's `env=`."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.Attribute) and parent.attr in _READ_METHODS:
        call = parents.get(id(parent))
        return isinstance(call, ast.Call) and call.func is parent
    if isinstance(parent, ast.Subscript):
        return parent.value is node and isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Compare):
        return node in parent.comparators and all(
            isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops
        )
    if isinstance(parent, ast.Dict):
        return any(k is None and v is node for k, v in zip(parent.keys, parent.values, strict=True))
    if isinstance(parent, ast.keyword):
        return parent.arg == "env"
    if isinstance(parent, ast.Call) and node in parent.args:
        name = dotted(parent.func)
        return name in _COPY_CALLS or name.endswith("patch.dict")
    return False


# The node types `shares_state` reads (the parser makes no subclasses of
# them): every other node is skipped by a set lookup, not seven isinstance.
_OWN_KINDS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Name})
_SHARING_KINDS = frozenset(
    {
        ast.Global,
        ast.Assign,
        ast.AugAssign,
        ast.AnnAssign,
        ast.Delete,
        ast.Attribute,
        ast.Name,
        ast.Call,
    }
)


def shares_state(node: ast.stmt, nodes: list[ast.AST] | None = None) -> bool:
    """Whether running (or defining) `node` (a function, a statement) changes state that other
    tests share, as far as its code shows: a `global` or `nonlocal`
    declaration; an assignment, augmented assignment or `del` through an
    attribute or item of a name that is not the function's own (a module,
    a module-level object: `clamp_kit.LIMIT = 9`, `CONFIG["x"] = 1`) or
    through `__class__`/`__dict__`; `setattr`, `delattr`, `exec`, `eval`,
    `reload`, `os.chdir` and the like; anything done to `sys.modules`,
    `sys.path`, `os.environ` or `builtins`; a mock patcher's `.start()`
    (not undone when the test ends, unlike `with patch(...)` or pytest's
    `monkeypatch`).  A module imported inside the function is still the
    shared module.  Where the line is drawn: a method call on a shared
    object (`CONFIG.update(...)`, `REGISTRY.append(x)`) is not seen, nor an
    assignment through a local alias of one (`m = clamp_kit; m.LIMIT = 9`):
    any call may mutate and any local may alias, and counting every such
    statement would count every test.  `nodes`: `ast.walk(node)`, when the
    caller has it already."""
    nodes = walk(node) if nodes is None else nodes
    own: set[str] = set()
    parents: dict[int, ast.AST] | None = None  # built when a shared object is met
    for sub in nodes:
        if type(sub) not in _OWN_KINDS:  # most nodes: skipped by their type alone
            continue
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            own.update(a.arg for a in parameters(sub.args))  # `self` of a helper class's method
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            own.add(sub.id)
    for sub in nodes:
        if type(sub) not in _SHARING_KINDS:
            continue
        if isinstance(sub, ast.Global):  # `nonlocal` names a variable of a function
            return True
        targets: list[ast.expr] = []
        if isinstance(sub, ast.Assign):
            targets = list(sub.targets)
        elif isinstance(sub, (ast.AugAssign, ast.AnnAssign)):
            targets = [sub.target]
        elif isinstance(sub, ast.Delete):
            targets = list(sub.targets)
        for target in targets:
            for part in ast.walk(target):
                if not isinstance(part, (ast.Attribute, ast.Subscript)):
                    continue
                if not isinstance(part.ctx, (ast.Store, ast.Del)):
                    continue
                root = chain_root(part)
                if not isinstance(root, ast.Name) or root.id not in own:
                    return True
                if _DUNDERS & _chain_attrs(part):
                    return True
        if isinstance(sub, ast.Attribute) and sub.attr in _SHARED_ATTRS:
            # the inner node of `sys.modules.pop` is `sys.modules`
            if dotted(sub) in _SHARED:
                if parents is None:
                    parents = {id(child): up for up in nodes for child in child_nodes(up)}
                if not _only_read(sub, parents):
                    return True
            if sub.attr in _DUNDERS - {"__class__"}:
                return True
        if isinstance(sub, ast.Name) and sub.id in ("builtins", "__builtins__"):
            return True
        if isinstance(sub, ast.Call):
            name = dotted(sub.func)
            last = name.rsplit(".", 1)[-1]
            if name in _SHARING_CALLS or (
                last in ("setattr", "delattr", "__setattr__", "__delattr__")
                and not name.startswith("monkeypatch.")  # undone when the test ends
            ):
                return True
            if name.endswith(".start") and "patch" in name.casefold():
                return True
            if (
                isinstance(sub.func, ast.Attribute)
                and sub.func.attr == "start"
                and isinstance(sub.func.value, ast.Call)
                and "patch" in dotted(sub.func.value).casefold()
            ):
                return True
    return False
