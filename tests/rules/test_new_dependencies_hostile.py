"""new_dependencies, hostile twins: the same new dependency or new source
written to slip past (another spelling of a name, a source dressed as a
version, an index option in another form, a replace or a git dependency
in another table, encodings and JSON/TOML tricks), generated, each judged
through a real git repository; and `gate check` end to end."""

from __future__ import annotations

import itertools
import json

import pytest

from tests.gitrepo import RubricRepo
from tests.rulecase import RuleCase, edit

CASE = RuleCase("new_dependencies", id="DEPS")


def _spellings(name: str) -> list[str]:
    """Every spelling PEP 503 folds into `name` (a `-`-separated lower-case
    name): each separator as `-`, `_`, `.` or a run, each word in three cases."""
    words = name.split("-")
    out = set()
    for seps in itertools.product(["-", "_", ".", "_-", "--"], repeat=len(words) - 1):
        for case in (str.lower, str.upper, str.title):
            spelled = case(words[0])
            for sep, word in zip(seps, words[1:], strict=True):
                spelled += sep + case(word)
            out.add(spelled)
    return sorted(out)


SPELLINGS = _spellings("requests-toolbelt")


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_python_spellings_of_an_existing_name_are_that_name(spelling: str) -> None:
    CASE.passes(edit("requirements.txt", "requests-toolbelt==1.0\n", f"{spelling}==1.0\n"))


@pytest.mark.parametrize("spelling", SPELLINGS[::7])
def test_python_spellings_of_a_new_name_are_named(spelling: str) -> None:
    CASE.fails(edit("requirements.txt", "requests\n", f"requests\n{spelling}\n"), spelling)
    CASE.passes(edit("requirements.txt", "requests\n", f"requests\n{spelling}\n"),
                allow=["Requests_Toolbelt"])  # fmt: skip


# A name one letter away is another package (typosquatting), never the same.
NEAR = ["request", "requestss", "reqeusts", "re-quests", "requests2", "python-requests"]


@pytest.mark.parametrize("near", NEAR)
def test_a_name_one_letter_away_is_new(near: str) -> None:
    base = "[project]\ndependencies = ['requests']\n"
    head = f"[project]\ndependencies = ['{near}']\n"
    CASE.fails(edit("pyproject.toml", base, head), f'"{near}" (any version) added')


NPM_SOURCES = [
    "git+https://github.com/evil/left-pad.git",
    "git+ssh://git@github.com/evil/left-pad.git#v1.3.0",
    "git://github.com/evil/left-pad.git",
    "github:evil/left-pad",
    "gitlab:evil/left-pad",
    "bitbucket:evil/left-pad",
    "evil/left-pad",
    "evil/left-pad#semver:^1.3.0",
    "https://evil.example/left-pad-1.3.0.tgz",
    "http://evil.example/left-pad.tgz",
    "file:../left-pad",
    "file:left-pad-1.3.0.tgz",
    "link:../left-pad",
    "npm:left-pad-evil@1.3.0",
    "npm:@evil/left-pad@^1.3.0",
    "portal:../left-pad",
    "./left-pad",
    "~/left-pad",
    "/tmp/left-pad",
    "1.3.0 || github:evil/left-pad",
]
SECTIONS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]


@pytest.mark.parametrize(
    ("spec", "section"), [(s, SECTIONS[i % 4]) for i, s in enumerate(NPM_SOURCES)]
)
def test_an_npm_source_dressed_as_a_version_is_named(spec: str, section: str) -> None:
    base = json.dumps({section: {"left-pad": "^1.3.0"}})
    head = json.dumps({section: {"left-pad": spec}})
    CASE.fails(edit("package.json", base, head), "now from")


@pytest.mark.parametrize("name", ["Left-pad", "left_pad", "LEFT-PAD", "left-pad "])
def test_npm_names_are_compared_as_written(name: str) -> None:
    base = json.dumps({"dependencies": {"left-pad": "^1.3.0"}})
    head = json.dumps({"dependencies": {name: "^1.3.0"}})
    CASE.fails(edit("package.json", base, head), "added")


INDEX_OPTIONS = ["-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--trusted-host"]


@pytest.mark.parametrize(
    ("option", "form", "where"),
    list(itertools.product(INDEX_OPTIONS, [" ", "=", "  "], ["first", "after", "commented"])),
)
def test_an_index_added_to_requirements_is_named(option: str, form: str, where: str) -> None:
    line = f"{option}{form}https://evil.example/simple"
    head = {
        "first": f"{line}\nrequests\n",
        "after": f"requests\n{line}\n",
        "commented": f"# mirror\n{line}  # faster\nrequests\n",
    }[where]
    CASE.fails(
        edit("requirements/base.txt", "requests\n", head), 'index "https://evil.example/simple"'
    )


GO = "module example.com/app\n\ngo 1.22\n\nrequire github.com/a/b v1.0.0\n"
REPLACES = [
    "replace github.com/a/b => ../b\n",
    "replace github.com/a/b v1.0.0 => ../b\n",
    "replace github.com/a/b => github.com/evil/b v1.0.0\n",
    "replace (\n\tgithub.com/a/b => ./vendor/b\n)\n",
    'replace "github.com/a/b" => "../b"\n',
    "replace github.com/a/b => /abs/b // local\n",
    "replace (\n\t// a fork\n\tgithub.com/a/b v1.0.0 => github.com/evil/b v1.0.1\n)\n",
]


@pytest.mark.parametrize("replace", REPLACES)
def test_a_go_replace_is_a_new_source(replace: str) -> None:
    CASE.fails(edit("go.mod", GO, GO + replace), '"github.com/a/b" in "go.mod" replace now from')


@pytest.mark.parametrize("replace", REPLACES)
def test_a_go_replace_in_a_nested_module(replace: str) -> None:
    CASE.fails(edit("tools/cmd/go.mod", GO, GO + replace), '"tools/cmd/go.mod"')


CARGO = '[package]\nname = "app"\n\n[dependencies]\nserde = "1"\n'
CARGO_SOURCES = [
    '{ git = "https://github.com/evil/serde" }',
    '{ git = "https://github.com/evil/serde", rev = "abc123" }',
    '{ version = "1", git = "https://github.com/evil/serde", tag = "v1" }',
    '{ path = "../serde" }',
    '{ version = "1", registry = "evil" }',
]
CARGO_TABLES = [
    "dependencies",
    "dev-dependencies",
    "build-dependencies",
    "target.'cfg(windows)'.dependencies",
    'target."x86_64-unknown-linux-gnu".dev-dependencies',
    "patch.crates-io",
]


@pytest.mark.parametrize(("source", "table"), list(itertools.product(CARGO_SOURCES, CARGO_TABLES)))
def test_a_cargo_git_path_or_registry_dependency_is_a_new_source(source: str, table: str) -> None:
    head = CARGO + f"\n[{table}]\nserde_derive_x = {source}\n".replace("serde_derive_x", "serde")
    if table == "dependencies":
        head = CARGO.replace('serde = "1"', f"serde = {source}")
    CASE.fails(edit("Cargo.toml", CARGO, head), "now from")


# The same new dependency in every format, behind encodings that change nothing.
NEW_IN = {
    "package.json": (
        '{"dependencies": {"a": "1"}}\n',
        '{"dependencies": {"a": "1", "evil": "1"}}\n',
    ),
    "pyproject.toml": (
        "[project]\ndependencies = ['a']\n",
        "[project]\ndependencies = ['a', 'evil']\n",
    ),
    "requirements.txt": ("a\n", "a\nevil\n"),
    "setup.cfg": (
        "[options]\ninstall_requires =\n  a\n",
        "[options]\ninstall_requires =\n  a\n  evil\n",
    ),
    "Pipfile": ('[packages]\na = "*"\n', '[packages]\na = "*"\nevil = "*"\n'),
    "go.mod": (
        "module m\n\nrequire a.example/a v1.0.0\n",
        "module m\n\nrequire a.example/a v1.0.0\nrequire evil v1.0.0\n",
    ),
    "Cargo.toml": ('[dependencies]\na = "1"\n', '[dependencies]\na = "1"\nevil = "1"\n'),
    "composer.json": (
        '{"require": {"a/a": "1"}}\n',
        '{"require": {"a/a": "1", "evil/evil": "1"}}\n',
    ),
    "Gemfile": ('gem "a"\n', 'gem "a"\ngem "evil"\n'),
    "app.gemspec": (
        'Gem::Specification.new do |s|\n  s.add_dependency "a"\nend\n',
        'Gem::Specification.new do |s|\n  s.add_dependency "a"\n  s.add_dependency "evil"\nend\n',
    ),
}
ENCODINGS = {
    "plain": lambda t: t,
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "bom": lambda t: "\ufeff" + t,
    "bom+crlf": lambda t: "\ufeff" + t.replace("\n", "\r\n"),
}


@pytest.mark.parametrize(
    ("path", "encoding"), list(itertools.product(sorted(NEW_IN), sorted(ENCODINGS)))
)
def test_an_encoding_hides_no_dependency_and_adds_none(path: str, encoding: str) -> None:
    base, head = NEW_IN[path]
    code = ENCODINGS[encoding]
    CASE.fails(edit(path, base, code(head)), "evil")
    CASE.passes(edit(path, base, code(base) + ("\n" if encoding == "plain" else "")))


@pytest.mark.parametrize("path", sorted(NEW_IN))
def test_a_renamed_manifest_that_gains_a_dependency_names_it(path: str) -> None:
    base, head = NEW_IN[path]
    padding = {"Gemfile": "# pad\n", "go.mod": "// pad\n", "package.json": "", "composer.json": ""}
    pad = padding.get(path, "# pad\n") * 30
    folder = "sub/" if path != "requirements.txt" else "requirements/"
    new_path = folder + (path if path != "requirements.txt" else "prod.txt")
    changed = CASE.check(edit(path, pad + base if pad else base, None)
                         | edit(new_path, None, pad + head if pad else head))  # fmt: skip
    assert not changed.passed and "evil" in changed.message, changed.message


@pytest.mark.parametrize(
    "text",
    [
        '{"dependencies": {"a": "1"}, "dependencies": {"a": "1", "evil": "1"}}',
        '{"dependencies": {"a": "1", /* x */ "evil": "1"}}',
        '{"dependencies": {"a": "1", "evil": "1",}}',
        "{'dependencies': {'a': '1'}}",
        '{"dependencies": {"a": "1"}} {"dependencies": {"evil": "1"}}',
        "",
        "[]",
    ],
)
def test_json_that_npm_might_read_otherwise_fails_closed(text: str) -> None:
    CASE.fails(edit("package.json", '{"dependencies": {"a": "1"}}\n', text), "cannot be read")


@pytest.mark.parametrize(
    "text",
    [
        "[project]\ndependencies = ['a']\ndependencies = ['evil']\n",
        "[project]\ndependencies = ['a']\n[project]\nname = 'x'\n",
        "[project]\ndependencies = ['a',\n",
        "[project]\ndependencies = ['a'] # ok\n[tool.uv.sources]\na = { git = 'x' }\na = 1\n",
    ],
)
def test_toml_duplicates_and_breakage_fail_closed(text: str) -> None:
    CASE.fails(edit("pyproject.toml", "[project]\ndependencies = ['a']\n", text), "not valid TOML")


@pytest.mark.parametrize(
    "path",
    [
        "Requirements.txt",
        "REQUIREMENTS-DEV.TXT",
        "web/Package.json",
        "Go.mod",
        "CARGO.TOML",
        "pipfile",
        "gems/App.GemSpec",
    ],
)
def test_a_manifest_in_another_letter_case_is_read(path: str) -> None:
    """A case-insensitive checkout (macOS, Windows) reads it as the manifest."""
    leaf = path.rsplit("/", 1)[-1].lower()
    named = {"cargo.toml": "Cargo.toml", "pipfile": "Pipfile"}.get(leaf, leaf)
    base, head = NEW_IN["requirements.txt" if leaf.endswith(".txt") else named]
    CASE.fails(edit(path, base, head), "evil")


@pytest.mark.parametrize(
    "hidden",
    [
        "# pinned by the lock \\\nevil-pkg\n",
        "requests  # http \\\nevil-pkg\n",
        "#\\\nevil-pkg==1\n",
    ],
)
def test_a_comment_ending_in_a_backslash_hides_no_line(hidden: str) -> None:
    """pip joins no comment line to the next: the line after it is read."""
    CASE.fails(edit("requirements.txt", "requests\n", "requests\n" + hidden), '"evil-pkg"')


GEMSPEC = 'Gem::Specification.new do |spec|\n  spec.add_dependency "a"\n'
# A gemspec's call, spelled every way Ruby reads the same: receiver and
# spacing, method, quotes and parentheses, what follows the call.
GEM_CALLS = [
    f"{receiver}{method}{open_}{name}{args}{close}{after}"
    for receiver, method, (open_, close), name, args, after in itertools.product(
        ["spec.", "  s . ", "\tgem.", "spec.\\\n  "],
        ["add_dependency", "add_runtime_dependency", "add_development_dependency"],
        [(" ", ""), ("(", ")"), ("( ", " )"), ("", ""), ("(\n    ", ",\n  )")],
        ['"evil"', "'evil'", "%q<evil>.freeze", "%q{evil}", "%Q[evil]", "%(evil)"],
        ["", ', ">= 1"', ",\n    '~> 1', '>= 1.2'"],
        ["", "  # a comment", ' if RUBY_VERSION >= "3"', "; spec.add_dependency 'a'"],
    )
][::71]  # 61 of 4320, every value of each column


@pytest.mark.parametrize("call", GEM_CALLS)
def test_a_gemspec_call_in_any_spelling_is_named(call: str) -> None:
    CASE.fails(edit("app.gemspec", GEMSPEC + "end\n", GEMSPEC + call + "\nend\n"), '"evil"')
    crlf = (GEMSPEC + call + "\nend\n").replace("\n", "\r\n")
    CASE.fails(edit("gems/x/app.gemspec", GEMSPEC + "end\n", crlf), '"evil"')


@pytest.mark.parametrize(
    "hidden",
    [
        "spec.add_dependency name",
        "spec.add_dependency(*%w[evil])",
        "%w[a evil].each { |d| spec.add_dependency d }",
        "%w[a evil].each do |d|\n  spec.add_runtime_dependency(d)\nend",
        'spec.add_dependency "ev" "il"',
        "spec.add_dependency 'ev' + 'il'",
        'spec.add_dependency "#{PREFIX}evil"',
        'spec.add_dependency "\\x65vil"',
        'spec.send(:add_dependency, "evil")',
        'spec.__send__ :add_development_dependency, "evil"',
        'spec.dependencies << Gem::Dependency.new("evil")',
    ],
)
def test_a_gemspec_dependency_ruby_computes_fails_closed(hidden: str) -> None:
    """Ruby can compute a gemspec; a call naming its gem other than by a
    string literal is not guessed at: the file cannot be read."""
    head = GEMSPEC + hidden + "\nend\n"
    CASE.fails(edit("app.gemspec", GEMSPEC + "end\n", head), '"app.gemspec" cannot be read')


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ("app.gemspec", 'spec.summary = "see #1"; spec.add_dependency "evil"'),
        ("app.gemspec", "spec.files = x.grep(%r{^#}); spec.add_dependency 'evil'"),
        ("app.gemspec", "spec.email = ['a#b@x.org']; spec.add_development_dependency \"evil\""),
        ("app.gemspec", "c = ?#; spec.add_dependency %q<evil>"),
        ("Gemfile", 'ENV["X"] == " #"; gem "evil"'),
        ("Gemfile", "gem 'a', '#{VERSION}'; gem 'evil'"),
        ("Gemfile", "group :test do; gem 'evil'; end"),
    ],
)
def test_a_hash_in_a_string_starts_no_comment(path: str, line: str) -> None:
    """Ruby's `#` in a string or a `%` literal is no comment: the call
    after it on the line is read."""
    base = GEMSPEC + "end\n" if path.endswith(".gemspec") else 'gem "a"\n'
    head = base.replace("end\n", "") + line + ("\nend\n" if path.endswith(".gemspec") else "\n")
    CASE.fails(edit(path, base, head), '"evil"')


def test_a_commented_call_declares_nothing() -> None:
    """`bundle gem`'s template keeps an example call commented out."""
    example = (
        "  # Uncomment to register a new dependency of your gem\n"
        '  # spec.add_dependency "example-gem", "~> 1.0"\n'
    )
    CASE.passes(edit("app.gemspec", GEMSPEC + "end\n", GEMSPEC + example + "end\n"))


def test_an_unreadable_base_fails_naming_the_base() -> None:
    CASE.fails(edit("Cargo.toml", "[dependencies\n", '[dependencies]\na = "1"\n'),
               '"Cargo.toml" cannot be read: the base version is not valid TOML')  # fmt: skip


def test_many_dependencies_are_counted_and_listed_shortly() -> None:
    head = "".join(f"pkg{i}\n" for i in range(40))
    result = CASE.fails(edit("requirements.txt", "a\n", "a\n" + head), "40 new dependencies")
    assert "and 32 more" in result.message and len(result.findings) == 40


# --- gate check end to end ----------------------------------------------------------


def _rubric(level: str) -> str:
    return (
        "version: 1\nrules:\n  - id: DEPS\n    kind: new_dependencies\n"
        f"    level: {level}\n    allow: ['@types/*']\n"
    )


@pytest.mark.parametrize(("level", "code"), [("warn", 0), ("fail", 1)])
def test_gate_check_names_the_new_dependency(
    rubric_repo: RubricRepo, level: str, code: int
) -> None:
    rubric_repo.write(
        "web/package.json", json.dumps({"dependencies": {"react": "^18"}}, indent=2) + "\n"
    )
    rubric_repo.write("go.mod", GO)
    rubric_repo.commit("base")
    rubric_repo.git("checkout", "-q", "-b", "agent")
    rubric_repo.write(
        "web/package.json",
        json.dumps(
            {
                "dependencies": {"react": "^19"},
                "devDependencies": {"@types/react": "^19", "reakt-utils": "^0.1.0"},
            },
            indent=2,
        )
        + "\n",
    )
    rubric_repo.write("go.mod", GO + "replace github.com/a/b => ../b\n")
    rubric_repo.commit("agent")
    checked = rubric_repo.check("main", rubric=_rubric(level))
    assert checked.code == code
    report = checked.report
    (result,) = [r for r in report["results"] if r["id"] == "DEPS"]
    assert result["pass"] is False
    assert (
        '"reakt-utils" ("^0.1.0") added to "web/package.json" devDependencies' in result["message"]
    )
    assert '"github.com/a/b" in "go.mod" replace now from "../b"' in result["message"]
    assert "react" not in result["message"].replace("reakt", "")  # the bump and @types/* pass
    assert (report["warned"] if level == "warn" else report["failed"]) == ["DEPS"]
    again = rubric_repo.check("main", rubric=_rubric(level))
    assert again.code == code and again.report == report


@pytest.mark.parametrize(
    ("name", "earlier"),
    [
        ("browse", '"name": "@browserbasehq/evals"'),  # inside a scoped name
        ("zod", '"description": "zod-like schemas"'),  # a prefix of another word
        ("click", '"keywords": ["clickhouse"]'),
    ],
)
def test_a_finding_points_at_the_line_that_names_the_dependency(
    rubric_repo: RubricRepo, name: str, earlier: str
) -> None:
    """The annotation's line is the one naming the package whole, never an
    earlier line that holds its letters inside another name (stagehand's
    `browse` was placed on the package's own `name` line)."""
    before = "{\n  " + earlier + ',\n  "dependencies": {\n    "react": "^18"\n  }\n}\n'
    after = before.replace('"react": "^18"', f'"react": "^18",\n    "{name}": "^1.0.0"')
    rubric_repo.write("package.json", before)
    rubric_repo.commit("base")
    rubric_repo.git("checkout", "-q", "-b", "agent")
    rubric_repo.write("package.json", after)
    rubric_repo.commit("agent")
    checked = rubric_repo.check("main", rubric=_rubric("fail"))
    assert checked.code == 1
    (result,) = [r for r in checked.report["results"] if r["id"] == "DEPS"]
    (finding,) = result["findings"]
    assert finding["line"] == after.splitlines().index(f'    "{name}": "^1.0.0"') + 1
