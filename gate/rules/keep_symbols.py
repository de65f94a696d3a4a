"""`keep_symbols`: named top-level Python symbols survive the change.

Parameters:

* `file` (path): a Python file, repo-relative.
* `symbols` (names): top-level names that must still be defined at head.

A *symbol* is a name bound at the top level of the module by `def`,
`async def`, `class` or an assignment (`X = ...`, `X: int = ...`, and each
name of a tuple/list unpacking `A, B = ...`).  Imports do not count: a
function replaced by `from elsewhere import name` is missing.  Nested
definitions (methods, inner functions, names bound inside `if`/`try`
blocks) are not top-level.  A symbol may change kind (a `def` that becomes
a `class` is kept) and may move within the file.

Passes when `file` is untouched.  Fails when:

* `file` is deleted, or renamed away (its symbols no longer exist there);
* a listed symbol defined at base is not defined at head;
* the head version does not parse as Python (the message and an annotation
  name the line), or the base version does not;
* the file is touched but the source cannot provide its content (a
  writer's `result.json`): the rule fails rather than guessing.  (In a
  rubric example, an entry given only by counts carries no text: the rule
  passes there and says so; give `before`/`after` to exercise it.)

A listed symbol that is not defined at base is ignored (there is nothing
to keep), but the message names it so a typo in the rubric is visible.

```yaml
- id: NAMES
  kind: keep_symbols
  file: clamp_kit.py
  symbols: ["_noisy_helper", "clamp"]
```
"""

from __future__ import annotations

from gate.changes import ChangeSet
from gate.model import Finding, Result, Rule
from gate.rules._common import (
    Ranges,
    file_state,
    names,
    param_list,
    param_str,
    plural,
    quote,
    result,
    syntax_problem,
    top_level_symbols,
    unavailable,
)

KIND = "keep_symbols"


def _parse(path: str, side: str, text: str | None) -> tuple[Ranges | None, str, Finding | None]:
    if text is None:
        return {}, "", None
    try:
        return top_level_symbols(text, path, side), "", None
    except SyntaxError as exc:
        message, finding = syntax_problem(path, side, exc)
        return None, message, finding
    except ValueError as exc:  # e.g. NUL bytes in the source
        return None, f"the {side} version of {quote(path)} is not Python source: {exc}", None


def check(rule: Rule, changes: ChangeSet) -> Result:
    path = param_str(rule, "file")
    symbols = param_list(rule, "symbols")
    state = file_state(changes, path)
    if state.change is None:
        return result(rule, True, f"{quote(path)} is untouched")
    if state.gone is not None:
        return result(
            rule,
            False,
            f"{quote(path)} was {state.gone}; its symbols {names(symbols)} must stay in it",
            paths=state.change.touched,
        )
    texts = changes.texts.get(path)
    if texts is None:
        return unavailable(rule, path, changes)
    base, message, _ = _parse(path, "base", texts.base)
    if base is None:
        return result(rule, False, message, paths=[path])
    head, message, finding = _parse(path, "head", texts.head)
    if head is None:
        return result(rule, False, message, paths=[path], findings=[finding] if finding else [])
    present = [s for s in symbols if s in base]
    absent = [s for s in symbols if s not in base]
    missing = [s for s in present if s not in head]
    note = f"; not defined at base, so ignored: {names(absent)}" if absent else ""
    if missing:
        findings = [
            Finding(
                path=path,
                message=f"symbol {quote(s)} (base line {base[s][0][0]}) is missing at head",
                line=None,
            )
            for s in missing
        ]
        verb = "is" if len(missing) == 1 else "are"
        return result(
            rule,
            False,
            f"{plural(len(missing), 'kept symbol')} of {quote(path)} {verb} missing at head: "
            f"{names(missing)}{note}",
            paths=[path],
            findings=findings,
        )
    return result(
        rule, True, f"{plural(len(present), 'listed symbol')} of {quote(path)} kept{note}"
    )
