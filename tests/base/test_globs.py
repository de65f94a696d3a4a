"""gate.base.globs: CODEOWNERS / gitignore-style matching, as the SPEC and the
module docstring say."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base import globs

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


# Paths and patterns from names that fold together or apart: letter case,
# Unicode forms, trailing dots and spaces, wildcards.
FORMS = st.lists(
    st.sampled_from(
        ["a", "A", "a.", "a ", "b", "*", "**", "?", "\u00e9", "E\u0301", "\u00df", "SS"]
    ),
    min_size=1,
    max_size=4,
).map("/".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(FORMS, min_size=1, max_size=3), FORMS, st.sampled_from(globs.MODES))
def test_matcher_tries_each_view_of_the_path(patterns: list[str], path: str, mode: str) -> None:
    """A matcher's verdict is "some view of the path (as written, folded,
    names trimmed) matches the patterns seen through that view": its
    shortcuts (a view tried already, a fold done once) change nothing."""
    if any(globs.pattern_error(p) for p in patterns):
        return
    exact = mode in (globs.EXACT, globs.NAMES)
    views = globs._VIEWS.items() if not exact else [("exact", lambda p: p)]
    expected = any(
        globs._compile(tuple(patterns), name, mode == globs.REACH, mode == globs.NAMES).match(
            view(path)
        )
        is not None
        for name, view in views
    )
    assert globs.matcher(patterns, mode)(path) is expected
    assert globs.matches(path, patterns, mode) is expected
    assert globs.matching([path], patterns, mode) == ([path] if expected else [])


def test_class_members_are_literal_not_regex_set_operations() -> None:
    """`[[]`, `&&`, `~~`, `||` inside a class are members, never regex syntax
    (CPython warns that they may become set operations)."""
    from gate.base import globs

    assert globs.matches("[x", ["[[]x"])
    assert globs.matches("&", ["[a&&b]"])
    assert globs.matches("~", ["[a~~b]"])
    assert globs.matches("|", ["[a||b]"])
    assert not globs.matches("c", ["[a&&b]"])
    assert globs.matches("m", ["[a-z]"])


# --- a reference implementation, written from the module docstring ---------


def _char_tokens(seg: str) -> list[tuple[str, object]]:
    """("*", None), ("?", None), ("class", (negate, members)) or ("lit", ch)."""
    out: list[tuple[str, object]] = []
    i = 0
    while i < len(seg):
        c = seg[i]
        if c in "*?":
            out.append((c, None))
        elif c == "[":
            start = i + 2 if seg[i + 1 : i + 2] in ("!", "^", "]") else i + 1
            end = seg.find("]", start)
            if end == -1:
                out.append(("lit", c))
            else:
                body = seg[i + 1 : end]
                negate = body[:1] in ("!", "^")
                body = body[negate:]
                members: list[tuple[str, str]] = []
                j = 0
                while j < len(body):
                    if j + 2 < len(body) and body[j + 1] == "-":
                        members.append((body[j], body[j + 2]))
                        j += 3
                    else:
                        members.append((body[j], body[j]))
                        j += 1
                out.append(("class", (negate, members)))
                i = end
        elif c == "\\" and i + 1 < len(seg):
            i += 1
            out.append(("lit", seg[i]))
        else:
            out.append(("lit", c))
        i += 1
    return out


def _segment_matches(tokens: list[tuple[str, object]], name: str) -> bool:
    @functools.cache
    def go(t: int, n: int) -> bool:
        if t == len(tokens):
            return n == len(name)
        kind, value = tokens[t]
        if kind == "*":
            return any(go(t + 1, k) for k in range(n, len(name) + 1))
        if n == len(name):
            return False
        ch = name[n]
        if kind == "?":
            ok = True
        elif kind == "lit":
            ok = ch == value
        else:
            negate, members = value  # type: ignore[misc]
            inside = any(lo <= ch <= hi for lo, hi in members)
            ok = inside != negate
        return ok and go(t + 1, n + 1)

    return go(0, 0)


def reference(pattern: str, path: str) -> bool:
    """CODEOWNERS matching over whole segments, by plain recursion."""
    dir_only = pattern.endswith("/")
    body = pattern.rstrip("/")
    anchored = body.startswith("/") or "/" in body
    segs = [s for s in body.lstrip("/").split("/") if s]
    if not segs:
        return False
    plain_tail = not dir_only and not any(c in segs[-1] for c in "*?[")
    if not anchored:
        segs = ["**", *segs]
    names = path.split("/")

    @functools.cache
    def go(p: int, n: int) -> bool:
        if p == len(segs):
            rest = len(names) - n
            if dir_only:
                return rest >= 1
            return rest == 0 or (plain_tail and rest >= 1)
        if segs[p] == "**":
            last = p == len(segs) - 1
            start = n + 1 if last else n  # a final `**` is at least one name
            return any(go(p + 1, k) for k in range(start, len(names) + 1))
        if n == len(names) or not _segment_matches(_char_tokens(segs[p]), names[n]):
            return False
        return go(p + 1, n + 1)

    return go(0, 0)


GLOB = st.lists(
    st.sampled_from(["a", "b", "ab", "*", "?", "**", "[ab]", "[!a]", "[a-c]", "\\*", "."]),
    min_size=1,
    max_size=4,
).map("/".join)
GLOB_PATTERN = st.tuples(st.booleans(), GLOB, st.booleans()).map(
    lambda t: ("/" if t[0] else "") + t[1] + ("/" if t[2] else "")
)
NAME_PATH = st.lists(st.text(alphabet="ab.*c", min_size=1, max_size=4), min_size=1, max_size=5).map(
    "/".join
)


@settings(max_examples=600, deadline=None)
@given(GLOB_PATTERN, NAME_PATH)
def test_matching_agrees_with_a_plain_recursive_reference(pattern: str, path: str) -> None:
    assert globs.pattern_error(pattern) is None
    assert globs.matches(path, [pattern]) is reference(pattern, path)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("a/" * 100_000 + "x", False),
        ("a/" * 100_000 + "tests/x", True),
        ("a/" * 100_000 + "__tests__/x.js", True),
        (".test." * 50_000 + "/x", False),
        (".test." * 50_000, True),
        (".spec" * 60_000 + "/z", False),
        ("__tests__x/" * 30_000 + "y", False),
        ("a" * 300_000, False),
        ("test_/" * 50_000 + "x.py", False),
    ],
)
def test_a_path_of_hundreds_of_thousands_of_characters_gets_its_verdict(
    path: str, expected: bool
) -> None:
    """Some of these took minutes when a pattern's regex nested quantifiers
    (bench/bench_hostile.py measures the time); here only verdicts are checked."""
    from gate.model.rubric import DEFAULT_TESTS

    assert globs.matches(path, DEFAULT_TESTS) is expected
    assert globs.matches(path, DEFAULT_TESTS, globs.REACH) is expected


# --- modes -------------------------------------------------------------------

REACH_CASES = [
    # (pattern, path, EXACT, FOLDED, REACH)
    ("secrets/", "secrets/k", True, True, True),
    ("secrets/", "Secrets/k", False, True, True),
    ("secrets/", "a/SECRETS/k", False, True, True),
    ("secrets/", "secrets", False, False, True),  # the directory itself
    ("secrets/", "x/Secrets", False, False, True),
    ("secrets/", "secrets./k", False, True, True),  # Windows drops the dot
    ("secrets/", "secretsx/k", False, False, False),
    ("config/prod/", "config", False, False, True),  # a directory above
    ("config/prod/", "CONFIG/prod", False, False, True),
    ("config/prod/", "x/config", False, False, False),  # anchored
    ("config/prod.yml", "config", False, False, True),
    ("a/**/b/", "a/x/b", False, False, True),
    ("a/**/b/", "a/x", False, False, False),  # `a/**` would name everything below
    ("*.pem", "KEY.PEM", False, True, True),
    ("*.pem", "key.pem.", False, True, True),
    ("caf\u00e9/", "CAFE\u0301/menu", False, True, True),
    ("sécrets/", "SE\u0301CRETS/x", False, True, True),
    ("docs/", "src/a.py", False, False, False),
]


@pytest.mark.parametrize(("pattern", "path", "exact", "folded", "reach"), REACH_CASES)
def test_modes(pattern: str, path: str, exact: bool, folded: bool, reach: bool) -> None:
    assert globs.matches(path, [pattern]) is exact
    assert globs.matches(path, [pattern], globs.FOLDED) is folded
    assert globs.matches(path, [pattern], globs.REACH) is reach
    assert globs.matcher([pattern], globs.REACH)(path) is reach


@settings(max_examples=300, deadline=None)
@given(GLOB_PATTERN, NAME_PATH, st.data())
def test_wider_modes_never_match_less(pattern: str, path: str, data: st.DataObject) -> None:
    variant = "".join(c.swapcase() if data.draw(st.booleans()) else c for c in path)
    exact = globs.matches(path, [pattern])
    folded = globs.matches(variant, [pattern], globs.FOLDED)
    assert not exact or folded
    assert not folded or globs.matches(variant, [pattern], globs.REACH)


def test_parents() -> None:
    assert globs.parents("secrets/") == ["secrets"]
    assert globs.parents("/a/b/") == ["/a", "/a/b"]
    assert globs.parents("a/b/") == ["/a", "a/b"]
    assert globs.parents("a/*/c.txt") == ["/a", "a/*"]
    assert globs.parents("**/x/") == ["**/x"]
    assert globs.parents("*.pem") == []
    assert globs.parents("docs") == []


def test_unknown_mode_is_a_bug() -> None:
    with pytest.raises(ValueError):
        globs.matches("a", ["a"], "loose")


# Pieces of a segment, each with texts it matches as written: literals in
# several scripts and forms, `?`, `*` and classes (plain, negated, ranges).
_ANY_CHAR = ["a", "Z", "\u00e9", "\u00c9", "\u00df", "\ufb01", "\ud55c", "\u0390", "k", "."]
_PIECES: list[tuple[str, list[str]]] = [
    ("a", ["a"]),
    ("S", ["S"]),
    ("\u00e9", ["\u00e9"]),
    ("\u00c9", ["\u00c9"]),
    ("e\u0301", ["e\u0301"]),
    ("\u00df", ["\u00df"]),
    ("\ufb01", ["\ufb01"]),
    ("\ud55c", ["\ud55c"]),
    ("?", _ANY_CHAR),
    ("*", ["", "a\u00e9", "\u00df\u00df", "x"]),
    ("[\u00e9]", ["\u00e9"]),
    ("[\u00c9x]", ["\u00c9", "x"]),
    ("[!a]", [c for c in _ANY_CHAR if c != "a"]),
    ("[a-z\u00e9]", ["q", "\u00e9"]),
    ("[\u00e0-\u00fa]", ["\u00e0", "\u00e9", "\u00f3"]),
    ("[\u00df]", ["\u00df"]),
    ("[A-C]", ["B"]),
    ("[\ud55c]", ["\ud55c"]),
]


@st.composite
def _pattern_and_path(draw: st.DrawFn) -> tuple[str, str]:
    pattern_segments: list[str] = []
    path_segments: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.integers(0, 5)) == 0:
            pattern_segments.append("**")
            path_segments += draw(st.lists(st.sampled_from(["d", "\u00c9t\u00e9"]), max_size=2))
            continue
        pieces = draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4))
        pattern_segments.append("".join(text for text, _ in pieces))
        path_segments.append("".join(draw(st.sampled_from(texts)) for _, texts in pieces))
    if pattern_segments[-1] == "**":
        pattern_segments.append("f")
        path_segments.append("f")
    pattern = "/".join(pattern_segments)
    if draw(st.booleans()):
        pattern += "/"
        path_segments.append("x")
    return pattern, "/".join(s for s in path_segments)


def _respell(path: str, how: str) -> str:
    import unicodedata

    if how in ("NFC", "NFD"):
        return unicodedata.normalize(how, path)
    return str(getattr(path, how)())


@settings(max_examples=400, deadline=None)
@given(
    _pattern_and_path(),
    st.lists(st.sampled_from(["NFC", "NFD", "upper", "lower", "casefold", "swapcase"]), max_size=3),
)
def test_a_forbidding_match_holds_in_every_case_and_normalization(
    pattern_and_path: tuple[str, str], respellings: list[str]
) -> None:
    """Whatever a glob matches as written (brackets, `?`, `*`, `**`,
    literals in any script), FOLDED and REACH match every spelling a
    case-insensitive or normalizing file system files under the same key
    (`gate.base.paths.fold`): `s[é]crets/` catches `sécrets` in NFD, `stra?e/`
    catches `STRASSE` for `straße`.  EXACT, which allow-lists use, is never
    widened: it matches a respelled path exactly when the plain reference
    does."""
    from gate.base.paths import fold

    pattern, path = pattern_and_path
    assert globs.pattern_error(pattern) is None
    if "" in path.split("/"):
        return  # a `*` that matched nothing left a segment empty
    assert reference(pattern, path), (pattern, path)
    variant = path
    for how in respellings:
        variant = _respell(variant, how)
    if fold(variant) != fold(path):
        return  # a respelling some file system files elsewhere
    assert globs.matches(variant, [pattern], globs.FOLDED), (pattern, path, variant)
    assert globs.matches(variant, [pattern], globs.REACH), (pattern, path, variant)
    assert globs.matches(variant, [pattern], globs.EXACT) is reference(pattern, variant)


def test_every_characters_fold_is_a_unit_a_folded_question_mark_matches() -> None:
    """`gate.base.paths.fold_units` scans only the Basic Multilingual Plane for
    folds longer than a character plus marks; every code point agrees."""
    import re

    from gate.base.paths import fold

    unit = re.compile(globs._unit() + r"\Z")
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF or code == 0x2F or fold(chr(code)) == "":
            continue  # surrogates, the separator, what HFS+ ignores (folded away)
        assert unit.match(fold(chr(code))), hex(code)


@pytest.mark.parametrize("mode", globs.MODES)
def test_a_remembered_answer_stays_right_when_the_memory_fills(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A matcher remembers its answer per path and drops its memory whole
    # when it is full: every answer, before and after a drop, and asked
    # again, is the answer of the expression itself.
    monkeypatch.setattr(globs, "_REMEMBERED", 7)
    patterns = [f"tests/**/case_{mode}_*.py"]
    paths = [
        f"{'tests' if i % 3 else 'src'}/d{i}/case_{mode}_{i}.{'py' if i % 2 else 'js'}"
        for i in range(40)
    ]
    predicate = globs.matcher(patterns, mode)
    for _ in range(3):
        for path in [*paths, *reversed(paths)]:
            expected = path.startswith("tests/") and path.endswith(".py")
            assert predicate(path) is expected, path


def test_any_of_is_the_union_of_its_tests() -> None:
    tests = [globs.matcher(["a/**"]), globs.matcher(["**/*.py"], globs.FOLDED)]
    union = globs.any_of(*tests)
    joined = globs.matcher(["a/**", "**/*.py"], globs.FOLDED)
    for path in ("a/x.txt", "b/x.py", "b/X.PY", "b/x.txt", "A/x.txt", "x.py"):
        assert union(path) is any(t(path) for t in tests), path
        assert union(path) is joined(path) or path.startswith("A/"), path
    assert not globs.any_of()("a/x")


NAME_PATTERNS = st.sampled_from(["yarn.lock", "*.snap", "src/x.py", "/LICENSE", "a/**/b", "b[c]d"])


@given(NAME_PATTERNS, st.sampled_from(["", "a/", "a/b/"]), st.sampled_from(["e.py", "c/e.py"]))
def test_a_name_never_opens_a_folder_in_names_mode(pattern: str, folder: str, tail: str) -> None:
    """NAMES: a pattern that does not end in `/` or `**` matches what it
    names (as EXACT does) and never a path under such a name."""
    name = {"*.snap": "x.snap", "/LICENSE": "LICENSE", "a/**/b": "a/q/b", "b[c]d": "bcd"}.get(
        pattern, pattern
    )
    if pattern.startswith("/") or "/" in pattern.rstrip("/"):
        folder = ""
    path = f"{folder}{name}"
    assert globs.matches(path, [pattern], globs.NAMES) is globs.matches(path, [pattern])
    assert globs.matches(path, [pattern], globs.NAMES)
    assert not globs.matches(f"{path}/{tail}", [pattern], globs.NAMES)


@pytest.mark.parametrize("pattern", ["docs/", "docs/**", "**/docs/", "x/**"])
def test_a_folder_pattern_reaches_under_its_folder_in_names_mode(pattern: str) -> None:
    path = "x/a.py" if pattern == "x/**" else "docs/a/b.md"
    assert globs.matches(path, [pattern], globs.NAMES)
