"""The double's GraphQL endpoint, checked against GitHub's GraphQL schema.

``POST /graphql`` (``/api/graphql`` under GitHub Enterprise Server's
``/api/v3`` prefix) takes ``{"query", "variables"}``.  The query is parsed
and validated against ``graphql_subset.graphql`` (the part of GitHub's
public schema the Action's queries use, extracted by ``extract_graphql.py``):
a query GitHub would refuse is answered as GitHub answers (200 with
``errors``) and recorded as a violation.  A valid query is executed by
graphql-core against the double's state: repositories, pull requests, the
issues a pull request closes (``link_closing``), issue bodies, their authors
and every edit (``add_issue``, ``edit_issue``).  GitHub's paging rules hold:
a connection needs ``first`` or ``last``, at most 100.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from github_api.double import GitHubDouble

SCHEMA_PATH = Path(__file__).resolve().parent / "graphql_subset.graphql"
MAX_PAGE = 100


@dataclass
class Issue:
    """An issue as the double keeps it: its body now and who wrote it, and
    each edit of the body, oldest first (the editor's user id; None: an
    account that is gone)."""

    full_name: str
    number: int
    body: str
    author_id: int | None
    edits: list[int | None] = field(default_factory=list)


class GraphQLError(Exception):
    """Answer with this message in ``errors`` (``type`` as GitHub names it)."""

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind


def _schema() -> Any:
    from graphql import build_schema

    return build_schema(SCHEMA_PATH.read_text(encoding="utf-8"))


class GraphQLApi:
    """The endpoint of one double: `answer` a request body."""

    def __init__(self, double: GitHubDouble) -> None:
        self.double = double
        self.schema = _schema()
        self.issues: dict[tuple[str, int], Issue] = {}
        # The issues each pull request closes, in order: (its repository, number).
        self.closing: dict[tuple[str, int], list[tuple[str, int]]] = {}

    # ----------------------------------------------------------------- state

    def person(self, user_id: int | None) -> dict[str, Any] | None:
        if user_id is None:
            return None
        user = self.double.users.get(user_id)
        if user is None:
            return None
        typename = "Bot" if user["type"] == "Bot" else "User"
        return {"__typename": typename, "login": user["login"], "databaseId": user_id}

    # ------------------------------------------------------------- answering

    def answer(self, body: Any) -> tuple[dict[str, Any], str | None]:
        """(the JSON answer, a violation to record or None)."""
        from graphql import graphql_sync, parse, validate
        from graphql.error import GraphQLSyntaxError

        if not isinstance(body, dict) or not isinstance(body.get("query"), str):
            return {"message": "A query attribute must be specified and must be a string."}, (
                "a GraphQL request without a query string"
            )
        variables = body.get("variables") or {}
        if not isinstance(variables, dict):
            return {
                "errors": [{"message": "variables must be an object"}]
            }, "variables not an object"
        try:
            document = parse(body["query"])
        except GraphQLSyntaxError as exc:
            return {"errors": [{"message": exc.message}]}, f"GraphQL syntax error: {exc.message}"
        errors = validate(self.schema, document)
        if errors:
            message = errors[0].message
            return {"errors": [{"message": e.message} for e in errors]}, (
                f"a query GitHub's schema refuses: {message}"
            )
        result = graphql_sync(
            self.schema,
            body["query"],
            root_value={"repository": self._repository},
            variable_values=variables,
        )
        if result.errors:
            error = result.errors[0]
            original = error.original_error
            out: dict[str, Any] = {"message": error.message, "path": error.path}
            if isinstance(original, GraphQLError):
                if original.kind is not None:
                    out["type"] = original.kind
                return {"data": result.data, "errors": [out]}, (
                    None if original.kind == "NOT_FOUND" else f"GraphQL: {error.message}"
                )
            return {"data": result.data, "errors": [out]}, f"double crashed: {error.message}"
        return {"data": result.data}, None

    # ------------------------------------------------------------- resolvers

    def _repository(self, _info: Any, owner: str, name: str, **_: Any) -> dict[str, Any]:
        full_name = f"{owner}/{name}"
        if full_name not in self.double.repos:
            raise GraphQLError(
                f"Could not resolve to a Repository with the name '{full_name}'.", "NOT_FOUND"
            )
        return self._repo_node(full_name)

    def _repo_node(self, full_name: str) -> dict[str, Any]:
        return {
            "nameWithOwner": full_name,
            "pullRequest": lambda _info, number: self._pull(full_name, number),
        }

    def _pull(self, full_name: str, number: int) -> dict[str, Any]:
        pull = self.double.pulls.get((full_name, number))
        if pull is None:
            raise GraphQLError(
                f"Could not resolve to a PullRequest with the number of {number}.", "NOT_FOUND"
            )
        refs = self.closing.get((full_name, number), [])
        return {
            "author": self.person(self.double.add_user(pull.user)),
            "closingIssuesReferences": lambda _info, **args: self._page(
                [self._issue(self.issues[ref]) for ref in refs], args
            ),
        }

    def _issue(self, issue: Issue) -> dict[str, Any]:
        last_editor = issue.edits[-1] if issue.edits else None
        edits = [{"editor": self.person(e), "deletedBy": None} for e in reversed(issue.edits)]
        return {
            "number": issue.number,
            "body": issue.body,
            "repository": self._repo_node(issue.full_name),
            "author": self.person(issue.author_id),
            "editor": self.person(last_editor) if issue.edits else None,
            "userContentEdits": lambda _info, **args: self._page(edits, args),
        }

    def _page(self, items: list[Any], args: dict[str, Any]) -> dict[str, Any]:
        """One page of a connection, as GitHub pages: `first` or `last`
        required, at most 100; cursors opaque."""
        first, last, after = args.get("first"), args.get("last"), args.get("after")
        if first is None and last is None:
            raise GraphQLError(
                "You must provide a `first` or `last` value to properly paginate the connection."
            )
        for name, value in (("first", first), ("last", last)):
            if value is not None and not 0 <= value <= MAX_PAGE:
                raise GraphQLError(
                    f"Requesting {value} records on the connection exceeds the `{name}` limit "
                    f"of {MAX_PAGE} records."
                )
        start = 0
        if after is not None:
            try:
                start = int(base64.b64decode(after).decode().removeprefix("cursor:")) + 1
            except ValueError:
                raise GraphQLError(f"`{after}` does not appear to be a valid cursor.") from None
        end = start + first if first is not None else len(items)
        chunk = items[start:end]
        if last is not None:
            chunk = chunk[-last:]
        cursor = base64.b64encode(f"cursor:{start + len(chunk) - 1}".encode()).decode()
        return {
            "nodes": chunk,
            "pageInfo": {"hasNextPage": end < len(items), "endCursor": cursor if chunk else None},
        }
