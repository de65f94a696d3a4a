"""A Gemfile, read line by line as Bundler's DSL is usually written: each
`gem "name", "version", ...` (its `git:`, `github:`, `path:` or
`source:` option its source, as is an enclosing `git ... do`, `path ...
do` or `source ... do` block; a `group ... do` block its section), each
`source "URL"` an index, `gemspec` an include (statements split at `;`,
comments cut at a `#` outside a string).  A line the reader does
not recognize declares nothing: Ruby can compute a Gemfile, which no
reader short of Ruby follows (out of reach).  And a gem's `*.gemspec`,
its `add_dependency`, `add_runtime_dependency` and
`add_development_dependency` calls read the same way (`gemspec`); a call
that names its gem by anything but a string literal cannot be read."""

from __future__ import annotations

import re

from gate.base.structured import Unreadable
from gate.manifests.dependency import INCLUDE, INDEX, Dependency, entry

_STRING = r"""(?:"([^"]*)"|'([^']*)')"""
_GEM = re.compile(rf"gem\s*\(?\s*{_STRING}(.*)")
_OPTION = re.compile(rf"(?::(\w+)\s*=>|(\w+):)\s*{_STRING}")
_BLOCK = re.compile(r"(git|path|source|github|group|platforms?)\b\s*\(?\s*(.*?)\s*\)?\s*do\b")
_SOURCE = re.compile(rf"source\s*\(?\s*{_STRING}")


def _text(match: re.Match[str], first: int) -> str:
    return match[first] if match[first] is not None else match[first + 1]


# What a `#` inside does not start a comment in: a quoted or `%` literal
# (`"see #1"`, `%r{^#}`), a `?#` character.
_NOT_COMMENT = re.compile(
    r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\?#"""
    r"|%[qQwWiIrsx]?(?:\{[^{}]*\}|<[^<>]*>|\([^()]*\)|\[[^\[\]]*\]|([!|/^~]).*?\1)"
)


def _uncomment(raw: str) -> str:
    """A line without its `# comment` and surrounding space; a `#` in a
    string is not one (`"see #1"; spec.add_dependency "x"` is read)."""
    at = 0
    while at < len(raw):
        if raw[at] == "#":
            return raw[:at].strip()
        skip = _NOT_COMMENT.match(raw, at)
        at = skip.end() if skip is not None and skip.end() > at else at + 1
    return raw.strip()


def _split(line: str) -> list[str]:
    """A line's statements: split at each `;` outside a string."""
    out, start, at = [], 0, 0
    while at < len(line):
        if line[at] == ";":
            out.append(line[start:at].strip())
            start = at + 1
        skip = _NOT_COMMENT.match(line, at)
        at = skip.end() if skip is not None and skip.end() > at else at + 1
    return [*out, line[start:].strip()]


def gemfile(path: str, text: str) -> list[Dependency]:
    out: list[Dependency] = []
    stack: list[tuple[str, str]] = []  # (block kind, its argument)
    for line in (s for raw in text.splitlines() for s in _split(_uncomment(raw))):
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


# A string literal as Ruby writes one: "..." and '...' (a backslash escapes
# the quote), %q / %Q / % with a bracket pair or another mark as delimiters.
_LITERAL = re.compile(
    r""""((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'"""
    r"|%[qQ]?(?:\{([^{}]*)\}|<([^<>]*)>|\(([^()]*)\)|\[([^\[\]]*)\]|([!|/^~])(.*?)\7)"
)
# A call of Gem::Specification's dependency methods (not the `:symbol`
# an old generated gemspec's `respond_to?` asks about).
_CALL = re.compile(r"(?<![:\w])add_(?:runtime_|development_)?dependency\b")
_MODIFIER = re.compile(r"\s(?:if|unless)\s.*")
# After the name: the next argument, the call's end, or a modifier (not
# `"ev" "il"`, `"ev" + "il"` or `"evil".downcase`: Ruby computes those).
_AFTER_NAME = re.compile(r"(?:\.freeze)?\s*(?:$|[,);]|(?:if|unless)\b)")
# A dependency added some other way: a method called by its name
# (`send(:add_dependency, ...)`; `respond_to?(:add_dependency)` only
# asks), a `Gem::Dependency` made by hand.
_OTHER = re.compile(r"(respond_to\?\s*\(?\s*)?:add_(?:runtime_|development_)?dependency\b")
_BY_HAND = re.compile(r"\bDependency\.new\b")


def _literal(match: re.Match[str]) -> str:
    return next(g for i, g in enumerate(match.groups(), 1) if g is not None and i != 7)


def _statements(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each line that calls a dependency
    method, without its comment; a call that ends a line inside its
    parentheses, after a `,` or a `\\` is joined with the lines that follow
    (a call written over several lines)."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _uncomment(raw)
        asked = all(m[1] for m in _OTHER.finditer(line))
        if not asked or _BY_HAND.search(line):
            raise Unreadable(f"line {number}: {line!r} adds a dependency in a way not read")
        if pending is not None:
            number, line = pending[0], f"{pending[1]} {line}"
            pending = None
        if not _CALL.search(line):
            continue
        if line.endswith((",", "\\", "(")) or line.count("(") > line.count(")"):
            pending = number, line.removesuffix("\\")
            continue
        out.append((number, line))
    if pending is not None:
        out.append(pending)
    return out


def gemspec(path: str, text: str) -> list[Dependency]:
    """A gem's `*.gemspec`, its plain DSL read line by line: each
    `add_dependency`, `add_runtime_dependency` and
    `add_development_dependency` call (its section the method's name) with
    the gem's name as a string literal first (`"name"`, `'name'`,
    `%q<name>`, optionally `.freeze`), then its version strings; a call
    over several lines is read whole.  A call that names its gem any other
    way (a variable, an interpolated string, `%w[...].each`) is Ruby
    computing the gemspec: the text cannot be read (`Unreadable`), so the
    rule fails rather than guess what it declares.  Other lines declare
    nothing."""
    out: list[Dependency] = []
    for number, line in _statements(text):
        calls = list(_CALL.finditer(line))
        for i, call in enumerate(calls):
            end = calls[i + 1].start() if i + 1 < len(calls) else len(line)
            args = line[call.end() : end].lstrip().removeprefix("(").lstrip()
            name = _LITERAL.match(args)
            if (
                name is None
                or not _AFTER_NAME.match(args, name.end())
                or "\\" in _literal(name)
                or ("#{" in _literal(name) and not name[0].startswith(("'", "%q")))
            ):
                shown = line[call.start() : end].strip()
                raise Unreadable(
                    f"line {number}: {shown!r} names its gem with an expression, not a string "
                    "(Ruby computes it; only a string literal is read)"
                )
            rest = _MODIFIER.sub("", args[name.end() :])
            versions = [_literal(m) for m in _LITERAL.finditer(rest)]
            out.append(entry("ruby", path, call[0], _literal(name), spec=",".join(versions)))
    return out
