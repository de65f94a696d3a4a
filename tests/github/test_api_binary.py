"""API mode never counts a binary file as 0 lines.

GitHub's PR files listing gives a binary file no patch and 0 additions and
deletions.  Git mode counts such a file line by line (every old line
deleted, every new line added); the listing cannot, so its counts are
unknown and `max_lines` fails closed, naming the file and the way out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Scenario
from test_api_merge_base import judge_both_ways

from gate.changes import EMPTY_BLOBS, FileChange
from gate.github.api_changes import BINARY_UNCOUNTED, RENAME_UNCOUNTED, file_change
from gate.github.client import PullFile


def entry(status: str, added: int = 0, deleted: int = 0, **kw: object) -> PullFile:
    return PullFile(
        filename="f",
        status=status,
        additions=added,
        deletions=deleted,
        changes=added + deleted,
        previous_filename=kw.get("previous_filename"),  # type: ignore[arg-type]
        has_patch=bool(kw.get("has_patch", False)),
        sha=kw.get("sha"),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("listed", "counts", "binary", "why"),
    [
        (entry("added"), (None, None), True, BINARY_UNCOUNTED),
        (entry("added", sha="1" * 40), (None, None), True, BINARY_UNCOUNTED),
        (entry("removed"), (None, None), True, BINARY_UNCOUNTED),
        (entry("modified"), (None, None), True, BINARY_UNCOUNTED),
        (entry("renamed", previous_filename="e"), (None, None), False, RENAME_UNCOUNTED),
        (entry("copied", previous_filename="e"), (None, None), False, RENAME_UNCOUNTED),
        (entry("changed"), (None, None), False, RENAME_UNCOUNTED),
        # an empty file added: its blob is the empty blob, so it adds nothing
        (entry("added", sha=EMPTY_BLOBS[0]), (0, 0), False, None),
        (entry("added", sha=EMPTY_BLOBS[1]), (0, 0), False, None),
        # anything with a patch or counts is text, counted by GitHub
        (entry("modified", 3, 1, has_patch=True), (3, 1), False, None),
        (entry("renamed", 2, 0, has_patch=True, previous_filename="e"), (2, 0), False, None),
        (entry("modified", 5, 0), (5, 0), False, None),  # a patch too large to show
    ],
)
def test_listing_entries_without_counts_are_unknown_never_zero(
    listed: PullFile, counts: tuple[int | None, int | None], binary: bool, why: str | None
) -> None:
    change = file_change(listed)
    assert isinstance(change, FileChange)
    assert (change.added, change.deleted) == counts
    assert change.binary is binary
    assert change.uncounted == why


LINES_RUBRIC = """\
rules:
  - id: LINES
    kind: max_lines
    limit: 100
  - id: LINES_NO_IMAGES
    kind: max_lines
    limit: 100
    exclude: ["*.bin"]
"""


def test_a_binary_file_fails_max_lines_closed_in_api_mode_and_is_counted_in_git_mode(
    scenario: Scenario, tmp_path: Path
) -> None:
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    repo.write(".github/lines.yml", LINES_RUBRIC)
    scenario.base = repo.commit("rubric")
    repo.git("checkout", "-q", "feature")
    scenario.inputs["rubric-path"] = ".github/lines.yml"
    scenario.push({"img.bin": b"\0\n" * 3, "pkg/__init__.py": ""})
    git_out, api_out, _ = judge_both_ways(scenario, tmp_path)
    git_report, api_report = git_out.report(), api_out.report()
    assert git_out.code == 0, git_out.log
    git_lines = {r["id"]: r for r in git_report["results"]}["LINES"]
    assert git_lines["message"].startswith("3 lines changed (3 added, 0 deleted); limit 100")
    assert api_out.code == 1
    assert api_report["failed"] == ["LINES"]
    lines = {r["id"]: r for r in api_report["results"]}["LINES"]
    assert lines["paths"] == ["img.bin"]
    assert lines["message"] == (
        '1 file cannot be counted ("img.bin"): ' + BINARY_UNCOUNTED + "; leave such files out "
        "of the change or out of this rule (`exclude`)"
    )
