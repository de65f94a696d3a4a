"""The loop's scoreboard as one self-contained HTML page: opens offline.

Inline CSS and SVG only: no script, no font, no image or style fetched.
Per writer x prompt a stacked bar of the buckets, the rule-by-rule failure
rates with their Wilson 95% intervals drawn as whiskers, and every
attempt's diff and test output one click away (`<details>`).  Every string
that came from a writer, a test run or a file name goes through
`gate.escape.html` (multi-line text line by line, inside `<pre>`).
"""

from __future__ import annotations

from gate.escape import html
from gate.lab import EXACT_BUCKETS
from gate.loop.scoreboard import Cell, LoopScoreboard, Rate, shown
from gate.words import plural

COLOURS = {
    "pass": "#2e7d32",
    "thrash": "#c62828",
    "rename": "#6a1b9a",
    "over-budget": "#ef6c00",
    "kitchen-mop": "#f9a825",
    "infrastructure": "#546e7a",
}
BAR_WIDTH = 480
BAR_HEIGHT = 22
RATE_WIDTH = 200

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: middle; }
.legend span { display: inline-block; margin-right: 1em; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; max-height: 30em; }
details { margin: 0.2em 0; } summary { cursor: pointer; }
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
    out.append("<h2>Rule by rule (failure rate of the judged attempts)</h2>")
    out.append(
        '<table id="rules"><tr><th>writer</th><th>prompt</th><th>rule</th>'
        "<th>failed</th><th></th></tr>"
    )
    for cell in board.cells:
        for rule, rate in cell.rules().items():
            out.append(
                f'<tr class="rule" data-writer="{html(cell.writer)}" '
                f'data-prompt="{html(cell.prompt)}" data-rule="{html(rule)}">'
                f"<td>{html(cell.writer)}</td><td>{html(cell.prompt)}</td><td>{html(rule)}</td>"
                f"<td>{html(shown(rate))}</td><td>{_whisker(rate)}</td></tr>"
            )
    out.append("</table>")
    out.append("<h2>Attempts</h2>")
    for cell in board.cells:
        out.append(f"<h3>{html(cell.writer)} on {html(cell.prompt)}</h3>")
        for a in cell.attempts:
            failed = ", ".join(a.failed) if a.failed else "-"
            out.append(
                f'<details class="attempt" data-bucket="{a.bucket}">'
                f"<summary>attempt {a.attempt}: {a.bucket} (failed: {html(failed)})</summary>"
            )
            if a.error is not None:
                out.append(f"<p>{html(a.error)}</p>")
            out.append(f'<pre class="diff">{_multiline(a.diff)}</pre>')
            if a.tests_ran:
                out.append(f'<pre class="tests">{_multiline(a.tests_captured)}</pre>')
            out.append("</details>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
