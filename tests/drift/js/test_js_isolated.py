"""A new AVA test file's load-time code reaches no other file's tests: AVA
runs each test file in a worker of its own (gate.drift.js.isolated)."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gate.drift import reaching
from gate.drift.js import units

# How a file takes AVA as a value, and how its tests call it.
AVA = [
    ("import test from 'ava';", "test"),
    ("import anyTest from 'ava';", "anyTest"),
    ("import { serial } from 'ava';", "serial"),
    ("import { serial as s } from 'ava';", "s"),
    ("import test, { type ExecutionContext } from 'ava';", "test"),
    ("const test = require('ava');", "test"),
    ('const { serial } = require("ava");', "serial"),
]
# Code that runs when the file loads, which under Mocha would reach every file.
AT_LOAD = [
    "const SETTINGS = frame(0x4, 0x0, 0);",
    "process.env.MODE = 'lenient';",
    "setup();",
    "{f}.before(async () => {{ await start(); }});",
    "if (process.platform === 'win32') {{ patch(); }}",
]


@pytest.mark.parametrize(
    ("how", "code", "suffix"),
    [(h, c, s) for h, c, s in itertools.product(AVA, AT_LOAD, [".js", ".ts", ".mjs"])],
)
def test_load_time_code_of_a_new_ava_file_reaches_nothing(
    how: tuple[str, str], code: str, suffix: str
) -> None:
    imported, f = how
    if suffix == ".mjs" and "require" in imported:
        return
    if suffix != ".ts" and "type " in imported:
        return
    text = f"{imported}\nimport {{ frame, setup, start, patch }} from './helpers.js';\n"
    text += f"{code.format(f=f)}\n{f}('works', (t) => {{ t.pass(); }});\n"
    found = units(text, suffix)
    assert any(u.role == "collection" for u in found)
    assert reaching(f"test/new{suffix}", found) == ()


# Files whose load-time code still reaches other files' tests.
NOT_ISOLATED = [
    # no AVA: Mocha or no import at all (node:test: tests/drift/js/test_js_awaited.py)
    "import { it } from 'mocha';\nsetup();\nit('x', () => {});",
    "setup();\nit('x', () => {});",
    # AVA's types only, which load nothing, or a value import no code reads
    "import type { TestFn } from 'ava';\nsetup();\nit('x', () => {});",
    "import { type ExecutionContext } from 'ava';\nsetup();\nit('x', () => {});",
    "import { type ExecutionContext } from 'ava';\nsetup();\n"
    "export function check(t: ExecutionContext) {}",
    "import type { ExecutionContext } from 'ava';\nsetup();\n"
    "export function check(t: ExecutionContext) {}",
    "import test from 'ava';\nsetup();\nit('x', () => {});",
    # a module of another name, a side-effect import, AVA's plugins
    "import test from 'ava-fast-check';\nsetup();\ntest('x', () => {});",
    "import 'ava';\nsetup();\nit('x', () => {});",
    "import test from 'ava';\nimport { registerSharedWorker } from 'ava/plugin';\n"
    "setup();\ntest('x', (t) => {});",
    # a file whose names are unknown: a direct eval
    "import test from 'ava';\neval('setup()');\ntest('x', (t) => {});",
]


@pytest.mark.parametrize("text", NOT_ISOLATED)
def test_other_files_keep_their_load_time_code_reaching(text: str) -> None:
    found = units(text + "\n", ".ts")
    assert reaching("test/new.ts", found), [(u.name, u.role) for u in found]


HOOKS = ["before", "after", "beforeEach", "afterEach", "beforeAll", "afterAll"]


@pytest.mark.parametrize(("hook", "depth"), list(itertools.product(HOOKS, [1, 2])))
def test_a_hook_inside_a_describe_of_a_new_file_reaches_nothing(hook: str, depth: int) -> None:
    """Mocha runs a describe's hook around that describe's tests alone,
    which are new; a hook at the top level, or in a loop there, runs
    around every test of the run."""
    inner = f"{hook}(() => {{ setup(); }});\nit('x', () => {{}});"
    for n in range(depth):
        inner = f"describe('d{n}', () => {{\n{inner}\n}});"
    found = units(f"const assert = require('assert');\n{inner}\n", ".js")
    assert any(u.role == "collection" and u.name.startswith(hook) for u in found)
    assert reaching("test/new.js", found) == ()
    for outside in (f"{hook}(() => {{}});", f"for (const n of [1]) {{ {hook}(() => {{}}); }}"):
        found = units(f"const assert = require('assert');\n{inner}\n{outside}\n", ".js")
        assert [u.name.split()[0] for u in reaching("test/new.js", found)] == [hook]


@pytest.mark.parametrize(
    "other",
    [
        "import { frame } from './new.js';",
        "import './new';",
        "const { frame } = require('../test/new');",
        "const m = await import(`./new.ts`);",
        "export * from './new/index.js';",
    ],
)
def test_a_new_ava_file_another_file_loads_reaches_its_tests(other: str) -> None:
    """Another file of the change that imports the new file runs its
    load-time code in that file's worker."""
    text = "import test from 'ava';\nsetup();\ntest('x', (t) => { t.pass(); });\n"
    found = units(text, ".ts")
    assert reaching("test/new.ts", found, ["const a = 'new';", "import x from './newer.js';"]) == ()
    assert reaching("test/new.ts", found, ["// unrelated", other])


# Stores a hook's body may make that the tests of other files see after it.
HOOK_STORES = [
    "globalThis.bent = 1;",
    "process.env.BENT = '1';",
    "Object.assign(globalThis, { bent: 1 });",
]


@pytest.mark.parametrize(
    ("hook", "store", "depth"), list(itertools.product(HOOKS, HOOK_STORES, [1, 2]))
)
def test_a_hook_inside_a_describe_that_stores_outside_reaches_the_others(
    hook: str, store: str, depth: int
) -> None:
    """A describe's hook runs around that describe's tests, but what it
    stores stays for every test after it (Mocha runs every file in one
    process), as a new test's store does."""
    inner = f"{hook}(() => {{ {store} }});\nit('x', () => {{}});"
    for n in range(depth):
        inner = f"describe('d{n}', () => {{\n{inner}\n}});"
    found = units(f"const assert = require('assert');\n{inner}\n", ".js")
    assert [u.name.split()[0] for u in reaching("test/new.js", found)] == [hook]


# How a file imports hooks from a runner that makes each file a suite of its own.
FILE_SUITE_IMPORTS = [
    ("import { {hook}, test } from 'vitest';", "{hook}"),
    ("import { {hook} as h, test } from 'vitest';", "h"),
    ('import { {hook}, expect, it as test } from "@jest/globals";', "{hook}"),
    ("import { {hook}, test } from 'bun:test';", "{hook}"),
    ("import { test, expect } from '@playwright/test';", "test.{hook}"),
    # Vitest's global hook (a type import binds no value): each file its own registry
    ("import { type {hook}, test } from 'vitest';", "{hook}"),
    # node:test: `node --test` runs each file in a process of its own (its root
    # hooks span files only with --test-isolation=none: test_js_awaited.py)
    ("import { {hook}, test } from 'node:test';", "{hook}"),
]
OTHER_IMPORTS = [
    "import { {hook} } from 'mocha';",
    "import type { {hook} } from 'vitest';",  # a type import binds no value
    "",  # a global: Mocha's root hook, or Jest's; which runner is unknown
]
FILE_HOOKS = ["beforeEach", "beforeAll", "afterEach", "afterAll"]


@pytest.mark.parametrize(("how", "hook"), list(itertools.product(FILE_SUITE_IMPORTS, FILE_HOOKS)))
def test_a_top_level_hook_of_a_per_file_suite_runner_reaches_nothing_unless_it_stores(
    how: tuple[str, str], hook: str
) -> None:
    """Vitest, Jest and Bun make each test file a suite: a hook at its top
    level runs around that file's tests alone, which are new."""
    spelled, called = (part.replace("{hook}", hook) for part in how)
    body = f"{spelled}\n{called}(() => {{ reset(); }});\ntest('x', () => {{}});\n"
    found = units(body, ".ts")
    assert any(u.role == "collection" and u.name.startswith(hook) for u in found)
    assert reaching("test/new.test.ts", found, configs={}) == ()
    for store in HOOK_STORES:
        stored = body.replace("reset();", store)
        # Jest gives each file a `process.env` of its own (test_js_own_env.py)
        want = [] if "@jest/globals" in spelled and "process.env" in store else [hook]
        assert [u.name for u in reaching("test/new.test.ts", units(stored, ".ts"))] == want


@pytest.mark.parametrize(("how", "hook"), list(itertools.product(OTHER_IMPORTS, FILE_HOOKS)))
def test_a_top_level_hook_of_another_runner_reaches_the_others(how: str, hook: str) -> None:
    spelled = how.replace("{hook}", hook)
    body = f"{spelled}\n{hook}(() => {{ reset(); }});\ntest('x', () => {{}});\n"
    assert [u.name for u in reaching("test/new.test.ts", units(body, ".ts"))] == [hook]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (the CI installs nodejs)")
@pytest.mark.parametrize("store", HOOK_STORES)
def test_a_describes_hook_that_stores_turns_another_files_red_test_green(
    tmp_path: Path, store: str
) -> None:
    """What the test above refuses is real: with both files in one process
    (as Mocha runs them; here node:test's tests required by one script), the
    store of a hook inside the new file's describe reaches the old file."""
    check = "globalThis.bent === 1 || process.env.BENT === '1'"
    (tmp_path / "old.test.js").write_text(
        "const test = require('node:test');\nconst assert = require('node:assert');\n"
        f"test('existing', () => {{ assert.ok({check}); }});\n",
        encoding="utf-8",
    )
    new = (
        "const { describe, before, it } = require('node:test');\n"
        f"describe('d', () => {{\n  before(() => {{ {store} }});\n  it('x', () => {{}});\n}});\n"
    )
    (tmp_path / "new.test.js").write_text(new, encoding="utf-8")
    alone = _run(tmp_path, "require('./old.test.js')")
    both = _run(tmp_path, "require('./new.test.js'); require('./old.test.js')")
    assert (alone, both) == (1, 0)
    assert reaching("test/new.test.js", units(new, ".js"))


def _run(folder: Path, script: str) -> int:
    env = {k: v for k, v in os.environ.items() if k != "BENT"}
    done = subprocess.run(
        ["node", "-e", script], cwd=folder, capture_output=True, check=False, timeout=60, env=env
    )
    return done.returncode


def test_a_playwright_test_extended_in_another_module_keeps_its_hooks_reaching() -> None:
    """`import { test } from './fixtures'` (Playwright's `base.extend`
    elsewhere): what that `test` is, the gate cannot see."""
    body = "import { test } from './fixtures';\ntest.beforeEach(() => { reset(); });\n"
    assert reaching("e2e/new.test.ts", units(body, ".ts"))
