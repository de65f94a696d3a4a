"""test_evidence: a source change comes with a test case added or changed.

Tables of changes committed to real git repositories (`RuleCase`), for
Python, JavaScript and Go test files and a file the engine does not split;
generated hostile twins: every edit that adds no test case (a comment, a
blank line, a reformat, a test removed, a test file renamed or deleted, a
helper edited, a file of helpers only), in each language, beside a source
change in each spelling, fails; and `gate check` end to end."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.commands.cli import main
from gate.model.change import MODIFIED, ChangeSet, FileChange, FileTexts, from_paths
from tests.gitrepo import GitRepo
from tests.rulecase import Executable, Files, RuleCase

EVIDENCE = RuleCase("test_evidence", id="EV", sources=["src/"])

SOURCE = Files(
    base={"src/clamp.py": "def clamp(x):\n    return x\n"},
    head={"src/clamp.py": "def clamp(x):\n    return max(0, x)\n"},
)

PY = (
    "import pytest\n\nfrom clamp import clamp\n\n\n"
    "def helper():\n    return 1\n\n\n"
    "def test_low():\n    assert clamp(-1) == 0\n\n\n"
    '@pytest.mark.parametrize("x", [1, 2])\n'
    "def test_rows(x):\n    assert clamp(x) == x\n"
)
JS = (
    "import { clamp } from '../src/clamp'\n\n"
    "function helper() { return 1 }\n\n"
    "describe('clamp', () => {\n"
    "  it('keeps low', () => {\n    expect(clamp(-1)).toBe(0)\n  })\n"
    "  it.each([[1], [2]])('keeps %s', (x) => {\n    expect(clamp(x)).toBe(x)\n  })\n"
    "})\n"
)
GO = (
    'package clamp\n\nimport "testing"\n\n'
    "func helper() int { return 1 }\n\n"
    'func TestLow(t *testing.T) {\n\tif Clamp(-1) != 0 {\n\t\tt.Fatal("low")\n\t}\n}\n\n'
    "func TestRows(t *testing.T) {\n\tfor _, x := range []int{1, 2} {\n"
    "\t\tif Clamp(x) != x {\n\t\t\tt.Fatal(x)\n\t\t}\n\t}\n}\n"
)
# language -> (test path, base text)
BASES = {
    "py": ("tests/test_clamp.py", PY),
    "js": ("src/clamp.test.js", JS),
    "go": ("src/clamp_test.go", GO),
}


def with_test(path: str, base: str | None, head: str | None) -> Files:
    """The source change with the test file `path` changed from `base` to `head`."""
    test = Files(
        base={} if base is None else {path: base}, head={} if head is None else {path: head}
    )
    return SOURCE | test


JS_NEW = "  it('keeps high', () => {\n    expect(clamp(9)).toBe(9)\n  })\n"
# (language, head text of its test file): a test case added or changed
EVIDENT = [
    ("py", PY + "\n\ndef test_high():\n    assert clamp(9) == 9\n", '1 new test ("test_high")'),
    ("py", PY.replace("clamp(-1) == 0", "clamp(-2) == 0"), '"test_low" changed'),
    ("py", PY.replace("[1, 2]", "[1, 2, 3]"), 'new cases in "test_rows"'),
    (
        "py",
        PY.replace(
            "    return 1\n",
            "    return 1\n\n\nclass TestEdge:\n    def test_top(self):\n"
            "        assert clamp(5) == 5\n",
        ),
        '1 new test ("TestEdge.test_top")',
    ),
    ("js", JS[: JS.rindex("})")] + JS_NEW + "})\n", "1 new test"),
    ("js", JS.replace("clamp(-1)).toBe(0)", "clamp(-2)).toBe(0)"), "changed"),
    ("js", JS.replace("[[1], [2]]", "[[1], [2], [3]]"), "new cases in"),
    (
        "go",
        GO + "\nfunc TestHigh(t *testing.T) {\n\tif Clamp(9) != 9 {\n\t\tt.Fatal(9)\n\t}\n}\n",
        '1 new test ("TestHigh")',
    ),
    ("go", GO.replace("Clamp(-1) != 0", "Clamp(-2) != 0"), '"TestLow" changed'),
    ("go", GO.replace("[]int{1, 2}", "[]int{1, 2, 3}"), 'new cases in "TestRows"'),
]


@pytest.mark.parametrize(("language", "head", "named"), EVIDENT)
def test_a_test_case_added_or_changed_is_evidence(language: str, head: str, named: str) -> None:
    path, base = BASES[language]
    result = EVIDENCE.passes(with_test(path, base, head), "test evidence")
    assert named in result.message and f'"{path}"' in result.message
    assert '1 source file changed ("src/clamp.py")' in result.message


@pytest.mark.parametrize("language", sorted(BASES))
def test_a_new_test_file_holding_a_test_is_evidence(language: str) -> None:
    path, base = BASES[language]
    new = path.replace("clamp", "edge")
    EVIDENCE.passes(with_test(new, None, base), f'"{new}": 2 new tests')


def _comment(language: str, text: str) -> str:
    mark = "#" if language == "py" else "//"
    return text.replace("\n\n", f"\n\n{mark} a note\n", 1)


def _comment_in_test(language: str, text: str) -> str:
    if language == "py":
        return text.replace("    assert clamp(-1)", "    # why\n    assert clamp(-1)")
    if language == "js":
        return text.replace(
            "    expect(clamp(-1))", "    /* why */ // and how\n    expect(clamp(-1))"
        )
    return text.replace("\tif Clamp(-1)", "\t// why\n\tif Clamp(-1)")


def _reformat(language: str, text: str) -> str:
    if language == "py":
        return text.replace("assert clamp(-1) == 0", "assert clamp( -1 )==0")
    if language == "js":
        return text.replace("expect(clamp(-1)).toBe(0)", "expect( clamp(-1) ).toBe( 0 )")
    return text.replace("Clamp(-1) != 0", "Clamp( -1 ) != 0")


def _remove_test(language: str, text: str) -> str:
    if language == "py":
        return text.replace("def test_low():\n    assert clamp(-1) == 0\n\n\n", "")
    if language == "js":
        return text.replace("  it('keeps low', () => {\n    expect(clamp(-1)).toBe(0)\n  })\n", "")
    return text.replace(
        'func TestLow(t *testing.T) {\n\tif Clamp(-1) != 0 {\n\t\tt.Fatal("low")\n\t}\n}\n\n', ""
    )


def _edit_helper(language: str, text: str) -> str:
    return text.replace("return 1", "return 2")


# Edits of an existing test file that add and change no test case.
NO_CASE = {
    "comment": _comment,
    "comment in a test": _comment_in_test,
    "blank line": lambda language, text: text.replace("\n\n", "\n\n\n", 1),
    "reformat": _reformat,
    "test removed": _remove_test,
    "helper edited": _edit_helper,
}
# Spellings of a changed source file (all under `src/`, as a checkout sees them).
SPELLINGS = ["src/clamp.py", "SRC/clamp.py", "Src/deep/nested/clamp.py", "src/cl\u00e4mp.py"]


def source_at(path: str) -> Files:
    return Files(
        base={path: "def clamp(x):\n    return x\n"},
        head={path: "def clamp(x):\n    return max(0, x)\n"},
    )


@pytest.mark.parametrize(
    ("edit", "language", "spelling"),
    list(itertools.product(sorted(NO_CASE), sorted(BASES), SPELLINGS[:2]))
    + [(e, "py", s) for e in sorted(NO_CASE) for s in SPELLINGS[2:]],
)
def test_an_edit_without_a_test_case_is_no_evidence(
    edit: str, language: str, spelling: str
) -> None:
    path, base = BASES[language]
    head = NO_CASE[edit](language, base)
    assert head != base
    test = Files(base={path: base}, head={path: head})
    result = EVIDENCE.fails(source_at(spelling) | test, "no test case was added or changed")
    assert result.paths == (spelling,)
    assert f'test file written without one ("{path}")' in result.message


@pytest.mark.parametrize("language", sorted(BASES))
def test_a_test_file_deleted_or_renamed_unchanged_is_no_evidence(language: str) -> None:
    path, base = BASES[language]
    EVIDENCE.fails(with_test(path, base, None), "no test case was added or changed")
    moved = path.replace("clamp", "clamp_moved")
    renamed = Files(base={path: base}, head={moved: base})
    result = EVIDENCE.fails(SOURCE | renamed, "no test case was added or changed")
    assert f'"{moved}"' in result.message


HELPERS = {
    "py": ("tests/test_helpers.py", "import os\n\n\ndef make(x):\n    return os.sep + x\n"),
    "js": ("src/helpers.test.js", "export function make(x) { return x }\n"),
    "go": ("src/helpers_test.go", "package clamp\n\nfunc make2(x int) int { return x }\n"),
}


@pytest.mark.parametrize("language", sorted(HELPERS))
def test_a_new_test_file_of_helpers_only_is_no_evidence(language: str) -> None:
    path, text = HELPERS[language]
    EVIDENCE.fails(with_test(path, None, text), "no test case was added or changed")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (Files(base={"docs/a.md": "a\n"}, head={"docs/a.md": "b\n"}), "no source file"),
        (Files(base={"src/clamp.py": "x = 1\n"}, head={}), "no source file"),  # deleted
        (
            Files(base={"src/a.py": "x = 1\n" * 9}, head={"src/b.py": "x = 1\n" * 9}),
            "no source file",
        ),
        (
            Files(base={"src/run.py": "x = 1\n"}, head={"src/run.py": Executable("x = 1\n")}),
            "no source file",
        ),
        (
            Files(base={"src/_version.py": "v = 1\n"}, head={"src/_version.py": "v = 2\n"}),
            "no source file",
        ),
        (
            SOURCE | Files(head={"spec/clamp.spec.lua": "it('clamps', function()\nend)\n"}),
            "2 non-blank lines in a file the engine does not split",
        ),
        # a JSDoc comment, a reformat
        (
            Files(
                base={"src/a.ts": "/** Old. */\nexport function f(x: number) { return x }\n"},
                head={
                    "src/a.ts": "/**\n * New words.\n */\n"
                    "export function f(x: number) {\n  return x\n}\n"
                },
            ),
            "no source file",
        ),
        # docstrings: prose
        (
            Files(
                base={"src/a.py": '"""A."""\n\n\ndef f():\n    """Old words."""\n    return 1\n'},
                head={"src/a.py": '"""B."""\n\n\ndef f():\n    """New words."""\n    return 1\n'},
            ),
            "no source file",
        ),
        # comments, layout and order: the same code
        (
            Files(
                base={"src/a.py": "import os\n\n\ndef f():\n    return os.sep\n"},
                head={
                    "src/a.py": "import os\n\n\ndef f():  # the separator\n"
                    "    return (\n        os.sep\n    )\n"
                },
            ),
            "no source file",
        ),
        (
            Files(
                base={"src/a.go": "package a\n\n// F is.\nfunc F() int { return 1 }\n"},
                head={
                    "src/a.go": "package a\n\n// F returns one.\nfunc F() int {\n\treturn 1\n}\n"
                },
            ),
            "no source file",
        ),
        (
            Files(
                base={
                    "src/a.ts": "import { b } from './b'\nimport { a } from './a'\n"
                    "export const c = a + b\n"
                },
                head={
                    "src/a.ts": "import { a } from './a'\nimport { b } from './b'\n\n// the sum\n"
                    "export const c = a + b\n"
                },
            ),
            "no source file",
        ),
    ],
)
def test_what_needs_no_test(change: Files, reason: str) -> None:
    EVIDENCE.passes(change, reason, exclude=["src/_version.py"])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        # a source change hidden by a rename: edited on the way
        (
            Files(
                base={"src/a.py": "x = 1\n" * 9},
                head={"src/b.py": "x = 1\n" * 8 + "x = 2\n"},
            ),
            '("src/b.py")',
        ),
        # code renamed into the sources from elsewhere, unchanged
        (
            Files(base={"scripts/a.py": "x = 1\n" * 9}, head={"src/a.py": "x = 1\n" * 9}),
            '("src/a.py")',
        ),
        # a real change beside a comment, a docstring, a new helper
        (
            Files(
                base={"src/a.py": "def f():\n    return 1\n"},
                head={"src/a.py": "def f():  # same\n    return 2\n"},
            ),
            '("src/a.py")',
        ),
        (
            Files(
                base={"src/a.py": "def f():\n    return 1\n"},
                head={"src/a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n"},
            ),
            '("src/a.py")',
        ),
        (
            Files(
                base={"src/a.ts": "export const c = 1 // one\n"},
                head={"src/a.ts": "export const c = 2 // one\n"},
            ),
            '("src/a.ts")',
        ),
        (
            Files(
                base={"src/a.ts": "export const s = 'a b'\n"},
                head={"src/a.ts": "export const s = 'a  b'\n"},
            ),
            '("src/a.ts")',
        ),
        # a docstring replaced by code, a string that is no docstring, an annotation
        (
            Files(
                base={"src/a.py": 'def f():\n    """Doc."""\n'},
                head={"src/a.py": 'def f():\n    return "Doc."\n'},
            ),
            '("src/a.py")',
        ),
        (
            Files(
                base={"src/a.py": 'def f():\n    x = 1\n    "a"\n'},
                head={"src/a.py": 'def f():\n    x = 1\n    "b"\n'},
            ),
            '("src/a.py")',
        ),
        (
            Files(
                base={"src/a.py": "def f(x):\n    return x\n"},
                head={"src/a.py": "def f(x: int):\n    return x\n"},
            ),
            '("src/a.py")',
        ),
        # a semicolon added inside a unit
        (
            Files(
                base={"src/a.js": "export function f() { return 1 }\n"},
                head={"src/a.js": "export function f() { return 1; }\n"},
            ),
            '("src/a.js")',
        ),
        # a new source file
        (Files(head={"src/new.py": "x = 1\n"}), '("src/new.py")'),
        # an exclude matches as written only
        (
            Files(base={"src/_VERSION.py": "v = 1\n"}, head={"src/_VERSION.py": "v = 2\n"}),
            '("src/_VERSION.py")',
        ),
        # a file the engine does not split that gains only blank lines
        (
            SOURCE
            | Files(
                base={"spec/c.spec.lua": "it('a', function()\nend)\n"},
                head={"spec/c.spec.lua": "it('a', function()\n\n\nend)\n"},
            ),
            'written without one ("spec/c.spec.lua")',
        ),
        # a test file that does not parse
        (
            SOURCE | Files(head={"tests/test_new.py": "def test_x(:\n    pass\n"}),
            '"tests/test_new.py" could not be read as test cases (the head version does not parse',
        ),
    ],
)
def test_what_needs_a_test(change: Files, reason: str) -> None:
    EVIDENCE.fails(change, reason, exclude=["src/_version.py"])


TS_REPAIRED = (
    "vi.mock('m', async importOriginal => {\n"
    "    const actual = await importOriginal<typeof import('m')>();\n"
    "    return { ...actual };\n"
    "});\n\n"
    "it('keeps low', () => {\n    expect(clamp(-1)).toBe(0);\n});\n"
)


def test_a_grammar_the_parser_lags_is_read_around_the_statement_it_repairs() -> None:
    """tree-sitter's TypeScript grammar refuses `importOriginal<typeof
    import('m')>()`; the statement is one opaque unit, the tests around it
    are read."""
    path = "src/clamp.test.ts"
    grown = TS_REPAIRED + "\nit('keeps high', () => {\n    expect(clamp(9)).toBe(9);\n});\n"
    EVIDENCE.passes(with_test(path, TS_REPAIRED, grown), '1 new test ("keeps high")')
    EVIDENCE.passes(with_test(path, None, TS_REPAIRED), '1 new test ("keeps low")')
    commented = TS_REPAIRED.replace("it('keeps", "// a note\nit('keeps")
    EVIDENCE.fails(with_test(path, TS_REPAIRED, commented), "no test case was added")


def test_the_message_names_a_few_sources_then_a_count() -> None:
    change = Files(head={f"src/m{i}.py": "x = 1\n" for i in range(8)})
    result = EVIDENCE.fails(change, '8 source files changed ("src/m0.py", ')
    assert "and 3 more)" in result.message
    assert len(result.paths) == 8


def test_the_tests_default_to_the_rubrics_and_can_be_named() -> None:
    change = SOURCE | Files(head={"checks/clamp_check.py": "def test_x():\n    assert 1\n"})
    EVIDENCE.fails(change, "no test case")
    EVIDENCE.passes(change, '"checks/clamp_check.py": 1 new test', tests=["checks/"])


PY_LINES = PY.splitlines(keepends=True)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(PY_LINES)),
            st.sampled_from(["\n", "# note\n", "    # indented note\n", "#\n"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_generated_comments_and_blank_lines_are_no_evidence(
    inserts: list[tuple[int, str]],
) -> None:
    """Comments and blank lines put between any lines of a Python test file
    (outside strings: the file holds none across lines) are never evidence."""
    text = list(PY_LINES)
    for at, line in sorted(inserts, reverse=True):
        text.insert(at, line)
    head = "".join(text)
    change = with_test("tests/test_clamp.py", PY, head)
    EVIDENCE.fails(change, "no test case was added or changed", source="example")


def test_gate_check_end_to_end(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    rubric = "version: 1\nrules:\n  - {id: EV, kind: test_evidence, sources: [src/]}\n"
    repo.write(".github/blast-radius.yml", rubric)
    repo.write("src/clamp.py", "def clamp(x):\n    return x\n")
    repo.write("tests/test_clamp.py", PY)
    base = repo.commit("base")
    repo.write("src/clamp.py", "def clamp(x):\n    return max(0, x)\n")
    repo.write("tests/test_clamp.py", _comment("py", PY))
    head = repo.commit("fix without a test")
    args = ["check", "--repo", str(repo.root), "--base", base, "--head", head, "--format", "json"]
    assert main(args) == 1
    repo.write("tests/test_clamp.py", PY + "\n\ndef test_high():\n    assert clamp(9) == 9\n")
    fixed = repo.commit("the test")
    assert main([*args[:5], "--head", fixed, "--format", "json"]) == 0


def test_a_source_that_knows_paths_only_cannot_show_evidence() -> None:
    """A writer's result.json names paths, not what happened to them: a
    source path counts as changed, a test path brings no evidence."""
    change = ChangeSet(files=from_paths(["src/a.py", "tests/test_a.py"]), source="writer")
    result = EVIDENCE.fails(change, '1 source file changed ("src/a.py") and no test case')
    assert result.paths == ("src/a.py",)


def test_a_test_text_the_source_withheld_is_named() -> None:
    files = (
        FileChange("src/a.py", MODIFIED, added=1, deleted=1),
        FileChange("tests/test_a.py", MODIFIED, added=9, deleted=0),
    )
    texts = {"tests/test_a.py": FileTexts(None, None, withheld="it is over 1 MiB")}
    change = ChangeSet(files=files, texts=texts, source="api")
    EVIDENCE.fails(change, '"tests/test_a.py" could not be read as test cases (it is over 1 MiB)')


def _renamed_case(language: str, text: str) -> str:
    if language == "py":
        return text.replace("def test_low()", "def test_low_edge()")
    if language == "js":
        return text.replace("it('keeps low'", "it('keeps the low edge'")
    return text.replace("func TestLow(", "func TestLowEdge(")


def _copied_case(language: str, text: str) -> str:
    if language == "py":
        return text + "\n\ndef test_low_again():\n    assert clamp(-1) == 0\n"
    if language == "js":
        return text[: text.rindex("})")] + (
            "  it('keeps low again', () => {\n    expect(clamp(-1)).toBe(0)\n  })\n})\n"
        )
    return (
        text
        + '\nfunc TestLowAgain(t *testing.T) {\n\tif Clamp(-1) != 0 {\n\t\tt.Fatal("low")\n\t}\n}\n'
    )


@pytest.mark.parametrize("language", sorted(BASES))
@pytest.mark.parametrize("how", [_renamed_case, _copied_case])
def test_a_test_renamed_or_copied_under_another_name_is_no_evidence(
    language: str, how: Callable[[str, str], str]
) -> None:
    path, base = BASES[language]
    head = how(language, base)
    assert head != base
    EVIDENCE.fails(with_test(path, base, head), "no test case was added or changed")
    # the same renamed test with its body changed is evidence
    edited = head.replace("-1", "-3")
    EVIDENCE.passes(with_test(path, base, edited), "test evidence")


def test_a_test_moved_to_another_file_is_no_evidence() -> None:
    moved = "from clamp import clamp\n\n\ndef test_low():\n    assert clamp(-1) == 0\n"
    change = with_test("tests/test_clamp.py", PY, _remove_test("py", PY)) | Files(
        head={"tests/test_low.py": moved}
    )
    EVIDENCE.fails(change, "no test case was added or changed")


SKIPS = {
    "py": [
        "\n\n@pytest.mark.skip(reason='later')\ndef test_high():\n    assert clamp(9) == 9\n",
        "\n\n@unittest.skip('later')\ndef test_high():\n    assert clamp(9) == 9\n",
        "\n\ndef test_high():\n    pytest.skip('later')\n    assert clamp(9) == 9\n",
        # the skip first, after a docstring, or under a signature of several lines
        '\n\ndef test_high():\n    """Later."""\n    pytest.skip("later")\n'
        "    assert clamp(9) == 9\n",
        "\n\ndef test_high(\n    tmp_path,\n):\n    pytest.skip('x')\n    assert clamp(9) == 9\n",
        "\n\nclass TestHigh(unittest.TestCase):\n    def test_high(self):\n"
        "        self.skipTest('later')\n        assert clamp(9) == 9\n",
    ],
    "go": [
        '\nfunc TestHigh(t *testing.T) {\n\tt.Skip("later")\n\tif Clamp(9) != 9 {\n\t}\n}\n',
        "\nfunc TestHigh(t *testing.T) {\n\t// not yet\n\tt.SkipNow()\n"
        "\tif Clamp(9) != 9 {\n\t}\n}\n",
        '\nfunc TestHigh(t *testing.T) { t.Skipf("x %d", 1); if Clamp(9) != 9 {} }\n',
    ],
}
JS_SKIPS = [
    "  it.skip('keeps high', () => {\n    expect(clamp(9)).toBe(9)\n  })\n",
    "  xit('keeps high', () => {\n    expect(clamp(9)).toBe(9)\n  })\n",
    "  it.todo('keeps high')\n",
    "  it.only.skip('keeps high', () => {\n    expect(clamp(9)).toBe(9)\n  })\n",
]


@pytest.mark.parametrize(
    ("language", "head"),
    [(lang, BASES[lang][1] + tail) for lang, tails in SKIPS.items() for tail in tails]
    + [("js", JS[: JS.rindex("})")] + tail + "})\n") for tail in JS_SKIPS],
)
def test_a_skipped_test_is_no_evidence(language: str, head: str) -> None:
    path, base = BASES[language]
    EVIDENCE.fails(with_test(path, base, head), "no test case was added or changed")


@pytest.mark.parametrize("language", sorted(BASES))
def test_skipping_an_existing_test_is_no_evidence(language: str) -> None:
    path, base = BASES[language]
    head = {
        "py": base.replace("def test_low():", "@pytest.mark.skip\ndef test_low():"),
        "js": base.replace("  it('keeps low'", "  it.skip('keeps low'"),
        "go": base.replace(
            "func TestLow(t *testing.T) {\n", "func TestLow(t *testing.T) {\n\tt.Skip()\n"
        ),
    }[language]
    assert head != base
    EVIDENCE.fails(with_test(path, base, head), "no test case was added or changed")


CONDITIONAL_SKIPS = {
    "py": [
        "\n\ndef test_high():\n    if sys.platform == 'win32':\n        pytest.skip('posix')\n"
        "    assert clamp(9) == 9\n",
        "\n\ndef test_high():\n    assert clamp(9) == 9\n"
        "    if FAST:\n        pytest.skip('slow')\n",
    ],
    "go": [
        '\nfunc TestHigh(t *testing.T) {\n\tif os.Getenv("CI") != "1" {\n\t\tt.Skip("ci")\n\t}\n'
        "\tif Clamp(9) != 9 {\n\t\tt.Fatal()\n\t}\n}\n",
        '\nfunc TestHigh(t *testing.T) {\n\tif runtime.GOOS == "windows" { t.Skip() }\n'
        "\tif Clamp(9) != 9 {\n\t\tt.Fatal()\n\t}\n}\n",
    ],
}


@pytest.mark.parametrize(
    ("language", "head"),
    [(lang, BASES[lang][1] + tail) for lang, tails in CONDITIONAL_SKIPS.items() for tail in tails],
)
def test_a_skip_under_a_condition_is_evidence(language: str, head: str) -> None:
    """The test runs where the condition does not hold (beads' TestEmbeddedInit)."""
    path, base = BASES[language]
    EVIDENCE.passes(with_test(path, base, head), "1 new test")


def test_a_conditional_skip_is_evidence() -> None:
    head = (
        PY
        + "\n\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\n"
        + "def test_high():\n    assert clamp(9) == 9\n"
    )
    EVIDENCE.passes(with_test("tests/test_clamp.py", PY, head), '1 new test ("test_high")')
