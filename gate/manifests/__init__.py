"""What a dependency manifest declares, read the way its ecosystem reads it.

One module an ecosystem reads its manifests' texts into `Dependency`
values: `npm.py` (package.json, pnpm-workspace.yaml's catalogs),
`python.py` (pyproject.toml, setup.cfg, Pipfile), `requirements.py`
(pip's requirements files), `go.py` (go.mod), `cargo.py` (Cargo.toml),
`php.py` (composer.json), `ruby.py` (Gemfile, `*.gemspec`).  `declared(path, text)`
picks the reader by the file's name (`reader_for`) and raises
`Unreadable` (`gate.base.structured`) when the text cannot be read;
`gate.manifests.compare` says which of a change's dependencies are new.
Pure: text in, values out.
"""

from __future__ import annotations

from collections.abc import Callable

from gate.base.structured import Unreadable
from gate.manifests import cargo, go, npm, php, python, requirements, ruby
from gate.manifests.dependency import INCLUDE, INDEX, PACKAGE, Dependency, allowed, normalize

__all__ = [
    "INCLUDE",
    "INDEX",
    "PACKAGE",
    "Dependency",
    "Unreadable",
    "allowed",
    "declared",
    "normalize",
    "reader_for",
]

Reader = Callable[[str, str], list[Dependency]]


def reader_for(path: str) -> tuple[str, Reader] | None:
    """(ecosystem, reader) for a manifest by its file name, None for a
    name no reader knows: `package.json`, `pnpm-workspace.yaml`, `composer.json`,
    `pyproject.toml`, `setup.cfg`, `Pipfile`, `go.mod`, `Cargo.toml`,
    `Gemfile`, any `.gemspec` file as a gem's specification, and any
    `.txt` or `.in` file as a pip requirements file;
    letter case folded (a case-insensitive checkout reads `Package.json`
    as `package.json`)."""
    name = path.rsplit("/", 1)[-1].lower()
    table: dict[str, tuple[str, Reader]] = {
        "package.json": ("npm", npm.package_json),
        "pnpm-workspace.yaml": ("npm", npm.pnpm_workspace),
        "composer.json": ("php", php.composer_json),
        "pyproject.toml": ("python", python.pyproject),
        "setup.cfg": ("python", python.setup_cfg),
        "pipfile": ("python", python.pipfile),
        "go.mod": ("go", go.go_mod),
        "cargo.toml": ("cargo", cargo.cargo_toml),
        "gemfile": ("ruby", ruby.gemfile),
    }
    if name in table:
        return table[name]
    if name.endswith(".gemspec"):
        return "ruby", ruby.gemspec
    if name.endswith((".txt", ".in")):
        return "python", requirements.requirements
    return None


def declared(path: str, text: str) -> list[Dependency]:
    """What the manifest at `path` declares, in file order; a leading
    byte-order mark is dropped (npm, pip and Cargo read past one).  Raises
    `Unreadable` when the text cannot be read, and `LookupError` for a name
    no reader knows (`reader_for`)."""
    found = reader_for(path)
    if found is None:
        raise LookupError(path)
    return found[1](path, text.removeprefix("\ufeff"))
