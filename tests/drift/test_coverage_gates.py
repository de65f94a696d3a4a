"""Coverage gates fail a test run or a required check on coverage, so a
change that lowers a threshold or omits files from the measure bends them
without touching a test: `test_drift` judges coverage.py's, nyc's, c8's
and Codecov's configuration as runner configuration."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from gate.drift.runners import section_change
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift")

THRESHOLD = st.integers(min_value=0, max_value=100)
OMIT = st.lists(st.sampled_from(["src/app/*", "*/legacy.py", "src/slow.py"]), max_size=2)


@given(THRESHOLD, THRESHOLD, OMIT, st.booleans())
def test_pyproject_coverage_tables_count(
    before: int, after: int, omit: list[str], inline: bool
) -> None:
    def render(fail_under: int) -> str:
        report = f"fail_under = {fail_under}\n"
        run = f"omit = {json.dumps(omit)}\n"
        head = '[project]\nname = "app"\n\n'
        if inline:
            tables = f"report = {{ {report.strip()} }}, run = {{ {run.strip()} }}"
            return f"{head}[tool]\ncoverage = {{ {tables} }}\n"
        return f"{head}[tool.coverage.report]\n{report}\n[tool.coverage.run]\n{run}"

    expected = None if before == after else "changed"
    assert section_change("pyproject.toml", render(before), render(after)) == expected
    plain = '[project]\nname = "app"\n'
    assert section_change("pyproject.toml", plain, render(after)) == "added"


@given(st.sampled_from(["run", "report", "paths", "html"]), THRESHOLD, THRESHOLD)
def test_setup_cfg_coverage_sections_count(section: str, before: int, after: int) -> None:
    def render(value: int) -> str:
        return f"[metadata]\nname = app\n\n[coverage:{section}]\nfail_under = {value}\n"

    expected = None if before == after else "changed"
    assert section_change("setup.cfg", render(before), render(after)) == expected


@given(st.sampled_from(["nyc", "c8"]), THRESHOLD, THRESHOLD)
def test_package_json_coverage_keys_count(key: str, before: int, after: int) -> None:
    def render(lines: int) -> str:
        return json.dumps({"name": "app", key: {"check-coverage": True, "lines": lines}})

    expected = None if before == after else "changed"
    assert section_change("package.json", render(before), render(after)) == expected


def test_a_lowered_codecov_target_fails_test_drift() -> None:
    base = {
        "codecov.yml": "coverage:\n  status:\n    project:\n      default:\n        target: 90%\n"
    }
    head = {"codecov.yml": base["codecov.yml"].replace("90%", "10%")}
    CASE.fails(Files(base=base, head=head), "codecov", reported=["codecov.yml"])
    pyproject = '[project]\nname = "app"\n\n[tool.coverage.report]\nfail_under = 90\n'
    CASE.fails(
        Files(
            base={"pyproject.toml": pyproject},
            head={"pyproject.toml": pyproject.replace("90", "0")},
        ),
        "pyproject.toml",
    )
    other = pyproject.replace('name = "app"', 'name = "app"\nversion = "2"')
    CASE.passes(Files(base={"pyproject.toml": pyproject}, head={"pyproject.toml": other}))
