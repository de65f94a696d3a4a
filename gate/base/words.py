"""Counted words, for every message and renderer: `1 file`, `2 files`.

One owner, so no report, rule message or scoreboard ever says "1 files".
"""

from __future__ import annotations

from collections.abc import Sequence

from gate.base.paths import quoted


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 path`, `2 paths` (or `many` for irregular plurals: `plural(n, "patch", "patches")`)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {many if many is not None else word + 's'}"


def names(items: Sequence[str], limit: int = 5) -> str:
    """`a, b, c` (each quoted, `gate.base.paths.quoted`), shortened to `limit`
    entries with a count of the rest."""
    shown = ", ".join(quoted(s) for s in items[:limit])
    if len(items) > limit:
        shown += f" and {len(items) - limit} more"
    return shown
