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
    """The tree's lines (section "The tree"): (module path, the names after
    its "— owns", which that module is the one owner of)."""
    section = text.split("## The tree", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        found = re.match(r"- `(gate/[^`]+\.py)`: (.*)", line)
        if found:
            _, owns, owned = found.group(2).rpartition(" — owns ")
            owned = owned if owns else ""
            rows.append((found.group(1), re.findall(r"`([A-Za-z_][\w.]*)`", owned)))
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
    """A module added to gate/ has its line in the page's tree, once, and a
    line names no module that is gone."""
    listed = [path for path, _ in _owner_rows(ARCHITECTURE.read_text(encoding="utf-8"))]
    modules = sorted(p.relative_to(GATE.parent).as_posix() for p in _module_paths().values())
    assert sorted(listed) == modules


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
        p.relative_to(GATE).as_posix()
        for p in GATE.rglob("*")
        if p.is_file()
        and p.suffix not in (".py", ".pyc")
        and not p.name.startswith(".")
        and "__pycache__" not in p.parts
    }
    assert sorted(data) == sorted(shipped)


def _module_paths() -> dict[str, Path]:
    """Each gate module's dotted name -> its file."""
    paths = {}
    for path in sorted(GATE.rglob("*.py")):
        parts = list(path.relative_to(GATE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        paths[".".join(parts)] = path
    return paths


def _type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:` exactly: a block that
    never runs.  Anything else (`if not TYPE_CHECKING:`, `or True`) runs."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _dynamic_import(call: ast.Call) -> str | None:
    """The module an `importlib.import_module(...)` or `__import__(...)` call
    names, up to its first computed part (`f"gate.commands.{name}"` is
    `gate.commands`); None for any other call."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in ("import_module", "__import__") or not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr):
        prefix = ""
        for part in arg.values:
            if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                break
            prefix += part.value
        return prefix.rstrip(".")
    return None


def _imports_of(module: str, tree: ast.AST, paths: dict[str, Path]) -> dict[str, int]:
    """The gate modules `module` (parsed as `tree`) imports, with the first
    line of each: absolute and relative imports, and `importlib.import_module`
    by the constant part of its name, at any depth of the file (a
    function's lazy import counts: it runs too), but not under `if
    TYPE_CHECKING:`, which never runs."""
    package = module if paths[module].name == "__init__.py" else module.rpartition(".")[0]

    def owner(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    found: dict[str, int] = {}

    def add(name: str | None, line: int) -> None:
        if name and name != module and not module.startswith(name + "."):
            found.setdefault(name, line)  # a package's own __init__ is not a loop

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # `from . import x`, `from ..y import z`: from this package up
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            for alias in node.names:
                add(owner(f"{base}.{alias.name}") or owner(base), node.lineno)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                add(owner(alias.name), node.lineno)
        elif isinstance(node, ast.Call) and _dynamic_import(node) is not None:
            add(owner(str(_dynamic_import(node))), node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _module_imports() -> dict[str, dict[str, int]]:
    """Each gate module -> the gate modules it imports (`_imports_of`)."""
    paths = _module_paths()
    return {
        module: _imports_of(module, ast.parse(path.read_text(encoding="utf-8")), paths)
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


def _loop_edges(graph: dict[str, dict[str, int]]) -> list[str]:
    """Each import that closes a loop of `graph`, with its line."""
    return [
        f"{a} -> {b} (line {graph[a][b]})"
        for part in _loops(graph)
        for a in part
        for b in graph[a]
        if b in part
    ]


def test_no_import_loops() -> None:
    """No gate module reaches itself through imports, lazy ones included:
    a loop means two layers each need the other, and the order they load in
    decides what works.  Each loop is printed with the imports that close it."""
    graph = _module_imports()
    assert _loop_edges(graph) == []


def test_the_loop_finder_finds_a_loop() -> None:
    """The check above can fail: a lazy import closing a loop is found."""
    graph = _module_imports()
    graph["gate.base.names"] = {**graph["gate.base.names"], "gate.commands.cli": 1}
    assert any("gate.base.names" in part and "gate.commands.cli" in part for part in _loops(graph))


def _layer_table(text: str) -> list[tuple[str, list[str]]]:
    """The layer table of "Layering rules", lowest first: (layer, its entries:
    `gate/x.py` a module, `gate/x/` a folder and everything under it)."""
    section = text.split("## Layering rules", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and cells[1].startswith("`gate/"):
            rows.append((cells[0].strip("`*"), re.findall(r"`(gate/[^`]*)`", cells[1])))
    return rows


# The package's own files, which sit beside the layer folders.
PACKAGE_FILES = ("gate/__init__.py", "gate/__main__.py")


def _placement(
    table: list[tuple[str, list[str]]], modules: dict[str, Path]
) -> tuple[dict[str, int], list[str]]:
    """Each module's layer (its index in `table`), by the longest entry that
    matches its file; and a sentence for each module no entry places and
    each entry named twice."""
    rank: dict[str, int] = {}
    problems = []
    for i, (layer, entries) in enumerate(table):
        for entry in entries:
            if not entry.endswith("/") and entry not in PACKAGE_FILES:
                problems.append(
                    f"{entry} is a module in layer {layer}: a layer is made of folders "
                    "(only the package's own __init__.py and __main__.py stand alone)"
                )
            if entry in rank:
                problems.append(f"{entry} is in two layers: {table[rank[entry]][0]} and {layer}")
            rank[entry] = i
    placed = {}
    for module, path in modules.items():
        shown = path.relative_to(GATE.parent).as_posix()
        matching = [e for e in rank if e == shown or (e.endswith("/") and shown.startswith(e))]
        if not matching:
            problems.append(
                f"{shown} is in no layer: add it (or its folder) to the layer table in "
                'docs/ARCHITECTURE.md, section "Layering rules"'
            )
            continue
        placed[module] = rank[max(matching, key=len)]
    return placed, problems


def _upward(
    graph: dict[str, dict[str, int]],
    placed: dict[str, int],
    table: list[tuple[str, list[str]]],
    modules: dict[str, Path],
) -> list[str]:
    """Each import of a module in a higher layer, named: importer, line,
    imported, both layers."""
    found = []
    for importer, imports in sorted(graph.items()):
        for imported, line in sorted(imports.items()):
            if importer in placed and imported in placed and placed[imported] > placed[importer]:
                where = modules[importer].relative_to(GATE.parent).as_posix()
                found.append(
                    f"{where}:{line} imports {imported}: layer {table[placed[importer]][0]} "
                    f"may not import layer {table[placed[imported]][0]}, which is higher"
                )
    return found


def _layers() -> list[tuple[str, list[str]]]:
    """The page's layer table: a missing or mangled table is a failure, not
    a check of nothing."""
    table = _layer_table(ARCHITECTURE.read_text(encoding="utf-8"))
    names = [layer for layer, _ in table]
    assert len(table) >= 5 and len(set(names)) == len(names), names
    return table


def test_every_module_has_one_layer() -> None:
    """docs/ARCHITECTURE.md's layer table is the one statement of the layers:
    every gate module is placed by it, and no entry is named twice."""
    _, problems = _placement(_layers(), _module_paths())
    assert problems == []


def test_no_upward_imports() -> None:
    """No gate module imports one in a higher layer (docs/ARCHITECTURE.md,
    "Layering rules"), lazy imports included; imports within a layer are
    fine (a loop is refused above).  Each climbing import is named."""
    table = _layers()
    modules = _module_paths()
    placed, _ = _placement(table, modules)
    assert _upward(_module_imports(), placed, table, modules) == []


def test_the_layer_check_finds_a_climbing_import_and_a_stray_module() -> None:
    """The checks above can fail: an import of the entry point
    (`gate.commands.cli`) from the lowest layer (`gate.base.names`) is named
    with its line and both layers; a module no folder places, a folder named
    twice and a module named as a layer of its own are reported."""
    table = _layers()
    modules = _module_paths()
    placed, _ = _placement(table, modules)
    graph = _module_imports()
    graph["gate.base.names"] = {**graph["gate.base.names"], "gate.commands.cli": 7}
    lowest, highest = table[placed["gate.base.names"]][0], table[placed["gate.commands.cli"]][0]
    assert placed["gate.base.names"] < placed["gate.commands.cli"]
    assert (
        f"gate/base/names.py:7 imports gate.commands.cli: layer {lowest} may not import "
        f"layer {highest}, which is higher"
    ) in _upward(graph, placed, table, modules)
    stray = {**modules, "gate.stray.x": GATE / "stray" / "x.py"}
    without = [(layer, [e for e in entries if e != "gate/model/"]) for layer, entries in table]
    _, problems = _placement([*without, ("again", ["gate/commands/", "gate/cli.py"])], stray)
    assert problems == [
        f"gate/commands/ is in two layers: {highest} and again",
        "gate/cli.py is a module in layer again: a layer is made of folders "
        "(only the package's own __init__.py and __main__.py stand alone)",
        *(
            f"gate/{name} is in no layer: add it (or its folder) to the layer table in "
            'docs/ARCHITECTURE.md, section "Layering rules"'
            for name in (
                "model/__init__.py",
                "model/change.py",
                "model/report.py",
                "model/rubric.py",
                "model/waivers.py",
                "stray/x.py",
            )
        ),
    ]


def test_the_import_walker_sees_relative_and_runtime_imports() -> None:
    """A relative import is an import, so is `importlib.import_module`, and
    so is one under an `if` that merely mentions TYPE_CHECKING: only `if
    TYPE_CHECKING:` itself never runs."""
    code = (
        "from typing import TYPE_CHECKING\n"
        "from .source import RubricSource\n"
        "from .. import judge\n"
        "from ..rules import builtin\n"
        "if TYPE_CHECKING:\n"
        "    from gate.commands.cli import main\n"
        "else:\n"
        "    from gate.git import Repo\n"
        "if not TYPE_CHECKING:\n"
        "    from gate.research.lab import run_lab\n"
        "def later():\n"
        "    import gate.research.backtest\n"
        "    importlib.import_module(f'gate.research.loop.{name}')\n"
        "    __import__('gate.starter.demo_fixture')\n"
    )
    found = _imports_of("gate.rubric.schema", ast.parse(code), _module_paths())
    assert found == {
        "gate.rubric.source": 2,
        "gate.judge": 3,
        "gate.rules.builtin": 4,
        "gate.git": 8,
        "gate.research.lab": 10,
        "gate.research.backtest": 12,
        "gate.research.loop": 13,
        "gate.starter.demo_fixture": 14,
    }
    in_init = _imports_of("gate.rubric", ast.parse("from . import source\n"), _module_paths())
    assert in_init == {"gate.rubric.source": 1}


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


# The network stack, and the only modules that may import it
# (docs/ARCHITECTURE.md, "Layering rules").
NETWORK = ("github", "requests", "urllib3")
NETWORK_IMPORTERS = ["github/client.py", "github/client_transport.py"]


def _network_imports(tree: ast.AST) -> list[tuple[int, str, bool]]:
    """Each import of the network stack in `tree`: (line, module, whether
    it runs inside a function, so only when that function is called).
    Imports under `if TYPE_CHECKING:` never run and are left out;
    `importlib.import_module` and `__import__` by a constant name count."""
    found: list[tuple[int, str, bool]] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.orelse:
                visit(child, lazy)
            return
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        elif isinstance(node, ast.Call):
            names = [n for n in (_dynamic_import(node),) if n]
        found.extend((node.lineno, n, lazy) for n in names if n.split(".")[0] in NETWORK)
        inner = lazy or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, False)
    return found


def test_only_the_client_imports_the_network_stack_and_only_when_built() -> None:
    """PyGithub, requests and urllib3 are imported only by the API client's
    modules, and there only inside functions (building the client, a call):
    never when a module loads, so importing any gate module, the Action's
    stages included, loads no network stack."""
    importers, eager = set(), []
    for path in sorted(GATE.rglob("*.py")):
        rel = path.relative_to(GATE).as_posix()
        for line, name, lazy in _network_imports(ast.parse(path.read_text(encoding="utf-8"))):
            importers.add(rel)
            if not lazy:
                eager.append(f"{rel}:{line}: imports {name} when the module loads")
    assert sorted(importers) == NETWORK_IMPORTERS
    assert eager == []


def test_the_network_check_finds_an_eager_import() -> None:
    """The check above can fail: a module-level import (plain, from, or by
    `importlib`) is eager, one in a function is lazy, and one under `if
    TYPE_CHECKING:` is no import."""
    code = (
        "from typing import TYPE_CHECKING\n"
        "import requests\n"
        "from github.GithubRetry import GithubRetry\n"
        "if TYPE_CHECKING:\n"
        "    from urllib3.response import BaseHTTPResponse\n"
        "def build():\n"
        "    import github\n"
        "    importlib.import_module('urllib3.util')\n"
        "x = importlib.import_module('github')\n"
        "import gate.github.client\n"
    )
    assert sorted(_network_imports(ast.parse(code))) == [
        (2, "requests", False),
        (3, "github.GithubRetry", False),
        (7, "github", True),
        (8, "urllib3.util", True),
        (9, "github", False),
    ]


def test_importing_the_action_loads_no_network_stack() -> None:
    """Every module of gate/github/ (the client's) and gate/action/ (the
    Action's entry and stages) imports without loading PyGithub, requests or
    urllib3: only building the client does."""
    import subprocess
    import sys

    modules = sorted(m for m in _module_paths() if m.split(".")[1:2] in (["github"], ["action"]))
    assert "gate.github.client" in modules and "gate.action.action" in modules
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {NETWORK!r}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=GATE.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "[]"


MODULE_LINES = 600  # docs/ARCHITECTURE.md, "Layering rules": code lines, split by job past it


def code_lines(text: str) -> int:
    """The lines of a module that hold code: not blank, not only a comment,
    not part of a docstring (a module's, a class's or a function's first
    statement when it is a string: documentation, however long)."""
    tree = ast.parse(text)
    prose: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        first = node.body[0] if node.body else None
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            prose.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return sum(
        1
        for number, line in enumerate(text.splitlines(), 1)
        if number not in prose and line.strip() and not line.lstrip().startswith("#")
    )


def _too_long(paths: dict[str, Path], limit: int) -> list[str]:
    """Each module over `limit` code lines, named with its count."""
    found = []
    for path in sorted(paths.values()):
        count = code_lines(path.read_text(encoding="utf-8"))
        if count > limit:
            shown = path.relative_to(GATE.parent).as_posix()
            found.append(f"{shown} has {count} code lines, over {limit}: split it by job")
    return found


def test_no_module_is_over_the_line_budget() -> None:
    """No gate module grows past `MODULE_LINES`; the page states the same figure."""
    assert f"`MODULE_LINES` ({MODULE_LINES})" in ARCHITECTURE.read_text(encoding="utf-8")
    assert _too_long(_module_paths(), MODULE_LINES) == []


def test_the_line_budget_names_a_long_module() -> None:
    """The check above can fail: with a budget below the longest module's
    code lines, that module is named with its count."""
    paths = _module_paths()
    longest = max(paths.values(), key=lambda p: code_lines(p.read_text(encoding="utf-8")))
    count = code_lines(longest.read_text(encoding="utf-8"))
    shown = longest.relative_to(GATE.parent).as_posix()
    assert f"{shown} has {count} code lines, over {count - 1}: split it by job" in _too_long(
        paths, count - 1
    )


def test_code_lines_leave_out_docstrings_comments_and_blank_lines() -> None:
    text = (
        '"""A module.\n\nLong prose."""\n\n# a comment\nimport os\n\n\n'
        'def f(x):\n    """What f does."""\n    y = """not a docstring"""\n'
        '    return x  # trailing comment\n\n\nclass C:\n    "C."\n    a = 1\n'
    )
    assert code_lines(text) == 6  # import, def, y = ..., return, class, a = 1


def _private(name: str) -> bool:
    """A leading underscore, not a dunder (`__init__`, `__all__` are public)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_names_defined(trees: list[ast.AST]) -> set[str]:
    """Every private name gate/ defines: functions, classes, names and
    attributes assigned.  `X._name` where gate defines no `_name` is another
    library's (a named tuple's `_replace`, argparse's `_actions`)."""
    found: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = node.name
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                name = node.id
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                name = node.attr
            else:
                continue
            if _private(name):
                found.add(name)
    return found


def _private_crossings(
    module: str, tree: ast.AST, defined: set[str], paths: dict[str, Path]
) -> list[str]:
    """Where module `module` (parsed as `tree`) uses another module's private
    name: `from gate.x import _name` (or a relative import) of another gate
    module, or `X._name` of a private name gate defines where `X` is not
    `self` or `cls`.  Each as `line: what`."""
    package = module if paths[module].name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            if base.split(".")[0] != "gate" or base == module:
                continue
            found += [
                f"{node.lineno}: imports {a.name} from {base}"
                for a in node.names
                if _private(a.name)
            ]
        elif (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and node.attr in defined
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_private_name_crosses_a_module_line() -> None:
    """A name with a leading underscore is its module's (or its class's)
    own: no other gate module imports it or reaches into an object for it.
    What modules share is public, with a name and a docstring."""
    paths = _module_paths()
    trees = {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in paths.items()}
    defined = _private_names_defined(list(trees.values()))
    found = [
        f"{paths[m].relative_to(GATE.parent).as_posix()}:{crossing}"
        for m, tree in trees.items()
        for crossing in _private_crossings(m, tree, defined, paths)
    ]
    assert found == []


def test_the_privacy_check_finds_a_planted_crossing() -> None:
    """The check above can fail: a private import from another gate module
    (absolute or relative) and `repo._argv` are named; `self._x`, `cls._x`,
    a dunder, a public name, a module's own name and another library's
    private attribute (`t._replace`) are not."""
    code = (
        "from gate.git.conventions import _first_line, FULL_SHA\n"
        "from .runner import _hidden\n"
        "from gate.git.repo import _mine\n"
        "from argparse import _SubParsersAction\n"
        "repo._argv(['status'])\n"
        "self._argv\n"
        "cls._argv\n"
        "obj.__dict__\n"
        "t._replace(a=1)\n"
    )
    defined = _private_names_defined([ast.parse(code)]) | {"_argv", "_first_line"}
    assert "_replace" not in defined
    found = _private_crossings("gate.git.repo", ast.parse(code), defined, _module_paths())
    assert found == [
        "1: imports _first_line from gate.git.conventions",
        "2: imports _hidden from gate.git.runner",
        "5: repo._argv",
    ]


def _type_imports() -> dict[str, dict[str, int]]:
    """`_module_imports` with the imports under `if TYPE_CHECKING:` too."""
    paths = _module_paths()
    graph = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and _type_checking(node.test):
                node.test = ast.Constant(value=True)  # walked as code that runs
        graph[module] = _imports_of(module, tree, paths)
    return graph


def test_no_modules_import_each_other_even_for_types() -> None:
    """No loop closes through an import made only for annotations (under
    `if TYPE_CHECKING:`) either: the type's owner is imported one way."""
    graph = _type_imports()
    assert _loop_edges(graph) == []


def test_the_type_loop_check_sees_imports_for_types() -> None:
    """The check above can fail: an import under `if TYPE_CHECKING:` is an
    edge of its graph (and of no other), so one back the other way is a loop."""
    graph = _type_imports()
    assert "gate.git.runner" in graph["gate.git.catfile"]
    assert "gate.git.runner" not in _module_imports()["gate.git.catfile"]
    graph["gate.git.runner"] = {**graph["gate.git.runner"], "gate.git.catfile": 1}
    assert any("gate.git.catfile" in part for part in _loops(graph))


# Folders of tests/ that hold the harness, not tests of one gate folder.
HARNESS_FOLDERS = ("act", "act_harness", "container", "github_api", "sarif")


def _stray_test_folders(tests: Path, gate: Path) -> list[str]:
    """Each folder of `tests` that mirrors no folder of `gate` (and is not a
    harness folder), and each test module left at the top of `tests` that
    tests one gate folder's code (names one in its file name)."""
    folders = {p.name for p in gate.iterdir() if (p / "__init__.py").exists()}
    stray = [
        f"tests/{p.name}/"
        for p in sorted(tests.iterdir())
        if p.is_dir()
        and p.name not in folders
        and p.name not in HARNESS_FOLDERS
        and p.name != "__pycache__"
        and not p.name.startswith(".")
    ]
    stray += [
        f"tests/{p.name}"
        for p in sorted(tests.glob("test_*.py"))
        if p.stem.removeprefix("test_").split("_")[0] in folders
    ]
    return stray


def test_tests_mirror_the_package() -> None:
    """tests/ mirrors gate/: a test of one gate folder's code lives in the
    folder of the same name (the hostile cases beside the module they
    attack); only tests of the project as a whole (the docs, the layout, a
    release) and the harness stay at the top."""
    assert _stray_test_folders(GATE.parent / "tests", GATE) == []


def test_the_mirror_check_finds_a_stray_test(tmp_path: Path) -> None:
    """A test folder no gate folder names, and a test of a gate folder left at
    the top, are both reported."""
    (tmp_path / "gate" / "git").mkdir(parents=True)
    (tmp_path / "gate" / "git" / "__init__.py").write_text("")
    (tmp_path / "tests" / "git").mkdir(parents=True)
    (tmp_path / "tests" / "gits").mkdir()
    (tmp_path / "tests" / "act").mkdir()
    (tmp_path / "tests" / "test_git_counts.py").write_text("")
    (tmp_path / "tests" / "test_docs.py").write_text("")
    assert _stray_test_folders(tmp_path / "tests", tmp_path / "gate") == [
        "tests/gits/",
        "tests/test_git_counts.py",
    ]
