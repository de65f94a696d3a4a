"""A test runner, assertion library, plugin or coverage tool whose LOCKED
copy a change moves (a version, a new tool, another source or artifact)
in a lock file of a common package manager changes how the existing tests
run, as the same bump in a manifest does (`gate.drift.pins`):
`test_drift` fails, naming the file, the tool and both versions.  A lock
file rewritten without moving a test tool (other packages bumped, a
`resolved` URL dropped, re-hoisting, reordering, formatting) passes; one
the gate cannot read fails closed.  Each format is built by a generator
from (name, version, ...) rows, so the same table runs through every
format's shapes."""

from __future__ import annotations

import json
import time
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base.structured import Unreadable
from gate.drift.locks import READERS, lock_changes
from gate.model.change import LOCK_NAMES
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift")
SHA = "sha512-" + "A" * 86 + "=="


# -- generators: each takes rows (name, version) or richer rows ------------


def _digest(*parts: str) -> str:
    return f"{zlib.crc32('/'.join(parts).encode()):08x}"


def uv_lock(rows: list[tuple[str, str]], source: str = "", extra: str = "") -> str:
    out = ["version = 1", 'requires-python = ">=3.10"', ""]
    for name, version in rows:
        src = source or '{ registry = "https://pypi.org/simple" }'
        stem = name.replace("-", "_")
        out += [
            "[[package]]",
            f'name = "{name}"',
            f'version = "{version}"',
            f"source = {src}",
            f'sdist = {{ url = "https://files.pythonhosted.org/{stem}-{version}.tar.gz", '
            f'hash = "sha256:{_digest(name, version, "s")}" }}',
            f'wheels = [{{ url = "https://files.pythonhosted.org/{stem}-{version}-py3-none-any'
            f'.whl", hash = "sha256:{_digest(name, version, "w")}" }}]{extra}',
            "",
        ]
    return "\n".join(out)


def poetry_lock(rows: list[tuple[str, str]]) -> str:
    out = []
    for name, version in rows:
        out += [
            "[[package]]",
            f'name = "{name}"',
            f'version = "{version}"',
            'optional = false\npython-versions = ">=3.8"',
            f'files = [{{file = "{name}-{version}.tar.gz", hash = "sha256:{len(name)}{version}"}}]',
            "",
        ]
    return "\n".join([*out, '[metadata]\nlock-version = "2.0"\n'])


def pdm_lock(rows: list[tuple[str, str]]) -> str:
    out = ['[metadata]\ngroups = ["default", "test"]\n']
    for name, version in rows:
        out += ["[[package]]", f'name = "{name}"', f'version = "{version}"', ""]
    return "\n".join(out)


def pipfile_lock(default: list[tuple[str, str]], develop: list[tuple[str, str]]) -> str:
    def group(rows: list[tuple[str, str]]) -> dict[str, object]:
        return {
            n: {"hashes": [f"sha256:{len(n)}{v}"], "index": "pypi", "version": f"=={v}"}
            for n, v in rows
        }

    meta = {"sources": [{"name": "pypi", "url": "https://pypi.org/simple", "verify_ssl": True}]}
    data = {"_meta": meta, "default": group(default), "develop": group(develop)}
    return json.dumps(data, indent=4) + "\n"


def npm_entry(name: str, version: str, **more: object) -> dict[str, object]:
    leaf = name.rsplit("/", 1)[-1]
    return {
        "version": version,
        "resolved": f"https://registry.npmjs.org/{name}/-/{leaf}-{version}.tgz",
        "integrity": f"sha512-{name}{version}==",
        "dev": True,
        **more,
    }


def npm_lock(rows: list[tuple[str, str, str]], version: int = 3, indent: int = 2) -> str:
    """rows: (install path below the root, name, version); version 1 nests
    `dependencies`, 2 writes both, 3 `packages` only."""
    data: dict[str, object] = {"name": "app", "version": "1.0.0", "lockfileVersion": version}
    if version >= 2:
        packages: dict[str, object] = {"": {"name": "app", "version": "1.0.0"}}
        for where, name, ver in rows:
            packages[where] = npm_entry(name, ver)
        data["packages"] = packages
    if version <= 2:
        deps: dict[str, object] = {}
        for where, name, ver in rows:
            parents = [p for p in where.split("node_modules/") if p][:-1]
            node = deps
            for parent in parents:
                parent = parent.rstrip("/")
                entry = node.setdefault(parent, npm_entry(parent, "1.0.0"))
                assert isinstance(entry, dict)
                node = entry.setdefault("dependencies", {})
            node[name] = npm_entry(name, ver)
        data["dependencies"] = deps
    return json.dumps(data, indent=indent) + "\n"


def pnpm_lock(rows: list[tuple[str, str]], style: str = "9", peers: str = "") -> str:
    """style "9": `name@version`; "6": `/name@version(peers)`; "5":
    `/name/version_peers`."""
    out = [f"lockfileVersion: '{style}.0'", "", "packages:", ""]
    for name, version in rows:
        if style == "9":
            key = f"{name}@{version}"
        elif style == "6":
            key = f"/{name}@{version}{f'({peers})' if peers else ''}"
        else:
            key = f"/{name}/{version}{f'_{peers}' if peers else ''}"
        out += [f"  '{key}':", f"    resolution: {{integrity: sha512-{len(name)}x{version}}}"]
        out += ["    dev: true", ""]
    return "\n".join(out)


def yarn_classic(rows: list[tuple[str, str, str]]) -> str:
    """rows: (descriptors, name, version)."""
    out = ["# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.", "# yarn lockfile v1"]
    for descriptors, name, version in rows:
        leaf = name.rsplit("/", 1)[-1]
        out += [
            "",
            f"{descriptors}:",
            f'  version "{version}"',
            f'  resolved "https://registry.yarnpkg.com/{name}/-/{leaf}-{version}.tgz#abc{version}"',
            f"  integrity sha512-{len(name)}y{version}==",
            "  dependencies:",
            '    chalk "^4.0.0"',
        ]
    return "\n".join(out) + "\n"


def yarn_berry(rows: list[tuple[str, str, str]]) -> str:
    """rows: (descriptors, resolution, version)."""
    out = ['# This file is generated by running "yarn install".', "", "__metadata:"]
    out += ["  version: 8", "  cacheKey: 10", ""]
    for descriptors, resolution, version in rows:
        out += [
            f'"{descriptors}":',
            f"  version: {version}",
            f'  resolution: "{resolution}"',
            f"  checksum: 10/{len(resolution)}{version}",
            "  languageName: node",
            "  linkType: hard",
            "",
        ]
    return "\n".join(out)


def bun_lock(rows: list[tuple[str, str, str]]) -> str:
    """rows: (key, spec, registry); JSONC with trailing commas."""
    out = ["{", '  "lockfileVersion": 1,', '  "workspaces": { "": { "name": "app", }, },']
    out.append('  "packages": {')
    for key, spec, registry in rows:
        out.append(f'    "{key}": ["{spec}", "{registry}", {{}}, "sha512-{len(spec)}b=="],')
    out += ["  },", "}", ""]
    return "\n".join(out)


def cargo_lock(rows: list[tuple[str, str]], source: str = "") -> str:
    out = ["# This file is automatically @generated by Cargo.", "version = 4", ""]
    for name, version in rows:
        src = source or "registry+https://github.com/rust-lang/crates.io-index"
        out += [
            "[[package]]",
            f'name = "{name}"',
            f'version = "{version}"',
            f'source = "{src}"',
            f'checksum = "{len(name):02x}{version.replace(".", "")}"',
            "",
        ]
    return "\n".join(out)


PY_BASE = [("httpx", "0.27.0"), ("pytest-asyncio", "1.3.0"), ("syrupy", "5.1.0")]
PY_HEAD = [("httpx", "0.27.0"), ("pytest-asyncio", "1.4.0"), ("syrupy", "5.3.1")]
NPM = [
    ("node_modules/lodash", "lodash", "4.17.21"),
    ("node_modules/vitest", "vitest", "1.6.0"),
    ("node_modules/@vitest/runner", "@vitest/runner", "1.6.0"),
]


def _moved(rows: list[tuple[str, str, str]], name: str, version: str) -> list[tuple[str, str, str]]:
    return [(w, n, version if n == name else v) for w, n, v in rows]


# (path, base, head, phrases the message must hold)
DRIFT = [
    (
        "uv.lock",
        uv_lock(PY_BASE),
        uv_lock(PY_HEAD),
        ["pytest-asyncio: `1.3.0` -> `1.4.0`", "syrupy: `5.1.0` -> `5.3.1`"],
    ),
    (  # a lock in a sub-package, one plugin raised
        "examples/demo/uv.lock",
        uv_lock(PY_BASE),
        uv_lock([*PY_BASE[:2], ("syrupy", "5.3.1")]),
        ["syrupy: `5.1.0` -> `5.3.1`"],
    ),
    (
        "poetry.lock",
        poetry_lock([("pytest", "8.3.0"), ("six", "1")]),
        poetry_lock([("pytest", "8.4.0"), ("six", "1")]),
        ["pytest: `8.3.0` -> `8.4.0`"],
    ),
    (
        "pdm.lock",
        pdm_lock([("six", "1")]),
        pdm_lock([("six", "1"), ("coverage", "7.6.0")]),
        ["coverage added (`7.6.0`)"],
    ),
    (
        "Pipfile.lock",
        pipfile_lock([("six", "1")], [("pytest", "8.0.0")]),
        pipfile_lock([("six", "1")], [("pytest", "8.1.0")]),
        ["pytest: `8.0.0` -> `8.1.0`"],
    ),
    (
        "package-lock.json",
        npm_lock(NPM),
        npm_lock(_moved(NPM, "vitest", "2.0.0")),
        ["vitest: `1.6.0` -> `2.0.0`"],
    ),
    (
        "package-lock.json",
        npm_lock(NPM),
        npm_lock(_moved(NPM, "@vitest/runner", "1.6.1")),
        ["@vitest/runner: `1.6.0` -> `1.6.1`"],
    ),
    (  # a bump hidden in a nested node_modules entry
        "package-lock.json",
        npm_lock([*NPM, ("node_modules/lodash/node_modules/jest-util", "jest-util", "29.0.0")]),
        npm_lock([*NPM, ("node_modules/lodash/node_modules/jest-util", "jest-util", "29.7.0")]),
        ["jest-util: `29.0.0` -> `29.7.0`"],
    ),
    (  # a workspace member's own copy
        "package-lock.json",
        npm_lock(NPM),
        npm_lock([*NPM, ("packages/web/node_modules/vitest", "vitest", "2.1.0")]),
        ["vitest: `1.6.0` -> `1.6.0, 2.1.0`"],
    ),
    (
        "package-lock.json",
        npm_lock(NPM, version=1),
        npm_lock(_moved(NPM, "vitest", "2.0.0"), version=1),
        ["vitest: `1.6.0` -> `2.0.0`"],
    ),
    (  # version 1 nests a transitive copy in its parent's dependencies
        "npm-shrinkwrap.json",
        npm_lock([*NPM, ("node_modules/lodash/node_modules/chai", "chai", "4.0.0")], version=1),
        npm_lock([*NPM, ("node_modules/lodash/node_modules/chai", "chai", "5.0.0")], version=1),
        ["chai: `4.0.0` -> `5.0.0`"],
    ),
    (
        "package-lock.json",
        npm_lock(NPM),
        npm_lock(NPM[:2]),
        ["@vitest/runner removed (was `1.6.0`)"],
    ),
    (
        "pnpm-lock.yaml",
        pnpm_lock([("vitest", "1.6.0"), ("lodash", "4")]),
        pnpm_lock([("vitest", "2.0.0"), ("lodash", "4")]),
        ["vitest: `1.6.0` -> `2.0.0`"],
    ),
    (
        "pnpm-lock.yaml",
        pnpm_lock([("@vitest/runner", "1.6.0")], "6", "vite@5.0.0"),
        pnpm_lock([("@vitest/runner", "1.6.1")], "6", "vite@5.0.0"),
        ["@vitest/runner: `1.6.0` -> `1.6.1`"],
    ),
    (
        "pnpm-lock.yaml",
        pnpm_lock([("jest", "29.0.0")], "5", "ts-node@10.0.0"),
        pnpm_lock([("jest", "29.7.0")], "5", "ts-node@10.0.0"),
        ["jest: `29.0.0` -> `29.7.0`"],
    ),
    (
        "yarn.lock",
        yarn_classic([('"vitest@^1.0.0", vitest@^1.6.0', "vitest", "1.6.0")]),
        yarn_classic([('"vitest@^1.0.0", vitest@^1.6.0', "vitest", "1.6.1")]),
        ["vitest: `1.6.0` -> `1.6.1`"],
    ),
    (
        "yarn.lock",
        yarn_classic([('"@jest/core@^29.0.0"', "@jest/core", "29.0.0")]),
        yarn_classic([('"@jest/core@^29.0.0"', "@jest/core", "29.7.0")]),
        ["@jest/core: `29.0.0` -> `29.7.0`"],
    ),
    (
        "yarn.lock",
        yarn_berry([("vitest@npm:^1.0.0", "vitest@npm:1.6.0", "1.6.0")]),
        yarn_berry([("vitest@npm:^1.0.0", "vitest@npm:1.6.1", "1.6.1")]),
        ["vitest: `1.6.0` -> `1.6.1`"],
    ),
    (
        "bun.lock",
        bun_lock([("vitest", "vitest@1.6.0", ""), ("lodash", "lodash@4.17.21", "")]),
        bun_lock([("vitest", "vitest@2.0.0", ""), ("lodash", "lodash@4.17.21", "")]),
        ["vitest: `1.6.0` -> `2.0.0`"],
    ),
    (
        "bun.lock",
        bun_lock([("vitest", "vitest@1.6.0", ""), ("foo/@vitest/spy", "@vitest/spy@1.0.0", "")]),
        bun_lock([("vitest", "vitest@1.6.0", ""), ("foo/@vitest/spy", "@vitest/spy@1.1.0", "")]),
        ["@vitest/spy: `1.0.0` -> `1.1.0`"],
    ),
    (
        "Cargo.lock",
        cargo_lock([("insta", "1.39.0"), ("serde", "1.0.0")]),
        cargo_lock([("insta", "1.40.0"), ("serde", "1.0.0")]),
        ["insta: `1.39.0` -> `1.40.0`"],
    ),
]


# the same version, another artifact or source: each a different copy
SWAPS = [
    (
        "uv.lock",
        uv_lock(PY_BASE),
        uv_lock(PY_BASE, '{ git = "https://github.com/x/syrupy?rev=abc#abc" }'),
        "syrupy: `5.1.0` -> `5.1.0 from",
    ),
    (
        "uv.lock",
        uv_lock(PY_BASE),
        uv_lock(PY_BASE).replace(_digest("syrupy", "5.1.0", "w"), "0bad0bad"),
        "another artifact",
    ),
    (
        "package-lock.json",
        npm_lock(NPM),
        npm_lock(NPM).replace("registry.npmjs.org/vitest/", "npm.example.com/vitest/"),
        "vitest: `1.6.0` -> `1.6.0 from https://npm.example.com",
    ),
    (
        "package-lock.json",
        npm_lock(NPM),
        npm_lock(NPM).replace('"sha512-vitest1.6.0=="', '"sha512-other=="'),
        "vitest 1.6.0: another artifact",
    ),
    (  # an alias: the install path says vitest, the package is another
        "package-lock.json",
        npm_lock(NPM),
        npm_lock(NPM).replace(
            '"version": "1.6.0",\n      "resolved": "https://registry.npmjs.org/vitest/-/vitest-1.6.0.tgz"',
            '"name": "evil",\n      "version": "1.6.0",\n      "resolved": "https://registry.npmjs.org/evil/-/evil-1.6.0.tgz"',
        ),
        "npm:evil",
    ),
    (
        "pnpm-lock.yaml",
        pnpm_lock([("vitest", "1.6.0")]),
        pnpm_lock([("vitest", "1.6.0")]).replace(
            "{integrity: sha512-6x1.6.0}", "{tarball: https://evil.example/vitest.tgz}"
        ),
        "from https://evil.example/vitest.tgz",
    ),
    (
        "yarn.lock",
        yarn_classic([("vitest@^1.0.0", "vitest", "1.6.0")]),
        yarn_classic([("vitest@^1.0.0", "vitest", "1.6.0")]).replace(
            "registry.yarnpkg.com", "npm.evil.example"
        ),
        "from https://npm.evil.example",
    ),
    (
        "yarn.lock",
        yarn_berry([("vitest@npm:^1.0.0", "vitest@npm:1.6.0", "1.6.0")]),
        yarn_berry(
            [
                (
                    "vitest@npm:^1.0.0",
                    "vitest@patch:vitest@npm%3A1.6.0#~/.yarn/patches/v.patch",
                    "1.6.0",
                )
            ]
        ),
        "from patch:",
    ),
    (
        "bun.lock",
        bun_lock([("vitest", "vitest@1.6.0", "")]),
        bun_lock([("vitest", "vitest@1.6.0", "https://npm.evil.example/")]),
        "from https://npm.evil.example/",
    ),
    (
        "Cargo.lock",
        cargo_lock([("insta", "1.39.0")]),
        cargo_lock([("insta", "1.39.0")], "git+https://github.com/x/insta#abc"),
        "from git+https://github.com/x/insta#abc",
    ),
    (
        "Pipfile.lock",
        pipfile_lock([], [("pytest", "8.0.0")]),
        pipfile_lock([], [("pytest", "8.0.0")]).replace("sha256:68.0.0", "sha256:evil"),
        "pytest 8.0.0: another artifact",
    ),
]


@pytest.mark.parametrize(
    ("path", "base", "head", "phrases"), DRIFT + [(p, b, h, [x]) for p, b, h, x in SWAPS]
)
def test_a_moved_locked_test_tool_is_runner_drift(
    path: str, base: str, head: str, phrases: list[str]
) -> None:
    moved = "; ".join(lock_changes(path, base, head))
    for phrase in phrases:
        assert phrase in moved, (path, moved)
    result = CASE.fails(
        Files(base={path: base}, head={path: head}),
        f"{path} changes the locked versions of test tools",
        reported=[path],
    )
    for phrase in phrases:
        assert phrase in result.message


def _pnpm_v9_with_link(version: str) -> str:
    return (
        "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    devDependencies:\n      vitest:\n"
        f"        specifier: ^1.6.0\n        version: {version}\n\npackages:\n\n"
        "  vitest@1.6.0:\n    resolution: {integrity: sha512-abc}\n"
    )


def test_a_test_tool_linked_to_a_folder_of_the_change_is_a_source() -> None:
    """An importer (pnpm) or an install path (npm) that links the tool to a
    folder: the copy that runs is the repository's own."""
    assert "from link:vendor/vitest" in "; ".join(
        lock_changes(
            "pnpm-lock.yaml", _pnpm_v9_with_link("1.6.0"), _pnpm_v9_with_link("link:vendor/vitest")
        )
    )
    aliased = "; ".join(
        lock_changes(
            "pnpm-lock.yaml", _pnpm_v9_with_link("1.6.0"), _pnpm_v9_with_link("evil@1.6.0")
        )
    )
    assert "from evil@1.6.0" in aliased
    head = json.loads(npm_lock(NPM))
    head["packages"]["node_modules/vitest"] = {"resolved": "vendor/vitest", "link": True}
    moved = "; ".join(lock_changes("package-lock.json", npm_lock(NPM), json.dumps(head)))
    assert "link:vendor/vitest" in moved


# Each the same lock file rewritten without moving a test tool.
QUIET = [
    ("uv.lock", uv_lock(PY_BASE), uv_lock([("httpx", "0.28.0"), *PY_BASE[1:]])),
    ("uv.lock", uv_lock(PY_BASE), uv_lock(list(reversed(PY_BASE)))),
    (  # a new wheel beside the others (same version, same index)
        "uv.lock",
        uv_lock(PY_BASE),
        uv_lock(PY_BASE)
        .replace('py3-none-any.whl", hash = "sha256:', 'py3-none-any.whl", hash = "sha256:')
        .replace(
            "}]\n",
            '}, { url = "https://files.pythonhosted.org/x-cp314.whl", hash = "sha256:99" }]\n',
        ),
    ),
    (
        "poetry.lock",
        poetry_lock([("pytest", "8.3.0"), ("six", "1")]),
        poetry_lock([("six", "2"), ("pytest", "8.3.0")]),
    ),
    ("package-lock.json", npm_lock(NPM), npm_lock(_moved(NPM, "lodash", "4.17.22"))),
    ("package-lock.json", npm_lock(NPM), npm_lock(list(reversed(NPM)), indent=4)),
    (  # `resolved` dropped, the same version and integrity
        "package-lock.json",
        npm_lock(NPM),
        npm_lock(NPM).replace(
            '"resolved": "https://registry.npmjs.org/vitest/-/vitest-1.6.0.tgz",', ""
        ),
    ),
    (  # re-hoisted: the nested copy moves to the top, the same version
        "package-lock.json",
        npm_lock(
            [
                ("node_modules/lodash", "lodash", "4"),
                ("node_modules/lodash/node_modules/vitest", "vitest", "1.6.0"),
            ]
        ),
        npm_lock(
            [("node_modules/lodash", "lodash", "4"), ("node_modules/vitest", "vitest", "1.6.0")]
        ),
    ),
    ("package-lock.json", npm_lock(NPM, version=2), npm_lock(NPM, version=3)),  # npm 9's upgrade
    (
        "pnpm-lock.yaml",
        pnpm_lock([("@vitest/runner", "1.6.0")], "6", "vite@5.0.0"),
        pnpm_lock([("@vitest/runner", "1.6.0")], "6", "vite@5.1.0"),
    ),
    (
        "pnpm-lock.yaml",
        pnpm_lock([("jest", "29.7.0")], "5", "ts-node@10.0.0"),
        pnpm_lock([("jest", "29.7.0")], "5", "ts-node@10.9.0"),
    ),
    (
        "yarn.lock",
        yarn_classic([("vitest@^1.0.0", "vitest", "1.6.0")]),
        yarn_classic([("vitest@^1.0.0, vitest@^1.5.0", "vitest", "1.6.0")]),
    ),
    (
        "yarn.lock",
        yarn_berry([("vitest@npm:^1.0.0", "vitest@npm:1.6.0", "1.6.0")]),
        yarn_berry([("vitest@npm:^1.0.0, vitest@npm:^1.6.0", "vitest@npm:1.6.0", "1.6.0")]),
    ),
    (
        "bun.lock",
        bun_lock([("vitest", "vitest@1.6.0", ""), ("lodash", "lodash@4.0.0", "")]),
        bun_lock([("vitest", "vitest@1.6.0", ""), ("lodash", "lodash@4.1.0", "")]),
    ),
    (
        "Cargo.lock",
        cargo_lock([("insta", "1.39.0"), ("serde", "1.0.0")]),
        cargo_lock([("insta", "1.39.0"), ("serde", "1.0.1")]),
    ),
    (
        "Cargo.lock",
        cargo_lock([("insta", "1.39.0")]),
        cargo_lock([("insta", "1.39.0")], "sparse+https://index.crates.io/"),
    ),
]


@pytest.mark.parametrize(("path", "base", "head"), QUIET)
def test_a_lock_file_rewritten_without_moving_a_test_tool_passes(
    path: str, base: str, head: str
) -> None:
    assert base != head
    assert lock_changes(path, base, head) == ()
    CASE.passes(
        Files(
            base={path: base, "src/app.py": "x = 1\n"}, head={path: head, "src/app.py": "x = 2\n"}
        )
    )


SPELLINGS = st.sampled_from(
    ["pytest-asyncio", "pytest_asyncio", "PyTest-AsyncIO", "pytest.asyncio", "Pytest__Asyncio"]
)
PY_LOCKS = st.sampled_from(["uv.lock", "poetry.lock", "pdm.lock"])


@given(PY_LOCKS, SPELLINGS, SPELLINGS, st.booleans())
@settings(max_examples=40)
def test_spellings_of_a_locked_python_tool_are_one_tool(
    path: str, before: str, after: str, bump: bool
) -> None:
    """PEP 503: a respelled name alone is no change; a bump under any
    spelling is, named by its normalized name."""
    make = {"uv.lock": uv_lock, "poetry.lock": poetry_lock, "pdm.lock": pdm_lock}[path]
    named = 'name = "pytest-asyncio"'
    base = make([("pytest-asyncio", "1.3.0")]).replace(named, f'name = "{before}"')
    head = make([("pytest-asyncio", "1.4.0" if bump else "1.3.0")]).replace(
        named, f'name = "{after}"'
    )
    moved = lock_changes(path, base, head)
    assert moved == (("pytest-asyncio: `1.3.0` -> `1.4.0`",) if bump else ())


@given(st.sampled_from(["uv.lock", "UV.lock", "Uv.Lock"]), st.sampled_from(["", "sub/", "a/b/"]))
@settings(max_examples=12, deadline=None)
def test_a_lock_file_at_any_depth_and_case_is_read(name: str, folder: str) -> None:
    path = folder + name
    assert lock_changes(path, uv_lock(PY_BASE), uv_lock(PY_HEAD))


def _big_uv(version: str) -> str:
    rows = [(f"lib{i}", "1.0.0") for i in range(60)] + [("pytest", version)]
    return uv_lock(rows)


def test_a_renamed_lock_file_is_compared_across_its_paths() -> None:
    """Moved alone it moves nothing; moved with a bump, the bump fails under
    the new path."""
    CASE.passes(Files(base={"uv.lock": _big_uv("8.3.0")}, head={"py/uv.lock": _big_uv("8.3.0")}))
    result = CASE.fails(
        Files(base={"uv.lock": _big_uv("8.3.0")}, head={"py/uv.lock": _big_uv("8.4.0")}),
        "py/uv.lock changes the locked versions of test tools",
        reported=["py/uv.lock"],
    )
    assert "pytest: `8.3.0` -> `8.4.0`" in result.message


def test_a_new_or_deleted_lock_file_adds_or_removes_its_tools() -> None:
    assert lock_changes("uv.lock", None, uv_lock(PY_BASE)) == (
        "pytest-asyncio added (`1.3.0`)",
        "syrupy added (`5.1.0`)",
    )
    CASE.fails(Files(base={"uv.lock": uv_lock(PY_BASE)}, head={}), "syrupy removed (was `5.1.0`)")


UNREADABLE = [
    ("uv.lock", "[[package]\nname = 1\n", "is not valid TOML"),
    ("uv.lock", 'package = "x"\n', "is not a lock file of its format"),
    ("Cargo.lock", "[[package]]\nname = 3\n", "is not a lock file of its format"),
    ("Pipfile.lock", '{"develop": [1]}', "is not a lock file of its format"),
    (
        "package-lock.json",
        '{"packages": {"node_modules/vitest": {"version": "1"},}}',
        "is not strict JSON",
    ),
    (
        "package-lock.json",
        '{"packages": {"node_modules/x": 3}}',
        "is not a lock file of its format",
    ),
    ("pnpm-lock.yaml", "packages:\n  vitest@1: [\n", "is not valid YAML"),
    ("yarn.lock", '# yarn lockfile v1\n\nvitest@^1:\n  version "1"\nstray line\n', "line 5"),
    ("bun.lock", '{"packages": {"vitest": 3}}', "is not a lock file of its format"),
]


@pytest.mark.parametrize(("path", "broken", "why"), UNREADABLE)
def test_a_lock_file_the_gate_cannot_read_fails_closed(path: str, broken: str, why: str) -> None:
    with pytest.raises(Unreadable, match=why):
        lock_changes(path, broken, broken + "\n")
    good = {
        "uv.lock": uv_lock(PY_BASE),
        "Cargo.lock": cargo_lock([("insta", "1")]),
        "Pipfile.lock": pipfile_lock([], []),
        "package-lock.json": npm_lock(NPM),
        "pnpm-lock.yaml": pnpm_lock([("vitest", "1")]),
        "yarn.lock": yarn_classic([("vitest@^1", "vitest", "1")]),
        "bun.lock": bun_lock([("vitest", "vitest@1", "")]),
    }[path]
    CASE.fails(
        Files(base={path: good}, head={path: broken}),
        f"{path} is touched but the gate cannot tell",
        reported=[path],
    )


def test_every_lock_name_has_a_reader() -> None:
    """The sources read these names up to their larger limit
    (`gate.model.change.LOCK_NAMES`); each has a reader here."""
    assert set(READERS) == set(LOCK_NAMES)


def test_a_30k_line_package_lock_is_read_fast() -> None:
    rows = [(f"node_modules/pkg{i}", f"pkg{i}", "1.0.0") for i in range(5200)]
    rows += [
        (f"node_modules/pkg{i}/node_modules/jest-util", "jest-util", "29.0.0") for i in range(40)
    ]
    base = npm_lock([*rows, *NPM])
    head = npm_lock([*rows, *_moved(NPM, "vitest", "2.0.0")])
    assert base.count("\n") > 30_000
    start = time.perf_counter()
    moved = lock_changes("package-lock.json", base, head)
    took = time.perf_counter() - start
    assert moved == ("vitest: `1.6.0` -> `2.0.0`",)
    assert took < 5, took  # about 0.1 s on the development machine


# Every format from one table of (name, version) rows, for generated cases.
MAKERS = {
    "uv.lock": uv_lock,
    "poetry.lock": poetry_lock,
    "pdm.lock": pdm_lock,
    "Pipfile.lock": lambda rows: pipfile_lock([], rows),
    "package-lock.json": lambda rows: npm_lock([(f"node_modules/{n}", n, v) for n, v in rows]),
    "npm-shrinkwrap.json": lambda rows: npm_lock(
        [(f"node_modules/{n}", n, v) for n, v in rows], version=1
    ),
    "pnpm-lock.yaml": pnpm_lock,
    "yarn.lock": lambda rows: yarn_classic([(f'"{n}@^{v}"', n, v) for n, v in rows]),
    "bun.lock": lambda rows: bun_lock([(n, f"{n}@{v}", "") for n, v in rows]),
    "Cargo.lock": cargo_lock,
}
PY_TOOLS = ["pytest", "pytest-xdist", "coverage", "syrupy", "hypothesis"]
JS_TOOLS = ["vitest", "@vitest/runner", "jest-util", "@jest/core", "chai", "@playwright/test"]
TOOLS = {
    **{p: PY_TOOLS for p in ("uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock")},
    **{
        p: JS_TOOLS
        for p in ("package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock")
    },
    "bun.lock": JS_TOOLS,
    "Cargo.lock": ["insta", "proptest", "rstest"],
}
OTHERS = ["lodash", "six", "serde", "left-pad", "@types/node"]


@given(
    st.sampled_from(sorted(MAKERS)),
    st.data(),
    st.lists(st.sampled_from(OTHERS), unique=True, max_size=3),
    st.booleans(),
)
@settings(max_examples=80, deadline=None)
def test_generated_locks_move_exactly_the_bumped_test_tool(
    path: str, data: st.DataObject, others: list[str], bump_tool: bool
) -> None:
    """In every format: bumping one test tool among other packages names
    that tool and both versions; bumping another package moves nothing."""
    tools = data.draw(st.lists(st.sampled_from(TOOLS[path]), unique=True, min_size=1))
    rows = [(n, "1.0.0") for n in [*tools, *others]]
    target = tools[0] if bump_tool or not others else others[0]
    moved_rows = [(n, "1.1.0" if n == target else v) for n, v in rows]
    moved = lock_changes(path, MAKERS[path](rows), MAKERS[path](moved_rows))
    if target in tools:
        assert moved == (f"{target}: `1.0.0` -> `1.1.0`",)
    else:
        assert moved == ()


def test_berry_metadata_anywhere_is_berry() -> None:
    """Yarn reads Berry's YAML whole: `__metadata` moved to the end after a
    long header still makes it Berry, and its bump is seen."""
    pad = "# padding\n" * 1000
    base = yarn_berry([("vitest@npm:^1.0.0", "vitest@npm:1.6.0", "1.6.0")])
    head = yarn_berry([("vitest@npm:^1.0.0", "vitest@npm:1.6.1", "1.6.1")])
    meta = "__metadata:\n  version: 8\n  cacheKey: 10\n"
    moved = lock_changes(
        "yarn.lock", pad + base.replace(meta, "") + meta, pad + head.replace(meta, "") + meta
    )
    assert moved == ("vitest: `1.6.0` -> `1.6.1`",)


def test_a_lock_file_over_a_mebibyte_is_read() -> None:
    """Monorepo locks pass the 1 MiB other files are read up to."""
    rows = [(f"lib{i}", "1.0.0") for i in range(3600)]
    base, head = uv_lock([*rows, ("pytest", "8.3.0")]), uv_lock([*rows, ("pytest", "8.4.0")])
    assert len(base) > 1 << 20
    CASE.fails(Files(base={"uv.lock": base}, head={"uv.lock": head}), "pytest: `8.3.0` -> `8.4.0`")
