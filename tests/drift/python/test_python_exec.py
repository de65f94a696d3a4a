"""`exec`/`eval` into a namespace the function makes and keeps writes into
that dict alone: a new test (or its helper) doing so shares nothing; every
twin whose namespace is shared (none given, `globals()`, a module-level
dict, `vars(mod)`, `mod.__dict__`, a parameter, a dict handed elsewhere or
rebound) or whose code in view writes into shared state still changes what
other tests see (`gate.drift.python.namespaces.own_exec`)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift import compare
from gate.drift.python.units import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = (
    "import textwrap\n\nimport clamp_kit as kit\n\nNS = {}\n\n\n"
    "def test_old():\n    assert kit.clamp(1) == 1\n"
)

# Namespaces made in the function: (setup lines, the expression handed to exec).
FRESH = {
    "a literal": ([], "{}"),
    "a literal with builtins": ([], '{"__builtins__": {}}'),
    "dict()": ([], "dict()"),
    "a name bound to a literal": (["ns = {}"], "ns"),
    "a name bound to dict()": (["ns = dict(__name__='x')"], "ns"),
    "an annotated name": (["ns: dict[str, object] = {}"], "ns"),
    "a name filled first": (["ns = {}", "ns['__name__'] = 'sample'"], "ns"),
    "a name updated first": (["ns = {}", "ns.update({'a': 1})"], "ns"),
}
# Namespaces other code shares.
SHARED = {
    "none": ([], None),
    "globals()": ([], "globals()"),
    "a module-level dict": ([], "NS"),
    "vars of a module": ([], "vars(kit)"),
    "a module's __dict__": ([], "kit.__dict__"),
    "a name bound to a module dict": (["ns = NS"], "ns"),
    "a fresh dict handed elsewhere": (["ns = {}", "kit.REGISTRY.append(ns)"], "ns"),
    "a fresh dict stored elsewhere": (["ns = {}", "kit.NS = ns"], "ns"),
    "a fresh dict rebound in a loop": (["ns = {}", "for ns in kit.SPACES:\n    pass"], "ns"),
    "a fresh dict rebound": (["ns = {}", "ns = kit.SPACE"], "ns"),
    "a dict unpacking globals": ([], "{**globals()}"),
}
# The code the exec runs: opaque (from elsewhere) or in view and harmless.
CODE_OK = {
    "a variable": "source",
    "compile of a variable": "compile(source, 'sample.py', 'exec')",
    "a literal": "'x = 1'",
    "a literal star import": "'from clamp_kit import *'",
    "a dedented literal": "textwrap.dedent('''\n    def f():\n        return 1\n    ''')",
}
# Code in view that writes into shared state, or built from strings in view.
CODE_BAD = {
    "a store into a module": "'import clamp_kit\\nclamp_kit.LIMIT = 9'",
    "os.environ": '\'import os\\nos.environ["X"] = "1"\'',
    "compile of such a literal": "compile('import clamp_kit; clamp_kit.LIMIT = 9', 'x', 'exec')",
    "an f-string": "f'import clamp_kit; clamp_kit.LIMIT = {9}'",
    "concatenated strings": "'import clamp_kit; ' + 'clamp_kit.LIMIT = 9'",
    "a formatted string": "'import clamp_kit; clamp_kit.LIMIT = {}'.format(9)",
}


def _test(setup: list[str], space: str | None, code: str, call: str = "exec") -> str:
    lines = [*setup, "source = kit.sample()"]
    args = code if space is None else f"{code}, {space}"
    lines.append(f"{call}({args})")
    body = textwrap.indent("\n".join(lines), "    ")
    return BASE + "\n\ndef test_new():\n" + body + "\n"


def _ok(head: str) -> bool:
    return compare(units(BASE), units(head)).ok


@given(space=st.sampled_from(sorted(FRESH)), code=st.sampled_from(sorted(CODE_OK)))
@settings(max_examples=40, deadline=None)
def test_exec_into_a_dict_of_the_function_shares_nothing(space: str, code: str) -> None:
    setup, expr = FRESH[space]
    head = _test(setup, expr, CODE_OK[code])
    assert _ok(head), head


@given(space=st.sampled_from(sorted(SHARED)), code=st.sampled_from(sorted(CODE_OK)))
@settings(max_examples=40, deadline=None)
def test_exec_into_a_shared_namespace_changes_what_other_tests_see(space: str, code: str) -> None:
    setup, expr = SHARED[space]
    head = _test(setup, expr, CODE_OK[code])
    assert not _ok(head), head


@given(space=st.sampled_from(sorted(FRESH)), code=st.sampled_from(sorted(CODE_BAD)))
@settings(max_examples=40, deadline=None)
def test_code_in_view_that_shares_state_shares_it_from_a_fresh_dict_too(
    space: str, code: str
) -> None:
    setup, expr = FRESH[space]
    head = _test(setup, expr, CODE_BAD[code])
    assert not _ok(head), head


@pytest.mark.parametrize(
    ("call", "want"),
    [
        ("eval(expression, {'ctx': 1})", True),
        ("eval('ctx + 1', {'ctx': 1})", True),
        ("exec(source, {}, None)", True),
        ("exec(source, globals={})", True),
        ("exec(source, {}, locals())", False),
        ("exec(source, {}, NS)", False),
        ("exec(source, None, {})", False),
        ("eval(expression)", False),
        ("eval('setattr(kit, \"LIMIT\", 9)', {'kit': kit})", False),
        ("exec(source, **kit.SPACES)", False),
    ],
)
def test_eval_and_the_locals_argument(call: str, want: bool) -> None:
    body = f"    source = expression = kit.sample()\n    {call}\n"
    head = BASE + "\n\ndef test_new():\n" + body
    assert _ok(head) is want, call


def test_a_helper_of_the_test_that_execs_into_its_own_dict_shares_nothing() -> None:
    helper = (
        "\n\ndef _run(source):\n    namespace = {}\n"
        "    exec(compile(source, 'x.py', 'exec'), namespace, namespace)\n"
        "    return namespace['main']\n"
    )
    head = BASE + helper + "\n\ndef test_new():\n    assert _run(kit.sample())()\n"
    assert _ok(head)
    # the namespace a parameter: the caller's, maybe the module's
    bent = head.replace("def _run(source):\n    namespace = {}", "def _run(source, namespace):")
    bent = bent.replace("_run(kit.sample())", "_run(kit.sample(), globals())")
    assert not _ok(bent)
    # a nested function's dict is not the outer function's
    nested = (
        "\n\ndef test_new():\n    ns = NS\n\n    def inner():\n        exec(kit.sample(), ns)\n"
        "\n    inner()\n"
    )
    assert not _ok(BASE + nested)


def test_the_rule_passes_a_new_test_that_execs_into_a_fresh_dict(rubric_repo: RubricRepo) -> None:
    rubric_repo.write_many({"tests/test_kit.py": BASE})
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/test_kit.py", _test(["ns = {}"], "ns", "source"))
    fresh = rubric_repo.commit("fresh")
    rubric_repo.write("tests/test_kit.py", _test([], "globals()", "source"))
    shared = rubric_repo.commit("shared")
    (fresh_code, fresh_result), (shared_code, shared_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (fresh, shared)
    )
    assert fresh_code == 0 and fresh_result["pass"], fresh_result
    assert shared_code == 1 and "test_new runs at collection" in shared_result["message"]
    assert Path(rubric_repo.root / "tests/test_kit.py").exists()
