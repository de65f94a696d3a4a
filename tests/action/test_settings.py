"""Settings.from_env: inputs as the runner passes them, validation, one sentence per error."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import action_defaults
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.github.settings import (
    INPUTS,
    OUTPUTS,
    REPORT_NAME,
    Settings,
    input_env_name,
    workflow_path,
)


def runner_env(**inputs: str) -> dict[str, str]:
    env = {
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": "/github/workflow/event.json",
        "GITHUB_REPOSITORY": "octo/widgets",
        "GITHUB_WORKSPACE": "/github/workspace",
        "GITHUB_WORKFLOW_REF": "octo/widgets/.github/workflows/gate.yml@refs/pull/7/merge",
    }
    for name, default in action_defaults().items():
        env[input_env_name(name)] = default.replace("${{ github.token }}", "ghs_token")
    for name, value in inputs.items():
        env[input_env_name(name.replace("_", "-"))] = value
    return env


def test_input_names_keep_hyphens() -> None:
    assert input_env_name("rubric-path") == "INPUT_RUBRIC-PATH"
    assert input_env_name("github-token") == "INPUT_GITHUB-TOKEN"


def test_inputs_and_outputs_match_action_yml() -> None:
    import yaml
    from conftest import ROOT

    meta = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert set(INPUTS) == set(meta["inputs"])
    assert set(OUTPUTS) == set(meta["outputs"])


def test_defaults_from_action_yml() -> None:
    s = Settings.from_env(runner_env())
    assert s.rubric_path == ".github/blast-radius.yml"
    assert s.check_name == "blast-radius"
    assert s.comment == "on-failure"
    assert s.token == "ghs_token"
    assert s.pr_number is None and s.stdout_file is None and s.rubric_sha256 is None
    assert s.api_url == "https://api.github.com"
    assert s.workflow_path == ".github/workflows/gate.yml"
    assert REPORT_NAME == "blast-radius-report.json"


def test_api_url_is_honoured() -> None:
    env = runner_env()
    env["GITHUB_API_URL"] = "https://ghe.example/api/v3/"
    assert Settings.from_env(env).api_url == "https://ghe.example/api/v3"


def test_missing_variables_fall_back_to_declared_defaults() -> None:
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "o/r"}
    s = Settings.from_env(env)
    assert s.rubric_path == ".github/blast-radius.yml" and s.comment == "on-failure"
    assert s.token == ""  # the literal `${{ github.token }}` is not a token


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"comment": "sometimes"}, "input comment is"),
        ({"rubric-path": "../etc/passwd"}, "rubric-path"),
        ({"rubric-path": "/abs.yml"}, "rubric-path"),
        ({"pr-number": "seven"}, "pr-number"),
        ({"pr-number": "0"}, "pr-number"),
        ({"rubric-sha256": "abc"}, "rubric-sha256"),
        ({"check-name": "a\nb"}, "check-name"),
        ({"GITHUB_EVENT_NAME": "push"}, '"push" event'),
        ({"GITHUB_EVENT_NAME": ""}, "GITHUB_EVENT_NAME"),
        ({"GITHUB_REPOSITORY": "nope"}, "GITHUB_REPOSITORY"),
        ({"GITHUB_EVENT_NAME": "workflow_dispatch"}, "pr-number input"),
        ({"GATE_RETRY_BASE_SECONDS": "fast"}, "GATE_RETRY_BASE_SECONDS"),
        ({"GITHUB_API_URL": "ftp://ghe.example/api"}, "GITHUB_API_URL"),
    ],
)
def test_bad_settings_are_one_sentence(change: dict[str, str], needle: str) -> None:
    env = runner_env()
    for key, value in change.items():
        env[key if key.isupper() else input_env_name(key)] = value
    with pytest.raises(GateError) as info:
        Settings.from_env(env)
    assert needle in info.value.message
    assert "\n" not in info.value.message
    assert info.value.code == 2


def test_valid_inputs() -> None:
    pin = "A" * 64
    env: dict[str, Any] = runner_env(
        comment="always", pr_number="#42", rubric_sha256=pin, stdout_file="out.txt"
    )
    env["GITHUB_EVENT_NAME"] = "workflow_dispatch"
    s = Settings.from_env(env)
    assert s.comment == "always"
    assert s.pr_number == 42
    assert s.rubric_sha256 == "a" * 64
    assert s.stdout_file == "out.txt"


def test_retry_policy_from_env() -> None:
    env = runner_env()
    env.update({"GATE_RETRY_BASE_SECONDS": "0.5", "GATE_RETRY_ATTEMPTS": "2"})
    retry = Settings.from_env(env).retry
    assert retry.base_seconds == 0.5 and retry.attempts == 2


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("octo/widgets/.github/workflows/gate.yml@refs/pull/7/merge", ".github/workflows/gate.yml"),
        ("octo/widgets/.github/workflows/a@b.yml@refs/heads/main", ".github/workflows/a@b.yml"),
        ("Octo/Widgets/.github/workflows/g.yml@refs/heads/main", ".github/workflows/g.yml"),
        ("other/repo/.github/workflows/g.yml@refs/heads/main", None),
        ("octo/widgets/.github/workflows/g.yml@refs/heads/a@b", ".github/workflows/g.yml"),
        ("octo/widgets/.github/workflows/g.yaml@refs/heads/x@y/z", ".github/workflows/g.yaml"),
        ("octo/widgets/.github/workflows/a.yml@refs/heads/b.yml@c", None),
        ("", None),
        (None, None),
    ],
)
def test_workflow_path(ref: str | None, expected: str | None) -> None:
    assert workflow_path(ref, "octo/widgets") == expected


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab@.-", min_size=1, max_size=8),
    st.sampled_from([".yml", ".yaml", ".YML"]),
    st.text(alphabet="ab@/.-y", min_size=1, max_size=12),
)
def test_an_at_sign_in_the_branch_never_hides_the_running_workflow(
    stem: str, suffix: str, branch: str
) -> None:
    """`@` may appear in a workflow's file name and in a branch name: the
    path found is the running workflow's, or None (every workflow file
    watched), never another path (`gate.workflow-edited` would then watch a
    file nobody edits)."""
    path = f".github/workflows/{stem}{suffix}"
    found = workflow_path(f"octo/widgets/{path}@refs/heads/{branch}", "octo/widgets")
    assert found in (path, None)
    if "@" not in branch:
        assert found == path
