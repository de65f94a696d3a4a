"""Which files a test runner collects as test modules by its default names
(`is_test_module`) and by the base's root configuration (`pytest_collects`,
`js_collects`): the files `test_drift` judges case by case.  Another
file at a test path (a helper module, a data fixture, a snapshot) is
judged whole: existing tests may read every byte of it.  Paths are
matched in `gate.base.globs.FOLDED` mode, as the rule's test paths are: a
test in another letter case or Unicode normalization is a test."""

from __future__ import annotations

import configparser
import fnmatch
import functools
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from gate.base import globs
from gate.base.structured import Unreadable, json_object, toml
from gate.drift.growth import ROOT_CONFIGS, collection_globs
from gate.drift.language import JS

# The files a test runner collects as test modules, by its default names
# (pytest's and unittest's `test*.py` and `*_test.py`, Jest's and Vitest's
# `*.test.*`, `*.spec.*` and `__tests__/`, Go's `*_test.go`, Maven
# Surefire's `Test*.java`, `*Test.java`, `*Tests.java`, `*TestCase.java`,
# the `*Test.cs` and `*Tests.cs` of .NET test projects, Cargo's
# integration tests `tests/*.rs` and `tests/*/main.rs` with their module
# files named `mod.rs` (another `.rs` file under `tests/` may be a
# fixture a test compiles or reads, as trybuild's `tests/ui/*.rs`),
# the `*Test.kt`, `*Tests.kt` and `*TestCase.kt` of Kotlin test source sets
# (Gradle runs the test classes it finds there; the names are the
# convention the gate reads, as Surefire's for Java),
# RSpec's `*_spec.rb`, minitest's and Rails' `*_test.rb` and Rake's
# `test_*.rb`, but for a suite's `*_helper.rb`): only those are
# judged case by case.  Another file at a test path (a helper module, a
# data fixture, a snapshot; anything under a `testdata/` or `__snapshots__/`
# folder) is judged whole: existing tests may read every byte of it.
TEST_MODULES = (
    "**/test*.py",
    "**/*_test.py",
    "**/*.test.*",
    "**/*.spec.*",
    "**/__tests__/**",
    "**/*_test.go",
    "**/Test*.java",
    "**/*Test.java",
    "**/*Tests.java",
    "**/*TestCase.java",
    "**/*Test.cs",
    "**/*Tests.cs",
    "**/tests/*.rs",
    "**/tests/*/main.rs",
    "**/tests/**/mod.rs",
    "**/*Test.kt",
    "**/*Tests.kt",
    "**/*TestCase.kt",
    "**/*_spec.rb",
    "**/*_test.rb",
    "**/test_*.rb",
)
# Named like a test module, loaded by every one: minitest's and RSpec's
# helpers (`test/test_helper.rb`, `spec/spec_helper.rb`).
HELPER_MODULES = ("**/*_helper.rb",)
# JavaScript and TypeScript runners that collect by folder and by more
# names: node:test runs every `test/**/*.js` and `test.js`, `test-*.js`,
# `*-test.js`, `*_test.js` (and their `.ts` forms when Node strips types),
# AVA `test/**` and `tests/**`, Mocha `test/*.js`.  AVA leaves out the
# helper and fixture folders under those and files or folders whose name
# starts with `_`; so does the gate (`JS_SUPPORT`), which keeps them whole,
# as it does a data file: tests may read a fixture's bytes.  (Under
# `__tests__/` Jest collects every file, so `TEST_MODULES` names it whole.)
_JS_SUFFIXES = tuple(sorted(JS.suffixes))
JS_TEST_MODULES = tuple(
    f"{form}{s}"
    for form in (
        "**/test/**/*",
        "**/tests/**/*",
        "**/test",
        "**/test-*",
        "**/*-test",
        "**/*_test",
    )
    for s in _JS_SUFFIXES
)
JS_SUPPORT = (
    *(
        f"**/{top}/**/{name}/"
        for top in ("test", "tests")
        for name in ("helper", "helpers", "fixture", "fixtures")
    ),
    *("**/_*", "**/_*/"),
)
DATA_FOLDERS = ("**/testdata/", "**/__snapshots__/")


def is_test_module(path: str) -> bool:
    """Whether a runner collects `path` as a test module by its default
    names (`TEST_MODULES`, `JS_TEST_MODULES` but for `JS_SUPPORT`), outside
    the data folders: a file judged case by case."""
    mode = globs.FOLDED
    if globs.matches(path, DATA_FOLDERS, mode) or globs.matches(path, HELPER_MODULES, mode):
        return False
    if globs.matches(path, TEST_MODULES, mode):
        return True
    return globs.matches(path, JS_TEST_MODULES, mode) and not globs.matches(path, JS_SUPPORT, mode)


# --- What the repository's own pytest configuration collects -------------
#
# pytest reads its configuration from the first of these files at the
# rootdir that holds a pytest section (docs.pytest.org, "Configuration
# file formats"; pytest.ini and .pytest.ini count even when empty), and
# `python_files` there replaces the default `test_*.py *_test.py`.  The
# rule reads the BASE side of the root's files (`test_drift.TEXT_FILES`):
# a pull request that changes the configuration is runner drift already,
# and it never decides which of its own files are tests.
PYTEST_CONFIGS = (
    "pytest.toml",
    ".pytest.toml",
    "pytest.ini",
    ".pytest.ini",
    "pyproject.toml",
    "tox.ini",
    "setup.cfg",
)
# The names a `python_files` setting most often adds (Django's `tests.py`,
# `e2e_ops_tests.py`): their texts are read wherever they are, to judge
# them case by case.  A file the configuration collects under another name
# outside the test globs is judged whole: its text is not read.
CONFIGURED_NAMES = ("**/*tests.py",)
_INI_SECTIONS = {"pytest.ini": "pytest", ".pytest.ini": "pytest", "tox.ini": "pytest"}


@dataclass(frozen=True)
class Collects:
    """The Python test modules a base pytest configuration (`source`)
    collects by its `python_files` patterns, under its `testpaths` (none:
    anywhere).  Called with a path: whether pytest collects it."""

    source: str
    names: tuple[str, ...]
    under: tuple[str, ...] = ()

    def __call__(self, path: str) -> bool:
        if not path.casefold().endswith(".py") or globs.matches(path, DATA_FOLDERS, globs.FOLDED):
            return False
        if self.under and not any(_below(path, top) for top in self.under):
            return False
        return any(_pytest_match(path, pattern) for pattern in self.names)


def _below(path: str, top: str) -> bool:
    top = top.strip().removeprefix("./").rstrip("/").casefold()
    parts = path.casefold().split("/")
    if top in ("", "."):
        return True
    depth = top.count("/") + 1
    return len(parts) > depth and fnmatch.fnmatchcase("/".join(parts[:depth]), top)


def _pytest_match(path: str, pattern: str) -> bool:
    """pytest's `fnmatch_ex`: a pattern without a `/` matches the file's
    name, one with it the path's end; letter case folded (more tests,
    never fewer)."""
    pattern = pattern.casefold()
    if "/" not in pattern:
        return fnmatch.fnmatchcase(path.rsplit("/", 1)[-1].casefold(), pattern)
    return fnmatch.fnmatchcase("/" + path.casefold(), "*/" + pattern.lstrip("/"))


def _words(value: object) -> tuple[str, ...]:
    """An `args`/`linelist` ini value (TOML: a string or a list of strings) as words."""
    if isinstance(value, str):
        try:
            return tuple(shlex.split(value))
        except ValueError:
            return tuple(value.split())
    if isinstance(value, list):
        return tuple(w for v in value if isinstance(v, str) for w in _words(v))
    return ()


@functools.lru_cache(maxsize=8)
def _pytest_table(name: str, text: str) -> dict[str, object] | None:
    """The pytest settings of root file `name` (None: it holds no pytest
    section, so pytest looks at the next file); raises `Unreadable`.  The
    last texts' are kept, read only (`pytest_collects`): `gate backtest`
    asks of nearly the same `pyproject.toml` in every commit, and reading
    one of pydantic-ai's as TOML takes 2.4 ms."""
    if name.endswith(".toml"):
        data = toml(text)
        if name != "pyproject.toml":
            table = data.get("pytest", {})
            return table if isinstance(table, dict) else {}
        tool = data.get("tool", {})
        pytest = tool.get("pytest") if isinstance(tool, dict) else None
        if not isinstance(pytest, dict):
            return None
        legacy = pytest.get("ini_options")
        return {**pytest, **legacy} if isinstance(legacy, dict) else pytest
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        raise Unreadable(f"is not a valid INI file ({exc})") from None
    section = _INI_SECTIONS.get(name, "tool:pytest")
    if not parser.has_section(section):
        return {} if name in (".pytest.ini", "pytest.ini") else None
    return dict(parser.items(section))


def pytest_collects(base_texts: Mapping[str, str | None]) -> Collects | None:
    """What the base's root pytest configuration collects beyond the
    default names (`Collects`), from the base texts of `PYTEST_CONFIGS`
    (path -> text, None where absent); None when it sets no
    `python_files`, or when the file pytest would use cannot be read
    (pytest stops on such a file too): the default names then decide."""
    for name in PYTEST_CONFIGS:
        text = base_texts.get(name)
        if text is None:
            continue
        try:
            table = _pytest_table(name, text)
        except Unreadable:
            return None
        if table is None:
            continue
        names = _words(table.get("python_files"))
        if not names:
            return None
        return Collects(name, names, _words(table.get("testpaths")))
    return None


# --- What the repository's root Jest or Vitest configuration collects ----
#
# Vitest's `test.include` and Jest's `testMatch` replace the default names;
# their literal globs at base (`gate.drift.growth.collection_globs`, read
# from `growth.ROOT_CONFIGS`) name more test modules, judged case by case.
# Globs are read as micromatch reads them: `**`, `*`, `?`, `[...]` and
# `{a,b}`; a glob with an extglob (`?(x)`, `+(a|b)`, `!(x)`) is not used.
_GLOB_PART = re.compile(r"\*\*/|\*\*|\*|\?|\[[^\]/]*\]|[()+@!]|[^*?\[()+@!]+")


def _braces(pattern: str) -> list[str]:
    """`a.{js,ts}` as `a.js`, `a.ts` (no nesting: a nested brace is left and refused)."""
    match = re.search(r"\{([^{}]*)\}", pattern)
    if match is None:
        return [pattern]
    head, tail = pattern[: match.start()], pattern[match.end() :]
    return [x for part in match.group(1).split(",") for x in _braces(head + part + tail)]


def glob_regex(pattern: str) -> re.Pattern[str] | None:
    """micromatch's reading of `pattern` (relative to the root) as a
    regular expression over a path; None for syntax the gate does not read."""
    if "\\" in pattern:
        return None  # an escape: micromatch's, not read here
    out: list[str] = []
    for alternative in _braces(pattern):
        parts: list[str] = []
        pos = 0
        for m in _GLOB_PART.finditer(alternative):
            if m.start() != pos:
                return None
            pos = m.end()
            piece = m.group()
            if piece == "**/":
                parts.append("(?:[^/]+/)*")
            elif piece == "**":
                parts.append(".*")
            elif piece == "*":
                parts.append("[^/]*")
            elif piece == "?":
                parts.append("[^/]")
            elif piece.startswith("["):
                body = piece[1:-1]
                if body.startswith("!"):
                    body = "^" + body[1:]
                parts.append(f"[{body}]")
            elif piece in "()+@!" or "{" in piece or "}" in piece:
                return None
            else:
                parts.append(re.escape(piece))
        if pos != len(alternative):
            return None
        out.append("".join(parts))
    try:
        return re.compile("(?:" + "|".join(out) + r")\Z")
    except re.error:
        return None


@dataclass(frozen=True)
class JsCollects:
    """The JavaScript and TypeScript test modules a base root Jest or
    Vitest configuration (`source`) collects by its literal globs.  Called
    with a path: whether that runner collects it."""

    source: str
    patterns: tuple[re.Pattern[str], ...]

    def __call__(self, path: str) -> bool:
        if "." + path.rsplit(".", 1)[-1] not in JS.suffixes:
            return False
        if globs.matches(path, (*DATA_FOLDERS, "**/node_modules/"), globs.FOLDED):
            return False
        return any(p.match(path) for p in self.patterns)


def js_collects(base_texts: Mapping[str, str | None]) -> JsCollects | None:
    """What the base's root Jest or Vitest configuration collects by its
    literal `include`/`testMatch` (`JsCollects`), from the base texts of
    `growth.ROOT_CONFIGS` (path -> text, None where absent); None when none
    sets literal globs the gate reads: the default names decide."""
    for name in ROOT_CONFIGS:
        text = base_texts.get(name)
        if text is None:
            continue
        found = collection_globs(name, text)
        if not found:
            continue
        patterns = [glob_regex(g) for g in found]
        kept = tuple(p for p in patterns if p is not None)
        if kept:
            return JsCollects(name, kept)
    return None


# --- Files at a test path that no test reads ------------------------------
#
# A release tool rewrites a test package's `package.json` metadata and its
# `CHANGELOG.md`; prose beside the tests (`README*`, `CHANGELOG*`,
# `LICENSE*`) is written for people.  Other Markdown stays whole: a doctest
# file or a Markdown snapshot is what a test compares against, and so is
# anything under a data folder.
PACKAGE_METADATA = frozenset(
    {
        "version",
        "name",
        "description",
        "private",
        "repository",
        "author",
        "contributors",
        "license",
        "keywords",
        "homepage",
        "bugs",
        "funding",
    }
)
PROSE = ("**/README", "**/README.*", "**/CHANGELOG", "**/CHANGELOG.*", "**/LICENSE", "**/LICENSE.*")
_PROSE_SUFFIXES = ("", ".md", ".markdown", ".rst", ".txt", ".adoc")
_DATA_WORDS = frozenset(
    {"testdata", "__snapshots__", "snapshots", "fixture", "fixtures", "data", "expected", "golden"}
)


def in_data_folder(path: str) -> bool:
    """Whether a folder of `path` is named as test data is (`fixtures/`,
    `data/`, `expected/`, `golden/`, `testdata/`, `__snapshots__/`, ...),
    in any letter case: its files may be read as bytes, whatever they hold."""
    return bool({part.casefold() for part in path.split("/")[:-1]} & _DATA_WORDS)


def unread_edit(path: str, base: str, head: str) -> bool:
    """Whether the edit of `path`, a file at a test path that is no test
    module, from `base` to `head` changes nothing a test reads: a
    `package.json` whose keys but `PACKAGE_METADATA` are equal (its
    dependencies, scripts and runner keys decide how the tests run), or
    prose named `README*`, `CHANGELOG*`, `LICENSE*` (`.md`, `.rst`, `.txt`,
    `.adoc` or no suffix) outside a data folder (`fixtures/`, `testdata/`,
    `__snapshots__/`, ...)."""
    name = path.rsplit("/", 1)[-1]
    if name == "package.json":
        try:
            sides = [json_object(text) for text in (base, head)]
        except Unreadable:
            return False
        kept = [{k: v for k, v in side.items() if k not in PACKAGE_METADATA} for side in sides]
        return kept[0] == kept[1]
    stem, dot, ext = name.rpartition(".")
    ext = f".{ext}".casefold() if dot and stem else ""
    return (
        globs.matches(path, PROSE, globs.FOLDED)
        and ext in _PROSE_SUFFIXES
        and not in_data_folder(path)
    )


# pytest takes its configuration from the nearest pyproject.toml or
# setup.cfg at or above the common folder of its arguments: `pytest tests`
# reads `tests/pyproject.toml` before the root's, and since pytest 8.1 one
# without a pytest table becomes the configfile when no other exists.
# Below the root, such a file at a test path is test configuration as a
# whole (adding one is drift, as for a conftest.py): a test folder has no
# other use for it.
NESTED_CONFIG = ("**/pyproject.toml", "**/setup.cfg")
