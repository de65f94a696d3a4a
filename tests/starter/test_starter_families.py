"""The starter fits the repository: every family of `gate.starter.families`
is protected by its rule (each glob, as a file, at depth and in another
letter case), a path that merely contains a family's name is not, the
families only some repositories have are written when `gate init` finds
them in the tree at HEAD; SECRETS lets checked-in `.env` samples through
and stops every real environment file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.commands.cli import main
from gate.judge import evaluate
from gate.judge.selftest import run_selftest
from gate.model.change import ChangeSet, FileChange
from gate.model.rubric import DEFAULT_RUBRIC_PATH
from gate.rubric.load import load_rubric_bytes
from gate.starter import ENV_SAMPLES, STARTER_RUBRIC, starter_rubric
from gate.starter.families import FAMILIES, found, markdown_table, rule_paths
from tests.gitrepo import GitRepo

DOCS = Path(__file__).resolve().parents[2] / "docs"


def a_file(glob: str) -> str:
    """A file path the glob names: a folder gets a file inside, `*` a word."""
    path = glob.lstrip("/").replace("*", "x")
    return path + "pipeline.yml" if path.endswith("/") else path


def failed(rubric_text: str, *paths: str) -> set[str]:
    rubric = load_rubric_bytes(rubric_text.encode(), "starter.yml")
    files = tuple(FileChange(path=p, added=1, deleted=1) for p in paths)
    return {r.id for r in evaluate(rubric, ChangeSet(files=files)).results if not r.passed}


CASES = [(f, g) for f in FAMILIES for g in f.paths]


@pytest.mark.parametrize(("family", "glob"), CASES, ids=[f"{f.name}:{g}" for f, g in CASES])
def test_every_family_file_fails_its_rule_in_a_repository_that_has_it(family, glob) -> None:
    path = a_file(glob)
    text = starter_rubric([path])
    assert [f for f, _ in found([path]) if f == family], path
    spellings = {path, path.upper(), path.swapcase()}
    if "/" not in glob.rstrip("/"):  # a name matches at any depth
        spellings |= {f"sub/dir/{path}", f"Sub/{path.upper()}"}
    for spelled in sorted(spellings):
        assert family.rule in failed(text, spelled), spelled
    if family.always:
        assert family.rule in failed(STARTER_RUBRIC, path), path


@pytest.mark.parametrize(
    "path",
    [
        "docs/azure-pipelines-guide.md",
        "docs/ci/circleci.md",
        "src/travis.py",
        "docs/deploy.md",
        "src/app/deploy.py",
        "docs/procfile.md",
        "examples/app.yaml",  # App Engine reads the root's
        "pkg/Procfile.md",
        "docs/goreleaser.md",
        "docs/macroscope.yml",
    ],
)
def test_a_path_that_merely_contains_a_family_name_is_not_protected(path: str) -> None:
    text = starter_rubric(["app.yaml", "Procfile", "deploy.sh", path])
    assert failed(text, path) == set(), path


def test_families_only_some_repositories_have_are_written_when_found() -> None:
    occasional = [f for f in FAMILIES if not f.always]
    assert occasional
    for family in occasional:
        for glob in family.paths:
            assert glob not in rule_paths(family.rule), glob
            assert glob in rule_paths(family.rule, [a_file(glob)]), glob
    # always-listed families stay, found or not: a CI system added later is protected
    assert set(rule_paths("CI")) <= set(rule_paths("CI", ["src/a.py"]))


@given(st.lists(st.sampled_from([a_file(g) for _, g in CASES] + ["src/a.py"]), max_size=6))
def test_a_fitted_starter_proves_itself(tree: list[str]) -> None:
    text = starter_rubric(tree)
    assert run_selftest(load_rubric_bytes(text.encode(), "starter.yml")).agrees
    if tree:
        assert "gate init found" in text


def test_the_docs_table_is_the_family_table() -> None:
    assert markdown_table() in (DOCS / "rubric.md").read_text(encoding="utf-8")


# -- SECRETS: samples pass, real environment files fail -------------------------

FOLDERS = st.sampled_from(["", "web/", "services/api/", "deploy/"])
REAL = ["local", "production", "prod", "development", "dev", "staging", "test", "ci", "secret"]


@given(FOLDERS, st.sampled_from(ENV_SAMPLES), st.sampled_from(REAL))
def test_a_checked_in_env_sample_passes(folder: str, glob: str, env: str) -> None:
    path = folder + glob.replace("*", env)
    assert "SECRETS" not in failed(STARTER_RUBRIC, path), path


@given(
    FOLDERS,
    st.sampled_from(REAL),
    st.sampled_from(["example", "sample", "template", "dist"]),
    st.sampled_from(
        [
            "{env}",  # .env.production
            "{sample}.{env}",  # .env.example.local: dotenv's machine file
            "{sample}.bak",
            "{sample}~",
            "{sample}.",  # Windows drops the dot: the checkout is .env.example, hmm, exact differs
            "{env}.{sample}x",
        ]
    ),
    st.sampled_from([str, str.upper, str.title]),
)
def test_a_real_env_file_fails(folder: str, env: str, sample: str, form: str, spell) -> None:
    name = spell(".env." + form.format(env=env, sample=sample))
    assert "SECRETS" in failed(STARTER_RUBRIC, folder + name), folder + name
    assert "SECRETS" in failed(STARTER_RUBRIC, folder + ".env"), folder


@pytest.mark.parametrize(
    "path",
    [".env.example/prod.key", "deploy/.env.sample/id_rsa", "secrets/.env.example.pem"],
)
def test_an_excluded_name_never_opens_a_folder(path: str) -> None:
    assert "SECRETS" in failed(STARTER_RUBRIC, path), path


@pytest.mark.parametrize("pattern", ["examples/", "examples/**", "**"])
def test_a_folder_exclude_is_refused(pattern: str) -> None:
    text = (
        f'rules:\n  - {{id: S, kind: forbidden_paths, paths: [".env*"], exclude: ["{pattern}"]}}\n'
    )
    with pytest.raises(GateError, match="names a folder"):
        load_rubric_bytes(text.encode(), "r.yml")


# -- gate init reads the tree at HEAD ---------------------------------------------

TREES = {
    "azure and craft": (
        ["azure-pipelines.release.yml", ".craft.yml"],
        ["Azure Pipelines", "Craft"],
    ),
    "review bots": ([".macroscope/review.md", ".coderabbit.yaml"], ["CodeRabbit", "Macroscope"]),
    "deploy": (["Procfile", "scripts/deploy-prod.sh", "app.yaml"], ["App Engine", "Procfile"]),
    "plain": (["src/a.py", "README.md"], []),
}


@pytest.mark.parametrize(("files", "names"), TREES.values(), ids=TREES.keys())
def test_init_writes_the_families_the_tree_has(
    repo: GitRepo,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: list[str],
    names: list[str],
) -> None:
    repo.write_many({p: "x\n" for p in files})
    repo.commit("tree")
    repo.write("untracked/Procfile", "x\n")  # only HEAD's tree counts
    monkeypatch.chdir(repo.root)
    assert main(["init"]) == 0
    out = capsys.readouterr().out
    text = (repo.root / DEFAULT_RUBRIC_PATH).read_text(encoding="utf-8")
    assert text == starter_rubric(files)
    rules = {r["id"]: r for r in yaml.safe_load(text)["rules"]}
    for name in names:
        assert name in out
        family = next(f for f in FAMILIES if f.name == name)
        assert set(family.paths) <= set(rules[family.rule]["paths"])
    for path in files:
        expected = {f.rule for f, _ in found([path])}
        assert failed(text, path) == expected, path
    if not names:
        assert "no CI, release, deploy, agent or review-bot file found" in out
    assert main(["selftest", "--strict", DEFAULT_RUBRIC_PATH]) == 0


@pytest.mark.parametrize(
    "path",
    [
        ".npmrc",
        "packages/web/.npmrc",
        ".NPMRC",
        ".pypirc",
        ".yarnrc.yml",
        "tools/.yarnrc",
        "pip.conf",
    ],
)
def test_package_registry_configuration_fails_ci_and_is_no_secret_by_name(path: str) -> None:
    # an .npmrc holding only a registry URL is a supply-chain change, not key material
    assert failed(STARTER_RUBRIC, path) & {"CI", "SECRETS"} == {"CI"}, path
