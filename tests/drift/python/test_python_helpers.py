"""A Python test helper module (at a test path, collected by no runner)
that only gained new definitions under new names passes; every hostile
twin (a rebinding, a decorator or statement that runs at import, a new
fixture, a module dunder, a star-importer that reads the name, an edit of
an existing statement, a conftest.py, a package `__init__.py`) still
fails (`gate.drift.python.helpers.grew`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift.python.helpers import grew
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = '''"""Helpers the tests share."""

import json

from tests.fakes import FakeModel


def make_event(kind):
    return {"kind": kind}


class Recorder:
    def __init__(self):
        self.seen = []

    def record(self, event):
        self.seen.append(event)
'''

# New definitions under new names, each alone (an import it needs included).
GROWN = {
    "a function": "def make_other(x):\n    return json.dumps(x)\n",
    "an async function": "async def make_async():\n    return 1\n",
    "a class": "class Other:\n    def go(self):\n        return 1\n",
    "a class of an imported base": "class OtherModel(FakeModel):\n    name = 'x'\n",
    "a dataclass": (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Row:\n    a: int = 0\n"
    ),
    "a context manager": (
        "import contextlib\n\n\n@contextlib.contextmanager\ndef opened():\n    yield 1\n"
    ),
    "a constant": "LIMIT = 3\n",
    "a standard-library import and its user": "import os\n\n\ndef sep():\n    return os.sep\n",
    "a class from a module the base loads": "from tests.fakes import FakeTool\n",
    "a private function": "def _private():\n    return 2\n",
    "a function with a plain annotation": "def typed(x: int) -> dict[str, int]:\n    return {}\n",
}

# The same growth written to slip an edit past: each must still fail.
HOSTILE = {
    "a later def rebinds an existing name": "def make_event(kind):\n    return {}\n",
    "a class rebinds an existing name": "class Recorder:\n    pass\n",
    "an import rebinds an existing name": "from os import path as json\n",
    "a registering decorator": "import atexit\n\n\n@atexit.register\ndef bye():\n    pass\n",
    "a project decorator": (
        "from tests.fakes import register\n\n\n@register\ndef plugin():\n    pass\n"
    ),
    "an autouse fixture": (
        "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef auto():\n    yield\n"
    ),
    "a fixture a plugin would give": (
        "import pytest\n\n\n@pytest.fixture\ndef tmp_path():\n    yield\n"
    ),
    "a module-level call": "FakeModel.reset()\n",
    "a value built by a call": "DEFAULT = FakeModel()\n",
    "monkeypatching a module": "import tests.fakes\n\ntests.fakes.LIMIT = 9\n",
    "sys.modules": "import sys\n\nsys.modules['tests.fakes'] = None\n",
    "a default that calls": "def later(x=FakeModel()):\n    return x\n",
    "an annotation that calls": "def later(x: FakeModel()):\n    return x\n",
    "a metaclass": "class Registered(metaclass=FakeModel):\n    pass\n",
    "a module __getattr__": "def __getattr__(name):\n    return make_event\n",
    "a new __all__": "__all__ = ['make_event']\n",
    "a pytest hook": "def pytest_collection_modifyitems(items):\n    items.clear()\n",
    "a module that is not loaded yet": "from tests.plugin import helper\n",
    "a builtin's name": "def open(*a):\n    return None\n",
    "a statement": "if True:\n    LIMIT = 3\n",
    "a global store in a function body": "def bend():\n    global LIMIT\n    LIMIT = 9\n",
}

# Edits of the base that stay drift whatever else grows.
EDITED = {
    "an existing function body": ('return {"kind": kind}', 'return {"kind": "x"}'),
    "an existing method": ("self.seen = []", "self.seen = [None]"),
    "an existing import": (
        "from tests.fakes import FakeModel",
        "from tests.other import FakeModel",
    ),
    "a new member of an existing class": (
        "    def record(self, event):",
        "    def clear(self):\n        self.seen = []\n\n    def record(self, event):",
    ),
}

TEST_CLASS = (
    "import unittest\n\n\nclass TestBase(unittest.TestCase):\n    def test_a(self):\n        pass\n"
)


def test_a_new_member_of_a_base_test_class_in_a_helper_fails() -> None:
    """A class elsewhere may inherit the helper's class beside another
    (`class TestX(helpers.TestBase, Mixin)`): a new member of it comes
    first, whatever its name."""
    for member in ("def make_client(self):\n        return 1", "def test_b(self):\n        pass"):
        head = TEST_CLASS + "\n    " + member + "\n"
        assert grew("tests/helpers.py", TEST_CLASS, head, {}, True), member
    new_class = (
        TEST_CLASS + "\n\nclass TestMore(unittest.TestCase):\n    def test_b(self):\n        pass\n"
    )
    assert grew("tests/helpers.py", TEST_CLASS, new_class, {}, True) == ()


PATHS = [
    "tests/helpers.py",
    "tests/_events.py",
    "tests/utils/fakes.py",
    "Tests/Helpers.py",
    "test/support/builders.py",
    "tests/unit/deep/nested/_harness.py",
]


def _grown(add: str) -> str:
    return BASE + "\n\n" + add


@pytest.mark.parametrize("name", sorted(GROWN))
def test_a_helper_that_only_gained_definitions_passes(name: str) -> None:
    assert grew("tests/helpers.py", BASE, _grown(GROWN[name]), {}, True) == ()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_helper_that_gained_code_that_runs_or_rebinds_fails(name: str) -> None:
    found = grew("tests/helpers.py", BASE, _grown(HOSTILE[name]), {}, True)
    assert found, name


@given(
    path=st.sampled_from(PATHS),
    grown=st.sampled_from(sorted(GROWN)),
    edit=st.sampled_from(sorted(EDITED)),
)
@settings(max_examples=40, deadline=None)
def test_an_edit_of_an_existing_statement_fails_beside_any_growth(
    path: str, grown: str, edit: str
) -> None:
    old, new = EDITED[edit]
    assert old in BASE
    head = _grown(GROWN[grown]).replace(old, new, 1)
    assert grew(path, BASE, head, {}, True), (path, grown, edit)


@given(grown=st.sampled_from(sorted(GROWN)), hostile=st.sampled_from(sorted(HOSTILE)))
@settings(max_examples=40, deadline=None)
def test_a_hostile_addition_fails_beside_a_welcome_one(grown: str, hostile: str) -> None:
    head = _grown(GROWN[grown]) + "\n\n" + HOSTILE[hostile]
    assert grew("tests/helpers.py", BASE, head, {}, True), (grown, hostile)


@pytest.mark.parametrize(
    "spelling",
    [
        "from tests.helpers import *",
        "from .helpers import *",
        "from ..tests.helpers import *",
        "from helpers import *",
        "from tests.Helpers import *",
    ],
)
def test_a_new_name_a_changed_star_importer_reads_or_binds_fails(spelling: str) -> None:
    head = _grown("def make_client():\n    return 1\n")
    reads = {"tests/test_a.py": f"{spelling}\n\n\ndef test_a():\n    assert make_client()\n"}
    binds = {"tests/test_b.py": f"from pkg import make_client\n{spelling}\n"}
    requests = {"tests/test_c.py": f"{spelling}\n\n\ndef test_c(make_client):\n    pass\n"}
    for others in (reads, binds, requests):
        found = grew("tests/helpers.py", BASE, head, others, True)
        assert found and "star-imports" in found[0], (spelling, others)
    # a star importer that neither reads nor binds it is untouched; so is
    # one reading a private name (no star import binds it) or a name that
    # `__all__` leaves out
    quiet = {"tests/test_d.py": f"{spelling}\n\n\ndef test_d():\n    assert make_event('a')\n"}
    assert grew("tests/helpers.py", BASE, head, quiet, True) == ()
    private = _grown("def _client():\n    return 1\n")
    reader = {"tests/test_e.py": f"{spelling}\n\n\ndef test_e(_client):\n    pass\n"}
    assert grew("tests/helpers.py", BASE, private, reader, True) == ()


def test_a_base_that_reaches_its_names_by_computed_names_takes_no_new_one() -> None:
    for lookup in (
        "def find(name):\n    return globals()[name]\n",
        "import sys\n\n\ndef find(name):\n    return getattr(sys.modules[__name__], name)\n",
        "def __getattr__(name):\n    return make_event\n",
        "from tests.fakes import *\n",
        "def names():\n    return [n for n in dir() if n.startswith('make_')]\n",
        "import inspect\nimport sys\n\n\ndef found():\n    return inspect.getmembers(sys)\n",
    ):
        base = BASE + "\n\n" + lookup
        assert grew("tests/helpers.py", base, base + "\n\ndef make_x():\n    pass\n", {}, True)


def test_a_package_init_and_a_conftest_are_not_judged_as_helpers() -> None:
    head = _grown(GROWN["a function"])
    assert grew("tests/__init__.py", BASE, head, {}, True) is None
    assert grew("tests/utils/__init__.py", BASE, head, {}, True) is None
    assert grew("tests/conftest.py", BASE, head, {}, True) is None


def test_a_new_test_in_a_helper_is_a_new_test() -> None:
    head = _grown("def test_new():\n    assert True\n")
    assert grew("tests/helpers.py", BASE, head, {}, True) == ()
    assert grew("tests/helpers.py", BASE, head, {}, False)


# -- end to end on real repositories


TEST_MODULE = (
    "from tests.helpers import make_event\n\n\ndef test_kind():\n    assert make_event('a')\n"
)


@pytest.mark.parametrize("path", ["tests/helpers.py", "tests/utils/_fakes.py"])
def test_the_rule_passes_a_grown_helper_and_fails_its_twins(
    rubric_repo: RubricRepo, path: str
) -> None:
    rubric_repo.write_many({path: BASE, "tests/test_kind.py": TEST_MODULE, "tests/__init__.py": ""})
    base = rubric_repo.commit("base")
    rubric_repo.write(path, _grown(GROWN["a function"]))
    grown_head = rubric_repo.commit("grown")
    code, result = rubric_repo.check(base, grown_head, rubric=DRIFT_RUBRIC).verdict()
    assert code == 0 and result["pass"], result
    rubric_repo.write(path, _grown(HOSTILE["a later def rebinds an existing name"]))
    rebound = rubric_repo.commit("rebound")
    code, result = rubric_repo.check(base, rebound, rubric=DRIFT_RUBRIC).verdict()
    assert code == 1 and "replaces make_event" in result["message"], result
    assert path in result["message"] and "helper module" in result["message"]
    rubric_repo.write(
        path, _grown(GROWN["a function"]).replace("self.seen = []", "self.seen = [0]")
    )
    edited = rubric_repo.commit("edited")
    code, result = rubric_repo.check(base, edited, rubric=DRIFT_RUBRIC).verdict()
    assert code == 1 and "Recorder changed" in result["message"], result


def test_the_rule_fails_a_new_name_that_a_changed_test_star_imports(
    rubric_repo: RubricRepo,
) -> None:
    star = "from pkg import make_client\nfrom tests.helpers import *\n\n\ndef test_a():\n    pass\n"
    rubric_repo.write_many({"tests/helpers.py": BASE, "tests/test_a.py": star})
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/helpers.py", _grown("def make_client():\n    return 1\n"))
    rubric_repo.write("tests/test_a.py", star + "\n\ndef test_b():\n    pass\n")
    head = rubric_repo.commit("grown and star-imported")
    code, result = rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict()
    assert code == 1 and "tests/test_a.py star-imports" in result["message"], result


def test_the_rule_still_fails_a_conftest_that_only_grew(rubric_repo: RubricRepo) -> None:
    rubric_repo.write_many({"tests/conftest.py": BASE})
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/conftest.py", _grown(GROWN["a function"]))
    head = rubric_repo.commit("grown")
    code, result = rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict()
    assert code == 1 and "conftest.py" in result["message"], result
