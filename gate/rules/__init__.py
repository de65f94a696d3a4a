"""Rule kinds, one module each, registered in one explicit table.

Every module has `KIND` (the rubric's `kind:` value), a docstring that is the
rule's documentation, and a pure `check(rule, changes) -> RuleResult` that never
touches git, the network, the clock or the environment.  A module whose
parameters are glob lists names them in `GLOBS` (parameter -> match mode,
`gate.globs.EXACT`, `FOLDED` or `REACH`).  Parameters are
validated (and defaults filled) by the rubric loader against the schema
before `check` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from gate.changes import ChangeSet
from gate.report import RuleResult
from gate.rubric import Rubric, Rule
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

Check = Callable[[Rule, ChangeSet], RuleResult]

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


def glob_lists(rubric: Rubric) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every (mode, globs) list the rubric's rules match touched paths
    against, sorted: what `gate check` matches early, while git counts."""
    modules = {m.KIND: m for m in MODULES}
    found = set()
    for rule in rubric.rules:
        for key, mode in getattr(modules[rule.kind], "GLOBS", {}).items():
            patterns = rule.params.get(key)
            if patterns:
                found.add((str(mode), tuple(patterns)))
    return tuple(sorted(found))


def doc(kind: str) -> str:
    """The documentation of one rule kind (its module docstring)."""
    for module in MODULES:
        if kind == module.KIND:
            return (module.__doc__ or "").strip()
    raise KeyError(kind)
