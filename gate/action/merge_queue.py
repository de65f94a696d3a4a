"""The merge queue: what a `merge_group` event asks the gate to judge.

A merge queue waits for every required check on a temporary commit before it
fast-forwards the base branch, so a required gate must report there too.  The
event (action `checks_requested`) carries:

- `merge_group.head_sha`: the commit the queue tests; the check run goes here;
- `merge_group.base_sha`: that commit's parent (the base branch's tip, or the
  queue entry ahead of this one); the change judged is `base_sha...head_sha`,
  what this entry adds on top of everything that merges before it, and the
  rubric is read at `base_sha`, so a rubric tightened after the PR was
  approved still applies;
- `merge_group.head_ref`: `refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>`,
  naming the pull request the entry adds (N).  PR N supplies what only a PR
  has: its author, labels and head branch for `applies_to`, and the sticky
  comment's home.

An entry may hold more than PR N (GitHub can group several PRs into one
entry).  The gate then judges the entry's whole change as one change, and
`applies_to` may leave it out only when the entry's change has exactly the
shape of PR N's own change (`differs`): PR N's author and labels say nothing
about the other PRs in the group, so such an entry is judged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gate.base.errors import GateError
from gate.model.change import FileChange

if TYPE_CHECKING:
    from gate.git.repo import Repo

EVENT = "merge_group"
ACTION = "checks_requested"
QUEUE_PREFIX = "gh-readonly-queue/"
_QUEUE_REF = re.compile(
    r"\A(?:refs/heads/)?gh-readonly-queue/(?P<base>.+)/pr-(?P<number>[1-9][0-9]{0,9})-"
    r"(?P<sha>[0-9a-f]{40}(?:[0-9a-f]{24})?)\Z"
)
_SHA = re.compile(r"\A[0-9a-f]{40}(?:[0-9a-f]{24})?\Z")
_HEADS = "refs/heads/"


@dataclass(frozen=True)
class QueueEntry:
    """One `merge_group` entry: the PR it adds and the commits to judge."""

    number: int
    base_sha: str
    head_sha: str
    base_branch: str
    head_ref: str


def pr_number(head_ref: str) -> int | None:
    """N from `refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>`, else None."""
    found = _QUEUE_REF.match(head_ref)
    return int(found.group("number")) if found else None


def parse_event(event: Mapping[str, object], source: str | None) -> QueueEntry:
    """The queue entry in a `merge_group` payload; GateError naming what is wrong."""
    where = source or "the event payload"
    action = event.get("action")
    if action != ACTION:
        raise GateError(
            f"the merge_group event in {where} has action {action!r}; the gate judges "
            f'"{ACTION}" only (declare `merge_group: types: [{ACTION}]` in the workflow)'
        )
    group = event.get("merge_group")
    if not isinstance(group, dict):
        raise GateError(f"the merge_group event in {where} has no merge_group object")
    values: dict[str, str] = {}
    for key in ("head_sha", "base_sha", "head_ref", "base_ref"):
        value = group.get(key)
        if not isinstance(value, str) or not value:
            raise GateError(f"the merge_group event in {where} has no merge_group.{key} string")
        values[key] = value
    for key in ("head_sha", "base_sha"):
        if not _SHA.match(values[key]):
            raise GateError(
                f"merge_group.{key} in {where} is not a full commit SHA: {values[key]!r}"
            )
    number = pr_number(values["head_ref"])
    if number is None:
        raise GateError(
            f"merge_group.head_ref {values['head_ref']!r} in {where} does not name a pull "
            "request (GitHub's merge queue uses refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>); "
            "only GitHub's merge queue is supported"
        )
    base_ref = values["base_ref"]
    return QueueEntry(
        number=number,
        base_sha=values["base_sha"],
        head_sha=values["head_sha"],
        base_branch=base_ref[len(_HEADS) :] if base_ref.startswith(_HEADS) else base_ref,
        head_ref=values["head_ref"],
    )


def adds_nothing(repo: Repo, entry: QueueEntry, approved: str) -> str | None:
    """None when the queue entry adds nothing beyond the pull request's
    approved head: the entry's tree is exactly the clean merge of its base
    with `approved` (`git merge-tree --write-tree`); else why not, and then
    no approval waives a rule of the entry.

    GitHub's documentation says a queue entry is a temporary branch holding
    the base's latest changes, the changes of the PRs ahead of it and the
    PR's own; it does not promise a merge commit (the merge method may
    squash or rebase), nor that a group holds one PR.  So the tree is what
    is compared: the same tree is the same change, however it was built."""
    if repo.try_rev_parse(approved) is None:
        return f"the approved head {approved[:12]} is not in the checkout: no waiver applies"
    try:
        out = repo.run(
            ["merge-tree", "--write-tree", "--no-messages", entry.base_sha, approved], ok=(0, 1)
        )
    except GateError as exc:
        return f"merging the approved head failed ({exc.message}): no waiver applies"
    lines = out.decode("ascii", errors="replace").split("\n")
    merged = lines[0].strip()
    if any(line.strip() for line in lines[1:]):
        return "the approved head does not merge cleanly onto the queue's base: no waiver applies"
    tree = repo.try_rev_parse(entry.head_sha, peel="tree")
    if not merged or tree != merged:
        return (
            f"the queue entry {entry.head_sha[:12]} holds more than its base merged with the "
            f"approved head {approved[:12]} (another pull request grouped with it, or a "
            "different merge): no waiver applies to it"
        )
    return None


def _shape(files: Iterable[FileChange]) -> dict[str, tuple[int | None, int | None]]:
    """Each touched path with its line counts (None for a binary file's)."""
    out: dict[str, tuple[int | None, int | None]] = {}
    for f in files:
        counts = (None, None) if f.binary else (f.added, f.deleted)
        for path in f.touched:
            out[path] = counts
    return out


def differs(entry: Iterable[FileChange], pull: Iterable[FileChange]) -> str | None:
    """None when the queue entry's change has the shape of the PR's own change
    (the same touched paths with the same line counts); else the first
    difference, in words."""
    a, b = _shape(entry), _shape(pull)
    only_entry = sorted(set(a) - set(b))
    if only_entry:
        return f"the entry touches {len(only_entry)} path(s) the pull request does not"
    only_pull = sorted(set(b) - set(a))
    if only_pull:
        return f"the pull request touches {len(only_pull)} path(s) the entry does not"
    for path in sorted(a):
        if a[path] != b[path]:
            return "line counts differ on a touched path"
    return None
