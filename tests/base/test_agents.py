"""`gate.base.agents.classify`: which signal makes a commit agent-written."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.base.agents import (
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
    from gate.base.agents import Agent

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


MINTLIFY = "109931778+mintlify[bot]@users.noreply.github.com"
COPILOT_REVIEW = "175728472+Copilot@users.noreply.github.com"
COPILOT_CLI = "223556219+Copilot@users.noreply.github.com"


@pytest.mark.parametrize(
    ("given_commit", "kind", "bot"),
    [
        # a bot that is no agent and no dependency bot: automation, named by its login
        (commit(author=("mintlify[bot]", MINTLIFY)), AUTOMATION, "mintlify[bot]"),
        # hostile twin: the login behind a person's name; the no-reply address decides
        (commit(author=("Ada Lovelace", MINTLIFY)), AUTOMATION, "mintlify[bot]"),
        # upper case [BOT], in the address or the name
        (
            commit(author=("Ada", MINTLIFY.upper().replace("USERS.NOREPLY", "users.noreply"))),
            AUTOMATION,
            "MINTLIFY[BOT]",
        ),
        (commit(author=("Docs-Writer[BOT]", "docs@example.com")), AUTOMATION, "Docs-Writer[BOT]"),
        # the committer a bot, the author a person
        (
            commit(
                committer=(
                    "github-actions[bot]",
                    "41898282+github-actions[bot]@users.noreply.github.com",
                )
            ),
            AUTOMATION,
            "github-actions[bot]",
        ),
        # a person spelled like a bot is a person: [bot] must end the name or the login
        (commit(author=("Abbot", "bot@example.com")), HUMAN, None),
        (commit(author=("Robot [bot] fan", "r@example.com")), HUMAN, None),
        (commit(author=("Ann", "ann[bot]@example.com")), HUMAN, None),
        (commit(author=("Ann", "ann+bot@users.noreply.github.com")), HUMAN, None),
    ],
)
def test_a_bot_is_automation_never_human(given_commit: Commit, kind: str, bot: str | None) -> None:
    found = classify(given_commit)
    assert (found.kind, found.agent, found.bot) == (kind, None, bot)


def test_an_agent_bot_in_upper_case_is_still_the_agent() -> None:
    found = classify(commit(author=("Devin-AI-Integration[BOT]", "x@example.com")))
    assert (found.kind, found.agent) == (AGENT, "Devin")


@pytest.mark.parametrize(
    "trailer",
    [
        f"Copilot <{COPILOT_REVIEW}>",
        f"Copilot Autofix powered by AI <{COPILOT_REVIEW}>",
        f"copilot <{COPILOT_REVIEW.upper()}>",
        "Copilot Autofix powered by AI "
        "<62310815+github-advanced-security[bot]@users.noreply.github.com>",
        "coderabbitai[bot] <136622811+coderabbitai[bot]@users.noreply.github.com>",
        "gemini-code-assist[bot] <176961590+gemini-code-assist[bot]@users.noreply.github.com>",
        # a plain bot's trailer says nothing either
        "github-actions[bot] <github-actions[bot]@users.noreply.github.com>",
    ],
)
def test_an_accepted_review_suggestion_stays_human(trailer: str) -> None:
    found = classify(commit(subject="Apply suggestion from @Copilot", co_authors=(trailer,)))
    assert (found.kind, found.agent, found.bot) == (HUMAN, None, None)
    # next to an agent's trailer, the agent still decides
    found = classify(commit(co_authors=(trailer, f"Copilot <{COPILOT_CLI}>")))
    assert (found.kind, found.agent) == (AGENT, "GitHub Copilot CLI")


def test_a_review_bot_as_author_is_automation() -> None:
    found = classify(commit(author=("Copilot", COPILOT_REVIEW)))
    assert (found.kind, found.bot) == (AUTOMATION, "Copilot code review")


@given(
    st.sampled_from(["mintlify", "docs-bot", "release-please", "x"]),
    st.sampled_from(["[bot]", "[BOT]", "[Bot]"]),
)
def test_every_spelling_of_a_bot_login_is_automation(login: str, suffix: str) -> None:
    email = f"1234+{login}{suffix}@users.noreply.github.com"
    assert classify(commit(author=("Someone", email))).kind == AUTOMATION
    assert classify(commit(committer=(f"{login}{suffix}", "x@example.com"))).kind == AUTOMATION


def test_review_suggestion_trailer_from_real_git(repo: GitRepo) -> None:
    """The trailer as GitHub writes it, read back by `git log` (any key case)."""
    repo.write("a", "a\n")
    repo.commit(f"Apply suggestion from @Copilot\n\nCo-authored-by: Copilot <{COPILOT_REVIEW}>")
    repo.write("a", "b\n")
    repo.commit(f"fix\n\nCO-AUTHORED-BY: Copilot <{COPILOT_CLI}>")
    entries = Repo(repo.root).history("HEAD")
    found = [classify(Commit(*e[2:8])).kind for e in entries]
    assert found == [AGENT, HUMAN]


def test_a_name_spelled_as_a_bot_does_not_hide_an_agent_trailer() -> None:
    """Hostile twin: an agent's commit whose author calls itself a bot; the
    name is the committer's text, the trailer decides.  A bot's no-reply
    address (GitHub's to give) decides before any trailer."""
    trailer = ("Claude <noreply@anthropic.com>",)
    found = classify(commit(author=("helper[bot]", "me@example.com"), co_authors=trailer))
    assert (found.kind, found.agent) == (AGENT, "Claude Code")
    found = classify(commit(author=("helper[bot]", "me@example.com"), subject="tidy"))
    assert (found.kind, found.bot) == (AUTOMATION, "helper[bot]")
    found = classify(commit(author=("docs", MINTLIFY), co_authors=trailer))
    assert (found.kind, found.bot) == (AUTOMATION, "mintlify[bot]")
