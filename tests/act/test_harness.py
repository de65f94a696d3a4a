"""The act harness's pure helpers (no act or daemon needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from act_harness.runner import (
    EXAMPLE_WORKFLOW,
    SELF_TEST_WORKFLOW,
    example_workflow,
    tag_workflow_name,
    with_base_image,
)


@pytest.mark.parametrize("path", [EXAMPLE_WORKFLOW, SELF_TEST_WORKFLOW])
def test_a_tagged_workflow_differs_in_its_name_only(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    before, after = yaml.safe_load(text), yaml.safe_load(tag_workflow_name(text, "act1234abcd"))
    assert after["name"] == f"{before['name']} act1234abcd"
    assert {k: v for k, v in after.items() if k != "name"} == {
        k: v for k, v in before.items() if k != "name"
    }


def test_a_workflow_without_a_name_gets_one() -> None:
    assert yaml.safe_load(tag_workflow_name("on: push\njobs: {}\n", "actx"))["name"] == "actx"


def test_the_example_is_adopted_with_one_uses_line_and_chosen_inputs() -> None:
    text = example_workflow("me/blast-radius-gate@" + "a" * 40, uncomment=["missing-rubric"])
    (job,) = yaml.safe_load(text)["jobs"].values()
    (gate,) = [s for s in job["steps"] if s.get("id") == "gate"]
    assert gate["uses"] == "me/blast-radius-gate@" + "a" * 40
    assert gate["with"]["missing-rubric"] == "skip"
    with pytest.raises(ValueError, match="no commented-out `nothing:` input"):
        example_workflow("me/x@" + "a" * 40, uncomment=["nothing"])


def test_the_dockerfile_base_line_is_replaced_exactly_once() -> None:
    dockerfile = "# x\nARG BASE_IMAGE=python:3.11@sha256:abc\nFROM ${BASE_IMAGE}\n"
    assert with_base_image(dockerfile, "stand-in:1").splitlines()[1] == "ARG BASE_IMAGE=stand-in:1"
    with pytest.raises(ValueError, match="found 0"):
        with_base_image("FROM python\n", "stand-in:1")
