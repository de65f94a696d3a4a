"""gate.drift.go.cases' table rows through `compare`: a Go test whose only
change is new elements in the slice or map literal of cases it ranges over
gained cases (`Drift.grew`), rows built by the helpers the existing rows
call with the test's `t` or its locals (`mockResponse(t, ...)`,
`srv.Client()`) included; each table shape beside its hostile twins, which
stay a change.  The table is generated: every table shape with every row."""

from __future__ import annotations

import pytest

from gate.drift import compare
from gate.drift.go import units

HEADER = """\
package kit

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
)

var calls int

func bump() int {
	calls++
	return calls
}

"""
# Each table shape: (declaration opening, row spelling, loop header), with
# `{T}` the element type's fields and `{ROWS}` the rows.
FIELDS = "name string\n\t\tcode int\n\t\th    http.HandlerFunc\n"
SHAPES = {
    "a slice of an anonymous struct": (
        "\ttests := []struct {\n\t\t{T}\t}{\n{ROWS}\t}\n",
        "\t\t{{name: {name}, code: {code}, h: {h}}},\n",
        "\tfor _, tc := range tests {\n",
    ),
    "a slice of a named struct": (
        "\ttype tcase struct {\n\t\t{T}\t}\n\ttests := []tcase{\n{ROWS}\t}\n",
        "\t\t{{name: {name}, code: {code}, h: {h}}},\n",
        "\tfor _, tc := range tests {\n",
    ),
    "a slice of pointers": (
        "\ttype tcase struct {\n\t\t{T}\t}\n\ttests := []*tcase{\n{ROWS}\t}\n",
        "\t\t{{name: {name}, code: {code}, h: {h}}},\n",
        "\tfor _, tc := range tests {\n",
    ),
    "a var of a slice": (
        "\tvar tests = []struct {\n\t\t{T}\t}{\n{ROWS}\t}\n",
        "\t\t{{name: {name}, code: {code}, h: {h}}},\n",
        "\tfor _, tc := range tests {\n",
    ),
    "a map of an anonymous struct": (
        "\ttests := map[string]struct {\n\t\t{T}\t}{\n{ROWS}\t}\n",
        "\t\t{name}: {{name: {name}, code: {code}, h: {h}}},\n",
        "\tfor _, tc := range tests {\n",
    ),
}
BODY = (
    "\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\trec := httptest.NewRecorder()\n"
    '\t\t\ttc.h(rec, httptest.NewRequest("GET", srv.URL, nil))\n'
    "\t\t\tassert.Equal(t, tc.code, rec.Code)\n\t\t})\n\t}\n"
)
PREFIX = (
    "func TestHandle(t *testing.T) {\n"
    "\tsrv := httptest.NewServer(http.NotFoundHandler())\n\tdefer srv.Close()\n"
)
BASE_ROWS = [
    ('"ok"', "200", "mockResponse(t, 200, `{}`)"),
    ('"missing"', "404", "mockResponse(t, 404, srv.URL)"),
]
# Rows a head may add: each a new case.
NEW_ROWS = {
    "a row built by the helper the rows call": ('"teapot"', "418", "mockResponse(t, 418, `{}`)"),
    "a row handing a local to that helper": ('"gone"', "410", "mockResponse(t, 410, srv.URL)"),
    "a row of a function literal": (
        '"inline"',
        "204",
        "func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) }",
    ),
}
# Rows that bend the test: each stays a change.
BENT_ROWS = {
    "a row handing t to a helper no base row calls": ('"skip"', "200", "skipper(t)"),
    "a row calling a method of a local the base never calls": (
        '"close"',
        "200",
        "mockResponse(t, 200, srv.Config.Close())",
    ),
    "a row calling a helper that writes a package variable": (
        '"count"',
        "200",
        "mockResponse(t, bump(), `{}`)",
    ),
    "a row setting the environment": (
        '"env"',
        "200",
        'mockResponse(t, 200, os.Setenv("KIT", "1"))',
    ),
}


def _row(shape: str, row: tuple[str, str, str]) -> str:
    name, code, h = row
    return SHAPES[shape][1].format(name=name, code=code, h=h)


def _test(
    shape: str,
    rows: list[tuple[str, str, str]],
    fields: str = FIELDS,
    body: str = BODY,
    after: str = "",
) -> str:
    opening, _, loop = SHAPES[shape]
    table = opening.replace("{T}", fields).replace("{ROWS}", "".join(_row(shape, r) for r in rows))
    return HEADER + PREFIX + table + after + loop + body + "}\n"


GROWN = {
    f"{shape}: {kind}": (_test(shape, BASE_ROWS), _test(shape, [*BASE_ROWS, row]))
    for shape in SHAPES
    for kind, row in NEW_ROWS.items()
}
for shape in SHAPES:
    GROWN[f"{shape}: a row in front"] = (
        _test(shape, BASE_ROWS),
        _test(shape, [NEW_ROWS["a row built by the helper the rows call"], *BASE_ROWS]),
    )
BENT: dict[str, tuple[str, str]] = {}
for shape in SHAPES:
    base = _test(shape, BASE_ROWS)
    for kind, row in BENT_ROWS.items():
        BENT[f"{shape}: {kind}"] = (base, _test(shape, [*BASE_ROWS, row]))
    extra = NEW_ROWS["a row built by the helper the rows call"]
    BENT[f"{shape}: a row's field changed beside a new row"] = (
        base,
        _test(shape, [BASE_ROWS[0], ('"missing"', "405", BASE_ROWS[1][2]), extra]),
    )
    BENT[f"{shape}: a row removed beside a new row"] = (base, _test(shape, [BASE_ROWS[0], extra]))
    BENT[f"{shape}: the struct gains a field"] = (
        base,
        _test(shape, [*BASE_ROWS, extra], fields=FIELDS + "\t\tskip bool\n"),
    )
    BENT[f"{shape}: the loop body changed beside a new row"] = (
        base,
        _test(
            shape, [*BASE_ROWS, extra], body=BODY.replace("tc.code, rec.Code", "rec.Code, rec.Code")
        ),
    )
    counted = "\tassert.Len(t, tests, 2)\n"
    BENT[f"{shape}: a row where len(tests) is checked"] = (
        _test(shape, BASE_ROWS, after=counted),
        _test(shape, [*BASE_ROWS, extra], after=counted),
    )
for shape in [s for s in SHAPES if not s.startswith("a map")]:
    BENT[f"{shape}: rows reordered"] = (
        _test(shape, BASE_ROWS),
        _test(shape, [BASE_ROWS[1], BASE_ROWS[0]]),
    )
    first = "\tfirst := tests[0]\n\t_ = first\n"
    BENT[f"{shape}: a row in front of a table also indexed"] = (
        _test(shape, BASE_ROWS, after=first),
        _test(
            shape, [NEW_ROWS["a row built by the helper the rows call"], *BASE_ROWS], after=first
        ),
    )


@pytest.mark.parametrize("name", sorted(GROWN))
def test_a_go_table_that_only_gained_rows_grew(name: str) -> None:
    base, head = GROWN[name]
    drift = compare(units(base), units(head))
    assert drift.ok, f"{name}: {drift.summary()}"
    assert drift.grew == ("TestHandle",), drift.summary()


@pytest.mark.parametrize("name", sorted(BENT))
def test_the_same_rows_bending_a_go_table_are_a_change(name: str) -> None:
    base, head = BENT[name]
    assert base != head
    drift = compare(units(base), units(head))
    assert not drift.ok, f"{name}: {drift.summary()}"
    assert not drift.grew, drift.summary()
