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


def _module_imports() -> dict[str, dict[str, int]]:
    """Each gate module -> the gate modules it imports (first line), at any
    depth of the file (a function's lazy import counts: it runs too), but
    not under `if TYPE_CHECKING:`, which never runs."""
    paths = {}
    for path in sorted(GATE.rglob("*.py")):
        parts = list(path.relative_to(GATE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        paths[".".join(parts)] = path

    def owner(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    def imported(module: str, tree: ast.AST) -> dict[str, int]:
        found: dict[str, int] = {}

        def add(name: str | None, line: int) -> None:
            if name and name != module and not module.startswith(name + "."):
                found.setdefault(name, line)  # a package's own __init__ is not a loop

        def visit(node: ast.AST) -> None:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                for child in node.orelse:
                    visit(child)
                return
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    add(owner(f"{node.module}.{alias.name}") or owner(node.module), node.lineno)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    add(owner(alias.name), node.lineno)
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(tree)
        return found

    return {
        module: imported(module, ast.parse(path.read_text(encoding="utf-8")))
        for module, path in paths.items()
    }


def _loops(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops: list[list[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                connect(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == module:
                    break
            if len(part) > 1:
                loops.append(sorted(part))

    for module in graph:
        if module not in index:
            connect(module)
    return loops


def test_no_import_loops() -> None:
    """No gate module reaches itself through imports, lazy ones included:
    a loop means two layers each need the other, and the order they load in
    decides what works.  Each loop is printed with the imports that close it."""
    graph = _module_imports()
    found = [
        f"{a} -> {b} (line {graph[a][b]})"
        for part in _loops(graph)
        for a in part
        for b in graph[a]
        if b in part
    ]
    assert found == []


def test_the_loop_finder_finds_a_loop() -> None:
    """The check above can fail: a lazy import closing a loop is found."""
    graph = _module_imports()
    graph["gate.names"] = {**graph["gate.names"], "gate.cli": 1}
    assert any("gate.names" in part and "gate.cli" in part for part in _loops(graph))


def _change_set_sources() -> dict[str, list[str]]:
    """Each `source=` a `ChangeSet(...)` call names in gate/ -> where."""
    found: dict[str, list[str]] = {}
    for path in sorted(GATE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            if getattr(func, "id", getattr(func, "attr", None)) != "ChangeSet":
                continue
            assert isinstance(node, ast.Call)
            for keyword in node.keywords:
                if keyword.arg == "source":
                    where = f"{path.relative_to(GATE.parent).as_posix()}:{node.lineno}"
                    found.setdefault(ast.unparse(keyword.value), []).append(where)
    return found


def test_each_change_source_has_one_builder() -> None:
    """A change set is built in one place per source, in gate/changes/: no
    entry point (`gate check`, backtest, the Action) builds its own from git."""
    built = {
        source: [w.partition(":")[0] for w in where]
        for source, where in _change_set_sources().items()
    }
    assert built == {
        "'git'": ["gate/changes/git.py"],
        "'patch'": ["gate/changes/patch.py"],
        "'api'": ["gate/changes/api.py"],
        "'writer'": ["gate/changes/writer.py"],
        "'example'": ["gate/changes/example.py"],
    }
