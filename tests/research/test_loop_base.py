"""`gate loop run` runs the test command on the base first, and records the
commands it ran: a test command that cannot start, or that fails the same
way on the base and in every attempt, stops the run (exit 2); a rerun with
other commands is refused as one with another base.  Real git worktrees,
real `sh -c`, writers that are shell commands.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from lab_fixture import build_lab, make_patch
from loop_fixture import HONEST, RED, TEST_COMMAND

from gate.commands.cli import main
from gate.research.loop import read_records
from gate.research.loop.run import fingerprint


@pytest.fixture
def lab(repo, tmp_path: Path):  # type: ignore[no-untyped-def]
    build_lab(repo)
    (tmp_path / "honest.patch").write_bytes(make_patch(repo, HONEST))
    (tmp_path / "red.patch").write_bytes(make_patch(repo, RED))
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "strict.txt").write_text("Fix clamp().\n")
    return repo


def _run(lab, tmp_path: Path, test_cmd: str, *writers: str, results: str = "r.jsonl") -> list[str]:  # type: ignore[no-untyped-def]
    argv = ["loop", "run", "--repo", str(lab.root), "--prompts", str(tmp_path / "prompts")]
    for writer in writers or (f"w=cat {tmp_path / 'honest.patch'}",):
        argv += ["--writer", writer]
    return [*argv, "--test-cmd", test_cmd, "--results", str(tmp_path / results)]


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("gate: error: ")]
    assert len(lines) == 1, err
    return lines[0]


# -- a test command that cannot start --------------------------------------------


@pytest.mark.parametrize(
    ("command", "code", "setup"),
    [
        ("no-such-runner-xyz -q", 127, None),
        ("./run-tests.sh", 126, "not executable"),  # committed without its x bit
        ("tools/ci/run-tests", 127, None),  # a path, in a nested folder that is not there
        ("cd . && NO_SUCH=1 no-such-runner-xyz", 127, None),  # behind a cd and a variable
        ("PYTEST_ADDOPTS=-q ./run-tests.sh", 126, "not executable"),
    ],
)
def test_a_test_command_that_cannot_start_stops_before_any_attempt(
    lab, tmp_path: Path, capsys, command: str, code: int, setup: str | None
) -> None:  # type: ignore[no-untyped-def]
    if setup:
        lab.write("run-tests.sh", "#!/bin/sh\nexit 0\n")
        lab.commit("a test script, not executable")
    log = tmp_path / "writer.log"
    writer = f"w=echo ran >> {log}; cat {tmp_path / 'honest.patch'}"
    assert main(_run(lab, tmp_path, command, writer)) == 2
    error = _error(capsys)
    assert f"the test command cannot start in a worktree of the base (exit {code}" in error
    assert "fix --test-cmd" in error
    assert not log.exists()  # no writer ran
    assert read_records(str(tmp_path / "r.jsonl")) == []
    assert lab.git("worktree", "list", "--porcelain").count("worktree ") == 1


def test_a_command_present_in_the_caller_folder_only_cannot_start(
    lab, tmp_path: Path, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """The tests run in a worktree of the base, not where the gate was started."""
    script = tmp_path / "local-tests.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    assert main(_run(lab, tmp_path, "./local-tests.sh")) == 2
    assert "(exit 127" in _error(capsys)


# -- the same failure on the base and in every attempt ---------------------------

# Every run prints its own folder and a different duration, then fails.
CHATTY_FAILURE = (
    f"{sys.executable} -c \"import os, time; print(os.getcwd(), os.environ['HOME'], "
    "'failed in %.6fs' % (time.time() % 7)); raise SystemExit(1)\""
)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(f"{TEST_COMMAND.replace('test_clamp.py', 'tests/test_clamp.py')}", id="path"),
        pytest.param("exit 5", id="silent"),
        pytest.param(CHATTY_FAILURE, id="folders-and-durations"),
        pytest.param(f"{sys.executable} -m no_such_module_xyz", id="missing-module"),
    ],
)
def test_every_attempt_failing_as_the_base_does_stops_the_run(
    lab, tmp_path: Path, capsys, command: str
) -> None:  # type: ignore[no-untyped-def]
    writers = [f"w=cat {tmp_path / 'honest.patch'}", f"v=cat {tmp_path / 'red.patch'}"]
    assert main(_run(lab, tmp_path, command, *writers)) == 2
    error = _error(capsys)
    assert "failed the same way on the base and in all 2 attempts whose tests ran" in error
    assert "check that --test-cmd runs the tests" in error
    records = read_records(str(tmp_path / "r.jsonl"))
    assert len(records) == 2 and len({r.tests_fingerprint for r in records}) == 1


@pytest.mark.parametrize(
    ("command", "writers"),
    [
        # The real suite: red on the base (test_high_edge), green with the fix.
        (TEST_COMMAND, ("honest.patch",)),
        # Red everywhere, but the red attempt fails another test than the base.
        (TEST_COMMAND, ("red.patch",)),
        # Green on the base: nothing to compare, whatever the attempts do.
        ("grep -q 'hi - 1)' clamp_kit.py && exit 0; exit 1", ("honest.patch", "red.patch")),
        # The same output, another exit status.
        ("grep -q 'hi - 1)' clamp_kit.py && exit 1; exit 2", ("honest.patch",)),
        # The same exit status, other output (one character).
        ("grep -c 'hi - 1)' clamp_kit.py; exit 1", ("honest.patch",)),
    ],
)
def test_a_failure_that_differs_from_the_base_is_a_result(
    lab, tmp_path: Path, capsys, command: str, writers: tuple[str, ...]
) -> None:  # type: ignore[no-untyped-def]
    argv = [f"w{i}=cat {tmp_path / name}" for i, name in enumerate(writers)]
    assert main(_run(lab, tmp_path, command, *argv)) in (0, 1)
    assert "gate: error" not in capsys.readouterr().err


def test_attempts_whose_tests_never_ran_do_not_stop_the_run(lab, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Every attempt infrastructure (nothing printed): no test run to compare."""
    assert main(_run(lab, tmp_path, "exit 1", "w=true")) == 1
    assert "gate: error" not in capsys.readouterr().err


def test_the_fingerprint_masks_folders_and_durations_only(tmp_path: Path) -> None:
    folder = tmp_path / "gate-loop-x"
    folder.mkdir()
    link = tmp_path / "link"
    link.symlink_to(folder)
    a = f"{folder}/worktree/test_a.py F\n1 failed in 0.03s\nEXIT=1\n"
    b = "<run>/worktree/test_a.py F\n1 failed in 12.5s\nEXIT=1\n"
    assert fingerprint(a, str(folder)) == fingerprint(b, "/elsewhere")
    assert fingerprint(a.replace(str(folder), str(link)), str(link)) == fingerprint(b, "/x")
    for other in (
        a.replace("EXIT=1", "EXIT=2"),
        a.replace("1 failed", "2 failed"),
        a.replace("test_a.py", "test_b.py"),
        a + "\n",
    ):
        assert fingerprint(other, str(folder)) != fingerprint(a, str(folder)), other


# -- the commands recorded; a resume with other commands refused -----------------


def test_the_results_record_the_commands_and_a_resume_with_others_is_refused(
    lab, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    honest = f"cat {tmp_path / 'honest.patch'}"
    first = _run(lab, tmp_path, TEST_COMMAND, f"w={honest}")
    assert main(first) == 0
    path = tmp_path / "r.jsonl"
    (line,) = path.read_text().splitlines()
    data = json.loads(line)
    assert data["test_command"] == TEST_COMMAND and data["writer_command"] == honest
    assert data["tests"]["fingerprint"] == read_records(str(path))[0].tests_fingerprint
    before = path.read_bytes()

    refused = {
        "another test command": _run(lab, tmp_path, TEST_COMMAND + " -x", f"w={honest}"),
        "the test command respaced": _run(lab, tmp_path, TEST_COMMAND + " ", f"w={honest}"),
        "another writer command": _run(lab, tmp_path, TEST_COMMAND, f"w={honest} "),
    }
    for why, argv in refused.items():
        capsys.readouterr()
        assert main(argv) == 2, why
        error = _error(capsys)
        assert "not this run's" in error and "pass a new --results file" in error, why
        assert path.read_bytes() == before, why

    # The same commands resume; a writer added to the run runs its own attempts.
    capsys.readouterr()
    log = tmp_path / "log"
    added = f"v=echo ran >> {log}; cat {tmp_path / 'red.patch'}"
    assert main(_run(lab, tmp_path, TEST_COMMAND, f"w={honest}", added)) == 1
    assert log.read_text() == "ran\n"
    assert [r.writer for r in read_records(str(path))] == ["w", "v"]


def test_a_results_file_without_commands_is_read_but_not_resumed(
    lab, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    honest = f"cat {tmp_path / 'honest.patch'}"
    assert main(_run(lab, tmp_path, TEST_COMMAND, f"w={honest}")) == 0
    path = tmp_path / "r.jsonl"
    data = json.loads(path.read_text())
    for key in ("test_command", "writer_command"):
        del data[key]
    del data["tests"]["fingerprint"]
    path.write_text(json.dumps(data) + "\n")
    assert main(["loop", "report", str(path)]) == 0
    capsys.readouterr()
    assert main(_run(lab, tmp_path, TEST_COMMAND, f"w={honest}")) == 2
    assert "whose commands were not recorded" in _error(capsys)


def test_merge_and_report_refuse_lines_of_two_test_commands(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from gate.research.loop import Attempt

    def line(n: int, test: str) -> str:
        return Attempt(
            "w", "p", n, "b" * 40, "c" * 64, "pass", True, test_command=test, writer_command="x"
        ).line()

    (tmp_path / "a").write_text(line(1, "pytest"))
    (tmp_path / "b").write_text(line(2, "pytest tests"))
    out = str(tmp_path / "m.jsonl")
    assert main(["loop", "merge", str(tmp_path / "a"), str(tmp_path / "b"), "--results", out]) == 2
    assert "ran different test commands" in _error(capsys)
    assert not os.path.exists(out)
    (tmp_path / "both").write_text(line(1, "pytest") + line(2, "pytest tests"))
    assert main(["loop", "report", str(tmp_path / "both")]) == 2
    assert "ran different test commands" in _error(capsys)


def test_report_and_merge_exit_0_once_written_even_with_unjudged_attempts(
    tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """`loop report` and `loop merge` write a scoreboard, not a verdict: exit 0
    with failing attempts; an attempt the gate could not judge is named on
    stderr (it is `loop run` that exits 2 for it)."""
    from gate.research.loop import Attempt

    def line(n: int, bucket: str, **kw: object) -> str:
        return Attempt(
            "w", "p", n, "b" * 40, "c" * 64, bucket, bucket != "infrastructure",
            test_command="t", writer_command="x", **kw,  # type: ignore[arg-type]
        ).line()  # fmt: skip

    results = tmp_path / "r.jsonl"
    results.write_text(
        line(1, "pass") + line(2, "thrash") + line(3, "infrastructure", judge_error=True)
    )
    html = tmp_path / "page.html"
    assert main(["loop", "report", "--html", str(html), str(results)]) == 0
    out, err = capsys.readouterr()
    assert "3 attempts" in out and html.read_text().startswith("<!DOCTYPE html>")
    assert err == "gate: could not judge 1 of 3 attempts (w/p/3); their records say why\n"
    merged = tmp_path / "m.jsonl"
    assert main(["loop", "merge", str(results), "--results", str(merged)]) == 0
    assert merged.read_bytes() == results.read_bytes()
    capsys.readouterr()
    assert main(["loop", "report", str(tmp_path / "missing.jsonl")]) == 2
