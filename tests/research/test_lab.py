"""`gate lab`: the scoreboard over writer patches, judged independently."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from lab_fixture import EXPECTED_BUCKETS, build_lab, make_patch, write_patches

from gate.base.names import DEFAULT_RUBRIC_PATH
from gate.commands.cli import main
from gate.git.repo import Repo
from gate.research import lab
from gate.research.lab import judge_patch
from gate.rubric.load import load_rubric_bytes
from gate.starter import demo_fixture


def _lab_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["lab", "--format", "json", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_scoreboard_covers_every_bucket(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    patches = write_patches(repo, tmp_path / "out")
    before = repo.status()
    code, data = _lab_json(capsys, "--repo", str(repo.root), *patches)
    assert code == 1
    got = {Path(p["patch"]).name: p["bucket"] for p in data["patches"]}
    assert got == EXPECTED_BUCKETS
    by_name = {Path(p["patch"]).name: p for p in data["patches"]}
    assert by_name["honest.patch"]["failed"] == []
    assert "NAMES" in by_name["renamed.patch"]["failed"]
    assert "GREEN" in by_name["rewrite.patch"]["failed"]
    assert "LINES" in by_name["rewrite.patch"]["failed"]
    assert by_name["test-edit.patch"]["failed"] == ["FILES", "TESTS"]
    assert by_name["honest-but-red.patch"]["failed"] == ["GREEN"]
    for name in ("fenced.patch", "truncated.patch", "wrong-base.patch"):
        assert by_name[name]["applies"] is False
        assert by_name[name]["error"]
    assert "fenced.patch:1: " in by_name["fenced.patch"]["error"]
    assert data["buckets"] == {
        "pass": 1,
        "thrash": 2,
        "rename": 1,
        "kitchen-mop": 2,
        "infrastructure": 3,
    }
    assert repo.status() == before


def test_text_scoreboard_names_buckets_and_counts(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    patches = write_patches(repo, tmp_path / "out")
    assert main(["lab", "--repo", str(repo.root), *patches]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["patch", "applies", "verdict", "failed", "bucket"]
    assert "buckets: pass 1, thrash 2, rename 1, kitchen-mop 2, infrastructure 3" in out


def test_all_pass_exits_zero(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo, demo_fixture.RUBRIC)
    patch = tmp_path / "honest.patch"
    patch.write_bytes(make_patch(repo, {"clamp_kit.py": demo_fixture.HONEST_FIX}))
    code, data = _lab_json(capsys, "--repo", str(repo.root), str(patch))
    assert code == 0
    assert data["buckets"]["pass"] == 1


def test_repeat_two_agrees_and_is_deterministic(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    patches = write_patches(repo, tmp_path / "out")
    code, first = _lab_json(capsys, "--repo", str(repo.root), "--repeat", "2", *patches)
    assert code == 1
    assert first["repeat"] == 2
    assert first["disagreements"] == []
    assert not any(p["disagreement"] for p in first["patches"])
    main(["lab", "--format", "json", "--repo", str(repo.root), "--repeat", "2", *patches])
    second_bytes = capsys.readouterr().out
    assert json.loads(second_bytes) == first


def test_many_patches_leave_the_tree_untouched(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    patches = []
    for i in range(2, 42):
        variant = demo_fixture.CLAMP_KIT.replace("hi - 1", f"hi - {i}")
        path = tmp_path / f"p{i:02d}.patch"
        path.write_bytes(make_patch(repo, {"clamp_kit.py": variant}))
        patches.append(str(path))
    (repo.root / "untracked.txt").write_text("keep me\n")
    (repo.root / "clamp_kit.py").write_text(demo_fixture.CLAMP_KIT + "# local edit\n")
    status_before = repo.status()  # may refresh the index: read it after
    index_before = (repo.root / ".git" / "index").read_bytes()
    code, data = _lab_json(capsys, "--repo", str(repo.root), "--jobs", "2", *patches)
    assert len(data["patches"]) == 40
    assert [Path(p["patch"]).name for p in data["patches"]] == [Path(p).name for p in patches]
    assert (repo.root / ".git" / "index").read_bytes() == index_before
    assert repo.status() == status_before
    assert (repo.root / "clamp_kit.py").read_text() == demo_fixture.CLAMP_KIT + "# local edit\n"
    assert all(p["applies"] for p in data["patches"])
    assert code == 1  # no captured stdout: GREEN fails for every patch


def test_stdout_dir_supplies_captured_output(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    patch = tmp_path / "p" / "honest.patch"
    patch.parent.mkdir()
    patch.write_bytes(make_patch(repo, {"clamp_kit.py": demo_fixture.HONEST_FIX}))
    outputs = tmp_path / "stdout"
    outputs.mkdir()
    (outputs / "honest.patch.stdout").write_text("EXIT=0\n")
    code, data = _lab_json(
        capsys, "--repo", str(repo.root), "--stdout-dir", str(outputs), str(patch)
    )
    assert code == 0, data
    code, data = _lab_json(capsys, "--repo", str(repo.root), str(patch))
    assert code == 1
    assert data["patches"][0]["failed"] == ["GREEN"]


def test_no_captured_output_is_said_not_silent(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """must_include without any captured output fails every patch: the lab says why."""
    build_lab(repo)
    patches = []
    for name, text in (
        ("honest", demo_fixture.HONEST_FIX),
        ("other", demo_fixture.CLAMP_KIT + "#\n"),
    ):
        patch = tmp_path / f"{name}.patch"
        patch.write_bytes(make_patch(repo, {"clamp_kit.py": text}))
        patches.append(str(patch))
    (tmp_path / "honest.patch.stdout").write_text("EXIT=0\n")
    assert main(["lab", "--format", "json", "--repo", str(repo.root), *patches]) == 1
    captured = capsys.readouterr()
    (note,) = json.loads(captured.out)["notes"]
    assert note.startswith("no test output was captured for 1 of 2 patches")
    assert "GREEN (must_include)" in note and "--stdout-dir" in note
    assert f"gate: note: {note}" in captured.err
    assert main(["lab", "--repo", str(repo.root), *patches]) == 1
    assert "note: no test output was captured" in capsys.readouterr().out
    # With output for every patch, or no must_include rule, there is nothing to say.
    (tmp_path / "other.patch.stdout").write_text("EXIT=1\n")
    assert main(["lab", "--format", "json", "--repo", str(repo.root), *patches]) == 1
    captured = capsys.readouterr()
    assert "notes" not in json.loads(captured.out) and "note:" not in captured.err


def test_missing_patch_file_is_its_own_row_and_exit_2(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    code = main(["lab", "--repo", str(repo.root), str(tmp_path / "nope.patch")])
    captured = capsys.readouterr()
    assert code == 2
    assert "nope.patch" in captured.err
    assert "does not exist" in captured.out  # the scoreboard row says why
    assert "Traceback" not in captured.err


def test_bad_repeat_is_refused(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    patch = tmp_path / "x.patch"
    patch.write_bytes(make_patch(repo, {"clamp_kit.py": demo_fixture.HONEST_FIX}))
    assert main(["lab", "--repo", str(repo.root), "--repeat", "0", str(patch)]) == 2
    assert "--repeat" in capsys.readouterr().err


def test_no_env_leak_into_git(repo, tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A GIT_INDEX_FILE in the caller's environment must not redirect the lab."""
    build_lab(repo)
    patch = tmp_path / "honest.patch"
    patch.write_bytes(make_patch(repo, {"clamp_kit.py": demo_fixture.HONEST_FIX}))
    (tmp_path / "honest.patch.stdout").write_text("EXIT=0\n")
    monkeypatch.setenv("GIT_INDEX_FILE", str(tmp_path / "foreign-index"))
    code, _ = _lab_json(capsys, "--repo", str(repo.root), str(patch))
    assert code == 0
    assert not os.path.exists(tmp_path / "foreign-index")


def _result_with(entries):  # type: ignore[no-untyped-def]
    from gate.research.lab import Scoreboard

    return Scoreboard(base="b" * 40, rubric_sha256="c" * 64, repeat=2, entries=tuple(entries))


def test_disagreement_is_flagged_in_every_format() -> None:
    """A judge that disagrees with itself on --repeat says so (rendering is pure)."""
    from gate.research.lab import LabEntry
    from gate.research.lab_report import to_markdown, to_text

    result = _result_with(
        [
            LabEntry(patch="a.patch", applies=True, bucket="pass", disagreement=True),
            LabEntry(patch="b|<b>.patch", applies=False, bucket="infrastructure", error="x"),
        ]
    )
    text = to_text(result)
    assert "pass (DISAGREES on repeat)" in text
    assert "DISAGREEMENT: the same patch got different verdicts: a.patch" in text
    markdown = to_markdown(result)
    assert "pass (disagrees)" in markdown
    assert "<b>" not in markdown  # patch names are escaped
    assert "| infrastructure | 1 |" in markdown
    assert result.to_dict()["disagreements"] == ["a.patch"]


def test_markdown_scoreboard(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    patches = write_patches(repo, tmp_path / "out")
    assert main(["lab", "--format", "markdown", "--repo", str(repo.root), *patches]) == 1
    out = capsys.readouterr().out
    assert out.startswith("| patch | applies | verdict | failed | bucket |")
    assert "| thrash | 2 |" in out


def test_progress_counter_ends_with_a_newline(capsys) -> None:  # type: ignore[no-untyped-def]
    from gate.commands.lab import _progress

    _progress(1, 2)
    _progress(2, 2)
    err = capsys.readouterr().err
    assert err == "\rjudged 1/2 patches\rjudged 2/2 patches\n"


def test_freeze_without_rubric_file_is_refused(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    assert main(["lab", "--repo", str(repo.root), "--freeze", "f.txt", "x.patch"]) == 2
    assert "--freeze goes with --rubric-file" in capsys.readouterr().err


def test_local_rubric_file_with_freeze(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    build_lab(repo)
    rubric = tmp_path / "rubric.yml"
    rubric.write_text(demo_fixture.RUBRIC)
    freeze = tmp_path / "freeze.txt"
    assert main(["freeze", str(rubric)]) == 0
    freeze.write_text(capsys.readouterr().out)
    patch = tmp_path / "honest.patch"
    patch.write_bytes(make_patch(repo, {"clamp_kit.py": demo_fixture.HONEST_FIX}))
    argv = ["lab", "--repo", str(repo.root), "--rubric-file", str(rubric)]
    assert main([*argv, "--freeze", str(freeze), str(patch)]) == 0
    rubric.write_text(demo_fixture.RUBRIC + "# edited\n")
    assert main([*argv, "--freeze", str(freeze), str(patch)]) == 2
    assert "rubric changed after freeze" in capsys.readouterr().err


def test_over_budget_alone_is_kitchen_mop_in_the_lab_and_its_own_bucket_exactly(
    repo, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """Six lines inside clamp(), tests green: only LINES fails.  `gate lab`
    keeps the seed's five buckets (kitchen-mop); the exact reading `gate
    loop` uses gives it its own bucket."""
    from loop_fixture import VERBOSE

    build_lab(repo)
    patch = tmp_path / "verbose.patch"
    patch.write_bytes(make_patch(repo, VERBOSE))
    (tmp_path / "verbose.patch.stdout").write_text("4 passed\nEXIT=0\n")
    code, data = _lab_json(capsys, "--repo", str(repo.root), str(patch))
    assert code == 1
    (row,) = data["patches"]
    assert row["failed"] == ["LINES"] and row["bucket"] == "kitchen-mop"
    assert sorted(data["buckets"]) == sorted(lab.BUCKETS) and "over-budget" not in lab.BUCKETS
    assert data["buckets"]["kitchen-mop"] == 1
    rubric = load_rubric_bytes(repo.git("show", f"HEAD:{DEFAULT_RUBRIC_PATH}").encode(), "r.yml")
    report = judge_patch(
        Repo(repo.root),
        rubric,
        repo.head(),
        patch.read_bytes(),
        "verbose.patch",
        rubric_path=DEFAULT_RUBRIC_PATH,
        stdout="4 passed\nEXIT=0\n",
    )
    assert report.failed == ("LINES",)
    assert lab.bucket_for(report, rubric) == lab.KITCHEN_MOP
    assert lab.bucket_for(report, rubric, exact=True) == lab.OVER_BUDGET
