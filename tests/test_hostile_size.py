"""Bounded work on hostile input (docs/hostile-input.md, section 5).

Content rules parse Python, which costs about 100 times a file's size in
memory; a file over `TEXT_LIMIT` is not read, and each content rule fails
naming the limit.  Git mode, patch mode and API mode read texts through
their one reader each and agree.
"""

from __future__ import annotations

import subprocess
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.changes import TEXT_LIMIT, ChangeSet, FileChange
from gate.git import Repo, changes_from_git
from gate.github.api_changes import ApiListing, changes_from_api
from gate.model import Rule
from gate.patch import changes_from_patch
from gate.rules import confine_to_symbols, keep_lines, keep_symbols, test_drift

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
    patch = subprocess.run(
        ["git", "diff", "--binary", base, head], cwd=repo.root, capture_output=True, check=True
    ).stdout
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
    verdict = test_drift.check(Rule(id="T", kind="test_drift", params={}), changes)
    assert not verdict.passed
    assert LIMIT_WORDS in verdict.message
