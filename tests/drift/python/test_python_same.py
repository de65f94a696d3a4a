"""gate.drift.python.same through `compare`: what `Unit.same` reads as one
spelling of a def.  `@pytest.fixture()` and `@pytest.mark.NAME()` are their
bare decorators, and a `-> None` nothing reads is no change; each table
beside the hostile twins, the same edit where it may change what runs
(another decorator, pytest rebound, an argument added, a module that reads
annotations, an annotation that runs code), which stay changes."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import compare
from gate.drift.python.units import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

# (imports, decorator as written bare) for pytest's decorators
PYTEST_DECORATORS = {
    "pytest.fixture": ("import pytest", "pytest.fixture"),
    "pytest as pt": ("import pytest as pt", "pt.fixture"),
    "from pytest import fixture": ("from pytest import fixture", "fixture"),
    "from pytest import fixture as fx": ("from pytest import fixture as fx", "fx"),
    "pytest.mark.slow": ("import pytest", "pytest.mark.slow"),
    "pytest.mark.asyncio": ("import pytest", "pytest.mark.asyncio"),
    "from pytest import mark": ("from pytest import mark", "mark.skip"),
}


def _module(imports: str, decorator: str, where: str, returns: str = "") -> str:
    """A test module whose one def (`where`: a function, a method or a
    class header) carries `decorator` (with `returns` as its annotation)."""
    if where == "function":
        body = f"@{decorator}\ndef test_it(db){returns}:\n    assert db == 1\n"
    elif where == "method":
        body = (
            f"class TestIt:\n    @{decorator}\n"
            f"    def test_it(self, db){returns}:\n        assert db\n"
        )
    else:
        body = (
            f"@{decorator}\nclass TestIt:\n    def test_it(self, db){returns}:\n        assert db\n"
        )
    return f"{imports}\n\nimport kit\n\n\n{body}"


DECORATED = [
    (name, where, called_first)
    for name, (_, deco) in PYTEST_DECORATORS.items()
    for where in ("function", "method", "class")
    for called_first in (True, False)
    if where != "class" or ("fixture" not in deco and deco != "fx")
]


@pytest.mark.parametrize(("name", "where", "called_first"), DECORATED)
def test_a_pytest_decorator_called_with_no_argument_is_the_bare_decorator(
    name: str, where: str, called_first: bool
) -> None:
    imports, deco = PYTEST_DECORATORS[name]
    called, bare = _module(imports, f"{deco}()", where), _module(imports, deco, where)
    base, head = (called, bare) if called_first else (bare, called)
    drift = compare(units(base), units(head))
    assert drift.ok, drift.summary()


# Hostile twins: the same `()` dropped or added where it may change what runs.
NOT_PYTEST = {
    "a decorator of the project": ("from tests.helpers import fixture", "fixture", "fixture"),
    "a mark of another package": ("from marks import mark", "mark.slow", "mark.slow"),
    "pytest rebound by the file": (
        "import pytest\npytest = kit",
        "pytest.fixture",
        "pytest.fixture",
    ),
    "pytest rebound by an except": (
        "import pytest\ntry:\n    import fast\nexcept ImportError as pytest:\n    pass",
        "pytest.fixture",
        "pytest.fixture",
    ),
    "pytest rebound by a match capture": (
        "import pytest\nmatch kit.mode:\n    case pytest:\n        pass",
        "pytest.mark.slow",
        "pytest.mark.slow",
    ),
    "a star import after pytest": (
        "import pytest\nfrom kit import *",
        "pytest.fixture",
        "pytest.fixture",
    ),
    "pytest_asyncio imported as pytest": (
        "import pytest_asyncio as pytest",
        "pytest.fixture",
        "pytest.fixture",
    ),
    "a private attribute of the mark generator": (
        "import pytest",
        "pytest.mark._config",
        "pytest.mark._config",
    ),
    "the mark generator itself": ("import pytest", "pytest.mark", "pytest.mark"),
    "an argument added to the fixture": (
        "import pytest",
        "pytest.fixture",
        'pytest.fixture(scope="module")',
    ),
    "autouse added": ("import pytest", "pytest.fixture", "pytest.fixture(autouse=True)"),
    "an argument added to a mark": ("import pytest", "pytest.mark.slow", "pytest.mark.slow(1)"),
    "a reason added to a skip": (
        "import pytest",
        "pytest.mark.skip",
        'pytest.mark.skip(reason="x")',
    ),
    "a call of the fixture's result": ("import pytest", "pytest.fixture()", "pytest.fixture()()"),
}


@pytest.mark.parametrize(
    ("name", "where", "called_first"),
    list(itertools.product(sorted(NOT_PYTEST), ("function", "method"), (True, False))),
)
def test_the_same_parentheses_where_they_may_change_what_runs_are_a_change(
    name: str, where: str, called_first: bool
) -> None:
    imports, bare, other = NOT_PYTEST[name]
    if other == bare:
        other = f"{bare}()"
    first, second = _module(imports, other, where), _module(imports, bare, where)
    base, head = (first, second) if called_first else (second, first)
    drift = compare(units(base), units(head))
    assert not drift.ok, (name, where)
    assert "test_it changed" in drift.summary()


def test_a_pytest_mark_on_a_class_in_a_class_attribute_rebinding_pytest_is_a_change() -> None:
    """A method's decorator is evaluated in its class body, where `pytest` may be another."""
    base = (
        "import pytest\n\nclass TestIt:\n    pytest = kit\n\n"
        "    @pytest.fixture()\n    def db(self):\n        return 1\n"
    )
    drift = compare(units(base), units(base.replace("@pytest.fixture()", "@pytest.fixture")))
    assert not drift.ok


# Where a `-> None` is written: (module text with {R} for the annotation, the unit's name)
NONE_PLACES = {
    "a test function": (
        "import kit\n\n\ndef test_it(){R}:\n    assert kit.clamp(1) == 1\n",
        "test_it",
    ),
    "an async test": (
        "import kit\n\n\nasync def test_it(){R}:\n    assert await kit.aclamp(1)\n",
        "test_it",
    ),
    "a helper": (
        "import kit\n\n\ndef check(x){R}:\n    assert kit.clamp(x)\n    return\n",
        "check",
    ),
    "a helper returning None": (
        (
            "import kit\n\n\ndef check(x){R}:\n    if x:\n"
            "        return None\n    assert kit.clamp(x)\n"
        ),
        "check",
    ),
    "a helper with a nested function returning": (
        (
            "import kit\n\n\ndef check(x){R}:\n    def inner():\n"
            "        return 2\n    assert inner()\n"
        ),
        "check",
    ),
    "a fixture": (
        (
            "import pytest\nimport kit\n\n\n@pytest.fixture(autouse=True)\n"
            "def reset(){R}:\n    kit.reset()\n"
        ),
        "reset",
    ),
    "a marked test": (
        (
            "import pytest\n\n\n@pytest.mark.parametrize('v', [1, 2])\n"
            "def test_it(v){R}:\n    assert v\n"
        ),
        "test_it",
    ),
    "a test method": (
        "class TestIt:\n    def test_it(self){R}:\n        assert 1\n",
        "TestIt.test_it",
    ),
    "a test class's __init__": (
        (
            "class TestIt:\n    def __init__(self){R}:\n        self.x = 1\n"
            "\n    def test_it(self):\n        assert self.x\n"
        ),
        "TestIt.__init__",
    ),
    "a unittest method": (
        (
            "import unittest\n\n\nclass TestIt(unittest.TestCase):\n"
            "    def setUp(self){R}:\n        self.x = 1\n"
        ),
        "TestIt.setUp",
    ),
    "a method of a subclass of a file's test class": (
        "from unittest import TestCase\n\n\nclass Base(TestCase):\n    pass\n\n\n"
        "class TestIt(Base):\n    def test_it(self){R}:\n        assert 1\n",
        "TestIt.test_it",
    ),
    "a method of a marked class": (
        (
            "import pytest\n\n\n@pytest.mark.slow\nclass TestIt:\n"
            "    def test_it(self){R}:\n        assert 1\n"
        ),
        "TestIt.test_it",
    ),
}


@pytest.mark.parametrize(
    ("place", "added", "future"),
    list(itertools.product(sorted(NONE_PLACES), (True, False), (True, False))),
)
def test_a_return_annotation_none_nothing_reads_is_no_change(
    place: str, added: bool, future: bool
) -> None:
    text, _ = NONE_PLACES[place]
    if future:
        text = "from __future__ import annotations\n\n" + text
    without, with_none = text.replace("{R}", ""), text.replace("{R}", " -> None")
    base, head = (without, with_none) if added else (with_none, without)
    drift = compare(units(base), units(head))
    assert drift.ok, drift.summary()


# Hostile twins: the same `-> None` where something may read it.
NONE_READ = {
    "a decorator of the project": ("from tests.helpers import typed\n\n\n@typed\n", ""),
    "pydantic's validate_call": ("from pydantic import validate_call\n\n\n@validate_call\n", ""),
    "a standard wrapper": ("import functools\n\n\n@functools.lru_cache\n", ""),
    "a module that calls get_type_hints": (
        "import typing\n\nHINTS = typing.get_type_hints\n\n\n",
        "",
    ),
    "a module importing inspect": ("import inspect\n\n\n", ""),
    "a module reading __annotations__": ("import kit\n\nkit.check(kit.__annotations__)\n\n\n", ""),
    "a module naming __annotations__ in a string": (
        "import kit\n\nkit.read(kit, '__annot' + 'ations__')\n\n\n",
        "",
    ),
    "a module reading its globals": ("import kit\n\nkit.scan(globals())\n\n\n", ""),
    "a module installing typeguard": ("from typeguard import install_import_hook\n\n\n", ""),
}


@pytest.mark.parametrize(
    ("name", "added"), list(itertools.product(sorted(NONE_READ), (True, False)))
)
def test_a_return_annotation_none_something_may_read_is_a_change(name: str, added: bool) -> None:
    before, _ = NONE_READ[name]
    text = before + "def test_it(){R}:\n    assert 1\n"
    without, with_none = text.replace("{R}", ""), text.replace("{R}", " -> None")
    base, head = (without, with_none) if added else (with_none, without)
    drift = compare(units(base), units(head))
    assert not drift.ok, name
    assert "test_it changed" in drift.summary()


# On a def returning nothing: a plain type expression left out as `-> None`
# is (`same.return_unread`), one that runs code is a change.
OTHER_RETURNS = {
    "-> int": (" -> int", True),
    "-> a string None": (' -> "None"', True),
    "-> NoReturn": (" -> NoReturn", True),
    "-> None | int": (" -> None | int", True),
    "-> a call": (" -> side_effect()", False),
    "-> a subscript holding a call": (" -> Optional[side_effect()]", False),
}
RETURNING = {
    "returns a value": "def test_it(){R}:\n    return kit.clamp(1)\n",
    "yields": "def test_it(){R}:\n    yield kit.clamp(1)\n",
    "yields from": "def test_it(){R}:\n    yield from kit.rows()\n",
    "returns a value in a branch": "def test_it(){R}:\n    if kit.x:\n        return 1\n",
}
CLASSES_READING = {
    "a metaclass": "class TestIt(metaclass=kit.Meta):\n",
    "an imported base": "class TestIt(kit.Base):\n",
    "a class decorator": "@kit.register\nclass TestIt:\n",
    "an __init_subclass__ in a base of the file": (
        "class Base:\n    def __init_subclass__(cls):\n"
        "        kit.register(cls)\n\n\nclass TestIt(Base):\n"
    ),
}


@pytest.mark.parametrize(
    ("name", "added"), list(itertools.product(sorted(OTHER_RETURNS), (True, False)))
)
def test_another_return_annotation_is_a_change_where_it_runs_code(name: str, added: bool) -> None:
    text = "import kit\n\n\ndef test_it(){R}:\n    assert 1\n"
    annotation, plain = OTHER_RETURNS[name]
    without, other = text.replace("{R}", ""), text.replace("{R}", annotation)
    base, head = (without, other) if added else (other, without)
    assert compare(units(base), units(head)).ok is plain, name


@pytest.mark.parametrize(
    ("name", "added"), list(itertools.product(sorted(RETURNING), (True, False)))
)
def test_a_return_annotation_none_on_a_def_returning_a_value_is_a_change_unless_added(
    name: str, added: bool
) -> None:
    """A runtime type checker (typeguard's, beartype's import hook) would
    raise on its result: written where none was, it can only make the test
    fail (`same.added_return_form`); taken away, the check it made is gone."""
    text = "import kit\n\n\n" + RETURNING[name]
    without, with_none = text.replace("{R}", ""), text.replace("{R}", " -> None")
    base, head = (without, with_none) if added else (with_none, without)
    assert compare(units(base), units(head)).ok is added, name


@pytest.mark.parametrize(
    ("name", "added"), list(itertools.product(sorted(CLASSES_READING), (True, False)))
)
def test_a_return_annotation_none_in_a_class_that_may_read_it_is_a_change(
    name: str, added: bool
) -> None:
    text = (
        "import kit\n\n\n" + CLASSES_READING[name] + "    def test_it(self){R}:\n        assert 1\n"
    )
    without, with_none = text.replace("{R}", ""), text.replace("{R}", " -> None")
    base, head = (without, with_none) if added else (with_none, without)
    drift = compare(units(base), units(head))
    assert not drift.ok, name


def test_a_module_starting_to_read_annotations_makes_a_dropped_none_a_change() -> None:
    """The base read none and the head does: the head's test is not the base's."""
    base = "import kit\n\n\ndef test_it() -> None:\n    assert kit.clamp(1)\n"
    head = "import inspect\nimport kit\n\n\ndef test_it():\n    assert kit.clamp(1)\n"
    drift = compare(units(base), units(head))
    assert not drift.ok
    assert "test_it changed" in drift.summary()


def test_both_relaxations_beside_an_edit_of_the_body_are_a_change() -> None:
    base = "import pytest\n\n\n@pytest.mark.slow()\ndef test_it() -> None:\n    assert 1\n"
    head = "import pytest\n\n\n@pytest.mark.slow\ndef test_it():\n    assert 2\n"
    assert not compare(units(base), units(head)).ok


def test_the_rule_passes_spellings_pytest_reads_as_one_and_fails_the_twin(
    rubric_repo: RubricRepo,
) -> None:
    """End to end on a real repository: `()` dropped from a fixture and a
    mark, and `-> None` added to a test and removed from a helper, pass; the
    same edits in a module that imports `inspect` fail."""
    base = (
        "import pytest\n\nimport kit\n\n\n"
        "@pytest.fixture()\ndef db():\n    return kit.open()\n\n\n"
        "def check(x) -> None:\n    assert x\n\n\n"
        "@pytest.mark.slow()\ndef test_db(db):\n    check(db)\n"
    )
    head = (
        "import pytest\n\nimport kit\n\n\n"
        "@pytest.fixture\ndef db():\n    return kit.open()\n\n\n"
        "def check(x):\n    assert x\n\n\n"
        "@pytest.mark.slow\ndef test_db(db) -> None:\n    check(db)\n"
    )
    rubric_repo.write_many({"tests/test_db.py": base, "tests/test_twin.py": base})
    first = rubric_repo.commit("base")
    rubric_repo.write("tests/test_db.py", head)
    spelled = rubric_repo.commit("spelled")
    rubric_repo.write("tests/test_twin.py", "import inspect\n" + head)
    twin = rubric_repo.commit("twin")
    code, result = rubric_repo.check(first, spelled, rubric=DRIFT_RUBRIC).verdict()
    assert code == 0, result
    twin_code, twin_result = rubric_repo.check(spelled, twin, rubric=DRIFT_RUBRIC).verdict()
    assert twin_code == 1, twin_result
    assert "check changed" in twin_result["message"], twin_result


def _def(body: str) -> str:
    """A test module whose one test has `body` (lines indented by four)."""
    lines = "".join(f"    {line}\n" if line else "\n" for line in body.split("\n"))
    return f"import kit\n\n\ndef test_it(c):\n{lines}"


# (with else, folded): the `else` block's statements after an `if` whose body always jumps
FOLDED = {
    "return else return": (
        "if c:\n    return 1\nelse:\n    return 2",
        "if c:\n    return 1\nreturn 2",
    ),
    "raise else statements": (
        "if c:\n    raise ValueError(c)\nelse:\n    x = kit.f(c)\n    assert x\nassert c",
        "if c:\n    raise ValueError(c)\nx = kit.f(c)\nassert x\nassert c",
    ),
    "an elif chain": (
        "if c:\n    return 1\nelif c > 1:\n    raise KeyError\nelse:\n    kit.g()\nassert c",
        "if c:\n    return 1\nif c > 1:\n    raise KeyError\nkit.g()\nassert c",
    ),
    "continue in a loop": (
        "for i in c:\n    if i:\n        continue\n    else:\n        kit.f(i)",
        "for i in c:\n    if i:\n        continue\n    kit.f(i)",
    ),
    "break in a loop": (
        "while c:\n    if kit.done():\n        break\n    else:\n        c -= 1",
        "while c:\n    if kit.done():\n        break\n    c -= 1",
    ),
    "nested: an inner fold makes the outer body jump": (
        "if c:\n    if kit.a:\n        return 1\n    else:\n        return 2\nelse:\n    return 3",
        "if c:\n    if kit.a:\n        return 1\n    return 2\nreturn 3",
    ),
    "inside a with and a try": (
        "with kit.ctx():\n    try:\n        if c:\n            return 1\n"
        "        else:\n            kit.f()\n    except KeyError:\n        pass",
        "with kit.ctx():\n    try:\n        if c:\n            return 1\n        kit.f()\n"
        "    except KeyError:\n        pass",
    ),
    "inside an except handler": (
        "try:\n    kit.f()\nexcept KeyError:\n    if c:\n        raise\n    else:\n        kit.g()",
        "try:\n    kit.f()\nexcept KeyError:\n    if c:\n        raise\n    kit.g()",
    ),
    "inside a nested function": (
        "def inner(x):\n    if x:\n        return 1\n    else:\n        return 2\nassert inner(c)",
        "def inner(x):\n    if x:\n        return 1\n    return 2\nassert inner(c)",
    ),
}


@pytest.mark.parametrize(
    ("name", "folded_first"), list(itertools.product(sorted(FOLDED), (True, False)))
)
def test_an_else_after_a_body_that_always_jumps_folded_is_no_change(
    name: str, folded_first: bool
) -> None:
    with_else, folded = (_def(b) for b in FOLDED[name])
    base, head = (folded, with_else) if folded_first else (with_else, folded)
    drift = compare(units(base), units(head))
    assert drift.ok, drift.summary()


# The same `else` dropped where the body may fall through, or its block moved otherwise.
NOT_FOLDED = {
    "a body that falls through": (
        "if c:\n    x = 1\nelse:\n    return 2\nassert x",
        "if c:\n    x = 1\nreturn 2\nassert x",
    ),
    "a body whose jump is in an inner if only": (
        "if c:\n    if kit.a:\n        return 1\nelse:\n    return 2",
        "if c:\n    if kit.a:\n        return 1\nreturn 2",
    ),
    "a body ending in a call that raises": (
        "if c:\n    kit.fail()\nelse:\n    kit.g()",
        "if c:\n    kit.fail()\nkit.g()",
    ),
    "a body ending in a try that returns": (
        "if c:\n    try:\n        return 1\n    finally:\n        kit.f()\nelse:\n    kit.g()",
        "if c:\n    try:\n        return 1\n    finally:\n        kit.f()\nkit.g()",
    ),
    "the else block dropped": (
        "if c:\n    return 1\nelse:\n    kit.g()\nassert c",
        "if c:\n    return 1\nassert c",
    ),
    "the else block moved after the next statement": (
        "if c:\n    return 1\nelse:\n    kit.g()\nassert c",
        "if c:\n    return 1\nassert c\nkit.g()",
    ),
    "the else of a for loop": (
        "for i in c:\n    if i:\n        break\nelse:\n    kit.g()",
        "for i in c:\n    if i:\n        break\nkit.g()",
    ),
    "the else of a while loop": (
        "while c:\n    break\nelse:\n    kit.g()",
        "while c:\n    break\nkit.g()",
    ),
    "the else of a try": (
        "try:\n    kit.f()\n    return 1\nexcept KeyError:\n    return 2\nelse:\n    kit.g()",
        "try:\n    kit.f()\n    return 1\nexcept KeyError:\n    return 2\nkit.g()",
    ),
    "the test negated as the blocks swap": (
        "if c:\n    return 1\nelse:\n    return 2",
        "if not c:\n    return 2\nreturn 1",
    ),
}


@pytest.mark.parametrize(
    ("name", "folded_first"), list(itertools.product(sorted(NOT_FOLDED), (True, False)))
)
def test_the_same_else_dropped_where_the_body_may_fall_through_is_a_change(
    name: str, folded_first: bool
) -> None:
    with_else, other = (_def(b) for b in NOT_FOLDED[name])
    base, head = (other, with_else) if folded_first else (with_else, other)
    drift = compare(units(base), units(head))
    assert not drift.ok, name
    assert "test_it changed" in drift.summary()


def test_a_module_level_if_is_not_folded() -> None:
    """A module-level statement is a unit of its own: its `else` is no def's."""
    base = "import kit\n\nif kit.c:\n    raise ImportError\nelse:\n    kit.setup()\n"
    head = "import kit\n\nif kit.c:\n    raise ImportError\nkit.setup()\n"
    assert not compare(units(base), units(head)).ok


CONFTEST = (
    "import os\n\nimport pytest\n\n\n"
    "@pytest.fixture()\ndef port():\n    return 8080\n\n\n"
    "os.environ.setdefault('MODE', 'test')\n"
    "@pytest.fixture(autouse=True)\ndef reset() -> None:\n"
    "    # reset the state\n    os.environ.pop('X', None)\n"
)
# conftest.py versions that hold the same code as the engine reads it ...
CONFTEST_SAME = {
    "a fixture's () dropped": CONFTEST.replace("@pytest.fixture()\n", "@pytest.fixture\n"),
    "a comment reflowed": CONFTEST.replace("# reset the state", "# reset\n    # the state"),
    "-> None removed": CONFTEST.replace("def reset() -> None:", "def reset():"),
}
# ... and its hostile twins, which change what the runner runs.
CONFTEST_BENT = {
    "a fixture's scope added": CONFTEST.replace(
        "@pytest.fixture()\n", '@pytest.fixture(scope="session")\n'
    ),
    "a module statement moved before a fixture": CONFTEST.replace(
        "os.environ.setdefault('MODE', 'test')\n", ""
    ).replace("@pytest.fixture()\n", "os.environ.setdefault('MODE', 'test')\n@pytest.fixture()\n"),
    "a fixture added": CONFTEST + "\n\n@pytest.fixture\ndef extra():\n    return 1\n",
    "a hook added": CONFTEST + "\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n",
    "autouse turned off": CONFTEST.replace("(autouse=True)", "()"),
    "a coverage pragma added": CONFTEST.replace(
        "return 8080\n", "return 8080  # pragma: no cover\n"
    ),
    "a type: ignore added": CONFTEST.replace("return 8080\n", "return 8080  # type: ignore\n"),
}


@pytest.mark.parametrize(
    ("name", "passes"),
    [(n, True) for n in sorted(CONFTEST_SAME)] + [(n, False) for n in sorted(CONFTEST_BENT)],
)
def test_a_conftest_holding_the_same_code_is_no_runner_change(
    rubric_repo: RubricRepo, name: str, passes: bool
) -> None:
    """End to end: a `conftest.py` edited to the same units, in the same
    order, each of the same form, passes; its twins fail as a runner's
    configuration changed."""
    head = {**CONFTEST_SAME, **CONFTEST_BENT}[name]
    assert head != CONFTEST
    rubric_repo.write_many(
        {"tests/conftest.py": CONFTEST, "tests/test_a.py": "def test_a(port):\n    assert port\n"}
    )
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/conftest.py", head)
    edited = rubric_repo.commit(name)
    code, result = rubric_repo.check(base, edited, rubric=DRIFT_RUBRIC).verdict()
    assert (code == 0) is passes, result
    if not passes:
        assert "tests/conftest.py (pytest) modified" in result["message"], result
