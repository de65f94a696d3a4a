"""gate.drift.csharp through `compare`: a C# test file judged case by
case.  Each welcome shape (a new xUnit, NUnit or MSTest test method, a
helper of a new name, rows added to a theory, a comment or a reformat)
beside its hostile twins (the same edit written to bend an existing test:
a constructor, a setup attribute, an `IAsyncLifetime` method, a field, a
class attribute or base type, an overload, a row edited), generated over
the three frameworks, and the rule end to end on a real repository."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gate.drift import CASE, COLLECTION, SUPPORT, Unparsable, compare, reaching
from gate.drift.classes import HOOK_NAMES
from gate.drift.csharp import HOOKS, RUN_WIDE, TESTS, units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

# Each framework's spelling of a test, a data-driven test with its rows,
# and a setup method (the class body is the same otherwise).
FRAMEWORKS = {
    "xunit": {
        "using": "using Xunit;",
        "fixture": "",
        "test": "[Fact]",
        "theory": "[Theory]",
        "row": "InlineData",
        "setup": "[Fact]",  # xUnit's setup is the constructor; no attribute
    },
    "nunit": {
        "using": "using NUnit.Framework;",
        "fixture": "[TestFixture]\n",
        "test": "[Test]",
        "theory": "[Test]",
        "row": "TestCase",
        "setup": "[SetUp]",
    },
    "mstest": {
        "using": "using Microsoft.VisualStudio.TestTools.UnitTesting;",
        "fixture": "[TestClass]\n",
        "test": "[TestMethod]",
        "theory": "[DataTestMethod]",
        "row": "DataRow",
        "setup": "[TestInitialize]",
    },
}

TEMPLATE = """\
using System;
{using}

namespace Clamp.Tests;

{fixture}public class ClampTests
{{
    private const int Limit = 10;

    {test}
    public void ClampsHigh()
    {{
        // the upper edge
        Assert.Equal(Limit, Clamper.Clamp(11, Limit));
    }}

    {theory}
    [{row}(1)]
    [{row}(2)]
    public void KeepsInside(int value)
    {{
        Assert.Equal(value, Clamper.Clamp(value, Limit));
    }}

    private static int Twice(object value) => 2 * (int)value;

    {test}
    public void Doubles()
    {{
        Assert.Equal(4, Twice(2));
    }}
}}
"""

LAST = """        Assert.Equal(4, Twice(2));
    }
"""


def base(framework: str) -> str:
    return TEMPLATE.format(**FRAMEWORKS[framework])


def _append(text: str, member: str) -> str:
    return text.replace(LAST, LAST + "\n" + member, 1)


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _welcome(f: str) -> dict[str, str]:
    spell = FRAMEWORKS[f]
    text = base(f)
    found = {
        "a test appended": _append(
            text, f"    {spell['test']}\n    public void ClampsLow() {{ }}\n"
        ),
        "an async test inserted first": _edit(
            text,
            f"    {spell['test']}\n    public void ClampsHigh",
            f"    {spell['test']}\n    public async Task Waits() {{ await Task.Yield(); }}\n\n"
            f"    {spell['test']}\n    public void ClampsHigh",
        ),
        "a data-driven test appended": _append(
            text,
            f'    {spell["theory"]}\n    [{spell["row"]}("a")]\n'
            "    public void Reads(string s) { }\n",
        ),
        "a test with its attribute spelled in full": _append(
            text,
            f"    [{spell['test'][1:-1]}Attribute]\n    public void Full() {{ }}\n",
        ),
        "a new using": _edit(text, "using System;\n", "using System;\nusing System.Linq;\n"),
        "a comment edited in a test": _edit(text, "// the upper edge", "/* the top edge */"),
        "a test reformatted": _edit(
            text,
            "        Assert.Equal(Limit, Clamper.Clamp(11, Limit));",
            "        Assert.Equal(\n            Limit,\n            Clamper.Clamp(11, Limit));",
        ),
    }
    found.update(_open(text, spell["test"]))
    return found


def _open(text: str, test: str) -> dict[str, str]:
    """New members a class open to them takes: one without base types
    whose attributes, `[TestFixture]` or `[TestClass]` without arguments,
    only mark it as a test class."""
    return {
        "a helper of a new name": _append(text, "    private static int Thrice(int v) => 3 * v;\n"),
        "a plain field of a new name": _append(text, "    private int _spare;\n"),
        "a computed property of a new name": _append(text, "    private int Spare => Limit + 1;\n"),
        "a region around the tests": _edit(
            text,
            "    private const int Limit = 10;\n",
            "    private const int Limit = 10;\n    #region Tests\n",
        ).replace(LAST, LAST + "    #endregion\n"),
        "a new nested class of tests": _append(
            text, f"    public class Low\n    {{\n        {test} public void Zero() {{ }}\n    }}\n"
        ),
        "a new nested helper class overriding its own base's method": _append(
            text,
            "    private sealed class Fake : Clock\n    {\n"
            "        public override long Now() => 0;\n    }\n",
        ),
    }


def _grown(f: str) -> dict[str, str]:
    row = FRAMEWORKS[f]["row"]
    text = base(f)
    return {
        "a row appended": _edit(text, f"    [{row}(2)]\n", f"    [{row}(2)]\n    [{row}(3)]\n"),
        "a row inserted first": _edit(
            text, f"    [{row}(1)]\n", f"    [{row}(0)]\n    [{row}(1)]\n"
        ),
        "a row in a shared attribute list": _edit(
            text, f"    [{row}(2)]\n", f"    [{row}(2), {row}(3)]\n"
        ),
    }


def _bent(f: str) -> dict[str, tuple[str, str]]:
    spell = FRAMEWORKS[f]
    text = base(f)
    row = spell["row"]
    out = {
        "an assertion of an existing test edited": (
            _edit(text, "Clamper.Clamp(11, Limit)", "Clamper.Clamp(12, Limit)"),
            "ClampTests.ClampsHigh changed",
        ),
        "an existing test removed": (
            _edit(
                text,
                f"    {spell['test']}\n    public void ClampsHigh",
                "    public void ClampsHigh",
            ),
            "ClampTests.ClampsHigh",
        ),
        "a skip put on an existing test": (
            _edit(
                text,
                f"    {spell['test']}\n    public void ClampsHigh",
                f"    {spell['test']}\n    [Ignore]\n    public void ClampsHigh",
            ),
            "ClampTests.ClampsHigh changed",
        ),
        "a new constructor": (
            _append(text, "    public ClampTests() { Clamper.Reset(); }\n"),
            "new ClampTests constructor added to a class that exists at base",
        ),
        "a new static constructor": (
            _append(
                text, '    static ClampTests() { Environment.SetEnvironmentVariable("A", "1"); }\n'
            ),
            "new ClampTests static constructor added to a class",
        ),
        "a new InitializeAsync": (
            _append(text, "    public Task InitializeAsync() => Task.CompletedTask;\n"),
            "new ClampTests.InitializeAsync added to a class",
        ),
        "a new Dispose": (
            _append(text, "    public void Dispose() { }\n"),
            "new ClampTests.Dispose added to a class",
        ),
        "a new field whose initializer calls": (
            _append(text, "    private readonly Server _server = Server.Start();\n"),
            "new ClampTests._server added to a class",
        ),
        "a new field reading another type's member": (
            _append(text, "    private readonly int _other = Config.Limit;\n"),
            "new ClampTests._other added to a class",
        ),
        "a new property with an initializer that calls": (
            _append(text, "    public int Seed { get; } = Random.Shared.Next();\n"),
            "new ClampTests.Seed added to a class",
        ),
        "a new attributed field": (
            _append(text, "    [ThreadStatic]\n    private static int _seen;\n"),
            "new ClampTests._seen added to a class",
        ),
        "a new override": (
            _append(text, '    public override string ToString() => "";\n'),
            "new ClampTests.ToString added to a class",
        ),
        "a class attribute added": (
            _edit(text, "public class ClampTests", '[Collection("db")]\npublic class ClampTests'),
            "ClampTests changed",
        ),
        "a class fixture added": (
            _edit(text, "public class ClampTests", "public class ClampTests : IClassFixture<Db>"),
            "ClampTests changed",
        ),
        "IAsyncLifetime implemented": (
            _edit(text, "public class ClampTests", "public class ClampTests : IAsyncLifetime"),
            "ClampTests changed",
        ),
        "a helper overloading an existing helper": (
            _append(text, "    private static int Twice(int value) => 0;\n"),
            "new ClampTests.Twice #2 added to a class",
        ),
        "a test overloading an existing helper": (
            _append(text, f"    {spell['test']}\n    public static int Twice(int value) => 0;\n"),
            "new ClampTests.Twice #2 added to a class",
        ),
        "a new using static": (
            _edit(text, "using System;\n", "using System;\nusing static Clamp.Helpers;\n"),
            "new using static Clamp.Helpers runs at collection",
        ),
        "a new using alias rebinding a name the file reads": (
            _edit(text, "using System;\n", "using System;\nusing Clamper = Fake.Clamper;\n"),
            "binds Clamper, a name existing code uses",
        ),
        "a new #if block": (
            _append(text, "#if DEBUG\n    public void Hidden() { }\n#endif\n"),
            "added to a class",
        ),
        "a row edited": (_edit(text, f"[{row}(2)]", f"[{row}(3)]"), "KeepsInside changed"),
        "a row removed": (_edit(text, f"    [{row}(2)]\n", ""), "KeepsInside changed"),
        "a row added beside a body edit": (
            _edit(text, f"    [{row}(2)]\n", f"    [{row}(2)]\n    [{row}(3)]\n").replace(
                "Assert.Equal(value, ", "Assert.Equal(value + 0, "
            ),
            "KeepsInside changed",
        ),
        "the namespace changed": (
            _edit(text, "namespace Clamp.Tests;", "namespace Clamp.Other;"),
            "Clamp.Tests removed",
        ),
    }
    if spell["fixture"]:
        marker = spell["fixture"].strip()
        out["the fixture attribute given arguments"] = (
            _edit(text, marker, marker[:-1] + '(Category = "slow")]'),
            "ClampTests changed",
        )
    if spell["setup"] != "[Fact]":
        out["a new setup method"] = (
            _append(text, f"    {spell['setup']}\n    public void Prepare() {{ }}\n"),
            "new ClampTests.Prepare added to a class that exists at base",
        )
    return out


WELCOME = [(f, name) for f in FRAMEWORKS for name in _welcome(f)]
GROWN = [(f, name) for f in FRAMEWORKS for name in _grown(f)]
BENT = [(f, name) for f in FRAMEWORKS for name in _bent(f)]


@pytest.mark.parametrize(("framework", "name"), WELCOME)
def test_a_welcome_edit_passes(framework: str, name: str) -> None:
    drift = compare(units(base(framework)), units(_welcome(framework)[name]))
    assert drift.ok, drift.summary()
    assert not drift.grew


@pytest.mark.parametrize(("framework", "name"), GROWN)
def test_rows_added_to_a_data_driven_test_grow_it(framework: str, name: str) -> None:
    drift = compare(units(base(framework)), units(_grown(framework)[name]))
    assert drift.ok and drift.grew == ("ClampTests.KeepsInside",), drift.summary()


@pytest.mark.parametrize(("framework", "name"), BENT)
def test_the_hostile_twin_fails_naming_the_member(framework: str, name: str) -> None:
    head, why = _bent(framework)[name]
    drift = compare(units(base(framework)), units(head))
    assert not drift.ok, name
    assert why in drift.summary(), drift.summary()


@pytest.mark.parametrize("attribute", sorted(TESTS | {"SkippableFact", "StaTheory"}))
@pytest.mark.parametrize("spelling", ["[{}]", "[{}Attribute]", '[Xunit.{}, Trait("a", "b")]'])
def test_every_test_attribute_adds_a_test(attribute: str, spelling: str) -> None:
    text = base("xunit")
    mark = spelling.format(attribute)
    drift = compare(
        units(text), units(_append(text, f"    {mark}\n    public void Fresh() {{ }}\n"))
    )
    assert drift.ok and drift.added == ("ClampTests.Fresh",), drift.summary()


@pytest.mark.parametrize("attribute", sorted(HOOKS | RUN_WIDE))
@pytest.mark.parametrize("spelling", ["[{}]", "[NUnit.Framework.{}Attribute]", "[Fact, {}]"])
def test_every_setup_attribute_is_refused_in_an_existing_class(
    attribute: str, spelling: str
) -> None:
    text = base("xunit")
    head = _append(text, f"    {spelling.format(attribute)}\n    public void Fresh() {{ }}\n")
    drift = compare(units(text), units(head))
    assert drift.summary() == "new ClampTests.Fresh added to a class that exists at base"
    reached = [u.key for u in reaching("NewTests.cs", units(head))]
    assert reached == (["run-wide hook ClampTests.Fresh"] if attribute in RUN_WIDE else [])


def test_roles_and_keys() -> None:
    found = {u.key: u.role for u in units(base("xunit"))}
    assert found == {
        "using System": SUPPORT,
        "using Xunit": SUPPORT,
        "namespace Clamp.Tests": SUPPORT,
        "class ClampTests": SUPPORT,
        "field ClampTests.Limit": SUPPORT,
        "method ClampTests.ClampsHigh": CASE,
        "method ClampTests.KeepsInside": CASE,
        "method ClampTests.Twice": SUPPORT,
        "method ClampTests.Doubles": CASE,
    }


def test_block_namespace_hooks_and_directives() -> None:
    text = """\
#nullable enable
namespace Clamp.Tests
{
    using System.Linq;

    [SetUpFixture]
    public class Everything
    {
        [OneTimeSetUp] public void Boot() { }
    }

    [TestClass]
    public class Db
    {
        [AssemblyInitialize] public static void Start(TestContext c) { }
        [ClassInitialize] public static void Open(TestContext c) { }
        [SkippableFact] public void Maybe() { }
    }
}
"""
    found = {u.key: u.role for u in units(text)}
    assert found == {
        "directive #nullable enable": SUPPORT,
        "namespace Clamp.Tests": SUPPORT,
        "using System.Linq": SUPPORT,
        "class Everything": COLLECTION,
        "hook Everything.Boot": COLLECTION,
        "class Db": SUPPORT,
        "run-wide hook Db.Start": COLLECTION,
        "hook Db.Open": COLLECTION,
        "method Db.Maybe": CASE,
    }
    # a new file: the assembly-wide pieces reach other files' tests, the class's own hooks do not
    assert [u.key for u in reaching("tests/NewTests.cs", units(text))] == [
        "class Everything",
        "run-wide hook Db.Start",
    ]


def test_a_new_file_reaches_through_assembly_wide_code_only() -> None:
    text = base("xunit")
    assert reaching("tests/NewTests.cs", units(text)) == ()
    assembly = "[assembly: CollectionBehavior(DisableTestParallelization = true)]\n"
    shapes = {
        "an assembly attribute": (assembly + text, "assembly attribute CollectionBehavior"),
        "a global using": ("global using Fake;\n" + text, "global using Fake"),
        "a static constructor": (
            _append(text, "    static ClampTests() { }\n"),
            "static constructor ClampTests",
        ),
        "a collection definition": (
            text + '\n[CollectionDefinition("db")]\npublic class DbCollection { }\n',
            "class DbCollection",
        ),
    }
    for name, (head, key) in shapes.items():
        assert [u.key for u in reaching("tests/NewTests.cs", units(head))] == [key], name


def test_comments_between_declarations_are_no_units() -> None:
    text = base("xunit")
    head = "// Copyright (c) the authors.\n" + text.replace(
        "    private static int Twice",
        "    /// <summary>Twice.</summary>\n    private static int Twice",
    )
    assert {u.key for u in units(head)} == {u.key for u in units(text)}
    assert compare(units(text), units(head)).ok


def test_an_override_in_a_class_with_a_base_type_is_refused() -> None:
    text = _edit(base("xunit"), "public class ClampTests", "public class ClampTests : TestBase")
    head = _append(text, "    protected override void Configure() { }\n")
    assert compare(units(text), units(head)).summary() == (
        "new ClampTests.Configure added to a class that exists at base"
    )
    head = _append(text, "    protected new void Configure() { }\n")
    assert not compare(units(text), units(head)).ok
    # a test that overrides an inherited test replaces it for this class
    head = _append(text, "    [Fact]\n    public override void Inherited() { }\n")
    assert (
        "new ClampTests.Inherited added to a class" in compare(units(text), units(head)).summary()
    )


CONDITIONAL = """\
#if NET8_0_OR_GREATER
using Xunit;

public class GuardedTests
{
    [Fact]
    public void Old() { }
#if DEBUG
    [Fact]
    public void Debug() { }
#else
    [Fact]
    public void Release() { }
#endif
}
#endif
"""


def test_members_inside_an_if_are_units_of_their_branch() -> None:
    """A test added inside an existing `#if` branch is a new test; one
    moved into or out of a branch, or under a new `#if`, is another unit
    (the branch is part of its key), so the move fails."""
    keys = [u.key for u in units(CONDITIONAL)]
    assert "#if NET8_0_OR_GREATER: #if DEBUG: method GuardedTests.Debug" in keys
    assert "#if NET8_0_OR_GREATER: #if DEBUG #else: method GuardedTests.Release" in keys
    added = CONDITIONAL.replace(
        "    public void Old() { }\n",
        "    public void Old() { }\n    [Fact]\n    public void New() { }\n",
    )
    assert compare(units(CONDITIONAL), units(added)).added == ("GuardedTests.New",)
    moved = CONDITIONAL.replace("    [Fact]\n    public void Old() { }\n", "").replace(
        "#else\n", "#else\n    [Fact]\n    public void Old() { }\n"
    )
    assert "GuardedTests.Old removed" in compare(units(CONDITIONAL), units(moved)).summary()
    hidden = CONDITIONAL.replace(
        "    [Fact]\n    public void Old() { }\n",
        "#if NEVER\n    [Fact]\n    public void Old() { }\n#endif\n",
    )
    drift = compare(units(CONDITIONAL), units(hidden))
    assert "GuardedTests.Old removed" in drift.summary() and "new #if NEVER" in drift.summary()
    flipped = CONDITIONAL.replace("#if DEBUG", "#if !DEBUG")
    assert "GuardedTests.Debug removed" in compare(units(CONDITIONAL), units(flipped)).summary()


@pytest.mark.parametrize("name", ["Assert", "FactAttribute", "Fact", "TestContext", "InlineData"])
def test_a_type_named_like_the_frameworks_reaches_every_file(name: str) -> None:
    """A `static class Assert` of the test namespace wins over xUnit's in
    every file of that namespace: a new file declaring one reaches them."""
    text = (
        base("xunit")
        + f"\ninternal static class {name}\n"
        + "{ public static void Equal(object a, object b) { } }\n"
    )
    assert [u.key for u in reaching("tests/NewTests.cs", units(text))] == [f"class {name}"]
    assert f"new {name} " in compare(units(base("xunit")), units(text)).summary()
    nested = _append(base("xunit"), f"    private static class {name} {{ }}\n")
    assert reaching("tests/NewTests.cs", units(nested)) == ()


def test_an_extension_method_reaches_every_file_of_its_namespace() -> None:
    text = (
        base("xunit")
        + "\ninternal static class Ext\n{\n"
        + "    public static int Clamp(this int v, int l) => v;\n}\n"
    )
    assert [u.key for u in reaching("tests/NewTests.cs", units(text))] == ["extension Ext.Clamp"]
    assert (
        "new Ext.Clamp runs at collection" in compare(units(base("xunit")), units(text)).summary()
    )
    plain = text.replace("this int v", "int v")
    assert reaching("tests/NewTests.cs", units(plain)) == ()
    assert compare(units(base("xunit")), units(plain)).ok


def test_a_syntax_error_is_refused() -> None:
    with pytest.raises(Unparsable, match="line 3"):
        units("class A {\n  void F() {\n    int x = ;\n  }\n}\n")


def test_the_rule_judges_a_csharp_test_file_case_by_case(rubric_repo: RubricRepo) -> None:
    """End to end on a real repository: a new [Fact] and a new
    [InlineData] row pass; the hostile twin (a constructor) fails."""
    path = "dotnet/tests/Clamp.Tests/ClampTests.cs"
    rubric_repo.write_many({path: base("xunit")})
    first = rubric_repo.commit("base")
    head = _welcome("xunit")["a test appended"].replace(
        "    [InlineData(2)]\n", "    [InlineData(2)]\n    [InlineData(3)]\n"
    )
    rubric_repo.write(path, head)
    good = rubric_repo.commit("a test and a row")
    rubric_repo.write(path, _bent("xunit")["a new constructor"][0])
    bent = rubric_repo.commit("a constructor")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(first, commit, rubric=DRIFT_RUBRIC).verdict() for commit in (good, bent)
    )
    assert code == 0 and "new cases added to 1 existing test" in result["message"], result
    assert bent_code == 1, bent_result
    assert "ClampTests constructor added to a class that exists at base" in bent_result["message"]


# Class headers that close a class to a new non-private member (a base
# type's code may call it, or it may implement an interface member; a
# partial class's other parts see even its private members).
CLOSED = {
    "a base class": "public class ClampTests : TestBase",
    "an interface": "public class ClampTests : IAsyncLifetime",
    "a primary constructor and a base": "public class ClampTests(ITestOutputHelper o) : Base(o)",
    "a class attribute with arguments": '[Collection("db")]\npublic class ClampTests',
}
PRIVATE = {
    "a private static helper": "    private static int Thrice(int v) => 3 * v;\n",
    "a helper without an access modifier": "    int Helper() { return 1; }\n",
    "a private instance helper": "    private Task<int> LoadAsync(string p) => Load(p);\n",
    "a private constant": '    private const string Name = "x";\n',
    "a private field": "    private int _spare;\n",
    "a private computed property": "    private int Spare => Limit + 1;\n",
    "a private helper marked [SuppressMessage]": (
        '    [SuppressMessage("Style", "IDE0060")]\n    private static void Quiet(int x) { }\n'
    ),
}
NON_PRIVATE = {
    "a public helper": "    public void Prepare() { }\n",
    "an internal helper": "    internal int Thrice(int v) => 3 * v;\n",
    "a protected field": "    protected int _spare;\n",
    "a public property": "    public int Spare => 1;\n",
}
# New private members that change what existing tests run in any class:
# a hook's name, an attribute, an explicit interface member, `new`,
# `partial`, an initializer that runs code, a name existing code reads.
SHARED = {
    "a private SetUp": "    private void SetUp() { }\n",
    "a private InitializeAsync": "    private Task InitializeAsync() => Task.CompletedTask;\n",
    "a private Dispose": "    private void Dispose() { }\n",
    "an explicit interface member": "    void IDisposable.Dispose() { }\n",
    "an explicit interface property": "    int IFixture.Seed => 3;\n",
    "a private method hiding with new": "    private new void Configure() { }\n",
    "a partial method": "    partial void OnCreated() { }\n",
    "a private method with an attribute": "    [Obsolete]\n    private void Old() { }\n",
    "a private static field whose initializer calls": (
        "    private static readonly Server s_server = Server.Start();\n"
    ),
    "a private field named as a type a test reads": "    private static object Clamper;\n",
    "a private overload of an existing helper": "    private static int Twice(int value) => 0;\n",
}
HEADERS = ["none", *CLOSED]


def _headed(framework: str, header: str) -> str:
    text = base(framework)
    return text if header == "none" else _edit(text, "public class ClampTests", CLOSED[header])


@pytest.mark.parametrize("member", sorted(PRIVATE))
@pytest.mark.parametrize("header", HEADERS)
@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
def test_a_new_private_member_is_welcome_unless_the_class_derives_from_a_class(
    framework: str, header: str, member: str
) -> None:
    """A private member of a class that is not partial never overrides,
    implements nor hides what another class reads: named nowhere in the
    file, it changes no existing test; unless a base type is not named as
    an interface is (`I` and a capital): a base class's tests, in another
    file, may name it by a string (`[TestCaseSource("Rows")]`)."""
    text = _headed(framework, header)
    drift = compare(units(text), units(_append(text, PRIVATE[member])))
    derives = header in ("a base class", "a primary constructor and a base")
    assert drift.ok is not derives, drift.summary()


@pytest.mark.parametrize(
    ("bases", "interface"),
    [
        (": IDisposable", True),
        (": IClassFixture<AppFactory<Program>>, IAsyncLifetime", True),
        (": Xunit.IAsyncLifetime", True),
        (": TestBase", False),
        (": IDisposable, TestBase", False),
        (": Id", False),
        (": Ifoo", False),
        (": Base<IFoo>", False),
        (": IFoo<Base<T>>, Base", False),
    ],
)
def test_a_base_list_is_read_as_interfaces_only_by_their_names(bases: str, interface: bool) -> None:
    from gate.drift.csharp import _interface

    assert _interface(bases) is interface


@pytest.mark.parametrize("member", sorted(NON_PRIVATE))
@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
def test_a_new_helper_is_welcome_in_a_class_only_marked_as_a_test_class(
    framework: str, member: str
) -> None:
    text = base(framework)
    assert compare(units(text), units(_append(text, NON_PRIVATE[member]))).ok


@pytest.mark.parametrize("member", sorted(NON_PRIVATE))
@pytest.mark.parametrize("header", sorted(CLOSED))
@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
def test_a_non_private_member_of_a_class_with_a_base_type_fails(
    framework: str, header: str, member: str
) -> None:
    """The hostile twin: a public method of a class with a base type may
    implement an interface member; any other may hide one a subclass in
    another file reads."""
    text = _headed(framework, header)
    drift = compare(units(text), units(_append(text, NON_PRIVATE[member])))
    assert "added to a class that exists at base" in drift.summary(), member


@pytest.mark.parametrize("member", sorted(SHARED))
@pytest.mark.parametrize("header", HEADERS)
def test_a_private_member_a_framework_or_a_test_reaches_fails(header: str, member: str) -> None:
    for framework in FRAMEWORKS:
        text = _headed(framework, header)
        drift = compare(units(text), units(_append(text, SHARED[member])))
        assert "added to a class that exists at base" in drift.summary(), (framework, member)


@pytest.mark.parametrize("member", sorted(PRIVATE))
def test_a_private_member_of_a_partial_class_fails(member: str) -> None:
    """The class's other parts, in other files, may call it by name."""
    text = _edit(base("xunit"), "public class ClampTests", "public partial class ClampTests")
    drift = compare(units(text), units(_append(text, PRIVATE[member])))
    assert "added to a class that exists at base" in drift.summary(), member


def test_a_private_member_named_by_a_string_of_the_file_fails() -> None:
    """`[MemberData("Rows")]` names its source by a string: a new private
    `Rows` would take the place of the inherited one."""
    text = _edit(
        _headed("xunit", "a base class"),
        "    [Theory]\n",
        '    [Theory]\n    [MemberData("Rows")]\n',
    )
    head = _append(text, "    private static IEnumerable<object[]> Rows => [];\n")
    assert "new ClampTests.Rows added to a class" in compare(units(text), units(head)).summary()


def test_a_private_helper_passes_end_to_end_in_a_class_with_an_interface(
    rubric_repo: RubricRepo,
) -> None:
    """On a real repository: an NUnit fixture implementing an interface
    takes a new test with a private helper; its twin, the helper made
    public (it may implement the interface), fails."""
    path = "dotnet/tests/Clamp.Tests/ClampTests.cs"
    text = _headed("nunit", "an interface")
    rubric_repo.write_many({path: text})
    first = rubric_repo.commit("base")
    test = "    [Test]\n    public void Thrices() { Assert.Equal(3, Thrice(1)); }\n"
    helper = PRIVATE["a private static helper"]
    rubric_repo.write(path, _append(text, test + "\n" + helper))
    good = rubric_repo.commit("a test and its private helper")
    rubric_repo.write(path, _append(text, test + "\n" + helper.replace("private", "public")))
    bent = rubric_repo.commit("a test and a public helper")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(first, commit, rubric=DRIFT_RUBRIC).verdict() for commit in (good, bent)
    )
    assert code == 0, result
    assert bent_code == 1 and "ClampTests.Thrice added to a class" in bent_result["message"]


@pytest.mark.parametrize("hook", sorted(HOOK_NAMES))
@pytest.mark.parametrize("case", [str.lower, str.upper, lambda s: s[:1].upper() + s[1:]])
def test_a_private_method_named_as_a_hook_fails_in_any_letter_case(
    hook: str, case: Callable[[str], str]
) -> None:
    """Generated over every hook name and three letter cases, in a class
    with a base type: the base or a runner may call it by name."""
    text = _headed("xunit", "a base class")
    head = _append(text, f"    private void {case(hook)}() {{ }}\n")
    assert "added to a class that exists at base" in compare(units(text), units(head)).summary()


# A part of a class that other files may hold (`partial`), in a new file:
# each member but a test is the class's, and the other parts' tests run in it.
PARTIAL = "namespace Kit;\n\npublic partial class ClampTests\n{{\n{}\n}}\n"
PARTIAL_MEMBERS = {
    "a constructor": ("    public ClampTests() { Seed = 3; }", "constructor ClampTests"),
    "a field with an initializer": ("    private int seed = Make();", "field ClampTests.seed"),
    "a plain field": ("    private int seed;", "field ClampTests.seed"),
    "a helper (an overload existing calls may pick)": (
        "    private static int Twice(long x) => (int)x * 3;",
        "method ClampTests.Twice",
    ),
    "a hook": ("    [SetUp]\n    public void Reset() { }", "hook ClampTests.Reset"),
    "a property": ("    public int Limit => 3;", "property ClampTests.Limit"),
}


@pytest.mark.parametrize("name", sorted(PARTIAL_MEMBERS))
def test_a_new_files_part_of_a_partial_class_reaches_its_other_parts(name: str) -> None:
    member, key = PARTIAL_MEMBERS[name]
    found = [u.key for u in reaching("tests/More.cs", units(PARTIAL.format(member)))]
    assert found == ["partial class ClampTests", key], name
    # the same class without `partial` is a new class of the file's own
    plain = PARTIAL.format(member).replace("partial class", "class")
    assert [u.key for u in reaching("tests/More.cs", units(plain))] == [], name


def test_a_new_test_in_a_partial_part_is_a_test_and_its_header_reaches() -> None:
    text = PARTIAL.format("    [Fact]\n    public void Clamps() { Assert.Equal(1, 1); }")
    roles = {u.key: u.role for u in units(text)}
    assert roles["method ClampTests.Clamps"] == CASE
    assert [u.key for u in reaching("tests/More.cs", units(text))] == ["partial class ClampTests"]


def test_a_member_added_to_an_existing_files_partial_class_is_drift() -> None:
    text = base("xunit").replace("public class ClampTests", "public partial class ClampTests")
    assert "partial class" in text
    head = _append(text, "    private static int Thrice(int x) => x * 3;\n")
    drift = compare(units(text), units(head))
    assert not drift.ok
    # in a class that is not partial, such a private helper is welcome
    plain = base("xunit")
    assert compare(
        units(plain), units(_append(plain, "    private static int Thrice(int x) => x * 3;\n"))
    ).ok
