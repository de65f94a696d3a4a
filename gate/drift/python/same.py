"""What `Unit.same` leaves out of a def beyond its tree's positions
(`def_form`): spellings that pytest and Python read as one.

* `@pytest.fixture()` and `@pytest.fixture`, `@pytest.mark.NAME()` and
  `@pytest.mark.NAME` (`bare_decorator`): called with no argument, pytest's
  fixture decorator returns a marker that registers the function exactly as
  the bare decorator does, and a `MarkDecorator` returns a decorator of the
  same mark (`with_args()` adds nothing).  Only where the decorator's root
  name is bound by an import of `pytest` alone (`import_origins`: `import
  pytest`, `import pytest as pt`, `from pytest import fixture, mark`; no
  other binding of it anywhere in the file, no star import).  Any other
  decorator (`@dec()` and `@dec` may differ in anything), and an argument
  added (`@pytest.fixture(scope="module")`), are still changes.
* Annotations nothing reads (`annotations_unread`), as a typing sweep
  (pyupgrade's or ruff's `UP` rules) or a type checker's sweep writes
  them: on a def whose decorators are all pytest's fixture or mark
  decorators as above (a decorator may read them: `pydantic.validate_call`,
  hypothesis's `given`, a CLI or a route framework), in a module that
  spells no way to read annotations or signatures (`reads_annotations`:
  `get_type_hints`, `__annotations__`, `inspect`, `signature`, a runtime
  type checker, pydantic, hypothesis's `from_type`, `builds` or `infer`,
  FastAPI's `Depends`, typer, `singledispatch`, ... as a name, an
  attribute or inside a string; `from __future__ import annotations`
  does not count) and reaches no global by a computed name
  (`introspects`), and on a def no code of the module hands as a value
  (`handed`: `st.builds(helper)`, `Depends(helper)`, `[helper]`; a
  fixture's name aside), pytest never reads a test's or a fixture's
  annotations.  There `same` leaves out:

  - each parameter's annotation (positional-only, positional, `*args`,
    keyword-only, `**kwargs`) that is a plain type expression
    (`plain_annotation`): a name, an attribute chain rooted at a name, a
    constant (`None`, `...`, a string: a forward reference, which Python
    does not evaluate; `Literal["x", 1]`'s values), a subscript of a name
    or attribute chain by such expressions (a tuple or a list of them as
    its slice: `Callable[[int], str]`), or a `|` of them.  So
    `Optional[int]` -> `int | None`, `List[str]` -> `list[str]`,
    `"Foo"` -> `Foo`, and an annotation added or removed are no change.
    Another annotation (a call `make()`, `Annotated[int, Field(gt=0)]`, a
    lambda, a walrus, a comprehension, an f-string, `*Ts`) is evaluated
    when the def runs at collection and stays a change, as do a default,
    a parameter's name, kind and order, and a parameter added or removed;
  - the return annotation, when it is a plain type expression and the
    def's own body returns no value on any path (`return_unread`: no
    `return x` but `return None`, no `yield`).  A generator or a def
    that returns a value keeps its return annotation as a change unless
    both sides spell it alike (fail closed: it states what a fixture hands
    its tests, the value a runtime type checker's import hook, typeguard's
    or beartype's, would check); on a def that hands out nothing, a
    sweep's `-> None` or `-> NoReturn` states nothing a test reads.
    One such return annotation written where the base version had none
    (`added_return_form`, `-> Iterator[TestClient]` on a fixture that
    yields one) is no change either: nothing reads it, and where a
    runtime type checker does, an annotation added can only make a test
    fail, never pass.  Changed or removed, it stays a change.
  A runtime type checker installed outside the module (an import hook, a
  pytest plugin's option) is configuration the gate judges where it
  changes, not read here.
* An `else` after an `if` whose body ends in `return`, `raise`,
  `continue` or `break`, folded into the statements after the `if`
  (`fold`: `if c: return x else: return y` and `if c: return x; return
  y`, ruff's RET505 fix), anywhere in a def's body; an `else` of a loop or
  a `try`, or an `if` body that may fall through (an inner `if` that
  returns on one branch, a call that always raises, a `try` that returns)
  is not folded.
"""

from __future__ import annotations

import ast
import copy
import io
import re
import tokenize
from collections.abc import Callable, Mapping
from typing import TypeVar

from gate.drift.python.tree import dotted, dump, walk

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# What spells a way to read a function's annotations or signature, in a name,
# an attribute, an imported name or a string (`reads_annotations`).
_READS_ANNOTATIONS = re.compile(
    r"annot|signature|argspec|callargs|type_?hints|inspect|eval_?type|forwardref"
    r"|typeguard|typechecked|beartype|pydantic|validate_?call|jaxtyp|__wrapped__"
    # hypothesis infers strategies from annotations; FastAPI reads a dependency's,
    # typer a command's, functools.singledispatch a registered function's
    r"|from_type|builds|infer|depends|typer|singledispatch",
    re.IGNORECASE,
)


def pytest_decorator(deco: ast.expr, origins: Mapping[str, str]) -> str:
    """What `deco` (called or not) is, by `import_origins`, when it is
    pytest's fixture decorator (`pytest.fixture`) or one mark
    (`pytest.mark.NAME`, NAME no private name of the mark generator); else ""."""
    name = dotted(deco)
    root, _, rest = name.partition(".")
    origin = origins.get(root) if name else None
    if origin is None or not isinstance(
        deco.func if isinstance(deco, ast.Call) else deco, (ast.Name, ast.Attribute)
    ):
        return ""
    qualified = f"{origin}.{rest}" if rest else origin
    if qualified == "pytest.fixture":
        return qualified
    parts = qualified.split(".")
    if len(parts) == 3 and parts[:2] == ["pytest", "mark"] and not parts[2].startswith("_"):
        return qualified
    return ""


def bare_decorator(deco: ast.expr, origins: Mapping[str, str]) -> ast.expr:
    """`deco` as the bare decorator it means: `pytest.fixture()` and
    `pytest.mark.NAME()` (no argument, `pytest_decorator`) as their callee;
    any other decorator as it is."""
    if (
        isinstance(deco, ast.Call)
        and not deco.args
        and not deco.keywords
        and pytest_decorator(deco, origins)
    ):
        return deco.func
    return deco


def returns_nothing(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the def's own body returns None on every path: no `return x`
    but `return None`, no `yield` (its nested defs, lambdas and classes
    return for themselves; their decorators, defaults and bases run here)."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        sub = stack.pop()
        if isinstance(sub, (ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(sub, ast.Return):
            if sub.value is not None and not (
                isinstance(sub.value, ast.Constant) and sub.value.value is None
            ):
                return False
            continue
        if isinstance(sub, _DEFS):
            stack.extend((*sub.decorator_list, sub.args))
            if sub.returns is not None:
                stack.append(sub.returns)
        elif isinstance(sub, ast.Lambda):
            stack.append(sub.args)
        elif isinstance(sub, ast.ClassDef):
            stack.extend((*sub.decorator_list, *sub.bases, *sub.keywords))
        else:
            stack.extend(ast.iter_child_nodes(sub))
    return True


def reads_annotations(node: ast.stmt) -> bool:
    """Whether a module's statement spells a way to read annotations or a
    signature (`_READS_ANNOTATIONS`) in a name, an attribute, an imported
    name, a keyword, a parameter, a def's name or a string; a `from
    __future__` import spells none.  Kept on the node (a statement the
    parser reuses in the file's next version is read once)."""
    held = node.__dict__.get("_gate_reads_annotations")
    if held is not None:
        return bool(held)
    found = False
    if not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
        for sub in walk(node):
            spelled: list[str] = []
            if isinstance(sub, ast.Name):
                spelled.append(sub.id)
            elif isinstance(sub, ast.Attribute):
                spelled.append(sub.attr)
            elif isinstance(sub, ast.alias):
                spelled.extend((sub.name, sub.asname or ""))
            elif isinstance(sub, ast.ImportFrom):
                spelled.append(sub.module or "")
            elif isinstance(sub, (ast.keyword, ast.arg)):
                spelled.append(sub.arg or "")
            elif isinstance(sub, (*_DEFS, ast.ClassDef)):
                spelled.append(sub.name)
            elif isinstance(sub, ast.Constant) and isinstance(sub.value, (str, bytes)):
                value = sub.value
                spelled.append(value if isinstance(value, str) else value.decode("latin-1"))
            if any(_READS_ANNOTATIONS.search(s) for s in spelled):
                found = True
                break
    node.__dict__["_gate_reads_annotations"] = found
    return found


def annotations_unread(
    node: ast.FunctionDef | ast.AsyncFunctionDef, origins: Mapping[str, str], quiet: bool
) -> bool:
    """Whether nothing reads the def's annotations (see the module
    docstring): its decorators are all pytest's fixture or mark decorators
    (`pytest_decorator`) and `quiet`: its module reads no annotations
    (`reads_annotations`) and reaches no global by a computed name."""
    return quiet and all(pytest_decorator(d, origins) for d in node.decorator_list)


def handed_names(node: ast.stmt, nodes: list[ast.AST]) -> frozenset[str]:
    """The names and attribute names a module's statement loads as a value
    rather than as a call's callee (`helper` in `st.builds(helper)`,
    `Depends(helper)`, `[helper]`): a def of that name may be handed to
    something that reads its annotations.  Kept on the node (a statement
    the parser reuses in the file's next version is read once); `nodes`:
    its nodes (`tree.Walked.of`)."""
    held = node.__dict__.get("_gate_handed")
    if held is not None:
        return held  # type: ignore[no-any-return]
    callees = {id(sub.func) for sub in nodes if isinstance(sub, ast.Call)}
    found: set[str] = set()
    for sub in nodes:
        if id(sub) in callees:
            continue
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Load):
            found.add(sub.attr)
    held = node.__dict__["_gate_handed"] = frozenset(found)
    return held


def handed(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    origins: Mapping[str, str],
    names: frozenset[str],
) -> bool:
    """Whether the def may be handed as a value to something that reads
    its annotations: its module loads its name as a value (`names`, the
    union of `handed_names`) and it is no pytest fixture (a fixture's
    name is read as its value's, in the tests that take it)."""
    return node.name in names and not any(
        pytest_decorator(d, origins) == "pytest.fixture" for d in node.decorator_list
    )


def plain_annotation(node: ast.expr, within: bool = False) -> bool:
    """Whether the annotation `node` is a plain type expression, which runs
    no code of the test's (see the module docstring): a name, an attribute
    chain rooted at a name, a constant (`None`, `...`, a string: a forward
    reference Python does not evaluate, `Literal`'s values), a subscript of
    a name or attribute chain by such expressions (`within`: a slice, where
    a tuple or a list of them may stand too), or a `|` of them."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.Attribute):
        return isinstance(node.value, (ast.Name, ast.Attribute)) and plain_annotation(node.value)
    if isinstance(node, ast.Subscript):
        return (
            isinstance(node.value, (ast.Name, ast.Attribute))
            and plain_annotation(node.value)
            and plain_annotation(node.slice, within=True)
        )
    if isinstance(node, ast.BinOp):
        return (
            isinstance(node.op, ast.BitOr)
            and plain_annotation(node.left)
            and plain_annotation(node.right)
        )
    if within and isinstance(node, (ast.Tuple, ast.List)):
        return all(plain_annotation(e, within=True) for e in node.elts)
    return False


def return_unread(
    node: ast.FunctionDef | ast.AsyncFunctionDef, origins: Mapping[str, str], quiet: bool
) -> bool:
    """Whether the def's return annotation is one nothing reads (see the
    module docstring): a plain type expression (`plain_annotation`) on a
    def whose annotations go unread (`annotations_unread`) and whose own
    body returns nothing (`returns_nothing`)."""
    returns = node.returns
    return (
        returns is not None
        and plain_annotation(returns)
        and annotations_unread(node, origins, quiet)
        and returns_nothing(node)
    )


def _unannotated(args: ast.arguments) -> ast.arguments | None:
    """`args` with each parameter's plain annotation (`plain_annotation`)
    left out: a copy, its defaults as they were; None where none is."""
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    params.extend(a for a in (args.vararg, args.kwarg) if a is not None)
    if not any(a.annotation is not None and plain_annotation(a.annotation) for a in params):
        return None

    def bare(arg: ast.arg) -> ast.arg:
        if arg.annotation is None or not plain_annotation(arg.annotation):
            return arg
        copied = copy.copy(arg)
        copied.__dict__.pop("_gate_dump", None)
        copied.annotation = None
        return copied

    spelled = copy.copy(args)
    spelled.__dict__.pop("_gate_dump", None)
    spelled.posonlyargs = [bare(a) for a in args.posonlyargs]
    spelled.args = [bare(a) for a in args.args]
    spelled.kwonlyargs = [bare(a) for a in args.kwonlyargs]
    spelled.vararg = None if args.vararg is None else bare(args.vararg)
    spelled.kwarg = None if args.kwarg is None else bare(args.kwarg)
    return spelled


def added_return_form(
    node: ast.FunctionDef | ast.AsyncFunctionDef, origins: Mapping[str, str], quiet: bool
) -> str | None:
    """`def_form` of the def as if its return annotation were not written,
    where that annotation is one a typing sweep may have added (see the
    module docstring): a plain type expression (`plain_annotation`) on a
    def whose annotations go unread (`annotations_unread`) and whose body
    returns a value (`def_form` leaves out the annotation of one that
    returns none already).  A head version whose form this is equals a
    base version written without one (`gate.drift.alike`).  None where the
    def has no such annotation."""
    returns = node.returns
    if (
        returns is None
        or not plain_annotation(returns)
        or not annotations_unread(node, origins, quiet)
        or returns_nothing(node)
    ):
        return None
    return def_form(node, origins, quiet, bare_return=True)


def def_unadded(
    node: ast.FunctionDef | ast.AsyncFunctionDef, origins: Mapping[str, str], quiet: bool
) -> Callable[[], str | None] | None:
    """`Unit.unadded` of a def: `added_return_form`, made when `compare`
    asks; None where the def has no plain return annotation to leave out."""
    if node.returns is None or not plain_annotation(node.returns):
        return None
    return lambda: added_return_form(node, origins, quiet)


def def_form(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    origins: Mapping[str, str],
    quiet: bool,
    bare_return: bool = False,
) -> str:
    """`Unit.same` of a def: its tree dumped without positions (`dump`),
    as written with its bare pytest decorators (`bare_decorator`),
    without the annotations nothing reads (`annotations_unread`: each
    parameter's plain one, `plain_annotation`, and a return annotation
    `return_unread`) and with each `else` after an `if` that always jumps
    folded (`fold`); `bare_return`: without the return annotation
    whatever it is (`added_return_form`); marked where its annotations may
    be read (not `quiet`), so that a version where they may is never the same as one
    where they may not."""
    decorators = [bare_decorator(d, origins) for d in node.decorator_list]
    drop = bare_return or return_unread(node, origins, quiet)
    args = _unannotated(node.args) if annotations_unread(node, origins, quiet) else None
    # where annotations may be read, the form says so: a version whose module
    # reads them is never the same as one where an annotation was left out
    read = "" if quiet else "\x00annotations may be read"
    body = fold(node.body)
    if (
        not drop
        and args is None
        and body is node.body
        and all(a is b for a, b in zip(decorators, node.decorator_list, strict=True))
    ):
        return dump(node) + read
    # a shallow copy: the nodes are shared with the file's other versions
    # (`parsed.parse_module`), and what `dump` keeps on a node is not copied
    spelled = copy.copy(node)
    spelled.__dict__.pop("_gate_dump", None)
    spelled.decorator_list = decorators
    spelled.body = body
    if drop:
        spelled.returns = None
    if args is not None:
        spelled.args = args
    return dump(spelled) + read


_Node = TypeVar("_Node", bound=ast.AST)
# Statements after which control never reaches the next one.
_JUMPS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def fold(statements: list[ast.stmt]) -> list[ast.stmt]:
    """`statements` with each `if` whose body ends in a jump (`return`,
    `raise`, `continue`, `break`: control never falls out of it) and
    that has an `else`, written without it: its `else` block's statements
    follow the `if` (`if c: return x` then `return y`, as ruff's RET505 fix
    writes `if c: return x else: return y`).  Both run the same statements
    in the same order on every path: the `else` block runs exactly when the
    test is false, and so do the statements after an `if` whose body
    always jumps.  Folded inside out (an `elif` chain is an `else` holding
    an `if`), at every depth (loops, `with`, `try`, nested defs and
    classes); the nodes are not changed: a folded statement is a copy.
    The same list where nothing folds."""
    out: list[ast.stmt] = []
    changed = False
    for statement in statements:
        inner = _fold_within(statement)
        changed = changed or inner is not statement
        if isinstance(inner, ast.If) and inner.orelse and isinstance(inner.body[-1], _JUMPS):
            head = copy.copy(inner)
            head.__dict__.pop("_gate_dump", None)
            head.orelse = []
            out.append(head)
            out.extend(inner.orelse)
            changed = True
        else:
            out.append(inner)
    return out if changed else statements


def _fold_within(node: _Node) -> _Node:
    """`node` with the statement lists it holds folded (`fold`): a copy
    where any changed, else `node` itself."""
    changes: dict[str, list[ast.AST]] = {}
    for name, value in ast.iter_fields(node):
        if not isinstance(value, list) or not value:
            continue
        if isinstance(value[0], ast.stmt):
            folded: list[ast.AST] = list(fold(value))
            if len(folded) != len(value) or any(
                a is not b for a, b in zip(folded, value, strict=True)
            ):
                changes[name] = folded
        elif isinstance(value[0], (ast.ExceptHandler, ast.match_case)):
            within = [_fold_within(v) for v in value]
            if any(a is not b for a, b in zip(within, value, strict=True)):
                changes[name] = within
    if not changes:
        return node
    copied = copy.copy(node)
    copied.__dict__.pop("_gate_dump", None)
    for name, value in changes.items():
        setattr(copied, name, value)
    return copied


def decorators_form(decorators: list[ast.expr], origins: Mapping[str, str]) -> list[str]:
    """A test class's decorators as `def_form` reads a def's."""
    return [ast.dump(bare_decorator(d, origins)) for d in decorators]


# The first words of a comment a tool reads: coverage's `pragma: no cover`,
# a type checker's `type: ignore` or `pyright: ...`, a linter's suppression,
# a formatter's `fmt: off`, ... (`pragma_comments`).
_PRAGMA_WORDS = (
    "pragma",
    "type:",
    "no" + "qa",
    "pyright",
    "mypy",
    "pyre",
    "pytype",
    "fmt:",
    "isort",
    "pylint",
    "ruff",
    "nosec",
    "cov",
    "yapf",
)
_PRAGMA_COMMENT = re.compile(
    r"#\s*(?:" + "|".join(re.escape(w) for w in _PRAGMA_WORDS) + ")", re.IGNORECASE
)


def pragma_comments(text: str) -> list[str] | None:
    """The comments of the Python `text` that a tool reads
    (`_PRAGMA_COMMENT`), in order; None where it does not tokenize."""
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and _PRAGMA_COMMENT.match(token.string):
                found.append(token.string)
    except (tokenize.TokenError, SyntaxError):
        return None
    return found
