"""Counted words, for every message and renderer: `1 file`, `2 files`.

One owner, so no report, rule message or scoreboard ever says "1 files".
"""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 path`, `2 paths` (or `many` for irregular plurals: `plural(n, "patch", "patches")`)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {many if many is not None else word + 's'}"
