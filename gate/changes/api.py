"""A `ChangeSet` from the API, for runs without both commits in git.

The listing is the compare API's `base...head` of the event's two commits
(never the PR files listing, which shows the PR as it is when asked: after a
push, another head): each file's status, previous name and line counts; the
contents API gives file text at the merge base and head SHAs for the files
that content rules name and the files read by glob: the test files and
runner configuration files `test_drift` compares (at most `GLOB_READS`,
each on the sides where it exists; the compare API names the merge base).
The compare API lists at most 300 files: when it lists fewer distinct paths
than the event's `changed_files`, the change set is incomplete and built-in
`gate.diff-incomplete` fails (never a silent pass).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gate.base.text import decode
from gate.drift.folders import tree_folders
from gate.github.client_types import Comparison, PullFile
from gate.model.change import (
    ADDED,
    COPIED,
    DELETED,
    EMPTY_BLOBS,
    MODIFIED,
    RENAMED,
    TREE_READS,
    TYPE_CHANGED,
    UNKNOWN,
    BaseTree,
    ChangeSet,
    FileChange,
    FileTexts,
    TextWants,
    all_images,
    line_count,
    sides,
    text_limit,
    text_wants,
    too_large,
)

# GitHub file status -> change-set status.  "changed" is git's `T`, a type
# change (a file became a symlink or a submodule, or back; a mode change
# alone is "modified"): the listing gives no modes, so the change set says
# "type changed, to what unknown", and content rules fail it
# (`gate.rules._opening.type_change`): the contents API reads a symlink to
# a file of the repository as that file's text, which could spell the old one.
STATUS_MAP = {
    "added": ADDED,
    "removed": DELETED,
    "modified": MODIFIED,
    "renamed": RENAMED,
    "copied": COPIED,
    "changed": TYPE_CHANGED,
}
UNCHANGED = "unchanged"


@dataclass(frozen=True)
class ApiListing:
    files: tuple[FileChange, ...]
    listed: int  # entries the API returned (unchanged ones included)
    expected: int | None  # the PR's changed_files, when known


# The most files listed without line counts whose two sides the gate reads
# through the contents API (two requests each) to count them as git mode does.
BLOB_READS = 100
# Why a file from the listing has no line counts (FileChange.uncounted), until
# `count_unlisted` reads its blobs, and for the files past BLOB_READS.
UNLISTED = (
    "GitHub's file listing gives it no line counts (a binary file, or a rename or mode "
    f"change shown without a diff) and the gate reads at most {BLOB_READS} such files through "
    "the API; judged from git, it is counted (check out both commits: actions/checkout "
    "fetch-depth: 0)"
)

# Why a text file from the listing has no line counts: its patch holds a
# carriage return that does not end in a newline, a line end GitHub (like
# git) does not count, so its counts undercount; `count_unlisted` counts
# every line of both sides, ending lines at \n, \r\n and \r.
LONE_CR = (
    "it holds a carriage return alone, a line end GitHub's counts miss, and the gate reads "
    f"at most {BLOB_READS} files through the API to count them; judged from git, it is "
    "counted (check out both commits: actions/checkout fetch-depth: 0)"
)

# Why a copy from the listing has no line counts: GitHub counts its lines
# against its source (an exact copy shows none), and a copy never shrinks a
# line budget; `count_unlisted` counts every line of its blob.
COPY_UNCOUNTED = (
    "GitHub's file listing counts a copy's lines against its source, and the gate reads at "
    f"most {BLOB_READS} files through the API to count them; judged from git, it is counted "
    "(check out both commits: actions/checkout fetch-depth: 0)"
)


def file_change(entry: PullFile) -> FileChange | None:
    """One listing entry as a `FileChange` (None for an "unchanged" entry).

    GitHub lists a binary file with no patch and 0 additions and deletions,
    and shows a pure rename or mode change the same way as a binary file
    renamed and edited.  Such an entry's counts are unknown here, never 0
    (binary-ness never shrinks a line budget); `count_unlisted` then counts
    it from its blobs as git mode does.  Only an added file whose blob is
    the empty blob is known to add nothing.  A copy's counts are GitHub's
    diff against its source, so they are unknown too (`COPY_UNCOUNTED`):
    counted as an added file's, as git mode counts a copy.  A text file
    whose patch holds a lone carriage return (`PullFile.lone_cr`) is
    counted whole from its blobs too (`LONE_CR`), as git mode does."""
    if entry.status == UNCHANGED:
        return None
    status = STATUS_MAP.get(entry.status, UNKNOWN)
    old_path = entry.previous_filename if status in (RENAMED, COPIED) else None
    no_diff = not entry.has_patch and entry.additions == 0 and entry.deletions == 0
    reason = None
    if status == COPIED:
        reason = COPY_UNCOUNTED
    elif entry.lone_cr:
        reason = LONE_CR
    elif no_diff and not (status == ADDED and entry.sha in EMPTY_BLOBS):
        reason = UNLISTED
    return FileChange(
        path=entry.filename,
        status=status,
        old_path=old_path,
        added=None if reason else entry.additions,
        deleted=None if reason else entry.deletions,
        uncounted=reason,
    )


def count_unlisted(
    files: Iterable[FileChange],
    read_file: Callable[[str, str], bytes | None],
    fork: str,
    head: str,
) -> tuple[FileChange, ...]:
    """`files` with the listing's uncounted entries counted from their blobs,
    as git mode counts them: nothing when both sides are the same bytes (a
    pure rename or mode change), else every line of the old side deleted and
    every line of the new side added (`line_count`); a side that is absent
    or not a file (a submodule) counts 0.  A copy counts as an added file:
    every line of its blob, its source not read.  At most `BLOB_READS` files
    are read (sorted by path); the rest keep unknown counts.  `binary`
    follows git's own test: a NUL byte in the first 8000 bytes of either side;
    `image` marks a binary file whose every version is a well-formed image
    (`all_images`), as git mode does."""
    out = []
    reads = 0
    for f in files:
        if f.uncounted not in (UNLISTED, COPY_UNCOUNTED, LONE_CR) or reads >= BLOB_READS:
            out.append(f)
            continue
        reads += 1
        old = None if f.status in (ADDED, COPIED) else read_file(fork, f.old_path or f.path)
        new = None if f.status == DELETED else read_file(head, f.path)
        sides = [b"" if data is None else data for data in (old, new)]
        binary = any(b"\0" in data[:8000] for data in sides)
        if sides[0] == sides[1]:
            out.append(f._replace(added=0, deleted=0, binary=binary, uncounted=None))
        else:
            was, now = (None if data is None else line_count((data,)) for data in (old, new))
            deleted, added = (0 if c is None else c.lines for c in (was, now))
            # every side its status says it has was read (not a submodule)
            whole = (old is None) == (f.status in (ADDED, COPIED)) and (new is None) == (
                f.status == DELETED
            )
            image = binary and whole and all_images(f, was, now)
            out.append(
                f._replace(added=added, deleted=deleted, binary=binary, uncounted=None, image=image)
            )
    return tuple(out)


def listing(entries: Iterable[PullFile], expected: int | None) -> ApiListing:
    """The listing's entries as changes; `listed` counts distinct paths, so
    a listing that repeats entries (a page served twice) never reaches the
    expected count by repetition.  A repeated entry is kept once; entries
    for one path that disagree are all kept (each counts its lines)."""
    files = []
    seen: set[PullFile] = set()
    paths: set[str] = set()
    for entry in entries:
        paths.add(entry.filename)
        if entry in seen:
            continue
        seen.add(entry)
        change = file_change(entry)
        if change is not None:
            files.append(change)
    files.sort(key=lambda f: (f.path, f.old_path or ""))
    return ApiListing(files=tuple(files), listed=len(paths), expected=expected)


# The most files read by glob (`TextWants.touched`: the test files and the
# runner configuration files `test_drift` compares) whose sides the gate
# reads through the contents API (one request a side).  Past it a file's
# texts are withheld, with why, and `test_drift` fails on that file.
GLOB_READS = 100
PAST_GLOB_READS = (
    f"the Action's API mode reads at most {GLOB_READS} test and test runner configuration "
    "files through the contents API and this pull request touches more; judged from git, "
    "every one is read (check out both commits: actions/checkout fetch-depth: 0)"
)

# The most files beside the change's new files (`TextWants.nearby`: the
# runner configuration above a new JS/TS test file) read through the
# contents API; past it a file is withheld, and `test_drift` judges the new
# test file's load-time code as running beside other files' tests.
NEAR_READS = 100
PAST_NEAR_READS = (
    f"the Action's API mode reads at most {NEAR_READS} runner configuration files beside "
    "new test files through the contents API and this pull request needs more"
)


# The most modified files read for hints (`TextWants.hinted`: the code files
# whose renames `test_drift` lets a test follow) through the contents API;
# past it a file is not read, and a test that follows its renames is judged
# as edited.
HINT_READS = 50

# The most files of the folders around modified test files read through
# the contents API (`TextWants.package`: every Go file of a modified Go
# test's package, which `test_drift` reads to prove a removed declaration
# unread); past it a file is not read, and the removal is judged as one.
PACKAGE_READS = 50


def other_history(comparison: Comparison) -> str | None:
    """Why the compare API's commits cannot show that the merge base it
    names is the only one (None: they can, up to `forks`).  Comparisons
    whose commits are not all listed cannot be shown anything."""
    listed = {sha for sha, _ in comparison.commits}
    if len(listed) < comparison.total_commits:
        return (
            f"the compare API listed {len(listed)} of the change's "
            f"{comparison.total_commits} commits"
        )
    return None


def forks(comparison: Comparison) -> tuple[str, ...]:
    """The commits outside the change that a commit of `base..head` has as a
    parent, other than the merge base.  Every common ancestor of base and
    head is an ancestor of one of these or of the merge base, so the merge
    base is the only one exactly when each of these is its ancestor (else
    base and head have several merge bases, which the API does not show)."""
    listed = {sha for sha, _ in comparison.commits}
    outside = {p for _, parents in comparison.commits for p in parents if p not in listed}
    return tuple(sorted(outside - {comparison.merge_base}))


# The most extra compare requests spent showing `forks` to be ancestors of
# the merge base; past it API mode cannot judge (git can).
FORK_CHECKS = 5


def _texts(
    read_file: Callable[[str, str], bytes | None],
    path: str,
    fork: str | None,
    head: str,
    *,
    at: tuple[bool, bool] = (True, True),
) -> FileTexts:
    """`path`'s texts at `fork` and `head` (`fork` None: untouched, the head
    text on both sides), read only on the sides `at` says it exists (None
    on the others); `too_large` when a side is over `text_limit(path)`."""
    found: dict[str, str | None] = {}
    for (side, ref), exists in zip((("base", fork), ("head", head)), at, strict=True):
        if ref is None:
            continue
        if not exists:
            found[side] = None
            continue
        data = read_file(ref, path)
        limit = text_limit(path)
        if data is not None and len(data) > limit:
            return too_large(side, len(data), limit)
        found[side] = None if data is None else decode(data)
    return FileTexts(base=found.get("base", found["head"]), head=found["head"])


def changes_from_api(
    found: ApiListing,
    *,
    base: str,
    head: str,
    content_files: Iterable[str] | TextWants,
    read_file: Callable[[str, str], bytes | None],
    stdout: str | None = None,
    merge_base: str | None = None,
    list_folder: Lister | None = None,
) -> ChangeSet:
    """The change set from a listing; texts via `read_file(ref, path)`.

    The listing is GitHub's three-dot diff, so base-side texts are read at
    `merge_base` (where the head forked from the base branch; default `base`),
    as `gate.changes.git.changes_from_git` reads them.  Reading them at `base` when the
    base branch moved on would judge the head against commits it never saw.
    The change set still names `base` (the PR's base sha) as its base.
    Files listed without line counts are counted from their blobs, read
    the same way (`count_unlisted`).  When a rule reads the base tree's
    layout, `list_folder(ref, path)` lists it at the merge base
    (`base_tree`); without it the change set has no layout, and
    `test_drift` fails a new module in a test folder (it cannot tell what
    it shadows).
    """
    touched = {p for f in found.files for p in f.touched}
    fork = merge_base or base
    wants = text_wants(content_files)

    texts = {}
    for path in wants.files:
        if path in touched:
            texts[path] = _texts(read_file, path, fork, head)
        else:  # untouched: the same text on both sides, one request
            texts[path] = _texts(read_file, path, None, head)
    extra = wants.extra(found.files)
    at = sides(found.files)
    for path in extra[:GLOB_READS]:
        texts[path] = _texts(read_file, path, fork, head, at=at.get(path, (True, True)))
    for path in extra[GLOB_READS:]:
        texts[path] = FileTexts(base=None, head=None, withheld=PAST_GLOB_READS)
    near = wants.nearby(found.files)
    for path in near[:NEAR_READS]:  # beside a new file: read at base, both sides if touched
        if path in touched:
            texts[path] = _texts(read_file, path, fork, head, at=at.get(path, (True, True)))
        else:
            texts[path] = _texts(read_file, path, None, fork)  # one request, at the fork
    for path in near[NEAR_READS:]:
        texts[path] = FileTexts(base=None, head=None, withheld=PAST_NEAR_READS)
    for path in wants.hinted(found.files)[:HINT_READS]:  # past the cap: unread, proves less
        texts[path] = _texts(read_file, path, fork, head, at=at.get(path, (True, True)))
    files = count_unlisted(found.files, read_file, fork, head)
    tree = base_tree(list_folder, fork, found.files) if wants.tree and list_folder else None
    for path in wants.package(found.files, tree)[:PACKAGE_READS]:  # past the cap: proves less
        if path in touched:
            texts[path] = _texts(read_file, path, fork, head, at=at.get(path, (True, True)))
        else:
            texts[path] = _texts(read_file, path, None, fork)  # one request, at the fork
    return ChangeSet(
        files=files, base=base, head=head, stdout=stdout, texts=texts, source="api", tree=tree
    )


# `list_folder(ref, path)`: a folder's entries as (name, the contents API's
# type), or None (no folder there, or more entries than the API lists).
Lister = Callable[[str, str], "tuple[tuple[str, str], ...] | None"]
_KINDS = {"file": "file", "dir": "folder", "submodule": "folder", "symlink": "link"}


def base_tree(list_folder: Lister, ref: str, files: Iterable[FileChange]) -> BaseTree:
    """The base tree's layout (`BaseTree`) from the contents API, one
    request a folder, at most `TREE_READS`: the layout roots first, then
    the folders `tree_folders` names that their parent's listing shows to
    be folders, shallow ones first.  A folder past the cap, or with more
    entries than the API lists, is left unlisted (`BaseTree.listed`):
    `test_drift` then judges what hangs on it the strict way."""
    entries: dict[str, str] = {}
    listed: set[str] = set()
    reads = 0
    wanted = sorted(tree_folders(files), key=lambda p: (p.count("/") + bool(p), p))
    for folder in wanted:
        parent = folder.rpartition("/")[0]
        if folder and (parent not in listed or entries.get(folder) != "folder"):
            continue  # absent, a file, or under a folder not listed
        if reads >= TREE_READS:
            break
        reads += 1
        found = list_folder(ref, folder)
        if found is None:
            continue
        listed.add(folder)
        prefix = f"{folder}/" if folder else ""
        for child, kind in found:
            entries[prefix + child] = _KINDS.get(kind, "file")
    return BaseTree(entries=entries, listed=frozenset(listed))
