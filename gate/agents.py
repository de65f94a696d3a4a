"""Who wrote a change: the coding agents the gate knows, and how to tell.

One table, `AGENTS`, is the owner of every fact about an agent that the gate
uses: the PR author logins `gate init` offers as `applies_to` presets, and
the commit signals `gate backtest` uses to tell agent-written from
human-written history (author identities, co-author trailers, head-branch
prefixes named in merge messages).  Each entry says how far each signal can
be trusted: a bot login is GitHub's to give, while a trailer or a branch
name is whatever the committer typed.

`classify(...)` reads one commit and says `agent` or `human`, which agent,
and by which signal it decided.
"""

from __future__ import annotations

from dataclasses import dataclass

AGENT = "agent"
HUMAN = "human"


@dataclass(frozen=True)
class Agent:
    """One coding agent.  Every tuple may be empty.

    `logins`: GitHub logins that open its pull requests (exact, as the API
    reports `user.login`), the strong `applies_to.authors` selector.
    `emails`: commit author or co-author e-mail addresses it uses (compared
    case-folded).  `branches`: head-branch globs it names its branches with
    (advisory: whoever opens a PR names its branch).  `trust`: one sentence
    for the docs on how far its signals can be trusted."""

    name: str
    logins: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    branches: tuple[str, ...] = ()
    trust: str = ""


@dataclass(frozen=True)
class Authorship:
    """What `classify` decided: `kind` is AGENT or HUMAN, `agent` the
    `Agent.name` (None for HUMAN), `how` the signal, in words a report shows
    (`co-author trailer Claude <noreply@anthropic.com>`)."""

    kind: str
    agent: str | None
    how: str
