"""The starter rubric that `gate init` writes: sensible defaults for agent PRs.

Every rule in it is proven by its own `examples:` (each rule fails in at
least one example, and one example passes), so `gate selftest --strict`
passes on it out of the box.
"""

from __future__ import annotations

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
# pyproject.toml or setup.cfg, is drift.

# Judge only agent-written PRs (any entry matches). Without applies_to,
# every PR is judged.
# applies_to:
#   authors: ["copilot-swe-agent[bot]"]
#   labels: ["agent"]
#   head_branches: ["codex/**", "copilot/**"]

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

  - name: existing test bent to match the code
    expect: [TESTS]
    change:
      - {path: tests/test_app.py, added: 1, deleted: 1}
"""
