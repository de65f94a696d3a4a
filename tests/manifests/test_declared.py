"""gate.manifests: what each reader declares, field by field (pure: text in,
`Dependency` values out), and the comparison's rules on values."""

from __future__ import annotations

import pytest

from gate.manifests import INCLUDE, INDEX, PACKAGE, Dependency, Unreadable, declared, reader_for
from gate.manifests.compare import ADDED, BUMPED, NEW_SOURCE, news


def _rows(path: str, text: str) -> list[tuple[str, str, str, str, str]]:
    """(role, section, key, spec, source) of each declaration."""
    return [(d.role, d.section, d.key, d.spec, d.source) for d in declared(path, text)]


def test_go_mod_blocks_quotes_tools_and_comments() -> None:
    text = (
        "module m // the app\n\ngo 1.24\n\nrequire (\n"
        '\t"github.com/a/b" v1.0.0\n\tgolang.org/x/net v0.1.0 // indirect\n)\n'
        "tool (\n\tgolang.org/x/tools/cmd/stringer\n)\n"
        "replace github.com/a/b v1.0.0 => github.com/c/b v1.0.1\n"
        "exclude github.com/a/b v0.9.0\nretract v0.1.0\n"
    )
    found = declared("go.mod", text)
    assert [(d.section, d.key, d.spec, d.source, d.indirect) for d in found] == [
        ("require", "github.com/a/b", "v1.0.0", "", False),
        ("require", "golang.org/x/net", "v0.1.0", "", True),
        ("tool", "golang.org/x/tools/cmd/stringer", "", "", False),
        ("replace", "github.com/a/b", "", "github.com/c/b v1.0.1 (for v1.0.0)", False),
    ]


@pytest.mark.parametrize("line", ["require github.com/a/b\n", "replace a b\n", "requires x v1\n"])
def test_go_mod_lines_it_cannot_read_are_refused(line: str) -> None:
    with pytest.raises(Unreadable):
        declared("go.mod", "module m\n" + line)


@pytest.mark.parametrize(
    ("line", "row"),
    [
        ("require a.com/x v1.0.0 //indirect", ("a.com/x", "v1.0.0", True)),
        ("require a.com/x v1.0.0// indirect; for docker", ("a.com/x", "v1.0.0", True)),
        ("require a.com/x v1.0.0 // tests", ("a.com/x", "v1.0.0", False)),
        # a `//` inside a quoted path is no comment (the go command's lexer)
        ('require "a.com/x//y" v1.0.0', ("a.com/x//y", "v1.0.0", False)),
        ('require (\n\t"a.com/x//y" v1.0.0 // indirect\n)', ("a.com/x//y", "v1.0.0", True)),
        ("require (\n\t`a.com/x//y` v1.0.0\n)", ("a.com/x//y", "v1.0.0", False)),
    ],
)
def test_go_mod_comments_start_outside_strings(line: str, row: tuple[str, str, bool]) -> None:
    found = declared("go.mod", f"module m\n\n{line}\n")
    assert [(d.key, d.spec, d.indirect) for d in found] == [row]


def test_go_mod_refusals_name_the_line() -> None:
    text = "module m\n\nrequire (\n\ta.com/x v1.0.0\n)\n\nrequire (\n\ta.com/y\n)\n"
    with pytest.raises(Unreadable, match="line 8: a require names a module and a version"):
        declared("go.mod", text)


def test_cargo_tables_renames_and_patches() -> None:
    text = (
        '[dependencies]\nserde = "1"\njson = { package = "serde_json", version = "1.0" }\n'
        "local = { path = '../local' }\nws = { workspace = true }\n"
        "[target.'cfg(unix)'.build-dependencies]\ncc = '1'\n"
        "[replace]\n'foo:0.1.0' = { git = 'https://example.com/foo' }\n"
    )
    rows = _rows("Cargo.toml", text)
    assert rows == [
        (PACKAGE, "dependencies", "serde", "1", ""),
        (PACKAGE, "dependencies", "serde-json", "1.0", ""),
        (PACKAGE, "dependencies", "local", "", '{"path": "../local"}'),
        (PACKAGE, "target.'cfg(unix)'.build-dependencies", "cc", "1", ""),
        (PACKAGE, "replace", "foo", "", '{"git": "https://example.com/foo"}'),
    ]


def test_npm_overrides_name_the_last_package_of_a_key() -> None:
    text = (
        '{"overrides": {"foo": {"bar": "github:evil/bar"}, "@s/x@1": "file:../x"},'
        ' "resolutions": {"**/baz": "https://evil.example/baz.tgz", "qux": "^1"}}'
    )
    assert sorted((d.section, d.key, d.source) for d in declared("package.json", text)) == [
        ("overrides", "@s/x", "file:../x"),
        ("overrides.foo", "bar", "github:evil/bar"),
        ("resolutions", "baz", "https://evil.example/baz.tgz"),
    ]


def test_npm_alias_is_a_source_and_its_version_a_spec() -> None:
    (d,) = declared("package.json", '{"dependencies": {"lodash": "npm:@evil/lodash@^4.17.0"}}')
    assert (d.key, d.spec, d.source) == ("lodash", "^4.17.0", "npm:@evil/lodash")


def test_pipfile_and_setup_cfg() -> None:
    pipfile = (
        '[[source]]\nurl = "https://pypi.org/simple"\nname = "pypi"\n\n'
        '[packages]\nRequests = "*"\nown = {index = "private", version = "==1"}\n\n'
        '[dev-packages]\npytest = ">=8"\n\n[requires]\npython_version = "3.12"\n'
    )
    assert _rows("Pipfile", pipfile) == [
        (PACKAGE, "packages", "requests", "", ""),
        (PACKAGE, "packages", "own", "==1", '{"index": "private"}'),
        (PACKAGE, "dev-packages", "pytest", ">=8", ""),
        (INDEX, "source", "https://pypi.org/simple", "", "https://pypi.org/simple"),
    ]
    cfg = "[options]\ninstall_requires = file: requirements.txt\ntests_require =\n  Pytest_Cov\n"
    assert _rows("setup.cfg", cfg) == [
        (INCLUDE, "options.install_requires", "requirements.txt", "", ""),
        (PACKAGE, "options.tests_require", "pytest-cov", "", ""),
    ]


def test_gemfile_blocks_give_sources_and_groups() -> None:
    text = (
        "source 'https://rubygems.org'\ngemspec\n"
        "git 'https://github.com/rails/rails.git' do\n  gem 'activesupport'\nend\n"
        "group :development, :test do\n  gem 'rspec', '~> 3.0', require: false\nend\n"
    )
    assert _rows("Gemfile", text) == [
        (INDEX, "source", "https://rubygems.org", "", "https://rubygems.org"),
        (INCLUDE, "gemspec", "gemspec", "", ""),
        (PACKAGE, "gems", "activesupport", "", "git: https://github.com/rails/rails.git"),
        (PACKAGE, "group :development, :test", "rspec", "~>3.0", ""),
    ]


def test_composer_platform_packages_and_repositories() -> None:
    text = (
        '{"require": {"PHP": "^8", "ext-mbstring": "*", "Monolog/Monolog": "^3"},'
        ' "repositories": {"packagist.org": false, "x": {"type": "path", "url": "../x"}}}'
    )
    assert _rows("composer.json", text) == [
        (PACKAGE, "require", "monolog/monolog", "^3", ""),
        (INDEX, "repositories", "false", "", "false"),
        (INDEX, "repositories", "../x", "", "../x"),
    ]


def test_readers_by_name() -> None:
    assert reader_for("a/b/requirements-dev.in") is not None
    assert reader_for("Pipfile.lock") is None and reader_for("package-lock.json") is None


def _dep(key: str, **fields: str | bool) -> Dependency:
    values: dict[str, str | bool] = {
        "ecosystem": "npm",
        "key": key,
        "role": PACKAGE,
        "source": "",
        "section": "dependencies",
        "name": key,
        "spec": "1",
        "manifest": "package.json",
    }
    values.update(fields)
    return Dependency(**values)  # type: ignore[arg-type]


def test_news_pools_per_ecosystem_and_reports_each_once() -> None:
    base = [_dep("a"), _dep("b", ecosystem="python"), _dep("c", source="github:x/c")]
    head = [
        _dep("a", spec="2", manifest="web/package.json"),  # moved and bumped
        _dep("b"),  # in another ecosystem: new for npm
        _dep("c", source="github:x/c"),
        _dep("c", source="github:evil/c"),
        _dep("c", source="github:evil/c", section="devDependencies"),  # once per source
    ]
    found = [(n.dependency.key, n.why, n.was) for n in news(base, head, bumps=False)]
    assert found == [("b", ADDED, ()), ("c", NEW_SOURCE, ("github:x/c",))]
    bumped = [(n.dependency.key, n.why) for n in news(base, head, bumps=True)]
    assert ("a", BUMPED) in bumped


@pytest.mark.parametrize(
    "line",
    [
        "pytest~=8",  # `~=` needs two release segments
        "pytest>=eight",  # not a PEP 440 version (pip 24.1 refuses legacy versions)
        "pytest==8.0 ; python_version >= '3.8' and junk",  # not a marker
        "pytest >> 8",
    ],
)
def test_a_requirement_pip_refuses_is_refused(line: str) -> None:
    """`packaging` reads each requirement, as pip does: what pip refuses to
    install, the gate refuses to read (fail closed), never half-reads."""
    with pytest.raises(Unreadable, match="which is not a PEP 508 requirement"):
        declared("requirements.txt", f"requests==2.31\n{line}\n")


def test_a_requirement_keeps_its_specifiers_as_written() -> None:
    """packaging's own text sorts the specifiers; reports quote them in the
    order the file writes them, without spaces."""
    text = (
        "Django >= 4.2 , < 5.0 ; python_version >= '3.8'\n"
        "rich[jupyter] (>=13, !=13.1)\n"
        "attrs>=23,\n"
        "pkg @ https://example.com/pkg-1.0.tar.gz ; sys_platform == 'linux'\n"
    )
    assert [(d.key, d.spec, d.source) for d in declared("requirements.txt", text)] == [
        ("django", ">=4.2,<5.0", ""),
        ("rich", ">=13,!=13.1", ""),
        ("attrs", ">=23,", ""),
        ("pkg", "", "https://example.com/pkg-1.0.tar.gz"),
    ]


def test_gemspec_calls_in_each_spelling() -> None:
    text = (
        "# frozen_string_literal: true\nGem::Specification.new do |spec|\n"
        '  spec.name = "app"\n  spec.add_dependency("json_schemer", ">= 2.4")\n'
        "  spec.add_dependency 'Logger'  # a comment\n"
        '  s . add_runtime_dependency  %q<rack>.freeze, [">= 0", "< 4"]\n'
        '  spec.add_development_dependency(\n    "rspec",\n    "~> 3",\n  )\n'
        "  if s.respond_to?(:add_runtime_dependency) then\n"
        '  spec.add_dependency "zlib" if RUBY_VERSION >= "3.4"\n'
        '  spec.add_dependency"a";spec.add_dependency %q{b}\nend\n'
    )
    assert _rows("app.gemspec", text) == [
        (PACKAGE, "add_dependency", "json_schemer", ">=2.4", ""),
        (PACKAGE, "add_dependency", "logger", "", ""),
        (PACKAGE, "add_runtime_dependency", "rack", ">=0,<4", ""),
        (PACKAGE, "add_development_dependency", "rspec", "~>3", ""),
        (PACKAGE, "add_dependency", "zlib", "", ""),
        (PACKAGE, "add_dependency", "a", "", ""),
        (PACKAGE, "add_dependency", "b", "", ""),
    ]
    assert reader_for("gems/sub/App.GEMSPEC") is not None
    assert _rows("app.gemspec", text.replace("\n", "\r\n")) == _rows("app.gemspec", text)


@pytest.mark.parametrize(
    "line",
    [
        "spec.add_dependency name",
        "spec.add_dependency(*DEPS)",
        'spec.add_dependency "ev" "il"',
        'spec.add_dependency "ev" + "il"',
        'spec.add_dependency "evil".downcase',
        'spec.add_dependency "#{prefix}-evil"',
        "spec.add_dependency %(#{prefix}-evil)",
        'spec.add_dependency "e\\x76il"',
        "%w[a evil].each { |d| spec.add_dependency d }",
        "spec.add_runtime_dependency %w[evil]",
        'spec.send(:add_dependency, "evil")',
        'spec.public_send :add_development_dependency, "evil"',
        'spec.dependencies << Gem::Dependency.new("evil")',
    ],
)
def test_gemspec_calls_ruby_computes_are_refused(line: str) -> None:
    with pytest.raises(Unreadable, match="line 2"):
        declared("app.gemspec", f"Gem::Specification.new do |spec|\n  {line}\nend\n")
