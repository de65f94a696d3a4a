"""The client's transport: the PyGithub connection to `Settings.api_url`
(GITHUB_API_URL, which is what makes GitHub Enterprise Server and local
test servers work), every PyGithub or requests error as one `ApiError`
(`Transport._call`), the retries, and a create that is never made twice
(`Transport._create_once`).

PyGithub is imported when a client is built, never at module import, so
`gate check` and the other offline commands never load the network stack.

Retries: 5xx answers, 429, and 403s that GitHub marks as a secondary rate
limit (a Retry-After header or a "rate limit" message) are retried with
exponential backoff by a urllib3 `Retry` installed under PyGithub, for every
request including pagination.  Each wait is capped at `Retry.max_seconds`
and the number of retries at `Retry.attempts`, so a run's total wait is
bounded.  Any other 4xx is an `ApiError` at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from gate.github.client_types import ApiError
from gate.github.settings import Retry, Settings

if TYPE_CHECKING:
    from github.GithubRetry import GithubRetry
    from urllib3.response import BaseHTTPResponse

T = TypeVar("T")

# The most pages a strict listing reads (`Transport._listing`): 100 items a
# page, so 10,000 reviews, comments or events of one pull request.
MAX_PAGES = 100


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


class Transport:
    """The connection every call of `GitHubClient` goes through: the
    repository (`_repo`), errors as `ApiError` (`_call`), creates made once
    (`_create_once`), within the run's retry budget."""

    def __init__(self, settings: Settings) -> None:
        import time

        try:
            import github
        except ImportError:
            from gate.base.errors import GateError

            raise GateError(
                "the Action's API client needs PyGithub, which this install lacks: "
                "pip install 'blast-radius-gate[action]' (the Action's image has it)"
            ) from None

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

    def _request(
        self,
        what: str,
        verb: str,
        path: str,
        *,
        body: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], Any]:
        """One REST call PyGithub has no method for (or whose objects would
        fetch more when read): `verb` on `path` (absolute, or from the API's
        root: `/user`), through `_call`; (headers, the JSON answer)."""
        requester = self._gh.requester
        return self._call(
            what,
            lambda: requester.requestJsonAndCheck(verb, path, parameters=params, input=body),
        )

    def repo_path(self, rest: str) -> str:
        """The repository's API path with `rest` after it (`/issues/7/comments`)."""
        return f"/repos/{self.settings.repository}{rest}"

    def _listing(self, what: str, path: str) -> list[dict[str, Any]]:
        """Every item of the paged listing at `path` (under the repository's
        API path, `/pulls/7/reviews`), read strictly: each page a JSON list of objects, pages
        followed by their "next" links, a link back to a page already read
        or more than `MAX_PAGES` pages an `ApiError` (a listing that loops
        never ends), and an empty or non-list answer too."""
        import re

        url: str | None = self.repo_path(path)
        params: dict[str, Any] | None = {"per_page": 100}
        seen: set[str] = set()
        items: list[dict[str, Any]] = []
        while url is not None:
            if url in seen or len(seen) >= MAX_PAGES:
                raise ApiError(None, f"{what}: the listing does not end (page {url} again)")
            seen.add(url)
            headers, data = self._request(what, "GET", url, params=params)
            if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
                shown = "an empty answer" if data is None else f"a {type(data).__name__}"
                raise ApiError(None, f"{what}: a page is {shown}, not a list of objects")
            items.extend(data)
            link = str(headers.get("link") or "")
            found = re.search(r'<([^<>]*)>\s*;\s*rel="next"', link)
            url, params = (found.group(1), None) if found else (None, None)
        return items

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


def _may_retry(exc: ApiError) -> bool:
    """Whether a failed create may be tried again (after a look for it): no
    answer, a 5xx, or a rate limit (429, or a 403 that says so)."""
    if exc.status is None or exc.status >= 500 or exc.status == 429:
        return True
    return exc.status == 403 and "rate limit" in exc.message.lower()
