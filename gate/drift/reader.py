"""What a language's package gives the engine (`Reader`), apart from the
table of languages (`gate.drift.language`), which imports each package on
first use: a package imports this module, never the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gate.drift import Unit
    from gate.model.change import BaseTree


@dataclass(frozen=True)
class Reader:
    """What a language's package gives the engine.

    `units(text, suffix)`: the file's units (`suffix` the path's, `.tsx`,
    for a package that reads several grammars), raising `Unparsable`.
    `reaches(unit)`: whether a COLLECTION unit of a new file changes what
    the tests of other files see (None: every one does).
    `isolated(path, units, others)`: whether the new file's load-time code
    runs where no other file's tests do (`others`: the texts of the
    change's other files that may load it, None when unknown).
    `apart(path, tree)`: whether no test of the base runs beside the new
    file (`tree`: the base tree's layout).
    `own_registry(path, units, others, configs)`: whether the runner gives
    the new file a module registry of its own (Jest, Vitest), so that a
    unit that writes nothing outside the file (`Unit.local`) reaches
    nothing (`configs`: the base texts of the files `near(path)` names,
    None when not all are known).
    `near(path)`: the base files whose texts `own_registry` reads for the
    new file `path` (the runner configuration that may turn its per-file
    isolation off).
    `own_env(path, units, others, configs)`, asked where `own_registry`
    holds: whether the runner gives the new file a `process.env` of its own
    too (Jest), so that a unit whose only writes outside the file go into
    it (`Unit.env_local`) reaches nothing.
    `pair(base, head, suffix)`: the units of a modified file's two
    versions when `units` refuses one for a syntax error the grammar can
    repair, each repaired statement one unit of its exact text, raising
    `Unparsable` where a repair could hide a change.
    `script(path, units, text)`: whether a NEW file that no runner collects
    by its default names is a script run by hand (a command line's entry
    point, registering no test, hook or export), whose load-time code then
    runs under no runner (`gate.drift.judging.new_module` asks too that no
    other file of the change names it)."""

    units: Callable[[str, str], tuple[Unit, ...]]
    reaches: Callable[[Unit], bool] | None = None
    isolated: Callable[[str, Sequence[Unit], Sequence[str] | None], bool] | None = None
    apart: Callable[[str, BaseTree], bool] | None = None
    own_registry: (
        Callable[[str, Sequence[Unit], Sequence[str] | None, Mapping[str, str | None] | None], bool]
        | None
    ) = None
    own_env: (
        Callable[[str, Sequence[Unit], Sequence[str] | None, Mapping[str, str | None] | None], bool]
        | None
    ) = None
    near: Callable[[str], tuple[str, ...]] | None = None
    pair: Callable[[str, str, str], tuple[tuple[Unit, ...], tuple[Unit, ...]]] | None = None
    script: Callable[[str, Sequence[Unit], str], bool] | None = None
    grew: Callable[[str, str, str, Mapping[str, str], bool], tuple[str, ...] | None] | None = None
