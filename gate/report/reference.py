"""The rule reference, `docs/rules.md`, generated from the rule modules.

    python -m gate.report.reference > docs/rules.md
    python -m gate.report.reference --write      # the same, into docs/rules.md

A test fails when `docs/rules.md` is not `render()`, so the page never
drifts from the code: edit a rule module (its docstring or its
`PARAMETERS`), `gate/rules/builtin.py` or the intro, `reference_intro.md`
beside this module, then run the command.  The page is the intro (what
every kind shares), a table of the kinds, the built-in rules, then one
section per registered kind (`gate.rules.kinds()`, so a kind registered
at run time is documented too).  A section is `section(kind)`: a heading, the docstring's first
paragraph, `parameters(kind)` (a table made from the kind's JSON-Schema
fragments: type, default, meaning), what it reads and its lab bucket,
then the rest of the docstring.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gate import rules
from gate.base.files import package_text
from gate.rubric.schema import SHARED_TYPES
from gate.rules import builtin, kind

# Where `--write` puts the page, relative to the repository root.
PAGE = Path("docs") / "rules.md"

# The page's intro (what every kind shares), shipped beside this module.
INTRO_FILE = "reference_intro.md"


def intro() -> str:
    """The page's intro, as shipped in the package."""
    return package_text(f"report/{INTRO_FILE}")


_BUILTIN = re.compile(r"^Built-in `(?P<id>[^`]+)`(?: \((?P<note>[^)]*)\))?: ")


def _cell(text: str) -> str:
    """Text for one markdown table cell: one line, `|` escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _code(value: Any) -> str:
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def type_name(fragment: Mapping[str, Any]) -> str:
    """What a parameter takes, in words, from its JSON-Schema fragment."""
    ref = str(fragment.get("$ref", ""))
    if ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        return str(SHARED_TYPES.get(name, {}).get("title", name))
    if "enum" in fragment:
        return "one of " + ", ".join(f"`{v}`" for v in fragment["enum"])
    kind_of = fragment.get("type")
    if kind_of == "array":
        items = fragment.get("items", {})
        return "strings" if items.get("type") == "string" else "list"
    if kind_of == "integer" and "minimum" in fragment:
        return f"integer ≥ {fragment['minimum']}"
    return str(kind_of or "value")


def default_text(k: kind.Kind, key: str) -> str:
    """A parameter's default, in words ("required" when it has none)."""
    if key in k.from_rubric:
        return f"the rubric's `{k.from_rubric[key]}`"
    fragment = k.parameters[key]
    if "default" not in fragment:
        return "required"
    value = fragment["default"]
    if value == []:
        return "none"
    if isinstance(value, str):
        return f"`{value}`"
    return _code(value)


def parameters(k: kind.Kind) -> str:
    """The parameters table of one kind, from its `PARAMETERS` fragments."""
    if not k.parameters:
        return "Parameters: none."
    rows = ["| parameter | type | default | meaning |", "| --- | --- | --- | --- |"]
    for key, fragment in k.parameters.items():
        cells = [f"`{key}`", type_name(fragment), default_text(k, key), fragment["description"]]
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(rows)


def facts(k: kind.Kind) -> str:
    """What the kind reads, and what its failure means in `gate lab`."""
    reads = [words for r, words in kind.READABLE.items() if r in k.reads]
    files = [f"`{key}`" for key in k.texts_of] + [f"`{f}`" for f in k.text_files]
    files += [f"each file `{key}` matches that the change writes" for key in k.text_globs]
    if k.text_matching:
        matching = _and([f"`{g}`" for g in k.text_matching])
        files.append(f"each file the change writes that matches one of {matching}")
    if k.text_hints:
        hinted = _and([f"`{g}`" for g in k.text_hints])
        files.append(f"where the source can, each file the change modifies that matches {hinted}")
    if files:
        reads[reads.index(kind.READABLE[kind.TEXTS])] = "the base and head text of " + _and(files)
    return f"**Reads:** {'; '.join(reads)}.  **In `gate lab`:** {kind.LAB_ROLES[k.lab]}."


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def body(k: kind.Kind) -> str:
    """The docstring after its first paragraph."""
    return "\n\n".join(k.doc.strip().split("\n\n")[1:])


def section(k: kind.Kind) -> str:
    parts = [f"## `{k.name}`", k.summary, parameters(k), facts(k), body(k)]
    if k.source is not None:
        parts.append(f"Source: [`{k.source}`](../{k.source}).")
    return "\n\n".join(part for part in parts if part) + "\n"


def table() -> str:
    rows = ["| kind | what it judges | parameters |", "| --- | --- | --- |"]
    for k in rules.kinds():
        names = ", ".join(f"`{name}`" for name in k.parameters)
        rows.append(f"| [`{k.name}`](#{k.name}) | {_cell(k.summary)} | {names} |")
    return "\n".join(rows) + "\n"


def builtins() -> str:
    """The built-in rules (`gate.rules.builtin`), from their docstrings."""
    rows = ["| id | fails when |", "| --- | --- |"]
    for rule_id, function in builtin.BUILTINS:
        first = " ".join((function.__doc__ or "").strip().split("\n\n")[0].split())
        match = _BUILTIN.match(first)
        if match is None or match["id"] != rule_id:
            raise ValueError(f"{function.__name__}: start its docstring with Built-in `{rule_id}`:")
        text = first[match.end() :]
        text = text.removeprefix("fails when ")
        if match["note"]:
            text += f" ({match['note']})"
        rows.append(f"| `{rule_id}` | {_cell(text)} |")
    intro = (
        "Always on, in every rubric, and no rubric can switch them off; reports list them "
        "first, in this order. Their ids start with `gate.`, which a rubric's own ids may not "
        "use. Ids are public: never renamed or reused. Source: "
        "[`gate/rules/builtin.py`](../gate/rules/builtin.py)."
    )
    return "## Built-in rules\n\n" + intro + "\n\n" + "\n".join(rows) + "\n"


def render() -> str:
    """The whole page, byte for byte what `docs/rules.md` holds."""
    parts = [
        intro(),
        "## The kinds\n\n" + table(),
        builtins(),
        *(section(k) for k in rules.kinds()),
    ]
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    from gate.base import output

    output.start(os.environ, None)
    if argv not in ([], ["--write"]):
        output.error("usage: python -m gate.report.reference [--write]")
        return 2
    text = render()
    if argv and not PAGE.parent.is_dir():
        output.error(f"no {PAGE.parent}/ folder here: run --write from the repository root")
        return 2
    if argv:
        PAGE.write_text(text, encoding="utf-8")
    else:
        output.write(text)
    output.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
