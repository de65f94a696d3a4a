"""test_drift on runner configuration that only makes room for new tests
(`gate.drift.growth`): a Jest or Vitest configuration gaining literal
collection entries that name new test files, package.json scripts that
only grew, the scripts of a package folder without tests at base, and a
new Jest or Vitest configuration in such a folder pass; each hostile twin,
the same shape bending how an existing test runs, still fails.  Real git
repositories (`tests.rulecase`), both builders that list the base tree."""

from __future__ import annotations

import json

import pytest

from gate.drift import growth
from gate.model.rubric import DEFAULT_TESTS
from tests.rulecase import Files, RuleCase

DRIFT = RuleCase("test_drift", id="T", paths=list(DEFAULT_TESTS))
SOURCES = ["git", "patch"]
NEW_TEST = "import { test, expect } from 'vitest';\n\ntest('new', () => { expect(1).toBe(1); });\n"
OLD_TEST = NEW_TEST.replace("'new'", "'old'")

# --- a Jest or Vitest configuration gaining entries ----------------------

VITEST = """import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 5000,
    setupFiles: ['helpers/setup.ts'],
    exclude: ['dist/**'],
    include: [
      'helpers/a.test.ts',
      'helpers/b.test.ts',
    ],
    coverage: { include: ['src/**/*.ts'] },
  },
});
"""
PROJECTS = """import { defineConfig } from 'vitest/config';
const rootDir = process.cwd();

export default defineConfig({
  test: {
    projects: [
      {
        root: rootDir,
        test: {
          name: 'workspace',
          include: ['helpers/a.test.ts', 'helpers/b.test.ts'],
        },
      },
    ],
  },
});
"""
JEST = """module.exports = {
  testMatch: ['<rootDir>/helpers/a.test.ts', '<rootDir>/helpers/b.test.ts'],
  testTimeout: 5000,
};
"""
CONFIGS = {
    "vitest.config.ts": VITEST,
    "vitest.integration.config.mts": PROJECTS,
    "jest.config.js": JEST,
    "packages/kit/vitest.config.ts": VITEST,
}
BASE_FILES = {"helpers/a.test.ts": OLD_TEST, "helpers/b.test.ts": OLD_TEST, "src/x.ts": "x\n"}


def _entry(config: str, value: str) -> str:
    return f"'<rootDir>/{value}'" if config.startswith("jest") else f"'{value}'"


def _grown(config: str, text: str, value: str, where: str) -> str:
    """`text` with the entry `value` added to its collection list."""
    first = _entry(config, "helpers/a.test.ts")
    second = _entry(config, "helpers/b.test.ts")
    new = _entry(config, value)
    if where == "first":
        return text.replace(first, f"{new}, {first}", 1)
    if where == "middle":
        return text.replace(second, f"{new},\n      {second}", 1)
    return text.replace(second, f"{second}, {new}", 1)


def _tree(config: str, base_files: dict[str, str]) -> dict[str, str]:
    folder = config.rpartition("/")[0]
    prefix = f"{folder}/" if folder else ""
    return {prefix + p: t for p, t in base_files.items()} | {config: CONFIGS[config]}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize("config", list(CONFIGS))
def test_an_entry_naming_a_new_test_file_is_a_new_test(
    config: str, where: str, source: str
) -> None:
    base = _tree(config, BASE_FILES)
    prefix = config.rpartition("/")[0] + "/" if "/" in config else ""
    head = base | {
        config: _grown(config, CONFIGS[config], "helpers/new.test.ts", where),
        f"{prefix}helpers/new.test.ts": NEW_TEST,
    }
    result = DRIFT.check(Files(base=base, head=head), source=source)  # type: ignore[arg-type]
    assert result.passed, result.message
    assert "1 new test in new test files" in result.message


def _hostile(config: str) -> dict[str, tuple[str, dict[str, str]]]:
    """Twins of the new entry that bend an existing run: (head config text,
    the files the change adds), keyed by what they do."""
    text = CONFIGS[config]
    added = {"helpers/new.test.ts": NEW_TEST}
    grown = _grown(config, text, "helpers/new.test.ts", "last")
    out = {
        "names an existing file": (_grown(config, text, "src/x.ts", "last"), added),
        "a glob": (_grown(config, text, "helpers/*.test.ts", "last"), added),
        "a glob matching only the new name": (
            _grown(config, text, "helpers/ne?.test.ts", "last"),
            added,
        ),
        "climbs out": (_grown(config, text, "../helpers/new.test.ts", "last"), added),
        "a new file that is no test path": (
            _grown(config, text, "helpers/new.ts", "last"),
            {"helpers/new.ts": NEW_TEST},
        ),
        "names no file the change adds": (grown, {}),
        "an existing entry dropped": (
            grown.replace(_entry(config, "helpers/a.test.ts") + ",", "", 1),
            added,
        ),
        "an existing entry edited": (
            grown.replace("helpers/a.test.ts", "helpers/A.test.ts", 1),
            added,
        ),
        "an option changed as well": (grown.replace("5000", "1", 1), added)
        if "5000" in grown
        else None,
        "a template string": (
            grown.replace("'helpers/new.test.ts'", "`helpers/new.test.ts`").replace(
                "'<rootDir>/helpers/new.test.ts'", "`<rootDir>/helpers/new.test.ts`"
            ),
            added,
        ),
        "an escape in the string": (grown.replace("new.test", "new\\x2etest"), added),
        "a comment added": (
            grown.replace("export default", "// c\nexport default").replace(
                "module.exports", "// c\nmodule.exports"
            ),
            added,
        ),
    }
    if text is VITEST:
        out |= {
            "an exclude entry": (
                text.replace("'dist/**'", "'dist/**', 'helpers/new.test.ts'"),
                added,
            ),
            "a setup file": (
                text.replace("'helpers/setup.ts'", "'helpers/setup.ts', 'helpers/new.test.ts'"),
                added,
            ),
            "a coverage include entry": (
                text.replace("'src/**/*.ts'", "'src/**/*.ts', 'helpers/new.test.ts'"),
                added,
            ),
            "an include list where there was none": (
                text.replace(
                    "include: [\n      'helpers/a.test.ts',\n      'helpers/b.test.ts',\n    ],",
                    "include: ['helpers/new.test.ts'],",
                ),
                added,
            ),
            "a list outside the config call": (
                text.replace(
                    "export default defineConfig({",
                    "const t = { include: ['helpers/new.test.ts'] };\n"
                    "export default defineConfig({",
                ),
                added,
            ),
        }
    return {k: v for k, v in out.items() if v is not None}


HOSTILE = [(c, k) for c in CONFIGS for k in _hostile(c)]


@pytest.mark.parametrize(("config", "twin"), HOSTILE)
def test_an_entry_that_bends_an_existing_run_is_still_drift(config: str, twin: str) -> None:
    text, added = _hostile(config)[twin]
    base = _tree(config, BASE_FILES)
    prefix = config.rpartition("/")[0] + "/" if "/" in config else ""
    head = base | {config: text} | {prefix + p: t for p, t in added.items()}
    assert text != CONFIGS[config]
    result = DRIFT.check(Files(base=base, head=head))
    assert not result.passed, twin
    assert config in result.paths


def test_an_entry_relative_to_another_folder_names_nothing_new() -> None:
    """packages/kit/vitest.config.ts reads its entries from packages/kit/:
    a root-relative entry naming the new file there is not the new file."""
    config = "packages/kit/vitest.config.ts"
    base = _tree(config, BASE_FILES)
    grown = _grown(config, VITEST, "packages/kit/helpers/new.test.ts", "last")
    head = base | {config: grown, "packages/kit/helpers/new.test.ts": NEW_TEST}
    assert not DRIFT.check(Files(base=base, head=head)).passed


@pytest.mark.parametrize(
    "path", ["vitest.config.ts", "vite.config.mts", "jest.config.cjs", "vitest.workspace.ts"]
)
def test_only_jest_and_vitest_configurations_are_read(path: str) -> None:
    assert growth.config_grew(path, VITEST, VITEST, lambda p: True) is False  # nothing new
    grown = _grown("vitest.config.ts", VITEST, "helpers/new.test.ts", "last")
    assert growth.config_grew(path, VITEST, grown, lambda p: p == "helpers/new.test.ts")
    for other in (".mocharc.js", "karma.conf.js", "playwright.config.ts", "vitest.config.json"):
        assert not growth.config_grew(other, VITEST, grown, lambda p: True)


# --- package.json scripts that only grew ---------------------------------

SCRIPTS = {
    "build": "tsc",
    "lint": "eslint .",
    "test": "vitest run",
    "test:all": "run-s test:unit",
    "test:unit": "vitest run unit",
}
PACKAGE = {"name": "kit", "version": "1.0.0", "scripts": SCRIPTS, "config": {"port": 1}}


def _package(scripts: dict[str, str], **more: object) -> str:
    return json.dumps({**PACKAGE, "scripts": scripts, **more}, indent=2) + "\n"


GROWN = {
    "a script of its own": {"docs": "node scripts/docs.mjs"},
    "a test-named script nothing runs": {"api-contract:test": "vitest run contract"},
    "several": {"a": "node a.js", "b": "npm run a", "integration:test": "vitest run x"},
    "one calling an existing script": {"ci": "npm run lint && npm run test"},
}
BENT = {
    "a test script where there was none": (
        {k: v for k, v in SCRIPTS.items() if k != "test"},
        {"test": "vitest run --passWithNoTests"},
    ),
    "pretest": (SCRIPTS, {"pretest": "node patch.js"}),
    "posttest": (SCRIPTS, {"posttest": "node x.js"}),
    "postinstall": (SCRIPTS, {"postinstall": "node patch.js"}),
    "prepare": (SCRIPTS, {"prepare": "node patch.js"}),
    "pre of an existing script": (SCRIPTS, {"pretest:unit": "node patch.js"}),
    "post of an existing script": (SCRIPTS, {"posttest:all": "node x.js"}),
    "picked by an existing pattern": (
        {**SCRIPTS, "test:all": "run-s test:*"},
        {"test:zz": "node x.js"},
    ),
}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("shape", list(GROWN))
def test_new_scripts_nothing_runs_by_themselves_pass(shape: str, source: str) -> None:
    base = {"package.json": _package(SCRIPTS), "test/a.test.ts": OLD_TEST}
    head = base | {"package.json": _package({**SCRIPTS, **GROWN[shape]})}
    result = DRIFT.check(Files(base=base, head=head), source=source)  # type: ignore[arg-type]
    assert result.passed, result.message


@pytest.mark.parametrize("shape", list(BENT))
def test_a_new_script_something_runs_is_still_drift(shape: str) -> None:
    before, added = BENT[shape]
    base = {"package.json": _package(before), "test/a.test.ts": OLD_TEST}
    head = base | {"package.json": _package({**before, **added})}
    result = DRIFT.check(Files(base=base, head=head))
    assert not result.passed, shape
    assert "package.json" in result.paths


@pytest.mark.parametrize(
    "edit",
    [
        {"lint": "eslint . && npm run docs"},  # an existing script edited to call the new one
        {"build": "tsc -p other.json"},
        {"test:unit": "vitest run unit --bail 1"},
    ],
)
def test_new_scripts_beside_an_edited_one_are_still_drift(edit: dict[str, str]) -> None:
    keys = ("scripts", "config")
    grown = {**SCRIPTS, "docs": "node d.js", **edit}
    assert not growth.scripts_grew(keys, _package(SCRIPTS), _package(grown))
    removed = {k: v for k, v in SCRIPTS.items() if k != "lint"} | {"docs": "node d.js"}
    assert not growth.scripts_grew(keys, _package(SCRIPTS), _package(removed))
    assert not growth.scripts_grew(
        keys, _package(SCRIPTS), _package({**SCRIPTS, "docs": "x"}, config={"port": 2})
    )


# --- a package folder without tests --------------------------------------

ROOT = json.dumps(
    {"name": "root", "workspaces": ["packages/*"], "scripts": {"test": "npm test -ws"}}
)
SERVER = {
    "name": "server",
    "scripts": {
        "build": "tsc && shx cp instructions.md dist/",
        "prepare": "npm run build",
        "start": "node dist/index.js",
    },
}


def _json(data: object) -> str:
    return json.dumps(data, indent=2) + "\n"


MONOREPO = {
    "package.json": ROOT,
    "packages/core/package.json": _json({"name": "core", "scripts": {"test": "vitest run"}}),
    "packages/core/test/a.test.ts": OLD_TEST,
    "packages/server/package.json": _json(SERVER),
    "packages/server/src/index.ts": "export {};\n",
    "packages/server/docs/x.md": "x\n",
}


def _server(**scripts: str | None) -> dict[str, str]:
    merged = {**SERVER["scripts"], **scripts}  # type: ignore[dict-item]
    kept = {k: v for k, v in merged.items() if v is not None}
    return {"packages/server/package.json": _json({**SERVER, "scripts": kept})}


QUIET = {
    "the build an install runs": _server(
        build="tsc && shx cp -r docs dist/ && shx chmod +x dist/*.js"
    ),
    "start scripts": _server(start=None, **{"start:stdio": "node dist/index.js stdio"}),
    "a test script with its new test": _server(test="vitest run")
    | {"packages/server/test/new.test.ts": NEW_TEST},
    "a new package": {
        "packages/fresh/package.json": _json(
            {"name": "fresh", "scripts": {"test": "vitest run", "build": "tsc"}}
        ),
        "packages/fresh/test/new.test.ts": NEW_TEST,
    },
    "a new package taking vitest from the workspace": {
        "packages/fresh/package.json": _json(
            {
                "name": "fresh",
                "scripts": {"test": "vitest run", "lint": "prettier --ignore-path ../../.x ."},
                "devDependencies": {"vitest": "catalog:dev", "@kit/vitest-config": "workspace:^"},
            }
        ),
    },
    "a new package's vitest config": {
        "packages/fresh/vitest.config.ts": VITEST,
        "packages/fresh/helpers/a.test.ts": NEW_TEST,
    },
    "a vitest config in a package without tests": {
        "packages/server/vitest.config.ts": VITEST,
        "packages/server/test/new.test.ts": NEW_TEST,
    },
}
LOUD = {
    "the root's scripts": {
        "package.json": ROOT.replace("npm test -ws", "npm test -ws --if-present")
    },
    "a package with tests": {
        "packages/core/package.json": _json(
            {"name": "core", "scripts": {"test": "vitest run --bail 1"}}
        )
    },
    "a postinstall running code": _server(postinstall="node patch.js"),
    "an install build climbing out": _server(build="tsc --outDir ../../node_modules/vitest/dist"),
    "an install build into node_modules": _server(build="tsc --outDir node_modules/vitest"),
    "an install running code through npm run": _server(prepare="npm run build && npm run start"),
    "a test script reaching other packages": _server(test="vitest run --root ../.."),
    "a test script moving away": _server(test="cd ../core && vitest run"),
    "a test script with a variable": _server(test="vitest run $ROOT"),
    "a test script over the workspaces": _server(test="npm test --workspaces"),
    "a new package taking vitest from a folder": {
        "packages/fresh/package.json": _json(
            {"name": "fresh", "devDependencies": {"vitest": "file:../../vendor/vitest"}}
        ),
    },
    "a new package taking vitest from git": {
        "packages/fresh/package.json": _json(
            {"name": "fresh", "devDependencies": {"vitest": "github:someone/vitest"}}
        ),
    },
    "a runner key": {
        "packages/server/package.json": _json({**SERVER, "jest": {"roots": ["../core"]}})
    },
    "a vitest config where tests are": {"packages/core/vitest.config.ts": VITEST},
    "a setup file where tests are": {"packages/core/vitest.setup.ts": "globalThis.x = 1;\n"},
    "a vitest config at the root": {"vitest.config.ts": VITEST},
    "a conftest in a new folder": {"packages/fresh/conftest.py": "x = 1\n"},
}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("shape", list(QUIET))
def test_a_package_without_tests_governs_new_tests_only(shape: str, source: str) -> None:
    head = MONOREPO | QUIET[shape]
    result = DRIFT.check(Files(base=MONOREPO, head=head), source=source)  # type: ignore[arg-type]
    assert result.passed, result.message


@pytest.mark.parametrize("shape", list(LOUD))
def test_a_package_with_tests_or_a_script_leaving_its_package_is_drift(shape: str) -> None:
    head = MONOREPO | LOUD[shape]
    result = DRIFT.check(Files(base=MONOREPO, head=head))
    assert not result.passed, shape


@pytest.mark.parametrize(
    "where",
    [
        "packages/server/src/deep/__tests__/a.ts",
        "packages/server/src/x.spec.ts",
        "packages/server/jest.config.js",
        "packages/server/test/helper.ts",
    ],
)
def test_a_test_anywhere_below_the_package_makes_it_tested(where: str) -> None:
    base = MONOREPO | {where: OLD_TEST}
    head = base | QUIET["the build an install runs"]
    assert not DRIFT.check(Files(base=base, head=head)).passed, where


@pytest.mark.parametrize("block", ["typecheck", "benchmark", "coverage", "browser", "server.deps"])
def test_an_include_outside_test_collection_is_not_read(block: str) -> None:
    """An `include` list under another key than `test`/`projects` names
    other files (type tests, benchmarks, coverage, inlined dependencies)."""
    nested = "{ include: [%s] }"
    for key in reversed(block.split(".")):
        nested = f"{{ {key}: {nested} }}"
    outer = nested[2:-2]  # `typecheck: { include: [...] }`
    base = VITEST.replace("testTimeout: 5000,", f"testTimeout: 5000,\n    {outer % ''},")
    head = VITEST.replace(
        "testTimeout: 5000,", f"testTimeout: 5000,\n    {outer % repr('n.test.ts')},"
    )
    assert base != head
    assert not growth.config_grew("vitest.config.ts", base, head, lambda p: True)
    same = base.replace("testTimeout", "testTimeout").replace(
        "'helpers/b.test.ts',", "'helpers/b.test.ts', 'n.test.ts',"
    )
    assert growth.config_grew("vitest.config.ts", base, same, lambda p: p == "n.test.ts")


# --- a Maven aggregator that only gains modules without tests ------------


def _pom(*modules: str, extra: str = "") -> str:
    listed = "".join(f"    <module>{m}</module>\n" for m in modules)
    return (
        '<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
        "  <modelVersion>4.0.0</modelVersion>\n  <artifactId>parent</artifactId>\n"
        f"  <packaging>pom</packaging>\n  <modules>\n{listed}  </modules>\n{extra}</project>\n"
    )


JAVA_TEST = "class CoreTest {\n  @org.junit.jupiter.api.Test\n  void works() {}\n}\n"
MAVEN = {
    "pom.xml": _pom("core", "api"),
    "core/pom.xml": "<project><artifactId>core</artifactId></project>\n",
    "core/src/test/java/CoreTest.java": JAVA_TEST,
    "api/pom.xml": "<project><artifactId>api</artifactId></project>\n",
    "docs/guide.md": "guide\n",
}
NEW_MODULE = {"conformance/pom.xml": "<project><artifactId>conformance</artifactId></project>\n"}
GROWN_MODULES = {
    "a new module at the end": {"pom.xml": _pom("core", "api", "conformance"), **NEW_MODULE},
    "a new module between": {"pom.xml": _pom("core", "conformance", "api"), **NEW_MODULE},
    "a nested new module": {
        "pom.xml": _pom("core", "api", "docs/conformance"),
        "docs/conformance/pom.xml": NEW_MODULE["conformance/pom.xml"],
        "docs/conformance/src/test/java/NewTest.java": JAVA_TEST.replace("Core", "New"),
    },
    "two new modules, one with its own test": {
        "pom.xml": _pom("core", "api", "conformance", "fresh"),
        **NEW_MODULE,
        "fresh/pom.xml": "<project><artifactId>fresh</artifactId></project>\n",
        "fresh/src/test/java/FreshTest.java": JAVA_TEST.replace("Core", "Fresh"),
    },
}
BENT_MODULES = {
    "a module dropped": {"pom.xml": _pom("core")},
    "a module replaced": {"pom.xml": _pom("core", "conformance"), **NEW_MODULE},
    "modules reordered": {"pom.xml": _pom("api", "core", "conformance"), **NEW_MODULE},
    "a module with tests at base": {"pom.xml": _pom("core", "api", "core/src")},
    "a module climbing out": {"pom.xml": _pom("core", "api", "../elsewhere")},
    "a module by a property": {"pom.xml": _pom("core", "api", "${extra.module}")},
    "an absolute module": {"pom.xml": _pom("core", "api", "/opt/conformance")},
    "a dotted module": {"pom.xml": _pom("core", "api", "./conformance")},
    "a test property beside": {
        "pom.xml": _pom(
            "core",
            "api",
            "conformance",
            extra="  <properties><skipTests>true</skipTests></properties>\n",
        ),
        **NEW_MODULE,
    },
    "a profile gaining a module": {
        "pom.xml": _pom(
            "core",
            "api",
            extra="  <profiles><profile><id>x</id><modules><module>core</module></modules>"
            "</profile></profiles>\n",
        )
    },
}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("shape", list(GROWN_MODULES))
def test_a_pom_that_only_gains_modules_without_tests_passes(shape: str, source: str) -> None:
    head = MAVEN | GROWN_MODULES[shape]
    result = DRIFT.check(Files(base=MAVEN, head=head), source=source)  # type: ignore[arg-type]
    assert result.passed, (shape, result.message)


@pytest.mark.parametrize("shape", list(BENT_MODULES))
def test_a_pom_whose_modules_bend_an_existing_run_is_drift(shape: str) -> None:
    head = MAVEN | BENT_MODULES[shape]
    result = DRIFT.check(Files(base=MAVEN, head=head))
    assert not result.passed, shape
    assert "pom.xml" in result.paths, (shape, result.paths)


# --- a section file removed from a folder that held no test ---------------

PLACEHOLDER = {**SERVER, "scripts": {"test": 'echo "Error: no test specified" && exit 1'}}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("package", [SERVER, PLACEHOLDER])
def test_a_package_json_removed_from_a_folder_without_tests_moved_nothing(
    package: dict[str, object], source: str
) -> None:
    base = MONOREPO | {"packages/server/package.json": _json(package)}
    head = {k: v for k, v in base.items() if k != "packages/server/package.json"}
    result = DRIFT.check(Files(base=base, head=head), source=source)  # type: ignore[arg-type]
    assert result.passed, result.message


REMOVED_LOUD = {
    "a tested package's": ("packages/core/package.json", {}),
    "the root's": ("package.json", {}),
    "one declaring a test tool": (
        "packages/server/package.json",
        {"packages/server/package.json": _json({**SERVER, "devDependencies": {"vitest": "^2"}})},
    ),
    "one above a test at any depth": (
        "packages/server/package.json",
        {"packages/server/src/deep/a.test.ts": OLD_TEST},
    ),
}


@pytest.mark.parametrize("shape", list(REMOVED_LOUD))
def test_a_section_file_removed_where_it_governed_tests_is_drift(shape: str) -> None:
    path, extra = REMOVED_LOUD[shape]
    base = MONOREPO | extra
    head = {k: v for k, v in base.items() if k != path}
    result = DRIFT.check(Files(base=base, head=head))
    assert not result.passed, shape
    assert path in result.paths, (shape, result.paths)
