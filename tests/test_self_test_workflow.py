"""This repository's own self-test judges each PR with the gate built from the
PR's base commit, never with the gate the PR ships (class 8)."""

from __future__ import annotations

from pathlib import Path

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
    # Exactly one checkout, before the Action, of the base sha with full history.
    assert len(checkouts) == 1 and checkouts[0] < local[0]
    options = steps[checkouts[0]]["with"]
    assert options["ref"] == "${{ github.event.pull_request.base.sha }}"
    assert options["fetch-depth"] == 0
    assert options["persist-credentials"] is False
