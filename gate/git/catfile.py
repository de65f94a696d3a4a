"""Reading objects through one `git cat-file --batch -z` session (`_CatFile`):
blobs (whole, up to a size, or counted as they stream), tree objects and
their entries (`_tree_entries`), object types."""

from __future__ import annotations

import contextlib
import re
import subprocess
import tempfile
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

from gate.errors import GateError
from gate.git.conventions import _CHUNK, _first_line
from gate.paths import to_bytes

if TYPE_CHECKING:
    from gate.changes import LineCount
    from gate.git.repo import Repo

_HEADER = re.compile(rb"\A[0-9a-f]{40,64} (blob|tree|commit|tag) ([0-9]+)\n\Z")


def _chunks_of(stream: IO[bytes], size: int, oid: str) -> Iterator[bytes]:
    """The next `size` bytes of `stream` (blob `oid`), in chunks of at most
    `_CHUNK`; ValueError when it ends first."""
    left = size
    while left:
        chunk = stream.read(min(left, _CHUNK))
        if not chunk:
            raise ValueError(oid)
        left -= len(chunk)
        yield chunk


class _CatFile:
    """One `git cat-file --batch -z` process, asked one object at a time."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.proc: subprocess.Popen[bytes] | None = None
        self.err: IO[bytes] | None = None

    def __enter__(self) -> _CatFile:
        self.err = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                self.repo._argv(["cat-file", "--batch", "-z"]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.err,
                env=self.repo._env(),
            )
        except OSError as exc:
            self.err.close()
            raise self.repo._start_error(exc) from None
        return self

    def __exit__(self, *exc: object) -> None:
        proc = self.proc
        if proc is not None:
            assert proc.stdin is not None and proc.stdout is not None
            with contextlib.suppress(OSError):
                proc.stdin.close()
            proc.stdout.close()
            proc.wait()
        if self.err is not None:
            self.err.close()

    def _failure(self) -> GateError:
        assert self.proc is not None and self.err is not None
        self.proc.kill()
        self.proc.wait()
        self.err.seek(0)
        return GateError(f"git cat-file failed: {_first_line(self.err.read())}")

    def get(self, name: str) -> bytes | None:
        """The blob named `name` ("sha:path"); None when missing or not a blob."""
        found = self._request(name)
        if found is None or found[0] != "blob":
            return None
        return found[1]

    def get_upto(self, name: str, limit: int) -> bytes | int | None:
        """Like `get`, but a blob over `limit` bytes is not kept: its size
        instead (its content is read through in chunks, memory stays flat)."""
        found = self._request(name, limit)
        if found is None or found[0] != "blob":
            return None
        return found[1] if found[1] is not None else found[2]

    def tree(self, name: str) -> bytes | None:
        """The raw tree object named `name` ("sha:folder"); None when missing or not a tree."""
        found = self._request(name)
        if found is None or found[0] != "tree":
            return None
        return found[1]

    def kind(self, name: str) -> str | None:
        """The type of object `name` ("blob", "tree", "commit", "tag"), None when missing."""
        found = self._request(name, 0)
        return None if found is None else found[0]

    def count(self, oid: str, limit: int | None) -> LineCount | None:
        """The lines of blob `oid` (`gate.changes.line_count`), counted in
        chunks as it streams (memory stays flat); None for a blob over
        `limit` bytes, which is skipped.  GateError when it is missing."""
        from gate.changes import line_count

        found = self._header(oid)
        if found is None or found[0] != "blob":
            raise GateError(
                f"git cannot read blob {oid}: run git fsck, or fetch the missing objects"
            )
        size = found[1]
        if limit is not None and size > limit:
            self._skip(size)
            return None
        counted = line_count(self._chunks(size))
        assert self.proc is not None and self.proc.stdout is not None
        if self.proc.stdout.read(1) != b"\n":
            raise self._failure()
        return counted

    def _header(self, name: str) -> tuple[str, int] | None:
        """Ask for object `name`: (type, size) with its content next on
        stdout, or None when it is missing."""
        assert self.proc is not None
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        request = to_bytes(name)
        if b"\0" in request:
            return None  # git paths cannot contain NUL
        try:
            stdin.write(request + b"\0")
            stdin.flush()
        except OSError:
            raise self._failure() from None
        line = stdout.readline()
        if not line:
            raise self._failure()
        found = _HEADER.match(line)
        if found is None:
            # "<name> missing\n" (the name may itself contain newlines).
            expected = len(request) + len(b" missing\n")
            rest = expected - len(line)
            if rest > 0:
                line += stdout.read(rest)
            if not line.endswith((b" missing\n", b" ambiguous\n")):
                raise self._failure()
            return None
        return found.group(1).decode("ascii"), int(found.group(2))

    def _chunks(self, size: int) -> Iterator[bytes]:
        """The next `size` bytes of content, in chunks of at most `_CHUNK`."""
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        left = size
        while left:
            chunk = stdout.read(min(left, _CHUNK))
            if not chunk:
                raise self._failure()
            left -= len(chunk)
            yield chunk

    def _skip(self, size: int) -> None:
        """Read through `size` bytes of content and the newline after it."""
        assert self.proc is not None and self.proc.stdout is not None
        for _ in self._chunks(size):
            pass
        if self.proc.stdout.read(1) != b"\n":
            raise self._failure()

    def _request(self, name: str, limit: int | None = None) -> tuple[str, bytes | None, int] | None:
        """(type, content, size) of object `name`, None when missing; the
        content is None (skipped) when it is over `limit` bytes."""
        found = self._header(name)
        if found is None:
            return None
        kind, size = found
        if limit is not None and size > limit:
            self._skip(size)
            return kind, None, size
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        data = stdout.read(size)
        if len(data) != size or stdout.read(1) != b"\n":
            raise self._failure()
        return kind, data, size


def _tree_entries(data: bytes, hash_size: int) -> Iterator[tuple[bytes, bytes]]:
    """(mode, name) of each entry of a raw tree object: `MODE SP NAME NUL
    HASH` repeated, the hash `hash_size` bytes (20 SHA-1, 32 SHA-256)."""
    at = 0
    while at < len(data):
        space = data.index(b" ", at)
        nul = data.index(b"\0", space)
        yield data[at:space], data[space + 1 : nul]
        at = nul + 1 + hash_size
