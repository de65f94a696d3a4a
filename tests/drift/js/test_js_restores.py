"""A new JS/TS test that patches a global or a module member and puts the
saved original back in a `finally` of its own is a new test
(gate.drift.js.restores); each hostile twin of it (another value put
back, the restore outside the `finally` or in another test, a second
store after the `finally`, the original read after the store) still
changes what the file's other tests see."""

from __future__ import annotations

from pathlib import Path

import pytest

from gate.drift import CASE, COLLECTION
from gate.drift.js import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = (
    "import * as mod from '../src/m.js';\n\n"
    "describe('lib', () => {\n"
    "  it('reads', () => {\n    expect(mod.f()).toBe(1);\n  });\n"
    "});\n"
)
# What is patched, as the store spells it and as the saved read spells it.
TARGETS = [
    ("(process as any).cwd", "process.cwd"),
    ("process.cwd", "process.cwd"),
    ("globalThis.fetch", "globalThis.fetch"),
    ("mod.f", "mod.f"),
    ("(mod as any).f", "(mod as Record<string, unknown>).f"),
    ("process.env.HOME", "process.env.HOME"),
]
# Where the store stands: the statement right before the `try`, or in its block.
FINALLY = "}} finally {{\n{restore}\n}}"
BEFORE = "const original = {read};\n{store} = () => 2;\ntry {{\n  {use}\n" + FINALLY
INSIDE = "const original = {read};\ntry {{\n  {store} = () => 2;\n  {use}\n" + FINALLY
# The `finally` body: the restore alone, after a comment, or before other code.
RESTORES = [
    "  {store} = original;",
    "  // put it back\n  {store} = original;",
    "  {store} = original;\n  spy.mockRestore();",
]
FORMS = [
    "  it('patches', async () => {{\n{body}\n  }});\n",
    "  test('patches', function () {{\n{body}\n  }});\n",
]


def _head(body: str, form: str = FORMS[0]) -> str:
    indented = "\n".join(f"    {line}" for line in body.splitlines())
    return BASE.replace("});\n", "});\n" + form.format(body=indented), 1)


def _new_roles(base: str, head: str) -> dict[str, str]:
    before = {u.key for u in units(base, ".ts")}
    return {u.key: u.role for u in units(head, ".ts") if u.key not in before}


def _bodies() -> list[str]:
    out = []
    for store, read in TARGETS:
        for shape in (BEFORE, INSIDE):
            for restore in RESTORES:
                out.append(
                    shape.format(
                        read=read,
                        store=store,
                        use="expect(run()).toBe(2);",
                        restore=restore.format(store=store),
                    )
                )
    return out


RESTORED = _bodies()


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("body", RESTORED)
def test_a_store_put_back_in_the_tests_own_finally_is_a_new_test(body: str, form: str) -> None:
    assert list(_new_roles(BASE, _head(body, form)).values()) == [CASE], body


# Each hostile twin: a rewrite of a restored body that lets the patched
# value reach another test.
TWINS = {
    "another value put back": lambda b: b.replace("= original;", "= () => 3;", 1),
    "a `let` original, rebindable": lambda b: b.replace("const original", "let original"),
    "the restore after the `finally`": lambda b: b.replace("} finally {", "} finally {}\n{"),
    "the restore outside any `finally`": lambda b: b.replace("} finally {", "} catch (e) {"),
    "a second store after the `finally`": lambda b: f"{b}\n{_store_of(b)} = () => 4;",
    "the original read after the store": lambda b: _read_after(b),
    "a call that may throw between store and try": lambda b: _between(b),
    "the store in a callback inside the try": lambda b: _in_callback(b),
    "a second restore of another value": lambda b: b.replace(
        "= original;", "= original;\n  " + _store_of(b) + " = other;", 1
    ),
    "something before the restore in the finally": lambda b: b.replace(
        "} finally {", "} finally {\n  cleanup();", 1
    ),
    "an added-to store": lambda b: b.replace(" = () => 2;", " += 'x';", 1),
}


def _store_of(body: str) -> str:
    for store, _ in TARGETS:
        if f"{store} = () => 2;" in body:
            return store
    raise AssertionError(body)


def _read_after(body: str) -> str:
    store = _store_of(body)
    lines = body.splitlines()
    saved = lines.pop(0)
    at = next(i for i, line in enumerate(lines) if f"{store} = () => 2;" in line)
    lines.insert(at + 1, saved.strip())
    return "\n".join(lines)


def _without_store(body: str) -> tuple[str, str]:
    line = f"{_store_of(body)} = () => 2;"
    return "\n".join(x for x in body.splitlines() if x.strip() != line), line


def _between(body: str) -> str:
    stripped, line = _without_store(body)
    return stripped.replace("\ntry {", f"\n{line}\nsetUp();\ntry {{", 1)


def _in_callback(body: str) -> str:
    stripped, line = _without_store(body)
    return stripped.replace("try {", f"try {{\n  later(() => {{ {line} }});", 1)


@pytest.mark.parametrize("twin", sorted(TWINS))
@pytest.mark.parametrize("body", RESTORED[:: len(RESTORES)])
def test_each_hostile_twin_still_changes_what_other_tests_see(body: str, twin: str) -> None:
    bent = TWINS[twin](body)
    assert bent != body, twin
    assert list(_new_roles(BASE, _head(bent)).values()) == [COLLECTION], bent


def test_the_restore_in_another_test_shares_the_patched_value() -> None:
    store = "process.cwd"
    patch = f"const original = {store};\n{store} = () => '/root';"
    head = _head(patch) + (
        f"it('restores', () => {{\n  try {{ run(); }} finally {{ {store} = original; }}\n}});\n"
    )
    roles = _new_roles(BASE, head)
    assert roles["it lib > patches"] == COLLECTION, roles


def test_a_file_that_runs_tests_concurrently_is_never_restored() -> None:
    body = RESTORED[0]
    head = _head(body).replace("  it('reads'", "  it.concurrent('reads'")
    base = BASE.replace("  it('reads'", "  it.concurrent('reads'")
    assert list(_new_roles(base, head).values()) == [COLLECTION], head


def test_the_rule_passes_a_restored_patch_and_fails_its_twin(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository (the shape of modelcontextprotocol/
    servers 618cf486): the restored patch passes; the same test with the
    restore taken out of the `finally` fails."""
    path = "src/__tests__/lib.test.ts"
    rubric_repo.write_many({path: BASE, "package.json": "{}\n"})
    base = rubric_repo.commit("base")
    body = RESTORED[0]
    rubric_repo.write(path, _head(body))
    good = rubric_repo.commit("restored")
    rubric_repo.write(path, _head(TWINS["the restore outside any `finally`"](body)))
    bent = rubric_repo.commit("not restored")
    assert Path(rubric_repo.root / path).exists()
    code, message = rubric_repo.check(base, good, rubric=DRIFT_RUBRIC).code_and_message()
    assert code == 0 and "1 new test added" in message, message
    code, message = rubric_repo.check(good, bent, rubric=DRIFT_RUBRIC).code_and_message()
    assert code == 1 and "patches changed" in message, message
    code, message = rubric_repo.check(base, bent, rubric=DRIFT_RUBRIC).code_and_message()
    assert code == 1 and "changes what other tests see" in message, message
