"""The loop's scoreboard (and two scoreboards compared) for people and PRs."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gate.base.escape import markdown_code, markdown_text, printable
from gate.base.words import plural
from gate.research.lab import EXACT_BUCKETS
from gate.research.loop.scoreboard import (
    TESTS_RED,
    BoardComparison,
    Cell,
    LoopScoreboard,
    Rate,
    percent,
    shown,
)

INFRASTRUCTURE_SHOWN = 20  # attempts without a verdict listed with their reason


def _names(writer: str, prompt: str) -> str:
    return f"{markdown_code(writer, table=True)} | {markdown_code(prompt, table=True)}"


def _header(board: LoopScoreboard) -> str:
    return (
        f"{plural(len(board.attempts), 'attempt')} in {plural(len(board.cells), 'cell')} "
        f"(writer x prompt) against base {board.base[:12]}, rubric sha256 "
        f"{board.rubric_sha256[:12]}; rates with Wilson 95% intervals"
    )


def _columns(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]


def _brief(rate: Rate) -> str:
    """`1/2 9-91%`: the count and the Wilson 95% interval."""
    low, high = rate.interval
    return f"{rate.count}/{rate.of} {percent(low)[:-1]}-{percent(high)}"


def to_text(board: LoopScoreboard) -> str:
    lines = [_header(board), ""]
    rows = [["writer", "prompt", *EXACT_BUCKETS]]
    for cell in board.cells:
        rates = cell.buckets()
        rows.append(
            [
                printable(cell.writer),
                printable(cell.prompt),
                *(_brief(rates[b]) for b in EXACT_BUCKETS),
            ]
        )
    lines += _columns(rows)
    failing = [r for r in board.rule_ids if any(r in a.failed for a in board.attempts)] + [
        TESTS_RED
    ]
    lines += ["", "rules failed, of the judged attempts:"]
    rows = [["writer", "prompt", "judged", *(printable(r) for r in failing)]]
    for cell in board.cells:
        rates = cell.rules()
        rows.append(
            [
                printable(cell.writer),
                printable(cell.prompt),
                str(len(cell.judged)),
                *(_brief(rates[r]) for r in failing),
            ]
        )
    lines += _columns(rows)
    never = [r for r in board.rule_ids if r not in failing]
    if never:
        lines.append("never failed: " + ", ".join(printable(r) for r in never))
    refused = [a for a in board.attempts if a.error is not None]
    if refused:
        lines += ["", "infrastructure:"]
        lines += [
            f"  {printable(a.writer)}/{printable(a.prompt)}/{a.attempt}: {printable(a.error or '')}"
            for a in refused[:INFRASTRUCTURE_SHOWN]
        ]
        if len(refused) > INFRASTRUCTURE_SHOWN:
            lines.append(f"  ... and {len(refused) - INFRASTRUCTURE_SHOWN} more (JSON has all)")
    errors = board.judge_errors
    if errors:
        lines.append("")
        lines.append(
            "could not judge: "
            + ", ".join(f"{printable(a.writer)}/{printable(a.prompt)}/{a.attempt}" for a in errors)
        )
    return "\n".join(lines) + "\n"


def to_markdown(board: LoopScoreboard) -> str:
    lines = [f"### Writer loop: {markdown_text(_header(board))}", ""]
    lines += _markdown_rates(
        board, "attempts", EXACT_BUCKETS, EXACT_BUCKETS, lambda c: (len(c.attempts), c.buckets())
    )
    lines += ["", "Rule failure rates (of the judged attempts):", ""]
    names = [*board.rule_ids, TESTS_RED]
    heads = [markdown_text(n) for n in names]
    lines += _markdown_rates(board, "judged", heads, names, lambda c: (len(c.judged), c.rules()))
    return "\n".join(lines) + "\n"


def _markdown_rates(
    board: LoopScoreboard,
    count: str,
    heads: Sequence[str],
    keys: Sequence[str],
    row: Callable[[Cell], tuple[int, Mapping[str, Rate]]],
) -> list[str]:
    """A markdown table, a row per cell (writer x prompt): what `row` gives
    it, how many it counts (the column `count`) and a rate per key (the
    columns `heads`, as shown)."""
    lines = [
        f"| writer | prompt | {count} | " + " | ".join(heads) + " |",
        "| --- | --- | --- |" + " --- |" * len(keys),
    ]
    for cell in board.cells:
        n, rates = row(cell)
        lines.append(
            f"| {_names(cell.writer, cell.prompt)} "
            f"| {n} | " + " | ".join(shown(rates[k]) for k in keys) + " |"
        )
    return lines


def _slot(slot: tuple[str, str, str, str]) -> str:
    writer, prompt, what, name = slot
    return f"{printable(writer)} on {printable(prompt)}, {what} {printable(name)}"


def comparison_text(c: BoardComparison) -> str:
    if c.agree:
        lines = [f"AGREE: none of {c.steady} rates moved beyond its Wilson 95% interval"]
    else:
        lines = [
            f"DIFFER: {len(c.moved)} rates moved beyond their Wilson 95% intervals, "
            f"{len(c.only_a) + len(c.only_b)} are in one scoreboard only"
        ]
    lines += [f"A: {printable(c.a.name)}", f"B: {printable(c.b.name)}"]
    for m in c.moved:
        lines.append(
            f"moved {'up' if m.b.rate > m.a.rate else 'down'}: "
            f"{_slot((m.writer, m.prompt, m.what, m.name))}: A {shown(m.a)}, B {shown(m.b)}"
        )
    lines += [f"only in A: {_slot(s)}" for s in c.only_a]
    lines += [f"only in B: {_slot(s)}" for s in c.only_b]
    if not c.same_judge:
        lines.append(
            "note: the scoreboards were judged against different bases or rubrics; "
            "that is two judges, not one"
        )
    return "\n".join(lines) + "\n"


def comparison_markdown(c: BoardComparison) -> str:
    if c.agree:
        lines = [f"### ✅ No rate moved beyond its Wilson 95% interval ({c.steady} rates)"]
    else:
        lines = [f"### ❌ {len(c.moved)} rates moved beyond their Wilson 95% intervals"]
    lines += ["", f"A: {markdown_code(c.a.name)} · B: {markdown_code(c.b.name)}"]
    if c.moved:
        lines += ["", "| writer | prompt | rate | A | B |", "| --- | --- | --- | --- | --- |"]
        for m in c.moved:
            lines.append(
                f"| {markdown_code(m.writer, table=True)} | {markdown_code(m.prompt, table=True)} "
                f"| {m.what} {markdown_text(m.name)} | {shown(m.a)} | {shown(m.b)} |"
            )
    for label, slots in (("A", c.only_a), ("B", c.only_b)):
        lines += [f"- only in {label}: {markdown_text(_slot(s))}" for s in slots]
    if not c.same_judge:
        lines += ["", "**Note:** the scoreboards were judged against different bases or rubrics."]
    return "\n".join(lines) + "\n"
