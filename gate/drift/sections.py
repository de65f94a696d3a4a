"""How the runner part of a section file (`gate.drift.runners`'
`SECTION_FILES`) is read, one reader a format, each from a side's text to
a comparable value, None when the part is absent, raising `Unreadable`
(`gate.base.structured`) when the text cannot be read (`VIEWS`):
TOML and JSON parsed with the section's keys picked (reformatting that
keeps the values is no change), JSONC as Deno reads it, INI sections line
by line (under the gate's notion of a line and Python's), a POM's test
properties, dependencies, plugins, folders, modules and profiles, a
go.mod's `ignore` directives and `replace`s of a test library, an
`__init__.py` whole once it can define `load_tests` (`named_view` outside
the test paths: once it spells the name), a `setup.py` whole once it
spells its entry points, and in package.json, pyproject.toml and pip's
requirements files the test tools taken from elsewhere than the registry
(`gate.drift.elsewhere`).  package.json's `scripts` are narrowed to
the scripts either side chooses (`narrow_scripts`)."""

from __future__ import annotations

import ast
import fnmatch
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from gate.base.structured import Unreadable, go_mod_lines, json_object, keyed, toml
from gate.base.text import lines
from gate.drift.elsewhere import (
    ELSEWHERE,
    JS_READS,
    js_elsewhere,
    py_elsewhere,
    requirements_lines,
)
from gate.drift.vendored import GO_TEST_MODULES

# npm runs these on install, before any test; a chosen script's command may
# name other scripts, which are then chosen too.
LIFECYCLE = (
    "preinstall",
    "install",
    "postinstall",
    "prepare",
    "preprepare",
    "postprepare",
    "prepublish",
)


__all__ = ["LIFECYCLE", "VIEWS", "chosen_scripts", "named_view", "narrow_scripts", "script_calls"]


def _toml_view(keys: tuple[str, ...], text: str) -> object:
    return keyed(toml(text), keys)


def _pyproject_view(keys: tuple[str, ...], text: str) -> object:
    """pyproject.toml's runner tables, and each test distribution it takes
    from elsewhere than an index (`gate.drift.elsewhere.py_elsewhere`)."""
    data = toml(text)
    return _with_elsewhere(keyed(data, keys), py_elsewhere(data))


def _with_elsewhere(picked: dict[str, Any] | None, taken: dict[str, str]) -> object:
    """A view's picked keys, and under `ELSEWHERE` the test tools it takes
    from elsewhere (when any); None when there is neither."""
    view = dict(picked or {})
    if taken:
        view[ELSEWHERE] = taken
    return view or None


_WORD = re.compile(r"[^\s;&|()<>'\"`=,]+")


def script_calls(command: str, scripts: dict[str, Any]) -> set[str]:
    """The names of `scripts` that `command` names: a word equal to a
    script's name, or a pattern (`run-s test:*`) matching it."""
    named: set[str] = set()
    for word in _WORD.findall(command):
        if any(c in word for c in "*?["):
            named.update(n for n in scripts if fnmatch.fnmatchcase(n, word))
        elif word in scripts:
            named.add(word)
    return named


def chosen_scripts(scripts: dict[str, Any]) -> set[str]:
    """The names of the scripts that decide what `npm test` (or an install
    before it) runs: see the module docstring."""
    chosen = {n for n in scripts if "test" in n.casefold() or n in LIFECYCLE}
    todo = list(chosen)
    while todo:
        command = scripts.get(todo.pop())
        if not isinstance(command, str):
            continue
        for name in sorted(script_calls(command, scripts)):
            if name not in chosen:
                chosen.add(name)
                todo.append(name)
    return chosen


def _package_json_view(keys: tuple[str, ...], text: str) -> object:
    """package.json's runner keys; `narrow_scripts` then keeps, of
    `scripts`, the ones either side chooses.  Also each test package
    (`gate.drift.vendored.JS_TEST_PACKAGES`) that a dependency map or
    an override takes from elsewhere than the registry
    (`gate.drift.elsewhere.js_elsewhere`)."""
    data = package_json(keys, text)
    return _with_elsewhere(keyed(data, keys), js_elsewhere(data))


def package_json(keys: tuple[str, ...], text: str) -> dict[str, Any]:
    """A package.json's object, `keys` its runner section's keys: a key
    repeated where `test_drift` reads nothing (`engines`, `files`, a
    tool's key) reads as Node reads it, the last value standing; one
    repeated among `keys` and the keys `gate.drift.elsewhere` reads
    (`JS_READS`: the dependency maps, `overrides`, `resolutions`,
    `pnpm`), or inside one's value, is `Unreadable`
    (`gate.base.structured.json_object`)."""
    return json_object(text, reads=(*keys, *JS_READS))


def _strings_and_rest(text: str) -> list[tuple[bool, str]]:
    """`text` cut into JSON strings (True, as written, quotes included) and
    the text between them (False)."""
    parts: list[tuple[bool, str]] = []
    i, n, last = 0, len(text), 0
    while i < n:
        if text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            parts += [(False, text[last:i]), (True, text[i : j + 1])]
            i = last = j + 1
        else:
            i += 1
    parts.append((False, text[last:]))
    return parts


def jsonc_to_json(text: str) -> str:
    """JSONC (JSON with `//` and `/* */` comments and trailing commas, as
    Deno reads it) as strict JSON text: a comment becomes a space and a comma
    before `}` or `]` is dropped, outside strings only."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:  # comments first: a `"` inside a comment opens no string
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j == -1 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j == -1:
                raise Unreadable("has a /* comment that is never closed")
            out.append(" ")
            i = j + 2
        else:
            out.append(c)
            i += 1
    parts = _strings_and_rest("".join(out))
    kept: list[str] = []
    for is_string, piece in parts:
        # strings cut the text: a trailing comma and its bracket share a piece
        kept.append(piece if is_string else re.sub(r",(\s*[}\]])", r"\1", piece))
    return "".join(kept)


def _jsonc_view(keys: tuple[str, ...], text: str) -> object:
    return keyed(json_object(jsonc_to_json(text)), keys)


def _ini_sections(found: list[str], words: tuple[str, ...]) -> list[list[str]]:
    """Every section whose `[...]` header mentions one of `words` (case
    folded), with its lines up to the next header at the start of a line.
    A word `HEADER:OPTION` keeps, of a section whose header mentions
    HEADER, the header and the lines of option OPTION (`_ini_option`),
    and only when that option is there."""
    whole = tuple(w for w in words if ":" not in w)
    options = [w.split(":", 1) for w in words if ":" in w]
    sections: list[tuple[str | None, list[str]]] = []
    current: list[str] | None = None
    for line in found:
        stripped = line.strip()
        if stripped.startswith("["):
            folded = stripped.casefold()
            if any(w in folded for w in whole):
                current = [line]
                sections.append((None, current))
                continue
            wanted = next((o for h, o in options if h in folded), None)
            if wanted is not None:
                # configparser reads an indented header as one too, where no
                # option's value goes on: taken as a header whatever its indent
                current = [line]
                sections.append((wanted, current))
                continue
        if line.startswith("["):
            current = None
        elif current is not None:
            current.append(line)
    kept = []
    for wanted, section in sections:
        if wanted is not None:
            section = _ini_option(section, wanted)
            if len(section) == 1:
                continue  # the option is not there
        kept.append(section)
    return kept


def _ini_option(section: list[str], option: str) -> list[str]:
    """The header and the lines of option `option` in `section`, as
    configparser splits a section: a key line (stripped and case folded
    up to the first `=` or `:`, its delimiters) at the indentation of the
    section's first key, its value going on over blank lines and lines
    indented deeper; a full-line comment (`#`, `;`) is no line of either.
    Case folding takes more than setuptools does (it keeps the case of
    option names): never less."""
    kept = section[:1]
    inside = False
    indent: int | None = None  # the keys' indentation, once a key is read
    for line in section[1:]:
        stripped = line.strip()
        if stripped.startswith(("#", ";")):
            continue
        depth = len(line) - len(line.lstrip())
        if not stripped or (indent is not None and depth > indent):
            if inside:
                kept.append(line)
            continue
        indent = depth
        inside = re.split(r"[=:]", line, maxsplit=1)[0].strip().casefold() == option
        if inside:
            kept.append(line)
    return kept


def _ini_view(keys: tuple[str, ...], text: str) -> object:
    # The gate's notion of a line and Python's `str.splitlines` (which ini
    # parsers use): a section is compared under both.
    ours = _ini_sections([line.rstrip("\r\n") for line in lines(text)], keys)
    pythons = _ini_sections(text.splitlines(), keys)
    return (ours, pythons) if ours or pythons else None


def _local(tag: object) -> str:
    """An XML tag without its `{namespace}`."""
    return str(tag).rsplit("}", 1)[-1]


def _canonical(element: Any) -> object:
    """An XML element as a comparable value: tag, attributes, stripped text
    and children, in order (whitespace between elements is formatting)."""
    return (
        _local(element.tag),
        tuple(sorted(element.attrib.items())),
        (element.text or "").strip(),
        tuple(_canonical(child) for child in element),
    )


_POM_WORDS = ("test", "skip", "surefire", "failsafe", "junit", "groups")
_POM_PLUGINS = ("surefire", "failsafe", "junit", "testng")
_POM_BUILD = ("testSourceDirectory", "testOutputDirectory", "testResources")


def _xml(text: str) -> Any:
    """The root element of `text`, a file a change writes, by defusedxml's
    parser: an entity declaration (the billion laughs, a quadratic blowup)
    or an external entity is refused, never expanded or fetched, whatever
    the expat underneath; raises `Unreadable`."""
    from defusedxml import DefusedXmlException
    from defusedxml import ElementTree as ET

    try:
        return ET.fromstring(text)
    except DefusedXmlException as exc:
        raise Unreadable(
            f"declares the XML entity {getattr(exc, 'name', '')!r}, which the gate does not "
            "expand (a pom.xml needs none)"
        ) from None
    except (ET.ParseError, ValueError, RecursionError) as exc:
        raise Unreadable(f"is not well-formed XML ({exc})") from None


def _pom_view(keys: tuple[str, ...], text: str) -> object:
    root = _xml(text)

    def child(element: Any, name: str) -> list[Any]:
        return [c for c in element if _local(c.tag) == name]

    def text_of(element: Any, name: str) -> str:
        return " ".join((c.text or "").strip() for c in child(element, name))

    view: dict[str, object] = {}
    properties = [
        (_local(p.tag), (p.text or "").strip())
        for props in child(root, "properties")
        for p in props
        if any(w in _local(p.tag).casefold() for w in _POM_WORDS)
    ]
    dependencies = [
        _canonical(d)
        for d in root.iter()
        if _local(d.tag) == "dependency" and text_of(d, "scope").casefold() == "test"
    ]
    plugins = [
        _canonical(p)
        for p in root.iter()
        if _local(p.tag) == "plugin"
        and any(w in text_of(p, "artifactId").casefold() for w in _POM_PLUGINS)
    ]
    folders = [
        _canonical(e) for b in child(root, "build") for e in b if _local(e.tag) in _POM_BUILD
    ]
    for name, found in (
        ("properties", properties),
        ("test dependencies", dependencies),
        ("test plugins", plugins),
        ("test folders", folders),
        ("modules", [_canonical(m) for m in child(root, "modules")]),
        ("profiles", [_canonical(p) for p in child(root, "profiles")]),
    ):
        if found:
            view[name] = found
    return view or None


def pom_modules(text: str) -> tuple[dict[str, object], list[str]]:
    """A `pom.xml`'s runner view without its `<modules>` (`_pom_view`) and
    the folders its `<modules>` list, in order; raises `Unreadable`."""
    view = _pom_view((), text)
    rest = dict(view) if isinstance(view, dict) else {}
    rest.pop("modules", None)
    root = _xml(text)
    listed = [
        (m.text or "").strip()
        for group in root
        if _local(group.tag) == "modules"
        for m in group
        if _local(m.tag) == "module"
    ]
    return rest, listed


def _gomod_view(keys: tuple[str, ...], text: str) -> object:
    """Present (a tuple) with every line that may be an `ignore` directive or
    inside an `ignore ( ... )` block, and every `replace` of a test library
    (`gate.drift.vendored.GO_TEST_MODULES`, alone or in a `replace (
    ... )` block: a replacement by a folder of the repository or another
    module is a bent copy of it), comments removed."""
    found: list[str] = []
    for block, line, _, _ in go_mod_lines(text, _gomod_opens):
        if block is not None:
            if line and (block == "ignore" or _names_test_module(line)):
                found.append(line)
        elif "ignore" in line or (line.startswith("replace") and _names_test_module(line)):
            found.append(line)
    return tuple(found)


def _gomod_opens(line: str) -> str | None:
    opened = re.match(r"(ignore|replace)\s*\(", line)
    return opened[1] if opened is not None and not line.rstrip().endswith(")") else None


def _names_test_module(line: str) -> bool:
    return any(module in line for module in GO_TEST_MODULES)


# Names through which a module can define `load_tests` without spelling it.
_DYNAMIC = (
    "load_tests",
    "globals",
    "vars",
    "locals",
    "setattr",
    "exec",
    "eval",
    "compile",
    "__dict__",
    "__getattr__",
    "__class__",
    "__import__",
    "importlib",
    "modules",
    "builtins",
)


def _can_define_load_tests(text: str) -> bool:
    # Python reads identifiers NFKC-normalized: a fullwidth `l` in `load_tests` is an `l`.
    folded = unicodedata.normalize("NFKC", text)
    if any(word in folded for word in _DYNAMIC):
        return True
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # cannot tell: count it as able
    return any(
        isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        for node in ast.walk(tree)
    )


def _names_load_tests(text: str) -> bool:
    """Whether `text` spells `load_tests` (read NFKC-normalized, as Python
    reads identifiers)."""
    return "load_tests" in unicodedata.normalize("NFKC", text)


def named_view(keys: tuple[str, ...], text: str) -> object:
    """An `__init__.py` outside the test paths: the whole file once a side
    spells `load_tests`.  Source packages' `__init__.py` files use
    `globals()`, `importlib`, `__getattr__` and `sys.modules` for their own
    ends all the time (lazy imports, re-exports), and unittest's discovery
    reaches them only in a flat layout run from the root, so outside the
    test paths only the name itself counts (counting those uses failed most
    pull requests that touch a package: 8 of github/spec-kit's last 150).
    A `load_tests` built there without spelling it is out of reach."""
    return text if _names_load_tests(text) else None


def _python_view(keys: tuple[str, ...], text: str) -> object:
    return text if _can_define_load_tests(text) else None


def _setup_view(keys: tuple[str, ...], text: str) -> object:
    """A `setup.py`: the whole file once it spells one of `keys` (read
    NFKC-normalized, as Python reads identifiers), since the program that
    builds its entry points may use any of its lines."""
    folded = unicodedata.normalize("NFKC", text)
    return text if any(key in folded for key in keys) else None


VIEWS: dict[str, Callable[[tuple[str, ...], str], object]] = {
    "toml": _toml_view,
    "pyproject": _pyproject_view,
    "requirements": lambda keys, text: requirements_lines(text),
    "json": _package_json_view,
    "jsonc": _jsonc_view,
    "pom": _pom_view,
    "ini": _ini_view,
    "gomod": _gomod_view,
    "python": _python_view,
    "setup": _setup_view,
}


def narrow_scripts(before: object, after: object) -> tuple[object, object]:
    """Both package.json views with `scripts` kept to the scripts either side
    chooses, each side's value (or None) under every chosen name."""
    sides = [dict(v) if isinstance(v, dict) else None for v in (before, after)]
    scripts = [s.get("scripts") if s is not None else None for s in sides]
    if not any(isinstance(s, dict) for s in scripts):
        return before, after
    chosen: set[str] = set()
    for s in scripts:
        if isinstance(s, dict):
            chosen |= chosen_scripts(s)
    out: list[object] = []
    for side, script in zip(sides, scripts, strict=True):
        if side is None:
            out.append(None)
            continue
        if isinstance(script, dict):
            kept = {n: script.get(n) for n in sorted(chosen) if n in script}
            if kept:
                side["scripts"] = kept
            else:
                del side["scripts"]
        out.append(side or None)
    return out[0], out[1]
