"""gate.drift.go.cases through `compare`: a Go test that only gained
new cases (table rows it ranges over, subtests, assertions) is not
changed, and comments and layout change no Go unit; each shape beside
its hostile twin, the same insertion written to bend what the test
checked before, which stays a change (statements appended after the
test's last one are tests/drift/go/test_go_appended.py's)."""

from __future__ import annotations

import pytest

from gate.drift import compare, grown
from gate.drift._treesitter import parse
from gate.drift.go import units
from gate.drift.go.cases import output_group
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

PACKAGE = 'package kit\n\nimport "fmt"\n\n'

BASE = """\
package kit

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClamp(t *testing.T) {
	tests := []struct {
		name string
		in   int
	}{
		{name: "low", in: -1}, // below
		{name: "high", in: 11},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, 0, Clamp(tc.in)%10)
		})
	}
	got := Clamp(3)
	assert.Equal(t, 3, got)
	require.NotEmpty(t, os.Args)
}

func TestMapped(t *testing.T) {
	for name, in := range map[string]int{
		"a": 1,
	} {
		t.Run(name, func(t *testing.T) { assert.Positive(t, in) })
	}
}

// Example output is what go test compares.
func ExampleClamp() {
	fmt.Println(Clamp(3))
	// Output: 3
}
"""

ROW = '\t\t{name: "high", in: 11},\n'
AFTER_GOT = "\tgot := Clamp(3)\n"
LAST = "\trequire.NotEmpty(t, os.Args)\n"


def _edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text
    return text.replace(old, new, 1)


# Head versions that only add cases to TestClamp (or TestMapped).
GROWN = {
    "a row appended": _edit(ROW, ROW + '\t\t{name: "edge", in: 10},\n'),
    "a row in front": _edit('\t\t{name: "low"', '\t\t{name: "zero", in: 0},\n\t\t{name: "low"'),
    "two rows in the middle": _edit(
        ROW, '\t\t{name: "a", in: 1},\n\t\t{name: "b", in: 2},\n' + ROW
    ),
    "a row without a trailing comma": _edit(
        '{name: "high", in: 11},\n\t}', '{name: "high", in: 11},\n\t\t{name: "x", in: 4}}'
    ),
    "a key in a map ranged over directly": _edit('\t\t"a": 1,\n', '\t\t"a": 1,\n\t\t"b": 2,\n'),
    "an assertion appended": _edit(LAST, LAST + '\tassert.True(t, strings.HasPrefix("ab", "a"))\n'),
    "an assertion before an existing one": _edit(
        AFTER_GOT, AFTER_GOT + "\tassert.NotZero(t, got)\n\trequire.Less(t, got, 10)\n"
    ),
    "an if holding t.Errorf": _edit(
        LAST, LAST + '\tif got != 3 {\n\t\tt.Errorf("got %d", got)\n\t}\n'
    ),
    "an assertion inside an existing subtest": _edit(
        "\t\t\tassert.Equal(t, 0, Clamp(tc.in)%10)\n",
        "\t\t\tassert.Equal(t, 0, Clamp(tc.in)%10)\n\t\t\tassert.LessOrEqual(t, len(tc.name), 4)\n",
    ),
    "a subtest appended": _edit(
        LAST,
        LAST + '\tt.Run("mid", func(t *testing.T) {\n\t\tv := Clamp(5)\n'
        '\t\trequire.Equal(t, 5, v)\n\t\tt.Setenv("X", "1")\n\t})\n',
    ),
    "a subtest between statements reading a variable": _edit(
        AFTER_GOT,
        AFTER_GOT + '\tt.Run("copy", func(t *testing.T) { assert.Equal(t, 3, got) })\n',
    ),
}

# The same insertions written to bend a test: each is a change.
BENT = {
    "t.Skip before the assertions": _edit(AFTER_GOT, "\tt.Skip()\n" + AFTER_GOT),
    "t.Parallel": _edit(AFTER_GOT, "\tt.Parallel()\n" + AFTER_GOT),
    "an early return": _edit(AFTER_GOT, "\treturn\n" + AFTER_GOT),
    "an if that returns": _edit(
        AFTER_GOT, "\tif len(os.Args) > 0 {\n\t\treturn\n\t}\n" + AFTER_GOT
    ),
    "a new declaration": _edit(LAST, "\tgot = 4\n" + LAST),
    "a rebinding before the assertion": _edit(AFTER_GOT, AFTER_GOT + "\tgot = 3\n"),
    "an assertion whose argument takes an address": _edit(
        AFTER_GOT, AFTER_GOT + "\tassert.True(t, bump(&got))\n"
    ),
    "an assertion calling a method on a variable": _edit(
        AFTER_GOT, AFTER_GOT + "\tassert.NotEmpty(t, got.String())\n"
    ),
    "an assertion handing a variable to a helper": _edit(
        AFTER_GOT, AFTER_GOT + "\tassert.NotEmpty(t, render(got))\n"
    ),
    "an assertion whose argument has an effect": _edit(
        AFTER_GOT, AFTER_GOT + '\trequire.NoError(t, os.Setenv("MODE", "x"))\n'
    ),
    "an assertion calling a helper of the file": _edit(
        AFTER_GOT, AFTER_GOT + "\tassert.True(t, reset())\n"
    ),
    "an if whose body returns too": _edit(
        LAST, '\tif got != 3 {\n\t\tt.Errorf("x")\n\t\treturn\n\t}\n' + LAST
    ),
    "a subtest storing into a variable the test reads after": _edit(
        AFTER_GOT, AFTER_GOT + '\tt.Run("x", func(t *testing.T) { got = 3 })\n'
    ),
    "a subtest handing a variable to a call": _edit(
        AFTER_GOT, AFTER_GOT + '\tt.Run("x", func(t *testing.T) { fill(got) })\n'
    ),
    "a subtest setting the environment": _edit(
        LAST, LAST + '\tt.Run("x", func(t *testing.T) { os.Setenv("MODE", "x") })\n'
    ),
    "a row in a table also indexed": _edit(ROW, ROW + '\t\t{name: "x", in: 4},\n').replace(
        "\tgot := Clamp(3)\n", "\tgot := Clamp(tests[0].in)\n"
    ),
    "a row in a table whose loop returns": _edit(ROW, ROW + '\t\t{name: "x", in: 4},\n'),
    "a row in a table whose loop skips": _edit(ROW, ROW + '\t\t{name: "x", in: 4},\n'),
    "a row in a table whose loop counts": _edit(ROW, ROW + '\t\t{name: "x", in: 4},\n'),
    "a row calling a method of a local": _edit(ROW, ROW + '\t\t{name: "x", in: got.Reset()},\n'),
    "a row changed beside a row added": _edit(
        ROW, '\t\t{name: "high", in: 12},\n\t\t{name: "x", in: 4},\n'
    ),
    "an Example's output comment": _edit("// Output: 3", "// Output: 4"),
}
# The loop bodies that make an inserted row a change (`BENT` rows above).
LOOPS = {
    "a row in a table whose loop returns": "\t\tif tc.in > 10 {\n\t\t\treturn\n\t\t}\n",
    "a row in a table whose loop skips": "\t\tif tc.in > 10 {\n\t\t\tt.Skip()\n\t\t}\n",
    "a row in a table whose loop counts": "\t\tseen++\n",
}
LOOP = "\tfor _, tc := range tests {\n"


def _with_loop(name: str, text: str) -> str:
    """`text` with the loop body of `LOOPS[name]` (both sides get it)."""
    body = LOOPS.get(name)
    if body is None:
        return text
    text = text.replace(LOOP, "\tseen := 0\n" + LOOP + body if "seen" in body else LOOP + body)
    return text.replace(LAST, LAST + "\tassert.Equal(t, 2, seen)\n") if "seen" in body else text


def _base_for(name: str) -> str:
    base = _with_loop(name, BASE)
    if name == "a row in a table also indexed":
        base = base.replace("\tgot := Clamp(3)\n", "\tgot := Clamp(tests[0].in)\n")
    return base


@pytest.mark.parametrize("name", sorted(GROWN))
def test_a_test_that_only_gained_cases_is_not_changed(name: str) -> None:
    drift = compare(units(BASE), units(GROWN[name]))
    assert drift.ok, drift.summary()
    assert len(drift.grew) == 1
    assert "new cases added to Test" in drift.summary()


@pytest.mark.parametrize("name", sorted(BENT))
def test_the_same_insertion_bending_a_test_is_a_change(name: str) -> None:
    base = _base_for(name)
    head = _with_loop(name, BENT[name])
    assert base != head
    drift = compare(units(base), units(head))
    assert not drift.ok
    assert drift.changed and not drift.grew


@pytest.mark.parametrize(
    "head",
    [
        _edit("// below", "// under the range"),
        _edit("// below", ""),
        _edit("// Example output is what go test compares.\n", ""),
        _edit("\tgot := Clamp(3)\n", "\tgot := Clamp(3);\n\n"),
        _edit('{name: "low", in: -1}, // below', '{name: "low",   in: -1},'),
        _edit(
            "\tassert.Equal(t, 3, got)\n", "\t// checked below\n\tassert.Equal(t, 3, got) /* x */\n"
        ),
    ],
)
def test_comments_and_layout_change_no_go_test(head: str) -> None:
    drift = compare(units(BASE), units(head))
    assert drift.ok and not drift.grew, drift.summary()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("// Output: 3", "// Output: 4"),  # go test compares it
        ("// Output: 3", "// Unordered output: 3"),
        ("\tgot := Clamp(3)\n", "\t//line other.go:10\n\tgot := Clamp(3)\n"),
        ("\tgot := Clamp(3)\n", "\tgot := Clamp(4)\n"),
        ('"low"', '"Low"'),
    ],
)
def test_directives_output_comments_and_code_still_change_a_test(old: str, new: str) -> None:
    drift = compare(units(BASE), units(_edit(old, new)))
    assert not drift.ok


EXAMPLE = "func ExampleClamp() {\n\tfmt.Println(Clamp(3))\n\t// Output: 3\n}\n"
# An Example's other comments, as a sweep over doc links rewrites them
EXAMPLE_NOTES = (
    "func ExampleClamp() {\n\t// See https://pkg.go.dev/x/v1#Clamp\n"
    "\tfmt.Println(Clamp(3))\n\t// Output: 3\n}\n"
)


@pytest.mark.parametrize(
    "head",
    [
        EXAMPLE_NOTES.replace("x/v1", "x/v2"),
        EXAMPLE_NOTES.replace("\t// See https://pkg.go.dev/x/v1#Clamp\n", ""),
        EXAMPLE_NOTES.replace("#Clamp\n", "#Clamp\n\t/* and more */\n"),
        EXAMPLE_NOTES.replace("\tfmt.Println", "\tfmt.Println(1) // one\n\tfmt.Println", 1).replace(
            "(1) // one\n\tfmt.Println", "(1) // two\n\tfmt.Println"
        ),
        # an example with no output comment: its comments are comments
        "func ExampleClamp() {\n\t// See x/v2\n\tfmt.Println(Clamp(3))\n}\n",
        # a comment in a closure before the output
        EXAMPLE_NOTES.replace("\tfmt.Println", "\tfunc() {\n\t\t// inner\n\t}()\n\tfmt.Println"),
    ],
)
def test_an_examples_comments_before_its_output_group_are_comments(head: str) -> None:
    base = (
        EXAMPLE_NOTES.replace("\tfmt.Println", "\tfmt.Println(1) // one\n\tfmt.Println", 1)
        if "// two" in head
        else EXAMPLE_NOTES
    )
    if "// inner" in head:
        base = head.replace("// inner", "// outer")
    if "Output" not in head:
        base = head.replace("x/v2", "x/v1")
    drift = compare(units(PACKAGE + base), units(PACKAGE + head))
    assert drift.ok and not drift.grew, drift.summary()


@pytest.mark.parametrize(
    "head",
    [
        EXAMPLE.replace("// Output: 3", "// Output: 4"),
        EXAMPLE.replace("// Output: 3", "// output: 3"),
        EXAMPLE.replace("// Output: 3", "// Output: 3\n\t// 4"),  # the group's text grows
        EXAMPLE.replace("// Output: 3", "// Output: 3\n\n\t// done"),  # a new last group
        EXAMPLE.replace("// Output: 3", "// Output: 3 /* 4 */"),
        EXAMPLE.replace("// Output: 3", "// Output: 3\n\tfunc() {\n\t\t// Output: 4\n\t}()"),
        EXAMPLE.replace("\t// Output: 3\n", ""),  # no output: the example is compiled only
        EXAMPLE.replace("// Output: 3", "// Output: 3\n\n\t// the end"),  # output no more
        EXAMPLE.replace("// Output: 3", "// OUTPUT:\n\t// 3"),
        EXAMPLE.replace("\t// Output: 3\n", "\t// Output: 3\n\n\t/*\n\tOutput: 4\n\t*/\n"),
    ],
)
def test_an_examples_last_comment_group_is_what_it_checks(head: str) -> None:
    """go/doc reads the body's last comment group as the output: a change
    in it, or a new group after it, is a change of the test."""
    drift = compare(units(PACKAGE + EXAMPLE), units(PACKAGE + head))
    assert not drift.ok, head


def test_the_output_group_is_the_bodys_last_run_of_comments() -> None:
    text = PACKAGE + (
        "func ExampleX() {\n\t// a\n\n\t// b\n\t/* c */\n\tx() // d\n\t// e\n\t// Output: f\n}\n"
    )
    source = parse(text, "go")
    function = next(n for n in source.root.children if n.type == "function_declaration")
    kept = sorted(source.span(o, o + 4).strip() for o in output_group(function, source))
    assert kept == ["// O", "// e"]
    # a last group that says no output: nothing is checked, nothing kept
    quiet = parse(text.replace("Output: f", "f"), "go")
    function = next(n for n in quiet.root.children if n.type == "function_declaration")
    assert output_group(function, quiet) == frozenset()


def test_a_second_loop_over_the_table_makes_rows_a_change() -> None:
    """Rows are new cases only where the table is read by the one range."""
    extra = "\tfor i := range tests {\n\t\t_ = i\n\t}\n"
    base = _edit(LAST, LAST + extra)
    head = _edit(ROW, ROW + '\t\t{name: "x", in: 4},\n', base)
    assert not compare(units(base), units(head)).ok


def test_a_test_that_stores_outside_itself_never_grows() -> None:
    """A test whose head body shares state is collection-time code: the
    subtest below is well formed, but the test stores into the package."""
    head = _edit(LAST, LAST + '\tt.Run("x", func(t *testing.T) { limit = 0 })\n')
    base_units, head_units = units(BASE), units(head)
    drift = compare(base_units, head_units)
    assert not drift.ok
    old = next(u for u in base_units if u.key == "func TestClamp")
    new = next(u for u in head_units if u.key == "func TestClamp")
    assert not grown(old, new)


def test_repeated_rows_still_align() -> None:
    """An appended row identical to an existing one is one more case."""
    head = _edit(ROW, ROW + ROW + ROW)
    assert compare(units(BASE), units(head)).grew == ("TestClamp",)


def test_the_rule_passes_a_grown_go_test_and_names_it(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: rows appended pass, with the count
    in the message; the bent twin (a `t.Skip()` inserted) fails."""
    rubric_repo.write_many({"kit/kit_test.go": BASE})
    base = rubric_repo.commit("base")
    rubric_repo.write("kit/kit_test.go", GROWN["a row appended"])
    grew = rubric_repo.commit("a row")
    rubric_repo.write("kit/kit_test.go", BENT["t.Skip before the assertions"])
    bent = rubric_repo.commit("skipped")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (grew, bent)
    )
    assert code == 0 and "new cases added to 1 existing test" in result["message"], result
    assert bent_code == 1 and "TestClamp changed" in bent_result["message"], bent_result
