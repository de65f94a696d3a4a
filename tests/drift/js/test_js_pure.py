"""Values a JS/TS file computes from the platform's built-ins alone run no
code of the project (gate.drift.js.pure)."""

from __future__ import annotations

import pytest

from gate.drift import CASE, COLLECTION, SUPPORT
from gate.drift.js import units

PURE = [
    "process.platform === 'win32'",
    "process.arch",
    "process?.platform",
    "process.env",
    "!process.env.CI",
    "process.env['NODE_ENV'] ?? 'test'",
    "process.env.CI ? 1 : 2",
    "Number(process.versions.node.split('.')[0]) >= 20",
    "process.versions.node.length",
    "parseInt(process.version.slice(1), 10)",
    "`${process.platform}-${process.arch}`",
    "new Error('boom')",
    "new TypeError(`bad ${1}`)",
    "Buffer.from('PRI * HTTP/2.0')",
    "Buffer.from([0x50, 0x52])",
    "Buffer.alloc(8)",
    "4 * 1024 * 1024",
    "Math.max(1, 2) * Number.MAX_SAFE_INTEGER",
    "Symbol('key')",
    "import.meta.url",
    "global.gc == null",
    "typeof globalThis.gc === 'function'",
    "typeof WeakRef !== 'undefined' && 1",
    "'abc'.toUpperCase().startsWith('A')",
    "String(1).padStart(3, '0')",
    "new URL('x', import.meta.url)",
]
RUNS = [
    "process.mainModule",  # not a read the list allows
    "process.binding('fs')",
    "x.split('.')",  # a name's methods may be the file's own
    "Number(x)",  # valueOf
    "`${x}`",
    "Buffer.from(x)",
    "Buffer.from([x])",
    "new Error(x)",
    "new URL(x, import.meta.url)",
    "'a'.constructor.constructor('code')",
    "'a'.replace('a', () => evil())",
    "process.env[key]",
    "'x' in process.env",
    "delete process.env.CI",
    "Number(delete process.env.CI)",
    "import.meta.custom",  # import.meta's url, dirname and filename only
    "'abc'.big",  # a value's length only
    "global.fetch",
    "typeof global.fetch + 1",
    "evil(process.platform)",
    "new Map()",
]
# How a file makes `process` (or `Buffer`) its own: every use is then code.
BINDINGS = [
    "const process = { platform: 'x' };",
    "let process;",
    "var process = 1;",
    "function process() {}",
    "class process {}",
    "import process from './process.js';",
    "import * as process from 'node:process';",
    "import { process } from 'node:process';",
    "import type process from 'node:process';",
    "const process = require('./process');",
    "const { process } = require('node:process');",
    "process = fake;",
    "globalThis.f = (process) => process;",
    "try {} catch (process) {}",
    "const { a: process } = require('node:process');",
    "const require = () => ({}); const process = require('node:process');",
]


def _role(statement: str, before: str = "", suffix: str = ".ts") -> str:
    found = units(f"{before}\n{statement}\n", suffix)
    return next(u.role for u in found if u.code == statement)


@pytest.mark.parametrize("value", PURE)
@pytest.mark.parametrize("suffix", [".ts", ".js", ".mjs"])
def test_a_built_in_value_only_defines(value: str, suffix: str) -> None:
    assert _role(f"const a = {value};", suffix=suffix) == SUPPORT


@pytest.mark.parametrize("value", RUNS)
def test_anything_else_may_run_code(value: str) -> None:
    assert _role(f"const a = {value};") == COLLECTION


@pytest.mark.parametrize("value", PURE[:9])
def test_a_test_whose_options_read_the_platform_is_a_case(value: str) -> None:
    assert _role(f"test('x', {{ skip: {value} }}, () => {{}});") == CASE
    assert _role(f"test.skipIf({value})('x', () => {{}});") == CASE


@pytest.mark.parametrize("binding", BINDINGS)
def test_a_global_the_file_binds_is_no_built_in(binding: str) -> None:
    assert _role("const a = process.platform;", before=binding) == COLLECTION
    assert _role("const b = Buffer.from('x');", before=binding.replace("process", "Buffer")) == (
        COLLECTION
    )


@pytest.mark.parametrize(
    "binding",
    [
        "import process from 'node:process';",
        "import process from 'process';",
        "const process = require('node:process');",
    ],
)
def test_the_platforms_own_module_is_the_built_in(binding: str) -> None:
    assert _role("const a = process.platform === 'win32';", before=binding) == SUPPORT


@pytest.mark.parametrize(
    "binding",
    [
        "import { Buffer } from 'node:buffer';",
        "import { Buffer } from 'buffer';",
        "const { Buffer } = require('node:buffer');",
        "const { Buffer, constants } = require('node:buffer');",
    ],
)
def test_buffer_from_its_module_is_the_built_in(binding: str) -> None:
    assert _role("const a = Buffer.from('x');", before=binding) == SUPPORT


def test_a_second_binding_of_the_platforms_module_is_not_trusted() -> None:
    """The one canonical import and nothing else: a later rebinding in a
    function makes `process` the file's own name."""
    before = "import process from 'node:process';\nfunction f() { process = fake; }"
    assert _role("const a = process.platform;", before=before) == COLLECTION


# (how the file gets a Node module or its function, a value it computes).
FROM_MODULES = [
    ("import path from 'node:path';", "path.join(__dirname, 'fixtures')"),
    ("import * as path from 'path';", "path.resolve(path.dirname(import.meta.filename), '..')"),
    ("const path = require('node:path');", "path.posix.join('a', path.sep)"),
    ("import { join } from 'node:path';", "join('a', 'b')"),
    ("import { join as j } from 'node:path';", "j('a', 'b')"),
    ("const { join } = require('path');", "join('a', 'b')"),
    ("import { fileURLToPath } from 'node:url';", "fileURLToPath(new URL('.', import.meta.url))"),
    ("import os from 'node:os';", "os.tmpdir() + os.EOL"),
]
# The same calls through a module or a name that is not Node's.
NOT_FROM_MODULES = [
    ("import path from './path.js';", "path.join('a')"),
    ("import path from 'path-browserify';", "path.join('a')"),
    ("import fs from 'node:fs';", "fs.readFileSync('a')"),
    ("import { readFileSync as join } from 'node:fs';", "join('a')"),
    ("import { join } from 'node:path';\nfunction f() { join = evil; }", "join('a')"),
    ("import type path from 'node:path';", "path.join('a')"),
    ("const { join: j } = require('path');", "j('a')"),
    ("const require = make();\nconst path = require('node:path');", "path.join('a')"),
    ("import path from 'node:path';", "path.join(x)"),
    ("import path from 'node:path';", "path.join.call(null, 'a')"),
    ("import path from 'node:path';", "path.foo.join('a')"),
    ("import { posix } from 'node:path';", "posix.join('a')"),
]


@pytest.mark.parametrize(("imported", "value"), FROM_MODULES)
def test_a_node_path_computation_only_defines(imported: str, value: str) -> None:
    assert _role(f"const a = {value};", before=imported) == SUPPORT
    # and a name the file declares once with it is a pure value too
    assert _role("const b = `${a}/x`;", before=f"{imported}\nconst a = {value};") == SUPPORT


@pytest.mark.parametrize(("imported", "value"), NOT_FROM_MODULES)
def test_the_same_call_through_another_module_may_run_code(imported: str, value: str) -> None:
    assert _role(f"const a = {value};", before=imported) == COLLECTION


@pytest.mark.parametrize(
    "before",
    [
        "let a = 'x';\na = evil();",  # assigned again
        "let a = 'x';\nfunction f() { a++; }",
        "const a = { toString() { return evil(); } };",  # an object, not a pure value
        "const a = make();",
        "function f(a) {}\nconst a = 'x';",  # a second binding anywhere
        "{ const a = 'x'; }",  # in a block that is not around the read
    ],
)
def test_a_name_without_one_pure_declaration_is_no_pure_value(before: str) -> None:
    module = "export {};\n"  # a module: its names are known
    assert _role("const b = `${a}`;", before=module + "const a = 'x';") == SUPPORT
    assert _role("const b = `${a}`;", before=module + before) == COLLECTION


def test_a_name_declared_after_its_read_is_no_pure_value() -> None:
    found = units("const b = `${a}`;\nconst a = 'x';\nexport {};\n", ".ts")
    assert next(u.role for u in found if u.code.startswith("const b")) == COLLECTION
