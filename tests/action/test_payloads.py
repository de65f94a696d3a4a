"""Payloads are parsed into typed values at the edge, never coerced.

A pull request object (event payload or REST answer) and a files listing
entry either become a `PullInfo` / `PullFile` holding exactly the values the
payload gave, or are refused with one sentence (ValueError, which the Action
turns into exit 2).  The class of trick: a value of another JSON type where a
sha, a number or a line count belongs (a number for a sha, a string or a
float for a count, a missing count) must never turn into a different value
the gate then judges, such as `str(123)` as a sha or a missing count as 0.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.action import action
from gate.github.client_types import PullFile, PullInfo

PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PULL: dict[str, Any] = {
    "number": 7,
    "title": "Agent change",
    "user": {"login": "copilot-swe-agent[bot]", "type": "Bot"},
    "labels": [{"name": "agent"}, {"name": "bug"}],
    "base": {"sha": "a" * 40, "ref": "main"},
    "head": {"sha": "b" * 40, "ref": "feature", "repo": {"full_name": "octo/widgets"}},
    "changed_files": 3,
}
ENTRY: dict[str, Any] = {
    "filename": "lib/a.py",
    "status": "renamed",
    "additions": 2,
    "deletions": 1,
    "changes": 3,
    "previous_filename": "lib/old.py",
    "patch": "@@ -1 +1 @@\n-x\n+y",
    "sha": "c" * 40,
}

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
MISSING = object()


def _paths(value: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    if isinstance(value, dict):
        for key, item in value.items():
            out.append((*prefix, key))
            out.extend(_paths(item, (*prefix, key)))
    return out


def _edit(data: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    holder = out
    for key in path[:-1]:
        holder = holder[key]
    if value is MISSING:
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    return out


def _get(data: dict[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@PROPS
@given(path=st.sampled_from(_paths(PULL)), value=JSON | st.just(MISSING))
def test_a_pull_request_object_is_read_as_given_or_refused(
    path: tuple[str, ...], value: Any
) -> None:
    data = _edit(PULL, path, value)
    try:
        pull = PullInfo.from_json(data)
    except ValueError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("pull request object lacks ")
        return
    assert pull.number == data["number"] and type(pull.number) is int
    assert pull.base_sha == data["base"]["sha"] and pull.head_sha == data["head"]["sha"]
    for text in (pull.base_ref, pull.head_ref, pull.author, pull.title, *pull.labels):
        assert isinstance(text, str)
    assert pull.changed_files is None or pull.changed_files == data["changed_files"]
    # A label is one the payload names, never a value made up from another type.
    labels = data.get("labels")
    named = (
        [label.get("name") for label in labels if isinstance(label, dict)]
        if isinstance(labels, list)
        else []
    )
    assert set(pull.labels) <= set(named)


@PROPS
@given(path=st.sampled_from(_paths(ENTRY)), value=JSON | st.just(MISSING))
def test_a_listing_entry_is_read_as_given_or_refused(path: tuple[str, ...], value: Any) -> None:
    data = _edit(ENTRY, path, value)
    try:
        entry = PullFile.from_json(data)
    except ValueError as exc:
        assert "\n" not in str(exc)
        assert path[0] in ("filename", "additions", "deletions", "changes")
        return
    for key in ("filename", "additions", "deletions", "changes"):
        assert getattr(entry, key) == _get(data, (key,))
    assert type(entry.additions) is int and type(entry.deletions) is int
    assert entry.has_patch == (data.get("patch") is not None)


@pytest.mark.parametrize("count", ["2", 2.0, None, True, -1, MISSING])
def test_a_count_that_is_not_a_number_is_never_zero(count: Any) -> None:
    with pytest.raises(ValueError, match="has no additions count"):
        PullFile.from_json(_edit(ENTRY, ("additions",), count))


def test_a_damaged_event_pull_request_exits_2(scenario: Scenario) -> None:
    scenario.push({"app.py": "def main():\n    return 2\n"})
    env = scenario.env()
    event = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text(encoding="utf-8"))
    event["pull_request"]["base"]["sha"] = 123  # str(123) would be "123"
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event), encoding="utf-8")
    buf = io.StringIO()
    assert action.run(env, out=buf) == 2
    assert "pull request is unusable: pull request object lacks base.sha" in buf.getvalue()
    assert "Traceback" not in buf.getvalue()
