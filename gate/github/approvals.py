"""Which approvals clear the failed rules: `waive` reads the pull request's
reviews (only when a failed rule is waivable) and applies
`gate.waivers.decide`; under merge_group, `approved_head` names the head
whose approvals may waive the queue entry's rules, or why none may.
"""

from __future__ import annotations

from gate import waivers
from gate.changes import ChangeSet
from gate.errors import GateError
from gate.git.repo import Repo
from gate.github import merge_queue
from gate.github.client_types import ApiError, Reader
from gate.github.event import Target
from gate.github.workflow import Log
from gate.report import Report


def waive(
    client: Reader,
    log: Log,
    target: Target,
    repo: Repo | None,
    changes: ChangeSet,
    report: Report,
) -> Report:
    """`report` with the failed rules that an approval waives cleared
    (`gate.waivers.decide`), and notes on what did not count.  The reviews
    are read only when a failed rule is waivable; when they cannot be read
    the verdict cannot be known, and the run could not judge (exit 2): an
    unread review is neither a waiver nor a failure."""
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
    try:
        reviews = client.reviews(pull.number)
    except ApiError as exc:
        raise GateError(
            f"pull request #{pull.number}'s reviews could not be read ({exc.message}), so "
            f"whether an approval waives {', '.join(w.rule for w in left)} is unknown: re-run "
            "the job once the API answers"
        ) from exc
    decision = waivers.decide(left, reviews, author=pull.author, head=head)
    for item in decision.waived:
        log.line(f"rule {item.rule} waived by {item.reviewer}'s approval of {item.commit}")
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
