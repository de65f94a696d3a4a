"""The package's JSON tables (`gate.base.jsontext.package_data`): each sits beside
its `.schema.json`, and each is what its schema says."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gate.base.jsontext import package_data
from gate.drift.sections import VIEWS

GATE = Path(__file__).resolve().parent.parent / "gate"
TABLES = sorted(
    p.relative_to(GATE).as_posix()
    for p in GATE.rglob("*.json")
    if not p.name.endswith(".schema.json") and "__pycache__" not in p.parts
)


def _schema(table: str) -> dict[str, Any]:
    path = GATE / table.replace(".json", ".schema.json")
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def _errors(table: str, value: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(_schema(table))
    return [error.message for error in validator.iter_errors(value)]


def test_the_tables_are_found() -> None:
    assert TABLES == [
        "base/agents.json",
        "drift/runners.json",
        "drift/vendored.json",
        "starter/families.json",
    ]


@pytest.mark.parametrize("table", TABLES)
def test_each_table_is_what_its_schema_says(table: str) -> None:
    jsonschema.Draft202012Validator.check_schema(_schema(table))
    assert _errors(table, package_data(table)) == []


@pytest.mark.parametrize(
    ("table", "spoil"),
    [
        ("drift/runners.json", lambda t: t["runners"][0].pop("doc")),
        ("drift/runners.json", lambda t: t["sections"][0].update(format="yaml")),
        ("drift/runners.json", lambda t: t["runners"][0]["files"].append("conftest.py")),
        ("drift/vendored.json", lambda t: t["js_test_packages"].append("jest")),
        ("starter/families.json", lambda t: t["groups"][0]["families"][0].update(rule="DEPS")),
        ("starter/families.json", lambda t: t["groups"][0]["families"][0].update(always=True)),
        ("base/agents.json", lambda t: t["agents"][0].update(emails=["not an address"])),
        ("base/agents.json", lambda t: t["agents"][0].update(login="Copilot")),
    ],
)
def test_a_spoiled_table_fails_its_schema(table: str, spoil: Any) -> None:
    """A runner without its page, a format no reader reads, a glob that
    would not match at any depth, a name listed twice, a family under a rule
    the starter has not, `always` spelled out, an e-mail that is none, a
    misspelt field: each is refused."""
    value = copy.deepcopy(package_data(table))
    spoil(value)
    assert _errors(table, value) != []


def test_the_section_formats_are_the_readers() -> None:
    """The schema's formats are exactly the readers `gate.drift.sections` has."""
    formats = _schema("drift/runners.json")["properties"]["sections"]["items"]["properties"]
    assert sorted(formats["format"]["enum"]) == sorted(VIEWS)


def test_a_table_is_read_once() -> None:
    assert package_data("drift/vendored.json") is package_data("drift/vendored.json")
