"""API mode sees a new module in a test folder that shadows a first-party
module, as git mode does: it lists the base tree's layout through the
contents API (a folder's listing, one request each, at the merge base) and
the double validates every request against GitHub's OpenAPI description."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Scenario
from test_api_merge_base import judge_both_ways, same_results

from gate.model.change import TREE_READS

RUBRIC = "rules:\n  - {id: TESTS, kind: test_drift}\n"


def with_first_party(scenario: Scenario, files: dict[str, str]) -> None:
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    repo.write_many({".github/cases.yml": RUBRIC, **files})
    scenario.base = repo.commit("a first-party layout and a test_drift rubric")
    repo.git("checkout", "-q", "-B", "feature")
    scenario.inputs["rubric-path"] = ".github/cases.yml"


@pytest.mark.parametrize(
    ("layout", "added", "code"),
    [
        ({"src/clamp/__init__.py": "X = 1\n"}, "tests/clamp.py", 1),
        ({"src/clamp/__init__.py": "X = 1\n"}, "tests/clamp/__init__.py", 1),
        ({"clamp.py": "X = 1\n"}, "tests/unit/clamp.py", 1),
        ({"src/clamp/core.py": "X = 1\n"}, "tests/clamp/core.py", 1),  # a namespace package
        ({"src/clamp/__init__.py": "X = 1\n"}, "tests/clamp/core.py", 0),  # the package wins
        ({"src/clamp/__init__.py": "X = 1\n"}, "tests/helpers_for_clamp.py", 0),
    ],
)
def test_api_mode_judges_a_shadowing_module_as_git_mode_does(
    scenario: Scenario, tmp_path: Path, layout: dict[str, str], added: str, code: int
) -> None:
    with_first_party(scenario, {**layout, "tests/test_a.py": "def test_a():\n    pass\n"})
    scenario.push({added: "X = 2\n"})
    git_out, api_out, requests = judge_both_ways(scenario, tmp_path)
    assert git_out.code == api_out.code == code, api_out.log
    same_results(git_out.report(), api_out.report())
    result = next(r for r in api_out.report()["results"] if r["id"] == "TESTS")
    if code:
        assert f"{added} (new)" in result["message"]
        assert result["paths"] == [added]
    folders = [r for r in requests if "/contents/" in r.path and not r.path.endswith(".py")]
    assert 1 <= len(folders) <= TREE_READS
