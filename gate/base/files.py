"""The gate's files: one way to read an input file, one way to write a report file.

Reading (`read_input`): a rubric file, a freeze file, a patch, a writer's
result.json, a report for `gate diff`, captured test output, the runner's
event payload.  Each is read up to its size cap (never more bytes than the
cap plus one), and any problem is a `GateError` in one sentence that names
what the file is, the file, and the fix: it does not exist, it is a
directory, it cannot be read (the system's reason), or it is over the cap.
`-` reads standard input where the caller allows it.

The package's own files (`package_text`: templates, tables, the rule
reference's introduction) are trusted and read as they are.

Writing (`write_new_file`, `write_report`): a report is written where a
change may have planted files (a checkout, the Action's workspace), so it is
never written through a symlink; a device or pipe the caller names
(`/dev/null`, a FIFO, `/dev/stdout`) is written into, never replaced.  What
the command line prints goes through `gate.base.output`, not here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
from pathlib import Path

from gate.base.errors import GateError
from gate.base.escape import printable

MIB = 1 << 20
# The cap of an input without one of its own: a writer's result, a report,
# an event payload (JSON that a few MiB covers many times over), captured
# test output (kept whole for `must_include`), a freeze file and the files
# `gate freeze` hashes.  A rubric has its own (`gate.rubric.load.MAX_BYTES`).
INPUT_LIMIT = 64 * MIB
# A patch is scanned in bounded memory but held whole (git applies it from memory).
PATCH_LIMIT = 256 * MIB


def size_text(limit: int) -> str:
    """`1 MiB`, `64 MiB`; a byte count when `limit` is not whole MiB."""
    return f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit:,} bytes"


# The folder of the package's own files (`gate/`, above this module's
# `gate/base/`), for `package_text`.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def package_text(name: str) -> str:
    """A text file shipped in the package (`name` is its path under `gate/`,
    e.g. `starter/blast-radius-workflow.yml`).  Read as a file beside the
    modules, as every install lays the package out, not through
    `importlib.resources`, whose import would cost `gate check` 7 ms."""
    with open(os.path.join(_PACKAGE, name), encoding="utf-8") as shipped:
        return shipped.read()


def read_input(
    path: str | Path,
    what: str,
    *,
    fix: str,
    limit: int | None = None,
    stdin: bool = False,
    too_large: str | None = None,
    name: str | None = None,
) -> bytes:
    """The bytes of the input file `path`, at most `limit` (default
    `INPUT_LIMIT`) of them.

    `what` names the file in every sentence (`rubric file`, `stdout file`);
    `fix` ends the sentences for a missing, unreadable or directory path;
    `too_large` ends the one for a file over `limit` (default: `fix`).  With
    `stdin`, `-` reads standard input.  `name` is how the sentences spell the
    file (default: `path`, control characters made visible).
    """
    name = printable(str(path)) if name is None else name
    if limit is None:
        limit = INPUT_LIMIT
    over = too_large if too_large is not None else fix
    if stdin and str(path) == "-":
        try:
            data = sys.stdin.buffer.read(limit + 1)
        except (OSError, AttributeError, ValueError) as exc:
            raise GateError(f"cannot read {what} from stdin ({exc}): {fix}") from None
        if len(data) > limit:
            raise GateError(f"{what} on stdin is over the {size_text(limit)} limit: {over}")
        return data
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise GateError(f"{what} {name} does not exist: {fix}") from None
    except IsADirectoryError:
        raise GateError(f"{what} {name} is a directory: {fix}") from None
    except OSError as exc:
        reason = printable(exc.strerror or str(exc))
        raise GateError(f"cannot read {what} {name} ({reason}): {fix}") from None
    if len(data) > limit:
        raise GateError(f"{what} {name} is over the {size_text(limit)} limit: {over}")
    return data


def read_captured(
    path: str | Path, what: str, *, fix: str, stdin: bool = False, name: str | None = None
) -> str:
    """A captured stdout file (`--stdout-file`, `--stdout-dir`, the Action's
    `stdout-file`: what `must_include` reads) as text: UTF-8, any other byte
    replaced (U+FFFD), up to `INPUT_LIMIT`."""
    data = read_input(path, what, fix=fix, stdin=stdin, name=name)
    return data.decode("utf-8", errors="replace")


# --- report files ------------------------------------------------------------


def write_new_file(path: str, data: str) -> None:
    """Write `data` (UTF-8) to `path`, never through a symlink (raises OSError).

    A report is written where a change may have planted files (a checkout, the
    Action's workspace): `out/report.json` could be a symlink to `~/.bashrc`,
    or `out` a symlink to another directory.  So a file or symlink already at
    `path` is replaced, not followed (`O_EXCL|O_NOFOLLOW` on a fresh name),
    and every directory of a relative path (or of an absolute path below the
    current directory) is opened without following symlinks: a symlinked
    directory is an error (ELOOP/ENOTDIR).  The directories of an absolute
    path outside the current directory are the caller's own choice and are
    resolved as usual.

    What git cannot check out is written into, not replaced: a character
    device or a FIFO at `path` (`/dev/null`, `mkfifo report`; replacing
    `/dev/null` with a file, as root in a container, breaks every later
    step), and an open descriptor named by the system's absolute names for
    one (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`),
    after what the gate printed there.  A block device or a socket is
    refused (OSError).
    """
    descriptor = _descriptor(path)
    if descriptor is not None:
        _write_descriptor(descriptor, data)
        return
    base, rest = _trusted_split(path)
    parts = [p for p in rest.split("/") if p not in ("", ".")]
    if not parts:
        raise IsADirectoryError(21, "is a directory", path)
    *dirs, name = parts
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if os.open not in os.supports_dir_fd:  # no *at() calls: follow nothing at the end at least
        _replace_at(None, os.path.join(base, *dirs, name), data, nofollow)
        return
    fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for part in dirs:
            next_fd = os.open(
                part, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | nofollow, dir_fd=fd
            )
            os.close(fd)
            fd = next_fd
        _replace_at(fd, name, data, nofollow)
    finally:
        os.close(fd)


def _trusted_split(path: str) -> tuple[str, str]:
    """(a directory the caller named, the rest that a change may have planted)."""
    if not os.path.isabs(path):
        return ".", path
    cwd = os.getcwd()
    if path.startswith(cwd.rstrip(os.sep) + os.sep):
        return cwd, path[len(cwd.rstrip(os.sep)) + 1 :]
    head, tail = os.path.split(path)
    return head or os.sep, tail


_DESCRIPTORS = re.compile(r"/dev/(?:(stdout)|(stderr)|fd/([0-9]+))|/proc/self/fd/([0-9]+)")


def _descriptor(path: str) -> int | None:
    """The open descriptor an absolute system name stands for, else None."""
    found = _DESCRIPTORS.fullmatch(os.path.normpath(path)) if os.path.isabs(path) else None
    if found is None:
        return None
    out, err, number, proc = found.groups()
    return 1 if out else 2 if err else int(number or proc)


def _write_descriptor(descriptor: int, data: str) -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()  # what was printed comes first
    view = memoryview(data.encode("utf-8"))
    while view:
        view = view[os.write(descriptor, view) :]


def _replace_at(dir_fd: int | None, name: str, data: str, nofollow: int) -> None:
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        mode = 0
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):  # /dev/null, a pipe: never replaced
        fd = os.open(name, os.O_WRONLY | nofollow, dir_fd=dir_fd)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(data)
        return
    if stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        raise OSError(errno.EINVAL, "a block device or socket, not a report file", name)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=dir_fd)  # a file or a symlink; a directory raises
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | nofollow
    fd = os.open(name, flags, 0o644, dir_fd=dir_fd)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(data)


def write_report(path: str, text: str, *, fix: str = "check --output") -> None:
    """A report file (`--output FILE`), via `write_new_file`, or a GateError."""
    try:
        write_new_file(path, text)
    except OSError as exc:
        why = exc.strerror or str(exc)
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            why += "; a directory on the way is a symlink or not a directory"
        raise GateError(f"cannot write report to {printable(path)} ({why}): {fix}") from None
