"""Waivers: which failed rules a maintainer's approval clears, pure.

A rubric's `waivers:` (read from the base commit like every other key) say
which of its rules an approval may clear and whose approval counts
(`gate.rubric.Waiver`).  Here, without the network:

- `waivable`: of a report's failed rule ids, those some waiver lists, with
  who may waive each (every command shows it; offline nothing is waived);
- `decide`: given the pull request's reviews (as GitHub's review API lists
  them, oldest first), its author and the head commit being judged, which of
  those rules are waived, by whom, and notes on every approval that did not
  count and why.

An approval counts only when all of these hold:

- it is the reviewer's latest state: a later CHANGES_REQUESTED, DISMISSED or
  APPROVED review replaces it (COMMENTED and PENDING reviews change no state);
- its state is APPROVED (a dismissed approval's state is DISMISSED);
- it was submitted on the commit being judged (`commit_id` equals the head):
  a new push voids every approval;
- the reviewer is not the pull request's author (compared in any letter case)
  and not a bot (user type `Bot`, or a login ending in `[bot]`);
- the reviewer's login is one of the waiver's `logins` (any letter case), or
  their `author_association` one of its `associations`.

Built-in `gate.*` rules are never waivable, whatever a rubric says (the
loader refuses them too): a pull request can never approve its judge away.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gate.names import BUILTIN_PREFIX
from gate.paths import fold
from gate.rubric import Waiver

APPROVED = "APPROVED"
# The review states that set a reviewer's state; COMMENTED and PENDING do not.
STATEFUL = frozenset({"APPROVED", "CHANGES_REQUESTED", "DISMISSED"})
# A pull request that writes one of these is never waived: the workflow that
# re-judges on review events runs from the pull request's own merge ref.
WORKFLOW_DIR = ".github/workflows/"


@dataclass(frozen=True)
class Review:
    """One pull request review as the review API lists it (oldest first)."""

    login: str
    state: str
    commit_id: str | None
    association: str = ""
    user_type: str = ""  # "User", "Bot", ... ("" when the API said nothing)

    @property
    def is_bot(self) -> bool:
        return self.user_type == "Bot" or fold(self.login).endswith("[bot]")


@dataclass(frozen=True)
class Waivable:
    """A failed rule some waiver lists, and whose approval would clear it."""

    rule: str
    logins: tuple[str, ...]
    associations: tuple[str, ...]

    def who(self) -> str:
        """`alice, bob or a reviewer whose association is OWNER or MEMBER`."""
        parts = list(self.logins)
        if self.associations:
            parts.append("a reviewer whose association is " + " or ".join(self.associations))
        if len(parts) == 1:
            return parts[0]
        return ", ".join(parts[:-1]) + " or " + parts[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "logins": list(self.logins),
            "associations": list(self.associations),
        }


@dataclass(frozen=True)
class Waived:
    """A failed rule cleared by `reviewer`'s approval of `commit`."""

    rule: str
    reviewer: str
    association: str
    commit: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "reviewer": self.reviewer,
            "association": self.association,
            "commit": self.commit,
        }


@dataclass(frozen=True)
class Decision:
    """What the reviews waive, and why each other approval did not count."""

    waived: tuple[Waived, ...] = ()
    notes: tuple[str, ...] = ()


def is_builtin(rule_id: str) -> bool:
    return rule_id.lower().startswith(BUILTIN_PREFIX)


def waivable(waivers: Sequence[Waiver], failed: Iterable[str]) -> tuple[Waivable, ...]:
    """Of `failed` (in its order), the rules a waiver lists, with the union
    of the approvers of every waiver listing it; never a built-in."""
    out = []
    for rule in failed:
        if is_builtin(rule):
            continue
        listing = [w for w in waivers if rule in w.rules]
        if not listing:
            continue
        logins = _unique(login for w in listing for login in w.logins)
        associations = _unique(a for w in listing for a in w.associations)
        out.append(Waivable(rule, logins, associations))
    return tuple(out)


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for value in values:
        seen.setdefault(fold(value), value)
    return tuple(seen.values())


def not_waivable(failed: Iterable[str], rules: Iterable[Waivable]) -> tuple[tuple[str, str], ...]:
    """Of `failed`, each rule no approval can clear, with why."""
    listed = {w.rule for w in rules}
    out = []
    for rule in failed:
        if rule in listed:
            continue
        if is_builtin(rule):
            out.append((rule, "a built-in rule, never waived"))
        else:
            out.append((rule, "no waiver in the rubric lists it"))
    return tuple(out)


def blocked(touched: Iterable[str]) -> str | None:
    """Why no waiver may apply to a change touching `touched` (None: they may)."""
    for path in touched:
        if path.startswith(WORKFLOW_DIR):
            return (
                f"the change writes {WORKFLOW_DIR} (the review workflow that re-judges "
                "when an approval is dismissed runs from the pull request), so no "
                "approval waives a rule"
            )
    return None


def latest_states(reviews: Sequence[Review]) -> dict[str, Review]:
    """Each reviewer's (folded login's) latest state-setting review."""
    latest: dict[str, Review] = {}
    for review in reviews:
        if review.login and review.state in STATEFUL:
            latest[fold(review.login)] = review
    return latest


def decide(
    rules: Sequence[Waivable], reviews: Sequence[Review], *, author: str, head: str
) -> Decision:
    """Which of `rules` the `reviews` (oldest first) waive on commit `head`
    of a pull request by `author`; notes say why an approval did not count."""
    if not rules:
        return Decision()
    notes: list[str] = []
    counted: list[Review] = []
    for review in latest_states(reviews).values():
        if review.state != APPROVED:
            continue
        why = _ignored(review, author=author, head=head)
        if why is None:
            counted.append(review)
        else:
            notes.append(f"{review.login}'s approval does not waive: {why}")
    waived = []
    for rule in rules:
        logins = {fold(x) for x in rule.logins}
        for review in counted:
            if fold(review.login) in logins or review.association in rule.associations:
                waived.append(Waived(rule.rule, review.login, review.association, head))
                break
    return Decision(tuple(waived), tuple(notes))


def _ignored(review: Review, *, author: str, head: str) -> str | None:
    """Why an approval (the reviewer's latest state) does not count; None if it does."""
    if review.is_bot:
        return "a bot's approval never counts"
    if not author or fold(review.login) == fold(author):
        return "the pull request's author cannot approve their own change"
    if review.commit_id != head:
        shown = (review.commit_id or "an unknown commit")[:12]
        return (
            f"it approves commit {shown}, not the head {head[:12]} being judged "
            "(a new push voids an approval)"
        )
    return None
