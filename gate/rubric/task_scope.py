"""A task's own scope: the scope block a maintainer writes in an issue, and
what it does to a rubric.

A scope block is a fenced code block whose info string is
`blast-radius-scope`, in the body of the issue a pull request closes (or in
a file, for `gate check --scope FILE`).  It holds YAML in the rubric's
words, every key optional but at least one:

```yaml
paths: ["src/parser/**", "tests/test_parser.py"]   # the only paths the task may touch
max_files: 3                                       # the task's file budget
max_lines: 80                                      # the task's line budget
levels:                                            # rule ids made stricter or gentler
  DEPS: fail
  TESTS: warn
```

The rubric's `scope:` says what a scope may do (`gate.base.names.SCOPE_MODES`): `none` (the
default: scope blocks are not read), `tighten` (a scope only adds limits)
or `loosen` (a scope's budgets replace the rubric's, and it may turn a rule
to `warn`).  What a scope does, in either mode:

* `paths` adds an `allowed_paths` rule `gate.scope.paths`: it can only
  narrow what a change may touch, so it applies under both modes.
* `max_files` / `max_lines` set the `limit` of each of the rubric's
  `max_files` / `max_lines` rules (their `exclude` stays): under `tighten`
  the lower of the two, under `loosen` the scope's.  A rubric without such a
  rule gets `gate.scope.max_files` / `gate.scope.max_lines`.
* `levels`: `fail` makes a `warn` rule fail (both modes); `warn` makes a
  rule warn only under `loosen`, and is reported as not applied under
  `tighten`.  Built-in `gate.` rules are always `fail`; naming one, or an
  id the rubric does not have, is an error.

Several scopes (a pull request closing several scoped issues) are one task
made of several: their `paths` are joined (a scope without `paths` leaves
paths open), their budgets added (one without a budget leaves it open),
`fail` levels joined, and a rule is relaxed only when every scope relaxes
it.  An issue without a block adds nothing.

Pure: who may write a block, and reading it from an issue, are the
Action's (`gate.action.issues`); `gate check --scope FILE` reads a file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from gate.base.errors import GateError
from gate.base.names import FAIL, LEVELS, WARN
from gate.model.rubric import Scope

# The fenced block's info string (its first word, compared case-insensitively).
INFO_STRING = "blast-radius-scope"
MAX_BLOCK_BYTES = 64 * 1024
MAX_PATHS = 200

SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "paths": {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_PATHS,
            "items": {"type": "string", "minLength": 1},
        },
        "max_files": {"type": "integer", "minimum": 0},
        "max_lines": {"type": "integer", "minimum": 0},
        "levels": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {"enum": list(LEVELS)},
        },
    },
}

# An opening fence: up to three spaces, then three or more backticks or tildes.
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")


def _error(source: str, line: int | None, message: str) -> GateError:
    where = source if line is None else f"{source}, line {line}"
    return GateError(f"invalid scope block: {where}: {message}")


def find_block(text: str, source: str) -> tuple[int, str] | None:
    """The one `blast-radius-scope` block in Markdown `text`: the line of its
    opening fence (1-based) and its contents; None when there is none.  Two
    blocks, or one never closed, are errors naming `source`."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent, fence, info = opening.groups()
        if fence[0] == "`" and "`" in info:
            i += 1  # not a fence (CommonMark): a backtick in a backtick fence's info string
            continue
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), None)
        words = info.split()
        if words and words[0].lower() == INFO_STRING:
            if end is None:
                raise _error(
                    source, i + 1, f"the {INFO_STRING} block is never closed; end it with {fence}"
                )
            body = [
                line[len(indent) :] if line.startswith(indent) else line.lstrip(" ")
                for line in lines[i + 1 : end]
            ]
            found.append((i + 1, "\n".join(body)))
        i = len(lines) if end is None else end + 1
    if len(found) > 1:
        raise _error(source, found[1][0], f"a second {INFO_STRING} block; keep one block per issue")
    return found[0] if found else None


def parse_block(text: str, source: str, first_line: int = 0) -> Scope:
    """The scope a block's YAML `text` states; its lines are counted from
    `first_line` (the opening fence's) so errors name the line of the issue
    body or file.  A block that is not valid is an error naming `source`."""
    from gate.rubric.yamldoc import parse_yaml

    if len(text.encode("utf-8", "surrogatepass")) > MAX_BLOCK_BYTES:
        raise _error(
            source,
            first_line or None,
            f"over {MAX_BLOCK_BYTES // 1024} KiB; a scope is a few lines",
        )
    if not text.strip():
        raise _error(
            source,
            first_line or None,
            "the block is empty; give at least one of paths, max_files, max_lines, levels",
        )
    try:
        doc = parse_yaml("\n" * first_line + text, source)
    except GateError as exc:  # the YAML reader's sentence, said about a scope block
        said = re.match(rf"invalid rubric: {re.escape(source)}(?::(\d+))?: (.*)", str(exc), re.S)
        if said is None:
            raise
        line = int(said.group(1)) if said.group(1) else None
        raise _error(source, line, said.group(2)) from None
    value = doc.value
    _validate(value, doc, source)
    return Scope(
        sources=(source,),
        paths=tuple(value["paths"]) if "paths" in value else None,
        max_files=value.get("max_files"),
        max_lines=value.get("max_lines"),
        levels=dict(value.get("levels", {})),
    )


def _validate(value: Any, doc: Any, source: str) -> None:
    from jsonschema import Draft202012Validator

    from gate.base import globs

    errors = sorted(
        Draft202012Validator(SCHEMA).iter_errors(value),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    if errors:
        err = errors[0]
        path = tuple(err.absolute_path)
        where = ".".join(str(p) for p in path) or "the block"
        if err.validator == "additionalProperties" and not path:
            extra = sorted(set(value) - set(SCHEMA["properties"]))
            message = f"unknown key {extra[0]!r}; allowed keys: {', '.join(SCHEMA['properties'])}"
        elif path[:1] == ("levels",) and len(path) == 2:
            message = f"levels.{path[1]}: {err.instance!r} is not a level; use fail or warn"
            if isinstance(err.instance, bool):  # YAML 1.1 reads off, no, yes as booleans
                message += " (YAML reads an unquoted off, no or yes as a boolean)"
        else:
            message = f"{where}: {err.message}"
        raise _error(source, doc.line(path), message)
    for key in ("max_files", "max_lines"):
        if isinstance(value.get(key), float):  # JSON Schema's integer takes 2.0
            raise _error(source, doc.line((key,)), f"{key}: {value[key]!r} is not a whole number")
    for i, pattern in enumerate(value.get("paths", ())):
        problem = globs.pattern_error(pattern)
        if problem:
            raise _error(
                source,
                doc.line(("paths", i)),
                f"paths[{i}] {pattern!r} is not a usable glob: {problem}",
            )
    for rule_id in value.get("levels", {}):
        if not isinstance(rule_id, str) or not rule_id:
            raise _error(
                source, doc.line(("levels",)), "levels: a rule id must be a non-empty string"
            )


def read_scope(data: bytes, source: str) -> Scope:
    """A scope from a file's bytes (`gate check --scope FILE`): its
    `blast-radius-scope` block when it holds one (an issue body saved as
    Markdown), else the whole file as the block's YAML."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _error(source, line, "not UTF-8; save the file as UTF-8") from None
    found = find_block(text, source)
    if found is None:
        return parse_block(text.replace("\r\n", "\n"), source)
    line, block = found
    return parse_block(block, source, line)


def read_scope_file(path: str) -> Scope:
    """`read_scope` of the file `path` (`-` reads stdin)."""
    from gate.base.escape import printable
    from gate.base.files import read_input

    data = read_input(
        path,
        "scope file",
        fix="pass a file holding a blast-radius-scope block, or its YAML",
        limit=MAX_BLOCK_BYTES * 4,
        stdin=True,
    )
    return read_scope(data, "<stdin>" if path == "-" else printable(path))


def combine(scopes: Sequence[Scope]) -> Scope | None:
    """Several scopes as one task's (see the module's words); None for none."""
    if not scopes:
        return None
    if len(scopes) == 1:
        return scopes[0]

    def joined(values: Iterable[tuple[str, ...] | None]) -> tuple[str, ...] | None:
        out: list[str] = []
        for value in values:
            if value is None:
                return None
            out.extend(value)
        return tuple(dict.fromkeys(out))

    def added(values: Iterable[int | None]) -> int | None:
        total = 0
        for value in values:
            if value is None:
                return None
            total += value
        return total

    levels: dict[str, str] = {}
    ids = sorted({rule_id for s in scopes for rule_id in s.levels})
    for rule_id in ids:
        asked = [s.levels.get(rule_id) for s in scopes]
        if FAIL in asked:
            levels[rule_id] = FAIL
        elif all(level == WARN for level in asked):
            levels[rule_id] = WARN
    return Scope(
        sources=tuple(source for s in scopes for source in s.sources),
        paths=joined(s.paths for s in scopes),
        max_files=added(s.max_files for s in scopes),
        max_lines=added(s.max_lines for s in scopes),
        levels=levels,
    )
