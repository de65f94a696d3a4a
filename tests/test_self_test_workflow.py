"""This repository's own self-test judges each PR with the gate built from the
PR's base commit, never with the gate the PR ships (class 8)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_self_test_builds_the_gate_from_the_base_commit() -> None:
    workflow = yaml.safe_load((ROOT / ".github/workflows/self-test.yml").read_text("utf-8"))
    assert list(workflow[True]) == ["pull_request"]  # `on:` reads as YAML true
    (job,) = workflow["jobs"].values()
    steps = job["steps"]
    local = [i for i, step in enumerate(steps) if step.get("uses") == "./"]
    assert local, "the self-test runs the Action from the checkout (uses: ./)"
    checkouts = [
        i
        for i, step in enumerate(steps)
        if str(step.get("uses", "")).startswith("actions/checkout@")
    ]
    # One checkout, with full history and no stored token, then a switch of
    # the workspace to the base sha, both before the Action is built.
    assert len(checkouts) == 1 and checkouts[0] < local[0]
    options = steps[checkouts[0]]["with"]
    assert "ref" not in options  # act runs a checkout of another ref for real
    assert options["fetch-depth"] == 0
    assert options["persist-credentials"] is False
    switch = steps[checkouts[0] + 1 : local[0]]
    assert len(switch) == 1, "exactly one step between the checkout and the Action"
    assert switch[0]["env"] == {"BASE_SHA": "${{ github.event.pull_request.base.sha }}"}
    assert switch[0]["run"].endswith('checkout --quiet --detach "$BASE_SHA"')
    assert switch[0]["run"].startswith("git ")


def test_the_switch_builds_the_base_gate(make_repo: Any) -> None:
    """The switch step's command, run in a checkout of a PR's merge commit,
    leaves the base's Dockerfile and action.yml in the workspace."""
    workflow = yaml.safe_load((ROOT / ".github/workflows/self-test.yml").read_text("utf-8"))
    (job,) = workflow["jobs"].values()
    (command,) = [step["run"] for step in job["steps"] if "BASE_SHA" in step.get("env", {})]
    repo = make_repo("self")
    repo.write_many({"Dockerfile": "FROM base\n", "action.yml": "name: base\n"})
    base = repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write_many({"Dockerfile": "FROM evil\n", "action.yml": "name: evil\n"})
    head = repo.commit("the PR ships its own gate")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge ref", head)  # what actions/checkout checks out
    env = {**os.environ, "BASE_SHA": base}
    subprocess.run(["bash", "-c", command], cwd=repo.root, env=env, check=True)
    assert (repo.root / "Dockerfile").read_text() == "FROM base\n"
    assert (repo.root / "action.yml").read_text() == "name: base\n"
    assert repo.git("cat-file", "-t", head).strip() == "commit"  # head objects still readable
