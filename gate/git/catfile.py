"""Reading objects through one `git cat-file --batch -z` session (`CatFile`):
blobs (whole, up to a size, or counted as they stream), tree objects and
their entries (`tree_object_entries`), object types; and the session's two
`git diff-tree --stdin` processes (`DiffTrees`), which answer a thread's
diffs in `gate lab` and `gate backtest`."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING, Literal, overload

from gate.base.errors import GateError
from gate.base.paths import to_bytes
from gate.git.conventions import (
    CHUNK,
    COPIES_FLAGS,
    MAIN_DIFF,
    MAIN_FLAGS,
    UNREADABLE,
    first_line,
)

if TYPE_CHECKING:
    from gate.git.runner import Runner
    from gate.model.change import LineCount

# The header `git cat-file --batch` writes before an object: name, type, size.
BATCH_HEADER = re.compile(rb"\A[0-9a-f]{40,64} (blob|tree|commit|tag) ([0-9]+)\n\Z")


def chunks_of(stream: IO[bytes], size: int, oid: str) -> Iterator[bytes]:
    """The next `size` bytes of `stream` (blob `oid`), in chunks of at most
    `CHUNK`; ValueError when it ends first."""
    left = size
    while left:
        chunk = stream.read(min(left, CHUNK))
        if not chunk:
            raise ValueError(oid)
        left -= len(chunk)
        yield chunk


class CatFile:
    """One `git cat-file --batch -z` process, asked one object at a time."""

    def __init__(self, repo: Runner) -> None:
        self.repo = repo
        self.proc: subprocess.Popen[bytes] | None = None
        self.err: IO[bytes] | None = None
        self._diffs: DiffTrees | None = None
        self.present: set[str] = set()  # full names `has` found

    def diffs(self) -> DiffTrees:
        """The session's `git diff-tree --stdin` processes (started on first use)."""
        if self._diffs is None:
            self._diffs = DiffTrees(self)
        return self._diffs

    def tree_of(self, name: str) -> str | None:
        """The full name of the tree `name` (a commit or a tree) points to;
        None when there is none."""
        found = self._header(f"{name}^{{tree}}", oid=True)
        if found is None or found[0] != "tree":
            return None
        self._skip(found[1])
        return found[2]

    def __enter__(self) -> CatFile:
        self.err = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                self.repo.argv(["cat-file", "--batch", "-z"]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.err,
                env=self.repo.env(),
            )
        except OSError as exc:
            self.err.close()
            raise self.repo.start_error(exc) from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._diffs is not None:
            self._diffs.close()
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
        return GateError(f"git cat-file failed: {first_line(self.err.read())}")

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

    def heads(self, names: Sequence[str], size: int) -> Iterator[bytes | None]:
        """The first `size` bytes of each blob of `names`, in order (the rest
        read through, memory stays flat); None where one is missing or no
        blob.  A thread writes the requests while the answers are read, so
        neither side waits on the other's full pipe."""
        assert self.proc is not None
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        requests = [to_bytes(name) for name in names]
        sent = [r for r in requests if b"\0" not in r]  # git paths cannot contain NUL

        def feed() -> None:
            with contextlib.suppress(OSError):  # the reader then names the failure
                for request in sent:
                    stdin.write(request + b"\0")
                stdin.flush()

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        try:
            for request in requests:
                found = None if b"\0" in request else self._answer(request)
                if found is None:
                    yield None
                    continue
                kind, total = found[0], found[1]
                data = stdout.read(min(size, total))
                if len(data) != min(size, total):
                    raise self._failure()
                self._skip(total - len(data))
                yield data if kind == "blob" else None
        finally:
            writer.join()

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

    def has(self, sha: str) -> bool:
        """Whether object `sha` (a full name) can be read; asked once per
        session: objects stay once found."""
        if sha in self.present:
            return True
        if self.kind(sha) is None:
            return False
        self.present.add(sha)
        return True

    def count(self, oid: str, limit: int | None) -> LineCount | None:
        """The lines of blob `oid` (`gate.model.change.line_count`), counted in
        chunks as it streams (memory stays flat); None for a blob over
        `limit` bytes, which is skipped.  GateError when it is missing."""
        from gate.model.change import line_count

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

    @overload
    def _header(self, name: str) -> tuple[str, int] | None: ...
    @overload
    def _header(self, name: str, *, oid: Literal[True]) -> tuple[str, int, str] | None: ...

    def _header(
        self, name: str, *, oid: bool = False
    ) -> tuple[str, int] | tuple[str, int, str] | None:
        """Ask for object `name`: (type, size) with its content next on
        stdout, or None when it is missing; with `oid`, its full name too."""
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
        return self._answer(request, oid=oid)

    def _answer(
        self, request: bytes, *, oid: bool = False
    ) -> tuple[str, int] | tuple[str, int, str] | None:
        """Read the answer to `request` (sent already), as `_header` returns it."""
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        line = stdout.readline()
        if not line:
            raise self._failure()
        found = BATCH_HEADER.match(line)
        if found is None:
            # "<name> missing\n" (the name may itself contain newlines).
            expected = len(request) + len(b" missing\n")
            rest = expected - len(line)
            if rest > 0:
                line += stdout.read(rest)
            if not line.endswith((b" missing\n", b" ambiguous\n")):
                raise self._failure()
            return None
        if oid:
            return (
                found.group(1).decode("ascii"),
                int(found.group(2)),
                line.split(b" ", 1)[0].decode("ascii"),
            )
        return found.group(1).decode("ascii"), int(found.group(2))

    def _chunks(self, size: int) -> Iterator[bytes]:
        """The next `size` bytes of content, in chunks of at most `CHUNK`."""
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        left = size
        while left:
            chunk = stdout.read(min(left, CHUNK))
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


class DiffTrees:
    """A blob session's two long-running `git diff-tree --stdin` processes,
    one with the change's diff flags (`MAIN_FLAGS`), one with the copy
    search's (`COPIES_FLAGS`), in the repository's private view: `gate lab`
    and `gate backtest` ask each for a diff per change instead of starting
    a `git diff` each time.  Each request is the two trees' names, then a
    line that names no object, which git echoes and flushes after the diff:
    a marker random per session, so no path of a change can fake it.

    `tokens` returns None (and the caller runs its own `git diff`, which
    says why) whenever the answer is not plainly whole: a name that is no
    tree, git stopping (a missing object), output that is not the header,
    NUL-ended records and the marker.  git's warnings (a skipped rename
    search) are deferred to its exit in this mode, so callers use it only
    where git cannot have limited its search.  Where git stopped on an
    object the clone lacks, `unreadable` names it: what the caller's own
    `git diff` of the same trees stops on too."""

    def __init__(self, cat: CatFile) -> None:
        self._cat = cat
        self._procs: dict[str, tuple[subprocess.Popen[bytes], IO[bytes]]] = {}
        self._trees: dict[str, str | None] = {}
        # which -> the object git said it cannot read, where that alone
        # stopped git on the last request of `which` (`unreadable`)
        self._unreadable: dict[str, str] = {}
        # os.urandom is what secrets.token_hex reads, without importing
        # secrets on `gate check`'s path: 2.4-3.0 ms of import time
        # (docs/development.md, "The git layer's figures").
        self._marker = f"gate-end-{os.urandom(16).hex()}\n".encode("ascii")

    def _tree(self, name: str) -> str | None:
        if name not in self._trees:
            self._trees[name] = self._cat.tree_of(name)
        return self._trees[name]

    def _proc(self, which: str) -> subprocess.Popen[bytes] | None:
        found = self._procs.get(which)
        if found is not None:
            return found[0]
        repo = self._cat.repo
        flags = MAIN_FLAGS if which == MAIN_DIFF else COPIES_FLAGS
        env, cwd = repo.diff_view()
        err = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        try:
            proc = subprocess.Popen(
                repo.view_argv(["diff-tree", "--stdin", "-r", *flags]),
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                env=env,
            )
        except OSError:
            err.close()
            return None
        self._procs[which] = (proc, err)
        return proc

    def tokens(self, which: str, old: str, new: str) -> list[bytes] | None:
        """The NUL-separated tokens of diff `which` (`MAIN_DIFF` or
        `COPIES_DIFF`) from the tree of `old` to the tree of `new`, or None."""
        self._unreadable.pop(which, None)
        trees = self._tree(old), self._tree(new)
        if trees[0] is None or trees[1] is None:
            return None
        proc = self._proc(which)
        if proc is None or proc.stdin is None or proc.stdout is None:
            return None
        said = self._procs[which][1].seek(0, os.SEEK_END)  # git's stderr before this request
        header = f"{trees[0]} {trees[1]}\n".encode("ascii")
        marker = self._marker
        data = bytearray()  # appended in place: a big diff is no quadratic copy
        try:
            proc.stdin.write(header + marker)
            proc.stdin.flush()
            # The marker ends the answer where it follows the header's newline
            # or a record's NUL, or is all of it (git refused the request).
            size = len(marker)
            while not (
                data.endswith(marker) and (len(data) == size or data[-size - 1] in (0, 0x0A))
            ):
                chunk = os.read(proc.stdout.fileno(), CHUNK)  # what has come, unbuffered
                if not chunk:
                    raise OSError("git stopped")
                data += chunk
        except OSError:
            self._stop(which, said)
            return None
        body = bytes(data[len(header) : -len(marker)])
        if not data.startswith(header) or (body and not body.endswith(b"\0")):
            self._stop(which)
            return None
        return body.split(b"\0")[:-1]

    def unreadable(self, which: str) -> str | None:
        """The object git stopped on in the last request of `which` that
        `tokens` answered None, where git exited saying only that it cannot
        read it (`fatal: unable to read OID`): the same trees' own `git diff`
        stops there too, saying the same, so a caller need not run it to
        learn that (a damaged or incomplete clone; `gate.git.copies`).  None
        for any other stop, which the caller's own `git diff` explains."""
        return self._unreadable.get(which)

    def _stop(self, which: str, said: int | None = None) -> None:
        """Stop process `which`; `said`: where its stderr stood when the
        request it stopped on was written (read for `unreadable`)."""
        proc, err = self._procs.pop(which)
        if proc.poll() is None:
            proc.kill()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        code = proc.wait()
        if said is not None and code > 0:
            err.seek(said)
            told = err.read()
            missing = UNREADABLE.search(first_line(told))
            if missing is not None and len(told.strip().splitlines()) == 1:
                self._unreadable[which] = missing.group(1)
        err.close()

    def close(self) -> None:
        for which in list(self._procs):
            self._stop(which)


def tree_object_entries(data: bytes, hash_size: int) -> Iterator[tuple[bytes, bytes]]:
    """(mode, name) of each entry of a raw tree object: `MODE SP NAME NUL
    HASH` repeated, the hash `hash_size` bytes (20 SHA-1, 32 SHA-256)."""
    at = 0
    while at < len(data):
        space = data.index(b" ", at)
        nul = data.index(b"\0", space)
        yield data[at:space], data[space + 1 : nul]
        at = nul + 1 + hash_size
