"""`gate.rubric.conforms` against `jsonschema`, the oracle: over documents
generated from real rubrics, a True is never a document `jsonschema`
refuses and a False never one it accepts; the rubrics users start from
take the fast path (True), so the loader skips the `jsonschema` import.
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.rubric.conforms import conforms
from gate.rubric.load import load_rubric_bytes
from gate.rubric.schema import schema
from gate.rubric.schema_check import _validator
from gate.rubric.starter import STARTER_RUBRIC
from gate.rubric.yamldoc import parse_yaml
from gate.rules import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = schema()
VALIDATOR = _validator(SCHEMA)


def accepted(value: Any) -> bool:
    return next(iter(VALIDATOR.iter_errors(value)), None) is None


def _documented() -> list[tuple[str, str]]:
    """Every rubric the project ships or documents (docs/rules.md's blocks
    are lists of rules, each made a rubric), whether or not it loads."""
    texts = [("starter", STARTER_RUBRIC)]
    texts.append((".github/blast-radius.yml", (ROOT / ".github/blast-radius.yml").read_text()))
    for doc in sorted((ROOT / "docs").glob("*.md")):
        blocks = re.findall(r"^```yaml\n(.*?)^```", doc.read_text(), re.M | re.S)
        for n, block in enumerate(blocks):
            name = f"{doc.name} block {n + 1}"
            if re.search(r"^rules:", block, re.M):
                texts.append((name, block))
            elif block.startswith("- id:"):
                texts.append((name, "version: 1\nrules:\n  " + block.replace("\n", "\n  ")))
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_check

        texts.append(("bench_check", bench_check.RUBRIC.decode()))
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return texts


def _loads(name: str, text: str) -> bool:
    try:
        load_rubric_bytes(text.encode(), name)
    except Exception:  # a documented mistake, shown with its error
        return False
    return True


DOCUMENTED = _documented()
SEEDS = [(name, text) for name, text in DOCUMENTED if _loads(name, text)]
VALUES = [parse_yaml(text, name).value for name, text in SEEDS]
MUTABLE = [parse_yaml(text, name).value for name, text in DOCUMENTED]


def _keys(sub: Any, out: set[str]) -> set[str]:
    if isinstance(sub, dict):
        for key, value in sub.items():
            if key == "properties" and isinstance(value, dict):
                out.update(value)
            _keys(value, out)
    elif isinstance(sub, list):
        for value in sub:
            _keys(value, out)
    return out


KEYS = sorted(_keys(SCHEMA, set()))


def test_the_seeds_cover_every_rule_kind_and_each_takes_the_fast_path() -> None:
    kinds = {rule["kind"] for value in VALUES for rule in value["rules"]}
    assert len(SEEDS) >= 10
    assert kinds == set(REGISTRY)
    for (name, _), value in zip(SEEDS, VALUES, strict=True):
        assert conforms(value, SCHEMA) is True, name


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2**40)
    | st.floats(width=32)  # NaN and the infinities too
    | st.sampled_from(["", "a", "src/", "**/*.py", "max_files", "x" * 300, "ünï", "\n"])
    | st.sampled_from(sorted(REGISTRY)),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=6,
)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_places(item, (*path, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(_places(item, (*path, i)))
    return out


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


@st.composite
def documents(draw: st.DrawFn) -> Any:
    """A seed rubric with one to four edits: a key dropped, added or
    renamed, a value replaced by another of any type, a list item copied
    or dropped, a rule's kind swapped for another."""
    doc = copy.deepcopy(draw(st.sampled_from(MUTABLE)))
    for _ in range(draw(st.integers(1, 4))):
        places = _places(doc)
        path = draw(st.sampled_from(places))
        target = _at(doc, path)
        op = draw(st.sampled_from(["replace", "drop", "add", "copy", "kind", "rename"]))
        if op == "replace" and path:
            _at(doc, path[:-1])[path[-1]] = draw(json_values)
        elif op == "drop" and path:
            parent = _at(doc, path[:-1])
            del parent[path[-1]]
        elif op == "add" and isinstance(target, dict):
            target[draw(st.sampled_from([*KEYS, "unknown_key"]))] = draw(json_values)
        elif op == "add" and isinstance(target, list):
            target.append(draw(json_values))
        elif op == "copy" and isinstance(target, list) and target:
            target.append(copy.deepcopy(draw(st.sampled_from(target))))
        elif op == "kind" and isinstance(target, dict) and "kind" in target:
            target["kind"] = draw(st.sampled_from(sorted(REGISTRY)))
        elif op == "rename" and isinstance(target, dict) and target:
            old = draw(st.sampled_from(sorted(target, key=str)))
            target[draw(st.sampled_from(KEYS))] = target.pop(old)
    return doc


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_a_plain_answer_is_jsonschemas_answer(doc: Any) -> None:
    verdict = conforms(doc, SCHEMA)
    if verdict is not None:
        assert verdict is accepted(doc)


@pytest.mark.parametrize(
    "doc",
    [
        {"version": 1, "rules": [{"id": "A", "kind": "max_files", "limit": True}]},
        {"version": True, "rules": []},
        {"version": 1.0, "rules": [{"id": "A", "kind": "max_files", "limit": 1}]},
        {"version": 1, "rules": [{"id": "A", "kind": "max_files", "limit": 1, "x": 1}]},
        {"version": 1, "rules": [{"id": "A", "kind": "max_files"}]},
        {"version": 1, "rules": [{"id": "A", "kind": "max_files", "limit": 1j}]},
    ],
)
def test_documents_jsonschema_refuses_are_never_plainly_valid(doc: Any) -> None:
    assert not accepted(doc)
    assert conforms(doc, SCHEMA) is not True


def _with_change(**entry: Any) -> dict[str, Any]:
    rule = {"id": "A", "kind": "max_files", "limit": 1}
    example = {"name": "e", "expect": "pass", "change": [{"path": "a.py", **entry}]}
    return {"version": 1, "rules": [rule], "examples": [example]}


@pytest.mark.parametrize(
    ("entry", "valid"),
    [
        ({"before": "x\n", "after": "y\n"}, True),
        ({"added": 1, "deleted": 0}, True),
        ({"before": "x\n", "added": 1}, False),  # `not: {}`: counts follow from the text
        ({"after": "y\n", "deleted": 2}, False),
        ({"status": "renamed", "old_path": "b.py", "added": 0, "deleted": 0}, True),
        ({"status": "renamed", "added": 0, "deleted": 0}, False),  # `if`/`then`
        ({"status": "added", "added": 0, "deleted": 0}, True),
    ],
)
def test_the_example_keywords_not_if_and_dependent_schemas(
    entry: dict[str, Any], valid: bool
) -> None:
    doc = _with_change(**entry)
    assert accepted(doc) is valid
    assert conforms(doc, SCHEMA) is valid


@pytest.mark.parametrize(
    ("sub", "value"),
    [
        ({"minimum": 0}, float("nan")),
        ({"maximum": 0}, float("nan")),
        ({"minimum": 0}, float("-inf")),
        ({"minimum": 1}, True),  # a bool is no number
        ({"type": "number"}, True),
        ({"type": "integer"}, 1.0),
        ({"enum": [1]}, True),
        ({"enum": [1]}, 1.0),
        ({"const": [1, "a"]}, [1, "a"]),
        ({"const": {"a": 1}}, {"a": True}),
        ({"uniqueItems": True}, ["a", "a"]),
        ({"pattern": "^a"}, "ba"),
        ({"pattern": "a"}, "ba"),
        ({"minLength": 2}, "é"),
        ({"not": {"required": ["a"]}}, {"a": 1}),
        ({"if": {"const": 1}, "then": False}, 2),
        ({"if": {"const": 1}, "else": False}, 2),
        ({"additionalProperties": False, "properties": {"a": {}}}, {1: 2}),
    ],
)
def test_each_keyword_answers_as_jsonschema_does(sub: dict[str, Any], value: Any) -> None:
    """As the gate's validator reads it (an integer is an int, never 1.0)."""
    assert conforms(value, sub) is _validator(sub).is_valid(value)


def test_a_keyword_it_does_not_know_is_no_answer() -> None:
    assert conforms("x", {"type": "string", "format": "email"}) is None
    assert conforms([1], {"prefixItems": [{"type": "integer"}]}) is None
    assert conforms("x", {"$ref": "other.json#/x"}) is None
    assert conforms([1, 1.0], {"uniqueItems": True}) is None


def test_loading_a_valid_rubric_does_not_import_jsonschema() -> None:
    code = (
        "import sys\n"
        "from gate.rubric.load import load_rubric_bytes\n"
        "from gate.rubric.starter import STARTER_RUBRIC\n"
        "load_rubric_bytes(STARTER_RUBRIC.encode(), 'starter')\n"
        "assert 'jsonschema' not in sys.modules, 'imported'\n"
        "try:\n"
        "    load_rubric_bytes(b'version: 1\\nrules: [{id: A, kind: max_files}]\\n', 'bad')\n"
        "except Exception as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "limit" in done.stdout  # the refusal is still jsonschema's sentence
