"""A Python test file's top-level statements split once and their units
kept for the file's later versions (`gate.drift.python.splitter`'s
`Splitter.statement`): the module context a statement was split under
(`Context`), the kept units by the statement's node (`statements`), and a
kept unit moved to where its statement now starts (`moved`)."""

from __future__ import annotations

import ast
from collections import OrderedDict
from dataclasses import dataclass

from gate.drift import Unit


@dataclass(frozen=True)
class Context:
    """What the module tells the split of each of its statements
    (`Splitter`'s fields of the same names): `whole`, what a statement's
    split may read any of (whether every string's words are uses, a star
    import, `known_callees`), and the rest, which it reads only name by
    name, each name one its code spells as a plain name (an `ast.Name`,
    or `__name__`): `trusted`, `aliases`, `local`, `imported` and
    `origins` (as its items)."""

    whole: tuple[object, ...]
    trusted: frozenset[str]
    aliases: frozenset[str]
    local: frozenset[str]
    imported: frozenset[str]
    origins: frozenset[tuple[str, str]]

    def changed(self, other: Context) -> frozenset[str] | None:
        """The names `other` tells otherwise; None where their `whole` differs."""
        if self.whole != other.whole:
            return None
        names = {n for n, _ in self.origins ^ other.origins}
        names.update(self.trusted ^ other.trusted, self.aliases ^ other.aliases)
        names.update(self.local ^ other.local, self.imported ^ other.imported)
        return frozenset(names)


# A top-level statement's units as the splitter made them, by the
# statement's node (`parse_module` hands a file's next version the same
# node for the same text), with what they were made under: the module's
# context (`Splitter.context`) and the statement's own part of it
# (`Splitter.made_under`), and its first line.  Kept beside the node, not on
# it: a unit's `same` and `tokens` hold the node, and a cycle frozen by
# `gc.freeze` is never freed.  The last statements' are kept.
KEPT_STATEMENTS = 60_000
# id(node) -> (node, context, made_under, first line, (unit, scope)s, a name says the line)
statements: OrderedDict[
    int,
    tuple[ast.stmt, Context, tuple[object, ...], int, list[tuple[Unit, str | None]], bool],
] = OrderedDict()


def first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def moved(unit: Unit, by: int) -> Unit:
    """`unit` of a statement that moved `by` lines (`Splitter.statement`)."""
    moved = object.__new__(Unit)
    moved.__dict__.update(unit.__dict__)
    moved.__dict__["line"] = unit.line + by
    return moved
