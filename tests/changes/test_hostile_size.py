"""Bounded work on hostile input (docs/hostile-input.md, section 5).

Content rules parse Python, which costs about 100 times a file's size in
memory; a file over `TEXT_LIMIT` is not read, and each content rule fails
naming the limit.  Git mode, patch mode and API mode read texts through
their one reader each and agree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError, PatchError
from gate.changes.api import ApiListing, changes_from_api
from gate.changes.git import changes_from_git
from gate.changes.patch import changes_from_patch
from gate.changes.purity import HUNK_LIMIT, check_pure
from gate.git.repo import Repo
from gate.model.change import TEXT_LIMIT, ChangeSet, FileChange
from gate.model.rubric import Rule
from gate.rules import REGISTRY, confine_to_symbols, keep_lines, keep_symbols

RULES = {
    "keep_symbols": (keep_symbols, {"file": "app.py", "symbols": ["main"]}),
    "keep_lines": (keep_lines, {"file": "app.py", "lines": ["def main():"]}),
    "confine_to_symbols": (confine_to_symbols, {"file": "app.py", "symbols": ["main"]}),
}
LIMIT_WORDS = f"over the {TEXT_LIMIT >> 20} MiB that content rules read"


def module(size: int, value: int) -> bytes:
    """A Python module of exactly `size` bytes (near `TEXT_LIMIT`) whose `main`
    returns `value`: the same long comment, then `main`, its last line padded
    with spaces (so a change in size is a change inside `main`)."""
    pad = b"# " + b"x" * (TEXT_LIMIT - 200) + b"\n"
    body = f"def main():\n    return {value}".encode()
    spaces = size - len(pad) - len(body) - 1
    assert spaces >= 0
    return pad + body + b" " * spaces + b"\n"


def judge(changes: ChangeSet, kind: str) -> Any:
    rule_module, params = RULES[kind]
    return rule_module.check(Rule(id="R", kind=kind, params=params), changes)


def commit(repo: Any, data: bytes) -> str:
    repo.write("app.py", data)
    return str(repo.commit("app"))


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    base_extra=st.integers(-2, 2),
    head_extra=st.integers(-2, 2),
    kind=st.sampled_from(sorted(RULES)),
)
def test_a_content_file_over_the_limit_fails_every_content_rule_by_name(
    make_repo: Any, base_extra: int, head_extra: int, kind: str
) -> None:
    repo = make_repo()
    base = commit(repo, module(TEXT_LIMIT + base_extra, 1))
    head = commit(repo, module(TEXT_LIMIT + head_extra, 2))  # an edit inside main
    git = Repo(repo.root)
    changes = changes_from_git(git, base, head, ["app.py"])
    over = [(side, extra) for side, extra in (("base", base_extra), ("head", head_extra))]
    over = [(side, extra) for side, extra in over if extra > 0]
    verdict = judge(changes, kind)
    if over:
        side, extra = over[0]  # the first side over the limit is named
        assert "app.py" not in changes.texts
        assert not verdict.passed
        assert verdict.paths == ("app.py",)
        assert f"its {side} version is {TEXT_LIMIT + extra:,} bytes" in verdict.message
        assert LIMIT_WORDS in verdict.message
    else:
        # within the limit the rule judges as usual: main kept, the edit inside main
        assert verdict.passed, verdict.message
    # patch mode reads its texts through the same reader
    patch = repo.git_bytes("diff", "--binary", base, head)
    patched = changes_from_patch(git, base, patch, "writer.patch", ["app.py"])
    assert patched.withheld == changes.withheld
    assert judge(patched, kind).message == verdict.message


def test_an_untouched_file_over_the_limit_is_never_a_failure(make_repo: Any) -> None:
    repo = make_repo()
    repo.write("app.py", module(TEXT_LIMIT * 3, 1))
    base = repo.commit("base")
    repo.write("other.py", "x = 1\n")
    head = repo.commit("other")
    changes = changes_from_git(Repo(repo.root), base, head, ["app.py"])
    assert set(changes.withheld) == {"app.py"}
    for kind in RULES:
        assert judge(changes, kind).passed


def test_api_mode_withholds_the_same_files() -> None:
    big = module(TEXT_LIMIT + 1, 1)
    store = {("F", "app.py"): module(TEXT_LIMIT, 1), ("H", "app.py"): big}
    listing = ApiListing(files=(FileChange("app.py", added=1, deleted=1),), listed=1, expected=1)
    changes = changes_from_api(
        listing,
        base="B",
        head="H",
        merge_base="F",
        content_files=["app.py"],
        read_file=lambda ref, path: store.get((ref, path)),
    )
    assert changes.withheld == {
        "app.py": f"its head version is {TEXT_LIMIT + 1:,} bytes, over the 1 MiB that "
        "content rules read (Python's parser needs about 100 times a file's size in memory)"
    }
    for kind in RULES:
        verdict = judge(changes, kind)
        assert not verdict.passed and LIMIT_WORDS in verdict.message


def test_test_drift_says_a_huge_config_file_is_unreadable_and_why(make_repo: Any) -> None:
    repo = make_repo()
    repo.write("setup.cfg", "[tool:pytest]\naddopts = -q\n")
    base = repo.commit("base")
    repo.write("setup.cfg", b"[tool:pytest]\naddopts = -q\n#" + b"x" * TEXT_LIMIT + b"\n")
    head = repo.commit("huge")
    changes = changes_from_git(Repo(repo.root), base, head, ["setup.cfg"])
    verdict = REGISTRY["test_drift"].judge(Rule(id="T", kind="test_drift"), changes)
    assert not verdict.passed
    assert LIMIT_WORDS in verdict.message


# --- patches of millions of tiny lines ------------------------------------------

BODY_LINE = st.one_of(
    st.tuples(st.sampled_from([b" ", b"-", b"+"]), st.binary(max_size=6)),
    st.tuples(st.sampled_from([b"\\ ", b"", b"x", b"\\", b"@@ -1 +1 @@"]), st.just(b"")),
).map(lambda t: (t[0] + t[1]).replace(b"\n", b"") + b"\n")


@st.composite
def hunks(draw: st.DrawFn) -> bytes:
    """A git patch of one file whose hunks have bodies of random line kinds,
    headers that promise the right counts or one line more or less, and
    maybe something after them."""
    out = [b"diff --git a/f b/f\n--- a/f\n+++ b/f\n"]
    for _ in range(draw(st.integers(1, 3))):
        body = draw(st.lists(BODY_LINE, min_size=1, max_size=200))
        old = sum(1 for line in body if line[:1] in (b" ", b"-", b"\n"))
        new = sum(1 for line in body if line[:1] in (b" ", b"+", b"\n"))
        old += draw(st.sampled_from([0, 0, 0, 1, -1]))
        new += draw(st.sampled_from([0, 0, 0, 1, -1]))
        out.append(f"@@ -1,{max(old, 0)} +1,{max(new, 0)} @@\n".encode())
        out.extend(body)
        out.append(b"\\ marker\n" * draw(st.sampled_from([0, 0, 1, 2])))
    out.append(draw(st.sampled_from([b"", b"\\ No newline at end of file\n", b"tail\n"])))
    return b"".join(out)


def verdict(data: bytes) -> str | None:
    try:
        check_pure(data, "p")
    except PatchError as exc:
        return exc.message
    return None


@settings(max_examples=400, deadline=None)
@given(data=hunks(), block=st.integers(1, 300))
def test_counting_hunks_in_blocks_gives_the_line_by_line_verdict(data: bytes, block: int) -> None:
    """The block count (`_Scanner._skip_body`) is a shortcut, never a second
    opinion: with any block size the verdict and its message are those of
    the plain line-by-line walk (blocks larger than the patch)."""
    import gate.changes.purity

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gate.changes.purity, "_BLOCK", 1 << 40)
        walked = verdict(data)
        patch.setattr(gate.changes.purity, "_BLOCK", block)
        assert verdict(data) == walked


def test_a_hunk_of_millions_of_lines_is_judged_and_so_is_its_flaw() -> None:
    header = b"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,1000000 +1,1000000 @@\n"
    good = header + b"-x\n+y\n" * 1_000_000
    check_pure(good, "p")  # pure
    flawed = header + b"-x\n+y\n" * 500_000 + b"prose\n" + b"-x\n+y\n" * 500_000
    with pytest.raises(PatchError, match=r"^p:1000005: 'prose' cuts the hunk short"):
        check_pure(flawed, "p")
    with pytest.raises(PatchError, match="truncated"):
        check_pure(good[: -len(b"+y\n")], "p")


NAME = st.text(alphabet=st.sampled_from('ab c\t"\\é-_.'), min_size=1, max_size=8).filter(
    lambda n: n.strip(" .") == n and n not in (".", "..")
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(old=NAME, new=NAME, big=st.booleans())
def test_file_names_must_agree_at_every_size(make_repo: Any, old: str, new: str, big: bool) -> None:
    """Real `git diff` output with awkward names (spaces, tabs, quotes, a
    rename) is pure; the same patch with its `+++` name changed is refused,
    in a small patch and in one over a megabyte."""
    repo = make_repo()
    body = "".join(f"line {i}\n" for i in range(100_000 if big else 5))
    repo.write(old, body)
    base = repo.commit("base")
    if new != old:
        repo.git("mv", "--", old, new)
    repo.write(new, body.replace("line 1\n", "line one\n", 1) + "end\n")
    head = repo.commit("head")
    patch = repo.git_bytes("diff", "-M", "-U100000", base, head)
    assert (len(patch) > (1 << 20)) is big
    check_pure(patch, "p")
    lines = patch.split(b"\n")
    plus = next(i for i, line in enumerate(lines) if line.startswith(b"+++ "))
    lines[plus] = lines[plus][:-1] + b"Z" if lines[plus].endswith(b'"') else lines[plus] + b"Z"
    with pytest.raises(PatchError, match="other files than the 'diff --git' line"):
        check_pure(b"\n".join(lines), "p")


# --- patches of too many hunks --------------------------------------------------


@st.composite
def sectioned(draw: st.DrawFn) -> tuple[bytes, list[int], int | None]:
    """A patch of several sections, often of one file in different spellings
    (git's header, a plain `---`/`+++` pair with any prefix, a rename chain),
    each with a few one-line hunks, and maybe a stray line between hunks.
    Returns the patch, the line number of every hunk header, and the line
    number of the stray line (None: the patch is pure)."""
    out: list[bytes] = []
    lineno = 0
    headers: list[int] = []
    stray: int | None = None

    def emit(line: bytes) -> None:
        nonlocal lineno
        out.append(line)
        lineno += 1

    name = b"f"
    for _ in range(draw(st.integers(1, 5))):
        style = draw(st.sampled_from(["git", "plain", "rename"]))
        if style == "git":
            emit(b"diff --git a/" + name + b" b/" + name + b"\n")
            emit(b"--- a/" + name + b"\n")
            emit(b"+++ b/" + name + b"\n")
        elif style == "plain":
            old, new = (
                draw(st.sampled_from([b"a", b"x", b"src"])),
                draw(st.sampled_from([b"b", b"y"])),
            )
            emit(b"--- " + old + b"/" + name + b"\n")
            emit(b"+++ " + new + b"/" + name + b"\n")
        else:
            moved = name + b"2"
            emit(b"diff --git a/" + name + b" b/" + moved + b"\n")
            emit(b"similarity index 90%\n")
            emit(b"rename from " + name + b"\n")
            emit(b"rename to " + moved + b"\n")
            emit(b"--- a/" + name + b"\n")
            emit(b"+++ b/" + moved + b"\n")
            name = moved
        for k in range(draw(st.integers(1, 6))):
            headers.append(lineno + 1)
            emit(f"@@ -{3 * k + 1},1 +{3 * k + 1},1 @@\n".encode())
            emit(b"-x\n")
            emit(b"+y\n")
            if stray is None and draw(st.integers(0, 30)) == 0:
                stray = lineno + 1
                emit(b"prose between hunks\n")
    return b"".join(out), headers, stray


def judged(data: bytes) -> tuple[str, int, str] | None:
    """(error class, exit code, message) of `check_pure`, None when it passes."""
    try:
        check_pure(data, "p")
    except GateError as exc:
        return type(exc).__name__, exc.code, exc.message
    return None


@settings(max_examples=300, deadline=None)
@given(patch=sectioned(), limit=st.integers(0, 25))
def test_past_the_hunk_limit_a_patch_is_too_large_to_judge(
    patch: tuple[bytes, list[int], int | None], limit: int
) -> None:
    """The scanner counts the hunks of the whole patch, however its sections
    name the file: the first hunk past `HUNK_LIMIT` ends the scan with exit
    2 (too large to judge) naming its line, unless the walk found an impure
    line before it; up to the limit, the verdict is the uncapped one."""
    import gate.changes.purity

    data, headers, stray = patch
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gate.changes.purity, "HUNK_LIMIT", 1 << 40)
        uncapped = judged(data)
        mp.setattr(gate.changes.purity, "HUNK_LIMIT", limit)
        capped = judged(data)
    assert (uncapped is None) == (stray is None)
    past = headers[limit] if len(headers) > limit else None
    if past is None or (stray is not None and stray < past):
        assert capped == uncapped
    else:
        assert capped is not None
        kind, code, message = capped
        assert (kind, code) == ("GateError", 2)
        assert message.startswith(f"p:{past}: the patch has more than {limit:,} hunks")
        assert "\n" not in message


def hunk_patch(count: int) -> bytes:
    """`count` hunks on a file of lines `x`, each changing one line between
    two lines of context (4 lines of the patch each)."""
    hunk = b"@@ -%d,3 +%d,3 @@\n x\n-x\n+y\n x\n"
    body = b"".join(hunk % (3 * k + 1, 3 * k + 1) for k in range(count))
    return b"diff --git a/f b/f\n--- a/f\n+++ b/f\n" + body


def test_the_hunk_limit_itself() -> None:
    check_pure(hunk_patch(HUNK_LIMIT), "p")
    with pytest.raises(GateError, match=rf"^p:{4 + 5 * HUNK_LIMIT}: the patch has more than"):
        check_pure(hunk_patch(HUNK_LIMIT + 1), "p")


def test_gate_check_and_lab_refuse_too_many_hunks_with_exit_2(
    make_repo: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gate.changes.purity
    from gate.commands.cli import main

    repo = make_repo("hunks")
    repo.write(".github/blast-radius.yml", "rules:\n  - {id: F, kind: max_files, limit: 9}\n")
    repo.write("f", "x\n" * 9)
    repo.commit("base")
    patch = tmp_path / "many.patch"
    patch.write_bytes(hunk_patch(3))
    monkeypatch.setattr(gate.changes.purity, "HUNK_LIMIT", 2)
    code = main(["check", "--repo", str(repo.root), "--patch", str(patch)])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        f"gate: error: {patch}:14: the patch has more than 2 hunks, too many to judge (git "
        "apply's time grows with hunks times the length of the file they patch): split it, "
        "or commit the change and judge it with gate check --base REV --head REV\n"
    )
    code = main(["lab", "--repo", str(repo.root), "--format", "json", str(patch)])
    (row,) = json.loads(capsys.readouterr().out)["patches"]
    assert code == 2
    assert (row["bucket"], row["judge_error"]) == ("infrastructure", True)
    assert "more than 2 hunks" in row["error"]
    monkeypatch.setattr(gate.changes.purity, "HUNK_LIMIT", 3)
    assert main(["check", "--repo", str(repo.root), "--patch", str(patch)]) == 0
