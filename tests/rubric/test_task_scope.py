"""A task's scope block: found in Markdown (every fence CommonMark allows,
line endings, a BOM, look-alikes that are no block), read strictly (YAML
tricks, wrong types, unknown keys, every error naming the line of the issue
body or file), joined across issues, applied under the rubric's `scope:`
(`gate.judge.apply_scope`), and `gate check --scope FILE` end to end.

The Action's side (who may write a block, GraphQL, notes) is
tests/action/test_issue_scope.py."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from gate.base.errors import GateError
from gate.commands.cli import main
from gate.judge import apply_scope
from gate.model.rubric import Scope
from gate.rubric.load import load_rubric_bytes
from gate.rubric.task_scope import combine, find_block, parse_block, read_scope
from tests.gitrepo import GitRepo

RUBRIC = """\
rules:
  - {id: FILES, kind: max_files, limit: 10, exclude: ["*.lock"]}
  - {id: LINES, kind: max_lines, limit: 400}
  - {id: DOCS, kind: forbidden_paths, paths: ["docs/"], level: warn}
  - {id: TESTS, kind: test_drift}
"""
BLOCK = 'paths: ["src/**"]\nmax_files: 2\nlevels: {DOCS: fail}\n'
WANTED = Scope(("s",), paths=("src/**",), max_files=2, levels={"DOCS": "fail"})


def rubric(mode: str = "tighten", text: str = RUBRIC) -> object:
    return load_rubric_bytes(f"{text}scope: {mode}\n".encode(), "r.yml")


# -- finding the block -------------------------------------------------------

FENCES = ["```", "````", "~~~", "~~~~~"]
INDENTS = ["", " ", "   "]
INFOS = [
    "blast-radius-scope",
    "Blast-Radius-Scope",
    "BLAST-RADIUS-SCOPE",
    "blast-radius-scope yaml",
]
ENDINGS = ["\n", "\r\n", "\r"]


@pytest.mark.parametrize(
    ("fence", "indent", "info", "ending"),
    list(itertools.product(FENCES, INDENTS, INFOS, ENDINGS))[::5],
)
def test_every_fence_commonmark_allows_is_found(
    fence: str, indent: str, info: str, ending: str
) -> None:
    body_lines = [indent + line for line in BLOCK.splitlines()]
    text = ending.join(
        ["Fix it.", "", f"{indent}{fence}{info}", *body_lines, f"{indent}{fence}", "", "Thanks"]
    )
    found = find_block(text, "s")
    assert found is not None
    line, block = found
    assert line == 3
    assert parse_block(block, "s", line) == WANTED


@pytest.mark.parametrize(
    "text",
    [
        "    ```blast-radius-scope\n    max_files: 1\n    ```\n",  # indented code, not a fence
        "```blast-radius-scopes\nmax_files: 1\n```\n",  # another info string
        "```yaml blast-radius-scope\nmax_files: 1\n```\n",  # the word is not first
        "```bl\u0430st-radius-scope\nmax_files: 1\n```\n",  # a Cyrillic a
        "Use `blast-radius-scope` blocks.\n",  # inline code
        "````md\n```blast-radius-scope\nmax_files: 1\n```\n````\n",  # inside another fence
        "~~~\n```blast-radius-scope\nmax_files: 1\n```\n~~~\n",
    ],
)
def test_look_alikes_are_no_block(text: str) -> None:
    assert find_block(text, "issue #3") is None


def test_two_blocks_and_an_unclosed_block_name_their_line() -> None:
    two = "```blast-radius-scope\nmax_files: 1\n```\n\n~~~blast-radius-scope\nmax_files: 9\n~~~\n"
    with pytest.raises(GateError, match=r"issue #3, line 5: a second blast-radius-scope block"):
        find_block(two, "issue #3")
    with pytest.raises(GateError, match=r"issue #3, line 2: .* never closed; end it with ```"):
        find_block("x\n```blast-radius-scope\nmax_files: 1\n", "issue #3")
    shorter = "````blast-radius-scope\nmax_files: 1\n```\n"  # a shorter fence does not close
    with pytest.raises(GateError, match="never closed"):
        find_block(shorter, "issue #3")


# -- reading the block ---------------------------------------------------------

BAD = [
    ("max_files: two", "max_files: 'two' is not of type 'integer'"),
    ("max_files: 2.0", "max_files: 2.0 is not a whole number"),
    ("max_files: true", "max_files: True is not of type 'integer'"),
    ("max_files: -1", "max_files: -1 is less than the minimum of 0"),
    ('max_files: "3"', "max_files: '3' is not of type 'integer'"),
    ("paths: []", "paths"),
    ("paths: src/", "paths: 'src/' is not of type 'array'"),
    ("paths: ['']", "paths"),
    ("levels: {DOCS: WARN}", "levels.DOCS: 'WARN' is not a level; use fail or warn"),
    ("levels: {DOCS: off}", "False is not a level; use fail or warn (YAML reads an unquoted off"),
    ("levels: {DOCS: warning}", "levels.DOCS: 'warning' is not a level"),
    ("levels: {}", "levels"),
    ("max_file: 2", "unknown key 'max_file'; allowed keys: paths, max_files, max_lines, levels"),
    ("max_files: 1\nmax_files: 2", "duplicate"),
    ("a: &x 1\nmax_files: *x", "alias"),
    ("<<: {max_files: 1}", "merge"),
    ("max_files: !!python/int 3", "tag"),
    ("- max_files: 1", "is not of type 'object'"),
    ("", "the block is empty"),
    ("max_files: [", "YAML syntax error"),
]


@pytest.mark.parametrize(("text", "expected"), BAD, ids=[t for t, _ in BAD])
def test_a_malformed_block_is_one_sentence_naming_the_body_line(text: str, expected: str) -> None:
    body = f"Task.\n\n```blast-radius-scope\n{text}\n```\n"
    found = find_block(body, "issue #3")
    assert found is not None
    with pytest.raises(GateError) as info:
        parse_block(found[1], "issue #3", found[0])
    message = str(info.value)
    assert message.startswith("invalid scope block: issue #3"), message
    assert expected.lower() in message.lower(), message
    assert "invalid rubric" not in message
    if text and "empty" not in expected:
        assert ", line 4" in message or ", line 5" in message, message


def test_a_bad_glob_names_its_line() -> None:
    with pytest.raises(
        GateError, match=r"issue #3, line 5: paths\[1\] '!src/x' is not a usable glob: negation"
    ):
        parse_block('paths:\n  - src/\n  - "!src/x"\n', "issue #3", 2)


def test_a_file_holds_a_block_or_is_one() -> None:
    assert read_scope(f"```blast-radius-scope\n{BLOCK}```\n".encode(), "s") == WANTED
    assert read_scope(BLOCK.encode(), "s") == WANTED
    assert read_scope(b"\xef\xbb\xbf" + BLOCK.replace("\n", "\r\n").encode(), "s") == WANTED
    with pytest.raises(GateError, match="s, line 2: not UTF-8"):
        read_scope(b"max_files: 1\n\xff\n", "s")


# -- joining and applying --------------------------------------------------------


def test_scopes_join_as_one_task() -> None:
    one = Scope(("issue #1",), paths=("a/",), max_files=1, max_lines=10, levels={"A": "warn"})
    two = Scope(
        ("issue #2",), paths=("b/",), max_files=2, max_lines=5, levels={"A": "warn", "B": "fail"}
    )
    both = combine([one, two])
    assert both == Scope(
        ("issue #1", "issue #2"),
        paths=("a/", "b/"),
        max_files=3,
        max_lines=15,
        levels={"A": "warn", "B": "fail"},
    )
    open_ended = Scope(("issue #3",), levels={"A": "fail"})
    joined = combine([one, two, open_ended])
    assert joined is not None
    assert (joined.paths, joined.max_files, joined.max_lines) == (None, None, None)
    assert joined.levels == {"A": "fail", "B": "fail"}  # relaxed only where all relax
    assert combine([]) is None
    assert combine([one]) is one


@pytest.mark.parametrize(
    ("mode", "files", "lines", "expected_files", "expected_lines"),
    [
        ("tighten", 2, 900, 2, 400),
        ("tighten", 20, 100, 10, 100),
        ("loosen", 20, 100, 20, 100),
        ("loosen", 2, 900, 2, 900),
    ],
)
def test_budgets_tighten_to_the_lower_or_loosen_to_the_scopes(
    mode: str, files: int, lines: int, expected_files: int, expected_lines: int
) -> None:
    scoped, note = apply_scope(rubric(mode), Scope(("s",), max_files=files, max_lines=lines))  # type: ignore[arg-type]
    limits = {r.id: r.params["limit"] for r in scoped.rules if "limit" in r.params}
    assert limits == {"FILES": expected_files, "LINES": expected_lines}
    assert scoped.rules[0].params["exclude"] == ("*.lock",)  # the rubric's excludes stay
    assert note.mode == mode


def test_a_rubric_without_budgets_gets_the_scopes_and_paths_add_a_rule() -> None:
    plain = "rules:\n  - {id: DOCS, kind: forbidden_paths, paths: [docs/]}\n"
    scoped, note = apply_scope(
        rubric("tighten", plain), Scope(("s",), paths=("src/",), max_lines=5)
    )  # type: ignore[arg-type]
    added = {r.id: (r.kind, dict(r.params)) for r in scoped.rules[1:]}
    assert added["gate.scope.max_lines"][0] == "max_lines"
    assert added["gate.scope.max_lines"][1]["limit"] == 5
    assert added["gate.scope.paths"] == ("allowed_paths", {"paths": ("src/",)})
    assert note.changes == ("gate.scope.max_lines limit 5", "gate.scope.paths paths src/")


def test_levels_fail_in_both_modes_and_warn_only_when_loosening() -> None:
    scope = Scope(("s",), levels={"DOCS": "fail", "TESTS": "warn"})
    tight, note = apply_scope(rubric("tighten"), scope)  # type: ignore[arg-type]
    assert {r.id: r.level for r in tight.rules}["DOCS"] == "fail"
    assert {r.id: r.level for r in tight.rules}["TESTS"] == "fail"
    assert note.refused == ("TESTS to warn (the rubric's scope: tighten only tightens)",)
    loose, note = apply_scope(rubric("loosen"), scope)  # type: ignore[arg-type]
    assert {r.id: r.level for r in loose.rules}["TESTS"] == "warn"
    assert note.refused == ()


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        ({"gate.rubric-edited": "warn"}, "gate.rubric-edited is a built-in rule"),
        ({"docs": "fail"}, "the rubric has no rule 'docs'"),
        ({"FILES ": "fail"}, "the rubric has no rule 'FILES '"),
    ],
)
def test_levels_name_rubric_rules_only(levels: dict[str, str], expected: str) -> None:
    with pytest.raises(GateError, match=expected):
        apply_scope(rubric("loosen"), Scope(("issue #3",), levels=levels))  # type: ignore[arg-type]


def test_a_rubric_that_reads_no_scope_refuses_one() -> None:
    plain = load_rubric_bytes(RUBRIC.encode(), "r.yml")
    with pytest.raises(GateError, match="says scope: none; add `scope: tighten`"):
        apply_scope(plain, WANTED)


# -- gate check --scope ------------------------------------------------------------


def test_gate_check_scope_file_end_to_end(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write_many(
        {".github/blast-radius.yml": RUBRIC + "scope: tighten\n", "src/a.py": "A = 1\n"}
    )
    base = repo.commit("base")
    repo.write_many({"src/b.py": "B = 1\n", "src/c.py": "C = 1\n", "docs/x.md": "x\n"})
    repo.commit("change")
    issue = tmp_path / "issue.md"
    issue.write_text(f"Fix.\r\n\r\n```blast-radius-scope\r\n{BLOCK}```\r\n", encoding="utf-8")
    out = tmp_path / "r.json"
    code = main(
        [
            "check",
            "--repo",
            str(repo.root),
            "--base",
            base,
            "--scope",
            str(issue),
            "--output",
            str(out),
        ]
    )
    assert code == 1
    report = json.loads(out.read_text())
    assert report["failed"] == ["FILES", "DOCS", "gate.scope.paths"]
    assert report["scope"]["from"] == [str(issue)]
    assert "scope of" in capsys.readouterr().out
    without = main(["check", "--repo", str(repo.root), "--base", base])
    assert without == 0  # DOCS only warns, FILES is 3 of 10
    issue.write_text("```blast-radius-scope\nmax_files: x\n```\n", encoding="utf-8")
    assert main(["check", "--repo", str(repo.root), "--base", base, "--scope", str(issue)]) == 2
    err = capsys.readouterr().err
    assert f"invalid scope block: {issue}, line 2: max_files" in err
    assert "Traceback" not in err


def test_gate_lab_judges_every_patch_with_the_scope(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lab's verdicts are `gate check --scope`'s: the same scope fails
    the patch that leaves its paths, and a rubric that reads no scope
    refuses it once (exit 2)."""
    repo.write_many(
        {".github/blast-radius.yml": RUBRIC + "scope: tighten\n", "src/a.py": "A = 1\n"}
    )
    repo.commit("base")
    inside = tmp_path / "inside.patch"
    inside.write_text("--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-A = 1\n+A = 2\n")
    outside = tmp_path / "outside.patch"
    outside.write_text("--- /dev/null\n+++ b/lib/b.py\n@@ -0,0 +1 @@\n+B = 1\n")
    scope = tmp_path / "scope.yml"
    scope.write_text('paths: ["src/**"]\n')
    args = ["lab", str(inside), str(outside), "--repo", str(repo.root), "--format", "json"]
    assert main([*args, "--scope", str(scope)]) == 1
    board = json.loads(capsys.readouterr().out)
    failed = {Path(e["patch"]).name: e["failed"] for e in board["patches"]}
    assert failed == {"inside.patch": [], "outside.patch": ["gate.scope.paths"]}
    assert main(args) == 0
    capsys.readouterr()
    repo.write_many({".github/blast-radius.yml": RUBRIC})
    repo.commit("no scope")
    assert main([*args, "--scope", str(scope)]) == 2
    assert "says scope: none" in capsys.readouterr().err
