"""The change the Action judges: `in_scope` (the `Change`, or the `Skip` the
rubric's `applies_to` asks for), read from git or from the compare API
(`read_change`, with built-in `gate.diff-incomplete`), the captured test
output (`read_stdout`), the checks the API's one merge base needs
(`other_merge_base`), whether a merge queue entry is its pull request's
change alone (`queue_entry_differs`), and whether the head moved while the
gate judged (`moved`).
"""

from __future__ import annotations

import os
from typing import NamedTuple

from gate.action import merge_queue
from gate.action.event import Target
from gate.action.scope import applies
from gate.base.errors import GateError
from gate.base.escape import printable
from gate.base.files import read_captured
from gate.base.workflow import Log
from gate.changes import api as api_changes
from gate.changes.git import changes_from_git
from gate.git.repo import Repo, short
from gate.github.client_types import ApiError, Comparison, PullInfo, Reader
from gate.github.settings import Settings
from gate.model.change import ChangeSet
from gate.model.report import RuleResult
from gate.model.rubric import Rubric
from gate.rules import text_wants
from gate.rules.builtin import diff_incomplete


def read_stdout(settings: Settings) -> str | None:
    name = settings.stdout_file
    if name is None:
        return None
    path = name if os.path.isabs(name) else os.path.join(settings.workspace or ".", name)
    return read_captured(
        path,
        "stdout-file",
        name=printable(name),
        fix="write the captured test output there (in the workspace) in an earlier step",
    )


class Change(NamedTuple):
    """The change to judge, built-in `gate.diff-incomplete` on how completely
    it was read, and what the report should say about it."""

    changes: ChangeSet
    complete: RuleResult
    notes: tuple[str, ...] = ()


class Skip(NamedTuple):
    """The rubric's `applies_to` leaves the target out: why."""

    reason: str


def in_scope(
    settings: Settings, client: Reader, target: Target, repo: Repo | None, rubric: Rubric
) -> Change | Skip:
    """The change when the rubric judges the target, else why not."""
    pull = target.pull
    reason = applies(rubric, pull)
    if reason is None:
        return read_change(client, repo, rubric, pull, read_stdout(settings))
    if target.queue is None:
        return Skip(reason)
    # PR N's author and labels speak for the entry only if it is PR N alone.
    change = read_change(client, repo, rubric, pull, read_stdout(settings))
    other = queue_entry_differs(client, pull.number, change.changes)
    if other is None:
        return Skip(reason)
    note = (
        f"applies_to leaves pull request #{pull.number} out, but this queue entry is "
        f"not that pull request's change alone ({other}), so the entry is judged"
    )
    return change._replace(notes=(note,))


def read_change(
    client: Reader, repo: Repo | None, rubric: Rubric, pull: PullInfo, stdout: str | None
) -> Change:
    """The change `base...head` from git when `repo` holds it, else from the API."""
    if repo is not None:
        changes = changes_from_git(
            repo, pull.base_sha, pull.head_sha, text_wants(rubric.rules), stdout=stdout
        )
        return Change(changes, diff_incomplete(None))
    try:
        # The event's own two commits: the compare API's base...head, never
        # the PR files listing (the PR as it is now, maybe another head).
        comparison = client.compare(pull.base_sha, pull.head_sha)
        expected = pull.changed_files
        if expected is None:
            latest = client.get_pull(pull.number)
            same = (latest.base_sha, latest.head_sha) == (pull.base_sha, pull.head_sha)
            expected = latest.changed_files if same else None
        other = api_changes.other_history(comparison) or other_merge_base(client, comparison)
        if other is not None:
            raise GateError(
                f"{other}: the API names one merge base and cannot show what merging the "
                "change would do; check out both commits (actions/checkout with "
                "fetch-depth: 0) so the gate judges the merge from git"
            )
        found = api_changes.listing(comparison.files, expected)
        content_files = text_wants(rubric.rules)
        # Base-side texts come from the merge base, as in git mode.
        fork = comparison.merge_base
        changes = api_changes.changes_from_api(
            found,
            base=pull.base_sha,
            head=pull.head_sha,
            content_files=content_files,
            read_file=client.get_file,
            stdout=stdout,
            merge_base=fork,
            list_folder=client.list_folder,
        )
    except ApiError as exc:
        raise GateError(
            f"cannot read the pull request's files from the API ({exc.message}); "
            "check the token's pull-requests: read and contents: read permissions"
        ) from None
    return Change(changes, diff_incomplete(found))


def other_merge_base(client: Reader, comparison: Comparison) -> str | None:
    """Why base and head may have merge bases besides the one the compare API
    names (None: it is the only one).  Each commit outside the change that a
    commit of the change has as a parent must be an ancestor of that merge
    base (one compare request each, up to `api_changes.FORK_CHECKS`)."""
    fork = comparison.merge_base
    outside = api_changes.forks(comparison)
    if len(outside) > api_changes.FORK_CHECKS:
        return (
            f"the change's commits have {len(outside)} parents outside it besides the merge "
            f"base, over the {api_changes.FORK_CHECKS} the gate checks through the API"
        )
    for parent in outside:
        if client.compare(parent, fork).behind_by != 0:
            return (
                f"commit {short(parent)}, a parent of the change's commits, is not an "
                f"ancestor of the merge base {short(fork)}, so base and head have several "
                "merge bases"
            )
    return None


def queue_entry_differs(client: Reader, number: int, changes: ChangeSet) -> str | None:
    """Under merge_group: why the entry is not PR `number`'s change alone (None: it is)."""
    try:
        own = api_changes.listing(client.iter_files(number), client.get_pull(number).changed_files)
    except ApiError as exc:
        return f"the pull request's own files could not be listed ({exc.message})"
    if not diff_incomplete(own).passed:
        return "the pull request's own files listing is incomplete"
    return merge_queue.differs(changes.files, own.files)


def moved(client: Reader, log: Log, pull: PullInfo) -> str | None:
    """Re-read the PR: why the verdict on `pull` is no longer the verdict on
    the PR as it is now (its head moved, or it targets another branch), or
    None.  A PR that cannot be re-read is taken as unmoved, with a warning:
    the verdict is still the verdict on the commit it names."""
    try:
        latest = client.get_pull(pull.number)
    except ApiError as exc:
        log.warning(f"could not re-read the pull request to see if its head moved: {exc}")
        return None
    if latest.head_sha != pull.head_sha:
        return (
            f"the pull request's head moved to {latest.head_sha} while the gate judged "
            f"{pull.head_sha}; this verdict is for {pull.head_sha}, and the new head gets its "
            "own run"
        )
    if pull.base_ref and latest.base_ref and latest.base_ref != pull.base_ref:
        return (
            f"the pull request's base changed to {latest.base_ref or latest.base_sha} while the "
            f"gate judged it against {pull.base_ref or pull.base_sha}; the edit starts a new run"
        )
    return None
