"""`keep_symbols`: named top-level Python symbols survive the change.

A *symbol* is a name defined at the top level of the module by `def`,
`async def`, `class` or an assignment (`X = ...`, `X: int = ...`, and each
name of a tuple/list unpacking `A, B = ...`).  A bare annotation
(`X: int`) defines nothing.  Imports do not count: a function replaced by
`from elsewhere import name` is missing.  Nested definitions (methods,
inner functions, names bound inside `if`/`try` blocks) are not top-level.
A symbol may change kind (a `def` that becomes a `class` is kept) and may
move within the file.

A kept symbol must also still be what the name means once the module has
run: its final module-level binding at head must be its definition.  The
rule fails when a change adds, after the definition,

* `del name`;
* an import of the name (`import name`, `from m import name`), or a
  `from m import *`;
* a binding inside a top-level block: an assignment in an `if`, `try`,
  `for`, `while`, `with` or `match` block, a `for` or `with ... as` target,
  `except ... as name`, a `match` capture;
* a `:=` anywhere at module level (a decorator, a default argument, a
  comprehension), or an augmented assignment `name += ...`;
* an assignment that replaces it without using it (`clamp = other`;
  `clamp = cache(clamp)` wraps it and keeps it);

or anywhere in the file a `global name` in a function or class, which lets
code rebind it when it runs.  What the base already does is allowed, kind
for kind: a base that rebinds a symbol under `if` may keep doing so; the
rule fails on what the change adds.

Out of reach (the parser cannot see them): `globals()[...] = ...`,
`vars()`, `setattr(sys.modules[__name__], ...)`, `exec`/`eval`, a module
`__getattr__` or `__class__` swap, another module assigning
`mod.name = ...`, and a changed body behind an unchanged name.

Passes when `file` is untouched.  Fails when:

* `file` is deleted, or renamed away (its symbols no longer exist there);
* the change adds (or renames, copies or changes into place) anything
  Python imports or runs instead of `file`, touched or not: beside it, a
  package folder of the same name (`clamp_kit/__init__.py`, or an
  `__init__` of any suffix Python loads) or an extension module
  (`clamp_kit.so`, `clamp_kit.cpython-311-x86_64-linux-gnu.so`,
  `clamp_kit.pyd`), which Python's finder tries first; its cached bytecode
  (`__pycache__/clamp_kit.cpython-312.pyc`, any tag: a hash-based pyc runs
  without the source being read); a module or package named like `file`
  or a folder above it in a test folder (`tests/clamp_kit.py`: pytest puts
  a test's folder first on `sys.path`) or in a folder above `file`
  (`clamp_kit.py` at the root for `src/clamp_kit.py`); or a `.pth` file or
  `sitecustomize` module in a `site-packages` folder (a virtual
  environment in the checkout runs them at startup, before any import),
  or a module there named like `file` (an editable install puts the
  project's folder after it);
* a listed symbol defined at base is not defined at head, or is deleted or
  rebound after its definition as above (an annotation names the line);
* the head version does not parse as Python (the message and an annotation
  name the line), or the base version does not; a version that declares
  an encoding under which Python's lines are not its bytes' lines (UTF-7,
  HZ) counts as not Python;
* the file is touched but the source cannot provide its content (a
  writer's `result.json`), or a version is over 1 MiB (too large to parse
  within bounds; the message names the limit): the rule fails rather than
  guessing.  (In a
  rubric example, an entry given only by counts carries no text: the rule
  passes there and says so; give `before`/`after` to exercise it.)

A listed symbol that is not defined at base (or that the base deletes with
`del` after defining it) is ignored (there is nothing to keep), but the
message names it so a typo in the rubric is visible.

```yaml
- id: NAMES
  kind: keep_symbols
  file: clamp_kit.py
  symbols: ["_noisy_helper", "clamp"]
```
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from gate.drift.python.tree import Statement
from gate.model.change import ChangeSet
from gate.model.report import Finding, RuleResult
from gate.model.rubric import Rule
from gate.rules._common import names, param_list, plural, quote, result
from gate.rules._opening import both_statements, versions
from gate.rules.kind import PATHS, RENAME, TEXTS

KIND = "keep_symbols"
PARAMETERS = {
    "file": {
        "description": "The Python file whose top-level names must survive, repo-relative.",
        "$ref": "#/$defs/file",
    },
    "symbols": {
        "description": "Top-level names that must still be defined at head.",
        "$ref": "#/$defs/symbols",
    },
}
READS = {PATHS, TEXTS}
TEXTS_OF = ("file",)
LAB = RENAME


class _Threat(NamedTuple):
    """Something after (or around) a symbol's definition that unbinds it."""

    key: str  # compared between base and head
    why: str  # for the message
    line: int


class _Fate(NamedTuple):
    defined_at: int  # line of the first top-level definition
    threats: tuple[_Threat, ...]
    deleted: bool  # its final binding is a `del`


def _fate(statements: Sequence[Statement], name: str) -> _Fate | None:
    """What happens to `name` in one version of the module; None when no
    top-level statement defines it."""
    definitions = [s for s in statements if name in s.defines]
    if not definitions:
        return None
    binders = [s for s in statements if name in s.binds or s.star]
    final = binders[-1]
    threats: list[_Threat] = []
    deleted = False
    if final.star:
        threats.append(
            _Threat(
                "star", f"may be rebound by `from ... import *` at line {final.first}", final.first
            )
        )
    elif name not in final.defines:
        deleted = final.kind == "`del`"
        why = "deleted by `del`" if deleted else f"rebound by {final.kind}"
        threats.append(_Threat(final.kind, f"{why} at line {final.first}", final.first))
    elif (
        final.kind in ("an assignment", "an annotated assignment")
        and len(binders) > 1
        and name not in final.reads
    ):
        threats.append(
            _Threat(
                "replaced",
                f"replaced by an assignment that does not use it at line {final.first}",
                final.first,
            )
        )
    for s in statements:
        for rebound, line in s.rebinders:
            if rebound == name:
                why = f"may be rebound when code runs `global {name}` at line {line}"
                threats.append(_Threat("global", why, line))
    return _Fate(definitions[0].first, tuple(threats), deleted)


def _new_threats(base: _Fate, head: _Fate) -> list[_Threat]:
    """Head threats beyond those the base already had (by kind and count)."""
    allowance = Counter(t.key for t in base.threats)
    out = []
    for threat in head.threats:
        if allowance[threat.key] > 0:
            allowance[threat.key] -= 1
        else:
            out.append(threat)
    return out


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    symbols = param_list(rule, "symbols")
    found = versions(
        rule, changes, promise=f"its symbols {names(symbols)} must stay in it", python=True
    )
    if isinstance(found, RuleResult):
        return found
    path = found.path
    parsed = both_statements(rule, found)
    if isinstance(parsed, RuleResult):
        return parsed
    base, head = parsed
    present: list[str] = []
    absent: list[str] = []
    lost: list[tuple[str, str, Finding]] = []  # symbol, why, finding
    for symbol in symbols:
        before = _fate(base, symbol)
        if before is None or before.deleted:
            absent.append(symbol)
            continue
        present.append(symbol)
        after = _fate(head, symbol)
        if after is None:
            message = f"symbol {quote(symbol)} (base line {before.defined_at}) is missing at head"
            lost.append((symbol, "missing", Finding(path=path, message=message, line=None)))
            continue
        for threat in _new_threats(before, after)[:1]:
            message = f"symbol {quote(symbol)} (base line {before.defined_at}): {threat.why}"
            lost.append((symbol, threat.why, Finding(path=path, message=message, line=threat.line)))
    note = f"; not defined at base, so ignored: {names(absent)}" if absent else ""
    if not lost:
        return result(
            rule, True, f"{plural(len(present), 'listed symbol')} of {quote(path)} kept{note}"
        )
    verb = "is" if len(lost) == 1 else "are"
    head_of = f"{plural(len(lost), 'kept symbol')} of {quote(path)} {verb}"
    if all(why == "missing" for _, why, _ in lost):
        message = f"{head_of} missing at head: {names([s for s, _, _ in lost])}{note}"
    else:
        shown = ", ".join(f"{quote(s)} ({why})" for s, why, _ in lost[:5])
        more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
        message = f"{head_of} missing or rebound at head: {shown}{more}{note}"
    return result(rule, False, message, paths=[path], findings=[f for _, _, f in lost])
