"""A new Python test that writes into its own objects through the spellings
`setattr(local, "a", v)`, `typing.cast(T, local)[k] = v` and
`type(<fresh mock>).attr = PropertyMock(...)` keeps to itself, as
`local.a = v` does; the same spellings aimed at a module, a module-level
object, a parameter or a class of the code under test still share state."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.drift import CASE, COLLECTION, compare
from gate.drift.python.units import units
from tests.real_pytest import run_pytest

IMPORTS = (
    "import typing\n"
    "import typing as t\n"
    "from typing import Any, cast\n"
    "import unittest.mock\n"
    "from unittest import mock\n"
    "from unittest.mock import MagicMock, Mock, PropertyMock, create_autospec\n"
    "\n"
    "import clamp_kit as kit\n"
)
BASE = IMPORTS + "\n\ndef test_one():\n    assert True\n"

# How a test makes an object of its own, and how it writes into it.
MAKES = ["box = ValueError('x')", "box = kit.Clamp()", "box = {'a': [{}]}", "box = object()"]
OWN_WRITES = [
    "setattr(box, 'flag', 1)",
    "delattr(box, 'flag')",
    "setattr(cast(Any, box), 'flag', 1)",
    "object.__setattr__(box, 'flag', 1)",  # a frozen dataclass's own instance
    "object.__delattr__(box, 'flag')",
    "cast(dict, box)['a'] = 1",
    "typing.cast(dict, box)['a'] = 1",
    "t.cast(dict, box)['a'][0] = 1",
    "cast(Any, cast(Any, box).a)[0] = 1",
]
MOCKS = [
    "Mock()",
    "Mock(spec=kit.Clamp)",
    "MagicMock()",
    "mock.AsyncMock()",
    "unittest.mock.NonCallableMagicMock()",
    "create_autospec(kit.Clamp, instance=True)",
]
MOCK_WRITES = [
    "type(m).tools = PropertyMock(return_value=[])",
    "type(m).tools = PropertyMock(side_effect=AssertionError('no'))",
    "setattr(type(m), 'tools', PropertyMock(return_value=1))",
    "del type(m).tools",
]

# The same spellings aimed at what other tests share.
SHARED_WRITES = [
    "setattr(kit, 'LIMIT', 9)",
    "setattr(kit.Clamp, 'limit', 9)",
    "setattr(box, '__class__', kit.Clamp)",
    "setattr(box, name, 9)",
    "object.__setattr__(kit, 'LIMIT', 9)",
    "object.__setattr__(kit.Clamp, 'limit', 9)",
    "object.__setattr__(box, '__class__', kit.Clamp)",
    "object.__delattr__(kit, 'LIMIT')",
    "box.__setattr__('flag', 1)",  # not the builtin's: `box`'s class may do anything
    "delattr(kit, 'LIMIT')",
    "setattr(cast(Any, kit), 'LIMIT', 9)",
    "cast(Any, kit).LIMIT = 9",
    "cast(dict, kit.TABLE)['a'] = 1",
    "typing.cast(Any, kit).LIMIT = 9",
    "type(box).limit = 9",  # `box` a project object: its class is shared
    "type(kit.Clamp()).limit = 9",
    "type(m2).limit = PropertyMock(return_value=9)",  # `m2` rebound below
    "type(param).limit = 9",  # a parameter may be anything
    "type(m).__dict__['x'] = 1",
]
SHARED_SETUP = "box = kit.Clamp()\nname = 'LIMIT'\nm = Mock()\nm2 = Mock()\nm2 = kit.Clamp()"


def _new_test(body: str, method: bool = False, params: str = "") -> str:
    lines = "\n".join("    " + line for line in body.splitlines())
    if method:
        lines = "\n".join("    " + line for line in lines.splitlines())
        return f"\n\nclass TestNew:\n    def test_two(self{params}):\n{lines}\n"
    return f"\n\ndef test_two({params.lstrip(', ')}):\n{lines}\n"


def _new_roles(head: str, base: str = BASE) -> set[str]:
    before = {u.key for u in units(base)}
    return {u.role for u in units(head) if u.key not in before}


@given(make=st.sampled_from(MAKES), write=st.sampled_from(OWN_WRITES), method=st.booleans())
def test_setattr_and_cast_on_the_tests_own_local_are_its_own(
    make: str, write: str, method: bool
) -> None:
    head = BASE + _new_test(f"{make}\n{write}", method)
    assert _new_roles(head) == {CASE}, head
    assert compare(units(BASE), units(head)).ok


@given(made=st.sampled_from(MOCKS), write=st.sampled_from(MOCK_WRITES), method=st.booleans())
def test_a_store_into_a_fresh_mocks_own_class_is_its_own(
    made: str, write: str, method: bool
) -> None:
    head = BASE + _new_test(f"m = {made}\n{write}\nassert m", method)
    assert _new_roles(head) == {CASE}, head


@given(write=st.sampled_from(SHARED_WRITES), method=st.booleans())
def test_the_same_spellings_aimed_at_shared_objects_share_state(write: str, method: bool) -> None:
    head = BASE + _new_test(f"{SHARED_SETUP}\n{write}", method, params=", param")
    assert COLLECTION in _new_roles(head), head
    assert "changes what other tests see" in compare(units(BASE), units(head)).summary()


@pytest.mark.parametrize(
    "rebinding", ["object = kit.Clamp\n", "from kit import object\n", "import object\n"]
)
def test_object_the_file_rebinds_is_not_the_builtins_setattr(rebinding: str) -> None:
    """`object.__setattr__(local, ...)` is a store into the local only while
    `object` is the builtin; a rebound `object`'s class may do anything."""
    body = "box = {}\nobject.__setattr__(box, 'a', 1)"
    assert _new_roles(BASE + _new_test(body)) == {CASE}
    base = BASE + "\n\n" + rebinding
    assert COLLECTION in _new_roles(base + _new_test(body), base)


@pytest.mark.parametrize(
    "rebinding",
    [
        "def cast(kind, value):\n    return kit\n",  # the file's own `cast`
        "cast = lambda kind, value: kit\n",
        "def type(value):\n    return kit.Clamp\n",  # `type` is not the builtin
        "def Mock():\n    return kit.Clamp()\n",  # `Mock` is no mock
    ],
)
def test_a_cast_type_or_mock_the_file_rebinds_is_no_identity(rebinding: str) -> None:
    base = BASE.replace("from typing import Any, cast\n", "from typing import Any\n").replace(
        "from unittest.mock import MagicMock, Mock, PropertyMock",
        "from unittest.mock import MagicMock, PropertyMock",
    )
    base = base + "\n\n" + rebinding
    body = "m = Mock()\nbox = {}\ncast(Any, box)['a'] = 1\ntype(m).limit = 9"
    head = base + _new_test(body)
    assert COLLECTION in _new_roles(head, base), head


def test_a_fixture_storing_into_its_mocks_class_leaves_the_tests_requesting_it_cases() -> None:
    """2632043a (openai-agents-python tests/realtime/test_session.py): a
    fixture builds a mock agent with `type(agent).handoffs = PropertyMock(...)`;
    a new method of an existing class that passes it on is a new test."""
    base = (
        "import pytest\nfrom unittest.mock import Mock, PropertyMock\n\n\n"
        "@pytest.fixture\ndef mock_agent():\n    agent = Mock()\n"
        "    type(agent).handoffs = PropertyMock(return_value=[])\n    return agent\n\n\n"
        "class TestEvents:\n    def test_one(self, mock_agent):\n        assert run(mock_agent)\n"
    )
    head = base + "\n    def test_two(self, mock_agent):\n        assert run(mock_agent, 2)\n"
    found = compare(units(base), units(head))
    assert found.ok and found.added == ("TestEvents.test_two",), found.summary()


LEAK = (
    "import clamp_kit\nfrom unittest.mock import Mock, PropertyMock\n\n\n"
    "def test_a():\n    {make}\n    type(m).limit = PropertyMock(return_value=2)\n"
    "    assert m.limit == 2\n"
)
LATER = "import clamp_kit\n\n\ndef test_b():\n    assert clamp_kit.Clamp().limit == 2\n"


@pytest.mark.parametrize(
    ("make", "leaks"), [("m = Mock()", False), ("m = clamp_kit.Clamp()", True)]
)
def test_under_real_pytest_only_the_project_objects_class_leaks(
    tmp_path: Path, make: str, leaks: bool
) -> None:
    """What the rule tells apart is real: a PropertyMock stored into a fresh
    mock's class leaves a later test red; stored into the class of a
    project object, it turns that test green."""
    folder = tmp_path
    (folder / "clamp_kit.py").write_text("class Clamp:\n    limit = 1\n", encoding="utf-8")
    text = LEAK.format(make=make)
    (folder / "test_a.py").write_text(text, encoding="utf-8")
    (folder / "test_b.py").write_text(LATER, encoding="utf-8")
    assert ("2 passed" if leaks else "1 failed, 1 passed") in run_pytest(folder)
    role = COLLECTION if leaks else CASE
    assert {u.role for u in units(text) if u.name == "test_a"} == {role}
