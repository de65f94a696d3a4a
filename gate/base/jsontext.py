"""JSON in and out, each with one owner.

In: `loads` / `read_file` read JSON that a writer, a PR or a runner controls
(a writer's result.json, reports for `gate diff`, the Action's event
payload): strict (UTF-8, no NaN, no duplicate keys but for a caller that
judges them itself: `repeated`) and bounded (a file size
cap, nesting that Python can parse, integers of at most 64 bits).  Any
problem is a `GateError` naming the file: never a traceback, never a
ValueError from Python's integer-digits limit.  The rubric's own JSON
parser (it records lines) bounds its integers with `integer` too.  The
package's own tables (`package_data`) are trusted files, read as plain JSON.

Out: `dumps` is the only JSON encoder for output (reports, scoreboards,
`gate schema`, the Action's report file).  It is deterministic (sorted keys,
no timestamps), valid UTF-8 (a path byte that is not UTF-8, carried as a
lone surrogate, reads `\\xNN` as `gate.base.paths.visible` writes it), and its
bytes cannot be read as a workflow command by a CI
runner: the GitHub runner obeys `##[command]` anywhere in a line, so `#` in
`##[` is written `\\u0023`, and the line separators U+2028, U+2029 and NEL
(U+0085) are written as escapes too.  Each is the same JSON value, so a JSON
reader sees no difference; the bytes are the same everywhere, not only
inside GitHub Actions.  No line of `dumps` output can start with `::`:
JSON strings never hold a raw newline.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from gate.base.errors import GateError
from gate.base.escape import printable
from gate.base.files import package_text


@functools.cache
def package_data(name: str) -> Any:
    """A JSON table shipped in the package (`name` is its path under
    `gate/`, e.g. `drift/runners.json`; each has a `.schema.json` beside it
    that a test holds it to), parsed once (`gate.base.files.package_text`)."""
    return json.loads(package_text(name))


# JSON numbers the gate reads are 64-bit integers at most; Python refuses to
# convert more than 4300 digits at all (a plain ValueError).
INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
_INT_DIGITS = len(str(INT_MAX))


def integer(text: str) -> int:
    """`text` (an optional sign, then decimal digits) as an int; ValueError
    (`out_of_range`) when it is outside 64 bits."""
    digits = text.lstrip("+-")
    if len(digits) > _INT_DIGITS + 1 or not INT_MIN <= int(text) <= INT_MAX:
        raise ValueError(out_of_range(text))
    return int(text)


def out_of_range(text: str) -> str:
    """The one sentence for an integer outside 64 bits, as written in the input."""
    shown = text if len(text) <= 24 else text[:21] + "..."
    return (
        f"the number {shown} ({len(text)} characters) is out of range: integers here fit in 64 bits"
    )


def loads(
    data: bytes, name: str, *, fix: str, repeated: list[tuple[dict[str, Any], str]] | None = None
) -> Any:
    """Strict, bounded JSON (UTF-8, optional BOM) or a GateError that names
    `name` (and the line and column where JSON can say it) and ends in `fix`.
    With a `repeated` list, a key an object repeats is no error: its last
    value stands, where the key first stood (as JavaScript's `JSON.parse`
    reads it), and (the object, the key) is added to `repeated` for the
    caller to judge."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GateError(f"{name}: not UTF-8 (byte {exc.start}); {fix}") from None
    if not text.strip():
        raise GateError(f"{name}: empty file; expected a JSON object; {fix}")

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out and repeated is not None:
                repeated.append((out, key))
            elif key in out:
                raise GateError(
                    f"{name}: duplicate key {printable(json.dumps(key))}; "
                    "each field may be stated once"
                )
            out[key] = value
        return out

    def constant(token: str) -> Any:
        raise GateError(f"{name}: {token} is not valid JSON; write a number or a string")

    def number(token: str) -> int:
        try:
            return integer(token)
        except ValueError as exc:
            raise GateError(f"{name}: {exc}; {fix}") from None

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant, parse_int=number)
    except json.JSONDecodeError as exc:
        raise GateError(
            f"{name} line {exc.lineno} column {exc.colno}: invalid JSON ({exc.msg}); {fix}"
        ) from None
    except (RecursionError, MemoryError):
        raise GateError(f"{name}: JSON nested too deeply or too large to read; {fix}") from None


def read_file(path: str | Path, *, what: str, fix: str, label: str | None = None) -> Any:
    """`loads` of the file at `path` (`gate.base.files.read_input`: `what` names it,
    at most `INPUT_LIMIT` bytes); `label` names it in JSON errors (default: the path)."""
    from gate.base.files import read_input

    data = read_input(path, what, fix=fix)
    return loads(data, printable(str(path)) if label is None else label, fix=fix)


_RUNNER_SAFE = {
    "##[": "\\u0023#[",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
    "\u0085": "\\u0085",
}


def dumps(value: Any, *, indent: int | None = 2) -> str:
    """`value` as deterministic JSON text ending in a newline, safe to print
    in a CI log (see the module docstring)."""
    from gate.base.paths import visible

    text = json.dumps(value, sort_keys=True, indent=indent, ensure_ascii=False)
    text = visible(text, json_source=True)  # a byte that is not UTF-8 reads `\xNN`
    for raw, escaped in _RUNNER_SAFE.items():
        if raw in text:
            text = text.replace(raw, escaped)
    return text + "\n"
