"""Load and validate a rubric (YAML or JSON) into a `Rubric` value.

This module is the entry point (`load_rubric_bytes`, `sha256_hex`,
`MAX_BYTES`) and the order of the stages, each owned by its own module.
The order is fixed and fail-closed:

1. refuse input over 1 MiB (before parsing) and input that is not UTF-8;
2. parse: JSON when the source name ends in `.json` or the first
   non-whitespace character is `{`, else YAML.  YAML goes through a safe
   loader that refuses anchors and aliases outright (no billion laughs),
   merge keys (`<<`), tags other than the plain scalar/list/mapping ones,
   duplicate keys and non-string keys (`gate.rubric.yamldoc`).  JSON goes
   through a small position-tracking parser (duplicate keys refused,
   NaN/Infinity refused: `gate.rubric.jsondoc`).  Both record the line of
   every key and value (`gate.rubric.document.Doc`), so that every error
   names `file:line`;
3. validate against the rubric's JSON Schema (Draft 2020-12), built from
   the rule registry (`gate.rubric.schema`), before any rule is built
   (`gate.rubric.schema_check`);
4. semantic checks the schema cannot express: duplicate rule ids, the
   reserved `gate.` prefix, the values of the parameter types kinds share
   (usable globs, clean repo-relative paths, Python names), each kind's
   own `param_problem`, waivers (`gate.rubric.semantics`); examples that
   expect unknown ids, contradictory example entries
   (`gate.rubric.examples`);
5. build `gate.model.rubric` values with every default filled: each parameter's
   `default` from its kind's schema fragment, or the rubric value its kind
   names (`FROM_RUBRIC`).

Every error is a `GateError` whose message reads
`invalid rubric: FILE:LINE: rule "F3" (forbidden_paths): unknown key "pathz"; allowed keys: ...`.

Examples (the rubric's `examples:`) become `Example` values whose change
set comes from `gate.changes.example` (`source="example"`).
`Example.expect` lists the expected ids in rubric order.
"""

from __future__ import annotations

import hashlib
from typing import Any

from gate.base.errors import GateError
from gate.base.names import SCOPE_NONE
from gate.model.rubric import DEFAULT_TESTS, FAIL, AppliesTo, Rubric, Rule, Waiver
from gate.rubric.document import Doc, invalid
from gate.rubric.examples import build_example, check_examples, rule_limits
from gate.rubric.jsondoc import JsonParser
from gate.rubric.schema_check import check_counts, validate_schema
from gate.rubric.semantics import check_semantics
from gate.rubric.yamldoc import parse_yaml
from gate.rules import REGISTRY
from gate.rules.kind import RULE_KEYS

MAX_BYTES = 1024 * 1024


def sha256_hex(data: bytes) -> str:
    """The lowercase hex SHA-256 of `data` (what freeze files record)."""
    return hashlib.sha256(data).hexdigest()


def load_rubric_bytes(data: bytes, source: str) -> Rubric:
    """Parse, validate and build a rubric; `source` names it in every message."""
    if len(data) > MAX_BYTES:
        raise GateError(
            f"invalid rubric: {source}: {len(data)} bytes is over the 1 MiB limit; "
            "a rubric is a short list of rules, so trim it"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GateError(
            f"invalid rubric: {source}:{line}: not UTF-8 (byte {exc.start}); save the file as UTF-8"
        ) from None
    text = text.removeprefix("\ufeff")
    doc = _parse(text, source)
    check_counts(doc, source)
    validate_schema(doc, source)
    rule_lines = check_semantics(doc, source)
    check_examples(doc, source, rule_lines)
    return _build(doc, source, sha256_hex(data))


def _parse(text: str, source: str) -> Doc:
    stripped = text.lstrip()
    try:
        if source.endswith(".json") or stripped.startswith("{"):
            return JsonParser(text, source).parse()
        return parse_yaml(text, source)
    except RecursionError:
        raise invalid(source, None, "nested too deeply; a rubric is a flat list of rules") from None


def _tuples(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _build(doc: Doc, source: str, sha: str) -> Rubric:
    value: dict[str, Any] = doc.value
    tests = tuple(value.get("tests", DEFAULT_TESTS))
    rules: list[Rule] = []
    for raw in value["rules"]:
        kind = REGISTRY[raw["kind"]]
        params = kind.defaults({"tests": tests})
        params.update((k, _tuples(v)) for k, v in raw.items() if k not in RULE_KEYS)
        rules.append(
            Rule(
                id=raw["id"],
                kind=kind.name,
                params=params,
                description=raw.get("description"),
                level=raw.get("level", FAIL),
            )
        )
    applies = value.get("applies_to")
    applies_to = (
        None
        if applies is None
        else AppliesTo(
            authors=tuple(applies.get("authors", ())),
            labels=tuple(applies.get("labels", ())),
            head_branches=tuple(applies.get("head_branches", ())),
        )
    )
    waivers = tuple(
        Waiver(
            rules=tuple(raw["rules"]),
            logins=tuple(raw["approvers"].get("logins", ())),
            associations=tuple(raw["approvers"].get("associations", ())),
            ids=tuple(raw["approvers"].get("ids", ())),
            permission=raw["approvers"].get("permission", "write"),
        )
        for raw in value.get("waivers", ())
    )
    order = {rule.id: i for i, rule in enumerate(rules)}
    limits = rule_limits(value)
    examples = tuple(build_example(ex, order, limits) for ex in value.get("examples", ()))
    return Rubric(
        rules=tuple(rules),
        sha256=sha,
        source=source,
        version=int(value.get("version", 1)),
        tests=tests,
        applies_to=applies_to,
        examples=examples,
        waivers=waivers,
        frozen_paths=tuple(value.get("frozen_tests", {}).get("paths", ())),
        frozen_exclude=tuple(value.get("frozen_tests", {}).get("exclude", ())),
        scope=value.get("scope", SCOPE_NONE),
    )


__all__ = [
    "MAX_BYTES",
    "load_rubric_bytes",
    "sha256_hex",
]
