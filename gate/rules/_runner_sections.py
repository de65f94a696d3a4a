"""`test_drift`'s reading of the runner section files a change writes
(`gate.testcases.runners.SECTION_FILES`: `pyproject.toml`'s pytest
tables, `package.json`'s runner keys and test scripts, ...): which of
them moved their runner part (`section_changes`), and how a message names
them and the runners that read a file (`section_message`, `runner_names`)."""

from __future__ import annotations

from collections.abc import Callable

from gate.changes import ChangeSet
from gate.testcases import runners


def section_changes(changes: ChangeSet, is_test: Callable[[str], bool]) -> dict[str, str]:
    """Each written runner section file (`runners.SECTION_FILES`) whose
    runner part the change moved -> how (`runners.section_change`: "added",
    "changed", "removed", or "unreadable: WHY"); `is_test` tells the test
    paths, where a section is judged the strict way (`at_test_path`)."""
    out: dict[str, str] = {}
    for f in changes.files:
        for path in f.written:
            if path in out or runners.section_for(path) is None:
                continue
            texts = changes.texts.get(path)
            if texts is None:
                if changes.source == "example":
                    continue  # an example given by counts says nothing about content
                why = changes.withheld.get(path)
                if why is None:
                    why = f"its text is unavailable from this source ({changes.source})"
                out[path] = f"unreadable: {why}"
                continue
            # The path's own sides: a rename's old path is absent at head,
            # its new path at base (`section_change(old, base, None)` and
            # `section_change(new, None, head)`).
            how = runners.section_change(path, texts.base, texts.head, at_test_path=is_test(path))
            if how is not None:
                out[path] = how
    return out


def section_message(path: str, how: str) -> str:
    section = runners.section_for(path)
    what = section.what if section is not None else "its test runner section"
    if how.startswith("unreadable: "):
        return (
            f"{path} is touched but the gate cannot tell whether its test runner "
            f"configuration ({what}) changed: {how[len('unreadable: ') :]}"
        )
    return f"the test runner configuration of {path} ({what}) was {how}"


def runner_names(paths: list[str]) -> str:
    """`conftest.py (pytest), babel.config.js (jest)`: each path with the runners that read it."""
    shown = []
    for path in paths:
        readers = runners.runners_for(path)
        shown.append(f"{path} ({', '.join(readers)})" if readers else path)
    return ", ".join(shown)
