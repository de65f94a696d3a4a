"""A parsed rubric checked against its JSON Schema (Draft 2020-12, built
from the registry by `gate.rubric.schema`), and the first error worded as
one sentence that names the line, the rule or example, the key and the fix.

Before the schema walks the document, `check_counts` refuses more rules or
examples than the caps.  Of all the schema's errors the one reported is the
first rule or example in document order, and within it an unknown key
before a wrong type before anything else (a misspelt key also shows up as
a missing one); an `anyOf`/`oneOf` is followed into the one branch whose
shape fits.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gate.rubric.document import Doc, KeyPath, context, invalid, key_name, show, type_name
from gate.rubric.schema import MAX_EXAMPLES, MAX_RULES, build, schema
from gate.rules import REGISTRY, Kind

if TYPE_CHECKING:
    from jsonschema import ValidationError
    from jsonschema.protocols import Validator


def _validator(rubric_schema: dict[str, Any]) -> Validator:
    """A validator for `rubric_schema` (integers are ints, never bools)."""
    from jsonschema import Draft202012Validator, validators  # imported when a rubric is read

    def is_integer(_checker: object, instance: object) -> bool:
        return isinstance(instance, int) and not isinstance(instance, bool)

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer)
    cls = validators.extend(Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    return cls(rubric_schema)  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def _compiled(kinds: tuple[Kind, ...]) -> Validator:
    """The validator of the schema `kinds` make, built once per process for
    the registry as it stands (a kind registered later makes a new one)."""
    return _validator(build(kinds))


_EXPECTED = {
    "integer": "an integer",
    "string": "a string",
    "boolean": "a boolean (true or false)",
    "array": "a list",
    "object": "a mapping",
    "number": "a number",
    "null": "null",
}


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _resolve(sub: Any) -> Any:
    """Follow a local `$ref` in the shipped schema (one level is all it uses)."""
    if isinstance(sub, dict) and "$ref" in sub:
        target: Any = schema()
        for part in str(sub["$ref"]).removeprefix("#/").split("/"):
            target = target[part]
        merged = dict(target)
        merged.update({k: v for k, v in sub.items() if k != "$ref"})
        return merged
    return sub


def _wrong_shape(branch: Sequence[ValidationError], at: KeyPath) -> bool:
    for err in branch:
        if tuple(err.absolute_path) != at:
            continue
        if err.validator == "type":
            return True
        if err.validator == "const" and type_name(err.instance) != type_name(err.validator_value):
            return True
    return False


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The most specific errors under `error` (descending into anyOf/oneOf)."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    at = tuple(error.absolute_path)
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [b for b in branches.values() if not _wrong_shape(b, at)]
    if len(fitting) == 1:
        return [leaf for sub in fitting[0] for leaf in _leaves(sub)]
    return [error]


def check_counts(doc: Doc, source: str) -> None:
    """Refuse more than MAX_RULES rules or MAX_EXAMPLES examples before validating."""
    if not isinstance(doc.value, dict):
        return
    for key, cap in (("rules", MAX_RULES), ("examples", MAX_EXAMPLES)):
        items = doc.value.get(key)
        if isinstance(items, list) and len(items) > cap:
            raise invalid(
                source,
                doc.value_line((key,)),
                f"{len(items)} {key} is over the limit of {cap}; a rubric is a short list "
                "of focused rules: split it or merge rules that share a kind",
            )


def validate_schema(doc: Doc, source: str) -> None:
    """Refuse a document the rubric's schema does not accept, with the first
    error as one sentence."""
    errors = list(_compiled(tuple(REGISTRY.values())).iter_errors(doc.value))
    if not errors:
        return
    leaves = [leaf for err in errors for leaf in _leaves(err)]
    ranked = []
    for leaf in leaves:
        path = tuple(leaf.absolute_path)
        line, message = _schema_message(doc, leaf)
        # One rule or example at a time (in document order); within it an
        # unknown key first, since a misspelt key also shows up as a missing one.
        item = (
            doc.value_line(path[:2])
            if path[:1] in (("rules",), ("examples",), ("waivers",))
            else line
        )
        priority = {"additionalProperties": 0, "type": 1}.get(str(leaf.validator), 2)
        ranked.append((item, priority, line, -len(path), message))
    ranked.sort()
    raise invalid(source, ranked[0][2], ranked[0][4])


def _schema_message(doc: Doc, err: ValidationError) -> tuple[int, str]:
    path: KeyPath = tuple(err.absolute_path)
    label, rest = context(doc, path)
    prefix = f"{label}: " if label and (rest or label != "applies_to") else ""
    name = key_name(rest, path)
    kind = err.validator
    instance = err.instance
    rule_value: Any = err.validator_value
    sub = err.schema if isinstance(err.schema, dict) else {}

    if kind == "additionalProperties" and isinstance(instance, dict):
        allowed: list[str] = list(sub.get("properties", {}))
        extra = [k for k in instance if k not in allowed]
        key = extra[0]
        where = "" if label else " at the top level"
        owner = f"{label}: " if label else ""
        return doc.line((*path, key)), (
            f"{owner}unknown key {json.dumps(key, ensure_ascii=False)}{where}; "
            f"allowed keys: {', '.join(allowed)}"
        )
    if kind == "required" and isinstance(instance, dict):
        missing = next(k for k in list(rule_value) if k not in instance)
        described = _resolve(sub.get("properties", {}).get(missing, {}))
        hint = described.get("description", "") if isinstance(described, dict) else ""
        hint = re.split(r"[.:] ", hint, maxsplit=1)[0].rstrip(".")  # its first clause
        what = f" ({hint[:1].lower()}{hint[1:]})" if hint else ""
        return doc.value_line(path), f'{prefix}missing key "{missing}"{what}; add it'
    if kind == "type" and "const" in sub:
        return doc.line(path), f"{prefix}{name} must be {show(sub['const'])}, not {show(instance)}"
    if kind == "type":
        expected = rule_value
        wanted = " or ".join(
            _EXPECTED.get(t, t)
            for t in ([expected] if isinstance(expected, str) else list(expected))
        )
        got = type_name(instance)
        if not path:
            return 1, (
                f'the rubric must be a mapping with a "rules" list, not {_a(got)}; '
                "start from `gate init`"
            )
        fix = ""
        if doc.is_yaml and expected == "string" and not isinstance(instance, (list, dict)):
            fix = "; put the value in quotes"
        elif expected == "integer" and isinstance(instance, float):
            fix = "; write a whole number"
        return doc.line(path), f"{prefix}{name} must be {wanted}, not {_a(got)}{fix}"
    if kind == "minimum":
        return doc.line(path), (
            f"{prefix}{name} must be >= {err.validator_value}, not {show(instance)}"
        )
    if kind == "const" and rest == ("expect",):
        return doc.line(path), (
            f'{prefix}"expect" must be "pass" or a list of rule ids, not {show(instance)}'
        )
    if kind == "const":
        return doc.line(path), (
            f"{prefix}{name} must be {show(err.validator_value)}, not {show(instance)}"
        )
    if kind == "enum":
        choices = ", ".join(str(c) for c in list(rule_value))
        if rest == ("kind",):
            return doc.line(path), f"{prefix}unknown kind {show(instance)}; use one of: {choices}"
        return doc.line(path), f"{prefix}{name} must be one of: {choices}; not {show(instance)}"
    if kind == "minItems":
        return doc.line(path), f"{prefix}{name} must not be an empty list; list at least one item"
    if kind == "minLength":
        return doc.line(path), f"{prefix}{name} must not be an empty string"
    if kind == "minProperties":
        keys = ", ".join(sub.get("properties", {}))
        return doc.value_line(path), (
            f"{prefix}{name} must not be empty; give at least one of {keys}, or remove it"
        )
    if kind == "uniqueItems":
        return doc.line(path), f"{prefix}{name} lists the same value twice; list each once"
    if kind == "pattern":
        if rest == ("id",) or (len(rest) >= 1 and rest[0] == "expect"):
            return doc.line(path), (
                f"{prefix}{name} {show(instance)} is not a valid rule id: use 1-64 characters "
                "of A-Z, a-z, 0-9, '.', '_' and '-', starting with a letter or digit"
            )
        if isinstance(instance, str) and instance.startswith("!"):
            return doc.line(path), (
                f"{prefix}{name} {show(instance)}: negation with '!' is not supported; "
                "list only what to match"
            )
    if kind == "not":
        hint = str(sub.get("description", "this key is not allowed here"))
        hint = hint.rstrip(".")
        return doc.line(path), f"{prefix}{name} is not allowed here: {hint[:1].lower()}{hint[1:]}"
    if kind in ("anyOf", "oneOf"):
        hint = str(_resolve(sub).get("description", "see `gate schema`"))
        return doc.line(path), f"{prefix}{name} {show(instance)} is not valid: it must be {hint}"
    hint = str(_resolve(sub).get("description", "")) if isinstance(sub, dict) else ""
    return doc.line(
        path
    ), f"{prefix}{name} is not valid ({err.message}); {hint or 'see `gate schema`'}"
