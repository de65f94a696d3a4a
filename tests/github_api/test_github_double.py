"""The GitHub API double, driven by the real PyGithub client over real HTTP.

Every test here uses the ``github`` fixture, which fails the test at teardown if the double
recorded an API violation; tests that provoke violations consume them on purpose.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from github import Auth, Github, GithubException
from github.GithubException import BadCredentialsException, UnknownObjectException

from github_api import fixtures
from github_api.double import DEFAULT_TOKEN, GitHubDouble, OpenApiSubset

github = fixtures.github  # the fixture (a conftest elsewhere may import it too)

REPO = "octo/repo"
BASE = "a" * 40
HEAD = "b" * 40
HERE = Path(__file__).resolve().parents[1]


def client(double: GitHubDouble, token: str | None = None, **kwargs: Any) -> Github:
    """The real PyGithub client aimed at the double (no client-side throttling sleeps)."""
    return Github(
        base_url=double.url,
        auth=Auth.Token(token or double.token),
        per_page=kwargs.pop("per_page", 100),
        seconds_between_requests=0,
        seconds_between_writes=0,
        **kwargs,
    )


def files(count: int, status: str = "modified") -> list[dict[str, Any]]:
    return [
        {
            "filename": f"src/f{i:04}.py",
            "status": status,
            "additions": 2,
            "deletions": 1,
            "changes": 3,
        }
        for i in range(count)
    ]


def raw(
    double: GitHubDouble,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], Any]:
    """One request with urllib, bypassing PyGithub's own checks."""
    sent = {"Authorization": f"token {double.token}", "Content-Type": "application/json"}
    sent.update(headers or {})
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(double.url + path, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


def annotation(path: str, line: int = 1, level: str = "failure") -> dict[str, Any]:
    return {
        "path": path,
        "start_line": line,
        "end_line": line,
        "annotation_level": level,
        "message": "file outside the allowed paths",
    }


# ------------------------------------------------------------------ reading a pull request


def test_get_repo_and_pull_build_pygithub_objects(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    github.add_pull(
        REPO,
        7,
        base_sha=BASE,
        head_sha=HEAD,
        head_ref="copilot/fix-clamp",
        labels=["agent", "size/S"],
        title="Fix clamp <b>@team</b>",
        files=files(3),
    )
    gh = client(github)
    repo = gh.get_repo(REPO)
    assert (repo.full_name, repo.default_branch) == (REPO, "main")
    assert repo.url == f"{github.url}/repos/{REPO}"
    pull = repo.get_pull(7)
    assert (pull.number, pull.state, pull.title) == (7, "open", "Fix clamp <b>@team</b>")
    assert (pull.base.sha, pull.base.ref, pull.base.repo.full_name) == (BASE, "main", REPO)
    assert (pull.head.sha, pull.head.ref, pull.head.repo.full_name) == (
        HEAD,
        "copilot/fix-clamp",
        REPO,
    )
    assert pull.user.login == "copilot-swe-agent[bot]"
    assert pull.user.type == "Bot"
    assert [label.name for label in pull.labels] == ["agent", "size/S"]
    assert (pull.changed_files, pull.additions, pull.deletions) == (3, 6, 3)
    assert pull.html_url.startswith(github.url)
    assert [(r.method, r.path, r.status) for r in github.requests] == [
        ("GET", f"/repos/{REPO}", 200),
        ("GET", f"/repos/{REPO}/pulls/7", 200),
    ]


def test_event_payload_helpers_match_the_api(github: GitHubDouble) -> None:
    github.add_pull(REPO, 7, base_sha=BASE, head_sha=HEAD, labels=["agent"])
    status, _, served = raw(github, "GET", f"/repos/{REPO}/pulls/7")
    assert status == 200
    assert github.pull_payload(REPO, 7) == served
    status, _, served_repo = raw(github, "GET", f"/repos/{REPO}")
    assert github.repo_payload(REPO) == served_repo
    assert {"id", "node_id", "owner", "forks_count", "archive_url"} <= set(served_repo)


def test_unknown_pull_is_404_without_violation(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    with pytest.raises(UnknownObjectException):
        client(github).get_repo(REPO).get_pull(99)
    assert github.violations == []


def test_set_pull_head_simulates_a_push(github: GitHubDouble) -> None:
    github.add_pull(REPO, 1, base_sha=BASE, head_sha=HEAD)
    repo = client(github).get_repo(REPO)
    assert repo.get_pull(1).head.sha == HEAD
    github.set_pull_head(REPO, 1, "c" * 40)
    assert repo.get_pull(1).head.sha == "c" * 40


def test_fork_head_repository(github: GitHubDouble) -> None:
    github.add_pull(REPO, 2, base_sha=BASE, head_sha=HEAD, head_full_name="mallory/repo")
    pull = client(github).get_repo(REPO).get_pull(2)
    assert pull.head.repo.full_name == "mallory/repo"
    assert pull.head.label == "mallory:feature"
    assert pull.base.repo.full_name == REPO
    assert (pull.head.repo.fork, pull.base.repo.fork) == (True, False)


def test_compare_names_the_merge_base(github: GitHubDouble) -> None:
    fork = "c" * 40
    github.add_pull(REPO, 4, base_sha=BASE, head_sha=HEAD, merge_base_sha=fork)
    repo = client(github).get_repo(REPO)
    comparison = repo.compare(BASE, HEAD)
    assert comparison.merge_base_commit.sha == fork
    assert comparison.base_commit.sha == BASE
    assert (comparison.status, comparison.ahead_by, comparison.behind_by) == ("diverged", 1, 1)
    # The PR's branch names compare too; "/" in a name spans path segments.
    github.add_pull(REPO, 5, base_sha=BASE, head_sha=HEAD, head_ref="codex/fix-it")
    comparison = repo.compare("main", "codex/fix-it")
    assert comparison.merge_base_commit.sha == BASE  # default: the base has not moved on
    assert (comparison.status, comparison.ahead_by, comparison.behind_by) == ("ahead", 1, 0)
    assert [(r.method, r.path, r.status) for r in github.requests[1:]] == [
        ("GET", f"/repos/{REPO}/compare/{BASE}...{HEAD}", 200),
        ("GET", f"/repos/{REPO}/compare/main...codex/fix-it", 200),
    ]


def test_compare_of_unknown_commits_is_404_without_violation(github: GitHubDouble) -> None:
    github.add_pull(REPO, 4, base_sha=BASE, head_sha=HEAD)
    repo = client(github).get_repo(REPO)
    for base, head in ((HEAD, BASE), (BASE, "d" * 40)):
        with pytest.raises(UnknownObjectException):
            repo.compare(base, head).merge_base_commit  # noqa: B018  (the fetch)
    status, _, body = raw(github, "GET", f"/repos/{REPO}/compare/{BASE}")
    assert (status, body["message"]) == (404, "Not Found")
    assert github.violations == []


def test_files_paginate_250_with_per_page_100(github: GitHubDouble) -> None:
    github.add_pull(REPO, 3, base_sha=BASE, head_sha=HEAD, files=files(250))
    listed = list(client(github).get_repo(REPO).get_pull(3).get_files())
    assert [f.filename for f in listed] == [f"src/f{i:04}.py" for i in range(250)]
    pages = [r.query for r in github.requests if r.path.endswith("/files")]
    assert pages == [
        {"per_page": "100"},
        {"per_page": "100", "page": "2"},
        {"per_page": "100", "page": "3"},
    ]


def test_files_link_header_next_and_last(github: GitHubDouble) -> None:
    github.add_pull(REPO, 3, base_sha=BASE, head_sha=HEAD, files=files(250))
    status, headers, body = raw(github, "GET", f"/repos/{REPO}/pulls/3/files?per_page=100")
    assert status == 200 and len(body) == 100
    link = headers["Link"]
    assert f'<{github.url}/repos/{REPO}/pulls/3/files?per_page=100&page=2>; rel="next"' in link
    assert f'<{github.url}/repos/{REPO}/pulls/3/files?per_page=100&page=3>; rel="last"' in link
    status, headers, body = raw(github, "GET", f"/repos/{REPO}/pulls/3/files?per_page=100&page=3")
    assert len(body) == 50
    assert 'rel="next"' not in headers["Link"] and 'rel="prev"' in headers["Link"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [("", 30), ("?per_page=1", 1), ("?per_page=500", 100), ("?per_page=100&page=9", 0)],
)
def test_files_per_page_default_and_clamp(github: GitHubDouble, query: str, expected: int) -> None:
    github.add_pull(REPO, 3, base_sha=BASE, head_sha=HEAD, files=files(250))
    status, _, body = raw(github, "GET", f"/repos/{REPO}/pulls/3/files{query}")
    assert (status, len(body)) == (200, expected)


def test_files_listing_stops_at_3000(github: GitHubDouble) -> None:
    github.add_pull(REPO, 4, base_sha=BASE, head_sha=HEAD, files=files(3500, "added"))
    pull = client(github).get_repo(REPO).get_pull(4)
    assert pull.changed_files == 3500
    listed = list(pull.get_files())
    assert len(listed) == 3000
    assert listed[-1].filename == "src/f2999.py"
    status, _, body = raw(github, "GET", f"/repos/{REPO}/pulls/4/files?per_page=100&page=31")
    assert (status, body) == (200, [])


def test_file_entries_carry_rename_and_patch(github: GitHubDouble) -> None:
    entry = {
        "filename": "new name.py",
        "previous_filename": "old\tname.py",
        "status": "renamed",
        "additions": 1,
        "deletions": 0,
        "changes": 1,
        "patch": "@@ -1 +1,2 @@\n x\n+y",
    }
    github.add_pull(REPO, 5, base_sha=BASE, head_sha=HEAD, files=[entry])
    github.add_content(REPO, HEAD, "new name.py", b"x\ny\n")
    (listed,) = client(github).get_repo(REPO).get_pull(5).get_files()
    assert (listed.filename, listed.previous_filename, listed.status) == (
        "new name.py",
        "old\tname.py",
        "renamed",
    )
    assert listed.patch == entry["patch"]
    # git's blob id of the content at the head, as GitHub reports it
    assert listed.sha == subprocess_blob_sha(b"x\ny\n")


def subprocess_blob_sha(data: bytes) -> str:
    out = subprocess.run(
        ["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True
    )
    return out.stdout.decode().strip()


# ------------------------------------------------------------------ contents


@pytest.mark.parametrize(
    "path",
    ["rubric.yml", ".github/blast radius.yml", "dir/ünï #1?.txt", "-leading/dash.md"],
)
def test_contents_at_ref_round_trip_bytes(github: GitHubDouble, path: str) -> None:
    data = b"rules:\n  - id: x\n\xff\x00binary tail"
    github.add_content(REPO, BASE, path, data)
    github.add_content(REPO, HEAD, path, b"head version")
    repo = client(github).get_repo(REPO)
    at_base = repo.get_contents(path, ref=BASE)
    assert not isinstance(at_base, list)
    assert at_base.decoded_content == data
    assert at_base.sha == subprocess_blob_sha(data)
    assert at_base.path == path
    at_head = repo.get_contents(path, ref=HEAD)
    assert not isinstance(at_head, list)
    assert at_head.decoded_content == b"head version"
    assert github.requests[-1].query == {"ref": HEAD}


def test_contents_absent_is_404_and_default_branch(github: GitHubDouble) -> None:
    github.add_content(REPO, "main", "a.txt", b"on main")
    repo = client(github).get_repo(REPO)
    with pytest.raises(UnknownObjectException):
        repo.get_contents("a.txt", ref=BASE)
    with pytest.raises(UnknownObjectException):
        repo.get_contents("missing.txt")
    found = repo.get_contents("a.txt")
    assert not isinstance(found, list) and found.decoded_content == b"on main"


def test_contents_directory_listing_and_blob(github: GitHubDouble) -> None:
    github.add_content(REPO, BASE, "docs/a.md", b"A")
    github.add_content(REPO, BASE, "docs/sub/b.md", b"B")
    repo = client(github).get_repo(REPO)
    listing = repo.get_contents("docs", ref=BASE)
    assert isinstance(listing, list)
    assert [(c.name, c.type) for c in listing] == [("a.md", "file"), ("sub", "dir")]
    blob = repo.get_git_blob(subprocess_blob_sha(b"B"))
    assert blob.encoding == "base64" and blob.size == 1


def test_large_content_comes_back_without_inline_bytes(github: GitHubDouble) -> None:
    github.add_content(REPO, BASE, "big.bin", b"x" * (1024 * 1024 + 1))
    status, _, body = raw(github, "GET", f"/repos/{REPO}/contents/big.bin?ref={BASE}")
    assert status == 200
    assert (body["encoding"], body["content"], body["size"]) == ("none", "", 1024 * 1024 + 1)


# ------------------------------------------------------------------ check runs


def test_check_run_create_then_edit_accumulates_annotations(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    repo = client(github).get_repo(REPO)
    run = repo.create_check_run(
        name="blast-radius",
        head_sha=HEAD,
        status="in_progress",
        output={
            "title": "judging",
            "summary": "| rule | result |",
            "annotations": [annotation(f"f{i}.py") for i in range(50)],
        },
    )
    assert (run.name, run.status, run.head_sha) == ("blast-radius", "in_progress", HEAD)
    run.edit(
        conclusion="failure",
        output={
            "title": "Failed: paths.allowed",
            "summary": "table",
            "text": "details",
            "annotations": [annotation("g.py", 3, "warning")],
        },
    )
    assert run.conclusion == "failure" and run.status == "completed"
    (stored,) = github.check_runs
    assert stored["annotation_batches"] == [50, 1]
    assert len(stored["output"]["annotations"]) == 51
    assert stored["output"]["annotations"][-1]["path"] == "g.py"
    assert stored["output"]["title"] == "Failed: paths.allowed"
    assert (stored["status"], stored["conclusion"]) == ("completed", "failure")
    assert stored["completed_at"] is not None
    assert len(stored["posted"]) == 2
    fetched = repo.get_check_run(run.id)
    assert fetched.output.annotations_count == 51


def test_51_annotations_in_one_request_are_refused(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    repo = client(github).get_repo(REPO)
    with pytest.raises(GithubException) as caught:
        repo.create_check_run(
            name="blast-radius",
            head_sha=HEAD,
            conclusion="failure",
            output={
                "title": "t",
                "summary": "s",
                "annotations": [annotation(f"f{i}.py") for i in range(51)],
            },
        )
    assert caught.value.status == 422
    assert github.check_runs == []
    (violation,) = github.take_violations()
    assert "POST /repos/octo/repo/check-runs" in violation
    assert "annotations" in violation


@pytest.mark.parametrize(
    ("output", "needle"),
    [
        ({"title": "t", "summary": "x" * 65536}, "summary"),
        ({"title": "t", "summary": "s", "text": "x" * 65536}, "text"),
        ({"summary": "s"}, "title"),
        ({"title": "t"}, "summary"),
        ({"title": "t", "summary": "s", "annotations": [{"path": "a"}]}, "start_line"),
        (
            {
                "title": "t",
                "summary": "s",
                "annotations": [annotation("a") | {"annotation_level": "fatal"}],
            },
            "annotation_level",
        ),
        (
            {
                "title": "t",
                "summary": "s",
                "annotations": [annotation("a") | {"end_line": 2, "start_column": 1}],
            },
            "columns",
        ),
    ],
)
def test_check_run_output_limits(github: GitHubDouble, output: dict[str, Any], needle: str) -> None:
    github.add_repo(REPO)
    status, _, _ = raw(
        github,
        "POST",
        f"/repos/{REPO}/check-runs",
        {"name": "blast-radius", "head_sha": HEAD, "output": output},
    )
    assert status == 422
    (violation,) = github.take_violations()
    assert needle in violation


def test_check_run_edit_output_needs_title(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    run = client(github).get_repo(REPO).create_check_run(name="blast-radius", head_sha=HEAD)
    with pytest.raises(GithubException) as caught:
        run.edit(conclusion="success", output={"summary": "no title"})
    assert caught.value.status == 422
    assert "output.title is required" in github.take_violations()[0]
    assert github.check_runs[0]["status"] == "queued"


def test_check_run_completed_needs_conclusion(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    status, _, _ = raw(
        github,
        "POST",
        f"/repos/{REPO}/check-runs",
        {"name": "n", "head_sha": HEAD, "status": "completed"},
    )
    assert status == 422
    assert "conclusion" in github.take_violations()[0]


# ------------------------------------------------------------------ comments


def test_comments_create_list_edit(github: GitHubDouble) -> None:
    github.add_pull(REPO, 9, base_sha=BASE, head_sha=HEAD)
    for i in range(120):
        github.add_comment(REPO, 9, f"chatter {i}")
    old = github.add_comment(
        REPO, 9, "<!-- blast-radius -->\nold verdict", user="github-actions[bot]"
    )
    pull = client(github).get_repo(REPO).get_pull(9)
    listed = list(pull.get_issue_comments())
    assert len(listed) == 121
    assert sum(1 for r in github.requests if r.path.endswith("/comments")) == 2
    (mine,) = [c for c in listed if c.body.startswith("<!-- blast-radius -->")]
    assert (mine.id, mine.user.login) == (old, "github-actions[bot]")
    mine.edit("<!-- blast-radius -->\nnew verdict")
    created = pull.create_issue_comment("second <script>@team</script>")
    assert created.user.login == github.token_user
    bodies = {c["id"]: c["body"] for c in github.comments_on(REPO, 9)}
    assert bodies[old] == "<!-- blast-radius -->\nnew verdict"
    assert bodies[created.id] == "second <script>@team</script>"
    assert len(github.comments) == 122


def test_comment_body_over_65536_is_refused(github: GitHubDouble) -> None:
    github.add_pull(REPO, 9, base_sha=BASE, head_sha=HEAD)
    pull = client(github).get_repo(REPO).get_pull(9)
    with pytest.raises(GithubException) as caught:
        pull.create_issue_comment("x" * 65537)
    assert caught.value.status == 422
    assert "65536" in github.take_violations()[0]
    assert github.comments == []


# ------------------------------------------------------------------ validation


def test_schema_invalid_body_is_caught(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    status, _, body = raw(
        github, "POST", f"/repos/{REPO}/check-runs", {"name": "x", "head_sha": 12345}
    )
    assert status == 422
    assert "head_sha" in body["message"]
    (violation,) = github.take_violations()
    assert (
        violation
        == "POST /repos/octo/repo/check-runs: body head_sha: 12345 is not of type 'string'"
    )


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "needle"),
    [
        ("GET", "/repos/octo/repo/pulls", None, 404, "no such operation"),
        ("DELETE", "/repos/octo/repo", None, 404, "method not served"),
        ("GET", "/repos/octo/repo/pulls/1/files?per_page=abc", None, 422, "per_page"),
        ("GET", "/repos/octo/repo/pulls/1/files?sort=asc", None, 422, "'sort' unknown"),
        ("GET", "/repos/octo/repo/pulls/one", None, 422, "pull_number"),
        ("POST", "/repos/octo/repo/issues/1/comments", {"text": "x"}, 422, "body"),
        ("POST", "/repos/octo/repo/issues/1/comments", None, 422, "required body"),
        ("GET", "/repos/octo/repo", {"x": 1}, 422, "bodiless"),
        (
            "PATCH",
            "/repos/octo/repo/check-runs/1",
            {"status": "done"},
            422,
            "status",
        ),
    ],
)
def test_requests_outside_the_description_are_violations(
    github: GitHubDouble, method: str, path: str, body: Any, status: int, needle: str
) -> None:
    github.add_pull(REPO, 1, base_sha=BASE, head_sha=HEAD)
    got, _, _ = raw(github, method, path, body)
    assert got == status
    (violation,) = github.take_violations()
    assert needle in violation


@pytest.mark.parametrize(
    ("headers", "status", "violation"),
    [
        ({"Authorization": "token wrong"}, 401, False),
        ({"Authorization": f"Bearer {DEFAULT_TOKEN}"}, 200, False),
        ({"Authorization": f"Basic {DEFAULT_TOKEN}"}, 401, True),
        ({"Accept": "text/html"}, 415, True),
        ({"Accept": "application/vnd.github+json"}, 200, False),
        ({"X-GitHub-Api-Version": "latest"}, 400, True),
        ({"X-GitHub-Api-Version": "2022-11-28"}, 200, False),
    ],
)
def test_headers_are_checked(
    github: GitHubDouble, headers: dict[str, str], status: int, violation: bool
) -> None:
    github.add_repo(REPO)
    got, _, _ = raw(github, "GET", f"/repos/{REPO}", headers=headers)
    assert got == status
    assert bool(github.take_violations()) is violation


def test_missing_authorization_is_401_and_violation(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    request = urllib.request.Request(f"{github.url}/repos/{REPO}")
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=30)
    assert caught.value.code == 401
    assert "no Authorization header" in github.take_violations()[0]


def test_bad_token_with_pygithub_is_401(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    with pytest.raises(BadCredentialsException):
        client(github, token="ghs_not_the_token").get_repo(REPO)
    assert [r.status for r in github.requests] == [401]
    assert github.violations == []


def test_double_validates_its_own_responses(github: GitHubDouble) -> None:
    github.add_pull(REPO, 1, base_sha=BASE, head_sha=HEAD, files=files(1, status="bogus"))
    list(client(github).get_repo(REPO).get_pull(1).get_files())
    (violation,) = github.take_violations()
    assert "double's own response breaks the schema" in violation
    assert "bogus" in violation


# ------------------------------------------------------------------ faults


def test_502_once_then_success_is_retried_by_pygithub(github: GitHubDouble) -> None:
    github.add_pull(REPO, 1, base_sha=BASE, head_sha=HEAD)
    github.fail_next("GET", r"/pulls/1$", 502)
    pull = client(github).get_repo(REPO).get_pull(1)
    assert pull.number == 1
    assert [(r.path, r.status) for r in github.requests] == [
        (f"/repos/{REPO}", 200),
        (f"/repos/{REPO}/pulls/1", 502),
        (f"/repos/{REPO}/pulls/1", 200),
    ]


def test_502_without_retries_surfaces(github: GitHubDouble) -> None:
    github.add_repo(REPO)
    github.fail_next("GET", r"^/repos/octo/repo$", 502, times=2)
    gh = client(github, retry=None)
    with pytest.raises(GithubException) as caught:
        gh.get_repo(REPO)
    assert caught.value.status == 502
    with pytest.raises(GithubException):
        gh.get_repo(REPO)
    assert gh.get_repo(REPO).full_name == REPO


def test_patch_is_not_retried_by_pygithub(github: GitHubDouble) -> None:
    """PyGithub's default retry covers GET and POST, not PATCH: a 502 on edit surfaces."""
    github.add_repo(REPO)
    run = client(github).get_repo(REPO).create_check_run(name="n", head_sha=HEAD)
    github.fail_next("PATCH", r"/check-runs/", 502)
    with pytest.raises(GithubException) as caught:
        run.edit(conclusion="success")
    assert caught.value.status == 502
    assert github.check_runs[0]["status"] == "queued"
    run.edit(conclusion="success")
    assert github.check_runs[0]["conclusion"] == "success"


def test_secondary_rate_limit_with_retry_after(github: GitHubDouble) -> None:
    github.add_pull(REPO, 1, base_sha=BASE, head_sha=HEAD)
    github.fail_next(
        "POST",
        r"/check-runs$",
        403,
        headers={"Retry-After": "0"},
        body={"message": "You have exceeded a secondary rate limit."},
    )
    run = client(github).get_repo(REPO).create_check_run(name="n", head_sha=HEAD)
    assert run.id == github.check_runs[0]["id"]
    assert [r.status for r in github.requests if r.method == "POST"] == [403, 201]


def test_fail_always_read_only_token(github: GitHubDouble) -> None:
    github.add_pull(REPO, 1, base_sha=BASE, head_sha=HEAD)
    github.fail_always("POST", r".", 403)
    github.fail_always("PATCH", r".", 403)
    repo = client(github).get_repo(REPO)
    for _ in range(2):
        with pytest.raises(GithubException) as caught:
            repo.create_check_run(name="n", head_sha=HEAD)
        assert caught.value.status == 403
        assert caught.value.data["message"] == "Resource not accessible by integration"
    assert github.check_runs == []
    assert repo.get_pull(1).number == 1


# ------------------------------------------------------------------ the whole conversation


def test_typical_gate_conversation_request_count(github: GitHubDouble) -> None:
    """What one gate run costs with PyGithub: 10 requests for a 250-file PR."""
    github.add_pull(REPO, 7, base_sha=BASE, head_sha=HEAD, files=files(250))
    github.add_content(REPO, BASE, ".github/blast-radius.yml", b"rules: []\n")
    repo = client(github).get_repo(REPO)
    pull = repo.get_pull(7)
    assert len(list(pull.get_files())) == 250
    repo.get_contents(".github/blast-radius.yml", ref=pull.base.sha)
    run = repo.create_check_run(name="blast-radius", head_sha=pull.head.sha, status="in_progress")
    run.edit(conclusion="success", output={"title": "Passed", "summary": "all rules pass"})
    existing = [c for c in pull.get_issue_comments() if "<!-- blast-radius -->" in c.body]
    assert existing == []
    pull.create_issue_comment("<!-- blast-radius -->\npassed")
    assert [(r.method, r.path.replace(f"/repos/{REPO}", "")) for r in github.requests] == [
        ("GET", ""),
        ("GET", "/pulls/7"),
        ("GET", "/pulls/7/files"),
        ("GET", "/pulls/7/files"),
        ("GET", "/pulls/7/files"),
        ("GET", "/contents/.github/blast-radius.yml"),
        ("POST", "/check-runs"),
        ("PATCH", f"/check-runs/{run.id}"),
        ("GET", "/issues/7/comments"),
        ("POST", "/issues/7/comments"),
    ]


def test_prefix_like_enterprise_server() -> None:
    with GitHubDouble(prefix="/api/v3") as double:
        double.add_repo(REPO)
        repo = client(double).get_repo(REPO)
        assert double.url.endswith("/api/v3")
        assert repo.url == f"{double.url}/repos/{REPO}"
        assert not repo.html_url.startswith(double.url)
        assert double.violations == []


# ------------------------------------------------------------------ the subset and the fixture


def test_subset_names_its_source_and_every_operation_is_served() -> None:
    subset = OpenApiSubset()
    assert subset.source["package"] == "@octokit/openapi"
    assert subset.source["version"]
    assert len(subset.source["sha256"]) == 64
    for op in subset.operations:
        handler = "_op_" + op.spec["operationId"].replace("/", "_").replace("-", "_")
        assert hasattr(GitHubDouble, handler), op.template
    license_text = (HERE / "github_api" / "LICENSE-octokit-openapi").read_text(encoding="utf-8")
    assert "MIT" in license_text or "Permission is hereby granted" in license_text


def test_fixture_fails_a_test_that_leaves_violations(tmp_path: Path) -> None:
    test_file = tmp_path / "test_violating.py"
    test_file.write_text(
        textwrap.dedent(
            """
            import urllib.error, urllib.request
            pytest_plugins = ["github_api.fixtures"]

            def test_sends_nonsense(github):
                request = urllib.request.Request(
                    github.url + "/no/such/route",
                    headers={"Authorization": "token " + github.token},
                )
                try:
                    urllib.request.urlopen(request, timeout=30)
                except urllib.error.HTTPError:
                    pass
            """
        ),
        encoding="utf-8",
    )
    env = dict(os.environ, PYTHONPATH=str(HERE))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 passed, 1 error" in result.stdout
    assert "GitHub API double recorded 1 violation" in result.stdout
    assert "no such operation in the subset" in result.stdout


def test_a_fault_after_the_operation_keeps_its_effect(github: GitHubDouble) -> None:
    """`after=True`: the check run is made, then the answer is a 502."""
    github.add_repo(REPO)
    github.fail_next("POST", r"/check-runs$", 502, after=True)
    repo = client(github, retry=None, lazy=True).get_repo(REPO)  # lazy: no GET commit
    with pytest.raises(GithubException) as caught:
        repo.create_check_run(name="blast-radius", head_sha=HEAD, external_id="x1")
    assert caught.value.status == 502
    assert [r["external_id"] for r in github.check_runs] == ["x1"]
    listed = list(repo.get_commit(HEAD).get_check_runs(check_name="blast-radius"))
    assert [r.external_id for r in listed] == ["x1"]
    assert list(repo.get_commit(HEAD).get_check_runs(check_name="other")) == []


def test_compare_serves_the_files_of_each_pushed_head(github: GitHubDouble) -> None:
    """After a push the PR lists the new head's files; the compare API still
    answers the old pair with the old files, at most 300."""
    github.add_pull(REPO, 1, base_sha=BASE, head_sha=HEAD, files=files(350))
    new = "c" * 40
    github.set_pull_head(REPO, 1, new, files=files(2))
    repo = client(github).get_repo(REPO)
    old = repo.compare(BASE, HEAD).raw_data
    assert len(old["files"]) == 300
    assert len(repo.compare(BASE, new).raw_data["files"]) == 2
    assert len(list(repo.get_pull(1).get_files())) == 2
