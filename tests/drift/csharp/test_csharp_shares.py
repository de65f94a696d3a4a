"""gate.drift.classes.Sharing on C#: a new test whose body writes state
other tests of the run see (an environment variable, the console, a
culture, a static field or property, an object reached from one) is
COLLECTION, still a test: new in an existing class it fails, in a new
file it reaches other files' tests; a test writing only its own state
passes, and so does a write put back in a `finally` from the old value
or made by a `using` resource, but not their hostile twins."""

from __future__ import annotations

import pytest

from gate.drift import COLLECTION, compare, reaching
from gate.drift.csharp import units

BASE = """\
namespace Example.Tests;

public class ConfigTests
{
    private static int _count;
    private static readonly List<string> Items = new();
    private int _mine;
    private readonly List<string> _own = new();
    public Client Sut { get; set; }
    public static Settings Defaults { get; set; }

    [Fact]
    public void Reads()
    {
        Assert.Equal(3, Config.Level);
    }
}
"""
ANCHOR = "        Assert.Equal(3, Config.Level);\n    }\n"


def _with(body: str, name: str = "Fresh") -> str:
    lines = "".join(f"        {line}\n" for line in body.split("\n"))
    test = f"\n    [Fact]\n    public void {name}()\n    {{\n{lines}    }}\n"
    return BASE.replace(ANCHOR, ANCHOR + test, 1)


def _drift(head: str) -> str:
    drift = compare(units(BASE), units(head))
    return "ok" if drift.ok else drift.summary()


OWN_WRITES = [
    "var x = 1;\nx++;\nAssert.Equal(2, x);",
    # an immutable value's methods make new values (azure-mcp 54eed65d7da3)
    "var s = new Session { Created = DateTime.UtcNow.AddMinutes(-30) };",
    "var later = DateTimeOffset.Now.AddDays(1).AddHours(2);\n"
    "var span = TimeSpan.Zero.Add(later - later);",
    '_mine = 2;\nthis._mine += 1;\n_own.Add("a");\nthis._own.Clear();',
    "Sut = new Client();\nSut.Timeout = 3;\nthis.Sut.Items.Add(1);",
    'var ex = Assert.Throws<X>(() => Run());\nAssert.Equal("x", ex.Message);',
    "var mock = new Mock<IFoo>();\nmock.Setup(m => m.X()).Returns(1);\nmock.Verify();",
    "var list = new List<int> { 1 };\nlist.Add(2);",
    "var c = Foo.CreateBuilder().Add(2).Build();\nc.SetLevel(3);",
    "var made = new Foo();\nmade.Level = 3;\nmade.Items.Add(1);",
    'var parsed = Foo.Parse("x");\nparsed.SetX(1);',
    "var copy = new List<int>(Foo.List);\ncopy.Add(1);",
    'foreach (var item in items)\n{\n    item.Name = "x";\n}',
    'var old = Environment.GetEnvironmentVariable("X");\ntry\n{\n'
    '    Environment.SetEnvironmentVariable("X", "1");\n}\nfinally\n{\n'
    '    Environment.SetEnvironmentVariable("X", old);\n}',
    "var old = Console.Out;\ntry\n{\n    Console.SetOut(writer);\n}\nfinally\n{\n"
    "    Console.SetOut(old);\n}",
    "var old = CultureInfo.CurrentCulture;\ntry\n{\n"
    '    CultureInfo.CurrentCulture = new CultureInfo("fr");\n}\nfinally\n{\n'
    "    CultureInfo.CurrentCulture = old;\n}",
    'using (new CultureScope("fr"))\n{\n    Run();\n}',
    "using var scope = Config.Override(3);\nRun();",
    "using (Config.Override(3))\n{\n    Run();\n}",
    'await Task.Delay(1);\nvar s = string.Format("{0}", 1);',
    # an object initializer sets the new object's members
    'var request = new Request { Id = new RequestId(1), Method = "x" };\nSend(request);',
    'var options = new Options\n{\n    Level = 3,\n    Inner = { Name = "x" },\n};',
    "var copy = original with { Level = 3 };",
    # a static helper acting on an object the test made
    "var model = new CodeClass();\nTestHelper.AddSerializationProperties(model);",
    "var tool = McpServerTool.Create(method);\nMcpApps.SetAppUi(tool, meta);",
    "var root = CodeNamespace.InitRootNamespace();\nroot.AddClass(new CodeClass());",
    "var result = JavaConventionService.RemoveInvalidDescriptionCharacters(input);",
    'Assert.Equal("x", JavaConventionService.RemoveInvalidDescriptionCharacters(input));',
    "var original = Console.In;\nConsole.SetIn(input);\ntry\n{\n    Run();\n}\nfinally\n{\n"
    "    Console.SetIn(original);\n}",
]
SHARED_WRITES = [
    'Environment.SetEnvironmentVariable("X", "1");',
    "Config.Started = DateTime.UtcNow.AddMinutes(-30);",
    "Console.SetOut(writer);",
    "Console.SetError(writer);",
    "Console.SetIn(reader);",
    'CultureInfo.CurrentCulture = new CultureInfo("fr");',
    "CultureInfo.DefaultThreadCurrentCulture = c;",
    "Thread.CurrentThread.CurrentCulture = c;",
    'AppContext.SetSwitch("X", true);',
    "ServicePointManager.Expect100Continue = false;",
    'Directory.SetCurrentDirectory("/tmp");',
    "Config.Level = 3;",
    "Config.Level += 1;",
    "Config.Level++;",
    "--Config.Level;",
    "Config.Changed += OnChanged;",
    "_count = 0;",
    "_count++;",
    "ConfigTests._count = 1;",
    'Items.Add("x");',
    "ConfigTests.Items.Clear();",
    "Defaults = null;",
    "Defaults.Timeout = 1;",
    "Level = 3;",
    "Registry.Items.Add(x);",
    "Foo.Instance.Level = 1;",
    'Foo.Map["a"] = 1;',
    'Foo.Map.Remove("a");',
    "Foo.Current.Register(x);",
    "var l = Foo.List;\nl.Add(1);",
    "var a = Foo.List;\nvar b = a;\nb.Add(1);",
    "List<int> a = null;\na = Foo.List;\na.Clear();",
    # put back: hostile twins
    'var old = Environment.GetEnvironmentVariable("X");\n'
    'Environment.SetEnvironmentVariable("X", "1");\nEnvironment.SetEnvironmentVariable("X", old);',
    'var old = Environment.GetEnvironmentVariable("X");\ntry\n{\n'
    '    Environment.SetEnvironmentVariable("X", "1");\n}\nfinally\n{\n'
    '    Environment.SetEnvironmentVariable("X", "2");\n}',
    'var old = Environment.GetEnvironmentVariable("X");\nold = "w";\ntry\n{\n'
    '    Environment.SetEnvironmentVariable("X", "1");\n}\nfinally\n{\n'
    '    Environment.SetEnvironmentVariable("X", old);\n}',
    'var old = Environment.GetEnvironmentVariable("Y");\ntry\n{\n'
    '    Environment.SetEnvironmentVariable("X", "1");\n}\nfinally\n{\n'
    '    Environment.SetEnvironmentVariable("X", old);\n}',
    'var old = Environment.GetEnvironmentVariable("X");\ntry\n{\n    Run();\n}\nfinally\n{\n'
    '    Environment.SetEnvironmentVariable("X", old);\n}\n'
    'Environment.SetEnvironmentVariable("X", "1");',
    'try\n{\n    Environment.SetEnvironmentVariable("X", "1");\n}\nfinally\n{\n'
    '    Environment.SetEnvironmentVariable("X", null);\n}',
    "var old = Config.Level;\ntry\n{\n    Config.Level = 3;\n}\nfinally\n{\n"
    "    Config.Other = old;\n}",
    "using (var r = Open())\n{\n    Config.Level = 3;\n}",
    "Config.Current = new Settings { Level = 3 };",
    'Registry.Items.Add(new Item { Name = "x" });',
    "var original = Console.In;\nConsole.SetIn(input);\nRun();\ntry\n{\n    Run();\n}\n"
    "finally\n{\n    Console.SetIn(original);\n}",
    "var level = 3;\nConfig.SetLevel(level);",
    "Registry.Add(3);",
    "Conventions.RemoveInvalidCharacters(input);",
    'var tool = McpServerTool.Create(method);\nEnvironment.SetEnvironmentVariable(tool, "x");',
]


@pytest.mark.parametrize("body", OWN_WRITES)
def test_a_new_test_writing_only_its_own_state_passes(body: str) -> None:
    head = _with(body)
    assert _drift(head) == "ok", head
    assert reaching("tests/NewTests.cs", units(head)) == ()


@pytest.mark.parametrize("body", SHARED_WRITES)
def test_a_new_test_writing_shared_state_fails_and_stays_a_test(body: str) -> None:
    head = _with(body)
    assert _drift(head) != "ok", head
    fresh = [u for u in units(head) if u.key == "method ConfigTests.Fresh"]
    assert [(u.role, u.test) for u in fresh] == [(COLLECTION, True)]


@pytest.mark.parametrize("body", SHARED_WRITES)
def test_a_new_file_whose_test_writes_shared_state_reaches_other_tests(body: str) -> None:
    found = reaching("tests/NewTests.cs", units(_with(body)))
    assert [u.key for u in found] == ["method ConfigTests.Fresh"]


# In a class that extends a class, a PascalCase name the file does not
# declare may be a property it inherits (an instance per test): the
# test's own, but for the process's types.
DERIVED = BASE.replace("public class ConfigTests\n", "public class ConfigTests : LoggedTest\n")
INHERITED_OWN = [
    "Builder.Services.AddMcpServer();",
    'HttpClient.DefaultRequestHeaders.Accept.Add(new("text/event-stream"));',
    "Level = 3;",
    "Server.Options.Timeout = 1;",
]
PROCESS_WRITES = [
    'Environment.SetEnvironmentVariable("X", "1");',
    "Console.SetOut(writer);",
    'CultureInfo.CurrentCulture = new CultureInfo("fr");',
    "Thread.CurrentThread.CurrentCulture = c;",
    'AppContext.SetSwitch("X", true);',
    'Directory.SetCurrentDirectory("/tmp");',
    "_count++;",
    'Items.Add("x");',
    "Defaults.Timeout = 1;",
]


@pytest.mark.parametrize("body", INHERITED_OWN)
def test_a_base_class_property_is_the_tests_own_in_a_derived_class(body: str) -> None:
    head = _with(body).replace(
        "public class ConfigTests\n", "public class ConfigTests : LoggedTest\n"
    )
    assert compare(units(DERIVED), units(head)).ok, head
    # without a base class the same name is a type's: shared
    assert _drift(_with(body)) != "ok"


@pytest.mark.parametrize("body", PROCESS_WRITES)
def test_the_process_state_is_shared_in_a_derived_class_too(body: str) -> None:
    head = _with(body).replace(
        "public class ConfigTests\n", "public class ConfigTests : LoggedTest\n"
    )
    assert not compare(units(DERIVED), units(head)).ok, head


def test_an_edited_test_that_now_shares_state_is_a_change() -> None:
    head = BASE.replace("Assert.Equal(3,", "Console.SetOut(w);\n        Assert.Equal(3,")
    assert _drift(head) != "ok"
