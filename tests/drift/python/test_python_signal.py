"""gate/drift/python/ on what real test files add: a new import or
helper whose name existing code mentions only in prose, or binds locally,
is welcome; one whose name existing code reads through the module (a global
load, a builtin, a fixture parameter, a name-shaped string, a string
annotation) stays drift.  New code that only touches its own objects
(`self.x = ...`, `nonlocal`, reading `os.environ`) is no collection-time
code; writing into shared state still is."""

from __future__ import annotations

import keyword

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gate.drift import CASE, COLLECTION, SUPPORT, compare
from gate.drift.python.units import units

PROPS = settings(max_examples=120, deadline=None)

NAMES = st.from_regex(r"\A[a-z][a-z_]{1,8}\Z", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n) and n not in ("test", "pytest", "self", "x")
)


def drift_of(base: str, head: str) -> str:
    found = compare(units(base), units(head))
    return "ok" if found.ok else found.summary()


# Where a base test mentions NAME without reading it from the module.
QUIET = [
    'def test_a():\n    """Checks that {n} works, see {n}."""\n    assert True\n',
    'def test_a():\n    assert "application/{n}" != "{n} is on"\n',
    "def test_a():\n    import {n}\n    assert {n}\n",
    "def test_a():\n    from os import path as {n}\n    assert {n}.sep\n",
    "def test_a(x=1):\n    {n} = x\n    assert {n} == 1\n",
    "def test_a():\n    for {n} in range(2):\n        pass\n    assert [{n} for {n} in range(2)]\n",
    "def test_a():\n    try:\n        pass\n    except ValueError as {n}:\n        assert {n}\n",
    "def test_a():\n    obj = object()\n    assert not hasattr(obj, 'x_{n}')\n"
    "    assert obj.{n} if 0 else 1\n",
    "class TestA:\n    def test_a(self):\n        import {n}\n        assert {n}\n",
    # a class body's own attributes: a field, a value, a walrus (strands da4c44e4)
    "class Model:\n    {n}: x\n    y: x = 3\n\n\ndef test_a(x):\n    assert x.{n}\n",
    "class TestA:\n    {n} = 3\n\n    def test_a(self):\n        assert self.{n}\n",
    "class Model:\n    ({n} := 3)\n    del {n}\n",
]
# Where a base test reads NAME through the module (the new binding reaches it).
LOUD = [
    "def test_a():\n    assert {n}\n",
    "def test_a():\n    import os\n    assert os and {n}\n",
    "def test_a({n}):\n    assert {n}\n",  # a fixture request
    '@pytest.mark.usefixtures("{n}")\ndef test_a():\n    pass\n',
    'def test_a(request):\n    assert request.getfixturevalue("{n}")\n',
    'def test_a(x: "{n} | None" = None):\n    pass\n',  # evaluated by get_type_hints
    "def test_a(x: \"Literal['a-b'] | {n}\" = None):\n    pass\n",
    'def test_a():\n    assert patch("pkg.mod.{n}")\n',
    "def test_a():\n    assert [{n} for _ in range(2)]\n",
    "def test_a():\n    def inner():\n        return {n}\n\n    assert inner()\n",
    "def test_a():\n    assert [y for y in range(2)] and (lambda: {n})()\n",
    "def test_a():\n    for y in range(2):\n        assert [{n} for {n} in range(2)] and {n}\n",
    'def test_a():\n    assert globals()["x"] or "mention {n}"\n',  # computed names
    "class TestA:\n    value = {n}\n\n    def test_a(self):\n        assert self.value\n",
    # a class body that reads the module's NAME while binding its own
    "class Model:\n    t = {n}.now()\n",
    "class Model:\n    t: float = {n}()\n",
    "class Model:\n    {n} = {n}\n",
    "class Model:\n    {n} += 1\n",
    "class Model:\n    y: {n} = 1\n",
    "class Model:\n    y = [{n} for _ in range(2)]\n",
    'def test_a():\n    assert getattr(mod, "{n}")\n',
    "class TestA:\n    @{n}\n    def test_a(self):\n        pass\n",
]
# How the head binds NAME: new module-level code beside a new test.
BINDERS = [
    "import {n}\n",
    "from os import path as {n}\n",
    "{n} = 3\n",
    "def {n}():\n    return 1\n",
    "@pytest.fixture\ndef {n}():\n    return 1\n",
    "class {n}:\n    pass\n",
]


@PROPS
@given(NAMES, st.sampled_from(QUIET), st.sampled_from(BINDERS))
def test_a_new_name_existing_code_only_mentions_or_binds_locally_is_welcome(
    name: str, base_test: str, binder: str
) -> None:
    base = "import pytest\n\n\n" + base_test.format(n=name)
    head = base + "\n\n" + binder.format(n=name) + f"\n\ndef test_new():\n    assert {name}\n"
    assert drift_of(base, head) == "ok"


@PROPS
@given(NAMES, st.sampled_from(LOUD), st.sampled_from(BINDERS))
def test_a_new_name_existing_code_reads_through_the_module_is_drift(
    name: str, base_test: str, binder: str
) -> None:
    base = "import pytest\n\n\n" + base_test.format(n=name)
    head = base + "\n\n" + binder.format(n=name)
    assert f"binds {name}, a name existing code uses" in drift_of(base, head)


@pytest.mark.parametrize("builtin", ["len", "open", "print", "isinstance", "sorted"])
def test_rebinding_a_builtin_existing_code_calls_is_drift(builtin: str) -> None:
    base = f"def test_a():\n    assert {builtin}\n"
    for head_code in (f"def {builtin}(*a):\n    return 1\n", f"from os import path as {builtin}\n"):
        assert f"binds {builtin}, a name existing code uses" in drift_of(
            base, base + "\n\n" + head_code
        )


# New code that keeps to its own objects: welcome.
OWN = [
    (
        "class Fake:\n    def __init__(self, text):\n        self.text = text\n\n"
        "    def read(self):\n        self.count = 1\n        return self.text\n",
        SUPPORT,
    ),
    (
        "def test_new():\n    calls = 0\n\n    def bump():\n        nonlocal calls\n"
        "        calls += 1\n\n    bump()\n    assert calls == 1\n",
        CASE,
    ),
    (
        "def test_new():\n    def handler(request):\n        request.state = 1\n\n"
        "    assert handler\n",
        CASE,
    ),
    ("import os\n\n\ndef test_new():\n    assert os.environ.get('HOME') or 1\n", CASE),
    ("import os\n\n\ndef test_new():\n    assert 'HOME' in os.environ or os.environ['X']\n", CASE),
    ("import os\n\n\ndef test_new():\n    env = {**os.environ, 'A': '1'}\n    assert env\n", CASE),
    (
        "import os\nfrom unittest.mock import patch\n\n\ndef test_new():\n"
        "    with patch.dict(os.environ, {'A': '1'}):\n        pass\n",
        CASE,
    ),
    (
        "import sys\n\n\ndef test_new():\n    assert sys.modules.get('json') or list(sys.path)\n",
        CASE,
    ),
]
# The hostile twin of each: it writes into what every test shares.
SHARED = [
    "class Fake:\n    def read(self):\n        import clamp_kit\n        clamp_kit.LIMIT = 9\n",
    "def test_new():\n    global STATE\n    STATE = 1\n",
    "def test_new():\n    def handler(request):\n        import clamp_kit\n"
    "        clamp_kit.LIMIT = request\n\n    handler(1)\n",
    "import os\n\n\ndef test_new():\n    os.environ['A'] = '1'\n",
    "import os\n\n\ndef test_new():\n    os.environ.update(A='1')\n",
    "import os\n\n\ndef test_new():\n    os.environ.setdefault('A', '1')\n",
    "import os\n\n\ndef test_new():\n    os.environ.pop('A')\n",
    "import os\nfrom unittest.mock import patch\n\n\ndef test_new():\n"
    "    patch.dict(os.environ, {'A': '1'}).start()\n",
    "import sys\n\n\ndef test_new():\n    sys.path.insert(0, 'x')\n",
    "import sys\n\n\ndef test_new():\n    sys.modules['json'] = None\n",
    "import sys\n\n\ndef test_new():\n    del sys.modules['json']\n",
    "import os\n\n\ndef test_new():\n    mutate(os.environ)\n",
]


def _new_roles(base: str, head: str) -> list[str]:
    old = {u.key for u in units(base)}
    return [u.role for u in units(head) if u.key not in old]


BASE = "import pytest\n\n\ndef test_a():\n    assert True\n"


@pytest.mark.parametrize(("added", "role"), OWN)
def test_new_code_that_keeps_to_its_own_objects_is_welcome(added: str, role: str) -> None:
    head = BASE + "\n\n" + added
    roles = _new_roles(BASE, head)
    assert COLLECTION not in roles and role in roles, roles
    assert drift_of(BASE, head) == "ok"


@pytest.mark.parametrize("added", SHARED)
def test_new_code_that_writes_into_shared_state_is_drift(added: str) -> None:
    head = BASE + "\n\n" + added
    assert COLLECTION in _new_roles(BASE, head)
    assert "runs at collection or changes what other tests see" in drift_of(BASE, head)


@PROPS
@given(NAMES, st.sampled_from(["json", "yaml", "Any", "Path"]))
def test_a_hoisted_local_import_is_welcome_but_not_over_a_global_read(
    name: str, module: str
) -> None:
    """The commonest real case: tests import a module inside each function
    and a new test imports it at the top.  A base test that also reads the
    name globally elsewhere keeps the new import drift."""
    assume(name != module)
    local = f"def test_{name}():\n    import {module}\n    assert {module}\n"
    head_extra = f"\n\nimport {module}\n\n\ndef test_new_{name}():\n    assert {module}\n"
    assert drift_of(local, local + head_extra) == "ok"
    mixed = local + f"\n\ndef test_other():\n    assert {module}\n"
    assert f"binds {module}" in drift_of(mixed, mixed + head_extra)


# Module-level values and decorator arguments computed by calls that only
# compute (well-known pure callables, by what they are imported as) ...
PURE_AT_IMPORT = [
    "from pathlib import Path\n\nROOT = Path(__file__).parent.resolve()\n",
    "import base64\n\nPNG = base64.b64decode('aGk=')\n",
    "import os\n\nDEBUG = os.environ.get('DEBUG', '') + ', '.join(sorted(['b', 'a']))\n",
    "from dataclasses import dataclass, field\n\n\n@dataclass\nclass Box:\n"
    "    items: list = field(default_factory=list)\n",
    "import shutil\n\nrequires_bash = pytest.mark.skipif(not shutil.which('bash'), reason='no')\n"
    "\n\n@requires_bash\ndef test_new():\n    pass\n",
    "from pathlib import Path\n\n\n@pytest.mark.parametrize('p', [Path('a'), pytest.param(2)])\n"
    "def test_new(p):\n    assert p\n",
    "from inline_snapshot import snapshot\n\n\n@pytest.mark.parametrize('v', "
    "[pytest.param(1, snapshot({}), id='one')])\ndef test_new(v):\n    assert v\n",
    "from hypothesis import given\nfrom hypothesis import strategies as st\n\n\n"
    "@given(st.lists(st.integers(), max_size=3))\ndef test_new(xs):\n    assert len(xs) < 4\n",
    "from unittest.mock import MagicMock, patch\n\n\n@patch('pkg.mod.f', new=MagicMock())\n"
    "def test_new():\n    pass\n",
    "import os\nimport sys\n\n\nclass TestNew:\n    @pytest.mark.skipif(\n"
    "        not hasattr(os, 'mkfifo') or sys.platform.startswith('win'), reason='posix'\n"
    "    )\n    def test_new(self):\n        pass\n",
    "import sys\n\n\n@pytest.mark.skipif(sys.version_info < (3, 8), reason='old')\n"
    "@pytest.mark.asyncio\nasync def test_new():\n    pass\n",
]
# ... and their hostile twins: the same shapes calling what may do anything.
IMPURE_AT_IMPORT = [
    "import clamp_kit\n\nROOT = clamp_kit.configure(strict=False)\n",
    "from pathlib import Path\n\nMADE = Path('out').mkdir()\n",
    "X = sorted([1, 2], key=clamp_setup)\n",
    "from dataclasses import dataclass, field\n\n\n@dataclass\nclass Box:\n"
    "    items: list = field(default_factory=make_registry())\n",
    "requires_bash = pytest.mark.skipif(boot(), reason='no')\n\n\n@requires_bash\n"
    "def test_new():\n    pass\n",
    "requires_bash = make_marker()\n\n\n@requires_bash\ndef test_new():\n    pass\n",
    "@pytest.mark.parametrize('p', [setup_everything()])\ndef test_new(p):\n    assert p\n",
    "from hypothesis import given\n\n\n@given(patch_the_world())\ndef test_new(x):\n    pass\n",
    "from unittest.mock import patch\n\n\n@patch('pkg.mod.f', new=install())\n"
    "def test_new():\n    pass\n",
    "from evil import Path\n\nROOT = Path(__file__)\n",  # a `pure` name from elsewhere
    "import pathlib as base64\nimport clamp_kit as pathlib\n\nX = pathlib.Path('a')\n",
]


@pytest.mark.parametrize("added", PURE_AT_IMPORT)
def test_pure_calls_at_import_are_welcome(added: str) -> None:
    head = BASE + "\n\n" + added
    assert COLLECTION not in _new_roles(BASE, head)
    assert drift_of(BASE, head) == "ok"


@pytest.mark.parametrize("added", IMPURE_AT_IMPORT)
def test_other_calls_at_import_are_drift(added: str) -> None:
    head = BASE + "\n\n" + added
    assert COLLECTION in _new_roles(BASE, head)
    assert "runs at collection or changes what other tests see" in drift_of(BASE, head)


CALLEES = st.sampled_from(["setup", "clamp_kit.configure", "make", "Registry", "boot"])
WRAPPERS = st.sampled_from(
    [
        "X = {call}\n",
        "X = [Path('a'), {call}]\n",
        "X = Path({call})\n",
        "X = str({call}).upper()\n",
        "X = {{'k': {call}}}\n",
        "@pytest.mark.parametrize('v', [{call}])\ndef test_new(v):\n    pass\n",
        "@pytest.mark.skipif({call}, reason='r')\ndef test_new():\n    pass\n",
        "class Helper:\n    value = field(default={call})\n",
        "def test_new(v=Path({call})):\n    pass\n",
        "marked = pytest.mark.skipif({call}, reason='r')\n\n\n@marked\ndef test_new():\n    pass\n",
    ]
)


@settings(max_examples=80, deadline=None)
@given(CALLEES, WRAPPERS, st.booleans())
def test_an_unknown_call_inside_pure_ones_is_still_drift(
    callee: str, wrapper: str, literal_args: bool
) -> None:
    """However deep a call of unknown code sits inside known pure calls,
    marks and containers, the new unit runs it at import."""
    call = f"{callee}({'1, 2' if literal_args else ''})"
    prelude = "from pathlib import Path\nfrom dataclasses import field\n\n\n"
    base = "import pytest\n" + prelude + "def test_a():\n    pass\n"
    head = base + "\n\n" + wrapper.format(call=call)
    assert "runs at collection or changes what other tests see" in drift_of(base, head)


# `if TYPE_CHECKING:` holding only imports never runs: SUPPORT.
TYPE_CHECKING_WELCOME = [
    "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg import Foo\n",
    "import typing\n\nif typing.TYPE_CHECKING:\n    import pkg.mod\n"
    "    from pkg import A, B as C\n",
    "from typing_extensions import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from . import x\n",
]
# Statements that keep the block's verdict (COLLECTION) when one is inside.
NOT_AN_IMPORT = [
    "X = 1",
    "setup()",
    "from x import *",
    "pass",
    "Foo = make()",
    "if True:\n        import a",
]


@pytest.mark.parametrize("added", TYPE_CHECKING_WELCOME)
def test_a_type_checking_block_of_only_imports_is_support(added: str) -> None:
    head = BASE + "\n\n" + added
    roles = _new_roles(BASE, head)
    assert roles and set(roles) == {SUPPORT}, roles
    assert drift_of(BASE, head) == "ok"


@PROPS
@given(
    st.lists(NAMES, min_size=0, max_size=4),
    st.sampled_from(NOT_AN_IMPORT),
    st.integers(min_value=0, max_value=4),
    st.sampled_from(["TYPE_CHECKING", "typing.TYPE_CHECKING"]),
)
def test_a_type_checking_block_with_other_code_is_drift(
    imported: list[str], other: str, at: int, test: str
) -> None:
    """However many imports surround it, one statement that is not a
    plain import keeps the block COLLECTION."""
    body = [f"import {n}" for n in imported]
    body.insert(min(at, len(body)), other)
    block = "".join(f"    {line}\n" for line in body)
    head = BASE + "\nimport typing\nfrom typing import TYPE_CHECKING\n\n" + f"if {test}:\n{block}"
    assert COLLECTION in _new_roles(BASE, head)
    assert "runs at collection or changes what other tests see" in drift_of(BASE, head)


@pytest.mark.parametrize(
    "added",
    [
        # an else branch runs
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import a\n"
        "else:\n    import b\n",
        # not typing's name: it may be true
        "TYPE_CHECKING = True\n\nif TYPE_CHECKING:\n    import a\n",
        "from evil import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import a\n",
        "from typing import TYPE_CHECKING\n\nTYPE_CHECKING = 1\n\n"
        "if TYPE_CHECKING:\n    import a\n",
        "import evil as typing\n\nif typing.TYPE_CHECKING:\n    import a\n",
        # a star import may rebind it
        "from typing import TYPE_CHECKING\nfrom evil import *\n\nif TYPE_CHECKING:\n    import a\n",
        "from typing import TYPE_CHECKING\n\nif not TYPE_CHECKING:\n    import a\n",
    ],
)
def test_a_block_that_may_run_keeps_its_verdict(added: str) -> None:
    head = BASE + "\n\n" + added
    if_roles = [u.role for u in units(head) if u.key.startswith("statement if")]
    assert if_roles == [COLLECTION], if_roles
    assert "runs at collection or changes what other tests see" in drift_of(BASE, head)


# A plain `import a.c` binds `a` to the module `a`, as the base's import does.
SAME_MODULE = [
    ("import {n}", "import {n}.core"),
    ("import {n}.core", "import {n}.parser"),
    ("import {n}\nimport {n}.core", "import {n}.shell_completion"),
    ("import {n}.core", "import {n}"),
]
# Any other binding of `a`, on either side, may be another object.
OTHER_OBJECT = [
    ("import {n}", "import {n}.core as {n}"),
    ("import {n}", "from x import {n}"),
    ("from x import {n}", "import {n}.core"),
    ("import x as {n}", "import {n}.core"),
    ("import {n}\n{n} = make()", "import {n}.core"),
    ("import {n}", "def {n}():\n    pass"),
]


@PROPS
@given(NAMES, st.sampled_from(SAME_MODULE))
def test_importing_another_submodule_binds_the_same_module(
    name: str, pair: tuple[str, str]
) -> None:
    before, added = (p.format(n=name) for p in pair)
    base = f"{before}\n\n\ndef test_a():\n    assert {name}\n"
    test_b = f"\n\n\ndef test_b():\n    assert {name}\n"
    head = f"{before}\n{added}\n\n\ndef test_a():\n    assert {name}\n{test_b}"
    found = compare(units(base), units(head))
    assert found.ok and found.added == ("test_b",), found.summary()


@PROPS
@given(NAMES, st.sampled_from(OTHER_OBJECT))
def test_binding_the_name_to_anything_else_replaces_it(name: str, pair: tuple[str, str]) -> None:
    before, added = (p.format(n=name) for p in pair)
    base = f"{before}\n\n\ndef test_a():\n    assert {name}\n"
    head = f"{before}\n{added}\n\n\ndef test_a():\n    assert {name}\n"
    assert f"replaces {name} of the base version" in drift_of(base, head)


def test_plain_imports_of_one_module_may_change_order() -> None:
    base = "import click\nimport click.core\n\n\ndef test_a():\n    assert click\n"
    head = "import click.core\nimport click\n\n\ndef test_a():\n    assert click\n"
    assert drift_of(base, head) == "ok"


# A base test that calls `{f}` in a mark's arguments or a default, as a
# project's parametrize lists build its objects.
CALLED_AT_BASE = [
    '@pytest.mark.parametrize("p", [{f}(1)])\ndef test_a(p):\n    assert p\n',
    '@pytest.mark.parametrize("p", [pytest.param({f}(1), id="one")])\n'
    "def test_a(p):\n    assert p\n",
    '@pytest.mark.skipif(not {f}(), reason="off")\ndef test_a():\n    pass\n',
    "def test_a(p={f}(1)):\n    assert p\n",
    "class TestA:\n"
    '    @pytest.mark.parametrize("p", [{f}(1)])\n'
    "    def test_a(self, p):\n        assert p\n",
]
# A new test that makes the same calls, with other arguments.
CALLS_AGAIN = [
    '@pytest.mark.parametrize("q", [{f}(2), {f}(x=3)])\ndef test_b(q):\n    assert q\n',
    '@pytest.mark.xfail(not {f}(), reason="off")\ndef test_b():\n    pass\n',
    "def test_b(q={f}(2)):\n    assert q\n",
]
# How the module gets `{f}`: only by an import, absolute or relative.
IMPORTS = [
    "from pkg.parts import {f}",
    "from .conftest import {f}",
    "import pkg.parts as {f}",
]


@PROPS
@given(
    NAMES,
    st.sampled_from(IMPORTS),
    st.sampled_from(CALLED_AT_BASE),
    st.sampled_from(CALLS_AGAIN),
)
def test_a_call_the_base_makes_at_collection_may_be_made_again(
    name: str, imported: str, at_base: str, again: str
) -> None:
    f = name.capitalize()
    header = f"import pytest\n{imported.format(f=f)}\n\n\n"
    base = header + at_base.format(f=f)
    head = base + "\n\n" + again.format(f=f)
    found = compare(units(base), units(head))
    assert found.ok and found.added == ("test_b",), found.summary()


# Calls that stay collection-time code however often the base makes them.
STILL_LOUD = [
    # a callee the base makes nowhere, or only in a module-level statement
    ("", '@pytest.mark.parametrize("q", [Other(2)])\ndef test_b(q):\n    pass\n'),
    (
        "X = Part(0)\n",
        '@pytest.mark.parametrize("q", [Part(2), Fresh()])\ndef test_b(q):\n    pass\n',
    ),
    # a method of a call's result, a writing method, shared state
    ("", '@pytest.mark.parametrize("q", [Part(1).build()])\ndef test_b(q):\n    pass\n'),
    ("", '@pytest.mark.parametrize("q", [REG.append(1)])\ndef test_b(q):\n    pass\n'),
    (
        "",
        '@pytest.mark.parametrize("q", [os.environ.setdefault("A", "1")])\n'
        "def test_b(q):\n    pass\n",
    ),
    ("", '@pytest.mark.parametrize("q", [mock.patch("a.b").start()])\ndef test_b(q):\n    pass\n'),
    # a callee the file defines itself, or a project decorator
    (
        "def make():\n    return 1\n",
        '@pytest.mark.parametrize("q", [make()])\ndef test_b(q):\n    pass\n',
    ),
    ("", "@register(Part(1))\ndef test_b():\n    pass\n"),
    # code of the file's handed to the callee, which may call it at import
    ("", '@pytest.mark.parametrize("q", [Part(lambda: 1)])\ndef test_b(q):\n    pass\n'),
    (
        "def make():\n    return 1\n",
        '@pytest.mark.parametrize("q", [Part(make)])\ndef test_b(q):\n    pass\n',
    ),
    (
        "class Hook:\n    pass\n",
        '@pytest.mark.parametrize("q", [Part(cb=[Hook])])\ndef test_b(q):\n    pass\n',
    ),
]
# The base makes each of those calls the same way, in a test of its own.
BASE_CALLS = (
    "import os\nfrom unittest import mock\n\nimport pytest\n"
    "from pkg.parts import REG, Other, Part, Fresh, register\n\n{extra}\n"
    + "".join(
        f'@pytest.mark.parametrize("p", [{call}])\ndef test_a{i}(p):\n    pass\n\n\n'
        for i, call in enumerate(
            [
                "Part(1)",
                "Part(1).build()",
                "REG.append(1)",
                'os.environ.setdefault("A", "1")',
                'mock.patch("a.b").start()',
                "{made}",
            ]
        )
    )
    + "@register(Part(1))\ndef test_z():\n    pass\n"
)


@pytest.mark.parametrize(("extra", "added"), STILL_LOUD)
def test_other_calls_at_collection_stay_drift(extra: str, added: str) -> None:
    made = "make()" if "def make" in extra else "Part(3)"
    base = BASE_CALLS.format(extra=extra, made=made)
    head = base + "\n\n" + added
    assert "new test_b runs at collection or changes what other tests see" in drift_of(base, head)


HANDS_APP = (
    "import pytest\nfrom pkg.parts import Part\n\n\nasync def app(scope):\n    pass\n\n\n"
    '@pytest.mark.parametrize("p", [Part(routes=[app])])\ndef test_a(p):\n    assert p\n'
)


def test_a_name_the_base_hands_the_same_callee_may_be_handed_again() -> None:
    """`Starlette(routes=[Mount("/", app=app)])` beside an existing test that
    builds the same: the file's `app` is handed as the base hands it."""
    again = '@pytest.mark.parametrize("q", [Part(app, 2)])\ndef test_b(q):\n    pass\n'
    head = f"{HANDS_APP}\n\n{again}"
    found = compare(units(HANDS_APP), units(head))
    assert found.ok and found.added == ("test_b",), found.summary()
    # the handed function changed: a changed unit of its own
    changed = head.replace("    pass\n\n\n@pytest", "    return 1\n\n\n@pytest", 1)
    assert "app changed" in drift_of(HANDS_APP, changed)
    # a name the base never hands, or a lambda, is new code handed at import
    for added in ("Part(other)", "Part(lambda: 1)"):
        head = (
            HANDS_APP.replace("async def app", "def other():\n    pass\n\n\nasync def app")
            + f'\n\n@pytest.mark.parametrize("q", [{added}])\ndef test_b(q):\n    pass\n'
        )
        assert "new test_b runs at collection" in drift_of(HANDS_APP, head), added


@pytest.mark.parametrize(
    "value",
    [
        "pytest.raises(ValueError)",
        "pytest.raises(ValueError, match='x')",
        "pytest.warns(UserWarning)",
        "pytest.approx(1.0)",
        "does_not_raise()",
    ],
)
def test_an_expectation_built_in_a_parametrize_list_runs_nothing(value: str) -> None:
    base = "import pytest\nfrom contextlib import nullcontext as does_not_raise\n"
    head = base + f'\n\n@pytest.mark.parametrize("e", [{value}])\ndef test_b(e):\n    pass\n'
    assert drift_of(base, head) == "ok"


def test_entering_a_context_manager_at_import_is_code() -> None:
    base = "import pytest\n"
    head = base + "\nRECORD = pytest.warns(UserWarning).__enter__()\n"
    assert "runs at collection" in drift_of(base, head)


@pytest.mark.parametrize(
    "model",
    [
        "class Weather(pydantic.BaseModel):\n    time: str\n    weather: str\n",
        "class Weather(pydantic.BaseModel):\n    time: str = 'noon'\n",
        "class Weather:\n    time = None\n",
    ],
)
def test_a_new_import_named_as_a_class_field_existing_tests_read_is_welcome(model: str) -> None:
    base = "import pydantic\n\n\n" + model + "\n\ndef test_a(result):\n    assert result.time\n"
    head = "import time\n\n" + base + "\n\ndef test_new():\n    assert time.time()\n"
    assert drift_of(base, head) == "ok"
