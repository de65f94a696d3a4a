"""A new Go test that stores into a package-level variable or process-wide
state, however it spells the store, changes what the package's other tests
see (gate.drift.go.writes); one that stores into its own values, or
undoes its store when it ends, is a new test."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift import CASE, COLLECTION, compare, reaching
from gate.drift.go import units
from tests.real_go import run_go_test

# What the package under test declares (p.go), read by the existing test.
PACKAGE = """package p

type Cfg struct{ Limit int }

var Limit = 1
var Config = &Cfg{Limit: 1}
var Table = map[string]int{"a": 1}
var Slice = []int{1}

func get() *Cfg { return Config }
"""
HELPERS = """
func show() string { return fmt.Sprint(Limit) }

func bend() { Limit = 2 }

func bendLater() { bend() }

type bender struct{}

func (bender) bend() { Limit = 2 }

func handler() func() { return func() { Limit = 2 } }

func handlers() []func() { return []func(){func() { Limit = 2 }} }

func unsetMode() { os.Unsetenv("GMODE") }

func assert(err error) {}

func restoring(t *testing.T) {
\told := Limit
\tLimit = 2
\tt.Cleanup(func() { Limit = old })
}
"""
HEADER = 'package p\n\nimport (\n\t"fmt"\n\t"os"\n\t"testing"\n)\n' + HELPERS
EXISTING = """
func TestExisting(t *testing.T) {
\twd, _ := os.Getwd()
\t_, moded := os.LookupEnv("GMODE")
\tchanged := Limit != 1 || Config.Limit != 1 || Table["a"] != 1 || Slice[0] != 1 ||
\t\tmoded || wd == "/"
\tif !changed {
\t\tt.Fatal("nothing changed")
\t}
}
"""

# Bodies of a new test that store into what the package declares, or set
# process-wide state.
STORES = [
    "Limit = 2",
    "Limit += 1",
    "Limit++",
    "Limit, _ = 2, 0",
    "Config.Limit = 2",
    '(Table)["a"] = 2',
    "*(&Limit) = 2",
    "(*Config).Limit = 2",
    "get().Limit = 2",
    "for _, Limit = range []int{2} {\n\t}",
    "ch := make(chan int, 1)\n\tch <- 2\n\tselect {\n\tcase Limit = <-ch:\n\t}",
    't.Run("x", func(t *testing.T) { Limit = 2 })',
    "func() { Limit = 2 }()",
    "defer func() { Limit = 2 }()",
    'os.Setenv("GMODE", "x")',
    'os.Chdir("/")',
    "bend()",
    "bendLater()",
    "handler()()",
    "bender{}.bend()",
    "var b bender\n\tb.bend()",
    "t.Cleanup(bend)",
    "defer bend()",
    'func() { t.Run("x", func(t *testing.T) { bendLater() }) }()',
    'delete(Table, "a")',
    "copy(Slice, []int{2})",
    'fmt.Sscan("2", &Limit)',
    'fmt.Sscan("2", &Config.Limit)',
    'os.Setenv("GMODE", "x")\n\tdefer os.Unsetenv("OTHER")',
    'defer os.Unsetenv("HOME")\n\tos.Setenv("GMODE", "x")',
    'os.Setenv("GMODE", "x")\n\tif true {\n\t\treturn\n\t}\n\tdefer os.Unsetenv("GMODE")',
    # env restores that miss: another variable, not registered, one of two
    'old := os.Getenv("OTHER")\n\tos.Setenv("GMODE", "x")\n\tdefer os.Setenv("GMODE", old)',
    'old := os.Getenv("GMODE")\n\tos.Setenv("GMODE", "x")\n\tos.Setenv("GMODE", old)',
    'old := os.Getenv("GMODE")\n\tos.Setenv("GMODE", "x")\n\told = "y"\n'
    '\tdefer os.Setenv("GMODE", old)',
    'os.Setenv("GMODE", "x")\n\told := os.Getenv("GMODE")\n\tdefer os.Setenv("GMODE", old)',
    'os.Setenv("GMODE", "x")\n\tos.Setenv("OTHER", "y")\n\tdefer os.Unsetenv("OTHER")',
    'old, _ := os.Getwd()\n\tos.Chdir("/")\n\tdefer os.Chdir("/")\n\t_ = old',
    'os.Chdir("/")\n\told, _ := os.Getwd()\n\tdefer os.Chdir(old)',
    'old, _ := os.Getwd()\n\t_ = old\n\tos.Chdir("/")\n'
    '\tdefer func() {\n\t\told := "/"\n\t\tos.Chdir(old)\n\t}()',
    'old, _ := os.Getwd()\n\tos.Chdir("/")\n\told = "/"\n\tdefer os.Chdir(old)',
    # restores that do not restore
    "Limit = 2\n\told := Limit\n\tdefer func() { Limit = old }()",
    "old := Limit\n\tLimit = 2\n\told = 2\n\tdefer func() { Limit = old }()",
    "old := Limit\n\tLimit = 2\n\tif old > 0 {\n\t\treturn\n\t}\n\tdefer func() { Limit = old }()",
    "old := Limit\n\tLimit = 2\n\tif old < 0 {\n\t\tdefer func() { Limit = old }()\n\t}",
    "old := Limit\n\tdefer func() { Limit = old + 1 }()\n\tLimit = 2",
    "old := Config.Limit\n\tConfig.Limit = 2\n\tdefer func() { Limit = old }()",
    'old := Limit\n\tdefer func() { Limit = old }()\n\tt.Run("x", func(t *testing.T) {\n\t\t'
    "t.Parallel()\n\t\tLimit = 2\n\t})",
    "old := Limit\n\t_ = old\n\tLimit = 2\n\tdefer func() {\n\t\told := 5\n\t\tLimit = old\n\t}()",
    "defer func(old int) {\n\t\told = 3\n\t\tLimit = old\n\t}(Limit)\n\tLimit = 2",
]
# Bodies whose store is undone when the test ends: the existing test still
# sees the package as it was.
RESTORED = [
    "old := Limit\n\tLimit = 2\n\tdefer func() { Limit = old }()",
    "defer func(old int) { Limit = old }(Limit)\n\tLimit = 2",
    "old := Limit\n\tt.Cleanup(func() { Limit = old })\n\tLimit = 2",
    "old := Config.Limit\n\tConfig.Limit = 2\n\tdefer func() { Config.Limit = old }()",
    "saved := Limit\n\tLimit = 2\n\tLimit++\n\tdefer func() { Limit = saved }()",
    "old := Limit\n\tif true {\n\t\told := 7\n\t\t_ = old\n\t}\n\tLimit = 2\n"
    "\tdefer func() { Limit = old }()",
    't.Run("a", func(t *testing.T) {\n\t\told := Limit\n\t\tdefer func() { Limit = old }()\n'
    '\t\tLimit = 2\n\t})\n\tt.Run("b", func(t *testing.T) {\n\t\told := Limit\n'
    "\t\tdefer func() { Limit = old }()\n\t\tLimit = 3\n\t})",
    "old := Limit\n\tLimit = 2\n\tdefer func() {}()\n\tdefer func() { Limit = old }()",
    "old := Limit\n\tLimit = 2\n\tt.Cleanup(func() {})\n\tdefer func() { Limit = old }()",
    "old := Limit\n\tLimit = 2\n\tn := 1\n\tn++\n\t_ = n\n\tdefer func() { Limit = old }()",
    "restoring(t)",
    't.Setenv("GMODE", "x")',
    'os.Setenv("GMODE", "x")\n\tdefer os.Unsetenv("GMODE")',
    'err := os.Setenv("GMODE", "x")\n\tdefer func() { _ = os.Unsetenv("GMODE") }()\n\t_ = err',
    'old, _ := os.Getwd()\n\tt.Cleanup(func() { os.Chdir(old) })\n\tos.Chdir("/")',
    'old := os.Getenv("GMODE")\n\tdefer func() {\n\t\tif old != "" {\n\t\t\t'
    'os.Setenv("GMODE", old)\n\t\t} else {\n\t\t\tos.Unsetenv("GMODE")\n\t\t}\n\t}()\n'
    '\tos.Setenv("GMODE", "x")',
    'os.Setenv("OTHER", "y")\n\tos.Setenv("GMODE", fmt.Sprintf("%d", 2))\n\tdefer func() {\n'
    '\t\tos.Unsetenv("OTHER")\n\t\tos.Unsetenv("GMODE")\n\t}()',
    "handler()",
    "_ = handlers()",
    'old := Limit\n\tfmt.Sscan("2", &Limit)\n\tdefer func() { Limit = old }()',
]
# Restores the gate does not trust, though go test shows this one undone:
# a call between the store and its registration could return or fail the
# test first (`t.Fatal`), so the store counts.
DISTRUSTED = [
    "old := Limit\n\tLimit = 2\n\tx := show()\n\t_ = x\n\tdefer func() { Limit = old }()",
    "old := Limit\n\tLimit = 2\n\tt.Log(old)\n\tdefer func() { Limit = old }()",
]
# Restores of the environment the gate trusts on their idiom's assumption,
# though go test tells them apart with `os.LookupEnv`: `os.Setenv(K, old)`
# leaves a K that was unset set to "" (as `os.Unsetenv(K)` leaves a set K unset).
ASSUMED = [
    'old := os.Getenv("GMODE")\n\tos.Setenv("GMODE", "x")\n\tdefer os.Setenv("GMODE", old)',
    'old := os.Getenv("GMODE")\n\tassert(os.Setenv("GMODE", "x"))\n\tdefer func() {\n'
    '\t\t_ = os.Setenv("GMODE", old)\n\t}()',
    'defer func(old string) { os.Setenv("GMODE", old) }(os.Getenv("GMODE"))\n'
    '\tos.Setenv("GMODE", "x")',
]
# Restores go test shows undone that the gate does not trust: a test that
# runs in parallel (itself or a subtest) sets the environment while other
# tests run, and a restore in another function or a goroutine is not read.
PARALLEL = [
    't.Parallel()\n\tos.Setenv("GMODE", "x")\n\tdefer os.Unsetenv("GMODE")',
    'os.Setenv("GMODE", "x")\n\tdefer os.Unsetenv("GMODE")\n'
    '\tt.Run("x", func(t *testing.T) {\n\t\tt.Parallel()\n\t})',
    'os.Setenv("GMODE", "x")\n\tdefer unsetMode()',
    'go func() {\n\t\tos.Setenv("GMODE", "x")\n\t}()\n\tdefer os.Unsetenv("GMODE")',
]
# Code that declares `Limit` in a scope of its own: the store still reaches the package.
SHADOWS = [
    "if true {\n\t\tLimit := 0\n\t\t_ = Limit\n\t}",
    "func(Limit int) { _ = Limit }(0)",
    "for Limit := range []int{} {\n\t\t_ = Limit\n\t}",
    "switch Limit := interface{}(0).(type) {\n\tdefault:\n\t\t_ = Limit\n\t}",
    "{\n\t\tvar Limit int\n\t\t_ = Limit\n\t}",
]
# Stores into what the test declares itself.
OWN = [
    "x := 1\n\tx = 2\n\t_ = x",
    "c := Cfg{}\n\tc.Limit = 2\n\t_ = c",
    'm := map[string]int{}\n\tm["a"] = 1',
    "(&Cfg{}).Limit = 2",
    "Limit := 3\n\tLimit = 4\n\t_ = Limit",
    "var n int\n\tn++\n\t_ = n",
    "for i := 0; i < 2; i++ {\n\t}",
    "_ = Limit",
    'x := 0\n\tt.Run("a", func(t *testing.T) { x = 2 })\n\t_ = x',
    "var p *Cfg = &Cfg{}\n\tp.Limit = 2",
    'n := 0\n\tfmt.Sscan("2", &n)',
    'm := map[string]int{"a": 1}\n\tdelete(m, "a")',
    'fmt.Sscan("2", &Cfg{})',
]
FORMS = [
    "func TestA(t *testing.T) {{\n\t{body}\n}}\n",
    "func Test_a(t *testing.T) {{\n\t{body}\n}}\n",
]


def _new_roles(base: str, head: str) -> dict[str, str]:
    before = {u.key for u in units(base)}
    return {u.key: u.role for u in units(head) if u.key not in before}


def _files(body: str, form: str = FORMS[0], before: bool = True) -> tuple[str, str]:
    base = HEADER + EXISTING
    new = form.format(body=body)
    head = HEADER + "\n" + new + EXISTING if before else base + "\n" + new
    return base, head


@pytest.mark.parametrize("store", STORES)
@settings(max_examples=12)
@given(
    shadows=st.lists(st.sampled_from(SHADOWS), max_size=3),
    shadow_first=st.booleans(),
    form=st.sampled_from(FORMS),
    before=st.booleans(),
)
def test_a_store_outside_the_test_changes_what_other_tests_see(
    store: str, shadows: list[str], shadow_first: bool, form: str, before: bool
) -> None:
    body = "\n\t".join([*shadows, store] if shadow_first else [store, *shadows])
    base, head = _files(body, form, before)
    assert list(_new_roles(base, head).values()) == [COLLECTION], head
    assert "changes what other tests see" in compare(units(base), units(head)).summary(), head


@pytest.mark.parametrize("body", DISTRUSTED + PARALLEL)
def test_a_call_between_a_store_and_its_restore_leaves_the_store(body: str) -> None:
    assert list(_new_roles(*_files(body)).values()) == [COLLECTION]


@pytest.mark.parametrize("body", OWN + RESTORED + ASSUMED)
@settings(max_examples=4)
@given(form=st.sampled_from(FORMS), before=st.booleans())
def test_a_store_into_the_tests_own_values_or_undone_is_a_new_test(
    body: str, form: str, before: bool
) -> None:
    base, head = _files(body, form, before)
    assert list(_new_roles(base, head).values()) == [CASE], head
    found = compare(units(base), units(head))
    assert found.ok and len(found.added) == 1, found.summary()


@pytest.mark.parametrize(("store", "own"), list(zip(STORES, (OWN + RESTORED) * 2, strict=False)))
def test_in_a_new_file_a_storing_test_reaches_the_packages_tests(store: str, own: str) -> None:
    """`go test` runs the files of a package in one process, `a_test.go`
    before `p_test.go`: a new file's storing test reaches the others."""
    text = HEADER + "\n" + FORMS[0].format(body=store)
    assert [u.name for u in reaching("a_test.go", units(text))] == ["TestA"], text
    quiet = HEADER + "\n" + FORMS[0].format(body=own)
    assert reaching("a_test.go", units(quiet)) == (), quiet


def test_an_aliased_os_import_is_still_os() -> None:
    base = 'package p\n\nimport (\n\tsys "os"\n\t"testing"\n)\n' + EXISTING.replace("os.", "sys.")
    head = base + '\nfunc TestA(t *testing.T) {\n\tsys.Setenv("GMODE", "x")\n}\n'
    assert list(_new_roles(base, head).values()) == [COLLECTION]
    local = base + '\nfunc TestA(t *testing.T) {\n\tos := fake{}\n\tos.Setenv("GMODE", "x")\n}\n'
    assert list(_new_roles(base, local).values()) == [CASE]


def test_a_suite_test_method_that_stores_shares_and_its_receiver_is_its_own() -> None:
    base = 'package p\n\nimport "testing"\n\ntype S struct{ n int }\n' + "var Limit = 1\n"
    stores = base + "\nfunc (s *S) TestA() {\n\tLimit = 2\n}\n"
    assert list(_new_roles(base, stores).values()) == [COLLECTION]
    own = base + "\nfunc (s *S) TestA() {\n\ts.n = 2\n}\n"
    assert list(_new_roles(base, own).values()) == [CASE]


@pytest.mark.skipif(shutil.which("go") is None, reason="needs go (the CI installs golang-go)")
def test_each_store_turns_a_later_red_test_green_and_each_restore_does_not_under_go_test(
    tmp_path: Path,
) -> None:
    """What the tests above refuse is real: under `go test`, a new test
    placed before an existing failing one, with one of the stores, makes it
    pass; with a restore, it still fails, and so does the file without the
    new test.  One module, a package a body, one `go test` run."""
    (tmp_path / "go.mod").write_text("module m\n\ngo 1.19\n", encoding="utf-8")
    expected: dict[str, bool] = {}  # package -> whether go test passes
    bodies = [(b, True) for b in STORES + ASSUMED] + [(b, False) for b in RESTORED + PARALLEL[:2]]
    bodies.append(("", False))
    for i, (body, passes) in enumerate(bodies):
        folder = tmp_path / f"p{i}"
        folder.mkdir()
        (folder / "p.go").write_text(PACKAGE, encoding="utf-8")
        test = HEADER + EXISTING if not body else _files(body)[1]
        (folder / "p_test.go").write_text(test, encoding="utf-8")
        expected[f"m/p{i}"] = passes
    output = run_go_test(tmp_path)
    got = {m[1]: m[0] == "ok" for m in re.findall(r"^(ok|FAIL)\s+(m/p\d+)", output, re.M)}
    assert set(got) == set(expected), output
    wrong = [(bodies[int(p[3:])][0], passes) for p, passes in expected.items() if got[p] != passes]
    assert not wrong, wrong


def test_go_s_own_setters_undo_themselves_and_main_or_init_setting_the_env_reaches() -> None:
    for body in ('t.Setenv("GMODE", "x")', 't.Chdir("/")'):
        assert list(_new_roles(*_files(body)).values()) == [CASE], body
    for name in ("TestMain(m *testing.M)", "init()"):
        text = HEADER + f'\nfunc {name} {{\n\told := os.Getenv("GMODE")\n'
        text += '\tos.Setenv("GMODE", "x")\n\tdefer os.Setenv("GMODE", old)\n}\n'
        assert [u.role for u in reaching("a_test.go", units(text))] == [COLLECTION], text


@pytest.mark.skipif(shutil.which("go") is None, reason="needs go (the CI installs golang-go)")
def test_a_parallel_test_of_the_package_never_sees_a_sequential_tests_restored_env(
    tmp_path: Path,
) -> None:
    """Why another test's `t.Parallel()` leaves a restore trusted: `go
    test` resumes a parallel test only once every sequential one has
    ended, so an existing parallel test placed before or after the new one
    still fails under go test, and the gate reads the new test as a case."""
    (tmp_path / "go.mod").write_text("module m\n\ngo 1.19\n", encoding="utf-8")
    existing = EXISTING.replace("{\n", "{\n\tt.Parallel()\n", 1)
    body = 'os.Setenv("GMODE", "x")\n\tdefer os.Unsetenv("GMODE")\n'
    body += "\ttime.Sleep(50 * time.Millisecond)"
    header = HEADER.replace('"testing"\n', '"testing"\n\t"time"\n', 1)
    for i, before in enumerate((True, False)):
        base = header + existing
        new = FORMS[0].format(body=body)
        head = header + "\n" + new + existing if before else base + "\n" + new
        assert list(_new_roles(base, head).values()) == [CASE], head
        folder = tmp_path / f"p{i}"
        folder.mkdir()
        (folder / "p.go").write_text(PACKAGE, encoding="utf-8")
        (folder / "p_test.go").write_text(head, encoding="utf-8")
    output = run_go_test(tmp_path)
    assert re.findall(r"^(ok|FAIL)\s+m/p\d+", output, re.M) == ["FAIL", "FAIL"], output
