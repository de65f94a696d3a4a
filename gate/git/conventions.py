"""What every git call of the gate holds fixed, and how its answers are read.

The same change gives the same numbers whatever the caller's environment
and configuration say: the variables that would redirect git are dropped
(`SCRUBBED`), the settings that change a diff are pinned (`CONFIG`,
`RENAME_LIMIT`, `BIG_FILE`), every diff runs with the same flags
(`_DIFF_FLAGS`).  Answers: full object names (`FULL_SHA`), streams read in
chunks of `CHUNK` from a big pipe (`popen_streaming`), and a failed call
as one sentence from the first line of its stderr (`first_line`,
`diff_failed`).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from typing import Any

from gate.base.errors import GateError

# Variables that would redirect git away from the repository we were given.
SCRUBBED = (
    "GIT_DIR",
    "GIT_INDEX_FILE",
    "GIT_WORK_TREE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_COMMON_DIR",
    "GIT_PREFIX",
    "GIT_EXTERNAL_DIFF",
    "GIT_DIFF_OPTS",
    "GIT_PAGER",
    "GIT_LITERAL_PATHSPECS",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
    "GIT_ICASE_PATHSPECS",
)

# Fixed configuration: the same change gives the same numbers whatever the
# user's config says.  diff.renameLimit is git's own default, written down.
RENAME_LIMIT = 1000
# core.bigFileThreshold: git calls a bigger blob binary without reading it,
# and the gate does not count such a blob's lines either (too large to count).
BIG_FILE = 512 << 20
CONFIG = (
    "-c",
    "core.quotepath=false",
    "-c",
    "diff.renames=true",
    "-c",
    f"diff.renameLimit={RENAME_LIMIT}",
    "-c",
    "diff.noprefix=false",
    "-c",
    "core.fsmonitor=false",
    "-c",
    f"core.attributesFile={os.devnull}",
)

# The most bytes a reader of git's output takes in one read.
CHUNK = 1 << 20
# The output pipe of a git process whose output a Python thread reads while
# the interpreter is busy elsewhere: a big pipe lets git run ahead while the
# reader waits for the GIL (figures: docs/development.md, "The git layer's
# figures").
_PIPE_SIZE = 1 << 20
# `PipeReader`: after a short read, the next waits this long (seconds).
_PIPE_WAIT = 0.001
# A full (SHA-1 or SHA-256) lower-case hex object name.
FULL_SHA = re.compile(r"\A[0-9a-f]{40}(?:[0-9a-f]{24})?\Z")


# Flags of every `git diff` the gate runs: no driver, no colour, the whole
# tree, submodules compared by commit.
_DIFF_FLAGS = (
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--no-relative",
    "--ignore-submodules=none",
)

# The change's diff (full blob names: binary files are counted from them) ...
MAIN_FLAGS = (
    "--raw",
    "--numstat",
    "-z",
    "-M",
    "--no-abbrev",
    *_DIFF_FLAGS,
    "--diff-algorithm=myers",
)
# ... and the search for copies of any file of the base (`gate.git.copies`).
COPIES_FLAGS = (
    "--raw",
    "-z",
    "--no-abbrev",
    "-B",
    "-C",
    "--find-copies-harder",
    "--no-rename-empty",  # an empty file is no copy of another
    *_DIFF_FLAGS,
)
MAIN_DIFF, COPIES_DIFF = "main", "copies"  # the two `DiffTrees` processes


def first_line(data: bytes) -> str:
    """The first line of git's stderr that is not blank, for an error
    sentence ("no message" when it said nothing)."""
    text = data.decode("utf-8", errors="replace").strip()
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line
    return "no message"


# git's "unable to read <object>": a clone that lacks an object.
UNREADABLE = re.compile(r"unable to read ([0-9a-f]{40,64})\b")


def diff_failed(stderr: bytes) -> GateError:
    """The one sentence for a `git diff` that failed.  A clone that lacks an
    object the diff reads (a damaged or partial clone whose remote cannot
    send it) gets the fix; the near-copy search reads every file of the base,
    so it can need a blob that `git diff --numstat base...head` never reads."""
    line = first_line(stderr)
    found = UNREADABLE.search(line)
    if found is not None:
        return GateError(
            f"git diff failed: this clone lacks object {found.group(1)}, which the diff "
            "reads: run git fsck, or fetch the missing objects"
        )
    return GateError(f"git diff failed: {line}")


class PipeReader:
    """Reads of a streaming git process's output pipe that let it fill: after
    a read that found little (git writes a blob's header and its bytes
    apart, and a reader that keeps up would take them a few KiB at a time,
    a system call and a switch of threads each), the next read waits
    `_PIPE_WAIT` seconds first, so it takes what git wrote meanwhile in one
    go.  Little is under a sixteenth of what the pipe holds (`_pipe_size`),
    so a pipe the system kept small never waits on every read.  The same
    bytes in the same order, in fewer, bigger reads (figures:
    docs/development.md, "The git layer's figures")."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._little = _pipe_size(fd) // 16
        self._short = False

    def read(self, size: int) -> bytes:
        """Up to `size` bytes, as `os.read`; b"" at the end."""
        if self._short:
            time.sleep(_PIPE_WAIT)
        data = os.read(self._fd, size)
        self._short = 0 < len(data) < self._little
        return data


def _pipe_size(fd: int) -> int:
    """How many bytes the pipe `fd` holds (Linux's F_GETPIPE_SZ), else the
    64 KiB most systems give a pipe."""
    try:
        import fcntl

        return int(fcntl.fcntl(fd, getattr(fcntl, "F_GETPIPE_SZ", 1032)))
    except (ImportError, OSError):
        return 1 << 16


def popen_streaming(argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """`subprocess.Popen(argv, stdout=PIPE, **kwargs)` with a `_PIPE_SIZE`
    output pipe, or the system's default where that is over the user's
    limit (`/proc/sys/fs/pipe-max-size`)."""
    try:
        return subprocess.Popen(argv, stdout=subprocess.PIPE, pipesize=_PIPE_SIZE, **kwargs)
    except PermissionError:
        return subprocess.Popen(argv, stdout=subprocess.PIPE, **kwargs)
