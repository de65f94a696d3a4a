"""The file families the starter protects: CI systems, release and deploy
tooling, package registry configuration (the `CI` rule), and what
instructs or configures coding agents and PR bots (the `AGENTS` rule),
each with the page that names its files.

One table, `FAMILIES` (read from `families.json`): the starter rubric's
`CI` and `AGENTS` lists, the table in docs/rubric.md (`markdown_table`) and
the comment `gate init` writes about the files it found (`found`) all come
from it.

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

from gate.base import globs
from gate.base.jsontext import package_data


class Family(NamedTuple):
    """Files one tool reads: the rule that forbids them, a name for people,
    the globs, the page that names the files, and whether every starter
    lists them (`always`) or only one whose tree has such a file."""

    rule: str
    name: str
    paths: tuple[str, ...]
    source: str
    always: bool = True


# The families themselves, in groups (CI systems, release tooling, deploy,
# package registries, agents, review bots, dependency bots):
# `families.json` beside this module (its schema: `families.schema.json`).
FAMILIES: tuple[Family, ...] = tuple(
    Family(f["rule"], f["name"], tuple(f["paths"]), f["source"], f.get("always", True))
    for group in package_data("starter/families.json")["groups"]
    for f in group["families"]
)


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
    from gate.starter.unreviewed import UNSPELLABLE

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


# The manifests that make a folder a plugin package another tool installs:
# Copilot CLI's and Agent Plugins' `plugin.json` at the plugin's root
# (https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/plugins-creating),
# Claude Code's `.claude-plugin/plugin.json`
# (https://code.claude.com/docs/en/plugins/manifest-reference), Codex's
# `.codex-plugin/plugin.json`.
PLUGIN_MANIFESTS = ("plugin.json", ".claude-plugin/plugin.json", ".codex-plugin/plugin.json")
# What such a package ships for the tool that installs it, read nowhere else:
# the plugin's MCP servers (`.mcp.json` at the plugin root).  A nested
# CLAUDE.md or AGENTS.md stays protected: an agent working in the folder
# reads it.
PLUGIN_SHIPPED = (".mcp.json",)


def plugin_shipped(rule: str, tree: Iterable[str]) -> tuple[str, ...]:
    """The files of `tree` that `rule` protects only because a plugin
    package ships them (`PLUGIN_SHIPPED` at the root of a folder, never the
    repository's root, holding one of `PLUGIN_MANIFESTS`): a plugin's own
    `.mcp.json` configures the agents of whoever installs the plugin, not
    the agents working in this repository, which read `.mcp.json` at the
    root they run in.  Exact paths, as excludes."""
    from gate.starter.unreviewed import UNSPELLABLE

    listed = set(tree)
    protected = globs.matcher(rule_paths(rule, sorted(listed)), globs.FOLDED)
    out = []
    for path in sorted(listed):
        folder, _, name = path.rpartition("/")
        if not folder or name not in PLUGIN_SHIPPED or UNSPELLABLE.search(path):
            continue
        if protected(path) and any(f"{folder}/{m}" in listed for m in PLUGIN_MANIFESTS):
            out.append(path)
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
