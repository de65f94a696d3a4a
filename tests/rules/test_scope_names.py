"""Scope means names, not lines (issue 7, class 3).

Generated modules built from every binding form in Python's grammar:

* `confine_to_symbols` never judges inside a change that binds, rebinds,
  deletes or changes another module-level name, even on a line it shares
  with a listed name;
* `keep_symbols` fails whenever the final module-level binding of a kept
  name is no longer its definition, and allows what the base already did.
"""

from __future__ import annotations

import ast
import importlib.machinery
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.drift.python.finder import shadows
from gate.model.change import ADDED, COPIED, MODIFIED, RENAMED, ChangeSet, FileChange, FileTexts
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules import REGISTRY
from tests.rulecase import Builder, Files, RuleCase

PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
F = "m.py"


# The property tests judge hundreds of examples each: through the example
# builder (tests/test_rulecase.py holds it to the git builder's verdicts);
# the tests of one exact message judge commits.
CONFINE = RuleCase("confine_to_symbols", id="S", file=F, symbols=["clamp"], source="example")
KEEP = RuleCase("keep_symbols", id="K", file=F, symbols=["clamp"], source="example")


def confine(base: str, head: str, source: Builder = "example") -> bool:
    return CONFINE.check(CONFINE.edit(base, head), source=source).passed


def keep(base: str, head: str, source: Builder = "example") -> RuleResult:
    return KEEP.check(KEEP.edit(base, head), source=source)


# Top-level code that binds, rebinds or deletes NAME at module level (or may,
# when a function in it runs), one entry per form of Python's grammar.
BINDING_FORMS = [
    "NAME = 1",
    "NAME, other = 1, 2",
    "other, *NAME = 1, 2, 3",
    "[NAME, (other, more)] = 1, (2, 3)",
    "other = NAME = 1",
    "NAME += 1",
    "NAME: int = 1",
    "del NAME",
    "import NAME",
    "import NAME.path",
    "import os as NAME",
    "from os import path as NAME",
    "from os import *",
    "(NAME := 1)",
    "print([NAME := i for i in range(3)])",
    "other = {k: (NAME := k) for k in 'ab'}",
    "for NAME in range(3):\n    pass",
    "for other, NAME in []:\n    pass",
    "async def g():\n    pass\nwith open(__file__) as NAME:\n    pass",
    "try:\n    pass\nexcept Exception as NAME:\n    pass",
    "if True:\n    NAME = 1",
    "if False:\n    pass\nelse:\n    import NAME",
    "while False:\n    NAME = 1",
    "match 1:\n    case NAME:\n        pass",
    "match []:\n    case [*NAME]:\n        pass",
    "match {}:\n    case {**NAME}:\n        pass",
    "match 1:\n    case int() as NAME:\n        pass",
    "def g():\n    global NAME\n    NAME = 1",
    "def g():\n    def h():\n        global NAME",
    "class K:\n    global NAME",
    "@(NAME := staticmethod)\ndef g():\n    pass",
    "def g(x=(NAME := 1)):\n    pass",
    "def g(x: (NAME := int)):\n    pass",
    "g = lambda x=(NAME := 1): x",
    "class K((NAME := object)):\n    pass",
]
# Changing another object through a name is not binding it: outside for
# confine_to_symbols, not a rebinding for keep_symbols.
MUTATION_FORMS = ["NAME.attr = 1", "NAME[0] = 1", "del NAME.attr"]
# Statements that define `clamp` and also bind, or may bind, `helper`.
COMBINED_FORMS = [
    "clamp, helper = 1, 2",
    "clamp = helper = 1",
    "helper, *clamp = 1, 2",
    "clamp = (helper := 1)",
    "clamp = [helper := i for i in range(3)]",
    "clamp: int = (helper := 1)",
    "clamp = 1; helper = 2",
    "clamp = helper.attr = 1",
    "clamp = lambda x=(helper := 1): x",
    "def clamp(x=(helper := 1)):\n    return x",
    "def clamp(x: (helper := int)) -> int:\n    return x",
    "@(helper := staticmethod)\ndef clamp(x):\n    return x",
    "def clamp(x):\n    global helper\n    helper = x\n    return x",
    "def clamp(x):\n    def inner():\n        global helper\n    return x",
    "class clamp((helper := object)):\n    pass",
    "class clamp:\n    global helper",
    "class clamp(metaclass=(helper := type)):\n    pass",
]
FILLER = [
    "other = 1",
    "def g():\n    return 2",
    "class K:\n    pass",
    "import os",
    "# a comment",
    "",
]
CLAMP = "def clamp(x):\n    return x"


def form(template: str, name: str) -> str:
    return template.replace("NAME", name)


def module(parts: list[str]) -> str:
    return "".join(part + "\n" for part in parts)


def is_python(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def test_every_form_is_python() -> None:
    for template in [*BINDING_FORMS, *MUTATION_FORMS]:
        assert is_python(form(template, "helper")), template
        assert is_python(form(template, "clamp")), template
    for combined in COMBINED_FORMS:
        assert is_python(combined), combined


fillers = st.lists(st.sampled_from(FILLER), max_size=4)


@PROPS
@given(fillers, fillers, st.sampled_from(BINDING_FORMS + MUTATION_FORMS))
def test_confine_never_calls_another_name_s_binding_inside(
    before: list[str], after: list[str], template: str
) -> None:
    base = module([*before, CLAMP, *after])
    head = module([*before, CLAMP, form(template, "helper"), *after])
    assert not confine(base, head), head


# Lines added to clamp's body that let clamp rebind `helper` when it runs.
BODY_REBINDS = [
    "    global helper\n    helper = x",
    "    global other, helper",
    "    def inner():\n        global helper\n        helper = 1",
    "    class Inner:\n        global helper",
    "    async def inner():\n        global helper",
]


@PROPS
@given(fillers, fillers, st.sampled_from(BODY_REBINDS))
def test_confine_a_global_declaration_in_a_listed_function_is_outside(
    before: list[str], after: list[str], body: str
) -> None:
    base = module([*before, CLAMP, *after])
    head = base.replace("    return x\n", f"{body}\n    return x\n", 1)
    assert is_python(head)
    assert not confine(base, head), head
    # and with the declaration already at base, any edit of clamp is outside too
    edited = head.replace("    return x\n", "    return -x\n", 1)
    assert not confine(head, edited), edited


@PROPS
@given(fillers, fillers, st.sampled_from(COMBINED_FORMS), st.booleans())
def test_confine_counts_a_statement_that_also_binds_another_name_as_outside(
    before: list[str], after: list[str], combined: str, edit_existing: bool
) -> None:
    if edit_existing:  # the base already has it; the change edits its first line
        base = module([*before, combined, *after])
        first, *rest = combined.split("\n")
        head = module([*before, "\n".join([first + "  # edited", *rest]), *after])
    else:  # the change turns clamp into it
        base = module([*before, CLAMP, *after])
        head = module([*before, combined, *after])
    assert not confine(base, head), head


@PROPS
@given(fillers, fillers, st.sampled_from(["return x + 1", "y = x\n    return y"]))
def test_confine_passes_an_edit_that_binds_only_the_listed_name(
    before: list[str], after: list[str], body: str
) -> None:
    base = module([*before, CLAMP, *after])
    head = base.replace("    return x\n", f"    {body}\n", 1)
    assert confine(base, head)
    head = module([*before, CLAMP, *after, "clamp = 2"])  # a second binding of clamp
    assert confine(base, head)


@PROPS
@given(fillers, fillers, st.sampled_from(BINDING_FORMS), fillers)
def test_keep_symbols_fails_when_the_final_binding_is_not_the_definition(
    before: list[str], between: list[str], template: str, after: list[str]
) -> None:
    base = module([*before, CLAMP, *between, *after])
    head = module([*before, CLAMP, *between, form(template, "clamp"), *after])
    verdict = keep(base, head)
    assert not verdict.passed, head
    assert "rebound" in verdict.message or "deleted" in verdict.message, verdict.message
    assert verdict.findings and verdict.findings[0].line is not None


@PROPS
@given(fillers, st.sampled_from(BINDING_FORMS), fillers)
def test_keep_symbols_allows_what_the_base_already_did(
    before: list[str], template: str, after: list[str]
) -> None:
    base = module([*before, CLAMP, form(template, "clamp"), *after])
    head = module(
        [*before, CLAMP.replace("return x", "return -x"), form(template, "clamp"), *after]
    )
    verdict = keep(base, head)
    if template == "del NAME":  # deleted at base: nothing to keep
        assert verdict.passed and "ignored" in verdict.message
    else:
        assert verdict.passed, verdict.message


@PROPS
@given(fillers, st.sampled_from(BINDING_FORMS + MUTATION_FORMS), fillers)
def test_keep_symbols_is_blind_to_other_names_and_to_bindings_before_the_definition(
    before: list[str], template: str, after: list[str]
) -> None:
    base = module([*before, CLAMP, *after])
    if "*" not in template:  # a star import may bind any name
        other = form(template, "helper")
        assert keep(base, module([*before, other, CLAMP, other, *after])).passed
    if "global" not in template:  # a `global` anywhere may rebind it later
        head = module([*before, form(template, "clamp"), CLAMP, *after])
        assert keep(base, head).passed


def test_keep_symbols_wrapping_keeps_and_replacing_loses() -> None:
    base = module([CLAMP])
    assert keep(base, module([CLAMP, "clamp = cache(clamp)"])).passed
    lost = keep(base, module([CLAMP, "clamp = other"]))
    assert not lost.passed
    assert "replaced by an assignment that does not use it at line 3" in lost.message
    for template in [*MUTATION_FORMS, "NAME: int"]:
        assert keep(base, module([CLAMP, form(template, "clamp")])).passed, template


def test_keep_symbols_message_names_the_rebinding_line() -> None:
    verdict = keep(module([CLAMP]), module([CLAMP, "", "del clamp"]), source="git")
    assert verdict.message == (
        '1 kept symbol of "m.py" is missing or rebound at head: '
        '"clamp" (deleted by `del` at line 4)'
    )
    assert [(f.line, f.message) for f in verdict.findings] == [
        (4, 'symbol "clamp" (base line 1): deleted by `del` at line 4')
    ]


def test_confine_message_names_the_other_binding() -> None:
    change = CONFINE.edit("clamp, helper = 1, 2\n", "clamp, helper = 3, 2\n")
    verdict = CONFINE.fails(change, source="git")
    assert verdict.message == (
        '2 changed lines of "m.py" lie outside "clamp": head lines 1; removed base lines 1; '
        'head line 1 also binds "helper", base line 1 also binds "helper"'
    )


def test_confine_a_line_swallowed_into_a_listed_definition_is_a_change() -> None:
    """Module code that moves inside clamp (here: into its string) keeps its text but
    leaves the module: a changed line on both sides."""
    base = "def clamp(x):\n    return x\nhelper = 1\n"
    head = 'def clamp(x):\n    return """\nhelper = 1\n"""\n'
    assert not confine(base, head, source="git")
    # and code leaving clamp for the module level (here: out of a string) too
    assert not confine(head, base, source="git")


# --- a module beside the file that Python imports instead ----------------------

SHADOW_SUFFIXES = [
    *importlib.machinery.EXTENSION_SUFFIXES,  # this platform's
    ".so",
    ".pyd",
    ".abi3.so",
    ".cp311-win_amd64.pyd",
    ".cpython-312-darwin.so",
]


@st.composite
def beside(draw: st.DrawFn) -> tuple[str, str, bool]:
    """(the kept file, a path the change adds, whether Python's finder would
    import the added one instead): shadows and near misses."""
    folder = draw(st.sampled_from(["", "src/", "lib/pkg/"]))
    stem = draw(st.sampled_from(["clamp_kit", "__init__"]))
    kept = f"{folder}{stem}.py"
    shape = draw(st.sampled_from(["package", "extension", "near"]))
    if shape == "package" and stem != "__init__":
        suffix = draw(st.sampled_from([".py", ".pyc", ".pyw", *SHADOW_SUFFIXES]))
        return kept, f"{folder}{stem}/__init__{suffix}", True
    if shape in ("package", "extension"):
        return kept, f"{folder}{stem}{draw(st.sampled_from(SHADOW_SUFFIXES))}", True
    near = draw(
        st.sampled_from(
            [
                f"{stem}.pyc",  # bytecode comes after source
                f"{stem}x.so",
                f"{stem}.so.txt",
                f"{stem}/mod.py",  # a namespace folder comes after a module
                f"{stem}/__init__.txt",
                f"other/{stem}.so",
                f"{stem}.a.b.so",
            ]
        )
    )
    return kept, f"{folder}{near}", False


@PROPS
@given(beside(), st.sampled_from([ADDED, COPIED, RENAMED]), st.booleans())
def test_a_module_python_imports_instead_fails_the_python_rules(
    case: tuple[str, str, bool], status: str, touched: bool
) -> None:
    """`clamp_kit/__init__.py` or `clamp_kit.so` beside `clamp_kit.py` is what
    `import clamp_kit` loads: the listed symbols are gone for every importer
    although the file is untouched (or changed inside the listed ones)."""
    kept, other, shadowing = case
    old = "elsewhere.py" if status in (COPIED, RENAMED) else None
    files = [FileChange(other, status, old, added=1, deleted=0)]
    texts = {}
    if touched:
        files.append(FileChange(kept, MODIFIED, added=1, deleted=1))
        base = "def clamp(x):\n    return x\n"
        texts[kept] = FileTexts(base, base.replace("return x", "return x + 0"))
    changes = ChangeSet(files=tuple(sorted(files)), texts=texts)
    for kind in ("keep_symbols", "confine_to_symbols"):
        rule = Rule(id="R", kind=kind, params={"file": kept, "symbols": ["clamp"]})
        verdict = REGISTRY[kind].check(rule, changes)
        assert verdict.passed is not shadowing, (kind, other, verdict.message)
        if shadowing:
            assert "Python imports instead" in verdict.message


def test_shadowing_agrees_with_pythons_own_finder(tmp_path: Path) -> None:
    """Every candidate this platform's finder picks over `clamp_kit.py` is a
    shadow for the rules (Python's `FileFinder` is the oracle)."""
    machinery = importlib.machinery
    loaders = [  # the order sys.path_hooks' FileFinder uses
        (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
        (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES),
        (machinery.SourcelessFileLoader, machinery.BYTECODE_SUFFIXES),
    ]
    names = [
        "clamp_kit/__init__.py",
        "clamp_kit/__init__.pyc",
        "clamp_kit/mod.py",
        "clamp_kit.pyc",
        *(f"clamp_kit{s}" for s in importlib.machinery.EXTENSION_SUFFIXES),
    ]
    for n, name in enumerate(names):
        folder = tmp_path / str(n)
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "clamp_kit.py").write_text("def clamp(x):\n    return x\n")
        (folder / name).write_bytes(b"")
        spec = importlib.machinery.FileFinder(str(folder), *loaders).find_spec("clamp_kit")
        assert spec is not None and spec.origin is not None
        picked = Path(spec.origin) != folder / "clamp_kit.py"
        assert shadows("clamp_kit.py", name) is picked, name


@PROPS
@given(
    st.sampled_from(["clamp_kit.py", "src/clamp_kit.py", "lib/pkg/mod.py", "pkg/__init__.py"]),
    st.sampled_from(["tests/", "test/", "tests/unit/", "app/tests/", "docs/", "scripts/"]),
    st.sampled_from(["clamp_kit", "src", "lib", "pkg", "mod", "helpers", "__init__"]),
    st.sampled_from([".py", "/__init__.py", ".abi3.so", ".pyc", ".txt"]),
    st.sampled_from([ADDED, COPIED, RENAMED]),
)
def test_a_module_named_like_the_file_in_a_test_folder_fails_the_python_rules(
    kept: str, folder: str, name: str, form: str, status: str
) -> None:
    """pytest puts a test module's folder first on sys.path: a new module in
    a test folder named like the rule's file, or a folder above it, is what
    the tests import.  Other names, folders outside the test tree and files
    Python does not import are not judged."""
    other = f"{folder}{name}{form}"
    old = "elsewhere.py" if status in (COPIED, RENAMED) else None
    changes = ChangeSet(files=(FileChange(other, status, old, added=1, deleted=0),))
    named = {s.removesuffix(".py") for s in kept.split("/")} - {"__init__"}
    in_tests = folder not in ("docs/", "scripts/")
    imported = form != ".txt" and name != "__init__"
    expected = name in named and in_tests and imported
    for kind in ("keep_symbols", "confine_to_symbols"):
        rule = Rule(id="R", kind=kind, params={"file": kept, "symbols": ["clamp"]})
        verdict = REGISTRY[kind].check(rule, changes)
        assert verdict.passed is not expected, (kind, other, verdict.message)


def test_pytest_imports_a_module_from_the_test_folder_first(tmp_path: Path) -> None:
    """The premise, with real pytest: a red test turns green when the change
    adds tests/clamp_kit.py, and the Python rules fail that change."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "clamp_kit.py").write_text("def clamp(x):\n    return -1\n")
    (tmp_path / "tests" / "test_c.py").write_text(
        "from clamp_kit import clamp\n\ndef test_c():\n    assert clamp(5) == 5\n"
    )
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    assert subprocess.run(argv, cwd=tmp_path, capture_output=True).returncode == 1
    (tmp_path / "tests" / "clamp_kit.py").write_text("def clamp(x):\n    return x\n")
    assert subprocess.run(argv, cwd=tmp_path, capture_output=True).returncode == 0
    kept = (tmp_path / "clamp_kit.py").read_text()
    test = (tmp_path / "tests" / "test_c.py").read_text()
    shadow = (tmp_path / "tests" / "clamp_kit.py").read_text()
    base = {"clamp_kit.py": kept, "tests/test_c.py": test}
    change = Files(base=base, head={**base, "tests/clamp_kit.py": shadow})
    case = RuleCase("keep_symbols", file="clamp_kit.py", symbols=["clamp"])
    case.fails(change, "pytest puts first on sys.path")
