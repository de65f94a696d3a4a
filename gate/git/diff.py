"""One running tree diff (`DiffJob`): `git diff --raw --numstat -z -M`
parsed as it streams, then the counts git's numstat lacks and the copies
of base files, and the notes on what git left out."""

from __future__ import annotations

import re
import subprocess
import tempfile
import threading
from typing import TYPE_CHECKING

from gate.base.errors import GateError
from gate.git.conventions import MAIN_DIFF, MAIN_FLAGS, RENAME_LIMIT, diff_failed, popen_streaming
from gate.git.copies import find_copies
from gate.git.counts import LineCounter, count_binary, count_lone_cr
from gate.git.parse import CopyTarget, Uncounted, nul_tokens, parse_diff

if TYPE_CHECKING:
    from gate.git.catfile import CatFile
    from gate.git.copies import BaseListings
    from gate.git.runner import Runner
    from gate.model.change import FileChange


class DiffJob:
    """One running `git diff --raw --numstat -z old new`, parsed by a reader
    thread as it streams.  `session` is the thread's `Repo.blob_session`, if
    any (it counts a few blobs, and without `background` answers the diff);
    `listings` the repository's `BaseListings`, for the copy search."""

    def __init__(
        self,
        repo: Runner,
        old: str,
        new: str,
        *,
        background: bool = True,
        session: CatFile | None,
        listings: BaseListings,
    ) -> None:
        spec = [old, new]
        args = ["diff", *MAIN_FLAGS, "--end-of-options", *spec, "--"]
        self._repo = repo
        self._cat = session
        self._listings = listings
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
        self._blobs: list[Uncounted] = []
        self._targets: list[CopyTarget] = []
        self._texts: list[Uncounted] = []
        # With a reader thread, the changed blobs are counted as the diff's raw
        # records name them (`LineCounter`), while git still counts lines.
        self._counter: LineCounter | None = None
        if background:
            self._counter = LineCounter(repo)
        self._lone_cr_note: str | None = None
        self._problem: str | None = None
        self._args = args
        self._thread: threading.Thread | None = None
        self._read_done = False
        self._proc: subprocess.Popen[bytes] | None = None
        # Without a reader thread, a thread's `Repo.blob_session` answers the
        # diff from its long-running `git diff-tree --stdin` (`DiffTrees`);
        # the process starts in `result()` only when it cannot.
        self._session = None if background else session
        if self._session is None:
            self._start(background)

    def _start(self, background: bool) -> None:
        argv = self._repo.view_argv(self._args)
        try:
            self._proc = popen_streaming(
                argv, cwd=self._cwd, stdin=subprocess.DEVNULL, stderr=self._err, env=self._env
            )
        except OSError as exc:
            self.close()
            raise self._repo.start_error(exc) from None
        # A reader thread parses as git streams, while the caller loads the
        # rubric; without `background` (`gate lab`, `gate backtest`, which
        # have nothing to do meanwhile) no thread is started per diff.
        if background:
            self._thread = threading.Thread(target=self._read, name="gate-git-diff", daemon=True)
            self._thread.start()

    def _read(self) -> None:
        assert self._proc is not None
        stdout = self._proc.stdout
        assert stdout is not None
        self._problem = "the reader stopped early"
        try:
            named = None if self._counter is None else self._counter.want
            parse_diff(
                nul_tokens(stdout), self._files, self._blobs, self._targets, self._texts, named
            )
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
        and near copies not looked for over the gate's budget (`find_copies`)."""
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

    def _from_session(self) -> bool:
        """Parse the diff from this thread's `DiffTrees`; False (nothing
        parsed) when it could not answer, or when git might have skipped
        rename detection (a note this way of asking cannot see)."""
        from gate.model.change import ADDED, DELETED, RENAMED

        assert self._session is not None
        tokens = self._session.diffs().tokens(MAIN_DIFF, self._old, self._spec[1])
        if tokens is None:
            return False
        try:
            parse_diff(iter(tokens), self._files, self._blobs, self._targets, self._texts)
        except Exception:  # fail closed: the change's own git diff says what is wrong
            tokens = None
        statuses = [f.status for f in self._files]
        moved = statuses.count(RENAMED)
        creates, sources = statuses.count(ADDED) + moved, statuses.count(DELETED) + moved
        if tokens is None or creates * sources > RENAME_LIMIT * RENAME_LIMIT:
            self._files, self._blobs, self._targets, self._texts = [], [], [], []
            return False
        return True

    def result(self) -> tuple[FileChange, ...]:
        """The parsed diff, sorted by path; GateError when git failed."""
        if self._thread is None:
            if not self._read_done:
                self._read_done = True
                if self._session is None or not self._from_session():
                    self._session = None
                    if self._proc is None:
                        self._start(False)
                    self._read()
        else:
            self._thread.join()
        code = 0 if self._proc is None else self._proc.wait()
        if code > 0 or (code != 0 and self._problem is None):
            self._err.seek(0)
            raise diff_failed(self._err.read())
        if self._problem is not None:
            raise GateError(f"cannot read git diff output ({self._problem}): report this bug")
        counted = self._counter.finish() if self._counter is not None else None
        if self._blobs:
            count_binary(self._repo, self._files, self._blobs, counted, session=self._cat)
            self._blobs = []
        if self._texts:
            self._lone_cr_note = count_lone_cr(
                self._repo, self._files, self._texts, counted, session=self._cat
            )
            self._texts = []
        if self._targets:
            self._copy_notes = find_copies(
                self._repo,
                self._files,
                self._targets,
                self._old,
                self._spec,
                self._env,
                self._cwd,
                listings=self._listings,
                session=self._session,
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
