"""The frozen tree: a temporary worktree of HEAD with the plan applied
(`apply`) and the checkout's installed dependencies linked in (`link`).

Why a worktree, not the checkout itself: only a tree of its own can leave
the checkout exactly as it was, untracked and ignored files included, when
COMMAND writes caches (`__pycache__`, `.pytest_cache`, snapshots) or is
killed halfway, or the gate is interrupted: nothing of the checkout is ever
rewritten, so nothing needs putting back.  CI installs dependencies into
the checkout (`node_modules`, a `.venv`, built extensions, an initialized
submodule), so every untracked or ignored entry of the checkout that is not
at a frozen path and not a cache is linked into the worktree at the same
path: COMMAND finds them where it always does.  An editable install keeps
pointing at the checkout, whose code is the pull request's, as the
worktree's is (test runners put the tree they run in first on the import
path).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

from gate.base.paths import to_bytes
from gate.frozen.plan import GITLINK, SYMLINK, Entry, Plan
from gate.git.repo import Repo
from gate.git.worktree import read_objects, untracked_entries

# Caches a run writes for itself: never linked from the checkout (a stale
# bytecode or a test runner's record of the last failures is no dependency).
CACHES = frozenset(
    {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", ".cache"}
)


def _on_disk(root: Path, path: str) -> bytes:
    """Where repository path `path` is under `root`, as the file system's bytes."""
    return os.fsencode(root) + b"/" + to_bytes(path)


def _clear(target: bytes) -> None:
    """Remove whatever is at `target` (a file, a link, a folder), if anything."""
    if os.path.islink(target) or os.path.isfile(target):
        os.unlink(target)
    elif os.path.isdir(target):
        shutil.rmtree(target)


def _real_folders(root: Path, path: str) -> list[str]:
    """Make every parent folder of `path` under `root` a real folder: a file
    or a symlink standing where the frozen tree needs a folder is removed
    (it would hide the base's files, or redirect them elsewhere).  Returns
    the paths removed."""
    removed = []
    parts = path.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        parent = "/".join(parts[:i])
        target = _on_disk(root, parent)
        if os.path.islink(target) or (os.path.exists(target) and not os.path.isdir(target)):
            os.unlink(target)
            removed.append(parent)
        if not os.path.isdir(target):
            os.mkdir(target)
    return removed


def apply(repo: Repo, root: Path, plan: Plan) -> list[str]:
    """Turn the worktree at `root` (HEAD's tree) into the frozen tree;
    returns what else had to go (a file or link where a frozen folder is)."""
    removed: list[str] = []
    for path in plan.remove:
        _clear(_on_disk(root, path))
    blobs = read_objects(repo, (e[1] for e in plan.restore.values() if e[0] != GITLINK))
    for path, (mode, object_id) in sorted(plan.restore.items()):
        removed += _real_folders(root, path)
        target = _on_disk(root, path)
        _clear(target)
        data = blobs[object_id]
        if mode == SYMLINK:
            os.symlink(data, target)
            continue
        with open(target, "wb") as fh:
            fh.write(data)
        os.chmod(target, 0o755 if mode == "100755" else 0o644)
    for path, data in sorted(plan.splice.items()):
        with open(_on_disk(root, path), "wb") as fh:
            fh.write(data)
    return removed


def link(
    repo: Repo,
    root: Path,
    frozen: Callable[[str], bool],
    head: Mapping[str, Entry],
) -> list[str]:
    """Link each untracked or ignored entry of the checkout (`node_modules/`,
    `.venv/`, a build's output), and each initialized submodule, into the
    worktree at `root` at the same path, unless it is at a frozen path or is
    a cache (`CACHES`); returns the paths linked."""
    checkout = Path(repo.path).resolve()
    linked = []
    wanted = [p.rstrip("/") for p in untracked_entries(repo)]
    wanted += [p for p, (mode, _) in head.items() if mode == GITLINK]
    for path in sorted(set(wanted)):
        names = path.split("/")
        if CACHES & set(names) or frozen(path) or frozen(path + "/"):
            continue
        source = _on_disk(checkout, path)
        if not os.path.lexists(source):
            continue
        if head.get(path, ("",))[0] == GITLINK and not os.listdir(source):
            continue  # a submodule the checkout never initialized
        target = _on_disk(root, path)
        if os.path.lexists(target):
            if not (os.path.isdir(target) and not os.listdir(target)):
                continue  # the worktree holds something there already
            os.rmdir(target)
        with contextlib.suppress(FileExistsError):
            os.makedirs(os.path.dirname(target), exist_ok=True)
        os.symlink(source, target)
        linked.append(path)
    return linked
