"""Waivers: which failed rules a maintainer's approval clears, pure.

A rubric's `waivers:` (read from the base commit like every other key) say
which of its rules an approval may clear and whose approval counts
(`gate.model.rubric.Waiver`).  Here, without the network:

- `waivable`: of a report's failed rule ids, those some waiver lists, with
  the waivers that list each (every command shows who may waive; offline
  nothing is waived);
- `ordered`: the review listing as a history, strictly: each review once
  (by id), in the order GitHub says they were submitted;
- `decide`: given that history, the pull request's author, the head commit
  being judged and the facts it must read about people (`Facts`: a
  reviewer's access now, who wrote the head commit, when the base last
  changed), which rules are waived, by whom, and why every other approval
  did not count.

An approval waives a rule only when all of these hold:

- it is the reviewer's latest state: a later CHANGES_REQUESTED, DISMISSED or
  APPROVED review replaces it, and so does a review whose state the gate
  does not know (COMMENTED and PENDING reviews change no state);
- its state is APPROVED and it was submitted on the commit being judged
  (`commit_id` equals the head): a new push voids every approval;
- it was submitted after the pull request's base branch last changed (the
  diff and the rubric are the new base's);
- the reviewer is a person (not a bot: user type `Bot`, or a login ending
  in `[bot]`), not the pull request's author, and neither the author nor
  the committer GitHub links to the head commit (whoever wrote the last
  change does not approve it, as GitHub's "approval of the most recent
  reviewable push");
- a waiver listing the rule names the reviewer (a listed login, compared as
  GitHub compares logins, ASCII letters in any case and nothing else; a
  listed numeric user id; or a listed `author_association`; a waiver that
  lists none of these names anyone), and the reviewer holds at least that
  waiver's `permission` (default write) on the repository now, as the
  permission API answers for the same account (the same numeric id);
- no reviewer whom a waiver listing the rule names, with that access, has
  CHANGES_REQUESTED as their latest state (on any commit).

Built-in `gate.*` rules are never waivable, whatever a rubric says (the
loader refuses them too): a pull request can never approve its judge away.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any, Protocol

from gate.base.names import BUILTIN_PREFIX
from gate.model.rubric import Waiver

APPROVED = "APPROVED"
CHANGES_REQUESTED = "CHANGES_REQUESTED"
# The review states GitHub documents.  COMMENTED and PENDING leave a
# reviewer's state as it was; any other state, a state the gate does not
# know included, replaces it.
KNOWN_STATES = frozenset({APPROVED, CHANGES_REQUESTED, "COMMENTED", "DISMISSED", "PENDING"})
STATELESS = frozenset({"COMMENTED", "PENDING"})
# A person's access to a repository, least first (`Access.level`).
LEVELS = ("none", "read", "triage", "write", "maintain", "admin")
# A pull request that writes one of these is never waived: the workflow that
# re-judges on review events runs from the pull request's own merge ref.
WORKFLOW_DIR = ".github/workflows/"

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def login_key(login: str) -> str:
    """A GitHub login as GitHub compares logins: ASCII letters in any case,
    every other character as it is (never a Unicode fold, which would let a
    dotless `ı` or a zero-width character match a listed login)."""
    return login.translate(_ASCII_LOWER)


@dataclass(frozen=True)
class Review:
    """One pull request review as the review API lists it."""

    id: int
    login: str  # "" when the account is gone (GitHub lists a null user)
    user_id: int | None  # None only when the account is gone
    state: str
    commit_id: str | None
    submitted_at: datetime | None  # None only for a PENDING review
    association: str = ""
    user_type: str = ""  # "User", "Bot", ... ("" when the API said nothing)

    @property
    def is_bot(self) -> bool:
        return self.user_type == "Bot" or login_key(self.login).endswith("[bot]")

    @property
    def who(self) -> str:
        """`alice (user 583231)`: the login, and the account it names."""
        if self.user_id is None:
            return "a deleted account"
        return f"{self.login} (user {self.user_id})"


@dataclass(frozen=True)
class Access:
    """A person's access to the repository now, as the permission API
    answered for `login`: the account it answered for (`user_id`, None when
    no such account exists) and its level (one of `LEVELS`)."""

    user_id: int | None
    level: str

    def at_least(self, wanted: str) -> bool:
        return LEVELS.index(self.level) >= LEVELS.index(wanted)


class Facts(Protocol):
    """What `decide` reads about people, asked only when an approval could
    count.  Each may raise `gate.base.errors.GateError` when the facts cannot be
    read: then nothing is decided (the run could not judge)."""

    def access(self, review: Review) -> Access:
        """The reviewer's access to the repository now."""
        ...

    def head_writers(self) -> frozenset[int]:
        """The user ids GitHub links to the head commit's author and committer."""
        ...

    def base_changed_at(self) -> datetime | None:
        """When the pull request's base branch last changed (None: never)."""
        ...


@dataclass(frozen=True)
class Waivable:
    """A failed rule some waiver lists, and the waivers that list it."""

    rule: str
    by: tuple[Waiver, ...]

    def who(self) -> str:
        """`alice or a reviewer whose association is MEMBER, with write access`."""
        return " or ".join(_who(waiver) for waiver in self.by)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "logins": list(_unique(login for w in self.by for login in w.logins)),
            "associations": list(_unique(a for w in self.by for a in w.associations)),
            "approvers": [
                {
                    "logins": list(w.logins),
                    "ids": list(w.ids),
                    "associations": list(w.associations),
                    "permission": w.permission,
                }
                for w in self.by
            ],
        }


def _who(waiver: Waiver) -> str:
    """Whom one waiver names, in words."""
    names = [*waiver.logins, *(f"user {i}" for i in waiver.ids)]
    if waiver.associations:
        names.append("a reviewer whose association is " + " or ".join(waiver.associations))
    if not names:
        named = "anyone"
    elif len(names) == 1:
        named = names[0]
    else:
        named = ", ".join(names[:-1]) + " or " + names[-1]
    return f"{named} with {waiver.permission} access"


@dataclass(frozen=True)
class Waived:
    """A failed rule cleared by `reviewer`'s approval of `commit`."""

    rule: str
    reviewer: str
    association: str
    commit: str
    user_id: int | None = None
    access: str = ""  # the reviewer's access level when judged

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "reviewer": self.reviewer,
            "user_id": self.user_id,
            "access": self.access,
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
    """Of `failed` (in its order), the rules a waiver lists, each with every
    waiver that lists it; never a built-in."""
    out = []
    for rule in failed:
        if is_builtin(rule):
            continue
        listing = tuple(w for w in waivers if rule in w.rules)
        if listing:
            out.append(Waivable(rule, listing))
    return tuple(out)


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for value in values:
        seen.setdefault(login_key(value), value)
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


def ordered(reviews: Iterable[Review]) -> tuple[Review, ...]:
    """The submitted reviews as a history: each review once, oldest first by
    submission time, then id.  The listing's own order decides nothing (a
    review listed twice by a shifting page is one review).  ValueError when
    the listing contradicts itself (one id with two different contents) or
    a submitted review has no submission time."""
    by_id: dict[int, Review] = {}
    for review in reviews:
        seen = by_id.get(review.id)
        if seen is not None and seen != review:
            raise ValueError(f"review {review.id} is listed twice with different contents")
        if review.state != "PENDING" and review.submitted_at is None:
            raise ValueError(f"review {review.id} ({review.state}) has no submission time")
        by_id[review.id] = review
    submitted = [r for r in by_id.values() if r.submitted_at is not None]
    return tuple(sorted(submitted, key=lambda r: (r.submitted_at, r.id)))


def latest_states(reviews: Iterable[Review]) -> dict[int, Review]:
    """Each reviewer's (account's) latest state-setting review, from `ordered`
    reviews; a deleted account's reviews set no one's state."""
    latest: dict[int, Review] = {}
    for review in reviews:
        if review.user_id is not None and review.state not in STATELESS:
            latest[review.user_id] = review
    return latest


def decide(
    rules: Sequence[Waivable],
    reviews: Sequence[Review],
    *,
    author: str,
    head: str,
    facts: Facts,
) -> Decision:
    """Which of `rules` the `reviews` waive on commit `head` of a pull
    request by `author`; notes say why each other approval did not count.
    ValueError when the listing cannot be read as a history (`ordered`)."""
    if not rules:
        return Decision()
    latest = latest_states(ordered(reviews))
    judge = _Judge(facts, author=author, head=head)
    notes: list[str] = []
    counted: list[Review] = []
    for review in latest.values():
        if review.state == APPROVED:
            why = judge.ignored(review, rules)
            if why is None:
                counted.append(review)
            else:
                notes.append(f"{review.who}'s approval does not waive: {why}")
        elif review.state not in KNOWN_STATES:
            notes.append(
                f"{review.who}'s latest review has a state the gate does not know "
                f"({review.state!r}); it stands in place of any earlier approval"
            )
    waived = []
    for rule in rules:
        for review in counted:
            waiver = judge.qualifying(review, rule)
            if waiver is None:
                continue
            blocker = judge.blocker(latest.values(), rule)
            if blocker is not None:
                notes.append(
                    f"{rule.rule} is not waived: {blocker.who}, whom its waiver names, "
                    "requests changes (until they approve or their review is dismissed)"
                )
                break
            access = judge.access(review)
            waived.append(
                Waived(
                    rule.rule,
                    review.login,
                    review.association,
                    head,
                    user_id=review.user_id,
                    access=access.level,
                )
            )
            break
    return Decision(tuple(waived), tuple(dict.fromkeys(notes)))


class _Judge:
    """The checks of one decision, reading `Facts` at most once each."""

    def __init__(self, facts: Facts, *, author: str, head: str) -> None:
        self.facts = facts
        self.author = author
        self.head = head
        self._access: dict[int, Access] = {}

    def access(self, review: Review) -> Access:
        assert review.user_id is not None
        found = self._access.get(review.user_id)
        if found is None:
            found = self._access[review.user_id] = self.facts.access(review)
        return found

    @cached_property
    def writers(self) -> frozenset[int]:
        return self.facts.head_writers()

    @cached_property
    def base_changed_at(self) -> datetime | None:
        return self.facts.base_changed_at()

    def ignored(self, review: Review, rules: Sequence[Waivable]) -> str | None:
        """Why an approval (the reviewer's latest state) waives nothing; None
        if it may waive some of `rules`.  Cheap checks first, facts last."""
        if review.is_bot:
            return "a bot's approval never counts"
        if not self.author or login_key(review.login) == login_key(self.author):
            return "the pull request's author cannot approve their own change"
        if review.commit_id != self.head:
            shown = (review.commit_id or "an unknown commit")[:12]
            return (
                f"it approves commit {shown}, not the head {self.head[:12]} being judged "
                "(a new push voids an approval)"
            )
        if not any(_names(w, review) for rule in rules for w in rule.by):
            return "no waiver of a failed rule names them"
        changed = self.base_changed_at
        if (
            changed is not None
            and review.submitted_at is not None
            and review.submitted_at <= changed
        ):
            return (
                "it was given before the pull request's base branch last changed "
                f"({changed.isoformat()}): approve again against the new base"
            )
        assert review.user_id is not None
        if review.user_id in self.writers:
            return (
                "they wrote or committed the head commit, and whoever wrote the last "
                "change does not approve it; another approver must"
            )
        if not any(self.qualifying(review, rule) for rule in rules):
            return self._why_no_access(review, rules)
        return None

    def _why_no_access(self, review: Review, rules: Sequence[Waivable]) -> str:
        access = self.access(review)
        if access.user_id is None:
            return f"GitHub knows no account named {review.login} now, so it has no access"
        if access.user_id != review.user_id:
            return (
                f"the login {review.login} now names another account, so its access "
                "is not the reviewer's"
            )
        wanted = min(
            (w.permission for rule in rules for w in rule.by if _names(w, review)),
            key=LEVELS.index,
        )
        return (
            f"they have {access.level} access to the repository now, and the waiver "
            f"asks for {wanted}"
        )

    def qualifying(self, review: Review, rule: Waivable) -> Waiver | None:
        """The first waiver of `rule` that names `review`'s reviewer, who holds
        its permission now (the same account); None when none does."""
        for waiver in rule.by:
            if not _names(waiver, review):
                continue
            access = self.access(review)
            if access.user_id == review.user_id and access.at_least(waiver.permission):
                return waiver
        return None

    def blocker(self, latest: Iterable[Review], rule: Waivable) -> Review | None:
        """A person whom a waiver of `rule` names, with its access, whose
        latest state requests changes."""
        for review in latest:
            if review.state != CHANGES_REQUESTED or review.is_bot:
                continue
            if self.qualifying(review, rule) is not None:
                return review
        return None


def _names(waiver: Waiver, review: Review) -> bool:
    """Whether `waiver` names `review`'s reviewer: a listed login (as GitHub
    compares logins), a listed user id, or a listed association; a waiver
    that lists none of them names anyone."""
    if not (waiver.logins or waiver.ids or waiver.associations):
        return True
    key = login_key(review.login)
    return (
        any(login_key(login) == key for login in waiver.logins)
        or (review.user_id is not None and review.user_id in waiver.ids)
        or review.association in waiver.associations
    )
