"""Spell-check word lists `gate init` finds in a repository's tree: the
budgets (`FILES`, `LINES`) leave them out, as they do generated files
(`gate.starter.unreviewed` writes them as one group).  A word list is a
sorted column of words nobody reviews line by line, and a change that moves
a repository's spell-check configuration touches dozens of them.

Found, each only where the tool's own configuration is in the tree:

* **cspell** (https://cspell.org/configuration/): its configuration files
  (`cspell.json`, `.cspell.json`, `cSpell.json`, `cspell.yaml`,
  `cspell.yml`, `cspell.config.*`, `.vscode/cspell.json`: a list of words,
  paths to ignore and dictionaries, at any depth), and the dictionary files
  a configuration names (`dictionaryDefinitions: [{path: ./words.txt}]`),
  resolved from the configuration's folder.
* **codespell** (https://github.com/codespell-project/codespell): the
  `ignore-words` file a `.codespellrc`, `setup.cfg`, `tox.ini` or
  `pyproject.toml` names (not `ignore-words-list`, which is inline), the
  `.codespellrc` itself, and the ignore files named for codespell
  (`.codespellignore`, `.codespell-ignore`, `codespell-ignore.txt`, ...).
* **Vale** (https://vale.sh/docs/keys/vocab): `accept.txt` and
  `reject.txt` of a vocabulary (`<styles>/config/vocabularies/NAME/`, or
  the older `<styles>/Vocab/NAME/`) when a `.vale.ini` is in the tree.
* **pyspelling** (https://facelessuser.github.io/pyspelling/configuration/):
  the word lists (`.txt`) its configuration (`.pyspelling.yml`,
  `.spellcheck.yml`, ...) names, resolved from its folder or the root.

A dictionary a configuration names counts unless it is a word file
(`DICTIONARY_SUFFIXES`): a configuration pointing at code changes nothing.
A file merely named `words.txt` or `wordlist.txt`, with no configuration
naming it, counts.  Configurations are read up to `CONFIG_BYTES`, so a
dictionary named past that counts.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from gate.base.text import decode
from gate.git.repo import Repo

CONFIG_BYTES = 16384  # how much of each configuration is read
DICTIONARY_SUFFIXES = (".txt", ".dic", ".dict")

_CSPELL = re.compile(r"\A\.?c[sS]pell(?:\.config)?\.(?:jsonc?|ya?ml|[cm]?js|[cm]?ts|toml)\Z")
_CODESPELL_CONFIGS = frozenset((".codespellrc", "setup.cfg", "tox.ini", "pyproject.toml"))
_CODESPELL_LISTS = frozenset(
    (
        ".codespellignore",
        ".codespell-ignore",
        ".codespell-ignore.txt",
        "codespell-ignore.txt",
        ".codespell-ignore-words",
        "codespell-ignore-words.txt",
        ".codespell-ignore-words.txt",
    )
)
_VALE_CONFIGS = frozenset((".vale.ini", "_vale.ini", "vale.ini"))
_VALE_LIST = re.compile(r"(?:\A|/)(?:config/vocabularies|Vocab)/[^/]+/(?:accept|reject)\.txt\Z")
_PYSPELLING = re.compile(r"\A\.?(?:pyspelling|spellcheck)\.ya?ml\Z")
# `path: ./words.txt`, `"path": "words.txt"` (cspell's dictionaryDefinitions)
_CSPELL_PATH = re.compile(r"""["']?\bpath["']?\s*[:=]\s*["']?([^"'\s,}\]]+)""")
# `ignore-words = .codespell-words` (not ignore-words-list)
_CODESPELL_PATH = re.compile(
    r"""^\s*["']?ignore[-_]words["']?\s*[:=]\s*["']?([^"'\s,]+)""", re.MULTILINE
)
_PYSPELLING_PATH = re.compile(r"""^\s*-\s*["']?([^"'\s]+\.txt)["']?\s*$""", re.MULTILINE)


def _name(path: str) -> str:
    return path.rpartition("/")[2]


def _resolve(folder: str, named: str, present: set[str]) -> str | None:
    """`named` (a path a configuration in `folder` gives) as a path of the
    tree, when it is a word file there; None otherwise."""
    if named.startswith(("/", "$", "~", "http:", "https:")) or "://" in named:
        return None
    joined = posixpath.normpath(posixpath.join(folder, named)) if folder else named
    joined = posixpath.normpath(joined)
    if joined.startswith("../") or joined == "..":
        return None
    if joined in present and joined.endswith(DICTIONARY_SUFFIXES):
        return joined
    return None


def find(repo: Repo, rev: str, tree: Sequence[str]) -> set[str]:
    """The spell-check word lists and cspell configurations of `tree` (the
    paths at `rev`)."""
    present = set(tree)
    found: set[str] = set()
    cspell = [p for p in tree if _CSPELL.match(_name(p))]
    codespell = [p for p in tree if _name(p) in _CODESPELL_CONFIGS]
    pyspelling = [p for p in tree if _PYSPELLING.match(_name(p))]
    found.update(cspell)
    found.update(p for p in tree if _name(p) in _CODESPELL_LISTS)
    found.update(p for p in codespell if _name(p) == ".codespellrc")
    if any(_name(p) in _VALE_CONFIGS for p in tree):
        found.update(p for p in tree if _VALE_LIST.search(p))
    heads = repo.read_heads(rev, [*cspell, *codespell, *pyspelling], CONFIG_BYTES)
    readers = [(cspell, _CSPELL_PATH), (codespell, _CODESPELL_PATH), (pyspelling, _PYSPELLING_PATH)]
    for configs, shape in readers:
        for config in configs:
            data = heads.get(config)
            if data is None or b"\0" in data:
                continue
            folder = config.rpartition("/")[0]
            for named in shape.findall(decode(data)):
                for base in dict.fromkeys((folder, "")):
                    if (hit := _resolve(base, named, present)) is not None:
                        found.add(hit)
                        break
    return found
