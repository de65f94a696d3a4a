"""gate.base.escape: hostile PR text stays inert in text, markdown and HTML."""

from __future__ import annotations

import re

import pytest

from gate.base.escape import ZERO_WIDTH_JOINER, html, markdown_code, markdown_text, printable

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "a|b",
    "x`y",
    "``triple```",
    "`leading",
    "trailing`",
    "@everyone",
    "cc @octo-org/admins please",
    "line1\nline2",
    "tab\there",
    "cr\rhere",
    "::error::x",
    "##[error]x",
    "[link](https://evil.invalid)",
    "![img](https://evil.invalid/x.png)",
    "**bold** _em_ ~~del~~ $x^2$",
    "&amp; &#64; &lt;",
    "back\\slash",
    "nul\x00byte",
    "bidi\u202eevil",
    "line\u2028sep",
    "# heading",
    "- item",
    " spaced ",
    "ünïcødé ✓ 文件.py",
    "",
]


@pytest.mark.parametrize("s", HOSTILE)
def test_printable_is_one_visible_line(s: str) -> None:
    out = printable(s)
    assert "\n" not in out and "\r" not in out
    assert all(ch == " " or ch.isprintable() for ch in out)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\nb", "a\\nb"),
        ("a\tb", "a\\tb"),
        ("a\rb", "a\\rb"),
        ("a\\b", "a\\\\b"),
        ("a\x00b", "a\\x00b"),
        ("a\x1bb", "a\\x1bb"),
        ("a\u202eb", "a\\u202eb"),
        ("a\u2028b", "a\\u2028b"),
        ("plain/path.py", "plain/path.py"),
        ("ünï ✓.py", "ünï ✓.py"),
    ],
)
def test_printable_repr_style(raw: str, shown: str) -> None:
    assert printable(raw) == shown


def test_printable_is_unambiguous() -> None:
    # A real newline and a literal backslash-n must not look the same.
    assert printable("a\nb") != printable("a\\nb")


def _unescaped(text: str, ch: str) -> list[int]:
    """Positions of `ch` not preceded by an odd run of backslashes."""
    hits = []
    for i, c in enumerate(text):
        if c != ch:
            continue
        run = 0
        j = i - 1
        while j >= 0 and text[j] == "\\":
            run += 1
            j -= 1
        if run % 2 == 0:
            hits.append(i)
    return hits


@pytest.mark.parametrize("s", HOSTILE)
def test_markdown_text_is_inert(s: str) -> None:
    out = markdown_text(s)
    assert "\n" not in out and "\r" not in out
    assert "<" not in out and ">" not in out
    for special in "|`*_[]~$":
        assert not _unescaped(out, special), (special, out)
    # every & starts one of our own entities
    assert re.fullmatch(r"(?:[^&]|&(?:amp|lt|gt);)*", out)
    # no @ directly followed by a name character: no mention, no team mention
    assert not re.search(r"@[A-Za-z0-9]", out)


def test_markdown_text_mentions_broken_with_zero_width_joiner() -> None:
    assert markdown_text("@everyone") == "@" + ZERO_WIDTH_JOINER + "everyone"


def test_markdown_text_newline_rendered_visibly() -> None:
    # "\\\\n" in markdown source renders as the two characters "\n"
    assert markdown_text("a\nb") == "a\\\\nb"


def _code_span(out: str) -> tuple[str, str]:
    m = re.fullmatch(r"(`+)(.*?)(`+)", out, flags=re.S)
    assert m is not None, out
    assert m.group(1) == m.group(3)
    return m.group(1), m.group(2)


@pytest.mark.parametrize("s", [h for h in HOSTILE if h])
def test_markdown_code_cannot_break_out(s: str) -> None:
    fence, body = _code_span(markdown_code(s))
    assert "\n" not in body and "\r" not in body
    # the body never contains a backtick run as long as the fence
    runs = [len(r) for r in re.findall(r"`+", body)]
    assert all(n != len(fence) for n in runs)
    # CommonMark strips one space each side when both are present: it must
    # give back exactly the printable text
    if body.startswith(" ") and body.endswith(" ") and body.strip(" "):
        body = body[1:-1]
    assert body == printable(s)


def test_markdown_code_fence_longer_than_any_run() -> None:
    assert markdown_code("a``b") == "```a``b```"
    assert markdown_code("`x") == "`` `x ``"


def test_markdown_code_table_escapes_pipe() -> None:
    assert markdown_code("a|b", table=True) == "`a\\|b`"
    assert markdown_code("a|b") == "`a|b`"


def test_markdown_code_empty_falls_back_to_text() -> None:
    assert "`" not in markdown_code("")


@pytest.mark.parametrize("s", HOSTILE)
def test_html_is_inert(s: str) -> None:
    out = html(s)
    for ch in "<>\"'\n":
        assert ch not in out
    assert not re.search(r"@[A-Za-z0-9]", out)
    assert re.fullmatch(r"(?:[^&]|&(?:amp|lt|gt|quot|#x27);)*", out)


def test_html_exact() -> None:
    assert html('<a href="x">') == "&lt;a href=&quot;x&quot;&gt;"


@pytest.mark.parametrize(
    ("raw", "md"),
    [
        ("blast-radius", "blast-radius"),
        ("- item", "\\- item"),
        ("+ item", "\\+ item"),
        ("# heading", "\\# heading"),
        ("1. first", "1\\. first"),
        ("12) first", "12\\) first"),
        ("a.b-c#d", "a.b-c#d"),
        ("https://evil.invalid", "https:\u200d//evil.invalid"),
        ("see www.evil.invalid", "see www\u200d.evil.invalid"),
    ],
)
def test_markdown_text_blocks_and_autolinks(raw: str, md: str) -> None:
    assert markdown_text(raw) == md
