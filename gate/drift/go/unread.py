"""Declarations a Go test file removed that no code of its package read
(`dead`): what a lint cleanup (golangci-lint's `unused`) deletes, which
cannot change a test.

A base unit of a `_test.go` file modified in place (no other package
can import its names), gone at head, is dead when all of these hold:

* it is a package-level `const` (a spec, or a group whose values take
  their place), a `var` spec, or a helper `func` (SUPPORT: not `init`,
  `TestMain` or a function `go test` runs, `TestX`, `BenchmarkX`,
  `FuzzX`, `ExampleX`); not a method or a type (a method set or a type
  can be read without its name, through an interface or reflection),
  and none of its names is `_` (`var _ I = (*T)(nil)` is an assertion);
* a `var`'s initializer runs nothing: only literals, names, a package's
  selector (`stripe.ParseID`, the operand an import of the file),
  parentheses, unary operators but `*` and `<-`, binary operators that
  cannot panic (no `/`, `%`, shift or comparison), and composite
  literals of those (their type as written); no call, conversion, index,
  function literal or receive.  A `const` is computed by the compiler
  and runs nothing; a function's body runs only when something names it;
* no Go file of the package's folder (every `.go` file there at base,
  `package x` and `package x_test`, test or not, whatever its build
  constraints; and at head, each such file the change writes) spells one
  of its names as a token, but for the removed declarations themselves:
  an identifier, a selector's field (`x.Name` from a `_test` package),
  a type or package name, a label, or any word of a directive comment
  (`//go:linkname`, `//export`); not a string or another comment, which
  no Go code reads a package-level name through.  The head of the test
  file spells none either (a declaration put back elsewhere in it is a
  change, not a removal), nor does any written file at head (moved to
  another file of the package: judged as removed);
* the folder holds no file of another language the Go tool builds into
  the package (`.s`, `.c`, `.h`, `.cc`, `.syso`, ...), and no file
  imports `"C"` (cgo: C code may call what Go exports).

Every text must be known: the folder's listing (`BaseTree.folder`), the
base text of each Go file in it and the head text of each written one;
else nothing is dead.  Pure: the change set in, names out."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from gate.drift import SUPPORT, Unit, Unparsable
from gate.drift._treesitter import ParsedText, named, parse
from gate.drift.go import DIRECTIVE, is_test_name, split
from gate.model.change import DELETED, ChangeSet

if TYPE_CHECKING:
    from tree_sitter import Node

# What the Go tool builds into a package beside its Go files.
FOREIGN = (
    ".s",
    ".S",
    ".sx",
    ".c",
    ".cc",
    ".cpp",
    ".cxx",
    ".h",
    ".hh",
    ".hpp",
    ".hxx",
    ".m",
    ".f",
    ".F",
    ".for",
    ".f90",
    ".swig",
    ".swigcxx",
    ".syso",
)
_STRINGS = frozenset({"interpreted_string_literal", "raw_string_literal"})
_WORD = re.compile(r"\w+")
# A var initializer's nodes that run no code (`_runs_nothing`).
_LEAVES = frozenset(
    {
        "int_literal",
        "float_literal",
        "imaginary_literal",
        "rune_literal",
        "interpreted_string_literal",
        "raw_string_literal",
        "true",
        "false",
        "nil",
        "iota",
        "identifier",
        "comment",
    }
)
_INNER = frozenset(
    {
        "expression_list",
        "parenthesized_expression",
        "literal_value",
        "keyed_element",
        "literal_element",
    }
)
_PANICS = frozenset({"/", "%", "<<", ">>", "==", "!=", "<", "<=", ">", ">="})


def dead(changes: ChangeSet, path: str, base: str, gone: Collection[str]) -> frozenset[str]:
    """The names (`Unit.name`) of the units keyed `gone`, base units of
    the Go test file `path` (modified in place; `base` its base text)
    missing at head, that are dead (the module's docstring).  Only in a
    `_test.go` file: another Go file's names may be read by other packages."""
    if not path.endswith("_test.go"):
        return frozenset()
    try:
        read = split(parse(base, "go"))
    except Unparsable:
        return frozenset()
    bound = read.bound
    nodes = read.nodes
    removed = [
        u
        for u in read.found
        if u.key in gone and _removable(u) and _runs_nothing(read.source, nodes[u.key], bound)
    ]
    if not removed:
        return frozenset()
    texts = _package(changes, path)
    if texts is None:
        return frozenset()
    spans = [(nodes[u.key].start_byte, nodes[u.key].end_byte) for u in removed]
    names = {n for u in removed for n in u.binds}
    spelled: set[str] = set()
    for other, text, at_base in texts:
        found = _spelled(text, names, spans if other == path and at_base else ())
        if found is None:
            return frozenset()  # unparsable, or cgo
        spelled |= found
    return frozenset(u.name for u in removed if not set(u.binds) & spelled)


def _removable(unit: Unit) -> bool:
    """A package-level `const`, `var` or helper `func` whose names are not `_`."""
    kind = unit.key.partition(" ")[0]
    if unit.role != SUPPORT or unit.parent or kind not in ("const", "var", "func"):
        return False
    if not unit.binds or "_" in unit.binds:
        return False
    return kind != "func" or not any(
        is_test_name(n) or n in ("init", "TestMain") for n in unit.binds
    )


def _runs_nothing(source: ParsedText, node: Node, imports: dict[str, str]) -> bool:
    """Whether the declaration `node` runs no code: a const or a func
    declaration, or a var spec whose initializer is made of
    `_LEAVES`, `_INNER`, unary and binary operators that cannot panic,
    selectors of an imported package and composite literals."""
    if node.type != "var_spec":
        return node.type in ("const_spec", "const_declaration", "function_declaration")
    value = node.child_by_field_name("value")
    stack = [value] if value is not None else []
    while stack:
        current = stack.pop()
        kind = current.type
        if kind in _LEAVES:
            continue
        if kind in _INNER:
            stack.extend(current.named_children)
        elif kind == "selector_expression":
            operand = current.child_by_field_name("operand")
            if operand is None or operand.type != "identifier":
                return False
            if source.text(operand) not in imports:
                return False
        elif kind in ("unary_expression", "binary_expression"):
            operator = current.child_by_field_name("operator")
            text = source.text(operator) if operator is not None else ""
            if kind == "unary_expression" and text in ("*", "<-", ""):
                return False
            if kind == "binary_expression" and (text in _PANICS or not text):
                return False
            stack.extend(current.named_children)
        elif kind == "composite_literal":
            body = current.child_by_field_name("body")
            if body is None:
                return False
            stack.append(body)  # its type, as written, runs nothing
        else:
            return False  # a call, a conversion, an index, a function literal, ...
    return True


def _package(changes: ChangeSet, path: str) -> list[tuple[str, str, bool]] | None:
    """(path, text, whether at base) of each Go file of `path`'s folder:
    its base text, and the head text of each written one; None when one
    is unknown, or when the folder holds a file of another language the
    Go tool builds."""
    folder = path.rpartition("/")[0]
    entries = changes.tree.folder(folder) if changes.tree is not None else None
    if entries is None:
        return None
    prefix = f"{folder}/" if folder else ""
    written = {
        p: f.status == DELETED or (p == f.old_path and p != f.path)
        for f in changes.files
        for p in f.written
        if p.rpartition("/")[0] == folder
    }
    out: list[tuple[str, str, bool]] = []
    for name, kind in sorted(entries.items()):
        if name.endswith(FOREIGN) and kind != "folder":
            return None
        if not name.endswith(".go"):
            continue
        if kind != "file":
            return None  # a link, or a submodule: what it holds is unknown
        texts = changes.texts.get(prefix + name)
        if texts is None or texts.base is None:
            return None
        out.append((prefix + name, texts.base, True))
    for p, gone_at_head in sorted(written.items()):
        if p.endswith(FOREIGN):
            return None
        if gone_at_head or not p.endswith(".go"):
            continue
        texts = changes.texts.get(p)
        if texts is None or texts.head is None:
            return None
        out.append((p, texts.head, False))
    return out


def _spelled(text: str, names: Collection[str], skip: Sequence[tuple[int, int]]) -> set[str] | None:
    """Which of `names` the Go text `text` spells as a token outside the
    byte ranges `skip` (the module's docstring); None when it does not
    parse, or imports "C"."""
    words = set(_WORD.findall(text))
    if not (words & set(names)) and '"C"' not in text and "`C`" not in text:
        return set()  # no such word anywhere, and no cgo: nothing to parse
    try:
        source = parse(text, "go")
    except Unparsable:
        return None
    if _cgo(source):
        return None
    found: set[str] = set()
    stack = [source.root]
    while stack:
        node = stack.pop()
        if any(start <= node.start_byte and node.end_byte <= end for start, end in skip):
            continue
        if node.type in _STRINGS:
            continue
        if node.type == "comment":
            comment = source.text(node)
            if DIRECTIVE.match(comment):
                found.update(n for n in _WORD.findall(comment) if n in names)
            continue
        if node.child_count == 0:
            token = source.text(node)
            if token in names:
                found.add(token)
            continue
        stack.extend(node.children)
    return found


def _cgo(source: ParsedText) -> bool:
    """Whether the file imports "C"."""
    for node in source.root.children:
        if node.type != "import_declaration":
            continue
        stack = list(named(node))
        while stack:
            current = stack.pop()
            if current.type == "import_spec":
                spec_path = current.child_by_field_name("path")
                if spec_path is not None and source.text(spec_path) in ('"C"', "`C`"):
                    return True
            else:
                stack.extend(named(current))
    return False
