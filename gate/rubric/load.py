"""Load and validate a rubric (YAML or JSON) into a `Rubric` value.

The order is fixed and fail-closed:

1. refuse input over 1 MiB (before parsing) and input that is not UTF-8;
2. parse: JSON when the source name ends in `.json` or the first
   non-whitespace character is `{`, else YAML.  YAML goes through a safe
   loader that refuses anchors and aliases outright (no billion laughs),
   merge keys (`<<`), tags other than the plain scalar/list/mapping ones,
   duplicate keys and non-string keys.  JSON goes through a small
   position-tracking parser (duplicate keys refused, NaN/Infinity refused).
   Both record the line of every key and value, so that every error names
   `file:line`;
3. validate against the rubric's JSON Schema (Draft 2020-12), built from
   the rule registry (`gate.rubric.schema`), before any rule is built;
4. semantic checks the schema cannot express: duplicate rule ids, the
   reserved `gate.` prefix, the values of the parameter types kinds share
   (usable globs, clean repo-relative paths, Python names), each kind's
   own `param_problem`, examples that expect unknown ids, contradictory
   example entries;
5. build `gate.rubric` values with every default filled: each parameter's
   `default` from its kind's schema fragment, or the rubric value its kind
   names (`FROM_RUBRIC`).

Every error is a `GateError` whose message reads
`invalid rubric: FILE:LINE: rule "F3" (forbidden_paths): unknown key "pathz"; allowed keys: ...`.

Examples (the rubric's `examples:`) become `Example` values whose change
set comes from `gate.changes.example` (`source="example"`).
`Example.expect` lists the expected ids in rubric order.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import yaml

from gate import globs
from gate.changes import ADDED, DELETED, MODIFIED, RENAMED
from gate.changes.example import changes_from_example
from gate.errors import GateError
from gate.jsontext import integer, out_of_range
from gate.names import BUILTIN_PREFIX
from gate.rubric import DEFAULT_TESTS, AppliesTo, Example, Rubric, Rule, Waiver
from gate.rubric.schema import MAX_EXAMPLES, MAX_RULES, schema
from gate.rules import REGISTRY
from gate.rules.kind import RULE_KEYS

if TYPE_CHECKING:
    from jsonschema import ValidationError
    from jsonschema.protocols import Validator

MAX_BYTES = 1024 * 1024

Path_ = tuple[str | int, ...]


# --------------------------------------------------------------------------
# public interface


def sha256_hex(data: bytes) -> str:
    """The lowercase hex SHA-256 of `data` (what freeze files record)."""
    return hashlib.sha256(data).hexdigest()


def load_rubric_bytes(data: bytes, source: str) -> Rubric:
    """Parse, validate and build a rubric; `source` names it in every message."""
    if len(data) > MAX_BYTES:
        raise GateError(
            f"invalid rubric: {source}: {len(data)} bytes is over the 1 MiB limit; "
            "a rubric is a short list of rules, so trim it"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GateError(
            f"invalid rubric: {source}:{line}: not UTF-8 (byte {exc.start}); save the file as UTF-8"
        ) from None
    text = text.removeprefix("\ufeff")
    doc = _parse(text, source)
    _check_counts(doc, source)
    _validate_schema(doc, source)
    _check_semantics(doc, source)
    return _build(doc, source, sha256_hex(data))


# --------------------------------------------------------------------------
# parsed document with line numbers


@dataclass
class _Doc:
    value: Any
    is_yaml: bool
    lines: dict[Path_, int] = field(default_factory=dict)  # value start line
    key_lines: dict[Path_, int] = field(default_factory=dict)  # line of the key naming the value

    def line(self, path: Path_) -> int:
        """The line of the key naming `path`, else of its value, else of its nearest parent."""
        for n in range(len(path), -1, -1):
            sub = path[:n]
            if sub in self.key_lines:
                return self.key_lines[sub]
            if sub in self.lines:
                return self.lines[sub]
        return 1

    def value_line(self, path: Path_) -> int:
        if path in self.lines:
            return self.lines[path]
        return self.line(path)

    def claim_key(
        self, source: str, path: Path_, key: str, line: int, taken: Mapping[str, Any]
    ) -> Path_:
        """Record `key` (on `line`) in the mapping at `path`; a key already in
        `taken` is a duplicate, refused in YAML and JSON alike.  Returns the key's path."""
        if key in taken:
            first = self.key_lines.get((*path, key))
            raise _fail(
                source, line, f'duplicate key "{key}" (first on line {first}); keep only one'
            )
        key_path = (*path, key)
        self.key_lines[key_path] = line
        return key_path

    def get(self, path: Path_) -> Any:
        node = self.value
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node


def _fail(source: str, line: int | None, message: str) -> GateError:
    where = source if line is None else f"{source}:{line}"
    return GateError(f"invalid rubric: {where}: {message}")


def _parse(text: str, source: str) -> _Doc:
    stripped = text.lstrip()
    try:
        if source.endswith(".json") or stripped.startswith("{"):
            return _JsonParser(text, source).parse()
        return _parse_yaml(text, source)
    except RecursionError:
        raise _fail(source, None, "nested too deeply; a rubric is a flat list of rules") from None


def _check_text(value: str, source: str, line: int) -> str:
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        raise _fail(source, line, "a string holds an unpaired UTF-16 surrogate; remove the escape")
    return value


# --------------------------------------------------------------------------
# YAML

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset(
    _TAG + name for name in ("null", "bool", "int", "float", "str", "timestamp")
)


# The top-level lists with a count cap, refused as soon as the cap is passed.
_CAPS = {"rules": MAX_RULES, "examples": MAX_EXAMPLES}


def _over_cap(key: str, cap: int) -> str:
    return (
        f"more than {cap} {key} is over the limit of {cap}; a rubric is a short list "
        "of focused rules: split it or merge rules that share a kind"
    )


class _StrictLoader(yaml.SafeLoader):
    """A safe loader that refuses anchors and aliases before they can expand,
    and a top-level `rules` or `examples` list as soon as it passes its cap
    (the parser is pure Python, about 20 us a byte: a 1 MiB rubric of 16,000
    rules took 22 s to compose before being refused for its count)."""

    _root: yaml.Node | None = None  # the document's top-level mapping
    _top = False  # the node being composed is the document's root
    _capped: tuple[str, int] | None = None  # the sequence being composed is capped

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        anchor = getattr(event, "anchor", None)
        if isinstance(event, yaml.AliasEvent) or anchor is not None:
            line = event.start_mark.line + 1 if event.start_mark is not None else None
            raise _YamlRefusal(
                line,
                "YAML aliases/anchors are not allowed; write each value out in full",
            )
        key = getattr(index, "value", None)
        if parent is not None and parent is self._root and isinstance(key, str) and key in _CAPS:
            self._capped = (key, _CAPS[key])
        self._top = parent is None
        return super().compose_node(parent, index)

    def compose_mapping_node(self, anchor: Any) -> yaml.MappingNode:
        if self._top and self._root is None:
            self._root = node = yaml.MappingNode("", [])
            # compose the root by hand so that its children see it as their parent
            start = self.get_event()  # type: ignore[no-untyped-call]
            tag = start.tag
            if tag is None or tag == "!":
                tag = self.resolve(  # type: ignore[no-untyped-call]
                    yaml.MappingNode, None, start.implicit
                )
            node.tag, node.start_mark, node.flow_style = tag, start.start_mark, start.flow_style
            while not self.check_event(yaml.MappingEndEvent):
                item_key = self.compose_node(node, None)  # type: ignore[arg-type]
                item_value = self.compose_node(node, item_key)  # type: ignore[arg-type]
                node.value.append((item_key, item_value))
            end = self.get_event()  # type: ignore[no-untyped-call]
            node.end_mark = end.end_mark
            return node
        return super().compose_mapping_node(anchor)

    def compose_sequence_node(self, anchor: Any) -> yaml.SequenceNode:
        capped, self._capped = self._capped, None
        if capped is None:
            return super().compose_sequence_node(anchor)
        key, cap = capped
        start = self.get_event()  # type: ignore[no-untyped-call]
        tag = start.tag
        if tag is None or tag == "!":
            tag = self.resolve(  # type: ignore[no-untyped-call]
                yaml.SequenceNode, None, start.implicit
            )
        node = yaml.SequenceNode(tag, [], start.start_mark, None, flow_style=start.flow_style)
        index = 0
        while not self.check_event(yaml.SequenceEndEvent):
            if index == cap:
                raise _YamlRefusal(start.start_mark.line + 1, _over_cap(key, cap))
            node.value.append(self.compose_node(node, index))
            index += 1
        end = self.get_event()  # type: ignore[no-untyped-call]
        node.end_mark = end.end_mark
        return node


class _YamlRefusal(Exception):
    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _tab_trouble(text: str, line: int | None, problem: str) -> bool:
    """The YAML error is about a tab: PyYAML names it, or the line it stopped
    on is indented with one (an editor that inserts tabs)."""
    if "'\\t'" in problem or "tab character" in problem:
        return True
    if line is None:
        return False
    lines = re.split("\r\n|[\n\r\x85\u2028\u2029]", text)  # YAML's line breaks
    if not 0 <= line < len(lines):
        return False
    current = lines[line]
    indent = current[: len(current) - len(current.lstrip(" \t"))]
    return "\t" in indent


def _count_fast(text: str) -> None:
    """Refuse a top-level `rules` or `examples` list over its cap from
    libyaml's events (about 50 times faster than the pure-Python scanner:
    0.02 s for a near-1 MiB rubric of 16,000 rules), before the strict
    loader reads it.  It only ever refuses for the count: what the rubric
    is stays the strict loader's, and without libyaml, or on any error
    here, the strict loader's own count (while composing) decides."""
    if not getattr(yaml, "__with_libyaml__", False):
        return
    depth = 0
    key: str | None = None  # the top-level key whose value comes next
    counting: tuple[str, int, int] | None = None  # key, cap, items so far
    line = None  # where the counted list starts, as the strict loader names it
    over = False
    try:
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            starts = isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent))
            ends = isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent))
            is_node = starts or isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent))
            if counting is not None and depth == 2 and is_node:
                name, cap, seen = counting
                if seen == cap:
                    over = True
                    break
                counting = (name, cap, seen + 1)
            if depth == 1 and is_node:
                if key is None:
                    key = event.value if isinstance(event, yaml.ScalarEvent) else ""
                else:
                    if key in _CAPS and isinstance(event, yaml.SequenceStartEvent):
                        counting = (key, _CAPS[key], 0)
                        line = event.start_mark.line + 1 if event.start_mark else None
                    key = None
            if starts:
                depth += 1
            elif ends:
                depth -= 1
                if depth == 1:
                    counting = None
    except yaml.YAMLError:
        return
    if over and counting is not None:
        raise _YamlRefusal(line, _over_cap(counting[0], counting[1]))


def _parse_yaml(text: str, source: str) -> _Doc:
    try:
        _count_fast(text)
    except _YamlRefusal as exc:
        raise _fail(source, exc.line, exc.message) from None
    loader = _StrictLoader(text)
    try:
        root = loader.get_single_node()
    except _YamlRefusal as exc:
        raise _fail(source, exc.line, exc.message) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = " ".join(p for p in (exc.context, exc.problem) if p)
        if _tab_trouble(text, mark.line if mark is not None else None, problem):
            raise _fail(
                source,
                line,
                "YAML syntax error: a tab where YAML expects spaces (YAML never indents with "
                "tabs); use spaces, not tabs",
            ) from None
        raise _fail(
            source,
            line,
            f"YAML syntax error: {problem}; fix the YAML (quote values that contain ': ' or ' #')",
        ) from None
    except yaml.YAMLError as exc:
        raise _fail(source, None, f"YAML error: {exc}; fix the YAML") from None
    finally:
        loader.dispose()
    doc = _Doc(value=None, is_yaml=True)
    if root is None:
        raise _fail(source, 1, 'the rubric is empty; it needs at least a non-empty "rules" list')
    doc.value = _YamlBuilder(loader, doc, source).build(root, ())
    return doc


class _YamlBuilder:
    """Builds plain Python values from a composed node tree, recording lines."""

    def __init__(self, loader: _StrictLoader, doc: _Doc, source: str) -> None:
        self.loader = loader
        self.doc = doc
        self.source = source

    def _refuse_tag(self, node: yaml.Node) -> GateError:
        tag = str(node.tag).replace(_TAG, "!!")
        return _fail(
            self.source,
            node.start_mark.line + 1,
            f"YAML tag {tag} is not allowed; write a plain string, number, "
            "boolean, list or mapping",
        )

    def build(self, node: yaml.Node, path: Path_) -> Any:
        line = node.start_mark.line + 1
        self.doc.lines[path] = line
        if isinstance(node, yaml.MappingNode):
            if node.tag != _TAG + "map":
                raise self._refuse_tag(node)
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                key_line = key_node.start_mark.line + 1
                if key_node.tag == _TAG + "merge":
                    raise _fail(
                        self.source,
                        key_line,
                        "YAML merge keys (<<) are not allowed; write each key out in full",
                    )
                if not isinstance(key_node, yaml.ScalarNode):
                    raise _fail(self.source, key_line, "a mapping key must be a plain string")
                key = self.build(key_node, (*path, "<key>"))
                if not isinstance(key, str):
                    raise _fail(
                        self.source,
                        key_line,
                        f"mapping key {key_node.value!r} is read as a {_type_name(key)}, "
                        'not a string; put it in quotes (for example "on":)',
                    )
                key_path = self.doc.claim_key(self.source, path, key, key_line, out)
                out[key] = self.build(value_node, key_path)
            self.doc.lines.pop((*path, "<key>"), None)
            return out
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _TAG + "seq":
                raise self._refuse_tag(node)
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        if node.tag not in _SCALAR_TAGS:
            raise self._refuse_tag(node)
        if node.tag == _TAG + "int" and len(node.value) > _INT_TEXT_LIMIT:
            raise _fail(self.source, line, out_of_range(node.value))
        try:
            value = self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise _fail(
                self.source, line, f"cannot read the value {_show(node.value)} ({exc})"
            ) from None
        if isinstance(value, str):
            _check_text(value, self.source, line)
        elif isinstance(value, int) and not isinstance(value, bool):
            try:
                integer(str(value))
            except ValueError as exc:
                raise _fail(self.source, line, str(exc)) from None
        return value


# A YAML integer longer than this (signs, 0x/0o/0b prefixes and `_`
# separators included) cannot be a 64-bit integer; refused before PyYAML
# converts it, so Python's 4300-digit limit never fires.
_INT_TEXT_LIMIT = 200


# --------------------------------------------------------------------------
# JSON

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WS = " \t\n\r"


class _JsonParser:
    """A strict JSON parser (RFC 8259) that records the line of every key and value."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.pos = 0
        self.newlines = [i for i, ch in enumerate(text) if ch == "\n"]
        self.doc = _Doc(value=None, is_yaml=False)

    def line_at(self, pos: int) -> int:
        return bisect.bisect_left(self.newlines, pos) + 1

    def error(self, message: str, pos: int | None = None) -> GateError:
        at = self.pos if pos is None else pos
        why = (
            "" if self.source.endswith(".json") else " (a rubric starting with '{' is read as JSON)"
        )
        return _fail(
            self.source, self.line_at(at), f"JSON syntax error{why}: {message}; fix the JSON"
        )

    def skip_ws(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos] in _WS:
            self.pos += 1

    def parse(self) -> _Doc:
        self.skip_ws()
        if self.pos >= len(self.text):
            raise _fail(
                self.source, 1, 'the rubric is empty; it needs at least a non-empty "rules" list'
            )
        self.doc.value = self.value(())
        self.skip_ws()
        if self.pos < len(self.text):
            raise self.error("extra data after the top-level value")
        return self.doc

    def value(self, path: Path_) -> Any:
        self.skip_ws()
        text = self.text
        if self.pos >= len(text):
            raise self.error("unexpected end of input")
        self.doc.lines[path] = self.line_at(self.pos)
        ch = text[self.pos]
        if ch == "{":
            return self.obj(path)
        if ch == "[":
            return self.arr(path)
        if ch == '"':
            return self.string()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, self.pos):
                self.pos += len(word)
                return val
        match = _NUMBER.match(text, self.pos)
        if match is None:
            raise self.error(f"unexpected character {ch!r}")
        self.pos = match.end()
        if match.group(1) or match.group(2):
            number = float(match.group(0))
            if number in (float("inf"), float("-inf")):
                raise self.error("number out of range", match.start())
            return number
        try:
            return integer(match.group(0))
        except ValueError as exc:
            raise _fail(self.source, self.line_at(match.start()), f"{exc}") from None

    def string(self) -> str:
        start = self.pos
        try:
            value, end = json.decoder.scanstring(self.text, self.pos + 1, True)  # type: ignore[attr-defined]
        except json.JSONDecodeError as exc:
            raise self.error(exc.msg, exc.pos) from None
        self.pos = end
        return _check_text(str(value), self.source, self.line_at(start))

    def take(self, token: str) -> bool:
        """Consume `token` when the text goes on with it."""
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def closed(self, close: str) -> bool:
        """After an item of an object or an array: True at its `close`
        (consumed), False after a comma (consumed); anything else is an error."""
        self.skip_ws()
        if self.take(","):
            return False
        if self.take(close):
            return True
        raise self.error(f"expected ',' or '{close}'")

    def obj(self, path: Path_) -> dict[str, Any]:
        self.pos += 1
        out: dict[str, Any] = {}
        self.skip_ws()
        if self.take("}"):
            return out
        while True:
            self.skip_ws()
            if not self.text.startswith('"', self.pos):
                raise self.error("expected a double-quoted key")
            key_line = self.line_at(self.pos)
            key = self.string()
            key_path = self.doc.claim_key(self.source, path, key, key_line, out)
            self.skip_ws()
            if not self.take(":"):
                raise self.error("expected ':' after a key")
            out[key] = self.value(key_path)
            if self.closed("}"):
                return out

    def arr(self, path: Path_) -> list[Any]:
        start = self.pos
        self.pos += 1
        out: list[Any] = []
        self.skip_ws()
        if self.take("]"):
            return out
        cap = _CAPS.get(str(path[0])) if len(path) == 1 else None
        while True:
            if cap is not None and len(out) == cap:  # refused at once, not after parsing
                raise _fail(self.source, self.line_at(start), _over_cap(str(path[0]), cap))
            out.append(self.value((*path, len(out))))
            if self.closed("]"):
                return out


# --------------------------------------------------------------------------
# schema validation and its messages


def _validator(rubric_schema: dict[str, Any]) -> Validator:
    """A validator for `rubric_schema` (integers are ints, never bools)."""
    from jsonschema import Draft202012Validator, validators

    def is_integer(_checker: object, instance: object) -> bool:
        return isinstance(instance, int) and not isinstance(instance, bool)

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer)
    cls = validators.extend(Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    return cls(rubric_schema)  # type: ignore[no-any-return]


def _type_name(value: object) -> str:
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


_EXPECTED = {
    "integer": "an integer",
    "string": "a string",
    "boolean": "a boolean (true or false)",
    "array": "a list",
    "object": "a mapping",
    "number": "a number",
    "null": "null",
}


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _show(value: object) -> str:
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= 60 else text[:57] + '..."'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) or value is None:
        return json.dumps(value)
    return _type_name(value)


def _context(doc: _Doc, path: Path_) -> tuple[str, Path_]:
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
            label = f"example {_show(example['name'])}"
        rest = path[2:]
        if len(rest) >= 2 and rest[0] == "change" and isinstance(rest[1], int):
            label += f", change entry {rest[1] + 1}"
            entry = doc.get(path[:4])
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                label += f" ({_show(entry['path'])})"
            rest = rest[2:]
        return label, rest
    if path and path[0] == "applies_to":
        return "applies_to", path[1:]
    if len(path) >= 2 and path[0] == "waivers" and isinstance(path[1], int):
        return f"waiver #{path[1] + 1}", path[2:]
    return "", path


def _key_name(rest: Path_, top: Path_) -> str:
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


def _resolve(sub: Any) -> Any:
    """Follow a local `$ref` in the shipped schema (one level is all it uses)."""
    if isinstance(sub, dict) and "$ref" in sub:
        target: Any = schema()
        for part in str(sub["$ref"]).removeprefix("#/").split("/"):
            target = target[part]
        merged = dict(target)
        merged.update({k: v for k, v in sub.items() if k != "$ref"})
        return merged
    return sub


def _wrong_shape(branch: Sequence[ValidationError], at: Path_) -> bool:
    for err in branch:
        if tuple(err.absolute_path) != at:
            continue
        if err.validator == "type":
            return True
        if err.validator == "const" and _type_name(err.instance) != _type_name(err.validator_value):
            return True
    return False


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The most specific errors under `error` (descending into anyOf/oneOf)."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    at = tuple(error.absolute_path)
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [b for b in branches.values() if not _wrong_shape(b, at)]
    if len(fitting) == 1:
        return [leaf for sub in fitting[0] for leaf in _leaves(sub)]
    return [error]


def _check_counts(doc: _Doc, source: str) -> None:
    """Refuse more than MAX_RULES rules or MAX_EXAMPLES examples before validating."""
    if not isinstance(doc.value, dict):
        return
    for key, cap in (("rules", MAX_RULES), ("examples", MAX_EXAMPLES)):
        items = doc.value.get(key)
        if isinstance(items, list) and len(items) > cap:
            raise _fail(
                source,
                doc.value_line((key,)),
                f"{len(items)} {key} is over the limit of {cap}; a rubric is a short list "
                "of focused rules: split it or merge rules that share a kind",
            )


def _validate_schema(doc: _Doc, source: str) -> None:
    errors = list(_validator(schema()).iter_errors(doc.value))
    if not errors:
        return
    leaves = [leaf for err in errors for leaf in _leaves(err)]
    ranked = []
    for leaf in leaves:
        path = tuple(leaf.absolute_path)
        line, message = _schema_message(doc, leaf)
        # One rule or example at a time (in document order); within it an
        # unknown key first, since a misspelt key also shows up as a missing one.
        item = (
            doc.value_line(path[:2])
            if path[:1] in (("rules",), ("examples",), ("waivers",))
            else line
        )
        priority = {"additionalProperties": 0, "type": 1}.get(str(leaf.validator), 2)
        ranked.append((item, priority, line, -len(path), message))
    ranked.sort()
    raise _fail(source, ranked[0][2], ranked[0][4])


def _schema_message(doc: _Doc, err: ValidationError) -> tuple[int, str]:
    path: Path_ = tuple(err.absolute_path)
    label, rest = _context(doc, path)
    prefix = f"{label}: " if label and (rest or label != "applies_to") else ""
    name = _key_name(rest, path)
    kind = err.validator
    instance = err.instance
    rule_value: Any = err.validator_value
    sub = err.schema if isinstance(err.schema, dict) else {}

    if kind == "additionalProperties" and isinstance(instance, dict):
        allowed: list[str] = list(sub.get("properties", {}))
        extra = [k for k in instance if k not in allowed]
        key = extra[0]
        where = "" if label else " at the top level"
        owner = f"{label}: " if label else ""
        return doc.line((*path, key)), (
            f"{owner}unknown key {json.dumps(key, ensure_ascii=False)}{where}; "
            f"allowed keys: {', '.join(allowed)}"
        )
    if kind == "required" and isinstance(instance, dict):
        missing = next(k for k in list(rule_value) if k not in instance)
        described = _resolve(sub.get("properties", {}).get(missing, {}))
        hint = described.get("description", "") if isinstance(described, dict) else ""
        hint = re.split(r"[.:] ", hint, maxsplit=1)[0].rstrip(".")  # its first clause
        what = f" ({hint[:1].lower()}{hint[1:]})" if hint else ""
        return doc.value_line(path), f'{prefix}missing key "{missing}"{what}; add it'
    if kind == "type" and "const" in sub:
        return doc.line(
            path
        ), f"{prefix}{name} must be {_show(sub['const'])}, not {_show(instance)}"
    if kind == "type":
        expected = rule_value
        wanted = " or ".join(
            _EXPECTED.get(t, t)
            for t in ([expected] if isinstance(expected, str) else list(expected))
        )
        got = _type_name(instance)
        if not path:
            return 1, (
                f'the rubric must be a mapping with a "rules" list, not {_a(got)}; '
                "start from `gate init`"
            )
        fix = ""
        if doc.is_yaml and expected == "string" and not isinstance(instance, (list, dict)):
            fix = "; put the value in quotes"
        elif expected == "integer" and isinstance(instance, float):
            fix = "; write a whole number"
        return doc.line(path), f"{prefix}{name} must be {wanted}, not {_a(got)}{fix}"
    if kind == "minimum":
        return doc.line(path), (
            f"{prefix}{name} must be >= {err.validator_value}, not {_show(instance)}"
        )
    if kind == "const" and rest == ("expect",):
        return doc.line(path), (
            f'{prefix}"expect" must be "pass" or a list of rule ids, not {_show(instance)}'
        )
    if kind == "const":
        return doc.line(path), (
            f"{prefix}{name} must be {_show(err.validator_value)}, not {_show(instance)}"
        )
    if kind == "enum":
        choices = ", ".join(str(c) for c in list(rule_value))
        if rest == ("kind",):
            return doc.line(path), f"{prefix}unknown kind {_show(instance)}; use one of: {choices}"
        return doc.line(path), f"{prefix}{name} must be one of: {choices}; not {_show(instance)}"
    if kind == "minItems":
        return doc.line(path), f"{prefix}{name} must not be an empty list; list at least one item"
    if kind == "minLength":
        return doc.line(path), f"{prefix}{name} must not be an empty string"
    if kind == "minProperties":
        keys = ", ".join(sub.get("properties", {}))
        return doc.value_line(path), (
            f"{prefix}{name} must not be empty; give at least one of {keys}, or remove it"
        )
    if kind == "uniqueItems":
        return doc.line(path), f"{prefix}{name} lists the same value twice; list each once"
    if kind == "pattern":
        if rest == ("id",) or (len(rest) >= 1 and rest[0] == "expect"):
            return doc.line(path), (
                f"{prefix}{name} {_show(instance)} is not a valid rule id: use 1-64 characters "
                "of A-Z, a-z, 0-9, '.', '_' and '-', starting with a letter or digit"
            )
        if isinstance(instance, str) and instance.startswith("!"):
            return doc.line(path), (
                f"{prefix}{name} {_show(instance)}: negation with '!' is not supported; "
                "list only what to match"
            )
    if kind == "not":
        hint = str(sub.get("description", "this key is not allowed here"))
        hint = hint.rstrip(".")
        return doc.line(path), f"{prefix}{name} is not allowed here: {hint[:1].lower()}{hint[1:]}"
    if kind in ("anyOf", "oneOf"):
        hint = str(_resolve(sub).get("description", "see `gate schema`"))
        return doc.line(path), f"{prefix}{name} {_show(instance)} is not valid: it must be {hint}"
    hint = str(_resolve(sub).get("description", "")) if isinstance(sub, dict) else ""
    return doc.line(
        path
    ), f"{prefix}{name} is not valid ({err.message}); {hint or 'see `gate schema`'}"


# --------------------------------------------------------------------------
# semantic checks (the document now has the schema's shape)

# The parameter types kinds share (`gate.rubric.schema.SHARED_TYPES`) whose
# values are checked here.
_GLOBS = "#/$defs/globs"
_FILE = "#/$defs/file"
_SYMBOLS = "#/$defs/symbols"


def _path_problem(value: str) -> str | None:
    if value.startswith("/"):
        return "a repo-relative path must not start with '/'"
    if value.endswith("/"):
        return "name a file, not a directory (no trailing '/')"
    if "\\" in value:
        return "use '/' to separate directories, not '\\'"
    if "\0" in value or "\n" in value or "\r" in value:
        return "a path cannot hold NUL or line breaks"
    parts = value.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return "write a clean repo-relative path (no '.', '..' or empty segments)"
    return None


def _check_semantics(doc: _Doc, source: str) -> None:
    value: dict[str, Any] = doc.value

    def fail(path: Path_, message: str) -> GateError:
        label, _ = _context(doc, path)
        return _fail(source, doc.line(path), f"{label}: {message}" if label else message)

    def check_globs(path: Path_, patterns: Iterable[str]) -> None:
        for i, pattern in enumerate(patterns):
            problem = globs.pattern_error(pattern)
            if problem is not None:
                _label, rest = _context(doc, (*path, i))
                where = _key_name(rest, (*path, i))
                raise fail((*path, i), f"{where} {_show(pattern)} is not a usable glob: {problem}")

    if "tests" in value:
        check_globs(("tests",), value["tests"])
    if "head_branches" in value.get("applies_to", {}):
        check_globs(("applies_to", "head_branches"), value["applies_to"]["head_branches"])

    seen: dict[str, int] = {}
    for index, rule in enumerate(value["rules"]):
        base: Path_ = ("rules", index)
        rule_id: str = rule["id"]
        if rule_id.lower().startswith(BUILTIN_PREFIX):
            raise fail(
                (*base, "id"),
                f'ids starting with "{BUILTIN_PREFIX}" are reserved for built-in rules; '
                "choose another id",
            )
        if rule_id in seen:
            raise fail(
                (*base, "id"),
                f"duplicate id {_show(rule_id)} (first used on line {seen[rule_id]}); "
                "give every rule its own id",
            )
        seen[rule_id] = doc.line((*base, "id"))
        kind = REGISTRY[rule["kind"]]
        for key, fragment in kind.parameters.items():
            if key not in rule:
                continue
            shared = fragment.get("$ref")
            if shared == _GLOBS:
                check_globs((*base, key), rule[key])
            elif shared == _FILE:
                problem = _path_problem(rule[key])
                if problem is not None:
                    raise fail((*base, key), f'"{key}" {_show(rule[key])}: {problem}')
            elif shared == _SYMBOLS:
                for i, symbol in enumerate(rule[key]):
                    if not symbol.isidentifier():
                        raise fail(
                            (*base, key, i),
                            f'item {i + 1} of "{key}" {_show(symbol)} is not a Python name; '
                            "list top-level names such as clamp",
                        )
        if kind.param_problem is not None:
            problem_at = kind.param_problem(rule)
            if problem_at is not None:
                where, message = problem_at
                raise fail((*base, *where), message)

    _check_waivers(value.get("waivers", ()), seen, fail)

    names: dict[str, int] = {}
    for index, example in enumerate(value.get("examples", ())):
        base = ("examples", index)
        name = example["name"]
        if name in names:
            raise fail(
                (*base, "name"),
                f"duplicate example name (first on line {names[name]}); give each its own name",
            )
        names[name] = doc.line((*base, "name"))
        expect = example["expect"]
        if isinstance(expect, list):
            for i, rule_id in enumerate(expect):
                if rule_id not in seen:
                    known = ", ".join(seen)
                    raise fail(
                        (*base, "expect", i),
                        f"expects unknown rule id {_show(rule_id)}; "
                        f'use ids of this rubric\'s rules ({known}) or "pass"',
                    )
        touched: dict[str, int] = {}
        limits = _limits(value)
        for i, entry in enumerate(example["change"]):
            try:
                files = _resolved(entry, limits)
            except _EntryProblem as problem:
                raise fail((*base, "change", i, *problem.where), problem.message) from None
            for one in files:
                _check_entry(doc, (*base, "change", i), one, touched, fail)


# A GitHub login: 1-39 letters, digits and single hyphens, not starting with one.
_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}\Z")


def _check_waivers(
    waivers: Iterable[Mapping[str, Any]],
    rule_lines: Mapping[str, int],
    fail: Callable[[Path_, str], GateError],
) -> None:
    """Each waiver names rules of this rubric (never a built-in `gate.*`
    id) and approvers who are people (a GitHub login, never a bot's)."""
    for index, waiver in enumerate(waivers):
        base: Path_ = ("waivers", index)
        for i, rule_id in enumerate(waiver["rules"]):
            if rule_id.lower().startswith(BUILTIN_PREFIX):
                raise fail(
                    (*base, "rules", i),
                    f'item {i + 1} of "rules" {_show(rule_id)} is a built-in rule, and '
                    "built-in rules are never waived; remove it",
                )
            if rule_id not in rule_lines:
                known = ", ".join(rule_lines)
                raise fail(
                    (*base, "rules", i),
                    f'item {i + 1} of "rules" names unknown rule id {_show(rule_id)}; '
                    f"use ids of this rubric's rules ({known})",
                )
        for i, login in enumerate(waiver["approvers"].get("logins", ())):
            where = (*base, "approvers", "logins", i)
            if login.lower().endswith("[bot]"):
                raise fail(
                    where,
                    f'item {i + 1} of "logins" {_show(login)} is a bot, and a bot\'s '
                    "approval never waives a rule; list people",
                )
            if not _LOGIN.match(login):
                raise fail(
                    where,
                    f'item {i + 1} of "logins" {_show(login)} is not a GitHub login '
                    "(1-39 letters, digits and single hyphens); write it as GitHub shows it",
                )


# The most files one example's entry may stand for (`files: {over: FILES}`
# with a limit of a million would build a million file changes).
MAX_EXAMPLE_FILES = 10_000


class _EntryProblem(Exception):
    def __init__(self, where: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.where, self.message = where, message


def _limits(value: Mapping[str, Any]) -> dict[str, int]:
    """{rule id: its `limit`} for the rules that have one (validated)."""
    return {
        rule["id"]: rule["limit"]
        for rule in value["rules"]
        if isinstance(rule.get("limit"), int) and not isinstance(rule.get("limit"), bool)
    }


def _resolved(entry: Mapping[str, Any], limits: Mapping[str, int]) -> list[dict[str, Any]]:
    """An example's change entry with its counts resolved: `{over: ID}` is
    rule ID's limit + 1, `{at: ID}` its limit; `files: N` makes N entries,
    `{n}` in `path` and `old_path` replaced by 1..N.  `_EntryProblem` names
    the key when a count names no rule with a limit, or `files` needs `{n}`."""

    def count(key: str, default: int) -> int:
        raw = entry.get(key, default)
        if not isinstance(raw, dict):
            return int(raw)
        ((word, rule_id),) = raw.items()
        if rule_id not in limits:
            known = ", ".join(limits) or "none"
            raise _EntryProblem(
                (key, word),
                f'"{key}" {{{word}: {rule_id}}} names no rule with a limit; name one of this '
                f"rubric's rules that has a limit ({known})",
            )
        return limits[rule_id] + (1 if word == "over" else 0)

    added, deleted, files = count("added", 0), count("deleted", 0), count("files", 1)
    if files > MAX_EXAMPLE_FILES:
        raise _EntryProblem(
            ("files",),
            f'"files" comes to {files:,}, more than the {MAX_EXAMPLE_FILES:,} files an entry '
            "may stand for; lower the limit it names, or write the entries out",
        )
    plain = {k: v for k, v in entry.items() if k not in ("files", "added", "deleted")}
    if "added" in entry:
        plain["added"] = added
    if "deleted" in entry:
        plain["deleted"] = deleted
    if "files" not in entry:
        return [plain]
    if files > 1 and "{n}" not in entry["path"]:
        raise _EntryProblem(
            ("path",),
            f'"files" stands for {files} files, so "path" needs {{n}} to name each one '
            "(src/m{n}.py becomes src/m1.py, src/m2.py, ...)",
        )
    out = []
    for n in range(1, files + 1):
        one = dict(plain)
        for key in ("path", "old_path"):
            if key in one:
                one[key] = one[key].replace("{n}", str(n))
        out.append(one)
    return out


def _check_entry(
    doc: _Doc,
    path: Path_,
    entry: Mapping[str, Any],
    touched: dict[str, int],
    fail: Any,
) -> None:
    status = entry.get("status", MODIFIED)
    for key in ("path", "old_path"):
        if key in entry:
            problem = _path_problem(entry[key])
            if problem is not None:
                raise fail((*path, key), f'"{key}" {_show(entry[key])}: {problem}')
    if "old_path" in entry and status != RENAMED:
        raise fail((*path, "old_path"), '"old_path" is only for status: renamed; remove it')
    if status == RENAMED and entry["old_path"] == entry["path"]:
        raise fail((*path, "old_path"), '"old_path" equals "path"; a rename needs two paths')
    if status == ADDED:
        for key in ("before", "deleted"):
            if key in entry and (key == "before" or entry[key] != 0):
                raise fail((*path, key), f'an added file has no "{key}"; remove it')
    if status == DELETED:
        for key in ("after", "added"):
            if key in entry and (key == "after" or entry[key] != 0):
                raise fail((*path, key), f'a deleted file has no "{key}"; remove it')
    if status in (MODIFIED, RENAMED) and ("before" in entry) != ("after" in entry):
        missing = "after" if "before" in entry else "before"
        raise fail(
            path, f'give both "before" and "after" text for a {status} file; add "{missing}"'
        )
    for p in (entry.get("old_path"), entry["path"]):
        if p is None:
            continue
        if p in touched:
            raise fail(
                path,
                f"{_show(p)} is already changed by entry {touched[p]}; list each path in one entry",
            )
        touched[p] = int(path[-1]) + 1


# --------------------------------------------------------------------------
# building values


def _build_example(
    example: Mapping[str, Any], order: Mapping[str, int], limits: Mapping[str, int]
) -> Example:
    expect = example["expect"]
    ids = () if expect == "pass" else tuple(sorted(expect, key=lambda i: order[i]))
    entries = [one for entry in example["change"] for one in _resolved(entry, limits)]
    changes = changes_from_example(entries, stdout=example.get("stdout"))
    return Example(name=example["name"], expect=ids, changes=changes)


def _tuples(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _build(doc: _Doc, source: str, sha: str) -> Rubric:
    value: dict[str, Any] = doc.value
    tests = tuple(value.get("tests", DEFAULT_TESTS))
    rules: list[Rule] = []
    for raw in value["rules"]:
        kind = REGISTRY[raw["kind"]]
        params = kind.defaults({"tests": tests})
        params.update((k, _tuples(v)) for k, v in raw.items() if k not in RULE_KEYS)
        rules.append(
            Rule(id=raw["id"], kind=kind.name, params=params, description=raw.get("description"))
        )
    applies = value.get("applies_to")
    applies_to = (
        None
        if applies is None
        else AppliesTo(
            authors=tuple(applies.get("authors", ())),
            labels=tuple(applies.get("labels", ())),
            head_branches=tuple(applies.get("head_branches", ())),
        )
    )
    waivers = tuple(
        Waiver(
            rules=tuple(raw["rules"]),
            logins=tuple(raw["approvers"].get("logins", ())),
            associations=tuple(raw["approvers"].get("associations", ())),
        )
        for raw in value.get("waivers", ())
    )
    order = {rule.id: i for i, rule in enumerate(rules)}
    limits = _limits(value)
    examples = tuple(_build_example(ex, order, limits) for ex in value.get("examples", ()))
    return Rubric(
        rules=tuple(rules),
        sha256=sha,
        source=source,
        version=int(value.get("version", 1)),
        tests=tests,
        applies_to=applies_to,
        examples=examples,
        waivers=waivers,
    )


__all__ = [
    "MAX_BYTES",
    "load_rubric_bytes",
    "sha256_hex",
]
