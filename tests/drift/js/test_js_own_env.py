"""A new Jest test file has a `process.env` of its own: Jest's test
environment, made anew for each test file, installs a copy of `process`
whose `env` is a fresh copy of the real one (jest-util
`createProcessObject`/`createProcessEnv`).  So a new Jest file whose only
writes outside itself go into `process.env` reaches no other file's tests
(gate.drift.js.own_env, gate.drift.js.escapes.Escapes with `env`); under
Vitest, Mocha or node:test, and for any other write, it still does."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import reaching
from gate.drift.js import own_env, units

# How a file says it runs under Jest.
JEST = [
    ("import { describe, it, beforeEach, afterAll, expect, jest } from '@jest/globals';", ".ts"),
    ("const mockCreate = jest.fn();", ".ts"),  # Jest's global, as mem0's tests read it
    ("jest.mock('openai');\nconst { helper } = require('./helper');", ".js"),
]
# How a file says it runs under a runner that shares `process.env` between files.
SHARED = [
    ("import { describe, it, beforeEach, afterAll, expect, vi } from 'vitest';", ".ts"),
    ("import { describe, it, beforeEach, afterAll } from 'mocha';", ".ts"),
    ("const { describe, it, beforeEach, afterAll } = require('node:test');", ".js"),
    ("", ".ts"),  # globals alone: which runner is unknown
]
# Writes into `process.env` alone.
ENV_WRITES = [
    "process.env.HUGGINGFACE_BASE_URL = 'http://env-host:8080/v1';",
    "process.env['BENT'] = '1';",
    "process.env.BENT += 'x';",
    "delete process.env.HUGGINGFACE_BASE_URL;",
    "process.env = { ...OLD_ENV };",
    "process.env = OLD_ENV;",
    "Object.assign(process.env, { BENT: '1' });",
    "(process.env as any).BENT = '1';",
]
# Where such a write stands in the new file.
PLACES = [
    "{code}\nit('a', () => {{}});",
    "beforeEach(() => {{ {code} }});\nit('a', () => {{}});",
    "describe('d', () => {{\n  const OLD_ENV = process.env;\n"
    "  beforeEach(() => {{ {code} }});\n  afterAll(() => {{ process.env = OLD_ENV; }});\n"
    "  it('a', () => {{}});\n}});",
    "describe('d', () => {{\n  {code}\n  it('a', () => {{}});\n}});",
    "describe('d', () => {{\n  it('a', () => {{ {code} }});\n}});",
    "function setEnv() {{ {code} }}\nit('a', () => {{ setEnv(); }});",
    "function setEnv() {{ {code} }}\nsetEnv();\nit('a', () => {{}});",
]
# Writes outside the file other than into `process.env`: they reach the
# others under every runner.
OTHER_WRITES = [
    "process.chdir('/');",
    "process.exitCode = 1;",
    "process['env'].BENT = '1';",  # not spelled `process.env`: not judged
    "const e = process.env; e.BENT = '1';",  # an alias of it
    "const { env } = process; env.BENT = '1';",
    "globalThis.bent = 1;",
    "Object.assign(globalThis, { bent: 1 });",
    "helper.bent = 1;",  # a module other files import
    "String.prototype.trim = () => '';",
]


def _file(header: str, body: str, suffix: str) -> str:
    olds = "" if "OLD_ENV = process.env" in body else "const OLD_ENV = { ...process.env };\n"
    helper = "" if suffix == ".js" else "import { helper } from './helper';\n"
    return f"{header}\n{helper}{olds}{body}\n"


@pytest.mark.parametrize(
    ("runner", "code", "place"),
    list(itertools.product(JEST, ENV_WRITES, PLACES)),
    ids=lambda x: str(x)[:30],
)
def test_a_new_jest_files_writes_into_process_env_reach_no_other_file(
    runner: tuple[str, str], code: str, place: str
) -> None:
    header, suffix = runner
    if suffix == ".js" and " as any" in code:
        code = code.replace(" as any", "")
    found = units(_file(header, place.format(code=code), suffix), suffix)
    assert own_env(f"test/new{suffix}", found)
    assert reaching(f"test/new{suffix}", found) == (), [(u.name, u.env_local) for u in found]


# Hostile twins: the same writes under a runner that shares `process.env`,
@pytest.mark.parametrize(
    ("runner", "code", "place"),
    list(itertools.product(SHARED, ENV_WRITES[:1] + ENV_WRITES[3:5], PLACES)),
    ids=lambda x: str(x)[:30],
)
def test_the_same_writes_under_another_runner_still_reach_the_others(
    runner: tuple[str, str], code: str, place: str
) -> None:
    header, suffix = runner
    found = units(_file(header, place.format(code=code), suffix), suffix)
    assert not own_env(f"test/new{suffix}", found)
    assert reaching(f"test/new{suffix}", found)


# ... and other writes outside the file beside them under Jest,
@pytest.mark.parametrize(
    ("runner", "code", "place"),
    list(itertools.product(JEST, OTHER_WRITES, PLACES)),
    ids=lambda x: str(x)[:30],
)
def test_any_other_write_outside_a_new_jest_file_still_reaches_the_others(
    runner: tuple[str, str], code: str, place: str
) -> None:
    header, suffix = runner
    body = place.format(code=f"process.env.BENT = '1'; {code}")
    if "{ helper }" in header or suffix == ".ts" or "helper." not in code:
        found = units(_file(header, body, suffix), suffix)
        assert reaching(f"test/new{suffix}", found), [(u.name, u.env_local) for u in found]


# ... and the new Jest file loaded by another file of the change, or not
# known to be Jest's.
@pytest.mark.parametrize(
    "others",
    [
        None,
        ["import { x } from './new.test';"],
        ["const m = require('../test/new.test.ts');"],
    ],
)
def test_a_new_jest_file_another_file_loads_shares_its_env(others: list[str] | None) -> None:
    text = _file(
        JEST[0][0], "beforeEach(() => { process.env.BENT = '1'; });\nit('a', () => {});", ".ts"
    )
    found = units(text, ".ts")
    assert reaching("test/new.test.ts", found, []) == ()
    assert "beforeEach" in [u.name for u in reaching("test/new.test.ts", found, others)]


@pytest.mark.parametrize(
    ("header", "own"),
    [
        # Jest's runtime hands the environment's copy of `process` to an import of it
        ("import process from 'node:process';\njest.fn();", True),
        ("import { vi } from 'vitest';\njest.fn();", False),  # Vitest's, reading `jest` too
        ("const jest = makeJest();\njest.fn();", False),  # the file's own `jest`
        ("import { describe } from 'mocha';\njest.fn();", False),
    ],
)
def test_a_file_not_surely_jests_shares_its_env(header: str, own: bool) -> None:
    body = "beforeEach(() => { process.env.BENT = '1'; });\nit('a', () => {});"
    found = units(_file(header, body, ".ts"), ".ts")
    assert own_env("test/new.test.ts", found) is own
    assert ("beforeEach" in [u.name for u in reaching("test/new.test.ts", found)]) is not own
