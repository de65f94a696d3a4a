"""The names a JS/TS unit reads from its module (`Names`): the identifiers
in its source range that no function or block of the unit binds, in a
file whose top-level bindings only its own code can reach; and the names
a binding pattern binds (`pattern_names`).

A new unit that binds a name existing code reads changes what those tests
get (`gate.drift.compare`); without this, the words of a unit's code
stand for what it reads, and a new `import { Request } from 'x'` is drift
as soon as an existing test's title says "Request".  Here the identifiers
tree-sitter finds (`identifier`, TypeScript's `type_identifier`, the
shorthand `{ name }` of objects and patterns) are the names, and a word in
a string, a comment or after a dot (`res.Request`) is none.  A name is
the unit's own, not the module's, where a function of the unit takes it
as a parameter (`async (t, server, got) => got('')`), a `catch` binds it,
or a block declares it (`let`, `const`, `function`, `class`; `var` in
a function's body): in that function, clause or block it cannot mean a
module binding.  A type name (`type_identifier`) is the unit's own only
where a block declares that type (a `class`, `interface`, `type` or
`enum`): types live in their own namespace, and a parameter named like
a type is no type.  Anything else (a `for (const x of ...)` binding, a
function expression's own name) still counts as read, which can only
make `compare` stricter.

That holds only where the file's top-level bindings cannot be read by a
computed name.  A classic script's top-level `var` and `function` are
properties of the global object (`window['Request']`, `this.Request`), so
names are taken only from a file that is surely a module: an ES module
(an `import`/`export` statement, or an `.mjs .mts` suffix) or CommonJS
(`.cjs .cts`), whose top-level names are the module's alone, unless the
file calls `eval` (a direct `eval` reads the module's scope) or has a
`with` statement; or a file that calls `require` with a string, unless
it also names the global object (`globalThis`, `window`, `self`,
`global`, `top`, `parent`, `frames`) or `Function`, since a browser
script with a loader's global `require` is no module.  Every other file
keeps the word rule.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from gate.drift._treesitter import NamesByPlace, ParsedText, captures, named

if TYPE_CHECKING:
    from tree_sitter import Node

# `@value`: a name that may be the unit's own; `@type`: a type's name,
# always the module's.  Then, in the same pass over the tree: what binds
# names locally, any `with` statement, and the callee of each call with
# one plain string argument (`require('x')`).
_SCAN = """
[(identifier) (shorthand_property_identifier) (shorthand_property_identifier_pattern)] @value
(formal_parameters) @parameters
(arrow_function parameter: (identifier) @parameter)
(catch_clause parameter: (_) @caught)
(statement_block) @block
(with_statement) @with
(call_expression function: (identifier) @call arguments: (arguments . (string) .))
"""
PATTERNS = {
    "javascript": _SCAN,
    "typescript": f"(type_identifier) @type{_SCAN}",
    "tsx": f"(type_identifier) @type{_SCAN}",
}
# A function as a value (a callback, a default): its body runs when called.
FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
ES_MODULE_SUFFIXES = frozenset({".mjs", ".mts"})
COMMONJS_SUFFIXES = frozenset({".cjs", ".cts"})
# Names through which a script's code reaches a top-level binding by a computed name.
GLOBAL_OBJECT = frozenset(
    {"Function", "globalThis", "window", "self", "global", "top", "parent", "frames"}
)
# Where a `var` in a block is local: a function's body (elsewhere it is the
# enclosing function's, or the module's at the top level).
_FUNCTION_BODIES = FUNCTIONS | {
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
    "class_static_block",
}
# Declarations in a block: what binds a value there, what binds a type.
_VALUES = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "enum_declaration",
    }
)
_TYPES = frozenset(
    {
        "class_declaration",
        "abstract_class_declaration",
        "enum_declaration",
        "interface_declaration",
        "type_alias_declaration",
    }
)


class Names:
    """The module names each unit of one parsed file reads (`within`);
    `known` is False when the file's names cannot be trusted (see the
    module's docstring), and `within` then says None."""

    def __init__(self, source: ParsedText, suffix: str, also: str = "") -> None:
        found = captures(source, PATTERNS[source.grammar] + also)
        self.source = source
        # what the query `also` captured in the same pass over the tree
        # (`gate.drift.js.writes.SCAN`: one walk, not two)
        self.also, self.also_query = found, also
        named_values = [(n, source.text(n)) for n in found.get("value", [])]
        named_types = [(n, source.text(n)) for n in found.get("type", [])]
        self._seen: dict[str, list[Node]] = {}
        for n, name in named_values:
            self._seen.setdefault(name, []).append(n)
        for n, name in named_types:  # TypeScript: a class or enum binds a value too
            if n.parent is not None and n.parent.type in _VALUES:
                self._seen.setdefault(name, []).append(n)
        self._free: dict[str, bool] = {}
        self._bound: dict[str, list[Node]] = {}
        self.withs: list[Node] = found.get("with", [])  # every `with` statement
        self.known = _is_module(source, suffix, found, set(self._seen))
        self._read = NamesByPlace(())
        # each name -> the ranges of the functions, catch clauses and blocks
        # that bind it as a value, one range each (`own`)
        self._scopes, raw_types = _local_spans(source, found)
        if not self.known:
            return
        values, types = _merged(self._scopes), _merged(raw_types)
        self._read = NamesByPlace(
            (n.start_byte, name)
            for pairs, local in ((named_values, values), (named_types, types))
            for n, name in pairs
            if not _is_local(n.start_byte, name, local)
        )

    def free(self, name: str) -> bool:
        """Whether the file leaves the global `name` as the platform made it:
        every occurrence is a plain read (`process.env`, `Buffer.from(...)`,
        `f(process)`), or the one binding is the canonical import of the
        platform's own module (`import process from 'node:process'`,
        `const { Buffer } = require('node:buffer')`); never bound, assigned
        or taken as a parameter anywhere."""
        if name not in self._free:
            bindings = self.bindings(name)
            how = _canonical(self.source, bindings[0], name) if len(bindings) == 1 else None
            self._free[name] = (
                not bindings or how == "import" or (how == "require" and self.free("require"))
            )
        return self._free[name]

    def bindings(self, name: str) -> list[Node]:
        """Every occurrence of `name` that binds or assigns it (is no plain
        read), in the file's order; asked for each name read where pure
        values are judged, so each name's list is made once."""
        found = self._bound.get(name)
        if found is None:
            found = self._bound[name] = [n for n in self._seen.get(name, []) if not _plain_read(n)]
        return found

    def imported(self, name: str) -> tuple[str, str] | None:
        """(module, export) when the file's one binding of `name` is a
        top-level value import or `const` require of a string (`bound_from`;
        a require only while the file leaves `require` free) and every other
        occurrence a plain read; else None, and always in a file whose names
        are unknown."""
        if not self.known:
            return None
        bindings = self.bindings(name)
        found = bound_from(self.source, bindings[0]) if len(bindings) == 1 else None
        if found is None or (found[2] == "require" and not self.free("require")):
            return None
        return found[0], found[1]

    def import_of(self, name: str) -> str | None:
        """The module `name` is imported from (`imported`), or None."""
        found = self.imported(name)
        return found[0] if found is not None else None

    def declared_value(self, name: str, at: Node) -> Node | None:
        """The value `name` holds where `at` runs, when the file's one
        binding of it is a `const`, `let` or `var` declarator before `at`,
        at the top level or in a block around `at`, and every other
        occurrence a plain read (it is never assigned); else None, and
        always in a file whose names are unknown."""
        if not self.known:
            return None
        bindings = self.bindings(name)
        if len(bindings) != 1:
            return None
        declarator = bindings[0].parent
        if declarator is None or declarator.type != "variable_declarator":
            return None
        if declarator.child_by_field_name("name") != bindings[0]:
            return None
        declaration = declarator.parent
        if declaration is None or declaration.type not in _DECLARATIONS:
            return None
        scope = declaration.parent
        if scope is None or scope.type not in ("program", "statement_block"):
            return None
        if declaration.end_byte > at.start_byte or at.end_byte > scope.end_byte:
            return None
        return declarator.child_by_field_name("value")

    def rebound_within(self, node: Node, names: frozenset[str] | set[str]) -> set[str]:
        """Which of `names` an occurrence inside `node` binds or assigns (is
        no plain read): there a name may hold anything."""
        return {
            name
            for name in names
            for n in self.bindings(name)
            if node.start_byte <= n.start_byte < node.end_byte
        }

    def own(self, name: str, at: int, scope: range) -> bool:
        """Whether `name` at byte `at` is bound by a function, catch
        clause or block inside `scope` (a test's call): there it is the
        test's own, whatever the file binds outside.  Lexical, so it holds
        in a file whose module names are unknown too."""
        return any(
            at in r and scope.start <= r.start and r.stop <= scope.stop
            for r in self._scopes.get(name, ())
        )

    def occurrences(self, name: str) -> list[Node]:
        """Every identifier spelled `name`, in the file's order."""
        return self._seen.get(name, [])

    def within(self, node: Node) -> tuple[str, ...] | None:
        """The distinct module names read in `node`'s source range, in order (None: unknown)."""
        return self._read.within(node) if self.known else None


def _is_module(
    source: ParsedText, suffix: str, found: dict[str, list[Node]], names: set[str]
) -> bool:
    if found.get("with") or "eval" in names:
        return False
    top = {c.type for c in source.root.children}
    if suffix.lower() in ES_MODULE_SUFFIXES | COMMONJS_SUFFIXES:
        return True
    if "import_statement" in top or "export_statement" in top:
        return True
    required = any(source.text(n) == "require" for n in found.get("call", []))
    return required and not GLOBAL_OBJECT & names


Spans = dict[str, list[range]]


def _local_spans(source: ParsedText, found: dict[str, list[Node]]) -> tuple[Spans, Spans]:
    """Each name -> the byte ranges where a function, catch clause or block
    binds it as a value; and where a block binds it as a type (one range
    each, unmerged)."""
    spans: Spans = {}
    types: Spans = {}

    def bind(names: list[str], owner: Node, into: Spans | None = None) -> None:
        for name in names:
            (spans if into is None else into).setdefault(name, []).append(
                range(owner.start_byte, owner.end_byte)
            )

    for params in found.get("parameters", []):
        if params.parent is not None:
            for p in named(params):
                pattern = p.child_by_field_name("pattern") if p.type.endswith("_parameter") else p
                bind(pattern_names(source, pattern), params.parent)
    for name in found.get("parameter", []):
        if name.parent is not None:
            bind([source.text(name)], name.parent)
    for caught in found.get("caught", []):
        if caught.parent is not None:
            bind(pattern_names(source, caught), caught.parent)
    for block in found.get("block", []):
        for statement in named(block):
            var = statement.type == "variable_declaration"
            if statement.type in ("lexical_declaration", "using_declaration") or (
                var and block.parent is not None and block.parent.type in _FUNCTION_BODIES
            ):
                for declarator in named(statement):
                    if declarator.type == "variable_declarator":
                        bind(pattern_names(source, declarator.child_by_field_name("name")), block)
                continue
            using = _using_declared(statement)
            if using is not None:
                bind(pattern_names(source, using), block)
                continue
            declared = statement.child_by_field_name("name")
            if declared is None:
                continue
            if statement.type in _VALUES:
                bind([source.text(declared)], block)
            if statement.type in _TYPES:
                bind([source.text(declared)], block, types)
    return spans, types


def _using_declared(statement: Node) -> Node | None:
    """The name a `using` or `await using` declaration binds, as the
    TypeScript grammar (0.23) spells one: an assignment whose first token
    is `using` (the javascript grammar has a `using_declaration`)."""
    if statement.type != "expression_statement" or not named(statement):
        return None
    inner = named(statement)[0]
    if inner.type == "await_expression" and named(inner):
        inner = named(inner)[0]
    if inner.type != "assignment_expression" or not inner.children:
        return None
    if inner.children[0].type != "using":
        return None
    return inner.child_by_field_name("left")


def _merged(spans: Spans) -> Spans:
    """Each name's ranges as sorted, disjoint ones: `_is_local` then looks
    a position up by bisection (a test file binds `t` in every callback)."""
    out: Spans = {}
    for name, ranges in spans.items():
        merged: list[range] = []
        for r in sorted(ranges, key=lambda r: r.start):
            if merged and r.start <= merged[-1].stop:
                last = merged[-1]
                merged[-1] = range(last.start, max(last.stop, r.stop))
            else:
                merged.append(r)
        out[name] = merged
    return out


def _is_local(start: int, name: str, spans: Spans) -> bool:
    ranges = spans.get(name)
    if not ranges:
        return False
    i = bisect_right(ranges, start, key=lambda r: r.start) - 1
    return i >= 0 and start in ranges[i]


def pattern_names(source: ParsedText, pattern: Node | None) -> list[str]:
    """The names a binding pattern binds (`a`, `{a, b: c, ...d}`, `[e = 1]`)."""
    if pattern is None:
        return []
    if pattern.type == "identifier":  # most bindings: no pattern to walk
        return [source.text(pattern)]
    return [
        source.text(leaf)
        for leaf in pattern_leaves(pattern)
        if leaf.type in ("identifier", "shorthand_property_identifier_pattern")
    ]


def pattern_leaves(pattern: Node) -> list[Node]:
    """What a destructuring pattern binds or stores into, in order
    (`{a, b: c.d, ...e}`, `[f = 1]`): its leaves, defaults and rests
    included, comments not."""
    found: list[Node] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "pair_pattern":
            value = node.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif kind in ("assignment_pattern", "object_assignment_pattern"):
            left = node.child_by_field_name("left")
            if left is not None:
                stack.append(left)
        elif kind in ("object_pattern", "array_pattern", "rest_pattern"):
            stack.extend(reversed(named(node)))
        elif kind != "comment":
            found.append(node)
    return found


# Where an identifier is read, never bound or assigned: (parent, field) or
# any child of the parent types after them.
_READ_FIELDS = frozenset(
    {
        ("member_expression", "object"),
        ("subscript_expression", "object"),
        ("call_expression", "function"),
        ("new_expression", "constructor"),
        ("variable_declarator", "value"),
        ("pair", "value"),
        ("assignment_expression", "right"),
        ("for_in_statement", "right"),
    }
)
_READ_PARENTS = frozenset(
    {
        "arguments",
        "binary_expression",
        "unary_expression",
        "parenthesized_expression",
        "template_substitution",
        "ternary_expression",
        "array",
        "spread_element",
        "return_statement",
        "expression_statement",
        "await_expression",
    }
)
# The platform's own modules a global may be imported from, as
# (name, module) -> how: "default" (`import process from 'node:process'`,
# `const process = require('node:process')`) or "named" (`{ Buffer }`).
CANONICAL = {
    ("process", "node:process"): "default",
    ("process", "process"): "default",
    ("Buffer", "node:buffer"): "named",
    ("Buffer", "buffer"): "named",
}


def _plain_read(node: Node) -> bool:
    parent = node.parent
    if node.type != "identifier" or parent is None:
        return False
    if parent.type in _READ_PARENTS:
        return True
    return any(
        kind == parent.type and parent.child_by_field_name(field) == node
        for kind, field in _READ_FIELDS
    )


def _canonical(source: ParsedText, node: Node, name: str) -> str | None:
    """How `node`, the one binding of `name`, is a canonical import of the
    platform's module for it (`CANONICAL`) at the top level: "import",
    "require" (real only while the file leaves `require` free), or None."""
    found = bound_from(source, node)
    if found is None:
        return None
    module, export, word = found
    how = "default" if export == DEFAULT else "named" if export == name else None
    return word if how is not None and CANONICAL.get((name, module)) == how else None


_DECLARATIONS = ("lexical_declaration", "variable_declaration")
DEFAULT = "default"  # the export `import x from 'm'` and `const x = require('m')` take
NAMESPACE = "*"  # what `import * as x from 'm'` takes


def bound_from(source: ParsedText, node: Node) -> tuple[str, str, str] | None:
    """(module, export, word) when the identifier `node` is the name a
    top-level value import or `const` require of a string binds: export is
    `DEFAULT` (`import x from 'm'`, `const x = require('m')`), `NAMESPACE`
    (`import * as x from 'm'`) or the name taken (`y` for `import { y as x
    } from 'm'`, `x` for `const { x } = require('m')`); word is "import" or
    "require".  None for anything else (a type import, the imported name
    beside its alias, `const { y: x } = require('m')`)."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type in ("import_clause", "import_specifier", "namespace_import"):
        export = DEFAULT if parent.type == "import_clause" else NAMESPACE
        if parent.type == "import_specifier":
            alias = parent.child_by_field_name("alias")
            taken = parent.child_by_field_name("name")
            if (alias is not None and alias != node) or taken is None:
                return None
            if any(c.type == "type" for c in parent.children):
                return None
            export = source.text(taken)
        statement: Node | None = parent
        while statement is not None and statement.type != "import_statement":
            statement = statement.parent
        if statement is None or statement.parent is None or statement.parent.type != "program":
            return None
        where = statement.child_by_field_name("source")
        if where is None or any(c.type == "type" for c in statement.children):
            return None
        return source.text(where)[1:-1], export, "import"
    declarator = parent.parent if parent.type == "object_pattern" else parent
    if declarator is None or declarator.type != "variable_declarator":
        return None
    declaration = declarator.parent
    if declaration is None or declaration.parent is None or declaration.parent.type != "program":
        return None
    if declaration.type != "lexical_declaration" or declaration.children[0].type != "const":
        return None
    value = declarator.child_by_field_name("value")
    if value is None or value.type != "call_expression":
        return None
    function = value.child_by_field_name("function")
    args = value.child_by_field_name("arguments")
    parts = named(args) if args is not None else []
    if function is None or source.text(function) != "require" or len(parts) != 1:
        return None
    if parts[0].type != "string":
        return None
    if parent.type == "object_pattern":
        return source.text(parts[0])[1:-1], source.text(node), "require"
    if declarator.child_by_field_name("name") != node:
        return None
    return source.text(parts[0])[1:-1], DEFAULT, "require"
