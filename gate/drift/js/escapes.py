"""Whether JS/TS code writes outside its file (`Escapes.within`): what the
tests of other files could see however the runner isolates modules, which
is all a new Jest or Vitest file's load-time code can change for them
(`gate.drift.js.own_registry`), and, apart (`Escapes(writes, env=True)`),
whether all it writes outside is `process.env`, which Jest gives each
test file a copy of (`gate.drift.js.own_env`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.drift._treesitter import named
from gate.drift.js.names import pattern_leaves
from gate.drift.js.writes import (
    ARGUMENT_WRITERS,
    CHAINS,
    FRESH,
    FUNCTION_KINDS,
    PATTERNS,
    SHARED_GLOBALS,
    VALUE_WRAPPERS,
    Writes,
    chain_root,
    fresh,
    unwrapped,
)

if TYPE_CHECKING:
    from tree_sitter import Node

# The runners' calls that write the process's globals however they are given.
_STUBS = frozenset(
    {"vi.stubGlobal", "vi.stubEnv", "jest.replaceProperty", "vi.spyOn", "jest.spyOn"}
)
# Node's modules whose calls may write outside the process's memory (files,
# other processes, the working folder) or patch what other modules load.
_WRITING_MODULES = frozenset(
    {"fs", "fs/promises", "child_process", "process", "module", "cluster", "worker_threads", "v8"}
)
_STORES = frozenset(
    {
        "assignment_expression",
        "augmented_assignment_expression",
        "update_expression",
        "unary_expression",
    }
)


class Escapes:
    """Whether code of a file writes outside the file (`Escapes.within`):
    what the tests of other files could see however the runner isolates
    modules.  The file's own names (declared in it, holding objects it made:
    literals, `new`, calls that hand it neither the global object nor
    `process`) are its own; the global object, `process`, the platform's
    other globals (`Array.prototype`), an imported binding, and a name of
    the file bound to any of those (an alias: `const g = globalThis`, a
    parameter, a destructured value) are not.  `env`: a write into the
    platform's own `process.env` (`process.env.X = ...`, `delete
    process.env.X`, `process.env = {...}`, `Object.assign(process.env,
    ...)`, `process.env` handed to code) is taken as the file's own too
    (`Unit.env_local`); an alias of it (`const e = process.env`) is not."""

    def __init__(self, writes: Writes, env: bool = False) -> None:
        self.env = env
        self.source = writes.source
        self.names = writes.names
        self.writes = writes  # its scan of the file's helpers
        self._safe: dict[str, bool] = {}
        self._escaping: frozenset[str] | None = None  # the file's helpers that escape

    def text(self, node: Node) -> str:
        return self.source.text(node)

    def within(self, node: Node, spared: frozenset[tuple[int, int]] = frozenset()) -> bool:
        """Whether `node` may write outside the file: a store or a delete
        through what is not the file's own; `Object.assign`,
        `Object.defineProperty(ies)`, `Object.setPrototypeOf`, `Reflect.*`
        writers, `vi.spyOn`/`jest.spyOn` and `jest.replaceProperty` handed
        what is not; `vi.stubGlobal`, `vi.stubEnv`, `process.chdir`,
        `eval`, `with`; the global object or `process.env` handed to any
        code or bound to another name; and, outside every function (when
        the file loads), a call into Node's writing modules (`fs`,
        `child_process`, ...); or naming a function, class or object of the
        file that does any of those, to any depth.  A file whose names are
        not known escapes.  `spared`: the (start, end) bytes of calls the
        caller knows are undone (`gate.drift.js.blocks`), not looked into."""
        if not self.names.known or self._direct(node, spared):
            return True
        scope = range(node.start_byte, node.end_byte)
        return any(
            not self.writes.owns(name, n.start_byte, scope)
            for name in self._helpers()
            for n in self.names.occurrences(name)
            if n.start_byte in scope
        )

    def _helpers(self) -> frozenset[str]:
        """The file's helpers whose code escapes, or names one that does."""
        if self._escaping is None:
            helpers: dict[str, list[Node]] = {}
            for _, kind, node in self.writes.sites():
                spelled = node.child_by_field_name("name") if kind == "helper" else None
                if spelled is not None:
                    helpers.setdefault(self.source.text(spelled), []).append(node)
            escaping = {n for n, nodes in helpers.items() if any(map(self._direct, nodes))}
            changed = bool(escaping)
            while changed:
                changed = False
                for name, nodes in helpers.items():
                    if name not in escaping and any(
                        self.writes.names_one_of(n, escaping) for n in nodes
                    ):
                        escaping.add(name)
                        changed = True
            self._escaping = frozenset(escaping)
        return self._escaping

    def _direct(self, node: Node, spared: frozenset[tuple[int, int]] = frozenset()) -> bool:
        """`within`, for the code of `node` itself (no helper's)."""
        stack: list[tuple[Node, bool]] = [(node, False)]
        while stack:
            current, in_function = stack.pop()
            if (current.start_byte, current.end_byte) in spared:
                continue
            if self._escapes(current, in_function):
                return True
            inside = in_function or current.type in FUNCTION_KINDS
            stack.extend((c, inside) for c in current.named_children)
        return False

    def _escapes(self, node: Node, in_function: bool) -> bool:
        kind = node.type
        if kind == "with_statement":
            return True
        if kind in ("assignment_expression", "augmented_assignment_expression"):
            left = node.child_by_field_name("left")
            return left is None or self.target(left)
        if kind == "update_expression":
            argument = node.child_by_field_name("argument")
            return argument is None or self.target(argument)
        if kind == "unary_expression":
            operator = node.child_by_field_name("operator")
            argument = node.child_by_field_name("argument")
            if operator is not None and self.text(operator) == "delete":
                return argument is None or self.target(argument)
            return False
        if kind == "for_in_statement" and node.child_by_field_name("kind") is None:
            left = node.child_by_field_name("left")
            return left is None or self.target(left)
        if kind == "call_expression":
            return self._call(node, in_function)
        if kind == "identifier":
            return self._handed(node)
        return False

    def _call(self, call: Node, in_function: bool) -> bool:
        function = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if function is None:
            return True
        spelled = "".join(self.text(function).split())
        if spelled == "eval" or spelled == "process.chdir" or spelled.startswith("Function"):
            return True
        first = named(arguments)[:1] if arguments is not None else []
        if spelled in _STUBS:
            host = spelled.split(".")[0]
            if not self.names.free(host) or spelled in ("vi.stubGlobal", "vi.stubEnv"):
                return True
            return not first or self.target(first[0])
        if spelled in ARGUMENT_WRITERS and self.names.free(spelled.split(".")[0]):
            return not first or self.target(first[0])
        if in_function:
            return False
        root = function
        while root.type in CHAINS or root.type in VALUE_WRAPPERS:
            inner = root.child_by_field_name("object") if root.type in CHAINS else None
            if inner is None:
                inner = named(root)[0] if named(root) else None
            if inner is None:
                return True
            root = inner
        if root.type == "call_expression":  # `require('fs').writeFileSync(...)`
            callee = root.child_by_field_name("function")
            args = root.child_by_field_name("arguments")
            parts = named(args) if args is not None else []
            if callee is not None and self.text(callee) == "require" and parts:
                return _writing_module(self.text(parts[0])[1:-1])
            return False
        if root.type != "identifier":
            return False
        module = self.names.import_of(self.text(root))
        return module is not None and _writing_module(module)

    def _handed(self, node: Node) -> bool:
        """Whether the identifier `node` is the global object or `process`
        (or `process.env`) handed on as a value: an argument, a value bound
        to a name, an element; reading a member of it is no handing."""
        name = self.text(node)
        if name not in SHARED_GLOBALS or not self.names.free(name):
            return False
        value = node
        parent = node.parent
        if name == "process" and parent is not None and parent.type == "member_expression":
            prop = parent.child_by_field_name("property")
            if parent.child_by_field_name("object") != node or prop is None:
                return False
            if self.text(prop) != "env":
                return False
            if self.env:
                return False  # the file's own copy (`env`)
            value, parent = parent, parent.parent
        while parent is not None and parent.type in VALUE_WRAPPERS:
            value, parent = parent, parent.parent
        if parent is None:
            return False
        if parent.type in CHAINS and parent.child_by_field_name("object") == value:
            return False  # a member read (a store through it is judged as a store)
        if parent.type == "unary_expression":
            return False  # `typeof window`, `!process.env`
        if parent.type == "binary_expression":
            return False  # `self === undefined`
        return parent.type != "expression_statement"

    def target(self, target: Node) -> bool:
        """Whether a store through `target` may reach outside the file."""
        target = unwrapped(target, VALUE_WRAPPERS)
        kind = target.type
        if kind in FRESH or (self.env and self._in_env(target)):
            return False
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            name = self.text(target)  # an implicit global, or an import (read-only)
            return not self._declared(name) or self.names.import_of(name) is not None
        if kind in CHAINS:
            root = chain_root(target, VALUE_WRAPPERS)
            if root.type == "identifier":
                return not self.safe(self.text(root))
            if root.type == "this":
                return False  # a test's context or an object of the file's own class
            return not self.fresh(root)
        if kind in PATTERNS:
            return any(self.target(leaf) for leaf in pattern_leaves(target))
        return not self.fresh(target)

    def _in_env(self, target: Node) -> bool:
        """Whether `target` is the platform's `process.env` or a member
        chain through it (`process.env.X`, `process.env['X']`)."""
        node = target
        while node.type in CHAINS:
            inner = node.child_by_field_name("object")
            if inner is None:
                return False
            inner = unwrapped(inner, VALUE_WRAPPERS)
            if inner.type == "identifier" and self.text(inner) == "process":
                prop = node.child_by_field_name("property")
                return (
                    node.type == "member_expression"
                    and prop is not None
                    and self.text(prop) == "env"
                    and self.names.free("process")
                )
            node = inner
        return False

    def _declared(self, name: str) -> bool:
        """Whether the file declares `name` (a binding other than a store)."""
        return any(
            n.parent is not None and n.parent.type not in _STORES for n in self.names.bindings(name)
        )

    def safe(self, name: str) -> bool:
        """Whether `name` holds only objects the file made: every binding
        of it declares a function or class, or gives it a fresh value
        (`fresh`), and it is neither the platform's nor imported."""
        if name not in self._safe:
            bindings = self.names.bindings(name)
            ok = bool(bindings) and self.names.import_of(name) is None
            for n in bindings if ok else ():
                up = n.parent
                if up is None:
                    ok = False
                elif up.type == "variable_declarator" and up.child_by_field_name("name") == n:
                    value = up.child_by_field_name("value")
                    ok = value is None or self.fresh(value)
                elif up.type == "assignment_expression" and up.child_by_field_name("left") == n:
                    value = up.child_by_field_name("right")
                    ok = value is not None and self.fresh(value)
                elif up.type in ("function_declaration", "class_declaration", "class"):
                    ok = up.child_by_field_name("name") == n
                else:
                    ok = False
                if not ok:
                    break
            self._safe[name] = ok
        return self._safe[name]

    def fresh(self, value: Node) -> bool:
        """`fresh` (writes.py) of this file."""
        return fresh(self.source, self.names, value)


def _writing_module(module: str) -> bool:
    """Whether `module` is one of Node's `_WRITING_MODULES`, `node:` or not."""
    bare = module[5:] if module.startswith("node:") else module
    return bare in _WRITING_MODULES
