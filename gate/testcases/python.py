"""Python test files (pytest, unittest) as units, read with `ast`.

Every top-level statement is a unit; a test class is split into its
members.  What each becomes, by the names pytest and unittest collect by
default (`python_files`, `python_classes = Test*`, `python_functions =
test*`; a change to those settings is a test-configuration change, which
`test_drift` judges apart):

* `def test*` at module level: a CASE (`function test_x`).  A class
  named `Test*`, or one whose base is a `...TestCase` or a test class of
  the same file, is split: its header (decorators and the `class` line) is
  a CASE unit `class TestX`; `test*` methods are CASEs (`method
  TestX.test_y`); other methods (setUp, tearDown, helpers, fixtures) and
  plain class-level assignments SUPPORT: they act on that class's tests
  only, so they are welcome in a new class.  In a class that exists at base
  `compare` welcomes a new one only when no base code spells its name, no
  runner calls it (setUp, setup_method, assert*, ...; setUp runs around the
  existing tests) and the class's bases are plain or of the same file (an
  imported base's tests may call any member); otherwise it could override
  what the existing tests call.
* A fixture (`@pytest.fixture`, `@fixture`, `@pytest_asyncio.fixture`):
  SUPPORT, or COLLECTION with `autouse=True`; a `pytest_*` hook function
  and the module-level functions the runners call around a module's
  tests (`setup_module`, `setUpModule`, `load_tests`, ...): COLLECTION;
  other functions and classes: SUPPORT, unless a decorator
  other than a fixture's, a mark's or the standard library's plain
  wrappers runs at import (COLLECTION).
* Calls at import: a call that only computes a value counts as no call
  (`pure_call`): a well-known pure callable by what it is imported as
  (`Path`, `base64.*`, `field`, `pytest.mark.*`, `pytest.param`,
  hypothesis strategies, mock constructors, builtins such as `sorted`
  without `key=`; `_PURE_CALLS`), or a method of a literal or of such a
  call's result that writes nothing (`_WRITING_METHODS`): `ROOT =
  Path(__file__).parent` is SUPPORT.  A call of anything else (a project
  function, a class of the code under test) runs its code at import.  A
  mark or wrapper decorator is harmless only when its arguments make no
  other call (`@pytest.mark.parametrize("v", [setup()])` runs `setup()` at
  import); a name the module binds once to a pytest mark (`requires_bash =
  pytest.mark.skipif(...)`) is a mark as a decorator.
* Imports: one SUPPORT unit per imported name (`from pkg import name as
  alias`, spelled canonically), so adding a name to an existing import
  line, or rewrapping it, changes no unit while importing a name from
  elsewhere or under another alias does.  Assignments to plain names of
  values that make no call: SUPPORT.  Everything else that runs when the file is imported is
  COLLECTION: `pytestmark = ...`, calls (in a statement, a value, a
  default argument, a base class or a class body), assignments through
  an attribute or a subscript (`mod.attr = x`, `os.environ[...] = x`),
  augmented assignments and `del`, `if`/`try`/`with`/loops/`match`,
  `global`, asserts, star imports and `from __future__` imports (they
  change how every line compiles).  An `if TYPE_CHECKING:` (or `if
  typing.TYPE_CHECKING:`, imported from `typing`) with no `else`, in a file
  with no star import, holding only imports is SUPPORT: it never runs.
* Any unit whose code changes what other tests share (`shares_state`: a
  `global`, an assignment into a module, `setattr`, `sys.modules`, ...)
  is COLLECTION, wherever it is: a new test that patches the code under
  test changes what the tests after it see.
* The file's source encoding (its coding declaration or byte-order mark)
  is a unit `encoding` of its own: changing it changes every string.

A name bound a second time in one version (a new `def test_a` after the
old one, which replaces it in the module) makes the later unit
COLLECTION and its key `function test_a#2`.  `code` is the unit's whole
lines (`gate.text.lines`), decorators and comments inside it included,
so a change of any character (indentation too) is a change.  `uses` are
the names a unit may read from the module (`uses_of`): the names its code
reads through the module's namespace when it runs (module-level and class
body code, and what a function reads that it does not bind itself: a test
that does `import json` inside its body never sees a module-level `json`;
builtins such as `len` are read through the module too), every parameter
(the fixtures a test requests), and the identifiers of strings that read as
names or a type expression (`usefixtures("db")`, `patch("pkg.mod.json")`,
`"Foo | None"`); prose and data in strings (a docstring, `"application/json"`)
name nothing.  Annotations count whether or not `from __future__ import
annotations` is on: pydantic, `typing.get_type_hints` and frameworks that
read a function's signature evaluate them through the module.  A file whose
code reaches its own globals by computed names (`globals()`, `sys.modules`,
`eval`, ...) counts every identifier of every string.

New code that keeps to its own objects is no collection-time code: a method
assigning `self.x`, a nested function assigning into its parameter, a
`nonlocal` closure, reading `os.environ`/`sys.modules`/`sys.path` (`.get`,
an item, `in`, `**`, a copy, `patch.dict(os.environ, ...)` undone when it
exits).
"""

from __future__ import annotations

import ast
import functools
import io
import re
import textwrap
import tokenize
from collections.abc import Iterable, Mapping

from gate.testcases import CASE, COLLECTION, SUPPORT, Unit, Unparsable
from gate.text import encode, lines, python_encoding_problem

# Each node type's fields, read once: `_children` is `ast.iter_child_nodes`
# without its two generators (the splitter walks every node of a big file
# several times, and this is where its time went).
_FIELDS: dict[type, tuple[str, ...]] = {}


def _children(node: ast.AST) -> list[ast.AST]:
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


def _walk(node: ast.AST) -> list[ast.AST]:
    """`list(ast.walk(node))`: the same nodes, in the same order."""
    out = [node]
    i = 0
    while i < len(out):
        out.extend(_children(out[i]))
        i += 1
    return out


_BINDING_KINDS = frozenset(
    {ast.Name, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.alias}
)


class _Walked:
    """Each statement's nodes (`_walk`) and the names it binds, computed
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
                for child in _children(node):
                    found.extend(self.of(child))
            else:
                found = _walk(node)
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


# Module-level functions pytest or unittest call around a module's tests.
MODULE_AROUND = frozenset(
    {
        "setup_module",
        "teardown_module",
        "setup_function",
        "teardown_function",
        "setUpModule",
        "tearDownModule",
        "setup",
        "teardown",
        "load_tests",
    }
)
# Decorators that define without running anything of the test file's own
# at import: a fixture's, a mark's, the standard wrappers.
_FIXTURES = ("fixture", "pytest.fixture", "pytest_asyncio.fixture")
_HARMLESS = (
    "pytest.mark.",
    "mark.",
    "unittest.skip",
    "unittest.expectedFailure",
    "skip",
    "skipIf",
    "skipUnless",
    "expectedFailure",
    "staticmethod",
    "classmethod",
    "property",
    "functools.",
    "wraps",
    "cache",
    "lru_cache",
    "contextlib.",
    "contextmanager",
    "asynccontextmanager",
    "dataclass",
    "dataclasses.dataclass",
    "abc.abstractmethod",
    "abstractmethod",
    "mock.patch",
    "mock.patch.",
    "patch",
    "patch.",
    "unittest.mock.patch",
    "unittest.mock.patch.",
    "parametrize",
    "settings",
    "given",
    "example",
    "hypothesis.",
)


def units(text: str) -> tuple[Unit, ...]:
    """The units of a Python test file (see the module docstring); raises
    `Unparsable` when Python cannot read it.  The last texts' units are
    kept (`Unit` is frozen): a file's head in one commit is its base in the
    next, and `gate backtest` splits hundreds of versions of big files."""
    found = _cached_units(text)
    if isinstance(found, Unparsable):
        raise Unparsable(str(found))
    return found


@functools.lru_cache(maxsize=64)
def _cached_units(text: str) -> tuple[Unit, ...] | Unparsable:
    try:
        return _units(text)
    except Unparsable as exc:
        return exc


def _units(text: str) -> tuple[Unit, ...]:
    data, tree = _parse(text)
    split = _Splitter(lines(text))
    split.add(
        Unit(
            key="encoding",
            name="the source encoding",
            role=SUPPORT,
            code=_encoding(data),
            line=1,
        )
    )
    test_classes = _test_classes(tree.body)
    walked = split.walked
    split.trusted = trusted_names(tree.body, walked)
    split.every_string = introspects(n for node in tree.body for n in walked.of(node))
    split.origins = import_origins(tree.body, walked)
    split.aliases = mark_aliases(tree.body, split.origins, walked)
    split.star = any(name == "*" for node in tree.body for name, _ in walked.binds(node))
    for node in tree.body:
        split.statement(node, test_classes)
    return tuple(split.out)


def _parse(text: str) -> tuple[bytes, ast.Module]:
    try:
        data = encode(text)
        tree = ast.parse(data)
    except SyntaxError as exc:
        where = f" at line {exc.lineno}" if exc.lineno is not None else ""
        raise Unparsable(f"does not parse as Python{where}: {exc.msg}") from None
    except ValueError as exc:  # NUL bytes; a text no file decodes to
        raise Unparsable(f"is not Python source: {exc}") from None
    except (RecursionError, MemoryError) as exc:
        raise Unparsable(f"nests too deeply for Python's parser ({type(exc).__name__})") from None
    encoding = python_encoding_problem(data)
    if encoding is not None:
        raise Unparsable(
            f"declares the source encoding {encoding}, under which Python's lines are "
            "not the lines of its bytes"
        )
    return data, tree


def _encoding(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:  # pragma: no cover - ast.parse refused it already
        return "unreadable"
    return encoding


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


def _is_fixture(
    node: ast.FunctionDef | ast.AsyncFunctionDef, trusted: frozenset[str]
) -> tuple[bool, bool]:
    """(is a fixture, is autouse), for a decorator whose root name is `trusted`."""
    for deco in node.decorator_list:
        if dotted(deco) in _FIXTURES and dotted(deco).split(".")[0] in trusted:
            autouse = isinstance(deco, ast.Call) and any(
                k.arg == "autouse" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                for k in deco.keywords
            )
            return True, autouse
    return False, False


def _fixture_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The names a fixture is requested by besides its function's
    (`@pytest.fixture(name="db")`)."""
    out = []
    for deco in node.decorator_list:
        if isinstance(deco, ast.Call) and dotted(deco) in _FIXTURES:
            for k in deco.keywords:
                if k.arg == "name" and isinstance(k.value, ast.Constant):
                    out.append(str(k.value.value))
    return tuple(out)


def _harmless(
    deco: ast.expr,
    trusted: frozenset[str],
    origins: Mapping[str, str] | None = None,
    aliases: frozenset[str] = frozenset(),
) -> bool:
    """Whether decorator `deco` only defines: one of `_HARMLESS`, through a
    root name `trusted` (see `trusted_names`: `@given` imported from
    elsewhere, or a `fixture` defined in the file, may run anything), or a
    name the module binds once to a pytest mark (`mark_aliases`:
    `requires_bash = pytest.mark.skipif(...)`).  With `origins`
    (`import_origins`), its arguments may make only the calls
    `pure_call` knows (`@pytest.mark.parametrize("v", [Path("a"), 2])`,
    `@given(st.integers())`): `@pytest.mark.parametrize("v", [setup()])`
    runs `setup()` at import."""
    if isinstance(deco, ast.Name) and deco.id in aliases:
        return True
    name = dotted(deco)
    known = (
        bool(name)
        and name.split(".")[0] in trusted
        and any(
            name == h.rstrip(".") or (h.endswith(".") and name.startswith(h)) for h in _HARMLESS
        )
    )
    if not known or origins is None or not isinstance(deco, ast.Call):
        return known
    return not any(calls_at_import(a, origins) for a in (*deco.args, *deco.keywords))


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
_KEYED = frozenset({"sorted", "min", "max"})
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
    }
)


def import_origins(body: list[ast.stmt], walked: _Walked | None = None) -> dict[str, str]:
    """Each module-level name bound only by absolute imports -> what it
    imports (`import base64` -> `base64`, `from pathlib import Path` ->
    `pathlib.Path`, `from unittest import mock` -> `unittest.mock`), and
    `_PURE_BUILTINS` the module never binds -> `builtins.NAME`."""
    walked = _Walked() if walked is None else walked
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
    out.update({b: f"builtins.{b}" for b in _PURE_BUILTINS if b not in good and b not in bad})
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
    if name and isinstance(_root(func), ast.Name):
        root, _, rest = name.partition(".")
        origin = origins.get(root)
        if origin is None:
            return False
        qualified = f"{origin}.{rest}" if rest else origin
        if qualified.startswith("builtins."):
            return not rest and not (root in _KEYED and any(k.arg == "key" for k in call.keywords))
        return any(
            qualified == p or (p.endswith(".") and qualified.startswith(p)) for p in _PURE_CALLS
        )
    if isinstance(func, ast.Attribute):  # a method of a value: a literal, or a call's
        receiver = _root(func.value)  # result (that call is judged on its own)
        return isinstance(
            receiver, (ast.Call, ast.Constant, ast.JoinedStr, ast.List, ast.Tuple, ast.Dict)
        )
    return False


def mark_aliases(
    body: list[ast.stmt], origins: Mapping[str, str], walked: _Walked | None = None
) -> frozenset[str]:
    """Names the module binds once, to a pytest mark whose arguments make
    only pure calls (`requires_bash = pytest.mark.skipif(not which("bash"),
    reason=...)`): as a decorator such a name only marks."""
    candidates = [
        node
        for node in body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and dotted(node.value).split(".")[0] in origins
    ]
    if not candidates:
        return frozenset()
    walked = _Walked() if walked is None else walked
    counts: dict[str, int] = {}
    for node in body:
        for name, weight in walked.binds(node):
            counts[name] = counts.get(name, 0) + weight
    out = set()
    for node in candidates:
        if not (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and counts.get(node.targets[0].id) == 1
        ):
            continue
        value = node.value
        name = dotted(value)
        root, _, rest = name.partition(".")
        origin = origins.get(root)
        if (
            not name
            or origin is None
            or not isinstance(_root(value.func if isinstance(value, ast.Call) else value), ast.Name)
        ):
            continue
        qualified = f"{origin}.{rest}" if rest else origin
        if not (qualified.startswith("pytest.mark.") or qualified.startswith("_pytest.mark.")):
            continue
        if isinstance(value, ast.Call) and any(
            calls_at_import(a, origins) for a in (*value.args, *value.keywords)
        ):
            continue
        out.add(node.targets[0].id)
    return frozenset(out)


# The packages whose decorators `_HARMLESS` names.
_TRUSTED_PACKAGES = frozenset(
    {
        "pytest",
        "_pytest",
        "pytest_asyncio",
        "unittest",
        "mock",
        "functools",
        "contextlib",
        "dataclasses",
        "abc",
        "typing",
        "hypothesis",
    }
)
_BUILTIN_WRAPPERS = frozenset({"staticmethod", "classmethod", "property"})


def trusted_names(body: list[ast.stmt], walked: _Walked | None = None) -> frozenset[str]:
    """The module-level names a harmless decorator may start with: each
    bound only by imports from `_TRUSTED_PACKAGES` (`import pytest`, `from
    unittest import mock`, `from functools import wraps`), and the builtin
    wrappers (`staticmethod`, ...) where the module binds no such name."""
    walked = _Walked() if walked is None else walked
    good: set[str] = set()
    bad: set[str] = set()
    for node in body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                package = alias.name.split(".")[0]
                (good if package in _TRUSTED_PACKAGES else bad).add(name)
        elif isinstance(node, ast.ImportFrom):
            package = (node.module or "").split(".")[0]
            trusted = node.level == 0 and package in _TRUSTED_PACKAGES
            for alias in node.names:
                (good if trusted else bad).add(alias.asname or alias.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bad.add(node.name)
        else:  # an assignment, or an if/try/with that may bind anything
            bad.update(name for name, _ in walked.binds(node))
    return frozenset((good | (_BUILTIN_WRAPPERS - bad)) - bad)


def _test_classes(body: list[ast.stmt]) -> frozenset[str]:
    """The classes of `body` pytest or unittest collect: `Test*`, a
    `...TestCase` subclass, or a subclass of one of those in the same file."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in body:
            if not isinstance(node, ast.ClassDef) or node.name in found:
                continue
            bases = [dotted(b).rsplit(".", 1)[-1] for b in node.bases]
            if (
                node.name.startswith("Test")
                or any(b.endswith("TestCase") for b in bases)
                or any(b in found for b in bases)
            ):
                found.add(node.name)
                changed = True
    return frozenset(found)


def _special_import(node: ast.Import | ast.ImportFrom) -> bool:
    """A star import (binds names nobody can list) or a `__future__` import
    (changes how every line compiles): one COLLECTION unit, not one a name."""
    if isinstance(node, ast.Import):
        return False
    return node.module == "__future__" or any(a.name == "*" for a in node.names)


def _bound(node: ast.stmt) -> tuple[str, ...]:
    """Plain names a simple statement binds (imports, assignments to names)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return tuple((a.asname or a.name).split(".")[0] for a in node.names)
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    out: list[str] = []
    for target in targets:
        out.extend(_names(target))
    return tuple(out)


def _names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _names(elt)]
    if isinstance(target, ast.Starred):
        return _names(target.value)
    return []


def _plain_targets(node: ast.Assign | ast.AnnAssign) -> bool:
    """Every target is a name (or a tuple of names), none an attribute or item."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]

    def plain(t: ast.expr) -> bool:
        if isinstance(t, ast.Name):
            return True
        if isinstance(t, (ast.Tuple, ast.List)):
            return all(plain(e) for e in t.elts)
        if isinstance(t, ast.Starred):
            return plain(t.value)
        return False

    return all(plain(t) for t in targets)


def _type_checking_imports(node: ast.If, origins: Mapping[str, str], star: bool) -> bool:
    """Whether `node` is `if TYPE_CHECKING:` (or `if typing.TYPE_CHECKING:`,
    the name imported from `typing` or `typing_extensions` and bound by
    nothing else: `import_origins`) holding only plain imports, with no
    `else`: the block never runs, and if it did it would only import.  In
    a file with a star import (`star`: it may rebind the name) it is not."""
    test = node.test
    if isinstance(test, ast.Name):
        origin = origins.get(test.id)
    elif isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name):
        module = origins.get(test.value.id)
        origin = f"{module}.{test.attr}" if module is not None else None
    else:
        return False
    if origin not in ("typing.TYPE_CHECKING", "typing_extensions.TYPE_CHECKING"):
        return False
    if node.orelse or star:
        return False
    return all(
        isinstance(s, (ast.Import, ast.ImportFrom)) and not _special_import(s) for s in node.body
    )


def _first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


class _Splitter:
    def __init__(self, text_lines: list[str]) -> None:
        self.lines = text_lines
        self.out: list[Unit] = []
        self.keys: set[str] = set()
        self.bound: dict[str, set[str]] = {}  # scope ("" module, else class) -> names
        self.trusted: frozenset[str] = frozenset()  # `trusted_names` of the module
        self.every_string = False  # `introspects`: every string's identifiers are uses
        self.origins: dict[str, str] = {}  # `import_origins` of the module
        self.aliases: frozenset[str] = frozenset()  # `mark_aliases` of the module
        self.walked = _Walked()  # each statement's nodes, walked once
        self.star = False  # the module has a star import somewhere

    def harmless(self, deco: ast.expr) -> bool:
        return _harmless(deco, self.trusted, self.origins, self.aliases)

    def calls(self, node: ast.AST) -> bool:
        return calls_at_import(node, self.origins)

    def code(self, first: int, last: int) -> str:
        return "".join(self.lines[first - 1 : last])

    def add(self, unit: Unit, scope: str | None = None) -> None:
        key = unit.key
        n = 1
        while key in self.keys:
            n += 1
            key = f"{unit.key}#{n}"
        role = unit.role
        if scope is not None:
            seen = self.bound.setdefault(scope, set())
            if any(name in seen for name in unit.binds):
                role = COLLECTION  # replaces a name bound earlier in this version
            seen.update(unit.binds)
        self.keys.add(key)
        self.out.append(
            Unit(
                key=key,
                name=unit.name,
                role=role,
                code=unit.code,
                binds=unit.binds,
                line=unit.line,
                parent=unit.parent,
                uses=unit.uses if unit.uses is not None else (),
            )
        )

    def unit(
        self,
        node: ast.stmt,
        key: str,
        name: str,
        role: str,
        binds: tuple[str, ...] = (),
        parent: str = "",
        nodes: list[ast.AST] | None = None,
    ) -> Unit:
        first = _first_line(node)
        last = node.end_lineno or node.lineno
        return Unit(
            key=key,
            name=name,
            role=role,
            code=self.code(first, last),
            binds=binds,
            line=first,
            parent=parent,
            uses=uses_of(node, nodes, every_string=self.every_string),
        )

    def statement(self, node: ast.stmt, test_classes: frozenset[str]) -> None:
        if isinstance(node, ast.ClassDef) and node.name in test_classes:
            self.test_class(node)
            return
        nodes = self.walked.of(node)  # walked once, read by every check
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            role = _function_role(node, nodes, self)
            binds = (node.name, *_fixture_names(node))
            self.add(
                self.unit(node, f"function {node.name}", node.name, role, binds, "", nodes), ""
            )
        elif isinstance(node, ast.ClassDef):
            quiet = all(self.harmless(d) for d in node.decorator_list)
            quiet = quiet and not shares_state(node, nodes) and not self.calls(node)
            role = SUPPORT if quiet else COLLECTION
            unit = self.unit(node, f"class {node.name}", node.name, role, (node.name,), "", nodes)
            self.add(unit, "")
        else:
            self.simple(node, nodes)

    def simple(self, node: ast.stmt, nodes: list[ast.AST]) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not _special_import(node):
            self.imports(node)
            return
        binds = _bound(node)
        text = self.code(_first_line(node), node.end_lineno or node.lineno)
        role = COLLECTION
        if isinstance(node, ast.Import):
            role = SUPPORT
        elif isinstance(node, ast.ImportFrom):
            star = any(a.name == "*" for a in node.names)
            role = COLLECTION if star or node.module == "__future__" else SUPPORT
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            plain = _plain_targets(node) and "pytestmark" not in binds
            plain = plain and "pytest_plugins" not in binds and "collect_ignore" not in binds
            plain = plain and not any(n.startswith("collect_ignore") for n in binds)
            role = SUPPORT if plain and not self.calls(node) else COLLECTION
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            role = SUPPORT  # a docstring or a bare constant runs nothing
        elif isinstance(node, ast.If) and _type_checking_imports(node, self.origins, self.star):
            role = SUPPORT  # never runs; were it to, it would only import
        if role == SUPPORT and shares_state(node, nodes):
            role = COLLECTION
        what = "import" if isinstance(node, (ast.Import, ast.ImportFrom)) else "assignment"
        if binds:
            key = f"{what} {', '.join(binds)}"
            name = f"{what} {', '.join(binds)}"
        else:
            key = f"statement {' '.join(text.split())}"
            name = f"statement at line {node.lineno}"
        unit = Unit(
            key=key,
            name=name,
            role=role,
            code=text,
            binds=binds,
            line=_first_line(node),
            uses=uses_of(node, nodes, every_string=self.every_string),
        )
        self.add(unit, "")

    def imports(self, node: ast.Import | ast.ImportFrom) -> None:
        """One SUPPORT unit per imported name, its code the import spelled
        canonically (`from pkg.mod import name as alias`): adding a name to an
        existing `from x import a` line, or rewrapping the line, leaves the
        units of the names already there as they were, while importing a name
        from elsewhere, or under another alias, changes its unit."""
        source = ""
        if isinstance(node, ast.ImportFrom):
            source = f"from {'.' * node.level}{node.module or ''} "
        for alias in node.names:
            spelled = f"{source}import {alias.name}"
            if alias.asname is not None:
                spelled += f" as {alias.asname}"
            bound = alias.asname or alias.name.split(".")[0]
            self.add(
                Unit(
                    key=spelled,
                    name=spelled,
                    role=SUPPORT,
                    code=spelled,
                    binds=(bound,),
                    line=getattr(alias, "lineno", node.lineno),
                    uses=(),
                ),
                "",
            )

    def test_class(self, node: ast.ClassDef) -> None:
        cls = node.name
        # The header ends where the class line does: blank and comment lines
        # before the first member belong to no unit (a new first member
        # does not change the header).
        header_last = max(node.lineno, _first_line(node.body[0]) - 1)
        while header_last > node.lineno and self.lines[header_last - 1].strip()[:1] in ("", "#"):
            header_last -= 1
        first = _first_line(node)
        quiet = all(self.harmless(d) for d in node.decorator_list)
        quiet = quiet and not any(self.calls(b) for b in (*node.bases, *node.keywords))
        role = CASE if quiet else COLLECTION
        header = (*node.decorator_list, *node.bases, *node.keywords)
        self.add(
            Unit(
                key=f"class {cls}",
                name=cls,
                role=role,
                code=self.code(first, header_last),
                binds=(cls,),
                line=first,
                uses=tuple(
                    sorted(
                        {
                            n
                            for part in header
                            for n in uses_of(part, every_string=self.every_string)
                        }
                    )
                ),
            ),
            "",
        )
        parent = f"class {cls}"
        for member in node.body:
            nodes = self.walked.of(member)
            if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = member.name
                # setUp, an autouse fixture, a helper: they act on this
                # class's tests only, and `compare` refuses a new one in a
                # class that exists at base.
                fixture = _is_fixture(member, self.trusted)[0]
                role = CASE if name.startswith("test") and not fixture else SUPPORT
                if (
                    not all(self.harmless(d) for d in member.decorator_list)
                    or shares_state(member, nodes)
                    or self.calls(member)
                ):
                    role = COLLECTION
                unit = self.unit(
                    member, f"method {cls}.{name}", f"{cls}.{name}", role, (name,), parent, nodes
                )
            else:
                binds = _bound(member)
                text = self.code(_first_line(member), member.end_lineno or member.lineno)
                if binds:
                    key = f"attribute {cls}.{', '.join(binds)}"
                    label = f"{cls}.{', '.join(binds)}"
                else:
                    key = f"in {cls}: {' '.join(text.split())}"
                    label = f"statement at line {member.lineno} of {cls}"
                plain = isinstance(member, (ast.Assign, ast.AnnAssign)) and _plain_targets(member)
                docstring = isinstance(member, ast.Expr) and isinstance(member.value, ast.Constant)
                quiet = plain or docstring or isinstance(member, ast.Pass)
                quiet = quiet and not shares_state(member, nodes)
                quiet = quiet and not self.calls(member)
                role = SUPPORT if quiet else COLLECTION
                unit = Unit(
                    uses=uses_of(member, nodes, every_string=self.every_string),
                    key=key,
                    name=label,
                    role=role,
                    code=text,
                    binds=binds,
                    line=_first_line(member),
                    parent=parent,
                )
            self.add(unit, cls)


def _function_role(
    node: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST], split: _Splitter
) -> str:
    if shares_state(node, nodes) or split.calls(node):
        return COLLECTION
    fixture, autouse = _is_fixture(node, split.trusted)
    if fixture:
        return COLLECTION if autouse else SUPPORT
    if node.name.startswith("pytest_") or node.name in MODULE_AROUND:
        return COLLECTION
    if not all(split.harmless(d) for d in node.decorator_list):
        return COLLECTION
    return CASE if node.name.startswith("test") else SUPPORT


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


def _root(node: ast.expr) -> ast.expr:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node


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
    nodes = _walk(node) if nodes is None else nodes
    own: set[str] = set()
    parents: dict[int, ast.AST] | None = None  # built when a shared object is met
    for sub in nodes:
        if type(sub) not in _OWN_KINDS:  # most nodes: skipped by their type alone
            continue
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            own.update(a.arg for a in _args(sub.args))  # `self` of a helper class's method
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
                root = _root(part)
                if not isinstance(root, ast.Name) or root.id not in own:
                    return True
                if _DUNDERS & _chain_attrs(part):
                    return True
        if isinstance(sub, ast.Attribute) and sub.attr in _SHARED_ATTRS:
            # the inner node of `sys.modules.pop` is `sys.modules`
            if dotted(sub) in _SHARED:
                if parents is None:
                    parents = {id(child): up for up in nodes for child in _children(up)}
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
def _string_names(value: str) -> tuple[str, ...]:
    """The identifiers of a string whose whole text reads as names, a
    dotted path, a comma-separated list or a type expression (see
    `_SHAPED_CHARS`); () for prose and data."""
    stripped = value.strip()
    if not stripped or not _SHAPED_CHARS.fullmatch(stripped):
        return ()
    try:
        tree = ast.parse(stripped, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    if not all(isinstance(n, _SHAPED_NODES) for n in ast.walk(tree)):
        return ()
    return tuple(_IDENTIFIER.findall(stripped))


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


def _args(args: ast.arguments) -> list[ast.arg]:
    out = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    out.extend(a for a in (args.vararg, args.kwarg) if a is not None)
    return out


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
            stack.extend(_children(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            stack.extend(args.defaults)
            stack.extend(d for d in args.kw_defaults if d is not None)
            if not isinstance(node, ast.Lambda):
                own.append(node)  # binds its name here
                stack.extend(node.decorator_list)
                stack.extend(a.annotation for a in _args(args) if a.annotation is not None)
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
            stack.extend(_children(node))
    return own, nested


_BINDING_NODE_KINDS = frozenset(
    {
        ast.Name,
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.ClassDef,
        ast.alias,
        ast.ExceptHandler,
        ast.Nonlocal,
        ast.Global,
        *_MATCH_CAPTURES,
    }
)


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


def module_loads(roots: list[ast.AST]) -> set[str]:
    """The names the code of `roots` reads through the module's namespace
    when it runs: every name read at module level or in a class body
    (where a name the class assigns may still be read from the module
    first), and in a function, lambda or comprehension the names it reads
    that neither it nor an enclosing function binds (a local `import json`
    makes `json` local to that function: a module-level `json` never
    reaches it)."""
    out: set[str] = set()
    todo: list[tuple[str, list[ast.AST], frozenset[str], frozenset[str]]] = [
        ("module", roots, frozenset(), frozenset())
    ]
    while todo:
        scope, body, enclosing, params = todo.pop()
        own, nested = _own_nodes(body)
        local = _bound_in(own) | params if scope == "function" else set()
        seen = local | enclosing
        for node in own:
            if isinstance(node, ast.Name) and node.id not in seen:
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
                names = frozenset(a.arg for a in _args(node.args))
                body_of: list[ast.AST] = (
                    [node.body] if isinstance(node, ast.Lambda) else list(node.body)
                )
                todo.append(("function", body_of, inner, names))
    return out


_USES_KINDS = frozenset({ast.arg, ast.JoinedStr, ast.Constant})


def uses_of(
    node: ast.AST,
    nodes: list[ast.AST] | None = None,
    *,
    every_string: bool = False,
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
    function that reads it is not read from the module."""
    found = module_loads([node])
    for sub in _walk(node) if nodes is None else nodes:
        if type(sub) not in _USES_KINDS:
            continue
        if isinstance(sub, ast.arg):
            found.add(sub.arg)
        elif isinstance(sub, ast.JoinedStr):  # an f-string's text: every identifier
            for part in sub.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    found.update(_IDENTIFIER.findall(part.value))
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            if every_string:
                found.update(_IDENTIFIER.findall(sub.value))
            else:
                found.update(_string_names(sub.value))
    return tuple(sorted(found))


def calls_at_import(node: ast.AST, origins: Mapping[str, str] | None = None) -> bool:
    """Whether `node` makes a call when the module (or its class body) is
    executed: outside function bodies, a call in a value, a default
    argument, a base class, a class-level statement.  With `origins`
    (`import_origins`), a call `pure_call` knows does not count
    (`ROOT = Path(__file__).parent`, `PNG = base64.b64decode(...)`,
    `x: list = field(default_factory=list)`).  A decorator's own
    call is judged apart (`_harmless`); what runs when a test runs is not
    counted here."""
    todo: list[ast.AST] = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            todo.extend(d for d in item.args.defaults)
            todo.extend(d for d in item.args.kw_defaults if d is not None)
            continue  # the body runs when the function is called; decorators: `_harmless`
        if isinstance(item, ast.Lambda):
            todo.extend(item.args.defaults)
            continue
        if isinstance(item, ast.ClassDef):
            todo.extend((*item.bases, *item.keywords, *item.body))
            continue
        if isinstance(item, ast.Call) and (origins is None or not pure_call(item, origins)):
            return True
        todo.extend(_children(item))
    return False


def reaches(unit: Unit) -> bool:
    """Whether `unit`, collection-time code of a NEW test module, changes
    what the tests of other files see.  A new module's own collection-time
    code (a `from __future__` import, `pytestmark`, an autouse fixture, a
    class body or a value that makes a call, a name bound twice) acts on
    that module's tests only, which are new; what reaches the others is
    what `shares_state` names (an assignment into another module,
    `sys.modules`, `os.environ`, a patcher's `.start()`, ...), a statement
    made for its effect (a call outside any function body), a `pytest_*`
    hook and `pytest_plugins`.  A unit whose code does not parse alone
    counts as reaching.  Where the line is drawn: a call made for its value
    (`APP = make_app()`) or a decorator may still mutate what it reaches;
    as in `shares_state`, counting every call would count every module."""
    try:
        tree = ast.parse(textwrap.dedent(unit.code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    if any(shares_state(statement) for statement in tree.body):
        return True
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("pytest_"):
                return True
            continue  # its body runs when called: `shares_state` judged it
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await)):
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(n == "pytest_plugins" for t in targets for n in _names(t)):
                return True
        todo.extend(ast.iter_child_nodes(node))
    return False
