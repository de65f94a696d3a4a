"""A new describe block in an existing JS/TS test file whose hooks,
declarations and tests keep to the block (gate.drift.js.blocks) adds new
cases only; the same block bent to reach the file's other tests is drift.

The shapes are those of real history: modelcontextprotocol/typescript-sdk
and openai/openai-agents-js add a `describe` to an existing Vitest file
whose `beforeEach` turns on fake timers that its `afterEach` turns off, or
fills the block's own `let`."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from gate.drift import compare
from gate.drift.js import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = """import { describe, it, expect, vi } from 'vitest';
import { beforeEach, afterEach, beforeAll, afterAll } from 'vitest';
import { config, Server } from './config';

let count = 0;

describe('old', () => {
  it('works', () => {
    count += 1;
    expect(config.mode).toBe('strict');
  });
});
"""

# New blocks that keep to themselves.
BLOCKS = {
    "fake timers turned off again": """describe('timeouts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  it('fires', () => {
    vi.advanceTimersByTime(100);
    expect(true).toBe(true);
  });
});
""",
    "a let the beforeEach fills": """describe('server', () => {
  let server: Server;
  let seen: string[];
  beforeEach(async () => {
    seen = [];
    server = new Server({ onRequest: (r: string) => seen.push(r) });
    await server.start();
  });
  afterEach(async () => {
    await server.close();
  });
  it('records', () => {
    expect(seen).toEqual([]);
  });
});
""",
    "a let the beforeAll fills, read by tests": """describe('once', () => {
  let value: number;
  beforeAll(() => {
    value = 42;
  });
  it('reads', () => {
    expect(value).toBe(42);
  });
});
""",
    "system time with the timers restored in afterAll": """describe('clock', () => {
  beforeAll(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(2020, 0, 1));
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  it('is 2020', () => {
    expect(new Date().getFullYear()).toBe(2020);
  });
});
""",
    "tests filling the block's let": """describe('dirs', () => {
  let dir = '';
  it('makes', () => {
    dir = 'a';
    expect(dir).toBe('a');
  });
  it('makes again', () => {
    dir = 'b';
    expect(dir).toBe('b');
  });
});
""",
    "a nested block filling the outer new block's let": """describe('outer', () => {
  let hits: number;
  describe('inner', () => {
    beforeEach(() => {
      hits = 0;
    });
    it('counts', () => {
      hits++;
      expect(hits).toBe(1);
    });
  });
});
""",
    "describe.each with its own let": """describe.each([1, 2])('size %i', (size) => {
  let made: number[];
  beforeEach(() => {
    made = new Array(size).fill(0);
  });
  it('has it', () => {
    expect(made.length).toBe(size);
  });
});
""",
    "a declaration computed by a call": """describe('computed', () => {
  const server = new Server({ port: 0 });
  it('has a port', () => {
    expect(server).toBeDefined();
  });
});
""",
    "a spy restored in the afterEach": """describe('spied', () => {
  let load: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    load = vi.spyOn(config, 'load').mockReturnValue('cached');
  });
  afterEach(() => {
    load.mockRestore();
  });
  it('uses the cache', () => {
    expect(config.load()).toBe('cached');
  });
});
""",
    "Mocha's suite with before and after": """suite('mocha style', () => {
  let conn: Server;
  before(() => {
    conn = new Server({});
  });
  after(() => {
    conn.close();
  });
  it('is open', () => {
    expect(conn).toBeDefined();
  });
});
""",
}

_BEFORE = re.compile(r"(before(?:Each|All)?\((?:async )?\(\) => \{\n)")


def _in_before(code: str) -> Callable[[str], str]:
    return lambda block: _BEFORE.sub(lambda m: m.group(1) + f"    {code}\n", block, count=1)


# How each block is bent to reach the file's other tests; each must fail.
TWINS: dict[str, Callable[[str], str]] = {
    "a hook writing the module's let": _in_before("count = 10;"),
    "a hook writing a global": _in_before("globalThis.flag = true;"),
    "a hook writing process.env": _in_before("process.env.MODE = 'lenient';"),
    "a hook writing an imported module": _in_before("config.mode = 'lenient';"),
    "a hook handing an imported module to Object.assign": _in_before(
        "Object.assign(config, { mode: 'lenient' });"
    ),
    "a hook calling a helper that writes the module's let": lambda b: (
        _in_before("bump();")(
            b.replace("() => {\n", "() => {\n  function bump() { count = 5; }\n", 1)
        )
        if _BEFORE.search(b)
        else b
    ),
    "fake timers never turned off": lambda b: b.replace(
        "vi.useRealTimers();", "vi.clearAllTimers();"
    ),
    "fake timers turned on in an after-hook": lambda b: b.replace(
        "vi.useRealTimers();", "vi.useFakeTimers();"
    ),
    "a spy cleared, not restored": lambda b: b.replace(".mockRestore();", ".mockClear();"),
    "a spy restored in the wrong after-hook": lambda b: b.replace(
        "afterEach(() => {\n    load.mockRestore", "afterAll(() => {\n    load.mockRestore"
    ),
    "a second spy never restored": _in_before("vi.spyOn(config, 'save');"),
    "vi.mock inside the block": lambda b: b.replace(
        "() => {\n", "() => {\n  vi.mock('./config');\n", 1
    ),
    "vi.resetModules in a hook": _in_before("vi.resetModules();"),
    "describe.only": lambda b: re.sub(r"\A(describe|suite)", r"\1.only", b),
    "it.only": lambda b: b.replace("  it('", "  it.only('", 1),
    "describe.concurrent": lambda b: re.sub(r"\A(describe|suite)(?!\.each)", r"\1.concurrent", b),
    "a test with an existing test's full title": lambda b: re.sub(
        r"\A(\w+(?:\.each\([^)]*\))?)\('[^']*'", r"\1('old'", b
    ).replace("  it('", "  it('works', () => {});\n  it('", 1),
    "the hooks at the top level": lambda b: re.sub(r"\A[^\n]*\n", "", b).rsplit("});", 1)[0],
}


def _head(block: str) -> str:
    return BASE + "\n" + block


def _drift(head: str) -> Any:
    return compare(units(BASE), units(head))


@pytest.mark.parametrize("shape", sorted(BLOCKS))
def test_a_new_block_that_keeps_to_itself_adds_new_cases_only(shape: str) -> None:
    drift = _drift(_head(BLOCKS[shape]))
    assert drift.ok, drift.summary()
    assert drift.added, drift.summary()


def _twins() -> list[tuple[str, str]]:
    found = []
    for shape, block in sorted(BLOCKS.items()):
        for twin, bend in sorted(TWINS.items()):
            if bend(block) != block:
                found.append((shape, twin))
    return found


@pytest.mark.parametrize(("shape", "twin"), _twins())
def test_each_hostile_twin_is_drift(shape: str, twin: str) -> None:
    head = _head(TWINS[twin](BLOCKS[shape]))
    units(head)  # still a file the grammar reads
    drift = _drift(head)
    assert not drift.ok, (twin, head)


def test_every_twin_bends_some_block() -> None:
    bent = {twin for _, twin in _twins()}
    assert bent == set(TWINS)


def test_a_hook_added_to_an_existing_block_is_still_drift() -> None:
    head = BASE.replace(
        "  it('works'", "  let n: number;\n  beforeEach(() => {\n    n = 1;\n  });\n  it('works'"
    )
    drift = _drift(head)
    assert any("beforeEach" in name for name, _ in drift.refused), drift.summary()


def test_a_new_block_inside_an_existing_block_keeps_to_itself() -> None:
    inner = "\n".join(
        "  " + line if line else line for line in BLOCKS["a let the beforeEach fills"].splitlines()
    )
    head = BASE.replace("  it('works'", inner + "\n  it('works'")
    drift = _drift(head)
    assert drift.ok and drift.added, drift.summary()


def test_a_new_block_writing_the_enclosing_blocks_let_is_drift() -> None:
    base = BASE.replace("describe('old', () => {\n", "describe('old', () => {\n  let shared = 1;\n")
    block = (
        "  describe('new', () => {\n    beforeAll(() => {\n      shared = 2;\n    });\n"
        "    it('x', () => {});\n  });\n"
    )
    head = base.replace("  it('works'", block + "  it('works'")
    drift = compare(units(base), units(head))
    assert not drift.ok, drift.summary()


def test_the_rule_passes_a_new_block_and_fails_its_twins(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: a new block with fake timers turned
    off again passes; the same block without the undo, and with a hook
    writing the module's `let`, fails."""
    path = "packages/core/test/timers.test.ts"
    rubric_repo.write_many({path: BASE, "package.json": "{}\n"})
    base = rubric_repo.commit("base")
    block = BLOCKS["fake timers turned off again"]
    rubric_repo.write(path, _head(block))
    good = rubric_repo.commit("new block")
    code, message = rubric_repo.check(base, good, rubric=DRIFT_RUBRIC).code_and_message()
    assert code == 0 and "1 new test added" in message, message
    for twin in (
        "fake timers never turned off",
        "a hook writing the module's let",
        "describe.only",
    ):
        rubric_repo.write(path, _head(TWINS[twin](block)))
        bent = rubric_repo.commit(twin)
        code, message = rubric_repo.check(base, bent, rubric=DRIFT_RUBRIC).code_and_message()
        assert code == 1 and "changes what other tests see" in message, (twin, message)


@pytest.mark.parametrize("spelled", ["describe", "context", "suite", "describe.each([[1]])"])
def test_each_spelling_of_a_block_keeps_to_itself(spelled: str) -> None:
    block = BLOCKS["a let the beforeEach fills"].replace("describe(", f"{spelled}(", 1)
    drift = _drift(_head(block))
    assert drift.ok and drift.added, drift.summary()
    twin = _drift(_head(TWINS["a hook writing the module's let"](block)))
    assert not twin.ok, twin.summary()


def test_skipping_an_existing_block_is_drift() -> None:
    head = _head(BLOCKS["a let the beforeEach fills"]).replace(
        "describe('old'", "describe.skip('old'"
    )
    drift = _drift(head)
    assert drift.changed == ("old",), drift.summary()
