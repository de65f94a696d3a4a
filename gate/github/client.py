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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gate.github.settings import Retry, Settings


class ApiError(Exception):
    """A refused or failed API call.  `status` is the HTTP status (None: no answer)."""

    def __init__(self, status: int | None, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class PullInfo:
    number: int
    base_sha: str
    head_sha: str
    base_ref: str
    head_ref: str
    author: str
    labels: tuple[str, ...]
    title: str
    changed_files: int | None
    head_repo: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PullInfo:
        """From a pull request object (REST API or event payload)."""
        try:
            base = data["base"]
            head = data["head"]
            changed = data.get("changed_files")
            head_repo = (head.get("repo") or {}).get("full_name")
            return cls(
                number=int(data["number"]),
                base_sha=str(base["sha"]),
                head_sha=str(head["sha"]),
                base_ref=str(base.get("ref") or ""),
                head_ref=str(head.get("ref") or ""),
                author=str((data.get("user") or {}).get("login") or ""),
                labels=tuple(
                    str(label["name"]) for label in data.get("labels") or () if "name" in label
                ),
                title=str(data.get("title") or ""),
                changed_files=int(changed) if isinstance(changed, int) else None,
                head_repo=str(head_repo) if head_repo else None,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"pull request object lacks {exc}") from None


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


def _make_retry(policy: Retry) -> Any:
    from github.GithubRetry import GithubRetry
    from urllib3.util.retry import Retry as Urllib3Retry

    class CappedRetry(GithubRetry):
        """GithubRetry with every wait (Retry-After included) capped."""

        cap = policy.max_seconds

        def get_retry_after(self, response: Any) -> float | None:
            value = super().get_retry_after(response)
            return None if value is None else min(float(value), self.cap)

    kwargs: dict[str, Any] = {
        "total": policy.attempts,
        "connect": policy.attempts,
        "read": policy.attempts,
        "status": policy.attempts,
        "backoff_factor": policy.base_seconds,
        "secondary_rate_wait": min(60.0, policy.max_seconds),
        "status_forcelist": [*range(500, 600), 429],
        "allowed_methods": Urllib3Retry.DEFAULT_ALLOWED_METHODS | {"GET", "POST", "PATCH"},
        "raise_on_status": False,
        "respect_retry_after_header": True,
    }
    try:
        return CappedRetry(backoff_max=policy.max_seconds, **kwargs)
    except TypeError:  # urllib3 < 2 has no backoff_max (its cap is 120 s)
        return CappedRetry(**kwargs)


class GitHubClient:
    """The calls the Action makes, with plain values in and out."""

    def __init__(self, settings: Settings) -> None:
        import github

        self.settings = settings
        auth = github.Auth.Token(settings.token) if settings.token else None
        self._gh = github.Github(
            base_url=settings.api_url,
            auth=auth,
            retry=_make_retry(settings.retry),
            per_page=100,
            timeout=30,
            lazy=True,  # objects are fetched when read, not when named
        )
        self._repo = self._gh.get_repo(settings.repository)
        self._pulls: dict[int, Any] = {}
        self._check_runs: dict[int, Any] = {}
        self._comments: dict[int, Any] = {}

    def _call(self, what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        import github
        import requests

        try:
            return fn(*args, **kwargs)
        except github.GithubException as exc:
            data = exc.data if isinstance(exc.data, dict) else {}
            message = str(data.get("message") or exc.data or "")
            raise ApiError(exc.status, f"{what}: HTTP {exc.status} {message}".rstrip()) from None
        except requests.RequestException as exc:
            raise ApiError(None, f"{what}: {type(exc).__name__}: {exc}") from None

    # -- reading ----------------------------------------------------------

    def get_pull(self, number: int) -> PullInfo:
        def fetch() -> PullInfo:
            pull = self._repo.get_pull(number)
            self._pulls[number] = pull
            return PullInfo.from_json(pull.raw_data)

        result: PullInfo = self._call(f"GET pull request #{number}", fetch)
        return result

    def iter_files(self, number: int) -> Iterator[PullFile]:
        """The PR files listing, every page (GitHub stops at 3000 files)."""

        def listing() -> list[PullFile]:
            out = []
            for f in self._pull(number).get_files():
                raw = f.raw_data
                out.append(
                    PullFile(
                        filename=str(raw["filename"]),
                        status=str(raw.get("status") or ""),
                        additions=int(raw.get("additions") or 0),
                        deletions=int(raw.get("deletions") or 0),
                        changes=int(raw.get("changes") or 0),
                        previous_filename=raw.get("previous_filename"),
                        has_patch="patch" in raw and raw["patch"] is not None,
                        sha=raw.get("sha"),
                    )
                )
            return out

        files: list[PullFile] = self._call(f"GET files of pull request #{number}", listing)
        yield from files

    def merge_base(self, base: str, head: str) -> str:
        """The merge base of `base...head` (the compare API's `merge_base_commit`).

        One request: GET /repos/{owner}/{repo}/compare/{base}...{head}.
        """

        def fetch() -> str:
            commit = self._repo.compare(base, head).merge_base_commit
            sha = getattr(commit, "sha", None) if commit is not None else None
            return sha if isinstance(sha, str) else ""

        what = f"GET compare {base[:12]}...{head[:12]}"
        result: str = self._call(what, fetch)
        if not result:
            raise ApiError(None, f"{what}: the answer names no merge_base_commit")
        return result

    def get_file(self, ref: str, path: str) -> bytes | None:
        """A file's bytes at `ref`, or None when no file is there."""
        import github

        def fetch() -> bytes | None:
            try:
                content = self._repo.get_contents(path, ref=ref)
            except github.UnknownObjectException:
                return None
            if isinstance(content, list) or content.type != "file":
                return None
            raw = content.raw_data
            if raw.get("encoding") == "base64" and raw.get("content") is not None:
                return base64.b64decode(raw["content"])
            # Over 1 MB the contents API sends no content: read the blob.
            blob = self._repo.get_git_blob(content.sha)
            if blob.encoding == "base64":
                return base64.b64decode(blob.content)
            return str(blob.content).encode("utf-8")

        result: bytes | None = self._call(f"GET {path} at {ref[:12]}", fetch)
        return result

    # -- publishing ---------------------------------------------------------

    def create_check_run(
        self, name: str, head_sha: str, conclusion: str, output: Mapping[str, Any]
    ) -> int:
        run = self._call(
            "POST check run",
            self._repo.create_check_run,
            name=name,
            head_sha=head_sha,
            status="completed",
            conclusion=conclusion,
            output=dict(output),
        )
        self._check_runs[run.id] = run
        return int(run.id)

    def update_check_run(self, run_id: int, output: Mapping[str, Any]) -> None:
        run = self._check_runs.get(run_id) or self._call(
            "GET check run", self._repo.get_check_run, run_id
        )
        self._call("PATCH check run", run.edit, output=dict(output))

    def _pull(self, number: int) -> Any:
        pull = self._pulls.get(number)
        if pull is None:
            pull = self._repo.get_pull(number)
            self._pulls[number] = pull
        return pull

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

        result: tuple[int, str] | None = self._call(f"GET comments of #{number}", search)
        return result

    def create_comment(self, number: int, body: str) -> int:
        def create() -> int:
            comment = self._pull(number).create_issue_comment(body)
            self._comments[int(comment.id)] = comment
            return int(comment.id)

        result: int = self._call(f"POST comment on #{number}", create)
        return result

    def edit_comment(self, comment_id: int, body: str) -> None:
        """Edit a comment returned by `find_comment` or `create_comment`."""
        self._call("PATCH comment", self._comments[comment_id].edit, body)
