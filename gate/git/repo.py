"""A git repository: `Repo`, a `gate.git.runner.Runner` (every call with a
scrubbed environment and fixed configuration); revisions, merge bases and what `base...head` is
judged as (`Span`), objects through one cat-file session, history
(`Repo.history`), and starting a tree diff (`Repo.start_diff`)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from gate.base.errors import GateError
from gate.base.names import DEFAULT_BASES
from gate.base.paths import from_bytes, quoted
from gate.git.catfile import CatFile, tree_object_entries
from gate.git.conventions import BIG_FILE, FULL_SHA, first_line
from gate.git.copies import BaseListings
from gate.git.diff import DiffJob
from gate.git.runner import Runner
from gate.git.view import private_view

if TYPE_CHECKING:
    from gate.model.change import BaseTree, FileChange, FileTexts

# The most folders one `D/**` request of `Repo.base_tree` lists.
DEEP_FOLDERS = 200
SHALLOW_HINT = (
    "this is a shallow clone: fetch the full history "
    "(actions/checkout: fetch-depth: 0, or git fetch --unshallow)"
)


def is_sha(rev: str) -> bool:
    """True for a full (SHA-1 or SHA-256) lower-case hex object name."""
    return FULL_SHA.match(rev) is not None


def short(sha: str) -> str:
    return sha[:12]


class Repo(Runner):
    """A git repository at `path` (a work tree, any folder inside one, or a
    bare repo); a `Runner`, so every call has its scrubbed environment."""

    def __init__(
        self,
        path: str | os.PathLike[str] = ".",
        *,
        config: Sequence[str] = (),
        big_file: int = BIG_FILE,
    ) -> None:
        """`config` and `big_file` are `Runner`'s."""
        super().__init__(path, config=config, big_file=big_file)
        self._cats: dict[int, CatFile] = {}  # `blob_session`s, by the thread that opened each
        self._shallow: bool | None = None
        self._listings = BaseListings()

    # -- revisions ----------------------------------------------------------

    def is_shallow(self) -> bool:
        if self._shallow is None:
            code, out, _ = self.attempt(["rev-parse", "--is-shallow-repository"])
            self._shallow = code == 0 and out.strip() == b"true"
        return self._shallow

    def check_repository(self) -> None:
        """Raise a clear error unless `path` is inside a git repository."""
        self.git_dir()

    def try_rev_parse(self, rev: str, peel: str | None = "commit") -> str | None:
        """The full sha of `rev` (peeled to `peel`), or None when it does not resolve."""
        spec = f"{rev}^{{{peel}}}" if peel else rev
        code, out, _ = self.attempt(["rev-parse", "--verify", "--quiet", "--end-of-options", spec])
        if code != 0:
            return None
        sha = out.decode("ascii", errors="replace").strip()
        return sha or None

    def rev_parse(self, rev: str, peel: str | None = "commit") -> str:
        """The full sha of `rev`; `peel` is "commit" (default), "tree", or None (as is).

        Unknown revisions raise `GateError` naming the revision and how to get it.
        """
        self.check_repository()
        sha = self.try_rev_parse(rev, peel)
        if sha is not None:
            return sha
        if peel and self.try_rev_parse(rev, "object") is not None:
            raise GateError(
                f"revision {rev!r} is not a {peel}: name a {peel} (a commit sha, branch or tag)"
            )
        if self.is_shallow():
            raise GateError(
                f"unknown revision {rev!r} in this repository: fetch it; {SHALLOW_HINT}"
            )
        raise GateError(
            f"unknown revision {rev!r} in this repository: fetch it "
            "(git fetch origin <branch or sha>) or name an existing commit"
        )

    def resolve(self, *revs: str) -> list[str]:
        """Full commit shas of `revs`, in one git call when all resolve.

        Also learns the git directory and whether the clone is shallow.  Any
        problem falls back to `rev_parse` one by one, for its clear messages.
        """
        if self.path.is_dir() and not any(r.startswith("-") for r in revs):
            args = ["rev-parse", "--absolute-git-dir", "--is-shallow-repository"]
            code, out, _ = self.attempt([*args, *(f"{r}^{{commit}}" for r in revs)])
            lines = out.decode("utf-8", errors="surrogateescape").split("\n")
            if code == 0 and len(lines) == len(revs) + 3 and lines[-1] == "":
                shas = lines[2:-1]
                if all(FULL_SHA.match(sha) for sha in shas) and lines[1] in ("true", "false"):
                    self._git_dir = lines[0]
                    self._shallow = lines[1] == "true"
                    return shas
        return [self.rev_parse(r) for r in revs]

    def merge_base(self, a: str, b: str) -> str:
        """The merge base of two revisions (what `a...b` diffs from)."""
        return self.merge_bases(a, b)[0]

    def merge_bases(self, a: str, b: str) -> list[str]:
        """Every merge base of two revisions, the one `a...b` diffs from first.

        Criss-cross merges leave more than one; git's diff then uses the first
        (and warns), so the report can say which one was used.
        """
        code, out, err = self.attempt(["merge-base", "--all", "--end-of-options", a, b])
        if code == 0 and out.strip():
            return out.decode("ascii", errors="replace").split()
        if code == 1 and not err.strip():
            if self.is_shallow():
                raise GateError(
                    f"no merge base between {short(a)} and {short(b)}: the fork point is "
                    f"outside this shallow clone; {SHALLOW_HINT}"
                )
            raise GateError(
                f"no merge base between {short(a)} and {short(b)}: the histories are "
                "unrelated; pick a --base that the head branched from"
            )
        raise GateError(f"git merge-base failed: {first_line(err)}")

    def merged_tree(self, base: str, head: str) -> str:
        """The tree that merging commit `head` into commit `base` gives
        (`git merge-tree --write-tree`, git 2.38 or later: a three-way merge
        over every merge base, as `git merge` does), written to the object
        store.  Runs in the private view the diff uses, so no gitattributes
        file picks a merge driver.  A merge with conflicts is a GateError:
        the gate cannot tell what merging the change would do."""
        with tempfile.TemporaryDirectory(prefix="gate-merge-") as folder:
            env, cwd = private_view(self.common_dir(), self.env(), folder, "git merge-tree")
            args = ["merge-tree", "--write-tree", "--no-messages", "--name-only", "-z"]
            try:
                proc = subprocess.run(
                    self.view_argv([*args, "--end-of-options", base, head]),
                    cwd=cwd,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    env=env,
                    check=False,
                )
            except OSError as exc:
                raise self.start_error(exc) from None
        fields = proc.stdout.split(b"\0")
        tree = fields[0].decode("ascii", errors="replace")
        if proc.returncode == 1 and FULL_SHA.match(tree):
            conflicted = sorted({from_bytes(f) for f in fields[1:] if f})
            shown = ", ".join(quoted(p) for p in conflicted[:3])
            more = f" and {len(conflicted) - 3} more" if len(conflicted) > 3 else ""
            raise GateError(
                f"base {short(base)} and head {short(head)} have several merge bases "
                f"(criss-cross merges) and merging head into base conflicts "
                f"({shown}{more}): the gate judges what the merge would do to the base and "
                "cannot tell; merge the base into the branch and push"
            )
        if proc.returncode != 0 or not FULL_SHA.match(tree):
            raise GateError(
                f"git merge-tree failed: {first_line(proc.stderr)} (the gate needs git 2.38 "
                "or later to judge several merge bases)"
            )
        return tree

    def uncommitted_paths(self) -> int:
        """How many paths `git status` lists as changed, staged or untracked (not
        ignored) in the work tree; 0 for a bare repository."""
        code, out, _ = self.attempt(
            ["status", "--porcelain=v1", "-z", "--untracked-files=normal", "--no-renames"]
        )
        if code != 0:
            return 0  # no work tree (bare): nothing uncommitted
        return sum(1 for entry in out.split(b"\0") if entry)

    # -- objects ------------------------------------------------------------

    def _object(self, rev: str) -> str:
        """`rev` as a full sha.  A full sha is taken as is (saving a git call)
        and checked by `_check_objects` in the cat-file session instead."""
        if FULL_SHA.match(rev):
            return rev
        return self.rev_parse(rev, peel=None)

    def _check_objects(self, cat: CatFile, *shas: str | None) -> None:
        for sha in shas:
            if sha is not None and not cat.has(sha):
                self.rev_parse(sha, peel=None)  # raises the usual message
                raise GateError(f"object {sha} cannot be read: run git fsck")

    @contextlib.contextmanager
    def blob_session(self) -> Iterator[None]:
        """Within it, `read_blob` and `read_texts` on this thread share one
        `git cat-file --batch` process instead of starting one each (`gate
        backtest`, which reads texts for hundreds of commits).  Each thread
        opens its own: a session answers one request at a time."""
        me = threading.get_ident()
        if me in self._cats:
            yield
            return
        with CatFile(self) as cat:
            self._cats[me] = cat
            try:
                yield
            finally:
                del self._cats[me]

    def session(self) -> CatFile | None:
        """This thread's `blob_session`, if it has one open."""
        return self._cats.get(threading.get_ident())

    def _cat_file(self) -> contextlib.AbstractContextManager[CatFile]:
        """This thread's `blob_session`, else a new session."""
        cat = self.session()
        return contextlib.nullcontext(cat) if cat is not None else CatFile(self)

    def read_blob(self, rev: str, path: str) -> bytes | None:
        """The bytes of `path` in the tree of `rev`, or None when it is absent (or not a file)."""
        sha = self._object(rev)
        with self._cat_file() as cat:
            self._check_objects(cat, sha)
            return cat.get(f"{sha}:{path}")

    def read_object(self, object_id: str) -> bytes | None:
        """The bytes of the blob `object_id`, or None when git has no such blob."""
        with self._cat_file() as cat:
            return cat.get(object_id)

    def read_heads(self, rev: str, paths: Iterable[str], size: int) -> dict[str, bytes]:
        """The first `size` bytes of each of `paths` in the tree of `rev`
        (absent paths and non-files left out), through one cat-file session."""
        sha = self._object(rev)
        wanted = list(paths)
        with self._cat_file() as cat:
            self._check_objects(cat, sha)
            found = cat.heads([f"{sha}:{path}" for path in wanted], size)
            return {
                path: data for path, data in zip(wanted, found, strict=True) if data is not None
            }

    def list_files(self, rev: str) -> tuple[str, ...]:
        """Every path in the tree of commit `rev` (files, symlinks, submodules), sorted."""
        sha = self._object(rev)
        out = self.run(["ls-tree", "-r", "-z", "--full-tree", "--name-only", sha])
        return tuple(sorted(from_bytes(raw) for raw in out.split(b"\0") if raw))

    def base_tree(self, rev: str, folders: Iterable[str]) -> BaseTree:
        """The entries of each of `folders` ("" the root) in the tree of
        `rev` (`gate.model.change.BaseTree`), read as tree objects through one
        `git cat-file --batch` (no argument list to outgrow), parents first:
        a folder its parent's entries do not show as a folder is absent at
        `rev` (or a file there) and not asked for.  A folder named `D/**`
        is listed with every folder below it (at most `DEEP_FOLDERS` folders
        in all; past that, the rest is left unlisted)."""
        from gate.model.change import BaseTree

        wanted = sorted(set(folders), key=lambda p: (p.count("/") + bool(p), p))
        if not wanted:
            return BaseTree()
        sha = self._object(rev)
        entries: dict[str, str] = {}
        listed: set[str] = set()
        with self._cat_file() as cat:
            self._check_objects(cat, sha)
            todo = list(reversed(wanted))
            while todo:
                folder = todo.pop()
                deep = folder.endswith("/**")  # the folder and every folder below it
                folder = folder.removesuffix("/**")
                if folder and (
                    folder.rpartition("/")[0] not in listed or entries.get(folder) != "folder"
                ):
                    continue
                data = cat.tree(f"{sha}:{folder}")
                if data is None:
                    continue
                listed.add(folder)
                prefix = f"{folder}/" if folder else ""
                for mode, name in tree_object_entries(data, len(sha) // 2):
                    kind = "link" if mode == b"120000" else "file" if mode[:1] == b"1" else "folder"
                    if mode == b"160000":
                        kind = "folder"  # a submodule: never listed, so unknown
                    entries[prefix + from_bytes(name)] = kind
                    if deep and mode == b"40000" and len(listed) < DEEP_FOLDERS:
                        todo.append(f"{prefix}{from_bytes(name)}/**")
        return BaseTree(entries=entries, listed=frozenset(listed))

    def read_texts(
        self, base_rev: str | None, head_rev: str | None, paths: Iterable[str]
    ) -> dict[str, FileTexts]:
        """Base and head text of each path (`gate.base.text.decode`); None where absent.

        `base_rev`/`head_rev` may be commits or trees (a sha from `git write-tree`);
        None reads nothing on that side.  One `git cat-file --batch` serves all.
        A side over `gate.model.change.text_limit(path)` bytes is not kept: the path's
        entry is `too_large` (content rules then fail naming the limit), with
        both texts all the same where both sides are within `kept_limit(path)`
        (a Go test file: `ChangeSet.large`).
        """
        from gate.base.text import decode
        from gate.model.change import FileTexts, kept_limit, text_limit, too_large

        wanted = sorted(set(paths))
        if not wanted:
            return {}
        base = self._object(base_rev) if base_rev is not None else None
        head = self._object(head_rev) if head_rev is not None else None
        out: dict[str, FileTexts] = {}
        with self._cat_file() as cat:
            self._check_objects(cat, base, head)
            for path in wanted:
                texts: list[str | None] = []
                limit, reach = text_limit(path), kept_limit(path)
                over: tuple[str, int] | None = None  # the first side past `limit`
                for name, side in (("base", base), ("head", head)):
                    data = cat.get_upto(f"{side}:{path}", reach) if side else None
                    if isinstance(data, int):
                        out[path] = too_large(name, data, limit)
                        break
                    if data is not None and len(data) > limit and over is None:
                        over = (name, len(data))
                    texts.append(None if data is None else decode(data))
                else:
                    if over is not None:
                        out[path] = too_large(*over, limit, kept=(texts[0], texts[1]))
                    else:
                        out[path] = FileTexts(base=texts[0], head=texts[1])
        return out

    # -- history ------------------------------------------------------------

    def history(self, rev: str | None, *, last: int | None = None) -> list[LogEntry]:
        """The first-parent commits of `rev` (a revision, or a range such as
        `v1.0..main`), newest first, at most `last` of them: one `git log`
        call for the whole range, no process per commit.  A shallow clone's
        boundary commit, whose parents it lacks, has `shallow` set."""
        if rev is not None and rev.startswith("-"):
            raise GateError(f"revision range {rev!r} starts with '-': name revisions, not options")
        self.check_repository()
        fields = "%x00".join(
            (
                "%H",
                "%P",
                "%an",
                "%ae",
                "%cn",
                "%ce",
                "%s",
                "%(trailers:key=Co-authored-by,valueonly,unfold,separator=%x1f)",
            )
        )
        args = [
            "log",
            "--first-parent",
            "--no-show-signature",
            "--no-color",
            f"--format=tformat:{fields}%x00",
        ]
        if last is not None:
            args.append(f"--max-count={last}")
        code, out, err = self.attempt([*args, "--end-of-options", rev or "HEAD", "--"])
        if code != 0:
            raise GateError(
                f"git log cannot read {rev or 'HEAD'!r}: {first_line(err)}; "
                "name a revision or a range such as main~50..main"
            )
        boundary: frozenset[str] = frozenset()
        if self.is_shallow():
            with contextlib.suppress(OSError):
                boundary = frozenset(Path(self.common_dir(), "shallow").read_text().split())
        entries = []
        for line in out.split(b"\0\n"):
            if not line:
                continue
            parts = [p.decode("utf-8", errors="replace") for p in line.split(b"\0")]
            if len(parts) != 8 or not FULL_SHA.match(parts[0]):
                raise GateError("cannot read git log output: report this bug")
            sha, parents = parts[0], tuple(parts[1].split())
            entries.append(
                LogEntry(
                    sha=sha,
                    parents=parents,
                    author_name=parts[2],
                    author_email=parts[3],
                    committer_name=parts[4],
                    committer_email=parts[5],
                    subject=parts[6],
                    co_authors=tuple(v for v in parts[7].split("\x1f") if v.strip()),
                    shallow=sha in boundary,
                )
            )
        return entries

    # -- diff ---------------------------------------------------------------

    def diff(self, base: str, head: str, *, merge_base: bool = True) -> tuple[FileChange, ...]:
        """Every file changed from `base` to `head`, sorted by path.

        With `merge_base` (default) this is `base...head`: the change since the
        fork point (`merge_base`), as a pull request shows it; with several
        merge bases, what merging head into base does (`Span`).  Otherwise it
        is the plain `base head` tree diff (both may be commits or trees).
        """
        old, new = (span(self, base, head)[:2]) if merge_base else (base, head)
        with self.start_diff(old, new) as job:
            return job.result()

    def start_diff(self, old: str, new: str, *, background: bool = True) -> DiffJob:
        """Start the tree diff `old` -> `new` in the background;
        `DiffJob.result()` collects it.

        For the change `base...head` pass the merge base as `old`
        (`merge_bases(base, head)[0]`, the one `git diff base...head` uses):
        git is never asked to work it out again.  Lets the caller load and
        validate the rubric while git computes line counts.  Use it as a
        context manager so that an abandoned job is killed.  Without
        `background` git's output is parsed in `result()` instead, on the
        caller's thread (for a caller with nothing to do meanwhile).
        """
        return DiffJob(
            self,
            old,
            new,
            background=background,
            session=self.session(),
            listings=self._listings,
        )


class LogEntry(NamedTuple):
    """One commit as `Repo.history` reads it: its sha, parents, author and
    committer, subject, `Co-authored-by:` trailer values (git's trailer
    parsing: any case of the key, the message's last paragraph only)."""

    sha: str
    parents: tuple[str, ...]
    author_name: str
    author_email: str
    committer_name: str
    committer_email: str
    subject: str
    co_authors: tuple[str, ...]
    shallow: bool = False  # a shallow clone's boundary: its parents are not here


class Span(NamedTuple):
    """What the change `base...head` is judged as: the tree diff `old` ->
    `new`, texts read from the same two sides.

    With one merge base that is the merge base -> head, the diff a pull
    request shows.  With several (criss-cross merges), no single one of them
    tells what the change does: a branch that merged another line of history
    with `-s ours` would undo that line's files unseen from one base.  Then
    `old` is `base` and `new` the tree merging head into base gives
    (`Repo.merged_tree`): what merging the change would do to the base."""

    old: str
    new: str
    bases: tuple[str, ...]

    @property
    def merged(self) -> bool:
        return len(self.bases) > 1


def span(repo: Repo, base: str, head: str) -> Span:
    """The `Span` of commits `base` and `head` (full shas)."""
    bases = tuple(repo.merge_bases(base, head))
    if len(bases) == 1:
        return Span(bases[0], head, bases)
    return Span(base, repo.merged_tree(base, head), bases)


class Started(NamedTuple):
    """A change `base...head` whose tree diff is running (`start_change`):
    the resolved commits, what is judged (`Span`) and the `DiffJob`."""

    repo: Repo
    base: str
    head: str
    judged: Span
    job: DiffJob


@contextlib.contextmanager
def start_change(
    repo: Repo, base_rev: str, head_rev: str, *, parent: bool = False, background: bool = True
) -> Iterator[Started]:
    """Resolve `base_rev` and `head_rev` to commits and start the tree diff
    of the change `base...head` (`Span`, computed once and passed to git);
    `gate.changes.git.changes_of` turns it into a change set.  Between the
    two the caller may load the rubric while git computes line counts.

    `parent`: the caller vouches that `base_rev` and `head_rev` are full
    commit shas and `base_rev` is a parent of `head_rev` (its own merge base
    with it, the only one), as `gate backtest` reads them from `git log`:
    three git calls fewer, the same change (a missing object still fails the
    diff).  `background` is `Repo.start_diff`'s."""
    if parent:
        base, head = base_rev, head_rev
        judged = Span(base, head, (base,))
    else:
        base, head = repo.resolve(base_rev, head_rev)
        judged = span(repo, base, head)
    with repo.start_diff(judged.old, judged.new, background=background) as job:
        yield Started(repo, base, head, judged, job)


def default_base(repo: Repo) -> str:
    """The first of `DEFAULT_BASES` that names a commit, else GateError."""
    repo.check_repository()
    for candidate in DEFAULT_BASES:
        if repo.try_rev_parse(candidate) is not None:
            return candidate
    raise GateError(
        "no base revision: none of origin/HEAD, main, master exists; "
        "pass --base REV (the branch the change will merge into)"
    )
