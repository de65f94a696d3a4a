"""gate.drift.go.appended through `compare`: a Go test whose base
statements all stay and which only gains statements after the last of
them gained checks (`Drift.grew`); each shape beside its hostile twins, the
same append written to bend what the test checked before, which stay a
change.  The table is generated: every test shape with every append."""

from __future__ import annotations

import pytest

from gate.drift import compare
from gate.drift.go import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

HEADER = """\
package kit

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

"""
# Each shape: one test whose body ends where `<END>` stands.
SHAPES = {
    "a testify test": (
        'func TestParse(t *testing.T) {\n\tgot, err := Parse("a")\n'
        '\trequire.NoError(t, err)\n\tassert.Equal(t, "a", got)\n<END>}\n'
    ),
    "a t.Errorf test": (
        'func TestParse(t *testing.T) {\n\tgot, err := Parse("a")\n'
        '\tif err != nil || got != "a" {\n\t\tt.Errorf("got %q, %v", got, err)\n\t}\n<END>}\n'
    ),
    "a parallel test": (
        'func TestParse(t *testing.T) {\n\tt.Parallel()\n\tgot, _ := Parse("a")\n'
        '\tassert.Equal(t, "a", got)\n<END>}\n'
    ),
    "a test ending in a table loop": (
        'func TestParse(t *testing.T) {\n\tfor _, in := range []string{"a", "b"} {\n'
        "\t\tgot, err := Parse(in)\n\t\trequire.NoError(t, err)\n"
        "\t\tassert.Equal(t, in, got)\n\t}\n<END>}\n"
    ),
    "a test with a plain defer": (
        "func TestParse(t *testing.T) {\n"
        "\tctx, cancel := context.WithCancel(context.Background())\n"
        '\tdefer cancel()\n\tgot, err := ParseContext(ctx, "a")\n'
        '\trequire.NoError(t, err)\n\tassert.Equal(t, "a", got)\n<END>}\n'
    ),
}
GAINS = {
    "an assertion calling the code": '\tassert.Equal(t, "b", Must(Parse("b")))\n',
    "a new call and its checks": '\tagain, err := Parse("c")\n\trequire.NoError(t, err)\n'
    '\tassert.Equal(t, "c", again)\n',
    "a call reusing a variable": '\tvar other string\n\tother, _ = Parse("d")\n'
    '\tif other != "d" {\n\t\tt.Fatalf("got %q", other)\n\t}\n',
    "a subtest": '\tt.Run("empty", func(t *testing.T) {\n\t\t_, err := Parse("")\n'
    "\t\trequire.Error(t, err)\n\t})\n",
    "a loop of checks": '\tfor _, in := range []string{"x", "y"} {\n'
    "\t\tassert.Equal(t, in, Must(Parse(in)))\n\t}\n",
    "a skip inside a new subtest": '\tt.Run("slow", func(t *testing.T) {\n'
    '\t\tif testing.Short() {\n\t\t\tt.Skip("short")\n\t\t}\n'
    '\t\tassert.NotEmpty(t, Must(Parse("z")))\n'
    "\t})\n",
}
BENT_APPENDS = {
    "a t.Parallel": '\tt.Parallel()\n\tassert.NotEmpty(t, Must(Parse("b")))\n',
    "a t.Skip": '\tt.Skip("later")\n',
    "a t.SkipNow in an if": "\tif len(os.Args) > 0 {\n\t\tt.SkipNow()\n\t}\n",
    "an os.Exit": "\tos.Exit(0)\n",
    "a runtime.Goexit": "\truntime.Goexit()\n",
    "a goroutine": '\tgo func() { _, _ = Parse("b") }()\n',
    "a goto back": "\tgoto start\n",
    "a write to the environment": '\tos.Setenv("KIT", "1")\n',
    "a write to a package variable": "\tLimit = 0\n",
}
# Base statements that register code run after the body: no append after them.
REGISTERED = {
    "a deferred check": "\tdefer func() { assert.Zero(t, Leaks()) }()\n",
    "a t.Cleanup": "\tt.Cleanup(func() { assert.Zero(t, Leaks()) })\n",
    "a deferred Finish": "\tdefer ctrl.Finish()\n",
    "a gomock controller": "\tctrl := gomock.NewController(t)\n\t_ = ctrl\n",
    "a parallel subtest": '\tt.Run("p", func(t *testing.T) {\n\t\tt.Parallel()\n'
    "\t\tassert.Zero(t, Leaks())\n\t})\n",
    "a goroutine": "\tgo func() { assert.Zero(t, Leaks()) }()\n",
}
PLUS = GAINS["a new call and its checks"]


def _base(shape: str) -> str:
    return HEADER + SHAPES[shape].replace("<END>", "")


def _head(shape: str, gain: str) -> str:
    return HEADER + SHAPES[shape].replace("<END>", gain)


def _last(shape: str) -> str:
    """The base body's last top-level statement, as text."""
    body = SHAPES[shape].split("<END>")[0]
    lines = body.splitlines(keepends=True)
    at = max(i for i, line in enumerate(lines) if line.startswith("\t") and line[1] != "\t")
    if lines[at] == "\t}\n":  # a block: back to its first line
        at = max(i for i in range(at) if lines[i].startswith("\t") and lines[i][1] not in "\t}")
    return "".join(lines[at:])


GROWN = {
    f"{shape}: {gain}": (_base(shape), _head(shape, GAINS[gain]))
    for shape in SHAPES
    for gain in GAINS
}
BENT: dict[str, tuple[str, str]] = {}
for shape in SHAPES:
    base, last = _base(shape), _last(shape)
    for bend, gain in BENT_APPENDS.items():
        BENT[f"{shape}: {bend}"] = (base, _head(shape, gain))
    for registered, code in REGISTERED.items():
        with_it = base.replace(last, code + last)
        BENT[f"{shape}: an append after {registered}"] = (
            with_it,
            with_it.replace(last, last + PLUS),
        )
    BENT[f"{shape}: the last base statement edited beside an append"] = (
        base,
        base.replace(last, last.replace('"a"', '"z"') + PLUS),
    )
    BENT[f"{shape}: an append before the last base statement"] = (
        base,
        base.replace(last, PLUS + last),
    )
    BENT[f"{shape}: the last base statement removed beside an append"] = (
        base,
        base.replace(last, PLUS),
    )
    BENT[f"{shape}: the signature changed beside an append"] = (
        base,
        _head(shape, PLUS).replace("t *testing.T", "t *testing.T, _ ...int", 1),
    )
LOOP_BASE = _base("a test ending in a table loop")
BENT["a break appended inside the base's loop"] = (
    LOOP_BASE,
    LOOP_BASE.replace(
        "\t\tassert.Equal(t, in, got)\n", "\t\tassert.Equal(t, in, got)\n\t\tbreak\n"
    ),
)
BENT["a call appended inside the base's loop"] = (
    LOOP_BASE,
    LOOP_BASE.replace(
        "\t\tassert.Equal(t, in, got)\n",
        "\t\tassert.Equal(t, in, got)\n\t\tReset()\n",
    ),
)
SWAP = "func TestTwo(t *testing.T) {\n\tReset()\n\tassert.Zero(t, Count())\n}\n"
BENT["statements swapped beside an append"] = (
    HEADER + SWAP,
    HEADER
    + "func TestTwo(t *testing.T) {\n\tassert.Zero(t, Count())\n\tReset()\n"
    + "\tassert.Zero(t, Count())\n}\n",
)


@pytest.mark.parametrize("name", sorted(GROWN))
def test_a_go_test_that_only_gained_statements_at_its_end_grew(name: str) -> None:
    base, head = GROWN[name]
    drift = compare(units(base), units(head))
    assert drift.ok, f"{name}: {drift.summary()}"
    assert drift.grew == ("TestParse",), drift.summary()


@pytest.mark.parametrize("name", sorted(BENT))
def test_the_same_append_bending_a_go_test_is_a_change(name: str) -> None:
    base, head = BENT[name]
    assert base != head
    drift = compare(units(base), units(head))
    assert not drift.ok, f"{name}: {drift.summary()}"
    assert not drift.grew, drift.summary()


def test_the_rule_passes_an_appended_go_check_and_fails_its_bent_twin(
    rubric_repo: RubricRepo,
) -> None:
    """End to end on a real repository: a call and its checks appended
    pass with the grown test named; the twin appending `t.Parallel()`
    fails, naming the test as changed."""
    base_text, grown_text = GROWN["a testify test: a new call and its checks"]
    bent_text = BENT["a testify test: a t.Parallel"][1]
    rubric_repo.write_many({"go.mod": "module kit\n\ngo 1.22\n", "kit_test.go": base_text})
    base = rubric_repo.commit("base")
    rubric_repo.write("kit_test.go", grown_text)
    grew = rubric_repo.commit("appended")
    rubric_repo.write("kit_test.go", bent_text)
    bent = rubric_repo.commit("bent")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (grew, bent)
    )
    assert code == 0 and "new cases added to 1 existing test" in result["message"], result
    assert bent_code == 1 and "TestParse changed" in bent_result["message"], bent_result
