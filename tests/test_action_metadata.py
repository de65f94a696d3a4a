"""action.yml, the Dockerfile and the lock file agree with the code that runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from gate.github import settings

ROOT = Path(__file__).resolve().parent.parent


def _load_yaml(name: str) -> dict[str, Any]:
    data = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{name} is not a mapping"
    return data


@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    return _load_yaml("action.yml")


def _dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    logical: list[str] = []
    current = ""
    for line in text.splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        logical.append(current + line)
        current = ""
    out = []
    for entry in logical:
        word, _, rest = entry.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def test_inputs_are_exactly_the_codes(action: dict[str, Any]) -> None:
    assert tuple(action["inputs"]) == settings.INPUTS


def test_outputs_are_exactly_the_codes(action: dict[str, Any]) -> None:
    assert tuple(action["outputs"]) == settings.OUTPUTS


@pytest.mark.parametrize("name", settings.INPUTS)
def test_input_default_matches_the_code(action: dict[str, Any], name: str) -> None:
    declared = action["inputs"][name].get("default", "")
    assert str(declared) == settings.INPUT_DEFAULTS.get(name, "")


@pytest.mark.parametrize("section", ["inputs", "outputs"])
def test_every_input_and_output_is_described(action: dict[str, Any], section: str) -> None:
    for name, spec in action[section].items():
        assert isinstance(spec.get("description"), str) and spec["description"].strip(), name


def test_no_input_is_required(action: dict[str, Any]) -> None:
    # Every input has a usable default; a required input would break
    # `uses:` lines that rely on the defaults.
    assert all(not spec.get("required", False) for spec in action["inputs"].values())


def test_runs_the_dockerfile_in_this_repository(action: dict[str, Any]) -> None:
    assert action["runs"] == {"using": "docker", "image": "Dockerfile"}
    assert action["name"] and action["description"]
    assert set(action["branding"]) == {"icon", "color"}


def test_dockerfile_entrypoint_runs_gate_action() -> None:
    entrypoints = [args for word, args in _dockerfile_instructions() if word == "ENTRYPOINT"]
    assert len(entrypoints) == 1
    assert json.loads(entrypoints[0]) in (["gate", "action"], ["python", "-m", "gate", "action"])


def test_dockerfile_base_is_an_overridable_pinned_python() -> None:
    instructions = _dockerfile_instructions()
    assert instructions[0][0] == "ARG"
    name, _, default = instructions[0][1].partition("=")
    assert name == "BASE_IMAGE"
    assert re.fullmatch(r"python:3\.\d+-slim-bookworm@sha256:[0-9a-f]{64}", default), default
    assert instructions[1] == ("FROM", "${BASE_IMAGE}")
    # The runner picks the user and the working directory; the image must not.
    assert not [word for word, _ in instructions if word in ("USER", "WORKDIR")]


def _requirement_names(lines: list[str]) -> set[str]:
    names = set()
    for line in lines:
        match = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)", line)
        if match:
            names.add(re.sub(r"[-_.]+", "-", match.group(1)).lower())
    return names


def test_lock_pins_every_runtime_dependency_by_hash() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    # Runtime dependencies only: the image copies the pure-Python package into
    # its virtualenv instead of building it, so no build backend is installed.
    wanted = _requirement_names(pyproject["project"]["dependencies"])
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pinned = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", lock):
        match = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", block)
        if match:
            pinned[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = block
    missing = sorted(wanted - set(pinned))
    assert not missing, f"requirements.lock lacks {missing}; run bash .ci/update-lock.sh"
    for name, block in pinned.items():
        assert "--hash=sha256:" in block, f"{name} is pinned without a hash"


def test_dockerfile_installs_from_the_lock_with_hashes() -> None:
    runs = " ".join(args for word, args in _dockerfile_instructions() if word == "RUN")
    assert "--require-hashes -r /opt/gate-src/requirements.lock" in runs
    assert "--no-deps" in runs


@pytest.mark.parametrize(
    "path",
    [
        ".github/workflows/ci.yml",
        ".github/workflows/release.yml",
        ".github/workflows/self-test.yml",
        "examples/blast-radius-workflow.yml",
    ],
)
def test_workflow_actions_are_pinned_by_full_sha(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    uses = re.findall(r"^\s*(?:-\s*)?uses:\s*(\S+)(.*)$", text, flags=re.MULTILINE)
    assert uses
    for ref, comment in uses:
        if ref.startswith("./"):
            continue
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), ref
        assert re.match(r"\s*# v\d", comment), f"{ref} needs a '# vN' comment"


def test_example_workflow_is_safe_for_pull_request_target() -> None:
    workflow = _load_yaml("examples/blast-radius-workflow.yml")
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1: on -> True
    assert set(triggers) == {"pull_request_target", "merge_group", "workflow_dispatch"}
    # A merge queue waits for every required check: the gate must report there too.
    assert triggers["merge_group"] == {"types": ["checks_requested"]}
    assert "merge_group.head_ref" in workflow["concurrency"]["group"]
    assert "paths" not in triggers["pull_request_target"]
    assert "paths-ignore" not in triggers["pull_request_target"]
    assert "pr-number" in triggers["workflow_dispatch"]["inputs"]
    assert workflow["permissions"] == {}
    assert workflow["concurrency"]["cancel-in-progress"] is True
    (job,) = workflow["jobs"].values()
    assert job["permissions"] == {
        "contents": "read",
        "checks": "write",
        "pull-requests": "write",
    }
    assert "timeout-minutes" in job
    checkout = job["steps"][0]
    assert checkout["uses"].startswith("actions/checkout@")
    # The base commit only: no `ref:` that could name the PR's code.
    assert "ref" not in checkout["with"] and "repository" not in checkout["with"]
    assert checkout["with"]["fetch-depth"] == 0
    assert checkout["with"]["persist-credentials"] is False
    gate_step = next(step for step in job["steps"] if "blast-radius-gate@" in step.get("uses", ""))
    assert set(gate_step["with"]) <= set(settings.INPUTS)


def test_ci_workflow_grants_nothing_by_default() -> None:
    workflow = _load_yaml(".github/workflows/ci.yml")
    assert workflow["permissions"] == {}
    for name, job in workflow["jobs"].items():
        assert "timeout-minutes" in job, name
        assert job.get("permissions") == {"contents": "read"}, name


def test_the_docs_show_the_example_workflow_that_ci_lints() -> None:
    """The workflow a maintainer copies from the docs is the linted file, byte for byte."""
    root = Path(__file__).resolve().parent.parent
    workflow = (root / "examples" / "blast-radius-workflow.yml").read_text()
    page = (root / "docs" / "action.md").read_text()
    assert f"```yaml\n{workflow}```\n" in page


def _table(page: str, heading: str) -> dict[str, list[str]]:
    """The markdown table under `## heading`: first cell (unquoted) -> cells."""
    section = page.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][2:]
    table = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        table[cells[0].strip("`")] = cells
    return table


def test_the_docs_list_every_input_and_output_with_its_default() -> None:
    """docs/action.md's Inputs and Outputs tables are action.yml's, names and defaults."""
    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "action.md").read_text(encoding="utf-8")
    action = _load_yaml("action.yml")
    inputs = _table(page, "Inputs")
    assert list(inputs) == list(action["inputs"])
    for name, spec in action["inputs"].items():
        default = inputs[name][1]
        assert default == (f"`{spec['default']}`" if spec["default"] else "(empty)"), name
    assert list(_table(page, "Outputs")) == list(action["outputs"])
