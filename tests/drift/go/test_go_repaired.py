"""Go test files tree-sitter-go has to repair: a local named like the
built-in `make` or `new` called with a value (`make(3)`), or Go 1.26's
`new(expr)`, which the grammar reads as the built-in given a type.  A
modified file whose repairs all lie in functions it leaves as they were
is still split into cases (`gate.drift.go.pair`), each statement the
grammar repairs compared by its exact text; each shape beside its
hostile twins: the repaired statement edited (its exact text is
compared), a repair outside a function, a new test in or calling
repaired code."""

from __future__ import annotations

import pytest

from gate.drift import Unparsable, compare
from gate.drift.go import pair, units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

HEADER = """\
package kit

import (
	"testing"
)

"""
OTHER = """
func TestOther(t *testing.T) {
	if Clamp(3) != 3 {
		t.Fatal("clamp")
	}
}
"""

# Functions the grammar repairs, each in its own shape.
REPAIRED = {
    "a local make called with a value": """
func TestLocal(t *testing.T) {
	make := func(n int) []int { return make([]int, n) }
	if len(make(3)) != 3 {
		t.Fatal("x")
	}
}
""",
    "a parameter named make": """
func build(make func(int) []int) []int {
	return make(3)
}
""",
    "a local new called with a composite literal": """
func TestNew(t *testing.T) {
	new := func(v T) *T { return &v }
	if new(T{A: 1}).A != 1 {
		t.Fatal("x")
	}
}
""",
    "Go 1.26 new(expr)": """
func TestPointer(t *testing.T) {
	p := new(int64(300))
	if *p != 300 {
		t.Fatal("x")
	}
}
""",
    "a method with a local make and a negative size": """
func (s *suite) fill(t *testing.T) {
	make := func(n int) int { return n }
	s.n = make(-1)
}
""",
    "a string argument": """
func TestString(t *testing.T) {
	make := func(s string) string { return s }
	if make("a b") != "a b" {
		t.Fatal("x")
	}
}
""",
}


def _file(repaired: str, other: str = OTHER) -> str:
    return HEADER + repaired + other


NEW_TEST = "\nfunc TestAdded(t *testing.T) {\n\tif Clamp(1) != 1 {\n\t\tt.Fatal(1)\n\t}\n}\n"


@pytest.mark.parametrize("name", sorted(REPAIRED))
def test_the_grammar_repairs_each_shape(name: str) -> None:
    with pytest.raises(Unparsable, match="syntax error"):
        units(_file(REPAIRED[name]))


@pytest.mark.parametrize("name", sorted(REPAIRED))
def test_a_new_test_beside_an_unchanged_repaired_function_is_welcome(name: str) -> None:
    base = _file(REPAIRED[name])
    drift = compare(*pair(base, base + NEW_TEST, ".go"))
    assert drift.ok and drift.added == ("TestAdded",), drift.summary()


@pytest.mark.parametrize("name", sorted(REPAIRED))
def test_another_test_edited_beside_a_repaired_function_is_named(name: str) -> None:
    base = _file(REPAIRED[name])
    head = _file(REPAIRED[name], OTHER.replace("Clamp(3) != 3", "Clamp(3) != 4"))
    drift = compare(*pair(base, head, ".go"))
    assert drift.changed == ("TestOther",), drift.summary()


# In each shape, an edit inside the statement the grammar repairs that
# would be layout in a parsed statement (and, for the string, is not).
INSIDE = {
    "a local make called with a value": ("make(3)", "make( 3)"),
    "a parameter named make": ("make(3)", "make( 3)"),
    "a local new called with a composite literal": ("A: 1", "A:  1"),
    "Go 1.26 new(expr)": ("int64(300)", "int64( 300)"),
    "a method with a local make and a negative size": ("make(-1)", "make(- 1)"),
    "a string argument": ('make("a b")', 'make("a  b")'),
}


@pytest.mark.parametrize("name", sorted(REPAIRED))
def test_a_comment_outside_the_repaired_statements_changes_no_test(name: str) -> None:
    """The function's other statements are tokens as ever."""
    base = _file(REPAIRED[name])
    head = _file(REPAIRED[name].replace("{\n", "{\n\t// checked\n", 1))
    drift = compare(*pair(base, head, ".go"))
    assert drift.ok and not drift.grew, drift.summary()


@pytest.mark.parametrize("name", sorted(REPAIRED))
def test_an_edit_of_a_repaired_function_is_a_change(name: str) -> None:
    """A repaired statement is its exact text (a space inside it is a
    change), and a repaired function never gains cases: any other edit
    is a change too."""
    base = _file(REPAIRED[name])
    old, new = INSIDE[name]
    for edited in (REPAIRED[name].replace(old, new), REPAIRED[name][:-2] + "\tt.Log(0)\n}\n"):
        head = _file(edited)
        assert head != base
        drift = compare(*pair(base, head, ".go"))
        assert len(drift.changed) == 1 and not drift.grew, drift.summary()


# Repairs outside a function's statements (its signature): the function is its exact text.
SIGNATURES = {
    "a default value": "\nfunc build(n int = 3) {\n\t_ = n\n}\n",
    "a receiver the grammar repairs": "\nfunc (make(3)) M() {\n\t_ = 1\n}\n",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_a_repair_in_a_signature_keeps_the_function_whole(name: str) -> None:
    base = _file(SIGNATURES[name])
    drift = compare(*pair(base, base + NEW_TEST, ".go"))
    assert drift.ok and drift.added == ("TestAdded",), drift.summary()
    head = _file(SIGNATURES[name].replace("{\n", "{\n\t// checked\n", 1))
    with pytest.raises(Unparsable, match="repairs in a declaration that changed"):
        pair(base, head, ".go")


def test_a_repair_added_to_a_parsed_test_is_a_change() -> None:
    """The base version parses: the head's repaired version of the same
    test is another text, a change."""
    base = _file(
        "\nfunc TestLocal(t *testing.T) {\n\tif len(mk(3)) != 3 {\n\t\tt.Fatal(1)\n\t}\n}\n"
    )
    head = base.replace("\tif len(mk(3))", "\tmake := mk\n\tif len(make(3))")
    drift = compare(*pair(base, head, ".go"))
    assert drift.changed == ("TestLocal",), drift.summary()


@pytest.mark.parametrize("name", sorted(REPAIRED))
def test_a_new_repaired_function_is_refused(name: str) -> None:
    """A new function whose code cannot be read may do anything at load
    or around other tests."""
    base = _file("")
    drift = compare(*pair(base, _file(REPAIRED[name]), ".go"))
    assert not drift.ok and "runs at collection" in drift.summary(), drift.summary()


def test_a_new_test_calling_a_repaired_helper_is_refused() -> None:
    """What the helper stores cannot be read: a new test calling it may
    change what the tests after it see."""
    base = _file(REPAIRED["a parameter named make"])
    head = base + "\nfunc TestBuild(t *testing.T) {\n\t_ = build(nil)\n}\n"
    drift = compare(*pair(base, head, ".go"))
    assert not drift.ok and "new TestBuild runs at collection" in drift.summary(), drift.summary()


def test_the_repaired_function_removed_is_a_change() -> None:
    base = _file(REPAIRED["a local make called with a value"])
    drift = compare(*pair(base, _file(""), ".go"))
    assert drift.removed == ("TestLocal",), drift.summary()


# Package-level declarations the grammar repairs inside themselves (Go 1.26's `new(expr)`).
DECLARATIONS = {
    "a var of a table": "\nvar cases = []struct{ p *int }{{p: new(3)}}\n",
    "a const": "\nconst limit = make(3)\n",
}


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_a_repaired_declaration_is_its_exact_text(name: str) -> None:
    """Unchanged, it lets the file be split; edited, the file is judged
    whole; new, it runs at collection."""
    base = _file(DECLARATIONS[name])
    drift = compare(*pair(base, base + NEW_TEST, ".go"))
    assert drift.ok and drift.added == ("TestAdded",), drift.summary()
    with pytest.raises(Unparsable, match="repairs in a declaration that changed"):
        pair(base, base.replace("(3)", "( 3)"), ".go")
    drift = compare(*pair(_file(""), base, ".go"))
    assert not drift.ok and "runs at collection" in drift.summary(), drift.summary()


@pytest.mark.parametrize(
    "outside",
    [
        "\nvar (\n\ta = new(int64(3))\n\tb = 2\n)\n",  # the repair breaks the group
        '\nimport x "make(3)\n',
        "\ntype T [make(3)]int\n",
        "\nfunc TestBroken(t *testing.T) {\n",  # an unclosed function swallows the rest
        "\n)\n",  # between declarations
    ],
)
def test_a_repair_outside_a_function_cannot_be_split(outside: str) -> None:
    base = _file(REPAIRED["a local make called with a value"]) + outside
    with pytest.raises(Unparsable):
        pair(base, base + NEW_TEST, ".go")


def test_the_rule_splits_a_repaired_file_on_a_real_repository(rubric_repo: RubricRepo) -> None:
    """End to end: a test added beside an unchanged repaired test passes;
    the twin that edits the repaired statement fails naming its test, as
    does an edit of another test."""
    base_text = _file(REPAIRED["a local make called with a value"])
    rubric_repo.write_many({"kit/kit_test.go": base_text})
    base = rubric_repo.commit("base")
    heads = {}
    for label, text in (
        ("added", base_text + NEW_TEST),
        ("repaired edited", base_text.replace("len(make(3)) != 3", "len(make(3)) != 4")),
        ("other edited", base_text.replace('t.Fatal("clamp")', 't.Log("clamp")')),
    ):
        rubric_repo.write("kit/kit_test.go", text)
        heads[label] = rubric_repo.commit(label)
        rubric_repo.git("reset", "-q", "--hard", base)
    results = {
        label: rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict()
        for label, head in heads.items()
    }
    code, result = results["added"]
    assert code == 0 and "1 new test" in result["message"], result
    code, result = results["repaired edited"]
    assert code == 1 and "TestLocal changed" in result["message"], result
    code, result = results["other edited"]
    assert code == 1 and "TestOther changed" in result["message"], result
