"""The layout's one-way rules, checked on the source (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

GATE = Path(__file__).resolve().parents[1] / "gate"


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return found


def test_commands_never_import_each_other() -> None:
    """What two commands share lives where it belongs (a renderer in
    gate/report, a loader in gate/rubric or gate/changes), not in a command."""
    offenders = []
    for path in sorted((GATE / "commands").glob("*.py")):
        for line, name in _imports(path):
            if name.startswith("gate.commands.") or name == "gate.commands":
                offenders.append(f"commands/{path.name}:{line}: imports {name}")
    assert offenders == []


def test_every_report_format_is_chosen_in_one_place() -> None:
    """No command compares its `--format` itself: `gate.report.in_format` does."""
    offenders = []
    for path in sorted((GATE / "commands").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                isinstance(c, ast.Constant) and c.value in ("json", "text", "markdown")
                for c in node.comparators
            ):
                offenders.append(f"commands/{path.name}:{node.lineno}")
    assert offenders == []
