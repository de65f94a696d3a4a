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

import json
import re
from importlib import resources

from gate.errors import GateError
from gate.names import DEFAULT_RUBRIC_PATH

WORKFLOW_TEMPLATE = "blast-radius-workflow.yml"
WORKFLOW_PATH = ".github/workflows/blast-radius.yml"
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
    return resources.files("gate").joinpath(WORKFLOW_TEMPLATE).read_text(encoding="utf-8")


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


STARTER_RUBRIC = """\
# Blast Radius Gate rubric: the rules that judge the *shape* of a pull request.
#
# The gate reads this file from the PR's BASE commit, so a PR can never edit
# the rules that judge it (a PR that touches this file fails the built-in rule
# gate.rubric-edited). Change it in its own, human-reviewed PR.
#
#   gate validate .github/blast-radius.yml          # schema check
#   gate selftest --strict .github/blast-radius.yml # run the examples below
#   gate check --base main                          # judge your branch locally
#
# Rule ids are public: reports, check runs and PR comments name them. Never
# reuse an id for a different rule; add a new one instead.
version: 1

# Which files are tests (used by test_drift). The default covers pytest,
# unittest and Django, Jest and Vitest, Go and RSpec:
# tests: ["tests/", "test/", "**/test_*.py", "**/*_test.py", "**/conftest.py",
#         "pytest.ini", "tox.ini", "**/*_test.go", "**/__tests__/",
#         "**/*.test.*", "**/*.spec.*", "spec/", "**/test*.py", ".pytest.ini",
#         "**/__snapshots__/", "**/jest.config.*", "**/vitest.config.*",
#         "**/testdata/", "**/*_spec.rb", ".rspec"]
# test_drift also judges the test runner's configuration whatever `tests`
# says: a new conftest.py or pytest.ini, or a pytest section added to
# pyproject.toml or setup.cfg (gate/testcases/runners.py lists every runner's
# files and sections), is drift.

# Judge only agent-written PRs (any entry matches); the others get a neutral
# check. Without applies_to, every PR is judged. Prefer `authors`: a bot's
# login is GitHub's, but whoever opens a PR names its head branch, and anyone
# who can label can add or remove labels. An agent that pushes `fix/x`
# instead of `codex/x` is simply not judged, so `labels` and `head_branches`
# alone are advisory: use them only next to `authors`, never instead.
# applies_to:
#   authors: ["copilot-swe-agent[bot]"]     # exact bot logins: the strong selector
#   labels: ["agent"]                       # advisory: anyone who can label decides
#   head_branches: ["codex/**", "copilot/**"]  # advisory: the PR's opener names it

rules:
  - id: FILES
    kind: max_files
    limit: 10
    exclude: ["*.lock", "package-lock.json", "pnpm-lock.yaml", "go.sum"]
    description: "a focused change touches a handful of files; lock files do not count"

  - id: LINES
    kind: max_lines
    limit: 400
    count: changed            # added + deleted; or `added` / `deleted`
    exclude: ["*.lock", "package-lock.json", "pnpm-lock.yaml", "go.sum"]
    description: "a reviewable change; a bigger one deserves its own plan"

  - id: SECRETS
    kind: forbidden_paths
    paths: [".env", ".env.*", "*.pem", "*.key", "*.p12", "*.pfx", "id_rsa*",
            "id_ed25519*", "secrets/", ".npmrc", ".pypirc"]
    description: "credentials and key material are never an agent's to touch"

  - id: CI
    kind: forbidden_paths
    paths: [".github/workflows/", ".github/actions/", "CODEOWNERS",
            ".gitlab-ci.yml", ".circleci/", "Jenkinsfile", "azure-pipelines.yml"]
    description: "CI and ownership rules run with secrets; change them in a human PR"
    # Adding a workflow fails too: a new workflow could post a check run named
    # like this gate's, and under pull_request it runs from the PR itself.

  - id: TESTS
    kind: test_drift
    allow_added: true         # new tests are welcome; existing ones stay as they are
    description: "do not bend an existing test to match the code"

  # More kinds: forbidden_path (a plain prefix), allowed_paths (an allow-list),
  # keep_symbols / keep_lines / confine_to_symbols (Python files), must_include
  # (a token in the captured test output). For must_include, have the harness
  # print the token last and require it there, since a failing run can print
  # any token earlier:
  #   - {id: GREEN, kind: must_include, token: "EXIT=0", where: last_line}
  # See `gate schema`.

# The judge must say both words: every rule above fails in at least one of
# these synthetic changes, and one change passes. `gate selftest --strict`
# runs them; the Action runs them first and fails closed if any disagrees.
examples:
  - name: focused fix with a new regression test
    expect: pass
    change:
      - {path: src/app.py, added: 3, deleted: 1}
      - {path: tests/test_app_regression.py, status: added, added: 12}
      - {path: poetry.lock, added: 800, deleted: 300}

  - name: eleven-file sweep
    expect: [FILES]
    change:
      - {path: src/m01.py, added: 1, deleted: 1}
      - {path: src/m02.py, added: 1, deleted: 1}
      - {path: src/m03.py, added: 1, deleted: 1}
      - {path: src/m04.py, added: 1, deleted: 1}
      - {path: src/m05.py, added: 1, deleted: 1}
      - {path: src/m06.py, added: 1, deleted: 1}
      - {path: src/m07.py, added: 1, deleted: 1}
      - {path: src/m08.py, added: 1, deleted: 1}
      - {path: src/m09.py, added: 1, deleted: 1}
      - {path: src/m10.py, added: 1, deleted: 1}
      - {path: src/m11.py, added: 1, deleted: 1}

  - name: one file rewritten wholesale
    expect: [LINES]
    change:
      - {path: src/app.py, added: 350, deleted: 120}

  - name: environment file committed
    expect: [SECRETS]
    change:
      - {path: deploy/.env, status: added, added: 2}

  - name: workflow edited
    expect: [CI]
    change:
      - {path: .github/workflows/ci.yml, added: 2, deleted: 1}

  - name: workflow added (it could post a check run named like the gate's)
    expect: [CI]
    change:
      - {path: .github/workflows/blast-radius-too.yml, status: added, added: 9}

  - name: existing test bent to match the code
    expect: [TESTS]
    change:
      - {path: tests/test_app.py, added: 1, deleted: 1}
"""
