"""Which paths a frozen run freezes, and what it puts there (`plan`).

A path is frozen when the rubric's test globs match it (every `test_drift`
rule's `paths`, and the rubric's `tests`, in the folded glob mode
`test_drift` matches in), when a test runner reads the whole file
(`gate.drift.runners.config_matcher`: conftest files, runner
configuration, `__mocks__/`, vendored test libraries, package-manager
hooks...), or when the rubric's `frozen_tests.paths` name it as test
support; `frozen_tests.exclude` keeps product code out (a `fixtures/`
folder that ships).  At a frozen path the frozen tree holds exactly what
the base holds: the base's bytes and mode, a symlink as a symlink, nothing
where the base has nothing (a new conftest that skips everything is
removed, and so are the pull request's new test files).

A shared file (`runners.SECTION_FILES`: pyproject.toml, package.json,
setup.cfg, go.mod, ...) whose runner part the change moved is spliced: the
head's file with that part as at the base.  A splice is kept only when
`runners.section_change` says the spliced text's runner part is the
base's; a part the gate cannot separate so (a requirements file, a
setup.py, a go.mod, dotted TOML keys) is a `GateError` naming the file:
the base's tests never run under the pull request's test configuration.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from gate.base import globs
from gate.base.errors import GateError
from gate.base.jsontext import dumps
from gate.base.paths import quoted
from gate.drift import runners
from gate.model.rubric import Rubric

# What `git ls-tree` says of an entry: (mode, object id).
Entry = tuple[str, str]
GITLINK = "160000"
SYMLINK = "120000"


@dataclass(frozen=True)
class Plan:
    """What the frozen tree differs from the head's in.

    `restore`: path -> the base's (mode, object id), written where the head
    holds something else; `remove`: the head's paths at frozen places the
    base has nothing at; `splice`: shared files -> their spliced bytes;
    `frozen`: how many of the base's paths are frozen (restored or not)."""

    restore: Mapping[str, Entry]
    remove: tuple[str, ...]
    splice: Mapping[str, bytes]
    frozen: int

    def to_dict(self) -> dict[str, object]:
        return {
            "restored": sorted(self.restore),
            "removed": list(self.remove),
            "spliced": sorted(self.splice),
            "frozen_paths": self.frozen,
        }


def frozen_matcher(rubric: Rubric) -> Callable[[str], bool]:
    """Whether a path is frozen for `rubric` (see the module docstring)."""
    patterns = list(rubric.tests)
    for rule in rubric.rules:
        if rule.kind == "test_drift":
            patterns.extend(str(p) for p in rule.params.get("paths", ()))
    patterns.extend(rubric.frozen_paths)
    is_test = globs.matcher(tuple(dict.fromkeys(patterns)), globs.FOLDED)
    is_config = runners.config_matcher(globs.FOLDED)
    excluded = globs.matcher(rubric.frozen_exclude, globs.FOLDED)

    def frozen(path: str) -> bool:
        if is_config(path):
            return True  # a runner's file is never product code
        return is_test(path) and not excluded(path)

    return frozen


def plan(
    base: Mapping[str, Entry],
    head: Mapping[str, Entry],
    frozen: Callable[[str], bool],
    read: Callable[[str, str], bytes | None],
) -> Plan:
    """The plan for turning the head's tree into the frozen tree.  `base`
    and `head` map every path of each tree to its entry; `read(object id,
    path)` gives a blob's bytes (for the shared files).  GateError when a
    frozen path holds a submodule the head does not hold alike (its content
    is not in the repository), or a shared file cannot be spliced."""
    restore: dict[str, Entry] = {}
    remove: list[str] = []
    count = 0
    every = sorted(set(base) | set(head))
    at_frozen = {path for path in every if frozen(path)}  # each path asked once
    for path in every:
        if path not in at_frozen:
            continue
        was, now = base.get(path), head.get(path)
        if was is not None:
            count += 1
        if was == now:
            continue
        if was is None:
            remove.append(path)
            continue
        if was[0] == GITLINK:
            raise GateError(
                f"the base holds a submodule at the test path {quoted(path)} that the head "
                "does not hold alike, and a frozen run cannot restore a submodule's files: "
                "keep the submodule as the base has it, or leave it out of the test globs"
            )
        restore[path] = was
    splice: dict[str, bytes] = {}
    for path in sorted(set(base) & set(head)):
        was, now = base[path], head[path]
        if was == now or path in at_frozen or runners.section_for(path) is None:
            continue
        if was[0] == GITLINK or now[0] == GITLINK:
            continue
        spliced = splice_shared(path, read(was[1], path), read(now[1], path))
        if spliced is not None:
            splice[path] = spliced
    for path in sorted(set(base) - set(head)):
        # a shared file the change deletes comes back whole, as at the base
        if path not in at_frozen and runners.section_for(path) is not None:
            if base[path][0] == GITLINK:
                continue
            restore[path] = base[path]
    for path in sorted(set(head) - set(base)):
        if path in at_frozen or runners.section_for(path) is None or head[path][0] == GITLINK:
            continue
        data = read(head[path][1], path)
        if runners.section_change(path, None, _text(data)) is None:
            continue  # a new file with no test configuration in it
        spliced = splice_shared(path, _EMPTY.get(_format(path), b""), data)
        if spliced is not None:
            splice[path] = spliced
    return Plan(restore, tuple(remove), splice, count)


# What a shared file the base lacks is spliced against: nothing, in its format.
_EMPTY = {"json": b"{}", "jsonc": b"{}"}


def _format(path: str) -> str:
    section = runners.section_for(path)
    return section.format if section is not None else ""


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "surrogateescape")


def _refuse(path: str, why: str) -> None:
    raise GateError(
        f"{quoted(path)} holds test configuration beside other things, {why}, and a frozen "
        "run cannot separate its test part from the rest; the base's tests never run "
        "under the pull request's test configuration: keep that part as the base has it"
    )


def splice_shared(path: str, base: bytes | None, head: bytes | None) -> bytes | None:
    """`head` (a shared file's bytes) with its runner part as in `base`; None
    when its runner part is the base's already.  GateError when they cannot
    be separated (see the module docstring)."""
    base_text, head_text = _text(base), _text(head)
    if runners.section_change(path, base_text, head_text) is None:
        return None
    section = runners.section_for(path)
    assert section is not None and base_text is not None and head_text is not None
    splicer = SPLICERS.get(section.format)
    spliced = None
    if splicer is not None:
        try:
            spliced = splicer(section.keys, base_text, head_text)
        except (ValueError, KeyError):
            spliced = None
    if spliced is None or runners.section_change(path, base_text, spliced) is not None:
        _refuse(path, f"the pull request changes its {section.what}")
    assert spliced is not None
    return spliced.encode("utf-8", "surrogateescape")


def _splice_json(keys: tuple[str, ...], base: str, head: str) -> str | None:
    """The head's JSON object with each top-level key of `keys` as at base
    (absent where the base has none); `scripts` are taken whole from the
    base only where the head's other scripts would not be lost: each script
    is the base's when either side's test scripts name it."""
    was, now = json.loads(base), json.loads(head)
    if not isinstance(was, dict) or not isinstance(now, dict):
        return None
    out = dict(now)
    for key in keys:
        if key == "scripts" and isinstance(was.get(key), dict) and isinstance(now.get(key), dict):
            scripts = dict(now[key])
            for name in set(was[key]) | set(now[key]):
                if name in was[key]:
                    scripts[name] = was[key][name]
                else:
                    scripts.pop(name, None)
            out[key] = scripts
        elif key in was:
            out[key] = was[key]
        else:
            out.pop(key, None)
    return dumps(out)  # keys sorted: a JSON object's keys have no order


_TOML_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")


def _toml_blocks(text: str) -> list[tuple[str | None, str]]:
    """`text` cut at each table header: (the header's dotted name with its
    quotes dropped, or None before the first header, the block's text)."""
    blocks: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines(keepends=True):
        found = _TOML_HEADER.match(line)
        if found:
            name = ".".join(p.strip().strip("\"'") for p in found.group(1).split("."))
            blocks.append((name, [line]))
        else:
            blocks[-1][1].append(line)
    return [(name, "".join(lines)) for name, lines in blocks]


def _under(name: str | None, keys: Iterable[str]) -> bool:
    return name is not None and any(name == k or name.startswith(k + ".") for k in keys)


def _splice_tables(keys: tuple[str, ...], base: str, head: str) -> str | None:
    """The head's TOML with every table under `keys` replaced by the base's
    tables under them (whole `[table]` blocks; the result is checked by the
    caller, so dotted keys or inline tables elsewhere are refused there)."""
    kept = [text for name, text in _toml_blocks(head) if not _under(name, keys)]
    taken = [text for name, text in _toml_blocks(base) if _under(name, keys)]
    out = "".join(kept)
    if taken:
        out = out.rstrip("\n") + "\n\n" + "".join(taken)
    return out


_INI_HEADER = re.compile(r"^\[([^\]]*)\]")


def _ini_blocks(text: str) -> list[tuple[str | None, str]]:
    blocks: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines(keepends=True):
        found = _INI_HEADER.match(line)
        if found:
            blocks.append((found.group(1).strip(), [line]))
        else:
            blocks[-1][1].append(line)
    return [(name, "".join(lines)) for name, lines in blocks]


def _splice_ini(keys: tuple[str, ...], base: str, head: str) -> str | None:
    """The head's INI with every section whose header names one of `keys`'
    words (`pytest`, `tool:pytest`, `coverage:run`...) replaced by the base's."""
    words = tuple(k.split(":", 1)[0] for k in keys)

    def runner(name: str | None) -> bool:
        return name is not None and any(w in name.casefold() for w in words)

    kept = [text for name, text in _ini_blocks(head) if not runner(name)]
    taken = [text for name, text in _ini_blocks(base) if runner(name)]
    out = "".join(kept)
    if taken:
        out = out.rstrip("\n") + "\n\n" + "".join(taken)
    return out


SPLICERS: dict[str, Callable[[tuple[str, ...], str, str], str | None]] = {
    "json": _splice_json,
    "pyproject": _splice_tables,
    "toml": _splice_tables,
    "ini": _splice_ini,
}
