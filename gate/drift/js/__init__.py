"""JavaScript and TypeScript test files (Jest, Vitest, Mocha, node:test, AVA) as units.

`units(text, suffix)` parses with tree-sitter (the javascript grammar for
`.js .jsx .mjs .cjs`, typescript for `.ts .mts .cts`, tsx for `.tsx`) and
splits the file into its top-level statements, opening `describe` blocks:

* **A case** is a call of a test function at the top level or directly in
  a `describe` body: `it`, `test`, `specify`, `bench`, their `x`/`f`
  forms (`xit`, `fit`, `xtest`), with modifiers (`it.skip`,
  `test.concurrent.each(table)(...)`, `test.skipIf(cond)(...)`,
  `it.todo`, `test.failing`, AVA's `test.serial`, ...).  Its key is the function (`it`, `test`;
  `xit` and `it.skip` are `it`, so skipping a test changes that test) and
  the path of describe titles and its own title: `it clamp > rounds
  down`.  A title that is a string literal is keyed by its text between
  the quotes; a template string or any other expression by its source
  text.  A key that repeats gets ` #2`, ` #3` in file order (the runner
  runs both).  Its code is the whole statement; `t.test`/nested calls
  inside its callback are part of it.  So is a top-level call of the
  file's own test wrapper (`function check(name, fn) { it(name, fn); }`,
  `wrappers.wrapped_test`), keyed by the wrapper's name.  An awaited test
  or describe (`await test('x', async () => {...})`, node:test's way of
  running a file's tests one after another) is the call it awaits, under
  the same key; its code is the statement, `await` included.
  A test's `Unit.same` is its syntax tree (`rows.tree_form`: no comments,
  no layout), so a comment or a line break in it changes nothing, and its
  `Unit.retitled` the same tree without its title, by which `compare`
  tells a test renamed (none where the title may change what it runs: a
  snapshot, a body reading a title or a name).
* **A describe** (`describe`, `context`, `suite`, their `x`/`f` forms and
  modifiers, `describe.each(table)(...)`) is a container: its body's
  statements are units with the describe's title in their path, and the
  describe itself is a unit `describe <path>` whose code is the call
  without its body (`describe.skip('clamp', () => {});`), so adding
  `.skip` or changing its arguments changes a unit.  A describe whose
  callback is not a function with a block body is one unit, COLLECTION.
* **COLLECTION** is code that runs when the runner loads the file, or that
  changes what the other tests see: hooks (`beforeEach`, `beforeAll`,
  `afterEach`, `afterAll`, Mocha's `before`, `after`, `setup`,
  `teardown`, `suiteSetup`, `suiteTeardown`), `jest.mock(...)`,
  `vi.mock(...)`, any other call or expression statement (`jest.spyOn`,
  `vi.stubGlobal`, `Object.defineProperty`, `'use strict'`), an
  assignment (`globalThis.x = ...`, `module.exports = ...`,
  `process.env.X = ...`), any other statement (`if`, `for`, `try`, a
  loop that defines tests), an import with no names (`import './setup'`),
  a declaration whose initializer may run code (below), a namespace with
  a body, a focused test or describe (`it.only`, `fit`, `describe.only`:
  it turns the file's other tests off), a test or describe whose title,
  table or other argument may run code, and a comment pragma that changes
  how the file runs (`@jest-environment`, `@vitest-environment`,
  `@jsx...`, `@ts-nocheck`, `@flow`).
* **SUPPORT** is a definition: an import with names, `const`/`let`/`var`
  whose initializers only define (literals, names, functions, classes
  without static code, object and array literals of those,
  `require('x')`, `jest.fn()`/`vi.fn()`), `function`, `class`, TypeScript
  types, interfaces, enums with constant members, `declare`, `export`s of
  those, and the describe frames above.  `binds` are the names it binds
  (an import of `it` from elsewhere binds `it`), so a new definition that
  rebinds a name existing tests use is seen.  Declarations inside describe
  bodies report their names too.  An import with names, and a
  `const { a, b: c } = require('x')` of plain names, is a unit a bound
  name, spelled canonically (`const { a } = require('x')`): taking one
  more name leaves the units of the others as they were.

Each unit's `uses` are the identifiers in its source (`names.Names`) when
the file is surely a module whose top-level names no computed name can
reach; otherwise None, and `compare` takes every word of its code.

A file that binds a runner name itself (`function it(name, fn) { fn() }`,
`const require = ...`, `let jest = ...`) other than by importing it from
a runner module (`vitest`, `@jest/globals`, `mocha`, `node:test`,
`bun:test`, `@playwright/test`, `ava`, or `require` of one) is split again
without that name: its calls are then ordinary calls, COLLECTION (such an
`it` may run its "test" when the file loads).  A runner function imported
under another name (`import { test as base } from 'vitest'`) is that
function, and so is Vitest's `const test = base.extend({...})` whose
fixtures only define (a SUPPORT unit): `test('x', ...)` is then a case.

An initializer "may run code" unless it is made only of the definitions
above: a call, `new`, `await`, an assignment, a member access (a getter),
a spread or destructuring (an iterator or getters), arithmetic on
anything but pure values (`valueOf`), a static block, a static field or
computed key that does any of these, or a decorator all count as running
code.  Reading a plain name is taken as not running code, and so is a
pure value (`pure.Pure`): one the platform's built-ins alone compute
(`process.platform === 'win32'`, `!process.env.CI`,
`Number(process.versions.node.split('.')[0])`, `new Error('x')`,
`Buffer.from('x')`, `4 * 1024`), where the file never binds `process`,
`Buffer`, ... itself but by the platform's own module
(`import process from 'node:process'`).

A new file's COLLECTION units reach the tests of other files (`reaches`)
unless the runner keeps them in the file: none under AVA (`isolated`);
under Jest, Vitest and node:test, which give each file a module registry
of its own (`own_registry`), none that writes nothing outside the file
(`Unit.local`, `escapes.Escapes`); and under Jest, which gives each file a
copy of `process.env` too (`own_env`), none whose only writes outside the
file go into `process.env` (`Unit.env_local`).

Comments outside units are not units (except the pragmas above), and
neither is the text between units.  `Unparsable` when the grammar is not
installed, the tree has an ERROR or MISSING node (a syntax error, or
syntax the grammar does not know, such as Flow types in a `.js` file),
or describe blocks nest deeper than `MAX_DEPTH`.

This package is that splitter, one module a job: `frameworks` (the test
frameworks' globals and the shapes of their calls), `loading` (whether an
expression, a declaration or a class runs code when the file loads),
`pure` (what the platform's built-ins alone compute), `isolation`
(whether the base's runner configuration turns Vitest's or node:test's
per-file isolation off, read from the files `near` names), `names` (the names
each unit reads, and whether the file binds a global) and `splitter` (the
statements and describe bodies as units).  Here: `units`, what `gate.drift` calls,
with the grammar each suffix names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from gate.drift import CASE, Unit, Unparsable, repaired_pair
from gate.drift._treesitter import ParsedText, parse, refuse
from gate.drift.js import writes
from gate.drift.js.frameworks import DESCRIBES, HOOKS, RUNNER_MODULES, TESTS
from gate.drift.js.isolation import NODE_TEST, VITEST, near, shared
from gate.drift.js.names import Names
from gate.drift.js.splitter import TYPE_TESTS, Splitter
from gate.drift.reader import Reader

SUFFIXES = {
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}


def units(text: str, suffix: str = ".ts") -> tuple[Unit, ...]:
    """The units of a JS/TS test file; `suffix` (`.ts`, `.tsx`, `.js`, ...)
    picks the grammar.  A JavaScript file the javascript grammar cannot
    read is read as TSX once more: type annotations in a `.js` file are
    Flow's (React Native's and Meta's tests), whose common forms TSX reads
    (`function f(x: number): number`); what neither reads is refused with
    the javascript grammar's error."""
    grammar = _grammar(suffix)
    try:
        source = parse(text, grammar)
    except Unparsable as first:
        if grammar != "javascript":
            raise
        try:
            source = parse(text, "tsx")
        except Unparsable:
            raise first from None
    return tuple(_split(source, suffix, text).found)


def _grammar(suffix: str) -> str:
    grammar = SUFFIXES.get(suffix.lower())
    if grammar is None:
        raise Unparsable(f"no JavaScript or TypeScript grammar reads a {suffix!r} file")
    return grammar


def _split(source: ParsedText, suffix: str, text: str) -> Splitter:
    if source.root.is_error:  # no statement stands as written
        refuse(source, source.root)
    names = Names(source, suffix, also=writes.SCAN)
    if source.root.has_error:
        names.known = False  # a repaired tree: every unit reads every word of its code
    types = TYPE_TESTS.search(text) is not None
    splitter = Splitter(source, frozenset(), names, types)
    splitter.statements(source.root.children, (), 0)
    shadowed = splitter.shadowed()
    if shadowed:  # the file defines its own `it`, `require`, ...: split again without them
        splitter = Splitter(source, shadowed, names, types)
        splitter.statements(source.root.children, (), 0)
    splitter.found = splitter.blocks.settle(splitter.found)
    return splitter


def pair(base: str, head: str, suffix: str) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    """The units of a modified file's two versions when `units` refuses
    one for a syntax error (syntax the grammar does not know, such as
    `f<typeof import('x')>()`): each version is parsed as tree-sitter
    repairs it, and each statement at the top level or in a describe body
    that holds a repair is one COLLECTION unit, `unparsed <summary>`, of
    its exact text (`Splitter.opaque`; a describe whose repairs all lie in
    its body is opened instead); the other statements are split as ever.
    `Unparsable` when a repair lies between statements (its text belongs
    to none), or when a statement with a repair has the same key on both
    sides but another text: what changed inside it cannot be told."""
    grammar = _grammar(suffix)
    sides = [_split(parse(text, grammar, tolerant=True), suffix, text) for text in (base, head)]
    return repaired_pair(
        sides[0].found, sides[0].unparsed, sides[1].found, sides[1].unparsed, grammar, "statement"
    )


# A statement that is a string literal alone, without escapes: a directive
# (`'use strict'`, `"use client"`) or nothing at all.
_DIRECTIVE = re.compile(r"""\A(?:'[^'\\\n\r\u2028\u2029]*'|"[^"\\\n\r\u2028\u2029]*");?\Z""")


def reaches(unit: Unit) -> bool:
    """Whether `unit`, collection-time code of a NEW test file, can change
    what the tests of other files see.  Mocha loads every test file into
    one process, so any code the file runs when it loads can, and a hook
    at its top level runs around every test of the run; but a hook inside
    a describe (`Unit.grouped`) that writes nothing outside the file runs
    around that describe's tests alone, which are new, as a new test's
    body that fills the file's own `let`s does, and a statement that is a
    string literal alone is a directive such as `'use strict'`, which sets
    how this file's own code runs.  (Where the runner gives each file its
    own module registry, `own_registry`, `gate.drift.reaching` drops
    every unit that writes nothing outside the file too.)"""
    return not unit.grouped and _DIRECTIVE.match(unit.code) is None


# How a unit's code spells a value import of AVA (the splitter's canonical
# `import test from 'ava'`, `import { serial } from 'ava'`, `const { a } =
# require('ava')`, or the declaration `const test = require('ava')`); not a
# type import, which loads nothing.
_AVA = re.compile(
    r"""\A(?:import (?!type )[^'"]* from 'ava'"""
    r"""|(?:const|let|var) (?:\w+|\{ [^}]* \}) = require\((['"])ava\1\);?)\Z"""
)


def isolated(path: str, units: Sequence[Unit], others: Sequence[str] | None = ()) -> bool:
    """Whether a NEW file's load-time code runs where no other file's tests
    do: the file imports AVA as a value and calls what it imports (AVA runs
    each test file in a worker thread or process of its own, and its module
    throws when any other runner loads it: an ES import before the file's
    code runs), reaches for no AVA plugin (`ava/plugin`'s shared workers run
    in AVA's main process), and no other file of the change names it in a
    relative module specifier (`import { x } from './new.js'` would run its
    code in that file's worker; `others` None: not every such file's text
    is known, so none is isolated).  A TypeScript import never read as a
    value is dropped when the file is compiled, hence the call."""
    if others is None:
        return False
    imports = {id(u) for u in units if _AVA.match(u.code)}
    bound = {n for u in units if id(u) in imports and " type " not in u.code for n in u.binds}
    if not bound or any("'ava/plugin'" in u.code or '"ava/plugin"' in u.code for u in units):
        return False
    readers = (u for u in units if u.uses is not None and id(u) not in imports)
    if not any(bound & set(u.uses or ()) for u in readers):
        return False
    loads = _specifier(path)
    return not any(loads.search(text) for text in others)


def _specifier(path: str) -> re.Pattern[str]:
    """A relative module specifier that may name `path`: its file name with
    or without its last suffix (`./x.test` and `./x.test.js` name
    `x.test.ts`; `./x` does not), or its folder's for an `index` file."""
    folder, _, name = path.rpartition("/")
    stems = {name.rpartition(".")[0] or name, name}
    if name.split(".")[0] == "index" and folder:
        stems.add(folder.rpartition("/")[2])
    spelled = "|".join(re.escape(s) for s in sorted(stems))
    return re.compile(rf"""['"`][^'"`\n]*/(?:{spelled})(?:\.[\w.]*)?(?:/[^'"`\n]*)?['"`]""")


# How a unit's code spells a value import of Jest's, Vitest's or node:test's
# globals (the splitter's canonical `import { test } from 'node:test'`,
# `const { test } = require('node:test')`).
_REGISTRY_RUNNER = re.compile(
    r"""\A(?:import (?!type )[^'"]* from '(?:vitest|@jest/globals|node:test)'"""
    r"""|(?:const|let|var) \{ [^}]* \} = require\('node:test'\))\Z"""
)
# A run of node:test that loads every file into one process.
_ONE_PROCESS = re.compile(r"""test-isolation[= ]+['"]?none|isolation['"]?\s*:\s*['"]none""")


def _reads_jest(units: Sequence[Unit]) -> bool:
    """Whether the file reads Jest's global `jest` without binding a `jest`
    of its own."""
    return any("jest" in (u.uses or ()) for u in units) and not any(
        "jest" in u.binds for u in units
    )


def own_registry(
    path: str,
    units: Sequence[Unit],
    others: Sequence[str] | None = (),
    configs: Mapping[str, str | None] | None = None,
) -> bool:
    """Whether a NEW file runs under a runner that gives each test file a
    module registry of its own (Jest: a registry and a global context per
    test file; Vitest: `isolate`, true by default, runs each file in an
    isolated environment; node:test: `node --test` runs each test file in
    a child process of its own, its default process isolation), so what
    its load-time code does to the modules it imports (`vi.mock`, a
    module-level value computed by a call, a hook at its top level) stays
    in the file: it imports from `vitest`, `@jest/globals` or `node:test`,
    or reads Jest's global `jest` without binding it; no other file of the
    change names it in a relative module specifier (`others` None: not
    every such file's text is known), none asks node:test for one
    process (`--test-isolation=none`, `isolation: 'none'`), and the base's
    runner configuration above the file (`configs`: `isolation.near`'s
    paths -> base text; None: not all known) does not turn the runner's
    isolation off (`isolation.shared`: Vitest's `isolate: false`,
    `--no-isolate`; node:test's `--test-isolation=none`)."""
    if others is None:
        return False
    imports = [u.code for u in units if _REGISTRY_RUNNER.match(u.code)]
    jest = _reads_jest(units)
    if not (imports or jest):
        return False
    if any("node:test" in code for code in imports) and any(
        "isolation" in text and _ONE_PROCESS.search(text) for text in others
    ):
        return False
    runners = {r for r in (VITEST, NODE_TEST) if any(f"'{r}'" in code for code in imports)}
    if any(shared(r, configs) for r in runners):
        return False
    loads = _specifier(path)
    return not any(loads.search(text) for text in others)


# How a unit's code spells a value import of Jest's globals.
_JEST_GLOBALS = re.compile(r"""\Aimport (?!type )[^'"]* from '@jest/globals'\Z""")
# A module of another runner that shares `process.env` between files.
_SHARED_ENV = re.compile(r"""['"](?:vitest|mocha|node:test|bun:test|ava)(?:/[^'"]*)?['"]""")


def own_env(
    path: str,
    units: Sequence[Unit],
    others: Sequence[str] | None = (),
    configs: Mapping[str, str | None] | None = None,
) -> bool:
    """Whether a NEW file that `own_registry` holds has a `process.env` of
    its own as well, so that writing into it changes what no other file's
    tests see.  Jest's alone: its test environment (jest-environment-node,
    jest-environment-jsdom), made anew for each test file, installs a copy
    of `process` as the file's global whose `env` is a fresh object the
    real environment is copied into (jest-util's `installCommonGlobals`
    sets `process = createProcessObject()`, whose `env` is
    `createProcessEnv()`; jest-environment-node's own test "uses a copy of
    the process object"; and jest-runtime's `_requireCoreModule` hands
    that copy to `require('process')`).  Not Vitest, whose `vi.stubEnv` writes the
    worker's real `process.env` and whose workers serve several files
    (`isolate: false`, the `vmThreads` pool); not node:test, whose files
    share one process under `--test-isolation=none` or a script that
    imports them all, which the repository may ask for outside the change.
    The file imports from `@jest/globals`, or reads Jest's global `jest`
    without binding it, and names no other runner's module."""
    if not own_registry(path, units, others, configs):
        return False
    if any(_SHARED_ENV.search(u.code) for u in units if not u.test):
        return False
    jest = _reads_jest(units)
    return jest or any(_JEST_GLOBALS.match(u.code) for u in units)


# A command line's entry point: the arguments, the main-module test, a `#!` line.
_ENTRY = re.compile(r"\A#!|\bprocess\.argv\b|\brequire\.main\b|\bimport\.meta\.main\b")
# The runner's globals a file that registers tests, hooks or suites reads.
_REGISTERS = frozenset({*TESTS, *DESCRIBES, *HOOKS, "jest", "vi"})
_RUNNERS = "|".join(re.escape(m) for m in sorted(RUNNER_MODULES))
_RUNNER_IMPORT = re.compile(rf"""['"](?:{_RUNNERS})(?:/[^'"]*)?['"]""")
_EXPORTS = re.compile(r"\A(?:export\b|module\.exports\b|exports\.)|\bmodule\.exports\b")


def script(path: str, units: Sequence[Unit], text: str) -> bool:
    """Whether a NEW file that no runner collects by its default names is a
    script run by hand (`node x.mjs`, `tsx x.mts`): its text reads the
    command line (`process.argv`, `require.main`, `import.meta.main`, or
    starts with a `#!` line), and it registers nothing a runner or another
    module could pick up: no test case, no name of a runner's global read
    (`it`, `test`, `describe`, a hook, `jest`, `vi`), no import of a runner
    module, no export.  (Whether another file of the change loads it is
    asked apart: `gate.drift.judging.new_module`.)"""
    if _ENTRY.search(text) is None:
        return False
    for u in units:
        if u.role == CASE or _EXPORTS.search(u.code) or _RUNNER_IMPORT.search(u.code):
            return False
        read = u.uses if u.uses is not None else re.findall(r"[\w$]+", u.code)
        if _REGISTERS.intersection(read):
            return False
    return True


# What the engine reads JavaScript and TypeScript test files with
# (`gate.drift.language.JS`).
READER = Reader(
    units=units,
    reaches=reaches,
    isolated=isolated,
    own_registry=own_registry,
    own_env=own_env,
    near=near,
    pair=pair,
    script=script,
)


def code_tokens(text: str, suffix: str = ".ts") -> tuple[str, ...]:
    """The JS/TS `text`'s code as tokens, without comments and layout
    (`gate.drift.classes.leaves`): two texts with the same tokens hold the
    same code (`test_evidence` tells a source edit of comments alone so).
    `Unparsable` when the grammar the suffix names refuses it."""
    from gate.drift.classes import leaves

    source = parse(text, _grammar(suffix))
    return tuple(source.text(n) for n in leaves(source, [source.root], frozenset()))
