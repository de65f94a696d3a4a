"""Python test-file shapes that follow the file's own patterns or run
nothing under the runner, each with hostile twins written in the same
shape that still change what tests see: classes of the file's own made in
marks and values, import guards, `if __name__ == "__main__":`, new
module-level values computed as the base's are, unused imports removed,
whitespace inside docstrings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gate.testcases import compare
from gate.testcases.python import units

HEAD = "import pytest\n\nimport clamp_kit as kit\n\n\n"
TEST = "\n\ndef test_old():\n    assert True\n"

# -- classes of the file's own made at import (P-PARAM-LOCAL-CLASS, 40927c9f)

PLAIN = [
    "class _Direct(BaseException):\n    pass\n",
    'class _Direct(Exception):\n    """Doc."""\n\n    code = 3\n',
    "class _Base(ValueError):\n    pass\n\n\nclass _Direct(_Base):\n    pass\n",
    "class _Direct:\n    __slots__ = ('a',)\n",
    "class _Direct(object):\n    pass\n",
]
MADE = [
    "@pytest.mark.parametrize('e', [_Direct('secret'), KeyboardInterrupt('x')])\n"
    "def test_new(e):\n    assert e\n",
    "@pytest.mark.parametrize(('e', 't'), [(_Direct('s'), BaseException), (ValueError(), 1)])\n"
    "def test_new(e, t):\n    assert e\n",
    "def test_new(e=_Direct('x')):\n    assert e\n",
    "ERROR = _Direct('x')\n",
    "ERRORS = [_Direct(str(n)) for n in range(2)]\n",
]
NOT_PLAIN = [
    "class _Direct(BaseException):\n    def __init__(self, *a):\n        kit.LIMIT = 9\n",
    "class _Direct(BaseException):\n    def __str__(self):\n        return kit.setup()\n",
    "class _Direct(BaseException):\n    go = lambda self: setattr(kit, 'LIMIT', 9)\n",
    "class _Direct(BaseException):\n    x = kit.setup()\n",
    "class _Direct(kit.Error):\n    pass\n",
    "class _Direct(BaseException, metaclass=kit.Meta):\n    pass\n",
    "@kit.register\nclass _Direct(BaseException):\n    pass\n",
    "class _Direct(BaseException):\n    pass\n\n\n_Direct = kit.make\n",
    "BaseException = kit.make\n\n\nclass _Direct(BaseException):\n    pass\n",
    "class _Direct(BaseException):\n    def __init_subclass__(cls):\n        kit.LIMIT = 9\n",
]


@given(plain=st.sampled_from(PLAIN), made=st.sampled_from(MADE))
def test_making_a_plain_class_of_the_file_or_a_builtin_exception_runs_nothing(
    plain: str, made: str
) -> None:
    base = HEAD + plain + TEST
    head = base + "\n\n" + made
    found = compare(units(base), units(head))
    assert found.ok, (head, found.summary())


@given(plain=st.sampled_from(NOT_PLAIN), made=st.sampled_from(MADE))
def test_making_a_class_whose_making_runs_code_stays_collection_time_code(
    plain: str, made: str
) -> None:
    base = HEAD + plain + TEST
    head = base + "\n\n" + made
    assert "runs at collection" in compare(units(base), units(head)).summary(), head


def test_a_method_called_on_a_made_plain_object_is_no_pure_call() -> None:
    base = HEAD + "class _Direct(BaseException):\n    pass\n" + TEST
    head = base + "\n\nVALUE = _Direct().with_traceback(kit.setup())\n"
    assert "runs at collection" in compare(units(base), units(head)).summary()
