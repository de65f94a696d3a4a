"""The loop's scoreboard as one self-contained HTML page: opens offline.

Inline CSS and SVG only: no script, no font, no image or style fetched.
Per writer x prompt a stacked bar of the buckets with each bucket's count
on it; the rules as one matrix, writer x prompt by rule (each rule's
failures of the judged attempts, with its Wilson 95% interval drawn as a
whisker); then, per writer x prompt, its attempts by rule (which rules each
attempt failed, each failed rule's message beside its id) and every
attempt's diff (coloured: added, removed, hunk and file lines) and test
output one click away (`<details>`).  Every string that came from a writer,
a test run or a file name goes through `gate.base.escape.html` (multi-line text
line by line, inside `<pre>`).  The same scoreboard gives the same bytes.
"""

from __future__ import annotations

from gate.base.escape import html
from gate.base.words import plural
from gate.research.lab import EXACT_BUCKETS
from gate.research.loop import Attempt
from gate.research.loop.scoreboard import TESTS_RED, Cell, LoopScoreboard, Rate, percent, shown

COLOURS = {
    "pass": "#2e7d32",
    "thrash": "#c62828",
    "rename": "#6a1b9a",
    "over-budget": "#ef6c00",
    "kitchen-mop": "#f9a825",
    "infrastructure": "#546e7a",
}
TEXT_ON = {"kitchen-mop": "#222"}  # the count's colour on a light bucket (else white)
BAR_WIDTH = 480
BAR_HEIGHT = 22
RATE_WIDTH = 80
COUNT_ROOM = 14  # narrowest bucket (px) with its count written on it; the title always has it

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: middle; }
.legend span { display: inline-block; margin-right: 1em; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; max-height: 30em; }
details { margin: 0.2em 0; } summary { cursor: pointer; }
td.rate { text-align: center; font-variant-numeric: tabular-nums; }
td.failed { background: #fdecea; } td.passed { color: #2e7d32; } td.none { color: #999; }
.message { color: #555; }
pre.diff .add { background: #e6ffec; color: #116329; }
pre.diff .del { background: #ffebe9; color: #82071e; }
pre.diff .hunk { color: #0550ae; } pre.diff .file { font-weight: bold; }
"""


def _multiline(text: str) -> str:
    return "\n".join(html(line) for line in text.split("\n"))


def _bar(cell: Cell) -> str:
    rates = cell.buckets()
    total = len(cell.attempts)
    parts = [
        f'<svg width="{BAR_WIDTH}" height="{BAR_HEIGHT}" role="img" '
        f'aria-label="buckets of {html(cell.writer)} on {html(cell.prompt)}">'
    ]
    x = 0.0
    for bucket in EXACT_BUCKETS:
        count = rates[bucket].count
        if not count:
            continue
        width = BAR_WIDTH * count / total
        parts.append(
            f'<rect class="bucket" data-bucket="{bucket}" data-count="{count}" '
            f'x="{x:.2f}" y="0" width="{width:.2f}" height="{BAR_HEIGHT}" '
            f'fill="{COLOURS[bucket]}"><title>{bucket}: {count} of {total}</title></rect>'
        )
        if width >= COUNT_ROOM:
            parts.append(
                f'<text class="count" data-bucket="{bucket}" x="{x + width / 2:.2f}" '
                f'y="{BAR_HEIGHT * 0.72:.2f}" text-anchor="middle" font-size="13" '
                f'fill="{TEXT_ON.get(bucket, "#fff")}">{count}</text>'
            )
        x += width
    parts.append("</svg>")
    return "".join(parts)


def _whisker(rate: Rate) -> str:
    low, high = rate.interval
    w = RATE_WIDTH
    return (
        f'<svg width="{w}" height="12"><rect x="0" y="3" width="{w}" height="6" fill="#eee"/>'
        f'<rect x="0" y="3" width="{w * rate.rate:.2f}" height="6" fill="#c62828"/>'
        f'<line x1="{w * low:.2f}" x2="{w * high:.2f}" y1="6" y2="6" stroke="#000"/>'
        f'<line x1="{w * low:.2f}" x2="{w * low:.2f}" y1="1" y2="11" stroke="#000"/>'
        f'<line x1="{w * high:.2f}" x2="{w * high:.2f}" y1="1" y2="11" stroke="#000"/></svg>'
    )


def _shade(rate: Rate) -> str:
    """A cell's background: red, as strong as the failure rate."""
    if not rate.count:
        return ""
    return f' style="background:rgba(198,40,40,{0.12 + 0.5 * rate.rate:.2f})"'


def _rule_matrix(board: LoopScoreboard) -> list[str]:
    """Writer x prompt by rule: each rule's failures of the cell's judged attempts."""
    columns = [*board.rule_ids, TESTS_RED]
    out = [
        "<h2>Rules: failures of the judged attempts</h2>",
        "<p>Each cell: attempts that failed the rule / the writer's judged attempts on "
        "the prompt (an infrastructure attempt has no verdict), the whisker its Wilson 95% "
        "interval.</p>",
        '<table id="rules"><tr><th>writer</th><th>prompt</th><th>judged</th>'
        + "".join(f'<th data-rule="{html(r)}">{html(r)}</th>' for r in columns)
        + "</tr>",
    ]
    for cell in board.cells:
        rates = cell.rules()
        row = [
            f'<tr class="rules" data-writer="{html(cell.writer)}" '
            f'data-prompt="{html(cell.prompt)}">'
            f"<td>{html(cell.writer)}</td><td>{html(cell.prompt)}</td>"
            f"<td>{len(cell.judged)}</td>"
        ]
        for rule in columns:
            rate = rates[rule]
            low, high = rate.interval
            row.append(
                f'<td class="rate rule" data-rule="{html(rule)}" data-count="{rate.count}" '
                f'data-of="{rate.of}" title="{html(rule)}: {html(shown(rate))}"{_shade(rate)}>'
                f"{rate.count}/{rate.of} <small>{percent(low)}-{percent(high)}</small><br>"
                f"{_whisker(rate)}</td>"
            )
        out.append("".join(row) + "</tr>")
    out.append("</table>")
    return out


def _diff(text: str) -> str:
    """A unified diff, line by line escaped, each line in a span of its kind."""
    lines = []
    for line in text.split("\n"):
        if line.startswith(("+++", "---", "diff --git")):
            kind = "file"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "del"
        elif line.startswith("@@"):
            kind = "hunk"
        else:
            lines.append(html(line))
            continue
        lines.append(f'<span class="{kind}">{html(line)}</span>')
    return "\n".join(lines)


def _attempts(cell: Cell) -> list[str]:
    """A writer's attempts on a prompt: attempt by rule, then each one's details."""
    columns = list(cell.rule_ids)
    out = [
        f"<h3>{html(cell.writer)} on {html(cell.prompt)}</h3>",
        f'<table class="attempts" data-writer="{html(cell.writer)}" '
        f'data-prompt="{html(cell.prompt)}"><tr><th>attempt</th><th>bucket</th>'
        + "".join(f'<th data-rule="{html(r)}">{html(r)}</th>' for r in columns)
        + "<th>tests</th></tr>",
    ]
    for a in cell.attempts:
        row = [
            f'<tr class="attempt" data-attempt="{a.attempt}" data-bucket="{a.bucket}">'
            f"<td>{a.attempt}</td><td>{a.bucket}</td>"
        ]
        for rule in columns:
            row.append(_verdict(a, rule))
        tests = "-" if not a.tests_ran else ("red" if a.tests_red else "green")
        row.append(f"<td>{tests}</td></tr>")
        out.append("".join(row))
    out.append("</table>")
    for a in cell.attempts:
        out += _details(a)
    return out


def _verdict(a: Attempt, rule: str) -> str:
    if not a.applies:
        return f'<td class="none" data-rule="{html(rule)}">-</td>'
    if rule in a.failed:
        return f'<td class="failed" data-rule="{html(rule)}">fail</td>'
    return f'<td class="passed" data-rule="{html(rule)}">pass</td>'


def _details(a: Attempt) -> list[str]:
    failed = ", ".join(a.failed) if a.failed else "-"
    out = [
        f'<details class="attempt" data-attempt="{a.attempt}" data-bucket="{a.bucket}">'
        f"<summary>attempt {a.attempt}: {a.bucket} (failed: {html(failed)})</summary>"
    ]
    if a.error is not None:
        out.append(f"<p>{html(a.error)}</p>")
    if a.messages:
        out.append('<table class="messages"><tr><th>failed rule</th><th>message</th></tr>')
        out += [
            f'<tr class="message" data-rule="{html(rule)}"><td><code>{html(rule)}</code></td>'
            f'<td class="message">{_multiline(message)}</td></tr>'
            for rule, message in a.messages
        ]
        out.append("</table>")
    out.append(f'<pre class="diff">{_diff(a.diff)}</pre>')
    if a.tests_ran:
        out.append(f'<pre class="tests">{_multiline(a.tests_captured)}</pre>')
    out.append("</details>")
    return out


def to_html(board: LoopScoreboard) -> str:
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Writer loop scoreboard</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>Writer loop scoreboard</h1>",
        f"<p>{plural(len(board.attempts), 'attempt')} against base "
        f"<code>{html(board.base)}</code>, rubric sha256 "
        f"<code>{html(board.rubric_sha256)}</code>. Rates carry Wilson 95% intervals.</p>",
        '<p class="legend">'
        + "".join(
            f'<span><span class="swatch" style="background:{COLOURS[b]}"></span>{b}</span>'
            for b in EXACT_BUCKETS
        )
        + "</p>",
        '<table id="buckets"><tr><th>writer</th><th>prompt</th><th>attempts</th>'
        "<th>buckets</th></tr>",
    ]
    for cell in board.cells:
        out.append(
            f'<tr class="cell" data-writer="{html(cell.writer)}" data-prompt="{html(cell.prompt)}">'
            f"<td>{html(cell.writer)}</td><td>{html(cell.prompt)}</td>"
            f"<td>{len(cell.attempts)}</td><td>{_bar(cell)}</td></tr>"
        )
    out.append("</table>")
    out += _rule_matrix(board)
    out.append("<h2>Attempts</h2>")
    for cell in board.cells:
        out += _attempts(cell)
    out.append("</body></html>")
    return "\n".join(out) + "\n"
