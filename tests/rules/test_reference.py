"""docs/rules.md is generated from the rule modules (`gate.rules.reference`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gate import rules
from gate.rules import reference

ROOT = Path(__file__).resolve().parent.parent.parent
PAGE = ROOT / reference.PAGE


def test_docs_rules_md_is_the_generated_page() -> None:
    assert PAGE.read_text(encoding="utf-8") == reference.render(), (
        "docs/rules.md is stale: run `python -m gate.rules.reference --write`"
    )


@pytest.mark.parametrize("module", rules.MODULES, ids=lambda m: m.KIND)
def test_every_kind_has_its_section_with_its_whole_docstring(module: ModuleType) -> None:
    page = reference.render()
    section = reference.section(module)
    assert section in page
    assert section.startswith(f"## `{module.KIND}`\n\n")
    # Nothing of the docstring is dropped: every paragraph after the first
    # (the summary, reworded) is in the section.
    flat = " ".join(section.split())
    for paragraph in rules.doc(module.KIND).split("\n\n")[1:]:
        assert " ".join(paragraph.split()) in flat
    assert reference.parameter_names(module), module.KIND
    assert f"[`{module.KIND}`](#{module.KIND})" in reference.table()


def test_a_docstring_edit_makes_the_page_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    before = reference.render()
    module = rules.MODULES[0]
    monkeypatch.setattr(module, "__doc__", (module.__doc__ or "") + "\nOne more sentence.\n")
    assert reference.render() != before
    assert "One more sentence." in reference.section(module)


def test_the_command_prints_the_page_and_writes_it(tmp_path: Path) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "gate.rules.reference"], capture_output=True, check=True
    )
    assert printed.stdout.decode("utf-8") == reference.render()
    elsewhere = subprocess.run(
        [sys.executable, "-m", "gate.rules.reference", "--write"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert elsewhere.returncode == 2 and "repository root" in elsewhere.stderr
    assert "Traceback" not in elsewhere.stderr
    (tmp_path / "docs").mkdir()
    subprocess.run(
        [sys.executable, "-m", "gate.rules.reference", "--write"], cwd=tmp_path, check=True
    )
    assert (tmp_path / "docs" / "rules.md").read_text(encoding="utf-8") == reference.render()
    wrong = subprocess.run(
        [sys.executable, "-m", "gate.rules.reference", "--nope"], capture_output=True, text=True
    )
    assert wrong.returncode == 2 and "gate: error: usage" in wrong.stderr
