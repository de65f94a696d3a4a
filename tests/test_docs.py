"""The docs a reader finds: README.md and docs/*.md.

Every relative link and #anchor resolves, and every shell example runs as
written (the markup is in tests/docs_markdown.py): ```sh blocks exit 0,
```console blocks print what they show.  Examples that cannot run here (a
real GitHub, Docker, the whole CI) carry an explicit skip with its reason;
pytest lists each one as skipped, with that reason.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from docs_markdown import (
    ROOT,
    Block,
    Doc,
    Step,
    broken_link,
    commands,
    doc_files,
    links,
    output_matches,
    parse,
    rel,
)

from tests.gitrepo import GitRepo

DOCS = [parse(path) for path in doc_files()]
TIMEOUT = 120  # seconds for one command; none comes close


# --- sandboxes ----------------------------------------------------------------


def fixture_empty(sandbox: Path, env: dict[str, str]) -> Path:
    """An empty folder."""
    return sandbox


def fixture_repo(sandbox: Path, env: dict[str, str]) -> Path:
    """A git repository with one commit on main: your repository."""
    repo = GitRepo(sandbox / "your-repository", env=env)
    repo.write_many({"README.md": "an app\n", "app.py": "print('hello')\n"})
    repo.commit("app")
    return repo.root


def fixture_clamp(sandbox: Path, env: dict[str, str]) -> Path:
    """The demo's repository, checked out on main: the clamp lab and its
    rubric on main, and the branches honest-fix and cleanup."""
    from gate.commands.demo import scenarios
    from gate.starter import demo_fixture

    repo = GitRepo(sandbox / "clamp", env=env)
    repo.write_many({**demo_fixture.FILES, ".github/blast-radius.yml": demo_fixture.RUBRIC})
    repo.commit("red: off-by-one on hi")
    for scenario in scenarios():
        repo.git("switch", "-q", "-c", scenario.branch, "main")
        repo.write_many(dict(scenario.files))
        repo.commit(scenario.branch)
    repo.git("switch", "-q", "main")
    return repo.root


FIXTURES: dict[str, Callable[[Path, dict[str, str]], Path]] = {
    "empty": fixture_empty,
    "repo": fixture_repo,
    "clamp": fixture_clamp,
}


def sandbox_env(home: Path, bin_dir: Path | None = None) -> dict[str, str]:
    """A clean environment: the venv's `gate` (or `bin_dir`'s) first on PATH,
    a private HOME with a git identity, nothing of a CI runner or of the
    caller's git."""
    home.mkdir()
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Docs Test\n\temail = docs@example.invalid\n"
        "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n",
        encoding="utf-8",
    )
    return {
        "PATH": f"{bin_dir or Path(sys.executable).parent}{os.pathsep}/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "COLUMNS": "80",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "GIT_CONFIG_NOSYSTEM": "1",
        # Fixed commit dates: the same commits get the same shas on every run.
        "GIT_AUTHOR_DATE": "2025-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2025-01-01T00:00:00Z",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_INDEX": "1",  # nothing here reaches a network
    }


# --- what runs -----------------------------------------------------------------


@dataclass
class Section:
    """The steps that share one sandbox: from a fixture directive (or the top
    of the page) to the next."""

    doc: Doc
    line: int
    fixture: str
    steps: list[Step]

    @property
    def runnable(self) -> list[Block]:
        return [
            s.block
            for s in self.steps
            if s.block is not None and s.block.lang in ("sh", "console") and s.block.skip is None
        ]


def sections(doc: Doc) -> list[Section]:
    found = [Section(doc, 1, "empty", [])]
    for step in doc.steps:
        if step.kind == "fixture":
            found.append(Section(doc, step.line, step.value, []))
        else:
            found[-1].steps.append(step)
    return [s for s in found if s.runnable]


SECTIONS = [s for doc in DOCS for s in sections(doc)]
SKIPPED = [b for doc in DOCS for b in doc.blocks if b.skip is not None]


def _run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
    )


def run_section(section: Section, tmp_path: Path, bin_dir: Path | None = None) -> None:
    """Run a section's steps in order in a fresh sandbox; `bin_dir`: the
    folder whose programs (`gate`, `python`) come first on PATH."""
    env = sandbox_env(tmp_path / "home", bin_dir)
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    cwd = FIXTURES[section.fixture](sandbox, env)
    for step in section.steps:
        if step.kind == "setup":
            proc = _run("set -eu\n" + step.value, cwd, env)
            where = f"{rel(section.doc.path)}:{step.line}"
            assert proc.returncode == 0, f"{where}: hidden setup failed:\n{proc.stdout}"
            continue
        block = step.block
        assert block is not None
        if block.file is not None:
            target = cwd / block.file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text, encoding="utf-8")
        if block.skip is not None or block.lang not in ("sh", "console"):
            continue
        if block.lang == "sh":
            proc = _run("set -eu\n" + block.text, cwd, env)
            assert proc.returncode == 0, (
                f"{block.where}: this sh block exited {proc.returncode}:\n{block.text}\n"
                f"--- its output:\n{proc.stdout}"
            )
            continue
        for command in commands(block):
            where = f"{rel(block.path)}:{command.line}"
            folder = re.fullmatch(r"cd ([\w./-]+)", command.command)
            if folder:  # the reader's shell stays there: so do the next commands
                cwd = (cwd / folder.group(1)).resolve()
                inside = sandbox.resolve() in cwd.parents
                assert cwd.is_dir() and inside, f"{where}: no folder {cwd} in the sandbox"
                assert command.expected == [] and command.status == 0, where
                continue
            proc = _run(command.command, cwd, env)
            shown = "\n".join(command.expected)
            assert proc.returncode == command.status, (
                f"{where}: `{command.command}` exited {proc.returncode}, "
                f"the docs say {command.status}:\n{proc.stdout}"
            )
            assert output_matches(command.expected, proc.stdout), (
                f"{where}: `{command.command}` printed\n{proc.stdout}\n--- the docs show\n{shown}"
            )


@pytest.mark.parametrize(
    "section", SECTIONS, ids=lambda s: f"{rel(s.doc.path)}:{s.line}-{s.fixture}"
)
def test_examples_run_as_written(section: Section, tmp_path: Path) -> None:
    run_section(section, tmp_path)


@pytest.mark.parametrize("block", SKIPPED, ids=lambda b: b.where)
def test_examples_that_cannot_run_here(block: Block) -> None:
    pytest.skip(f"{block.where}: {block.skip}")


# --- structure -----------------------------------------------------------------


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: rel(d.path))
def test_docs_markup_is_well_formed(doc: Doc) -> None:
    assert doc.problems == []
    for step in doc.steps:
        if step.kind == "fixture":
            assert step.value in FIXTURES, f"{rel(doc.path)}:{step.line}: {step.value}"
    for block in doc.blocks:
        if block.lang == "console":
            assert commands(block), block.where


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: rel(d.path))
def test_every_relative_link_and_anchor_resolves(doc: Doc) -> None:
    broken = [why for target in links(doc) if (why := broken_link(doc, target))]
    assert broken == []


def development_sections_cited(text: str) -> list[str]:
    """The sections of docs/development.md a source file's comments cite as
    `docs/development.md, "SECTION"`, a citation wrapped over comment or
    docstring lines read as one line."""
    joined = re.sub(r"\s*\n\s*(?:#\s*)?", " ", text)
    return re.findall(r'docs/development\.md, "([^"]+)"', joined)


def test_development_sections_cited_in_the_code_exist() -> None:
    """A comment that points to a section of docs/development.md for its
    figures names a heading the page has."""
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    headings = {h.replace("`", "") for h in re.findall(r"^#+ (.+)$", page, re.MULTILINE)}
    cited = {
        (path.relative_to(ROOT).as_posix(), section)
        for folder in ("gate", "bench")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for section in development_sections_cited(path.read_text(encoding="utf-8"))
    }
    assert len({section for _, section in cited}) >= 4, cited
    assert [(path, s) for path, s in sorted(cited) if s not in headings] == []


def test_a_wrapped_citation_is_read_whole() -> None:
    text = '# figures: docs/development.md, "The git\n    # layer\'s figures").\n'
    assert development_sections_cited(text) == ["The git layer's figures"]


def test_most_shell_examples_run() -> None:
    """Skipping is for what needs GitHub, Docker or the whole CI, not a habit."""
    shell = [b for doc in DOCS for b in doc.blocks if b.lang in ("sh", "console")]
    assert len(SKIPPED) * 3 < len(shell), [b.where for b in SKIPPED]


def test_the_front_page_lists_the_starter_rules() -> None:
    """README's table of the starter rubric is what `gate init` writes: every
    rule's id and kind, and every glob of its forbidding rules."""
    import yaml

    from gate.starter import STARTER_RUBRIC

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("\n## Write a rubric\n", 1)[1].split("\n\n", 2)[1]
    rows = {row.split(" | ")[0].strip("| `"): row for row in table.splitlines()[2:]}
    rules = yaml.safe_load(STARTER_RUBRIC)["rules"]
    assert list(rows) == [rule["id"] for rule in rules]
    for rule in rules:
        assert f"`{rule['kind']}`" in rows[rule["id"]], rule["id"]
        if "limit" in rule:
            assert f"at most {rule['limit']} " in rows[rule["id"]], rule["id"]
        for glob in rule.get("paths", []):
            assert f"`{glob}`" in rows[rule["id"]], (rule["id"], glob)
