"""The npm ecosystem's lock files as `gate.drift.locks` compares them: each
test package's (`gate.drift.elsewhere.is_test_package`: `vitest`,
`@vitest/*`, `jest-*`, ...) locked copies, at any depth (a copy nested in
another package's `node_modules/` or in a workspace member is a copy).

* npm (`package-lock.json`, `npm-shrinkwrap.json`; docs.npmjs.com,
  "package-lock.json"): lockfileVersion 2 and 3's `packages`, keyed by
  install path (`node_modules/@vitest/runner`,
  `packages/web/node_modules/vitest`; the name is the key's last package,
  an entry's `name` showing an alias), and version 1's nested
  `dependencies` (read too where version 2 keeps both).  A `link` entry's
  source is the folder it links to.
* pnpm (`pnpm-lock.yaml`; pnpm.io, "pnpm-lock.yaml"): `packages` keyed
  `/name/version_peers` (v5), `/name@version(peers)` (v6) or
  `name@version` (v9), peers suffixes dropped, an entry's own `name` and
  `version` first; the source from `resolution` (a tarball, a git
  repository and commit, a folder), its integrity as the hash; and every
  importer's test package whose version is not the registry's: linked to
  a folder (`link:`, `file:`), or an alias to another package.
* Yarn: classic (`# yarn lockfile v1`, classic.yarnpkg.com, "yarn.lock")
  read line by line (`_yarn_classic`: a block per unindented key line of
  comma-separated descriptors, its two-space `version`, `resolved` and
  `integrity`); Berry's (yarnpkg.com, a YAML document with
  `__metadata`): each key's descriptors, `version`, `resolution` (a
  non-npm protocol is the source) and `checksum`.
* Bun (`bun.lock`, bun.sh/docs/install/lockfile; JSON with trailing
  commas): `packages`, keyed by install path, each an array whose first
  item is `name@version` (or a git, file or link spec), a registry URL
  when not the default, and an integrity hash.

A registry tarball URL counts as the default source when its host is
npm's (`registry.npmjs.org`, `registry.yarnpkg.com`) and its path the
package's own (`/vitest/-/...`); any other URL, a git or file spec, or an
alias to another package's name is a source.  Pure."""

from __future__ import annotations

import re
from typing import Any

import yaml

from gate.base.structured import Unreadable, json_object
from gate.drift.elsewhere import is_test_package
from gate.drift.lockcopy import Copy, Locked, add, hashes, shape
from gate.drift.sections import jsonc_to_json

_DEFAULT_HOSTS = ("https://registry.npmjs.org/", "https://registry.yarnpkg.com/")


def _source(name: str, resolved: object) -> str:
    """The source a `resolved` URL or spec names ("" for npm's registry
    serving `name` itself)."""
    if not isinstance(resolved, str) or not resolved:
        return ""
    url = resolved.split("#", 1)[0]
    for host in _DEFAULT_HOSTS:
        if url.startswith(f"{host}{name}/-/"):
            return ""
    return resolved


def _last_package(key: str) -> str | None:
    """The package an npm install path names: the text after its last
    `node_modules/` (None: a workspace folder or the root)."""
    at = key.rfind("node_modules/")
    if at < 0 or (at > 0 and key[at - 1] != "/"):
        return None
    return key[at + len("node_modules/") :]


def _npm_entry(found: Locked, name: str, entry: object) -> None:
    if not isinstance(entry, dict):
        raise shape(f"the entry of {name} is not an object")
    if not is_test_package(name):
        return
    version = str(entry.get("version", ""))
    real = entry.get("name")
    source = _source(name, entry.get("resolved"))
    if entry.get("link"):
        source = f"link:{entry.get('resolved', '')}"
    elif isinstance(real, str) and real != name:
        source = f"npm:{real} {source}".strip()
    add(found, name, Copy(version, source, hashes([entry.get("integrity")])))


def npm(text: str) -> Locked:
    data = json_object(text)
    found: Locked = {}
    packages = data.get("packages", {})
    if not isinstance(packages, dict):
        raise shape("`packages` is not an object")
    for key, entry in packages.items():
        name = _last_package(key)
        if name is not None:
            _npm_entry(found, name, entry)
    todo = [data.get("dependencies", {})]
    while todo:
        deps = todo.pop()
        if not isinstance(deps, dict):
            raise shape("a `dependencies` is not an object")
        for name, entry in deps.items():
            if isinstance(entry, dict):
                todo.append(entry.get("dependencies", {}))
            if isinstance(entry, dict) and "resolved" not in entry:
                # version 1 writes a git or file source in `version`
                version = str(entry.get("version", ""))
                if not re.match(r"\d", version):
                    entry = {**entry, "resolved": version}
            _npm_entry(found, name, entry)
    return found


def _yaml(text: str) -> dict[str, Any]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        raise Unreadable(f"is not valid YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict):
        raise Unreadable("is not a YAML mapping")
    return data


_PEERS = re.compile(r"\(.*$")


def _pnpm_key(key: str) -> tuple[str, str]:
    """A pnpm `packages` key's name and version (peers suffix dropped):
    `/vitest/0.34.6_jsdom@22.1.0` (v5), `/@vitest/runner@1.0.0(x@1)` (v6),
    `vitest@1.6.0` (v9)."""
    key = _PEERS.sub("", key.lstrip("/"))
    start = key.find("/") + 1 if key.startswith("@") else 0
    ends = [i for i in (key.find("@", start), key.find("/", start)) if i > 0]
    if not ends:
        return key, ""
    end = min(ends)
    rest = key[end + 1 :]
    return key[:end], rest.split("_", 1)[0] if key[end] == "/" else rest


def pnpm(text: str) -> Locked:
    data = _yaml(text)
    found: Locked = {}
    packages = data.get("packages") or {}
    if not isinstance(packages, dict):
        raise shape("`packages` is not a mapping")
    for key, entry in packages.items():
        if not isinstance(entry, dict):
            raise shape(f"the entry of {key} is not a mapping")
        name, version = _pnpm_key(str(key))
        name = str(entry.get("name", name))
        if not is_test_package(name):
            continue
        resolution = entry.get("resolution") or {}
        if not isinstance(resolution, dict):
            raise shape(f"the resolution of {key} is not a mapping")
        where = {k: v for k, v in sorted(resolution.items()) if k != "integrity"}
        tarball = where.pop("tarball", None)
        source = " ".join(f"{k}={v}" for k, v in where.items())
        source = f"{source} {_source(name, tarball)}".strip()
        version = str(entry.get("version", version))
        add(found, name, Copy(version, source, hashes([resolution.get("integrity")])))
    importers = data.get("importers")
    roots = list(importers.values()) if isinstance(importers, dict) else [data]
    for importer in roots:
        for group in ("dependencies", "devDependencies", "optionalDependencies"):
            deps = importer.get(group) if isinstance(importer, dict) else None
            for name, spec in deps.items() if isinstance(deps, dict) else ():
                given = str(spec.get("version") if isinstance(spec, dict) else spec)
                if is_test_package(str(name)) and not re.match(r"\d", given):
                    add(found, str(name), Copy("", given))  # a link, a file, an alias
    return found


def _descriptor_name(descriptor: str) -> str:
    """`vitest@^1.0.0`, `"@vitest/runner@npm:1.0.0"` -> the package name."""
    descriptor = descriptor.strip().strip('"')
    at = descriptor.find("@", 1)
    return descriptor if at < 0 else descriptor[:at]


def _yarn_copy(
    name: str, descriptors: list[str], version: str, resolved: str, hashed: object
) -> Copy:
    """A classic block's copy of `name`: an alias or a non-registry
    descriptor (`vitest@npm:other@1`, `vitest@git+https://...`) and a
    non-default `resolved` URL are its source."""
    source = _source(name, resolved)
    specs = {d.strip().strip('"')[len(name) + 1 :] for d in descriptors}
    aliases = sorted(
        s for s in specs if s.startswith("npm:") and not re.match(r"npm:[\d^~<>=*]", s)
    )
    other = sorted(
        s for s in specs if re.match(r"(git|github|file|link|portal|patch|http|https|exec):", s)
    )
    source = " ".join([*aliases, *other, source]).strip()
    return Copy(version, source, hashes([hashed]))


def _yarn_classic(text: str) -> Locked:
    """Yarn classic's lock file: a block starts at an unindented line
    ending with `:` that lists its descriptors (`"a@^1", a@^1.2:`); its
    two-space-indented lines are `key value` (the value may be quoted);
    deeper lines (a block's `dependencies`) and `#` comments are skipped."""
    found: Locked = {}
    block: list[str] | None = None
    fields: dict[str, str] = {}

    def close() -> None:
        if block:
            names = {_descriptor_name(d) for d in block}
            for name in names:
                if is_test_package(name):
                    mine = [d for d in block if _descriptor_name(d) == name]
                    copy = _yarn_copy(
                        name,
                        mine,
                        fields.get("version", ""),
                        fields.get("resolved", ""),
                        fields.get("integrity") or fields.get("resolved", "").partition("#")[2],
                    )
                    add(found, name, copy)

    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            close()
            if not line.rstrip().endswith(":"):
                raise shape(f"line {number} is neither a block's key nor indented")
            block, fields = line.rstrip()[:-1].split(","), {}
        elif line.startswith("  ") and not line.startswith("   ") and block is not None:
            key, _, value = line.strip().partition(" ")
            fields[key.rstrip(":").strip('"')] = value.strip().strip('"')
        elif block is None:
            raise shape(f"line {number} is indented outside a block")
    close()
    return found


def yarn(text: str) -> Locked:
    if re.search(r"^__metadata:", text, re.MULTILINE) is None:
        return _yarn_classic(text)
    data = _yaml(text)  # Berry's
    found: Locked = {}
    for key, entry in data.items():
        if key == "__metadata":
            continue
        if not isinstance(entry, dict):
            raise shape(f"the entry of {key} is not a mapping")
        resolution = str(entry.get("resolution", ""))
        for name in {_descriptor_name(d) for d in str(key).split(",")}:
            if not is_test_package(name):
                continue
            # `vitest@npm:1.6.0` is the registry; another protocol (git, patch,
            # file, link, an alias to another name) is a source
            ours = resolution.startswith(f"{name}@")
            protocol = resolution[len(name) + 1 :] if ours else resolution
            source = "" if ours and re.match(r"npm:\d", protocol) else protocol
            copy = Copy(str(entry.get("version", "")), source, hashes([entry.get("checksum")]))
            add(found, name, copy)
    return found


def bun(text: str) -> Locked:
    data = json_object(jsonc_to_json(text))
    found: Locked = {}
    packages = data.get("packages", {})
    if not isinstance(packages, dict):
        raise shape("`packages` is not an object")
    for key, entry in packages.items():
        name = str(key).rsplit("/", 2)
        name_text = "/".join(name[-2:]) if len(name) > 1 and name[-2].startswith("@") else name[-1]
        if not is_test_package(name_text):
            continue
        if not isinstance(entry, list) or not entry or not isinstance(entry[0], str):
            raise shape(f"the entry of {key} is not a list that starts with its spec")
        spec = entry[0]
        version, source = spec, spec
        if spec.startswith(f"{name_text}@"):
            version, source = spec[len(name_text) + 1 :], ""
            if not re.match(r"\d", version):
                version, source = "", version
        registry = entry[1] if len(entry) > 1 and isinstance(entry[1], str) else ""
        source = f"{source} {registry}".strip()
        integrity = [e for e in entry[2:] if isinstance(e, str)]
        add(found, name_text, Copy(version, source, hashes(integrity)))
    return found
