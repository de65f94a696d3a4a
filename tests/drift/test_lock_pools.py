"""Lock files merged or split (`gate.drift.locks.pooled_moves`): a change
that folds per-package lock files into the workspace's root lock (or
splits a root lock per package) moves a test tool's copies between files
without moving any: the copies over every lock file the change writes, per
ecosystem, are the same at base and head, so `test_drift` passes.  Each
hostile twin, the same fold written to move a tool (a copy dropped on the
way, another version, another artifact or source, a lock deleted with
nothing to take its copies), fails, named per file.  The table runs every
shape through every format's generator (tests/drift/test_lock_pins.py's)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gate.drift import locks
from tests.drift.test_lock_pins import (
    _digest,
    npm_lock,
    pnpm_lock,
    poetry_lock,
    uv_lock,
    yarn_classic,
)
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift")
Rows = list[tuple[str, str]]


def _npm(rows: Rows) -> str:
    seen: set[str] = set()
    out = []
    for i, (name, version) in enumerate(rows):
        where = (
            f"node_modules/{name}" if name not in seen else f"node_modules/x{i}/node_modules/{name}"
        )
        seen.add(name)
        out.append((where, name, version))
    return npm_lock(out)


def _yarn(rows: Rows) -> str:
    return yarn_classic([(f'"{name}@^{version}"', name, version) for name, version in rows])


# format -> (lock file name, generator, the test tool, another package, a
# function that swaps the tool's artifact hash at a version in a text)
FORMATS: dict[str, tuple[str, Callable[[Rows], str], str, str, Callable[[str, str], str]]] = {
    "pnpm": (
        "pnpm-lock.yaml",
        pnpm_lock,
        "jest",
        "lodash",
        lambda text, v: text.replace(f"sha512-4x{v}}}", f"sha512-4x{v}evil}}"),
    ),
    "npm": (
        "package-lock.json",
        _npm,
        "jest",
        "lodash",
        lambda text, v: text.replace(f"sha512-jest{v}==", f"sha512-jest{v}evil=="),
    ),
    "yarn": (
        "yarn.lock",
        _yarn,
        "jest",
        "lodash",
        lambda text, v: text.replace(f"sha512-4y{v}==", f"sha512-4y{v}evil=="),
    ),
    "uv": (
        "uv.lock",
        uv_lock,
        "pytest",
        "httpx",
        lambda text, v: text.replace(_digest("pytest", v, "s"), "0badf00d").replace(
            _digest("pytest", v, "w"), "0badf00e"
        ),
    ),
    "poetry": (
        "poetry.lock",
        poetry_lock,
        "pytest",
        "httpx",
        lambda text, v: text.replace(f"sha256:6{v}", "sha256:0badf00d"),
    ),
}
OLD, NEW = "8.0.0", "8.3.0"


def _fold(fmt: str) -> tuple[dict[str, str], dict[str, str]]:
    """Two packages' locks (one on an older copy of the tool) and the
    root's, folded into the root lock."""
    name, make, tool, other, _ = FORMATS[fmt]
    base = {
        f"packages/a/{name}": make([(tool, OLD), (other, "1.0.0")]),
        f"packages/b/{name}": make([(tool, NEW)]),
        name: make([(tool, NEW), (other, "1.0.0")]),
    }
    head = {name: make([(tool, NEW), (tool, OLD), (other, "1.0.0")])}
    return base, head


PASSES: dict[str, Files] = {}
FAILS: dict[str, tuple[Files, str, str]] = {}
for fmt, (name, make, tool, other, swap) in FORMATS.items():
    base, head = _fold(fmt)
    PASSES[f"{fmt}: package locks folded into the root lock"] = Files(base=base, head=head)
    PASSES[f"{fmt}: the root lock split per package"] = Files(base=head, head=base)
    PASSES[f"{fmt}: a package lock folded, the others untouched"] = Files(
        base={f"packages/a/{name}": make([(tool, OLD)]), name: make([(tool, NEW)])},
        head={name: make([(tool, NEW), (tool, OLD)])},
    )
    # hostile twins
    dropped = {name: make([(tool, NEW), (other, "1.0.0")])}
    FAILS[f"{fmt}: the fold drops the older copy"] = (
        Files(base=base, head=dropped),
        f"packages/a/{name}",
        f"{tool} removed (was `{OLD}`)",
    )
    moved = {name: make([(tool, NEW), (tool, "8.1.0"), (other, "1.0.0")])}
    FAILS[f"{fmt}: the fold moves the older copy's version"] = (
        Files(base=base, head=moved),
        name,
        f"{tool}: `{NEW}` -> `8.1.0, {NEW}`",
    )
    FAILS[f"{fmt}: the fold takes the older copy as another artifact"] = (
        Files(base=base, head={name: swap(head[name], OLD)}),
        name,
        f"{tool}: `{NEW}` -> `{OLD}, {NEW}`",
    )
    kept = make([(tool, NEW)])
    FAILS[f"{fmt}: a package lock deleted with nothing to take its copies"] = (
        Files(
            base={f"packages/a/{name}": make([(tool, OLD)]), name: kept},
            head={name: kept},
        ),
        f"packages/a/{name}",
        f"{tool} removed (was `{OLD}`)",
    )
# Another source while folding (uv: a git repository instead of PyPI).
UV_GIT = '{ git = "https://github.com/someone/pytest?rev=abc#abc" }'
FAILS["uv: the fold takes the copy from another source"] = (
    Files(
        base={
            "packages/a/uv.lock": uv_lock([("pytest", OLD)]),
            "uv.lock": uv_lock([("httpx", "1")]),
        },
        head={"uv.lock": uv_lock([("httpx", "1")]) + "\n" + uv_lock([("pytest", OLD)], UV_GIT)},
    ),
    "uv.lock",
    "pytest",
)
# Copies of one ecosystem do not stand for another's: a Python lock's
# pytest does not take over a removed npm lock's jest.
FAILS["npm copies deleted beside a uv lock that gains a tool"] = (
    Files(
        base={"web/pnpm-lock.yaml": pnpm_lock([("jest", NEW)]), "uv.lock": uv_lock([])},
        head={"uv.lock": uv_lock([("pytest", NEW)])},
    ),
    "web/pnpm-lock.yaml",
    f"jest removed (was `{NEW}`)",
)


@pytest.mark.parametrize("name", sorted(PASSES))
def test_copies_moved_between_lock_files_move_no_test_tool(name: str) -> None:
    CASE.passes(PASSES[name])


@pytest.mark.parametrize("name", sorted(FAILS))
def test_a_fold_that_moves_a_copy_fails_naming_the_file(name: str) -> None:
    files, path, phrase = FAILS[name]
    result = CASE.fails(files, f"{path} changes the locked versions of test tools")
    assert phrase in result.message, result.message


def test_only_the_moved_tool_is_named_in_a_pool_that_moved() -> None:
    """A fold that drops one tool's copy names that tool alone: the other
    tool folded intact is not listed in any file's phrases."""
    base = {
        "packages/a/pnpm-lock.yaml": pnpm_lock([("jest", OLD), ("vitest", "2.0.0")]),
        "pnpm-lock.yaml": pnpm_lock([("jest", NEW)]),
    }
    head = {"pnpm-lock.yaml": pnpm_lock([("jest", NEW), ("vitest", "2.0.0")])}
    result = CASE.fails(Files(base=base, head=head), "jest removed (was `8.0.0`)")
    assert "vitest" not in result.message, result.message


def test_the_pool_is_per_ecosystem() -> None:
    assert locks.family("a/B/UV.LOCK") == "python"
    assert locks.family("Cargo.lock") == "rust"
    assert locks.family("x/bun.lock") == locks.family("yarn.lock") == "npm"
