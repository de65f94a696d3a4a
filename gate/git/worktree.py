"""Trees and worktrees for `gate frozen-tests`: every entry of a commit's
tree with its mode and object (`tree_entries`), the objects' bytes
(`read_objects`), the checkout's untracked and ignored entries
(`untracked_entries`), and a temporary worktree of a commit
(`temporary_worktree`), removed with everything written in it.

Every git call goes through `Repo.run` (gate/git is the only place that
runs git).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from gate.base.errors import GateError
from gate.base.paths import from_bytes
from gate.git.repo import Repo

# What `git ls-tree` says of an entry: (mode, object id).
Entry = tuple[str, str]


def tree_entries(repo: Repo, rev: str) -> dict[str, Entry]:
    """Every entry of the tree of commit (or tree) `rev`: path -> (mode,
    object id); files, symlinks and submodules, not folders."""
    sha = repo.rev_parse(rev, peel=None)
    out = repo.run(["ls-tree", "-r", "-z", "--full-tree", sha])
    entries: dict[str, Entry] = {}
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, _kind, obj = meta.split(b" ")
        entries[from_bytes(path)] = (mode.decode("ascii"), obj.decode("ascii"))
    return entries


def read_objects(repo: Repo, ids: Iterable[str]) -> dict[str, bytes]:
    """The bytes of each blob id in `ids`, through one `git cat-file --batch`."""
    out: dict[str, bytes] = {}
    with repo.blob_session():
        for object_id in dict.fromkeys(ids):
            data = repo.read_object(object_id)
            if data is None:
                raise GateError(f"git has no blob {object_id}: fetch the base commit's objects")
            out[object_id] = data
    return out


def untracked_entries(repo: Repo) -> list[str]:
    """The checkout's untracked entries, ignored ones included, a folder
    that holds only such entries named once (`node_modules/`, `.venv/`),
    repository-relative, a folder ending in `/`."""
    out = repo.run(["ls-files", "-z", "--others", "--directory", "--no-empty-directory"])
    return [from_bytes(raw) for raw in out.split(b"\0") if raw]


def _writable(func: object, path: str, _exc: object) -> None:
    """rmtree's error handler: make the folder writable and try again (a
    test run may leave read-only files, as Go's module cache does)."""
    parent = os.path.dirname(path)
    with contextlib.suppress(OSError):
        os.chmod(parent, os.stat(parent).st_mode | stat.S_IWUSR | stat.S_IXUSR)
        os.chmod(path, os.lstat(path).st_mode | stat.S_IWUSR)
    with contextlib.suppress(FileNotFoundError):
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)
        else:
            os.unlink(path)


# A RAM-backed folder a worktree may go to instead of the temporary folder
# (`scratch_folder`), and the room it must have to be chosen.
RAM_FOLDER = "/dev/shm"
RAM_SPARE = 1 << 30


def tree_size(repo: Repo, rev: str) -> int:
    """The bytes of every blob in the tree of `rev` (`git ls-tree -l`)."""
    sha = repo.rev_parse(rev, peel=None)
    out = repo.run(["ls-tree", "-r", "-z", "-l", "--full-tree", sha])
    total = 0
    for record in out.split(b"\0"):
        fields = record.partition(b"\t")[0].split()
        if len(fields) == 4 and fields[3].isdigit():
            total += int(fields[3])
    return total


def scratch_folder(repo: Repo, rev: str) -> str | None:
    """Where a worktree of `rev` goes: the temporary folder the user named
    (TMPDIR), else a RAM-backed folder (`RAM_FOLDER`) when it has room for
    four times the tree and `RAM_SPARE` beside, else the system's temporary
    folder (None).  Creating files is what a worktree costs, and a machine's
    disk can take ten times as long as its RAM (bench/bench_frozen.py)."""
    if os.environ.get("TMPDIR"):
        return None
    try:
        free = shutil.disk_usage(RAM_FOLDER).free
        flags = os.statvfs(RAM_FOLDER).f_flag
    except OSError:
        return None
    if not os.access(RAM_FOLDER, os.W_OK) or free < RAM_SPARE:
        return None
    if flags & getattr(os, "ST_NOEXEC", 0):
        return None  # a test may run a script of the tree (a container's /dev/shm is noexec)
    return RAM_FOLDER if free >= 4 * tree_size(repo, rev) + RAM_SPARE else None


@contextlib.contextmanager
def temporary_worktree(repo: Repo, rev: str, *, prefix: str = "gate-frozen-") -> Iterator[Path]:
    """A worktree of commit `rev` (detached) in a new temporary folder
    (`scratch_folder`), removed when the block ends, however it ends: the
    folder and everything written in it, and git's record of it.  Symlinks
    in it are removed as links, never followed."""
    parent = Path(tempfile.mkdtemp(prefix=prefix, dir=scratch_folder(repo, rev)))
    folder = parent / "tree"
    # No hook runs for the checkout (a hooks folder the tree itself names,
    # as husky's core.hooksPath does, is the pull request's code), and the
    # files are written by one worker a core (git's parallel checkout; on
    # this project's 2-core machines, 10,000 files in 2.4 s instead of 7.4 s:
    # bench/bench_frozen.py).
    settings = {
        "core.hooksPath": os.devnull,
        "checkout.workers": "0",
        "checkout.thresholdForParallelism": "100",
    }
    quiet = {"GIT_CONFIG_COUNT": str(len(settings))}
    for i, (key, value) in enumerate(settings.items()):
        quiet[f"GIT_CONFIG_KEY_{i}"] = key
        quiet[f"GIT_CONFIG_VALUE_{i}"] = value
    try:
        repo.run(["worktree", "add", "--detach", "--quiet", str(folder), rev], env=quiet)
        yield folder
    finally:
        shutil.rmtree(parent, onerror=_writable)
        repo.run(["worktree", "prune"], ok=(0, 1, 128))
