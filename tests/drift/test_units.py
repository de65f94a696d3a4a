"""gate/drift: a Python test file as units, and what a head version did
to a base version's units.  Generated test modules (hypothesis): appended
cases always pass, any edit of an existing unit always fails naming it,
collection-time code always fails; real pytest runs show that what the
gate calls collection-time code does change what existing tests see."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift import _RUNNER_MEMBER, CASE, COLLECTION, SUPPORT, Unparsable, compare, units_for
from gate.drift.python.units import units
from tests.real_pytest import run_pytest

PROPS = settings(max_examples=150, deadline=None)

BASE = '''"""Tests of clamp."""
import pytest

from clamp_kit import clamp


@pytest.fixture
def limits():
    return (0, 10)


def helper(x):
    return x


def test_low(limits, tmp_path):
    assert clamp(-1, *limits) == 0


@pytest.mark.parametrize("x", [1, 2])
def test_mid(x, limits):
    assert clamp(x, *limits) == x


class TestClamp:
    def setup_method(self):
        self.top = 10

    def test_high_edge(self):
        assert clamp(11, 0, self.top) == 10
'''


def roles(text: str) -> dict[str, str]:
    return {u.key: u.role for u in units(text)}


def drift_of(base: str, head: str, allow_added: bool = True) -> str:
    found = compare(units(base), units(head), allow_added=allow_added)
    return "ok" if found.ok else found.summary()


def test_units_of_a_test_module() -> None:
    got = roles(BASE)
    assert got == {
        "encoding": SUPPORT,
        "module docstring": SUPPORT,
        "import pytest": SUPPORT,
        "from clamp_kit import clamp": SUPPORT,
        "function limits": SUPPORT,
        "function helper": SUPPORT,
        "function test_low": CASE,
        "function test_mid": CASE,
        "class TestClamp": CASE,
        "method TestClamp.setup_method": SUPPORT,
        "method TestClamp.test_high_edge": CASE,
    }
    by_key = {u.key: u for u in units(BASE)}
    mid = by_key["function test_mid"]
    assert mid.code.startswith('@pytest.mark.parametrize("x", [1, 2])\ndef test_mid')
    assert mid.line == 20
    assert by_key["method TestClamp.test_high_edge"].parent == "class TestClamp"


@pytest.mark.parametrize(
    ("added", "role"),
    [
        ("pytestmark = pytest.mark.skip\n", COLLECTION),
        ("import sys\nsys.path.insert(0, 'x')\n", COLLECTION),
        ("import os\nos.environ['X'] = '1'\n", COLLECTION),
        ("import clamp_kit\nclamp_kit.clamp = min\n", COLLECTION),
        ("if True:\n    pass\n", COLLECTION),
        ("try:\n    import x\nexcept ImportError:\n    pass\n", COLLECTION),
        ("from os.path import *\n", COLLECTION),
        ("from __future__ import annotations\n", COLLECTION),
        ("print('hi')\n", COLLECTION),
        ("@pytest.fixture(autouse=True)\ndef every():\n    yield\n", COLLECTION),
        ("def pytest_collection_modifyitems(items):\n    items.clear()\n", COLLECTION),
        ("def setup_module():\n    pass\n", COLLECTION),
        ("@register\ndef test_z():\n    pass\n", COLLECTION),
        ("def test_z():\n    global STATE\n    STATE = 1\n", COLLECTION),
        ("def test_z():\n    import clamp_kit\n    clamp_kit.LIMIT = 3\n", COLLECTION),
        ("def test_z():\n    setattr(__import__('m'), 'f', 1)\n", COLLECTION),
        ("def test_z():\n    import sys\n    sys.modules['m'] = None\n", COLLECTION),
        ("def test_z():\n    patch('m.f').start()\n", COLLECTION),
        ("def test_z(monkeypatch):\n    monkeypatch.setattr('m.f', 1)\n", CASE),
        ("def test_z():\n    with patch('m.f'):\n        pass\n", CASE),
        ("def test_z():\n    box = {}\n    box['a'] = 1\n", CASE),
        ("X_NEW = 3\n", SUPPORT),
        ("X_NEW = compute()\n", COLLECTION),
        ("class Helper:\n    value = compute()\n", COLLECTION),
        ("class Helper:\n    value = 3\n\n    def run(self):\n        return run()\n", SUPPORT),
        ("def test_z(a=compute()):\n    pass\n", COLLECTION),
        ("class TestNew(make_base()):\n    def test_it(self):\n        pass\n", COLLECTION),
        ("import json\n", SUPPORT),
        ("@pytest.fixture\ndef fresh():\n    return 1\n", SUPPORT),
    ],
)
def test_roles_of_new_module_level_code(added: str, role: str) -> None:
    head = BASE + "\n" + added
    new = [u for u in units(head) if u.key not in roles(BASE)]
    assert new, added
    strongest = COLLECTION if any(u.role == COLLECTION for u in new) else new[-1].role
    assert strongest == role, (added, new)


def test_a_new_import_of_a_module_the_base_imports_from_is_welcome() -> None:
    head = BASE + "\n\nimport clamp_kit\n\n\ndef test_kit():\n    assert clamp_kit.clamp\n"
    assert drift_of(BASE, head) == "ok"


def test_a_new_first_method_leaves_the_class_header_as_it_was() -> None:
    base = "class TestX:\n\n    # the edges\n    def test_a(self):\n        pass\n"
    head = base.replace("class TestX:\n", "class TestX:\n    def test_new(self):\n        pass\n")
    found = compare(units(base), units(head))
    assert found.ok, found.summary()
    assert found.added == ("TestX.test_new",)


def test_a_fixture_renamed_by_its_decorator_binds_that_name() -> None:
    base = "def test_a(tmp_path):\n    pass\n"
    head = base + '\n\n@pytest.fixture(name="tmp_path")\ndef _mine():\n    return 1\n'
    assert "binds tmp_path, a name existing code uses" in drift_of(base, head)


def test_a_fixture_named_in_a_string_is_used() -> None:
    base = '@pytest.mark.usefixtures("db")\ndef test_a():\n    pass\n'
    head = base + "\n\n@pytest.fixture\ndef db():\n    return None\n"
    assert "new db binds db, a name existing code uses" in drift_of(base, head)


@pytest.mark.parametrize(
    "head",
    [
        "from evil import given\n\n\n@given\ndef test_new():\n    pass\n",
        "import evil as mark\n\n\n@mark.skip\ndef test_new():\n    pass\n",
        "from evil import fixture\n\n\n@fixture\ndef fresh():\n    return 1\n",
        "def staticmethod(f):\n    return f\n\n\nclass TestN:\n    @staticmethod\n"
        "    def test_n():\n        pass\n",
    ],
)
def test_a_harmless_decorator_name_from_elsewhere_is_not_trusted(head: str) -> None:
    """`@given` is harmless only as hypothesis's: imported from anywhere
    else (or defined in the file) it may run anything at import."""
    base = "import pytest\n\n\ndef test_a():\n    pass\n"
    assert "runs at collection or changes what other tests see" in drift_of(base, base + head)


def test_a_new_method_that_overrides_an_inherited_test_is_drift() -> None:
    base = (
        "class TestA:\n    def test_x(self):\n        assert False\n\n\n"
        "class TestB(TestA):\n    def test_y(self):\n        pass\n"
    )
    head = base + "\n    def test_x(self):\n        pass\n"
    assert "new TestB.test_x overrides a test the class inherits" in drift_of(base, head)
    assert drift_of(base, base + "\n    def test_z(self):\n        pass\n") == "ok"


def test_a_name_bound_twice_is_seen() -> None:
    head = BASE + "\n\ndef test_low():\n    pass\n"
    found = compare(units(BASE), units(head))
    assert not found.ok
    assert "new test_low replaces test_low of the base version" in found.summary()


@pytest.mark.parametrize(
    ("head", "message"),
    [
        (BASE.replace("clamp(11, 0", "clamp(12, 0"), "TestClamp.test_high_edge changed"),
        (BASE.replace("[1, 2]", "[1]"), "test_mid changed"),
        (BASE.replace("    return (0, 10)", "    return (0, 11)"), "limits changed"),
        (BASE.replace("def helper(x):\n    return x\n", ""), "helper removed"),
        (BASE.replace("class TestClamp:", "class TestClamp(object):"), "TestClamp changed"),
        (
            BASE.replace("from clamp_kit import clamp", "from clamp_kit import clamp2 as clamp"),
            "from clamp_kit import clamp removed; new from clamp_kit import clamp2 as clamp",
        ),
        (BASE + "\nfrom other import clamp\n", "replaces clamp of the base version"),
        (
            BASE + "\n@pytest.fixture\ndef tmp_path():\n    return 1\n",
            "binds tmp_path, a name existing code uses",
        ),
        (
            BASE.replace(
                "        self.top = 10\n",
                "        self.top = 10\n\n    def helper(self):\n        pass\n",
            ),
            "new TestClamp.helper added to a class that exists at base",
        ),
        ("# -*- coding: latin-1 -*-\n" + BASE, "the source encoding changed"),
    ],
)
def test_changes_to_existing_units_are_named(head: str, message: str) -> None:
    assert message in drift_of(BASE, head)


def test_new_cases_are_welcome_and_counted() -> None:
    head = (
        BASE
        + "\n\ndef test_new(limits):\n    assert clamp(3, *limits) == 3\n"
        + "\n\nclass TestMore:\n    def setUp(self):\n        self.x = 1\n\n"
        + "    def test_more(self):\n        assert self.x\n"
        + "\n\n@pytest.fixture\ndef other():\n    return 2\n"
    )
    found = compare(units(BASE), units(head))
    assert found.ok, found.summary()
    assert found.added == ("test_new", "TestMore.test_more")
    refused = compare(units(BASE), units(head), allow_added=False)
    assert "new test test_new added and allow_added is false" in refused.summary()


def test_units_binding_one_name_keep_their_order() -> None:
    helper = "def clamp(x):\n    return x\n\n\n"
    test = "def test_a():\n    assert clamp(1)\n"
    base = "from m import clamp\n\n\n" + helper + test
    head = helper + "from m import clamp\n\n\n" + test
    assert "the units binding clamp are in another order" in drift_of(base, head)


def test_a_moved_unit_is_not_a_change() -> None:
    head = (
        BASE.replace("def helper(x):\n    return x\n\n\n", "")
        + "\n\ndef helper(x):\n    return x\n"
    )
    assert drift_of(BASE, head) == "ok"


def test_unparsable_and_unknown_suffixes() -> None:
    with pytest.raises(Unparsable, match="does not parse as Python at line 1"):
        units_for("tests/test_x.py", "def (:\n")
    with pytest.raises(Unparsable, match="null bytes"):
        units_for("tests/test_x.py", "x = 1\0\n")
    assert units_for("tests/test_x.lua", "it('works', function() end)\n") is None
    assert units_for("tests/README", "text") is None


def test_a_language_module_that_is_missing_is_unparsable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gate.drift.go", None)  # import fails as if absent
    with pytest.raises(Unparsable, match="needs a parser that is not installed"):
        units_for("pkg/x_test.go", "package x\n")


# --- generated test modules ----------------------------------------------------


@st.composite
def module(draw: st.DrawFn) -> list[tuple[str, str]]:
    """A test module as (unit name, code) pieces, in order."""
    pieces: list[tuple[str, str]] = [("import pytest", "import pytest\n")]
    count = draw(st.integers(min_value=1, max_value=6))
    for i in range(count):
        kind = draw(st.sampled_from(["test", "param", "fixture", "helper", "class"]))
        value = draw(st.integers(min_value=0, max_value=9))
        if kind == "test":
            pieces.append((f"test_{i}", f"def test_{i}():\n    assert {value} == {value}\n"))
        elif kind == "param":
            pieces.append(
                (
                    f"test_{i}",
                    f'@pytest.mark.parametrize("v", [{value}])\ndef test_{i}(v):\n'
                    f"    assert v == {value}\n",
                )
            )
        elif kind == "fixture":
            pieces.append((f"fix_{i}", f"@pytest.fixture\ndef fix_{i}():\n    return {value}\n"))
        elif kind == "helper":
            pieces.append((f"helper_{i}", f"def helper_{i}(x):\n    return x + {value}\n"))
        else:
            pieces.append(
                (
                    f"TestC{i}.test_m",
                    f"class TestC{i}:\n    def test_m(self):\n        assert {value} >= 0\n",
                )
            )
    return pieces


def text(pieces: list[tuple[str, str]]) -> str:
    return "\n\n".join(code for _, code in pieces)


NEW_CASE = st.sampled_from(
    [
        "def test_added_{n}():\n    assert True\n",
        "@pytest.mark.parametrize('v', [1, 2])\ndef test_added_{n}(v):\n    assert v\n",
        "class TestAdded{n}:\n    def setup_method(self):\n        self.v = 1\n\n"
        "    def test_it(self):\n        assert self.v\n",
        "@pytest.fixture\ndef added_fixture_{n}():\n    return 1\n\n\n"
        "def test_added_{n}(added_fixture_{n}):\n    assert added_fixture_{n}\n",
        "async def test_added_{n}():\n    assert True\n",
    ]
)


@PROPS
@given(module(), st.lists(NEW_CASE, min_size=1, max_size=4))
def test_appending_new_cases_always_passes(pieces: list[tuple[str, str]], new: list[str]) -> None:
    base = text(pieces)
    head = base + "".join("\n\n" + code.format(n=n) for n, code in enumerate(new))
    found = compare(units(base), units(head))
    assert found.ok, found.summary()
    assert len(found.added) == len(new)


# Edits of what a unit means, and edits of its layout alone (a Python unit's
# syntax tree stays as it was: `Unit.same`).
MUTATIONS = st.sampled_from(["decorator", "signature", "body", "delete"])
LAYOUT = st.sampled_from(["indent", "trailing", "comment", "wrap"])


def mutate(code: str, how: str) -> str:
    """`code` (one generated unit) with one edit of kind `how` ('' deletes it)."""
    lines = code.rstrip("\n").split("\n")
    last = lines[-1]
    indent = last[: len(last) - len(last.lstrip())]
    if how == "decorator":
        return "@pytest.mark.skip\n" + code
    if how == "signature":
        if "():" in code:
            return code.replace("():", "(extra=1):", 1)
        return code.replace("):", ", extra=1):", 1)
    if how == "body":
        return "\n".join([*lines[:-1], f"{indent}pass", last]) + "\n"
    if how == "indent":  # one more space on the last line (still valid Python)
        return "\n".join([*lines[:-1], " " + last]) + "\n"
    if how == "trailing":
        return code.replace(":\n", ": \n", 1)
    if how == "comment":  # a comment line before the last one
        return "\n".join([*lines[:-1], f"{indent}# why", last]) + "\n"
    if how == "wrap":  # the last line's expression in parentheses over two lines
        body = last.strip()
        keyword = next((k for k in ("assert ", "return ") if body.startswith(k)), "")
        if not keyword:
            return code
        return (
            "\n".join(
                [
                    *lines[:-1],
                    f"{indent}{keyword}(",
                    f"{indent}    {body[len(keyword) :]}",
                    f"{indent})",
                ]
            )
            + "\n"
        )
    return ""


@PROPS
@given(module(), st.data(), MUTATIONS)
def test_any_edit_of_an_existing_unit_fails_naming_it(
    pieces: list[tuple[str, str]], data: st.DataObject, how: str
) -> None:
    index = data.draw(st.integers(min_value=1, max_value=len(pieces) - 1))
    name, code = pieces[index]
    changed = mutate(code, how)
    edited = [*pieces[:index], (name, changed), *pieces[index + 1 :]]
    head = text([p for p in edited if p[1]])
    try:
        head_units = units(head)
    except Unparsable:  # an indentation edit that Python refuses: judged whole by the rule
        return
    found = compare(units(text(pieces)), head_units)
    assert not found.ok
    summary = found.summary()
    assert f"{name.split('.')[0]}" in summary, (how, summary)
    assert ("removed" if how == "delete" else "changed") in summary


@PROPS
@given(module(), st.data(), LAYOUT)
def test_an_edit_of_layout_alone_changes_nothing(
    pieces: list[tuple[str, str]], data: st.DataObject, how: str
) -> None:
    """A comment, a trailing space, another indent of a lone line, a line
    broken inside parentheses: the unit's syntax tree is as it was, so no
    test changed; any edit that changes the tree still fails."""
    import ast

    index = data.draw(st.integers(min_value=1, max_value=len(pieces) - 1))
    name, code = pieces[index]
    head = text([*pieces[:index], (name, mutate(code, how)), *pieces[index + 1 :]])
    base = text(pieces)
    try:
        head_units = units(head)
    except Unparsable:  # an indentation edit that Python refuses: judged whole by the rule
        return
    found = compare(units(base), head_units)
    same_tree = ast.dump(ast.parse(base)) == ast.dump(ast.parse(head))
    assert found.ok is same_tree, (how, found.summary())
    assert found.ok or f"{name.split('.')[0]}" in found.summary()


COLLECTION_CODE = st.sampled_from(
    [
        "pytestmark = pytest.mark.skip\n",
        "import clamp_kit\nclamp_kit.LIMIT = 99\n",
        "import sys\nsys.modules['clamp_kit'] = None\n",
        "import os\nos.environ['MODE'] = 'lenient'\n",
        "for name in list(globals()):\n    pass\n",
        "@pytest.fixture(autouse=True)\ndef everywhere():\n    yield\n",
        "def pytest_collection_modifyitems(items):\n    del items[:]\n",
        "def test_patches():\n    import clamp_kit\n    clamp_kit.clamp = max\n",
        "setattr(pytest, 'approx', None)\n",
        "with open(__file__):\n    pass\n",
    ]
)


@PROPS
@given(module(), COLLECTION_CODE, st.booleans())
def test_collection_time_additions_always_fail(
    pieces: list[tuple[str, str]], added: str, first: bool
) -> None:
    base = text(pieces)
    head = f"{added}\n\n{base}" if first else f"{base}\n\n{added}"
    found = compare(units(base), units(head))
    assert not found.ok
    assert "runs at collection or changes what other tests see" in found.summary()


# --- what the gate calls collection-time code changes what pytest reports ----


RED = "def test_limit():\n    import clamp_kit\n\n    assert clamp_kit.LIMIT == 2\n"


@pytest.mark.parametrize(
    "added",
    [
        "import clamp_kit as kit\nkit.LIMIT = 2\n",  # an attribute patch at module level
        "import sys\nimport types\nsys.modules['clamp_kit'] = types.SimpleNamespace(LIMIT=2)\n",
    ],
)
def test_appended_collection_code_turns_an_existing_red_test_green(
    tmp_path: Path, added: str
) -> None:
    (tmp_path / "clamp_kit.py").write_text("LIMIT = 1\n", encoding="utf-8")
    (tmp_path / "test_z.py").write_text(RED, encoding="utf-8")
    assert "1 failed" in run_pytest(tmp_path)
    bent = RED + "\n" + added
    (tmp_path / "test_z.py").write_text(bent, encoding="utf-8")
    assert "1 passed" in run_pytest(tmp_path)
    found = compare(units(RED), units(bent))
    assert "runs at collection or changes what other tests see" in found.summary()


def test_a_new_case_that_patches_a_module_turns_a_later_test_green(tmp_path: Path) -> None:
    """A new test in test_a.py runs before test_b.py's: its patch leaks."""
    base = "def test_one():\n    assert True\n"
    bent = base + "\n\ndef test_two():\n    import clamp_kit\n    clamp_kit.LIMIT = 2\n"
    (tmp_path / "clamp_kit.py").write_text("LIMIT = 1\n", encoding="utf-8")
    (tmp_path / "test_a.py").write_text(base, encoding="utf-8")
    (tmp_path / "test_b.py").write_text(RED, encoding="utf-8")
    assert "1 failed, 1 passed" in run_pytest(tmp_path)
    (tmp_path / "test_a.py").write_text(bent, encoding="utf-8")
    assert "3 passed" in run_pytest(tmp_path)
    found = compare(units(base), units(bent))
    assert "new test_two runs at collection or changes what other tests see" in found.summary()


def test_chains_as_deep_as_the_parser_allows_are_read() -> None:
    """`dotted` is iterative: a chain Python parses is never a RecursionError."""
    chain = "a." * 1900 + "b"
    assert [u.role for u in units(f"x = {chain}\n")] == [SUPPORT, SUPPORT]
    assert units(f"@{chain}\ndef test_x():\n    pass\n")[-1].role == COLLECTION
    deep_store = "def test_x(self):\n    self.__class__" + ".b" * 100 + ".x = 1\n"
    assert units(deep_store)[-1].role == COLLECTION


BENDS = st.sampled_from(
    [
        "import clamp_kit as kit\nkit.LIMIT = 2\n",
        "import sys\nimport types\nsys.modules['clamp_kit'] = types.SimpleNamespace(LIMIT=2)\n",
        "@pytest.fixture(autouse=True)\ndef _bend():\n"
        "    import clamp_kit\n    clamp_kit.LIMIT = 2\n",
        "pytestmark = pytest.mark.skip\n",
        "def setup_module():\n    import clamp_kit\n    clamp_kit.LIMIT = 2\n",
    ]
)


@settings(max_examples=5, deadline=None)
@given(module(), BENDS)
def test_generated_files_bent_at_collection_turn_red_green_under_real_pytest(
    tmp_path_factory: pytest.TempPathFactory, pieces: list[tuple[str, str]], bend: str
) -> None:
    folder = tmp_path_factory.mktemp("bent")
    (folder / "clamp_kit.py").write_text("LIMIT = 1\n", encoding="utf-8")
    base = text(pieces) + "\n\n" + RED
    (folder / "test_gen.py").write_text(base, encoding="utf-8")
    assert "1 failed" in run_pytest(folder)
    bent = base + "\n\n" + bend
    (folder / "test_gen.py").write_text(bent, encoding="utf-8")
    assert "failed" not in run_pytest(folder)
    found = compare(units(base), units(bent))
    assert "runs at collection or changes what other tests see" in found.summary()


@given(
    extra=st.lists(
        st.from_regex(r"\Anew_[a-z]{1,8}\Z", fullmatch=True), min_size=1, max_size=4, unique=True
    ),
    wrapped=st.booleans(),
)
def test_a_name_added_to_an_existing_import_line_changes_no_unit(
    extra: list[str], wrapped: bool
) -> None:
    """A new test usually needs one more name from the module under test:
    `from clamp_kit import clamp` becoming `from clamp_kit import clamp,
    new_x` (on one line or wrapped in parentheses) keeps the existing
    name's unit as it was."""
    names = ["clamp", *extra]
    line = (
        "from clamp_kit import (\n" + "".join(f"    {n},\n" for n in names) + ")"
        if wrapped
        else "from clamp_kit import " + ", ".join(names)
    )
    head = BASE.replace("from clamp_kit import clamp", line)
    assert drift_of(BASE, head) == "ok"
    # the same names imported from elsewhere is drift, naming the name
    moved = BASE.replace("from clamp_kit import clamp", "from other_kit import clamp")
    assert "from clamp_kit import clamp removed" in drift_of(BASE, moved)


_MEMBER_AT = "        self.top = 10\n"


@given(
    name=st.from_regex(r"\A_?[a-z]{2,8}_(?:value|build|make)[a-z]{0,4}\Z", fullmatch=True).filter(
        lambda n: not _RUNNER_MEMBER.match(n)  # `do_value`: a name the runner calls (do*)
    )
)
def test_a_new_helper_member_of_an_existing_class_is_welcome_when_nothing_calls_it(
    name: str,
) -> None:
    """An agent that adds tests to an existing class often adds a helper
    method beside them: a name no existing code spells changes no existing
    test, in a class with plain bases."""
    member = f"{_MEMBER_AT}\n    def {name}(self):\n        return 3\n"
    head = BASE.replace(_MEMBER_AT, member)
    appended = (
        head + f"\n    def test_{name.strip('_')}(self):\n        assert self.{name}() == 3\n"
    )
    assert drift_of(BASE, head) == "ok"
    assert drift_of(BASE, appended) == "ok"
    # the same member where existing code spells its name, in a class whose
    # base comes from elsewhere, or named as a runner calls it: drift
    spelled = BASE.replace("== 10\n", f"== 10 or self.{name}()\n")
    assert "added to a class that exists at base" in drift_of(
        spelled, spelled.replace(_MEMBER_AT, member)
    )
    imported = BASE.replace("class TestClamp:", "class TestClamp(SharedTests):")
    assert "added to a class that exists at base" in drift_of(
        imported, imported.replace(_MEMBER_AT, member)
    )


@pytest.mark.parametrize(
    "name",
    ["setUp", "tearDown", "setup_class", "assertEqual", "run", "__init__", "subTest", "failIf"],
)
def test_a_new_member_the_runner_calls_is_drift_in_an_existing_class(name: str) -> None:
    head = BASE.replace(_MEMBER_AT, f"{_MEMBER_AT}\n    def {name}(self, *a):\n        pass\n")
    assert "added to a class that exists at base" in drift_of(BASE, head)
