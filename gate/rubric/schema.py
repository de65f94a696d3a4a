"""The rubric's JSON Schema (Draft 2020-12), built from the rule registry.

`gate schema` prints it, the loader validates every rubric against it, and
editors or check-jsonschema can use the printed copy.  Nothing here lists
rule kinds: the `kind` enum and each kind's parameter block (its
`if kind == ...` / `then` pair: the kind's `PARAMETERS` fragments, the
parameters without a default required, no other key allowed) come from
`gate.rules.REGISTRY`, so a registered kind is in the schema at once.  The
rest (the rubric's top level, examples, and the parameter types the kinds
share in `$defs`: `globs`, `file`, `symbols`, `limit`) is written here.

The schema is built afresh from the registry each time it is asked for
(about 1 ms with the validator's set-up, once per rubric a command loads), so
there is no generated file and no cache to keep in step with the registry.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from gate.base.names import SCOPE_MODES, SCOPE_NONE
from gate.model.rubric import DEFAULT_TESTS, FAIL, LEVELS, WAIVER_ASSOCIATIONS, WAIVER_PERMISSIONS
from gate.rules import REGISTRY, Kind

# A rubric is a short list of rules.  The caps keep a pathological rubric from
# costing seconds of schema validation (it walks every kind's branch per rule).
MAX_RULES = 500
MAX_EXAMPLES = 500

# The parameter types the kinds share (`{"$ref": "#/$defs/<name>"}` in a
# kind's PARAMETERS), each `title` what the rule reference calls it.  The
# loader checks their values beyond the schema.
SHARED_TYPES: dict[str, dict[str, Any]] = {
    "glob": {
        "description": (
            "A gitignore/CODEOWNERS-style glob on a repo-relative, '/'-separated, "
            "case-sensitive path: '*' stays inside one segment, '**' crosses segments, a "
            "pattern without '/' matches at any depth, a trailing '/' matches a directory "
            "and everything under it, a leading '/' anchors to the root. Negation ('!') is "
            "not supported."
        ),
        "type": "string",
        "minLength": 1,
        "pattern": "^[^!]",
    },
    "globs": {
        "title": "globs",
        "description": "A non-empty list of globs.",
        "type": "array",
        "minItems": 1,
        "items": {"$ref": "#/$defs/glob"},
    },
    "limit": {
        "title": "integer ≥ 0",
        "description": "An integer >= 0 (a boolean is not an integer).",
        "type": "integer",
        "minimum": 0,
    },
    "file": {
        "title": "path",
        "description": (
            "A repo-relative, '/'-separated path of one file (no leading '/', no '..')."
        ),
        "type": "string",
        "minLength": 1,
    },
    "symbols": {
        "title": "names",
        "description": (
            "Names of top-level Python definitions: def, async def, class or a "
            "module-level assignment target."
        ),
        "type": "array",
        "minItems": 1,
        "items": {
            "description": "A top-level Python name such as clamp or _noisy_helper.",
            "type": "string",
            "minLength": 1,
        },
    },
}

_RULE_KEYS = {
    "id": {"$ref": "#/$defs/rule_id"},
    "kind": {"$ref": "#/$defs/kind"},
    "description": {"$ref": "#/$defs/rule_description"},
    "level": {"$ref": "#/$defs/level"},
}

_COUNTS_FROM_TEXT = {
    "description": "With before/after text the counts follow from the text.",
    "properties": {
        key: {
            "description": (
                "Counts follow from before/after text: give added/deleted counts or "
                "before/after text, not both."
            ),
            "not": {},
        }
        for key in ("added", "deleted")
    },
}

# A count in an example given by a rule's limit: `{over: LINES}` is one more
# than rule LINES's `limit`, `{at: LINES}` exactly it, so the example that
# proves a budget follows it when the limit changes (docs/rubric.md).
_LIMIT_REF = {
    "description": (
        "A count taken from a rule's limit: {over: ID} is one more than rule ID's "
        "limit (the smallest count that fails it), {at: ID} exactly the limit (the "
        "largest that passes). ID names a rule of this rubric that has a limit."
    ),
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "maxProperties": 1,
    "properties": {
        "over": {"description": "One more than this rule's limit.", "$ref": "#/$defs/rule_id"},
        "at": {"description": "Exactly this rule's limit.", "$ref": "#/$defs/rule_id"},
    },
}


def _count(description: str, minimum: int) -> dict[str, Any]:
    return {
        "description": description,
        "anyOf": [
            {"description": "A number.", "type": "integer", "minimum": minimum},
            {"$ref": "#/$defs/limit_ref"},
        ],
    }


_CHANGE_ENTRY = {
    "description": (
        "One file of an example's synthetic change. Give added/deleted counts, or "
        "before/after file text (counts then follow from the text), not both."
    ),
    "type": "object",
    "additionalProperties": False,
    "required": ["path"],
    "properties": {
        "path": {
            "description": (
                "The repo-relative path after the change (for a deletion, the deleted path)."
            ),
            "$ref": "#/$defs/file",
        },
        "old_path": {
            "description": (
                "The path before a rename; required with status 'renamed' and only allowed with it."
            ),
            "$ref": "#/$defs/file",
        },
        "status": {
            "description": (
                "What happened to the file: 'added', 'deleted', 'modified' (default) or 'renamed'."
            ),
            "type": "string",
            "enum": ["added", "deleted", "modified", "renamed"],
        },
        "added": _count("Lines added (default 0), or {over: ID} / {at: ID}.", 0),
        "deleted": _count("Lines deleted (default 0), or {over: ID} / {at: ID}.", 0),
        "files": _count(
            "This entry stands for that many files (default 1), or {over: ID} / {at: ID}: "
            "'{n}' in path (and old_path) is replaced by 1, 2, ... for each.",
            1,
        ),
        "before": {
            "description": "The file's text at base (absent for status 'added').",
            "type": "string",
        },
        "after": {
            "description": "The file's text at head (absent for status 'deleted').",
            "type": "string",
        },
    },
    "dependentSchemas": {"before": _COUNTS_FROM_TEXT, "after": _COUNTS_FROM_TEXT},
    "allOf": [
        {
            "if": {
                "properties": {
                    "status": {"description": "Applies to renames.", "const": "renamed"}
                },
                "required": ["status"],
            },
            "then": {"required": ["old_path"]},
        }
    ],
}

_EXAMPLE = {
    "description": "A synthetic change and the verdict the rubric must give it.",
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "expect", "change"],
    "properties": {
        "name": {
            "description": "A unique, human-readable name for the example.",
            "type": "string",
            "minLength": 1,
        },
        "expect": {
            "description": '"pass", or the exact list of the rubric\'s rule ids that must fail.',
            "anyOf": [
                {"description": "Every rule passes.", "const": "pass"},
                {
                    "description": "Exactly these rule ids fail (each once).",
                    "type": "array",
                    "uniqueItems": True,
                    "items": {"$ref": "#/$defs/rule_id"},
                },
            ],
        },
        "stdout": {
            "description": (
                "Captured stdout for must_include rules (absent: no stdout was captured)."
            ),
            "type": "string",
        },
        "change": {
            "description": (
                "The files of the synthetic change (an empty list is an empty change)."
            ),
            "type": "array",
            "items": {"$ref": "#/$defs/change_entry"},
        },
    },
}

_APPLIES_TO = {
    "description": (
        "Optional: only pull requests matching ANY entry are judged; others get a "
        "neutral check run."
    ),
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "authors": {
            "description": "Exact PR author logins, such as copilot-swe-agent[bot].",
            "type": "array",
            "minItems": 1,
            "items": {"description": "A GitHub login.", "type": "string", "minLength": 1},
        },
        "labels": {
            "description": "PR labels; any one of them on the PR is a match.",
            "type": "array",
            "minItems": 1,
            "items": {"description": "A label name.", "type": "string", "minLength": 1},
        },
        "head_branches": {
            "description": "Globs on the PR's head branch name, such as codex/**.",
            "$ref": "#/$defs/globs",
        },
    },
}


_WAIVER = {
    "description": (
        "Rules a listed approver's approval of the pull request's head commit clears "
        "(never the PR's author, never a bot, never a built-in gate.* rule)."
    ),
    "type": "object",
    "additionalProperties": False,
    "required": ["rules", "approvers"],
    "properties": {
        "rules": {
            "description": "Ids of this rubric's rules that the waiver can clear.",
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"$ref": "#/$defs/rule_id"},
        },
        "approvers": {
            "description": (
                "Whose approval counts: a reviewer these GitHub logins or user ids "
                "name, or whose author association (as the review API reports it) is "
                "listed; with none of the three, anyone.  Always with the permission "
                "asked (default write) on the repository when judged."
            ),
            "type": "object",
            "additionalProperties": False,
            "minProperties": 1,
            "properties": {
                "logins": {
                    "description": "GitHub logins (any letter case); a bot's never counts.",
                    "type": "array",
                    "minItems": 1,
                    "uniqueItems": True,
                    "items": {
                        "description": "A GitHub login such as octocat.",
                        "type": "string",
                        "minLength": 1,
                    },
                },
                "ids": {
                    "description": (
                        "GitHub numeric user ids: the account, whatever its login is now "
                        "(a login can be renamed away and taken by someone else)."
                    ),
                    "type": "array",
                    "minItems": 1,
                    "uniqueItems": True,
                    "items": {
                        "description": "A GitHub user id such as 583231.",
                        "type": "integer",
                        "minimum": 1,
                    },
                },
                "permission": {
                    "description": (
                        "The least access to the repository an approver must hold when "
                        "the pull request is judged, read from GitHub's permission API: "
                        + ", ".join(WAIVER_PERMISSIONS)
                        + " (default write)."
                    ),
                    "type": "string",
                    "enum": list(WAIVER_PERMISSIONS),
                },
                "associations": {
                    "description": (
                        "Reviewer author associations: "
                        + ", ".join(WAIVER_ASSOCIATIONS)
                        + ". An association narrows whom a waiver names; it never "
                        "replaces the permission."
                    ),
                    "type": "array",
                    "minItems": 1,
                    "uniqueItems": True,
                    "items": {
                        "description": "An author association.",
                        "type": "string",
                        "enum": list(WAIVER_ASSOCIATIONS),
                    },
                },
            },
        },
    },
}


def _parameters(kind: Kind) -> dict[str, Any]:
    """A kind's `if`/`then` block: its parameters, and nothing else, when
    `kind:` names it."""
    properties: dict[str, Any] = dict(_RULE_KEYS)
    properties.update(copy.deepcopy(dict(kind.parameters)))
    return {
        "if": {
            "properties": {
                "kind": {"description": f"Applies when kind is '{kind.name}'.", "const": kind.name}
            },
            "required": ["kind"],
        },
        "then": {
            "description": f"Parameters of kind '{kind.name}'. {kind.summary}",
            "properties": properties,
            "required": ["id", "kind", *kind.required],
            "additionalProperties": False,
        },
    }


def build(kinds: Sequence[Kind]) -> dict[str, Any]:
    """The rubric schema for a rubric whose rules may use `kinds`."""
    tests = ", ".join(DEFAULT_TESTS)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:blast-radius-gate:rubric:1",
        "title": "Blast Radius Gate rubric",
        "description": (
            "A rubric for Blast Radius Gate (YAML or JSON): the rules a pull request's "
            "change is judged by, frozen at the base commit. Unknown keys anywhere are errors."
        ),
        "type": "object",
        "additionalProperties": False,
        "required": ["rules"],
        "properties": {
            "version": {
                "description": (
                    "The rubric format version: 1 (the default). Any other value is an error."
                ),
                "type": "integer",
                "const": 1,
            },
            "tests": {
                "description": (
                    f"Globs that define the test tree (default: {tests}). test_drift rules "
                    "use them unless they set 'paths'."
                ),
                "$ref": "#/$defs/globs",
            },
            "applies_to": _APPLIES_TO,
            "frozen_tests": {
                "description": (
                    "Optional: what `gate frozen-tests` freezes beyond the test globs and "
                    "the runners' files. 'paths': test-support globs outside the test "
                    "globs (helpers the tests import); 'exclude': globs the test globs "
                    "match that hold product code (a fixtures/ folder that ships)."
                ),
                "type": "object",
                "additionalProperties": False,
                "minProperties": 1,
                "properties": {
                    "paths": {"$ref": "#/$defs/globs"},
                    "exclude": {"$ref": "#/$defs/globs"},
                },
            },
            "scope": {
                "description": (
                    "Optional: what the scope block (```blast-radius-scope) of the issue a "
                    "pull request closes may do, when a maintainer with write access wrote "
                    "it. none (the default): blocks are not read. tighten: a scope only adds "
                    "limits (its paths, lower budgets, warn rules made to fail). loosen: its "
                    "budgets replace the rubric's and it may turn rules to warn."
                ),
                "type": "string",
                "enum": list(SCOPE_MODES),
                "default": SCOPE_NONE,
            },
            "rules": {
                "description": "The rules, judged in this order. Required and non-empty.",
                "type": "array",
                "minItems": 1,
                "items": {"$ref": "#/$defs/rule"},
                "maxItems": MAX_RULES,
            },
            "waivers": {
                "description": (
                    "Optional: which failed rules a maintainer's approval of the head "
                    "commit may clear, and whose approval counts."
                ),
                "type": "array",
                "minItems": 1,
                "items": {"$ref": "#/$defs/waiver"},
                "maxItems": MAX_RULES,
            },
            "examples": {
                "description": (
                    "Synthetic changes with the verdict each must get; `gate selftest` runs them."
                ),
                "type": "array",
                "items": {"$ref": "#/$defs/example"},
                "maxItems": MAX_EXAMPLES,
            },
        },
        "$defs": {
            "rule_id": {
                "description": (
                    "A rule id: 1-64 characters of A-Z, a-z, 0-9, '.', '_' and '-', starting "
                    "with a letter or digit. Ids are case-sensitive, unique within the rubric, "
                    "and must not start with 'gate.' (reserved for built-in rules)."
                ),
                "type": "string",
                "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",
            },
            "kind": {
                "description": "The rule kind; it decides which parameters the rule takes.",
                "type": "string",
                "enum": [kind.name for kind in kinds],
            },
            "rule_description": {
                "description": "Optional free text shown next to the rule in reports.",
                "type": "string",
            },
            "level": {
                "description": (
                    "Optional: what a failure of the rule does. fail (the default): the "
                    "change fails. warn: the failure is reported as a warning everywhere "
                    "(JSON 'warned', the check run's title, annotations, the comment) and "
                    "the change does not fail. Exactly 'fail' or 'warn', lower case."
                ),
                "type": "string",
                "enum": list(LEVELS),
                "default": FAIL,
            },
            **SHARED_TYPES,
            "rule": {
                "description": (
                    "One rule: an id, a kind, the kind's parameters, an optional "
                    "description and an optional level. Unknown keys are errors."
                ),
                "type": "object",
                "required": ["id", "kind"],
                "properties": dict(_RULE_KEYS),
                "allOf": [_parameters(kind) for kind in kinds],
            },
            "limit_ref": _LIMIT_REF,
            "change_entry": _CHANGE_ENTRY,
            "example": _EXAMPLE,
            "waiver": _WAIVER,
        },
    }


def schema() -> dict[str, Any]:
    """The rubric's JSON Schema for the registry as it is now, a fresh copy."""
    return build(tuple(REGISTRY.values()))
