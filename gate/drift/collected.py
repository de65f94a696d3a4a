"""Which files a test runner collects as test modules by its default names
(`is_test_module`): the files `test_drift` judges case by case.  Another
file at a test path (a helper module, a data fixture, a snapshot) is
judged whole: existing tests may read every byte of it.  Paths are
matched in `gate.globs.FOLDED` mode, as the rule's test paths are: a
test in another letter case or Unicode normalization is a test."""

from __future__ import annotations

from gate import globs
from gate.drift.language import JS

# The files a test runner collects as test modules, by its default names
# (pytest's and unittest's `test*.py` and `*_test.py`, Jest's and Vitest's
# `*.test.*`, `*.spec.*` and `__tests__/`, Go's `*_test.go`, RSpec's
# `*_spec.rb`, which no module reads yet): only those are
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
    "**/*_spec.rb",
)
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
    if globs.matches(path, DATA_FOLDERS, mode):
        return False
    if globs.matches(path, TEST_MODULES, mode):
        return True
    return globs.matches(path, JS_TEST_MODULES, mode) and not globs.matches(path, JS_SUPPORT, mode)
