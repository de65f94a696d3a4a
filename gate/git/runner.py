"""Running git for one repository (`Runner`): the argv and the scrubbed
environment every call has (`gate.git.conventions` holds them fixed), a
call run to its end (`Runner.run`, `Runner.attempt`), the git directory,
and the private view every tree diff runs in (`Runner.diff_view`).

`gate.git.repo.Repo` is a `Runner`.  The modules that start git processes
of their own (the cat-file session, the line counts, the copy search, the
diff) take a `Runner` and build each process from `Runner.argv` (or
`Runner.view_argv`), `Runner.env` and `Runner.start_error`, so every
process of the gate gets the same hardening."""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from gate.base.errors import GateError
from gate.git.conventions import BIG_FILE, CONFIG, SCRUBBED, first_line
from gate.git.view import private_view


class Runner:
    """Runs git in the repository at `path` (a work tree, any folder inside
    one, or a bare repo) with a scrubbed environment and fixed configuration."""

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
        self._git_dir: str | None = None
        self._view: tuple[tempfile.TemporaryDirectory[str], dict[str, str], str] | None = None
        self._view_lock = threading.Lock()
        self.big_file = big_file
        self._config = (
            "-c",
            f"core.bigFileThreshold={big_file}",
            *(arg for item in config for arg in ("-c", item)),
        )

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of every git process: the caller's, without the
        variables that would redirect git (`SCRUBBED`), with prompts, optional
        locks, replace refs, grafts and the system's gitattributes off and the
        C locale; then `extra` (a temporary `GIT_INDEX_FILE`, a private view)."""
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
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

    def argv(self, args: Sequence[str]) -> list[str]:
        """The command line of `git ARGS` in this repository, with the fixed
        configuration (`CONFIG`) and this runner's own settings."""
        return ["git", "-C", str(self.path), *CONFIG, *self._config, *args]

    def view_argv(self, args: Sequence[str]) -> list[str]:
        """Like `argv`, for a git run in another folder whose environment
        names the git directory (`GIT_DIR`): the private view of `diff_view`."""
        return ["git", *CONFIG, *self._config, *args]

    def start_error(self, exc: OSError) -> GateError:
        """The one sentence for a git process that could not start: a missing
        repository folder, else git missing from PATH."""
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
                self.argv(args),
                input=input,
                capture_output=True,
                env=self.env(env),
                check=False,
            )
        except OSError as exc:
            raise self.start_error(exc) from None
        if proc.returncode not in tuple(ok):
            raise GateError(f"git {args[0]} failed: {first_line(proc.stderr)}")
        return proc.stdout

    def attempt(self, args: Sequence[str]) -> tuple[int, bytes, bytes]:
        """Run `git ARGS` in the repository: (exit code, stdout, stderr), for
        a caller that reads a failure itself."""
        try:
            proc = subprocess.run(self.argv(args), capture_output=True, env=self.env(), check=False)
        except OSError as exc:
            raise self.start_error(exc) from None
        return proc.returncode, proc.stdout, proc.stderr

    def git_dir(self) -> str:
        """The absolute git directory (GateError when `path` is not in a repository)."""
        if self._git_dir is None:
            if not self.path.is_dir():
                raise GateError(f"repository folder {self.path} does not exist: pass --repo DIR")
            code, out, err = self.attempt(["rev-parse", "--absolute-git-dir"])
            if b"dubious ownership" in err:
                raise GateError(
                    f"git refuses {self.path}: it is owned by another user; trust it with "
                    f"git config --global --add safe.directory {self.path.resolve()}"
                )
            if code != 0 or not out.strip():
                raise GateError(
                    f"{self.path} is not a git repository ({first_line(err)}): "
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

    def diff_view(self) -> tuple[dict[str, str], str]:
        """The environment and folder every tree diff of this repository runs
        in (`private_view`), made on first use and removed with the runner
        (or at exit): one per diff would cost `gate lab` a folder of links
        made and removed per patch."""
        with self._view_lock:
            if self._view is None:
                folder = tempfile.TemporaryDirectory(prefix="gate-diff-")
                try:
                    env, cwd = private_view(self.common_dir(), self.env(), folder.name, "git diff")
                except BaseException:
                    folder.cleanup()
                    raise
                self._view = (folder, env, cwd)
            return dict(self._view[1]), self._view[2]
