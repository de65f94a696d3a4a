"""`test_drift`: test cases that exist at base stay exactly as they are,
and the test runner's configuration with them.

What counts as a test file: `paths`, by default the rubric's `tests`
globs, which default to `tests/`, `test/`, `**/test_*.py`,
`**/*_test.py`, `**/conftest.py`, `pytest.ini`, `tox.ini`,
`**/*_test.go`, `**/__tests__/`, `**/*.test.*`, `**/*.spec.*`, `spec/`
(the SPEC's list), then `**/test*.py` (unittest's discovery pattern, and
Django's `app/tests.py`), `.pytest.ini`, `**/__snapshots__/` (Jest),
`**/jest.config.*`, `**/vitest.config.*`, `**/testdata/` (Go),
`**/*_spec.rb` and `.rspec` (RSpec), `**/*_test.rb` and `**/test_*.rb`
(minitest), the expected values of snapshot tests anywhere (`**/*.snap`:
insta, Jest, Go tool snapshots such as `__toolsnaps__/`; `**/*.ambr`:
syrupy; `**/*.approved.*`: ApprovalTests; `**/*.golden`), and test helpers by name (`**/_test*.py`,
`**/testutil*.go`, `**/testhelper*.go`, `**/test_utils/`,
`**/testutils/`, `**/testutil/`, `**/test_helpers/`, `**/testhelpers/`;
not `testing/`, the name of shipped public modules such as
`numpy.testing`).  Beyond
`paths`, every Python file the base's own pytest configuration collects
is a test file: the `python_files` patterns (under `testpaths`, when
set) of the first of `pytest.toml`, `.pytest.toml`, `pytest.ini`,
`.pytest.ini`, `pyproject.toml`, `tox.ini`, `setup.cfg` at the root that
holds a pytest section, read at base (a change to it is runner drift,
below; one that cannot be read leaves the default names, as pytest
stops on it).  So is every JavaScript or TypeScript file the base's root
Jest or Vitest configuration collects (`vitest.config.ts`, `.mts`, `.js`,
`.mjs`, `jest.config.js`, `.ts` at the root, read at base): the literal
globs of Vitest's `test.include` (relative to the root) or Jest's
`testMatch` (`<rootDir>/...` or `**/...`), read as micromatch reads
`**`, `*`, `?`, `[...]` and `{a,b}`, outside `node_modules/` and the data folders; such a file is
judged case by case.  A list that is computed (a variable, a spread, a
template, a call other than `defineConfig`), a glob with an extglob or an
escape, or a configuration that also sets `exclude`, `root`, `projects`,
`roots`, `rootDir`, `testPathIgnorePatterns`, `testRegex` or `preset`
leaves the default names.  Out of reach: a configuration in a
subfolder, `testRegex`, a `package.json` `"jest"` key.

A path is a test path when it matches a glob as written, or in another
letter case or Unicode normalization (`gate.base.globs.FOLDED`): `Tests/x.py`
and `TEST_CLAMP.PY` are test paths, because a case-insensitive checkout
treats them as `tests/x.py` and `test_clamp.py`.  Counting more paths as
tests can only make the rule fail more often, never less.  A new test
whose path differs from an existing test's only in case
(`Tests/test_x.py` beside `tests/test_x.py`) is judged as a new test: in
git's tree and on the Linux runner both files exist and both run, and the
rule sees the change, not the base tree's other paths (a case-insensitive
checkout keeps one of the two; set `allow_added: false` where that
matters).

Fails when a test file that exists at base is deleted, renamed (either
side of the rename is a test path: moving a test away and moving a file
onto a test path both count; a test file moved between two places its
runner collects is judged as below), changes type or has its mode
changed.  With
`allow_added: false`, a new test file (added, or a copy's new path) also
fails; copying a test leaves its source as it was.  When the source only
knows a path but not what happened to it (a writer's `result.json`), a
test path fails and the message says its status is unknown: the gate
cannot tell a new test from an edited one.

**A modified test file is judged case by case.**  The rule reads its
text at base and head and splits both into units (`gate.drift`): each
test case (a test function, a test method, a test class's header, with
their decorators), each fixture, helper, import and module-level
statement.  Python files are read with `ast` (pytest's and unittest's
default names: `test*` functions and methods, `Test*` classes and
`TestCase` subclasses); JavaScript/TypeScript, Go, Java, C#, Rust and Kotlin files
with their own modules where those are installed (in JavaScript/TypeScript a top-level
call of the file's own test wrapper is a test case as `it(...)` is: a
`function` or a `const` arrow function or function expression at the top
level, bound once, with plain parameters, whose whole body is one `it`
or `test` call, without modifiers, passing its parameters through in
order and at most a number after them, called with as many arguments,
`gate.drift.js.wrappers`).  A Java file by Maven
Surefire's default names (`Test*.java`, `*Test.java`, `*Tests.java`,
`*TestCase.java`) and a C# file named `*Test.cs` or `*Tests.cs` are split
into their classes' members (`gate.drift.java`, `gate.drift.csharp`):
each test method (JUnit 4 and 5 `@Test`, `@ParameterizedTest`,
`@RepeatedTest`, `@TestFactory`, `@TestTemplate`, TestNG `@Test`, JUnit
3 `test*` methods; xUnit `[Fact]`/`[Theory]`, NUnit `[Test]`/`[TestCase]`,
MSTest `[TestMethod]`) is a case, and what runs around the existing tests
is collection-time code: setup and teardown methods (`@BeforeEach`,
`@Before`, `@BeforeAll`, `@BeforeClass`, `@AfterEach`, TestNG's
`@BeforeMethod`, NUnit `[SetUp]`/`[OneTimeSetUp]`/`[TearDown]`, MSTest
`[TestInitialize]`/`[ClassInitialize]`/`[AssemblyInitialize]`, xUnit's
`IAsyncLifetime` and `Dispose`), an override of `toString`, `equals`,
`hashCode`, constructors (xUnit's setup), initializer blocks, a field
with an annotation (`@Rule`, `@ClassRule`, `@RegisterExtension`) or an
initializer that calls, a static import on demand or `using static`; the
class header (its annotations or attributes, `@ExtendWith`,
`[Collection]`, and base types, `IClassFixture<T>`), the imports or
usings and the package or namespace are units compared as any other; a
C# `#if` branch is part of the keys of the declarations inside it.  A
test method overloading another member's name is judged as a helper of
that name.  A Rust file by Cargo's default names (`tests/*.rs`,
`tests/*/main.rs`, and module files named `mod.rs` under `tests/`;
another `.rs` file there may be a fixture a test compiles or reads, as
trybuild's `tests/ui/*.rs`, and is judged whole; unit tests inside
source files are not read) is split into its items at any depth of
inline modules (`gate.drift.rust`), each with its attributes and keyed
by its module path, compared by its tokens without comments (a comment,
a doc comment or a reformat changes no unit; a trailing comma does, as
`(x,)` is a tuple): a `fn` with an attribute that registers it with a
harness (`#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case]`,
...) is a case, judged against every name of the file (a new test
named as a helper that `use super::*` brings to existing tests is
refused), and a new one is welcome; a new helper `fn`, `struct`,
`enum`, `trait`, `type`, `const`, `static`, `macro_rules!`, `mod
name;` or inline module passes only where no base code spells its name
(a new item shadows what a glob import brought to the code of its
module).  Collection-time code, refused when new, is what changes what
existing code sees without being named: an `impl` block (a trait impl
or inherent methods change method resolution), but for one of a type
the same module declares (which binds that type's name); an item with
an attribute other than lint levels, `doc`, `cfg`, `inline`,
`must_use` and the standard library's `derive`s (`#[ctor]`,
`#[macro_use]`, `#[macro_export]`, `#[no_mangle]`, `#[path]`, a proc
macro's derive, `#[cfg_attr(..)]`, an rstest `#[fixture]`; on a test,
any attribute beyond the harness's, `#[ignore]`, `#[should_panic]`,
`#[case]`, `#[serial]`, `#[timeout]` and those); an inner attribute
`#![..]`; a macro call at item level (`lazy_static!`, a macro that
writes tests); an `extern` block; a `use` at the file's top level or in
a module that exists at base (it may bring a trait, whose methods then
take part in existing method calls; one in a new module is welcome).
In a new Rust file all of that but a `use` reaches the tests of other
files (a trait impl or a `#[ctor]` acts on the whole test binary).  A
Rust file tree-sitter cannot read without repair is judged as a whole
file, the message saying so ("judged as a whole file: the head version
the rust grammar finds a syntax error at line N").  A Kotlin file named
`*Test.kt`, `*Tests.kt` or `*TestCase.kt` (a `.kts` file is a script,
never read) is split as a Java file is (`gate.drift.kotlin`): a function
annotated `@Test` (kotlin.test, JUnit 4 and 5), `@ParameterizedTest`,
`@RepeatedTest`, `@TestFactory` or `@TestTemplate` is a case, keyed by
its class (`` fun ClampTest.`keeps a value` ``; a name in backquotes is
the name); collection-time code, refused when new in an existing file,
is a setup or teardown function (`@BeforeTest`, `@AfterTest`,
`@BeforeEach`, `@BeforeAll`, `@Before`, ..., in the class or its
companion object), an override of `toString`, `equals` or `hashCode`,
an `init` block, a secondary constructor, a property with an annotation
(`@get:Rule`), a delegate (`by lazy`) or an initializer that is not a
literal, a `@file:` annotation, an import on demand (`import a.*`, whose
names win over Kotlin's default imports such as `println`), an import,
function or property named as an operator (`plus`, `get`, `invoke`,
`getValue`, `component1`: code calls it without spelling it), and a
top-level function or property that is not `private` (every file of the
package sees it before an import on demand or a default import).  The
class header (annotations, primary constructor, supertypes) is one unit.
A new member of an existing class passes when it is a plain helper or
literal property of a name no base code spells, `private` or in a class
with no supertype and no annotation but `@Nested`, `@DisplayName`,
`@Tag`, `@ExtendWith`, and neither `override`, `open`, `abstract`,
`operator` nor `infix`; a companion object's members count as the
class's.  A Kotest spec (`class X : FunSpec({ test("a") { } })`) keeps
its tests in one lambda of the class header, and a spec written in an
`init` block in one collection-time unit: any change to it, a new
`test(...)` included, is a change of that unit, so such a file is in
effect judged whole.  In a new Kotlin file a `@file:` annotation and a
top-level declaration named like a framework's or an operator
(`assertEquals`, `runTest`, `Test`, `plus`) reach the tests of other
files.  In Java, Kotlin and C# (`gate.drift.classes.Sharing`), a
new test whose body writes state other tests of the run see is
collection-time code, still counted as a test: refused when new in an
existing class, and in a new file it reaches the tests of other files.
Such a write is a system property, a stream, a default or a culture
(`System.setProperty`, `System.setOut`, `Locale.setDefault`,
`TimeZone.setDefault`, `Security.addProvider`,
`Environment.SetEnvironmentVariable`, `Console.SetOut`,
`CultureInfo.CurrentCulture = ...`, `AppContext.SetSwitch`), an
assignment (`=`, `op=`, `++`, `--`) to a static field of the test class
or to a member of a type (a capitalized name no local, parameter or
field of the test spells: `Config.level = 3`; a Kotlin `object`'s or
companion's property, a top-level property of the file), a mutator
(`add`, `put`, `remove`, `clear`, `register`, `reset`, `set*`, ...) on
an object reached from one, through fields or calls that return held
state (`Registry.ITEMS.add(x)`, `Foo.getInstance().register(x)`,
`Thread.currentThread()...`) or from a local bound to one however
many locals away (`var l = Foo.LIST; l.add(1)`), and a static mock
(`Mockito.mockStatic`, `mockConstruction`, `mockkStatic`,
`mockkObject`).  The test's own: its locals and parameters, its
instance fields (JUnit, xUnit and MSTest make an instance per test;
NUnit's and TestNG's shared instance, and JUnit 5's `PER_CLASS`, are
read the same way), an object it makes (`new Foo()`, a C# object
initializer, what any call but an accessor returns: `Foo.builder()...`,
`Foo.of(...)`, `CodeNamespace.InitRootNamespace()`), a static helper
whose first argument is an object the test made
(`TestHelper.addProperties(model)`, `McpApps.SetAppUi(tool, meta)`) or
whose value the test reads (`out = Conventions.removeInvalid(input)`:
a function) but on the process's types, assertions and Mockito's `when`/`verify`/`reset`;
a write inside a `try`, or in the statement right before it, whose
`finally` writes the same place back from a
local holding its old value (`var old = System.getProperty("x")` ...
`finally { System.setProperty("x", old); }`: every assignment to that
local is the place's getter), a static mock that is a
try-with-resources or `using` resource, or closed (`close`,
`unmockkAll`, `unmockkStatic`) in a later `finally`, and a scoped
`mockkStatic(X::class) { ... }`.  A restore outside the `finally`, of
a new value or of another place, a `clearProperty` in the `finally`, or
a write after the `try`, is refused.  In a C# class that extends a
class, an unknown PascalCase name may be a property it inherits
(`Builder.Services.AddMcpServer()`), and is read as the test's own but
for the process's types; so a static of the project's own written there
(`Config.Level = 3`) is not seen, nor, anywhere, a static method given
an object the test made (`Registry.add(item)`) or whose value is read
(`var ok = Registry.add(x)`, `() -> Registry.reset()`), or a chain through a
call not named as an accessor (`Foo.instances().add(x)`).  A Ruby file
(`*_test.rb`, `test_*.rb`, `*_spec.rb`; not a suite's `*_helper.rb`) is
split into the statements of its modules, classes and `describe`/
`context` blocks at any depth (`gate.drift.ruby`), compared by their
syntax tree without comments: a `def test_*` in a test class, an `it`,
`specify` or `test "..." do` block is a case, and a new one in an
existing class or group is welcome (not one whose body writes what other
tests see: a global, a constant, `ENV`, an object reached from one of
those or from `self.class`, `define_method` and the like, a `require`, a
`def` or `class` inside it), as is a new test class or group
with its own hooks; a new hook (`setup`, `teardown`, `before`, `after`,
`around`, `let`, `let!`, `subject`, `def setup`), `include`/`extend`,
helper `def` or constant in an existing class or group, a skip or focus
(`xit`, `fit`, `pending`, `skip`, `omit`, `:focus` metadata), a `def`
or statement outside a test class (a monkey patch: `class String`,
`def Hash.x`), a call with a receiver (`RSpec.configure`), a `require`
but of the suite's helper, a test framework (`minitest/autorun`) or a
standard library (`json`), `define_method`, or a new magic comment is
refused; in a new Ruby file all of that but what
keeps to the file's own test classes and groups reaches the tests of
other files (a new file's class named as a
class of another file reopens it, which the gate does not see, as it
does not see a new test overriding one inherited from another file).
It fails when:

* a unit that exists at base is changed (any character of its lines:
  decorator, signature, body, indentation; in Python, anything that
  changes its syntax tree, in Go its tokens, in a JavaScript or
  TypeScript unit its syntax tree (a test, a helper, a hook, a
  declaration or any other statement; a describe's frame and an import
  are compared as spelled, and a unit that holds a pragma comment, which
  a tool reads and which may hang on its line, `// @ts-expect-error`,
  `/* istanbul ignore next */`, `/* c8 ignore next 3 */`,
  `eslint-disable`, `prettier-ignore`, `/*#__PURE__*/`, any `@word`, as
  written), so a comment, a blank line,
  a reformat by ruff, black or gofmt, or whitespace inside a Python
  docstring that holds no `>>>` doctest changes no test; nor, in Python
  (`gate.drift.python.same`), `@pytest.fixture()` written
  `@pytest.fixture` or `@pytest.mark.NAME()` written `@pytest.mark.NAME`
  (and back: pytest reads them as one) where the file binds the
  decorator's first name by importing pytest alone (`import pytest`,
  `from pytest import fixture, mark`), nor a typing sweep over a def's
  annotations (pyupgrade's or ruff's `UP` rules: `Optional[int]` written
  `int | None`, `List[str]` `list[str]`, `"Foo"` `Foo`, an annotation
  added or removed) on a def whose decorators are all such pytest ones,
  in a class (if any) with no other decorator, no metaclass, no
  `__init_subclass__` and bases of unittest's or the file's own such
  classes, in a module that spells no way to read annotations or
  signatures (`get_type_hints`, `__annotations__`, `inspect`,
  `signature`, typeguard, pydantic, hypothesis's `from_type`, `builds`
  or `infer`, FastAPI's `Depends`, typer, `singledispatch`, ..., even in
  a string; `from __future__ import annotations` aside) and reaches no
  global by a computed name, on a def the module never hands as a value
  (`register(helper)`, `[helper]`; a fixture's name aside): there each
  parameter's annotation that is a plain type expression (a name, an
  attribute chain, a constant or string, a
  subscript of those by those, a `|` of them) is left out, and so is a
  plain return annotation (`-> None` among them) of a def whose body
  returns no value and yields nothing (a fixture that returns or yields
  a value keeps its return annotation changed or removed, but one
  written where the base had none is no change: where a runtime type
  checker reads it, it can only make a test fail); an import of `typing` that only
  the swept annotations read may go.  An annotation that runs code (a
  call, `Annotated[int, Field(gt=0)]`, a lambda, ...), a default, a
  parameter's name, kind or order, and a parameter added or removed
  still change the test.  Nor an `else` after an `if`
  whose body ends in `return`, `raise`, `continue` or `break`, written
  as the statements after the `if` (`if c: return x` then `return y`,
  ruff's RET505 fix) anywhere in a def; another decorator's `()`, an
  argument, or the `else` of a loop or a `try` is a
  change (a docstring's
  words do, except in the module's own docstring, which no code of the
  file reads through `__doc__` or `getdoc`: its words edited, or the
  docstring removed or added, change no test); a Go directive, or the
  last comment group of an `Example`'s body that says `output:` (go/doc
  reads that group as the `// Output:` `go test` checks; an example's
  other comments are comments), does; a Go test file's build
  constraints in its header (the `//go:build` and `// +build` lines
  before the blank line above `package`) are compared by the builds they
  select, as Go 1.17 on and earlier versions read them, so gofmt's
  `//go:build` line written above the same `// +build` lines is no
  change, while one that selects other builds, or the `// +build` lines
  removed, is; in Go, `interface{}` and `any` are
  one token where the file declares no `any` of its own (a type `any`
  declared in another file of the package is not seen), and a blank
  `_` added to the left side of an `=` or `:=` whose right side is
  unchanged (`x, err :=` -> `x, _, err :=`: a result the called function
  gained, discarded) is no change, but a name replaced by `_`, a `_`
  moved, a `_` beside any other change of the test, or a type assertion
  made comma-ok (`v := x.(T)` -> `v, _ := x.(T)` no longer panics) is;
  in TypeScript a type-only
  declaration, an `interface`, a `type` alias or a `declare`, is erased
  when the file is compiled and its change changes no test, except in a
  file that tests types: one that calls `expectTypeOf`, `assertType` or
  tsd's `expectType`/`expectError`/`expectAssignable`, imports `tsd`, or
  holds a `@ts-expect-error`; an `enum`, a `const enum`, a class or a
  namespace runs, and is compared) or removed, unless a Go test only
  gained cases (`gate.drift.go.cases`): rows of a table it ranges over
  in a loop that cannot stop, skip or carry state across rows; `t.Run`
  subtests; testify or `t.Error*`/`t.Fatal*` assertions calling only
  pure functions; each touching nothing the test reads (no store, `&`,
  method or other call on its variables, but that a row may hand the
  test's `t` or a variable to a callee the base version of the test
  calls too, as the helper its existing rows are built by,
  `mockResponse(t, ...)`; `t.Skip()`, `t.Parallel()`,
  `return`, a declaration inserted are changes), or statements of any
  kind appended after the last statement of its body, at its own top
  level (`gate.drift.go.appended`; an appended `go`, `goto`, `Parallel`,
  `t.Skip`, `os.Exit`, a base statement changed, moved or removed, code
  added inside a base block, a test whose code stores into what other
  tests read, or an append after a base statement that registers code
  run after the body, a `defer` of a call with arguments or of a closure,
  `t.Cleanup`, a parallel subtest, gomock's `NewController`, are
  changes), or a Python test only
  gained cases (`gate.drift.python.cases`): rows of its
  `@pytest.mark.parametrize` list or tuple literal (with their ids at
  the same index where `ids=` is a literal; a row may carry its own
  marks, a mark added to an existing row, a row without its id or a
  row added to a module-level list the decorator names are changes), or
  `assert` statements inserted among the last statements of its body
  that read only names the test reads and call only pure builtins
  (`len`, `isinstance`, `sorted`, ...; no method call, `:=`, keyword
  argument), or statements of any kind appended after the last statement
  of its body, at its own top level (a function, a unittest method, a
  pytest class's method, a coroutine: `gate.drift.python.appended`; an
  appended `yield`, `global`, skip, xfail or exit, a base statement
  changed, moved or removed, code added inside a base block, a changed
  decorator or signature, a test whose code shares state, or an append
  after a base statement that registers code run after the body,
  `addCleanup`, `addfinalizer`, an `ExitStack`'s `callback`, are changes),
  or a JavaScript/TypeScript test or describe over a table only gained
  rows (`gate.drift.js.rows`): whole elements inserted anywhere into the
  one array literal given to `it.each`, `test.each`, `describe.each` or
  Vitest's `it.for` (a row edited, removed, reordered, split or merged, a
  row that may run code, a template-string table or a table named by a
  variable, a title, modifier or body changed are changes),
  or a Java or C# test only gained rows: elements of its `@ValueSource`
  or `@CsvSource` array, `[InlineData]`, `[TestCase]` or `[DataRow]`
  attributes, the rest of the method unchanged (a row edited or removed
  is a change; in Java, C#, Rust and Kotlin a comment or a reformat changes no unit),
  or a Python import no
  unit of either side reads is removed and its removal runs nothing less
  (a standard-library module, or a capitalized name, a class or
  constant, from a module another import of the head still loads; not
  `import tests.plugin` nor `from tests import plugin`, which may be
  there for what importing them does, and not `pytest_plugins`), or a
  package-level Go `const`, `var` or helper `func` of a Go test file
  modified in place is removed that no code of its package read
  (`gate.drift.go.unread`: what golangci-lint's `unused` deletes,
  `var parseID = stripe.ParseID`, `const ( expectedSize int64 = 734 )`):
  no Go file of its folder (every one at base, `package x` and
  `package x_test`, test or not, whatever its build constraints, and
  each the change writes at head) spells its name as a token but its own
  removed declaration (an identifier, a selector's field, a composite
  literal's key, a label, any word of a directive comment such as
  `//go:linkname`; not a string or another comment), a `var`'s
  initializer runs nothing (literals, names, an imported package's
  selector, parentheses, composite literals, unary and binary operators
  that cannot panic; a call, a conversion, an index, a dereference, a
  division, a shift, a comparison, a function literal or a receive keeps
  it a removal), its names are not `_`, and the folder holds no file of
  another language the Go tool builds (`.s`, `.c`, `.syso`, ...) and no
  cgo; a removed `init`, `TestMain`, `Test*`, `Benchmark*`, `Fuzz*`,
  `Example*`, method or type, a name put back in another file (a move),
  or a folder whose listing or any of whose Go files' texts is unknown
  (past the Action's API mode cap of 50 files) is still a removal; moving
  an unchanged unit elsewhere in the file is not a change, unless it is
  one of several that bind the same name (`from m import clamp` and a
  later `def clamp`: the last one wins), whose order must stay; nor is a
  JavaScript or TypeScript test renamed: a base test gone at head and a
  new test in the same describes whose syntax tree but its title is the
  same, no other test gone or new there sharing that tree (any other
  change of its code, a new title another test has, a `.skip` or
  `.only`, a `@tag` a `--grep` selects added or removed are changes; so
  is renaming a test that takes a snapshot or reads a title or a name,
  `currentTestName`, `t.name`, whose key or run the title is; a name
  filter in the runner's configuration, `-t`, `--test-name-pattern`, is
  not read);
* a new unit runs at collection or changes what other tests see: a
  module-level call of anything but a well-known pure callable (a value
  computed by a call, a call in a default argument or a class body
  included; making a builtin exception, or a class of the file with no
  decorator, metaclass or method whose bases are such classes, is pure),
  `pytestmark`, an assignment into another module or through an
  attribute or item (`mod.attr = x`, `sys.path.insert(...)`,
  `os.environ[...] = x`), `if`/`try`/`with`/loops at module level (not
  an `if TYPE_CHECKING:` holding only imports, with no `else`, nor `if
  __name__ == "__main__":` with no `else`, in a file that never binds
  `__name__`: neither runs under the runner, and the latter is still a
  unit compared as any other; a `try:` of imports alone whose handlers
  catch only `ImportError`/`ModuleNotFoundError` and `pass` or call
  `pytest.skip(..., allow_module_level=True)` is one unit for its
  handlers and one per import, so an import added inside is judged as a
  new import, one moved in or out is removed and new, and under a skip a
  new import, which could skip the module, is collection-time code; in
  JavaScript and TypeScript not a loop over a literal table that defines
  tests, `for (const n of [1, 2]) { test(...) }` or `ROWS.forEach(...)`
  with `ROWS` a literal the file declares once, which is opened as a
  describe is: its tests are cases, a changed table a changed unit), a
  star or `__future__` import, an autouse fixture, a `pytest_*` hook,
  `setup_module`, a decorator that is not a fixture's, a mark's or a
  plain standard wrapper (imported from pytest, unittest, functools,
  hypothesis and the like: a `given` imported from elsewhere may run
  anything) or one whose arguments call anything but well-known pure
  callables (`Path(...)`, `pytest.param`, hypothesis strategies,
  `MagicMock()`; a name bound once to a pytest mark, `requires_bash =
  pytest.mark.skipif(...)`, is a mark). A new test or fixture whose
  marks' arguments and defaults call only callables the file imports
  (`click.Option(...)`, `TextPart(...)`) that a base test's or fixture's
  marks or defaults already call is judged as if they did not (a
  parametrize list building the project's objects as the existing ones
  do); a write (`REG.append`), `os`, `sys`, `mock`, `pytest`, a method
  of what such a call returned, a callable the file defines, or a call
  the base makes only at module level keeps it collection-time code; so
  for a new module-level value whose calls are all of callables the file
  imports that base module-level values already call (`B =
  load_fixture("b.json")` beside `A = load_fixture("a.json")`), under
  the same limits, and for a new JavaScript or TypeScript test whose own
  arguments call only what the file imports and a base test's arguments
  already call (AVA's `test('x', withServer(), ...)`; not Node's own
  modules, a runner's, a mocking library's, a writing method such as
  `REG.push`, nor a method of a call's result); in either language such
  a call may hand its callee a function of the file's own only where a
  base test hands it the same one. A module-level value or class
  attribute computed by such pure calls (`ROOT = Path(__file__).parent`,
  `field(default_factory=list)`) runs nothing; one computed by any other
  call does; and any unit, a new test included, whose code declares
  `global`, assigns into a name that is not its own (its parameters, a
  method's `self` and its locals are its own; so are `setattr(local,
  "a", v)`, a store through `typing.cast(T, local)` and `type(m).a =
  PropertyMock(...)` with `m = Mock(...)` a fresh mock, which has a
  class of its own), calls `setattr` on anything else, `exec` or
  `eval` (but into a dict the function makes and keeps: `ns = {}` or
  `exec(code, {})`, every binding of the name in that function a new dict,
  the dict only read, filled or handed to that call; its code judged as
  any other code where it is a string constant, also through `compile` or
  `textwrap.dedent`, not seen where it comes from elsewhere, a file or a
  parameter, as a call's code is not, and refused where built from strings
  in view, an f-string, `+` or `.format`), `vars` (but only
  read where the call stands: `vars(mod).items()`, `.keys()`, `.values()`,
  `.get(...)`, `vars(mod)["X"]`, an `in` test; not copied nor handed on),
  `globals` or `os.chdir`, changes `sys.modules`, `sys.path`, `os.environ` or touches
  `builtins` (reading them, or `patch.dict(os.environ, ...)` in a
  `with`, is fine), starts a mock patcher without a `with` (pytest's
  `monkeypatch` is undone after each test and is fine), or calls a
  helper of the file that does (a store the code puts back itself is
  none: `original = mod.attr` (JavaScript/TypeScript: `const original =
  process.cwd`) as a statement before the store, the store `mod.attr =
  x` alone as a statement of a `try` block or the statement right
  before the `try`, and `mod.attr = original` among the plain restores
  that open its `finally`, with no other store of `mod.attr` in the code,
  no second binding of `original`, no `yield`, and in JavaScript/TypeScript
  no `concurrent` anywhere in the file: no other test ever sees the
  patched value; another value put back, a restore outside the `finally`
  or in another test, a store after the `finally` or in a nested function,
  or the original read after the store keeps it shared; the store may be
  a call out of sight, `mod.configure(...)` after `original = mod.attr`,
  when the restore is the code's one store of `mod.attr`) (a JavaScript
  or TypeScript test that stores into a chain of a `const` or `let` of
  the file that nothing reassigns (`state.session = x`) shares nothing
  when a `beforeEach` of a describe around it, one holding every test of
  the file, or of the file itself, stores that very chain as a statement
  of its own body with a value that does not read the object: every test
  starts from the hook's value; an `afterEach`, a deeper store
  (`state.session.id = 1`), an imported or global object keep it shared)
  (a JavaScript or TypeScript test that
  fills a `let` declared directly in its describe's body, which a
  `beforeEach` of that describe assigns, or an `afterEach` resets, as a
  statement of the hook's own body, shares nothing: no test sees its
  value; a `beforeAll`, an assignment under an `if`, a module-level
  `let` do not renew it) (but a new test reaching such helpers
  only through the file's helpers a base test or helper already calls,
  each unchanged, adds no effect the base did not have). Where the line
  is drawn: a method call that mutates a shared object
  (`CONFIG.update(...)`) is not seen, since any call may mutate and
  counting every call would count every test;
* a new unit binds a name that a base unit binds (a second `def test_a`
  replaces the first in the module, and the old test never runs) (but a
  new `import a.c` beside a base `import a` or `import a.b`, which binds
  `a` to the same module) or that any base unit may read from the module
  (a new fixture `tmp_path`, an import or a helper `clamp` would change
  what existing tests get): a name its code reads through the module's
  namespace (a builtin such as `len` included; not a name a test binds
  itself, as a `import json` inside its body, nor a class body's own
  attribute, as a pydantic field `time: str`, nor an attribute name
  `result.time`), a parameter (a fixture it
  requests), a string that reads as names or a type expression
  (`usefixtures("db")`, `"Foo | None"`), an annotation; prose in strings
  and docstrings names nothing, unless the file reaches its globals by
  computed names (`globals()`, `sys.modules`, `eval`); a new plain
  `import x` or `import a as b` binds a module, which no fixture request
  or bare annotation names, so a bare word of data (`mode="json"`,
  `{"type": "json"}`) no call is handed does not count against it (a
  dotted path, `patch("tests.mod.json")`, or `getattr(mod, "json")`
  does); in JavaScript and
  TypeScript, the identifiers of a module's code (a file with
  `import`/`export`, a `require('x')`, an `.mjs .cjs .mts .cts` suffix),
  and every word of any other file's, or of one that calls `eval` or
  names the global object; a name bound in a describe's body is bound
  there alone, and seen by the units of that describe and of the ones
  inside it (a new describe's own `function apply` beside a sibling
  describe's `apply` replaces nothing);
* a new member is added to a class that exists at base and is not a test
  method (a setUp, a helper or an attribute there runs around, or
  overrides what, the existing methods use), or is a test method that
  overrides one the class inherits from a class of the file; a Java or
  C# helper method, plain field or property, or nested type of a new
  name that the file's code names nowhere (not in a string either: an
  overload of an existing name can capture an existing call and fails)
  is welcome when it is `private` (C#: no access modifier but `private`,
  in a class that is not `partial`) in a class that extends no other
  class (Java: no `extends`; C#: every base type named as an interface
  is, `I` and a capital: `IDisposable`, `IClassFixture<T>`), since a test
  inherited from a base class in another file may name even a private
  member by a string (`@MethodSource("rows")`, `@EnabledIf("ready")`,
  NUnit's `[TestCaseSource("Rows")]`), or else in a class
  without base types whose class annotations or attributes only mark it
  as a test class (`@ExtendWith`, `@DisplayName`, `@Tag`; `[TestFixture]`
  or `[TestClass]` without arguments): a public method of a class with
  a base type may implement an interface's member or, in Java, override
  an inherited one without `@Override`, and a non-private one may hide
  what a subclass in another file calls; it fails with any annotation
  or attribute but `@SuppressWarnings`, `@SafeVarargs`,
  `[SuppressMessage]` or `[ExcludeFromCodeCoverage]`, with `override`,
  `new`, `virtual` or `partial`, as an explicit interface member
  (`void IDisposable.Dispose()`), or named as a hook in any letter case
  (`setUp`, `tearDown`, `close`, `runTest`, `Dispose`,
  `InitializeAsync`); a setup
  method, a field that runs code, a
  constructor or an initializer fails in any existing class, and also in
  a new class added to an existing file;
* a new test is added while `allow_added` is false.

New test cases appended to an existing file, new helpers and fixtures
under new names, and new test classes with their own setUp are welcome.
So is a new JavaScript/TypeScript `describe` (`suite`, `context`,
`describe.each`) in an existing file whose hooks (`beforeEach`,
`afterEach`, `beforeAll`, `afterAll`, Mocha's `before`, `after`),
declarations and tests store only into names declared inside the new
block (its own `let server`, filled in its `beforeEach`) and write
nothing outside the file: Jest, Vitest and Mocha run a describe's hooks
around that describe's tests alone. The runner's timers may be faked
there only in a before-hook whose block has the matching after-hook
turning them back (`vi.useFakeTimers()` in `beforeEach`,
`vi.useRealTimers()` in `afterEach`), and a spy made there only into a
name the matching after-hook restores (`spy = vi.spyOn(mod, 'f')`,
`spy.mockRestore()`). A hook storing into a name of an enclosing scope,
the module or a global, `process.env`, an imported module, a helper of
the file that stores outside itself, any other call of `vi`/`jest`
(`vi.mock` is hoisted to the top of the file; `vi.stubGlobal`,
`vi.resetModules`), a hook outside every describe, and a block that is
focused (`.only`), concurrent (`describe.concurrent`) or holds a test or
block whose full title repeats another's (snapshot keys are test titles)
stay drift. A test or describe awaited, `await test('x', async () =>
{...})` (node:test's way of running a file's tests one after another), is
the test or describe it awaits, under the same key. The message names
each case (`tests/test_clamp.py: test_high_edge changed; 2 new tests
added`), so a writer knows what to undo.

**An import that names the same code at its new place is no change**
(`gate/drift/moved.py`), when the change set alone proves it; every other
edit of the file is judged as ever.  An import unit whose head twin
differs only in its specifier, binding the same names, reads the same
code when both specifiers resolve, each at its own side, to exactly one
file (every candidate known present or absent from the change's files
and the listed base tree; a symlink, an unlisted folder or a name that
folds alike proves nothing), and both name one path, or the change renamed
the base's file to the head's unchanged (no line added or removed, the
same mode, no symlink or submodule, not only the letter case) and the
old specifier names nothing at head (a module left or added there, or a
copy, keeps it meaning something).  Read as: JavaScript/TypeScript
relative specifiers (`./x`, `../src/x.js` naming `x.ts`, `index` files;
a package specifier such as `@scope/core/sub` names nothing the change
shows), Python relative imports and absolute ones through a renamed
module under one root (each package `__init__.py` on the way the same
file, renamed unchanged, empty or absent on both sides; `from P import
n` reads a submodule `n` too), and a Go import path whose folder moved
whole (every Go file renamed unchanged into a folder without Go files,
none left, added or changed in either).  So `from pkg.old.x import f`
becoming `from pkg.new.x import f` passes when `pkg/old/x.py` was
renamed to `pkg/new/x.py` unchanged, and fails when it changed by a byte,
when `pkg/b.py` exports the same names, or when a case changed too.

**An edit that only follows a rename the rest of the change made is no
change** (`gate/drift/identities.py`), when the change set alone proves
the rename: a code file the change modifies or renames (both texts
read, a renamed one's base at its old path and head at its new, the
same suffix, no test module, symlink or submodule) whose base defines `old` (a `def`,
`class`, Go `func` with or without a receiver, `function`, a method
after `public`/`private`/..., or a top-level `type`/`const`/`let`/`var`)
and whose head never spells it, and whose head defines `new`, which its
base never spells (the file's only such pair, or the definition line
equal with `new` put in, or equal token for token where every other
token that differs is a word the file's head never spells become one
its base never spells, one for one: `class GetConfigCommand(ILogger<GetConfigCommand>
l) : Base<GetConfigOptions>` and `class ServerConfigGetCommand(...)`
with `ServerConfigGetOptions`; no other file's pair contradicting it, `old`
defined nowhere at head, `new` nowhere at base); a `go.mod` the change
modifies whose `module A` becomes `module B`, or that requires `P` at
base and only `P/vN` (a higher major version) at head, no `replace`
naming either (or the base's one `replace P => T` becoming the head's
`replace P/vN => T`, the same target, no version on either side: a
tools module building against the repository's own next major version),
for the Go files below it with no other `go.mod` between.
The test's base text with every such name (whole words) and import path
(`"A/..."`) put in must give the head's unit (or, where nothing else
changed, the head's whole file; so a Go helper that only follows a
module path passes); no rename applies to a test whose base already
spells the new name, whose head still spells an old one, or that star-
or dot-imports, nor to a test case's own name.  So `from pkg.m import
check` becoming `from pkg.m import verify`, with its calls and
`mock.patch("pkg.m.check")`, passes where `pkg/m.py` renamed `def check`
to `def verify`; a switch to a function that existed at base, a rename
with an assertion changed beside it, or a `go.mod` that requires both
`P` and `P/v2` still fail.  A name the change keeps as a forwarder
proves the same though it is still defined: in a code file the change
modifies, at head, a definition of `old` whose whole body (comments
aside) is one call of `new` passing its parameters through unchanged
and in order, returning its result where it has one (Go `func (r *T)
Old(a int) R { return r.New(a) }`, `new` defined on the same receiver
type, or a plain function; Python `def old(self, a): return
self.new(a)` after an optional docstring, no decorator or default, or
a module-level `old = new`), `old` defined once in the change's code
and `new` defined at head in it: calling either at head is the same
(charmbracelet/bubbles c7f889e364e1 kept `LineDown` calling
`ScrollDown`).  A wrapper with any other statement (a `warnings.warn`),
a changed, dropped, reordered or constant argument, another receiver,
two wrappers of one new name, or a test that keeps a call of `old`
still fail.  The code files' texts are read where the
source can (the Action's API mode reads at most 50): a text unread
proves nothing.

A renamed test file whose runner collects it at both paths (the root
pytest, Jest or Vitest configuration's `python_files`/`include`/
`testMatch` where set, with `testpaths` keeping it in its top folder,
else one default name matching both, `**/*.test.*`), with no runner
configuration file in a folder above either path but the root's and the
same nearest `package.json` or `tsconfig*.json`, is compared case by case
as a modified file (its base at the old path, its head at the new), its
imports followed as above.  An import it keeps word for word must name the same file from the
new place (a relative one; in Python an absolute one whose top name
stands beside neither path), and a kept unit that reads its place
(`__dirname`, `__file__`, `__name__`, `import.meta`, `'./data.json'`, a
snapshot, `testdata`) fails, as does a Go test moved to another folder
(another package).  A test moved where its runner does not collect it
(`tests/check_x.py`, into `testdata/`, under a nested configuration the
gate does not read) fails as renamed.

**A C#, Java or Kotlin test file renamed with the class it tests is
that class's test still** (Azure/azure-mcp 43b7cfea6db1 renamed
`GetConfigCommand.cs` to `ServerConfigGetCommand.cs` and
`GetConfigCommandTests.cs` to `ServerConfigGetCommandTests.cs`).  A test
file renamed within its folder, one default name matching both paths
(`**/*Tests.cs`, `**/*Test.java`, `**/*Test.kt`: its project compiles it
there as before, and its runner finds tests by attribute or
annotation), is compared case by case as a modified file, the change's
renames put in as above.  Its own name follows a rename too, when the
two file names differ by exactly one proven rename (`pre` + `Old` +
`post` and `pre` + `New` + `post`, the same suffix and folder): the
class of that name, its constructor and every use, and the cases'
keys (`method GetConfigCommandTests.Runs` is
`method ServerConfigGetCommandTests.Runs`, the case's own name kept).
Every unit must then be the head's token for token.  Not followed: a
class renamed past the file's name, a file moved to another folder
(a runner's include list the gate does not read may miss it), a test
class renamed with no code rename proving it, two old names renamed to
one, a name the test's base already spells, a `partial` class (its
other parts elsewhere keep the name), a name another text of the change
spells (another class of that name, or code that names the test class),
or a word renamed in the tests only: a test-private helper class
renamed beside the rename (azure-mcp's `SetParamResult` ->
`ServerParamSetResult`) still fails.  A .NET project file, a surefire
`<includes>` or a Gradle `filter` that names files is not read: renamed
in place, the file keeps the default name those would also have to
name.

**A new test file is judged for collection-time code too.**  A new test
file with a parser (`.py`, JavaScript/TypeScript, `.go`, `.java`, `.cs`; a copy's new path
included; a test module by its runner's names, or a helper module at a
test path, whose module code runs when a test imports it, outside
`testdata/` and `__snapshots__/`) is split into units as a modified one
is, against an empty base: its test cases, helpers and fixtures are
welcome while `allow_added` is true, and any unit that changes what the
tests of other files see (`gate.drift.reaching`: a module-level
`clamp_kit.clamp = fixed` or `sys.modules[...] = ...`, a call made for
its effect outside any function, a `pytest_*` hook, `pytest_plugins`, a
new test whose body shares state; in JavaScript/TypeScript and Go every
collection-time unit but a directive such as `'use strict'`: a top-level
call or hook, Go's `init` or `TestMain` (run for the whole package), not a
describe's hook (it runs around its new tests alone), a test or such a hook
filling a `let` of the file, or a Go directive on its own file (a build
constraint), nor a Go `Benchmark*`/`Fuzz*`/`Example*` or test whose only
stores outside itself go into package vars the new file declares (a
benchmark sink), nor a package var the file computes by conversions,
pure built-ins and standard-library functions and its own functions that
do the same (`benchBody = buildClean(1024)`), nor a Go test that puts
back, in a `defer` or `t.Cleanup` of its own, each environment variable
it sets (`os.Unsetenv(K)`, or `os.Setenv(K, old)` after `old :=
os.Getenv(K)`) and the working directory (`os.Chdir(old)` after
`os.Getwd()`), unless it or a subtest of it calls `t.Parallel()`
(`go test` starts a parallel test only once every other test has ended;
`t.Setenv` and `t.Chdir` undo themselves); a store into a var of another
file, `os.Setenv` not put back, a helper that shares state stay drift); in a
file importing `vitest` or `@jest/globals` (or reading
Jest's `jest`) that no file of the change imports, to which Jest and Vitest
(`isolate: true`, its default) give a module registry of its own, or
importing `node:test`, which `node --test` runs in a process of its own
(unless a file of the change asks for `--test-isolation=none`, or the
base turns the runner's per-file isolation off: Vitest's `isolate` set to
anything but `true` in a `vitest.config.*`, `vite.config.*` or
`vitest.workspace.*` of the file's folder or a folder above it, or
`--no-isolate`, `--isolate=false`, `--poolOptions.<pool>.isolate=false`,
`--no-threads`, `singleThread`/`singleFork` there or in a script of a
`package.json` on that path; node:test's `--test-isolation=none` or
`--experimental-test-isolation=none` in such a script; Jest has no such
switch; where the source cannot read those base files, as a structured
result cannot, the file is judged as sharing), only
writes out of the file (through the global object, `process`, a built-in's
prototype, an import, an implicit global or an alias; `Object.assign` and
kin, `vi.stubGlobal`/`stubEnv` or a spy on those, `eval`, a load-time `fs`
or `child_process` call, a helper doing so), and in a Jest file (one
importing `@jest/globals` or reading `jest`, naming no other runner)
not writes into `process.env` (`process.env.X = ...`, `delete`,
`process.env = {...}`, `Object.assign(process.env, ...)`): Jest's
environment gives each test file its own copy of `process` and its
`env`; none in a file that imports
AVA and calls it (each file in a worker of its own), nor in a Go file whose
folder had no `_test.go` file at base (its package's tests are all new);
in Java a static initializer block, which runs in the JVM that runs every
test class (a static field's initializer is read as the class's own
state), and in C# what acts on the whole test assembly, an
`[assembly: ...]` attribute, a `global using`, `[AssemblyInitialize]`,
`[ModuleInitializer]`, a static constructor, a `[SetUpFixture]` or
`[CollectionDefinition]` class, an extension method; in both a top-level
type named like a framework's (`Assert`, `Test`, `FactAttribute`), which
wins over the framework's in every file of its package or namespace; not
a class's own hooks, fields and constructors, except in a C# `partial`
class, whose other parts other files may hold: there the header and
every member but a test reach them, in a new file and, as new
collection-time code, in an existing one)
is drift, named with its line and code (`tests/test_zz.py (new):
statement at line 2` and the line's code): pytest imports the new file
before the tests collected after it, which then see the patched module.
A new Python module's collection-time code that acts on its own tests
only (a `from __future__` import, `pytestmark`, an autouse fixture, a
class body or a value that makes a call) is welcome: its tests are new,
and nothing else sees it.  A new test module that has a parser but cannot
be read (a syntax error, a symlink, a text too large or not available from
the source, the API mode past its cap) is drift: it could hold anything.
A new file that no module reads (`spec/x_spec.rb`, a data file), or under
a data folder, is welcome as a new file; so is a script run by hand that
no test reaches: a new file at a test path that no runner collects by
its default names (`test/fixtures/gen.mts`, `tests/generate_corpus.py`)
nor by the base's `python_files`, that reads the command line (Python: an
`if __name__ == "__main__":` block with no `else` in a file that never
binds `__name__`; JavaScript/TypeScript: `process.argv`, `require.main`,
`import.meta.main` or a `#!` line), registers no test, hook or suite
(JavaScript/TypeScript: reads no runner global, imports no runner module,
exports nothing), whose name (without suffixes) no other code file of the
change at a test path spells, and, for Python, where the base's pytest
configuration does not ask for `--doctest-modules` (which imports every
module).  A runner configured to load files outside its default names
(Mocha's `--recursive` over a fixtures folder) is not read.  A new test
file in a rubric example given by line counts only is welcome too (it
says nothing about content).

**A file the change places in a test folder that Python imports instead
of what a test means is drift** (`gate.drift.python.shadow`), even with
`allow_added: true`: pytest's default import mode (`prepend`) puts the
folder of each test module (the first folder upward without an
`__init__.py`) first on `sys.path`, ahead of the repository's root and
`src/`, so a test that imports the name gets the new file instead.  A
test folder is one that holds a test path (the rule's `paths` or the
default test globs), below the root and `src/`.  Drift, named with the
path, what it shadows and the fix:

* a module or regular package named like a first-party top-level module
  or package (`tests/clamp.py`, `tests/clamp/__init__.py` or
  `tests/unit/clamp.py` while `src/clamp/`, `clamp/__init__.py` or
  `clamp.py` exists), from every folder pytest may put on the path for
  it; first-party names come from the base tree's root and `src/` (a
  module, a folder with an `__init__`, a folder holding modules or
  folders: a namespace package) and from what the change itself places
  there;
* a namespace portion (`tests/clamp/core.py`, no `__init__.py`) named
  like a first-party namespace package (one without `__init__` at head,
  its `__init__` deleted by the change included): the portions merge in
  `sys.path` order and its modules come first; beside a module or a
  regular package of that name it is welcome, since those always win
  (PEP 420), which is what tests laid out like the package
  (`tests/clamp/test_core.py`) rely on;
* a module or package at the repository's root named like a first-party
  one under `src/`, the test runner (`pytest.py`) or the standard library
  (`python -m pytest` puts the root first), unless moved there from `src/`;
* a module named like a standard-library module (`tests/json.py`,
  `tests/decimal/__init__.py`; not a built-in one such as `sys`);
* bytecode (`__pycache__/*.pyc`, which Python runs instead of the source
  when it is hash-based, without reading the source when unchecked) or
  an extension module (`.so`, `.pyd`, which comes before a source of the
  same name) anywhere in a test folder: the gate cannot read what it
  runs;
* a `.pth` file or `sitecustomize`/`usercustomize` module in a
  site-packages folder anywhere (a virtual environment committed in the
  checkout), which Python's `site` module runs before any test.

git and patch mode read the base tree's layout with one `git cat-file`;
the Action's API mode lists it through the contents API (a few folders,
at most 30 requests), and a new module in a test folder fails when the
root or `src/` could not be listed.  A symlink in a test folder named
like a first-party name counts as a package (a checkout makes it a
folder when it points to one).  Out of reach: an installed package the new module is
named like (`tests/requests.py`), a folder put on the path by CI
configuration outside the repository, or another layout root than the
root and `src/` (a `pythonpath` setting naming `lib/`).

Only test modules are judged case by case: files a runner collects by
its default names (`test*.py`, `*_test.py`, `*.test.*`, `*.spec.*`,
anything under `__tests__/`, `*_test.go`, `*_spec.rb`; and, for
JavaScript and TypeScript, what node:test, AVA and Mocha collect: any
such file under a `test/` or `tests/` folder, `test.js`, `test-*.js`,
`*-test.js`, `*_test.js`, but not under a `helper(s)/` or `fixture(s)/`
folder there, nor a file or folder whose name starts with `_`), and what
the base's pytest configuration collects (its text read when named
`*tests.py`, as `e2e_ops_tests.py` is; judged whole otherwise), outside
`testdata/` and `__snapshots__/`.  Another modified file at a test path (a
helper module, a data fixture, a snapshot) is judged whole: existing tests
may read every byte of it.  Except a Python helper module (`tests/helpers.py`,
`tests/_events.py`, `tests/utils/fakes.py`; not a `conftest.py`, a runner's
file, a package's `__init__.py`, whose new name can hide a submodule, nor a
file under a data folder, `fixtures/`, `data/`, `expected/`, `golden/`, which
a test may read as text) that only grew
(`gate.drift.python.helpers`): every unit of its base unchanged, as in a
test module, and only new functions, classes and values that make no call
under new names, with imports of the standard library or of a class from a
module a base import loads; no existing test can call what did not exist.
Still drift there: a new name the base binds (a later `def helper`
replacing the first) or any base code reads, a decorator that runs at import
(`@atexit.register`, an autouse fixture, a project's), any fixture (a helper
named in `pytest_plugins` or `-p` is a plugin), a call, a value built by a
call, a store into another module or `sys.modules` at module level, a call
in a signature's annotation, a metaclass, a module dunder (`__getattr__`,
`__all__`), a builtin's name, a new member of a base class, any new name in
a module whose base reaches its globals by computed names (`globals()`,
`sys.modules[__name__]`), defines `__getattr__` or star-imports another
module, and a new name a file of the change star-imports (`from
tests.helpers import *`) and binds or reads.  Out of reach: an unchanged test
module that star-imports the helper (the rule reads only the files a change
touches).  Except what no test reads: a `package.json`
whose keys but its release metadata (`version`, `name`, `description`,
`private`, `repository`, `author`, `contributors`, `license`,
`keywords`, `homepage`, `bugs`, `funding`) are equal, and prose named
`README*`, `CHANGELOG*` or `LICENSE*` (`.md`, `.rst`, `.txt`, `.adoc`,
no suffix) outside a data folder (`fixtures/`, `data/`, `expected/`,
`testdata/`, `__snapshots__/`...); other Markdown stays whole (a doctest
file, a Markdown snapshot).

Where the units cannot be compared, the whole file is the unit and a
modified test file fails, and the message says why: no module reads its
suffix (`tests/test_x.rb judged as a whole file: no parser for .rb`), a
version does not parse (a syntax error; a parser that is not installed),
it is a symlink or submodule, its text is too large to read, or the source
has no text for it (a rubric example given by line counts rather than
`before`/`after`; the Action's API mode past its cap of files read
through the contents API).  A modified JavaScript or TypeScript
test file with syntax its grammar does not know (tree-sitter-typescript
reads no `f<typeof import('x')>()`) is still compared unit by unit where
the grammar's repair stays inside statements: each top-level or describe-
body statement holding a repair is one collection-time unit compared by
its exact text (`unparsed vi.mock ./shims`; new, it runs at collection;
removed, a removal), the others split as ever; the whole file is the unit
when a repair lies between statements or a repaired statement's text
changed.  So is a modified Go test file that tree-sitter-go repairs (a
local named `make` or `new` called with a value, `make(3)`, or Go
1.26's `new(expr)`, read as the built-in given a type): each function or
method holding a repair is one collection-time unit whose repaired
statements are compared by their exact text, the rest by tokens as
ever (it never gains cases; new, it runs at collection; a new test
calling it may store anything, so it does too); a `var` or `const`
declaration holding a repair is one such unit of its exact text; and
the whole file is the unit when a repair lies between declarations, in
an import or a type, or when a repair in a function's signature or a
declaration sits in text that changed.  A modified Go test file too
large to read (over 1 MiB, `gate.model.change.TEXT_LIMIT`: a generated
one, such as go-github's `github-accessors_test.go`) is read up to 8 MiB
(`KEPT_TEXT_LIMIT`, in git mode) for one proof that never splits it
whole (`gate.drift.go.grown`): where the head only inserts lines, no
base line deleted or changed, each run between two top-level
declarations after the header (outside every bracket, string and
comment, right after a line ending in `}` or `)` with only blank lines
between: never between a directive comment and its function) and
holding only whole new functions (parsed behind the base's header by the
Go reader: no method, `init`, `TestMain`, `var`, `const`, `type`,
`import` or directive comment, no function running over two runs), each
a case or a helper that stores nothing outside itself, named as no word
of the base text nor a name Go predeclares (`len`, `max`) and calling no
function the base declares, the file is grown, not changed: its new
tests count as new tests in an existing file.  A run with carriage
returns where the base has none, and anything else, leaves it judged as
a whole file.  A new
file with a syntax error is drift, as above.  A test-runner
configuration file (below) is always judged whole.  A modified test file whose text is the
same on both sides changed its mode or type: drift (the Action's API
mode, whose listing has no modes, sees a mode change only that way).

**Tests cannot be bent from outside the test files.**  Whatever `paths`
say, the rule also judges every supported test runner's configuration,
because a new one can switch existing tests off.  Which files and sections
those are is owned by `gate/drift/runners.py` (`RUNNERS`, with each
runner's documented discovery: pytest, unittest, tox, nox, Hatch, Jest,
Vitest, Mocha, Jasmine, Karma, AVA, node-tap, npm scripts, Playwright,
Cypress, Bun, Deno, RSpec, Rake, PHPUnit, Maven, Go, Cargo), at any depth:

* a whole configuration file (`runners.CONFIG_FILES`: a `conftest.py`,
  `pytest.ini`, `tox.ini`, `jest.config.*`, `babel.config.*`,
  `vitest.config.*`, `vite.config.*`, `.mocharc.*`, `karma.conf.*`,
  `playwright.config.*`, `.npmrc`, `go.work`, `.rspec`, `phpunit.xml`,
  `build.rs`, ...) that is new is drift, even with `allow_added: true`;
  changing, deleting or renaming one is drift too, and the message names
  the runners that read it (`babel.config.js (jest) modified`), but
  for a Python one (a `conftest.py`, a `noxfile.py`) modified to the
  same code as the engine reads it (`judging.config_same`: the same
  units in the same order, each of the same form as a test file's: a
  comment, a reformat, `@pytest.fixture()` written `@pytest.fixture`;
  with the same comments a tool reads, `# pragma: no cover`, `# type:
  ignore`, `# noqa`, ...);
* so is a new `pyproject.toml` or `setup.cfg` below the root at a test
  path (`tests/pyproject.toml`): `pytest tests` reads it before the
  root's, so it could deselect every test;
* and a new submodule at a test path (`tests/vendor`): a checkout with
  submodules puts whatever its commit holds there, a `conftest.py`
  included (the Action's API mode cannot tell a submodule from a file);
* in a file where a runner reads one section among others
  (`runners.SECTION_FILES`: `pyproject.toml`'s `[tool.pytest]`,
  `[tool.tox]`, `[tool.hatch.envs]`, `setup.cfg`'s `[tool:pytest]`, pytest
  plugins declared as `pytest11` entry points (also in a `setup.py`),
  `package.json`'s `"jest"` and test scripts, `Cargo.toml`'s test
  targets, `deno.json`, `bunfig.toml`, `pom.xml`, `go.mod`, an
  `__init__.py` that can define `load_tests`), that section added,
  changed or removed is drift (`runners.section_change`); other edits to
  those files are not.  The rule reads the text of every such file the
  change writes, on the sides where it exists (a renamed one is judged as
  the old path removed and the new one added).  When a side cannot be read
  (a `pyproject.toml` that is not valid TOML, a `package.json` that is not
  strict JSON, a source that has no file contents, such as a writer's
  `result.json`, or the Action's API mode past its cap of files read
  through the contents API), the rule fails: it cannot tell.  A
  `package.json` key stated twice is such a side when the rule reads it
  (the runner keys above, the dependency maps, `overrides`,
  `resolutions`, `pnpm`) or when it is repeated inside one's value: a
  reader of the diff sees the first value, Node the last.  A key the
  rule never reads (`engines`, `files`, another tool's key) stated twice
  is read as Node reads it, the last value standing
  (`sections.package_json`).
* a test tool's declared version moved (`gate/drift/pins.py`): a test
  runner, assertion library, plugin or coverage tool (pytest, `pytest-*`,
  hypothesis, coverage, tox, nox; jest, `@jest/*`, `jest-*`, ts-jest,
  babel-jest, vitest, `@vitest/*`, mocha, chai, ava, tap, uvu,
  Playwright, Cypress, nyc, c8; testify, ginkgo, gomega, gotest.tools,
  go-cmp, ...) added, removed, given another version, range, marker or
  source, or moved to another dependency group, in `package.json`'s
  dependency maps, `pyproject.toml`'s project, optional, group, uv, PDM
  and Poetry dependencies, pip's requirements files, `setup.cfg`'s
  `install_requires`, `tests_require` and extras, or `go.mod`'s `require`
  and `exclude`: a bumped runner can collect, skip or judge the existing
  tests differently, so a Dependabot bump of pytest fails this rule too
  (waive it, or keep such bumps in their own pull request).  The message
  names the tool, where it is declared and both versions.  Python names
  are compared as PEP 503 normalizes them, requirements without their
  whitespace; another library's bump, a comment or a reformatting is no
  change.
* a test tool's locked copy moved (`gate/drift/locks.py`): the same tools
  (and syrupy, inline-snapshot, and Rust's proptest, insta, rstest,
  mockall, ... in `Cargo.lock`) whose version in a lock file moved, that a
  lock file adds or drops, or whose copy at the same version comes from
  another source (another registry URL, a git repository, a tarball, a
  linked folder, an alias to another package) or is another artifact (a
  hash neither side's set contains the other of), at any depth of the
  lock (a nested `node_modules/` copy, a workspace member's): `uv.lock`,
  `poetry.lock`, `pdm.lock`, `Pipfile.lock`, `package-lock.json`,
  `npm-shrinkwrap.json`, `pnpm-lock.yaml` (v5, v6, v9 keys, peers
  suffixes dropped), `yarn.lock` (classic and Berry), `bun.lock` and
  `Cargo.lock`, at any depth of the repository.  The message names the
  file, the tool and both versions (`uv.lock changes the locked versions
  of test tools ...: syrupy: `5.1.0` -> `5.3.1``).  A lock file rewritten
  without moving a test tool passes: other packages bumped, a `resolved`
  URL or a hash dropped beside the same version, a wheel added, a copy
  re-hoisted, reordering and formatting; a renamed lock file is compared
  across its two paths; a tool whose copies only moved between the lock
  files of one ecosystem the change writes (per-package locks folded into
  the workspace's root lock, or a root lock split per package, each copy
  at the same version, source and artifact: `locks.pooled_moves`) moved
  nothing, while a copy dropped on the way, moved to another version,
  source or artifact, or a lock deleted with no written lock taking its
  copies, is named in each file that moved it.  One the gate cannot read (not valid TOML, JSON or
  YAML, or not its format's shape) fails: it cannot tell.  Lock files are
  read up to 32 MiB (`gate.model.change.LOCK_TEXT_LIMIT`).

Except runner configuration that only makes room for new tests
(`gate/drift/growth.py`), which runs every existing test as before; the
new test files it names are judged as new test files, above:

* a Jest or Vitest configuration file (`jest.config.*`,
  `vitest.config.*`, `vitest.*.config.*`, `vite.config.*`,
  `vitest.workspace.*`) whose only change is new plain string entries in
  an `include` or `testMatch` list (under no key but `test` and
  `projects`, inside the file's `defineConfig` call, `export default` or
  `module.exports`), each a literal path (no glob; `<rootDir>/` allowed)
  naming, from the file's folder, a test file the change adds; every other
  token, comments included, the same (a trailing comma aside).  An entry
  naming a file that exists at base, a glob, a path that climbs out, a
  template string, an entry in `exclude`, `setupFiles` or
  `coverage.include`, a list that was not there, any other edit: drift;
* a runner section file (a `package.json`, `pom.xml`, `pyproject.toml`,
  ...) removed from a folder below the root that held no test path and
  no runner configuration at any depth at base: it governed no test (a
  test tool it declared still counts as moved);
* a Maven `pom.xml` whose runner view is the same but for new `<module>`
  entries, the base's kept in order, each a plain folder below the pom's
  (no `..`, absolute path or property) that the change adds and that held
  no test at base: the modules it ran at base run as before;
* a `package.json` whose runner keys are the same but for new scripts
  that nothing runs by itself: not `test`, `pretest`, `posttest`, an
  install lifecycle script, nor `pre`/`post` of an existing script, and
  named by no existing script (a word of its command, or a `run-s
  test:*` pattern); existing scripts unchanged;
* in a folder below the root that holds no test path and no runner
  configuration file at any depth at base (or did not exist), listed
  through the base tree (a source that cannot list it, such as the
  Action's API mode, leaves the strict verdict): a `package.json`, new or
  changed, whose other runner keys are the same and whose changed
  scripts stay in the package (no `..`, absolute path, `$` or backtick,
  `node_modules`, `cd`, `--prefix`, `--root`, `--workspace`,
  `--filter`, or a package manager's `-w`, `-r`, `-C`), and whose
  scripts an install runs (a lifecycle script and what it names) start
  only build tools (`tsc`, `shx`, `rimraf`, `mkdirp`, `mkdir`, `chmod`,
  `cp`, or `npm run` of another script): an install runs before every
  test of the repository, so a `postinstall` running code stays drift;
  and a new runner configuration there that its runner reads only for
  tests in its folder: Jest's and Vitest's (`jest.config.*`,
  `vitest.config.*`, `vite.config.*`, `vitest.setup.*`, `jest.setup.*`),
  pytest's and tox's (`pytest.ini`, `.pytest.ini`, `pytest.toml`,
  `.pytest.toml`, `tox.ini`, `tox.toml`, and a `pyproject.toml` or
  `setup.cfg`: pytest looks for its configuration from the arguments'
  common folder upward), `.mocharc.*`, `karma.conf.*`,
  `playwright.config.*`, `playwright-ct.config.*`, `cypress.config.*`,
  `go.work`, a `go.mod` (a module of its own, which `./...` of
  another module never enters; the test modules it requires are its own),
  and a Maven `pom.xml` (it builds and tests its folder's module and the
  modules it lists; a module takes its parent by its own `<parent>`, so
  no existing module inherits from it; its test dependencies are its own;
  a property naming a place, `${project.basedir}`, counts as leaving).
  Its text must name no place outside the folder (no `..` segment,
  absolute or home path, `process.cwd`, `$` or tox substitution such as
  `{toxinidir}`, comments included; a JavaScript import's module path
  aside); a Jest or Vitest one sets no `rootDir`, `roots`, `root`, `dir`,
  `projects`, `workspace`, `globalSetup` or `globalTeardown`; a
  `pyproject.toml` or `setup.cfg` declares no entry points or plugins (a
  `pytest11` plugin loads for every test once the workspace is
  installed); a regular expression's end anchor in JavaScript
  (`'^.+\\.tsx?$'`) is no `$` expansion.  At the root, where it is read for every test, such a new
  file passes only when the base holds no test path and no runner
  configuration at all.  Never a `conftest.py` (pytest registers its
  hooks for the whole session), a `setup.py`, Babel's files, `.npmrc`,
  `__mocks__/`, `noxfile.py` or `.coveragerc`.  A test moved into the
  folder is a renamed or deleted test, and fails as one.
* a brand-new package's own manifest and lock file (a `package.json`,
  `pyproject.toml`, `pnpm-lock.yaml`, ...) in a folder below the root that
  is absent at base: the test tools it declares or locks reach its own new
  tests only, unless a folder above it holds at base a file of its
  ecosystem that can read it, whatever that file says: a workspace root
  (`package.json`, `pnpm-workspace.yaml`, `lerna.json`, `rush.json`,
  `nx.json`, `deno.json`; `pyproject.toml`, a uv workspace's; `Cargo.toml`;
  `go.work`), a lock file its dependencies may flow into, or a Jest or
  Vitest configuration (a `projects` glob); a root lock file the change
  writes is judged as always.  A Python repository's root `pyproject.toml`
  reads no npm package.
* a pip requirements file below the root whose path has no word saying
  tests, dev or CI (`test`, `tests`, `testing`, `dev`, `develop`,
  `development`, `ci`, `e2e`), added or removed, when no line of it says
  where a test tool comes from (an example project's `requirements.txt`
  of `mcp-agent`): the gate cannot see which files a CI job installs, so
  one at the root or named for tests (`requirements-dev.txt`,
  `tests/requirements.txt`) stays runner configuration added or removed;
  a test tool it names still counts as moved.

Configuration read from elsewhere (an environment variable set by CI, a
flag on a CI command line, a plugin a lock file alone brings in under a
name the lists above do not hold, `go.sum`, a binary `bun.lockb`, a
runner `runners.py` lists as not covered) is out of this rule's reach;
`forbidden_paths` on CI files and lock files covers part of it.

```yaml
- id: TESTS
  kind: test_drift
  allow_added: true
  paths: ["tests/", "**/test_*.py"]
```
"""

from __future__ import annotations

from gate.base import globs
from gate.base.words import plural as count
from gate.drift import identities, judging, locks, near_files, runners
from gate.drift.collected import (
    CONFIGURED_NAMES,
    NESTED_CONFIG,
    PYTEST_CONFIGS,
    js_collects,
    pytest_collects,
)
from gate.drift.folders import go_package_files
from gate.drift.growth import FOLDER_CONFIGS, ROOT_CONFIGS
from gate.drift.python import shadow
from gate.model.change import (
    ADDED,
    COPIED,
    DELETED,
    MODE_SYMLINK,
    MODIFIED,
    RENAMED,
    TYPE_CHANGED,
    UNKNOWN,
    ChangeSet,
)
from gate.model.report import RuleResult
from gate.model.rubric import DEFAULT_TESTS, Rule
from gate.rules._common import param_bool, param_list, result
from gate.rules.kind import PATHS, TEXTS, TREE

KIND = "test_drift"
PARAMETERS = {
    "allow_added": {
        "description": "Whether new test files may be added.",
        "type": "boolean",
        "default": True,
    },
    "paths": {
        "description": "Globs of what counts as a test file (default: the rubric's `tests`).",
        "$ref": "#/$defs/globs",
    },
}
FROM_RUBRIC = {"paths": "tests"}
GLOBS = {"paths": globs.FOLDED}  # a test in another spelling is a test
READS = {PATHS, TEXTS, TREE}
TEXT_GLOBS = ("paths",)  # each written test file's texts, to compare its test cases
# the base's pytest, Jest and Vitest configuration at the root: what it collects
TEXT_FILES = (*PYTEST_CONFIGS, *ROOT_CONFIGS)
# every touched file where a runner reads one section among others
# (`pyproject.toml`, `package.json`, ...: `gate.drift.runners` owns the
# list), and every touched lock file, to compare its test tools' locked
# copies (`gate.drift.locks`)
TEXT_MATCHING = (*runners.SECTION_GLOBS, *locks.LOCK_GLOBS, *CONFIGURED_NAMES, *FOLDER_CONFIGS)
# beside each test file a change adds, the base files its language reads to
# judge it (JavaScript: the runner configuration above it that may turn
# per-file isolation off, `gate.drift.js.isolation`)
TEXT_NEAR = near_files
# where the source can, every code file the change modifies: the names it
# renames, which an existing test may follow (`gate.drift.identities`)
TEXT_HINTS = identities.CODE_GLOBS
# where the source can, every Go file of the folder of a Go test file the
# change modifies: whether code of the package reads what it removed
# (`gate.drift.go.unread`)
TEXT_BESIDE = go_package_files
FORBIDS = True

# Files that configure a test runner as a whole (`runners.CONFIG_FILES`: a
# conftest.py, a pytest.ini, a jest.config.js, ...): a new one can switch
# existing tests off, so `test_drift` counts adding one as drift, never as
# "a new test", whatever its `paths` say; changing, deleting or renaming one
# is drift too.  A nested pyproject.toml or setup.cfg at a test path is
# configuration too (`gate.drift.collected.NESTED_CONFIG`).

_CHANGED = judging.CHANGED


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    patterns = param_list(rule, "paths")
    allow_added = param_bool(rule, "allow_added")
    counts: dict[str, int] = {}
    offending: list[str] = []
    config_added: list[str] = []
    config_changed: dict[str, str] = {}  # a runner's file that exists at base -> what happened
    submodules: list[str] = []
    # unions of remembered tests: each list's expression runs once per path
    got = {p: t.base for p, t in changes.texts.items() if p in TEXT_FILES}
    found = [c for c in (pytest_collects(got), js_collects(got)) if c is not None]
    collects: judging.Is = globs.any_of(*found) if found else (lambda path: False)
    is_test = globs.any_of(globs.matcher(patterns, GLOBS["paths"]), collects)
    is_config = runners.config_matcher(GLOBS["paths"])
    is_either = globs.any_of(is_test, is_config)
    loaders = judging.loaders(changes, is_test)
    is_nested = globs.matcher(NESTED_CONFIG, GLOBS["paths"])
    cases: list[str] = []  # what changed in modified test files, per file
    fresh: list[str] = []  # collection-time code in new test files, per file
    new_tests = grew = renamed = 0
    new_tests_in_new = 0
    for f in changes.files:
        hits = [p for p in f.written if is_either(p)]
        if not hits:
            continue
        # a hit that is no runner's file is a test path: there a nested
        # pyproject.toml or setup.cfg is configuration too
        configs = [p for p in hits if is_config(p) or ("/" in p and is_nested(p))]
        if configs and f.status == MODIFIED and not f.mode_changed:
            # a Jest or Vitest configuration that only names new test files
            configs = [
                p
                for p in configs
                if not judging.config_grew(changes, p, is_test)
                and not judging.config_same(changes, p)
            ]
            if not configs:
                continue
        if f.status in (ADDED, COPIED):
            if configs and f.new_mode != MODE_SYMLINK:
                # a Jest or Vitest configuration of a folder without tests
                configs = [
                    p for p in configs if not judging.config_for_new_tests(changes, p, is_test)
                ]
                if not configs:
                    continue
            if configs:
                config_added.extend(configs)
                continue
            if f.submodule:  # its commit may hold any file, a conftest.py too
                submodules.append(f.path)
                continue
            problem, added = judging.new_module(changes, f, loaders, collects)
            if problem is not None:
                fresh.append(problem)
            if allow_added:
                if problem is not None:
                    offending.append(f.path)
                new_tests_in_new += added
                continue
            what = "added"
        elif f.status == UNKNOWN:
            what = "unknown"
        elif f.status == RENAMED and judging.moved_test(changes, f, is_test, is_config):
            problem, added, grown, moves = judging.by_cases(changes, f, allow_added, collects)
            new_tests, grew, renamed = new_tests + added, grew + grown, renamed + moves
            if problem is None:
                continue  # moved, its imports following it to the same code
            cases.append(problem)
            what, hits = "renamed", list(f.touched)
        elif f.status == RENAMED:
            what = "renamed"
            hits = list(f.touched)
        elif f.status == DELETED:
            what = "deleted"
        elif f.status == TYPE_CHANGED:
            what = "type-changed"
        elif f.status == MODIFIED and f.mode_changed:
            what = "mode-changed"
        elif f.status == MODIFIED and judging.same_text(changes, f.path):
            # touched with the same text: its mode or type changed, which
            # a source without modes (the PR files API) cannot say
            what = "mode-changed"
        elif f.status == MODIFIED and not configs:
            problem, added, grown, moves = judging.by_cases(changes, f, allow_added, collects)
            new_tests, grew, renamed = new_tests + added, grew + grown, renamed + moves
            if problem is None:
                continue
            cases.append(problem)
            what = "modified"
        else:
            what = "modified"
        if configs and what in _CHANGED:
            for p in configs:
                config_changed.setdefault(p, what)
            offending.extend(hits)
            if not any(p not in configs and is_either(p) for p in hits):
                continue  # a runner's file alone (a rename's other side is no test path)
            counts[what] = counts.get(what, 0) + 1
            continue
        counts[what] = counts.get(what, 0) + 1
        offending.extend(hits)
    sections = judging.section_changes(changes, is_test)
    offending.extend(sections)
    in_tests = globs.any_of(is_test, globs.matcher(DEFAULT_TESTS, GLOBS["paths"]))
    for path, why in shadow.shadows(changes, in_tests):  # what tests import instead
        fresh.append(why)
        offending.append(path)
    if not (counts or config_added or config_changed or submodules or sections or cases or fresh):
        extra = "" if allow_added else "; no test file added"
        if new_tests:
            extra += f"; {count(new_tests, 'new test')} added to existing test files"
        if grew:
            extra += f"; new cases added to {count(grew, 'existing test')}"
        if renamed:
            extra += f"; {count(renamed, 'existing test')} renamed with the same code"
        if new_tests_in_new:
            extra += f"; {count(new_tests_in_new, 'new test')} in new test files"
        return result(rule, True, f"no test that exists at base was changed{extra}")
    parts = judging.failure_parts(
        counts, cases, config_changed, config_added, submodules, sections, fresh, changes.source
    )
    paths = list(dict.fromkeys([*offending, *config_added, *submodules]))
    return result(rule, False, "; ".join(parts), paths=paths)
