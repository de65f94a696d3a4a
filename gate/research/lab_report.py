"""The lab's scoreboard rendered for people (text) and pull requests (markdown)."""

from __future__ import annotations

from gate.base.escape import markdown_text, printable
from gate.base.words import plural
from gate.research.lab import BUCKETS, Scoreboard


def about(name: str, message: str) -> str:
    """`NAME: MESSAGE`, naming the patch once: an error that already starts
    with the name (`p.patch: the patch does not apply`, `p.patch:3: ...`)
    is shown as it is."""
    if message.startswith((f"{name}:", f"{name} ")):
        return message
    return f"{name}: {message}"


def to_text(board: Scoreboard) -> str:
    rows = [("patch", "applies", "verdict", "failed", "bucket")]
    for e in board.entries:
        failed = ", ".join(e.failed) if e.failed else ("-" if e.applies else "")
        bucket = e.bucket + (" (DISAGREES on repeat)" if e.disagreement else "")
        rows.append((printable(e.patch), "yes" if e.applies else "no", e.verdict, failed, bucket))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4]
        for row in rows
    ]
    for e in board.entries:
        if e.error is not None:
            lines.append(about(printable(e.patch), printable(e.error)))
    counts = board.counts()
    lines.append("")
    lines.append("buckets: " + ", ".join(f"{b} {counts[b]}" for b in BUCKETS))
    total = len(board.entries)
    lines.append(
        f"{plural(total, 'patch', 'patches')} against base {board.base[:12]}, "
        f"rubric sha256 {board.rubric_sha256[:12]}"
        + (f", each judged {board.repeat} times" if board.repeat > 1 else "")
    )
    if board.repeat > 1:
        if board.disagreements:
            lines.append(
                "DISAGREEMENT: the same patch got different verdicts: "
                + ", ".join(printable(p) for p in board.disagreements)
            )
        else:
            lines.append("repeat: every patch got the same verdict each time")
    lines.extend(f"note: {printable(n)}" for n in board.notes)
    return "\n".join(lines) + "\n"


def to_markdown(board: Scoreboard) -> str:
    lines = ["| patch | applies | verdict | failed | bucket |", "| --- | --- | --- | --- | --- |"]
    for e in board.entries:
        lines.append(
            f"| {markdown_text(e.patch)} | {'yes' if e.applies else 'no'} | {e.verdict} "
            f"| {', '.join(e.failed)} | {e.bucket}{' (disagrees)' if e.disagreement else ''} |"
        )
    counts = board.counts()
    lines += ["", "| bucket | patches |", "| --- | --- |"]
    lines += [f"| {b} | {counts[b]} |" for b in BUCKETS]
    if board.notes:
        lines += ["", *(f"**Note:** {markdown_text(n)}" for n in board.notes)]
    return "\n".join(lines) + "\n"
