"""`gate.rubric-edited` and `gate.workflow-edited` judge the paths a change
writes: a copy *of* the rubric or of the running workflow leaves it as it
was and passes, at any similarity git reports; an edit, a deletion, a
rename away or into its place, a mode change, or a copy written over it
fails.  Real repositories, changes read from git."""

from __future__ import annotations

import pytest

from gate.changes.git import changes_from_git
from gate.git.repo import Repo
from gate.model.change import COPIED, ChangeSet
from gate.rules.builtin import rubric_edited, workflow_edited
from tests.gitrepo import GitRepo

RUBRIC_PATH = ".github/blast-radius.yml"
WORKFLOW = ".github/workflows/blast-radius.yml"
# Long enough that git pairs near copies (50% similarity) with it.
RUBRIC = "version: 1\nrules:\n" + "".join(
    f"  - {{id: R{i:02}, kind: forbidden_path, prefix: 'area{i}/'}}\n" for i in range(30)
)
FLOW = "name: gate\non: pull_request\njobs:\n" + "".join(
    f"  job{i}:\n    runs-on: ubuntu-latest\n    steps: [{{run: echo {i}}}]\n" for i in range(12)
)
OTHER = "".join(f"an unrelated line number {i}\n" for i in range(40))


def similar(text: str, keep: float) -> str:
    """`text` with the last (1 - keep) of its lines rewritten."""
    lines = text.splitlines(keepends=True)
    cut = int(len(lines) * keep)
    return "".join(lines[:cut]) + "".join(f"rewritten {n}\n" for n in range(len(lines) - cut))


def change(repo: GitRepo, head: dict[str, str | int | None]) -> ChangeSet:
    repo.write_many({RUBRIC_PATH: RUBRIC, WORKFLOW: FLOW, "docs/other.md": OTHER})
    first = repo.commit("base")
    repo.apply(head)
    return changes_from_git(Repo(repo.root), first, repo.commit("head"), ())


COPIES = {
    "exact copy beside it": {".github/blast-radius.yml.bak": RUBRIC},
    "exact copy in a nested folder": {"docs/examples/.github/blast-radius.yml": RUBRIC},
    "copy under another case": {".github/Blast-Radius.yml": RUBRIC},
    "near copy (90%)": {"examples/rubric.yml": similar(RUBRIC, 0.9)},
    "near copy (60%)": {"examples/rubric.yml": similar(RUBRIC, 0.6)},
    "two copies and an edit elsewhere": {
        "a/rubric.yml": RUBRIC,
        "b/rubric.yaml": similar(RUBRIC, 0.8),
        "docs/other.md": OTHER + "one more\n",
    },
}


@pytest.mark.parametrize("head", COPIES.values(), ids=COPIES.keys())
def test_a_copy_of_the_rubric_leaves_it_untouched(repo: GitRepo, head: dict) -> None:
    changes = change(repo, head)
    assert any(f.status == COPIED and f.old_path == RUBRIC_PATH for f in changes.files)
    result = rubric_edited(changes, RUBRIC_PATH)
    assert result.passed, result.message
    assert result.paths == ()


EDITS = {
    "edited": {RUBRIC_PATH: RUBRIC + "# one more line\n"},
    "deleted": {RUBRIC_PATH: None},
    "mode changed": {RUBRIC_PATH: 0o755},
    "rewritten wholesale": {RUBRIC_PATH: OTHER},
    "overwritten with a copy of another file": {RUBRIC_PATH: OTHER},
    "copied away, then edited": {"keep/rubric.yml": RUBRIC, RUBRIC_PATH: RUBRIC + "x: 1\n"},
    "copied away, then deleted": {"keep/rubric.yml": RUBRIC, RUBRIC_PATH: None},
}


@pytest.mark.parametrize("head", EDITS.values(), ids=EDITS.keys())
def test_an_edit_of_the_rubric_fails(repo: GitRepo, head: dict) -> None:
    result = rubric_edited(change(repo, head), RUBRIC_PATH)
    assert not result.passed
    assert result.paths == (RUBRIC_PATH,)


@pytest.mark.parametrize("keep", [1.0, 0.9, 0.6])
def test_a_rename_away_or_into_place_fails(repo: GitRepo, keep: float) -> None:
    moved = similar(RUBRIC, keep)
    repo.write_many({RUBRIC_PATH: RUBRIC, "docs/other.md": OTHER})
    first = repo.commit("base")
    repo.remove(RUBRIC_PATH)
    repo.write("old/rubric.yml", moved)
    away = changes_from_git(Repo(repo.root), first, repo.commit("away"), ())
    assert not rubric_edited(away, RUBRIC_PATH).passed
    repo.remove("docs/other.md")
    repo.write(RUBRIC_PATH, similar(OTHER, keep))
    into = changes_from_git(Repo(repo.root), first, repo.commit("into"), ())
    assert not rubric_edited(into, RUBRIC_PATH).passed


@pytest.mark.parametrize("head", COPIES.values(), ids=COPIES.keys())
def test_a_copy_of_the_running_workflow_leaves_it_untouched(repo: GitRepo, head: dict) -> None:
    moved = {p.replace(".yml.bak", ".yml.txt"): FLOW for p in head if p != "docs/other.md"}
    changes = change(repo, moved)
    assert workflow_edited(changes, WORKFLOW).passed
    # with the running workflow unknown, a copy outside the folder passes too
    inside = any(p.startswith(".github/workflows/") for p in moved)
    assert workflow_edited(changes, None).passed is not inside


@pytest.mark.parametrize(
    "head",
    [
        {WORKFLOW: FLOW + "# edited\n"},
        {WORKFLOW: None},
        {WORKFLOW: 0o755},
        {"ci/gate.yml": FLOW, WORKFLOW: None},  # renamed away
        {".github/workflows/copy.yml": FLOW, WORKFLOW: OTHER},
    ],
    ids=["edited", "deleted", "mode changed", "renamed away", "copied, then overwritten"],
)
def test_an_edit_of_the_running_workflow_fails(repo: GitRepo, head: dict) -> None:
    changes = change(repo, head)
    assert not workflow_edited(changes, WORKFLOW).passed
    assert not workflow_edited(changes, None).passed


def test_a_copy_into_the_workflows_folder_fails_when_the_workflow_is_unknown(
    repo: GitRepo,
) -> None:
    changes = change(repo, {".github/workflows/also.yml": FLOW})
    assert workflow_edited(changes, WORKFLOW).passed
    result = workflow_edited(changes, None)
    assert not result.passed
    assert result.paths == (".github/workflows/also.yml",)
