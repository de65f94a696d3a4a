"""new_dependencies: each dependency a manifest gains, or takes from a new
source, is named; bumps, moves and reformatting pass.  Every case goes
through a real git repository and the gate's own builder (`RuleCase`)."""

from __future__ import annotations

import json

import pytest

from gate.changes.example import changes_from_example
from gate.model.change import MODE_SYMLINK, ChangeSet, FileChange, FileTexts, from_paths
from tests.rulecase import Files, RuleCase, edit

CASE = RuleCase("new_dependencies", id="DEPS")


def pkg(deps: dict[str, str] | None = None, **maps: dict[str, str]) -> str:
    data: dict[str, object] = {"name": "app", "version": "1.0.0"}
    if deps is not None:
        data["dependencies"] = deps
    data.update(maps)
    return json.dumps(data, indent=2) + "\n"


def pyproject(deps: list[str], extra: str = "") -> str:
    return f"[project]\nname = 'app'\ndependencies = {json.dumps(deps)}\n{extra}"


GO_BASE = "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.0.0\n)\n"
GEMSPEC = (
    'Gem::Specification.new do |spec|\n  spec.name = "app"\n'
    '  spec.add_dependency "concurrent-ruby", "~> 1.0", ">= 1.0.2"\n'
    '  spec.add_dependency "bigdecimal"\n'
)
CARGO_BASE = '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\n'

# (label, change, passed, fragment of the message)
CASES = [
    # --- package.json ---
    ("npm: untouched", edit("src/a.js", "1\n", "2\n"), True, "no dependency manifest touched"),
    (
        "npm: bump passes",
        edit("package.json", pkg({"a": "^1.0.0"}), pkg({"a": "^2.0.0"})),
        True,
        "no new dependency",
    ),
    (
        "npm: added",
        edit("package.json", pkg({"a": "^1"}), pkg({"a": "^1", "b": "~2.0.0"})),
        False,
        '"b" ("~2.0.0") added to "package.json" dependencies',
    ),
    (
        "npm: dev added",
        edit("package.json", pkg({}), pkg({}, devDependencies={"c": "1"})),
        False,
        'added to "package.json" devDependencies',
    ),
    (
        "npm: peer added",
        edit("package.json", pkg({}), pkg({}, peerDependencies={"c": "*"})),
        False,
        "peerDependencies",
    ),
    (
        "npm: optional added",
        edit("package.json", pkg({}), pkg({}, optionalDependencies={"c": "1"})),
        False,
        "optionalDependencies",
    ),
    (
        "npm: moved between sections",
        edit("package.json", pkg({"a": "^1"}), pkg({}, devDependencies={"a": "^1"})),
        True,
        "no new dependency",
    ),
    (
        "npm: workspace package is local",
        edit("package.json", pkg({}), pkg({"@me/lib": "workspace:*"})),
        True,
        "no new dependency",
    ),
    (
        "npm: catalog is the registry",
        edit("package.json", pkg({"a": "^1"}), pkg({"a": "catalog:"})),
        True,
        "no new dependency",
    ),
    (
        "npm: an alias of a package the project takes from the registry",
        edit(
            "package.json", pkg({"undici": "^7"}), pkg({"undici": "^7", "undici8": "npm:undici@^8"})
        ),
        True,
        "no new dependency",
    ),
    (
        "npm: an alias of a package the project does not have",
        edit(
            "package.json", pkg({"undici": "^7"}), pkg({"undici": "^7", "undici8": "npm:undicl@^8"})
        ),
        False,
        '"undici8" (from "npm:undicl") added',
    ),
    (
        "npm: an alias of a package the project takes from git",
        edit(
            "package.json",
            pkg({"undici": "github:nodejs/undici"}),
            pkg({"undici": "github:nodejs/undici", "u8": "npm:undici@^8"}),
        ),
        False,
        '"u8" (from "npm:undici") added',
    ),
    (
        "npm: dist-tag is the registry",
        edit("package.json", pkg({"a": "^1"}), pkg({"a": "latest"})),
        True,
        "no new dependency",
    ),
    (
        "npm: reformatted",
        edit(
            "package.json",
            pkg({"a": "^1", "b": "2"}),
            json.dumps({"dependencies": {"b": "2", "a": "^1"}, "version": "1.0.0", "name": "app"})
            + "\n",
        ),
        True,
        "no new dependency",
    ),
    (
        "npm: override to a fork",
        edit(
            "package.json",
            pkg({"a": "^1"}),
            json.dumps({"dependencies": {"a": "^1"}, "overrides": {"b": "github:evil/b"}}),
        ),
        False,
        '"b" (from "github:evil/b") added to "package.json" overrides',
    ),
    (
        "npm: override to a version passes",
        edit(
            "package.json",
            pkg({"a": "^1"}),
            json.dumps({"dependencies": {"a": "^1"}, "overrides": {"b": "1.2.3", "a": "$a"}}),
        ),
        True,
        "no new dependency",
    ),
    (
        "npm: nested workspace package",
        edit("packages/web/package.json", pkg({"a": "^1"}), pkg({"a": "^1", "left-pad": "1"})),
        False,
        '"packages/web/package.json" dependencies',
    ),
    (
        "npm: a new package.json names all it declares",
        edit("tools/package.json", None, pkg({"x": "1", "y": "2"})),
        False,
        "2 new dependencies",
    ),
    (
        "npm: a deleted package.json passes",
        edit("tools/package.json", pkg({"x": "1"}), None),
        True,
        "no new dependency",
    ),
    (
        "npm: moved to the workspace root",
        Files(
            base={"package.json": pkg({}), "packages/a/package.json": pkg({"lodash": "^4"})},
            head={
                "package.json": pkg({}, devDependencies={"lodash": "^4"}),
                "packages/a/package.json": pkg({}),
            },
        ),
        True,
        "in 2 manifests read",
    ),
    (
        "npm: CRLF and BOM",
        edit("package.json", pkg({"a": "1"}), "\ufeff" + pkg({"a": "1"}).replace("\n", "\r\n")),
        True,
        "no new dependency",
    ),
    (
        "npm: duplicate key fails closed",
        edit(
            "package.json",
            pkg({"a": "1"}),
            '{"dependencies": {"a": "1", "a": "git+https://evil/a.git"}}\n',
        ),
        False,
        "duplicate key",
    ),
    (
        "npm: a comment is not JSON",
        edit("package.json", pkg({"a": "1"}), '{\n  // comment\n  "dependencies": {"a": "1"}\n}\n'),
        False,
        '"package.json" cannot be read: the head version is not strict JSON',
    ),
    (
        "npm: a prerelease bump passes",
        edit("package.json", pkg({"a": "0.2.0-alpha.9"}), pkg({"a": "0.2.0-alpha.10"})),
        True,
        "no new dependency",
    ),
    (
        "npm: a new package taking the catalog's version",
        edit("examples/x/package.json", None, pkg({"hono": "catalog:server"})),
        True,
        "no new dependency",
    ),
    (
        "pnpm: a catalog entry added",
        edit(
            "pnpm-workspace.yaml",
            "packages: ['examples/*']\ncatalog:\n  zod: ^3.25.0\n",
            "packages: ['examples/*']\ncatalog:\n  zod: ^3.25.0\n"
            "catalogs:\n  server:\n    hono: ^4.0.0\n",
        ),
        False,
        '"hono" ("^4.0.0") added to "pnpm-workspace.yaml" catalogs.server',
    ),
    (
        "pnpm: a catalog bump passes",
        edit("pnpm-workspace.yaml", "catalog:\n  zod: ^3.25.0\n", "catalog:\n  zod: ^4.0.0\n"),
        True,
        "no new dependency",
    ),
    (
        "pnpm: broken YAML fails closed",
        edit("pnpm-workspace.yaml", "catalog:\n  zod: ^3.25.0\n", "catalog: [\n"),
        False,
        '"pnpm-workspace.yaml" cannot be read: the head version is not valid YAML',
    ),
    # --- pyproject.toml ---
    (
        "py: bump passes",
        edit("pyproject.toml", pyproject(["requests>=2"]), pyproject(["requests>=2.31"])),
        True,
        "no new dependency",
    ),
    (
        "py: added",
        edit("pyproject.toml", pyproject(["requests"]), pyproject(["requests", "httpx>=0.27"])),
        False,
        '"httpx" (">=0.27") added to "pyproject.toml" project.dependencies',
    ),
    (
        "py: extra added",
        edit(
            "pyproject.toml",
            pyproject([]),
            pyproject([], "[project.optional-dependencies]\nfast = ['orjson']\n"),
        ),
        False,
        "project.optional-dependencies.fast",
    ),
    (
        "py: group added",
        edit(
            "pyproject.toml",
            pyproject([]),
            pyproject([], "[dependency-groups]\ndev = ['ruff', {include-group = 'x'}]\n"),
        ),
        False,
        '"ruff" (any version) added to "pyproject.toml" dependency-groups.dev',
    ),
    (
        "py: moved to a group",
        edit(
            "pyproject.toml",
            pyproject(["pytest"]),
            pyproject([], "[dependency-groups]\ntest = ['pytest']\n"),
        ),
        True,
        "no new dependency",
    ),
    (
        "py: direct reference",
        edit(
            "pyproject.toml",
            pyproject(["attrs"]),
            pyproject(["attrs @ git+https://github.com/evil/attrs"]),
        ),
        False,
        'now from "git+https://github.com/evil/attrs"',
    ),
    (
        "py: uv source",
        edit(
            "pyproject.toml",
            pyproject(["attrs"]),
            pyproject(
                ["attrs"], "[tool.uv.sources]\nattrs = { git = 'https://github.com/evil/attrs' }\n"
            ),
        ),
        False,
        '"attrs" in "pyproject.toml" project.dependencies now from',
    ),
    (
        "py: uv workspace source is local",
        edit(
            "pyproject.toml",
            pyproject(["attrs"]),
            pyproject(["attrs"], "[tool.uv.sources]\nattrs = { workspace = true }\n"),
        ),
        True,
        "no new dependency",
    ),
    (
        "py: a new uv workspace member is the repository's own",
        edit(
            "pyproject.toml",
            pyproject(["attrs"], "[tool.uv.sources]\nmcp = { workspace = true }\n"),
            pyproject(
                ["attrs", "mcp-types==1"],
                "[tool.uv.sources]\nmcp = { workspace = true }\nmcp-types = { workspace = true }\n",
            ),
        ),
        True,
        "no new dependency",
    ),
    (
        "py: a workspace source taken away leaves a package from the index",
        edit(
            "pyproject.toml",
            pyproject(["own"], "[tool.uv.sources]\nown = { workspace = true }\n"),
            pyproject(["own"]),
        ),
        False,
        '"own" (any version) added',
    ),
    (
        "py: uv index",
        edit(
            "pyproject.toml",
            pyproject([]),
            pyproject([], "[[tool.uv.index]]\nname = 'x'\nurl = 'https://evil.example/simple'\n"),
        ),
        False,
        'index "https://evil.example/simple" added to "pyproject.toml" tool.uv.index',
    ),
    (
        "py: poetry added",
        edit(
            "pyproject.toml",
            "[tool.poetry.dependencies]\npython = '^3.10'\n",
            "[tool.poetry.dependencies]\npython = '^3.11'\nrich = '^13'\n",
        ),
        False,
        '"rich" ("^13") added to "pyproject.toml" tool.poetry.dependencies',
    ),
    (
        "py: poetry git",
        edit(
            "pyproject.toml",
            "[tool.poetry.dependencies]\nrich = '^13'\n",
            "[tool.poetry.dependencies]\nrich = { git = 'https://github.com/evil/rich' }\n",
        ),
        False,
        '"rich" in "pyproject.toml" tool.poetry.dependencies now from',
    ),
    (
        "py: poetry group",
        edit(
            "pyproject.toml",
            "[tool.poetry]\nname = 'a'\n",
            "[tool.poetry]\nname = 'a'\n[tool.poetry.group.dev.dependencies]\nblack = '*'\n",
        ),
        False,
        "tool.poetry.group.dev.dependencies",
    ),
    (
        "py: poetry source",
        edit(
            "pyproject.toml",
            "[tool.poetry]\nname = 'a'\n",
            "[tool.poetry]\nname = 'a'\n[[tool.poetry.source]]\nname = 'x'\nurl = 'https://x.example/simple'\n",
        ),
        False,
        'index "https://x.example/simple"',
    ),
    (
        "py: not PEP 508 fails closed",
        edit("pyproject.toml", pyproject(["a"]), pyproject(["a >> 1"])),
        False,
        "which is not a PEP 508 requirement",
    ),
    (
        "py: broken TOML at head",
        edit("pyproject.toml", pyproject([]), "[project\n"),
        False,
        '"pyproject.toml" cannot be read: the head version is not valid TOML',
    ),
    (
        "py: folded into pyproject",
        Files(
            base={"requirements.txt": "requests==2.31\nrich\n", "pyproject.toml": pyproject([])},
            head={"pyproject.toml": pyproject(["requests==2.31", "rich"])},
        ),
        True,
        "no new dependency",
    ),
    (
        "py: moved from hatch's dynamic dependencies to a group",
        edit(
            "pyproject.toml",
            "[project]\ndynamic = ['dependencies']\n"
            "[tool.hatch.metadata.hooks.uv-dynamic-versioning]\n"
            "dependencies = ['a', 'b>=2', 'own=={{ version }}']\n",
            "[project]\ndynamic = ['dependencies']\n[dependency-groups]\ndev = ['b>=2']\n"
            "[tool.hatch.metadata.hooks.uv-dynamic-versioning]\n"
            "dependencies = ['a', 'own == {{ version }}']\n",
        ),
        True,
        "no new dependency",
    ),
    (
        "py: added to hatch's dynamic dependencies",
        edit(
            "pyproject.toml",
            "[tool.hatch.metadata.hooks.uv-dynamic-versioning]\ndependencies = ['a']\n",
            "[tool.hatch.metadata.hooks.uv-dynamic-versioning]\ndependencies = ['a', 'evil']\n",
        ),
        False,
        '"evil" (any version) added to "pyproject.toml" '
        "tool.hatch.metadata.hooks.uv-dynamic-versioning.dependencies",
    ),
    (
        "py: a hatch environment's dependency",
        edit(
            "pyproject.toml",
            "[tool.hatch.envs.default]\ndependencies = ['a']\n",
            "[tool.hatch.envs.default]\ndependencies = ['a']\nextra-dependencies = ['b']\n",
        ),
        False,
        "tool.hatch.envs.default.extra-dependencies",
    ),
    # --- requirements files ---
    (
        "req: added",
        edit("requirements.txt", "requests\n", "requests\nflask==3.0\n"),
        False,
        '"flask" ("==3.0") added to "requirements.txt" requirements',
    ),
    (
        "req: comments and continuations",
        edit("requirements.txt", "requests  # http\n", "# the web\nrequests \\\n  >=2 # http\n"),
        True,
        "no new dependency",
    ),
    (
        "req: hashes",
        edit(
            "requirements.txt",
            "a==1 --hash=sha256:00\n",
            "a==2 \\\n    --hash=sha256:11 \\\n    --hash=sha256:22\n",
        ),
        True,
        "no new dependency",
    ),
    (
        "req: editable VCS",
        edit("requirements.txt", "a==1\n", "a==1\n-e git+https://github.com/evil/b.git#egg=b\n"),
        False,
        '"b" (from "git+https://github.com/evil/b.git#egg=b") added',
    ),
    (
        "req: the project itself",
        edit("requirements.txt", "a==1\n", "a==1\n-e .[test]\n.\n"),
        True,
        "no new dependency",
    ),
    (
        "req: local wheel",
        edit("requirements.txt", "a==1\n", "a==1\n./wheels/b-1.0-py3-none-any.whl\n"),
        False,
        '"b" (from "./wheels/b-1.0-py3-none-any.whl")',
    ),
    (
        "req: include",
        edit("requirements/dev.txt", "a\n", "-r base.txt\na\n"),
        False,
        'include "base.txt" added to "requirements/dev.txt" -r',
    ),
    ("req: .in file", edit("requirements.in", "a\n", "a\nb\n"), False, '"requirements.in"'),
    (
        "req: dev-requirements name",
        edit("dev-requirements.txt", "a\n", "a\nb\n"),
        False,
        '"dev-requirements.txt"',
    ),
    (
        "req: MANIFEST.in is no manifest",
        edit("MANIFEST.in", "include a\n", "include b\n"),
        True,
        "no dependency manifest touched",
    ),
    # --- setup.cfg, Pipfile ---
    (
        "cfg: install_requires",
        edit(
            "setup.cfg",
            "[options]\ninstall_requires =\n    a\n",
            "[options]\ninstall_requires =\n    a\n    b>=1  # new\n",
        ),
        False,
        '"b" (">=1") added to "setup.cfg" options.install_requires',
    ),
    (
        "cfg: extras",
        edit(
            "setup.cfg",
            "[metadata]\nname = x\n",
            "[metadata]\nname = x\n[options.extras_require]\ntest =\n    pytest\n",
        ),
        False,
        "options.extras_require.test",
    ),
    (
        "pipfile: dev-packages",
        edit(
            "Pipfile", '[packages]\na = "*"\n', '[packages]\na = "*"\n\n[dev-packages]\nb = "==1"\n'
        ),
        False,
        '"Pipfile" dev-packages',
    ),
    (
        "pipfile: git",
        edit(
            "Pipfile",
            '[packages]\na = "*"\n',
            '[packages]\na = {git = "https://github.com/evil/a.git", ref = "main"}\n',
        ),
        False,
        "now from",
    ),
    (
        "pipfile: source",
        edit(
            "Pipfile",
            '[packages]\na = "*"\n',
            '[[source]]\nurl = "https://evil.example/simple"\nname = "e"\n\n[packages]\na = "*"\n',
        ),
        False,
        'index "https://evil.example/simple" added to "Pipfile" source',
    ),
    # --- go.mod ---
    (
        "go: bump passes",
        edit("go.mod", GO_BASE, GO_BASE.replace("v1.0.0", "v1.2.0")),
        True,
        "no new dependency",
    ),
    (
        "go: a new major version is a bump",
        edit(
            "go.mod",
            GO_BASE.replace(
                "github.com/a/b v1.0.0", "github.com/a/b/v87 v87.0.0\n\tgopkg.in/yaml.v2 v2.4.0"
            ),
            GO_BASE.replace(
                "github.com/a/b v1.0.0", "github.com/a/b/v89 v89.0.0\n\tgopkg.in/yaml.v3 v3.0.1"
            ),
        ),
        True,
        "no new dependency",
    ),
    (
        "go: a major version suffix on another module is new",
        edit(
            "go.mod", GO_BASE, GO_BASE.replace("v1.0.0\n", "v1.0.0\n\tgithub.com/a/bb/v2 v2.0.0\n")
        ),
        False,
        '"github.com/a/bb/v2" ("v2.0.0") added',
    ),
    (
        "go: require added",
        edit("go.mod", GO_BASE, GO_BASE + "\nrequire golang.org/x/sync v0.7.0\n"),
        False,
        '"golang.org/x/sync" ("v0.7.0") added to "go.mod" require',
    ),
    (
        "go: indirect explained by a bump",
        edit(
            "go.mod",
            GO_BASE,
            GO_BASE.replace("v1.0.0\n", "v1.2.0\n\tgolang.org/x/net v0.1.0 // indirect\n"),
        ),
        True,
        "no new dependency",
    ),
    (
        "go: indirect alone",
        edit(
            "go.mod",
            GO_BASE,
            GO_BASE.replace("v1.0.0\n", "v1.0.0\n\tgolang.org/x/net v0.1.0 // indirect\n"),
        ),
        False,
        '"golang.org/x/net" ("v0.1.0") added',
    ),
    (
        "go: replace",
        edit("go.mod", GO_BASE, GO_BASE + "\nreplace github.com/a/b => ../b\n"),
        False,
        '"github.com/a/b" in "go.mod" replace now from "../b"',
    ),
    (
        "go: tool",
        edit("go.mod", GO_BASE, GO_BASE + "\ntool golang.org/x/tools/cmd/stringer\n"),
        False,
        '"golang.org/x/tools/cmd/stringer" (any version) added to "go.mod" tool',
    ),
    (
        "go: comments and go line",
        edit(
            "go.mod",
            GO_BASE,
            "// the app\n" + GO_BASE.replace("go 1.22", "go 1.23 // newer\n\ntoolchain go1.23.1"),
        ),
        True,
        "no new dependency",
    ),
    (
        "go: module path case matters",
        edit("go.mod", GO_BASE, GO_BASE.replace("a/b", "A/b")),
        False,
        '"github.com/A/b"',
    ),
    (
        "go: unknown directive fails closed",
        edit("go.mod", GO_BASE, GO_BASE + "requir x v1\n"),
        False,
        "unknown directive",
    ),
    # --- Cargo.toml ---
    (
        "cargo: bump passes",
        edit("Cargo.toml", CARGO_BASE, CARGO_BASE.replace('"1"', '"1.0.200"')),
        True,
        "no new dependency",
    ),
    (
        "cargo: added",
        edit(
            "Cargo.toml",
            CARGO_BASE,
            CARGO_BASE + 'tokio = { version = "1", features = ["full"] }\n',
        ),
        False,
        '"tokio" ("1") added to "Cargo.toml" dependencies',
    ),
    (
        "cargo: git",
        edit(
            "Cargo.toml",
            CARGO_BASE,
            CARGO_BASE.replace(
                'serde = "1"', 'serde = { git = "https://github.com/evil/serde", branch = "main" }'
            ),
        ),
        False,
        '"serde" in "Cargo.toml" dependencies now from',
    ),
    (
        "cargo: target dev-dependency",
        edit(
            "Cargo.toml",
            CARGO_BASE,
            CARGO_BASE + "\n[target.'cfg(unix)'.dev-dependencies]\nnix = \"0.29\"\n",
        ),
        False,
        "target.'cfg(unix)'.dev-dependencies",
    ),
    (
        "cargo: build-dependency moved",
        edit(
            "Cargo.toml", CARGO_BASE, CARGO_BASE.replace("[dependencies]", "[build-dependencies]")
        ),
        True,
        "no new dependency",
    ),
    (
        "cargo: patch",
        edit(
            "Cargo.toml",
            CARGO_BASE,
            CARGO_BASE + '\n[patch.crates-io]\nserde = { path = "../serde" }\n',
        ),
        False,
        '"serde" in "Cargo.toml" patch.crates-io now from',
    ),
    (
        "cargo: rename to another crate",
        edit(
            "Cargo.toml",
            CARGO_BASE,
            CARGO_BASE + 'json = { package = "serde_json", version = "1" }\n',
        ),
        False,
        '"json (package serde_json)"',
    ),
    (
        "cargo: rename of an existing crate",
        edit(
            "Cargo.toml",
            CARGO_BASE,
            CARGO_BASE.replace('serde = "1"', 'ser = { package = "serde", version = "1" }'),
        ),
        True,
        "no new dependency",
    ),
    (
        "cargo: underscore spelling",
        edit("Cargo.toml", CARGO_BASE + 'serde_json = "1"\n', CARGO_BASE + 'serde-json = "1"\n'),
        True,
        "no new dependency",
    ),
    (
        "cargo: workspace inherits",
        edit("crates/a/Cargo.toml", CARGO_BASE, CARGO_BASE + "rand = { workspace = true }\n"),
        True,
        "no new dependency",
    ),
    (
        "cargo: workspace.dependencies",
        edit(
            "Cargo.toml",
            "[workspace]\nmembers = []\n",
            '[workspace]\nmembers = []\n\n[workspace.dependencies]\nrand = "0.8"\n',
        ),
        False,
        "workspace.dependencies",
    ),
    # --- composer.json, Gemfile ---
    (
        "composer: added",
        edit(
            "composer.json",
            '{"require": {"php": ">=8.1"}}\n',
            '{"require": {"php": ">=8.2", "ext-json": "*", "monolog/monolog": "^3"}}\n',
        ),
        False,
        '1 new dependency: "monolog/monolog"',
    ),
    (
        "composer: repository",
        edit(
            "composer.json",
            '{"require": {}}\n',
            '{"require": {}, "repositories": [{"type": "vcs", "url": "https://github.com/evil/x"}]}\n',
        ),
        False,
        'index "https://github.com/evil/x"',
    ),
    (
        "gemfile: added",
        edit(
            "Gemfile",
            'source "https://rubygems.org"\ngem "rails", "~> 7.1"\n',
            'source "https://rubygems.org"\ngem "rails", "~> 7.2"\n\n'
            'group :test do\n  gem "rspec"\nend\n',
        ),
        False,
        '"rspec" (any version) added to "Gemfile" group :test',
    ),
    (
        "gemfile: git",
        edit("Gemfile", "gem 'rails'\n", "gem 'rails', github: 'evil/rails'\n"),
        False,
        '"rails" in "Gemfile" gems now from "github: evil/rails"',
    ),
    (
        "gemfile: gemspec include added",
        edit("Gemfile", 'gem "rails"\n', 'gemspec\ngem "rails"\n'),
        False,
        'include "gemspec" added to "Gemfile" gemspec',
    ),
    # --- *.gemspec (getsentry/sentry-ruby: `spec.add_dependency "logger"`) ---
    (
        "gemspec: added",
        edit("sentry-ruby.gemspec", GEMSPEC, GEMSPEC + '  spec.add_dependency "logger"\n'),
        False,
        '1 new dependency: "logger" (any version) added to "sentry-ruby.gemspec" add_dependency',
    ),
    (
        "gemspec: runtime added with parentheses and single quotes",
        edit("app.gemspec", GEMSPEC, GEMSPEC + "  s.add_runtime_dependency('rack', '>= 2')\n"),
        False,
        '"rack" (">=2") added to "app.gemspec" add_runtime_dependency',
    ),
    (
        "gemspec: development added",
        edit(
            "app.gemspec", GEMSPEC, GEMSPEC + '  spec.add_development_dependency "rspec", "~> 3"\n'
        ),
        False,
        '"rspec" ("~>3") added to "app.gemspec" add_development_dependency',
    ),
    (
        "gemspec: in a subfolder",
        edit("gems/app/app.gemspec", GEMSPEC, GEMSPEC + '  spec.add_dependency "logger"\n'),
        False,
        '"logger" (any version) added to "gems/app/app.gemspec"',
    ),
    (
        "gemspec: a new gem",
        edit("gems/new/new.gemspec", None, GEMSPEC),
        False,
        '"concurrent-ruby" ("~>1.0,>=1.0.2") added to "gems/new/new.gemspec" add_dependency',
    ),
    (
        "gemspec: bump passes",
        edit("app.gemspec", GEMSPEC, GEMSPEC.replace("~> 1.0", ">= 1.1")),
        True,
        "no new dependency or source in 1 manifest read",
    ),
    (
        "gemspec: removed passes",
        edit(
            "app.gemspec",
            GEMSPEC,
            GEMSPEC.replace('  spec.add_dependency "concurrent-ruby", "~> 1.0", ">= 1.0.2"\n', ""),
        ),
        True,
        "no new dependency",
    ),
    (
        "gemspec: respelled passes",
        edit(
            "app.gemspec",
            GEMSPEC,
            GEMSPEC.replace(
                'spec.add_dependency "concurrent-ruby", "~> 1.0", ">= 1.0.2"',
                "spec.add_runtime_dependency(%q<Concurrent-Ruby>.freeze, ['~> 1.0', '>= 1.0.2'])",
            ),
        ),
        True,
        "no new dependency",
    ),
    (
        "gemspec: moved to the Gemfile passes",
        edit("app.gemspec", GEMSPEC + '  spec.add_dependency "rake"\n', GEMSPEC)
        | edit("Gemfile", "gemspec\n", 'gemspec\ngem "rake"\n'),
        True,
        "no new dependency or source in 2 manifests read",
    ),
    (
        "gemspec: the Gemfile changes its source",
        edit("app.gemspec", GEMSPEC, GEMSPEC + "\n")
        | edit("Gemfile", "gemspec\n", 'gemspec\ngem "concurrent-ruby", github: "evil/c"\n'),
        False,
        '"concurrent-ruby" in "Gemfile" gems now from "github: evil/c"',
    ),
    (
        "gemspec: a computed name cannot be read",
        edit("app.gemspec", GEMSPEC, GEMSPEC + "  %w[a b].each { |d| spec.add_dependency d }\n"),
        False,
        '"app.gemspec" cannot be read: the head version line 5:',
    ),
]


@pytest.mark.parametrize(
    ("label", "change", "passed", "fragment"), CASES, ids=[c[0] for c in CASES]
)
def test_table(label: str, change: Files, passed: bool, fragment: str) -> None:
    if passed:
        CASE.passes(change, fragment)
    else:
        CASE.fails(change, fragment)


def test_a_renamed_manifest_is_compared_across_its_paths() -> None:
    body = pkg({"a": "^1", "b": "^2", "c": "^3", "d": "4", "e": "5"})
    result = CASE.passes(Files(base={"web/package.json": body}, head={"app/package.json": body}))
    assert "2 manifests read" in result.message


def test_findings_point_at_the_head_line() -> None:
    result = CASE.fails(edit("requirements.txt", "a\nb\n", "a\nb\nc==1\n"), findings=[(3, '"c"')])
    assert result.paths == ("requirements.txt",)


def test_bumps_fail_when_asked() -> None:
    change = edit("package.json", pkg({"a": "^1.0.0"}), pkg({"a": "^2.0.0"}))
    CASE.passes(change)
    CASE.fails(
        change, '"a" in "package.json" dependencies bumped to "^2.0.0" (was "^1.0.0")', bumps="fail"
    )
    gem = edit("app.gemspec", GEMSPEC, GEMSPEC.replace('"bigdecimal"', '"bigdecimal", "~> 3.1"'))
    CASE.fails(gem, '"bigdecimal" in "app.gemspec" add_dependency bumped to "~>3.1"', bumps="fail")


def test_allow_list_by_glob_in_each_ecosystems_spelling() -> None:
    change = edit("package.json", pkg({}), pkg({}, devDependencies={"@types/node": "20"}))
    CASE.passes(change, allow=["@types/*"])
    CASE.fails(change, "@types/node", allow=["@TYPES/*"])  # npm names are case-sensitive
    py = edit("requirements.txt", "a\n", "a\npytest_cov\n")
    CASE.passes(py, allow=["Pytest-*"])
    CASE.fails(py, "pytest_cov", allow=["pytest"])
    index = edit("requirements.txt", "a\n", "--extra-index-url https://mirror.example/simple\na\n")
    CASE.passes(index, allow=["https://mirror.example/*"])


def test_manifests_parameter_narrows_and_a_name_no_reader_knows_is_refused() -> None:
    change = edit("tools/package.json", pkg({}), pkg({"x": "1"}))
    CASE.passes(change, "no dependency manifest touched", manifests=["/package.json"])
    with pytest.raises(Exception, match="names a file no reader knows"):
        CASE.rubric(manifests=["deps.yaml"])


def test_a_manifest_over_the_size_limit_fails_naming_it() -> None:
    huge = pkg({"a": "1"}) + " " * (1 << 20)
    CASE.fails(edit("package.json", pkg({"a": "1"}), huge), "over the 1 MiB")


def test_a_writers_paths_alone_fail_and_an_example_by_counts_passes() -> None:
    writer = ChangeSet(files=from_paths(["package.json"]), source="writer")
    CASE.fails(writer, "does not say how")
    example = changes_from_example([{"path": "package.json", "added": 1, "deleted": 1}])
    CASE.passes(example, "the example gives no text")


def test_a_symlinked_manifest_fails() -> None:
    change = ChangeSet(
        files=(FileChange("package.json", new_mode=MODE_SYMLINK, old_mode="100644"),),
        texts={"package.json": FileTexts(base="{}", head="x.json")},
    )
    CASE.fails(change, "symlink")


def test_the_verdict_is_deterministic() -> None:
    change = edit("package.json", pkg({}), pkg({"z": "1", "a": "2", "m": "github:x/m"}))
    first = CASE.check(change)
    assert CASE.check(change) == first
    assert first.message.index('"a"') < first.message.index('"m"') < first.message.index('"z"')
