"""gate.drift.rust's reader through `compare`: a Rust test file judged
item by item.  Each welcome shape (a new `#[test]` fn at any module
depth, a helper or type of a new name, a new module of tests, a comment
or a reformat) beside its hostile twins, generated over every test and
every name of the base (an assertion edited, an `#[ignore]` added, a
test renamed or moved, a helper that shadows what a glob import brings,
a trait impl, an attribute a macro reads), and the rule end to end on a
real repository."""

from __future__ import annotations

import re

import pytest

from gate.drift import CASE, COLLECTION, SUPPORT, Unparsable, compare, reaching, units_for
from gate.drift.collected import is_test_module
from gate.drift.rust import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = """\
use crate::integration::TestManager;

mod upload;

const LIMIT: u32 = 10;

fn clamp(value: u32) -> u32 {
    value.min(LIMIT)
}

#[test]
fn command_build_help() {
    // the help text
    TestManager::new().register_trycmd_test("build/build-help.trycmd");
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture {
        size: u32,
    }

    fn fixture() -> Fixture {
        Fixture { size: clamp(11) }
    }

    #[test]
    fn clamps_high() {
        assert_eq!(fixture().size, LIMIT);
    }

    #[tokio::test]
    async fn clamps_low() {
        assert_eq!(clamp(0), 0);
    }

    mod deeper {
        use super::*;

        #[test]
        fn keeps_inside() {
            assert_eq!(clamp(3), 3);
        }
    }
}
"""

TESTS = {
    "command_build_help": "fn command_build_help() {\n    // the help text\n"
    '    TestManager::new().register_trycmd_test("build/build-help.trycmd");\n}',
    "tests::clamps_high": (
        "    fn clamps_high() {\n        assert_eq!(fixture().size, LIMIT);\n    }"
    ),
    "tests::clamps_low": "    async fn clamps_low() {\n        assert_eq!(clamp(0), 0);\n    }",
    "tests::deeper::keeps_inside": (
        "        fn keeps_inside() {\n            assert_eq!(clamp(3), 3);\n        }"
    ),
}
# The last line of each module's body, where a new item is appended.
ENDS = {
    "": "",
    "tests": "    mod deeper {",
    "tests::deeper": "            assert_eq!(clamp(3), 3);\n        }\n",
}


def _edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _add(module: str, item: str, text: str = BASE) -> str:
    """`text` with `item` (unindented) added to `module` ("" the file)."""
    depth = module.count("::") + 1 if module else 0
    indented = "".join(f"{'    ' * depth}{line}\n" if line else "\n" for line in item.split("\n"))
    if not module:
        return text + "\n" + indented
    end = ENDS[module]
    if module == "tests::deeper":
        return _edit(end, end + "\n" + indented, text)
    return _edit(end, indented + "\n" + end, text)


MODULES = sorted(ENDS)

# Heads that only add tests, items no existing code can see, or change
# nothing a test reads.
WELCOME = {
    "a #[test] appended to the file": _add("", "#[test]\nfn snapshots_help() {}"),
    "a #[tokio::test] in a module": _add("tests", "#[tokio::test]\nasync fn waits() {}"),
    "an #[rstest] with cases in a nested module": _add(
        "tests::deeper", "#[rstest]\n#[case(1)]\nfn rows(#[case] n: u32) {}"
    ),
    "a helper of a new name": _add("tests", "fn thrice(v: u32) -> u32 {\n    3 * v\n}"),
    "a struct of a new name with a #[derive(Debug)]": _add(
        "tests", "#[derive(Debug, Clone)]\nstruct Spare;"
    ),
    "a new type with its own trait impl": _add(
        "tests", "struct Spare;\n\nimpl std::fmt::Display for Spare {\n}"
    ),
    "a new type with its own inherent impl": _add(
        "", "struct Spare<T>(T);\n\nimpl<U> Spare<U> {\n    fn get(&self) {}\n}"
    ),
    "a const of a new name": _add("", "const OTHER: u32 = 2;"),
    "a static of a new name": _add("tests", 'static NAME: &str = "x";'),
    "a macro_rules! of a new name": _add("tests", "macro_rules! twice {\n    () => {};\n}"),
    "a new mod declaration": _edit("mod upload;\n", "mod upload;\nmod snapshots;\n"),
    "a new module of tests with a glob import": _add(
        "tests",
        "mod more {\n    use super::*;\n\n    fn helper() {}\n\n"
        "    #[test]\n    fn more_edges() {\n        helper();\n    }\n}",
    ),
    "a new module with its own imports": _add(
        "tests", "mod more {\n    use std::time::Duration;\n    use other::{Trait, helper as h};\n}"
    ),
    "a #[test] with #[ignore] and #[serial]": _add(
        "", "#[test]\n#[ignore]\n#[serial]\n#[allow(unused)]\nfn slow() {}"
    ),
    "a #[allow(dead_code)] helper": _add("tests", "#[allow(dead_code)]\nfn unused() {}"),
    "a comment edited in a test": _edit("// the help text", "/* the --help output */"),
    "a doc comment added to a test": _edit(
        "#[test]\nfn command_build_help", "/// Checks the help.\n#[test]\nfn command_build_help"
    ),
    "a test reformatted": _edit(
        "        assert_eq!(fixture().size, LIMIT);",
        "        assert_eq!(\n            fixture().size,\n            LIMIT\n        );",
    ),
    "every line reindented": "\n".join(f"  {line}" for line in BASE.split("\n")),
    "the tests module moved below new blank lines": _edit("#[cfg(test)]", "\n\n#[cfg(test)]"),
}

# Hostile twins: each bends what an existing test runs or checks.
BENT = {
    "an assertion of an existing test edited": (
        _edit("assert_eq!(clamp(0), 0);", "assert_eq!(clamp(0), 1);"),
        "fn tests::clamps_low changed",
    ),
    "a string a test reads edited": (
        _edit("build/build-help.trycmd", "build/other.trycmd"),
        "fn command_build_help changed",
    ),
    "a helper's body edited": (_edit("value.min(LIMIT)", "value"), "fn clamp changed"),
    "a const edited": (_edit("LIMIT: u32 = 10", "LIMIT: u32 = 11"), "const LIMIT changed"),
    "an existing test removed": (
        _edit("    #[test]\n" + TESTS["tests::clamps_high"] + "\n", ""),
        "fn tests::clamps_high removed",
    ),
    "a new helper shadowing what `use super::*` brings": (
        _add("tests", "fn clamp(value: u32) -> u32 {\n    value\n}"),
        "new fn tests::clamp added to a class that exists at base",
    ),
    "a new const shadowing what `use super::*` brings": (
        _add("tests::deeper", "const LIMIT: u32 = 3;"),
        "new const tests::deeper::LIMIT added to a class that exists at base",
    ),
    "a new top-level macro_rules! named as a macro the base calls": (
        _add("", "macro_rules! assert_eq {\n    ($a:expr, $b:expr) => {};\n}"),
        "binds assert_eq, a name existing code uses",
    ),
    "a new test named as a helper the glob import brings": (
        _add("tests::deeper", "#[test]\nfn fixture() {}"),
        "new fn tests::deeper::fixture binds fixture, a name existing code uses",
    ),
    "a new trait impl for an existing type": (
        _add("tests", "impl Default for Fixture {\n    fn default() -> Self { todo!() }\n}"),
        "added to a class that exists at base",
    ),
    "a new trait impl for a foreign type": (
        _add("", "impl Answer for u32 {\n    fn min(self, _: u32) -> u32 { 0 }\n}"),
        "runs at collection or changes what other tests see",
    ),
    "a new blanket trait impl": (
        _add("", "impl<T> Answer for T {}"),
        "runs at collection or changes what other tests see",
    ),
    "a new inherent impl of an existing type": (
        _add("tests", "impl Fixture {\n    fn size(&self) -> u32 { 10 }\n}"),
        "added to a class that exists at base",
    ),
    "a new #[ctor] fn": (
        _add("", '#[ctor::ctor]\nfn boot() {\n    std::env::set_var("X", "1");\n}'),
        "runs at collection or changes what other tests see",
    ),
    "a new top-level use, which may bring a trait": (
        _edit("mod upload;\n", "mod upload;\nuse std::borrow::BorrowMut;\n"),
        "new use std::borrow::BorrowMut runs at collection",
    ),
    "a new use in an existing module": (
        _add("tests", "use std::time::Duration;"),
        "new use tests::std::time::Duration added to a class that exists at base",
    ),
    "a new #[test] that is also a #[ctor]": (
        _add("", "#[test]\n#[ctor::ctor]\nfn boot() {}"),
        "new fn boot runs at collection",
    ),
    "a new top-level glob use": (
        _edit("mod upload;\n", "mod upload;\nuse other::*;\n"),
        "runs at collection or changes what other tests see",
    ),
    "a new glob use in an existing module": (
        _add("tests::deeper", "use other::*;"),
        "added to a class that exists at base",
    ),
    "a new item-level macro call": (
        _add("tests", "lazy_static! {\n    static ref SEEN: u32 = 1;\n}"),
        "added to a class that exists at base",
    ),
    "a new #[macro_use] module declaration": (
        _edit("mod upload;\n", "mod upload;\n#[macro_use]\nmod macros;\n"),
        "runs at collection or changes what other tests see",
    ),
    "a new inner attribute": (
        "#![allow(unused)]\n" + BASE,
        "new attribute #![allow(unused)] runs at collection or changes what other tests see",
    ),
    "a new extern block": (
        _add("", 'extern "C" {\n    fn hook();\n}'),
        "new extern {..} runs at collection",
    ),
    "a new struct with a proc macro's derive": (
        _add("", "#[derive(Serialize)]\nstruct Spare;"),
        "runs at collection or changes what other tests see",
    ),
    "an #[ignore] on an existing test in a new module path": (
        _edit("mod deeper {", "mod deeper2 {"),
        "fn tests::deeper::keeps_inside removed",
    ),
}


@pytest.mark.parametrize("name", sorted(WELCOME))
def test_a_welcome_edit_passes(name: str) -> None:
    drift = compare(units(BASE), units(WELCOME[name]))
    assert drift.ok, drift.summary()


@pytest.mark.parametrize("name", sorted(BENT))
def test_the_hostile_twin_fails_naming_the_unit(name: str) -> None:
    head, why = BENT[name]
    drift = compare(units(BASE), units(head))
    assert not drift.ok, name
    assert why in drift.summary(), drift.summary()


def test_a_new_test_is_counted_as_added() -> None:
    drift = compare(units(BASE), units(WELCOME["a #[test] appended to the file"]))
    assert drift.added == ("fn snapshots_help",)
    refused = compare(
        units(BASE), units(WELCOME["a #[test] appended to the file"]), allow_added=False
    )
    assert not refused.ok


# --- generated hostile twins, over every test of the base ----------------


def _indent_of(code: str) -> str:
    return code[: len(code) - len(code.lstrip(" "))]


EDITS = {
    "its assertion edited": lambda code: (
        code.replace("assert_eq!", "assert_ne!", 1)
        if "assert_eq!" in code
        else code.replace('trycmd")', 'x")')
    ),
    "#[ignore] added": lambda code: f"{_indent_of(code)}#[ignore]\n{code}",
    '#[ignore = "why"] added': lambda code: f'{_indent_of(code)}#[ignore = "flaky"]\n{code}',
    "#[should_panic] added": lambda code: f"{_indent_of(code)}#[should_panic]\n{code}",
    "its body emptied": lambda code: code[: code.index("{") + 1] + "}",
    "an early return added": lambda code: code.replace("{\n", "{\n    return;\n", 1),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("test", sorted(TESTS))
def test_every_existing_test_edited_fails(test: str, edit: str) -> None:
    code = TESTS[test]
    head = _edit(code, EDITS[edit](code))
    drift = compare(units(BASE), units(head))
    assert drift.changed == (f"fn {test}",), drift.summary()


@pytest.mark.parametrize("test", sorted(TESTS))
def test_every_existing_test_renamed_fails(test: str) -> None:
    short = test.rsplit("::", 1)[-1]
    code = TESTS[test]
    drift = compare(units(BASE), units(_edit(code, code.replace(short, f"{short}_v2", 1))))
    assert f"fn {test} removed" in drift.summary(), drift.summary()


@pytest.mark.parametrize("change", [False, True])
@pytest.mark.parametrize("target", MODULES)
@pytest.mark.parametrize("test", sorted(TESTS))
def test_a_test_moved_to_another_module_fails(test: str, target: str, change: bool) -> None:
    module = test.rpartition("::")[0]
    if module == target:
        return
    code = TESTS[test]
    attribute = "#[tokio::test]" if "async" in code else "#[test]"
    moved = re.sub(r"(?m)^ +", "", code)
    if change:
        moved = moved.replace("{\n", "{\nlet _ = 1;\n", 1)
    without = _edit(f"{_indent_of(code)}{attribute}\n{code}\n", "")
    head = _add(target, f"{attribute}\n{moved}", without)
    drift = compare(units(BASE), units(head))
    assert f"fn {test} removed" in drift.summary(), drift.summary()


# A new item of each kind, binding NAME; in any module, where NAME is a
# name base code spells, it fails.
SHADOWS = {
    "fn": "fn NAME() -> u32 {\n    0\n}",
    "const": "const NAME: u32 = 0;",
    "static": "static NAME: u32 = 0;",
    "struct": "struct NAME;",
    "enum": "enum NAME {\n    A,\n}",
    "type alias": "type NAME = u32;",
    "trait": "trait NAME {}",
    "macro_rules!": "macro_rules! NAME {\n    () => {};\n}",
    "use": "use other::NAME;",
    "use as": "use other::thing as NAME;",
    "mod declaration": "mod NAME;",
    "inline mod": "mod NAME {}",
    "test fn": "#[test]\nfn NAME() {}",
}
SPELLED = ["clamp", "LIMIT", "fixture", "Fixture", "size", "TestManager", "assert_eq", "min", "new"]


@pytest.mark.parametrize("name", SPELLED)
@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("kind", sorted(SHADOWS))
def test_a_new_item_binding_a_name_base_code_spells_fails(
    kind: str, module: str, name: str
) -> None:
    drift = compare(units(BASE), units(_add(module, SHADOWS[kind].replace("NAME", name))))
    assert not drift.ok, (kind, module, name)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("kind", sorted(SHADOWS))
def test_the_same_item_of_a_new_name_passes(kind: str, module: str) -> None:
    """The twin of the above: the rule fails for the name, not the kind
    (but a `use`, which may bring a trait, is welcome in a new module alone)."""
    if kind.startswith("use"):
        return
    drift = compare(units(BASE), units(_add(module, SHADOWS[kind].replace("NAME", "unseen"))))
    assert drift.ok, drift.summary()


# Items that change what existing code sees without being named: in any
# module, with any name, they fail.
UNSEEN = {
    "a trait impl for a foreign type": "impl Marker for u32 {}",
    "an impl for a reference": "impl Marker for &Spare {}",
    "a blanket impl": "impl<T> Marker for T {}",
    "an impl for a type parameter named as a local type": (
        "struct T;\n\nimpl<T: Copy> Marker for T {}"
    ),
    "an impl of a type declared in another module": "impl Marker for Elsewhere {}",
    "a #[ctor]": "#[ctor]\nfn boot() {}",
    "a #[no_mangle] static": "#[no_mangle]\nstatic HOOK: u32 = 0;",
    "a #[macro_export] macro": "#[macro_export]\nmacro_rules! unseen {\n    () => {};\n}",
    "an attribute put on a helper by cfg_attr": "#[cfg_attr(test, ctor)]\nfn boot() {}",
    "a proc macro's derive": "#[derive(Debug, Parser)]\nstruct Spare;",
    "an #[rstest] fixture": "#[fixture]\nfn spare() -> u32 {\n    0\n}",
    "an item-level macro call": "thread_local! {\n    static SEEN: u32 = 0;\n}",
    "an extern block": 'extern "C" {\n    fn hook();\n}',
    "a glob use": "use other::*;",
    "a use that may bring a trait": "use std::io::Write;",
    "a use of a trait as _": "use std::fmt::Write as _;",
    "a test that is also a ctor": "#[test]\n#[ctor]\nfn boot() {}",
    "a test with a proc macro's attribute": "#[test]\n#[my_macro]\nfn boot() {}",
    "a glob use inside a list": "use other::{self, inner::*};",
}


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("kind", sorted(UNSEEN))
def test_an_item_others_see_unnamed_fails(kind: str, module: str) -> None:
    drift = compare(units(BASE), units(_add(module, UNSEEN[kind])))
    assert not drift.ok, (kind, module)


@pytest.mark.parametrize("kind", sorted(k for k in UNSEEN if "use" not in k.split()))
def test_an_item_others_see_fails_in_a_new_module_too(kind: str) -> None:
    drift = compare(units(BASE), units(_add("tests", f"mod fresh {{\n{UNSEEN[kind]}\n}}")))
    assert not drift.ok, kind


# --- comments and layout ---------------------------------------------------

COMMENTED = [
    ("// the help text", "// another comment"),
    ("// the help text", "/* a /* nested */ block */"),
    ("#[test]\nfn command_build_help", "// a note\n#[test]\nfn command_build_help"),
    ("    struct Fixture", "    /// The fixture.\n    struct Fixture"),
    ("fn clamp(value: u32)", "fn clamp(\n    value: u32\n)"),
    ("value.min(LIMIT)", "value .min( LIMIT )"),
    ("mod upload;\n", "mod upload; // the upload tests\n"),
]


@pytest.mark.parametrize(("old", "new"), COMMENTED)
def test_comment_and_layout_edits_change_no_unit(old: str, new: str) -> None:
    drift = compare(units(BASE), units(_edit(old, new)))
    assert drift.ok and not drift.added, drift.summary()


def test_a_comment_marker_inside_a_string_is_code() -> None:
    base = 'fn f() {\n    let s = "a // b";\n}\n'
    drift = compare(units(base), units(base.replace("a // b", "a // c")))
    assert drift.changed == ("fn f",), drift.summary()


# --- units, roles, parse errors, new files -------------------------------


def test_roles_keys_and_parents() -> None:
    found = {u.key: u for u in units(BASE)}
    assert found["fn command_build_help"].role == CASE
    assert found["fn tests::deeper::keeps_inside"].role == CASE
    assert found["fn tests::deeper::keeps_inside"].parent == ""
    assert found["fn tests::fixture"].role == SUPPORT
    assert found["fn tests::fixture"].parent == "mod tests"
    assert found["mod tests::deeper"].parent == "mod tests"
    assert found["use tests::super::*"].role == SUPPORT
    assert found["use tests::super::*"].open is False
    assert found["mod upload;"].binds == ("upload",)
    assert found["use crate::integration::TestManager"].binds == ("TestManager",)
    top = units("use a::*;\nuse b::{c as d, e::{self, f}};\nextern crate g as h;\n")
    assert [u.role for u in top] == [COLLECTION, COLLECTION, SUPPORT]
    assert set(top[1].binds) == {"d", "e", "f"}
    assert top[2].binds == ("h",)


@pytest.mark.parametrize(
    "text", ["fn broken( {}\n", "#[test]\nfn t() { let x = ; }\n", "mod m {\n"]
)
def test_a_syntax_error_is_refused(text: str) -> None:
    with pytest.raises(Unparsable, match="syntax error at line"):
        units(text)


def test_units_for_picks_rust_by_suffix() -> None:
    found = units_for("tests/cli.rs", BASE)
    assert found is not None and any(u.key == "fn command_build_help" for u in found)


def test_a_new_file_reaches_other_tests_through_impls_and_attributes_alone() -> None:
    text = (
        "use super::*;\nuse std::io::Write;\n\nstruct Own;\n\nimpl Own {}\n\n#[test]\nfn t() {}\n\n"
        "impl Marker for u32 {}\n\n#[ctor]\nfn boot() {}\n"
    )
    found = reaching("tests/integration/new/mod.rs", units(text))
    assert [u.key for u in found] == ["impl Marker for u32", "fn boot"]


@pytest.mark.parametrize(
    ("path", "judged"),
    [
        ("tests/cli.rs", True),
        ("crates/core/tests/cli.rs", True),
        ("tests/integration/main.rs", True),
        ("tests/integration/build/mod.rs", True),
        ("tests/ui/compile_fail.rs", False),
        ("tests/integration/build/upload.rs", False),
        ("src/lib.rs", False),
    ],
)
def test_cargo_test_files_are_test_modules(path: str, judged: bool) -> None:
    assert is_test_module(path) is judged


# --- end to end -----------------------------------------------------------


def test_the_rule_judges_a_rust_test_file_item_by_item(rubric_repo: RubricRepo) -> None:
    """On a real repository, the held-out shape of getsentry/sentry-cli
    2c5d8576349f (a `#[test]` fn added to `tests/integration/build/mod.rs`)
    passes; its hostile twins (an `#[ignore]` on an existing test, a
    shadowing helper) fail naming the unit; a syntax error is judged as a
    whole file, saying so."""
    path = "tests/integration/build/mod.rs"
    rubric_repo.write_many({path: BASE})
    base = rubric_repo.commit("base")
    heads = {}
    rubric_repo.write(path, WELCOME["a #[test] appended to the file"])
    heads["added"] = rubric_repo.commit("a test")
    rubric_repo.write(path, _edit("#[tokio::test]", "#[tokio::test]\n    #[ignore]"))
    heads["ignored"] = rubric_repo.commit("an ignore")
    rubric_repo.write(path, BENT["a new helper shadowing what `use super::*` brings"][0])
    heads["shadow"] = rubric_repo.commit("a shadow")
    rubric_repo.write(path, BASE + "\nfn broken( {}\n")
    heads["broken"] = rubric_repo.commit("a syntax error")
    got = {
        k: rubric_repo.check(base, h, rubric=DRIFT_RUBRIC).code_and_message()
        for k, h in heads.items()
    }
    assert got["added"][0] == 0, got["added"]
    assert got["ignored"][0] == 1 and "fn tests::clamps_low changed" in got["ignored"][1]
    assert got["shadow"][0] == 1 and "new fn tests::clamp added" in got["shadow"][1]
    assert got["broken"][0] == 1
    assert (
        "judged as a whole file: the head version the rust grammar finds a syntax error"
        in (got["broken"][1])
    )
