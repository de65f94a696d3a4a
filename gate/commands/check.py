"""`gate check`: judge base...head (or a --patch) against the rubric frozen at base.

Imports stay cheap on purpose: no network stack, nothing from `gate.github`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gate.base.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.git.repo import Repo, default_base

if TYPE_CHECKING:
    from gate.model.change import ChangeSet
    from gate.model.rubric import Rubric
    from gate.rubric.source import RubricSource

# Only what starting git needs is imported up front; the rubric loader, the
# change-set model and its git builder, the rules and the report load while
# git computes the diff.

# `--base` default: the first of these that resolves to a commit.  They name
# the branch a change merges into, as a pull request's base does.  Never
# `@{upstream}`: a pushed branch's upstream is the branch itself, and judging
# it against itself judges nothing.
# (gate.base.names owns the tuple: `gate backtest` walks the same default branch.)


def empty_change_note(base: str, head: str, fork: str) -> str | None:
    """ "nothing judged" when base...head is empty because head is in base."""
    from gate.git.repo import short

    if head == base:
        return (
            f"base and head are the same commit ({short(head)}): nothing judged; commit "
            "your change on a branch, or pass --base REV (the branch it will merge into)"
        )
    if head == fork:
        return (
            f"head {short(head)} is already contained in base {short(base)}: the change "
            "is empty, nothing judged; pass --base REV (the branch it will merge into)"
        )
    return None


def uncommitted_note(repo: Repo) -> str | None:
    """The working tree's uncommitted paths, which a git-mode check never reads."""
    from gate.base.words import plural

    count = repo.uncommitted_paths()
    if not count:
        return None
    return (
        f"{plural(count, 'uncommitted path')} not judged (HEAD is "
        "judged, not the working tree); use --patch or commit"
    )


def read_stdout_file(path: str | None) -> str | None:
    """Captured stdout for `must_include` rules (UTF-8, errors replaced)."""
    if path is None:
        return None
    from gate.base.files import read_captured

    return read_captured(path, "stdout file", fix="pass the captured output", stdin=True)


def patch_changes(
    args: argparse.Namespace, repo: Repo, source: RubricSource, stdout: str | None
) -> tuple[Rubric, ChangeSet]:
    """--patch mode: the patch applied to --base (default HEAD) in a temporary index."""
    from gate.changes.patch import changes_from_patch, read_patch

    if args.head is not None:
        raise GateError("--head cannot be combined with --patch: the patch is the head")
    base = repo.rev_parse(args.base if args.base is not None else "HEAD")
    rubric = source.load(repo.read_blob, base, work_tree=repo.path)
    data = read_patch(args.patch)
    name = "<stdin>" if args.patch == "-" else str(args.patch)
    from gate.rules import text_wants  # loaded with the rubric already

    changes = changes_from_patch(repo, base, data, name, text_wants(rubric.rules), stdout=stdout)
    return rubric, changes


def git_changes(
    args: argparse.Namespace, repo: Repo, source: RubricSource, stdout: str | None
) -> tuple[Rubric, ChangeSet, tuple[str, ...]]:
    """Git mode: the merge-base diff base...head (with several merge bases,
    what merging head into base would do: `gate.git.repo.Span`).

    git computes the diff in the background while the rubric is loaded and
    validated, so a huge change costs little more than `git diff` itself.
    The change set's notes say what was not judged (an empty change, the
    working tree's uncommitted paths; also returned apart, for stderr) and
    what git's limits did.
    """
    from gate.git.repo import start_change

    base_rev = args.base if args.base is not None else default_base(repo)
    head_rev = args.head if args.head is not None else "HEAD"
    with start_change(repo, base_rev, head_rev) as started:
        # All of this runs while git computes line counts.
        unjudged = [empty_change_note(started.base, started.head, started.judged.old)]
        if args.head is None:
            unjudged.append(uncommitted_note(repo))
        rubric = source.load(repo.read_blob, started.base, work_tree=repo.path)
        from gate.rules import text_wants  # loaded with the rubric already

        wants = text_wants(rubric.rules)
        import gate.judge  # noqa: F401 - load the rule modules now too
        from gate.changes.git import changes_of

        not_judged = tuple(n for n in unjudged if n is not None)
        changes = changes_of(started, wants, stdout=stdout, notes=not_judged)
    return rubric, changes, not_judged


def run(args: argparse.Namespace) -> int:
    from gate.rubric.source import RubricSource

    source = RubricSource(args.rubric, file=args.rubric_file, freeze=args.freeze)
    if args.patch == "-" and args.stdout_file == "-":
        raise GateError("--patch - and --stdout-file - cannot both read stdin: use a file for one")
    repo = Repo(args.repo)
    stdout = read_stdout_file(args.stdout_file)
    not_judged: tuple[str, ...] = ()
    if args.patch is not None:
        rubric, changes = patch_changes(args, repo, source, stdout)
    else:
        rubric, changes, not_judged = git_changes(args, repo, source, stdout)
    from gate.base import output
    from gate.base.files import write_report
    from gate.judge import judge  # the rubric's examples first, as in the Action
    from gate.report import render, to_json

    scope = None
    if args.scope is not None:
        from gate.rubric.task_scope import read_scope_file

        scope = read_scope_file(args.scope)
    report = judge(rubric, changes, rubric_path=source.path, scope=scope)
    for note in not_judged:  # on stderr too: a PASS that judged nothing must not look like one
        output.note(f"gate: note: {note}")
    text = render(report, args.format, rubric_path=source.path)
    if args.output is not None:
        write_report(args.output, to_json(report))
    output.write(text)
    return EXIT_PASS if report.passed else EXIT_FAIL
