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
  with no star import, holding only imports is SUPPORT: it never runs; so
  is `if __name__ == "__main__":` with no `else` where nothing binds
  `__name__` (`Splitter.main_guard`).  A `try:` of imports alone guarded
  by `except ImportError: pass` (or a module-level `pytest.skip`) is split
  (`Splitter.import_guard`).  A module-level value computed by imported
  callables is COLLECTION with those as `=callee` `Unit.calls`, judged as
  SUPPORT where base values call them so (`Splitter.value_calls`).
* Any unit whose code changes what other tests share (`shares_state`: a
  `global`, an assignment into a module, `setattr`, `sys.modules`, ...)
  is COLLECTION, wherever it is: a new test that patches the code under
  test changes what the tests after it see.  One that only calls the
  file's helpers that do carries them as `~name` `Unit.calls` and is judged
  by its own role where a base unit calls them so (`sharing_defs`).
* An import unit says what it loads and when its removal runs nothing less
  (`Unit.loads`, `Unit.drop`: a standard-library module, or a capitalized
  name of a module still imported).
* The file's source encoding (its coding declaration or byte-order mark)
  is a unit `encoding` of its own: changing it changes every string.

A name bound a second time in one version (a new `def test_a` after the
old one, which replaces it in the module) makes the later unit
COLLECTION and its key `function test_a#2`.  `code` is the unit's whole
lines (`gate.base.text.lines`), decorators and comments inside it included;
a changed text is a change unless the unit's syntax tree, dumped without
positions (`Unit.same`), is as it was: a comment, a blank line, a line
broken inside brackets, another quote or a reformat change no test, and
a changed docstring, default, decorator or any other edit of the tree
does.  `uses` are
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
`eval`, ...) counts every identifier of every string.  Of the uses, `words`
(`words_of`) are the names only bare words spell (`"json"`, `"a, b"`) in
strings no call is handed (`mode="json"`, `{"type": "json"}`, `fmt ==
"json"`, a bare string annotation): they may name a fixture or a type,
never a module, so a new plain import (`import json`, `import os as j`:
`Unit.binds_module`) is judged against the uses less them, while a bare word
a call is handed (`getattr(request.module, "json")`,
`monkeypatch.setattr(mod, "json", ...)`, `patch.object`, a file's own
wrapper), a dotted path (`"tests.mod.json.loads"`) and every string of a
file that reaches its globals by computed names still count.  A new `from m
import x`, a def or a value is judged against all the uses (it may be a
fixture or a type).

New code that keeps to its own objects is no collection-time code: a method
assigning `self.x`, a nested function assigning into its parameter, a
`nonlocal` closure, reading `os.environ`/`sys.modules`/`sys.path` (`.get`,
an item, `in`, `**`, a copy, `patch.dict(os.environ, ...)` undone when it
exits).

This package is that splitter, one module a job: `tree` (the syntax tree
walked once), `scopes` (the names a unit reads), `calls` (which calls at
import only compute), `decorators` (harmless decorators, fixtures),
`shared` (state other tests share) and `splitter` (statements into units
and their roles).  Here: `units` (parsed once, the last texts' units kept)
and `reaches`, what `gate.drift` calls.
"""

from __future__ import annotations

import ast
import functools
import gc
import io
import textwrap
import tokenize
from collections.abc import Sequence

from gate.base.text import encode, lines, python_encoding_problem
from gate.drift import CASE, SUPPORT, Unit, Unparsable
from gate.drift.python.calls import file_names, import_origins, imported_names, known_callees
from gate.drift.python.decorators import mark_aliases, trusted_names
from gate.drift.python.helpers import grew
from gate.drift.python.kept import Context
from gate.drift.python.parsed import parse_module
from gate.drift.python.same import handed_names, reads_annotations
from gate.drift.python.scopes import introspects
from gate.drift.python.shared import shares_state, sharing_defs
from gate.drift.python.splitter import Splitter, collected_classes
from gate.drift.python.tree import Walked, prose_docstring, target_names
from gate.drift.reader import Reader


def units(text: str) -> tuple[Unit, ...]:
    """The units of a Python test file (see the module docstring); raises
    `Unparsable` when Python cannot read it.  The last texts' units are
    kept (`Unit` is frozen): a file's head in one commit is its base in the
    next, and `gate backtest` splits hundreds of versions of big files."""
    found = _cached_units(text)
    if isinstance(found, Unparsable):
        raise Unparsable(str(found))
    return found


# The texts whose units are kept (`units`).  With 64, 52 of the 363 texts
# pydantic-ai's last 100 commits split were split twice (18% of the
# characters): a file's head left the cache before a later commit read it
# as its base.  256 keeps them: 5% less CPU, 57 MB more peak RSS
# (docs/development.md, "gate backtest").
KEPT_TEXTS = 256


@functools.lru_cache(maxsize=KEPT_TEXTS)
def _cached_units(text: str) -> tuple[Unit, ...] | Unparsable:
    # The split makes a tree and its units, no cyclic garbage: the cyclic
    # collector, run every few hundred objects made, would scan what is
    # kept (these caches) again and again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _units(text)
    except Unparsable as exc:
        return exc
    finally:
        if collecting:
            gc.enable()


def _units(text: str) -> tuple[Unit, ...]:
    data, tree = _parse(text)
    split = Splitter(lines(text))
    split.add(
        Unit(
            key="encoding",
            name="the source encoding",
            role=SUPPORT,
            code=_encoding(data),
            line=1,
        )
    )
    test_classes = collected_classes(tree.body)
    walked = split.walked
    split.trusted = trusted_names(tree.body, walked)
    split.every_string = any(_introspects(node, walked) for node in tree.body)
    if not split.every_string:
        split.docstring = prose_docstring(tree.body, walked)
    split.origins = import_origins(tree.body, walked)
    split.aliases = mark_aliases(tree.body, split.origins, walked)
    split.imported = imported_names(tree.body, walked)
    split.local = file_names(tree.body, walked)
    split.star = any(name == "*" for node in tree.body for name, _ in walked.binds(node))
    split.known = known_callees(split.origins)
    split.sharing = sharing_defs(tree.body, walked, split.known)
    split.body = tree.body
    split.unread = not (split.star or split.every_string)
    split.unread = split.unread and not any(reads_annotations(n) for n in tree.body)
    split.handed = frozenset().union(*(handed_names(n, walked.of(n)) for n in tree.body))
    split.context = _context(split)
    for node in tree.body:
        split.statement(node, test_classes)
    return tuple(split.out)


# Each module context of the versions split lately, kept once (`_context`).
_KEPT_CONTEXTS = 256
_contexts: dict[Context, Context] = {}


def _context(split: Splitter) -> Context:
    """`Splitter.context`: what the module tells the split of each
    statement (what it imports, trusts, names and patches), one object
    for every version that agrees on it."""
    context = Context(
        whole=(split.every_string, split.star, frozenset(split.known.items()), split.unread),
        trusted=split.trusted,
        aliases=split.aliases,
        local=split.local,
        imported=split.imported,
        origins=frozenset(split.origins.items()),
    )
    held = _contexts.get(context)
    if held is None:
        if len(_contexts) >= _KEPT_CONTEXTS:
            _contexts.clear()
        held = _contexts[context] = context
    return held


def _introspects(node: ast.stmt, walked: Walked) -> bool:
    """`introspects` of one top-level statement, kept on the node (a
    statement the parser reuses in the file's next version is read once)."""
    held = node.__dict__.get("_gate_introspects")
    if held is None:
        held = node.__dict__["_gate_introspects"] = introspects(walked.of(node))
    return bool(held)


def _parse(text: str) -> tuple[bytes, ast.Module]:
    try:
        data = encode(text)
        tree = parse_module(text, data, settled=False)  # `Splitter.statement` settles
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
            if any(n == "pytest_plugins" for t in targets for n in target_names(t)):
                return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def script(path: str, units: Sequence[Unit], text: str) -> bool:
    """Whether a NEW module that no runner collects (by its default names
    or the base's `python_files`) is a script run by hand: it has an `if
    __name__ == "__main__":` block that `Splitter.main_guard` reads as one
    (no `else`, nothing binds `__name__`), and no test case.  No runner
    imports it, so its module-level code runs only when someone runs it
    (whether another file of the change imports it is asked apart:
    `gate.drift.judging.new_module`)."""
    guarded = any(u.role == SUPPORT and u.code.startswith("if __name__") for u in units)
    return guarded and not any(u.role == CASE for u in units)


def _read(text: str, suffix: str) -> tuple[Unit, ...]:
    """`units`, as the engine calls every language (one grammar: `suffix` unused)."""
    return units(text)


# What the engine reads Python test files with (`gate.drift.language.PYTHON`).
READER = Reader(units=_read, reaches=reaches, script=script, grew=grew)
