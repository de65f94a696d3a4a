"""test_drift on tests that follow a rename the rest of the change made
everywhere (`gate.drift.identities`): a definition renamed in the code
under test, a Go module path renamed in go.mod, a Go dependency moved to
its next major version.  A test whose only edits spell those names anew
is unchanged.  Each shape has its hostile twins, which must still fail:
a switch to another function that existed at base, a new name the test
already spelled, a rename plus another edit, a go.mod that keeps the old
path or requires both, a rename applied in part, a source that still
spells the old name, texts the source cannot show."""

from __future__ import annotations

import keyword
import os
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gate.model.change import MODIFIED, ChangeSet, FileChange, FileTexts
from gate.model.rubric import DEFAULT_TESTS
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift", id="T", paths=[*DEFAULT_TESTS, "**/*.test.ts"])

# Unchanged cases beside the one that follows the rename.
PY_MORE = "".join(f"\n\ndef test_case_{n}():\n    assert {n} == {n}\n" for n in range(3))


def py_src(name: str, other: str = "") -> str:
    return f"def {name}(x):\n    return x > 0\n{other}"


def py_test(name: str, value: str = "1", extra: str = "") -> str:
    return (
        f"from unittest import mock\n\nfrom pkg.m import {name}\n\n\n"
        f"def test_it():\n    assert {name}({value})\n\n\n"
        f'def test_patched():\n    with mock.patch("pkg.m.{name}"):\n        pass\n'
        f"{extra}{PY_MORE}"
    )


def py_rename(old: str = "check", new: str = "verify", **head: str) -> Files:
    return Files(
        base={"pkg/m.py": py_src(old), "tests/test_m.py": py_test(old)},
        head={"pkg/m.py": py_src(new), "tests/test_m.py": py_test(new), **head},
    )


def py_method(name: str) -> str:
    return f"class Box:\n    def {name}(self):\n        return 1\n"


def py_method_test(name: str, value: str = "1") -> str:
    return f"from pkg.m import Box\n\n\ndef test_box():\n    assert Box().{name}() == {value}\n"


def go_src(name: str) -> str:
    return f"package x\n\ntype T struct{{}}\n\nfunc (t *T) {name}() int {{ return 1 }}\n"


def go_test(call: str, imports: str = '"example.com/app/x"', value: str = "1") -> str:
    return (
        f'package x_test\n\nimport (\n\t"testing"\n\n\t{imports}\n)\n\n'
        f"func TestT(t *testing.T) {{\n\tif {call} != {value} {{\n\t\tt.Fatal()\n\t}}\n}}\n"
    )


def go_mod(module: str = "example.com/app", *requires: str) -> str:
    required = "".join(f"\t{r}\n" for r in requires)
    return f"module {module}\n\ngo 1.21\n\nrequire (\n{required})\n"


def ts_src(name: str) -> str:
    return f"export function {name}(s: string): number {{\n  return s.length;\n}}\n"


def ts_test(name: str, value: str = "2") -> str:
    return (
        f"import {{ {name} }} from '../src/p';\n\n"
        f"it('counts', () => {{\n  expect({name}('ab')).toBe({value});\n}});\n"
        "\nit('other', () => {\n  expect(1).toBe(1);\n});\n"
    )


MOD = go_mod("example.com/app", "github.com/p/q v1.2.0")
MOD_V2 = go_mod("example.com/app", "github.com/p/q/v2 v2.0.0")
Q_TEST = go_test("q.Get()", '"github.com/p/q"\n\t"github.com/p/q/sub"')
Q_TEST_V2 = go_test("q.Get()", '"github.com/p/q/v2"\n\t"github.com/p/q/v2/sub"')

# --- what passes -------------------------------------------------------------

FOLLOWS = {
    "python function, its import, call and mock.patch target": py_rename(),
    "python method": Files(
        base={"pkg/m.py": py_method("size"), "tests/test_m.py": py_method_test("size")},
        head={"pkg/m.py": py_method("length"), "tests/test_m.py": py_method_test("length")},
    ),
    "python rename and a new test beside it": Files(
        base={"pkg/m.py": py_src("check"), "tests/test_m.py": py_test("check")},
        head={
            "pkg/m.py": py_src("verify"),
            "tests/test_m.py": py_test("verify", extra="\n\ndef test_new():\n    assert 2\n"),
        },
    ),
    "go method with a receiver": Files(
        base={"x/x.go": go_src("Size"), "x/x_test.go": go_test("(&x.T{}).Size()")},
        head={"x/x.go": go_src("Length"), "x/x_test.go": go_test("(&x.T{}).Length()")},
    ),
    "typescript function": Files(
        base={"src/p.ts": ts_src("parse"), "test/p.test.ts": ts_test("parse")},
        head={"src/p.ts": ts_src("parseAll"), "test/p.test.ts": ts_test("parseAll")},
    ),
    "go module path": Files(
        base={
            "go.mod": go_mod("example.com/app"),
            "x/x.go": go_src("Size"),
            "tests/a_test.go": go_test("(&x.T{}).Size()"),
        },
        head={
            "go.mod": go_mod("example.com/renamed"),
            "x/x.go": go_src("Size"),
            "tests/a_test.go": go_test("(&x.T{}).Size()", '"example.com/renamed/x"'),
        },
    ),
    "go module path in a helper no runner collects": Files(
        base={"go.mod": go_mod("example.com/app"), "tests/mocks/m.go": go_test("1")},
        head={
            "go.mod": go_mod("example.com/renamed"),
            "tests/mocks/m.go": go_test("1", '"example.com/renamed/x"'),
        },
    ),
    # a tools module that builds against the repository's own next major
    # version: the same local folder under the new path
    "go dependency's next major version, redirected to the same folder": Files(
        base={"go.mod": MOD + "\nreplace github.com/p/q => ../\n", "tests/q_test.go": Q_TEST},
        head={
            "go.mod": MOD_V2 + "\nreplace github.com/p/q/v2 => ../\n",
            "tests/q_test.go": Q_TEST_V2,
        },
    ),
    "go dependency's next major version, in a replace block": Files(
        base={
            "go.mod": MOD + "\nreplace (\n\tgithub.com/p/q => ../q\n)\n",
            "tests/q_test.go": Q_TEST,
        },
        head={
            "go.mod": MOD_V2 + "\nreplace (\n\tgithub.com/p/q/v2 => ../q\n)\n",
            "tests/q_test.go": Q_TEST_V2,
        },
    ),
    "go dependency's next major version": Files(
        base={"go.mod": MOD, "tests/q_test.go": Q_TEST},
        head={"go.mod": MOD_V2, "tests/q_test.go": Q_TEST_V2},
    ),
}


@pytest.mark.parametrize("name", sorted(FOLLOWS))
def test_a_test_that_follows_the_changes_rename_passes(name: str) -> None:
    CASE.passes(FOLLOWS[name])


@pytest.mark.parametrize("source", ["git", "patch"])
def test_both_builders_read_the_renamed_code(source: str) -> None:
    CASE.passes(FOLLOWS["python function, its import, call and mock.patch target"], source=source)
    CASE.passes(FOLLOWS["go module path"], source=source)


# --- hostile twins: each must still fail ---------------------------------------


def _twins() -> dict[str, Files]:
    base_py = {"pkg/m.py": py_src("check"), "tests/test_m.py": py_test("check")}
    both = py_src("check_strict", py_src("check_lenient"))
    base_go = {"go.mod": MOD, "tests/q_test.go": Q_TEST}
    return {
        # another function that existed at base: the test now checks something else
        "switched to an existing function, both kept": Files(
            base={"pkg/m.py": both, "tests/test_m.py": py_test("check_strict")},
            head={"pkg/m.py": both, "tests/test_m.py": py_test("check_lenient")},
        ),
        "switched to an existing function, the old one removed": Files(
            base={"pkg/m.py": both, "tests/test_m.py": py_test("check_strict")},
            head={
                "pkg/m.py": py_src("check_lenient"),
                "tests/test_m.py": py_test("check_lenient"),
            },
        ),
        # the new name meant something in the test already
        "the new name spelled in the test's base": Files(
            base={
                "pkg/m.py": py_src("check"),
                "tests/test_m.py": py_test("check", extra="\n\ndef verify(x):\n    return 1\n"),
            },
            head={
                "pkg/m.py": py_src("verify"),
                "tests/test_m.py": py_test("verify", extra="\n\ndef verify(x):\n    return 1\n"),
            },
        ),
        # the rename and an assertion's value in the same test
        "rename plus an edited assertion": Files(
            base=base_py,
            head={"pkg/m.py": py_src("verify"), "tests/test_m.py": py_test("verify", "-1")},
        ),
        "method rename plus an edited assertion": Files(
            base={"pkg/m.py": py_method("size"), "tests/test_m.py": py_method_test("size")},
            head={
                "pkg/m.py": py_method("length"),
                "tests/test_m.py": py_method_test("length", "2"),
            },
        ),
        # the test renames some uses only: the old name still spelled
        "applied in part": Files(
            base=base_py,
            head={
                "pkg/m.py": py_src("verify"),
                "tests/test_m.py": py_test("verify").replace('"pkg.m.verify"', '"pkg.m.check"'),
            },
        ),
        # the code under test keeps the old name, not as a forwarder (an alias
        # `check = verify` is one: see FORWARDS): no rename is proved
        "the source still spells the old name": Files(
            base=base_py,
            head={
                "pkg/m.py": py_src("verify", "\n\ndef check(x):\n    return not verify(x)\n"),
                "tests/test_m.py": py_test("verify"),
            },
        ),
        # nothing renamed at all: the test alone switches names
        "no source renames it": Files(
            base={**base_py, "pkg/n.py": py_src("verify")},
            head={
                "pkg/m.py": py_src("check"),
                "pkg/n.py": py_src("verify"),
                "tests/test_m.py": py_test("verify"),
            },
        ),
        "typescript rename plus an edited expectation": Files(
            base={"src/p.ts": ts_src("parse"), "test/p.test.ts": ts_test("parse")},
            head={"src/p.ts": ts_src("parseAll"), "test/p.test.ts": ts_test("parseAll", "3")},
        ),
        # go.mod keeps the module: the import names other code
        "go.mod keeps the old module": Files(
            base={"go.mod": go_mod("example.com/app"), "tests/a_test.go": go_test("x.F()")},
            head={
                "go.mod": go_mod("example.com/app", "example.com/renamed v1.0.0"),
                "tests/a_test.go": go_test("x.F()", '"example.com/renamed/x"'),
            },
        ),
        # the old module still required: `"example.com/app/x"` may mean its published copy
        "go.mod renames its module and requires the old one": Files(
            base={"go.mod": go_mod("example.com/app"), "tests/a_test.go": go_test("x.F()")},
            head={
                "go.mod": go_mod("example.com/renamed", "example.com/app v1.0.0"),
                "tests/a_test.go": go_test("x.F()", '"example.com/renamed/x"'),
            },
        ),
        "go.mod requires both P and P/v2": Files(
            base=base_go,
            head={
                "go.mod": go_mod(
                    "example.com/app", "github.com/p/q v1.2.0", "github.com/p/q/v2 v2.0.0"
                ),
                "tests/q_test.go": Q_TEST_V2,
            },
        ),
        "go.mod replaces P": Files(
            base={"go.mod": MOD + "\nreplace github.com/p/q => ../q\n", "tests/q_test.go": Q_TEST},
            head={
                "go.mod": MOD_V2 + "\nreplace github.com/p/q => ../q\n",
                "tests/q_test.go": Q_TEST_V2,
            },
        ),
        # redirected elsewhere at head, or a version of it, or both paths at once
        "go.mod redirects P and P/v2 to other folders": Files(
            base={"go.mod": MOD + "\nreplace github.com/p/q => ../q\n", "tests/q_test.go": Q_TEST},
            head={
                "go.mod": MOD_V2 + "\nreplace github.com/p/q/v2 => ../fork\n",
                "tests/q_test.go": Q_TEST_V2,
            },
        ),
        "go.mod redirects a version of P": Files(
            base={
                "go.mod": MOD + "\nreplace github.com/p/q v1.2.0 => ../q\n",
                "tests/q_test.go": Q_TEST,
            },
            head={
                "go.mod": MOD_V2 + "\nreplace github.com/p/q/v2 v2.0.0 => ../q\n",
                "tests/q_test.go": Q_TEST_V2,
            },
        ),
        "go.mod redirects P/v2 only at head": Files(
            base=base_go,
            head={
                "go.mod": MOD_V2 + "\nreplace github.com/p/q/v2 => ../q\n",
                "tests/q_test.go": Q_TEST_V2,
            },
        ),
        "go.mod redirects both paths at head": Files(
            base={"go.mod": MOD + "\nreplace github.com/p/q => ../q\n", "tests/q_test.go": Q_TEST},
            head={
                "go.mod": MOD_V2
                + "\nreplace github.com/p/q => ../q\nreplace github.com/p/q/v2 => ../q\n",
                "tests/q_test.go": Q_TEST_V2,
            },
        ),
        "go major version plus an edited value": Files(
            base=base_go,
            head={"go.mod": MOD_V2, "tests/q_test.go": Q_TEST_V2.replace("!= 1", "!= 2")},
        ),
        "go major version applied in part": Files(
            base=base_go,
            head={"go.mod": MOD_V2, "tests/q_test.go": Q_TEST_V2.replace("q/v2/sub", "q/sub")},
        ),
        "go major version going down": Files(
            base={"go.mod": MOD_V2, "tests/q_test.go": Q_TEST_V2},
            head={"go.mod": MOD, "tests/q_test.go": Q_TEST},
        ),
        # another module between the test and the go.mod the change renamed
        "a nested go.mod between": Files(
            base={
                "go.mod": go_mod("example.com/app"),
                "tests/go.mod": go_mod("example.com/tests"),
                "tests/a_test.go": go_test("x.F()"),
            },
            head={
                "go.mod": go_mod("example.com/renamed"),
                "tests/go.mod": go_mod("example.com/tests"),
                "tests/a_test.go": go_test("x.F()", '"example.com/renamed/x"'),
            },
        ),
        "go module renamed in a helper plus another edit": Files(
            base={"go.mod": go_mod("example.com/app"), "tests/mocks/m.go": go_test("1")},
            head={
                "go.mod": go_mod("example.com/renamed"),
                "tests/mocks/m.go": go_test("1", '"example.com/renamed/x"', value="2"),
            },
        ),
        # a name the test may take from a module it does not name
        "a star import in the test": Files(
            base={"pkg/m.py": py_src("check"), "tests/test_m.py": STAR + py_test("check")},
            head={"pkg/m.py": py_src("verify"), "tests/test_m.py": STAR + py_test("verify")},
        ),
        # a local variable is no name a test reaches: `res.count` is another thing
        "a local variable renamed in the source": Files(
            base={"src/p.ts": LOCAL.format("count"), "test/p.test.ts": USES.format("count")},
            head={"src/p.ts": LOCAL.format("total"), "test/p.test.ts": USES.format("total")},
        ),
    }


STAR = "from pkg.other import *\n"
LOCAL = "export function f(): number {{\n  let {0} = 1;\n  return {0};\n}}\n"
USES = (
    "import {{ f }} from '../src/p';\n\nit('f', () => {{\n"
    "  const res = f();\n  expect(res.{0}).toBe(1);\n}});\n"
)
TWINS = _twins()


@pytest.mark.parametrize("name", sorted(TWINS))
def test_a_hostile_twin_of_a_rename_fails(name: str) -> None:
    CASE.fails(TWINS[name], "changed")


def test_a_source_without_the_codes_texts_proves_nothing() -> None:
    """The test files' texts alone (a writer's listing, an API past its
    cap): the renamed code is not shown, the edit counts."""
    files = (
        FileChange("pkg/m.py", status=MODIFIED, added=1, deleted=1),
        FileChange("tests/test_m.py", status=MODIFIED, added=3, deleted=3),
    )
    test = FileTexts(py_test("check"), py_test("verify"))
    CASE.fails(ChangeSet(files=files, texts={"tests/test_m.py": test}), "changed")
    both = {"tests/test_m.py": test, "pkg/m.py": FileTexts(py_src("check"), py_src("verify"))}
    CASE.passes(ChangeSet(files=files, texts=both))
    # a symlink's text is its target's path, not code
    linked = (files[0]._replace(old_mode="120000", new_mode="120000"), files[1])
    CASE.fails(ChangeSet(files=linked, texts=both), "changed")


# --- generated: any pair of fresh names --------------------------------------

NAMES = st.from_regex(r"\A[a-z][a-z0-9_]{2,9}\Z").filter(
    lambda n: not keyword.iskeyword(n) and not n.startswith("test") and n not in WORDS
)
# every word of the files the generated changes write, which a name may not be
WORDS = {"from", "unittest", "mock", "pkg", "import", "def", "assert", "with", "patch",
         "pass", "return", "case", "it", "patched", "x", "m"}  # fmt: skip

SETTINGS = settings(
    max_examples=int(os.environ.get("N", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@SETTINGS
@given(old=NAMES, new=NAMES, value=st.sampled_from(["0", "2", "-1", "None"]))
def test_any_rename_passes_and_its_bent_twin_fails(old: str, new: str, value: str) -> None:
    assume(old != new and old not in new and new not in old)
    CASE.passes(py_rename(old, new))
    bent = py_rename(old, new, **{"tests/test_m.py": py_test(new, value)})
    CASE.fails(bent, "changed")
    # the new name existing at base beside the old one: a switch, not a rename
    switched = Files(
        base={"pkg/m.py": py_src(old, py_src(new)), "tests/test_m.py": py_test(old)},
        head={"pkg/m.py": py_src(new), "tests/test_m.py": py_test(new)},
    )
    CASE.fails(switched, "changed")


# --- what the sources read ---------------------------------------------------


def test_the_modified_code_files_are_read_apart_from_the_tests() -> None:
    """`TEXT_HINTS`: the code files a change modifies, read after the test
    files and runner configuration (never in `extra`, whose cap they would
    crowd), where the file keeps its path on both sides or is renamed
    (both paths: its old one read at base, its new one at head)."""
    from gate.model.change import ADDED, DELETED, RENAMED
    from gate.model.rubric import Rule
    from gate.rules import text_wants

    wants = text_wants([Rule(id="T", kind="test_drift", params={"paths": ["tests/"]})])
    files = (
        FileChange("pkg/m.py"),
        FileChange("pkg/N.GO"),  # folded: any letter case
        FileChange("web/p.tsx"),
        FileChange("tests/test_m.py"),  # a test file: read as one, not as a hint
        FileChange("pkg/new.py", status=ADDED),
        FileChange("pkg/gone.py", status=DELETED),
        FileChange("pkg/b.py", status=RENAMED, old_path="pkg/a.py"),
        FileChange("README.md"),
    )
    hinted = ("pkg/N.GO", "pkg/a.py", "pkg/b.py", "pkg/m.py", "web/p.tsx")
    assert wants.hinted(files) == hinted
    assert not set(wants.hinted(files)) & set(wants.extra(files))
    assert set(wants.hinted(files)) <= set(wants.paths(files))
    only = text_wants([Rule(id="M", kind="max_files", params={"max": 3})])
    assert only.hinted(files) == ()
    # no test file modified or renamed: no test is there to follow a rename
    code = [f for f in files if not f.path.startswith("tests/")]
    assert wants.hinted(code) == ()
    assert set(wants.paths(code)).isdisjoint(hinted)
    added = [*code, FileChange("tests/test_new.py", status=ADDED)]
    assert wants.hinted(added) == ()
    moved = [*code, FileChange("tests/b_test.py", status=RENAMED, old_path="tests/a_test.py")]
    assert wants.hinted(moved) == hinted


def _api_message(cap: int | None, monkeypatch: pytest.MonkeyPatch) -> str:
    """test_drift's message on a PR that renames `check` in `pkg/m.py`,
    read through the contents API (`read_file` a stand-in)."""
    from gate.changes import api
    from gate.github.client_types import PullFile
    from gate.model.rubric import Rule
    from gate.rules import REGISTRY, text_wants

    if cap is not None:
        monkeypatch.setattr(api, "HINT_READS", cap)
    files = py_rename()
    rule = Rule(id="T", kind="test_drift", params={"paths": ["tests/"]})

    def read_file(ref: str, path: str) -> bytes | None:
        text = (files.head if ref == "head" else files.base).get(path)
        return None if not isinstance(text, str) else text.encode()

    listed = [PullFile(p, "modified", 3, 3, 6, None, True) for p in sorted(files.base)]
    changes = api.changes_from_api(
        api.listing(listed, len(listed)),
        base="base",
        head="head",
        content_files=text_wants([rule]),
        read_file=read_file,
    )
    return REGISTRY["test_drift"].judge(rule, changes).message


def test_the_api_mode_reads_the_code_up_to_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "no test that exists at base was changed" in _api_message(None, monkeypatch)
    # past the cap the code is unread: the rename is not shown, the edit counts
    assert "tests/test_m.py: test_it changed" in _api_message(0, monkeypatch)


# --- a string that changes with a rename is a changed expectation -------------

# How a test may spell the renamed word inside a string it expects: no
# rename makes these the same test (`"error"` -> `"ok"` flips a check).
PY_STRINGS = ['"{0}"', "'{0}'", '"{0} passed"', '"""{0}"""', "'''ran {0}'''", "f'{0}'", 'r"{0}"']
TS_STRINGS = ["'{0}'", '"{0}"', "`{0} ran`", "`${{x}} {0}`"]


def _expects(text: str) -> str:
    return f"\n\ndef test_message():\n    assert describe() == {text}\n"


@pytest.mark.parametrize("form", PY_STRINGS)
def test_an_expected_string_renamed_with_the_code_still_fails(form: str) -> None:
    twin = py_rename(
        **{"tests/test_m.py": py_test("verify", extra=_expects(form.format("verify")))}
    )
    twin.base["tests/test_m.py"] = py_test("check", extra=_expects(form.format("check")))
    CASE.fails(twin, "test_message changed")


@pytest.mark.parametrize("form", TS_STRINGS)
def test_an_expected_ts_string_renamed_with_the_code_still_fails(form: str) -> None:
    def test(name: str, said: str) -> str:
        return ts_test(name) + f"\nit('says', () => {{\n  expect(say()).toBe({said});\n}});\n"

    twin = Files(
        base={"src/p.ts": ts_src("parse"), "test/p.test.ts": test("parse", form.format("parse"))},
        head={
            "src/p.ts": ts_src("parseAll"),
            "test/p.test.ts": test("parseAll", form.format("parseAll")),
        },
    )
    CASE.fails(twin, "changed")


def test_a_go_expected_string_renamed_with_the_code_still_fails() -> None:
    def test(call: str, said: str) -> str:
        return (
            go_test(call)
            + "\nfunc TestSays(t *testing.T) {\n"
            + f"\tif x.Say() != {said} {{\n\t\tt.Fatal()\n\t}}\n}}\n"
        )

    for said in ('"{0}"', "`{0}`"):
        twin = Files(
            base={
                "x/x.go": go_src("Size"),
                "x/x_test.go": test("(&x.T{}).Size()", said.format("Size")),
            },
            head={
                "x/x.go": go_src("Length"),
                "x/x_test.go": test("(&x.T{}).Length()", said.format("Length")),
            },
        )
        CASE.fails(twin, "changed")


# The old module still required, in each way go.mod can spell it (read
# through `gate.base.structured.go_mod_lines`): quoted, commented, on one
# line, after the block's `(`.
REQUIRES_OLD = [
    'require (\n\t"example.com/app" v1.0.0\n)\n',
    'require "example.com/app" v1.0.0 // indirect\n',
    "require example.com/app v1.0.0//indirect\n",
    "require ( example.com/app v1.0.0\n)\n",
    "require (\n\texample.com/app v1.0.0 // the old copy\n)\n",
]


@pytest.mark.parametrize("required", REQUIRES_OLD)
def test_a_renamed_module_that_still_requires_the_old_one_fails(required: str) -> None:
    CASE.fails(
        Files(
            base={"go.mod": go_mod("example.com/app"), "tests/a_test.go": go_test("x.F()")},
            head={
                "go.mod": f"module example.com/renamed\n\ngo 1.21\n\n{required}",
                "tests/a_test.go": go_test("x.F()", '"example.com/renamed/x"'),
            },
        ),
        "changed",
    )


@pytest.mark.parametrize(
    "module", ["module example.com/renamed // moved", 'module "example.com/renamed"']
)
def test_a_module_line_is_read_without_its_comment_or_quotes(module: str) -> None:
    CASE.passes(
        Files(
            base={"go.mod": go_mod("example.com/app"), "tests/a_test.go": go_test("x.F()")},
            head={
                "go.mod": f"{module}\n\ngo 1.21\n",
                "tests/a_test.go": go_test("x.F()", '"example.com/renamed/x"'),
            },
        )
    )


def _aligned(code: tuple[str, str], test: tuple[str, str]) -> tuple[bool, bool]:
    """`identities.align` on a change that edits `pkg/m.py` and
    `tests/test_m.py` (base, head texts): whether it replaced any unit,
    and whether the test then compares unchanged."""
    from gate.drift import compare, identities, units_for

    files = (
        FileChange("pkg/m.py", status=MODIFIED, added=1, deleted=1),
        FileChange("tests/test_m.py", status=MODIFIED, added=3, deleted=3),
    )
    texts = {"pkg/m.py": FileTexts(*code), "tests/test_m.py": FileTexts(*test)}
    base = units_for("tests/test_m.py", test[0])
    head = units_for("tests/test_m.py", test[1])
    assert base is not None and head is not None
    path = "tests/test_m.py"
    turned = identities.align(ChangeSet(files=files, texts=texts), path, path, test, base, head)
    return turned is not None, turned is not None and compare(turned, head).ok


RENAMED_CODE = (py_src("check"), py_src("verify"))
SAME_NAMES = (py_src("check", py_src("other")), py_src("check", py_src("other", "# x\n")))


@pytest.mark.parametrize(
    ("code", "test", "replaced", "same"),
    [
        (RENAMED_CODE, (py_test("check"), py_test("verify")), True, True),
        # a rename plus a changed expectation: replaced, and still a change
        (RENAMED_CODE, (py_test("check"), py_test("verify", "2")), True, False),
        # no rename in the code: nothing to replace
        (SAME_NAMES, (py_test("check"), py_test("check", "2")), False, False),
        # the test switches to a function that existed at base: no identity
        (SAME_NAMES, (py_test("check"), py_test("other")), False, False),
    ],
)
def test_align_says_whether_it_replaced_a_unit(
    code: tuple[str, str], test: tuple[str, str], replaced: bool, same: bool
) -> None:
    assert _aligned(code, test) == (replaced, same)


# --- forwarders: the old name kept, its body one call of the new ---------------

GO_GROW = "func (t *T) Grow(a int, b string) int {\n\treturn a + len(b)\n}\n"
GO_ADD = "func (t *T) Add(a int, b string) int {\n\treturn a + len(b)\n}\n"
GO_OTHER = "func (t *T) Other(a int, b string) int { return a }\n"
PY_LENGTH = (
    "    def length(self, a, b):\n        return a + len(b)\n\n"
    "    def other(self, a, b):\n        return a\n"
)


def go_code(*funcs: str) -> str:
    return "package x\n\ntype T struct{ n int }\n\n" + "\n".join(funcs)


def go_forward(wrapper: str, call: str = 'Grow(1, "b")', value: str = "2", also: str = "") -> Files:
    """`Add` of base kept at head as `wrapper`, beside a new `Grow` (and
    `also`); the test calls `call`."""
    return Files(
        base={"x/x.go": go_code(GO_ADD), "x/x_test.go": go_test('(&x.T{}).Add(1, "b")', value="2")},
        head={
            "x/x.go": go_code(wrapper, GO_GROW, also),
            "x/x_test.go": go_test(f"(&x.T{{}}).{call}", value=value),
        },
    )


def py_forward(wrapper: str, call: str = 'length(1, "b")', value: str = "2") -> Files:
    """`size` of base kept at head as `wrapper` (a method of `Box`) beside a new `length`."""
    size = "    def size(self, a, b):\n        return a + len(b)\n"
    return Files(
        base={
            "pkg/m.py": f"class Box:\n{size}",
            "tests/test_m.py": py_method_test('size(1, "b")', "2"),
        },
        head={
            "pkg/m.py": f"class Box:\n{wrapper}\n{PY_LENGTH}",
            "tests/test_m.py": py_method_test(call, value),
        },
    )


GO_WRAP = "func (t *T) Add(a int, b string) int {{\n\t{}\n}}\n"
PY_WRAP = "    def size(self, a, b):\n        {}\n"
BUBBLES_BASE = "func (m *Model) MoveLeft(cols int) {\n\tm.xOffset -= cols\n}\n"
BUBBLES_HEAD = (
    "// MoveLeft moves the viewport to the left.\n//\n// Deprecated: use [Model.ScrollLeft].\n"
    "func (m *Model) MoveLeft(cols int) {\n\tm.ScrollLeft(cols)\n}\n\n"
    "func (m *Model) ScrollLeft(n int) {\n\tm.xOffset -= n\n}\n"
)


def bubbles_test(call: str) -> str:
    return (
        'package viewport\n\nimport "testing"\n\nfunc TestMoveLeft(t *testing.T) {\n'
        f"\tm := &Model{{xOffset: 6}}\n\t{call}\n\tif m.xOffset != 0 {{\n\t\tt.Fatal()\n\t}}\n}}\n"
    )


def bubbles(head_test: str, code: str = BUBBLES_HEAD) -> Files:
    model = "package viewport\n\ntype Model struct{ xOffset int }\n\n"
    return Files(
        base={"v/v.go": model + BUBBLES_BASE, "v/v_test.go": bubbles_test("m.MoveLeft(6)")},
        head={"v/v.go": model + code, "v/v_test.go": head_test},
    )


FORWARDS = {
    # charmbracelet/bubbles c7f889e364e1's LineDown -> ScrollDown: the old name a
    # deprecated wrapper of the new one, the tests calling the new
    "go method kept as a deprecated wrapper (bubbles)": bubbles(bubbles_test("m.ScrollLeft(6)")),
    "go wrapper on one line": go_forward(
        "func (t *T) Add(a int, b string) int { return t.Grow(a, b) }\n"
    ),
    "go wrapper with a comment": go_forward(
        GO_WRAP.format("// Deprecated: use Grow.\n\treturn t.Grow(a, b)")
    ),
    "go grouped parameters": Files(
        base={
            "x/x.go": go_code("func Sum(a, b int) int { return a + b }\n"),
            "x/x_test.go": go_test("x.Sum(1, 1)", value="2"),
        },
        head={
            "x/x.go": go_code(
                "func Sum(a, b int) int { return Total(a, b) }\n",
                "func Total(a, b int) int { return a + b }\n",
            ),
            "x/x_test.go": go_test("x.Total(1, 1)", value="2"),
        },
    ),
    "go variadic function": Files(
        base={
            "x/x.go": go_code("func Sum(xs ...int) int { return len(xs) }\n"),
            "x/x_test.go": go_test("x.Sum(1, 1)", value="2"),
        },
        head={
            "x/x.go": go_code(
                "func Sum(xs ...int) int {\n\treturn Total(xs...)\n}\n",
                "func Total(xs ...int) int { return len(xs) }\n",
            ),
            "x/x_test.go": go_test("x.Total(1, 1)", value="2"),
        },
    ),
    "python method with a docstring": py_forward(
        PY_WRAP.format('"""Deprecated: use length."""\n        return self.length(a, b)')
    ),
    "python method passing *args and **kwargs": py_forward(
        "    def size(self, *args, **kwargs):\n        return self.length(*args, **kwargs)\n"
    ),
    "python module alias": Files(
        base={"pkg/m.py": py_src("check"), "tests/test_m.py": py_test("check")},
        head={
            "pkg/m.py": py_src("verify", "\n\ncheck = verify\n"),
            "tests/test_m.py": py_test("verify"),
        },
    ),
    "python function": Files(
        base={"pkg/m.py": py_src("check"), "tests/test_m.py": py_test("check")},
        head={
            "pkg/m.py": py_src("verify", "\n\ndef check(x):\n    return verify(x)\n"),
            "tests/test_m.py": py_test("verify"),
        },
    ),
}


@pytest.mark.parametrize("name", sorted(FORWARDS))
def test_a_test_that_follows_a_forwarder_passes(name: str) -> None:
    CASE.passes(FORWARDS[name])


# Bodies of a wrapper that do something else than pass through: each a
# hostile twin in both languages ({r}: the receiver, {a}, {b}: the parameters).
NOT_FORWARDING = {
    "another statement first": "{r}n = 1\n{i}return {r}Grow({a}, {b})",
    "an argument changed": "return {r}Grow({a} + 1, {b})",
    "the arguments reordered": "return {r}Grow({b}, {a})",
    "an argument dropped": "return {r}Grow({a})",
    "a constant added": "return {r}Grow({a}, {b}, 0)",
    "a constant instead of an argument": 'return {r}Grow({a}, "b")',
    "another receiver": "return {o}Grow({a}, {b})",
    "its result not returned": "{r}Grow({a}, {b})",
    "a third name": "return {r}Other({a}, {b})",
    "a warning first": 'warnings.warn("deprecated")\n{i}return {r}Grow({a}, {b})',
}


def _go_twin(body: str) -> Files:
    text = body.format(r="t.", o="(&T{}).", a="a", b="b", i="\t")
    return go_forward(GO_WRAP.format(text), also=GO_OTHER)


def _py_twin(body: str) -> Files:
    text = body.format(r="self.", o="Box().", a="a", b="b", i="        ")
    return py_forward(PY_WRAP.format(text.replace("Grow", "length").replace("Other", "other")))


@pytest.mark.parametrize("name", sorted(NOT_FORWARDING))
def test_a_wrapper_that_does_more_than_forward_still_fails(name: str) -> None:
    CASE.fails(_go_twin(NOT_FORWARDING[name]), "changed")
    CASE.fails(_py_twin(NOT_FORWARDING[name]), "changed")


def _twins_of_forwarders() -> dict[str, Files]:
    wrapper = GO_WRAP.format("return t.Grow(a, b)")
    py_wrapper = PY_WRAP.format("return self.length(a, b)")
    partial = Files(
        base={
            "x/x.go": go_code(GO_ADD),
            "x/x_test.go": go_test('(&x.T{}).Add(1, "b")', value='(&x.T{}).Add(1, "b")'),
        },
        head={
            "x/x.go": go_code(wrapper, GO_GROW),
            "x/x_test.go": go_test('(&x.T{}).Grow(1, "b")', value='(&x.T{}).Add(1, "b")'),
        },
    )
    two = go_code(GO_ADD, GO_ADD.replace("Add", "Plus"))
    both_test = go_test('(&x.T{}).Add(1, "b")', value='(&x.T{}).Plus(1, "b")')
    return {
        "go: the test changes an argument too": go_forward(wrapper, 'Grow(2, "b")', "3"),
        "go: the test changes its expectation too": go_forward(wrapper, value="3"),
        "python: the test changes an argument too": py_forward(py_wrapper, 'length(2, "b")', "3"),
        "python: the test changes its expectation too": py_forward(py_wrapper, value="3"),
        "go: the test keeps one call of the old name": partial,
        "go: the new name defined in no code file of the change": Files(
            base=go_forward(wrapper).base,
            head=go_forward(wrapper).head | {"x/x.go": go_code(wrapper)},
        ),
        "python: the new name defined in no code file of the change": Files(
            base=py_forward(py_wrapper).base,
            head=py_forward(py_wrapper).head | {"pkg/m.py": f"class Box:\n{py_wrapper}"},
        ),
        "go: a value receiver forwards to a pointer one": go_forward(
            wrapper.replace("(t *T) Add", "(t T) Add")
        ),
        "go: two old names forward to one new": Files(
            base={"x/x.go": two, "x/x_test.go": both_test},
            head={
                "x/x.go": go_code(wrapper, wrapper.replace("Add", "Plus"), GO_GROW),
                "x/x_test.go": go_test('(&x.T{}).Grow(1, "b")', value='(&x.T{}).Grow(1, "b")'),
            },
        ),
        "go: the old name defined twice at head": go_forward(
            wrapper, also="func Add(a int, b string) int { return 0 }\n"
        ),
        "python: a decorated wrapper": py_forward(f"    @functools.cache\n{py_wrapper}"),
        "python: a default added": py_forward(py_wrapper.replace("a, b)", "a, b=1)", 1)),
        "python: a warning first": py_forward(
            PY_WRAP.format('warnings.warn("use length")\n        return self.length(a, b)')
        ),
        "python: an alias to a name no code of the change defines": Files(
            base={"pkg/m.py": py_src("check"), "tests/test_m.py": py_test("check")},
            head={"pkg/m.py": "check = verify\n", "tests/test_m.py": py_test("verify")},
        ),
        "python: the old name bound again after its alias": Files(
            base={"pkg/m.py": py_src("check"), "tests/test_m.py": py_test("check")},
            head={
                "pkg/m.py": py_src("verify", "\n\ncheck = verify\ncheck = str\n"),
                "tests/test_m.py": py_test("verify"),
            },
        ),
    }


FORWARD_TWINS = _twins_of_forwarders()

# A code file whose words the test's base never spells, forwarding an old
# name of its own to the new name of the test's identity: two pairs for one
# new name hold neither (the identities read lazily must still see it).
GO_ELSEWHERE = (
    "package y\n\ntype U struct{}\n\nfunc (u *U) Plus(a int, b string) int { return a }\n",
    "package y\n\ntype U struct{}\n\nfunc (u *U) Plus(a int, b string) int { return u.Grow(a, b) }"
    "\n\nfunc (u *U) Grow(a int, b string) int { return a }\n",
)
PY_ELSEWHERE = ("def probe(x):\n    return x\n", "def probe(x):\n    return verify(x)\n")
GO_RENAME = Files(
    base={"x/x.go": go_code(GO_ADD), "x/x_test.go": go_test('(&x.T{}).Add(1, "b")', value="2")},
    head={"x/x.go": go_code(GO_GROW), "x/x_test.go": go_test('(&x.T{}).Grow(1, "b")', value="2")},
)
FOLLOWED = {
    "go: the test follows a forwarder": (FORWARDS["go wrapper on one line"], "y/y.go"),
    "go: the test follows a rename": (GO_RENAME, "y/y.go"),
    "python: the test follows a forwarder": (FORWARDS["python function"], "pkg/n.py"),
    "python: the test follows a rename": (py_rename(), "pkg/n.py"),
}
for _name, (_files, _other) in FOLLOWED.items():
    _texts = GO_ELSEWHERE if _other.endswith(".go") else PY_ELSEWHERE
    FORWARD_TWINS[f"{_name}, another file forwards its old name to the same new"] = Files(
        base=_files.base | {_other: _texts[0]}, head=_files.head | {_other: _texts[1]}
    )


@pytest.mark.parametrize("name", sorted(FOLLOWED))
def test_the_shape_of_a_twin_forwarded_elsewhere_passes_alone(name: str) -> None:
    CASE.passes(FOLLOWED[name][0])


@pytest.mark.parametrize("name", sorted(FORWARD_TWINS))
def test_a_hostile_twin_of_a_forwarder_fails(name: str) -> None:
    CASE.fails(FORWARD_TWINS[name], "changed")


# Pieces of code files: definition lines of each language `_defined`
# reads, blank-line runs that cut a text into the blocks it keeps.
_PIECES = st.sampled_from(
    [
        "def run(x):\n",
        "class Run:\n",
        "    def run(self):\n",
        "func (r *T) Run(a int) int {\n",
        "func Run(a int) {\n",
        "public int run(int a) {\n",
        "    private static void Run(\n",
        "export const run = 1\n",
        "type Run struct{}\n",
        "    return run(x)\n",
        "é = Run\n",
        "\n",
        "\n\n\n",
        "\n\n\n\n",
        "x",
        " ",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=30).map("".join), min_size=1, max_size=4))
def test_words_and_definitions_read_block_by_block_are_the_whole_texts(
    versions: list[str],
) -> None:
    """A file's versions read one after another (blocks kept from the
    last, some dropped: a small budget) find what the whole text does."""
    from gate.drift import identities

    saved = identities._BLOCK_DEFINED, identities._BLOCK_WORDS
    identities._BLOCK_DEFINED = identities._ByBlock(identities._block_defined, 60)
    identities._BLOCK_WORDS = identities._ByBlock(identities._block_words, 60)
    try:
        for text in [*versions, *versions]:
            whole: dict[str, list[object]] = {}
            for found in identities._block_defined(text):
                for name, definition in found:
                    whole.setdefault(name, []).append(definition)
            got = identities._defined(text)
            assert list(got.items()) == list(whole.items())
            assert identities._words.__wrapped__(text) == frozenset(re.findall(r"\w+", text))
            for kept in (identities._BLOCK_DEFINED, identities._BLOCK_WORDS):
                assert kept.size == sum(map(len, kept.held)) <= 60
    finally:
        identities._BLOCK_DEFINED, identities._BLOCK_WORDS = saved
