"""Examples that name a budget's limit (`{over: ID}`, `{at: ID}`, `files:`),
and `gate.rubric.budgets`, which rewrites a rubric's limits in its text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.judge.selftest import run_selftest
from gate.rubric import budgets
from gate.rubric.load import load_rubric_bytes
from gate.starter import STARTER_RUBRIC


def load(text: str):  # type: ignore[no-untyped-def]
    return load_rubric_bytes(text.encode(), "r.yml")


def rubric(files: int, lines: int, count: str, examples: str) -> str:
    return (
        "rules:\n"
        f"  - {{id: FILES, kind: max_files, limit: {files}}}\n"
        f"  - {{id: LINES, kind: max_lines, limit: {lines}, count: {count}}}\n"
        f"examples:\n{examples}"
    )


@given(
    files=st.integers(min_value=1, max_value=300),  # the line examples touch one file
    lines=st.integers(min_value=0, max_value=100_000),
    count=st.sampled_from(["changed", "added", "deleted"]),
)
def test_over_fails_exactly_the_rule_and_at_passes(files: int, lines: int, count: str) -> None:
    key = "deleted" if count == "deleted" else "added"
    examples = (
        "  - name: files over\n    expect: [FILES]\n    change:\n"
        '      - {path: "m{n}.py", files: {over: FILES}}\n'
        "  - name: files at\n    expect: pass\n    change:\n"
        '      - {path: "m{n}.py", files: {at: FILES}}\n'
        "  - name: lines over\n    expect: [LINES]\n    change:\n"
        f"      - {{path: a.py, {key}: {{over: LINES}}}}\n"
        "  - name: lines at\n    expect: pass\n    change:\n"
        f"      - {{path: a.py, {key}: {{at: LINES}}}}\n"
    )
    report = run_selftest(load(rubric(files, lines, count, examples)))
    assert report.agrees, [o.describe() for o in report.outcomes]
    by_name = {ex.name: ex.changes for ex in load(rubric(files, lines, count, examples)).examples}
    assert len(by_name["files over"].files) == files + 1
    assert len(by_name["files at"].files) == files
    over = by_name["lines over"].files[0]
    assert (over.added if key == "added" else over.deleted) == lines + 1


def test_the_other_count_of_a_mode_does_not_prove_it() -> None:
    """`deleted: {over: LINES}` against `count: added` does not fail it: the
    count is the number it says, the verdict the rule's."""
    examples = (
        "  - name: deleted only\n    expect: [LINES]\n    change:\n"
        "      - {path: a.py, deleted: {over: LINES}}\n"
    )
    report = run_selftest(load(rubric(3, 10, "added", examples)))
    assert not report.agrees


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("{path: a.py, added: {over: NOPE}}", '"added" {over: NOPE} names no rule with a limit'),
        ("{path: a.py, added: {over: SECRETS}}", "has a limit (FILES, LINES, BIG)"),
        ('{path: "m.py", files: {over: FILES}}', 'so "path" needs {n}'),
        ('{path: "m{n}.py", files: 0}', "files"),
        ("{path: a.py, added: {over: LINES, at: LINES}}", "too many properties"),
        ("{path: a.py, added: {over: true}}", '"over" must be a string, not a boolean'),
        ("{path: a.py, added: {under: LINES}}", 'unknown key "under"; allowed keys: over, at'),
        ('{path: "m{n}.py", files: {over: BIG}}', "more than the 10,000 files"),
        ('{path: "m{n}.py", files: 2, added: 1}\n      - {path: m2.py, added: 1}', "already"),
    ],
)
def test_bad_counts_are_errors_naming_the_key(entry: str, words: str) -> None:
    text = (
        "rules:\n  - {id: FILES, kind: max_files, limit: 3}\n"
        "  - {id: LINES, kind: max_lines, limit: 5}\n"
        "  - {id: BIG, kind: max_files, limit: 10000}\n"
        "  - {id: SECRETS, kind: forbidden_paths, paths: [secrets/]}\n"
        f"examples:\n  - name: x\n    expect: pass\n    change:\n      - {entry}\n"
    )
    with pytest.raises(GateError) as caught:
        load(text)
    assert words in caught.value.message
    assert 'example "x", change entry' in caught.value.message


def test_json_rubrics_take_them_too() -> None:
    text = (
        '{"rules": [{"id": "F", "kind": "max_files", "limit": 2}], "examples": ['
        '{"name": "x", "expect": ["F"], "change": [{"path": "a{n}", "files": {"over": "F"}}]}]}'
    )
    assert run_selftest(load_rubric_bytes(text.encode(), "r.json")).agrees


# -- rewriting a rubric's text ---------------------------------------------


@given(files=st.integers(min_value=0, max_value=10**6), lines=st.integers(0, 10**9))
def test_with_limits_sets_exactly_the_limits_and_keeps_the_rest(files: int, lines: int) -> None:
    text = budgets.with_limits(STARTER_RUBRIC, {"FILES": files, "LINES": lines})
    new = {r.id: r.params.get("limit") for r in load(text).rules}
    old = {r.id: r.params.get("limit") for r in load(STARTER_RUBRIC).rules}
    assert new == {**old, "FILES": files, "LINES": lines}
    pairs = zip(STARTER_RUBRIC.splitlines(), text.splitlines(), strict=True)
    changed = [(a, b) for a, b in pairs if a != b]
    assert all("limit:" in a and "limit:" in b for a, b in changed)  # comments stay


def test_flow_style_rules_and_examples_are_rewritten_in_place() -> None:
    text = (
        "rules:\n  - {id: F, kind: max_files, limit: 3}  # keep me\n"
        "  - {id: L, kind: max_lines, limit: 9, count: deleted}\n"
        "examples:\n  - {name: wide, expect: [F], change: [{path: a}, {path: b}, {path: c},"
        " {path: d}]}\n"
        "  - name: long\n    expect: [L]\n    change:\n      - {path: a, deleted: 10}\n"
    )
    info = budgets.budget_rules(text)
    assert info["L"] == {"kind": "max_lines", "limit": 9, "count": "deleted"}
    new, names = budgets.with_proving_examples(budgets.with_limits(text, {"F": 7, "L": 2}), info)
    assert names == ["wide", "long"]
    assert "# keep me" in new
    loaded = load(new)
    assert run_selftest(loaded).agrees
    assert [len(e.changes.files) for e in loaded.examples] == [8, 1]
    assert loaded.examples[1].changes.files[0].deleted == 3
    again, names = budgets.with_proving_examples(new, info)
    assert (again, names) == (new, [])  # already symbolic: nothing to do


def test_an_id_that_reads_as_another_type_is_quoted() -> None:
    text = (
        "rules:\n  - {id: 'true', kind: max_files, limit: 1}\n"
        "examples:\n  - name: w\n    expect: ['true']\n    change:\n"
        "      - {path: a}\n      - {path: b}\n"
    )
    new, _ = budgets.with_proving_examples(text, budgets.budget_rules(text))
    assert '{over: "true"}' in new
    assert run_selftest(load(new)).agrees


# -- the count a budget judges -------------------------------------------------

_FILE = st.tuples(
    st.sampled_from(["a.py", "b.py", "c/d.py", "e.lock", "f.md"]),
    st.integers(0, 5000),
    st.integers(0, 5000),
)


@given(st.lists(_FILE, max_size=5, unique_by=lambda f: f[0]), st.integers(0, 10_000))
def test_measure_is_the_count_the_rule_judges(
    files: list[tuple[str, int, int]], limit: int
) -> None:
    from gate.model.change import ChangeSet, FileChange
    from gate.model.rubric import Rule
    from gate.research.backtest import measure
    from gate.rules import REGISTRY

    changes = ChangeSet(
        files=tuple(FileChange(p, added=a, deleted=d) for p, a, d in files), source="git"
    )
    kept = [(p, a, d) for p, a, d in files if not p.endswith(".lock")]
    for rule, expected in (
        (Rule("F", "max_files", {"limit": limit, "exclude": ("*.lock",)}), len(kept)),
        (
            Rule(
                "L",
                "max_lines",
                {"limit": limit, "count": "changed", "exclude": ("*.lock",), "images": "lines"},
            ),
            sum(a + d for _, a, d in kept),
        ),
        (
            Rule(
                "D",
                "max_lines",
                {"limit": limit, "count": "deleted", "exclude": (), "images": "lines"},
            ),
            sum(d for _, _, d in files),
        ),
    ):
        assert measure(rule, changes) == expected
        check = REGISTRY[rule.kind].check
        assert check(rule, changes).passed is (expected <= limit)


def test_measure_of_a_count_no_limit_reaches_is_none() -> None:
    from gate.model.change import ChangeSet, FileChange
    from gate.model.rubric import Rule
    from gate.research.backtest import measure

    unknown = ChangeSet(
        files=(FileChange("big.bin", added=None, deleted=None, uncounted="too large"),),
        source="git",
    )
    rule = Rule(
        "L", "max_lines", {"limit": 5, "count": "changed", "exclude": (), "images": "lines"}
    )
    assert measure(rule, unknown) is None
