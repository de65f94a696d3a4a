"""The change set of two commits, from git: `base...head` (`gate check`,
`gate backtest`, `gate demo`, the Action on a checkout).

`gate check` starts the diff itself (`gate.git.repo.start_change`, which
imports nothing of the change model), loads the rubric while git diffs, and
then calls `changes_of`; the other callers call `changes_from_git`, which
does both.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import TYPE_CHECKING

from gate.changes import (
    ADDED,
    UNKNOWN,
    BaseTree,
    ChangeSet,
    FileChange,
    FileTexts,
    TextWants,
    text_wants,
    tree_folders,
)
from gate.git.repo import short, start_change

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
    # The path-only work starts on the quick diff's paths, while git still
    # counts; it stands only if the diff writes the same paths, and its
    # errors are raised after the diff's own, in the order they had.
    early = job.touched()
    pending: Exception | None = None
    if early is not None:
        try:
            extra, tree = _path_work(repo, judged, wants, early)
        except Exception as exc:  # raised below, after the diff's own errors
            pending = exc
    files = job.result()
    if early is not None and early != _written(files):
        early = pending = None  # never seen: git's two diffs disagree
    if pending is not None:
        raise pending
    if early is None:
        extra, tree = _path_work(repo, judged, wants, files)
    texts.update(extra)
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


def _path_work(
    repo: Repo, judged: Span, wants: TextWants, files: Iterable[FileChange] | Set[str]
) -> tuple[dict[str, FileTexts], BaseTree | None]:
    """What the change set needs of the touched paths alone: the texts of the
    written files `wants` asks for by glob (test_drift's tests, one more
    `cat-file` batch) and the base tree's listing for `BaseTree`.  `files`:
    the change's files, or the paths it writes (`_written`)."""
    if isinstance(files, Set):  # all the two read of a file: a written path
        files = [FileChange(path, ADDED) for path in files]
    extra = wants.extra(files)
    texts = repo.read_texts(judged.old, judged.new, extra) if extra else {}
    tree = repo.base_tree(judged.old, tree_folders(files)) if wants.tree else None
    return texts, tree


def _written(files: Iterable[FileChange]) -> frozenset[str]:
    """The written paths of a known status: all that `TextWants.extra` and
    `tree_folders` read of the files."""
    return frozenset(p for f in files if f.status != UNKNOWN for p in f.written)


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
