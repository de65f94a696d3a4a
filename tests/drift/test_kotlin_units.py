"""gate.drift.kotlin through `compare`: a Kotlin test file judged case by
case.  Each welcome shape (a new `@Test fun` of kotlin.test or JUnit, a
new test class, an import or private helper of a new name, a comment or
a reformat) beside its hostile twins, generated over every test, every
hook annotation and every name of the base (a test body, assertion or
annotation edited, a test renamed or removed, a hook, `init` block,
companion object or property that runs code, a helper shadowing a name
existing code reads, an import on demand, a `@file:` annotation), and the
rule end to end on a real repository (the held-out shape of
modelcontextprotocol/kotlin-sdk cab669b108: a test and a private helper
appended to an existing class)."""

from __future__ import annotations

import re

import pytest

from gate.drift import CASE, COLLECTION, SUPPORT, Unparsable, compare, reaching, units_for
from gate.drift.classes import HOOK_NAMES
from gate.drift.collected import is_test_module
from gate.drift.java import TESTS
from gate.drift.kotlin import FRAMEWORK_NAMES, HOOKS, OPERATORS, units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = """\
package io.example.clamp

import kotlin.test.Test
import kotlin.test.assertEquals
import kotlinx.coroutines.test.runTest

private const val LIMIT = 10

private fun clampOf(value: Int): Int = Clamp.clamp(value, LIMIT)

class ClampTest {
    private val start = 3

    @Test
    fun clampsHigh() {
        // the upper edge
        assertEquals(LIMIT, clampOf(11))
    }

    @Test
    fun `keeps a value inside`() = runTest {
        assertEquals(start, clampOf(start))
    }

    private fun twice(value: Int): Int = 2 * value

    @Test
    fun doubles() {
        assertEquals(4, twice(2))
    }
}
"""

LAST = """        assertEquals(4, twice(2))
    }
"""

TESTS_OF_BASE = {
    "ClampTest.clampsHigh": (
        "    @Test\n    fun clampsHigh() {\n        // the upper edge\n"
        "        assertEquals(LIMIT, clampOf(11))\n    }\n"
    ),
    "ClampTest.`keeps a value inside`": (
        "    @Test\n    fun `keeps a value inside`() = runTest {\n"
        "        assertEquals(start, clampOf(start))\n    }\n"
    ),
    "ClampTest.doubles": (
        "    @Test\n    fun doubles() {\n        assertEquals(4, twice(2))\n    }\n"
    ),
}


def _append(member: str, text: str = BASE) -> str:
    """`text` with `member` added as the class's last member."""
    return text.replace(LAST, LAST + "\n" + member, 1)


def _edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _import(line: str) -> str:
    return _edit("import kotlin.test.Test\n", f"import kotlin.test.Test\n{line}\n")


# Heads that only add tests, helpers of new names, or change nothing a test reads.
WELCOME = {
    "a kotlin.test @Test appended": _append(
        "    @Test\n    fun clampsLow() {\n        assertEquals(0, clampOf(-1))\n    }\n"
    ),
    "a @Test with a backquoted name and runTest": _append(
        "    @Test\n    fun `clamps low`() = runTest {\n"
        "        assertEquals(0, clampOf(-1))\n    }\n"
    ),
    "a JUnit 5 @Test fully qualified": _append(
        "    @org.junit.jupiter.api.Test\n    fun legacy() {\n    }\n"
    ),
    "a @ParameterizedTest appended": _append(
        "    @ParameterizedTest\n    @ValueSource(ints = [1, 2])\n    fun rows(v: Int) {\n    }\n"
    ),
    "a test inserted first": _edit(
        "    @Test\n    fun clampsHigh",
        "    @Test\n    fun first() {\n    }\n\n    @Test\n    fun clampsHigh",
    ),
    "a private helper of a new name": _append("    private fun thrice(v: Int): Int = 3 * v\n"),
    "a private property of a literal": _append('    private val name = "x"\n'),
    "a private top-level helper of a new name": BASE + "\nprivate fun fourTimes(v: Int) = 4 * v\n",
    "a new test class": BASE
    + "\nclass LowTest {\n    private val seen = 0\n\n    @Test\n    fun low() {\n    }\n}\n",
    "a new @Nested inner class of tests": _append(
        "    @Nested\n    inner class Low {\n        @Test\n        fun low() {\n        }\n    }\n"
    ),
    "a new import of an unused name": _import("import kotlin.test.assertTrue"),
    "a new import with an alias": _import("import java.time.Duration as Span"),
    "a comment edited in a test": _edit("// the upper edge", "/* the top edge */"),
    "a test reformatted": _edit(
        "        assertEquals(LIMIT, clampOf(11))",
        "        assertEquals(\n            LIMIT,\n            clampOf(11),\n        )",
    ),
    "a test moved below another": _edit(TESTS_OF_BASE["ClampTest.doubles"], "").replace(
        "    private fun twice", TESTS_OF_BASE["ClampTest.doubles"] + "\n    private fun twice"
    ),
}

# Hostile twins: each bends what an existing test runs or checks.
BENT = {
    "an assertion of an existing test edited": (
        _edit("assertEquals(LIMIT, clampOf(11))", "assertEquals(LIMIT, clampOf(12))"),
        "ClampTest.clampsHigh changed",
    ),
    "@Ignore put on an existing test": (
        _edit("    @Test\n    fun clampsHigh", "    @Test\n    @Ignore\n    fun clampsHigh"),
        "ClampTest.clampsHigh changed",
    ),
    "@Disabled put on an existing test": (
        _edit("    @Test\n    fun doubles", "    @Disabled\n    @Test\n    fun doubles"),
        "ClampTest.doubles changed",
    ),
    "an existing test's annotation changed": (
        _edit("    @Test\n    fun doubles", "    @RepeatedTest(2)\n    fun doubles"),
        "ClampTest.doubles changed",
    ),
    "an existing test renamed": (
        _edit("fun doubles()", "fun doublesTwo()"),
        "ClampTest.doubles removed",
    ),
    "a new init block": (
        _append('    init {\n        System.setProperty("x", "y")\n    }\n'),
        "new ClampTest init added to a class that exists at base",
    ),
    "a new secondary constructor": (
        _append("    constructor(n: Int) : this() {\n        Clamp.reset()\n    }\n"),
        "new ClampTest constructor added to a class",
    ),
    "a new companion object with an init block": (
        _append(
            "    companion object {\n        init {\n            Clamp.reset()\n        }\n    }\n"
        ),
        "new ClampTest.Companion init added to a class",
    ),
    "a new @JvmStatic @BeforeAll in a companion object": (
        _append(
            "    companion object {\n        @JvmStatic\n        @BeforeAll\n"
            "        fun boot() {\n        }\n    }\n"
        ),
        "new ClampTest.Companion.boot added to a class",
    ),
    "a new companion object helper shadowing an import": (
        _append(
            "    companion object {\n        private fun assertEquals(a: Any?, b: Any?) {\n"
            "        }\n    }\n"
        ),
        "new ClampTest.Companion.assertEquals added to a class",
    ),
    "a new property whose initializer calls": (
        _append("    private val server = Server.start()\n"),
        "new ClampTest.server added to a class",
    ),
    "a new property reading another object's property": (
        _append("    private val other = Config.LIMIT\n"),
        "new ClampTest.other added to a class",
    ),
    "a new lazy property": (
        _append("    private val lazyServer by lazy { Server.start() }\n"),
        "new ClampTest.lazyServer added to a class",
    ),
    "a new @get:Rule property": (
        _append("    @get:Rule\n    val tmp = 1\n"),
        "new ClampTest.tmp added to a class",
    ),
    "a new override of toString": (
        _append('    override fun toString(): String = ""\n'),
        "new ClampTest.toString added to a class",
    ),
    "a new private member helper shadowing a helper existing code calls": (
        _append("    private fun clampOf(value: Int): Int = 0\n"),
        "new ClampTest.clampOf added to a class",
    ),
    "a new private overload of a helper, its name in backquotes": (
        _append("    private fun `twice`(value: Long): Int = 0\n"),
        "new ClampTest.twice #2 added to a class",
    ),
    "a new private helper whose name needs backquotes": (
        _append("    private fun `twice over`(value: Long): Int = 0\n"),
        "new ClampTest.`twice over` added to a class",
    ),
    "a new private top-level helper shadowing a name existing code reads": (
        BASE + "\nprivate fun runTest(body: () -> Unit) {\n}\n",
        "runTest",
    ),
    "a new top-level helper that is not private": (
        BASE + "\nfun sharedHelper() {\n}\n",
        "new sharedHelper runs at collection",
    ),
    "a new top-level property that runs code": (
        BASE + '\nprivate val boot = System.setProperty("a", "b")\n',
        "new boot runs at collection",
    ),
    "a new top-level object with an init block": (
        BASE + "\nobject Boot {\n    init {\n        Clamp.reset()\n    }\n}\n",
        "new Boot init runs at collection",
    ),
    "a new import rebinding a name the file reads": (
        _import("import org.junit.jupiter.api.Assertions.assertEquals"),
        "assertEquals",
    ),
    "a new import on demand": (
        _import("import org.junit.jupiter.api.Assertions.*"),
        "new org.junit.jupiter.api.Assertions.* runs at collection",
    ),
    "a new import of an operator": (
        _import("import io.example.plus"),
        "new io.example.plus runs at collection",
    ),
    "a new @file: annotation": (
        '@file:JvmName("Other")\n' + BASE,
        "new @file:JvmName runs at collection",
    ),
    "the package changed": (
        _edit("package io.example.clamp", "package io.example.other"),
        "package changed",
    ),
    "the class given a supertype": (
        _edit("class ClampTest {", "class ClampTest : Base() {"),
        "ClampTest changed",
    ),
    "a class annotation added": (
        _edit("class ClampTest {", "@ExtendWith(Mocks::class)\nclass ClampTest {"),
        "ClampTest changed",
    ),
    "a private helper edited": (
        _edit("2 * value", "2 * value + 0"),
        "ClampTest.twice changed",
    ),
    "a top-level constant edited": (_edit("LIMIT = 10", "LIMIT = 11"), "LIMIT changed"),
    "a string inside a test edited in its spaces": (
        _edit("// the upper edge", 'val s = "a  b"'),
        "clampsHigh changed",
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


# Generated edits of each existing test: each must fail naming it.
EDITS = {
    "body emptied": lambda t: re.sub(r"\{\n.*\n    \}\n\Z", "{\n    }\n", t, flags=re.S),
    "assertion's expected value edited": lambda t: t.replace("assertEquals(", "assertEquals(1 + "),
    "@Ignore added": lambda t: t.replace("@Test\n", "@Test\n    @Ignore\n"),
    "@Disabled added": lambda t: t.replace("@Test\n", "@Disabled\n    @Test\n"),
    "@Test dropped": lambda t: t.replace("    @Test\n", ""),
    "made private": lambda t: t.replace("fun ", "private fun "),
    "an assertion added": lambda t: t.replace("    }\n", "        assertEquals(1, 1)\n    }\n"),
    "renamed": lambda t: (
        t.replace("fun clampsHigh", "fun clampsHigh2")
        .replace("fun `keeps", "fun `still keeps")
        .replace("fun doubles", "fun doubles2")
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("test", sorted(TESTS_OF_BASE))
def test_every_edit_of_every_existing_test_fails(test: str, edit: str) -> None:
    old = TESTS_OF_BASE[test]
    new = EDITS[edit](old)
    assert new != old
    drift = compare(units(BASE), units(_edit(old, new)))
    assert not drift.ok
    assert test in drift.summary(), drift.summary()


@pytest.mark.parametrize("test", sorted(TESTS_OF_BASE))
def test_every_existing_test_removed_fails(test: str) -> None:
    drift = compare(units(BASE), units(_edit(TESTS_OF_BASE[test], "")))
    assert drift.removed == (test,), drift.summary()


@pytest.mark.parametrize("annotation", sorted(TESTS))
@pytest.mark.parametrize("spelling", ["{}", "org.junit.jupiter.api.{}", "kotlin.test.{}"])
def test_every_test_annotation_adds_a_test(annotation: str, spelling: str) -> None:
    mark = spelling.format(annotation)
    drift = compare(units(BASE), units(_append(f"    @{mark}\n    fun fresh() {{\n    }}\n")))
    assert drift.ok and drift.added == ("ClampTest.fresh",), drift.summary()


@pytest.mark.parametrize("annotation", sorted(HOOKS))
@pytest.mark.parametrize("spelling", ["{}", "kotlin.test.{}", "org.junit.{}"])
@pytest.mark.parametrize("where", ["class", "companion object"])
def test_every_hook_annotation_is_refused_in_an_existing_class(
    annotation: str, spelling: str, where: str
) -> None:
    mark = spelling.format(annotation)
    hook = f"    @{mark}\n    fun fresh() {{\n    }}\n"
    if where == "class":
        head, label = _append(hook), "ClampTest.fresh"
    else:
        lines = ["@JvmStatic", *hook.strip("\n").split("\n")]
        inner = "".join(f"    {line}\n" for line in lines)
        head = _append(f"    companion object {{\n{inner}    }}\n")
        label = "ClampTest.Companion.fresh"
    drift = compare(units(BASE), units(head))
    assert f"new {label} added to a class that exists at base" in drift.summary()
    assert {u.key: u.role for u in units(head)}[f"hook {label}"] == COLLECTION
    # in a new file, it acts on its own class's tests alone
    assert reaching("src/test/kotlin/NewTest.kt", units(head)) == ()


def _names_read() -> list[str]:
    """Every name the base's code reads."""
    return sorted({n for u in units(BASE) for n in (u.uses or ())})


@pytest.mark.parametrize("name", _names_read())
def test_a_new_private_helper_spelling_a_name_existing_code_reads_fails(name: str) -> None:
    """A new private helper, top-level or in the class, that binds a name
    any existing code reads may take its calls or reads."""
    ident = name if name.isidentifier() or name.startswith("`") else f"`{name}`"
    top = compare(units(BASE), units(BASE + f"\nprivate fun {ident}() {{\n}}\n"))
    assert not top.ok, name
    member = compare(units(BASE), units(_append(f"    private fun {ident}() {{\n    }}\n")))
    assert not member.ok, name


@pytest.mark.parametrize("name", sorted(OPERATORS | {"component1", "component12"}))
@pytest.mark.parametrize("how", ["import", "top-level", "member"])
def test_an_operator_name_is_never_welcome(name: str, how: str) -> None:
    """Code calls an operator without spelling it (`a + b` is `plus`):
    a new import, top-level function or `operator` member of that name
    fails wherever the base has no such name."""
    if how == "import":
        head = _import(f"import io.example.{name}")
    elif how == "top-level":
        head = BASE + f"\nprivate operator fun Int.{name}(o: Int): Int = 0\n"
    else:
        head = _append(f"    private operator fun {name}(o: Int): Int = 0\n")
    assert not compare(units(BASE), units(head)).ok


@pytest.mark.parametrize("name", sorted(HOOK_NAMES))
def test_a_new_member_named_as_a_hook_is_refused(name: str) -> None:
    head = _append(f"    private fun {name}() {{\n    }}\n")
    assert "added to a class that exists at base" in compare(units(BASE), units(head)).summary()


# Class headers that close a class to a new non-private member, but not to a
# private one; a supertype closes it to both (its tests may name a private
# member by a string: `@MethodSource("rows")`).
CLOSED = {
    "an annotation a framework reads": "@SpringBootTest\nclass ClampTest {",
    "an interface": "class ClampTest : Fixture {",
}


@pytest.mark.parametrize("name", sorted(CLOSED))
def test_a_closed_class_takes_a_new_private_helper_only(name: str) -> None:
    base = _edit("class ClampTest {", CLOSED[name])
    private = _append("    private fun spare() {\n    }\n", base)
    public = _append("    fun spare() {\n    }\n", base)
    if name == "an interface":  # a supertype: even a private member is closed
        assert not compare(units(base), units(private)).ok
    else:
        assert compare(units(base), units(private)).ok
    assert not compare(units(base), units(public)).ok
    plain_public = _append("    fun spare() {\n    }\n")
    assert compare(units(BASE), units(plain_public)).ok


@pytest.mark.parametrize("modifier", ["override", "open", "abstract", "operator", "infix"])
def test_a_new_member_with_a_modifier_that_replaces_is_refused(modifier: str) -> None:
    head = _append(f"    {modifier} fun spare(x: Int) {{\n    }}\n")
    assert "added to a class that exists at base" in compare(units(BASE), units(head)).summary()


def test_a_kotest_spec_is_one_unit() -> None:
    """A Kotest spec's tests live in one lambda of the class header: a new
    `test(...)` inside it changes the header, and the file is judged whole."""
    base = (
        'class ClampSpec : FunSpec({\n    test("high") {\n'
        "        clamp(11) shouldBe 10\n    }\n})\n"
    )
    head = base.replace("})\n", '    test("low") {\n        clamp(-1) shouldBe 0\n    }\n})\n')
    assert [u.key for u in units(base)] == ["type ClampSpec"]
    assert compare(units(base), units(head)).changed == ("ClampSpec",)
    init = (
        'class ClampSpec : FunSpec() {\n    init {\n        test("high") {\n        }\n    }\n}\n'
    )
    grown = init.replace("    }\n}\n", '        test("low") {\n        }\n    }\n}\n')
    assert compare(units(init), units(grown)).changed == ("ClampSpec init",)


def test_a_name_in_backquotes_is_the_name() -> None:
    """`` `doubles` `` and `doubles` are one name: the same unit."""
    head = _edit("fun doubles()", "fun `doubles`()")
    assert {u.key for u in units(head)} == {u.key for u in units(BASE)}


def test_roles_and_keys() -> None:
    found = {u.key: u.role for u in units(BASE)}
    assert found == {
        "package": SUPPORT,
        "import kotlin.test.Test": SUPPORT,
        "import kotlin.test.assertEquals": SUPPORT,
        "import kotlinx.coroutines.test.runTest": SUPPORT,
        "property LIMIT": SUPPORT,
        "fun clampOf": SUPPORT,
        "class ClampTest": SUPPORT,
        "property ClampTest.start": SUPPORT,
        "fun ClampTest.clampsHigh": CASE,
        "fun ClampTest.`keeps a value inside`": CASE,
        "fun ClampTest.twice": SUPPORT,
        "fun ClampTest.doubles": CASE,
    }


def test_companion_members_and_extensions() -> None:
    text = """\
fun String.shout(): String = uppercase()

class A : Base() {
    companion object {
        @JvmStatic
        @BeforeAll
        fun boot() {
        }

        const val Z = 1
    }

    init {
    }

    @BeforeTest
    fun setUp() {
    }
}
"""
    found = {u.key: (u.role, u.parent) for u in units(text)}
    assert found == {
        "fun String.shout": (COLLECTION, ""),
        "class A": (SUPPORT, ""),
        "companion A.Companion": (SUPPORT, "class A"),
        "hook A.Companion.boot": (COLLECTION, "class A"),
        "property A.Companion.Z": (SUPPORT, "class A"),
        "initializer A": (COLLECTION, "class A"),
        "hook A.setUp": (COLLECTION, "class A"),
    }


@pytest.mark.parametrize(
    "comment",
    ["/* Copyright (c) the authors. */\n", "// SPDX-License-Identifier: MIT\n", "/** Doc. */\n"],
)
def test_comments_between_declarations_are_no_units(comment: str) -> None:
    text = comment + BASE.replace("    private fun twice", comment + "    private fun twice")
    assert {u.key for u in units(text)} == {u.key for u in units(BASE)}
    assert compare(units(BASE), units(text)).ok


def test_a_top_level_statement_is_refused() -> None:
    """Kotlin has no top-level `init` or statement: what the grammar reads
    as one is no declaration, and the file is judged whole."""
    with pytest.raises(Unparsable, match="not a Kotlin declaration"):
        units(BASE + "\ninit {\n    Clamp.reset()\n}\n")


def test_a_syntax_error_is_refused() -> None:
    with pytest.raises(Unparsable, match="line 3"):
        units("class A {\n    fun f() {\n        val x = \n    }\n}\n")


@pytest.mark.parametrize("body", ["", "\r\n", "\ufeff"])
def test_byte_order_mark_and_line_endings(body: str) -> None:
    text = body + BASE.replace("\n", "\r\n") if body == "\r\n" else body + BASE
    assert compare(units(BASE), units(text)).ok


@pytest.mark.parametrize(
    "declaration",
    [
        "annotation class Test",
        "fun assertEquals(a: Any?, b: Any?) {\n}",
        "fun runTest(body: () -> Unit) {\n}",
        "operator fun Int.plus(o: String): Int = 0",
        'val println = "x"',
    ],
)
def test_a_top_level_name_of_a_framework_or_operator_reaches_every_file(declaration: str) -> None:
    """A top-level declaration of the package wins over an import on
    demand and a default import of its name, in every file of the package."""
    assert reaching("src/test/kotlin/NewTest.kt", units(BASE)) == ()
    assert len(reaching("src/test/kotlin/NewTest.kt", units(BASE + "\n" + declaration + "\n"))) == 1
    helper = BASE + "\nfun helperOfMine() {\n}\n"
    assert reaching("src/test/kotlin/NewTest.kt", units(helper)) == ()
    annotated = '@file:JvmName("Other")\n' + BASE
    assert [u.key for u in reaching("NewTest.kt", units(annotated))] == ["file annotation JvmName"]


@pytest.mark.parametrize(
    "line", ["import io.ktor.server.routing.get", "import kotlin.test.*", "import a.b as plus"]
)
def test_an_import_of_a_new_file_acts_on_that_file_alone(line: str) -> None:
    """kotlin-sdk 664f51b9cc: a new test file importing ktor's `get`
    (an operator's name) changes no other file's names."""
    text = _import(line)
    assert any(u.role == COLLECTION for u in units(text) if u.key.startswith("import "))
    assert reaching("src/test/kotlin/NewTest.kt", units(text)) == ()


def test_framework_names_include_kotlin_tests() -> None:
    assert {"assertEquals", "runTest", "BeforeTest", "Test"} <= FRAMEWORK_NAMES


@pytest.mark.parametrize(
    ("path", "collected"),
    [
        ("src/test/kotlin/io/x/ClampTest.kt", True),
        ("src/commonTest/kotlin/io/x/ClampTests.kt", True),
        ("src/jvmTest/kotlin/io/x/ClampTestCase.kt", True),
        ("SRC/TEST/KOTLIN/CLAMPTEST.KT", True),
        ("src/test/kotlin/io/x/testing.kt", False),  # a helper module: judged whole
        ("build.gradle.kts", False),
        ("src/test/kotlin/io/x/ClampTest.kts", False),  # a script
    ],
)
def test_kotlin_test_names_are_test_modules(path: str, collected: bool) -> None:
    assert is_test_module(path) is collected


def test_units_for_picks_kotlin_by_suffix_and_not_scripts() -> None:
    found = units_for("src/test/kotlin/io/example/ClampTest.kt", BASE)
    assert found is not None and any(u.key == "fun ClampTest.doubles" for u in found)
    assert units_for("build.gradle.kts", BASE) is None


def test_the_rule_judges_a_kotlin_test_file_case_by_case(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository, the held-out shape of
    modelcontextprotocol/kotlin-sdk cab669b108 (an import, a private
    helper and a `@Test fun` added to an existing class) passes; its
    hostile twins (a new `@BeforeTest`, an `@Ignore` on an existing test)
    fail naming the unit; a syntax error is judged as a whole file."""
    path = "src/test/kotlin/io/example/clamp/ClampTest.kt"
    rubric_repo.write_many({path: BASE})
    base = rubric_repo.commit("base")
    heads = {}
    good = _append(
        "    private fun createMalformed(): Int = 0\n\n"
        "    @Test\n    fun `classifies malformed`() = runTest {\n"
        "        assertTrue(createMalformed() == 0)\n    }\n",
        _import("import kotlin.test.assertTrue"),
    )
    rubric_repo.write(path, good)
    heads["added"] = rubric_repo.commit("a test")
    rubric_repo.write(path, _append("    @BeforeTest\n    fun prepare() {\n    }\n"))
    heads["hook"] = rubric_repo.commit("a hook")
    rubric_repo.write(path, BENT["@Ignore put on an existing test"][0])
    heads["ignored"] = rubric_repo.commit("an ignore")
    rubric_repo.write(path, BASE + "\nclass Broken {\n    fun f( {\n}\n")
    heads["broken"] = rubric_repo.commit("a syntax error")
    got = {
        k: rubric_repo.check(base, h, rubric=DRIFT_RUBRIC).code_and_message()
        for k, h in heads.items()
    }
    assert got["added"][0] == 0, got["added"]
    assert got["hook"][0] == 1 and "ClampTest.prepare added to a class" in got["hook"][1]
    assert got["ignored"][0] == 1 and "ClampTest.clampsHigh changed" in got["ignored"][1]
    assert got["broken"][0] == 1
    assert "judged as a whole file" in got["broken"][1], got["broken"]
