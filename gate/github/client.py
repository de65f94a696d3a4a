"""The GitHub API client, `GitHubClient`: the calls the Action makes
(`gate.github.client_types.Client`), one method an endpoint, with plain
values in and out.  Reading: the pull request, its files listing, the
compare API, file bytes and folder listings from the contents API, the
reviews.  Publishing: the check run and the sticky comment.  Each call goes
through `gate/github/client_transport.py` (the connection, errors as
`ApiError`, retries, creates made once); with it, the only modules that
import PyGithub, and only when a client is built.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from gate.github.client_transport import MAX_PAGES, Transport
from gate.github.client_types import (
    FOLDER_LIMIT,
    ApiError,
    CheckOutput,
    ClosingIssue,
    ClosingIssues,
    Comparison,
    Conclusion,
    Identity,
    IdentityUnknown,
    Person,
    PullFile,
    PullInfo,
    access_from_json,
    account_of,
    person_from_graphql,
    review_from_json,
    timestamp,
)
from gate.github.settings import Settings
from gate.model.waivers import Access, Review

# The issue events that change a pull request's base branch.
BASE_EVENTS = frozenset({"base_ref_changed", "automatic_base_change_succeeded"})

# The issues a pull request closes (GitHub's closing references, which only
# the GraphQL API lists), with who wrote and edited each body.
CLOSING_PAGE = 25  # closing references per page
MAX_EDITS = 100  # body edits read per issue (GraphQL's page limit); more: not read
CLOSING_ISSUES_QUERY = f"""
query ClosingIssues($owner: String!, $name: String!, $number: Int!, $after: String) {{
  repository(owner: $owner, name: $name) {{
    pullRequest(number: $number) {{
      author {{ ...Person }}
      closingIssuesReferences(first: {CLOSING_PAGE}, after: $after) {{
        pageInfo {{ hasNextPage endCursor }}
        nodes {{
          number
          body
          repository {{ nameWithOwner }}
          author {{ ...Person }}
          editor {{ ...Person }}
          userContentEdits(first: {MAX_EDITS}) {{
            pageInfo {{ hasNextPage }}
            nodes {{ editor {{ ...Person }} deletedBy {{ ...Person }} }}
          }}
        }}
      }}
    }}
  }}
}}

fragment Person on Actor {{
  login
  ... on User {{ databaseId }}
  ... on Bot {{ databaseId }}
}}
"""

if TYPE_CHECKING:
    from github.CheckRun import CheckRun
    from github.PullRequest import PullRequest


class GitHubClient(Transport):
    """The calls the Action makes (`Client`), with plain values in and out."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self._pulls: dict[int, PullRequest] = {}
        self._check_runs: dict[int, CheckRun] = {}
        self._identity: Identity | None = None

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
        """The pull request's reviews, every page, as GitHub lists them, each
        read strictly (`review_from_json`; `Transport._listing`)."""
        what = f"GET reviews of pull request #{number}"
        try:
            return tuple(
                review_from_json(r) for r in self._listing(what, f"/pulls/{number}/reviews")
            )
        except ValueError as exc:
            raise ApiError(None, f"{what}: {exc}") from None

    def permission(self, login: str) -> Access:
        """`login`'s access to the repository now: GET
        /repos/{owner}/{repo}/collaborators/{username}/permission.  An
        account that does not exist (404) has none."""
        import urllib.parse

        what = f"GET the permission of {login}"
        path = self.repo_path(f"/collaborators/{urllib.parse.quote(login, safe='')}/permission")
        try:
            _, data = self._request(what, "GET", path)
        except ApiError as exc:
            if exc.status == 404:
                return Access(None, "none")
            raise
        try:
            return access_from_json(data, login)
        except ValueError as exc:
            raise ApiError(None, f"{what}: {exc}") from None

    def head_writers(self, sha: str) -> frozenset[int]:
        """The user ids GitHub links to commit `sha`'s author and committer
        (GET /repos/{owner}/{repo}/commits/{sha}); none for an e-mail no
        account claims."""
        what = f"GET commit {sha[:12]}"
        raw = self._call(what, lambda: self._repo.get_commit(sha).raw_data)
        ids = set()
        for role in ("author", "committer"):
            user = raw.get(role)
            if user is None:
                continue
            user_id = user.get("id") if isinstance(user, dict) else None
            if not isinstance(user_id, int) or isinstance(user_id, bool):
                raise ApiError(None, f"{what}: its {role} has no numeric id")
            ids.add(user_id)
        return frozenset(ids)

    def base_changes(self, number: int) -> tuple[datetime, ...]:
        """When the pull request's base branch was changed, by a person or by
        GitHub (`base_ref_changed`, `automatic_base_change_succeeded` issue
        events, which only the issue events API lists)."""
        what = f"GET events of pull request #{number}"
        out = []
        for event in self._listing(what, f"/issues/{number}/events"):
            if event.get("event") not in BASE_EVENTS:
                continue
            try:
                when = timestamp(event.get("created_at"), f"event {event.get('id')}'s created_at")
            except ValueError as exc:
                raise ApiError(None, f"{what}: {exc}") from None
            if when is None:
                raise ApiError(None, f"{what}: a base change has no created_at")
            out.append(when)
        return tuple(out)

    def closing_issues(self, number: int) -> ClosingIssues:
        """The pull request's author and the issues it closes, every page
        (GraphQL `closingIssuesReferences`), each with its body's author and
        editors; an answer of another shape, more than `MAX_EDITS` edits of
        one body, or more than `MAX_PAGES` pages, an `ApiError`."""
        owner, name = self.settings.repository.split("/", 1)
        what = f"POST graphql: the issues pull request #{number} closes"
        requester = self._gh.requester
        issues: list[ClosingIssue] = []
        after: str | None = None
        pull_author: Person | None = None
        for _ in range(MAX_PAGES):
            variables = {"owner": owner, "name": name, "number": number, "after": after}
            _, data = self._call(
                what, partial(requester.graphql_query, CLOSING_ISSUES_QUERY, variables)
            )
            try:
                pull = data["data"]["repository"]["pullRequest"]
                pull_author = person_from_graphql(pull["author"], "the pull request's author")
                page = pull["closingIssuesReferences"]
                issues.extend(_closing_issue(node) for node in page["nodes"])
                more, after = page["pageInfo"]["hasNextPage"], page["pageInfo"]["endCursor"]
            except (KeyError, TypeError, ValueError) as exc:
                raise ApiError(None, f"{what}: an answer of another shape ({exc})") from None
            if not more:
                return ClosingIssues(pull_author, tuple(issues))
        raise ApiError(None, f"{what}: more than {MAX_PAGES} pages")

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
        app = run.raw_data.get("app")
        if self._identity is None and isinstance(app, dict):
            slug, app_id = app.get("slug"), app.get("id")
            if isinstance(slug, str) and slug and isinstance(app_id, int):
                self._identity = Identity(login=f"{slug}[bot]", app_id=app_id)
        return int(run.id)

    def update_check_run(self, run_id: int, output: CheckOutput) -> None:
        run = self._check_runs.get(run_id) or self._call(
            "GET check run", lambda: self._repo.get_check_run(run_id)
        )
        self._call("PATCH check run", lambda: run.edit(output=_output(output)))

    def identity(self) -> Identity:
        """Who this token writes as: the app of the check run it created (an
        installation token, the workflow's included), else the user GET
        /user names (a personal token, which cannot create check runs), else
        the user of a comment it created.  `IdentityUnknown` when none of
        these can be read yet."""
        if self._identity is None:
            what = "GET /user (who the token writes as)"
            try:
                _, data = self._request(what, "GET", "/user")
            except ApiError as exc:
                raise IdentityUnknown(
                    None,
                    f"which comments are the gate's own is unknown: the check run was not "
                    f"created (its app names the token's identity) and {exc.message}",
                ) from None
            try:
                login, user_id = account_of(data if isinstance(data, dict) else {}, "GET /user")
            except ValueError as exc:
                raise ApiError(None, f"{what}: {exc}") from None
            self._identity = Identity(login=login, user_id=user_id)
        return self._identity

    def find_comments(self, number: int, marker: str) -> tuple[tuple[int, str], ...]:
        """The comments on the PR whose body starts with `marker` and that the
        token's own identity wrote (`identity`), oldest first, as (id,
        body): a comment anyone else wrote is never the gate's, whatever it
        carries."""
        me = self.identity()
        what = f"GET comments of #{number}"
        found = []
        for raw in self._listing(what, f"/issues/{number}/comments"):
            body, comment_id = raw.get("body"), raw.get("id")
            if not isinstance(body, str) or not body.startswith(marker):
                continue
            if not isinstance(comment_id, int) or not me.wrote(raw):
                continue
            found.append((comment_id, body))
        return tuple(sorted(found))

    def create_comment(self, number: int, body: str) -> int:
        """Create a comment; after a create that failed with no answer or a 5xx,
        a comment of the gate's own with this very body is looked up before
        creating again (`_create_once`).  The comment's user names the
        token's identity when nothing else has (`identity`)."""
        path = self.repo_path(f"/issues/{number}/comments")
        what = f"POST comment on #{number}"

        def create() -> dict[str, Any]:
            _, data = self._request(what, "POST", path, body={"body": body})
            if not isinstance(data, dict) or not isinstance(data.get("id"), int):
                raise ApiError(None, f"{what}: the answer names no comment")
            return data

        def made() -> dict[str, Any] | None:
            me = self._identity
            if me is None:
                return None  # whose comment it would be is unknown: create again
            listing = self._listing(f"GET comments of #{number}", f"/issues/{number}/comments")
            return next((c for c in listing if c.get("body") == body and me.wrote(c)), None)

        comment = self._create_once(what, create, f"GET comments of #{number}", made)
        user = comment.get("user")
        if self._identity is None and isinstance(user, dict):
            try:
                login, user_id = account_of(user, "the comment's user")
            except ValueError as exc:
                raise ApiError(None, f"{what}: {exc}") from None
            self._identity = Identity(login=login, user_id=user_id)
        return int(comment["id"])

    def edit_comment(self, comment_id: int, body: str) -> None:
        """Edit a comment `find_comments` or `create_comment` returned."""
        path = self.repo_path(f"/issues/comments/{comment_id}")
        self._request("PATCH comment", "PATCH", path, body={"body": body})

    def delete_comment(self, comment_id: int) -> None:
        """Delete one of the gate's own comments (a second sticky comment a
        concurrent run made)."""
        path = self.repo_path(f"/issues/comments/{comment_id}")
        try:
            self._request("DELETE comment", "DELETE", path)
        except ApiError as exc:
            if exc.status != 404:  # 404: the racing run deleted it first
                raise


def _closing_issue(node: Any) -> ClosingIssue:
    """One node of `closingIssuesReferences`; KeyError, TypeError or
    ValueError when it is not the shape asked for."""
    number = node["number"]
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError("an issue without a number")
    edits = node["userContentEdits"]
    if edits["pageInfo"]["hasNextPage"]:
        raise ValueError(
            f"issue #{number}'s body was edited more than {MAX_EDITS} times; who wrote it "
            "cannot all be read"
        )
    editors: list[Person | None] = []
    if node["editor"] is not None:  # null: never edited
        editors.append(person_from_graphql(node["editor"], f"issue #{number}'s editor"))
    for edit in edits["nodes"]:  # an edit's null editor: an account that is gone
        editors.append(person_from_graphql(edit["editor"], f"an edit of issue #{number}"))
        if edit["deletedBy"] is not None:
            editors.append(person_from_graphql(edit["deletedBy"], f"an edit of issue #{number}"))
    body = node["body"]
    repository = node["repository"]["nameWithOwner"]
    if not isinstance(body, str) or not isinstance(repository, str):
        raise ValueError(f"issue #{number} has no body or repository")
    return ClosingIssue(
        number=number,
        repository=repository,
        body=body,
        author=person_from_graphql(node["author"], f"issue #{number}'s author"),
        editors=tuple(dict.fromkeys(editors)),
    )


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
