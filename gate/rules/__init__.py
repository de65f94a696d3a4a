"""Rule kinds, one module each, registered in one explicit table.

Every module has `KIND` (the rubric's `kind:` value), a docstring that is the
rule's documentation, and a pure `check(rule, changes) -> Result` that never
touches git, the network, the clock or the environment.  Parameters are
validated (and defaults filled) by the rubric loader against the schema
before `check` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from gate.changes import ChangeSet
from gate.model import Result, Rule
from gate.rules import (
    allowed_paths,
    confine_to_symbols,
    forbidden_path,
    forbidden_paths,
    keep_lines,
    keep_symbols,
    max_files,
    max_lines,
    must_include,
    test_drift,
)

Check = Callable[[Rule, ChangeSet], Result]

MODULES: tuple[ModuleType, ...] = (
    max_files,
    max_lines,
    forbidden_path,
    forbidden_paths,
    allowed_paths,
    test_drift,
    keep_symbols,
    keep_lines,
    confine_to_symbols,
    must_include,
)

REGISTRY: dict[str, Check] = {m.KIND: m.check for m in MODULES}

# Kinds whose `file` parameter names a file whose text they read.
CONTENT_KINDS = frozenset({"keep_symbols", "keep_lines", "confine_to_symbols"})


def doc(kind: str) -> str:
    """The documentation of one rule kind (its module docstring)."""
    for module in MODULES:
        if kind == module.KIND:
            return (module.__doc__ or "").strip()
    raise KeyError(kind)
