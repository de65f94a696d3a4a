"""Test runners and assertion libraries whose own code a repository may keep
in it, by where each lives: Go modules under `vendor/` (`go test` builds
them from there once `vendor/modules.txt` exists), npm packages in a
committed `node_modules/`, and Python packages in a committed virtual
environment's `site-packages/`.  An edit there changes what every test
checks (an `assert.Equal` that always passes) without touching a test;
`gate.drift.runners` reads these lists as whole-file configuration.
Constants only, read from `vendored.json`.

The places, at any depth.  Go modules under `vendor/`:
`vendor/github.com/stretchr/testify`, `vendor/github.com/onsi/ginkgo`,
`vendor/github.com/onsi/gomega`, `vendor/gotest.tools`,
`vendor/gopkg.in/check.v1`, `vendor/github.com/frankban/quicktest`,
`vendor/github.com/go-quicktest/qt`, `vendor/github.com/matryer/is`,
`vendor/github.com/smartystreets/goconvey`,
`vendor/github.com/maxatome/go-testdeep`, `vendor/github.com/golang/mock`,
`vendor/go.uber.org/mock`, `vendor/github.com/google/go-cmp` (the
comparison library tests use).  npm packages in a committed `node_modules/`:
`node_modules/jest`, `node_modules/jest-*`, `node_modules/@jest`,
`node_modules/vitest`, `node_modules/@vitest`, `node_modules/mocha`,
`node_modules/chai`, `node_modules/ava`, `node_modules/tap`,
`node_modules/jasmine`, `node_modules/jasmine-core`,
`node_modules/playwright`, `node_modules/@playwright/test`,
`node_modules/@playwright/experimental-ct-*` (the runner and its
component testing; the scope's other packages, `@playwright/mcp` and
`@playwright/cli`, are not test tools),
`node_modules/cypress`, `node_modules/karma`, `node_modules/expect`,
`node_modules/uvu`, `node_modules/tape`, `node_modules/ts-jest`,
`node_modules/babel-jest` (Jest's transformers), `node_modules/nyc` and
`node_modules/c8` (coverage gates), and in `node_modules/.bin` the
commands `npm test` runs: `node_modules/.bin/jest`, `.bin/vitest`,
`.bin/mocha`, `.bin/_mocha`, `.bin/ava`, `.bin/tap`, `.bin/jasmine`,
`.bin/playwright`, `.bin/cypress`, `.bin/karma`, `.bin/uvu`, `.bin/tape`,
`.bin/nyc`, `.bin/c8` (each with any suffix: npm's `.cmd` and `.ps1`
shims).  A committed virtual environment's `site-packages/_pytest`,
`site-packages/pytest`, `site-packages/pytest_*` (plugins),
`site-packages/pluggy`, `site-packages/xdist`, and every
`site-packages/*.dist-info` (its `entry_points.txt` declares the plugins
pytest loads).  A new vendored copy is drift too, as a new configuration
file is.  The same lists name the test tools whose declared version
`gate.drift.pins` watches in dependency files, and whose locked version
`gate.drift.locks` watches in lock files (with `RUST_TEST_CRATES`)."""

from __future__ import annotations

from gate.base.jsontext import package_data

# The lists themselves: `vendored.json` beside this module (its schema:
# `vendored.schema.json`).
_TABLE = package_data("drift/vendored.json")

VENDOR_FOLDERS: tuple[str, ...] = tuple(_TABLE["vendor_folders"])
GO_TEST_MODULES: tuple[str, ...] = tuple(_TABLE["go_test_modules"])
JS_TEST_PACKAGES: tuple[str, ...] = tuple(_TABLE["js_test_packages"])
# The commands `npm test` may run from a committed `node_modules/.bin/`
# (each with any suffix: npm's `.cmd` and `.ps1` shims beside it).
JS_TEST_COMMANDS: tuple[str, ...] = tuple(_TABLE["js_test_commands"])
PY_TEST_PACKAGES: tuple[str, ...] = tuple(_TABLE["py_test_packages"])
# Python distributions that run or judge the tests, as PEP 503 normalizes a
# name (lower case, runs of `-`, `_`, `.` as one `-`): where a change takes
# one from a copy it controls (a path, a URL, a git repository, another
# index), `test_drift` counts it.  Among them syrupy and inline-snapshot:
# snapshot assertions, pytest plugins by entry point (inline-snapshot also
# rewrites the tests' snapshots).
PY_TEST_DISTRIBUTIONS: tuple[str, ...] = tuple(_TABLE["py_test_distributions"])
# Rust crates that judge the tests (`cargo test` builds them from the lock
# file's versions): property testing, snapshots, parametrized cases, mocks,
# assertion helpers, and the runner cargo-nextest.  `gate.drift.locks`
# watches their locked versions in Cargo.lock (Cargo.toml's
# dev-dependencies are runner configuration as a whole already).
RUST_TEST_CRATES: tuple[str, ...] = tuple(_TABLE["rust_test_crates"])
