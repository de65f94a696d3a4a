"""`gate init [--path PATH] [--workflow --action OWNER/REPO@SHA [--allow-tag]]`.

Writes the starter rubric (never overwrites), and with `--workflow` also the
workflow that runs the Action, at `.github/workflows/blast-radius.yml` in the
git repository holding the current folder: adopting the gate is this
command, a commit, and marking the check required.

Both go at the root of the repository holding the current folder, from
whatever folder of it the command runs (the rubric at
`.github/blast-radius.yml`, the path the workflow and `gate check` read);
outside a repository, in the current folder, where one will be.  `--path`
is a file path as the shell gives it, from the current folder (as
`--rubric-file` and `--output`), and the workflow's `rubric-path` is that
file's path inside the repository.
"""

from __future__ import annotations

import argparse
import os
import shlex
from pathlib import Path

from gate.base import output
from gate.base.errors import EXIT_PASS, GateError
from gate.base.escape import printable
from gate.frozen.detect import detect
from gate.model.rubric import DEFAULT_RUBRIC_PATH
from gate.starter import (
    BUDGET_EXCLUDES,
    FROZEN_WORKFLOW_PATH,
    REVIEW_WORKFLOW_PATH,
    STARTER_RUBRIC,
    WORKFLOW_PATH,
    action_reference,
    frozen_workflow_text,
    pipelines,
    review_workflow_text,
    starter_rubric,
    workflow_text,
)
from gate.starter.families import found
from gate.starter.unreviewed import Group, find


def _exists(target: Path) -> bool:
    return target.exists() or target.is_symlink()


def write_new(target: Path, text: str, shown: str, what: str) -> None:
    """Create `target` with `text`; never overwrite, never follow a planted symlink."""
    exists = (
        f"{shown} already exists; gate init never overwrites {what}: "
        "edit it, or pass --path to write the starter somewhere else"
    )
    if _exists(target):
        raise GateError(exists)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("x", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except FileExistsError:
        raise GateError(exists) from None
    except OSError as exc:
        raise GateError(f"cannot write {shown} ({exc.strerror or exc}): check --path") from None


def write_starter(path: str, text: str = STARTER_RUBRIC) -> None:
    write_new(Path(path), text, printable(path), "a rubric")


def from_history(args: argparse.Namespace, root: Path, rubric_path: str) -> tuple[str, list[str]]:
    """The starter rubric with budgets learned from the repository's history
    (`gate.research.tuning`), the examples that prove them made to follow their
    limits (`gate.rubric.budgets`), `level: warn` proposed as a comment in
    each rule too noisy on the history (`gate.research.tuning.noisy`), checked by
    running its examples; and the lines that say what was learned: each
    rule's rate, the noisy rules, the path rules' proposals (shown, never
    written)."""
    import sys

    from gate.git.repo import Repo
    from gate.judge.selftest import run_selftest
    from gate.research import tuning
    from gate.research.backtest import run_backtest
    from gate.rubric import budgets
    from gate.rubric.load import load_rubric_bytes

    def progress(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        output.note(f"\rgate: init: judged {done}/{total} commits", end=end)

    repo = Repo(root)
    entries, words = tuning.history(repo, args.at, args.last)
    # The starter fitted to the newest learned commit's tree (its CI, agent
    # and generated files), as plain `gate init` fits it to HEAD's; what a
    # proposal to drop a glob would unprotect is that tree's files too.
    tree: tuple[str, ...] = ()
    fitted = STARTER_RUBRIC
    if entries:
        tree = repo.list_files(entries[0].sha)
        fitted = starter_rubric(
            tree,
            find(repo, entries[0].sha, tree, BUDGET_EXCLUDES),
            pipelines.find(repo, entries[0].sha, tree),
        )
    # The examples proving the budgets first, so that the floors below are
    # what the examples that stay need (an eleven-file example of two lines
    # each must not hold the line budget up).
    text, replaced = budgets.with_proving_examples(fitted, budgets.budget_rules(fitted))
    starter = load_rubric_bytes(text.encode("utf-8"), "the starter rubric")
    result = run_backtest(
        repo,
        starter,
        entries,
        rubric_path=rubric_path,
        rubric_name="the starter rubric",
        revision=words,
        progress=progress if sys.stderr.isatty() else None,
    )
    learned = tuning.learn_budgets(result, starter, args.percentile)
    text = budgets.with_limits(text, {b.rule_id: b.limit for b in learned})
    noisy = tuning.noisy(result, starter, learned)
    text = budgets.with_comments(text, {n.rule_id: n.comment() for n in noisy})
    rubric = load_rubric_bytes(text.encode("utf-8"), "the starter rubric with learned budgets")
    check = run_selftest(rubric)
    if not check.agrees:
        names = ", ".join(o.name for o in check.outcomes if not o.agrees)
        raise GateError(
            f"the starter's examples disagree with the learned budgets ({names}); nothing "
            "written: run gate init without --from-history and set the limits by hand"
        )
    return text, [
        printable(line)
        for line in tuning.summary(result, rubric, learned, args.percentile, replaced, tree)
    ]


def head_tree(
    root: Path | None,
) -> tuple[tuple[str, ...] | None, tuple[Group, ...], tuple[str, ...]]:
    """The paths of the repository's tree at HEAD (`gate init` protects the
    CI, release, agent and review-bot files found there), None outside a
    repository or before its first commit; the groups of files found
    there that nobody reviews line by line (`gate.starter.unreviewed`); and
    the globs of its Azure Pipelines files found by their content
    (`gate.starter.pipelines`).  `starter_rubric(*head_tree(root))` is the
    starter `gate init` writes."""
    if root is None:
        return None, (), ()
    from gate.git.repo import Repo

    repo = Repo(root)
    head = repo.try_rev_parse("HEAD")
    if head is None:
        return None, (), ()
    tree = repo.list_files(head)
    return tree, find(repo, head, tree, BUDGET_EXCLUDES), pipelines.find(repo, head, tree)


def unreviewed_line(groups: tuple[Group, ...]) -> str:
    """What `gate init` says about the files it left out of the budgets."""
    files = sum(g.files for g in groups)
    return (
        f"left out of FILES and LINES: {files} generated, vendored, recorded, translated or "
        f"word-list {'file' if files == 1 else 'files'} found at HEAD (each group under a "
        "comment in the rubric: review them)"
    )


def found_line(tree: tuple[str, ...] | None) -> str:
    """What `gate init` says about the families it found in `tree`."""
    if tree is None:
        return "no commit to read yet: CI and AGENTS list the files every starter protects"
    names = [family.name.split(" (")[0] for family, _ in found(tree)]
    if not names:
        return "no CI, release, deploy, agent or review-bot file found at HEAD"
    return printable("found at HEAD (CI and AGENTS protect them): " + ", ".join(names))


def repo_root(start: Path) -> Path | None:
    """The work tree holding `start` (the nearest folder with a `.git`), or None."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def repo_path(path: str, root: Path | None) -> str | None:
    """`path` (a file path from the current folder) as a path inside the repository."""
    if root is None:
        return None
    absolute = (Path.cwd() / path).resolve(strict=False)
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return None


def rubric_file(path: str | None, root: Path | None) -> str:
    """Where the rubric goes, from the current folder: `--path` as given,
    else the default path at the repository's root `root` (the current
    folder outside a repository)."""
    if path is not None:
        return path
    if root is None:
        return DEFAULT_RUBRIC_PATH
    return Path(os.path.relpath(root / DEFAULT_RUBRIC_PATH, Path.cwd().resolve())).as_posix()


def run(args: argparse.Namespace) -> int:
    if args.action is not None and not args.workflow:
        raise GateError("--action names the gate for the workflow: pass --workflow too")
    if not args.from_history and (
        args.last is not None or args.percentile != 95.0 or args.at is not None
    ):
        raise GateError("--last, --percentile and --at go with --from-history: pass it too")
    root = repo_root(Path.cwd())
    path = rubric_file(args.path, root)
    # From a subfolder, say where the root is and start the git line there.
    up = os.path.relpath(root, Path.cwd().resolve()) if root is not None else os.curdir
    at_root = "" if up == os.curdir else " (the repository's root)"
    to_root = "" if up == os.curdir else f"cd {shlex.quote(Path(up).as_posix())} && "
    # Outside a repository, the current folder is where one will be.
    in_repo = repo_path(path, root if root is not None else Path.cwd().resolve())
    lines: list[str] = []
    workflow: tuple[Path, str] | None = None
    if args.workflow:
        if args.action is None:
            raise GateError(
                "--workflow needs --action OWNER/REPO@SHA: the Blast Radius Gate repository "
                "and the full commit SHA the workflow runs"
            )
        uses = action_reference(args.action, allow_tag=args.allow_tag)
        if root is None:
            raise GateError(
                "gate init --workflow writes .github/workflows/ at the root of your git "
                "repository: run it inside a clone (no .git found here or above)"
            )
        if in_repo is None:
            raise GateError(
                f"--path {printable(path)} is outside the repository at {printable(str(root))}; "
                "the workflow reads the rubric from the repository, so put it inside"
            )
        target = root / WORKFLOW_PATH
        for existing in (target, root / REVIEW_WORKFLOW_PATH, root / FROZEN_WORKFLOW_PATH):
            if _exists(existing):  # refuse before writing anything
                raise GateError(
                    f"{printable(str(existing))} already exists; gate init never overwrites a "
                    "workflow: edit it (examples/ shows every line)"
                )
        workflow = (target, workflow_text(uses, rubric_path=in_repo))

    name = printable(path)
    if workflow is not None and _exists(Path(path)):
        lines.append(f"kept {name}: a rubric is already there")
    elif args.from_history:
        if root is None:
            raise GateError(
                "gate init --from-history learns from this repository's history: run it "
                "inside a clone (no .git found here or above)"
            )
        if _exists(Path(path)):  # refuse before a backtest of minutes
            write_starter(path)
        text, learned = from_history(args, root, in_repo or DEFAULT_RUBRIC_PATH)
        write_starter(path, text)
        lines.append(f"wrote {name}: the starter rubric with budgets from this history")
        lines += learned
    else:
        tree, groups, found_pipelines = head_tree(root)
        text = starter_rubric(tree, groups, found_pipelines)
        write_starter(path, text)
        where = " (the repository's root)" if args.path is None and name != in_repo else ""
        rules = text.count("\n  - id: ")  # the template's rules, each at this indent
        lines.append(
            f"wrote {name}{where}: a starter rubric with {rules} rules and an example for each"
        )
        lines.append(f"  {found_line(tree)}")
        if groups:
            lines.append(f"  {unreviewed_line(groups)}")
    if workflow is not None:
        target, text = workflow
        write_new(target, text, printable(str(target)), "a workflow")
        review = target.parent / Path(REVIEW_WORKFLOW_PATH).name
        write_new(review, review_workflow_text(), printable(str(review)), "a workflow")
        assert root is not None and args.action is not None
        found = detect(root)
        frozen = target.parent / Path(FROZEN_WORKFLOW_PATH).name
        uses = action_reference(args.action, allow_tag=args.allow_tag)
        text = frozen_workflow_text(uses, found.install, found.command)
        write_new(frozen, text, printable(str(frozen)), "a workflow")
        lines.append(
            f"wrote {WORKFLOW_PATH}{at_root}: runs the gate on every pull request and merge "
            "queue entry"
        )
        lines.append(
            f"wrote {REVIEW_WORKFLOW_PATH}: a submitted or dismissed review re-judges the "
            "pull request (for the rubric's waivers)"
        )
        lines.append(
            f"wrote {FROZEN_WORKFLOW_PATH}: the base's tests run against each pull request's "
            f"code ({printable(found.command)}, found by {found.why}); make its install "
            "step do what your test job does"
        )

    quoted = shlex.quote(name)
    lines += [
        "next:",
        f"  gate selftest --strict {quoted}   # the examples prove every rule can fail",
        f"  gate backtest --last 100 --rubric-file {quoted}   # what it would have failed "
        "in your history",
        "  edit the limits and paths to fit your repository",
        f"  gate check --rubric-file {quoted}   # try it on your branch now (a local rubric)",
    ]
    if workflow is not None:
        lines += [
            f'  {to_root}git add .github && git commit -m "Add Blast Radius Gate"'
            "   # land it on main in its own PR",
            "  then require the checks: Settings > Rules > Rulesets > Require status checks "
            "to pass > add blast-radius and blast-radius frozen tests (source: GitHub Actions)",
        ]
    else:
        lines.append("  commit it on main in its own PR; then, on any branch:")
        if in_repo == DEFAULT_RUBRIC_PATH:
            lines.append("  gate check --base main   # judges your branch by the rubric at main")
        elif in_repo is not None:
            lines.append(f"  gate check --base main --rubric {shlex.quote(in_repo)}")
        else:
            lines.append("  gate check --base main --rubric <its path inside the repository>")
    output.write("\n".join(lines) + "\n")
    return EXIT_PASS
