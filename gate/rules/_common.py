"""Helpers shared by the rule kinds: typed parameters, message wording,
and what a Python module's top-level statements bind.  All pure.  File
text, its lines and the line diff come from `gate.text`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gate.changes import (
    ADDED,
    COPIED,
    DELETED,
    MODE_SUBMODULE,
    MODE_SYMLINK,
    RENAMED,
    TYPE_CHANGED,
    UNKNOWN,
    ChangeSet,
    FileChange,
)
from gate.errors import GateError
from gate.paths import quoted
from gate.report import Finding, RuleResult
from gate.rubric import Rule
from gate.text import encode, python_encoding_problem
from gate.words import plural as plural  # re-exported: the rules import it from here

# --- parameters (validated by the rubric loader; these only narrow types) ---


def _param(rule: Rule, key: str) -> Any:
    """`rule`'s value for `key`, or the default its kind declares (a rule
    the loader built carries every default already; one built by hand may
    not)."""
    if key in rule.params:
        return rule.params[key]
    from gate.rules import REGISTRY  # the registry imports the rule modules, and so this one

    return REGISTRY[rule.kind].defaults().get(key)


def param_str(rule: Rule, key: str) -> str:
    value = _param(rule, key)
    return "" if value is None else str(value)


def param_int(rule: Rule, key: str) -> int:
    value = _param(rule, key)
    return 0 if value is None else int(value)


def param_bool(rule: Rule, key: str) -> bool:
    return bool(_param(rule, key))


def param_list(rule: Rule, key: str) -> list[str]:
    value = _param(rule, key)
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


# --- results and wording ---


def result(
    rule: Rule,
    passed: bool,
    message: str,
    paths: Iterable[str] = (),
    findings: Iterable[Finding] = (),
) -> RuleResult:
    """A `RuleResult` for `rule`; `paths` are sorted and made unique."""
    return RuleResult(
        id=rule.id,
        kind=rule.kind,
        passed=passed,
        message=message,
        paths=tuple(sorted(set(paths))),
        findings=tuple(findings),
    )


def quote(text: str) -> str:
    """A string quoted for a message: newlines, tabs and quotes escaped, a
    path byte that is not UTF-8 as `\\xNN` (`gate.paths.quoted`)."""
    return quoted(text)


def names(items: Sequence[str], limit: int = 5) -> str:
    """`a, b, c` (quoted), shortened to `limit` entries with a count of the rest."""
    shown = ", ".join(quote(s) for s in items[:limit])
    if len(items) > limit:
        shown += f" and {len(items) - limit} more"
    return shown


def line_ranges(lines: Sequence[int], limit: int = 8) -> str:
    """`1-3, 7, 9-10` for sorted line numbers, shortened after `limit` runs."""
    runs = runs_of(lines)
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:limit]]
    text = ", ".join(parts)
    if len(runs) > limit:
        text += f" and {len(runs) - limit} more"
    return text


def runs_of(lines: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted, unique line numbers as (first, last)."""
    runs: list[tuple[int, int]] = []
    for n in sorted(set(lines)):
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


# --- one named file in a change set ---


@dataclass(frozen=True)
class FileState:
    """What a change did to one named file.

    `change` is the file change that touches it (None: untouched).
    `gone` says why the file no longer exists at its path ("deleted",
    "renamed to X") or is None.
    """

    change: FileChange | None
    gone: str | None


def file_state(changes: ChangeSet, path: str) -> FileState:
    """Find the change that touches `path`; a rename away or a deletion makes it `gone`."""
    found: FileChange | None = None
    for f in changes.files:
        if path not in f.written:
            continue
        if f.status == DELETED and f.path == path:
            return FileState(f, "deleted")
        if f.status == RENAMED and f.old_path == path and f.path != path:
            return FileState(f, f"renamed to {quote(f.path)}")
        if found is None:
            found = f
    return FileState(found, None)


def unavailable(rule: Rule, path: str, changes: ChangeSet) -> RuleResult:
    """The result for a touched file whose text the source cannot give, or
    that is too large to read (`ChangeSet.withheld` says why).

    Real sources (git, a patch, the API, a writer's result.json) fail: the
    rule cannot be judged.  A rubric example that describes a file only by
    its line counts says nothing about its content, so there the rule
    passes and says it did not look (give `before`/`after` to exercise it).
    """
    if changes.source == "example":
        return result(
            rule,
            True,
            f"the example gives no text for {quote(path)} (only counts); content not checked",
        )
    why = changes.withheld.get(path)
    if why is not None:
        return result(
            rule,
            False,
            f"{quote(path)} is touched but {why}: the rule cannot judge it; keep files "
            "that large out of content rules",
            paths=[path],
        )
    return result(
        rule,
        False,
        f"{quote(path)} is touched but its content is unavailable from this source "
        f"({changes.source}); judge it with `gate check` on a git repository",
        paths=[path],
    )


@dataclass(frozen=True)
class Versions:
    """The file a content rule names (its `file` parameter), touched by
    `change`; `gone` as in `FileState`; its base and head text (None where
    absent; the head is None when the file is gone)."""

    path: str
    change: FileChange
    gone: str | None
    base: str | None
    head: str | None


# What a checkout reads at a path that is not a regular file, by git mode.
_NOT_A_FILE = {
    MODE_SYMLINK: ("a symlink", "a checkout reads the file it points to, not the link's text"),
    MODE_SUBMODULE: ("a submodule", "a checkout reads another repository's files there"),
}


def type_change(changes: ChangeSet, path: str) -> tuple[str, tuple[str, ...]] | None:
    """(what `path` is or becomes other than a regular file, the paths
    that say so), or None when it is a regular file (or absent) on each
    side the change writes.  A symlink or a submodule on either side
    (its git mode, either side of the change that writes `path`), a type
    change whose modes the source does not know (the PR files API's
    `changed`), or a folder on either side: a change that writes a path
    under `path/` (a file becoming a folder is a deletion, or a rename,
    plus additions under it)."""
    under = f"{path}/"
    base_folder = head_folder = False
    inside: list[str] = []
    touched: list[str] = []
    for other in changes.files:
        base_side = None if other.status in (ADDED, COPIED) else (other.old_path or other.path)
        head_side = None if other.status == DELETED else other.path
        hit: list[str] = []
        if base_side is not None and base_side.startswith(under):
            base_folder = True
            hit.append(base_side)
        if head_side is not None and head_side.startswith(under):
            head_folder = True
            hit.append(head_side)
        if hit:
            inside.extend(hit)
            touched.extend(other.touched)
            if other.status == UNKNOWN:  # a path known by name only: either side
                base_folder = head_folder = True
    if base_folder or head_folder:
        if base_folder and head_folder:
            side = "a folder on both sides of the change"
        elif base_folder:
            side = "a folder at base"
        else:
            side = "a folder at head"
        what = f"is {side} (the change writes {quote(sorted(inside)[0])} inside it)"
        return f"{what}: a checkout reads the files inside it, not one text", tuple(touched)
    state = file_state(changes, path)
    f = state.change
    if f is None:
        return None
    renamed_in = f.status == RENAMED and f.path == path and f.old_path != path
    base_mode = None if f.status in (ADDED, COPIED) or renamed_in else f.old_mode
    head_mode = None if state.gone is not None else f.new_mode
    for side, mode in (("at base", base_mode), ("at head", head_mode)):
        if mode in _NOT_A_FILE:
            kind, reads = _NOT_A_FILE[mode]
            verb = "was" if side == "at base" else "is"
            return f"{verb} {kind} {side}: {reads}", f.touched
    if f.status == TYPE_CHANGED:
        return (
            f"changes type (a regular file becoming a symlink or a submodule, or back), and "
            f"this source ({changes.source}) does not say to what: judge it with `gate check` "
            "on a git repository",
            f.touched,
        )
    return None


def shadows(path: str, other: str) -> bool:
    """Whether a file at `other` makes Python import something else than
    the module `path` (a `.py` file) from the same folder.  Python's finder
    looks in a folder for a package (a folder `name/` with an `__init__`
    of any suffix it loads) first, then an extension module
    (`name.so`, `name.cpython-311-x86_64-linux-gnu.so`, `name.pyd`, ...),
    and only then `name.py`: so `clamp_kit/__init__.py` or `clamp_kit.so`
    beside `clamp_kit.py` replaces it for `import clamp_kit`.  (For a
    package's own `pkg/__init__.py`, an extension `pkg/__init__.so` does.)"""
    folder, _, name = path.rpartition("/")
    if not name.endswith(".py"):
        return False
    stem = name[: -len(".py")]
    prefix = f"{folder}/" if folder else ""
    if not other.startswith(prefix):
        return False
    rest = other[len(prefix) :]
    init = f"{stem}/__init__"
    if stem != "__init__" and rest.startswith(init + "."):
        return rest[len(init) :] in _INIT_SUFFIXES or _extension(rest[len(init) :])
    return rest.startswith(stem + ".") and "/" not in rest and _extension(rest[len(stem) :])


# What Python's finder loads a package's `__init__` from, besides extensions.
_INIT_SUFFIXES = frozenset({".py", ".pyw", ".pyc"})


def _extension(suffix: str) -> bool:
    """`.so`/`.pyd`, alone or after a tag (`.abi3.so`, `.cp311-win_amd64.pyd`):
    every platform's extension module suffix, not only this one's."""
    return suffix.endswith((".so", ".pyd")) and suffix.count(".") <= 2


def shadowed(changes: ChangeSet, path: str) -> tuple[str, str] | None:
    """(a file the change adds, or renames, copies or changes into place,
    that Python imports or runs instead of the module `path`; where) or
    None (`shadow_of`).  A path known only by name (a writer's
    `result.json`) counts as added."""
    from gate import globs
    from gate.rubric import DEFAULT_TESTS

    in_tests = globs.matcher(DEFAULT_TESTS, globs.FOLDED)  # built once, not per file
    # Every form is named like a name the file is imported by, or is an
    # `__init__`, or sits in a site folder: a cheap test on the name first
    # (10,000 added files, best of 5: 80 ms without it, 3 ms with it).
    stems = _import_names(path) | {"__init__"}
    for f in changes.files:
        if f.status not in _PLACES:
            continue
        leaf = f.path.rpartition("/")[2]
        if leaf.partition(".")[0] not in stems and "-packages/" not in f.path:
            continue
        where = shadow_of(path, f.path, in_tests)
        if where is not None:
            return f.path, where
    return None


# The statuses that put a file at a path where the base had none (or another
# type: a dangling symlink made a real extension module).
_PLACES = frozenset({ADDED, COPIED, RENAMED, TYPE_CHANGED, UNKNOWN})
# Folders whose `.pth` files and `sitecustomize`/`usercustomize` modules
# Python's `site` module runs at startup (a virtual environment committed
# inside the repository: `.venv/lib/python3.12/site-packages/`,
# `.venv/Lib/site-packages/`, Debian's `dist-packages`).
_SITE_DIRS = frozenset({"site-packages", "dist-packages"})
_SITE_MODULES = frozenset({"sitecustomize", "usercustomize"})


def shadow_of(path: str, other: str, in_tests: Callable[[str], bool]) -> str | None:
    """Where a file at `other` makes Python import, or run, something else
    than the module `path` (a `.py` file), or None.  Derived from the
    import system (`importlib.machinery`, PEP 3147, PEP 552, PEP 420, the
    `site` module); every form this platform loads is checked against a
    real import in the tests (`tests/test_hostile_imports.py`):

    - beside it (`shadows`): a package folder of the same name, or an
      extension module, which Python's finder tries before the source;
    - its cached bytecode (`cached_bytecode`): `__pycache__/NAME.TAG.pyc`,
      which a hash-based pyc (PEP 552) makes Python run instead of the
      source, unchecked or checked against a source the writer knows;
    - at startup: a `.pth` file or a `sitecustomize`/`usercustomize` module
      in a `site-packages` folder (a virtual environment in the checkout),
      whose `import` lines run before any test and may replace any module;
      and a module there named like a name the file may be imported by
      (an editable install appends the project's folder after it);
    - on an earlier `sys.path` entry: a module or package in a test folder
      (`shadows_from_tests`), or in a folder above the file (the
      repository's root, a `src/`), named like a name the file may be
      imported by (`shadows_from_above`).

    Not shadows, as Python's finder decides: a sourceless `NAME.pyc`
    beside the source (the source comes first), a namespace folder
    `NAME/` without `__init__` on any entry (a module anywhere on the path
    comes first, PEP 420)."""
    folders = other.split("/")
    if any(folder in _SITE_DIRS for folder in folders[:-1]):
        if folders[-1].endswith(".pth") or _module_name(other) in _SITE_MODULES:
            return (
                "in a site-packages folder, which Python's site module runs at startup "
                "from a virtual environment in the checkout"
            )
        if _module_name(other) in _import_names(path):
            return (
                "in a site-packages folder, which comes before a folder an editable "
                "install adds to sys.path"
            )
    if shadows(path, other):
        return "beside it"
    if cached_bytecode(path, other):
        return (
            "as its cached bytecode, which Python runs instead of the source when the "
            "file is a hash-based .pyc (PEP 552)"
        )
    if shadows_from_tests(path, other, in_tests):
        return "from a test folder, which pytest puts first on sys.path"
    if shadows_from_above(path, other):
        return (
            "from a folder above it, which comes first on sys.path when Python runs "
            "from there (the repository's root, a src/ folder)"
        )
    return None


def cached_bytecode(path: str, other: str) -> bool:
    """Whether `other` is cached bytecode of the module `path`:
    `__pycache__/NAME.TAG.pyc` in its folder (PEP 3147; any interpreter's
    tag, `cpython-312`, `pypy310`, with or without `.opt-1`/`.opt-2`)."""
    folder, _, name = path.rpartition("/")
    if not name.endswith(".py"):
        return False
    cache = f"{folder}/__pycache__/" if folder else "__pycache__/"
    if not other.startswith(cache):
        return False
    rest = other[len(cache) :]
    stem = name[: -len(".py")]
    return "/" not in rest and rest.startswith(stem + ".") and rest.endswith(".pyc")


def shadows_from_above(path: str, other: str) -> bool:
    """Whether a module at `other`, in a folder above the file `path` (an
    ancestor, the repository's root included), is named like a name the
    file may be imported by (its stem, or a folder on its way): when that
    folder comes before the file's own on `sys.path` (Python run from the
    root puts it first; a `src/` layout puts `src/` on the path), `import
    clamp_kit` finds `clamp_kit.py` at the root before `src/clamp_kit.py`,
    and `src.py` at the root replaces the namespace folder `src/`.  The
    file's own package folders do not count (`src/__init__.py` for
    `src/clamp_kit.py` is the same package), nor a module beside a folder
    the file proves a regular package (`pkg.py` beside `pkg/__init__.py`:
    the package comes first)."""
    name = _module_name(other)
    if name is None:
        return False
    where, _, leaf = other.rpartition("/")
    package = leaf.startswith("__init__.")
    if package:
        where = where.rpartition("/")[0]  # a package lives in its parent folder
    above = path.split("/")[:-1]
    here = where.split("/") if where else []
    if len(here) >= len(above) or above[: len(here)] != here:
        return False  # not strictly above the file (its own folder: `shadows`)
    below = above[len(here) :]
    stem = path.rpartition("/")[2].removesuffix(".py")
    if name == below[0] and (package or (stem == "__init__" and len(below) == 1)):
        return False
    return name in {*below, stem} - {"__init__"}


def _module_name(path: str) -> str | None:
    """The top-level name a file is imported as from its own folder
    (`c` for `a/b/c.py`, `a/b/c/__init__.py` or `a/b/c.abi3.so`), or None."""
    folder, _, name = path.rpartition("/")
    if name.startswith("__init__."):
        name = folder.rpartition("/")[2]
        return name or None
    stem, dot, _ = name.partition(".")
    if not dot or not (name.endswith((".py", ".pyc", ".pyw")) or _extension(name[len(stem) :])):
        return None
    return stem


def shadows_from_tests(path: str, other: str, in_tests: Callable[[str], bool]) -> bool:
    """Whether a module at `other`, in a test folder (`in_tests`: the default
    test globs, folded), may replace the module `path` for the tests: pytest puts each
    test module's folder first on `sys.path` (its default import mode), so
    `tests/clamp_kit.py` is what `from clamp_kit import clamp` in
    `tests/test_clamp.py` imports.  `other` counts when it is named like any
    folder or the file of `path` (the name a test may import it by)."""
    name = _module_name(other)
    if name is None:
        return False
    return name in _import_names(path) and in_tests(other)


def _import_names(path: str) -> set[str]:
    """The top-level names the file `path` may be imported by: its stem and
    each folder on its way (`src`, `pkg`, `mod` for `src/pkg/mod.py`),
    whichever of its folders is on `sys.path`."""
    return {segment.removesuffix(".py") for segment in path.split("/")} - {"__init__"}


def versions(
    rule: Rule,
    changes: ChangeSet,
    *,
    promise: str,
    judge_gone: Collection[str] = (),
    python: bool = False,
) -> Versions | RuleResult:
    """The two versions of the file `rule` names, or the verdict when there
    is nothing to compare.  The one opening of every content rule:

    - untouched: passes;
    - gone (deleted, renamed away) and its change's status is not in
      `judge_gone`: fails, `"a.py" was deleted; <promise>`;
    - its text not given by the source: a gone file fails, `"a.py" was
      deleted and its text is not available; <promise>`, any other is
      `unavailable`;
    - else the versions, with no head text when the file is gone.

    With `python`, a file the change adds beside it that Python imports
    instead (`shadowed`: a package folder of the same name, an extension
    module) fails first, whether or not the file itself is touched.  Then
    a file that is not a regular file on either side (`type_change`: a
    symlink, a submodule, a folder) fails: its text is not what a checkout
    reads.
    """
    path = param_str(rule, "file")
    if python:
        found = shadowed(changes, path)
        if found is not None:
            shadow, where = found
            return result(
                rule,
                False,
                f"the change adds {quote(shadow)}, which Python imports instead of {quote(path)} "
                f"({where}); {promise}",
                paths=[shadow],
            )
    changed_type = type_change(changes, path)
    if changed_type is not None:
        why, touched = changed_type
        return result(
            rule,
            False,
            f"{quote(path)} {why}; the rule compares the texts of a regular file, so keep "
            f"{quote(path)} one on both sides",
            paths=touched,
        )
    state = file_state(changes, path)
    if state.change is None:
        return result(rule, True, f"{quote(path)} is untouched")
    change, gone = state.change, state.gone
    if gone is not None and change.status not in judge_gone:
        return result(rule, False, f"{quote(path)} was {gone}; {promise}", paths=change.touched)
    texts = changes.texts.get(path)
    if texts is None:
        if gone is None:
            return unavailable(rule, path, changes)
        message = f"{quote(path)} was {gone} and its text is not available; {promise}"
        return result(rule, False, message, paths=change.touched)
    return Versions(path, change, gone, texts.base, None if gone is not None else texts.head)


# --- Python: what each top-level statement binds ---

# Where a node is evaluated: the module itself, a function or lambda body, a
# class body, or a comprehension (whose `:=` binds in the nearest enclosing
# scope that is not a comprehension: the module, or not).
_MODULE, _FUNCTION, _CLASS, _COMP_IN_MODULE, _COMP_ELSEWHERE = range(5)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_COMPOUND: dict[type[ast.AST], str] = {
    ast.If: "if",
    ast.For: "for",
    ast.AsyncFor: "async for",
    ast.While: "while",
    ast.Try: "try",
    ast.With: "with",
    ast.AsyncWith: "async with",
    ast.Match: "match",
}
if hasattr(ast, "TryStar"):  # Python 3.11+
    _COMPOUND[ast.TryStar] = "try"
_KINDS: dict[type[ast.AST], str] = {
    ast.FunctionDef: "a `def`",
    ast.AsyncFunctionDef: "an `async def`",
    ast.ClassDef: "a `class`",
    ast.Assign: "an assignment",
    ast.AnnAssign: "an annotated assignment",
    ast.AugAssign: "an augmented assignment",
    ast.Delete: "`del`",
    ast.Import: "an import",
    ast.ImportFrom: "an import",
    ast.Expr: "an expression",
}


@dataclass(frozen=True)
class Statement:
    """One top-level statement of a Python module and the module-level names
    it touches when it runs.

    `first`/`last` are 1-based lines (`first` is the first decorator's line).
    `defines` are the symbols it defines: a `def`/`class` name, the targets
    of an assignment (`X = ...`, each name of `A, (B, *C) = ...`,
    `X: T = ...`).  `declares` are bare annotations (`X: T`).  `binds` are
    all names it binds, rebinds or deletes at module level (`defines`
    included; also `:=` anywhere outside a function body, imports, `del`,
    `for`/`with`/`except ... as`/`match` targets of top-level blocks).
    `mutates` are names whose object it changes through an attribute or
    item target (`helper.x = 1`).  `rebinders` are `(name, line)` of each
    `global name` in a function or class inside it: calling that function
    may rebind the name.  `star` is a `from m import *`, which may bind any
    name.  `reads` are the module names it reads while it runs.
    """

    first: int
    last: int
    kind: str
    defines: frozenset[str]
    declares: frozenset[str]
    binds: frozenset[str]
    mutates: frozenset[str]
    rebinders: tuple[tuple[str, int], ...]
    star: bool
    reads: frozenset[str]

    def touches(self) -> frozenset[str]:
        """Every module-level name the statement may bind, rebind, delete,
        annotate or change through an attribute or item, now or when a
        function in it runs (`*` for a star import)."""
        names = self.binds | self.declares | self.mutates | {n for n, _ in self.rebinders}
        return names | {"*"} if self.star else names


class NotPython(Exception):
    """A version of a file that content rules cannot read as Python."""

    def __init__(self, message: str, finding: Finding | None) -> None:
        super().__init__(message)
        self.message = message
        self.findings = (finding,) if finding is not None else ()


def module_statements(path: str, side: str, text: str | None) -> list[Statement]:
    """The top-level statements of one version of a Python file (none when
    the file is absent), parsed by Python from the file's bytes, so line
    numbers index `gate.text.lines` and a byte-order mark or a coding
    declaration is read as Python reads it.

    Raises `NotPython` (a rule failure) when the text is not Python, or
    declares an encoding under which Python's lines are not its bytes'
    (`gate.text.python_encoding_problem`: UTF-7, HZ), and
    `GateError` (cannot judge, exit 2, naming the file) when Python's parser
    runs out of stack or memory (deeply nested expressions: `((((...` or
    `a+a+...+a` by the hundred thousand): never a crash, never a verdict.
    """
    if text is None:
        return []
    return list(_statements(path, side, text))


# Kept: `gate lab` parses a file's base version once for all its patches,
# and keep_symbols and confine_to_symbols share each parse (two thirds of
# the lab's parses).  Statements are frozen; an error is not remembered.
@lru_cache(maxsize=16)
def _statements(path: str, side: str, text: str) -> tuple[Statement, ...]:
    try:
        data = encode(text)
        tree = ast.parse(data)
    except SyntaxError as exc:
        raise NotPython(*syntax_problem(path, side, exc)) from None
    except ValueError as exc:  # NUL bytes; a text no file decodes to
        raise NotPython(
            f"the {side} version of {quote(path)} is not Python source: {exc}", None
        ) from None
    except (RecursionError, MemoryError) as exc:
        raise GateError(
            f"the {side} version of {quote(path)} nests too deeply for Python's parser "
            f"({type(exc).__name__}): the gate cannot judge it, and Python cannot import "
            "it either; split the expression"
        ) from None
    encoding = python_encoding_problem(data)
    if encoding is not None:
        raise NotPython(
            f"the {side} version of {quote(path)} declares the source encoding {encoding}, "
            "under which Python's lines are not the lines of its bytes (a character that "
            "decodes to a line break, or a line break that decodes to nothing): the rule "
            "cannot tell which lines changed; save the file as UTF-8",
            None,
        )
    return tuple(_statement(node) for node in tree.body)


def both_statements(
    rule: Rule, found: Versions
) -> tuple[list[Statement], list[Statement]] | RuleResult:
    """The top-level statements of the base and the head version of a
    Python file, or the failing verdict that names the version that is not
    Python (`module_statements`)."""
    try:
        base = module_statements(found.path, "base", found.base)
        head = module_statements(found.path, "head", found.head)
    except NotPython as exc:
        return result(rule, False, exc.message, paths=[found.path], findings=exc.findings)
    return base, head


def syntax_problem(path: str, side: str, exc: SyntaxError) -> tuple[str, Finding]:
    """Message and finding for a version of `path` that is not Python."""
    line = exc.lineno
    where = f" at line {line}" if line is not None else ""
    detail = exc.msg or "invalid syntax"
    message = f"the {side} version of {quote(path)} does not parse as Python{where}: {detail}"
    return message, Finding(path=path, message=message, line=line if side == "head" else None)


def _target_names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        out: list[str] = []
        for elt in node.elts:
            out.extend(_target_names(elt))
        return out
    if isinstance(node, ast.Starred):
        return _target_names(node.value)
    return []  # attributes and subscripts bind no module-level name


def _defines(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {name for target in node.targets for name in _target_names(target)}
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return set(_target_names(node.target))
    alias = getattr(ast, "TypeAlias", None)  # `type X = ...`, Python 3.12+
    if alias is not None and isinstance(node, alias):
        return set(_target_names(node.name))
    return set()


def _root_name(node: ast.expr) -> str | None:
    """`helper` for `helper.x[0].y`; None when the chain starts elsewhere (`f().x`)."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _signature(args: ast.arguments) -> list[ast.expr]:
    """The parts of a signature evaluated where the function is defined."""
    out: list[ast.expr] = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every.extend(a for a in (args.vararg, args.kwarg) if a is not None)
    out.extend(a.annotation for a in every if a.annotation is not None)
    return out


def _children(node: ast.AST) -> list[ast.AST]:
    """The child nodes that can bind or read a name (not constants or contexts)."""
    out: list[ast.AST] = []
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            out.extend(v for v in value if isinstance(v, ast.AST) and type(v) not in _INERT)
        elif isinstance(value, ast.AST) and type(value) not in _INERT:
            out.append(value)
    return out


_INERT = {ast.Constant, ast.Load, ast.Store, ast.Del}
_SPECIAL = {
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    *_COMPREHENSIONS,
    ast.NamedExpr,
    ast.Global,
    ast.Name,
    ast.Import,
    ast.ImportFrom,
    ast.AnnAssign,
    ast.Attribute,
    ast.Subscript,
    ast.ExceptHandler,
    ast.MatchAs,
    ast.MatchStar,
    ast.MatchMapping,
}


def _statement(stmt: ast.stmt) -> Statement:
    """Walk one top-level statement (iteratively: any depth Python parsed)."""
    binds: set[str] = set()
    declares: set[str] = set()
    mutates: set[str] = set()
    reads: set[str] = set()
    rebinders: list[tuple[str, int]] = []
    star = False
    stack: list[tuple[ast.AST, int]] = [(stmt, _MODULE)]
    while stack:
        node, scope = stack.pop()
        if type(node) not in _SPECIAL:  # most nodes: just look inside
            stack.extend((n, scope) for n in _children(node))
            continue
        here = scope == _MODULE
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                if scope in (_MODULE, _COMP_IN_MODULE):
                    reads.add(node.id)
            elif here:
                binds.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if here:
                binds.add(node.name)
            outer: list[ast.AST] = [*node.decorator_list, *_signature(node.args)]
            if node.returns is not None:
                outer.append(node.returns)
            stack.extend((n, scope) for n in outer)
            stack.extend((n, _FUNCTION) for n in node.body)
        elif isinstance(node, ast.ClassDef):
            if here:
                binds.add(node.name)
            stack.extend((n, scope) for n in (*node.decorator_list, *node.bases))
            stack.extend((k.value, scope) for k in node.keywords)
            stack.extend((n, _CLASS) for n in node.body)
        elif isinstance(node, ast.Lambda):
            stack.extend((n, scope) for n in _signature(node.args))
            stack.append((node.body, _FUNCTION))
        elif isinstance(node, _COMPREHENSIONS):
            inner = _COMP_IN_MODULE if scope in (_MODULE, _COMP_IN_MODULE) else _COMP_ELSEWHERE
            gen0, *rest = node.generators
            stack.append((gen0.iter, scope))  # evaluated outside the comprehension
            parts: list[ast.AST] = [gen0.target, *gen0.ifs]
            for gen in rest:
                parts.extend((gen.target, gen.iter, *gen.ifs))
            if isinstance(node, ast.DictComp):
                parts.extend((node.key, node.value))
            else:
                parts.append(node.elt)
            stack.extend((n, inner) for n in parts)
        elif isinstance(node, ast.NamedExpr):
            if scope in (_MODULE, _COMP_IN_MODULE) and isinstance(node.target, ast.Name):
                binds.add(node.target.id)
            stack.append((node.value, scope))
        elif isinstance(node, ast.Global):
            if not here:
                rebinders.extend((name, node.lineno) for name in node.names)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if here:
                for alias in node.names:
                    if alias.name == "*":
                        star = True
                    else:
                        binds.add(alias.asname or alias.name.split(".")[0])
        elif (
            here
            and isinstance(node, ast.AnnAssign)
            and node.value is None
            and isinstance(node.target, ast.Name)
        ):
            declares.add(node.target.id)  # `X: T` annotates X but binds nothing
            stack.append((node.annotation, scope))
        else:
            if here:
                name = _pattern_name(node)
                if name is not None:
                    binds.add(name)
                if isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(
                    node.ctx, ast.Load
                ):
                    root = _root_name(node)
                    if root is not None:
                        mutates.add(root)
            stack.extend((n, scope) for n in _children(node))
    first = stmt.lineno
    decorators = getattr(stmt, "decorator_list", None)
    if decorators:
        first = min(first, *(d.lineno for d in decorators))
    last = stmt.end_lineno if stmt.end_lineno is not None else stmt.lineno
    compound = _COMPOUND.get(type(stmt))
    kind = f"a top-level `{compound}` statement" if compound else _KINDS.get(type(stmt), "")
    return Statement(
        first=first,
        last=last,
        kind=kind or f"a `{type(stmt).__name__.lower()}` statement",
        defines=frozenset(_defines(stmt)),
        declares=frozenset(declares),
        binds=frozenset(binds),
        mutates=frozenset(mutates),
        rebinders=tuple(sorted(rebinders, key=lambda r: (r[1], r[0]))),
        star=star,
        reads=frozenset(reads),
    )


def _pattern_name(node: ast.AST) -> str | None:
    """The name an `except ... as` clause or a `match` pattern binds, if any."""
    if isinstance(node, ast.ExceptHandler):
        return node.name
    if isinstance(node, (ast.MatchAs, ast.MatchStar)):
        return node.name
    if isinstance(node, ast.MatchMapping):
        return node.rest
    return None
