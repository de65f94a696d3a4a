"""A content rule's opening: the one named file (its `file` parameter)
before the rule compares anything.

`versions` is the opening every content rule shares: untouched passes;
shadowed by what Python imports instead (with `python`,
`gate.drift.python.finder`) fails; not a regular file on either side (`type_change`: a symlink, a
submodule, a folder, a type change the source cannot name) fails; gone
(deleted, renamed away) fails unless the rule judges that; text the source
cannot give is `unavailable`; else the base and head texts (`Versions`).
`file_state` finds the change that touches a path; `both_statements` a
Python file's top-level statements on both sides
(`gate.drift.python.tree`), or the verdict that names the side that is
not Python.  Pure.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from gate.drift.python.finder import shadowed
from gate.drift.python.tree import NotPython, Statement, module_statements
from gate.model.change import (
    ADDED,
    COPIED,
    DELETED,
    MODE_SUBMODULE,
    MODE_SYMLINK,
    RENAMED,
    TYPE_CHANGED,
    UNKNOWN,
    ChangeSet,
    FileChange,
)
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules._common import param_str, quote, result


@dataclass(frozen=True)
class FileState:
    """What a change did to one named file.

    `change` is the file change that touches it (None: untouched).
    `gone` says why the file no longer exists at its path ("deleted",
    "renamed to X") or is None.
    """

    change: FileChange | None
    gone: str | None


def file_state(changes: ChangeSet, path: str) -> FileState:
    """Find the change that touches `path`; a rename away or a deletion makes it `gone`."""
    found: FileChange | None = None
    for f in changes.files:
        if path not in f.written:
            continue
        if f.status == DELETED and f.path == path:
            return FileState(f, "deleted")
        if f.status == RENAMED and f.old_path == path and f.path != path:
            return FileState(f, f"renamed to {quote(f.path)}")
        if found is None:
            found = f
    return FileState(found, None)


def unavailable(rule: Rule, path: str, changes: ChangeSet) -> RuleResult:
    """The result for a touched file whose text the source cannot give, or
    that is too large to read (`ChangeSet.withheld` says why).

    Real sources (git, a patch, the API, a writer's result.json) fail: the
    rule cannot be judged.  A rubric example that describes a file only by
    its line counts says nothing about its content, so there the rule
    passes and says it did not look (give `before`/`after` to exercise it).
    """
    if changes.source == "example":
        return result(
            rule,
            True,
            f"the example gives no text for {quote(path)} (only counts); content not checked",
        )
    why = changes.withheld.get(path)
    if why is not None:
        return result(
            rule,
            False,
            f"{quote(path)} is touched but {why}: the rule cannot judge it; keep files "
            "that large out of content rules",
            paths=[path],
        )
    return result(
        rule,
        False,
        f"{quote(path)} is touched but its content is unavailable from this source "
        f"({changes.source}); judge it with `gate check` on a git repository",
        paths=[path],
    )


@dataclass(frozen=True)
class Versions:
    """The file a content rule names (its `file` parameter), touched by
    `change`; `gone` as in `FileState`; its base and head text (None where
    absent; the head is None when the file is gone)."""

    path: str
    change: FileChange
    gone: str | None
    base: str | None
    head: str | None


# What a checkout reads at a path that is not a regular file, by git mode.
_NOT_A_FILE = {
    MODE_SYMLINK: ("a symlink", "a checkout reads the file it points to, not the link's text"),
    MODE_SUBMODULE: ("a submodule", "a checkout reads another repository's files there"),
}


def type_change(changes: ChangeSet, path: str) -> tuple[str, tuple[str, ...]] | None:
    """(what `path` is or becomes other than a regular file, the paths
    that say so), or None when it is a regular file (or absent) on each
    side the change writes.  A symlink or a submodule on either side
    (its git mode, either side of the change that writes `path`), a type
    change whose modes the source does not know (the PR files API's
    `changed`), or a folder on either side: a change that writes a path
    under `path/` (a file becoming a folder is a deletion, or a rename,
    plus additions under it)."""
    under = f"{path}/"
    base_folder = head_folder = False
    inside: list[str] = []
    touched: list[str] = []
    for other in changes.files:
        base_side = None if other.status in (ADDED, COPIED) else (other.old_path or other.path)
        head_side = None if other.status == DELETED else other.path
        hit: list[str] = []
        if base_side is not None and base_side.startswith(under):
            base_folder = True
            hit.append(base_side)
        if head_side is not None and head_side.startswith(under):
            head_folder = True
            hit.append(head_side)
        if hit:
            inside.extend(hit)
            touched.extend(other.touched)
            if other.status == UNKNOWN:  # a path known by name only: either side
                base_folder = head_folder = True
    if base_folder or head_folder:
        if base_folder and head_folder:
            side = "a folder on both sides of the change"
        elif base_folder:
            side = "a folder at base"
        else:
            side = "a folder at head"
        what = f"is {side} (the change writes {quote(sorted(inside)[0])} inside it)"
        return f"{what}: a checkout reads the files inside it, not one text", tuple(touched)
    state = file_state(changes, path)
    f = state.change
    if f is None:
        return None
    renamed_in = f.status == RENAMED and f.path == path and f.old_path != path
    base_mode = None if f.status in (ADDED, COPIED) or renamed_in else f.old_mode
    head_mode = None if state.gone is not None else f.new_mode
    for side, mode in (("at base", base_mode), ("at head", head_mode)):
        if mode in _NOT_A_FILE:
            kind, reads = _NOT_A_FILE[mode]
            verb = "was" if side == "at base" else "is"
            return f"{verb} {kind} {side}: {reads}", f.touched
    if f.status == TYPE_CHANGED:
        return (
            f"changes type (a regular file becoming a symlink or a submodule, or back), and "
            f"this source ({changes.source}) does not say to what: judge it with `gate check` "
            "on a git repository",
            f.touched,
        )
    return None


def versions(
    rule: Rule,
    changes: ChangeSet,
    *,
    promise: str,
    judge_gone: Collection[str] = (),
    python: bool = False,
) -> Versions | RuleResult:
    """The two versions of the file `rule` names, or the verdict when there
    is nothing to compare.  The one opening of every content rule:

    - untouched: passes;
    - gone (deleted, renamed away) and its change's status is not in
      `judge_gone`: fails, `"a.py" was deleted; <promise>`;
    - its text not given by the source: a gone file fails, `"a.py" was
      deleted and its text is not available; <promise>`, any other is
      `unavailable`;
    - else the versions, with no head text when the file is gone.

    With `python`, a file the change adds beside it that Python imports
    instead (`shadowed`: a package folder of the same name, an extension
    module) fails first, whether or not the file itself is touched.  Then
    a file that is not a regular file on either side (`type_change`: a
    symlink, a submodule, a folder) fails: its text is not what a checkout
    reads.
    """
    path = param_str(rule, "file")
    if python:
        found = shadowed(changes, path)
        if found is not None:
            shadow, where = found
            return result(
                rule,
                False,
                f"the change adds {quote(shadow)}, which Python imports instead of {quote(path)} "
                f"({where}); {promise}",
                paths=[shadow],
            )
    changed_type = type_change(changes, path)
    if changed_type is not None:
        why, touched = changed_type
        return result(
            rule,
            False,
            f"{quote(path)} {why}; the rule compares the texts of a regular file, so keep "
            f"{quote(path)} one on both sides",
            paths=touched,
        )
    state = file_state(changes, path)
    if state.change is None:
        return result(rule, True, f"{quote(path)} is untouched")
    change, gone = state.change, state.gone
    if gone is not None and change.status not in judge_gone:
        return result(rule, False, f"{quote(path)} was {gone}; {promise}", paths=change.touched)
    texts = changes.texts.get(path)
    if texts is None:
        if gone is None:
            return unavailable(rule, path, changes)
        message = f"{quote(path)} was {gone} and its text is not available; {promise}"
        return result(rule, False, message, paths=change.touched)
    return Versions(path, change, gone, texts.base, None if gone is not None else texts.head)


def both_statements(
    rule: Rule, found: Versions
) -> tuple[list[Statement], list[Statement]] | RuleResult:
    """The top-level statements of the base and the head version of a
    Python file, or the failing verdict that names the version that is not
    Python (`module_statements`)."""
    try:
        base = module_statements(found.path, "base", found.base)
        head = module_statements(found.path, "head", found.head)
    except NotPython as exc:
        return result(rule, False, exc.message, paths=[found.path], findings=exc.findings)
    return base, head
