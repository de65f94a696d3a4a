"""bench/bench_starter.py sorts history by who wrote it, with the agent table."""

from __future__ import annotations

import pytest

from bench.bench_starter import classify
from gate.base.agents import AGENTS

EMAILS = [(a.name, e) for a in AGENTS for e in a.emails]


@pytest.mark.parametrize(("agent", "email"), EMAILS)
def test_an_agents_email_as_author_or_co_author_in_any_case(agent: str, email: str) -> None:
    assert classify("x", email.upper(), "fix")[:2] == ("agent", agent)
    message = f"fix\n\nbody\n\nCo-authored-by: Some Name <{email.swapcase()}>\n"
    assert classify("Ann", "ann@example.com", message)[:2] == ("agent", agent)


def test_markers_and_branches_name_the_agent() -> None:
    body = "x\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n"
    assert classify("Ann", "ann@example.com", body)[:2] == ("agent", "Claude Code")
    merge = "Merge pull request #12 from acme/copilot/fix-thing\n\nFix"
    assert classify("Ann", "ann@example.com", merge)[:2] == ("agent", "GitHub Copilot")


def test_release_bots_are_automation_and_the_rest_human() -> None:
    bot = "49699333+dependabot[bot]@users.noreply.github.com"
    assert classify("dependabot[bot]", bot, "Bump x")[0] == "automation"
    assert classify("GitHub Actions", "actions@github.com", "chore: release")[0] == "automation"
    trailer = "x\n\nCo-authored-by: Bob <bob@example.com>\nCo-authored-by: Copilot Autofix"
    assert classify("Ann", "ann@example.com", trailer) == ("human", None, "")
