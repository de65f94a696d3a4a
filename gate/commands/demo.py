"""`gate demo`: the first command a newcomer runs.

Needs nothing but the installed package and git.  In a throwaway repository
it commits the seed lab (an off-by-one `clamp()`, its tests, and a rubric at
`.github/blast-radius.yml`) as the base, then judges two branches with the
very code path of `gate check` (the rubric read from the base commit's tree,
the merge-base diff, `judge.evaluate`):

- `honest-fix`: the one-line fix, `hi - 1` becomes `hi`.  It must pass.
- `cleanup`: the same fix plus an over-eager "cleanup" (the bait import
  deleted, the helper renamed, a test dropped).  It must fail.

Exit 0 when both verdicts came out as designed, 1 otherwise.

`--keep DIR` builds the repository in DIR (new or empty, else exit 2) and
leaves it there, checked out on `main`, for the walkthroughs to work in
(docs/writer-loop.md).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gate.base.errors import EXIT_FAIL, EXIT_PASS, GateError
from gate.base.escape import printable
from gate.judge.selftest import SelftestReport
from gate.model.report import Report
from gate.model.rubric import DEFAULT_RUBRIC_PATH
from gate.report import in_format, to_markdown
from gate.rules import text_wants

# A fixed identity and clock: the demo works on a machine with no git config
# and its commit shas (shown in the report) are the same on every run.
DEMO_ENV = {
    "GIT_AUTHOR_NAME": "gate demo",
    "GIT_AUTHOR_EMAIL": "demo@blast-radius.invalid",
    "GIT_COMMITTER_NAME": "gate demo",
    "GIT_COMMITTER_EMAIL": "demo@blast-radius.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}

BASE = "main"


@dataclass(frozen=True)
class Scenario:
    branch: str
    story: str
    files: Mapping[str, str]
    should_pass: bool


def scenarios() -> tuple[Scenario, ...]:
    from gate.starter import demo_fixture

    return (
        Scenario(
            "honest-fix",
            "the one-line fix: `hi - 1` becomes `hi`",
            {"clamp_kit.py": demo_fixture.HONEST_FIX, "test_clamp.py": demo_fixture.TEST_CLAMP},
            True,
        ),
        Scenario(
            "cleanup",
            "the same fix plus an over-eager cleanup: the unused import deleted, "
            "_noisy_helper renamed to _identity, test_mid dropped",
            {"clamp_kit.py": demo_fixture.CLEANUP_KIT, "test_clamp.py": demo_fixture.CLEANUP_TEST},
            False,
        ),
    )


class DemoRepo:
    """A throwaway repository built with plumbing only: no working tree,
    no hooks, no signing, no user config."""

    def __init__(self, path: str) -> None:
        from gate.git.repo import Repo

        self.repo = Repo(path)
        self.repo.run(["init", "-q"], env=DEMO_ENV)

    def _git(self, args: list[str], data: bytes | None = None) -> str:
        out = self.repo.run(args, env=DEMO_ENV, input=data)
        return out.decode("utf-8").strip()

    def _tree(self, files: Mapping[str, str]) -> str:
        """A tree object for `files` (paths with at most one folder level)."""
        top: dict[str, str] = {}
        folders: dict[str, dict[str, str]] = {}
        for path, text in sorted(files.items()):
            blob = self._git(["hash-object", "-w", "--stdin"], text.encode("utf-8"))
            folder, _, name = path.rpartition("/")
            if folder:
                folders.setdefault(folder, {})[name] = blob
            else:
                top[name] = blob
        entries = [f"100644 blob {sha}\t{name}\n" for name, sha in top.items()]
        for folder, blobs in folders.items():
            listing = "".join(f"100644 blob {sha}\t{name}\n" for name, sha in blobs.items())
            sub = self._git(["mktree"], listing.encode("utf-8"))
            entries.append(f"040000 tree {sub}\t{folder}\n")
        return self._git(["mktree"], "".join(sorted(entries)).encode("utf-8"))

    def commit(
        self, branch: str, files: Mapping[str, str], message: str, parent: str | None
    ) -> str:
        tree = self._tree(files)
        args = ["commit-tree", "--no-gpg-sign", tree, "-m", message]
        if parent is not None:
            args += ["-p", parent]
        sha = self._git(args)
        self._git(["update-ref", f"refs/heads/{branch}", sha])
        return sha

    def check_out(self, branch: str) -> None:
        """HEAD on `branch`, its files in the working tree and the index."""
        self._git(["symbolic-ref", "HEAD", f"refs/heads/{branch}"])
        self._git(["reset", "-q", "--hard", branch])


def judge_branch(demo: DemoRepo, branch: str) -> Report:
    """Exactly what `gate check --base main --head BRANCH` does."""
    from gate.changes.git import changes_from_git
    from gate.judge import judge
    from gate.rubric.source import RubricSource

    base = demo.repo.rev_parse(BASE)
    rubric = RubricSource(DEFAULT_RUBRIC_PATH).load(demo.repo.read_blob, base)
    changes = changes_from_git(demo.repo, base, branch, text_wants(rubric.rules))
    return judge(rubric, changes, rubric_path=DEFAULT_RUBRIC_PATH)


def kept_folder(path: str) -> str:
    """`--keep DIR`: DIR made (or found empty); anything else is a GateError."""
    shown = printable(path)
    try:
        os.makedirs(path, exist_ok=True)
        entries = os.listdir(path)
    except FileExistsError:
        raise GateError(f"--keep {shown} is a file: name a new or empty folder") from None
    except OSError as exc:
        raise GateError(
            f"cannot use --keep {shown} ({exc.strerror or exc}): name a new or empty folder "
            "you can write"
        ) from None
    if entries:
        raise GateError(f"--keep {shown} is not empty: name a new or empty folder")
    return path


@contextlib.contextmanager
def _folder(keep: str | None) -> Iterator[str]:
    if keep is not None:
        yield kept_folder(keep)
        return
    with tempfile.TemporaryDirectory(prefix="gate-demo-") as tmp:
        yield tmp


def run_demo(keep: str | None = None) -> tuple[SelftestReport, list[tuple[Scenario, Report]]]:
    """The rubric's own examples first (the judge says both words), then the
    branches; with `keep`, the repository stays there, checked out on main."""
    from gate.judge.selftest import run_selftest
    from gate.rubric.source import RubricSource
    from gate.starter import demo_fixture

    base_files = {**demo_fixture.FILES, DEFAULT_RUBRIC_PATH: demo_fixture.RUBRIC}
    out = []
    with _folder(keep) as folder:
        demo = DemoRepo(folder)
        base = demo.commit(BASE, base_files, "red: off-by-one on hi", None)
        selftest = run_selftest(RubricSource(DEFAULT_RUBRIC_PATH).load(demo.repo.read_blob, base))
        for sc in scenarios():
            demo.commit(sc.branch, {**base_files, **sc.files}, sc.branch, base)
            out.append((sc, judge_branch(demo, sc.branch)))
        if keep is not None:
            demo.check_out(BASE)
    return selftest, out


def as_designed(selftest: SelftestReport, judged: list[tuple[Scenario, Report]]) -> bool:
    return selftest.agrees and all(report.passed == sc.should_pass for sc, report in judged)


def selftest_lines(selftest: SelftestReport) -> list[str]:
    from gate.report.selftest import outcome_lines

    n = len(selftest.outcomes)
    lines = [f"0. gate selftest: the rubric's {n} examples must get the verdicts they expect"]
    lines += outcome_lines(selftest, "   ")
    if selftest.unproven:
        lines.append(f"   unproven rules: {', '.join(selftest.unproven)}")
    else:
        lines.append("   every rule is proven able to fail, and one example proves a pass")
    return lines


def to_text(
    selftest: SelftestReport, judged: list[tuple[Scenario, Report]], keep: str | None = None
) -> str:
    from gate.base.names import BUILTIN_PREFIX

    rule_ids = [r.id for r in judged[0][1].results if not r.id.startswith(BUILTIN_PREFIX)]
    lines = [
        "gate demo: a throwaway git repository with an off-by-one clamp() and a frozen rubric",
        f"  base ({BASE}): clamp_kit.py, test_clamp.py and {DEFAULT_RUBRIC_PATH}",
        f"  rubric rules: {', '.join(rule_ids)}",
        "",
        *selftest_lines(selftest),
        "",
    ]
    for n, (sc, report) in enumerate(judged, 1):
        s = report.stats
        lines.append(f"{n}. branch {sc.branch}: {sc.story}")
        lines.append(f"   {s.summary()}")
        if report.passed:
            builtins = len(report.results) - report.rule_count
            lines.append(
                f"   verdict: PASS (all {len(report.results)} rules passed: "
                f"{report.rule_count} from the rubric, {builtins} built-in)"
            )
        else:
            lines.append(f"   verdict: FAIL ({', '.join(report.failed)})")
            for r in report.results:
                if not r.passed:
                    why = f" [{printable(r.description)}]" if r.description else ""
                    lines.append(f"     {printable(r.id)}: {printable(r.message)}{why}")
                    if r.paths:
                        shown = ", ".join(printable(p) for p in r.paths)
                        lines.append(f"       paths: {shown}")
        expected = "pass" if sc.should_pass else "fail"
        ok = report.passed == sc.should_pass
        lines.append(f"   expected {expected}: {'as designed' if ok else 'NOT AS DESIGNED'}")
        lines.append("")
    lines += [
        "What just happened: both branches fix the bug and would turn the tests green.",
        "The gate read the rubric from the base commit (the branches cannot edit it),",
        "measured each branch's numstat, paths and symbols, and failed the cleanup for",
        "what else moved. A pass only clears the frozen rule list; it never claims more.",
        "",
        "Try it yourself, in your repository:",
        f"  gate init                     # writes a starter rubric at {DEFAULT_RUBRIC_PATH}",
        f"  gate selftest --strict {DEFAULT_RUBRIC_PATH}",
        "  git commit the rubric on main, then on your branch:",
        "  gate check --base main        # exit 0 pass, 1 a rule failed, 2 cannot judge",
    ]
    if keep is not None:
        lines += [
            "",
            f"The demo's repository is kept in {printable(keep)}, checked out on {BASE}, with",
            "the branches honest-fix and cleanup: try gate check --base main --head cleanup there.",
        ]
    if not as_designed(selftest, judged):
        lines += ["", "The demo did NOT behave as designed; please report this as a bug."]
    return "\n".join(lines) + "\n"


def to_dict(selftest: SelftestReport, judged: list[tuple[Scenario, Report]]) -> dict[str, Any]:
    return {
        "as_designed": as_designed(selftest, judged),
        "selftest": selftest.to_dict(),
        "branches": [
            {
                "branch": sc.branch,
                "expected": "pass" if sc.should_pass else "fail",
                "story": sc.story,
                "report": report.to_dict(),
            }
            for sc, report in judged
        ],
    }


def to_md(selftest: SelftestReport, judged: list[tuple[Scenario, Report]]) -> str:
    from gate.report.selftest import to_markdown as selftest_markdown

    parts = [selftest_markdown(selftest, DEFAULT_RUBRIC_PATH)]
    parts += [to_markdown(report, title=f"gate demo, branch {sc.branch}") for sc, report in judged]
    return "\n".join(parts)


def run(args: argparse.Namespace) -> int:
    from gate.base.output import write as emit

    keep = getattr(args, "keep", None)
    selftest, judged = run_demo(keep)
    emit(
        in_format(
            getattr(args, "format", "text"),
            data=lambda: to_dict(selftest, judged),
            text=lambda: to_text(selftest, judged, keep),
            markdown=lambda: to_md(selftest, judged),
        )
    )
    return EXIT_PASS if as_designed(selftest, judged) else EXIT_FAIL
