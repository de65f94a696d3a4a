"""A `uv.lock` read table by table (`locks._package_tables`) is the
document `tomllib` reads whole, or the same refusal, for every text: real
lock shapes, and pieces cut where a `[[package]]` line sits inside a
string, an array or beside other top-level tables."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base.structured import Unreadable, toml
from gate.drift.locks import _package_tables

HEADER = 'version = 1\nrevision = 2\nrequires-python = ">=3.10"\n\n[options]\nexclude-newer = "x"\n'

# Pieces of a lock, each ending with a line break: tables as uv writes
# them, and the shapes a cut at `\n[[package]]` could misread.
PIECES = (
    '\n[[package]]\nname = "pytest"\nversion = "8.0.0"\n'
    'source = { registry = "https://pypi.org/simple" }\n'
    'wheels = [\n    { url = "https://x/pytest.whl", hash = "sha256:aa" },\n]\n',
    '\n[[package]]\nname = "anyio"\nversion = "4.0"\n\n[package.optional-dependencies]\n'
    'trio = [\n    { name = "trio" },\n]\n',
    '\n[[package]]\nname = "pytest"\nversion = "8.1.0"\n\n[package.metadata]\nrequires-dist = []\n',
    '\n[[package]]\nname = "a"\ndoc = """\n[[package]]\nname = "hidden"\n"""\n',
    "\n[[package]]\nname = 'b'\ndoc = '''\n[[package]]\nname = 'hidden'\n'''\n",
    '\n[[package]]\nname = "c"\nlist = [\n[[package]]\n]\n',
    '\n[metadata]\nlock-version = "2.0"\n',
    '\n[package]\nname = "table"\n',
    "\npackage = 1\n",
    '\n[[package]]\nname = "d"\nname = "twice"\n',
    '\n[[package]]\nname = "e"\n[package.metadata]\n[package.metadata]\n',
    '\n[[package]]\r\nname = "crlf"\r\n',
    '\n[[package]] # a comment\nname = "f"\n',
    '\n[[ package ]]\nname = "g"\n',
    '\n[[package]]\nname = "h"\n\n[[package.wheels]]\nurl = "u"\n',
    "\n# a comment\n",
    '\n[[package]]\nname = "i"\nx = "unterminated\n',
)


def _read(text: str, reader: Any) -> object:
    try:
        return reader(text)
    except Unreadable as exc:
        return f"Unreadable: {exc}"


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["", HEADER, HEADER + 'package = "x"\n', 'x = """\n']),
    st.lists(st.integers(0, len(PIECES) - 1), max_size=8),
)
def test_read_table_by_table_is_read_whole(header: str, picks: list[int]) -> None:
    text = header + "".join(PIECES[i] for i in picks)
    assert _read(text, _package_tables) == _read(text, toml), text


@pytest.mark.parametrize("piece", PIECES)
def test_a_table_kept_from_one_lock_reads_as_in_the_next(piece: str) -> None:
    first = HEADER + PIECES[0] + piece
    second = HEADER + piece + PIECES[1] + piece
    for text in (first, second, first):
        assert _read(text, _package_tables) == _read(text, toml), text
