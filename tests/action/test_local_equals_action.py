"""A local verdict is the Action's verdict: `gate check` on the same commits gives the
same failed ids, the same per-rule verdicts and the same exit code as `gate action`
(minus the two built-ins only the Action can compute)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Scenario

from gate.commands.cli import main
from gate.rules.builtin import DIFF_INCOMPLETE, WORKFLOW_EDITED

ACTION_ONLY = {WORKFLOW_EDITED, DIFF_INCOMPLETE}
SPRAWL = {f"lib/mod{i}.py": f"V = {i}\n" for i in range(5)}

CHANGES: dict[str, dict[str, Any]] = {
    "honest fix": {"files": {"app.py": "def main():\n    return 2\n"}},
    "sprawl": {"files": SPRAWL},
    "secrets": {"files": {"secrets/key": "k\n"}},
    "main removed": {"files": {"app.py": "def run():\n    return 1\n"}},
    "rubric edited": {"files": {".github/blast-radius.yml": "rules: []\n"}},
    "test bent and file renamed": {
        "files": {"tests/test_app.py": "def test_main():\n    assert 1\n"},
        "renames": {"lib/util.py": "lib/helpers.py"},
    },
}


def local_check(scenario: Scenario, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    capsys.readouterr()
    root = str(scenario.repo.root)
    code = main(
        [
            "check",
            "--repo",
            root,
            "--base",
            scenario.base,
            "--head",
            scenario.head,
            "--format",
            "json",
        ]
    )
    return code, json.loads(capsys.readouterr().out)


def comparable(report: dict[str, Any]) -> tuple[list[str], list[tuple[str, bool]]]:
    failed = [i for i in report["failed"] if i not in ACTION_ONLY]
    results = [(r["id"], r["pass"]) for r in report["results"] if r["id"] not in ACTION_ONLY]
    return failed, results


@pytest.mark.parametrize("examples_agree", [True, False])
@pytest.mark.parametrize("name", sorted(CHANGES))
def test_gate_check_gives_the_actions_verdict(
    scenario: Scenario, capsys: pytest.CaptureFixture[str], name: str, examples_agree: bool
) -> None:
    if not examples_agree:  # a rubric whose own examples disagree: both must refuse to pass
        rubric = (scenario.repo.root / ".github/blast-radius.yml").read_text()
        scenario.repo.git("checkout", "-q", "main")
        scenario.repo.write(
            ".github/blast-radius.yml", rubric.replace("expect: [F1]", "expect: pass")
        )
        scenario.base = scenario.repo.commit("an example that disagrees")
        scenario.repo.git("checkout", "-q", "-B", "feature")
    change = CHANGES[name]
    scenario.push(change["files"], renames=change.get("renames"))
    action = scenario.run()
    assert action.code in (0, 1), action.log
    code, local = local_check(scenario, capsys)
    assert code == action.code
    assert comparable(local) == comparable(action.report())
    assert ("gate.rubric-selftest" in local["failed"]) is not examples_agree
    assert local["rubric_sha256"] == action.report()["rubric_sha256"]


def test_several_merge_bases_are_noted_by_both(
    scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    """Criss-cross merges: the PR's base and head share two merge bases."""
    repo = scenario.repo
    repo.write("x.txt", "x\n")
    x = repo.commit("x on the PR branch")
    repo.git("checkout", "-q", "main")
    repo.write("y.txt", "y\n")
    y = repo.commit("y on main")
    repo.git("merge", "-q", "--no-edit", x)
    scenario.base = repo.head()
    repo.git("checkout", "-q", "feature")
    repo.git("merge", "-q", "--no-edit", y)
    scenario.push({"app.py": "def main():\n    return 2\n"})
    bases = repo.git("merge-base", "--all", scenario.base, scenario.head).split()
    assert len(bases) == 2
    action = scenario.run()
    _, local = local_check(scenario, capsys)
    for report in (action.report(), local):
        (note,) = [n for n in report["notes"] if "merge bases" in n]
        assert "merged tree" in note and all(b[:12] in note for b in bases)
    assert "merge bases" in action.summary
