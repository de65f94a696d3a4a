"""A statement's units made once and handed to later versions
(`Splitter.statement`) are the units a fresh split makes, whatever the
module around the statement now binds, imports, trusts or patches: the
same statements under preambles that change what the names they spell
mean, version after version."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift import Unit
from gate.drift.python import kept, units

# Lines that change what the body's names mean (import origins, the
# file's own names, trusted fixtures, marks, `__name__`, TYPE_CHECKING).
PREAMBLES = (
    "from pathlib import Path\n",
    "from mylib import Path\n",
    "Path = make_path()\n",
    "import pytest\n",
    "from pytest import fixture\n",
    "def fixture(f):\n    return f\n",
    "from typing import TYPE_CHECKING\n",
    "TYPE_CHECKING = True\n",
    "__name__ = 'other'\n",
    "from helpers import helper\n",
    "def helper():\n    return 1\n",
    "import os\n",
    "os = object()\n",
    "requires = pytest.mark.skipif(True, reason='x')\n",
    "from unittest import mock\n",
    "from x import *\n",
    "import sys\n",
    # what reads annotations, and a base class that may (`same.def_form`)
    "import inspect\n",
    "from typing import get_type_hints\n",
    "class Base:\n    pass\n",
    "class Base(metaclass=Meta):\n    pass\n",
    "@register\nclass Base:\n    pass\n",
    # what hands a def as a value, whose annotations its receiver may read
    "register(test_x)\n",
    "HANDLERS = [TestA.test_a, _patch]\n",
)

# Statements whose units hang on those names, each kept verbatim.
BODY = (
    "A = helper()\n",
    "B = Path('a')\n",
    "@fixture\ndef db():\n    return helper()\n",
    "@pytest.fixture(autouse=True)\ndef auto():\n    yield\n",
    "def test_x(db):\n    assert helper()\n",
    "class TestA:\n    def test_a(self):\n        helper()\n\n    x = helper()\n",
    "class Plain:\n    y = Path('b')\n",
    'if __name__ == "__main__":\n    helper()\n',
    "if TYPE_CHECKING:\n    import json\n",
    "try:\n    import yaml\nexcept ImportError:\n    pass\n",
    "@requires\ndef test_b():\n    pass\n",
    "def _patch():\n    os.environ['X'] = '1'\n",
    "def test_c():\n    _patch()\n",
    "def test_d():\n    m = mock.Mock()\n    m.x = 1\n    sys.modules['a'] = m\n",
    "print(helper)\n",
    "@pytest.mark.parametrize('v', [Path('c'), helper()])\ndef test_e(v):\n    assert v\n",
    "@pytest.fixture()\ndef made() -> None:\n    helper()\n",
    "def test_f() -> None:\n    assert helper()\n",
    "class TestB(Base):\n    def __init__(self) -> None:\n        pass\n\n"
    "    def test_b(self) -> None:\n        pass\n",
)


def _seen(found: tuple[Unit, ...]) -> list[object]:
    """Everything of each unit, its lazily made forms included."""
    return [(u, u.same() if u.same else None, u.tokens() if u.tokens else None) for u in found]


def _fresh(text: str) -> list[object]:
    """The units of `text` split with no statement's units kept."""
    held = list(kept.statements.items())
    kept.statements.clear()
    try:
        return _seen(units._units(text))
    finally:
        kept.statements.clear()
        kept.statements.update(held)


def _text(preamble: list[int], body: list[int]) -> str:
    return "".join(PREAMBLES[i] for i in preamble) + "\n" + "\n\n".join(BODY[i] for i in body)


versions = st.lists(
    st.tuples(
        st.lists(st.integers(0, len(PREAMBLES) - 1), max_size=6),
        st.lists(st.integers(0, len(BODY) - 1), min_size=1, max_size=8, unique=True),
    ),
    min_size=2,
    max_size=5,
)


@settings(max_examples=150, deadline=None)
@given(versions)
def test_kept_units_are_the_units_a_fresh_split_makes(
    history: list[tuple[list[int], list[int]]],
) -> None:
    for preamble, body in history:
        text = _text(preamble, body)
        assert _seen(units._units(text)) == _fresh(text), text


@pytest.mark.parametrize(
    ("before", "after", "key"),
    [
        # a helper imported, then the file's own: the value now calls file code
        ("from helpers import helper\n", "def helper():\n    return 1\n", "assignment A"),
        # Path from pathlib (a pure call), then from elsewhere
        ("from pathlib import Path\n", "from mylib import Path\n", "assignment B"),
        # `fixture` trusted from pytest, then a decorator of the file
        ("from pytest import fixture\n", "def fixture(f):\n    return f\n", "function db"),
        # `__name__` rebound: the main guard is no longer one
        ("import os\n", "__name__ = 'other'\n", 'statement if __name__ == "__main__": helper()'),
    ],
)
def test_a_statement_kept_verbatim_is_split_again_when_a_name_it_spells_changes(
    before: str, after: str, key: str
) -> None:
    body = "A = helper()\n\nB = Path('a')\n\n@fixture\ndef db():\n    return helper()\n\n"
    body += 'if __name__ == "__main__":\n    helper()\n'
    first = {u.key: u for u in units.units(before + body)}
    second = {u.key: u for u in units.units(after + body)}
    assert (first[key].role, first[key].calls) != (second[key].role, second[key].calls)
    assert _seen(units.units(after + body)) == _fresh(after + body)


@pytest.mark.parametrize(
    "after",
    [
        "class Base(metaclass=Meta):\n    pass\n",  # a metaclass may read annotations
        "@register\nclass Base:\n    pass\n",
        "import inspect\n\nclass Base:\n    pass\n",  # the module reads them
        "class Base:\n    def __init_subclass__(cls):\n        pass\n",
        "class Base(Other):\n    pass\n",
    ],
)
def test_a_class_kept_verbatim_is_split_again_when_its_annotations_may_be_read(
    after: str,
) -> None:
    """`-> None` is no change only where nothing reads annotations: a
    test class kept verbatim whose base class (another statement) or module
    starts to read them has its methods' forms made anew."""
    body = "\n\nclass TestB(Base):\n    def test_b(self) -> None:\n        pass\n"
    before = "class Base:\n    pass\n"
    first = {u.key: u for u in units.units(before + body)}
    second = {u.key: u for u in units.units(after + body)}
    key = "method TestB.test_b"
    assert first[key].same is not None and second[key].same is not None
    assert first[key].same() != second[key].same()
    assert _seen(units.units(after + body)) == _fresh(after + body)
