"""The event: what the runner's payload asks the gate to judge.

`read_event` reads the payload file (bounded JSON, `gate.base.jsontext`) as a
plain mapping; `find_target` turns it into a `Target`, parsed into typed
values here at the edge:

- `pull_request` / `pull_request_target`: the payload's pull request;
- `workflow_dispatch`: the pull request the pr-number input names (API);
- `workflow_run`: after the review workflow ran (a review was submitted or
  dismissed), the pull request it names (`review_run_number`), read from
  the API at its head now, as under workflow_dispatch;
- `merge_group`: the queue entry (`gate.action.merge_queue`), judged as the
  change from its base to its head commit, with PR N's author, labels and
  branch (API) for `applies_to` and the comment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from gate.action import merge_queue
from gate.action.merge_queue import QueueEntry
from gate.base.errors import GateError
from gate.github.client_types import ApiError, PullInfo, Reader
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
    from gate.base.jsontext import read_file

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
    if settings.event_name == "workflow_run" and settings.pr_number is None:
        number = review_run_number(event, settings.event_path)
        return Target(read_pull(client, number, "the review workflow run's title"))
    assert settings.pr_number is not None  # Settings requires it for workflow_dispatch
    return Target(read_pull(client, settings.pr_number, "the pr-number input"))


# The review workflow's `run-name` ends with the pull request's number.
_RUN_TITLE = re.compile(r"#([1-9][0-9]{0,9})\Z")


def review_run_number(event: Mapping[str, object], source: str | None) -> int:
    """The pull request a `workflow_run` event's review run was about: the
    one pull request GitHub lists for the run (`workflow_run.pull_requests`),
    else the `#N` that ends the run's title (`display_title`, the review
    workflow's `run-name`; GitHub lists no pull request for a fork's run).
    Either may name any pull request: that only asks for a pull request to
    be judged again, in full, from the API (docs/action.md, security model)."""
    where = source or "the event payload"
    run = event.get("workflow_run")
    if not isinstance(run, dict):
        raise GateError(f"the workflow_run event in {where} has no workflow_run object")
    pulls = run.get("pull_requests")
    if isinstance(pulls, list) and len(pulls) == 1 and isinstance(pulls[0], dict):
        number = pulls[0].get("number")
        if isinstance(number, int) and not isinstance(number, bool) and number > 0:
            return number
    title = run.get("display_title")
    found = _RUN_TITLE.search(title) if isinstance(title, str) else None
    if found is None:
        raise GateError(
            f"the workflow_run event in {where} names no pull request: its run lists none "
            "and its title does not end with #NUMBER; give the review workflow "
            "`run-name: blast-radius review of #${{ github.event.pull_request.number }}`"
        )
    return int(found.group(1))


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
