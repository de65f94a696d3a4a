"""`gate loop`: the article's whole loop as data: one JSON line per attempt.

An attempt is one writer run on one prompt: `(writer, prompt, attempt)` is
its key.  Its record (`Attempt`) says what came of it: the bucket
(`gate.research.lab.bucket_for`, the lab's buckets), the failed rule ids, the test
run, the diff.  Records stream to a JSON-lines file as each attempt ends
(`ResultsFile`); a rerun skips the keys already there; shards of one run
are joined by `merge`.  Every line carries the base commit and the rubric's
SHA-256, the test command and its writer's command: lines of two judges, or
of two test commands, or of one writer name given two commands, are never
mixed, and a rerun with other commands is refused as one with another base.

Running attempts is `gate.research.loop.run`; the scoreboard is `gate.research.loop.scoreboard`.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.base.errors import GateError
from gate.base.escape import printable

FORMAT = "gate-loop-attempt/1"
NAME = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
NAME_RULE = "letters, digits, '.', '_' or '-', at most 64, not starting with '.', '_' or '-'"

# A results file's largest size: each line holds at most 256 KiB of diff and
# 64 KiB of test output (gate.research.loop.run), so about 800 attempts of the largest.
RESULTS_LIMIT = 256 << 20

Key = tuple[str, str, int]  # (writer, prompt, attempt number from 1)


@dataclass(frozen=True)
class Commands:
    """What a run runs: the test command and each writer's command, by name."""

    test: str
    writers: dict[str, str]


def check_name(name: str, what: str) -> str:
    """A writer's or prompt's name: it names files and HTML anchors, so it is plain."""
    if not NAME.match(name):
        raise GateError(f"{what} name {printable(repr(name))} is not a plain name ({NAME_RULE})")
    return name


@dataclass(frozen=True)
class Attempt:
    """One attempt's record; `to_dict` is its JSON line (sorted keys)."""

    writer: str
    prompt: str
    attempt: int
    base: str
    rubric_sha256: str
    bucket: str
    applies: bool  # a pure diff that applied to the base (and was judged)
    failed: tuple[str, ...] = ()  # rule ids that failed (judged attempts)
    # Each failed rule's message, in `failed` order (JSON: an object id -> message).
    messages: tuple[tuple[str, str], ...] = ()
    rules: tuple[str, ...] = ()  # every rule id the report judged, in its order
    error: str | None = None  # why there is no verdict (infrastructure)
    judge_error: bool = False  # the gate could not judge it: not the writer's fault
    writer_exit: int | None = None  # None: killed at the timeout
    tests_exit: int | None = None  # None: not run (infrastructure) or killed at the timeout
    tests_ran: bool = False
    tests_red: bool = False
    # `gate loop run --frozen-tests`: the tests ran with the base's test files
    # and runner configuration (`gate.frozen`), every failing base test red.
    tests_frozen: bool = False
    # The captured stdout `must_include` read: the test run's stdout and stderr,
    # bounded (its end kept), then `EXIT=<code>`; its JSON key is "output".
    tests_captured: str = ""
    diff: str = ""  # the change judged (bounded), for the report
    # The commands the attempt ran (None: a line of a gate that did not record them).
    test_command: str | None = None
    writer_command: str | None = None
    # `gate.research.loop.run.fingerprint` of the test run: what "fails the same way" compares.
    tests_fingerprint: str | None = None

    @property
    def key(self) -> Key:
        return (self.writer, self.prompt, self.attempt)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "writer": self.writer,
            "prompt": self.prompt,
            "attempt": self.attempt,
            "base": self.base,
            "rubric_sha256": self.rubric_sha256,
            "bucket": self.bucket,
            "applies": self.applies,
            "failed": list(self.failed),
            "messages": dict(self.messages),
            "rules": list(self.rules),
            "error": self.error,
            "judge_error": self.judge_error,
            "writer_exit": self.writer_exit,
            "test_command": self.test_command,
            "writer_command": self.writer_command,
            "tests": {
                "ran": self.tests_ran,
                "exit": self.tests_exit,
                "red": self.tests_red,
                "frozen": self.tests_frozen,
                "output": self.tests_captured,
                "fingerprint": self.tests_fingerprint,
            },
            "diff": self.diff,
        }

    def line(self) -> str:
        from gate.base.jsontext import dumps

        return dumps(self.to_dict(), indent=None)

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Attempt:
        """A record read back; anything else is a GateError naming `where`."""
        from gate.research.lab import EXACT_BUCKETS

        fix = "give a file written by gate loop run or gate loop merge"
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GateError(f'{where}: not a gate loop attempt (no "format": "{FORMAT}"); {fix}')
        tests = data.get("tests")
        if not isinstance(tests, dict):
            raise GateError(f'{where}: "tests" is not an object; {fix}')

        def field(obj: dict[str, Any], name: str, *types: type) -> Any:
            value = obj.get(name)
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
                raise GateError(f"{where}: {name!r} is missing or of the wrong type; {fix}")
            return value

        def optional(obj: dict[str, Any], name: str) -> str | None:
            """A field later gates write: absent from older lines (None)."""
            return field(obj, name, str, type(None)) if name in obj else None

        def ids(name: str) -> tuple[str, ...]:
            value = field(data, name, list)
            if not all(isinstance(v, str) for v in value):
                raise GateError(f"{where}: {name!r} is not a list of strings; {fix}")
            return tuple(value)

        messages = data.get("messages", {})
        if not isinstance(messages, dict) or not all(isinstance(v, str) for v in messages.values()):
            raise GateError(f"{where}: 'messages' is not an object of strings; {fix}")
        record = cls(
            writer=check_name(field(data, "writer", str), "writer"),
            prompt=check_name(field(data, "prompt", str), "prompt"),
            attempt=field(data, "attempt", int),
            base=field(data, "base", str),
            rubric_sha256=field(data, "rubric_sha256", str),
            bucket=field(data, "bucket", str),
            applies=field(data, "applies", bool),
            failed=ids("failed"),
            messages=tuple((i, messages[i]) for i in ids("failed") if i in messages),
            rules=ids("rules"),
            error=field(data, "error", str, type(None)),
            judge_error=field(data, "judge_error", bool),
            writer_exit=field(data, "writer_exit", int, type(None)),
            tests_ran=field(tests, "ran", bool),
            tests_exit=field(tests, "exit", int, type(None)),
            tests_red=field(tests, "red", bool),
            tests_frozen=bool(tests.get("frozen", False) is True),
            tests_captured=field(tests, "output", str),
            diff=field(data, "diff", str),
            test_command=optional(data, "test_command"),
            writer_command=optional(data, "writer_command"),
            tests_fingerprint=optional(tests, "fingerprint"),
        )
        if record.bucket not in EXACT_BUCKETS:
            raise GateError(f"{where}: unknown bucket {printable(record.bucket)}; {fix}")
        if record.attempt < 1:
            raise GateError(f"{where}: attempt {record.attempt} is not a number from 1; {fix}")
        return record


def read_records(path: str) -> list[Attempt]:
    """Every record of a results file, in file order.  A last line without
    its newline (a run killed while writing) is left out; any other line
    that is not a record, or a key given twice, is a GateError."""
    from gate.base.files import read_input
    from gate.base.jsontext import loads

    data = read_input(
        path,
        "loop results",
        fix="split the run into shards (--shard I/N) or give a gate loop results file",
        limit=RESULTS_LIMIT,
    )
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        lines.pop()  # unfinished: that attempt is run again
    records: list[Attempt] = []
    seen: set[Key] = set()
    for number, raw in enumerate(lines, start=1):
        where = f"{printable(path)}:{number}"
        record = Attempt.from_dict(loads(raw, where, fix="give a gate loop results file"), where)
        if record.key in seen:
            raise GateError(
                f"{where}: attempt {record.attempt} of {printable(record.writer)} on "
                f"{printable(record.prompt)} is in the file twice; one run, one line per attempt"
            )
        seen.add(record.key)
        records.append(record)
    return records


def _shown_command(command: str | None) -> str:
    return "none recorded" if command is None else printable(repr(command))


def same_commands(records: Iterable[Attempt], where: str) -> None:
    """One test command for every record and one command per writer name;
    else a GateError: two experiments' lines are never one scoreboard."""
    records = list(records)
    tests = {r.test_command for r in records}
    if len(tests) > 1:
        shown = "; ".join(sorted(_shown_command(t) for t in tests))
        raise GateError(
            f"{where}: the attempts ran different test commands ({shown}); "
            "keep each run's results apart"
        )
    writers: dict[str, set[str | None]] = {}
    for r in records:
        writers.setdefault(r.writer, set()).add(r.writer_command)
    for name, commands in sorted(writers.items()):
        if len(commands) > 1:
            shown = "; ".join(sorted(_shown_command(c) for c in commands))
            raise GateError(
                f"{where}: writer {printable(name)} ran different commands ({shown}); "
                "keep each run's results apart"
            )


def check_resume(records: Iterable[Attempt], commands: Commands, where: str) -> None:
    """A rerun resumes a results file only with the commands its attempts ran."""
    fix = "run again with the same --test-cmd and writers, or pass a new --results file"
    for r in records:
        if r.test_command is None or r.writer_command is None:
            raise GateError(
                f"{where} holds attempts whose commands were not recorded (an older gate "
                "wrote it): pass a new --results file"
            )
        if r.test_command != commands.test:
            raise GateError(
                f"{where} holds attempts run with the test command "
                f"{_shown_command(r.test_command)}, not this run's "
                f"{_shown_command(commands.test)}: {fix}"
            )
        mine = commands.writers.get(r.writer)
        if mine is not None and mine != r.writer_command:
            raise GateError(
                f"{where} holds attempts of writer {printable(r.writer)} run with "
                f"{_shown_command(r.writer_command)}, not this run's {_shown_command(mine)}: {fix}"
            )


def same_judge(records: Iterable[Attempt], where: str) -> tuple[str, str] | None:
    """The one (base, rubric sha256) of `records` (None when there are none);
    two of either is a GateError: two judges' lines are never one scoreboard.
    So are two test commands, or two commands of one writer (`same_commands`)."""
    records = list(records)
    same_commands(records, where)
    judges = sorted({(r.base, r.rubric_sha256) for r in records})
    if len(judges) > 1:
        shown = "; ".join(f"base {b[:12]} rubric {s[:12]}" for b, s in judges)
        raise GateError(
            f"{where}: the attempts were judged against different bases or rubrics ({shown}); "
            "keep each run's results apart"
        )
    return judges[0] if judges else None


class ResultsFile:
    """The results file a run appends to: one line per finished attempt,
    written and flushed (and fsynced) as it ends, under a lock."""

    def __init__(self, path: str, base: str, rubric_sha256: str, commands: Commands) -> None:
        self.path = path
        self.done: dict[Key, Attempt] = {}
        self._lock = threading.Lock()
        if os.path.exists(path):
            records = read_records(path)
            judge = same_judge(records, printable(path))
            if judge is not None and judge != (base, rubric_sha256):
                raise GateError(
                    f"{printable(path)} holds attempts judged against base {judge[0][:12]} and "
                    f"rubric {judge[1][:12]}, not this run's base {base[:12]} and rubric "
                    f"{rubric_sha256[:12]}: pass a new --results file"
                )
            check_resume(records, commands, printable(path))
            self.done = {r.key: r for r in records}
            _drop_unfinished_line(path)
        try:
            self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close())
        except OSError as exc:
            raise GateError(
                f"cannot write the results file {printable(path)} ({exc.strerror or exc}): "
                "pass --results FILE in a folder you can write"
            ) from None

    def append(self, record: Attempt) -> None:
        line = record.line()
        with self._lock:
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())
            self.done[record.key] = record

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _drop_unfinished_line(path: str) -> None:
    """Cut a last line without its newline (a run killed while writing it)."""
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


def sorted_records(records: Iterable[Attempt]) -> list[Attempt]:
    return sorted(records, key=lambda r: r.key)


def merge(paths: Sequence[str]) -> list[Attempt]:
    """The records of several results files (shards of one run) as one run:
    one base and rubric, no key twice; sorted by key."""
    merged: dict[Key, tuple[Attempt, str]] = {}
    for path in paths:
        for record in read_records(path):
            if record.key in merged:
                other = merged[record.key][1]
                raise GateError(
                    f"attempt {record.attempt} of {printable(record.writer)} on "
                    f"{printable(record.prompt)} is in both {printable(other)} and "
                    f"{printable(path)}: shards of one run never share an attempt"
                )
            merged[record.key] = (record, path)
    records = sorted_records(r for r, _ in merged.values())
    same_judge(records, "gate loop merge")
    return records


def write_records(path: str, records: Iterable[Attempt]) -> None:
    from gate.base.files import write_report

    write_report(path, "".join(r.line() for r in records), fix="loop merge --results")


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` -> (I, N), 1 <= I <= N."""
    found = re.fullmatch(r"([1-9][0-9]{0,5})/([1-9][0-9]{0,5})", text)
    if not found or int(found.group(1)) > int(found.group(2)):
        raise GateError(f"--shard {printable(text)} is not I/N with 1 <= I <= N (e.g. 2/4)")
    return int(found.group(1)), int(found.group(2))


def in_shard(keys: Sequence[Key], shard: tuple[int, int]) -> list[Key]:
    """The keys shard I of N runs: every Nth of the sorted keys, from the Ith.
    Deterministic and balanced: the same writers, prompts and attempt count
    give every job the same split, and the shards together are every key once."""
    index, count = shard
    return [key for i, key in enumerate(sorted(keys)) if i % count == index - 1]


def all_keys(writers: Sequence[str], prompts: Sequence[str], attempts: int) -> list[Key]:
    return sorted((w, p, n) for w in writers for p in prompts for n in range(1, attempts + 1))


def prompt_files(folder: str) -> dict[str, Path]:
    """The prompts: each regular file of `folder` not starting with '.', named
    by its file name without the last suffix."""
    root = Path(folder)
    if not root.is_dir():
        raise GateError(f"--prompts {printable(folder)} is not a folder of prompt files")
    found: dict[str, Path] = {}
    for path in sorted(root.iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        name = check_name(path.stem, f"prompt file {printable(path.name)}:")
        if name in found:
            raise GateError(
                f"prompt files {printable(found[name].name)} and {printable(path.name)} "
                "have the same name without their suffix; rename one"
            )
        found[name] = path
    if not found:
        raise GateError(f"--prompts {printable(folder)} holds no prompt files")
    return found
