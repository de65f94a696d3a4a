"""Extract the operations the GitHub double serves from GitHub's official OpenAPI description.

Usage (from the repository root)::

    cd /tmp && npm pack @octokit/openapi && tar xzf octokit-openapi-*.tgz
    python tests/github_api/extract_openapi.py /tmp/package

The argument is the unpacked npm package folder (``package.json`` names the version,
``generated/api.github.com.json`` is the description with ``$ref`` links).  The output,
``tests/github_api/openapi_subset.json``, keeps for each served operation its parameters,
its JSON request body and its 2xx JSON response schema, plus every component they reach
through ``$ref`` (kept as components, not inlined).  Prose (``description``, ``example``,
``examples``, ``externalDocs``) is dropped to keep the file small; validation keywords are
kept verbatim.  The output is deterministic: same package, same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

# (method, path template) served by tests/github_api/double.py, plus what PyGithub sends.
OPERATIONS: tuple[tuple[str, str], ...] = (
    ("get", "/repos/{owner}/{repo}"),
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}"),
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}/files"),
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"),
    ("get", "/repos/{owner}/{repo}/contents/{path}"),
    ("get", "/repos/{owner}/{repo}/git/blobs/{file_sha}"),
    ("get", "/repos/{owner}/{repo}/commits/{ref}"),
    ("get", "/repos/{owner}/{repo}/compare/{basehead}"),
    ("post", "/repos/{owner}/{repo}/check-runs"),
    ("patch", "/repos/{owner}/{repo}/check-runs/{check_run_id}"),
    ("get", "/repos/{owner}/{repo}/check-runs/{check_run_id}"),
    ("get", "/repos/{owner}/{repo}/commits/{ref}/check-runs"),
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),
    ("post", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),
    ("patch", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),
    ("delete", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}/events"),
    ("get", "/repos/{owner}/{repo}/collaborators/{username}/permission"),
    ("get", "/user"),
)

# Issue events GitHub documents ("Issue event types": available in the REST API
# for issue events, with the common properties only) that the description's
# `issue-event-for-issue` union leaves out.  They are added to the union as one
# schema of those common properties, so the double can serve them and the
# client is checked against what GitHub's documentation says they carry.
DOCUMENTED_ISSUE_EVENTS: tuple[str, ...] = ("base_ref_changed", "automatic_base_change_succeeded")
DOCUMENTED_EVENT_SCHEMA = "documented-common-issue-event"


def add_documented_events(spec: dict[str, Any]) -> None:
    """Add `DOCUMENTED_ISSUE_EVENTS` to the issue events union (see above)."""
    schemas = spec["components"]["schemas"]
    common = ("id", "node_id", "url", "actor", "event", "commit_id", "commit_url", "created_at")
    schemas[DOCUMENTED_EVENT_SCHEMA] = {
        "title": "Issue event with the common properties (from GitHub's documentation)",
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "node_id": {"type": "string"},
            "url": {"type": "string"},
            "actor": {"$ref": "#/components/schemas/simple-user"},
            "event": {"type": "string", "enum": list(DOCUMENTED_ISSUE_EVENTS)},
            "commit_id": {"type": "string", "nullable": True},
            "commit_url": {"type": "string", "nullable": True},
            "created_at": {"type": "string"},
            "performed_via_github_app": {"$ref": "#/components/schemas/nullable-integration"},
        },
        "required": list(common),
    }
    union = schemas["issue-event-for-issue"]["anyOf"]
    union.append({"$ref": f"#/components/schemas/{DOCUMENTED_EVENT_SCHEMA}"})


# Webhook payloads (under ``x-webhooks``) that tests build event files from: each is
# kept with its request body, the payload schema GitHub documents for the event.
WEBHOOKS: tuple[str, ...] = ("merge-group-checks-requested",)

PROSE_KEYS = frozenset({"description", "example", "examples", "externalDocs", "x-github"})
SPEC_FILE = "generated/api.github.com.json"
HERE = Path(__file__).resolve().parent


def strip_prose(node: Any, *, in_properties: bool = False) -> Any:
    """Drop documentation-only keys; a property *named* like one (e.g. ``description``) stays."""
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if not in_properties and key in PROSE_KEYS:
                continue
            out[key] = strip_prose(value, in_properties=(key == "properties" and not in_properties))
        return out
    if isinstance(node, list):
        return [strip_prose(item) for item in node]
    return node


def refs_in(node: Any) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str):
                found.add(ref)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def resolve_pointer(doc: dict[str, Any], ref: str) -> Any:
    if not ref.startswith("#/"):
        raise SystemExit(f"unsupported $ref {ref!r}: only local references are expected")
    node: Any = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def slim_operation(op: dict[str, Any]) -> dict[str, Any]:
    """Keep parameters, the JSON request body and the 2xx JSON response of one operation."""
    out: dict[str, Any] = {"operationId": op["operationId"], "parameters": op.get("parameters", [])}
    body = op.get("requestBody")
    if body is not None:
        out["requestBody"] = {
            "required": body.get("required", False),
            "content": {"application/json": body["content"]["application/json"]},
        }
    responses: dict[str, Any] = {}
    for code, response in sorted(op["responses"].items()):
        if not code.startswith("2"):
            continue
        content = response.get("content", {})
        kept = {ct: v for ct, v in content.items() if ct == "application/json"}
        responses[code] = {"content": kept} if kept else {}
    out["responses"] = responses
    return out


def extract(package_dir: Path) -> dict[str, Any]:
    meta = json.loads((package_dir / "package.json").read_text(encoding="utf-8"))
    raw = (package_dir / SPEC_FILE).read_bytes()
    spec = json.loads(raw)
    add_documented_events(spec)
    paths: dict[str, dict[str, Any]] = {}
    for method, template in OPERATIONS:
        op = spec["paths"][template][method]
        paths.setdefault(template, {})[method] = slim_operation(op)

    webhooks: dict[str, dict[str, Any]] = {}
    for name in WEBHOOKS:
        hook = spec["x-webhooks"][name]["post"]
        webhooks[name] = {
            "post": {
                "operationId": hook["operationId"],
                "requestBody": {
                    "content": {
                        "application/json": hook["requestBody"]["content"]["application/json"]
                    }
                },
            }
        }

    components: dict[str, dict[str, Any]] = {}
    pending = sorted(refs_in(paths) | refs_in(webhooks))
    seen: set[str] = set()
    while pending:
        ref = pending.pop()
        if ref in seen:
            continue
        seen.add(ref)
        target = resolve_pointer(spec, ref)
        _, _, kind, name = ref.split("/", 3)
        components.setdefault(kind, {})[name] = target
        pending.extend(sorted(refs_in(target) - seen))

    subset: dict[str, Any] = strip_prose(
        {
            "openapi": spec["openapi"],
            "info": {
                "title": "Subset of GitHub's REST API description served by tests/github_api",
                "version": meta["version"],
                "license": spec["info"].get("license", {}),
                "x-source": {
                    "package": meta["name"],
                    "version": meta["version"],
                    "file": SPEC_FILE,
                    "sha256": hashlib.sha256(raw).hexdigest(),
                    "upstream": spec["info"].get("x-github-plan", ""),
                },
            },
            "paths": paths,
            "x-webhooks": webhooks,
            "components": components,
        }
    )
    return subset


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("package_dir", type=Path, help="unpacked @octokit/openapi npm package")
    parser.add_argument("-o", "--output", type=Path, default=HERE / "openapi_subset.json")
    args = parser.parse_args(argv)
    subset = extract(args.package_dir)
    text = json.dumps(subset, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    args.output.write_text(text, encoding="utf-8")
    count = sum(len(v) for v in subset["paths"].values())
    hooks = len(subset["x-webhooks"])
    print(
        f"wrote {args.output} ({len(text)} bytes, {count} operations, {hooks} webhooks)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
