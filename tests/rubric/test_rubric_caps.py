"""A rubric over the rule or example cap is refused while it is parsed.

The YAML parser is pure Python (about 20 us a byte here): a 1 MiB rubric of
16,000 rules took 22 s to compose before its count was checked, one of
12,000 examples 29 s and JSON of 14,000 rules 1.8 s (generate the rubric as
below and time `load_rubric_bytes`).  Both parsers now stop at the first
item past the cap (with libyaml, its events are counted first: about
0.01 s).  The tests prove it without a clock: whatever follows the item
past the cap and the next one (the scanner looks one item ahead: a syntax
error, an alias, a refused tag, a tab) is never reached, so the message is
the count's.
"""

from __future__ import annotations

import time

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.rubric.load import MAX_BYTES, load_rubric_bytes
from gate.rubric.schema import MAX_EXAMPLES, MAX_RULES

RULE_YAML = '  - {{id: R{i}, kind: forbidden_paths, paths: ["s/{i}/"]}}\n'
RULE_JSON = '{{"id": "R{i}", "kind": "forbidden_paths", "paths": ["s/{i}/"]}},\n'
EXAMPLE_YAML = (
    "  - {{name: e{i}, expect: pass, change: {{files: [{{path: a{i}, status: added}}]}}}}\n"
)
# What the parser would trip over if it read past the cap.
TAILS_YAML = ["  - *alias\n", "  - [unclosed\n", "  - !!python/object x\n", "\t- tab\n"]
TAILS_JSON = ["nope", '{"a": ]', "[[[", '"\\x"']


def rubric(style: str, key: str, count: int, tail: str) -> tuple[bytes, str]:
    if style == "json":
        items = "".join(RULE_JSON.format(i=i) for i in range(count)) + tail
        return f'{{"{key}": [\n{items}'.encode(), "big.json"
    lead = "" if key == "rules" else "rules:\n  - {id: A, kind: max_files, limit: 5}\n"
    line = RULE_YAML if key == "rules" else EXAMPLE_YAML
    items = "".join(line.format(i=i) for i in range(count))
    return f"{lead}{key}:\n{items}{tail}".encode(), "big.yml"


@settings(max_examples=25, deadline=None)
@given(
    style=st.sampled_from(["yaml", "json"]),
    key=st.sampled_from(["rules", "examples"]),
    over=st.integers(2, 2000),  # the scanner looks one item ahead
    tail=st.integers(0, len(TAILS_YAML) - 1),
    libyaml=st.booleans(),
)
def test_the_cap_is_enforced_before_the_rest_is_read(
    style: str, key: str, over: int, tail: int, libyaml: bool
) -> None:
    """With libyaml the count is taken from its events first; without it (or
    `libyaml` False here) the strict loader counts while composing."""
    cap = MAX_RULES if key == "rules" else MAX_EXAMPLES
    if style == "json" and key == "examples":
        key = "rules"  # JSON shares the code path; one key is enough
        cap = MAX_RULES
    data, source = rubric(
        style, key, cap + over, (TAILS_JSON if style == "json" else TAILS_YAML)[tail]
    )
    with pytest.MonkeyPatch.context() as patch, pytest.raises(GateError) as caught:
        if not libyaml:
            patch.setattr(yaml, "__with_libyaml__", False)
        load_rubric_bytes(data, source)
    assert f"more than {cap} {key} is over the limit of {cap}" in caught.value.message
    line = 1 if style == "json" else 2 + 2 * (key != "rules")  # where the list starts
    assert caught.value.message.startswith(f"invalid rubric: {source}:{line}:")


@pytest.mark.parametrize("style", ["yaml", "json"])
@pytest.mark.parametrize("key", ["rules", "examples"])
def test_a_near_1_mib_rubric_is_refused_in_well_under_a_second(style: str, key: str) -> None:
    """A loose bound (the machine is shared): measured 0.01-0.05 s (libyaml's
    count; the strict loader's own, without libyaml: 0.08-0.36 s), from 1.8-29 s."""
    if style == "json" and key == "examples":
        pytest.skip("JSON shares the code path")
    count = 0
    while len(rubric(style, key, count + 1000, "")[0]) < MAX_BYTES - 200:
        count += 1000
    data, source = rubric(style, key, count, "")
    assert MAX_BYTES - 200_000 < len(data) <= MAX_BYTES
    started = time.perf_counter()
    with pytest.raises(GateError, match="over the limit"):
        load_rubric_bytes(data, source)
    assert time.perf_counter() - started < 5.0
