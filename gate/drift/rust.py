"""Rust test functions (`test_functions`): what `test_evidence` reads of a
`.rs` file, source or test, since Rust keeps unit tests inside the file
they test (a `#[cfg(test)] mod tests { ... }` block).

Rust is not a language `test_drift` splits (no `Reader` in
`gate.drift.language`): only its test cases are read here, with the
tree-sitter Rust grammar (`tree-sitter-rust`, loaded on first use through
`gate.drift._treesitter`).  A test function is a `fn` item, at any depth
of modules, with an attribute that registers it with a test harness:
one whose path ends in `test` (`#[test]`, `#[tokio::test]`,
`#[tokio::test(flavor = "multi_thread")]`, `#[async_std::test]`,
`#[test_log::test]`), or `#[rstest]`, `#[test_case(..)]`,
`#[test_matrix(..)]`, `#[wasm_bindgen_test]`, `#[quickcheck]`.  Each
is named by its module path (`tests::parses`) and read as its tokens
without comments (a comment, a doc comment, a reformat change none),
attributes included (a new `#[case(..)]` row or
`#[test_case(..)]` changes the test).  A test with an `#[ignore]`
attribute (with or without a reason) never runs unless asked: `ignored`;
a conditional one (`#[cfg_attr(ci, ignore)]`) runs somewhere and is not.
A function a macro generates is not seen.  `code_tokens` gives a whole
file's tokens without comments, to tell a change of code from one of
comments or layout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gate.drift._treesitter import parse

if TYPE_CHECKING:
    from tree_sitter import Node

# attribute paths (their first segment) that register the function as a test
_TEST_ATTRIBUTES = frozenset(
    {"rstest", "test_case", "test_matrix", "wasm_bindgen_test", "quickcheck"}
)
_COMMENTS = frozenset({"line_comment", "block_comment"})
# items whose body may hold test functions (a `mod`'s, an `impl`'s is not run as tests)
_NESTED = frozenset({"mod_item"})


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
        attributes: list[Node] = []
        for child in container.named_children:
            if child.type in _COMMENTS:
                continue
            if child.type == "attribute_item":
                attributes.append(child)
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
            attributes = []
    return found


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
