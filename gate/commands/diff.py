"""`gate diff REPORT_A REPORT_B`: two fixtures, one judge.

Compares two JSON reports (from `--format json` or `--output`) rule by rule,
by id.  Exit 1 when any rule's verdict differs or a rule is present in only
one report (the reports disagree: keep both, merge neither), 0 when every
rule agrees, 2 when a report cannot be read.

Given two loop scoreboards (`gate loop report --format json`, told by their
`"format"`), it compares them rate by rate instead
(`gate.research.loop.scoreboard.compare`): exit 1 when a rate moved beyond its
Wilson 95% interval (the two intervals do not overlap) or is in one
scoreboard only, 0 when none did, 2 when a file cannot be read or only one
of the two is a scoreboard.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from gate.base.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.base.escape import markdown_code, markdown_text, printable
from gate.report import rendered


@dataclass(frozen=True)
class RuleVerdict:
    id: str
    kind: str
    passed: bool
    message: str


@dataclass(frozen=True)
class LoadedReport:
    name: str
    passed: bool | None
    rubric_sha256: str | None
    rules: tuple[RuleVerdict, ...]


def _word(passed: bool | None) -> str:
    return "unknown" if passed is None else ("pass" if passed else "fail")


def load_report(path: str) -> LoadedReport:
    from gate.base.jsontext import read_file

    name = printable(path)
    hint = "give a report written by --format json or --output"
    data = read_file(path, what="report", fix=hint)
    if not isinstance(data, dict):
        raise GateError(f"{name}: not a gate report (a JSON object); {hint}")
    results = data.get("results")
    if not isinstance(results, list):
        raise GateError(f'{name}: not a gate report (no "results" list); {hint}')
    passed = data.get("pass")
    if passed is not None and not isinstance(passed, bool):
        raise GateError(f'{name}: "pass" is not true or false; {hint}')
    sha = data.get("rubric_sha256")
    if sha is not None and not isinstance(sha, str):
        raise GateError(f'{name}: "rubric_sha256" is not a string; {hint}')
    rules: list[RuleVerdict] = []
    seen: set[str] = set()
    for i, item in enumerate(results):
        if not isinstance(item, dict):
            raise GateError(f"{name}: results[{i}] is not an object; {hint}")
        rule_id, verdict = item.get("id"), item.get("pass")
        if not isinstance(rule_id, str) or not rule_id:
            raise GateError(f'{name}: results[{i}] has no string "id"; {hint}')
        if not isinstance(verdict, bool):
            raise GateError(
                f'{name}: results[{i}] ({printable(rule_id)}) has no true/false "pass"; {hint}'
            )
        if rule_id in seen:
            raise GateError(
                f"{name}: rule id {printable(rule_id)} appears twice in results; {hint}"
            )
        seen.add(rule_id)
        kind, message = item.get("kind"), item.get("message")
        rules.append(
            RuleVerdict(
                id=rule_id,
                kind=kind if isinstance(kind, str) else "",
                passed=verdict,
                message=message if isinstance(message, str) else "",
            )
        )
    return LoadedReport(name=path, passed=passed, rubric_sha256=sha, rules=tuple(rules))


@dataclass(frozen=True)
class ReportComparison:
    a: LoadedReport
    b: LoadedReport
    differ: tuple[tuple[RuleVerdict, RuleVerdict], ...]
    only_a: tuple[RuleVerdict, ...]
    only_b: tuple[RuleVerdict, ...]
    same: int

    @property
    def agree(self) -> bool:
        return not (self.differ or self.only_a or self.only_b)

    @property
    def same_rubric(self) -> bool:
        return self.a.rubric_sha256 == self.b.rubric_sha256

    def to_dict(self) -> dict[str, Any]:
        def side(r: LoadedReport) -> dict[str, Any]:
            return {"file": r.name, "pass": r.passed, "rubric_sha256": r.rubric_sha256}

        return {
            "agree": self.agree,
            "same_rubric": self.same_rubric,
            "a": side(self.a),
            "b": side(self.b),
            "agreeing_rules": self.same,
            "differ": [
                {
                    "id": x.id,
                    "kind": x.kind or y.kind,
                    "a": _word(x.passed),
                    "b": _word(y.passed),
                    "message_a": x.message,
                    "message_b": y.message,
                }
                for x, y in self.differ
            ],
            "only_a": [{"id": r.id, "kind": r.kind, "a": _word(r.passed)} for r in self.only_a],
            "only_b": [{"id": r.id, "kind": r.kind, "b": _word(r.passed)} for r in self.only_b],
        }


def compare(a: LoadedReport, b: LoadedReport) -> ReportComparison:
    """Rule by rule, by id; order: A's rules, then the rules only B has."""
    b_by_id = {r.id: r for r in b.rules}
    a_ids = {r.id for r in a.rules}
    differ = []
    only_a = []
    same = 0
    for x in a.rules:
        y = b_by_id.get(x.id)
        if y is None:
            only_a.append(x)
        elif x.passed != y.passed:
            differ.append((x, y))
        else:
            same += 1
    only_b = tuple(r for r in b.rules if r.id not in a_ids)
    return ReportComparison(a, b, tuple(differ), tuple(only_a), only_b, same)


def to_text(c: ReportComparison) -> str:
    a, b = printable(c.a.name), printable(c.b.name)
    lines = [f"A: {a} ({_word(c.a.passed)})", f"B: {b} ({_word(c.b.passed)})"]
    if c.agree:
        lines.insert(0, f"AGREE: all {c.same} rules got the same verdict")
    else:
        count = len(c.differ) + len(c.only_a) + len(c.only_b)
        lines.insert(0, f"DIFFER: {count} rules disagree; keep both reports and merge neither")
    for x, y in c.differ:
        kind = f" ({printable(x.kind or y.kind)})" if (x.kind or y.kind) else ""
        lines.append(f"differs {printable(x.id)}{kind}: A {_word(x.passed)}, B {_word(y.passed)}")
        lines.append(f"    A: {printable(x.message)}")
        lines.append(f"    B: {printable(y.message)}")
    for r in c.only_a:
        lines.append(f"only in A: {printable(r.id)} ({_word(r.passed)})")
    for r in c.only_b:
        lines.append(f"only in B: {printable(r.id)} ({_word(r.passed)})")
    if not c.same_rubric:
        lines.append(
            "note: the reports were judged by different rubrics "
            f"(sha256 {printable(c.a.rubric_sha256 or 'none')} vs "
            f"{printable(c.b.rubric_sha256 or 'none')}); that is two judges, not one"
        )
    return "\n".join(lines) + "\n"


def to_markdown(c: ReportComparison) -> str:
    if c.agree:
        lines = [f"### ✅ Reports agree: all {c.same} rules got the same verdict"]
    else:
        lines = ["### ❌ Reports disagree: keep both, merge neither"]
    lines += [
        "",
        f"A: {markdown_code(c.a.name)} ({_word(c.a.passed)}) · "
        f"B: {markdown_code(c.b.name)} ({_word(c.b.passed)})",
    ]
    rows = [
        (x.id, x.kind or y.kind, _word(x.passed), _word(y.passed), x.message, y.message)
        for x, y in c.differ
    ]
    rows += [(r.id, r.kind, _word(r.passed), "absent", r.message, "") for r in c.only_a]
    rows += [(r.id, r.kind, "absent", _word(r.passed), "", r.message) for r in c.only_b]
    if rows:
        lines += [
            "",
            "| rule | kind | A | B | message A | message B |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for rule_id, kind, va, vb, ma, mb in rows:
            lines.append(
                f"| {markdown_code(rule_id, table=True)} | {markdown_text(kind)} | {va} | {vb} "
                f"| {markdown_text(ma)} | {markdown_text(mb)} |"
            )
    if not c.same_rubric:
        lines += ["", "**Note:** the reports were judged by different rubrics."]
    return "\n".join(lines) + "\n"


def _scoreboards(args: argparse.Namespace) -> int | None:
    """Two loop scoreboards compared (None: neither file is one)."""
    from gate.base import output
    from gate.base.jsontext import read_file
    from gate.research.loop.scoreboard import compare as compare_boards
    from gate.research.loop.scoreboard import is_scoreboard, load_scoreboard
    from gate.research.loop.scoreboard_report import comparison_markdown, comparison_text

    fix = "give a report written by --format json or --output"
    data = [read_file(p, what="report", fix=fix) for p in (args.report_a, args.report_b)]
    boards = [is_scoreboard(d) for d in data]
    if not any(boards):
        return None
    if not all(boards):
        one = args.report_a if boards[0] else args.report_b
        raise GateError(f"{printable(one)} is a loop scoreboard and the other is not; {fix}")
    comparison = compare_boards(
        load_scoreboard(data[0], args.report_a), load_scoreboard(data[1], args.report_b)
    )
    output.write(rendered(comparison, args.format, comparison_text, comparison_markdown))
    return EXIT_PASS if comparison.agree else EXIT_FAIL


def run(args: argparse.Namespace) -> int:
    from gate.base import output

    boards = _scoreboards(args)
    if boards is not None:
        return boards
    comparison = compare(load_report(args.report_a), load_report(args.report_b))
    output.write(rendered(comparison, args.format, to_text, to_markdown))
    return EXIT_PASS if comparison.agree else EXIT_FAIL
