"""Decorators and fixtures: which decorators only define (`is_harmless`:
a fixture's, a mark's, the standard wrappers, reached through a name that
only trusted imports bind, `trusted_names`, or a name bound once to a
pytest mark, `mark_aliases`), and which functions are pytest fixtures,
autouse or not, under which names (`is_fixture`, `fixture_names`)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from gate.drift.python.calls import calls_at_import
from gate.drift.python.tree import Walked, chain_root, dotted

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


def is_fixture(
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


def fixture_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The names a fixture is requested by besides its function's
    (`@pytest.fixture(name="db")`)."""
    out = []
    for deco in node.decorator_list:
        if isinstance(deco, ast.Call) and dotted(deco) in _FIXTURES:
            for k in deco.keywords:
                if k.arg == "name" and isinstance(k.value, ast.Constant):
                    out.append(str(k.value.value))
    return tuple(out)


def is_harmless(
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


def mark_aliases(
    body: list[ast.stmt], origins: Mapping[str, str], walked: Walked | None = None
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
    walked = Walked() if walked is None else walked
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
            or not isinstance(
                chain_root(value.func if isinstance(value, ast.Call) else value), ast.Name
            )
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


def trusted_names(body: list[ast.stmt], walked: Walked | None = None) -> frozenset[str]:
    """The module-level names a harmless decorator may start with: each
    bound only by imports from `_TRUSTED_PACKAGES` (`import pytest`, `from
    unittest import mock`, `from functools import wraps`), and the builtin
    wrappers (`staticmethod`, ...) where the module binds no such name."""
    walked = Walked() if walked is None else walked
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
