"""A Python test helper module that only grew (`grew`, the engine's
`Reader.grew`).

A module at a test path that no runner collects (`tests/helpers.py`,
`tests/_events.py`, `tests/utils/fakes.py`; not a `conftest.py`, which
pytest loads as a plugin, nor a package's `__init__.py`, which a test
importing any module of the package runs, and whose new name can hide a
submodule of that name, nor a file under a data folder, which a test may
read as text: `gate.drift.judging` leaves those out) is judged whole:
existing tests may read any of it.
One whose every base statement is unchanged (the units of both versions,
`compare`) and that gains only new definitions under new names changes no
existing test, since none can call what did not exist: new functions and
classes without a decorator that runs at import, values that make no call,
imports of the standard library or of a module a base import loads already
(a capitalized name, not a submodule).  Still drift: a new unit that runs at
import (a call, a value built by a call, a store into another module,
`sys.modules`, a decorator that registers: `@atexit.register`,
`@pytest.fixture(autouse=True)`, a project's), a new fixture (a helper named
in `pytest_plugins` or `-p` is a plugin, and its fixture would override one
existing tests request), a call in a signature's annotation (evaluated
when the `def` runs, unless `from __future__ import annotations`), a class
with keywords (`metaclass=`), a name the base binds or any base code reads,
a builtin's name, a module dunder (`__getattr__`, `__all__`, `__dir__`), a
new member of a base class, any new name in a module whose base reaches or
lists its globals by computed names (`globals()`, `dir()`,
`getattr(sys.modules[__name__], ...)`, `inspect.getmembers`), star-imports
another module or defines `__getattr__`, and a new name a file of the change
star-imports (`from tests.helpers import *`) where that file binds or reads
it.  Out of reach: an unchanged test module that star-imports the helper
(its text is not part of the change)."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping

from gate.drift import COLLECTION, Unit, Unparsable, compare, units_for
from gate.drift.python.decorators import is_fixture, trusted_names
from gate.drift.python.scopes import introspects

# Unit kinds (the first word of `Unit.key`) a helper may gain.
_KINDS = frozenset({"function", "class", "import", "from", "assignment", "module"})
_BUILTINS = frozenset(dir(builtins))
# Names that list or reach a module's own names, besides `introspects`':
# `dir()`, `inspect.getmembers(...)`, `sys.modules[__name__]`.
_LISTING = frozenset({"__name__", "dir", "getmembers"})
# Base module names that decide what any new name means.
_LOOKUP = frozenset({"__getattr__", "__dir__"})


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _tree(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _exported(head: ast.Module, names: set[str]) -> set[str]:
    """Of `names`, those `from helper import *` binds: the head's `__all__`
    where it is a literal list or tuple of strings, else the public ones."""
    for node in head.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                value = node.value
                if isinstance(value, (ast.List, ast.Tuple)) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
                ):
                    listed = {e.value for e in value.elts if isinstance(e, ast.Constant)}
                    return names & listed
                return set(names)
    return {n for n in names if not n.startswith("_")}


def _star_readers(path: str, others: Mapping[str, str]) -> dict[str, set[str]]:
    """Each other Python file of the change that star-imports a module named
    as `path` is (by its last component; `from .helpers import *`
    included) -> every name it binds or may read (`Unit.binds`, `Unit.uses`;
    every identifier where its units cannot be read)."""
    stem = path.rsplit("/", 1)[-1][: -len(".py")].casefold()
    out: dict[str, set[str]] = {}
    for other, text in sorted(others.items()):
        if other == path or not other.endswith(".py"):
            continue
        tree = _tree(text)
        if tree is None:
            continue
        star = any(
            isinstance(n, ast.ImportFrom)
            and (n.module or "").rsplit(".", 1)[-1].casefold() == stem
            and any(a.name == "*" for a in n.names)
            for n in ast.walk(tree)
        )
        if not star:
            continue
        try:
            found = units_for(other, text) or ()
        except Unparsable:
            out[other] = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            continue
        names: set[str] = set()
        for u in found:
            names.update(u.binds)
            names.update(u.uses or ())
        out[other] = names
    return out


def _runs_when_defined(node: ast.stmt, lazy: bool) -> bool:
    """Whether defining `node` runs code the splitter's roles leave out: a
    call in an annotation of a function's signature, evaluated when the
    `def` runs unless `lazy` (`from __future__ import annotations`), or a
    class's keywords (`metaclass=`, `__init_subclass__` arguments)."""
    if isinstance(node, ast.ClassDef):
        return bool(node.keywords)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not lazy:
        args = node.args
        notes = [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
        notes += [a.annotation for a in (args.vararg, args.kwarg) if a is not None]
        notes.append(node.returns)
        return any(isinstance(n, ast.Call) for note in notes if note for n in ast.walk(note))
    return False


def _new_unit_why(
    u: Unit, base: tuple[Unit, ...], fixtures: set[str], defined: set[str]
) -> str | None:
    kind = u.key.split(" ", 1)[0]
    if u.parent:
        if any(b.key == u.parent for b in base):
            return "is added to a class that exists at base, which a class elsewhere may inherit"
        return None  # a member of a new class
    if u.role == COLLECTION:
        return "runs code when the module is imported"
    if kind not in _KINDS:
        return "is a statement, not a definition"
    if any(_dunder(n) for n in u.binds):
        return "binds a module dunder, which changes what importing the module gives"
    if set(u.binds) & _BUILTINS:
        return "binds the name of a builtin, which a module star-importing this one reads"
    if set(u.binds) & defined:
        return "runs code when it is defined (a call in an annotation, a metaclass)"
    if kind == "function" and set(u.binds) & fixtures:
        return (
            "is a fixture: a helper module named as a plugin (`pytest_plugins`, `-p`) "
            "gives it to existing tests"
        )
    if kind in ("import", "from"):
        loaded = {b.loads for b in base if b.loads}
        if u.drop != "*" and not (
            u.drop and any(m == u.drop or m.startswith(f"{u.drop}.") for m in loaded)
        ):
            return "imports a module the base does not load, whose code runs at import"
    return None


def grew(
    path: str, base_text: str, head_text: str, others: Mapping[str, str], allow_added: bool
) -> tuple[str, ...] | None:
    """Why the helper module `path`'s head is not its base with only new
    definitions (see the module docstring): () when it only grew, None when
    it is not a module this judges (a package's `__init__.py`, a version
    that does not parse): judged whole.  `others`: the head texts of the
    change's other files, for the ones that star-import it."""
    if path.rsplit("/", 1)[-1] in ("__init__.py", "conftest.py") or not path.endswith(".py"):
        return None
    try:
        base = units_for(path, base_text)
        head = units_for(path, head_text)
    except Unparsable:
        return None
    if base is None or head is None:  # pragma: no cover - a `.py` path has a reader
        return None
    base_tree, head_tree = _tree(base_text), _tree(head_text)
    if base_tree is None or head_tree is None:  # pragma: no cover - `units` parsed both
        return None
    drift = compare(base, head, allow_added=allow_added)
    why = [f"{n} changed" for n in (*drift.changed, *drift.grew)]
    why += [f"{n} removed" for n in drift.removed]
    why += [f"{n} {w}" for n, w in drift.refused]
    base_keys = {u.key for u in base}
    new = [u for u in head if u.key not in base_keys]
    trusted = trusted_names(head_tree.body)
    fixtures = {
        node.name
        for node in head_tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and is_fixture(node, trusted)[0]
    }
    lazy = any(
        isinstance(n, ast.ImportFrom)
        and n.module == "__future__"
        and any(a.name == "annotations" for a in n.names)
        for n in head_tree.body
    )
    defined = {
        n.name
        for n in head_tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and _runs_when_defined(n, lazy)
    }
    refused = {n for n, _ in drift.refused}
    for u in new:
        problem = _new_unit_why(u, base, fixtures, defined)
        if problem is not None and f"new {u.name}" not in refused:
            why.append(f"new {u.name} {problem}")
    names = {n for u in new if not u.parent for n in u.binds}
    if names:
        base_nodes = list(ast.walk(base_tree))
        if introspects(base_nodes) or any(
            (isinstance(n, ast.Name) and n.id in _LISTING)
            or (isinstance(n, ast.Attribute) and n.attr in _LISTING)
            for n in base_nodes
        ):
            why.append(
                f"new {', '.join(sorted(names))}: the base reaches its names by computed "
                "names (globals(), sys.modules, getattr), which may find a new one"
            )
        looked = sorted(
            n.name
            for n in base_tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in _LOOKUP
        )
        if looked:
            why.append(
                f"new {', '.join(sorted(names))}: the base defines {', '.join(looked)}, "
                "which answered for a name the module did not bind"
            )
        if any(
            isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
            for n in base_tree.body
        ):
            why.append(
                f"new {', '.join(sorted(names))}: the base star-imports another module, "
                "whose names a new one may replace"
            )
        exported = _exported(head_tree, names)
        for other, read in _star_readers(path, others).items():
            hit = sorted(exported & read)
            if hit:
                why.append(
                    f"new {', '.join(hit)}: {other} star-imports this module and binds or reads "
                    f"{'that name' if len(hit) == 1 else 'those names'}"
                )
    return tuple(why)
