"""Command line: argv -> command function -> int exit code.

Each command lives in `gate/commands/<name>.py` as `run(args) -> int` and is
imported only when chosen, so `gate check` never loads the network stack.
`GateError` is handled here, once: one sentence on stderr, no traceback.  Any
other exception (a bug, RecursionError, MemoryError) is caught here too and
exits 2 "could not judge", never 1 ("a rule failed") or 0.

A flag means one thing in every command (docs/commands.md#words):
`MEANINGS` holds each flag's meaning, and every command's help for it starts
with that text.  An old spelling that meant something else is kept working
as a hidden alias (`DEPRECATED`) that names its replacement on stderr;
the spelling SPEC.md gives `gate grade` is kept as a hidden alias that says
nothing (`SPEC_SPELLINGS`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from gate import __version__
from gate.base.errors import EXIT_ERROR, GateError
from gate.base.names import DEFAULT_BASES, DEFAULT_RUBRIC_PATH

FORMATS = ("text", "json", "markdown")
# A verdict's forms (`gate check`, `gate grade`): gate.report.VERDICT_FORMATS.
VERDICT_FORMATS = (*FORMATS, "github", "sarif")

DESCRIPTION = """\
Blast Radius Gate judges the *shape* of a change (which paths, how many
lines, which symbols and test files) against a rubric frozen at the base
commit, so the change cannot edit the rules that judge it.

Start with `gate demo`. Exit codes: 0 pass, 1 a rule failed, 2 could not
judge (bad rubric, bad arguments, git failure, or an error the gate did not
expect), 3 a --patch did not apply.
"""

# Each flag's one meaning, in every command that takes it: its help starts
# with this text (a command adds its default or its detail after it).
# tests/commands/test_cli_words.py checks every parser against this table and the
# table against the Words section of docs/commands.md.
MEANINGS: dict[str, str] = {
    "--action": "the Blast Radius Gate the workflow runs, pinned by full 40-hex commit SHA",
    "--allow-tag": "accept a tag or branch in --action",
    "--at": "learn from the history before this commit (its first parent and older)",
    "--attempts": "attempts per writer and prompt",
    "--base": (
        "the base commit: the rubric is read from its tree, and a change is judged against it"
    ),
    "--format": "the form printed on stdout",
    "--freeze": "a freeze file whose 'NAME SHA256' line must match the rubric's bytes",
    "--from-history": (
        "set the starter's max_files/max_lines limits from this repository's history, "
        "print each rule's rate on it and propose path globs to loosen"
    ),
    "--frozen-tests": (
        "run the tests with the base's test files and runner configuration, new ones removed"
    ),
    "--head": "the head commit: the change is base...head",
    "--html": "also write the scoreboard to FILE as one HTML page",
    "--jobs": "how many run at once",
    "--keep": "build the repository in DIR (new or empty) and leave it there, on main",
    "--last": "the last N first-parent commits",
    "--output": "also write the JSON report to FILE (deterministic bytes)",
    "--pass-env": "pass this variable of yours to the writers",
    "--patch": "a unified diff, judged as if applied to --base",
    "--path": "where gate init writes the starter rubric, from the current folder",
    "--percentile": "the percentile of the human-written changes",
    "--prompts": "a folder of prompts, one per file",
    "--repeat": "judge each patch N times and flag disagreement",
    "--repo": "the git repository",
    "--results": "the loop's JSON-lines results file",
    "--rubric": "the rubric's path in the repository",
    "--rubric-file": "a local rubric file, used instead of the base commit's",
    "--scope": (
        "a task's scope block (YAML, or Markdown holding a ```blast-radius-scope block), "
        "applied as the rubric's scope: allows"
    ),
    "--shard": "run only shard I of N of the attempts",
    "--stdout-dir": "a folder of captured stdout: DIR/<patch name>.stdout for each patch",
    "--stdout-file": "the captured stdout of the change's tests, for must_include rules",
    "--strict": "a rule that no example makes fail is an error",
    "--test-cmd": "the test command (sh -c)",
    "--test-timeout": "seconds the test command may run",
    "--workflow": "also write .github/workflows/blast-radius.yml",
    "--writer": "a writer: a shell command run in the attempt's worktree",
    "--writer-timeout": "seconds a writer may run",
    "--writers": "a YAML mapping of writer name -> command",
}

# Old spellings kept working: (command, old flag) -> (new flag, why).  Each
# is hidden from --help and says, once on stderr, which flag to use.
DEPRECATED: dict[tuple[str, str], tuple[str, str]] = {
    ("loop run", "--out"): ("--results", "--out read as --output, the JSON report file"),
    ("loop merge", "--out"): ("--results", "--out read as --output, the JSON report file"),
}

# The product contract's own spellings where they differ from the flag of
# the same meaning elsewhere: (command, flag) -> (the flag it stores as, why).
# Hidden from --help, never deprecated, and silent.
SPEC_SPELLINGS: dict[tuple[str, str], tuple[str, str]] = {
    ("grade", "--rubric"): (
        "--rubric-file",
        "SPEC.md writes `gate grade RESULT.json --rubric RUBRIC`, a local file; every "
        "other command reads --rubric as the rubric's path in the repository",
    ),
}


def deprecation(command: str, old: str) -> str:
    """The one sentence an old spelling prints on stderr."""
    new, why = DEPRECATED[(command, old)]
    return f"gate: note: gate {command} {old} is deprecated; use {new} ({why})"


class _Deprecated(argparse.Action):
    """An old spelling: stores into the new flag's dest and says so on stderr
    (through `gate.base.output`, so stdout and the workflow fence are untouched);
    a SPEC spelling (`SPEC_SPELLINGS`) stores the same way and says nothing."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, command: str, **kw: Any):
        self.command = command
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kw)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if (self.command, self.option_strings[0]) in DEPRECATED:
            from gate.base import output

            output.note(deprecation(self.command, self.option_strings[0]))
        setattr(namespace, self.dest, values)


def _help(flag: str, detail: str | None = None) -> str:
    """`flag`'s help: its one meaning, then this command's `detail` (a default, a condition)."""
    return MEANINGS[flag] if detail is None else f"{MEANINGS[flag]} ({detail})"


def _add_format(p: argparse.ArgumentParser, *, verdict: bool = False) -> None:
    detail = "text for people, the default; json for machines; markdown for PRs"
    if verdict:
        detail += "; github for workflow-command annotations; sarif for code scanning"
    p.add_argument(
        "--format",
        choices=VERDICT_FORMATS if verdict else FORMATS,
        default="text",
        help=_help("--format", detail),
    )


def _add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output", "-o", metavar="FILE", help=_help("--output"))


def _add_repo(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--repo", metavar="DIR", default=".", help=_help("--repo", "default: current directory")
    )


def _add_base(p: argparse.ArgumentParser, detail: str, default: str | None = None) -> None:
    p.add_argument("--base", metavar="REV", default=default, help=_help("--base", detail))


def _add_jobs(p: argparse.ArgumentParser, detail: str, default: int) -> None:
    p.add_argument(
        "--jobs", "-j", type=int, default=default, metavar="N", help=_help("--jobs", detail)
    )


def _add_number(
    p: argparse.ArgumentParser,
    flag: str,
    kind: Callable[[str], float],
    default: float,
    metavar: str,
) -> None:
    """`flag` takes a number (`kind`: int or float); its help ends with
    `default`, the value it stores when not given, so the two never differ."""
    p.add_argument(
        flag, type=kind, default=default, metavar=metavar, help=_help(flag, f"default: {default:g}")
    )


def _add_repeatable(
    p: argparse.ArgumentParser, flag: str, metavar: str, detail: str | None = None
) -> None:
    """`flag` given any number of times: a list of its values, in order
    (none: empty); its help says it is repeatable, then `detail`."""
    repeatable = "repeatable" if detail is None else f"repeatable; {detail}"
    p.add_argument(flag, action="append", default=[], metavar=metavar, help=_help(flag, repeatable))


def _add_rubric_path(p: argparse.ArgumentParser, detail: str) -> None:
    p.add_argument(
        "--rubric", metavar="PATH", default=DEFAULT_RUBRIC_PATH, help=_help("--rubric", detail)
    )


def _add_rubric_source(p: argparse.ArgumentParser, *, freeze: str) -> None:
    """`--rubric`, `--rubric-file` and `--freeze`: what `gate.rubric.source.RubricSource`
    takes (`gate check`, `gate lab`, `gate loop run`); `freeze` is the command's
    detail for `--freeze`."""
    _add_rubric_path(p, f"default: {DEFAULT_RUBRIC_PATH}")
    p.add_argument("--rubric-file", metavar="FILE", help=_help("--rubric-file"))
    p.add_argument("--freeze", metavar="FILE", help=_help("--freeze", freeze))


def _add_results(p: argparse.ArgumentParser, command: str, detail: str) -> None:
    """`--results FILE` (required), and `--out`, its old spelling."""
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--results", metavar="FILE", help=_help("--results", detail))
    group.add_argument("--out", dest="results", metavar="FILE", action=_Deprecated, command=command)


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
    _add_base(
        p,
        "default: the branch the change will merge into: origin/HEAD, else main, else "
        "master; never the branch's own upstream; with --patch: HEAD",
    )
    p.add_argument("--head", metavar="REV", default=None, help=_help("--head", "default: HEAD"))
    p.add_argument("--patch", metavar="FILE", help=_help("--patch", "'-' reads stdin"))
    _add_rubric_source(
        p, freeze="the name is the rubric's --rubric-file name, else its --rubric path"
    )
    p.add_argument("--stdout-file", metavar="FILE", help=_help("--stdout-file"))
    p.add_argument("--scope", metavar="FILE", help=_help("--scope"))
    _add_repo(p)
    _add_format(p, verdict=True)
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
    rubric = p.add_mutually_exclusive_group(required=True)
    rubric.add_argument(
        "--rubric-file", metavar="FILE", help=_help("--rubric-file", "YAML or JSON")
    )
    rubric.add_argument(
        "--rubric", dest="rubric_file", metavar="FILE", action=_Deprecated, command="grade"
    )
    p.add_argument("--freeze", metavar="FILE", help=_help("--freeze"))
    _add_format(p, verdict=True)
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
    p.add_argument(
        "--keep",
        metavar="DIR",
        help=_help("--keep"),
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
        metavar="FILE",
        help=_help(
            "--path", f"default: {DEFAULT_RUBRIC_PATH} at the repository's root; never overwrites"
        ),
    )
    p.add_argument("--workflow", action="store_true", help=_help("--workflow", "needs --action"))
    p.add_argument("--action", metavar="OWNER/REPO@SHA", help=_help("--action"))
    p.add_argument(
        "--allow-tag",
        action="store_true",
        help=_help("--allow-tag", "it can be moved to other code; a SHA cannot"),
    )
    p.add_argument(
        "--from-history",
        action="store_true",
        help=_help(
            "--from-history", "a percentile of the human-written changes; see gate backtest"
        ),
    )
    p.add_argument(
        "--percentile",
        type=float,
        default=95.0,
        metavar="P",
        help=_help("--percentile", "with --from-history; default 95"),
    )
    p.add_argument(
        "--last",
        type=int,
        default=None,
        metavar="N",
        help=_help("--last", "with --from-history: the history learnt from; default 200"),
    )
    p.add_argument("--at", metavar="REV", help=_help("--at", "with --from-history"))

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
    _add_base(
        p, "its rubric's examples are run; without --base: FILE, else the working tree's rubric"
    )
    _add_rubric_path(p, f"default: {DEFAULT_RUBRIC_PATH}; read at --base, else in the working tree")
    p.add_argument(
        "--strict",
        action="store_true",
        help=_help(
            "--strict", "with --base, so is a content rule whose file the base does not have"
        ),
    )
    _add_repo(p)
    _add_format(p)

    p = sub.add_parser(
        "lab", help="judge many writer patches against one base and print a scoreboard"
    )
    p.add_argument("patches", nargs="+", metavar="PATCH")
    _add_base(p, "each patch applies onto it; default: HEAD", default="HEAD")
    _add_rubric_source(p, freeze="with --rubric-file")
    p.add_argument("--stdout-dir", metavar="DIR", help=_help("--stdout-dir"))
    _add_number(p, "--repeat", int, 1, "N")
    _add_jobs(p, "patches; default: the number of CPUs", 0)
    p.add_argument("--scope", metavar="FILE", help=_help("--scope"))
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
        help=_help("--last", "judged; default: 200; with RANGE: all of it"),
    )
    _add_rubric_path(
        p,
        f"default: {DEFAULT_RUBRIC_PATH}; read at HEAD unless --rubric-file, and watched by "
        "gate.rubric-edited",
    )
    p.add_argument(
        "--rubric-file",
        metavar="FILE",
        help=_help("--rubric-file", "say, the one gate init just wrote"),
    )
    _add_jobs(p, "commits, in that many worker processes; default: 4", 4)
    _add_repo(p)
    _add_format(p)

    p = sub.add_parser(
        "frozen-tests",
        help="run the base's tests (test files, runner configuration) against HEAD's code",
        description=(
            "Run COMMAND (an argv, no shell) in a temporary worktree of HEAD in which every "
            "path the rubric's test globs match and every test runner's configuration is as "
            "at the base, files the base lacks there removed, and the test part of shared "
            "files (pyproject.toml, package.json, setup.cfg...) as at the base. The "
            "checkout's installed dependencies are linked in; the checkout itself is never "
            "written. A failing base test is excused only by a test_drift flag that explains "
            "it. Exit 0: no red failure; 1: a red failure (COMMAND's output passed through); "
            "2: the run could not be prepared."
        ),
    )
    _add_base(
        p, f"the tests are as at its merge base with HEAD; default: {' then '.join(DEFAULT_BASES)}"
    )
    _add_repo(p)
    p.add_argument(
        "--rubric",
        metavar="PATH",
        help=_help("--rubric", f"read at --base; default: {DEFAULT_RUBRIC_PATH}"),
    )
    p.add_argument("--rubric-file", metavar="FILE", help=_help("--rubric-file"))
    _add_format(p)
    p.add_argument("argv", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARG...]")

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
        p.add_argument("--html", metavar="FILE", help=_help("--html"))
        _add_format(p)

    p = commands.add_parser(
        "run", help="run the attempts, append to --results, print the scoreboard"
    )
    _add_repeatable(p, "--writer", "NAME=COMMAND")
    p.add_argument("--writers", metavar="FILE", help=_help("--writers"))
    p.add_argument("--prompts", required=True, metavar="DIR", help=_help("--prompts"))
    _add_number(p, "--attempts", int, 1, "N")
    p.add_argument("--test-cmd", required=True, metavar="COMMAND", help=_help("--test-cmd"))
    p.add_argument(
        "--frozen-tests",
        action="store_true",
        help=_help(
            "--frozen-tests",
            "each attempt's test run: every failing base test counts, edited or not",
        ),
    )
    _add_results(p, "loop run", "appended to; a rerun resumes from it")
    _add_base(p, "each attempt's worktree starts at it; default: HEAD", default="HEAD")
    p.add_argument("--shard", metavar="I/N", help=_help("--shard"))
    _add_jobs(p, "attempts; default: 1", 1)
    _add_number(p, "--writer-timeout", float, 600.0, "S")
    _add_number(p, "--test-timeout", float, 300.0, "S")
    _add_repeatable(p, "--pass-env", "NAME", "nothing else is passed")
    _add_rubric_source(p, freeze="with --rubric-file")
    _add_repo(p)
    html(p)

    p = commands.add_parser("merge", help="join shards' results files into one, refusing mixes")
    p.add_argument("results_files", nargs="+", metavar="RESULTS")
    _add_results(p, "loop merge", "written: the shards merged")
    html(p)

    p = commands.add_parser("report", help="the scoreboard of a results file")
    p.add_argument("results_file", metavar="RESULTS")
    html(p)

    p = commands.add_parser("replay", help="the replay writer: recorded outputs from DIR")
    p.add_argument("folder", metavar="DIR")


def _close(word: str, choices: Sequence[str]) -> str:
    """`; did you mean 'X'?` for the closest of `choices` (difflib), or ''."""
    import difflib

    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {match[0]!r}?" if match else ""


def _chosen(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The (sub)command parser `args` chose: `gate loop run`'s for `gate loop run`."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            name = getattr(args, action.dest, None)
            if isinstance(name, str) and name in action.choices:
                return _chosen(action.choices[name], args)
    return parser


# The words `_Parser.parse_args` was given, for a hint in a usage error.
_typed: list[str] = []


class _Parser(argparse.ArgumentParser):
    """argparse, printing help and usage errors through `gate.base.output` too.
    A mistyped command, choice or flag gets the closest spelling (difflib),
    and an unknown flag the usage of the command it was given to."""

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        _typed[:] = sys.argv[1:] if args is None else list(args)
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            where = _chosen(self, parsed)
            hint = where.flag_hint(extras) if isinstance(where, _Parser) else ""
            where.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
        return parsed

    def flag_hint(self, words: Sequence[str]) -> str:
        """The closest of this parser's flags to the first of `words` that
        looks like a flag it lacks, or ''."""
        shown = [a for a in self._actions if a.help != argparse.SUPPRESS]
        flags = [o for a in shown for o in a.option_strings if o.startswith("--")]
        unknown = [w.split("=", 1)[0] for w in words if w.startswith("--")]
        return next((_close(w, flags) for w in unknown if w not in flags), "")

    def error(self, message: str) -> NoReturn:
        import re

        # A required flag kept with a hidden old spelling is a group of one to
        # argparse ("one of the arguments --results is required"): say it plainly.
        names = message.removeprefix("one of the arguments ").removesuffix(" is required")
        if names != message and " " not in names:
            message = f"the following arguments are required: {names}"
        if message.startswith("the following arguments are required"):
            message += self.flag_hint(_typed)  # a required flag mistyped
        choice = re.search(r"invalid choice: '(.*?)' \(choose from (.*)\)$", message)
        if choice is not None:
            options = re.findall(r"'([^']*)'", choice.group(2)) or choice.group(2).split(", ")
            message += _close(choice.group(1), options)
        super().error(message)

    def _print_message(self, message: str, file: object = None) -> None:
        if not message:
            return
        from gate.base import output

        if file is sys.stderr:
            output.note(message, end="")
        else:
            output.write(message)


def main(argv: Sequence[str] | None = None) -> int:
    from gate.base import output

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
    # `gate action` keeps its own log (gate.base.workflow.Log), fenced block by block.
    fmt = "json" if args.command == "action" else getattr(args, "format", None)
    output.start({} if args.command == "action" else os.environ, fmt)
    try:
        # Only the chosen command is imported: the others cost start-up time.
        module = importlib.import_module(f"gate.commands.{args.command.replace('-', '_')}")
        code: int = module.run(args)
    except GateError as exc:
        output.error(exc.message)
        if fmt == "github":  # the step's annotations say it too
            from gate.report.annotations import could_not_judge

            output.write(could_not_judge(exc.message))
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
    from gate.base import output
    from gate.base.errors import debug_enabled, internal_error

    with contextlib.suppress(Exception):
        if debug_enabled(os.environ):
            import traceback

            output.note("".join(traceback.format_exception(exc)), end="")
        output.error(f"could not judge: {internal_error(exc)}")
