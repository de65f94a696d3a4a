"""test_evidence on test cases the drift engine does not call CASE:
Rust tests inside the source file they test (`gate.drift.rust`),
Python, JavaScript and Go tests whose body writes what other tests see
(COLLECTION for `test_drift`, `Unit.test`), Vitest cases of a
`test.extend` function imported from another file; and on checks added
to a helper the test cases call.  Each evidence row has hostile twins,
generated where they can be: the same file edited without a test case
added or changed (a comment, a reformat, a rename, a copy, a skip, a
helper or hook edited, a check no test runs) fails."""

from __future__ import annotations

import pytest

from tests.rulecase import Files, RuleCase

EVIDENCE = RuleCase("test_evidence", id="EV", sources=["src/"])

RS_BASE = (
    "pub fn clamp(x: i32) -> i32 {\n    x\n}\n\n"
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
    "    fn helper() -> i32 {\n        1\n    }\n\n"
    "    #[test]\n    fn low() {\n        assert_eq!(clamp(-1), 0);\n    }\n\n"
    "    #[rstest]\n    #[case(1)]\n    fn rows(#[case] x: i32) {\n"
    "        assert_eq!(clamp(x), x);\n    }\n"
    "}\n"
)
# the source change every Rust row carries: the function's body
RS_SOURCE = RS_BASE.replace("    x\n}", "    x.max(0)\n}")
END = RS_SOURCE.rindex("}")


def rs_with(test: str) -> str:
    """The changed source with `test` added at the end of `mod tests`."""
    return RS_SOURCE[:END] + test + "}\n"


RS_EVIDENT = [
    (
        rs_with("\n    #[test]\n    fn high() {\n        assert_eq!(clamp(9), 9);\n    }\n"),
        "tests::high",
    ),
    (
        rs_with(
            '\n    #[tokio::test(flavor = "multi_thread")]\n'
            "    async fn high() {\n        assert_eq!(clamp(9), 9);\n    }\n"
        ),
        "tests::high",
    ),
    (
        rs_with(
            '\n    #[test_case(9 ; "nine")]\n    fn high(x: i32) {\n'
            "        assert_eq!(clamp(x), x);\n    }\n"
        ),
        "tests::high",
    ),
    (
        rs_with(
            "\n    mod edges {\n        use super::*;\n"
            "        #[test]\n        fn high() {\n"
            "            assert_eq!(clamp(9), 9);\n        }\n    }\n"
        ),
        "tests::edges::high",
    ),
    (RS_SOURCE.replace("clamp(-1), 0", "clamp(-2), 0"), '"tests::low" changed'),
    (RS_SOURCE.replace("#[case(1)]", "#[case(1)]\n    #[case(2)]"), '"tests::rows" changed'),
    (
        rs_with(
            "\n    #[test]\n    #[cfg_attr(windows, ignore)]\n    fn high() {\n"
            "        assert_eq!(clamp(9), 9);\n    }\n"
        ),
        "tests::high",
    ),
]


RS_EVIDENT += [
    (
        rs_with(
            f"\n    #[{attribute}]\n    fn high() {{\n        assert_eq!(clamp(9), 9);\n    }}\n"
        ),
        "tests::high",
    )
    for attribute in (
        "async_std::test",
        "test_log::test",
        "sqlx::test(migrations = false)",
        "wasm_bindgen_test",
        "quickcheck",
        "rstest::rstest",
    )
]


@pytest.mark.parametrize(("head", "named"), RS_EVIDENT)
def test_a_rust_test_added_or_changed_in_the_source_file_is_evidence(head: str, named: str) -> None:
    change = Files(base={"src/lib.rs": RS_BASE}, head={"src/lib.rs": head})
    result = EVIDENCE.passes(change, '"src/lib.rs": ')
    assert named in result.message


def test_a_rust_test_in_a_test_file_is_evidence() -> None:
    test = "use crate::clamp;\n\n#[test]\nfn high() {\n    assert_eq!(clamp(9), 9);\n}\n"
    change = Files(
        base={"src/lib.rs": RS_BASE, "tests/clamp.rs": "use crate::clamp;\n"},
        head={"src/lib.rs": RS_SOURCE, "tests/clamp.rs": test},
    )
    EVIDENCE.passes(change, '"tests/clamp.rs": 1 new test ("high")', tests=["tests/"])


# Hostile twins: the source change with `mod tests` edited without a test
# case added or changed.
RS_TWINS = {
    "a comment in a test": RS_SOURCE.replace("clamp(-1), 0);", "clamp(-1), 0); // low edge"),
    "a doc comment on a test": RS_SOURCE.replace(
        "    #[test]\n", "    /// the low edge\n    #[test]\n"
    ),
    "a block comment": RS_SOURCE.replace("assert_eq!(clamp(-1)", "/* x */ assert_eq!(clamp(-1)"),
    "a reformat": RS_SOURCE.replace(
        "    fn low() {\n        assert_eq!(clamp(-1), 0);\n    }",
        "    fn low() { assert_eq!( clamp(-1), 0 ); }",
    ),
    "a helper edited": RS_SOURCE.replace("        1\n", "        2\n"),
    "a test renamed": RS_SOURCE.replace("fn low()", "fn low_edge()"),
    "a test copied under another name": rs_with(
        "\n    #[test]\n    fn low_again() {\n        assert_eq!(clamp(-1), 0);\n    }\n"
    ),
    "a new test ignored": rs_with(
        "\n    #[test]\n    #[ignore]\n    fn high() {\n        assert_eq!(clamp(9), 9);\n    }\n"
    ),
    "a new test ignored with a reason": rs_with(
        '\n    #[ignore = "slow"]\n    #[test]\n    fn high() {\n'
        "        assert_eq!(clamp(9), 9);\n    }\n"
    ),
    "an existing test ignored and edited": RS_SOURCE.replace(
        "    #[test]\n    fn low() {\n        assert_eq!(clamp(-1), 0);",
        "    #[test]\n    #[ignore]\n    fn low() {\n        assert_eq!(clamp(-2), 0);",
    ),
    "a new fn named like a test but no test": rs_with(
        "\n    fn test_high() {\n        assert_eq!(clamp(9), 9);\n    }\n"
    ),
    "a test attribute in a comment": rs_with(
        "\n    // #[test]\n    fn high() {\n        assert_eq!(clamp(9), 9);\n    }\n"
    ),
    "a test removed": RS_SOURCE.replace(
        "    #[test]\n    fn low() {\n        assert_eq!(clamp(-1), 0);\n    }\n", ""
    ),
}


@pytest.mark.parametrize("how", sorted(RS_TWINS))
def test_a_rust_edit_without_a_test_case_is_no_evidence(how: str) -> None:
    head = RS_TWINS[how]
    assert head != RS_SOURCE, how
    change = Files(base={"src/lib.rs": RS_BASE}, head={"src/lib.rs": head})
    EVIDENCE.fails(change, "no test case was added or changed")


# Tests whose body writes state other tests see (COLLECTION for test_drift).
JS_STATE = (
    "import { expect, test, beforeEach } from 'vitest'\n"
    "import { volumeTest } from './setup'\n"
    "import { clamp } from '../src/clamp'\n\n"
    "let seen = []\n"
    "function capture(x) { seen.push(clamp(x)) }\n\n"
    "test('records', () => {\n  seen = []\n  capture(1)\n  expect(seen).toEqual([1])\n})\n\n"
    "volumeTest('reads', async ({ volume }) => {\n  expect(await volume.read()).toBe('a')\n})\n"
)
JS_STATE_NEW = (
    "\ntest('records low', () => {\n  seen = []\n  capture(-1)\n  expect(seen).toEqual([0])\n})\n"
)
JS_EXTENDED_NEW = (
    "\nvolumeTest('writes', async ({ volume }) => {\n"
    "  expect(await volume.write('b')).toBe(true)\n})\n"
)
PY_STATE = (
    "import pytest\nfrom unittest.mock import MagicMock\n\nfrom clamp import clamp\n\n\n"
    "@pytest.fixture\ndef svc():\n    return MagicMock()\n\n\n"
    "class TestClamp:\n    def test_low(self, svc):\n"
    "        svc.get().value = -1\n        assert clamp(svc.get().value) == 0\n"
)
PY_STATE_NEW = (
    "\n    def test_high(self, svc):\n"
    "        svc.get().value = 9\n        assert clamp(svc.get().value) == 9\n"
)
SHARING = {"js": ("src/clamp.test.js", JS_STATE), "py": ("tests/test_clamp.py", PY_STATE)}
SHARING_EVIDENT = [
    ("js", JS_STATE + JS_STATE_NEW, '1 new test ("records low")'),
    ("js", JS_STATE.replace("toEqual([1])", "toEqual([2])"), '"records" changed'),
    ("js", JS_STATE + JS_EXTENDED_NEW, '1 new test ("volumeTest writes")'),
    ("js", JS_STATE.replace("toBe('a')", "toBe('b')"), '"volumeTest reads" changed'),
    ("py", PY_STATE + PY_STATE_NEW, '1 new test ("TestClamp.test_high")'),
    ("py", PY_STATE.replace("== 0", "== 1"), '"TestClamp.test_low" changed'),
]


def _source_and(path: str, base: str, head: str) -> Files:
    return Files(
        base={"src/clamp.py": "def clamp(x):\n    return x\n", path: base},
        head={"src/clamp.py": "def clamp(x):\n    return max(0, x)\n", path: head},
    )


def test_the_sharing_tests_are_collection_time_code_for_test_drift() -> None:
    """The rows above are what the engine calls COLLECTION, yet tests."""
    from gate.drift import COLLECTION, units_for

    for path, text in SHARING.values():
        tests = [u for u in units_for(path, text) or () if u.test]
        assert tests and all(u.role == COLLECTION for u in tests), path


@pytest.mark.parametrize(("language", "head", "named"), SHARING_EVIDENT)
def test_a_test_that_writes_shared_state_added_or_changed_is_evidence(
    language: str, head: str, named: str
) -> None:
    path, base = SHARING[language]
    result = EVIDENCE.passes(_source_and(path, base, head), "test evidence")
    assert named in result.message


SHARING_TWINS = {
    "js": {
        "renamed": JS_STATE.replace("'records'", "'records all'"),
        "commented": JS_STATE.replace("  capture(1)\n", "  capture(1) // one\n"),
        "skipped new": JS_STATE + JS_STATE_NEW.replace("test(", "test.skip("),
        "extended skipped new": JS_STATE
        + JS_EXTENDED_NEW.replace("volumeTest(", "volumeTest.skip("),
        "extended renamed": JS_STATE.replace("'reads'", "'reads a'"),
        "extended copied": JS_STATE
        + JS_STATE[JS_STATE.index("volumeTest('reads'") :].replace("'reads'", "'reads again'"),
        "helper edited": JS_STATE.replace("seen.push(clamp(x))", "seen.push(clamp(x + 1))"),
        "hook added": JS_STATE + "\nbeforeEach(() => {\n  seen = []\n})\n",
        "call of a helper, no test": JS_STATE
        + "\nregister('writes', async () => {\n  seen = []\n})\n",
    },
    "py": {
        "renamed": PY_STATE.replace("def test_low", "def test_low_edge"),
        "commented": PY_STATE.replace("== 0\n", "== 0  # low\n"),
        "skipped new": PY_STATE
        + PY_STATE_NEW.replace("    def test_high", "    @pytest.mark.skip\n    def test_high"),
        "fixture edited": PY_STATE.replace("return MagicMock()", "return MagicMock(spec=object)"),
        "helper method added": PY_STATE
        + "\n    def helper(self, svc):\n        svc.get().value = 9\n",
    },
}


@pytest.mark.parametrize(
    ("language", "how"),
    [(lang, how) for lang, twins in SHARING_TWINS.items() for how in sorted(twins)],
)
def test_a_sharing_test_file_edited_without_a_test_case_is_no_evidence(
    language: str, how: str
) -> None:
    path, base = SHARING[language]
    head = SHARING_TWINS[language][how]
    assert head != base
    EVIDENCE.fails(_source_and(path, base, head), "no test case was added or changed")


def _line_edits(text: str, start: int, comment: str) -> list[str]:
    """`text` with a comment line, a trailing comment or a blank line
    inserted at each line from the line holding `start` on."""
    lines = text.split("\n")
    first = text[:start].count("\n")
    out = []
    for n in range(first, len(lines) - 1):
        indent = lines[n][: len(lines[n]) - len(lines[n].lstrip())]
        for edit in (
            [*lines[:n], f"{indent}{comment} note", *lines[n:]],
            [*lines[:n], "", *lines[n:]],
            [
                *lines[:n],
                lines[n] + f" {comment} note" if lines[n].strip() else lines[n],
                *lines[n + 1 :],
            ],
        ):
            out.append("\n".join(edit))
    return out


def test_generated_comments_and_blank_lines_in_a_rust_mod_tests_are_no_evidence() -> None:
    for head in _line_edits(RS_SOURCE, RS_SOURCE.index("#[cfg(test)]"), "//"):
        change = Files(base={"src/lib.rs": RS_BASE}, head={"src/lib.rs": head})
        EVIDENCE.fails(change, "no test case was added or changed")


@pytest.mark.parametrize("language", sorted(SHARING))
def test_generated_comments_and_blank_lines_in_sharing_tests_are_no_evidence(
    language: str,
) -> None:
    path, base = SHARING[language]
    start = base.index("test('records'") if language == "js" else base.index("class TestClamp")
    for head in _line_edits(base, start, "//" if language == "js" else "#"):
        EVIDENCE.fails(_source_and(path, base, head), "no test case was added or changed")


def test_a_rust_test_moved_to_a_test_file_is_no_evidence() -> None:
    low = "    #[test]\n    fn low() {\n        assert_eq!(clamp(-1), 0);\n    }\n"
    moved = "use crate::clamp;\n\n" + low.replace("\n    ", "\n").lstrip()
    change = Files(
        base={"src/lib.rs": RS_BASE, "tests/clamp.rs": "use crate::clamp;\n"},
        head={"src/lib.rs": RS_SOURCE.replace(low, ""), "tests/clamp.rs": moved},
    )
    EVIDENCE.fails(change, "no test case was added or changed", tests=["tests/"])


# A shared helper the test cases call (a loop of cases over one helper):
# language -> (path, base text, the helper's check, a new check for it).
HELPED = {
    "js": (
        "src/clamp.test.js",
        "import { clamp } from '../src/clamp'\n\n"
        "describe('clamp', () => {\n"
        "  function check(x) {\n    const got = clamp(x)\n    expect(got).toBe(x)\n  }\n\n"
        "  function unused(x) {\n    return clamp(x)\n  }\n\n"
        "  ;[1, 2].forEach((x) => {\n    test(`keeps ${x}`, () => {\n      check(x)\n    })\n  })\n"
        "})\n",
        "    expect(got).toBe(x)\n",
        "    expect(clamp(-x)).toBe(0)\n",
    ),
    "py": (
        "tests/test_clamp.py",
        "import pytest\n\nfrom clamp import clamp\n\n\n"
        "def check(x):\n    got = clamp(x)\n    assert got == x\n\n\n"
        "def unused(x):\n    return clamp(x)\n\n\n"
        '@pytest.mark.parametrize("x", [1, 2])\ndef test_rows(x):\n    check(x)\n',
        "    assert got == x\n",
        "    assert clamp(-x) == 0\n",
    ),
    "go": (
        "src/clamp_test.go",
        'package clamp\n\nimport "testing"\n\n'
        "func check(t *testing.T, x int) {\n\tgot := Clamp(x)\n"
        "\tif got != x {\n\t\tt.Fatal(x)\n\t}\n}\n\n"
        "func unused(x int) int {\n\treturn Clamp(x)\n}\n\n"
        "func TestRows(t *testing.T) {\n"
        "\tfor _, x := range []int{1, 2} {\n\t\tcheck(t, x)\n\t}\n}\n",
        "\tif got != x {\n\t\tt.Fatal(x)\n\t}\n",
        '\tif Clamp(-x) != 0 {\n\t\tt.Errorf("low %d", x)\n\t}\n',
    ),
}
UNUSED = {
    "js": "    return clamp(x)\n",
    "py": "    return clamp(x)\n",
    "go": "\treturn Clamp(x)\n",
}
COMMENT = {"js": "//", "py": "#", "go": "//"}
REFORMAT = {
    "js": "    expect(\n      got\n    ).toBe(x)\n",
    "py": "    assert (\n        got == x\n    )\n",
    "go": "\tif got != x { t.Fatal(x) }\n",
}
SKIP_CALLER = {
    "js": ("    test(`keeps", "    test.skip(`keeps"),
    "py": ("def test_rows", "@pytest.mark.skip\ndef test_rows"),
    "go": ("func TestRows(t *testing.T) {\n", "func TestRows(t *testing.T) {\n\tt.Skip()\n"),
}


def _helped(language: str, head: str) -> Files:
    path, base, _, _ = HELPED[language]
    return _source_and(path, base, head)


@pytest.mark.parametrize("language", sorted(HELPED))
def test_a_check_added_to_a_helper_the_tests_call_is_evidence(language: str) -> None:
    _, base, check, new = HELPED[language]
    head = base.replace(check, check + new)
    result = EVIDENCE.passes(_helped(language, head), "test evidence")
    assert "new checks in" in result.message and "check" in result.message


def _helper_twins(language: str) -> dict[str, str]:
    _, base, check, new = HELPED[language]
    mark = COMMENT[language]
    commented = "".join(
        f"{line[: len(line) - len(line.lstrip())]}{mark} {line.lstrip()}\n"
        for line in new.splitlines()
    )
    old, skipped = SKIP_CALLER[language]
    return {
        "a check in an uncalled helper": base.replace(UNUSED[language], new + UNUSED[language]),
        "a check commented out": base.replace(check, check + commented),
        "a check reformatted": base.replace(check, REFORMAT[language]),
        "code that checks nothing": base.replace(
            check,
            check
            + new.replace("assert", "print")
            .replace("expect(", "console.log(")
            .replace("t.Errorf", "println"),
        ),
        "the only caller skipped": base.replace(check, check + new).replace(old, skipped),
        "a check replaced": base.replace(check, new),
    }


@pytest.mark.parametrize(
    ("language", "how"),
    [(lang, how) for lang in sorted(HELPED) for how in sorted(_helper_twins(lang))],
)
def test_a_helper_edit_without_a_new_check_a_test_runs_is_no_evidence(
    language: str, how: str
) -> None:
    _, base, _, _ = HELPED[language]
    head = _helper_twins(language)[how]
    assert head != base, how
    EVIDENCE.fails(_helped(language, head), "no test case was added or changed")


RS_CODE_ONLY = {
    "a doc comment": RS_BASE.replace("pub fn clamp", "/// Clamps at zero.\npub fn clamp"),
    "a comment": RS_BASE.replace("    x\n}", "    x // unchanged\n}"),
    "a block comment": RS_BASE.replace("(x: i32)", "(/* any */ x: i32)"),
    "a reformat": RS_BASE.replace(
        "pub fn clamp(x: i32) -> i32 {\n    x\n}", "pub fn clamp(x:i32)->i32{x}"
    ),
    "a doc comment edited": RS_BASE.replace("fn helper", "/// one\n    fn helper"),
}


@pytest.mark.parametrize("how", sorted(RS_CODE_ONLY))
def test_a_rust_source_whose_tokens_stay_needs_no_test(how: str) -> None:
    change = Files(base={"src/lib.rs": RS_BASE}, head={"src/lib.rs": RS_CODE_ONLY[how]})
    EVIDENCE.passes(change, "no source file matching `sources` changed")


@pytest.mark.parametrize(
    "head",
    [
        RS_BASE.replace("pub fn clamp", '#[doc = "Clamps at zero."]\npub fn clamp'),
        RS_BASE.replace("    x\n}", '    let _ = "/* x */";\n    x\n}'),
        RS_BASE.replace("    x\n}", "    x // unchanged\n}").replace("-> i32", "-> i64"),
        RS_BASE + "not rust {",
    ],
)
def test_a_rust_source_whose_code_changes_needs_a_test(head: str) -> None:
    change = Files(base={"src/lib.rs": RS_BASE}, head={"src/lib.rs": head})
    EVIDENCE.fails(change, "no test case was added or changed")
