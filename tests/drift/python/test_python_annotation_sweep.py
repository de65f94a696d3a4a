"""gate.drift.python.same through `compare`: a typing sweep over a def's
annotations (pyupgrade's or ruff's `UP` rules, annotations added or
removed) is no change where nothing reads them (`same.annotations_unread`,
`same.plain_annotation`, `same.return_unread`); each table beside its
hostile twins, the same edit where an annotation runs code, a default, a
parameter or the body changes, a decorator or the module may read the
annotations, which stay changes."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import compare
from gate.drift.python.units import units
from tests.drift.python.test_python_same import CLASSES_READING
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

IMPORTS = (
    "import collections.abc\nimport typing\nfrom pathlib import Path\n"
    "from typing import Dict, List, Literal, Optional, Tuple, Type, Union\n\n"
    "import pytest\n\nimport kit\n\n\n"
)
# (old, new) annotations as a sweep writes them; "" is no annotation
SWEEPS = {
    "Optional to |": ("Optional[int]", "int | None"),
    "List to list": ("List[str]", "list[str]"),
    "Dict to dict": ("Dict[str, int]", "dict[str, int]"),
    "Union to |": ("Union[kit.A, kit.B]", "kit.A | kit.B"),
    "a forward reference unquoted": ('"kit.Foo"', "kit.Foo"),
    "typing.Optional of an attribute": ("typing.Optional[kit.mod.Foo]", "kit.mod.Foo | None"),
    "Tuple with an ellipsis": ("Tuple[int, ...]", "tuple[int, ...]"),
    "Callable moved to collections.abc": (
        "typing.Callable[[int, str], None]",
        "collections.abc.Callable[[int, str], None]",
    ),
    "Type to type": ("Type[kit.Foo]", "type[kit.Foo]"),
    "Literal kept, Optional dropped": ('Optional[Literal["x", 1]]', 'Literal["x", 1] | None'),
    "an annotation added": ("", "Path"),
    "an annotation removed": ("Path", ""),
    "a nested sweep added": ("", 'dict[str, list[tuple["kit.Foo", int]]]'),
}
# Where a parameter stands: {A} is its annotation
KINDS = {
    "positional": "tmp_path{A}",
    "positional with a default": "tmp_path{A} = None",
    "positional-only": "tmp_path{A}, /",
    "keyword-only": "*, tmp_path{A}",
    "*args": "*tmp_path{A}",
    "**kwargs": "**tmp_path{A}",
}
# Where a def stands: {P} its parameters, {R} its return annotation
PLACES = {
    "a test": "def test_it({P}){R}:\n    assert kit.clamp(1)\n",
    "an async test": "async def test_it({P}){R}:\n    assert await kit.aclamp(1)\n",
    "a fixture": "@pytest.fixture\ndef db({P}){R}:\n    kit.reset()\n",
    "a fixture called with no argument": "@pytest.fixture()\ndef db({P}){R}:\n    kit.reset()\n",
    "a marked test": (
        "@pytest.mark.parametrize('v', [1, 2])\n@pytest.mark.slow\n"
        "def test_it(v, {P}){R}:\n    assert v\n"
    ),
    "a helper": "def check({P}){R}:\n    assert kit.clamp(1)\n    return None\n",
    "a test method": "class TestIt:\n    def test_it(self, {P}){R}:\n        assert kit.clamp(1)\n",
    "an async fixture method": (
        "class TestIt:\n    @pytest.fixture(autouse=True)\n"
        "    async def setup(self, {P}){R}:\n        await kit.areset()\n"
    ),
}


def _annotated(annotation: str) -> str:
    return f": {annotation}" if annotation else ""


def _returned(annotation: str) -> str:
    return f" -> {annotation}" if annotation else ""


def _module(place: str, params: str, returns: str = "", head: str = IMPORTS) -> str:
    return head + PLACES[place].replace("{P}", params).replace("{R}", returns)


@pytest.mark.parametrize(
    ("sweep", "kind", "place"), list(itertools.product(sorted(SWEEPS), sorted(KINDS), PLACES))
)
def test_a_typing_sweep_over_a_parameter_is_no_change(sweep: str, kind: str, place: str) -> None:
    old, new = SWEEPS[sweep]
    base = _module(place, KINDS[kind].replace("{A}", _annotated(old)))
    head = _module(place, KINDS[kind].replace("{A}", _annotated(new)), " -> None")
    drift = compare(units(base), units(head))
    assert drift.ok, drift.summary()


@pytest.mark.parametrize(
    ("sweep", "place", "future"),
    list(itertools.product(sorted(SWEEPS), sorted(PLACES), (True, False))),
)
def test_a_typing_sweep_over_the_return_of_a_def_returning_nothing_is_no_change(
    sweep: str, place: str, future: bool
) -> None:
    old, new = SWEEPS[sweep]
    head = ("from __future__ import annotations\n\n" if future else "") + IMPORTS
    base = _module(place, "tmp_path", _returned(old), head)
    swept = _module(place, "tmp_path", _returned(new), head)
    drift = compare(units(base), units(swept))
    assert drift.ok, drift.summary()


def test_a_sweep_over_every_parameter_at_once_is_no_change() -> None:
    base = _module(
        "a test", "a: Optional[int], /, b: List[str] = [], *c: 'kit.C', d: Dict[str, int], **e"
    )
    head = _module(
        "a test",
        "a: int | None, /, b: list[str] = [], *c: kit.C, d: dict[str, int], **e: object",
        " -> None",
    )
    drift = compare(units(base), units(head))
    assert drift.ok, drift.summary()


# Annotations that are no plain type expression, most of which run code
# when the def runs (at collection): never left out.
RUNNING = {
    "a tuple": "(kit.A, kit.B)",
    "a list": "[kit.A]",
    "a call": "kit.make()",
    "a subscript holding a call": "List[kit.make()]",
    "a subscript of a call": "kit.make()[int]",
    "Annotated with a call": "typing.Annotated[int, kit.Field(gt=0)]",
    "a lambda": "lambda: int",
    "a walrus": "(t := int)",
    "a comprehension": "[t for t in kit.types][0]",
    "an f-string": 'f"{kit.name}"',
    "a conditional": "kit.A if kit.c else kit.B",
    "a negated constant": "Literal[-1]",
    "a call of a subscript": "List[int]()",
    "an addition": "kit.A + kit.B",
}


@pytest.mark.parametrize(
    ("running", "plain_first", "where"),
    list(itertools.product(sorted(RUNNING), (True, False), ("parameter", "return", "both"))),
)
def test_an_annotation_that_runs_code_on_either_side_is_a_change(
    running: str, plain_first: bool, where: str
) -> None:
    code = RUNNING[running]
    param = "a: {}" if where != "return" else "a"
    returns = " -> {}" if where != "parameter" else ""
    plain = _module("a test", param.format("int | None"), returns.format("None"))
    bent = _module("a test", param.format(code), returns.format(code))
    base, head = (plain, bent) if plain_first else (bent, plain)
    drift = compare(units(base), units(head))
    assert not drift.ok, running
    assert "test_it changed" in drift.summary()


def test_a_starred_annotation_of_args_is_a_change() -> None:
    base = _module("a test", "*args: Tuple[int, ...]")
    head = _module("a test", "*args: *kit.Ts")
    assert not compare(units(base), units(head)).ok


def test_the_same_annotation_that_runs_code_on_both_sides_is_no_change() -> None:
    """What runs is the same: only the plain parameter beside it is swept."""
    base = _module("a test", "a: kit.make(), b: Optional[int]")
    head = _module("a test", "a: kit.make(), b: int | None", " -> None")
    assert compare(units(base), units(head)).ok


# The sweep beside an edit of what the def is: each stays a change.
BENT = {
    "a default changed": ("a: int = 1", "a: int = 2"),
    "a default changed with the sweep": ("a: Optional[int] = None", "a: int | None = 0"),
    "a default added": ("a: Optional[int]", "a: int | None = None"),
    "a parameter renamed": ("a: Optional[int]", "b: int | None"),
    "parameters reordered": ("a: int, b: str", "b: str, a: int"),
    "a parameter made keyword-only": ("a: Optional[int]", "*, a: int | None"),
    "a parameter made positional-only": ("a: Optional[int], b: int", "a: int | None, /, b: int"),
    "*args made a parameter": ("*a: int", "a: int"),
    "**kwargs made keyword-only": ("**a: int", "*, a: int"),
    "a parameter added with its annotation": ("a: Optional[int]", "a: int | None, b: str"),
    "a parameter removed with its annotation": ("a: Optional[int], b: str", "a: int | None"),
}


@pytest.mark.parametrize(
    ("name", "place", "forth"),
    list(itertools.product(sorted(BENT), ("a test", "a fixture", "a test method"), (True, False))),
)
def test_a_sweep_beside_a_changed_parameter_is_a_change(name: str, place: str, forth: bool) -> None:
    old, new = BENT[name]
    first, second = _module(place, old), _module(place, new, " -> None")
    base, head = (first, second) if forth else (second, first)
    assert not compare(units(base), units(head)).ok, name


def test_a_sweep_beside_a_body_change_is_a_change() -> None:
    base = _module("a test", "a: Optional[int]")
    head = _module("a test", "a: int | None", " -> None").replace("clamp(1)", "clamp(2)")
    drift = compare(units(base), units(head))
    assert not drift.ok
    assert "test_it changed" in drift.summary()


# Decorators that may read a def's annotations: the sweep under them stays a change.
DECORATORS = {
    "hypothesis's given": (
        "from hypothesis import given, strategies as st\n\n\n@given(st.integers())\n"
    ),
    "hypothesis's settings": "from hypothesis import settings\n\n\n@settings(max_examples=5)\n",
    "given inferring from annotations": "from hypothesis import given\n\n\n@given(a=...)\n",
    "a decorator of the project": "from tests.helpers import typed\n\n\n@typed\n",
    "a wrapper": "import functools\n\n\n@functools.lru_cache\n",
    "a fixture of pytest_asyncio": "import pytest_asyncio\n\n\n@pytest_asyncio.fixture\n",
    "a route": "import kit\n\n\n@kit.app.get('/')\n",
    "pytest beside another decorator": "import pytest\n\n\n@pytest.mark.slow\n@kit.typed\n",
}


@pytest.mark.parametrize(
    ("name", "forth"), list(itertools.product(sorted(DECORATORS), (True, False)))
)
def test_a_sweep_under_a_decorator_that_is_not_pytests_is_a_change(name: str, forth: bool) -> None:
    text = "import kit\n" + DECORATORS[name] + "def test_it({P}){R}:\n    assert kit.clamp(a)\n"
    old = text.replace("{P}", "a: Optional[int]").replace("{R}", "")
    new = text.replace("{P}", "a: int | None").replace("{R}", " -> None")
    base, head = (old, new) if forth else (new, old)
    drift = compare(units(base), units(head))
    assert not drift.ok, name
    assert "test_it changed" in drift.summary()


# Modules that spell a way to read annotations: the sweep in them stays a change.
READERS = {
    "get_type_hints": "HINTS = typing.get_type_hints\n",
    "inspect.signature": "import inspect\n\nSIG = inspect.signature\n",
    "typeguard": "from typeguard import install_import_hook\n",
    "a typechecked decorator in use elsewhere": "from typeguard import typechecked\n",
    "beartype": "import beartype\n",
    "pydantic": "import pydantic\n",
    "pydantic's TypeAdapter": "from pydantic import TypeAdapter\n",
    "hypothesis's from_type": (
        "from hypothesis import strategies as st\n\nS = st.from_type(kit.A)\n"
    ),
    "hypothesis's builds": "from hypothesis import strategies as st\n\nS = st.builds(kit.make)\n",
    "hypothesis's infer": "from hypothesis import infer\n",
    "FastAPI's Depends": "from fastapi import Depends\n\nD = Depends(kit.db)\n",
    "typer": "import typer\n\nAPP = typer.Typer()\n",
    "singledispatch": "from functools import singledispatch\n",
    "__annotations__": "kit.check(kit.__annotations__)\n",
    "a computed global": "kit.scan(globals())\n",
}


@pytest.mark.parametrize(
    ("name", "place", "forth"),
    list(itertools.product(sorted(READERS), ("a test", "a fixture", "a helper"), (True, False))),
)
def test_a_sweep_in_a_module_that_reads_annotations_is_a_change(
    name: str, place: str, forth: bool
) -> None:
    head = IMPORTS + READERS[name] + "\n\n"
    old = _module(place, "a: Optional[int]", "", head)
    new = _module(place, "a: int | None", "", head)
    base, other = (old, new) if forth else (new, old)
    assert not compare(units(base), units(other)).ok, name


# The return annotation of a def that hands out a value: kept, swept or not.
RETURNING = {
    "a fixture returning a value": "@pytest.fixture\ndef db(){R}:\n    return kit.open()\n",
    "a fixture yielding": "@pytest.fixture\ndef db(){R}:\n    yield kit.open()\n",
    "a helper returning in a branch": "def check(x){R}:\n    if x:\n        return x\n",
    "an async generator fixture": (
        "@pytest.fixture\nasync def db(){R}:\n    async with kit.open() as c:\n        yield c\n"
    ),
}
RETURN_SWEEPS = {
    "Optional to |": ("Optional[kit.Conn]", "kit.Conn | None"),
    "an annotation removed": ("kit.Conn", ""),
    "a quoted annotation removed": ('"kit.Conn"', ""),
    "an annotation replaced": ("kit.Conn", "kit.Other"),
    "Iterator to Generator": (
        "typing.Iterator[kit.Conn]",
        "collections.abc.Generator[kit.Conn, None, None]",
    ),
}


@pytest.mark.parametrize(
    ("name", "sweep"), list(itertools.product(sorted(RETURNING), sorted(RETURN_SWEEPS)))
)
def test_a_swept_return_annotation_of_a_def_handing_out_a_value_is_a_change(
    name: str, sweep: str
) -> None:
    old, new = RETURN_SWEEPS[sweep]
    text = IMPORTS + RETURNING[name]
    base = text.replace("{R}", _returned(old))
    head = text.replace("{R}", _returned(new))
    assert not compare(units(base), units(head)).ok, name


# A plain return annotation written where the base had none
# (`same.added_return_form`): what a sweep adds to a def handing out a value.
ADDED_RETURNS = (
    "kit.Conn",
    '"kit.Conn"',
    "kit.Conn | None",
    "typing.Iterator[kit.Conn]",
    "collections.abc.AsyncIterator[kit.Conn]",
    "Optional[Dict[str, List[kit.Conn]]]",
    "collections.abc.Generator[kit.Conn, None, None]",
)


@pytest.mark.parametrize(
    ("name", "annotation", "future"),
    list(itertools.product(sorted(RETURNING), ADDED_RETURNS, (True, False))),
)
def test_a_return_annotation_added_to_a_def_handing_out_a_value_is_no_change(
    name: str, annotation: str, future: bool
) -> None:
    text = ("from __future__ import annotations\n\n" if future else "") + IMPORTS
    text += RETURNING[name]
    base = text.replace("{R}", "")
    head = text.replace("{R}", _returned(annotation))
    drift = compare(units(base), units(head))
    assert drift.ok, drift.summary()
    # its hostile twin: the same annotation taken away is a change (a
    # runtime type checker that read it no longer checks the value)
    assert not compare(units(head), units(base)).ok, name


# The same addition where it is no sweep's: each stays a change ({R} is
# where the return annotation goes).
ADDED_TWINS = {
    "an annotation that runs code": lambda t: t.replace("{R}", " -> kit.conn_type()"),
    "Annotated with a call": lambda t: t.replace(
        "{R}", " -> typing.Annotated[kit.Conn, kit.check()]"
    ),
    "the body changed beside it": lambda t: (
        t.replace("{R}", " -> kit.Conn")
        .replace("kit.open()", "kit.open(1)")
        .replace("return x", "return -x")
    ),
    "a parameter added beside it": lambda t: (
        t.replace("(){R}", "(tmp_path){R}")
        .replace("(x){R}", "(x, tmp_path){R}")
        .replace("{R}", " -> kit.Conn")
    ),
}


@pytest.mark.parametrize(("name", "twin"), list(itertools.product(sorted(RETURNING), ADDED_TWINS)))
def test_a_return_annotation_added_beside_another_edit_is_a_change(name: str, twin: str) -> None:
    text = IMPORTS + RETURNING[name]
    base = text.replace("{R}", "")
    head = ADDED_TWINS[twin](text)
    assert head not in (base, text.replace("{R}", " -> kit.Conn")), (name, twin)
    assert not compare(units(base), units(head)).ok, (name, twin)


@pytest.mark.parametrize(
    ("name", "reader"),
    list(itertools.product(sorted(RETURNING), ("hypothesis's builds", "typeguard"))),
)
def test_a_return_annotation_added_where_annotations_may_be_read_is_a_change(
    name: str, reader: str
) -> None:
    text = IMPORTS + READERS[reader] + "\n\n" + RETURNING[name]
    base = text.replace("{R}", "")
    head = text.replace("{R}", _returned("kit.Conn"))
    assert not compare(units(base), units(head)).ok, (name, reader)


def test_a_return_annotation_added_to_a_def_handed_as_a_value_is_a_change() -> None:
    text = IMPORTS + "def make(){R}:\n    return kit.open()\n\n\nREG = [make]\n"
    base = text.replace("{R}", "")
    head = text.replace("{R}", _returned("kit.Conn"))
    assert not compare(units(base), units(head)).ok


def test_an_import_a_swept_annotation_still_reads_is_no_unused_import() -> None:
    """The head test still reads `Optional`: its import removed is a change
    (it would raise NameError at collection)."""
    base = (
        "from typing import Optional\n\nimport kit\n\n\n"
        "def test_it(a: Optional[int]):\n    assert a\n"
    )
    head = "import kit\n\n\ndef test_it(a: Optional[int]) -> None:\n    assert a\n"
    drift = compare(units(base), units(head))
    assert not drift.ok
    assert "from typing import Optional removed" in drift.summary()


def test_an_import_only_the_swept_annotations_read_may_go() -> None:
    base = (
        "from typing import List, Optional\n\nimport kit\n\n\n"
        "def test_it(a: Optional[int], b: List[str]):\n    assert a\n"
    )
    head = "import kit\n\n\ndef test_it(a: int | None, b: list[str]) -> None:\n    assert a\n"
    drift = compare(units(base), units(head))
    assert drift.ok, drift.summary()


def test_the_rule_passes_a_typing_sweep_and_fails_its_twins(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: a sweep over a test file's fixture
    and tests (imports of `typing` dropped, annotations rewritten and
    added) passes; the same sweep where a fixture's annotation calls
    something, or in a module that imports `inspect`, fails."""
    base = (
        "from typing import Dict, List, Optional\n\nimport pytest\n\nimport kit\n\n\n"
        "@pytest.fixture()\ndef db(tmp_path):\n    kit.reset(tmp_path)\n\n\n"
        "@pytest.mark.parametrize('v', [1, 2])\n"
        "def test_db(db, v: Optional[int], rows: List[Dict[str, int]] = []):\n"
        "    assert kit.clamp(v)\n\n\n"
        "class TestIt:\n    async def test_it(self, db: 'kit.Db') -> None:\n"
        "        assert await kit.aclamp(1)\n"
    )
    head = (
        "from pathlib import Path\n\nimport pytest\n\nimport kit\n\n\n"
        "@pytest.fixture\ndef db(tmp_path: Path) -> None:\n    kit.reset(tmp_path)\n\n\n"
        "@pytest.mark.parametrize('v', [1, 2])\n"
        "def test_db(db: None, v: int | None, rows: list[dict[str, int]] = []) -> None:\n"
        "    assert kit.clamp(v)\n\n\n"
        "class TestIt:\n    async def test_it(self, db: kit.Db):\n"
        "        assert await kit.aclamp(1)\n"
    )
    rubric_repo.write_many(
        {"tests/test_db.py": base, "tests/test_twin.py": base, "tests/test_read.py": base}
    )
    first = rubric_repo.commit("base")
    rubric_repo.write("tests/test_db.py", head)
    swept = rubric_repo.commit("swept")
    code, result = rubric_repo.check(first, swept, rubric=DRIFT_RUBRIC).verdict()
    assert code == 0, result
    rubric_repo.write("tests/test_twin.py", head.replace("tmp_path: Path", "tmp_path: kit.P()"))
    called = rubric_repo.commit("called")
    code, result = rubric_repo.check(swept, called, rubric=DRIFT_RUBRIC).verdict()
    assert code == 1, result
    assert "db changed" in result["message"], result
    rubric_repo.write("tests/test_read.py", "import inspect\n" + head)
    reads = rubric_repo.commit("reads")
    code, result = rubric_repo.check(called, reads, rubric=DRIFT_RUBRIC).verdict()
    assert code == 1, result
    assert "test_db changed" in result["message"], result


def test_the_rule_passes_a_return_annotation_added_to_a_fixture_and_fails_its_removal(
    rubric_repo: RubricRepo,
) -> None:
    """End to end: a fixture that yields a value gains `-> Iterator[kit.Conn]`
    (a typing sweep; round 15's agent-lightning conftest is one) and a helper
    that returns one gains `-> kit.Conn`: the rule passes.  Taking the
    annotations away again fails it."""
    base = (
        "import pytest\n\nimport kit\n\n\n"
        "@pytest.fixture\ndef conn(tmp_path):\n    with kit.open(tmp_path) as c:\n"
        "        yield c\n\n\n"
        "def make(x):\n    return kit.Conn(x)\n\n\n"
        "def test_conn(conn):\n    assert make(conn).ok\n"
    )
    head = (
        "from collections.abc import Iterator\n\nimport pytest\n\nimport kit\n\n\n"
        "@pytest.fixture\ndef conn(tmp_path) -> Iterator[kit.Conn]:\n"
        "    with kit.open(tmp_path) as c:\n        yield c\n\n\n"
        "def make(x) -> kit.Conn:\n    return kit.Conn(x)\n\n\n"
        "def test_conn(conn: kit.Conn) -> None:\n    assert make(conn).ok\n"
    )
    rubric_repo.write("tests/test_conn.py", base)
    first = rubric_repo.commit("base")
    rubric_repo.write("tests/test_conn.py", head)
    swept = rubric_repo.commit("swept")
    code, result = rubric_repo.check(first, swept, rubric=DRIFT_RUBRIC).verdict()
    assert code == 0, result
    rubric_repo.write("tests/test_conn.py", base)
    removed = rubric_repo.commit("removed")
    code, result = rubric_repo.check(swept, removed, rubric=DRIFT_RUBRIC).verdict()
    assert code == 1, result
    assert "conn changed" in result["message"] and "make changed" in result["message"], result


# Classes that may read their methods' annotations (`CLASSES_READING`, the
# `-> None` rule's): the sweep there stays a change.


@pytest.mark.parametrize(
    ("name", "forth"), list(itertools.product(sorted(CLASSES_READING), (True, False)))
)
def test_a_sweep_in_a_class_that_may_read_annotations_is_a_change(name: str, forth: bool) -> None:
    text = IMPORTS + CLASSES_READING[name] + "    def test_it(self, a{A}):\n        assert a\n"
    old, new = text.replace("{A}", ": Optional[int]"), text.replace("{A}", ": int | None")
    base, head = (old, new) if forth else (new, old)
    assert not compare(units(base), units(head)).ok, name


def test_an_import_a_changed_test_read_is_still_named_removed() -> None:
    """The base test that read `Optional` changed beside the sweep: its
    base version's reads still count, and the import's removal is named."""
    base = (
        "from typing import Optional\n\nimport kit\n\n\n"
        "def test_it(a: Optional[int]):\n    assert a\n"
    )
    head = "import kit\n\n\ndef test_it(a: int | None) -> None:\n    assert not a\n"
    summary = compare(units(base), units(head)).summary()
    assert "test_it changed" in summary
    assert "from typing import Optional removed" in summary


# A def the module hands as a value, which its receiver may read the
# annotations of: the sweep over it stays a change.
HANDED = {
    "a registry": "kit.register(check)\n",
    "a list of callbacks": "CALLBACKS = [check]\n",
    "a parametrized value": ("@pytest.mark.parametrize('f', [check])\ndef test_f(f):\n    f(1)\n"),
    "a route": "ROUTES = [kit.Route('/', check)]\n",
    "a keyword": "APP = kit.App(on_startup=check)\n",
    "inside a test": "def test_f():\n    kit.run(check)\n",
}


@pytest.mark.parametrize(("name", "forth"), list(itertools.product(sorted(HANDED), (True, False))))
def test_a_sweep_over_a_def_handed_as_a_value_is_a_change(name: str, forth: bool) -> None:
    text = IMPORTS + "def check(a{A}){R}:\n    assert kit.clamp(a)\n\n\n" + HANDED[name]
    old = text.replace("{A}", ": Optional[int]").replace("{R}", "")
    new = text.replace("{A}", ": int | None").replace("{R}", " -> None")
    base, head = (old, new) if forth else (new, old)
    drift = compare(units(base), units(head))
    assert not drift.ok, name
    assert "check changed" in drift.summary()


def test_a_sweep_over_a_method_handed_as_a_value_is_a_change() -> None:
    text = (
        IMPORTS + "class TestIt:\n    def check(self, a{A}):\n        assert a\n\n"
        "    def test_it(self):\n        kit.run(self.check)\n"
    )
    old, new = text.replace("{A}", ": Optional[int]"), text.replace("{A}", ": int | None")
    assert not compare(units(old), units(new)).ok


# What a def's name as a value is not: the sweep there stays no change.
NOT_HANDED = {
    "a helper only called": "def test_f():\n    check(1)\n",
    "a helper called through an attribute": "def test_f():\n    kit.wrap(check(1))\n",
}


@pytest.mark.parametrize("name", sorted(NOT_HANDED))
def test_a_sweep_over_a_def_only_called_is_no_change(name: str) -> None:
    text = IMPORTS + "def check(a{A}){R}:\n    assert kit.clamp(a)\n\n\n" + NOT_HANDED[name]
    old = text.replace("{A}", ": Optional[int]").replace("{R}", "")
    new = text.replace("{A}", ": int | None").replace("{R}", " -> None")
    drift = compare(units(old), units(new))
    assert drift.ok, drift.summary()


def test_a_sweep_over_a_fixture_whose_value_tests_read_is_no_change() -> None:
    """A fixture's name in a test is the fixture's value, not the def."""
    text = (
        IMPORTS + "@pytest.fixture\ndef db(tmp_path{A}){R}:\n    kit.reset(tmp_path)\n\n\n"
        "def test_f(db):\n    kit.use(db)\n    assert db is None\n"
    )
    old = text.replace("{A}", "").replace("{R}", "")
    new = text.replace("{A}", ": Path").replace("{R}", " -> None")
    drift = compare(units(old), units(new))
    assert drift.ok, drift.summary()
