"""The file families the starter protects: CI systems, release and deploy
tooling, package registry configuration (the `CI` rule), and what
instructs or configures coding agents and PR bots (the `AGENTS` rule),
each with the page that names its files.

One table, `FAMILIES`: the starter rubric's `CI` and `AGENTS` lists, the
table in docs/rubric.md (`markdown_table`) and the comment `gate init`
writes about the files it found (`found`) all come from it.

A family is written into every starter when `always` (its names are its
own: a `.circleci/` folder, `.goreleaser.yml`; protecting a path that does
not exist yet costs nothing, and a CI system added later stays protected).
A family whose names are also ordinary file names elsewhere (`app.yaml`,
`Procfile`, `deploy.sh`, `lerna.json`) is written only when `gate init`
finds one of its files in the repository's tree.

Globs are the rubric's (CODEOWNERS syntax; a name without `/` matches at
any depth), and the forbidding rules fold letter case.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from gate import globs


class Family(NamedTuple):
    """Files one tool reads: the rule that forbids them, a name for people,
    the globs, the page that names the files, and whether every starter
    lists them (`always`) or only one whose tree has such a file."""

    rule: str
    name: str
    paths: tuple[str, ...]
    source: str
    always: bool = True


_GH = "https://docs.github.com/en/"
FAMILIES = (
    # CI systems: they run with the repository's secrets
    Family("CI", "GitHub Actions", (".github/workflows/", ".github/actions/"),
           _GH + "actions/writing-workflows/workflow-syntax-for-github-actions"),
    Family("CI", "CODEOWNERS", ("CODEOWNERS",),
           _GH + "repositories/managing-your-repositorys-settings-and-features/"
           "customizing-your-repository/about-code-owners"),
    Family("CI", "GitLab CI/CD", (".gitlab-ci.yml", ".gitlab/ci/"),
           "https://docs.gitlab.com/ci/yaml/"),
    Family("CI", "CircleCI", (".circleci/",), "https://circleci.com/docs/configuration-reference/"),
    Family("CI", "Jenkins", ("Jenkinsfile", "Jenkinsfile.*", "*.jenkinsfile"),
           "https://www.jenkins.io/doc/book/pipeline/jenkinsfile/"),
    Family("CI", "Azure Pipelines",
           ("*azure-pipelines*.yml", "*azure-pipelines*.yaml", ".azure-pipelines/",
            ".azuredevops/", ".azurepipelines/"),
           "https://learn.microsoft.com/en-us/azure/devops/pipelines/yaml-schema/"),
    Family("CI", "Travis CI", (".travis.yml",), "https://docs.travis-ci.com/user/customizing-the-build/"),
    Family("CI", "Buildkite", (".buildkite/", "buildkite.yml", "buildkite.yaml", "buildkite.json"),
           "https://buildkite.com/docs/pipelines/configure/defining-steps"),
    Family("CI", "Drone", (".drone.yml", ".drone.yaml", ".drone.jsonnet", ".drone.star"),
           "https://docs.drone.io/pipeline/overview/"),
    Family("CI", "Woodpecker", (".woodpecker.yml", ".woodpecker.yaml", ".woodpecker/"),
           "https://woodpecker-ci.org/docs/usage/workflow-syntax"),
    Family("CI", "AppVeyor", ("appveyor.yml", ".appveyor.yml"),
           "https://www.appveyor.com/docs/appveyor-yml/"),
    Family("CI", "Bitbucket Pipelines", ("bitbucket-pipelines.yml",),
           "https://support.atlassian.com/bitbucket-cloud/docs/configure-bitbucket-pipelinesyml/"),
    Family("CI", "Cirrus CI", (".cirrus.yml", ".cirrus.star"), "https://cirrus-ci.org/guide/writing-tasks/"),
    Family("CI", "Taskcluster", (".taskcluster.yml",),
           "https://docs.taskcluster.net/docs/reference/integrations/github/taskcluster-yml-v1"),
    Family("CI", "Codemagic", ("codemagic.yaml",), "https://docs.codemagic.io/yaml-basic-configuration/yaml-getting-started/"),
    Family("CI", "Google Cloud Build", ("cloudbuild.yaml", "cloudbuild.yml"),
           "https://cloud.google.com/build/docs/build-config-file-schema"),
    # release tooling: what it publishes, and under which name
    Family("CI", "GoReleaser",
           (".goreleaser.yml", ".goreleaser.yaml", "/goreleaser.yml", "/goreleaser.yaml"),
           "https://goreleaser.com/customization/"),
    Family("CI", "Craft", (".craft.yml",), "https://github.com/getsentry/craft#configuration-file-craftyml"),
    Family("CI", "release-please", ("release-please-config.json", ".release-please-manifest.json"),
           "https://github.com/googleapis/release-please/blob/main/docs/manifest-releaser.md"),
    Family("CI", "semantic-release", (".releaserc", ".releaserc.*", "release.config.*"),
           "https://semantic-release.gitbook.io/semantic-release/usage/configuration"),
    Family("CI", "Changesets", (".changeset/config.json",),
           "https://github.com/changesets/changesets/blob/main/docs/config-file-options.md"),
    Family("CI", "Lerna", ("lerna.json",), "https://lerna.js.org/docs/api-reference/configuration",
           always=False),
    # deploy: where the code goes and with which settings
    Family("CI", "Fly.io", ("fly.toml",), "https://fly.io/docs/reference/configuration/"),
    Family("CI", "Vercel", ("vercel.json",), "https://vercel.com/docs/project-configuration"),
    Family("CI", "Netlify", ("netlify.toml",), "https://docs.netlify.com/configure-builds/file-based-configuration/"),
    Family("CI", "App Engine", ("/app.yaml",),
           "https://cloud.google.com/appengine/docs/standard/reference/app-yaml", always=False),
    Family("CI", "Procfile", ("/Procfile",),
           "https://devcenter.heroku.com/articles/procfile", always=False),
    Family("CI", "deploy scripts", ("deploy*.sh", "/scripts/deploy*"), "", always=False),
    # package registries: where CI installs packages from, with which token
    Family("CI", "package registry configuration (npm, Yarn, pip, twine)",
           (".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", ".pypirc"),
           "https://docs.npmjs.com/cli/configuring-npm/npmrc"),
    # agents: instructions, settings, skills, MCP servers
    Family("AGENTS", "AGENTS.md (Codex, Copilot, Cursor, Jules, ...; Amp: AGENT.md)",
           # AGENT.md and .agents/ only at the root: deeper, measured as docs
           # pages (docs/agent.md) and skills a package ships to its users
           ("AGENTS.md", "AGENTS.override.md", "/AGENT.md", "/.agents/"),
           "https://developers.openai.com/codex/guides/agents-md"),
    Family("AGENTS", "Claude Code", ("CLAUDE.md", "CLAUDE.local.md", ".claude/", ".mcp.json"),
           "https://code.claude.com/docs/en/settings"),
    Family("AGENTS", "GitHub Copilot",
           (".github/copilot-instructions.md", ".github/instructions/", ".github/prompts/",
            ".github/agents/", ".github/skills/", ".vscode/mcp.json"),
           _GH + "copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions"),
    Family("AGENTS", "Gemini CLI, Gemini Code Assist review", ("GEMINI.md", ".gemini/"),
           "https://developers.google.com/gemini-code-assist/docs/customize-gemini-behavior-github"),
    Family("AGENTS", "Codex, Cursor (and Bugbot), Windsurf",
           (".codex/", ".cursor/", ".cursorrules", ".cursorignore", ".windsurfrules", ".windsurf/"),
           ""),
    Family("AGENTS", "Cline (rules, skills, hooks, workflows)", (".clinerules", ".cline/"),
           "https://docs.cline.bot/getting-started/config"),
    Family("AGENTS", "Roo, Continue, Aider, Amazon Q, Kiro, Junie, OpenHands, Devin",
           (".roo/", ".roorules", ".continue/", ".aider.conf.yml", ".aiderignore",
            ".amazonq/", ".kiro/", ".junie/", ".openhands/", ".devin/", "DEVIN_PR_TEMPLATE.md"),
           "https://docs.devin.ai/integrations/pr-templates"),
    # review bots: they read their settings from the PR's own branch
    Family("AGENTS", "CodeRabbit", (".coderabbit.yaml", ".coderabbit.yml", ".coderabbit.config.ts"),
           "https://docs.coderabbit.ai/configuration/file.md"),
    Family("AGENTS", "Sourcery", (".sourcery.yaml",),
           "https://docs.sourcery.ai/Coding-Assistant/Reference/Configuration/sourcery-yaml"),
    Family("AGENTS", "Qodo Merge / PR-Agent", (".pr_agent.toml",),
           "https://docs.qodo.ai/qodo-documentation/code-review/get-started/configuration-overview/configuration-file"),
    Family("AGENTS", "Greptile", ("greptile.json", ".greptile/"),
           "https://www.greptile.com/docs/code-review/greptile-config.md"),
    Family("AGENTS", "Ellipsis", ("ellipsis.yaml",), ""),
    Family("AGENTS", "Macroscope", ("/.macroscope/", "macroscope.md", "/.macroscope-ignore"),
           "https://docs.macroscope.com/check-run-agents"),
    # dependency bots: which PRs they open, and which merge on their own
    Family("AGENTS", "Dependabot", (".github/dependabot.yml", ".github/dependabot.yaml"),
           _GH + "code-security/dependabot/working-with-dependabot/dependabot-options-reference"),
    Family("AGENTS", "Renovate",
           ("renovate.json", "renovate.json5", ".renovaterc", ".renovaterc.json",
            ".github/renovate.json", ".github/renovate.json5"),
           "https://docs.renovatebot.com/configuration-options/"),
)  # fmt: skip


def rule_paths(rule: str, tree: Iterable[str] = ()) -> tuple[str, ...]:
    """The globs `rule` lists: every `always` family's, then those of the
    other families with a file in `tree`."""
    have = {f.name for f, _ in found(tree)}
    return tuple(
        dict.fromkeys(
            p for f in FAMILIES if f.rule == rule and (f.always or f.name in have) for p in f.paths
        )
    )


def found(tree: Iterable[str]) -> list[tuple[Family, list[str]]]:
    """Each family with the paths of `tree` it matches (as the forbidding
    rules match them, letter case folded), in table order; a path only a
    file name of the family hits, and only case-folded (`docs/gemini.md`
    for `GEMINI.md`), is no file of the family (see `folded_only`)."""
    paths = sorted(tree)
    out = []
    for family in FAMILIES:
        as_written = globs.matcher(family.paths, globs.NAMES)
        wider = [g for g in family.paths if not _literal(g)]
        folded = globs.matcher(wider, globs.FOLDED) if wider else None
        names = {g.rpartition("/")[2].casefold() for g in family.paths if _literal(g)}
        hits = [
            p
            for p in globs.matching(paths, family.paths, globs.FOLDED)
            if as_written(p)
            or (folded is not None and folded(p))
            or p.rpartition("/")[2].casefold() not in names
        ]
        if hits:
            out.append((family, hits))
    return out


def _literal(glob: str) -> bool:
    """Whether `glob` names one file by a name of its own (`GEMINI.md`,
    `.github/copilot-instructions.md`): no wildcard in its last segment, not
    a folder."""
    return not glob.endswith("/") and not globs.has_wildcard(glob.rpartition("/")[2])


def folded_only(rule: str, tree: Iterable[str]) -> tuple[str, ...]:
    """The files of `tree` that `rule`'s globs (`rule_paths`) hit only once
    letter case is folded, as exact excludes (a file at the root anchored):
    a docs page `docs/llms/gemini.md` is no `GEMINI.md`.  A file is one when
    its name folds to the name of a glob that names one file (`_literal`),
    no glob of the rule matches it as written, and no other glob of the
    rule (a folder, a wildcard) matches it folded: `.gemini/gemini.md`
    stays protected by `.gemini/`.  A path a glob cannot spell plainly is
    left protected."""
    from gate.rubric.unreviewed import UNSPELLABLE

    listed = sorted(tree)
    paths = rule_paths(rule, listed)
    literal = [g for g in paths if _literal(g)]
    others = [g for g in paths if not _literal(g)]
    names = {g.rpartition("/")[2].casefold() for g in literal}
    as_written = globs.matcher(paths, globs.NAMES)
    other_folded = globs.matcher(others, globs.FOLDED) if others else None
    out = []
    for path in globs.matching(listed, literal, globs.FOLDED):
        if path.rpartition("/")[2].casefold() not in names or as_written(path):
            continue
        if (other_folded and other_folded(path)) or UNSPELLABLE.search(path):
            continue
        out.append(path if "/" in path else "/" + path)
    return tuple(out)


def markdown_table() -> str:
    """The table of families docs/rubric.md shows (a test compares it)."""
    lines = ["| rule | family | files | source |", "| --- | --- | --- | --- |"]
    for f in FAMILIES:
        files = ", ".join(f"`{p}`" for p in f.paths)
        if not f.always:
            files += " (when present)"
        link = f"[docs]({f.source})" if f.source else "*unverified*"
        lines.append(f"| `{f.rule}` | {f.name} | {files} | {link} |")
    return "\n".join(lines) + "\n"
