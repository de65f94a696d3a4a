"""`new_dependencies`: the dependency manifests a change writes declare
no new dependency and take none from a new source.

A package name an agent invents can be registered by anyone (a
"slopsquatted" name), and a dependency moved to a git repository, a path
or another index runs code no registry reviewed; both deserve a human's
look.  The rule reads each manifest the change writes (`manifests`, at
any depth without a `/`, in any letter case: `Requirements.txt` and
`PACKAGE.JSON` are read as the manifests they name; added, deleted,
modified and renamed ones) at base and at head (`gate.manifests`), and
fails on each dependency **added** (a name no base version declares) or
**taken from a new source** (a name declared at base, now from a source
no base version names), naming the manifest, the section, the name and
its version or source.  A version bump of an existing dependency passes;
with `bumps: fail` it fails too.

What each format declares:

* `package.json`: `dependencies`, `devDependencies`, `peerDependencies`,
  `optionalDependencies`.  A version, a range, a prerelease or a dist-tag
  is a spec; a value with a protocol or a `/` (`git+...`, `github:`,
  `user/repo`, a URL or a tarball, `file:`, `link:`, an alias
  `npm:other@1`) is a source (an alias of a package the project
  already takes from the registry under its own name, a second major
  version of it, is not new); a `workspace:` package is the repository's
  own, and a `catalog:` one takes what pnpm-workspace.yaml's catalog
  names: neither is read in package.json.  A key of `overrides`,
  `resolutions` or `pnpm.overrides` whose value is a source is a source
  for the package it names.
* `pnpm-workspace.yaml`: `catalog` and every catalog of `catalogs` (a
  package added to a catalog is named there, once for every package that
  takes it).
* `pyproject.toml`: `[project] dependencies`, every extra of
  `[project.optional-dependencies]`, every group of
  `[dependency-groups]`, `[tool.uv] dev-dependencies`,
  `[tool.pdm.dev-dependencies]`, Hatch's metadata hooks (dynamic
  `dependencies` and `optional-dependencies`) and environments'
  `dependencies` and `extra-dependencies`, Poetry's `[tool.poetry.dependencies]`,
  `[tool.poetry.dev-dependencies]` and `[tool.poetry.group.*.dependencies]`
  (a table's `git`, `path`, `url`, `file` or `source` is a source);
  `[tool.uv.sources]` gives a package its source, and one it names
  `workspace = true` is the repository's own and is not read (a member
  that loses that source is judged as a package from the index); a PEP
  508 `name @ URL` takes its source from the URL;
  `[[tool.uv.index]]`, `[tool.uv]`'s `index-url`, `extra-index-url` and
  `find-links`, and `[[tool.poetry.source]]` are new sources by
  themselves (an index added is named as one).
* pip's requirements files (`*requirements*.txt`, `*requirements*.in`,
  `requirements/*.txt` and `.in`): comments, `\\` continuations and
  `--hash` options as pip reads them; a URL, a VCS link, a path or an
  `-e` one is a source (the project itself, `.` or `-e .[test]`, is
  not); `-i`, `--index-url`, `--extra-index-url`, `-f`/`--find-links`
  and `--trusted-host` lines are indexes; an `-r` include of another file
  is named as one when it is new (the file it names is judged when the
  change writes it and a `manifests` glob matches it).
* `setup.cfg`: `[options]` `install_requires`, `setup_requires`,
  `tests_require`, and every extra of `[options.extras_require]`.
* `Pipfile`: every package category (`[packages]`, `[dev-packages]`,
  custom ones), a table's `git`, `path`, `file` or `index` its source,
  each `[[source]]` an index.
* `go.mod`: `require` blocks and lines, `replace` (a source for the
  module it replaces, a local path or another module), `tool`
  directives.  A module path's major version suffix (`/v89`,
  gopkg.in's `.v3`) is not part of its name: a new major version of a
  module is a bump.  A new `// indirect` requirement is not judged when the
  same go.mod gains or moves a direct requirement (the go command adds
  what those need); one that comes alone is.
* `Cargo.toml`: `[dependencies]`, `[dev-dependencies]`,
  `[build-dependencies]`, the same under `[target.'cfg(...)']`,
  `[workspace.dependencies]`; a table's `git` (with `rev`, `tag`,
  `branch`), `path` or `registry` is a source; `package = "other"`
  renames (the crate compared is `other`); `[patch.*]` and `[replace]`
  entries are sources for the crates they name; a `workspace = true`
  entry inherits what the workspace root declares and is judged there.
* `composer.json`: `require`, `require-dev` (not platform packages such
  as `php` or `ext-*`), and each of `repositories` as an index.
* `Gemfile`: `gem` lines (their `git:`, `github:`, `path:`, `source:`,
  and an enclosing `git`/`path`/`source` block), `source` lines as
  indexes.  Ruby can compute a Gemfile; only the plain DSL is read.  A
  `gemspec` line is named as an include when it is new (the `.gemspec`
  it names is judged when the change writes it, as pip's `-r` files are).
* `*.gemspec`: each `add_dependency`, `add_runtime_dependency` and
  `add_development_dependency` call (a test tool is a supply-chain
  decision too), the gem's name a string literal first (`"name"`,
  `'name'`, `%q<name>`, with or without parentheses, `.freeze`), then
  its version strings; a call over several lines is read whole.  A call
  that names its gem with anything else (a variable, an interpolated
  string, a `%w[...]` list it loops over) is Ruby computing the gemspec:
  the file cannot be read, and the rule fails naming the line.  In both
  Ruby files a `#` inside a string starts no comment and `;` separates
  statements (`"see #1"; gem "x"` declares `x`).

Names are compared the way each ecosystem compares them: Python's per
PEP 503 (`Re_Quests`, `re.quests` and `re-quests` are one name, and
not `requests`), npm's and Go's as written (case-sensitive; a Go path
without its major version suffix), Cargo's and
Composer's in lower case with `_` as `-`, RubyGems' in lower case.  So
is `allow`, a list of globs (`*` matches `/` too: `@types/*`,
`pytest-*`, `golang.org/x/*`) whose matches pass; an index or another
source passes when a glob matches its URL.

Declarations are pooled per ecosystem over the manifests the change
writes, so a dependency moved between sections of a manifest
(`devDependencies` to `dependencies`), or between manifests of one
ecosystem the change writes (a requirements file folded into
pyproject.toml, a package's dependency moved to its workspace root, a
manifest renamed), is not new.  A name declared in a manifest the change
does not write is not seen: a new package's manifest declaring what a
sibling package already uses is judged as new.  Extras and environment
markers are not compared (a new extra of an existing package passes).

A touched manifest that cannot be read fails, naming the file and why
(the base or the head version is not valid JSON or TOML, a requirement
is not PEP 508, a go.mod line is not a directive), as does one whose
text the source cannot give (a writer's `result.json`) or over 1 MiB;
JSON is read strictly (a duplicate key or a comment is not read as npm
would: it fails), a byte-order mark and CRLF line ends are read as the
tools read them.  In a rubric example given only by counts, the rule
does not look (give `before`/`after`).

```yaml
- id: DEPS
  kind: new_dependencies
  level: warn
  allow: ["@types/*"]
```
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gate.base import globs
from gate.manifests import INCLUDE, INDEX, Dependency, Unreadable, allowed, declared, reader_for
from gate.manifests.compare import ADDED, NEW_SOURCE, New, news
from gate.model.change import UNKNOWN, ChangeSet
from gate.model.report import Finding, RuleResult
from gate.model.rubric import Rule
from gate.rules._common import param_list, param_str, plural, quote, result
from gate.rules._opening import type_change
from gate.rules.kind import PATHS, TEXTS, Problem

KIND = "new_dependencies"
MANIFESTS = (
    "package.json",
    "pnpm-workspace.yaml",
    "composer.json",
    "pyproject.toml",
    "setup.cfg",
    "Pipfile",
    "*requirements*.txt",
    "*requirements*.in",
    "**/requirements/*.txt",
    "**/requirements/*.in",
    "go.mod",
    "Cargo.toml",
    "Gemfile",
    "*.gemspec",
)
PARAMETERS = {
    "manifests": {
        "description": (
            "Globs of the dependency manifests to read (in any letter case; without a "
            "`/` at any depth); each must be a file name a reader knows "
            "(`package.json`, `pyproject.toml`, a `.txt` or `.in` requirements file, ...)."
        ),
        "$ref": "#/$defs/globs",
        "default": list(MANIFESTS),
    },
    "allow": {
        "description": (
            "Globs of dependency names (or index URLs) that may be added, compared "
            "the way each ecosystem normalizes names (`@types/*`, `pytest-*`)."
        ),
        "type": "array",
        "items": {"type": "string", "minLength": 1},
        "default": [],
    },
    "bumps": {
        "description": "`pass` (the default): a new version of an existing dependency "
        "passes; `fail`: it fails too.",
        "enum": ["pass", "fail"],
        "default": "pass",
    },
}
READS = {PATHS, TEXTS}
TEXT_GLOBS = ("manifests",)
GLOBS = {"manifests": globs.FOLDED}  # `Requirements.txt` is read as one


def param_problem(params: Mapping[str, Any]) -> Problem | None:
    """A glob without wildcards in its last segment names a file some
    reader knows (a wildcard's matches are checked when read)."""
    for i, pattern in enumerate(params.get("manifests", ())):
        leaf = pattern.rstrip("/").rsplit("/", 1)[-1]
        if not any(c in leaf for c in "*?[") and reader_for(leaf) is None:
            return ("manifests", i), (
                f'item {i + 1} of "manifests" ({pattern!r}) names a file no reader knows; '
                "name package.json, composer.json, pyproject.toml, setup.cfg, Pipfile, "
                "go.mod, Cargo.toml, Gemfile, a .gemspec or a .txt/.in requirements file"
            )
    return None


def _read(
    changes: ChangeSet, path: str, problems: dict[str, str]
) -> tuple[list[Dependency], list[Dependency]] | None:
    """Both sides' declarations of one written manifest, or None after
    adding why they cannot be read to `problems`."""
    if reader_for(path) is None:
        problems[path] = f"{quote(path)} has a name no manifest reader knows"
        return None
    changed = type_change(changes, path)
    if changed is not None:
        problems[path] = f"{quote(path)} {changed[0]}"
        return None
    texts = changes.texts.get(path)
    if texts is None:
        why = changes.withheld.get(path)
        if why is None:
            why = f"its content is unavailable from this source ({changes.source})"
        problems[path] = f"{quote(path)} is touched but {why}"
        return None
    sides: list[list[Dependency]] = []
    for side, text in (("base", texts.base), ("head", texts.head)):
        try:
            sides.append(declared(path, text) if text is not None else [])
        except Unreadable as exc:
            problems[path] = f"{quote(path)} cannot be read: the {side} version {exc}"
            return None
    return sides[0], sides[1]


def _phrase(new: New) -> str:
    d = new.dependency
    where = f"{quote(d.manifest)} {d.section}"
    if d.role == INDEX:
        return f"index {quote(d.name)} added to {where}"
    if d.role == INCLUDE:
        return f"include {quote(d.name)} added to {where}"
    if new.why == ADDED:
        what = f"from {quote(d.source)}" if d.source else quote(d.spec) if d.spec else "any version"
        return f"{quote(d.name)} ({what}) added to {where}"
    if new.why == NEW_SOURCE:
        was = ", ".join(quote(s) for s in new.was) if new.was else "the default registry"
        return f"{quote(d.name)} in {where} now from {quote(d.source)} (was {was})"
    was = ", ".join(quote(s) for s in new.was) or "no version"
    return f"{quote(d.name)} in {where} bumped to {quote(d.spec) or 'any version'} (was {was})"


def _line(text: str | None, name: str) -> int | None:
    """The first head line that names `name` as a whole name (not inside
    another: `browse` is not in `@browserbasehq/evals`), for the
    annotation; else the first that holds it at all."""
    whole = re.compile(rf"(?<![\w@./-]){re.escape(name)}(?![\w./-])")
    found = (text or "").splitlines()
    for number, line in enumerate(found, start=1):
        if whole.search(line):
            return number
    for number, line in enumerate(found, start=1):
        if name in line:
            return number
    return None


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    is_manifest = globs.matcher(param_list(rule, "manifests"), GLOBS["manifests"])
    patterns = param_list(rule, "allow")
    base: list[Dependency] = []
    head: list[Dependency] = []
    problems: dict[str, str] = {}
    read: list[str] = []
    skipped: list[str] = []
    for path in sorted({p for f in changes.files for p in f.written if is_manifest(p)}):
        if changes.source == "example" and path not in changes.texts:
            skipped.append(path)  # an example given by counts says nothing of content
            continue
        if any(f.status == UNKNOWN and path in f.written for f in changes.files):
            problems[path] = (
                f"{quote(path)} is touched but the source ({changes.source}) does not say how; "
                "judge it with `gate check` on a git repository"
            )
            continue
        found = _read(changes, path, problems)
        if found is not None:
            base += found[0]
            head += found[1]
            read.append(path)
    bumps = param_str(rule, "bumps") == "fail"
    found_news = [n for n in news(base, head, bumps=bumps) if not allowed(n.dependency, patterns)]
    paths = sorted({n.dependency.manifest for n in found_news})
    if not found_news and not problems:
        if not read:
            note = f"; the example gives no text for {skipped[0]!r}" if skipped else ""
            return result(rule, True, f"no dependency manifest touched{note}")
        return result(
            rule, True, f"no new dependency or source in {plural(len(read), 'manifest')} read"
        )
    parts = []
    if found_news:
        shown = [_phrase(n) for n in found_news]
        listed = "; ".join(shown[:8]) + (f"; and {len(shown) - 8} more" if len(shown) > 8 else "")
        count = plural(len(found_news), "new dependency", "new dependencies")
        parts.append(f"{count}: {listed}")
    parts += [problems[p] for p in sorted(problems)]
    findings = []
    for n in found_news:
        texts = changes.texts.get(n.dependency.manifest)
        line = _line(texts.head if texts else None, n.dependency.name.split(" (package ")[0])
        findings.append(Finding(path=n.dependency.manifest, message=_phrase(n), line=line))
    return result(rule, False, "; ".join(parts), paths=[*paths, *problems], findings=findings)
