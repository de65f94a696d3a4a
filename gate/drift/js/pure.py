"""Values a JS/TS file computes when it loads from the platform's own
built-ins only, running none of the code of the tests or the project
(`Pure.value`): `process.platform === 'win32'`,
`Number(process.versions.node.split('.')[0])`, `!process.env.CI`,
`new Error('boom')`, `Buffer.from('PRI * HTTP/2.0')`.

A value is pure when it is made of:

* literals, and templates, unary (but `delete`), binary and ternary
  expressions of pure values (operators on built-in values call only the
  platform's code);
* reads of `process.platform`, `.arch`, `.version`, `.pid`, `.execPath`,
  one name below `process.versions`, `process.env` (dotted or a string
  subscript) and `process.release`; `global.gc` and `globalThis.gc`
  (`node --expose-gc`); `typeof` of a name; `import.meta.url`, `.dirname`,
  `.filename`; `Math`'s and `Number`'s constants; `__dirname`,
  `__filename`, `undefined`, `NaN`, `Infinity`;
* calls of `Number`, `String`, `Boolean`, `parseInt`, `parseFloat`,
  `isNaN`, `isFinite`, `Symbol`, `Symbol.for`, `Math`'s functions,
  `Number.parse*`/`Number.is*`, `String.fromCharCode`, `Buffer.from`,
  `Buffer.alloc`, `Buffer.byteLength`, and `new` of the `Error` family
  and of `URL`, with pure arguments (`Buffer.from` also an array of them);
* calls of Node's path functions (`path.join`, `.resolve`, `.dirname`,
  ...; `path.posix` and `path.win32` too), `url.fileURLToPath` and
  `pathToFileURL`, `os.tmpdir()` and a few more facts of the machine, and
  reads of `path.sep`, `path.delimiter` and `os.EOL`, with pure
  arguments, through the file's one import or require of that module or
  of that function (`MODULE_FUNCTIONS`, `Names.imported`);
* string methods (`split`, `slice`, `startsWith`, `toLowerCase`, ...) on
  a pure value with pure arguments, `.length` of one, and a pure
  subscript of one (`split('.')[0]`).

A name (a variable, an object) is no pure value: its `valueOf` or
`toString` may be the file's own code; but for a name whose one
declaration in the file, before the read and in a block around it, gives
it a pure value that nothing assigns again (`Names.declared_value`:
`const __dirname = path.dirname(fileURLToPath(import.meta.url))`), and a
row name of a loop over a literal table that holds a literal in every row
(`literal_names`).  And each built-in counts only
where the file never binds its name (`Names.free`: every occurrence of
`process`, `Buffer`, `Number`, ... is a plain read), so `const process =
fake` or `import { Buffer } from './mine'` makes every use of that name
code that may run anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.drift._treesitter import ParsedText, named
from gate.drift.js.names import DEFAULT, NAMESPACE, Names

if TYPE_CHECKING:
    from tree_sitter import Node

LITERALS = frozenset({"number", "string", "true", "false", "null", "undefined", "regex"})
# Global -> the properties a pure read may take on it; `DEEP`: one name more.
READS = {
    "process": frozenset({"platform", "arch", "version", "versions", "env", "pid", "execPath"})
    | {"release"},
    "global": frozenset({"gc"}),  # set by node --expose-gc
    "globalThis": frozenset({"gc"}),
    "Math": frozenset({"PI", "E", "LN2", "LN10", "LOG2E", "LOG10E", "SQRT2", "SQRT1_2"}),
    "Number": frozenset(
        {
            "MAX_SAFE_INTEGER",
            "MIN_SAFE_INTEGER",
            "MAX_VALUE",
            "MIN_VALUE",
            "EPSILON",
            "POSITIVE_INFINITY",
            "NEGATIVE_INFINITY",
            "NaN",
        }
    ),
}
DEEP = frozenset({"process.versions", "process.env", "process.release"})
META = frozenset({"url", "dirname", "filename"})
NAMES = frozenset({"__dirname", "__filename", "undefined", "NaN", "Infinity"})
_MATH = ("abs", "ceil", "floor", "round", "trunc", "sign", "max", "min", "pow", "sqrt", "log2")
FUNCTIONS = frozenset(
    {
        "Number",
        "String",
        "Boolean",
        "parseInt",
        "parseFloat",
        "isNaN",
        "isFinite",
        "Symbol",
        "Symbol.for",
        "Number.parseInt",
        "Number.parseFloat",
        "Number.isInteger",
        "Number.isFinite",
        "Number.isNaN",
        "String.fromCharCode",
        "Buffer.from",
        "Buffer.alloc",
        "Buffer.byteLength",
        *(f"Math.{f}" for f in _MATH),
    }
)
CONSTRUCTORS = frozenset(
    {"Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "URIError", "URL"}
)
# Node's modules whose functions compute a value from their arguments and
# the process's fixed facts alone (`path.join(__dirname, 'fixtures')`,
# `fileURLToPath(import.meta.url)`, `os.tmpdir()`), by module (`node:` or
# not); `MODULE_READS`: the constants read on them.  Called through the
# file's one import or require of that module (`Names.imported`): the
# module object (`import path from 'node:path'`, `* as path`, `const path =
# require('path')`, and `path.posix`, `path.win32`) or the function itself
# (`import { join } from 'node:path'`).
MODULE_FUNCTIONS = {
    "path": frozenset(
        {
            "join",
            "resolve",
            "dirname",
            "basename",
            "extname",
            "relative",
            "normalize",
            "isAbsolute",
            "parse",
            "format",
            "toNamespacedPath",
        }
    ),
    "url": frozenset({"fileURLToPath", "pathToFileURL"}),
    "os": frozenset({"tmpdir", "homedir", "platform", "arch", "type", "release", "endianness"}),
}
MODULE_READS = {"path": frozenset({"sep", "delimiter"}), "os": frozenset({"EOL"})}
_PATH_FLAVOURS = frozenset({"posix", "win32"})
STRING_METHODS = frozenset(
    {
        "split",
        "slice",
        "substring",
        "startsWith",
        "endsWith",
        "includes",
        "indexOf",
        "lastIndexOf",
        "toLowerCase",
        "toUpperCase",
        "trim",
        "trimStart",
        "trimEnd",
        "padStart",
        "padEnd",
        "repeat",
        "replace",
        "replaceAll",
        "at",
        "charAt",
        "charCodeAt",
        "concat",
        "toString",
        "toFixed",
    }
)


class Pure:
    """Pure values of one parsed file (see the module's docstring)."""

    def __init__(self, source: ParsedText, names: Names) -> None:
        self.source = source
        self.names = names
        # Names that hold a literal within a byte range of the file: the row
        # names of a loop over a literal table in its body
        # (`gate.drift.js.tables`).
        self.literal_names: dict[str, range] = {}

    def text(self, node: Node) -> str:
        return self.source.text(node)

    def value(self, node: Node) -> bool:
        """Whether evaluating `node` runs only the platform's built-ins."""
        stack = [node]
        while stack:
            parts = self._parts(stack.pop())
            if parts is None:
                return False
            stack.extend(parts)
        return True

    def _parts(self, node: Node) -> list[Node] | None:
        """What must be pure too for `node` to be, or None: it is not."""
        kind = node.type
        if kind in LITERALS:
            return []
        if kind in ("parenthesized_expression", "ternary_expression"):
            return named(node)
        if kind == "template_string":
            return [
                p for sub in named(node) if sub.type == "template_substitution" for p in named(sub)
            ]
        if kind == "identifier":
            name = self.text(node)
            where = self.literal_names.get(name)
            if (where is not None and node.start_byte in where) or (
                name in NAMES and self.names.free(name)
            ):
                return []
            # the file's one declaration of the name, before here: its value
            value = self.names.declared_value(name, node)
            return [value] if value is not None else None
        if kind == "unary_expression" and _typeof_name(node):
            return []  # a string, whatever the name holds
        if kind in ("unary_expression", "binary_expression"):
            operator = node.child_by_field_name("operator")
            if operator is None or operator.type == "delete":  # `delete` changes its object
                return None
            return named(node)
        if kind in ("member_expression", "subscript_expression"):
            return self._read(node)
        if kind == "call_expression":
            return self._call(node)
        if kind == "new_expression":
            constructor = node.child_by_field_name("constructor")
            args = node.child_by_field_name("arguments")
            if constructor is None or not self._builtin(constructor, CONSTRUCTORS):
                return None
            return named(args) if args is not None else []
        return None

    def _read(self, node: Node) -> list[Node] | None:
        obj = node.child_by_field_name("object")
        if obj is None:
            return None
        dotted = self._global(node)
        if dotted is not None and _allowed(dotted):
            return []
        if self._from_module(node, MODULE_READS):
            return []
        key = self._key(node)
        if key is None:
            return None
        if obj.type == "meta_property" and self.text(obj) == "import.meta":
            return [] if key in META else None
        if node.type == "member_expression":
            return [obj] if key == "length" else None
        index = node.child_by_field_name("index")
        return [obj, index] if index is not None else None  # an index into a pure value

    def _key(self, node: Node) -> str | None:
        """The property a member or string subscript reads."""
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            if prop is None or prop.type != "property_identifier":
                return None
            return self.text(prop)
        index = node.child_by_field_name("index")
        if index is None:
            return None
        if index.type == "string":
            return self.text(index)[1:-1]
        return ""  # a computed index, judged as a value

    def _global(self, node: Node) -> str | None:
        """`process.env.CI`: the dotted read of a free global by names and
        string subscripts, or None."""
        parts: list[str] = []
        while node.type in ("member_expression", "subscript_expression"):
            key = self._key(node)
            obj = node.child_by_field_name("object")
            if not key or obj is None:
                return None
            parts.append(key)
            node = obj
        if node.type != "identifier":
            return None
        root = self.text(node)
        if root not in READS or not self.names.free(root):
            return None
        return ".".join([root, *reversed(parts)])

    def _builtin(self, function: Node, allowed: frozenset[str]) -> bool:
        """Whether `function` names one of `allowed` on a free global."""
        if function.type == "identifier":
            name = self.text(function)
            return name in allowed and self.names.free(name)
        if function.type != "member_expression":
            return False
        obj = function.child_by_field_name("object")
        prop = function.child_by_field_name("property")
        if obj is None or prop is None or obj.type != "identifier":
            return False
        root = self.text(obj)
        dotted = f"{root}.{self.text(prop)}"
        return dotted in allowed and self._key(function) is not None and self.names.free(root)

    def _from_module(self, node: Node, allowed: dict[str, frozenset[str]]) -> bool:
        """Whether `node` names one of `allowed`'s members of a Node module
        the file imports once (`MODULE_FUNCTIONS`): `join` imported by name,
        or `path.join`, `path.posix.join` on the module object."""
        if node.type == "identifier":
            found = self.names.imported(self.text(node))
            return found is not None and found[1] in allowed.get(bare_module(found[0]), ())
        if node.type != "member_expression":
            return False
        prop = node.child_by_field_name("property")
        obj = node.child_by_field_name("object")
        if prop is None or obj is None or prop.type != "property_identifier":
            return False
        if obj.type == "member_expression":  # path.posix.join
            flavour = obj.child_by_field_name("property")
            inner = obj.child_by_field_name("object")
            if flavour is None or inner is None or self.text(flavour) not in _PATH_FLAVOURS:
                return False
            if flavour.type != "property_identifier":
                return False
            obj = inner
            only = "path"
        else:
            only = ""
        if obj.type != "identifier":
            return False
        found = self.names.imported(self.text(obj))
        if found is None or found[1] not in (DEFAULT, NAMESPACE):
            return False
        module = bare_module(found[0])
        return (not only or module == only) and self.text(prop) in allowed.get(module, ())

    def _call(self, node: Node) -> list[Node] | None:
        function = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if function is None or args is None or args.type != "arguments":
            return None
        given = named(args)
        if self._from_module(function, MODULE_FUNCTIONS):
            return given
        if self._builtin(function, FUNCTIONS):
            if self.text(function) == "Buffer.from" and given and given[0].type == "array":
                return named(given[0]) + given[1:]
            return given
        if function.type == "member_expression":
            receiver = function.child_by_field_name("object")
            method = self._key(function)
            if receiver is not None and method in STRING_METHODS:
                return [receiver, *given]
        return None


def bare_module(name: str) -> str:
    """A Node module's name without its `node:` scheme (`node:path` -> `path`)."""
    return name.removeprefix("node:")


def _allowed(dotted: str) -> bool:
    """Whether the global read `dotted` is one `READS` and `DEEP` allow."""
    parts = dotted.split(".")
    if len(parts) == 2:
        return parts[1] in READS.get(parts[0], ())
    return len(parts) == 3 and ".".join(parts[:2]) in DEEP


def _typeof_name(node: Node) -> bool:
    """`typeof gc`: reading a name calls nothing, and typeof gives a string."""
    operator = node.child_by_field_name("operator")
    argument = node.child_by_field_name("argument")
    return (
        operator is not None
        and operator.type == "typeof"
        and argument is not None
        and argument.type == "identifier"
    )
