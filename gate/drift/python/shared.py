"""Whether code changes state that other tests share (`shares_state`): a
`global`, an assignment through a name that is not the code's own, the
interpreter's shared objects (`sys.modules`, `sys.path`, `os.environ`,
`builtins`) touched other than by reading, `setattr` and its kin, a
patcher's `.start()`; and which of a file's functions, classes and methods
do, or call one that does (`sharing_defs`).  Such a unit is
collection-time code wherever it stands."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence

from gate.drift.python.namespaces import own_exec
from gate.drift.python.restores import restored
from gate.drift.python.tree import Walked, chain_root, child_nodes, dotted, parameters, walk

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
# What reads a namespace `vars(obj)` hands out, and nothing more
# (`_namespace_read`): a copy (`dict(...)`, `{**...}`, `.copy()`) or the
# namespace handed on would give its objects to code the gate does not read.
_NAMESPACE_READS = frozenset({"get", "items", "keys", "values"})
# Of those, the ones that write into the namespace they are given: into a
# dict the function makes and keeps, shared by no one (`own_exec`).
_OWN_EXEC = frozenset({"exec", "eval"})
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


def _read_in_place(node: ast.expr, parents: dict[int, ast.AST], methods: frozenset[str]) -> bool:
    """Whether `node` is read where it stands: one of `methods` called on
    it, an item read, or an `in` test."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.Attribute) and parent.attr in methods:
        call = parents.get(id(parent))
        return isinstance(call, ast.Call) and call.func is parent
    if isinstance(parent, ast.Subscript):
        return parent.value is node and isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Compare):
        return node in parent.comparators and all(
            isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops
        )
    return False


def _only_read(node: ast.expr, parents: dict[int, ast.AST]) -> bool:
    """Whether `node` (`os.environ`, `sys.path`, ...) is only read where it
    stands: a read method called on it, an item read, an `in` test, `**`
    unpacked into a dict, copied (`dict(os.environ)`), handed to
    `patch.dict` or as a subprocess's `env=`."""
    if _read_in_place(node, parents, _READ_METHODS):
        return True
    parent = parents.get(id(node))
    if isinstance(parent, ast.Dict):
        return any(k is None and v is node for k, v in zip(parent.keys, parent.values, strict=True))
    if isinstance(parent, ast.keyword):
        return parent.arg == "env"
    if isinstance(parent, ast.Call) and node in parent.args:
        name = dotted(parent.func)
        return name in _COPY_CALLS or name.endswith("patch.dict")
    return False


def _namespace_read(call: ast.Call, parents: dict[int, ast.AST]) -> bool:
    """Whether the namespace `vars(obj)` returns is only read where the call
    stands: a reading method called on it (`vars(kit).items()`), an item
    read (`vars(kit)["X"]`) or an `in` test; never copied nor handed on."""
    return _read_in_place(call, parents, _NAMESPACE_READS)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _bound_here(parts: Sequence[ast.AST]) -> set[str]:
    """The plain names stored or deleted in `parts` and their nodes, and
    the names of the functions and classes they define, not inside a
    nested function, lambda, class or comprehension (each has a scope of
    its own; an assignment expression in a comprehension binds in the
    scope around it, so it counts here)."""
    found: set[str] = set()
    todo = list(parts)
    while todo:
        sub = todo.pop()
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            found.add(sub.id)
        elif isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
            found.add(sub.target.id)
        if isinstance(sub, _SCOPES):
            if isinstance(sub, _DEFS):
                found.add(sub.name)  # `def cli(): ...` binds `cli` where it stands
            continue
        if isinstance(sub, _COMPREHENSIONS):
            todo.extend(n for n in ast.walk(sub) if isinstance(n, ast.NamedExpr))
            continue
        todo.extend(child_nodes(sub))
    return found


def _visible_locals(node: ast.AST) -> dict[int, frozenset[str]]:
    """Each attribute or item store in `node` (by id) -> the names that
    are the code's own where it stands: the parameters and plain bindings
    of its function, lambda or comprehension and of those around it inside
    `node` (a class body's names are no method's).  `def t(): [0 for m in
    ()]; m.f = 1` stores into the module `m`: the comprehension's `m` is
    not the function's."""
    out: dict[int, frozenset[str]] = {}

    def visit(parts: Sequence[ast.AST], visible: frozenset[str], functions: frozenset[str]) -> None:
        # `visible`: what the code of `parts` sees as its own; `functions`:
        # what a function nested here sees (a class body's names left out)
        for sub in parts:
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                outside = [*sub.args.defaults, *(d for d in sub.args.kw_defaults if d)]
                outside.extend(getattr(sub, "decorator_list", []))
                visit(outside, visible, functions)
                body = sub.body if isinstance(sub.body, list) else [sub.body]
                inside = functions | {a.arg for a in parameters(sub.args)} | _bound_here(body)
                visit(list(body), inside, inside)
            elif isinstance(sub, ast.ClassDef):
                visit([*sub.decorator_list, *sub.bases, *sub.keywords], visible, functions)
                visit(list(sub.body), functions | _bound_here(sub.body), functions)
            elif isinstance(sub, _COMPREHENSIONS):
                # the first iterable is evaluated outside; the rest sees the targets
                # and, like a function, no class body's names
                first, *more = sub.generators
                visit([first.iter], visible, functions)
                inside = functions | _bound_here([g.target for g in sub.generators])
                rest: list[ast.AST] = [g.target for g in sub.generators]
                rest.extend(g.iter for g in more)
                rest.extend(c for g in sub.generators for c in g.ifs)
                if isinstance(sub, ast.DictComp):
                    rest.extend((sub.key, sub.value))
                else:
                    rest.append(sub.elt)
                visit(rest, inside, inside)
            else:
                store = isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(
                    sub.ctx, (ast.Store, ast.Del)
                )
                if store or (
                    isinstance(sub, ast.Call)
                    and dotted(sub.func).rsplit(".", 1)[-1] in _ANY_ATTR_CALLS
                ):
                    out[id(sub)] = visible
                visit(child_nodes(sub), visible, functions)

    # `node`'s own name, when it is a def, is bound where it stands, in the module
    top = frozenset(_bound_here([node]) - ({node.name} if isinstance(node, _DEFS) else set()))
    visit([node], top, top)
    return out


_ATTR_CALLS = frozenset({"setattr", "delattr"})
_DUNDER_ATTR_CALLS = frozenset({"__setattr__", "__delattr__"})
_ANY_ATTR_CALLS = _ATTR_CALLS | _DUNDER_ATTR_CALLS  # a call's last name, either spelling


class _Bodies:
    """What `_visible_locals` finds without its walk of every scope, for
    the stores most code makes (`self.x = ...` in a method): each function
    in `node` sees its parameters and the names its body binds as its own
    everywhere in its body (a nested function, class body or comprehension
    adds names, never hides one), but for the nodes `_visible_locals`
    leaves out or judges from outside (`apart`: `node`'s own decorators and
    signature, and the annotations, return annotations and type parameters
    of the defs in it)."""

    def __init__(self, node: ast.AST, nodes: list[ast.AST]) -> None:
        outside: list[ast.AST] = []
        if isinstance(node, _DEFS):
            outside.extend(node.decorator_list)
            if not isinstance(node, ast.ClassDef):
                outside.append(node.args)
        # (the function's own names, its body's nodes by id: made when asked)
        self.functions: list[tuple[frozenset[str], list[ast.stmt], set[int] | None]] = []
        for sub in nodes:
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if sub is not node:
                    outside.extend(a.annotation for a in parameters(sub.args) if a.annotation)
                outside.extend(getattr(sub, "type_params", ()))
                if sub.returns is not None:
                    outside.append(sub.returns)
                names = {a.arg for a in parameters(sub.args)} | _bound_here(sub.body)
                self.functions.append((frozenset(names), sub.body, None))
            elif isinstance(sub, ast.ClassDef):
                outside.extend(getattr(sub, "type_params", ()))
        self.apart = {id(n) for part in outside for n in walk(part)}

    def sees(self, store: ast.AST, name: str) -> bool:
        """Whether `name` is the code's own where `store` stands, as far as
        the functions around it show (False: ask `_visible_locals`)."""
        if id(store) in self.apart:
            return False
        for i, (names, body, inside) in enumerate(self.functions):
            if name not in names:
                continue
            if inside is None:
                inside = {id(n) for statement in body for n in walk(statement)}
                self.functions[i] = (names, body, inside)
            if id(store) in inside:
                return True
        return False


def _mock_locals(nodes: list[ast.AST], known: Mapping[str, str]) -> frozenset[str]:
    """The names every binding of which in `nodes` is an assignment of a
    fresh mock (`a = Mock(spec=Agent)`, `known` naming the callee "mock"):
    each such object has a class of its own, made for it, so a store into
    `type(a)` (`type(a).tools = PropertyMock(...)`) reaches no one else.  A
    parameter, a loop target or any other binding of the name leaves it
    out."""
    fresh: set[str] = set()
    other: set[str] = set()
    for sub in nodes:
        if isinstance(sub, ast.Assign):
            value = sub.value
            made = isinstance(value, ast.Call) and known.get(dotted(value.func)) == "mock"
            for target in sub.targets:
                if isinstance(target, ast.Name) and made:
                    fresh.add(target.id)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            other.update(a.arg for a in parameters(sub.args))
    stores = [
        n for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
    ]
    other.update(n.id for n in stores if n.id in fresh and not _assigned_mock(n, nodes, known))
    return frozenset(fresh - other)


def _assigned_mock(name: ast.Name, nodes: list[ast.AST], known: Mapping[str, str]) -> bool:
    """Whether the store `name` is a whole target of `x = <mock>(...)`."""
    for sub in nodes:
        if isinstance(sub, ast.Assign) and any(t is name for t in sub.targets):
            value = sub.value
            return isinstance(value, ast.Call) and known.get(dotted(value.func)) == "mock"
    return False


def _store_root(node: ast.expr, known: Mapping[str, str], mocks: frozenset[str]) -> ast.expr:
    """What a store's attribute or item chain writes into: its `chain_root`,
    seen through `typing.cast(T, e)` (which returns `e`) and, for a fresh
    mock `m` (`mocks`), through `type(m)` (the mock's own class)."""
    root = chain_root(node)
    while isinstance(root, ast.Call):
        kind = known.get(dotted(root.func))
        if kind == "cast" and len(root.args) == 2 and not root.keywords:
            root = chain_root(root.args[1])
        elif (
            kind == "type"
            and len(root.args) == 1
            and not root.keywords
            and isinstance(root.args[0], ast.Name)
            and root.args[0].id in mocks
        ):
            return root.args[0]
        else:
            break
    return root


# The node types `shares_state` reads (the parser makes no subclasses of
# them): every other node is skipped by a set lookup, not seven isinstance.
_OWN_KINDS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Name})
_SHARING_KINDS = frozenset({ast.Global, ast.Attribute, ast.Subscript, ast.Name, ast.Call})


def shares_state(
    node: ast.stmt,
    nodes: list[ast.AST] | None = None,
    known: Mapping[str, str] | None = None,
) -> bool:
    """Whether running (or defining) `node` (a function, a statement) changes state that other
    tests share, as far as its code shows: a `global` or `nonlocal`
    declaration; an attribute or item stored or deleted (an assignment,
    `del`, a `for`, comprehension or `with ... as` target) through a name
    that is not the function's own (a module,
    a module-level object: `clamp_kit.LIMIT = 9`, `CONFIG["x"] = 1`) or
    through `__class__`/`__dict__`; `setattr`, `delattr`, `exec`, `eval`
    (but into a dict of the function's own whose code in view shares
    nothing: `gate.drift.python.namespaces.own_exec`), `reload`,
    `os.chdir` and the like; anything done to `sys.modules`,
    `sys.path`, `os.environ` or `builtins`; a mock patcher's `.start()`
    (not undone when the test ends, unlike `with patch(...)` or pytest's
    `monkeypatch`); but not a store the code puts back itself, the saved
    original restored in a `finally` of its own
    (`gate.drift.python.restores`).  A module imported inside the function is still the
    shared module.  With `known` (`gate.drift.python.calls.known_callees`:
    the spellings of `typing.cast`, of the builtin `type` and of mock
    constructors), a store through `cast(T, local)` is a store into the
    local, and `type(m).attr = ...` with `m` a fresh mock of the code's
    (`m = Mock(...)`, every binding of `m` so) a store into that mock's own
    class; `setattr(local, "name", v)` (and `delattr`, and the builtin
    `object`'s `__setattr__`/`__delattr__`) with a string name that is not
    a dunder is `local.name = v`.  Where the line is drawn: a method call on a shared
    object (`CONFIG.update(...)`, `REGISTRY.append(x)`) is not seen, nor an
    assignment through a local alias of one (`m = clamp_kit; m.LIMIT = 9`):
    any call may mutate and any local may alias, and counting every such
    statement would count every test.  `nodes`: `ast.walk(node)`, when the
    caller has it already."""
    nodes = walk(node) if nodes is None else nodes
    known = {} if known is None else known
    mocks = _mock_locals(nodes, known) if known else frozenset()
    own: set[str] = set()
    parents: dict[int, ast.AST] | None = None  # built when a shared object is met
    scoped: dict[int, frozenset[str]] | None = None  # built when a store's root is own
    bodies: _Bodies | None = None  # asked before `scoped`, which it mostly spares
    for sub in nodes:
        if type(sub) not in _OWN_KINDS:  # most nodes: skipped by their type alone
            continue
        if isinstance(sub, _DEFS) and sub is not node:
            own.add(sub.name)  # a function or class the code defines: a new object each run
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            own.update(a.arg for a in parameters(sub.args))  # `self` of a helper class's method
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            own.add(sub.id)
    put_back: set[int] | None = None  # `restored`, found when a store reaches outside
    for sub in nodes:
        if type(sub) not in _SHARING_KINDS:
            continue
        if isinstance(sub, ast.Global):  # `nonlocal` names a variable of a function
            return True
        if (
            isinstance(sub, ast.Attribute)
            and isinstance(sub.ctx, ast.Store)
            and not (isinstance(sub.value, ast.Name) and sub.value.id in own)
        ):
            if put_back is None:
                put_back = restored(node, nodes)
            if id(sub) in put_back:
                continue  # patched and put back in a `finally` of the code's own
        # An attribute or item stored or deleted, wherever the target stands:
        # an assignment, `del`, a `for` or comprehension target, `with ... as`.
        if isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(
            sub.ctx, (ast.Store, ast.Del)
        ):
            root = _store_root(sub, known, mocks)
            if not isinstance(root, ast.Name) or root.id not in own:
                return True
            if _DUNDERS & _chain_attrs(sub):
                return True
            if bodies is None:
                bodies = _Bodies(node, nodes)
            if not bodies.sees(sub, root.id):
                if scoped is None:
                    scoped = _visible_locals(node)
                if root.id not in scoped.get(id(sub), ()):
                    return True  # own somewhere in `node`, not in the scope that stores through it
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
            if (name in _ATTR_CALLS or known.get(name) in _ATTR_CALLS) and sub.args:
                if scoped is None:
                    scoped = _visible_locals(node)
                if _own_attribute_call(sub, own, scoped.get(id(sub), frozenset()), known, mocks):
                    continue
            if name in _OWN_EXEC:  # `exec(code, ns)` into a dict of the function's own
                code = own_exec(sub, node)
                if code is not None and not any(shares_state(s, None, known) for s in code):
                    continue
            if name == "vars" and len(sub.args) == 1 and not sub.keywords:
                if parents is None:
                    parents = {id(child): up for up in nodes for child in child_nodes(up)}
                if _namespace_read(sub, parents):
                    continue  # `vars(mod).items()`: the namespace read, not written
            if name in _SHARING_CALLS or (
                last in _ANY_ATTR_CALLS
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


def _own_attribute_call(
    call: ast.Call,
    own: set[str],
    visible: frozenset[str],
    known: Mapping[str, str],
    mocks: frozenset[str],
) -> bool:
    """Whether `setattr(x, "name", v)` / `delattr(x, "name")` sets or deletes
    an attribute of the code's own object: `x` (seen as `_store_root` sees a
    store's root) a name of its own, visible where the call stands, and the
    attribute a string that is not a dunder (`__class__`, `__dict__`)."""
    if len(call.args) < 2 or call.keywords:
        return False
    attr = call.args[1]
    if not isinstance(attr, ast.Constant) or not isinstance(attr.value, str):
        return False
    if attr.value.startswith("__"):
        return False
    root = _store_root(call.args[0], known, mocks)
    return isinstance(root, ast.Name) and root.id in own and root.id in visible


def sharing_defs(
    body: list[ast.stmt], walked: Walked, known: Mapping[str, str] | None = None
) -> dict[int, tuple[str, ...]]:
    """The module-level functions and classes of `body` and the methods of
    its classes (by `id`) that change what other tests share: whose code
    `shares_state` names (with `known`), or refers to one that does, to a
    fixpoint.  A reference is the name of a module-level one (`_patch()`, a
    callback `request.addfinalizer(_patch)`) or an attribute of that name of
    a plain name (`self._patch()`, `cls._patch`, `Helper.patch`): calling a
    helper that patches a module patches it, wherever the call stands.
    Each maps to () when its own code shares state, else to the sharing
    defs it refers to (`_patch`, a method as `._patch`), sorted: what it
    does to shared state is what those do (`Unit.calls`, see `compare`)."""
    Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    defs: list[tuple[Def, bool]] = []  # (node, a method)
    for node in body:
        if isinstance(node, _DEFS):
            defs.append((node, False))
        if isinstance(node, ast.ClassDef):
            defs.extend((m, True) for m in node.body if isinstance(m, _DEFS))
    spelled = tuple(sorted(known.items())) if known else ()
    direct = {id(n) for n, _ in defs if _def_shares(n, walked, known, spelled)}
    if not direct:
        return {}
    sharing = set(direct)
    # names loaded, attributes of names read
    refers: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
    for one, _ in defs:
        if id(one) not in sharing:
            refers[id(one)] = _refers(one, walked)
    changed = True
    module: set[str] = set()
    methods: set[str] = set()
    while changed:
        changed = False
        module = {n.name for n, method in defs if id(n) in sharing and not method}
        methods = {n.name for n, method in defs if id(n) in sharing and method}
        for one, _ in defs:
            found = refers.get(id(one))
            if found is None or id(one) in sharing:
                continue
            if found[0] & module or found[1] & methods:
                sharing.add(id(one))
                changed = True
    out: dict[int, tuple[str, ...]] = {i: () for i in direct}
    for one, _ in defs:
        if id(one) in sharing and id(one) not in direct:
            names, attributes = refers[id(one)]
            out[id(one)] = tuple(sorted((names & module) | {f".{m}" for m in attributes & methods}))
    return out


def _refers(node: ast.stmt, walked: Walked) -> tuple[frozenset[str], frozenset[str]]:
    """The names `node` loads and the attributes of plain names it reads
    (`sharing_defs`' references); kept on the node (a def the parser reuses
    in the file's next version is walked once)."""
    held: tuple[frozenset[str], frozenset[str]] | None = node.__dict__.get("_gate_refers")
    if held is None:
        names: set[str] = set()
        attributes: set[str] = set()
        for sub in walked.of(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                names.add(sub.id)
            elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
                attributes.add(sub.attr)
        held = node.__dict__["_gate_refers"] = (frozenset(names), frozenset(attributes))
    return held


def _def_shares(
    node: ast.stmt, walked: Walked, known: Mapping[str, str] | None, spelled: tuple[object, ...]
) -> bool:
    """`shares_state(node, ..., known)`, kept on the node by `known`'s items
    (`spelled`): a def the parser reuses in the file's next version
    (`parsed.parse_module`) is judged once."""
    held: dict[tuple[object, ...], bool] = node.__dict__.setdefault("_gate_shares", {})
    found = held.get(spelled)
    if found is None:
        found = held[spelled] = shares_state(node, walked.of(node), known)
    return found
