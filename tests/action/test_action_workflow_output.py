"""Class 8 in the Action: generated hostile names in a PR's files and title
never reach the runner as a command (see tests/runner_model.py)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import runner_model
from conftest import Scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runner_model import NAMES

# The Action's own commands: escaped by gate.base.workflow.Log.
OWN = ("::error ", "::warning ", "::notice ", "::error::", "::warning::", "::notice::")
_counter = itertools.count(1)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(names=st.lists(NAMES, min_size=1, max_size=3, unique=True), title=NAMES)
def test_action_log_obeys_only_its_own_commands(
    github: Any,
    tmp_path_factory: pytest.TempPathFactory,
    make_repo: Any,
    names: list[str],
    title: str,
) -> None:
    tmp = Path(tmp_path_factory.mktemp("action"))
    scenario = Scenario(
        github=github, tmp=tmp, make_repo=lambda name: make_repo(f"{name}{next(_counter)}")
    )
    scenario.push({f"secrets/{name}": "k\n" for name in names}, title=title)
    out = scenario.run()
    assert out.code == 1
    for line in runner_model.commands(out.log):
        assert line.startswith(OWN), line
        assert "##[" not in line
