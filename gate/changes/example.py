"""A rubric example's change as a change set (source "example").

An entry with `before`/`after` text gets its line counts from the rules' own
line diff (`gate.base.text.line_diff`: a line ends at a newline, CRLF or CR and
keeps its ending), and `texts` for the paths it names: for a rename,
`old_path` maps to `FileTexts(base=before, head=None)` and `path` to
`FileTexts(base=None, head=after)`, exactly what git reports for those two
paths.  An entry given only by counts has no texts (content unknown).  Every
file is a plain file (mode 100644) on the sides where it exists.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gate.base.text import line_diff
from gate.model.change import ADDED, DELETED, MODIFIED, ChangeSet, FileChange, FileTexts

_FILE_MODE = "100644"


def line_counts(before: str, after: str) -> tuple[int, int]:
    """(added, deleted) lines between two texts, by the rules' own line diff."""
    diff = line_diff(before, after)
    return len(diff.added), len(diff.removed)


def changes_from_example(
    entries: Iterable[Mapping[str, Any]], *, stdout: str | None = None
) -> ChangeSet:
    """The change an example's `change:` entries describe (validated by the loader)."""
    files: list[FileChange] = []
    texts: dict[str, FileTexts] = {}
    for entry in entries:
        status = entry.get("status", MODIFIED)
        path = entry["path"]
        old_path = entry.get("old_path")
        before = entry.get("before")
        after = entry.get("after")
        if before is not None or after is not None:
            added, deleted = line_counts(before or "", after or "")
            if old_path is not None:
                texts[old_path] = FileTexts(base=before, head=None)
                texts[path] = FileTexts(base=None, head=after)
            else:
                texts[path] = FileTexts(base=before, head=after)
        else:
            added, deleted = int(entry.get("added", 0)), int(entry.get("deleted", 0))
        files.append(
            FileChange(
                path=path,
                status=status,
                old_path=old_path,
                added=added,
                deleted=deleted,
                old_mode=None if status == ADDED else _FILE_MODE,
                new_mode=None if status == DELETED else _FILE_MODE,
            )
        )
    return ChangeSet(files=tuple(files), texts=texts, stdout=stdout, source="example")
