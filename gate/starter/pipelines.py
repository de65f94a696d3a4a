"""Azure Pipelines files under names of their own, found by what they hold:
`gate init` protects them under `CI` (the family table in
`gate.starter.families` names only `*azure-pipelines*.yml` and the
`.azure-pipelines/`-style folders, but templates live in
`eng/pipelines/templates/jobs/*.yml`, `.pipelines/`, `build/pipelines/`).

A YAML file is a pipeline or a template
(https://learn.microsoft.com/en-us/azure/devops/pipelines/yaml-schema/)
when its first `HEAD_BYTES` show, at the top level:

* `extends:` with a `template:` under it (a pipeline extending a template),
  or
* one of `stages:`, `jobs:` or `steps:`, and an entry only Azure Pipelines
  writes: a list item opening with `stage:`, `job:`, `deployment:`,
  `task:`, `template:`, `script:`, `bash:`, `pwsh:`, `powershell:`,
  `checkout:`, `download:` or `publish:` (`_ENTRY`);

and no top-level key of another format's own (`_FOREIGN`: a GitHub
workflow's `on:`, GitLab CI's `include:`, `image:` or `default:`, a
Kubernetes manifest's `apiVersion:`/`kind:`, docker-compose's `services:`
or `version:`): other keys (`name:`, `parameters:`, `variables:`, a key of
the repository's own) do not matter.  A file under a test or fixture
folder (`_TEST_FOLDERS`) is a fixture, not a pipeline; a file `CI`
protects already is not read.  A template of `variables:` only is not
told from any other YAML and is not found.

Written as a folder (`eng/pipelines/`) when at least `GROUP` of its YAML
files are pipelines, they are most of its YAML files and YAML is most of
its files (the highest such folder, never the root): a template added
there later is protected too.  Otherwise as exact paths (a file at the
root anchored).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from gate.base import globs
from gate.base.text import decode
from gate.git.repo import Repo
from gate.starter.families import rule_paths
from gate.starter.unreviewed import GROUP, HEAD_BYTES, UNSPELLABLE

YAML_SUFFIXES = (".yml", ".yaml")
_TOP_KEY = re.compile(r"""^["']?([A-Za-z_$][\w$-]*)["']?[ \t]*:""", re.MULTILINE)
_ENTRY = re.compile(
    r"^[ \t]*-[ \t]+[\"']?(?:stage|job|deployment|task|template|script|bash|pwsh|powershell"
    r"|checkout|download|publish)[\"']?[ \t]*:",
    re.MULTILINE,
)
_EXTENDS = re.compile(
    r"^[\"']?extends[\"']?[ \t]*:[ \t]*\n(?:[ \t]*#.*\n|[ \t]*\n)*"
    r"[ \t]+[\"']?template[\"']?[ \t]*:",
    re.MULTILINE,
)
_LISTS = frozenset(("stages", "jobs", "steps"))
_FOREIGN = frozenset(
    (
        "on",  # GitHub Actions
        "runs-on",
        "include",  # GitLab CI
        "image",
        "default",
        "workflow",
        "before_script",
        "after_script",
        "apiVersion",  # Kubernetes and its kin (Tekton, Argo)
        "kind",
        "services",  # docker-compose
        "version",
        "volumes",
        "networks",
    )
)
_TEST_FOLDERS = frozenset(
    ("test", "tests", "testdata", "test-data", "__tests__", "fixtures", "__fixtures__", "spec")
)
_WORTH_READING = re.compile(rb"^[\"']?(?:stages|jobs|steps|extends)[\"']?[ \t]*:", re.MULTILINE)


def is_pipeline(text: str) -> bool:
    """Whether `text` (the start of a YAML file) is an Azure Pipelines
    pipeline or template."""
    keys = set(_TOP_KEY.findall(text))
    if keys & _FOREIGN:
        return False
    if "extends" in keys and _EXTENDS.search(text):
        return True
    return bool(keys & _LISTS) and _ENTRY.search(text) is not None


def _folder(paths: set[str], tree: Sequence[str]) -> dict[str, str]:
    """{pipeline path: the folder glob that covers it} for the folders that
    qualify (see the module's docstring), highest first."""
    yaml_in: Counter[str] = Counter()
    files_in: Counter[str] = Counter()
    found_in: Counter[str] = Counter()
    for path in tree:
        parts = path.split("/")[:-1]
        for n in range(1, len(parts) + 1):
            folder = "/".join(parts[:n])
            files_in[folder] += 1
            yaml_in[folder] += path.endswith(YAML_SUFFIXES)
            found_in[folder] += path in paths
    out: dict[str, str] = {}
    for path in sorted(paths):
        parts = path.split("/")[:-1]
        for n in range(1, len(parts) + 1):
            folder = "/".join(parts[:n])
            hits, yaml = found_in[folder], yaml_in[folder]
            if hits >= GROUP and 2 * hits > yaml and 2 * yaml > files_in[folder]:
                if not UNSPELLABLE.search(folder):
                    out[path] = folder + "/"
                break
    return out


def find(repo: Repo, rev: str, tree: Sequence[str]) -> tuple[str, ...]:
    """The `CI` globs for the Azure Pipelines files of `tree` (the paths at
    `rev`) that `CI` does not protect already: folders, then exact paths."""
    protected = globs.matcher(rule_paths("CI", tree), globs.FOLDED)
    wanted = [
        p
        for p in tree
        if p.endswith(YAML_SUFFIXES)
        and not protected(p)
        and not _TEST_FOLDERS.intersection(p.lower().split("/")[:-1])
    ]
    heads = repo.read_heads(rev, wanted, HEAD_BYTES)
    found: set[str] = set()
    for path in wanted:
        data = heads.get(path)
        if data is None or b"\0" in data or _WORTH_READING.search(data) is None:
            continue
        if is_pipeline(decode(data)):
            found.add(path)
    folders = _folder(found, tree)
    exact = [
        p if "/" in p else "/" + p
        for p in sorted(found)
        if p not in folders and not UNSPELLABLE.search(p)
    ]
    return (*sorted(set(folders.values())), *exact)
