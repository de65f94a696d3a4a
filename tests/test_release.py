"""The release path: .ci/release_action.py and .github/workflows/release.yml.

The script writes the release's action.yml (main's, with `runs.image` pinned to
`docker://<registry>/<name>@sha256:<digest>`); the workflow builds, pushes,
attests and tests the image, then publishes a release commit whose action.yml
the script wrote.  What needs GitHub (the push, the registry, the attestation,
real permissions) cannot run here; the shape that makes them right is checked.
"""

from __future__ import annotations

import importlib.util
import string
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / ".ci" / "release_action.py"
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
DIGEST = "0123456789abcdef" * 4
REFERENCE = f"ghcr.io/octo/blast-radius-gate@sha256:{DIGEST}"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release_action", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


release = _load_script()
MAIN_ACTION = (ROOT / "action.yml").read_text(encoding="utf-8")


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=cwd, check=False
    )


def test_writes_a_digest_pinned_action_that_validates(tmp_path: Path) -> None:
    out = tmp_path / "action.yml"

    proc = _run("--image", REFERENCE, "--output", str(out))

    assert proc.returncode == 0, proc.stderr
    main, written = yaml.safe_load(MAIN_ACTION), yaml.safe_load(out.read_text(encoding="utf-8"))
    assert written["runs"] == {"using": "docker", "image": f"docker://{REFERENCE}"}
    assert {k: v for k, v in written.items() if k != "runs"} == {
        k: v for k, v in main.items() if k != "runs"
    }
    changed = [
        (a, b)
        for a, b in zip(MAIN_ACTION.splitlines(), out.read_text().splitlines(), strict=True)
        if a != b
    ]
    assert changed == [("  image: Dockerfile", f"  image: docker://{REFERENCE}")]
    schema = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-actions",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert schema.returncode == 0, schema.stdout + schema.stderr
    # main's own action.yml is left alone when --output names another file.
    assert (ROOT / "action.yml").read_text(encoding="utf-8") == MAIN_ACTION


_COMPONENT = st.from_regex(r"\A[a-z0-9]{1,8}(?:[._-][a-z0-9]{1,8}){0,2}\Z")
_HOSTS = st.sampled_from(["ghcr.io", "registry.example.com:5000", "localhost:5000", "localhost"])
_HEX = st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)


@st.composite
def pinned(draw: Any) -> str:
    path = "/".join(draw(st.lists(_COMPONENT, min_size=1, max_size=3)))
    return f"{draw(_HOSTS)}/{path}@sha256:{draw(_HEX)}"


@given(pinned())
def test_any_digest_pinned_reference_is_written_as_it_is(reference: str) -> None:
    text = release.release_action(MAIN_ACTION, reference)
    assert yaml.safe_load(text)["runs"]["image"] == f"docker://{reference}"


def _unpinned(reference: str, how: str) -> str:
    """A reference that must be refused, made from a pinned one."""
    name, _, digest = reference.partition("@sha256:")
    host, _, path = name.partition("/")
    return {
        "tag": f"{name}:v1",
        "tag-and-digest": f"{name}:v1@sha512:{digest}",
        "no-digest": name,
        "short": f"{name}@sha256:{digest[:-1]}",
        "long": f"{name}@sha256:{digest}0",
        "upper-hex": f"{name}@sha256:{digest.upper()}",
        "upper-name": f"{host}/{path.upper()}@sha256:{digest}",
        "no-host": f"{path.rsplit('/', 1)[-1]}@sha256:{digest}",
        "newline": f"{reference}\n  using: node20",
        "space": f"{reference} ",
        "algorithm": f"{name}@md5:{digest}",
    }[how]


_HOWS = [
    "tag",
    "tag-and-digest",
    "no-digest",
    "short",
    "long",
    "upper-hex",
    "upper-name",
    "no-host",
    "newline",
    "space",
    "algorithm",
]


@given(pinned(), st.sampled_from(_HOWS))
def test_a_reference_not_pinned_by_digest_is_refused(reference: str, how: str) -> None:
    bad = _unpinned(reference, how)
    if bad == reference:
        return  # nothing to upper-case (digits and separators only)
    with pytest.raises(release.ReleaseError):
        release.release_action(MAIN_ACTION, bad)


@given(st.text(alphabet=string.printable, max_size=80))
def test_arbitrary_text_is_refused_or_pinned(reference: str) -> None:
    try:
        text = release.release_action(MAIN_ACTION, reference)
    except release.ReleaseError:
        return
    assert release.PINNED.match(reference)
    assert yaml.safe_load(text)["runs"]["image"] == f"docker://{reference}"


def test_a_released_action_is_not_released_again() -> None:
    released = release.release_action(MAIN_ACTION, REFERENCE)
    with pytest.raises(release.ReleaseError, match="not Dockerfile"):
        release.release_action(released, REFERENCE.replace("0123", "3210"))


def test_the_command_refuses_in_one_sentence_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "action.yml"

    proc = _run("--image", "ghcr.io/octo/blast-radius-gate:v1", "--output", str(out))

    assert proc.returncode == 2
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("release_action: image ") and "@sha256:" in line, line
    assert not out.exists()


# -- the workflow ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _step(job: dict[str, Any], uses: str) -> dict[str, Any]:
    (step,) = [s for s in job["steps"] if s.get("uses", "").startswith(uses + "@")]
    return step


def test_release_workflow_grants_per_job_and_runs_by_hand(workflow: dict[str, Any]) -> None:
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1: on -> True
    assert set(triggers) == {"workflow_dispatch"}
    assert workflow["permissions"] == {}
    jobs = workflow["jobs"]
    assert set(jobs) == {"image", "test", "release"}
    assert all("timeout-minutes" in job for job in jobs.values())
    assert jobs["image"]["permissions"] == {
        "contents": "read",
        "packages": "write",
        "id-token": "write",
        "attestations": "write",
    }
    assert jobs["test"]["permissions"] == {
        "contents": "read",
        "packages": "read",
        "attestations": "read",
    }
    assert jobs["release"]["permissions"] == {"contents": "write"}


def test_the_pushed_digest_is_attested_tested_and_pinned(workflow: dict[str, Any]) -> None:
    jobs = workflow["jobs"]
    push = _step(jobs["image"], "docker/build-push-action")
    assert push["id"] == "push" and push["with"]["push"] is True
    assert push["with"]["context"] == "."  # the Dockerfile `uses: ./` builds
    assert "file" not in push["with"] and "build-args" not in push["with"]
    assert push["with"]["provenance"] == "mode=max"
    attest = _step(jobs["image"], "actions/attest-build-provenance")
    assert attest["with"]["subject-digest"] == "${{ steps.push.outputs.digest }}"
    assert attest["with"]["push-to-registry"] is True
    assert jobs["image"]["outputs"]["digest"] == "${{ steps.push.outputs.digest }}"

    pinned_ref = "${{ needs.image.outputs.image }}@${{ needs.image.outputs.digest }}"
    for name in ("test", "release"):
        assert jobs[name]["env"]["IMAGE"] == pinned_ref, name
    assert jobs["release"]["needs"] == ["image", "test"]
    test_runs = " ".join(s.get("run", "") for s in jobs["test"]["steps"])
    assert "pytest tests/container" in test_runs
    assert 'docker pull "$IMAGE"' in test_runs
    assert "gh attestation verify" in test_runs
    (container_step,) = [s for s in jobs["test"]["steps"] if "tests/container" in s.get("run", "")]
    assert container_step["env"]["GATE_CONTAINER_IMAGE"] == "${{ env.IMAGE }}"
    release_runs = " ".join(s.get("run", "") for s in jobs["release"]["steps"])
    assert 'python .ci/release_action.py --image "$IMAGE"' in release_runs
    assert "--builtin-schema vendor.github-actions action.yml" in release_runs
    assert 'git push origin "refs/tags/$VERSION"' in release_runs
    assert "git push origin main" not in release_runs  # main keeps image: Dockerfile
