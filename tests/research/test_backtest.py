"""`gate backtest`: a rubric judged against real generated histories.

Each commit's `failed` must equal what `gate check --base SHA^ --head SHA
--rubric-file FILE` says (both through the real CLI), whoever wrote it."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.commands.cli import main
from gate.git.repo import Repo
from gate.research.backtest import run_backtest
from tests.gitrepo import GitRepo

RUBRIC = """\
version: 1
rules:
  - id: FILES
    kind: max_files
    limit: 3
    exclude: ["*.lock"]
  - id: LINES
    kind: max_lines
    limit: 20
  - id: SECRETS
    kind: forbidden_paths
    paths: ["secrets/"]
  - id: TESTS
    kind: test_drift
  - id: NAMES
    kind: keep_symbols
    file: app.py
    symbols: [clamp]
examples:
  - name: small
    expect: pass
    change:
      - {path: app.py, added: 1, deleted: 1}
  - name: wide
    expect: [FILES]
    change:
      - {path: a.py, added: 1}
      - {path: b.py, added: 1}
      - {path: c.py, added: 1}
      - {path: d.py, added: 1}
  - name: long
    expect: [LINES]
    change:
      - {path: a.py, added: 21}
  - name: secret
    expect: [SECRETS]
    change:
      - {path: secrets/k, status: added, added: 1}
  - name: bent test
    expect: [TESTS]
    change:
      - path: tests/test_app.py
        before: "def test_a():\\n    assert 1\\n"
        after: "def test_a():\\n    assert 2\\n"
  - name: renamed
    expect: [NAMES]
    change:
      - path: app.py
        before: "def clamp(x):\\n    return x\\n"
        after: "def clip(x):\\n    return x\\n"
"""

COPILOT = ("Copilot", "198982749+Copilot@users.noreply.github.com")


def _commit(repo: GitRepo, message: str, author: tuple[str, str] | None = None) -> str:
    repo.git("add", "-A")
    args = ["commit", "-q", "--allow-empty", "-m", message]
    if author is not None:
        args += ["--author", f"{author[0]} <{author[1]}>"]
    repo.git(*args)
    return repo.head()


def history(repo: GitRepo) -> dict[str, str]:
    """A history of human and agent commits, trailers, a merge and a rename;
    returns {name: sha}."""
    shas: dict[str, str] = {}
    repo.write("app.py", "def clamp(x):\n    return x\n")
    repo.write("tests/test_app.py", "def test_a():\n    assert 1\n")
    shas["root"] = _commit(repo, "start")
    repo.write("app.py", "def clamp(x):\n    return max(0, x)\n")
    shas["fix"] = _commit(repo, "fix clamp (#1)")
    for i in range(5):
        repo.write(f"m{i}.py", "x = 1\n")
    shas["wide"] = _commit(repo, "wide change", author=COPILOT)
    repo.write("secrets/key", "k\n")
    shas["secret"] = _commit(
        repo, "add key\n\nbody\n\nCo-Authored-By: Claude <noreply@anthropic.com>"
    )
    repo.write("tests/test_app.py", "def test_a():\n    assert 2\n")
    shas["bent"] = _commit(
        repo, "bend test\n\nco-authored-by: Cursor Agent <cursoragent@cursor.com>"
    )
    repo.git("mv", "m0.py", "n0.py")
    shas["rename"] = _commit(repo, "rename one")
    repo.write("app.py", "def clip(x):\n    return max(0, x)\n")
    shas["renamed-symbol"] = _commit(repo, "rename clamp")
    repo.write(".github/blast-radius.yml", RUBRIC)
    shas["rubric"] = _commit(repo, "add rubric")
    repo.git("checkout", "-q", "-b", "codex/long")
    repo.write("long.py", "".join(f"x{i} = {i}\n" for i in range(30)))
    _commit(repo, "long file")
    repo.write("long2.py", "y = 1\n")
    _commit(repo, "another")
    repo.git("checkout", "-q", "main")
    repo.write("other.py", "z = 1\n")
    shas["side"] = _commit(repo, "side fix")
    repo.git(
        "merge", "-q", "--no-ff", "codex/long", "-m", "Merge pull request #7 from acme/codex/long"
    )
    shas["merge"] = repo.head()
    # a lock file of three packages (none a test tool): out of FILES, no drift
    repo.write(
        "poetry.lock", "".join(f'[[package]]\nname = "l{i}"\nversion = "1.0"\n' for i in range(3))
    )
    repo.write("a.py", "a = 1\n")
    shas["lock"] = _commit(
        repo,
        "bump lock",
        author=("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"),
    )
    return shas


@pytest.fixture
def hist(repo: GitRepo, tmp_path: Path) -> tuple[GitRepo, dict[str, str], Path]:
    shas = history(repo)
    rubric = tmp_path / "rubric.yml"
    rubric.write_text(RUBRIC)
    return repo, shas, rubric


def backtest(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["backtest", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def check_failed(root: Path, sha: str, rubric: Path) -> list[str]:
    """What `gate check --base SHA^ --head SHA --rubric-file RUBRIC` fails,
    its exit code checked against its verdict (the real CLI, in this process)."""
    argv = ["check", "--repo", str(root), "--base", f"{sha}^", "--head", sha]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*argv, "--rubric-file", str(rubric), "--format", "json"])
    report = json.loads(out.getvalue())
    assert code == (1 if report["failed"] else 0)
    return list(report["failed"])


def test_each_commit_fails_what_gate_check_fails(
    hist: tuple[GitRepo, dict[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, shas, rubric = hist
    code, out, _ = backtest(
        capsys, "--repo", str(repo.root), "--rubric-file", str(rubric), "--format", "json"
    )
    data = json.loads(out)
    assert code == 1
    by_sha = {c["sha"]: c for c in data["commits"]}
    assert set(by_sha) == set(shas.values()) - {shas["root"]}
    for sha, commit in by_sha.items():
        assert commit["failed"] == check_failed(repo.root, sha, rubric), commit["subject"]
        assert commit["pass"] is (not commit["failed"])
    names = {v: k for k, v in shas.items()}
    failed = {names[s]: c["failed"] for s, c in by_sha.items()}
    assert failed["fix"] == []
    assert failed["wide"] == ["FILES"]
    assert failed["secret"] == ["SECRETS"]
    assert failed["bent"] == ["TESTS"]
    assert failed["rename"] == []
    assert failed["renamed-symbol"] == ["NAMES"]
    assert failed["rubric"] == ["gate.rubric-edited", "LINES"]  # the rubric is 60 lines
    assert failed["merge"] == ["LINES"]  # the merge judged as what it brought: SHA^1...SHA
    assert failed["lock"] == []  # poetry.lock excluded from FILES: 1 path counted
    assert data["skipped"] == [
        {
            "sha": shas["root"],
            "subject": "start",
            "reason": "the root commit: no parent to judge from",
        }
    ]
    assert data["rules"]["FILES"] == {
        "kind": "max_files",
        "agent": 1,
        "human": 0,
        "automation": 0,
        "failed": [shas["wide"]],
    }
    assert data["rules"]["LINES"]["agent"] == 1  # the merge of codex/long


def test_who_wrote_each_commit_and_how_it_was_told(
    hist: tuple[GitRepo, dict[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, shas, rubric = hist
    _, out, _ = backtest(
        capsys, "--repo", str(repo.root), "--rubric-file", str(rubric), "--format", "json"
    )
    names = {v: k for k, v in shas.items()}
    got = {
        names[c["sha"]]: (
            "automation" if c["automation"] else c["author_kind"],
            c["agent"],
            c["how"],
            c.get("bot"),
        )
        for c in json.loads(out)["commits"]
    }
    # the product contract's two values, a bot's commit marked apart
    kinds = {c["author_kind"] for c in json.loads(out)["commits"]}
    assert kinds <= {"agent", "human"}
    assert got["fix"] == ("human", None, "no agent signal", None)
    assert got["wide"] == ("agent", "GitHub Copilot", f"author {COPILOT[0]} <{COPILOT[1]}>", None)
    assert got["secret"][:3] == (
        "agent",
        "Claude Code",
        "co-author trailer Claude <noreply@anthropic.com>",
    )
    # the trailer key in another case, as git reads trailers
    assert got["bent"][:2] == ("agent", "Cursor")
    assert got["merge"] == ("agent", "OpenAI Codex", "merged branch codex/long", None)
    assert got["lock"][0] == "automation" and got["lock"][3] == "Dependabot"


def test_json_is_byte_deterministic_whatever_the_jobs(
    hist: tuple[GitRepo, dict[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, rubric = hist
    argv = ["--repo", str(repo.root), "--rubric-file", str(rubric), "--format", "json"]
    outs = {backtest(capsys, *argv, "--jobs", str(j))[1] for j in (1, 1, 2, 4, 4)}
    assert len(outs) == 1
    assert str(repo.root) not in outs.pop()


def test_last_and_range(
    hist: tuple[GitRepo, dict[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, shas, rubric = hist
    base = ["--repo", str(repo.root), "--rubric-file", str(rubric), "--format", "json"]
    _, out, _ = backtest(capsys, *base, "--last", "2")
    data = json.loads(out)
    assert [c["sha"] for c in data["commits"]] == [shas["lock"], shas["merge"]]
    assert data["revision"] == "the last 2 first-parent commits of main"
    _, out, _ = backtest(capsys, *base, f"{shas['side']}..main")
    # first parents only: the merged branch's own commits are not walked
    assert [c["sha"] for c in json.loads(out)["commits"]] == [shas["lock"], shas["merge"]]
    _, out, _ = backtest(capsys, *base, f"{shas['fix']}")
    data = json.loads(out)
    assert [c["sha"] for c in data["commits"]] == [shas["fix"]]
    assert len(data["skipped"]) == 1


def test_rubric_at_head_by_default_and_says_so(
    hist: tuple[GitRepo, dict[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = hist
    code, out, _ = backtest(capsys, "--repo", str(repo.root), "--last", "3")
    assert code == 1
    head = repo.head()[:12]
    assert f"rubric: .github/blast-radius.yml at HEAD {head}" in out
    assert "failing commits (newest first):" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["nope..main"], "git log cannot read 'nope..main'"),
        (["--", "-n1"], "starts with '-'"),
        (["--last", "0"], "--last 0"),
        (["--jobs", "0"], "--jobs 0"),
        (["--rubric-file", "missing.yml"], "missing.yml"),
    ],
)
def test_errors_exit_2_with_one_sentence(
    hist: tuple[GitRepo, dict[str, str], Path],
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    words: str,
) -> None:
    repo, _, rubric = hist
    extra = [] if "--rubric-file" in argv else ["--rubric-file", str(rubric)]
    code, out, err = backtest(capsys, "--repo", str(repo.root), *extra, *argv)
    assert code == 2
    assert out == ""
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_no_rubric_and_not_a_repository(
    tmp_path: Path, make_repo: type[GitRepo], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = backtest(capsys, "--repo", str(tmp_path))
    assert code == 2 and "is not a git repository" in err
    repo = make_repo("plain")  # type: ignore[call-arg]
    repo.write("a.py", "a\n")
    repo.commit("a")
    code, _, err = backtest(capsys, "--repo", str(repo.root))
    assert code == 2
    assert "no rubric at .github/blast-radius.yml in HEAD: pass --rubric-file FILE" in err


def test_shallow_boundary_is_unjudged_never_a_verdict(
    hist: tuple[GitRepo, dict[str, str], Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo, shas, rubric = hist
    clone = tmp_path / "shallow"
    repo.git("clone", "-q", "--depth", "3", f"file://{repo.root}", str(clone))
    code, out, err = backtest(
        capsys, "--repo", str(clone), "--rubric-file", str(rubric), "--format", "json"
    )
    data = json.loads(out)
    assert code == 2
    assert "could not judge 1 of 3 commits" in err
    assert [u["sha"] for u in data["unjudged"]] == [shas["side"]]  # depth 3: lock, merge, side
    assert "shallow" in data["unjudged"][0]["reason"]
    assert [c["sha"] for c in data["commits"]] == [shas["lock"], shas["merge"]]
    assert data["skipped"] == []


def test_examples_that_disagree_fail_every_commit_as_check_does(
    hist: tuple[GitRepo, dict[str, str], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = hist
    broken = tmp_path / "broken.yml"
    broken.write_text(RUBRIC.replace("limit: 3", "limit: 30"))  # "wide" no longer fails
    code, out, _ = backtest(
        capsys,
        "--repo",
        str(repo.root),
        "--rubric-file",
        str(broken),
        "--format",
        "json",
        "--last",
        "2",
    )
    data = json.loads(out)
    assert code == 1 and data["examples_agree"] is False
    for commit in data["commits"]:
        assert "gate.rubric-selftest" in commit["failed"]
        assert commit["failed"] == check_failed(repo.root, commit["sha"], broken)


def test_hostile_subject_is_escaped_in_text_and_markdown(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = tmp_path / "r.yml"
    rubric.write_text(RUBRIC)
    repo.write("a.py", "a\n")
    repo.commit("a")
    repo.write("secrets/x", "x\n")
    repo.commit("evil \x1b[31m ::error::x @admin <b>")
    _, text, _ = backtest(capsys, "--repo", str(repo.root), "--rubric-file", str(rubric))
    assert "\x1b" not in text
    _, md, _ = backtest(
        capsys, "--repo", str(repo.root), "--rubric-file", str(rubric), "--format", "markdown"
    )
    assert "<b>" not in md and "@admin" not in md


def test_no_traceback_in_a_subprocess(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "backtest", "--repo", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


# -- generated histories ----------------------------------------------------

_PATHS = ["app.py", "b.py", "lib/c.py", "tests/test_app.py", "secrets/k", "poetry.lock"]
_OP = st.tuples(
    st.sampled_from(["write", "remove", "rename", "merge", "append"]),
    st.sampled_from(_PATHS),
    st.integers(min_value=0, max_value=30),
)


@settings(max_examples=6)
@given(st.lists(st.lists(_OP, min_size=1, max_size=4), min_size=2, max_size=5))
def test_generated_histories_agree_with_gate_check(
    tmp_path_factory: pytest.TempPathFactory, steps: list[list[tuple[str, str, int]]]
) -> None:
    root = tmp_path_factory.mktemp("gen")
    repo = GitRepo(root / "repo")
    rubric = root / "rubric.yml"
    rubric.write_text(RUBRIC)
    repo.write("app.py", "def clamp(x):\n    return x\n")
    repo.write("tests/test_app.py", "def test_a():\n    assert 1\n")
    repo.commit("root")
    # always one commit that only adds a test case to an existing test file
    repo.write(
        "tests/test_app.py", "def test_a():\n    assert 1\n\n\ndef test_b():\n    assert 2\n"
    )
    repo.commit("new case")
    for n, step in enumerate(steps):
        merging = any(op == "merge" for op, _, _ in step)
        if merging:
            repo.git("checkout", "-q", "-b", f"topic{n}")
        for op, path, size in step:
            target = repo.root / path
            if op == "remove" and target.exists():
                target.unlink()  # `git add -A` in commit() records it
            elif op == "append" and target.exists() and path.endswith(".py"):
                # a new test case after the others: test_drift judges the
                # file case by case only when the texts are read
                old = target.read_text()
                target.write_text(f"{old}\n\ndef test_gen_{n}_{size}_{len(old)}():\n    assert 1\n")
            elif op == "rename" and target.exists():
                dest = path.replace(".py", "_moved.py") if path.endswith(".py") else path + ".old"
                if not (repo.root / dest).exists():
                    target.rename(repo.root / dest)
            else:
                body = "def clamp(x):\n" if path == "app.py" and size % 2 else ""
                repo.write(path, body + "".join(f"v{i} = {size}\n" for i in range(size)))
        repo.commit(f"step {n}")
        if merging:
            repo.git("checkout", "-q", "main")
            repo.write(f"main{n}.py", "m = 1\n")
            repo.commit(f"main {n}")
            repo.git("merge", "-q", "--no-ff", f"topic{n}", "-m", f"Merge branch 'topic{n}'")
    report = _run_json(["backtest", "--repo", str(repo.root), "--rubric-file", str(rubric)])
    assert report["commits"], "something was judged"
    for commit in report["commits"]:
        sha = commit["sha"]
        expected = check_failed(repo.root, sha, rubric)
        assert commit["failed"] == expected


def _run_json(argv: list[str]) -> Any:
    """The real CLI in this process, its stdout captured (no capsys inside @given)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*argv, "--format", "json"])
    assert code in (0, 1)
    return json.loads(out.getvalue())


# -- gate init --from-history ---------------------------------------------


def learned_history(repo: GitRepo) -> None:
    """Human commits touching i new files of i lines each (i = 1..9), an
    agent's and a dependency bot's wide changes, and lock files that the
    starter's budgets exclude."""
    repo.write("README.md", "x\n")
    repo.commit("root")
    for i in range(1, 10):
        for j in range(i):
            repo.write(f"h{i}/f{j}.py", "".join(f"v{k} = 1\n" for k in range(i)))
        repo.write(f"h{i}/poetry.lock", "".join(f"l{k}\n" for k in range(500)))
        _commit(repo, f"human {i}")
    for j in range(30):
        repo.write(f"agent/f{j}.py", "a = 1\n" * 50)
    _commit(repo, "agent sweep", author=COPILOT)
    for j in range(40):
        repo.write(f"deps/f{j}.txt", "d\n" * 50)
    _commit(
        repo,
        "bump",
        author=("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"),
    )


@pytest.mark.parametrize(("percentile", "files", "lines"), [("50", 5, 25), ("100", 9, 81)])
def test_init_from_history_sets_budgets_to_the_human_percentile(
    repo: GitRepo,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    percentile: str,
    files: int,
    lines: int,
) -> None:
    from gate.judge.selftest import run_selftest
    from gate.rubric.load import load_rubric_bytes
    from gate.starter import STARTER_RUBRIC

    learned_history(repo)
    monkeypatch.chdir(repo.root)
    code = main(["init", "--from-history", "--percentile", percentile, "--path", "r.yml"])
    out = capsys.readouterr().out
    assert code == 0, out
    text = (repo.root / "r.yml").read_text()
    rubric = load_rubric_bytes(text.encode(), "r.yml")
    limits = {r.id: r.params.get("limit") for r in rubric.rules}
    # 9 human-written changes: the agent's and the bot's wide ones left out
    assert limits["FILES"] == files and limits["LINES"] == lines
    assert f"the {percentile}th percentile of 9 human-written changes is {files}" in out
    assert run_selftest(rubric).agrees and not run_selftest(rubric).unproven
    starter = {r.id: r.params for r in load_rubric_bytes(STARTER_RUBRIC.encode(), "s").rules}
    for rule in rubric.rules:  # nothing else of a rule changed
        assert {**rule.params, "limit": None} == {**starter[rule.id], "limit": None}
    # every comment of the starter is still there
    comments = [line for line in STARTER_RUBRIC.splitlines() if line.lstrip().startswith("#")]
    assert all(c in text.splitlines() for c in comments)


def test_init_from_history_refuses_before_judging(
    repo: GitRepo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    learned_history(repo)
    monkeypatch.chdir(repo.root)
    (repo.root / "r.yml").write_text("mine\n")
    assert main(["init", "--from-history", "--path", "r.yml"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (repo.root / "r.yml").read_text() == "mine\n"
    assert main(["init", "--from-history", "--percentile", "0", "--path", "s.yml"]) == 2
    assert "--percentile 0" in capsys.readouterr().err
    assert not (repo.root / "s.yml").exists()
    assert main(["init", "--last", "5", "--path", "s.yml"]) == 2
    assert "go with --from-history" in capsys.readouterr().err
    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.chdir(outside)
    assert main(["init", "--from-history", "--path", "s.yml"]) == 2
    assert "inside a clone" in capsys.readouterr().err


def test_init_from_history_needs_a_human_change(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("a.py", "a\n")
    repo.commit("root")
    repo.write("b.py", "b\n")
    _commit(repo, "agent", author=COPILOT)
    monkeypatch.chdir(repo.root)
    assert main(["init", "--from-history", "--path", "r.yml"]) == 2
    assert "no human-written change" in capsys.readouterr().err
    assert not (repo.root / "r.yml").exists()


def test_totals_sizes_and_tripping_paths_in_every_form(
    hist: tuple[GitRepo, dict[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, shas, rubric = hist
    args = ("--repo", str(repo.root), "--rubric-file", str(rubric), "--format")
    _, out, _ = backtest(capsys, *args, "json")
    data = json.loads(out)
    totals = data["totals"]
    assert (totals["agent"], totals["human"], totals["automation"]) == (4, 5, 1)
    assert totals["agent"] + totals["human"] + totals["automation"] == totals["judged"]
    by = {c["sha"]: c for c in data["commits"]}
    assert totals["agent_failed"] == sum(
        1 for c in data["commits"] if c["author_kind"] == "agent" and c["failed"]
    )
    wide, secret, bent = by[shas["wide"]], by[shas["secret"]], by[shas["bent"]]
    assert wide["stats"] == {"files_touched": 5, "added_lines": 5, "deleted_lines": 0}
    assert wide["counts"] == {"FILES": 5, "LINES": 5}
    assert "paths" not in wide  # a budget names no tripping path
    assert secret["paths"] == {"SECRETS": ["secrets/key"]}
    assert bent["paths"] == {"TESTS": ["tests/test_app.py"]}
    assert "paths" not in by[shas["fix"]]  # passed: nothing tripped
    line = (
        f"{totals['judged']} commits judged: 4 agent ({totals['agent_failed']} failed, "
        f"{100 * totals['agent_failed'] // 4}%), 5 human ({totals['human_failed']} failed, "
        f"{100 * totals['human_failed'] // 5}%), 1 automation ({totals['automation_failed']} "
        "failed, "
    )
    _, text, _ = backtest(capsys, *args, "text")
    assert line in text and "1 root skipped" in text
    assert "      5 files, +5 -0 lines (FILES 5, LINES 5)" in text
    assert "      SECRETS: secrets/key" in text and "      TESTS: tests/test_app.py" in text
    _, markdown, _ = backtest(capsys, *args, "markdown")
    assert line in markdown
    assert "| SECRETS: secrets/key |" in markdown


def test_a_tripping_path_is_escaped(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hostile twin: a path that writes a line of its own, and markdown."""
    repo.write("a.py", "a\n")
    repo.commit("root")
    repo.write("secrets/x\n| y | *z*", "k\n")
    repo.commit("hostile path")
    rubric = tmp_path / "r.yml"
    rubric.write_text(RUBRIC)
    args = ("--repo", str(repo.root), "--rubric-file", str(rubric), "--format")
    _, text, _ = backtest(capsys, *args, "text")
    assert "SECRETS: secrets/x\\n| y | *z*" in text
    _, markdown, _ = backtest(capsys, *args, "markdown")
    assert "secrets/x\n" not in markdown and "\\| y \\|" in markdown


def tuning_history(repo: GitRepo) -> dict[str, str]:
    """Human commits that edit a workflow three times and CODEOWNERS twice,
    bend a test three times and edit a module named like a test (matched by
    `**/test*.py` only) twice, an agent that edits a workflow, and one human
    AGENTS.md edit."""
    shas: dict[str, str] = {}
    repo.write("app.py", "x = 1\n")
    repo.write("tests/test_app.py", "def test_a():\n    assert 1\n")
    repo.write("src/testing_tools.py", "def helper():\n    return 1\n")
    repo.write(".github/workflows/ci.yml", "on: push\n")
    repo.write("CODEOWNERS", "* @a\n")
    shas["root"] = _commit(repo, "root")
    for i in range(3):
        repo.write(".github/workflows/ci.yml", f"on: push\n# {i}\n")
        shas[f"ci{i}"] = _commit(repo, f"tune ci {i}")
    repo.write(".github/workflows/release.yml", "on: push\n")
    shas["agent-ci"] = _commit(repo, "agent adds a workflow", author=COPILOT)
    for i in range(3):
        repo.write("tests/test_app.py", f"def test_a():\n    assert {i + 2}\n")
        shas[f"bend{i}"] = _commit(repo, f"update test {i}")
    for i in range(2):
        repo.write("CODEOWNERS", f"* @a{i}\n")
        shas[f"owners{i}"] = _commit(repo, f"owners {i}")
        repo.write("src/testing_tools.py", f"def helper():\n    return {i + 2}\n")
        shas[f"tools{i}"] = _commit(repo, f"tools {i}")
    repo.write("AGENTS.md", "be nice\n")
    shas["agents"] = _commit(repo, "agents file")
    repo.write("app.py", "x = 2\n")
    shas["last"] = _commit(repo, "last")
    return shas


def test_init_from_history_prints_rates_and_proposals_and_writes_none(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gate.rubric.load import load_rubric_bytes
    from gate.starter import STARTER_RUBRIC

    shas = tuning_history(repo)
    monkeypatch.chdir(repo.root)
    assert main(["init", "--from-history", "--path", "r.yml"]) == 0
    out = capsys.readouterr().out
    assert "13 commits judged: 1 agent (1 failed, 100%), 12 human (11 failed, 91%)" in out
    assert "  CI (forbidden_paths): human 5 of 12 (41%), agent 1 of 1 (100%)" in out
    proposed = out.split("proposed, not written")[1].splitlines()
    # the workflow glob: most of CI's human failures, so the rule's core, kept
    ci = [line for line in proposed if line.startswith('  CI: ".github/workflows/"')]
    assert len(ci) == 1, out
    assert ", ".join(shas[f"ci{i}"][:12] for i in (2, 1, 0)) in ci[0]
    assert "its core, kept" in ci[0] and "also caught 1 agent commits" in ci[0]
    owners = [line for line in proposed if line.startswith('  CI: "CODEOWNERS"')]
    assert len(owners) == 1 and "drop it" in owners[0], out
    assert f"{shas['owners1'][:12]}, {shas['owners0'][:12]}" in owners[0]
    tests = [line for line in proposed if line.startswith('  TESTS: "tests/", ')]
    assert len(tests) == 1 and "its core, kept" in tests[0], out
    assert any(line.startswith('  TESTS: "**/test*.py" tripped 2 human') for line in proposed)
    assert not any(line.startswith("  AGENTS:") for line in proposed)  # one commit: not proposed
    # the YAML lines that apply them: CI's paths without CODEOWNERS, tests without **/test*.py
    starter = {r.id: r for r in load_rubric_bytes(STARTER_RUBRIC.encode(), "s").rules}
    kept = [p for p in starter["CI"].params["paths"] if p != "CODEOWNERS"]
    assert f"      paths: {json.dumps(kept)}" in out
    # written: as strict as the starter
    rubric = load_rubric_bytes((repo.root / "r.yml").read_bytes(), "r")
    written = {r.id: r for r in rubric.rules}
    for rule_id in ("CI", "TESTS", "AGENTS", "SECRETS"):
        assert written[rule_id].params == starter[rule_id].params
    # the printed lines, applied, let exactly the proposed human commits pass
    lines = out.splitlines()
    ci_paths = json.loads(lines[lines.index("    CI (CI's paths):") + 1].split(": ", 1)[1])
    test_globs = json.loads(lines[lines.index("    TESTS (tests):") + 1].split(": ", 1)[1])
    assert "**/test*.py" not in test_globs and "tests/" in test_globs
    loosened = dataclasses.replace(
        rubric,
        tests=tuple(test_globs),
        rules=tuple(
            dataclasses.replace(r, params={**r.params, "paths": ci_paths})
            if r.id == "CI"
            else dataclasses.replace(r, params={**r.params, "paths": test_globs})
            if r.id == "TESTS"
            else r
            for r in rubric.rules
        ),
    )
    gitrepo = Repo(repo.root)
    result = run_backtest(
        gitrepo,
        loosened,
        gitrepo.history("HEAD"),
        rubric_path="r.yml",
        rubric_name="loosened",
        revision="HEAD",
        jobs=1,
    )
    failed = {c.sha: c.failed for c in result.commits}
    for name in ("owners0", "owners1", "tools0", "tools1"):
        assert "CI" not in failed[shas[name]] and "TESTS" not in failed[shas[name]], name
    for name in ("ci0", "ci1", "ci2", "agent-ci"):
        assert "CI" in failed[shas[name]], name
    for name in ("bend0", "bend1", "bend2"):
        assert "TESTS" in failed[shas[name]], name


def test_init_from_history_at_learns_only_what_came_before(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shas = tuning_history(repo)
    monkeypatch.chdir(repo.root)
    # before bend0: ci0 .. agent-ci; REV itself not learnt from
    assert main(["init", "--from-history", "--at", shas["bend0"], "--path", "a.yml"]) == 0
    out = capsys.readouterr().out
    assert f"before {shas['bend0']} ({shas['bend0'][:12]})" in out
    assert "4 commits judged: 1 agent (1 failed, 100%), 3 human (3 failed, 100%)" in out
    assert "TESTS: " not in out.split("proposed, not written")[1]
    assert shas["bend0"][:12] not in out.split("learned from")[1].split("\n", 1)[1]
    # at bend1: bend0 is learnt from, bend1 is not
    assert main(["init", "--from-history", "--at", shas["bend1"], "--path", "c.yml"]) == 0
    out = capsys.readouterr().out
    assert "5 commits judged" in out and "  TESTS (test_drift): human 1 of 4 (25%)" in out
    # the root has no history before it; a name that is no commit
    assert main(["init", "--from-history", "--at", shas["root"], "--path", "b.yml"]) == 2
    assert "has no parent" in capsys.readouterr().err
    assert main(["init", "--from-history", "--at", "nope", "--path", "b.yml"]) == 2
    assert "--at nope: no such commit" in capsys.readouterr().err
    assert main(["init", "--at", "HEAD", "--path", "b.yml"]) == 2
    assert "go with --from-history" in capsys.readouterr().err
    assert not (repo.root / "b.yml").exists()


def test_init_from_history_core_only_prints_no_yaml(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Humans who only ever edit the workflows: the glob is CI's core, named
    and kept, and no YAML line would drop it."""
    repo.write(".github/workflows/ci.yml", "on: push\n")
    repo.commit("root")
    for i in range(3):
        repo.write(".github/workflows/ci.yml", f"on: push\n# {i}\n")
        _commit(repo, f"ci {i}")
    monkeypatch.chdir(repo.root)
    assert main(["init", "--from-history", "--path", "r.yml"]) == 0
    out = capsys.readouterr().out
    assert '  CI: ".github/workflows/" tripped 3 human commits' in out
    assert "its core, kept" in out
    assert "the line that applies them all" not in out and "      paths:" not in out


def _proposals(out: str) -> list[str]:
    return out.split("proposed, not written")[1].splitlines()


def test_init_from_history_keeps_a_glob_that_alone_protects_other_files(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """pallets/click's shape: human commits edit `tests/typing/*.py`, which
    only `tests/` matches; dropping `tests/` would unprotect the helpers and
    data beside them, so it is kept, with what it alone protects named."""
    repo.write("app.py", "x = 1\n")
    repo.write("tests/test_app.py", "def test_a():\n    assert 1\n")
    repo.write("tests/typing/typing_edit.py", "x: int = 1\n")
    repo.write("tests/typing/typing_prompt.py", "x: int = 1\n")
    repo.write("tests/helpers.py", "def make():\n    return 1\n")
    repo.write("tests/data/expected.json", "{}\n")
    _commit(repo, "root")
    for i in range(2):
        repo.write("tests/typing/typing_edit.py", f"x: int = {i + 2}\n")
        repo.write("tests/typing/typing_prompt.py", f"x: int = {i + 2}\n")
        _commit(repo, f"typing {i}")
    for i in range(3):  # the rule's core: the test tree's test modules
        repo.write("tests/test_app.py", f"def test_a():\n    assert {i + 2}\n")
        _commit(repo, f"bend {i}")
    monkeypatch.chdir(repo.root)
    assert main(["init", "--from-history", "--path", "r.yml"]) == 0
    out = capsys.readouterr().out
    kept = [line for line in _proposals(out) if line.startswith('  TESTS: "tests/" tripped 2')]
    assert len(kept) == 1, out
    assert "drop it" not in kept[0]
    assert "kept: it alone protects 2 other files at HEAD, e.g. " in kept[0]
    assert "tests/data/expected.json, tests/helpers.py" in kept[0]
    # no YAML line drops it
    assert "the line that applies them all" not in out and "    TESTS (tests):" not in out


def test_init_from_history_drops_a_glob_only_when_its_own_files_all_tripped(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`**/test*.py` matching a source module beyond the other globs'
    matches: dropped when that module is all it alone protects; the hostile
    twin, another such module nobody edited, keeps it."""
    repo.write("tests/test_app.py", "def test_a():\n    assert 1\n")
    repo.write("src/testing.py", "def helper():\n    return 1\n")
    _commit(repo, "root")
    for i in range(2):
        repo.write("src/testing.py", f"def helper():\n    return {i + 2}\n")
        _commit(repo, f"tools {i}")
    for i in range(3):
        repo.write("tests/test_app.py", f"def test_a():\n    assert {i + 2}\n")
        _commit(repo, f"bend {i}")
    monkeypatch.chdir(repo.root)
    assert main(["init", "--from-history", "--path", "r.yml"]) == 0
    out = capsys.readouterr().out
    line = [x for x in _proposals(out) if x.startswith('  TESTS: "**/test*.py" tripped 2')]
    assert len(line) == 1 and "drop it" in line[0], out
    assert '"**/test*.py"' not in out.split("    TESTS (tests):")[1].splitlines()[1]
    # the twin: a second module named like a test that no commit touched
    repo.write("src/testing_extra.py", "def more():\n    return 1\n")
    _commit(repo, "an untouched module named like a test")
    assert main(["init", "--from-history", "--path", "s.yml"]) == 0
    out = capsys.readouterr().out
    line = [x for x in _proposals(out) if x.startswith('  TESTS: "**/test*.py" tripped 2')]
    assert len(line) == 1 and "drop it" not in line[0], out
    assert "kept: it alone protects 1 other files at HEAD, e.g. src/testing_extra.py" in line[0]
    assert "    TESTS (tests):" not in out


def test_init_from_history_fits_the_starter_to_the_learned_tree(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The newest learned commit's tree decides what the rubric protects and
    leaves out, as plain `gate init` reads HEAD's: its GitLab CI file, its
    generated code; a file added after `--at` does not count."""
    from gate.rubric.load import load_rubric_bytes

    learned_history(repo)
    repo.write(".gitlab-ci.yml", "test:\n  script: pytest\n")
    repo.write("db/q.sql.go", "// Code generated by sqlc. DO NOT EDIT.\npackage db\n")
    _commit(repo, "ci and generated code")
    repo.write(".circleci/config.yml", "version: 2.1\n")
    circle = _commit(repo, "circle")
    monkeypatch.chdir(repo.root)
    # --at REV learns from REV's parent and older: the tree before CircleCI came
    for args, has_circle in (([], True), (["--at", circle], False)):
        name = f"r{len(args)}.yml"
        assert main(["init", "--from-history", *args, "--path", name]) == 0, capsys.readouterr()
        text = (repo.root / name).read_text()
        rules = {r.id: r.params for r in load_rubric_bytes(text.encode(), name).rules}
        assert ".gitlab-ci.yml" in rules["CI"]["paths"]
        assert "db/q.sql.go" in rules["LINES"]["exclude"]
        assert "db/q.sql.go" in rules["FILES"]["exclude"]
        assert ("CI / CircleCI: .circleci/config.yml" in text) is has_circle
