"""Class 9 of docs/hostile-input.md: a content rule's file that is not a
regular file on either side (a symlink, a submodule, a folder) fails the
rule, from every source that can carry the change.

Commits are built with git's plumbing (`tests.gitrepo.GitRepo.commit_tree`),
so a symlink's blob can be any text (the old file's own text included) and a
submodule needs no second repository; `gate check` judges them from commits
and, as a unified diff from `git diff --binary`, through `--patch`.  The PR
files API lists a type change as `changed` and its contents API reads a
symlink to a file of the repository as that file's text: that source is
judged with the same texts a follow-the-link reader would give.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.changes.api import changes_from_api, listing
from gate.commands.cli import main
from gate.github.client_types import PullFile
from gate.judge import evaluate
from gate.rubric.load import load_rubric_bytes
from gate.rules import text_wants
from tests.base.test_hostile_paths import GIT
from tests.gitrepo import GitRepo

F = b"pkg/clamp_kit.py"
OLD = b"import os\n\n\ndef clamp(x):\n    return x\n"
RULES = {
    "keep_lines": 'lines: ["import os"]',
    "keep_symbols": 'symbols: ["clamp"]',
    "confine_to_symbols": 'symbols: ["clamp"]',
}
SUBMODULE = b"0123456789abcdef0123456789abcdef01234567"


def rubric(kind: str) -> bytes:
    return f"rules:\n  - {{id: R, kind: {kind}, file: {F.decode()}, {RULES[kind]}}}\n".encode()


# What stands at F instead of a regular file: (tree entries for F, the text
# a reader that follows links would read there, if any).
FORMS = ("symlink", "submodule", "folder")


@st.composite
def not_a_file(
    draw: st.DrawFn, form: str | None = None
) -> tuple[str, dict[bytes, tuple[str, bytes]], bytes | None]:
    if form is None:
        form = draw(st.sampled_from(FORMS))
    if form == "symlink":
        target = draw(
            st.one_of(
                st.just(OLD),  # the link's own text spells the old file
                st.just(b"real.py"),  # a link to a file that holds the old text
                st.binary(min_size=1, max_size=40).filter(lambda b: b"\0" not in b),
            )
        )
        followed = OLD if target == b"real.py" else target
        return form, {F: ("120000", target)}, followed
    if form == "submodule":
        return form, {F: ("160000", SUBMODULE)}, None
    name = draw(st.sampled_from([b"__init__.py", b"x.py", b"clamp_kit.py", b"a/b"]))
    return form, {F + b"/" + name: ("100644", OLD)}, None


SIDES = st.sampled_from(["head", "base"])  # where F is not a regular file


def trees(
    entries: dict[bytes, tuple[str, bytes]], side: str
) -> tuple[dict[bytes, tuple[str, bytes]], dict[bytes, tuple[str, bytes]]]:
    common = {b"real.py": ("100644", OLD), b"pkg/other.py": ("100644", b"y = 1\n")}
    regular = {F: ("100644", OLD)}
    other = {**common, **entries}
    return ({**common, **regular}, other) if side == "head" else (other, {**common, **regular})


def gate_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main([*argv, "--format", "json"])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return code, json.loads(out)


def rule_r(report: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in report["results"] if r["id"] == "R")


@pytest.mark.parametrize("kind", sorted(RULES))
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("side", ["head", "base"])
@settings(GIT, max_examples=4)
@given(data=st.data())
def test_a_content_file_that_is_not_a_regular_file_fails_from_git_and_patch(
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
    kind: str,
    form: str,
    side: str,
    data: st.DataObject,
) -> None:
    """Every rule x form x side; hypothesis draws the link's text (the old
    file's own text, a link to a copy of it, any bytes) and the file inside
    the folder."""
    _, entries, _ = data.draw(not_a_file(form))
    root = tmp_path_factory.mktemp("types") / "repo"
    repo = GitRepo(root)
    base_tree, head_tree = trees(entries, side)
    base = repo.commit_tree(base_tree)
    head = repo.commit_tree(head_tree, base)
    rubric_file = root.parent / "rubric.yml"
    rubric_file.write_bytes(rubric(kind))
    common = ["check", "--repo", str(root), "--rubric-file", str(rubric_file), "--base", base]
    code, report = gate_json(capsys, [*common, "--head", head])
    verdict = rule_r(report)
    assert code == 1 and not verdict["pass"], (form, side, verdict)
    assert "regular file" in verdict["message"]
    assert F.decode() in verdict["paths"] or any(
        p.startswith(F.decode() + "/") for p in verdict["paths"]
    )
    patch = root.parent / "change.patch"
    patch.write_bytes(repo.git_bytes("diff", "--binary", "--full-index", base, head))
    code, report = gate_json(capsys, [*common, "--patch", str(patch)])
    assert code == 1 and "regular file" in rule_r(report)["message"], (form, side)


@given(kind=st.sampled_from(sorted(RULES)), replaced=not_a_file(), side=SIDES)
def test_a_type_change_from_the_files_api_fails(
    kind: str, replaced: tuple[str, dict[bytes, tuple[str, bytes]], bytes | None], side: str
) -> None:
    """GitHub lists a file <-> symlink or submodule change as `changed` (no
    modes), and reads a symlink to a file of the repository as that file:
    the texts may be equal, the rule still fails.  A folder is a removal
    (or a rename) plus additions under it."""
    form, entries, followed = replaced
    base_tree, head_tree = trees(entries, side)
    names = sorted(set(base_tree) | set(head_tree))
    files = []
    for raw in names:
        old, new = base_tree.get(raw), head_tree.get(raw)
        if old == new:
            continue
        status = "added" if old is None else "removed" if new is None else "changed"
        if old is not None and new is not None and old[0] == new[0]:
            status = "modified"
        files.append(
            PullFile(
                filename=raw.decode(),
                status=status,
                additions=1,
                deletions=1,
                changes=2,
                previous_filename=None,
                has_patch=True,
            )
        )

    def read_file(ref: str, path: str) -> bytes | None:
        tree = base_tree if ref == "base" else head_tree
        entry = tree.get(path.encode())
        if entry is None or entry[0] == "160000":
            return None
        return followed if entry[0] == "120000" else entry[1]

    rubric_value = load_rubric_bytes(rubric(kind), "rubric.yml")
    changes = changes_from_api(
        listing(files, len(files)),
        base="base",
        head="head",
        content_files=text_wants(rubric_value.rules),
        read_file=read_file,
    )
    report = evaluate(rubric_value, changes)
    verdict = next(r for r in report.results if r.id == "R")
    assert not verdict.passed, (form, side, verdict.message)
    assert "regular file" in verdict.message


def test_a_regular_file_on_both_sides_is_still_judged_by_its_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The control: a mode change (100644 -> 100755) is no type change, and
    a kept line that stays passes."""
    repo = GitRepo(tmp_path / "repo")
    base = repo.commit_tree({F: ("100644", OLD)})
    head = repo.commit_tree({F: ("100755", OLD + b"# note\n")}, base)
    for kind in RULES:
        rubric_file = tmp_path / f"{kind}.yml"
        rubric_file.write_bytes(rubric(kind))
        argv = ["check", "--repo", str(repo.root), "--rubric-file", str(rubric_file)]
        code, report = gate_json(capsys, [*argv, "--base", base, "--head", head])
        assert "regular file" not in rule_r(report)["message"], kind
        if kind != "confine_to_symbols":  # a comment outside clamp is outside
            assert code == 0, report
