"""Rewrite a rubric's budgets in its own text: new limits, and the examples
that prove them made to follow their limits.

`gate init --from-history` takes the starter rubric's text (whatever it says
today), finds its budget rules by kind (`max_files`, `max_lines`), and edits
only the scalar after each one's `limit:` and the `change:` of each example
that proves one (an example that expects exactly that rule to fail).  The
edits are made at the positions YAML reports for those nodes, so comments,
order and layout stay as written.  The example's new change names the limit
symbolically (`files: {over: FILES}`, `added: {over: LINES}`: one more than
the rule's limit; docs/rubric.md), so it keeps proving the rule whatever the
limit becomes.  The result is loaded and its examples run before anyone
writes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import yaml

from gate.base.errors import GateError

# The kinds whose verdict is a count against `limit`: `gate init
# --from-history` sets their limits, `gate.research.backtest.measure` their counts.
BUDGET_KINDS = ("max_files", "max_lines")


def _compose(text: str) -> yaml.MappingNode:
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(node, yaml.MappingNode):
        raise GateError("the rubric to rewrite is not a YAML mapping: report this bug")
    return node


def _get(node: yaml.MappingNode, key: str) -> yaml.Node | None:
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key and isinstance(v, yaml.Node):
            return v
    return None


def _items(node: yaml.Node | None) -> list[yaml.MappingNode]:
    if not isinstance(node, yaml.SequenceNode):
        return []
    return [item for item in node.value if isinstance(item, yaml.MappingNode)]


def _scalar(node: yaml.Node | None) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def budget_rules(text: str) -> dict[str, dict[str, Any]]:
    """{rule id: {"kind", "limit", "count"}} of the budget rules in `text`."""
    out: dict[str, dict[str, Any]] = {}
    for rule in _items(_get(_compose(text), "rules")):
        kind = _scalar(_get(rule, "kind"))
        rule_id = _scalar(_get(rule, "id"))
        if kind in BUDGET_KINDS and rule_id is not None:
            out[rule_id] = {
                "kind": kind,
                "limit": int(_scalar(_get(rule, "limit")) or 0),
                "count": _scalar(_get(rule, "count")) or "changed",
            }
    return out


def with_limits(text: str, limits: Mapping[str, int]) -> str:
    """`text` with the `limit:` of each rule named in `limits` replaced."""
    edits = []
    for rule in _items(_get(_compose(text), "rules")):
        rule_id = _scalar(_get(rule, "id"))
        node = _get(rule, "limit")
        if rule_id is not None and rule_id in limits and isinstance(node, yaml.ScalarNode):
            edits.append((node.start_mark.index, node.end_mark.index, str(limits[rule_id])))
    return _apply(text, edits)


def _plain(value: str) -> str:
    """`value` as a YAML scalar: plain when it reads back as the same string."""
    try:
        same = yaml.safe_load(value) == value
    except yaml.YAMLError:
        same = False
    return value if same else json.dumps(value)


def proving_entry(rule_id: str, kind: str, count: str) -> str:
    """A flow-style change entry that fails exactly budget rule `rule_id` at
    whatever limit it has: one file more than a max_files limit (files with
    no changed lines, so no line budget fails with them), or one line more
    than a max_lines limit in one file."""
    rid = _plain(rule_id)
    if kind == "max_files":
        return f'{{path: "src/m{{n}}.py", files: {{over: {rid}}}}}'
    key = "deleted" if count == "deleted" else "added"
    return f"{{path: src/app.py, {key}: {{over: {rid}}}}}"


def _symbolic(node: yaml.Node, rule_id: str) -> bool:
    """True when the change already names `rule_id`'s limit (nothing to do)."""
    for entry in _items(node):
        for _, value in entry.value:
            if isinstance(value, yaml.MappingNode):
                for word, target in value.value:
                    if _scalar(word) == "over" and _scalar(target) == rule_id:
                        return True
    return False


def with_proving_examples(
    text: str, budgets: Mapping[str, Mapping[str, Any]]
) -> tuple[str, list[str]]:
    """`text` with the `change:` of each example that expects exactly one
    budget rule of `budgets` to fail replaced by `proving_entry`; also the
    names of the examples replaced."""
    edits = []
    names = []
    for example in _items(_get(_compose(text), "examples")):
        expect = _get(example, "expect")
        if not isinstance(expect, yaml.SequenceNode) or len(expect.value) != 1:
            continue
        rule_id = _scalar(expect.value[0])
        change = _get(example, "change")
        if (
            rule_id is None
            or rule_id not in budgets
            or not isinstance(change, yaml.SequenceNode)
            or not change.value
            or _symbolic(change, rule_id)
        ):
            continue
        info = budgets[rule_id]
        entry = proving_entry(rule_id, info["kind"], info["count"])
        new = f"[{entry}]" if change.flow_style else f"- {entry}"
        # A block sequence's own end mark is where the next token starts
        # (past blank lines and the indentation): end at its last item.
        end = change.end_mark.index if change.flow_style else change.value[-1].end_mark.index
        edits.append((change.start_mark.index, end, new))
        name = _get(example, "name")
        if isinstance(name, yaml.ScalarNode):
            what = "file" if info["kind"] == "max_files" else "line"
            title = _plain(f"one {what} over the {rule_id} limit")
            edits.append((name.start_mark.index, name.end_mark.index, title))
            names.append(name.value)
    return _apply(text, edits), names


def with_comments(text: str, comments: Mapping[str, str]) -> str:
    """`text` with a comment line in each rule `comments` names: `# ` and the
    comment, at the rule's key indentation, after its `kind:` line (a
    proposal that applies when uncommented, `gate.research.tuning.Noisy.comment`);
    above the rule for a rule written in flow style."""
    edits = []
    for rule in _items(_get(_compose(text), "rules")):
        rule_id = _scalar(_get(rule, "id"))
        kind = _get(rule, "kind")
        if rule_id is None or rule_id not in comments or kind is None:
            continue
        line = "# " + comments[rule_id].replace("\r", " ").replace("\n", " ")
        if rule.flow_style:
            at = text.rfind("\n", 0, rule.start_mark.index) + 1
            indent = len(text[at:]) - len(text[at:].lstrip(" "))
            edits.append((at, at, " " * indent + line + "\n"))
            continue
        end = text.find("\n", kind.end_mark.index)
        at = len(text) if end < 0 else end
        edits.append((at, at, "\n" + " " * rule.start_mark.column + line))
    return _apply(text, edits)
