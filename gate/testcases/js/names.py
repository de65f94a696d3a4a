"""The names a JS/TS unit reads (`Names`): every identifier in its source
range, in a file whose top-level bindings only its own code can reach.

A new unit that binds a name existing code reads changes what those tests
get (`gate.testcases.compare`); without this, the words of a unit's code
stand for what it reads, and a new `import { Request } from 'x'` is drift
as soon as an existing test's title says "Request".  Here the identifiers
tree-sitter finds (`identifier`, TypeScript's `type_identifier`, the
shorthand `{ name }` of objects and patterns) are the names, and a word in
a string, a comment or after a dot (`res.Request`) is none.

That holds only where the file's top-level bindings cannot be read by a
computed name.  A classic script's top-level `var` and `function` are
properties of the global object (`window['Request']`, `this.Request`), so
names are taken only from a file that is surely a module: an ES
`import`/`export` statement, or a `.mjs .cjs .mts .cts` suffix, or a
call of `require` with a string (CommonJS, whose code runs in a function of
its own).  A file that calls `eval` (a direct `eval` reads the module's
scope), has a `with` statement, or names the global object (`globalThis`,
`window`, `self`, `global`, `top`, `parent`, `frames`) or `Function` keeps
the word rule: more words can only make `compare` stricter.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from gate.testcases._treesitter import ParsedText, captures

if TYPE_CHECKING:
    from tree_sitter import Node

_NAMES = "(identifier) (shorthand_property_identifier) (shorthand_property_identifier_pattern)"
# One pass over the tree: the names, any `with` statement, and the callee of
# each call with one plain string argument (`require('x')`).
_SCAN = """
(with_statement) @with
(call_expression function: (identifier) @call arguments: (arguments . (string) .))
"""
PATTERNS = {
    "javascript": f"[{_NAMES}] @name{_SCAN}",
    "typescript": f"[{_NAMES} (type_identifier)] @name{_SCAN}",
    "tsx": f"[{_NAMES} (type_identifier)] @name{_SCAN}",
}
MODULE_SUFFIXES = frozenset({".mjs", ".cjs", ".mts", ".cts"})
# Names through which code reaches a binding by a computed name.
COMPUTED = frozenset(
    {"eval", "Function", "globalThis", "window", "self", "global", "top", "parent", "frames"}
)


class Names:
    """The identifiers of one parsed file, in source order, for `within`;
    `known` is False when the file's names cannot be trusted (see the
    module's docstring), and `within` then says None."""

    def __init__(self, source: ParsedText, suffix: str) -> None:
        found = captures(source, PATTERNS[source.grammar])
        ordered = sorted((n.start_byte, source.text(n)) for n in found.get("name", []))
        self._starts = [start for start, _ in ordered]
        self._names = [name for _, name in ordered]
        module = (
            suffix.lower() in MODULE_SUFFIXES
            or any(c.type in ("import_statement", "export_statement") for c in source.root.children)
            or any(source.text(n) == "require" for n in found.get("call", []))
        )
        self.known = module and not found.get("with") and not COMPUTED.intersection(self._names)

    def within(self, node: Node) -> tuple[str, ...] | None:
        """The distinct names read in `node`'s source range, in order (None: unknown)."""
        if not self.known:
            return None
        low = bisect_left(self._starts, node.start_byte)
        high = bisect_left(self._starts, node.end_byte)
        return tuple(dict.fromkeys(self._names[low:high]))
