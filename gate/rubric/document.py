"""A parsed rubric with the line of every key and value, and how an error
names a place in it.

`Doc` is what both parsers (`gate.rubric.yamldoc`, `gate.rubric.jsondoc`)
return: plain values plus the lines, so that every later error names
`file:line`.  `invalid` and `invalid_at` make the one error form,
`invalid rubric: FILE:LINE: rule "F3" (forbidden_paths): ...`;
`context`, `key_name`, `show` and `type_name` word the place and the value
in it.  `CAPS` are the top-level lists both parsers count as they read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gate.base.errors import GateError
from gate.rubric.schema import MAX_EXAMPLES, MAX_RULES
from gate.rules import REGISTRY

KeyPath = tuple[str | int, ...]


@dataclass
class Doc:
    """A parsed rubric: its value, and the line of each key and value by key path."""

    value: Any
    is_yaml: bool
    lines: dict[KeyPath, int] = field(default_factory=dict)  # value start line
    key_lines: dict[KeyPath, int] = field(default_factory=dict)  # line of the key naming the value

    def line(self, path: KeyPath) -> int:
        """The line of the key naming `path`, else of its value, else of its nearest parent."""
        for n in range(len(path), -1, -1):
            sub = path[:n]
            if sub in self.key_lines:
                return self.key_lines[sub]
            if sub in self.lines:
                return self.lines[sub]
        return 1

    def value_line(self, path: KeyPath) -> int:
        if path in self.lines:
            return self.lines[path]
        return self.line(path)

    def claim_key(
        self, source: str, path: KeyPath, key: str, line: int, taken: Mapping[str, Any]
    ) -> KeyPath:
        """Record `key` (on `line`) in the mapping at `path`; a key already in
        `taken` is a duplicate, refused in YAML and JSON alike.  Returns the key's path."""
        if key in taken:
            first = self.key_lines.get((*path, key))
            raise invalid(
                source, line, f'duplicate key "{key}" (first on line {first}); keep only one'
            )
        key_path = (*path, key)
        self.key_lines[key_path] = line
        return key_path

    def get(self, path: KeyPath) -> Any:
        node = self.value
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node


def invalid(source: str, line: int | None, message: str) -> GateError:
    where = source if line is None else f"{source}:{line}"
    return GateError(f"invalid rubric: {where}: {message}")


def invalid_at(doc: Doc, source: str, path: KeyPath, message: str) -> GateError:
    """The error for the value at `path`: its line, and the rule, example or
    waiver it is in (`context`) before `message`."""
    label, _ = context(doc, path)
    return invalid(source, doc.line(path), f"{label}: {message}" if label else message)


def check_text(value: str, source: str, line: int) -> str:
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        raise invalid(
            source, line, "a string holds an unpaired UTF-16 surrogate; remove the escape"
        )
    return value


# The top-level lists with a count cap, refused as soon as the cap is passed.
CAPS = {"rules": MAX_RULES, "examples": MAX_EXAMPLES}


def over_cap(key: str, cap: int) -> str:
    return (
        f"more than {cap} {key} is over the limit of {cap}; a rubric is a short list "
        "of focused rules: split it or merge rules that share a kind"
    )


def type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "non-finite number"
        return "number with a decimal point" if value.is_integer() else "number with a fraction"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return type(value).__name__  # e.g. a YAML date


def show(value: object) -> str:
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= 60 else text[:57] + '..."'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) or value is None:
        return json.dumps(value)
    return type_name(value)


def context(doc: Doc, path: KeyPath) -> tuple[str, KeyPath]:
    """`rule "F3" (forbidden_paths)` / `example "x", change 1` and the remaining key path."""
    if len(path) >= 2 and path[0] == "rules" and isinstance(path[1], int):
        rule = doc.get(path[:2])
        label = f"rule #{path[1] + 1}"
        if isinstance(rule, dict):
            rule_id, kind = rule.get("id"), rule.get("kind")
            if isinstance(rule_id, str):
                label = f"rule {json.dumps(rule_id, ensure_ascii=False)}"
            if isinstance(kind, str) and kind in REGISTRY:
                label += f" ({kind})"
        return label, path[2:]
    if len(path) >= 2 and path[0] == "examples" and isinstance(path[1], int):
        example = doc.get(path[:2])
        label = f"example #{path[1] + 1}"
        if isinstance(example, dict) and isinstance(example.get("name"), str):
            label = f"example {show(example['name'])}"
        rest = path[2:]
        if len(rest) >= 2 and rest[0] == "change" and isinstance(rest[1], int):
            label += f", change entry {rest[1] + 1}"
            entry = doc.get(path[:4])
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                label += f" ({show(entry['path'])})"
            rest = rest[2:]
        return label, rest
    if path and path[0] == "applies_to":
        return "applies_to", path[1:]
    if len(path) >= 2 and path[0] == "waivers" and isinstance(path[1], int):
        return f"waiver #{path[1] + 1}", path[2:]
    return "", path


def key_name(rest: KeyPath, top: KeyPath) -> str:
    """`"limit"`, `item 2 of "paths"`, or `the rubric` for the document itself."""
    if not top:
        return "the rubric"
    if not rest:
        # The context object itself (a rule, an example, applies_to).
        return "it" if top[0] != "applies_to" else '"applies_to"'
    last = rest[-1]
    if isinstance(last, int):
        owner = rest[-2] if len(rest) >= 2 else top[0]
        return f'item {last + 1} of "{owner}"'
    return f'"{last}"'
