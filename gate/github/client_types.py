"""What the GitHub API client takes and gives, with no PyGithub in sight:
`ApiError`, the plain values read from the API or an event payload
(`PullInfo`, `PullFile`, `Comparison`, `review_from_json`, each checking
the JSON it is built from), the check run's `Conclusion`, `Annotation` and
`CheckOutput`, and the calls as Protocols (`Reader`, `Publisher`,
`Client`) that the Action's stages and `gate/action/publish.py` are written
against.  `gate/github/client.py` implements them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Literal, Protocol, TypedDict

from gate.base.paths import quoted
from gate.model.waivers import LEVELS, Access, Review, login_key


class ApiError(Exception):
    """A refused or failed API call.  `status` is the HTTP status (None: no answer)."""

    def __init__(self, status: int | None, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class IdentityUnknown(ApiError):
    """Who the token writes as cannot be told yet (`GitHubClient.identity`):
    no check run was created (its app names an installation token) and GET
    /user is refused; a comment the token creates names it."""


@dataclass(frozen=True)
class PullInfo:
    """A pull request as the Action needs it (REST API or event payload)."""

    number: int
    base_sha: str
    head_sha: str
    base_ref: str
    head_ref: str
    author: str
    labels: tuple[str, ...]
    title: str
    changed_files: int | None
    # Of "author", "labels", "head_ref": those the payload left out or gave
    # in another type.  `applies_to` judges a PR whose deciding field is
    # unknown rather than skip it.
    unknown: frozenset[str] = frozenset()

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> PullInfo:
        """From a pull request object; ValueError naming the first field that
        is missing or of the wrong type.  Optional texts (refs, author, title)
        default to "" and labels without a name are left out; an author,
        head branch or label list that is absent, null, empty or mistyped is
        named in `unknown`, so `applies_to` judges the PR instead of
        skipping it for what it cannot see."""
        number = data.get("number")
        if not isinstance(number, int) or isinstance(number, bool):
            raise ValueError("pull request object lacks number (an integer)")
        base = _member(data, "base")
        head = _member(data, "head")
        labels = data.get("labels")
        changed = data.get("changed_files")
        user = data.get("user")
        unknown = {
            name
            for name, known in (
                ("author", isinstance(user, Mapping) and bool(_text(user, "login"))),
                ("head_ref", bool(_text(head, "ref"))),
                (
                    "labels",
                    isinstance(labels, list)
                    and all(isinstance(x, Mapping) and _text(x, "name") for x in labels),
                ),
            )
            if not known
        }
        return cls(
            number=number,
            base_sha=_required_text(base, "sha", "base.sha"),
            head_sha=_required_text(head, "sha", "head.sha"),
            base_ref=_text(base, "ref"),
            head_ref=_text(head, "ref"),
            author=_text(_member(data, "user", optional=True), "login"),
            labels=tuple(
                _text(label, "name")
                for label in (labels if isinstance(labels, list) else ())
                if isinstance(label, Mapping) and _text(label, "name")
            ),
            title=_text(data, "title"),
            changed_files=(
                changed if isinstance(changed, int) and not isinstance(changed, bool) else None
            ),
            unknown=frozenset(unknown),
        )


def _member(
    data: Mapping[str, object], key: str, *, optional: bool = False
) -> Mapping[str, object]:
    """`data[key]` as an object: ValueError when it is not one, {} when
    `optional` and it is absent or null."""
    value = data.get(key)
    if isinstance(value, Mapping):
        return value
    if optional and value is None:
        return {}
    raise ValueError(f"pull request object lacks {key} (an object)")


def _text(data: Mapping[str, object], key: str) -> str:
    """`data[key]` when it is a string, else ""."""
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _required_text(data: Mapping[str, object], key: str, name: str) -> str:
    value = _text(data, key)
    if not value:
        raise ValueError(f"pull request object lacks {name} (a string)")
    return value


@dataclass(frozen=True)
class PullFile:
    """One entry of the PR files listing."""

    filename: str
    status: str
    additions: int
    deletions: int
    changes: int
    previous_filename: str | None
    has_patch: bool
    sha: str | None = None  # the blob at the head (GitHub's `sha`)
    lone_cr: bool = False  # the patch holds a "\r" not followed by "\n"

    @classmethod
    def from_json(cls, raw: Mapping[str, object]) -> PullFile:
        """One entry of the PR files listing; ValueError when it is not one (a
        count that is not a number never reads as 0)."""
        filename = raw.get("filename")
        if not isinstance(filename, str) or not filename:
            raise ValueError("a files listing entry has no filename")
        counts = {}
        for key in ("additions", "deletions", "changes"):
            value = raw.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"files listing entry {quoted(filename)} has no {key} count")
            counts[key] = value
        previous = raw.get("previous_filename")
        sha = raw.get("sha")
        patch = raw.get("patch")
        return cls(
            filename=filename,
            status=_text(raw, "status"),
            additions=counts["additions"],
            deletions=counts["deletions"],
            changes=counts["changes"],
            previous_filename=previous if isinstance(previous, str) and previous else None,
            has_patch=patch is not None,
            sha=sha if isinstance(sha, str) else None,
            lone_cr=isinstance(patch, str) and patch.count("\r") > patch.count("\r\n"),
        )


@dataclass(frozen=True)
class Comparison:
    """The compare API's answer for `base...head`: the merge base GitHub
    diffs from, the files it lists (at most `COMPARE_FILES` for the whole
    comparison, GitHub's documentation says) and each listed commit of
    `base..head` with its parents; `total_commits` counts them all."""

    merge_base: str
    files: tuple[PullFile, ...]
    commits: tuple[tuple[str, tuple[str, ...]], ...]
    total_commits: int
    behind_by: int  # commits of head..base: 0 when base is an ancestor of head


# The most files the compare API lists for one comparison.
COMPARE_FILES = 300
# The most entries the contents API lists for one folder.
FOLDER_LIMIT = 1000


# A completed check run's conclusions that the gate posts.
Conclusion = Literal["success", "failure", "neutral"]


@dataclass(frozen=True)
class Person:
    """An account as GraphQL names it: its login now and its numeric id
    (None: an account without one, or one that is gone)."""

    login: str
    user_id: int | None


@dataclass(frozen=True)
class ClosingIssue:
    """An issue a pull request closes (GitHub's closing references): its
    number, repository (`owner/name`) and body, who wrote it, and every
    account that edited the body (None: an editor whose account is gone)."""

    number: int
    repository: str
    body: str
    author: Person | None
    editors: tuple[Person | None, ...]


@dataclass(frozen=True)
class ClosingIssues:
    """A pull request's author and the issues it closes, in GitHub's order."""

    pull_author: Person | None
    issues: tuple[ClosingIssue, ...]


def person_from_graphql(raw: object, what: str) -> Person | None:
    """An `Actor` of the GraphQL API (`login`, `databaseId` on a User or a
    Bot); None for null (a deleted account); ValueError when malformed."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ValueError(f"{what} is not an object")
    login = raw.get("login")
    if not isinstance(login, str) or not login:
        raise ValueError(f"{what} has no login")
    user_id = raw.get("databaseId")
    if user_id is not None and (not isinstance(user_id, int) or isinstance(user_id, bool)):
        raise ValueError(f"{what}'s databaseId is not an integer")
    return Person(login, user_id)


class Annotation(TypedDict):
    """One check-run annotation, as the checks API takes it."""

    path: str
    start_line: int
    end_line: int
    annotation_level: str
    title: str
    message: str


class CheckOutput(TypedDict, total=False):
    """A check run's `output` object (`annotations`: at most 50 a request)."""

    title: str
    summary: str
    annotations: list[Annotation]


class Reader(Protocol):
    """The reading calls: the pull request, its files listing, the comparison
    of two commits, file bytes and folders; for waivers, the reviews, a
    person's permission, the head commit's writers and the base changes."""

    def get_pull(self, number: int) -> PullInfo: ...

    def iter_files(self, number: int) -> Iterator[PullFile]: ...

    def compare(self, base: str, head: str) -> Comparison: ...

    def get_file(self, ref: str, path: str) -> bytes | None: ...

    def list_folder(self, ref: str, path: str) -> tuple[tuple[str, str], ...] | None: ...

    def reviews(self, number: int) -> tuple[Review, ...]: ...

    def permission(self, login: str) -> Access: ...

    def head_writers(self, sha: str) -> frozenset[int]: ...

    def base_changes(self, number: int) -> tuple[datetime, ...]: ...

    def closing_issues(self, number: int) -> ClosingIssues: ...


class Publisher(Protocol):
    """The publishing calls: the check run and the sticky comment
    (`gate.action.publish`); `find_comments` lists only the comments the
    token's own identity wrote, oldest first."""

    def create_check_run(
        self, name: str, head_sha: str, conclusion: Conclusion, output: CheckOutput
    ) -> int: ...

    def update_check_run(self, run_id: int, output: CheckOutput) -> None: ...

    def find_comments(self, number: int, marker: str) -> tuple[tuple[int, str], ...]: ...

    def create_comment(self, number: int, body: str) -> int: ...

    def edit_comment(self, comment_id: int, body: str) -> None: ...

    def delete_comment(self, comment_id: int) -> None: ...


class Client(Reader, Publisher, Protocol):
    """Every call the Action makes.  `GitHubClient` is the implementation
    (tests point it at the API double); mypy checks that it fits."""


def review_from_json(raw: Mapping[str, object]) -> Review:
    """One review of the review API, read strictly; ValueError naming what is
    missing or mistyped (then the reviews cannot be read, and the run could
    not judge).  A review whose account is gone lists a null user: its
    login is "" and it never counts."""
    review_id = raw.get("id")
    if not isinstance(review_id, int) or isinstance(review_id, bool):
        raise ValueError("a review has no id")
    state = raw.get("state")
    if not isinstance(state, str) or not state:
        raise ValueError(f"review {review_id} has no state")
    user = raw.get("user")
    login, user_id, user_type = "", None, ""
    if user is not None:
        if not isinstance(user, Mapping):
            raise ValueError(f"review {review_id}'s user is not an object")
        login, user_id = account_of(user, f"review {review_id}'s user")
        user_type = _text(user, "type")
    commit = raw.get("commit_id")
    if commit is not None and not isinstance(commit, str):
        raise ValueError(f"review {review_id}'s commit_id is not a string")
    return Review(
        id=review_id,
        login=login,
        user_id=user_id,
        state=state,
        commit_id=commit or None,
        submitted_at=timestamp(raw.get("submitted_at"), f"review {review_id}'s submitted_at"),
        association=_text(raw, "author_association"),
        user_type=user_type,
    )


def account_of(user: Mapping[str, object], what: str) -> tuple[str, int]:
    """(login, numeric id) of a user object; ValueError when either is missing."""
    login, user_id = user.get("login"), user.get("id")
    if not isinstance(login, str) or not login:
        raise ValueError(f"{what} has no login")
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id < 1:
        raise ValueError(f"{what} has no numeric id")
    return login, user_id


def timestamp(value: object, what: str) -> datetime | None:
    """An ISO 8601 time of the API as an aware UTC datetime; None when absent
    (null); ValueError when present but not a time with a zone."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            parsed = None
        if parsed is not None and parsed.tzinfo is not None:
            return parsed.astimezone(timezone.utc)
    raise ValueError(f"{what} is not a time with a zone: {value!r}")


def access_from_json(raw: object, login: str) -> Access:
    """The permission API's answer for `login` as an `Access`: the account it
    names and its level.  The role decides (read, triage, write, maintain,
    admin); a custom role reads by its `permissions` booleans, else by the
    legacy `permission` (admin, write, read, none).  ValueError when the
    answer names no account or no level."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"the permission of {login} is not an object")
    user = raw.get("user")
    if not isinstance(user, Mapping):
        raise ValueError(f"the permission of {login} names no account")
    user_id = account_of(user, f"the permission of {login}")[1]
    role = raw.get("role_name")
    if isinstance(role, str) and role in LEVELS:
        return Access(user_id, role)
    flags = user.get("permissions")
    if isinstance(flags, Mapping):
        for level, flag in (
            ("admin", "admin"),
            ("maintain", "maintain"),
            ("write", "push"),
            ("triage", "triage"),
            ("read", "pull"),
        ):
            if flags.get(flag) is True:
                return Access(user_id, level)
        if all(flags.get(f) is False for f in ("admin", "push", "pull")):
            return Access(user_id, "none")
    legacy = raw.get("permission")
    if isinstance(legacy, str) and legacy in ("admin", "write", "read", "none"):
        return Access(user_id, legacy)
    raise ValueError(f"the permission of {login} names no level")


@dataclass(frozen=True)
class Identity:
    """Who the token writes as: a GitHub App's bot (`app_id`, and `login`
    `<slug>[bot]`) for an installation token (the workflow's token is GitHub
    Actions'), or a person (`user_id`) for a personal token."""

    login: str
    user_id: int | None = None
    app_id: int | None = None

    def wrote(self, comment: Mapping[str, object]) -> bool:
        """Whether this identity wrote `comment` (an issue comment object)."""
        user = comment.get("user")
        if not isinstance(user, Mapping):
            return False
        if self.app_id is not None:
            if user.get("type") != "Bot" or not isinstance(user.get("login"), str):
                return False
            app = comment.get("performed_via_github_app")
            if isinstance(app, Mapping) and "id" in app:
                return app.get("id") == self.app_id
            return login_key(str(user["login"])) == login_key(self.login)
        return self.user_id is not None and user.get("id") == self.user_id
