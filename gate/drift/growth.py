"""Runner configuration changes that only make room for new tests, which
`test_drift` judges as new tests instead of as runner drift.  Four
shapes, each proven from the texts and the base tree, never guessed:

* `config_grew`: a Jest or Vitest configuration file (JavaScript or
  TypeScript: code, read with tree-sitter) whose head is its base plus new
  string entries in collection lists (`include`, `testMatch`, under no
  key but `test` and `projects`), each entry a literal path (no glob)
  that names, from the configuration's folder, a test file the change
  adds.  Every other token of the file, comments included, is the same on
  both sides (a trailing comma aside), so no existing entry, option,
  setup file, exclusion or project moved: the tests the runner collected
  at base run as before, and the new files are judged as new tests.  An
  entry is read from the file's folder (Jest's `rootDir` and Vitest's
  `root` by default); under a project whose `root` is computed elsewhere,
  the same literal may also name an existing file there, which then runs
  once more under that project while its own run stays as it was.  An
  entry naming a file that exists at base, a glob, an `exclude`, a
  `setupFiles`, a `coverage.include` entry, anything computed: drift.
* `scripts_grew`: a `package.json` whose runner keys are equal but for
  new scripts that nothing runs by itself: not `test`, `pretest`,
  `posttest`, an install lifecycle script (`preinstall`, `postinstall`,
  `prepare`, ...), nor `pre<name>`/`post<name>` of an existing script
  (npm runs those around it), and named by no existing script's command
  (a word, or a `run-s test:*` pattern).  Existing scripts keep their
  commands.
* `untested`: a folder of the base tree that holds no test file and no
  runner configuration file at any depth (or is absent at base): a
  `package.json` there whose scripts change (`scripts_contained`), or a new
  runner configuration there that its runner reads only for tests in its
  folder and that names no place outside it (`scoped`: `FOLDER_CONFIGS`,
  `FOLDER_SECTIONS`, each justified beside it; at the root, only when the
  base holds no test at all), governs new tests only.  The scripts must
  stay in the package: no word of a changed command climbs out (`..`), is
  absolute, expands a variable, names `node_modules` or picks another
  folder or workspace (`--prefix`, `--root`, `--workspace`, `cd`, ...); and one an install runs (a
  lifecycle script, or one it names) may only build (`tsc`, `shx`,
  `rimraf`, `npm run`): an install runs before every test of the
  repository, and code it runs could rewrite the test runner in
  `node_modules`.  For a `package.json` the root is never such a folder.

* `modules_grew`: a Maven `pom.xml` whose runner view is the same but for
  `<module>` entries naming new folders without tests (the base's entries
  kept in order).

Pure functions; tree-sitter is loaded only when a configuration is read.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, Any

from gate.base import globs
from gate.base.structured import Unreadable
from gate.drift import Unparsable
from gate.drift.elsewhere import ELSEWHERE
from gate.drift.sections import LIFECYCLE, VIEWS, chosen_scripts, pom_modules, script_calls

if TYPE_CHECKING:
    from tree_sitter import Node

    from gate.drift._treesitter import ParsedText
    from gate.model.change import BaseTree

# Jest's and Vitest's configuration files, by name (`gate.drift.runners`).
GROWN_CONFIGS = (
    "**/vitest.config.*",
    "**/vitest.*.config.*",
    "**/vite.config.*",
    "**/vite.*.config.*",
    "**/vitest.workspace.*",
    "**/vitest.projects.*",
    "**/jest.config.*",
)
# A new one of these in a folder without tests at base governs new tests
# only (`scoped`): no runner reads it for a test outside its folder.
# - Jest and Vitest (jestjs.io/docs/configuration#rootdir-string,
#   vitest.dev/config/#root): a configuration collects below its own folder
#   (`rootDir`, `root`); another configuration reads it only as a project
#   (`projects`), where it governs that folder's tests.
# - pytest (docs.pytest.org/en/stable/reference/customize.html, "Finding the
#   rootdir"): the ini file is looked for from the common ancestor of the
#   arguments upward, so a file in a subfolder is read only when every
#   argument lies inside it.  tox (tox.wiki/en/latest/config.html): the
#   `tox.ini`/`tox.toml` of the working folder or a parent.
# - Mocha (mochajs.org/running/configuring, "Priorities"): `.mocharc.*` of
#   the working folder.  Karma (karma-runner.github.io/latest/config/
#   configuration-file.html): the file named or `./karma.conf.js`, its
#   `basePath` relative to it.  Playwright (playwright.dev/docs/
#   test-configuration): `playwright.config.*` of the working folder, its
#   `testDir` relative to it.  Cypress (docs.cypress.io/app/references/
#   configuration): the project root is the configuration's folder.
# - Go (go.dev/ref/mod#workspaces): `go.work` is found from the working
#   folder upward, so one in a subfolder is read by commands run there.
# Never: `conftest.py` (pytest registers its hooks for the whole session,
# docs.pytest.org/en/stable/how-to/writing_plugins.html#conftest-py-plugins),
# Babel's files (babeljs.io/docs/config-files: `babel.config.*` is
# project-wide, `.babelrc` applies to the source files of its folder, which
# existing tests import), `.npmrc` (npm, pnpm and Yarn read it from the
# workspace's root for every package), `__mocks__/` (Jest takes a node
# module's mock from any root), `noxfile.py` and the rest of
# `runners.CONFIG_FILES`.
_JS_CONFIGS = (*GROWN_CONFIGS, "**/vitest.setup.*", "**/jest.setup.*")
_WHOLE_CONFIGS = (
    "**/pytest.ini",
    "**/.pytest.ini",
    "**/pytest.toml",
    "**/.pytest.toml",
    "**/tox.ini",
    "**/tox.toml",
    "**/.mocharc.*",
    "**/karma.conf.*",
    "**/playwright.config.*",
    "**/playwright-ct.config.*",
    "**/cypress.config.*",
    "**/go.work",
)
FOLDER_CONFIGS = (*_JS_CONFIGS, *_WHOLE_CONFIGS)
# Section files (`runners.SECTION_FILES`) that a new one scopes the same way:
# a `go.mod` starts a module of its own (go.dev/ref/mod#modules-overview:
# `./...` of another module never enters it; `go help packages`), which
# builds with its own requirements (go.dev/ref/mod#minimal-version-selection:
# the main module's build list), so its test modules' versions are its own
# (`own_pins`); pytest reads a `pyproject.toml` or `setup.cfg` as it reads
# `pytest.ini` (above).  Never `setup.py`, nor a `pyproject.toml` or
# `setup.cfg` declaring a pytest plugin (`pytest11`): an install of the
# workspace loads it for every test.
# A new Maven `pom.xml` builds and tests the module of its folder and the
# modules it lists below it (maven.apache.org/guides/introduction/
# introduction-to-the-pom.html, "Project Aggregation"); a module takes a
# parent from its own `<parent>` (`relativePath`, `../pom.xml` by default,
# "Project Inheritance"), so a new pom in a folder without tests below it
# becomes no existing module's parent.  (An existing pom whose
# `relativePath` names a file the base lacks would take it: such a base
# does not build.)
FOLDER_SECTIONS = ("**/go.mod", "**/pyproject.toml", "**/setup.cfg", "**/pom.xml")
NEW_FOLDER_FILES = (*FOLDER_CONFIGS, *FOLDER_SECTIONS)
# Keys by which a Jest or Vitest configuration reaches beyond its folder:
# where it collects (`rootDir`, `roots`, `root`, `dir`), the projects it
# runs (`projects`, `workspace`), code in the runner's own process that
# every project's tests see (`globalSetup`, `globalTeardown`: jestjs.io/docs/
# configuration#globalsetup-string).
_REACHING_KEYS = re.compile(
    r"""(?<![\w$.])['"]?(?:rootDir|roots|root|dir|projects|workspace|globalSetup|globalTeardown)['"]?\s*:"""
)
# A path that leaves the folder: a `..` segment, an absolute or home path,
# the working folder or an expansion (`process.cwd()`, `$X`); module
# specifiers of imports are cut out first (JS).
_CLIMBING = re.compile(
    r"""(?:^|(?<=[^\w.]))\.\.(?:[/\\]|(?![\w.]))"""
    r"""|(?:^|(?<=[\s=:,'"`\[(]))(?:/(?![/*])|~[/\\]|[A-Za-z]:\\)"""
    r"""|process\.cwd|process\.chdir|\$"""
)
# tox's substitutions of a place (tox.wiki/en/latest/config.html,
# "Substitutions"): `{env:X}`, `{toxinidir}`, `{tox_root}`, `{work_dir}`, ...
_TOX_PLACES = re.compile(r"\{(?:env|tox|work_dir|temp_dir|homedir)")
_SPECIFIER = re.compile(
    r"""(?:\bfrom\s*|\b(?:require|import)\s*\(\s*|^\s*import\s*)(['"])[^'"\n]*\1""", re.M
)
# A pytest plugin's declaration, however spelled (TOML's `\\u` escapes too),
# and code a build runs when a workspace installs the package (an in-tree
# build backend, a build hook, a setuptools command class).
_PLUGINS = re.compile(r"pytest11|entry|plugins|backend-path|hooks|cmdclass|\\[uU]", re.I)
# JavaScript that computes a place above its folder or from the working
# folder (a root `projects` glob runs a project from the repository's root):
# `dirname(...)` (the `__dirname` variable aside), a `file:` URL, the home
# folder; for Jest and Vitest also `resolve`/`join`/`relative` not from
# `__dirname`.
_JS_CLIMBING = re.compile(r"(?<![\w$])dirname\s*\(|file:|homedir|cwd")
# A regular expression's end anchor closing a string or a regex literal
# (`'^.+\\.tsx?$'`, `/\.ts$/`): no expansion (a template's `${` still is).
_JS_ANCHOR = re.compile(r"""\$(?=['"`/)|])""")
_JS_RESOLVING = re.compile(r"\b(?:resolve|join|relative)\s*\(\s*(?!__dirname\b)")


def stays_inside(path: str, text: str) -> bool:
    """Whether the new configuration `path` (`NEW_FOLDER_FILES`) names no
    place outside its folder in `text`: no `..` segment, absolute path,
    working folder or expansion anywhere (comments included: the gate does
    not tell a comment from a value); in JavaScript no `dirname(...)`,
    `file:` URL or home folder (`_JS_CLIMBING`); for Jest and Vitest no key
    that moves where it collects or runs code for other projects
    (`_REACHING_KEYS`) and no path resolved from elsewhere than `__dirname`;
    for `pyproject.toml` and `setup.cfg` no plugin table or build code
    (`_PLUGINS`); a `go.mod`'s `replace` paths build this module alone, so it is
    not read.  JavaScript is a program: a computed key or value that spells
    none of these (`{[k]: path.sep}`) goes unseen; a configuration the file
    imports is read as it is at base, for the packages that already use it."""
    if globs.matches(path, ("**/go.mod",), globs.FOLDED):
        return True
    if globs.matches(path, ("**/pom.xml",), globs.FOLDED):
        # a Maven property that may hold a place (`${project.basedir}`,
        # `${maven.multiModuleProjectDirectory}`) climbs; a version does not
        places = [m for m in _POM_PROPERTY.findall(text) if _POM_PLACES.search(m)]
        text = _POM_PROPERTY.sub("", text)
        return not places and _CLIMBING.search(text) is None and not _POM_ABSOLUTE.search(text)
    python = globs.matches(path, ("**/pyproject.toml", "**/setup.cfg"), globs.FOLDED)
    if python and _PLUGINS.search(text):
        return False
    jest_or_vitest = globs.matches(path, _JS_CONFIGS, globs.FOLDED)
    if jest_or_vitest and (_REACHING_KEYS.search(text) or _JS_RESOLVING.search(text)):
        return False
    suffix = "." + path.rsplit(".", 1)[-1].casefold()
    if suffix in _JS_SUFFIXES:
        text = _JS_ANCHOR.sub("", _SPECIFIER.sub("", text))
        if _JS_CLIMBING.search(text):
            return False
    elif _TOX_PLACES.search(text):
        return False
    return _CLIMBING.search(text) is None


_POM_PROPERTY = re.compile(r"\$\{([^}]*)\}")
_POM_PLACES = re.compile(r"dir|path|root|file|location|home|\.\.|/", re.I)
_POM_ABSOLUTE = re.compile(r">\s*(?:/|~|[A-Za-z]:[\\/]|file:)")


def modules_grew(path: str, base: str, head: str, untested_folder: Callable[[str], bool]) -> bool:
    """Whether the `pom.xml` `path` only gained `<module>` entries, each a
    plain folder below the pom's own (no `..`, absolute path or property)
    that holds no test and no runner configuration at base
    (`untested_folder`), the base's entries kept in order and every other
    part of its runner view equal: the modules it built and tested at base
    run as before, and the new ones hold new tests only."""
    try:
        before, old = pom_modules(base)
        after, new = pom_modules(head)
    except Unreadable:
        return False
    if before != after or len(new) <= len(old):
        return False
    kept = iter(new)
    if not all(any(entry == n for n in kept) for entry in old):
        return False  # a base entry removed or moved past another
    folder = path.rpartition("/")[0]
    added = list(new)
    for entry in old:
        added.remove(entry)
    for entry in added:
        parts = entry.replace("\\", "/").split("/")
        if not entry or "$" in entry or entry.startswith(("/", "~")) or ":" in entry:
            return False
        if any(part in ("", ".", "..") for part in parts):
            return False
        if not untested_folder(f"{folder}/{entry}" if folder else entry):
            return False
    return True


def own_pins(path: str) -> bool:
    """Whether the test tools a new `scoped` file declares reach new tests
    only: a `go.mod` (its module's own build list), or any file at the root
    of a base without tests.  A `pyproject.toml` below the root may join a
    workspace that resolves one set of versions for every package (uv)."""
    return "/" not in path or globs.matches(path, ("**/go.mod", "**/pom.xml"), globs.FOLDED)


# Files through which a folder above a new package reads it at base, by
# ecosystem: a workspace root that takes members by glob (npm, Yarn and Bun
# `workspaces` in package.json, pnpm-workspace.yaml `packages`, Lerna,
# Rush, Nx, Deno's `workspace`; uv's `[tool.uv.workspace]` in
# pyproject.toml; Cargo's `[workspace] members`; go.work `use`), a lock
# file the new package's dependencies may flow into (hoisted where other
# packages' tests run), and a Jest or Vitest configuration whose `projects`
# glob may reach it.  Only the names are read: such a file above, whatever
# it says, keeps the new package's test tools judged.  A root `pyproject.toml`
# installs no npm package, so a new JavaScript package below it is apart.
_ABOVE = {
    "js": (
        "package.json",
        "pnpm-workspace.yaml",
        "pnpm-workspace.yml",
        "lerna.json",
        "rush.json",
        "nx.json",
        "deno.json",
        "deno.jsonc",
        "package-lock.json",
        "npm-shrinkwrap.json",
        "pnpm-lock.yaml",
        "yarn.lock",
        "bun.lock",
        "bun.lockb",
    ),
    "python": ("pyproject.toml", "uv.lock", "poetry.lock", "pdm.lock", "pipfile.lock", "pipfile"),
    "rust": ("cargo.toml", "cargo.lock"),
    "go": ("go.work",),
}


def _above(path: str) -> tuple[str, ...]:
    """The globs of the files above that can read the new file `path`
    (`_ABOVE`): its ecosystem's, or every one's when its name is none's."""
    name = path.rpartition("/")[2].casefold()
    own = [names for names in _ABOVE.values() if name in names]
    picked = own or list(_ABOVE.values())
    return (*(f"**/{n}" for names in picked for n in names), *_JS_CONFIGS)


def apart(path: str, tree: BaseTree | None) -> bool:
    """Whether the new file `path` (a manifest, lock file or runner
    configuration) sits in a folder below the root that is absent at base,
    and no folder above it holds at base a file that can read it
    (`_above`): no existing test lies under it and nothing at base installs
    or collects it, so the test tools it declares or locks reach its own
    new tests only.  False when the tree does not say (a folder above not
    listed)."""
    folder = path.rpartition("/")[0]
    if not folder or tree is None or tree.folder(folder) != {}:
        return False
    readers = _above(path)
    above = folder
    while above:
        above = above.rpartition("/")[0]
        found = tree.folder(above)
        if found is None:
            return False
        for name, kind in found.items():
            child = f"{above}/{name}" if above else name
            if kind != "folder" and globs.matches(child, readers, globs.FOLDED):
                return False  # a file or a link by that name (a tool reads either)
    return True


def scoped(
    path: str, text: str | None, tree: BaseTree | None, tested: Callable[[str], bool]
) -> bool:
    """Whether the new configuration `path` (`NEW_FOLDER_FILES`, head text
    `text`) governs new tests only: its folder holds no test and no runner
    configuration at base (`untested`; at the root: the whole base holds
    none) and it names no place outside its folder (`stays_inside`)."""
    if text is None or not globs.matches(path, NEW_FOLDER_FILES, globs.FOLDED):
        return False
    folder = path.rpartition("/")[0]
    return untested(folder, tree, tested, root=True) and (not folder or stays_inside(path, text))


# The lists that name the files a runner collects, and the keys above them.
ENTRY_KEYS = frozenset({"include", "testMatch"})
CHAIN_KEYS = frozenset({"test", "projects"})
DEFINERS = frozenset({"defineConfig", "defineProject", "defineWorkspace"})
# Node types a collection list may sit in, up to the file's top.
_PASSING = frozenset(
    {"object", "arguments", "call_expression", "export_statement", "program", "pair", "array"}
)
_GLOB = re.compile(r"[*?\[\]{}()!+@]")
_JS_SUFFIXES = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
}


def _key(pair: Node, source: ParsedText) -> str | None:
    key = pair.child_by_field_name("key")
    if key is None:
        return None
    text = source.text(key)
    if key.type == "string":
        text = text[1:-1]
    return text


def _chain_ok(array: Node, source: ParsedText) -> bool:
    """Whether the list `array`, the value of an `include`/`testMatch`
    pair, sits under nothing but objects, `test`/`projects` keys, a
    `projects` list and a `defineConfig`-like call up to `export default`
    or `module.exports =`."""
    node = array.parent
    if node is None or node.type != "pair" or _key(node, source) not in ENTRY_KEYS:
        return False
    node = node.parent
    while node is not None and node.type != "program":
        kind = node.type
        if kind == "pair" and _key(node, source) not in CHAIN_KEYS:
            return False
        if kind == "array":
            above = node.parent
            if above is None or above.type != "pair" or _key(above, source) != "projects":
                return False
        if kind == "call_expression":
            called = node.child_by_field_name("function")
            if called is None or source.text(called) not in DEFINERS:
                return False
        if kind == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is None or source.text(left) != "module.exports":
                return False
        elif kind == "expression_statement":
            pass
        elif kind not in _PASSING:
            return False
        node = node.parent
    return node is not None


def _entry(node: Node, source: ParsedText) -> str | None:
    """A list element's literal path, or None (not a plain string, a glob,
    an escape, a path leaving the root)."""
    if node.type != "string" or any(c.type == "escape_sequence" for c in node.named_children):
        return None
    value = source.text(node)[1:-1].removeprefix("<rootDir>/")
    while value.startswith("./"):
        value = value[2:]
    parts = value.split("/")
    if not value or _GLOB.search(value) or value.startswith("/") or ".." in parts or "" in parts:
        return None
    return value


def _walk(node: Node) -> Iterator[Node]:
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        todo.extend(reversed(current.children))


def _leaves(source: ParsedText, skipped: Collection[tuple[int, int]]) -> list[str]:
    """The file's tokens (comments included) outside the `skipped` byte
    spans, a comma right before `]`, `}` or `)` dropped (a trailing comma
    changes no value)."""
    out: list[str] = []
    for node in _walk(source.root):
        if node.child_count or any(a <= node.start_byte and node.end_byte <= b for a, b in skipped):
            continue
        text = source.text(node)
        if text in ("]", "}", ")") and out and out[-1] == ",":
            out.pop()
        if text:
            out.append(text)
    return out


def config_grew(path: str, base: str, head: str, added: Callable[[str], bool]) -> bool:
    """Whether the Jest or Vitest configuration `path` (`GROWN_CONFIGS`)
    went from `base` to `head` only by new literal entries in collection
    lists, each naming, from the file's folder, a path `added` accepts
    (a test file the change adds): see the module docstring."""
    from gate.drift._treesitter import parse

    if not globs.matches(path, GROWN_CONFIGS, globs.FOLDED):
        return False
    suffix = "." + path.rsplit(".", 1)[-1].casefold()
    grammar = _JS_SUFFIXES.get(suffix)
    if grammar is None:
        return False
    try:
        old, new = parse(base, grammar), parse(head, grammar)
    except Unparsable:
        return False
    folder = path.rpartition("/")[0]
    skipped: list[tuple[int, int]] = []
    for node in _walk(new.root):
        if node.type != "array" or not _chain_ok(node, new):
            continue
        for element in node.named_children:
            value = _entry(element, new)
            if value is None or not added(f"{folder}/{value}" if folder else value):
                continue
            start, end = element.start_byte, element.end_byte
            after, before = element.next_sibling, element.prev_sibling
            if after is not None and after.type == ",":
                end = after.end_byte
            elif before is not None and before.type == ",":
                start = before.start_byte
            skipped.append((start, end))
    return bool(skipped) and _leaves(old, ()) == _leaves(new, skipped)


def _scripts(view: object) -> tuple[dict[str, Any], dict[str, str]] | None:
    """A package.json view without `scripts`, and its scripts (None: not an
    object, or scripts that are not all strings)."""
    rest = dict(view) if isinstance(view, dict) else {}
    scripts = rest.pop("scripts", {})
    if not isinstance(scripts, dict) or not all(isinstance(v, str) for v in scripts.values()):
        return None
    return rest, scripts


def _sides(
    keys: tuple[str, ...], base: str, head: str
) -> list[tuple[dict[str, Any], dict[str, str]]]:
    out = []
    for text in (base, head):
        try:
            got = _scripts(VIEWS["json"](keys, text))
        except Unreadable:
            return []
        if got is None:
            return []
        out.append(got)
    return out


def scripts_grew(keys: tuple[str, ...], base: str, head: str) -> bool:
    """Whether package.json's runner part (`keys`) went from `base` to
    `head` only by new scripts nothing runs by itself (module docstring)."""
    sides = _sides(keys, base, head)
    if not sides or sides[0][0] != sides[1][0]:
        return False
    old, new = sides[0][1], sides[1][1]
    if any(new.get(name) != command for name, command in old.items()):
        return False
    fresh = set(new) - set(old)
    automatic = {"test", "pretest", "posttest", *LIFECYCLE}
    automatic |= {f"{edge}{name}" for name in old for edge in ("pre", "post")}
    if fresh & automatic:
        return False
    return not any(script_calls(new[name], new) & fresh for name in old)


# Words that take a command out of its package's folder; the short flags
# only as a package manager's (`pnpm -r`, `npm -w x`; `shx cp -r` is not).
_LEAVING = frozenset(
    {
        "cd",
        "pushd",
        "--prefix",
        "--root",
        "--dir",
        "--cwd",
        "--workspace",
        "--workspaces",
        "--filter",
        "--recursive",
        "--global",
    }
)
_LEAVING_SHORT = frozenset({"-C", "-w", "-ws", "-F", "-r", "-g"})
_MANAGERS = frozenset({"npm", "pnpm", "yarn", "npx", "bun", "lerna", "nx", "turbo"})
# What a script an install runs may start: build tools that run no code of
# the change's own (`npm run` names another script, judged the same way).
_BUILDERS = frozenset({"tsc", "shx", "rimraf", "mkdirp", "mkdir", "chmod", "cp"})


def _commands(command: str) -> list[list[str]] | None:
    """`command` as its simple commands' words; None when it cannot be
    split (an unclosed quote) or expands anything (`$`, a backtick)."""
    if "$" in command or "`" in command:
        return None
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return None
    out: list[list[str]] = [[]]
    for word in words:
        if word and all(c in ";&|()<>" for c in word):
            out.append([])
        else:
            out[-1].append(word)
    return [c for c in out if c]


def _contained(command: str, install: bool, scripts: dict[str, str]) -> bool:
    commands = _commands(command)
    if commands is None:
        return False
    for words in commands:
        for word in words:
            flag = word.partition("=")[0]
            value = word.partition("=")[2] if word.startswith("-") else word
            parts = value.replace("\\", "/").split("/")
            short = flag in _LEAVING_SHORT and words[0] in _MANAGERS
            if flag in _LEAVING or short or ".." in parts or value.startswith(("/", "~")):
                return False
            if "node_modules" in parts:
                return False
        if not install:
            continue
        program, rest = words[0], words[1:]
        if program in ("npm", "pnpm", "yarn") and rest[:1] == ["run"] and len(rest) >= 2:
            if rest[1] not in scripts:
                return False
            continue
        if program not in _BUILDERS:
            return False
    return True


def scripts_contained(keys: tuple[str, ...], base: str, head: str) -> bool:
    """Whether package.json's runner part (`keys`) went from `base` to
    `head` only by scripts that stay in the package (module docstring); for
    a package whose folder holds no tests (`untested`)."""
    sides = _sides(keys, base, head)
    if not sides or _workspace_own(sides[0][0]) != _workspace_own(sides[1][0]):
        return False
    old, new = sides[0][1], sides[1][1]
    installed = _install(old)
    for name in sorted(chosen_scripts(old) | chosen_scripts(new)):
        command = new.get(name)
        if command is None:
            continue  # a script removed: nothing existing runs here
        install = name in _install(new)
        if command == old.get(name) and (not install or name in installed):
            continue
        if not _contained(command, install, new):
            return False
    return True


# A test package a workspace's own copy or catalog gives (pnpm, Yarn): the
# one the other packages get, installed for this package alone.
_WORKSPACE_SPECS = ('"workspace:', '"catalog:')


def _workspace_own(rest: dict[str, Any]) -> dict[str, Any]:
    """A package.json view without the test packages it takes from the
    workspace (`workspace:`, `catalog:`)."""
    taken = rest.get(ELSEWHERE)
    if not isinstance(taken, dict):
        return rest
    kept = {k: v for k, v in taken.items() if not str(v).startswith(_WORKSPACE_SPECS)}
    out = {k: v for k, v in rest.items() if k != ELSEWHERE}
    return out | ({ELSEWHERE: kept} if kept else {})


def _install(scripts: dict[str, str]) -> set[str]:
    """The scripts an install runs: the lifecycle ones and those they name."""
    found: set[str] = set()
    todo = [n for n in LIFECYCLE if n in scripts]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(script_calls(scripts[name], scripts))
    return found


def untested(
    folder: str, tree: BaseTree | None, tested: Callable[[str], bool], *, root: bool = False
) -> bool:
    """Whether the base folder `folder` (the root only when `root`) holds
    no file `tested` accepts (a test file, a runner configuration) at any
    depth, or is absent at base; False when the tree does not say (a
    folder not listed, a submodule, a symlink)."""
    if (not folder and not root) or tree is None:
        return False
    found = tree.folder(folder)
    if found is None:
        return False
    todo = [folder] if found else []
    while todo:
        current = todo.pop()
        children = tree.children(current)
        if children is None:
            return False
        for name, kind in children.items():
            path = f"{current}/{name}" if current else name
            if kind == "folder":
                todo.append(path)
            elif kind == "link" or tested(path):
                return False
    return True


# --- What a root Jest or Vitest configuration collects ------------------
#
# The root configuration files whose literal collection globs the rule
# reads at base (`gate.drift.collected.js_collects`): Vitest's `test.include`
# (relative to the root) and Jest's `testMatch` (`<rootDir>/...` or
# `**/...`; Jest matches the absolute path).
# Only the common spellings: a source that pays per request (the contents
# API) asks for each of these on every change.
ROOT_CONFIGS = (
    "vitest.config.ts",
    "vitest.config.mts",
    "vitest.config.js",
    "vitest.config.mjs",
    "jest.config.js",
    "jest.config.ts",
)
# Keys that move where the runner looks or what it skips: with one, the
# gate does not guess (the default names decide).
_VITEST_MOVERS = frozenset({"exclude", "root", "dir", "projects", "workspace", "includeSource"})
_JEST_MOVERS = frozenset(
    {"roots", "rootDir", "testPathIgnorePatterns", "projects", "testRegex", "preset"}
)


def _object_pairs(node: Node, source: ParsedText) -> dict[str, Node] | None:
    """An object literal's keys -> value nodes; None when it spreads or
    computes a key (what it holds is then unknown)."""
    if node.type != "object":
        return None
    out: dict[str, Node] = {}
    for child in node.named_children:
        if child.type == "comment":
            continue
        if child.type != "pair":
            return None  # a spread, a method, a shorthand property
        name, value = child.child_by_field_name("key"), child.child_by_field_name("value")
        key = _key(child, source)
        if name is None or name.type == "computed_property_name" or key is None or value is None:
            return None
        out[key] = value
    return out


def _exported(source: ParsedText) -> Node | None:
    """The object a configuration file exports: `export default {...}`,
    `export default defineConfig({...})` or `module.exports = {...}`."""
    for statement in source.root.named_children:
        value: Node | None = None
        if statement.type == "export_statement":
            value = statement.child_by_field_name("value")
        elif statement.type == "expression_statement" and statement.named_children:
            expression = statement.named_children[0]
            if expression.type == "assignment_expression":
                left = expression.child_by_field_name("left")
                if left is not None and source.text(left) == "module.exports":
                    value = expression.child_by_field_name("right")
        if value is None:
            continue
        if value.type == "call_expression":
            called = value.child_by_field_name("function")
            arguments = value.child_by_field_name("arguments")
            if called is None or source.text(called) not in DEFINERS or arguments is None:
                return None
            found = [a for a in arguments.named_children if a.type != "comment"]
            value = found[0] if len(found) == 1 else None
        return value if value is not None and value.type == "object" else None
    return None


def collection_globs(path: str, text: str) -> tuple[str, ...] | None:
    """The literal globs the root configuration `path` (`ROOT_CONFIGS`)
    collects test files by, relative to the root: Vitest's `test.include`,
    Jest's `testMatch` (`<rootDir>/` stripped; `**/...` as written).  None
    when it sets none, when any of it is computed (a spread, a variable, a
    template), or when it also moves where the runner looks or what it
    skips (`exclude`, `root`, `projects`, `roots`, `testPathIgnorePatterns`,
    `testRegex`, `preset`, ...): the default names decide then."""
    from gate.drift._treesitter import parse

    grammar = _JS_SUFFIXES.get("." + path.rsplit(".", 1)[-1].casefold())
    if grammar is None:
        return None
    try:
        source = parse(text, grammar)
    except Unparsable:
        return None
    top = _exported(source)
    pairs = _object_pairs(top, source) if top is not None else None
    if pairs is None:
        return None
    if path.startswith("vitest."):
        if "root" in pairs or "test" not in pairs:
            return None
        pairs = _object_pairs(pairs["test"], source)
        if pairs is None or pairs.keys() & _VITEST_MOVERS:
            return None
        listed = pairs.get("include")
    else:
        if pairs.keys() & _JEST_MOVERS:
            return None
        listed = pairs.get("testMatch")
    if listed is None or listed.type != "array":
        return None
    out: list[str] = []
    for element in listed.named_children:
        if element.type == "comment":
            continue
        if element.type != "string" or any(
            c.type == "escape_sequence" for c in element.named_children
        ):
            return None
        value = source.text(element)[1:-1]
        if path.startswith("jest."):
            if value.startswith("<rootDir>/"):
                value = value.removeprefix("<rootDir>/")
            elif not value.startswith("**/"):
                continue  # matched against the absolute path: collects nothing here
        out.append(value.removeprefix("./"))
    return tuple(out) or None
