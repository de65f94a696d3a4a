"""keep_lines: listed lines (stripped) present at base stay present at head."""

from __future__ import annotations

from gate.changes.example import changes_from_example
from gate.model.change import DELETED, ChangeSet, from_paths
from gate.starter.demo_fixture import CLAMP_KIT, CLEANUP_KIT, HONEST_FIX
from tests.rulecase import Change, Files, RuleCase, table

F = "clamp_kit.py"
BAIT = "import math  # bait: unused on purpose"
CASE = RuleCase("keep_lines", id="BAIT", file=F)
edit = CASE.edit


BASE = "a = 1\n    keep me  \nb = 2\nc = 3\n"

CASES = [
    # (label, changes, lines, passed, message, [(finding line, fragment)])
    (
        "untouched",
        Files(base={"x.py": "x = 1\n"}, head={"x.py": "x = 2\n"}),
        ["keep me"],
        True,
        '"clamp_kit.py" is untouched',
        [],
    ),
    (
        "kept",
        edit(BASE, BASE.replace("b = 2", "b = 3")),
        ["keep me"],
        True,
        '1 listed line of "clamp_kit.py" kept',
        [],
    ),
    (
        "re-indented is kept",
        edit(BASE, BASE.replace("    keep me  ", "keep me")),
        ["keep me"],
        True,
        "kept",
        [],
    ),
    (
        "listed with spaces is stripped",
        edit(BASE, BASE.replace("c = 3", "c = 4")),
        ["  keep me\t"],
        True,
        "kept",
        [],
    ),
    ("moved is kept", edit(BASE, "keep me\na = 1\nb = 2\nc = 3\n"), ["keep me"], True, "kept", []),
    ("CRLF endings", edit(BASE, BASE.replace("\n", "\r\n")), ["keep me"], True, "kept", []),
    (
        "removed",
        edit(BASE, "a = 1\nb = 2\nc = 3\n"),
        ["keep me"],
        False,
        '1 kept line of "clamp_kit.py" is gone at head: "keep me"',
        [(2, 'kept line "keep me" (base line 2) was removed')],
    ),
    (
        "edited within the line",
        edit(BASE, BASE.replace("keep me", "keep me not")),
        ["keep me"],
        False,
        "is gone",
        [(2, "base line 2")],
    ),
    (
        "folded into a longer line",
        edit(BASE, "a = 1; keep me\nb = 2\nc = 3\n"),
        ["keep me"],
        False,
        "is gone",
        [],
    ),
    (
        "removed at the end anchors to the last head line",
        edit("x\ny\nlast\n", "x\ny\n"),
        ["last"],
        False,
        "is gone",
        [(2, "base line 3")],
    ),
    (
        "two removed, reported in rubric order",
        edit(BASE, "b = 2\n"),
        ["c = 3", "a = 1"],
        False,
        '2 kept lines of "clamp_kit.py" are gone at head: "c = 3", "a = 1"',
        [],
    ),
    (
        "not at base: ignored and named",
        edit(BASE, BASE + "new\n"),
        ["never there"],
        True,
        'not in the base version, so ignored: "never there"',
        [],
    ),
    ("duplicate survives once", edit("x\nx\n", "x\n"), ["x"], True, "kept", []),
    (
        "file deleted",
        edit(BASE, None),
        ["keep me"],
        False,
        '("clamp_kit.py" was deleted)',
        [],
    ),
    (
        "renamed away",
        Files(base={F: BASE}, head={"k.py": BASE}),
        ["keep me"],
        False,
        'was renamed to "k.py"',
        [],
    ),
    ("new file: nothing to keep", edit(None, "keep me\n"), ["keep me"], True, "0 listed lines", []),
    (
        "content unavailable",
        ChangeSet(files=from_paths([F]), source="writer"),
        ["keep me"],
        False,
        "content is unavailable from this source (writer)",
        [],
    ),
    ("seed lab honest fix", edit(CLAMP_KIT, HONEST_FIX), [BAIT], True, "kept", []),
    (
        "seed lab cleanup",
        edit(CLAMP_KIT, CLEANUP_KIT),
        [BAIT],
        False,
        "is gone",
        [(1, "base line 1")],
    ),
    (
        "not Python is fine",
        edit("<html>\n<b>x</b>\n", "<html>\n"),
        ["<b>x</b>"],
        False,
        "is gone",
        [],
    ),
    (
        "counts-only example entry is not checked",
        changes_from_example([{"path": F, "added": 1, "deleted": 1}]),
        ["keep me"],
        True,
        "content not checked",
        [],
    ),
    (
        "counts-only example deletion fails",
        changes_from_example([{"path": F, "status": DELETED, "deleted": 9}]),
        ["keep me"],
        False,
        '"clamp_kit.py" was deleted and its text is not available; its kept lines are gone with it',
        [],
    ),
]


@table(("changes", "lines", "passed", "message", "findings"), CASES)
def test_keep_lines(
    changes: Change,
    lines: list[str],
    passed: bool,
    message: str,
    findings: list[tuple[int, str]],
) -> None:
    if passed:
        assert not findings
        CASE.passes(changes, message, lines=lines)
    else:
        CASE.fails(changes, message, reported=[F], findings=findings, lines=lines)
