"""Whether a JS/TS test changes what the file's other tests see when it runs
(`Writes.shares`), as Python's `shares_state` asks of a test body.

Every runner runs a file's tests in one module scope, in order (Mocha runs
every file in one process), so a new test that stores into an imported
module or a module-level object changes what the tests after it read:
`mod.f = () => 2` placed before an existing test turns it green.  A test
shares state when its call (the title, the options, the callback) stores
or deletes through a name that is not its own, however the store is
spelled: `=`, `+=`, `++`, `delete`, a destructuring assignment, a `for
(x.y of ...)` head; or assigns a name it does not bind (a module `let`
with a value, an implicit global; not a slot that each test fills for
itself, `let server;`, which no hook assigns); or hands something that is
not its own to `Object.assign`, `Object.defineProperty(ies)`,
`Object.setPrototypeOf`, `Reflect.set`, `Reflect.defineProperty`,
`Reflect.deleteProperty` or `Reflect.setPrototypeOf` (with `Object` and
`Reflect` the platform's); calls `process.chdir`; has a `with` statement
or calls `eval`; or names a function, class or object literal of
the file that does any of those (`bend()`, a callback `test('x', bend)`,
`helpers.bend()`), to any depth.

A store the test puts back itself, the saved original restored in a
`finally` of its own (`gate.drift.js.restores`), changes what no other
test sees; nor does a store into a chain of the file's own object that a
`beforeEach` around every test of the file stores anew (`Writes._reset`).

A name is the test's own where a function, `catch` or block inside the
test's call binds it (`Names.own`), or a loop's head inside it does, in
that loop (`for (const x of ...)`, `for (let i = 0; ...; i++)`): a
parameter of a nested function or a block's `let` elsewhere in the test
leaves `mod.f = 2` a store into the module.  `this` is the test's own in a
method or static block of a class the test defines; in a function it is
the caller's choice (Mocha's test context, shared by a suite's tests; the
global object in a sloppy call).  A store through what a call returned
(`getConfig().x = 1`) counts, one through a fresh literal, function or
`new` does not.  Where the line is drawn, as in Python: a method call on a
shared object (`REGISTRY.push(x)`, `jest.spyOn(mod, 'f')`) and a local
alias (`const m = mod; m.f = 2`) are not seen; any call may mutate and any
local may alias, and counting every such statement would count every test.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from gate.drift._treesitter import ParsedText, holder, named
from gate.drift.js.frameworks import DESCRIBES, HOOKS, TESTS
from gate.drift.js.loading import TYPE_WRAPPERS
from gate.drift.js.names import Names, pattern_leaves, pattern_names
from gate.drift.js.restores import restored

if TYPE_CHECKING:
    from tree_sitter import Node

# Captured by `Names` in its pass over the tree (`Names(..., also=SCAN)`).
SCAN = """
(assignment_expression left: (_) @store)
(augmented_assignment_expression left: (_) @store)
(update_expression argument: (_) @store)
(unary_expression operator: "delete" argument: (_) @store)
(for_in_statement left: (_) @store)
(for_in_statement kind: _ left: (_)) @loop
(for_statement initializer: [(lexical_declaration) (variable_declaration)]) @loop
(function_declaration) @helper
(generator_function_declaration) @helper
(class_declaration) @helper
(variable_declarator
  value: [(arrow_function) (function_expression) (generator_function) (class) (object)]) @helper
"""
# The platform's calls that write into their first argument, and those that
# write the process's state whatever their arguments.
ARGUMENT_WRITERS = frozenset(
    {
        "Object.assign",
        "Object.defineProperty",
        "Object.defineProperties",
        "Object.setPrototypeOf",
        "Reflect.set",
        "Reflect.defineProperty",
        "Reflect.deleteProperty",
        "Reflect.setPrototypeOf",
    }
)
_PROCESS_WRITERS = frozenset({"process.chdir"})
_WRAPPERS = TYPE_WRAPPERS | {"parenthesized_expression", "type_assertion"}
CHAINS = frozenset({"member_expression", "subscript_expression"})
# Values made where they stand: a store into one reaches nothing else.
FRESH = frozenset(
    {"object", "array", "new_expression", "arrow_function", "function_expression", "class"}
)
PATTERNS = frozenset({"object_pattern", "array_pattern"})
# Where `this` is an object the code made: a class's method or static block.
_THIS_OWNERS = frozenset({"method_definition", "class_static_block"})
# Functions with a `this` of their own (an arrow function takes its caller's).
_THIS_GIVERS = _THIS_OWNERS | {
    "function_expression",
    "function",
    "function_declaration",
    "generator_function",
    "generator_function_declaration",
}
FUNCTION_KINDS = _THIS_GIVERS | {"arrow_function"}


class Writes:
    """The state-sharing code of one parsed file, scanned once (lazily)."""

    def __init__(self, source: ParsedText, names: Names) -> None:
        self.source = source
        self.names = names
        self._sites: list[tuple[int, str, Node]] | None = None  # (start, capture, node)
        self._starts: list[int] = []
        self._sharing: frozenset[str] | None = None  # names of the file's sharing helpers

    def shares(self, statement: Node) -> bool:
        """Whether running the test call `statement` may change what the
        file's other tests see (see the module docstring)."""
        scope = range(statement.start_byte, statement.end_byte)
        if self._writes(scope):
            return True
        sharing = self._helpers()
        return any(
            not self.owns(name, n.start_byte, scope)
            for name in sharing
            for n in self.names.occurrences(name)
            if n.start_byte in scope
        )

    def stays(self, statement: Node, block: range) -> bool:
        """Whether running `statement` stores only through names bound
        inside `block` (a describe's callback that holds it: the block's
        own `let`s, which no code outside it can name) and names none of
        the file's functions that store outside themselves: not a slot or
        a renewed `let` of an enclosing scope, as `shares` allows."""
        scope = range(statement.start_byte, statement.end_byte)
        if self._writes(scope, block):
            return False
        sharing = self._helpers()
        return not any(
            n.start_byte in scope for name in sharing for n in self.names.occurrences(name)
        )

    def sites(self) -> list[tuple[int, str, Node]]:
        """The file's places that may store, in source order: (start byte,
        kind, node), kind one of "store", "loop", "helper", "writer" (an
        `Object`, `Reflect` or `process` call) and "always" (`eval`,
        `with`); found once, shared with `gate.drift.js.escapes`."""
        if self._sites is None:
            if self.names.also_query != SCAN:  # what `units` always passes: a caller's slip
                raise ValueError("Writes reads the captures of Names(..., also=writes.SCAN)")
            found = self.names.also
            sites = [
                (n.start_byte, kind, n)
                for kind in ("store", "loop", "helper")
                for n in found.get(kind, [])
            ]
            # Calls are found by name among the identifiers `Names` holds: a
            # query predicate on every call of the file costs more than the
            # parse (bench/bench_testcases.py).
            for host in ("Object", "Reflect", "process", "eval"):
                for n in self.names.occurrences(host):
                    call = _call_of(n, member=host != "eval")
                    if call is not None:
                        sites.append(
                            (call.start_byte, "writer" if host != "eval" else "always", call)
                        )
            sites.extend((n.start_byte, "always", n) for n in self.names.withs)
            sites.sort(key=lambda site: site[0])
            self._sites = sites
            self._starts = [site[0] for site in sites]
        return self._sites

    def _writes(self, scope: range, block: range | None = None) -> bool:
        """Whether code in `scope` itself stores outside it (no helper's);
        with `block`, outside `block` strictly (`stays`)."""
        sites = self.sites()
        i = bisect_left(self._starts, scope.start)
        while i < len(sites) and sites[i][0] < scope.stop:
            _, kind, node = sites[i]
            i += 1
            if node.end_byte > scope.stop:
                continue
            if kind == "always":
                return True
            if (
                kind == "store"
                and self._store(node, scope, block)
                and not self._restored(node, scope)
            ):
                return True
            if kind == "writer" and self._writer(node, scope, block):
                return True
        return False

    def _restored(self, target: Node, scope: range) -> bool:
        """`restores.restored`: the code puts the value back in its own `finally`."""
        sites = self.sites()
        start, stop = bisect_left(self._starts, scope.start), bisect_left(self._starts, scope.stop)
        stores = [node for _, kind, node in sites[start:stop] if kind == "store"]
        return restored(self.source, target, stores, scope)

    def _store(self, target: Node, scope: range, block: range | None = None) -> bool:
        parent = target.parent
        if (
            parent is not None
            and parent.type == "for_in_statement"
            and parent.child_by_field_name("kind") is not None
        ):
            return False  # `for (const x of ...)` declares
        return self._outside(target, scope, block)

    def _writer(self, call: Node, scope: range, block: range | None = None) -> bool:
        function = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        host = function.child_by_field_name("object") if function is not None else None
        member = function.child_by_field_name("property") if function is not None else None
        if host is None or member is None or arguments is None:
            return False
        name = self.source.text(host)
        if not self.names.free(name):
            return False  # the file's own `Object`: a helper of the file, judged as one
        spelled = f"{name}.{self.source.text(member)}"
        if spelled in _PROCESS_WRITERS:
            return True
        first = named(arguments)[:1]
        if spelled not in ARGUMENT_WRITERS or not first:
            return False
        # `Object.assign(Readable.from([...]), {...})`: a fresh object (`fresh`)
        outside = self._outside(first[0], scope, block)
        return outside and not fresh(self.source, self.names, first[0])

    def _outside(self, target: Node, scope: range, block: range | None = None) -> bool:
        """Whether storing through `target` may reach what lies outside
        `scope`; with `block`, what no name bound inside `block` holds."""
        if block is not None:
            scope = block
        target = unwrapped(target, _WRAPPERS)
        kind = target.type
        if kind in FRESH:
            return False
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            name = self.source.text(target)
            at = target.start_byte
            if block is not None:
                return not self.owns(name, at, scope)
            return not (self.owns(name, at, scope) or self._slot(name) or self._renewed(name, at))
        if kind in CHAINS:
            root = chain_root(target, _WRAPPERS)
            if root.type == "identifier":
                name = self.source.text(root)
                return not (self.owns(name, root.start_byte, scope) or self._reset(target, name))
            if root.type == "this":
                return not _own_this(root, scope)
            return root.type not in FRESH
        if kind in PATTERNS:
            return any(self._outside(leaf, scope, block) for leaf in pattern_leaves(target))
        return True

    def owns(self, name: str, at: int, scope: range) -> bool:
        """Whether `name` at byte `at` is `scope`'s own: `Names.own`, or
        bound by the head of a loop around `at` inside `scope` (`for (const
        el of list) el.value = 1`, `for (let i = 0; ...; i++)`)."""
        if self.names.own(name, at, scope):
            return True
        sites = self.sites()
        for i in range(bisect_left(self._starts, scope.start), bisect_left(self._starts, at)):
            _, kind, node = sites[i]
            if kind == "loop" and at < node.end_byte <= scope.stop and name in self._heads(node):
                return True
        return False

    def _slot(self, name: str) -> bool:
        """Whether `name` is a slot each test fills for itself: the file
        declares it once, without a value (`let server;`, which a test
        assigns and an `afterEach` closes), and nothing but a function
        outside every hook assigns it a value (a hook may clear it:
        `server = null`).  A slot a hook fills (`let app;
        beforeAll(() => { app = build(); })`) holds what the tests after a
        new assignment would read, so it is none."""
        declared = []
        for n in self.names.bindings(name):
            up = n.parent
            if (
                up is not None
                and up.type == "variable_declarator"
                and up.child_by_field_name("name") == n
            ):
                declared.append(up)
            elif not _cleared(self.source, n) and _in_hook_or_top(self.source, n):
                return False
        return len(declared) == 1 and declared[0].child_by_field_name("value") is None

    def _renewed(self, name: str, at: int) -> bool:
        """Whether `name` at byte `at` is a describe's `let` that the
        describe renews around each of its tests: the innermost `let` of
        the name directly in a describe's callback body around `at` (each
        other declaration of it at the top level, which that one shadows)
        in a body that has a `beforeEach` (Mocha's `setup`) that assigns
        the name, or an `afterEach` (`teardown`) that resets it, as a
        statement of the hook's own body (`beforeEach(() => { transport =
        new T(); })`), so a test's value never reaches the next test.  A
        `beforeAll`, or an assignment under an `if`, renews nothing."""
        around = None
        for n in self.names.bindings(name):
            up = n.parent
            if up is None or up.type not in _DECLARING:
                continue  # an assignment or a store through it, not a declaration
            body = _describe_let(self.source, n)
            if body is None:
                if not _top_level(n):
                    return False  # a declaration in some other scope: not followed
            elif body.start_byte <= at < body.end_byte and (
                around is None or body.start_byte > around.start_byte
            ):
                around = body
        return around is not None and _renews(self.source, around, name)

    def _reset(self, target: Node, root: str) -> bool:
        """Whether a store through the chain `target` (`mock.session = x`,
        rooted at the file's `root`) is undone before every test of the file:
        `root` is a `const`, `let` or `var` of the file that nothing assigns
        (`Names.declared_value`; not an import, a global or `process`), and
        a `beforeEach` (Mocha's `setup`) of a describe around `target`, or of
        the file, stores that very chain as a statement of its own body with
        a value that does not read `root` (`mock.session = undefined`), in a
        describe that holds every test and describe of the file.  Each test
        then starts from the hook's value, whatever a test before it stored.
        An `afterEach` does not do: the first test would see what a new test
        placed before it stored.  A store deeper than the hook's chain
        (`mock.session.id = 2`) reaches the object the hook put there.  A
        file that runs tests concurrently anywhere (`it.concurrent`) gets no
        such pass: tests that overlap see each other's stores."""
        if root in SHARED_GLOBALS or self.names.declared_value(root, target) is None:
            return False
        if b"concurrent" in self.source.data:
            return False  # tests that overlap see each other's stores between the hooks
        chain = "".join(self.source.text(target).split())
        up = target.parent
        while up is not None:
            body = _describe_body(self.source, up) if up.type == "statement_block" else None
            if up.type == "program":
                body = up
            if body is not None and _renews(self.source, body, chain, root) and self._holds(body):
                return True
            up = up.parent
        return False

    def _holds(self, body: Node) -> bool:
        """Whether every test and describe call of the file is inside the
        describe call whose callback body is `body` (or `body` is the file)."""
        call = body.parent.parent.parent if body.parent and body.parent.parent else None
        span = call if call is not None and body.type != "program" else body
        for name in (*TESTS, *DESCRIBES):
            for n in self.names.occurrences(name):
                if span.start_byte <= n.start_byte < span.end_byte:
                    continue
                if _in_import(n):
                    continue
                return False
        return True

    def _heads(self, loop: Node) -> list[str]:
        """The names a loop's head declares (`for (const [k, v] of ...)`,
        `for (let i = 0, n = 2; ...)`)."""
        if loop.type == "for_in_statement":
            return pattern_names(self.source, loop.child_by_field_name("left"))
        declaration = loop.child_by_field_name("initializer")
        if declaration is None:
            return []
        return [
            name
            for declarator in named(declaration)
            if declarator.type == "variable_declarator"
            for name in pattern_names(self.source, declarator.child_by_field_name("name"))
        ]

    def _helpers(self) -> frozenset[str]:
        """The names of the file's functions and classes whose code writes
        outside them, or names one that does, to a fixpoint."""
        if self._sharing is None:
            helpers: dict[str, list[Node]] = {}
            for _, kind, node in self.sites():
                if kind != "helper":
                    continue
                spelled = node.child_by_field_name("name")
                if spelled is not None:
                    helpers.setdefault(self.source.text(spelled), []).append(node)
            sharing = {
                name
                for name, nodes in helpers.items()
                if any(self._writes(range(n.start_byte, n.end_byte)) for n in nodes)
            }
            changed = bool(sharing)
            while changed:
                changed = False
                for name, nodes in helpers.items():
                    if name in sharing:
                        continue
                    if any(self.names_one_of(n, sharing) for n in nodes):
                        sharing.add(name)
                        changed = True
            self._sharing = frozenset(sharing)
        return self._sharing

    def names_one_of(self, node: Node, sharing: set[str]) -> bool:
        """Whether `node`'s code names one of `sharing` that is not its own (`owns`)."""
        scope = range(node.start_byte, node.end_byte)
        return any(
            n.start_byte in scope and not self.owns(name, n.start_byte, scope)
            for name in sharing
            for n in self.names.occurrences(name)
        )


def _own_this(node: Node, scope: range) -> bool:
    """Whether `this` at `node` is an object the test made: the function
    that gives it its `this` is a method or static block of a class inside
    `scope`.  A function's `this` is its caller's choice (Mocha's test
    context, shared by a suite's tests; the global object in a sloppy call)."""
    up = node.parent
    while up is not None and up.type not in _THIS_GIVERS:
        up = up.parent
    if up is None or up.type not in _THIS_OWNERS:
        return False
    return scope.start <= up.start_byte and up.end_byte <= scope.stop


# What a binding occurrence of a name is in, where it declares the name
# (a destructuring pattern may assign instead, which counts the stricter way).
_DECLARING = frozenset(
    {
        "variable_declarator",
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "import_specifier",
        "import_clause",
        "namespace_import",
        "required_parameter",
        "optional_parameter",
        "formal_parameters",
        "arrow_function",
        "catch_clause",
        "object_pattern",
        "array_pattern",
        "pair_pattern",
        "rest_pattern",
        "assignment_pattern",
        "object_assignment_pattern",
    }
)
# The hooks that run around each test of their describe: before it, after it.
_RENEWERS = frozenset({"beforeEach", "setup", "afterEach", "teardown"})
_BEFORE = frozenset({"beforeEach", "setup"})


def _describe_let(source: ParsedText, name: Node) -> Node | None:
    """The describe callback body that declares `name` by a `let`
    statement directly in it (`describe('x', () => { let t; ... })`), or None."""
    declarator = name.parent
    if declarator is None or declarator.type != "variable_declarator":
        return None
    if declarator.child_by_field_name("name") != name:
        return None
    statement = declarator.parent
    if statement is None or statement.type != "lexical_declaration":
        return None
    if statement.children[0].type != "let":
        return None
    body = statement.parent
    if body is None or body.type != "statement_block":
        return None
    return _describe_body(source, body)


def _top_level(node: Node) -> bool:
    """Whether `node` is in no function, block or class: a binding of the module."""
    up = node.parent
    while up is not None and up.type != "program":
        if up.type in FUNCTION_KINDS or up.type in ("statement_block", "class_body"):
            return False
        up = up.parent
    return True


def _renews(source: ParsedText, body: Node, name: str, root: str = "") -> bool:
    """Whether a statement of the describe body `body` is a `beforeEach`
    or `afterEach` whose callback assigns `name` as a statement of its own;
    with `root` (a chain `name` rooted there), a `beforeEach` alone, and a
    value that does not read `root`."""
    renewers = _BEFORE if root else _RENEWERS
    for statement in named(body):
        call = named(statement)[0] if statement.type == "expression_statement" else None
        callee = call.child_by_field_name("function") if call is not None else None
        if call is None or callee is None or call.type != "call_expression":
            continue
        if source.text(callee) not in renewers:
            continue
        arguments = call.child_by_field_name("arguments")
        for function in named(arguments) if arguments is not None else []:
            inner = (
                function.child_by_field_name("body") if function.type in FUNCTION_KINDS else None
            )
            if inner is None or inner.type != "statement_block":
                continue
            for step in named(inner):
                expr = named(step)[0] if step.type == "expression_statement" else None
                if expr is not None and expr.type == "await_expression" and named(expr):
                    expr = named(expr)[0]
                if expr is None or expr.type != "assignment_expression":
                    continue
                left = expr.child_by_field_name("left")
                if left is None or "".join(source.text(left).split()) != name:
                    continue
                if not root and left.type == "identifier":
                    return True
                value = expr.child_by_field_name("right")
                if root and value is not None and root not in _spelled(value, source):
                    return True
    return False


def _spelled(node: Node, source: ParsedText) -> set[str]:
    """The identifiers `node` reads, by spelling."""
    return {source.text(n) for n in _identifiers(node)}


def _describe_body(source: ParsedText, block: Node) -> Node | None:
    """`block` when it is the body of a describe's callback, else None."""
    function = block.parent
    if function is None or function.type not in FUNCTION_KINDS:
        return None
    if function.child_by_field_name("body") != block:
        return None
    arguments = function.parent
    call = arguments.parent if arguments is not None and arguments.type == "arguments" else None
    callee = call.child_by_field_name("function") if call is not None else None
    while callee is not None and callee.type in ("call_expression", "member_expression"):
        field = "function" if callee.type == "call_expression" else "object"
        callee = callee.child_by_field_name(field)
    if callee is None or callee.type != "identifier" or source.text(callee) not in DESCRIBES:
        return None
    return block


def _in_import(node: Node) -> bool:
    """Whether `node` is part of an import statement."""
    up = node.parent
    while up is not None and up.type != "program":
        if up.type == "import_statement":
            return True
        up = up.parent
    return False


def _in_hook_or_top(source: ParsedText, node: Node) -> bool:
    """Whether `node` runs in a hook's callback (`beforeEach(() => ...)`,
    `test.before(...)`) or outside every function (when the file loads)."""
    up = node.parent
    in_function = False
    while up is not None:
        if up.type in FUNCTION_KINDS:
            in_function = True
        elif up.type == "call_expression" and in_function:
            callee = up.child_by_field_name("function")
            spelled = source.text(callee).rsplit(".", 1)[-1] if callee is not None else ""
            if spelled in HOOKS:
                return True
        up = up.parent
    return not in_function


def _cleared(source: ParsedText, name: Node) -> bool:
    """Whether the binding occurrence `name` clears it: `name = null`,
    `name = undefined`."""
    up = holder(name, "assignment_expression", "left")
    if up is None:
        return False
    right = up.child_by_field_name("right")
    return right is not None and source.text(right) in ("null", "undefined")


def _call_of(name: Node, *, member: bool) -> Node | None:
    """The call `name` is the callee of (`eval(...)`), or with `member` the
    call of a method of it (`Object.assign(...)`); else None."""
    callee = holder(name, "member_expression", "object") if member else name
    return holder(callee, "call_expression", "function") if callee is not None else None


# The global object and `process` under their names: a store through one,
# or handing one to any code, reaches every file that shares the process.
SHARED_GLOBALS = frozenset({"globalThis", "global", "window", "self", "process", "Function"})
VALUE_WRAPPERS = _WRAPPERS | {"await_expression"}


def unwrapped(node: Node, wrappers: frozenset[str]) -> Node:
    """`node` seen through the `wrappers` around it (`(x)`, `x as T`, `await x`)."""
    while node.type in wrappers and named(node):
        node = named(node)[0]
    return node


def chain_root(chain: Node, wrappers: frozenset[str]) -> Node:
    """The node a member chain starts from (`a` of `a.b[0].c`), seen
    through the `wrappers` on the way."""
    root = chain
    while root.type in CHAINS or (root.type in wrappers and named(root)):
        inner = root.child_by_field_name("object") if root.type in CHAINS else None
        root = inner if inner is not None else named(root)[0]
    return root


_LITERAL_VALUES = frozenset(
    {"string", "number", "template_string", "true", "false", "null", "undefined", "regex"}
)


def fresh(source: ParsedText, names: Names, value: Node) -> bool:
    """Whether evaluating `value` gives an object made there: a
    literal, `new`, a function or class, or a call that hands it
    neither the global object nor `process` (`Object.assign`'s first
    argument, `Readable.from([...])`)."""
    value = unwrapped(value, VALUE_WRAPPERS)
    if value.type in FRESH or value.type in _LITERAL_VALUES:
        return True
    if value.type != "call_expression":
        return False
    function = value.child_by_field_name("function")
    if function is None or function.type not in ("identifier", *CHAINS):
        return False  # `(() => globalThis)()`
    spelled = "".join(source.text(function).split())
    if spelled in ("Object", "Reflect.get", "Object.getPrototypeOf", "require"):
        return False
    arguments = value.child_by_field_name("arguments")
    if arguments is None or _hands_module(source, names, value):
        return False
    return not any(source.text(n) in SHARED_GLOBALS for n in _identifiers(arguments))


def _hands_module(source: ParsedText, names: Names, call: Node) -> bool:
    """Whether a call hands the global object, `process` or an imported
    binding itself (not a member read of one) as an argument."""
    arguments = call.child_by_field_name("arguments")
    for arg in named(arguments) if arguments is not None else []:
        arg = unwrapped(arg, VALUE_WRAPPERS)
        if arg.type == "identifier":
            name = source.text(arg)
            if name in SHARED_GLOBALS or names.import_of(name) is not None:
                return True
        if arg.type in CHAINS and source.text(arg).replace(" ", "") == "process.env":
            return True
    return False


def _identifiers(node: Node) -> list[Node]:
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            found.append(current)
        stack.extend(current.named_children)
    return found
