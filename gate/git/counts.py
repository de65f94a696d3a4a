"""Line counts git's numstat does not give: every line of both blobs of a
file git calls binary (`count_binary`) or of a text file with a carriage
return alone (`count_lone_cr`), read through a thread's blob session, one
pipelined `git cat-file --batch` (`_blob_lines`, `_stream_lines`), or
beside the diff as it names the blobs (`LineCounter`)."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING

from gate.base.errors import GateError
from gate.base.images import MAGIC
from gate.base.paths import quoted
from gate.git.catfile import BATCH_HEADER, chunks_of
from gate.git.conventions import CHUNK, PipeReader, first_line, popen_streaming
from gate.git.parse import Uncounted

if TYPE_CHECKING:
    from gate.git.catfile import CatFile
    from gate.git.runner import Runner
    from gate.model.change import FileChange, LineCount


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 and limit % (1 << 20) == 0 else f"{limit} bytes"


def count_binary(
    repo: Runner,
    files: list[FileChange],
    blobs: list[Uncounted],
    counted: Mapping[str, LineCount | None] | None = None,
    *,
    session: CatFile | None = None,
) -> None:
    """Count the files `parse_diff` could not: every line of the old blob as
    deleted and every line of the new blob as added, and mark the ones
    whose every version is a well-formed image (`FileChange.image`,
    `all_images`).  This is conservative:
    nobody reviewed a binary diff line by line, and it is never fewer lines
    than a text diff of the same blobs would find.  A blob over
    `repo.big_file` bytes is not read: its file's counts stay unknown, with
    the reason in `uncounted`.

    Why read the blobs instead of asking git for text counts: `git diff
    --text --numstat` still prints `-` for binary files (git 2.39), so no
    diff option gives these numbers; the blobs are piped out of `git
    cat-file` once more and their newlines counted (figures:
    docs/development.md, "The git layer's figures").  `counted`: the counts
    a `LineCounter` took beside the diff (`gate check`); a blob it lacks is
    read here, through `session` (the thread's `Repo.blob_session`, if
    any) for a few."""
    from gate.model.change import all_images

    counts = _with_counts(repo, blobs, counted, repo.big_file, session)
    for item in blobs:
        change = files[item.at]
        old, new = _side(counts, item.old), _side(counts, item.new)
        deleted = None if old is None else old.lines
        added = None if new is None else new.lines
        if added is None or deleted is None:
            files[item.at] = change._replace(
                uncounted=f"git calls it binary and it is over {_size(repo.big_file)}, "
                "too large to count"
            )
        else:
            sides = (None if item.old is None else old, None if item.new is None else new)
            image = change.binary and all_images(change, *sides)
            files[item.at] = change._replace(added=added, deleted=deleted, image=image)


def _side(counts: Mapping[str, LineCount | None], oid: str | None) -> LineCount | None:
    """The count of one side of a file (no lines when the side is absent)."""
    if oid is None:
        from gate.model.change import LineCount

        return LineCount(0, False)
    return counts[oid]


def count_lone_cr(
    repo: Runner,
    files: list[FileChange],
    texts: list[Uncounted],
    counted: Mapping[str, LineCount | None] | None = None,
    *,
    session: CatFile | None = None,
) -> str | None:
    """Count whole each text file with a carriage return alone on either side
    (`LineCount.lone_cr`): git's numstat ends lines at `\\n` only, so it
    counts a file of 500 lines ended by `\\r` as one.  Every line of the old
    blob counts as deleted and every line of the new blob as added, as for a
    binary file: a line diff at `\\r` is no diff anybody reviews (GitHub
    shows such a file as one line).  Returns the note naming those files,
    or None.  Reads every changed text blob once more (git reads them for
    its diff too): `counted` when a `LineCounter` read them beside the
    diff (`gate check`), else after it, through `session` (the thread's
    `Repo.blob_session`, if any) for a few (`gate lab`, `gate backtest`) or
    one pipelined `cat-file`."""
    # git diffed these as text, so none is over core.bigFileThreshold: no limit
    counts = _with_counts(repo, texts, counted, None, session)
    whole: list[str] = []
    for item in texts:
        old, new = _side(counts, item.old), _side(counts, item.new)
        if old is None or new is None:  # not counted (over the size limit): fail closed
            files[item.at] = files[item.at]._replace(
                added=None,
                deleted=None,
                uncounted=f"it is over {_size(repo.big_file)}, too large to count",
            )
            continue
        if not (old.lone_cr or new.lone_cr):
            continue
        change = files[item.at]
        files[item.at] = change._replace(added=new.lines, deleted=old.lines)
        whole.append(change.path)
    if not whole:
        return None
    shown = ", ".join(quoted(p) for p in whole[:5])
    if len(whole) > 5:
        shown += f" and {len(whole) - 5} more"
    subject = "1 text file ends" if len(whole) == 1 else f"{len(whole):,} text files end"
    return (
        f"{subject} lines with a carriage return alone, which git's line counts miss, so "
        f"each counts whole, every line of both versions ({shown})"
    )


# A thread's `Repo.blob_session` counts this many blobs or fewer itself, one
# at a time; more go to a pipelined `cat-file` of their own, so `gate lab`
# (a blob or two per patch) starts one git process fewer per patch.
SESSION_BLOBS = 64


def _with_counts(
    repo: Runner,
    items: Sequence[Uncounted],
    counted: Mapping[str, LineCount | None] | None,
    limit: int | None,
    session: CatFile | None,
) -> dict[str, LineCount | None]:
    """The count of each blob of `items`: from `counted` (what a
    `LineCounter` read beside the diff), the others read now
    (`_blob_lines`, None for one over `limit` bytes)."""
    counts: dict[str, LineCount | None] = dict(counted) if counted is not None else {}
    oids = (oid for item in items for oid in (item.old, item.new) if oid)
    missing = [oid for oid in dict.fromkeys(oids) if oid not in counts]
    if missing:
        counts.update(_blob_lines(repo, missing, limit, session))
    return counts


def _blob_lines(
    repo: Runner, oids: Sequence[str], limit: int | None, cat: CatFile | None
) -> dict[str, LineCount | None]:
    """The lines of each blob (`gate.model.change.line_count`); None for a blob
    over `limit` bytes, which is not read (None: no limit).  A thread's
    `Repo.blob_session` (`cat`) counts up to `SESSION_BLOBS` of them itself.

    With a limit, two `git cat-file` processes: `--batch-check` for the
    sizes, then `--batch` for the blobs to count; without one, the
    `--batch` alone (the sizes come with the blobs).  It is fed by a writer
    thread so git never waits for a round trip; each blob is counted in
    1 MiB chunks as it streams, so memory stays flat whatever its size."""
    unique = list(dict.fromkeys(oids))
    if cat is not None and len(unique) <= SESSION_BLOBS:
        return {oid: cat.count(oid, limit) for oid in unique}
    if limit is None:
        return dict(_stream_lines(repo, [(oid, None) for oid in unique]))
    listing = repo.run(
        ["cat-file", "--batch-check"], input="".join(f"{oid}\n" for oid in unique).encode()
    )
    rows = listing.decode("ascii", errors="replace").splitlines()
    counts: dict[str, LineCount | None] = {}
    wanted: list[tuple[str, int]] = []
    for i, oid in enumerate(unique):
        fields = rows[i].split(" ") if i < len(rows) else []
        if len(fields) != 3 or fields[0] != oid or fields[1] != "blob":
            raise GateError(
                f"git cannot read blob {oid}: run git fsck, or fetch the missing objects"
            )
        size = int(fields[2])
        if limit is not None and size > limit:
            counts[oid] = None
        else:
            wanted.append((oid, size))
    if wanted:
        counts.update(_stream_lines(repo, wanted))
    return counts


def _stream_lines(repo: Runner, blobs: Sequence[tuple[str, int | None]]) -> dict[str, LineCount]:
    """Line counts of `blobs` ((oid, size) pairs; a size of None is taken from
    git's answer) from one pipelined `git cat-file --batch`."""
    from gate.model.change import line_count

    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(
                repo.argv(["cat-file", "--batch", "--buffer"]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                env=repo.env(),
                bufsize=CHUNK,
            )
        except OSError as exc:
            raise repo.start_error(exc) from None
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None

        def feed() -> None:
            with contextlib.suppress(OSError):  # git died: the reader says so
                stdin.write("".join(f"{oid}\n" for oid, _ in blobs).encode("ascii"))
                stdin.close()

        # Not a speed choice: written from this thread, all the names at once
        # would block once git's output pipe is full and nobody reads it.
        writer = threading.Thread(target=feed, name="gate-cat-file-feed", daemon=True)
        writer.start()
        counts: dict[str, LineCount] = {}

        try:
            for oid, expected in blobs:
                line = stdout.readline()
                header = BATCH_HEADER.match(line)
                if (
                    header is None
                    or header.group(1) != b"blob"
                    or not line.startswith(f"{oid} ".encode("ascii"))
                ):
                    raise ValueError(oid)
                size = int(header.group(2))
                if expected is not None and size != expected:
                    raise ValueError(oid)
                if size < CHUNK:  # most blobs: one read with the newline after it
                    data = stdout.read(size + 1)
                    if len(data) != size + 1 or data[size:] != b"\n":
                        raise ValueError(oid)
                    counts[oid] = line_count((data[:size],))
                    continue
                counts[oid] = line_count(chunks_of(stdout, size, oid))
                if stdout.read(1) != b"\n":
                    raise ValueError(oid)
        except ValueError:
            proc.kill()
            proc.wait()
            err.seek(0)
            raise GateError(f"git cat-file failed: {first_line(err.read())}") from None
        finally:
            writer.join()
            stdout.close()
            proc.wait()
    return counts


def _blob_chunks(head: bytes, pipe: PipeReader, size: int, oid: str) -> Iterator[bytes]:
    """Blob `oid`'s `size` bytes, of which `head` holds the first ones (not
    all of them and the newline after), the rest read from `pipe` in chunks
    of at most `CHUNK`, through the newline after the blob and no further;
    ValueError when the output ends first or no newline follows."""
    yield head
    left = size + 1 - len(head)
    while left:
        chunk = pipe.read(min(left, CHUNK))
        if not chunk:
            raise ValueError(oid)
        left -= len(chunk)
        if not left:
            if chunk[-1:] != b"\n":
                raise ValueError(oid)
            chunk = chunk[:-1]
        yield chunk


def _next_cr(buf: bytes, start: int) -> int:
    """The offset of the first `\\r` in `buf` at or after `start`, else len(buf)."""
    found = buf.find(b"\r", start)
    return len(buf) if found < 0 else found


def _blob_header(header: bytes, sent: set[str]) -> tuple[str, int]:
    """(oid, size) from `cat-file --batch`'s "<oid> blob <size>" for a blob
    that was asked for; ValueError for anything else ("<oid> missing", a
    tree, a name nobody asked for)."""
    fields = header.split(b" ")
    if len(fields) != 3 or fields[1] != b"blob" or not fields[2].isdigit():
        raise ValueError(header[:80])
    oid = fields[0].decode("ascii")
    if oid not in sent:
        raise ValueError(header[:80])
    return oid, int(fields[2])


def _read_through(head: bytes, pipe: PipeReader, need: int, oid: str) -> bytes:
    """`head` and what follows it from `pipe` until there are `need` bytes
    (reads of at least `CHUNK`); ValueError when the output ends first."""
    parts, have = [head], len(head)
    while have < need:
        more = pipe.read(max(CHUNK, need - have))
        if not more:
            raise ValueError(oid)
        parts.append(more)
        have += len(more)
    return b"".join(parts)


class LineCounter:
    """Line counts (`gate.model.change.line_count`) of the blobs named by `want`,
    from one `git cat-file --batch` started on the first one, whose output a
    thread counts as it streams: `gate check` counts every changed blob as
    the diff's raw records name it, while git still computes the numstat,
    so both the lone carriage return check of the text files and the counts
    of the binary ones are ready when it ends.  Each blob is read once,
    whatever asks for it.  A blob over `repo.big_file` bytes (binary to git,
    never counted) is read past, not counted: its count is None (figures:
    docs/development.md, "The git layer's figures")."""

    def __init__(self, repo: Runner) -> None:
        self._repo = repo
        self._limit = repo.big_file
        self._sent: set[str] = set()
        self._counts: dict[str, LineCount | None] = {}
        self._proc: subprocess.Popen[bytes] | None = None
        self._err: IO[bytes] | None = None
        self._thread: threading.Thread | None = None
        self._problem: str | None = None

    def want(self, oid: str) -> None:
        """Ask for the count of blob `oid` (once, however often it is named)."""
        if oid in self._sent or self._problem is not None:
            return
        self._sent.add(oid)
        if self._proc is None:
            self._start()
        proc = self._proc
        if proc is None or proc.stdin is None:
            return
        try:
            proc.stdin.write(f"{oid}\n".encode("ascii"))
        except OSError:  # git died: `finish` says why
            self._problem = "it stopped reading"

    def _start(self) -> None:
        self._err = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        try:
            self._proc = popen_streaming(
                self._repo.argv(["cat-file", "--batch", "--buffer"]),
                stdin=subprocess.PIPE,
                stderr=self._err,
                env=self._repo.env(),
            )  # the default stdin buffer: names reach git every 8 KiB, as the diff names them
        except OSError as exc:
            self._problem = str(self._repo.start_error(exc))
            return
        self._thread = threading.Thread(target=self._read, name="gate-cat-file", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        from gate.model.change import LineCount, line_count

        assert self._proc is not None and self._proc.stdout is not None
        stdout = self._proc.stdout
        pipe = PipeReader(stdout.fileno())
        counts, sent, limit = self._counts, self._sent, self._limit
        # git's output read in big chunks, each blob found in them by offset.
        # `cr` is the first `\r` at or after the blob being read (len(buf)
        # when none is left): most blobs hold none, so one C scan per chunk
        # says so for all of them and their lines are one count of `\n`;
        # a blob that holds one, or starts as an image does (`MAGIC`), goes
        # through `line_count`.
        buf, at, cr = b"", 0, 0
        try:
            while True:
                eol = buf.find(b"\n", at)
                if eol < 0:
                    more = pipe.read(CHUNK)
                    if not more:
                        if at != len(buf):
                            raise ValueError("output ends inside a header")
                        return
                    buf, at = buf[at:] + more, 0
                    cr = _next_cr(buf, 0)
                    continue
                oid, size = _blob_header(buf[at:eol], sent)
                start = eol + 1
                end = start + size
                if size > limit:  # too large to count: read past it
                    counts[oid] = None
                    if len(buf) > end:
                        if buf[end] != 0x0A:
                            raise ValueError(oid)
                        at = end + 1
                    else:
                        for _ in _blob_chunks(buf[start:], pipe, size, oid):
                            pass
                        buf, at, cr = b"", 0, 0
                    continue
                if len(buf) <= end:
                    if size >= CHUNK:
                        # a big one in chunks as it streams: memory stays flat
                        counts[oid] = line_count(_blob_chunks(buf[start:], pipe, size, oid))
                        buf, at, cr = b"", 0, 0
                        continue
                    buf = _read_through(buf[at:], pipe, end + 1 - at, oid)
                    start, end, at = start - at, end - at, 0
                    cr = _next_cr(buf, 0)
                if buf[end] != 0x0A:
                    raise ValueError(oid)
                if cr >= end and not buf.startswith(MAGIC, start, end):
                    ended = size == 0 or buf[end - 1] == 0x0A
                    counts[oid] = LineCount(buf.count(b"\n", start, end) + (not ended), False)
                else:  # a carriage return, or bytes that start as an image does
                    counts[oid] = line_count((buf[start:end],))
                    if cr < end:
                        cr = _next_cr(buf, end)
                at = end + 1
        except (ValueError, OSError) as exc:
            self._problem = f"unexpected output ({exc})"
            self._proc.kill()
        finally:
            stdout.close()

    def finish(self) -> dict[str, LineCount | None]:
        """Every wanted blob's count (None: over `repo.big_file` bytes), once
        git's diff named them all."""
        proc = self._proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        if self._thread is not None:
            self._thread.join()
        if proc is not None:
            proc.wait()
        if self._problem is not None or set(self._counts) != self._sent:
            why = ""
            if self._err is not None:
                self._err.seek(0)
                why = first_line(self._err.read())
            raise GateError(f"git cat-file failed: {why or self._problem or 'a blob is missing'}")
        return self._counts

    def close(self) -> None:
        proc = self._proc
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            proc.wait()
        if self._thread is not None:
            self._thread.join()
        if self._err is not None:
            self._err.close()
