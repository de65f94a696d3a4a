"""The rule kinds: one module each, registered in one explicit table.

`REGISTRY` maps each `kind:` value to its `Kind`, the contract its module
declares (`gate.rules.kind` lists what a module declares: parameters as
JSON-Schema fragments with defaults and descriptions, what it reads, its
lab bucket, its documentation, a pure `check`).  Everything about kinds is
derived from this table, at the moment it is needed: the rubric schema
(`gate schema`) and the loader's defaults, the rule reference
(`docs/rules.md`), the lab's buckets, the files whose texts a change
source reads.  So a new kind is one module and one line in `MODULES`, and
`register` adds one at run time (a test registers a toy kind this way).

The built-in rules (`gate.`-prefixed ids, not kinds a rubric can name)
live in `gate.rules.builtin`.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from gate.model.change import TextWants
from gate.model.rubric import Rule
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
    new_dependencies,
    test_drift,
    test_evidence,
)
from gate.rules.kind import TREE, Check, Kind, kind_from_module

__all__ = ["REGISTRY", "Check", "Kind", "kind_from_module", "register", "unregister"]

# The shipped kinds, in the order the schema and the reference list them.
MODULES: tuple[ModuleType, ...] = (
    max_files,
    max_lines,
    forbidden_path,
    forbidden_paths,
    allowed_paths,
    test_drift,
    test_evidence,
    keep_symbols,
    keep_lines,
    confine_to_symbols,
    must_include,
    new_dependencies,
)

REGISTRY: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Add a rule kind; its name must be new.  Returns it."""
    if kind.name in REGISTRY:
        raise ValueError(f"rule kind {kind.name!r} is already registered")
    REGISTRY[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Remove the rule kind `name` (KeyError when there is none)."""
    del REGISTRY[name]


for _module in MODULES:
    register(kind_from_module(_module))


def kinds() -> tuple[Kind, ...]:
    """Every registered kind, in registration order."""
    return tuple(REGISTRY.values())


def text_files(rules: Iterable[Rule]) -> tuple[str, ...]:
    """The files whose base and head text `rules` read, sorted (each rule's
    kind says which: `TEXTS_OF` parameters and `TEXT_FILES`)."""
    return tuple(sorted({f for rule in rules for f in REGISTRY[rule.kind].texts_for(rule)}))


def text_wants(rules: Iterable[Rule]) -> TextWants:
    """What a change source reads for `rules`: the files `text_files` names,
    the modified paths some rule's `TEXT_GLOBS` match (`Kind.touched_texts`),
    the base files beside added ones some rule names (`Kind.near_texts`),
    the modified files some rule reads when it can (`Kind.hint_texts`),
    the base files some rule reads once the layout is known (`Kind.text_beside`),
    and the base tree's layout when some rule's kind reads `TREE`."""
    rules = tuple(rules)
    tests = [t for rule in rules if (t := REGISTRY[rule.kind].touched_texts(rule)) is not None]
    touched = (lambda path: any(t(path) for t in tests)) if tests else None
    tree = any(TREE in REGISTRY[rule.kind].reads for rule in rules)
    nears = [n for rule in rules if (n := REGISTRY[rule.kind].near_texts(rule)) is not None]
    near = (lambda path: [p for n in nears for p in n(path)]) if nears else None
    hints = [h for rule in rules if (h := REGISTRY[rule.kind].hint_texts()) is not None]
    hinted = (lambda path: any(h(path) for h in hints)) if hints else None
    besides = [b for rule in rules if (b := REGISTRY[rule.kind].text_beside) is not None]
    beside = (
        (lambda files, layout: [p for b in besides for p in b(files, layout)]) if besides else None
    )
    return TextWants(
        files=text_files(rules), touched=touched, tree=tree, near=near, hints=hinted, beside=beside
    )


def lab_kinds(role: str) -> frozenset[str]:
    """The kinds that play `role` (`gate.rules.kind.LAB_ROLES`) in the lab's buckets."""
    return frozenset(kind.name for kind in REGISTRY.values() if kind.lab == role)


def doc(kind: str) -> str:
    """The documentation of one rule kind (its module docstring)."""
    return REGISTRY[kind].doc.strip()
