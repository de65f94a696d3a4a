"""The checks a rubric needs that its JSON Schema cannot express, once the
document has the schema's shape: usable globs (`tests`, `head_branches`,
each glob parameter), rule ids that are unique and not the reserved
built-in prefix, clean repo-relative paths and Python names for the
parameter types kinds share, each kind's own `param_problem`, and waivers
that name this rubric's rules and people's GitHub logins.  The examples'
checks are `gate.rubric.examples`'.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gate.base import globs
from gate.base.errors import GateError
from gate.base.names import BUILTIN_PREFIX
from gate.rubric.document import Doc, KeyPath, context, invalid_at, key_name, show
from gate.rules import REGISTRY

# The parameter types kinds share (`gate.rubric.schema.SHARED_TYPES`) whose
# values are checked here.
_GLOBS = "#/$defs/globs"
_FILE = "#/$defs/file"
_SYMBOLS = "#/$defs/symbols"


def path_problem(value: str) -> str | None:
    """What is wrong with `value` as a clean repo-relative file path, or None."""
    if value.startswith("/"):
        return "a repo-relative path must not start with '/'"
    if value.endswith("/"):
        return "name a file, not a directory (no trailing '/')"
    if "\\" in value:
        return "use '/' to separate directories, not '\\'"
    if "\0" in value or "\n" in value or "\r" in value:
        return "a path cannot hold NUL or line breaks"
    parts = value.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return "write a clean repo-relative path (no '.', '..' or empty segments)"
    return None


def unknown_rule(rule_id: str, known: Iterable[str]) -> str:
    """The words for an id that names none of this rubric's rules (`known`,
    in rubric order), where an example expects it or a waiver names it."""
    return f"unknown rule id {show(rule_id)}; use ids of this rubric's rules ({', '.join(known)})"


def check_semantics(doc: Doc, source: str) -> dict[str, int]:
    """The checks on the top-level globs, the rules and the waivers; returns
    {rule id: the line of its id}, for the examples' checks."""
    value: dict[str, Any] = doc.value

    def fail(path: KeyPath, message: str) -> GateError:
        return invalid_at(doc, source, path, message)

    def check_globs(path: KeyPath, patterns: Iterable[str]) -> None:
        for i, pattern in enumerate(patterns):
            problem = globs.pattern_error(pattern)
            if problem is not None:
                _label, rest = context(doc, (*path, i))
                where = key_name(rest, (*path, i))
                raise fail((*path, i), f"{where} {show(pattern)} is not a usable glob: {problem}")

    if "tests" in value:
        check_globs(("tests",), value["tests"])
    for key in ("paths", "exclude"):
        if key in value.get("frozen_tests", {}):
            check_globs(("frozen_tests", key), value["frozen_tests"][key])
    if "head_branches" in value.get("applies_to", {}):
        check_globs(("applies_to", "head_branches"), value["applies_to"]["head_branches"])

    seen: dict[str, int] = {}
    for index, rule in enumerate(value["rules"]):
        base: KeyPath = ("rules", index)
        rule_id: str = rule["id"]
        if rule_id.lower().startswith(BUILTIN_PREFIX):
            raise fail(
                (*base, "id"),
                f'ids starting with "{BUILTIN_PREFIX}" are reserved for built-in rules; '
                "choose another id",
            )
        if rule_id in seen:
            raise fail(
                (*base, "id"),
                f"duplicate id {show(rule_id)} (first used on line {seen[rule_id]}); "
                "give every rule its own id",
            )
        seen[rule_id] = doc.line((*base, "id"))
        kind = REGISTRY[rule["kind"]]
        for key, fragment in kind.parameters.items():
            if key not in rule:
                continue
            shared = fragment.get("$ref")
            if shared == _GLOBS:
                check_globs((*base, key), rule[key])
            elif shared == _FILE:
                problem = path_problem(rule[key])
                if problem is not None:
                    raise fail((*base, key), f'"{key}" {show(rule[key])}: {problem}')
            elif shared == _SYMBOLS:
                for i, symbol in enumerate(rule[key]):
                    if not symbol.isidentifier():
                        raise fail(
                            (*base, key, i),
                            f'item {i + 1} of "{key}" {show(symbol)} is not a Python name; '
                            "list top-level names such as clamp",
                        )
        if kind.param_problem is not None:
            problem_at = kind.param_problem(rule)
            if problem_at is not None:
                where, message = problem_at
                raise fail((*base, *where), message)

    _check_waivers(value.get("waivers", ()), seen, fail)
    return seen


# A GitHub login: 1-39 letters, digits and single hyphens, not starting with one.
_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}\Z")


def _check_waivers(
    waivers: Iterable[Mapping[str, Any]],
    rule_lines: Mapping[str, int],
    fail: Callable[[KeyPath, str], GateError],
) -> None:
    """Each waiver names rules of this rubric (never a built-in `gate.*`
    id) and approvers who are people (a GitHub login, never a bot's)."""
    for index, waiver in enumerate(waivers):
        base: KeyPath = ("waivers", index)
        for i, rule_id in enumerate(waiver["rules"]):
            if rule_id.lower().startswith(BUILTIN_PREFIX):
                raise fail(
                    (*base, "rules", i),
                    f'item {i + 1} of "rules" {show(rule_id)} is a built-in rule, and '
                    "built-in rules are never waived; remove it",
                )
            if rule_id not in rule_lines:
                raise fail(
                    (*base, "rules", i),
                    f'item {i + 1} of "rules" names {unknown_rule(rule_id, rule_lines)}',
                )
        for i, login in enumerate(waiver["approvers"].get("logins", ())):
            where = (*base, "approvers", "logins", i)
            if login.lower().endswith("[bot]"):
                raise fail(
                    where,
                    f'item {i + 1} of "logins" {show(login)} is a bot, and a bot\'s '
                    "approval never waives a rule; list people",
                )
            if not _LOGIN.match(login):
                raise fail(
                    where,
                    f'item {i + 1} of "logins" {show(login)} is not a GitHub login '
                    "(1-39 letters, digits and single hyphens); write it as GitHub shows it",
                )
