"""A copy from a forbidden path touches it, in every entry point (class 6 of
docs/hostile-input.md), and never shrinks a line budget.

Real repositories: forbidden files of random content are copied, exactly or
with small edits, to a new place or over an existing file, and the change
is judged from commits (`gate check`), as a patch (`gate check --patch`,
`gate lab`) and from a PR files listing that reports the copy (API mode).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gate.git.copies
from gate.changes.api import changes_from_api, listing
from gate.changes.git import changes_from_git
from gate.commands.cli import main
from gate.git.repo import Repo
from gate.github.client_types import PullFile
from gate.judge import judge
from gate.model.change import COPIED, MODIFIED, line_count
from gate.report import to_json
from gate.rubric.load import load_rubric_bytes
from tests.gitrepo import GitRepo

RUBRIC_PATH = ".github/blast-radius.yml"
RUBRIC = """\
rules:
  - {id: PREFIX, kind: forbidden_path, prefix: "secrets/"}
  - {id: GLOB, kind: forbidden_paths, paths: ["secrets/", "*.pem"]}
  - {id: FILES, kind: max_files, limit: 100}
  - {id: LINES, kind: max_lines, limit: 100000}
  - {id: TESTS, kind: test_drift, allow_added: false}
"""
SOURCES = ["secrets/key", "secrets/deep/id_rsa", "config/server.pem", "secrets/a b.txt"]
# new places for a copy, none of them forbidden; and existing files to overwrite
PLACES = ["public/key", "src/copied.txt", "deep/er/x", "key.txt"]
OTHERS = {"docs/readme.md": "# readme\n\nsome words\n", "src/app.py": "def main():\n    return 1\n"}

# Lines of 15 characters or more, 30 lines or more: a file of at least 400
# bytes, the least git breaks into a rewrite (-B) when it overwrites another.
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=15, max_size=40)
GIT_SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def copies(draw: st.DrawFn) -> dict[str, Any]:
    """Forbidden files, one of them copied (exactly, or with one line changed,
    added or removed) to a new place or over an existing file, maybe with
    an unrelated edit beside it."""
    chosen = draw(st.lists(st.sampled_from(SOURCES), min_size=1, max_size=3, unique=True))
    base: dict[str, bytes] = {}
    for n, path in enumerate(chosen):
        lines = draw(st.lists(WORD, min_size=30, max_size=50))
        text = f"source {n}\n" + "".join(f"{line}\n" for line in lines)
        data = text.encode()
        if draw(st.booleans()):
            data = data[:-1]  # no newline at the end
        base[path] = data
    source = draw(st.sampled_from(chosen))
    data = base[source]
    edit = draw(st.sampled_from(["exact", "change", "append", "drop"]))
    lines = data.split(b"\n")
    at = draw(st.integers(1, len(lines) - 2))
    if edit == "change":
        lines[at] = b"edited " + lines[at]
    elif edit == "append":
        lines.insert(at, b"an added line")
    elif edit == "drop":
        del lines[at]
    copy = b"\n".join(lines)
    if edit == "exact" and draw(st.integers(0, 3)) == 0:
        base[source] = copy = b"\0" + copy  # git calls both binary
    overwrite = draw(st.booleans())
    target = draw(st.sampled_from(sorted(OTHERS) if overwrite else PLACES))
    head = {target: copy}
    if draw(st.booleans()) and target != "src/app.py":
        head["src/app.py"] = b"def main():\n    return 2\n"
    return {"base": base, "source": source, "target": target, "head": head, "edit": edit}


def build(root: Path, case: dict[str, Any]) -> tuple[GitRepo, str, str]:
    repo = GitRepo(root)
    files = {RUBRIC_PATH: RUBRIC.encode(), **{p: t.encode() for p, t in OTHERS.items()}}
    repo.write_many({**files, **case["base"]})
    base = repo.commit("c")
    repo.write_many(case["head"])
    return repo, base, repo.commit("c")


def expected_counts(repo: GitRepo, base: str, head: str) -> tuple[int, int]:
    """(added, deleted) of the change without any copy or rename detection:
    git's text numstat, or every line of both blobs for a file git calls
    binary (docs/hostile-input.md section 1)."""
    out = repo.git("diff", "--numstat", "-z", "--no-renames", base, head)
    added = deleted = 0
    for record in filter(None, out.split("\0")):
        plus, minus, path = record.split("\t", 2)
        if plus == "-":
            for rev, side in ((base, "deleted"), (head, "added")):
                blob = repo.show(rev, path)
                lines = line_count((blob,)).lines if blob is not None else 0
                if side == "added":
                    added += lines
                else:
                    deleted += lines
        else:
            added, deleted = added + int(plus), deleted + int(minus)
    return added, deleted


def check_report(report: dict[str, Any], case: dict[str, Any], counts: tuple[int, int]) -> None:
    by_id = {r["id"]: r for r in report["results"]}
    source = case["source"]
    assert not by_id["GLOB"]["pass"]
    assert source in by_id["GLOB"]["paths"]
    assert by_id["PREFIX"]["pass"] is not source.startswith("secrets/")
    # the copy is written once, at its new place: its source is not counted
    assert by_id["FILES"]["message"].startswith(f"{len(case['head'])} path")
    assert (report["stats"]["added_lines"], report["stats"]["deleted_lines"]) == counts
    assert by_id["TESTS"]["pass"]


@GIT_SETTINGS
@given(case=copies())
def test_a_copy_touches_its_source_in_git_mode_patch_mode_and_the_lab(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], case: Any
) -> None:
    repo, base, head = build(tmp_path_factory.mktemp("copies") / "repo", case)
    counts = expected_counts(repo, base, head)
    args = ["--repo", str(repo.root), "--base", base, "--format", "json"]
    assert main(["check", *args, "--head", head]) == 1
    checked = json.loads(capsys.readouterr().out)
    check_report(checked, case, counts)
    patch = repo.root.parent / "writer.patch"
    patch.write_bytes(repo.git_bytes("diff", "--binary", base, head))  # no copy headers
    assert main(["check", *args, "--patch", str(patch)]) == 1
    patched = json.loads(capsys.readouterr().out)
    check_report(patched, case, counts)
    assert patched["results"] == checked["results"]
    main(["lab", *args, str(patch)])
    (row,) = json.loads(capsys.readouterr().out)["patches"]
    assert row["failed"] == checked["failed"]


def api_listing(repo: GitRepo, base: str, head: str) -> list[PullFile]:
    """The PR files listing of base...head with copies reported, as GitHub may:
    a copy's counts are its diff against its source (git's `-C -C`)."""
    out = repo.git("diff", "--numstat", "-z", "-C", "-C", base, head)
    raw = repo.git("diff", "--raw", "-z", "-C", "-C", "--no-abbrev", base, head)
    tokens = iter(out.split("\0"))
    counts: dict[str, tuple[int, int]] = {}
    for token in tokens:
        if not token:
            continue
        plus, minus, path = token.split("\t", 2)
        if path == "":
            next(tokens)
            path = next(tokens)
        counts[path] = (0, 0) if plus == "-" else (int(plus), int(minus))
    entries = []
    fields = iter(raw.split("\0"))
    for field in fields:
        if not field:
            continue
        letter, sha = field.split(" ")[4][0], field.split(" ")[3]
        old = next(fields) if letter in "RC" else None
        path = next(fields)
        status = {"A": "added", "M": "modified", "C": "copied", "R": "renamed"}[letter]
        plus, minus = counts[path]
        changed = plus + minus
        entries.append(PullFile(path, status, plus, minus, changed, old, changed > 0, sha))
    return entries


@GIT_SETTINGS
@given(case=copies().filter(lambda c: c["target"] in PLACES))
def test_api_mode_counts_a_listed_copy_as_an_added_file(
    tmp_path_factory: pytest.TempPathFactory, case: Any
) -> None:
    """When GitHub's listing says `copied`, API mode judges like git mode: the
    source is touched, and the copy counts every line of its blob (GitHub
    counts it against its source: 0 for an exact copy)."""
    repo, base, head = build(tmp_path_factory.mktemp("api") / "repo", case)
    entries = api_listing(repo, base, head)
    assert any(e.status == "copied" and e.previous_filename == case["source"] for e in entries)

    changes = changes_from_api(
        listing(entries, expected=len(entries)),
        base=base,
        head=head,
        merge_base=base,
        content_files=(),
        read_file=repo.show,
    )
    rubric = load_rubric_bytes(RUBRIC.encode(), RUBRIC_PATH)
    report = json.loads(to_json(judge(rubric, changes, rubric_path=RUBRIC_PATH)))
    check_report(report, case, expected_counts(repo, base, head))


# --- what is and is not a copy ----------------------------------------------------


def commit_change(make_repo: Any, base: dict[str, str], head: dict[str, Any]) -> Any:
    repo = make_repo()
    repo.write_many({RUBRIC_PATH: RUBRIC, **base})
    first = repo.commit("base")
    repo.apply(head)
    second = repo.commit("head")
    return changes_from_git(Repo(repo.root), first, second, ())


SECRET = "".join(f"secret line {i}\n" for i in range(12))


def by_path(changes: Any) -> dict[str, Any]:
    return {f.path: f for f in changes.files}


def test_exact_and_near_copies_and_overwrites_name_their_source(make_repo: Any) -> None:
    changes = commit_change(
        make_repo,
        {"secrets/key": SECRET, "docs/a.md": "old text\n" * 3},
        {
            "public/exact": SECRET,
            "public/near": SECRET.replace("line 3", "LINE 3"),
            "docs/a.md": SECRET,  # overwritten with a copy: still modified
        },
    )
    files = by_path(changes)
    assert (files["public/exact"].status, files["public/exact"].old_path) == (COPIED, "secrets/key")
    assert (files["public/near"].status, files["public/near"].old_path) == (COPIED, "secrets/key")
    assert (files["docs/a.md"].status, files["docs/a.md"].old_path) == (MODIFIED, "secrets/key")
    assert (files["public/exact"].added, files["public/exact"].deleted) == (12, 0)
    assert (files["docs/a.md"].added, files["docs/a.md"].deleted) == (12, 3)
    assert files["docs/a.md"].written == ("docs/a.md",)
    assert changes.notes == ()


def test_a_mode_change_an_empty_file_or_a_submodule_copies_nothing(make_repo: Any) -> None:
    changes = commit_change(
        make_repo,
        {"secrets/key": SECRET, "public/key": SECRET, "secrets/.gitkeep": ""},
        {"public/key": 0o755, "public/__init__.py": "", "public/other": "fresh text\n"},
    )
    files = by_path(changes)
    assert [(f.path, f.old_path) for f in changes.files] == [
        ("public/__init__.py", None),
        ("public/key", None),
        ("public/other", None),
    ]
    assert files["public/key"].status == MODIFIED


def test_renames_are_found_as_before_beside_a_copy(make_repo: Any) -> None:
    changes = commit_change(
        make_repo,
        {"secrets/key": SECRET, "src/mod.py": "".join(f"x{i} = {i}\n" for i in range(20))},
        {
            "src/mod.py": None,
            "src/moved.py": "".join(f"x{i} = {i}\n" for i in range(19)),
            "public/key": SECRET,
        },
    )
    files = by_path(changes)
    assert (files["src/moved.py"].status, files["src/moved.py"].old_path) == (
        "renamed",
        "src/mod.py",
    )
    assert files["public/key"].old_path == "secrets/key"


def test_copies_of_tests_are_new_tests_and_overwritten_tests_are_drift(make_repo: Any) -> None:
    rubric = load_rubric_bytes(RUBRIC.encode(), RUBRIC_PATH)
    test = "def test_a():\n    assert 1\n" * 6
    changes = commit_change(
        make_repo,
        {"tests/test_a.py": test, "tests/test_b.py": "def test_b():\n    pass\n"},
        {"tests/test_c.py": test, "tests/test_b.py": test},
    )
    files = by_path(changes)
    assert files["tests/test_c.py"].status == COPIED
    assert files["tests/test_b.py"].status == MODIFIED
    drift = {r.id: r for r in judge(rubric, changes, rubric_path=None).results}["TESTS"]
    assert not drift.passed
    assert drift.paths == ("tests/test_b.py", "tests/test_c.py")
    assert "tests/test_a.py" not in drift.paths


def test_over_the_budget_only_exact_copies_count_and_a_note_says_so(
    make_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gate.git.copies, "NEAR_COPY_FILES", 2)
    changes = commit_change(
        make_repo,
        {"secrets/key": SECRET, "docs/a.md": "words\n"},
        {"public/exact": SECRET, "public/near": SECRET.replace("line 3", "LINE 3")},
    )
    files = by_path(changes)
    assert files["public/exact"].old_path == "secrets/key"
    assert (files["public/near"].status, files["public/near"].old_path) == ("added", None)
    (note,) = changes.notes
    assert note == (
        "near copies were not looked for: the base has 3 files and the change adds or "
        "rewrites 2, more than the gate compares (2 files, 1,000,000 pairs), so only a file "
        "identical to one of the base counts as its copy"
    )
