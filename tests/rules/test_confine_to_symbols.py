"""confine_to_symbols: every changed line lies inside the listed top-level definitions."""

from __future__ import annotations

from gate.changes.example import changes_from_example
from gate.model.change import DELETED, ChangeSet, from_paths
from gate.model.report import Finding
from gate.starter.demo_fixture import CLAMP_KIT, CLEANUP_KIT, HONEST_FIX
from tests.rulecase import Change, Executable, Files, RuleCase, table

F = "clamp_kit.py"
CASE = RuleCase("confine_to_symbols", id="SCOPE", file=F)
edit = CASE.edit


BASE = """\
import os

LIMIT = 3

# helper comment
@cache
@trace(
    level=2,
)
def helper(x):
    def inner():
        return x
    return inner

async def fetch():
    return 1

class Thing:
    def method(self):
        pass
"""

CASES = [
    # (label, changes, symbols, passed, message)
    (
        "untouched",
        Files(base={"x.py": "x = 1\n"}, head={"x.py": "x = 2\n"}),
        ["clamp"],
        True,
        '"clamp_kit.py" is untouched',
    ),
    (
        "no-op touch (the mode changed)",
        edit(BASE, Executable(BASE)),
        ["helper"],
        True,
        '0 changed lines of "clamp_kit.py", all inside "helper"',
    ),
    (
        "seed honest fix",
        edit(CLAMP_KIT, HONEST_FIX),
        ["clamp"],
        True,
        '2 changed lines of "clamp_kit.py", all inside "clamp"',
    ),
    ("seed cleanup", edit(CLAMP_KIT, CLEANUP_KIT), ["clamp"], False, 'lie outside "clamp"'),
    (
        "nested def inside listed",
        edit(BASE, BASE.replace("return x", "return -x")),
        ["helper"],
        True,
        "all inside",
    ),
    (
        "decorator line is inside",
        edit(BASE, BASE.replace("level=2", "level=3")),
        ["helper"],
        True,
        "all inside",
    ),
    (
        "first decorator is inside",
        edit(BASE, BASE.replace("@cache\n", "")),
        ["helper"],
        True,
        "all inside",
    ),
    (
        "comment above is outside",
        edit(BASE, BASE.replace("# helper", "# a helper")),
        ["helper"],
        False,
        "head lines 5; removed base lines 5",
    ),
    ("async def", edit(BASE, BASE.replace("return 1", "return 2")), ["fetch"], True, "all inside"),
    (
        "method of a listed class",
        edit(BASE, BASE.replace("pass", "return 1")),
        ["Thing"],
        True,
        "all inside",
    ),
    (
        "listing a method does not work: not top-level",
        edit(BASE, BASE.replace("pass", "return 1")),
        ["method"],
        False,
        'not defined at base or head: "method"',
    ),
    (
        "assignment target",
        edit(BASE, BASE.replace("LIMIT = 3", "LIMIT = 4")),
        ["LIMIT"],
        True,
        "all inside",
    ),
    (
        "function may grow",
        edit(BASE, BASE.replace("    return 1\n", "    x = 1\n    y = 2\n    return x + y\n")),
        ["fetch"],
        True,
        "all inside",
    ),
    (
        "new top-level function",
        edit(BASE, BASE + "\ndef extra():\n    pass\n"),
        ["helper", "fetch", "Thing"],
        False,
        "3 changed lines",
    ),
    (
        "removed blank line between defs",
        edit(BASE, BASE.replace("\n\nasync", "\nasync")),
        ["helper", "fetch"],
        False,
        "removed base lines 14",
    ),
    (
        "removed an unlisted function",
        edit(BASE, BASE.replace("async def fetch():\n    return 1\n\n", "")),
        ["helper", "Thing"],
        False,
        "removed base lines 15-17",
    ),
    (
        "import edited",
        edit(BASE, BASE.replace("import os", "import sys")),
        ["helper"],
        False,
        "head lines 1; removed base lines 1",
    ),
    (
        "trailing newline of a listed last def",
        edit(BASE, BASE.rstrip("\n")),
        ["Thing"],
        True,
        "all inside",
    ),
    (
        "trailing newline outside",
        edit("def f():\n    pass\nX = 1\n", "def f():\n    pass\nX = 1"),
        ["f"],
        False,
        "head lines 3",
    ),
    (
        "new file of listed defs only",
        edit(None, "def clamp(n):\n    return n\n"),
        ["clamp"],
        True,
        "all inside",
    ),
    (
        "new file with an import",
        edit(None, "import os\ndef clamp(n):\n    return n\n"),
        ["clamp"],
        False,
        "head lines 1",
    ),
    ("deleted file", edit(BASE, None), ["helper"], False, '("clamp_kit.py" was deleted)'),
    (
        "deleted file of listed defs only",
        edit("def f():\n    pass\n", None),
        ["f"],
        True,
        "all inside",
    ),
    (
        "renamed away",
        Files(base={F: BASE}, head={"k.py": BASE}),
        ["helper"],
        False,
        '"clamp_kit.py" was renamed to "k.py"',
    ),
    (
        "content unavailable",
        ChangeSet(files=from_paths([F]), source="writer"),
        ["helper"],
        False,
        "content is unavailable from this source (writer)",
    ),
    (
        "head does not parse",
        edit(BASE, BASE.replace("def helper(x):", "def helper(x)")),
        ["helper"],
        False,
        "head version",
    ),
    (
        "base does not parse",
        edit("def f(:\n", "def f():\n    pass\n"),
        ["f"],
        False,
        "base version",
    ),
    (
        "counts-only example entry is not checked",
        changes_from_example([{"path": F, "added": 1, "deleted": 1}]),
        ["helper"],
        True,
        "content not checked",
    ),
    (
        "counts-only example deletion fails",
        changes_from_example([{"path": F, "status": DELETED, "deleted": 9}]),
        ["helper"],
        False,
        "was deleted and its text is not available",
    ),
]


@table(("changes", "symbols", "passed", "message"), CASES)
def test_confine_to_symbols(
    changes: Change, symbols: list[str], passed: bool, message: str
) -> None:
    if passed:
        assert CASE.passes(changes, message, symbols=symbols).findings == ()
    else:
        CASE.fails(changes, message, reported=[F], symbols=symbols)


def test_findings_group_runs_and_name_head_lines() -> None:
    base = "import a\nimport b\n\ndef f():\n    return 1\n"
    head = "import c\n\ndef f():\n    return 2\n\ndef g():\n    pass\n"
    result = CASE.fails(edit(base, head), symbols=["f"])
    assert result.message == (
        '6 changed lines of "clamp_kit.py" lie outside "f": '
        "head lines 1, 5-7; removed base lines 1-2"
    )
    assert result.findings == (
        Finding(F, 'base lines 1-2 removed outside "f"', 1),
        Finding(F, 'line 1 changed outside "f"', 1),
        Finding(F, 'lines 5-7 changed outside "f"', 5),
    )


def test_syntax_error_annotates_the_head_line() -> None:
    change = edit("def f():\n    pass\n", "def f():\n    pass\nx = (\n")
    result = CASE.fails(change, symbols=["f"])
    assert [(f.path, f.line) for f in result.findings] == [(F, 3)]


def test_same_input_same_result() -> None:
    change = edit(CLAMP_KIT, CLEANUP_KIT)
    assert CASE.check(change, symbols=["clamp"]) == CASE.check(change, symbols=["clamp"])


def test_trailing_comment_after_last_statement_is_outside() -> None:
    base = "def f():\n    return 1\n"
    head = "def f():\n    return 1\n    # note\n"
    CASE.fails(edit(base, head), "head lines 3", symbols=["f"])
