"""A rubric's JSON read into a `Doc`: a strict, position-tracking parser
(RFC 8259) that records the line of every key and value, refuses duplicate
keys, NaN and Infinity, unpaired surrogates and out-of-range numbers, and
a top-level `rules` or `examples` list as soon as it passes its cap.
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Any

from gate.base.errors import GateError
from gate.base.jsontext import integer
from gate.rubric.document import CAPS, Doc, KeyPath, check_text, invalid, over_cap

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WS = " \t\n\r"


class JsonParser:
    """A strict JSON parser (RFC 8259) that records the line of every key and value."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.pos = 0
        self.newlines = [i for i, ch in enumerate(text) if ch == "\n"]
        self.doc = Doc(value=None, is_yaml=False)

    def line_at(self, pos: int) -> int:
        return bisect.bisect_left(self.newlines, pos) + 1

    def error(self, message: str, pos: int | None = None) -> GateError:
        at = self.pos if pos is None else pos
        why = (
            "" if self.source.endswith(".json") else " (a rubric starting with '{' is read as JSON)"
        )
        return invalid(
            self.source, self.line_at(at), f"JSON syntax error{why}: {message}; fix the JSON"
        )

    def skip_ws(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos] in _WS:
            self.pos += 1

    def parse(self) -> Doc:
        self.skip_ws()
        if self.pos >= len(self.text):
            raise invalid(
                self.source, 1, 'the rubric is empty; it needs at least a non-empty "rules" list'
            )
        self.doc.value = self.value(())
        self.skip_ws()
        if self.pos < len(self.text):
            raise self.error("extra data after the top-level value")
        return self.doc

    def value(self, path: KeyPath) -> Any:
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
            raise invalid(self.source, self.line_at(match.start()), f"{exc}") from None

    def string(self) -> str:
        start = self.pos
        try:
            value, end = json.decoder.scanstring(self.text, self.pos + 1, True)  # type: ignore[attr-defined]
        except json.JSONDecodeError as exc:
            raise self.error(exc.msg, exc.pos) from None
        self.pos = end
        return check_text(str(value), self.source, self.line_at(start))

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

    def obj(self, path: KeyPath) -> dict[str, Any]:
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

    def arr(self, path: KeyPath) -> list[Any]:
        start = self.pos
        self.pos += 1
        out: list[Any] = []
        self.skip_ws()
        if self.take("]"):
            return out
        cap = CAPS.get(str(path[0])) if len(path) == 1 else None
        while True:
            if cap is not None and len(out) == cap:  # refused at once, not after parsing
                raise invalid(self.source, self.line_at(start), over_cap(str(path[0]), cap))
            out.append(self.value((*path, len(out))))
            if self.closed("]"):
                return out
