"""The GitHub API client: the only module that imports PyGithub.

PyGithub is imported when a client is built, never at module import, so
`gate check` and the other offline commands never load the network stack.
Every call goes to `Settings.api_url` (GITHUB_API_URL), which is what makes
GitHub Enterprise Server and local test servers work.

Retries: 5xx answers, 429, and 403s that GitHub marks as a secondary rate
limit (a Retry-After header or a "rate limit" message) are retried with
exponential backoff by a urllib3 `Retry` installed under PyGithub, for every
request including pagination.  Each wait is capped at `Retry.max_seconds`
and the number of retries at `Retry.attempts`, so a run's total wait is
bounded.  Any other 4xx is an `ApiError` at once.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict, TypeVar

from gate.github.settings import Retry, Settings
from gate.paths import quoted
from gate.waivers import Review

if TYPE_CHECKING:
    from github.CheckRun import CheckRun
    from github.GithubRetry import GithubRetry
    from github.IssueComment import IssueComment
    from github.PullRequest import PullRequest
    from urllib3.response import BaseHTTPResponse

T = TypeVar("T")


class ApiError(Exception):
    """A refused or failed API call.  `status` is the HTTP status (None: no answer)."""

    def __init__(self, status: int | None, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
    of two commits, file bytes."""

    def get_pull(self, number: int) -> PullInfo: ...

    def iter_files(self, number: int) -> Iterator[PullFile]: ...

    def compare(self, base: str, head: str) -> Comparison: ...

    def get_file(self, ref: str, path: str) -> bytes | None: ...

    def reviews(self, number: int) -> tuple[Review, ...]: ...
    def list_folder(self, ref: str, path: str) -> tuple[tuple[str, str], ...] | None: ...


class Publisher(Protocol):
    """The publishing calls: the check run and the sticky comment (`gate.github.publish`)."""

    def create_check_run(
        self, name: str, head_sha: str, conclusion: Conclusion, output: CheckOutput
    ) -> int: ...

    def update_check_run(self, run_id: int, output: CheckOutput) -> None: ...

    def find_comment(self, number: int, marker: str) -> tuple[int, str] | None: ...

    def create_comment(self, number: int, body: str) -> int: ...

    def edit_comment(self, comment_id: int, body: str) -> None: ...


class Client(Reader, Publisher, Protocol):
    """Every call the Action makes.  `GitHubClient` is the implementation
    (tests point it at the API double); mypy checks that it fits."""


def _make_retry(policy: Retry, clock: Callable[[], float] | None = None) -> GithubRetry:
    """PyGithub's retry with every wait bounded: each at most `max_seconds`
    (a Retry-After header, a primary rate limit's reset: PyGithub alone
    waits until the reset, up to an hour), and none that would end past
    `budget_seconds` from now (`clock`, default `time.monotonic`).  Past the
    budget a retry is refused (urllib3's `MaxRetryError`, an `ApiError`
    here), so every run ends with exit 2 well before the job's timeout."""
    import time

    from github.GithubRetry import GithubRetry
    from urllib3.exceptions import MaxRetryError
    from urllib3.util.retry import Retry as Urllib3Retry

    now = clock or time.monotonic
    deadline = now() + policy.budget_seconds

    class CappedRetry(GithubRetry):
        """GithubRetry with every wait (Retry-After included) capped, and the
        whole run's waiting within the budget."""

        cap = policy.max_seconds

        def get_retry_after(self, response: BaseHTTPResponse) -> float | None:
            value = super().get_retry_after(response)
            return None if value is None else min(float(value), self.cap)

        def increment(  # type: ignore[override]
            self,
            method: str | None = None,
            url: str | None = None,
            response: BaseHTTPResponse | None = None,
            error: Exception | None = None,
            _pool: Any = None,
            _stacktrace: Any = None,
        ) -> Urllib3Retry:
            # a rate limit's wait (its reset, or secondary_rate_wait) never past
            # the cap nor what is left of the budget: PyGithub raises instead
            self.max_rate_limit_wait = max(0.0, min(self.cap, deadline - now()))
            retry = super().increment(method, url, response, error, _pool, _stacktrace)  # type: ignore[arg-type]
            after = retry.get_retry_after(response) if response is not None else None
            wait = min(self.cap, after if after is not None else retry.get_backoff_time())
            if now() + wait > deadline:
                raise MaxRetryError(
                    _pool,
                    str(url),
                    RuntimeError(
                        f"the API retry budget of {policy.budget_seconds:g} s is spent "
                        "(GATE_API_BUDGET_SECONDS)"
                    ),
                )
            return retry

    kwargs: dict[str, Any] = {
        "total": policy.attempts,
        "connect": policy.attempts,
        "read": policy.attempts,
        "status": policy.attempts,
        "backoff_factor": policy.base_seconds,
        "secondary_rate_wait": min(60.0, policy.max_seconds),
        "max_rate_limit_wait": policy.max_seconds,
        "status_forcelist": [*range(500, 600), 429],
        # POST is never retried blind: a create answered 5xx may have been
        # made; `GitHubClient` looks it up before creating again.
        "allowed_methods": Urllib3Retry.DEFAULT_ALLOWED_METHODS | {"GET", "PATCH"},
        "raise_on_status": False,
        "respect_retry_after_header": True,
    }
    try:
        return CappedRetry(backoff_max=policy.max_seconds, **kwargs)
    except TypeError:  # urllib3 < 2 has no backoff_max (its cap is 120 s)
        return CappedRetry(**kwargs)


class GitHubClient:
    """The calls the Action makes (`Client`), with plain values in and out."""

    def __init__(self, settings: Settings) -> None:
        import time

        import github

        self.settings = settings
        self._now = time.monotonic
        self._deadline = self._now() + settings.retry.budget_seconds
        auth = github.Auth.Token(settings.token) if settings.token else None
        self._gh = github.Github(
            base_url=settings.api_url,
            auth=auth,
            retry=_make_retry(settings.retry, self._now),
            per_page=100,
            timeout=30,
            lazy=True,  # objects are fetched when read, not when named
        )
        self._repo = self._gh.get_repo(settings.repository)
        self._pulls: dict[int, PullRequest] = {}
        self._check_runs: dict[int, CheckRun] = {}
        self._comments: dict[int, IssueComment] = {}

    def _call(self, what: str, fn: Callable[[], T]) -> T:
        """`fn()`, with PyGithub's and requests' errors as one `ApiError` naming `what`."""
        import github
        import requests

        try:
            return fn()
        except github.GithubException as exc:
            data = exc.data if isinstance(exc.data, dict) else {}
            message = str(data.get("message") or exc.data or "")
            raise ApiError(exc.status, f"{what}: HTTP {exc.status} {message}".rstrip()) from None
        except requests.RequestException as exc:
            raise ApiError(None, f"{what}: {type(exc).__name__}: {exc}") from None

    def _pull(self, number: int) -> PullRequest:
        pull = self._pulls.get(number)
        if pull is None:
            pull = self._pulls[number] = self._repo.get_pull(number)
        return pull

    # -- reading ----------------------------------------------------------

    def get_pull(self, number: int) -> PullInfo:
        def fetch() -> PullInfo:
            pull = self._pulls[number] = self._repo.get_pull(number)
            try:
                return PullInfo.from_json(pull.raw_data)
            except ValueError as exc:
                raise ApiError(None, f"GET pull request #{number}: {exc}") from None

        return self._call(f"GET pull request #{number}", fetch)

    def iter_files(self, number: int) -> Iterator[PullFile]:
        """The PR files listing, every page (GitHub stops at 3000 files)."""

        what = f"GET files of pull request #{number}"

        def listing() -> list[PullFile]:
            try:
                return [PullFile.from_json(f.raw_data) for f in self._pull(number).get_files()]
            except ValueError as exc:
                raise ApiError(None, f"{what}: {exc}") from None

        yield from self._call(what, listing)

    def compare(self, base: str, head: str) -> Comparison:
        """The comparison `base...head` of two commits, as they are (never the
        pull request's head as it is now).

        One request: GET /repos/{owner}/{repo}/compare/{base}...{head}, its
        first page (250 commits; the file list is not paged).
        """

        what = f"GET compare {base[:12]}...{head[:12]}"

        def fetch() -> Comparison:
            raw = self._repo.compare(base, head).raw_data
            fork = raw.get("merge_base_commit")
            sha = fork.get("sha") if isinstance(fork, dict) else None
            if not isinstance(sha, str) or not sha:
                raise ApiError(None, f"{what}: the answer names no merge_base_commit")
            files, commits, total = raw.get("files"), raw.get("commits"), raw.get("total_commits")
            if not isinstance(files, list) or not isinstance(commits, list):
                raise ApiError(None, f"{what}: the answer has no files or commits list")
            behind = raw.get("behind_by")
            if not isinstance(total, int) or isinstance(total, bool):
                raise ApiError(None, f"{what}: the answer has no total_commits count")
            if not isinstance(behind, int) or isinstance(behind, bool):
                raise ApiError(None, f"{what}: the answer has no behind_by count")
            try:
                listed = tuple(PullFile.from_json(f) for f in files if isinstance(f, dict))
            except ValueError as exc:
                raise ApiError(None, f"{what}: {exc}") from None
            if len(listed) != len(files):
                raise ApiError(None, f"{what}: a files entry is not an object")
            return Comparison(
                merge_base=sha,
                files=listed,
                commits=tuple(_commit_parents(what, c) for c in commits),
                total_commits=total,
                behind_by=behind,
            )

        return self._call(what, fetch)

    def get_file(self, ref: str, path: str) -> bytes | None:
        """A file's bytes at `ref`, or None when no regular file is there: a
        folder, a submodule, a symlink.  For a symlink to a file of the
        repository the contents API answers with that file (its own `path`):
        that is not the text at `path`, so it is None too, never the text of
        another file (which could spell the old one)."""
        import github

        def fetch() -> bytes | None:
            try:
                content = self._repo.get_contents(path, ref=ref)
            except github.UnknownObjectException:
                return None
            if isinstance(content, list) or content.type != "file":
                return None
            if content.path != path.strip("/"):
                return None  # a symlink, followed to the file it points to
            raw = content.raw_data
            if raw.get("encoding") == "base64" and raw.get("content") is not None:
                return base64.b64decode(raw["content"])
            # Over 1 MB the contents API sends no content: read the blob.
            blob = self._repo.get_git_blob(content.sha)
            if blob.encoding == "base64":
                return base64.b64decode(blob.content)
            return str(blob.content).encode("utf-8")

        return self._call(f"GET {path} at {ref[:12]}", fetch)

    def reviews(self, number: int) -> tuple[Review, ...]:
        """The pull request's reviews, every page, oldest first (as GitHub lists them)."""
        what = f"GET reviews of pull request #{number}"

        def listing() -> tuple[Review, ...]:
            try:
                return tuple(review_from_json(r.raw_data) for r in self._pull(number).get_reviews())
            except ValueError as exc:
                raise ApiError(None, f"{what}: {exc}") from None

        return self._call(what, listing)

    def list_folder(self, ref: str, path: str) -> tuple[tuple[str, str], ...] | None:
        """The entries of the folder `path` ("" the root) at `ref`, each
        (name, GitHub's type: `file`, `dir`, `symlink`, `submodule`), or None
        when no folder is there, or when it holds more than the contents
        API lists (1,000 entries): then its listing is not complete."""
        import github

        def fetch() -> tuple[tuple[str, str], ...] | None:
            try:
                content = self._repo.get_contents(path, ref=ref)
            except github.UnknownObjectException:
                return None
            if not isinstance(content, list) or len(content) >= FOLDER_LIMIT:
                return None
            return tuple((item.name, item.type) for item in content)

        return self._call(f"GET the folder {path or '/'} at {ref[:12]}", fetch)

    # -- publishing ---------------------------------------------------------

    def create_check_run(
        self, name: str, head_sha: str, conclusion: Conclusion, output: CheckOutput
    ) -> int:
        """Create the completed check run.  A POST is never retried blind: when
        the create fails with no answer or a 5xx (it may have been made), the
        runs on `head_sha` by `name` are listed and the one carrying this
        attempt's `external_id` is taken; only when none does is it created
        again (`_create_once`)."""
        import secrets

        token = f"gate-{secrets.token_hex(8)}"

        def create() -> CheckRun:
            return self._repo.create_check_run(
                name=name,
                head_sha=head_sha,
                status="completed",
                conclusion=conclusion,
                output=_output(output),
                external_id=token,
            )

        def made() -> CheckRun | None:
            runs = self._repo.get_commit(head_sha).get_check_runs(check_name=name)
            return next((r for r in runs if r.external_id == token), None)

        run = self._create_once("POST check run", create, "GET check runs", made)
        self._check_runs[run.id] = run
        return int(run.id)

    def _create_once(
        self, what: str, create: Callable[[], T], lookup: str, made: Callable[[], T | None]
    ) -> T:
        """`create()`; when it fails with no answer, a 5xx (it may have been
        made) or a rate limit (it was not), what `made()` finds of it, else
        `create()` again after the backoff, up to `Retry.attempts` more
        times and within the budget: never blind, so never made twice."""
        import time

        policy = self.settings.retry
        for attempt in range(policy.attempts + 1):
            try:
                return self._call(what, create)
            except ApiError as exc:
                wait = min(policy.max_seconds, policy.base_seconds * 2**attempt)
                last = attempt == policy.attempts or self._now() + wait > self._deadline
                if last or not _may_retry(exc):
                    raise
            found = self._call(lookup, made)
            if found is not None:
                return found
            time.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def update_check_run(self, run_id: int, output: CheckOutput) -> None:
        run = self._check_runs.get(run_id) or self._call(
            "GET check run", lambda: self._repo.get_check_run(run_id)
        )
        self._call("PATCH check run", lambda: run.edit(output=_output(output)))

    def find_comment(self, number: int, marker: str) -> tuple[int, str] | None:
        """The first issue comment on the PR whose body starts with `marker`
        (a bot's comment preferred), as (id, body)."""

        def search() -> tuple[int, str] | None:
            found = [
                c
                for c in self._pull(number).get_issue_comments()
                if (c.body or "").startswith(marker)
            ]
            if not found:
                return None
            bots = [c for c in found if getattr(c.user, "type", None) == "Bot"]
            chosen = (bots or found)[0]
            self._comments[int(chosen.id)] = chosen
            return int(chosen.id), str(chosen.body)

        return self._call(f"GET comments of #{number}", search)

    def create_comment(self, number: int, body: str) -> int:
        """Create a comment; after a create that failed with no answer or a 5xx,
        a comment with this very body is looked up before creating again
        (`_create_once`)."""

        def create() -> IssueComment:
            return self._pull(number).create_issue_comment(body)

        def made() -> IssueComment | None:
            return next(
                (c for c in self._pull(number).get_issue_comments() if c.body == body), None
            )

        what = f"POST comment on #{number}"
        comment = self._create_once(what, create, f"GET comments of #{number}", made)
        self._comments[int(comment.id)] = comment
        return int(comment.id)

    def edit_comment(self, comment_id: int, body: str) -> None:
        """Edit a comment returned by `find_comment` or `create_comment`."""
        self._call("PATCH comment", lambda: self._comments[comment_id].edit(body))


def review_from_json(raw: Mapping[str, object]) -> Review:
    """One review of the review API; ValueError when it has no state.  A
    review whose user is gone (null) has the login "" and never counts."""
    state = raw.get("state")
    if not isinstance(state, str) or not state:
        raise ValueError("a review has no state")
    user = raw.get("user")
    user = user if isinstance(user, Mapping) else {}
    commit = raw.get("commit_id")
    return Review(
        login=_text(user, "login"),
        state=state,
        commit_id=commit if isinstance(commit, str) and commit else None,
        association=_text(raw, "author_association"),
        user_type=_text(user, "type"),
    )


def _may_retry(exc: ApiError) -> bool:
    """Whether a failed create may be tried again (after a look for it): no
    answer, a 5xx, or a rate limit (429, or a 403 that says so)."""
    if exc.status is None or exc.status >= 500 or exc.status == 429:
        return True
    return exc.status == 403 and "rate limit" in exc.message.lower()


def _commit_parents(what: str, raw: object) -> tuple[str, tuple[str, ...]]:
    """(sha, parent shas) of one commit of a comparison; ApiError when unreadable."""
    sha = raw.get("sha") if isinstance(raw, dict) else None
    parents = raw.get("parents") if isinstance(raw, dict) else None
    if not isinstance(sha, str) or not isinstance(parents, list):
        raise ApiError(None, f"{what}: a commit has no sha or parents")
    shas = tuple(p.get("sha") for p in parents if isinstance(p, dict))
    if len(shas) != len(parents) or not all(isinstance(x, str) and x for x in shas):
        raise ApiError(None, f"{what}: a commit's parent has no sha")
    return sha, tuple(str(x) for x in shas)


def _output(output: CheckOutput) -> dict[str, Any]:
    """A check run's output as PyGithub's `output` parameter takes it."""
    return dict(output)
