"""The task's scope from the issue a pull request closes, end to end against
the API double (GraphQL checked against GitHub's schema): a scope block
counts only when a maintainer with write access wrote it and nobody else
edited it, never from the PR's author or whoever wrote its head commit; a
block that counts but is malformed could not judge, naming the issue;
several closing references join; the rubric's `scope:` decides whether a
scope may loosen; a block anywhere else (the PR's body, a comment) is never
read."""

from __future__ import annotations

import pytest
from conftest import REPO, RUBRIC, Scenario

RUBRIC_PATH = ".github/blast-radius.yml"
TWO_FILES = {"a.py": "A = 1\n", "b.py": "B = 1\n"}  # within F1 (limit 3)


def with_scope(scenario: Scenario, mode: str = "tighten") -> Scenario:
    """A base whose rubric reads scope blocks under `mode`; alice and carol
    may write to the repository, mallory may read."""
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    repo.write_many({RUBRIC_PATH: RUBRIC + f"scope: {mode}\n"})
    scenario.base = repo.commit("scope")
    repo.git("checkout", "-q", "-B", "feature", scenario.base)
    for login, role in (("alice", "write"), ("carol", "maintain"), ("mallory", "read")):
        scenario.github.grant(REPO, login, role)
    return scenario


def block(text: str, fence: str = "```") -> str:
    return f"Fix the widget.\n\n{fence}blast-radius-scope\n{text}{fence}\n\nThanks!\n"


def issue(s: Scenario, number: int, body: str, user: str = "alice") -> None:
    s.github.add_issue(REPO, number, body, user=user)
    s.github.link_closing(REPO, s.number, number)


@pytest.fixture
def scoped(scenario: Scenario) -> Scenario:
    return with_scope(scenario)


def test_a_maintainers_scope_tightens_the_budget_and_the_report_names_it(scoped: Scenario) -> None:
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("max_files: 1\n"))
    out = scoped.run()
    assert out.code == 1, out.log
    report = out.report()
    assert report["failed"] == ["F1"]
    assert report["scope"]["from"] == ["issue #3"]
    assert report["scope"]["applied"] == ["F1 limit from 3 to 1"]
    assert "scope of issue #3 (tighten): F1 limit from 3 to 1" in out.summary


@pytest.mark.parametrize(
    ("author", "why"),
    [
        ("mallory", "has read access, not write"),
        ("nobody-here", "has read access, not write"),
        ("copilot-swe-agent[bot]", "written by the pull request's author"),
    ],
)
def test_a_block_counts_only_from_a_maintainer_who_did_not_open_the_pr(
    scoped: Scenario, author: str, why: str
) -> None:
    """The same block, written by someone without write access or by the
    PR's own author, does not tighten anything; the notes say why."""
    scoped.github.grant(REPO, "copilot-swe-agent[bot]", "write")  # even with write access
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("max_files: 1\n"), user=author)
    out = scoped.run()
    assert out.code == 0, out.log
    report = out.report()
    assert "scope" not in report
    assert any("issue #3 does not count" in n and why in n for n in report["notes"]), report


@pytest.mark.parametrize("editor", ["mallory", "carol", "copilot-swe-agent[bot]"])
def test_a_body_edited_by_anyone_but_its_author_does_not_count(
    scoped: Scenario, editor: str
) -> None:
    """An edit by someone else, even another maintainer, and even one later
    put back by the author: the block's words may not be the author's."""
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("max_files: 1\n"))
    scoped.github.edit_issue(REPO, 3, block("max_files: 9\n"), user=editor)
    scoped.github.edit_issue(REPO, 3, block("max_files: 1\n"), user="alice")
    out = scoped.run()
    assert out.code == 0, out.log
    assert any(f"edited by {editor}" in n for n in out.report()["notes"])


def test_edits_by_the_author_alone_count(scoped: Scenario) -> None:
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("max_files: 5\n"))
    scoped.github.edit_issue(REPO, 3, block("max_files: 1\n"), user="alice")
    out = scoped.run()
    assert out.code == 1, out.log
    assert out.report()["scope"]["max_files"] == 1


def test_a_block_by_whoever_wrote_the_head_commit_does_not_count(scoped: Scenario) -> None:
    head = scoped.push(TWO_FILES)
    scoped.github.set_commit_people(REPO, head, author="alice", committer=None)
    issue(scoped, 3, block("max_files: 1\n"))
    out = scoped.run()
    assert out.code == 0, out.log
    assert any("wrote the head commit" in n for n in out.report()["notes"])


def test_a_block_whose_author_is_gone_does_not_count(scoped: Scenario) -> None:
    scoped.push(TWO_FILES)
    scoped.github.grant(REPO, "erin", "admin")
    issue(scoped, 3, block("max_files: 1\n"), user="erin")
    scoped.github.delete_user("erin")
    out = scoped.run()
    assert out.code == 0, out.log
    assert any("account is gone" in n for n in out.report()["notes"])


def test_a_login_taken_by_someone_else_does_not_count(scoped: Scenario) -> None:
    """The permission is asked for the login GraphQL named; when that login
    now names another account (renamed, and taken by a maintainer between
    the two reads), the block does not count."""
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("max_files: 1\n"), user="dana")
    scoped.github.grant(REPO, "dana", "read")

    def rename() -> None:
        scoped.github.rename_user("dana", "dana-old")
        scoped.github.add_user("dana", user_id=424242)
        scoped.github.grant(REPO, "dana", "admin")

    scoped.github.after_request("POST", r"/graphql$", rename)
    out = scoped.run()
    assert out.code == 0, out.log
    assert any("now names another account" in n for n in out.report()["notes"])


def test_a_malformed_block_from_a_maintainer_could_not_judge_naming_the_issue(
    scoped: Scenario,
) -> None:
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("max_files: two\n"))
    out = scoped.run()
    assert out.code == 2, out.log
    assert "invalid scope block: issue #3, line 4" in out.log
    assert "Traceback" not in out.log


def test_a_malformed_block_from_someone_else_is_only_a_note(scoped: Scenario) -> None:
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("max_files: [\n"), user="mallory")
    out = scoped.run()
    assert out.code == 0, out.log


def test_levels_naming_an_unknown_rule_could_not_judge(scoped: Scenario) -> None:
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("levels: {NOPE: fail}\n"))
    out = scoped.run()
    assert out.code == 2, out.log
    assert "the rubric has no rule 'NOPE'" in out.log


def test_several_closing_issues_join_their_paths_and_budgets(scoped: Scenario) -> None:
    issue(scoped, 3, block('paths: ["a.py"]\nmax_files: 1\n'))
    issue(scoped, 4, block('paths: ["b.py"]\nmax_files: 1\n'), user="carol")
    issue(scoped, 5, "No block here.\n")  # an issue without a block adds nothing
    scoped.push(TWO_FILES)
    out = scoped.run()
    assert out.code == 0, out.log
    assert out.report()["scope"]["from"] == ["issue #3", "issue #4"]
    assert out.report()["scope"]["max_files"] == 2
    scoped.push({"c.py": "C = 1\n"})
    out = scoped.run()
    assert out.code == 1, out.log
    assert out.report()["failed"] == ["F1", "gate.scope.paths"]


def test_an_issue_in_another_repository_does_not_count(scoped: Scenario) -> None:
    scoped.github.add_repo("evil/elsewhere")
    scoped.github.grant("evil/elsewhere", "alice", "admin")
    scoped.github.add_issue("evil/elsewhere", 3, block("max_files: 1\n"), user="alice")
    scoped.github.link_closing(REPO, scoped.number, 3, "evil/elsewhere")
    scoped.push(TWO_FILES)
    out = scoped.run()
    assert out.code == 0, out.log
    assert any("another repository" in n for n in out.report()["notes"])


@pytest.mark.parametrize(
    ("mode", "code", "scope_applied"),
    [("none", 1, False), ("tighten", 1, True), ("loosen", 0, True)],
)
def test_the_rubric_says_whether_a_scope_may_loosen(
    scenario: Scenario, mode: str, code: int, scope_applied: bool
) -> None:
    """Four files fail F1 (limit 3); a scope of five files passes them only
    under `scope: loosen`; `none` never reads the issues."""
    with_scope(scenario, mode)
    scenario.push({f"{n}.py": "X = 1\n" for n in "abcd"})
    issue(scenario, 3, block("max_files: 5\nlevels: {KEEP: warn}\n"))
    out = scenario.run()
    assert out.code == code, out.log
    report = out.report()
    assert ("scope" in report) is scope_applied
    asked = [r for r in scenario.github.requests if r.path.endswith("/graphql")]
    assert bool(asked) is (mode != "none")
    if mode == "tighten":
        assert report["scope"]["not_applied"] == [
            "KEEP to warn (the rubric's scope: tighten only tightens)"
        ]
    if mode == "loosen":
        assert report["scope"]["applied"] == ["F1 limit from 3 to 5", "KEEP level warn"]


def test_blocks_in_the_pr_body_or_a_comment_are_never_read(scoped: Scenario) -> None:
    scoped.push(TWO_FILES)
    pull = scoped.github.pulls[(REPO, scoped.number)]
    pull.body = block("max_files: 1\n")
    scoped.github.add_issue(REPO, 3, "The task, no block.\n")
    scoped.github.link_closing(REPO, scoped.number, 3)
    scoped.github.add_comment(REPO, 3, block("max_files: 1\n"), user="alice")
    out = scoped.run()
    assert out.code == 0, out.log
    assert "scope" not in out.report()


def test_issues_that_cannot_be_read_could_not_judge(scoped: Scenario) -> None:
    scoped.push(TWO_FILES)
    issue(scoped, 3, block("max_files: 1\n"))
    scoped.github.fail_next("POST", r"/graphql$", 403)
    out = scoped.run()
    assert out.code == 2, out.log
    assert "issues: read" in out.log


def test_a_queue_entry_gets_the_scope_only_when_it_is_the_prs_change_alone(
    scoped: Scenario,
) -> None:
    """As `applies_to` decides: PR N's scope is its own task's, so a queue
    entry grouping another pull request's files is judged by the rubric
    alone, with a note saying why."""
    scoped.push(TWO_FILES)
    issue(scoped, 3, block('paths: ["a.py", "b.py"]\nmax_files: 2\n'))
    scoped.enqueue()
    out = scoped.run()
    assert out.code == 0, out.log
    assert out.report()["scope"]["from"] == ["issue #3"]
    scoped.enqueue(also={"other.py": "O = 1\n"})
    out = scoped.run()
    assert out.code == 0, out.log
    report = out.report()
    assert "scope" not in report
    assert any(
        "scope blocks of issue #3 are not read: this queue entry is not pull request #7's "
        "change alone" in n
        for n in report["notes"]
    )
