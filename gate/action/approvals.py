"""Which approvals clear the failed rules: `waive` reads the pull request's
reviews (only when a failed rule is waivable) and applies
`gate.model.waivers.decide`, with `ApiFacts` reading what it asks about people
(a reviewer's access now, the head commit's writers, the base changes);
under merge_group, `approved_head` names the head whose approvals may waive
the queue entry's rules, or why none may.  Anything that cannot be read is
"could not judge" (exit 2): an unread review or permission is neither a
waiver nor a failure.
"""

from __future__ import annotations

from datetime import datetime

from gate.action import merge_queue
from gate.action.event import Target
from gate.base.errors import GateError
from gate.base.workflow import Log
from gate.git.repo import Repo
from gate.github.client_types import ApiError, Reader
from gate.model import waivers
from gate.model.change import ChangeSet
from gate.model.report import Report


class ApiFacts:
    """`gate.model.waivers.Facts` read from the API for pull request `number` at
    commit `head`; a failed read is a `GateError` naming what and why."""

    def __init__(self, client: Reader, number: int, head: str, rules: str) -> None:
        self.client = client
        self.number = number
        self.head = head
        self.rules = rules  # the waivable rules, for the error sentences

    def unreadable(self, what: str, exc: ApiError) -> GateError:
        return GateError(
            f"{what} could not be read ({exc.message}), so whether an approval waives "
            f"{self.rules} is unknown: re-run the job once the API answers"
        )

    def access(self, review: waivers.Review) -> waivers.Access:
        try:
            return self.client.permission(review.login)
        except ApiError as exc:
            raise self.unreadable(f"{review.who}'s permission on the repository", exc) from exc

    def head_writers(self) -> frozenset[int]:
        try:
            return self.client.head_writers(self.head)
        except ApiError as exc:
            raise self.unreadable(f"the author of head commit {self.head[:12]}", exc) from exc

    def base_changed_at(self) -> datetime | None:
        try:
            changes = self.client.base_changes(self.number)
        except ApiError as exc:
            raise self.unreadable(f"pull request #{self.number}'s base changes", exc) from exc
        return max(changes, default=None)


def waive(
    client: Reader,
    log: Log,
    target: Target,
    repo: Repo | None,
    changes: ChangeSet,
    report: Report,
) -> Report:
    """`report` with the failed rules that an approval waives cleared
    (`gate.model.waivers.decide`), and notes on what did not count.  The reviews
    are read only when a failed rule is waivable; when they (or the facts
    about a reviewer) cannot be read the verdict cannot be known, and the run
    could not judge (exit 2)."""
    left = tuple(w for w in report.waivable if w.rule in report.failed)
    if not left:
        return report
    blocked = waivers.blocked(path for f in changes.files for path in f.touched)
    if blocked is not None:
        return report.waive((), (blocked,))
    pull = target.pull
    head, why = pull.head_sha, None
    if target.queue is not None:
        head, why = approved_head(client, log, target.queue, repo)
        if why is not None:
            return report.waive((), (why,))
    named = ", ".join(w.rule for w in left)
    facts = ApiFacts(client, pull.number, head, named)
    try:
        reviews = client.reviews(pull.number)
    except ApiError as exc:
        raise facts.unreadable(f"pull request #{pull.number}'s reviews", exc) from exc
    try:
        decision = waivers.decide(left, reviews, author=pull.author, head=head, facts=facts)
    except ValueError as exc:
        raise GateError(
            f"pull request #{pull.number}'s reviews could not be read as a history ({exc}), "
            f"so whether an approval waives {named} is unknown: re-run the job"
        ) from exc
    if decision.waived:
        log.untrusted(
            "\n".join(
                f"rule {w.rule} waived by {w.reviewer} (user {w.user_id}, {w.access} access)'s "
                f"approval of {w.commit}"
                for w in decision.waived
            )
        )
    return report.waive(decision.waived, decision.notes)


def approved_head(
    client: Reader, log: Log, entry: merge_queue.QueueEntry, repo: Repo | None
) -> tuple[str, str | None]:
    """Under merge_group: the pull request's head whose approvals may waive
    the queue entry's rules, or why none may (`merge_queue.adds_nothing`)."""
    try:
        head = client.get_pull(entry.number).head_sha
    except ApiError as exc:
        raise GateError(
            f"pull request #{entry.number} could not be read ({exc.message}), so whether its "
            "approvals waive the queue entry's failed rules is unknown: re-run the job once "
            "the API answers"
        ) from exc
    if repo is None:
        return head, "the queue entry is not in git: no waiver applies to it"
    if repo.try_rev_parse(head) is None:
        try:
            repo.run(["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "origin", head])
        except GateError as exc:
            log.line(f"fetching the approved head failed ({exc.message})")
    return head, merge_queue.adds_nothing(repo, entry, head)
