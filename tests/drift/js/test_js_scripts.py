"""A new script run by hand under a test folder (openai/openai-agents-js
e006790f: `test/fixtures/run-state/generate-corpus.mts`, run with `pnpm
tsx`) is no test module: no runner collects it and no test loads it, so
its load-time code reaches no test (gate.drift.judging.new_module,
gate.drift.js.script).  Each hostile twin (a test of the change loads it,
a runner collects it by name, it registers a test or exports a value, it
reads no command line) is still judged by what its code does."""

from __future__ import annotations

import pytest

from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

EXISTING = "test/run.test.ts"
BASE_TEST = "import { it, expect } from 'vitest';\n\nit('runs', () => expect(1).toBe(1));\n"
# The script's load-time code: it reads the command line and writes files.
ENTRIES = [
    "const args = new Set(process.argv.slice(2));\n",
    "const [, , out] = process.argv;\n",
    "if (require.main === module) {\n  main();\n}\n",
    "if (import.meta.main) {\n  main();\n}\n",
]
BODY = (
    "import {{ writeFileSync }} from 'node:fs';\n\n{entry}"
    "function main() {{\n  writeFileSync('corpus.json', '{{}}');\n}}\n"
    "globalThis.corpusBuilt = true;\nmain();\n"
)
SHEBANG = "#!/usr/bin/env node\n"
PLACES = [
    "test/fixtures/run-state/generate-corpus.mts",
    "packages/core/test/fixtures/gen.mjs",
    "test/helpers/make-data.ts",
    "tests/_scripts/refresh.cjs",
]


def _check(repo: RubricRepo, files: dict[str, str]) -> tuple[int, str]:
    repo.write_many({EXISTING: BASE_TEST, "package.json": "{}\n"})
    base = repo.commit("base")
    repo.write_many(files)
    head = repo.commit("head")
    return repo.check(base, head, rubric=DRIFT_RUBRIC).code_and_message()


SCRIPTS = [(p, e) for p in PLACES for e in ENTRIES] + [(PLACES[0], SHEBANG)]


@pytest.mark.parametrize(("path", "entry"), SCRIPTS)
def test_a_new_script_no_test_loads_changes_no_test(
    rubric_repo: RubricRepo, path: str, entry: str
) -> None:
    text = (entry if entry == SHEBANG else "") + BODY.format(
        entry="" if entry == SHEBANG else entry
    )
    readme = path.rpartition("/")[0] + "/README.md"
    files = {path: text, readme: f"Run `pnpm tsx {path.rpartition('/')[2]}`.\n"}
    code, message = _check(rubric_repo, files)
    assert code == 0, message


TWINS = {
    "a test of the change imports it": lambda p, t: {
        p: t,
        "test/uses.test.ts": f"import '../{p.removeprefix('test/')}';\nit('x', () => {{}});\n",
    },
    "a test of the change runs it by name": lambda p, t: {
        p: t,
        "test/uses.test.ts": "it('x', () => { spawn('tsx', ['generate-corpus.mts']); });\n",
    },
    "a runner collects it by name": lambda p, t: {p.replace(".mts", ".test.mts"): t},
    "outside the support folders": lambda p, t: {p.replace("fixtures/run-state/", ""): t},
    "it registers a test": lambda p, t: {p: t + "it('x', () => {});\n"},
    "it registers a hook": lambda p, t: {p: t + "beforeAll(() => main());\n"},
    "it exports a value": lambda p, t: {p: t + "export const corpus = 1;\n"},
    "it assigns module.exports": lambda p, t: {p: t + "module.exports = { main };\n"},
    "it imports a runner": lambda p, t: {p: "import { vi } from 'vitest';\n" + t},
    "it reads no command line": lambda p, t: {p: t.replace("process.argv", "process.env")},
}


@pytest.mark.parametrize("twin", sorted(TWINS))
def test_each_hostile_twin_is_still_judged_by_its_code(rubric_repo: RubricRepo, twin: str) -> None:
    path = PLACES[0]
    files = TWINS[twin](path, BODY.format(entry=ENTRIES[0]))
    code, message = _check(rubric_repo, files)
    assert code == 1 and "runs at collection or changes what other tests see" in message, message


def test_an_edited_script_stays_judged_whole(rubric_repo: RubricRepo) -> None:
    """A script that exists at base is a helper of the tests, judged whole:
    any edit of it is drift, whoever runs it."""
    path = PLACES[0]
    rubric_repo.write_many({path: BODY.format(entry=ENTRIES[0])})
    code, message = _check(rubric_repo, {path: BODY.format(entry=ENTRIES[1])})
    assert code == 1 and "judged as a whole file" in message, message
