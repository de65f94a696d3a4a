"""Whether a parsed rubric plainly conforms to its JSON Schema, decided
without the `jsonschema` package: `gate.rubric.schema_check` asks this
first and imports `jsonschema` (about a tenth of a second) only when the
answer is not a plain yes.

`conforms` is three-valued.  True: the document is valid by Draft 2020-12
as `jsonschema` reads the shipped schema (integers are ints, never bools).
False: it is not.  None: this module cannot tell (a keyword it does not
know, a `$ref` that is not local, a comparison it does not make).  Only
True skips `jsonschema`; False and None both go to it, which words the
error, so a wrong False costs time and nothing else.  Every keyword below
is decided exactly or not at all; `tests/test_rubric_conforms.py` holds
the three answers against `jsonschema` over generated documents.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

Verdict = bool | None  # True: valid; False: invalid; None: cannot tell

# Keywords that annotate and never fail a document.
_ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$defs",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        # read by their neighbours: `if` reads them, `items` reads no `prefixItems`
        "then",
        "else",
    }
)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES = frozenset({"object", "array", "string", "boolean", "null", "integer", "number"})


def _kind(value: object) -> str | None:
    """The JSON type of a value (ints and floats are numbers, a bool never),
    as the `type` keyword and `jsonschema.equal` read it; None for a Python
    type JSON has not."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    if _is_number(value):
        return "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return None


def _equal(one: object, two: object) -> Verdict:
    """`jsonschema`'s equality (a bool is never a number, containers
    compared item by item), or None for a value of another type."""
    kind = _kind(one)
    if kind is None or _kind(two) is None:
        return None
    if kind != _kind(two):
        return False
    if isinstance(one, list) and isinstance(two, list):
        if len(one) != len(two):
            return False
        return _all(_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        if set(one) != set(two):
            return False
        return _all(_equal(one[k], two[k]) for k in one)
    return one == two


def _all(verdicts: Any) -> Verdict:
    """True when every verdict is True; False when any is False; else None."""
    unsure = False
    for verdict in verdicts:
        if verdict is False:
            return False
        if verdict is None:
            unsure = True
    return None if unsure else True


def _any(verdicts: Any) -> Verdict:
    """True when any verdict is True; False when every one is False; else None."""
    unsure = False
    for verdict in verdicts:
        if verdict is True:
            return True
        if verdict is None:
            unsure = True
    return None if unsure else False


@lru_cache(maxsize=256)
def _pattern(text: str) -> re.Pattern[str] | None:
    try:
        return re.compile(text)
    except re.error:
        return None


def conforms(instance: object, schema: dict[str, Any]) -> Verdict:
    """Whether `instance` is valid by `schema`, a root schema whose `$ref`s
    point into itself (`#/...`)."""
    try:
        return _check(instance, schema, schema)
    except RecursionError:
        return None


def _check(value: object, sub: object, root: dict[str, Any]) -> Verdict:
    if sub is True:
        return True
    if sub is False:
        return False
    if not isinstance(sub, dict) or _kind(value) is None:
        return None  # a schema or a value (a Python type JSON has not) it cannot read
    if "$id" in sub and sub is not root:
        return None  # a nested resource: its `$ref`s would not start at the root
    verdicts: list[Verdict] = []
    for key, arg in sub.items():
        if key in _ANNOTATIONS:
            continue
        check = _KEYWORDS.get(key)
        if check is None:
            return None
        verdict = check(value, arg, sub, root)
        if verdict is False:
            return False
        verdicts.append(verdict)
    return _all(verdicts)


def _ref(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(arg, str) or not arg.startswith("#/"):
        return None
    target: Any = root
    for part in arg[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(target, dict) or part not in target:
            return None
        target = target[part]
    return _check(value, target, root)


def _type(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    names = [arg] if isinstance(arg, str) else arg
    if not isinstance(names, list) or not all(isinstance(n, str) and n in _TYPES for n in names):
        return None
    kind = _kind(value)  # never None here: `_check` answers None for those
    integer = kind == "number" and isinstance(value, int)  # an int, never 1.0
    return any(name == kind or (name == "integer" and integer) for name in names)


def _enum(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(arg, list):
        return None
    return _any(_equal(value, item) for item in arg)


def _const(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    return _equal(value, arg)


def _properties(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(value, dict):
        return True
    if not isinstance(arg, dict):
        return None
    return _all(_check(value[key], arg[key], root) for key in arg if key in value)


def _additional(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(value, dict):
        return True
    if "patternProperties" in sub:
        return None
    known = sub.get("properties", {})
    if not isinstance(known, dict):
        return None
    return _all(_check(value[key], arg, root) for key in value if key not in known)


def _required(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(value, dict):
        return True
    if not isinstance(arg, list):
        return None
    return all(key in value for key in arg)


def _dependent(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(value, dict):
        return True
    if not isinstance(arg, dict):
        return None
    return _all(_check(value, arg[key], root) for key in arg if key in value)


def _items(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(value, list):
        return True
    if "prefixItems" in sub:
        return None
    return _all(_check(item, arg, root) for item in value)


def _unique(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(arg, bool):
        return None
    if arg is False or not isinstance(value, list):
        return True
    if not all(isinstance(item, str) for item in value):
        return None  # numbers, bools or containers: `jsonschema.uniq` decides
    return len(set(value)) == len(value)


def _bound(
    measure: Callable[[object], int | float | None], holds: Callable[[Any, Any], bool]
) -> Callable[[object, object, dict[str, Any], dict[str, Any]], Verdict]:
    """A keyword that compares a measure of the value (None: it does not
    apply to this value) with the keyword's number."""

    def check(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
        if not _is_number(arg):
            return None
        size = measure(value)
        return True if size is None else holds(size, arg)

    return check


def _length(kind: type) -> Callable[[object], int | None]:
    return lambda value: len(value) if isinstance(value, kind) else None  # type: ignore[arg-type]


def _number(value: object) -> int | float | None:
    return value if _is_number(value) else None  # type: ignore[return-value]


def _matches(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(value, str):
        return True
    compiled = _pattern(arg) if isinstance(arg, str) else None
    if compiled is None:
        return None
    return compiled.search(value) is not None


def _all_of(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(arg, list):
        return None
    return _all(_check(value, each, root) for each in arg)


def _any_of(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    if not isinstance(arg, list):
        return None
    return _any(_check(value, each, root) for each in arg)


def _not(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    verdict = _check(value, arg, root)
    return None if verdict is None else not verdict


def _if(value: object, arg: object, sub: dict[str, Any], root: dict[str, Any]) -> Verdict:
    taken = _check(value, arg, root)
    if taken is None:
        return None
    branch = "then" if taken else "else"
    return _check(value, sub[branch], root) if branch in sub else True


_KEYWORDS: dict[str, Callable[[object, Any, dict[str, Any], dict[str, Any]], Verdict]] = {
    "$ref": _ref,
    "type": _type,
    "enum": _enum,
    "const": _const,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "dependentSchemas": _dependent,
    "items": _items,
    "uniqueItems": _unique,
    "minItems": _bound(_length(list), lambda n, k: n >= k),
    "maxItems": _bound(_length(list), lambda n, k: n <= k),
    "minProperties": _bound(_length(dict), lambda n, k: n >= k),
    "maxProperties": _bound(_length(dict), lambda n, k: n <= k),
    "minLength": _bound(_length(str), lambda n, k: n >= k),
    "maxLength": _bound(_length(str), lambda n, k: n <= k),
    # as `jsonschema` compares: a NaN is below no minimum and above no maximum
    "minimum": _bound(_number, lambda n, k: not n < k),
    "maximum": _bound(_number, lambda n, k: not n > k),
    "pattern": _matches,
    "allOf": _all_of,
    "anyOf": _any_of,
    "not": _not,
    "if": _if,
}
