"""A new Vitest or node:test file's load-time code (a top-level `vi.mock`, a
module-level value computed by a call) stays in the file only while the
runner isolates each test file; the base's runner configuration above the
file can turn that off (Vitest's `isolate: false`, `--no-isolate`;
node:test's `--test-isolation=none`), and then the code runs beside the
other files' tests (gate.drift.js.isolation, gate.drift.js.own_registry,
gate.model.change.TextWants.nearby).  Jest has no such switch.  Where the
base's configuration cannot be read, the file is judged as sharing."""

from __future__ import annotations

import json

import pytest

from gate.drift import judging
from gate.drift.js.isolation import NAMES, near
from gate.model.change import ADDED, MODIFIED, ChangeSet, FileChange, FileTexts, TextWants
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

VITEST = "import { it, vi } from 'vitest';\nvi.mock('../src/x');\nit('a', () => {});\n"
NODE = "import { test } from 'node:test';\nconst data = load();\ntest('a', () => {});\n"
JEST = "import { it, jest } from '@jest/globals';\njest.mock('../src/x');\nit('a', () => {});\n"
EXISTING = "import { it } from 'vitest';\nit('old', () => {});\n"


def _scripts(command: str) -> str:
    return json.dumps({"name": "x", "scripts": {"test": command}}) + "\n"


def _check(repo: RubricRepo, base: dict[str, str], path: str, text: str) -> tuple[int, str]:
    repo.write_many({"packages/a/test/old.test.ts": EXISTING, "src/x.ts": "export {};\n", **base})
    first = repo.commit("base")
    repo.write_many({path: text})
    head = repo.commit("head")
    return repo.check(first, head, rubric=DRIFT_RUBRIC).code_and_message()


NEW = "packages/a/test/new.test.ts"
# Each base turns Vitest's per-file isolation off for NEW.
VITEST_OFF = {
    "test.isolate": {"vitest.config.ts": "export default { test: { isolate: false } };\n"},
    "defineConfig": {
        "vitest.config.mts": (
            "import { defineConfig } from 'vitest/config';\n"
            "export default defineConfig({ test: { isolate: false } });\n"
        )
    },
    "quoted key": {"vitest.config.js": 'export default { test: { "isolate" : false } };\n'},
    "cjs pool": {
        "vitest.config.cjs": (
            "module.exports = { test: { poolOptions: { forks: { isolate: false } } } };\n"
        )
    },
    "cts": {"vitest.config.cts": "export = { test: { isolate:false } };\n"},
    "vite config": {"vite.config.ts": "export default { test: { isolate: false } };\n"},
    "computed": {"vitest.config.ts": "export default { test: { isolate: !process.env.CI } };\n"},
    "shorthand": {
        "vitest.config.ts": "const isolate = false;\nexport default { test: { isolate } };\n"
    },
    "single thread": {
        "vitest.config.ts": (
            "export default { test: { poolOptions: { threads: { singleThread: true } } } };\n"
        )
    },
    "workspace": {"vitest.workspace.ts": "export default [{ test: { isolate: false } }];\n"},
    "workspace json": {"vitest.workspace.json": '[{"test": {"isolate": false}}]\n'},
    "nested config": {
        "packages/a/vitest.config.ts": "export default { test: { isolate: false } };\n"
    },
    "nested folder": {
        "packages/a/test/vite.config.mjs": "export default { test: {isolate: false} };\n"
    },
    "no-isolate": {"package.json": _scripts("vitest run --no-isolate")},
    "isolate=false": {"package.json": _scripts("vitest run --isolate=false")},
    "isolate false": {"package.json": _scripts("vitest run --isolate false")},
    "pool flag": {"package.json": _scripts("vitest --poolOptions.threads.isolate=false")},
    "no-threads": {"package.json": _scripts("vitest --no-threads")},
    "nested package": {"packages/a/package.json": _scripts("vitest run --no-isolate")},
}
# Each base leaves it on, or turns it off where NEW does not run.
VITEST_ON = {
    "nothing": {},
    "true": {"vitest.config.ts": "export default { test: { isolate: true } };\n"},
    "flag on": {"package.json": _scripts("vitest run --isolate")},
    "flag true": {"package.json": _scripts("vitest run --isolate=true")},
    "other package": {
        "packages/b/vitest.config.ts": "export default { test: { isolate: false } };\n"
    },
    "other package script": {"packages/b/package.json": _scripts("vitest --no-isolate")},
    "node flag": {"package.json": _scripts("node --test --test-isolation=none")},
    "word isolation": {"vitest.config.ts": "// keeps isolation\nexport default { test: {} };\n"},
}
NODE_OFF = {
    "flag": {"package.json": _scripts("node --test --test-isolation=none")},
    "experimental": {"package.json": _scripts("node --test --experimental-test-isolation=none")},
    "space quoted": {"package.json": _scripts("node --test --test-isolation 'none' test/")},
    "double quoted": {"package.json": _scripts('node --test --test-isolation="none"')},
    "variable": {"package.json": _scripts("node --test --test-isolation=$MODE")},
    "nested": {"packages/a/package.json": _scripts("node --test --test-isolation=none")},
}
NODE_ON = {
    "nothing": {},
    "process": {"package.json": _scripts("node --test --test-isolation=process")},
    "vitest off": {"vitest.config.ts": "export default { test: { isolate: false } };\n"},
    "other package": {"packages/b/package.json": _scripts("node --test --test-isolation=none")},
}


@pytest.mark.parametrize("base", VITEST_OFF.values(), ids=VITEST_OFF.keys())
def test_a_vitest_base_without_isolation_fails_a_new_top_level_mock(
    rubric_repo: RubricRepo, base: dict[str, str]
) -> None:
    code, message = _check(rubric_repo, base, NEW, VITEST)
    assert code == 1, message
    assert "vi.mock" in message


@pytest.mark.parametrize("base", VITEST_ON.values(), ids=VITEST_ON.keys())
def test_a_vitest_base_that_isolates_passes_a_new_top_level_mock(
    rubric_repo: RubricRepo, base: dict[str, str]
) -> None:
    code, message = _check(rubric_repo, base, NEW, VITEST)
    assert code == 0, message


@pytest.mark.parametrize("base", NODE_OFF.values(), ids=NODE_OFF.keys())
def test_a_node_test_base_in_one_process_fails_a_new_module_level_call(
    rubric_repo: RubricRepo, base: dict[str, str]
) -> None:
    code, message = _check(rubric_repo, base, NEW, NODE)
    assert code == 1, message
    assert "const data = load()" in message


@pytest.mark.parametrize("base", NODE_ON.values(), ids=NODE_ON.keys())
def test_a_node_test_base_with_processes_passes_a_new_module_level_call(
    rubric_repo: RubricRepo, base: dict[str, str]
) -> None:
    code, message = _check(rubric_repo, base, NEW, NODE)
    assert code == 0, message


@pytest.mark.parametrize(
    "base",
    [
        VITEST_OFF["test.isolate"],
        NODE_OFF["flag"],
        {"package.json": _scripts("jest --runInBand")},
    ],
)
def test_jest_has_no_switch_to_read(rubric_repo: RubricRepo, base: dict[str, str]) -> None:
    code, message = _check(rubric_repo, base, NEW, JEST)
    assert code == 0, message


# Hostile twins: the same switch spelled otherwise, generated.
SPACES = ["", " ", "  ", "\n    ", "\t"]
QUOTES = ["", "'", '"']
SUFFIXES = ["ts", "mts", "cts", "js", "mjs", "cjs"]


@pytest.mark.parametrize(
    ("space", "quote", "ending", "name"),
    [
        (s, q, e, n)
        for i, (s, q, e) in enumerate((s, q, e) for s in SPACES for q in QUOTES for e in SUFFIXES)
        for n in (("vitest.config", "vite.config", "vitest.workspace")[i % 3],)
    ],
)
def test_isolate_false_spelled_otherwise_is_read(
    space: str, quote: str, ending: str, name: str
) -> None:
    from gate.drift.js.isolation import VITEST, shared

    text = f"export default {{ test: {{ {quote}isolate{quote}{space}:{space}false }} }};\n"
    path = f"packages/a/{name}.{ending}"
    assert path in near(NEW)
    assert shared(VITEST, {path: text})
    assert not shared(VITEST, {path: text.replace("false", "true")})


@pytest.mark.parametrize(
    "flag",
    [
        f"{lead}{flag}"
        for lead in ("vitest run ", "npx vitest ", "pnpm exec vitest --run ")
        for flag in ("--no-isolate", "--isolate=false", "--isolate  false", "--isolate=0")
    ],
)
def test_no_isolate_flags_in_a_script_are_read(flag: str) -> None:
    from gate.drift.js.isolation import VITEST, shared

    assert shared(VITEST, {"packages/a/package.json": _scripts(flag)})
    assert not shared(VITEST, {"packages/a/package.json": _scripts(flag.split(" -")[0])})


def test_near_names_the_configuration_from_the_file_up_to_the_root() -> None:
    found = near(NEW)
    assert found[: len(NAMES)] == tuple(f"packages/a/test/{n}" for n in NAMES)
    assert found[-len(NAMES) :] == NAMES
    assert "packages/a/package.json" in found and "package.json" in found
    assert near("packages/a/test/data.json") == ()
    wants = TextWants(near=near)
    files = (FileChange(NEW, ADDED), FileChange("packages/a/test/old.test.ts", MODIFIED))
    assert set(wants.nearby(files)) == set(found)
    assert wants.nearby(files[1:]) == ()


def _new_file_changes(texts: dict[str, FileTexts]) -> ChangeSet:
    return ChangeSet(
        files=(FileChange(NEW, ADDED, added=3),), texts={NEW: FileTexts(None, VITEST), **texts}
    )


def test_an_unread_base_configuration_is_judged_as_sharing() -> None:
    """A source that read no base configuration (a structured result, an
    API mode past its cap) cannot show isolation is on: the new file's
    mock reaches other files."""
    change = _new_file_changes({})
    problem, _ = judging.new_module(change, change.files[0], {})
    assert problem is not None and "vi.mock" in problem
    known = _new_file_changes({p: FileTexts(None, None) for p in near(NEW)})
    assert judging.new_module(known, known.files[0], {}) == (None, 1)
    withheld = {p: FileTexts(None, None) for p in near(NEW)}
    withheld["package.json"] = FileTexts(None, None, withheld="too many")
    change = _new_file_changes(withheld)
    problem, _ = judging.new_module(change, change.files[0], {})
    assert problem is not None


def test_a_rubric_example_has_no_base_beyond_what_it_names() -> None:
    """An example's change is the files it names: a configuration it does
    not name is absent, one it names is read."""
    from gate.changes.example import changes_from_example

    new = {"path": NEW, "status": "added", "after": VITEST}
    change = changes_from_example([new])
    assert judging.new_module(change, change.files[0], {}) == (None, 1)
    config = {"path": "vitest.config.ts", "before": VITEST_OFF["test.isolate"]["vitest.config.ts"]}
    change = changes_from_example([new, {**config, "after": config["before"]}])
    problem, _ = judging.new_module(change, change.files[0], {})
    assert problem is not None and "vi.mock" in problem


def _api(base: dict[str, str], monkeypatch: pytest.MonkeyPatch, cap: int | None = None) -> str:
    """test_drift's message on a PR adding NEW, read through the contents
    API (`read_file` a stand-in over `base` and the head)."""
    from gate.changes import api
    from gate.github.client_types import PullFile
    from gate.model.rubric import Rule
    from gate.rules import REGISTRY, text_wants

    if cap is not None:
        monkeypatch.setattr(api, "NEAR_READS", cap)
    rule = Rule(id="TESTS", kind="test_drift", params={"paths": ["**/*.test.ts"]})
    head = {**base, NEW: VITEST}

    def read_file(ref: str, path: str) -> bytes | None:
        text = (head if ref == "head" else base).get(path)
        return None if text is None else text.encode()

    found = api.listing([PullFile(NEW, "added", 3, 0, 3, None, True)], 1)
    changes = api.changes_from_api(
        found, base="base", head="head", content_files=text_wants([rule]), read_file=read_file
    )
    return REGISTRY["test_drift"].judge(rule, changes).message


def test_the_api_mode_reads_the_base_configuration_and_fails_closed_past_its_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert "vi.mock" not in _api({}, monkeypatch)
    assert "vi.mock" in _api(VITEST_OFF["test.isolate"], monkeypatch)
    assert "vi.mock" in _api(VITEST_OFF["nested package"], monkeypatch)
    assert "vi.mock" in _api({}, monkeypatch, cap=5), "past the cap: not all read, shared"
