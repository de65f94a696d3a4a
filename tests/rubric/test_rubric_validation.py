"""The rubric's one validator: `jsonschema`, compiled once per process for
the registry as it stands (`gate.rubric.schema_check`).  What the gate's
reading adds to Draft 2020-12 (an integer is an int, never a bool or 1.0),
and the example keywords the schema states with `not`, `if`/`then` and
`dependentSchemas`, judged through the loader a user meets.
"""

from __future__ import annotations

from typing import Any

import pytest

from gate.base.errors import GateError
from gate.rubric.load import load_rubric_bytes
from gate.rubric.schema_check import _compiled, _validator
from gate.rules import REGISTRY


def _rubric(entry: str) -> bytes:
    return (
        "version: 1\n"
        "rules:\n"
        "  - {id: A, kind: max_files, limit: 1}\n"
        "examples:\n"
        "  - name: e\n"
        "    expect: pass\n"
        "    change:\n"
        f"      - {{path: a.py, {entry}}}\n"
    ).encode()


@pytest.mark.parametrize(
    ("entry", "refusal"),
    [
        ('before: "x\\n", after: "y\\n"', None),
        ("added: 1, deleted: 0", None),
        ('before: "x\\n", added: 1', '"added" is not allowed here'),  # `not: {}`
        ('after: "y\\n", deleted: 2', '"deleted" is not allowed here'),  # dependentSchemas
        ("status: renamed, old_path: b.py, added: 0, deleted: 0", None),
        ("status: renamed, added: 0, deleted: 0", 'missing key "old_path"'),  # `if`/`then`
        ("status: added, added: 0, deleted: 0", None),
    ],
)
def test_the_example_keywords_not_if_and_dependent_schemas(entry: str, refusal: str | None) -> None:
    text = _rubric(entry)
    if refusal is None:
        load_rubric_bytes(text, "r.yml")
        return
    with pytest.raises(GateError) as caught:
        load_rubric_bytes(text, "r.yml")
    message = caught.value.message
    assert message.startswith('invalid rubric: r.yml:8: example "e", change entry 1 ("a.py"): ')
    assert refusal in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("sub", "value", "valid"),
    [
        ({"type": "integer"}, 1, True),
        ({"type": "integer"}, True, False),  # a bool is no integer
        ({"type": "integer"}, 1.0, False),  # nor is a float, whole or not
        ({"type": "number"}, True, False),
        ({"minimum": 1}, True, True),  # `minimum` reads numbers only: `type` refuses a bool
        ({"enum": [1]}, True, False),
        ({"const": {"a": 1}}, {"a": True}, False),
        ({"uniqueItems": True}, ["a", "a"], False),
    ],
)
def test_the_gates_reading_of_json_types(sub: dict[str, Any], value: Any, valid: bool) -> None:
    assert _validator(sub).is_valid(value) is valid


def test_the_validator_is_built_once_for_the_registry_as_it_stands() -> None:
    load_rubric_bytes(b"rules:\n  - {id: A, kind: max_files, limit: 1}\n", "r.yml")
    kinds = tuple(REGISTRY.values())
    assert _compiled(kinds) is _compiled(tuple(REGISTRY.values()))
    assert _compiled(kinds[:-1]) is not _compiled(kinds)
