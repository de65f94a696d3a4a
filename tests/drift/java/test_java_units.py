"""gate.drift.java through `compare`: a Java test file judged case by
case.  Each welcome shape (a new test method of JUnit 4, JUnit 5 or
TestNG, a helper of a new name, rows added to a parameterized test, a
comment or a reformat) beside its hostile twins (the same edit written to
bend an existing test: a hook, a field, a class annotation, an overload
that captures an existing call, a row edited), and the rule end to end
on a real repository."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gate.drift import CASE, COLLECTION, SUPPORT, Unparsable, compare, reaching, units_for
from gate.drift.classes import HOOK_NAMES
from gate.drift.java import HOOKS, TESTS, units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

BASE = """\
package com.example.clamp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClampTest {
    private static final int LIMIT = 10;

    @Test
    void clampsHigh() {
        // the upper edge
        assertEquals(LIMIT, Clamp.clamp(11, LIMIT));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void keepsInside(int value) {
        assertEquals(value, Clamp.clamp(value, LIMIT));
    }

    @ParameterizedTest
    @CsvSource({"11, 10", "-1, 0"})
    void clampsEdges(int in, int want) {
        assertEquals(want, Clamp.clamp(in, LIMIT));
    }

    private int twice(Object value) {
        return 2 * (Integer) value;
    }

    @Test
    void doubles() {
        assertEquals(4, twice(2));
    }
}
"""

LAST = """        assertEquals(4, twice(2));
    }
"""


def _append(member: str) -> str:
    """BASE with `member` added as the class's last member."""
    return BASE.replace(LAST, LAST + "\n" + member, 1)


def _edit(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


# Heads that only add tests, helpers of new names, or change nothing a test reads.
WELCOME = {
    "a JUnit 5 @Test appended": _append(
        "    @Test\n    void clampsLow() { assertEquals(0, 1); }\n"
    ),
    "a @ParameterizedTest appended": _append(
        '    @ParameterizedTest\n    @ValueSource(strings = {"a"})\n    void reads(String s) {}\n'
    ),
    "a @RepeatedTest inserted first": _edit(
        "    @Test\n    void clampsHigh",
        "    @RepeatedTest(3)\n    void repeats() {}\n\n    @Test\n    void clampsHigh",
    ),
    "a @TestFactory appended": _append(
        "    @TestFactory\n    Stream<DynamicTest> dynamic() { return Stream.empty(); }\n"
    ),
    "a @TestTemplate appended": _append("    @TestTemplate\n    void template() {}\n"),
    "a fully qualified JUnit 4 @Test appended": _append(
        "    @org.junit.Test\n    public void legacy() {}\n"
    ),
    "a TestNG @Test with attributes appended": _append(
        '    @Test(groups = "fast", timeOut = 100)\n    public void grouped() {}\n'
    ),
    "a helper of a new name": _append("    private int thrice(int v) { return 3 * v; }\n"),
    "a plain field of a new name": _append("    private int spare;\n"),
    "a new nested helper class overriding its own base's method": _append(
        "    static class Fake extends Clock {\n"
        "        @Override\n        long now() { return 0; }\n    }\n"
    ),
    "a constant field of a new name": _append('    private static final String NAME = "x";\n'),
    "a new nested class of tests": _append(
        "    @Nested\n    class Low {\n        int seen;\n        void help() {}\n"
        "        @Test void low() {}\n    }\n"
    ),
    "a new single-type import of an unused name": _edit(
        "import org.junit.jupiter.api.Test;\n",
        "import java.time.Duration;\nimport org.junit.jupiter.api.Test;\n",
    ),
    "a new import on demand": _edit(
        "import org.junit.jupiter.api.Test;\n",
        "import java.util.*;\nimport org.junit.jupiter.api.Test;\n",
    ),
    "a comment edited in a test": _edit("// the upper edge", "/* the top edge */"),
    "a test reformatted": _edit(
        "        assertEquals(LIMIT, Clamp.clamp(11, LIMIT));",
        "        assertEquals(\n            LIMIT,\n            Clamp.clamp(11, LIMIT)\n        );",
    ),
    "a trailing comma added to a row array": _edit("{1, 2, 3}", "{1, 2, 3,}"),
    "a test moved below another": _edit(
        "    @Test\n    void doubles() {\n        assertEquals(4, twice(2));\n    }\n",
        "",
    ).replace(
        "    private int twice",
        "    @Test\n    void doubles() {\n        assertEquals(4, twice(2));\n    }\n\n"
        "    private int twice",
    ),
}

# Heads that grow an existing test by rows only.
GROWN = {
    "a @ValueSource row appended": _edit("{1, 2, 3}", "{1, 2, 3, 4}"),
    "a @ValueSource row inserted first": _edit("{1, 2, 3}", "{0, 1, 2, 3}"),
    "two @ValueSource rows in the middle": _edit("{1, 2, 3}", "{1, 5, 6, 2, 3}"),
    "a @CsvSource row appended": _edit('"-1, 0"}', '"-1, 0", "10, 10"}'),
}

# Hostile twins: each bends what an existing test runs or checks.
BENT = {
    "an assertion of an existing test edited": (
        _edit("assertEquals(LIMIT, Clamp.clamp(11", "assertEquals(LIMIT, Clamp.clamp(12"),
        "ClampTest.clampsHigh changed",
    ),
    "an existing test removed": (
        _edit(
            "    @Test\n    void doubles() {\n        assertEquals(4, twice(2));\n    }\n",
            "",
        ),
        "ClampTest.doubles removed",
    ),
    "@Disabled put on an existing test": (
        _edit("    @Test\n    void clampsHigh", "    @Test\n    @Disabled\n    void clampsHigh"),
        "ClampTest.clampsHigh changed",
    ),
    "a new @BeforeEach method": (
        _append('    @BeforeEach\n    void init() { System.setProperty("x", "y"); }\n'),
        "new ClampTest.init added to a class that exists at base",
    ),
    "a new JUnit 4 @Before method": (
        _append("    @org.junit.Before\n    public void prepare() {}\n"),
        "new ClampTest.prepare added to a class",
    ),
    "a new static @BeforeAll method": (
        _append("    @BeforeAll\n    static void boot() {}\n"),
        "new ClampTest.boot added to a class",
    ),
    "a new TestNG @BeforeMethod": (
        _append("    @BeforeMethod\n    public void before() {}\n"),
        "new ClampTest.before added to a class",
    ),
    "a new @AfterEach method": (
        _append("    @AfterEach\n    void after() {}\n"),
        "new ClampTest.after added to a class",
    ),
    "a new field whose initializer calls": (
        _append("    private final Server server = Server.start();\n"),
        "new ClampTest.server added to a class",
    ),
    "a new field reading another class's field": (
        _append("    private final int other = Config.LIMIT;\n"),
        "new ClampTest.other added to a class",
    ),
    "a new @Rule field": (
        _append("    @Rule\n    public TemporaryFolder tmp;\n"),
        "new ClampTest.tmp added to a class",
    ),
    "a new @RegisterExtension field": (
        _append("    @RegisterExtension\n    static Ext ext;\n"),
        "new ClampTest.ext added to a class",
    ),
    "a new static initializer": (
        _append('    static { System.setProperty("a", "b"); }\n'),
        "new ClampTest static initializer added to a class",
    ),
    "a new instance initializer": (
        _append("    { Clamp.reset(); }\n"),
        "new ClampTest initializer added to a class",
    ),
    "a new constructor": (
        _append("    ClampTest() { Clamp.reset(); }\n"),
        "new ClampTest constructor added to a class",
    ),
    "a class-level @ExtendWith added": (
        _edit("class ClampTest {", "@ExtendWith(Mocks.class)\nclass ClampTest {"),
        "ClampTest changed",
    ),
    "the class given a superclass": (
        _edit("class ClampTest {", "class ClampTest extends Base {"),
        "ClampTest changed",
    ),
    "a helper overloading an existing helper": (
        _append("    private int twice(Integer value) { return 0; }\n"),
        "new ClampTest.twice #2 added to a class",
    ),
    "a test overloading an existing helper": (
        _append("    @Test\n    int twice(Integer value) { return 0; }\n"),
        "new ClampTest.twice #2 added to a class",
    ),
    "a new method marked @Override": (
        _append('    @Override\n    public String toString() { return ""; }\n'),
        "new ClampTest.toString added to a class",
    ),
    "a new static import on demand": (
        _edit(
            "import org.junit.jupiter.api.Test;\n",
            "import static org.junit.Assert.*;\nimport org.junit.jupiter.api.Test;\n",
        ),
        "new static org.junit.Assert.* runs at collection",
    ),
    "a new import rebinding a name the file reads": (
        _edit(
            "import org.junit.jupiter.api.Test;\n",
            "import org.junit.jupiter.api.Test;\nimport org.junit.Test;\n",
        ),
        "replaces Test",
    ),
    "a new top-level class named like an annotation the file reads": (
        BASE + "\n@interface Test {}\n",
        "new Test replaces Test",
    ),
    "a @ValueSource row edited": (_edit("{1, 2, 3}", "{1, 2, 4}"), "keepsInside changed"),
    "a @ValueSource row removed": (_edit("{1, 2, 3}", "{1, 3}"), "keepsInside changed"),
    "a row added beside a body edit": (
        _edit("{1, 2, 3}", "{1, 2, 3, 4}").replace(
            "assertEquals(value, Clamp", "assertEquals(value + 0, Clamp"
        ),
        "keepsInside changed",
    ),
    "a @CsvSource row edited": (_edit('"-1, 0"', '"-1, 1"'), "clampsEdges changed"),
    "the @CsvSource delimiter changed": (
        _edit(
            '@CsvSource({"11, 10", "-1, 0"})',
            '@CsvSource(value = {"11, 10", "-1, 0"}, delimiter = \';\')',
        ),
        "clampsEdges changed",
    ),
    "the package changed": (
        _edit("package com.example.clamp;", "package com.example.other;"),
        "package changed",
    ),
    "a string inside a test edited in its spaces": (
        _edit("// the upper edge", 'String s = "a  b";'),
        "clampsHigh changed",
    ),
}


@pytest.mark.parametrize("name", sorted(WELCOME))
def test_a_welcome_edit_passes(name: str) -> None:
    drift = compare(units(BASE), units(WELCOME[name]))
    assert drift.ok, drift.summary()
    assert not drift.grew


@pytest.mark.parametrize("name", sorted(GROWN))
def test_rows_added_to_a_parameterized_test_grow_it(name: str) -> None:
    drift = compare(units(BASE), units(GROWN[name]))
    assert drift.ok and drift.grew, drift.summary()


@pytest.mark.parametrize("name", sorted(BENT))
def test_the_hostile_twin_fails_naming_the_member(name: str) -> None:
    head, why = BENT[name]
    drift = compare(units(BASE), units(head))
    assert not drift.ok, name
    assert why in drift.summary(), drift.summary()


def test_a_new_type_shadowing_an_import_on_demand_fails() -> None:
    """A type the file declares shadows what an import on demand brings:
    a new `@interface ParameterizedTest` would silently replace JUnit's."""
    base = _edit(
        "import org.junit.jupiter.params.ParameterizedTest;\n",
        "import org.junit.jupiter.params.*;\n",
    )
    drift = compare(units(base), units(base + "\n@interface ParameterizedTest {}\n"))
    assert "binds ParameterizedTest, a name existing code uses" in drift.summary()
    assert compare(units(base), units(base + "\n@interface Unused {}\n")).ok


@pytest.mark.parametrize("annotation", sorted(TESTS))
@pytest.mark.parametrize("spelling", ["{}", "org.junit.jupiter.api.{}", "{}(timeOut = 5)"])
def test_every_test_annotation_adds_a_test(annotation: str, spelling: str) -> None:
    mark = spelling.format(annotation)
    drift = compare(units(BASE), units(_append(f"    @{mark}\n    void fresh() {{}}\n")))
    assert drift.ok and drift.added == ("ClampTest.fresh",), drift.summary()


@pytest.mark.parametrize("annotation", sorted(HOOKS))
@pytest.mark.parametrize("spelling", ["{}", "org.junit.{}", "{}(alwaysRun = true)"])
def test_every_hook_annotation_is_refused_in_an_existing_class(
    annotation: str, spelling: str
) -> None:
    mark = spelling.format(annotation)
    drift = compare(units(BASE), units(_append(f"    @{mark}\n    void fresh() {{}}\n")))
    assert drift.summary() == "new ClampTest.fresh added to a class that exists at base"
    # and in a new file, it acts on its own class's tests alone
    assert reaching("NewTest.java", units(_append(f"    @{mark}\n    void fresh() {{}}\n"))) == ()


def test_a_hook_of_a_new_nested_class_in_an_existing_file_fails_closed() -> None:
    """Where the line is drawn: a setup method is collection-time code in
    any class of a modified file, a new `@Nested` class's included (it
    runs around that class's tests alone, but the engine refuses every
    new collection-time member of an existing file)."""
    head = _append(
        "    @Nested\n    class Low {\n        @BeforeEach void up() {}\n"
        "        @Test void low() {}\n    }\n"
    )
    assert "new ClampTest.Low.up runs at collection" in compare(units(BASE), units(head)).summary()


def test_an_override_in_a_class_with_a_supertype_is_refused() -> None:
    """Any override but `Object`'s needs a supertype, which makes the
    class closed to new members: the supertype's code may call it."""
    base = _edit("class ClampTest {", "class ClampTest extends Base {")
    head = base.replace(LAST, LAST + "\n    @Override\n    protected void configure() {}\n")
    assert compare(units(base), units(head)).summary() == (
        "new ClampTest.configure added to a class that exists at base"
    )
    head = base.replace(LAST, LAST + "\n    protected void configure() {}\n")  # no annotation
    assert not compare(units(base), units(head)).ok
    # a test marked as an override replaces the inherited test for this class
    head = base.replace(LAST, LAST + "\n    @Override\n    @Test\n    void inherited() {}\n")
    assert "new ClampTest.inherited added to a class" in compare(units(base), units(head)).summary()
    base = _edit("class ClampTest {", "class ClampTest implements Fixture {")
    head = base.replace(LAST, LAST + "\n    public void prepare() {}\n")
    assert not compare(units(base), units(head)).ok


def test_names_added_to_an_enum_source_are_a_change() -> None:
    """`@EnumSource(mode = EXCLUDE, names = ...)`: a name added drops a
    case, so only `@ValueSource` and `@CsvSource` elements are rows."""
    base = _edit("@ValueSource(ints = {1, 2, 3})", '@EnumSource(mode = EXCLUDE, names = {"A"})')
    head = base.replace('names = {"A"}', 'names = {"A", "B"}')
    assert compare(units(base), units(head)).changed == ("ClampTest.keepsInside",)


def test_roles_and_keys() -> None:
    found = {u.key: u.role for u in units(BASE)}
    assert found == {
        "package": SUPPORT,
        "import static org.junit.jupiter.api.Assertions.assertEquals": SUPPORT,
        "import org.junit.jupiter.api.Test": SUPPORT,
        "import org.junit.jupiter.params.ParameterizedTest": SUPPORT,
        "import org.junit.jupiter.params.provider.CsvSource": SUPPORT,
        "import org.junit.jupiter.params.provider.ValueSource": SUPPORT,
        "class ClampTest": SUPPORT,
        "field ClampTest.LIMIT": SUPPORT,
        "method ClampTest.clampsHigh": CASE,
        "method ClampTest.keepsInside": CASE,
        "method ClampTest.clampsEdges": CASE,
        "method ClampTest.twice": SUPPORT,
        "method ClampTest.doubles": CASE,
    }


def test_junit3_and_testng_shapes() -> None:
    text = """\
import junit.framework.TestCase;

public class LegacyTest extends TestCase {
    protected void setUp() {}
    public void testAdds() {}
    public void helper() {}
}
"""
    found = {u.key: u.role for u in units(text)}
    assert found["hook LegacyTest.setUp"] == COLLECTION
    assert found["method LegacyTest.testAdds"] == CASE
    assert found["method LegacyTest.helper"] == SUPPORT
    # a new helper of a class with a base type: the base may call it by name
    head = text.replace(
        "    public void helper() {}\n", "    public void helper() {}\n    void x() {}\n"
    )
    assert "added to a class that exists at base" in compare(units(text), units(head)).summary()
    # a new JUnit 3 test is a test
    head = text.replace(
        "    public void helper() {}\n",
        "    public void helper() {}\n    public void testMore() {}\n",
    )
    assert compare(units(text), units(head)).added == ("LegacyTest.testMore",)


@pytest.mark.parametrize(
    "comment",
    ["/* Copyright (c) the authors. */\n", "// SPDX-License-Identifier: MIT\n", "/** Doc. */\n"],
)
def test_comments_between_declarations_are_no_units(comment: str) -> None:
    """A license header, a comment between members or inside an import
    is layout: it is no unit and changes none."""
    text = comment + BASE.replace("    private int twice", comment + "    private int twice")
    text = text.replace(
        "import org.junit.jupiter.api.Test;", "import org.junit.jupiter.api./* x */Test;"
    )
    assert {u.key for u in units(text)} == {u.key for u in units(BASE)}
    assert compare(units(BASE), units(text)).ok


def test_a_syntax_error_is_refused() -> None:
    with pytest.raises(Unparsable, match="line 3"):
        units("class A {\n  void f() {\n    int x = ;\n  }\n}\n")


@pytest.mark.parametrize("body", ["", "\r\n", "\ufeff"])
def test_byte_order_mark_and_line_endings(body: str) -> None:
    text = body + BASE.replace("\n", "\r\n") if body == "\r\n" else body + BASE
    assert compare(units(BASE), units(text)).ok


def test_a_new_file_reaches_other_tests_only_through_a_static_initializer() -> None:
    assert reaching("src/test/java/NewTest.java", units(BASE)) == ()
    text = BASE.replace(
        "    private static final",
        '    static { System.setProperty("a", "b"); }\n    private static final',
    )
    assert [u.key for u in reaching("src/test/java/NewTest.java", units(text))] == [
        "static initializer ClampTest"
    ]


@pytest.mark.parametrize(
    "declaration", ["@interface Test {}", "class Assertions {}", "enum BeforeEach {}"]
)
def test_a_type_named_like_the_frameworks_reaches_every_file(declaration: str) -> None:
    """A top-level `@interface Test` of the package wins over the one an
    import on demand brings, in every file of the package."""
    name = declaration.split()[1]
    text = BASE + "\n" + declaration + "\n"
    kind = "class" if declaration.startswith("class") else "type"
    assert [u.key for u in reaching("NewTest.java", units(text))] == [f"{kind} {name}"]
    assert reaching("NewTest.java", units(BASE + "\nclass Helper {}\n")) == ()


@pytest.mark.parametrize(
    ("path", "collected"),
    [
        ("src/test/java/com/x/ClampTest.java", True),
        ("src/test/java/com/x/ClampTests.java", True),
        ("src/test/java/com/x/TestClamp.java", True),
        ("src/test/java/com/x/ClampTestCase.java", True),
        ("SRC/TEST/JAVA/CLAMPTEST.JAVA", True),  # another letter case
        ("src/test/java/com/x/ClampIT.java", False),  # Failsafe's, not Surefire's
        ("src/test/java/com/x/Fixtures.java", False),
        ("dotnet/tests/Clamp.Tests/ClampTests.cs", True),
        ("dotnet/tests/Clamp.Tests/ClampTest.cs", True),
        ("dotnet/test/Harness/E2ETestContext.cs", False),
        ("dotnet/tests/Clamp.Tests/testdata/ClampTests.cs", False),
    ],
)
def test_surefire_and_dotnet_test_names_are_test_modules(path: str, collected: bool) -> None:
    from gate.drift.collected import is_test_module

    assert is_test_module(path) is collected


def test_units_for_picks_java_by_suffix() -> None:
    found = units_for("src/test/java/com/example/ClampTest.java", BASE)
    assert found is not None and any(u.key == "method ClampTest.doubles" for u in found)


def test_the_rule_judges_a_java_test_file_case_by_case(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: a new @Test and a grown row set
    pass; the hostile twin (a new @BeforeEach) fails, naming it."""
    path = "src/test/java/com/example/clamp/ClampTest.java"
    rubric_repo.write_many({path: BASE})
    base = rubric_repo.commit("base")
    rubric_repo.write(
        path, WELCOME["a JUnit 5 @Test appended"].replace("{1, 2, 3}", "{1, 2, 3, 4}")
    )
    good = rubric_repo.commit("a test and a row")
    rubric_repo.write(path, BENT["a new @BeforeEach method"][0])
    bent = rubric_repo.commit("a hook")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, h, rubric=DRIFT_RUBRIC).verdict() for h in (good, bent)
    )
    assert code == 0, result
    assert "new cases added to 1 existing test" in result["message"], result
    assert bent_code == 1, bent_result
    assert "ClampTest.init added to a class that exists at base" in bent_result["message"]


# Class headers that close a class to a new non-private member (a
# supertype's code or another file's subclass may call, override or
# implement it by name), but not to a private one.
CLOSED = {
    "a superclass": "class ClampTest extends BaseTest {",
    "an interface": "class ClampTest implements Fixture {",
    "an annotation a framework reads": "@SpringBootTest(classes = App.class)\nclass ClampTest {",
    "JUnit 3's TestCase": "public class ClampTest extends junit.framework.TestCase {",
}
# Class annotations that only mark a test class: the class stays open.
MARKED = {
    "@ExtendWith": "@ExtendWith(MockitoExtension.class)\nclass ClampTest {",
    "@DisplayName and @Tag": '@DisplayName("clamp")\n@Tag("fast")\nclass ClampTest {',
}
PRIVATE = {
    "a private helper": "    private int thrice(int v) { return 3 * v; }\n",
    "a private static helper": '    private static String name(Object o) { return o + ""; }\n',
    "a private constant": '    private static final String NAME = "x";\n',
    "a private field": "    private int spare;\n",
    "a private helper marked @SuppressWarnings": (
        '    @SuppressWarnings("unchecked")\n    private <T> T cast(Object o) { return (T) o; }\n'
    ),
}
NON_PRIVATE = {
    "a package-private helper": "    int thrice(int v) { return 3 * v; }\n",
    "a protected helper": "    protected int thrice(int v) { return 3 * v; }\n",
    "a public helper": "    public void prepare() {}\n",
    "a public static helper": "    public static int limit() { return 1; }\n",
    "a protected field": "    protected int spare;\n",
}
# New private members that change what existing tests run in any class,
# a plain one included: a hook's name, an annotation a framework reads, an
# initializer that runs code, a name existing code reads or overloads.
SHARED = {
    "a private setUp": "    private void setUp() {}\n",
    "a private tearDown taking an argument": "    private void tearDown(int x) {}\n",
    "a private close": "    private void close() {}\n",
    "a private runTest": "    private void runTest() {}\n",
    "a private TestNG @DataProvider": (
        '    @DataProvider(name = "rows")\n    private Object[][] rows() { return null; }\n'
    ),
    "a private method marked @Override": "    @Override\n    private void configure() {}\n",
    "a private static field whose initializer calls": (
        "    private static final Server SERVER = Server.start();\n"
    ),
    "a private field named as a type a test reads": "    private static Object Clamp;\n",
    "a private field named as a constant a test reads": "    private int LIMIT;\n",
    "a private overload of an existing helper": (
        "    private int twice(Integer value) { return 0; }\n"
    ),
}


def _headed(header: str) -> str:
    return _edit("class ClampTest {", header)


# Headers of classes that extend another: a test inherited from it (in
# another file) may name a private member by a string.
EXTENDS = {k: v for k, v in CLOSED.items() if " extends " in v}


@pytest.mark.parametrize("member", sorted(PRIVATE))
@pytest.mark.parametrize("header", sorted(CLOSED | MARKED | {"none": "class ClampTest {"}))
def test_a_new_private_member_is_welcome_unless_the_class_extends_another(
    header: str, member: str
) -> None:
    """A private member never overrides nor implements, and no other
    class sees it: named nowhere in the file, it changes no existing test;
    unless the class extends another, whose tests (in another file) may
    name it by a string (`@MethodSource("rows")`, `@EnabledIf("ready")`)."""
    text = _headed((CLOSED | MARKED).get(header, "class ClampTest {"))
    drift = compare(units(text), units(text.replace(LAST, LAST + "\n" + PRIVATE[member])))
    assert drift.ok is (header not in EXTENDS), drift.summary()


@pytest.mark.parametrize("source", ["rows", "ready"])
def test_a_private_source_an_inherited_test_names_by_string_fails(source: str) -> None:
    """The hole a private member in a subclass could open: the base class's
    parameterized test, in another file, looks `rows` up on the concrete
    class (JUnit 5's @MethodSource, private methods included)."""
    text = _headed(CLOSED["a superclass"])
    member = f"    private static java.util.stream.Stream<Integer> {source}() {{ return null; }}\n"
    drift = compare(units(text), units(text.replace(LAST, LAST + "\n" + member)))
    assert not drift.ok, drift.summary()


@pytest.mark.parametrize("member", sorted(NON_PRIVATE))
@pytest.mark.parametrize("header", sorted(MARKED))
def test_a_new_helper_is_welcome_in_a_class_only_marked_as_a_test_class(
    header: str, member: str
) -> None:
    text = _headed(MARKED[header])
    drift = compare(units(text), units(text.replace(LAST, LAST + "\n" + NON_PRIVATE[member])))
    assert drift.ok, drift.summary()


@pytest.mark.parametrize("member", sorted(NON_PRIVATE))
@pytest.mark.parametrize("header", sorted(CLOSED))
def test_a_non_private_member_of_a_class_with_a_supertype_fails(header: str, member: str) -> None:
    """The hostile twin: a package-private, protected or public instance
    method of a class with a supertype may override an inherited one (no
    `@Override` needed); a static or a field may hide one that another
    file's subclass reads."""
    text = _headed(CLOSED[header])
    drift = compare(units(text), units(text.replace(LAST, LAST + "\n" + NON_PRIVATE[member])))
    assert "added to a class that exists at base" in drift.summary(), member


@pytest.mark.parametrize("member", sorted(SHARED))
@pytest.mark.parametrize("header", sorted(CLOSED | MARKED | {"none": "class ClampTest {"}))
def test_a_private_member_a_framework_or_a_test_reaches_fails(header: str, member: str) -> None:
    text = _headed((CLOSED | MARKED).get(header, "class ClampTest {"))
    drift = compare(units(text), units(text.replace(LAST, LAST + "\n" + SHARED[member])))
    assert "added to a class that exists at base" in drift.summary(), member


def test_a_private_member_named_by_a_string_of_the_file_fails() -> None:
    """`@MethodSource("rows")` names its factory by a string: a new
    private `rows` would take the place of the inherited one."""
    text = _headed(CLOSED["a superclass"]).replace(
        "    @Test\n    void doubles",
        '    @ParameterizedTest\n    @MethodSource("rows")\n    void fromRows(int v) {}\n\n'
        "    @Test\n    void doubles",
    )
    head = text.replace(
        LAST, LAST + "\n    private static Stream<Integer> rows() { return null; }\n"
    )
    assert "new ClampTest.rows added to a class" in compare(units(text), units(head)).summary()


@pytest.mark.parametrize(
    "edit",
    [
        ("@ExtendWith(MockitoExtension.class)", "@ExtendWith(OtherExtension.class)"),
        ('@Tag("fast")', '@Tag("slow")'),
    ],
)
def test_class_annotation_arguments_changed_fail(edit: tuple[str, str]) -> None:
    text = _headed(
        MARKED["@ExtendWith"] if "Extend" in edit[0] else MARKED["@DisplayName and @Tag"]
    )
    head = text.replace(*edit).replace(LAST, LAST + "\n" + PRIVATE["a private helper"])
    assert compare(units(text), units(head)).changed == ("ClampTest",)


def test_a_private_helper_passes_end_to_end_in_a_class_with_an_interface(
    rubric_repo: RubricRepo,
) -> None:
    """On a real repository: a new test with a private helper in a class
    that implements an interface passes; its twin, the same helper left
    package-private (it may implement the interface's), fails."""
    path = "src/test/java/com/example/clamp/ClampTest.java"
    text = _headed(CLOSED["an interface"])
    rubric_repo.write_many({path: text})
    base = rubric_repo.commit("base")
    test = "    @Test\n    void thrices() { assertEquals(3, thrice(1)); }\n"
    rubric_repo.write(
        path, text.replace(LAST, LAST + "\n" + test + "\n" + PRIVATE["a private helper"])
    )
    good = rubric_repo.commit("a test and its private helper")
    rubric_repo.write(
        path,
        text.replace(LAST, LAST + "\n" + test + "\n" + NON_PRIVATE["a package-private helper"]),
    )
    bent = rubric_repo.commit("a test and a helper that may override")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, h, rubric=DRIFT_RUBRIC).verdict() for h in (good, bent)
    )
    assert code == 0, result
    assert bent_code == 1 and "ClampTest.thrice added to a class" in bent_result["message"]


@pytest.mark.parametrize("hook", sorted(HOOK_NAMES))
@pytest.mark.parametrize("case", [str.lower, str.upper, lambda s: s[:1].upper() + s[1:]])
def test_a_private_method_named_as_a_hook_fails_in_any_letter_case(
    hook: str, case: Callable[[str], str]
) -> None:
    """Generated over every hook name and three letter cases, in a class
    with a supertype: the supertype or a runner may call it by name."""
    text = _headed(CLOSED["a superclass"])
    head = text.replace(LAST, LAST + f"\n    private void {case(hook)}() {{}}\n")
    assert "added to a class that exists at base" in compare(units(text), units(head)).summary()
