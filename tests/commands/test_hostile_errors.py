"""Class 4: exhaustion and oversized values are named errors (exit 2), never crashes.

Generated inputs: nesting of any depth in every JSON input the gate reads
(the rubric, a writer's result.json, reports for `gate diff`), integers of
any number of digits in each of them (and in YAML rubrics and patch hunk
headers), and Python expressions nested deep enough to exhaust Python's own
parser under the content rules.  Each either loads (and then judges) or is a
GateError with a one-line message; nothing else escapes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError, PatchError
from gate.base.jsontext import INT_MAX, INT_MIN, loads
from gate.changes.purity import check_pure
from gate.commands.cli import main
from gate.judge import evaluate
from gate.model.change import MODIFIED, ChangeSet, FileChange, FileTexts
from gate.rubric.load import load_rubric_bytes

SOME = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

DEPTHS = st.integers(min_value=1, max_value=60_000)
OPENERS = st.sampled_from(["[", '{"a":'])
# Digit counts around every boundary that matters: 64 bits (19-20 digits),
# Python's int-conversion limit (4300) and beyond.
DIGITS = st.one_of(
    st.integers(min_value=1, max_value=25),
    st.integers(min_value=4290, max_value=4310),
    st.integers(min_value=1, max_value=20_000),
)
SIGNS = st.sampled_from(["", "-"])


def nested(depth: int, opener: str, core: str = "1") -> str:
    closer = "]" if opener == "[" else "}"
    return opener * depth + core + closer * depth


def one_line(exc: GateError) -> None:
    assert "\n" not in exc.message
    assert len(exc.message) < 2000


def big_number(digits: int, sign: str) -> str:
    return sign + "9" * digits


def in_64_bits(text: str) -> bool:
    return INT_MIN <= int(text) <= INT_MAX if len(text) < 30 else False


# --- JSON readers ----------------------------------------------------------


@settings(SOME, max_examples=20)  # PyYAML scans deep input slowly
@given(depth=DEPTHS, opener=OPENERS)
def test_deep_json_is_read_or_refused_by_name(depth: int, opener: str) -> None:
    text = nested(depth, opener)
    try:
        loads(text.encode(), "deep.json", fix="fix it")
    except GateError as exc:
        one_line(exc)
        assert exc.message.startswith("deep.json")
    try:
        load_rubric_bytes(('{"rules": ' + text + "}").encode(), "r.json")
    except GateError as exc:
        one_line(exc)
        assert exc.message.startswith("invalid rubric: r.json")
    try:
        load_rubric_bytes(("rules: " + text + "\n").encode(), "r.yml")
    except GateError as exc:
        one_line(exc)
        assert exc.message.startswith("invalid rubric: r.yml")


@SOME
@given(digits=DIGITS, sign=SIGNS)
def test_long_integers_in_json_inputs_are_in_range_or_refused(digits: int, sign: str) -> None:
    number = big_number(digits, sign)
    try:
        value = loads(('{"n": ' + number + "}").encode(), "r.json", fix="fix it")
    except GateError as exc:
        one_line(exc)
        assert not in_64_bits(number)
        assert "out of range" in exc.message
    else:
        assert in_64_bits(number)
        assert value == {"n": int(number)}


RUBRIC_SLOTS = [
    ("r.json", '{"version": %s, "rules": [{"id": "F", "kind": "max_files", "limit": 1}]}'),
    ("r.json", '{"rules": [{"id": "F", "kind": "max_files", "limit": %s}]}'),
    ("r.yml", "rules:\n  - {id: F, kind: max_files, limit: %s}\n"),
    ("r.yml", "rules:\n  - {id: F, kind: max_lines, limit: 0x%s}\n"),
    (
        "r.yml",
        "rules:\n  - {id: F, kind: max_files, limit: 1}\n"
        "examples:\n  - {name: a, expect: [F], change: [{path: a, added: %s}]}\n",
    ),
]


@SOME
@given(digits=DIGITS, sign=SIGNS, slot=st.sampled_from(RUBRIC_SLOTS))
def test_long_integers_in_rubrics_load_or_are_refused(
    digits: int, sign: str, slot: tuple[str, str]
) -> None:
    source, template = slot
    try:
        rubric = load_rubric_bytes((template % big_number(digits, sign)).encode(), source)
    except GateError as exc:
        one_line(exc)
        assert exc.message.startswith(f"invalid rubric: {source}")
    else:
        for rule in rubric.rules:
            for value in rule.params.values():
                if isinstance(value, int):
                    assert INT_MIN <= value <= INT_MAX


@SOME
@given(digits=DIGITS, field=st.sampled_from(["old", "new"]))
def test_long_hunk_counts_are_refused_as_patches(digits: int, field: str) -> None:
    count = "9" * digits
    header = f"@@ -1,{count} +1 @@" if field == "old" else f"@@ -1 +1,{count} @@"
    patch = f"diff --git a/x b/x\n--- a/x\n+++ b/x\n{header}\n-a\n+b\n".encode()
    try:
        check_pure(patch, "w.patch")
    except PatchError as exc:
        assert "\n" not in exc.message


# --- the command line, end to end --------------------------------------------


RUBRIC = "rules:\n  - {id: FILES, kind: max_files, limit: 3}\n"


@SOME
@given(digits=DIGITS, deep=st.booleans())
def test_grade_and_diff_exit_2_with_one_sentence(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    digits: int,
    deep: bool,
) -> None:
    root = tmp_path_factory.mktemp("cli")
    rubric = root / "rubric.yml"
    rubric.write_text(RUBRIC)
    number = big_number(digits, "")
    result = root / "result.json"
    report = root / "report.json"
    if deep:  # far past any recursion limit
        depth = 50_000 + digits
        result.write_text('{"files_touched": 1, "stdout": "", "paths": [], "x": ')
        with result.open("a") as fh:
            fh.write(nested(depth, "[") + "}")
        report.write_text('{"results": ' + nested(depth, "[", "") + "}")
    else:
        result.write_text('{"files_touched": ' + number + ', "stdout": "", "paths": []}')
        report.write_text('{"pass": true, "results": [], "rule_count": ' + number + "}")
    expect_ok = not deep and in_64_bits(number)
    capsys.readouterr()
    code = main(["grade", str(result), "--rubric-file", str(rubric), "--format", "json"])
    err = capsys.readouterr().err
    if expect_ok:
        assert code in (0, 1)
    else:
        assert code == 2, err
        assert err.count("\n") == 1 and err.startswith("gate: error: ")
    code = main(["diff", str(report), str(report)])
    err = capsys.readouterr().err
    if deep or not expect_ok:
        assert code == 2, err
        assert err.count("\n") == 1 and err.startswith("gate: error: ")
    else:
        assert code == 0


# --- content rules: Python's parser out of stack -------------------------------

DEEP_PYTHON = st.sampled_from(
    [
        lambda n: "x = " + "1" + " + 1" * n + "\n",  # a left-leaning BinOp chain
        lambda n: "x = " + "-" * n + "1\n",  # unary operators
        lambda n: "x = a" + ".b" * n + "\n",  # attribute chain
        lambda n: "x = f" + "()" * n + "\n",  # call chain
        lambda n: "x = " + "not " * n + "y\n",
        lambda n: "x = " + "(" * min(n, 150) + "1" + ")" * min(n, 150) + "\n",
    ]
)

CONTENT_RUBRIC = """\
rules:
  - {id: NAMES, kind: keep_symbols, file: m.py, symbols: [keep]}
  - {id: SCOPE, kind: confine_to_symbols, file: m.py, symbols: [x]}
"""


@SOME
@given(make=DEEP_PYTHON, depth=st.integers(min_value=1, max_value=200_000), side=st.booleans())
def test_deep_python_is_judged_or_cannot_be_judged(make: Any, depth: int, side: bool) -> None:
    rubric = load_rubric_bytes(CONTENT_RUBRIC.encode(), "r.yml")
    plain = "def keep():\n    return 1\n\nx = 1\n"
    deep = "def keep():\n    return 1\n\n" + make(depth)
    base, head = (deep, plain) if side else (plain, deep)
    changes = ChangeSet(
        files=(FileChange("m.py", status=MODIFIED, added=1, deleted=1),),
        texts={"m.py": FileTexts(base=base, head=head)},
    )
    try:
        report = evaluate(rubric, changes)
    except GateError as exc:
        one_line(exc)
        assert '"m.py"' in exc.message and "nests too deeply" in exc.message
    else:
        assert [r.id for r in report.results] == ["NAMES", "SCOPE"]


def test_deep_python_exits_2_from_a_real_process(make_repo: Any) -> None:
    repo = make_repo("deep")
    repo.write(".github/blast-radius.yml", CONTENT_RUBRIC)
    repo.write("m.py", "def keep():\n    return 1\n\nx = 1\n")
    base = repo.commit("base")
    repo.write("m.py", "def keep():\n    return 1\n\nx = 1" + " + 1" * 200_000 + "\n")
    repo.commit("deep")
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "check", "--base", base],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith('gate: error: the head version of "m.py" nests too deeply')


@SOME
@given(digits=DIGITS, depth=DEPTHS, opener=OPENERS)
def test_event_payload_bounds(
    tmp_path_factory: pytest.TempPathFactory, digits: int, depth: int, opener: str
) -> None:
    from gate.action.event import read_event
    from gate.github.settings import Settings

    event = tmp_path_factory.mktemp("event") / "event.json"
    env = {
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_REPOSITORY": "o/r",
        "GITHUB_EVENT_PATH": str(event),
    }
    settings_ = Settings.from_env(env)
    number = big_number(digits, "")
    for text in ('{"number": ' + number + "}", '{"x": ' + nested(depth, opener) + "}"):
        event.write_text(text)
        try:
            data = read_event(settings_)
        except GateError as exc:
            one_line(exc)
            assert str(event) in exc.message
        else:
            assert isinstance(data, dict)
            if "number" in data:
                assert in_64_bits(number)
    event.write_text('{"number": ' + "9" * 5000 + "}")
    with pytest.raises(GateError, match="out of range"):
        read_event(settings_)
    event.write_text(json.dumps({"number": 7}))
    assert read_event(settings_) == {"number": 7}


@SOME
@given(
    number=st.one_of(
        st.integers(min_value=1, max_value=6000).map(lambda n: "9" * n),
        st.text(alphabet="0123456789²١٢३", min_size=1, max_size=8),
    )
)
def test_pr_number_input_is_a_number_or_refused(number: str) -> None:
    from gate.github.settings import Settings

    env = {
        "GITHUB_EVENT_NAME": "workflow_dispatch",
        "GITHUB_REPOSITORY": "o/r",
        "INPUT_PR-NUMBER": number,
    }
    try:
        settings_ = Settings.from_env(env)
    except GateError as exc:
        one_line(exc)
        assert "pr-number" in exc.message
    else:
        assert settings_.pr_number == int(number) > 0
        assert number.isascii() and len(number) <= 18
