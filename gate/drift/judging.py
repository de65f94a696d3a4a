"""How `test_drift` judges one file, as sentences the rule joins
(`gate.rules.test_drift` keeps the parameters and the verdict): a
modified test module case by case (`by_cases`; a helper module that
only gained definitions, `helper_growth`), a new one for what
reaches the tests of other files (`new_module`, with the texts that may
load it, `loaders`), a runner's section file (`section_changes`,
`section_message`) and the runners that read a configuration file
(`runner_names`).  Pure functions of the change set."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import replace

from gate.base import globs
from gate.base.paths import fold
from gate.base.structured import Unreadable
from gate.base.words import names, plural
from gate.drift import (
    Drift,
    Unit,
    Unparsable,
    compare,
    growth,
    identities,
    locks,
    moved,
    near_files,
    paired_units,
    reaching,
    reader_of,
    runners,
    suffix,
    units_for,
)
from gate.drift.collected import (
    DATA_FOLDERS,
    PYTEST_CONFIGS,
    in_data_folder,
    is_test_module,
    unread_edit,
)
from gate.drift.language import BY_SUFFIX
from gate.drift.lockcopy import Locked
from gate.drift.pins import pin_changes
from gate.drift.python.same import pragma_comments
from gate.model.change import (
    ADDED,
    COPIED,
    DELETED,
    MODE_SYMLINK,
    MODIFIED,
    RENAMED,
    ChangeSet,
    FileChange,
    FileTexts,
)


def section_changes(changes: ChangeSet, is_test: Callable[[str], bool]) -> dict[str, str]:
    """Each written runner section file (`runners.SECTION_FILES`) whose
    runner part the change moved -> how (`runners.section_change`: "added",
    "changed", "removed", or "unreadable: WHY"), or whose declared test
    tools it moved ("tools: WHAT", `gate.drift.pins.pin_changes`), and
    each written lock file whose test tools' locked copies it moved
    ("locked: WHAT", `gate.drift.locks.lock_changes`; a renamed one
    compared across its two paths, under its new path; a tool whose
    copies only moved between the lock files it writes moved nothing,
    `gate.drift.locks.pooled_moves`);
    `is_test` tells the test paths, where a section is judged the strict
    way (`at_test_path`).  A `package.json` whose scripts only grew, or
    that stays in a package folder without tests (`_only_new_tests`), moved
    nothing; nor did a section file removed from a folder below the root
    that held no test at base (`_untested_folder`)."""
    out: dict[str, str] = {}
    paired: set[str] = set()  # both paths of a renamed lock file, judged once
    # (path, base text, head text, base path) of each readable lock file written
    lock_files: list[tuple[str, str | None, str | None, str | None]] = []
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
                if texts is not None and texts.base is None and _apart(changes, f, path):
                    continue  # a new package's own lock file: no existing test installs it
                if why is not None:
                    if changes.source != "example":
                        out[path] = f"unreadable: {why}"
                    continue
                assert texts is not None
                lock_files.append((path, texts.base, texts.head, was))
                paired.add(path)
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
            # a new go.mod, pyproject.toml or setup.cfg of a folder without
            # tests (a symlink's text is its target's path, not the file)
            scoped = (
                texts.base is None
                and f.new_mode != MODE_SYMLINK
                and config_for_new_tests(changes, path, is_test)
            )
            if how in ("added", "changed") and (scoped or _only_new_tests(changes, path, is_test)):
                how = None
            if how == "removed" and _untested_folder(changes, path, is_test):
                how = None  # it governed no test at base
            own = (scoped and growth.own_pins(path)) or (
                texts.base is None and _apart(changes, f, path)
            )
            if how is None and not own:
                try:
                    moved = pin_changes(path, texts.base, texts.head)
                except Unreadable as exc:
                    how = f"unreadable: {exc}"
                else:
                    how = f"tools: {'; '.join(moved)}" if moved else None
            if how is not None:
                out[path] = how
    out.update(_lock_changes(lock_files))
    return out


def _lock_changes(
    files: list[tuple[str, str | None, str | None, str | None]],
) -> dict[str, str]:
    """Each of `files` (lock files the change writes) that moved a test
    tool whose copies moved over all of them together
    (`locks.pooled_moves`: copies folded from one lock file into another
    moved nothing) -> "locked: WHAT", the file's own moves of such tools
    (`locks.moves`), or "unreadable: WHY"."""
    out: dict[str, str] = {}
    read: list[tuple[str, Locked, Locked]] = []
    for path, base, head, was in files:
        try:
            read.append((path, *locks.lock_sides(path, base, head, was)))
        except Unreadable as exc:
            out[path] = f"unreadable: {exc}"
    pooled = locks.pooled_moves(read)
    for path, before, after in read:
        kind = locks.family(path)
        moved = [p for name, p in locks.moves(before, after) if (kind, name) in pooled]
        if moved:
            out[path] = f"locked: {'; '.join(moved)}"
    return out


def tested(is_test: Callable[[str], bool]) -> Callable[[str], bool]:
    """What makes a base folder hold tests: a test path or a runner's
    configuration file."""
    return globs.any_of(is_test, runners.config_matcher(globs.FOLDED))


def _only_new_tests(changes: ChangeSet, path: str, is_test: Callable[[str], bool]) -> bool:
    """Whether the runner part of the package.json `path`, added or
    changed, governs new tests only: scripts that only grew
    (`growth.scripts_grew`), or scripts that stay in a package whose folder
    holds no tests at base (`growth.untested`, `growth.scripts_contained`);
    or of the `pom.xml` `path`: `<modules>` that only gained folders
    without tests at base (`growth.modules_grew`)."""
    section = runners.section_for(path)
    texts = changes.texts.get(path)
    if section is None or texts is None or texts.head is None:
        return False
    if section.format == "pom" and texts.base is not None:
        folders = tested(is_test)
        return growth.modules_grew(
            path,
            texts.base,
            texts.head,
            lambda folder: growth.untested(folder, changes.tree, folders),
        )
    if section.format != "json":
        return False
    keys, head = section.keys, texts.head
    if texts.base is not None and growth.scripts_grew(keys, texts.base, head):
        return True
    folder = path.rpartition("/")[0]
    return growth.untested(folder, changes.tree, tested(is_test)) and growth.scripts_contained(
        keys, texts.base if texts.base is not None else "{}", head
    )


def _apart(changes: ChangeSet, f: FileChange, path: str) -> bool:
    """Whether `path`, a manifest or lock file the change adds (no
    symlink), is a new package's own (`growth.apart`): the test tools it
    declares or locks reach its own new tests only."""
    return (
        f.status in (ADDED, COPIED)
        and f.new_mode != MODE_SYMLINK
        and growth.apart(path, changes.tree)
    )


def _untested_folder(changes: ChangeSet, path: str, is_test: Callable[[str], bool]) -> bool:
    """Whether the folder of the section file `path`, below the root, held
    no test and no runner configuration at base (`growth.untested`): a
    removed one governed no test (a package's placeholder `test` script)."""
    folder = path.rpartition("/")[0]
    return growth.untested(folder, changes.tree, tested(is_test))


def config_grew(changes: ChangeSet, path: str, is_test: Callable[[str], bool]) -> bool:
    """Whether the modified Jest or Vitest configuration `path` only gained
    entries naming test files the change adds (`growth.config_grew`)."""
    texts = changes.texts.get(path)
    if texts is None or texts.base is None or texts.head is None:
        return False
    new = {
        g.path for g in changes.files if g.status in (ADDED, COPIED) and g.new_mode != MODE_SYMLINK
    }
    return growth.config_grew(path, texts.base, texts.head, lambda p: p in new and is_test(p))


def config_same(changes: ChangeSet, path: str) -> bool:
    """Whether the modified Python runner file `path` (a `conftest.py`, a
    `noxfile.py`) holds at head the same code as the engine reads it: the
    same units, keys and roles in the same order, each of the same form
    (`Unit.same`: a comment, a reformat, `@pytest.fixture()` written
    `@pytest.fixture`, ...; `compare` finds none changed, grown or
    renamed), and the same comments a tool reads, in order
    (`same.pragma_comments`: `# pragma: no cover`, `# type: ignore`,
    `# noqa`, ...).  False when either version does not parse."""
    texts = changes.texts.get(path)
    if not path.endswith(".py") or texts is None or texts.base is None or texts.head is None:
        return False
    try:
        base, head = units_for(path, texts.base), units_for(path, texts.head)
    except Unparsable:
        return False
    if base is None or head is None:
        return False
    if [(u.key, u.role) for u in base] != [(u.key, u.role) for u in head]:
        return False
    pragmas = pragma_comments(texts.base)
    if pragmas is None or pragmas != pragma_comments(texts.head):
        return False  # `# pragma: no cover`, `# type: ignore`, ...: a tool reads them
    drift = compare(base, head, allow_added=False)
    return drift.ok and not (drift.added or drift.grew or drift.renamed)


def config_for_new_tests(changes: ChangeSet, path: str, is_test: Callable[[str], bool]) -> bool:
    """Whether the new runner configuration `path` (`growth.NEW_FOLDER_FILES`)
    governs new tests only: a folder without tests at base, a text that
    stays inside it (`growth.scoped`)."""
    texts = changes.texts.get(path)
    head = texts.head if texts is not None else None
    return growth.scoped(path, head, changes.tree, tested(is_test))


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
    if f.symlink or f.submodule:
        return "a symlink or submodule, not a file of test code"
    texts = _pair(changes, f)
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


def _helper(changes: ChangeSet, f: FileChange, collects: Is) -> bool:
    """Whether `f` is a modified file no runner collects (a helper module),
    a plain file with both its texts, outside a data folder (`fixtures/`:
    a sample a test reads as text, `collected.in_data_folder`)."""
    texts = changes.texts.get(f.path)
    return (
        not (is_test_module(f.path) or collects(f.path) or in_data_folder(f.path))
        and texts is not None
        and texts.base is not None
        and texts.head is not None
        and not (f.symlink or f.submodule)
    )


def helper_growth(changes: ChangeSet, f: FileChange, allow_added: bool) -> tuple[str, ...] | None:
    """The language's `Reader.grew` for the helper module `f` (a modified
    file at a test path no runner collects, with both texts): () when it
    only gained definitions no existing test can reach, the reasons it did
    more, None when its language cannot tell (judged whole)."""
    texts = changes.texts.get(f.path)
    if texts is None or texts.base is None or texts.head is None:
        return None
    try:
        reader = reader_of(suffix(f.path))
    except Unparsable:
        return None
    if reader is None or reader.grew is None:
        return None
    others = {p: t.head for p, t in changes.texts.items() if p != f.path and t.head is not None}
    return reader.grew(f.path, texts.base, texts.head, others, allow_added)


def same_text(changes: ChangeSet, path: str) -> bool:
    texts = changes.texts.get(path)
    return texts is not None and texts.base is not None and texts.base == texts.head


def _pair(changes: ChangeSet, f: FileChange) -> FileTexts | None:
    """`f`'s texts; a renamed file's, its old path's base and its new path's head."""
    if f.status != RENAMED or f.old_path is None:
        return changes.texts.get(f.path)
    was, now = changes.texts.get(f.old_path), changes.texts.get(f.path)
    return None if was is None or now is None else FileTexts(base=was.base, head=now.head)


def moved_test(changes: ChangeSet, f: FileChange, is_test: Is, configs: Is) -> bool:
    """Whether the renamed `f` is a test module moved between test paths
    that its runner collects at both (`moved.still_collected`), with no
    runner configuration above either path that the gate does not read
    (`moved.configs_between`): judged case by case (`by_cases`) as a
    modified file, its imports followed to where they point
    (`moved.align`) and its names to what the change renamed them
    (`identities.align`)."""
    return (
        f.status == RENAMED
        and f.old_path is not None
        and is_test(f.old_path)
        and is_test(f.path)
        and not (f.symlink or f.submodule)
        and f.old_mode == f.new_mode
        and fold(f.old_path) != fold(f.path)
        and moved.still_collected(changes, f)
        and not moved.configs_between(changes, f, configs)
        and _pair(changes, f) is not None
    )


def by_cases(
    changes: ChangeSet, f: FileChange, allow_added: bool, collects: Is
) -> tuple[str | None, int, int, int]:
    """The drift in the modified (or moved: `moved_test`) test file `f`
    judged case by case (None: none), how many new tests it adds, how
    many of its tests gained cases and how many it renamed with the same
    code (`Drift.renamed`); `collects`: what the base's runner
    configuration collects.  The change's renames (`identities`) are
    asked only of a file that drifts without them."""
    judged = _by_cases(changes, f, allow_added, collects)
    if judged[0] is None or f.old_path not in (None, f.path):
        return judged
    texts = changes.texts.get(f.path)
    if (
        texts is not None
        and texts.base is not None
        and texts.head is not None
        and not (f.symlink or f.submodule)
        and identities.renamed_only(changes, f.path, f.path, texts.base, texts.head)
    ):
        return None, 0, 0, 0  # it follows the change's renames, and no more
    return judged


def _by_cases(
    changes: ChangeSet, f: FileChange, allow_added: bool, collects: Is
) -> tuple[str | None, int, int, int]:
    why = _whole_file_why(changes, f, collects)
    texts = _pair(changes, f)
    if why is not None and texts is None:
        added = _large_grew(changes, f, allow_added, collects)
        if added is not None:
            return None, added, 0, 0  # grown, not changed: new functions alone
    if why is not None and _helper(changes, f, collects):
        grew = helper_growth(changes, f, allow_added)
        if grew is not None:
            return (f"{f.path} (a helper module): {'; '.join(grew)}" if grew else None), 0, 0, 0
    if (
        why is not None
        and texts is not None
        and texts.base is not None
        and texts.head is not None
        and not f.symlink
        and unread_edit(f.path, texts.base, texts.head)
    ):
        return None, 0, 0, 0  # release metadata or prose: no test reads it
    if why is None and texts is not None and texts.base is not None and texts.head is not None:
        base = head = None
        try:
            side = "base"
            base = units_for(f.old_path or f.path, texts.base)
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
            # an import that names the same code at its new place is no change
            was = f.old_path or f.path
            stray = moved.strays(changes, was, f.path, base, head)
            if stray:
                why = f"{names(stray)} may read other code or data from there"
                return f"{f.path}: moved from {was}; {why}", 0, 0, 0
            base = moved.align(changes, was, f.path, base, head)
            drift = compare(base, head, allow_added=allow_added)
            if not drift.ok:
                # a name (or Go import path) the rest of the change renamed everywhere
                pair = (texts.base, texts.head)
                turned = identities.align(changes, was, f.path, pair, base, head)
                if turned is not None:
                    drift = compare(turned, head, allow_added=allow_added)
            if drift.removed and was == f.path and suffix(f.path) == ".go":
                drift = _unread(changes, f.path, texts.base, base, head, drift)
            if drift.ok:
                return None, len(drift.added), len(drift.grew), len(drift.renamed)
            return f"{f.path}: {drift.summary()}", 0, 0, 0
    return f"{f.path} judged as a whole file: {why}", 0, 0, 0


def _large_grew(changes: ChangeSet, f: FileChange, allow_added: bool, collects: Is) -> int | None:
    """How many new tests the Go test file `f`, modified in place and too
    large to split (its texts in `ChangeSet.large`), gained where it only
    gained new functions (`gate.drift.go.grown.new_functions`); None where
    that is not proven (or it gained tests and `allow_added` is false)."""
    texts = changes.large.get(f.path)
    if (
        texts is None
        or texts.base is None
        or texts.head is None
        or f.status != MODIFIED
        or f.old_path not in (None, f.path)
        or f.symlink
        or f.submodule
        or suffix(f.path) != ".go"
        or not (is_test_module(f.path) or collects(f.path))
    ):
        return None
    from gate.drift.go.grown import new_functions

    found = new_functions(texts.base, texts.head)
    if found is None or (found and not allow_added):
        return None
    return len(found)


def _unread(
    changes: ChangeSet,
    path: str,
    text: str,
    base: Sequence[Unit],
    head: Sequence[Unit],
    drift: Drift,
) -> Drift:
    """`drift` less the removals of a Go test file modified in place that
    no code of its package read and that ran nothing
    (`gate.drift.go.unread`: what golangci-lint's `unused` deletes)."""
    from gate.drift.go.unread import dead

    at_head = {u.key for u in head}
    gone = {u.key for u in base if u.key not in at_head and u.name in drift.removed}
    unread = dead(changes, path, text, gone)
    if not unread:
        return drift
    return replace(drift, removed=tuple(n for n in drift.removed if n not in unread))


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


def near_texts(changes: ChangeSet, path: str) -> dict[str, str | None] | None:
    """The base texts of the files read beside the new file `path`
    (`gate.drift.near_files`: path -> text, None where absent at base);
    None when one has no text here (withheld, or not from this source),
    but in a rubric's example, whose change has no base beyond the files
    it names."""
    out: dict[str, str | None] = {}
    for p in near_files(path):
        got = changes.texts.get(p)
        if got is None and changes.source != "example":
            return None
        out[p] = None if got is None else got.base
    return out


def _doctest_modules(changes: ChangeSet) -> bool:
    """Whether a base pytest configuration file of the change's texts asks
    for `--doctest-modules` (pytest then imports every module it finds)."""
    return any(
        t.base is not None and "doctest-modules" in t.base
        for p, t in changes.texts.items()
        if p in PYTEST_CONFIGS
    )


def _script(
    changes: ChangeSet,
    path: str,
    head: tuple[Unit, ...],
    text: str,
    loaders: dict[str, str] | None,
    collects: Is,
) -> bool:
    """Whether the new file `path` is a script run by hand that no test
    reaches: no runner collects it by its default names or the base's
    configuration, its language reads it as a script (`Reader.script`),
    and no other code file of the change at a test path names it (its
    name without suffixes, in any text: an import, a `require`, a
    subprocess's command line; `loaders` None: not every such text is
    known); never a Python module where the base's pytest configuration
    imports every module (`--doctest-modules`)."""
    if loaders is None or is_test_module(path) or collects(path):
        return False
    if suffix(path) == ".py" and _doctest_modules(changes):
        return False  # pytest imports every module to collect its doctests
    reader = reader_of(suffix(path))
    if reader is None or reader.script is None or not reader.script(path, head, text):
        return False
    stem = path.rpartition("/")[2].split(".")[0]
    if not stem:
        return False
    return not any(
        stem in other for p, other in loaders.items() if p != path and suffix(p) in BY_SUFFIX
    )


def new_module(
    changes: ChangeSet,
    f: FileChange,
    loaders: dict[str, str] | None,
    collects: Is = lambda path: False,
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
    reads (`.rb`, data) or under a data folder is welcome whole, and so is
    a script run by hand that no test reaches (`_script`; `collects`: what
    the base's runner configuration collects): no runner loads its code."""
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
    if _script(changes, f.path, head, texts.head, loaders, collects):
        return None, 0
    added = len(compare((), head, allow_added=True).added)
    others = None if loaders is None else [t for p, t in loaders.items() if p != f.path]
    found = [
        f"{u.name}{'' if 'at line' in u.name else f' at line {u.line}'} (`{_first_line(u.code)}`)"
        for u in reaching(f.path, head, others, changes.tree, near_texts(changes, f.path))
    ]
    if not found:
        return None, added
    return f"{where}: {'; '.join(found)} runs at collection or changes what other tests see", 0


# How a test file changed, in the order the failure message lists them.
ORDER = ("modified", "mode-changed", "type-changed", "deleted", "renamed", "added", "unknown")
CHANGED = frozenset(ORDER) - {"added", "unknown"}


def failure_parts(
    counts: Mapping[str, int],
    cases: Sequence[str],
    config_changed: Mapping[str, str],
    config_added: Sequence[str],
    submodules: Sequence[str],
    sections: Mapping[str, str],
    fresh: Sequence[str],
    source: str,
) -> list[str]:
    """The sentences of `test_drift`'s failure, in order: test files that
    exist at base changed (`counts` by how, with what changed in their
    cases), runner configuration changed or added, submodules at test
    paths, runner sections, new files' collection-time code, new files
    where none may be added, paths whose status `source` cannot say."""
    parts: list[str] = []
    existing = sum(n for k, n in counts.items() if k in CHANGED)
    if existing:
        detail = ", ".join(f"{counts[k]} {k}" for k in ORDER if k in counts and k in CHANGED)
        verb = "exists" if existing == 1 else "exist"
        parts.append(f"{plural(existing, 'test file')} that {verb} at base changed ({detail})")
        parts.extend(cases)
    if config_changed:
        shown = ", ".join(f"{runner_names([p])} {how}" for p, how in sorted(config_changed.items()))
        parts.append(
            f"{plural(len(config_changed), 'test runner configuration file')} that exists at "
            f"base changed ({shown}), which can switch existing tests off"
        )
    if config_added:
        parts.append(
            f"{plural(len(config_added), 'test configuration file')} added "
            f"({runner_names(sorted(config_added))}), which can switch existing tests off"
        )
    if submodules:
        parts.append(
            f"{plural(len(submodules), 'submodule')} added at a test path "
            f"({names(sorted(submodules))}), which can bring a conftest.py or any other file"
        )
    for path, how in sorted(sections.items()):
        parts.append(section_message(path, how))
    parts.extend(fresh)
    if "added" in counts:
        parts.append(f"{plural(counts['added'], 'new test file')} added and allow_added is false")
    if "unknown" in counts:
        parts.append(
            f"{plural(counts['unknown'], 'test path')} with unknown status "
            f"(the source, {source}, does not say whether it existed at base)"
        )
    return parts
