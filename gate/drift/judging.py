"""How `test_drift` judges one file, as sentences the rule joins
(`gate.rules.test_drift` keeps the parameters and the verdict): a
modified test module case by case (`by_cases`), a new one for what
reaches the tests of other files (`new_module`, with the texts that may
load it, `loaders`), a runner's section file (`section_changes`,
`section_message`) and the runners that read a configuration file
(`runner_names`).  Pure functions of the change set."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from gate import globs
from gate.changes import (
    DELETED,
    MODE_SUBMODULE,
    MODE_SYMLINK,
    RENAMED,
    ChangeSet,
    FileChange,
    FileTexts,
)
from gate.drift import (
    Unparsable,
    compare,
    locks,
    paired_units,
    reaching,
    runners,
    suffix,
    units_for,
)
from gate.drift.collected import DATA_FOLDERS, is_test_module, unread_edit
from gate.drift.language import BY_SUFFIX
from gate.drift.pins import pin_changes
from gate.drift.structured import Unreadable


def section_changes(changes: ChangeSet, is_test: Callable[[str], bool]) -> dict[str, str]:
    """Each written runner section file (`runners.SECTION_FILES`) whose
    runner part the change moved -> how (`runners.section_change`: "added",
    "changed", "removed", or "unreadable: WHY"), or whose declared test
    tools it moved ("tools: WHAT", `gate.drift.pins.pin_changes`), and
    each written lock file whose test tools' locked copies it moved
    ("locked: WHAT", `gate.drift.locks.lock_changes`; a renamed one
    compared across its two paths, under its new path);
    `is_test` tells the test paths, where a section is judged the strict
    way (`at_test_path`)."""
    out: dict[str, str] = {}
    paired: set[str] = set()  # both paths of a renamed lock file, judged once
    for f in changes.files:
        for path in f.written:
            lock = locks.is_lock(path)
            if path in out or path in paired or (not lock and runners.section_for(path) is None):
                continue
            texts, why = _texts(changes, path)
            if lock:
                was = None
                if f.status == RENAMED and f.old_path and locks.same_kind(f.old_path, f.path):
                    # a renamed lock file: its old path's base against its new
                    # path's head (`locks.lock_changes`), reported at the new path
                    path, was = f.path, f.old_path
                    paired.update(f.written)
                    old, why_old = _texts(changes, was)
                    texts, why = _texts(changes, path)
                    if texts is not None and old is not None:
                        texts = FileTexts(base=old.base, head=texts.head)
                    why = why_old or why
                if why is not None:
                    if changes.source != "example":
                        out[path] = f"unreadable: {why}"
                    continue
                assert texts is not None
                try:
                    moved = locks.lock_changes(path, texts.base, texts.head, was)
                except Unreadable as exc:
                    out[path] = f"unreadable: {exc}"
                else:
                    if moved:
                        out[path] = f"locked: {'; '.join(moved)}"
                continue
            if texts is None:
                if changes.source == "example":
                    continue  # an example given by counts says nothing about content
                out[path] = f"unreadable: {why}"
                continue
            # The path's own sides: a rename's old path is absent at head,
            # its new path at base (`section_change(old, base, None)` and
            # `section_change(new, None, head)`).
            how = runners.section_change(path, texts.base, texts.head, at_test_path=is_test(path))
            if how is None:
                try:
                    moved = pin_changes(path, texts.base, texts.head)
                except Unreadable as exc:
                    how = f"unreadable: {exc}"
                else:
                    how = f"tools: {'; '.join(moved)}" if moved else None
            if how is not None:
                out[path] = how
    return out


def _texts(changes: ChangeSet, path: str) -> tuple[FileTexts | None, str | None]:
    """`path`'s texts, or why there are none."""
    texts = changes.texts.get(path)
    if texts is not None:
        return texts, None
    why = changes.withheld.get(path)
    return None, why or f"its text is unavailable from this source ({changes.source})"


def section_message(path: str, how: str) -> str:
    section = runners.section_for(path)
    what = section.what if section is not None else "its test runner section"
    if locks.is_lock(path):
        what = locks.WHAT
    if how.startswith("locked: "):
        return (
            f"{path} changes the locked versions of test tools, which run or judge the "
            f"existing tests: {how[len('locked: ') :]}"
        )
    if how.startswith("tools: "):
        return (
            f"{path} changes the test tools it declares, which run or judge the existing "
            f"tests: {how[len('tools: ') :]}"
        )
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


Is = Callable[[str], bool]


def _whole_file_why(changes: ChangeSet, f: FileChange, collects: Is) -> str | None:
    """Why the modified test file `f` cannot be judged case by case (None:
    it can); `collects`: what the base's runner configuration collects."""
    if not (is_test_module(f.path) or collects(f.path)):
        return (
            "not a test module by its runner's default names (a helper, data or snapshot "
            "of the tests, which existing tests may read whole)"
        )
    if MODE_SYMLINK in (f.old_mode, f.new_mode) or MODE_SUBMODULE in (f.old_mode, f.new_mode):
        return "a symlink or submodule, not a file of test code"
    texts = changes.texts.get(f.path)
    if texts is None:
        why = changes.withheld.get(f.path)
        if why is not None:
            return why
        if changes.source == "example":
            return "the example gives line counts, not its before and after text"
        return f"its text is unavailable from this source ({changes.source})"
    if texts.base is None or texts.head is None:
        return "its text is missing on one side"
    return None


def same_text(changes: ChangeSet, path: str) -> bool:
    texts = changes.texts.get(path)
    return texts is not None and texts.base is not None and texts.base == texts.head


def by_cases(
    changes: ChangeSet, f: FileChange, allow_added: bool, collects: Is
) -> tuple[str | None, int, int]:
    """The drift in the modified test file `f` judged case by case (None:
    none), how many new tests it adds and how many of its tests gained
    cases; `collects`: what the base's runner configuration collects."""
    why = _whole_file_why(changes, f, collects)
    texts = changes.texts.get(f.path)
    if (
        why is not None
        and texts is not None
        and texts.base is not None
        and texts.head is not None
        and MODE_SYMLINK not in (f.old_mode, f.new_mode)
        and unread_edit(f.path, texts.base, texts.head)
    ):
        return None, 0, 0  # release metadata or prose: no test reads it
    if why is None and texts is not None and texts.base is not None and texts.head is not None:
        base = head = None
        try:
            side = "base"
            base = units_for(f.path, texts.base)
            side = "head"
            head = units_for(f.path, texts.head)
        except Unparsable as exc:
            base = head = None
            why = f"the {side} version {exc}"
            # statements the grammar repairs as opaque units, where a language
            # can; else judged as a whole file, for the first refusal
            with suppress(Unparsable):
                base, head = paired_units(f.path, texts.base, texts.head)
        else:
            if base is None or head is None:
                why = f"no parser for {suffix(f.path) or 'a file without a suffix'}"
        if base is not None and head is not None:
            drift = compare(base, head, allow_added=allow_added)
            if drift.ok:
                return None, len(drift.added), len(drift.grew)
            return f"{f.path}: {drift.summary()}", 0, 0
    return f"{f.path} judged as a whole file: {why}", 0, 0


def _first_line(code: str, limit: int = 60) -> str:
    line = next((x.strip() for x in code.splitlines() if x.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def loaders(changes: ChangeSet, is_test: Callable[[str], bool]) -> dict[str, str] | None:
    """The head texts of the change's files that may load a new test file
    (`gate.drift.reaching`'s `others`); None when a file at a test path
    that the change writes has no text here (withheld, or not from this
    source): what it loads is unknown."""
    texts: dict[str, str] = {}
    for g in changes.files:
        if g.status == DELETED or not is_test(g.path):
            continue
        got = changes.texts.get(g.path)
        if got is None or got.head is None:
            return None
        texts[g.path] = got.head
    return texts


def new_module(
    changes: ChangeSet, f: FileChange, loaders: dict[str, str] | None
) -> tuple[str | None, int]:
    """The drift in the new test file `f` (None: none), and how many tests
    it adds.  A new test module, or a new helper module at a test path (a
    test imports it, which runs its module code at collection), may bring
    cases and support code; code that runs at collection or changes what
    other tests see (a COLLECTION unit: an assignment into another module,
    `sys.modules`, an autouse fixture, a `pytest_*` hook, `pytestmark`, a
    top-level `jest.mock`, Go's `init` or `TestMain`) is drift, as in an
    existing file.  A file that has a parser (`gate.drift.language.BY_SUFFIX`) but
    cannot be read is drift: it could hold anything.  A file no module
    reads (`.rb`, data) or under a data folder is welcome whole."""
    if globs.matches(f.path, DATA_FOLDERS, globs.FOLDED) or suffix(f.path) not in BY_SUFFIX:
        return None, 0
    where = f"{f.path} (new)"
    if f.new_mode == MODE_SYMLINK:
        return f"{where}: a symlink, whose target's code runs at collection", 0
    texts = changes.texts.get(f.path)
    if texts is None:
        if changes.source == "example":
            return None, 0  # an example given by counts says nothing about content
        why = changes.withheld.get(f.path)
        if why is None:
            why = f"its text is unavailable from this source ({changes.source})"
        return f"{where} cannot be read ({why}): a new test module could run anything", 0
    if texts.head is None:
        return f"{where} cannot be read (its text is missing at head)", 0
    try:
        head = units_for(f.path, texts.head)
    except Unparsable as exc:
        return f"{where}: the head version {exc}; a new test module could run anything", 0
    if head is None:  # pragma: no cover - BY_SUFFIX names a language for the suffix
        return None, 0
    # A new file's units: cases and support are welcome, and so is
    # collection-time code that acts on the file's own (new) tests only;
    # what reaches the tests of other files is refused (`reaching`).
    added = len(compare((), head, allow_added=True).added)
    others = None if loaders is None else [t for p, t in loaders.items() if p != f.path]
    found = [
        f"{u.name}{'' if 'at line' in u.name else f' at line {u.line}'} (`{_first_line(u.code)}`)"
        for u in reaching(f.path, head, others, changes.tree)
    ]
    if not found:
        return None, added
    return f"{where}: {'; '.join(found)} runs at collection or changes what other tests see", 0
