"""Copies: which added or modified file is a copy of a file of the base
(`find_copies`), exactly by blob name (`_base_blobs`, one `git ls-tree
-r`) and nearly by git's copy detection within a budget (`_near_copies`,
`NEAR_COPY_FILES`)."""

from __future__ import annotations

import re
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from gate.base.errors import GateError
from gate.base.paths import from_bytes
from gate.git.conventions import (
    COPIES_DIFF,
    COPIES_FLAGS,
    FULL_SHA,
    RENAME_LIMIT,
    UNREADABLE,
    diff_failed,
    first_line,
)
from gate.git.parse import CopyTarget, nul_records, raw_status

if TYPE_CHECKING:
    from gate.git.catfile import CatFile
    from gate.git.runner import Runner
    from gate.model.change import FileChange


# A file's record in `git ls-tree -r -z` output, after the NUL that ends the
# record before it: its mode, "blob" (a submodule says "commit"), its name.
_LS_TREE_BLOB = re.compile(rb"\0[0-7]{6} blob ([0-9a-f]{40}(?:[0-9a-f]{24})?)\t")


# Near copies (git's 50% similarity) are looked for among all the files of
# the base (`--find-copies-harder`) only when the base has at most this many
# files and (new or rewritten files) x (base files) is at most git's own
# rename matrix (RENAME_LIMIT squared, git's default).  git reads and hashes
# every base file that could pair with one, and keeps the hashes: time and
# memory follow the size of the base, and a monorepo would pay seconds on
# every change.  Over the budget, git's own fallback is worse (it still
# walks every pair), so the gate asks for exact copies only: a new or
# rewritten file byte-identical to a file of the base, found from the blob
# names of `git ls-tree -r`, and says in a note that near copies were not
# looked for (figures: docs/development.md, "The git layer's figures").
NEAR_COPY_FILES = 20_000


class BaseListings:
    """What one repository's copy searches keep between changes: the tree
    `_base_blobs` listed last, and the whole blob listing of a tree asked
    about twice in a row (root, blob -> paths, number of files).  A `Repo`
    holds one; its diffs share it, from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: str | None = None
        self._kept: tuple[str, Mapping[bytes, Sequence[str]], int] | None = None

    def kept(self, root: str) -> tuple[Mapping[bytes, Sequence[str]], int] | None:
        """The kept listing of tree `root` (blob -> paths, number of files), if kept."""
        kept = self._kept
        if kept is not None and kept[0] == root:
            return kept[1], kept[2]
        return None

    def again(self, root: str) -> bool:
        """Whether `root` is the tree listed last (so worth keeping whole)."""
        return self._last == root

    def listed(
        self, root: str, sources: Mapping[bytes, Sequence[str]], size: int, *, keep: bool
    ) -> None:
        """Note that `root` was listed last; with `keep`, keep its listing."""
        with self._lock:
            if keep:
                self._kept = (root, sources, size)
            self._last = root


def find_copies(
    repo: Runner,
    files: list[FileChange],
    targets: Sequence[CopyTarget],
    root: str,
    spec: Sequence[str],
    env: Mapping[str, str],
    cwd: str,
    *,
    listings: BaseListings,
    session: CatFile | None = None,
) -> tuple[str, ...]:
    """Mark each target that is a copy of a file of the base `root` (the
    tree the diff starts from): an added file becomes `copied` from its
    source, a modified file (overwritten with a copy) keeps its status and
    gets the source as `old_path`.  Either way the source is touched, not
    written, and the counts stay the diff's (an added file's counts are
    every line of its blob: a copy never shrinks a line budget).

    Exact copies are found by blob name against every file of `root`; near
    copies by git (`--find-copies-harder -C`, with `-B` so a rewritten file
    can be a copy too) within the budget above.  Returns the notes.
    `listings`: the repository's `BaseListings`.  `session`: a thread's
    blob session whose `DiffTrees` may answer the search (when git cannot
    have limited it: no note is lost)."""
    from gate.model.change import ADDED, COPIED, RENAMED

    sources, size = _base_blobs(repo, listings, root, {t.oid for t in targets})
    found_near: dict[str, str] = {}
    notes: list[str] = []
    pairs = len(targets) + sum(1 for f in files if f.status == RENAMED)
    if size <= NEAR_COPY_FILES and pairs * size <= RENAME_LIMIT * RENAME_LIMIT:
        # git's matrix is (files it may pair as copies) x (files of the base
        # and of the change): at most this, so git cannot have limited it.
        paths = 2 * len(files)
        unlimited = paths * (size + paths) <= RENAME_LIMIT * RENAME_LIMIT
        found_near, note = _near_copies(repo, spec, env, cwd, session if unlimited else None)
        notes += [note] if note else []
    else:
        notes.append(
            f"near copies were not looked for: the base has {size:,} files and the change "
            f"adds or rewrites {pairs:,}, more than the gate compares ({NEAR_COPY_FILES:,} "
            f"files, {RENAME_LIMIT * RENAME_LIMIT:,} pairs), so only a file identical to one "
            "of the base counts as its copy"
        )
    for target in targets:
        change = files[target.at]
        source = found_near.get(change.path)
        if source is None:
            source = next((p for p in sources.get(target.oid, ()) if p != change.path), None)
        if source is not None and source != change.path:
            status = COPIED if change.status == ADDED else change.status
            files[target.at] = change._replace(status=status, old_path=source)
    return tuple(notes)


def _base_blobs(
    repo: Runner, listings: BaseListings, root: str, wanted: set[bytes]
) -> tuple[Mapping[bytes, Sequence[str]], int]:
    """(blob name -> up to two paths of the tree of `root` holding it, for
    the blobs in `wanted`; the number of files in that tree), from one `git
    ls-tree -r`.

    The second time a repository asks about the same commit or tree (`gate
    lab`: every patch against one base) the listing of every blob is kept
    for the next ones (`listings`, the last such tree only): one
    `ls-tree` per patch would be a tenth of the lab's git processes."""
    kept = listings.kept(root)
    if kept is not None:
        return kept
    keep = FULL_SHA.match(root) is not None and listings.again(root)
    sources: dict[bytes, list[str]] = {}
    size = 0
    args = ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", root]
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(
                repo.argv(args), stdout=subprocess.PIPE, stderr=err, env=repo.env()
            )
        except OSError as exc:
            raise repo.start_error(exc) from None
        assert proc.stdout is not None
        try:
            # "MODE blob OID\tPATH\0" for every file, read in chunks of whole
            # records: the blob names of a chunk are found by one regular
            # expression, and only a chunk holding a wanted one is split.
            for chunk in nul_records(proc.stdout):
                oids = _LS_TREE_BLOB.findall(chunk)
                size += len(oids)
                if not keep and wanted.isdisjoint(oids):
                    continue
                for record in chunk.split(b"\0"):
                    found_blob = _LS_TREE_BLOB.match(b"\0" + record)
                    if found_blob is None or not (keep or found_blob.group(1) in wanted):
                        continue
                    paths = sources.setdefault(found_blob.group(1), [])
                    if len(paths) < 2:  # the first, another when the first is the target
                        paths.append(from_bytes(record[found_blob.end() - 1 :]))
        except ValueError:
            proc.kill()
            proc.wait()
            raise GateError("cannot read git ls-tree output: report this bug") from None
        finally:
            proc.stdout.close()
        if proc.wait() != 0:
            err.seek(0)
            raise GateError(f"git ls-tree failed: {first_line(err.read())}")
    listings.listed(root, sources, size, keep=keep)
    return sources, size


def _near_copies(
    repo: Runner, spec: Sequence[str], env: Mapping[str, str], cwd: str, cat: CatFile | None
) -> tuple[dict[str, str], str]:
    """{copy: source} from git's copy detection over every file of the base
    (`--find-copies-harder`), a rewritten file included (`-B`), and a note
    when the search was limited ("" when it was not).

    The search reads every file of the base, not only the changed ones, so
    a clone that lacks a blob the change never touches (a damaged clone, a
    partial one whose remote cannot send it) fails it where `git diff
    --numstat` succeeds.  That limits the search like git's own budget does,
    with a note (exact copies are still found by blob name); a missing object
    the change's own diff needs fails that diff, with `diff_failed`.

    `cat`: a blob session whose `DiffTrees` is asked first (the caller
    checked that git cannot limit this search, whose warning that way of
    asking loses); a search it cannot answer runs as its own `git diff`,
    unless it stopped on an object the clone lacks (`DiffTrees.unreadable`),
    where that `git diff` would stop too, after reading as much again: in
    `gate backtest` over an incomplete clone (28 of pydantic-ai's last 100
    commits in one) that second search was a fifth of the CPU."""
    if cat is not None:
        diffs = cat.diffs()
        found = diffs.tokens(COPIES_DIFF, spec[0], spec[1])
        if found is not None:
            return _copies_of(iter(found)), ""
        lacked = diffs.unreadable(COPIES_DIFF)
        if lacked is not None:
            return {}, _lacks_note(lacked)
    args = [
        "diff",
        *COPIES_FLAGS,
        "--end-of-options",
        *spec,
        "--",
    ]
    try:
        proc = subprocess.run(
            repo.view_argv(args), cwd=cwd, env=dict(env), capture_output=True, check=False
        )
    except OSError as exc:
        raise repo.start_error(exc) from None
    if proc.returncode != 0:
        missing = UNREADABLE.search(first_line(proc.stderr))
        if missing is None:
            raise diff_failed(proc.stderr)
        return {}, _lacks_note(missing.group(1))
    copies = _copies_of(iter(proc.stdout.split(b"\0")[:-1]))
    text = proc.stderr.decode("utf-8", errors="replace")
    for line in text.splitlines():
        if "rename detection was skipped" in line or "only found copies" in line:
            warning = line.removeprefix("warning: ").strip()
            return copies, (
                f"git limited its search for copies (it said: {warning}), so a file copied "
                "with edits may count as a new file"
            )
    return copies, ""


def _lacks_note(oid: str) -> str:
    """The note of a copy search stopped by object `oid`, which the clone lacks."""
    return (
        f"near copies were not looked for: this clone lacks object {oid}, "
        "which the search reads, so only a file identical to one of the base counts as "
        "its copy (run git fsck, or fetch the missing objects)"
    )


def _copies_of(tokens: Iterator[bytes]) -> dict[str, str]:
    """{copy: source} from the `--raw -z` tokens of the copy search."""
    copies: dict[str, str] = {}
    try:
        for token in tokens:
            letter = raw_status(token)[0]
            first = next(tokens)
            if letter in (b"R", b"C"):
                second = next(tokens)
                if letter == b"C" and first != second:
                    copies[from_bytes(second)] = from_bytes(first)
    except (StopIteration, ValueError):
        raise GateError("cannot read git diff output (copies): report this bug") from None
    return copies
