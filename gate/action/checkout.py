"""Where the Action reads the change: the workspace's git repository when it
holds the base and head commits and their merge base (fetched from origin
when missing), else the GitHub API (`Checkout`, `open_checkout`); and why a
merge_group run cannot fall back to the API (`queue_needs_git`).

git is only asked for objects and to fetch the two commits: the pull
request's code is never checked out or executed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from gate.base.errors import GateError
from gate.base.workflow import Log
from gate.git.repo import Repo, short
from gate.github.client_types import PullInfo


@dataclass(frozen=True)
class Checkout:
    """Where the change is read: `repo`, the workspace holding both commits
    and their merge base, or None (the API); `notes` say why not git."""

    repo: Repo | None
    notes: tuple[str, ...] = ()


def open_checkout(workspace: str | None, log: Log, base: str, head: str) -> Checkout:
    """The workspace's git repository when it holds `base` and `head`
    (fetched from origin when missing), else the API."""
    if not workspace or not os.path.isdir(workspace):
        return Checkout(None, ("no workspace checkout: the change was read from the GitHub API",))
    repo = _workspace_repo(workspace)
    try:
        repo.check_repository()
    except GateError:
        return Checkout(
            None, ("the workspace is not a git repository: the change was read from the API",)
        )
    if _holds(repo, base, head):
        return Checkout(repo)
    if not _has_origin(repo):
        return Checkout(
            None,
            (
                "the base or head commit is missing from the checkout and there is no origin "
                "remote: the change was read from the API",
            ),
        )
    fetch = ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules"]
    if repo.is_shallow():
        fetch.append("--unshallow")
    try:
        repo.run([*fetch, "origin", base, head])
    except GateError as exc:
        log.line(f"fetching the PR's commits failed ({exc.message}); using the API")
    repo = _workspace_repo(workspace)  # fresh shallow state
    if _holds(repo, base, head):
        log.line("fetched the base and head commits from origin")
        return Checkout(repo)
    return Checkout(
        None,
        (
            "the base or head commit (or their merge base) is not in the checkout and could "
            "not be fetched: the change was read from the API (actions/checkout fetch-depth: 0 "
            "avoids this)",
        ),
    )


def _workspace_repo(workspace: str) -> Repo:
    return Repo(workspace, config=(f"safe.directory={workspace}",))


def _holds(repo: Repo, base: str, head: str) -> bool:
    """Whether `repo` has both commits and a merge base of them."""
    if repo.try_rev_parse(base) is None or repo.try_rev_parse(head) is None:
        return False
    try:
        repo.merge_base(base, head)
    except GateError:
        return False
    return True


def _has_origin(repo: Repo) -> bool:
    try:
        repo.run(["remote", "get-url", "origin"])
    except GateError:
        return False
    return True


def queue_needs_git(pull: PullInfo) -> str:
    """Why a merge_group run without the commits in git cannot judge."""
    return (
        "a merge_group run reads the queue entry from git: check the repository out with "
        "actions/checkout (fetch-depth: 0) before the gate, so the workspace holds "
        f"merge_group.base_sha {short(pull.base_sha)} and head_sha {short(pull.head_sha)}"
    )
