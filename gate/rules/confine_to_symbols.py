"""`confine_to_symbols`: every changed line of a file lies inside named
top-level Python definitions.

The gate diffs the base and head text of `file` line by line (a line ends
at a newline, CRLF or CR, nowhere else, as Python counts lines).  A
removed line is judged by the **base** line ranges of the listed symbols,
an added line by their **head** ranges, so a function may grow or shrink
freely.  A definition's range runs from its first decorator to its last
line; nested functions and methods are inside their top-level definition.
Everything else is outside: imports, comments and blank lines between
definitions, a docstring at the top, other definitions, and a comment
after a definition's last statement (Python's parser ends the definition
at its last statement).  A changed line ending or trailing newline is a
changed line.

Scope means names, not lines.  A top-level statement is inside only when
it defines (or annotates) a listed name and binds, rebinds or deletes no
other module-level name; otherwise all its lines are outside, even where
it also touches a listed name.  So these are outside:

* an assignment with another target: `clamp, helper = ...`,
  `clamp = helper = ...`, starred unpacking;
* a `:=` binding another name anywhere in the statement outside a
  function body: in the value, a decorator, a default argument, an
  annotation, a class base, a comprehension;
* a `global helper` in any function or class inside the statement:
  calling it may rebind `helper`;
* an attribute or item target rooted at another name
  (`clamp = helper.cache = {}`);
* a line shared with another statement (`clamp = 1; helper = 2`).

Imports, `del`, augmented assignments, expressions, `from m import *` and
top-level `if`/`for`/`while`/`try`/`with`/`match` blocks (whose targets,
`except ... as` names and `match` captures bind module names) define no
symbol and are always outside.  A function body is its own scope: its
local names, nested definitions, imports and `nonlocal` (an enclosing
function's variable) bind nothing at module level.  A listed name defined
twice is inside both times.  A line matches only a line on the same side
of the boundary: a line that moves from outside a listed definition to
inside it (module code swallowed into a listed function's string) or back
is a changed line on both sides.  Out of reach: dynamic rebinding
(`globals()[...]`, `setattr(sys.modules[__name__], ...)`, `exec`) and
changes a listed function makes to other objects when it runs
(`helper.cache.clear()`).

Passes when `file` is untouched and nothing shadows it: anything the
change adds that Python imports or runs instead (as for `keep_symbols`: a
package folder or an extension module of the same name beside it, its
cached bytecode in `__pycache__/`, a module named like `file` or a folder
above it in a test folder or in a folder above `file`, a `.pth` file or
`sitecustomize` in a `site-packages` folder) changes everything outside
the listed symbols, so it fails.  Fails when any
changed line lies outside
the listed ranges (annotations name the head lines; a removed line is
annotated where it used to be; the message names a statement that defines
a listed name but also binds others), when `file` is renamed away, or when
either version does not parse as Python or declares an encoding under
which Python's lines are not the lines of its bytes (UTF-7's `+AAo-` is a
newline inside a line: `return x +AAo-helper = 2` would put a module-level
statement on a line of `clamp`).  A new or deleted `file` is
judged by the same rule: every line of it is added (or removed), so it
passes only if it consists of nothing but listed definitions.  A touched
file whose content the source cannot provide (a writer's `result.json`),
or with a version over 1 MiB (the message names the limit), fails; in a
rubric example, an entry given only by counts is not checked
(give `before`/`after`).

```yaml
- id: SCOPE
  kind: confine_to_symbols
  file: clamp_kit.py
  symbols: ["clamp"]
```
"""

from __future__ import annotations

from collections.abc import Sequence

from gate.base.text import line_diff, lines
from gate.drift.python.tree import Statement
from gate.model.change import DELETED, ChangeSet
from gate.model.report import Finding, RuleResult
from gate.model.rubric import Rule
from gate.rules._common import line_ranges, names, param_list, plural, quote, result, runs_of
from gate.rules._opening import both_statements, versions
from gate.rules.kind import PATHS, TEXTS

KIND = "confine_to_symbols"
PARAMETERS = {
    "file": {
        "description": (
            "The Python file whose changes must stay inside the listed definitions, repo-relative."
        ),
        "$ref": "#/$defs/file",
    },
    "symbols": {
        "description": (
            "The top-level `def`, `async def`, `class` or assignment names whose bodies may change."
        ),
        "$ref": "#/$defs/symbols",
    },
}
READS = {PATHS, TEXTS}
TEXTS_OF = ("file",)


def _allowed(statement: Statement, wanted: frozenset[str]) -> bool:
    """A statement is inside when it defines (or annotates) a listed name and
    touches no name that is not listed."""
    return bool((statement.defines | statement.declares) & wanted) and (
        statement.touches() <= wanted
    )


def _inside(statements: Sequence[Statement], wanted: frozenset[str], count: int) -> bytearray:
    """Per line (1-based): 1 when inside an allowed statement and no other."""
    inside = bytearray(count + 1)
    for s in statements:
        if _allowed(s, wanted):
            last = min(s.last, count)
            inside[s.first : last + 1] = b"\x01" * max(last + 1 - s.first, 0)
    for s in statements:
        if not _allowed(s, wanted):  # `clamp = 1; helper = 2` shares a line
            last = min(s.last, count)
            inside[s.first : last + 1] = bytes(max(last + 1 - s.first, 0))
    return inside


def _binding_notes(
    side: str, statements: Sequence[Statement], wanted: frozenset[str], changed: Sequence[int]
) -> list[str]:
    """Why a statement defining a listed name still counts as outside."""
    out = []
    for s in statements:
        touched = any(s.first <= n <= s.last for n in changed)
        if touched and (s.defines | s.declares) & wanted and not _allowed(s, wanted):
            others = sorted(s.touches() - wanted)
            out.append(f"{side} line {s.first} also binds {names(others, 3)}")
    return out


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    wanted = param_list(rule, "symbols")
    promise = f"changes must stay inside {names(wanted)}"
    found = versions(rule, changes, promise=promise, judge_gone=(DELETED,), python=True)
    if isinstance(found, RuleResult):
        return found
    path, gone, base_text, head_text = found.path, found.gone, found.base, found.head
    parsed = both_statements(rule, found)
    if isinstance(parsed, RuleResult):
        return parsed
    base, head = parsed
    allowed = frozenset(wanted)
    base_in = _inside(base, allowed, len(lines(base_text)))
    head_in = _inside(head, allowed, len(lines(head_text)))
    # A line matches only a line of its own kind (inside or outside): a line
    # that moves across a definition's edge is a changed line on both sides.
    diff = line_diff(base_text, head_text, base_tags=base_in[1:], head_tags=head_in[1:])
    removed = [n for n in diff.removed if not base_in[n]]
    added = [n for n in diff.added if not head_in[n]]
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
    defined = {n for s in (*base, *head) for n in (*s.defines, *s.declares)}
    unknown = [s for s in wanted if s not in defined]
    note = f"; not defined at base or head: {names(unknown)}" if unknown else ""
    binding = _binding_notes("head", head, allowed, added) + _binding_notes(
        "base", base, allowed, removed
    )
    if binding:
        note += f"; {', '.join(binding[:3])}"
    was = f" ({quote(path)} was deleted)" if gone is not None else ""
    count = len(added) + len(removed)
    verb = "lies" if count == 1 else "lie"
    return result(
        rule,
        False,
        f"{plural(count, 'changed line')} of {quote(path)} {verb} outside {scope}{was}: "
        f"{'; '.join(where)}{note}",
        paths=[path],
        findings=findings,
    )
