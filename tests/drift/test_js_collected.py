"""test_drift reads the base's root Jest or Vitest configuration to know
which files it collects (`gate.drift.collected.js_collects`): its literal
Vitest `test.include` or Jest `testMatch` globs name test modules beyond
the default names, judged case by case; anything computed, a glob the gate
does not read, or a setting that moves where the runner looks leaves the
default names, and the whole-file verdict.  Real git repositories."""

from __future__ import annotations

import pytest

from gate.drift import collected
from gate.model.rubric import DEFAULT_TESTS
from tests.rulecase import Files, RuleCase

DRIFT = RuleCase("test_drift", id="T", paths=list(DEFAULT_TESTS))
SPEC = "import { test, expect } from 'vitest';\n\ntest('a', () => {\n  expect(1).toBe(1);\n});\n"
GROWN = SPEC + "\ntest('b', () => {\n  expect(2).toBe(2);\n});\n"
BENT = SPEC.replace("toBe(1)", "toBe(2)")
VITEST = (
    "import {{ defineConfig }} from 'vitest/config';\n\n"
    "export default defineConfig({{\n  test: {{ {test} }},\n}});\n"
)
JEST = "module.exports = {{ {test} }};\n"

# Root configurations that collect `spec/clamp.ts` (a `spec/` file, which
# the default names judge whole).
COLLECTING = {
    "vitest include": ("vitest.config.ts", VITEST.format(test="include: ['spec/**/*.ts']")),
    "vitest include, braces": (
        "vitest.config.mts",
        VITEST.format(test="include: ['spec/*.{ts,js}']"),
    ),
    "vitest include, a plain object": (
        "vitest.config.js",
        "export default { test: { include: ['./spec/*.ts'], testTimeout: 1 } };\n",
    ),
    "jest testMatch, rootDir": (
        "jest.config.js",
        JEST.format(test="testMatch: ['<rootDir>/spec/**/*.ts']"),
    ),
    "jest testMatch, any folder": (
        "jest.config.ts",
        JEST.format(test="testMatch: ['**/spec/*.ts']"),
    ),
    "jest export default": (
        "jest.config.ts",
        "export default { testMatch: ['<rootDir>/spec/*.[jt]s'] };\n",
    ),
}
# The same files, read the strict way: the default names decide.
NOT_READ = {
    "no include": ("vitest.config.ts", VITEST.format(test="testTimeout: 1")),
    "a computed include": (
        "vitest.config.ts",
        "const g = ['spec/**/*.ts'];\n" + VITEST.format(test="include: g"),
    ),
    "a spread": ("vitest.config.ts", VITEST.format(test="...base, include: ['spec/**/*.ts']")),
    "a template": ("vitest.config.ts", VITEST.format(test="include: [`spec/**/*.ts`]")),
    "an exclude beside": (
        "vitest.config.ts",
        VITEST.format(test="include: ['spec/**/*.ts'], exclude: ['x']"),
    ),
    "projects beside": (
        "vitest.config.ts",
        VITEST.format(test="include: ['spec/**/*.ts'], projects: ['a']"),
    ),
    "a root beside": (
        "vitest.config.ts",
        VITEST.format(test="include: ['spec/**/*.ts']").replace("test:", "root: 'x', test:"),
    ),
    "an extglob": ("vitest.config.ts", VITEST.format(test="include: ['spec/**/?(*.)ts']")),
    "a wrapper call": (
        "vitest.config.ts",
        "export default merge({ test: { include: ['spec/*.ts'] } });\n",
    ),
    "jest testMatch against the absolute path": (
        "jest.config.js",
        JEST.format(test="testMatch: ['spec/*.ts']"),
    ),
    "jest roots beside": (
        "jest.config.js",
        JEST.format(test="roots: ['x'], testMatch: ['**/spec/*.ts']"),
    ),
    "jest testRegex beside": (
        "jest.config.js",
        JEST.format(test="testRegex: 'x', testMatch: ['**/spec/*.ts']"),
    ),
    "an uncommon spelling, not read": (
        "jest.config.cjs",
        JEST.format(test="testMatch: ['<rootDir>/spec/**/*.ts']"),
    ),
    "a config in a subfolder": (
        "pkg/vitest.config.ts",
        VITEST.format(test="include: ['../spec/**/*.ts']"),
    ),
    "another folder": ("vitest.config.ts", VITEST.format(test="include: ['other/**/*.ts']")),
}


@pytest.mark.parametrize("source", ["git", "patch"])
@pytest.mark.parametrize("shape", list(COLLECTING))
def test_a_file_the_root_config_collects_is_judged_case_by_case(shape: str, source: str) -> None:
    config, text = COLLECTING[shape]
    base = {config: text, "spec/clamp.ts": SPEC}
    grown = DRIFT.check(Files(base=base, head=base | {"spec/clamp.ts": GROWN}), source=source)  # type: ignore[arg-type]
    assert grown.passed, grown.message
    assert "1 new test added" in grown.message
    bent = DRIFT.check(Files(base=base, head=base | {"spec/clamp.ts": BENT}), source=source)  # type: ignore[arg-type]
    assert not bent.passed
    assert "spec/clamp.ts: " in bent.message and "judged as a whole file" not in bent.message


@pytest.mark.parametrize("shape", list(NOT_READ))
def test_a_config_the_gate_does_not_read_leaves_the_whole_file(shape: str) -> None:
    config, text = NOT_READ[shape]
    base = {config: text, "spec/clamp.ts": SPEC}
    result = DRIFT.check(Files(base=base, head=base | {"spec/clamp.ts": GROWN}))
    assert not result.passed
    assert "spec/clamp.ts judged as a whole file" in result.message


def test_the_head_config_never_decides() -> None:
    """A change that adds the include and edits the spec: the base has no
    include, so the spec is judged whole, and the config change is drift."""
    config, text = COLLECTING["vitest include"]
    base = {config: VITEST.format(test="testTimeout: 1"), "spec/clamp.ts": SPEC}
    result = DRIFT.check(Files(base=base, head={config: text, "spec/clamp.ts": GROWN}))
    assert not result.passed
    assert "spec/clamp.ts judged as a whole file" in result.message


@pytest.mark.parametrize(
    "path",
    [
        "spec/__snapshots__/clamp.ts",
        "spec/testdata/clamp.ts",
        "spec/node_modules/x.ts",
        "spec/a.md",
    ],
)
def test_data_folders_and_other_suffixes_stay_whole(path: str) -> None:
    found = collected.js_collects({"vitest.config.ts": COLLECTING["vitest include"][1]})
    assert found is not None and found("spec/clamp.ts") and found("spec/x/y.ts")
    assert not found(path)


@pytest.mark.parametrize(
    ("glob", "hits", "misses"),
    [
        ("spec/**/*.ts", ["spec/a.ts", "spec/x/a.ts"], ["specs/a.ts", "x/spec/a.ts", "spec/a.tsx"]),
        ("**/*.e2e.{ts,js}", ["a.e2e.ts", "x/y/a.e2e.js"], ["a.e2e.mts", "a.e2e.ts/x"]),
        ("test/[!_]*.ts", ["test/a.ts"], ["test/_a.ts", "test/x/a.ts"]),
        ("a?.ts", ["ab.ts"], ["a/.ts", "abc.ts"]),
        ("a/{b,{c,d}}.ts", ["a/b.ts", "a/c.ts", "a/d.ts"], ["a/{c,d}.ts", "a/e.ts"]),
    ],
)
def test_globs_read_as_micromatch_reads_them(glob: str, hits: list[str], misses: list[str]) -> None:
    pattern = collected.glob_regex(glob)
    assert pattern is not None
    assert all(pattern.match(p) for p in hits)
    assert not any(pattern.match(p) for p in misses)


@pytest.mark.parametrize(
    "glob", ["**/?(*.)+(spec|test).ts", "a/!(b).ts", "a/@(b|c).ts", "a/{b,c.ts", "a/\\*.ts"]
)
def test_globs_the_gate_does_not_read_are_refused(glob: str) -> None:
    assert collected.glob_regex(glob) is None
