"""One meaning per word: a flag means the same in every command that takes it.

Every parser `gate.commands.cli.build_parser` builds is walked: each visible flag's
help starts with its meaning in `gate.commands.cli.MEANINGS`, and a flag has one
dest, metavar, type and short form everywhere.  Every hidden flag is an old
spelling listed in `gate.commands.cli.DEPRECATED`, and gives exactly what the new
spelling gives, plus one sentence on stderr.  The Words section of
docs/commands.md lists every meaning and every alias.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lab_fixture import build_lab

from gate.commands.cli import DEPRECATED, MEANINGS, SPEC_SPELLINGS, build_parser, deprecation, main

HIDDEN = {**DEPRECATED, **SPEC_SPELLINGS}

ROOT = Path(__file__).resolve().parents[2]
COMMANDS_DOC = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
WORDS = COMMANDS_DOC.split("\n## Words\n", 1)[1].split("\n## ", 1)[0]


def commands(
    parser: argparse.ArgumentParser, prefix: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every (command name, parser), subcommands included (`loop run`)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                full = f"{prefix} {name}".strip()
                yield full, sub
                yield from commands(sub, full)


def flags(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.Action]]:
    """(long flag, action) for every option but --help."""
    for action in parser._actions:
        if not action.option_strings or isinstance(action, argparse._HelpAction):
            continue
        long = next(s for s in action.option_strings if s.startswith("--"))
        yield long, action


def shape(action: argparse.Action) -> tuple[object, ...]:
    """What a flag must keep the same in every command; `--format`'s choices
    are the command's own forms (`test_format_choices`)."""
    return (
        action.dest,
        action.metavar,
        action.type,
        action.nargs,
        None if action.dest == "format" else action.choices,
        action.const,
        tuple(sorted(action.option_strings)),
    )


def problems(parser: argparse.ArgumentParser) -> list[str]:
    """Every way `parser` gives a flag a second meaning, or hides an unlisted one."""
    found: list[str] = []
    seen: dict[str, tuple[str, tuple[object, ...]]] = {}
    for command, sub in commands(parser):
        visible = {flag: action for flag, action in flags(sub) if action.help != argparse.SUPPRESS}
        for flag, action in flags(sub):
            if action.help == argparse.SUPPRESS:
                if (command, flag) not in HIDDEN:
                    found.append(
                        f"gate {command} {flag}: hidden, but not a listed deprecated alias"
                    )
                    continue
                new = HIDDEN[(command, flag)][0]
                if new not in visible or visible[new].dest != action.dest:
                    found.append(f"gate {command} {flag}: does not store what {new} stores")
                continue
            meaning = MEANINGS.get(flag)
            if meaning is None:
                found.append(f"gate {command} {flag}: no meaning in gate.commands.cli.MEANINGS")
                continue
            if not str(action.help).startswith(meaning):
                found.append(f"gate {command} {flag}: help {action.help!r} is not {meaning!r}")
            first = seen.setdefault(flag, (command, shape(action)))
            if first[1] != shape(action):
                theirs = f"gate {first[0]}'s {first[1]}"
                found.append(f"gate {command} {flag}: {shape(action)} differs from {theirs}")
    return found


def test_every_flag_has_its_one_meaning_in_every_command() -> None:
    assert problems(build_parser()) == []


def test_format_choices() -> None:
    """`--format` offers text, json and markdown everywhere, and a verdict's
    github and sarif only where a command prints a verdict."""
    from gate.commands.cli import FORMATS, VERDICT_FORMATS

    for command, sub in commands(build_parser()):
        for flag, action in flags(sub):
            if flag == "--format":
                want = VERDICT_FORMATS if command in ("check", "grade") else FORMATS
                assert tuple(action.choices or ()) == want, command


def test_every_meaning_and_alias_is_used_and_documented() -> None:
    parser = build_parser()
    used = {flag for _, sub in commands(parser) for flag, _ in flags(sub)}
    assert set(MEANINGS) <= used, "a meaning no command uses"
    for (command, old), (new, _) in HIDDEN.items():
        assert (command, old) in {(c, f) for c, sub in commands(parser) for f, _ in flags(sub)}
        assert f"| `gate {command} {old} FILE` | `gate {command} {new} FILE` |" in WORDS
    takers: dict[str, int] = {}
    for _, sub in commands(parser):
        for flag, action in flags(sub):
            if action.help != argparse.SUPPRESS:
                takers[flag] = takers.get(flag, 0) + 1
    shared = {flag for flag, n in takers.items() if n > 1}
    documented = set(re.findall(r"^\| `(--[a-z-]+)", WORDS, re.M))
    documented |= set(re.findall(r"^\| `--[a-z-]+ [A-Z]+`, `(--[a-z-]+)", WORDS, re.M))
    assert shared <= documented, "a flag several commands take is missing from Words"
    assert documented <= set(MEANINGS), "Words names a flag gate.commands.cli does not have"


@settings(max_examples=40, deadline=None)
@given(
    flag=st.sampled_from(sorted(MEANINGS)),
    other=st.text(alphabet="abcdefghij ", min_size=1, max_size=20),
    where=st.integers(min_value=0),
)
def test_a_second_meaning_anywhere_is_caught(flag: str, other: str, where: int) -> None:
    """The check fails for a flag given another meaning in any command, or another dest."""
    parser = build_parser()
    subs = [sub for _, sub in commands(parser) if flag not in dict(flags(sub))]
    if not subs:
        return
    sub = subs[where % len(subs)]
    sub.add_argument(flag, help=f"{other.strip() or 'x'}!")
    assert any("is not" in p for p in problems(parser))
    parser = build_parser()
    sub = [sub for _, sub in commands(parser) if flag not in dict(flags(sub))][where % len(subs)]
    sub.add_argument(flag, dest="elsewhere", metavar="ELSE", help=MEANINGS[flag])
    assert any("differs" in p for p in problems(parser))


def test_a_hidden_flag_must_be_a_listed_alias() -> None:
    parser = build_parser()
    _, check = next((c, s) for c, s in commands(parser) if c == "check")
    check.add_argument("--stdout", dest="stdout_file", help=argparse.SUPPRESS)
    assert problems(parser) == ["gate check --stdout: hidden, but not a listed deprecated alias"]


def test_deprecated_aliases_are_hidden_from_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command, old in HIDDEN:
        with pytest.raises(SystemExit):
            main([*command.split(), "--help"])
        text = capsys.readouterr().out
        assert HIDDEN[(command, old)][0] in text
        assert not re.search(rf"{re.escape(old)}\b(?!-)", text), (command, old)


# --- each alias gives what its replacement gives ----------------------------


def _grade_inputs(tmp_path: Path) -> tuple[str, str]:
    rubric = tmp_path / "rubric.yml"
    rubric.write_text("rules:\n  - {id: F1, kind: max_files, limit: 1}\n", encoding="utf-8")
    result = tmp_path / "result.json"
    paths = ["src/app.py", "::error::x"]
    result.write_text(json.dumps({"files_touched": 2, "stdout": "", "paths": paths}))
    return str(result), str(rubric)


def _unfenced(out: str) -> str:
    """stdout without the random workflow fence token."""
    return re.sub(r"gate-[0-9a-f]{32}", "TOKEN", out)


@pytest.mark.parametrize("in_workflow", [False, True])
@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_grade_rubric_is_the_spec_spelling_of_rubric_file(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys, monkeypatch, fmt: str, in_workflow: bool
) -> None:
    if in_workflow:
        monkeypatch.setenv("GITHUB_ACTIONS", "true")
    else:
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result, rubric = _grade_inputs(tmp_path)
    runs = {}
    for flag in ("--rubric-file", "--rubric"):
        report = tmp_path / f"{flag}.json"
        argv = ["grade", result, flag, rubric, "--format", fmt, "--output", str(report)]
        code = main(argv)
        captured = capsys.readouterr()
        runs[flag] = (code, _unfenced(captured.out), report.read_bytes(), captured.err)
    new, old = runs["--rubric-file"], runs["--rubric"]
    assert new[0] == old[0] == 1
    assert new == old  # stdout, the report file and stderr: SPEC's spelling says nothing
    assert new[3] == ""
    if fmt == "json":  # stdout is exactly one JSON document, never a command
        assert json.loads(old[1])["failed"] == ["F1"]
        assert not any(line.startswith("::") for line in old[1].splitlines())
    elif in_workflow:
        assert old[1].startswith("::stop-commands::TOKEN\n")


def test_grade_rubric_and_rubric_file_together_is_a_usage_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    result, rubric = _grade_inputs(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["grade", result, "--rubric", rubric, "--rubric-file", rubric])
    assert exc.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    # The loop's required --results, in either spelling, but not both.
    with pytest.raises(SystemExit) as exc:
        main(["loop", "merge", result, "--out", "a", "--results", "b"])
    assert exc.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["loop", "merge", result, "--html", str(tmp_path / "board.html")])
    assert exc.value.code == 2
    assert "the following arguments are required: --results" in capsys.readouterr().err
    assert not Path("a").exists() and not Path("b").exists()
    with pytest.raises(SystemExit) as exc:
        main(["grade", result])
    assert exc.value.code == 2
    assert "the following arguments are required: --rubric-file" in capsys.readouterr().err


def test_loop_out_is_results(repo, tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    build_lab(repo)
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "fix.txt").write_text("Fix clamp().\n")
    runs = {}
    for flag in ("--results", "--out"):
        results = tmp_path / f"run{flag}.jsonl"
        argv = ["loop", "run", "--repo", str(repo.root), "--writer", "w=true", "--prompts"]
        argv += [str(prompts), "--test-cmd", "true", flag, str(results), "--format", "json"]
        code = main(argv)
        captured = capsys.readouterr()
        merged = tmp_path / f"merged{flag}.jsonl"
        merge_code = main(["loop", "merge", str(results), flag, str(merged)])
        merge_err = capsys.readouterr().err
        runs[flag] = (code, captured.out, results.read_bytes(), merge_code, merged.read_bytes())
        runs[flag + " err"] = (captured.err, merge_err)  # type: ignore[assignment]
    assert runs["--results"] == runs["--out"]
    assert runs["--results"][2]  # one attempt was recorded
    assert json.loads(runs["--out"][1])  # stdout stays one JSON document
    assert "deprecated" not in "".join(runs["--results err"])
    run_err, merge_err = runs["--out err"]
    assert deprecation("loop run", "--out") in run_err.splitlines()
    assert merge_err == deprecation("loop merge", "--out") + "\n"
