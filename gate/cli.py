"""Command line: argv -> command function -> int exit code.

Each command lives in `gate/commands/<name>.py` as `run(args) -> int` and is
imported only when chosen, so `gate check` never loads the network stack.
`GateError` is handled here, once: one sentence on stderr, no traceback.  Any
other exception (a bug, RecursionError, MemoryError) is caught here too and
exits 2 "could not judge", never 1 ("a rule failed") or 0.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

from gate import __version__
from gate.errors import EXIT_ERROR, GateError
from gate.names import DEFAULT_RUBRIC_PATH

FORMATS = ("text", "json", "markdown")

DESCRIPTION = """\
Blast Radius Gate judges the *shape* of a change (which paths, how many
lines, which symbols and test files) against a rubric frozen at the base
commit, so the change cannot edit the rules that judge it.

Start with `gate demo`. Exit codes: 0 pass, 1 a rule failed, 2 could not
judge (bad rubric, bad arguments, git failure, or an error the gate did not
expect), 3 a --patch did not apply.
"""


def _add_format(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="report format: text for people (default), json for machines, markdown for PRs",
    )


def _add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="also write the JSON report to FILE (deterministic bytes)",
    )


def _add_repo(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--repo", metavar="DIR", default=".", help="the git repository (default: current directory)"
    )


def _add_rubric_source(p: argparse.ArgumentParser, *, freeze: str) -> None:
    """`--rubric`, `--rubric-file` and `--freeze`: what `gate.rubric.source.RubricSource`
    takes (`gate check`, `gate lab`); `freeze` is the command's help for `--freeze`."""
    p.add_argument(
        "--rubric",
        metavar="PATH",
        default=DEFAULT_RUBRIC_PATH,
        help=f"repository path of the rubric (default: {DEFAULT_RUBRIC_PATH})",
    )
    p.add_argument(
        "--rubric-file",
        metavar="FILE",
        help="use this local rubric file instead of the base commit's",
    )
    p.add_argument("--freeze", metavar="FILE", help=freeze)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gate",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "check",
        help="judge base...head (or a --patch) against the rubric frozen at base",
        description=(
            "Judge the change BASE...HEAD (the merge-base diff, as GitHub shows a PR) "
            "in the current git repository. The rubric is read from the BASE commit's "
            "tree, never from the working tree, the index or HEAD. With --patch, judge "
            "a unified diff as if applied to BASE, without touching the working tree."
        ),
    )
    p.add_argument(
        "--base",
        metavar="REV",
        help=(
            "base revision: the branch the change will merge into (default: origin/HEAD, "
            "else main, else master; never the branch's own upstream; with --patch: HEAD)"
        ),
    )
    p.add_argument("--head", metavar="REV", default=None, help="head revision (default: HEAD)")
    p.add_argument(
        "--patch",
        metavar="FILE",
        help="judge this unified diff as if applied to --base ('-' reads stdin)",
    )
    _add_rubric_source(
        p,
        freeze=(
            "FILE's 'NAME SHA256' line for the rubric (its --rubric-file name, else its "
            "--rubric path) must match the rubric's bytes"
        ),
    )
    p.add_argument("--stdout-file", metavar="FILE", help="captured stdout for must_include rules")
    _add_repo(p)
    _add_format(p)
    _add_output(p)

    p = sub.add_parser(
        "grade",
        help="judge a writer's structured result.json",
        description=(
            "Judge a structured writer result: a JSON object with files_touched (int), "
            "stdout (string) and paths (list of strings). Path rules read paths, "
            "max_files reads files_touched, must_include reads stdout; a rule that needs "
            "data the result does not carry fails."
        ),
    )
    p.add_argument("writer_result", metavar="RESULT.json")
    p.add_argument(
        "--rubric", metavar="RUBRIC", required=True, help="the rubric file (YAML or JSON)"
    )
    p.add_argument(
        "--freeze",
        metavar="FREEZE",
        help="freeze file whose 'NAME SHA256' line must match the rubric",
    )
    _add_format(p)
    _add_output(p)

    p = sub.add_parser("freeze", help="print 'NAME SHA256' lines for files (what --freeze reads)")
    p.add_argument("files", nargs="+", metavar="FILE")

    p = sub.add_parser("validate", help="check a rubric against the schema (exit 0 or 2)")
    p.add_argument(
        "file",
        nargs="?",
        default=DEFAULT_RUBRIC_PATH,
        metavar="FILE",
        help=f"rubric file (default: {DEFAULT_RUBRIC_PATH})",
    )

    sub.add_parser("schema", help="print the rubric's JSON Schema")

    p = sub.add_parser(
        "diff", help="compare two JSON reports rule by rule (exit 1 when any verdict differs)"
    )
    p.add_argument("report_a", metavar="REPORT_A")
    p.add_argument("report_b", metavar="REPORT_B")
    _add_format(p)

    p = sub.add_parser(
        "demo", help="judge an honest fix and an over-eager cleanup in a throwaway repo"
    )
    _add_format(p)

    p = sub.add_parser(
        "init",
        help=f"write a starter rubric at {DEFAULT_RUBRIC_PATH} (--workflow: and the workflow)",
        description=(
            f"Write a starter rubric at {DEFAULT_RUBRIC_PATH} at the root of the git "
            "repository holding the current folder (never overwrites). With "
            "--workflow --action OWNER/REPO@SHA, also write .github/workflows/blast-radius.yml "
            "there, running that commit of the Action on every "
            "pull request and merge queue entry (an existing rubric is kept)."
        ),
    )
    p.add_argument(
        "--path",
        help=(
            "where to write it, from the current folder (default: "
            f"{DEFAULT_RUBRIC_PATH} at the repository's root; refuses to overwrite)"
        ),
    )
    p.add_argument(
        "--workflow",
        action="store_true",
        help="also write .github/workflows/blast-radius.yml (needs --action)",
    )
    p.add_argument(
        "--action",
        metavar="OWNER/REPO@SHA",
        help="the Blast Radius Gate the workflow runs, pinned by full 40-hex commit SHA",
    )
    p.add_argument(
        "--allow-tag",
        action="store_true",
        help="accept a tag or branch in --action (it can be moved to other code; a SHA cannot)",
    )
    p.add_argument(
        "--from-history",
        action="store_true",
        help=(
            "set the starter's max_files/max_lines limits from this repository's history "
            "(a percentile of the human-written changes; see gate backtest)"
        ),
    )
    p.add_argument(
        "--percentile",
        type=float,
        default=95.0,
        metavar="P",
        help="with --from-history: the percentile of the human-written changes (default 95)",
    )
    p.add_argument(
        "--last",
        type=int,
        default=None,
        metavar="N",
        help="with --from-history: learn from the last N first-parent commits (default 200)",
    )

    p = sub.add_parser(
        "selftest",
        help="run the rubric's examples: each must get the verdict it expects",
    )
    p.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help=(
            "rubric file (default: the --rubric path in the working tree; "
            "with --base: that path in the base commit)"
        ),
    )
    p.add_argument("--base", metavar="REV", help="read the rubric from this commit's tree")
    p.add_argument(
        "--rubric",
        metavar="PATH",
        default=DEFAULT_RUBRIC_PATH,
        help="repository path of the rubric with --base",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help=(
            "a rule that no example makes fail is an error; with --base, so is a content "
            "rule whose file the base does not have"
        ),
    )
    _add_repo(p)
    _add_format(p)

    p = sub.add_parser(
        "lab", help="judge many writer patches against one base and print a scoreboard"
    )
    p.add_argument("patches", nargs="+", metavar="PATCH")
    p.add_argument("--base", metavar="REV", default="HEAD", help="base revision (default: HEAD)")
    _add_rubric_source(
        p, freeze="with --rubric-file: FILE's 'NAME SHA256' line must match the rubric's bytes"
    )
    p.add_argument(
        "--stdout-dir",
        metavar="DIR",
        help="DIR/<patch name>.stdout holds each patch's captured test output",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="judge each patch N times and flag disagreement",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=0,
        metavar="N",
        help="parallel workers (default: number of CPUs)",
    )
    _add_repo(p)
    _add_format(p)

    _add_loop(sub)

    p = sub.add_parser(
        "backtest",
        help="judge a rubric against the repository's own history (agent- and human-written)",
        description=(
            "Judge a rubric against the repository's own history: each first-parent commit "
            "of the default branch (origin/HEAD, else main, else master, else HEAD), or of "
            "RANGE, as the change from its first parent, exactly as gate check --base SHA^ "
            "--head SHA judges it. Prints per rule how many agent- and human-written "
            "changes it would have failed, and the failing commits. Exit 0: none failed; "
            "1: some failed; 2: could not judge (some commits unjudged, bad range, no rubric)."
        ),
    )
    p.add_argument(
        "range",
        nargs="?",
        metavar="RANGE",
        help="a revision or range to walk instead, e.g. v1.0..main (first parents only)",
    )
    p.add_argument(
        "--last",
        type=int,
        metavar="N",
        help="judge the last N first-parent commits (default: 200; with RANGE: all of it)",
    )
    p.add_argument(
        "--rubric",
        metavar="PATH",
        default=DEFAULT_RUBRIC_PATH,
        help=(
            f"repository path of the rubric (default: {DEFAULT_RUBRIC_PATH}): read at HEAD "
            "unless --rubric-file, and watched by gate.rubric-edited"
        ),
    )
    p.add_argument(
        "--rubric-file",
        metavar="FILE",
        help="judge with this local rubric (say, the one gate init just wrote)",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=4,
        metavar="N",
        help="commits judged at once, each by its own git processes (default: 4)",
    )
    _add_repo(p)
    _add_format(p)

    sub.add_parser(
        "action", help="the GitHub Action's entry point (reads the runner's environment)"
    )
    return parser


def _add_loop(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """`gate loop run|merge|report|replay` (docs/writer-loop.md)."""
    loop = sub.add_parser(
        "loop",
        help="run writers on prompts, apply, test, judge and reset; score by writer x prompt",
        description=(
            "The whole writer loop: each attempt gets a fresh worktree at --base, the "
            "writer's diff (or edits) judged as gate check --patch judges a patch, the test "
            "command run on the judged tree, the worktree removed. Results stream to a "
            "JSON-lines file; a rerun resumes. See docs/writer-loop.md."
        ),
    )
    commands = loop.add_subparsers(dest="loop_command", metavar="SUBCOMMAND")

    def html(p: argparse.ArgumentParser) -> None:
        p.add_argument("--html", metavar="FILE", help="also write the HTML report to FILE")
        _add_format(p)

    p = commands.add_parser("run", help="run the attempts, append to --out, print the scoreboard")
    p.add_argument(
        "--writer",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="a writer: a shell command run in the attempt's worktree (repeatable)",
    )
    p.add_argument("--writers", metavar="FILE", help="YAML mapping of writer name -> command")
    p.add_argument("--prompts", required=True, metavar="DIR", help="one prompt per file")
    p.add_argument(
        "--attempts", type=int, default=1, metavar="N", help="attempts per writer and prompt"
    )
    p.add_argument("--test-cmd", required=True, metavar="COMMAND", help="the test command (sh -c)")
    p.add_argument("--out", required=True, metavar="FILE", help="the JSON-lines results file")
    p.add_argument("--base", metavar="REV", default="HEAD", help="base revision (default: HEAD)")
    p.add_argument("--shard", metavar="I/N", help="run only shard I of N of the attempts")
    p.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="attempts at once")
    p.add_argument(
        "--writer-timeout", type=float, default=600.0, metavar="S", help="seconds (default 600)"
    )
    p.add_argument(
        "--test-timeout", type=float, default=300.0, metavar="S", help="seconds (default 300)"
    )
    p.add_argument(
        "--pass-env",
        action="append",
        default=[],
        metavar="NAME",
        help="pass this variable of yours to the writers (repeatable; nothing else is passed)",
    )
    _add_rubric_source(
        p, freeze="with --rubric-file: FILE's 'NAME SHA256' line must match the rubric's bytes"
    )
    _add_repo(p)
    html(p)

    p = commands.add_parser("merge", help="join shards' results files into one, refusing mixes")
    p.add_argument("files", nargs="+", metavar="RESULTS")
    p.add_argument("--out", required=True, metavar="FILE", help="the merged results file")
    html(p)

    p = commands.add_parser("report", help="the scoreboard of a results file")
    p.add_argument("file", metavar="RESULTS")
    html(p)

    p = commands.add_parser("replay", help="the replay writer: recorded outputs from DIR")
    p.add_argument("folder", metavar="DIR")


class _Parser(argparse.ArgumentParser):
    """argparse, printing help and usage errors through `gate.output` too."""

    def _print_message(self, message: str, file: object = None) -> None:
        if not message:
            return
        from gate import output

        if file is sys.stderr:
            output.note(message, end="")
        else:
            output.write(message)


def main(argv: Sequence[str] | None = None) -> int:
    from gate import output

    output.start(os.environ, None)
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:  # --help, --version, or a usage error (exit 2)
        output.finish()
        raise
    if args.command is None:
        build_parser().print_help()
        output.finish()
        return EXIT_ERROR
    # `gate action` keeps its own log (gate.github.workflow.Log), fenced block by block.
    fmt = "json" if args.command == "action" else getattr(args, "format", None)
    output.start({} if args.command == "action" else os.environ, fmt)
    try:
        # Only the chosen command is imported: the others cost start-up time.
        module = importlib.import_module(f"gate.commands.{args.command}")
        code: int = module.run(args)
    except GateError as exc:
        output.error(exc.message)
        return exc.code
    except KeyboardInterrupt:
        output.note("gate: interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_ERROR
    except Exception as exc:  # not expected: a bug or an exhausted machine, never a verdict
        _internal_error(exc)
        return EXIT_ERROR
    finally:
        with contextlib.suppress(Exception):
            output.finish()
    return code


def _internal_error(exc: Exception) -> None:
    """Exit 2 with one sentence (and the traceback under GATE_DEBUG=1).

    Printing may fail too (out of memory, a closed stderr): the exit code is
    what matters, so a failure to print is swallowed.
    """
    from gate import output
    from gate.errors import debug_enabled, internal_error

    with contextlib.suppress(Exception):
        if debug_enabled(os.environ):
            import traceback

            output.note("".join(traceback.format_exception(exc)), end="")
        output.error(f"could not judge: {internal_error(exc)}")
