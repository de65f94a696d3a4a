"""Where a Go function's text is read other than node by node, for
`gate.drift.go.cases`' tokens: whether `any` in a file can only be Go's
predeclared alias of `interface{}` (`predeclared_any`), and whether every
repair tree-sitter made in a function lies inside one statement of its
body (`in_statements`), whose exact text then stands for it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gate.drift._treesitter import ParsedText

if TYPE_CHECKING:
    from tree_sitter import Node

_ANY = re.compile(rb"\bany\b")


def predeclared_any(source: ParsedText) -> bool:
    """Whether `any` in the file can only be Go's predeclared alias of
    `interface{}`: no `any` is declared in it (a type, a function, a var,
    a constant, a parameter or type parameter, an import name), and none
    is read as a value but in a conversion `any(x)`."""
    for found in _ANY.finditer(source.data):
        node = source.root.descendant_for_byte_range(found.start(), found.end())
        if node is None or (node.start_byte, node.end_byte) != found.span():
            continue  # inside a string, a comment or a longer word
        parent = node.parent
        declared = node.type == "package_identifier"  # `import any "x"`
        if node.type == "type_identifier" and parent is not None:
            declared = parent.type in ("type_spec", "type_alias") and is_field(parent, "name", node)
        if node.type == "identifier":  # a value, bar the conversion `any(x)`
            declared = parent is None or not (
                parent.type == "call_expression" and is_field(parent, "function", node)
            )
        if declared:
            return False
    return True


def in_statements(function: Node) -> bool:
    """Whether every repair tree-sitter made in `function` (ERROR and
    MISSING nodes) lies inside a statement of its body, whose exact text
    is then one token (`Cases.tokens`)."""
    stack = [function]
    while stack:
        node = stack.pop()
        if node != function and is_statement(node):
            continue  # its exact text stands for it
        if node.is_error or node.is_missing:
            return False
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return True


def is_statement(node: Node) -> bool:
    """Whether `node` is a statement of a block (or a repair between them)."""
    parent = node.parent
    if parent is None:
        return False
    return parent.type == "statement_list" or (
        parent.type == "block" and node.type not in ("statement_list", "{", "}")
    )


def is_field(parent: Node, field: str, node: Node) -> bool:
    child = parent.child_by_field_name(field)
    return child is not None and (child.start_byte, child.end_byte) == (
        node.start_byte,
        node.end_byte,
    )
