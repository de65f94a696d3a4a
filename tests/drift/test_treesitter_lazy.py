"""tree-sitter is loaded only when a JS/TS or Go test file is split
(docs/ARCHITECTURE.md, layering rules), and only by one module."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gate.drift import Unparsable, _treesitter

GATE = Path(__file__).resolve().parents[2] / "gate"


def _loaded(code: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(GATE.parent)}
    proc = subprocess.run(
        [sys.executable, "-c", code + "; import sys; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    names = proc.stdout.strip("[]\n").replace("'", "").split(", ")
    return sorted({m.split(".")[0] for m in names if "tree_sitter" in m})


def test_importing_the_language_modules_loads_no_grammar() -> None:
    assert (
        _loaded("import gate.drift.js, gate.drift.go, gate.drift.kotlin, gate.commands.cli") == []
    )


def test_splitting_loads_only_the_grammar_it_needs() -> None:
    go = "from gate.drift.go import units; units('package p\\n')"
    assert _loaded(go) == ["tree_sitter", "tree_sitter_go"]
    js = "from gate.drift.js import units; units('it(1)\\n', '.js')"
    assert _loaded(js) == ["tree_sitter", "tree_sitter_javascript"]
    ts = "from gate.drift.js import units; units('it(1)\\n', '.tsx')"
    assert _loaded(ts) == ["tree_sitter", "tree_sitter_typescript"]
    kotlin = "from gate.drift.kotlin import units; units('package p\\n')"
    assert _loaded(kotlin) == ["tree_sitter", "tree_sitter_kotlin"]


def test_only_one_module_imports_tree_sitter() -> None:
    """Type-only imports (under `if TYPE_CHECKING:`) load nothing and do not count."""
    importers = []
    for path in sorted(GATE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = [node.value] if node.value.startswith("tree_sitter") else []
            if any(n.split(".")[0].startswith("tree_sitter") for n in names):
                importers.append(path.relative_to(GATE).as_posix())
    assert sorted(set(importers)) == ["drift/_treesitter.py"]


def test_a_grammar_that_cannot_be_loaded_is_unparsable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wheel missing: `import` fails, and the split says which to install."""
    monkeypatch.setitem(
        _treesitter.GRAMMARS,
        "nothing",
        ("tree-sitter-nothing", "no_such_grammar_module", "language"),
    )
    with pytest.raises(Unparsable, match="tree-sitter-nothing"):
        _treesitter.parse("x\n", "nothing")


def test_a_parse_over_its_time_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_treesitter, "PARSE_SECONDS", -1.0)  # the deadline has passed
    with pytest.raises(Unparsable, match="took over"):
        _treesitter.parse("it('x', () => {});\n" * 20_000, "javascript")


def test_the_parse_after_a_stopped_one_reads_its_own_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parse stopped at its deadline leaves nothing behind: the thread's
    next parse is of the next text, not the rest of the stopped one."""
    stopped = "it('stopped', () => {});\n" * 20_000
    with monkeypatch.context() as late:
        late.setattr(_treesitter, "PARSE_SECONDS", -1.0)
        with pytest.raises(Unparsable, match="was stopped"):
            _treesitter.parse(stopped, "javascript")
    text = "test('mine', () => {});\n"
    source = _treesitter.parse(text, "javascript")
    assert source.text(source.root) == text
    assert source.root.end_byte == len(text.encode())
