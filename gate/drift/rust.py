"""Rust test files as units (`READER`, `gate.drift.language.RUST`), and
Rust test functions (`test_functions`): what `test_evidence` reads of a
`.rs` file, source or test, since Rust keeps unit tests inside the file
they test (a `#[cfg(test)] mod tests { ... }` block).

Both read the tree-sitter Rust grammar (`tree-sitter-rust`, loaded on
first use through `gate.drift._treesitter`).  A test function is a `fn`
item, at any depth of modules, with an attribute that registers it with
a test harness: one whose path ends in `test` (`#[test]`,
`#[tokio::test]`, `#[tokio::test(flavor = "multi_thread")]`,
`#[async_std::test]`, `#[test_log::test]`), or `#[rstest]`,
`#[test_case(..)]`, `#[test_matrix(..)]`, `#[wasm_bindgen_test]`,
`#[quickcheck]`.  Each is named by its module path (`tests::parses`) and
read as its tokens without comments (a comment, a doc comment, a
reformat change none), attributes included (a new `#[case(..)]` row or
`#[test_case(..)]` changes the test).  A test with an `#[ignore]`
attribute (with or without a reason) never runs unless asked: `ignored`;
a conditional one (`#[cfg_attr(ci, ignore)]`) runs somewhere and is not.
A function a macro generates is not seen.  `code_tokens` gives a whole
file's tokens without comments, to tell a change of code from one of
comments or layout.

**Units** (`units`, for `test_drift`, which splits the files the
rubric's test globs name and Cargo's default names call test modules,
`gate.drift.collected.TEST_MODULES`) are the items of the file, at
any depth of inline modules, each with its outer attributes, keyed by
its kind and module path (`fn tests::parses`, `struct tests::Fixture`,
`use tests::super::*`) and compared by its tokens without comments
(`Unit.same`):

* **A case** is a test function (above) whose other attributes act on
  it alone (`#[ignore]`, `#[should_panic]`, `#[case(..)]`, `#[serial]`,
  `#[timeout(..)]`, or one of the quiet ones below); with any other
  (`#[ctor]`) it is COLLECTION.  It is judged at the file's top level
  whatever its module (`Unit.parent` empty), so a new one binding a name
  any base unit binds or spells (a helper that a glob import, `use
  super::*`, brings to existing tests) is refused.
* **COLLECTION**, which a new version may not add, is what can change
  what existing code sees without being named: an `impl` block (a trait
  impl or inherent methods change method resolution for every value of
  the type), but for one of a type that the same module declares (a
  `struct`, `enum` or `union` of that name, not a type parameter),
  which binds that type's name; an item with an attribute other than
  lint levels, `doc`, `cfg`, `inline`, `must_use` and the standard
  library's `derive`s (a `#[ctor]`, a `#[macro_use]`, a proc macro's
  `derive`, `#[no_mangle]`, `#[path]`); an inner attribute (`#![..]`);
  a macro invocation at item level (`lazy_static! {..}`, a macro that
  writes tests); an `extern` block; and a `use` at the file's top level
  (it may bring a trait, whose methods then take part in the method
  calls of existing code, or shadow a glob import).  A `use` inside a
  module is SUPPORT that is never open: welcome in a new module only.
* **SUPPORT** is every other item: a helper `fn`, a `struct`, `enum`,
  `union`, `trait` or `type`, a `const` or `static`, a `macro_rules!`,
  an `extern crate`, a module declaration `mod name;` (the new file it
  points at is judged as a new file) and an inline module's header (its
  attributes and `mod name`).  Each binds its name (a `use`, each name
  it brings: the last segment or the `as` alias).  An item inside a
  module is a member of the module's header (`Unit.parent`): a new one
  in a module that exists at base passes only when no base code spells
  its name (`gate.drift.compare`); in a new module, a new item is
  welcome unless it is COLLECTION.
* **In a new file** (`reaches`), every COLLECTION unit but a `use`
  (which brings names into that file's module alone) reaches the tests
  of other files: a trait impl or a `#[ctor]` acts on the whole test
  binary.

A text tree-sitter cannot read without repair (an ERROR or MISSING node)
is `Unparsable`, and the file is judged as a whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gate.drift import CASE, COLLECTION, SUPPORT, Unit
from gate.drift._treesitter import ParsedText, UniqueKeys, has_kind, parse
from gate.drift.reader import Reader

if TYPE_CHECKING:
    from tree_sitter import Node

# attribute paths (their first segment) that register the function as a test
_TEST_ATTRIBUTES = frozenset(
    {"rstest", "test_case", "test_matrix", "wasm_bindgen_test", "quickcheck"}
)
_COMMENTS = frozenset({"line_comment", "block_comment"})
# items whose body may hold test functions (a `mod`'s, an `impl`'s is not run as tests)
_NESTED = frozenset({"mod_item"})
# Attributes that change nothing another item sees (lint levels, docs,
# conditional compilation, hints); `derive` is read apart (`_quiet`).
_QUIET = frozenset(
    {"allow", "warn", "deny", "forbid", "expect", "doc", "cfg", "inline", "must_use", "cold"}
    | {"track_caller", "deprecated", "rustfmt::skip", "non_exhaustive"}
)
# The standard library's derives: each implements its trait for the item alone.
_STD_DERIVES = frozenset(
    {"Debug", "Clone", "Copy", "PartialEq", "Eq", "PartialOrd", "Ord", "Hash", "Default"}
)
# Attributes a test may carry beside the one that registers it: each acts
# on that test alone (`#[serial]` orders it among the others).
_TEST_ONLY = frozenset(
    {"ignore", "should_panic", "case", "serial", "parallel", "file_serial", "file_parallel"}
    | {"timeout", "traced_test"}
)
# Items that bind their `name` and are SUPPORT unless an attribute says otherwise.
_NAMED = {
    "function_item": "fn",
    "struct_item": "struct",
    "enum_item": "enum",
    "union_item": "union",
    "trait_item": "trait",
    "type_item": "type",
    "const_item": "const",
    "static_item": "static",
    "macro_definition": "macro_rules!",
    "function_signature_item": "fn",
}
_TYPES = frozenset({"struct_item", "enum_item", "union_item"})
_WORDS = re.compile(r"\w+")


@dataclass(frozen=True)
class RustTest:
    """One test function: its module path `name`, its `tokens` (code
    without comments, attributes included), `ignored` by `#[ignore]`."""

    name: str
    tokens: tuple[str, ...]
    ignored: bool


def test_functions(text: str) -> dict[str, RustTest]:
    """The test functions of the Rust `text`, by module path (a repeated
    path, which rustc refuses, keeps the first).  Raises
    `gate.drift.Unparsable` when the grammar is not installed or the text
    does not parse."""
    source = parse(text, "rust")
    found: dict[str, RustTest] = {}
    stack: list[tuple[Node, tuple[str, ...]]] = [(source.root, ())]
    while stack:
        container, path = stack.pop()
        for child, attributes in _attributed(container):
            if child is None:
                continue
            if child.type == "function_item":
                paths = [_attribute_path(source.text(a)) for a in attributes]
                if any(_registers(p) for p in paths):
                    name = "::".join((*path, _name(source.text, child)))
                    tokens = tuple(t for a in (*attributes, child) for t in _tokens(a, source.text))
                    found.setdefault(name, RustTest(name, tokens, "ignore" in paths))
            elif child.type in _NESTED:
                body = child.child_by_field_name("body")
                if body is not None:
                    stack.append((body, (*path, _name(source.text, child))))
    return found


def _attributed(container: Node) -> Iterator[tuple[Node | None, list[Node]]]:
    """Each item of `container` with the outer attributes before it,
    comments skipped; last, `(None, attributes)` for attributes no item
    follows (none: an empty list)."""
    attributes: list[Node] = []
    for child in container.named_children:
        if child.type in _COMMENTS:
            continue
        if child.type == "attribute_item":
            attributes.append(child)
            continue
        yield child, attributes
        attributes = []
    yield None, attributes


def code_tokens(text: str) -> tuple[str, ...]:
    """The Rust `text`'s tokens without comments (doc comments too), in
    order: equal for two versions that differ only in comments and
    layout.  Raises `gate.drift.Unparsable` as `test_functions` does."""
    source = parse(text, "rust")
    return tuple(_tokens(source.root, source.text))


def _name(text: Callable[[Node], str], node: Node) -> str:
    named = node.child_by_field_name("name")
    return text(named) if named is not None else ""


def _attribute_path(item: str) -> str:
    """`tokio::test` for `#[tokio::test(flavor = "x")]`, `ignore` for
    `#[ignore = "why"]`: the path, without blanks."""
    inner = item.strip().removeprefix("#").strip().removeprefix("[").removesuffix("]")
    for stop in ("(", "=", "["):
        inner = inner.split(stop, 1)[0]
    return "".join(inner.split())


def _registers(path: str) -> bool:
    parts = path.split("::")
    return parts[-1] == "test" or parts[0] in _TEST_ATTRIBUTES


def _tokens(node: Node, text: Callable[[Node], str]) -> list[str]:
    """The leaf tokens of `node` without comments, in order."""
    out: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _COMMENTS:
            continue
        if current.child_count == 0:
            out.append(text(current))
            continue
        stack.extend(reversed(current.children))
    return out


def units(text: str) -> tuple[Unit, ...]:
    """The units of a Rust test file (see the module's docstring).  Raises
    `gate.drift.Unparsable` when the grammar is not installed or the text
    does not parse."""
    splitter = _Units(parse(text, "rust"))
    splitter.items(splitter.source.root, (), "")
    return tuple(splitter.found)


def reaches(unit: Unit) -> bool:
    """Whether `unit`, COLLECTION code of a NEW Rust file, changes what
    the tests of other files see: all of it but a `use`, which brings
    names into the file's own module."""
    return not unit.key.startswith("use ")


class _Units:
    def __init__(self, source: ParsedText) -> None:
        self.source = source
        self.found: list[Unit] = []
        self._keys = UniqueKeys()

    def items(self, container: Node, path: tuple[str, ...], parent: str) -> None:
        """The units of the items of `container` (the file, or a module's
        body at `path` whose header unit is `parent`)."""
        text = self.source.text
        # the type names this module declares: an `impl` of one is its own
        declared = {_name(text, c) for c in container.named_children if c.type in _TYPES}
        for child, attributes in _attributed(container):
            if child is not None:
                self.item(child, attributes, path, parent, declared)
                continue
            for attribute in attributes:  # outer attributes before the end: refused whole
                self.add([attribute], "attribute", path, COLLECTION, (), parent)

    def item(
        self,
        node: Node,
        attributes: list[Node],
        path: tuple[str, ...],
        parent: str,
        declared: set[str],
    ) -> None:
        text = self.source.text
        paths = [_attribute_path(text(a)) for a in attributes]
        quiet = all(_quiet(p, text(a)) for p, a in zip(paths, attributes, strict=True))
        nodes = [*attributes, node]
        kind = node.type
        name = _name(text, node)
        if kind == "function_item" and any(_registers(p) for p in paths):
            alone = all(
                _registers(p) or p in _TEST_ONLY or _quiet(p, text(a))
                for p, a in zip(paths, attributes, strict=True)
            )
            role = CASE if alone else COLLECTION
            self.add(nodes, f"fn {name}", path, role, (name,), "", test=True)
        elif kind == "mod_item":
            body = node.child_by_field_name("body")
            role = SUPPORT if quiet else COLLECTION
            if body is None:
                self.add(nodes, f"mod {name};", path, role, (name,), parent)
                return
            header = [*attributes, *(c for c in node.children if c.end_byte <= body.start_byte)]
            key = self.add(header, f"mod {name}", path, role, (name,), parent)
            self.items(body, (*path, name), key)
        elif kind in _NAMED:
            role = SUPPORT if quiet else COLLECTION
            self.add(nodes, f"{_NAMED[kind]} {name}", path, role, (name,), parent)
        elif kind == "use_declaration" or kind == "extern_crate_declaration":
            shown = " ".join(_tokens(node, text)).replace(" :: ", "::")
            argument = node.child_by_field_name("argument")
            glob = argument is not None and has_kind(argument, "use_wildcard")
            binds = () if glob else _bound(node, text)
            crate = kind == "extern_crate_declaration"
            # a `use` may bring a trait, whose methods then take part in the
            # method calls of the code around it
            role = SUPPORT if quiet and (crate or parent) else COLLECTION
            self.add(nodes, shown.removesuffix(" ;"), path, role, binds, parent, crate)
        elif kind == "impl_item":
            own = _own_type(node, text, declared)
            body = node.child_by_field_name("body")
            end = body.start_byte if body is not None else node.end_byte
            words = (t for c in node.children if c.end_byte <= end for t in _tokens(c, text))
            shown = " ".join(words).replace(" :: ", "::")
            role = SUPPORT if own and quiet else COLLECTION
            self.add(nodes, shown, path, role, (own,) if own else (), parent)
        elif kind == "macro_invocation":
            macro = node.child_by_field_name("macro")
            self.add(nodes, f"{text(macro) if macro else ''}!", path, COLLECTION, (), parent)
        elif kind == "inner_attribute_item":
            shown = "".join(_tokens(node, text))
            self.add(nodes, f"attribute {shown}", path, COLLECTION, (), parent)
        else:  # an `extern` block, anything else
            what = "extern {..}" if kind == "foreign_mod_item" else kind
            self.add(nodes, what, path, COLLECTION, (), parent)

    def add(
        self,
        nodes: list[Node],
        what: str,
        path: tuple[str, ...],
        role: str,
        binds: tuple[str, ...],
        parent: str,
        open_: bool = True,
        test: bool = False,
    ) -> str:
        """Add the unit of `nodes` (an item with its attributes) as `what`
        in the module `path`; its unique key."""
        kind, _, rest = what.partition(" ")
        label = "::".join((*path, rest)) if rest else "::".join(path) or "(file)"
        unique, shown = self._keys.unit(f"{kind} {label}", f"{kind} {label}")
        source = self.source
        tokens = tuple(t for n in nodes for t in _tokens(n, source.text))
        self.found.append(
            Unit(
                key=unique,
                name=shown,
                role=role,
                code=source.span(nodes[0].start_byte, nodes[-1].end_byte),
                binds=tuple(dict.fromkeys(b for b in binds if b)),
                line=source.line(nodes[0]),
                uses=tuple(dict.fromkeys(w for t in tokens for w in _WORDS.findall(t))),
                parent=parent,
                same=lambda: "\n".join(tokens),
                open=open_ if parent and role == SUPPORT else None if not parent else False,
                test=test or role == CASE,
            )
        )
        return unique


def _quiet(path: str, item: str) -> bool:
    """Whether the attribute `item` (its path `path`) changes nothing that
    another item sees: a lint level, `doc`, `cfg`, a hint, or a `derive`
    of the standard library's traits alone."""
    if path in _QUIET:
        return True
    if path != "derive":
        return False
    inner = item[item.find("(") + 1 : item.rfind(")")] if "(" in item else ""
    names = [n.strip().rsplit("::", 1)[-1] for n in inner.split(",") if n.strip()]
    return bool(names) and all(n in _STD_DERIVES for n in names)


def _bound(node: Node, text: Callable[[Node], str]) -> tuple[str, ...]:
    """The names a `use` or `extern crate` item binds: each leaf path's
    last segment (its parent's for `self`), or its `as` alias."""
    if node.type == "extern_crate_declaration":
        alias = node.child_by_field_name("alias") or node.child_by_field_name("name")
        return (text(alias),) if alias is not None else ()
    out: list[str] = []
    stack: list[tuple[Node, str]] = [(c, "") for c in node.named_children]
    while stack:
        current, above = stack.pop()
        kind = current.type
        if kind == "use_as_clause":
            alias = current.child_by_field_name("alias")
            out += [text(alias)] if alias is not None else []
        elif kind == "scoped_use_list":
            prefix = current.child_by_field_name("path")
            last = text(prefix).rsplit("::", 1)[-1] if prefix is not None else above
            items = current.child_by_field_name("list")
            stack += [(c, last) for c in items.named_children] if items is not None else []
        elif kind == "use_list":
            stack += [(c, above) for c in current.named_children]
        elif kind == "self":
            out.append(above)
        elif kind in ("identifier", "scoped_identifier", "crate", "super"):
            out.append(text(current).rsplit("::", 1)[-1])
    return tuple(out)


def _own_type(node: Node, text: Callable[[Node], str], declared: set[str]) -> str:
    """The name of the type an `impl` block is for, where it is a type of
    `declared` (the module's own) and not one of the block's type
    parameters; "" otherwise."""
    target = node.child_by_field_name("type")
    if target is not None and target.type == "generic_type":
        target = target.child_by_field_name("type")
    if target is None or target.type != "type_identifier":
        return ""
    name = text(target)
    parameters = node.child_by_field_name("type_parameters")
    own = parameters is None or name not in _WORDS.findall(text(parameters))
    return name if name in declared and own else ""


# What the engine reads Rust test files with (`gate.drift.language.RUST`).
READER = Reader(units=lambda text, _suffix: units(text), reaches=reaches)
