"""The writer loop's act scenario: a repository that adopted
examples/writer-loop-workflow.yml, with the clamp lab, three replay writers'
recordings (tests/loop_fixture.py) and two prompts, and the image its jobs
run in.

What stands in for what, beyond tests/act_harness/runner.py:

- **The runner image** is the project's own Dockerfile image (built from the
  session's project copy on the stand-in base): it has git and the gate; the
  workflow's `Install the gate` lines (a pip install from GitHub) become a
  `gate` shim on that Python, since the job container reaches no index.
- **actions/upload-artifact and actions/download-artifact** are stand-ins
  (tests/act_harness/artifacts/) that copy files to and from
  /act-artifacts, a host folder mounted into every job container.
- **The test command** is a plain-Python check of the four clamp tests
  (check_clamp.py): the image carries the gate's runtime, not pytest.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from lab_fixture import LAB_RUBRIC
from loop_fixture import PROMPTS, WRITERS, record

from act_harness.runner import ROOT, scenario_repo
from gate.starter import demo_fixture

LOOP_WORKFLOW = ROOT / "examples" / "writer-loop-workflow.yml"
WORKFLOW = ".github/workflows/writer-loop.yml"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
UPLOAD = re.compile(r"uses:\s*(actions/upload-artifact@[0-9a-f]{40})")
DOWNLOAD = re.compile(r"uses:\s*(actions/download-artifact@[0-9a-f]{40})")
_INSTALL = re.compile(r"(?m)^(\s*run: )python3 -m venv .*blast-radius-gate@0{40}.*$")
SHIM = (
    "printf '#!/bin/sh\\nexec /opt/gate/bin/python -m gate \"$@\"\\n' > /usr/local/bin/gate"
    ' && chmod +x /usr/local/bin/gate && echo /opt/gate/bin >> "$GITHUB_PATH"'
)

CHECK_CLAMP = """\
from clamp_kit import clamp

assert clamp(10, 0, 10) == 10, "high edge"
assert clamp(-1, 0, 10) == 0, "low edge"
assert clamp(3, 0, 10) == 3, "mid"
try:
    clamp(1, 5, 2)
except ValueError:
    pass
else:
    raise AssertionError("bad range: no ValueError")
print("4 checks passed")
"""
TEST_COMMAND = "python3 check_clamp.py"  # the example workflow's TEST_COMMAND
WRITERS_FILE = "".join(
    f'{name}: python3 -m gate.research.writers.replay "$REPLAY_DIR"\n' for name in WRITERS
)


def adopted_workflow() -> str:
    """The example as the scenario runs it: the pip installs become a shim."""
    text = LOOP_WORKFLOW.read_text(encoding="utf-8")
    text, count = _INSTALL.subn(lambda m: m.group(1) + SHIM, text)
    if count != 2:
        raise ValueError(f"expected two `Install the gate` run lines, found {count}")
    if f"TEST_COMMAND: {TEST_COMMAND}\n" not in text:
        raise ValueError("the example's TEST_COMMAND is not the scenario's check_clamp.py")
    return text


def stand_ins(workflow: str) -> dict[str, Path]:
    """`uses:` refs of the artifact actions -> their stand-ins (--local-repository)."""
    found = {ref: ARTIFACTS / "upload" for ref in UPLOAD.findall(workflow)}
    found.update({ref: ARTIFACTS / "download" for ref in DOWNLOAD.findall(workflow)})
    return found


def loop_repository(root: Path, scratch: Path) -> str:
    """The adopting repository at `root` (main checked out); its sha."""
    repo = scenario_repo(root, init=True)
    repo.write_many(
        {
            **demo_fixture.FILES,
            "check_clamp.py": CHECK_CLAMP,
            ".github/blast-radius.yml": LAB_RUBRIC,
            WORKFLOW: adopted_workflow(),
            "writer-loop/writers.yml": WRITERS_FILE,
            **{f"writer-loop/prompts/{name}.txt": text for name, text in PROMPTS.items()},
        }
    )
    # The recordings are patches against the lab: made in a scratch copy of it.
    lab = scenario_repo(scratch, init=True)
    lab.write_many(demo_fixture.FILES)
    lab.commit("lab")
    record(lab, scratch.parent / "recordings")
    shutil.copytree(scratch.parent / "recordings", root / "writer-loop" / "recordings")
    return repo.commit("clamp lab, writers, prompts, recordings, the loop's workflow")


def gate_image(project: Path, tag: str) -> str:
    """The project's Dockerfile image, built from `project` (host network for pip)."""
    proc = subprocess.run(
        ["docker", "build", "-q", "--network", "host", "-t", tag, str(project)],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"cannot build {tag}: {proc.stderr[-2000:]}")
    return tag
