"""gate.base.paths: one reversible text for path bytes, one to one display forms,
and the folds a case-insensitive checkout applies."""

from __future__ import annotations

import json
import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base import paths
from gate.base.escape import printable

PROPS = settings(max_examples=400, deadline=None)

# Bytes a path can hold (anything but NUL and "/"), leaning on the bytes that
# make UTF-8 invalid and on the characters the display forms escape.
PATH_BYTES = st.lists(
    st.one_of(
        st.integers(1, 255).filter(lambda b: b != 0x2F),
        st.sampled_from([0x5C, 0x78, 0x80, 0xC3, 0xA9, 0xFF, 0xFE, 0xE2, 0x0A]),
    ),
    max_size=12,
).map(bytes)


def unshown(text: str) -> bytes:
    """The inverse of `paths.shown`, written from its documentation: U+0000
    and two hex digits is that byte, every other character its UTF-8."""
    out = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "\0":
            assert text[i + 1] != "u", text  # a lone surrogate: JSON input only, not bytes
            out.append(int(text[i + 1 : i + 3], 16))
            i += 3
            continue
        out += text[i].encode("utf-8")
        i += 1
    return bytes(out)


def unprintable(text: str) -> bytes:
    """The inverse of `gate.base.escape.printable` for path text, from its documentation."""
    named = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        kind = text[i + 1]
        if kind in named:
            out += named[kind].encode()
            i += 2
        elif kind == "x":
            code = int(text[i + 2 : i + 4], 16)
            out += bytes([code]) if code >= 0x80 else chr(code).encode()
            i += 4
        else:
            width = 4 if kind == "u" else 8
            out += chr(int(text[i + 2 : i + 2 + width], 16)).encode("utf-8")
            i += 2 + width
    return bytes(out)


@PROPS
@given(PATH_BYTES)
def test_bytes_to_text_and_back(raw: bytes) -> None:
    text = paths.from_bytes(raw)
    assert paths.to_bytes(text) == raw
    assert "\ufffd" not in text or "\ufffd".encode() in raw


@PROPS
@given(PATH_BYTES, PATH_BYTES)
def test_different_paths_never_collapse(a: bytes, b: bytes) -> None:
    ta, tb = paths.from_bytes(a), paths.from_bytes(b)
    if a != b:
        assert ta != tb
        assert paths.shown(ta) != paths.shown(tb)
        assert printable(ta) != printable(tb)
        assert paths.quoted(ta) != paths.quoted(tb)


@PROPS
@given(PATH_BYTES)
def test_shown_and_printable_read_back_and_are_valid_utf8(raw: bytes) -> None:
    text = paths.from_bytes(raw)
    for form in (paths.shown(text), printable(text), paths.quoted(text)):
        form.encode("utf-8")  # strict: no lone surrogate survives
        assert "\ufffd" not in form or "\ufffd".encode() in raw
    assert unshown(paths.shown(text)) == raw
    assert unprintable(printable(text)) == raw
    assert "\n" not in printable(text)


def test_shown_examples() -> None:
    assert paths.shown("src/a.py") == "src/a.py"
    assert paths.shown(paths.from_bytes(b"caf\xe9")) == "caf\0e9"
    assert paths.shown("caf\\xe9") == "caf\\xe9"  # a real name, exactly as it is
    assert paths.shown("a\\b") == "a\\b"
    assert paths.shown("\0e9") == "\x0000e9"  # U+0000 (JSON input only) is escaped too
    assert paths.shown("\ud800") == "\0ud800"  # a lone surrogate that stands for no byte
    for text in ("caf\udce9", "\0e9", "\ud800", "a\\b"):
        assert paths.from_shown(paths.shown(text)) == text
    assert printable(paths.from_bytes(b"caf\xe9")) == "caf\\xe9"
    assert printable("caf\\xe9") == "caf\\\\xe9"
    assert printable("\x85") == "\\u0085"  # a character, not the byte 0x85


@PROPS
@given(st.text(max_size=20))
def test_json_of_any_message_is_valid_utf8(text: str) -> None:
    source = paths.visible(json.dumps({"m": text}, ensure_ascii=False), json_source=True)
    source.encode("utf-8")
    assert json.loads(source)["m"] == paths.visible(text)


NAME = st.text(alphabet="abcsèéÉßKıİ._ -", min_size=1, max_size=10)


def variants(draw: st.DrawFn, text: str) -> str:
    """`text` as a case-insensitive, normalizing checkout would accept it."""
    flipped = "".join(c.swapcase() if draw(st.booleans()) else c for c in text)
    form = draw(st.sampled_from(["NFC", "NFD"]))
    return unicodedata.normalize(form, flipped)


@PROPS
@given(st.data(), NAME)
def test_case_and_normalization_variants_fold_alike(data: st.DataObject, name: str) -> None:
    other = variants(data.draw, name)
    assert paths.fold(other) == paths.fold(name)
    assert paths.fold_names(other) == paths.fold_names(name)


@PROPS
@given(NAME, st.text(alphabet=". ", min_size=1, max_size=3))
def test_trailing_dots_and_spaces_fold_away(name: str, tail: str) -> None:
    if re.search(r"[^. ]", name):
        assert paths.fold_names(name + tail) == paths.fold_names(name)
        assert paths.fold_names(name + tail + "/x") == paths.fold_names(name + "/x")
        assert paths.fold_names(name + tail, partial=True).endswith(tail)


@PROPS
@given(st.lists(NAME, min_size=1, max_size=4).map("/".join), st.booleans())
def test_fold_names_trims_every_name_each_time(path: str, partial: bool) -> None:
    """Whatever shortcut `fold_names` takes, it equals its definition: each
    folded name without its trailing dots and spaces (the last kept as is
    with `partial`), a name of dots and spaces alone kept; `folds` agrees."""
    names = paths.fold(path).split("/")
    last = names.pop() if partial else None
    trimmed = [name.rstrip(". ") or name for name in names]
    expected = "/".join(trimmed if last is None else [*trimmed, last])
    assert paths.fold_names(path, partial=partial) == expected
    assert paths.folds(path) == (paths.fold(path), paths.fold_names(path))


def test_fold_examples() -> None:
    assert paths.fold("Secrets/KEY.pem") == "secrets/key.pem"
    assert paths.fold("caf\u00e9") == paths.fold("CAFE\u0301")
    assert paths.fold("stra\u00dfe") == paths.fold("STRASSE")
    assert paths.fold("\u212a") == "k"  # the Kelvin sign
    assert paths.fold("\u0131") == "i"  # NTFS upper-cases dotless i to I
    assert paths.fold_names("secrets./key") == "secrets/key"
    assert paths.fold_names("a/.../b") == "a/.../b"  # a name of dots alone is kept


_HFS_IGNORED = [
    chr(c)
    for r in ((0x200C, 0x200F), (0x202A, 0x202E), (0x206A, 0x206F), (0xFEFF, 0xFEFF))
    for c in range(r[0], r[1] + 1)
]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["secrets/key", "S\u00e9crets/Key.pem", ".github/workflows/ci.yml"]),
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(_HFS_IGNORED)), min_size=1, max_size=4),
)
def test_code_points_hfs_ignores_fold_away(path: str, inserts: list[tuple[int, str]]) -> None:
    """HFS+ leaves joiners and direction marks out of a name (git's
    core.protectHFS list), so `sec` U+200C `rets/key` opens `secrets/key`
    there: it folds alike, and a forbidding glob or prefix catches it."""
    from gate.base import globs
    from gate.model.change import ChangeSet, FileChange
    from gate.model.rubric import Rule
    from gate.rules import forbidden_path

    variant = path
    for at, ch in inserts:
        at = min(at, len(variant))
        variant = variant[:at] + ch + variant[at:]
    assert paths.fold(variant) == paths.fold(path)
    top = path.split("/")[0]
    rule = Rule("F", "forbidden_path", {"prefix": top + "/"})
    assert not forbidden_path.check(rule, ChangeSet(files=(FileChange(variant),))).passed
    assert globs.matches(variant, [top + "/"], globs.REACH)
    assert globs.matches(variant, [top[:2] + "?" + top[3:] + "/**"], globs.REACH)


@PROPS
@given(PATH_BYTES)
def test_annotation_paths_are_exact_for_utf8_and_never_carry_nul(raw: bytes) -> None:
    from gate.action.publish import annotation_path

    text = paths.from_bytes(raw)
    shown_path = annotation_path(text)
    assert "\0" not in shown_path
    try:
        assert shown_path == raw.decode("utf-8")
    except UnicodeDecodeError:
        assert unprintable(shown_path) == raw
