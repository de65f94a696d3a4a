"""A local GitHub REST API double over real HTTP, checked against GitHub's OpenAPI description.

The double is a ``ThreadingHTTPServer`` on 127.0.0.1 (an ephemeral port) that serves the
operations in ``openapi_subset.json`` (extracted from the ``@octokit/openapi`` npm package by
``extract_openapi.py``).  Every request is matched to an operation by method and path template
and validated: headers (Authorization, User-Agent, Accept), path and query parameters, and the
JSON body against the operation's ``requestBody`` schema (OpenAPI 3.0 ``nullable`` translated to
JSON Schema 2020-12).  Anything wrong is answered the way GitHub answers (404/401/422/...) AND
recorded in ``violations`` so that a test fails even if the client swallowed the error.

Every response body is built from the operation's 2xx response schema (required fields filled
in, then the double's real values laid over them) and validated against that schema too; a
response that does not match is recorded as a violation of the double itself.

Test code drives state through plain methods (``add_repo``, ``add_pull``, ``add_content``,
``add_comment``, ``set_pull_head``) and reads what the client did from ``check_runs``,
``comments`` and ``requests``.  Faults are injected with ``fail_next`` / ``fail_always``.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import hashlib
import json
import math
import posixpath
import re
import threading
import time
import traceback
import urllib.parse
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SUBSET_PATH = Path(__file__).resolve().parent / "openapi_subset.json"
SUBSET_URI = "urn:github-openapi-subset"
DOCS = "https://docs.github.com/rest"
DEFAULT_TOKEN = "ghs_doubleToken0123456789abcdefABCDEF0123"
TOKEN_USER = "github-actions[bot]"
# Who the workflow token is: GitHub Actions' app and its bot user (the ids
# github.com gives them), the author of what the token creates.
TOKEN_USER_ID = 41898282
TOKEN_APP = {"id": 15368, "slug": "github-actions", "name": "GitHub Actions"}
# The legacy `permission` a collaborator role reads as (maintain reads as
# write, triage as read), and the booleans of a collaborator's `permissions`.
ROLES = ("read", "triage", "write", "maintain", "admin")
LEGACY_PERMISSION = {
    "read": "read",
    "triage": "read",
    "write": "write",
    "maintain": "write",
    "admin": "admin",
    "none": "none",
}
CLOCK_START = 1767225600  # 2026-01-01T00:00:00Z

# GitHub limits that the description states only in prose (or not at all).
MAX_ANNOTATIONS_PER_REQUEST = 50
MAX_OUTPUT_TEXT = 65535
MAX_ANNOTATION_MESSAGE = 64 * 1024
MAX_ANNOTATION_TITLE = 255
MAX_COMMENT_BODY = 65536
MAX_PULL_FILES = 3000
MAX_COMPARE_FILES = 300  # the compare API lists at most 300 files for a comparison
MAX_PER_PAGE = 100
DEFAULT_PER_PAGE = 30
CONTENT_INLINE_LIMIT = 1024 * 1024  # larger files come back with encoding "none"
API_VERSION_RE = re.compile(r"\A\d{4}-\d{2}-\d{2}\Z")
SANE_ACCEPT_RE = re.compile(
    r"\A(\*/\*|application/(\*|json|vnd\.github(\.[a-z0-9-]+)?(\.[a-z0-9-]+)?(\+json)?))\Z"
)
REASONS = {
    200: "OK",
    201: "Created",
    204: "No Content",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    415: "Unsupported Media Type",
    422: "Unprocessable Entity",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}
FAULT_MESSAGES = {
    401: "Bad credentials",
    403: "Resource not accessible by integration",
    404: "Not Found",
    409: "Conflict",
    422: "Validation Failed",
    429: "API rate limit exceeded",
    500: "Internal Server Error",
    502: "Server Error",
    503: "Service Unavailable",
}


class RecordedRequest(NamedTuple):
    """One request as the double saw it: ``(method, path, query, json_body, status)``."""

    method: str
    path: str
    query: dict[str, str]
    json_body: Any
    status: int


class ApiError(Exception):
    """Answer the current request with ``status``; ``violation`` also records it."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        violation: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.violation = violation
        self.headers = dict(headers or {})


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    remaining: int | None  # None: forever
    headers: dict[str, str]
    body: Any
    after: bool = False  # answer with the fault after the operation took effect


@dataclass
class Operation:
    method: str
    template: str
    regex: re.Pattern[str]
    spec: dict[str, Any]
    parameters: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Pull:
    full_name: str
    number: int
    base_sha: str
    head_sha: str
    merge_base_sha: str
    base_ref: str
    head_ref: str
    user: str
    labels: tuple[str, ...]
    title: str
    body: str
    files: list[dict[str, Any]]
    changed_files: int
    head_full_name: str
    state: str
    draft: bool


@dataclass
class Comparison:
    """What the compare API answers for one ``<base_sha>...<head_sha>``."""

    number: int  # the pull request it was registered for
    merge_base_sha: str
    files: list[dict[str, Any]]
    # (sha, parent shas) of each commit of base..head; None: one commit, the
    # head, whose parent is the merge base (or none when head is the merge base).
    commits: list[tuple[str, list[str]]] | None = None


# ---------------------------------------------------------------- OpenAPI handling


def _openapi_to_jsonschema(node: Any, *, in_properties: bool = False) -> Any:
    """Translate OpenAPI 3.0 schema dialect to JSON Schema 2020-12 (``nullable``, ``$ref``)."""
    if isinstance(node, list):
        return [_openapi_to_jsonschema(item) for item in node]
    if not isinstance(node, dict):
        return node
    if in_properties:
        return {key: _openapi_to_jsonschema(value) for key, value in node.items()}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and value.startswith("#/"):
            out[key] = SUBSET_URI + value
        else:
            out[key] = _openapi_to_jsonschema(value, in_properties=(key == "properties"))
    if out.pop("nullable", False) is True:
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            return {"anyOf": [out, {"type": "null"}]}
    return out


def _pointer(doc: Mapping[str, Any], ref: str) -> Any:
    if not ref.startswith(SUBSET_URI + "#/"):
        raise KeyError(ref)
    node: Any = doc
    for part in ref[len(SUBSET_URI) + 2 :].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def _template_regex(template: str) -> re.Pattern[str]:
    parts = []
    segments = template.strip("/").split("/")
    for index, segment in enumerate(segments):
        match = re.fullmatch(r"\{(\w+)\}", segment)
        if match is None:
            parts.append(re.escape(segment))
        elif index == len(segments) - 1 and match.group(1) == "path":
            parts.append(f"(?P<{match.group(1)}>.*)")  # contents paths span segments
        elif index == len(segments) - 1 and match.group(1) in ("ref", "basehead"):
            parts.append(f"(?P<{match.group(1)}>.+)")  # branch names may hold '/'
        else:
            parts.append(f"(?P<{match.group(1)}>[^/]+)")
    return re.compile("/" + "/".join(parts))


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _error_text(error: jsonschema.ValidationError) -> str:
    where = "/".join(str(part) for part in error.absolute_path) or "(root)"
    return f"{where}: {_short(error.message)}"


class OpenApiSubset:
    """The extracted description: operations, validators and response synthesis."""

    def __init__(self, path: Path = SUBSET_PATH) -> None:
        raw = json.loads(path.read_text(encoding="utf-8"))
        self.source = dict(raw["info"].get("x-source", {}))
        self.doc: dict[str, Any] = _openapi_to_jsonschema(raw)
        resource = DRAFT202012.create_resource(self.doc)
        self.registry: Registry[Any] = Registry().with_resource(SUBSET_URI, resource)
        self.operations: list[Operation] = []
        for template, methods in sorted(self.doc["paths"].items()):
            for method, spec in sorted(methods.items()):
                op = Operation(method.upper(), template, _template_regex(template), spec)
                op.parameters = [self.deref(p) for p in spec.get("parameters", [])]
                self.operations.append(op)
        self._validators: dict[tuple[str, str, str], Draft202012Validator] = {}
        self._lock = threading.Lock()

    def deref(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            node = _pointer(self.doc, node["$ref"])
        return node

    def match(self, method: str, raw_path: str) -> tuple[Operation | None, dict[str, str], bool]:
        """Return (operation, raw path params, whether the path exists for another method)."""
        path_known = False
        # the longest template first: `commits/{ref}/check-runs` before `commits/{ref}`,
        # whose last parameter may span segments (branch names hold '/')
        for op in sorted(self.operations, key=lambda o: -o.template.count("/")):
            found = op.regex.fullmatch(raw_path)
            if found is None:
                continue
            path_known = True
            if op.method == method:
                return op, found.groupdict(), True
        return None, {}, path_known

    def validator(self, op: Operation, kind: str) -> Draft202012Validator | None:
        key = (op.method, op.template, kind)
        with self._lock:
            if key in self._validators:
                return self._validators[key]
            schema: Any = None
            if kind == "request":
                body = op.spec.get("requestBody")
                if body is not None:
                    schema = body["content"]["application/json"]["schema"]
            else:
                content = op.spec["responses"].get(kind, {}).get("content", {})
                schema = content.get("application/json", {}).get("schema")
            validator = None
            if schema is not None:
                checker = Draft202012Validator.FORMAT_CHECKER if kind == "request" else None
                validator = Draft202012Validator(
                    schema, registry=self.registry, format_checker=checker
                )
            self._validators[key] = validator  # type: ignore[assignment]
            return validator

    def webhook_schema(self, name: str) -> Any:
        """The payload schema of webhook ``name`` (e.g. ``merge-group-checks-requested``)."""
        hook = self.doc["x-webhooks"][name]["post"]
        return hook["requestBody"]["content"]["application/json"]["schema"]

    def webhook_errors(self, name: str, payload: Any) -> list[str]:
        """Why ``payload`` is not a valid ``name`` webhook payload (empty: it is)."""
        validator = Draft202012Validator(
            self.webhook_schema(name),
            registry=self.registry,
            format_checker=Draft202012Validator.FORMAT_CHECKER,
        )
        return [
            f"{'/'.join(str(p) for p in e.absolute_path) or '<root>'}: {e.message}"
            for e in validator.iter_errors(payload)
        ]

    def response_schema(self, op: Operation, status: str) -> Any:
        content = op.spec["responses"].get(status, {}).get("content", {})
        return content.get("application/json", {}).get("schema")

    def synthesize(self, schema: Any, name: str, base: str, depth: int = 0) -> Any:
        """A minimal instance holding every required field of ``schema``."""
        schema = self.deref(schema)
        if depth > 12 or not isinstance(schema, dict):
            return None
        if "allOf" in schema:
            merged: dict[str, Any] = {}
            for part in schema["allOf"]:
                value = self.synthesize(part, name, base, depth + 1)
                if isinstance(value, dict):
                    merged.update(value)
            return merged
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = [self.deref(o) for o in schema[key]]
                if any(o.get("type") == "null" for o in options):
                    return None
                return self.synthesize(options[0], name, base, depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            if "null" in kind:
                return None
            kind = kind[0]
        if "enum" in schema:
            return schema["enum"][0]
        if kind == "object" or "properties" in schema:
            props = schema.get("properties", {})
            return {
                key: self.synthesize(props.get(key, {}), key, base, depth + 1)
                for key in schema.get("required", [])
            }
        if kind == "array":
            return []
        if kind == "integer" or kind == "number":
            return 0
        if kind == "boolean":
            return False
        if kind == "string":
            if schema.get("format") == "date-time":
                return "2026-01-01T00:00:00Z"
            if name.endswith("url") or schema.get("format") == "uri":
                return f"{base}/unused/{name}"
            return ""
        return None


# ---------------------------------------------------------------- helpers


def _deep_merge(base: Any, overlay: Any) -> Any:
    if isinstance(base, dict) and isinstance(overlay, dict):
        out = dict(base)
        for key, value in overlay.items():
            out[key] = _deep_merge(base.get(key), value) if key in base else value
        return out
    return overlay


def _git_blob_sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _fake_sha(*parts: str) -> str:
    return hashlib.sha1("\0".join(parts).encode("utf-8")).hexdigest()


def _ascii_lower(login: str) -> str:
    """A login as GitHub compares it: ASCII letters in any case, nothing else folded."""
    return login.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _stable_id(text: str) -> int:
    return zlib.crc32(text.encode("utf-8")) % 90_000_000 + 10_000_000


def _b64_wrapped(data: bytes) -> str:
    encoded = base64.b64encode(data).decode("ascii")
    return "".join(encoded[i : i + 60] + "\n" for i in range(0, len(encoded), 60))


def _coerce(value: str, schema: Mapping[str, Any]) -> Any:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "integer":
        if re.fullmatch(r"-?\d+", value):
            return int(value)
        return value  # left as a string so the schema check names the type error
    if kind == "boolean" and value in ("true", "false"):
        return value == "true"
    return value


# ---------------------------------------------------------------- the double


class GitHubDouble:
    """GitHub's REST API for one test: state, validation, faults, request log."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        prefix: str = "",
        subset_path: Path = SUBSET_PATH,
    ) -> None:
        self.token = token
        self.prefix = prefix.rstrip("/")
        self.openapi = OpenApiSubset(subset_path)
        self.violations: list[str] = []
        self.requests: list[RecordedRequest] = []
        self.check_runs: list[dict[str, Any]] = []
        self.comments: list[dict[str, Any]] = []
        # Reviews per pull request, oldest first; kept across add_pull (a push).
        self.reviews: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.repos: dict[str, dict[str, Any]] = {}
        self.pulls: dict[tuple[str, int], Pull] = {}
        self.comparisons: dict[tuple[str, str, str], Comparison] = {}
        self.contents: dict[tuple[str, str, str], bytes] = {}
        self.links: dict[tuple[str, str, str], str] = {}  # a symlink's target, as git stores it
        self.token_user = TOKEN_USER
        # "app": an installation token (GitHub Actions' or an app's), which
        # creates check runs and cannot read GET /user; "user": a personal
        # access token, the other way round.
        self.token_kind = "app"
        self.token_app: dict[str, Any] = dict(TOKEN_APP)
        # People and bots by id: {"login", "type"}; logins resolve ASCII case-insensitively.
        self.users: dict[int, dict[str, Any]] = {}
        # Collaborator roles per (repository, user id): read, triage, write,
        # maintain, admin or a custom role name ("custom:BASE" reads as BASE).
        self.roles: dict[tuple[str, int], str] = {}
        # Issue events per (repository, number), oldest first.
        self.issue_events: dict[tuple[str, int], list[dict[str, Any]]] = {}
        # The GitHub users a commit's author and committer resolve to, by (repository, sha).
        self.commit_people: dict[tuple[str, str], tuple[str | None, str | None]] = {}
        # Listings that answer a "next" link to themselves (a loop), by path regex.
        self.looping: list[re.Pattern[str]] = []
        self._raw_answers: list[tuple[str, re.Pattern[str], int, bytes]] = []
        self._hooks: list[tuple[str, re.Pattern[str], Callable[[], None], list[int]]] = []
        self._faults: list[Fault] = []
        self._lock = threading.RLock()
        self._next_id = 1000
        self._tick = 0
        self.add_user(TOKEN_USER, user_id=TOKEN_USER_ID, user_type="Bot")
        from github_api.graphql_api import GraphQLApi

        self.graphql = GraphQLApi(self)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    # ------------------------------------------------------------ lifecycle

    def start(self) -> GitHubDouble:
        if self._server is not None:
            return self
        handler = type("BoundHandler", (_Handler,), {"double": self})
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        self._server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}{self.prefix}"
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="github-double",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = None
        self._thread = None

    def __enter__(self) -> GitHubDouble:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def web_url(self) -> str:
        """Where ``html_url`` values point (the server root, like GitHub Enterprise Server)."""
        return self.url[: len(self.url) - len(self.prefix)] if self.prefix else self.url

    # ------------------------------------------------------------ state control

    def add_repo(
        self, full_name: str = "octo/repo", *, default_branch: str = "main", private: bool = False
    ) -> None:
        owner, _, name = full_name.partition("/")
        if not owner or not name or "/" in name:
            raise ValueError(f"repository full name must be owner/name: {full_name!r}")
        with self._lock:
            self.repos[full_name] = {
                "full_name": full_name,
                "default_branch": default_branch,
                "private": private,
            }

    def add_pull(
        self,
        full_name: str,
        number: int,
        *,
        base_sha: str,
        head_sha: str,
        base_ref: str = "main",
        head_ref: str = "feature",
        user: str = "copilot-swe-agent[bot]",
        labels: Iterable[str] = (),
        title: str = "Agent change",
        files: Sequence[Mapping[str, Any]] = (),
        changed_files: int | None = None,
        body: str = "",
        head_full_name: str | None = None,
        state: str = "open",
        draft: bool = False,
        merge_base_sha: str | None = None,
        commits: Sequence[tuple[str, Sequence[str]]] | None = None,
    ) -> None:
        """A pull request; ``head_full_name`` names a fork for the head (default: same repo).

        ``commits``: the (sha, parent shas) the compare API lists for base..head
        (default: the head alone, its parent the merge base).

        ``merge_base_sha`` is where the head forked from the base branch (default:
        ``base_sha``, a base that has not moved on); the compare API answers
        ``<base_sha>...<head_sha>`` with it."""
        if full_name not in self.repos:
            self.add_repo(full_name)
        checked = []
        for entry in files:
            item = dict(entry)
            for key in ("filename", "status", "additions", "deletions", "changes"):
                if key not in item:
                    raise ValueError(f"file entry needs {key!r}: {entry!r}")
            checked.append(item)
        with self._lock:
            self.pulls[(full_name, number)] = Pull(
                full_name=full_name,
                number=number,
                base_sha=base_sha,
                head_sha=head_sha,
                merge_base_sha=merge_base_sha or base_sha,
                base_ref=base_ref,
                head_ref=head_ref,
                user=user,
                labels=tuple(labels),
                title=title,
                body=body,
                files=checked,
                changed_files=len(checked) if changed_files is None else changed_files,
                head_full_name=head_full_name or full_name,
                state=state,
                draft=draft,
            )
            self.comparisons[(full_name, base_sha, head_sha)] = Comparison(
                number=number,
                merge_base_sha=merge_base_sha or base_sha,
                files=checked,
                commits=None if commits is None else [(c, list(ps)) for c, ps in commits],
            )

    def set_pull_head(
        self,
        full_name: str,
        number: int,
        head_sha: str,
        files: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        """Simulate a push to the PR's head branch; ``files`` (default: the
        same) is the new head's listing.  The compare API still answers the
        old pair of shas with the old files."""
        with self._lock:
            pull = self.pulls[(full_name, number)]
            pull.head_sha = head_sha
            if files is not None:
                pull.files = [dict(f) for f in files]
                pull.changed_files = len(pull.files)
            self.comparisons[(full_name, pull.base_sha, head_sha)] = Comparison(
                number=number, merge_base_sha=pull.merge_base_sha, files=pull.files
            )

    def add_content(self, full_name: str, ref: str, path: str, data: bytes) -> None:
        """A file served by the contents API at ``?ref=<ref>`` (sha or branch, matched literally;
        a request without ``ref`` reads the default branch)."""
        if full_name not in self.repos:
            self.add_repo(full_name)
        with self._lock:
            self.contents[(full_name, ref, path.strip("/"))] = bytes(data)

    def add_symlink(self, full_name: str, ref: str, path: str, target: str) -> None:
        """A symlink at `path` to `target` (relative to its folder).  The contents
        API answers for a link to a file of the repository with that file (its
        own `path`), as GitHub documents; for any other link, with the link."""
        if full_name not in self.repos:
            self.add_repo(full_name)
        with self._lock:
            self.links[(full_name, ref, path.strip("/"))] = target

    def add_user(
        self, login: str, *, user_id: int | None = None, user_type: str | None = None
    ) -> int:
        """A GitHub account (default id: derived from the login; type: Bot for
        a ``[bot]`` login, else User); returns its id.  A login already held
        by another account is refused, as GitHub refuses it."""
        with self._lock:
            held = self.user_id(login)
            if held is not None:
                if user_id is None or user_id == held:
                    return held
                raise ValueError(f"login {login!r} is held by user {held}")
            new_id = _stable_id("user:" + login) if user_id is None else user_id
            if new_id in self.users:
                raise ValueError(f"user id {new_id} exists")
            kind = user_type or ("Bot" if login.endswith("[bot]") else "User")
            self.users[new_id] = {"login": login, "type": kind}
            return new_id

    def user_id(self, login: str) -> int | None:
        """The id of the account whose login is ``login`` in any ASCII letter case."""
        key = _ascii_lower(login)
        with self._lock:
            return next((i for i, u in self.users.items() if _ascii_lower(u["login"]) == key), None)

    def rename_user(self, login: str, new_login: str) -> None:
        """The account renames itself: its reviews and comments show the new login,
        and the old one is free for anyone to take."""
        with self._lock:
            user_id = self.user_id(login)
            if user_id is None:
                raise KeyError(login)
            if self.user_id(new_login) not in (None, user_id):
                raise ValueError(f"login {new_login!r} is taken")
            self.users[user_id]["login"] = new_login

    def grant(self, full_name: str, login: str, role: str | None) -> None:
        """Give ``login`` a collaborator role on ``full_name`` (read, triage,
        write, maintain, admin, or ``custom:BASE``); None takes it away."""
        user_id = self.add_user(login)
        with self._lock:
            if role is None:
                self.roles.pop((full_name, user_id), None)
            else:
                self.roles[(full_name, user_id)] = role

    def change_base(
        self,
        full_name: str,
        number: int,
        base_ref: str,
        base_sha: str,
        *,
        actor: str = "maintainer",
    ) -> None:
        """A person edits the pull request to target ``base_ref``: its base
        changes and a ``base_ref_changed`` issue event is recorded."""
        with self._lock:
            pull = self.pulls[(full_name, number)]
            pull.base_ref, pull.base_sha, pull.merge_base_sha = base_ref, base_sha, base_sha
            self.comparisons[(full_name, base_sha, pull.head_sha)] = Comparison(
                number=number, merge_base_sha=base_sha, files=pull.files
            )
            self.add_issue_event(full_name, number, "base_ref_changed", actor=actor)

    def add_issue_event(
        self, full_name: str, number: int, event: str, *, actor: str = "maintainer"
    ) -> int:
        """An issue event (``labeled``, ``base_ref_changed``, ...) happening now; its id."""
        actor_id = self.add_user(actor)
        with self._lock:
            item = {"id": self._new_id(), "event": event, "actor": actor_id, "at": self._now()}
            self.issue_events.setdefault((full_name, number), []).append(item)
            event_id: int = item["id"]
            return event_id

    def set_commit_people(
        self, full_name: str, sha: str, *, author: str | None, committer: str | None
    ) -> None:
        """The GitHub accounts the commit API links to ``sha``'s author and committer."""
        for login in (author, committer):
            if login is not None:
                self.add_user(login)
        with self._lock:
            self.commit_people[(full_name, sha)] = (author, committer)

    def loop_listing(self, path_regex: str) -> None:
        """Every page of a listing whose path matches links to itself as "next"."""
        with self._lock:
            self.looping.append(re.compile(path_regex))

    def after_request(
        self, method: str, path_regex: str, action: Callable[[], None], times: int = 1
    ) -> None:
        """Run ``action`` (a push, a dismissal...) right after the next ``times``
        matching requests are served: what happens on GitHub between two of
        a client's requests."""
        with self._lock:
            self._hooks.append((method.upper(), re.compile(path_regex), action, [times]))

    def answer_next_raw(self, method: str, path_regex: str, status: int, body: bytes) -> None:
        """Answer the next matching request with ``status`` and exactly ``body``
        (b"" for an empty body), after the usual validation of the request."""
        with self._lock:
            self._raw_answers.append((method.upper(), re.compile(path_regex), status, body))

    def add_comment(
        self, full_name: str, issue_number: int, body: str, user: str = "someone"
    ) -> int:
        """A pre-existing issue/PR comment by ``user``; returns its id."""
        self.add_user(user)
        with self._lock:
            comment_id: int = self._store_comment(full_name, issue_number, body, user)["id"]
            return comment_id

    def add_review(
        self,
        full_name: str,
        number: int,
        *,
        user: str | None,
        state: str = "APPROVED",
        commit_id: str | None = None,
        author_association: str = "MEMBER",
        user_type: str | None = None,
    ) -> int:
        """A submitted review of a pull request (``commit_id`` default: its head
        now) by the account ``user`` (made when new; None: a deleted account,
        listed with a null user); ``user_type`` default: Bot for a ``[bot]``
        login, else User.  A PENDING review has no ``submitted_at``.  Returns its id."""
        user_id = None if user is None else self.add_user(user)
        with self._lock:
            if user_id is not None and user_type is not None:
                self.users[user_id]["type"] = user_type
            pull = self.pulls[(full_name, number)]
            review = {
                "id": self._new_id(),
                "full_name": full_name,
                "number": number,
                "user_id": user_id,
                "state": state,
                "commit_id": pull.head_sha if commit_id is None else commit_id,
                "author_association": author_association,
                "submitted_at": None if state == "PENDING" else self._now(),
            }
            self.reviews.setdefault((full_name, number), []).append(review)
            review_id: int = review["id"]
            return review_id

    def dismiss_review(self, full_name: str, number: int, review_id: int) -> None:
        """Dismiss a review, as a maintainer does: its state becomes DISMISSED."""
        with self._lock:
            for review in self.reviews.get((full_name, number), []):
                if review["id"] == review_id:
                    review["state"] = "DISMISSED"
                    return
            raise KeyError(review_id)

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        times: int = 1,
        headers: Mapping[str, str] | None = None,
        body: Any = None,
        after: bool = False,
    ) -> None:
        """Answer the next ``times`` matching requests with ``status`` (after validation).

        ``method`` is an HTTP verb or ``*``; ``path_regex`` is searched in the decoded path
        (without the query and without any ``prefix``).  With ``after`` the request
        takes effect first (a comment or check run is created) and then answers
        ``status``: a server that failed after doing the work."""
        self._add_fault(method, path_regex, status, times, headers, body, after)

    def fail_always(
        self,
        method: str,
        path_regex: str,
        status: int,
        headers: Mapping[str, str] | None = None,
        body: Any = None,
    ) -> None:
        """Answer every matching request with ``status`` (e.g. 403 for a read-only token)."""
        self._add_fault(method, path_regex, status, None, headers, body)

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def take_violations(self) -> list[str]:
        """Return and forget the recorded violations (for tests that provoke them)."""
        with self._lock:
            taken = list(self.violations)
            self.violations.clear()
            return taken

    def comments_on(self, full_name: str, issue_number: int) -> list[dict[str, Any]]:
        with self._lock:
            return [
                c
                for c in self.comments
                if c["full_name"] == full_name and c["issue_number"] == issue_number
            ]

    def pull_payload(self, full_name: str, number: int) -> dict[str, Any]:
        """The pull request as the API serves it (for a ``pull_request`` event payload)."""
        with self._lock:
            return self._schema_complete(
                "GET",
                "/repos/{owner}/{repo}/pulls/{pull_number}",
                self._pull_json(self.pulls[(full_name, number)]),
            )

    def merge_group_payload(
        self,
        full_name: str,
        number: int,
        *,
        base_sha: str,
        head_sha: str,
        base_ref: str = "main",
    ) -> dict[str, Any]:
        """A ``merge_group`` (``checks_requested``) event payload for a queue entry adding
        PR ``number``: ``head_ref`` is ``refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>``
        (the sha is the entry's parent), and the payload is validated against GitHub's
        webhook schema (a mismatch is a violation of the double)."""
        with self._lock:
            value = {
                "action": "checks_requested",
                "merge_group": {
                    "head_sha": head_sha,
                    "head_ref": f"refs/heads/gh-readonly-queue/{base_ref}/pr-{number}-{base_sha}",
                    "base_sha": base_sha,
                    "base_ref": f"refs/heads/{base_ref}",
                    "head_commit": {
                        "id": head_sha,
                        "tree_id": _fake_sha("tree", head_sha),
                        "message": f"Merge pull request #{number}",
                        "timestamp": "2025-01-01T00:00:00Z",
                        "author": {"name": "GitHub", "email": "noreply@github.com"},
                        "committer": {"name": "GitHub", "email": "noreply@github.com"},
                    },
                },
                "repository": {"full_name": full_name, "name": full_name.partition("/")[2]},
                "sender": self._user_json(self.token_user),
            }
            name = "merge-group-checks-requested"
            payload: dict[str, Any] = self._complete(self.openapi.webhook_schema(name), value)
            for error in self.openapi.webhook_errors(name, payload):
                self.violations.append(f"merge_group payload built by the double: {error}")
            return payload

    def repo_payload(self, full_name: str) -> dict[str, Any]:
        """The repository as the API serves it (for an event payload's ``repository``)."""
        with self._lock:
            return self._schema_complete("GET", "/repos/{owner}/{repo}", self._repo_json(full_name))

    def _schema_complete(self, method: str, template: str, value: dict[str, Any]) -> dict[str, Any]:
        op = next(
            o for o in self.openapi.operations if (o.method, o.template) == (method, template)
        )
        completed: dict[str, Any] = self._complete(self.openapi.response_schema(op, "200"), value)
        return completed

    def _add_fault(
        self,
        method: str,
        path_regex: str,
        status: int,
        times: int | None,
        headers: Mapping[str, str] | None,
        body: Any,
        after: bool = False,
    ) -> None:
        with self._lock:
            self._faults.append(
                Fault(
                    method.upper(),
                    re.compile(path_regex),
                    status,
                    times,
                    dict(headers or {}),
                    body,
                    after,
                )
            )

    # ------------------------------------------------------------ URLs and JSON builders

    def _api(self, path: str) -> str:
        return self.url + path

    def _now(self) -> str:
        self._tick += 1
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(CLOCK_START + self._tick))

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _user_json(self, login: str) -> dict[str, Any]:
        """The account ``login`` (made when new, as the double's users are)."""
        return self._user_json_by_id(self.add_user(login))

    def _user_json_by_id(self, user_id: int) -> dict[str, Any]:
        user = self.users[user_id]
        login = user["login"]
        return {
            "login": login,
            "id": user_id,
            "node_id": "U_" + _fake_sha("user", str(user_id))[:16],
            "avatar_url": f"{self.web_url}/avatars/{urllib.parse.quote(login)}",
            "gravatar_id": "",
            "url": self._api(f"/users/{urllib.parse.quote(login)}"),
            "html_url": f"{self.web_url}/{urllib.parse.quote(login)}",
            "type": user["type"],
            "site_admin": False,
        }

    def _simple_user(self, login: str) -> dict[str, Any]:
        """`_user_json` completed as GitHub's `simple-user` (where a union of
        shapes leaves the double's completion no single schema to fill)."""
        schema = {"$ref": SUBSET_URI + "#/components/schemas/simple-user"}
        user: dict[str, Any] = self._complete(schema, self._user_json(login))
        return user

    def _app_json(self) -> dict[str, Any]:
        """The token's GitHub App, as a check run's ``app`` or a comment's
        ``performed_via_github_app`` names it."""
        app = self.token_app
        return {
            "id": app["id"],
            "slug": app["slug"],
            "node_id": "A_" + _fake_sha("app", str(app["id"]))[:16],
            "name": app["name"],
            "owner": self._user_json("github"),
            "description": "",
            "external_url": self.web_url,
            "html_url": f"{self.web_url}/apps/{app['slug']}",
            "created_at": "2018-01-01T00:00:00Z",
            "updated_at": "2018-01-01T00:00:00Z",
            "permissions": {},
            "events": [],
        }

    def _repo_json(self, full_name: str) -> dict[str, Any]:
        info = self.repos.get(full_name, {"default_branch": "main", "private": False})
        owner, _, name = full_name.partition("/")
        api = self._api(f"/repos/{full_name}")
        return {
            "id": _stable_id("repo:" + full_name),
            "node_id": "R_" + _fake_sha("repo", full_name)[:16],
            "name": name,
            "full_name": full_name,
            "owner": self._user_json(owner),
            "private": info["private"],
            "visibility": "private" if info["private"] else "public",
            "fork": any(
                p.head_full_name == full_name and p.full_name != full_name
                for p in self.pulls.values()
            ),
            "html_url": f"{self.web_url}/{full_name}",
            "url": api,
            "default_branch": info["default_branch"],
            "pulls_url": api + "/pulls{/number}",
            "issues_url": api + "/issues{/number}",
            "contents_url": api + "/contents/{+path}",
            "clone_url": f"{self.web_url}/{full_name}.git",
        }

    def _pull_json(self, pull: Pull) -> dict[str, Any]:
        api = self._api(f"/repos/{pull.full_name}")
        html = f"{self.web_url}/{pull.full_name}/pull/{pull.number}"
        totals = [0, 0]
        for f in pull.files:
            totals[0] += int(f["additions"])
            totals[1] += int(f["deletions"])
        head_owner = pull.head_full_name.partition("/")[0]
        base_owner = pull.full_name.partition("/")[0]
        return {
            "id": _stable_id(f"pull:{pull.full_name}#{pull.number}"),
            "node_id": "PR_" + _fake_sha("pull", pull.full_name, str(pull.number))[:16],
            "number": pull.number,
            "state": pull.state,
            "locked": False,
            "title": pull.title,
            "body": pull.body,
            "draft": pull.draft,
            "user": self._user_json(pull.user),
            "labels": [
                {
                    "id": _stable_id("label:" + name),
                    "node_id": "LA_" + _fake_sha("label", name)[:16],
                    "url": f"{api}/labels/{urllib.parse.quote(name, safe='')}",
                    "name": name,
                    "description": None,
                    "color": "ededed",
                    "default": False,
                }
                for name in pull.labels
            ],
            "url": f"{api}/pulls/{pull.number}",
            "html_url": html,
            "diff_url": html + ".diff",
            "patch_url": html + ".patch",
            "issue_url": f"{api}/issues/{pull.number}",
            "commits_url": f"{api}/pulls/{pull.number}/commits",
            "review_comments_url": f"{api}/pulls/{pull.number}/comments",
            "review_comment_url": f"{api}/pulls/comments{{/number}}",
            "comments_url": f"{api}/issues/{pull.number}/comments",
            "statuses_url": f"{api}/statuses/{pull.head_sha}",
            "head": {
                "label": f"{head_owner}:{pull.head_ref}",
                "ref": pull.head_ref,
                "sha": pull.head_sha,
                "user": self._user_json(head_owner),
                "repo": self._repo_json(pull.head_full_name),
            },
            "base": {
                "label": f"{base_owner}:{pull.base_ref}",
                "ref": pull.base_ref,
                "sha": pull.base_sha,
                "user": self._user_json(base_owner),
                "repo": self._repo_json(pull.full_name),
            },
            "_links": {
                "self": {"href": f"{api}/pulls/{pull.number}"},
                "html": {"href": html},
                "issue": {"href": f"{api}/issues/{pull.number}"},
                "comments": {"href": f"{api}/issues/{pull.number}/comments"},
                "review_comments": {"href": f"{api}/pulls/{pull.number}/comments"},
                "review_comment": {"href": f"{api}/pulls/comments{{/number}}"},
                "commits": {"href": f"{api}/pulls/{pull.number}/commits"},
                "statuses": {"href": f"{api}/statuses/{pull.head_sha}"},
            },
            "author_association": "CONTRIBUTOR",
            "merged": False,
            "mergeable": None,
            "rebaseable": None,
            "mergeable_state": "unknown",
            "merged_by": None,
            "comments": len(self.comments_on(pull.full_name, pull.number)),
            "review_comments": 0,
            "maintainer_can_modify": False,
            "commits": 1,
            "additions": totals[0],
            "deletions": totals[1],
            "changed_files": pull.changed_files,
        }

    def _file_json(self, pull: Pull, entry: Mapping[str, Any]) -> dict[str, Any]:
        name = str(entry["filename"])
        quoted = urllib.parse.quote(name)
        data = self.contents.get((pull.head_full_name, pull.head_sha, name))
        if data is None:
            data = self.contents.get((pull.full_name, pull.head_sha, name))
        sha = entry.get("sha") or (
            _git_blob_sha(data) if data is not None else _fake_sha(pull.head_sha, name)
        )
        out: dict[str, Any] = {
            "sha": sha,
            "filename": name,
            "status": entry["status"],
            "additions": entry["additions"],
            "deletions": entry["deletions"],
            "changes": entry["changes"],
            "blob_url": f"{self.web_url}/{pull.head_full_name}/blob/{pull.head_sha}/{quoted}",
            "raw_url": f"{self.web_url}/{pull.head_full_name}/raw/{pull.head_sha}/{quoted}",
            "contents_url": self._api(
                f"/repos/{pull.head_full_name}/contents/{quoted}?ref={pull.head_sha}"
            ),
        }
        for key in ("patch", "previous_filename"):
            if key in entry:
                out[key] = entry[key]
        return out

    def _comment_json(self, comment: Mapping[str, Any]) -> dict[str, Any]:
        api = self._api(f"/repos/{comment['full_name']}")
        return {
            "id": comment["id"],
            "node_id": "IC_" + _fake_sha("comment", str(comment["id"]))[:16],
            "url": f"{api}/issues/comments/{comment['id']}",
            "html_url": (
                f"{self.web_url}/{comment['full_name']}/pull/{comment['issue_number']}"
                f"#issuecomment-{comment['id']}"
            ),
            "issue_url": f"{api}/issues/{comment['issue_number']}",
            "body": comment["body"],
            "user": self._user_json(comment["user"]),
            "created_at": comment["created_at"],
            "updated_at": comment["updated_at"],
            "author_association": "NONE",
            "performed_via_github_app": comment.get("app"),
        }

    def _review_json(self, review: Mapping[str, Any]) -> dict[str, Any]:
        api = self._api(f"/repos/{review['full_name']}/pulls/{review['number']}")
        html = f"{self.web_url}/{review['full_name']}/pull/{review['number']}"
        user = None if review["user_id"] is None else self._user_json_by_id(review["user_id"])
        return {
            "id": review["id"],
            "node_id": "PRR_" + _fake_sha("review", str(review["id"]))[:16],
            "user": user,
            "body": "",
            "state": review["state"],
            "commit_id": review["commit_id"],
            "html_url": f"{html}#pullrequestreview-{review['id']}",
            "pull_request_url": api,
            "_links": {"html": {"href": html}, "pull_request": {"href": api}},
            "author_association": review["author_association"],
            **({} if review["submitted_at"] is None else {"submitted_at": review["submitted_at"]}),
        }

    def _check_run_json(self, run: Mapping[str, Any]) -> dict[str, Any]:
        api = self._api(f"/repos/{run['full_name']}")
        output = run["output"]
        return {
            "id": run["id"],
            "node_id": "CR_" + _fake_sha("check", str(run["id"]))[:16],
            "head_sha": run["head_sha"],
            "external_id": run.get("external_id", ""),
            "url": f"{api}/check-runs/{run['id']}",
            "html_url": f"{self.web_url}/{run['full_name']}/runs/{run['id']}",
            "details_url": run.get("details_url", f"{self.web_url}/{run['full_name']}"),
            "status": run["status"],
            "conclusion": run.get("conclusion"),
            "started_at": run.get("started_at"),
            "completed_at": run.get("completed_at"),
            "name": run["name"],
            "output": {
                "title": output.get("title"),
                "summary": output.get("summary"),
                "text": output.get("text"),
                "annotations_count": len(output.get("annotations", [])),
                "annotations_url": f"{api}/check-runs/{run['id']}/annotations",
            },
            "check_suite": {"id": _stable_id(f"suite:{run['full_name']}:{run['head_sha']}")},
            "app": run.get("app"),
            "pull_requests": [],
        }

    def _store_comment(
        self, full_name: str, issue_number: int, body: str, user: str
    ) -> dict[str, Any]:
        now = self._now()
        comment = {
            "id": self._new_id(),
            "full_name": full_name,
            "issue_number": issue_number,
            "body": body,
            "user": user,
            "created_at": now,
            "updated_at": now,
        }
        self.comments.append(comment)
        return comment

    # ------------------------------------------------------------ request handling

    def handle(
        self, method: str, target: str, headers: Mapping[str, str], raw_body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        split = urllib.parse.urlsplit(target)
        raw_path = split.path
        query_pairs = urllib.parse.parse_qsl(split.query, keep_blank_values=True)
        query = dict(query_pairs)
        json_body: Any = None
        status = 500
        extra_headers: dict[str, str] = {}
        payload: Any = None
        path = urllib.parse.unquote(raw_path)
        try:
            if raw_path == self.graphql_path:
                return self._graphql(method, path, headers, raw_body)
            if self.prefix:
                if not raw_path.startswith(self.prefix + "/"):
                    raise ApiError(404, "Not Found", violation="request outside the API prefix")
                raw_path = raw_path[len(self.prefix) :]
                path = urllib.parse.unquote(raw_path)
            if raw_body:
                ctype = headers.get("content-type", "")
                if not ctype.split(";")[0].strip().lower() == "application/json":
                    raise ApiError(
                        415, "Unsupported Media Type", violation=f"body sent as {ctype!r}"
                    )
                try:
                    json_body = json.loads(raw_body.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                    raise ApiError(
                        400, "Problems parsing JSON", violation=f"body is not JSON: {exc}"
                    ) from exc
            self._check_headers(headers)
            op, raw_params, path_known = self.openapi.match(method, raw_path)
            if op is None:
                if path_known:
                    raise ApiError(404, "Not Found", violation="method not served for this path")
                raise ApiError(404, "Not Found", violation="no such operation in the subset")
            params = self._validate_params(op, raw_params, query_pairs)
            self._validate_body(op, json_body)
            self._take_fault(method, path)
            raw = self._take_raw_answer(method, path)
            if raw is not None:
                with self._lock:
                    self.requests.append(RecordedRequest(method, path, query, json_body, raw[0]))
                return raw[0], {"Content-Type": "application/json; charset=utf-8"}, raw[1]
            status, payload, extra_headers = self._dispatch(op, params, json_body, query, headers)
            self._take_fault(method, path, after=True)
            self._run_hooks(method, path)
            schema = self.openapi.response_schema(op, str(status))
            if schema is not None and isinstance(payload, (dict, list)):
                payload = self._complete(schema, payload)
            if isinstance(payload, (dict, list)):
                self._validate_response(op, status, payload, method, path)
        except ApiError as exc:
            status = exc.status
            extra_headers = exc.headers
            payload = {"message": exc.message, "documentation_url": DOCS, "status": str(status)}
            if exc.violation is not None:
                self._violate(method, path, exc.violation)
        except Exception:  # the double itself broke: say so loudly
            status = 500
            payload = {"message": "double crashed", "documentation_url": DOCS}
            self._violate(method, path, "double crashed:\n" + traceback.format_exc())
        with self._lock:
            self.requests.append(RecordedRequest(method, path, query, json_body, status))
        if isinstance(payload, bytes):
            body = payload
            out_headers = {"Content-Type": "application/vnd.github.raw"}
        elif payload is None:
            body = b""
            out_headers = {}
        else:
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            out_headers = {"Content-Type": "application/json; charset=utf-8"}
        out_headers.update(
            {
                "X-GitHub-Media-Type": "github.v3; format=json",
                "X-RateLimit-Limit": "5000",
                "X-RateLimit-Remaining": str(max(0, 5000 - len(self.requests))),
                "X-RateLimit-Reset": str(CLOCK_START + 3600),
                "X-RateLimit-Used": str(len(self.requests)),
                "X-RateLimit-Resource": "core",
                "X-GitHub-Request-Id": f"DOUBLE:{len(self.requests)}",
            }
        )
        out_headers.update(extra_headers)
        return status, out_headers, body

    @property
    def graphql_path(self) -> str:
        """Where GraphQL is served: /graphql, or /api/graphql beside /api/v3."""
        return self.prefix.removesuffix("/v3") + "/graphql"

    def _graphql(
        self, method: str, path: str, headers: Mapping[str, str], raw_body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        """A GraphQL request (`github_api.graphql_api`): POST with a JSON body,
        the same headers as REST; faults injected on the path apply."""
        status, payload = 200, None
        try:
            if method != "POST":
                raise ApiError(404, "Not Found", violation=f"GraphQL takes POST, not {method}")
            self._check_headers(headers)
            try:
                body = json.loads(raw_body.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise ApiError(400, "Problems parsing JSON", violation=f"not JSON: {exc}") from None
            self._take_fault(method, path)
            with self._lock:
                payload, violation = self.graphql.answer(body)
            if violation is not None:
                self._violate(method, path, violation)
            self._run_hooks(method, path)
        except ApiError as exc:
            status = exc.status
            payload = {"message": exc.message, "documentation_url": DOCS}
            if exc.violation is not None:
                self._violate(method, path, exc.violation)
        with self._lock:
            self.requests.append(RecordedRequest(method, path, {}, None, status))
        body_bytes = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        return status, {"Content-Type": "application/json; charset=utf-8"}, body_bytes

    # ---------------------------------------------------------------- issues

    def add_issue(
        self, full_name: str, number: int, body: str, *, user: str = "maintainer"
    ) -> None:
        """An issue written by ``user`` (an account made on first use)."""
        from github_api.graphql_api import Issue

        if full_name not in self.repos:
            self.add_repo(full_name)
        author = self.add_user(user)
        with self._lock:
            self.graphql.issues[(full_name, number)] = Issue(full_name, number, body, author)

    def edit_issue(self, full_name: str, number: int, body: str, *, user: str) -> None:
        """``user`` edits the issue's body (its edit history records them)."""
        editor = self.add_user(user)
        with self._lock:
            issue = self.graphql.issues[(full_name, number)]
            issue.body = body
            issue.edits.append(editor)

    def delete_user(self, login: str) -> None:
        """The account is deleted: what it wrote shows no author (GraphQL null)."""
        with self._lock:
            user_id = self.user_id(login)
            if user_id is not None:
                del self.users[user_id]

    def link_closing(
        self, full_name: str, pull_number: int, issue_number: int, issue_repo: str | None = None
    ) -> None:
        """Pull request ``pull_number`` closes issue ``issue_number`` (of
        ``issue_repo``, default the same repository): a closing reference."""
        with self._lock:
            refs = self.closing_refs(full_name, pull_number)
            refs.append((issue_repo or full_name, issue_number))

    def closing_refs(self, full_name: str, pull_number: int) -> list[tuple[str, int]]:
        return self.graphql.closing.setdefault((full_name, pull_number), [])

    def _violate(self, method: str, path: str, message: str) -> None:
        with self._lock:
            self.violations.append(f"{method} {path}: {message}")

    def _check_headers(self, headers: Mapping[str, str]) -> None:
        if not headers.get("user-agent"):
            raise ApiError(
                403,
                "Request forbidden by administrative rules. Please make sure your request has "
                "a User-Agent header",
                violation="no User-Agent header",
            )
        accept = headers.get("accept", "")
        for item in filter(None, (part.split(";")[0].strip() for part in accept.split(","))):
            if not SANE_ACCEPT_RE.match(item):
                raise ApiError(415, "Unsupported 'Accept' header", violation=f"Accept {item!r}")
        version = headers.get("x-github-api-version")
        if version is not None and not API_VERSION_RE.match(version):
            raise ApiError(
                400, "Invalid API version", violation=f"X-GitHub-Api-Version {version!r}"
            )
        auth = headers.get("authorization")
        if auth is None:
            raise ApiError(401, "Requires authentication", violation="no Authorization header")
        scheme, _, credential = auth.partition(" ")
        if scheme.lower() not in ("token", "bearer") or not credential.strip():
            raise ApiError(401, "Bad credentials", violation=f"Authorization scheme {scheme!r}")
        if credential.strip() != self.token:
            raise ApiError(401, "Bad credentials")  # a wrong token is a scenario, not a bug

    def _validate_params(
        self, op: Operation, raw_params: Mapping[str, str], query_pairs: list[tuple[str, str]]
    ) -> dict[str, Any]:
        values: dict[str, Any] = {}
        declared = {p["name"]: p for p in op.parameters}
        seen_query: set[str] = set()
        for name, value in query_pairs:
            param = declared.get(name)
            if param is None or param["in"] != "query":
                raise ApiError(
                    422, f"Unknown query parameter {name!r}", violation=f"query {name!r} unknown"
                )
            if name in seen_query:
                raise ApiError(422, f"Repeated query parameter {name!r}", violation="repeated")
            seen_query.add(name)
            values[name] = _coerce(value, param.get("schema", {}))
        for name, raw in raw_params.items():
            param = declared[name]
            values[name] = _coerce(urllib.parse.unquote(raw), param.get("schema", {}))
        for name, param in declared.items():
            if name not in values:
                if param.get("required"):
                    raise ApiError(422, f"{name} is required", violation=f"{name} missing")
                continue
            schema = param.get("schema", {})
            errors = list(
                Draft202012Validator(schema, registry=self.openapi.registry).iter_errors(
                    values[name]
                )
            )
            if errors:
                text = f"{param['in']} parameter {name}: {_error_text(errors[0])}"
                raise ApiError(422, text, violation=text)
        return values

    def _validate_body(self, op: Operation, body: Any) -> None:
        spec = op.spec.get("requestBody")
        if spec is None:
            if body is not None:
                raise ApiError(422, "Unexpected body", violation="body sent to a bodiless call")
            return
        if body is None:
            if spec.get("required"):
                raise ApiError(422, "Body required", violation="required body missing")
            return
        validator = self.openapi.validator(op, "request")
        assert validator is not None
        error = jsonschema.exceptions.best_match(validator.iter_errors(body))
        if error is not None:
            text = f"body {_error_text(error)}"
            raise ApiError(422, f"Invalid request.\n\n{text}", violation=text)

    def _validate_response(
        self, op: Operation, status: int, payload: Any, method: str, path: str
    ) -> None:
        validator = self.openapi.validator(op, str(status))
        if validator is None:
            self._violate(method, path, f"double answered {status}, not in the description")
            return
        error = jsonschema.exceptions.best_match(validator.iter_errors(payload))
        if error is not None:
            self._violate(
                method, path, f"double's own response breaks the schema: {_error_text(error)}"
            )

    def _take_fault(self, method: str, path: str, *, after: bool = False) -> None:
        with self._lock:
            for fault in self._faults:
                if fault.method not in ("*", method) or not fault.pattern.search(path):
                    continue
                if fault.after != after:
                    continue
                if fault.remaining is not None:
                    if fault.remaining <= 0:
                        continue
                    fault.remaining -= 1
                message = FAULT_MESSAGES.get(fault.status, REASONS.get(fault.status, "Error"))
                if isinstance(fault.body, dict) and isinstance(fault.body.get("message"), str):
                    message = fault.body["message"]
                raise ApiError(fault.status, message, headers=fault.headers)

    def _run_hooks(self, method: str, path: str) -> None:
        """Run the actions due after this request, outside the lock (an action
        may wait for another request, as a barrier between two clients does)."""
        with self._lock:
            due = []
            for verb, pattern, action, left in self._hooks:
                if verb in ("*", method) and pattern.search(path) and left[0] > 0:
                    left[0] -= 1
                    due.append(action)
        for action in due:
            action()

    def _take_raw_answer(self, method: str, path: str) -> tuple[int, bytes] | None:
        with self._lock:
            for index, (verb, pattern, status, body) in enumerate(self._raw_answers):
                if verb in ("*", method) and pattern.search(path):
                    del self._raw_answers[index]
                    return status, body
        return None

    # ------------------------------------------------------------ operations

    def _repo_or_404(self, params: Mapping[str, Any]) -> str:
        full_name = f"{params['owner']}/{params['repo']}"
        if full_name not in self.repos:
            raise ApiError(404, "Not Found")
        return full_name

    def _pull_or_404(self, full_name: str, number: int) -> Pull:
        pull = self.pulls.get((full_name, number))
        if pull is None:
            raise ApiError(404, "Not Found")
        return pull

    def _paginate(
        self, items: Sequence[Any], query: Mapping[str, str], path: str, params: Mapping[str, Any]
    ) -> tuple[list[Any], dict[str, str]]:
        per_page = min(max(int(params.get("per_page", DEFAULT_PER_PAGE)), 1), MAX_PER_PAGE)
        page = max(int(params.get("page", 1)), 1)
        last = max(math.ceil(len(items) / per_page), 1)
        chunk = list(items[(page - 1) * per_page : page * per_page])

        def link(number: int) -> str:
            q = dict(query)
            q["per_page"] = str(per_page)
            q["page"] = str(number)
            return f"{self.url}{urllib.parse.quote(path)}?{urllib.parse.urlencode(q)}"

        rels = []
        if page > 1:
            rels.append(f'<{link(min(page - 1, last))}>; rel="prev"')
        if any(p.search(path) for p in self.looping):
            rels.append(f'<{link(page)}>; rel="next"')  # a listing that never ends
        elif page < last:
            rels.append(f'<{link(page + 1)}>; rel="next"')
            rels.append(f'<{link(last)}>; rel="last"')
        if page > 1:
            rels.append(f'<{link(1)}>; rel="first"')
        return chunk, ({"Link": ", ".join(rels)} if rels else {})

    def _dispatch(
        self,
        op: Operation,
        params: Mapping[str, Any],
        body: Any,
        query: Mapping[str, str],
        headers: Mapping[str, str],
    ) -> tuple[int, Any, dict[str, str]]:
        handler = getattr(self, "_op_" + op.spec["operationId"].replace("/", "_").replace("-", "_"))
        with self._lock:
            result: tuple[int, Any, dict[str, str]] = handler(params, body, query, headers)
            return result

    def _op_repos_get(self, params: Mapping[str, Any], *_: Any) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        return 200, self._repo_json(full_name), {}

    def _op_pulls_get(self, params: Mapping[str, Any], *_: Any) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        pull = self._pull_or_404(full_name, params["pull_number"])
        return 200, self._pull_json(pull), {}

    def _op_pulls_list_files(
        self, params: Mapping[str, Any], _body: Any, query: Mapping[str, str], _h: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        pull = self._pull_or_404(full_name, params["pull_number"])
        files = pull.files[:MAX_PULL_FILES]
        chunk, link = self._paginate(
            files, query, f"/repos/{full_name}/pulls/{pull.number}/files", params
        )
        return 200, [self._file_json(pull, entry) for entry in chunk], link

    def _op_pulls_list_reviews(
        self, params: Mapping[str, Any], _body: Any, query: Mapping[str, str], _h: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        pull = self._pull_or_404(full_name, params["pull_number"])
        reviews = self.reviews.get((full_name, pull.number), [])
        chunk, link = self._paginate(
            reviews, query, f"/repos/{full_name}/pulls/{pull.number}/reviews", params
        )
        return 200, [self._review_json(r) for r in chunk], link

    def _op_repos_get_content(
        self, params: Mapping[str, Any], _body: Any, _q: Any, headers: Mapping[str, str]
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        ref = params.get("ref") or self.repos[full_name]["default_branch"]
        path = str(params["path"]).strip("/")
        api = self._api(f"/repos/{full_name}")
        target = self.links.get((full_name, ref, path))
        if target is not None:
            followed = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            if (full_name, ref, followed) not in self.contents:
                quoted = urllib.parse.quote(path)
                return (
                    200,
                    {
                        "type": "symlink",
                        "target": target,
                        "size": len(target),
                        "name": path.rsplit("/", 1)[-1],
                        "path": path,
                        "sha": _fake_sha(path),
                        "url": f"{api}/contents/{quoted}?ref={urllib.parse.quote(ref)}",
                        "git_url": None,
                        "html_url": None,
                        "download_url": None,
                        "_links": {"self": f"{api}/contents/{quoted}", "git": None, "html": None},
                    },
                    {},
                )
            path = followed  # GitHub answers with the file the link points to
        data = self.contents.get((full_name, ref, path))
        if data is None:
            prefix = path + "/" if path else ""
            children = sorted(
                {
                    p[len(prefix) :].split("/")[0]
                    for (repo, r, p) in self.contents
                    if repo == full_name and r == ref and p.startswith(prefix)
                }
            )
            if not children:
                raise ApiError(404, "Not Found")
            listing = []
            for child in children:
                child_path = prefix + child
                blob = self.contents.get((full_name, ref, child_path))
                quoted = urllib.parse.quote(child_path)
                listing.append(
                    {
                        "type": "file" if blob is not None else "dir",
                        "size": len(blob) if blob is not None else 0,
                        "name": child,
                        "path": child_path,
                        "sha": _git_blob_sha(blob) if blob is not None else _fake_sha(child_path),
                        "url": f"{api}/contents/{quoted}?ref={urllib.parse.quote(ref)}",
                        "git_url": None,
                        "html_url": None,
                        "download_url": None,
                        "_links": {"self": f"{api}/contents/{quoted}", "git": None, "html": None},
                    }
                )
            return 200, listing, {}
        if "vnd.github.raw" in headers.get("accept", ""):
            return 200, data, {}
        quoted = urllib.parse.quote(path)
        sha = _git_blob_sha(data)
        inline = len(data) <= CONTENT_INLINE_LIMIT
        self_url = f"{api}/contents/{quoted}?ref={urllib.parse.quote(ref, safe='')}"
        html = f"{self.web_url}/{full_name}/blob/{urllib.parse.quote(ref)}/{quoted}"
        git_url = f"{api}/git/blobs/{sha}"
        raw_url = f"{self.web_url}/{full_name}/raw/{urllib.parse.quote(ref)}/{quoted}"
        return (
            200,
            {
                "type": "file",
                "encoding": "base64" if inline else "none",
                "size": len(data),
                "name": path.rsplit("/", 1)[-1],
                "path": path,
                "content": _b64_wrapped(data) if inline else "",
                "sha": sha,
                "url": self_url,
                "git_url": git_url,
                "html_url": html,
                "download_url": raw_url,
                "_links": {"self": self_url, "git": git_url, "html": html},
            },
            {},
        )

    def _op_git_get_blob(
        self, params: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        for (repo, _ref, _path), data in sorted(self.contents.items()):
            if repo == full_name and _git_blob_sha(data) == params["file_sha"]:
                return (
                    200,
                    {
                        "sha": params["file_sha"],
                        "node_id": "B_" + params["file_sha"][:16],
                        "url": self._api(f"/repos/{full_name}/git/blobs/{params['file_sha']}"),
                        "content": _b64_wrapped(data),
                        "encoding": "base64",
                        "size": len(data),
                    },
                    {},
                )
        raise ApiError(404, "Not Found")

    def _op_repos_get_commit(
        self, params: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        ref = str(params["ref"])
        sha = None
        for pull in self.pulls.values():
            if pull.full_name != full_name and pull.head_full_name != full_name:
                continue
            for branch, tip in ((pull.head_ref, pull.head_sha), (pull.base_ref, pull.base_sha)):
                if ref in (branch, tip):
                    sha = tip
        if sha is None and any(r == ref for (repo, r, _p) in self.contents if repo == full_name):
            sha = ref if re.fullmatch(r"[0-9a-f]{40}", ref) else _fake_sha(full_name, ref)
        if sha is None:
            raise ApiError(422, f"No commit found for SHA: {ref}")
        author, committer = self.commit_people.get((full_name, sha), (None, None))
        return (
            200,
            {
                **self._commit_json(full_name, sha),
                "files": [],
                "author": None if author is None else self._simple_user(author),
                "committer": None if committer is None else self._simple_user(committer),
            },
            {},
        )

    def _commit_json(self, full_name: str, sha: str, parents: Sequence[str] = ()) -> dict[str, Any]:
        api = self._api(f"/repos/{full_name}")
        return {
            "sha": sha,
            "node_id": "C_" + sha[:16],
            "url": f"{api}/commits/{sha}",
            "html_url": f"{self.web_url}/{full_name}/commit/{sha}",
            "comments_url": f"{api}/commits/{sha}/comments",
            "commit": {
                "url": f"{api}/git/commits/{sha}",
                "message": "commit",
                "comment_count": 0,
                "tree": {"sha": _fake_sha("tree", sha), "url": f"{api}/git/trees/x"},
            },
            "parents": [
                {"sha": p, "url": f"{api}/commits/{p}", "html_url": f"{self.web_url}/{p}"}
                for p in parents
            ],
        }

    def _op_repos_compare_commits_with_basehead(
        self, params: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        """``<base>...<head>`` of a known PR (shas, or base/head branch names)."""
        full_name = self._repo_or_404(params)
        basehead = str(params["basehead"])
        base, sep, head = basehead.partition("...")
        found = None
        for pull in self.pulls.values():
            if pull.full_name != full_name or not sep:
                continue
            if base in (pull.base_sha, pull.base_ref) and head in (pull.head_sha, pull.head_ref):
                found = pull
        if found is not None:  # branch names or the current shas: the PR as it is now
            base, head = found.base_sha, found.head_sha
        known = self.comparisons.get((full_name, base, head))
        if known is None:
            raise ApiError(404, "Not Found")
        base_sha, head_sha = base, head
        view = dataclasses.replace(self.pulls[(full_name, known.number)], head_sha=head_sha)
        fork = known.merge_base_sha
        commits = known.commits
        if commits is None:
            commits = [(head_sha, [fork])] if head_sha != fork else []
        # Commit counts beyond the listed ones are not modelled.
        ahead = len(commits)
        behind = int(base_sha != fork)
        status = {(0, 0): "identical", (1, 0): "ahead", (0, 1): "behind"}.get(
            (ahead, behind), "diverged"
        )
        web = f"{self.web_url}/{full_name}/compare/{urllib.parse.quote(basehead)}"
        return (
            200,
            {
                "url": self._api(f"/repos/{full_name}/compare/{urllib.parse.quote(basehead)}"),
                "html_url": web,
                "permalink_url": web,
                "diff_url": web + ".diff",
                "patch_url": web + ".patch",
                "base_commit": self._commit_json(full_name, base_sha),
                "merge_base_commit": self._commit_json(full_name, fork),
                "status": status,
                "ahead_by": ahead,
                "behind_by": behind,
                "total_commits": ahead,
                "commits": [self._commit_json(full_name, sha, parents) for sha, parents in commits],
                "files": [
                    self._file_json(view, entry) for entry in known.files[:MAX_COMPARE_FILES]
                ],
            },
            {},
        )

    # check runs --------------------------------------------------------------

    def _check_output_rules(self, output: Mapping[str, Any] | None, creating: bool) -> None:
        if output is None:
            return
        problems = []
        if not output.get("title"):
            problems.append("output.title is required")
        if creating and "summary" not in output:
            problems.append("output.summary is required")
        for key in ("summary", "text"):
            value = output.get(key)
            if isinstance(value, str) and len(value) > MAX_OUTPUT_TEXT:
                problems.append(f"output.{key} is {len(value)} characters (max {MAX_OUTPUT_TEXT})")
        annotations = output.get("annotations") or []
        if len(annotations) > MAX_ANNOTATIONS_PER_REQUEST:
            problems.append(
                f"output.annotations has {len(annotations)} items "
                f"(max {MAX_ANNOTATIONS_PER_REQUEST} per request)"
            )
        for index, item in enumerate(annotations):
            if not isinstance(item, dict):
                continue
            start, end = item.get("start_line"), item.get("end_line")
            if isinstance(start, int) and isinstance(end, int):
                if start < 1 or end < start:
                    problems.append(f"annotation {index}: lines {start}..{end} are not a range")
                if start != end and ("start_column" in item or "end_column" in item):
                    problems.append(f"annotation {index}: columns need start_line == end_line")
            if len(str(item.get("message", ""))) > MAX_ANNOTATION_MESSAGE:
                problems.append(f"annotation {index}: message longer than 64 KB")
            if len(str(item.get("title", ""))) > MAX_ANNOTATION_TITLE:
                problems.append(f"annotation {index}: title longer than 255 characters")
        if problems:
            text = "; ".join(problems)
            raise ApiError(422, f"Invalid request.\n\n{text}", violation=text)

    def _check_status_rules(self, run: Mapping[str, Any]) -> None:
        if run.get("status") == "completed" and not run.get("conclusion"):
            text = "conclusion is required when status is completed"
            raise ApiError(422, text, violation=text)

    def _apply_check_fields(self, run: dict[str, Any], body: Mapping[str, Any]) -> None:
        for key in ("name", "details_url", "external_id", "started_at", "completed_at", "actions"):
            if key in body:
                run[key] = body[key]
        if "status" in body:
            run["status"] = body["status"]
        if "conclusion" in body:
            run["conclusion"] = body["conclusion"]
            run["status"] = "completed"
        if run.get("status") == "completed" and not run.get("completed_at"):
            run["completed_at"] = self._now()
        output = body.get("output")
        if output is not None:
            stored = run["output"]
            for key in ("title", "summary", "text", "images"):
                if key in output:
                    stored[key] = output[key]
            batch = list(output.get("annotations") or [])
            stored["annotations"].extend(copy.deepcopy(batch))
            run["annotation_batches"].append(len(batch))

    def _op_checks_create(
        self, params: Mapping[str, Any], body: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        self._check_output_rules(body.get("output"), creating=True)
        run: dict[str, Any] = {
            "id": self._new_id(),
            "full_name": full_name,
            "name": body["name"],
            "head_sha": body["head_sha"],
            "status": "queued",
            "conclusion": None,
            "started_at": self._now(),
            "completed_at": None,
            "output": {"title": None, "summary": None, "text": None, "annotations": []},
            "annotation_batches": [],
            "posted": [copy.deepcopy(dict(body))],
        }
        if self.token_kind != "app":
            raise ApiError(403, "You must authenticate via a GitHub App.")
        run["app"] = self._app_json()
        self._apply_check_fields(run, body)
        self._check_status_rules(run)
        self.check_runs.append(run)
        return 201, self._check_run_json(run), {}

    def _find_check_run(self, params: Mapping[str, Any]) -> dict[str, Any]:
        full_name = self._repo_or_404(params)
        for run in self.check_runs:
            if run["id"] == params["check_run_id"] and run["full_name"] == full_name:
                return run
        raise ApiError(404, "Not Found")

    def _op_checks_update(
        self, params: Mapping[str, Any], body: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        run = self._find_check_run(params)
        self._check_output_rules(body.get("output"), creating=False)
        candidate = copy.deepcopy(run)
        self._apply_check_fields(candidate, body)
        self._check_status_rules(candidate)
        run.clear()
        run.update(candidate)
        run["posted"].append(copy.deepcopy(dict(body)))
        return 200, self._check_run_json(run), {}

    def _op_checks_get(self, params: Mapping[str, Any], *_: Any) -> tuple[int, Any, dict[str, str]]:
        return 200, self._check_run_json(self._find_check_run(params)), {}

    def _op_checks_list_for_ref(
        self, params: Mapping[str, Any], _body: Any, query: Mapping[str, str], _h: Any
    ) -> tuple[int, Any, dict[str, str]]:
        """Check runs on a commit sha (branch names are not resolved), newest
        first, by ``check_name``; ``filter`` (latest/all) is not modelled."""
        full_name = self._repo_or_404(params)
        ref, name = str(params["ref"]), params.get("check_name")
        runs = [
            r
            for r in reversed(self.check_runs)
            if r["full_name"] == full_name
            and r["head_sha"] == ref
            and (name is None or r["name"] == name)
        ]
        path = f"/repos/{full_name}/commits/{ref}/check-runs"
        chunk, link = self._paginate(runs, query, path, params)
        payload = {"total_count": len(runs), "check_runs": [self._check_run_json(r) for r in chunk]}
        return 200, payload, link

    # comments ------------------------------------------------------------------

    def _op_issues_list_comments(
        self, params: Mapping[str, Any], _body: Any, query: Mapping[str, str], _h: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        self._pull_or_404(full_name, params["issue_number"])
        comments = self.comments_on(full_name, params["issue_number"])
        if "since" in params:
            comments = [c for c in comments if c["updated_at"] >= params["since"]]
        chunk, link = self._paginate(
            comments, query, f"/repos/{full_name}/issues/{params['issue_number']}/comments", params
        )
        return 200, [self._comment_json(c) for c in chunk], link

    def _check_comment_body(self, body: str) -> None:
        if len(body) > MAX_COMMENT_BODY:
            text = f"body is {len(body)} characters (maximum is {MAX_COMMENT_BODY})"
            raise ApiError(422, f"Validation Failed: {text}", violation=text)

    def _op_issues_create_comment(
        self, params: Mapping[str, Any], body: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        self._pull_or_404(full_name, params["issue_number"])
        self._check_comment_body(body["body"])
        comment = self._store_comment(
            full_name, params["issue_number"], body["body"], self.token_user
        )
        if self.token_kind == "app":
            comment["app"] = self._app_json()
        return 201, self._comment_json(comment), {}

    def _op_issues_update_comment(
        self, params: Mapping[str, Any], body: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        self._check_comment_body(body["body"])
        for comment in self.comments:
            if comment["id"] == params["comment_id"] and comment["full_name"] == full_name:
                comment["body"] = body["body"]
                comment["updated_at"] = self._now()
                return 200, self._comment_json(comment), {}
        raise ApiError(404, "Not Found")

    def _op_issues_delete_comment(
        self, params: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        for index, comment in enumerate(self.comments):
            if comment["id"] == params["comment_id"] and comment["full_name"] == full_name:
                del self.comments[index]
                return 204, None, {}
        raise ApiError(404, "Not Found")

    # events, people and permissions ----------------------------------------------

    def _op_issues_list_events(
        self, params: Mapping[str, Any], _body: Any, query: Mapping[str, str], _h: Any
    ) -> tuple[int, Any, dict[str, str]]:
        full_name = self._repo_or_404(params)
        number = params["issue_number"]
        self._pull_or_404(full_name, number)
        api = self._api(f"/repos/{full_name}")
        events = [
            {
                "id": e["id"],
                "node_id": "E_" + _fake_sha("event", str(e["id"]))[:16],
                "url": f"{api}/issues/events/{e['id']}",
                "actor": self._user_json_by_id(e["actor"]),
                "event": e["event"],
                "commit_id": None,
                "commit_url": None,
                "created_at": e["at"],
                "performed_via_github_app": None,
            }
            for e in self.issue_events.get((full_name, number), [])
        ]
        chunk, link = self._paginate(
            events, query, f"/repos/{full_name}/issues/{number}/events", params
        )
        return 200, chunk, link

    def _op_repos_get_collaborator_permission_level(
        self, params: Mapping[str, Any], *_: Any
    ) -> tuple[int, Any, dict[str, str]]:
        """A collaborator's permission: the legacy ``permission``, the
        ``role_name`` and the user's ``permissions`` booleans; 404 for an
        account that does not exist; ``read`` (public) or ``none`` (private)
        for an account without a role."""
        full_name = self._repo_or_404(params)
        user_id = self.user_id(str(params["username"]))
        if user_id is None:
            raise ApiError(404, "Not Found")
        role = self.roles.get((full_name, user_id))
        if role is None:
            role = "none" if self.repos[full_name]["private"] else "read"
        base = role.split(":", 1)[1] if role.startswith("custom:") else role
        level = ROLES.index(base) if base in ROLES else -1
        user = self._user_json_by_id(user_id)
        user["role_name"] = role.split(":", 1)[0] if role.startswith("custom:") else role
        user["permissions"] = {
            "pull": level >= 0,
            "triage": level >= 1,
            "push": level >= 2,
            "maintain": level >= 3,
            "admin": level >= 4,
        }
        body = {
            "permission": LEGACY_PERMISSION.get(base, "none"),
            "role_name": user["role_name"],
            "user": user,
        }
        return 200, body, {}

    def _op_users_get_authenticated(self, *_: Any) -> tuple[int, Any, dict[str, str]]:
        """The token's own user; an installation token has none (403)."""
        if self.token_kind == "app":
            raise ApiError(403, "Resource not accessible by integration")
        return 200, self._user_json(self.token_user), {}

    def _complete(self, schema: Any, value: Any) -> Any:
        """Fill every required field the double did not set with a schema-shaped placeholder."""
        schema = self.openapi.deref(schema)
        if not isinstance(schema, dict):
            return value
        if "allOf" in schema:
            for part in schema["allOf"]:
                value = self._complete(part, value)
            return value
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = [self.openapi.deref(o) for o in schema[key]]
                for option in options:
                    if _compatible(option, value):
                        return self._complete(option, value)
                return value
        if isinstance(value, list):
            items = schema.get("items")
            return [self._complete(items, item) for item in value] if items else value
        if not isinstance(value, dict):
            return value
        props = schema.get("properties", {})
        out = dict(value)
        for key in schema.get("required", []):
            if key not in out:
                out[key] = self.openapi.synthesize(props.get(key, {}), key, self.url)
        for key, sub in list(out.items()):
            if key in props and isinstance(sub, (dict, list)):
                out[key] = self._complete(props[key], sub)
        return out


def _compatible(option: Mapping[str, Any], value: Any) -> bool:
    kind = option.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if value is None:
        return "null" in kinds
    if isinstance(value, list):
        return "array" in kinds
    if isinstance(value, dict):
        if "object" not in kinds and "properties" not in option and "allOf" not in option:
            return False
        type_enum = option.get("properties", {}).get("type", {}).get("enum")
        return not (type_enum and "type" in value and value["type"] not in type_enum)
    return True


class _Handler(BaseHTTPRequestHandler):
    double: GitHubDouble
    protocol_version = "HTTP/1.1"
    server_version = "GitHubDouble/1"

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw_body = self.rfile.read(length) if length else b""
        headers = {key.lower(): value for key, value in self.headers.items()}
        status, out_headers, body = self.double.handle(self.command, self.path, headers, raw_body)
        self.send_response(status, REASONS.get(status))
        for key, value in out_headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _serve

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        return
