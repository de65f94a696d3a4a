"""A side's text as structured data, for the section readers
(`gate.drift.sections`) and the dependency readers (`gate.drift.elsewhere`,
`gate.drift.pins`, `gate.manifests`): TOML as pytest reads it, strict
JSON, a dotted key path into either, setup.cfg's requirement options
(`setup_cfg_options`), and a go.mod's lines with the directive block each
stands in, the comment each carries and its number (`go_mod_lines`);
`Unreadable` when a text cannot be read."""

from __future__ import annotations

import configparser
import json
import re
import sys
from collections.abc import Callable, Collection, Iterator
from typing import Any, NamedTuple

from gate.base.errors import GateError
from gate.base.escape import printable
from gate.base.jsontext import loads


class Unreadable(Exception):
    """A side's text cannot be read; the message follows "the base
    version" or "the head version" (`is not valid TOML (...)`)."""


def toml(text: str) -> dict[str, Any]:
    """`text` parsed as TOML by the parser pytest itself uses: the standard
    library's on Python 3.11+, else `tomli` (a dependency of the gate on
    Python 3.10)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
        except ImportError:  # an install that skipped the gate's dependencies
            raise Unreadable(
                "cannot be read: TOML needs Python 3.11 or the tomli package, a dependency "
                "of the gate on Python 3.10 (pip install tomli)"
            ) from None
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except Exception as exc:  # tomllib.TOMLDecodeError, RecursionError
        raise Unreadable(f"is not valid TOML ({exc})") from None
    return data


ABSENT = object()


def lookup(data: Any, dotted: str) -> Any:
    node = data
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return ABSENT
        node = node[part]
    return node


def keyed(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any] | None:
    found = {k: v for k in keys if (v := lookup(data, k)) is not ABSENT}
    return found or None


def json_object(text: str, *, reads: Collection[str] | None = None) -> dict[str, Any]:
    """`text` as a strict JSON object.  `reads`: the keys of the object
    its caller reads (None: all of it).  A key repeated at the top outside
    `reads`, or inside the value of such a key, then reads as JavaScript
    reads it (the last value stands); a key repeated among `reads`, or
    anywhere inside one's value, is still `Unreadable`: which value a tool
    takes is a question of its parser, and a reader of the diff sees the
    first."""
    repeated: list[tuple[dict[str, Any], str]] | None = None if reads is None else []
    try:
        data = loads(text.encode("utf-8", "surrogatepass"), "the file", fix="", repeated=repeated)
    except GateError as exc:
        raise Unreadable(f"is not strict JSON ({str(exc).rstrip('; ')})") from None
    if not isinstance(data, dict):
        raise Unreadable("is not a JSON object")
    if repeated and reads is not None:
        _refuse_read_twins(data, reads, repeated)
    return data


def _refuse_read_twins(
    data: dict[str, Any], reads: Collection[str], repeated: list[tuple[dict[str, Any], str]]
) -> None:
    """`Unreadable` for the first key of `reads` in `data` (in file order)
    that the object repeats, or that holds an object repeating a key."""
    top = {key for obj, key in repeated if obj is data}
    inner = {id(obj): key for obj, key in reversed(repeated) if obj is not data}
    for key in (k for k in data if k in reads):
        if key in top:
            raise Unreadable(
                f"is not strict JSON (duplicate key {_shown(key)}, a key the gate reads)"
            )
        todo: list[object] = [data[key]]
        while todo:
            node = todo.pop()
            if isinstance(node, dict):
                if id(node) in inner:
                    raise Unreadable(
                        f"is not strict JSON (duplicate key {_shown(inner[id(node)])} "
                        f"inside {_shown(key)}, a key the gate reads)"
                    )
                todo.extend(node.values())
            elif isinstance(node, list):
                todo.extend(node)


def _shown(key: str) -> str:
    return printable(json.dumps(key))


# setup.cfg's `[options]` keys that list requirements, in file order.
SETUP_CFG_REQUIREMENTS = ("install_requires", "setup_requires", "tests_require")


def setup_cfg_options(text: str) -> list[tuple[str, str]]:
    """The requirement options of a setup.cfg text as (dotted place, value):
    `options.install_requires`, `options.setup_requires`,
    `options.tests_require`, then each `options.extras_require.EXTRA`, as
    setuptools reads them (no interpolation, keys as written)."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        raise Unreadable(f"cannot be read as setup.cfg ({exc.message})") from None
    places = [
        (f"options.{key}", parser.get("options", key))
        for key in SETUP_CFG_REQUIREMENTS
        if parser.has_option("options", key)
    ]
    if parser.has_section("options.extras_require"):
        for extra, value in parser.items("options.extras_require"):
            places.append((f"options.extras_require.{extra}", value))
    return places


# A go.mod line's code as the go command's lexer reads it: a quoted
# ("..." with backslash escapes) or backquoted string is one token, so a
# `//` inside one starts no comment; a `//` anywhere else does.
_GO_COMMENTED = re.compile(r'((?:"(?:\\.|[^"\\])*"|`[^`]*`|[^"`/]|/(?!/))*)//(.*)')


class GoModLine(NamedTuple):
    """One line of a go.mod: the directive whose `( ... )` block it stands
    in (None outside one), its code without the comment, stripped, the
    text after its `//` (None when it has no comment), and its number
    (from 1)."""

    block: str | None
    code: str
    comment: str | None
    number: int


def go_mod_lines(text: str, opens: Callable[[str], str | None]) -> Iterator[GoModLine]:
    """Each line of a go.mod as a `GoModLine`; `opens` names the directive a
    line outside a block opens a block of (given its code), or None.  A line
    that opens a block is given, as one outside it; the line that closes it
    is not.  A line with a string left open has no comment (all of it is
    code: the go command refuses it, and more code is more to compare)."""
    block: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        commented = _GO_COMMENTED.fullmatch(raw)
        code, comment = (raw, None) if commented is None else commented.groups()
        line = code.strip()
        if block is not None and line.startswith(")"):
            block = None
            continue
        yield GoModLine(block, line, comment, number)
        if block is None:
            block = opens(line)


def json_text(value: object) -> str:
    """A parsed value as canonical text (for comparing two sides); a TOML
    date or time is written as its ISO text."""
    return json.dumps(value, sort_keys=True, default=str)
