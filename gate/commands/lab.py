"""`gate lab PATCH...`: the writer loop at scale, as a scoreboard."""

from __future__ import annotations

import argparse
import sys

from gate import output
from gate.errors import EXIT_ERROR, EXIT_FAIL, EXIT_PASS, GateError
from gate.escape import markdown_text, printable
from gate.jsontext import dumps
from gate.lab import BUCKETS, LabResult, run_lab
from gate.words import plural


def _progress(done: int, total: int) -> None:
    end = "\n" if done == total else ""
    output.note(f"\rjudged {done}/{total} patches", end=end)


def to_text(result: LabResult) -> str:
    rows = [("patch", "applies", "verdict", "failed", "bucket")]
    for e in result.entries:
        failed = ", ".join(e.failed) if e.failed else ("-" if e.applies else "")
        bucket = e.bucket + (" (DISAGREES on repeat)" if e.disagreement else "")
        rows.append((printable(e.patch), "yes" if e.applies else "no", e.verdict, failed, bucket))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4]
        for row in rows
    ]
    for e in result.entries:
        if e.error is not None:
            lines.append(f"{printable(e.patch)}: {printable(e.error)}")
    counts = result.counts()
    lines.append("")
    lines.append("buckets: " + ", ".join(f"{b} {counts[b]}" for b in BUCKETS))
    total = len(result.entries)
    lines.append(
        f"{plural(total, 'patch', 'patches')} against base {result.base[:12]}, "
        f"rubric sha256 {result.rubric_sha256[:12]}"
        + (f", each judged {result.repeat} times" if result.repeat > 1 else "")
    )
    if result.repeat > 1:
        if result.disagreements:
            lines.append(
                "DISAGREEMENT: the same patch got different verdicts: "
                + ", ".join(printable(p) for p in result.disagreements)
            )
        else:
            lines.append("repeat: every patch got the same verdict each time")
    lines.extend(f"note: {printable(n)}" for n in result.notes)
    return "\n".join(lines) + "\n"


def to_markdown(result: LabResult) -> str:
    lines = ["| patch | applies | verdict | failed | bucket |", "| --- | --- | --- | --- | --- |"]
    for e in result.entries:
        lines.append(
            f"| {markdown_text(e.patch)} | {'yes' if e.applies else 'no'} | {e.verdict} "
            f"| {', '.join(e.failed)} | {e.bucket}{' (disagrees)' if e.disagreement else ''} |"
        )
    counts = result.counts()
    lines += ["", "| bucket | patches |", "| --- | --- |"]
    lines += [f"| {b} | {counts[b]} |" for b in BUCKETS]
    if result.notes:
        lines += ["", *(f"**Note:** {markdown_text(n)}" for n in result.notes)]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from gate.git import Repo
    from gate.rubric.source import RubricSource

    source = RubricSource(args.rubric, file=args.rubric_file, freeze=args.freeze)
    if args.freeze is not None and args.rubric_file is None:
        raise GateError("--freeze goes with --rubric-file: it pins a local rubric's hash")
    repo = Repo(args.repo)
    base_sha = repo.rev_parse(args.base)
    rubric = source.load(repo.read_blob, base_sha)
    progress = _progress if sys.stderr.isatty() else None
    result = run_lab(
        repo,
        rubric,
        base_sha,
        args.patches,
        rubric_path=source.path,
        repeat=args.repeat,
        jobs=args.jobs,
        stdout_dir=args.stdout_dir,
        progress=progress,
    )
    for note in result.notes:  # on stderr too: a must_include failure without output is no verdict
        output.note(f"gate: note: {note}")
    if args.format == "json":
        output.write(dumps(result.to_dict()))
    elif args.format == "markdown":
        output.write(to_markdown(result))
    else:
        output.write(to_text(result))
    if result.judge_errors:
        names = ", ".join(printable(p) for p in result.judge_errors)
        raise GateError(
            f"could not judge {len(result.judge_errors)} of {len(result.entries)} patches "
            f"({names}); their scoreboard rows say why"
        )
    if result.disagreements:
        return EXIT_ERROR
    return EXIT_PASS if all(e.bucket == "pass" for e in result.entries) else EXIT_FAIL
