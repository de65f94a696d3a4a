"""A rubric's examples: their checks, their counts resolved, their values.

An example's change entry may name a count by a rule's limit (`{over: ID}`
is the limit + 1, `{at: ID}` the limit) and stand for many files
(`files: N`, `{n}` in its path); `resolved` turns it into plain entries,
once for the checks and once for the `Example` value, whose change set comes
from `gate.changes.example` (`source="example"`) and whose `expect` lists
the expected ids in rubric order.  The checks: unique names, expected ids
that are the rubric's, clean paths, entries that agree with their status,
each path in one entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gate.base.errors import GateError
from gate.changes.example import changes_from_example
from gate.model.change import ADDED, DELETED, MODIFIED, RENAMED
from gate.model.rubric import Example
from gate.rubric.document import Doc, KeyPath, invalid_at, show
from gate.rubric.semantics import path_problem, unknown_rule

# The most files one example's entry may stand for (`files: {over: FILES}`
# with a limit of a million would build a million file changes).
MAX_EXAMPLE_FILES = 10_000


def check_examples(doc: Doc, source: str, seen: Mapping[str, int]) -> None:
    """The examples' checks, after the rules' (`seen`: {rule id: its line})."""
    value: dict[str, Any] = doc.value

    def fail(path: KeyPath, message: str) -> GateError:
        return invalid_at(doc, source, path, message)

    names: dict[str, int] = {}
    for index, example in enumerate(value.get("examples", ())):
        base = ("examples", index)
        name = example["name"]
        if name in names:
            raise fail(
                (*base, "name"),
                f"duplicate example name (first on line {names[name]}); give each its own name",
            )
        names[name] = doc.line((*base, "name"))
        expect = example["expect"]
        if isinstance(expect, list):
            for i, rule_id in enumerate(expect):
                if rule_id not in seen:
                    raise fail(
                        (*base, "expect", i), f'expects {unknown_rule(rule_id, seen)} or "pass"'
                    )
        touched: dict[str, int] = {}
        limits = rule_limits(value)
        for i, entry in enumerate(example["change"]):
            try:
                files = resolved(entry, limits)
            except _EntryProblem as problem:
                raise fail((*base, "change", i, *problem.where), problem.message) from None
            for one in files:
                _check_entry(doc, (*base, "change", i), one, touched, fail)


class _EntryProblem(Exception):
    def __init__(self, where: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.where, self.message = where, message


def rule_limits(value: Mapping[str, Any]) -> dict[str, int]:
    """{rule id: its `limit`} for the rules that have one (validated)."""
    return {
        rule["id"]: rule["limit"]
        for rule in value["rules"]
        if isinstance(rule.get("limit"), int) and not isinstance(rule.get("limit"), bool)
    }


def resolved(entry: Mapping[str, Any], limits: Mapping[str, int]) -> list[dict[str, Any]]:
    """An example's change entry with its counts resolved: `{over: ID}` is
    rule ID's limit + 1, `{at: ID}` its limit; `files: N` makes N entries,
    `{n}` in `path` and `old_path` replaced by 1..N.  `_EntryProblem` names
    the key when a count names no rule with a limit, or `files` needs `{n}`."""

    def count(key: str, default: int) -> int:
        raw = entry.get(key, default)
        if not isinstance(raw, dict):
            return int(raw)
        ((word, rule_id),) = raw.items()
        if rule_id not in limits:
            known = ", ".join(limits) or "none"
            raise _EntryProblem(
                (key, word),
                f'"{key}" {{{word}: {rule_id}}} names no rule with a limit; name one of this '
                f"rubric's rules that has a limit ({known})",
            )
        return limits[rule_id] + (1 if word == "over" else 0)

    added, deleted, files = count("added", 0), count("deleted", 0), count("files", 1)
    if files > MAX_EXAMPLE_FILES:
        raise _EntryProblem(
            ("files",),
            f'"files" comes to {files:,}, more than the {MAX_EXAMPLE_FILES:,} files an entry '
            "may stand for; lower the limit it names, or write the entries out",
        )
    plain = {k: v for k, v in entry.items() if k not in ("files", "added", "deleted")}
    if "added" in entry:
        plain["added"] = added
    if "deleted" in entry:
        plain["deleted"] = deleted
    if "files" not in entry:
        return [plain]
    if files > 1 and "{n}" not in entry["path"]:
        raise _EntryProblem(
            ("path",),
            f'"files" stands for {files} files, so "path" needs {{n}} to name each one '
            "(src/m{n}.py becomes src/m1.py, src/m2.py, ...)",
        )
    out = []
    for n in range(1, files + 1):
        one = dict(plain)
        for key in ("path", "old_path"):
            if key in one:
                one[key] = one[key].replace("{n}", str(n))
        out.append(one)
    return out


def _check_entry(
    doc: Doc,
    path: KeyPath,
    entry: Mapping[str, Any],
    touched: dict[str, int],
    fail: Any,
) -> None:
    status = entry.get("status", MODIFIED)
    for key in ("path", "old_path"):
        if key in entry:
            problem = path_problem(entry[key])
            if problem is not None:
                raise fail((*path, key), f'"{key}" {show(entry[key])}: {problem}')
    if "old_path" in entry and status != RENAMED:
        raise fail((*path, "old_path"), '"old_path" is only for status: renamed; remove it')
    if status == RENAMED and entry["old_path"] == entry["path"]:
        raise fail((*path, "old_path"), '"old_path" equals "path"; a rename needs two paths')
    if status == ADDED:
        for key in ("before", "deleted"):
            if key in entry and (key == "before" or entry[key] != 0):
                raise fail((*path, key), f'an added file has no "{key}"; remove it')
    if status == DELETED:
        for key in ("after", "added"):
            if key in entry and (key == "after" or entry[key] != 0):
                raise fail((*path, key), f'a deleted file has no "{key}"; remove it')
    if status in (MODIFIED, RENAMED) and ("before" in entry) != ("after" in entry):
        missing = "after" if "before" in entry else "before"
        raise fail(
            path, f'give both "before" and "after" text for a {status} file; add "{missing}"'
        )
    for p in (entry.get("old_path"), entry["path"]):
        if p is None:
            continue
        if p in touched:
            raise fail(
                path,
                f"{show(p)} is already changed by entry {touched[p]}; list each path in one entry",
            )
        touched[p] = int(path[-1]) + 1


def build_example(
    example: Mapping[str, Any], order: Mapping[str, int], limits: Mapping[str, int]
) -> Example:
    expect = example["expect"]
    ids = () if expect == "pass" else tuple(sorted(expect, key=lambda i: order[i]))
    entries = [one for entry in example["change"] for one in resolved(entry, limits)]
    changes = changes_from_example(entries, stdout=example.get("stdout"))
    return Example(name=example["name"], expect=ids, changes=changes)
