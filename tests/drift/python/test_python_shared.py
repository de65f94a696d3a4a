"""A new Python test that stores into a module, however it spells the store
or wherever it hides the name, changes what other tests see (`shares_state`,
`sharing_defs`); one that stores into its own objects does not."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift import CASE, COLLECTION, compare
from gate.drift.python.units import units
from tests.real_pytest import run_pytest

BASE = "import contextlib\n\nimport clamp_kit as kit\n\n\ndef test_one():\n    assert True\n"

# Statements that store into (or delete from) what `kit` names.
STORES = [
    "kit.LIMIT = 2",
    "kit.LIMIT += 1",
    "kit.LIMIT: int = 2",
    "kit.LIMIT, _ = 2, 0",
    "[kit.LIMIT] = [2]",
    "kit.TABLE[0] = 2",
    "del kit.LIMIT",
    "for kit.LIMIT in [2]:\n    pass",
    "with contextlib.nullcontext(2) as kit.LIMIT:\n    pass",
    "[0 for kit.LIMIT in [2]]",
    "list(0 for kit.LIMIT in [2])",
]

# Code that binds `kit` in a scope of its own: the store above still reaches
# the module, as the function itself never binds the name.
SHADOWS = [
    "[0 for kit in ()]",
    "{0 for kit in ()}",
    "{0: 0 for kit in ()}",
    "list(0 for kit in ())",
    "(lambda kit: 0)",
    "def inner(kit):\n    pass",
    "def inner():\n    kit = 0",
    "class Inner:\n    kit = 0",
    "class Inner:\n    def method(self, kit):\n        pass",
    "def inner():\n    def kit():\n        pass",
    "class Inner:\n    def kit(self):\n        pass",
    "def inner():\n    class kit:\n        pass",
]


def _new_test(lines: list[str], method: bool) -> str:
    body = textwrap.indent("\n".join(lines), "    ")
    if method:
        return (
            "\n\nclass TestNew:\n    def test_two(self):\n" + textwrap.indent(body, "    ") + "\n"
        )
    return "\n\ndef test_two():\n" + body + "\n"


def _new_roles(head: str) -> set[str]:
    before = {u.key for u in units(BASE)}
    return {u.role for u in units(head) if u.key not in before}


@given(
    store=st.sampled_from(STORES),
    shadows=st.lists(st.sampled_from(SHADOWS), max_size=3),
    shadow_first=st.booleans(),
    method=st.booleans(),
)
def test_a_store_into_a_module_is_shared_whatever_binds_its_name_elsewhere(
    store: str, shadows: list[str], shadow_first: bool, method: bool
) -> None:
    lines = [*shadows, store] if shadow_first else [store, *shadows]
    head = BASE + _new_test(lines, method)
    assert COLLECTION in _new_roles(head), head
    found = compare(units(BASE), units(head)).summary()
    assert "changes what other tests see" in found, head


# The same stores through names the test binds itself, in its own scope or
# in the function around a nested one.
OWN = [
    "kit = types.SimpleNamespace(LIMIT=1, TABLE=[1])\n{store}",
    "kit = types.SimpleNamespace(LIMIT=1, TABLE=[1])\ndef inner():\n    {store}",
    "kit = types.SimpleNamespace(LIMIT=1, TABLE=[1])\nrun = lambda: [0 for _ in ()]\n{store}",
    # a function or class the test defines: a new object each time it runs
    "class kit:\n    LIMIT = 1\n    TABLE = [1]\n{store}",
    "def kit():\n    pass\nkit.TABLE = [1]\n{store}",
    "@contextlib.contextmanager\ndef kit():\n    yield\ndef inner():\n    {store}",
    "async def kit():\n    pass\n{store}",
]


@given(store=st.sampled_from([s for s in STORES if "\n" not in s]), own=st.sampled_from(OWN))
def test_a_store_into_the_tests_own_object_is_a_case(store: str, own: str) -> None:
    head = BASE + _new_test(own.format(store=store).splitlines(), method=False)
    assert _new_roles(head) == {CASE}, head


HELPERS = [
    "def _bend():\n    kit.LIMIT = 2\n",
    "def _bend():\n    for kit.LIMIT in [2]:\n        pass\n",
    "def _set():\n    kit.LIMIT = 2\n\n\ndef _bend():\n    _set()\n",
    "class _Bender:\n    def run(self):\n        kit.LIMIT = 2\n\n\n"
    "def _bend():\n    _Bender().run()\n",
]
CALLS = ["_bend()", "callback = _bend\ncallback()", "contextlib.ExitStack().callback(_bend)"]


@given(helper=st.sampled_from(HELPERS), call=st.sampled_from(CALLS), method=st.booleans())
def test_a_new_test_calling_a_helper_that_stores_into_a_module_is_shared(
    helper: str, call: str, method: bool
) -> None:
    base = BASE + "\n\n" + helper
    head = base + _new_test(call.splitlines(), method)
    before = {u.key for u in units(base)}
    new = [u for u in units(head) if u.key not in before]
    assert [u.role for u in new if u.name.endswith("test_two")] == [COLLECTION], head
    assert "changes what other tests see" in compare(units(base), units(head)).summary()


def test_a_new_method_calling_a_method_that_stores_into_a_module_is_shared() -> None:
    base = BASE + (
        "\n\nclass TestOld:\n    def _bend(self):\n        kit.LIMIT = 2\n\n"
        "    def test_old(self):\n        assert True\n"
    )
    head = base + "\n    def test_new(self):\n        self._bend()\n"
    found = compare(units(base), units(head))
    assert not found.ok and "new TestOld.test_new" in found.summary()


def test_a_helper_that_stores_into_its_own_objects_leaves_callers_cases() -> None:
    base = (
        BASE
        + "\n\ndef _make():\n    box = types.SimpleNamespace()\n    box.LIMIT = 2\n    return box\n"
    )
    head = base + _new_test(["assert _make().LIMIT == 2"], method=False)
    found = compare(units(base), units(head))
    assert found.ok and found.added == ("test_two",)


RED = "import clamp_kit\n\n\ndef test_limit():\n    assert clamp_kit.LIMIT == 2\n"


@pytest.mark.parametrize(
    "bend",
    [
        ["[0 for kit in ()]", "kit.LIMIT = 2"],
        ["def inner(kit):\n    pass", "for kit.LIMIT in [2]:\n    pass"],
        ["def inner():\n    def kit():\n        pass", "kit.LIMIT = 2"],
        ["_bend()"],
    ],
)
@settings(max_examples=1, deadline=None)
@given(st.just(None))
def test_the_bends_turn_a_later_red_test_green_under_real_pytest(
    tmp_path_factory: pytest.TempPathFactory, bend: list[str], _: None
) -> None:
    """What the tests above refuse is real: under pytest, each new test in
    test_a.py makes test_b.py's failing test pass."""
    folder = tmp_path_factory.mktemp("bend")
    (folder / "clamp_kit.py").write_text("LIMIT = 1\n", encoding="utf-8")
    base = BASE + "\n\ndef _bend():\n    kit.LIMIT = 2\n"
    (folder / "test_a.py").write_text(base, encoding="utf-8")
    (folder / "test_b.py").write_text(RED, encoding="utf-8")
    assert "1 failed, 1 passed" in run_pytest(folder)
    bent = base + _new_test(bend, method=False)
    (folder / "test_a.py").write_text(bent, encoding="utf-8")
    assert "3 passed" in run_pytest(folder)
    assert "changes what other tests see" in compare(units(base), units(bent)).summary()


# How base tests already reach the sharing helper `_bend` (17ba331b,
# openai-agents-python tests/models/test_any_llm_model.py: every test calls
# `_import_any_llm_module(monkeypatch, ...)`, which pops `sys.modules`).
BASE_CALLERS = [
    "def test_old():\n    _bend()\n",
    "def test_old():\n    callback = _bend\n    callback()\n",
    "class TestOld:\n    def test_old(self):\n        _bend()\n",
    "def _wrap():\n    _bend()\n\n\ndef test_old():\n    _wrap()\n",
]


@given(
    helper=st.sampled_from(HELPERS),
    caller=st.sampled_from(BASE_CALLERS),
    call=st.sampled_from(CALLS),
    method=st.booleans(),
)
def test_a_new_test_reaching_a_sharing_helper_the_base_tests_call_adds_no_effect(
    helper: str, caller: str, call: str, method: bool
) -> None:
    base = BASE + "\n\n" + helper + "\n\n" + caller
    head = base + _new_test([*call.splitlines(), "assert True"], method)
    found = compare(units(base), units(head))
    assert found.ok and found.added == ("TestNew.test_two" if method else "test_two",), head


@pytest.mark.parametrize(
    "twin",
    [
        # the helper is reached by no base test
        ("def test_old():\n    assert True\n", ["_bend()"]),
        # the new test also writes itself
        ("def test_old():\n    _bend()\n", ["_bend()", "kit.LIMIT = 3"]),
        # a second sharing helper, which no base code calls
        ("def test_old():\n    _bend()\n", ["_other()"]),
        # the base test calls it as a default argument's value only at import
        ("def test_old(x=None):\n    assert x is None\n", ["_bend()"]),
    ],
)
def test_a_new_test_reaching_a_sharing_helper_the_base_does_not_reach_so_is_shared(
    twin: tuple[str, list[str]],
) -> None:
    caller, body = twin
    base = BASE + "\n\ndef _bend():\n    kit.LIMIT = 2\n\n\ndef _other():\n    kit.X = 1\n\n\n"
    base += caller
    head = base + _new_test(body, method=False)
    assert "new test_two runs at collection" in compare(units(base), units(head)).summary()


def test_a_changed_sharing_helper_is_a_changed_unit_whoever_calls_it() -> None:
    base = BASE + "\n\ndef _bend():\n    kit.LIMIT = 2\n\n\ndef test_old():\n    _bend()\n"
    head = base.replace("kit.LIMIT = 2", "kit.LIMIT = 3") + _new_test(["_bend()"], method=False)
    found = compare(units(base), units(head))
    assert found.changed == ("_bend",) and found.added == ("test_two",)


# A module's namespace read where `vars` stands: nothing is written.
NAMESPACE_READS = [
    "return {k: v for k, v in vars(kit).items() if isinstance(v, str)}",
    "return sorted(vars(kit).keys())",
    "return vars(kit).get('LIMIT')",
    "return vars(kit)['LIMIT']",
    "return 'LIMIT' in vars(kit)",
]
# The same call whose namespace is written, kept, or handed on.
NAMESPACE_WRITES = [
    "vars(kit)['LIMIT'] = 3",
    "vars(kit).update(LIMIT=3)",
    "vars(kit).setdefault('NEW', 1)",
    "vars(kit).pop('LIMIT')",
    "del vars(kit)['LIMIT']",
    "ns = vars(kit)\n    ns['LIMIT'] = 3",
    "globals()['kit'] = None",
    "globals().update(kit=None)",
    "return helper(vars(kit))",
    "return vars(kit, 1).items()",
    # a copy hands the module's objects on; globals() stays shared
    "return dict(vars(kit))",
    "return {**vars(kit)}",
    "return vars(kit).copy()",
    "return globals().get('kit')",
    "return list(globals())",
]
HELPER = "\n\ndef _keys():\n    {body}\n\n\ndef test_two():\n    assert _keys()\n"


@pytest.mark.parametrize("body", NAMESPACE_READS)
def test_a_helper_that_only_reads_a_modules_namespace_is_a_new_helper(body: str) -> None:
    head = BASE + HELPER.format(body=body)
    assert COLLECTION not in _new_roles(head), head


@pytest.mark.parametrize("body", NAMESPACE_WRITES)
def test_a_helper_that_writes_or_hands_on_a_namespace_shares_it(body: str) -> None:
    head = BASE + HELPER.format(body=body)
    assert COLLECTION in _new_roles(head), head
