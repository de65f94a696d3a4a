"""Test runners and assertion libraries whose own code a repository may keep
in it, by where each lives: Go modules under `vendor/` (`go test` builds
them from there once `vendor/modules.txt` exists), npm packages in a
committed `node_modules/`, and Python packages in a committed virtual
environment's `site-packages/`.  An edit there changes what every test
checks (an `assert.Equal` that always passes) without touching a test;
`gate.testcases.runners` reads these lists as whole-file configuration.
Constants only."""

from __future__ import annotations

VENDOR_FOLDERS = ("vendor", "node_modules", "site-packages")
GO_TEST_MODULES = (
    "github.com/stretchr/testify",
    "github.com/onsi/ginkgo",
    "github.com/onsi/gomega",
    "gotest.tools",
    "gopkg.in/check.v1",
    "github.com/frankban/quicktest",
    "github.com/go-quicktest/qt",
    "github.com/matryer/is",
    "github.com/smartystreets/goconvey",
    "github.com/maxatome/go-testdeep",
    "github.com/golang/mock",
    "go.uber.org/mock",
)
JS_TEST_PACKAGES = (
    ".bin",
    "jest",
    "jest-*",
    "@jest",
    "vitest",
    "@vitest",
    "mocha",
    "chai",
    "ava",
    "tap",
    "jasmine",
    "jasmine-core",
    "@playwright",
    "playwright",
    "cypress",
    "karma",
    "expect",
    "uvu",
    "tape",
)
PY_TEST_PACKAGES = ("_pytest", "pytest", "pytest_*", "pluggy", "xdist", "*.dist-info")
