"""gate.drift.go: real Go test files as units, Go's test-name rule, and
generated files (every test one CASE with its exact code, stable keys,
syntax errors refused, CRLF and a byte-order mark)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift import CASE, COLLECTION, SUPPORT, Unit, Unparsable, compare
from gate.drift.go import is_test_name, package_name, units


def _roles(found: tuple[Unit, ...]) -> list[tuple[str, str]]:
    return [(u.key, u.role) for u in found]


CLAMP = """\
//go:build !windows

package clamp_test

import (
	"os"
	"testing"
	_ "net/http/pprof"
	yaml "gopkg.in/yaml.v3"
)

//go:embed testdata/cases.json
var casesJSON string

var update = flag.Bool("update", false, "rewrite golden files")

var (
	limit = 10
	names = []string{"a", "b"}
	build = func() int { return 1 }
	home  = os.Getenv("HOME")
)

const (
	low = iota
	high
)

const eps = 1e-9

type tcase struct {
	in, want int
}

func (c *tcase) String() string { return "" }

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

func init() {
	limit = 20
}

func TestClamp(t *testing.T) {
	for _, tc := range []tcase{{1, 1}, {2, 2}} {
		t.Run("case", func(t *testing.T) {
			if got := Clamp(tc.in); got != tc.want {
				t.Fatalf("got %d", got)
			}
		})
	}
}

func BenchmarkClamp(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Clamp(i)
	}
}

func FuzzClamp(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) { Clamp(n) })
}

func ExampleClamp() {
	fmt.Println(Clamp(3))
	// Output: 3
}

func Testify(t *testing.T) {}

func helper(t *testing.T) { t.Helper() }
"""


def test_clamp_file() -> None:
    found = units(CLAMP)
    assert _roles(found) == [
        ("directive build constraint", COLLECTION),
        ("package", SUPPORT),
        ('import "os"', SUPPORT),
        ('import "testing"', SUPPORT),
        ('import _ "net/http/pprof"', COLLECTION),
        ('import "gopkg.in/yaml.v3"', SUPPORT),
        ("directive //go:embed", COLLECTION),
        ("var casesJSON", SUPPORT),
        ("var update", COLLECTION),
        ("var limit", SUPPORT),
        ("var names", SUPPORT),
        ("var build", SUPPORT),
        ("var home", COLLECTION),
        ("const low, high", SUPPORT),
        ("const eps", SUPPORT),
        ("type tcase", SUPPORT),
        ("method tcase.String", SUPPORT),
        ("func TestMain", COLLECTION),
        ("func init", COLLECTION),
        ("func TestClamp", CASE),
        ("func BenchmarkClamp", CASE),
        ("func FuzzClamp", CASE),
        ("func ExampleClamp", CASE),
        ("func Testify", SUPPORT),
        ("func helper", SUPPORT),
    ]
    by_key = {u.key: u for u in found}
    test = by_key["func TestClamp"]
    assert test.code.startswith("func TestClamp(t *testing.T) {\n\tfor _, tc")
    assert test.code.endswith("\t}\n}")
    assert "t.Run(" in test.code  # subtests stay inside their test
    assert test.line == CLAMP.splitlines().index("func TestClamp(t *testing.T) {") + 1
    assert by_key['import "gopkg.in/yaml.v3"'].binds == ("yaml",)
    assert by_key['import "os"'].binds == ("os",)
    assert by_key["const low, high"].code == "const (\n\tlow = iota\n\thigh\n)"
    assert by_key["var limit"].code == "limit = 10"
    assert by_key["func helper"].binds == ("helper",)


def test_adding_to_a_group_changes_no_existing_unit() -> None:
    base = {u.key: u.code for u in units(CLAMP)}
    head = CLAMP.replace('\t"os"\n', '\t"os"\n\t"strings"\n').replace(
        "\tlimit = 10\n", "\tlimit = 10\n\textra = 1\n"
    )
    after = {u.key: u.code for u in units(head)}
    assert {k: after[k] for k in base} == base
    assert sorted(after.keys() - base.keys()) == ['import "strings"', "var extra"]


def test_an_iota_group_is_one_unit() -> None:
    """Inserting a constant before `high` changes high's value: the group is one unit."""
    base = {u.key: u.code for u in units(CLAMP)}
    head = {u.key: u.code for u in units(CLAMP.replace("\tlow = iota\n", "\tlow = iota\n\tmid\n"))}
    assert "const low, high" in base and "const low, high" not in head
    assert "const low, mid, high" in head


def test_two_inits_and_blank_funcs_get_distinct_keys() -> None:
    text = "package p\n\nfunc init() {}\n\nfunc init() { x() }\n\nfunc _() {}\n\nfunc _() {}\n"
    assert _roles(units(text)) == [
        ("package", SUPPORT),
        ("func init", COLLECTION),
        ("func init #2", COLLECTION),
        ("func _", SUPPORT),
        ("func _ #2", SUPPORT),
    ]


def test_methods_are_keyed_by_receiver_type() -> None:
    text = (
        "package p\n\nfunc (s *Suite) TestA(t *testing.T) {}\n\nfunc (Suite) TestB() {}\n\n"
        "func (v *Vec[T]) Len() int { return 0 }\n"
    )
    assert _roles(units(text))[1:] == [
        ("method Suite.TestA", CASE),
        ("method Suite.TestB", CASE),
        ("method Vec.Len", SUPPORT),
    ]
    # a new method changes its type's method set: it binds the type's name
    assert [u.binds for u in units(text)[1:]] == [("Suite",), ("Suite",), ("Vec",)]


def test_suite_hooks_are_collection() -> None:
    text = (
        "package p\n\nfunc (s *Suite) SetupTest() {}\n\nfunc (s *Suite) TearDownSuite() {}\n\n"
        "func (s *S) SetUpTest(c *check.C) {}\n\nfunc (s *Suite) helper() {}\n"
    )
    assert _roles(units(text))[1:] == [
        ("method Suite.SetupTest", COLLECTION),
        ("method Suite.TearDownSuite", COLLECTION),
        ("method S.SetUpTest", COLLECTION),
        ("method Suite.helper", SUPPORT),
    ]


def test_a_directive_inside_a_group_is_collection() -> None:
    text = "package p\n\nvar (\n\t//go:embed golden.txt\n\tgolden string\n\tn = 1\n)\n"
    assert _roles(units(text))[1:] == [
        ("var golden", SUPPORT),
        ("var n", SUPPORT),
        ("directive //go:embed", COLLECTION),
    ]


@pytest.mark.parametrize(
    ("spec", "role"),
    [
        ("var a = 1", SUPPORT),
        ('var a, b = 1, "x"', SUPPORT),
        ("var a = T{X: 1, Y: []int{2}}", SUPPORT),
        ("var a = &T{}", SUPPORT),
        ("var a = func() { setup() }", SUPPORT),
        ("var a int", SUPPORT),
        ("var a = b", SUPPORT),
        ("var a = setup()", COLLECTION),
        ("var _ = setup()", COLLECTION),
        ('var a = errors.New("x")', COLLECTION),
        ("var a = T{X: setup()}", COLLECTION),
        ("var a = func() int { return 1 }()", COLLECTION),
        ("var a = <-ready", COLLECTION),
        ("var a = []int{1}[setup()]", COLLECTION),
        # conversions, and make or new given a type, run no code of the program
        ('var a = []byte("x")', SUPPORT),
        ("var _ I = (*T)(nil)", SUPPORT),
        ("var a = T(3)", SUPPORT),
        ("var a = (T)(3)", SUPPORT),
        ("var a = make([]T, 0)", SUPPORT),
        ("var a = make(map[string]int, 8)", SUPPORT),
        ("var a = make(chan int)", SUPPORT),
        ("var a = new(T)", SUPPORT),
        ("var a = new(struct{ n int })", SUPPORT),
        # ... but what they are given is judged in turn
        ("var a = []byte(setup())", COLLECTION),
        ("var a = make([]T, setup())", COLLECTION),
        ("var _ I = (*T)(setup())", COLLECTION),
        # a name the file does not define as a type may be a function or a variable
        ("var a = U(3)", COLLECTION),
        ("var _ I = (*U)(nil)", COLLECTION),  # a call through a function pointer
        ("var a = new(U)", COLLECTION),  # a package-level func new of another file
        ("var a = make(U, 1)", COLLECTION),
        ("var a = new(pkg.T)", COLLECTION),
        ("var a = (-T)(3)", COLLECTION),
        ("var a = List[int](x)", COLLECTION),  # a generic function, or a conversion
        ("var a = Tree[int](x)", SUPPORT),  # the file's generic type
        ("var a = []T(setup())", COLLECTION),
    ],
)
def test_var_roles(spec: str, role: str) -> None:
    found = units(f"package p\n\ntype T struct{{ n int }}\n\ntype Tree[K any] []K\n\n{spec}\n")
    assert [(u.role, u.code) for u in found[3:]] == [(role, spec.removeprefix("var "))]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Test", True),
        ("TestX", True),
        ("Test_x", True),
        ("Test1", True),
        ("TestÅ", True),
        ("Testify", False),
        ("Testé", False),
        ("Benchmark", True),
        ("BenchmarkFoo", True),
        ("Benchmarkfoo", False),
        ("FuzzA", True),
        ("Fuzzy", False),
        ("Example", True),
        ("ExampleT_m", True),
        ("Examples", False),
        ("TestMainly", True),
        ("helper", False),
        ("XTest", False),
    ],
)
def test_go_test_names(name: str, expected: bool) -> None:
    assert is_test_name(name) is expected


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("fmt", "fmt"),
        ("net/http", "http"),
        ("gopkg.in/yaml.v3", "yaml"),
        ("github.com/x/y/v2", "y"),
        ("github.com/x/go-cmp", "cmp"),
    ],
)
def test_package_names(path: str, name: str) -> None:
    assert package_name(path) == name


@pytest.mark.parametrize(
    "text",
    [
        "package p\n\nfunc TestX(t *testing.T) {\n",
        "package p\n\nfunc TestX(t *testing.T) { if }\n",
        "package p\n\nvar = 1\n",
        "package p\n\nfunc TestX(t *testing.T) {}\n}\n",
        'package p\n\nimport "fmt\n',
    ],
)
def test_syntax_errors_are_unparsable(text: str) -> None:
    with pytest.raises(Unparsable, match="syntax error at line"):
        units(text)


def test_a_statement_at_the_top_level_is_unparsable() -> None:
    with pytest.raises(Unparsable):
        units("package p\n\nx := 1\n")


# --- generated files ---

_LETTERS = st.sampled_from([*"abcXYZ_019", "Å", "é", "ß", "Ω", "ж", "名", "ǅ"])
_SUFFIX = st.text(_LETTERS, max_size=6)
_PREFIX = st.sampled_from(["Test", "Benchmark", "Fuzz", "Example", "helper", "Testify", "init"])
_PARAM = {"Test": "t *testing.T", "Benchmark": "b *testing.B", "Fuzz": "f *testing.F"}


def _go_is_test(name: str) -> bool:
    """Go's rule, written from the spec of `go test` (not from gate.drift.go)."""
    for prefix in ("Test", "Benchmark", "Fuzz", "Example"):
        if name.startswith(prefix):
            rest = name[len(prefix) :]
            return rest == "" or unicodedata.category(rest[0]) != "Ll"
    return False


def _go_file(data: st.DataObject) -> tuple[str, list[tuple[str, str, str]]]:
    """A Go test file and its functions as (name, code, expected role)."""
    parts = ["package p_test", 'import "testing"']
    funcs: list[tuple[str, str, str]] = []
    names: set[str] = set()
    for i in range(data.draw(st.integers(0, 8))):
        prefix = data.draw(_PREFIX)
        if prefix == "init":
            name = "init"
        else:
            name = prefix + data.draw(_SUFFIX)
            if name in names or name in ("TestMain", "init"):
                continue
        names.add(name)
        param = _PARAM.get(prefix, "")
        body = data.draw(
            st.sampled_from(
                ["", '\n\tt.Run("a", func(t *testing.T) {})\n', f"\n\t_ = {i}\n", " /* } */ "]
            )
        )
        code = f"func {name}({param}) {{{body}}}"
        role = COLLECTION if name == "init" else CASE if _go_is_test(name) else SUPPORT
        parts.append(code)
        funcs.append((name, code, role))
        if data.draw(st.booleans()):
            parts.append(f"var v{i} = {data.draw(st.sampled_from(['1', 'setup()']))}")
    return "\n\n".join(parts) + "\n", funcs


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_generated_functions_are_units_with_their_code(data: st.DataObject) -> None:
    text, funcs = _go_file(data)
    found = units(text)
    keys = [u.key for u in found]
    assert len(set(keys)) == len(keys)
    func_units = [u for u in found if u.key.startswith("func ")]
    assert [(u.name.split(" #")[0], u.code, u.role) for u in func_units] == funcs
    for unit in func_units:
        assert text.splitlines()[unit.line - 1] == unit.code.splitlines()[0]
    for unit in found:
        if unit.key.startswith("var "):
            assert unit.role == (COLLECTION if "setup()" in unit.code else SUPPORT)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_appending_a_test_keeps_every_unit(data: st.DataObject) -> None:
    text, _ = _go_file(data)
    before = units(text)
    added = "func TestAppendedZ(t *testing.T) {\n\tt.Log(1)\n}\n"
    after = units(text + "\n" + added)
    assert after[: len(before)] == before
    assert [(u.key, u.role, u.code) for u in after[len(before) :]] == [
        ("func TestAppendedZ", CASE, added.strip())
    ]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_crlf_and_bom_give_the_same_units(data: st.DataObject) -> None:
    text, _ = _go_file(data)
    base = units(text)
    crlf = units(text.replace("\n", "\r\n"))
    assert [(u.key, u.role, u.line) for u in crlf] == [(u.key, u.role, u.line) for u in base]
    assert [u.code for u in crlf] == [u.code.replace("\n", "\r\n") for u in base]
    assert units("\ufeff" + text) == base


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_broken_function_is_unparsable(data: st.DataObject) -> None:
    text, funcs = _go_file(data)
    if not funcs:
        text += "\nfunc TestOnly(t *testing.T) {}\n"
        funcs = [("TestOnly", "func TestOnly(t *testing.T) {}", CASE)]
    _, code, _ = funcs[data.draw(st.integers(0, len(funcs) - 1))]
    broken = code[: code.rindex("}")]  # the body's closing brace removed
    with pytest.raises(Unparsable, match="syntax error"):
        units(text.replace(code, broken, 1))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_editing_a_function_changes_its_unit(data: st.DataObject) -> None:
    text, funcs = _go_file(data)
    if not funcs:
        return
    before = {(u.key, u.code) for u in units(text)}
    _, code, _ = funcs[data.draw(st.integers(0, len(funcs) - 1))]
    edit = data.draw(
        st.sampled_from(
            [
                code.replace("{", "{\n\tt.Skip()\n", 1),
                code.replace(") {", ") { /* a comment is code too */", 1),
                code[: code.rindex("}")] + "\t_ = 1\n}",
            ]
        )
    )
    after = {(u.key, u.code) for u in units(text.replace(code, edit, 1))}
    assert before - after


GO_BASE = """\
package gin

import (
	"net/http"
	"testing"
)

// Hijack returns a net.Conn, as the net package says.
func TestWriter(t *testing.T) {
	w := writer{}
	if w.net != 1 || len(w.name) > 0 || !true {
		var err error = nil
		t.Fatal(err, http.StatusOK)
	}
}
"""


@pytest.mark.parametrize(
    "added",
    [
        'import "net"',
        'import net "example.com/othernet"',
        "func net() int { return 1 }",
        "type Hijack struct{}",
        "const StatusOK = 3",
    ],
)
def test_a_name_in_a_string_a_comment_or_a_field_is_read_by_no_code(added: str) -> None:
    """`"net/http"`, `// ... net package` and `w.net` read no package-level
    `net`: a new one changes no existing test."""
    from gate.drift import compare

    new = f"{added}\n\nfunc TestNew(t *testing.T) {{}}\n\n"
    head = GO_BASE.replace("func TestWriter", f"{new}func TestWriter")
    found = compare(units(GO_BASE), units(head))
    assert found.ok and found.added == ("TestNew",), found.summary()


@pytest.mark.parametrize(
    ("added", "name"),
    [
        ("func len(s string) int { return 0 }", "len"),
        ("type error interface{}", "error"),
        ("var nil = 1", "nil"),
        ("const true = false", "true"),
        ("type writer struct{ net, name int }", "writer"),
    ],
)
def test_a_name_existing_code_reads_is_drift(added: str, name: str) -> None:
    """A package-level `len`, `error` or `nil` shadows the builtin that the
    existing test reads; `writer` is a type it uses."""
    from gate.drift import compare

    head = GO_BASE.replace("func TestWriter", f"{added}\n\nfunc TestWriter")
    summary = compare(units(GO_BASE), units(head)).summary()
    assert f"binds {name}" in summary, summary


SUITE_BASE = """\
package p

import (
	"testing"

	"github.com/stretchr/testify/suite"
)

type OldSuite struct{ suite.Suite }

func (s *OldSuite) TestOld() {}

func TestOldSuite(t *testing.T) { suite.Run(t, new(OldSuite)) }
"""
NEW_SUITE = """
type NewSuite struct {
	suite.Suite
	n int
}

func (s *NewSuite) SetupTest() { s.n = 1 }

func (s *NewSuite) HandleStats(name string, stats *suite.SuiteInformation) {}

func (s *NewSuite) TearDownSuite() { s.T().Log("done") }

func (s *NewSuite) TestNew() { s.Equal(1, s.n) }

func TestNewSuite(t *testing.T) { suite.Run(t, new(NewSuite)) }
"""


def test_a_new_suite_with_its_hooks_is_new_tests() -> None:
    """A hook runs around the tests of its own suite: on a new type, those are new."""
    found = compare(units(SUITE_BASE), units(SUITE_BASE + NEW_SUITE))
    assert found.ok, found.summary()
    assert found.added == ("NewSuite.TestNew", "TestNewSuite")
    by_name = {u.name: u for u in units(SUITE_BASE + NEW_SUITE)}
    for hook in ("SetupTest", "HandleStats", "TearDownSuite"):
        unit = by_name[f"NewSuite.{hook}"]
        assert (unit.role, unit.parent) == (SUPPORT, "type NewSuite"), hook


@pytest.mark.parametrize(
    ("head", "why"),
    [
        # a hook of a suite that exists at base runs around its old tests
        (SUITE_BASE + "\nfunc (s *OldSuite) SetupTest() { s.T().Skip() }\n", "exists at base"),
        # a type of another file of the package: maybe a suite with tests
        (SUITE_BASE + "\nfunc (s *Elsewhere) SetupTest() { s.T().Skip() }\n", "runs at collection"),
        # an alias's methods are those of the type it names
        (
            SUITE_BASE + "\ntype Same = OldSuite\n\nfunc (s *Same) SetupTest() { s.T().Skip() }\n",
            "runs at collection",
        ),
        # a hook that stores outside itself: later suites see the store
        (
            SUITE_BASE.replace("type OldSuite", "var limit = 1\n\ntype OldSuite")
            + NEW_SUITE.replace("{ s.n = 1 }", "{ limit = 2 }"),
            "runs at collection",
        ),
    ],
)
def test_a_hook_that_may_run_around_existing_tests_is_drift(head: str, why: str) -> None:
    found = compare(units(SUITE_BASE), units(head))
    assert not found.ok
    assert any(why in reason for _, reason in found.refused), found.refused
