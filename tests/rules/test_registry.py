"""The rule registry owns everything about kinds.

A toy kind, declared and registered here and nowhere else, is validated by
the loader (its parameters' types, defaults and unknown keys), shipped in
`gate schema`, documented in the rule reference, read (its file's texts)
by a real `gate check`, judged by `evaluate`, sorted by `gate lab`, and gone
again once unregistered.  No other file names it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from gate import rules
from gate.base.errors import GateError
from gate.base.text import lines
from gate.commands.cli import main
from gate.judge import evaluate
from gate.model.change import ChangeSet, FileChange, FileTexts
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.report import reference
from gate.research import lab
from gate.rubric.load import load_rubric_bytes
from gate.rules import kind as k
from gate.rules import text_wants
from gate.rules._common import param_int, param_str, result
from tests.gitrepo import RubricRepo

TOY = "toy_line_cap"

TOY_DOC = """`toy_line_cap`: a named file stays short.

Fails when `file` has more than `limit` lines at head.
"""


def toy_check(rule: Rule, changes: ChangeSet) -> RuleResult:
    path = param_str(rule, "file")
    limit = param_int(rule, "limit")
    texts = changes.texts.get(path)
    count = len(lines(texts.head)) if texts is not None else 0
    return result(rule, count <= limit, f"{count} lines; limit {limit}", paths=[path])


def toy_problem(params: Any) -> k.Problem | None:
    if params["file"].endswith(".bin"):
        return ("file",), '"file" names a binary file; name a text file'
    return None


def toy_kind() -> k.Kind:
    return k.Kind(
        name=TOY,
        check=toy_check,
        doc=TOY_DOC,
        parameters={
            "file": {"description": "The file to keep short.", "$ref": "#/$defs/file"},
            "limit": {
                "description": "The most lines it may have.",
                "$ref": "#/$defs/limit",
                "default": 3,
            },
        },
        reads=frozenset({k.PATHS, k.TEXTS}),
        texts_of=("file",),
        lab=k.BUDGET,
        param_problem=toy_problem,
    )


@pytest.fixture
def toy() -> Iterator[k.Kind]:
    kind = rules.register(toy_kind())
    try:
        yield kind
    finally:
        rules.unregister(TOY)


def toy_rubric(rule: str) -> bytes:
    return f"rules:\n  - {rule}\n  - {{id: GREEN, kind: must_include, token: ok}}\n".encode()


def refused(rule: str) -> str:
    with pytest.raises(GateError) as caught:
        load_rubric_bytes(toy_rubric(rule), "r.yml")
    return caught.value.message


def test_the_loader_takes_a_registered_kind_with_its_defaults(toy: k.Kind) -> None:
    rubric = load_rubric_bytes(toy_rubric(f"{{id: T, kind: {TOY}, file: notes.txt}}"), "r.yml")
    assert rubric.rules[0].kind == TOY
    assert dict(rubric.rules[0].params) == {"file": "notes.txt", "limit": 3}
    given = load_rubric_bytes(toy_rubric(f"{{id: T, kind: {TOY}, file: n, limit: 0}}"), "r.yml")
    assert given.rules[0].params["limit"] == 0
    # the files whose texts are read come from what the kind declares
    assert text_wants(rubric.rules).files == ("notes.txt",)


def test_the_loader_checks_a_registered_kinds_parameters(toy: k.Kind) -> None:
    label = f'r.yml:2: rule "T" ({TOY}):'
    assert refused(f"{{id: T, kind: {TOY}, file: n, limit: -1}}") == (
        f'invalid rubric: {label} "limit" must be >= 0, not -1'
    )
    assert refused(f"{{id: T, kind: {TOY}, file: n, limit: true}}").startswith(
        f'invalid rubric: {label} "limit" must be an integer, not a boolean'
    )
    assert refused(f"{{id: T, kind: {TOY}, limit: 2}}") == (
        f'invalid rubric: {label} missing key "file" (the file to keep short); add it'
    )
    assert refused(f"{{id: T, kind: {TOY}, file: n, paths: [x]}}") == (
        f'invalid rubric: {label} unknown key "paths"; allowed keys: id, kind, description, level, '
        "file, limit"
    )
    # the shared `file` type's own check, and the kind's param_problem
    assert "clean repo-relative path" in refused(f"{{id: T, kind: {TOY}, file: a/../b}}")
    assert refused(f"{{id: T, kind: {TOY}, file: x.bin}}") == (
        f'invalid rubric: {label} "file" names a binary file; name a text file'
    )
    # a parameter of this kind is refused for another
    assert "unknown key" in refused("{id: T, kind: max_files, limit: 1, file: n}")


def test_gate_schema_ships_a_registered_kind(
    toy: k.Kind, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$defs"]["kind"]["enum"][-1] == TOY
    (block,) = [
        b for b in schema["$defs"]["rule"]["allOf"] if b["if"]["properties"]["kind"]["const"] == TOY
    ]
    assert block["then"]["required"] == ["id", "kind", "file"]
    assert block["then"]["properties"]["limit"]["default"] == 3
    assert block["then"]["description"] == f"Parameters of kind '{TOY}'. A named file stays short."


def test_the_rule_reference_documents_a_registered_kind(toy: k.Kind) -> None:
    page = reference.render()
    assert f"| [`{TOY}`](#{TOY}) | A named file stays short. | `file`, `limit` |" in page
    section = reference.section(toy)
    assert section in page
    assert "| `file` | path | required | The file to keep short. |" in section
    assert "| `limit` | integer ≥ 0 | `3` | The most lines it may have. |" in section
    assert "Fails when `file` has more than `limit` lines at head." in section
    assert "the base and head text of `file`" in section


def test_evaluate_judges_a_registered_kind(toy: k.Kind) -> None:
    rubric = load_rubric_bytes(toy_rubric(f"{{id: T, kind: {TOY}, file: notes.txt}}"), "r.yml")
    for text, passed in (("a\nb\nc\n", True), ("a\nb\nc\nd", False)):
        changes = ChangeSet(
            files=(FileChange("notes.txt", added=4),),
            texts={"notes.txt": FileTexts(base="", head=text)},
            stdout="ok",
        )
        report = evaluate(rubric, changes)
        assert [(r.id, r.kind, r.passed) for r in report.results] == [
            ("T", TOY, passed),
            ("GREEN", "must_include", True),
        ]


def test_a_rule_built_by_hand_is_judged_with_its_kinds_defaults(toy: k.Kind) -> None:
    """`Kind.judge` hands the kind's defaults to a rule that leaves them out;
    the check itself reads only the rule (a rule module never reaches the
    registry)."""
    bare = Rule(id="T", kind=TOY, params={"file": "notes.txt"})
    loaded = load_rubric_bytes(toy_rubric(f"{{id: T, kind: {TOY}, file: notes.txt}}"), "r.yml")
    assert toy.complete(bare) == loaded.rules[0]
    assert toy.complete(loaded.rules[0]) is loaded.rules[0]
    assert toy.complete(Rule(id="T", kind=TOY, params={"file": "n", "limit": 0})).params == {
        "file": "n",
        "limit": 0,
    }
    changes = ChangeSet(
        files=(FileChange("notes.txt", added=4),),
        texts={"notes.txt": FileTexts(base="", head="a\nb\nc\nd\n")},
    )
    assert toy.judge(bare, changes).message == "4 lines; limit 3"
    with pytest.raises(KeyError):
        toy.check(bare, changes)


def test_gate_check_reads_the_texts_a_registered_kind_declares(
    toy: k.Kind, rubric_repo: RubricRepo
) -> None:
    rubric = f"rules:\n  - {{id: T, kind: {TOY}, file: notes.txt, limit: 2}}\n"
    rubric_repo.write(".github/blast-radius.yml", rubric)
    rubric_repo.write("notes.txt", "one\n")
    rubric_repo.commit("base")
    rubric_repo.git("checkout", "-q", "-b", "agent")
    rubric_repo.write("notes.txt", "one\ntwo\nthree\n")
    rubric_repo.commit("longer")
    checked = rubric_repo.check("main")
    report = checked.report
    assert checked.code == 1
    (toy_result,) = [r for r in report["results"] if r["id"] == "T"]
    assert toy_result == {
        "id": "T",
        "kind": TOY,
        "pass": False,
        "level": "fail",
        "message": "3 lines; limit 2",
        "paths": ["notes.txt"],
    }


def test_the_lab_buckets_a_registered_kind_by_its_declared_part(toy: k.Kind) -> None:
    assert TOY in rules.lab_kinds(k.BUDGET)
    rubric = load_rubric_bytes(toy_rubric(f"{{id: T, kind: {TOY}, file: n}}"), "r.yml")

    def bucket(stdout: str | None) -> str:
        long = ChangeSet(
            files=(FileChange("n", added=9),),
            texts={"n": FileTexts(base="", head="x\n" * 9)},
            stdout=stdout,
        )
        return lab.bucket_for(evaluate(rubric, long), rubric)

    assert bucket(None) == lab.THRASH  # over budget and tests red
    assert bucket("ok") == lab.KITCHEN_MOP  # over budget alone


def test_an_unregistered_kind_is_unknown_again(capsys: pytest.CaptureFixture[str]) -> None:
    kind = rules.register(toy_kind())
    assert load_rubric_bytes(toy_rubric(f"{{id: T, kind: {TOY}, file: n}}"), "r.yml")
    with pytest.raises(ValueError, match="already registered"):
        rules.register(toy_kind())
    rules.unregister(TOY)
    assert TOY not in rules.REGISTRY and kind not in rules.kinds()
    assert refused(f"{{id: T, kind: {TOY}, file: n}}").startswith(
        f'invalid rubric: r.yml:2: rule "T": unknown kind "{TOY}"; use one of: max_files,'
    )
    assert TOY not in reference.render()
    assert main(["schema"]) == 0
    assert TOY not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"name": "Toy"}, "lower-case letters"),
        ({"doc": "  "}, "needs documentation"),
        ({"parameters": {"id": {"description": "x"}}}, "not a usable parameter name"),
        ({"parameters": {"file": {"type": "string"}}}, "needs a description"),
        ({"reads": frozenset({k.PATHS})}, "exactly when TEXTS_OF, TEXT_FILES, TEXT_GLOBS or"),
        ({"reads": frozenset({"smell"})}, "READS must name"),
        ({"texts_of": ("nope",)}, "TEXTS_OF names ['nope']"),
        ({"globs": {"file": "fuzzy"}}, "GLOBS modes"),
        ({"from_rubric": {"limit": "tests"}}, "takes its default from"),
        ({"lab": "elsewhere"}, "LAB is one of"),
    ],
)
def test_a_kind_that_contradicts_itself_is_refused_when_declared(
    change: dict[str, Any], problem: str
) -> None:
    fields = {
        "name": TOY,
        "check": toy_check,
        "doc": TOY_DOC,
        "parameters": toy_kind().parameters,
        "reads": frozenset({k.PATHS, k.TEXTS}),
        "texts_of": ("file",),
        **change,
    }
    with pytest.raises(ValueError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        k.Kind(**fields)


def test_every_shipped_kind_is_declared_by_its_module() -> None:
    assert [kind.name for kind in rules.kinds()] == [m.KIND for m in rules.MODULES]
    for module, kind in zip(rules.MODULES, rules.kinds(), strict=True):
        assert kind.check is module.check
        assert kind.source == f"gate/rules/{module.KIND}.py"
        assert dict(kind.parameters) == module.PARAMETERS


def _sample(fragment: Any) -> Any:
    """A valid value for a parameter, from its schema fragment."""
    samples = {
        "#/$defs/globs": ["src/"],
        "#/$defs/file": "app.py",
        "#/$defs/symbols": ["main"],
        "#/$defs/limit": 1,
    }
    if "$ref" in fragment:
        return samples[fragment["$ref"]]
    if "enum" in fragment:
        return fragment["enum"][-1]
    return {"boolean": False, "string": "x", "integer": 1, "array": ["x"]}[fragment["type"]]


@pytest.mark.parametrize("kind", rules.kinds(), ids=lambda kind: kind.name)
def test_every_kind_loads_with_its_declared_defaults_and_requires_the_rest(kind: k.Kind) -> None:
    required = {key: _sample(kind.parameters[key]) for key in kind.required}
    rule = {"id": "R", "kind": kind.name, **required}
    loaded = load_rubric_bytes(json.dumps({"rules": [rule]}).encode(), "r.json").rules[0]
    expected = {**kind.defaults(), **{key: _tuple(v) for key, v in required.items()}}
    assert dict(loaded.params) == expected
    for key in kind.required:
        short = {name: value for name, value in rule.items() if name != key}
        with pytest.raises(GateError, match=f'missing key "{key}"'):
            load_rubric_bytes(json.dumps({"rules": [short]}).encode(), "r.json")
    for key in kind.parameters:
        misspelt = {**rule, key + "s": _sample(kind.parameters[key])}
        with pytest.raises(GateError, match=f'unknown key "{key}s"'):
            load_rubric_bytes(json.dumps({"rules": [misspelt]}).encode(), "r.json")


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def test_text_globs_read_the_written_files_they_match() -> None:
    """A kind's TEXT_GLOBS (test_drift's `paths`) and TEXT_MATCHING (its
    runner section files) make every source read the texts of the paths a
    change writes that they match: modified, added, deleted, both sides of
    a rename; in the parameter's GLOBS mode, TEXT_MATCHING folded; never a
    path of unknown status or a copy's source."""
    from gate.model.change import ADDED, COPIED, DELETED, RENAMED, UNKNOWN, FileChange, sides
    from gate.rules.test_drift import TEXT_FILES

    rubric = load_rubric_bytes(b"rules:\n  - {id: T, kind: test_drift, paths: [tests/]}\n", "r")
    wants = text_wants(rubric.rules)
    # the fixed reads: the root's runner configuration (what it collects)
    assert set(wants.files) == set(TEXT_FILES)
    files = [
        FileChange("Tests/test_a.py"),  # FOLDED: another letter case is a test path
        FileChange("tests/test_b.py", status=ADDED),
        FileChange("tests/test_c.py", status=DELETED),
        FileChange("tests/test_d.py", status=RENAMED, old_path="tests/test_e.py"),
        FileChange("tests/test_f.py", status=COPIED, old_path="tests/test_g.py"),
        FileChange("tests/test_h.py", status=UNKNOWN),
        FileChange("web/Package.JSON"),  # a runner section file, any depth, folded
        FileChange("pyproject.toml", status=RENAMED, old_path="old/pyproject.toml"),
        FileChange("src/app.py"),
    ]
    read = (
        "Tests/test_a.py",
        "old/pyproject.toml",
        "pyproject.toml",
        "tests/test_b.py",
        "tests/test_c.py",
        "tests/test_d.py",
        "tests/test_e.py",
        "tests/test_f.py",
        "web/Package.JSON",
    )
    # the fixed reads are not extra; the renamed root pyproject.toml is one
    assert wants.extra(files) == tuple(p for p in read if p != "pyproject.toml")
    # the modified code file, read apart where the source can (`TEXT_HINTS`)
    assert wants.hinted(files) == ("src/app.py",)
    assert wants.paths(files) == tuple(sorted({*read, *TEXT_FILES, "src/app.py"}))
    at = sides(files)
    assert at["tests/test_b.py"] == (False, True)
    assert at["tests/test_c.py"] == (True, False)
    assert (at["tests/test_e.py"], at["tests/test_d.py"]) == ((True, False), (False, True))
    assert at["Tests/test_a.py"] == (True, True)
    plain = load_rubric_bytes(b"rules:\n  - {id: F, kind: max_files, limit: 1}\n", "r")
    assert text_wants(plain.rules).extra(files) == ()
