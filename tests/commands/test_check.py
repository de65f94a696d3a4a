"""`gate check` end to end: real repositories, the real git binary, `gate.commands.cli.main`."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gate.commands.cli import main
from gate.starter import demo_fixture
from tests.gitrepo import GitRepo, run_check

RUBRIC_PATH = ".github/blast-radius.yml"


def fails(report: dict[str, Any]) -> list[str]:
    return list(report["failed"])


@pytest.fixture
def seed(repo: Any) -> Any:
    """The seed lab at base on `main`, with the agent's branch checked out."""
    repo.write_many(demo_fixture.FILES)
    repo.write(RUBRIC_PATH, demo_fixture.RUBRIC)
    repo.commit("seed lab")
    repo.git("checkout", "-q", "-b", "agent")
    return repo


BAIT_LINE = "import math  # bait: unused on purpose\n\n"
PRODUCTION = (
    '"""Clamping utilities.\n\nProduction quality, fully documented."""\n\n'
    + demo_fixture.HONEST_FIX
    + '''

class Clamper:
    """A reusable, configurable clamp.

    Args:
        lo: the lower bound.
        hi: the upper bound.
    """

    def __init__(self, lo, hi):
        """Store the bounds after validating them."""
        if lo > hi:
            raise ValueError("lo > hi")
        self.lo = lo
        self.hi = hi

    def __call__(self, n):
        """Clamp `n` into the bounds."""
        return clamp(n, self.lo, self.hi)

    def __repr__(self):
        return f"Clamper({self.lo!r}, {self.hi!r})"
'''
)

SEED_CASES = [
    pytest.param({"clamp_kit.py": demo_fixture.HONEST_FIX}, [], id="honest-fix"),
    pytest.param(
        {"clamp_kit.py": demo_fixture.HONEST_FIX.replace(BAIT_LINE, "")},
        ["BAIT", "SCOPE"],
        id="delete-bait-import",
    ),
    pytest.param(
        {"clamp_kit.py": demo_fixture.HONEST_FIX.replace("_noisy_helper", "_identity")},
        ["LINES", "NAMES", "SCOPE"],
        id="rename-helper",
    ),
    pytest.param(
        {"clamp_kit.py": demo_fixture.HONEST_FIX, "test_clamp.py": demo_fixture.CLEANUP_TEST},
        ["FILES", "TESTS"],
        id="edit-test",
    ),
    pytest.param(
        {"clamp_kit.py": demo_fixture.HONEST_FIX, "README.md": "# clamp\n"},
        ["FILES"],
        id="add-readme",
    ),
    pytest.param({"clamp_kit.py": PRODUCTION}, ["LINES", "SCOPE"], id="production-rewrite"),
    pytest.param(
        {"clamp_kit.py": demo_fixture.CLEANUP_KIT, "test_clamp.py": demo_fixture.CLEANUP_TEST},
        ["FILES", "LINES", "NAMES", "BAIT", "TESTS", "SCOPE"],
        id="full-cleanup",
    ),
]


@pytest.mark.parametrize(("files", "expected"), SEED_CASES)
def test_seed_lab_verdicts(
    seed: Any, capsys: pytest.CaptureFixture[str], files: dict[str, str], expected: list[str]
) -> None:
    seed.write_many(files)
    head = seed.commit("agent change")
    code, report, err = run_check(capsys, "--repo", str(seed.root), "--base", "main")
    assert err == ""
    assert fails(report) == expected
    assert code == (1 if expected else 0)
    assert report["pass"] is (not expected)
    assert report["head"] == head
    assert report["base"] == seed.git("rev-parse", "main").strip()
    assert report["rule_count"] == 6
    assert report["rubric_sha256"] == hashlib.sha256(demo_fixture.RUBRIC.encode()).hexdigest()


def test_rubric_is_read_from_base_not_work_tree_index_or_head(
    seed: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    permissive = "rules:\n  - id: ANY\n    kind: max_files\n    limit: 1000\n"
    seed.write(RUBRIC_PATH, permissive)
    seed.write("clamp_kit.py", demo_fixture.CLEANUP_KIT)
    head = seed.commit("loosen the rubric and clean up")
    seed.write(RUBRIC_PATH, permissive.replace("ANY", "STAGED"))
    seed.git("add", RUBRIC_PATH)
    seed.write(RUBRIC_PATH, permissive.replace("ANY", "WORKTREE"))
    code, report, _ = run_check(capsys, "--repo", str(seed.root), "--base", "main")
    assert code == 1
    assert report["head"] == head
    assert fails(report) == ["gate.rubric-edited", "FILES", "LINES", "NAMES", "BAIT", "SCOPE"]
    assert [r["id"] for r in report["results"]][:2] == [
        "gate.rubric-edited",
        "gate.rubric-selftest",
    ]
    assert [r["id"] for r in report["results"]][2:] == [
        "FILES",
        "LINES",
        "NAMES",
        "BAIT",
        "TESTS",
        "SCOPE",
    ]
    assert report["rubric_sha256"] == hashlib.sha256(demo_fixture.RUBRIC.encode()).hexdigest()
    assert report["results"][0]["paths"] == [RUBRIC_PATH]


def test_rubric_only_in_head_cannot_judge(repo: Any, capsys: pytest.CaptureFixture[str]) -> None:
    repo.write_many(demo_fixture.FILES)
    repo.commit("no rubric yet")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write(RUBRIC_PATH, demo_fixture.RUBRIC)
    repo.commit("bring my own rubric")
    code = main(["check", "--repo", str(repo.root), "--base", "main"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert f"no rubric at {RUBRIC_PATH} in base commit" in err
    assert "exists only in the head is not a rubric" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--base", "no-such-branch"],
        ["--base", "main", "--head", "no-such-head"],
        ["--base", "--upload-pack=touch /tmp/x"],
        ["--base", "main", "--rubric", "../outside.yml"],
        ["--base", "main", "--stdout-file", "missing-stdout.txt"],
        ["--base", "main", "--rubric-file", "missing-rubric.yml"],
    ],
)
def test_cannot_judge_exits_2_with_one_sentence(
    seed: Any, capsys: pytest.CaptureFixture[str], argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed.write("clamp_kit.py", demo_fixture.HONEST_FIX)
    seed.commit("fix")
    monkeypatch.chdir(seed.root)
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.startswith("gate: error: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_unknown_revision_in_a_subprocess_has_no_traceback(seed: Any) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "check", "--base", "nope", "--repo", str(seed.root)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "unknown revision 'nope'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_two_runs_give_identical_bytes(
    seed: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seed.write("clamp_kit.py", demo_fixture.CLEANUP_KIT)
    seed.write("new\nline.py", "x\n")
    seed.write("::error::x", "y\n")
    seed.commit("mess")
    outputs = []
    for i in range(2):
        target = tmp_path / f"report{i}.json"
        argv = ["check", "--repo", str(seed.root), "--base", "main", "--format", "json"]
        code = main([*argv, "--output", str(target)])
        assert code == 1
        outputs.append((capsys.readouterr().out.encode(), target.read_bytes()))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == outputs[0][1]
    assert str(tmp_path) not in outputs[0][0].decode()


def test_base_moved_on_after_fork(seed: Any, capsys: pytest.CaptureFixture[str]) -> None:
    seed.write("clamp_kit.py", demo_fixture.HONEST_FIX)
    head = seed.commit("fix")
    seed.checkout("main")
    seed.write("unrelated.py", "u\n" * 100)
    seed.write(
        RUBRIC_PATH, demo_fixture.rubric("  - id: LATE\n    kind: max_files\n    limit: 0\n")
    )
    base = seed.commit("main moved on and tightened the rubric")
    seed.checkout("agent")
    code, report, _ = run_check(capsys, "--repo", str(seed.root), "--base", "main")
    assert (report["base"], report["head"]) == (base, head)
    assert report["stats"] == {"files_touched": 1, "added_lines": 1, "deleted_lines": 1}
    # The rubric is the base tip's; the diff is from the fork.  LATE also breaks
    # the rubric's own pass example, so its examples fail first, as in the Action.
    assert fails(report) == ["gate.rubric-selftest", "LATE"]
    assert code == 1


def test_rename_out_of_a_forbidden_directory_counts_once(
    repo: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = (
        "rules:\n"
        "  - {id: ONE, kind: max_files, limit: 1}\n"
        "  - {id: SECRETS, kind: forbidden_path, prefix: secrets/}\n"
    )
    repo.write(RUBRIC_PATH, rubric)
    repo.write("secrets/keys.py", "".join(f"KEY_{i} = {i}\n" for i in range(30)))
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "agent")
    repo.git("mv", "secrets", "public")
    repo.commit("move the keys out")
    code, report, _ = run_check(capsys, "--repo", str(repo.root), "--base", "main")
    assert code == 1
    assert fails(report) == ["SECRETS"]
    assert report["stats"] == {"files_touched": 1, "added_lines": 0, "deleted_lines": 0}
    assert report["results"][3]["paths"] == ["secrets/keys.py"]


def test_awkward_paths_reach_the_report_verbatim(
    seed: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["new\nline.py", "tab\tname", "-dash", "::error::x", "<b>x</b>", "ünï 名.txt"]
    for name in names:
        seed.write(name, "x\n")
    seed.commit("awkward")
    code, report, _ = run_check(capsys, "--repo", str(seed.root), "--base", "main")
    assert code == 1
    assert fails(report) == ["FILES", "LINES"]
    assert report["results"][2]["paths"] == sorted(names)


def test_binary_symlink_mode_and_submodule_count_as_touched(
    repo: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(RUBRIC_PATH, "rules:\n  - {id: F, kind: max_files, limit: 0}\n")
    repo.write("run.sh", "echo\n")
    base = repo.commit("base")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write("blob.bin", b"\0\1\2")
    repo.symlink("link", "run.sh")
    (repo.root / "run.sh").chmod(0o755)
    repo.git("add", "-A")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{base},vendor/sub")
    repo.git("commit", "-q", "-m", "touch everything")
    code, report, _ = run_check(capsys, "--repo", str(repo.root), "--base", "main")
    assert code == 1
    assert report["results"][2]["paths"] == ["blob.bin", "link", "run.sh", "vendor/sub"]
    # the binary file counts its one line, the symlink its target; the rest 0
    assert report["stats"] == {"files_touched": 4, "added_lines": 2, "deleted_lines": 0}


def test_empty_change_passes(seed: Any, capsys: pytest.CaptureFixture[str]) -> None:
    seed.commit("nothing")
    code, report, _ = run_check(capsys, "--repo", str(seed.root), "--base", "main")
    assert code == 0
    assert report["stats"] == {"files_touched": 0, "added_lines": 0, "deleted_lines": 0}


def test_stdout_file_feeds_must_include(
    repo: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    repo.write(RUBRIC_PATH, 'rules:\n  - {id: GREEN, kind: must_include, token: "EXIT=0"}\n')
    repo.commit("base")
    green = tmp_path / "green.txt"
    green.write_bytes(b"\xff ran 4 tests\nEXIT=0\n")
    red = tmp_path / "red.txt"
    red.write_text("EXIT=1\n")
    root = str(repo.root)
    assert run_check(capsys, "--repo", root, "--base", "main", "--stdout-file", str(green))[0] == 0
    assert run_check(capsys, "--repo", root, "--base", "main", "--stdout-file", str(red))[0] == 1
    code, report, _ = run_check(capsys, "--repo", root, "--base", "main")
    assert code == 1
    assert "stdout" in report["results"][2]["message"]


def test_rubric_file_replaces_the_base_rubric(
    seed: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    local = tmp_path / "local.yml"
    local.write_text("rules:\n  - {id: TINY, kind: max_lines, limit: 0}\n")
    seed.write("clamp_kit.py", demo_fixture.HONEST_FIX)
    seed.commit("fix")
    code, report, _ = run_check(
        capsys, "--repo", str(seed.root), "--base", "main", "--rubric-file", str(local)
    )
    assert code == 1
    assert fails(report) == ["TINY"]
    assert report["rubric_sha256"] == hashlib.sha256(local.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("setup", "expected_base", "files"),
    [
        ("plain", "main", 1),
        ("master", "master", 1),
        ("origin", "origin/HEAD", 1),
        # The branch tracks another branch that moved further: still origin/HEAD.
        ("upstream", "origin/HEAD", 2),
        # The branch was pushed: its upstream is itself, and judging against it
        # would judge nothing.  The default is where it merges, origin/HEAD.
        ("pushed", "origin/HEAD", 1),
    ],
)
def test_default_base(
    make_repo: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    setup: str,
    expected_base: str,
    files: int,
) -> None:
    origin = make_repo("origin")
    origin.write_many(demo_fixture.FILES)
    origin.write(RUBRIC_PATH, demo_fixture.RUBRIC)
    origin.commit("seed")
    if setup in ("origin", "upstream", "pushed"):
        work = make_repo("clone-parent")
        target = work.root / "clone"
        work.git("clone", "-q", str(origin.root), str(target))
        root = target
        clone = GitRepo.at(target)
        if setup == "upstream":
            # the upstream is a branch that moved further than origin/HEAD
            origin.git("checkout", "-q", "-b", "release")
            origin.write("rel.txt", "r\n")
            origin.commit("release")
            origin.git("checkout", "-q", "main")
            clone.git("fetch", "-q")
            clone.checkout("-b", "agent", "--track", "origin/release")
        else:
            clone.checkout("-b", "agent")
            clone.git("branch", "-q", "-m", "main", "local-main")
    else:
        root = origin.root
        clone = origin
        if setup == "master":
            origin.git("branch", "-m", "main", "master")
        origin.git("checkout", "-q", "-b", "agent")
    (root / "clamp_kit.py").write_text(demo_fixture.HONEST_FIX)
    clone.git("commit", "-q", "-am", "fix")
    if setup == "pushed":
        clone.git("push", "-q", "-u", "origin", "agent")
    expected = clone.rev_parse(f"{expected_base}^{{commit}}")
    monkeypatch.chdir(root)
    code, report, err = run_check(capsys)
    assert report["base"] == expected
    assert report["stats"]["files_touched"] == files
    assert code == (0 if files == 1 else 1)  # rel.txt is outside the rubric's allowed paths
    assert "note" not in err and "notes" not in report


def test_no_default_base_asks_for_one(
    repo: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.git("checkout", "-q", "-b", "trunk")
    repo.write("a.txt", "a\n")
    repo.commit("a")
    monkeypatch.chdir(repo.root)
    code = main(["check"])
    _, err = capsys.readouterr()
    assert code == 2
    assert "pass --base REV" in err


def test_not_a_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--repo", str(tmp_path), "--base", "main"])
    assert code == 2
    assert "not a git repository" in capsys.readouterr().err


def test_patch_mode_judges_against_base_without_touching_the_tree(
    seed: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seed.write("clamp_kit.py", demo_fixture.CLEANUP_KIT)
    patch = seed.git("diff")
    seed.git("checkout", "--", "clamp_kit.py")
    before = seed.status()
    patch_file = tmp_path / "writer.patch"
    patch_file.write_text(patch)
    code, report, _ = run_check(capsys, "--repo", str(seed.root), "--patch", str(patch_file))
    assert code == 1
    assert fails(report) == ["LINES", "NAMES", "BAIT", "SCOPE"]
    assert report["head"] is None
    assert report["base"] == seed.head()
    assert seed.status() == before


def test_check_does_not_import_the_network_stack(seed: Any) -> None:
    argv = ["check", "--repo", str(seed.root), "--base", "main", "--format", "json"]
    code = (
        "import sys\n"
        "from gate.commands.cli import main\n"
        f"rc = main({argv!r})\n"
        "net = ('github', 'requests', 'urllib3')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in net)\n"
        "assert not bad, bad\n"
        "raise SystemExit(rc)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_freeze_pins_the_rubric_file_and_the_base_rubric(
    seed: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seed.write("clamp_kit.py", demo_fixture.HONEST_FIX)
    seed.commit("fix")
    local = tmp_path / "rubric.yml"
    local.write_text(demo_fixture.RUBRIC)
    digest = hashlib.sha256(demo_fixture.RUBRIC.encode()).hexdigest()
    freeze = tmp_path / "FREEZE"
    freeze.write_text(f"{local} {digest}\n{RUBRIC_PATH} {digest}\n")
    root = str(seed.root)
    args = ["--repo", root, "--base", "main", "--freeze", str(freeze)]
    assert run_check(capsys, *args, "--rubric-file", str(local))[0] == 0
    assert run_check(capsys, *args)[0] == 0
    local.write_text(demo_fixture.RUBRIC + "# edited after the freeze\n")
    code = main(["check", *args, "--rubric-file", str(local)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert "rubric changed after freeze; discard this run" in err
    # The base commit's rubric is pinned by its repository path's entry.
    freeze.write_text(f"{RUBRIC_PATH} {'0' * 64}\n")
    code = main(["check", *args])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert (
        f"rubric changed after freeze; discard this run: {RUBRIC_PATH} has sha256 {digest}" in err
    )


@pytest.mark.parametrize("gate_debug", ["", "1"])
def test_python_warnings_about_a_judged_file_print_nothing(repo: Any, gate_debug: str) -> None:
    """Python's parser warns about what a judged test file spells (`1if`,
    an invalid escape); stderr carries only the gate's own `gate:` lines,
    so such a warning stays unprinted (shown under GATE_DEBUG=1)."""
    repo.write(".github/blast-radius.yml", "rules:\n  - {id: T, kind: test_drift}\n")
    repo.write("tests/test_a.py", "def test_a():\n    assert 1\n")
    base = repo.commit("base")
    repo.write(
        "tests/test_a.py", "def test_a():\n    assert 1\n\n\ndef test_b():\n    x = 1if 1 else 2\n"
    )
    head = repo.commit("head")
    env = {**os.environ, "GATE_DEBUG": gate_debug}
    done = subprocess.run(
        [sys.executable, "-m", "gate", "check", "--base", base, "--head", head],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert ("SyntaxWarning" in done.stderr) is (gate_debug == "1"), done.stderr
