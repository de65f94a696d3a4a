"""`gate init --workflow --action OWNER/REPO@SHA`: the example workflow, with your `uses:` line.

The workflow has one owner (gate/starter/blast-radius-workflow.yml, shipped in the
package); examples/ and docs/action.md show those exact bytes, and init changes
only the `uses:` line (and `rubric-path:` for a rubric elsewhere).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.commands.cli import main
from gate.frozen.detect import detect
from gate.model.rubric import DEFAULT_RUBRIC_PATH
from gate.starter import (
    FROZEN_TEMPLATE,
    FROZEN_WORKFLOW_PATH,
    PLACEHOLDER_USES,
    REVIEW_WORKFLOW_PATH,
    STARTER_RUBRIC,
    WORKFLOW_PATH,
    action_reference,
    review_workflow_text,
    workflow_template,
    workflow_text,
)

ROOT = Path(__file__).resolve().parents[2]
SHA = "0123456789abcdef0123456789abcdef01234567"
ACTION = f"acme/blast-radius-gate@{SHA}"


def gate_step(text: str) -> dict[str, Any]:
    workflow = yaml.safe_load(text)
    (job,) = workflow["jobs"].values()
    step: dict[str, Any] = next(s for s in job["steps"] if s.get("id") == "gate")
    return step


def test_the_example_file_is_the_packaged_template() -> None:
    example = (ROOT / "examples" / "blast-radius-workflow.yml").read_text(encoding="utf-8")
    assert example == workflow_template()
    assert workflow_template().count(PLACEHOLDER_USES) == 1
    review = (ROOT / "examples" / "blast-radius-review.yml").read_text(encoding="utf-8")
    assert review == review_workflow_text()
    frozen = (ROOT / "examples" / FROZEN_TEMPLATE).read_text(encoding="utf-8")
    assert frozen == (ROOT / "gate" / "starter" / FROZEN_TEMPLATE).read_text(encoding="utf-8")


def test_init_changes_only_the_uses_line() -> None:
    template = workflow_template().splitlines()
    written = workflow_text(action_reference(ACTION, allow_tag=False)).splitlines()
    changed = [(a, b) for a, b in zip(template, written, strict=True) if a != b]
    assert len(changed) == 1
    assert changed[0][1] == f"        uses: {ACTION} # pinned by gate init"
    assert gate_step("\n".join(written))["uses"] == ACTION


OWNER = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9-]{0,20}", fullmatch=True)
NAME = st.from_regex(r"[A-Za-z0-9_.-]{1,30}", fullmatch=True).filter(lambda n: n not in (".", ".."))


@given(owner=OWNER, name=NAME, sha=st.from_regex(r"[0-9a-fA-F]{40}", fullmatch=True))
def test_any_pinned_action_round_trips_through_yaml(owner: str, name: str, sha: str) -> None:
    uses = action_reference(f"{owner}/{name}@{sha}", allow_tag=False)
    assert uses == f"{owner}/{name}@{sha.lower()}"
    assert gate_step(workflow_text(uses))["uses"] == uses


@given(
    spec=st.one_of(
        st.text(max_size=80),
        st.text(max_size=40).map(lambda ref: "acme/gate@" + ref),
        st.text(max_size=40).map(lambda repo: repo + "@v1"),
    )
)
def test_hostile_action_text_is_refused_or_exact(spec: str) -> None:
    """Whatever --action says, the workflow's `uses:` is exactly it or nothing is written:
    no newline, `#`, quote or `${{` can smuggle a second line or an expression."""
    for allow_tag in (False, True):
        try:
            uses = action_reference(spec, allow_tag=allow_tag)
        except GateError:
            continue
        text = workflow_text(uses)
        assert gate_step(text)["uses"] == uses
        assert len(text.splitlines()) == len(workflow_template().splitlines())
        assert "${{" not in uses and "#" not in uses and "\n" not in uses


@pytest.mark.parametrize(
    "ref",
    ["v1", "v1.2.3", "main", SHA[:7], SHA[:39], SHA + "0", "refs/tags/v1"],
)
def test_a_ref_that_is_not_a_full_sha_is_refused(ref: str) -> None:
    with pytest.raises(GateError) as err:
        action_reference(f"acme/gate@{ref}", allow_tag=False)
    assert "not a full 40-hex commit SHA" in err.value.message
    assert "moved" in err.value.message and "--allow-tag" in err.value.message


def test_allow_tag_accepts_a_tag() -> None:
    uses = action_reference("acme/gate@v1.2.3", allow_tag=True)
    assert gate_step(workflow_text(uses))["uses"] == "acme/gate@v1.2.3"


@pytest.mark.parametrize("spec", ["acme@v1", "acme/gate", "/gate@" + SHA, "acme/gate@@x", ""])
def test_malformed_action_is_refused(spec: str) -> None:
    with pytest.raises(GateError, match="OWNER/REPO@REF"):
        action_reference(spec, allow_tag=True)


# -- the command ----------------------------------------------------------------


@pytest.fixture
def clone(repo: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(repo.root)
    return repo


def test_init_workflow_writes_both_files(clone: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "--workflow", "--action", ACTION]) == 0
    out = capsys.readouterr().out
    assert (clone.root / DEFAULT_RUBRIC_PATH).read_text(encoding="utf-8") == STARTER_RUBRIC
    written = (clone.root / WORKFLOW_PATH).read_text(encoding="utf-8")
    assert written == workflow_text(ACTION)
    review = (clone.root / REVIEW_WORKFLOW_PATH).read_text(encoding="utf-8")
    assert review == review_workflow_text()
    assert f"wrote {REVIEW_WORKFLOW_PATH}" in out
    assert f"wrote {WORKFLOW_PATH}" in out and "git add .github" in out
    assert f"wrote {FROZEN_WORKFLOW_PATH}" in out
    assert "blast-radius frozen tests" in out.split("require the checks")[1]


def test_generated_workflow_passes_the_linters(
    clone: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "--workflow", "--action", ACTION, "--path", "conf/gate rubric.yml"]) == 0
    target = clone.root / WORKFLOW_PATH
    assert gate_step(target.read_text(encoding="utf-8"))["with"]["rubric-path"] == (
        "conf/gate rubric.yml"
    )
    review = clone.root / REVIEW_WORKFLOW_PATH
    frozen = clone.root / FROZEN_WORKFLOW_PATH
    bin_dir = Path(sys.executable).parent
    for tool in (
        [str(bin_dir / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows"],
        [str(bin_dir / "actionlint")],
    ):
        if not Path(tool[0]).exists():
            tool[0] = shutil.which(Path(tool[0]).name) or tool[0]
        files = [str(target), str(review), str(frozen)]
        proc = subprocess.run([*tool, *files], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_init_workflow_from_a_subfolder_writes_at_the_root(
    clone: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sub = clone.root / "src" / "pkg"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    assert main(["init", "--workflow", "--action", ACTION, "--path", "rubric.yml"]) == 0
    text = (clone.root / WORKFLOW_PATH).read_text(encoding="utf-8")
    assert gate_step(text)["with"]["rubric-path"] == "src/pkg/rubric.yml"


@pytest.mark.parametrize("folders", ["src", "src/pkg", "docs/a b/c", ".github/workflows"])
@pytest.mark.parametrize("workflow", [False, True])
def test_init_from_any_subfolder_writes_the_rubric_at_the_root(
    clone: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    folders: str,
    workflow: bool,
) -> None:
    """Without --path, the rubric goes where the workflow and `gate check`
    read it (the root's .github/blast-radius.yml), from any folder, and
    every command init prints works as printed from that folder."""
    sub = clone.root / folders
    sub.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(sub)
    argv = ["init", "--workflow", "--action", ACTION] if workflow else ["init"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert (clone.root / DEFAULT_RUBRIC_PATH).read_text(encoding="utf-8") == STARTER_RUBRIC
    assert not (sub / DEFAULT_RUBRIC_PATH).exists() or sub == clone.root
    assert "the repository's root" in out
    if workflow:
        text = (clone.root / WORKFLOW_PATH).read_text(encoding="utf-8")
        assert gate_step(text)["with"]["rubric-path"] == DEFAULT_RUBRIC_PATH
    selftest = next(line for line in out.splitlines() if "gate selftest" in line)
    assert main(shlex.split(selftest.split("#")[0])[1:]) == 0, selftest
    if workflow:  # the printed git line works from this folder too
        assert f"wrote {WORKFLOW_PATH} (the repository's root)" in out
        add = next(line for line in out.splitlines() if "git add" in line).split("#")[0]
        proc = subprocess.run(add, shell=True, cwd=sub, capture_output=True, text=True)
        assert proc.returncode == 0, (add, proc.stderr)
        shown = clone.git("show", "--name-only", "--format=", "HEAD")
        assert DEFAULT_RUBRIC_PATH in shown and WORKFLOW_PATH in shown
    capsys.readouterr()
    assert main(["init"]) == 2  # the same file again, from the same folder: never overwritten
    assert "already exists" in capsys.readouterr().err


def test_init_outside_a_repository_writes_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    assert (tmp_path / DEFAULT_RUBRIC_PATH).read_text(encoding="utf-8") == STARTER_RUBRIC
    assert f"wrote {DEFAULT_RUBRIC_PATH}:" in capsys.readouterr().out


def test_existing_rubric_is_kept_and_the_workflow_added(
    clone: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    clone.write(DEFAULT_RUBRIC_PATH, "rules: mine\n")
    assert main(["init", "--workflow", "--action", ACTION]) == 0
    assert (clone.root / DEFAULT_RUBRIC_PATH).read_text(encoding="utf-8") == "rules: mine\n"
    assert (clone.root / WORKFLOW_PATH).exists()
    assert "kept" in capsys.readouterr().out


@pytest.mark.parametrize("existing", [WORKFLOW_PATH, REVIEW_WORKFLOW_PATH, FROZEN_WORKFLOW_PATH])
def test_existing_workflow_is_never_overwritten_and_nothing_is_written(
    clone: Any, capsys: pytest.CaptureFixture[str], existing: str
) -> None:
    clone.write(existing, "name: mine\n")
    assert main(["init", "--workflow", "--action", ACTION]) == 2
    assert (clone.root / existing).read_text(encoding="utf-8") == "name: mine\n"
    assert not (clone.root / DEFAULT_RUBRIC_PATH).exists()
    assert len(list((clone.root / ".github" / "workflows").iterdir())) == 1
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--workflow"], "--workflow needs --action"),
        (["--action", ACTION], "pass --workflow too"),
        (["--workflow", "--action", "acme/gate@v1"], "not a full 40-hex commit SHA"),
        (["--workflow", "--action", ACTION, "--path", "../outside.yml"], "outside the repository"),
    ],
)
def test_bad_init_arguments_exit_2_and_write_nothing(
    clone: Any, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    assert main(["init", *argv]) == 2
    assert needle in capsys.readouterr().err
    assert not (clone.root / ".github").exists()


def test_init_workflow_outside_a_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--workflow", "--action", ACTION]) == 2
    assert "inside a clone" in capsys.readouterr().err
    assert not (tmp_path / ".github").exists()


def test_init_path_suggests_commands_that_work(
    clone: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every `gate ...` line init prints runs as printed (after the commit it asks for)."""
    assert main(["init", "--path", "conf/my rubric.yml"]) == 0
    out = capsys.readouterr().out
    clone.write("src/app.py", "x = 1\n")
    clone.commit("rubric on main")
    clone.git("checkout", "-q", "-b", "agent")
    clone.write("src/app.py", "x = 2\n")
    clone.commit("a change")
    commands = [line.split("#")[0].strip() for line in out.splitlines()]
    gate_lines = [c for c in commands if c.startswith("gate ")]
    assert any("--rubric 'conf/my rubric.yml'" in c for c in gate_lines), gate_lines
    for command in gate_lines:
        argv = shlex.split(command)
        assert main(argv[1:]) == 0, (command, capsys.readouterr())
        capsys.readouterr()


@pytest.mark.parametrize(
    "path",
    [
        ".github/workflows/blast-radius-too.yml",
        ".github/workflows/nested/x.yaml",
        ".github/workflows/blast-radius.yml",  # the gate's own workflow, edited
    ],
)
def test_starter_fails_a_pr_that_adds_or_edits_a_workflow(
    repo: Any, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    """A workflow added by a PR could post a check run named like the gate's."""
    import json

    repo.write(DEFAULT_RUBRIC_PATH, STARTER_RUBRIC)
    repo.write(WORKFLOW_PATH, workflow_text(ACTION))
    repo.commit("adopt the gate")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write(path, "on: pull_request\njobs:\n  blast-radius:\n    runs-on: ubuntu-latest\n")
    repo.commit("a friendly extra check")
    code = main(["check", "--repo", str(repo.root), "--base", "main", "--format", "json"])
    assert code == 1
    assert json.loads(capsys.readouterr().out)["failed"] == ["CI"]


FROZEN_CASES = {
    "npm": (
        {"package.json": '{"scripts": {"test": "node --test"}}', "package-lock.json": "{}"},
        "npm ci",
        "npm test",
    ),
    "pnpm": (
        {"package.json": '{"scripts": {"test": "vitest run"}}', "pnpm-lock.yaml": ""},
        "pnpm install --frozen-lockfile",
        "pnpm test",
    ),
    "yarn": (
        {"package.json": '{"scripts": {"test": "jest"}}', "yarn.lock": ""},
        "yarn install",
        "yarn test",
    ),
    "go": ({"go.mod": "module example.com/m\n"}, "go mod download", "go test ./..."),
    "pytest": (
        {"pyproject.toml": "[tool.pytest.ini_options]\n", "tests/test_x.py": ""},
        ".venv/bin/pip install --quiet -e . pytest",
        ".venv/bin/python -m pytest",
    ),
    "unittest": (
        {"setup.py": "", "tests/test_x.py": "import unittest\n"},
        ".venv/bin/pip install --quiet -e .",
        ".venv/bin/python -m unittest discover",
    ),
    "npm's placeholder is no test": (
        {
            "package.json": (
                '{"scripts": {"test": "echo \\"Error: no test specified\\" && exit 1"}}'
            ),
            "go.mod": "module m\n",
        },
        "go mod download",
        "go test ./...",
    ),
}


@pytest.mark.parametrize("case", sorted(FROZEN_CASES))
def test_init_writes_the_frozen_job_with_the_test_command_it_detects(
    clone: Any, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    files, install, command = FROZEN_CASES[case]
    clone.write_many(files)
    assert main(["init", "--workflow", "--action", ACTION]) == 0
    text = (clone.root / FROZEN_WORKFLOW_PATH).read_text(encoding="utf-8")
    workflow = yaml.safe_load(text)
    assert list(workflow[True]) == ["pull_request"]  # never pull_request_target
    assert workflow["permissions"] == {"contents": "read"}
    (job,) = workflow["jobs"].values()
    steps = {s.get("name"): s for s in job["steps"]}
    assert install in steps["Install dependencies"]["run"].splitlines()
    assert steps["Frozen tests"]["uses"] == f"acme/blast-radius-gate/frozen-tests@{SHA}"
    assert steps["Frozen tests"]["with"]["command"] == command
    checkout = next(s for s in job["steps"] if "actions/checkout" in str(s.get("uses", "")))
    assert checkout["with"] == {"fetch-depth": 0, "persist-credentials": False}
    assert detect(clone.root).command == command
    assert command in capsys.readouterr().out
