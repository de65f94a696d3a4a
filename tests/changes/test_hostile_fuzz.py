"""Hostile input is normal input: whatever bytes arrive, the gate either
judges or says "cannot judge" (GateError). It never crashes with anything else.

Property tests over the parsers that read text a writer or a PR controls:
patches, rubrics, writer results and glob patterns.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.base import globs
from gate.base.errors import GateError, PatchError
from gate.changes.purity import check_pure
from gate.changes.writer import changes_from_writer
from gate.rubric.load import load_rubric_bytes

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text built from the pieces a diff is made of, so the fuzzer reaches deep
# into the scanner instead of failing on the first byte.
DIFF_PIECES = st.sampled_from(
    [
        "diff --git a/x b/x\n",
        "--- a/x\n",
        "+++ b/x\n",
        "@@ -1,2 +1,2 @@\n",
        "@@ -0,0 +1 @@\n",
        " ctx\n",
        "-old\n",
        "+new\n",
        "\\ No newline at end of file\n",
        "index 0000000..1111111 100644\n",
        "new file mode 100644\n",
        "rename from a\n",
        "rename to b\n",
        "GIT binary patch\n",
        "literal 0\n",
        "```diff\n",
        "Here is the fix:\n",
        "\n",
        "\r\n",
        "::error::x\n",
    ]
)


@FAST
@given(st.lists(DIFF_PIECES, max_size=20).map("".join), st.binary(max_size=40))
def test_patch_scanner_only_accepts_or_refuses(text: str, noise: bytes) -> None:
    for data in (text.encode(), text.encode() + noise, noise):
        try:
            check_pure(data, "writer.patch")
        except PatchError as exc:
            assert exc.code == 3
            assert "\n" not in exc.message


YAML_PIECES = st.sampled_from(
    [
        "rules:\n",
        "  - id: F1\n",
        "    kind: max_files\n",
        "    limit: 3\n",
        "    limit: true\n",
        "    paths: ['!x']\n",
        "  - {id: gate.x, kind: must_include, token: ok}\n",
        "examples:\n",
        "  - name: a\n",
        "    expect: [F1]\n",
        "    change: [{path: a, added: 1}]\n",
        "a: &x [1]\nb: *x\n",
        "<<: {a: 1}\n",
        "!!python/object:os.system x\n",
        "version: 2\n",
        "\t\n",
        "{",
        "}",
        '"',
        "on: yes\n",
    ]
)


@FAST
@given(st.lists(YAML_PIECES, max_size=14).map("".join))
def test_rubric_loader_only_loads_or_refuses(text: str) -> None:
    for source in ("r.yml", "r.json"):
        try:
            load_rubric_bytes(text.encode(), source)
        except GateError as exc:
            assert exc.code == 2
            assert exc.message.startswith("invalid rubric: ")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@FAST
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "files_touched": JSON_VALUES,
            "stdout": JSON_VALUES,
            "paths": JSON_VALUES,
        },
    ),
    st.booleans(),
)
def test_writer_result_is_a_contract_or_a_refusal(
    tmp_path_factory, payload: dict[str, object], truncate: bool
) -> None:  # type: ignore[no-untyped-def]
    path = Path(tmp_path_factory.mktemp("result")) / "result.json"
    text = json.dumps(payload)
    path.write_text(text[: len(text) // 2] if truncate else text)
    try:
        changes = changes_from_writer(str(path))
    except GateError as exc:
        assert exc.code == 2
    else:
        assert isinstance(changes.files_touched, int)
        assert isinstance(changes.stdout, str)


@FAST
@given(
    st.text(alphabet="ab/*?[]!\\.-_ \n", max_size=12), st.text(alphabet="ab/.-_ \n", max_size=12)
)
def test_any_accepted_glob_matches_without_error(pattern: str, path: str) -> None:
    if globs.pattern_error(pattern) is None:
        assert globs.matches(path, [pattern]) in (True, False)
        assert globs.matching([path], [pattern]) in ([], [path])
