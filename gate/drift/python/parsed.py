"""A Python file's syntax tree, its top-level statements parsed apart and
kept across versions (`parse_module`).

`gate backtest` reads hundreds of versions of the same big test files, each
a few statements away from the last.  A version is cut into CHUNKS at the
lines that start at column 0 and may start a statement (not a closing
bracket, not `else`/`elif`/`except`/`finally`, not a `def` under its
decorators, not a blank or comment line), and each chunk is parsed alone,
padded with line breaks so its line numbers are the file's.  A chunk seen
before with the same text is not parsed again: its statements are the same
node objects, their line numbers moved where the chunk moved (those below
a statement's own and its decorators' when `settle` asks), so what the
splitter keeps on a node (`child_nodes`, `Walked`, `uses_of`, `dump`, a
def's `shares_state`) is computed once per statement, not once per
version.  Nothing else in a node changes.  A text that is mostly new is
parsed whole and its statements kept by chunk.

Why the statements are the whole file's: a cut inside a string, a bracket,
a backslash continuation or a compound statement leaves the chunk before it
(or the one it starts) unparsable, as Python reads a chunk alone; a chunk
that parses alone ends where the file's tokenizer is back at column 0
outside any bracket or string, so the next line starts a top-level
statement there too.  The pieces a statement crosses (a string with lines
at column 0) are kept as one chunk, found again from its first piece.
Missed pieces are parsed together, a run at a time; a run that does not
parse alone runs on over the next chunk, and where it reaches the end of
the text, the whole text is parsed as one (its error, if any, is the
file's own); so is a file that
declares an encoding other than UTF-8, has a byte-order mark, names the
one `__future__` feature that changes how the rest parses
(`barry_as_FLUFL`), holds a NUL byte, bytes that are not UTF-8 or a line
break other than `\\n`.
"""

from __future__ import annotations

import ast
import re
from collections import OrderedDict

from gate.drift.python.tree import walk

# The characters of the chunks kept: a few hundred versions of the biggest
# test files, each chunk's statements kept once, by its text; where a chunk
# moved to another line its nodes' line numbers are moved with it.
_KEPT_CHARS = 24_000_000
_kept = [0]
_chunks: OrderedDict[str, tuple[int, list[ast.stmt]]] = OrderedDict()
# A piece that does not parse alone (a cut inside a string, a bracket, a
# statement) -> how many pieces the chunks kept from it span.
_KEPT_JOINS = 100_000
_joins: dict[str, set[int]] = {}

# A line that may start a top-level statement: code at column 0 that is not
# the continuation of one (a closing bracket, a clause of a compound
# statement).
_NOT_START = re.compile(r"(?:else|elif|except|finally)\b|[\s#)\]}]|\Z")
# The line break before each such line but the first (`_pieces`).
_START = re.compile(r"\n(?=[^\s#)\]}])(?!(?:else|elif|except|finally)\b)")
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]", re.MULTILINE)


def parse_module(text: str, data: bytes, *, settled: bool = True) -> ast.Module:
    """`ast.parse(data)`, `data` being `text`'s bytes; raises what it raises.
    Not `settled`: a kept statement that moved has its own line numbers and
    its decorators' moved, the nodes below them only when `settle` is asked
    (the splitter reads them only where it splits the statement again)."""
    tree = _parse_module(text, data)
    if settled:
        for statement in tree.body:
            settle(statement)
    return tree


def _parse_module(text: str, data: bytes) -> ast.Module:
    pieces = _pieces(text, data)
    if pieces is None:
        return ast.parse(data)
    # (first piece, how many, the chunk's text: kept, or None where missed)
    found: list[tuple[int, int, str | None]] = []
    missed = 0
    used: set[str] = set()
    i = 0
    while i < len(pieces):
        count, chunk = _held(pieces, i, used)
        if chunk is None:
            missed += 1
        found.append((i, count, chunk))
        i += count
    if missed * 2 > len(pieces):
        tree = ast.parse(data)  # mostly new: one parse, its statements kept
        _keep(pieces, tree.body)
        return tree
    body: list[ast.stmt] = []
    j = 0
    while j < len(found):
        first, _, chunk = found[j]
        start = pieces[first][0]
        if chunk is not None:
            held_start, statements = _chunks[chunk]
            _chunks.move_to_end(chunk)
            if held_start != start:
                _move(statements, start - held_start)
                _chunks[chunk] = (start, statements)
            body.extend(statements)
            j += 1
            continue
        # A run of missed pieces, parsed as one text.  Where it does not
        # parse alone it runs on into the next kept chunk: a string, a
        # bracket or a statement that chunk's text only seemed to start.
        end = j + 1
        while end < len(found) and found[end][2] is None:
            end += 1
        while True:
            stop = found[end - 1][0] + found[end - 1][1]
            try:
                statements = ast.parse("\n" * (start - 1) + _text(pieces, first, stop)).body
            except SyntaxError:
                if end == len(found):
                    return ast.parse(data)
                end += 1
                continue
            except (ValueError, RecursionError, MemoryError):
                return ast.parse(data)
            break
        _keep(pieces[first:stop], statements)
        body.extend(statements)
        j = end
    return ast.Module(body=body, type_ignores=[])


def _held(pieces: list[tuple[int, str]], i: int, used: set[str]) -> tuple[int, str | None]:
    """The kept chunk that starts at piece `i` (how many pieces it spans,
    its text), else (1, None): the piece itself, or where the piece does not
    parse alone, the pieces up to the end of the statement that crossed it
    when last parsed (`_joins`).  A chunk's nodes are used once a version."""
    chunk = pieces[i][1]
    if chunk in _chunks:
        if chunk in used:
            return 1, None
        used.add(chunk)
        return 1, chunk
    for count in sorted(_joins.get(chunk, ())):
        if i + count <= len(pieces):
            joined = _text(pieces, i, i + count)
            if joined in _chunks and joined not in used:
                used.add(joined)
                return count, joined
    return 1, None


def _text(pieces: list[tuple[int, str]], first: int, stop: int) -> str:
    if stop == first + 1:
        return pieces[first][1]
    return "".join(chunk for _, chunk in pieces[first:stop])


def _move(statements: list[ast.stmt], by: int) -> None:
    """Add `by` to the line numbers of each of `statements` and of its
    decorators; the nodes below them are moved by `settle`."""
    for statement in statements:
        held = statement.__dict__
        if "_gate_settled" not in held:
            held["_gate_settled"] = held["lineno"]  # where the nodes below stand
        for one in (held, *(d.__dict__ for d in _decorators(statement))):
            one["lineno"] += by
            end = one.get("end_lineno")
            if end is not None:
                one["end_lineno"] = end + by


def settle(statement: ast.stmt) -> None:
    """Move the nodes below `statement` (but its decorators, which `_move`
    moves with it) to where it now stands: then every line number in it is
    the file's (the nodes that have one listed once, on it: no reference
    cycle)."""
    held = statement.__dict__
    at = held.get("_gate_settled")
    if at is None or at == held["lineno"]:
        return
    by = held["lineno"] - at
    held["_gate_settled"] = held["lineno"]
    placed = held.get("_gate_placed")
    if placed is None:
        top = {id(d) for d in _decorators(statement)}
        placed = held["_gate_placed"] = [
            node.__dict__
            for node in walk(statement)[1:]
            if "lineno" in node.__dict__ and id(node) not in top
        ]
    for one in placed:
        one["lineno"] += by
        end = one.get("end_lineno")
        if end is not None:
            one["end_lineno"] = end + by


def _pieces(text: str, data: bytes) -> list[tuple[int, str]] | None:
    """The chunks of `text` as (first line, text), or None where the whole
    file must be parsed as one (see the module doc)."""
    # `data` is `text` in UTF-8 (`gate.base.text.encode`), where only U+0000
    # is a NUL byte: a byte search is quicker than one in a wide `str`.
    if b"barry_as_FLUFL" in data or b"\0" in data or text.startswith("\ufeff"):
        return None
    if len(data) != len(text) and not _utf8(text):
        return None
    head = text[:400].split("\n", 2)[:2]
    if _COOKIE.search("\n".join(head)) and not _declares_utf8("\n".join(head)):
        return None
    if "\r" in text or any(ch in text for ch in ("\v", "\f", "\x1c", "\x1d", "\x1e")):
        return None  # line breaks Python and `str.split` may count apart
    # The lines that may start a statement, found by one scan of the text
    # (a loop over every line cost more than the parse of a kept file).
    out: list[tuple[int, str]] = []
    start = number = 1
    at = seen = 0
    decorated = text.startswith("@")
    for found in _START.finditer(text):
        pos = found.end()
        if text[pos] == "@":
            if decorated:
                continue
            decorated = True
        elif decorated:
            decorated = False
            continue
        number += text.count("\n", seen, pos)
        seen = pos
        out.append((start, text[at:pos]))
        start, at = number, pos
    out.append((start, text[at:]))
    return out


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _declares_utf8(head: str) -> bool:
    found = re.search(r"coding[:=][ \t]*([-\w.]+)", head)
    return found is not None and found.group(1).lower().replace("_", "-") in ("utf-8", "utf8")


def _keep(pieces: list[tuple[int, str]], body: list[ast.stmt]) -> None:
    """Keep the statements of a parse of `pieces` by the piece they start
    in; pieces a statement crosses (a cut inside it, where a piece does not
    parse alone) are kept as one chunk, and where it starts is noted
    (`_joins`)."""
    bounds = [start for start, _ in pieces[1:]] + [1 << 62]
    by_piece: list[list[ast.stmt]] = [[] for _ in pieces]
    # reach[i]: the last piece that the statements starting in piece i cross into
    reach = list(range(len(pieces)))
    i = 0
    for statement in body:
        first = min([statement.lineno, *(d.lineno for d in _decorators(statement))])
        while bounds[i] <= first:
            i += 1
        by_piece[i].append(statement)
        j = i
        while bounds[j] <= (statement.end_lineno or statement.lineno):
            j += 1
        reach[i] = max(reach[i], j)
    i = 0
    while i < len(pieces):
        last = reach[i]
        j = i
        while j < last:
            j += 1
            last = max(last, reach[j])
        statements = [s for k in range(i, last + 1) for s in by_piece[k]]
        if statements:
            _put(pieces[i][0], _text(pieces, i, last + 1), statements)
            if last > i:
                joins = _joins.setdefault(pieces[i][1], set())
                joins.add(last + 1 - i)
                if len(_joins) > _KEPT_JOINS:
                    _joins.clear()
        i = last + 1


def _decorators(statement: ast.stmt) -> list[ast.expr]:
    return getattr(statement, "decorator_list", [])


def _put(start: int, chunk: str, statements: list[ast.stmt]) -> None:
    if chunk in _chunks:
        return  # the same text twice in one version: the first one's nodes are kept
    _chunks[chunk] = (start, statements)
    _kept[0] += len(chunk)
    while _kept[0] > _KEPT_CHARS:
        old, _ = _chunks.popitem(last=False)
        _kept[0] -= len(old)
