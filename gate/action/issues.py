"""The task's scope from the issues a pull request closes (`issue_scope`).

When the rubric says `scope: tighten` or `scope: loosen`, the Action reads
the issues the pull request closes (GitHub's closing references: the
keywords of its body and the issues linked by hand) and the scope block of
each (`gate.rubric.task_scope`).  A block counts only when a maintainer
wrote it, with the same care as a waiver's approval:

* the issue is in the judged repository;
* its author's account exists and is not the pull request's author, nor
  the account GitHub links to the head commit's author or committer;
* nobody but its author ever edited the body (GraphQL `userContentEdits`,
  every edit, by account id: a login is not an identity);
* its author has write access to the repository now, answered for the same
  account id (a login renamed and taken by someone else does not count).

A block that does not count is named in the report's notes with why; a
block that counts but is malformed, or issues that cannot be read, mean the
run cannot judge (exit 2), naming the issue.  Blocks that count are joined
(`gate.rubric.task_scope.combine`) and `gate.judge.judge` applies the result.

A merge queue entry is judged with PR N's scope only when the entry is PR
N's change alone (`gate.action.change.queue_entry_differs`, as `applies_to`
decides): a group's other pull requests are not PR N's task.
"""

from __future__ import annotations

from gate.action.change import queue_entry_differs
from gate.action.event import Target
from gate.base.errors import GateError
from gate.base.names import SCOPE_NONE
from gate.base.workflow import Log
from gate.github.client_types import ApiError, ClosingIssue, Person, Reader
from gate.model.change import ChangeSet
from gate.model.rubric import Rubric, Scope
from gate.model.waivers import login_key
from gate.rubric.task_scope import INFO_STRING, combine, find_block, parse_block

WRITE = "write"


class _Writers:
    """The writers of the pull request's head commit (under merge_group,
    the PR's own head, not the queue's commit), read once and only when a
    block may count."""

    def __init__(self, client: Reader, target: Target) -> None:
        self.client, self.target = client, target
        self._ids: frozenset[int] | None = None

    def ids(self) -> frozenset[int]:
        if self._ids is None:
            sha = self.target.pull.head_sha
            if self.target.queue is not None:
                sha = self.client.get_pull(self.target.pull.number).head_sha
            self._ids = self.client.head_writers(sha)
        return self._ids


def _why_not(
    issue: ClosingIssue, pull_author: Person | None, client: Reader, writers: _Writers
) -> str | None:
    """Why the block of `issue` does not count, or None when it does."""
    author = issue.author
    if author is None or author.user_id is None:
        return "its author's account is gone"
    if pull_author is None or pull_author.user_id is None:
        return "the pull request's author is unknown"
    if author.user_id == pull_author.user_id:
        return f"it was written by the pull request's author, {author.login}"
    for editor in issue.editors:
        if editor is None or editor.user_id != author.user_id:
            who = "an account that is gone" if editor is None else editor.login
            return f"its body was edited by {who}, not by its author {author.login}"
    if author.user_id in writers.ids():
        return f"its author {author.login} wrote the head commit"
    access = client.permission(author.login)
    if access.user_id != author.user_id:
        return f"the login {author.login} now names another account"
    if not access.at_least(WRITE):
        return f"its author {author.login} has {access.level} access, not write"
    return None


def _here(issue: ClosingIssue, repository: str) -> bool:
    """The issue is in the judged repository (names compared as GitHub does)."""
    return login_key(issue.repository) == login_key(repository)


def _label(issue: ClosingIssue, repository: str) -> str:
    if _here(issue, repository):
        return f"issue #{issue.number}"
    return f"issue {issue.repository}#{issue.number}"


def issue_scope(
    client: Reader,
    log: Log,
    target: Target,
    rubric: Rubric,
    repository: str,
    changes: ChangeSet,
) -> tuple[Scope | None, tuple[str, ...]]:
    """The scope the issues `target`'s pull request closes give it (None:
    none counts, or the rubric says `scope: none`), and notes on each block
    that did not count.  `repository` is the judged `owner/name`; `changes`
    the change judged (a queue entry's, compared with the PR's own)."""
    if rubric.scope == SCOPE_NONE:
        return None, ()
    number = target.pull.number
    try:
        closing = client.closing_issues(number)
    except ApiError as exc:
        raise GateError(
            f"the issues pull request #{number} closes could not be read ({exc.message}), and "
            f"the rubric says scope: {rubric.scope}: give the workflow `issues: read` and "
            "`pull-requests: read`, or re-run the job once the API answers"
        ) from None
    writers = _Writers(client, target)
    scopes: list[Scope] = []
    notes: list[str] = []
    blocks = [issue for issue in closing.issues if INFO_STRING in issue.body.lower()]
    if blocks and target.queue is not None:
        other = queue_entry_differs(client, number, changes)
        if other is not None:
            named = " and ".join(_label(issue, repository) for issue in blocks)
            return None, (
                f"the scope blocks of {named} are not read: this queue entry is not pull "
                f"request #{number}'s change alone ({other})",
            )
    for issue in blocks:
        label = _label(issue, repository)
        if not _here(issue, repository):
            notes.append(f"the scope block of {label} does not count: it is in another repository")
            continue
        try:
            why = _why_not(issue, closing.pull_author, client, writers)
        except ApiError as exc:
            raise GateError(
                f"who wrote the scope block of {label} could not be read ({exc.message}); "
                "re-run the job once the API answers"
            ) from None
        if why is not None:
            notes.append(f"the scope block of {label} does not count: {why}")
            continue
        found = find_block(issue.body, label)
        if found is None:  # the words without a fence: no block
            continue
        line, block = found
        scopes.append(parse_block(block, label, line))
    scope = combine(scopes)
    if scope is not None:
        log.line(f"scope from {' and '.join(scope.sources)} (rubric: scope: {rubric.scope})")
    return scope, tuple(notes)
