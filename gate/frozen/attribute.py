"""Which frozen failures a static flag explains (`attribute`).

A base test that fails on the pull request's code is excused only by a
static flag that explains it: the `test_drift` rule of the same rubric
flags, in the change, the test case itself (edited or removed), a helper,
fixture or module-level name it uses, its class's or its file's code that
runs around it, a conftest fixture it takes, or a test data or snapshot
file it reads.  Each excused failure therefore stands behind a red static
check that only a maintainer's approval clears.  Where the runner's name
for a failing test is no unit of its file (generated and data-driven
tests), the failure falls back to its class, then its file, and the reason
says so; a module that failed to import falls back to the code of its file
that runs at import, a Go package that failed to build to its test files'
code outside test cases.  Every other failure is red, even in a file the
pull request touched.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from gate.drift import CASE, Drift, Unit, Unparsable, compare, units_for
from gate.frozen.reports import Case
from gate.model.change import FileTexts

EXCUSED = "excused"
RED = "red"
AT_HEAD = "failing at head"


@dataclass(frozen=True)
class Failure:
    """A failing base test and what the frozen run makes of it."""

    case: Case
    file: str | None
    status: str
    why: str

    def to_dict(self) -> dict[str, object]:
        return {
            "test": self.case.detail,
            "file": self.file,
            "runner": self.case.runner,
            "scope": self.case.scope,
            "status": self.status,
            "why": self.why,
        }


@dataclass(frozen=True)
class Static:
    """What the static rule flags: `flagged`, the paths its failed results
    name; `texts`, a path's base and head text (None: neither side has a
    file there); `base_paths`, every path of the base tree; `modules`, each
    Go module's folder and module path (from the head's go.mod files)."""

    flagged: frozenset[str]
    texts: Callable[[str], FileTexts | None]
    base_paths: frozenset[str]
    modules: tuple[tuple[str, str], ...] = ()


def attribute(failures: Sequence[Case], static: Static) -> list[Failure]:
    """Each failure of the frozen run, excused by the flag that explains it,
    or red."""
    explain = _Explainer(static)
    out = []
    for case in failures:
        file = explain.locate(case)
        why = explain.why(case, file)
        if why is not None:
            out.append(Failure(case, file, EXCUSED, why))
        else:
            out.append(Failure(case, file, RED, explain.unexplained(case, file)))
    return out


def set_apart(
    failures: Sequence[Failure], failing_at_head: set[tuple[str, str, str]]
) -> list[Failure]:
    """`failures` with each red one that a plain run of the head fails too
    (`Case.key` in `failing_at_head`) set apart: the normal test job shows it."""
    why = "it fails in a plain run of the head too: the normal test job shows it"
    return [
        replace(f, status=AT_HEAD, why=why)
        if f.status == RED and f.case.key in failing_at_head
        else f
        for f in failures
    ]


class _Explainer:
    def __init__(self, static: Static) -> None:
        self.static = static

    # -- where a failure is ----------------------------------------------------

    def locate(self, case: Case) -> str | None:
        """The base test file (or, for a package, folder) a failure is in."""
        base = self.static.base_paths
        if case.runner == "go":
            folder = self._go_folder(case.package)
            if folder is None:
                return None
            if case.scope == "package":
                return folder
            return self._go_file(folder, case.name)
        if case.file is not None:
            if case.file in base or case.scope == "file":
                return case.file
            ends = [p for p in base if p.endswith("/" + case.file)]
            return ends[0] if len(ends) == 1 else case.file
        if case.runner == "unittest":
            return self._dotted_file(case.detail)
        return None

    def _dotted_file(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        for n in range(len(parts), 0, -1):
            candidate = "/".join(parts[:n]) + ".py"
            hits = [
                p for p in self.static.base_paths if p == candidate or p.endswith("/" + candidate)
            ]
            if len(hits) == 1:
                return hits[0]
        return None

    def _go_folder(self, package: str) -> str | None:
        for folder, module in sorted(self.static.modules, key=lambda m: -len(m[1])):
            if package == module or package.startswith(module + "/"):
                rest = package[len(module) :].lstrip("/")
                return posixpath.join(folder, rest) if rest else folder or "."
        return None

    def _go_file(self, folder: str, name: str) -> str | None:
        prefix = "" if folder in ("", ".") else folder + "/"
        for path in sorted(self.static.base_paths):
            if not path.startswith(prefix) or "/" in path[len(prefix) :]:
                continue
            if path.endswith("_test.go") and any(u.name == name for u in self._units(path, "base")):
                return path
        return None

    # -- the units ---------------------------------------------------------------

    def _units(self, path: str, side: str) -> tuple[Unit, ...]:
        return _split(path, self._text(path, side))

    def _text(self, path: str, side: str) -> str | None:
        texts = self.static.texts(path)
        if texts is None:
            return None
        return texts.base if side == "base" else texts.head

    def _drift(self, path: str) -> Drift | None:
        base, head = self._units(path, "base"), self._units(path, "head")
        if not base or self._text(path, "head") is None:
            return None
        return compare(base, head)

    # -- why -----------------------------------------------------------------------

    def why(self, case: Case, file: str | None) -> str | None:
        if file is None:
            return None
        if case.scope == "package":
            return self._package(file)
        reasons = self._around(file, case)
        if reasons is not None:
            return reasons
        if file not in self.static.flagged:
            return self._data_files(file, None)
        if self._text(file, "head") is None:
            return "the pull request deletes or renames its file"
        units = self._units(file, "base")
        if not units:
            return f"the pull request changes {file}, which is one unit (no parser reads it)"
        drift = self._drift(file)
        assert drift is not None
        if case.scope == "file":
            return self._at_import(file, units, drift)
        unit = self._find(units, case.name)
        if unit is None:
            return self._fallback(file, units, drift, case.name)
        return self._unit(file, units, drift, unit) or self._data_files(file, unit)

    def _find(self, units: Sequence[Unit], name: str) -> Unit | None:
        """The case the runner's `name` names: the same name, the name under
        its suites (`outer > x`), or Mocha's full title (`outer x`)."""
        found = [
            unit
            for unit in units
            if unit.name == name
            or unit.name.endswith(" > " + name)
            or (" > " in unit.name and unit.name.replace(" > ", " ") == name)
        ]
        # A test the runner names is a test whatever role its code has (a
        # parametrized one whose marks call the project's code reads as
        # collection-time code to test_drift), but a case comes first.
        found.sort(key=lambda u: u.role != CASE)
        return found[0] if found else None

    def _unit(self, file: str, units: Sequence[Unit], drift: Drift, unit: Unit) -> str | None:
        if unit.name in drift.removed:
            return f"the pull request removes the test {unit.name} from {file}"
        if unit.name in drift.changed:
            return f"the pull request edits the test {unit.name} in {file}"
        changed = set(drift.changed) | set(drift.removed)
        by_name = {u.name: u for u in units}
        uses = _uses(unit)
        through = _through(units, changed)
        for name in sorted(changed):
            other = by_name.get(name)
            if other is None or (other.role == CASE and not other.parent):
                continue
            if other.key == unit.parent:
                return f"the pull request changes its class {other.name} in {file}"
            if other.parent and other.parent == unit.parent and other.role != CASE:
                return f"the pull request changes {other.name}, which runs with it, in {file}"
            if set(other.binds) & uses:
                shared = ", ".join(sorted(set(other.binds) & uses))
                return f"it uses {shared}, which the pull request changes in {file}"
            # module-level data built from what changed: HELLO = (..., HELP[1])
            via = sorted(n for n in uses if through.get(n) in other.binds)
            if via:
                return (
                    f"it uses {via[0]}, which is built from {through[via[0]]}, which the pull "
                    f"request changes in {file}"
                )
            if not other.parent and other.role != CASE and not other.binds:
                return f"the pull request changes module-level code of {file} ({other.name})"
        for name, why in drift.refused:
            if not name.startswith("new "):
                continue
            return (
                f"the static rule flags {name} in {file} ({why}), code that runs around "
                "every test of the file"
            )
        return None

    def _at_import(self, file: str, units: Sequence[Unit], drift: Drift) -> str | None:
        """A module that failed to import: code of the file that runs at import."""
        by_name = {u.name: u for u in units}
        for name in [*drift.changed, *drift.removed]:
            other = by_name.get(name)
            if other is not None and other.role != CASE:
                return (
                    f"the module failed to import, and the pull request changes {other.name} "
                    f"in {file} (attributed to the file)"
                )
        if drift.refused:
            name, why = drift.refused[0]
            return f"the module failed to import, and the static rule flags {name} ({why})"
        return None

    def _fallback(self, file: str, units: Sequence[Unit], drift: Drift, name: str) -> str | None:
        """A test the runner names but the file has no unit for (a generated
        or data-driven test): its class, then its file."""
        parent = name.rsplit(".", 1)[0] if "." in name else ""
        if parent:
            header = next((u for u in units if u.name == parent), None)
            if header is not None:
                members = [
                    n
                    for n in (*drift.changed, *drift.removed)
                    if n == parent or n.startswith(parent + ".")
                ]
                if members:
                    return (
                        f"the pull request changes {members[0]} in {file} (attributed to its "
                        f"class {parent}: the runner's name {name} is no unit of the file)"
                    )
        flags = [*drift.changed, *drift.removed, *(n for n, _ in drift.refused)]
        if flags:
            return (
                f"the pull request changes {flags[0]} in {file} (attributed to the file: the "
                f"runner's name {name} is no unit of it, a generated or data-driven test)"
            )
        return None

    def _around(self, file: str, case: Case) -> str | None:
        """A flagged conftest.py in the test's folder or above: a fixture it
        takes that changed, or hooks that run around every test there."""
        folder = posixpath.dirname(file)
        uses: set[str] | None = None
        while True:
            conftest = posixpath.join(folder, "conftest.py") if folder else "conftest.py"
            if (
                conftest in self.static.flagged
                and conftest != file
                and self._text(conftest, "base") is not None  # a new one is not in the run
            ):
                drift = self._drift(conftest)
                if drift is None:
                    return f"the pull request deletes {conftest}, around the test"
                if uses is None:
                    unit = self._find(self._units(file, "base"), case.name)
                    uses = set(unit.uses or ()) if unit is not None else set()
                by_name = {u.name: u for u in self._units(conftest, "base")}
                for name in [*drift.changed, *drift.removed]:
                    other = by_name.get(name)
                    if other is None:
                        continue
                    if set(other.binds) & uses or other.role != "support":
                        return f"the pull request changes {other.name} in {conftest}, around it"
            if not folder:
                return None
            folder = posixpath.dirname(folder)

    def _data_files(self, file: str, unit: Unit | None) -> str | None:
        """A flagged test data or snapshot file the test reads: its name in
        the test's code, or a snapshot named after the test's file."""
        stem = posixpath.basename(file).split(".", 1)[0]
        code = unit.code if unit is not None else self._text(file, "base") or ""
        for path in sorted(self.static.flagged):
            if path == file or _split(path, self._text(path, "base") or self._text(path, "head")):
                continue
            name = posixpath.basename(path)
            snapshot = "__snapshots__/" in path or path.endswith(".snap")
            if (snapshot and stem and stem in path) or (name and name in code):
                return f"it reads {path}, which the pull request changes"
        return None

    def _package(self, folder: str) -> str | None:
        """A Go package that failed to build: which of its test files is
        flagged (the failing tests cannot be told apart, so the package is
        the unit, and the reason says so)."""
        prefix = "" if folder in ("", ".") else folder + "/"
        for path in sorted(self.static.flagged):
            if not (path.startswith(prefix) and path.endswith("_test.go")):
                continue
            if "/" in path[len(prefix) :] or self._text(path, "base") is None:
                continue
            if self._text(path, "head") is None:
                return f"the package failed to build, and the pull request deletes {path}"
            drift = self._drift(path)
            flags = [] if drift is None else [*drift.changed, *drift.removed]
            flags += [n for n, _ in drift.refused] if drift is not None else []
            what = flags[0] if flags else "the file"
            return (
                f"the package failed to build, and the pull request changes {what} in {path} "
                "(attributed to the package: a build failure names no test)"
            )
        return None

    def unexplained(self, case: Case, file: str | None) -> str:
        if file is None:
            return "the report does not say which test file it is in, so no flag can explain it"
        if case.scope == "package":
            return f"the package {file} failed to build, and no static flag explains it"
        if file not in self.static.flagged and case.file is not None and self._no_flag(file):
            return f"the pull request does not touch {file}: the base's test fails on its code"
        return f"no static flag in the change explains it ({file} at base)"

    def _no_flag(self, file: str) -> bool:
        return file not in self.static.flagged


def _uses(unit: Unit) -> set[str]:
    """The names a unit's code reads (every word of it where unknown)."""
    return set(unit.uses if unit.uses is not None else re.findall(r"\w+", unit.code))


def _through(units: Sequence[Unit], changed: set[str]) -> dict[str, str]:
    """Module-level names whose value is built, directly or through other
    such names, from a name a changed unit binds: each such name -> the
    changed name it comes from (`HELLO = (..., HELP[1])` with HELP changed)."""
    by_name = {u.name: u for u in units}
    origin = {b: b for n in changed if (u := by_name.get(n)) is not None for b in u.binds}
    grew = True
    while grew:
        grew = False
        for unit in units:
            if unit.parent or unit.role == CASE:
                continue
            source = next((origin[n] for n in sorted(_uses(unit)) if n in origin), None)
            if source is None:
                continue
            for bound in unit.binds:
                if bound not in origin:
                    origin[bound] = source
                    grew = True
    return {name: source for name, source in origin.items() if name != source}


@cache
def _split_cached(path: str, text: str) -> tuple[Unit, ...]:
    try:
        return units_for(path, text) or ()
    except Unparsable:
        return ()


def _split(path: str, text: str | None) -> tuple[Unit, ...]:
    return () if text is None else _split_cached(path, text)


def go_modules(
    paths: Iterable[str], read: Callable[[str], str | None]
) -> tuple[tuple[str, str], ...]:
    """Each go.mod's folder and module path (`module example.com/m`)."""
    out = []
    for path in paths:
        if posixpath.basename(path) != "go.mod":
            continue
        text = read(path) or ""
        found = re.search(r"^\s*module\s+(\"?)([^\s\"]+)\1", text, re.MULTILINE)
        if found:
            out.append((posixpath.dirname(path), found.group(2)))
    return tuple(out)
