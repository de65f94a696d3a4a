"""gate.drift.classes.Sharing on Java: a new test whose body writes state
other tests of the run see (a system property, a default, a static field,
an object reached from one, a static mock) is COLLECTION, still a test:
new in an existing class it fails, in a new file it reaches other files'
tests; a test writing only its own state passes, and so does a write put
back in a `finally` from the old value, but not its hostile twins."""

from __future__ import annotations

import pytest

from gate.drift import COLLECTION, compare, reaching
from gate.drift.java import units

BASE = """\
package com.example;

import org.junit.jupiter.api.Test;

class ConfigTest {
    private static int count;
    private static final List<String> ITEMS = new ArrayList<>();
    private int mine;
    private final List<String> own = new ArrayList<>();

    @Test
    void reads() {
        assertEquals(3, Config.level());
    }
}
"""
ANCHOR = "        assertEquals(3, Config.level());\n    }\n"


def _with(body: str, name: str = "fresh") -> str:
    lines = "".join(f"        {line}\n" for line in body.split("\n"))
    test = f"\n    @Test\n    void {name}() {{\n{lines}    }}\n"
    return BASE.replace(ANCHOR, ANCHOR + test, 1)


def _drift(head: str) -> str:
    drift = compare(units(BASE), units(head))
    return "ok" if drift.ok else drift.summary()


OWN_WRITES = [
    # an immutable value's methods make new values
    "var t = Instant.now().plusSeconds(3);\nvar d = LocalDate.now().withDayOfMonth(1).plusDays(2);",
    "var b = BigDecimal.ONE.add(BigDecimal.TEN);",
    "int x = 1;\nx++;\nassertEquals(2, x);",
    'mine = 2;\nthis.mine += 1;\nown.add("a");\nthis.own.clear();',
    "assertEquals(1, Assertions.assertThrows(X.class, () -> run()).code());",
    "Foo foo = Mockito.mock(Foo.class);\nMockito.when(foo.x()).thenReturn(1);\n"
    "Mockito.verify(foo).x();",
    "Mockito.reset(foo);",
    "var list = List.of(1, 2);\nassertEquals(2, list.size());",
    "var c = Foo.builder().x(1).add(2).build();\nc.setLevel(3);",
    'Foo made = new Foo();\nmade.level = 3;\nmade.setName("x");\nmade.items.add(1);',
    'var parsed = Foo.parse("x");\nparsed.setX(1);\nassertEquals(1, parsed.x());',
    "var copy = new ArrayList<>(Foo.LIST);\ncopy.add(1);",
    'List<String> l = new ArrayList<>();\nCollections.addAll(l, "a");',
    'String old = System.getProperty("x");\ntry {\n    System.setProperty("x", "y");\n'
    '    run();\n} finally {\n    System.setProperty("x", old);\n}',
    "PrintStream old = System.out;\ntry {\n    System.setOut(new PrintStream(buf));\n"
    "} finally {\n    System.setOut(old);\n}",
    "Locale old = Locale.getDefault();\ntry {\n    Locale.setDefault(Locale.FRANCE);\n"
    "} finally {\n    Locale.setDefault(old);\n}",
    "int old = Config.level;\ntry {\n    Config.level = 3;\n} finally {\n"
    "    Config.level = old;\n}",
    "try (MockedStatic<Foo> m = Mockito.mockStatic(Foo.class)) {\n"
    "    m.when(Foo::x).thenReturn(1);\n}",
    "MockedStatic<Foo> m = Mockito.mockStatic(Foo.class);\ntry {\n    run();\n} finally {\n"
    "    m.close();\n}",
    'items.forEach(item -> item.setName("x"));',
    'Thread.sleep(10);\nString s = String.format("%d", 1);',
    "Model model = new Model();\nTestHelper.addProperties(model);",
    "Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))"
    ".until(() -> done);",
    "var tool = Tool.create(m);\nApps.setAppUi(tool, meta);",
    "var root = CodeNamespace.initRootNamespace();\nroot.addClass(new CodeClass());",
    'String out = Conventions.removeInvalidCharacters(input);\nassertEquals("x", out);',
    'assertEquals("x", Conventions.removeInvalidCharacters(input));',
    "PrintStream old = System.out;\nSystem.setOut(new PrintStream(buf));\ntry {\n    run();\n"
    "} finally {\n    System.setOut(old);\n}",
]
SHARED_WRITES = [
    'System.setProperty("x", "y");',
    'System.clearProperty("x");',
    "System.setOut(new PrintStream(buf));",
    "System.setErr(null);",
    "System.setIn(in);",
    "System.setSecurityManager(null);",
    'System.getProperties().put("x", "y");',
    "Locale.setDefault(Locale.FRANCE);",
    'TimeZone.setDefault(TimeZone.getTimeZone("UTC"));',
    "Thread.setDefaultUncaughtExceptionHandler(h);",
    "Runtime.getRuntime().addShutdownHook(t);",
    "Security.addProvider(p);",
    "CookieHandler.setDefault(c);",
    "HttpsURLConnection.setDefaultHostnameVerifier(v);",
    "Mockito.mockStatic(Foo.class);",
    "mockConstruction(Foo.class);",
    "Config.level = 3;",
    "Config.level += 1;",
    "Config.level++;",
    "--Config.level;",
    "Config.setLevel(3);",
    "count = 0;",
    "count++;",
    "ConfigTest.count = 1;",
    'ITEMS.add("x");',
    "ConfigTest.ITEMS.clear();",
    "Registry.ITEMS.add(x);",
    "Foo.INSTANCE.level = 1;",
    'Foo.MAP.put("a", 1);',
    'Foo.MAP.remove("a");',
    "Foo.getInstance().register(x);",
    "Foo.ARRAY[0] = 1;",
    "var l = Foo.LIST;\nl.add(1);",
    "var a = Foo.LIST;\nvar b = a;\nb.add(1);",
    "List<Integer> a = null;\na = Foo.LIST;\na.clear();",
    # put back: hostile twins
    'String old = System.getProperty("x");\nSystem.setProperty("x", "y");\n'
    'System.setProperty("x", old);',
    'String old = System.getProperty("x");\ntry {\n    System.setProperty("x", "y");\n'
    '} finally {\n    System.setProperty("x", "z");\n}',
    'String old = System.getProperty("x");\nold = "w";\ntry {\n    System.setProperty("x", "y");\n'
    '} finally {\n    System.setProperty("x", old);\n}',
    'String old = System.getProperty("y");\ntry {\n    System.setProperty("x", "y");\n'
    '} finally {\n    System.setProperty("x", old);\n}',
    'String old = System.getProperty("x");\ntry {\n    run();\n} finally {\n'
    '    System.setProperty("x", old);\n}\nSystem.setProperty("x", "y");',
    'try {\n    System.setProperty("x", "y");\n} finally {\n    System.clearProperty("x");\n}',
    "int old = Config.level;\ntry {\n    Config.level = 3;\n} finally {\n"
    "    Config.other = old;\n}",
    "int old = Config.level;\ntry {\n    run();\n} finally {\n    Config.level = old;\n"
    "}\nConfig.level = 3;",
    "try {\n    run();\n} finally {\n    m.close();\n}\nMockito.mockStatic(Foo.class);",
    'try (var r = open()) {\n    System.setProperty("x", "y");\n}',
    # the write right before the `try` only, with nothing between
    "PrintStream old = System.out;\nSystem.setOut(new PrintStream(buf));\nrun();\ntry {\n"
    "    run();\n} finally {\n    System.setOut(old);\n}",
    # a static helper on a value, not on an object the test made
    "int level = 3;\nConfig.setLevel(level);",
    "Registry.add(3);",
    "Conventions.removeInvalidCharacters(input);",
    'var prev = System.setProperty("x", "y");',
    "var items = Registry.getInstance();\nitems.add(1);",
    "Thread.currentThread().setContextClassLoader(loader);",
    'var tool = Tool.create(m);\nSystem.setProperty(tool, "x");',
]


@pytest.mark.parametrize("body", OWN_WRITES)
def test_a_new_test_writing_only_its_own_state_passes(body: str) -> None:
    head = _with(body)
    assert _drift(head) == "ok", head
    assert reaching("src/test/java/NewTest.java", units(head)) == ()


@pytest.mark.parametrize("body", SHARED_WRITES)
def test_a_new_test_writing_shared_state_fails_and_stays_a_test(body: str) -> None:
    head = _with(body)
    assert "new hook" not in _drift(head) and _drift(head) != "ok", head
    fresh = [u for u in units(head) if u.key == "method ConfigTest.fresh"]
    assert [(u.role, u.test) for u in fresh] == [(COLLECTION, True)]


@pytest.mark.parametrize("body", SHARED_WRITES)
def test_a_new_file_whose_test_writes_shared_state_reaches_other_tests(body: str) -> None:
    found = reaching("src/test/java/NewTest.java", units(_with(body)))
    assert [u.key for u in found] == ["method ConfigTest.fresh"]


def test_an_edited_test_that_now_shares_state_is_a_change() -> None:
    head = BASE.replace("assertEquals(3,", 'System.setProperty("x", "y");\n        assertEquals(3,')
    assert _drift(head) != "ok"
