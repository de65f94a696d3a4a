"""Where a rubric comes from: one `RubricSource` for every entry point.

The security model in one line: a change must never be judged by rules it
could edit.  So the rubric is read from the *base* commit's tree (git's
`cat-file` on `<base sha>:<path>`, or the contents API at the base sha in
the Action), never from the working tree, the index or the head, all of
which the change controls.  A rubric that exists only in the head is not a
rubric.  A local rubric file (`--rubric-file`, `gate grade --rubric`,
`gate selftest FILE`, `gate validate`) is the caller's own choice.

A source says it all once: the rubric's repository path, normalized on
creation by the one owner of the spelling (`gate.model.rubric.repo_path`; the
path is also what `gate.rubric-edited` watches), the local file if one
replaces the commit's, and the pin the bytes must match before they are
parsed: a freeze file entry (`--freeze`, `gate.rubric.freeze`) or a
SHA-256 (the Action's `rubric-sha256` input).
`gate check`, `gate lab`, `gate grade`, `gate selftest`, `gate validate`,
`gate demo` and the Action all get their rubric through it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gate.base.errors import GateError
from gate.base.names import DEFAULT_RUBRIC_PATH
from gate.model.rubric import repo_path

if TYPE_CHECKING:
    from pathlib import Path

    from gate.model.rubric import Rubric

# Reads a file at a commit: (commit sha, repository path) -> its bytes, or
# None when the commit has no file there.  `gate.git.repo.Repo.read_blob`, or the
# Action's contents-API reader.
BlobReader = Callable[[str, str], "bytes | None"]


@dataclass(frozen=True)
class RubricSource:
    """Where one run's rubric comes from, and what its bytes must match.

    `path`: the rubric's repository path (normalized on creation): where it
    is read at a commit, and what `gate.rubric-edited` watches.  `file`: a
    local rubric file read instead of the commit's.  `freeze`: a freeze file
    whose entry for the rubric must match its bytes.  `sha256`: the SHA-256
    the bytes must have (the Action's `rubric-sha256` input).
    """

    path: str = DEFAULT_RUBRIC_PATH
    file: str | None = None
    freeze: str | None = None
    sha256: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", repo_path(self.path))

    def load(
        self,
        read_blob: BlobReader | None = None,
        commit: str | None = None,
        *,
        work_tree: Path | None = None,
    ) -> Rubric:
        """The rubric: the local `file` when one is named, else the one at
        `commit` (a full sha) read with `read_blob`; none there is an error,
        which names `--rubric-file` when `work_tree` has a file at the path
        (a rubric not landed yet can be tried that way)."""
        if self.file is not None:
            from gate.base.files import read_input
            from gate.rubric.load import MAX_BYTES

            data = read_input(
                self.file,
                "rubric file",
                limit=MAX_BYTES,
                fix="check the path, or run `gate init` to create one",
                too_large="a rubric is a short list of rules, so trim it",
            )
            return self.parse(data, self.file)
        if read_blob is None or commit is None:
            raise ValueError("a rubric at a commit needs read_blob and commit")
        rubric = self.at_commit(read_blob, commit)
        if rubric is None:
            from gate.git.repo import short

            local = ""
            if work_tree is not None and (work_tree / self.path).is_file():
                local = (
                    f"; to try the working tree's copy before it lands, pass "
                    f"--rubric-file {self.path}"
                )
            raise GateError(
                f"no rubric at {self.path} in base commit {short(commit)}: add it in its own "
                f"PR first; a rubric that exists only in the head is not a rubric{local}"
            )
        return rubric

    def at_commit(self, read_blob: BlobReader, commit: str) -> Rubric | None:
        """The rubric at `commit` (a full sha), its pin checked; None when the
        commit has no file at `path` (the caller decides what that means)."""
        from gate.git.repo import short

        data = read_blob(commit, self.path)
        if data is None:
            return None
        return self.parse(data, f"{short(commit)}:{self.path}")

    def parse(self, data: bytes, name: str) -> Rubric:
        """`data` (the rubric's bytes, named `name` in messages) checked against
        the pin, then loaded (`gate.rubric.load.load_rubric_bytes`)."""
        from gate.rubric.load import load_rubric_bytes, sha256_hex

        if self.freeze is not None:
            from gate.rubric.freeze import verify_freeze

            verify_freeze(self.freeze, self.file if self.file is not None else self.path, data)
        if self.sha256 is not None:
            actual = sha256_hex(data)
            if actual != self.sha256:
                raise GateError(
                    f"rubric {name} has SHA-256 {actual} but the rubric-sha256 input pins "
                    f"{self.sha256}: the rubric changed after it was pinned; review the change "
                    "and update the pin"
                )
        return load_rubric_bytes(data, name)
