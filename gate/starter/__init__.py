"""What `gate init` writes: the starter rubric, and the workflow that runs the Action.

Every rule in the starter rubric is proven by its own `examples:` (each rule
fails in at least one example, and one example passes), so `gate selftest
--strict` passes on it out of the box.

The workflow has one owner: `blast-radius-workflow.yml` beside this module,
shipped in the package.  `examples/blast-radius-workflow.yml` and docs/action.md
show exactly that file (tests compare the bytes), and `workflow_text` fills in
only its `uses:` line (and `rubric-path:` for a rubric elsewhere).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from gate.base import globs
from gate.base.agents import AGENTS
from gate.base.errors import GateError
from gate.base.escape import printable
from gate.base.files import package_text
from gate.base.names import DEFAULT_RUBRIC_PATH
from gate.drift.language import BY_SUFFIX
from gate.model.rubric import DEFAULT_TESTS
from gate.starter.families import folded_only, found, plugin_shipped, rule_paths
from gate.starter.unreviewed import UNSPELLABLE, Group

WORKFLOW_TEMPLATE = "blast-radius-workflow.yml"
WORKFLOW_PATH = ".github/workflows/blast-radius.yml"
# The review workflow: it runs on pull_request_review (from the PR) and does
# nothing; when it ends, the workflow above (workflow_run) re-judges the PR.
REVIEW_WORKFLOW_PATH = ".github/workflows/blast-radius-review.yml"
REVIEW_TEMPLATE = "blast-radius-review.yml"
# The template's placeholder `uses:` value and its rubric-path line.
PLACEHOLDER_USES = "OWNER/blast-radius-gate@0000000000000000000000000000000000000000 # v1"
RUBRIC_PATH_LINE = f"          rubric-path: {DEFAULT_RUBRIC_PATH}\n"

# owner/repo[/path]@ref, as a workflow's `uses:` names an action.
_ACTION = re.compile(
    r"\A(?P<repo>[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9_.-]{1,100}"
    r"(?:/[A-Za-z0-9_.-]+)*)@(?P<ref>[^@\s]+)\Z"
)
_FULL_SHA = re.compile(r"\A[0-9a-fA-F]{40}\Z")
_MOVABLE_REF = re.compile(r"\A[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\Z")


def action_reference(spec: str, *, allow_tag: bool) -> str:
    """The `uses:` value for `--action OWNER/REPO@REF`; GateError naming the fix.

    A full 40-hex commit SHA is required unless `allow_tag`: a tag or branch
    can be moved to other code after it was reviewed, and this workflow runs
    with write access to checks and pull request comments.
    """
    found = _ACTION.match(spec)
    if found is None:
        raise GateError(
            f"--action {spec!r} is not OWNER/REPO@REF; name the Blast Radius Gate repository "
            "and a full commit SHA, e.g. --action acme/blast-radius-gate@<40 hex digits>"
        )
    repo, ref = found.group("repo"), found.group("ref")
    if _FULL_SHA.match(ref):
        return f"{repo}@{ref.lower()}"
    if not allow_tag:
        raise GateError(
            f"--action {spec}: {ref!r} is not a full 40-hex commit SHA; a tag or branch can be "
            "moved to other code after you review it, and this workflow can write check runs "
            f"and PR comments; pin the commit it names (git ls-remote "
            f"https://github.com/{repo.split('/')[0]}/{repo.split('/')[1]} {ref}), "
            "or pass --allow-tag to accept a movable ref"
        )
    if not _MOVABLE_REF.match(ref) or ".." in ref:
        raise GateError(f"--action {spec}: {ref!r} is not a usable tag or branch name")
    return f"{repo}@{ref}"


def workflow_template() -> str:
    """The example workflow, as shipped in the package."""
    return package_text(f"starter/{WORKFLOW_TEMPLATE}")


def review_workflow_text() -> str:
    """The review workflow, as shipped in the package (examples/blast-radius-review.yml)."""
    return package_text(f"starter/{REVIEW_TEMPLATE}")


# The frozen-tests workflow (gate frozen-tests under pull_request), its
# template's placeholders: the gate's action, the install step, the command.
FROZEN_WORKFLOW_PATH = ".github/workflows/blast-radius-frozen.yml"
FROZEN_TEMPLATE = "blast-radius-frozen.yml"
_PLACEHOLDER_FROZEN_USES = (
    "OWNER/blast-radius-gate/frozen-tests@0000000000000000000000000000000000000000 # v1"
)
_PLACEHOLDER_INSTALL = (
    "        run: |\n"
    "          python3 -m venv .venv\n"
    "          .venv/bin/pip install --quiet -e . pytest\n"
)
_PLACEHOLDER_COMMAND = "          command: .venv/bin/python -m pytest\n"


def frozen_workflow_text(uses: str, install: tuple[str, ...], command: str) -> str:
    """The frozen-tests workflow with the gate's `frozen-tests` action at the
    commit `uses` names (OWNER/REPO@REF, from `action_reference`), the
    install step's shell lines and the test command (a shell-quoted argv,
    given to the action as a YAML string)."""
    text = package_text(f"starter/{FROZEN_TEMPLATE}")
    repo, _, ref = uses.partition("@")
    owner_repo = "/".join(repo.split("/")[:2])
    pinned = _FULL_SHA.match(ref) is not None
    comment = "# pinned by gate init" if pinned else "# a movable ref (--allow-tag)"
    text = text.replace(_PLACEHOLDER_FROZEN_USES, f"{owner_repo}/frozen-tests@{ref} {comment}", 1)
    lines = "".join(f"          {line}\n" for line in install if line)
    text = text.replace(_PLACEHOLDER_INSTALL, "        run: |\n" + lines, 1)
    quoted = json.dumps(command)  # a YAML double-quoted scalar
    return text.replace(_PLACEHOLDER_COMMAND, f"          command: {quoted}\n", 1)


def workflow_text(uses: str, *, rubric_path: str = DEFAULT_RUBRIC_PATH) -> str:
    """The example workflow with `uses:` set (from `action_reference`) and the
    rubric-path input pointing at `rubric_path` (a repository path)."""
    text = workflow_template()
    pinned = _FULL_SHA.match(uses.rpartition("@")[2]) is not None
    comment = "# pinned by gate init" if pinned else "# a movable ref (--allow-tag)"
    text = text.replace(PLACEHOLDER_USES, f"{uses} {comment}", 1)
    if rubric_path != DEFAULT_RUBRIC_PATH:
        quoted = json.dumps(rubric_path)  # a YAML double-quoted scalar
        text = text.replace(RUBRIC_PATH_LINE, f"          rubric-path: {quoted}\n", 1)
    return text


# Test plumbing the starter counts as tests, beyond DEFAULT_TESTS: helper
# packages and suites that sit outside every default glob (measured on real
# histories: a package's `testing/` helpers, e2e suites in `e2e/` or
# `*-tests/` folders, Gradle's test source sets), and the coverage floor.
# Test runners' configuration files (noxfile.py, jest.setup.*, .mocharc.*,
# karma.conf.*, playwright and cypress configs, phpunit.xml) are judged by
# test_drift whatever `tests` says: `gate.drift.runners` owns that list.
STARTER_TESTS = (
    "**/testing/",  # pytest's own suite, numpy.testing, a package's test helpers
    "**/test_utils/",
    "**/testutils/",
    "**/testutil/",
    "**/test_helpers/",
    "**/e2e/",
    "**/*-tests/",  # e2e-tests/, integration-tests/
    "**/*_tests/",  # integration_tests/
    # Gradle's test source sets beside src/test/ (which `test/` covers):
    # Kotlin Multiplatform's src/commonTest/, src/jvmTest/, Android's
    # src/androidTest/, a src/integrationTest/ suite
    "**/src/*Test/",
    ".coveragerc",  # the coverage floor (fail_under) is a test verdict
)


def _yaml_list(items: tuple[str, ...], indent: str, width: int = 78) -> str:
    """`items` as a flow sequence of double-quoted strings wrapped at `width`."""
    out, line = [], f"{indent}["
    for n, item in enumerate(items):
        word = f'"{item}"' + ("," if n < len(items) - 1 else "]")
        if len(line) + len(word) + 1 > width and line.strip() != "[":
            out.append(line.rstrip())
            line = indent + " "
        line += word + " "
    out.append(line.rstrip())
    return "\n".join(out)


def _presets() -> str:
    """The `applies_to` comment block: every agent's PR logins and branch
    globs from `gate.base.agents.AGENTS`, the one owner of those facts."""
    lines = [
        "# applies_to:",
        "#   authors:        # PR author logins: GitHub's to give, the strong selector",
    ]
    for agent in AGENTS:
        for login in agent.logins:
            lines.append(f'#     - "{login}"'.ljust(40) + f"# {agent.name}")
    branches = tuple(dict.fromkeys(b for agent in AGENTS for b in agent.branches))
    lines.append('#   labels: ["agent"]  # advisory: anyone who can label decides')
    lines.append("#   head_branches:  # advisory: whoever opens the PR names its branch")
    for branch in branches:
        names = ", ".join(a.name for a in AGENTS if branch in a.branches)
        lines.append(f'#     - "{branch}"'.ljust(40) + f"# {names}")
    return "\n".join(lines) + "\n"


# The starter rubric's text, shipped beside this module: YAML with
# `@NAME@` lines that `starter_rubric` fills in from the tables below and
# the repository's tree.
STARTER_TEMPLATE = "starter.yml.in"


@functools.cache
def _template() -> str:
    """The starter rubric's template, as shipped in the package (read once)."""
    return package_text(f"starter/{STARTER_TEMPLATE}")


# Lock files, snapshots and generated code the budgets skip (FILES, LINES):
# exact names, never a broad glob (see the comment in the rubric).
GENERATED = (
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
    "bun.lockb", "bun.lock", "deno.lock", "poetry.lock", "uv.lock", "Pipfile.lock",
    "pdm.lock", "pixi.lock", "conda-lock.yml", "*.conda-lock.yml", "Cargo.lock",
    "go.sum", "go.work.sum", "Gemfile.lock", "composer.lock", "mix.lock",
    "Package.resolved", "pubspec.lock", "flake.lock", "gradle.lockfile",
    "packages.lock.json", "Podfile.lock", "MODULE.bazel.lock", ".terraform.lock.hcl",
    "*.snap", "**/__snapshots__/**/*.ambr", "**/__snapshots__/**/*.svg",
    "**/cassettes/**/*.yaml",
    "**/cassettes/**/*.yml", "**/cassettes/**/*.json", "*.golden",
    "*_pb2.pyi",
)  # fmt: skip

# Licence texts the budgets skip (FILES, LINES): legal text nobody reviews
# line by line (a vendored package's copy included); the diff still shows a
# change.  Exact names, none of them importable code (`license.py`,
# `LICENSE.py` and a `licenses/` folder count).
LICENCES = (
    *(
        f"{name}{suffix}"
        for name in ("LICENSE", "LICENCE", "COPYING", "NOTICE")
        for suffix in ("", ".txt", ".md", ".rst")
    ),
    "LICENSE-MIT",
    "LICENSE-APACHE",
    "COPYING.LESSER",
    "UNLICENSE",
)

# Checked-in samples of an environment file: SECRETS lets these names
# through (exactly as written); every other `.env.*` stays forbidden.
ENV_SAMPLES = tuple(
    f".env{middle}.{suffix}"
    for suffix in ("example", "sample", "template", "dist")
    for middle in ("", ".*")
)

# SECRETS' globs (the template spells them; a test holds the two equal).
SECRET_FILES = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "id_rsa*",
    "id_ed25519*",
    "secrets/",
)
# SECRETS' folder globs: a file is hit for the folder it is in, not its name.
_SECRET_FOLDERS = ("secrets/",)
# Folders whose files only tests read: the rubric's test globs, Go's
# `testdata` (go help test: "ignored by the go tool"), fixture folders.
_FIXTURE_FOLDERS = (*DEFAULT_TESTS, "testdata/", "fixtures/", "__fixtures__/")


def secret_fixtures(tree: Iterable[str] | None) -> tuple[str, ...]:
    """The files at HEAD that SECRETS' globs hit inside a folder only tests
    read (`tests/certs/server.pem`, `testdata/secrets/token.txt`): fake
    key material a test signs or masks with, as exact excludes.  A sample
    `ENV_SAMPLES` already lets through is left out; a file a PR adds there,
    or any other spelling, still fails."""
    secret = globs.matcher(SECRET_FILES, globs.FOLDED)
    fixture = globs.matcher(_FIXTURE_FOLDERS, globs.FOLDED)
    sample = globs.matcher(ENV_SAMPLES, globs.NAMES)
    return _exact(
        path for path in sorted(tree or ()) if secret(path) and fixture(path) and not sample(path)
    )


def secret_code(tree: Iterable[str] | None) -> tuple[str, ...]:
    """The source files at HEAD, in a language the gate reads
    (`gate.drift.language.BY_SUFFIX`), that SECRETS hits only because a
    folder on their path is named `secrets` (`src/Cli/Secrets/Resolver.cs`,
    a secrets manager's code): code, not key material, as exact excludes.
    A source file a PR adds there, a key or environment file beside them,
    and a source file a key glob also names (`secrets/id_rsa.py`) still
    fail."""
    folder = globs.matcher(_SECRET_FOLDERS, globs.FOLDED)
    named = globs.matcher(tuple(g for g in SECRET_FILES if g not in _SECRET_FOLDERS), globs.FOLDED)
    fixtures = set(secret_fixtures(tree))
    found = (
        path
        for path in sorted(tree or ())
        if folder(path) and not named(path) and PurePosixPath(path).suffix in BY_SUFFIX
    )
    return tuple(p for p in _exact(found) if p not in fixtures)


def _exact(paths: Iterable[str]) -> tuple[str, ...]:
    """`paths` as exact excludes: a top-level name anchored with `/`; a
    path no glob can spell exactly is left out (it keeps failing)."""
    return tuple(p if "/" in p else "/" + p for p in paths if not UNSPELLABLE.search(p))


def _secret_excludes(tree: Iterable[str] | None) -> str:
    """SECRETS' `exclude` list: `ENV_SAMPLES`, then `secret_fixtures` and
    `secret_code`, each under a comment saying what they are."""
    groups = (
        ("of fake key material in folders only tests read", secret_fixtures(tree)),
        ("of source code in folders named secrets", secret_code(tree)),
    )
    lines = [_yaml_list(ENV_SAMPLES, "      ")[:-1] + ","]
    for what, paths in groups:
        if paths:
            count = f"{len(paths)} {'file' if len(paths) == 1 else 'files'}"
            lines.append(f"       # gate init found {count} {what}")
            lines.extend(f"       {json.dumps(printable(p))}," for p in paths)
    lines[-1] = lines[-1][:-1] + "]"
    return "\n".join(lines)


# Files that instruct or configure coding agents and PR bots (AGENTS):
# `gate.starter.families` owns the list and its sources.
AGENT_FILES = rule_paths("AGENTS")


def _found_comment(tree: Iterable[str] | None, pipelines: Sequence[str] = ()) -> str:
    """The comment under CI saying which families' files `gate init` found,
    and which Azure Pipelines files it found by their content."""
    if tree is None:
        return ""
    hits: list[tuple[str, Sequence[str]]] = [(f"{f.rule} / {f.name}", p) for f, p in found(tree)]
    if pipelines:
        hits.append(("CI / Azure Pipelines files found by their content (listed above)", pipelines))
    if not hits:
        return "    # gate init found none of these files in this repository.\n"
    lines = ["    # gate init found in this repository:"]
    for name, paths in hits:
        shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        lines.append(printable(f"    #   {name}: {shown}"))
    return "\n".join(lines) + "\n"


def _folded_excludes(rule: str, tree: Iterable[str] | None, plugins: bool = False) -> str:
    """`rule`'s `exclude` lines: the files at HEAD its names hit only with
    letter case folded (`gate.starter.families.folded_only`) and, with
    `plugins`, the MCP configuration plugin packages ship
    (`gate.starter.families.plugin_shipped`), each group under its comment;
    "" when none."""
    listed = tuple(tree or ())
    folded = folded_only(rule, listed)
    shipped = plugin_shipped(rule, listed) if plugins else ()
    if not folded and not shipped:
        return ""
    text = "    exclude:\n"
    if folded:
        text += (
            f"      # gate init found {_files(len(folded))} at HEAD "
            "named like a tool's file in another letter\n"
            "      # case (a docs page docs/gemini.md is no GEMINI.md): let through by exact\n"
            "      # path; the tool's own spelling, and any file added or renamed, still fail.\n"
            + _yaml_list(tuple(printable(p) for p in folded), "      ")
            + "\n"
        )
    if shipped:
        text += (
            f"      # gate init found {_files(len(shipped))} at HEAD that a plugin package "
            "ships (a .mcp.json beside\n"
            "      # the plugin's manifest): it configures whoever installs the plugin, not "
            "the agents\n"
            "      # working here. Let through by exact path; a new one elsewhere, or one "
            "renamed, still fails.\n"
            + _yaml_list(tuple(printable(p) for p in shipped), "      ")
            + "\n"
        )
    return text


def _files(n: int) -> str:
    return f"{n} {'file' if n == 1 else 'files'}"


# Every starter's budget excludes; `gate.starter.unreviewed` finds more in a tree.
BUDGET_EXCLUDES = GENERATED + LICENCES


def _excludes(unreviewed: Sequence[Group]) -> str:
    """The budgets' `exclude` list: `BUDGET_EXCLUDES`, then each group
    `gate init` found, under a comment saying what found it."""
    text = _yaml_list(BUDGET_EXCLUDES, "      ")
    groups = [g for g in unreviewed if g.globs]
    if not groups:
        return text
    lines = [text[:-1] + ","]
    for group in groups:
        files = "file" if group.files == 1 else "files"
        lines.append(printable(f"       # gate init found {group.files} {files}: {group.reason}"))
        lines.extend(f"       {json.dumps(glob)}," for glob in group.globs)
    lines[-1] = lines[-1][:-1] + "]"
    return "\n".join(lines)


def _ci_paths(tree: Sequence[str] | None, pipelines: Sequence[str]) -> tuple[str, ...]:
    """`CI`'s globs: the families' (`rule_paths`), then the pipelines found."""
    return tuple(dict.fromkeys((*rule_paths("CI", tree or ()), *pipelines)))


def starter_rubric(
    tree: Iterable[str] | None = None,
    unreviewed: Sequence[Group] = (),
    pipelines: Sequence[str] = (),
) -> str:
    """The starter rubric; with `tree` (the repository's paths at HEAD), its
    `CI` and `AGENTS` rules also list the families found there that are not
    listed always, and a comment names the files found; the budgets also
    leave out the `unreviewed` groups (`gate.starter.unreviewed.find`), and
    `CI` also protects the Azure Pipelines files found by their content
    (`pipelines`, from `gate.starter.pipelines.find`)."""
    listed = tuple(tree) if tree is not None else None
    return (
        _template()
        .replace(
            "@TESTS@", _yaml_list(tuple(dict.fromkeys((*DEFAULT_TESTS, *STARTER_TESTS))), "  ")
        )
        .replace("@PRESETS@\n", _presets())
        .replace("@EXCLUDE@", _excludes(unreviewed))
        .replace("@ENV_SAMPLES@", _secret_excludes(listed))
        .replace("@CI_FILES@", _yaml_list(_ci_paths(listed, pipelines), "      "))
        .replace("@FOUND@\n", _found_comment(listed, pipelines) + "\n")
        .replace("@AGENT_FILES@", _yaml_list(rule_paths("AGENTS", listed or ()), "      "))
        .replace("@CI_FOLDED@\n", _folded_excludes("CI", listed))
        .replace("@AGENT_FOLDED@\n", _folded_excludes("AGENTS", listed, plugins=True))
    )


STARTER_RUBRIC = starter_rubric()
