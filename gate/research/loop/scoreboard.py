"""The loop's scoreboard: per writer x prompt, rates with Wilson intervals.

For each cell (one writer on one prompt):

* per bucket (`gate.research.lab.EXACT_BUCKETS`): attempts in it / the cell's attempts;
* per rule: attempts that failed it / the cell's judged attempts (those
  that applied and were judged; an `infrastructure` attempt has no verdict);
* `tests red`: judged attempts whose test run was red / judged attempts.

Each rate carries its Wilson score interval at 95% (z = 1.959964): for k of
n, with p = k/n, centre (p + z²/2n) / (1 + z²/n) and half-width
z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n); for n = 0 the interval is [0, 1]
(nothing is known).  Figures are rounded to 6 decimals, so the same records
give the same bytes.

`compare` (what `gate diff` does with two scoreboards): a rate *moved* when
its two intervals do not overlap (A's high < B's low, or B's high < A's
low).  Non-overlapping 95% intervals are a conservative test (the
difference is significant at well under 5%); overlapping ones do not prove
"no change", only that these attempts cannot tell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gate.base.errors import GateError
from gate.base.escape import printable
from gate.research.lab import EXACT_BUCKETS
from gate.research.loop import Attempt, same_judge, sorted_records

FORMAT = "gate-loop-scoreboard/1"
Z95 = 1.959963984540054
TESTS_RED = "tests red"  # the test-run row of a cell's rule rates


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k == 0 else max(0.0, centre - half)  # exact at the ends, not 1 - 1e-16
    high = 1.0 if k == n else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class Rate:
    count: int
    of: int

    @property
    def rate(self) -> float:
        return self.count / self.of if self.of else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.of)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "count": self.count,
            "of": self.of,
            "rate": round(self.rate, 6),
            "low": round(low, 6),
            "high": round(high, 6),
        }


@dataclass(frozen=True)
class Cell:
    writer: str
    prompt: str
    attempts: tuple[Attempt, ...]
    rule_ids: tuple[str, ...]

    @property
    def judged(self) -> tuple[Attempt, ...]:
        return tuple(a for a in self.attempts if a.applies)

    def buckets(self) -> dict[str, Rate]:
        n = len(self.attempts)
        return {b: Rate(sum(1 for a in self.attempts if a.bucket == b), n) for b in EXACT_BUCKETS}

    def rules(self) -> dict[str, Rate]:
        judged = self.judged
        out = {r: Rate(sum(1 for a in judged if r in a.failed), len(judged)) for r in self.rule_ids}
        out[TESTS_RED] = Rate(sum(1 for a in judged if a.tests_red), len(judged))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "writer": self.writer,
            "prompt": self.prompt,
            "attempts": len(self.attempts),
            "judged": len(self.judged),
            "buckets": {b: r.to_dict() for b, r in self.buckets().items()},
            "rules": {name: r.to_dict() for name, r in self.rules().items()},
        }


@dataclass(frozen=True)
class LoopScoreboard:
    base: str
    rubric_sha256: str
    cells: tuple[Cell, ...]
    rule_ids: tuple[str, ...]

    @property
    def attempts(self) -> tuple[Attempt, ...]:
        return tuple(a for c in self.cells for a in c.attempts)

    @property
    def judge_errors(self) -> tuple[Attempt, ...]:
        return tuple(a for a in self.attempts if a.judge_error)

    def to_dict(self) -> dict[str, Any]:
        totals = dict.fromkeys(EXACT_BUCKETS, 0)
        for a in self.attempts:
            totals[a.bucket] += 1
        return {
            "format": FORMAT,
            "base": self.base,
            "rubric_sha256": self.rubric_sha256,
            "buckets": list(EXACT_BUCKETS),
            "rules": list(self.rule_ids),
            "attempts": len(self.attempts),
            "totals": totals,
            "cells": [c.to_dict() for c in self.cells],
            "judge_errors": [
                {"writer": a.writer, "prompt": a.prompt, "attempt": a.attempt}
                for a in self.judge_errors
            ],
        }


def scoreboard(records: Iterable[Attempt]) -> LoopScoreboard:
    """The scoreboard of a run's records (any order): cells sorted by writer
    then prompt; rules in the order the reports list them."""
    ordered = sorted_records(records)
    judge = same_judge(ordered, "the loop results")
    if judge is None:
        raise GateError("no attempts to score: the results file is empty")
    rule_ids: list[str] = []
    for a in ordered:
        for r in (*a.rules, *a.failed):
            if r not in rule_ids:
                rule_ids.append(r)
    cells: dict[tuple[str, str], list[Attempt]] = {}
    for a in ordered:
        cells.setdefault((a.writer, a.prompt), []).append(a)
    return LoopScoreboard(
        base=judge[0],
        rubric_sha256=judge[1],
        cells=tuple(
            Cell(w, p, tuple(attempts), tuple(rule_ids)) for (w, p), attempts in cells.items()
        ),
        rule_ids=tuple(rule_ids),
    )


# -- comparing two scoreboards (gate diff) -------------------------------------


@dataclass(frozen=True)
class LoadedRate:
    count: int
    of: int
    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class Moved:
    writer: str
    prompt: str
    what: str  # "bucket" or "rule"
    name: str
    a: LoadedRate
    b: LoadedRate

    def to_dict(self) -> dict[str, Any]:
        def side(r: LoadedRate) -> dict[str, Any]:
            return {"count": r.count, "of": r.of, "rate": r.rate, "low": r.low, "high": r.high}

        return {
            "writer": self.writer,
            "prompt": self.prompt,
            "what": self.what,
            "name": self.name,
            "direction": "up" if self.b.rate > self.a.rate else "down",
            "a": side(self.a),
            "b": side(self.b),
        }


Rates = dict[tuple[str, str, str, str], LoadedRate]


@dataclass(frozen=True)
class LoadedScoreboard:
    name: str
    base: str
    rubric_sha256: str
    rates: Rates  # (writer, prompt, "bucket"|"rule", name) -> rate


def is_scoreboard(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def load_scoreboard(data: Any, name: str) -> LoadedScoreboard:
    """A scoreboard JSON (`gate loop report --format json`) read back."""
    fix = "give a scoreboard written by gate loop report --format json"
    where = printable(name)

    def bad(what: str) -> GateError:
        return GateError(f"{where}: {what}; {fix}")

    def number(value: Any, what: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad(f"{what} is not a number")
        return float(value)

    def rate(value: Any, what: str) -> LoadedRate:
        if not isinstance(value, dict):
            raise bad(f"{what} is not an object")
        count, of = value.get("count"), value.get("of")
        if not isinstance(count, int) or not isinstance(of, int) or isinstance(count, bool):
            raise bad(f"{what} has no whole count and of")
        low, high = number(value.get("low"), what + ".low"), number(value.get("high"), what)
        if not 0 <= low <= high <= 1:
            raise bad(f"{what}: interval [{low}, {high}] is not within [0, 1]")
        return LoadedRate(count, of, number(value.get("rate"), what), low, high)

    base, sha, cells = data.get("base"), data.get("rubric_sha256"), data.get("cells")
    if not isinstance(base, str) or not isinstance(sha, str) or not isinstance(cells, list):
        raise bad('no "base", "rubric_sha256" or "cells"')
    rates: Rates = {}
    for i, cell in enumerate(cells):
        if not isinstance(cell, dict):
            raise bad(f"cells[{i}] is not an object")
        writer, prompt = cell.get("writer"), cell.get("prompt")
        if not isinstance(writer, str) or not isinstance(prompt, str):
            raise bad(f"cells[{i}] has no writer or prompt")
        for what, group in (("bucket", "buckets"), ("rule", "rules")):
            table = cell.get(group)
            if not isinstance(table, dict):
                raise bad(f"cells[{i}].{group} is not an object")
            for key, value in table.items():
                slot = (writer, prompt, what, key)
                if slot in rates:
                    raise bad(f"{writer} on {prompt} is listed twice")
                rates[slot] = rate(value, f"cells[{i}].{group}.{key}")
    return LoadedScoreboard(name, base, sha, rates)


@dataclass(frozen=True)
class BoardComparison:
    a: LoadedScoreboard
    b: LoadedScoreboard
    moved: tuple[Moved, ...]
    only_a: tuple[tuple[str, str, str, str], ...]
    only_b: tuple[tuple[str, str, str, str], ...]
    steady: int

    @property
    def agree(self) -> bool:
        return not (self.moved or self.only_a or self.only_b)

    @property
    def same_judge(self) -> bool:
        return (self.a.base, self.a.rubric_sha256) == (self.b.base, self.b.rubric_sha256)

    def to_dict(self) -> dict[str, Any]:
        def side(s: LoadedScoreboard) -> dict[str, Any]:
            return {"file": s.name, "base": s.base, "rubric_sha256": s.rubric_sha256}

        def slot(s: tuple[str, str, str, str]) -> dict[str, str]:
            return {"writer": s[0], "prompt": s[1], "what": s[2], "name": s[3]}

        return {
            "format": "gate-loop-scoreboard-diff/1",
            "agree": self.agree,
            "same_judge": self.same_judge,
            "criterion": "moved: the two Wilson 95% intervals do not overlap",
            "a": side(self.a),
            "b": side(self.b),
            "steady": self.steady,
            "moved": [m.to_dict() for m in self.moved],
            "only_a": [slot(s) for s in self.only_a],
            "only_b": [slot(s) for s in self.only_b],
        }


def compare(a: LoadedScoreboard, b: LoadedScoreboard) -> BoardComparison:
    """Every rate both scoreboards have, in A's order, then the ones only B has."""
    moved, only_a = [], []
    steady = 0
    for slot, x in a.rates.items():
        y = b.rates.get(slot)
        if y is None:
            only_a.append(slot)
        elif x.high < y.low or y.high < x.low:
            moved.append(Moved(*slot, x, y))
        else:
            steady += 1
    only_b = tuple(s for s in b.rates if s not in a.rates)
    return BoardComparison(a, b, tuple(moved), tuple(only_a), only_b, steady)


def percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def shown(rate: Rate | LoadedRate) -> str:
    """`2/3 67% [21%-94%]`."""
    if isinstance(rate, Rate):
        low, high = rate.interval
        value = rate.rate
    else:
        low, high, value = rate.low, rate.high, rate.rate
    return f"{rate.count}/{rate.of} {percent(value)} [{percent(low)}-{percent(high)}]"
