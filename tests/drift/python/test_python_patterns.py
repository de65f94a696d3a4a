"""Python test-file shapes that follow the file's own patterns or run
nothing under the runner, each with hostile twins written in the same
shape that still change what tests see: classes of the file's own made in
marks and values, import guards, `if __name__ == "__main__":`, new
module-level values computed as the base's are, unused imports removed,
whitespace inside docstrings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.drift import compare
from gate.drift.python.units import units

HEAD = "import asyncio\n\nimport pytest\n\nimport clamp_kit as kit\n\n\n"
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


def test_making_a_standard_exception_in_a_mark_runs_nothing() -> None:
    base = HEAD + TEST
    head = base + (
        "\n\n@pytest.mark.parametrize('e', [asyncio.CancelledError('s'), "
        "BaseExceptionGroup('g', [ValueError()])])\ndef test_new(e):\n    assert e\n"
    )
    assert compare(units(base), units(head)).ok


def test_a_method_called_on_a_made_plain_object_is_no_pure_call() -> None:
    base = HEAD + "class _Direct(BaseException):\n    pass\n" + TEST
    head = base + "\n\nVALUE = _Direct().with_traceback(kit.setup())\n"
    assert "runs at collection" in compare(units(base), units(head)).summary()


# -- import guards (P-TRY-IMPORT, fc2be56c tests/voice/test_pipeline.py)

GUARDS = [
    "except ImportError:\n    pass\n",
    "except ModuleNotFoundError:\n    pass\n",
    "except (ImportError, ModuleNotFoundError):\n    pass\n",
    "except ImportError:\n    pass\nexcept ModuleNotFoundError:\n    pass\n",
]
SKIP_GUARDS = [
    "except ImportError:\n    pytest.skip('needs voice', allow_module_level=True)\n",
    "except ImportError:\n    pytest.skip(reason='x', allow_module_level=True)\n",
]
GUARDED = "try:\n    from agents.voice import (\n        A,\n        B,\n    )\n{more}{guard}"


def _guarded(guard: str, more: str = "") -> str:
    return HEAD + GUARDED.format(guard=guard, more=more) + TEST


@given(
    guard=st.sampled_from(GUARDS),
    more=st.sampled_from(
        [
            "    from agents.voice.testing import ScriptedTTSModel\n",
            "    import agents.voice.extra as extra\n",
            "    from .helpers import extract_events\n",
        ]
    ),
)
def test_an_import_added_inside_a_pass_guard_is_a_new_import(guard: str, more: str) -> None:
    base = _guarded(guard)
    head = _guarded(guard, more) + "\n\ndef test_new():\n    assert True\n"
    found = compare(units(base), units(head))
    assert found.ok and found.added == ("test_new",), found.summary()


@given(guard=st.sampled_from(GUARDS + SKIP_GUARDS))
def test_a_rewrapped_guard_changes_no_unit(guard: str) -> None:
    base = _guarded(guard)
    head = base.replace("(\n        A,\n        B,\n    )", "A, B  # noqa")
    assert compare(units(base), units(head)).ok


@pytest.mark.parametrize(
    ("base_guard", "head", "found"),
    [
        # a new import under a skip guard can skip every test of the module
        (
            SKIP_GUARDS[0],
            _guarded(SKIP_GUARDS[0], "    import missing_mod\n"),
            "runs at collection",
        ),
        # the handler turned from pass into a skip
        (GUARDS[0], _guarded(SKIP_GUARDS[0]), "removed"),
        # an import moved out of the guard, or into it
        (
            GUARDS[0],
            _guarded(GUARDS[0])
            .replace("try:\n", "from agents.voice import B\ntry:\n")
            .replace("        B,\n", ""),
            "replaces B",
        ),
        (
            None,
            HEAD + "try:\n    import clamp_kit as kit\nexcept ImportError:\n    pass\n" + TEST,
            "removed",
        ),
        # a new guard around the file's import
        (
            None,
            HEAD + "try:\n    import clamp_kit\nexcept ImportError:\n    pass\n" + TEST,
            "removed",
        ),
    ],
)
def test_what_a_guard_hides_is_still_a_change(
    base_guard: str | None, head: str, found: str
) -> None:
    base = _guarded(base_guard) if base_guard is not None else HEAD + TEST
    if base_guard is None:
        base = HEAD.replace("import clamp_kit as kit\n", "import clamp_kit\n") + TEST
    summary = compare(units(base), units(head)).summary()
    assert found in summary, summary


@pytest.mark.parametrize(
    "guard",
    [
        "except Exception:\n    pass\n",  # catches what a failing import of the project raises
        "except ImportError:\n    kit.FALLBACK = True\n",
        "except ImportError:\n    B = None\n",
        "except ImportError as exc:\n    pass\n",
        "except ImportError:\n    pytest.skip('x')\n",  # not allowed at module level
        "except ImportError:\n    pass\nelse:\n    kit.setup()\n",
        "except ImportError:\n    pass\nfinally:\n    kit.setup()\n",
    ],
)
def test_a_try_that_is_no_import_guard_stays_one_collection_unit(guard: str) -> None:
    base = _guarded(guard)
    head = _guarded(guard, "    from agents.voice.testing import ScriptedTTSModel\n")
    assert "runs at collection" in compare(units(base), units(head)).summary()


def test_a_guard_catching_a_rebound_import_error_is_no_guard() -> None:
    base = "ImportError = Exception\n" + _guarded(GUARDS[0])
    head = "ImportError = Exception\n" + _guarded(
        GUARDS[0], "    from agents.voice.testing import ScriptedTTSModel\n"
    )
    assert "runs at collection" in compare(units(base), units(head)).summary()


# -- `if __name__ == "__main__":` (P-MAIN-GUARD, 92de6cf5)

MAINS = [
    'if __name__ == "__main__":\n    unittest.main()\n',
    "if '__main__' == __name__:\n    sys.exit(pytest.main([__file__]))\n",
    'if __name__ == "__main__":\n    import sys\n\n    sys.path.insert(0, ".")\n'
    "    unittest.main()\n",
]


@given(main=st.sampled_from(MAINS))
def test_a_main_guard_never_runs_under_the_runner(main: str) -> None:
    base = "import sys\nimport unittest\n\nimport pytest\n" + TEST
    found = compare(units(base), units(base + "\n\n" + main))
    assert found.ok, found.summary()


@pytest.mark.parametrize(
    ("base_tail", "head_tail"),
    [
        # a main guard that changed is a changed (removed) unit
        (MAINS[0], MAINS[0].replace("unittest.main()", "unittest.main(exit=False)")),
        # a guard with an `else`, which runs under the runner
        ("", 'if __name__ == "__main__":\n    pass\nelse:\n    kit.setup()\n'),
        # `__name__` rebound by the file
        ("", '__name__ = "__main__"\nif __name__ == "__main__":\n    kit.setup()\n'),
        ("", 'if __name__ != "__main__":\n    kit.setup()\n'),
        ("", 'if __name__ == "__main__" or kit.setup():\n    pass\n'),
    ],
)
def test_what_a_main_guard_shape_hides_is_still_a_change(base_tail: str, head_tail: str) -> None:
    base = HEAD + TEST + "\n\n" + base_tail
    head = HEAD + TEST + "\n\n" + head_tail
    assert not compare(units(base), units(head)).ok


# -- new module-level values computed as the base's are (F-PATTERN-VALUE)

VALUE_BASES = [
    "from fixtures import load_fixture\n\nA = load_fixture('a.json')\n",
    "from fixtures import load_fixture\n\nA: dict = load_fixture('a.json', strict=True)\n",
    "import yarl\n\nURL = yarl.URL.build(host='a')\n",
    "from fixtures import load_fixture, Root\n\nA = load_fixture(Root('a'))\n",
]
VALUE_HEADS = [
    "B = load_fixture('b.json')\n",
    "B: dict = load_fixture('b.json', strict=False)\n",
    "OTHER = yarl.URL.build(host='b', port=2)\n",
    "B = load_fixture(Root('b'))\n",
]


@given(pair=st.sampled_from(list(zip(VALUE_BASES, VALUE_HEADS, strict=True))))
def test_a_new_value_computed_as_the_bases_values_are_is_support(pair: tuple[str, str]) -> None:
    base_top, value = pair
    base = base_top + TEST
    head = base_top + value + TEST + "\n\ndef test_new():\n    assert True\n"
    found = compare(units(base), units(head))
    assert found.ok and found.added == ("test_new",), found.summary()


@pytest.mark.parametrize(
    "value",
    [
        "A = load_fixture('c.json')\n",  # rebinds a base name
        "B = load_fixture(kit.setup())\n",  # its argument calls something new
        "B = load_fixture('b.json').install()\n",  # a method of what it made
        "B = kit.setup()\n",  # a callable the base calls only inside tests
        "B = REG.append(1)\n",  # a write into shared state
        "B = _local_setup()\n",  # the file's own function, which writes globals
        "B = load_fixture(lambda: kit.setup())\n",
        "B = load_fixture(_local_setup)\n",  # hands the file's own function
        "B = os.getcwd() or load_fixture('x')\n",
        "USED = load_fixture('b.json')\n",  # a name the existing test reads
    ],
)
def test_a_new_value_computed_otherwise_is_collection_time_code(value: str) -> None:
    top = (
        "import os\n\nimport clamp_kit as kit\nfrom fixtures import REG, load_fixture\n\n"
        "A = load_fixture('a.json')\n\n\ndef _local_setup():\n    global STATE\n    STATE = 1\n"
    )
    base = top + "\n\ndef test_old(USED=None):\n    kit.setup()\n    assert A\n"
    head = top + value + base[len(top) :]
    assert not compare(units(base), units(head)).ok, value


# -- whitespace inside a docstring

DOCSTRINGS = [
    ('    """Doc.  \n    """\n', '    """Doc.\n    """\n'),
    ('    """Doc\n\n    more.\n    """\n', '    """Doc\n\n        more.\n    """\n'),
    ('    """Doc more."""\n', '    """Doc\n    more."""\n'),
    ("    '''A\ttab.'''\n", "    '''A tab.'''\n"),
]


@given(pair=st.sampled_from(DOCSTRINGS), method=st.booleans())
def test_whitespace_inside_a_docstring_changes_no_test(pair: tuple[str, str], method: bool) -> None:
    def text(doc: str) -> str:
        if method:
            doc = "".join("    " + line if line.strip() else line for line in doc.splitlines(True))
            return HEAD + "class TestA:\n    def test_a(self):\n" + doc + "        assert 1\n"
        return HEAD + "def test_a():\n" + doc + "    assert 1\n"

    before, after = pair
    assert compare(units(text(before)), units(text(after))).ok


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('    """Doc."""\n', '    """Other doc."""\n'),  # its words
        ('    """\n    >>> 1 + 1\n    2\n    """\n', '    """\n    >>> 1 + 1\n    2 \n    """\n'),
        ('    x = "a  b"\n', '    x = "a b"\n'),  # a string that is a value
        ('    assert s == """a\n  b"""\n', '    assert s == """a\n b"""\n'),
    ],
)
def test_a_docstrings_words_a_doctest_and_a_value_string_are_still_compared(
    before: str, after: str
) -> None:
    base = HEAD + "def test_a(s=''):\n" + before + "    assert 1\n"
    head = HEAD + "def test_a(s=''):\n" + after + "    assert 1\n"
    assert compare(units(base), units(head)).changed == ("test_a",)


# -- an unused import removed

REMOVABLE = [
    ("import os\nimport json\n", "import json\n"),  # standard library
    ("from typing import Any, cast\n", "from typing import cast\n"),
    ("import json\nfrom os import path, sep\n", "import json\nfrom os import path\n"),
    ("import json\nimport xml.etree.ElementTree as ET\n", "import json\n"),
    # a class or constant whose module the file still imports
    ("from agents import Agent, Runner, json\n", "from agents import Runner, json\n"),
    ("from agents import MAX_TURNS, json\n", "from agents import json\n"),
    (
        "import json\nfrom agents import Agent\nimport agents.tools\n",
        "import json\nimport agents.tools\n",
    ),
]


@given(pair=st.sampled_from(REMOVABLE))
def test_removing_an_import_no_unit_reads_that_runs_nothing_less_is_no_change(
    pair: tuple[str, str],
) -> None:
    before, after = pair
    body = "\n\ndef test_a():\n    assert json\n"
    found = compare(units(before + body), units(after + body))
    assert found.ok, found.summary()


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # maybe imported for what importing it does: a plugin, fixtures
        ("import tests.plugin  # noqa: F401\nimport json\n", "import json\n"),
        ("from tests import plugin\nimport json\n", "import json\n"),
        ("import pytest_asyncio\nimport json\n", "import json\n"),
        ("from tests.fixtures import db, json\n", "from tests.fixtures import json\n"),
        # the module is no longer imported at all
        ("from agents import Agent\nimport json\n", "import json\n"),
        # a name some unit still reads
        ("import os\nimport json\n", "import json\nUSE = os\n"),
        ("from os import sep\nimport json\n", "import json\n\n\ndef test_b(sep):\n    pass\n"),
        # pytest_plugins is a value, not an import
        ("pytest_plugins = ['tests.plugin']\nimport json\n", "import json\n"),
    ],
)
def test_removing_an_import_that_may_matter_is_still_a_change(before: str, after: str) -> None:
    body = "\n\ndef test_a():\n    assert json\n"
    assert compare(units(before + body), units(after + body)).removed, after


def test_a_removed_import_a_removed_test_read_is_still_reported_with_it() -> None:
    base = "import os\n\n\ndef test_a():\n    assert os.sep\n"
    head = "\n\ndef test_b():\n    assert True\n"
    assert set(compare(units(base), units(head)).removed) == {"import os", "test_a"}


# -- a module docstring's words (82ef5dae)

MODULE_DOCS = [
    ('"""Tests for the client."""\n', '"""Tests for the client and its session."""\n'),
    ('"""Tests.\n\nMore words.\n"""\n', '"""Tests."""\n'),
    ("'Single quoted.'\n", "'''Other\nwords.'''\n"),
    ('r"""Raw \\d."""\n', '"""Plain."""\n'),
]


@pytest.mark.parametrize(("before", "after"), MODULE_DOCS)
def test_a_module_docstrings_words_change_no_test(before: str, after: str) -> None:
    assert compare(units(before + HEAD + TEST), units(after + HEAD + TEST)).ok


@pytest.mark.parametrize(
    ("before", "after", "tail"),
    [
        # a doctest in the module docstring
        ('""">>> 1\n1\n"""\n', '""">>> 1\n2\n"""\n', ""),
        # a doctest's expected output edited in a longer docstring
        ('"""Doc.\n\n>>> 1\n1\n"""\n', '"""Doc.\n\n>>> 1\n2\n"""\n', ""),
        # a test reads the docstring, by name, attribute, string or getdoc
        ('"""Doc."""\n', '"""Other."""\n', "\n\ndef test_doc():\n    assert __doc__\n"),
        ('"""Doc."""\n', '"""Other."""\n', "\n\ndef test_doc():\n    assert kit.__doc__\n"),
        (
            '"""Doc."""\n',
            '"""Other."""\n',
            "\n\ndef test_doc():\n    assert getattr(kit, '__doc__')\n",
        ),
        ('"""Doc."""\n', '"""Other."""\n', "\n\ndef test_doc():\n    assert inspect.getdoc(kit)\n"),
        ('"""Doc."""\n', '"""Other."""\n', "\n\ndef test_doc():\n    assert globals()\n"),
    ],
)
def test_a_module_docstring_a_test_can_read_is_still_compared(
    before: str, after: str, tail: str
) -> None:
    assert not compare(units(before + HEAD + TEST + tail), units(after + HEAD + TEST + tail)).ok


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('import os\n"""Doc."""\n', 'import os\n"""Other."""\n'),  # not the first statement
        ('"""Doc."""\n"""Two."""\n', '"""Doc."""\n"""Three."""\n'),  # a second string
    ],
)
def test_a_string_statement_that_is_not_the_docstring_is_still_compared(
    before: str, after: str
) -> None:
    assert not compare(units(before + HEAD + TEST), units(after + HEAD + TEST)).ok


def test_a_module_docstring_removed_or_added_changes_no_test() -> None:
    doc = '"""Tests for the client."""\n'
    assert compare(units(doc + HEAD + TEST), units(HEAD + TEST)).ok
    assert compare(units(HEAD + TEST), units(doc + HEAD + TEST)).ok
    # a docstring the file reads, or one holding a doctest, is still compared
    reads = "\n\ndef test_doc():\n    assert __doc__\n"
    assert not compare(units(doc + HEAD + TEST + reads), units(HEAD + TEST + reads)).ok
    doctest = '""">>> 1\n1\n"""\n'
    assert not compare(units(doctest + HEAD + TEST), units(HEAD + TEST)).ok
    # prose at base, a doctest at head: a new test, welcome as any new test
    assert compare(units(doc + HEAD + TEST), units(doctest + HEAD + TEST)).ok
