"""bench/readings.py re-measures a round of readings with today's gate:
a flag still raised keeps its reader's verdict, a wanted flag no longer
raised is a new miss, a flag nobody read is listed unread, and a flag a
later gate raised counts by the verdict read then (`later`); `--alarms`
lists the false alarms still raised."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]
TEST = "def test_add():\n    assert 1 + 1 == 2\n"


def test_a_round_is_judged_again_and_each_flag_keeps_or_loses_its_verdict(
    make_repo: type[GitRepo], tmp_path: Path
) -> None:
    repo = make_repo("acme+demo")  # type: ignore[call-arg]
    repo.write_many({"src/a.py": "x = 1\n", "tests/test_a.py": TEST})
    repo.commit("base")
    repo.write("tests/test_a.py", TEST.replace("2", "3"))
    bent = repo.commit("bend a test")
    repo.write(".github/workflows/ci.yml", "on: push\n")
    workflow = repo.commit("a workflow")
    repo.write("src/a.py", "x = 2\n")
    small = repo.commit("a small change")
    repo.write("src/a.py", "x = 3\n")
    read_failing = repo.commit("read when it failed FILES")
    repo.write(".github/workflows/ci.yml", "on: [push]\n")
    read_later = repo.commit("a workflow edited, its CI flag read later")
    head = repo.head()

    def item(sha: str, **read: object) -> dict[str, object]:
        return {"repo": "acme/demo", "sha": sha, **read}

    record = {
        "repositories": {"acme/demo": head},
        "items": [
            item(bent, flags={"TESTS": {"verdict": "wanted", "class": "an assertion"}}),
            item(workflow, flags={}),  # read as a pass: CI is raised anew
            item(small, flags={}, missed="TESTS"),
            item(read_failing, flags={"FILES": {"verdict": "wanted", "class": "big"}}),
            # a flag a later gate raised, read then: counted, never unread
            item(read_later, flags={}, later={"CI": {"verdict": "false alarm", "class": "x"}}),
        ],
    }
    (tmp_path / "round-1.json").write_text(json.dumps(record))
    script = [sys.executable, str(ROOT / "bench" / "readings.py"), str(tmp_path / "round-1.json")]
    done = subprocess.run(
        [*script, "--mirrors", str(tmp_path), "--work", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "round-1: flags 2, wanted 1 (50%), passes 2, missed 2, unread 1",
        f"  unread: acme/demo {workflow[:12]} CI",
        f"  missed: acme/demo {read_failing[:12]} no longer fails FILES",
    ]
    alarms = subprocess.run(
        [*script, "--mirrors", str(tmp_path), "--work", str(tmp_path), "--alarms"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert alarms.stdout.splitlines()[3:] == [f"  false alarm: acme/demo {read_later[:12]} CI: x"]
