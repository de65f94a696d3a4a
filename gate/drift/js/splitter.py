"""A JS/TS test file's statements as units (`Splitter`): cases, describe
frames opened into their bodies, hooks and other collection-time code,
imports one unit a bound name, declarations and exports with the names
they bind, and the runner names a file binds itself (`shadowed`), for
which the file is split again."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from gate.drift import CASE, COLLECTION, SUPPORT, Tokens, Unit, Unparsable
from gate.drift._treesitter import COMMENTS, ParsedText, UniqueKeys, named, refuse
from gate.drift.js.blocks import Blocks
from gate.drift.js.escapes import Escapes
from gate.drift.js.frameworks import (
    DESCRIBES,
    FILE_HOOKS,
    FILE_SUITES,
    FOCUSED,
    HOOKS,
    PRAGMA,
    RUNNER_MODULES,
    TESTS,
    TRUSTED,
    Call,
    import_bindings,
    imported_names,
    runner_aliases,
    runner_call,
    summary,
)
from gate.drift.js.loading import Loading
from gate.drift.js.names import FUNCTIONS, Names, pattern_names
from gate.drift.js.rows import TAG, holds_pragma, table_tokens, tree_form
from gate.drift.js.tables import TableLoop, table_loop
from gate.drift.js.wrappers import imported_test, wrapped_test
from gate.drift.js.writes import Writes

if TYPE_CHECKING:
    from tree_sitter import Node

MAX_DEPTH = 64
CLASSES = frozenset({"class_declaration", "abstract_class_declaration"})
TYPE_ONLY = {
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "function_signature": "function",
}
# The keywords of declarations that are types alone (`TYPE_ONLY`, `declare`):
# erased when the file is compiled, so a change of one changes nothing a test
# runs, but in a file whose tests check types (`TYPE_TESTS`).
ERASED = frozenset({*TYPE_ONLY.values(), "declare"}) - {"function"}
# A file that tests types: Vitest's `expectTypeOf`/`assertType`, tsd's
# `expectType`/`expectError`/`expectAssignable`/..., and `@ts-expect-error`
# comments, which make the type checker the referee; there a type is a test.
TYPE_TESTS = re.compile(
    r"\b(?:expectTypeOf|assertType|expectType|expectNotType|expectError|expectAssignable"
    r"|expectNotAssignable|expectDeprecated|expectNotDeprecated)\b|@ts-expect-error|['\"]tsd['\"]"
)


# What a test's code spells where its title may change what it runs: a
# snapshot (Jest, Vitest and node:test key snapshots by the test's title),
# the title or name read in its body.
_READS_TITLE = re.compile(r"[Ss]napshot|currentTestName|[Tt]itle|fullName|\.name\b")


def _same(grammar: str, code: str) -> str:
    """`Unit.same` of a unit: its tree's tokens (`tree_form`), or, where
    its code does not parse alone or holds a pragma comment, its exact text."""
    form = tree_form(grammar, code)
    return f"\x01{code}" if form is None else form


def _retitled(grammar: str, code: str, title: tuple[int, int], path: tuple[str, ...]) -> str | None:
    """`Splitter.retitled`'s form: None where the code but its title
    (`title`, its bytes in `code`) reads a title or a name; its text but
    for the title where it holds a pragma comment (`holds_pragma`)."""
    data = code.encode("utf-8")
    rest = (data[: title[0]] + b"\x00" + data[title[1] :]).decode("utf-8")
    if _READS_TITLE.search(rest) is not None:
        return None
    form = tree_form(grammar, code, title)
    if form is None and holds_pragma(grammar, code):
        # a pragma may hang on its line: the exact text but for the title,
        # and the title's `@tags`, which Playwright's `--grep` reads
        tags = sorted(set(TAG.findall(data[title[0] : title[1]].decode("utf-8"))))
        form = "\x02".join(("text", rest, *tags))
    return None if form is None else "\x01".join((*path, form))


def _erased() -> str:
    """`Unit.same` of a type-only declaration: every version is the same."""
    return "a type, erased when the file is compiled"


class Splitter:
    def __init__(
        self, source: ParsedText, shadowed: frozenset[str], names: Names, types: bool = False
    ) -> None:
        self.source = source
        self.types = types  # whether the file tests types (`TYPE_TESTS`): a type is a test there
        self.names = names  # the identifiers each unit reads, where the file's names are known
        self.untrusted = shadowed  # runner names this file binds itself
        self.loading = Loading(source, shadowed, names)  # what runs when the file is loaded
        self.writes = Writes(source, names)  # what a test's run changes for the others
        self.escapes = Escapes(self.writes)  # what writes outside the file
        self.env_escapes = Escapes(self.writes, env=True)  # ... but into `process.env`
        self.blocks = Blocks(source, self.writes, self.escapes)  # what keeps to its describe
        self.from_runner: set[str] = set()  # keys of imports from a runner module
        # local names of runner functions: `import { test as base } from 'vitest'`,
        # `const test = base.extend({...})` (Vitest's fixtures)
        self.aliases: dict[str, str] = {}
        self.found: list[Unit] = []
        self._keys = UniqueKeys()
        self.describes = 0  # how many describe bodies the statements being split are in
        # the keys of the describes whose bodies the statements being split
        # are in, outermost first (`Unit.scope`: a function's scope each)
        self.scope: tuple[str, ...] = ()
        # local names of hooks imported from a runner that makes each file a
        # suite (`import { afterEach } from 'vitest'`): at the top level they
        # run around this file's tests alone
        self.file_hooks: set[str] = set()
        self.unparsed: list[str] = []  # keys of the statements with a syntax error (`opaque`)

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
            if self.text(prop) != "extend" or not all(self.loading.inert(a) for a in named(args)):
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
        calls: tuple[str, ...] | None = None,
        grouped: bool = False,
        local: bool | None = None,
        erased: bool = False,
        tokens: Callable[[], Tokens] | None = None,
        confine: str | None = None,
        test: bool = False,
        same: Callable[[], str] | None = None,
        retitled: Callable[[], str | None] | None = None,
    ) -> None:
        """A unit; `calls`: the other modules' callees that alone make a
        COLLECTION unit so, which is a CASE but for them (`Unit.calls`);
        `confine`: what a COLLECTION unit inside a describe is (a hook's
        name, `test`, `declaration`), asked whether it keeps to its block
        (`Blocks.within`; a test that does is a CASE there, `Unit.quiet`);
        `local`: whether a COLLECTION unit writes nothing outside the file
        (`Unit.local`; None: asked of its code, `Escapes.within`, and so
        is `Unit.env_local`; else it is `local`);
        `erased`: a type-only declaration, every version of which is the
        same (`Unit.same`) where the file does not test types; `same`:
        else its `Unit.same` (by default its tree where its code is its
        node's text, `Splitter.same`); `retitled`: its `Unit.retitled`."""
        unique, shown = self._keys.unit(key, name)
        env_local = bool(local)
        if role != COLLECTION:
            local = env_local = False
        elif local is None:
            local = not self.escapes.within(node)
            env_local = local or not self.env_escapes.within(node)
        within: tuple[str, ...] = ()
        if role == COLLECTION and confine is not None:
            within = self.blocks.within(node, unique, confine, local)
        quiet = CASE if calls or (within and confine == "test") else ""
        self.found.append(
            Unit(
                key=unique,
                name=shown,
                role=role,
                code=self.source.text(node) if code is None else code,
                binds=tuple(dict.fromkeys(binds)),
                line=self.source.line(node),
                uses=self.names.within(node),
                calls=calls,
                quiet=quiet,
                grouped=grouped,
                local=local,
                env_local=env_local,
                same=_erased if erased and not self.types else same or self.same(node, code),
                scope=self.scope,
                tokens=tokens,
                within=within,
                test=test,
                retitled=retitled,
            )
        )

    def same(self, node: Node, code: str | None) -> Callable[[], str] | None:
        """`Unit.same` of a unit whose code is all of `node`'s text (a
        helper, a hook, a declaration, any statement, as a test's): its
        tree (`_same`); None for a unit whose code is spelled otherwise (a
        describe's frame, an import's name), compared as it is."""
        if code is not None:
            return None
        return partial(_same, self.source.grammar, self.text(node))

    def text(self, node: Node) -> str:
        return self.source.text(node)

    # --- statements ---

    def statements(self, nodes: Iterable[Node], path: tuple[str, ...], depth: int) -> None:
        if depth > MAX_DEPTH:
            raise Unparsable(f"describe blocks nest more than {MAX_DEPTH} deep")
        for node in nodes:
            if node.is_error or node.is_missing:  # a repair between statements
                refuse(self.source, node)
            if node.type in COMMENTS:
                found = PRAGMA.search(self.text(node)) if node.type == "comment" else None
                if found is not None:
                    label = _joined(path, found.group())
                    self.add(node, f"pragma {label}", label, COLLECTION, local=False)
                continue
            if node.has_error and not self.opens(node):
                self.opaque(node, path)
            elif node.is_named and node.type not in ("empty_statement",):
                self.statement(node, path, depth)

    def opaque(self, node: Node, path: tuple[str, ...]) -> None:
        """A statement with a syntax error (a tolerant parse, `gate.drift.js.pair`):
        one COLLECTION unit of its exact text, reading every word of it."""
        inner = named(node)
        label = _joined(path, summary(self.source, inner[0] if len(inner) == 1 else None))
        self.add(node, f"unparsed {label}", label, COLLECTION, local=False)
        self.found[-1] = replace(self.found[-1], uses=None)
        self.unparsed.append(self.found[-1].key)

    def opens(self, node: Node) -> bool:
        """Whether a statement with a syntax error is a describe whose errors
        all lie in its body, which is then split as any describe's."""
        inner = named(node)
        expr = inner[0] if node.type == "expression_statement" and len(inner) == 1 else None
        call = runner_call(self.source, expr, self.runner_root) if expr is not None else None
        if call is None or call.root not in DESCRIBES or not call.args:
            return False
        body = call.args[-1].child_by_field_name("body")
        if call.args[-1].type not in FUNCTIONS or body is None or body.type != "statement_block":
            return False
        stack = [node]
        while stack:
            current = stack.pop()
            if current.is_error or current.is_missing:
                return False
            if current != body:
                stack.extend(c for c in current.children if c.has_error or c.is_missing)
        return True

    def statement(self, node: Node, path: tuple[str, ...], depth: int) -> None:
        kind = node.type
        loop = None
        if kind in ("for_in_statement", "expression_statement"):
            loop = table_loop(self.source, self.names, self.loading, node)
        if loop is not None:
            self.loop(node, loop, path, depth)
        elif kind == "expression_statement":
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
        elif (required := self.required_names(node)) is not None:
            # one unit a bound name, spelled canonically, as for an import: a
            # name added to `const { a } = require('x')` leaves `a`'s unit as it was
            word, where, taken = required
            runner = self.loading.requires_runner(node)
            for spec, bound in taken:
                label = _joined(path, bound)
                code = f"{word} {{ {spec} }} = require({where!r})"
                self.add(node, f"{word} {label}", label, SUPPORT, [bound], code)
                if runner:
                    self.from_runner.add(self.found[-1].key)
        else:
            declared = self.declaration(node)
            if declared is None:
                label = _joined(path, kind)
                self.add(node, f"statement {label}", label, COLLECTION)
            else:
                word, names, inert = declared
                label = _joined(path, ", ".join(names) or word)
                binds = names if word != "declare" else []  # a type, no runtime binding
                role = SUPPORT if inert else COLLECTION
                confine = "declaration" if self.scope else None
                self.add(
                    node,
                    f"{word} {label}",
                    label,
                    role,
                    binds,
                    erased=word in ERASED,
                    confine=confine,
                )
                if self.loading.requires_runner(node):
                    self.from_runner.add(self.found[-1].key)

    def required_names(self, node: Node) -> tuple[str, str, list[tuple[str, str]]] | None:
        """`const { a, b: c } = require('x')`: (`const`, `x`, [(`a`, `a`),
        (`b: c`, `c`)]), how each name is taken and the name it binds; None
        for any other statement (several declarators, a type annotation, a
        default, a nested or rest pattern, a computed key, a comment inside,
        `require('x').y`)."""
        if node.type not in ("lexical_declaration", "variable_declaration"):
            return None
        declarators = named(node)
        if len(declarators) != 1 or declarators[0].type != "variable_declarator":
            return None
        declarator = declarators[0]
        pattern = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if pattern is None or value is None or pattern.type != "object_pattern":
            return None
        if declarator.child_by_field_name("type") is not None:
            return None
        if value.type != "call_expression" or not self.loading.is_require(value):
            return None
        names: list[tuple[str, str]] = []
        for part in named(pattern):
            if part.type == "shorthand_property_identifier_pattern":
                names.append((self.text(part), self.text(part)))
                continue
            key = part.child_by_field_name("key") if part.type == "pair_pattern" else None
            bound = part.child_by_field_name("value") if part.type == "pair_pattern" else None
            if key is None or bound is None:
                return None
            if key.type != "property_identifier" or bound.type != "identifier":
                return None
            names.append((f"{self.text(key)}: {self.text(bound)}", self.text(bound)))
        if not names:
            return None
        return node.children[0].type, self.loading.required(value), names

    def declaration(self, node: Node) -> tuple[str, list[str], bool] | None:
        """(keyword, bound names, inert) for a declaration; None for any other statement."""
        kind = node.type
        if kind in ("lexical_declaration", "variable_declaration"):
            word = node.children[0].type  # const, let, var
            names: list[str] = []
            inert = word in ("const", "let", "var")
            for child in node.named_children:
                if child.type == "variable_declarator":
                    names += pattern_names(self.source, child.child_by_field_name("name"))
                    inert = inert and self.loading.inert_declarator(child)
            return word, names, inert
        if kind in ("function_declaration", "generator_function_declaration"):
            return "function", self.name_of(node), True
        if kind in CLASSES:
            return "class", self.name_of(node), self.loading.inert_class(node)
        if kind in TYPE_ONLY:
            return TYPE_ONLY[kind], self.name_of(node), True
        if kind == "enum_declaration":
            body = node.child_by_field_name("body")
            members = named(body) if body is not None else []
            inert = all(
                m.type == "property_identifier"
                or (
                    m.type == "enum_assignment"
                    and self.loading.inert(m.child_by_field_name("value"))
                )
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
        self.expression(node, inner[0] if len(inner) == 1 else None, path, depth)

    def expression(self, node: Node, expr: Node | None, path: tuple[str, ...], depth: int) -> None:
        """The unit of a statement `node` that is the expression `expr` (an
        arrow function's expression body is both)."""
        if expr is not None and expr.type in ("internal_module", "module"):
            label = _joined(path, "".join(self.name_of(expr)) or expr.type)
            self.add(node, f"namespace {label}", label, COLLECTION, self.name_of(expr))
            return
        call = self.awaited(expr) if expr is not None else None
        if call is not None and call.root in TESTS:
            self.test(node, call, path)
        elif call is not None and call.root in DESCRIBES:
            self.describe(node, call, path, depth)
        elif call is None and (wrapped := self.wrapped(expr)) is not None:
            self.test(node, wrapped[1], path, wrapper=wrapped[0])
        elif call is not None and call.root in HOOKS and not call.modifiers and not call.curried:
            label = " ".join((call.root, " > ".join(path))).rstrip()
            confine = call.root if self.scope else None
            grouped = self.grouped(node, expr)
            self.add(node, label, label, COLLECTION, grouped=grouped, confine=confine)
        else:
            label = _joined(path, summary(self.source, expr))
            test = imported_test(self.source, expr)
            self.add(node, f"statement {label}", label, COLLECTION, test=test)

    def awaited(self, expr: Node) -> Call | None:
        """`expr` as a runner call (`runner_call`), or a test or describe
        call that is awaited (`await test('x', ...)`, node:test's way of
        running a file's tests one after another; `test()` returns a
        promise there, settled when the test is done), which is the same
        test or describe: its callback runs when the runner runs it, as
        the unawaited call's does, and the statement, `await` included, is
        its unit under the unawaited call's key."""
        call = runner_call(self.source, expr, self.runner_root)
        inner = named(expr)
        if call is not None or expr.type != "await_expression" or len(inner) != 1:
            return call
        call = runner_call(self.source, inner[0], self.runner_root)
        return call if call is not None and (call.root in TESTS or call.root in DESCRIBES) else None

    def grouped(self, node: Node, expr: Node | None) -> bool:
        """Whether a hook runs around a group of this file's tests alone
        (`Unit.grouped`): inside a describe, or at the top level of a file
        whose runner makes each file a suite (`FILE_SUITES`, the hook
        imported from it by name); and writes nothing outside the file
        (`Escapes.within`: it may fill the file's own `let`s), which the
        tests of other files would see after it."""
        if self.describes == 0:
            callee = expr.child_by_field_name("function") if expr is not None else None
            if callee is None or self.text(callee) not in self.file_hooks:
                return False
        return not self.escapes.within(node)

    def wrapped(self, expr: Node | None) -> tuple[str, Call] | None:
        return wrapped_test(self.source, self.names, expr, self.runner_root)

    def test(self, node: Node, call: Call, path: tuple[str, ...], wrapper: str = "") -> None:
        title = self.title(call)
        label = " > ".join((*path, title))
        runs = self.runs_at_collection(call, callback=None)
        focused = call.root in FOCUSED or "only" in call.modifiers
        shares = self.writes.shares(node)  # changes what the file's other tests see
        role = COLLECTION if focused or runs or shares else CASE
        calls = self.made_calls(call) if runs and not (focused or shares) else None
        # a test that only shares: its body runs among the file's tests alone
        grouped = shares and not (focused or runs) and not self.escapes.within(node)
        self.add(
            node,
            f"{wrapper or TESTS[call.root]} {label}",
            label,
            role,
            calls=calls or None,
            grouped=grouped,
            local=False if focused else None,
            tokens=table_tokens(self.source, node, call) if role == CASE else None,
            confine="test" if self.scope and shares and not (focused or runs) else None,
            test=True,
            same=partial(_same, self.source.grammar, self.text(node)),
            retitled=self.retitled(node, call, path) if role == CASE and not wrapper else None,
        )

    def retitled(
        self, node: Node, call: Call, path: tuple[str, ...]
    ) -> Callable[[], str | None] | None:
        """`Unit.retitled` of the test case `node` (`_retitled`): the titles
        of the describes and loops around it (`path`) and its tree with its
        title (the first argument) left out; None where the title may change
        what it runs: a snapshot (keyed by the test's title), a body that
        reads a title or a name (`expect.getState().currentTestName`,
        `this.test.title`, node:test's `t.name`), or no title at all."""
        if not call.args:
            return None
        title = call.args[0]
        at = (title.start_byte - node.start_byte, title.end_byte - node.start_byte)
        return partial(_retitled, self.source.grammar, self.text(node), at, path)

    def describe(self, node: Node, call: Call, path: tuple[str, ...], depth: int) -> None:
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
        runs = self.runs_at_collection(call, callback) or not self.loading.inert_parameters(
            callback
        )
        frame = self.source.span(node.start_byte, body.start_byte + 1) + self.source.span(
            body.end_byte - 1, node.end_byte
        )
        role = COLLECTION if focused or runs else SUPPORT
        parts = [*self.loaded(call, callback), callback.child_by_field_name("parameters")]
        local = not focused and not any(self.escapes.within(p) for p in parts if p is not None)
        rows = table_tokens(self.source, node, call, skip=body) if role == SUPPORT else None
        self.add(node, key, label, role, code=frame, local=local, tokens=rows)
        self.describes += 1
        outer = self.scope
        self.scope = (*outer, self.found[-1].key)
        self.blocks.enter(self.scope[-1], callback, call.modifiers, role == SUPPORT)
        try:
            self.statements(body.children, inner, depth + 1)
        finally:
            self.describes -= 1
            self.scope = outer
            self.blocks.leave()

    def loop(self, node: Node, loop: TableLoop, path: tuple[str, ...], depth: int) -> None:
        """A loop over a literal table (`gate.drift.js.tables`): its
        frame (the header, the table written in it) one unit, its body split
        as a describe's, with the row names that hold literals pure there."""
        inner = (*path, loop.label)
        label = " > ".join(inner)
        body = loop.body
        block = body.type == "statement_block"  # else an arrow function's expression
        frame = self.source.span(node.start_byte, body.start_byte + block) + self.source.span(
            body.end_byte - block, node.end_byte
        )
        self.add(node, f"loop {label}", label, SUPPORT, code=frame)
        pure = self.loading.pure
        outer = pure.literal_names
        inside = range(body.start_byte, body.end_byte)
        pure.literal_names = {**outer, **dict.fromkeys(loop.literals, inside)}
        try:
            if block:
                self.statements(body.children, inner, depth + 1)
            else:
                self.expression(body, body, inner, depth + 1)
        finally:
            pure.literal_names = outer

    def title(self, call: Call) -> str:
        if not call.args:
            return ""
        first = call.args[0]
        text = self.text(first)
        if first.type == "string":
            return text[1:-1]
        return text

    def loaded(self, call: Call, callback: Node | None) -> list[Node]:
        """What of a test or describe call runs when the file is loaded: its
        curried tables and its arguments (title, options), not its functions
        (a test's callback runs later, a describe's `callback` body is split
        into units)."""
        parts = [
            a
            for args in call.curried
            for a in ([args] if args.type == "template_string" else named(args))
        ]
        return parts + [a for a in call.args if a is not callback and a.type not in FUNCTIONS]

    def runs_at_collection(self, call: Call, callback: Node | None) -> bool:
        """Whether a test or describe call's own arguments (`loaded`) may run
        code when the file is loaded."""
        return not all(self.loading.inert(a) for a in self.loaded(call, callback))

    def made_calls(self, call: Call) -> tuple[str, ...] | None:
        """The callees of what a test call's own arguments run when the file
        is loaded, when all are other modules' callables called plainly
        (`Loading.imported_calls`: AVA's `test('x', withServer(), ...)`);
        None for any other code."""
        found: set[str] = set()
        for arg in self.loaded(call, None):
            callees = self.loading.imported_calls(arg)
            if callees is None:
                return None
            found.update(callees)
        return tuple(sorted(found))

    def export(self, node: Node, path: tuple[str, ...]) -> None:
        declaration = node.child_by_field_name("declaration")
        value = node.child_by_field_name("value")
        if declaration is not None:
            declared = self.declaration(declaration)
            if declared is not None:
                word, names, inert = declared
                label = _joined(path, ", ".join(names) or word)
                role = SUPPORT if inert else COLLECTION
                erased = word in ERASED
                self.add(node, f"export {word} {label}", label, role, names, erased=erased)
                return
        if declaration is None and value is None:
            exprs = [c for c in named(node) if c.type not in ("export_clause", "string")]
            reexport = node.child_by_field_name("source") is not None
            value = exprs[0] if len(exprs) == 1 and not reexport else None
        inert = declaration is None and (value is None or self.loading.inert(value))
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
        first = len(self.found)
        spelled = self.imported(node, clause)
        if spelled is None:  # `import x = require(...)`: the statement is the unit
            self.add(node, f"import {label}", label, SUPPORT, _import_names(self.source, clause))
        for what, bound in spelled or ():
            # one unit a bound name, spelled canonically: a name added to an
            # existing `import { a } from './x'` (or the line rewrapped) leaves
            # the units of the names already there as they were
            code = f"import {what} from {where!r}"
            self.add(
                node, f"import {_joined(path, bound)} from {where}", code, SUPPORT, [bound], code
            )
        if where in RUNNER_MODULES:
            self.from_runner.update(u.key for u in self.found[first:])
            self.aliases.update(runner_aliases(self.source, clause))
        if where in FILE_SUITES and not self.text(node).startswith("import type"):
            taken = imported_names(self.source, clause)
            self.file_hooks.update(local for local, name in taken.items() if name in FILE_HOOKS)
            for local, name in taken.items():  # Playwright's `test.beforeEach`
                if name == "test":
                    self.file_hooks.update(f"{local}.{hook}" for hook in FILE_HOOKS)

    def imported(self, node: Node, clause: Node) -> list[tuple[str, str]] | None:
        """(how it is imported, the local name) for each name an import
        clause binds, spelled as an import of that name alone (`X`, `* as
        X`, `{ a as b }`, `type { T }`), in order; None for a clause that is
        not split by name."""
        if clause.type != "import_clause":
            return None
        kind = "type " if self.text(node).startswith("import type") else ""
        out: list[tuple[str, str]] = []
        for part in named(clause):
            if part.type == "identifier":
                out.append((f"{kind}{self.text(part)}", self.text(part)))
            elif part.type == "namespace_import":
                names = _import_names(self.source, part)
                if len(names) != 1:
                    return None
                out.append((f"{kind}* as {names[0]}", names[0]))
            elif part.type == "named_imports":
                for spec in named(part):
                    if spec.type != "import_specifier":
                        continue
                    names = _import_names(self.source, spec)
                    if len(names) != 1:
                        return None
                    out.append((f"{kind}{{ {' '.join(self.text(spec).split())} }}", names[0]))
            else:
                return None
        return out or None


def _joined(path: tuple[str, ...], tail: str) -> str:
    return " > ".join((*path, tail))


def _import_names(source: ParsedText, clause: Node) -> list[str]:
    """The local names an import clause binds."""
    return [source.text(bound) for _, bound in import_bindings(clause)]
