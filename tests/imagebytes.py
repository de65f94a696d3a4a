"""Minimal well-formed images built byte by byte (zlib and struct only, no
image library), and their hostile twins: the test side's twin of
`gate.base.images`, with none of its code.

`IMAGES[fmt](seed)` is a small, real image of format `fmt` (`png`, `gif`,
`jpeg`, `webp`); a different `seed` gives different bytes (a different
pixel), so a "modified" image is a real change.  `twins(fmt, data)` are
the bytes that look like that image but are not exactly one: each must
count as any binary file does.

Import it as `from tests.imagebytes import IMAGES, twins`.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

# The extension each format is named with in the tests.
EXT = {"png": ".png", "gif": ".gif", "jpeg": ".jpg", "webp": ".webp"}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(seed: int = 0, *, extra: bytes = b"") -> bytes:
    """A 2x1 8-bit greyscale PNG; `extra` goes into a tEXt chunk (a big
    one makes a PNG over git's read chunk)."""
    ihdr = struct.pack(">IIBBBBB", 2, 1, 8, 0, 0, 0, 0)
    pixels = zlib.compress(bytes([0, seed & 0xFF, 0x10]))
    text = _chunk(b"tEXt", b"Comment\0" + extra) if extra else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + text
        + _chunk(b"IDAT", pixels)
        + _chunk(b"IEND", b"")
    )


def gif(seed: int = 0) -> bytes:
    """A 1x1 GIF89a with a two-colour global table, a comment extension (two
    lines of text) and a graphic control extension."""
    screen = struct.pack("<HHBBB", 1, 1, 0x80, 0, 0)
    table = bytes([seed & 0xFF, 0, 0, 0xFF, 0xFF, 0xFF])
    comment = b"\x21\xfe" + b"".join(bytes([len(t)]) + t for t in (b"made for\n", b"tests\n", b""))
    control = b"\x21\xf9\x04\x00\x00\x00\x00\x00"
    image = b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00"
    return b"GIF89a" + screen + table + comment + control + image + b"\x3b"


def jpeg(seed: int = 0) -> bytes:
    """A baseline JPEG's structure: SOI, APP0 (JFIF), DQT, SOF0, DHT, SOS,
    entropy-coded bytes with a stuffed 0xFF and a restart marker, EOI."""

    def segment(marker: int, body: bytes) -> bytes:
        return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body

    app0 = b"JFIF\0\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    dqt = b"\x00" + bytes(range(1, 65))
    sof = b"\x08\x00\x01\x00\x01\x01\x01\x11\x00"
    dht = b"\x00" + bytes([0, 1] + [0] * 14) + b"\x00"
    sos = b"\x01\x01\x00\x00\x3f\x00"
    scan = bytes([seed & 0x7F, 0xFF, 0x00, 0x12]) + b"\xff\xd0" + b"\x34\x56"
    return (
        b"\xff\xd8"
        + segment(0xE0, app0)
        + segment(0xDB, dqt)
        + segment(0xC0, sof)
        + segment(0xC4, dht)
        + segment(0xDA, sos)
        + scan
        + b"\xff\xd9"
    )


def webp(seed: int = 0) -> bytes:
    """A 1x1 lossless WebP (one `VP8L` chunk of odd size, padded)."""
    body = b"\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe" + bytes([seed & 0xFF])
    chunk = b"VP8L" + struct.pack("<I", len(body)) + body + b"\0" * (len(body) & 1)
    form = b"WEBP" + chunk
    return b"RIFF" + struct.pack("<I", len(form)) + form


IMAGES: dict[str, Callable[[int], bytes]] = {"png": png, "gif": gif, "jpeg": jpeg, "webp": webp}


def twins(fmt: str, data: bytes) -> dict[str, bytes]:
    """Bytes that start as `data` (a well-formed `fmt` image) does and are
    not one: a payload appended after its end (also one ending as the
    format ends), the file cut short, and one structure byte damaged."""
    end = {"png": png()[-12:], "gif": b"\x3b", "jpeg": b"\xff\xd9", "webp": b""}[fmt]
    out = {
        "appended": data + b"print('payload')\n",
        "appended ending as the format ends": data + b"payload\n" + end,
        "truncated": data[:-1],
        "cut in half": data[: len(data) // 2],
    }
    damaged = bytearray(data)
    if fmt == "png":
        damaged[len(png()) - 20] ^= 0x01  # inside IDAT's data: its CRC no longer matches
    elif fmt == "gif":
        damaged[-2] = 0x05  # the image's last sub-block no longer ends where the trailer starts
    elif fmt == "jpeg":
        damaged[2] = 0x00  # no marker after SOI
    else:
        damaged[4] ^= 0x02  # the RIFF size no longer matches the file
    out["damaged"] = bytes(damaged)
    return out
