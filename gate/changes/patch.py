"""`--patch` mode: judge a unified diff as if applied to a base commit.

Three steps, each fail-closed:

1. `read_patch(path)` reads the bytes (`-` is stdin); unreadable -> exit 2.
2. `gate.changes.purity.check_pure(data, name)` refuses anything that is not a *pure* unified
   diff (git's format or plain `diff -u`): prose before, between or after
   the files, a markdown fence, a hunk cut short or with extra lines, an
   empty file.  `git apply` silently skips garbage between files; the gate
   does not, because a skipped line may be half of the change.  The scanner
   walks every line and refuses a file header that says two things at
   once.  -> exit 3.  A patch of more than `HUNK_LIMIT` hunks is too
   large to judge (git apply would take minutes) -> exit 2.
3. `apply_patch(repo, base, data, name)` applies the patch to the base tree
   in a throw-away index (`GIT_INDEX_FILE`), exactly as `git apply --cached`
   would, and returns the resulting TREE sha.  The working tree and the real
   index are never read or written.  Patched blobs and the tree are written
   to the object store as unreachable loose objects (`git gc` prunes them).

Line endings: the patch is bytes and hunk lines are passed to git byte for
byte, so a `\\r` at the end of a `+`/`-`/` ` line is file content (a CRLF
file in the repository).  A `\\r` at the end of a *structural* line (a
`diff --git`, `---`/`+++`, `@@`, or extended header line) means the whole
patch went through a CRLF conversion; it is refused with exit 3 and the
advice to convert the patch to LF, never silently rewritten.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from types import TracebackType
from typing import TYPE_CHECKING

from gate.base import files
from gate.base.errors import GateError, PatchError
from gate.changes.purity import check_pure

if TYPE_CHECKING:
    from collections.abc import Iterable

    from gate.git.repo import Repo
    from gate.model.change import ChangeSet, TextWants

__all__ = ["BaseIndex", "apply_patch", "changes_from_patch", "read_patch"]

STDIN_NAME = "<stdin>"
# --- 1. reading ------------------------------------------------------------


def read_patch(path: str) -> bytes:
    """The patch's bytes; `-` reads stdin.  Unreadable or missing -> GateError (exit 2)."""
    return files.read_input(
        path, "patch file", limit=files.PATCH_LIMIT, fix="pass a unified diff file", stdin=True
    )


# --- 3. applying -----------------------------------------------------------

# `-` reads the patch from stdin; whitespace warnings off so the user's
# `apply.whitespace` config cannot turn a verdict into an error.
_APPLY = ("apply", "--cached", "--whitespace=nowarn", "-")


def _git_env(repo: Repo, index: str, git_dir: str | None = None) -> dict[str, str]:
    """Environment for git calls on a temporary index.

    `GIT_DIR` is set explicitly so that git treats the folder it runs in as
    the top of the work tree: run from a subdirectory, `git apply` would
    otherwise prefix every path with that subdirectory and silently skip
    the files outside it.
    """
    if git_dir is None:
        git_dir = repo.run(["rev-parse", "--absolute-git-dir"]).decode("utf-8").rstrip("\n")
    return {"GIT_DIR": git_dir, "GIT_INDEX_FILE": index}


class BaseIndex:
    """The base tree read once into a template index; each patch gets a copy.

    `gate lab` judges many patches against one base: `read-tree` runs once
    here, and `apply_patch(..., base_index=...)` copies the template (a file
    copy instead of a git process).  Safe to share between threads.  Use as a
    context manager or call `close()`.
    """

    def __init__(self, repo: Repo, base_sha: str) -> None:
        self.repo = repo
        self.base_sha = base_sha
        self._dir = tempfile.TemporaryDirectory(prefix="gate-base-index-")
        self.template = os.path.join(self._dir.name, "index")
        try:
            self.git_dir = _git_env(repo, self.template)["GIT_DIR"]
            repo.run(["read-tree", base_sha], env=_git_env(repo, self.template, self.git_dir))
        except BaseException:
            self._dir.cleanup()
            raise

    def copy_to(self, index_file: str) -> None:
        shutil.copyfile(self.template, index_file)

    def fresh_copy(self) -> str:
        """A new copy of the template in the template's folder (its path);
        the caller removes it."""
        fd, path = tempfile.mkstemp(prefix="index-", dir=self._dir.name)
        os.close(fd)
        shutil.copyfile(self.template, path)
        return path

    def close(self) -> None:
        self._dir.cleanup()

    def __enter__(self) -> BaseIndex:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _git_reason(message: str) -> str:
    """git's first stderr line from a `Repo.run` error, without the prefixes."""
    for prefix in ("git apply failed: ", "error: "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    message = message.strip()
    if message.endswith(": does not exist in index"):  # the index is our temporary base copy
        message = message[: -len("in index")] + "in the base tree"
    return message or "git apply failed"


def apply_patch(
    repo: Repo,
    base_sha: str,
    data: bytes,
    name: str,
    *,
    base_index: BaseIndex | None = None,
) -> str:
    """The TREE sha of `base_sha` with the patch applied, as `git apply --cached` does it.

    Runs `check_pure` first (so no caller can skip it), then works in a
    temporary index; the real index and working tree are never touched.
    Not pure, or does not apply -> PatchError (exit 3).  `base_index` (for
    the same base) saves the `read-tree` per patch.
    """
    check_pure(data, name)
    if base_index is not None and base_index.base_sha != base_sha:
        raise GateError(
            f"internal: the prepared base index is for {base_index.base_sha[:12]}, "
            f"not {base_sha[:12]}"
        )
    if base_index is not None:
        # A copy of the template beside it: a file, not a folder of its own
        # per patch, which `gate lab` would make and remove for every patch.
        index = base_index.fresh_copy()
        try:
            return _apply_to(repo, base_sha, data, name, _git_env(repo, index, base_index.git_dir))
        finally:
            for leftover in (index, index + ".lock"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(leftover)
    with tempfile.TemporaryDirectory(prefix="gate-patch-") as tmp:
        env = _git_env(repo, os.path.join(tmp, "index"))
        repo.run(["read-tree", base_sha], env=env)
        return _apply_to(repo, base_sha, data, name, env)


def _applied_already(repo: Repo, data: bytes, env: dict[str, str]) -> bool:
    """Whether the patch's reverse applies to the index `env` names (checked
    only, nothing written): the base already holds the patch."""
    try:
        repo.run(
            ["apply", "--cached", "--check", "--reverse", "--whitespace=nowarn", "-"],
            env=env,
            input=data,
        )
    except GateError:
        return False
    return True


def _apply_to(repo: Repo, base_sha: str, data: bytes, name: str, env: dict[str, str]) -> str:
    """`git apply --cached` of `data` on the index `env` names, then its tree."""
    try:
        repo.run(list(_APPLY), env=env, input=data)
    except GateError as exc:
        if _applied_already(repo, data, env):
            raise PatchError(
                f"{name}: the patch is already applied at {base_sha[:12]} (its reverse "
                "applies): pass --base the commit before it, or judge the commit itself "
                "with gate check and no --patch"
            ) from None
        raise PatchError(
            f"{name}: the patch does not apply to {base_sha[:12]}: {_git_reason(exc.message)}"
        ) from None
    return repo.run(["write-tree"], env=env).decode("ascii").strip()


def changes_from_patch(
    repo: Repo,
    base_sha: str,
    data: bytes,
    name: str,
    content_files: Iterable[str] | TextWants,
    *,
    stdout: str | None = None,
    base_index: BaseIndex | None = None,
) -> ChangeSet:
    """The change a patch makes to `base_sha`, with texts for `content_files`
    (the patch-mode twin of `gate.changes.git.changes_from_git`; `gate check --patch`
    and `gate lab` both judge through it).  The report's head is None: a
    patch is not a commit."""
    from gate.drift.folders import tree_folders
    from gate.model.change import ChangeSet, text_wants

    tree = apply_patch(repo, base_sha, data, name, base_index=base_index)
    with repo.start_diff(base_sha, tree, background=False) as job:
        files = job.result()
        notes = job.notes()  # git's limits on renames and copies, as in git mode
    wants = text_wants(content_files)
    layout = repo.base_tree(base_sha, tree_folders(files)) if wants.tree else None
    paths = (*wants.paths(files), *wants.package(files, layout))
    return ChangeSet(
        files=files,
        base=base_sha,
        head=None,
        stdout=stdout,
        texts=repo.read_texts(base_sha, tree, paths),
        source="patch",
        notes=notes,
        tree=layout,
    )
