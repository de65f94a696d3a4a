"""A Gemfile, read line by line as Bundler's DSL is usually written: each
`gem "name", "version", ...` (its `git:`, `github:`, `path:` or
`source:` option its source, as is an enclosing `git ... do`, `path ...
do` or `source ... do` block; a `group ... do` block its section), each
`source "URL"` an index, `gemspec` an include.  A line the reader does
not recognize declares nothing: Ruby can compute a Gemfile, which no
reader short of Ruby follows (out of reach)."""

from __future__ import annotations

import re

from gate.manifests.dependency import INCLUDE, INDEX, Dependency, entry

_STRING = r"""(?:"([^"]*)"|'([^']*)')"""
_GEM = re.compile(rf"gem\s*\(?\s*{_STRING}(.*)")
_OPTION = re.compile(rf"(?::(\w+)\s*=>|(\w+):)\s*{_STRING}")
_BLOCK = re.compile(r"(git|path|source|github|group|platforms?)\b\s*\(?\s*(.*?)\s*\)?\s*do\b")
_SOURCE = re.compile(rf"source\s*\(?\s*{_STRING}")


def _text(match: re.Match[str], first: int) -> str:
    return match[first] if match[first] is not None else match[first + 1]


def gemfile(path: str, text: str) -> list[Dependency]:
    out: list[Dependency] = []
    stack: list[tuple[str, str]] = []  # (block kind, its argument)
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*", "", raw).strip()
        if not line:
            continue
        block = _BLOCK.match(line)
        if block is not None:
            stack.append((block[1], block[2].strip("'\" ")))
            continue
        if line == "end" and stack:
            stack.pop()
            continue
        gem = _GEM.match(line)
        if gem is not None:
            name, rest = _text(gem, 1), gem[3]
            options = {m[1] or m[2]: _text(m, 3) for m in _OPTION.finditer(rest)}
            versions = [_text(m, 1) for m in re.finditer(_STRING, _OPTION.sub("", rest))]
            places = {k: v for k, v in options.items() if k in ("git", "github", "path", "source")}
            for kind, argument in stack:
                if kind in ("git", "path", "source", "github"):
                    places.setdefault(kind, argument)
            groups = [a for k, a in stack if k == "group"]
            section = f"group {groups[-1]}" if groups else "gems"
            source = " ".join(f"{k}: {v}" for k, v in sorted(places.items()))
            out.append(entry("ruby", path, section, name, spec=",".join(versions), source=source))
            continue
        source_line = _SOURCE.match(line)
        if source_line is not None:
            url = _text(source_line, 1)
            out.append(entry("ruby", path, "source", url, source=url, role=INDEX))
        elif line.startswith("gemspec"):
            out.append(entry("ruby", path, "gemspec", line, role=INCLUDE))
    return out
