"""A new Python test that patches a module attribute and puts the saved
original back in a `finally` of its own is a new test
(gate.drift.python.restores); each hostile twin of it (another value put
back, the restore outside the `finally` or in another test, a second
store after the `finally`, the original read after the store) still
changes what the file's other tests see."""

from __future__ import annotations

import pytest

from gate.drift import CASE, COLLECTION
from gate.drift.python.units import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = "import clamp_kit\nimport os\n\n\ndef test_reads():\n    assert clamp_kit.clamp(5) == 5\n"
TARGETS = ["clamp_kit.LIMIT", "clamp_kit.config.strict", "os.sep"]
BEFORE = "original = {p}\n{p} = 9\ntry:\n    assert run()\nfinally:\n{restore}\n"
INSIDE = "original = {p}\ntry:\n    {p} = 9\n    assert run()\nfinally:\n{restore}\n"
RESTORES = [
    "    {p} = original",
    "    # put it back\n    {p} = original",
    "    {p} = original\n    cleanup()",
]
FORMS = ["def test_patches():\n{body}", "async def test_patches(tmp_path):\n{body}"]


def _head(body: str, form: str = FORMS[0]) -> str:
    indented = "".join(f"    {line}\n" if line else "\n" for line in body.splitlines())
    return f"{BASE}\n\n{form.format(body=indented)}"


def _new_roles(head: str) -> dict[str, str]:
    before = {u.key for u in units(BASE)}
    return {u.key: u.role for u in units(head) if u.key not in before}


RESTORED = [
    shape.format(p=p, restore=restore.format(p=p))
    for p in TARGETS
    for shape in (BEFORE, INSIDE)
    for restore in RESTORES
]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("body", RESTORED)
def test_a_store_put_back_in_the_tests_own_finally_is_a_new_test(body: str, form: str) -> None:
    assert list(_new_roles(_head(body, form)).values()) == [CASE], body


def _store_of(body: str) -> str:
    return next(p for p in TARGETS if f"{p} = 9" in body)


def _without_store(body: str) -> tuple[str, str]:
    line = f"{_store_of(body)} = 9"
    return "\n".join(x for x in body.splitlines() if x.strip() != line), line


def _read_after(body: str) -> str:
    stripped, line = _without_store(body)
    saved = stripped.splitlines()[0]
    rest = "\n".join(stripped.splitlines()[1:])
    return f"{line}\n{saved}\n{rest}"


TWINS = {
    "another value put back": lambda b: b.replace("= original", "= 3", 1),
    "the original bound twice": lambda b: b.replace("try:", "original = 3\ntry:", 1),
    "the original bound in a loop": lambda b: "for original in [1]:\n    pass\n" + b,
    "the restore after the `finally`": lambda b: b.replace("finally:", "finally:\n    pass\nif 1:"),
    "the restore in an `except`": lambda b: b.replace("finally:", "except Exception:"),
    "a second store after the `finally`": lambda b: f"{b}{_store_of(b)} = 4\n",
    "the original read after the store": _read_after,
    "a call that may raise between store and try": lambda b: _without_store(b)[0].replace(
        "try:", f"{_without_store(b)[1]}\nset_up()\ntry:", 1
    ),
    "the store in a nested function": lambda b: _without_store(b)[0].replace(
        "try:", f"try:\n    def later():\n        {_store_of(b)} = 9\n    later()", 1
    ),
    "a second restore of another value": lambda b: b.replace(
        "= original", f"= original\n    {_store_of(b)} = other", 1
    ),
    "something before the restore": lambda b: b.replace("finally:", "finally:\n    cleanup()", 1),
    "an added-to store": lambda b: b.replace(" = 9", " += 9", 1),
    "a generator test": lambda b: b.replace("assert run()", "yield run()", 1),
    "the original made global": lambda b: "global original\n" + b,
}


@pytest.mark.parametrize("twin", sorted(TWINS))
@pytest.mark.parametrize("body", RESTORED[:: len(RESTORES)])
def test_each_hostile_twin_still_changes_what_other_tests_see(body: str, twin: str) -> None:
    bent = TWINS[twin](body)
    assert bent != body, twin
    assert list(_new_roles(_head(bent)).values()) == [COLLECTION], bent


# The store made by a call out of sight (`dspy.configure_cache(...)`): the
# restore is the code's one store of the path, putting back what it read.
CALLED = [
    shape.format(p=p, restore=RESTORES[0].format(p=p))
    for p in TARGETS
    for shape in (
        "original = {p}\nconfigure(9)\ntry:\n    assert run()\nfinally:\n{restore}\n",
        "original = {p}\ntry:\n    configure(9)\n    assert run()\nfinally:\n{restore}\n",
    )
]
CALLED_TWINS = {
    "another value put back": lambda b, p: b.replace("= original", "= 3", 1),
    "the original bound twice": lambda b, p: b.replace("try:", "original = 3\ntry:", 1),
    "the restore in an `except`": lambda b, p: b.replace("finally:", "except Exception:"),
    "a store after the `finally`": lambda b, p: f"{b}{p} = 4\n",
    "a store before the read": lambda b, p: f"{p} = 4\n{b}",
    "something before the restore": lambda b, p: b.replace("finally:", "finally:\n    f()", 1),
    "a generator test": lambda b, p: b.replace("assert run()", "yield run()", 1),
    "the original read after the try": lambda b, p: b.replace(f"original = {p}\n", "", 1).replace(
        "finally:", f"finally:\n    original = {p}", 1
    ),
}


@pytest.mark.parametrize("body", CALLED)
def test_a_restore_of_a_store_made_by_a_call_is_a_new_test(body: str) -> None:
    assert list(_new_roles(_head(body)).values()) == [CASE], body


@pytest.mark.parametrize("twin", sorted(CALLED_TWINS))
@pytest.mark.parametrize("body", CALLED)
def test_each_twin_of_a_restore_after_a_call_still_shares(body: str, twin: str) -> None:
    path = next(p for p in TARGETS if body.startswith(f"original = {p}\n"))
    bent = CALLED_TWINS[twin](body, path)
    assert bent != body, twin
    assert list(_new_roles(_head(bent)).values()) == [COLLECTION], bent


def test_the_restore_in_another_test_shares_the_patched_value() -> None:
    head = (
        f"{BASE}\n\noriginal = clamp_kit.LIMIT\n\n\n"
        "def test_patches():\n    clamp_kit.LIMIT = 9\n    assert run()\n\n\n"
        "def test_restores():\n    try:\n        pass\n"
        "    finally:\n        clamp_kit.LIMIT = original\n"
    )
    roles = _new_roles(head)
    assert roles["function test_patches"] == COLLECTION, roles


def test_the_rule_passes_a_restored_patch_and_fails_its_twin(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: the restored patch passes; the
    same test with the restore moved to an `except` fails."""
    path = "tests/test_kit.py"
    rubric_repo.write_many({path: BASE})
    base = rubric_repo.commit("base")
    rubric_repo.write(path, _head(RESTORED[0]))
    good = rubric_repo.commit("restored")
    rubric_repo.write(path, _head(TWINS["the restore in an `except`"](RESTORED[0])))
    bent = rubric_repo.commit("not restored")
    code, message = rubric_repo.check(base, good, rubric=DRIFT_RUBRIC).code_and_message()
    assert code == 0 and "1 new test added" in message, message
    code, message = rubric_repo.check(base, bent, rubric=DRIFT_RUBRIC).code_and_message()
    assert code == 1 and "changes what other tests see" in message, message
