"""The rubric loader: strict parsing, schema validation, semantic checks, values.

Bad rubrics are a table: each must exit 2 through the real CLI with one
sentence that names the file, the line and the rule/key, and no traceback.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from gate.base.errors import GateError
from gate.changes.example import line_counts
from gate.commands.cli import main
from gate.judge.selftest import run_selftest
from gate.model.change import ADDED, DELETED, MODIFIED, RENAMED, FileTexts
from gate.model.rubric import DEFAULT_TESTS
from gate.rubric.load import MAX_BYTES, load_rubric_bytes, sha256_hex
from gate.rubric.schema import schema
from gate.rubric.source import RubricSource
from gate.rules import REGISTRY, text_wants
from gate.starter.demo_fixture import CLAMP_KIT, CLEANUP_KIT, HONEST_FIX, RUBRIC

ONE = "rules:\n  - {id: A, kind: max_files, limit: 1}\n"

# (case id, rubric text, file name, substrings the one-line error must contain)
BAD: list[tuple[str, str, str, list[str]]] = [
    (
        "unknown top-level key",
        ONE + "rulez: []\n",
        "r.yml",
        [
            ":3:",
            'unknown key "rulez"',
            "allowed keys: version, tests, applies_to, frozen_tests, scope, rules",
        ],
    ),
    (
        "unknown key in a rule",
        "rules:\n  - id: F3\n    kind: forbidden_paths\n    pathz: [secrets/]\n",
        "r.yml",
        [
            ':4: rule "F3" (forbidden_paths): unknown key "pathz"; '
            "allowed keys: id, kind, description, level, paths"
        ],
    ),
    (
        "unknown key in applies_to",
        "applies_to:\n  labels: [agent]\n  author: [bot]\n" + ONE,
        "r.yml",
        [':3: applies_to: unknown key "author"', "authors, labels, head_branches"],
    ),
    (
        "unknown key in an example",
        ONE + "examples:\n  - name: tiny\n    expect: pass\n    change: []\n    verdict: ok\n",
        "r.yml",
        [':7: example "tiny": unknown key "verdict"', "name, expect, stdout, change"],
    ),
    (
        "unknown key in an example change entry",
        ONE + "examples:\n  - name: tiny\n    expect: pass\n    change:\n"
        "      - {path: a.py, lines: 3}\n",
        "r.yml",
        [':7: example "tiny", change entry 1 ("a.py"): unknown key "lines"', "added, deleted"],
    ),
    (
        "duplicate id",
        ONE + "  - {id: B, kind: max_files, limit: 2}\n  - {id: A, kind: max_lines, limit: 9}\n",
        "r.yml",
        [':4: rule "A" (max_lines): duplicate id "A" (first used on line 2)'],
    ),
    (
        "unknown kind",
        "rules:\n  - id: K\n    kind: max_filez\n    limit: 1\n",
        "r.yml",
        [':3: rule "K": unknown kind "max_filez"; use one of: max_files, max_lines'],
    ),
    (
        "missing parameter",
        "rules:\n  - id: L\n    kind: max_lines\n",
        "r.yml",
        [':2: rule "L" (max_lines): missing key "limit"'],
    ),
    (
        "missing id",
        "rules:\n  - kind: max_lines\n    limit: 1\n",
        "r.yml",
        [":2: rule #1 (max_lines): missing key", '"id"'],
    ),
    (
        "boolean where an integer is expected",
        "rules:\n  - id: F1\n    kind: max_files\n    limit: true\n",
        "r.yml",
        [':4: rule "F1" (max_files): "limit" must be an integer, not a boolean'],
    ),
    (
        "yes is a boolean, not an integer",
        "rules:\n  - id: F1\n    kind: max_files\n    limit: yes\n",
        "r.yml",
        [':4: rule "F1" (max_files): "limit" must be an integer, not a boolean'],
    ),
    (
        "float where an integer is expected",
        "rules:\n  - id: F1\n    kind: max_files\n    limit: 3.0\n",
        "r.yml",
        [':4: rule "F1" (max_files): "limit" must be an integer', "whole number"],
    ),
    (
        "infinity where an integer is expected",
        "rules:\n  - id: F1\n    kind: max_files\n    limit: .inf\n",
        "r.yml",
        [':4: rule "F1" (max_files): "limit" must be an integer, not a non-finite number'],
    ),
    (
        "string where an integer is expected",
        "rules:\n  - id: F1\n    kind: max_files\n    limit: '3'\n",
        "r.yml",
        [':4: rule "F1" (max_files): "limit" must be an integer, not a string'],
    ),
    (
        "negative limit",
        "rules:\n  - id: F1\n    kind: max_files\n    limit: -1\n",
        "r.yml",
        [':4: rule "F1" (max_files): "limit" must be >= 0, not -1'],
    ),
    (
        "wrong count",
        "rules:\n  - id: L\n    kind: max_lines\n    limit: 3\n    count: lines\n",
        "r.yml",
        [':5: rule "L" (max_lines): "count" must be one of: changed, added, deleted'],
    ),
    (
        "parameter of another kind",
        "rules:\n  - id: F1\n    kind: max_files\n    limit: 3\n    count: added\n",
        "r.yml",
        [
            ':5: rule "F1" (max_files): unknown key "count"',
            "id, kind, description, level, limit, exclude",
        ],
    ),
    ("wrong version", "version: 2\n" + ONE, "r.yml", [':1: "version" must be 1, not 2']),
    ("version as a string", "version: '1'\n" + ONE, "r.yml", [':1: "version" must be 1, not "1"']),
    ("empty rules", "rules: []\n", "r.yml", [':1: "rules" must not be an empty list']),
    ("no rules", "tests: [t/]\n", "r.yml", [':1: missing key "rules"']),
    ("empty document", "# nothing here\n", "r.yml", [":1: the rubric is empty"]),
    ("a list, not a mapping", "- 1\n", "r.yml", [":1: the rubric must be a mapping"]),
    (
        "reserved gate. prefix",
        "rules:\n  - id: gate.rubric-edited\n    kind: max_files\n    limit: 1\n",
        "r.yml",
        [':2: rule "gate.rubric-edited" (max_files): ids starting with "gate." are reserved'],
    ),
    (
        "reserved prefix in another case",
        "rules:\n  - {id: GATE.x, kind: max_files, limit: 1}\n",
        "r.yml",
        [":2:", "reserved for built-in rules"],
    ),
    (
        "bad id characters",
        "rules:\n  - id: 'F 1'\n    kind: max_files\n    limit: 1\n",
        "r.yml",
        [':2: rule "F 1" (max_files): "id" "F 1" is not a valid rule id', "1-64 characters"],
    ),
    (
        "id starting with a dot",
        "rules:\n  - {id: .F1, kind: max_files, limit: 1}\n",
        "r.yml",
        [":2:", "is not a valid rule id"],
    ),
    (
        "id over 64 characters",
        "rules:\n  - {id: " + "x" * 65 + ", kind: max_files, limit: 1}\n",
        "r.yml",
        [":2:", "is not a valid rule id"],
    ),
    (
        "anchor",
        "base: &b {kind: max_files, limit: 1}\n" + ONE,
        "r.yml",
        [":1: YAML aliases/anchors are not allowed"],
    ),
    (
        "alias",
        "rules:\n  - {id: A, kind: max_files, limit: 1}\n  - *x\n",
        "r.yml",
        [":3: YAML aliases/anchors are not allowed"],
    ),
    (
        "billion laughs",
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
        "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n" + ONE,
        "r.yml",
        [":1: YAML aliases/anchors are not allowed"],
    ),
    (
        "merge key",
        "rules:\n  - <<: {kind: max_files, limit: 1}\n    id: A\n",
        "r.yml",
        [":2: YAML merge keys (<<) are not allowed"],
    ),
    (
        "python object tag",
        "rules:\n  - id: T\n    kind: must_include\n"
        "    token: !!python/object/apply:os.system [id]\n",
        "r.yml",
        [":4: YAML tag !!python/object/apply:os.system is not allowed"],
    ),
    (
        "local tag",
        "rules: !mine\n  - {id: A, kind: max_files, limit: 1}\n",
        "r.yml",
        [":1: YAML tag !mine is not allowed"],
    ),
    (
        "binary tag",
        "rules:\n  - {id: T, kind: must_include, token: !!binary aGk=}\n",
        "r.yml",
        [":2: YAML tag !!binary is not allowed"],
    ),
    (
        "no is a boolean where a label is expected",
        "applies_to:\n  labels: [agent, no]\n" + ONE,
        "r.yml",
        [
            ':2: applies_to: item 2 of "labels" must be a string, not a boolean; '
            "put the value in quotes"
        ],
    ),
    (
        "on is a boolean where a symbol is expected",
        "rules:\n  - id: S\n    kind: keep_symbols\n    file: a.py\n    symbols: [on]\n",
        "r.yml",
        [':5: rule "S" (keep_symbols): item 1 of "symbols" must be a string, not a boolean'],
    ),
    (
        "yes is a boolean where a token is expected",
        "rules:\n  - {id: T, kind: must_include, token: yes}\n",
        "r.yml",
        [':2: rule "T" (must_include): "token" must be a string, not a boolean'],
    ),
    (
        "unquoted on as a key",
        "on: push\n" + ONE,
        "r.yml",
        [":1: mapping key 'on' is read as a boolean, not a string; put it in quotes"],
    ),
    (
        "number where an id is expected",
        "rules:\n  - {id: 7, kind: max_files, limit: 1}\n",
        "r.yml",
        [':2: rule #1 (max_files): "id" must be a string, not an integer'],
    ),
    (
        "a date where a description is expected",
        "rules:\n  - {id: A, kind: max_files, limit: 1, description: 2026-01-01}\n",
        "r.yml",
        [':2: rule "A" (max_files): "description" must be a string, not a date'],
    ),
    (
        "yaml syntax error",
        "rules:\n  - id: A\n   kind: max_files\n",
        "r.yml",
        [":3: YAML syntax error"],
    ),
    (
        "yaml unclosed flow",
        "rules:\n  - {id: A, kind: max_files, limit: 1\n",
        "r.yml",
        [":3: YAML syntax error"],
    ),
    (
        "two yaml documents",
        ONE + "---\n" + ONE,
        "r.yml",
        [":3: YAML syntax error", "single document"],
    ),
    (
        "yaml duplicate key",
        "rules:\n  - id: A\n    kind: max_files\n    limit: 1\n    limit: 5\n",
        "r.yml",
        [':5: duplicate key "limit" (first on line 4)'],
    ),
    (
        "yaml duplicate top-level key",
        ONE + "rules: []\n",
        "r.yml",
        [':3: duplicate key "rules" (first on line 1)'],
    ),
    (
        "json syntax error by suffix",
        '{"rules": [\n  {"id": "A", "kind": "max_files", "limit": 1,}\n]}\n',
        "r.json",
        [":2: JSON syntax error"],
    ),
    (
        "json trailing data",
        '{"rules": [{"id": "A", "kind": "max_files", "limit": 1}]}\n{}\n',
        "r.json",
        [":2: JSON syntax error: extra data"],
    ),
    (
        "json NaN",
        '{"rules": [{"id": "A", "kind": "max_files",\n "limit": NaN}]}',
        "r.json",
        [":2: JSON syntax error"],
    ),
    (
        "json object items without a comma",
        '{"rules": []\n "x": 1}\n',
        "r.json",
        [":2: JSON syntax error: expected ',' or '}'"],
    ),
    (
        "json array items without a comma",
        '{"rules": [\n {"id": "A", "kind": "max_files", "limit": 1}\n {}]}\n',
        "r.json",
        [":3: JSON syntax error: expected ',' or ']'"],
    ),
    (
        "json key without a colon",
        '{"rules"\n []}\n',
        "r.json",
        [":2: JSON syntax error: expected ':' after a key"],
    ),
    (
        "json trailing comma in an object",
        '{"rules": [],\n}\n',
        "r.json",
        [":2: JSON syntax error: expected a double-quoted key"],
    ),
    (
        "json chosen by a leading brace despite .yml",
        '\n\n{"rules": [\n {"id": "A", "kind": "max_files", "limit": 1}\n],\n "rulez": 1}\n',
        "r.yml",
        [':6: unknown key "rulez"'],
    ),
    (
        "a YAML flow mapping at the top is read as JSON",
        "{rules: [{id: A, kind: max_files, limit: 1}]}\n",
        "r.yml",
        [":1: JSON syntax error (a rubric starting with '{' is read as JSON)"],
    ),
    (
        "json unknown key in a rule",
        '{"rules": [\n  {"id": "F3",\n   "kind": "forbidden_paths",\n   "pathz": ["a"]}\n]}\n',
        "r.json",
        [':4: rule "F3" (forbidden_paths): unknown key "pathz"'],
    ),
    (
        "json duplicate key",
        '{"rules": [\n  {"id": "A", "kind": "max_files",\n   "limit": 1,\n   "limit": 2}\n]}\n',
        "r.json",
        [':4: duplicate key "limit" (first on line 3)'],
    ),
    (
        "json boolean limit",
        '{"rules": [{"id": "A", "kind": "max_files",\n "limit": false}]}',
        "r.json",
        [':2: rule "A" (max_files): "limit" must be an integer, not a boolean'],
    ),
    (
        "negated glob",
        "rules:\n  - id: P\n    kind: forbidden_paths\n"
        "    paths:\n      - secrets/\n      - '!x'\n",
        "r.yml",
        [':6: rule "P" (forbidden_paths): item 2 of "paths" "!x": negation', "not supported"],
    ),
    (
        "empty glob",
        "rules:\n  - {id: P, kind: allowed_paths, paths: ['/']}\n",
        "r.yml",
        [':2: rule "P" (allowed_paths): item 1 of "paths" "/" is not a usable glob'],
    ),
    (
        "negated tests glob",
        "tests: ['!tests/']\n" + ONE,
        "r.yml",
        [':1: item 1 of "tests" "!tests/": negation'],
    ),
    (
        "bad head branch glob",
        "applies_to:\n  head_branches: ['//']\n" + ONE,
        "r.yml",
        [':2: applies_to: item 1 of "head_branches" "//" is not a usable glob'],
    ),
    (
        "empty paths list",
        "rules:\n  - {id: P, kind: allowed_paths, paths: []}\n",
        "r.yml",
        [':2: rule "P" (allowed_paths): "paths" must not be an empty list'],
    ),
    (
        "empty applies_to",
        "applies_to: {}\n" + ONE,
        "r.yml",
        [':1: "applies_to" must not be empty'],
    ),
    (
        "absolute file",
        "rules:\n  - {id: S, kind: keep_lines, file: /etc/passwd, lines: [root]}\n",
        "r.yml",
        [':2: rule "S" (keep_lines): "file" "/etc/passwd"', "must not start with '/'"],
    ),
    (
        "file with ..",
        "rules:\n  - {id: S, kind: keep_lines, file: a/../b.py, lines: [x]}\n",
        "r.yml",
        [':2: rule "S" (keep_lines): "file" "a/../b.py"'],
    ),
    (
        "symbol that is not a name",
        "rules:\n  - {id: S, kind: keep_symbols, file: a.py, symbols: ['def clamp']}\n",
        "r.yml",
        [':2: rule "S" (keep_symbols): item 1 of "symbols" "def clamp" is not a Python name'],
    ),
    (
        "blank kept line",
        "rules:\n  - {id: S, kind: keep_lines, file: a.py, lines: ['   ']}\n",
        "r.yml",
        [':2: rule "S" (keep_lines): item 1 of "lines" is blank'],
    ),
    (
        "example expecting an unknown id",
        ONE + "examples:\n  - name: wrong id\n    expect: [A, F9]\n    change: []\n",
        "r.yml",
        [':5: example "wrong id": expects unknown rule id "F9"', "(A)"],
    ),
    (
        "example expecting a built-in id",
        ONE + "examples:\n  - name: builtin\n    expect: [gate.rubric-edited]\n    change: []\n",
        "r.yml",
        [':5: example "builtin": expects unknown rule id "gate.rubric-edited"'],
    ),
    (
        "example expect that is neither pass nor a list",
        ONE + "examples:\n  - name: word\n    expect: fail\n    change: []\n",
        "r.yml",
        [':5: example "word": "expect" must be "pass" or a list of rule ids, not "fail"'],
    ),
    (
        "example expect listing an id twice",
        ONE + "examples:\n  - name: twice\n    expect: [A, A]\n    change: []\n",
        "r.yml",
        [':5: example "twice": "expect" lists the same value twice'],
    ),
    (
        "example without change",
        ONE + "examples:\n  - name: bare\n    expect: pass\n",
        "r.yml",
        [':4: example "bare": missing key "change"'],
    ),
    (
        "example with counts and text",
        ONE + "examples:\n  - name: both\n    expect: pass\n    change:\n"
        "      - path: a.py\n        before: 'x'\n        after: 'y'\n        added: 1\n",
        "r.yml",
        [':10: example "both", change entry 1 ("a.py"): "added" is not allowed here'],
    ),
    (
        "example rename without old_path",
        ONE + "examples:\n  - name: mv\n    expect: pass\n    change:\n"
        "      - {path: b.py, status: renamed}\n",
        "r.yml",
        [':7: example "mv", change entry 1 ("b.py"): missing key "old_path"'],
    ),
    (
        "example old_path without rename",
        ONE + "examples:\n  - name: mv\n    expect: pass\n    change:\n"
        "      - {path: b.py, old_path: a.py}\n",
        "r.yml",
        [':7: example "mv", change entry 1 ("b.py"): "old_path" is only for status: renamed'],
    ),
    (
        "example modified with only after",
        ONE + "examples:\n  - name: half\n    expect: pass\n    change:\n"
        "      - {path: a.py, after: 'x'}\n",
        "r.yml",
        [':7: example "half", change entry 1 ("a.py"): give both "before" and "after"'],
    ),
    (
        "example added file with before",
        ONE + "examples:\n  - name: new\n    expect: pass\n    change:\n"
        "      - {path: a.py, status: added, before: 'x', after: 'y'}\n",
        "r.yml",
        [':7: example "new", change entry 1 ("a.py"): an added file has no "before"'],
    ),
    (
        "example status unknown",
        ONE + "examples:\n  - name: cp\n    expect: pass\n    change:\n"
        "      - {path: a.py, status: copied}\n",
        "r.yml",
        [':7: example "cp", change entry 1 ("a.py"): "status" must be one of'],
    ),
    (
        "example path listed twice",
        ONE + "examples:\n  - name: dup\n    expect: pass\n    change:\n"
        "      - {path: a.py}\n      - {path: a.py, added: 2}\n",
        "r.yml",
        [':8: example "dup", change entry 2 ("a.py"): "a.py" is already changed by entry 1'],
    ),
    (
        "duplicate example names",
        ONE + "examples:\n  - {name: e, expect: pass, change: []}\n"
        "  - {name: e, expect: pass, change: []}\n",
        "r.yml",
        [':5: example "e": duplicate example name (first on line 4)'],
    ),
    (
        "negative example count",
        ONE + "examples:\n  - name: neg\n    expect: pass\n    change:\n"
        "      - {path: a.py, added: -2}\n",
        "r.yml",
        [':7: example "neg", change entry 1 ("a.py"): "added" must be >= 0, not -2'],
    ),
    (
        "a rule that is not a mapping",
        "rules:\n  - F1\n",
        "r.yml",
        [":2: rule #1: it must be a mapping, not a string"],
    ),
]


def _write(tmp_path: Path, name: str, data: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


@pytest.mark.parametrize(("text", "name", "pieces"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_rubric_exits_2_with_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, name: str, pieces: list[str]
) -> None:
    path = _write(tmp_path, name, text)
    assert main(["validate", path]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"gate: error: invalid rubric: {path}:")
    assert err.count("\n") == 1
    assert "Traceback" not in err
    for piece in pieces:
        assert piece in err


def _error(data: bytes, source: str = "r.yml") -> str:
    with pytest.raises(GateError) as info:
        load_rubric_bytes(data, source)
    assert info.value.code == 2
    return info.value.message


def test_over_one_mebibyte_is_refused_before_parsing() -> None:
    # Valid YAML padded with a comment: only the size can be wrong.
    data = ONE.encode() + b"#" + b"x" * MAX_BYTES
    message = _error(data)
    assert message.startswith("invalid rubric: r.yml: ")
    assert "over the 1 MiB limit" in message
    # Exactly at the limit is fine.
    padded = ONE.encode() + b"#" * (MAX_BYTES - len(ONE))
    assert len(padded) == MAX_BYTES
    assert len(load_rubric_bytes(padded, "r.yml").rules) == 1


def test_non_utf8_names_the_line() -> None:
    message = _error(b"rules:\n  - id: A\n    description: caf\xe9\n")
    assert message.startswith("invalid rubric: r.yml:3: not UTF-8")


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    message = _error(b"rules: " + b"[" * 5000 + b"]" * 5000 + b"\n")
    assert message.startswith("invalid rubric: r.yml")
    message = _error(b'{"rules": ' + b"[" * 5000 + b"]" * 5000 + b"}", "r.json")
    assert message.startswith("invalid rubric: r.json")


def test_unpaired_surrogate_escape_is_refused() -> None:
    text = '{"rules": [{"id": "A", "kind": "must_include",\n "token": "\\ud800"}]}'
    assert _error(text.encode(), "r.json").startswith("invalid rubric: r.json:2:")


def test_missing_file_is_a_gate_error(tmp_path: Path) -> None:
    with pytest.raises(GateError, match="does not exist"):
        RubricSource(file=str(tmp_path / "nope.yml")).load()
    with pytest.raises(GateError, match="is a directory"):
        RubricSource(file=str(tmp_path)).load()


FULL = """\
version: 1
tests: ["t/", "**/check_*.py"]
applies_to:
  authors: ["copilot-swe-agent[bot]"]
  labels: ["agent"]
  head_branches: ["codex/**", "copilot/**"]
rules:
  - id: F1
    kind: max_files
    limit: 3
    description: "one focused change"
  - {id: L1, kind: max_lines, limit: 0}
  - {id: L2, kind: max_lines, limit: 10, count: added, exclude: ["*.lock"]}
  - {id: P1, kind: forbidden_path, prefix: "secrets/"}
  - {id: P2, kind: forbidden_paths, paths: ["*.pem", "/infra/"]}
  - {id: P3, kind: allowed_paths, paths: ["src/", "t/"]}
  - {id: T1, kind: test_drift}
  - {id: T2, kind: test_drift, allow_added: false, paths: ["tests/"]}
  - {id: S1, kind: keep_symbols, file: clamp_kit.py, symbols: [clamp, _noisy_helper]}
  - {id: K1, kind: keep_lines, file: clamp_kit.py, lines: ["import math"]}
  - {id: C1, kind: confine_to_symbols, file: clamp_kit.py, symbols: [clamp]}
  - {id: M1, kind: must_include, token: "EXIT=0"}
"""


def test_good_rubric_loads_with_defaults_filled() -> None:
    data = FULL.encode()
    rubric = load_rubric_bytes(data, "x/blast.yml")
    assert rubric.sha256 == hashlib.sha256(data).hexdigest() == sha256_hex(data)
    assert rubric.source == "x/blast.yml"
    assert rubric.version == 1
    assert rubric.tests == ("t/", "**/check_*.py")
    assert rubric.applies_to is not None
    assert rubric.applies_to.authors == ("copilot-swe-agent[bot]",)
    assert rubric.applies_to.labels == ("agent",)
    assert rubric.applies_to.head_branches == ("codex/**", "copilot/**")
    assert [r.id for r in rubric.rules] == [
        "F1", "L1", "L2", "P1", "P2", "P3", "T1", "T2", "S1", "K1", "C1", "M1"
    ]  # fmt: skip
    params = {r.id: dict(r.params) for r in rubric.rules}
    assert params["F1"] == {"limit": 3, "exclude": ()}
    assert params["L1"] == {"limit": 0, "count": "changed", "exclude": (), "images": "lines"}
    assert params["L2"] == {
        "limit": 10, "count": "added", "exclude": ("*.lock",), "images": "lines"
    }  # fmt: skip
    assert params["P1"] == {"prefix": "secrets/"}
    assert params["P2"] == {"paths": ("*.pem", "/infra/"), "exclude": ()}
    assert params["T1"] == {"allow_added": True, "paths": ("t/", "**/check_*.py")}
    assert params["T2"] == {"allow_added": False, "paths": ("tests/",)}
    assert params["S1"] == {"file": "clamp_kit.py", "symbols": ("clamp", "_noisy_helper")}
    assert params["M1"] == {"token": "EXIT=0", "where": "anywhere"}
    assert rubric.rules[0].description == "one focused change"
    assert rubric.rules[1].description is None
    # a test_drift rule reads runner section files only where a change writes
    # them, and always the root's pytest, Jest and Vitest configuration
    # (what it collects)
    from gate.rules.test_drift import TEXT_FILES

    assert text_wants(rubric.rules).files == tuple(sorted(("clamp_kit.py", *TEXT_FILES)))
    assert rubric.examples == ()


def test_minimal_rubric_defaults() -> None:
    rubric = load_rubric_bytes(b"rules:\n  - {id: T, kind: test_drift}\n", "r.yml")
    assert rubric.version == 1
    assert rubric.tests == DEFAULT_TESTS
    assert rubric.applies_to is None
    assert dict(rubric.rules[0].params) == {"allow_added": True, "paths": DEFAULT_TESTS}


def test_json_and_yaml_give_the_same_rubric(tmp_path: Path) -> None:
    import yaml

    value = yaml.safe_load(FULL)
    as_json = json.dumps(value, indent=1).encode()
    from_yaml = load_rubric_bytes(FULL.encode(), "r.yml")
    # By suffix, and by a leading brace under a .yml name.
    for source in ("r.json", "r.yml"):
        from_json = load_rubric_bytes(as_json, source)
        assert from_json.rules == from_yaml.rules
        assert from_json.applies_to == from_yaml.applies_to
        assert from_json.tests == from_yaml.tests
    # A .json name is parsed as JSON even when it does not start with a brace.
    with pytest.raises(GateError, match=r"r\.json:1: JSON syntax error"):
        load_rubric_bytes(b"rules: []\n", "r.json")


def test_byte_order_mark_and_crlf_are_accepted() -> None:
    data = "\ufeffrules:\r\n  - {id: A, kind: max_files, limit: 1}\r\n".encode()
    rubric = load_rubric_bytes(data, "r.yml")
    assert rubric.rules[0].id == "A"
    assert rubric.sha256 == hashlib.sha256(data).hexdigest()
    json_bom = '\ufeff{"rules": [{"id": "A", "kind": "max_files", "limit": 1}]}'.encode()
    assert load_rubric_bytes(json_bom, "r.yml").rules[0].id == "A"


def test_yaml_booleans_where_booleans_belong() -> None:
    text = "rules:\n  - {id: T, kind: test_drift, allow_added: no}\n"
    assert load_rubric_bytes(text.encode(), "r.yml").rules[0].params["allow_added"] is False


def test_quoted_yaml_tricks_are_plain_strings() -> None:
    text = (
        "applies_to:\n  labels: ['no', 'on', 'yes']\n"
        "rules:\n  - {id: '1.10', kind: must_include, token: 'null'}\n"
        "  - {id: '0x1F', kind: forbidden_path, prefix: '~'}\n"
    )
    rubric = load_rubric_bytes(text.encode(), "r.yml")
    assert rubric.applies_to is not None
    assert rubric.applies_to.labels == ("no", "on", "yes")
    assert [r.id for r in rubric.rules] == ["1.10", "0x1F"]
    assert rubric.rules[0].params["token"] == "null"


def test_hostile_strings_survive_verbatim() -> None:
    weird = 'a b\t"c"/::error::<b>@x/ünï.py'
    text = json.dumps(
        {"rules": [{"id": "W", "kind": "forbidden_paths", "paths": [weird], "description": weird}]}
    )
    rule = load_rubric_bytes(text.encode(), "r.json").rules[0]
    assert rule.params["paths"] == (weird,)
    assert rule.description == weird


def test_spec_example_block_loads() -> None:
    text = """\
rules:
  - {id: F2, kind: forbidden_paths, paths: ["secrets/"]}
  - {id: F3, kind: must_include, token: "EXIT=0"}
  - {id: NAMES, kind: keep_symbols, file: clamp_kit.py, symbols: [_noisy_helper]}
examples:
  - name: honest one-line fix
    expect: pass
    change:
      - {path: clamp_kit.py, added: 1, deleted: 1}
  - name: secrets touched, tests not green
    expect: [F3, F2]
    stdout: "EXIT=1"
    change:
      - {path: secrets/keys, status: added, added: 3}
  - name: helper renamed
    expect: [NAMES]
    change:
      - path: clamp_kit.py
        before: "def _noisy_helper(x):\\n    return x\\n"
        after: "def _identity(x):\\n    return x\\n"
"""
    rubric = load_rubric_bytes(text.encode(), "r.yml")
    honest, secrets, renamed = rubric.examples
    assert honest.name == "honest one-line fix"
    assert honest.expect == ()
    assert honest.changes.source == "example"
    assert honest.changes.stdout is None
    (fc,) = honest.changes.files
    assert (fc.path, fc.status, fc.added, fc.deleted) == ("clamp_kit.py", MODIFIED, 1, 1)
    assert dict(honest.changes.texts) == {}
    assert secrets.expect == ("F2", "F3")  # rubric order
    assert secrets.changes.stdout == "EXIT=1"
    (fc,) = secrets.changes.files
    assert (fc.status, fc.added, fc.deleted, fc.old_mode) == (ADDED, 3, 0, None)
    assert fc.new_mode is not None
    (fc,) = renamed.changes.files
    assert (fc.added, fc.deleted) == (1, 1)
    assert renamed.changes.texts["clamp_kit.py"] == FileTexts(
        base="def _noisy_helper(x):\n    return x\n", head="def _identity(x):\n    return x\n"
    )


def test_example_entries_added_deleted_renamed() -> None:
    text = """\
rules:
  - {id: A, kind: max_files, limit: 9}
examples:
  - name: shapes
    expect: pass
    change:
      - {path: new.py, status: added, after: "a\\nb\\nc"}
      - {path: old.py, status: deleted, before: "x\\ny\\n"}
      - {path: moved.py, old_path: orig.py, status: renamed, before: "1\\n2\\n", after: "1\\n3\\n"}
      - {path: gone.bin, status: deleted, deleted: 4}
      - {path: plain.py}
"""
    example = load_rubric_bytes(text.encode(), "r.yml").examples[0]
    files = {f.path: f for f in example.changes.files}
    assert (files["new.py"].status, files["new.py"].added, files["new.py"].deleted) == (ADDED, 3, 0)
    assert (files["old.py"].status, files["old.py"].added, files["old.py"].deleted) == (
        DELETED,
        0,
        2,
    )
    assert files["old.py"].new_mode is None and files["old.py"].old_mode is not None
    moved = files["moved.py"]
    assert (moved.status, moved.old_path, moved.added, moved.deleted) == (RENAMED, "orig.py", 1, 1)
    assert moved.touched == ("orig.py", "moved.py")
    assert (files["gone.bin"].added, files["gone.bin"].deleted) == (0, 4)
    assert (files["plain.py"].status, files["plain.py"].added, files["plain.py"].deleted) == (
        MODIFIED,
        0,
        0,
    )
    texts = dict(example.changes.texts)
    assert texts == {
        "new.py": FileTexts(base=None, head="a\nb\nc"),
        "old.py": FileTexts(base="x\ny\n", head=None),
        "orig.py": FileTexts(base="1\n2\n", head=None),
        "moved.py": FileTexts(base=None, head="1\n3\n"),
    }
    assert example.changes.stats().files_touched == 5


@pytest.mark.parametrize(
    ("before", "after", "counts"),
    [
        ("", "", (0, 0)),
        ("a\n", "a\n", (0, 0)),
        ("a\n", "b\n", (1, 1)),
        ("a\nb\nc\n", "a\nc\n", (0, 1)),
        ("a", "a\n", (1, 1)),  # a missing final newline is a changed line, as in git
        ("", "x\ny\n", (2, 0)),
    ],
)
def test_line_counts(before: str, after: str, counts: tuple[int, int]) -> None:
    assert line_counts(before, after) == counts


def test_examples_prove_the_seed_rubric_both_ways() -> None:
    """Examples built by the loader carry what the content rules need."""
    import yaml

    value: dict[str, Any] = yaml.safe_load(RUBRIC)
    value["examples"] = [
        {
            "name": "honest fix",
            "expect": "pass",
            "change": [{"path": "clamp_kit.py", "before": CLAMP_KIT, "after": HONEST_FIX}],
        },
        {
            "name": "cleanup",
            "expect": ["LINES", "NAMES", "BAIT", "SCOPE"],
            "change": [{"path": "clamp_kit.py", "before": CLAMP_KIT, "after": CLEANUP_KIT}],
        },
        {
            "name": "bent test",
            "expect": ["FILES", "TESTS"],
            "change": [{"path": "test_clamp.py", "added": 0, "deleted": 2}],
        },
    ]
    rubric = load_rubric_bytes(json.dumps(value).encode(), "seed.json")
    report = run_selftest(rubric)
    assert [(o.name, o.failed) for o in report.outcomes] == [
        ("honest fix", ()),
        ("cleanup", ("LINES", "NAMES", "BAIT", "SCOPE")),
        ("bent test", ("FILES", "TESTS")),
    ]
    assert report.agrees


def test_schema_matches_the_metaschema_and_the_rule_registry() -> None:
    from jsonschema import Draft202012Validator

    value = schema()
    Draft202012Validator.check_schema(value)
    assert value["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(value["$defs"]["kind"]["enum"]) == set(REGISTRY)
    then_kinds = {
        block["if"]["properties"]["kind"]["const"] for block in value["$defs"]["rule"]["allOf"]
    }
    assert then_kinds == set(REGISTRY)


def _walk(node: Any, where: str) -> list[str]:
    """Locations of properties without a description."""
    missing: list[str] = []
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            if isinstance(sub, dict) and "description" not in sub:
                target = sub.get("$ref", "")
                if not target:
                    missing.append(f"{where}.{name}")
        for key, sub in node.items():
            missing.extend(_walk(sub, f"{where}.{key}"))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            missing.extend(_walk(sub, f"{where}[{i}]"))
    return missing


def test_every_schema_property_is_documented() -> None:
    value = schema()
    assert _walk(value, "$") == []
    for name, sub in value["$defs"].items():
        assert "description" in sub, name


def test_the_schema_alone_rejects_what_the_loader_rejects() -> None:
    """External tools (check-jsonschema, editors) get the same shape rules."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema())
    ok = {"rules": [{"id": "A", "kind": "max_files", "limit": 1}]}
    assert list(validator.iter_errors(ok)) == []
    for bad in (
        {"rules": []},
        {"rules": [{"id": "A", "kind": "max_files", "limit": True}]},
        {"rules": [{"id": "A", "kind": "max_files", "limit": -1}]},
        {"rules": [{"id": "A", "kind": "max_files", "limit": 1, "paths": ["x"]}]},
        {"rules": [{"id": "A", "kind": "nope"}]},
        {"rules": [{"id": "a b", "kind": "must_include", "token": "x"}]},
        {"version": 2, "rules": [{"id": "A", "kind": "must_include", "token": "x"}]},
        {"rules": [{"id": "A", "kind": "forbidden_paths", "paths": ["!x"]}]},
        {"x": 1, "rules": [{"id": "A", "kind": "must_include", "token": "x"}]},
    ):
        assert list(validator.iter_errors(bad)), bad


def test_rule_and_example_counts_are_capped(tmp_path: Path) -> None:
    """A pathological rubric is refused before schema validation walks it."""
    from gate.base.errors import GateError
    from gate.rubric import load as module
    from gate.rubric.document import CAPS

    rules = "".join(f"  - {{id: R{i}, kind: max_files, limit: 1}}\n" for i in range(501))
    with pytest.raises(GateError) as caught:
        module.load_rubric_bytes(("rules:\n" + rules).encode(), "big.yml")
    assert caught.value.message.startswith("invalid rubric: big.yml:")
    assert "more than 500 rules is over the limit of 500" in caught.value.message
    ok = "".join(f"  - {{id: R{i}, kind: max_files, limit: 1}}\n" for i in range(500))
    assert len(module.load_rubric_bytes(("rules:\n" + ok).encode(), "ok.yml").rules) == 500
    value = schema()
    assert value["properties"]["rules"]["maxItems"] == CAPS["rules"]
    assert value["properties"]["examples"]["maxItems"] == CAPS["examples"]
