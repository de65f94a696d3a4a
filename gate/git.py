"""The only place that runs git.

Every call goes through `Repo.run` (or one of the two streaming helpers),
with a scrubbed environment: `GIT_DIR`, `GIT_INDEX_FILE`, `GIT_WORK_TREE` and
friends from the caller's environment are dropped unless passed explicitly, so
the gate always reads the repository it was pointed at.  History is the
commits' own: replace refs and `info/grafts` are ignored, so neither can
move the merge base past a commit of the change.

Diffs are computed tree to tree by one streaming `git diff --raw --numstat -z`
process whose output is parsed chunk by chunk.  No gitattributes file is
consulted, wherever it lives: not the change's own `.gitattributes` (the diff
runs with an empty work tree and an empty index), not the system's
(`GIT_ATTR_NOSYSTEM`), the user's or runner's (`core.attributesFile` is
pinned to the null device), nor `$GIT_DIR/info/attributes` (the diff runs in
a private view of the git directory without it).  An attribute could
otherwise mark files binary, or force a file with NUL bytes to be diffed as
text, and change the line counts between one machine and another.

Files git calls binary (a NUL byte in the first 8000 bytes, or bigger than
`core.bigFileThreshold`) carry no numstat counts; the gate counts them
conservatively, every line of the old blob deleted and every line of the
new blob added (`_count_binary`), as it does for the file side of a file
<-> submodule change.  A line ends at `\\n`, `\\r\\n` or `\\r`, as in every
rule; git's numstat ends lines at `\\n` only, so a text file with a `\\r`
alone on either side is counted the same way (`_count_lone_cr`, which reads
every changed text blob once).  Text for content rules is read with one
`git cat-file --batch`.

Renames come from that diff (`-M`); copies from a second look at the added
and modified files (`_find_copies`): a copy of any file of the base touches
its source, whether or not the change modifies it, and keeps the counts of
the file itself (a copy never shrinks a line budget).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, NamedTuple

from gate.errors import GateError
from gate.paths import from_bytes, quoted, to_bytes

if TYPE_CHECKING:
    from gate.changes import BaseTree, ChangeSet, FileChange, FileTexts, LineCount, TextWants

# gate.changes (and with it dataclasses) is imported where it is used, not
# here: `gate check` starts git before paying for those imports.  The status
# strings are gate.changes' constants (a test checks they agree).
MODE_SUBMODULE = "160000"
UNKNOWN = "unknown"

# Variables that would redirect git away from the repository we were given.
_SCRUBBED = (
    "GIT_DIR",
    "GIT_INDEX_FILE",
    "GIT_WORK_TREE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_COMMON_DIR",
    "GIT_PREFIX",
    "GIT_EXTERNAL_DIFF",
    "GIT_DIFF_OPTS",
    "GIT_PAGER",
    "GIT_LITERAL_PATHSPECS",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
    "GIT_ICASE_PATHSPECS",
)

# Fixed configuration: the same change gives the same numbers whatever the
# user's config says.  diff.renameLimit is git's own default, written down.
RENAME_LIMIT = 1000
# core.bigFileThreshold: git calls a bigger blob binary without reading it,
# and the gate does not count such a blob's lines either (too large to count).
BIG_FILE = 512 << 20
_CONFIG = (
    "-c",
    "core.quotepath=false",
    "-c",
    "diff.renames=true",
    "-c",
    f"diff.renameLimit={RENAME_LIMIT}",
    "-c",
    "diff.noprefix=false",
    "-c",
    "core.fsmonitor=false",
    "-c",
    f"core.attributesFile={os.devnull}",
)

SHALLOW_HINT = (
    "this is a shallow clone: fetch the full history "
    "(actions/checkout: fetch-depth: 0, or git fetch --unshallow)"
)

_CHUNK = 1 << 20
_PIPE_SIZE = 1 << 20
_SHA = re.compile(r"\A[0-9a-f]{40}(?:[0-9a-f]{24})?\Z")
_HEADER = re.compile(rb"\A[0-9a-f]{40,64} (blob|tree|commit|tag) ([0-9]+)\n\Z")
_STATUS = {
    "A": "added",
    "D": "deleted",
    "M": "modified",
    "R": "renamed",
    "C": "copied",
    "T": "type_changed",
}


# Flags of every `git diff` the gate runs: no driver, no colour, the whole
# tree, submodules compared by commit.
_DIFF_FLAGS = (
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--no-relative",
    "--ignore-submodules=none",
)


# A path's bytes as text: gate.paths owns the mapping (reversible; a byte
# that is not UTF-8 is kept, never replaced by U+FFFD).
_decode_path = from_bytes


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace").strip()
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line
    return "no message"


_UNREADABLE = re.compile(r"unable to read ([0-9a-f]{40,64})\b")


def _diff_failed(stderr: bytes) -> GateError:
    """The one sentence for a `git diff` that failed.  A clone that lacks an
    object the diff reads (a damaged or partial clone whose remote cannot
    send it) gets the fix; the near-copy search reads every file of the base,
    so it can need a blob that `git diff --numstat base...head` never reads."""
    line = _first_line(stderr)
    found = _UNREADABLE.search(line)
    if found is not None:
        return GateError(
            f"git diff failed: this clone lacks object {found.group(1)}, which the diff "
            "reads: run git fsck, or fetch the missing objects"
        )
    return GateError(f"git diff failed: {line}")


def is_sha(rev: str) -> bool:
    """True for a full (SHA-1 or SHA-256) lower-case hex object name."""
    return _SHA.match(rev) is not None


def short(sha: str) -> str:
    return sha[:12]


class Repo:
    """A git repository at `path` (a work tree, any folder inside one, or a bare repo)."""

    def __init__(
        self,
        path: str | os.PathLike[str] = ".",
        *,
        config: Sequence[str] = (),
        big_file: int = BIG_FILE,
    ) -> None:
        """`config` adds `-c NAME=VALUE` settings to every git call (the Action
        passes `safe.directory=<workspace>` for a checkout owned by another uid).
        `big_file` is `core.bigFileThreshold` in bytes, also the largest blob
        whose lines the gate counts when git calls it binary."""
        self.path = Path(path)
        self._cats: dict[int, _CatFile] = {}  # `blob_session`s, by the thread that opened each
        self._shallow: bool | None = None
        self._git_dir: str | None = None
        self._view: tuple[tempfile.TemporaryDirectory[str], dict[str, str], str] | None = None
        self._view_lock = threading.Lock()
        # `_base_blobs`: the tree it listed last, and the whole listing of a
        # tree asked about twice (root, blob -> paths, number of files).
        self._listed: str | None = None
        self._listing: tuple[str, Mapping[bytes, Sequence[str]], int] | None = None
        self.big_file = big_file
        self._config = (
            "-c",
            f"core.bigFileThreshold={big_file}",
            *(arg for item in config for arg in ("-c", item)),
        )

    # -- plumbing -----------------------------------------------------------

    def _env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GIT_OPTIONAL_LOCKS"] = "0"
        env["GIT_NO_REPLACE_OBJECTS"] = "1"
        # $GIT_DIR/info/grafts rewrites parents as replace refs do: it could
        # move the merge base past a commit of the change (a silent pass).  A
        # path that cannot exist (not the null device, which git reads and
        # then warns that grafts are deprecated) turns it off without a word.
        env["GIT_GRAFT_FILE"] = os.path.join(os.devnull, "no-grafts")
        env["LC_ALL"] = "C"
        env["LANGUAGE"] = "C"
        env["GIT_ATTR_NOSYSTEM"] = "1"
        if extra:
            env.update(extra)
        return env

    def _argv(self, args: Sequence[str]) -> list[str]:
        return ["git", "-C", str(self.path), *_CONFIG, *self._config, *args]

    def _argv_here(self, args: Sequence[str]) -> list[str]:
        """Like `_argv`, for a git run in another folder with an explicit `GIT_DIR`."""
        return ["git", *_CONFIG, *self._config, *args]

    def _start_error(self, exc: OSError) -> GateError:
        if isinstance(exc, FileNotFoundError) and not self.path.is_dir():
            return GateError(f"repository folder {self.path} does not exist: pass --repo DIR")
        return GateError(f"cannot run git ({exc}): install git and put it on PATH")

    def run(
        self,
        args: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        input: bytes | None = None,
        ok: Iterable[int] = (0,),
    ) -> bytes:
        """Run `git ARGS` in the repository and return its stdout.

        `env` adds variables (for example a temporary `GIT_INDEX_FILE`).  A
        non-zero exit raises `GateError` with the first line of git's stderr.
        """
        try:
            proc = subprocess.run(
                self._argv(args),
                input=input,
                capture_output=True,
                env=self._env(env),
                check=False,
            )
        except OSError as exc:
            raise self._start_error(exc) from None
        if proc.returncode not in tuple(ok):
            raise GateError(f"git {args[0]} failed: {_first_line(proc.stderr)}")
        return proc.stdout

    def diff_view(self) -> tuple[dict[str, str], str]:
        """The environment and folder every tree diff of this repository runs
        in (`_private_view`), made on first use and removed with the `Repo`
        (or at exit).  Kept: one per diff cost `gate lab` a folder of links
        made and removed per patch (about 5 ms each on a loaded machine)."""
        with self._view_lock:
            if self._view is None:
                folder = tempfile.TemporaryDirectory(prefix="gate-diff-")
                try:
                    env, cwd = _private_view(self, folder.name, "git diff")
                except BaseException:
                    folder.cleanup()
                    raise
                self._view = (folder, env, cwd)
            return dict(self._view[1]), self._view[2]

    def _try(self, args: Sequence[str]) -> tuple[int, bytes, bytes]:
        try:
            proc = subprocess.run(
                self._argv(args), capture_output=True, env=self._env(), check=False
            )
        except OSError as exc:
            raise self._start_error(exc) from None
        return proc.returncode, proc.stdout, proc.stderr

    # -- revisions ----------------------------------------------------------

    def is_shallow(self) -> bool:
        if self._shallow is None:
            code, out, _ = self._try(["rev-parse", "--is-shallow-repository"])
            self._shallow = code == 0 and out.strip() == b"true"
        return self._shallow

    def check_repository(self) -> None:
        """Raise a clear error unless `path` is inside a git repository."""
        self.git_dir()

    def git_dir(self) -> str:
        """The absolute git directory (GateError when `path` is not in a repository)."""
        if self._git_dir is None:
            if not self.path.is_dir():
                raise GateError(f"repository folder {self.path} does not exist: pass --repo DIR")
            code, out, err = self._try(["rev-parse", "--absolute-git-dir"])
            if b"dubious ownership" in err:
                raise GateError(
                    f"git refuses {self.path}: it is owned by another user; trust it with "
                    f"git config --global --add safe.directory {self.path.resolve()}"
                )
            if code != 0 or not out.strip():
                raise GateError(
                    f"{self.path} is not a git repository ({_first_line(err)}): "
                    "run inside a clone or pass --repo DIR"
                )
            self._git_dir = out.decode("utf-8", errors="surrogateescape").rstrip("\n")
        return self._git_dir

    def common_dir(self) -> str:
        """The folder shared by all work trees (`git rev-parse --git-common-dir`):
        the git directory itself unless it is a linked work tree's."""
        git_dir = self.git_dir()
        try:
            raw = Path(git_dir, "commondir").read_bytes()
        except OSError:
            return git_dir
        common = raw.decode("utf-8", errors="surrogateescape").rstrip("\n")
        return os.path.normpath(os.path.join(git_dir, common))

    def try_rev_parse(self, rev: str, peel: str | None = "commit") -> str | None:
        """The full sha of `rev` (peeled to `peel`), or None when it does not resolve."""
        spec = f"{rev}^{{{peel}}}" if peel else rev
        code, out, _ = self._try(["rev-parse", "--verify", "--quiet", "--end-of-options", spec])
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
            code, out, _ = self._try([*args, *(f"{r}^{{commit}}" for r in revs)])
            lines = out.decode("utf-8", errors="surrogateescape").split("\n")
            if code == 0 and len(lines) == len(revs) + 3 and lines[-1] == "":
                shas = lines[2:-1]
                if all(_SHA.match(sha) for sha in shas) and lines[1] in ("true", "false"):
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
        code, out, err = self._try(["merge-base", "--all", "--end-of-options", a, b])
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
        raise GateError(f"git merge-base failed: {_first_line(err)}")

    def merged_tree(self, base: str, head: str) -> str:
        """The tree that merging commit `head` into commit `base` gives
        (`git merge-tree --write-tree`, git 2.38 or later: a three-way merge
        over every merge base, as `git merge` does), written to the object
        store.  Runs in the private view the diff uses, so no gitattributes
        file picks a merge driver.  A merge with conflicts is a GateError:
        the gate cannot tell what merging the change would do."""
        with tempfile.TemporaryDirectory(prefix="gate-merge-") as folder:
            env, cwd = _private_view(self, folder, "git merge-tree")
            args = ["merge-tree", "--write-tree", "--no-messages", "--name-only", "-z"]
            try:
                proc = subprocess.run(
                    self._argv_here([*args, "--end-of-options", base, head]),
                    cwd=cwd,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    env=env,
                    check=False,
                )
            except OSError as exc:
                raise self._start_error(exc) from None
        fields = proc.stdout.split(b"\0")
        tree = fields[0].decode("ascii", errors="replace")
        if proc.returncode == 1 and _SHA.match(tree):
            conflicted = sorted({from_bytes(f) for f in fields[1:] if f})
            shown = ", ".join(quoted(p) for p in conflicted[:3])
            more = f" and {len(conflicted) - 3} more" if len(conflicted) > 3 else ""
            raise GateError(
                f"base {short(base)} and head {short(head)} have several merge bases "
                f"(criss-cross merges) and merging head into base conflicts "
                f"({shown}{more}): the gate judges what the merge would do to the base and "
                "cannot tell; merge the base into the branch and push"
            )
        if proc.returncode != 0 or not _SHA.match(tree):
            raise GateError(
                f"git merge-tree failed: {_first_line(proc.stderr)} (the gate needs git 2.38 "
                "or later to judge several merge bases)"
            )
        return tree

    def uncommitted_paths(self) -> int:
        """How many paths `git status` lists as changed, staged or untracked (not
        ignored) in the work tree; 0 for a bare repository."""
        code, out, _ = self._try(
            ["status", "--porcelain=v1", "-z", "--untracked-files=normal", "--no-renames"]
        )
        if code != 0:
            return 0  # no work tree (bare): nothing uncommitted
        return sum(1 for entry in out.split(b"\0") if entry)

    # -- objects ------------------------------------------------------------

    def _object(self, rev: str) -> str:
        """`rev` as a full sha.  A full sha is taken as is (saving a git call)
        and checked by `_check_objects` in the cat-file session instead."""
        if _SHA.match(rev):
            return rev
        return self.rev_parse(rev, peel=None)

    def _check_objects(self, cat: _CatFile, *shas: str | None) -> None:
        for sha in shas:
            if sha is not None and cat.kind(sha) is None:
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
        with _CatFile(self) as cat:
            self._cats[me] = cat
            try:
                yield
            finally:
                del self._cats[me]

    def _cat_file(self) -> contextlib.AbstractContextManager[_CatFile]:
        """This thread's `blob_session`, else a new session."""
        cat = self._cats.get(threading.get_ident())
        return contextlib.nullcontext(cat) if cat is not None else _CatFile(self)

    def read_blob(self, rev: str, path: str) -> bytes | None:
        """The bytes of `path` in the tree of `rev`, or None when it is absent (or not a file)."""
        sha = self._object(rev)
        with self._cat_file() as cat:
            self._check_objects(cat, sha)
            return cat.get(f"{sha}:{path}")

    def list_files(self, rev: str) -> tuple[str, ...]:
        """Every path in the tree of commit `rev` (files, symlinks, submodules), sorted."""
        sha = self._object(rev)
        out = self.run(["ls-tree", "-r", "-z", "--full-tree", "--name-only", sha])
        return tuple(sorted(from_bytes(raw) for raw in out.split(b"\0") if raw))

    def base_tree(self, rev: str, folders: Iterable[str]) -> BaseTree:
        """The entries of each of `folders` ("" the root) in the tree of
        `rev` (`gate.changes.BaseTree`), read as tree objects through one
        `git cat-file --batch` (no argument list to outgrow), parents first:
        a folder its parent's entries do not show as a folder is absent at
        `rev` (or a file there) and not asked for."""
        from gate.changes import BaseTree

        wanted = sorted(set(folders), key=lambda p: (p.count("/") + bool(p), p))
        if not wanted:
            return BaseTree()
        sha = self._object(rev)
        entries: dict[str, str] = {}
        listed: set[str] = set()
        with self._cat_file() as cat:
            self._check_objects(cat, sha)
            for folder in wanted:
                if folder and (
                    folder.rpartition("/")[0] not in listed or entries.get(folder) != "folder"
                ):
                    continue
                data = cat.tree(f"{sha}:{folder}")
                if data is None:
                    continue
                listed.add(folder)
                prefix = f"{folder}/" if folder else ""
                for mode, name in _tree_entries(data, len(sha) // 2):
                    kind = "link" if mode == b"120000" else "file" if mode[:1] == b"1" else "folder"
                    if mode == b"160000":
                        kind = "folder"
                    entries[prefix + from_bytes(name)] = kind
        return BaseTree(entries=entries, listed=frozenset(listed))

    def read_texts(
        self, base_rev: str | None, head_rev: str | None, paths: Iterable[str]
    ) -> dict[str, FileTexts]:
        """Base and head text of each path (`gate.text.decode`); None where absent.

        `base_rev`/`head_rev` may be commits or trees (a sha from `git write-tree`);
        None reads nothing on that side.  One `git cat-file --batch` serves all.
        A side over `gate.changes.TEXT_LIMIT` bytes is not kept: the path's
        entry is `too_large` (content rules then fail naming the limit).
        """
        from gate.changes import TEXT_LIMIT, FileTexts, too_large
        from gate.text import decode

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
                for name, side in (("base", base), ("head", head)):
                    data = cat.get_upto(f"{side}:{path}", TEXT_LIMIT) if side else None
                    if isinstance(data, int):
                        out[path] = too_large(name, data)
                        break
                    texts.append(None if data is None else decode(data))
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
        code, out, err = self._try([*args, "--end-of-options", rev or "HEAD", "--"])
        if code != 0:
            raise GateError(
                f"git log cannot read {rev or 'HEAD'!r}: {_first_line(err)}; "
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
            if len(parts) != 8 or not _SHA.match(parts[0]):
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
        return DiffJob(self, old, new, background=background)


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


class DiffJob:
    """One running `git diff --raw --numstat -z old new`, parsed by a reader
    thread as it streams."""

    def __init__(self, repo: Repo, old: str, new: str, *, background: bool = True) -> None:
        spec = [old, new]
        args = [
            "diff",
            "--raw",
            "--numstat",
            "-z",
            "-M",
            "--no-abbrev",  # full blob names: binary files are counted from them
            *_DIFF_FLAGS,
            "--diff-algorithm=myers",
            "--end-of-options",
            *spec,
            "--",
        ]
        self._repo = repo
        self._spec = spec
        self._old = old
        self._copy_notes: tuple[str, ...] = ()
        self._err = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        try:
            env, empty = repo.diff_view()
        except GateError:
            self.close()
            raise
        self._env, self._cwd = env, empty
        self._files: list[FileChange] = []
        self._blobs: list[_Uncounted] = []
        self._targets: list[_Target] = []
        self._texts: list[_Uncounted] = []
        # With a reader thread, the text blobs are counted as the diff names
        # them (`_LineCounter`), beside git's diff instead of after it.
        self._counter: _LineCounter | None = None
        if background:
            self._counter = _LineCounter(repo)
            self._texts = _Fed(self._counter.want)
        self._lone_cr_note: str | None = None
        self._problem: str | None = None
        argv = repo._argv_here(args)
        try:
            try:
                # A big pipe lets git run ahead while the reader waits for the GIL.
                # Kept: 0.404 s instead of 0.423 s for `gate check` on 10,200 files
                # (median of 21 interleaved runs each, bench_check.py's repository).
                self._proc = self._popen(argv, empty, env, _PIPE_SIZE)
            except PermissionError:  # the pipe size is over the user's limit
                self._proc = self._popen(argv, empty, env, -1)
        except OSError as exc:
            self.close()
            raise repo._start_error(exc) from None
        # Kept: parsing as git streams, while the rubric loads, takes `gate
        # check` on 10,200 files from 0.518 s to 0.458 s (median of 21
        # interleaved runs each, bench_check.py's repository, parsing in
        # `result()` instead).
        # Kept too: without it (`background=False`, `gate lab` and `gate
        # backtest`), no thread is started per diff.
        self._thread: threading.Thread | None = None
        self._read_done = False
        if background:
            self._thread = threading.Thread(target=self._read, name="gate-git-diff", daemon=True)
            self._thread.start()

    def _popen(
        self, argv: list[str], cwd: str, env: dict[str, str], pipesize: int
    ) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._err,
            env=env,
            pipesize=pipesize,
        )

    def _read(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        self._problem = "the reader stopped early"
        try:
            parse_diff(_tokens(stdout), self._files, self._blobs, self._targets, self._texts)
            self._problem = None
        except StopIteration:
            self._problem = "output ends inside a record"
        except Exception as exc:  # fail closed: any surprise is "could not judge"
            self._problem = f"{type(exc).__name__}: {exc}"
        finally:
            if self._problem is not None and self._proc.poll() is None:
                self._proc.kill()
            stdout.close()

    def notes(self) -> tuple[str, ...]:
        """What git said it left out (after `result()`): rename detection skipped
        over the rename limit turns renames into a deletion plus an addition,
        and near copies not looked for over the gate's budget (`_find_copies`)."""
        self._err.seek(0)
        text = self._err.read().decode("utf-8", errors="replace")
        own = (self._lone_cr_note,) if self._lone_cr_note else ()
        if "rename detection was skipped" not in text:
            return (*own, *self._copy_notes)
        found = re.search(r"renameLimit variable to at least ([0-9]+)", text)
        need = f" (it needs at least {found.group(1)})" if found else ""
        return (
            f"git skipped rename detection: the change has more added and deleted files than "
            f"its rename limit of {RENAME_LIMIT} allows{need}, so a renamed file counts as a "
            "deletion plus an addition (both paths touched, all lines counted)",
            *own,
            *self._copy_notes,
        )

    def result(self) -> tuple[FileChange, ...]:
        """The parsed diff, sorted by path; GateError when git failed."""
        if self._thread is None:
            if not self._read_done:
                self._read_done = True
                self._read()
        else:
            self._thread.join()
        code = self._proc.wait()
        if code > 0 or (code != 0 and self._problem is None):
            self._err.seek(0)
            raise _diff_failed(self._err.read())
        if self._problem is not None:
            raise GateError(f"cannot read git diff output ({self._problem}): report this bug")
        if self._blobs:
            _count_binary(self._repo, self._files, self._blobs)
            self._blobs = []
        if self._texts:
            counted = self._counter.finish() if self._counter is not None else None
            self._lone_cr_note = _count_lone_cr(self._repo, self._files, self._texts, counted)
            self._texts = []
        if self._targets:
            self._copy_notes = _find_copies(
                self._repo, self._files, self._targets, self._old, self._spec, self._env, self._cwd
            )
            self._targets = []
        return tuple(sorted(self._files, key=lambda f: (f.path, f.old_path or "")))

    def close(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        thread = getattr(self, "_thread", None)
        if thread is not None:
            thread.join()
        counter = getattr(self, "_counter", None)
        if counter is not None:
            counter.close()
        self._err.close()

    def __enter__(self) -> DiffJob:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _private_view(repo: Repo, folder: str, what: str) -> tuple[dict[str, str], str]:
    """The environment and folder for a git run that reads no gitattributes
    file: an empty work tree with an empty index, and a view of the git
    directory without `info/attributes` (`_view_without_attributes`), both
    under `folder`; objects are the repository's own.  No `.gitattributes`
    of the change can then mark files `-diff`, nor pick a merge driver."""
    common = repo.common_dir()
    empty = os.path.join(folder, "work")
    view = os.path.join(folder, "git")
    try:
        os.mkdir(empty)
        _view_without_attributes(common, view)
    except OSError as exc:
        raise GateError(
            f"cannot prepare a private view of {common} for {what} "
            f"({exc.strerror or exc}): check that {tempfile.gettempdir()} is writable"
        ) from None
    env = repo._env(
        {
            "GIT_DIR": view,
            "GIT_OBJECT_DIRECTORY": os.path.join(common, "objects"),
            "GIT_WORK_TREE": empty,
            "GIT_INDEX_FILE": os.path.join(empty, "index"),
        }
    )
    return env, empty


def _view_without_attributes(common: str, view: str) -> None:
    """Make folder `view` a git directory that is `common` minus `info/attributes`.

    git reads `$GIT_COMMON_DIR/info/attributes` in every diff, and no option
    or variable turns that off (`core.attributesFile` and `GIT_ATTR_NOSYSTEM`
    cover the other two files).  The view links every entry of the real
    directory (objects, config, refs, shallow, ...) except `info`, rebuilt
    from links without `attributes`, and `HEAD`, copied (git refuses a
    symlinked HEAD that does not point into refs/)."""
    os.mkdir(view)
    for entry in os.listdir(common):
        source = os.path.join(common, entry)
        target = os.path.join(view, entry)
        if entry == "HEAD":
            shutil.copyfile(source, target)
        elif entry == "info":
            os.mkdir(target)
            for item in os.listdir(source):
                if item != "attributes":
                    os.symlink(os.path.join(source, item), os.path.join(target, item))
        elif entry not in ("index", "commondir"):
            os.symlink(source, target)


# A file's record in `git ls-tree -r -z` output, after the NUL that ends the
# record before it: its mode, "blob" (a submodule says "commit"), its name.
_LS_TREE_BLOB = re.compile(rb"\0[0-7]{6} blob ([0-9a-f]{40}(?:[0-9a-f]{24})?)\t")


def _records(stream: IO[bytes], size: int = _CHUNK) -> Iterator[bytes]:
    """NUL-ended records of a stream in chunks of whole records, each chunk
    starting with a NUL and ending without one (about `size` bytes each)."""
    read = getattr(stream, "read1", stream.read)
    tail = b""
    while True:
        chunk: bytes = read(size)
        if not chunk:
            break
        data = tail + chunk
        cut = data.rfind(b"\0")
        if cut < 0:
            tail = data
            continue
        yield b"\0" + data[:cut]
        tail = data[cut + 1 :]
    if tail:
        raise ValueError("output does not end with NUL")


def _tokens(stream: IO[bytes], size: int = _CHUNK) -> Iterator[bytes]:
    """NUL-separated tokens of a stream, read in chunks of at most `size` bytes
    as they arrive (so parsing overlaps with git's work)."""
    for chunk in _records(stream, size):
        yield from chunk[1:].split(b"\0")


def _raw_status(header: bytes) -> tuple[str, str | None, str | None, bytes, bytes]:
    """(status letter, old mode, new mode, old oid, new oid) from
    ':100644 100644 sha sha M'."""
    fields = header[1:].split(b" ")
    if len(fields) != 5:
        raise ValueError(f"unexpected raw record {header[:80]!r}")
    old_mode = fields[0].decode("ascii")
    new_mode = fields[1].decode("ascii")
    letter = fields[4][:1].decode("ascii")
    return (
        letter,
        None if old_mode == "000000" else old_mode,
        None if new_mode == "000000" else new_mode,
        fields[2],
        fields[3],
    )


def _count(field: bytes) -> int:
    return int(field)


class _Uncounted(NamedTuple):
    """A file whose counts come from its blobs: `files[at]`, with the blob
    names of its file sides (None for a side that is absent or a submodule)."""

    at: int
    old: str | None
    new: str | None


def _blob(mode: str | None, oid: bytes) -> str | None:
    if mode is None or mode == MODE_SUBMODULE:
        return None
    return oid.decode("ascii")


def parse_diff(
    tokens: Iterator[bytes],
    files: list[FileChange] | None = None,
    blobs: list[_Uncounted] | None = None,
    targets: list[_Target] | None = None,
    texts: list[_Uncounted] | None = None,
) -> list[FileChange]:
    """Pair `--raw` records with the `--numstat` records that follow, in order.

    Appends to `files` (when given) as records are paired.

    A file git calls binary, and a file <-> submodule change, get unknown
    counts (None) here, never 0: `blobs` (when given) collects what
    `_count_binary` needs to count them from the blobs.  A submodule side
    counts no lines, and a file whose blob did not change (a pure rename or
    a mode change) counts 0.

    `targets` (when given) collects the added and modified files with
    content (not empty, not a submodule): what `_find_copies` asks whether
    it is a copy of a file of the base.

    `texts` (when given) collects the text files whose content changed,
    with the blob names of both sides: `_count_lone_cr` reads them for a
    carriage return alone, a line end git's counts miss."""
    from gate.changes import EMPTY_BLOBS, FileChange

    def change(
        letter: str,
        old_mode: str | None,
        new_mode: str | None,
        path: str,
        old_path: str | None,
        added: int | None,
        deleted: int | None,
        binary: bool,
    ) -> FileChange:
        return FileChange(
            path=path,
            status=_STATUS.get(letter, UNKNOWN),
            old_path=old_path,
            added=added,
            deleted=deleted,
            binary=binary,
            old_mode=old_mode,
            new_mode=new_mode,
        )

    empty = {name.encode("ascii") for name in EMPTY_BLOBS}
    raw: list[tuple[str, str | None, str | None, str, str | None, bytes, bytes]] = []
    if files is None:
        files = []
    index = 0
    for token in tokens:
        if token.startswith(b":"):
            letter, old_mode, new_mode, old_oid, new_oid = _raw_status(token)
            if letter in ("R", "C"):
                old = _decode_path(next(tokens))
                new = _decode_path(next(tokens))
                raw.append((letter, old_mode, new_mode, new, old, old_oid, new_oid))
            else:
                path = _decode_path(next(tokens))
                raw.append((letter, old_mode, new_mode, path, None, old_oid, new_oid))
            continue
        # A numstat record: "ADDED\tDELETED\tPATH" or "ADDED\tDELETED\t" + old + new.
        parts = token.split(b"\t", 2)
        if len(parts) != 3:
            raise ValueError(f"unexpected numstat record {token[:80]!r}")
        if parts[2] == b"":
            next(tokens)
            next(tokens)
        if index >= len(raw):
            raise ValueError("more numstat records than raw records")
        letter, old_mode, new_mode, path, old_path, old_oid, new_oid = raw[index]
        raw[index] = _RELEASED  # release what was paired
        index += 1
        binary = parts[0] == b"-"
        added: int | None
        deleted: int | None
        if binary or MODE_SUBMODULE in (old_mode, new_mode):
            old_blob, new_blob = _blob(old_mode, old_oid), _blob(new_mode, new_oid)
            if old_blob == new_blob:  # the same content, or no file side at all
                added = deleted = 0
            else:
                added = deleted = None
                if blobs is not None:
                    blobs.append(_Uncounted(len(files), old_blob, new_blob))
        else:
            added = _count(parts[0])
            deleted = _count(parts[1])
            if texts is not None and old_oid != new_oid:
                texts.append(
                    _Uncounted(len(files), _blob(old_mode, old_oid), _blob(new_mode, new_oid))
                )
        if (
            targets is not None
            and letter in ("A", "M")
            and new_mode not in (None, MODE_SUBMODULE)
            and new_oid not in empty
            and new_oid != old_oid  # a mode change copies nothing
        ):
            targets.append(_Target(len(files), new_oid))
        files.append(change(letter, old_mode, new_mode, path, old_path, added, deleted, binary))
    # A raw record without numstat (git prints none for some unmerged or odd
    # entries): still a touched path, with unknown counts.
    for letter, old_mode, new_mode, path, old_path, _, _ in raw[index:]:
        files.append(change(letter, old_mode, new_mode, path, old_path, None, None, False))
    return files


_RELEASED = ("", None, None, "", None, b"", b"")


class _Target(NamedTuple):
    """An added or modified file `files[at]` whose new blob is `oid`: a copy
    of a file of the base when that blob, or one like it, is there."""

    at: int
    oid: bytes


# Near copies (git's 50% similarity) are looked for among all the files of
# the base (`--find-copies-harder`) only when the base has at most this many
# files and (new or rewritten files) x (base files) is at most git's own
# rename matrix (RENAME_LIMIT squared, git's default).  git reads and hashes
# every base file that could pair with one, and keeps the hashes: measured
# with git 2.39 on the CI machine, every file of the same size (so git's size
# test skips no pair), one new file against 20,000 files takes 0.46 s and
# 116 MB, 50 against 20,000 0.95 s, 20 against 50,000 1.6 s and 294 MB, 10
# against 100,000 2.9 s and 589 MB: time and memory follow the base, and a
# 100,000-file monorepo would pay seconds on every change.  Over the budget,
# git's own fallback is worse (it still walks every pair, about 1.2 s for
# 1,000 new files against 100,000), so the gate asks for exact copies only:
# a new or rewritten file byte-identical to a file of the base, found from
# the blob names of `git ls-tree -r` (about 70 ms for a base of 100,000
# files), and says in a note that near copies were not looked for.  On
# bench/bench_check.py's change (10,100 new or modified files against a
# base of 10,101) that is the exact pass: 17 ms of a 0.3 s diff.
NEAR_COPY_FILES = 20_000


def _find_copies(
    repo: Repo,
    files: list[FileChange],
    targets: Sequence[_Target],
    root: str,
    spec: Sequence[str],
    env: Mapping[str, str],
    cwd: str,
) -> tuple[str, ...]:
    """Mark each target that is a copy of a file of the base `root` (the
    tree the diff starts from): an added file becomes `copied` from its
    source, a modified file (overwritten with a copy) keeps its status and
    gets the source as `old_path`.  Either way the source is touched, not
    written, and the counts stay the diff's (an added file's counts are
    every line of its blob: a copy never shrinks a line budget).

    Exact copies are found by blob name against every file of `root`; near
    copies by git (`--find-copies-harder -C`, with `-B` so a rewritten file
    can be a copy too) within the budget above.  Returns the notes."""
    from gate.changes import ADDED, COPIED, RENAMED

    sources, size = _base_blobs(repo, root, {t.oid for t in targets})
    found_near: dict[str, str] = {}
    notes: list[str] = []
    pairs = len(targets) + sum(1 for f in files if f.status == RENAMED)
    if size <= NEAR_COPY_FILES and pairs * size <= RENAME_LIMIT * RENAME_LIMIT:
        found_near, note = _near_copies(repo, spec, env, cwd)
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
    repo: Repo, root: str, wanted: set[bytes]
) -> tuple[Mapping[bytes, Sequence[str]], int]:
    """(blob name -> up to two paths of the tree of `root` holding it, for
    the blobs in `wanted`; the number of files in that tree), from one `git
    ls-tree -r`.

    The second time a repository asks about the same commit or tree (`gate
    lab`: every patch against one base) the listing of every blob is kept
    for the next ones (`Repo._listing`, the last such tree only).  Kept:
    one `ls-tree` per patch was a tenth of the lab's git processes."""
    cached = repo._listing
    if cached is not None and cached[0] == root:
        return cached[1], cached[2]
    keep = _SHA.match(root) is not None and repo._listed == root
    sources: dict[bytes, list[str]] = {}
    size = 0
    args = ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", root]
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(
                repo._argv(args), stdout=subprocess.PIPE, stderr=err, env=repo._env()
            )
        except OSError as exc:
            raise repo._start_error(exc) from None
        assert proc.stdout is not None
        try:
            # "MODE blob OID\tPATH\0" for every file, read in chunks of whole
            # records: the blob names of a chunk are found by one regular
            # expression, and only a chunk holding a wanted one is split.
            for chunk in _records(proc.stdout):
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
                        paths.append(_decode_path(record[found_blob.end() - 1 :]))
        except ValueError:
            proc.kill()
            proc.wait()
            raise GateError("cannot read git ls-tree output: report this bug") from None
        finally:
            proc.stdout.close()
        if proc.wait() != 0:
            err.seek(0)
            raise GateError(f"git ls-tree failed: {_first_line(err.read())}")
    with repo._view_lock:
        if keep:
            repo._listing = (root, sources, size)
        repo._listed = root
    return sources, size


def _near_copies(
    repo: Repo, spec: Sequence[str], env: Mapping[str, str], cwd: str
) -> tuple[dict[str, str], str]:
    """{copy: source} from git's copy detection over every file of the base
    (`--find-copies-harder`), a rewritten file included (`-B`), and a note
    when the search was limited ("" when it was not).

    The search reads every file of the base, not only the changed ones, so
    a clone that lacks a blob the change never touches (a damaged clone, a
    partial one whose remote cannot send it) fails it where `git diff
    --numstat` succeeds.  That limits the search like git's own budget does,
    with a note (exact copies are still found by blob name); a missing object
    the change's own diff needs fails that diff, with `_diff_failed`."""
    args = [
        "diff",
        "--raw",
        "-z",
        "--no-abbrev",
        "-B",
        "-C",
        "--find-copies-harder",
        "--no-rename-empty",  # an empty file is no copy of another
        *_DIFF_FLAGS,
        "--end-of-options",
        *spec,
        "--",
    ]
    try:
        proc = subprocess.run(
            repo._argv_here(args), cwd=cwd, env=dict(env), capture_output=True, check=False
        )
    except OSError as exc:
        raise repo._start_error(exc) from None
    if proc.returncode != 0:
        missing = _UNREADABLE.search(_first_line(proc.stderr))
        if missing is None:
            raise _diff_failed(proc.stderr)
        return {}, (
            f"near copies were not looked for: this clone lacks object {missing.group(1)}, "
            "which the search reads, so only a file identical to one of the base counts as "
            "its copy (run git fsck, or fetch the missing objects)"
        )
    copies: dict[str, str] = {}
    tokens = iter(proc.stdout.split(b"\0")[:-1])
    try:
        for token in tokens:
            letter = _raw_status(token)[0]
            first = next(tokens)
            if letter in ("R", "C"):
                second = next(tokens)
                if letter == "C" and first != second:
                    copies[_decode_path(second)] = _decode_path(first)
    except (StopIteration, ValueError):
        raise GateError("cannot read git diff output (copies): report this bug") from None
    text = proc.stderr.decode("utf-8", errors="replace")
    for line in text.splitlines():
        if "rename detection was skipped" in line or "only found copies" in line:
            warning = line.removeprefix("warning: ").strip()
            return copies, (
                f"git limited its search for copies (it said: {warning}), so a file copied "
                "with edits may count as a new file"
            )
    return copies, ""


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 and limit % (1 << 20) == 0 else f"{limit} bytes"


def _count_binary(repo: Repo, files: list[FileChange], blobs: list[_Uncounted]) -> None:
    """Count the files `parse_diff` could not: every line of the old blob as
    deleted and every line of the new blob as added.  This is conservative:
    nobody reviewed a binary diff line by line, and it is never fewer lines
    than a text diff of the same blobs would find.  A blob over
    `repo.big_file` bytes is not read: its file's counts stay unknown, with
    the reason in `uncounted`.

    Why read the blobs instead of asking git for text counts: `git diff
    --text --numstat` still prints `-` for binary files (git 2.39), so no
    diff option gives these numbers.  Measured (bench/bench_hostile.py
    binary): 2,000 binary files of 50 kB edited, `git diff --numstat` takes
    0.05 s, the gate's diff 0.06 s and this count 0.25 s: 200 MB of blobs
    piped out of `git cat-file` once more and their newlines counted."""
    counts = _blob_lines(
        repo, [oid for item in blobs for oid in (item.old, item.new) if oid], repo.big_file
    )
    for item in blobs:
        change = files[item.at]
        old, new = _side(counts, item.old), _side(counts, item.new)
        deleted = None if old is None else old.lines
        added = None if new is None else new.lines
        if added is None or deleted is None:
            files[item.at] = change._replace(
                uncounted=f"git calls it binary and it is over {_size(repo.big_file)}, "
                "too large to count"
            )
        else:
            files[item.at] = change._replace(added=added, deleted=deleted)


def _side(counts: Mapping[str, LineCount | None], oid: str | None) -> LineCount | None:
    """The count of one side of a file (no lines when the side is absent)."""
    if oid is None:
        from gate.changes import LineCount

        return LineCount(0, False)
    return counts[oid]


def _count_lone_cr(
    repo: Repo,
    files: list[FileChange],
    texts: list[_Uncounted],
    counted: Mapping[str, LineCount] | None = None,
) -> str | None:
    """Count whole each text file with a carriage return alone on either side
    (`LineCount.lone_cr`): git's numstat ends lines at `\\n` only, so it
    counts a file of 500 lines ended by `\\r` as one.  Every line of the old
    blob counts as deleted and every line of the new blob as added, as for a
    binary file: a line diff at `\\r` is no diff anybody reviews (GitHub
    shows such a file as one line).  Returns the note naming those files,
    or None.  Reads every changed text blob once more (git reads them for
    its diff too): `counted` when a `_LineCounter` read them beside the
    diff (`gate check`), else after it, through this thread's blob session
    for a few (`gate lab`, `gate backtest`) or one pipelined `cat-file`."""
    oids = list(dict.fromkeys(oid for item in texts for oid in (item.old, item.new) if oid))
    # git diffed these as text, so none is over core.bigFileThreshold: no
    # size check first, one `cat-file --batch` (the sizes come with the blobs)
    counts: dict[str, LineCount | None]
    if counted is not None:  # counted beside the diff (`_LineCounter`)
        counts = dict(counted)
    elif _session(repo) is not None and len(oids) <= SESSION_BLOBS:
        counts = _blob_lines(repo, oids, None)
    else:
        counts = dict(_stream_lines(repo, [(oid, None) for oid in oids]))
    whole: list[str] = []
    for item in texts:
        old, new = _side(counts, item.old), _side(counts, item.new)
        if old is None or new is None or not (old.lone_cr or new.lone_cr):
            continue
        change = files[item.at]
        files[item.at] = change._replace(added=new.lines, deleted=old.lines)
        whole.append(change.path)
    if not whole:
        return None
    shown = ", ".join(quoted(p) for p in whole[:5])
    if len(whole) > 5:
        shown += f" and {len(whole) - 5} more"
    subject = "1 text file ends" if len(whole) == 1 else f"{len(whole):,} text files end"
    return (
        f"{subject} lines with a carriage return alone, which git's line counts miss, so "
        f"each counts whole, every line of both versions ({shown})"
    )


# A thread's `Repo.blob_session` counts this many blobs or fewer itself, one
# at a time; more go to a pipelined `cat-file` of their own.  Kept: `gate
# lab` (a blob or two per patch) starts one git process fewer per patch.
SESSION_BLOBS = 64


def _session(repo: Repo) -> _CatFile | None:
    """This thread's `Repo.blob_session`, if it has one."""
    return repo._cats.get(threading.get_ident())


def _blob_lines(repo: Repo, oids: Sequence[str], limit: int | None) -> dict[str, LineCount | None]:
    """The lines of each blob (`gate.changes.line_count`); None for a blob
    over `limit` bytes, which is not read (None: no limit).  A thread's
    `Repo.blob_session` counts up to `SESSION_BLOBS` of them itself.

    Two `git cat-file` processes: `--batch-check` for the sizes, then
    `--batch` for the blobs to count, fed by a writer thread so git never
    waits for a round trip; each blob is counted in 1 MiB chunks as it
    streams, so memory stays flat whatever its size."""
    unique = list(dict.fromkeys(oids))
    cat = _session(repo)
    if cat is not None and len(unique) <= SESSION_BLOBS:
        return {oid: cat.count(oid, limit) for oid in unique}
    listing = repo.run(
        ["cat-file", "--batch-check"], input="".join(f"{oid}\n" for oid in unique).encode()
    )
    rows = listing.decode("ascii", errors="replace").splitlines()
    counts: dict[str, LineCount | None] = {}
    wanted: list[tuple[str, int]] = []
    for i, oid in enumerate(unique):
        fields = rows[i].split(" ") if i < len(rows) else []
        if len(fields) != 3 or fields[0] != oid or fields[1] != "blob":
            raise GateError(
                f"git cannot read blob {oid}: run git fsck, or fetch the missing objects"
            )
        size = int(fields[2])
        if limit is not None and size > limit:
            counts[oid] = None
        else:
            wanted.append((oid, size))
    if wanted:
        counts.update(_stream_lines(repo, wanted))
    return counts


def _stream_lines(repo: Repo, blobs: Sequence[tuple[str, int | None]]) -> dict[str, LineCount]:
    """Line counts of `blobs` ((oid, size) pairs; a size of None is taken from
    git's answer) from one pipelined `git cat-file --batch`."""
    from gate.changes import line_count

    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(
                repo._argv(["cat-file", "--batch", "--buffer"]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                env=repo._env(),
                bufsize=_CHUNK,
            )
        except OSError as exc:
            raise repo._start_error(exc) from None
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None

        def feed() -> None:
            with contextlib.suppress(OSError):  # git died: the reader says so
                stdin.write("".join(f"{oid}\n" for oid, _ in blobs).encode("ascii"))
                stdin.close()

        # Not a speed choice: written from this thread, all the names at once
        # would block once git's output pipe is full and nobody reads it.
        writer = threading.Thread(target=feed, name="gate-cat-file-feed", daemon=True)
        writer.start()
        counts: dict[str, LineCount] = {}

        try:
            for oid, expected in blobs:
                line = stdout.readline()
                header = _HEADER.match(line)
                if (
                    header is None
                    or header.group(1) != b"blob"
                    or not line.startswith(f"{oid} ".encode("ascii"))
                ):
                    raise ValueError(oid)
                size = int(header.group(2))
                if expected is not None and size != expected:
                    raise ValueError(oid)
                if size < _CHUNK:  # most blobs: one read with the newline after it
                    data = stdout.read(size + 1)
                    if len(data) != size + 1 or data[size:] != b"\n":
                        raise ValueError(oid)
                    counts[oid] = line_count((data[:size],))
                    continue
                counts[oid] = line_count(_chunks_of(stdout, size, oid))
                if stdout.read(1) != b"\n":
                    raise ValueError(oid)
        except ValueError:
            proc.kill()
            proc.wait()
            err.seek(0)
            raise GateError(f"git cat-file failed: {_first_line(err.read())}") from None
        finally:
            writer.join()
            stdout.close()
            proc.wait()
    return counts


def _chunks_of(stream: IO[bytes], size: int, oid: str) -> Iterator[bytes]:
    """The next `size` bytes of `stream` (blob `oid`), in chunks of at most
    `_CHUNK`; ValueError when it ends first."""
    left = size
    while left:
        chunk = stream.read(min(left, _CHUNK))
        if not chunk:
            raise ValueError(oid)
        left -= len(chunk)
        yield chunk


class _Fed(list[_Uncounted]):
    """The text files `parse_diff` collects, each
    one's blobs handed to `feed` as it is appended."""

    def __init__(self, feed: Callable[[str], None]) -> None:
        super().__init__()
        self._feed = feed

    def append(self, item: _Uncounted) -> None:
        super().append(item)
        for oid in (item.old, item.new):
            if oid is not None:
                self._feed(oid)


class _LineCounter:
    """Line counts (`gate.changes.line_count`) of the blobs named by `want`,
    from one `git cat-file --batch` started on the first one, whose output a
    thread counts as it streams: `gate check` counts the changed text blobs
    for lone carriage returns while git still computes the diff.  Each blob
    is read once, whatever asks for it.

    Kept: on bench/bench_check.py's change (10,201 blobs, 23 MB) counting
    after the diff took 0.3-0.6 s of wall time on the loaded 2-core
    machine; beside it the wait is for the last blobs only (figures in
    docs/development.md, Benchmarks)."""

    def __init__(self, repo: Repo) -> None:
        self._repo = repo
        self._sent: set[str] = set()
        self._counts: dict[str, LineCount] = {}
        self._proc: subprocess.Popen[bytes] | None = None
        self._err: IO[bytes] | None = None
        self._thread: threading.Thread | None = None
        self._problem: str | None = None

    def want(self, oid: str) -> None:
        """Ask for the count of blob `oid` (once, however often it is named)."""
        if oid in self._sent or self._problem is not None:
            return
        self._sent.add(oid)
        if self._proc is None:
            self._start()
        proc = self._proc
        if proc is None or proc.stdin is None:
            return
        try:
            proc.stdin.write(f"{oid}\n".encode("ascii"))
        except OSError:  # git died: `finish` says why
            self._problem = "it stopped reading"

    def _start(self) -> None:
        self._err = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        try:
            self._proc = subprocess.Popen(
                self._repo._argv(["cat-file", "--batch", "--buffer"]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._err,
                env=self._repo._env(),
            )  # the default buffer: names reach git every 8 KiB, as the diff names them
        except OSError as exc:
            self._problem = str(self._repo._start_error(exc))
            return
        self._thread = threading.Thread(target=self._read, name="gate-cat-file", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        from gate.changes import line_count

        assert self._proc is not None and self._proc.stdout is not None
        stdout = self._proc.stdout
        try:
            while True:
                line = stdout.readline()
                if not line:
                    return
                header = _HEADER.match(line)
                if header is None or header.group(1) != b"blob":
                    raise ValueError(line[:80])
                oid = line.split(b" ", 1)[0].decode("ascii")
                size = int(header.group(2))
                if size < _CHUNK:  # most blobs: one read with the newline after it
                    data = stdout.read(size + 1)
                    if len(data) != size + 1 or data[size:] != b"\n":
                        raise ValueError(oid)
                    self._counts[oid] = line_count((data[:size],))
                    continue
                # a big one in chunks as it streams: memory stays flat
                self._counts[oid] = line_count(_chunks_of(stdout, size, oid))
                if stdout.read(1) != b"\n":
                    raise ValueError(oid)
        except (ValueError, OSError) as exc:
            self._problem = f"unexpected output ({exc})"
            self._proc.kill()
        finally:
            stdout.close()

    def finish(self) -> dict[str, LineCount]:
        """Every wanted blob's count, once git's diff named them all."""
        proc = self._proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        if self._thread is not None:
            self._thread.join()
        if proc is not None:
            proc.wait()
        if self._problem is not None or set(self._counts) != self._sent:
            why = ""
            if self._err is not None:
                self._err.seek(0)
                why = _first_line(self._err.read())
            raise GateError(f"git cat-file failed: {why or self._problem or 'a blob is missing'}")
        return self._counts

    def close(self) -> None:
        proc = self._proc
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            proc.wait()
        if self._thread is not None:
            self._thread.join()
        if self._err is not None:
            self._err.close()


class _CatFile:
    """One `git cat-file --batch -z` process, asked one object at a time."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.proc: subprocess.Popen[bytes] | None = None
        self.err: IO[bytes] | None = None

    def __enter__(self) -> _CatFile:
        self.err = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                self.repo._argv(["cat-file", "--batch", "-z"]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.err,
                env=self.repo._env(),
            )
        except OSError as exc:
            self.err.close()
            raise self.repo._start_error(exc) from None
        return self

    def __exit__(self, *exc: object) -> None:
        proc = self.proc
        if proc is not None:
            assert proc.stdin is not None and proc.stdout is not None
            with contextlib.suppress(OSError):
                proc.stdin.close()
            proc.stdout.close()
            proc.wait()
        if self.err is not None:
            self.err.close()

    def _failure(self) -> GateError:
        assert self.proc is not None and self.err is not None
        self.proc.kill()
        self.proc.wait()
        self.err.seek(0)
        return GateError(f"git cat-file failed: {_first_line(self.err.read())}")

    def get(self, name: str) -> bytes | None:
        """The blob named `name` ("sha:path"); None when missing or not a blob."""
        found = self._request(name)
        if found is None or found[0] != "blob":
            return None
        return found[1]

    def get_upto(self, name: str, limit: int) -> bytes | int | None:
        """Like `get`, but a blob over `limit` bytes is not kept: its size
        instead (its content is read through in chunks, memory stays flat)."""
        found = self._request(name, limit)
        if found is None or found[0] != "blob":
            return None
        return found[1] if found[1] is not None else found[2]

    def tree(self, name: str) -> bytes | None:
        """The raw tree object named `name` ("sha:folder"); None when missing or not a tree."""
        found = self._request(name)
        if found is None or found[0] != "tree":
            return None
        return found[1]

    def kind(self, name: str) -> str | None:
        """The type of object `name` ("blob", "tree", "commit", "tag"), None when missing."""
        found = self._request(name, 0)
        return None if found is None else found[0]

    def count(self, oid: str, limit: int | None) -> LineCount | None:
        """The lines of blob `oid` (`gate.changes.line_count`), counted in
        chunks as it streams (memory stays flat); None for a blob over
        `limit` bytes, which is skipped.  GateError when it is missing."""
        from gate.changes import line_count

        found = self._header(oid)
        if found is None or found[0] != "blob":
            raise GateError(
                f"git cannot read blob {oid}: run git fsck, or fetch the missing objects"
            )
        size = found[1]
        if limit is not None and size > limit:
            self._skip(size)
            return None
        counted = line_count(self._chunks(size))
        assert self.proc is not None and self.proc.stdout is not None
        if self.proc.stdout.read(1) != b"\n":
            raise self._failure()
        return counted

    def _header(self, name: str) -> tuple[str, int] | None:
        """Ask for object `name`: (type, size) with its content next on
        stdout, or None when it is missing."""
        assert self.proc is not None
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        request = to_bytes(name)
        if b"\0" in request:
            return None  # git paths cannot contain NUL
        try:
            stdin.write(request + b"\0")
            stdin.flush()
        except OSError:
            raise self._failure() from None
        line = stdout.readline()
        if not line:
            raise self._failure()
        found = _HEADER.match(line)
        if found is None:
            # "<name> missing\n" (the name may itself contain newlines).
            expected = len(request) + len(b" missing\n")
            rest = expected - len(line)
            if rest > 0:
                line += stdout.read(rest)
            if not line.endswith((b" missing\n", b" ambiguous\n")):
                raise self._failure()
            return None
        return found.group(1).decode("ascii"), int(found.group(2))

    def _chunks(self, size: int) -> Iterator[bytes]:
        """The next `size` bytes of content, in chunks of at most `_CHUNK`."""
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        left = size
        while left:
            chunk = stdout.read(min(left, _CHUNK))
            if not chunk:
                raise self._failure()
            left -= len(chunk)
            yield chunk

    def _skip(self, size: int) -> None:
        """Read through `size` bytes of content and the newline after it."""
        assert self.proc is not None and self.proc.stdout is not None
        for _ in self._chunks(size):
            pass
        if self.proc.stdout.read(1) != b"\n":
            raise self._failure()

    def _request(self, name: str, limit: int | None = None) -> tuple[str, bytes | None, int] | None:
        """(type, content, size) of object `name`, None when missing; the
        content is None (skipped) when it is over `limit` bytes."""
        found = self._header(name)
        if found is None:
            return None
        kind, size = found
        if limit is not None and size > limit:
            self._skip(size)
            return kind, None, size
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        data = stdout.read(size)
        if len(data) != size or stdout.read(1) != b"\n":
            raise self._failure()
        return kind, data, size


def _tree_entries(data: bytes, hash_size: int) -> Iterator[tuple[bytes, bytes]]:
    """(mode, name) of each entry of a raw tree object: `MODE SP NAME NUL
    HASH` repeated, the hash `hash_size` bytes (20 SHA-1, 32 SHA-256)."""
    at = 0
    while at < len(data):
        space = data.index(b" ", at)
        nul = data.index(b"\0", space)
        yield data[at:space], data[space + 1 : nul]
        at = nul + 1 + hash_size


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


def changes_from_git(
    repo: Repo,
    base_rev: str,
    head_rev: str,
    content_files: Iterable[str] | TextWants,
    *,
    stdout: str | None = None,
    parent: bool = False,
) -> ChangeSet:
    """The change `base...head` with texts for `content_files` (a
    `TextWants`: also the modified files it asks for, read in the same
    `cat-file` batch once the diff names them).

    Base-side texts come from the merge base (where the change starts), head
    texts from the head; with several merge bases, from base and the merged
    tree (`Span`).  The report names the resolved base and head shas.
    `parent`: the caller vouches that `base_rev` and `head_rev` are full
    commit shas and `base_rev` is a parent of `head_rev` (its own merge base
    with it, the only one), as `gate backtest` reads them from `git log`:
    three git calls fewer, the same change (a missing object still fails the
    diff).
    """
    from gate.changes import ChangeSet, text_wants, tree_folders

    if parent:
        base, head = base_rev, head_rev
        judged = Span(base, head, (base,))
    else:
        base = repo.rev_parse(base_rev)
        head = repo.rev_parse(head_rev)
        judged = span(repo, base, head)
    with repo.start_diff(judged.old, judged.new, background=False) as job:
        files = job.result()
        notes = change_notes(judged, job)
    wants = text_wants(content_files)
    texts = repo.read_texts(judged.old, judged.new, wants.paths(files))
    tree = repo.base_tree(judged.old, tree_folders(files)) if wants.tree else None
    return ChangeSet(
        files=files,
        base=base,
        head=head,
        stdout=stdout,
        texts=texts,
        source="git",
        notes=notes,
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
