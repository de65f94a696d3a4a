"""test_drift on a C#, Java or Kotlin test file renamed with the class it
tests (`gate.drift.identities._retitle`, `gate.drift.moved.still_collected`):
the change renames a code file and the class it defines, and with them the
test file (`GetConfigCommandTests.cs` -> `ServerConfigGetCommandTests.cs`),
its class, its constructor and every use; no assertion or input changes
(Azure/azure-mcp 43b7cfea6db1).  Its hostile twins still fail: an
assertion changed beside the rename, a test class renamed with no code
rename to prove it, two old names renamed to one, a test deleted during
the rename, a new class name another file of the change spells or a
`partial` class, a word renamed in the tests only, a file moved to
another folder or to a name no default matches.  A test file renamed in
its folder with its text unchanged passes: the same class, compiled as
before."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gate.model.rubric import DEFAULT_TESTS
from tests.rulecase import Files, RuleCase, table

CASE = RuleCase(
    "test_drift", id="T", paths=[*DEFAULT_TESTS, "**/*Tests.cs", "**/*Test.java", "**/*Test.kt"]
)

# Unchanged lines that keep a renamed file similar enough for git to see a rename.
FILLER = "".join(f"    // unchanged line {n} of the file's body\n" for n in range(12))
# The same at a test file's head: a licence header.
HEADER = "".join(f"// unchanged header line {n}\n" for n in range(12))


# --- C# (xUnit) --------------------------------------------------------------


def cs_src(name: str, base: str = "BaseCommand") -> str:
    """The command class `name`, on the base class `base` (the file names
    `OtherCommand` either way: a word it does not rename)."""
    return (
        "namespace App.Commands;\n\n// not an OtherCommand\n"
        f"public sealed class {name}(ILogger<{name}> logger) : {base}<{name}Options>(logger)\n"
        "{\n"
        '    public string Name => "config";\n'
        f"{FILLER}"
        f"    internal record {name}Result(string Configuration);\n"
        "}\n"
    )


def cs_options(name: str) -> str:
    return f"namespace App.Options;\n\npublic class {name}Options : BaseOptions;\n{FILLER}"


def cs_test(
    name: str, title: str = "", expected: str = "config", helper: str = "Helper", more: str = ""
) -> str:
    title = title or f"{name}Tests"
    return (
        f"{HEADER}using Xunit;\n\nnamespace App.Tests;\n\n"
        f"public class {title}\n"
        "{\n"
        f"    private readonly ILogger<{name}> _logger;\n\n"
        f"    public {title}()\n"
        "    {\n"
        f"        _logger = Substitute.For<ILogger<{name}>>();\n"
        "    }\n\n"
        "    [Fact]\n"
        "    public void Runs()\n"
        "    {\n"
        f"        var command = new {name}(_logger);\n"
        f'        Assert.Equal("{expected}", command.Name);\n'
        f"        Assert.NotNull({helper}.Of(command));\n"
        "    }\n\n"
        "    [Theory]\n"
        '    [InlineData("--server")]\n'
        "    public void Fails(string missing)\n"
        "    {\n"
        f"        var command = new {name}(_logger);\n"
        "        Assert.NotNull(command.Parse(missing));\n"
        "    }\n"
        f"{more}"
        "}\n"
    )


CS_MORE = "\n    [Fact]\n    public void Other()\n    {\n        Assert.Equal(2, 1 + 1);\n    }\n"


def cs_paths(name: str) -> tuple[str, str, str]:
    return (
        f"src/App/Commands/{name}.cs",
        f"src/App/Options/{name}Options.cs",
        f"tests/App.Tests/{name}Tests.cs",
    )


def cs_change(
    old: str = "GetConfigCommand",
    new: str = "ServerConfigGetCommand",
    *,
    test: Callable[[str], str] | None = None,
    src_new: str | None = None,
    src_base: str = "BaseCommand",
    head_path: str | None = None,
    base: dict[str, str] | None = None,
    head: dict[str, str] | None = None,
) -> Files:
    """The code class `old` renamed `new` (its file and its options' file
    too) and the test file after it; `test` makes the head test of `new`,
    `src_new` is the name the code takes (`new` unless a twin says)."""
    src_new = src_new or new
    a, b, t = cs_paths(old)
    c, d, _ = cs_paths(src_new)
    return Files(
        base={a: cs_src(old), b: cs_options(old), t: cs_test(old, more=CS_MORE), **(base or {})},
        head={
            c: cs_src(src_new, src_base),
            d: cs_options(src_new),
            head_path or cs_paths(new)[2]: (test or (lambda n: cs_test(n, more=CS_MORE)))(new),
            **(head or {}),
        },
    )


# --- Java (JUnit 5) and Kotlin ----------------------------------------------


def java_src(name: str) -> str:
    run = "    public int run() { return 1; }\n"
    return f"package app;\n\npublic class {name} {{\n{FILLER}{run}}}\n"


def java_test(name: str, expected: str = "1", title: str = "") -> str:
    title = title or f"{name}Test"
    return (
        f"{HEADER}package app;\n\nimport org.junit.jupiter.api.Test;\n"
        "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        f"class {title} {{\n"
        f"    @Test\n    void runs() {{\n"
        f"        assertEquals({expected}, new {name}().run());\n    }}\n\n"
        "    @Test\n    void other() {\n        assertEquals(2, 1 + 1);\n    }\n"
        "}\n"
    )


def kt_src(name: str) -> str:
    return f"package app\n\nclass {name} {{\n{FILLER}    fun run(): Int = 1\n}}\n"


def kt_test(name: str, expected: str = "1", title: str = "") -> str:
    title = title or f"{name}Test"
    return (
        f"{HEADER}package app\n\nimport kotlin.test.Test\nimport kotlin.test.assertEquals\n\n"
        f"class {title} {{\n"
        f"    @Test\n    fun runs() {{\n"
        f"        assertEquals({expected}, {name}().run())\n    }}\n\n"
        "    @Test\n    fun other() {\n        assertEquals(2, 1 + 1)\n    }\n"
        "}\n"
    )


def jvm_change(lang: str, old: str, new: str, **edit: str) -> Files:
    """Java or Kotlin: the class `old` renamed `new`, its file and its
    test file too; `edit` bends the head test (`expected`, `title`)."""
    src, test, end, root = (
        (java_src, java_test, "java", "java")
        if lang == "java"
        else (kt_src, kt_test, "kt", "kotlin")
    )
    return Files(
        base={
            f"src/main/{root}/app/{old}.{end}": src(old),
            f"src/test/{root}/app/{old}Test.{end}": test(old),
        },
        head={
            f"src/main/{root}/app/{new}.{end}": src(new),
            f"src/test/{root}/app/{new}Test.{end}": test(new, **edit),
        },
    )


# --- what passes -------------------------------------------------------------

NAMES = [
    ("GetConfigCommand", "ServerConfigGetCommand"),
    ("SetParamCommand", "ServerParamSetCommand"),
    ("Parser", "Reader"),
]

FOLLOWS = [
    *[(f"C# {o} -> {n}", cs_change(o, n)) for o, n in NAMES],
    *[(f"Java {o} -> {n}", jvm_change("java", o, n)) for o, n in NAMES],
    *[(f"Kotlin {o} -> {n}", jvm_change("kotlin", o, n)) for o, n in NAMES],
    (
        "C# test file renamed in its folder, its text unchanged",
        Files(
            base={"tests/App.Tests/GetConfigCommandTests.cs": cs_test("X", more=CS_MORE)},
            head={"tests/App.Tests/OtherTests.cs": cs_test("X", more=CS_MORE)},
        ),
    ),
    (
        "C# test file kept in place, its uses renamed",
        cs_change(
            head_path=cs_paths("GetConfigCommand")[2],
            test=lambda n: cs_test(n, title="GetConfigCommandTests", more=CS_MORE),
        ),
    ),
]


@table(("change",), FOLLOWS)
def test_a_test_renamed_with_the_class_it_tests_passes(change: Files) -> None:
    CASE.passes(change, "no test that exists at base was changed")


# --- hostile twins -----------------------------------------------------------


def _two_to_one() -> Files:
    """`GetConfigCommand` and `FetchConfigCommand` both renamed `ConfigCommand`."""
    change = cs_change("GetConfigCommand", "ConfigCommand")
    fetch = cs_paths("FetchConfigCommand")[0]
    return Files(
        base={**change.base, fetch: cs_src("FetchConfigCommand")},
        head={**change.head, "src/App/Commands/Other/ConfigCommand.cs": cs_src("ConfigCommand")},
    )


TWINS = [
    (
        "C# an assertion changed beside the rename",
        cs_change(test=lambda n: cs_test(n, expected="other", more=CS_MORE)),
        "changed",
    ),
    (
        "C# test class renamed, no code rename proves it",
        cs_change(
            src_new="GetConfigCommand",
            test=lambda n: cs_test("GetConfigCommand", title=f"{n}Tests", more=CS_MORE),
        ),
        "renamed",
    ),
    ("C# two old names renamed to one", _two_to_one(), "renamed"),
    (
        "C# the class line also takes another base class",
        cs_change(src_base="OtherCommand"),
        "renamed",
    ),
    ("C# a test deleted during the rename", cs_change(test=lambda n: cs_test(n)), "removed"),
    (
        "C# the new class name is another file's class",
        cs_change(
            head={
                "tests/App.Tests/More/Other.cs": cs_test("X", title="ServerConfigGetCommandTests")
            }
        ),
        "renamed",
    ),
    (
        "C# a partial class renamed",
        cs_change(
            test=lambda n: cs_test(n, more=CS_MORE).replace("public class", "public partial class")
        ),
        "renamed",
    ),
    (
        "C# a word renamed in the tests only",
        cs_change(test=lambda n: cs_test(n, helper="OtherHelper", more=CS_MORE)),
        "renamed",
    ),
    (
        "C# the test file moved to another folder",
        cs_change(head_path="tests/App.Tests/Server/ServerConfigGetCommandTests.cs"),
        "renamed",
    ),
    (
        "C# renamed where no default name matches it",
        Files(
            base={"tests/App.Tests/GetConfigCommandTests.cs": cs_test("X", more=CS_MORE)},
            head={"tests/App.Tests/GetConfigCommandSpec.cs": cs_test("X", more=CS_MORE)},
        ),
        "renamed",
    ),
    ("Java an assertion changed", jvm_change("java", "Parser", "Reader", expected="2"), "changed"),
    (
        "Java test class renamed past the code's rename",
        jvm_change("java", "Parser", "Reader", title="ReaderSpecTest"),
        "renamed",
    ),
    (
        "Kotlin an assertion changed",
        jvm_change("kotlin", "Parser", "Reader", expected="2"),
        "changed",
    ),
]


@table(("change", "message"), TWINS)
def test_a_hostile_twin_of_a_retitled_test_fails(change: Files, message: str) -> None:
    CASE.fails(change, message)


def test_a_test_private_class_renamed_alone_fails() -> None:
    """Azure/azure-mcp 43b7cfea6db1's fourth file: its private `SetParamResult`
    became `ServerParamSetResult`, a name no code file of the change renamed."""
    private = (
        "\n    private class {0}\n    {{\n        public string Message {{ get; set; }}\n    }}\n"
    )
    change = cs_change(
        "SetParamCommand",
        "ServerParamSetCommand",
        test=lambda n: cs_test(n, more=CS_MORE + private.format("ServerParamSetResult")),
        base={
            cs_paths("SetParamCommand")[2]: cs_test(
                "SetParamCommand", more=CS_MORE + private.format("SetParamResult")
            )
        },
    )
    CASE.fails(change, "renamed")


@pytest.mark.parametrize("lang", ["java", "kotlin"])
def test_a_jvm_test_kept_whole_but_for_the_class_name_fails(lang: str) -> None:
    """The test class retitled while the code keeps its name: nothing proves it."""
    change = jvm_change(lang, "Parser", "Parser", title="ReaderTest")
    change = Files(
        base=change.base,
        head={p.replace("ParserTest", "ReaderTest"): t for p, t in change.head.items()},
    )
    CASE.fails(change, "renamed")


def test_the_api_mode_reads_a_renamed_code_file_at_both_paths() -> None:
    """The Action's API mode reads a renamed code file's old path at the
    base and its new path at the head (`TextWants.hinted`), as git does."""
    from gate.changes import api
    from gate.github.client_types import PullFile
    from gate.model.rubric import Rule
    from gate.rules import text_wants

    files = jvm_change("java", "Parser", "Reader")
    rule = Rule(id="T", kind="test_drift", params={"paths": ["**/*Test.java"]})
    asked: list[tuple[str, str]] = []

    def read_file(ref: str, path: str) -> bytes | None:
        asked.append((ref, path))
        text = (files.head if ref == "head" else files.base).get(path)
        return None if not isinstance(text, str) else text.encode()

    olds, news = sorted(files.base), sorted(files.head)
    listed = [PullFile(n, "renamed", 3, 3, 6, o, True) for o, n in zip(olds, news, strict=True)]
    changes = api.changes_from_api(
        api.listing(listed, len(listed)),
        base="base",
        head="head",
        content_files=text_wants([rule]),
        read_file=read_file,
    )
    was, now = "src/main/java/app/Parser.java", "src/main/java/app/Reader.java"
    assert changes.texts[was].base == files.base[was]
    assert changes.texts[now].head == files.head[now]
    assert ("head", was) not in asked and ("base", now) not in asked  # absent there
