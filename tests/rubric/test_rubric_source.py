"""gate.rubric.source: the one source of every entry point's rubric.

A source normalizes the rubric's path once (every spelling of a path reads
the same blob and guards the same path), and checks its pin, a freeze file
entry or a SHA-256, on the bytes of a commit's rubric and of a local file
alike, before anything is parsed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.git.repo import Repo
from gate.rubric.source import RubricSource
from tests.gitrepo import GitRepo

RUBRIC = b"rules:\n  - {id: F1, kind: max_files, limit: 5}\n"
SEGMENT = st.text(alphabet="abcXYZ019_-.", min_size=1, max_size=6).filter(
    lambda s: s not in (".", "..")
)
SHARED = [HealthCheck.function_scoped_fixture]  # the module's repository is read only
FILLER = st.sampled_from(["/", "//", "/./", "/././/"])


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, dict[str, str]]:
    """A repository whose one commit holds a rubric at each of a few paths."""
    repo = GitRepo(tmp_path_factory.mktemp("source") / "repo")
    paths = ["r.yml", "cfg/rubric.yml", "a-b/c_d/e.f.yml"]
    for path in paths:
        repo.write(path, RUBRIC)
    return repo, {"head": repo.commit("rubrics"), **{p: p for p in paths}}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    which=st.sampled_from(["r.yml", "cfg/rubric.yml", "a-b/c_d/e.f.yml"]),
    lead=st.sampled_from(["", "./", "././"]),
    fillers=st.lists(FILLER, min_size=3, max_size=3),
    trail=st.sampled_from(["", "/", "/."]),
)
def test_every_spelling_of_a_path_is_one_path(
    stored: tuple[GitRepo, dict[str, str]], which: str, lead: str, fillers: list[str], trail: str
) -> None:
    repo, names = stored
    parts = which.split("/")
    spelled = (
        lead
        + "".join(p + f for p, f in zip(parts[:-1], fillers[: len(parts) - 1], strict=True))
        + parts[-1]
        + trail
    )
    source = RubricSource(spelled)
    assert source.path == which
    rubric = source.load(Repo(repo.root).read_blob, names["head"])
    assert rubric.source.endswith(f":{which}") and rubric.rules[0].id == "F1"


@given(
    path=st.lists(SEGMENT, min_size=1, max_size=3).map("/".join),
    bad=st.sampled_from(["/{}", "{}/../x", "..", "a\\{}", "{}\x07"]),
)
def test_a_path_outside_the_repository_is_refused_in_one_sentence(path: str, bad: str) -> None:
    with pytest.raises(GateError) as caught:
        RubricSource(bad.format(path))
    assert "rubric path" in caught.value.message and "\n" not in caught.value.message


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tail=st.binary(min_size=1, max_size=8))
def test_a_pin_is_checked_on_a_commit_and_on_a_file_alike(
    stored: tuple[GitRepo, dict[str, str]], tmp_path_factory: pytest.TempPathFactory, tail: bytes
) -> None:
    repo, names = stored
    read = Repo(repo.root).read_blob
    good = hashlib.sha256(RUBRIC).hexdigest()
    edited = RUBRIC + b"#" + tail.replace(b"\n", b" ").replace(b"\r", b" ")
    folder = tmp_path_factory.mktemp("pin")
    local = folder / "r.yml"
    local.write_bytes(edited)
    freeze = folder / "FREEZE"
    freeze.write_text(f"r.yml {good}\n{local} {good}\n")
    # The pinned bytes load, from the commit and from an identical file.
    assert RubricSource("r.yml", sha256=good).load(read, names["head"]).sha256 == good
    assert RubricSource("r.yml", freeze=str(freeze)).load(read, names["head"]).sha256 == good
    # Any other bytes are refused before they are parsed, wherever they come from.
    bad = hashlib.sha256(edited).hexdigest()
    with pytest.raises(GateError, match="rubric changed after freeze"):
        RubricSource(file=str(local), freeze=str(freeze)).load()
    with pytest.raises(GateError, match=f"has SHA-256 {bad} but the rubric-sha256 input pins"):
        RubricSource(file=str(local), sha256=good).load()
    wrong = hashlib.sha256(tail).hexdigest()
    with pytest.raises(GateError, match=f"pins {wrong}"):
        RubricSource("r.yml", sha256=wrong).load(read, names["head"])


def test_a_commit_without_the_rubric_is_none_or_an_error(
    stored: tuple[GitRepo, dict[str, str]], tmp_path: Path
) -> None:
    repo, names = stored
    read = Repo(repo.root).read_blob
    assert RubricSource("absent.yml").at_commit(read, names["head"]) is None
    with pytest.raises(GateError, match=r"^no rubric at absent.yml in base commit "):
        RubricSource("absent.yml").load(read, names["head"])
