"""A lint cleanup (golangci-lint's `unused`) deleting package-level
declarations of a Go test file that no code of its package read
(`gate.drift.go.unread`): a `var` whose initializer runs nothing, a
`const`, a helper `func`.  Each shape beside its hostile twins, the same
removal where something may still read or run it, which stays a removal.
Every case is a real repository judged by `gate check`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import pytest

from gate.model.rubric import DEFAULT_TESTS
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo
from tests.rulecase import Files, RuleCase

DRIFT = RuleCase("test_drift", id="T", paths=list(DEFAULT_TESTS))

TEST = """\
package kit

import (
	"strings"
	"testing"
)

var parseID = strings.TrimSpace

const (
	expectedSize int64 = 734
	expectedType       = "pdf"
)

// sizeOf is kept for later.
func sizeOf(t *testing.T) int { return 3 }

func TestKit(t *testing.T) {
	if strings.TrimSpace(Name()) != "kit" {
		t.Fatal("name")
	}
}
"""
CODE = 'package kit\n\nfunc Name() string { return "kit" }\n'
PATH = "kit/kit_test.go"

DECLS = {
    "parseID": "var parseID = strings.TrimSpace\n",
    "expectedSize": "\texpectedSize int64 = 734\n",
    "expectedType": '\texpectedType       = "pdf"\n',
    "sizeOf": "// sizeOf is kept for later.\nfunc sizeOf(t *testing.T) int { return 3 }\n",
}


def _without(*names: str, text: str = TEST) -> str:
    for name in names:
        assert DECLS[name] in text, name
        text = text.replace(DECLS[name], "", 1)
    return text


def _judge(
    repo: RubricRepo, base: Mapping[str, str], head: Mapping[str, str | None]
) -> tuple[int, str]:
    repo.write_many(base)
    before = repo.commit("base")
    for path, text in head.items():
        if text is None:
            repo.remove(path)
        else:
            repo.write(path, text)
    after = repo.commit("cleanup")
    code, result = repo.check(before, after, rubric=DRIFT_RUBRIC).verdict()
    return code, str(result["message"])


REMOVALS = [("parseID",), ("expectedSize",), ("expectedSize", "expectedType"), ("sizeOf",)]
REMOVALS.append(tuple(DECLS))


@pytest.mark.parametrize("names", REMOVALS, ids=["+".join(n) for n in REMOVALS])
def test_unread_declarations_removed_change_no_test(
    rubric_repo: RubricRepo, names: tuple[str, ...]
) -> None:
    code, message = _judge(rubric_repo, {PATH: TEST, "kit/kit.go": CODE}, {PATH: _without(*names)})
    assert code == 0, message


# Another file of the folder that still spells a removed name: test or
# not, the `_test` package or not, behind a build constraint, as a
# composite literal's key, a selector's field, or in a directive.
READERS = {
    "a test file of the package": ("kit/more_test.go", "package kit\n\nvar n = expectedSize\n"),
    "a code file": ("kit/kit2.go", "package kit\n\nfunc Size() int64 { return expectedSize }\n"),
    "a build-tagged file": (
        "kit/linux.go",
        "//go:build linux\n\npackage kit\n\nvar n = expectedSize\n",
    ),
    "the _test package": (
        "kit/ext_test.go",
        'package kit_test\n\nimport kit "example.com/kit"\n\nvar n = kit.expectedSize\n',
    ),
    "a composite literal's key": (
        "kit/lit_test.go",
        "package kit\n\ntype sizes struct{ expectedSize int }\n\nvar s = sizes{expectedSize: 1}\n",
    ),
    "a go:linkname directive": (
        "kit/link.go",
        'package kit\n\nimport _ "unsafe"\n\n'
        "//go:linkname local kit.expectedSize\nvar local int64\n",
    ),
    "a local of the same spelling": (
        "kit/local_test.go",
        "package kit\n\nfunc f() int { expectedSize := 1; return expectedSize }\n",
    ),
}


@pytest.mark.parametrize("reader", list(READERS), ids=list(READERS))
def test_a_name_another_file_of_the_package_spells_is_removed(
    rubric_repo: RubricRepo, reader: str
) -> None:
    path, text = READERS[reader]
    base = {PATH: TEST, "kit/kit.go": CODE, path: text}
    code, message = _judge(rubric_repo, base, {PATH: _without("expectedSize")})
    assert code == 1 and "expectedSize removed" in message, message


# The test file itself still reads it (a test, or another declaration).
SAME_FILE = {
    "a test": TEST.replace('"kit" {', '"kit" || expectedSize == 0 {'),
    "a var": TEST + "\nvar doubled = expectedSize * 2\n",
    "a helper": TEST + "\nfunc size() int64 { return expectedSize }\n",
}


@pytest.mark.parametrize("reader", list(SAME_FILE), ids=list(SAME_FILE))
def test_a_name_the_file_still_reads_is_removed(rubric_repo: RubricRepo, reader: str) -> None:
    base = SAME_FILE[reader]
    head = base.replace(DECLS["expectedSize"], "", 1)
    code, message = _judge(rubric_repo, {PATH: base, "kit/kit.go": CODE}, {PATH: head})
    assert code == 1 and "expectedSize removed" in message, message


# Declarations whose removal may run less, or that a runner or the type
# system reads without naming them.
RUNS = {
    "a call": 'var gone = strings.TrimSpace(" x ")\n',
    "a conversion": "var gone = int64(3)\n",
    "a closure": 'var gone = func() string { return "x" }\n',
    "a receive": "var gone = <-make(chan int)\n",
    "an index": "var gone = []int{1}[2]\n",
    "a dereference": "var gone = *new(int)\n",
    "a division": 'var gone = len("a") / zero\n',
    "a shift": "var gone = 1 << shift\n",
    "a comparison": "var gone = any(1) == any(2)\n",
    "a selector of a value": "var gone = value.field\n",
    "a blank var": "var _ = strings.TrimSpace\n",
    "a blank assertion": "var _ fmt.Stringer = (*T)(nil)\n",
    "init": "func init() {}\n",
    "a test": "func TestGone(t *testing.T) {}\n",
    "TestMain": "func TestMain(m *testing.M) {}\n",
    "a benchmark": "func BenchmarkGone(b *testing.B) {}\n",
    "a fuzz test": "func FuzzGone(f *testing.F) {}\n",
    "an example": "func ExampleGone() {}\n",
    "an embedded var": "//go:embed kit.go\nvar gone string\n",
    "a type": "type gone struct{}\n",
    "a method": "func (k *kitSuite) gone() {}\n",
}


@pytest.mark.parametrize("shape", list(RUNS), ids=list(RUNS))
def test_a_declaration_that_runs_or_is_read_unnamed_is_removed(
    rubric_repo: RubricRepo, shape: str
) -> None:
    extra = RUNS[shape]
    base = TEST + "\n" + extra
    code, message = _judge(rubric_repo, {PATH: base, "kit/kit.go": CODE}, {PATH: TEST})
    assert code == 1 and "removed" in message, message


# What the Go tool builds beside the package's Go files, and a name put back
# in another file (a move), and a file whose text is unknown.
FOLDERS = {
    "an assembly file": {"kit/asm_amd64.s": "TEXT ·expectedSize(SB),0,$0\n"},
    "a C file": {"kit/k.c": "int x;\n"},
    "a cgo file": {"kit/cgo.go": 'package kit\n\n// int x;\nimport "C"\n'},
    "a cgo file with a raw path": {"kit/cgo.go": "package kit\n\nimport `C`\n"},
}


@pytest.mark.parametrize("shape", list(FOLDERS), ids=list(FOLDERS))
def test_a_package_built_with_other_languages_keeps_its_removals(
    rubric_repo: RubricRepo, shape: str
) -> None:
    base = {PATH: TEST, "kit/kit.go": CODE, **FOLDERS[shape]}
    code, message = _judge(rubric_repo, base, {PATH: _without("expectedSize")})
    assert code == 1 and "expectedSize removed" in message, message


@pytest.mark.parametrize(
    "moved_to",
    [
        ("kit/kit.go", CODE + "\nconst expectedSize int64 = 735\n"),
        ("kit/sizes_test.go", "package kit\n\nconst expectedSize int64 = 735\n"),
        (PATH, _without("expectedSize") + "\nconst expectedSize int64 = 735\n"),
    ],
    ids=["to a code file", "to a new test file", "within the file"],
)
def test_a_declaration_moved_is_removed(rubric_repo: RubricRepo, moved_to: tuple[str, str]) -> None:
    path, text = moved_to
    head = {PATH: _without("expectedSize"), path: text}
    code, message = _judge(rubric_repo, {PATH: TEST, "kit/kit.go": CODE}, head)
    assert code == 1 and "expectedSize" in message, message


def test_a_removal_beside_another_change_still_reports_the_change(
    rubric_repo: RubricRepo,
) -> None:
    """The unread removal drops out of the message; the edited test stays."""
    head = _without("expectedSize").replace('!= "kit"', '!= "kat"')
    code, message = _judge(rubric_repo, {PATH: TEST, "kit/kit.go": CODE}, {PATH: head})
    assert code == 1 and "TestKit changed" in message, message
    assert "expectedSize" not in message, message


@pytest.mark.parametrize(
    ("others", "passed"),
    [
        ({}, True),
        ({"kit/more_test.go": "package kit\n\nvar n = expectedSize\n"}, False),
        # more files than the contents API reads: one left unread proves nothing
        ({f"kit/f{i:02}.go": "package kit\n" for i in range(60)}, False),
    ],
    ids=["unread", "read by another file", "past the API mode cap"],
)
def test_api_mode_reads_the_package_files_at_the_fork(others: dict[str, str], passed: bool) -> None:
    """The contents API lists `kit` and reads each Go file there at the merge
    base (the test file on both sides), up to `PACKAGE_READS`."""
    from gate.changes.api import changes_from_api, listing
    from gate.github.client_types import PullFile
    from gate.rubric.load import load_rubric_bytes
    from gate.rules import test_drift, text_wants

    rubric = load_rubric_bytes(b"rules:\n  - {id: TESTS, kind: test_drift}\n", "r.yml")
    found = listing([PullFile(PATH, "modified", 0, 4, 4, None, True)], expected=1)
    base = {PATH: TEST, "kit/kit.go": CODE, **others}
    head = {**base, PATH: _without("expectedSize")}
    folders = {"": [("kit", "dir")], "kit": [(p.rpartition("/")[2], "file") for p in base]}

    def read_file(ref: str, path: str) -> bytes | None:
        text = (head if ref == "head" else base).get(path)
        return None if text is None else text.encode()

    changes = changes_from_api(
        found,
        base="base",
        head="head",
        content_files=text_wants(rubric.rules),
        read_file=read_file,
        merge_base="fork",
        list_folder=lambda ref, path: folders.get(path),
    )
    result = test_drift.check(rubric.rules[0], changes)
    assert result.passed is passed, result.message
    assert passed or "expectedSize removed" in result.message, result.message


@pytest.mark.parametrize("source", ["git", "patch"])
@pytest.mark.parametrize(("reader", "passed"), [(None, True), ("a code file", False)])
def test_each_git_builder_reads_the_package_files(
    source: Literal["git", "patch"], reader: str | None, passed: bool
) -> None:
    """`gate check` on two commits and `gate check --patch` read the same."""
    base = {PATH: TEST, "kit/kit.go": CODE}
    if reader is not None:
        base.update([READERS[reader]])
    change = Files(base=base, head={**base, PATH: _without("expectedSize")})
    result = DRIFT.check(change, source=source)
    assert result.passed is passed, result.message


def test_a_go_file_other_packages_may_import_keeps_its_removals() -> None:
    """A Go file that is not a `_test.go` file may be imported by other
    packages: what it removed is never dead, though a `_test.go` file
    beside it is modified and every file of the folder is read (the rule
    judges such a file whole before: this is `dead` itself)."""
    from gate.drift.go.unread import dead

    helper = "package kit\n\nvar Sizes = []int{1}\n\nconst helperSize int64 = 734\n"
    base = {"test/helpers.go": helper, "test/kit_test.go": TEST}
    head = {
        "test/helpers.go": "package kit\n\nvar Sizes = []int{1}\n",
        "test/kit_test.go": _without("parseID"),
    }
    changes = DRIFT.change(Files(base=base, head=head))
    assert dead(changes, "test/kit_test.go", TEST, {"var parseID"}) == {"parseID"}
    assert dead(changes, "test/helpers.go", helper, {"const helperSize"}) == frozenset()
