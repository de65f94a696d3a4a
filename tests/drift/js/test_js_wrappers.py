"""A top-level call of the file's own test wrapper, a function whose body
only registers a test passing its arguments through (the shape of
modelcontextprotocol/typescript-sdk's `verifies(id, fn)`), is a new test
case (gate.drift.js.wrappers); each hostile twin (a wrapper that does
more, skips, focuses or reorders, one that is rebound, a call with
another number of arguments or a callback that shares state) is still
collection-time code, and an edited wrapper is a change."""

from __future__ import annotations

import pytest

from gate.drift import CASE, COLLECTION, compare
from gate.drift.js import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

HEADER = "import { it, test, expect } from 'vitest';\nimport { run } from '../src/run.js';\n\n"
WRAPPERS = {
    "function": "function verifies(id, fn) {\n  it(id, fn);\n}\n",
    "typed function": "function verifies(id: string, fn: () => Promise<void>): void {\n"
    "  test(id, fn);\n}\n",
    "arrow expression": "const verifies = (id, fn) => it(id, fn);\n",
    "arrow block": "const verifies = (id: string, fn: () => void) => {\n  it(id, fn);\n};\n",
    "function expression": "const verifies = function (id, fn) {\n  it(id, fn, 15_000);\n};\n",
}
CALL = "verifies('{title}', async () => {{\n  expect(await run('{title}')).toBe(1);\n}});\n"


def _file(wrapper: str, *titles: str, call: str = CALL) -> str:
    return HEADER + wrapper + "\n" + "".join(call.format(title=t) for t in titles)


def _new_roles(base: str, head: str) -> dict[str, str]:
    before = {u.key for u in units(base, ".ts")}
    return {u.key: u.role for u in units(head, ".ts") if u.key not in before}


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
def test_a_call_of_the_files_test_wrapper_is_a_new_case(wrapper: str) -> None:
    base = _file(WRAPPERS[wrapper], "a")
    head = _file(WRAPPERS[wrapper], "a", "b")
    assert _new_roles(base, head) == {"verifies b": CASE}
    assert compare(units(base, ".ts"), units(head, ".ts")).ok


# Wrappers that do more than register one test with the arguments passed through.
BENT_WRAPPERS = {
    "a skip": "function verifies(id, fn) {\n  it.skip(id, fn);\n}\n",
    "a focus": "function verifies(id, fn) {\n  it.only(id, fn);\n}\n",
    "a table": "function verifies(id, fn) {\n  it.each([1])(id, fn);\n}\n",
    "a second statement": "function verifies(id, fn) {\n  globalThis.n = id;\n  it(id, fn);\n}\n",
    "arguments reordered": "function verifies(fn, id) {\n  it(id, fn);\n}\n",
    "another argument": "function verifies(id, fn) {\n  it(id, () => fn(globalThis));\n}\n",
    "a default": "function verifies(id, fn = () => {}) {\n  it(id, fn);\n}\n",
    "a rest parameter": "function verifies(...args) {\n  it(...args);\n}\n",
    "a wrapper bound by let": "let verifies = (id, fn) => it(id, fn);\n",
    "a wrapper rebound": "function verifies(id, fn) {\n  it(id, fn);\n}\nverifies = run;\n",
    "a wrapper of no runner": "function verifies(id, fn) {\n  run(id, fn);\n}\n",
    "a wrapper in a block": "{\n  function verifies(id, fn) {\n    it(id, fn);\n  }\n}\n",
}
BENT_CALLS = {
    "fewer arguments": "verifies('{title}');\n",
    "more arguments": "verifies('{title}', async () => {{}}, 99);\n",
    "a callback that shares state": "verifies('{title}', () => {{\n  globalThis.x = 1;\n}});\n",
    "a title that runs code": "verifies(run('{title}'), async () => {{}});\n",
}


@pytest.mark.parametrize("bent", sorted(BENT_WRAPPERS))
def test_a_wrapper_that_does_more_keeps_its_calls_collection_time_code(bent: str) -> None:
    base = _file(BENT_WRAPPERS[bent])
    head = _file(BENT_WRAPPERS[bent], "b")
    roles = _new_roles(base, head)
    assert list(roles.values()) == [COLLECTION], (bent, roles)


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("bent", sorted(BENT_CALLS))
def test_a_call_that_does_more_is_still_collection_time_code(wrapper: str, bent: str) -> None:
    base = _file(WRAPPERS[wrapper], "a")
    head = base + BENT_CALLS[bent].format(title="b")
    roles = _new_roles(base, head)
    assert list(roles.values()) == [COLLECTION], (bent, roles)


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
def test_an_edited_wrapper_changes_the_tests(wrapper: str) -> None:
    base = _file(WRAPPERS[wrapper], "a")
    before, _, after = base.rpartition("(id, fn")  # the registered call's arguments
    head = f"{before}(id + '!', fn{after}"
    assert head != base
    found = compare(units(base, ".ts"), units(head, ".ts"))
    assert not found.ok, found.summary()


def test_the_rule_passes_a_new_wrapped_case_and_fails_a_bent_wrapper(
    rubric_repo: RubricRepo,
) -> None:
    path = "test/e2e/lifecycle.test.ts"
    wrapper = WRAPPERS["typed function"]
    rubric_repo.write_many({path: _file(wrapper, "a"), "package.json": "{}\n"})
    base = rubric_repo.commit("base")
    rubric_repo.write(path, _file(wrapper, "a", "b"))
    good = rubric_repo.commit("a wrapped case")
    rubric_repo.write(path, _file(wrapper.replace("test(id", "test.skip(id"), "a", "b"))
    bent = rubric_repo.commit("the wrapper skips")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (good, bent)
    )
    message, bent_message = result["message"], bent_result["message"]
    assert code == 0 and "1 new test added" in message, message
    assert bent_code == 1 and "verifies changed" in bent_message, bent_message
