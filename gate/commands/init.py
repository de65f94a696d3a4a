"""`gate init [--path PATH] [--workflow --action OWNER/REPO@SHA [--allow-tag]]`.

Writes the starter rubric (never overwrites), and with `--workflow` also the
workflow that runs the Action, at `.github/workflows/blast-radius.yml` in the
git repository holding the current folder: adopting the gate is this
command, a commit, and marking the check required.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from gate import output
from gate.errors import EXIT_PASS, GateError
from gate.escape import printable
from gate.rubric import DEFAULT_RUBRIC_PATH
from gate.rubric.starter import STARTER_RUBRIC, WORKFLOW_PATH, action_reference, workflow_text


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


def write_starter(path: str) -> None:
    write_new(Path(path), STARTER_RUBRIC, printable(path), "a rubric")


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


def run(args: argparse.Namespace) -> int:
    path: str = args.path
    if args.action is not None and not args.workflow:
        raise GateError("--action names the gate for the workflow: pass --workflow too")
    root = repo_root(Path.cwd())
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
        if _exists(target):  # refuse before writing anything
            raise GateError(
                f"{printable(str(target))} already exists; gate init never overwrites a "
                "workflow: edit it (examples/blast-radius-workflow.yml shows every line)"
            )
        workflow = (target, workflow_text(uses, rubric_path=in_repo))

    name = printable(path)
    if workflow is not None and _exists(Path(path)):
        lines.append(f"kept {name}: a rubric is already there")
    else:
        write_starter(path)
        lines.append(f"wrote {name}: a starter rubric with 6 rules and an example for each")
    if workflow is not None:
        target, text = workflow
        write_new(target, text, printable(str(target)), "a workflow")
        lines.append(
            f"wrote {WORKFLOW_PATH}: runs the gate on every pull request and merge queue entry"
        )

    quoted = shlex.quote(name)
    lines += [
        "next:",
        f"  gate selftest --strict {quoted}   # the examples prove every rule can fail",
        "  edit the limits and paths to fit your repository",
        f"  gate check --rubric-file {quoted}   # try it on your branch now (a local rubric)",
    ]
    if workflow is not None:
        lines += [
            '  git add .github && git commit -m "Add Blast Radius Gate"'
            "   # land it on main in its own PR",
            "  then require the check: Settings > Rules > Rulesets > Require status checks "
            "to pass > add blast-radius (source: GitHub Actions)",
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
