"""A module's statements as units, each with its role (`Splitter`): a
test class split into its members, one unit per imported name, the
collection-time code among functions, classes and simple statements (by
`calls_at_import`, `is_harmless`, `is_fixture`, `shares_state`), a name
bound twice made COLLECTION with its key numbered; and the classes pytest
and unittest collect (`collected_classes`)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from gate.drift import CASE, COLLECTION, SUPPORT, Unit
from gate.drift.python.calls import calls_at_import, impure_calls, named_callees, pure_call
from gate.drift.python.cases import case_tokens
from gate.drift.python.decorators import fixture_names, is_fixture, is_harmless
from gate.drift.python.kept import KEPT_STATEMENTS, Context, first_line, moved, statements
from gate.drift.python.parsed import settle
from gate.drift.python.same import decorators_form, def_form, def_unadded, handed, pytest_decorator
from gate.drift.python.scopes import uses_of, words_of
from gate.drift.python.shared import shares_state
from gate.drift.python.tree import Walked, chain_root, dotted, dump, target_names

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# unittest's test case classes, by what the module imports them as.
_TEST_CASES = frozenset({"unittest.TestCase", "unittest.IsolatedAsyncioTestCase"})
# What an import guard (`Splitter.import_guard`) may catch.
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
# Module-level functions pytest or unittest call around a module's tests.
MODULE_AROUND = frozenset(
    {
        "setup_module",
        "teardown_module",
        "setup_function",
        "teardown_function",
        "setUpModule",
        "tearDownModule",
        "setup",
        "teardown",
        "load_tests",
    }
)


def collected_classes(body: list[ast.stmt]) -> frozenset[str]:
    """The classes of `body` pytest or unittest collect: `Test*`, a
    `...TestCase` subclass, or a subclass of one of those in the same file."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in body:
            if not isinstance(node, ast.ClassDef) or node.name in found:
                continue
            bases = [dotted(b).rsplit(".", 1)[-1] for b in node.bases]
            if (
                node.name.startswith("Test")
                or any(b.endswith("TestCase") for b in bases)
                or any(b in found for b in bases)
            ):
                found.add(node.name)
                changed = True
    return frozenset(found)


def _special_import(node: ast.Import | ast.ImportFrom) -> bool:
    """A star import (binds names nobody can list) or a `__future__` import
    (changes how every line compiles): one COLLECTION unit, not one a name."""
    if isinstance(node, ast.Import):
        return False
    return node.module == "__future__" or any(a.name == "*" for a in node.names)


def _bound(node: ast.stmt) -> tuple[str, ...]:
    """Plain names a simple statement binds (imports, assignments to names)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return tuple((a.asname or a.name).split(".")[0] for a in node.names)
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    out: list[str] = []
    for target in targets:
        out.extend(target_names(target))
    return tuple(out)


def _plain_targets(node: ast.Assign | ast.AnnAssign) -> bool:
    """Every target is a name (or a tuple of names), none an attribute or item."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]

    def plain(t: ast.expr) -> bool:
        if isinstance(t, ast.Name):
            return True
        if isinstance(t, (ast.Tuple, ast.List)):
            return all(plain(e) for e in t.elts)
        if isinstance(t, ast.Starred):
            return plain(t.value)
        return False

    return all(plain(t) for t in targets)


def _type_checking_imports(node: ast.If, origins: Mapping[str, str], star: bool) -> bool:
    """Whether `node` is `if TYPE_CHECKING:` (or `if typing.TYPE_CHECKING:`,
    the name imported from `typing` or `typing_extensions` and bound by
    nothing else: `import_origins`) holding only plain imports, with no
    `else`: the block never runs, and if it did it would only import.  In
    a file with a star import (`star`: it may rebind the name) it is not."""
    test = node.test
    if isinstance(test, ast.Name):
        origin = origins.get(test.id)
    elif isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name):
        module = origins.get(test.value.id)
        origin = f"{module}.{test.attr}" if module is not None else None
    else:
        return False
    if origin not in ("typing.TYPE_CHECKING", "typing_extensions.TYPE_CHECKING"):
        return False
    if node.orelse or star:
        return False
    return all(
        isinstance(s, (ast.Import, ast.ImportFrom)) and not _special_import(s) for s in node.body
    )


def _drop(module: str, name: str) -> str:
    """`Unit.drop` of an import of `name` from `module` ("" for `import
    module`): "*" for a standard-library module, whose import does nothing
    a test relies on; for `from module import Name`, a name with a capital
    (a class or constant: PEP 8 names modules in lower case, and importing
    a submodule runs its code), `module`, which must stay imported; else ""
    (`import tests.plugin`, `from tests import plugin`: maybe imported for
    what importing it does)."""
    if module.split(".")[0] in sys.stdlib_module_names:
        return "*"
    if name and any(c.isupper() for c in name):
        return module
    return ""


class Splitter:
    def __init__(self, text_lines: list[str]) -> None:
        self.lines = text_lines
        self.out: list[Unit] = []
        self.keys: set[str] = set()
        # scope ("" module, else class) -> each name bound there -> the
        # modules its binders bind it to ("" for anything but `import a`)
        self.bound: dict[str, dict[str, set[str]]] = {}
        self.trusted: frozenset[str] = frozenset()  # `trusted_names` of the module
        self.every_string = False  # `introspects`: every string's identifiers are uses
        self.docstring: ast.stmt | None = None  # `prose_docstring` of the module
        self.origins: dict[str, str] = {}  # `import_origins` of the module
        self.aliases: frozenset[str] = frozenset()  # `mark_aliases` of the module
        self.imported: frozenset[str] = frozenset()  # `imported_names` of the module
        self.local: frozenset[str] = frozenset()  # `file_names` of the module
        self.walked = Walked()  # each statement's nodes, walked once
        self.star = False  # the module has a star import somewhere
        self.known: dict[str, str] = {}  # `known_callees` of the module
        self.sharing: dict[int, tuple[str, ...]] = {}  # `sharing_defs` of the module
        # the module reads no annotations (`same.reads_annotations`, `introspects`)
        self.unread = False
        self.handed: frozenset[str] = frozenset()  # `same.handed_names` of the module
        self.body: list[ast.stmt] = []  # the module's statements
        # Everything above that a statement's units are made from, equal
        # (the same object: `units` keeps one per value) across versions
        # that agree on it; None: statements are split anew.
        self.context: Context | None = None
        # a context statements were split under -> the names it tells
        # otherwise than `context` (None: it differs in whole)
        self._changed: dict[Context, frozenset[str] | None] = {}
        self._made: list[tuple[Unit, str | None]] | None = None  # what `add` is handed

    def shares(self, node: ast.stmt, nodes: list[ast.AST]) -> bool:
        """`shares_state`, or for a def of the module (a function, a class, a
        method) `sharing_defs`: it also counts calling a helper that does."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return id(node) in self.sharing
        return shares_state(node, nodes, self.known)

    def reached(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...] | None:
        """None when the def shares no state (`sharing_defs`), () when its own
        code does, else the sharing defs of the file it refers to."""
        return self.sharing.get(id(node))

    def harmless(self, deco: ast.expr) -> bool:
        return is_harmless(deco, self.trusted, self.origins, self.aliases)

    def calls(self, node: ast.AST) -> bool:
        return calls_at_import(node, self.origins)

    def made_calls(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...] | None:
        """The callees (`named_callees`) of what a def runs when the module
        is imported but for its decorators' own calls: the impure calls in
        its defaults and in the arguments of its decorators, all known
        marks or wrappers (`is_harmless` by name); None when a decorator is
        none of those or a callee is not another module's callable."""
        if not all(is_harmless(d, self.trusted, None, self.aliases) for d in node.decorator_list):
            return None
        regions: list[ast.AST] = [node]
        for deco in node.decorator_list:
            if isinstance(deco, ast.Call):
                regions.extend((*deco.args, *deco.keywords))
        return self.callees([c for region in regions for c in impure_calls(region)])

    def callees(self, every: list[ast.Call]) -> tuple[str, ...] | None:
        """The callees (`named_callees`) of the impure calls among `every`
        call made; None when one is a method of what such a call made
        (`Part(1).install()`: its code too) or `named_callees` refuses."""
        impure = [c for c in every if not pure_call(c, self.origins)]
        made = {id(c) for c in impure}
        if any(
            isinstance(c.func, ast.Attribute)
            and isinstance(root := chain_root(c.func.value), ast.Call)
            and id(root) in made
            for c in every
        ):
            return None
        return named_callees(impure, self.origins, self.imported, self.local)

    def code(self, first: int, last: int) -> str:
        return "".join(self.lines[first - 1 : last])

    def add(self, unit: Unit, scope: str | None = None) -> None:
        if self._made is not None:
            self._made.append((unit, scope))
        key = unit.key
        n = 1
        while key in self.keys:
            n += 1
            key = f"{unit.key}#{n}"
        role = unit.role
        if scope is not None:
            seen = self.bound.setdefault(scope, {})
            # `import a.c` after `import a` binds `a` to the same module
            if any(n in seen and seen[n] | {unit.module} != {n} for n in unit.binds):
                role = COLLECTION  # replaces a name bound earlier in this version
            for bound in unit.binds:
                seen.setdefault(bound, set()).add(unit.module)
        self.keys.add(key)
        if key != unit.key or role != unit.role or unit.uses is None:
            uses = unit.uses if unit.uses is not None else ()
            unit = replace(unit, key=key, role=role, uses=uses)
        self.out.append(unit)

    def unit(
        self,
        node: ast.stmt,
        key: str,
        name: str,
        role: str,
        binds: tuple[str, ...] = (),
        parent: str = "",
        nodes: list[ast.AST] | None = None,
        in_class: bool = False,
        unread: bool | None = None,
    ) -> Unit:
        """The unit of all of `node`'s code (`in_class`: a statement of a
        class body, `uses_of`; `unread`: nothing reads a def's annotations
        there, `same.def_form`, by default where the module reads none)."""
        first = first_line(node)
        if isinstance(node, _DEFS):
            quiet = self.unread if unread is None else unread
            quiet = quiet and not handed(node, self.pytest_origins(), self.handed)
            same = _def_syntax(node, self.pytest_origins(), quiet)
            unadded = def_unadded(node, self.pytest_origins(), quiet)
        else:
            same, unadded = _syntax(node), None
        last = node.end_lineno or node.lineno
        return Unit(
            key=key,
            name=name,
            role=role,
            code=self.code(first, last),
            binds=binds,
            line=first,
            parent=parent,
            uses=uses_of(node, nodes, every_string=self.every_string, in_class=in_class),
            words=words_of(node, nodes, every_string=self.every_string, in_class=in_class),
            same=same,
            unadded=unadded,
            tokens=case_tokens(node, self.origins) if isinstance(node, _DEFS) else None,
        )

    def pytest_origins(self) -> Mapping[str, str]:
        """`import_origins` as `same` reads a decorator's by: none where a
        star import may rebind any name."""
        return {} if self.star else self.origins

    def plain_class(self, node: ast.ClassDef, seen: set[str]) -> bool:
        """Whether making the class reads none of its methods' annotations:
        no decorator but pytest's (`pytest_decorator`), no keyword (a
        metaclass), no `__init_subclass__`, and bases that are unittest's
        test cases (by `import_origins`) or classes the file defines once
        that are plain too."""
        if node.name in seen or node.keywords:
            return False
        seen.add(node.name)
        if not all(pytest_decorator(d, self.origins) for d in node.decorator_list):
            return False
        if any(isinstance(m, _DEFS) and m.name == "__init_subclass__" for m in node.body):
            return False
        for base in node.bases:
            name = dotted(base)
            root, _, rest = name.partition(".")
            origin = self.origins.get(root) if isinstance(base, (ast.Name, ast.Attribute)) else None
            if origin is not None and (f"{origin}.{rest}" if rest else origin) in _TEST_CASES:
                continue
            binders = [n for n in self.body if any(b == name for b, _ in self.walked.binds(n))]
            if (
                not isinstance(base, ast.Name)
                or len(binders) != 1
                or not isinstance(binders[0], ast.ClassDef)
                or binders[0].name != name
                or not self.plain_class(binders[0], seen)
            ):
                return False
        return True

    def statement(self, node: ast.stmt, test_classes: frozenset[str]) -> None:
        """Add the units of the top-level statement `node`: those made for
        the same node under a context that agrees on every name it spells
        (`kept.statements`, `agrees`), moved to where it now starts, else made anew
        (`split`)."""
        if self.context is None:
            settle(node)
            self.split(node, test_classes)
            return
        under = self.made_under(node, test_classes)
        first = first_line(node)
        held = statements.get(id(node))
        if (
            held is not None
            and held[2] == under
            and (held[3] == first or not held[5])
            and self.agrees(held[1], node)
        ):
            statements.move_to_end(id(node))
            if held[1] is not self.context:
                statements[id(node)] = (node, self.context, *held[2:])
            by = first - held[3]
            for unit, scope in held[4]:
                self.add(unit if not by else moved(unit, by), scope)
            return
        settle(node)  # its line numbers are read below
        made: list[tuple[Unit, str | None]] = []
        self._made = made
        try:
            self.split(node, test_classes)
        finally:
            self._made = None
        made = [(unit if unit.uses is not None else replace(unit, uses=()), s) for unit, s in made]
        named = any(" line " in unit.name for unit, _ in made)
        statements[id(node)] = (node, self.context, under, first, made, named)
        statements.move_to_end(id(node))
        if len(statements) > KEPT_STATEMENTS:
            statements.popitem(last=False)

    def agrees(self, context: Context, node: ast.stmt) -> bool:
        """Whether the module context `context` tells the split of `node`
        what this version's does: the same in whole (`Context.whole`), and
        the same of each plain name `node` spells (`Context.changed`)."""
        if context is self.context or self.context is None:
            return context is self.context
        if context not in self._changed:
            self._changed[context] = self.context.changed(context)
        changed = self._changed[context]
        if changed is None:
            return False
        spelled: frozenset[str] | None = node.__dict__.get("_gate_spelled")
        if spelled is None:
            found = {n.id for n in self.walked.of(node) if isinstance(n, ast.Name)}
            spelled = node.__dict__["_gate_spelled"] = frozenset(found | {"__name__"})
        return spelled.isdisjoint(changed)

    def made_under(self, node: ast.stmt, test_classes: frozenset[str]) -> tuple[object, ...]:
        """What of the module's parts but `context` the units of `node`
        depend on: whether it is a test class, the module docstring, and
        for a def or a class, what `sharing_defs` says of it and its methods,
        and for a class whether its methods' annotations go unread
        (`plain_class`, which reads the file's other classes)."""
        if isinstance(node, ast.ClassDef):
            methods = tuple(self.sharing.get(id(m)) for m in node.body if isinstance(m, _DEFS))
            # whether its methods' annotations go unread reads the classes it derives from
            unread = self.unread and self.plain_class(node, set())
            passed = tuple(m.name in self.handed for m in node.body if isinstance(m, _DEFS))
            return (node.name in test_classes, self.sharing.get(id(node)), methods, unread, passed)
        if isinstance(node, _DEFS):
            return (self.sharing.get(id(node)), node.name in self.handed)
        return (node is self.docstring,)

    def split(self, node: ast.stmt, test_classes: frozenset[str]) -> None:
        if isinstance(node, ast.ClassDef) and node.name in test_classes:
            self.test_class(node)
            return
        nodes = self.walked.of(node)  # walked once, read by every check
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            role, but_for, calls = _function_role(node, nodes, self)
            binds = (node.name, *fixture_names(node))
            unit = self.unit(node, f"function {node.name}", node.name, role, binds, "", nodes)
            test = node.name.startswith("test") and not is_fixture(node, self.trusted)[0]
            self.add(replace(unit, quiet=but_for, calls=calls, test=test), "")
        elif isinstance(node, ast.ClassDef):
            quiet = all(self.harmless(d) for d in node.decorator_list)
            quiet = quiet and not self.shares(node, nodes) and not self.calls(node)
            role = SUPPORT if quiet else COLLECTION
            unit = self.unit(node, f"class {node.name}", node.name, role, (node.name,), "", nodes)
            self.add(unit, "")
        else:
            self.simple(node, nodes)

    def simple(self, node: ast.stmt, nodes: list[ast.AST]) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not _special_import(node):
            self.imports(node)
            return
        if isinstance(node, ast.Try) and self.import_guard(node):
            return
        binds = _bound(node)
        text = self.code(first_line(node), node.end_lineno or node.lineno)
        role = COLLECTION
        quiet, calls = "", None
        if isinstance(node, ast.Import):
            role = SUPPORT
        elif isinstance(node, ast.ImportFrom):
            star = any(a.name == "*" for a in node.names)
            role = COLLECTION if star or node.module == "__future__" else SUPPORT
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            plain = _plain_targets(node) and "pytestmark" not in binds
            plain = plain and "pytest_plugins" not in binds and "collect_ignore" not in binds
            plain = plain and not any(n.startswith("collect_ignore") for n in binds)
            role = SUPPORT if plain and not self.calls(node) else COLLECTION
            if plain and role == COLLECTION and node.value is not None:
                calls = self.value_calls(node.value)
                quiet = SUPPORT if calls else ""
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            role = SUPPORT  # a docstring or a bare constant runs nothing
        elif isinstance(node, ast.If) and _type_checking_imports(node, self.origins, self.star):
            role = SUPPORT  # never runs; were it to, it would only import
        elif isinstance(node, ast.If) and self.main_guard(node):
            role = SUPPORT  # never runs under a runner, whatever it holds
            nodes = []
        if (role == SUPPORT or quiet) and self.shares(node, nodes):
            role, quiet, calls = COLLECTION, "", None
        what = "import" if isinstance(node, (ast.Import, ast.ImportFrom)) else "assignment"
        if binds:
            key = f"{what} {', '.join(binds)}"
            name = f"{what} {', '.join(binds)}"
        elif node is self.docstring:
            key, name = "module docstring", "the module docstring"
        else:
            key = f"statement {' '.join(text.split())}"
            name = f"statement at line {node.lineno}"
        unit = self.unit(node, key, name, role, binds, "", nodes or None)
        if node is self.docstring:
            unit = replace(unit, same=lambda: "", drop="*")
        self.add(replace(unit, calls=calls, quiet=quiet), "")

    def value_calls(self, value: ast.expr) -> tuple[str, ...] | None:
        """For a module-level value computed by calls, the callees of its
        impure calls as `=callee` (`named_callees`: callables the file
        imports, no writing method, no `os`/`sys`/mock/pytest, the file's
        own names handed as `&name`), so that a new value computed the way
        a base value is (`A = load_fixture("a.json")` beside the base's
        `B = load_fixture("b.json")`) is judged as the base's are
        (`compare`); None when a callee is anything else or a method of
        what such a call made."""
        callees = self.callees([c for c in impure_calls(value) if isinstance(c, ast.Call)])
        return tuple(f"={c}" for c in callees) if callees else None

    def main_guard(self, node: ast.If) -> bool:
        """Whether `node` is `if __name__ == "__main__":` with no `else`, in
        a file that never binds `__name__` (no star import): a runner
        imports a test module under its own name, so the block never runs
        (its text is still a unit, compared as any other)."""
        test = node.test
        if node.orelse or self.star or "__name__" in self.local | self.imported:
            return False
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            return False
        if not isinstance(test.ops[0], ast.Eq):
            return False
        sides = [test.left, test.comparators[0]]
        named = [isinstance(x, ast.Name) and x.id == "__name__" for x in sides]
        main = [isinstance(x, ast.Constant) and x.value == "__main__" for x in sides]
        return (named[0] and main[1]) or (named[1] and main[0])

    def import_guard(self, node: ast.Try) -> bool:
        """Split `node` when it is a module-level guard around imports: a
        `try:` holding only plain imports, with no `else` or `finally`, and
        handlers that catch only `ImportError`/`ModuleNotFoundError` (the
        builtins) and `pass` or `pytest.skip(..., allow_module_level=True)`.
        Each import is a unit of its own, its key naming the guard (moving
        an import in or out of it is a removed and a new unit), and the
        handlers one COLLECTION unit (a new guard can hide a failing
        import).  Under a skip, an import is COLLECTION too: a new import
        that fails skips the module's every test.  False when it is none."""
        if node.orelse or node.finalbody or not node.body:
            return False
        if not all(
            isinstance(s, (ast.Import, ast.ImportFrom)) and not _special_import(s)
            for s in node.body
        ):
            return False
        kinds = {self.handler_kind(h) for h in node.handlers}
        if not kinds or None in kinds:
            return False
        skips = "skip" in kinds
        first = node.handlers[0]
        last = node.handlers[-1]
        code = self.code(first.lineno, last.end_lineno or last.lineno)
        under = " ".join(code.split())
        for statement in node.body:
            assert isinstance(statement, (ast.Import, ast.ImportFrom))
            self.imports(statement, under=under, role=COLLECTION if skips else SUPPORT)
        handlers = node.handlers
        uses, words = _uses(handlers, False)
        self.add(
            Unit(
                key=f"guard {under}",
                name=f"import guard at line {node.lineno}",
                role=COLLECTION,
                code=code,
                line=first.lineno,
                uses=uses,
                words=words,
                same=lambda: repr([ast.dump(h) for h in handlers]),
            ),
            "",
        )
        return True

    def handler_kind(self, handler: ast.ExceptHandler) -> str | None:
        """ "pass" or "skip" for a handler `import_guard` accepts, else None."""
        caught = handler.type
        kinds = caught.elts if isinstance(caught, ast.Tuple) else [caught]
        for kind in kinds:
            if not isinstance(kind, ast.Name) or kind.id not in _IMPORT_ERRORS:
                return None
            if self.origins.get(kind.id) != f"builtins.{kind.id}":
                return None
        if handler.name is not None or len(handler.body) != 1:
            return None
        only = handler.body[0]
        if isinstance(only, ast.Pass):
            return "pass"
        call = only.value if isinstance(only, ast.Expr) else None
        if not isinstance(call, ast.Call):
            return None
        root, _, rest = dotted(call.func).partition(".")
        origin = self.origins.get(root, "")
        if (f"{origin}.{rest}" if rest else origin) != "pytest.skip":
            return None
        allowed = [
            k
            for k in call.keywords
            if k.arg == "allow_module_level"
            and isinstance(k.value, ast.Constant)
            and k.value.value is True
        ]
        if not allowed or any(self.calls(a) for a in (*call.args, *call.keywords)):
            return None
        return "skip"

    def imports(
        self, node: ast.Import | ast.ImportFrom, under: str = "", role: str = SUPPORT
    ) -> None:
        """One SUPPORT unit per imported name, its code the import spelled
        canonically (`from pkg.mod import name as alias`): adding a name to an
        existing `from x import a` line, or rewrapping the line, leaves the
        units of the names already there as they were, while importing a name
        from elsewhere, or under another alias, changes its unit."""
        source = ""
        module = ""
        if isinstance(node, ast.ImportFrom):
            module = f"{'.' * node.level}{node.module or ''}"
            source = f"from {module} "
        for alias in node.names:
            loads = module or alias.name
            drop = _drop(loads, alias.name if module else "")
            spelled = f"{source}import {alias.name}"
            if alias.asname is not None:
                spelled += f" as {alias.asname}"
            bound = alias.asname or alias.name.split(".")[0]
            key = f"{spelled} (under {under})" if under else spelled
            self.add(
                Unit(
                    key=key,
                    name=spelled,
                    role=role,
                    code=spelled,
                    binds=(bound,),
                    line=getattr(alias, "lineno", node.lineno),
                    uses=(),
                    module=bound if isinstance(node, ast.Import) and alias.asname is None else "",
                    binds_module=isinstance(node, ast.Import),
                    loads=loads,
                    drop=drop,
                ),
                "",
            )

    def test_class(self, node: ast.ClassDef) -> None:
        cls = node.name
        # The header ends where the class line does: blank and comment lines
        # before the first member belong to no unit (a new first member
        # does not change the header).
        header_last = max(node.lineno, first_line(node.body[0]) - 1)
        while header_last > node.lineno and self.lines[header_last - 1].strip()[:1] in ("", "#"):
            header_last -= 1
        first = first_line(node)
        quiet = all(self.harmless(d) for d in node.decorator_list)
        quiet = quiet and not any(self.calls(b) for b in (*node.bases, *node.keywords))
        role = CASE if quiet else COLLECTION
        header = (*node.decorator_list, *node.bases, *node.keywords)
        uses, words = _uses(header, self.every_string)
        self.add(
            Unit(
                key=f"class {cls}",
                name=cls,
                role=role,
                code=self.code(first, header_last),
                binds=(cls,),
                line=first,
                same=_header_syntax(node, self.pytest_origins()),
                uses=uses,
                words=words,
            ),
            "",
        )
        parent = f"class {cls}"
        unread = self.unread and self.plain_class(node, set())
        for member in node.body:
            nodes = self.walked.of(member)
            if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = member.name
                # setUp, an autouse fixture, a helper: they act on this
                # class's tests only, and `compare` refuses a new one in a
                # class that exists at base.
                fixture = is_fixture(member, self.trusted)[0]
                role = CASE if name.startswith("test") and not fixture else SUPPORT
                but_for, calls = "", None
                reach = self.reached(member)
                if reach == ():
                    role = COLLECTION
                elif not all(self.harmless(d) for d in member.decorator_list) or self.calls(member):
                    calls = self.made_calls(member)
                    role, but_for = COLLECTION, (role if calls else "")
                    calls = calls or None
                role, but_for, calls = _reaching(role, but_for, calls, reach)
                unit = self.unit(
                    member,
                    f"method {cls}.{name}",
                    f"{cls}.{name}",
                    role,
                    (name,),
                    parent,
                    nodes,
                    unread=unread,
                )
                test = name.startswith("test") and not fixture
                unit = replace(unit, quiet=but_for, calls=calls, test=test)
            else:
                binds = _bound(member)
                text = self.code(first_line(member), member.end_lineno or member.lineno)
                if binds:
                    key = f"attribute {cls}.{', '.join(binds)}"
                    label = f"{cls}.{', '.join(binds)}"
                else:
                    key = f"in {cls}: {' '.join(text.split())}"
                    label = f"statement at line {member.lineno} of {cls}"
                plain = isinstance(member, (ast.Assign, ast.AnnAssign)) and _plain_targets(member)
                docstring = isinstance(member, ast.Expr) and isinstance(member.value, ast.Constant)
                quiet = plain or docstring or isinstance(member, ast.Pass)
                quiet = quiet and not self.shares(member, nodes)
                quiet = quiet and not self.calls(member)
                role = SUPPORT if quiet else COLLECTION
                unit = self.unit(member, key, label, role, binds, parent, nodes, in_class=True)
            self.add(unit, cls)


def _uses(parts: Sequence[ast.AST], every_string: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`Unit.uses` and `Unit.words` of a unit made of several `parts` (a
    class header's decorators and bases, an import guard's handlers): a
    name one part reads otherwise is no word of the unit."""
    uses: set[str] = set()
    words: set[str] = set()
    named: set[str] = set()
    for part in parts:
        read = uses_of(part, every_string=every_string)
        spelled = words_of(part, every_string=every_string)
        uses.update(read)
        words.update(spelled)
        named.update(set(read).difference(spelled))
    return tuple(sorted(uses)), tuple(sorted(words - named))


def _syntax(node: ast.AST) -> Callable[[], str]:
    """`Unit.same` of a unit whose code is all of `node`: its syntax tree,
    dumped without positions (`tree.dump`).  A comment, a blank line, a line
    break, parentheses or another quote leave it as it was; the NFKC spelling of a
    name too (Python reads `ｔｅｓｔ` as `test`); a docstring's words, a
    default, a decorator, an indent that moves a statement into another
    block, or any other edit of the tree does not."""
    return lambda: dump(node)


def _def_syntax(
    node: ast.FunctionDef | ast.AsyncFunctionDef, origins: Mapping[str, str], unread: bool
) -> Callable[[], str]:
    """`Unit.same` of a def: `_syntax`'s tree, as written with its bare
    pytest decorators and without a `-> None` nothing reads (`same.def_form`)."""
    return lambda: def_form(node, origins, unread)


def _header_syntax(node: ast.ClassDef, origins: Mapping[str, str]) -> Callable[[], str]:
    """`Unit.same` of a test class's header: its decorators (bare where
    pytest's mean the same called with no argument, `same.decorators_form`),
    name, bases, keywords and type parameters as syntax trees (its members
    are units of their own)."""
    groups = (node.bases, node.keywords, getattr(node, "type_params", []))
    return lambda: repr(
        (
            node.name,
            decorators_form(node.decorator_list, origins),
            [[ast.dump(p) for p in group] for group in groups],
        )
    )


def _function_role(
    node: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST], split: Splitter
) -> tuple[str, str, tuple[str, ...] | None]:
    """The role of a module-level function, and where it is COLLECTION only
    for other modules' callables its defaults and marks call
    (`Splitter.made_calls`) or for the file's state-sharing defs it refers
    to (`_reaching`), the role it has but for them and those callees."""
    reach = split.reached(node)
    if reach == ():
        return COLLECTION, "", None
    return _reaching(*_own_role(node, split), reach)


def _reaching(
    role: str, but_for: str, calls: tuple[str, ...] | None, reach: tuple[str, ...] | None
) -> tuple[str, str, tuple[str, ...] | None]:
    """A def's (role, but_for, calls) once it refers to the file's
    state-sharing defs `reach` (`sharing_defs`; None: it refers to none):
    COLLECTION, with those defs among its `calls` as `~name`, so that a new
    test reaching shared state only through helpers a base unit already
    calls the same way is judged by the role it has but for them
    (`compare`); COLLECTION for another reason stays so."""
    if reach is None:
        return role, but_for, calls
    if role == COLLECTION and not but_for:
        return COLLECTION, "", None
    refs = {f"~{name}" for name in reach}
    return COLLECTION, but_for or role, tuple(sorted(refs | set(calls or ())))


def _own_role(
    node: ast.FunctionDef | ast.AsyncFunctionDef, split: Splitter
) -> tuple[str, str, tuple[str, ...] | None]:
    """`_function_role` but for the state-sharing defs the function refers to."""
    fixture, autouse = is_fixture(node, split.trusted)
    calls = split.calls(node)
    if fixture:
        if autouse:
            return COLLECTION, "", None
        if not calls:
            return SUPPORT, "", None
        quiet = SUPPORT
    elif node.name.startswith("pytest_") or node.name in MODULE_AROUND:
        return COLLECTION, "", None
    else:
        quiet = CASE if node.name.startswith("test") else SUPPORT
        if not calls and all(split.harmless(d) for d in node.decorator_list):
            return quiet, "", None
    callees = split.made_calls(node)
    return COLLECTION, (quiet if callees else ""), (callees or None)
