"""Well-formed images: whether a file's bytes are exactly the image its name
claims.  `max_lines` with `images: one` counts such a file one line per
version instead of every line of its bytes; anything else counts whole.

Well-formed means the bytes parse, start to end, as the format the name's
extension claims, with nothing after the format's end:

- PNG: the signature, then chunks (length, type, data, CRC, each CRC
  checked), IHDR first, an IDAT, and IEND ending the file;
- GIF: a GIF87a/GIF89a header and screen descriptor, then images and
  extensions walked block by block, an image among them, and the 0x3B
  trailer ending the file;
- JPEG: SOI, segments walked by their lengths, each scan's entropy-coded
  data read to the next marker, a scan among them, and EOI ending the file;
- WebP: a RIFF header whose size is the file's length less 8, the `WEBP`
  form, then chunks walked by their sizes to the end of the file, the first
  one `VP8 `, `VP8L` or `VP8X`.

The extension is matched case-insensitively (`Screenshot.PNG` claims PNG;
the bytes decide, not the case).  `.jpg` and `.jpeg` claim JPEG.  A
truncated file, bytes appended after the end (a polyglot's payload), a bad
CRC, or a format other than the one the name claims (a PNG named `.jpg`) is
not well-formed.  Bytes inside a well-formed image (a text chunk, a comment
segment) are the image's: this module reads structure, not pixels.

The one owner of telling a well-formed image from bytes that look like one —
owns `claims`, `well_formed`, `may_be`, `EXTENSIONS`, `LIMIT`.
"""

from __future__ import annotations

import posixpath
import re
import struct
import zlib

# The format each extension claims (matched after folding to lower case).
EXTENSIONS = {".png": "png", ".gif": "gif", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"}

# The first bytes of each format: a blob starting with none of them is no image.
MAGIC = (b"\x89PNG\r\n\x1a\n", b"GIF87a", b"GIF89a", b"\xff\xd8\xff", b"RIFF")
# How many first bytes `may_be` needs to tell.
HEAD = 12
# Bytes are read as an image up to this size; a bigger file counts whole.
LIMIT = 64 << 20

_PNG = MAGIC[0]
_U32 = struct.Struct(">I")
_U16 = struct.Struct(">H")
_LE32 = struct.Struct("<I")
# A JPEG marker inside entropy-coded data: 0xFF (fill bytes allowed) then a
# byte that is not a stuffed zero and not a restart marker (RST0-RST7).
_MARKER = re.compile(rb"\xff+[^\x00\xd0-\xd7\xff]")


def claims(path: str) -> str | None:
    """The image format `path`'s extension claims (`png`, `gif`, `jpeg`,
    `webp`), or None."""
    return EXTENSIONS.get(posixpath.splitext(path)[1].lower())


def may_be(head: bytes) -> bool:
    """Whether bytes starting with `head` (at least `HEAD` of them, or the
    whole file) could be an image: one of the formats' first bytes."""
    return head.startswith(MAGIC) and (head[:4] != b"RIFF" or head[8:12] == b"WEBP")


def well_formed(data: bytes) -> str | None:
    """The format `data` is a well-formed image of (`png`, `gif`, `jpeg`,
    `webp`), or None."""
    if len(data) > LIMIT:
        return None
    view = memoryview(data)
    if data.startswith(_PNG):
        return "png" if _png(data, view) else None
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif" if _gif(data) else None
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg" if _jpeg(data) else None
    if data.startswith(b"RIFF"):
        return "webp" if _webp(data) else None
    return None


def _png(data: bytes, view: memoryview) -> bool:
    at, end = len(_PNG), len(data)
    first, pixels = True, False
    while at + 12 <= end:
        length = _U32.unpack_from(data, at)[0]
        kind = data[at + 4 : at + 8]
        stop = at + 8 + length
        if length > 0x7FFFFFFF or stop + 4 > end or not kind.isalpha():
            return False
        if zlib.crc32(view[at + 4 : stop]) != _U32.unpack_from(data, stop)[0]:
            return False
        if first != (kind == b"IHDR") or (first and length != 13):
            return False
        first = False
        pixels = pixels or kind == b"IDAT"
        at = stop + 4
        if kind == b"IEND":
            return length == 0 and pixels and at == end
    return False


def _gif(data: bytes) -> bool:
    end = len(data)
    if end < 13:
        return False
    at = 13 + _table(data[10])
    pictures = 0
    while at < end:
        block = data[at]
        if block == 0x3B:  # the trailer
            return pictures > 0 and at + 1 == end
        if block == 0x2C:  # an image: descriptor, local table, LZW size, data
            if at + 10 > end:
                return False
            at += 10 + _table(data[at + 9])
            if at >= end or not 2 <= data[at] <= 11:
                return False
            at += 1
            pictures += 1
        elif block == 0x21:  # an extension: its label, then its data
            at += 2
        else:
            return False
        at = _sub_blocks(data, at)
        if at < 0:
            return False
    return False


def _table(packed: int) -> int:
    """The size of the colour table a GIF descriptor's packed byte declares."""
    return 3 << ((packed & 7) + 1) if packed & 0x80 else 0


def _sub_blocks(data: bytes, at: int) -> int:
    """The offset after the data sub-blocks starting at `at` (through the
    empty one that ends them), or -1 when the file ends first."""
    end = len(data)
    while at < end:
        size = data[at]
        at += 1 + size
        if size == 0:
            return at
    return -1


def _jpeg(data: bytes) -> bool:
    end = len(data)
    at, scans = 2, 0
    while at < end:
        if data[at] != 0xFF:
            return False
        while at < end and data[at] == 0xFF:  # fill bytes
            at += 1
        if at >= end:
            return False
        marker = data[at]
        if marker == 0xD9:  # EOI
            return scans > 0 and at + 1 == end
        if marker == 0xD8 or marker == 0x00 or 0xD0 <= marker <= 0xD7 or marker == 0x01:
            return False  # a second SOI, a stuffed zero or a lone marker between segments
        if at + 3 > end:
            return False
        length = _U16.unpack_from(data, at + 1)[0]
        stop = at + 1 + length
        if length < 2 or stop > end:
            return False
        at = stop
        if marker == 0xDA:  # SOS: entropy-coded data to the next marker
            scans += 1
            found = _MARKER.search(data, at)
            if found is None:
                return False
            at = found.end() - 2
    return False


def _webp(data: bytes) -> bool:
    end = len(data)
    if end < 20 or data[8:12] != b"WEBP" or _LE32.unpack_from(data, 4)[0] != end - 8:
        return False
    if data[12:16] not in (b"VP8 ", b"VP8L", b"VP8X"):
        return False
    at = 12
    while at < end:
        if at + 8 > end:
            return False
        size = _LE32.unpack_from(data, at + 4)[0]
        at += 8 + size + (size & 1)
    return at == end
