"""keep_symbols: listed top-level Python names survive the change."""

from __future__ import annotations

from gate.changes.example import changes_from_example
from gate.model.change import DELETED, RENAMED, ChangeSet, FileChange, FileTexts, from_paths
from gate.starter.demo_fixture import CLAMP_KIT, CLEANUP_KIT, HONEST_FIX
from tests.rulecase import Change, Files, RuleCase, table

F = "pkg/mod.py"
CASE = RuleCase("keep_symbols", id="NAMES", file=F)
edit = CASE.edit


BASE = """\
import os
from x import imported

CONST = 1
A, (B, *REST) = 1, (2, 3, 4)
TYPED: int = 5
BARE: str
obj.attr = 6

@decorator
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
    # (label, changes, symbols, passed, message, finding-fragments)
    (
        "untouched file",
        Files(base={"other.py": "x = 1\n"}, head={"other.py": "x = 2\n"}),
        ["helper"],
        True,
        '"pkg/mod.py" is untouched',
        [],
    ),
    (
        "body edit keeps names",
        edit(BASE, BASE.replace("return 1", "return 2")),
        ["fetch", "helper"],
        True,
        "2 listed symbols",
        [],
    ),
    (
        "all kinds survive a no-op",
        edit(BASE, BASE + "\n"),
        ["CONST", "A", "B", "REST", "TYPED", "Thing", "fetch"],
        True,
        "7 listed symbols",
        [],
    ),
    (
        "a bare annotation defines nothing (ignored at base, named)",
        edit(BASE, BASE + "\n"),
        ["BARE"],
        True,
        'not defined at base, so ignored: "BARE"',
        [],
    ),
    (
        "def replaced by a bare annotation is missing",
        edit(BASE, BASE.replace("async def fetch():\n    return 1\n", "fetch: object\n")),
        ["fetch"],
        False,
        '1 kept symbol of "pkg/mod.py" is missing at head: "fetch"',
        [],
    ),
    (
        "renamed def",
        edit(BASE, BASE.replace("def helper", "def helper2")),
        ["helper", "fetch"],
        False,
        '1 kept symbol of "pkg/mod.py" is missing at head: "helper"',
        ['symbol "helper" (base line 10) is missing at head'],
    ),
    (
        "async def removed",
        edit(BASE, BASE.replace("async def fetch", "def fetch2")),
        ["fetch"],
        False,
        '"fetch"',
        ["base line 16"],
    ),
    (
        "class removed",
        edit(BASE, BASE.replace("class Thing", "class Other")),
        ["Thing"],
        False,
        '"Thing"',
        [],
    ),
    (
        "def becomes class: kept",
        edit(BASE, BASE.replace("async def fetch():", "class fetch:")),
        ["fetch"],
        True,
        "1 listed symbol",
        [],
    ),
    (
        "tuple unpacking narrowed",
        edit(BASE, BASE.replace("A, (B, *REST) = 1, (2, 3, 4)", "A = 1")),
        ["A", "B", "REST"],
        False,
        '2 kept symbols of "pkg/mod.py" are missing at head: "B", "REST"',
        [],
    ),
    (
        "annotated assignment removed",
        edit(BASE, BASE.replace("TYPED: int = 5\n", "")),
        ["TYPED"],
        False,
        '"TYPED"',
        [],
    ),
    (
        "def replaced by an import is missing",
        edit(BASE, BASE.replace("async def fetch():\n    return 1\n", "from y import fetch\n")),
        ["fetch"],
        False,
        '"fetch"',
        [],
    ),
    (
        "imports are not symbols at base (ignored, named)",
        edit(BASE, BASE.replace("from x import imported\n", "")),
        ["imported", "os"],
        True,
        'not defined at base, so ignored: "imported", "os"',
        [],
    ),
    (
        "nested def is not top-level",
        edit(BASE, BASE.replace("def inner", "def inner2")),
        ["inner"],
        True,
        'ignored: "inner"',
        [],
    ),
    (
        "method is not top-level",
        edit(BASE, BASE.replace("def method", "def m2")),
        ["method"],
        True,
        'ignored: "method"',
        [],
    ),
    (
        "attribute target is not a symbol",
        edit(BASE, BASE.replace("obj.attr = 6\n", "")),
        ["attr"],
        True,
        'ignored: "attr"',
        [],
    ),
    (
        "moved into a class is missing",
        edit("def f():\n    pass\n", "class C:\n    def f(self):\n        pass\n"),
        ["f"],
        False,
        '"f"',
        [],
    ),
    (
        "decorator removed, name kept",
        edit(BASE, BASE.replace("@decorator\n", "")),
        ["helper"],
        True,
        "1 listed symbol",
        [],
    ),
    (
        "missing and ignored together",
        edit(BASE, BASE.replace("class Thing", "class T")),
        ["Thing", "typo"],
        False,
        'missing at head: "Thing"; not defined at base, so ignored: "typo"',
        [],
    ),
    ("file deleted", edit(BASE, None), ["helper"], False, '"pkg/mod.py" was deleted', []),
    (
        "file renamed away",
        Files(base={F: BASE}, head={"pkg/new.py": BASE}),
        ["helper"],
        False,
        '"pkg/mod.py" was renamed to "pkg/new.py"',
        [],
    ),
    (
        "another file renamed onto it",
        # no commit makes this shape (git calls it a deletion of pkg/old.py)
        ChangeSet(
            files=(FileChange(F, old_path="pkg/old.py", status=RENAMED),),
            texts={F: FileTexts(BASE, BASE)},
        ),
        ["helper"],
        True,
        "1 listed symbol",
        [],
    ),
    (
        "new file: nothing to keep",
        edit(None, "def helper(): pass\n"),
        ["helper"],
        True,
        "0 listed symbols",
        [],
    ),
    (
        "content unavailable (result.json)",
        ChangeSet(files=from_paths([F]), source="writer"),
        ["helper"],
        False,
        '"pkg/mod.py" is touched but its content is unavailable from this source (writer)',
        [],
    ),
    (
        "head does not parse",
        edit(BASE, BASE.replace("class Thing:", "class Thing")),
        ["Thing"],
        False,
        'the head version of "pkg/mod.py" does not parse as Python at line 19',
        ["line 19"],
    ),
    ("base does not parse", edit("def (:\n", BASE), ["helper"], False, "the base version", []),
    ("NUL byte in head", edit(BASE, BASE + "\x00"), ["helper"], False, "head version", []),
    (
        "seed lab honest fix",
        edit(CLAMP_KIT, HONEST_FIX),
        ["_noisy_helper", "clamp"],
        True,
        "2 listed symbols",
        [],
    ),
    (
        "seed lab cleanup",
        edit(CLAMP_KIT, CLEANUP_KIT),
        ["_noisy_helper", "clamp"],
        False,
        '"_noisy_helper"',
        [],
    ),
    (
        "counts-only example entry is not checked",
        changes_from_example([{"path": F, "added": 1, "deleted": 1}]),
        ["helper"],
        True,
        'the example gives no text for "pkg/mod.py" (only counts); content not checked',
        [],
    ),
    (
        "counts-only example deletion fails",
        changes_from_example([{"path": F, "status": DELETED, "deleted": 9}]),
        ["helper"],
        False,
        "was deleted",
        [],
    ),
]


@table(("changes", "symbols", "passed", "message", "findings"), CASES)
def test_keep_symbols(
    changes: Change, symbols: list[str], passed: bool, message: str, findings: list[str]
) -> None:
    if passed:
        assert not findings
        CASE.passes(changes, message, symbols=symbols)
    else:
        found = [(None, fragment) for fragment in findings]
        CASE.fails(changes, message, reported=[F], findings=found, symbols=symbols)


def test_syntax_error_finding_names_the_head_line() -> None:
    result = CASE.fails(edit("x = 1\n", "x = 1\ny = (\n"), symbols=["x"])
    assert [(f.path, f.line) for f in result.findings] == [(F, 2)]
