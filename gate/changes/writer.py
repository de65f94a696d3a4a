"""A writer's structured result (result.json) as a change set.

The field contract (seed 003): a JSON object with

- `files_touched`: an integer count of edited paths (a boolean is not one),
- `stdout`: the captured output, a string,
- `paths`: the list of touched paths, strings;

extra keys are ignored.  A path must be repo-relative and normalized, with
`/` between names: an empty, absolute or unnormalized path, or one with a
backslash anywhere (`secrets\\keys`, a Windows separator a rule would
otherwise read as part of one name), is a mistyped `paths`.  A missing
field, a mistyped field or a partial JSON object is a failed contract,
never a pass: `changes_from_writer` raises `WriterContractError` (exit 2),
which carries the machine-readable `{"missing": [...]}` that `gate grade`
prints on stdout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gate.base.errors import GateError
from gate.base.escape import printable
from gate.model.change import ChangeSet, from_paths

REQUIRED = ("files_touched", "stdout", "paths")
EXPECTED = {
    "files_touched": "a non-negative integer",
    "stdout": "a string",
    "paths": "a list of repo-relative path strings",
}


class WriterContractError(GateError):
    """Required fields are missing or mistyped (exit 2)."""

    def __init__(self, message: str, missing: list[str], mistyped: list[str]) -> None:
        super().__init__(message)
        self.missing = missing
        self.mistyped = mistyped

    def payload(self) -> dict[str, list[str]]:
        """What `gate grade` prints on stdout: `{"missing": [...]}` (and/or
        `{"mistyped": [...]}`), in contract order."""
        out: dict[str, list[str]] = {}
        if self.missing:
            out["missing"] = self.missing
        if self.mistyped:
            out["mistyped"] = self.mistyped
        return out


FIX = "a partial or malformed result is a failed contract, re-run the writer"


def _path_problem(p: str) -> str | None:
    if p == "":
        return "is empty"
    if p.startswith("/"):
        return "is absolute"
    if "\x00" in p:
        return "contains a NUL byte"
    if "\\" in p:
        return "contains a backslash (git separates names with '/' on every system; write '/')"
    parts = p.rstrip("/").split("/") if p != "/" else [""]
    if any(part in ("", ".", "..") for part in parts):
        return "is not a normalized repo-relative path (empty, '.' or '..' segment)"
    return None


def writer_changes(payload: Any, name: str) -> ChangeSet:
    """The change set of a parsed writer result (`name` in messages), checked
    against the field contract."""
    if not isinstance(payload, dict):
        raise GateError(
            f"{name}: the result must be a JSON object with files_touched, stdout and paths, "
            f"not a JSON {type(payload).__name__}"
        )
    missing = [k for k in REQUIRED if k not in payload]
    mistyped: list[str] = []
    details: list[str] = []

    files_touched = payload.get("files_touched")
    if "files_touched" in payload and (
        isinstance(files_touched, bool) or not isinstance(files_touched, int) or files_touched < 0
    ):
        mistyped.append("files_touched")
        details.append(
            f"files_touched is {_shown(files_touched)}, expected {EXPECTED['files_touched']}"
        )
    stdout = payload.get("stdout")
    if "stdout" in payload and not isinstance(stdout, str):
        mistyped.append("stdout")
        details.append(f"stdout is a JSON {_json_type(stdout)}, expected {EXPECTED['stdout']}")
    paths = payload.get("paths")
    if "paths" in payload:
        if not isinstance(paths, list):
            mistyped.append("paths")
            details.append(f"paths is a JSON {_json_type(paths)}, expected {EXPECTED['paths']}")
        else:
            for i, p in enumerate(paths):
                problem = (
                    f"is a JSON {_json_type(p)}, not a string"
                    if not isinstance(p, str)
                    else _path_problem(p)
                )
                if problem is not None:
                    mistyped.append("paths")
                    shown = _shown(p) if isinstance(p, str) else ""
                    details.append(f"paths[{i}] {shown + ' ' if shown else ''}{problem}")
                    break

    if missing or mistyped:
        parts = []
        if missing:
            parts.append(
                "missing required field" + ("s " if len(missing) > 1 else " ") + ", ".join(missing)
            )
        parts.extend(details)
        raise WriterContractError(
            f"{name}: " + "; ".join(parts) + "; a writer result needs files_touched (int), "
            "stdout (string) and paths (list of strings), so this run is a failed contract",
            missing,
            mistyped,
        )
    assert isinstance(files_touched, int) and isinstance(stdout, str) and isinstance(paths, list)
    return ChangeSet(
        files=from_paths(paths),
        files_touched=files_touched,
        stdout=stdout,
        source="writer",
    )


def _shown(value: Any, limit: int = 60) -> str:
    text = printable(json.dumps(value, ensure_ascii=False))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def changes_from_writer(path: str | Path) -> ChangeSet:
    """Read a writer's result.json into a `ChangeSet` (source "writer").

    Raises `GateError` for an unreadable file or invalid JSON (naming the
    line), `WriterContractError` for missing or mistyped fields.
    """
    from gate.base.jsontext import read_file

    payload = read_file(path, what="writer result", fix=FIX)  # strict and bounded JSON
    return writer_changes(payload, printable(str(path)))
