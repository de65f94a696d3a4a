"""docs/rules.md is generated from the rule modules (`gate.report.reference`)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from gate import rules
from gate.report import reference
from gate.rules.kind import Kind

ROOT = Path(__file__).resolve().parent.parent.parent
PAGE = ROOT / reference.PAGE


def test_docs_rules_md_is_the_generated_page() -> None:
    assert PAGE.read_text(encoding="utf-8") == reference.render(), (
        "docs/rules.md is stale: run `python -m gate.report.reference --write`"
    )


@pytest.mark.parametrize("kind", rules.kinds(), ids=lambda k: k.name)
def test_every_kind_has_its_section_with_its_whole_docstring(kind: Kind) -> None:
    page = reference.render()
    section = reference.section(kind)
    assert section in page
    assert section.startswith(f"## `{kind.name}`\n\n")
    # Nothing of the docstring is dropped: every paragraph after the first
    # (the summary, reworded) is in the section.
    flat = " ".join(section.split())
    for paragraph in rules.doc(kind.name).split("\n\n")[1:]:
        assert " ".join(paragraph.split()) in flat
    assert f"[`{kind.name}`](#{kind.name})" in reference.table()


@pytest.mark.parametrize("kind", rules.kinds(), ids=lambda k: k.name)
def test_every_parameter_has_its_row_from_its_schema_fragment(kind: Kind) -> None:
    table = reference.parameters(kind)
    rows = table.splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [f"| `{key}`" for key in kind.parameters]
    for row, (key, fragment) in zip(rows, kind.parameters.items(), strict=True):
        assert " ".join(fragment["description"].split()) in row
        default = row.split(" | ")[2]
        assert (default == "required") is (key in kind.required), row
    assert table in reference.section(kind)


def test_the_built_in_rules_are_listed_in_report_order() -> None:
    from gate.rules import builtin

    listed = reference.builtins()
    positions = [listed.index(f"| `{rule_id}` |") for rule_id in builtin.BUILTIN_IDS]
    assert positions == sorted(positions)
    assert listed in reference.render()


def test_a_docstring_edit_makes_the_page_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    before = reference.render()
    kind = rules.kinds()[0]
    edited = dataclasses.replace(kind, doc=kind.doc + "\nOne more sentence.\n")
    monkeypatch.setitem(rules.REGISTRY, kind.name, edited)
    assert reference.render() != before
    assert "One more sentence." in reference.section(edited)


def test_a_parameter_edit_makes_the_page_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    before = reference.render()
    kind = rules.kinds()[0]
    key, fragment = next(iter(kind.parameters.items()))
    changed = {**kind.parameters, key: {**fragment, "description": "Something else."}}
    monkeypatch.setitem(rules.REGISTRY, kind.name, dataclasses.replace(kind, parameters=changed))
    after = reference.render()
    assert after != before
    assert f"| `{key}` | " in after and "Something else." in after


def test_the_command_prints_the_page_and_writes_it(tmp_path: Path) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "gate.report.reference"], capture_output=True, check=True
    )
    assert printed.stdout.decode("utf-8") == reference.render()
    elsewhere = subprocess.run(
        [sys.executable, "-m", "gate.report.reference", "--write"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert elsewhere.returncode == 2 and "repository root" in elsewhere.stderr
    assert "Traceback" not in elsewhere.stderr
    (tmp_path / "docs").mkdir()
    subprocess.run(
        [sys.executable, "-m", "gate.report.reference", "--write"], cwd=tmp_path, check=True
    )
    assert (tmp_path / "docs" / "rules.md").read_text(encoding="utf-8") == reference.render()
    wrong = subprocess.run(
        [sys.executable, "-m", "gate.report.reference", "--nope"], capture_output=True, text=True
    )
    assert wrong.returncode == 2 and "gate: error: usage" in wrong.stderr
