"""`gate loop`: the article's whole loop on the clamp lab, end to end.

Three replay writers x two prompts x three attempts, each in a real git
worktree with real pytest as the test command; buckets, Wilson intervals,
resume after an interrupt, shards merged, the HTML report parsed.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lab_fixture import build_lab
from loop_fixture import (
    ATTEMPTS,
    ROOT,
    TEST_COMMAND,
    expected_buckets,
    record,
    write_prompts,
    writer_args,
)

from gate.commands.cli import main
from gate.research.loop import Attempt, Commands, read_records
from gate.research.loop.scoreboard import scoreboard, wilson
from gate.starter import demo_fixture


def _run_argv(repo, tmp_path: Path, out: Path, *extra: str, log: Path | None = None) -> list[str]:  # type: ignore[no-untyped-def]
    return [
        "loop",
        "run",
        "--repo",
        str(repo.root),
        *writer_args(tmp_path / "recordings", log),
        "--prompts",
        str(tmp_path / "prompts"),
        "--attempts",
        str(ATTEMPTS),
        "--test-cmd",
        TEST_COMMAND,
        "--results",
        str(out),
        *extra,
    ]


@pytest.fixture
def lab(repo, tmp_path: Path):  # type: ignore[no-untyped-def]
    build_lab(repo)
    record(repo, tmp_path / "recordings")
    write_prompts(tmp_path / "prompts")
    return repo


def _board_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    main(["loop", "report", "--format", "json", str(path)])
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.pre: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if "pre" in self.stack:  # a diff's lines are spans inside its <pre>
            self.pre.append(data)


def test_the_whole_loop_on_the_clamp_lab(lab, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "results.jsonl"
    html = tmp_path / "report.html"
    status_before = lab.status()
    code = main([*_run_argv(lab, tmp_path, out, "--jobs", "2", "--html", str(html))])
    assert code == 1  # not every attempt passed
    records = read_records(str(out))
    assert {r.key: r.bucket for r in records} == expected_buckets()
    # Nothing leaked: the repository as it was, no worktree left registered.
    assert lab.status() == status_before
    assert lab.git("worktree", "list", "--porcelain").count("worktree ") == 1
    by_key = {r.key: r for r in records}
    assert by_key[("careful", "production", 2)].failed == ("LINES",)
    red = by_key[("careful", "production", 3)]
    assert red.tests_red and red.tests_exit == 1 and red.failed == ("GREEN",)
    assert "1 failed, 3 passed" in red.tests_captured and red.tests_captured.endswith("EXIT=1\n")
    assert by_key[("remote", "strict", 2)].error is not None
    assert "comes before the first file header" in str(by_key[("remote", "strict", 2)].error)
    assert "no recording" in str(by_key[("remote", "production", 3)].error)
    assert by_key[("remote", "production", 1)].applies  # edits in place, judged the same way

    board = _board_json(capsys, out)
    cells = {(c["writer"], c["prompt"]): c for c in board["cells"]}
    strict = cells[("careful", "strict")]["buckets"]["pass"]
    # Wilson 95% for 3 of 3, by hand: z = 1.96, z^2 = 3.8415; centre (1 + z^2/6) / (1 + z^2/3)
    # = 1.64025 / 2.28049 = 0.71925, half-width z*sqrt(z^2/36) / 2.28049 = 0.28075.
    assert strict == {"count": 3, "of": 3, "rate": 1.0, "low": 0.438503, "high": 1.0}
    one_of_three = cells[("careful", "production")]["buckets"]["over-budget"]
    assert one_of_three["count"] == 1 and one_of_three["of"] == 3
    assert one_of_three["low"] == pytest.approx(0.0615, abs=1e-4)
    assert one_of_three["high"] == pytest.approx(0.7923, abs=1e-4)
    # Rule rates are of the judged attempts only: remote/strict had one.
    remote_rules = cells[("remote", "strict")]["rules"]
    assert remote_rules["GREEN"]["of"] == 1 and cells[("remote", "strict")]["judged"] == 1
    assert cells[("tidy", "production")]["rules"]["tests red"]["count"] == 2
    assert board["totals"] == {
        "pass": 7,
        "thrash": 3,
        "rename": 2,
        "over-budget": 1,
        "kitchen-mop": 2,
        "infrastructure": 3,
    }

    # The picture: parsed, not just written.
    parser = _Tags()
    parser.feed(html.read_text(encoding="utf-8"))
    tags = {t for t, _ in parser.tags}
    assert "script" not in tags and "link" not in tags and "img" not in tags
    bars = [a for t, a in parser.tags if t == "rect" and a.get("class") == "bucket"]
    drawn = {}
    for row in (a for t, a in parser.tags if t == "tr" and a.get("class") == "cell"):
        drawn[(row["data-writer"], row["data-prompt"])] = True
    assert set(drawn) == set(cells)
    assert sum(int(str(a["data-count"])) for a in bars) == 18
    assert sum(1 for t, a in parser.tags if t == "details" and a.get("class") == "attempt") == 18
    assert any("_noisy_helper(hi)" in text for text in parser.pre)  # a diff, one click away
    matrix = [a for t, a in parser.tags if t == "td" and "rule" in str(a.get("class")).split()]
    assert {str(a["data-rule"]) for a in matrix} >= {"LINES", "NAMES", "GREEN", "tests red"}
    assert len(matrix) == len(cells) * len(cells[("careful", "strict")]["rules"])
    # Each failed rule's message beside its id, from the real judge.
    lines = by_key[("careful", "production", 2)].messages
    assert [rule for rule, _ in lines] == ["LINES"] and lines[0][1]
    assert html.read_text(encoding="utf-8").count(lines[0][1].split(";")[0]) >= 1

    capsys.readouterr()
    # A report is a scoreboard written, not a verdict: exit 0 (`loop run` gave 1).
    assert main(["loop", "report", "--format", "markdown", str(out)]) == 0
    markdown = capsys.readouterr().out
    assert "| `careful` | `strict` | 3 | 3/3 100% [44%-100%]" in markdown


def test_interrupted_shards_resume_and_merge_to_the_same_scoreboard(
    lab, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """Shard 1/2 is interrupted (SIGINT) after two attempts and rerun; no
    finished attempt runs twice; shard 2/2 runs; the merge is the scoreboard
    of the whole plan, as one uninterrupted run gives it."""
    log = tmp_path / "invocations.txt"
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    argv = [*_run_argv(lab, tmp_path, a, "--shard", "1/2", log=log)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gate", *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # Ctrl-C as in a terminal, even where this test runs as a job that a
        # shell without job control started with `&` (SIGINT ignored, inherited)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while not a.exists() or a.read_bytes().count(b"\n") < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    first = {r.key for r in read_records(str(a))}
    assert 2 <= len(first) < 9
    assert lab.git("worktree", "list", "--porcelain").count("worktree ") == 1
    log.write_text("")

    assert main(argv) == 1
    rerun = {tuple(line.split()) for line in log.read_text().splitlines()}
    rerun_keys = {(w, p, int(n)) for w, p, n in rerun}
    assert not rerun_keys & first  # no finished attempt ran twice
    assert rerun_keys | first == {r.key for r in read_records(str(a))}
    assert main([*_run_argv(lab, tmp_path, b, "--shard", "2/2", log=log)]) == 1
    merged = tmp_path / "merged.jsonl"
    assert main(["loop", "merge", str(a), str(b), "--results", str(merged)]) == 0
    records = read_records(str(merged))
    assert {r.key: r.bucket for r in records} == expected_buckets()
    whole = scoreboard(records).to_dict()
    assert _board_json(capsys, merged) == json.loads(json.dumps(whole))
    # A rerun of a finished file runs nothing.
    log.write_text("")
    assert main(argv) == 1
    assert log.read_text() == ""
    # Shards run with another writer command are another experiment: refused.
    other = tmp_path / "other.jsonl"
    assert main([*_run_argv(lab, tmp_path, other, "--shard", "2/2")]) == 1
    capsys.readouterr()
    assert main(["loop", "merge", str(a), str(other), "--results", str(merged)]) == 2
    assert "ran different commands" in capsys.readouterr().err


def test_merge_refuses_mixed_judges_and_shared_attempts(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    def line(**kw: object) -> str:
        fields = {"writer": "w", "prompt": "p", "attempt": 1, "base": "b" * 40}
        fields.update(kw)
        return Attempt(
            rubric_sha256=str(fields.pop("sha", "c" * 64)),
            bucket="pass",
            applies=True,
            **fields,  # type: ignore[arg-type]
        ).line()

    (tmp_path / "a").write_text(line())
    (tmp_path / "b").write_text(line(attempt=2, sha="d" * 64))
    (tmp_path / "c").write_text(line(attempt=1))
    out = str(tmp_path / "out")
    assert main(["loop", "merge", str(tmp_path / "a"), str(tmp_path / "b"), "--results", out]) == 2
    assert "different bases or rubrics" in capsys.readouterr().err
    assert main(["loop", "merge", str(tmp_path / "a"), str(tmp_path / "c"), "--results", out]) == 2
    assert "in both" in capsys.readouterr().err
    assert not os.path.exists(out)


def _attempts(writer: str, passed: int, failed: int) -> list[Attempt]:
    return [
        Attempt(
            writer=writer,
            prompt="p",
            attempt=i + 1,
            base="b" * 40,
            rubric_sha256="c" * 64,
            bucket="pass" if i < passed else "kitchen-mop",
            applies=True,
            failed=() if i < passed else ("BAIT",),
            rules=("BAIT",),
        )
        for i in range(passed + failed)
    ]


def test_gate_diff_says_which_rates_moved_beyond_their_intervals(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    def board(name: str, passed: int, failed: int) -> str:
        path = tmp_path / name
        path.write_text(json.dumps(scoreboard(_attempts("w", passed, failed)).to_dict()))
        return str(path)

    before, after, close = board("a", 18, 2), board("b", 2, 18), board("c", 16, 4)
    assert main(["diff", before, close]) == 0  # 90% vs 80% of 20: intervals overlap
    assert "AGREE" in capsys.readouterr().out
    assert main(["diff", "--format", "json", before, after]) == 1
    data = json.loads(capsys.readouterr().out)
    moved = {(m["what"], m["name"], m["direction"]) for m in data["moved"]}
    assert moved == {
        ("bucket", "pass", "down"),
        ("bucket", "kitchen-mop", "up"),
        ("rule", "BAIT", "up"),
    }
    # A scoreboard against a verdict report: exit 2, not a comparison.
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"pass": True, "results": []}))
    assert main(["diff", before, str(report)]) == 2
    assert "is a loop scoreboard and the other is not" in capsys.readouterr().err


@given(st.integers(0, 60), st.integers(0, 60))
def test_wilson_interval_holds_the_rate_inside_zero_one(k: int, extra: int) -> None:
    n = k + extra
    low, high = wilson(k, n)
    assert 0.0 <= low <= high <= 1.0
    if n:
        assert low <= k / n <= high
        # z-score of each bound is 1.96 (the interval's definition)
        for bound in (low, high):
            if 0 < bound < 1:
                z = abs(k / n - bound) / ((bound * (1 - bound) / n) ** 0.5)
                assert z == pytest.approx(1.959964, rel=1e-6)


HOSTILE = st.lists(
    st.sampled_from(
        [
            *"<>&\"'/ =abcs\n\t@`|\u2028",
            *("<script>", "</pre>", "<img onerror=x>", "</span>", "</td>", "<style>"),
            *("\n+", "\n-", "\n@@", "\n+++ "),
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=60, deadline=None)
@given(diff=HOSTILE, output=HOSTILE, error=HOSTILE)
def test_html_report_makes_writer_text_inert(diff: str, output: str, error: str) -> None:
    """Whatever a writer prints, the page has only the report's own tags and
    every <pre> shows the text (escaped) rather than running it."""
    from gate.research.loop.html import to_html

    record = Attempt(
        writer="w",
        prompt="p",
        attempt=1,
        base="b" * 40,
        rubric_sha256="c" * 64,
        bucket="kitchen-mop",
        applies=True,
        failed=("R",),
        rules=("R",),
        messages=(("R", error),),
        error=error,
        tests_ran=True,
        tests_captured=output,
        diff=diff,
    )
    parser = _Tags()
    parser.feed(to_html(scoreboard([record])))
    allowed = {
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "span",
        "code", "table", "tr", "th", "td", "svg", "rect", "line", "details", "summary", "pre",
        "text", "small", "br",
    }  # fmt: skip
    assert {t for t, _ in parser.tags} <= allowed
    assert all(not k.startswith("on") for _, attrs in parser.tags for k in attrs)
    assert sum(1 for t, _ in parser.tags if t == "pre") == 2


def test_writers_and_tests_get_a_clean_environment(
    lab, tmp_path: Path, monkeypatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("API_KEY", "passed-on-purpose")
    spy = tmp_path / "spy"
    spy.mkdir()
    writer = (
        f"env > {spy}/writer.env; cat > {spy}/stdin.txt; "
        f'cat "$GATE_PROMPT_FILE" > {spy}/file.txt; sleep 30 & '
        "echo '# edit' >> clamp_kit.py"
    )
    prompts = write_prompts(tmp_path / "prompts")
    for extra in prompts.iterdir():
        if extra.stem != "strict":
            extra.unlink()
    code = main(
        [
            "loop", "run", "--repo", str(lab.root), "--writer", f"spy={writer}",
            "--prompts", str(prompts),
            # red (3) in the attempt, green on the base (no "# edit" there)
            "--test-cmd", f"env > {spy}/tests.env; grep -q '# edit' clamp_kit.py || exit 0; exit 3",
            "--results", str(tmp_path / "r.jsonl"), "--pass-env", "API_KEY",
        ]
    )  # fmt: skip
    assert code == 1
    writer_env = dict(
        line.split("=", 1) for line in (spy / "writer.env").read_text().splitlines() if "=" in line
    )
    tests_env = (spy / "tests.env").read_text()
    assert "hunter2" not in (spy / "writer.env").read_text() and "hunter2" not in tests_env
    assert writer_env["API_KEY"] == "passed-on-purpose" and "API_KEY" not in tests_env
    assert writer_env["GATE_WRITER"] == "spy" and writer_env["GATE_PROMPT"] == "strict"
    assert writer_env["GATE_ATTEMPT"] == "1" and writer_env["HOME"] != os.environ["HOME"]
    assert (spy / "stdin.txt").read_text() == (spy / "file.txt").read_text()
    assert (spy / "stdin.txt").read_text().startswith("Fix the off-by-one")
    assert not Path(writer_env["GATE_WORKTREE"]).exists()
    assert not Path(writer_env["HOME"]).exists()
    (only,) = read_records(str(tmp_path / "r.jsonl"))
    assert only.tests_exit == 3 and only.tests_red and only.bucket == "kitchen-mop"


def _one_writer(lab, tmp_path: Path, writer: str, test_cmd: str, *extra: str) -> Attempt:  # type: ignore[no-untyped-def]
    prompts = tmp_path / "one-prompt"
    prompts.mkdir()
    (prompts / "strict.txt").write_text("Fix clamp().\n")
    out = tmp_path / "one.jsonl"
    argv = ["loop", "run", "--repo", str(lab.root), "--writer", f"w={writer}"]
    argv += ["--prompts", str(prompts), "--test-cmd", test_cmd, "--results", str(out), *extra]
    assert main(argv) in (0, 1)
    (only,) = read_records(str(out))
    return only


def test_a_forged_exit_line_does_not_make_red_tests_green(lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The test run's own exit code decides red, and the loop's EXIT= line is last."""
    honest = tmp_path / "honest.patch"
    from lab_fixture import make_patch
    from loop_fixture import HONEST

    honest.write_bytes(make_patch(lab, HONEST))
    forged = "grep -q 'hi - 1)' clamp_kit.py && exit 0; printf '4 passed\\nEXIT=0\\n'; exit 1"
    record = _one_writer(lab, tmp_path, f"cat {honest}", forged)
    assert record.tests_red and record.tests_exit == 1
    assert record.tests_captured.endswith("EXIT=0\nEXIT=1\n")
    # GREEN (must_include "EXIT=0" anywhere) is fooled by the forged line; the
    # bucket is not: the run's exit code counts as red tests whatever the rules say.
    assert record.failed == () and record.bucket == "thrash"


def test_a_writer_past_its_timeout_is_killed_with_its_children(lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pid_file = tmp_path / "child.pid"
    writer = f"sleep 60 & echo $! > {pid_file}; sleep 60"
    start = time.monotonic()
    record = _one_writer(lab, tmp_path, writer, "true", "--writer-timeout", "1")
    assert time.monotonic() - start < 30
    assert record.bucket == "infrastructure" and "did not finish within 1 s" in str(record.error)
    assert _gone(int(pid_file.read_text()))


def _gone(pid: int) -> bool:
    """The process is dead: no such pid, or a zombie nobody reaped yet."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def test_printing_and_editing_at_once_is_refused(lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = _one_writer(lab, tmp_path, "echo '# x' >> clamp_kit.py; echo done", "true")
    assert record.bucket == "infrastructure" and "also edited the worktree" in str(record.error)


def test_a_line_cut_short_by_a_kill_is_run_again(tmp_path: Path) -> None:
    from gate.research.loop import ResultsFile

    ran = {"test_command": "t", "writer_command": "x"}
    done = Attempt("w", "p", 1, "b" * 40, "c" * 64, "pass", True, **ran).line()  # type: ignore[arg-type]
    cut = Attempt("w", "p", 2, "b" * 40, "c" * 64, "pass", True, **ran).line()[:40]  # type: ignore[arg-type]
    path = tmp_path / "r.jsonl"
    path.write_text(done + cut)
    assert [r.key for r in read_records(str(path))] == [("w", "p", 1)]
    commands = Commands("t", {"w": "x"})
    with ResultsFile(str(path), "b" * 40, "c" * 64, commands) as results:
        assert set(results.done) == {("w", "p", 1)}
    assert path.read_text() == done
    with pytest.raises(Exception, match="not this run's base"):
        ResultsFile(str(path), "e" * 40, "c" * 64, commands)


def _report(failed: tuple[str, ...]):  # type: ignore[no-untyped-def]
    from gate.model.change import Stats
    from gate.model.report import Report

    return Report(
        passed=not failed,
        failed=failed,
        rule_count=7,
        rubric_sha256=None,
        base=None,
        head=None,
        stats=Stats(1, 1, 1),
        results=(),
    )


@functools.cache
def _lab_rubric():  # type: ignore[no-untyped-def]
    from lab_fixture import LAB_RUBRIC

    from gate.rubric.load import load_rubric_bytes

    return load_rubric_bytes(LAB_RUBRIC.encode(), "lab.yml")


@given(st.sets(st.sampled_from(["FILES", "LINES", "NAMES", "BAIT", "TESTS", "SCOPE", "GREEN"])))
def test_a_red_test_run_never_passes_and_adds_only_the_tests_part(failed: set[str]) -> None:
    from gate.research.lab import bucket_for

    rubric = _lab_rubric()
    order = tuple(r.id for r in rubric.rules if r.id in failed)
    red = bucket_for(_report(order), rubric, tests_red=True)
    assert red != "pass"
    with_green = order if "GREEN" in order else (*order, "GREEN")
    assert red == bucket_for(_report(with_green), rubric)  # a red run is a failed tests part
    if not order:
        assert bucket_for(_report(order), rubric) == "pass"


def test_a_writer_that_removes_dot_git_cannot_redirect_the_loops_git(  # type: ignore[no-untyped-def]
    lab, make_repo, tmp_path: Path, monkeypatch
) -> None:
    """The worktrees live in a folder inside another repository; a writer
    deletes its worktree's `.git`.  The loop's git calls stay pinned to the
    worktree's own git directory: the outer repository is not staged into."""
    import tempfile

    outer = make_repo("outer")
    outer.write("keep.txt", "outer\n")
    outer.commit("outer")
    (outer.root / "untracked.txt").write_text("not yours\n")
    monkeypatch.setattr(tempfile, "tempdir", str(outer.root))
    before = outer.status()
    record = _one_writer(lab, tmp_path, "rm .git && echo '# edit' >> clamp_kit.py", "true")
    assert record.applies and "+# edit" in record.diff and "untracked.txt" not in record.diff
    assert outer.status() == before
    assert outer.git("diff", "--cached", "--name-only") == ""


def test_writers_file_and_plain_names(lab, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    prompts = write_prompts(tmp_path / "prompts")
    writers = tmp_path / "writers.yml"
    writers.write_text("noop: 'true'\n")
    base = ["loop", "run", "--repo", str(lab.root), "--prompts", str(prompts), "--test-cmd", "true"]
    assert main([*base, "--writers", str(writers), "--results", str(tmp_path / "a.jsonl")]) == 1
    records = read_records(str(tmp_path / "a.jsonl"))
    assert {(r.writer, r.prompt) for r in records} == {("noop", "strict"), ("noop", "production")}
    assert all("no change" in str(r.error) for r in records)
    for bad in ("../x=true", "<b>=true", "x"):
        assert main([*base, "--writer", bad, "--results", str(tmp_path / "b.jsonl")]) == 2
        assert "gate: error:" in capsys.readouterr().err
    writers.write_text("noop: 'true'\nnoop2: [1]\n")
    assert main([*base, "--writers", str(writers), "--results", str(tmp_path / "c.jsonl")]) == 2
    assert "has no command" in capsys.readouterr().err


@given(
    st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=4, unique=True),
    st.lists(st.sampled_from(["p", "q", "r"]), min_size=1, max_size=3, unique=True),
    st.integers(1, 5),
    st.integers(1, 7),
)
def test_shards_are_every_attempt_once_whatever_the_order(  # type: ignore[no-untyped-def]
    writers, prompts, attempts, count
) -> None:
    from gate.research.loop import all_keys, in_shard

    keys = all_keys(writers, prompts, attempts)
    shards = [in_shard(list(reversed(keys)), (i, count)) for i in range(1, count + 1)]
    flat = [k for shard in shards for k in shard]
    assert sorted(flat) == sorted(keys) and len(flat) == len(set(flat))
    assert max(map(len, shards)) - min(map(len, shards)) <= 1  # balanced
    assert shards == [in_shard(keys, (i, count)) for i in range(1, count + 1)]


@pytest.mark.parametrize("bad", ["0/2", "3/2", "1", "1/0", "a/b", "1/2/3", " 1/2"])
def test_a_bad_shard_is_refused(bad: str) -> None:
    from gate.base.errors import GateError
    from gate.research.loop import parse_shard

    with pytest.raises(GateError, match="--shard"):
        parse_shard(bad)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("cells"),
        lambda d: d["cells"].append("x"),
        lambda d: d["cells"][0]["buckets"]["pass"].update(low=1.5),
        lambda d: d["cells"][0]["buckets"]["pass"].update(high="1"),
        lambda d: d["cells"][0]["buckets"]["pass"].update(count=True),
        lambda d: d["cells"][0].pop("rules"),
        lambda d: d["cells"].append(dict(d["cells"][0])),
    ],
)
def test_a_broken_scoreboard_is_refused_not_compared(tmp_path: Path, capsys, change) -> None:  # type: ignore[no-untyped-def]
    data = scoreboard(_attempts("w", 3, 1)).to_dict()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data))
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["diff", str(good), str(bad)]) == 2
    assert "gate: error:" in capsys.readouterr().err


# clamp() broken at the low edge, which test_low_edge catches
_BROKEN_LOW = demo_fixture.HONEST_FIX.replace("_noisy_helper(lo)", "_noisy_helper(lo + 1)")


@pytest.mark.parametrize(
    ("files", "normal_red", "frozen_red"),
    [
        # broken, and the failing test deleted: green, unless the tests are frozen
        (
            {
                "clamp_kit.py": _BROKEN_LOW,
                "test_clamp.py": demo_fixture.TEST_CLAMP.replace(
                    "def test_low_edge():\n    assert clamp(-1, 0, 10) == 0\n", ""
                ),
            },
            False,
            True,
        ),
        # broken, and a new conftest skips every test
        (
            {
                "clamp_kit.py": _BROKEN_LOW,
                "conftest.py": (
                    "import pytest\n\n\ndef pytest_collection_modifyitems(items):\n"
                    "    for item in items:\n        item.add_marker(pytest.mark.skip)\n"
                ),
            },
            False,
            True,
        ),
        # the honest fix, with a new test beside it: green either way
        (
            {
                "clamp_kit.py": demo_fixture.HONEST_FIX,
                "test_more.py": "from clamp_kit import clamp\n\n\ndef test_one():\n"
                "    assert clamp(1, 0, 2) == 1\n",
            },
            False,
            False,
        ),
    ],
    ids=["deleted-test", "skipping-conftest", "honest-fix"],
)
def test_frozen_tests_score_a_bent_test_red(  # type: ignore[no-untyped-def]
    lab, tmp_path: Path, files: dict[str, str], normal_red: bool, frozen_red: bool
) -> None:
    """`gate loop run --frozen-tests`: each attempt's tests run with the base's
    test files and runner configuration, so a writer that bends a test
    (deletes it, or skips it from a new conftest.py) scores red, not green."""
    from lab_fixture import make_patch

    patch = tmp_path / "writer.patch"
    patch.write_bytes(make_patch(lab, files))
    command = f"PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {sys.executable} -m pytest -q -p no:cacheprovider"
    (tmp_path / "normal").mkdir()
    (tmp_path / "frozen").mkdir()
    normal = _one_writer(lab, tmp_path / "normal", f"cat {patch}", command)
    assert normal.tests_red is normal_red and not normal.tests_frozen
    frozen = _one_writer(lab, tmp_path / "frozen", f"cat {patch}", command, "--frozen-tests")
    assert frozen.tests_red is frozen_red and frozen.tests_frozen
