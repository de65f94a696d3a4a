"""The languages `test_drift` reads test files of, in one explicit table.

Each language is a `Language`: its name, the path suffixes it reads, and
`load`, which imports its package on first use and returns the package's
`Reader` (`gate.drift.reader`; so tree-sitter and the grammars load only when a JS/TS, Go, Java,
C#, Rust, Kotlin or Ruby file is split).  A `Reader` holds every hook the engine calls, typed; a
hook a language has no use for is None.  `LANGUAGES` is the table the
engine reads (`gate.drift.units_for`, `gate.drift.reaching`), the way
`gate.rules.MODULES` registers the rule kinds: a new language is one
package with a `READER` and one row here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gate.drift.reader import Reader


@dataclass(frozen=True)
class Language:
    """One language family the engine splits test files of: `name`, the
    `suffixes` it reads (lower case, with the dot), and `load`, which
    imports its package and returns its `Reader` (raising ImportError when
    the package, or the parser it needs, is not installed)."""

    name: str
    suffixes: tuple[str, ...]
    load: Callable[[], Reader]


def _python() -> Reader:
    from gate.drift.python.units import READER

    return READER


def _js() -> Reader:
    from gate.drift.js import READER

    return READER


def _go() -> Reader:
    from gate.drift.go import READER

    return READER


def _java() -> Reader:
    from gate.drift.java import READER

    return READER


def _csharp() -> Reader:
    from gate.drift.csharp import READER

    return READER


def _rust() -> Reader:
    from gate.drift.rust import READER

    return READER


def _kotlin() -> Reader:
    from gate.drift.kotlin import READER

    return READER


def _ruby() -> Reader:
    from gate.drift.ruby import READER

    return READER


PYTHON = Language("python", (".py",), _python)
JS = Language("js", (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"), _js)
GO = Language("go", (".go",), _go)
JAVA = Language("java", (".java",), _java)
CSHARP = Language("csharp", (".cs",), _csharp)
RUST = Language("rust", (".rs",), _rust)
# `.kt` alone: a `.kts` file is a script (Gradle's build files), no test module.
KOTLIN = Language("kotlin", (".kt",), _kotlin)
RUBY = Language("ruby", (".rb",), _ruby)

# The languages, in the order they are documented.
LANGUAGES: tuple[Language, ...] = (PYTHON, JS, GO, JAVA, CSHARP, RUST, KOTLIN, RUBY)

# Suffix -> the language that reads such files.
BY_SUFFIX: Mapping[str, Language] = MappingProxyType(
    {s: language for language in LANGUAGES for s in language.suffixes}
)
