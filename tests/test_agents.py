"""`gate.agents.classify`: which signal makes a commit agent-written."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.agents import (
    AGENT,
    AGENTS,
    AUTOMATION,
    HUMAN,
    Commit,
    classify,
    merged_branch,
    pull_request,
)
from gate.git.repo import Repo
from tests.gitrepo import GitRepo

PERSON = ("Ada Lovelace", "ada@example.com")
AMAZON_Q = "208079219+amazon-q-developer[bot]@users.noreply.github.com"


def commit(
    author: tuple[str, str] = PERSON,
    committer: tuple[str, str] = PERSON,
    subject: str = "fix",
    co_authors: tuple[str, ...] = (),
) -> Commit:
    return Commit(*author, *committer, subject, co_authors)


@pytest.mark.parametrize(
    ("given_commit", "kind", "agent", "how"),
    [
        (commit(), HUMAN, None, "no agent signal"),
        (
            commit(author=("Copilot", "198982749+Copilot@users.noreply.github.com")),
            AGENT,
            "GitHub Copilot",
            "author Copilot <198982749+Copilot@users.noreply.github.com>",
        ),
        # Aider renames the committer (and the author of its edits) by default
        (
            commit(committer=("Ada Lovelace (aider)", "ada@example.com")),
            AGENT,
            "Aider",
            "committer Ada Lovelace (aider) <ada@example.com>",
        ),
        (
            commit(author=("Amazon Q Developer", AMAZON_Q)),
            AGENT,
            "Amazon Q Developer",
            f"author Amazon Q Developer <{AMAZON_Q}>",
        ),
        # a person called Copilot is a person: a name alone needs a bot's [bot]
        (commit(author=("Copilot", "me@example.com")), HUMAN, None, "no agent signal"),
        (
            commit(committer=("x", "CursorAgent@Cursor.COM")),
            AGENT,
            "Cursor",
            "committer x <CursorAgent@Cursor.COM>",
        ),
        (
            commit(co_authors=("Claude <noreply@anthropic.com>",)),
            AGENT,
            "Claude Code",
            "co-author trailer Claude <noreply@anthropic.com>",
        ),
        (
            commit(author=("devin-ai-integration[bot]", "158243242+devin-ai-integration[bot]@x.y")),
            AGENT,
            "Devin",
            "author devin-ai-integration[bot] <158243242+devin-ai-integration[bot]@x.y>",
        ),
        (
            commit(subject="Merge pull request #4 from acme/Codex/Fix-It"),
            AGENT,
            "OpenAI Codex",
            "merged branch Codex/Fix-It",
        ),
        (
            commit(subject="Merge branch 'copilot/fix' into main"),
            AGENT,
            "GitHub Copilot",
            "merged branch copilot/fix",
        ),
        # not a merge subject: a branch named in prose is no signal
        (commit(subject="port codex/fix to main"), HUMAN, None, "no agent signal"),
        # the author decides before a trailer or a branch
        (
            commit(
                author=("Copilot", "198982749+Copilot@users.noreply.github.com"),
                subject="Merge pull request #5 from o/cursor/x",
            ),
            AGENT,
            "GitHub Copilot",
            "author Copilot <198982749+Copilot@users.noreply.github.com>",
        ),
    ],
)
def test_signals(given_commit: Commit, kind: str, agent: str | None, how: str) -> None:
    found = classify(given_commit)
    assert (found.kind, found.agent, found.how, found.bot) == (kind, agent, how, None)


def test_dependency_bots_are_automation_and_named() -> None:
    found = classify(commit(subject="Merge pull request #9 from acme/dependabot/pip/x-1.2"))
    assert (found.kind, found.agent, found.bot) == (AUTOMATION, None, "Dependabot")
    assert "a dependency bot" in found.how
    found = classify(
        commit(author=("renovate[bot]", "29139614+renovate[bot]@users.noreply.github.com"))
    )
    assert found.bot == "Renovate"


@given(
    name=st.text(st.characters(codec="utf-8", exclude_characters="[]<>\n"), max_size=30),
    email=st.emails(),
    subject=st.text(max_size=80).filter(lambda s: not s.startswith("Merge")),
)
def test_nothing_an_agent_uses_is_human(name: str, email: str, subject: str) -> None:
    assert classify(commit(author=(name, email), committer=(name, email), subject=subject)) == (
        classify(commit())
    )


@given(st.sampled_from(AGENTS), st.sampled_from(["lower", "upper", "title"]))
def test_every_agent_e_mail_is_found_in_any_case(agent: object, case: str) -> None:
    from gate.agents import Agent

    assert isinstance(agent, Agent)
    for email in agent.emails:
        shown = getattr(email, case)()
        assert classify(commit(co_authors=(f"Bot <{shown}>",))).agent == agent.name


def test_subjects() -> None:
    assert merged_branch("Merge pull request #12 from acme/codex/a-b") == "codex/a-b"
    assert merged_branch("Merge remote-tracking branch 'origin/x'") == "origin/x"
    assert merged_branch("fix (#12)") is None
    assert pull_request("fix (#12)") == 12
    assert pull_request("Merge pull request #7 from a/b") == 7
    assert pull_request("fix #12") is None


@pytest.mark.parametrize("key", ["Co-authored-by", "CO-AUTHORED-BY", "co-Authored-By"])
def test_trailers_as_git_reads_them(repo: GitRepo, key: str) -> None:
    """Any case of the key, in the message's last paragraph; a line in the
    middle of the message is prose, not a trailer (git interpret-trailers)."""
    repo.write("a", "a\n")
    repo.commit(f"one\n\nbody\n\n{key}: Cursor Agent <cursoragent@cursor.com>")
    repo.write("a", "b\n")
    repo.commit(f"two\n\n{key}: Cursor Agent <cursoragent@cursor.com>\n\nlast paragraph")
    entries = Repo(repo.root).history("HEAD")
    assert [e.co_authors for e in entries] == [(), ("Cursor Agent <cursoragent@cursor.com>",)]
    found = [classify(Commit(*e[2:8])).agent for e in entries]
    assert found == [None, "Cursor"]
