"""JavaScript and TypeScript test files (Jest, Vitest, Mocha, node:test) as units.

`units(text, suffix)` parses with tree-sitter (the javascript grammar for
`.js .jsx .mjs .cjs`, typescript for `.ts .mts .cts`, tsx for `.tsx`) and
splits the file into its top-level statements, opening `describe` blocks:

* **A case** is a call of a test function at the top level or directly in
  a `describe` body: `it`, `test`, `specify`, `bench`, their `x`/`f`
  forms (`xit`, `fit`, `xtest`), with modifiers (`it.skip`,
  `test.concurrent.each(table)(...)`, `test.skipIf(cond)(...)`,
  `it.todo`, `test.failing`, ...).  Its key is the function (`it`, `test`;
  `xit` and `it.skip` are `it`, so skipping a test changes that test) and
  the path of describe titles and its own title: `it clamp > rounds
  down`.  A title that is a string literal is keyed by its text between
  the quotes; a template string or any other expression by its source
  text.  A key that repeats gets ` #2`, ` #3` in file order (the runner
  runs both).  Its code is the whole statement; `t.test`/nested calls
  inside its callback are part of it.
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
  bodies report their names too.

A file that binds a runner name itself (`function it(name, fn) { fn() }`,
`const require = ...`, `let jest = ...`) other than by importing it from
a runner module (`vitest`, `@jest/globals`, `mocha`, `node:test`,
`bun:test`, `@playwright/test`, or `require` of one) is split again
without that name: its calls are then ordinary calls, COLLECTION (such an
`it` may run its "test" when the file loads).  A runner function imported
under another name (`import { test as base } from 'vitest'`) is that
function, and so is Vitest's `const test = base.extend({...})` whose
fixtures only define (a SUPPORT unit): `test('x', ...)` is then a case.

An initializer "may run code" unless it is made only of the definitions
above: a call, `new`, `await`, an assignment, a member access (a getter),
a spread or destructuring (an iterator or getters), arithmetic on
anything but literals (`valueOf`), a static block, a static field or
computed key that does any of these, or a decorator all count as running
code.  Reading a plain name is taken as not running code.

Comments outside units are not units (except the pragmas above), and
neither is the text between units.  `Unparsable` when the grammar is not
installed, the tree has an ERROR or MISSING node (a syntax error, or
syntax the grammar does not know, such as Flow types in a `.js` file),
or describe blocks nest deeper than `MAX_DEPTH`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from gate.testcases import CASE, COLLECTION, SUPPORT, Unit, Unparsable
from gate.testcases._treesitter import COMMENTS, Source, UniqueKeys, named, parse

if TYPE_CHECKING:
    from tree_sitter import Node

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
MAX_DEPTH = 64

# The runner's globals: the name a key shows for each root.
TESTS = {
    "it": "it",
    "xit": "it",
    "fit": "it",
    "test": "test",
    "xtest": "test",
    "specify": "specify",
    "xspecify": "specify",
    "bench": "bench",
}
DESCRIBES = {
    "describe": "describe",
    "xdescribe": "describe",
    "fdescribe": "describe",
    "context": "context",
    "xcontext": "context",
    "suite": "suite",
    "xsuite": "suite",
}
HOOKS = frozenset(
    {
        "beforeEach",
        "beforeAll",
        "afterEach",
        "afterAll",
        "before",
        "after",
        "setup",
        "teardown",
        "suiteSetup",
        "suiteTeardown",
    }
)
FOCUSED = frozenset({"fit", "fdescribe"})
# Names whose calls are read as the runner's (tests, hooks) or as only
# defining (`require('x')`, `jest.fn()`); a file that binds one itself,
# other than by importing it from a runner module, loses that reading.
TRUSTED = frozenset({*TESTS, *DESCRIBES, *HOOKS, "require", "jest", "vi"})
RUNNER_MODULES = frozenset(
    {"vitest", "@jest/globals", "mocha", "node:test", "bun:test", "@playwright/test"}
)
MODIFIERS = frozenset(
    {
        "only",
        "skip",
        "todo",
        "concurrent",
        "sequential",
        "shuffle",
        "each",
        "for",
        "failing",
        "fails",
        "runIf",
        "skipIf",
    }
)
CURRIED = frozenset({"each", "for", "runIf", "skipIf"})  # take arguments, return the test function
# Comment pragmas that change how the whole file runs.
PRAGMA = re.compile(r"@(?:jest-environment|vitest-environment|jsx|ts-nocheck|flow\b)")

FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
CLASSES = frozenset({"class_declaration", "abstract_class_declaration"})
LITERALS = frozenset({"number", "string", "true", "false", "null", "undefined", "regex"})
# TypeScript wrappers whose value is their first named child.
TYPE_WRAPPERS = frozenset({"as_expression", "satisfies_expression", "non_null_expression"})
TYPE_ONLY = {
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "function_signature": "function",
}


def units(text: str, suffix: str = ".ts") -> tuple[Unit, ...]:
    """The units of a JS/TS test file; `suffix` (`.ts`, `.tsx`, `.js`, ...)
    picks the grammar."""
    grammar = SUFFIXES.get(suffix.lower())
    if grammar is None:
        raise Unparsable(f"no JavaScript or TypeScript grammar reads a {suffix!r} file")
    source = parse(text, grammar)
    splitter = _Splitter(source, frozenset())
    splitter.statements(source.root.children, (), 0)
    shadowed = splitter.shadowed()
    if shadowed:  # the file defines its own `it`, `require`, ...: split again without them
        splitter = _Splitter(source, shadowed)
        splitter.statements(source.root.children, (), 0)
    return tuple(splitter.found)


class _Call(NamedTuple):
    root: str  # the called global: it, describe, beforeEach, ...
    modifiers: tuple[str, ...]  # .only, .each, ... in order
    curried: tuple[Node, ...]  # arguments of `.each(table)`, `.skipIf(cond)`
    args: tuple[Node, ...]  # the last call's arguments


class _Splitter:
    def __init__(self, source: Source, shadowed: frozenset[str]) -> None:
        self.source = source
        self.untrusted = shadowed  # runner names this file binds itself
        self.from_runner: set[str] = set()  # keys of imports from a runner module
        # local names of runner functions: `import { test as base } from 'vitest'`,
        # `const test = base.extend({...})` (Vitest's fixtures)
        self.aliases: dict[str, str] = {}
        self.found: list[Unit] = []
        self._keys = UniqueKeys()

    def shadowed(self) -> frozenset[str]:
        """The runner names (`it`, `describe`, `beforeEach`, `require`, `jest`,
        `vi`, ...) a unit binds other than an import from a runner module: a
        file's own `function it(name, fn) { fn() }` runs every "test" when
        the file loads, so its calls are not taken as tests."""
        bound = {n for u in self.found if u.key not in self.from_runner for n in u.binds}
        return frozenset(bound & TRUSTED)

    def runner_root(self, name: str) -> str | None:
        """The runner function a called name is (`it`, `describe`, ...), or None."""
        if name in self.aliases:
            return self.aliases[name]
        if name in self.untrusted:
            return None
        return name if name in TESTS or name in DESCRIBES or name in HOOKS else None

    def extended_test(self, node: Node) -> str | None:
        """`const X = test.extend({...})` (chained `.extend(...)` too) with
        arguments that only define: the runner root X stands for, or None."""
        if node.type != "lexical_declaration" or node.children[0].type != "const":
            return None
        declarators = [c for c in node.named_children if c.type == "variable_declarator"]
        if len(declarators) != 1:
            return None
        name = declarators[0].child_by_field_name("name")
        value = declarators[0].child_by_field_name("value")
        if name is None or value is None or name.type != "identifier":
            return None
        while value.type == "call_expression":
            function = value.child_by_field_name("function")
            args = value.child_by_field_name("arguments")
            if function is None or args is None or args.type != "arguments":
                return None
            prop = function.child_by_field_name("property")
            obj = function.child_by_field_name("object")
            if function.type != "member_expression" or prop is None or obj is None:
                return None
            if self.text(prop) != "extend" or not all(self.inert(a) for a in named(args)):
                return None
            value = obj
        if value.type != "identifier" or self.text(value) == self.text(name):
            return None
        root = self.runner_root(self.text(value))
        return root if root in TESTS else None

    # --- emitting ---

    def add(
        self,
        node: Node,
        key: str,
        name: str,
        role: str,
        binds: Iterable[str] = (),
        code: str | None = None,
    ) -> None:
        unique, n = self._keys.add(key)
        self.found.append(
            Unit(
                key=unique,
                name=name if n == 1 else f"{name} #{n}",
                role=role,
                code=self.source.text(node) if code is None else code,
                binds=tuple(dict.fromkeys(binds)),
                line=self.source.line(node),
            )
        )

    def text(self, node: Node) -> str:
        return self.source.text(node)

    # --- statements ---

    def statements(self, nodes: Iterable[Node], path: tuple[str, ...], depth: int) -> None:
        if depth > MAX_DEPTH:
            raise Unparsable(f"describe blocks nest more than {MAX_DEPTH} deep")
        for node in nodes:
            if node.type in COMMENTS:
                found = PRAGMA.search(self.text(node)) if node.type == "comment" else None
                if found is not None:
                    label = _joined(path, found.group())
                    self.add(node, f"pragma {label}", label, COLLECTION)
                continue
            if node.is_named and node.type not in ("empty_statement",):
                self.statement(node, path, depth)

    def statement(self, node: Node, path: tuple[str, ...], depth: int) -> None:
        kind = node.type
        if kind == "expression_statement":
            self.expression_statement(node, path, depth)
        elif kind == "export_statement":
            self.export(node, path)
        elif kind == "import_statement":
            self.import_(node, path)
        elif (root := self.extended_test(node)) is not None:
            names = self.name_of(node.named_children[0]) if node.named_children else []
            label = _joined(path, ", ".join(names))
            self.add(node, f"const {label}", label, SUPPORT, names)
            self.from_runner.add(self.found[-1].key)
            self.aliases.update(dict.fromkeys(names, root))
        else:
            declared = self.declaration(node)
            if declared is None:
                label = _joined(path, kind)
                self.add(node, f"statement {label}", label, COLLECTION)
            else:
                word, names, inert = declared
                label = _joined(path, ", ".join(names) or word)
                binds = names if word != "declare" else []  # a type, no runtime binding
                self.add(node, f"{word} {label}", label, SUPPORT if inert else COLLECTION, binds)
                if self.requires_runner(node):
                    self.from_runner.add(self.found[-1].key)

    def declaration(self, node: Node) -> tuple[str, list[str], bool] | None:
        """(keyword, bound names, inert) for a declaration; None for any other statement."""
        kind = node.type
        if kind in ("lexical_declaration", "variable_declaration"):
            word = node.children[0].type  # const, let, var
            names: list[str] = []
            inert = word in ("const", "let", "var")
            for child in node.named_children:
                if child.type == "variable_declarator":
                    names += _pattern_names(self.source, child.child_by_field_name("name"))
                    inert = inert and self.inert_declarator(child)
            return word, names, inert
        if kind in ("function_declaration", "generator_function_declaration"):
            return "function", self.name_of(node), True
        if kind in CLASSES:
            return "class", self.name_of(node), self.inert_class(node)
        if kind in TYPE_ONLY:
            return TYPE_ONLY[kind], self.name_of(node), True
        if kind == "enum_declaration":
            body = node.child_by_field_name("body")
            members = named(body) if body is not None else []
            inert = all(
                m.type == "property_identifier"
                or (m.type == "enum_assignment" and self.inert(m.child_by_field_name("value")))
                for m in members
            )
            return "enum", self.name_of(node), inert
        if kind == "ambient_declaration":  # `declare ...`: types only, nothing runs
            return "declare", [self.ambient_name(node)], True
        if kind == "import_alias":  # `import x = N.y`
            first = named(node)
            return "import", [self.text(first[0])] if first else [], True
        return None

    def ambient_name(self, node: Node) -> str:
        """What a `declare` declares: `global`, a module's name, a declaration's names."""
        inner = named(node)
        if not inner or inner[0].type == "statement_block":
            return "global"
        declared = self.declaration(inner[0])
        if declared is not None and declared[1]:
            return ", ".join(declared[1])
        name = inner[0].child_by_field_name("name")
        return self.text(name) if name is not None else inner[0].type

    def name_of(self, node: Node) -> list[str]:
        name = node.child_by_field_name("name")
        return [self.text(name)] if name is not None else []

    def expression_statement(self, node: Node, path: tuple[str, ...], depth: int) -> None:
        inner = named(node)
        expr = inner[0] if len(inner) == 1 else None
        if expr is not None and expr.type in ("internal_module", "module"):
            label = _joined(path, "".join(self.name_of(expr)) or expr.type)
            self.add(node, f"namespace {label}", label, COLLECTION, self.name_of(expr))
            return
        call = _call(self.source, expr, self.runner_root) if expr is not None else None
        if call is not None and call.root in TESTS:
            self.test(node, call, path)
        elif call is not None and call.root in DESCRIBES:
            self.describe(node, call, path, depth)
        elif call is not None and call.root in HOOKS and not call.modifiers and not call.curried:
            label = " ".join((call.root, " > ".join(path))).rstrip()
            self.add(node, label, label, COLLECTION)
        else:
            summary = _summary(self.source, expr)
            label = _joined(path, summary)
            self.add(node, f"statement {label}", label, COLLECTION)

    def test(self, node: Node, call: _Call, path: tuple[str, ...]) -> None:
        title = self.title(call)
        label = " > ".join((*path, title))
        runs = self.runs_at_collection(call, callback=None)
        focused = call.root in FOCUSED or "only" in call.modifiers
        role = COLLECTION if focused or runs else CASE
        self.add(node, f"{TESTS[call.root]} {label}", label, role)

    def describe(self, node: Node, call: _Call, path: tuple[str, ...], depth: int) -> None:
        title = self.title(call)
        inner = (*path, title)
        label = " > ".join(inner)
        key = f"{DESCRIBES[call.root]} {label}"
        body = None
        callback = None
        for arg in reversed(call.args):
            if arg.type in FUNCTIONS:
                candidate = arg.child_by_field_name("body")
                if candidate is not None and candidate.type == "statement_block":
                    body, callback = candidate, arg
                break
        if body is None or callback is None:
            self.add(node, key, label, COLLECTION)
            return
        focused = call.root in FOCUSED or "only" in call.modifiers
        runs = self.runs_at_collection(call, callback) or not self.inert_parameters(callback)
        frame = self.source.span(node.start_byte, body.start_byte + 1) + self.source.span(
            body.end_byte - 1, node.end_byte
        )
        self.add(node, key, label, COLLECTION if focused or runs else SUPPORT, code=frame)
        self.statements(body.children, inner, depth + 1)

    def title(self, call: _Call) -> str:
        if not call.args:
            return ""
        first = call.args[0]
        text = self.text(first)
        if first.type == "string":
            return text[1:-1]
        return text

    def runs_at_collection(self, call: _Call, callback: Node | None) -> bool:
        """Whether a test or describe call's own arguments (title, table,
        options) may run code when the file is loaded; a test's callback runs
        later, a describe's `callback` body is split into units."""
        for args in call.curried:
            parts = [args] if args.type == "template_string" else named(args)
            if not all(self.inert(a) for a in parts):
                return True
        for arg in call.args:
            if arg is callback or arg.type in FUNCTIONS:
                continue
            if not self.inert(arg):
                return True
        return False

    def export(self, node: Node, path: tuple[str, ...]) -> None:
        declaration = node.child_by_field_name("declaration")
        value = node.child_by_field_name("value")
        if declaration is not None:
            declared = self.declaration(declaration)
            if declared is not None:
                word, names, inert = declared
                label = _joined(path, ", ".join(names) or word)
                role = SUPPORT if inert else COLLECTION
                self.add(node, f"export {word} {label}", label, role, names)
                return
        if declaration is None and value is None:
            exprs = [c for c in named(node) if c.type not in ("export_clause", "string")]
            reexport = node.child_by_field_name("source") is not None
            value = exprs[0] if len(exprs) == 1 and not reexport else None
        inert = declaration is None and (value is None or self.inert(value))
        source = node.child_by_field_name("source")
        what = "default" if value is not None else self.text(source) if source is not None else "{}"
        label = _joined(path, what)
        self.add(node, f"export {label}", label, SUPPORT if inert else COLLECTION)

    def import_(self, node: Node, path: tuple[str, ...]) -> None:
        source = node.child_by_field_name("source")
        clause = None
        for child in named(node):
            if child.type in ("import_clause", "import_require_clause"):
                clause = child
        where = self.text(source)[1:-1] if source is not None else ""
        if source is None and clause is not None:
            inner = clause.child_by_field_name("source")
            where = self.text(inner)[1:-1] if inner is not None else ""
        label = _joined(path, where)
        if clause is None:  # `import './setup'`: runs the module for its effects
            self.add(node, f"import {label}", label, COLLECTION)
            return
        self.add(node, f"import {label}", label, SUPPORT, _import_names(self.source, clause))
        if where in RUNNER_MODULES:
            self.from_runner.add(self.found[-1].key)
            self.aliases.update(_runner_aliases(self.source, clause))

    # --- what runs when the file is loaded ---

    def inert_declarator(self, declarator: Node) -> bool:
        """A `name = value` that only defines: destructuring is allowed only
        from `require(...)` (it runs getters or an iterator otherwise)."""
        name = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if name is None:
            return False
        if name.type != "identifier":
            if value is None or not self.is_require(value):
                return False
            return self.inert_pattern(name)
        return value is None or self.inert(value)

    def inert_pattern(self, pattern: Node) -> bool:
        """A pattern's defaults and computed keys only define."""
        stack = [pattern]
        while stack:
            node = stack.pop()
            if node.type in ("required_parameter", "optional_parameter"):  # TypeScript
                value = node.child_by_field_name("value")
                if value is not None and not self.inert(value):
                    return False
            if node.type in ("assignment_pattern", "object_assignment_pattern"):
                right = node.child_by_field_name("right")
                if right is not None and not self.inert(right):
                    return False
            elif node.type == "computed_property_name":
                if not all(self.inert(c) for c in named(node)):
                    return False
                continue
            stack.extend(named(node))
        return True

    def inert_parameters(self, function: Node) -> bool:
        """A callback's default parameter values only define (a describe
        callback is called with no arguments, so its defaults run)."""
        params = function.child_by_field_name("parameters")
        if params is None:
            return True
        return self.inert_pattern(params)

    def requires_runner(self, node: Node) -> bool:
        """`const { describe, it } = require('mocha')`: every declarator takes
        a runner module."""
        if node.type not in ("lexical_declaration", "variable_declaration"):
            return False
        values = [
            c.child_by_field_name("value")
            for c in node.named_children
            if c.type == "variable_declarator"
        ]
        return bool(values) and all(
            v is not None and self.is_require(v) and self.required(v) in RUNNER_MODULES
            for v in values
        )

    def required(self, node: Node) -> str:
        """The module name of a `require('x')...` that `is_require` accepted."""
        while node.type == "member_expression":
            obj = node.child_by_field_name("object")
            if obj is None:
                return ""
            node = obj
        args = node.child_by_field_name("arguments")
        parts = named(args) if args is not None else []
        return self.text(parts[0])[1:-1] if parts else ""

    def is_require(self, node: Node) -> bool:
        """`require('x')`, `require('x').y`: loading a module by name."""
        while node.type == "member_expression":
            prop = node.child_by_field_name("property")
            obj = node.child_by_field_name("object")
            if prop is None or obj is None or prop.type != "property_identifier":
                return False
            node = obj
        if node.type != "call_expression":
            return False
        function = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if function is None or args is None or self.text(function) != "require":
            return False
        if "require" in self.untrusted:
            return False
        parts = named(args) if args.type == "arguments" else []
        return len(parts) == 1 and parts[0].type == "string"

    def is_mock_function(self, node: Node) -> bool:
        """`jest.fn(...)`, `vi.fn(...)` whose arguments only define."""
        function = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if function is None or args is None or args.type != "arguments":
            return False
        if self.text(function) not in ("jest.fn", "vi.fn"):
            return False
        if self.text(function).split(".")[0] in self.untrusted:
            return False
        return all(self.inert(a) for a in named(args))

    def inert(self, node: Node | None) -> bool:
        """Whether evaluating the expression `node` only defines (see the
        module doc); iterative, so any depth is fine."""
        if node is None:
            return True
        stack = [node]
        while stack:
            current = stack.pop()
            more = self._inert_parts(current)
            if more is None:
                return False
            stack.extend(more)
        return True

    def _inert_parts(self, node: Node) -> list[Node] | None:
        """The parts of `node` that must be inert too, or None when `node` may run code."""
        kind = node.type
        if kind in LITERALS or kind in FUNCTIONS or kind in COMMENTS:
            return []
        if kind in ("identifier", "this", "property_identifier", "shorthand_property_identifier"):
            return []
        if kind == "template_string":
            # `${x}` calls x's toString: only literals may be substituted
            subs = [c for c in named(node) if c.type == "template_substitution"]
            if not all(part.type in LITERALS for sub in subs for part in named(sub)):
                return None
            return []
        if kind in ("parenthesized_expression", "array", "sequence_expression"):
            return named(node)
        if kind == "ternary_expression":
            return named(node)
        if kind == "object":
            return named(node)
        if kind == "pair":
            return named(node)
        if kind == "computed_property_name":
            return named(node)
        if kind == "method_definition":
            name = node.child_by_field_name("name")
            return [name] if name is not None and name.type == "computed_property_name" else []
        if kind == "class":
            return [] if self.inert_class(node) else None
        if kind in TYPE_WRAPPERS:
            parts = named(node)
            return parts[:1]
        if kind == "type_assertion":
            parts = named(node)
            return parts[-1:]
        if kind == "unary_expression":
            operator = node.child_by_field_name("operator")
            argument = node.child_by_field_name("argument")
            op = self.text(operator) if operator is not None else ""
            if argument is None or op == "delete":
                return None
            if op in ("!", "typeof", "void"):
                return [argument]
            return [] if argument.type in LITERALS else None
        if kind == "binary_expression":
            operator = node.child_by_field_name("operator")
            op = self.text(operator) if operator is not None else ""
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is None or right is None:
                return None
            if op in ("&&", "||", "??", "===", "!=="):
                return [left, right]
            if op in ("in", "instanceof"):
                return None
            if all(side.type in LITERALS for side in (left, right)):
                return []
            return None
        if kind == "call_expression":
            if self.is_require(node) or self.is_mock_function(node):
                return []
            return None
        if kind == "member_expression" and self.is_require(node):
            return []
        return None

    def inert_class(self, node: Node) -> bool:
        """A class definition that runs no code: a heritage of names, no
        decorator, no static block, static fields and computed keys that
        only define."""
        stack = [node]
        while stack:  # a decorator anywhere runs when the class is defined
            current = stack.pop()
            if current.type == "decorator":
                return False
            stack.extend(current.named_children)
        for child in named(node):
            if child.type == "class_heritage":
                for part in named(child):
                    if part.type == "extends_clause":
                        if not all(self.inert_heritage(v) for v in named(part)):
                            return False
                    elif part.type != "implements_clause" and not self.inert_heritage(part):
                        return False
        body = node.child_by_field_name("body")
        if body is None:
            return True
        for member in named(body):
            if member.type == "class_static_block":
                return False
            name = member.child_by_field_name("name") or member.child_by_field_name("property")
            if name is not None and name.type == "computed_property_name" and not self.inert(name):
                return False
            if member.type in ("field_definition", "public_field_definition"):
                static = any(c.type == "static" for c in member.children)
                if static and not self.inert(member.child_by_field_name("value")):
                    return False
        return True

    def inert_heritage(self, node: Node) -> bool:
        if node.type in ("type_arguments", "type_identifier"):
            return True
        return node.type == "identifier"


_OPTIONAL = ("optional_chain", "?.")


def _call(source: Source, node: Node, resolve: Callable[[str], str | None]) -> _Call | None:
    """`node` as a call of a runner global (`it.only`, `test.each(t)`, ...), or None."""
    if node.type != "call_expression":
        return None
    args = node.child_by_field_name("arguments")
    current = node.child_by_field_name("function")
    if args is None or args.type != "arguments" or current is None:
        return None
    if any(c.type in _OPTIONAL for c in node.children):  # `it?.(...)`
        return None
    modifiers: list[str] = []
    curried: list[Node] = []
    while True:
        if current.type == "identifier":
            root = source.text(current)
            break
        if current.type == "member_expression":
            prop = current.child_by_field_name("property")
            obj = current.child_by_field_name("object")
            optional = any(c.type in _OPTIONAL for c in current.children)
            if prop is None or obj is None or optional:
                return None
            if prop.type != "property_identifier" or source.text(prop) not in MODIFIERS:
                return None
            modifiers.append(source.text(prop))
            current = obj
        elif current.type == "call_expression":
            function = current.child_by_field_name("function")
            inner = current.child_by_field_name("arguments")
            if function is None or inner is None or function.type != "member_expression":
                return None
            prop = function.child_by_field_name("property")
            if prop is None or source.text(prop) not in CURRIED:
                return None
            curried.append(inner)
            current = function
        else:
            return None
    canonical = resolve(root)
    if canonical is None:
        return None
    return _Call(
        canonical, tuple(reversed(modifiers)), tuple(reversed(curried)), tuple(named(args))
    )


def _summary(source: Source, expr: Node | None) -> str:
    """A short name for a statement: its callee and first string argument,
    the target of an assignment, or its node type."""
    if expr is None:
        return "statement"
    if expr.type == "call_expression":
        function = expr.child_by_field_name("function")
        args = expr.child_by_field_name("arguments")
        callee = " ".join(source.text(function).split()) if function is not None else "call"
        parts = named(args) if args is not None and args.type == "arguments" else []
        if parts and parts[0].type == "string":
            return f"{callee[:80]} {source.text(parts[0])[1:-1][:80]}"
        return callee[:80]
    if expr.type in ("assignment_expression", "augmented_assignment_expression"):
        left = expr.child_by_field_name("left")
        target = " ".join(source.text(left).split()) if left is not None else "?"
        return f"{target[:80]} ="
    if expr.type == "string":
        return source.text(expr)[:80]
    return expr.type


def _joined(path: tuple[str, ...], tail: str) -> str:
    return " > ".join((*path, tail))


def _pattern_names(source: Source, pattern: Node | None) -> list[str]:
    """The names a binding pattern binds (`a`, `{a, b: c, ...d}`, `[e = 1]`)."""
    if pattern is None:
        return []
    found: list[str] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            found.append(source.text(node))
        elif kind == "pair_pattern":
            value = node.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif kind in ("assignment_pattern", "object_assignment_pattern"):
            left = node.child_by_field_name("left")
            if left is not None:
                stack.append(left)
        elif kind in ("object_pattern", "array_pattern", "rest_pattern"):
            stack.extend(reversed(named(node)))
    return found


def _runner_aliases(source: Source, clause: Node) -> dict[str, str]:
    """`import { test as base, it }`: {"base": "test"}, the runner names
    imported under another name."""
    found: dict[str, str] = {}
    stack = [clause]
    while stack:
        node = stack.pop()
        if node.type == "import_specifier":
            alias = node.child_by_field_name("alias")
            name = node.child_by_field_name("name")
            if alias is not None and name is not None:
                imported = source.text(name)
                if imported in TESTS or imported in DESCRIBES or imported in HOOKS:
                    found[source.text(alias)] = imported
        else:
            stack.extend(named(node))
    return found


_IMPORT_PARTS = ("import_clause", "named_imports", "namespace_import", "import_require_clause")


def _import_names(source: Source, clause: Node) -> list[str]:
    """The local names an import clause binds."""
    found: list[str] = []
    stack = [clause]
    while stack:
        node = stack.pop()
        if node.type == "import_specifier":
            alias = node.child_by_field_name("alias")
            name = node.child_by_field_name("name")
            bound = alias if alias is not None else name
            if bound is not None:
                found.append(source.text(bound))
        elif node.type == "identifier":
            found.append(source.text(node))
        elif node.type in _IMPORT_PARTS:
            stack.extend(reversed([c for c in named(node) if c.type != "string"]))
    return found
