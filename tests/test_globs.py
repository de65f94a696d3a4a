"""gate.globs: CODEOWNERS / gitignore-style matching, as the SPEC and the module docstring say."""

from __future__ import annotations

import pytest

from gate import globs

CASES = [
    # (pattern, path, matches)
    # a pattern without "/" matches at any depth
    ("*.py", "a.py", True),
    ("*.py", "pkg/deep/a.py", True),
    ("*.py", "a.pyc", False),
    ("*.py", "a.py.txt", False),
    ("clamp_kit.py", "clamp_kit.py", True),
    ("clamp_kit.py", "pkg/clamp_kit.py", True),
    ("clamp_kit.py", "xclamp_kit.py", False),
    # `*` and `?` stay inside one segment
    ("src/*.py", "src/a.py", True),
    ("src/*.py", "src/x/a.py", False),
    ("docs/*", "docs/a.md", True),
    ("docs/*", "docs/x/a.md", False),
    ("docs/*", "docs", False),
    ("?", "a", True),
    ("?", "ab", False),
    ("?", "x/a", True),
    ("a?c", "a/c", False),
    ("*", "anything/at/all", True),
    # `**` crosses segments
    ("**/x", "x", True),
    ("**/x", "a/b/x", True),
    ("**/x", "a/xx", False),
    ("a/**", "a/b", True),
    ("a/**", "a/b/c", True),
    ("a/**", "a", False),
    ("a/**", "ab/c", False),
    ("a/**/b", "a/b", True),
    ("a/**/b", "a/x/y/b", True),
    ("a/**/b", "a/x/b/c", True),
    ("a/**/b", "ab", False),
    ("**", "x/y/z", True),
    ("**/*.test.*", "web/app.test.ts", True),
    ("**/*.test.*", "web/apptest.ts", False),
    # anchoring: a leading or inner "/" anchors to the root
    ("/docs", "docs/a.md", True),
    ("/docs", "x/docs/a.md", False),
    ("a/b", "a/b", True),
    ("a/b", "x/a/b", False),
    ("/a.py", "a.py", True),
    ("/a.py", "pkg/a.py", False),
    # trailing "/": a directory and everything under it
    ("docs/", "docs/a.md", True),
    ("docs/", "docs/x/y.md", True),
    ("docs/", "x/docs/a.md", True),
    ("docs/", "docs", False),
    ("docs/", "docsx/a", False),
    ("/docs/", "x/docs/a", False),
    ("src/docs/", "src/docs/a", True),
    ("src/docs/", "x/src/docs/a", False),
    # a plain last segment also matches a directory of that name
    ("docs", "docs", True),
    ("docs", "docs/a.md", True),
    ("docs", "x/docs/a.md", True),
    ("docs", "docsx", False),
    ("a/b", "a/b/c/d", True),
    # character classes
    ("[abc].py", "a.py", True),
    ("[abc].py", "d.py", False),
    ("[!a].py", "b.py", True),
    ("[!a].py", "a.py", False),
    ("[^a].py", "a.py", False),
    ("x[0-9]", "x7", True),
    ("x[0-9]", "xa", False),
    ("[/]", "a/b", False),
    # regex metacharacters are literal; backslash escapes a wildcard
    ("a+b.py", "a+b.py", True),
    ("a+b.py", "aab.py", False),
    ("a.py", "axpy", False),
    ("(x)|y", "(x)|y", True),
    ("(x)|y", "y", False),
    ("\\*.py", "*.py", True),
    ("\\*.py", "a.py", False),
    # case-sensitive
    ("Docs/", "docs/a", False),
    ("*.PY", "a.py", False),
    # hostile names: newlines are not line boundaries, spaces/unicode/dashes are plain
    ("a.py", "x\na.py", False),
    ("a.py", "a.py\n", False),
    ("a.py", "a.py\nb", False),
    ("*.py", "a\nb.py", True),
    ("src/*", "src/a\nb", True),
    ("src/*", "src/a\n../x", False),
    ("dir with space/", "dir with space/f\tg", True),
    ("é/*", "é/ü.txt", True),
    ("*.txt", "日本/語.txt", True),
    ("-*", "-rf", True),
    ("::error::*", "::error::x", True),
    ("<b>", "<b>", True),
    # "/" alone matches nothing
    ("/", "a", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), CASES)
def test_matches(pattern: str, path: str, expected: bool) -> None:
    assert globs.matches(path, [pattern]) is expected


def test_any_of_several_patterns() -> None:
    assert globs.matches("b/x", ["a/", "b/"])
    assert not globs.matches("c/x", ["a/", "b/"])


def test_no_patterns_match_nothing() -> None:
    assert not globs.matches("a", [])
    assert globs.matching(["a", "b"], []) == []


def test_matching_keeps_input_order() -> None:
    paths = ["z.py", "a.md", "m.py", "b.py"]
    assert globs.matching(paths, ["*.py"]) == ["z.py", "m.py", "b.py"]


@pytest.mark.parametrize(
    ("pattern", "fragment"),
    [
        ("", "empty pattern"),
        ("/", "empty pattern"),
        ("//", "empty pattern"),
        ("!secrets/", "negation"),
    ],
)
def test_pattern_error(pattern: str, fragment: str) -> None:
    error = globs.pattern_error(pattern)
    assert error is not None and fragment in error


@pytest.mark.parametrize("pattern", ["*.py", "docs/", "/a/**/b", "[abc]", "a[", "\\!x"])
def test_usable_patterns_have_no_error(pattern: str) -> None:
    assert globs.pattern_error(pattern) is None


def test_unclosed_class_is_literal() -> None:
    assert globs.matches("a[", ["a["])
    assert not globs.matches("ab", ["a["])


def test_primed_verdicts_equal_fresh_ones(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from gate import globs

    patterns = ["tests/", "**/test_*.py", "/build"]
    paths = ["tests/a.py", "x/test_b.py", "build/o", "src/build/o", "src/a.py"]
    fresh = [globs.matches(p, patterns) for p in paths]
    globs.prime([patterns], paths)
    assert [globs.matcher(patterns)(p) for p in paths] == fresh
    assert globs.matching(paths, patterns) == ["tests/a.py", "x/test_b.py", "build/o"]


def test_memo_is_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from gate import globs

    monkeypatch.setattr(globs, "_MEMO_LIMIT", 10)
    globs.prime([["*.py"]], [f"f{i}.py" for i in range(50)])
    globs.matcher(["*.py"])  # a new matcher past the limit starts afresh
    assert sum(len(m) for m in globs._MEMO.values()) == 0
    assert globs.matcher(["*.py"])("z.py") is True


def test_class_members_are_literal_not_regex_set_operations() -> None:
    """`[[]`, `&&`, `~~`, `||` inside a class are members, never regex syntax
    (CPython warns that they may become set operations)."""
    from gate import globs

    assert globs.matches("[x", ["[[]x"])
    assert globs.matches("&", ["[a&&b]"])
    assert globs.matches("~", ["[a~~b]"])
    assert globs.matches("|", ["[a||b]"])
    assert not globs.matches("c", ["[a&&b]"])
    assert globs.matches("m", ["[a-z]"])
