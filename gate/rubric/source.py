"""Where a rubric comes from: the base commit's tree, or a local file.

The security model in one line: a change must never be judged by rules it
could edit.  So in git mode the rubric is read from the *base* commit's tree
(`git cat-file` on `<base sha>:<path>`), never from the working tree, the
index or the head, all of which the change controls.  A rubric that exists
only in the head is not a rubric.  A local `--rubric-file` is the caller's
own choice; `--freeze` pins its bytes to a recorded sha256.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from gate.errors import GateError
from gate.git import Repo, is_sha, short

if TYPE_CHECKING:
    from gate.rubric import Rubric


def repo_path(
    path: str,
    *,
    name: str = "rubric path",
    fix: str = "pass --rubric like .github/blast-radius.yml",
) -> str:
    """`path` as the one repository path git names it, or GateError.

    The one owner of rubric-path normalization: `gate check`, `gate lab`,
    `gate selftest --base`, `judge.evaluate` (for `gate.rubric-edited`) and the
    Action's `rubric-path` input all go through it, so `./x.yml`, `x//y.yml`
    and `x/./y.yml` name the same file everywhere.  Refused: an empty path,
    an absolute one, `..`, a backslash and control characters.
    """
    parts = [part for part in path.split("/") if part not in ("", ".")]
    problem = None
    if not parts:
        problem = "is empty"
    elif path.startswith("/"):
        problem = "is absolute"
    elif ".." in parts:
        problem = "leaves the repository (..)"
    elif "\\" in path:
        problem = "contains a backslash (use / separators)"
    elif any(ord(c) < 32 or ord(c) == 127 for c in path):
        problem = "contains a control character"
    if problem is not None:
        shown = json.dumps(path[:60] + ("..." if len(path) > 60 else ""), ensure_ascii=False)
        raise GateError(
            f"{name} {shown} {problem}: it must be a path relative to the repository root; {fix}"
        )
    return "/".join(parts)


def _verify(freeze_path: str | None, name: str, data: bytes) -> None:
    if freeze_path is not None:
        from gate.rubric.freeze import verify_freeze

        verify_freeze(freeze_path, name, data)


def rubric_from_commit(repo: Repo, rev: str, path: str, freeze_path: str | None = None) -> Rubric:
    """The rubric at `path` in the tree of commit `rev` (the base)."""
    from gate.rubric.load import load_rubric_bytes

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
    from gate.rubric.load import load_rubric_bytes

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
