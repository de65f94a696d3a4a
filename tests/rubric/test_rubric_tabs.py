"""A rubric indented with tabs (an editor setting) gets "use spaces, not tabs", never a
bare scanner message: whatever lines get tabs, the rubric loads the same or says so."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.rubric.load import load_rubric_bytes
from gate.starter import STARTER_RUBRIC

LINES = STARTER_RUBRIC.split("\n")
INDENTED = [i for i, line in enumerate(LINES) if line.startswith(" ") and line.strip()]
BASELINE = load_rubric_bytes(STARTER_RUBRIC.encode(), "starter.yml")


@given(
    chosen=st.sets(st.sampled_from(INDENTED), min_size=1, max_size=6),
    style=st.sampled_from(["all tabs", "tab then spaces", "spaces then tab"]),
)
def test_tab_indentation_is_named(chosen: set[int], style: str) -> None:
    lines = list(LINES)
    for i in chosen:
        body = lines[i].lstrip(" ")
        width = len(lines[i]) - len(body)
        if style == "all tabs":
            indent = "\t" * max(1, width // 2)
        elif style == "tab then spaces":
            indent = "\t" + " " * (width - 1)
        else:
            indent = " " * (width - 1) + "\t"
        lines[i] = indent + body
    data = "\n".join(lines).encode()
    try:
        rubric = load_rubric_bytes(data, "rubric.yml")
    except GateError as exc:
        assert "use spaces, not tabs" in exc.message, exc.message
        assert exc.message.startswith("invalid rubric: rubric.yml:")
        return
    # YAML accepted the tab (as a separator, not as indentation): same rubric.
    assert rubric.rules == BASELINE.rules and rubric.examples == BASELINE.examples


def test_tab_inside_a_quoted_value_is_not_an_error() -> None:
    text = 'rules:\n  - {id: A, kind: forbidden_path, prefix: "a\tb"}\n'
    assert load_rubric_bytes(text.encode(), "r.yml").rules[0].params["prefix"] == "a\tb"


@pytest.mark.parametrize(
    "text",
    [
        "rules:\n\t- {id: A, kind: max_files, limit: 1}\n",
        "rules:\n  - id: A\n    kind: max_files\n\tlimit: 1\n",
        "rules:\n  - id: A\n    kind: max_files\n    limit:\t1\n",
    ],
)
def test_common_tab_mistakes(text: str) -> None:
    with pytest.raises(GateError, match="use spaces, not tabs"):
        load_rubric_bytes(text.encode(), "r.yml")
