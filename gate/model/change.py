"""The change set: one model of a change, whatever it was built from.

Builders (git, a patch file, the PR files API, a writer's result.json, a
rubric example) all produce a `ChangeSet`; rules only ever read this model.
Fields that a source cannot know are `None` ("unknown"), never guessed: a
rule that needs unknown data fails and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Literal, NamedTuple

from gate.base import images
from gate.base.paths import fold

# Status of one file change.  "unknown" is used when only a path is known
# (a writer's result.json lists paths, not what happened to them).
ADDED = "added"
DELETED = "deleted"
MODIFIED = "modified"
RENAMED = "renamed"
COPIED = "copied"
TYPE_CHANGED = "type_changed"  # e.g. a file became a symlink
UNKNOWN = "unknown"
STATUSES = (ADDED, DELETED, MODIFIED, RENAMED, COPIED, TYPE_CHANGED, UNKNOWN)

# Where a change set comes from: `gate check` on commits, `--patch`, the PR
# files API, a writer's result.json (`gate grade`), a rubric example.
Source = Literal["git", "patch", "api", "writer", "example"]

MODE_SUBMODULE = "160000"
MODE_SYMLINK = "120000"

# The object names of the empty blob (SHA-1 and SHA-256 repositories).
EMPTY_BLOBS = (
    "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
    "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",
)


class FileChange(NamedTuple):
    """One changed file (an immutable record: cheap to build by the ten thousand).

    `path` is the path after the change (for a deletion, the deleted path).
    `old_path` is set only for renames and copies: a rename's old path, or
    the file of the base a copy was copied from (status `copied` for a new
    file; a file overwritten with a copy keeps status `modified`).  Counts
    of a copy are those of the file itself (every line of a new file), never
    a diff against its source.  `added`/`deleted` are line counts, `None`
    when unknown; `uncounted` then says why, when the
    source knows (a phrase, e.g. the file is too large to count).  Binary-ness
    never makes them 0: for a file git calls binary (`binary`), git mode
    counts every line of the old blob as deleted and every line of the new
    one as added (conservative), and a source without those numbers leaves
    them unknown.  A submodule side counts no lines; the file side of a file
    <-> submodule change counts its lines.  Modes are git's octal strings
    ("100644", "100755", "120000" symlink, "160000" submodule) or `None` when
    absent on that side or unknown.  `image`: git calls the file binary and
    every version it has is a well-formed image of the format its name
    claims (`gate.base.images`, `all_images`); `max_lines` with `images:
    one` counts it one line per version.
    """

    path: str
    status: str = MODIFIED
    old_path: str | None = None
    added: int | None = 0
    deleted: int | None = 0
    binary: bool = False
    old_mode: str | None = None
    new_mode: str | None = None
    uncounted: str | None = None
    image: bool = False

    @property
    def touched(self) -> tuple[str, ...]:
        """Every path this change touches: a rename touches its old and its new
        path, and a copy touches its source too (it reads it: copying a file
        out of a forbidden place reaches that place)."""
        if self.old_path is not None and self.old_path != self.path:
            return (self.old_path, self.path)
        return (self.path,)

    @property
    def written(self) -> tuple[str, ...]:
        """The paths whose state differs between base and head: `touched`
        without a copy's source, which stays as it was (only a rename writes
        its old path, by removing it).  Budgets (`max_files`, `max_lines`)
        and `test_drift` count these."""
        if self.status == RENAMED:
            return self.touched
        return (self.path,)

    @property
    def submodule(self) -> bool:
        return MODE_SUBMODULE in (self.old_mode, self.new_mode)

    @property
    def symlink(self) -> bool:
        return MODE_SYMLINK in (self.old_mode, self.new_mode)

    @property
    def mode_changed(self) -> bool:
        return (
            self.old_mode is not None
            and self.new_mode is not None
            and self.old_mode != self.new_mode
        )

    @property
    def counts_known(self) -> bool:
        return self.added is not None and self.deleted is not None


@dataclass(frozen=True)
class FileTexts:
    """A file's text at base and at head; `None` where the file is absent.

    `withheld` says why the texts were not read (`too_large`); a `ChangeSet`
    moves such an entry out of `texts` into `withheld`, so content rules see
    the text as unavailable and say why.  A withheld entry may still carry
    its texts: a Go test file over `TEXT_LIMIT` is read up to
    `KEPT_TEXT_LIMIT` (`kept_limit`), and `ChangeSet.large` keeps its texts
    for `test_drift`'s one proof that reads no more than its lines, that it
    only gained new functions (`gate.drift.go.grown`); no rule parses them."""

    base: str | None
    head: str | None
    withheld: str | None = None


# The largest file (each side) whose text content rules read.  They parse
# Python with `ast`, which needs about a hundred times a file's size in
# memory and time in proportion: a module of tens of megabytes would take
# gigabytes where git diffs it in a fraction of a second.  1 MiB bounds the
# worst case (figures: docs/development.md, "The git layer's figures").
TEXT_LIMIT = 1 << 20

# Lock files, by name (letter case folded): `test_drift` reads the test
# tools' locked versions in them (`gate.drift.locks`, whose table of
# readers names the same files) with JSON, TOML and YAML parsers and a
# line reader, in time and memory in proportion to the size; a monorepo's
# lock passes 1 MiB (1.5 MB for a uv.lock seen in the wild), so they are
# read up to `LOCK_TEXT_LIMIT`.
LOCK_NAMES = frozenset(
    {
        "uv.lock",
        "poetry.lock",
        "pdm.lock",
        "pipfile.lock",
        "package-lock.json",
        "npm-shrinkwrap.json",
        "pnpm-lock.yaml",
        "yarn.lock",
        "bun.lock",
        "cargo.lock",
    }
)
LOCK_TEXT_LIMIT = 32 << 20


def text_limit(path: str) -> int:
    """The largest side of `path` whose text a source reads for the rules."""
    return LOCK_TEXT_LIMIT if path.rsplit("/", 1)[-1].lower() in LOCK_NAMES else TEXT_LIMIT


# Go test files (`_test.go`) are read up to this size, past `TEXT_LIMIT`:
# a generated one passes 1 MiB (go-github's `github-accessors_test.go`,
# 1.2 MB), and the change that only inserts new test functions into it is
# told apart from any other by its lines and a parse of what it inserts
# (`gate.drift.go.grown`), in time and memory in proportion to the size
# but without splitting the whole file.
KEPT_TEXT_LIMIT = 8 << 20


def kept_limit(path: str) -> int:
    """The largest side of `path` a source reads at all: `text_limit(path)`,
    but `KEPT_TEXT_LIMIT` for a Go test file (a side over `text_limit` then
    comes `too_large` with its texts kept)."""
    return KEPT_TEXT_LIMIT if path.endswith("_test.go") else text_limit(path)


def too_large(
    side: str,
    size: int,
    limit: int = TEXT_LIMIT,
    kept: tuple[str | None, str | None] | None = None,
) -> FileTexts:
    """The entry for a file whose `side` ("base" or "head") is over `limit`;
    `kept`: its base and head texts all the same (`kept_limit`), which
    `ChangeSet.large` keeps."""
    why = (
        "(Python's parser needs about 100 times a file's size in memory)"
        if limit == TEXT_LIMIT
        else "for a lock file"
    )
    base, head = kept if kept is not None else (None, None)
    return FileTexts(
        base=base,
        head=head,
        withheld=(
            f"its {side} version is {size:,} bytes, over the {limit >> 20} MiB that "
            f"content rules read {why}"
        ),
    )


# The most folders a source that pays per request (the contents API) lists
# for `BaseTree`; past it a folder is not listed (`BaseTree.listed`), and
# what hangs on its contents is judged the strict way.
TREE_READS = 30


@dataclass(frozen=True)
class BaseTree:
    """Entries of the base tree where Python may find what a change's new
    modules shadow: every entry of each folder in `listed` (the layout
    roots, and the folders `gate.drift.folders.tree_folders` names), path -> `"file"`,
    `"folder"` (a tree or a submodule) or `"link"` (a symlink: a file or a
    folder in a checkout).  A folder named but not in `listed` is unknown
    (not listed by a source that caps its requests): its contents may be
    anything."""

    entries: Mapping[str, str] = field(default_factory=dict)
    listed: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", MappingProxyType(dict(self.entries)))
        object.__setattr__(self, "listed", frozenset(self.listed))

    def children(self, folder: str) -> dict[str, str] | None:
        """The entries of `folder` ("" the root): name -> kind; None when
        it was not listed."""
        if folder not in self.listed:
            return None
        return dict(self._by_folder.get(folder, {}))

    def folder(self, path: str) -> dict[str, str] | None:
        """The entries of the base folder `path` ("" the root): name ->
        kind; `{}` when the folder is known to be absent at base (a listed
        folder above it has no folder of that name); None when unknown
        (neither it nor the folder that would hold it was listed, a symlink
        or a submodule stands there, or a name that folds alike, which a
        case-insensitive checkout makes the same folder: `gate.base.paths.fold`)."""
        found = self.children(path)
        if found is not None or not path:
            return found
        kind = self.kind(path)
        if kind == "file" or kind == "":
            return {}  # a file, or nothing there at base: no folder
        return None  # unknown, or a folder or a link that was not listed

    def kind(self, path: str) -> str | None:
        """What stands at the base path `path` (not the root), as the
        folder holding it says: the entry's kind (`file`, `folder`, `link`,
        ...), "" when nothing does; None when unknown (that folder is,
        `folder`), or when another name that folds alike stands there, which
        a case-insensitive checkout makes the same entry (`gate.base.paths.fold`)."""
        parent, _, name = path.rpartition("/")
        above = self.folder(parent)
        if above is None:
            return None
        kind = above.get(name)
        if kind is None:
            folded = fold(name)
            if any(fold(other) == folded for other in above):
                return None  # `Kit` beside `kit`: one entry on a case-insensitive checkout
            return ""  # nothing there at base
        return kind

    @cached_property
    def _by_folder(self) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for path, kind in self.entries.items():
            folder, _, name = path.rpartition("/")
            out.setdefault(folder, {})[name] = kind
        return out


@dataclass(frozen=True)
class TextWants:
    """Which files' base and head texts a source reads for the rules
    (`gate.rules.text_wants(rubric.rules)`, from what each rule's kind declares): `files`
    always (`TEXTS_OF`, `TEXT_FILES`), and every path a change writes
    (`FileChange.written`: a rename's two paths, a new file, a deleted one,
    a modified one; never a path of unknown status) that `touched` accepts
    (`TEXT_GLOBS` and `TEXT_MATCHING`: `test_drift` reads the test files a
    change writes, to compare their test cases, and every touched runner
    configuration file, to compare its test section).  Each such path is
    read on the sides where it exists (`sides`).  A source that learns the
    touched paths calls `paths` once and reads them all in one batch."""

    files: tuple[str, ...] = ()
    touched: Callable[[str], bool] | None = None
    tree: bool = False  # some rule reads the base tree's layout (`BaseTree`)
    # the files beside each path a change adds (`nearby`)
    near: Callable[[str], Iterable[str]] | None = None
    # modified files whose texts only ever relax a rule when known
    # (`TEXT_HINTS`: `test_drift` reads the code files a change modifies
    # for the names it renames, `gate.drift.identities`): `hinted`
    hints: Callable[[str], bool] | None = None
    # base files a rule reads once the base tree's layout is known, to
    # prove what no code reads (`test_drift`: every Go file of the folder
    # of a Go test file the change modifies, `gate.drift.go.unread`): a
    # text missing there only proves less
    beside: Callable[[Sequence[FileChange], BaseTree], Iterable[str]] | None = None

    def paths(self, files: Iterable[FileChange]) -> tuple[str, ...]:
        """`files`, each written path `touched` accepts and the files
        `nearby` names, sorted."""
        files = tuple(files)
        found = set(self.files) | set(self.extra(files)) | set(self.nearby(files))
        return tuple(sorted(found | set(self.hinted(files))))

    def hinted(self, files: Iterable[FileChange]) -> tuple[str, ...]:
        """The paths `files` modifies (same path, both sides) or renames
        (both paths) that `hints` accepts, but those `files`, `extra` or `nearby` name, sorted: a
        source reads them last and may leave them out (a cap), since a
        text missing there only proves less.  None where no file the
        change modifies or renames is one `touched` accepts (a test file):
        no test is there to follow what the code renamed."""
        if self.hints is None or self.touched is None:
            return ()
        files = tuple(files)
        touched = self.touched
        if not any(f.status in (MODIFIED, RENAMED) and touched(f.path) for f in files):
            return ()
        taken = set(self.files) | set(self.extra(files)) | set(self.nearby(files))
        found = {f.path for f in files if f.status == MODIFIED and self.hints(f.path)}
        # a renamed file: its old path read at base, its new one at head
        found |= {
            p
            for f in files
            if f.status == RENAMED
            and f.old_path is not None
            and self.hints(f.old_path)
            and self.hints(f.path)
            for p in (f.old_path, f.path)
        }
        return tuple(sorted(found - taken))

    def package(self, files: Iterable[FileChange], tree: BaseTree | None) -> tuple[str, ...]:
        """The base files `beside` names for `files` in `tree`, but those
        `files`, `extra`, `nearby` or `hinted` name, sorted (none without a
        layout): a source reads them after listing the tree, and may leave
        them out (a cap)."""
        if self.beside is None or tree is None:
            return ()
        files = tuple(files)
        taken = set(self.files) | set(self.extra(files)) | set(self.nearby(files))
        taken |= set(self.hinted(files))
        return tuple(sorted(set(self.beside(files, tree)) - taken))

    def nearby(self, files: Iterable[FileChange]) -> tuple[str, ...]:
        """The files `near` names for each path `files` adds or copies
        (`test_drift`: the runner configuration above a new JS/TS test
        file that may turn its runner's per-file isolation off), but those
        `files` or `extra` name, sorted: a source reads them as it reads
        `extra`, apart, so that they never crowd a test file out of a cap."""
        if self.near is None:
            return ()
        files = tuple(files)
        taken = set(self.files) | set(self.extra(files))
        found = {p for f in files if f.status in (ADDED, COPIED) for p in self.near(f.path)}
        return tuple(sorted(found - taken))

    def extra(self, files: Iterable[FileChange]) -> tuple[str, ...]:
        """The written paths (of a known status) `touched` accepts that
        `files` does not name, sorted."""
        if self.touched is None:
            return ()
        fixed = set(self.files)
        return tuple(
            sorted(
                {
                    p
                    for f in files
                    if f.status != UNKNOWN
                    for p in f.written
                    if p not in fixed and self.touched(p)
                }
            )
        )


def sides(files: Iterable[FileChange]) -> dict[str, tuple[bool, bool]]:
    """Each written path of `files` -> (exists at base, exists at head), as
    far as the changes say: a new file's or a rename's new path is absent at
    base, a deleted file's or a rename's old path is absent at head.  A
    source that pays per read (the PR contents API) reads only those sides."""
    out: dict[str, tuple[bool, bool]] = {}
    for f in files:
        for p in f.written:
            base, head = out.get(p, (False, False))
            if f.status in (ADDED, COPIED) or (f.status == RENAMED and p == f.path):
                head = True
            elif f.status == DELETED or (f.status == RENAMED and p == f.old_path):
                base = True
            else:
                base = head = True
            out[p] = (base, head)
    return out


def text_wants(wanted: Iterable[str] | TextWants) -> TextWants:
    """`wanted` as a `TextWants` (a plain list of paths: those files only)."""
    if isinstance(wanted, TextWants):
        return wanted
    return TextWants(files=tuple(sorted(set(wanted))))


def _frozen_mapping(value: Mapping[str, FileTexts]) -> Mapping[str, FileTexts]:
    return MappingProxyType(dict(value))


@dataclass(frozen=True)
class Stats:
    files_touched: int
    added_lines: int
    deleted_lines: int
    lines_known: bool = True  # False: some file's line counts are unknown (a result.json)

    def to_dict(self) -> dict[str, int | bool]:
        out: dict[str, int | bool] = {
            "files_touched": self.files_touched,
            "added_lines": self.added_lines,
            "deleted_lines": self.deleted_lines,
        }
        if not self.lines_known:
            out["lines_known"] = False
        return out

    def summary(self) -> str:
        """`1 file touched, +1 -1 lines`, or `3 files touched, line counts unknown`:
        the stats line of every renderer."""
        from gate.base.words import plural

        files = plural(self.files_touched, "file") + " touched"
        if not self.lines_known:
            return f"{files}, line counts unknown"
        return f"{files}, +{self.added_lines} -{self.deleted_lines} lines"


@dataclass(frozen=True)
class ChangeSet:
    """Everything the rules may read about one change.

    `texts` holds file text for exactly the files the rules read
    (`gate.rules.text_wants(rubric.rules)`: the files content rules name, and the modified
    test files `test_drift` compares); a file missing from `texts` means "content
    not available from this source", which content rules treat as a failure.
    `files_touched` overrides the count (a writer's result.json states it);
    `None` means count `files`.  `stdout` is captured output for
    `must_include`; `None` means none was captured.  `notes` say what the
    source left out or chose (git's rename limit, one of several merge bases);
    every report built from this change set carries them.  `withheld` maps
    a content file whose text was not read to the reason (from `texts`
    entries with `FileTexts.withheld`, which leave `texts`).  `tree` is
    the base tree's layout (`BaseTree`) when some rule reads it
    (`TextWants.tree`) and the source can list it; None otherwise.
    `large` holds the texts of the withheld files whose texts the source
    kept all the same (`kept_limit`: a Go test file over `TEXT_LIMIT`),
    for `test_drift`'s proof that such a file only gained new functions
    (`gate.drift.go.grown`); every other rule sees them as withheld.
    """

    files: tuple[FileChange, ...] = ()
    base: str | None = None
    head: str | None = None
    stdout: str | None = None
    texts: Mapping[str, FileTexts] = field(default_factory=dict)
    files_touched: int | None = None
    source: Source = "git"
    notes: tuple[str, ...] = ()  # what the source could not do (reported as notes)
    tree: BaseTree | None = None  # the base tree's layout, when a rule reads it
    withheld: Mapping[str, str] = field(init=False, default_factory=dict)
    large: Mapping[str, FileTexts] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        texts = {p: t for p, t in self.texts.items() if t.withheld is None}
        withheld = {p: t.withheld for p, t in self.texts.items() if t.withheld is not None}
        large = {
            p: FileTexts(base=t.base, head=t.head)
            for p, t in self.texts.items()
            if t.withheld is not None and (t.base is not None or t.head is not None)
        }
        object.__setattr__(self, "texts", _frozen_mapping(texts))
        object.__setattr__(self, "withheld", MappingProxyType(withheld))
        object.__setattr__(self, "large", _frozen_mapping(large))

    def touched_paths(self) -> list[str]:
        """All touched paths, sorted and unique (a fresh list; computed once)."""
        return list(self._touched_paths)

    @cached_property
    def _touched_paths(self) -> tuple[str, ...]:
        return tuple(sorted({p for f in self.files for p in f.touched}))

    def written_paths(self) -> list[str]:
        """The paths whose state the change alters (`FileChange.written`:
        a copy's source left out), sorted and unique (a fresh list)."""
        return list(self._written_paths)

    @cached_property
    def _written_paths(self) -> tuple[str, ...]:
        return tuple(sorted({p for f in self.files for p in f.written}))

    @property
    def counts_known(self) -> bool:
        return all(f.counts_known for f in self.files)

    def stats(self) -> Stats:
        count = self.files_touched if self.files_touched is not None else len(self.files)
        return Stats(
            files_touched=count,
            added_lines=sum(f.added or 0 for f in self.files),
            deleted_lines=sum(f.deleted or 0 for f in self.files),
            lines_known=self.counts_known,
        )


class LineCount(NamedTuple):
    """A file's lines (`line_count`), whether git's numstat counts fewer, and
    the format of the well-formed image its bytes are (`gate.base.images`),
    if any."""

    lines: int
    lone_cr: bool
    image: str | None = None


def line_count(chunks: Iterable[bytes]) -> LineCount:
    """The lines of a file's bytes (given in chunks) as the gate counts them:
    a line ends at `\\n`, `\\r\\n` or `\\r` (`gate.base.text.lines`, counted
    without decoding), plus a last line without an ending.  `lone_cr` says
    the bytes hold a `\\r` that is not part of `\\r\\n`: git's numstat ends
    lines at `\\n` only, so it counts fewer lines than there are (500 lines
    each ended by `\\r` are one line to git).  The count for a file git
    calls binary and for a text file with a lone `\\r` (git mode and API
    mode alike); each chunk is counted as it comes, so memory stays flat,
    except for bytes that start as an image does (`images.may_be`), kept
    up to `images.LIMIT` to tell whether they are a well-formed one."""
    lf = cr = crlf = 0
    last = b""
    kept: list[bytes] | None = []
    held = 0
    for chunk in chunks:
        if not chunk:
            continue
        if last == b"\r" and chunk[:1] == b"\n":
            crlf += 1  # a CRLF split over two chunks
        lf += chunk.count(b"\n")
        cr += chunk.count(b"\r")
        crlf += chunk.count(b"\r\n")
        last = chunk[-1:]
        if kept is not None:
            kept.append(chunk)
            before, held = held, held + len(chunk)
            told = before < images.HEAD <= held  # the first bytes are all here now
            if held > images.LIMIT or (told and not images.may_be(b"".join(kept)[: images.HEAD])):
                kept = None
    ended = last in (b"", b"\n", b"\r")
    image = images.well_formed(b"".join(kept)) if kept else None
    return LineCount(lf + cr - crlf + (0 if ended else 1), cr > crlf, image)


def all_images(change: FileChange, old: LineCount | None, new: LineCount | None) -> bool:
    """Whether every version `change` has is a well-formed image of the format
    its name claims: `old` and `new` count its sides (None: the side is
    absent).  A submodule side, or no side at all, is no image."""
    if change.submodule:
        return False
    old_path = change.old_path if change.status == RENAMED and change.old_path else change.path
    both = ((old_path, old), (change.path, new))
    sides = [(path, count) for path, count in both if count is not None]
    return bool(sides) and all(
        count.image is not None and count.image == images.claims(path) for path, count in sides
    )


def from_paths(paths: Iterable[str]) -> tuple[FileChange, ...]:
    """File changes known only by path (status and counts unknown)."""
    return tuple(
        FileChange(path=p, status=UNKNOWN, added=None, deleted=None) for p in sorted(set(paths))
    )
