"""Which calls made when a test module is imported only compute a value:
what each module-level name is imported as (`import_origins`), the
callables and methods known to compute and write nothing (`pure_call`),
and whether a statement makes any other call when the module or its class
body runs (`calls_at_import`)."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Iterator, Mapping

from gate.drift.python.tree import Walked, chain_root, child_nodes, dotted

# Calls that compute a value and change nothing else, by what they are
# imported as (`import_origins`): a trailing dot names a module's every
# callable, else the exact callable.  A method of the result of one
# (`Path(__file__).parent.resolve()`) is one too, unless `_WRITING_METHODS`
# names it.
_PURE_CALLS = (
    "base64.",
    "binascii.",
    "json.loads",
    "json.dumps",
    "re.compile",
    "re.escape",
    "pathlib.",
    "os.path.",
    "os.getenv",
    "os.environ.get",
    "os.fspath",
    "textwrap.",
    "typing.",
    "typing_extensions.",
    "collections.",
    "dataclasses.field",
    "functools.partial",
    "itertools.",
    "datetime.",
    "decimal.",
    "fractions.",
    "uuid.",
    "enum.",
    "string.",
    "struct.",
    "hashlib.",
    "math.",
    "operator.",
    "contextvars.ContextVar",
    "asyncio.CancelledError",  # exception classes: making one stores its arguments
    "asyncio.TimeoutError",
    "asyncio.InvalidStateError",
    "types.SimpleNamespace",
    "types.MappingProxyType",
    "platform.",
    "shutil.which",
    "sys.platform.",
    "sys.version.",
    "sys.getrecursionlimit",
    "os.getuid",
    "os.geteuid",
    "os.cpu_count",
    "importlib.util.find_spec",
    "importlib.metadata.version",
    "pytest.mark.",
    "pytest.param",
    "pytest.raises",
    "pytest.warns",
    "pytest.deprecated_call",
    "pytest.approx",
    "contextlib.nullcontext",
    "contextlib.suppress",
    "_pytest.mark.",
    "hypothesis.strategies.",
    "unittest.mock.MagicMock",
    "unittest.mock.AsyncMock",
    "unittest.mock.Mock",
    "unittest.mock.NonCallableMock",
    "unittest.mock.call",
    "mock.MagicMock",
    "mock.AsyncMock",
    "mock.Mock",
    "inline_snapshot.snapshot",
    "dirty_equals.",
    "pydantic.Field",
    "pydantic.ConfigDict",
    "pydantic.TypeAdapter",
)
# Builtins that only compute (`sorted`, `min` and `max` without `key=`:
# a key function may run anything).
_PURE_BUILTINS = frozenset(
    {
        "dict",
        "list",
        "set",
        "frozenset",
        "tuple",
        "str",
        "bytes",
        "bytearray",
        "int",
        "float",
        "complex",
        "bool",
        "range",
        "len",
        "sorted",
        "reversed",
        "min",
        "max",
        "sum",
        "abs",
        "round",
        "enumerate",
        "zip",
        "repr",
        "chr",
        "ord",
        "hex",
        "bin",
        "oct",
        "format",
        "any",
        "all",
        "isinstance",
        "issubclass",
        "divmod",
        "object",
        "slice",
        "type",
        "hasattr",
        "callable",
    }
)
# Builtin exception classes: making one only stores its arguments.
_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
_KEYED = frozenset({"sorted", "min", "max"})
# What `import_origins` names a class of the file's own as, when making one
# only stores its arguments (`plain_classes`).
FILE = "<file>."

# Methods that write: a fresh value's own data is nobody else's, but a path's
# file, a patcher or a registry is.
_WRITING_METHODS = frozenset(
    {
        "write_text",
        "write_bytes",
        "mkdir",
        "makedirs",
        "unlink",
        "rmdir",
        "touch",
        "rename",
        "replace",
        "symlink_to",
        "hardlink_to",
        "chmod",
        "lchmod",
        "open",
        "start",
        "run",
        "install",
        "register",
        "enable",
        "activate",
        "setenv",
        "putenv",
        "chdir",
        "update",
        "append",
        "extend",
        "insert",
        "add",
        "pop",
        "remove",
        "clear",
        "setdefault",
        "discard",
        "send",
        "close",
        "__enter__",  # entering a context manager acts on state (`warns(...)` patches warnings)
        "__exit__",
        "__aenter__",
        "__aexit__",
    }
)


def import_origins(body: list[ast.stmt], walked: Walked | None = None) -> dict[str, str]:
    """Each module-level name bound only by absolute imports -> what it
    imports (`import base64` -> `base64`, `from pathlib import Path` ->
    `pathlib.Path`, `from unittest import mock` -> `unittest.mock`), and
    `_PURE_BUILTINS` and builtin exception classes the module never binds
    -> `builtins.NAME`; a class of the file's own that `plain_classes`
    finds -> `<file>.NAME` (`FILE`)."""
    walked = Walked() if walked is None else walked
    good: dict[str, str] = {}
    bad: set[str] = set()
    for node in body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                origin = alias.name if alias.asname else name
                if good.get(name, origin) != origin:
                    bad.add(name)
                good[name] = origin
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                name = alias.asname or alias.name
                origin = f"{node.module}.{alias.name}"
                if good.get(name, origin) != origin:
                    bad.add(name)
                good[name] = origin
        else:
            bad.update(name for name, _ in walked.binds(node))
    out = {n: o for n, o in good.items() if n not in bad}
    free = (_PURE_BUILTINS | _EXCEPTIONS) - good.keys() - bad
    out.update({b: f"builtins.{b}" for b in free})
    out.update({c: f"{FILE}{c}" for c in plain_classes(body, out, walked)})
    return out


def plain_classes(
    body: list[ast.stmt], origins: Mapping[str, str], walked: Walked
) -> frozenset[str]:
    """The module-level classes of `body`, each the only binding of its
    name, that making an object of runs nothing of the file's: no
    decorator, keyword or metaclass, bases that are `object`, builtin
    exception classes (`origins`) or such classes of the file, and a body
    of `pass`, a docstring and assignments of literals to names: no method
    at all (not only `__init__`, `__new__`, `__init_subclass__` or
    `__del__`: a method of a made object counts as pure, `pure_call`, and
    `str(x)` runs `__str__`).  `class _DirectBaseException(BaseException):
    pass` is one: `_DirectBaseException("secret")` only stores its
    argument."""
    counts: dict[str, int] = {}
    for node in body:
        for name, _ in walked.binds(node) if not isinstance(node, ast.ClassDef) else ():
            counts[name] = counts.get(name, 0) + 1
        if isinstance(node, ast.ClassDef):
            counts[node.name] = counts.get(node.name, 0) + 1
    candidates = {
        node.name: node
        for node in body
        if isinstance(node, ast.ClassDef)
        and counts.get(node.name) == 1
        and not node.decorator_list
        and not node.keywords
        and all(_plain_member(m) for m in node.body)
    }
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, node in candidates.items():
            if name in found:
                continue
            if all(
                isinstance(b, ast.Name)
                and (
                    b.id in found
                    or (
                        origins.get(b.id) == f"builtins.{b.id}"
                        and (b.id == "object" or b.id in _EXCEPTIONS)
                    )
                )
                for b in node.bases
            ):
                found.add(name)
                changed = True
    return frozenset(found)


def _plain_member(member: ast.stmt) -> bool:
    if isinstance(member, ast.Pass):
        return True
    if isinstance(member, ast.Expr):
        return isinstance(member.value, ast.Constant)
    if isinstance(member, (ast.Assign, ast.AnnAssign)) and member.value is not None:
        targets = member.targets if isinstance(member, ast.Assign) else [member.target]
        if not all(isinstance(t, ast.Name) for t in targets):
            return False
        try:
            ast.literal_eval(member.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False
        return True
    return False


_MOCKS = ("Mock", "MagicMock", "AsyncMock", "NonCallableMock", "NonCallableMagicMock")
_MOCK_MODULES = ("unittest.mock", "mock")
_CASTS = ("typing.cast", "typing_extensions.cast")


def known_callees(origins: Mapping[str, str]) -> dict[str, str]:
    """Callee spellings (`dotted`) whose effect `shares_state` knows, by what
    they are imported as (`import_origins`): "cast" for `typing.cast` and
    `typing_extensions.cast` (`cast`, `typing.cast`, `t.cast`), which return
    their last argument; "mock" for mock constructors (`Mock`, `mock.Mock`,
    `unittest.mock.MagicMock`, `create_autospec`), whose every object has a
    class of its own; "type" for the builtin `type` the module never
    rebinds; "setattr" and "delattr" for the `__setattr__` and
    `__delattr__` of the builtin `object` it never rebinds
    (`object.__setattr__(x, "a", v)`, how a frozen dataclass is written
    into, is `setattr(x, "a", v)`)."""
    out: dict[str, str] = {}
    for name, origin in origins.items():
        if origin in _CASTS:
            out[name] = "cast"
        elif origin in ("typing", "typing_extensions"):
            out[f"{name}.cast"] = "cast"
        elif origin in (f"{m}.{c}" for m in _MOCK_MODULES for c in (*_MOCKS, "create_autospec")):
            out[name] = "mock"
        elif origin in _MOCK_MODULES or origin == "unittest":
            prefix = f"{name}.mock" if origin == "unittest" else name
            out.update({f"{prefix}.{c}": "mock" for c in (*_MOCKS, "create_autospec")})
        elif origin == "builtins.type":
            out[name] = "type"
        elif origin == "builtins.object":
            out[f"{name}.__setattr__"], out[f"{name}.__delattr__"] = "setattr", "delattr"
    return out


def pure_call(call: ast.Call, origins: Mapping[str, str]) -> bool:
    """Whether `call` only computes a value, by what its callee is imported
    as (`_PURE_CALLS`, `_PURE_BUILTINS`), or is a method (not one of
    `_WRITING_METHODS`) of a literal or of such a call's result.  Its
    arguments' own calls are judged apart (`calls_at_import` walks them)."""
    func = call.func
    last = func.attr if isinstance(func, ast.Attribute) else ""
    if last in _WRITING_METHODS:
        return False
    name = dotted(func)
    if name and isinstance(chain_root(func), ast.Name):
        root, _, rest = name.partition(".")
        origin = origins.get(root)
        if origin is None:
            return False
        qualified = f"{origin}.{rest}" if rest else origin
        if qualified.startswith(FILE):
            return not rest
        if qualified.startswith("builtins."):
            return not rest and not (root in _KEYED and any(k.arg == "key" for k in call.keywords))
        return any(
            qualified == p or (p.endswith(".") and qualified.startswith(p)) for p in _PURE_CALLS
        )
    if isinstance(func, ast.Attribute):  # a method of a value: a literal, or a call's
        receiver = chain_root(func.value)  # result (that call is judged on its own)
        return isinstance(
            receiver, (ast.Call, ast.Constant, ast.JoinedStr, ast.List, ast.Tuple, ast.Dict)
        )
    return False


def calls_at_import(node: ast.AST, origins: Mapping[str, str] | None = None) -> bool:
    """Whether `node` makes a call when the module (or its class body) is
    executed: outside function bodies, a call in a value, a default
    argument, a base class, a class-level statement.  With `origins`
    (`import_origins`), a call `pure_call` knows does not count
    (`ROOT = Path(__file__).parent`, `PNG = base64.b64decode(...)`,
    `x: list = field(default_factory=list)`).  A decorator's own
    call is judged apart (`is_harmless`); what runs when a test runs is not
    counted here."""
    return next(impure_calls(node, origins), None) is not None


def impure_calls(node: ast.AST, origins: Mapping[str, str] | None = None) -> Iterator[ast.Call]:
    """The calls `calls_at_import` counts in `node`, outermost first."""
    todo: list[ast.AST] = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            todo.extend(d for d in item.args.defaults)
            todo.extend(d for d in item.args.kw_defaults if d is not None)
            continue  # the body runs when the function is called; decorators: `is_harmless`
        if isinstance(item, ast.Lambda):
            todo.extend(item.args.defaults)
            continue
        if isinstance(item, ast.ClassDef):
            todo.extend((*item.bases, *item.keywords, *item.body))
            continue
        if isinstance(item, ast.Call) and (origins is None or not pure_call(item, origins)):
            yield item
        todo.extend(child_nodes(item))


def imported_names(body: list[ast.stmt], walked: Walked | None = None) -> frozenset[str]:
    """The module-level names bound only by imports, relative ones included
    (`from ..conftest import try_import`), and nowhere else in the file."""
    walked = Walked() if walked is None else walked
    good: set[str] = set()
    bad: set[str] = set()
    for node in body:
        names = {name for name, _ in walked.binds(node)}
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not any(
            a.name == "*" for a in node.names
        ):
            good.update(names)
        else:
            bad.update(names)
    return frozenset(good - bad)


def file_names(body: list[ast.stmt], walked: Walked | None = None) -> frozenset[str]:
    """The names the file binds to its own code or values: what module-level
    statements other than imports bind, and every function and class it
    defines, at any depth."""
    walked = walked or Walked()
    names = {
        name
        for node in body
        if not isinstance(node, (ast.Import, ast.ImportFrom))
        for name, _ in walked.binds(node)
    }
    for node in body:
        names.update(_def_names(node, walked))
    return frozenset(names)


def _def_names(node: ast.stmt, walked: Walked) -> list[str]:
    """The names of the functions and classes `node` defines, at any depth;
    kept on the node (a statement the parser reuses in the file's next
    version is walked once)."""
    held: list[str] | None = node.__dict__.get("_gate_def_names")
    if held is None:
        held = node.__dict__["_gate_def_names"] = [
            inner.name
            for inner in walked.of(node)
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        ]
    return held


def handed(call: ast.Call, local: frozenset[str]) -> tuple[str, ...] | None:
    """What of the file's own a call's arguments hand the callee, which a
    callee that calls what it is given would run at import: each name the
    file binds itself (`file_names`) as `&name`; None for a lambda, whose
    code is new wherever it stands.  A handed name is like a callee: the
    base must hand it the same way (and a changed definition of it is a
    changed unit of its own)."""
    out: set[str] = set()
    for arg in (*call.args, *(k.value for k in call.keywords)):
        for node in ast.walk(arg):
            if isinstance(node, ast.Lambda):
                return None
            if isinstance(node, ast.Name) and node.id in local:
                out.add(f"&{node.id}")
    return tuple(sorted(out))


# What a call of another module's callable may not be, however often the
# file already makes it (`named_callees`): a write into the process's
# shared state, or a patcher.
_SHARED_ROOTS = ("os", "sys", "builtins", "importlib", "unittest.mock", "mock", "pytest")


def named_callees(
    calls: Iterable[ast.Call],
    origins: Mapping[str, str],
    imported: frozenset[str],
    local: frozenset[str] = frozenset(),
) -> tuple[str, ...] | None:
    """Each call's callee as written (`click.Option`, `TextPart`), sorted,
    when every one is a name or attribute chain from a name the file only
    imports (`imported_names`), is no method that writes (`_WRITING_METHODS`)
    and no callable of a module of shared state (`_SHARED_ROOTS`, by what
    it is imported as), and is handed no lambda; with the names of `local`
    it is handed (`handed`); else None."""
    out: set[str] = set()
    for call in calls:
        given = handed(call, local)
        if given is None:
            return None
        out.update(given)
        func = call.func
        parts: list[str] = []
        while isinstance(func, ast.Attribute):
            parts.append(func.attr)
            func = func.value
        if not isinstance(func, ast.Name) or func.id not in imported:
            return None
        if parts and parts[0] in _WRITING_METHODS:
            return None
        origin = origins.get(func.id, "")
        if any(origin == r or origin.startswith(f"{r}.") for r in _SHARED_ROOTS):
            return None
        out.add(".".join([func.id, *reversed(parts)]))
    return tuple(sorted(out))
