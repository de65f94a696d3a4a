"""test_drift on a NEW Go test file whose load-time code would reach other
tests: `go test` builds one test binary per folder, so an `init`, a
`TestMain` or a storing test reaches the package's tests at base, and none
in a package that had no test file there (a folder without `_test.go`
files, or a new folder).  A directive that acts on its own file (a build
constraint, `//line`, `//go:embed`, ...) reaches nothing; `//go:linkname`
and `//go:debug` do.  Every builder that lists the base tree; without the
listing, the strict verdict."""

from __future__ import annotations

import pytest

from gate.drift.folders import go_package_files, tree_folders
from gate.model.change import (
    ADDED,
    COPIED,
    DELETED,
    MODIFIED,
    BaseTree,
    ChangeSet,
    FileChange,
    FileTexts,
)
from gate.model.rubric import DEFAULT_TESTS, Rule
from gate.rules import test_drift
from tests.rulecase import Files, RuleCase

DRIFT = RuleCase("test_drift", id="T", paths=list(DEFAULT_TESTS))
TEST = 'package kit\n\nimport "testing"\n\nfunc TestOld(t *testing.T) {}\n'
CODE = "package kit\n\nfunc Clamp(x int) int { return x }\n"

# Load-time code of a new test file, each of which would reach a test beside it.
REACHING = {
    "init": "package kit\n\nfunc init() { limit = 2 }\n",
    "TestMain": 'package kit\n\nimport "testing"\n\nfunc TestMain(m *testing.M) {}\n',
    "var": 'package kit\n\nimport "os"\n\nvar _ = os.Setenv("MODE", "x")\n',
    "TestNew": 'package kit\n\nimport (\n\t"os"\n\t"testing"\n)\n\n'
    'func TestNew(t *testing.T) {\n\tos.Setenv("MODE", "x")\n}\n',
    "import": 'package kit\n\nimport _ "example.com/plugin"\n',
}

# The base beside the new file `<folder>/new_test.go`, and whether a test
# of the base shares its test binary.
LAYOUTS = {
    "only code at base": ({"kit/clamp.go": CODE}, "kit", False),
    "a new folder": ({"other/clamp.go": CODE}, "kit", False),
    "a new nested folder": ({"other/clamp.go": CODE}, "kit/deep/er", False),
    "a test in a folder below": ({"kit/sub/a_test.go": TEST}, "kit", False),
    "a test beside it": ({"kit/clamp.go": CODE, "kit/a_test.go": TEST}, "kit", True),
    "an external test package beside it": (
        {"kit/a_test.go": TEST.replace("package kit", "package kit_test")},
        "kit",
        True,
    ),
    "a test at the root": ({"a_test.go": TEST}, "", True),
    "an odd folder name": ({"go-kit/a_test.go": TEST}, "go-kit", True),
    # `Kit/` is `kit/` on a case-insensitive checkout, where go test builds them as one
    "a folder that folds alike": ({"kit/a_test.go": TEST}, "Kit", True),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("what", list(REACHING))
@pytest.mark.parametrize("source", ["git", "patch"])
def test_a_new_test_file_reaches_only_the_tests_of_its_own_package(
    layout: str, what: str, source: str
) -> None:
    base, folder, shared = LAYOUTS[layout]
    path = f"{folder}/new_test.go" if folder else "new_test.go"
    change = Files(base=base, head={**base, path: REACHING[what]})
    result = DRIFT.check(change, source=source)  # type: ignore[arg-type]
    assert result.passed is not shared, result.message
    if shared:
        assert f"{path} (new): " in result.message
        assert "runs at collection or changes what other tests see" in result.message


def test_a_symlink_named_like_a_test_file_at_base_is_a_test_beside_it() -> None:
    tree = BaseTree({"kit": "folder", "kit/a_test.go": "link"}, frozenset({"", "kit"}))
    assert _verdict(tree).passed is False
    # a folder named like a test file holds no test of this package
    tree = BaseTree({"kit": "folder", "kit/a_test.go": "folder"}, frozenset({"", "kit"}))
    assert _verdict(tree).passed is True


@pytest.mark.parametrize(
    "tree",
    [
        None,  # the source did not list the base tree
        BaseTree({"kit": "folder"}, frozenset({""})),  # kit itself not listed (a capped source)
        BaseTree({"kit": "link"}, frozenset({""})),  # a symlink: where it points is unknown
        BaseTree({}, frozenset()),  # not even the root
    ],
)
def test_without_a_listing_of_its_folder_the_new_file_reaches_the_package(
    tree: BaseTree | None,
) -> None:
    result = _verdict(tree)
    assert result.passed is False
    assert "kit/new_test.go (new): init at line 3" in result.message


def _verdict(tree: BaseTree | None) -> test_drift.RuleResult:
    change = FileChange("kit/new_test.go", ADDED, added=3, deleted=0, new_mode="100644")
    texts = {"kit/new_test.go": FileTexts(None, REACHING["init"])}
    rule = Rule("T", "test_drift", {"allow_added": True, "paths": DEFAULT_TESTS})
    return test_drift.check(rule, ChangeSet(files=(change,), source="api", texts=texts, tree=tree))


OWN = [
    "//go:build ignore\n\n",
    "//go:build linux && !cgo\n// +build linux,!cgo\n\n",
    "//+build linux\n\n",
]
BODY = 'package kit\n\nimport (\n\t_ "embed"\n\t"testing"\n)\n\n'
INSIDE = [
    "//go:embed testdata/golden.txt\nvar golden string\n\n",
    "//go:noinline\nfunc helper() int { return 1 }\n\n",
    "//line generated.go:10\nfunc helper() int { return 1 }\n\n",
    "//go:nosplit\nfunc helper() int { return 1 }\n\n",
]
FURTHER = [
    ("//go:linkname now runtime.nanotime\nfunc now() int64\n\n", "//go:linkname"),
    ("//go:debug panicnil=1\n\n", "//go:debug"),
]
NEW_TEST = "func TestNew(t *testing.T) {}\n"
BESIDE = {"kit/a_test.go": TEST}


DIRECTED = [h + BODY + NEW_TEST for h in OWN] + [BODY + i + NEW_TEST for i in INSIDE]


@pytest.mark.parametrize("head", DIRECTED)
def test_a_directive_that_acts_on_its_own_file_reaches_nothing(head: str) -> None:
    change = Files(base=BESIDE, head={**BESIDE, "kit/new_test.go": head})
    DRIFT.passes(change, "1 new test in new test files")


@pytest.mark.parametrize(("inside", "word"), FURTHER)
def test_linkname_and_debug_directives_reach_the_package(inside: str, word: str) -> None:
    head = BODY.replace('\t_ "embed"\n', '\t_ "unsafe"\n') + inside + NEW_TEST
    change = Files(base=BESIDE, head={**BESIDE, "kit/new_test.go": head})
    DRIFT.fails(change, f"{word} at line")


def test_a_new_build_constraint_in_an_existing_test_file_is_drift() -> None:
    """`//go:build ignore` added to an existing file turns its tests off."""
    change = Files(base=BESIDE, head={"kit/a_test.go": "//go:build ignore\n\n" + TEST})
    DRIFT.fails(change, "new build constraint runs at collection")


def test_the_folders_listed_hold_each_go_test_file_and_the_folders_above() -> None:
    """A new one's (whether its package is new) and a modified one's (its
    package's files, `gate.drift.go.unread`)."""
    files = (
        FileChange("a/b/c/x_test.go", ADDED),
        FileChange("a/d/y_test.go", COPIED),
        FileChange("go-kit/z_test.go", ADDED),
        FileChange("e/f_test.go", MODIFIED),
        FileChange("g/h.go", ADDED),  # no test file
        FileChange("i/j_test.go", DELETED),  # no package left to read
    )
    assert tree_folders(files) == ("", "a", "a/b", "a/b/c", "a/d", "e", "go-kit")
    assert tree_folders((FileChange("root_test.go", ADDED),)) == ("",)


def test_the_package_files_read_are_the_go_files_of_each_modified_test_files_folder() -> None:
    """Every `.go` file entry of the folder (not a link, a folder or another
    language), for a Go test file modified in place; none where the folder
    is not listed, nor for a new or deleted one."""
    tree = BaseTree(
        {
            "a": "folder",
            "a/a.go": "file",
            "a/a_test.go": "file",
            "a/l.go": "link",
            "a/s.go": "folder",
            "a/x.s": "file",
            "root.go": "file",
            "root_test.go": "file",
            "u": "folder",
        },
        frozenset({"", "a"}),
    )
    files = (
        FileChange("a/a_test.go", MODIFIED),
        FileChange("root_test.go", MODIFIED),
        FileChange("u/u_test.go", MODIFIED),  # its folder is not listed
        FileChange("b/n_test.go", ADDED),
        FileChange("c/d_test.go", DELETED),
        FileChange("a/a.go", MODIFIED),  # no test file
    )
    assert go_package_files(files, tree) == [
        "root.go",
        "root_test.go",
        "a/a.go",
        "a/a_test.go",
    ]


def test_a_folder_of_the_base_tree_is_listed_absent_or_unknown() -> None:
    tree = BaseTree(
        {"a": "folder", "a/x.go": "file", "f": "file", "l": "link", "s": "folder"},
        frozenset({"", "a"}),
    )
    assert tree.folder("") == {"a": "folder", "f": "file", "l": "link", "s": "folder"}
    assert tree.folder("a") == {"x.go": "file"}
    assert tree.folder("a/new") == {}  # a listed folder without it
    assert tree.folder("a/new/deeper") == {}
    assert tree.folder("gone") == {}
    assert tree.folder("f/under") == {}  # a file stands there
    assert tree.folder("l") is None  # a symlink: maybe a folder elsewhere
    assert tree.folder("s") is None  # a folder (or a submodule) not listed
    assert tree.folder("s/t") is None
    # a name that folds like a listed one is that folder on a case-insensitive checkout
    assert tree.folder("A") is None
    assert tree.folder("A/new") is None
    assert tree.folder("a/X.GO") is None  # folds like the file x.go: not known absent
    assert BaseTree().folder("") is None


SUITE = 'package kit\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/suite"\n)\n\n'


@pytest.mark.parametrize(
    ("hooked", "passed"),
    [
        # a suite the new file defines: its hooks run around its own tests
        ("type NewSuite struct{ suite.Suite }\n\nfunc (s *NewSuite) SetupTest() {}\n", True),
        # a suite of another file of the package: its tests are at base
        ("func (s *OldSuite) SetupTest() { s.T().Skip() }\n", False),
    ],
)
def test_a_new_file_may_hook_its_own_suite_only(hooked: str, passed: bool) -> None:
    head = SUITE + hooked + "\nfunc (s *NewSuite) TestNew() {}\n"
    change = Files(base=BESIDE, head={**BESIDE, "kit/new_test.go": head})
    result = DRIFT.check(change)
    assert result.passed is passed, result.message


@pytest.mark.parametrize(("beside", "passed"), [((), True), (("a_test.go",), False)])
def test_api_mode_lists_the_new_files_folder_and_those_above(
    beside: tuple[str, ...], passed: bool
) -> None:
    """The contents API lists the root, then `kit`, at the merge base."""
    from gate.changes.api import changes_from_api, listing
    from gate.github.client_types import PullFile
    from gate.rubric.load import load_rubric_bytes
    from gate.rules import text_wants

    rubric = load_rubric_bytes(b"rules:\n  - {id: TESTS, kind: test_drift}\n", "r.yml")
    found = listing([PullFile("kit/new_test.go", "added", 3, 0, 3, None, True)], expected=1)
    folders = {"": [("kit", "dir")], "kit": [("clamp.go", "file"), *((n, "file") for n in beside)]}
    asked: list[tuple[str, str]] = []

    def list_folder(ref: str, path: str) -> list[tuple[str, str]] | None:
        asked.append((ref, path))
        return folders.get(path)

    changes = changes_from_api(
        found,
        base="base",
        head="head",
        content_files=text_wants(rubric.rules),
        read_file=lambda ref, path: REACHING["init"].encode() if ref == "head" else None,
        merge_base="fork",
        list_folder=list_folder,
    )
    assert ("fork", "kit") in asked
    result = test_drift.check(rubric.rules[0], changes)
    assert result.passed is passed, result.message
