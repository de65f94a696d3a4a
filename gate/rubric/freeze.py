"""Freeze files: pin a rubric's bytes to a recorded SHA-256.

Format (what `gate freeze` prints and `--freeze` reads), one entry a line::

    NAME SHA256

* SHA256 is the LAST whitespace-separated field: 64 hex digits (upper case
  is accepted, lower case is printed).
* NAME is everything before the whitespace that precedes the hash, so a
  name may contain spaces (`my rubrics/gate.yml 3f...`).  A name cannot
  contain a line break and cannot end in whitespace; `gate freeze` refuses
  such paths rather than print a line that would not read back.
* Blank lines are ignored; any other line that is not `NAME SHA256` is an
  error naming the freeze file and line.  There are no comments (a name
  may start with `#`).  A file is UTF-8; a `\\r\\n` line end is accepted.
* A name listed twice with two different hashes is an error.

A rubric is looked up by its path exactly as the caller names it, then by
its normalised path (`./a.yml` is `a.yml`), then by its base name when
exactly one entry has that base name.
"""

from __future__ import annotations

import os
import posixpath
import re

from gate.base.errors import GateError
from gate.base.files import read_input
from gate.rubric.load import sha256_hex

_LINE = re.compile(r"(?P<name>.*?\S)[ \t]+(?P<sha>[0-9A-Fa-f]{64})[ \t]*")


def _name_problem(name: str) -> str | None:
    if name == "" or name != name.rstrip():
        return "a name that is empty or ends in whitespace"
    if "\n" in name or "\r" in name:
        return "a name with a line break"
    return None


def freeze_line(path: str) -> str:
    """`"NAME SHA256"` for the file at `path` (NAME is `path` as given)."""
    problem = _name_problem(path)
    if problem is not None:
        raise GateError(
            f"cannot freeze {path!r}: a freeze file cannot record {problem}; rename the file"
        )
    data = read_input(path, "file", fix="check the path")
    return f"{path} {sha256_hex(data)}"


def read_freeze(freeze_path: str) -> dict[str, str]:
    """Name -> lowercase hex SHA-256, from the freeze file at `freeze_path`."""
    data = read_input(freeze_path, "freeze file", fix="check the path")
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise GateError(
            f"freeze file {freeze_path} is not UTF-8: write it with `gate freeze`"
        ) from None
    entries: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line.strip():
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise GateError(
                f"freeze file {freeze_path}:{number}: not a 'NAME SHA256' line "
                "(a name, a space, then 64 hex digits); regenerate it with `gate freeze`"
            )
        name, sha = match["name"], match["sha"].lower()
        if name in entries and entries[name] != sha:
            raise GateError(
                f"freeze file {freeze_path}:{number}: {name} is listed again with another hash "
                f"(first on line {lines[name]}); keep one line per file"
            )
        entries.setdefault(name, sha)
        lines.setdefault(name, number)
    return entries


def _lookup(entries: dict[str, str], rubric_path: str) -> tuple[str, str] | None:
    if rubric_path in entries:
        return rubric_path, entries[rubric_path]
    norm = posixpath.normpath(rubric_path.replace(os.sep, "/"))
    same = [n for n in entries if posixpath.normpath(n.replace(os.sep, "/")) == norm]
    if len(same) == 1:
        return same[0], entries[same[0]]
    base = posixpath.basename(norm)
    by_base = [n for n in entries if posixpath.basename(n.replace(os.sep, "/")) == base]
    if len(by_base) == 1:
        return by_base[0], entries[by_base[0]]
    return None


def verify_freeze(freeze_path: str, rubric_path: str, data: bytes) -> None:
    """Raise GateError unless `data` (the rubric's bytes) matches its freeze entry."""
    entries = read_freeze(freeze_path)
    found = _lookup(entries, rubric_path)
    if found is None:
        raise GateError(
            f"freeze file {freeze_path} has no entry for the rubric {rubric_path}: "
            f"add one with `gate freeze {rubric_path}`"
        )
    name, expected = found
    actual = sha256_hex(data)
    if actual != expected:
        raise GateError(
            f"rubric changed after freeze; discard this run: {rubric_path} has sha256 {actual}, "
            f"but {freeze_path} records {expected} for {name}"
        )
