"""`confine_to_symbols`: every changed line of a file lies inside named
top-level Python definitions.

Parameters:

* `file` (path): a Python file, repo-relative.
* `symbols` (names): the top-level `def`, `async def`, `class` or
  assignment names whose bodies may change.

The gate diffs the base and head text of `file` line by line.  A removed
line is judged by the **base** line ranges of the listed symbols, an added
line by their **head** ranges, so a function may grow or shrink freely.  A
definition's range runs from its first decorator to its last line; nested
functions and methods are inside their top-level definition.  Everything
else is outside: imports, comments and blank lines between definitions, a
docstring at the top, other definitions, and a comment after a
definition's last statement (Python's parser ends the definition at its
last statement).  A changed line ending or trailing newline is a changed
line.

Passes when `file` is untouched.  Fails when any changed line lies outside
the listed ranges (annotations name the head lines; a removed line is
annotated where it used to be), when `file` is renamed away, or when either
version does not parse as Python.  A new or deleted `file` is judged by
the same rule: every line of it is added (or removed), so it passes only
if it consists of nothing but listed definitions.  A touched file whose
content the source cannot provide (a writer's `result.json`) fails; in a
rubric example, an entry given only by counts is not checked (give
`before`/`after`).

```yaml
- id: SCOPE
  kind: confine_to_symbols
  file: clamp_kit.py
  symbols: ["clamp"]
```
"""

from __future__ import annotations

from gate.changes import ChangeSet
from gate.model import Finding, Result, Rule
from gate.rules._common import (
    Ranges,
    file_state,
    inside,
    line_diff,
    line_ranges,
    names,
    param_list,
    param_str,
    plural,
    quote,
    result,
    runs_of,
    syntax_problem,
    top_level_symbols,
    unavailable,
)

KIND = "confine_to_symbols"


def _ranges(symbols: Ranges, wanted: list[str]) -> list[tuple[int, int]]:
    return [r for name in wanted for r in symbols.get(name, [])]


def check(rule: Rule, changes: ChangeSet) -> Result:
    path = param_str(rule, "file")
    wanted = param_list(rule, "symbols")
    state = file_state(changes, path)
    if state.change is None:
        return result(rule, True, f"{quote(path)} is untouched")
    if state.gone is not None and state.gone != "deleted":
        return result(
            rule,
            False,
            f"{quote(path)} was {state.gone}; changes must stay inside {names(wanted)}",
            paths=state.change.touched,
        )
    texts = changes.texts.get(path)
    if texts is None:
        if state.gone is not None:
            return result(
                rule,
                False,
                f"{quote(path)} was {state.gone} and its text is not available; "
                f"changes must stay inside {names(wanted)}",
                paths=[path],
            )
        return unavailable(rule, path, changes)
    base_text = texts.base
    head_text = None if state.gone is not None else texts.head
    parsed: dict[str, Ranges] = {}
    for side, text in (("base", base_text), ("head", head_text)):
        try:
            parsed[side] = {} if text is None else top_level_symbols(text, path, side)
        except SyntaxError as exc:
            message, finding = syntax_problem(path, side, exc)
            return result(rule, False, message, paths=[path], findings=[finding])
        except ValueError as exc:
            return result(
                rule,
                False,
                f"the {side} version of {quote(path)} is not Python source: {exc}",
                paths=[path],
            )
    base_ranges = _ranges(parsed["base"], wanted)
    head_ranges = _ranges(parsed["head"], wanted)
    diff = line_diff(base_text, head_text)
    removed = [n for n in diff.removed if not inside(n, base_ranges)]
    added = [n for n in diff.added if not inside(n, head_ranges)]
    scope = names(wanted)
    if not removed and not added:
        changed = len(diff.removed) + len(diff.added)
        return result(
            rule, True, f"{plural(changed, 'changed line')} of {quote(path)}, all inside {scope}"
        )
    findings: list[Finding] = []
    for first, last in runs_of(added):
        span = f"line {first}" if first == last else f"lines {first}-{last}"
        findings.append(Finding(path, f"{span} changed outside {scope}", first))
    for first, last in runs_of(removed):
        span = f"base line {first}" if first == last else f"base lines {first}-{last}"
        anchor = diff.head_anchor[first] if head_text is not None else None
        findings.append(Finding(path, f"{span} removed outside {scope}", anchor))
    findings.sort(key=lambda f: (f.line if f.line is not None else 0, f.message))
    where: list[str] = []
    if added:
        where.append(f"head lines {line_ranges(added)}")
    if removed:
        where.append(f"removed base lines {line_ranges(removed)}")
    unknown = [s for s in wanted if s not in parsed["base"] and s not in parsed["head"]]
    note = f"; not defined at base or head: {names(unknown)}" if unknown else ""
    gone = f" ({quote(path)} was deleted)" if state.gone is not None else ""
    count = len(added) + len(removed)
    verb = "lies" if count == 1 else "lie"
    return result(
        rule,
        False,
        f"{plural(count, 'changed line')} of {quote(path)} {verb} outside {scope}{gone}: "
        f"{'; '.join(where)}{note}",
        paths=[path],
        findings=findings,
    )
