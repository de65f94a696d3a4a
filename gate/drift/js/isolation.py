"""Whether the base's runner configuration turns a runner's per-file
isolation off, for a NEW JavaScript or TypeScript test file whose
load-time code the engine would otherwise keep in the file
(`gate.drift.js.own_registry`).

Which runners can share one module registry between test files, and how
(each from the runner's documentation):

* Vitest runs each test file in an isolated environment unless `isolate`
  is false (vitest.dev/config/isolate: `test.isolate: false`, the CLI's
  `--no-isolate` and `--isolate=false`, per pool
  `poolOptions.<pool>.isolate: false`, per project in a workspace), and
  before 1.0 `poolOptions.threads.singleThread`/`singleFork`, `--single-thread`
  and `--no-threads` ran the files "in the same global context".  Vitest
  reads `vitest.config.*` (else `vite.config.*`) and `vitest.workspace.*`
  of the folder it runs in, which for a package of a monorepo is the
  package's folder; a `package.json` script carries the CLI's flags.
* node:test runs each file of `node --test` in a child process of its own
  unless `--test-isolation=none` (`--experimental-test-isolation=none`
  before Node 23), which a `package.json` script carries.
* Jest gives every test file a module registry of its own, whatever its
  options (`--runInBand` runs the files one after another, each with its
  registry), and AVA runs each file in a worker thread or, with
  `workerThreads: false`, a child process of its own: neither has a switch
  to read.

`near(path)`: the base files read for a new file `path`: in its folder
and each folder above it, `package.json` and Vitest's configuration files
(`NAMES`).  `shared(runner, configs)`: whether those texts (path -> base
text, None where absent) turn the runner's isolation off; where a text is
unknown (`configs` None: the source could not read one, or a source that
reads no base files) the file is judged as sharing its process.  A word
`isolate` in a Vitest configuration with any value but a literal `true`
(a variable, a condition, a comment) counts as turning it off.

Out of reach: a configuration named only by a `--config` flag under
another name, settings a configuration imports from another module
(`mergeConfig(shared, ...)`), flags set by CI command lines or
`NODE_OPTIONS`, and a script that loads every test file itself
(`run({ isolation: 'none' })` in a file the change does not touch).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_CODE = ("js", "mjs", "cjs", "ts", "mts", "cts")
# The files read in each folder from a new test file's up to the root.
NAMES = (
    "package.json",
    *(f"vitest.config.{s}" for s in _CODE),
    *(f"vite.config.{s}" for s in _CODE),
    *(f"vitest.workspace.{s}" for s in (*_CODE, "json")),
)
_SUFFIXES = frozenset(f".{s}" for s in (*_CODE, "jsx", "tsx"))

# The runners whose isolation a base configuration can turn off.
VITEST = "vitest"
NODE_TEST = "node:test"

# Vitest's key `isolate` (`isolate: false`, `"isolate": x`, `{ isolate }`):
# any value but a literal `true` turns it off.
_KEY = re.compile(r"""(?<![\w$-])isolate(?![\w$-])(?!['"]?\s*:\s*true\b)""")
# Vitest's command-line flags and the pre-1.0 settings that ran files in one
# context; in a Vitest configuration, also the settings' keys.
_VITEST_FLAGS = re.compile(
    r"""--no-isolate\b|(?:--|\.)isolate(?:=(?!true\b)|\s+(?:false|0)\b)"""
    r"""|--no-threads\b|--single-(?:thread|fork)\b|\bsingle(?:Thread|Fork)\b"""
    r"""|(?<![\w$])['"]?threads['"]?\s*:\s*false\b"""
)
# node:test's flag, with any value but `process`.
_NODE_FLAGS = re.compile(r"""test-isolation(?:=|\s+)(?![\\'"]*process\b)""")


def near(path: str) -> tuple[str, ...]:
    """The base files read for a new JS/TS file `path` (`NAMES` in its
    folder and each folder above it); none for another file."""
    name = path.rpartition("/")[2]
    if "." not in name or "." + name.rpartition(".")[2].lower() not in _SUFFIXES:
        return ()
    parts = path.split("/")[:-1]
    folders = ["/".join(parts[:depth]) for depth in range(len(parts), -1, -1)]
    return tuple(f"{folder}/{n}" if folder else n for folder in folders for n in NAMES)


def shared(runner: str, configs: Mapping[str, str | None] | None) -> bool:
    """Whether the base texts `configs` (`near`'s paths -> text, None where
    absent; None: not all known) turn `runner`'s per-file isolation off
    (`VITEST`, `NODE_TEST`; any other runner has no such switch)."""
    if runner not in (VITEST, NODE_TEST):
        return False
    if configs is None:
        return True
    for path, text in configs.items():
        if text is None:
            continue
        if path.rpartition("/")[2] == "package.json":
            flags = _VITEST_FLAGS if runner == VITEST else _NODE_FLAGS
            if flags.search(text):
                return True
        elif runner == VITEST and (_KEY.search(text) or _VITEST_FLAGS.search(text)):
            return True
    return False
