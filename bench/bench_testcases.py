"""The cost of splitting test files into units (gate.drift.python, js, go).

    python bench/bench_testcases.py [--lines 10000] [--runs 5] [--python VENV/bin/python]

Prints, for each of tree-sitter and its javascript, typescript and go
grammars, the import time in a fresh interpreter (`python -X importtime`,
cumulative microseconds of the top-level module) and the wall time of a
fresh interpreter's first `units()` call on a small file (imports, loading
the grammar, one parse), each the fastest of `--runs`; then, in this
process, the median wall and CPU time of `units()` and of the bare
tree-sitter parse on a generated test file of `--lines` lines (Jest-style
describes and tests; Go `TestX` functions with table-driven subtests), and
of the Python split (uncached, `ast` walked once) and the bare `ast.parse`
on a generated pytest file (fixtures, test classes, parametrized tests);
and the installed size of each wheel's folders in site-packages.
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = {
    "tree_sitter": "tree_sitter",
    "javascript": "tree_sitter_javascript",
    "typescript": "tree_sitter_typescript",
    "go": "tree_sitter_go",
}


def js_file(lines: int) -> str:
    out = ["import { clamp } from './clamp';", "", "jest.mock('./db');", ""]
    n = 0
    while len(out) < lines:
        out.append(f"describe('group {n}', () => {{")
        out.append("  beforeEach(() => { setup(); });")
        for i in range(8):
            out.append(f"  it('case {n}.{i} rounds `{i}`', () => {{")
            out.append(f"    expect(clamp({i}.5)).toBe({i});")
            out.append("  });")
        out.append("});")
        out.append("")
        n += 1
    return "\n".join(out[:lines]) + "\n"


def python_file(lines: int) -> str:
    out = ["import pytest", "from pathlib import Path", "", "ROOT = Path(__file__).parent", ""]
    n = 0
    while len(out) < lines:
        out += [
            "",
            "@pytest.fixture",
            f"def limit{n}(tmp_path):",
            f"    return tmp_path / 'limit{n}'",
            "",
            "",
            f"class TestClamp{n}:",
            "    def setup_method(self):",
            f"        self.low = {n}",
            "",
            f"    def test_low(self, limit{n}):",
            f"        assert clamp(self.low - 1, limit{n}) == self.low",
            "",
            "",
            '@pytest.mark.parametrize("value", [1, 2, 3])',
            f"def test_clamp{n}(value):",
            "    assert clamp(value) == value",
            "",
        ]
        n += 1
    return "\n".join(out) + "\n"


def go_file(lines: int) -> str:
    out = ["package clamp_test", "", 'import "testing"', ""]
    n = 0
    while len(out) < lines:
        out += [
            f"func TestClamp{n}(t *testing.T) {{",
            "\tfor _, tc := range []struct{ in, want int }{{1, 1}, {2, 2}} {",
            '\t\tt.Run("case", func(t *testing.T) {',
            "\t\t\tif got := Clamp(tc.in); got != tc.want {",
            '\t\t\t\tt.Fatalf("got %d", got)',
            "\t\t\t}",
            "\t\t})",
            "\t}",
            "}",
            "",
        ]
        n += 1
    # cut at a function boundary
    text = "\n".join(out[:lines])
    return text[: text.rindex("\n}\n") + 3] if "\n}\n" in text else text + "\n"


def import_time(python: str, module: str) -> int:
    proc = subprocess.run(
        [python, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=True,
    )
    for line in proc.stderr.splitlines():
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1])
    raise SystemExit(f"no import time for {module}")


def first_call(python: str, suffix: str) -> float:
    code = (
        "import time; t = time.perf_counter();"
        + (
            "from gate.drift.go import units; units('package p\\n')"
            if suffix == ".go"
            else f"from gate.drift.js import units; units('it(1)\\n', {suffix!r})"
        )
        + "; print(time.perf_counter() - t)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True, env=env)
    return float(proc.stdout)


def median_time(fn: object, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `fn()` (CPU time is what other load disturbs least)."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        fn()  # type: ignore[operator]
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))

    # the fastest of --runs fresh interpreters (the least disturbed by other load)
    for module in MODULES.values():
        best = min(import_time(args.python, module) for _ in range(args.runs))
        print(f"import {module}: {best / 1000:.1f} ms")
    for suffix in (".js", ".ts", ".tsx", ".go"):
        best = min(first_call(args.python, suffix) for _ in range(args.runs))
        print(f"fresh interpreter, first units() for {suffix}: {best * 1000:.1f} ms")

    from gate.drift import _treesitter, go, js
    from gate.drift.python import units as python

    for label, text, parse, split in (
        (
            "Jest .ts",
            js_file(args.lines),
            _treesitter._parser("typescript").parse,
            lambda t: js.units(t, ".ts"),
        ),
        (
            "Jest .js",
            js_file(args.lines),
            _treesitter._parser("javascript").parse,
            lambda t: js.units(t, ".js"),
        ),
        ("Go", go_file(args.lines), _treesitter._parser("go").parse, go.units),
        ("pytest .py", python_file(args.lines), ast.parse, python._units),  # uncached
    ):
        data = text.encode()
        found = split(text)
        bare = median_time(lambda: parse(data), args.runs)  # noqa: B023
        whole = median_time(lambda: split(text), args.runs)  # noqa: B023
        parser = "ast" if parse is ast.parse else "tree-sitter"
        print(
            f"{label}: {text.count(chr(10)):,} lines, {len(data):,} bytes, {len(found):,} units: "
            f"units() {whole[0] * 1000:.0f} ms wall ({whole[1] * 1000:.0f} ms CPU), of which "
            f"the {parser} parse {bare[0] * 1000:.0f} ms ({bare[1] * 1000:.0f} ms CPU)"
        )

    import tree_sitter

    site = Path(tree_sitter.__file__).resolve().parents[1]
    total = 0
    for folder in sorted(site.glob("tree_sitter*")):
        size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
        total += size
        print(f"{folder.name}: {size / 1024:.0f} KiB")
    print(f"installed, all four: {total / 1024 / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
