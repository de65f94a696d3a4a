"""gate.drift.python.cases through `compare`: a Python test that only
gained new cases (rows of its `@pytest.mark.parametrize` list, with their
ids; trailing assertions that only compute) is not changed; each shape
beside its hostile twin, the same insertion written to bend what the test
checked before, which stays a change (an insertion before the test's last
statement: statements appended after it are tests/drift/python/test_python_appended.py's)."""

from __future__ import annotations

import pytest

from gate.drift import compare
from gate.drift.python.units import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = """\
import pytest
from pytest import mark

import clamp_kit as kit

LIMITS = [1, 2]


@pytest.mark.parametrize(
    "arguments",
    [
        '{"subject": "refund"',  # broken
        "null",
        "[]",
    ],
)
def test_rejects(arguments):
    got = kit.parse(arguments)
    assert got is None


@mark.parametrize(("a", "b"), [(1, 2), (3, 4)], ids=["one", "three"])
def test_pairs(a, b):
    seen = [a, b]
    assert kit.clamp(a) < b


@pytest.mark.parametrize("n", LIMITS)
def test_limits(n):
    assert kit.clamp(n) == n


class TestKit:
    @pytest.mark.parametrize("value", [pytest.param(1, id="one"), 2])
    def test_value(self, value):
        result = kit.clamp(value)
        assert result
"""

NULL = '        "null",\n'
PAIRS = '[(1, 2), (3, 4)], ids=["one", "three"]'
LAST = "    assert kit.clamp(a) < b\n"
METHOD = '[pytest.param(1, id="one"), 2]'


def _edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text
    return text.replace(old, new, 1)


# Head versions that only add cases to one existing test.
GROWN = {
    "a row appended (1b7eb28f)": _edit('        "[]",\n', '        "[]",\n        "",\n'),
    "a row in front": _edit('        \'{"subject"', '        "",\n        \'{"subject"'),
    "two rows in the middle, one a pytest.param": _edit(
        NULL, NULL + '        "{",\n        pytest.param("x", id="x"),\n'
    ),
    "a new row skipped by its own mark": _edit(
        NULL, NULL + '        pytest.param("", marks=pytest.mark.skip),\n'
    ),
    "a row with its id at the same index": _edit(
        PAIRS, '[(1, 2), (3, 4), (5, 6)], ids=["one", "three", "five"]'
    ),
    "a row and its id in front": _edit(
        PAIRS, '[(0, 1), (1, 2), (3, 4)], ids=["zero", "one", "three"]'
    ),
    "a row whose id repeats an existing one": _edit(
        PAIRS, '[(1, 2), (3, 4), (5, 6)], ids=["one", "three", "one"]'
    ),
    "a row in a method's list": _edit(METHOD, '[pytest.param(1, id="one"), 2, 3]'),
    "an assertion appended": _edit(LAST, LAST + "    assert isinstance(seen, list)\n"),
    "two assertions appended, with a message": _edit(
        LAST, LAST + '    assert len(seen) == 2, f"{seen}"\n    assert a in seen and b in seen\n'
    ),
    "an assertion appended to a method": _edit(
        "        assert result\n", "        assert result\n        assert abs(result) >= 0\n"
    ),
    "a reformatted row list beside a new row": _edit(
        "[(1, 2), (3, 4)]", "[\n    (1, 2),\n    (3, 4),  # two\n    (7, 8),\n]"
    ).replace('ids=["one", "three"]', 'ids=["one", "three", "seven"]'),
}
# For the keyword shape, the base spells argvalues= as well.
BASES = {
    "a row with argvalues= as a keyword": _edit(
        PAIRS, 'argvalues=[(1, 2), (3, 4)], ids=["one", "three"]'
    ),
}
GROWN["a row with argvalues= as a keyword"] = _edit(
    PAIRS, 'argvalues=[(1, 2), (3, 4), (5, 6)], ids=["one", "three", "five"]'
)

# Bases of the bent twins below that need more than BASE.
BASES_EXTRA = {
    "assert": _edit("    seen = [a, b]\n", "    seen = [a, b]\n    assert seen\n"),
    "len": _edit("    seen = [a, b]\n", "    seen = [a, b]\n    len = kit.reset\n"),
}
# The same insertions written to bend a test: each is a change.
BENT = {
    "a skip mark on an existing row": _edit(
        NULL, '        pytest.param("null", marks=pytest.mark.skip),\n'
    ),
    "an existing row edited beside a new row": _edit(NULL, '        "nil",\n        "",\n'),
    "a row without its id": _edit(PAIRS, '[(1, 2), (3, 4), (5, 6)], ids=["one", "three"]'),
    "a row with ids shifted onto other rows": _edit(
        PAIRS, '[(1, 2), (3, 4), (5, 6)], ids=["five", "one", "three"]'
    ),
    "a row while an id is dropped": _edit(PAIRS, '[(1, 2), (3, 4), (5, 6)], ids=["one", "five"]'),
    "ids dropped as a row is added": _edit(PAIRS, "[(1, 2), (3, 4), (5, 6)]"),
    "a row added to the argument names": _edit('("a", "b")', '("a", "b", "c")'),
    "a skip mark on the test": _edit("@mark.parametrize", "@pytest.mark.skip\n@mark.parametrize"),
    "an assertion that mutates": _edit(LAST, "    assert seen.pop()\n" + LAST),
    "an assertion with a walrus": _edit(LAST, "    assert (seen := [])\n" + LAST),
    "an assertion whose message mutates": _edit(LAST, "    assert seen, seen.clear()\n" + LAST),
    "an assertion calling the code under test": _edit(LAST, "    assert kit.reset()\n" + LAST),
    "an assertion calling a builtin with a key": _edit(
        LAST, "    assert sorted(seen, key=kit.reset)\n" + LAST
    ),
    "an assertion reading a name the test never read": _edit(LAST, "    assert LIMITS\n" + LAST),
    "an assertion before the existing one": _edit(
        LAST, "    assert len(seen) == 2\n" + LAST, BASES_EXTRA["assert"]
    ),
    "a statement before an appended assertion": _edit(
        LAST, "    seen.append(3)\n    assert len(seen) == 3\n" + LAST
    ),
    "an assertion calling len rebound in the test": _edit(
        LAST, "    assert len(seen)\n" + LAST, BASES_EXTRA["len"]
    ),
    "a row in the module-level list a test names": _edit("LIMITS = [1, 2]", "LIMITS = [1, 2, 3]"),
    "a row calling the code under test": _edit(NULL, NULL + "        kit.make_row(),\n"),
}
BASES["an assertion before the existing one"] = BASES_EXTRA["assert"]
BASES["an assertion calling len rebound in the test"] = BASES_EXTRA["len"]


@pytest.mark.parametrize("name", sorted(GROWN))
def test_a_python_test_that_only_gained_cases_is_not_changed(name: str) -> None:
    base = BASES.get(name, BASE)
    drift = compare(units(base), units(GROWN[name]))
    assert drift.ok, drift.summary()
    assert len(drift.grew) == 1, drift.summary()
    assert "new cases added to " in drift.summary()


@pytest.mark.parametrize("name", sorted(BENT))
def test_the_same_insertion_bending_a_python_test_is_a_change(name: str) -> None:
    base = BASES.get(name, BASE)
    head = BENT[name]
    assert base != head
    drift = compare(units(base), units(head))
    assert not drift.ok, name
    assert not drift.grew, drift.summary()


def test_a_shadowed_pytest_name_reads_no_parametrize() -> None:
    """`pytest` bound to the file's own object: its `mark.parametrize` may be anything."""
    base = BASE.replace("import pytest\n", "import pytest\npytest = kit\n")
    head = _edit('        "[]",\n', '        "[]",\n        "",\n', base)
    drift = compare(units(base), units(head))
    assert not drift.grew and drift.changed


def test_the_rule_passes_a_grown_python_test_and_names_it(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: a row appended passes, with the
    count in the message; the bent twin (a skip mark on an existing row) fails."""
    rubric_repo.write_many({"tests/test_kit.py": BASE})
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/test_kit.py", GROWN["a row appended (1b7eb28f)"])
    grew = rubric_repo.commit("a row")
    rubric_repo.write("tests/test_kit.py", BENT["a skip mark on an existing row"])
    bent = rubric_repo.commit("skipped")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (grew, bent)
    )
    assert code == 0 and "new cases added to 1 existing test" in result["message"], result
    assert bent_code == 1 and "test_rejects changed" in bent_result["message"], bent_result
