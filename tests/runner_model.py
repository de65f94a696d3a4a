"""A conservative model of how the GitHub Actions runner reads a step's output.

The runner obeys `::name params::data` at the start of a line (after leading
whitespace) and `##[name params]data` anywhere in a line; after
`::stop-commands::TOKEN` it obeys nothing until a line `::TOKEN::`.  This
model is stricter than the runner: it splits lines at every separator
Python knows (U+2028, NEL, form feed ... as well as `\\n` and `\\r`), counts
any `##[` as a command, and any line starting with `::` as one.
"""

from __future__ import annotations

from hypothesis import strategies as st

# What a hostile name is made of: command prefixes, the runner's escapes for
# newlines, and every kind of line break.
PIECES = ["::error::x", "##[error]x", "%0A", "\n", "\r", "\u2028", "::", "##[", "a", "/", "\x85"]


def _path_from(pieces: list[str]) -> str:
    name = "d" + "".join(pieces) + ".py"
    parts = [p if p not in ("", ".", "..") else "x" for p in name.split("/")]
    return "/".join(parts)


NAMES = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map(_path_from)


def commands(text: str) -> list[str]:
    """Lines the runner would obey as commands, other than opening and closing
    a stop-commands fence.  A fence still open at the end is a command too
    (the output after it would depend on who closes it)."""
    obeyed: list[str] = []
    stopped: str | None = None
    for line in text.splitlines():
        name, data = _parse(line)
        if name is None:
            continue
        if stopped is not None:
            if name == stopped:
                stopped = None
            continue
        if name == "stop-commands" and data:
            stopped = data
            continue
        obeyed.append(line)
    if stopped is not None:
        obeyed.append(f"<fence {stopped} never closed>")
    return obeyed


def _parse(line: str) -> tuple[str | None, str]:
    stripped = line.lstrip()
    if stripped.startswith("::"):
        head, sep, data = stripped[2:].partition("::")
        return (head.split(" ", 1)[0] if sep else stripped), data
    at = line.find("##[")
    if at != -1:
        return line[at:], ""
    return None, ""


def inert(text: str) -> bool:
    """No line is a command of any kind, not even a fence."""
    return all(_parse(line)[0] is None for line in text.splitlines())
