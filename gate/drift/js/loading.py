"""What runs when the runner loads a JS/TS test file (`Loading`): whether
an expression only defines (`inert`: literals, names, functions, classes
without static code, object and array literals of those, `require('x')`,
`jest.fn()`), and the same for a declarator, a binding pattern's defaults,
a callback's parameters and a class; a call, `new`, a getter, a spread or
a decorator may run code, but for a value the platform's built-ins alone
compute (`gate.drift.js.pure`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.drift._treesitter import COMMENTS, ParsedText, named
from gate.drift.js.frameworks import RUNNER_MODULES
from gate.drift.js.names import FUNCTIONS, Names
from gate.drift.js.pure import LITERALS, Pure, bare_module

if TYPE_CHECKING:
    from tree_sitter import Node

# TypeScript wrappers whose value is their first named child.
TYPE_WRAPPERS = frozenset({"as_expression", "satisfies_expression", "non_null_expression"})
_PURE_KINDS = frozenset(
    {"call_expression", "new_expression", "member_expression", "subscript_expression"}
)
# Modules whose callables act on the process's shared state, however often
# a file calls them (`Loading.imported_calls`): Node's own (`fs`, `process`,
# `child_process`, ...: any of them, `node:` or not), the runners', and the
# mocking libraries'.
NODE_MODULES = frozenset(
    {
        "assert", "async_hooks", "buffer", "child_process", "cluster", "console",
        "constants", "crypto", "dgram", "diagnostics_channel", "dns", "domain", "events",
        "fs", "http", "http2", "https", "inspector", "module", "net", "os", "path",
        "perf_hooks", "process", "punycode", "querystring", "readline", "repl", "stream",
        "string_decoder", "sys", "timers", "tls", "trace_events", "tty", "url", "util",
        "v8", "vm", "wasi", "worker_threads", "zlib",
    }
)  # fmt: skip
MOCKING_MODULES = frozenset(
    {
        "sinon", "nock", "proxyquire", "testdouble", "esmock", "mock-fs", "msw", "jest-mock",
        "mockdate", "timekeeper", "@sinonjs/fake-timers", "undici-mock", "fetch-mock",
    }
)  # fmt: skip
# Method names that write into what they are called on (`REGISTRY.push(x)`):
# such a call changes shared state whatever module the object comes from.
WRITING_METHODS = frozenset(
    {
        "push", "unshift", "splice", "pop", "shift", "set", "add", "delete", "clear",
        "assign", "defineProperty", "defineProperties", "setPrototypeOf", "register",
        "use", "on", "once", "addListener", "prependListener", "emit", "install",
        "enable", "disable", "mock", "stub", "spyOn", "replace", "restore", "start",
        "listen", "write", "append", "patch", "inject", "extend",
    }
)  # fmt: skip


def shared_module(module: str) -> bool:
    """Whether calling into `module` may act on the process's shared state
    (`NODE_MODULES`, `MOCKING_MODULES`, a runner's)."""
    top = bare_module(module).split("/")[0]
    return (
        module.startswith(("node:", "bun:"))
        or top in NODE_MODULES
        or module in MOCKING_MODULES
        or module in RUNNER_MODULES
    )


class Loading:
    """The load-time reading of one file's code: `untrusted` are the runner
    names the file binds itself (a `require` or `jest` of its own is not
    the runner's, so calling it may run anything)."""

    def __init__(self, source: ParsedText, untrusted: frozenset[str], names: Names) -> None:
        self.source = source
        self.untrusted = untrusted
        self.names = names
        self.pure = Pure(source, names)  # what only the platform's built-ins compute

    def text(self, node: Node) -> str:
        return self.source.text(node)

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

    def imported_calls(self, node: Node) -> tuple[str, ...] | None:
        """The callees, as written, of what may run code when `node` is
        evaluated, when each is a plain call or `new` of a name another
        module gives the file (`Names.import_of`), or a member chain of one
        (`helpers.withServer()`), no module of shared state
        (`shared_module`) and no writing method (`WRITING_METHODS`), with
        arguments of the same kind or that only define: `test('x',
        withServer(), ...)`; and, as `&name`, the names of the file's own
        such a call hands its callee (`_handed`).  Sorted; () when `node`
        only defines; None for anything else (a call of a call's result, a
        tagged template, a getter, a name the file binds itself, a
        function handed to a callee)."""
        found: set[str] = set()
        stack = [node]
        while stack:
            current = stack.pop()
            more = self._inert_parts(current)
            if more is None:
                called = self._imported_call(current)
                if called is None:
                    return None
                callees, more = called
                found.update(callees)
            stack.extend(more)
        return tuple(sorted(found))

    def _imported_call(self, node: Node) -> tuple[set[str], list[Node]] | None:
        """({callee as written, and what it is handed}, arguments) of a call
        `imported_calls` accepts."""
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            word = ""
        elif node.type == "new_expression":
            function = node.child_by_field_name("constructor")
            word = "new "
        else:
            return None
        args = node.child_by_field_name("arguments")
        if function is None or (args is not None and args.type != "arguments"):
            return None
        root, method = function, ""
        while root.type == "member_expression":
            prop = root.child_by_field_name("property")
            obj = root.child_by_field_name("object")
            if prop is None or obj is None or prop.type != "property_identifier":
                return None
            method = method or self.text(prop)
            root = obj
        if root.type != "identifier" or method in WRITING_METHODS:
            return None
        module = self.names.import_of(self.text(root))
        if module is None or shared_module(module):
            return None
        given = named(args) if args is not None else []
        callees = {word + "".join(self.text(function).split())}
        for arg in given:
            handed = self._handed(arg)
            if handed is None:
                return None
            callees |= handed
        return callees, given

    def _handed(self, node: Node) -> set[str] | None:
        """What of the file's own an argument of an imported call hands the
        callee, which a callee that calls what it is given would run at
        load: each name neither imported nor a pure value, as `&name` (the
        base must hand it the same way, and a changed definition of it is
        a changed unit of its own); None for a function, class or method
        written there, whose code is new wherever it stands."""
        out: set[str] = set()
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in FUNCTIONS or current.type in ("class", "method_definition"):
                return None
            if current.type in ("identifier", "shorthand_property_identifier"):
                name = self.text(current)
                if self.names.import_of(name) is None and not self.pure.value(current):
                    out.add(f"&{name}")
            stack.extend(current.named_children)
        return out

    def _inert_parts(self, node: Node) -> list[Node] | None:
        """The parts of `node` that must be inert too, or None when `node` may run code."""
        kind = node.type
        if kind in LITERALS or kind in FUNCTIONS or kind in COMMENTS:
            return []
        if kind in ("identifier", "this", "property_identifier", "shorthand_property_identifier"):
            return []
        if kind == "template_string":
            # `${x}` calls x's toString: only pure values may be substituted
            return [] if self.pure.value(node) else None
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
            return [] if self.pure.value(argument) else None
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
            return [] if self.pure.value(left) and self.pure.value(right) else None
        if kind == "call_expression" and (self.is_require(node) or self.is_mock_function(node)):
            return []
        if kind == "member_expression" and self.is_require(node):
            return []
        if kind in _PURE_KINDS:  # a built-in's call or read (`process.platform`)
            return [] if self.pure.value(node) else None
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
