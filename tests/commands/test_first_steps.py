"""First steps that lead somewhere: `gate init` names `gate backtest`; a
rubric only in the working tree names `--rubric-file`; a run that judged
nothing says so; a mistyped command, flag or choice gets the closest
spelling and the command's usage; an already-applied patch says so; no
message names a path twice.  Real repositories, the real git binary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gate.commands.cli import build_parser, main
from tests.gitrepo import GitRepo

RUBRIC = """\
version: 1
rules:
  - id: FEW
    kind: max_files
    limit: 5
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def with_rubric(repo: GitRepo) -> GitRepo:
    repo.write(".github/blast-radius.yml", RUBRIC)
    repo.write("app.py", "a = 1\n")
    repo.commit("rubric")
    return repo


# --- gate init's next steps -------------------------------------------------


def test_init_names_backtest_and_the_command_it_prints_runs(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("app.py", "a = 1\n")
    repo.commit("one")
    repo.write("app.py", "a = 2\n")
    repo.commit("two")
    monkeypatch.chdir(repo.root)
    code, out, _ = run(capsys, "init")
    assert code == 0
    (line,) = [x for x in out.splitlines() if "gate backtest" in x]
    argv = line.split("#")[0].split()
    assert argv[:2] == ["gate", "backtest"]
    code, out, err = run(capsys, *argv[1:])
    assert code == 0, err
    assert "FILES" in out


# --- no rubric at the base --------------------------------------------------


def test_a_rubric_only_in_the_working_tree_names_rubric_file(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("app.py", "a = 1\n")
    repo.commit("app")
    for path in (".github/blast-radius.yml", "ci/rules dir/gate.yml"):
        repo.write(path, RUBRIC)
        code, _, err = run(capsys, "check", "--repo", str(repo.root), "--rubric", path)
        assert code == 2
        assert f"no rubric at {path} in base commit" in err
        assert f"pass --rubric-file {path}" in err


def test_no_rubric_anywhere_names_no_rubric_file(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """The twin: nothing in the working tree either, so nothing to point at
    (and a folder at the path is not a rubric)."""
    repo.write("app.py", "a = 1\n")
    repo.commit("app")
    (repo.root / ".github" / "blast-radius.yml").mkdir(parents=True)
    code, _, err = run(capsys, "check", "--repo", str(repo.root))
    assert code == 2
    assert "no rubric at .github/blast-radius.yml" in err
    assert "--rubric-file" not in err


# --- a run that judged nothing ---------------------------------------------


def _empty_changes(repo: GitRepo) -> list[tuple[str, str]]:
    """(base, head) pairs whose change touches no file: one commit; head
    already in base; commits that cancel out."""
    base = repo.head()
    repo.git("checkout", "-q", "-b", "agent")
    repo.write("app.py", "a = 2\n")
    repo.commit("change")
    repo.write("app.py", "a = 1\n")
    cancelled = repo.commit("undo")
    return [(base, base), (cancelled, base), (base, cancelled)]


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "github", "sarif"])
def test_an_empty_change_says_nothing_was_judged(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    with_rubric(repo)
    for base, head in _empty_changes(repo):
        argv = ("check", "--repo", str(repo.root), "--base", base, "--head", head)
        code, out, _ = run(capsys, *argv, "--format", fmt)
        assert code == 0
        if fmt == "json":
            assert json.loads(out)["nothing_judged"] is True
        elif fmt == "sarif":
            assert json.loads(out)["runs"][0]["properties"]["nothing_judged"] is True
        else:
            assert re.search("nothing judged", out, re.I), out


def test_a_real_change_is_not_called_empty(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """The twin: a change of one line in one file is judged."""
    with_rubric(repo)
    base = repo.head()
    repo.write("app.py", "a = 2\n")
    head = repo.commit("change")
    argv = ("check", "--repo", str(repo.root), "--base", base, "--head", head)
    code, out, _ = run(capsys, *argv, "--format", "json")
    assert code == 0 and "nothing_judged" not in json.loads(out)
    code, out, _ = run(capsys, *argv)
    assert out.startswith("PASS: all") and "nothing judged" not in out.lower()


# --- mistyped commands, flags and choices -----------------------------------


def _subcommands() -> dict[str, list[str]]:
    """Each top-level command and its visible long flags."""
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out: dict[str, list[str]] = {}
    for name, p in sub.choices.items():
        out[name] = [
            o
            for a in p._actions
            if a.help != argparse.SUPPRESS
            for o in a.option_strings
            if o.startswith("--") and o != "--help"
        ]
    return out


def _typos(word: str) -> list[str]:
    """The word with one letter dropped, and with two neighbours swapped."""
    start = 2 if word.startswith("--") else 0
    out = [word[:i] + word[i + 1 :] for i in range(start + 1, len(word))]
    out += [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(start, len(word) - 1)]
    return [w for w in out if w != word]


def test_a_mistyped_command_gets_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    names = list(_subcommands())
    for name in names:
        for typo in _typos(name)[:4]:
            if typo in names:
                continue
            code, _, err = run(capsys, typo)
            assert code == 2
            hint = re.search(r"did you mean '([^']+)'\?", err)
            assert hint is not None and hint.group(1) in names, (typo, err)


def test_a_mistyped_flag_gets_the_closest_and_the_commands_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in ("check", "backtest", "grade", "validate", "init"):
        flags = _subcommands()[command]
        for flag in flags:
            typo = _typos(flag)[-1]
            if typo in flags:
                continue
            code, _, err = run(capsys, command, typo, "x")
            assert code == 2
            assert f"usage: gate {command} " in err, err
            hint = re.search(r"did you mean '([^']+)'\?", err)
            assert hint is not None and hint.group(1) in flags, (command, typo, err)


def test_a_mistyped_choice_gets_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    for wrong, right in (("sarf", "sarif"), ("jsno", "json"), ("githb", "github")):
        code, _, err = run(capsys, "check", "--format", wrong)
        assert code == 2
        assert f"did you mean '{right}'?" in err


def test_nothing_close_gets_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    """The twin: a word like no command or flag gets no suggestion."""
    for argv in (("xyzzy",), ("check", "--xyzzy"), ("check", "--format", "qqqq")):
        code, _, err = run(capsys, *argv)
        assert code == 2
        assert "did you mean" not in err


# --- an already-applied patch, and paths named once -------------------------


def _patched(repo: GitRepo) -> tuple[Path, str]:
    with_rubric(repo)
    before = repo.head()
    repo.write("app.py", "a = 2\n")
    after = repo.commit("change")
    patch = repo.root.parent / "p.patch"
    patch.write_bytes(repo.git_bytes("diff", before, after))
    return patch, before


def test_an_already_applied_patch_says_so(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    patch, before = _patched(repo)
    code, _, err = run(capsys, "check", "--repo", str(repo.root), "--patch", str(patch))
    assert code == 3
    assert "already applied" in err
    code, out, _ = run(
        capsys, "check", "--repo", str(repo.root), "--patch", str(patch), "--base", before
    )
    assert code == 0, out


def test_a_conflicting_patch_is_not_called_applied(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """The twin: a patch whose lines are not there either way does not apply."""
    patch, _ = _patched(repo)
    repo.write("app.py", "a = 3\n")
    repo.commit("moved on")
    code, _, err = run(capsys, "check", "--repo", str(repo.root), "--patch", str(patch))
    assert code == 3
    assert "does not apply" in err and "already applied" not in err


BAD_PATCHES = {
    "empty.patch": b"",
    "garbage.patch": b"garbage\n",
    "nohead.patch": b"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
    "missing.patch": b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
    "a: b.patch": b"garbage\n",
}


def test_no_message_names_a_path_twice(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`gate check --patch` and `gate lab` on generated bad patches, the
    already-applied one included: each message names the patch once."""
    applied, _ = _patched(repo)
    paths = [applied]
    for name, data in BAD_PATCHES.items():
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(path)
    for path in paths:
        code, _, err = run(capsys, "check", "--repo", str(repo.root), "--patch", str(path))
        assert code in (2, 3), err
        assert err.count(str(path)) == 1, err
    code, out, err = run(capsys, "lab", "--repo", str(repo.root), *map(str, paths))
    for path in paths:
        lines = [x for x in (out + err).splitlines() if str(path) in x]
        assert lines and all(x.count(str(path)) == 1 for x in lines), lines


def test_an_empty_backtest_says_nothing_was_judged(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty range (and a history of one root commit) judges nothing and
    says so; the twin, a range with a commit, counts it."""
    with_rubric(repo)
    rubric = str(repo.root / ".github/blast-radius.yml")
    common = ("backtest", "--repo", str(repo.root), "--rubric-file", rubric)
    for argv in ((*common, "HEAD..HEAD"), (*common, "--last", "5")):
        code, out, _ = run(capsys, *argv)
        assert code == 0
        assert "nothing judged: no commit with a parent in " in out, out
    repo.write("app.py", "a = 2\n")
    repo.commit("change")
    code, out, _ = run(capsys, *common, "HEAD~1..HEAD")
    assert code == 0 and "1 commits judged" in out and "nothing judged" not in out
