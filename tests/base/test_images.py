"""gate.base.images: a well-formed image is exactly the format its name's
extension claims, start to end; anything that only looks like one is not."""

from __future__ import annotations

import struct
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.base.images import LIMIT, claims, may_be, well_formed
from tests.imagebytes import EXT, IMAGES, png, twins

FORMATS = sorted(IMAGES)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_minimal_image_is_well_formed_and_its_name_claims_it(fmt: str) -> None:
    data = IMAGES[fmt](1)
    assert well_formed(data) == fmt
    assert may_be(data[:12])
    assert claims("docs/a" + EXT[fmt]) == fmt


@pytest.mark.parametrize(
    ("path", "claimed"),
    [
        ("a.png", "png"),
        ("Shot.PNG", "png"),  # case-insensitive: the bytes decide
        ("x/y.Jpeg", "jpeg"),
        ("y.jpg", "jpeg"),
        ("z.gif", "gif"),
        ("w.webp", "webp"),
        ("logo.svg", None),  # SVG is text
        ("a.png.py", None),
        ("png", None),
        (".png", None),  # a dot file named .png: no extension
        ("dir.png/file", None),
    ],
)
def test_claims(path: str, claimed: str | None) -> None:
    assert claims(path) == claimed


@pytest.mark.parametrize("fmt", FORMATS)
def test_hostile_twins_are_not_well_formed(fmt: str) -> None:
    for label, data in twins(fmt, IMAGES[fmt](1)).items():
        assert well_formed(data) is None, label


@given(fmt=st.sampled_from(FORMATS), seed=st.integers(0, 255), cut=st.integers(1, 400))
def test_every_cut_of_an_image_is_not_one(fmt: str, seed: int, cut: int) -> None:
    data = IMAGES[fmt](seed)
    assert well_formed(data[: max(len(data) - cut, 0)]) is None


@given(fmt=st.sampled_from(FORMATS), seed=st.integers(0, 255), tail=st.binary(min_size=1))
def test_any_bytes_after_an_image_s_end_make_it_not_one(fmt: str, seed: int, tail: bytes) -> None:
    assert well_formed(IMAGES[fmt](seed) + tail) is None


@given(fmt=st.sampled_from(FORMATS), at=st.integers(0, 10_000), bit=st.integers(0, 7))
def test_a_flipped_bit_never_makes_another_format(fmt: str, at: int, bit: int) -> None:
    """Damage either breaks the image or leaves it an image of its own format."""
    data = bytearray(IMAGES[fmt](1))
    data[at % len(data)] ^= 1 << bit
    assert well_formed(bytes(data)) in (None, fmt)


@given(at=st.integers(8, 200), bit=st.integers(0, 7))
def test_any_flipped_bit_in_a_png_breaks_it(at: int, bit: int) -> None:
    """Every PNG chunk is CRC-checked: one flipped bit past the signature is caught."""
    data = bytearray(png(1))
    data[at % len(data)] ^= 1 << bit
    assert well_formed(bytes(data)) is None


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def test_a_png_needs_ihdr_first_an_idat_and_iend_last() -> None:
    sig, good = b"\x89PNG\r\n\x1a\n", png(1)
    ihdr, rest = good[8:33], good[33:]
    assert well_formed(sig + ihdr + rest) == "png"
    assert well_formed(sig + rest) is None  # no IHDR
    assert well_formed(sig + ihdr + _chunk(b"IEND", b"")) is None  # no IDAT
    assert well_formed(sig + ihdr + rest[:-12] + _chunk(b"IEND", b"x")) is None  # IEND with data
    assert well_formed(sig + ihdr + rest + _chunk(b"tEXt", b"a\0b")) is None  # a chunk after IEND


def test_a_gif_s_structure_is_walked() -> None:
    data = IMAGES["gif"](1)
    assert well_formed(data.replace(b"\x2c", b"\x2d", 1)) is None  # an unknown block
    no_picture = data[: data.index(b"\x2c")] + b"\x3b"
    assert well_formed(no_picture) is None


def test_a_jpeg_walks_segments_and_scans() -> None:
    data = IMAGES["jpeg"](1)
    assert well_formed(data[:2] + data[-2:]) is None  # SOI EOI: no scan
    # a second image after the first one's EOI (two JPEGs glued)
    assert well_formed(data + data) is None
    # a segment whose length runs past the end
    assert well_formed(b"\xff\xd8\xff\xe0\xff\xff" + b"\0" * 10 + b"\xff\xd9") is None


def test_webp_sizes_must_add_up() -> None:
    data = IMAGES["webp"](1)
    assert well_formed(data.replace(b"WEBP", b"WAVE")) is None
    assert well_formed(data.replace(b"VP8L", b"ABCD")) is None  # not an image's first chunk
    assert well_formed(data + b"\0\0\0\0\0\0\0\0") is None


def test_an_image_over_the_limit_is_not_read() -> None:
    """Over `LIMIT` bytes a file counts whole, however well-formed."""
    big = png(1, extra=b"x" * LIMIT)
    assert len(big) > LIMIT
    assert well_formed(big) is None
    assert well_formed(png(1, extra=b"x" * (LIMIT - 200))) == "png"


def test_a_riff_that_is_not_webp_may_not_be_an_image() -> None:
    assert not may_be(b"RIFF\0\0\0\0WAVE")
    assert may_be(IMAGES["webp"](1)[:12])
