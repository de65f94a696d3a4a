"""A rubric's YAML read into a `Doc`, with the hostile-YAML defences.

A safe loader that refuses anchors and aliases outright (no billion
laughs), merge keys (`<<`), tags other than the plain scalar, list and
mapping ones, duplicate keys and non-string keys; an integer too long to be
64-bit before PyYAML converts it; a top-level `rules` or `examples` list
over its cap as soon as the cap is passed (from libyaml's events first,
when libyaml is there); a tab where YAML wants spaces named as such.  The
line of every key and value is recorded as the nodes are built.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from gate.base.errors import GateError
from gate.base.jsontext import integer, out_of_range
from gate.rubric.document import CAPS, Doc, KeyPath, check_text, invalid, over_cap, show, type_name

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset(
    _TAG + name for name in ("null", "bool", "int", "float", "str", "timestamp")
)


class _StrictLoader(yaml.SafeLoader):
    """A safe loader that refuses anchors and aliases before they can expand,
    and a top-level `rules` or `examples` list as soon as it passes its cap
    (the parser is pure Python and slow per byte: a rubric far over the cap
    is refused while composing, not after: a 1 MiB rubric of 16,000 rules
    takes 22 s to compose; docs/development.md, "Measured choices in the
    rubric loader and the rules")."""

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
        if parent is not None and parent is self._root and isinstance(key, str) and key in CAPS:
            self._capped = (key, CAPS[key])
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
                raise _YamlRefusal(start.start_mark.line + 1, over_cap(key, cap))
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
    libyaml's events (about 50 times faster than the pure-Python scanner;
    docs/development.md, "Measured choices in the rubric loader and the
    rules"), before the strict loader reads it.  It only ever
    refuses for the count: what the rubric is stays the strict loader's,
    and without libyaml, or on any error here, the strict loader's own
    count (while composing) decides."""
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
                    if key in CAPS and isinstance(event, yaml.SequenceStartEvent):
                        counting = (key, CAPS[key], 0)
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
        raise _YamlRefusal(line, over_cap(counting[0], counting[1]))


def parse_yaml(text: str, source: str) -> Doc:
    try:
        _count_fast(text)
    except _YamlRefusal as exc:
        raise invalid(source, exc.line, exc.message) from None
    loader = _StrictLoader(text)
    try:
        root = loader.get_single_node()
    except _YamlRefusal as exc:
        raise invalid(source, exc.line, exc.message) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = " ".join(p for p in (exc.context, exc.problem) if p)
        if _tab_trouble(text, mark.line if mark is not None else None, problem):
            raise invalid(
                source,
                line,
                "YAML syntax error: a tab where YAML expects spaces (YAML never indents with "
                "tabs); use spaces, not tabs",
            ) from None
        raise invalid(
            source,
            line,
            f"YAML syntax error: {problem}; fix the YAML (quote values that contain ': ' or ' #')",
        ) from None
    except yaml.YAMLError as exc:
        raise invalid(source, None, f"YAML error: {exc}; fix the YAML") from None
    finally:
        loader.dispose()
    doc = Doc(value=None, is_yaml=True)
    if root is None:
        raise invalid(source, 1, 'the rubric is empty; it needs at least a non-empty "rules" list')
    doc.value = _YamlBuilder(loader, doc, source).build(root, ())
    return doc


class _YamlBuilder:
    """Builds plain Python values from a composed node tree, recording lines."""

    def __init__(self, loader: _StrictLoader, doc: Doc, source: str) -> None:
        self.loader = loader
        self.doc = doc
        self.source = source

    def _refuse_tag(self, node: yaml.Node) -> GateError:
        tag = str(node.tag).replace(_TAG, "!!")
        return invalid(
            self.source,
            node.start_mark.line + 1,
            f"YAML tag {tag} is not allowed; write a plain string, number, "
            "boolean, list or mapping",
        )

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        line = node.start_mark.line + 1
        self.doc.lines[path] = line
        if isinstance(node, yaml.MappingNode):
            if node.tag != _TAG + "map":
                raise self._refuse_tag(node)
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                key_line = key_node.start_mark.line + 1
                if key_node.tag == _TAG + "merge":
                    raise invalid(
                        self.source,
                        key_line,
                        "YAML merge keys (<<) are not allowed; write each key out in full",
                    )
                if not isinstance(key_node, yaml.ScalarNode):
                    raise invalid(self.source, key_line, "a mapping key must be a plain string")
                key = self.build(key_node, (*path, "<key>"))
                if not isinstance(key, str):
                    raise invalid(
                        self.source,
                        key_line,
                        f"mapping key {key_node.value!r} is read as a {type_name(key)}, "
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
            raise invalid(self.source, line, out_of_range(node.value))
        try:
            value = self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise invalid(
                self.source, line, f"cannot read the value {show(node.value)} ({exc})"
            ) from None
        if isinstance(value, str):
            check_text(value, self.source, line)
        elif isinstance(value, int) and not isinstance(value, bool):
            try:
                integer(str(value))
            except ValueError as exc:
                raise invalid(self.source, line, str(exc)) from None
        return value


# A YAML integer longer than this (signs, 0x/0o/0b prefixes and `_`
# separators included) cannot be a 64-bit integer; refused before PyYAML
# converts it, so Python's 4300-digit limit never fires.
_INT_TEXT_LIMIT = 200
