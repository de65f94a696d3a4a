"""Names the rest of a change renamed everywhere: what `test_drift` proves
from the change set alone before it compares a test's units, as
`gate.drift.moved` does for imports that follow a moved file.

A change that renames code under test edits every test that names it;
those edits spell the same test another way.  Four identities:

* a word (`renames`): a code file the change modifies (both texts known,
  same path, neither a symlink nor a submodule, no test module), or
  renames (its old path's base against its new path's head, the same
  suffix, neither path a test module), whose base
  defines `old` on a definition line (`def`, `class`, `func` with or
  without a receiver, `function`, `const`/`let`/`var`, `type`,
  `interface`, a method after `public`/`private`/...) and whose head never
  spells `old` as a word; whose head defines `new`, a word its base never
  spells.  The two pair when they are the file's only such names, when
  the definition line of `old` with `new` put in is a definition line of
  the head, or when it is one token for token but for other words the
  file renamed everywhere, one for one (`_shaped`).  A pair no other
  file of the change contradicts (another pair for either name, `old`
  still defined at head, `new` defined at base) holds;
* a forwarder (`_forwards`): a code file the change modifies whose head
  defines `old` once with a whole body (comments and a Python docstring
  aside) that is one call of `new` passing its parameters through
  unchanged and in order, returning its result where it has one (Go:
  `func (r *T) Old(a int) R { return r.New(a) }`, the same receiver, or
  a plain function; Python: a method or function with no decorator,
  default or keyword-only parameter, or a module-level `old = new`).
  `old` is defined in no other code file of the change and `new` is
  defined at head (a Go method on the same receiver type).  Calling
  either at head is the same, so the pair holds though `old` is still
  defined (and `new` may be defined at base); the other contradictions
  stand (one pair per name, no chains).  Its `old` still works: only a
  test whose base spells it follows it, so a file's forwarders are read
  only for a test whose base spells a name its head may keep as one, or
  when its head spells a name of a pair or of a forwarder so read (one
  that may contradict them: `_kept`);
* a Go module path (`gomods.prefixes`): a `go.mod` the change modifies whose
  `module A` line becomes `module B`;
* a Go dependency's next major version: a `go.mod` the change modifies
  that requires `P` (or `P/vK`) at base and, instead, only `P/vN` at head.

A Go path identity holds for the test files below its `go.mod`'s folder,
where no other `go.mod` stands between (each folder's file known absent
on both sides; unknown: it holds for none).

`align` then substitutes, in the test file's whole base text, every
identity that holds for it (whole words outside string literals and in a
string that is a dotted path alone, `mock.patch("pkg.mod.old")`: a string
the test expects keeps its words, so an expectation that changes with the
rename still counts; an import path `"A"` or `"A/..."`),
splits the result into units, and puts the head's unit in a base unit's
place where the substituted unit has that head unit's key, role and code
(or the same `Unit.same` form); every other edit is judged as ever.  No
identity applies to a test file whose base spells a new name (it may mean
code that existed before) or whose head still spells an old one (a rename
that applies only in part); nor to a test case's own name (a renamed test
runs under another id: `compare` judges that), but for the test file's
own name (`_retitle`): a test file renamed in its folder from `OldTests`
to `NewTests` (any suffix), one rename `Old` -> `New` the only difference,
takes that rename for its class, its constructor and every use, and
its cases' keys with it.  A text that is unknown proves nothing."""

from __future__ import annotations

import ast
import functools
import posixpath
import re
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

from gate.base.text import BOM
from gate.drift import CASE, Unit, Unparsable, alike, paired_units, suffix, units_for
from gate.drift.collected import is_test_module
from gate.drift.gomods import below, prefixes
from gate.drift.language import BY_SUFFIX
from gate.drift.python.parsed import parse_module
from gate.model.change import MODIFIED, RENAMED, ChangeSet, FileChange

T = TypeVar("T")

# The files whose renames a test may follow: code of a language the engine
# reads (`TEXT_HINTS` of `test_drift`).
CODE_GLOBS = tuple(f"**/*{end}" for end in BY_SUFFIX)

_MODIFIERS = (
    r"(?:(?:export|default|declare|async|public|private|protected|internal|static|final"
    r"|abstract|override|virtual|sealed|readonly|partial|synchronized|unsafe|extern)[ \t]+)*"
)
# A line that defines a name: a function, class or method at any depth; a
# type, constant or variable at the top level only (a local variable of a
# function names nothing a test reaches); a Go function or method (`recv`:
# its receiver's type, after the receiver's name; `params`: its parameter
# list follows the name, not a generic function's type parameters).
_DEFINES = re.compile(
    r"^(?:[ \t]*" + _MODIFIERS + r"(?:def|class|function\*?|interface|enum|struct|record)"
    r"[ \t]+(?P<a>\w+)"
    r"|" + _MODIFIERS + r"(?:type|const|let|var)[ \t]+(?P<b>\w+)"
    r"|func[ \t]+(?:(?P<on>\([ \t]*(?:\w+[ \t]+)?(?P<recv>[^)\n]*?)[ \t]*\))[ \t]*)?"
    r"(?P<c>\w+)(?P<params>[ \t]*\()?"
    r")",
    re.MULTILINE,
)
# A Java/C#/TypeScript member after at least one modifier: `public int size(`.
_MEMBER = re.compile(
    r"^[ \t]*(?:(?:public|private|protected|internal|static|final|abstract|override|virtual"
    r"|async|sealed|synchronized)[ \t]+)+[\w<>\[\],.? \t]*?\b(?P<d>\w+)[ \t]*\(",
    re.MULTILINE,
)


# A text's blocks between two blank lines: a backtest reads the next
# version of the same big file, a few blocks away from the last, and what
# `_words` and `_defined` find never crosses a line break.
_BLOCK = "\n\n\n"


class _ByBlock(Generic[T]):
    """What `read` finds in each block, kept by the block's text, the
    oldest dropped past `chars` characters of blocks."""

    def __init__(self, read: Callable[[str], T], chars: int) -> None:
        self.read = read
        self.chars = chars
        self.held: dict[str, T] = {}
        self.size = 0
        self.lock = threading.Lock()

    def __call__(self, text: str) -> list[T]:
        """What `read` finds in each block of `text`, in order."""
        out = []
        for block in text.split(_BLOCK):
            found = self.held.get(block)
            if found is None:
                found = self.read(block)
                with self.lock:  # another thread may keep or drop one too
                    if block not in self.held:
                        self.held[block] = found
                        self.size += len(block)
                    while self.size > self.chars and self.held:
                        oldest = next(iter(self.held))
                        del self.held[oldest]
                        self.size -= len(oldest)
            out.append(found)
        return out


class _Definition(NamedTuple):
    """One definition line of a name: the line, stripped, and for a Go
    function with its parameters next the type its receiver names
    (`*T`; "" for none: a plain function); None for any other."""

    line: str
    receiver: str | None


def _defined(text: str) -> dict[str, list[_Definition]]:
    """Each name a definition line of `text` defines -> those lines (each
    pattern's in the text's order, `_DEFINES`' first).  A definition line
    is one line: read block by block (`_ByBlock`)."""
    found = _BLOCK_DEFINED(text)
    out: dict[str, list[_Definition]] = {}
    for pattern in range(2):
        for held in found:
            for name, definition in held[pattern]:
                out.setdefault(name, []).append(definition)
    return out


_Found = tuple[tuple[tuple[str, _Definition], ...], ...]


def _block_defined(block: str) -> _Found:
    """The definitions each of `_DEFINES` and `_MEMBER` finds in `block`, in order."""
    out: list[tuple[tuple[str, _Definition], ...]] = []
    for pattern in (_DEFINES, _MEMBER):
        found: list[tuple[str, _Definition]] = []
        for m in pattern.finditer(block):
            groups = m.groupdict()
            name = next(groups[g] for g in "abcd" if groups.get(g))
            end = block.find("\n", m.start())
            line = block[m.start() : end if end >= 0 else len(block)].strip()
            receiver = None
            if groups.get("params") is not None:
                receiver = "" if groups["on"] is None else groups["recv"] or None
            found.append((name, _Definition(line, receiver)))
        out.append(tuple(found))
    return tuple(out)


_BLOCK_DEFINED = _ByBlock(_block_defined, 8_000_000)


def _code_file(f: FileChange) -> bool:
    """Whether `f` is a code file whose renames a test may follow: one the
    change modifies, or renames within one language (its old path's base
    against its new path's head), at no test module's path."""
    paths = (f.path,) if f.status == MODIFIED else (f.old_path or "", f.path)
    return (
        (f.status == MODIFIED or (f.status == RENAMED and f.old_path is not None))
        and not (f.symlink or f.submodule)
        and suffix(f.path) in BY_SUFFIX
        and all(suffix(p) == suffix(f.path) and not is_test_module(p) for p in paths)
    )


# A whole word as `_spells` finds one: a run of word characters.
_WORD = re.compile(r"\w+")


# Kept: `turned` reads a test's base twice (`renamed_only`, `align`), and
# `_kept` each code file's head once per test.
@functools.lru_cache(maxsize=64)
def _words(text: str) -> frozenset[str]:
    """The whole words of `text`: `_spells(text, w)` for a word `w` is `w in _words(text)`."""
    return frozenset().union(*_BLOCK_WORDS(text))


def _block_words(block: str) -> frozenset[str]:
    # interned: the same words recur block after block, file after file
    return frozenset(map(sys.intern, _WORD.findall(block)))


_BLOCK_WORDS = _ByBlock(_block_words, 8_000_000)


def _spells(text: str, word: str) -> bool:
    """Whether `word` (word characters only) is a whole word of `text`.
    Most words asked are not in it at all: a substring search says so
    fifty times quicker than the pattern's scan of a big text."""
    if word not in text:
        return False
    return re.search(rf"\b{re.escape(word)}\b", text) is not None


def _file_pairs(base: str, head: str) -> set[tuple[str, str]]:
    """The names one code file renamed (its `base` and `head` texts).  A
    name defined at base that head never spells had every definition line
    removed, and a name defined at head that base never spells had every
    one added: the definitions are read from the lines only one side has
    (`_DEFINES` reads a line at a time), not from the whole texts."""
    base_lines, head_lines = set(base.split("\n")), set(head.split("\n"))
    was = _defined("\n".join(sorted(base_lines - head_lines)))
    now = _defined("\n".join(sorted(head_lines - base_lines)))
    gone = sorted(n for n in was if not _spells(head, n))
    new = sorted(n for n in now if not _spells(base, n))
    if not gone or not new:
        return set()
    if len(gone) == 1 and len(new) == 1:
        return {(gone[0], new[0])}
    found: set[tuple[str, str]] = set()
    for old in gone:
        fits = [
            n
            for n in new
            if any(
                _swap(d.line, {old: n}) == e.line
                or _shaped(d.line, e.line, base, head).get(old) == n
                for d in was[old]
                for e in now[n]
            )
        ]
        if len(fits) == 1:
            found.add((old, fits[0]))
    return found


# A line's tokens as `_shaped` compares them: a word, or one other character.
_TOKEN = re.compile(r"\w+|\S")


def _shaped(line: str, other: str, base: str, head: str) -> dict[str, str]:
    """The renames that make the base definition line `line` the head
    line `other` of one file (`base`, `head` its texts), token for token:
    each token that differs is a word `head` never spells at `line` and
    a word `base` never spells at `other`, one for one (`class Old(ILogger<Old>
    x) : Base<OldOptions>` and `class New(ILogger<New> x) : Base<NewOptions>`:
    Old -> New, OldOptions -> NewOptions); {} when no such renames do."""
    a, b = _TOKEN.findall(line), _TOKEN.findall(other)
    if len(a) != len(b):
        return {}
    pairs = {(x, y) for x, y in zip(a, b, strict=True) if x != y}
    olds, news = [x for x, _ in pairs], [y for _, y in pairs]
    if len(set(olds)) != len(olds) or len(set(news)) != len(news):
        return {}
    before, after = _words(base), _words(head)
    if not all(
        _WORD.fullmatch(x) and _WORD.fullmatch(y) and x not in after and y not in before
        for x, y in pairs
    ):
        return {}
    return dict(pairs)


# A Go function or method whose body has no braces: `func (r *T) Old(a int) R { ... }`.
_GO_FUNC = re.compile(
    r"^func[ \t]*(?:\([ \t]*(?P<recv>\w+)[ \t]+(?P<type>\*?[\w.]+)[ \t]*\)[ \t]*)?"
    r"(?P<name>\w+)[ \t]*\((?P<params>[^()]*)\)[ \t]*(?P<result>[^{}\n]*?)[ \t]*"
    r"\{(?P<body>[^{}]*)\}",
    re.M,
)
_GO_CALL = re.compile(
    r"(?P<ret>return\s+)?(?:(?P<on>\w+)\s*\.\s*)?(?P<new>\w+)\s*\((?P<args>[^()]*)\)"
)
_GO_COMMENT = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/")


def _forwards(at: _Renamed) -> set[tuple[str, str, str | None]]:
    """The forwarders of the code file `at`'s head text: each `old` whose
    whole body is one call of `new` that passes its parameters through
    unchanged and in order (and returns its result), with the receiver
    type a Go method's `new` must have ("" for a Go function, None in
    Python).  `old` is defined once in the file."""
    if suffix(at.path) == ".go":
        lines = at.lines("head")
        return {f for f in _go_forwards(at.head) if len(lines.get(f[0], ())) == 1}
    if suffix(at.path) == ".py":
        return {(o, n, None) for o, n in _py_forwards(at.head)}
    return set()


# A coding declaration on one of a Python file's first two lines (PEP 263).
_CODING = re.compile(r"\A(?:[^\n]*\n)?[ \t\f]*#[^\n]*?coding[:=]")
# A Python assignment at the top level that may bind an alias (`old = new`),
# at a line's start or after a `;`: what `_py_forwards` may read as one.
_PY_ASSIGN = re.compile(r"(?:^\(*|;[\s\\(]*)(\w+)[\s\\)]*=(?!=)", re.M)


def _go_forwards(text: str) -> set[tuple[str, str, str | None]]:
    out: set[tuple[str, str, str | None]] = set()
    for m in _GO_FUNC.finditer(text):
        names = _go_params(m["params"])
        call = _GO_CALL.fullmatch(_GO_COMMENT.sub("", m["body"]).strip())
        if names is None or call is None or m["recv"] == "_":
            continue
        args = [a.strip() for a in call["args"].split(",")]
        if args[-1:] == [""]:
            args.pop()  # a trailing comma
        if (
            [re.sub(r"\s+", "", a) for a in args] == names
            and call["on"] == m["recv"]
            and bool(call["ret"]) == bool(m["result"])
            and call["new"] != m["name"]
        ):
            out.add((m["name"], call["new"], m["type"] or ""))
    return out


def _go_params(params: str) -> list[str] | None:
    """The arguments that pass Go parameters `params` through (`xs...` for
    a variadic one); None when one is unnamed or blank."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(params):
        depth += (c == "[") - (c == "]")
        if c == "," and depth == 0:
            items.append(params[start:i].strip())
            start = i + 1
    items.append(params[start:].strip())
    if items[-1:] == [""]:
        items.pop()
    out: list[str] = []
    for n, item in enumerate(items):
        words = item.split(None, 1)
        last = n == len(items) - 1
        if not words or not words[0].isidentifier() or words[0] == "_" or (last and len(words) < 2):
            return None
        variadic = len(words) == 2 and words[1].startswith("...")
        if variadic and not last:
            return None
        out.append(words[0] + ("..." if variadic else ""))
    return out


def _py_forwards(text: str) -> set[tuple[str, str]]:
    """Python's forwarders: a `def` (at the top level or in a class, no
    decorator) whose body is an optional docstring and `return new(...)`
    (`return self.new(...)` in a class), and a module-level `old = new`.
    The text is parsed as a `str` is (a byte-order mark refused, a coding
    declaration ignored), by `parse_module` where its bytes are the same
    text: a backtest's next version reuses the statements it kept."""
    try:
        data = text.encode("utf-8")
        if text.startswith(BOM) or _CODING.search(text) is not None:
            tree = ast.parse(text)
        else:
            tree = parse_module(text, data, settled=False)  # as ast.parse(text)
    except (SyntaxError, ValueError):  # a lone surrogate: UnicodeEncodeError
        return set()
    out: set[tuple[str, str]] = set()

    def visit(body: list[ast.stmt], in_class: bool) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, True)
            elif isinstance(node, ast.FunctionDef):
                new = _py_forward(node, in_class)
                if new is not None:
                    out.add((node.name, new))
            elif (
                not in_class
                and isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Name)
            ):
                out.add((node.targets[0].id, node.value.id))

    visit(tree.body, False)
    out = {(o, n) for o, n in out if o != n}
    if not out:
        return out
    olds = {o for o, _ in out}
    bound = dict.fromkeys(olds, 0)  # each binding of an old name anywhere in the file
    for node in ast.walk(tree):
        for name in _py_binds(node):
            if name in olds:
                bound[name] += 1
    return {(o, n) for o, n in out if bound[o] == 1}


def _py_binds(node: ast.AST) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return [node.id]
    if isinstance(node, ast.alias):
        return [node.asname or node.name.split(".")[0]]
    return []


def _py_forward(node: ast.FunctionDef, in_class: bool) -> str | None:
    """The name the function `node` forwards to, or None."""
    a = node.args
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:] if isinstance(body[0].value.value, str) else body
    if (
        node.decorator_list
        or a.posonlyargs
        or a.kwonlyargs
        or a.defaults
        or len(body) != 1
        or not isinstance(body[0], ast.Return)
        or not isinstance(call := body[0].value, ast.Call)
    ):
        return None
    params = [p.arg for p in a.args]
    if in_class:
        if not params or not isinstance(call.func, ast.Attribute):
            return None
        on, new = call.func.value, call.func.attr
        if not (isinstance(on, ast.Name) and on.id == params.pop(0)):
            return None
    elif isinstance(call.func, ast.Name):
        new = call.func.id
    else:
        return None
    passed = [x.id if isinstance(x, ast.Name) else None for x in call.args]
    if a.vararg is not None:
        star = call.args[-1] if call.args else None
        if not (isinstance(star, ast.Starred) and isinstance(star.value, ast.Name)):
            return None
        passed[-1] = f"*{star.value.id}"
        params.append(f"*{a.vararg.arg}")
    keywords = [k.value.id if isinstance(k.value, ast.Name) else None for k in call.keywords]
    if any(k.arg is not None for k in call.keywords) or keywords != (
        [a.kwarg.arg] if a.kwarg is not None else []
    ):
        return None
    return new if passed == params else None


@dataclass(frozen=True)
class _Renamed:
    """What one code file the change modifies says: the names it renamed,
    and its texts, whose defined names (`names`) and forwarders
    (`forwards`) are read only when asked, once per change set."""

    path: str
    pairs: frozenset[tuple[str, str]]
    base: str
    head: str
    _names: dict[str, dict[str, list[_Definition]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _forwards: list[frozenset[tuple[str, str, str | None]]] = field(
        default_factory=list, compare=False, repr=False
    )
    _olds: list[frozenset[str]] = field(default_factory=list, compare=False, repr=False)

    def names(self, side: str) -> frozenset[str]:
        """The names a definition line of the `side` ("base", "head") text defines."""
        return frozenset(self.lines(side))

    def lines(self, side: str) -> dict[str, list[_Definition]]:
        """Each name a definition line of the `side` text defines -> those lines."""
        held = self._names.get(side)
        if held is None:
            held = self._names[side] = _defined(getattr(self, side))
        return held

    def forwards(self) -> frozenset[tuple[str, str, str | None]]:
        """The forwarders of its head text (`_forwards`)."""
        if not self._forwards:
            self._forwards.append(frozenset(_forwards(self)))
        return self._forwards[0]

    def spells(self, word: str) -> bool:
        """Whether its head text spells `word` (`_spells`), from its words read once."""
        if _WORD.fullmatch(word) is None:
            return _spells(self.head, word)
        return word in _words(self.head)

    def olds(self) -> frozenset[str]:
        """The names its head may keep as a forwarder's old name, read
        without parsing it: the names a definition line defines, and in
        Python a top-level assignment's target (`old = new`)."""
        if not self._olds:
            found: frozenset[str] = frozenset()
            if suffix(self.path) in (".go", ".py"):
                found = self.names("head")
            if suffix(self.path) == ".py":
                found |= frozenset(_PY_ASSIGN.findall(self.head))
            self._olds.append(found)
        return self._olds[0]


# The last change set read, with its code files' facts: each test file of
# a change asks, and the answer is the same.
_LAST: list[tuple[ChangeSet, tuple[_Renamed, ...]]] = []


def _read(changes: ChangeSet) -> tuple[_Renamed, ...]:
    last = _LAST[0] if _LAST else None  # one read: another thread may replace it
    if last is not None and last[0] is changes:
        return last[1]
    out = []
    for f in changes.files:
        if not _code_file(f):
            continue
        was, now = changes.texts.get(f.old_path or f.path), changes.texts.get(f.path)
        base = None if was is None else was.base
        head = None if now is None else now.head
        if base is None or head is None:
            continue
        out.append(_Renamed(f.path, frozenset(_file_pairs(base, head)), base, head))
    _LAST[:] = [(changes, tuple(out))]
    return tuple(out)


def renames(changes: ChangeSet, skip: Iterable[str] = ()) -> dict[str, str]:
    """Each word the change renamed -> its new name (see the module
    docstring), from the code files it modifies but `skip`."""
    return _identities(changes, skip)[0]


def _identities(
    changes: ChangeSet, skip: Iterable[str], before: str | None = None
) -> tuple[dict[str, str], set[str]]:
    """`renames`, and which of its old names are still defined at head as
    a forwarder (`_forwards`); with `before`, a test file's base text, the
    forwarders that cannot change what `turned` makes of it are left
    unread (`_kept`)."""
    left_out = set(skip)
    read = [r for r in _read(changes) if r.path not in left_out]
    pairs = {p for r in read for p in r.pairs}
    kept = _kept(read, pairs, before)
    if not pairs and not kept:
        return {}, set()
    defined_base = {n for r in read for n in r.names("base")}
    defined_head = {n for r in read for n in r.names("head")}
    both = [*pairs, *kept]
    olds = [o for o, _ in both]
    news = [n for _, n in both]
    words = {
        o: n
        for o, n in both
        if olds.count(o) == 1
        and news.count(n) == 1
        and o not in news
        and n not in olds
        and ((o, n) in kept or (o not in defined_head and n not in defined_base))
    }
    return words, {o for o, n in kept if o in words}


def _kept(
    read: Sequence[_Renamed], pairs: set[tuple[str, str]], before: str | None
) -> set[tuple[str, str]]:
    """The forwarders of the code files `read` that hold.  With `before`
    (a test file's base text) only those that can change what `turned`
    makes of it: a forwarder whose old name `before` spells, and one that
    shares a name with a pair (`pairs`) or with a forwarder so read (a
    contradiction, `_identities`).  A file's forwarders are read (parsed)
    when its head may keep an old name `before` spells (`olds`) or
    spells such a shared name; any other forwarder's old name `turned`
    leaves out, and it contradicts none that stays."""
    todo = [r for r in read if suffix(r.path) in (".go", ".py")]
    spelt = frozenset() if before is None else _words(before)
    shared = {name for pair in pairs for name in pair}
    kept: set[tuple[str, str]] = set()
    while todo:
        now = [
            r
            for r in todo
            if before is None
            or not spelt.isdisjoint(r.olds())
            or any(r.spells(name) for name in shared)
        ]
        if not now:
            break
        todo = [r for r in todo if all(r is not n for n in now)]
        for r in now:
            for old, new, _ in r.forwards():
                if _forwarder_holds(r, old, new, read):
                    kept.add((old, new))
                    shared |= {old, new}
    return kept


def _forwarder_holds(at: _Renamed, old: str, new: str, read: Sequence[_Renamed]) -> bool:
    """Whether the forwarder `old` -> `new` of the code file `at` holds:
    no other code file of the change defines `old` at head, and one
    defines `new` (a Go method: on the same receiver type)."""
    receiver = next(t for o, n, t in at.forwards() if (o, n) == (old, new))
    if any(old in r.names("head") for r in read if r is not at):
        return False
    if receiver is None:  # Python
        return any(new in r.names("head") for r in read if suffix(r.path) == ".py")
    return any(
        d.receiver == receiver
        for r in read
        if suffix(r.path) == ".go"
        for d in r.lines("head").get(new, ())
    )


# A string literal of the languages the engine reads, as a regular
# expression can find one: Python's triple-quoted strings, a quoted string
# on one line, a backquoted one (JS/TS templates, Go raw strings).
_STRING = (
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`"
)
# A string that names code by a dotted path (`mock.patch("pkg.mod.old")`).
_DOTTED = re.compile(r"[\"'`][A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+[\"'`]")


def _swap(text: str, words: dict[str, str]) -> str:
    """`text` with each whole word of `words` replaced by its new name,
    outside string literals and inside strings that are a dotted path
    alone (`"pkg.mod.old"`).  Any other string keeps its words: an
    expectation (`"error"`) that changes with a rename is a changed
    expectation, not the same test spelt anew."""
    if not words:
        return text
    alternatives = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
    word = re.compile(r"\b(" + alternatives + r")\b")
    pattern = re.compile(rf"({_STRING})|\b({alternatives})\b")

    def put(m: re.Match[str]) -> str:
        if m.group(2) is not None:
            return words[m.group(2)]
        if _DOTTED.fullmatch(m.group(1)):
            return word.sub(lambda w: words[w.group(1)], m.group(1))
        return m.group(1)

    return pattern.sub(put, text)


def _swap_paths(text: str, paths: dict[str, str]) -> str:
    """`text` with each Go import path `"A"` or `"A/..."` of `paths` moved to its new prefix."""
    if not paths:
        return text
    alternatives = "|".join(map(re.escape, sorted(paths, key=len, reverse=True)))
    pattern = re.compile(r'"(' + alternatives + r')(/[^"\s]*)?"')
    return pattern.sub(lambda m: f'"{paths[m.group(1)]}{m.group(2) or ""}"', text)


def _spells_path(text: str, path: str, but: str = "") -> bool:
    """Whether `text` spells a Go import path `"path"` or `"path/..."`
    that is not `but` or below it (`P` beside its next major version `P/v2`)."""
    for m in re.finditer(r'"(' + re.escape(path) + r'(?:/[^"\s]*)?)"', text):
        if not but or not below(m.group(1), but):
            return True
    return False


# An import that binds names the test does not spell: Python's `from m
# import *`, Go's dot import (`. "pkg"`).
_STAR = re.compile(
    r"^[ \t]*from[ \t]+\S+[ \t]+import[ \t]+\*|^[ \t]*(?:import[ \t]+)?\.[ \t]+\"", re.M
)


def turned(changes: ChangeSet, was: str, now: str, before: str, after: str) -> str | None:
    """The base text `before` of the file at `was` (at `now` at head, its
    head text `after`) with every identity of the change that holds for it
    put in (module docstring); None when none does, or when one applies
    only in part (the head still spells an old name)."""
    held = _held(changes, was, now, before, after)
    return None if held is None else _swap_paths(_swap(before, held[0]), held[1])


def _held(
    changes: ChangeSet, was: str, now: str, before: str, after: str
) -> tuple[dict[str, str], dict[str, str]] | None:
    """The words and Go import paths `turned` puts in (old -> new)."""
    words, kept = _identities(changes, (was, now), before)
    # a forwarder's old name still works: only a test that spelt it follows it
    words = {
        o: n
        for o, n in words.items()
        if not _spells(before, n) and (o not in kept or _spells(before, o))
    }
    if words and (_STAR.search(before) or _STAR.search(after)):
        words = {}  # a name may come from a module the test does not name
    words |= _retitle(changes, was, now, (before, after), words)
    if any(_spells(after, o) for o in words):
        return None  # the head still spells an old name: applied in part
    paths: dict[str, str] = {}
    if suffix(now) == ".go" == suffix(was):
        paths = {
            o: n
            for o, n in prefixes(changes, now).items()
            if not _spells_path(before, n) and prefixes(changes, was).get(o) == n
        }
        if any(_spells_path(after, o, n) for o, n in paths.items()):
            return None
    words = {o: n for o, n in words.items() if _spells(before, o)}
    if not words and not paths:
        return None
    return words, paths


def _retitle(
    changes: ChangeSet, was: str, now: str, texts: tuple[str, str], words: dict[str, str]
) -> dict[str, str]:
    """The test file's own name, retitled with a rename of `words` (the
    change's renames that hold for it): {`OldTests`: `NewTests`} when the
    file moved from `dir/OldTests.cs` to `dir/NewTests.cs` (any suffix the
    engine reads, the same at both paths) and one rename `Old` -> `New`
    of `words` is the only difference of the two names (`pre` + `Old` +
    `post` and `pre` + `New` + `post`, `Old` once in the old name).  Its
    class and every use are then that rename too.  None ({}) when its
    base spells the new name, its base or head text declares it `partial`
    (other parts, elsewhere, keep the name), or another text of the
    change spells either name (another class of the name, or code that
    names the test class)."""
    folder, old_name = posixpath.split(was)
    other_folder, new_name = posixpath.split(now)
    end = suffix(was)
    if folder != other_folder or end != suffix(now) or end not in BY_SUFFIX:
        return {}
    old, new = old_name[: -len(end)], new_name[: -len(end)]
    if old == new or not old.isidentifier() or not new.isidentifier():
        return {}
    fits = [(o, n) for o, n in words.items() if old.count(o) == 1 and new == old.replace(o, n)]
    before, after = texts
    if len(fits) != 1 or not _spells(before, old) or _spells(before, new):
        return {}
    partial = re.compile(rf"\bpartial\b[^;{{}}]*\b(?:class|struct|record)\s+(?:{old}|{new})\b")
    if partial.search(before) or partial.search(after):
        return {}
    for path, other in changes.texts.items():
        if path in (was, now):
            continue
        if any(
            t is not None and (_spells(t, old) or _spells(t, new)) for t in (other.base, other.head)
        ):
            return {}
    return {old: new}


def renamed_only(changes: ChangeSet, was: str, now: str, before: str, after: str) -> bool:
    """Whether the code file at `was` (at `now` at head) changed from
    `before` to `after` only by the change's identities (`turned`)."""
    return suffix(now) in BY_SUFFIX and turned(changes, was, now, before, after) == after


def align(
    changes: ChangeSet,
    was: str,
    now: str,
    texts: tuple[str, str],
    base: Sequence[Unit],
    head: Sequence[Unit],
) -> tuple[Unit, ...] | None:
    """The base units of the test file at `was` (its path at base; `now`
    at head; `texts` its base and head texts) with each unit that the
    change's identities turn into a unit of the head (`turned`) replaced
    by that head unit; None when they turn none."""
    held = _held(changes, was, now, *texts)
    if held is None:
        return None
    text = _swap_paths(_swap(texts[0], held[0]), held[1])
    # a case keeps its key, or takes the file's own name retitled (`_retitle`)
    stem = posixpath.basename(was)[: -len(suffix(was))] if suffix(was) else ""
    retitle = {o: n for o, n in held[0].items() if o == stem}
    try:
        units = units_for(was, text)
    except Unparsable:
        try:  # as `by_cases` reads a text its grammar repairs
            units = paired_units(was, text, texts[1])[0]
        except Unparsable:
            return None
    if units is None or len(units) != len(base):
        return None
    at_head = {u.key: u for u in head}
    out: list[Unit] = []
    replaced = False
    for b, t in zip(base, units, strict=True):
        h = at_head.get(t.key)
        if (
            h is None
            or (t.key == b.key and t.code == b.code)
            or b.role != t.role
            or h.role != b.role
            or ((b.role == CASE or b.test) and t.key not in (b.key, _swap(b.key, retitle)))
            or not _same(t, h)
        ):
            out.append(b)
        else:
            out.append(h)
            replaced = True
    return tuple(out) if replaced else None


def _same(turned: Unit, head: Unit) -> bool:
    """Whether the substituted base unit `turned` is `head` as the engine reads it."""
    return alike(turned, head)
