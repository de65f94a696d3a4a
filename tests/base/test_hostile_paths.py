"""Class 6 of docs/hostile-input.md: paths are matched and reported the
conservative way.  Real repositories and the real git binary; commits are
built with git's plumbing (`GitRepo.commit_tree`), so any byte string
(invalid UTF-8, case variants that one file system could not hold side by
side) can be a path.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.changes.api import listing
from gate.commands.cli import main
from gate.github.client_types import PullFile
from gate.judge import evaluate
from gate.model.change import COPIED, ChangeSet, FileChange
from gate.rubric.load import load_rubric_bytes
from tests.base.test_paths import unprintable, unshown
from tests.gitrepo import GitRepo

GIT = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

RUBRIC = b"""\
version: 1
rules:
  - {id: PREFIX, kind: forbidden_path, prefix: "secrets/"}
  - {id: DEEP, kind: forbidden_path, prefix: "config/prod/"}
  - {id: GLOBS, kind: forbidden_paths, paths: ["secrets/", "/config/prod/", "*.pem"]}
  - {id: WHERE, kind: allowed_paths, paths: ["src/", "secrets/", "config/"]}
  - {id: COUNT, kind: max_files, limit: 0}
"""
RUBRIC_PATH = b".github/blast-radius.yml"
FORBIDDEN = ("PREFIX", "DEEP", "GLOBS")


def judge_change(
    capsys: pytest.CaptureFixture[str],
    root: Path,
    added: dict[bytes, tuple[str, bytes]],
    fmt: str = "json",
) -> tuple[int, str]:
    """Commit a base holding the rubric, then a head that adds `added`;
    `gate check` the pair and return (exit code, stdout)."""
    repo = GitRepo(root)
    base_tree = {RUBRIC_PATH: ("100644", RUBRIC), b"src/a.py": ("100644", b"a\n")}
    base = repo.commit_tree(base_tree)
    head = repo.commit_tree({**base_tree, **added}, base)
    capsys.readouterr()
    code = main(["check", "--repo", str(root), "--base", base, "--head", head, "--format", fmt])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    out.encode("utf-8")  # strict: a report is valid UTF-8
    return code, out


def results(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in report["results"]}


# --- bytes that are not UTF-8 ------------------------------------------------

NAME_BYTES = (
    st.lists(
        st.one_of(
            st.sampled_from([0x80, 0xC3, 0xA9, 0xFF, 0xFE, 0xE2, 0x5C, 0x78, 0x41, 0x61]),
            st.integers(0x21, 0x7E).filter(lambda b: b != 0x2F),
        ),
        min_size=1,
        max_size=6,
    )
    .map(bytes)
    .filter(lambda name: name not in (b".", b".."))
)  # no tree can hold these names


@GIT
@given(st.sets(NAME_BYTES, min_size=1, max_size=4), st.sets(NAME_BYTES, max_size=3))
def test_non_utf8_paths_are_shown_reversibly_and_never_merged(
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
    outside: set[bytes],
    inside: set[bytes],
) -> None:
    root = tmp_path_factory.mktemp("bytes") / "repo"
    added = {b"src/" + n: ("100644", b"x\n") for n in outside}
    added.update({b"secrets/" + n: ("100644", b"k\n") for n in inside})
    code, out = judge_change(capsys, root, added)
    report = json.loads(out)
    by_id = results(report)
    shown = by_id["COUNT"]["paths"]
    assert sorted(unshown(p) for p in shown) == sorted(added)  # one shown path per real path
    for rule in FORBIDDEN[0], FORBIDDEN[2]:
        hits = sorted(unshown(p) for p in by_id[rule]["paths"])
        assert hits == sorted(p for p in added if p.startswith(b"secrets/"))
    assert code == 1
    # The text report shows each path on its own line, distinct and escaped.
    _, text = judge_change(capsys, tmp_path_factory.mktemp("bytes") / "repo", added, "text")
    block = text.split("FAIL COUNT (max_files)")[1].split("\nFAIL ")[0]
    listed = [line[6:] for line in block.splitlines() if line.startswith("    - ")]
    assert sorted(unprintable(p) for p in listed) == sorted(added)
    assert "\ufffd" not in text


# Any name a tree can hold: every byte but NUL and `/`, UTF-8 or not, with
# the characters that escapes are made of (`\\`, `x`, `u`, hex digits, quotes,
# control characters, markdown and HTML syntax) drawn often.
ANY_NAME = (
    st.one_of(
        st.binary(min_size=1, max_size=8),
        st.text(
            st.characters(blacklist_categories=["Cs"], blacklist_characters="\0/"),
            min_size=1,
            max_size=6,
        ).map(lambda t: t.encode("utf-8")),
        st.lists(
            st.sampled_from([*b"\\xu0ef9\"'<>|`*_[]()@#\n\r\t", 0x80, 0xFF, 0xC3]),
            min_size=1,
            max_size=6,
        ).map(bytes),
    )
    .map(lambda b: b.replace(b"\0", b"").replace(b"/", b""))
    .filter(lambda name: name not in (b"", b".", b".."))
    .filter(lambda name: name.lower() != b".git")
)


def _utf8(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


@GIT
@given(st.sets(ANY_NAME, min_size=1, max_size=5))
def test_json_holds_every_utf8_name_verbatim_and_escapes_only_bytes(
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
    names: set[bytes],
) -> None:
    """Names of any bytes, committed with git: in the JSON report a UTF-8
    name is the JSON string exactly (a backslash is one backslash); a name
    that is not UTF-8 reads back to its bytes and holds U+0000, which no
    UTF-8 name (no git path holds NUL) can, so it never equals any real
    name's string.  Text and markdown reports keep each name escaped."""
    added = {b"src/" + n: ("100644", b"x\n") for n in names}
    code, out = judge_change(capsys, tmp_path_factory.mktemp("names") / "repo", added)
    assert code == 1
    listed = results(json.loads(out))["COUNT"]["paths"]
    assert len(listed) == len(added)
    for raw in added:
        text = _utf8(raw)
        if text is not None:
            assert text in listed  # verbatim
            assert "\0" not in text
    for entry in listed:
        raw = unshown(entry)
        assert raw in added
        assert (_utf8(raw) is None) == ("\0" in entry)
    for fmt in ("text", "markdown"):
        _, shown_out = judge_change(capsys, tmp_path_factory.mktemp("names") / "repo", added, fmt)
        for raw in added:
            text = _utf8(raw)
            if text is None:
                continue
            hostile = any(c in text for c in "\n\r\x1b") or not text.isprintable()
            if hostile:  # a control or invisible character never reaches the output raw
                assert "src/" + text not in shown_out, (fmt, text)
        assert "\x1b" not in shown_out and "\ufffd" not in shown_out
        assert not any(line.startswith("::") for line in shown_out.splitlines())
        if fmt == "markdown":  # each path sits in one code span on its own line
            block = shown_out.split("offending paths:")[1].split("\n\n")[1]
            listed_md = block.splitlines()
            assert len(listed_md) == len(added), block
            assert all(line.startswith("- `") and line.endswith("`") for line in listed_md)


# --- letter case, Unicode normalization, trailing dots -----------------------


@st.composite
def checkout_variant(draw: st.DrawFn, path: str) -> str:
    """`path` as a macOS or Windows checkout would file it in the same place."""
    flipped = "".join(c.swapcase() if draw(st.booleans()) else c for c in path)
    form = draw(st.sampled_from(["NFC", "NFD"]))
    text = unicodedata.normalize(form, flipped)
    if draw(st.booleans()):  # Windows drops a name's trailing dots and spaces
        head, _, tail = text.partition("/")
        text = head + draw(st.sampled_from([".", " ", ". "])) + "/" + tail
    return text


@GIT
@given(
    st.sampled_from(["secrets/key", "config/prod/db.yml", "certs/server.pem"]).flatmap(
        checkout_variant
    )
)
def test_a_variant_of_a_forbidden_place_is_forbidden(
    capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory, variant: str
) -> None:
    root = tmp_path_factory.mktemp("variant") / "repo"
    code, out = judge_change(capsys, root, {variant.encode(): ("100644", b"x\n")})
    by_id = results(json.loads(out))
    family = variant.split("/")[0].rstrip(". ").lower()
    expected = {"secrets": {"PREFIX", "GLOBS"}, "config": {"DEEP", "GLOBS"}, "certs": {"GLOBS"}}
    failed = {rule for rule in FORBIDDEN if not by_id[rule]["pass"]}
    assert failed == expected[family]
    assert code == 1


@pytest.mark.parametrize("mode", ["100644", "120000", "160000"])
@pytest.mark.parametrize(
    ("path", "rules"),
    [
        ("secrets", {"PREFIX", "GLOBS"}),
        ("Secrets", {"PREFIX", "GLOBS"}),
        ("config", {"DEEP", "GLOBS"}),
        ("config/prod", {"DEEP", "GLOBS"}),
        ("CONFIG/Prod", {"DEEP", "GLOBS"}),
        ("src/secrets", {"GLOBS"}),  # `secrets/` has no `/` inside: any depth
        ("src/config", set()),  # `/config/prod/` is anchored
    ],
)
def test_the_forbidden_directory_itself_as_file_symlink_or_submodule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str, path: str, rules: set[str]
) -> None:
    data = {"100644": b"plain\n", "120000": b"../elsewhere", "160000": b"1" * 40}[mode]
    _, out = judge_change(capsys, tmp_path / "repo", {path.encode(): (mode, data)})
    by_id = results(json.loads(out))
    assert {rule for rule in FORBIDDEN if not by_id[rule]["pass"]} == rules


def test_allowed_paths_allow_only_what_they_say(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`allowed_paths` matches exactly as written: `SRC/x.py` is not under
    `src/` in git's tree, whatever a case-insensitive checkout does with it."""
    _, out = judge_change(capsys, tmp_path / "repo", {b"SRC/x.py": ("100644", b"x\n")})
    where = results(json.loads(out))["WHERE"]
    assert where["pass"] is False
    assert where["paths"] == ["SRC/x.py"]


# --- copies ------------------------------------------------------------------

COPY_RUBRIC = b"""\
rules:
  - {id: F, kind: forbidden_paths, paths: ["secrets/"]}
  - {id: P, kind: forbidden_path, prefix: "secrets/"}
  - {id: A, kind: allowed_paths, paths: ["public/"]}
  - {id: N, kind: max_files, limit: 1}
  - {id: NX, kind: max_files, limit: 0, exclude: ["public/"]}
  - {id: T, kind: test_drift, allow_added: false, paths: ["tests/"]}
"""


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["secrets/key", "Secrets/key", "secrets/deep/x.pem"]))
def test_a_copy_out_of_a_forbidden_place_touches_it(source: str) -> None:
    """The PR files API reports copies: the source is touched (forbidden and
    allowed rules see it) but not written (budgets count the copy once, by
    its new path, and test_drift does not call the source changed)."""
    found = listing(
        [PullFile("public/key", "copied", 3, 0, 3, source, True)],
        expected=1,
    )
    changes = ChangeSet(files=found.files, source="api")
    report = evaluate(load_rubric_bytes(COPY_RUBRIC, "r.yml"), changes)
    assert report.failed == ("F", "P", "A")
    by_id = {r.id: r for r in report.results}
    assert by_id["F"].paths == (source,)
    assert by_id["A"].paths == (source,)
    assert by_id["N"].message.startswith("1 path touched")
    assert by_id["NX"].passed  # the copy's new path is excluded, its source is not counted


def test_copying_a_test_is_adding_one() -> None:
    change = FileChange("tests/test_b.py", COPIED, "tests/test_a.py", 5, 0)
    rubric = load_rubric_bytes(COPY_RUBRIC, "r.yml")
    report = evaluate(rubric, ChangeSet(files=(change,), source="api"))
    drift = {r.id: r for r in report.results}["T"]
    assert drift.passed is False
    assert drift.paths == ("tests/test_b.py",)
    assert "1 new test file added" in drift.message
