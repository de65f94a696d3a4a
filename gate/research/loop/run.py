"""Run the attempts: writer, apply, test, judge, reset, for every key.

Each attempt, on its own:

1. a fresh worktree at the frozen base (`git worktree add --detach`) in a
   private temporary folder, with a private HOME and TMPDIR beside it;
2. the writer (`sh -c COMMAND`, in the worktree, with a timeout): the prompt
   on stdin and in `GATE_PROMPT_FILE`; it prints a unified diff, or edits
   the worktree and prints nothing (doing both is refused);
3. the change, as bytes: what it printed, or `git diff --cached --binary`
   of its edits; judged for purity and applied exactly as `gate check
   --patch` does (`gate.changes.patch.apply_patch`): not pure, or does not
   apply -> `infrastructure`;
4. the worktree reset to exactly the tree that was judged, and the test
   command (`sh -c TEST`, with a timeout) run there; its output (stdout and
   stderr, the end kept) with a last line `EXIT=<code>` is the captured
   output `must_include` rules read;
5. the verdict: `gate.research.lab.judge_patch` (the lab's judge path) and
   `gate.research.lab.bucket_for` (a red test run counts as red tests);
6. the worktree removed (`git worktree remove --force`, the folder deleted,
   `git worktree prune`), whatever happened.

Before any attempt, the test command runs once in a worktree of the base
(`base_run`): a command the shell cannot start there (exit 126 or 127) stops
the run, and the base run's fingerprint (`fingerprint`) tells the caller
when every attempt's tests failed exactly as the base's did: a test command
that cannot tell one change from another.

Writers and tests run with a clean environment: PATH, HOME and TMPDIR (the
attempt's own), LANG=C.UTF-8 and the documented `GATE_*` variables; nothing
else of the caller's (no tokens, no keys) unless named by `--pass-env`
(writers only).  Every process an attempt starts runs in its own session
and the whole session is killed at the timeout and when the attempt ends.
Writers are not sandboxed: they run as you, and a writer that is hostile to
your machine is out of scope; the clean environment is against leaking
secrets, the fresh worktree against leaking state between attempts.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from gate.base.errors import GateError, PatchError, internal_error
from gate.base.escape import printable
from gate.base.files import PATCH_LIMIT, read_input
from gate.changes.patch import BaseIndex, apply_patch
from gate.git.repo import Repo
from gate.model.report import Report
from gate.model.rubric import Rubric
from gate.research.lab import INFRASTRUCTURE, bucket_for, judge_patch
from gate.research.loop import Attempt, Commands, Key, ResultsFile, all_keys, in_shard

TESTS_OUTPUT_LIMIT = 64 << 10  # bytes of a test run's output kept (its end)
DIFF_LIMIT = 256 << 10  # bytes of a change's diff kept in its record (for the report)
STDERR_SHOWN = 600  # characters of a failed writer's stderr quoted in its record
SHELL = "/bin/sh"


@dataclass(frozen=True)
class Writer:
    name: str
    command: str


@dataclass(frozen=True)
class Plan:
    """What one `gate loop run` does."""

    writers: tuple[Writer, ...]
    prompts: Mapping[str, Path]
    attempts: int
    test_command: str
    writer_timeout: float = 600.0
    test_timeout: float = 300.0
    pass_env: tuple[str, ...] = ()
    shard: tuple[int, int] | None = None
    jobs: int = 1
    # The base's test files and runner configuration for each attempt's
    # test run (`gate.frozen`): a writer that bends a test scores red.
    frozen_tests: bool = False

    @property
    def commands(self) -> Commands:
        return Commands(self.test_command, {w.name: w.command for w in self.writers})

    def selected(self) -> list[Key]:
        keys = all_keys([w.name for w in self.writers], sorted(self.prompts), self.attempts)
        return keys if self.shard is None else in_shard(keys, self.shard)


@dataclass(frozen=True)
class _Ran:
    exit: int | None  # None: killed at the timeout
    output: Path
    errors: Path


class _Processes:
    """The sessions of the processes running now, to kill on an interrupt."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self._live: set[int] = set()
        self._lock = threading.Lock()

    def run(
        self,
        command: str,
        *,
        cwd: str,
        env: Mapping[str, str],
        stdin: bytes,
        timeout: float,
        output: Path,
        errors: Path | None,
    ) -> _Ran:
        """`sh -c COMMAND` in its own session; stdout to `output`, stderr to
        `errors` (None: to `output` too).  The session is killed at the
        timeout, on any exception, and when the command ends (no stragglers)."""
        with open(output, "wb") as out, open(errors or os.devnull, "wb") as err:
            proc = subprocess.Popen(
                [SHELL, "-c", command],
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=subprocess.STDOUT if errors is None else err,
                start_new_session=True,
            )
            with self._lock:
                self._live.add(proc.pid)
            try:
                try:
                    proc.communicate(input=stdin, timeout=timeout)
                    code: int | None = proc.returncode
                except subprocess.TimeoutExpired:
                    code = None
            finally:
                _kill_session(proc.pid)
                proc.wait()
                with self._lock:
                    self._live.discard(proc.pid)
        return _Ran(code, output, errors or output)

    def kill_all(self) -> None:
        self.stopping.set()
        with self._lock:
            live = list(self._live)
        for pid in live:
            _kill_session(pid)


def _kill_session(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _tail(path: Path, limit: int) -> str:
    """The last `limit` bytes of a file as text, with a line saying what was cut."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        if size > limit:
            f.seek(size - limit)
        data = f.read(limit)
    text = data.decode("utf-8", errors="replace")
    if size > limit:
        text = f"[... first {size - limit} bytes cut ...]\n" + text
    return text


def _messages(report: Report) -> tuple[tuple[str, str], ...]:
    """Each failed rule's message, in `failed` order."""
    said = {r.id: r.message for r in report.results if not r.passed}
    return tuple((i, said[i]) for i in report.failed if i in said)


def _exit_line(code: int | None) -> str:
    return f"EXIT={'timeout' if code is None else code}\n"


def _shown_diff(data: bytes) -> str:
    text = data[:DIFF_LIMIT].decode("utf-8", errors="replace")
    if len(data) > DIFF_LIMIT:
        text += f"\n[... last {len(data) - DIFF_LIMIT} bytes cut ...]\n"
    return text


# Decimal numbers (durations: "in 0.03s", "Ran 1 test in 0.001s", "ok pkg 0.004s").
_DECIMAL = re.compile(r"[0-9]+\.[0-9]+")
NOT_STARTED = (126, 127)  # sh: found but not executable; not found


def fingerprint(captured: str, folder: str) -> str:
    """What "failed the same way" compares: the SHA-256 of a test run's
    captured output (its `EXIT=` line included, so its exit status) with the
    run's temporary folder (worktree, HOME, TMPDIR) written as `<run>` and
    every decimal number as `#`: two runs of one suite on one tree give the
    same fingerprint wherever their folder and however long they took."""
    text = captured
    for path in sorted({folder, os.path.realpath(folder)}, key=len, reverse=True):
        text = text.replace(path, "<run>")
    text = _DECIMAL.sub("#", text)
    return hashlib.sha256(text.encode("utf-8", errors="surrogateescape")).hexdigest()


@dataclass(frozen=True)
class BaseRun:
    """The test command's run on the base itself, before any attempt."""

    exit: int | None  # None: killed at the timeout
    captured: str
    fingerprint: str

    @property
    def red(self) -> bool:
        return self.exit != 0


def clean_env(home: str, tmp: str, extra: Mapping[str, str]) -> dict[str, str]:
    """The whole environment of a writer or a test run: nothing inherited but PATH."""
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": home,
        "TMPDIR": tmp,
        "LANG": "C.UTF-8",
        **extra,
    }


def _admin_dir(worktree: str) -> str:
    """The worktree's git directory, read from its `.git` file before any
    writer runs: later git calls name it (GIT_DIR, GIT_WORK_TREE), so a
    writer that deletes or rewrites `.git` cannot send them to another
    repository (one holding the temporary folder, say)."""
    text = read_input(
        Path(worktree, ".git"), "worktree git file", fix="git worktree add made no .git file"
    ).decode("utf-8", errors="replace")
    if not text.startswith("gitdir: "):
        raise GateError(f"git worktree add made no gitdir file in {printable(worktree)}")
    return os.path.join(worktree, text[len("gitdir: ") :].strip())


class _Worktree:
    """git in one attempt's worktree, pinned to its git directory."""

    def __init__(self, worktree: str, admin: str) -> None:
        self.repo = Repo(worktree)
        self.env = {"GIT_DIR": admin, "GIT_WORK_TREE": worktree}

    def run(self, args: Sequence[str]) -> bytes:
        return self.repo.run(args, env=self.env)


@dataclass
class _Attempts:
    """One run's attempts: what judges them (the rubric read at `base`), the
    plan, the results file they are appended to; the writer processes and
    the worktrees they share."""

    repo: Repo
    rubric: Rubric
    base: str
    plan: Plan
    results: ResultsFile
    rubric_path: str | None
    processes: _Processes = field(default_factory=_Processes, init=False)
    # git worktree add/remove/prune, one at a time
    worktrees: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self.writers = {w.name: w for w in self.plan.writers}
        self.base_index = BaseIndex(self.repo, self.base)

    def record(self, key: Key, **fields: object) -> Attempt:
        writer, prompt, number = key
        return Attempt(
            writer=writer,
            prompt=prompt,
            attempt=number,
            base=self.base,
            rubric_sha256=self.rubric.sha256,
            test_command=self.plan.test_command,
            writer_command=self.writers[writer].command,
            **fields,  # type: ignore[arg-type]
        )

    def one(self, key: Key) -> Attempt | None:
        """Run, judge and record one attempt (None: interrupted, not recorded)."""
        if self.processes.stopping.is_set():
            return None
        folder = tempfile.mkdtemp(prefix="gate-loop-")
        worktree = os.path.join(folder, "worktree")
        try:
            with self.worktrees:
                self.repo.run(["worktree", "add", "--detach", "--quiet", worktree, self.base])
            record = self._attempt(key, folder, worktree, _admin_dir(worktree))
        except (GateError, PatchError) as exc:
            record = self.record(
                key, bucket=INFRASTRUCTURE, applies=False, error=exc.message, judge_error=True
            )
        except Exception as exc:  # one broken attempt must not sink the run
            record = self.record(
                key,
                bucket=INFRASTRUCTURE,
                applies=False,
                error=internal_error(exc),
                judge_error=True,
            )
        finally:
            self._remove(folder, worktree)
        if self.processes.stopping.is_set():
            return None  # its processes were killed by the interrupt: not its result
        self.results.append(record)
        return record

    def _remove(self, folder: str, worktree: str) -> None:
        with self.worktrees:
            with contextlib.suppress(GateError):
                self.repo.run(["worktree", "remove", "--force", "--force", worktree])
            shutil.rmtree(folder, ignore_errors=True)
            with contextlib.suppress(GateError):
                self.repo.run(["worktree", "prune"])

    def _attempt(self, key: Key, folder: str, worktree: str, admin: str) -> Attempt:
        writer_name, prompt, number = key
        writer = self.writers[writer_name]
        root = Path(folder)
        for sub in ("home", "tmp"):
            (root / sub).mkdir()
        prompt_text = read_input(
            self.plan.prompts[prompt],
            "prompt file",
            fix="keep the --prompts folder's files in place",
        )
        prompt_file = root / "prompt"
        prompt_file.write_bytes(prompt_text)
        extra = {
            "GATE_WRITER": writer_name,
            "GATE_PROMPT": prompt,
            "GATE_PROMPT_FILE": str(prompt_file),
            "GATE_ATTEMPT": str(number),
            "GATE_BASE": self.base,
            "GATE_WORKTREE": worktree,
        }
        extra.update({n: os.environ[n] for n in self.plan.pass_env if n in os.environ})
        env = clean_env(str(root / "home"), str(root / "tmp"), extra)
        ran = self.processes.run(
            writer.command,
            cwd=worktree,
            env=env,
            stdin=prompt_text,
            timeout=self.plan.writer_timeout,
            output=root / "writer.out",
            errors=root / "writer.err",
        )

        def infrastructure(error: str, **fields: object) -> Attempt:
            return self.record(key, bucket=INFRASTRUCTURE, applies=False, error=error, **fields)

        if ran.exit is None:
            return infrastructure(
                f"the writer did not finish within {self.plan.writer_timeout:g} s (killed)"
            )
        if ran.exit != 0:
            said = _tail(ran.errors, STDERR_SHOWN).strip()
            return infrastructure(
                f"the writer exited {ran.exit}" + (f": {printable(said)}" if said else ""),
                writer_exit=ran.exit,
            )
        if ran.output.stat().st_size > PATCH_LIMIT:
            return infrastructure(
                f"the writer printed more than {PATCH_LIMIT >> 20} MiB", writer_exit=0
            )
        printed = read_input(
            ran.output,
            "writer output",
            fix="the loop's temporary folder changed",
            limit=PATCH_LIMIT,
        )
        tree_repo = _Worktree(worktree, admin)
        tree_repo.run(["add", "--all"])
        edited = tree_repo.run(
            [
                "diff",
                "--cached",
                "--binary",
                "--full-index",
                "--no-ext-diff",
                "--no-textconv",
                "--no-color",
                self.base,
            ]
        )
        if printed.strip() and edited:
            return infrastructure(
                "the writer printed output and also edited the worktree: a writer prints "
                "a unified diff or edits in place and prints nothing (log to stderr)",
                writer_exit=0,
            )
        data = printed if printed.strip() else edited
        if not data:
            return infrastructure(
                "no change: the writer printed nothing and left the worktree as it was",
                writer_exit=0,
            )
        name = f"{writer_name}/{prompt}/{number}"
        try:
            tree = apply_patch(self.repo, self.base, data, name, base_index=self.base_index)
        except PatchError as exc:
            return infrastructure(exc.message, writer_exit=0, diff=_shown_diff(data))
        # The tests run on exactly the tree that is judged.
        tree_repo.run(["read-tree", "--reset", "-u", tree])
        tree_repo.run(["clean", "-ffdxq"])
        frozen_error = self._freeze(tree, Path(worktree)) if self.plan.frozen_tests else None
        exit_code, captured = self._tests(root, worktree)
        if frozen_error is not None:
            captured = captured.removesuffix(_exit_line(exit_code))
            captured += f"[frozen tests could not be prepared: {frozen_error}]\n"
            captured += _exit_line(exit_code)
        red = exit_code != 0 or frozen_error is not None
        report = judge_patch(
            self.repo,
            self.rubric,
            self.base,
            data,
            name,
            rubric_path=self.rubric_path,
            stdout=captured,
            base_index=self.base_index,
        )
        return self.record(
            key,
            bucket=bucket_for(report, self.rubric, tests_red=red, exact=True),
            applies=True,
            failed=report.failed,
            messages=_messages(report),
            rules=tuple(r.id for r in report.results),
            writer_exit=0,
            tests_ran=True,
            tests_exit=exit_code,
            tests_red=red,
            tests_frozen=self.plan.frozen_tests,
            tests_captured=captured,
            tests_fingerprint=fingerprint(captured, folder),
            diff=_shown_diff(data),
        )

    def _tests(self, root: Path, worktree: str) -> tuple[int | None, str]:
        """The test command in `worktree`: its exit (None: killed at the
        timeout) and its captured output, ending in `EXIT=<code>`."""
        tests = self.processes.run(
            self.plan.test_command,
            cwd=worktree,
            env=clean_env(
                str(root / "home"),
                str(root / "tmp"),
                {"GATE_WORKTREE": worktree, "PYTHONDONTWRITEBYTECODE": "1"},
            ),
            stdin=b"",
            timeout=self.plan.test_timeout,
            output=root / "tests.out",
            errors=None,
        )
        output = _tail(tests.output, TESTS_OUTPUT_LIMIT)
        if tests.exit is None:
            output += f"\n[killed after {self.plan.test_timeout:g} s]\n"
        captured = output + ("" if output.endswith("\n") or not output else "\n")
        return tests.exit, captured + _exit_line(tests.exit)

    def base_run(self) -> BaseRun:
        """The test command once on the base, as an attempt's test run; a
        GateError when the shell cannot start it there."""
        folder = tempfile.mkdtemp(prefix="gate-loop-base-")
        worktree = os.path.join(folder, "worktree")
        try:
            with self.worktrees:
                self.repo.run(["worktree", "add", "--detach", "--quiet", worktree, self.base])
            root = Path(folder)
            for sub in ("home", "tmp"):
                (root / sub).mkdir()
            code, captured = self._tests(root, worktree)
            base = BaseRun(code, captured, fingerprint(captured, folder))
        finally:
            self._remove(folder, worktree)
        if code in NOT_STARTED:
            said = captured.removesuffix(_exit_line(code)).strip().splitlines()
            shown = printable(said[-1][-300:]) if said else "nothing"
            raise GateError(
                f"the test command cannot start in a worktree of the base (exit {code}, "
                f"it printed: {shown}): fix --test-cmd, which runs as sh -c there"
            )
        return base

    def _freeze(self, tree: str, worktree: Path) -> str | None:
        """The attempt's checkout made frozen against the base (its test
        files and runner configuration as at the base, new ones removed);
        why it cannot be (then its tests count red), or None."""
        from gate.frozen.run import freeze_tree

        try:
            freeze_tree(self.repo, self.base, tree, worktree, self.rubric)
        except GateError as exc:
            return exc.message
        return None

    def close(self) -> None:
        self.base_index.close()


def run_loop(
    repo: Repo,
    rubric: Rubric,
    base_sha: str,
    plan: Plan,
    results: ResultsFile,
    *,
    rubric_path: str | None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Attempt], BaseRun]:
    """The test command on the base (`base_run`: a GateError when it cannot
    start), then every key of the plan (its shard) not already in `results`;
    return the records written now and the base run.  On an interrupt (KeyboardInterrupt)
    the running attempts are killed and not recorded, and it is re-raised:
    a rerun with the same `--results` starts where this one stopped."""
    if plan.attempts < 1:
        raise GateError(f"--attempts must be at least 1, not {plan.attempts}")
    pending = [k for k in plan.selected() if k not in results.done]
    with contextlib.suppress(GateError):
        repo.run(["worktree", "prune"])  # what a killed run left behind
    runner = _Attempts(repo, rubric, base_sha, plan, results, rubric_path)
    done: list[Attempt] = []
    lock = threading.Lock()

    def one(key: Key) -> None:
        record = runner.one(key)
        if record is None:
            return
        with lock:
            done.append(record)
            if progress is not None:
                progress(len(done), len(pending))

    try:
        base = runner.base_run()
        if plan.jobs <= 1 or len(pending) <= 1:
            for key in pending:
                one(key)
        else:
            pool = ThreadPoolExecutor(max_workers=plan.jobs)
            try:
                futures = [pool.submit(one, key) for key in pending]
                for future in futures:
                    future.result()
            except BaseException:
                runner.processes.kill_all()
                pool.shutdown(wait=True, cancel_futures=True)
                raise
            pool.shutdown(wait=True)
    except BaseException:
        runner.processes.kill_all()
        raise
    finally:
        runner.close()
    return done, base


def same_failure(base: BaseRun, records: Sequence[Attempt]) -> str | None:
    """Why the run measured nothing, or None: the base's tests failed and
    every attempt whose tests ran (one at least) failed the same way, the
    same fingerprint (`fingerprint`: the same exit status and output, but
    for folders and durations)."""
    ran = [r for r in records if r.tests_ran]
    if not base.red or not ran or any(r.tests_fingerprint != base.fingerprint for r in ran):
        return None
    code = "timeout" if base.exit is None else base.exit
    return (
        f"the test command failed the same way on the base and in all {len(ran)} attempts "
        f"whose tests ran (exit {code}, the same output): it cannot tell one change from "
        "another; check that --test-cmd runs the tests in a worktree of the base"
    )


def parse_writer(text: str) -> Writer:
    """`NAME=COMMAND` -> Writer."""
    from gate.research.loop import check_name

    name, sep, command = text.partition("=")
    if not sep or not command.strip():
        raise GateError(f"--writer {printable(text)} is not NAME=COMMAND")
    return Writer(check_name(name, "writer"), command)


def read_writers(path: str) -> list[Writer]:
    """A writers file: YAML, a mapping of writer name -> command string."""
    import yaml

    from gate.base.files import read_input
    from gate.research.loop import check_name

    fix = "write one 'name: command' line per writer"
    try:
        data = yaml.safe_load(read_input(path, "writers file", fix=fix))
    except yaml.YAMLError as exc:
        raise GateError(
            f"{printable(path)}: not YAML ({printable(str(exc))[:200]}); {fix}"
        ) from None
    if not isinstance(data, dict) or not data:
        raise GateError(f"{printable(path)}: not a mapping of writer name -> command; {fix}")
    writers = []
    for name, command in data.items():
        if not isinstance(name, str) or not isinstance(command, str) or not command.strip():
            raise GateError(f"{printable(path)}: {printable(repr(name))} has no command; {fix}")
        writers.append(Writer(check_name(name, "writer"), command))
    return writers


def unique_writers(writers: Sequence[Writer]) -> tuple[Writer, ...]:
    seen: set[str] = set()
    for w in writers:
        if w.name in seen:
            raise GateError(f"writer {w.name} is given twice; give each writer one name")
        seen.add(w.name)
    if not writers:
        raise GateError("no writers: pass --writer NAME=COMMAND or --writers FILE")
    return tuple(writers)
