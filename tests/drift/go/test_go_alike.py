"""Go edits that leave what a test checks as it was: a blank `_` added to
the left side of an assignment whose right side is unchanged (a call
gained a result the test discards: `x, err :=` -> `x, _, err :=`), and
`interface{}` spelled as its predeclared alias `any`.  Each shape beside
its hostile twins, the same edit written to change what a test checks
(a checked variable blanked, a `_` moved, a `_` beside another change,
an `any` the file declares itself), which stays a change."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import compare
from gate.drift.go import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = """\
package kit

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEdit(t *testing.T) {
	out, err := apply("a", 1)
	require.NoError(t, err)
	require.Equal(t, "A", out)

	_, err = apply("b", 2)
	require.Error(t, err)

	n := count("x")
	require.Equal(t, 1, n)

	var v interface{} = out
	seen := map[string]interface{}{"k": v}
	require.Len(t, seen, 1)
	k := seen["k"]
	s := v.(string)
	require.Equal(t, k, s)
	require.Equal(t, []interface{}{1}, wrap(func(x interface{}) interface{} { return x }))
}

func helper(t *testing.T) string {
	s, err := apply("c", 3)
	require.NoError(t, err)
	return s
}
"""


def _edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _left(names: tuple[str, ...], op: str, right: str) -> str:
    return f"\t{', '.join(names)} {op} {right}\n"


# The assignments of BASE whose left side may gain a `_`: (left side, operator, right side).
SITES = {
    "a short declaration": (("out", "err"), ":=", 'apply("a", 1)'),
    "an assignment with a blank": (("_", "err"), "=", 'apply("b", 2)'),
    "a single name": (("n",), ":=", 'count("x")'),
}


def _inserted(names: tuple[str, ...]) -> list[tuple[str, ...]]:
    """`names` with one or two `_` inserted, at every place."""
    out: list[tuple[str, ...]] = []
    for at in range(len(names) + 1):
        once = (*names[:at], "_", *names[at:])
        out.append(once)
        out += [(*once[:at2], "_", *once[at2:]) for at2 in range(at, len(once) + 1)]
    return list(dict.fromkeys(out))


BLANKED = {
    f"{site}: {', '.join(head)}": _edit(_left(names, op, right), _left(head, op, right))
    for site, (names, op, right) in SITES.items()
    for head in _inserted(names)
}
BLANKED["every site at once"] = _edit(
    _left(("out", "err"), ":=", 'apply("a", 1)'), _left(("out", "_", "err"), ":=", 'apply("a", 1)')
).replace("\t_, err = apply", "\t_, _, err = apply")
BLANKED["a map index made comma-ok"] = _edit('\tk := seen["k"]', '\tk, _ := seen["k"]')
BLANKED["in a helper"] = _edit("\ts, err := apply", "\ts, _, err := apply")
BLANKED["with interface{} spelled any"] = _edit(
    "\tout, err :=", "\tout, _, err :=", _edit("var v interface{}", "var v any")
)


@pytest.mark.parametrize("name", sorted(BLANKED))
def test_a_blank_added_to_an_assignment_changes_no_test(name: str) -> None:
    drift = compare(units(BASE), units(BLANKED[name]))
    assert drift.ok and not drift.grew, drift.summary()


def _rearranged(names: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Left sides made of `names` and blanks that are not `names` with
    blanks inserted: a name blanked, dropped, or moved to another place."""
    out = []
    for size in (len(names), len(names) + 1):
        for head in itertools.product((*dict.fromkeys(names), "_"), repeat=size):
            kept = iter(head)
            if not all(n in kept for n in names):  # not a supersequence of `names`
                out.append(head)
    return out


BENT = {
    f"{site}: {', '.join(head)}": (names, op, right, head)
    for site, (names, op, right) in SITES.items()
    for head in _rearranged(names)
}
# A base with a blank already in the list: the `_` moved is another result discarded.
MOVED = {
    "x, _, err -> _, x, err": (("out", "_", "err"), ("_", "out", "err")),
    "x, _, err -> x, err, _": (("out", "_", "err"), ("out", "err", "_")),
    "_, x -> x, _": (("_", "out"), ("out", "_")),
}
# A `_` added beside another change of the same test.
BESIDE = {
    "the right side changed": _edit(
        '\tout, err := apply("a", 1)', '\tout, _, err := apply("a", 2)'
    ),
    "an expected value changed": _edit("\tout, err :=", "\tout, _, err :=").replace(
        '"A", out)', '"B", out)'
    ),
    "an assertion added": _edit("\tout, err :=", "\tout, _, err :=").replace(
        "\trequire.NoError(t, err)\n", "\trequire.NoError(t, err)\n\trequire.NotEmpty(t, out)\n", 1
    ),
    "an assertion dropped": _edit("\tout, err :=", "\tout, _, err :=").replace(
        "\trequire.NoError(t, err)\n", "", 1
    ),
    "an error once checked discarded with _ =": _edit(
        '\t_, err = apply("b", 2)\n\trequire.Error(t, err)\n', '\t_, _ = apply("b", 2)\n'
    ),
    "a call once assigned now discarded whole": _edit('\tn := count("x")', '\t_ = count("x")'),
    "a type assertion made comma-ok (it no longer panics)": _edit(
        "\ts := v.(string)", "\ts, _ := v.(string)"
    ),
    "a blank in a range clause": _edit(
        "\trequire.Len(t, seen, 1)\n",
        "\tfor k := range seen {\n\t\t_ = k\n\t}\n\trequire.Len(t, seen, 1)\n",
    ),
}


@pytest.mark.parametrize("name", sorted(BENT))
def test_a_checked_name_blanked_or_moved_is_a_change(name: str) -> None:
    names, op, right, head = BENT[name]
    text = _edit(_left(names, op, right), _left(head, op, right))
    assert not compare(units(BASE), units(text)).ok


@pytest.mark.parametrize("name", sorted(MOVED))
def test_a_blank_moved_is_a_change(name: str) -> None:
    before, after = MOVED[name]
    old = _left(("out", "err"), ":=", 'apply("a", 1)')
    base = _edit(old, _left(before, ":=", 'apply("a", 1)'))
    head = _edit(old, _left(after, ":=", 'apply("a", 1)'))
    drift = compare(units(base), units(head))
    assert not drift.ok and drift.changed == ("TestEdit",), drift.summary()


@pytest.mark.parametrize("name", sorted(BESIDE))
def test_a_blank_beside_another_change_is_a_change(name: str) -> None:
    drift = compare(units(BASE), units(BESIDE[name]))
    assert not drift.ok and not drift.grew, drift.summary()


def test_a_parenthesized_type_assertion_made_comma_ok_is_a_change() -> None:
    base = _edit("\ts := v.(string)", "\ts := (v.(string))")
    head = _edit("\ts := v.(string)", "\ts, _ := (v.(string))")
    assert not compare(units(base), units(head)).ok


def test_a_blank_in_a_range_clause_is_a_change() -> None:
    """Only an assignment's left side may gain one: `for k := range` ->
    `for k, _ := range` is not read as one (the gate keeps it a change)."""
    base = _edit("\trequire.Len(t, seen, 1)\n", "\tfor k := range seen {\n\t\t_ = k\n\t}\n")
    head = base.replace("for k := range", "for k, _ := range")
    assert not compare(units(base), units(head)).ok


# `interface{}` spelled `any`: each place a type is written.
ANY = {
    "a var's type": ("var v interface{}", "var v any"),
    "a map's value type": ("map[string]interface{}{", "map[string]any{"),
    "a slice literal's type": ("[]interface{}{1}", "[]any{1}"),
    "a parameter and a result": (
        "func(x interface{}) interface{}",
        "func(x any) any",
    ),
    "with a space inside": ("var v interface{}", "var v interface{ }"),
    "back from any": None,
}


def _any_head(name: str, base: str = BASE) -> str:
    spec = ANY[name]
    if spec is None:
        return base.replace("interface{}", "any")
    return _edit(*spec, text=base)


@pytest.mark.parametrize("name", sorted(ANY))
def test_interface_spelled_any_changes_no_test(name: str) -> None:
    base = BASE
    head = _any_head(name)
    if ANY[name] is None:  # `any` at base, `interface{}` at head
        base, head = head, base
    drift = compare(units(base), units(head))
    assert drift.ok and not drift.grew, drift.summary()


# Files that declare an `any` of their own (both sides), where `any` is not `interface{}`.
OWN_ANY = {
    "a type any": "\ntype any int\n",
    "an alias any": "\ntype any = string\n",
    "a function any": "\nfunc any() int { return 1 }\n",
    "a var any": "\nvar any = 3\n",
    "a const any": "\nconst any = 3\n",
    "a local any in another function": "\nfunc other() {\n\tany := 1\n\t_ = any\n}\n",
    "a parameter any": "\nfunc other(any int) int { return any }\n",
    "a type parameter any": "\nfunc other[any comparable](x any) any { return x }\n",
    "an import named any": '\nimport any "strings"\n\nvar _ = any.ToUpper\n',
}


@pytest.mark.parametrize("name", sorted(OWN_ANY))
def test_interface_spelled_any_is_a_change_where_the_file_declares_any(name: str) -> None:
    base = BASE + OWN_ANY[name]
    head = _any_head("a var's type", base)
    drift = compare(units(base), units(head))
    assert not drift.ok and drift.changed == ("TestEdit",), drift.summary()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("var v interface{}", "var v interface{ String() string }"),
        ("var v interface{}", "var v anything"),
        ("var v interface{} = out", "var v any = out\n\tv = nil"),
        ('map[string]interface{}{"k": v}', 'map[string]any{"k": 1}'),
    ],
)
def test_any_beside_another_change_or_a_method_set_is_a_change(old: str, new: str) -> None:
    assert not compare(units(BASE), units(_edit(old, new))).ok


def test_any_in_a_conversion_still_lets_interface_be_any() -> None:
    """`any(x)` converts to the predeclared alias: it declares nothing."""
    base = BASE + "\nfunc conv(x int) any { return any(x) }\n"
    assert compare(units(base), units(_any_head("a var's type", base))).ok


def test_the_rule_passes_blanks_and_any_and_fails_a_blanked_check(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: every call site gaining a
    discarded result, with `interface{}` spelled `any`, passes; the twin
    that blanks the checked `out` fails."""
    rubric_repo.write_many({"kit/kit_test.go": BASE, "kit/kit.go": "package kit\n"})
    base = rubric_repo.commit("base")
    rubric_repo.write("kit/kit_test.go", BLANKED["with interface{} spelled any"])
    rubric_repo.write("kit/kit.go", "package kit\n\n// apply returns a count too.\n")
    alike = rubric_repo.commit("a result more")
    rubric_repo.write("kit/kit_test.go", _edit("\tout, err :=", "\t_, err :="))
    bent = rubric_repo.commit("out blanked")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (alike, bent)
    )
    assert code == 0 and result["pass"], result
    assert bent_code == 1 and "TestEdit changed" in bent_result["message"], bent_result


@pytest.mark.parametrize("new", ["TestEditRenamed", "Test_edit", "testEdit", "Testedit"])
def test_a_test_renamed_with_the_same_body_is_a_removal(new: str) -> None:
    """A rename is not read as the same test: the body may read what its
    name keys (`t.Name()`: golden files, recorded cassettes, snapshots, so
    a renamed test can check a new file), a `-run` or `-skip` pattern may
    select it by name, and `testEdit` or `Testedit` no longer runs."""
    drift = compare(units(BASE), units(BASE.replace("func TestEdit(", f"func {new}(")))
    assert not drift.ok and drift.removed == ("TestEdit",), drift.summary()
