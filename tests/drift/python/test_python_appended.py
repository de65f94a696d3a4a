"""gate.drift.python.appended through `compare`: a Python test (a function,
a unittest method, a pytest class's method, a coroutine) whose base
statements all stay and which only gains statements after the last of them
gained checks (`Drift.grew`); each shape beside its hostile twins, the
same append written to bend what the test checked before, which stay a
change.  The table is generated: every test shape with every append."""

from __future__ import annotations

import pytest

from gate.drift import compare
from gate.drift.python.units import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

# Each shape: a module with one test whose body ends at the marker line
# `<END>`, and the indentation of that body.
SHAPES = {
    "a pytest function": (
        "import pytest\n\nimport kit\n\n\ndef test_parse():\n"
        "    got = kit.parse('a')\n    assert got == 'a'\n<END>",
        "    ",
    ),
    "a unittest method": (
        "import unittest\n\nimport kit\n\n\nclass TestKit(unittest.TestCase):\n"
        "    def test_parse(self):\n        got = kit.parse('a')\n"
        "        self.assertEqual(got, 'a')\n<END>",
        "        ",
    ),
    "a pytest class's method": (
        "import pytest\n\nimport kit\n\n\nclass TestKit:\n"
        "    def test_parse(self, tmp_path):\n        got = kit.parse('a')\n"
        "        assert got == 'a'\n<END>",
        "        ",
    ),
    "a coroutine test": (
        "import pytest\n\nimport kit\n\n\n@pytest.mark.anyio\nasync def test_parse():\n"
        "    got = await kit.aparse('a')\n    assert got == 'a'\n<END>",
        "    ",
    ),
    "a test whose body is a docstring": (
        'import pytest\n\nimport kit\n\n\ndef test_parse():\n    """Parses."""\n<END>',
        "    ",
    ),
}

# Appended statements that only add checks, each `{i}`-indented lines.
GAINS = {
    "an assertion calling the code": "{i}assert kit.parse('b') == 'b'\n",
    "a new call and its checks": "{i}again = kit.parse('c')\n{i}assert again == 'c'\n"
    "{i}assert kit.size(again) == 1\n",
    "a raises block": "{i}with pytest.raises(ValueError):\n{i}    kit.parse(None)\n",
    "a loop of checks": "{i}for word in ('x', 'y'):\n{i}    assert kit.parse(word) == word\n",
    "a nested helper": "{i}def twice(x):\n{i}    return x * 2\n"
    "{i}assert twice(kit.size('a')) == 2\n",
    "a mutating assertion": "{i}seen = [1]\n{i}assert seen.pop() == 1\n",
    "a return after the checks": "{i}assert kit.parse('d')\n{i}return\n",
}
AWAIT = "{i}assert await kit.aparse('e') == 'e'\n"

# The same appends written to bend the test: each stays a change.
BENT_APPENDS = {
    "a yield": "{i}assert kit.parse('b')\n{i}yield\n",
    "a yield from": "{i}yield from ()\n",
    "a yield inside an appended loop": "{i}for x in ():\n{i}    yield x\n",
    "a global": "{i}global kit\n{i}kit = None\n",
    "a pytest.skip": "{i}pytest.skip('later')\n",
    "a pytest.xfail": "{i}pytest.xfail('known')\n",
    "a skip from an import": "{i}from pytest import skip\n{i}skip('later')\n",
    "a process exit": "{i}import os\n{i}os._exit(0)\n",
    "a sys.exit": "{i}import sys\n{i}sys.exit(0)\n",
    "a write to the environment": "{i}import os\n{i}os.environ['KIT'] = '1'\n",
    "a write into the module under test": "{i}kit.LIMIT = 0\n",
}


def _indent(template: str, indent: str) -> str:
    return template.replace("{i}", indent)


def _head(shape: str, gain: str) -> str:
    text, indent = SHAPES[shape]
    return text.replace("<END>", _indent(gain, indent))


def _base(shape: str) -> str:
    return SHAPES[shape][0].replace("<END>", "")


GROWN = {
    f"{shape}: {gain}": (_base(shape), _head(shape, GAINS[gain]))
    for shape in SHAPES
    for gain in GAINS
}
GROWN["a coroutine test: an awaited check"] = (
    _base("a coroutine test"),
    _head("a coroutine test", AWAIT),
)


def _decorated(text: str, indent: str) -> str:
    """`text` with a skip mark on the line before its test's `def`."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "def test_parse" in line)
    return "".join([*lines[:at], f"{indent}@pytest.mark.skip\n", *lines[at:]])


def _last_line(text: str) -> str:
    """The body's last statement line of a base (the one before `<END>`)."""
    before = text.split("<END>")[0].rstrip("\n")
    return before.rsplit("\n", 1)[-1] + "\n"


BENT: dict[str, tuple[str, str]] = {}
for shape, (text, indent) in SHAPES.items():
    base = _base(shape)
    for bend, gain in BENT_APPENDS.items():
        BENT[f"{shape}: {bend}"] = (base, _head(shape, gain))
    last = _last_line(text)
    plus = _indent(GAINS["a new call and its checks"], indent)
    # the base's last statement edited, moved after the append, or removed
    edited = base.replace(last, last.replace("'a'", "'z'").replace('"""Parses."""', '"""X."""'))
    BENT[f"{shape}: the last base statement edited beside an append"] = (base, edited + plus)
    BENT[f"{shape}: an append before the last base statement"] = (
        base,
        base.replace(last, plus + last),
    )
    BENT[f"{shape}: the last base statement removed beside an append"] = (
        base,
        base.replace(last, "") + plus,
    )
    BENT[f"{shape}: a skip decorator beside an append"] = (
        base,
        _decorated(base, indent[4:]) + plus,
    )
    BENT[f"{shape}: a parameter added beside an append"] = (
        base,
        base.replace("test_parse(", "test_parse(capsys, ", 1) + plus,
    )
    BENT[f"{shape}: a cleanup registered before the append"] = (
        base.replace(last, f"{indent}kit.stack.callback(kit.verify)\n" + last),
        base.replace(last, f"{indent}kit.stack.callback(kit.verify)\n" + last) + plus,
    )
# Appended code inside the base's last block (a `break` ends its rows early).
LOOP_BASE = (
    "import kit\n\n\ndef test_rows():\n    for row in kit.ROWS:\n        assert kit.parse(row)\n"
)
BENT["a break appended inside the base's loop"] = (LOOP_BASE, LOOP_BASE + "        break\n")
BENT["a check appended inside the base's loop"] = (
    LOOP_BASE,
    LOOP_BASE + "        assert row\n",
)
BENT["statements swapped beside an append"] = (
    "import kit\n\n\ndef test_two():\n    kit.reset()\n    assert kit.count() == 0\n",
    "import kit\n\n\ndef test_two():\n    assert kit.count() == 0\n    kit.reset()\n"
    "    assert kit.size('a') == 1\n",
)
BENT["a unittest skipTest appended"] = (
    _base("a unittest method"),
    _head("a unittest method", "{i}self.skipTest('later')\n"),
)
BENT["a unittest addCleanup before the append"] = (
    _base("a unittest method").replace(
        "        got = kit.parse('a')\n",
        "        got = kit.parse('a')\n        self.addCleanup(kit.verify, got)\n",
    ),
    _base("a unittest method").replace(
        "        got = kit.parse('a')\n",
        "        got = kit.parse('a')\n        self.addCleanup(kit.verify, got)\n",
    )
    + "        got.clear()\n",
)


@pytest.mark.parametrize("name", sorted(GROWN))
def test_a_test_that_only_gained_statements_at_its_end_grew(name: str) -> None:
    base, head = GROWN[name]
    drift = compare(units(base), units(head))
    assert drift.ok, f"{name}: {drift.summary()}"
    assert len(drift.grew) == 1, drift.summary()


@pytest.mark.parametrize("name", sorted(BENT))
def test_the_same_append_bending_a_test_is_a_change(name: str) -> None:
    base, head = BENT[name]
    assert base != head
    drift = compare(units(base), units(head))
    assert not drift.ok, f"{name}: {drift.summary()}"
    assert not drift.grew, drift.summary()


def test_the_rule_passes_an_appended_check_and_fails_its_bent_twin(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: a call and its checks appended to
    a test pass with the grown test named; the twin that also edits the
    base's check fails, naming the test as changed."""
    base_text, grown_text = GROWN["a pytest function: a new call and its checks"]
    bent_text = BENT["a pytest function: the last base statement edited beside an append"][1]
    rubric_repo.write_many({"tests/test_kit.py": base_text})
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/test_kit.py", grown_text)
    grew = rubric_repo.commit("appended")
    rubric_repo.write("tests/test_kit.py", bent_text)
    bent = rubric_repo.commit("bent")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (grew, bent)
    )
    assert code == 0 and "new cases added to 1 existing test" in result["message"], result
    assert bent_code == 1 and "test_parse changed" in bent_result["message"], bent_result
