"""gate.drift.js through `compare`: every unit whose code is its node's
text (a helper, a const helper, a hook, a class, a module statement, a
test) compares by its syntax tree (`rows.tree_form`), so a comment
reflowed or a line rewrapped changes none; each beside its hostile twins,
an edit of a string, a template literal, a regular expression, JSX text,
a line break that moves a statement (ASI) or a pragma comment, which stay
changes."""

from __future__ import annotations

import itertools

import pytest

from gate.drift import compare
from gate.drift.js import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = """\
import { it, expect, beforeEach } from 'vitest';
import { render } from './render';

let state = 0;

// builds the thing
function build(x) {
  // the thing with a name
  // and a second line
  return { x, s: 'a  b', t: `v ${x}  w`, r: /a b/ };
}

const make = (y) => {
  /* one
     two */
  return y + 1;
};

class Page {
  open() {
    // go there
    return render('/');
  }
}

beforeEach(() => {
  // reset it
  state = 0;
});

if (process.env.CI) {
  // on CI only
  state = 1;
}

it('works', () => {
  expect(build(1).x).toBe(make(0));
});
"""
TSX = """\
import { it, expect } from 'vitest';

// renders a greeting
const Greeting = () => (
  // the element
  <p className="hi">Hello there</p>
);

it('greets', () => {
  expect(Greeting()).toBeTruthy();
});
"""


def _edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# Edits that change no unit's meaning: (text, suffix) per name.
SAME = {
    "a comment reflowed in a function helper": _edit(
        "  // the thing with a name\n  // and a second line\n",
        "  // the thing with a name and a\n  // second line\n",
    ),
    "a block comment reflowed in a const helper": _edit("/* one\n     two */", "/* one two\n   */"),
    "a comment edited in a method of a class": _edit("// go there", "// go to the root"),
    "a comment edited in a hook": _edit("// reset it", "// reset the state"),
    "a comment removed from a module statement": _edit("  // on CI only\n", ""),
    "a line rewrapped in a helper": _edit("return y + 1;", "return (\n    y + 1\n  );").replace(
        "(\n    y + 1\n  )", "y +\n    1"
    ),
    "a comment added in a test": _edit("  expect(build", "  // checks it\n  expect(build"),
    "a comment edited in a JSX helper": _edit("// the element", "// the paragraph", TSX),
}
# The same kind of edit where it changes what runs or what a tool reads.
BENT = {
    "a string's blanks": _edit("'a  b'", "'a b'"),
    "a template literal's blanks": _edit("`v ${x}  w`", "`v ${x} w`"),
    "a regular expression": _edit("/a b/", "/a  b/"),
    "a return split by a line break (ASI)": _edit("return y + 1;", "return\n  y + 1;"),
    "JSX text": _edit("Hello there", "Hello  there", TSX),
    "a ts-expect-error added in a helper": _edit(
        "  // and a second line\n", "  // @ts-expect-error\n"
    ),
    "a ts-expect-error's line moved by a rewrap": _edit(
        "  return { x, s:", "  // @ts-expect-error\n  return { x, s:"
    ),
    "an istanbul ignore in a const helper": _edit(
        "/* one\n     two */", "/* istanbul ignore next */"
    ),
    "a c8 ignore in a hook": _edit("// reset it", "/* c8 ignore next 2 */"),
    "a v8 ignore in a method": _edit("// go there", "/* v8 ignore next */"),
    "an eslint-disable in a module statement": _edit(
        "// on CI only", "// eslint-disable-next-line"
    ),
    "a global directive in a helper": _edit(
        "  // the thing with a name\n", "  /* global state */\n"
    ),
    "a prettier-ignore in a test": _edit("  expect(build", "  // prettier-ignore\n  expect(build"),
    "a PURE annotation in a helper": _edit(
        "return render('/');", "return /*#__PURE__*/ render('/');"
    ),
    "a jest-environment docblock in a helper": _edit(
        "/* one\n     two */", "/**\n   * @jest-environment jsdom\n   */"
    ),
    "a webpack magic comment": _edit(
        "return render('/');", "return import(/* webpackChunkName: \"x\" */ './x');"
    ),
    "a ts-ignore in a JSX helper": _edit("// the element", "// @ts-ignore", TSX),
}


def _suffix(text: str) -> str:
    return ".tsx" if text.startswith(TSX[:40]) and "Greeting" in text else ".ts"


@pytest.mark.parametrize("name", sorted(SAME))
def test_an_edit_that_changes_no_tree_changes_no_unit(name: str) -> None:
    head = SAME[name]
    base = TSX if "JSX" in name else BASE
    assert head != base
    drift = compare(units(base, _suffix(base)), units(head, _suffix(head)))
    assert drift.ok, drift.summary()


@pytest.mark.parametrize("name", sorted(BENT))
def test_the_same_edit_where_it_changes_what_runs_or_a_tool_reads_is_a_change(name: str) -> None:
    head = BENT[name]
    base = TSX if "JSX" in name else BASE
    drift = compare(units(base, _suffix(base)), units(head, _suffix(head)))
    assert not drift.ok, name
    assert drift.changed, drift.summary()


# A pragma comment already in the base: a reflow beside it is a change, as
# its line may be what it acts on (`// @ts-expect-error` covers the next line).
PRAGMAS = [
    "// @ts-expect-error",
    "// @ts-ignore",
    "/* istanbul ignore next */",
    "/* c8 ignore next 3 */",
    "/* v8 ignore next */",
    "// eslint-disable-next-line no-undef",
    "// prettier-ignore",
    "/** @type {number} */",
    "// biome-ignore lint: x",
    "/* node:coverage ignore next */",
]
PLACES = {
    "helper": ("function build(x) {\n  {P}\n  return x +\n    1;\n}\n", "return x + 1;"),
    "hook": ("beforeEach(() => {\n  {P}\n  state = 0 +\n    1;\n});\n", "state = 0 + 1;"),
    "test": (
        "it('works', () => {\n  {P}\n  expect(1 +\n    1).toBe(2);\n});\n",
        "expect(1 + 1).toBe(2);",
    ),
}


@pytest.mark.parametrize(("pragma", "place"), list(itertools.product(PRAGMAS, sorted(PLACES))))
def test_a_rewrap_beside_a_pragma_comment_is_a_change(pragma: str, place: str) -> None:
    head_code, joined = PLACES[place]
    text = "import { it, expect, beforeEach } from 'vitest';\n\nlet state = 0;\n\n" + head_code
    base = text.replace("{P}", pragma)
    wrapped = {
        "helper": "return x +\n    1;",
        "hook": "state = 0 +\n    1;",
        "test": "expect(1 +\n    1).toBe(2);",
    }
    head = base.replace(wrapped[place], joined)
    assert head != base
    drift = compare(units(base, ".ts"), units(head, ".ts"))
    assert not drift.ok, (pragma, place)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_the_same_rewrap_beside_a_plain_comment_is_no_change(place: str) -> None:
    head_code, joined = PLACES[place]
    text = "import { it, expect, beforeEach } from 'vitest';\n\nlet state = 0;\n\n" + head_code
    base = text.replace("{P}", "// a plain note for people")
    wrapped = {
        "helper": "return x +\n    1;",
        "hook": "state = 0 +\n    1;",
        "test": "expect(1 +\n    1).toBe(2);",
    }
    head = base.replace(wrapped[place], joined)
    drift = compare(units(base, ".ts"), units(head, ".ts"))
    assert drift.ok, drift.summary()


def test_the_rule_passes_a_comment_reflowed_in_a_helper_and_fails_its_twin(
    rubric_repo: RubricRepo,
) -> None:
    """End to end on a real repository: a helper's comment reflowed passes;
    a `// @ts-expect-error` put in its place fails."""
    path = "tests/build.test.ts"
    rubric_repo.write_many({path: BASE, "package.json": "{}\n"})
    base = rubric_repo.commit("base")
    rubric_repo.write(path, SAME["a comment reflowed in a function helper"])
    reflowed = rubric_repo.commit("reflowed")
    rubric_repo.write(path, BENT["a ts-expect-error added in a helper"])
    bent = rubric_repo.commit("pragma")
    code, result = rubric_repo.check(base, reflowed, rubric=DRIFT_RUBRIC).verdict()
    assert code == 0, result
    bent_code, bent_result = rubric_repo.check(base, bent, rubric=DRIFT_RUBRIC).verdict()
    assert bent_code == 1, bent_result
    assert "build changed" in bent_result["message"], bent_result


TABLE = (
    "import { it, expect } from 'vitest';\nimport { parse } from '../src/p';\n\n"
    "it.each([\n  ['a', 1],\n  ['b', 2],\n])"
    "('reads %s', (x, n) => {\n  expect(parse(x)).toBe(n);\n});\n"
)


def test_a_row_added_to_a_table_grows_the_test() -> None:
    head = TABLE.replace("  ['b', 2],\n", "  ['b', 2],\n  ['c', 3],\n")
    drift = compare(units(TABLE, ".ts"), units(head, ".ts"))
    assert drift.ok and drift.grew, drift.summary()


@pytest.mark.parametrize("pragma", PRAGMAS)
@pytest.mark.parametrize(
    "where",
    [
        "  ['b', 2],\n",  # between the rows: it hangs on the next existing row
        "  expect(parse(x))",  # in the body
    ],
)
def test_a_row_added_beside_a_new_pragma_comment_is_a_change(pragma: str, where: str) -> None:
    """The rows grew, and a pragma comment came in outside them: the test changed."""
    head = TABLE.replace("  ['b', 2],\n", "  ['b', 2],\n  ['c', 3],\n")
    head = head.replace(where, f"  {pragma}\n{where}", 1)
    drift = compare(units(TABLE, ".ts"), units(head, ".ts"))
    assert not drift.ok, drift.summary()
    assert not drift.grew


RENAMED = (
    "import { it, expect } from 'vitest';\nimport { api } from './api';\n\n"
    "it('builds the query', () => {\n  // @ts-expect-error - a private method\n"
    "  const q = api.build({ sort: 'x' });\n  expect(q).toBe('x');\n});\n"
)


def test_a_test_holding_a_pragma_renamed_alone_is_renamed() -> None:
    head = RENAMED.replace("builds the query", "keeps the sort")
    drift = compare(units(RENAMED, ".ts"), units(head, ".ts"))
    assert drift.ok and drift.renamed, drift.summary()


@pytest.mark.parametrize(
    "edit",
    [
        ("  const q = api.build({ sort: 'x' });\n", "  const q = api.build({\n    sort: 'x' });\n"),
        ("  // @ts-expect-error - a private method\n", ""),
        ("builds the query", "builds the query @slow"),
    ],
    ids=["a line rewrapped under the pragma", "the pragma removed", "a tag added"],
)
def test_a_test_holding_a_pragma_renamed_and_edited_is_no_rename(edit: tuple[str, str]) -> None:
    head = RENAMED.replace(*edit).replace("builds the query", "keeps the sort")
    drift = compare(units(RENAMED, ".ts"), units(head, ".ts"))
    assert not drift.ok and not drift.renamed, drift.summary()
