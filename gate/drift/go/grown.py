"""Whether a Go test file too large to split (over
`gate.model.change.TEXT_LIMIT`: a generated one, such as go-github's
1.2 MB `github-accessors_test.go`) only gained new functions
(`new_functions`), told from its lines and a parse of what the head
inserts, never of the whole file (that would cost about a second and a
hundred megabytes a side).

The head must be the base with runs of whole lines inserted, no line of
the base deleted or changed (line endings included: a file turned from
LF to CRLF changed every line), and each run:

* sits between two top-level declarations of the base: after the
  header (the package clause and imports, up to the first line that
  starts with `func`, `var`, `const` or `type`), outside every
  bracket, string and comment of the base, right after a line that ends
  in `}` or `)` with nothing but blank lines between (Go ends a
  declaration there; a comment above a declaration, a directive such as
  `//go:noinline` among them, stays with it);
* holds nothing but whole top-level functions (and comments), each
  inside the run, every comment and string of the run ended in it (a
  block comment opened in one run and closed in another would hide the
  base's declarations between them): the runs are parsed together behind the base's header,
  with the engine's own Go reader (`gate.drift.go.split`), so a
  function opened in one run and closed in another, a method, an
  `init`, a `TestMain`, a `var`, `const`, `type` or `import`, a
  directive comment or text that does not parse is refused;
* names what no base code spells (no word of the base text, the
  header's imports included: a new function of a name the base binds or
  reads would replace it), nor a name Go predeclares (`len`, `max`,
  `error`: a package-level function of that name changes every file of
  the package), nor another new function's;
* is a case (`Test*`, `Benchmark*`, `Fuzz*`, `Example*` by `go test`'s
  rule) or a helper that stores nothing outside itself, as the engine
  reads it (`gate.drift.go.writes`: a case that stores into what other
  tests read is collection-time code), and calls no function or method
  the base declares (whose stores the parse of the runs cannot see).

Carriage returns in a run where the base has none are refused.  What is
not proven this way is judged as a whole file, as before.  Everything
here reads the texts a few times over, in time in proportion to their
size.
"""

from __future__ import annotations

import re
from itertools import accumulate

from gate.base.text import BOM
from gate.drift import CASE, SUPPORT, Unparsable

# Go's tokens that may hold any text: a comment, an interpreted string, a
# rune, a raw string (the one that may span lines, with a block comment).
_TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`[^`]*`', re.S)
# What is left of a token the lexer could not end: the text is no Go it reads.
_LEFT = re.compile(r"[\"'`]|/\*")
# The first declaration after the header, at the start of a line.
_DECLARATION = re.compile(r"^(?:func|var|const|type)\b", re.M)
_FUNC = re.compile(r"\bfunc\b")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_WORD = re.compile(r"\w+")
_SPACE = " \t\r\n"
# The header the runs are parsed behind is the base's own; past this it
# is no header (a file whose declarations do not start their lines).
_HEADER_LIMIT = 1 << 16
# Go's universe block: a package-level function of one of these names
# shadows it in every file of the package.
PREDECLARED = frozenset(
    {
        *("any", "bool", "byte", "comparable", "complex64", "complex128", "error"),
        *("float32", "float64", "int", "int8", "int16", "int32", "int64", "rune"),
        *("string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr"),
        *("true", "false", "iota", "nil"),
        *("append", "cap", "clear", "close", "complex", "copy", "delete", "imag"),
        *("len", "make", "max", "min", "new", "panic", "print", "println", "real"),
        "recover",
    }
)


def new_functions(base: str, head: str) -> tuple[str, ...] | None:
    """The new tests (`go test`'s cases) of `head`, where it is `base` with
    only new top-level functions inserted between its declarations (the
    module's docstring); None where that is not proven."""
    base_lines, head_lines = _lines(base), _lines(head)
    runs = _inserted(base_lines, head_lines)
    if not runs:
        return None
    starts = [0, *accumulate(len(line) for line in base_lines)]
    texts = ["".join(head_lines[j:k]) for _, j, k in runs]
    if "\r" not in base and any("\r" in t for t in texts):
        return None  # line endings the base does not have
    if any(_blank(text) is None for text in texts):
        return None  # a comment or string left open for a later run to end
    clean = _blank(base)
    if clean is None:
        return None
    found = _DECLARATION.search(clean)
    header = found.start() if found is not None else len(base)
    if header > _HEADER_LIMIT:
        return None
    depth, last = 0, 0
    for i, _, _ in runs:
        offset = starts[i]
        if offset < header:
            return None  # in the header
        depth += _depth(clean, last, offset)
        last = offset
        end = _back(base, offset)
        if depth or not end or base[end - 1] not in "})" or clean[end - 1] != base[end - 1]:
            # inside brackets, or after a comment, or in a string or comment
            # (its last character before `offset` is blanked in `clean`)
            return None
    return _judged(base, clean, base[:header], texts)


def _judged(base: str, clean: str, header: str, texts: list[str]) -> tuple[str, ...] | None:
    """The new tests of the runs `texts` parsed behind `header` (the base's
    own), where each is a whole new function that `new_functions` takes."""
    from gate.drift._treesitter import parse
    from gate.drift.go import split

    parts = [header if header.endswith("\n") or not header else header + "\n"]
    spans: list[tuple[int, int]] = []
    at = len(parts[0].removeprefix(BOM).encode("utf-8", errors="surrogateescape"))
    for text in texts:
        text = text if text.endswith("\n") else text + "\n"
        size = len(text.encode("utf-8", errors="surrogateescape"))
        spans.append((at, at + size))
        parts.append(text)
        at += size
    try:
        splitter = split(parse("".join(parts), "go"))
    except Unparsable:
        return None
    words = set(_WORD.findall(base))
    declared = _declared(clean)
    begin = spans[0][0]
    tests: list[str] = []
    seen: set[str] = set()
    for unit in splitter.found:
        node = splitter.nodes[unit.key]
        if node.end_byte <= begin:
            continue  # the header's
        label = node.child_by_field_name("name")
        name = splitter.text(label) if label is not None else ""
        if (
            node.type != "function_declaration"
            or node.child_by_field_name("body") is None
            or not any(a <= node.start_byte and node.end_byte <= b for a, b in spans)
            or unit.role not in (CASE, SUPPORT)
            or name in PREDECLARED
            or name in words
            or name in seen
        ):
            return None
        called = splitter.writes.scan(node, whole=True).called
        if {c.lstrip(".").removesuffix("()") for c in called} & declared:
            return None  # a function of the base, whose stores are not read here
        seen.add(name)
        if unit.role == CASE:
            tests.append(unit.name)
    return tuple(tests) if seen else None


def _lines(text: str) -> list[str]:
    """`text`'s lines as Go ends them, at `\\n`, each with its ending (a
    `\\r` before it is part of the line)."""
    parts = text.split("\n")
    out = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def _inserted(base: list[str], head: list[str]) -> list[tuple[int, int, int]] | None:
    """Each run of lines `head` inserts into `base`, as (the index of the
    base line it goes before, its start and end in `head`), where `head`
    is `base` with such runs alone; None where it is not.  Each line is
    read once: a run ends at the first head line equal to the next base
    line that follows a line ending a function (`}`) or a blank one (an
    alignment that does not fit is refused, never searched further)."""
    runs: list[tuple[int, int, int]] = []
    i = j = 0
    while j < len(head):
        if i < len(base) and base[i] == head[j]:
            i, j = i + 1, j + 1
            continue
        if i == len(base):
            runs.append((i, j, len(head)))
            break
        k = j + 1
        while k < len(head) and not (
            head[k] == base[i] and head[k - 1].rstrip(_SPACE) in ("}", "")
        ):
            k += 1
        if k == len(head):
            return None  # a base line changed or gone
        runs.append((i, j, k))
        j = k
    return runs if i == len(base) else None


def _blank(text: str) -> str | None:
    """`text` with every comment, string and rune made spaces (the same
    length, line breaks inside them too); None where a token is left
    unended (no Go the gate can read by lines)."""
    clean = _TOKENS.sub(lambda m: " " * (m.end() - m.start()), text)
    return None if _LEFT.search(clean) else clean


def _depth(clean: str, start: int, end: int) -> int:
    """How many brackets `clean[start:end]` opens and leaves open."""
    opened = sum(clean.count(c, start, end) for c in "{([")
    return opened - sum(clean.count(c, start, end) for c in "})]")


def _declared(clean: str) -> frozenset[str]:
    """Every name a `func` keyword of `clean` (the base, `_blank`) is
    followed by, past a receiver in parentheses: each function and
    method the base declares, and more."""
    out: set[str] = set()
    for found in _FUNC.finditer(clean):
        at = _skip(clean, found.end())
        if at < len(clean) and clean[at] == "(":
            depth = 0
            while at < len(clean):
                depth += {"(": 1, ")": -1}.get(clean[at], 0)
                at += 1
                if depth == 0:
                    break
            at = _skip(clean, at)
        name = _IDENTIFIER.match(clean, at)
        if name is not None:
            out.add(name.group())
    return frozenset(out)


def _skip(clean: str, at: int) -> int:
    """The first offset from `at` on that holds no white space."""
    while at < len(clean) and clean[at] in _SPACE:
        at += 1
    return at


def _back(text: str, at: int) -> int:
    """The offset after the last character before `at` that is no white space."""
    while at and text[at - 1] in _SPACE:
        at -= 1
    return at
