"""Per-case results from the test runners' own reports.

A frozen run does not parse what a runner prints for people, except where
the runner has no other report.  It asks each runner COMMAND may start for
a machine report through the runner's documented switches, in the
environment or in COMMAND's own arguments, and reads them afterwards:

* pytest: `PYTEST_ADDOPTS` gains `--junitxml=FILE -o junit_family=xunit1
  --continue-on-collection-errors` (docs.pytest.org, "How to use pytest",
  JUnit XML: xunit1 names each case's file; a module that fails to import
  is reported and the other modules still run).  One JUnit file: when
  COMMAND runs pytest twice, the last run's report is the one read.
* node's test runner: `NODE_OPTIONS` gains a reporter (nodejs.org/api/
  test.html, "Custom reporters") shipped beside this module, which appends
  each finished test's file, name and ancestors to a JSON-lines file, and
  the `spec` reporter to stdout, so people read what they always read.
* `go test`: when COMMAND is `go test ...`, `-json` is added after `test`
  (pkg.go.dev/cmd/go, "go test -json"; cmd/test2json's events), and the
  events' output is printed as `go test` prints it.
* Jest, Vitest and Mocha, when COMMAND runs one of them itself (`jest`,
  `npx vitest run`, `pnpm exec mocha`, `node_modules/.bin/jest`...): their
  JSON reports, asked for with their own flags appended to COMMAND (Jest's
  `--json --outputFile=FILE`, Vitest's `--reporter=default --reporter=json
  --outputFile.json=FILE`, Mocha's `--reporter json --reporter-option
  output=FILE`, which replaces Mocha's console reporter).  Through `npm test`
  the gate cannot reach the runner's arguments: only node's test runner is
  read there.
* unittest: when COMMAND is `python -m unittest ...`, the summary it prints
  for people is read (`FAIL: name (dotted.id)`, `ERROR: ...`): unittest
  writes no other report.

What a report cannot say (a runner the gate does not know, a report that
is missing or unreadable) is said as much: `Results.readable` is False and
the frozen run counts every failure red.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as ET

from gate.base.errors import GateError
from gate.base.files import read_input

FAILED = "failed"
PASSED = "passed"
SKIPPED = "skipped"

# How much of a report the gate reads: a report beyond this is unreadable.
MAX_REPORT_BYTES = 64 * 1024 * 1024
NODE_EVENTS_ENV = "BLAST_RADIUS_GATE_NODE_EVENTS"


@dataclass(frozen=True)
class Case:
    """One test's result, as its runner named it.

    `file`: the test file, repository-relative when the report names it
    (None: it does not); `name`: the test's name as the language's test
    units name it (`TestClamp.test_low`, `outer > x`, `TestClamp`), with
    parameters and subtests dropped (`test_x[1-2]` is `test_x`); `detail`:
    what the report calls it in full; `scope`: "case", or "file" / "package"
    when a whole module or package failed (an import error, a build error);
    `package`: for Go, the package's import path."""

    file: str | None
    name: str
    outcome: str
    detail: str
    scope: str = "case"
    runner: str = ""
    package: str = ""  # Go: the package's import path

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file or "", self.detail, self.scope)


@dataclass
class Results:
    """What the reports said: every case read, the runners whose report was
    read, and what could not be read."""

    cases: list[Case] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def failures(self) -> list[Case]:
        return [c for c in self.cases if c.outcome == FAILED]

    @property
    def readable(self) -> bool:
        return bool(self.read) and not self.problems


@dataclass(frozen=True)
class Plan:
    """How one run of COMMAND asks for reports: its argv (changed for `go
    test` and the JavaScript runners), its extra environment, and where the
    reports land; `js`: the JavaScript runner COMMAND starts ("" none)."""

    argv: tuple[str, ...]
    env: dict[str, str]
    folder: Path
    go_json: bool
    unittest: bool
    js: str = ""


JS_RUNNERS = ("jest", "vitest", "mocha")
# Words that start a package's own command: `npx jest`, `pnpm exec vitest`.
_LAUNCHERS = {"npx": 1, "bunx": 1, "pnpx": 1, "yarn": 1, "pnpm": 2}


def js_runner(argv: Sequence[str]) -> str:
    """The JavaScript test runner `argv` starts itself ("" none): its first
    word, or the word after a launcher (`npx`, `yarn`, `pnpm exec`)."""
    words = list(argv)
    if words and os.path.basename(words[0]) in _LAUNCHERS:
        skip = _LAUNCHERS[os.path.basename(words[0])]
        if skip == 2 and words[1:2] != ["exec"]:
            skip = 1
        words = [w for w in words[skip:] if not w.startswith("-")][:1]
    name = os.path.basename(words[0]) if words else ""
    return name if name in JS_RUNNERS else ""


def _js_flags(runner: str, report: Path) -> tuple[str, ...]:
    if runner == "jest":
        return ("--json", f"--outputFile={report}")
    if runner == "vitest":
        return ("--reporter=default", "--reporter=json", f"--outputFile.json={report}")
    return ("--reporter", "json", "--reporter-option", f"output={report}")


def _is_python(word: str) -> bool:
    return re.fullmatch(r"python[\d.]*", os.path.basename(word)) is not None


def prepare(argv: Sequence[str], folder: Path, env: dict[str, str]) -> Plan:
    """The report switches for running `argv` with environment `env`,
    reports written under `folder` (which exists)."""
    out = dict(env)
    junit = folder / "pytest.xml"
    addopts = f"--junitxml={shlex.quote(str(junit))} -o junit_family=xunit1"
    addopts += " --continue-on-collection-errors"
    out["PYTEST_ADDOPTS"] = (env.get("PYTEST_ADDOPTS", "") + " " + addopts).strip()
    reporter = Path(__file__).with_name("node_reporter.mjs")
    out[NODE_EVENTS_ENV] = str(folder / "node.jsonl")
    node = (
        "--test-reporter=spec --test-reporter-destination=stdout "
        f"--test-reporter={reporter} --test-reporter-destination=stderr"
    )
    if _starts_node(argv):
        out["NODE_OPTIONS"] = (env.get("NODE_OPTIONS", "") + " " + node).strip()
    args = tuple(argv)
    go_json = len(args) >= 2 and os.path.basename(args[0]) == "go" and args[1] == "test"
    if go_json and "-json" not in args:
        args = (args[0], args[1], "-json", *args[2:])
    unittest = len(args) >= 3 and _is_python(args[0]) and args[1:3] == ("-m", "unittest")
    js = js_runner(args)
    if js:
        args = (*args, *_js_flags(js, folder / "js.json"))
    return Plan(args, out, folder, go_json, unittest, js)


def _starts_node(argv: Sequence[str]) -> bool:
    """Whether `argv` starts node or a package manager that runs it: only
    then is NODE_OPTIONS given the reporter (an old node refuses an option
    it does not know there)."""
    return bool(argv) and os.path.basename(argv[0]) in (
        "node",
        "npm",
        "npx",
        "yarn",
        "pnpm",
        "corepack",
    )


def read(plan: Plan, stdout: str, stderr: str, root: Path) -> Results:
    """Every report `plan` asked for and the run wrote, read into `Results`;
    `stdout`/`stderr` are COMMAND's (go's events, unittest's summary); `root`
    is the tree the tests ran in (report paths are made relative to it)."""
    results = Results()
    junit = plan.folder / "pytest.xml"
    if junit.exists():
        _read_junit(junit, root, results)
    events = plan.folder / "node.jsonl"
    if events.exists():
        _read_node(events, root, results)
    if plan.go_json:
        _read_go(stdout, results)
    if plan.unittest:
        _read_unittest(stderr, results)
    if plan.js:
        report = plan.folder / "js.json"
        if report.exists():
            _read_js(report, plan.js, root, results)
        else:
            results.problems.append(f"{plan.js} wrote no JSON report")
    return results


def _read_js(path: Path, runner: str, root: Path, results: Results) -> None:
    """Jest's and Vitest's report (`testResults`, each file's
    `assertionResults`), or Mocha's (`tests`, each with its `file`)."""
    data = _bounded(path, results, f"{runner}'s JSON report")
    if data is None:
        return
    try:
        report = json.loads(data)
    except ValueError:
        results.problems.append(f"{runner}'s JSON report is not JSON")
        return
    if not isinstance(report, dict):
        results.problems.append(f"{runner}'s JSON report is not an object")
        return
    results.read.append(runner)
    if runner == "mocha":
        failing = {id(t) for t in report.get("failures") or [] if isinstance(t, dict)}
        for test in report.get("tests") or []:
            if not isinstance(test, dict):
                continue
            name = str(test.get("fullTitle") or test.get("title") or "")
            failed = bool(test.get("err")) or id(test) in failing
            outcome = FAILED if failed else PASSED
            file = _relative(test.get("file"), root)
            results.cases.append(Case(file, name, outcome, name, runner=runner))
        return
    for suite in report.get("testResults") or []:
        if not isinstance(suite, dict):
            continue
        file = _relative(suite.get("name") or suite.get("testFilePath"), root)
        cases = [a for a in suite.get("assertionResults") or [] if isinstance(a, dict)]
        if not cases and suite.get("status") == "failed":  # the file did not load
            detail = str(suite.get("message") or file or "")[:200]
            results.cases.append(Case(file, "", FAILED, detail, scope="file", runner=runner))
        for case in cases:
            titles = [str(t) for t in case.get("ancestorTitles") or [] if t]
            name = " > ".join([*titles, str(case.get("title", ""))])
            status = case.get("status")
            outcome = FAILED if status == "failed" else SKIPPED if status != "passed" else PASSED
            results.cases.append(Case(file, name, outcome, name, runner=runner))


def _bounded(path: Path, results: Results, what: str) -> bytes | None:
    """A report's bytes (`gate.base.files.read_input`, at most `MAX_REPORT_BYTES`);
    None, and a problem said, when it cannot be read."""
    try:
        return read_input(path, what, fix="the run's report folder changed", limit=MAX_REPORT_BYTES)
    except GateError as exc:
        results.problems.append(exc.message)
        return None


def _relative(name: str | None, root: Path) -> str | None:
    """A report's file name as a repository path: relative names stay,
    absolute ones under `root` lose it; anything else is unknown (None)."""
    if not name:
        return None
    if os.path.isabs(name):
        try:
            name = os.path.relpath(os.path.realpath(name), os.path.realpath(root))
        except ValueError:
            return None
        if name.startswith(".."):
            return None
    return name.replace(os.sep, "/")


def _drop_params(name: str) -> str:
    """`test_x[1-2]` -> `test_x`; `TestX/sub case` -> `TestX`."""
    return name.split("[", 1)[0].split("/", 1)[0]


def _read_junit(path: Path, root: Path, results: Results) -> None:
    data = _bounded(path, results, "pytest's JUnit report")
    if data is None:
        return
    try:
        tree = ET.fromstring(data)
    except ET.ParseError as exc:
        results.problems.append(f"pytest's JUnit report is not XML ({exc})")
        return
    except DefusedXmlException as exc:  # an entity: never expanded or fetched
        name = getattr(exc, "name", "")
        results.problems.append(f"pytest's JUnit report declares the XML entity {name!r}")
        return
    results.read.append("pytest")
    for case in tree.iter("testcase"):
        file = _relative(case.get("file"), root)
        classname, name = case.get("classname") or "", case.get("name") or ""
        failed = case.find("failure") is not None or case.find("error") is not None
        skipped = case.find("skipped") is not None
        error = case.find("error")
        collection = error is not None and "collection failure" in (error.get("message") or "")
        if collection or (not classname and name and "/" not in name and "." in name and not file):
            module = name.replace(".", "/") + ".py" if "/" not in name else name
            results.cases.append(
                Case(file or module, "", FAILED, name, scope="file", runner="pytest")
            )
            continue
        unit = _drop_params(name)
        if file is not None:
            module = file[: -len(".py")].replace("/", ".") if file.endswith(".py") else ""
            rest = classname[len(module) + 1 :] if module and classname.startswith(module) else ""
            if rest:
                unit = f"{rest}.{unit}"
        outcome = FAILED if failed else SKIPPED if skipped else PASSED
        detail = f"{classname}::{name}" if classname else name
        results.cases.append(Case(file, unit, outcome, detail, runner="pytest"))


def _read_node(path: Path, root: Path, results: Results) -> None:
    data = _bounded(path, results, "node's test events")
    if data is None:
        return
    results.read.append("node")
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            results.problems.append("node's test events hold a line that is not JSON")
            return
        if not isinstance(event, dict) or event.get("kind") == "suite":
            continue
        ancestors = [str(a) for a in event.get("ancestors") or []]
        name = " > ".join([*ancestors, str(event.get("name", ""))])
        outcome = FAILED if event.get("type") == "test:fail" else PASSED
        if event.get("skip") or event.get("todo"):
            outcome = SKIPPED
        file = _relative(event.get("file"), root)
        results.cases.append(Case(file, name, outcome, name, runner="node"))


_GO_BUILD_FAILED = re.compile(r"^FAIL\t(\S+) \[(?:build|setup) failed\]$")


def _read_go(stdout: str, results: Results) -> None:
    seen = False
    for line in stdout.splitlines():
        broken = _GO_BUILD_FAILED.match(line)
        if broken:  # before Go 1.20 a build failure is this line, not an event
            seen = True
            package = broken.group(1)
            results.cases.append(
                Case(None, "", FAILED, package, scope="package", runner="go", package=package)
            )
            continue
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict) or "Action" not in event:
            continue
        seen = True
        action, package = event.get("Action"), str(event.get("Package", ""))
        test = event.get("Test")
        if action not in ("pass", "fail", "skip"):
            continue
        outcome = {"pass": PASSED, "fail": FAILED, "skip": SKIPPED}[action]
        if test:
            name = _drop_params(str(test))
            detail = f"{package}.{test}"
            results.cases.append(Case(None, name, outcome, detail, runner="go", package=package))
        elif outcome == FAILED:
            results.cases.append(
                Case(None, "", FAILED, package, scope="package", runner="go", package=package)
            )
    # A package fails whenever one of its tests does: only a package that
    # failed with no failing test of its own failed as a whole (a build error).
    failing = {c.package for c in results.cases if c.runner == "go" and c.scope == "case"}
    failing &= {c.package for c in results.cases if c.outcome == FAILED and c.scope == "case"}
    results.cases[:] = [
        c for c in results.cases if not (c.scope == "package" and c.package in failing)
    ]
    if seen:
        results.read.append("go")
    else:
        results.problems.append("go test wrote no JSON events")


_UNITTEST = re.compile(r"^(FAIL|ERROR): (\S+) \(([\w.]+)\)", re.MULTILINE)
_UNITTEST_RAN = re.compile(r"^Ran \d+ tests? in ", re.MULTILINE)


def _read_unittest(stderr: str, results: Results) -> None:
    if not _UNITTEST_RAN.search(stderr):
        results.problems.append("unittest printed no summary ('Ran N tests')")
        return
    results.read.append("unittest")
    for _kind, method, dotted in _UNITTEST.findall(stderr):
        # Python 3.11+ prints the full id, older ones the class: both end in a class.
        parts = dotted.split(".")
        if parts[-1] == method:
            parts = parts[:-1]
        if method.startswith("setUpClass") or method.startswith("setUpModule"):
            results.cases.append(Case(None, "", FAILED, dotted, scope="file", runner="unittest"))
            continue
        results.cases.append(Case(None, f"{parts[-1]}.{method}", FAILED, dotted, runner="unittest"))


def render_go(stdout: str) -> str:
    """`go test -json`'s events as `go test` prints them (each event's Output),
    and any line that is not an event as it was."""
    out: list[str] = []
    for line in stdout.splitlines(keepends=True):
        if line.startswith("{"):
            try:
                event = json.loads(line)
            except ValueError:
                out.append(line)
                continue
            if isinstance(event, dict) and isinstance(event.get("Output"), str):
                out.append(event["Output"])
            continue
        out.append(line)
    return "".join(out)
