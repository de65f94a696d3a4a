"""A new Go test file's own benchmarks and values (`Unit.local`, class
G-BENCH: 02cf0f7d, 225ba207): a `Benchmark*`/`Fuzz*` storing into a sink
the file declares, and package vars computed by the file's pure helpers,
reach no test of the base; each beside its hostile twin, which still
reaches the package's other tests."""

from __future__ import annotations

import pytest

from gate.drift import compare, reaching
from gate.drift.go import units
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

HEAD = """\
package kit

import (
	"os"
	"strings"
	"testing"
)

"""

HELPERS = """
func buildClean(n int) string {
	const para = "clean text\\n"
	var b strings.Builder
	b.Grow(n + len(para))
	for b.Len() < n {
		b.WriteString(para)
	}
	return b.String()[:n]
}

func buildTwice(n int) string {
	return buildClean(n) + strings.ToUpper(buildClean(n))
}
"""

# New files whose load-time code and benchmarks are the file's own.
OWN = {
    "a sink the file declares (225ba207)": """
var benchmarkDataURISink string

func BenchmarkDataURI(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		benchmarkDataURISink = strings.Repeat("x", 3)
	}
}
""",
    "grouped sinks after the benchmark, in subtests (02cf0f7d)": """
func BenchmarkPage(b *testing.B) {
	for _, n := range []int{1, 2} {
		b.Run("n", func(b *testing.B) {
			for b.Loop() {
				sinkIssue = Convert(n)
				sinkCount++
			}
		})
	}
}

var (
	sinkIssue Issue
	sinkCount int
)
""",
    "values from the file's pure helpers (02cf0f7d)": HELPERS
    + """
var (
	benchComment = buildClean(1024)
	benchBody    = buildTwice(64 * 1024)
	benchHTML    = strings.Repeat("<b>x</b>", 16)
	benchLen     = len(benchHTML)
)

func BenchmarkSanitize(b *testing.B) {
	for b.Loop() {
		_ = Sanitize(benchComment + benchBody)
	}
}
""",
    "a fuzz target and an example storing the sink": """
var sink string

func FuzzSanitize(f *testing.F) {
	f.Fuzz(func(t *testing.T, in string) { sink = Sanitize(in) })
}

func ExampleSanitize() {
	sink = Sanitize("x")
	fmt.Println(sink)
	// Output: x
}
""",
    "b.Setenv, which undoes itself": """
var sink string

func BenchmarkEnv(b *testing.B) {
	b.Setenv("MODE", "fast")
	for b.Loop() {
		sink = os.Getenv("MODE")
	}
}
""",
}

# The same shapes written to reach the package's other tests.
REACHING = {
    "a store into a var another file declares": """
func BenchmarkDataURI(b *testing.B) {
	for b.Loop() {
		timeout = 0
	}
}
""",
    "init storing into the file's own var": """
var sink string

func init() {
	sink = "x"
}
""",
    "TestMain": """
var sink string

func TestMain(m *testing.M) {
	sink = "x"
	os.Exit(m.Run())
}
""",
    "a helper of the file writing a var of another file": HELPERS
    + """
func setup() string {
	timeout = 0
	return buildClean(3)
}

var benchBody = setup()
""",
    "os.Setenv in a benchmark": """
var sink string

func BenchmarkEnv(b *testing.B) {
	os.Setenv("MODE", "fast")
	for b.Loop() {
		sink = os.Getenv("MODE")
	}
}
""",
    "a benchmark calling a helper that stores elsewhere": """
var sink string

func bend() { timeout = 0 }

func BenchmarkX(b *testing.B) {
	bend()
	for b.Loop() {
		sink = "x"
	}
}
""",
    "a value from a function of another file": """
var server = newServer()
""",
    "a value from a helper calling code of the package": """
func build() string {
	register("x")
	return "x"
}

var body = build()
""",
    "a value from a helper starting a goroutine": """
func build() string {
	go serve()
	return "x"
}

var body = build()
""",
    "a value from a function literal called at once": """
var body = func() string { timeout = 0; return "x" }()
""",
    "a store through what a call returned": """
var sink string

func BenchmarkX(b *testing.B) {
	for b.Loop() {
		config().Limit = 0
		sink = "x"
	}
}
""",
    "a value from os.Getenv with a setter helper": """
func build() string {
	os.Setenv("MODE", "x")
	return "x"
}

var body = build()
""",
    "a sink shadowing nothing but a store into an imported package": """
var sink string

func BenchmarkX(b *testing.B) {
	for b.Loop() {
		strings.Sink = "x"
		sink = "x"
	}
}
""",
}


@pytest.mark.parametrize("name", sorted(OWN))
def test_a_new_files_own_benchmarks_and_values_reach_no_other_test(name: str) -> None:
    found = units(HEAD + OWN[name])
    assert not reaching("kit/bench_test.go", found), [
        u.name for u in reaching("kit/bench_test.go", found)
    ]


@pytest.mark.parametrize("name", sorted(REACHING))
def test_the_same_shapes_reaching_other_files_still_fail(name: str) -> None:
    found = reaching("kit/bench_test.go", units(HEAD + REACHING[name]))
    assert found, name


def test_a_new_benchmark_storing_a_sink_of_an_existing_file_is_drift() -> None:
    """In a file that exists at base, base tests may read the sink."""
    base = (
        HEAD
        + "var sink string\n\n"
        + 'func TestRead(t *testing.T) {\n\tif sink != "" {\n\t\tt.Fail()\n\t}\n}\n'
    )
    head = base + '\nfunc BenchmarkX(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = "x"\n\t}\n}\n'
    drift = compare(units(base), units(head))
    assert drift.refused and not drift.added


def test_the_rule_passes_a_new_benchmark_file_and_fails_its_init_twin(
    rubric_repo: RubricRepo,
) -> None:
    """End to end: a package with tests at base gains a benchmark file
    (passes); the twin adds an `init` storing the file's own var (fails)."""
    rubric_repo.write_many(
        {
            "go.mod": "module example.com/kit\n\ngo 1.24\n",
            "kit/kit.go": "package kit\n\nvar timeout = 5\n",
            "kit/kit_test.go": HEAD.replace('\t"os"\n\t"strings"\n', "")
            + "func TestTimeout(t *testing.T) {\n\tif timeout != 5 {\n\t\tt.Fail()\n\t}\n}\n",
        }
    )
    base = rubric_repo.commit("base")
    rubric_repo.write(
        "kit/bench_test.go", HEAD + OWN["values from the file's pure helpers (02cf0f7d)"]
    )
    own = rubric_repo.commit("bench")
    rubric_repo.write(
        "kit/bench_test.go",
        HEAD
        + OWN["values from the file's pure helpers (02cf0f7d)"]
        + REACHING["init storing into the file's own var"].replace(
            "var sink string\n", "var sink string\n"
        ),
    )
    bent = rubric_repo.commit("init")
    (code, result), (bent_code, bent_result) = (
        rubric_repo.check(base, head, rubric=DRIFT_RUBRIC).verdict() for head in (own, bent)
    )
    assert code == 0, result
    assert bent_code == 1 and "init" in bent_result["message"], bent_result
