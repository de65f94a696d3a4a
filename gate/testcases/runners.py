"""Which files, and which sections of files, each supported test runner
reads: the one owner of "runner configuration" for `test_drift`.

A runner's configuration decides which tests run (`addopts = "-k nothing"`,
`testPathIgnorePatterns`, a `load_tests` that returns an empty suite), so a
pull request that adds, changes or removes any of it can switch existing
tests off without touching a test file.  Two kinds of place:

* `CONFIG_FILES`: globs of whole files that are runner configuration.  A
  new one, a changed one, a deleted one is drift.  Each comes from a
  `Runner` record in `RUNNERS`, which names the runner and the page its
  discovery is documented on.
* `SECTION_FILES`: files where a runner reads one part among others
  (`pyproject.toml`'s `[tool.pytest]`, `package.json`'s `"jest"` and test
  scripts).  `section_change(path, base, head)` says whether that part was
  added, changed or removed, or that the gate cannot tell ("unreadable: ...",
  which the rule counts as drift).  TOML and JSON are parsed, so reformatting
  that keeps the values is no change; INI sections are compared line by line.

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
  the run).  Out of reach: `PYTEST_ADDOPTS`, `PYTEST_PLUGINS` and `-p` or
  `-c` on a CI command line (the CI rule's files), plugins a dependency
  installs (lock files), and since pytest 8.1 a `pyproject.toml` without a
  pytest table that becomes the configfile when no other one exists (it can
  move the rootdir, not select tests).
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
  Babel"): a plugin can rewrite a test to nothing.  Sections:
  `package.json` `"jest"` and `"babel"`.
  Out of reach: `--config`, `--testPathIgnorePatterns` on a command line
  (the scripts are read, a CI file is not), a setup file under another name.
* Vitest (vitest.dev/config, vitest.dev/guide/projects): whole
  `vitest.config.*`, `vite.config.*` (read when there is no vitest.config),
  `vitest.*.config.*` and `vite.*.config.*` (project configs a `projects`
  glob picks), `vitest.workspace.*` and `vitest.projects.*`;
  `vitest.setup.*`, the conventional name of `setupFiles`.  `vite.config.*`
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
  `$npm_package_config_*`).  Whole `.npmrc` (docs.npmjs.com/cli/configuring-npm/npmrc):
  its `script-shell` runs every script, `npm test` included.
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
  directives (Go 1.25: folders `./...` skips); other edits (requirements,
  the go version) are dependency changes, out of this module's reach.
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

Not covered (honestly): Gradle (`test {}` in `build.gradle` is code; a
whole-file rule would fire on every dependency bump), .NET (`.runsettings`,
`Directory.Build.props`), Elixir, Swift, task runners that wrap tests
(`Makefile`, `justfile`, poethepoet), a script file a test script runs
(`node scripts/test.js`: code), any file a configuration imports or
names under an unconventional name, environment variables, and command-line
flags in CI files (`forbidden_paths` on CI files covers those).
"""

from __future__ import annotations

import ast
import fnmatch
import re
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gate import globs
from gate.errors import GateError
from gate.jsontext import loads
from gate.text import lines


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


RUNNERS: tuple[Runner, ...] = (
    Runner(
        "pytest",
        files=(
            "**/conftest.py",
            "**/pytest.toml",
            "**/.pytest.toml",
            "**/pytest.ini",
            "**/.pytest.ini",
            "**/tox.ini",
        ),
        sections=("**/pyproject.toml", "**/setup.cfg"),
        doc="https://docs.pytest.org/en/stable/reference/customize.html",
        nested="rootdir and configfile: the nearest file at or above the arguments' common folder; "
        "conftest.py in every collected folder",
    ),
    Runner(
        "unittest",
        sections=("**/__init__.py",),
        doc="https://docs.python.org/3/library/unittest.html#load-tests-protocol",
        nested="every package below the start folder",
    ),
    Runner(
        "tox",
        files=("**/tox.ini", "**/tox.toml"),
        sections=("**/pyproject.toml", "**/setup.cfg"),
        doc="https://tox.wiki/en/latest/config.html",
        nested="the working folder or a parent",
    ),
    Runner("nox", files=("**/noxfile.py",), doc="https://nox.thea.codes/en/stable/usage.html"),
    Runner(
        "hatch",
        files=("**/hatch.toml",),
        sections=("**/pyproject.toml",),
        doc="https://hatch.pypa.io/latest/tutorials/testing/overview/",
    ),
    Runner(
        "jest",
        files=(
            "**/jest.config.*",
            "**/jest-preset.*",
            "**/jest.setup.*",
            "**/setupTests.*",
            "**/babel.config.*",
            "**/.babelrc",
            "**/.babelrc.*",
        ),
        sections=("**/package.json",),
        doc="https://jestjs.io/docs/configuration",
        nested="per package: the folder's jest.config.* or package.json",
    ),
    Runner(
        "vitest",
        files=(
            "**/vitest.config.*",
            "**/vite.config.*",
            "**/vitest.*.config.*",
            "**/vite.*.config.*",
            "**/vitest.workspace.*",
            "**/vitest.projects.*",
            "**/vitest.setup.*",
        ),
        doc="https://vitest.dev/config/ and https://vitest.dev/guide/projects",
        nested="per package and per project",
    ),
    Runner(
        "mocha",
        files=("**/.mocharc.*", "**/mocha.opts"),
        sections=("**/package.json",),
        doc="https://mochajs.org/running/configuring/",
        nested="the working folder or the nearest parent with one",
    ),
    Runner(
        "jasmine",
        files=("**/spec/support/jasmine.*",),
        doc="https://jasmine.github.io/setup/nodejs.html",
    ),
    Runner(
        "karma",
        files=("**/karma.conf.*",),
        doc="https://karma-runner.github.io/latest/config/configuration-file.html",
    ),
    Runner(
        "ava",
        files=("**/ava.config.*",),
        sections=("**/package.json",),
        doc="https://github.com/avajs/ava/blob/main/docs/06-configuration.md",
    ),
    Runner("tap", files=("**/.taprc",), sections=("**/package.json",), doc="https://node-tap.org/"),
    Runner(
        "npm scripts (node:test and every runner started by `npm test`)",
        files=("**/.npmrc",),
        sections=("**/package.json",),
        doc="https://docs.npmjs.com/cli/using-npm/scripts",
    ),
    Runner(
        "playwright",
        files=("**/playwright.config.*", "**/playwright-ct.config.*"),
        doc="https://playwright.dev/docs/test-configuration",
    ),
    Runner(
        "cypress",
        files=("**/cypress.config.*", "**/cypress.json", "**/cypress/support/"),
        doc="https://docs.cypress.io/app/references/configuration",
    ),
    Runner("bun", sections=("**/bunfig.toml",), doc="https://bun.sh/docs/runtime/bunfig"),
    Runner(
        "deno",
        sections=("**/deno.json", "**/deno.jsonc"),
        doc="https://docs.deno.com/runtime/fundamentals/configuration/",
        nested="the nearest deno.json or deno.jsonc upward; workspace members",
    ),
    Runner(
        "rspec",
        files=(
            "**/.rspec",
            "**/.rspec-local",
            "**/spec/spec_helper.rb",
            "**/spec/rails_helper.rb",
            "**/spec/spec.opts",
        ),
        doc="https://rspec.info/features/3-13/rspec-core/configuration/read-options-from-file/",
        nested="the working folder (a CI job may cd into a subfolder)",
    ),
    Runner("rake", files=("**/Rakefile",), doc="https://ruby.github.io/rake/"),
    Runner(
        "phpunit",
        files=("**/phpunit.xml", "**/phpunit.xml.dist", "**/phpunit.dist.xml"),
        doc="https://docs.phpunit.de/en/main/configuration.html",
    ),
    Runner(
        "maven",
        files=("**/.mvn/maven.config",),
        sections=("**/pom.xml",),
        doc="https://maven.apache.org/surefire/maven-surefire-plugin/examples/skipping-tests.html",
        nested="every module's pom.xml",
    ),
    Runner(
        "go",
        files=("**/go.work",),
        sections=("**/go.mod",),
        doc="https://go.dev/ref/mod (go.mod ignore, go.work use); go help packages",
        nested="a go.mod in a subfolder starts a module that ./... above does not visit",
    ),
    Runner(
        "cargo",
        files=("**/.cargo/config.toml", "**/.cargo/config", "**/build.rs"),
        sections=("**/Cargo.toml",),
        doc="https://doc.rust-lang.org/cargo/reference/cargo-targets.html and config.html",
        nested="every workspace member's Cargo.toml",
    ),
)


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


CONFIG_FILES: tuple[str, ...] = _unique([g for r in RUNNERS for g in r.files])


@dataclass(frozen=True)
class Section:
    """A file where runners read one part: its glob, its format (`toml`,
    `json`, `ini`, `gomod`, `python`) and which part (`keys`: dotted TOML or
    JSON key paths; for `ini`, section-header words)."""

    glob: str
    format: str
    keys: tuple[str, ...]
    what: str


# npm runs these on install, before any test; a chosen script's command may
# name other scripts, which are then chosen too.
_LIFECYCLE = (
    "preinstall",
    "install",
    "postinstall",
    "prepare",
    "preprepare",
    "postprepare",
    "prepublish",
)

_DENO_KEYS = ("test", "exclude", "tasks", "workspace")
_DENO_WHAT = '"test", "exclude", "tasks" and "workspace"'

SECTION_FILES: tuple[Section, ...] = (
    Section(
        "**/pyproject.toml",
        "toml",
        ("tool.pytest", "tool.tox", "tool.hatch.envs"),
        "pytest, tox and hatch sections",
    ),
    Section("**/setup.cfg", "ini", ("pytest", "tox", "testenv"), "pytest and tox sections"),
    Section(
        "**/package.json",
        "json",
        ("jest", "babel", "mocha", "ava", "tap", "workspaces", "config", "scripts"),
        'test runner keys and test scripts ("jest", "babel", "mocha", "ava", "tap", '
        '"workspaces", "config", "scripts")',
    ),
    Section(
        "**/Cargo.toml",
        "toml",
        (
            "test",
            "lib",
            "bin",
            "example",
            "bench",
            "dev-dependencies",
            "dev_dependencies",
            "target",
            "features",
            "profile",
            "package.autotests",
            "package.autobins",
            "package.autoexamples",
            "package.autobenches",
            "package.build",
            "workspace.members",
            "workspace.exclude",
            "workspace.default-members",
        ),
        "test targets, dev-dependencies, features, profiles and workspace members",
    ),
    Section("**/bunfig.toml", "toml", ("test",), "the [test] table"),
    Section("**/deno.json", "jsonc", _DENO_KEYS, _DENO_WHAT),
    Section("**/deno.jsonc", "jsonc", _DENO_KEYS, _DENO_WHAT),
    Section("**/pom.xml", "pom", ("build", "profiles"), "test properties, plugins and modules"),
    Section("**/go.mod", "gomod", ("ignore",), "its presence and its ignore directives"),
    Section("**/__init__.py", "python", ("load_tests",), "a load_tests hook (the whole file)"),
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


class _Unreadable(Exception):
    pass


def _toml(text: str) -> dict[str, Any]:
    """`text` parsed as TOML by the parser pytest itself uses: the standard
    library's on Python 3.11+, else `tomli` (a dependency of the gate on
    Python 3.10)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
        except ImportError:  # an install that skipped the gate's dependencies
            raise _Unreadable(
                "cannot be read: TOML needs Python 3.11 or the tomli package, a dependency "
                "of the gate on Python 3.10 (pip install tomli)"
            ) from None
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except Exception as exc:  # tomllib.TOMLDecodeError, RecursionError
        raise _Unreadable(f"is not valid TOML ({exc})") from None
    return data


_ABSENT = object()


def _lookup(data: Any, dotted: str) -> Any:
    node = data
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return _ABSENT
        node = node[part]
    return node


def _keyed(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any] | None:
    found = {k: v for k in keys if (v := _lookup(data, k)) is not _ABSENT}
    return found or None


def _toml_view(section: Section, text: str) -> object:
    return _keyed(_toml(text), section.keys)


_WORD = re.compile(r"[^\s;&|()<>'\"`=,]+")


def _chosen_scripts(scripts: dict[str, Any]) -> set[str]:
    """The names of the scripts that decide what `npm test` (or an install
    before it) runs: see the module docstring."""
    chosen = {n for n in scripts if "test" in n.casefold() or n in _LIFECYCLE}
    todo = list(chosen)
    while todo:
        command = scripts.get(todo.pop())
        if not isinstance(command, str):
            continue
        for word in _WORD.findall(command):
            named = (
                [n for n in scripts if fnmatch.fnmatchcase(n, word)]
                if any(c in word for c in "*?[")
                else [word]
                if word in scripts
                else []
            )
            for name in named:
                if name not in chosen:
                    chosen.add(name)
                    todo.append(name)
    return chosen


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = loads(text.encode("utf-8", "surrogatepass"), "the file", fix="")
    except GateError as exc:
        raise _Unreadable(f"is not strict JSON ({str(exc).rstrip('; ')})") from None
    if not isinstance(data, dict):
        raise _Unreadable("is not a JSON object")
    return data


def _package_json_view(section: Section, text: str) -> object:
    """package.json's runner keys, with `scripts` narrowed to the chosen ones
    (both sides' choices are compared by `_compare_package_json`)."""
    data = _json_object(text)
    return _keyed(data, section.keys)


def _strings_and_rest(text: str) -> list[tuple[bool, str]]:
    """`text` cut into JSON strings (True, as written, quotes included) and
    the text between them (False)."""
    parts: list[tuple[bool, str]] = []
    i, n, last = 0, len(text), 0
    while i < n:
        if text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            parts += [(False, text[last:i]), (True, text[i : j + 1])]
            i = last = j + 1
        else:
            i += 1
    parts.append((False, text[last:]))
    return parts


def _jsonc_to_json(text: str) -> str:
    """JSONC (JSON with `//` and `/* */` comments and trailing commas, as
    Deno reads it) as strict JSON text: a comment becomes a space and a comma
    before `}` or `]` is dropped, outside strings only."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:  # comments first: a `"` inside a comment opens no string
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j == -1 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j == -1:
                raise _Unreadable("has a /* comment that is never closed")
            out.append(" ")
            i = j + 2
        else:
            out.append(c)
            i += 1
    parts = _strings_and_rest("".join(out))
    kept: list[str] = []
    for is_string, piece in parts:
        # strings cut the text: a trailing comma and its bracket share a piece
        kept.append(piece if is_string else re.sub(r",(\s*[}\]])", r"\1", piece))
    return "".join(kept)


def _jsonc_view(section: Section, text: str) -> object:
    return _keyed(_json_object(_jsonc_to_json(text)), section.keys)


def _ini_sections(found: list[str], words: tuple[str, ...]) -> list[list[str]]:
    """Every section whose `[...]` header mentions one of `words` (case
    folded), with its lines up to the next header at the start of a line."""
    sections: list[list[str]] = []
    current: list[str] | None = None
    for line in found:
        stripped = line.strip()
        if stripped.startswith("[") and any(w in stripped.casefold() for w in words):
            current = [line]
            sections.append(current)
        elif line.startswith("["):
            current = None
        elif current is not None:
            current.append(line)
    return sections


def _ini_view(section: Section, text: str) -> object:
    # The gate's notion of a line and Python's `str.splitlines` (which ini
    # parsers use): a section is compared under both.
    ours = _ini_sections([line.rstrip("\r\n") for line in lines(text)], section.keys)
    pythons = _ini_sections(text.splitlines(), section.keys)
    return (ours, pythons) if ours or pythons else None


def _local(tag: object) -> str:
    """An XML tag without its `{namespace}`."""
    return str(tag).rsplit("}", 1)[-1]


def _canonical(element: Any) -> object:
    """An XML element as a comparable value: tag, attributes, stripped text
    and children, in order (whitespace between elements is formatting)."""
    return (
        _local(element.tag),
        tuple(sorted(element.attrib.items())),
        (element.text or "").strip(),
        tuple(_canonical(child) for child in element),
    )


_POM_WORDS = ("test", "skip", "surefire", "failsafe", "junit", "groups")
_POM_PLUGINS = ("surefire", "failsafe", "junit", "testng")
_POM_BUILD = ("testSourceDirectory", "testOutputDirectory", "testResources")


def _pom_view(section: Section, text: str) -> object:
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text)
    except (ET.ParseError, ValueError, RecursionError) as exc:
        raise _Unreadable(f"is not well-formed XML ({exc})") from None

    def child(element: Any, name: str) -> list[Any]:
        return [c for c in element if _local(c.tag) == name]

    def text_of(element: Any, name: str) -> str:
        return " ".join((c.text or "").strip() for c in child(element, name))

    view: dict[str, object] = {}
    properties = [
        (_local(p.tag), (p.text or "").strip())
        for props in child(root, "properties")
        for p in props
        if any(w in _local(p.tag).casefold() for w in _POM_WORDS)
    ]
    dependencies = [
        _canonical(d)
        for d in root.iter()
        if _local(d.tag) == "dependency" and text_of(d, "scope").casefold() == "test"
    ]
    plugins = [
        _canonical(p)
        for p in root.iter()
        if _local(p.tag) == "plugin"
        and any(w in text_of(p, "artifactId").casefold() for w in _POM_PLUGINS)
    ]
    folders = [
        _canonical(e) for b in child(root, "build") for e in b if _local(e.tag) in _POM_BUILD
    ]
    for name, found in (
        ("properties", properties),
        ("test dependencies", dependencies),
        ("test plugins", plugins),
        ("test folders", folders),
        ("modules", [_canonical(m) for m in child(root, "modules")]),
        ("profiles", [_canonical(p) for p in child(root, "profiles")]),
    ):
        if found:
            view[name] = found
    return view or None


_GO_COMMENT = re.compile(r"//.*")


def _gomod_view(section: Section, text: str) -> object:
    """Present (a tuple) with every line that may be an `ignore` directive or
    inside an `ignore ( ... )` block, comments removed."""
    found: list[str] = []
    in_block = False
    for raw in text.splitlines():
        line = _GO_COMMENT.sub("", raw).strip()
        if in_block:
            if line.startswith(")"):
                in_block = False
            elif line:
                found.append(line)
            continue
        if "ignore" in line:
            found.append(line)
            if re.match(r"ignore\s*\(", line) and not line.rstrip().endswith(")"):
                in_block = True
    return tuple(found)


# Names through which a module can define `load_tests` without spelling it.
_DYNAMIC = (
    "load_tests",
    "globals",
    "vars",
    "locals",
    "setattr",
    "exec",
    "eval",
    "compile",
    "__dict__",
    "__getattr__",
    "__class__",
    "__import__",
    "importlib",
    "modules",
    "builtins",
)


def _can_define_load_tests(text: str) -> bool:
    # Python reads identifiers NFKC-normalized: a fullwidth `l` in `load_tests` is an `l`.
    folded = unicodedata.normalize("NFKC", text)
    if any(word in folded for word in _DYNAMIC):
        return True
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # cannot tell: count it as able
    return any(
        isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        for node in ast.walk(tree)
    )


def _names_load_tests(text: str) -> bool:
    """Whether `text` spells `load_tests` (read NFKC-normalized, as Python
    reads identifiers)."""
    return "load_tests" in unicodedata.normalize("NFKC", text)


def _named_view(section: Section, text: str) -> object:
    """An `__init__.py` outside the test paths: the whole file once a side
    spells `load_tests`.  Source packages' `__init__.py` files use
    `globals()`, `importlib`, `__getattr__` and `sys.modules` for their own
    ends all the time (lazy imports, re-exports), and unittest's discovery
    reaches them only in a flat layout run from the root; counting every one
    of those as runner configuration failed most PRs that touch a package
    (8 of github/spec-kit's last 150 PRs), so outside the test paths only
    the name itself counts.  A `load_tests` built there without spelling it
    is out of reach."""
    return text if _names_load_tests(text) else None


def _python_view(section: Section, text: str) -> object:
    return text if _can_define_load_tests(text) else None


_VIEWS: dict[str, Callable[[Section, str], object]] = {
    "toml": _toml_view,
    "json": _package_json_view,
    "jsonc": _jsonc_view,
    "pom": _pom_view,
    "ini": _ini_view,
    "gomod": _gomod_view,
    "python": _python_view,
}


def _narrow_scripts(before: object, after: object) -> tuple[object, object]:
    """Both package.json views with `scripts` kept to the scripts either side
    chooses, each side's value (or None) under every chosen name."""
    sides = [dict(v) if isinstance(v, dict) else None for v in (before, after)]
    scripts = [s.get("scripts") if s is not None else None for s in sides]
    if not any(isinstance(s, dict) for s in scripts):
        return before, after
    chosen: set[str] = set()
    for s in scripts:
        if isinstance(s, dict):
            chosen |= _chosen_scripts(s)
    out: list[object] = []
    for side, script in zip(sides, scripts, strict=True):
        if side is None:
            out.append(None)
            continue
        if isinstance(script, dict):
            kept = {n: script.get(n) for n in sorted(chosen) if n in script}
            if kept:
                side["scripts"] = kept
            else:
                del side["scripts"]
        out.append(side or None)
    return out[0], out[1]


def section_change(
    path: str, base: str | None, head: str | None, *, at_test_path: bool = True
) -> str | None:
    """How a change moved the runner-relevant part of `path` (a file of
    `SECTION_FILES`) from text `base` to text `head` (None: the file is
    absent on that side): None (no runner-relevant change), "added",
    "changed", "removed", or "unreadable: WHY" when a side cannot be read
    (the rule counts that as drift).  `at_test_path`: whether `path` is at
    a test path; an `__init__.py` elsewhere counts only when a side spells
    `load_tests` (`_names_load_tests`).  Pure; raises ValueError for a path
    that is not a section file (a caller's mistake)."""
    section = section_for(path)
    if section is None:
        raise ValueError(f"{path!r} is not a runner section file")
    view = _VIEWS[section.format]
    if section.format == "python" and not at_test_path:
        view = _named_view
    values: list[object] = []
    for side, text in (("base", base), ("head", head)):
        if text is None:
            values.append(None)
            continue
        try:
            values.append(view(section, text))
        except _Unreadable as exc:
            return f"unreadable: the {side} version {exc}"
    before, after = values
    if section.format == "json":
        before, after = _narrow_scripts(before, after)
    if before == after:
        return None
    if before is None:
        return "added"
    return "removed" if after is None else "changed"
