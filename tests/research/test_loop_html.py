"""The loop's HTML page, read back with a parser: counts on the bars, the
rules as one matrix (writer x prompt by rule) and each writer's attempts by
rule, each failed rule's message beside its id, coloured diffs with every
writer-made string escaped, and the same bytes for the same records.
"""

from __future__ import annotations

import random
from dataclasses import replace
from html.parser import HTMLParser

import pytest

from gate.research.loop import Attempt
from gate.research.loop.html import COUNT_ROOM, to_html
from gate.research.loop.scoreboard import TESTS_RED, scoreboard

RULES = ("FILES", "LINES", "NAMES")


def _attempt(writer: str, prompt: str, n: int, bucket: str, *failed: str, **kw: object) -> Attempt:
    judged = bucket != "infrastructure"
    return Attempt(
        writer=writer,
        prompt=prompt,
        attempt=n,
        base="b" * 40,
        rubric_sha256="c" * 64,
        bucket=bucket,
        applies=judged,
        failed=failed,
        rules=RULES if judged else (),
        messages=tuple((r, f"{r} broke on attempt {n}") for r in failed),
        tests_ran=judged,
        tests_red=bucket == "thrash",
        tests_captured="EXIT=0\n",
        **kw,  # type: ignore[arg-type]
    )


RECORDS = [
    _attempt("careful", "strict", 1, "pass"),
    _attempt("careful", "strict", 2, "pass"),
    _attempt("careful", "strict", 3, "over-budget", "LINES"),
    _attempt("tidy", "strict", 1, "rename", "NAMES", "LINES"),
    _attempt("tidy", "strict", 2, "infrastructure", error="did not apply"),
    _attempt("tidy", "strict", 3, "thrash", "FILES"),
]


class _Page(HTMLParser):
    """Every element with its attributes and the text directly inside it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict[str, object]] = []
        self.stack: list[dict[str, object]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element: dict[str, object] = {"tag": tag, **dict(attrs), "text": ""}
        self.elements.append(element)
        if tag not in ("br", "meta"):
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop()["tag"] != tag:
            pass

    def handle_data(self, data: str) -> None:
        for element in self.stack:
            element["text"] = str(element["text"]) + data

    def find(self, tag: str, cls: str | None = None) -> list[dict[str, object]]:
        return [
            e
            for e in self.elements
            if e["tag"] == tag and (cls is None or cls in str(e.get("class", "")).split())
        ]


def _page(records: list[Attempt]) -> _Page:
    page = _Page()
    page.feed(to_html(scoreboard(records)))
    return page


def test_each_bucket_carries_its_count_on_the_bar() -> None:
    page = _page(RECORDS)
    rects = page.find("rect", "bucket")
    counts = page.find("text", "count")
    assert [(c["data-bucket"], c["text"]) for c in counts] == [
        (r["data-bucket"], r["data-count"]) for r in rects
    ]
    assert [c["text"] for c in counts] == ["2", "1", "1", "1", "1"]


def test_a_bucket_too_narrow_for_its_count_keeps_it_in_its_title() -> None:
    many = [_attempt("w", "p", n, "pass") for n in range(1, 60)]
    many.append(_attempt("w", "p", 60, "over-budget", "LINES"))
    page = _page(many)
    (narrow,) = [r for r in page.find("rect", "bucket") if r["data-bucket"] == "over-budget"]
    assert float(str(narrow["width"])) < COUNT_ROOM
    assert [c["data-bucket"] for c in page.find("text", "count")] == ["pass"]
    assert "over-budget: 1 of 60" in str(narrow["text"])


def test_the_rules_are_one_matrix_of_cells_by_rules() -> None:
    page = _page(RECORDS)
    board = scoreboard(RECORDS)
    assert len([t for t in page.find("table") if t.get("id") == "rules"]) == 1
    headers = [h["data-rule"] for h in page.find("th") if "data-rule" in h][: len(RULES) + 1]
    assert headers == [*RULES, TESTS_RED]
    rows = page.find("tr", "rules")
    assert [(r["data-writer"], r["data-prompt"]) for r in rows] == [
        (c.writer, c.prompt) for c in board.cells
    ]
    cells = page.find("td", "rule")
    assert len(cells) == len(rows) * (len(RULES) + 1)
    drawn = {(i // (len(RULES) + 1), c["data-rule"]): c for i, c in enumerate(cells)}
    for i, cell in enumerate(board.cells):
        for rule, rate in cell.rules().items():
            td = drawn[(i, rule)]
            assert (td["data-count"], td["data-of"]) == (str(rate.count), str(rate.of))
            assert str(td["text"]).startswith(f"{rate.count}/{rate.of} ")
    # tidy/strict: two judged attempts (one was infrastructure), one failed NAMES.
    assert drawn[(1, "NAMES")]["text"].startswith("1/2 ")  # type: ignore[union-attr]
    assert drawn[(1, TESTS_RED)]["text"].startswith("1/2 ")  # type: ignore[union-attr]
    assert "style" not in drawn[(0, "NAMES")] and "style" in drawn[(1, "NAMES")]


def test_each_writers_attempts_by_rule_with_each_failed_rules_message() -> None:
    page = _page(RECORDS)
    rows = page.find("tr", "attempt")
    assert len(rows) == len(RECORDS)
    verdicts = [e for e in page.elements if e["tag"] == "td" and "data-rule" in e]
    verdicts = [v for v in verdicts if "rate" not in str(v.get("class"))]
    by_attempt = [verdicts[i : i + len(RULES)] for i in range(0, len(verdicts), len(RULES))]
    for record, row in zip(sorted(RECORDS, key=lambda r: r.key), by_attempt, strict=True):
        shown = {str(v["data-rule"]): v["text"] for v in row}
        if not record.applies:
            assert set(shown.values()) == {"-"}
            continue
        assert {r for r, t in shown.items() if t == "fail"} == set(record.failed)
    messages = page.find("tr", "message")
    assert [(m["data-rule"], m["text"]) for m in messages] == [
        ("LINES", "LINESLINES broke on attempt 3"),
        ("NAMES", "NAMESNAMES broke on attempt 1"),
        ("LINES", "LINESLINES broke on attempt 1"),
        ("FILES", "FILESFILES broke on attempt 3"),
    ]


HOSTILE_DIFF = (
    "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@ <script>alert(1)</script>\n"
    "-</pre><img src=x onerror=alert(1)>\n+</span></pre><script>fetch('//evil')</script>\n"
    " <style>body{display:none}</style>\n+ok\n"
)


def test_diffs_are_coloured_line_by_line_and_stay_text() -> None:
    hostile = replace(
        _attempt("w", "p", 1, "kitchen-mop", "NAMES"),
        diff=HOSTILE_DIFF,
        tests_captured="<script>x</script>\nEXIT=1\n",
        messages=(("NAMES", "<img src=x onerror=alert(1)> renamed </td></tr>"),),
    )
    page = _page([hostile])
    tags = {e["tag"] for e in page.elements}
    assert not tags & {"script", "img", "link", "iframe", "object", "a"}
    assert all(not k.startswith("on") for e in page.elements for k in e if k != "text")
    assert sum(1 for e in page.elements if e["tag"] == "style") == 1  # the page's own
    for e in page.elements:
        if "style" in e:
            assert str(e["style"]).startswith("background:"), e
    spans = [s for s in page.find("span") if s.get("class") not in (None, "swatch")]
    kinds = [(s["class"], s["text"]) for s in spans]
    lines = HOSTILE_DIFF.split("\n")
    assert [k for k, _ in kinds] == ["file", "file", "file", "hunk", "del", "add", "add"]
    # (gate.base.escape.html breaks "@" mentions with a zero-width joiner)
    shown = [str(t).replace("\u200d", "") for _, t in kinds]
    assert shown == [line for line in lines if line and line[0] in "d-+@"]
    (pre,) = page.find("pre", "diff")
    assert str(pre["text"]).replace("\u200d", "") == HOSTILE_DIFF
    (message,) = page.find("tr", "message")
    assert str(message["text"]).endswith("<img src=x onerror=alert(1)> renamed </td></tr>")


@pytest.mark.parametrize("seed", range(5))
def test_the_same_records_in_any_order_give_the_same_bytes(seed: int) -> None:
    shuffled = RECORDS[:]
    random.Random(seed).shuffle(shuffled)
    assert to_html(scoreboard(shuffled)) == to_html(scoreboard(RECORDS))
