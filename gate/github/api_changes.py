"""A `ChangeSet` from the PR files API, for runs without both commits in git.

The listing gives each file's status, previous name and line counts; the
contents API gives file text at the merge base and head SHAs for the files
that content rules name (the compare API names the merge base).  GitHub's
listing stops at 3000 files: when it returns fewer entries than the PR's
`changed_files`, the change set is incomplete and built-in
`gate.diff-incomplete` fails (never a silent pass).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gate.changes import (
    ADDED,
    COPIED,
    DELETED,
    EMPTY_BLOBS,
    MODIFIED,
    RENAMED,
    UNKNOWN,
    ChangeSet,
    FileChange,
    FileTexts,
)
from gate.github.client import PullFile
from gate.model import DIFF_INCOMPLETE, Result
from gate.text import decode

# GitHub file status -> change-set status.  "changed" is a mode or type
# change: the content may be the same, the path is still touched.
STATUS_MAP = {
    "added": ADDED,
    "removed": DELETED,
    "modified": MODIFIED,
    "renamed": RENAMED,
    "copied": COPIED,
    "changed": MODIFIED,
}
UNCHANGED = "unchanged"
FILES_API_LIMIT = 3000


@dataclass(frozen=True)
class ApiListing:
    files: tuple[FileChange, ...]
    listed: int  # entries the API returned (unchanged ones included)
    expected: int | None  # the PR's changed_files, when known


# Why a file from the listing has no line counts (FileChange.uncounted).
FROM_GIT = "judged from git, it is counted: check out both commits, actions/checkout fetch-depth: 0"
BINARY_UNCOUNTED = f"GitHub's file listing gives no line counts for a binary file ({FROM_GIT})"
RENAME_UNCOUNTED = (
    "GitHub's file listing shows a pure rename or mode change exactly as it shows a binary "
    f"file renamed and edited, without line counts ({FROM_GIT})"
)


def file_change(entry: PullFile) -> FileChange | None:
    """One listing entry as a `FileChange` (None for an "unchanged" entry).

    GitHub lists a binary file with no patch and 0 additions and deletions.
    Its counts are unknown here, never 0 (binary-ness never shrinks a line
    budget; git mode counts such a file line by line).  So are those of a
    rename, copy or mode change listed without a patch or counts: it may be
    a binary file that was also edited, and the listing cannot tell.  Only
    an added file whose blob is the empty blob is known to add nothing."""
    if entry.status == UNCHANGED:
        return None
    status = STATUS_MAP.get(entry.status, UNKNOWN)
    old_path = entry.previous_filename if status in (RENAMED, COPIED) else None
    no_diff = not entry.has_patch and entry.additions == 0 and entry.deletions == 0
    uncounted = None
    binary = False
    if no_diff and not (status == ADDED and entry.sha in EMPTY_BLOBS):
        if status in (RENAMED, COPIED) or entry.status == "changed":
            uncounted = RENAME_UNCOUNTED
        else:
            binary = True
            uncounted = BINARY_UNCOUNTED
    return FileChange(
        path=entry.filename,
        status=status,
        old_path=old_path,
        added=None if uncounted else entry.additions,
        deleted=None if uncounted else entry.deletions,
        binary=binary,
        uncounted=uncounted,
    )


def listing(entries: Iterable[PullFile], expected: int | None) -> ApiListing:
    files = []
    listed = 0
    for entry in entries:
        listed += 1
        change = file_change(entry)
        if change is not None:
            files.append(change)
    files.sort(key=lambda f: (f.path, f.old_path or ""))
    return ApiListing(files=tuple(files), listed=listed, expected=expected)


def diff_incomplete(found: ApiListing | None) -> Result:
    """Built-in `gate.diff-incomplete` (None: the change came whole from git)."""
    if found is None:
        return Result(
            id=DIFF_INCOMPLETE,
            kind="builtin",
            passed=True,
            message="the change set was read completely from git",
        )
    if found.expected is None:
        return Result(
            id=DIFF_INCOMPLETE,
            kind="builtin",
            passed=False,
            message=(
                f"the PR files API listed {found.listed} files but the PR's changed_files "
                "count is unknown, so the listing cannot be shown complete; check out both "
                "commits (actions/checkout with fetch-depth: 0) to judge from git"
            ),
        )
    if found.listed < found.expected:
        cap = " (the API stops at 3000 files)" if found.listed >= FILES_API_LIMIT else ""
        return Result(
            id=DIFF_INCOMPLETE,
            kind="builtin",
            passed=False,
            message=(
                f"the PR files API listed {found.listed} of {found.expected} changed files"
                f"{cap}; the change cannot be judged from a partial listing: check out both "
                "commits (actions/checkout with fetch-depth: 0) so the gate reads git, "
                "or split the PR"
            ),
        )
    return Result(
        id=DIFF_INCOMPLETE,
        kind="builtin",
        passed=True,
        message=f"the PR files API listed all {found.listed} changed files",
    )


def touched_content_files(found: ApiListing, content_files: Iterable[str]) -> tuple[str, ...]:
    """The content-rule files the listing touches: the only ones read on both sides."""
    touched = {p for f in found.files for p in f.touched}
    return tuple(sorted(set(content_files) & touched))


def changes_from_api(
    found: ApiListing,
    *,
    base: str,
    head: str,
    content_files: Iterable[str],
    read_file: Callable[[str, str], bytes | None],
    stdout: str | None = None,
    merge_base: str | None = None,
) -> ChangeSet:
    """The change set from a listing; texts via `read_file(ref, path)`.

    The listing is GitHub's three-dot diff, so base-side texts are read at
    `merge_base` (where the head forked from the base branch; default `base`),
    as `gate.git.changes_from_git` reads them.  Reading them at `base` when the
    base branch moved on would judge the head against commits it never saw.
    The change set still names `base` (the PR's base sha) as its base.
    """
    touched = {p for f in found.files for p in f.touched}
    fork = merge_base or base

    def text(ref: str, path: str) -> str | None:
        data = read_file(ref, path)
        return None if data is None else decode(data)

    texts = {}
    for path in sorted(set(content_files)):
        if path in touched:
            texts[path] = FileTexts(base=text(fork, path), head=text(head, path))
        else:  # untouched: the same text on both sides, one request
            same = text(head, path)
            texts[path] = FileTexts(base=same, head=same)
    return ChangeSet(
        files=found.files, base=base, head=head, stdout=stdout, texts=texts, source="api"
    )
