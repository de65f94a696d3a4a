"""Hostile JUnit reports: the frozen run reads pytest's report, which the
PR's own test code can write; an entity in it is refused, never expanded."""

from __future__ import annotations

from pathlib import Path

import pytest

from gate.frozen import reports

_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE testsuites [\n  <!ENTITY lol0 "lol">\n'
    + "".join(f'  <!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">\n' for n in range(1, 10))
    + ']>\n<testsuites><testsuite><testcase classname="t" name="&lol9;"/>'
    + "</testsuite></testsuites>\n"
)
_EXTERNAL = (
    '<?xml version="1.0"?>\n<!DOCTYPE testsuites [\n  <!ENTITY leak SYSTEM "file:///etc/passwd">\n'
    ']>\n<testsuites><testsuite><testcase classname="t" name="&leak;"/></testsuite></testsuites>\n'
)
_PLAIN = (
    '<?xml version="1.0"?>\n<testsuites><testsuite>'
    '<testcase classname="tests.test_a" name="test_x" file="tests/test_a.py"/>'
    "</testsuite></testsuites>\n"
)


def _read(tmp_path: Path, text: str) -> reports.Results:
    report = tmp_path / "junit.xml"
    report.write_text(text, encoding="utf-8")
    results = reports.Results()
    reports._read_junit(report, tmp_path, results)
    return results


@pytest.mark.parametrize(
    ("hostile", "entity"), [(_LAUGHS, "lol0"), (_EXTERNAL, "leak")], ids=["laughs", "external"]
)
def test_a_report_declaring_entities_is_unreadable(
    tmp_path: Path, hostile: str, entity: str
) -> None:
    results = _read(tmp_path, hostile)
    assert not results.readable and results.cases == []
    assert results.problems == [f"pytest's JUnit report declares the XML entity {entity!r}"]


def test_a_plain_report_is_read(tmp_path: Path) -> None:
    results = _read(tmp_path, _PLAIN)
    assert results.readable
    assert [(c.file, c.name, c.outcome) for c in results.cases] == [
        ("tests/test_a.py", "test_x", reports.PASSED)
    ]
