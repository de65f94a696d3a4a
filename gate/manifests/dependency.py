"""One declaration of a dependency manifest (`Dependency`), how each
ecosystem compares names (`normalize`), and the allow-list's test
(`allowed`).  Every reader of `gate.manifests` builds these values."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass


def py_name(name: str) -> str:
    """A Python distribution's name as PEP 503 normalizes it: lower case,
    each run of `-`, `_` and `.` one `-` (`PyTest`, `pytest_asyncio`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


# What an entry declares: a package, a place packages are fetched from (an
# index, a registry, a repository list), or another file read as part of
# this one (pip's `-r`).
PACKAGE = "package"
INDEX = "index"
INCLUDE = "include"


@dataclass(frozen=True, order=True)
class Dependency:
    """One declaration of a manifest.

    `ecosystem` ("npm", "python", "go", "cargo", "php", "ruby") scopes the
    comparison; `key` is the name as the ecosystem compares names
    (`normalize`), `name` as written; `section` where the manifest declares
    it (`devDependencies`, `project.optional-dependencies.test`, `require`,
    `target.'cfg(unix)'.dependencies`); `spec` the version asked for as
    written without spaces ("" when none); `source` where it comes from
    when that is not the ecosystem's default registry ("" for the registry:
    a git URL, a path, a tarball, an alias, another registry or index);
    `role` is `PACKAGE`, `INDEX` or `INCLUDE`; `indirect` marks go.mod's
    `// indirect` requirements."""

    ecosystem: str
    key: str
    role: str
    source: str
    section: str
    name: str
    spec: str
    manifest: str
    indirect: bool = False


def normalize(ecosystem: str, name: str) -> str:
    """`name` as `ecosystem` compares names: Python's PEP 503 (lower case,
    each run of `-`, `_`, `.` one `-`), Cargo's and Composer's lower case
    with `_` as `-` (crates.io treats them alike; Packagist's names are
    lower case), RubyGems' in lower case; npm's names and Go's module
    paths as written (both are case-sensitive), a Go path without its
    major version suffix (`/v2`, gopkg.in's `.v3`: the go command's new
    major version of the same module, a bump)."""
    if ecosystem == "python":
        return py_name(name)
    if ecosystem in ("cargo", "php"):
        return name.lower().replace("_", "-")
    if ecosystem == "ruby":
        return name.lower()
    if ecosystem == "go":  # a major version's path suffix: the same module, bumped
        return re.sub(r"\.v[0-9]+$" if name.startswith("gopkg.in/") else r"/v[0-9]+$", "", name)
    return name


def allowed(dependency: Dependency, patterns: list[str]) -> bool:
    """Whether `dependency` matches an allow-list glob (`fnmatch`: `*`
    matches `/` too, so `@types/*` takes a scope), the glob normalized as
    the ecosystem normalizes names (`Pytest_*` is `pytest-*`)."""
    for pattern in patterns:
        if fnmatch.fnmatchcase(dependency.key, normalize(dependency.ecosystem, pattern)):
            return True
        if dependency.role != PACKAGE and fnmatch.fnmatchcase(dependency.name, pattern):
            return True
    return False


def entry(
    ecosystem: str,
    manifest: str,
    section: str,
    name: str,
    *,
    spec: str = "",
    source: str = "",
    role: str = PACKAGE,
    indirect: bool = False,
) -> Dependency:
    """A `Dependency` with its key normalized (`normalize`; an index's key
    is its URL without a trailing `/`), the spec without whitespace."""
    key = name.rstrip("/") if role != PACKAGE else normalize(ecosystem, name)
    return Dependency(
        ecosystem=ecosystem,
        key=key,
        role=role,
        source=source,
        section=section,
        name=name,
        spec="".join(spec.split()),
        manifest=manifest,
        indirect=indirect,
    )
