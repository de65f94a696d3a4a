"""pip's requirements files, and the one reader of a PEP 508 requirement
(`requirement`: a name, extras, a URL or version specifiers, markers, read
by `packaging`, as pip reads them).

A requirements file is read as pip reads it: a line ending in `\\` joins
the next unless it holds a comment, a `#` at the start or after a space
starts a comment, blank lines are nothing.  A requirement line is a package (its spec the version
specifiers; `name @ URL` takes its source from the URL); a line that is a
URL, a VCS link (`git+https://...#egg=name`) or a path, or `-e`/
`--editable` one, is a package taken from there (named by its `#egg=`, by
the archive's file name, else by the URL or path itself), except the
project itself (`.`, `.[test]`, `-e .`).  `-i`/`--index-url`,
`--extra-index-url`, `-f`/`--find-links` and `--trusted-host` name
places packages come from (`INDEX` entries); `-r`/`--requirement` another
file read as part of this one (`INCLUDE`).  `-c` constraints and the
other options declare nothing."""

from __future__ import annotations

import re

from gate.base.structured import Unreadable
from gate.manifests.dependency import INCLUDE, INDEX, Dependency, entry

_INDEX = re.compile(
    r"(-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host)(?:\s*=\s*|\s+)(\S+)"
)
_INCLUDE = re.compile(r"(-r|--requirement)(?:\s*=\s*|\s+)(\S+)")
_EDITABLE = re.compile(r"(?:-e|--editable)(?:\s*=\s*|\s+)(\S.*)")
_ARCHIVE = re.compile(r"([A-Za-z0-9][A-Za-z0-9._]*?)-\d[^/]*\.(?:whl|zip|tar\.gz|tgz|tar\.bz2)$")
_OPTION = re.compile(r"-{1,2}[A-Za-z]")
_COMMENT = re.compile(r"(^|\s)#")


# A requirement's name and extras, which open it (packaging has checked
# the whole requirement by then): what follows, up to the markers, is its
# specifiers as written.
_NAME_AND_EXTRAS = re.compile(r"\s*[A-Za-z0-9._-]+\s*(?:\[[^\]]*\])?")


def requirement(text: str) -> tuple[str, str, str]:
    """(name, version specifiers without spaces, URL) of a PEP 508
    requirement, read by `packaging` (the reader pip uses, imported on the
    first requirement); raises `Unreadable` for a string that is not one.
    The specifiers are kept in the order written (packaging's own text sorts
    them), as reports quote them."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        parsed = Requirement(text)
    except InvalidRequirement:
        raise Unreadable(f"holds {text!r}, which is not a PEP 508 requirement") from None
    if parsed.url:
        return parsed.name, "", parsed.url
    head = text.partition(";")[0]
    found = _NAME_AND_EXTRAS.match(head)
    spec = head[found.end() if found else 0 :].strip()
    if spec.startswith("(") and spec.endswith(")"):
        spec = spec[1:-1]
    return parsed.name, "".join(spec.split()), ""


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of each requirement or option: `\\`
    continuations joined, comments and blank lines dropped."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not pending:
            start = number
        if raw.endswith("\\") and not _COMMENT.search(raw):  # pip joins no comment line
            pending += raw[:-1] + " "
            continue
        line = re.sub(r"(^|\s)#.*", "", pending + raw).strip()
        pending = ""
        if line:
            out.append((start, line))
    if pending.strip():
        line = re.sub(r"(^|\s)#.*", "", pending).strip()
        if line:
            out.append((start, line))
    return out


def _located(path: str, target: str, section: str = "requirements") -> Dependency | None:
    """A package taken from a URL, a VCS link or a path; None for the project itself."""
    bare = target.split(";")[0].strip()
    if re.sub(r"\[[^\]]*\]$", "", bare) in (".", "./"):
        return None
    egg = re.search(r"[#&]egg=([A-Za-z0-9._-]+)", bare)
    archive = _ARCHIVE.search(bare.split("#")[0])
    name = egg[1] if egg else archive[1] if archive else bare.split("#")[0]
    return entry("python", path, section, name, source=bare)


def requirement_line(path: str, section: str, line: str) -> Dependency | None:
    """One PEP 508 line (of a requirements file, setup.cfg, a pyproject
    array) as a `Dependency`; None for the project itself."""
    first = line.split()[0].split(";")[0]
    if (
        "://" in first
        or first.startswith(("git+", ".", "~", "file:"))
        or ("/" in first and "@" not in first)
        or "\\" in first
        or _ARCHIVE.search(first)
    ):
        return _located(path, line, section)
    name, spec, url = requirement(line)
    return entry("python", path, section, name, spec=spec, source=url)


def requirements(path: str, text: str) -> list[Dependency]:
    out: list[Dependency] = []
    for _, line in logical_lines(text):
        index = _INDEX.match(line)
        if index is not None:
            out.append(entry("python", path, index[1], index[2], source=index[2], role=INDEX))
            continue
        include = _INCLUDE.match(line)
        if include is not None:
            out.append(entry("python", path, include[1], include[2], role=INCLUDE))
            continue
        editable = _EDITABLE.match(line)
        if editable is not None:
            found = _located(path, editable[1])
            if found is not None:
                out.append(found)
            continue
        if _OPTION.match(line):
            continue  # -c, --hash on its own, --no-binary, --pre: nothing declared
        line = re.sub(r"\s--hash[=\s]\S+", "", line).strip()
        found = requirement_line(path, "requirements", line)
        if found is not None:
            out.append(found)
    return out
