"""Freeze files: `NAME SHA256` lines that pin a rubric's bytes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from gate.base.errors import GateError
from gate.rubric.freeze import freeze_line, read_freeze, verify_freeze

RUBRIC = b"rules:\n  - {id: A, kind: max_files, limit: 1}\n"
SHA = hashlib.sha256(RUBRIC).hexdigest()


def test_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("rubric.yml").write_bytes(RUBRIC)
    line = freeze_line("rubric.yml")
    assert line == f"rubric.yml {SHA}"
    Path("freeze.txt").write_text(line + "\n")
    assert read_freeze("freeze.txt") == {"rubric.yml": SHA}
    verify_freeze("freeze.txt", "rubric.yml", RUBRIC)


@pytest.mark.parametrize(
    "name",
    ["my rubrics/gate rules.yml", "a\tb.yml", "#hash.yml", "-dash.yml", " lead.yml", "ünï.yml"],
)
def test_names_with_spaces_tabs_and_odd_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    Path(name).write_bytes(RUBRIC)
    Path("f.txt").write_text(freeze_line(name) + "\n", encoding="utf-8")
    assert read_freeze("f.txt") == {name: SHA}
    verify_freeze("f.txt", name, RUBRIC)


def test_the_last_field_is_the_hash_and_the_rest_is_the_name(tmp_path: Path) -> None:
    other = "b" * 64
    freeze = tmp_path / "f.txt"
    freeze.write_text(
        f"\nodd {other} name.yml   {SHA.upper()}  \r\nplain.yml {other}\n\n", encoding="utf-8"
    )
    assert read_freeze(str(freeze)) == {f"odd {other} name.yml": SHA, "plain.yml": other}


def test_mismatch_says_discard(tmp_path: Path) -> None:
    freeze = tmp_path / "f.txt"
    freeze.write_text(f"rubric.yml {SHA}\n")
    with pytest.raises(GateError) as info:
        verify_freeze(str(freeze), "rubric.yml", RUBRIC + b"# edited\n")
    assert info.value.code == 2
    assert "rubric changed after freeze; discard this run" in info.value.message
    assert SHA in info.value.message


def test_missing_entry_names_the_freeze_file(tmp_path: Path) -> None:
    freeze = tmp_path / "f.txt"
    freeze.write_text(f"other.yml {SHA}\n")
    with pytest.raises(GateError) as info:
        verify_freeze(str(freeze), "rubric.yml", RUBRIC)
    assert str(freeze) in info.value.message
    assert "no entry for the rubric rubric.yml" in info.value.message


def test_lookup_by_normalised_path_then_unique_basename(tmp_path: Path) -> None:
    freeze = tmp_path / "f.txt"
    freeze.write_text(f"./cfg/rubric.yml {SHA}\nother.yml {'0' * 64}\n")
    verify_freeze(str(freeze), "cfg/rubric.yml", RUBRIC)
    verify_freeze(str(freeze), "/somewhere/else/rubric.yml", RUBRIC)
    with pytest.raises(GateError, match="discard this run"):
        verify_freeze(str(freeze), "x/other.yml", RUBRIC)


def test_ambiguous_basename_is_not_guessed(tmp_path: Path) -> None:
    freeze = tmp_path / "f.txt"
    freeze.write_text(f"a/rubric.yml {SHA}\nb/rubric.yml {SHA}\n")
    with pytest.raises(GateError, match=r"no entry for the rubric c/rubric\.yml"):
        verify_freeze(str(freeze), "c/rubric.yml", RUBRIC)
    verify_freeze(str(freeze), "a/rubric.yml", RUBRIC)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("rubric.yml\n", 1),
        (f"\n{SHA}\n", 2),
        (f"ok.yml {SHA}\nrubric.yml deadbeef\n", 2),
        (f"rubric.yml {SHA}x\n", 1),
        (f"rubric.yml {SHA[:-1]}g\n", 1),
    ],
)
def test_bad_lines_name_the_line(tmp_path: Path, text: str, line: int) -> None:
    freeze = tmp_path / "f.txt"
    freeze.write_text(text)
    with pytest.raises(GateError) as info:
        read_freeze(str(freeze))
    assert info.value.message.startswith(f"freeze file {freeze}:{line}: not a 'NAME SHA256' line")


def test_conflicting_duplicate_entries(tmp_path: Path) -> None:
    freeze = tmp_path / "f.txt"
    freeze.write_text(f"r.yml {SHA}\nr.yml {SHA}\nr.yml {'1' * 64}\n")
    with pytest.raises(GateError, match=r"f\.txt:3: r\.yml is listed again"):
        read_freeze(str(freeze))


def test_unreadable_freeze_files(tmp_path: Path) -> None:
    with pytest.raises(GateError, match="does not exist"):
        read_freeze(str(tmp_path / "missing.txt"))
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"caf\xe9.yml " + SHA.encode() + b"\n")
    with pytest.raises(GateError, match="not UTF-8"):
        read_freeze(str(bad))


@pytest.mark.parametrize("name", ["trailing.yml ", "new\nline.yml"])
def test_names_that_would_not_read_back_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes(RUBRIC)
    with pytest.raises(GateError, match="cannot freeze"):
        freeze_line(name)


def test_freeze_line_of_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(GateError, match="does not exist"):
        freeze_line(str(tmp_path / "nope.yml"))
