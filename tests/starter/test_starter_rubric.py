"""What the starter rubric (`gate init`) lets through and what it stops, on
generated paths: the budgets skip only the exact names of lock files,
snapshots, generated code and licence texts; AGENTS stops every agent-instruction file at
any depth and in any spelling a checkout merges; TESTS judges test plumbing;
the applies_to presets are the agent table's facts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from gate.base.agents import AGENTS
from gate.judge import evaluate
from gate.model.change import ChangeSet, FileChange
from gate.rubric.load import load_rubric_bytes
from gate.starter import AGENT_FILES, GENERATED, LICENCES, STARTER_RUBRIC, STARTER_TESTS

RUBRIC = load_rubric_bytes(STARTER_RUBRIC.encode(), "starter.yml")
DIRS = st.sampled_from(["", "src/", "src/pkg/", "web/app/", "dist/", "build/", "vendor/x/"])
WORD = st.text(alphabet="abcxyz_", min_size=1, max_size=8)


def failed(*files: FileChange) -> set[str]:
    report = evaluate(RUBRIC, ChangeSet(files=files))
    return {r.id for r in report.results if not r.passed}


def big(path: str) -> FileChange:
    return FileChange(path=path, status="added", added=5000, deleted=0)


@given(DIRS, st.sampled_from([g for g in GENERATED if "*" not in g and "/" not in g]))
def test_every_named_lock_file_is_out_of_the_budgets_at_any_depth(folder: str, name: str) -> None:
    # (a lock file whose text this change set lacks is TESTS's to judge:
    # its test tools' versions cannot be read, gate.drift.locks)
    assert failed(big(f"{folder}{name}")) - {"TESTS"} == set()


CODE_DIRS = st.sampled_from(
    ["", "src/", "dist/", "build/", "vendor/x/", "src/testdata/", "tests/__snapshots__/"]
)


@given(CODE_DIRS, WORD, st.sampled_from([".py", ".js", ".ts", ".go", ".rs", ".lock", ".json"]))
def test_code_named_like_anything_else_counts(folder: str, word: str, ext: str) -> None:
    """A big file is LINES whatever its folder (dist/, build/, vendor/ and
    the recordings' folders included) unless its name is an excluded one."""
    path = f"{folder}{word}{ext}"
    generated = path.rsplit("/", 1)[-1] in GENERATED
    assert ("LINES" in failed(big(path))) is not generated


@given(
    CODE_DIRS, WORD, st.sampled_from(["_pb2.py", "_pb2_grpc.py", ".pb.go", ".min.js", ".min.css"])
)
def test_code_named_like_a_generators_output_counts(folder: str, word: str, tail: str) -> None:
    """A writer chooses its file names: a hand-written module named like
    protobuf output or a minified bundle is imported like any other, so it
    counts toward both budgets (a one-line import would let it in)."""
    path = f"{folder}{word}{tail}"
    assert "LINES" in failed(big(path)), path
    sweep = [FileChange(path=f"{folder}{word}{i}{tail}", added=1, deleted=1) for i in range(11)]
    assert "FILES" in failed(*sweep), path


@given(DIRS, st.sampled_from(LICENCES))
def test_a_licence_text_is_out_of_the_budgets_at_any_depth(folder: str, name: str) -> None:
    """Three vendored copies of a 216-line LICENSE are legal text, not a
    change to review line by line (inspector 9ac19d25)."""
    copies = [big(f"{folder}{name}"), big(f"{folder}vendor/a/{name}"), big(f"web/{name}")]
    assert failed(*copies) == set()


@pytest.mark.parametrize(
    "path",
    ["license.py", "src/LICENSE.py", "licenses/apache.py", "src/licenses/LICENSE_check.py",
     "LICENSE.js", "docs/LICENSES.md", "NOTICE.py", "COPYING.go"],
)  # fmt: skip
def test_code_named_like_a_licence_counts(path: str) -> None:
    assert "LINES" in failed(big(path)), path


EXCLUDED_NAMES = [g for g in (*GENERATED, *LICENCES) if "/" not in g]


@given(
    DIRS,
    st.sampled_from(EXCLUDED_NAMES),
    WORD,
    st.sampled_from([".py", ".go", ".ts", ".snap", ""]),
    st.sampled_from(["", "pkg/"]),
)
def test_a_folder_named_like_an_excluded_file_hides_nothing(
    folder: str, name: str, word: str, ext: str, inner: str
) -> None:
    """An exclude names files: code put in a folder named `yarn.lock`,
    `LICENSE` or `x.snap` (at any depth, nested or not) counts toward both
    budgets, as it would anywhere else."""
    named = name.replace("*", word)
    path = f"{folder}{named}/{inner}{word}{ext}"
    if path.rsplit("/", 1)[-1] in EXCLUDED_NAMES or path.endswith((".snap", "_pb2.pyi")):
        return  # the file itself carries an excluded name
    assert "LINES" in failed(big(path)), path
    sweep = [
        FileChange(path=f"{folder}{named}/{inner}m{i}.py", added=1, deleted=1) for i in range(11)
    ]
    assert "FILES" in failed(*sweep), path


@given(
    DIRS,
    st.sampled_from(["yarn.lock", "LICENSE", "go.sum"]),
    st.sampled_from([str.upper, str.lower, str.title]),
)
def test_an_excluded_name_in_another_case_counts(
    folder: str, name: str, spell: Callable[[str], str]
) -> None:
    """Excludes match as written: `YARN.LOCK`, `License` and `Go.Sum` count."""
    other = spell(name)
    if other != name:
        assert "LINES" in failed(big(f"{folder}{other}")), other


def test_protobuf_type_stubs_skip_the_budgets() -> None:
    """`*_pb2.pyi` is read by type checkers only: nothing imports it."""
    assert failed(big("src/api/service_pb2.pyi")) == set()


def test_code_hidden_in_a_recordings_folder_counts() -> None:
    for path in (
        "tests/cassettes/impl.py",
        "pkg/testdata/impl.py",
        "x/__snapshots__/impl.py",
        "x/__snapshots__/icon.svg.js",
        "docs/images/diagram.svg",  # an SVG outside a snapshot folder is a change
        "x/__snapshots__.svg",
    ):
        assert "LINES" in failed(big(path)), path


def test_recorded_fixtures_skip_the_budgets_but_not_the_test_rule() -> None:
    for path in (
        "tests/cassettes/test_x.yaml",
        "tests/models/cassettes/test_a/test_b.json",
        "web/__snapshots__/a.test.ts.snap",
        "tests/__snapshots__/test_x.ambr",
        "tests/snapshot_tests/__snapshots__/test_snapshots/test_x.svg",
    ):
        assert failed(big(path)) == set()  # a new recording is welcome
        edited = FileChange(path=path, status="modified", added=2000, deleted=2000)
        assert failed(edited) == {"TESTS"}  # an existing one bent is a bent test


SPELLING = st.sampled_from([str.lower, str.upper, lambda s: s])


@given(DIRS, st.sampled_from(AGENT_FILES), SPELLING)
def test_every_agent_file_fails_agents_at_any_depth_and_case(
    folder: str, glob: str, spell: object
) -> None:
    path = glob.rstrip("/") + ("/rules/x.md" if glob.endswith("/") else "")
    path = spell(path)  # type: ignore[operator]
    if "/" in glob.rstrip("/"):  # anchored at the root
        folder = ""
        path = path.lstrip("/")
    change = FileChange(path=f"{folder}{path}", added=1, deleted=1)
    assert "AGENTS" in failed(change), change.path


def test_docs_pages_and_shipped_skills_named_like_agent_files_pass() -> None:
    """Measured on pydantic/pydantic-ai: a docs page about its Agent class and
    the skills its package ships to users are not this repository's
    instructions; a nested AGENTS.md is."""
    for path in ("docs/agent.md", "docs/api/agent.md", "pkg/.agents/skills/x/SKILL.md"):
        assert failed(FileChange(path=path, added=1, deleted=1)) == set(), path
    for path in ("AGENT.md", ".agents/skills/x/SKILL.md", "pkg/models/AGENTS.md"):
        assert failed(FileChange(path=path, added=1, deleted=1)) == {"AGENTS"}, path


def test_wardens_settings_at_the_root_are_agent_files() -> None:
    """Held-out round 12 (sentry-go): Sentry's Warden reads `warden.toml` at
    the repository's root, and its skills from `.agents/skills/`; a
    `warden.toml` deeper is no review bot's settings."""
    for path in ("warden.toml", "WARDEN.TOML", ".agents/skills/review/SKILL.md"):
        assert failed(FileChange(path=path, added=1, deleted=1)) == {"AGENTS"}, path
    for path in ("docs/warden.toml", "examples/warden/warden.toml"):
        assert failed(FileChange(path=path, added=1, deleted=1)) == set(), path


def test_copilots_chat_modes_are_agent_files() -> None:
    """Held-out round 15 (vscode-jupyter, azure-devops-mcp): VS Code's
    Copilot reads custom agents from `.github/chatmodes/*.chatmode.md`, their
    folder before it was `.github/agents/`; a `chatmodes` folder elsewhere
    is no workspace's."""
    for path in (".github/chatmodes/review.chatmode.md", ".GitHub/ChatModes/plan.chatmode.md"):
        assert failed(FileChange(path=path, added=1, deleted=1)) == {"AGENTS"}, path
    for path in ("docs/chatmodes/review.md", "src/.github/chatmodes/x.chatmode.md"):
        assert failed(FileChange(path=path, added=1, deleted=1)) == set(), path


def test_the_failures_read_on_agent_heavy_histories_and_kept_still_fail() -> None:
    """Measured (docs/agents.md, "What each rule's remaining failures are"): each of
    these failed a real commit and stays failing, for the reason given."""
    kept = {
        # CI's own data and scripts run in CI: an expected-failures list is a verdict
        ".github/actions/conformance/expected-failures.yml": {"CI"},
        # an instruction file that sits in a CI folder is both
        ".github/workflows/CLAUDE.md": {"CI", "AGENTS"},
        # a case-insensitive checkout reads it as GEMINI.md, which instructs at any depth
        "docs/realtime/gemini.md": {"AGENTS"},
    }
    for path, rules in kept.items():
        assert failed(FileChange(path=path, added=1, deleted=1)) == rules, path
    # checked-in environment samples (agent-framework) pass now; a real one fails
    for path in ("samples/app/.env.example", "python/.env.template"):
        assert failed(FileChange(path=path, added=1, deleted=1)) == set(), path
    assert failed(FileChange(path="python/.env.local", added=1)) == {"SECRETS"}
    # gh-aw's compiled workflow is generated, but it runs: CI fails it and the
    # budget counts it (an exclude would hide it from a rubric without CI)
    compiled = FileChange(path=".github/workflows/triage.lock.yml", status="added", added=1655)
    assert failed(compiled) == {"CI", "LINES"}


@given(DIRS, WORD)
def test_test_plumbing_edits_are_test_drift(folder: str, word: str) -> None:
    for path in (
        f"{folder}testing/{word}.py",
        f"{folder}e2e-tests/{word}.ts",
        f"{folder}src/commonTest/kotlin/{word}Test.kt",
        f"{folder}src/jvmTest/{word}.kt",
        f"{folder}src/androidTest/java/{word}.java",
        ".coveragerc",
    ):
        assert failed(FileChange(path=path, added=1, deleted=1)) == {"TESTS"}, path


@given(DIRS, WORD)
def test_gradle_main_source_sets_are_no_tests(folder: str, word: str) -> None:
    """kotlin-sdk (held-out round 12): `src/commonTest/` and `src/jvmTest/`
    are Gradle test source sets; `src/commonMain/`, `src/main/` beside them
    are the code."""
    for path in (f"{folder}src/commonMain/{word}.kt", f"{folder}src/main/kotlin/{word}.kt"):
        assert "TESTS" not in failed(FileChange(path=path, added=1, deleted=1)), path


def test_the_starter_names_its_plumbing_globs() -> None:
    tests = yaml.safe_load(STARTER_RUBRIC)["tests"]
    assert set(STARTER_TESTS) <= set(tests)


@given(DIRS, WORD)
def test_ruby_test_files_are_tests_at_any_depth(folder: str, word: str) -> None:
    """minitest's `*_test.rb` and Rake's `test_*.rb` (modelcontextprotocol/
    ruby-sdk, held-out round 12), and RSpec's `*_spec.rb`, outside a
    top-level `test/` or `spec/` too (a gem of a monorepo): an edit to an
    existing one is judged by TESTS."""
    for path in (f"{folder}{word}_test.rb", f"{folder}test_{word}.rb", f"{folder}{word}_spec.rb"):
        assert "TESTS" in failed(FileChange(path=path, added=1, deleted=1)), path


def test_presets_are_the_agent_tables_facts() -> None:
    """Every login and branch glob of gate.base.agents.AGENTS is offered, and the
    commented block, uncommented, is a valid applies_to of exactly those."""
    lines = STARTER_RUBRIC.split("\n")
    first = lines.index("# applies_to:")
    block = []
    for line in lines[first:]:
        if not line.startswith("#"):
            break
        block.append(line[2:])
    applies = yaml.safe_load("\n".join(block))["applies_to"]
    assert applies["authors"] == [login for a in AGENTS for login in a.logins]
    assert set(applies["head_branches"]) == {b for a in AGENTS for b in a.branches}
    authors = "".join(f'\n    - "{login}"' for login in applies["authors"])
    text = STARTER_RUBRIC.replace("rules:\n", f"applies_to:\n  authors:{authors}\nrules:\n", 1)
    assert load_rubric_bytes(text.encode(), "starter.yml").applies_to.authors == tuple(
        applies["authors"]
    )


def test_the_commented_waiver_uncommented_is_a_valid_waiver_of_starter_rules() -> None:
    """The starter's `# waivers:` block, uncommented, loads: it names rules
    the starter has, and approvers the loader accepts."""
    lines = STARTER_RUBRIC.split("\n")
    first = lines.index("# waivers:")
    block = []
    for line in lines[first:]:
        if not line.startswith("#"):
            break
        block.append(line[2:])
    rubric = load_rubric_bytes((STARTER_RUBRIC + "\n".join(block) + "\n").encode(), "starter.yml")
    (waiver,) = rubric.waivers
    assert set(waiver.rules) <= {rule.id for rule in rubric.rules}
