"""The layout's one-way rules, checked on the source (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

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


ARCHITECTURE = GATE.parent / "docs" / "ARCHITECTURE.md"


def _resolves(name: str) -> bool:
    """`gate.a.b.c`: a module, or an attribute of one, that exists."""
    parts = name.split(".")
    found: object = importlib.import_module(parts[0])
    for i, part in enumerate(parts[1:], start=2):
        if hasattr(found, part):
            found = getattr(found, part)
            continue
        try:
            found = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            return False
    return True


def _owner_rows(text: str) -> list[tuple[str, list[str]]]:
    """The "One owner per idea" table: (owner module path, names it owns)."""
    section = text.split("## One owner per idea", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 2 and cells[1].startswith("`gate/") and ":" in cells[1]:
            path, _, owned = cells[1].partition(":")
            rows.append((path.strip("`"), re.findall(r"`([A-Za-z_][\w.]*)`", owned)))
    return rows


def test_architecture_names_only_what_exists() -> None:
    """docs/ARCHITECTURE.md cannot describe a layout that moved: every path
    under gate/ and every dotted gate name it mentions exists, and each owner
    in its one-owner table has the functions the page says it owns."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    missing = [
        path
        for path in re.findall(r"\bgate/[\w./-]*[\w/]", text)  # `gate/rules/<kind>.py`: the folder
        if not (GATE.parent / path).exists()
    ]
    missing += [n for n in re.findall(r"\bgate(?:\.\w+)+(?![\w-])", text) if not _resolves(n)]
    rows = _owner_rows(text)
    assert len(rows) >= 10
    for path, owned in rows:
        module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        missing += [f"{path}: {name}" for name in owned if not _resolves(f"{module}.{name}")]
    assert missing == []


def test_architecture_names_every_module_and_folder() -> None:
    """A module or folder added to gate/ is placed on the page."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    wanted = [f"gate/{p.name}" for p in sorted(GATE.glob("*.py")) if p.name != "__init__.py"]
    wanted += [f"gate/{p.name}/" for p in sorted(GATE.iterdir()) if (p / "__init__.py").exists()]
    assert [w for w in wanted if w not in text] == []


def test_package_data_names_files_that_exist() -> None:
    """pyproject.toml ships data files by exact name, and each exists: no
    pattern that matches nothing (the schema is built at run time now), no
    file `pip install .` would leave behind unnoticed."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((GATE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = config["tool"]["setuptools"]["package-data"]["gate"]
    assert [n for n in shipped if any(c in n for c in "*?[")] == []
    assert [n for n in shipped if not (GATE / n).is_file()] == []
    data = {
        p.name
        for p in GATE.iterdir()
        if p.is_file() and p.suffix not in (".py", ".pyc") and not p.name.startswith(".")
    }
    assert sorted(data) == sorted(shipped)
