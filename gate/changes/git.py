"""The change set of two commits, from git: `base...head` (`gate check`,
`gate backtest`, `gate demo`, the Action on a checkout).

`gate check` starts the diff itself (`gate.git.repo.start_change`, which
imports nothing of the change model), loads the rubric while git diffs, and
then calls `changes_of`; the other callers call `changes_from_git`, which
does both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from gate.drift.folders import tree_folders
from gate.git.repo import short, start_change
from gate.model.change import ChangeSet, TextWants, text_wants

if TYPE_CHECKING:
    from gate.git.diff import DiffJob
    from gate.git.repo import Repo, Span, Started


def changes_from_git(
    repo: Repo,
    base_rev: str,
    head_rev: str,
    content_files: Iterable[str] | TextWants,
    *,
    stdout: str | None = None,
    parent: bool = False,
) -> ChangeSet:
    """The change `base...head` with texts for `content_files` (`changes_of`).

    The report names the resolved base and head shas.  `parent`: the caller
    vouches that `base_rev` is a parent of `head_rev`, both full shas
    (`start_change`)."""
    with start_change(repo, base_rev, head_rev, parent=parent, background=False) as started:
        return changes_of(started, content_files, stdout=stdout)


def changes_of(
    started: Started,
    content_files: Iterable[str] | TextWants,
    *,
    stdout: str | None = None,
    notes: Iterable[str] = (),
) -> ChangeSet:
    """The change set of a started change, with texts for `content_files`
    (a `TextWants`: also the written files it asks for by glob, read in one
    more `cat-file` batch once the diff names them).

    Base-side texts come from the merge base (where the change starts), head
    texts from the head; with several merge bases, from base and the merged
    tree (`Span`).  The fixed files are read while git still diffs.  `notes`
    (what the caller did not judge) come before the notes on the change."""
    repo, judged, job = started.repo, started.judged, started.job
    wants = text_wants(content_files)
    texts = repo.read_texts(judged.old, judged.new, wants.files)
    files = job.result()
    # the written files read by glob (test_drift's tests), and the files
    # beside the new ones (the runner configuration above a new JS test),
    # and the modified files read for hints (the code files whose renames
    # a test may follow)
    tree = repo.base_tree(judged.old, tree_folders(files)) if wants.tree else None
    # and the files of the folders around them that a rule reads once it
    # knows the layout (every Go file of a modified Go test's package)
    extra = (*wants.extra(files), *wants.nearby(files), *wants.hinted(files))
    extra += wants.package(files, tree)
    if extra:
        texts.update(repo.read_texts(judged.old, judged.new, extra))
    return ChangeSet(
        files=files,
        base=started.base,
        head=started.head,
        stdout=stdout,
        texts=texts,
        source="git",
        notes=(*notes, *change_notes(judged, job)),
        tree=tree,
    )


def change_notes(judged: Span, job: DiffJob) -> tuple[str, ...]:
    """Notes on what was judged of the change `base...head` (with several
    merge bases: the merge into the base, not a diff from one of them) and
    on what git's limits did to it (skipped rename detection)."""
    notes = []
    if judged.merged:
        named = ", ".join(short(b) for b in judged.bases)
        notes.append(
            f"base and head have {len(judged.bases)} merge bases (criss-cross merges: "
            f"{named}); the change was judged as what merging head into base would do: "
            f"base {judged.old} against the merged tree {judged.new} (git merge-tree), "
            "not a diff from one merge base"
        )
    notes.extend(job.notes())
    return tuple(notes)
