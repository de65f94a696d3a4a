"""test_drift on a NEW runner configuration that governs new tests only
(`gate.drift.growth.scoped`): pytest's, tox's, Mocha's, Karma's,
Playwright's, Cypress's and Go's files (and Jest's and Vitest's) in a
folder that holds no test and no runner configuration at base, naming no
place outside it; at the root, only where the base holds no test at all.
Each hostile twin, the same file where a test exists at base at any depth,
climbing out of its folder (generated over the spellings of a path that
leaves it), declaring a pytest plugin, at the root of a tested base, beside
an existing test moved in, or judged from a source that cannot list the
tree, still fails.  Real git repositories (`tests.rulecase`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from gate.changes.api import base_tree
from gate.changes.git import changes_from_git
from gate.drift import growth
from gate.git.repo import Repo
from gate.model.rubric import DEFAULT_TESTS
from gate.rules import test_drift, text_wants
from tests.gitrepo import GitRepo
from tests.rulecase import Files, RuleCase

DRIFT = RuleCase("test_drift", id="T", paths=list(DEFAULT_TESTS))
SOURCES = ["git", "patch"]
PY_TEST = "def test_new():\n    assert 1 + 1 == 2\n"
JS_TEST = "import { test, expect } from 'vitest';\n\ntest('new', () => { expect(1).toBe(1); });\n"
GO_TEST = 'package fresh\n\nimport "testing"\n\nfunc TestNew(t *testing.T) {}\n'

# Each configuration with `{P}` where it names a place: `INSIDE` (a folder
# of its own) for the passing shape, each of `CLIMBING` for a twin.
INSIDE = "./tests"
CLIMBING = (
    "..",
    "../core",
    "./../core",
    "tests/../..",
    "..\\core",
    "/repo/core",
    "~/core",
    "$HOME/core",
    "${HOME}/core",
    "{toxinidir}/..",
    "C:\\repo",
)
# tox's substitutions, places in the INI and TOML files only
TOX_PLACES = ("{env:ROOT}", "{tox_root}", "{work_dir}")
JS = (".js", ".ts")
CONFIGS: dict[str, tuple[str, str]] = {
    # name -> (text, a new test file beside it)
    "pytest.ini": ("[pytest]\ntestpaths = {P}\naddopts = -q\n", "tests/test_new.py"),
    ".pytest.ini": ("[pytest]\ntestpaths = {P}\n", "tests/test_new.py"),
    "pytest.toml": ('[pytest]\ntestpaths = ["{P}"]\n', "tests/test_new.py"),
    "tox.ini": (
        "[tox]\nenv_list = py3\n\n[testenv]\ncommands = pytest {P}\n\n[pytest]\naddopts = -q\n",
        "tests/test_new.py",
    ),
    "tox.toml": ('env_list = ["py3"]\n[env_run_base]\ncommands = [["pytest", "{P}"]]\n', ""),
    "pyproject.toml": (
        '[project]\nname = "fresh"\nversion = "0.1.0"\n\n'
        '[tool.pytest.ini_options]\ntestpaths = ["{P}"]\n',
        "tests/test_new.py",
    ),
    "setup.cfg": ("[metadata]\nname = fresh\n\n[tool:pytest]\ntestpaths = {P}\n", ""),
    ".mocharc.yml": ("spec: '{P}/**/*.spec.js'\ntimeout: 5000\n", "test/a.spec.js"),
    ".mocharc.json": ('{"spec": ["{P}"], "timeout": 5000}\n', ""),
    "karma.conf.js": (
        "module.exports = function (config) {\n"
        "  config.set({ basePath: '{P}', frameworks: ['jasmine'], files: ['src/**/*.spec.js'] });\n"
        "};\n",
        "src/a.spec.js",
    ),
    "playwright.config.ts": (
        "import { defineConfig } from '@playwright/test';\n\n"
        "export default defineConfig({ testDir: '{P}', retries: 2 });\n",
        "tests/a.spec.ts",
    ),
    "cypress.config.ts": (
        "import { defineConfig } from 'cypress';\n\n"
        "export default defineConfig({ e2e: { specPattern: '{P}/**/*.cy.ts' } });\n",
        "",
    ),
    "vitest.config.ts": (
        "import { defineConfig } from 'vitest/config';\n"
        "import { shared } from '../../vitest.shared';\n\n"
        "export default defineConfig({ ...shared, test: { include: ['{P}/**/*.test.ts'] } });\n",
        "tests/a.test.ts",
    ),
    "jest.config.js": (
        "const base = require('../../jest.base.js');\n\n"
        "module.exports = { ...base, testMatch: ['{P}/**/*.test.js'] };\n",
        "tests/a.test.js",
    ),
    "go.work": ("go 1.22\n\nuse {P}\n", ""),
    "pom.xml": (
        '<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
        "  <modelVersion>4.0.0</modelVersion>\n"
        "  <parent><groupId>g</groupId><artifactId>p</artifactId><version>1</version></parent>\n"
        "  <artifactId>fresh</artifactId>\n  <version>${project.parent.version}</version>\n"
        "  <dependencies><dependency><groupId>org.junit.jupiter</groupId>"
        "<artifactId>junit-jupiter</artifactId><version>${junit.version}</version>"
        "<scope>test</scope></dependency></dependencies>\n"
        "  <build><testSourceDirectory>{P}</testSourceDirectory></build>\n</project>\n",
        "",
    ),
}
GO_MOD = "module example.com/fresh\n\ngo 1.22\n\nrequire github.com/stretchr/testify v1.9.0\n"
TEXT = {
    "pytest.ini": "[pytest]\naddopts = -q\n",
    "go.mod": GO_MOD,
    **{name: text.replace("{P}", INSIDE) for name, (text, _) in CONFIGS.items()},
}
BESIDE = {name: beside for name, (_, beside) in CONFIGS.items()} | {"go.mod": "fresh_test.go"}


def _test_text(path: str) -> str:
    return GO_TEST if path.endswith(".go") else PY_TEST if path.endswith(".py") else JS_TEST


# The base: tests in `core/`, a folder `tools/web/` of sources and prose.
BASE = {
    "core/tests/test_core.py": "def test_core():\n    assert True\n",
    "core/src/core.py": "X = 1\n",
    "tools/web/src/index.ts": "export const x = 1;\n",
    "tools/web/docs/guide.md": "guide\n",
    "tools/web/README.md": "web\n",
}
FOLDERS = ["tools/fresh", "tools/web", "tools/web/src/deep"]  # absent, present, nested


def _added(folder: str, name: str, *, with_test: bool) -> dict[str, str]:
    out = {f"{folder}/{name}": TEXT[name]}
    if with_test and BESIDE[name]:
        out[f"{folder}/{BESIDE[name]}"] = _test_text(BESIDE[name])
    return out


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("with_test", [False, True])
@pytest.mark.parametrize("folder", FOLDERS)
@pytest.mark.parametrize("name", sorted(TEXT))
def test_a_new_configuration_of_an_untested_folder_governs_new_tests(
    name: str, folder: str, with_test: bool, source: str
) -> None:
    head = BASE | _added(folder, name, with_test=with_test)
    result = DRIFT.check(Files(base=BASE, head=head), source=source)  # type: ignore[arg-type]
    assert result.passed, result.message


# Where a test at base makes the folder tested: at any depth, any language.
TESTED_AT = [
    "tests/test_old.py",
    "src/deep/er/old.test.ts",
    "pkg/x/old_test.go",
    "lib/__tests__/old.js",
    "conftest.py",
    "pkg/testdata/in.txt",
    "spec/models/user_spec.rb",
]


@pytest.mark.parametrize("where", TESTED_AT)
@pytest.mark.parametrize("name", sorted(TEXT))
def test_the_same_file_where_a_test_exists_at_any_depth_is_drift(name: str, where: str) -> None:
    base = BASE | {f"tools/web/{where}": _test_text(where)}
    head = base | _added("tools/web", name, with_test=True)
    result = DRIFT.check(Files(base=base, head=head))
    assert not result.passed, (name, where)
    assert f"tools/web/{name}" in result.paths


CLIMBERS = [
    (name, p)
    for name in sorted(CONFIGS)
    for p in (CLIMBING if name.endswith((*JS, ".xml")) else CLIMBING + TOX_PLACES)
]


@pytest.mark.parametrize(("name", "place"), CLIMBERS)
def test_a_new_configuration_naming_a_place_outside_its_folder_is_drift(
    name: str, place: str
) -> None:
    text = CONFIGS[name][0].replace("{P}", place)
    assert not growth.stays_inside(f"tools/fresh/{name}", text), (name, place)
    head = BASE | {f"tools/fresh/{name}": text}
    result = DRIFT.check(Files(base=BASE, head=head))
    assert not result.passed, (name, place)


PY_TABLE = '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
REACHING = {
    "jest.config.js": [
        "module.exports = { rootDir: '.', testMatch: ['**/*.test.js'] };\n",
        "module.exports = { projects: ['<rootDir>'] };\n",
        "module.exports = { roots: ['<rootDir>/src'] };\n",
        "module.exports = { globalSetup: './setup.js' };\n",
        "module.exports = { 'rootDir': __dirname };\n",
        "module.exports = { rootDir: process.cwd() };\n",
        "module.exports = { rootDir: require('path').resolve(__dirname, '..') };\n",
        "const p = require('path');\n"
        "module.exports = { testMatch: [p.join(p.dirname(__dirname), 'x')] };\n",
        "const p = require('path');\nmodule.exports = { testMatch: [p.resolve('core')] };\n",
    ],
    "playwright.config.ts": [
        "export default {workers: 2, testDir: '/'};\n",
        "import path from 'path';\nexport default { testDir: path.dirname(__dirname) };\n",
        "import { fileURLToPath } from 'url';\n"
        "export default { testDir: fileURLToPath('file:///repo/core') };\n",
        "import os from 'os';\nexport default { testDir: os.homedir() };\n",
    ],
    "karma.conf.js": ["module.exports = (c) => c.set({ basePath: process.cwd() });\n"],
    "vitest.config.ts": [
        "export default { test: { root: process.cwd() } };\n",
        "export default { test: { dir: 'src' } };\n",
        "export default { test: { projects: ['packages/*'] } };\n",
        "export default { test: { workspace: ['.'] } };\n",
        "export default { test: { globalSetup: ['./g.ts'] } };\n",
        "export default { test: { include: [`${__dirname}/../**`] } };\n",
    ],
    "vitest.setup.ts": ["import { x } from 'y';\nprocess.chdir('/');\n"],
    "pyproject.toml": [
        '[project]\nname = "fresh"\n\n[project.entry-points.pytest11]\nfresh = "fresh.plugin"\n',
        '[project]\nname = "fresh"\n\n[project.entry-points."pytest\\u0031\\u0031"]\nf = "f.p"\n',
        '[tool.poetry.plugins."pytest11"]\nfresh = "fresh.plugin"\n',
        '[tool.flit.entrypoints.pytest11]\nfresh = "fresh.plugin"\n',
        # build code beside a pytest table (without one, no runner reads the file)
        '[build-system]\nrequires = []\nbuild-backend = "b"\nbackend-path = ["."]\n' + PY_TABLE,
        '[tool.hatch.build.hooks.custom]\npath = "hatch_build.py"\n' + PY_TABLE,
    ],
    "setup.cfg": [
        "[options.entry_points]\npytest11 =\n    fresh = fresh.plugin\n",
        "[options]\ncmdclass =\n    build_py = fresh.build.Build\n[tool:pytest]\naddopts = -q\n",
    ],
}
REACHERS = [(n, i) for n, texts in sorted(REACHING.items()) for i in range(len(texts))]


@pytest.mark.parametrize(("name", "index"), REACHERS)
def test_a_new_configuration_that_reaches_other_tests_is_drift(name: str, index: int) -> None:
    head = BASE | {f"tools/fresh/{name}": REACHING[name][index]}
    result = DRIFT.check(Files(base=BASE, head=head))
    assert not result.passed, (name, index)
    assert f"tools/fresh/{name}" in result.paths


# Files that reach beyond their folder whatever they say.
NEVER = {
    "conftest.py": "import pytest\n",
    "babel.config.js": "module.exports = {};\n",
    ".babelrc": "{}\n",
    ".npmrc": "fund=false\n",
    "__mocks__/fs.js": "module.exports = {};\n",
    "noxfile.py": "import nox\n",
    "setup.py": "import setuptools\nsetuptools.setup(entry_points={'console_scripts': []})\n",
    ".coveragerc": "[run]\nbranch = True\n",
}


@pytest.mark.parametrize("name", sorted(NEVER))
def test_a_file_that_reaches_the_whole_run_is_drift_even_in_an_untested_folder(name: str) -> None:
    head = BASE | {f"tools/fresh/{name}": NEVER[name], "tools/fresh/tests/test_a.py": PY_TEST}
    result = DRIFT.check(Files(base=BASE, head=head))
    assert not result.passed, name
    assert f"tools/fresh/{name}" in result.paths


# --- at the root: only a base without tests ------------------------------

BARE = {"LICENSE": "MIT\n", "README.md": "# fresh\n", "docs/intro.md": "intro\n"}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("name", sorted(TEXT))
def test_a_root_configuration_of_a_base_without_tests_passes(name: str, source: str) -> None:
    head = BARE | {name: TEXT[name]}
    if BESIDE[name]:
        head |= {BESIDE[name]: _test_text(BESIDE[name])}
    result = DRIFT.check(Files(base=BARE, head=head), source=source)  # type: ignore[arg-type]
    assert result.passed, result.message


def test_a_first_module_of_a_repository_without_tests_passes() -> None:
    """A repository of a LICENSE and a README gets its go.mod, its code and
    its first test."""
    head = BARE | {
        "go.mod": GO_MOD,
        "main.go": "package main\n\nfunc main() {}\n",
        "main_test.go": GO_TEST.replace("fresh", "main"),
    }
    DRIFT.passes(Files(base=BARE, head=head))


@pytest.mark.parametrize("where", TESTED_AT)
@pytest.mark.parametrize("name", sorted(TEXT))
def test_a_root_configuration_of_a_tested_base_is_drift(name: str, where: str) -> None:
    base = BARE | {f"deep/er/{where}": _test_text(where)}
    head = base | {name: TEXT[name]}
    result = DRIFT.check(Files(base=base, head=head))
    assert not result.passed, (name, where)
    assert name in result.paths


def test_a_root_tox_ini_with_a_pytest_section_is_drift_where_tests_exist() -> None:
    head = BASE | {"tox.ini": TEXT["tox.ini"]}
    assert "tox.ini" in DRIFT.check(Files(base=BASE, head=head)).paths


# --- an existing test moved in; a source that cannot list the tree -------


@pytest.mark.parametrize("name", ["pytest.ini", "pyproject.toml", "tox.ini"])
def test_an_existing_test_moved_into_the_folder_is_drift(name: str) -> None:
    moved = {k: v for k, v in BASE.items() if k != "core/tests/test_core.py"}
    head = moved | _added("tools/fresh", name, with_test=False)
    head |= {"tools/fresh/tests/test_core.py": BASE["core/tests/test_core.py"]}
    result = DRIFT.check(Files(base=BASE, head=head))
    assert not result.passed, result.message


def _api(base: Mapping[str, str], head: Mapping[str, str]) -> test_drift.RuleResult:
    """The verdict with the base tree the contents API lists: one folder a
    request, never a folder with every folder below it."""
    changes = DRIFT.change(Files(base=base, head=head))

    def list_folder(ref: str, folder: str) -> list[tuple[str, str]] | None:
        prefix = f"{folder}/" if folder else ""
        found: dict[str, str] = {}
        for path in base:
            if path.startswith(prefix):
                name, _, rest = path[len(prefix) :].partition("/")
                found[name] = "dir" if rest else "file"
        return sorted(found.items()) if found or not folder else None

    tree = base_tree(list_folder, "base", changes.files)
    api = dataclasses.replace(changes, source="api", tree=tree)
    rule = DRIFT.rubric().rules[0]
    return test_drift.check(rule, api)


@pytest.mark.parametrize("name", ["pytest.ini", "go.mod", "playwright.config.ts"])
def test_a_source_that_cannot_list_the_tree_keeps_the_strict_verdict(name: str) -> None:
    # tools/web has folders below it, which the API does not list
    assert not _api(BASE, BASE | _added("tools/web", name, with_test=False)).passed
    # at the root: the whole base, which the API does not list
    assert not _api(BARE, BARE | {name: TEXT[name]}).passed
    # a folder absent at base is known to hold nothing
    assert _api(BASE, BASE | _added("tools/fresh", name, with_test=False)).passed


def test_only_a_new_file_is_scoped() -> None:
    """An existing configuration of an untested folder, changed, is still
    judged as a change."""
    base = BASE | {"tools/web/pytest.ini": "[pytest]\naddopts = -q\n"}
    head = base | {"tools/web/pytest.ini": "[pytest]\naddopts = -q -x\n"}
    assert not DRIFT.check(Files(base=base, head=head)).passed
    base = BASE | {"tools/web/go.mod": GO_MOD}
    head = base | {"tools/web/go.mod": GO_MOD + "\nignore ./x\n"}
    assert not DRIFT.check(Files(base=base, head=head)).passed


@pytest.mark.parametrize("name", sorted(TEXT))
def test_stays_inside_reads_the_passing_shapes_as_inside(name: str) -> None:
    assert growth.stays_inside(f"tools/fresh/{name}", TEXT[name])
    # a key beginning like a tox substitution is no place in JavaScript
    inline = "export default defineConfig({workers: 2, testDir: './e2e'});\n"
    assert growth.stays_inside("tools/fresh/playwright.config.ts", inline)


@pytest.mark.parametrize("name", ["go.mod", "pyproject.toml", "pytest.ini", "go.work"])
def test_a_new_configuration_that_is_a_symlink_is_drift(repo: GitRepo, name: str) -> None:
    """A link's text is its target's path: the file it stands for is elsewhere."""
    repo.write_many(BASE | {f"core/{name}": TEXT[name]})
    base = repo.commit("base")
    repo.symlink(f"tools/fresh/{name}", f"../../core/{name}")
    head = repo.commit("a linked configuration")
    rubric = DRIFT.rubric()
    changes = changes_from_git(Repo(repo.root), base, head, text_wants(rubric.rules))
    result = test_drift.check(rubric.rules[0], changes)
    assert not result.passed, name
    assert f"tools/fresh/{name}" in result.paths


@pytest.mark.parametrize(
    "place",
    ["${maven.multiModuleProjectDirectory}/core", "${project.basedir}/x", "${rootDir}", "${a/b}"],
)
def test_a_new_pom_naming_a_place_by_a_property_is_drift(place: str) -> None:
    head = BASE | {"tools/fresh/pom.xml": CONFIGS["pom.xml"][0].replace("{P}", place)}
    result = DRIFT.check(Files(base=BASE, head=head))
    assert not result.passed, place
