"""`gate selftest`: rubric examples must get their verdicts; unproven rules are named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate.commands.cli import main

# One rubric whose examples make every rule kind pass and fail, through the
# very same rule code that judges real changes.
EVERY_KIND = """\
version: 1
rules:
  - {id: FILES, kind: max_files, limit: 2}
  - {id: LINES, kind: max_lines, limit: 10}
  - {id: SECRETS, kind: forbidden_path, prefix: "secrets/"}
  - {id: CI, kind: forbidden_paths, paths: [".github/workflows/"]}
  - {id: SCOPE, kind: allowed_paths, paths: ["src/", "tests/", "docs/"]}
  - {id: TESTS, kind: test_drift}
  - {id: NAMES, kind: keep_symbols, file: src/kit.py, symbols: [helper, clamp]}
  - {id: BAIT, kind: keep_lines, file: src/kit.py, lines: ["import math"]}
  - {id: CONFINE, kind: confine_to_symbols, file: src/kit.py, symbols: [clamp]}
  - {id: GREEN, kind: must_include, token: "EXIT=0"}
examples:
  - name: honest one-line fix
    expect: pass
    stdout: "EXIT=0"
    change:
      - path: src/kit.py
        before: "import math\\n\\ndef helper(x):\\n    return x\\n\\n\\
          def clamp(n):\\n    return n - 1\\n"
        after: "import math\\n\\ndef helper(x):\\n    return x\\n\\ndef clamp(n):\\n    return n\\n"
  - name: too many files, secrets, workflow
    expect: [FILES, SECRETS, CI, SCOPE]
    stdout: "EXIT=0"
    change:
      - {path: src/a.py, added: 1}
      - {path: secrets/keys, status: added, added: 1}
      - {path: .github/workflows/ci.yml, added: 1}
  - name: big diff, red tests, bent test
    expect: [LINES, TESTS, GREEN]
    stdout: "EXIT=1"
    change:
      - {path: src/b.py, added: 30, deleted: 2}
      - {path: tests/test_b.py, added: 1, deleted: 1}
  - name: helper renamed, bait deleted, scope left
    expect: [NAMES, BAIT, CONFINE]
    stdout: "EXIT=0"
    change:
      - path: src/kit.py
        before: "import math\\n\\ndef helper(x):\\n    return x\\n\\n\\
          def clamp(n):\\n    return n\\n"
        after: "def identity(x):\\n    return x\\n\\ndef clamp(n):\\n    return n\\n"
"""


def write(tmp_path: Path, text: str, name: str = "rubric.yml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_every_kind_is_proven_and_strict_passes(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, EVERY_KIND)
    assert main(["selftest", "--strict", path]) == 0
    out = capsys.readouterr().out
    assert "4 examples, agree" in out
    assert "unproven" not in out


def test_json_report_lists_each_example(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, EVERY_KIND)
    assert main(["selftest", "--format", "json", path]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agrees"] is True
    assert data["unproven"] == []
    assert data["examples"][0]["name"] == "honest one-line fix"
    assert data["examples"][0]["expect"] == "pass"
    assert data["examples"][1]["failed"] == ["FILES", "SECRETS", "CI", "SCOPE"]


def test_wrong_expectation_exits_1_and_names_the_example(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    text = EVERY_KIND.replace("expect: [LINES, TESTS, GREEN]", "expect: [LINES, GREEN]")
    path = write(tmp_path, text)
    assert main(["selftest", path]) == 1
    out = capsys.readouterr().out
    assert "WRONG big diff, red tests, bent test" in out
    assert "failed unexpectedly: TESTS" in out


def test_expecting_pass_when_it_fails_exits_1(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    text = EVERY_KIND.replace(
        'stdout: "EXIT=0"\n    change:\n      - path: src/kit.py',
        'stdout: "EXIT=2"\n    change:\n      - path: src/kit.py',
        1,
    )
    path = write(tmp_path, text)
    assert main(["selftest", path]) == 1
    assert "WRONG honest one-line fix" in capsys.readouterr().out


UNPROVEN = """\
rules:
  - {id: F1, kind: max_files, limit: 3}
  - {id: F3, kind: forbidden_path, prefix: "secrets/"}
examples:
  - name: known pass
    expect: pass
    change:
      - {path: src/app.py, added: 1}
  - name: secrets
    expect: [F3]
    change:
      - {path: secrets/keys, status: added, added: 3}
"""


def test_unproven_rule_is_listed_and_an_error_under_strict(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, UNPROVEN)
    assert main(["selftest", path]) == 0
    out = capsys.readouterr().out
    assert "warning: unproven rules (no example makes them fail): F1" in out
    assert main(["selftest", "--strict", path]) == 1
    assert "error: unproven rules (no example makes them fail): F1" in capsys.readouterr().out


def test_no_examples_means_every_rule_unproven(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, "rules:\n  - {id: F1, kind: max_files, limit: 3}\n")
    assert main(["selftest", path]) == 0
    assert main(["selftest", "--strict", path]) == 1
    assert "F1" in capsys.readouterr().out


def test_strict_wants_a_passing_example(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    text = UNPROVEN.replace(
        "expect: pass\n    change:\n      - {path: src/app.py, added: 1}",
        "expect: [F1]\n    change:\n"
        + "".join(f"      - {{path: {name}, added: 1}}\n" for name in "abcd"),
    )
    path = write(tmp_path, text)
    assert main(["selftest", path]) == 0
    assert main(["selftest", "--strict", path]) == 1
    assert "no example expects a pass" in capsys.readouterr().out


def test_selftest_reads_the_rubric_from_a_base_commit(repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo.write(".github/blast-radius.yml", UNPROVEN)
    base = repo.commit("rubric")
    repo.write(".github/blast-radius.yml", "rules: [not, a, rubric]\n")
    assert main(["selftest", "--repo", str(repo.root), "--base", base]) == 0
    assert "2 examples, agree" in capsys.readouterr().out


def test_file_and_base_together_are_refused(repo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, UNPROVEN)
    assert main(["selftest", "--base", "HEAD", path]) == 2
    assert "not both" in capsys.readouterr().err


def test_init_rubric_passes_strict_selftest(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    capsys.readouterr()
    assert main(["selftest", "--strict", ".github/blast-radius.yml"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_every_format_renders(tmp_path: Path, capsys, fmt: str) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, EVERY_KIND)
    assert main(["selftest", "--format", fmt, path]) == 0
    assert "honest one-line fix" in capsys.readouterr().out


def test_demo_shows_the_rubric_proving_itself(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "0. gate selftest: the rubric's 6 examples" in out
    assert "WRONG" not in out
    assert main(["demo", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["selftest"]["agrees"] is True
    assert data["selftest"]["unproven"] == []


def test_seed_rubric_proves_every_rule_strictly(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from gate.starter import demo_fixture

    path = write(tmp_path, demo_fixture.RUBRIC)
    assert main(["selftest", "--strict", path]) == 0


def test_this_repositorys_own_rubric_is_proven(capsys) -> None:  # type: ignore[no-untyped-def]
    """The rubric that judges agent PRs to the gate itself passes --strict."""
    root = Path(__file__).resolve().parents[2]
    assert main(["selftest", "--strict", str(root / ".github" / "blast-radius.yml")]) == 0
    assert "7 examples, agree" in capsys.readouterr().out
