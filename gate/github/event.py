"""The event: what the runner's payload asks the gate to judge.

`read_event` reads the payload file (bounded JSON, `gate.jsontext`) as a
plain mapping; `find_target` turns it into a `Target`, parsed into typed
values here at the edge:

- `pull_request` / `pull_request_target`: the payload's pull request;
- `workflow_dispatch`: the pull request the pr-number input names (API);
- `merge_group`: the queue entry (`gate.github.merge_queue`), judged as the
  change from its base to its head commit, with PR N's author, labels and
  branch (API) for `applies_to` and the comment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from gate.errors import GateError
from gate.github import merge_queue
from gate.github.client import ApiError, PullInfo, Reader
from gate.github.merge_queue import QueueEntry
from gate.github.settings import Settings


@dataclass(frozen=True)
class Target:
    """What to judge: `pull` names the commits (under merge_group the queue
    entry's, with PR N's number, author, labels and branch), `queue` the
    queue entry when there is one, `notes` what the report should say about it."""

    pull: PullInfo
    queue: QueueEntry | None = None
    notes: tuple[str, ...] = ()


def read_event(settings: Settings) -> Mapping[str, object]:
    """The event payload (GITHUB_EVENT_PATH) as a JSON object; {} for a
    workflow_dispatch run without one."""
    path = settings.event_path
    if not path:
        if settings.event_name == "workflow_dispatch":
            return {}
        raise GateError(
            "GITHUB_EVENT_PATH is not set; `gate action` needs the runner's event payload"
        )
    from gate.jsontext import read_file

    data = read_file(
        path,
        what="event payload",
        fix="the runner's GITHUB_EVENT_PATH file is missing or damaged",
        label=f"event payload {path}",
    )
    if not isinstance(data, dict):
        raise GateError(f"event payload {path} is not a JSON object")
    return data


def find_target(settings: Settings, client: Reader, event: Mapping[str, object]) -> Target:
    """The pull request or queue entry the event names; GateError when it names none."""
    if settings.event_name == merge_queue.EVENT:
        return queue_target(settings, client, event)
    if settings.event_name in ("pull_request", "pull_request_target"):
        payload = event.get("pull_request")
        if not isinstance(payload, dict):
            raise GateError(
                f"the {settings.event_name} event payload has no pull_request object "
                f"({settings.event_path})"
            )
        try:
            return Target(PullInfo.from_json(payload))
        except ValueError as exc:
            raise GateError(f"the event payload's pull request is unusable: {exc}") from None
    assert settings.pr_number is not None  # Settings requires it for workflow_dispatch
    return Target(read_pull(client, settings.pr_number, "the pr-number input"))


def read_pull(client: Reader, number: int, source: str) -> PullInfo:
    """Pull request `number` from the API; `source` says where the number came from."""
    try:
        return client.get_pull(number)
    except ApiError as exc:
        raise GateError(
            f"cannot read pull request #{number} ({exc.message}); check {source} and the "
            "token's pull-requests: read permission"
        ) from None


def queue_target(settings: Settings, client: Reader, event: Mapping[str, object]) -> Target:
    """Under merge_group: PR N's author, labels and branch, with the entry's commits."""
    entry = merge_queue.parse_event(event, settings.event_path)
    pull = read_pull(client, entry.number, "merge_group.head_ref")
    note = (
        f"merge queue entry for pull request #{entry.number}: judged the change from "
        f"merge_group.base_sha {entry.base_sha} to head_sha {entry.head_sha} (what the entry "
        f"adds to the commit it merges onto), against the rubric at {entry.base_sha}"
    )
    entry_pull = replace(
        pull,
        base_sha=entry.base_sha,
        head_sha=entry.head_sha,
        base_ref=entry.base_branch,
        changed_files=None,
    )
    return Target(entry_pull, entry, (note,))
