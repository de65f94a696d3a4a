"""gate.drift.classes.Sharing on Kotlin: a new test whose body writes
state other tests of the run see (a system property, a default, an
`object`'s or a companion's property, a top-level `var`, an object
reached from one, a static mock) is COLLECTION, still a test: new in an
existing class it fails, in a new file it reaches other files' tests; a
test writing only its own state passes, and so does a write put back in
a `finally` from the old value, but not its hostile twins."""

from __future__ import annotations

import pytest

from gate.drift import COLLECTION, compare, reaching
from gate.drift.kotlin import units

BASE = """\
package com.example

import kotlin.test.Test

var calls = 0

class ConfigTest(private val client: Client) {
    private var mine = 1
    private val own = mutableListOf<String>()

    companion object {
        var count = 0
        val ITEMS = mutableListOf<String>()
    }

    @Test
    fun reads() {
        assertEquals(3, Config.level)
    }
}
"""
ANCHOR = "        assertEquals(3, Config.level)\n    }\n"


def _with(body: str, name: str = "fresh") -> str:
    lines = "".join(f"        {line}\n" if line else "\n" for line in body.split("\n"))
    test = f"\n    @Test\n    fun {name}() {{\n{lines}    }}\n"
    return BASE.replace(ANCHOR, ANCHOR + test, 1)


def _drift(head: str) -> str:
    drift = compare(units(BASE), units(head))
    return "ok" if drift.ok else drift.summary()


OWN_WRITES = [
    "var x = 1\nx++\nassertEquals(2, x)",
    'mine = 2\nthis.mine += 1\nown.add("a")\nthis.own.clear()',
    "client.timeout = 3\nclient.items.add(1)",
    "val foo = mockk<Foo>()\nevery { foo.x() } returns 1\nverify { foo.x() }",
    "val list = listOf(1, 2)\nassertEquals(2, list.size)",
    "val c = Foo.builder().x(1).add(2).build()\nc.setLevel(3)",
    "val made = Foo()\nmade.level = 3\nmade.items.add(1)",
    'val parsed = Foo.parse("x")\nparsed.setX(1)',
    "val copy = Foo.LIST.toMutableList()\ncopy.add(1)",
    'items.forEach { item -> item.name = "x" }',
    'val old = System.getProperty("x")\ntry {\n    System.setProperty("x", "y")\n'
    '} finally {\n    System.setProperty("x", old)\n}',
    "val old = Config.level\ntry {\n    Config.level = 3\n} finally {\n    Config.level = old\n}",
    "mockkStatic(Foo::class) {\n    every { Foo.x() } returns 1\n}",
    "mockkObject(Foo)\ntry {\n    run()\n} finally {\n    unmockkAll()\n}",
    "runTest {\n    val r = client.call()\n    assertEquals(1, r)\n}",
]
SHARED_WRITES = [
    'System.setProperty("x", "y")',
    'System.clearProperty("x")',
    "System.setOut(PrintStream(buf))",
    "Locale.setDefault(Locale.FRANCE)",
    'TimeZone.setDefault(TimeZone.getTimeZone("UTC"))',
    "Dispatchers.setMain(dispatcher)",
    "Config.level = 3",
    "Config.level += 1",
    "Config.level++",
    "--Config.level",
    "Foo.items.add(1)",
    'Foo.map["a"] = 1',
    "Foo.INSTANCE.level = 1",
    "count = 0",
    "count++",
    "ConfigTest.count = 1",
    'ITEMS.add("x")',
    "calls += 1",
    "mockkStatic(Foo::class)",
    "mockkObject(Foo)",
    "val l = Foo.LIST\nl.add(1)",
    "val a = Foo.LIST\nval b = a\nb.add(1)",
    # put back: hostile twins
    'val old = System.getProperty("x")\nSystem.setProperty("x", "y")\nSystem.setProperty("x", old)',
    'val old = System.getProperty("x")\ntry {\n    System.setProperty("x", "y")\n'
    '} finally {\n    System.setProperty("x", "z")\n}',
    'var old = System.getProperty("x")\nold = "w"\ntry {\n    System.setProperty("x", "y")\n'
    '} finally {\n    System.setProperty("x", old)\n}',
    'val old = System.getProperty("y")\ntry {\n    System.setProperty("x", "y")\n'
    '} finally {\n    System.setProperty("x", old)\n}',
    'val old = System.getProperty("x")\ntry {\n    run()\n} finally {\n'
    '    System.setProperty("x", old)\n}\nSystem.setProperty("x", "y")',
    'try {\n    System.setProperty("x", "y")\n} finally {\n    System.clearProperty("x")\n}',
    "val old = Config.level\ntry {\n    Config.level = 3\n} finally {\n    Config.other = old\n}",
    "try {\n    run()\n} finally {\n    unmockkAll()\n}\nmockkStatic(Foo::class)",
    "mockkObject(Foo)\ntry {\n    run()\n} finally {\n    cleanup()\n}",
    'mockkStatic(Foo::class) {\n    System.setProperty("x", "y")\n}',
    "mockkStatic {\n    run()\n}",
]


@pytest.mark.parametrize("body", OWN_WRITES)
def test_a_new_test_writing_only_its_own_state_passes(body: str) -> None:
    head = _with(body)
    assert _drift(head) == "ok", head
    assert reaching("src/test/kotlin/NewTest.kt", units(head)) == ()


@pytest.mark.parametrize("body", SHARED_WRITES)
def test_a_new_test_writing_shared_state_fails_and_stays_a_test(body: str) -> None:
    head = _with(body)
    assert _drift(head) != "ok", head
    fresh = [u for u in units(head) if u.key == "fun ConfigTest.fresh"]
    assert [(u.role, u.test) for u in fresh] == [(COLLECTION, True)]


@pytest.mark.parametrize("body", SHARED_WRITES)
def test_a_new_file_whose_test_writes_shared_state_reaches_other_tests(body: str) -> None:
    found = reaching("src/test/kotlin/NewTest.kt", units(_with(body)))
    assert [u.key for u in found] == ["fun ConfigTest.fresh"]


def test_an_edited_test_that_now_shares_state_is_a_change() -> None:
    head = BASE.replace("assertEquals(3,", 'System.setProperty("x", "y")\n        assertEquals(3,')
    assert _drift(head) != "ok"
