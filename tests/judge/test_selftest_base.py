"""Class 8: `gate selftest --base REV` names rules whose file or paths the base lacks.

A one-letter typo in a content rule's `file` makes a rule that can never
fire: an error under `--strict`.  A forbidden or test path that matches
nothing at base may be deliberate (a place that must not be created), so it
is a warning only.  Generated: base trees, and rule names that are either a
base path or a one-letter typo of one.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.commands.cli import main

SEGMENT = st.text(alphabet="abcdefgh", min_size=1, max_size=6)
BASE_FILES = st.lists(
    st.tuples(SEGMENT, SEGMENT).map(lambda t: f"{t[0]}/{t[1]}.py"),
    min_size=1,
    max_size=6,
    unique_by=lambda p: p.split("/")[0],  # no file is also a directory
)


_counter = itertools.count()


@st.composite
def name_or_typo(draw: Any, files: list[str]) -> str:
    """A base file, or the same with one letter of its file name turned into a digit."""
    path = draw(st.sampled_from(files))
    if draw(st.booleans()):
        return path
    folder, name = path.split("/")
    at = draw(st.integers(min_value=0, max_value=len(name) - 4))  # inside the stem
    return f"{folder}/{name[:at]}{draw(st.sampled_from('0123456789'))}{name[at + 1 :]}"


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), files=BASE_FILES)
def test_names_missing_at_base_are_reported(
    make_repo: Any, capsys: pytest.CaptureFixture[str], data: st.DataObject, files: list[str]
) -> None:
    content = data.draw(name_or_typo(files))
    forbidden = data.draw(name_or_typo(files))
    tests = data.draw(name_or_typo(files))
    kind = data.draw(st.sampled_from(["keep_symbols", "keep_lines", "confine_to_symbols"]))
    param = "symbols: [x]" if kind != "keep_lines" else "lines: [x]"
    rubric = (
        "rules:\n"
        f"  - {{id: C1, kind: {kind}, file: {json.dumps(content)}, {param}}}\n"
        f"  - {{id: F1, kind: forbidden_paths, paths: [{json.dumps(forbidden)}]}}\n"
        f"  - {{id: P1, kind: forbidden_path, prefix: {json.dumps(forbidden)}}}\n"
        f"  - {{id: T1, kind: test_drift, paths: [{json.dumps(tests)}]}}\n"
    )
    repo = make_repo(f"r{next(_counter)}")
    repo.write_many({path: "x = 1\n" for path in files})
    repo.write(".github/blast-radius.yml", rubric)
    repo.commit("base")
    root = str(repo.root)
    capsys.readouterr()
    code = main(["selftest", "--repo", root, "--base", "HEAD", "--format", "json"])
    data_out = json.loads(capsys.readouterr().out)
    found = {f["id"]: f["strict"] for f in data_out["at_base"]}
    expected: dict[str, bool] = {}
    if content not in files:
        expected["C1"] = True
    if forbidden not in files:
        expected["F1"] = expected["P1"] = False
    if tests not in files:
        expected["T1"] = False
    assert found == expected
    assert code == 0  # unproven rules and base findings are warnings without --strict
    strict = main(["selftest", "--repo", root, "--base", "HEAD", "--strict"])
    text = capsys.readouterr().out
    assert strict == 1
    assert ("error: rule C1" in text) == (content not in files)
    assert ("warning: rule F1" in text) == (forbidden not in files)


def test_strict_fails_only_for_the_missing_file(make_repo: Any, capsys: Any) -> None:
    repo = make_repo("strict")
    rubric = (
        "rules:\n"
        "  - {id: NAMES, kind: keep_symbols, file: %s, symbols: [helper]}\n"
        "  - {id: NEW, kind: forbidden_paths, paths: [vendor/]}\n"
        "examples:\n"
        "  - {name: ok, expect: pass, change: [{path: a.py, added: 1}]}\n"
        "  - name: lost\n"
        "    expect: [NAMES]\n"
        "    change: [{path: %s, before: 'def helper(): pass\\n', after: 'x = 1\\n'}]\n"
        "  - {name: vendor, expect: [NEW], change: [{path: vendor/x, status: added, added: 1}]}\n"
    )
    repo.write("src/kit.py", "def helper():\n    pass\n")
    repo.write(".github/blast-radius.yml", rubric % ("src/kit.py", "src/kit.py"))
    repo.commit("right")
    args = ["selftest", "--repo", str(repo.root), "--base", "HEAD", "--strict"]
    assert main(args) == 0
    assert "warning: rule NEW (forbidden_paths)" in capsys.readouterr().out
    repo.write(".github/blast-radius.yml", rubric % ("src/kti.py", "src/kti.py"))
    repo.commit("typo")
    assert main(args) == 1
    out = capsys.readouterr().out
    assert 'error: rule NAMES (keep_symbols): file "src/kti.py" does not exist at base' in out
