"""test_drift reads each JavaScript or TypeScript test file with the grammar
its suffix names: JSX in `.jsx`, `.tsx` and `.js` files (React tests), type
syntax in `.ts`, `.mts` and `.cts` ones, so a new test appended to an
existing file is a new test, and a changed one is named, never the whole
file judged unreadable."""

from __future__ import annotations

import pytest

from gate.drift import Unparsable, units_for
from gate.model.rubric import DEFAULT_TESTS
from tests.rulecase import RuleCase, edit

DRIFT = RuleCase("test_drift", id="T", paths=list(DEFAULT_TESTS))

JSX = "test('{name}', () => {{\n  render(<App title=\"{name}\" />);\n}});\n"
TYPED = (
    "test('{name}', () => {{\n  const n = <number>clamp(1);\n"
    "  expect(n satisfies number).toBe(1);\n}});\n"
)
GENERIC = (
    "test('{name}', () => {{\n  const id = <T,>(x: T): T => x;\n"
    "  render(<App title={{id('{name}')}} />);\n}});\n"
)
PLAIN = "test('{name}', () => {{\n  expect(clamp(1)).toBe(1);\n}});\n"

# suffix -> a test body only its grammar reads (or one every grammar reads)
BODIES = {
    ".js": JSX,
    ".jsx": JSX,
    ".mjs": PLAIN,
    ".cjs": PLAIN,
    ".ts": TYPED,
    ".mts": TYPED,
    ".cts": TYPED,
    ".tsx": GENERIC,
}


@pytest.mark.parametrize("ending", list(BODIES))
def test_each_suffix_is_read_with_its_own_grammar(ending: str) -> None:
    body = BODIES[ending].format(name="a")
    found = units_for(f"web/clamp.test{ending}", body)
    assert found is not None
    assert [u.name for u in found if u.role == "case"], body


@pytest.mark.parametrize("ending", list(BODIES))
def test_a_test_appended_to_an_existing_file_is_a_new_test(ending: str) -> None:
    path = f"web/clamp.test{ending}"
    base = BODIES[ending].format(name="a")
    appended = base + BODIES[ending].format(name="b")
    DRIFT.passes(edit(path, base, appended), "1 new test added to existing test files")
    bent = base.removesuffix("});\n") + "  bend();\n});\n"
    result = DRIFT.fails(edit(path, base, bent), f"{path}: a changed")
    assert "judged as a whole file" not in result.message


FLOW = (
    "// @flow\nimport type {{ Props }} from './app';\n\n"
    "function title(props: Props): string {{\n  return props.title;\n}}\n\n"
    "test('{name}', () => {{\n  render(<App title={{title({{ title: '{name}' }})}} />);\n}});\n"
)


def test_a_flow_typed_javascript_file_is_read_too() -> None:
    """Type annotations in a `.js` file are Flow's (React Native's tests):
    the javascript grammar refuses them, so the file is read as TSX."""
    path = "web/app.test.js"
    base = FLOW.format(name="a")
    appended = base + "test('b', () => {\n  render(<App title=\"b\" />);\n});\n"
    DRIFT.passes(edit(path, base, appended), "1 new test added to existing test files")
    bent = base.removesuffix("});\n") + "  bend();\n});\n"
    result = DRIFT.fails(edit(path, base, bent), f"{path}: a changed")
    assert "judged as a whole file" not in result.message
    # what neither grammar reads is refused, naming the javascript grammar
    with pytest.raises(Unparsable, match="javascript grammar"):
        units_for(path, "test(('x', () => {});\n")
