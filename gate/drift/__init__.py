"""Test files as test cases: what `test_drift` compares between base and head.

A test file's text is split into `Unit`s, one per thing a reader of the
file would name: a test case (a pytest/unittest test function, method or
class; a Jest/Vitest/Mocha `test(...)`/`it(...)`; a Go `func TestX`), a
piece of support code (a fixture, a helper, a hook, an import, a
module-level statement), each with its exact code.  `test_drift` keeps every
base unit as it is and judges what the head adds.

One package per language family (`python/`, `js/`, `go/`, `java/`,
`csharp/`, and the modules `rust.py`, `kotlin.py` and `ruby.py`), each named in
the table of languages (`gate.drift.language.LANGUAGES`) with the suffixes
it reads, and each giving the engine a typed `Reader`: `units(text,
suffix) -> tuple[Unit, ...]`, raising `Unparsable` with one sentence when
the text is not that language (a syntax error, a grammar that is not
installed), and the hooks that judge a new file (`reaches`, `isolated`,
`apart`).  `units_for(path, text)` picks the language by the path's
suffix and returns None for a file no language reads (the whole file is
then the unit); `compare(base, head, allow_added)` says what the head did
to the base's units (`Drift`); `reaching` says which units of a new file
reach the tests of other files.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gate.drift.language import BY_SUFFIX

if TYPE_CHECKING:
    from gate.drift.reader import Reader
    from gate.model.change import BaseTree

# A unit's role.  CASE: a test the runner collects and runs.  SUPPORT: code
# that defines something tests use without running at collection (a helper
# def, a non-autouse fixture, an import, a constant).  COLLECTION: code that
# runs when the file is collected or changes what other tests see (a call
# at module level, an assignment into another module, a sys.path change, an
# autouse fixture, a runner hook, setUp/beforeEach/TestMain/init, ...).
CASE = "case"
SUPPORT = "support"
COLLECTION = "collection"


class Unparsable(Exception):
    """The text cannot be split into units; the message says why, in one
    sentence that follows "the head version" (`does not parse as Python
    at line 3: invalid syntax`)."""


@dataclass(frozen=True)
class Unit:
    """One unit of a test file.

    `key` identifies the unit across base and head (for example
    `function test_high_edge`, `method TestClamp.test_low`, `it clamp > rounds
    down`, `import os`, `statement 3`), unique within one file's units (a
    language module disambiguates repeats, and reports a repeated test name,
    which would shadow the first, as COLLECTION).  `name` is how a message names it
    (`test_high_edge`, `TestClamp.test_low`).  `code` is the unit's exact
    source text (decorators, signature and body), compared as is (but for
    `same`).  `binds`
    are the module-level names it binds (so a new import or definition that
    rebinds a name existing tests use is seen)."""

    key: str
    name: str
    role: str
    code: str
    binds: tuple[str, ...] = ()
    line: int = 0  # 1-based line where the unit starts at its side
    # The key of the unit this one is a member of (a method's class), or "".
    # A new member of a unit that exists at base is judged apart: see `compare`.
    parent: str = ""
    # The names the unit's code reads (None: unknown, and `compare` takes
    # every word of `code`, which can only make it stricter).
    uses: tuple[str, ...] | None = None
    # Of `uses`, the names the unit's code spells only as bare words that a
    # name-only lookup may take but nothing resolves to a module (Python: a
    # string of data, `mode="json"`, or a bare string annotation; pytest
    # takes no module as a fixture).  A new unit that binds its names to
    # modules (`binds_module`) is judged against the other uses alone.
    words: tuple[str, ...] = ()
    # The unit binds each of its names to a module object (Python's
    # `import a`, `import a.b`, `import a as b`).
    binds_module: bool = False
    # For a unit that binds its one name to a top-level module, as Python's
    # `import a` and `import a.b` bind `a`: that module's name.  Binding the
    # name again to the same module changes nothing (see `compare`).
    module: str = ""
    # A COLLECTION unit that is so only for calls of other modules'
    # callables in its defaults and its marks' arguments
    # (`@pytest.mark.parametrize("p", [click.Option(...)])`): those callees
    # as written, and the role it has but for them.  A new unit whose
    # callees the base version already calls so is judged by `quiet`
    # (see `compare`).
    calls: tuple[str, ...] | None = None
    quiet: str = ""
    # Where a language's text can change without its meaning (Python: a
    # comment, a line break, parentheses, quotes), a form of the code equal
    # across versions exactly when both mean the same (Python's syntax tree,
    # dumped without positions), made when `compare` meets a changed text;
    # None: the text itself is compared.
    same: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    # Where a version may have gained what changes no meaning only when the
    # other version lacks it (Python: a return annotation nothing reads, on a
    # def that returns a value), the `same` of this version without it; None
    # where there is none.  A head version whose `unadded` is the base's
    # `same` means what the base meant (`alike`).
    unadded: Callable[[], str | None] | None = field(default=None, compare=False, repr=False)
    # For an import: the module it loads (`from a.b import c` and `import
    # a.b` load `a.b`), and when removing it runs nothing less once no unit
    # reads what it binds: "*" always (a standard-library module), a module
    # name when another import of that module stays at head, "" never (an
    # import may be made for its effect: a plugin registering fixtures).
    # A Python module docstring no code reads drops as "*" too.
    loads: str = ""
    drop: str = ""
    # A hook its runner runs around the tests of one group only (a JS
    # `beforeEach` inside a `describe`), not around every test of the file
    # or, as Mocha does with a file's top-level hooks, of the whole run; or
    # a test whose body shares state with the file's own tests alone; in
    # either case writing nothing outside the file.
    grouped: bool = False
    # Where a language can tell that a changed test only gained new cases
    # (a row of a table the test loops over, a subtest, an assertion): its
    # code as tokens that mean what the code means, with the spans a head
    # version may insert (`Tokens`, `grown`); None: it cannot.
    tokens: Callable[[], Tokens] | None = field(default=None, compare=False, repr=False)
    # A COLLECTION unit that writes nothing outside its file (JS: no store
    # through the global object, `process`, an imported binding or an alias
    # of one; see `gate.drift.js.escapes.Escapes`): it changes what
    # other files' tests see only where the runner loads every file into
    # one module registry (Mocha), not where each file has its own (Jest,
    # Vitest).
    local: bool = False
    # A COLLECTION unit whose writes outside its file, if any, all go into
    # the platform's `process.env` (JS: `process.env.X = ...`, `delete
    # process.env.X`; `Escapes(writes, env=True)`): it changes what other
    # files' tests see only where the runner shares one `process.env`
    # between files, not where each file has a copy of its own (Jest;
    # `Reader.own_env`).  Every `local` unit is one.
    env_local: bool = False
    # The scope the unit's names are bound in, where a language has nested
    # scopes of units (JS: the keys of the describes whose callback bodies
    # hold it, outermost first); () the file's top level.  A name bound in
    # a scope is seen by the units in that scope and in the scopes inside
    # it alone (see `compare`).
    scope: tuple[str, ...] = ()
    # For a member of a class, where its language's reader judges it (Java,
    # C#): whether a new one can change the class's existing tests only
    # through the names it binds (a private helper or field, or one of a
    # class without base types; no annotation a framework reads, no
    # override, no hook's name); None: the reader does not say, and
    # `compare` opens it in a class whose bases are plain alone.
    open: bool | None = None
    # The keys of the describes in `scope` whose block a COLLECTION unit
    # keeps to (JS: a hook, declaration or test that stores only into the
    # block's own names; `gate.drift.js.blocks`): where the outermost new
    # describe around it is one of them, the unit is new cases only, judged
    # as `quiet` (a test: CASE) or SUPPORT.
    within: tuple[str, ...] = ()
    # A test case its runner collects and runs, whatever its role: a test
    # whose body writes state other tests see is COLLECTION for `compare`,
    # and still a test (`gate.rules.test_evidence` counts it as evidence).
    test: bool = False
    # For a test case whose title is its name (JS: `it('x', ...)`): `same`'s
    # form of its code with the title left out, equal across versions
    # exactly when both run the same test under any title (None, or a
    # callable giving None: its title may change what it runs, as a
    # snapshot's key or a name the body reads, or the language does not
    # say).  A base case gone at head and a new case in the same scope with
    # the same form are one test renamed (see `compare`).
    retitled: Callable[[], str | None] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Tokens:
    """A unit's code as a sequence of tokens equal across versions exactly
    when both mean the same (no comments, no layout), and the index ranges
    `[start, end)` of the tokens that form a complete new case where the
    head version inserts them (`grown`): a row of a table the test loops
    over, a subtest, an assertion.  Each language module says which."""

    tokens: tuple[str, ...]
    spans: tuple[tuple[int, int], ...] = ()
    # The tokens of a frame of test cases rather than of a test: a SUPPORT
    # unit whose rows are cases (a JavaScript `describe.each` over a table),
    # which grows as a test does.
    frame: bool = False
    # Spans a head version may insert that change nothing the code checks
    # and add no case (Go: a blank `_` added to the left side of an
    # assignment whose right side is unchanged, `x, _, err := f()`): a
    # unit whose head only inserts such spans is unchanged (`_changed`).
    inert: tuple[tuple[int, int], ...] = ()
    # Spans a head may insert only where the base version calls each of
    # the callees named (Go: a table row that hands the test's `t` or a
    # local to the helper the existing rows call, `mockResponse(t, ...)`),
    # and the callees this version calls.
    needs: tuple[tuple[tuple[int, int], tuple[str, ...]], ...] = ()
    calls: frozenset[str] = frozenset()


# More partial matches than this at one place: too repetitive to tell, changed.
_ALIGNMENTS = 256


def grown(base: Unit, head: Unit) -> bool:
    """Whether `head`, the head version of the test case `base`, is `base`
    with only new cases inserted: the base tokens are the head tokens less
    some of the head's insertable spans (`Tokens.spans`, each only where
    the base calls what it needs, `Tokens.needs`), and the unit is
    a test case on both sides (one whose body stores outside itself is
    collection-time code, never grown), or a frame of test cases on both
    sides (SUPPORT, its tokens a `Tokens.frame`)."""
    if base.role != head.role or base.role not in (CASE, SUPPORT):
        return False
    if base.tokens is None or head.tokens is None:
        return False
    old, new = base.tokens(), head.tokens()
    if base.role == SUPPORT and not (old.frame and new.frame):
        return False
    needs = dict(new.needs)
    spans = [s for s in new.spans if set(needs.get(s, ())) <= old.calls]
    return len(new.tokens) > len(old.tokens) and _less(old.tokens, new.tokens, spans)


def inert(base: Unit, head: Unit) -> bool:
    """Whether `head`, the head version of `base`, is `base` with only
    inert spans inserted (`Tokens.inert`): what it checks is unchanged."""
    if base.tokens is None or head.tokens is None:
        return False
    new = head.tokens()
    return bool(new.inert) and _less(base.tokens().tokens, new.tokens, new.inert)


def _less(want: tuple[str, ...], have: tuple[str, ...], spans: Sequence[tuple[int, int]]) -> bool:
    """Whether `want` is `have` less some of the index ranges `spans`."""
    starting: dict[int, list[int]] = {}
    for start, end in spans:
        if start < end:
            starting.setdefault(start, []).append(end)
    # reach[i]: how many base tokens the head tokens before i can stand for
    reach: list[set[int]] = [set() for _ in range(len(have) + 1)]
    reach[0].add(0)
    for i, token in enumerate(have):
        here = reach[i]
        if len(here) > _ALIGNMENTS:
            return False
        for j in here:
            if j < len(want) and want[j] == token:
                reach[i + 1].add(j + 1)
            for end in starting.get(i, ()):
                reach[end].add(j)
        reach[i] = set()
    return len(want) in reach[len(have)]


def suffix(path: str) -> str:
    """The path's last suffix (`.py`), or '' when the file name has none."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""


def units_for(path: str, text: str) -> tuple[Unit, ...] | None:
    """The units of `text`, the file `path`, split by the language its
    suffix names (`gate.drift.language.BY_SUFFIX`); None when no language
    reads such files.  The language's reader is given the path's suffix (a
    package that reads several grammars, JavaScript, JSX, TypeScript and
    TSX, picks one by it).  Raises `Unparsable` when the text is not that
    language, or its package (or the grammar it needs) is not installed."""
    ending = suffix(path)
    reader = reader_of(ending)
    if reader is None:
        return None
    return reader.units(text, ending)


def reader_of(ending: str) -> Reader | None:
    """The `Reader` of the language that reads files ending in `ending` (a
    path's `suffix`, `gate.drift.language.BY_SUFFIX`); None when no language
    does.  Raises `Unparsable` when that language's package, or the parser
    it needs, is not installed."""
    language = BY_SUFFIX.get(ending)
    if language is None:
        return None
    try:
        return language.load()
    except ImportError as exc:  # tree-sitter, or the package itself, not installed
        raise Unparsable(f"needs a parser that is not installed ({exc})") from None


def near_files(path: str) -> tuple[str, ...]:
    """The base files whose texts the language of the new file `path` reads
    to judge it (`Reader.near`: JavaScript's runner configuration that may
    turn per-file isolation off); none where it reads none, or where its
    package or parser is not installed (the file is then refused whole)."""
    language = BY_SUFFIX.get(suffix(path))
    if language is None:
        return ()
    try:
        reader = language.load()
    except ImportError:
        return ()
    return () if reader.near is None else reader.near(path)


def paired_units(path: str, base: str, head: str) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    """The units of both versions of the modified file `path` when
    `units_for` refused one: its language's `Reader.pair` (statements the
    grammar repairs as opaque units); `Unparsable` when the language has
    none or it refuses too."""
    ending = suffix(path)
    reader = reader_of(ending)
    if reader is None:
        raise Unparsable(f"no language reads {ending or 'a file without a suffix'}")
    if reader.pair is None:
        raise Unparsable(f"the {BY_SUFFIX[ending].name} reader cannot read a syntax error around")
    return reader.pair(base, head, ending)


def repaired_pair(
    base: Sequence[Unit],
    base_repaired: Collection[str],
    head: Sequence[Unit],
    head_repaired: Collection[str],
    grammar: str,
    kind: str,
) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    """A `Reader.pair` answer from the units of both versions as the
    `grammar` repairs them, where the units of the keys `*_repaired` (each
    a `kind` of the file: a declaration, a statement) hold a repair and are
    their exact text alone.  `Unparsable` when such a unit has the same key
    on both sides but another text: what changed inside it cannot be told."""
    at_base = {u.key: u for u in base if u.key in base_repaired}
    for u in head:
        was = at_base.get(u.key)
        if u.key in head_repaired and was is not None and was.code != u.code:
            raise Unparsable(
                f"has a syntax error the {grammar} grammar repairs in a {kind} "
                f"that changed (line {u.line})"
            )
    return tuple(base), tuple(head)


def _changed(base: Unit, head: Unit | None) -> bool:
    """Whether a base unit's code changed at head (None: it is gone, which
    is no change); see `alike`."""
    return head is not None and not alike(base, head)


def alike(base: Unit, head: Unit) -> bool:
    """Whether the head version of a unit means what its base version
    meant: the same text, or texts that differ by what changes no meaning
    (`Unit.same`), or a head that only adds what its base lacked and
    nothing reads (`Unit.unadded`)."""
    if head.code == base.code:
        return True
    if base.same is None or head.same is None:
        return False
    was = base.same()
    if was == head.same():
        return True
    return head.unadded is not None and head.unadded() == was


def reaching(
    path: str,
    units: Sequence[Unit],
    others: Sequence[str] | None = (),
    tree: BaseTree | None = None,
    configs: Mapping[str, str | None] | None = None,
) -> tuple[Unit, ...]:
    """The units of a NEW test file `path` that change what the tests of
    other files see: its COLLECTION units, narrowed by the language's
    `Reader.reaches(unit)` where it has one (Python: a new module's
    `from __future__` import or autouse fixture acts on its own tests only;
    JavaScript: a directive such as `'use strict'` does, and nothing else,
    since Mocha loads every file into one process); every COLLECTION unit
    where it has none (a Go `init` or `TestMain` runs for the whole
    package).  None at all where the language's `isolated(path, units,
    others)` says the file's load-time code runs where no other file's
    tests do (JavaScript: a file that uses AVA, which runs each test file in
    a worker of its own, and that none of `others`, the texts of the
    change's other files, loads; None: they are not all known), or where
    its `apart(path, tree)` says no test of the base runs beside it (Go: a
    package that had no test file at base; `tree` the base tree's layout,
    None when the source could not list it).  Where its `own_registry(path,
    units, others, configs)` says the runner gives the file a module
    registry of its own (JavaScript: Jest, Vitest, node:test, unless the
    base's runner configuration turns that off: `configs`, the base texts
    of the files `near_files(path)` names, None when not all are known), a
    unit that writes nothing outside the file (`Unit.local`) reaches
    nothing either; and where its `own_env(path, units, others, configs)`
    says the runner gives the file a `process.env` of its own too
    (JavaScript: Jest), neither does one whose only writes outside the
    file go into `process.env` (`Unit.env_local`)."""
    reader = reader_of(suffix(path))
    narrow: Callable[[Unit], bool] | None = None
    if reader is not None:
        if reader.isolated is not None and reader.isolated(path, units, others):
            return ()
        if reader.apart is not None and tree is not None and reader.apart(path, tree):
            return ()
        narrow = reader.reaches
        registry = reader.own_registry
        if narrow is not None and registry is not None and registry(path, units, others, configs):
            local: Callable[[Unit], bool] = narrow
            if reader.own_env is not None and reader.own_env(path, units, others, configs):
                narrow = lambda u: not u.env_local and local(u)  # noqa: E731
            else:
                narrow = lambda u: not u.local and local(u)  # noqa: E731
    return tuple(u for u in units if u.role == COLLECTION and (narrow is None or narrow(u)))


_WORD = re.compile(r"\w+")
# What a test class may inherit from without bringing in code that calls its
# members by name: nothing, `object`, or unittest's test cases (whose calls
# are the runner names below).  A base imported from elsewhere may call any
# member from its tests (`self.build()`), so a new member of a class with
# such a base can override what those inherited tests run.
PLAIN_BASES = frozenset({"object", "unittest", "TestCase", "IsolatedAsyncioTestCase"})
# Members unittest or pytest call on a test class, or that every test of it
# calls (`assert*`, `fail*`, `skipTest`, `subTest`, `addCleanup`, ...): a new
# one changes the existing tests, whatever its body.
_RUNNER_MEMBER = re.compile(
    r"\A(?:__\w*__|assert\w*|fail\w*|_?(?i:setup|teardown)\w*|async\w*|_call\w*|add\w*|do\w*"
    r"|enter\w*|skip\w*|sub\w*|run|debug|id|shortDescription|countTestCases"
    r"|defaultTestResult|longMessage|maxDiff|failureException|_outcome|_testMethod\w*)\Z"
)


def _open_member(unit: Unit, header: Unit, words: set[str], classes: set[str]) -> bool:
    """Whether `unit`, a new member of the base class `header`, leaves the
    class's existing tests as they were: a plain member (a helper method, an
    attribute) whose name no base code spells (so no existing test calls or
    reads it, as `self.name` or otherwise), and either one its reader calls
    open (`Unit.open`) or, where the reader does not say, one no runner
    calls in a class whose bases are plain or classes of the same file
    (whose code is in `words`)."""
    if unit.role != SUPPORT or unit.open is False:
        return False
    if unit.open is None and (header.uses is None or not set(header.uses) <= PLAIN_BASES | classes):
        return False
    runner = _RUNNER_MEMBER if unit.open is None else None
    return all(n not in words and not (runner and runner.match(n)) for n in unit.binds)


@dataclass(frozen=True)
class Drift:
    """What a head version did to the units of a base version (`compare`).

    `changed` and `removed` name base units; `added` names welcome new test
    cases; `refused` names new units that are drift, each with why.  `ok`:
    nothing changed, nothing removed, nothing refused."""

    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    # base test cases whose head version only inserts new cases (`grown`)
    grew: tuple[str, ...] = ()
    # base test cases gone at head under another title, with the same code
    # but for the title (`Unit.retitled`): (base name, head name)
    renamed: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        return not (self.changed or self.removed or self.refused)

    def summary(self) -> str:
        """`test_high_edge changed; 2 new tests added`: what a message says."""
        from gate.base.words import plural

        parts = [f"{n} changed" for n in self.changed]
        parts += [f"{n} removed" for n in self.removed]
        parts += [f"{n} {why}" for n, why in self.refused]
        if self.added:
            parts.append(f"{plural(len(self.added), 'new test')} added")
        parts += [f"new cases added to {n}" for n in self.grew]
        parts += [f"{old} renamed {new}" for old, new in self.renamed]
        return "; ".join(parts)


def compare(base: Sequence[Unit], head: Sequence[Unit], *, allow_added: bool = True) -> Drift:
    """What `head` (a file's units at head) did to `base` (its units at base).

    Every base unit must be at head (same key) with identical code, or it
    is changed or removed, unless it is a test case that only gained new
    cases (`grown`: in `Drift.grew`) or its head only inserts what checks
    nothing more or less (`inert`); where it sits does not matter.  A new head unit:

    * a member of a unit that exists at base (a method of an existing
      class): a CASE is a new test; anything else is drift, since it can
      override what the existing members call (a helper, an attribute,
      setUp, a fixture of the class);
    * a member of a new unit (a new test class): welcome, unless its role
      is COLLECTION (it runs at import or changes shared state);
    * at module level: COLLECTION is drift (but a unit that is so only
      for calls of other modules' callables in its defaults and marks,
      `Unit.calls`, each of which some base unit makes the same way, is
      judged by the role it has but for them); so is a unit that binds a name
      some base unit binds (it replaces it) or that any base unit uses
      (`Unit.uses`, else any word of its code: a new fixture, import or
      helper of that name changes what existing tests get; for a unit that
      binds modules, `Unit.binds_module`, the uses less `Unit.words`),
      unless both bind it to the same module (`Unit.module`: a new `import
      a.c` where every base unit binding `a` is `import a` or `import
      a.b`); else a CASE is a new test and SUPPORT is welcome.

    A base test case gone at head and a new case in its scope whose code
    but for the title is the same (`Unit.retitled`, `_renamed`) are one
    test renamed (`Drift.renamed`): neither removed nor added.  New tests
    are drift too when `allow_added` is false.  Units that bind
    the same name must keep their order (the last one wins)."""
    base_by_key = {u.key: u for u in base}
    base_calls = {c for u in base for c in (u.calls or ())}
    head_by_key = {u.key: u for u in head}
    edited = [u for u in base if _changed(u, head_by_key.get(u.key))]
    differ = {u.key for u in edited}
    grew_keys = {u.key for u in edited if grown(u, head_by_key[u.key])}
    edited = [u for u in edited if u.key in grew_keys or not inert(u, head_by_key[u.key])]
    grew = tuple(u.name for u in edited if u.key in grew_keys)
    changed = tuple(u.name for u in edited if u.key not in grew_keys)
    gone = _removed(base, head, differ)
    renames = _renamed(gone, [u for u in head if u.key not in base_by_key])
    removed = tuple(u.name for u in gone if u.key not in renames)
    bound = {(u.scope, n) for u in base if not u.parent for n in u.binds}
    # Names every base binder binds to the module of that name (`import a`,
    # `import a.b`): a new `import a.c` binds `a` to the same object.
    other = {n for u in base if not u.parent for n in u.binds if u.module != n}
    same = {n for _, n in bound} - other
    # The names each scope's units read (`mentioned[scope]`); a unit in
    # scope S sees the names bound in S and in each scope S is inside.
    # `named[scope]`: those less what units spell only as words (`Unit.words`).
    # Made when a new unit first asks.
    mentioned: dict[tuple[str, ...], set[str]] = {}
    named: dict[tuple[str, ...], set[str]] = {}
    seen: dict[tuple[str, ...], set[str]] = {}
    seen_named: dict[tuple[str, ...], set[str]] = {}
    parents = {u.parent for u in head if u.parent}
    words: set[str] | None = None  # every word of the base code, made when first asked
    base_parents = {u.parent for u in base if u.parent}
    classes = {u.key[len("class ") :] for u in base if u.key in base_parents}
    # What each base class inherits from the classes of the file it names
    # (`class TestB(TestA)`): a new member of that name overrides one.
    members: dict[str, set[str]] = {}
    for u in base:
        if u.parent:
            members.setdefault(u.parent, set()).update(u.binds)
    inherited = {
        u.key: {n for b in (u.uses or ()) for n in members.get(f"class {b}", set())}
        for u in base
        if u.key in members
    }
    added: list[str] = []
    refused: list[tuple[str, str]] = []
    renamed_to = set(renames.values())
    for u in head:
        if u.key in base_by_key or u.key in renamed_to:
            continue
        role = u.role
        if role == COLLECTION and u.quiet and u.calls is not None and set(u.calls) <= base_calls:
            role = u.quiet  # calls the base version makes the same way already
        elif role == COLLECTION and u.within and _new_block(u, base_by_key):
            role = u.quiet or SUPPORT  # keeps to a describe block that is new
        is_test = role == CASE and u.key not in parents  # a class header is no test of its own
        binds = set(u.binds) - ({u.module} & same)
        clash = sorted(n for n in binds if (u.scope, n) in bound) if not u.parent else []
        reads, heard = (named, seen_named) if u.binds_module else (mentioned, seen)
        if u.scope not in heard and not mentioned:
            for b in base:
                read = b.uses if b.uses is not None else _WORD.findall(b.code)
                mentioned.setdefault(b.scope, set()).update(read)
                named.setdefault(b.scope, set()).update(
                    set(read).difference(b.words) if b.words else read
                )
        if u.scope not in heard:
            inside = (ws for s, ws in reads.items() if s[: len(u.scope)] == u.scope)
            heard[u.scope] = set().union(*inside)
        used = sorted(binds & heard[u.scope]) if not u.parent else []
        why = None
        if u.parent and u.parent in base_by_key:
            if role != CASE and words is None:
                words = {w for b in base for w in _WORD.findall(b.code)}
            if role != CASE and not _open_member(u, base_by_key[u.parent], words or set(), classes):
                why = "added to a class that exists at base"
            elif set(u.binds) & inherited.get(u.parent, set()):
                why = "overrides a test the class inherits"
        elif clash:
            why = f"replaces {', '.join(clash)} of the base version"
        elif used:
            why = f"binds {', '.join(used)}, a name existing code uses"
        if why is None and role == COLLECTION:
            why = "runs at collection or changes what other tests see"
        if why is not None:
            refused.append((f"new {u.name}", why))
        elif is_test and allow_added:
            added.append(u.name)
        elif is_test:
            refused.append((f"new test {u.name}", "added and allow_added is false"))
    refused.extend(_reordered(base, head))
    names = {u.key: u.name for u in (*base, *head)}
    pairs = tuple((names[b], names[h]) for b, h in renames.items())
    return Drift(changed, removed, tuple(added), tuple(refused), grew, pairs)


_REPEATED = re.compile(r" #\d+\Z")


def _renamed(gone: Sequence[Unit], new: Sequence[Unit]) -> dict[str, str]:
    """The base test cases gone at head that a new head case is under
    another title (base key -> head key): both CASEs in one scope and
    class, with one `Unit.retitled` form, which no other gone or new case
    of that scope has; neither key a repeat (` #2`: a title two tests
    share, whose runs and snapshots a rename reshuffles)."""
    sides = [
        [u for u in units if u.role == CASE and u.retitled and not _REPEATED.search(u.key)]
        for units in (gone, new)
    ]
    places = {(u.scope, u.parent) for u in sides[0]} & {(u.scope, u.parent) for u in sides[1]}
    if not places:  # no test gone where one is new: no form is made
        return {}
    groups: dict[tuple[tuple[str, ...], str, str], tuple[list[str], list[str]]] = {}
    for side, units in enumerate(sides):
        for u in units:
            form = u.retitled() if u.retitled and (u.scope, u.parent) in places else None
            if form is not None:
                groups.setdefault((u.scope, u.parent, form), ([], []))[side].append(u.key)
    return {b[0]: h[0] for b, h in groups.values() if len(b) == 1 and len(h) == 1}


def _new_block(unit: Unit, base_by_key: dict[str, Unit]) -> bool:
    """Whether the outermost describe around `unit` that is new at head is
    one whose block the unit keeps to (`Unit.within`)."""
    fresh = next((k for k in unit.scope if k not in base_by_key), None)
    return fresh is not None and fresh in unit.within


def _removed(base: Sequence[Unit], head: Sequence[Unit], differ: set[str]) -> list[Unit]:
    """The base units missing at head, but for an import no unit reads
    (`Unit.uses`, else every word of its code) whose removal runs nothing
    less (`Unit.drop`: "*", or a module another head import loads).  The
    units read are the head's and the base's that are gone or that differ
    at head (`differ`: keys of `_changed` units); a base unit the same at
    head is read as its head version, which is the code that runs there (a
    typing sweep's `Optional[int]` written `int | None` reads `Optional` no
    more, `same.def_form`)."""
    at_head = {u.key for u in head}
    gone = [u for u in base if u.key not in at_head]
    if not any(u.drop for u in gone):
        return gone
    kept = [u for u in base if u.key not in at_head or u.key in differ]
    read = {
        w for u in (*kept, *head) for w in (u.uses if u.uses is not None else _WORD.findall(u.code))
    }
    loaded = {u.loads for u in head if u.loads}
    return [
        u
        for u in gone
        if not u.drop
        or set(u.binds) & read
        or not (u.drop == "*" or any(m == u.drop or m.startswith(f"{u.drop}.") for m in loaded))
    ]


def _reordered(base: Sequence[Unit], head: Sequence[Unit]) -> list[tuple[str, str]]:
    """Names that several base units bind in one scope (`from m import
    clamp` and a later `def clamp`): the last one wins, so those units must
    keep their order at head even where each is unchanged."""
    at_head = {u.key: i for i, u in enumerate(head)}
    binders: dict[tuple[str, str], list[str]] = {}
    modules: dict[tuple[str, str], set[str]] = {}
    for u in base:
        for name in u.binds:
            binders.setdefault((u.parent, name), []).append(u.key)
            modules.setdefault((u.parent, name), set()).add(u.module)
    # Binders that all bind the name to the module of that name may come in any order.
    binders = {k: v for k, v in binders.items() if modules[k] != {k[1]}}
    out = []
    for (_, name), keys in sorted(binders.items()):
        kept = [at_head[k] for k in keys if k in at_head]
        if kept != sorted(kept):
            out.append((f"the units binding {name}", "are in another order"))
    return out
