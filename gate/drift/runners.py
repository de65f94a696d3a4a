"""Which files, and which sections of files, each supported test runner
reads: the one owner of "runner configuration" for `test_drift`.

A runner's configuration decides which tests run (`addopts = "-k nothing"`,
`testPathIgnorePatterns`, a `load_tests` that returns an empty suite), so a
pull request that adds, changes or removes any of it can switch existing
tests off without touching a test file.  Two kinds of place:

* `CONFIG_FILES`: globs of whole files that are runner configuration.  A
  new one, a changed one, a deleted one is drift (but `gate.drift.growth`'s
  shapes, which only make room for new tests).  Each comes from a
  `Runner` record in `RUNNERS`, which names the runner and the page its
  discovery is documented on.
* `SECTION_FILES`: files where a runner reads one part among others
  (`pyproject.toml`'s `[tool.pytest]`, `package.json`'s `"jest"` and test
  scripts).  `section_change(path, base, head)` says whether that part was
  added, changed or removed, or that the gate cannot tell ("unreadable: ...",
  which the rule counts as drift).  TOML and JSON are parsed, so reformatting
  that keeps the values is no change; INI sections are compared line by line
  (`gate.drift.sections` reads each format; this module owns the table).

Every glob starts with `**/`: discovery is by nearest file upward (pytest's
rootdir and inifile, Mocha's parent-directory lookup, tox), or per package
(Jest, Vitest, AVA, Playwright, Karma and package.json in a monorepo, Cargo
workspace members, a nested Go module), or from the folder a CI job `cd`s
into (`.rspec`).  A configuration file in a subfolder therefore counts
exactly as one at the root.

The runners, what each reads here, and the source:

* pytest (docs.pytest.org/en/stable/reference/customize.html): whole
  `pytest.toml`, `.pytest.toml` (pytest 9), `pytest.ini`, `.pytest.ini`,
  `tox.ini` (its `[pytest]` section; tox reads the rest) and every
  `conftest.py` (hooks, fixtures, `pytest_plugins`, `collect_ignore`).
  Sections: `pyproject.toml` `[tool.pytest]` and `[tool.pytest.ini_options]`
  (however the TOML spells the table), `setup.cfg` `[tool:pytest]` (and any
  header that mentions pytest: pytest refuses `[pytest]` there, which stops
  the run).  Plugins the repository's own distribution declares, which
  pytest loads at start once a CI job installs it (`pip install -e .`), and
  which can deselect or skip any test (docs.pytest.org, "Writing plugins",
  setuptools entry points): the `pytest11` group of `pyproject.toml`'s
  `[project.entry-points]`, `[tool.poetry.plugins]` or
  `[tool.flit.entrypoints]`, of `setup.cfg`'s `[options.entry_points]`, and
  a `setup.py` as a whole once either version spells `pytest11` or
  `entry_points`.  Out of reach: `PYTEST_ADDOPTS`, `PYTEST_PLUGINS` and
  `-p` or `-c` on a CI command line (the CI rule's files), plugins a
  dependency installs under a name `gate.drift.vendored` does not list
  (a lock file's test tools are `gate.drift.locks`'), a `setup.py` that builds its entry
  points without spelling either name (string escapes, keyword arguments
  unpacked from computed keys: a setup.py is a program), and since pytest
  8.1 a `pyproject.toml` without a pytest table that becomes the configfile
  when no other one exists (it can move the rootdir, not select tests).
* unittest (docs.python.org/3/library/unittest.html, "load_tests
  Protocol"): discovery imports every package below its start folder and
  calls its `__init__.py`'s `load_tests`, which replaces the package's
  tests; test modules are test paths already.  Section: an `__init__.py` at
  a test path is configuration as a whole once either version can define
  `load_tests` (the name, or a dynamic binding: `globals`, `setattr`, a
  module `__getattr__`, `exec`, `import *`, ...; a text that does not parse
  counts as able; the text is read NFKC-normalized, as Python reads
  identifiers), because `load_tests` may call any helper in the file.  An
  `__init__.py` elsewhere (a source package) counts once either version
  spells `load_tests`: source packages use those dynamic forms for their
  own ends, and discovery reaches them only in a flat layout.
  Out of reach: `-p`/`-s`/`-k` on a command line, Django's `TEST_RUNNER`,
  a `load_tests` built without spelling it in a source package's
  `__init__.py`, and another module that the `__init__.py` imports setting
  the package's `load_tests` (that module is not a test path unless named
  like one).
* tox (tox.wiki, "Configuration"): whole `tox.ini` and `tox.toml`;
  sections `pyproject.toml` `[tool.tox]` and `setup.cfg` `[tox:tox]` and
  `[testenv...]`.  nox (nox.thea.codes): whole `noxfile.py`.  Hatch
  (hatch.pypa.io, "hatch test"): `pyproject.toml` `[tool.hatch.envs]`,
  whole `hatch.toml`.
* Jest (jestjs.io/docs/configuration): whole `jest.config.*` (js, ts, mjs,
  cjs, cts, json) and `jest-preset.*` (a preset a config names); the
  `setupTests.*` that Create React App loads by name; `jest.setup.*`, the
  conventional name of `setupFiles`; Babel's configuration
  (`babel.config.*`, `.babelrc`, `.babelrc.*`), which babel-jest applies to
  every test file by default (jestjs.io/docs/getting-started, "Using
  Babel"): a plugin can rewrite a test to nothing; and every file under a
  `__mocks__/` folder (jestjs.io/docs/manual-mocks): a mock of a package
  from node_modules there is used by every test that imports the package,
  with no `jest.mock` call.  Sections: `package.json` `"jest"` and
  `"babel"`.
  Out of reach: `--config`, `--testPathIgnorePatterns` on a command line
  (the scripts are read, a CI file is not), a setup file under another name.
* Vitest (vitest.dev/config, vitest.dev/guide/projects): whole
  `vitest.config.*`, `vite.config.*` (read when there is no vitest.config),
  `vitest.*.config.*` and `vite.*.config.*` (project configs a `projects`
  glob picks), `vitest.workspace.*` and `vitest.projects.*`;
  `vitest.setup.*`, the conventional name of `setupFiles`; `__mocks__/`,
  whose files a `vi.mock` without a factory takes (vitest.dev/guide/mocking).  `vite.config.*`
  is whole-file on purpose: its `test` block can be computed from anything
  the file defines or imports (a variable, a spread, a function of the
  mode), so comparing the `test:` property's own text would let a change
  through; every change to a vite config counts.
* Mocha (mochajs.org/running/configuring): whole `.mocharc.*` (js, cjs,
  mjs, yaml, yml, json, jsonc; found in the working folder or any parent)
  and the legacy `mocha.opts`.  Section: `package.json` `"mocha"`.
* Jasmine (jasmine.github.io/setup/nodejs.html): whole
  `spec/support/jasmine.*` (json, js, mjs).
* Karma (karma-runner.github.io, "Configuration File"): whole
  `karma.conf.*`.
* AVA (github.com/avajs/ava, docs/06-configuration.md): whole
  `ava.config.*`; section `package.json` `"ava"`.  node-tap (node-tap.org):
  whole `.taprc`; section `package.json` `"tap"`.
* node:test (nodejs.org/api/test.html): no configuration file; what runs
  is the `node --test` command, in `package.json` scripts.
* npm scripts (docs.npmjs.com/cli/using-npm/scripts): section
  `package.json` `"scripts"`: every script whose name contains `test`
  (`test`, `pretest`, `posttest`, `test:unit`), the lifecycle scripts an
  install runs before the tests (`preinstall`, `install`, `postinstall`,
  `prepare`, `preprepare`, `postprepare`, `prepublish`), and every script a
  chosen one names (a word of its command equal to a script's name, or a
  `run-s test:*` pattern), transitively; `"workspaces"` (which packages
  `npm test --workspaces` visits) and `"config"` (a script reads it as
  `$npm_package_config_*`); and a test package (`vendored.JS_TEST_PACKAGES`)
  that a dependency map takes from elsewhere than the registry (`file:`,
  `link:`, `workspace:`, a git repository, a URL, an `npm:` alias), or that
  `overrides`, `resolutions` or `pnpm.overrides` names: a copy the change
  controls.  Whole `.npmrc` (docs.npmjs.com/cli/configuring-npm/npmrc):
  its `script-shell` runs every script, `npm test` included.
* Coverage gates, which fail a run or a required check on coverage: the
  omit lists and `fail_under` of coverage.py (coverage.readthedocs.io,
  "Configuration reference"): whole `.coveragerc`, sections
  `pyproject.toml` `[tool.coverage]` and `setup.cfg` `[coverage:*]` (and
  `tox.ini`, whole already); nyc's and c8's thresholds and excludes: whole
  `.nycrc`, `.nycrc.json`, `.nycrc.yml`, `.nycrc.yaml`, `nyc.config.js`,
  `.c8rc`, `.c8rc.json`, sections `package.json` `"nyc"` and `"c8"`;
  Codecov's project and patch targets (docs.codecov.com, "codecov.yml"):
  whole `codecov.yml`, `.codecov.yml`, `codecov.yaml`, `.codecov.yaml`.
  Jest's and Vitest's thresholds sit in their own configuration above.
* Yarn (yarnpkg.com/configuration/yarnrc; classic: classic.yarnpkg.com,
  "yarnrc"): whole `.yarnrc.yml` and `.yarnrc`, whose `yarnPath`
  (`yarn-path`) names the file that runs as Yarn itself, `yarn test`
  included, and whose `plugins` run inside it; and the files those name by
  convention, `.yarn/releases/` and `.yarn/plugins/`.  pnpm (pnpm.io,
  "pnpmfile"): whole `.pnpmfile.cjs` (and `.pnpmfile.mjs`), whose hooks
  rewrite every installed package, a test runner included.  Out of reach:
  the Plug'n'Play runtime (`.pnp.cjs`) and a zero-install cache
  (`.yarn/cache/`), which every install rewrites as it does a lock file,
  and `pnpm-workspace.yaml`.
* Playwright (playwright.dev/docs/test-configuration): whole
  `playwright.config.*` and `playwright-ct.config.*`.  Cypress
  (docs.cypress.io, "Configuration"): whole `cypress.config.*`, the legacy
  `cypress.json`, and `cypress/support/` (loaded before every spec).
* Bun (bun.sh/docs/runtime/bunfig): section `bunfig.toml` `[test]`.
* Deno (docs.deno.com/runtime/fundamentals/configuration): sections of
  `deno.json` and `deno.jsonc` (the nearest upward; JSON with comments and
  trailing commas): `"test"` (include, exclude), the top-level `"exclude"`
  (every subcommand skips it), `"tasks"` (`deno task test`) and
  `"workspace"`.
* RSpec (rspec.info, "read command line configuration options from
  files"): whole `.rspec`, `.rspec-local`, `spec/spec_helper.rb`,
  `spec/rails_helper.rb` and the rspec-1 `spec/spec.opts`.  Rake: whole
  `Rakefile` (`Rake::TestTask` decides `rake test`'s files).  Out of reach:
  `~/.rspec`, `$XDG_CONFIG_HOME/rspec/options`, `SPEC_OPTS`.
* PHPUnit (docs.phpunit.de, "The XML Configuration File"): whole
  `phpunit.xml`, `phpunit.xml.dist`, `phpunit.dist.xml`.
* Go (`go help test`, `go help packages`, go.dev/ref/mod): `go test`
  reads no configuration file; `_test.go`, `testdata/` and `TestMain` are
  test paths and code.  Sections: `go.mod` counts when added or removed (a
  new `go.mod` in a subfolder makes it a module of its own, which
  `go test ./...` from above no longer visits) and for its `ignore`
  directives (Go 1.25: folders `./...` skips), and for a `replace` of a
  test library (`vendored.GO_TEST_MODULES`: a copy the change controls);
  the required versions of test modules are `gate.drift.pins`'; other
  edits (other requirements, the go version) are dependency changes.
  Whole `go.work` (its `use` list decides the modules).  Out of reach:
  `GOFLAGS` (a `-run` or `-tags` in CI's environment).
* Cargo (doc.rust-lang.org/cargo, "Cargo Targets", "Configuration"):
  sections of `Cargo.toml`: `[[test]]`, `[lib]`, `[[bin]]`, `[[example]]`,
  `[[bench]]` (their `test`/`harness` flags), `[dev-dependencies]`,
  `[target]` (target dev-dependencies), `[features]` (tests behind a
  feature), `[profile]` (`debug-assertions`), the `package` keys
  `autotests`, `autobins`, `autoexamples`, `autobenches`, `build`, and the
  `workspace` keys `members`, `exclude`, `default-members`.  Whole
  `.cargo/config.toml` and `.cargo/config` (a target `runner` can replace
  every test binary) and `build.rs` (it sets the cfg flags a test can be
  compiled out by).

* Maven (maven.apache.org/surefire/maven-surefire-plugin, "Skipping Tests",
  "Inclusions and Exclusions"; maven.apache.org/configure.html): whole
  `.mvn/maven.config` (a `-DskipTests` there skips every test).  Section:
  `pom.xml` (any depth: every module has one): properties whose name
  mentions test, skip, surefire, failsafe, junit or groups (`maven.test.skip`,
  `skipTests`, `excludedGroups`), test-scoped
  dependencies (dropping the JUnit engine leaves surefire nothing to run),
  the surefire, failsafe, JUnit and TestNG plugins wherever `<build>` names
  them, the test source and resource folders, `<modules>` and
  `<profiles>` (whole).  Out of reach: a parent POM from a repository, and
  `-D` flags in CI files.

* Vendored test libraries (`gate.drift.vendored`, whose docstring
  lists them): a test runner's or assertion library's own code kept in
  the repository, under `vendor/`, a committed `node_modules/` or a
  committed virtual environment's `site-packages/`, whole at any depth.
* pip (pip.pypa.io, "Requirements File Format"; PEP 508): where a test
  tool is installed from (`gate.drift.elsewhere`): sections of
  `requirements*.txt`, `*-requirements.txt` and `requirements/*.txt` (an
  index or find-links option, an included file, a local or editable
  install other than the project, a direct reference to a test tool) and
  of `pyproject.toml` (a direct reference, a uv source or a Poetry path,
  git or URL table for a test tool); and the same for package.json's test
  packages and go.mod's test modules, above.

Not covered (honestly): Gradle (`test {}` in `build.gradle` is code; a
whole-file rule would fire on every dependency bump), .NET (`.runsettings`,
`Directory.Build.props`), Elixir, Swift, task runners that wrap tests
(`Makefile`, `justfile`, poethepoet), a script file a test script runs
(`node scripts/test.js`: code), any file a configuration imports or
names under an unconventional name, environment variables, and command-line
flags in CI files (`forbidden_paths` on CI files covers those).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from gate.base import globs
from gate.base.jsontext import package_data
from gate.base.paths import fold, folds
from gate.base.structured import Unreadable
from gate.drift.sections import VIEWS, named_view, narrow_scripts
from gate.drift.vendored import (
    GO_TEST_MODULES,
    JS_TEST_COMMANDS,
    JS_TEST_PACKAGES,
    PY_TEST_PACKAGES,
    VENDOR_FOLDERS,
)


@dataclass(frozen=True)
class Runner:
    """One test runner: the whole files it reads as configuration (globs),
    the section files it reads a part of (keys of `SECTION_FILES`), the page
    its discovery is documented on, and how a subfolder's file counts."""

    name: str
    files: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    doc: str = ""
    nested: str = ""


# Where a repository keeps a test library's own code (`gate.drift.vendored`).
VENDORED_FILES = (
    *(f"**/vendor/{module}/" for module in GO_TEST_MODULES),
    *(f"**/node_modules/{package}/" for package in JS_TEST_PACKAGES),
    *(f"**/node_modules/.bin/{command}*" for command in JS_TEST_COMMANDS),
    *(f"**/site-packages/{package}/" for package in PY_TEST_PACKAGES),
)
# The runners and section files themselves: `runners.json` beside this
# module (its schema: `runners.schema.json`), read once.
_TABLE = package_data("drift/runners.json")

RUNNERS: tuple[Runner, ...] = (
    *(
        Runner(
            r["name"],
            files=tuple(r.get("files", ())),
            sections=tuple(r.get("sections", ())),
            doc=r["doc"],
            nested=r.get("nested", ""),
        )
        for r in _TABLE["runners"]
    ),
    # Its globs are built from `gate.drift.vendored`'s lists, so it is code.
    Runner(
        "vendored test library",
        files=VENDORED_FILES,
        doc="https://go.dev/ref/mod#vendoring and "
        "https://docs.npmjs.com/cli/configuring-npm/folders#node-modules",
        nested="every vendor/, node_modules/ and site-packages/ folder",
    ),
)


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


CONFIG_FILES: tuple[str, ...] = _unique([g for r in RUNNERS for g in r.files])

# Every path the vendored libraries' globs match holds the name of its
# vendor folder (`VENDOR_FOLDERS`), in every fold the glob modes read:
# `config_matcher` asks their long expression only of a path that does.
_OWN = tuple(g for g in CONFIG_FILES if g not in VENDORED_FILES)


@lru_cache(maxsize=8)
def config_matcher(mode: str) -> Callable[[str], bool]:
    """The test "a runner reads this whole file" (`CONFIG_FILES`) in glob
    `mode`.  The same answers as `globs.matcher(CONFIG_FILES, mode)`, the
    vendored libraries' globs asked only of paths that name a vendor folder
    (a third of test_drift's time on 10,000 paths otherwise)."""
    own = globs.matcher(_OWN, mode)
    vendored = globs.matcher(VENDORED_FILES, mode)

    def is_config(path: str) -> bool:
        if own(path):
            return True
        folded, named = folds(path)
        return any(w in folded or w in named for w in VENDOR_FOLDERS) and vendored(path)

    return is_config


@dataclass(frozen=True)
class Section:
    """A file where runners read one part: its glob, its format (`toml`,
    `json`, `ini`, `gomod`, `python`, `setup`) and which part (`keys`:
    dotted TOML or JSON key paths; for `ini`, section-header words, or
    `HEADER:OPTION` for one option of a section; for `setup`, the names
    that make a setup.py count)."""

    glob: str
    format: str
    keys: tuple[str, ...]
    what: str


SECTION_FILES: tuple[Section, ...] = tuple(
    Section(t["glob"], t["format"], tuple(t["keys"]), t["what"]) for t in _TABLE["sections"]
)
# pip's requirements files, by their conventional names.
REQUIREMENTS_FILES = tuple(s.glob for s in SECTION_FILES if s.format == "requirements")

# Words of a requirements file's path that say tests (or the CI job, or a
# developer's setup, which runs them) install from it.
_FOR_TESTS = frozenset({"test", "tests", "testing", "dev", "develop", "development", "ci", "e2e"})


def installed_for_tests(path: str) -> bool:
    """Whether the pip requirements file `path` may be where the tests are
    installed from, which the gate cannot see (a CI job's, tox's, nox's or
    a Makefile's `pip install -r`): one at the root (what CI installs before
    running the tests), or one whose path has a word of `_FOR_TESTS`
    (`requirements-dev.txt`, `tests/requirements.txt`).  Such a file added
    or removed stays runner configuration even when no line of it names a
    test tool's source; another one (an example project's
    `requirements.txt`) is judged by its lines alone."""
    if "/" not in path:
        return True
    words = re.split(r"[^a-z0-9]+", fold(path))
    return any(w in _FOR_TESTS for w in words)


# pytest loads, at start, every plugin an installed distribution declares in
# its `pytest11` entry points (a CI job's `pip install -e .` installs the
# repository's own): such a plugin can deselect or skip any test.  Where a
# pyproject.toml declares entry points (PEP 621, Poetry, old Flit): the
# tables `SECTION_FILES` reads the group of.
PLUGIN_GROUP = "pytest11"
ENTRY_POINT_TABLES = tuple(
    key.removesuffix(f".{PLUGIN_GROUP}")
    for s in SECTION_FILES
    if s.format == "pyproject"
    for key in s.keys
    if key.endswith(f".{PLUGIN_GROUP}")
)
SECTION_GLOBS: tuple[str, ...] = tuple(s.glob for s in SECTION_FILES)


def runners_for(path: str) -> tuple[str, ...]:
    """The names of the runners that read `path` (whole or in part), in
    `RUNNERS` order; empty when none does."""
    return tuple(
        r.name for r in RUNNERS if globs.matches(path, (*r.files, *r.sections), globs.FOLDED)
    )


def section_for(path: str) -> Section | None:
    """The `SECTION_FILES` entry `path` matches (letter case and Unicode
    folded, as `test_drift` matches), or None."""
    if not globs.matches(path, SECTION_GLOBS, globs.FOLDED):
        return None  # most paths: one expression instead of one per section
    for section in SECTION_FILES:
        if globs.matches(path, (section.glob,), globs.FOLDED):
            return section
    return None


def section_change(
    path: str, base: str | None, head: str | None, *, at_test_path: bool = True
) -> str | None:
    """How a change moved the runner-relevant part of `path` (a file of
    `SECTION_FILES`) from text `base` to text `head` (None: the file is
    absent on that side): None (no runner-relevant change), "added",
    "changed", "removed", or "unreadable: WHY" when a side cannot be read
    (the rule counts that as drift).  `at_test_path`: whether `path` is at
    a test path; an `__init__.py` elsewhere counts only when a side spells
    `load_tests` (`sections.named_view`).  Pure; raises ValueError for a path
    that is not a section file (a caller's mistake)."""
    section = section_for(path)
    if section is None:
        raise ValueError(f"{path!r} is not a runner section file")
    view = VIEWS[section.format]
    if section.format == "python" and not at_test_path:
        view = named_view
    values: list[object] = []
    for side, text in (("base", base), ("head", head)):
        if text is None:
            values.append(None)
            continue
        try:
            values.append(view(section.keys, text))
        except Unreadable as exc:
            return f"unreadable: the {side} version {exc}"
    before, after = values
    if section.format == "requirements" and not installed_for_tests(path):
        # no line of it says where a test tool comes from: present or
        # absent, no runner's part (the test tools it names: `gate.drift.pins`)
        before, after = before or None, after or None
    if section.format == "json":
        before, after = narrow_scripts(before, after)
    if before == after:
        return None
    if before is None:
        return "added"
    return "removed" if after is None else "changed"
