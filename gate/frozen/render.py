"""A frozen run's report for people: `to_text` and `to_markdown` (the JSON
form is `gate.frozen.run.Outcome.to_dict`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.base.escape import markdown_code, markdown_text, printable
from gate.base.words import plural

if TYPE_CHECKING:
    from gate.frozen.attribute import Failure
    from gate.frozen.run import Outcome

SHOWN = 10  # paths listed per kind before "and N more"


def _some(paths: list[str] | tuple[str, ...]) -> str:
    shown = ", ".join(printable(p) for p in paths[:SHOWN])
    more = len(paths) - SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _failure_line(f: Failure) -> str:
    return f"  {printable(f.case.detail or f.file or '?')}: {printable(f.why)}"


def to_text(outcome: Outcome) -> str:
    from gate.frozen.attribute import AT_HEAD, EXCUSED, RED
    from gate.git.repo import short

    plan = outcome.plan
    lines = [
        f"gate frozen-tests: the base's tests on the head's code (base {short(outcome.base)}, "
        f"head {short(outcome.head)})",
        f"frozen: {plural(plan.frozen, 'path')} of the base's tests and runner configuration",
    ]
    if plan.restore:
        lines.append(f"  restored as at the base: {_some(sorted(plan.restore))}")
    if plan.remove:
        lines.append(f"  removed (the base has none there): {_some(list(plan.remove))}")
    if plan.splice:
        lines.append(f"  test part spliced as at the base: {_some(sorted(plan.splice))}")
    if outcome.removed_folders:
        lines.append(f"  replaced by folders of tests: {_some(outcome.removed_folders)}")
    if outcome.linked:
        lines.append(f"linked from the checkout: {_some(outcome.linked)}")
    ran = outcome.frozen
    read = ", ".join(ran.results.read) or "none"
    lines.append(f"COMMAND exited {ran.code}; reports read: {read}")
    for problem in ran.results.problems:
        lines.append(f"  unreadable: {printable(problem)}")
    for status, title in ((RED, "red"), (EXCUSED, "excused"), (AT_HEAD, "failing at head too")):
        found = [f for f in outcome.failures if f.status == status]
        if found:
            lines.append(f"{title}: {len(found)}")
            lines.extend(_failure_line(f) for f in found)
    for note in outcome.notes:
        lines.append(f"note: {printable(note)}")
    if outcome.passed:
        excused = sum(1 for f in outcome.failures if f.status == EXCUSED)
        tail = f" ({plural(excused, 'failure')} excused by static flags)" if excused else ""
        lines.append(f"verdict: PASS: the base's tests pass on the head's code{tail}")
    else:
        why = outcome.unexplained_exit
        red = len(outcome.red)
        lines.append(
            "verdict: FAIL: "
            + (f"{plural(red, 'red failure')}" if red else printable(why or "red"))
        )
    return "\n".join(lines) + "\n"


def to_markdown(outcome: Outcome) -> str:
    from gate.frozen.attribute import AT_HEAD, EXCUSED, RED

    head = "✅ pass" if outcome.passed else "❌ fail"
    lines = [f"### frozen tests: {head}", ""]
    plan = outcome.plan
    lines.append(
        f"The base's tests ({plural(plan.frozen, 'frozen path')}) ran on the head's code: "
        f"{len(plan.restore)} restored, {len(plan.remove)} removed, {len(plan.splice)} spliced; "
        f"COMMAND exited {outcome.frozen.code}."
    )
    for status, title in ((RED, "Red"), (EXCUSED, "Excused"), (AT_HEAD, "Failing at head too")):
        found = [f for f in outcome.failures if f.status == status]
        if found:
            lines += ["", f"**{title}** ({len(found)}):", ""]
            lines += [
                f"- {markdown_code(f.case.detail or f.file or '?')}: {markdown_text(f.why)}"
                for f in found
            ]
    if outcome.unexplained_exit:
        lines += ["", markdown_text(outcome.unexplained_exit)]
    return "\n".join(lines) + "\n"
