"""A Go test file's build constraints: one unit that changes only when the
builds the file is part of change (`gate.drift.go.constraints`)."""

from __future__ import annotations

import random

import pytest

from gate.drift import COLLECTION, compare
from gate.drift.go import units
from gate.drift.go.constraints import MAX_TAGS, meaning

TEST = 'package kit\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n'
TAGS = ["linux", "darwin", "windows", "amd64", "arm64", "cgo", "go1.13", "integration"]


def _file(*lines: str, blank: bool = True) -> str:
    return "\n".join(lines) + ("\n\n" if blank else "\n") + TEST


def _drift_ok(base: str, head: str) -> bool:
    return compare(units(base), units(head)).ok


# `// +build` options and the `//go:build` line gofmt writes for them
GOFMT = [
    (["// +build linux darwin"], "linux || darwin"),
    (["// +build linux,amd64"], "linux && amd64"),
    (["// +build !windows"], "!windows"),
    (["// +build linux", "// +build amd64"], "linux && amd64"),
    (["// +build linux,!cgo darwin"], "(linux && !cgo) || darwin"),
    (["// +build !go1.13"], "!go1.13"),
    (["// +build integration"], "integration"),
    (["//+build linux"], "linux"),
]


def _random_plus(rng: random.Random) -> list[str]:
    """1 or 2 `// +build` lines of 1 to 3 options of 1 to 3 terms."""
    lines = []
    for _ in range(rng.randint(1, 2)):
        options = []
        for _ in range(rng.randint(1, 3)):
            terms = [("!" if rng.random() < 0.3 else "") + rng.choice(TAGS) for _ in range(3)]
            options.append(",".join(terms[: rng.randint(1, 3)]))
        lines.append("// +build " + " ".join(options))
    return lines


def _go_of(lines: list[str]) -> str:
    """The `//go:build` expression of `// +build` lines (a conversion of
    its own: each line's options as `||` of `&&`, the lines as `&&`)."""
    conj = []
    for line in lines:
        options = line.split("+build", 1)[1].split()
        ors = ["(" + " && ".join(o.split(",")) + ")" for o in options]
        conj.append("(" + " || ".join(ors) + ")")
    return " && ".join(conj)


GENERATED = [_random_plus(random.Random(seed)) for seed in range(40)]


@pytest.mark.parametrize(("plus", "expr"), GOFMT + [(p, _go_of(p)) for p in GENERATED])
def test_gofmts_go_build_line_above_the_same_plus_build_lines_changes_nothing(
    plus: list[str], expr: str
) -> None:
    base = _file(*plus)
    head = _file(f"//go:build {expr}", *plus)
    assert _drift_ok(base, head)
    # the whole header is one unit, collection-time code
    found = [u for u in units(head) if u.key == "directive build constraint"]
    assert [u.role for u in found] == [COLLECTION]


def _bent(expr: str, rng: random.Random) -> str:
    """`expr` with one operator flipped or one negation toggled."""
    choices = [i for i, c in enumerate(expr) if c in "|&!"]
    i = rng.choice(choices)
    if expr[i] == "!":
        return expr[:i] + expr[i + 1 :]
    if expr[i : i + 2] in ("||", "&&"):
        return expr[:i] + ("&&" if expr[i] == "|" else "||") + expr[i + 2 :]
    return expr[: i - 1] + ("&&" if expr[i] == "|" else "||") + expr[i + 1 :]


@pytest.mark.parametrize("plus", GENERATED)
def test_a_go_build_line_that_selects_other_builds_is_a_change(plus: list[str]) -> None:
    """A bent expression changes the test unless it happens to mean the
    same (checked against a truth table of its own here)."""
    rng = random.Random(str(plus))
    expr = _bent(_go_of(plus), rng)
    base, head = _file(*plus), _file(f"//go:build {expr}", *plus)
    same = meaning([f"//go:build {_go_of(plus)}", *plus]) == meaning([f"//go:build {expr}", *plus])
    assert _drift_ok(base, head) == same


HOSTILE = {
    "another tag": (_file("// +build linux"), _file("//go:build darwin", "// +build linux")),
    "ignore added": (TEST, _file("//go:build ignore")),
    "go:build alone added": (TEST, _file("//go:build linux")),
    # without a blank line after it, `// +build` is a package comment: Go reads none
    "a +build Go did not read": (
        _file("// +build linux", blank=False),
        _file("//go:build linux", "// +build linux"),
    ),
    "a go:build line Go does not read": (
        _file("// +build linux"),
        "// +build linux\n\n//go:build linux\n" + TEST,
    ),
    "two go:build lines": (
        _file("// +build linux"),
        _file("//go:build linux", "//go:build linux", "// +build linux"),
    ),
    "a block comment in the header": (
        "/* x */\n" + _file("// +build linux"),
        "/* x */\n" + _file("//go:build linux", "// +build linux"),
    ),
    "+build lines removed": (
        _file("//go:build linux", "// +build linux"),
        _file("//go:build linux"),
    ),
    "a +build option added": (
        _file("//go:build linux", "// +build linux"),
        _file("//go:build linux", "// +build linux darwin"),
    ),
    "not the +build syntax": (
        _file("// +build linux"),
        _file("//go:build linux", "// +build linux&&x"),
    ),
    "not the go:build syntax": (
        _file("// +build linux"),
        _file("//go:build linux,", "// +build linux"),
    ),
    "an empty +build line": (_file("// +build"), _file("//go:build linux", "// +build")),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_constraint_that_changes_the_builds_or_that_go_reads_otherwise_fails(name: str) -> None:
    base, head = HOSTILE[name]
    assert not _drift_ok(base, head), name


def test_too_many_tags_are_not_read() -> None:
    many = " ".join(f"t{i}" for i in range(MAX_TAGS + 1))
    assert meaning([f"// +build {many}"]) is None
    assert meaning([f"// +build {many.rsplit(' ', 1)[0]}"]) is not None
    # unread, each line stays a directive of its own: the added line is new
    assert not _drift_ok(
        _file(f"// +build {many}"), _file(f"//go:build {many.replace(' ', ' || ')}")
    )


def test_the_meaning_reads_both_go_versions() -> None:
    """Go 1.17 on reads the `//go:build` line, earlier versions the `+build` lines."""
    assert meaning(["//go:build linux"]) != meaning(["//go:build linux", "// +build linux"])
    assert meaning(["// +build linux"]) == meaning(["//go:build linux", "// +build linux"])
    assert meaning(["//go:build linux", "// +build darwin"]) != meaning(["// +build linux"])
    assert meaning(["//go:build (linux)"]) == meaning(["//go:build linux"])
    assert meaning(["//go:build !!linux"]) == meaning(["//go:build linux"])
    assert meaning(["//go:build linux ||"]) is None
    assert meaning(["//go:build (linux"]) is None
    assert meaning(["// +build linux,"]) is None
