"""A file placed in a test folder that Python imports instead of a
first-party module (docs/hostile-input.md, section 10): `test_drift` fails
it, naming the path, the module it shadows and the fix, whether or not any
rule names that module.

Generated over module names, layouts (flat or `src/`; module, regular
package or namespace package), test-folder spellings (`tests/`, `test/`,
`testing/` beside a test module, nested `tests/unit/`), file kinds (a
module, a package, a namespace portion, cached bytecode, an extension
module, a `.pth` in a committed virtual environment) and the change
sources (`gate check` on commits and on `--patch`).  The oracle for the
source forms is Python itself: the checkout is imported in a fresh
interpreter with the test folder first on `sys.path`, as pytest's
`prepend` import mode puts it, then the root, then `src/`.
"""

from __future__ import annotations

import keyword
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.drift.folders import tree_folders
from gate.drift.python import shadow
from gate.model.change import ADDED, DELETED, MODIFIED, BaseTree, ChangeSet, FileChange, FileTexts
from gate.model.rubric import DEFAULT_TESTS, Rule
from gate.rules import test_drift
from tests.gitrepo import RubricRepo

SETTINGS = settings(
    max_examples=int(os.environ.get("N", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
RUBRIC = "rules:\n  - {id: TESTS, kind: test_drift}\n"
REAL = 'WHO = "source"\n'
FAKE = 'WHO = "shadow"\n'
TAKEN = set(sys.stdlib_module_names) | set(sys.builtin_module_names)
TAKEN |= {"tests", "test", "testing", "src", "unit", "conftest", "helpers", "lib"}
NAMES = st.from_regex(r"\A[a-z][a-z0-9_]{0,7}\Z").filter(
    lambda n: not keyword.iskeyword(n) and n not in TAKEN and not n.startswith("test")
)
LAYOUTS = {
    "flat module": ("{n}.py",),
    "flat package": ("{n}/__init__.py", "{n}/core.py"),
    "flat namespace": ("{n}/core.py",),
    "src module": ("src/{n}.py",),
    "src package": ("src/{n}/__init__.py", "src/{n}/core.py"),
    "src namespace": ("src/{n}/core.py",),
}
# The folder pytest puts first on sys.path, and what the base holds to
# make it a test folder.
FOLDERS = {
    "tests": ("tests", ("tests/test_a.py",)),
    "test": ("test", ("test/test_a.py",)),
    "testing": ("testing", ("testing/test_a.py",)),
    "tests/unit": ("tests/unit", ("tests/unit/test_a.py",)),
}
TAG = sys.implementation.cache_tag
KINDS = {
    "module": "{f}/{n}.py",
    "package": "{f}/{n}/__init__.py",
    "namespace portion": "{f}/{n}/core.py",
    "bytecode": "{f}/__pycache__/test_a.{tag}.pyc",
    "extension": "{f}/{n}.cpython-312-x86_64-linux-gnu.so",
    "windows extension": "{f}/{n}.cp311-win_amd64.pyd",
    "pth": ".venv/lib/python3.12/site-packages/{n}.pth",
}


def judge(repo: RubricRepo, base: str, head: str, patch: bool) -> dict[str, Any]:
    """test_drift's result from `gate check` on the commits, or on `git diff` as --patch."""
    if patch:
        diff = repo.root.parent / "change.diff"
        diff.write_bytes(
            repo.git("diff", "--binary", base, head).encode("utf-8", "surrogateescape")
        )
        checked = repo.check(base, args=["--patch", str(diff)])
    else:
        checked = repo.check(base, head)
    result = checked.result()
    assert checked.code == (0 if result["pass"] else 1), checked.report
    return dict(result)


def imported(root: Path, folder: str, name: str) -> str:
    """What a test gets for `name` (and `name.core`), with `folder` first on
    sys.path (pytest's prepend), then the root, then src/."""
    code = (
        "import importlib, sys\n"
        f"sys.path[:0] = [{folder!r}]\nsys.path.append('src')\n"
        f"who = [getattr(importlib.import_module({name!r}), 'WHO', None)]\n"
        "try:\n"
        f"    who.append(importlib.import_module({name + '.core'!r}).WHO)\n"
        "except ImportError:\n"
        "    pass\n"
        "print('shadow' if 'shadow' in who else 'source')\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def base_repo(
    root: Path, capsys: pytest.CaptureFixture[str], name: str, layout: str, folder: str
) -> tuple[RubricRepo, str]:
    repo = RubricRepo(root, capsys)
    files = {".github/blast-radius.yml": RUBRIC}
    files.update({p.format(n=name): REAL for p in LAYOUTS[layout]})
    files.update({p: "def test_a():\n    pass\n" for p in FOLDERS[folder][1]})
    repo.write_many(files)
    return repo, repo.commit("base")


@SETTINGS
@given(
    name=NAMES,
    layout=st.sampled_from(sorted(LAYOUTS)),
    folder=st.sampled_from(sorted(FOLDERS)),
    kind=st.sampled_from(sorted(KINDS)),
    patch=st.booleans(),
)
def test_a_file_in_a_test_folder_that_python_imports_instead_fails_test_drift(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    name: str,
    layout: str,
    folder: str,
    kind: str,
    patch: bool,
) -> None:
    root = tmp_path_factory.mktemp("checkout") / "repo"
    repo, base = base_repo(root, capsys, name, layout, folder)
    where = FOLDERS[folder][0]
    assert imported(root, where, name) == "source"
    added = KINDS[kind].format(f=where, n=name, tag=TAG)
    repo.write(added, FAKE if added.endswith(".py") else b"\x00binary\x00")
    head = repo.commit("the change")
    result = judge(repo, base, head, patch)
    wins = imported(root, where, name) == "shadow" if added.endswith(".py") else None
    if kind == "namespace portion" and not layout.endswith("namespace"):
        # PEP 420: a module or regular package anywhere on sys.path comes first.
        assert wins is False
        assert result["pass"] is True, result
        return
    if wins is not None:
        assert wins is True, (layout, added)
    assert result["pass"] is False, (layout, added, result)
    assert added in result["paths"]
    assert f"{added} (new)" in result["message"]
    if kind in ("module", "package", "namespace portion"):
        first = LAYOUTS[layout][0].format(n=name)
        shown = first if first.endswith(".py") and "/" not in first.split("src/")[-1] else None
        assert (
            f"first-party {'namespace package ' if kind == 'namespace portion' else ''}"
            in (result["message"])
        )
        assert (shown or first.rpartition("/")[0] + "/") in result["message"]
        assert "rename" in result["message"]


@SETTINGS
@given(
    name=NAMES,
    layout=st.sampled_from(sorted(LAYOUTS)),
    folder=st.sampled_from(sorted(FOLDERS)),
    patch=st.booleans(),
    welcome=st.sampled_from(["helpers_for_{n}.py", "test_{n}_more.py", "{n}_data.json"]),
)
def test_a_new_helper_or_test_not_named_like_a_first_party_module_is_welcome(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    name: str,
    layout: str,
    folder: str,
    patch: bool,
    welcome: str,
) -> None:
    root = tmp_path_factory.mktemp("checkout") / "repo"
    repo, base = base_repo(root, capsys, name, layout, folder)
    added = f"{FOLDERS[folder][0]}/{welcome.format(n=name)}"
    text = "def test_more():\n    pass\n" if "test_" in welcome else "X = 1\n"
    repo.write(added, text)
    head = repo.commit("a welcome file")
    result = judge(repo, base, head, patch)
    assert result["pass"] is True, result


def test_a_test_folder_named_like_a_regular_package_is_welcome_but_not_a_namespace_one(
    rubric_repo: RubricRepo,
) -> None:
    """Tests laid out like the package (`tests/clamp/test_core.py`): a
    namespace portion, which a regular package anywhere on the path beats
    (PEP 420); with `src/clamp/` a namespace package its modules merge, in
    sys.path order, so `tests/clamp/core.py` replaces `clamp.core`; and a
    change that deletes `src/clamp/__init__.py` makes it one."""
    rubric_repo.write_many(
        {
            ".github/blast-radius.yml": RUBRIC,
            "src/clamp/__init__.py": REAL,
            "src/clamp/core.py": REAL,
            "tests/test_a.py": "def test_a():\n    pass\n",
        }
    )
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/clamp/test_core.py", "def test_core():\n    pass\n")
    rubric_repo.write("tests/clamp/core.py", FAKE)
    head = rubric_repo.commit("tests beside the package's name")
    assert judge(rubric_repo, base, head, False)["pass"] is True
    assert imported(rubric_repo.root, "tests", "clamp") == "source"
    rubric_repo.remove("src/clamp/__init__.py")
    head = rubric_repo.commit("and clamp a namespace package")
    assert imported(rubric_repo.root, "tests", "clamp") == "shadow"
    result = judge(rubric_repo, base, head, True)
    assert result["pass"] is False
    assert "tests/clamp/core.py (new) makes tests/clamp/ a namespace portion" in result["message"]


def test_a_new_package_in_a_deeper_test_folder_counts_from_each_folder_on_the_path() -> None:
    """`tests/unit/__init__.py` makes `tests/` the folder pytest puts on the
    path for `tests/unit/test_x.py`: `tests/unit/` is then package `unit`."""
    changes = ChangeSet(
        files=(FileChange("tests/unit/__init__.py", ADDED), FileChange("tests/unit/x.py", ADDED)),
        tree=BaseTree({"unit.py": "file", "tests": "folder"}, frozenset({"", "tests"})),
    )
    found = shadow.shadows(changes, lambda p: p.startswith("tests/"))
    assert [p for p, _ in found] == ["tests/unit/__init__.py"]
    assert "package unit in tests/" in found[0][1]
    assert "first-party unit.py (module)" in found[0][1]


def test_without_the_base_layout_api_mode_fails_a_new_module_in_a_test_folder() -> None:
    files = (FileChange("tests/helpers.py", ADDED),)
    texts = {"tests/helpers.py": FileTexts(None, "X = 1\n")}
    rule = Rule("T", "test_drift", {"paths": DEFAULT_TESTS, "allow_added": True})
    verdict = test_drift.check(rule, ChangeSet(files=files, source="api", texts=texts))
    assert verdict.passed is False
    assert "did not list the base tree" in verdict.message
    listed = BaseTree({"src": "folder", "src/other.py": "file"}, frozenset({"", "src"}))
    changes = ChangeSet(files=files, source="api", texts=texts, tree=listed)
    assert test_drift.check(rule, changes).passed
    named = BaseTree({"src": "folder", "src/helpers.py": "file"}, frozenset({"", "src"}))
    changes = ChangeSet(files=files, source="api", texts=texts, tree=named)
    assert "first-party src/helpers.py (module)" in test_drift.check(rule, changes).message


def test_the_folders_a_source_lists_are_the_layout_roots_and_what_the_change_reaches() -> None:
    files = (
        FileChange("tests/unit/clamp.py", ADDED),
        FileChange("src/kit/__init__.py", DELETED),
        FileChange("docs/readme.md", ADDED),
    )
    assert tree_folders(files) == (
        "",
        "clamp",
        "docs",
        "kit",
        "readme",
        "src",
        "src/clamp",
        "src/docs",
        "src/kit",
        "src/readme",
        "src/src",
        "src/tests",
        "src/unit",
        "tests",
        "tests/unit",
        "unit",
    )
    assert tree_folders((FileChange("docs/readme.md", ADDED),)) == ()  # nothing importable
    # a file changed in place (content or mode) moves nothing on the import path
    assert tree_folders((FileChange("tests/unit/clamp.py", MODIFIED),)) == ()
    assert tree_folders((*files, FileChange("lib/other.py", MODIFIED))) == tree_folders(files)


def test_a_data_folder_is_no_first_party_name_and_custom_paths_still_see_test_folders(
    rubric_repo: RubricRepo,
) -> None:
    """A root folder of data only holds nothing to import: `tests/data.py`
    is welcome.  In a test package (`tests/__init__.py`) pytest puts the
    root on sys.path and `tests/clamp.py` is `tests.clamp`: welcome; with
    `paths` narrowed to test modules, deleting that `__init__.py` (which
    puts `tests/` itself on sys.path) is drift, and the module then
    shadows."""
    narrowed = "rules:\n  - {id: TESTS, kind: test_drift, paths: ['tests/**/test_*.py']}\n"
    rubric_repo.write_many(
        {
            ".github/blast-radius.yml": narrowed,
            "data/input.json": "{}\n",
            "src/clamp/__init__.py": REAL,
            "tests/__init__.py": "",
            "tests/test_a.py": "def test_a():\n    pass\n",
        }
    )
    base = rubric_repo.commit("base")
    rubric_repo.write("tests/data.py", "X = 1\n")
    head = rubric_repo.commit("a helper named like a data folder")
    assert judge(rubric_repo, base, head, False)["pass"] is True
    rubric_repo.write("tests/clamp.py", FAKE)
    head = rubric_repo.commit("tests.clamp, a module of the package tests")
    assert judge(rubric_repo, base, head, False)["pass"] is True
    rubric_repo.remove("tests/__init__.py")
    head = rubric_repo.commit("tests/ becomes a rootless test folder")
    result = judge(rubric_repo, base, head, True)
    assert result["pass"] is False
    assert "tests/clamp.py (new) is a module clamp" in result["message"]
    assert "tests/__init__.py (deleted) makes tests/ a folder" in result["message"]
    assert {"tests/__init__.py", "tests/clamp.py"} <= set(result["paths"])


def test_a_symlink_in_a_test_folder_to_a_package_folder_shadows(rubric_repo: RubricRepo) -> None:
    """`tests/clamp` a symlink to a folder with an `__init__.py`: a
    checkout makes it a package folder, which Python imports as `clamp`."""
    rubric_repo.write_many(
        {
            ".github/blast-radius.yml": RUBRIC,
            "src/clamp/__init__.py": REAL,
            "tests/test_a.py": "def test_a():\n    pass\n",
        }
    )
    base = rubric_repo.commit("base")
    rubric_repo.write("vendor/fake/__init__.py", FAKE)
    rubric_repo.symlink("tests/clamp", "../vendor/fake")
    head = rubric_repo.commit("a link to a package")
    assert imported(rubric_repo.root, "tests", "clamp") == "shadow"
    for patch in (False, True):
        result = judge(rubric_repo, base, head, patch)
        assert result["pass"] is False
        assert (
            "tests/clamp (new) is a link that may be a package folder clamp" in (result["message"])
        )


def test_a_base_root_the_source_could_not_list_fails_closed() -> None:
    """A root listing the contents API cuts (1,000 entries) or a `src/`
    past the cap: the first-party names are unknown, so a new module in a
    test folder fails, never passes for want of names."""
    files = (FileChange("tests/helpers.py", ADDED, new_mode="100644"),)
    texts = {"tests/helpers.py": FileTexts(None, "X = 1\n")}
    rule = Rule("T", "test_drift", {"paths": DEFAULT_TESTS, "allow_added": True})
    for tree in (
        BaseTree({}, frozenset()),
        BaseTree({"src": "folder"}, frozenset({""})),
    ):
        verdict = test_drift.check(rule, ChangeSet(files=files, texts=texts, tree=tree))
        assert verdict.passed is False
        assert "did not list the base tree's modules" in verdict.message
    listed = BaseTree({"src": "folder"}, frozenset({"", "src"}))
    assert test_drift.check(rule, ChangeSet(files=files, texts=texts, tree=listed)).passed


def test_a_new_root_module_shadows_a_src_one_unless_the_change_moves_it(
    rubric_repo: RubricRepo,
) -> None:
    """The root comes before `src/` on sys.path when tests run from the
    root: a new `clamp.py` or `clamp/__init__.py` there replaces
    `src/clamp/`; moving the package from `src/` to the root is a layout
    change, not a shadow."""
    rubric_repo.write_many(
        {
            ".github/blast-radius.yml": RUBRIC,
            "src/clamp/__init__.py": REAL,
            "tests/test_a.py": "def test_a():\n    pass\n",
        }
    )
    base = rubric_repo.commit("base")
    for added in ("clamp.py", "clamp/__init__.py"):
        rubric_repo.write(added, FAKE)
        head = rubric_repo.commit("a root module")
        assert imported(rubric_repo.root, ".", "clamp") == "shadow"
        result = judge(rubric_repo, base, head, False)
        assert result["pass"] is False
        assert f"{added} (new) is a" in result["message"]
        assert "first-party src/clamp/ (package)" in result["message"]
        rubric_repo.git("reset", "-q", "--hard", base)
    rubric_repo.git("mv", "src/clamp", "clamp")
    head = rubric_repo.commit("a flat layout")
    assert judge(rubric_repo, base, head, True)["pass"] is True
