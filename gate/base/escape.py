"""Echo untrusted text (paths, branch names, messages) without letting it act.

Everything a pull request controls is hostile: a file name can carry a
newline (to forge a report line), `<img onerror=...>` (HTML), a backtick
(to break out of a code span), `|` (to break a table cell) or `@everyone`
(to notify people).  These helpers make such text inert for each place the
gate writes it.  Workflow-command escaping (`::error::`, `##[...]`) lives
with the Action shell in `gate/github/`.

All functions are pure and deterministic.
"""

from __future__ import annotations

import re

from gate.base.paths import is_raw_byte, raw_byte_escape

__all__ = ["html", "markdown_code", "markdown_text", "printable"]

# Invisible but breaks GitHub's mention and team-mention syntax (`@name`).
ZERO_WIDTH_JOINER = "\u200d"

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\\": "\\\\"}

# ASCII punctuation that means something to CommonMark, GFM or GitHub's
# renderer anywhere inline: code spans, emphasis, links and images (`[`),
# table cells, strikethrough, math (`$`).  `<`, `>` and `&` become entities
# instead, so no HTML tag or entity can form.
_MD_BACKSLASH = frozenset("\\`*_[]|~$")
_MD_ENTITY = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# Inside an HTML element or a quoted attribute, the quotes too (a `str.translate` table).
_HTML_ENTITY = str.maketrans({**_MD_ENTITY, '"': "&quot;", "'": "&#x27;"})
# At the start of the text these open a block (list, heading, ordered list).
_MD_LEADING = re.compile(r"\A(?:[-+#=]|(\d+)[.)])")
# GFM turns bare URLs and www. names into links; a joiner keeps them text.
_AUTOLINK = re.compile(r"(:)(//)|\b([wW]{3})(\.)")

_BACKTICK_RUN = re.compile(r"`+")


def _escape_char(ch: str) -> str:
    named = _NAMED.get(ch)
    if named is not None:
        return named
    if is_raw_byte(ch):
        return raw_byte_escape(ch)  # a path byte that is not UTF-8: \xNN
    code = ord(ch)
    if code < 0x80:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(s: str) -> str:
    """One line of visible text, repr-style: `\\n`, `\\t`, `\\r`, `\\\\`,
    `\\xNN` for other ASCII control characters and for a path byte that is
    not UTF-8 (see `gate.base.paths`), and `\\uNNNN` for other invisible or
    line-breaking code points (U+0085, U+2028, bidi overrides, zero-width
    ...).  One to one: two different strings never print alike.

    Used for every path or message echoed in text output, so that a file
    named "a\\nPASS F1" cannot forge a report line.  Printable unicode and
    the plain space are kept as they are.
    """
    if s.isprintable() and "\\" not in s:
        return s
    return "".join(
        ch if ch == " " or (ch.isprintable() and ch != "\\") else _escape_char(ch) for ch in s
    )


def _break_mentions(s: str) -> str:
    return s.replace("@", "@" + ZERO_WIDTH_JOINER)


def markdown_text(s: str) -> str:
    """Text for markdown (a table cell, a list item, a heading) that renders
    as `printable(s)` and cannot start HTML, an entity, a link (nor a bare
    URL autolink), emphasis, a code span, math, a table cell or a block
    (list, heading), nor `@`-mention anyone.  Invisible joiners are the only
    characters added.
    """
    out = []
    for ch in printable(s):
        if ch in _MD_ENTITY:
            out.append(_MD_ENTITY[ch])
        elif ch in _MD_BACKSLASH:
            out.append("\\" + ch)
        else:
            out.append(ch)
    text = _AUTOLINK.sub(_join, "".join(out))
    lead = _MD_LEADING.match(text)
    if lead:
        at = lead.end() - 1
        text = text[:at] + "\\" + text[at:]
    return _break_mentions(text)


def _join(m: re.Match[str]) -> str:
    if m.group(1):
        return m.group(1) + ZERO_WIDTH_JOINER + m.group(2)
    return m.group(3) + ZERO_WIDTH_JOINER + m.group(4)


def markdown_code(s: str, *, table: bool = False) -> str:
    """`s` as an inline code span that renders as `printable(s)`.

    The fence is one backtick longer than the longest backtick run inside,
    padded with a space where CommonMark would otherwise eat or merge one.
    Inside a code span nothing is HTML, a link or a mention.  With
    `table=True`, `|` is escaped as GFM requires inside a table cell.
    An empty string falls back to the escaped text `""`.
    """
    text = printable(s)
    if not text:
        return markdown_text('""')
    if table:
        text = text.replace("|", "\\|")
    longest = max((len(m.group(0)) for m in _BACKTICK_RUN.finditer(text)), default=0)
    fence = "`" * (longest + 1)
    all_spaces = text.strip(" ") == ""
    needs_pad = not all_spaces and (
        text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" "))
    )
    if needs_pad:
        text = f" {text} "
    return f"{fence}{text}{fence}"


def html(s: str) -> str:
    """Text for inside an HTML element or a quoted attribute: `& < > " '`
    become entities, control characters are shown as escapes, and `@`
    mentions are broken (GitHub resolves mentions after decoding HTML)."""
    return _break_mentions(printable(s).translate(_HTML_ENTITY))
