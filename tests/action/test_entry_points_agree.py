"""Class 8: every entry point judges the same change alike.

Random changes (edits, deletions, renames, new files in forbidden places, the
rubric itself, green or red test output) go through git mode (`gate check`),
`gate check --patch`, `gate lab`, `gate grade` and the Action (reading the
change from git or from the API double), with the rubric path spelled in any
of the ways git names the same file.  All give the same verdict and the same
failed ids; `gate grade` only knows paths and stdout, so it is compared on
the rules it can judge.  Built-ins only the Action computes
(`gate.workflow-edited`, `gate.diff-incomplete`) are left out of the
comparison; `gate.rubric-edited` is in it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Scenario
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gate.commands.cli import main

RUBRIC_PATH = ".github/blast-radius.yml"
SPELLINGS = [
    RUBRIC_PATH,
    "./" + RUBRIC_PATH,
    ".github//blast-radius.yml",
    ".github/./blast-radius.yml",
]

RUBRIC = """\
rules:
  - {id: FILES, kind: max_files, limit: 3}
  - {id: LINES, kind: max_lines, limit: 12}
  - {id: PREFIX, kind: forbidden_path, prefix: secrets}
  - {id: FORBID, kind: forbidden_paths, paths: ["config/**"]}
  - {id: ALLOW, kind: allowed_paths, paths: ["app.py", "lib/**", "tests/**", "docs/**"]}
  - {id: TESTS, kind: test_drift}
  - {id: NAMES, kind: keep_symbols, file: app.py, symbols: [main, helper]}
  - {id: BAIT, kind: keep_lines, file: app.py, lines: ["import math  # bait"]}
  - {id: SCOPE, kind: confine_to_symbols, file: app.py, symbols: [main]}
  - {id: GREEN, kind: must_include, token: "EXIT=0"}
"""
# The kinds `gate grade` can judge from a result's paths, count and stdout.
GRADE_IDS = {
    "FILES",
    "PREFIX",
    "FORBID",
    "ALLOW",
    "GREEN",
    "gate.rubric-edited",
    "gate.rubric-selftest",
}
ACTION_ONLY = {"gate.workflow-edited", "gate.diff-incomplete"}

APP = "import math  # bait\n\n\ndef main():\n    return 1\n\n\ndef helper(x):\n    return x\n"
BASE = {
    RUBRIC_PATH: RUBRIC,
    "app.py": APP,
    "lib/util.py": "".join(f"VALUE_{i} = {i}\n" for i in range(12)),
    "tests/test_app.py": "def test_main():\n    assert True\n",
    "docs/readme.md": "# readme\n",
}
APP_VARIANTS = [
    APP.replace("return 1", "return 2"),  # inside main
    APP.replace("return x", "return x + 1"),  # inside helper: outside SCOPE
    APP.replace("def helper", "def renamed"),
    APP.replace("import math  # bait\n", ""),
    APP + "\n\nEXTRA = 1\n",
]
# (path, content or None to delete, or ("rename", new path))
EDITS = st.sampled_from(
    [
        ("lib/util.py", "VALUE = 1\n"),
        ("lib/util.py", None),
        ("lib/util.py", ("rename", "lib/util2.py")),
        ("lib/util.py", ("rename", "misc/util.py")),
        ("tests/test_app.py", "def test_main():\n    assert False\n"),
        ("tests/test_app.py", None),
        ("tests/test_new.py", "def test_new():\n    pass\n"),
        ("secrets/key", "k\n"),
        ("secretsfile", "k\n"),
        ("config/app.yml", "a: 1\n"),
        ("docs/readme.md", "# readme\n\nmore\n"),
        ("docs/new.md", "".join(f"line {i}\n" for i in range(10))),
        (RUBRIC_PATH, RUBRIC + "# edited\n"),
    ]
    + [("app.py", text) for text in APP_VARIANTS]
)

_counter = itertools.count(1)


def _apply(repo: Any, edits: list[tuple[str, Any]]) -> None:
    done: set[str] = set()
    for path, what in edits:
        if path in done:
            continue
        done.add(path)
        if what is None:
            repo.remove(path)
        elif isinstance(what, tuple):
            (repo.root / what[1]).parent.mkdir(parents=True, exist_ok=True)
            repo.git("mv", "--", path, what[1])
            done.add(what[1])
        else:
            repo.write(path, what)


def _failed(report: dict[str, Any], keep: set[str] | None = None) -> list[str]:
    ids = [i for i in report["failed"] if i not in ACTION_ONLY]
    return [i for i in ids if keep is None or i in keep]


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    code = main(argv)
    captured = capsys.readouterr()
    assert code in (0, 1), (argv, captured.err)
    return code, json.loads(captured.out)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    edits=st.lists(EDITS, min_size=1, max_size=4),
    spelling=st.sampled_from(SPELLINGS),
    green=st.booleans(),
    api_mode=st.booleans(),
)
# The bug this test was written for: `gate lab` missed gate.rubric-edited
# when the rubric path was written `./...`.
@example(
    edits=[(RUBRIC_PATH, RUBRIC + "# edited\n")], spelling=SPELLINGS[1], green=True, api_mode=False
)
@example(
    edits=[("lib/util.py", ("rename", "misc/util.py")), ("app.py", APP_VARIANTS[2])],
    spelling=SPELLINGS[2],
    green=False,
    api_mode=True,
)
def test_every_entry_point_gives_the_same_verdict_and_ids(
    github: Any,
    tmp_path_factory: pytest.TempPathFactory,
    make_repo: Any,
    capsys: pytest.CaptureFixture[str],
    edits: list[tuple[str, Any]],
    spelling: str,
    green: bool,
    api_mode: bool,
) -> None:
    tmp = Path(tmp_path_factory.mktemp("agree"))
    scenario = Scenario(
        github=github, tmp=tmp, make_repo=lambda name: make_repo(f"{name}{next(_counter)}")
    )
    repo = scenario.repo
    for path in repo.git("ls-files", "-z").split("\0"):
        if path:
            repo.remove(path)
    repo.write_many(BASE)
    scenario.base = base = repo.commit("base for this example")
    _apply(repo, edits)
    head = scenario.push({})
    root = str(repo.root)
    stdout = tmp / "stdout.txt"
    stdout.write_text("EXIT=0\n" if green else "EXIT=1\n")
    patch = tmp / "change.patch"
    patch.write_bytes(
        repo.git("diff", "-M", "--binary", base, head).encode("utf-8", "surrogateescape")
    )
    (tmp / "change.patch.stdout").write_text(stdout.read_text())
    common = ["--repo", root, "--base", base, "--rubric", spelling, "--format", "json"]

    code, checked = _json(capsys, ["check", *common, "--head", head, "--stdout-file", str(stdout)])
    expected = _failed(checked)
    assert (code == 0) == (expected == [] and checked["pass"])

    _, patched = _json(
        capsys, ["check", *common, "--patch", str(patch), "--stdout-file", str(stdout)]
    )
    assert _failed(patched) == expected, "--patch"

    _, lab = _json(capsys, ["lab", *common, str(patch)])
    (row,) = lab["patches"]
    assert [i for i in row["failed"] if i not in ACTION_ONLY] == expected, "lab"

    files = repo.git("diff", "-M", "--name-status", "-z", base, head).split("\0")
    paths: list[str] = []
    changes = 0
    i = 0
    while i < len(files) - 1:
        status = files[i]
        width = 2 if status[0] in "RC" else 1
        paths.extend(files[i + 1 : i + 1 + width])
        changes += 1
        i += 1 + width
    result = tmp / "result.json"
    result.write_text(
        json.dumps({"files_touched": changes, "stdout": stdout.read_text(), "paths": paths})
    )
    rubric_file = tmp / "rubric.yml"
    rubric_file.write_text(RUBRIC)
    _, graded = _json(
        capsys, ["grade", str(result), "--rubric", str(rubric_file), "--format", "json"]
    )
    assert _failed(graded, GRADE_IDS) == _failed(checked, GRADE_IDS), "grade"

    scenario.inputs["rubric-path"] = spelling
    scenario.inputs["stdout-file"] = str(stdout)
    if api_mode:
        scenario.workspace = None
    out = scenario.run()
    assert out.code in (0, 1), out.log
    assert _failed(out.report()) == expected, "action"
