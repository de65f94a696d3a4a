"""test_drift on imports that name the same code at a new place
(`gate.drift.moved`): a module the change renamed unchanged, whose tests'
imports follow it, and a test file moved with its relative imports, are
no change of the tests.  Each shape has its hostile twins, which must
still fail: the module moved AND changed, an import re-pointed to another
module, another edit beside the import, a module left at the old place,
a case-only rename, a symlink, a moved test no runner collects."""

from __future__ import annotations

import pytest

from gate.model.change import (
    MODE_SUBMODULE,
    MODE_SYMLINK,
    MODIFIED,
    RENAMED,
    BaseTree,
    ChangeSet,
    FileChange,
    FileTexts,
)
from gate.model.rubric import DEFAULT_TESTS
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift", id="T", paths=[*DEFAULT_TESTS, "**/*.test.ts", "**/*.spec.ts"])

JS_CODE = "export const f = () => 1;\nexport const g = () => 2;\n"
PY_CODE = "def f():\n    return 1\n"
GO_CODE = "package x\n\nfunc F() int { return 1 }\n"


# Unchanged cases, so that git finds a moved test file's rename.
JS_MORE = "".join(f"\nit('case {n}', () => {{\n  expect({n}).toBe({n});\n}});\n" for n in range(6))
PY_MORE = "".join(f"\n\ndef test_case_{n}():\n    assert {n} == {n}\n" for n in range(6))


def js_test(spec: str, body: str = "expect(f()).toBe(1);") -> str:
    return f"import {{ f }} from '{spec}';\n\nit('f', () => {{ {body} }});\n{JS_MORE}"


def py_test(line: str, body: str = "assert f() == 1") -> str:
    return f"{line}\n\n\ndef test_f():\n    {body}\n{PY_MORE}"


def go_test(spec: str, alias: str = "", body: str = "x.F() != 1") -> str:
    name = f"{alias} " if alias else ""
    return (
        f'package app\n\nimport (\n\t"testing"\n\n\t{name}"{spec}"\n)\n\n'
        f"func TestF(t *testing.T) {{\n\tif {body} {{\n\t\tt.Fatal()\n\t}}\n}}\n"
    )


def moved_module(
    old: str, new: str, test: str, before: str, after: str, code: str, **more: str
) -> Files:
    """The module `old` renamed to `new` unchanged and the test at `test`
    re-pointed from `before` to `after` (`more`: other files on both sides)."""
    return Files(
        base={old: code, test: before, **more},
        head={new: code, test: after, **more},
    )


# --- 1. an import re-pointed to a module the change moved unchanged ----------

MOVED_MODULES = {
    "ts relative": moved_module(
        "src/old/x.ts",
        "src/new/x.ts",
        "test/a.test.ts",
        js_test("../src/old/x"),
        js_test("../src/new/x"),
        JS_CODE,
    ),
    "ts .js naming a .ts": moved_module(
        "src/old/x.ts",
        "src/new/x.ts",
        "test/a.test.ts",
        js_test("../src/old/x.js"),
        js_test("../src/new/x.js"),
        JS_CODE,
    ),
    "ts index file": moved_module(
        "src/old/index.ts",
        "src/new/index.ts",
        "test/a.test.ts",
        js_test("../src/old"),
        js_test("../src/new"),
        JS_CODE,
    ),
    "python absolute": moved_module(
        "pkg/old/x.py",
        "pkg/new/x.py",
        "tests/test_x.py",
        py_test("from pkg.old.x import f"),
        py_test("from pkg.new.x import f"),
        PY_CODE,
        **{"pkg/__init__.py": ""},
    )
    | Files(base={"pkg/old/__init__.py": ""}, head={"pkg/new/__init__.py": ""}),
    "python absolute aliased": moved_module(
        "src/pkg/old/x.py",
        "src/pkg/new/x.py",
        "tests/test_x.py",
        py_test("import pkg.old.x as m", "assert m.f() == 1"),
        py_test("import pkg.new.x as m", "assert m.f() == 1"),
        PY_CODE,
        **{"src/pkg/__init__.py": ""},
    ),
    "go package": moved_module(
        "internal/x/x.go",
        "tool/x/x.go",
        "app/app_test.go",
        go_test("example.com/m/internal/x"),
        go_test("example.com/m/tool/x"),
        GO_CODE,
    ),
}


@pytest.mark.parametrize("name", sorted(MOVED_MODULES))
def test_an_import_that_follows_its_module_moved_unchanged_passes(name: str) -> None:
    CASE.passes(MOVED_MODULES[name])


def _twins() -> dict[str, Files]:
    """Each passing shape written to slip a real change past: must fail."""
    out: dict[str, Files] = {}
    for name, files in MOVED_MODULES.items():
        (old,) = [p for p in files.base if p not in files.head and files.base[p]]
        (new,) = [p for p in files.head if p not in files.base and files.head[p]]
        test = next(p for p in files.base if p in files.head and files.base[p] != files.head[p])
        code = files.base[old]
        assert isinstance(code, str)
        # the module moved AND changed (one byte)
        out[f"{name}: target changed"] = Files(
            base=files.base, head={**files.head, new: code.replace("1", "7")}
        )
        # another module left at the old path: the old name still resolves
        out[f"{name}: old path kept"] = Files(
            base=files.base, head={**files.head, old: code.replace("1", "7")}
        )
        # the import re-pointed AND a case edited
        after = files.head[test]
        assert isinstance(after, str)
        bent = after.replace("1", "3") if ".go" not in test else after.replace("!= 1", "!= 3")
        out[f"{name}: case edited"] = Files(base=files.base, head={**files.head, test: bent})
        # a copy, not a move: the old module stays where it was
        out[f"{name}: copied"] = Files(base=files.base, head={**files.head, old: code})
    return out


TWINS = _twins()


@pytest.mark.parametrize("name", sorted(TWINS))
def test_a_hostile_twin_of_a_moved_module_fails(name: str) -> None:
    CASE.fails(TWINS[name], "changed")


FROM_A, FROM_B = "from pkg.a import f", "from pkg.b import f"
OTHER = {
    # an import re-pointed to another module that exports the same names
    "ts other module": Files(
        base={"src/a.ts": JS_CODE, "src/b.ts": JS_CODE, "test/a.test.ts": js_test("../src/a")},
        head={"src/a.ts": JS_CODE, "src/b.ts": JS_CODE, "test/a.test.ts": js_test("../src/b")},
    ),
    "python other module": Files(
        base={
            "pkg/a.py": PY_CODE,
            "pkg/b.py": PY_CODE,
            "tests/test_x.py": py_test("from pkg.a import f"),
        },
        head={
            "pkg/a.py": PY_CODE,
            "pkg/b.py": PY_CODE,
            "tests/test_x.py": py_test("from pkg.b import f"),
        },
    ),
    # a package specifier: what it names is not in the change set
    "ts package subpath": Files(
        base={"test/a.test.ts": js_test("@scope/core")},
        head={"test/a.test.ts": js_test("@scope/core/validators")},
    ),
    # case-only rename of the module: one file on a case-insensitive checkout
    "ts case-only": moved_module(
        "src/old/x.ts",
        "src/old/X.ts",
        "test/a.test.ts",
        js_test("../src/old/x"),
        js_test("../src/old/X"),
        JS_CODE,
    ),
    # a Go package whose package clause changed with the move
    "go clause changed": Files(
        base={"internal/x/x.go": GO_CODE, "app/app_test.go": go_test("example.com/m/internal/x")},
        head={
            "tool/y/x.go": GO_CODE.replace("package x", "package y"),
            "app/app_test.go": go_test("example.com/m/tool/y", "x"),
        },
    ),
    # a Go package moved with another of its files changed
    "go sibling changed": Files(
        base={
            "internal/x/x.go": GO_CODE,
            "internal/x/y.go": "package x\n\nconst Y = 1\n",
            "app/app_test.go": go_test("example.com/m/internal/x"),
        },
        head={
            "tool/x/x.go": GO_CODE,
            "tool/x/y.go": "package x\n\nconst Y = 2\n",
            "app/app_test.go": go_test("example.com/m/tool/x"),
        },
    ),
    # a Go package that left a file behind at the old folder
    "go file left": Files(
        base={
            "internal/x/x.go": GO_CODE,
            "internal/x/y.go": "package x\n\nconst Y = 1\n",
            "app/app_test.go": go_test("example.com/m/internal/x"),
        },
        head={
            "tool/x/x.go": GO_CODE,
            "internal/x/y.go": "package x\n\nconst Y = 1\n",
            "app/app_test.go": go_test("example.com/m/tool/x"),
        },
    ),
    # a Go package moved into a folder that held code of its own
    "go joins package": Files(
        base={
            "internal/x/x.go": GO_CODE,
            "tool/x/z.go": "package x\n\nfunc init() {}\n",
            "app/app_test.go": go_test("example.com/m/internal/x"),
        },
        head={
            "tool/x/x.go": GO_CODE,
            "tool/x/z.go": "package x\n\nfunc init() {}\n",
            "app/app_test.go": go_test("example.com/m/tool/x"),
        },
    ),
    # a Python module moved while the package it lands in gained an __init__
    "python new package init": moved_module(
        "pkg/old/x.py",
        "pkg/new/x.py",
        "tests/test_x.py",
        py_test("from pkg.old.x import f"),
        py_test("from pkg.new.x import f"),
        PY_CODE,
    ),
}


@pytest.mark.parametrize("name", sorted(OTHER))
def test_an_import_re_pointed_elsewhere_fails(name: str) -> None:
    files = OTHER[name]
    if name == "python new package init":
        files = Files(base=files.base, head={**files.head, "pkg/new/__init__.py": "import os\n"})
    CASE.fails(files, "changed")


# --- 2. a test file moved with its imports ------------------------------------

MOVED_TESTS = {
    "ts into test/": Files(
        base={"pkg/src/x.ts": JS_CODE, "pkg/src/a.test.ts": js_test("./x.js")},
        head={"pkg/src/x.ts": JS_CODE, "pkg/test/a.test.ts": js_test("../src/x.js")},
    ),
    "ts deeper": Files(
        base={"src/types/c.ts": JS_CODE, "src/types/g.test.ts": js_test("./c")},
        head={
            "src/types/c.ts": JS_CODE,
            "test/types/deep/g.test.ts": js_test("../../../src/types/c"),
        },
    ),
    "python relative": Files(
        base={
            "tests/__init__.py": "",
            "tests/a/__init__.py": "",
            "tests/a/helpers.py": PY_CODE,
            "tests/a/test_x.py": py_test("from .helpers import f"),
            "tests/b/__init__.py": "",
        },
        head={
            "tests/__init__.py": "",
            "tests/a/__init__.py": "",
            "tests/a/helpers.py": PY_CODE,
            "tests/b/test_x.py": py_test("from ..a.helpers import f"),
            "tests/b/__init__.py": "",
        },
    ),
    "go test renamed in its folder": Files(
        base={"a/a_test.go": go_test("example.com/m/x")},
        head={"a/b_test.go": go_test("example.com/m/x")},
    ),
    "unchanged python test": Files(
        base={"tests/a/test_x.py": py_test("import os")},
        head={"tests/b/test_x.py": py_test("import os")},
    ),
    "with a new case": Files(
        base={"src/x.ts": JS_CODE, "src/a.test.ts": js_test("./x")},
        head={
            "src/x.ts": JS_CODE,
            "test/a.test.ts": js_test("../src/x") + "\nit('g', () => { expect(1).toBe(1); });\n",
        },
    ),
}


@pytest.mark.parametrize("name", sorted(MOVED_TESTS))
def test_a_test_moved_with_its_imports_passes(name: str) -> None:
    CASE.passes(MOVED_TESTS[name])


MOVED_TWINS = {
    # a case edited in the move
    "case edited": Files(
        base={"src/x.ts": JS_CODE, "src/a.test.ts": js_test("./x")},
        head={"src/x.ts": JS_CODE, "test/a.test.ts": js_test("../src/x", "expect(f()).toBe(2);")},
    ),
    # the import now names another file
    "other file": Files(
        base={"src/x.ts": JS_CODE, "src/y.ts": JS_CODE, "src/a.test.ts": js_test("./x")},
        head={"src/x.ts": JS_CODE, "src/y.ts": JS_CODE, "test/a.test.ts": js_test("../src/y")},
    ),
    # the import kept its text, which names another file from the new place
    "same text elsewhere": Files(
        base={"src/x.ts": JS_CODE, "test/x.ts": JS_CODE, "src/a.test.ts": js_test("./x")},
        head={"src/x.ts": JS_CODE, "test/x.ts": JS_CODE, "test/a.test.ts": js_test("./x")},
    ),
    # moved where no runner collects it by its default names
    "not collected ts": Files(
        base={"src/x.ts": JS_CODE, "src/a.test.ts": js_test("./x")},
        head={"src/x.ts": JS_CODE, "src/a.check.ts": js_test("./x")},
    ),
    "not collected py": Files(
        base={"tests/test_x.py": py_test("import os")},
        head={"tests/check_x.py": py_test("import os")},
    ),
    "into a data folder": Files(
        base={"tests/test_x.py": py_test("import os")},
        head={"tests/testdata/test_x.py": py_test("import os")},
    ),
    # another language
    "to text": Files(
        base={"src/x.ts": JS_CODE, "src/a.test.ts": js_test("./x")},
        head={"src/x.ts": JS_CODE, "test/a.test.txt": js_test("../src/x")},
    ),
    # a case removed in the move
    "case removed": Files(
        base={"tests/test_x.py": py_test("import os") + "\n\ndef test_g():\n    assert 1\n"},
        head={"tests/b/test_x.py": py_test("import os")},
    ),
    # case-only rename of the test
    "case only": Files(
        base={"tests/test_x.py": py_test("import os")},
        head={"tests/Test_x.py": py_test("import os")},
    ),
    # a kept unit that reads its place: a file beside the test, a snapshot
    **{
        f"reads its place: {word}": Files(
            base={"src/x.ts": JS_CODE, "src/a.test.ts": js_test("./x") + line},
            head={"src/x.ts": JS_CODE, "test/a.test.ts": js_test("../src/x") + line},
        )
        for word, line in {
            "dirname": "\nit('d', () => { read(__dirname); });\n",
            "relative path": "\nit('d', () => { read('./data.json'); });\n",
            "snapshot": "\nit('d', () => { expect(1).toMatchSnapshot(); });\n",
            "import.meta": "\nit('d', () => { read(import.meta.url); });\n",
        }.items()
    },
    "python reads __file__": Files(
        base={"tests/test_x.py": py_test("import os", "assert os.path.dirname(__file__)")},
        head={"tests/b/test_x.py": py_test("import os", "assert os.path.dirname(__file__)")},
    ),
    # an absolute import whose top name stands beside the test (pytest's rootdir insertion)
    "python sibling module": Files(
        base={"tests/a/helpers.py": PY_CODE, "tests/a/test_x.py": py_test("from helpers import f")},
        head={"tests/a/helpers.py": PY_CODE, "tests/b/test_x.py": py_test("from helpers import f")},
    ),
    # a Go test moved to another folder joins another package
    "go other package": Files(
        base={"a/a_test.go": go_test("example.com/m/x")},
        head={"b/a_test.go": go_test("example.com/m/x")},
    ),
    # a runner configuration the gate does not read above the new path
    "nested config": Files(
        base={
            "pkg/vitest.config.ts": "export default { test: { include: ['src/**'] } };\n",
            "pkg/src/x.ts": JS_CODE,
            "pkg/src/a.test.ts": js_test("./x"),
        },
        head={
            "pkg/vitest.config.ts": "export default { test: { include: ['src/**'] } };\n",
            "pkg/src/x.ts": JS_CODE,
            "pkg/test/a.test.ts": js_test("../src/x"),
        },
    ),
}


@pytest.mark.parametrize("name", sorted(MOVED_TWINS))
def test_a_hostile_twin_of_a_moved_test_fails(name: str) -> None:
    CASE.fails(MOVED_TWINS[name], "renamed")


def test_a_moved_test_is_collected_by_the_root_configs_names() -> None:
    config = "export default { test: { include: ['src/**/*.test.ts'] } };\n"
    base = {"vitest.config.ts": config, "src/x.ts": JS_CODE, "src/a.test.ts": js_test("./x")}
    away = {"vitest.config.ts": config, "src/x.ts": JS_CODE, "test/a.test.ts": js_test("../src/x")}
    CASE.fails(Files(base=base, head=away), "renamed")
    within = {"vitest.config.ts": config, "src/x.ts": JS_CODE, "src/b/a.test.ts": js_test("../x")}
    CASE.passes(Files(base=base, head=within))


def _by_hand(mode: str, tree: dict[str, str]) -> ChangeSet:
    """The module `src/old/x.ts` renamed to `src/new/x.ts` unchanged (or so
    its counts say) in `mode`, the test re-pointed, over the base `tree`."""
    test = "test/a.test.ts"
    return ChangeSet(
        files=(
            FileChange("src/new/x.ts", RENAMED, "src/old/x.ts", 0, 0, False, mode, mode),
            FileChange(test, MODIFIED, None, 1, 1, False, "100644", "100644"),
        ),
        texts={test: FileTexts(js_test("../lib/old/x"), js_test("../lib/new/x"))},
        tree=BaseTree(tree, frozenset({"", "src", "test", "src/old"})),
    )


def test_a_move_through_a_symlinked_folder_or_a_submodule_fails() -> None:
    listed = {"src": "folder", "test": "folder", "src/old": "folder", "test/a.test.ts": "file"}
    # `lib` a symlink to `src`: what `../lib/new/x` names is not the change's to say
    linked = _by_hand("100644", {**listed, "lib": "link"})
    CASE.fails(linked, "changed")
    # the same through the plain folder passes: the symlink alone refuses it
    plain = _by_hand("100644", {**listed})
    texts = {"test/a.test.ts": FileTexts(js_test("../src/old/x"), js_test("../src/new/x"))}
    CASE.passes(ChangeSet(files=plain.files, texts=texts, tree=plain.tree))
    # a submodule renamed: its commit may hold anything
    sub = _by_hand(MODE_SUBMODULE, {**listed})
    CASE.fails(ChangeSet(files=sub.files, texts=texts, tree=sub.tree), "changed")
    link = _by_hand(MODE_SYMLINK, {**listed})
    CASE.fails(ChangeSet(files=link.files, texts=texts, tree=link.tree), "changed")


@pytest.mark.parametrize("source", ["git", "patch"])
def test_both_builders_see_the_move(source: str) -> None:
    CASE.passes(MOVED_MODULES["ts relative"], source=source)
    CASE.passes(MOVED_TESTS["ts into test/"], source=source)
    CASE.fails(TWINS["ts relative: target changed"], "changed", source=source)


def test_without_the_base_trees_listing_nothing_is_proven() -> None:
    listed = {"src": "folder", "test": "folder", "src/old": "folder", "test/a.test.ts": "file"}
    plain = _by_hand("100644", listed)
    texts = {"test/a.test.ts": FileTexts(js_test("../src/old/x"), js_test("../src/new/x"))}
    CASE.passes(ChangeSet(files=plain.files, texts=texts, tree=plain.tree))
    CASE.fails(ChangeSet(files=plain.files, texts=texts, tree=None), "changed")
    # counts unknown (a writer's result.json): the move is not shown unchanged
    unknown = tuple(f._replace(added=None, deleted=None) for f in plain.files)
    CASE.fails(ChangeSet(files=unknown, texts=texts, tree=plain.tree), "changed")


def test_a_moved_python_test_follows_pythons_configured_names() -> None:
    ini = "[pytest]\npython_files = check_*.py\n"
    base = {"pytest.ini": ini, "tests/check_x.py": py_test("import os")}
    CASE.passes(
        Files(base=base, head={"pytest.ini": ini, "tests/b/check_x.py": py_test("import os")})
    )
    # the default name no longer collects: the configuration replaced it
    base = {"pytest.ini": ini, "tests/test_x.py": py_test("import os")}
    CASE.fails(
        Files(base=base, head={"pytest.ini": ini, "tests/b/test_x.py": py_test("import os")}),
        "renamed",
    )
