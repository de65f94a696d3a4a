"""go.mod, as the go command reads it.

Each `require`, in a block or on one line, is a module at a version (a
`// indirect` comment marks it `indirect`); each `replace` gives the
module it names a source, `=> path` or `=> other/module v1.2.3` (the
replaced version, when given, is part of the source); each `tool`
directive (Go 1.24) names a package the module runs, as a `tool` entry.
Paths are compared as written (module paths are case-sensitive) and may
be quoted; `exclude`, `retract`, `go`, `toolchain` and `godebug` declare
no dependency."""

from __future__ import annotations

import re

from gate.base.structured import Unreadable, go_mod_lines
from gate.manifests.dependency import Dependency, entry

_VERBS = ("require", "replace", "tool", "exclude", "retract", "godebug", "ignore")


def _words(line: str) -> list[str]:
    return [w[1:-1] if w[:1] in '"`' and len(w) > 1 else w for w in line.split()]


def _opens(line: str) -> str | None:
    opened = re.fullmatch(r"(\w+)\s*\(", line)
    return opened[1] if opened is not None else None


def go_mod(path: str, text: str) -> list[Dependency]:
    out: list[Dependency] = []
    for block, line, comment, number in go_mod_lines(text, _opens):
        indirect = comment is not None and comment.strip().startswith("indirect")
        if block is not None:
            verb, words = block, _words(line)
        else:
            if not line or _opens(line) is not None:
                continue
            verb, *words = _words(line)
        if not words:
            continue
        if verb == "require":
            if len(words) != 2:
                raise Unreadable(f"line {number}: a require names a module and a version")
            out.append(entry("go", path, "require", words[0], spec=words[1], indirect=indirect))
        elif verb == "replace":
            if "=>" not in words:
                raise Unreadable(f"line {number}: a replace needs `=>`")
            arrow = words.index("=>")
            old, new = words[:arrow], words[arrow + 1 :]
            if len(old) not in (1, 2) or len(new) not in (1, 2):
                raise Unreadable(f"line {number}: a replace is `module [version] => target`")
            source = " ".join(new) + (f" (for {old[1]})" if len(old) == 2 else "")
            out.append(entry("go", path, "replace", old[0], source=source))
        elif verb == "tool":
            out.append(entry("go", path, "tool", words[0]))
        elif verb not in _VERBS and verb not in ("module", "go", "toolchain"):
            raise Unreadable(f"line {number}: unknown directive {verb!r}")
    return out
