"""Where a rubric comes from: the base commit's tree, or a local file.

The security model in one line: a change must never be judged by rules it
could edit.  So in git mode the rubric is read from the *base* commit's tree
(`git cat-file` on `<base sha>:<path>`), never from the working tree, the
index or the head, all of which the change controls.  A rubric that exists
only in the head is not a rubric.  A local `--rubric-file` is the caller's
own choice; `--freeze` pins its bytes to a recorded sha256.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from gate.errors import GateError
from gate.git import Repo, is_sha, short

if TYPE_CHECKING:
    from gate.model import Rubric


def repo_path(path: str) -> str:
    """`path` as a clean repository-relative path, or GateError."""
    clean = path.removeprefix("./")
    parts = PurePosixPath(clean).parts
    if not clean or clean.startswith("/") or ".." in parts or "\\" in clean or "\0" in clean:
        raise GateError(
            f"rubric path {path!r} is not a repository-relative path: "
            "pass --rubric like .github/blast-radius.yml"
        )
    return "/".join(parts)


def _verify(freeze_path: str | None, name: str, data: bytes) -> None:
    if freeze_path is not None:
        from gate.freeze import verify_freeze

        verify_freeze(freeze_path, name, data)


def rubric_from_commit(repo: Repo, rev: str, path: str, freeze_path: str | None = None) -> Rubric:
    """The rubric at `path` in the tree of commit `rev` (the base)."""
    from gate.rubric import load_rubric_bytes

    clean = repo_path(path)
    sha = repo.rev_parse(rev) if not is_sha(rev) else rev
    data = repo.read_blob(sha, clean)
    if data is None:
        raise GateError(
            f"no rubric at {clean} in base commit {short(sha)}: add it in its own PR first; "
            "a rubric that exists only in the head is not a rubric"
        )
    _verify(freeze_path, clean, data)
    return load_rubric_bytes(data, f"{short(sha)}:{clean}")


def rubric_from_file(path: str, freeze_path: str | None = None) -> Rubric:
    """A local rubric file; with `freeze_path`, its bytes must match the freeze."""
    from gate.rubric import load_rubric_bytes

    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise GateError(f"rubric file {path} does not exist: check the path") from None
    except IsADirectoryError:
        raise GateError(f"rubric file {path} is a directory: name the rubric file") from None
    except OSError as exc:
        raise GateError(
            f"cannot read rubric file {path} ({exc.strerror}): check the path"
        ) from None
    _verify(freeze_path, path, data)
    return load_rubric_bytes(data, path)
