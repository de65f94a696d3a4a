"""gate.base.files: the one way to read an input file and to write a report file.

Every input the gate reads from a path goes through `read_input`: a size cap
(the file is never read past it), and one named sentence for a missing
file, a directory, an unreadable path and a file over the cap.  The class
is tested at every entry point that reads a file, with generated sizes
around a lowered cap, so no entry point can read a file its own way.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import subprocess
import sys
import threading
import tty
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.base import files
from gate.base.errors import GateError
from gate.base.files import read_captured, read_input
from gate.commands.cli import main
from tests.gitrepo import GitRepo

SIZES = st.integers(min_value=0, max_value=64)
CAPS = st.integers(min_value=1, max_value=48)


def one_sentence(exc: GateError) -> str:
    assert exc.code == 2
    assert "\n" not in exc.message and "Traceback" not in exc.message
    return exc.message


@settings(max_examples=60, deadline=None)
@given(size=SIZES, cap=CAPS)
def test_a_file_is_read_whole_up_to_its_cap_and_refused_past_it(
    tmp_path_factory: pytest.TempPathFactory, size: int, cap: int
) -> None:
    path = tmp_path_factory.mktemp("in") / "input.bin"
    data = bytes(range(size))
    path.write_bytes(data)
    if size <= cap:
        assert read_input(path, "thing file", limit=cap, fix="fix it") == data
        return
    with pytest.raises(GateError) as caught:
        read_input(path, "thing file", limit=cap, fix="fix it", too_large="trim it")
    message = one_sentence(caught.value)
    assert message == f"thing file {path} is over the {cap:,} bytes limit: trim it"


@settings(max_examples=30, deadline=None)
@given(size=SIZES, cap=CAPS)
def test_stdin_is_read_up_to_its_cap_only_where_allowed(
    tmp_path_factory: pytest.TempPathFactory, size: int, cap: int
) -> None:
    data = b"y" * size
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        if size <= cap:
            assert read_input("-", "patch file", limit=cap, fix="f", stdin=True) == data
        else:
            with pytest.raises(GateError, match=r"^patch file on stdin is over the "):
                read_input("-", "patch file", limit=cap, fix="f", stdin=True)
    # Without stdin=True, '-' is a file name like any other.
    folder = tmp_path_factory.mktemp("dash")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        with pytest.raises(GateError, match=r"^patch file - does not exist: f$"):
            read_input("-", "patch file", limit=cap, fix="f")


def test_missing_directory_and_unreadable_are_one_named_sentence(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    cases = {
        tmp_path / "nope.txt": "does not exist: check the path",
        tmp_path: "is a directory: check the path",
        plain / "below-a-file": "cannot read",
    }
    for path, words in cases.items():
        with pytest.raises(GateError) as caught:
            read_input(path, "freeze file", fix="check the path")
        message = one_sentence(caught.value)
        assert str(path) in message and "freeze file" in message and words in message
        assert message.endswith("check the path")


def test_a_hostile_file_name_is_shown_with_its_control_characters_visible(
    tmp_path: Path,
) -> None:
    path = tmp_path / "evil\nname\x1b[31m.json"
    with pytest.raises(GateError) as caught:
        read_input(path, "report", fix="f")
    message = one_sentence(caught.value)
    assert "\x1b" not in message and "\\n" in message


def test_captured_output_is_text_with_other_bytes_replaced(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_bytes(b"EXIT=0 caf\xe9\r\n")
    assert read_captured(path, "stdout file", fix="f") == "EXIT=0 caf\ufffd\r\n"


# --- every entry point that reads a file reads it through read_input ---------

RUBRIC = "rules:\n  - {id: F1, kind: max_files, limit: 5}\n"
RESULT = json.dumps({"files_touched": 1, "stdout": "ok", "paths": ["a.py"]})
REPORT = json.dumps({"pass": True, "results": [{"id": "F1", "pass": True}]})


def _entry_points(root: Path, repo: Path) -> dict[str, tuple[Path, bytes, list[str]]]:
    """name -> (the input file, bytes that judge fine or b"", the argv that reads it)."""
    rubric, fixed = str(root / "r.yml"), str(root / "fixed.yml")
    check = ["check", "--repo", str(repo), "--base", "main", "--rubric-file", fixed]
    grade = ["grade", str(root / "fixed-result.json"), "--rubric-file", fixed]
    return {
        "rubric file": (root / "r.yml", RUBRIC.encode(), ["validate", rubric]),
        "writer result": (
            root / "result.json",
            RESULT.encode(),
            ["grade", str(root / "result.json"), "--rubric-file", fixed],
        ),
        "freeze file": (root / "FREEZE", b"", [*grade, "--freeze", str(root / "FREEZE")]),
        "report": (
            root / "a.json",
            REPORT.encode(),
            ["diff", str(root / "a.json"), str(root / "b.json")],
        ),
        "stdout file": (
            root / "out.txt",
            b"ok\n",
            [*check, "--stdout-file", str(root / "out.txt")],
        ),
        "patch file": (root / "p.diff", b"", [*check, "--patch", str(root / "p.diff")]),
    }


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a folder for input files, a repository with a commit on main)."""
    from tests.gitrepo import GitRepo

    root = tmp_path_factory.mktemp("inputs")
    repo = GitRepo(root / "repo")
    repo.write("a.py", "x = 1\n")
    repo.commit("base")
    repo.git("branch", "-M", "main")
    (root / "fixed.yml").write_text(RUBRIC)
    (root / "fixed-result.json").write_text(RESULT)
    (root / "b.json").write_text(REPORT)
    return root, repo.root


@pytest.mark.parametrize(
    "what",
    ["rubric file", "writer result", "freeze file", "report", "stdout file", "patch file"],
)
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(extra=st.integers(min_value=1, max_value=4096))
def test_every_input_over_its_cap_is_refused_by_name(
    inputs: tuple[Path, Path], what: str, extra: int, capsys: pytest.CaptureFixture[str]
) -> None:
    root, repo = inputs
    path, fine, argv = _entry_points(root, repo)[what]
    cap = 200
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "INPUT_LIMIT", cap)
        patch.setattr(files, "PATCH_LIMIT", cap)
        patch.setattr("gate.rubric.load.MAX_BYTES", cap)
        capsys.readouterr()
        if fine:  # at the cap, the same entry point reads it
            path.write_bytes(fine + b" " * (cap - len(fine)))
            assert main(argv) in (0, 1)
            capsys.readouterr()
        path.write_bytes(b"#" * (cap + extra))
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gate: error: {what} {path} is over the ")
    assert err.count("\n") == 1


@settings(max_examples=8, deadline=None)
@given(extra=st.integers(min_value=1, max_value=4096))
def test_the_actions_inputs_over_their_cap_are_refused_by_name(
    tmp_path_factory: pytest.TempPathFactory, extra: int
) -> None:
    from gate.action.change import read_stdout
    from gate.action.event import read_event
    from gate.github.settings import Settings, input_env_name

    workspace = tmp_path_factory.mktemp("workspace")
    event = workspace / "event.json"
    settings_ = Settings.from_env(
        {
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_REPOSITORY": "o/r",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_WORKSPACE": str(workspace),
            input_env_name("stdout-file"): "out.txt",
        }
    )
    cap = 200
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "INPUT_LIMIT", cap)
        event.write_text(json.dumps({"pad": "x" * (cap - 20)}))
        assert read_event(settings_)["pad"]
        event.write_bytes(b" " * (cap + extra))
        with pytest.raises(GateError) as caught:
            read_event(settings_)
        assert one_sentence(caught.value).startswith(f"event payload {event} is over the ")
        (workspace / "out.txt").write_bytes(b"x" * cap)
        assert read_stdout(settings_) == "x" * cap
        (workspace / "out.txt").write_bytes(b"x" * (cap + extra))
        with pytest.raises(GateError) as caught:
            read_stdout(settings_)
        assert one_sentence(caught.value).startswith("stdout-file out.txt is over the ")


# Modules that open files of their own, and why: none of them reads an input
# a caller names.
OWN_FILES = {
    "gate/base/files.py": "the one input reader and report writer, and the package's own files",
    "gate/git/repo.py": "git's own shallow file",
    "gate/git/runner.py": "git's own commondir file",
    "gate/base/workflow.py": "the runner's GITHUB_OUTPUT and GITHUB_STEP_SUMMARY",
    "gate/commands/init.py": "the starter files it creates (never overwritten)",
    "gate/research/loop/__init__.py": (
        "the results file it appends to, and cuts a half-written line from"
    ),
    "gate/research/loop/run.py": "a command's output, streamed to files, and their tails",
    "gate/frozen/tree.py": "the files of the frozen run's own worktree, written as at the base",
}


def test_no_module_reads_a_file_its_own_way() -> None:
    import ast

    root = Path(__file__).resolve().parents[2]
    offenders = []
    for path in sorted((root / "gate").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in OWN_FILES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("open", "read_bytes", "read_text", "fdopen"):
                offenders.append(f"{rel}:{node.lineno}: {name}()")
    assert offenders == []


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


@given(text=st.text(max_size=200))
@settings(max_examples=10, deadline=None)
def test_a_report_to_a_fifo_is_written_into_it_and_leaves_it_a_fifo(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    fifo = tmp_path_factory.mktemp("fifo") / "report.json"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    files.write_new_file(str(fifo), text)
    reader.join(timeout=30)
    assert got == [text.encode("utf-8")]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_report_to_a_terminal_device_is_written_into_it() -> None:
    """A character device (`/dev/null`, a terminal) is never replaced by a
    file: here a pseudo-terminal's device, read back from its other end."""
    main_fd, device_fd = os.openpty()
    device = os.ttyname(device_fd)
    try:
        tty.setraw(device_fd)
        files.write_new_file(device, '{"pass": true}\n')
        assert os.read(main_fd, 100) == b'{"pass": true}\n'
        assert stat.S_ISCHR(os.lstat(device).st_mode)
    finally:
        os.close(main_fd)
        os.close(device_fd)


@pytest.mark.parametrize("spelled", ["/dev/fd/{n}", "/proc/self/fd/{n}", "/dev//fd/./{n}"])
def test_a_report_to_a_descriptor_name_goes_to_that_descriptor(spelled: str) -> None:
    read_end, write_end = os.pipe()
    try:
        files.write_new_file(spelled.format(n=write_end), "report\n")
        os.close(write_end)
        assert _read_all(read_end) == b"report\n"
    finally:
        os.close(read_end)
        with contextlib.suppress(OSError):
            os.close(write_end)
    assert os.path.islink("/dev/stdout") or not os.path.exists("/dev/stdout")


GATE = [sys.executable, "-m", "gate"]


def test_check_output_to_an_open_descriptor_follows_what_it_printed(tmp_path: Path) -> None:
    """`gate check --output /dev/fd/N` (as `/dev/stdout` is `/dev/fd/1`):
    the JSON report goes to that descriptor, the text report to stdout."""
    repo = GitRepo(tmp_path)
    rubric = "version: 1\nrules:\n  - {id: F, kind: max_files, limit: 5}\n"
    repo.write(".github/blast-radius.yml", rubric)
    base = repo.commit("base")
    repo.write("a.txt", "a\n")
    head = repo.commit("head")
    read_end, write_end = os.pipe()
    argv = [*GATE, "check", "--base", base, "--head", head, "--output", f"/dev/fd/{write_end}"]
    with subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, pass_fds=(write_end,)) as run:
        os.close(write_end)
        report = _read_all(read_end)
        os.close(read_end)
        printed = run.communicate()[0].decode()
    assert run.returncode == 0
    assert json.loads(report)["pass"] is True
    assert printed.startswith("PASS: all 3 rules")


@pytest.mark.parametrize(
    ("name", "descriptor"),
    [
        ("/dev/stdout", 1),
        ("/dev/stderr", 2),
        ("/dev/fd/7", 7),
        ("/proc/self/fd/12", 12),
        ("/dev/./stdout", 1),
        ("dev/stdout", None),  # relative: a file a change may have planted
        ("/dev/stdout2", None),
        ("/proc/1/fd/1", None),
    ],
)
def test_the_system_names_of_a_descriptor(name: str, descriptor: int | None) -> None:
    assert files._descriptor(name) == descriptor
