"""Who wrote a change: the coding agents the gate knows, and how to tell.

One table, `AGENTS` (read from `agents.json` beside this module), is the
owner of every fact about an agent that the gate uses: the PR author
logins `gate init` offers as `applies_to` presets, and the commit signals
`gate backtest` uses to tell agent-written from human-written history
(author identities, co-author trailers, head-branch prefixes named in
merge messages).  Each entry says how far each signal can be trusted: a
bot login is GitHub's to give, while a trailer or a branch name is
whatever the committer typed.

`classify(...)` reads one commit and says `agent`, `human` or
`automation` (a bot), which agent or bot, and by which signal it decided.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gate.base import globs
from gate.base.jsontext import package_data

AGENT = "agent"
HUMAN = "human"
AUTOMATION = "automation"  # a bot that is no coding agent: dependencies, releases, docs
KINDS = (AGENT, HUMAN, AUTOMATION)


@dataclass(frozen=True)
class Agent:
    """One coding agent.  Every tuple may be empty.

    `logins`: GitHub logins that open its pull requests (exact, as the API
    reports `user.login`), the strong `applies_to.authors` selector.
    `emails`: commit author or co-author e-mail addresses it uses (compared
    case-folded).  `branches`: head-branch globs it names its branches with
    (advisory: whoever opens a PR names its branch).  `trust`: one sentence
    for the docs on how far its signals can be trusted.  `markers`: text its
    tool writes into a commit message by default (`Generated with [Claude
    Code]`), matched case-folded as a substring by bench/bench_starter.py
    (advisory: the committer's text; `classify` does not read it yet).
    `name_suffixes`: text its tool appends to the git author or committer
    name (`Ada Lovelace (aider)`), compared case-folded after trailing
    spaces are stripped (advisory, as the name is the committer's)."""

    name: str
    logins: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    branches: tuple[str, ...] = ()
    trust: str = ""
    markers: tuple[str, ...] = ()
    name_suffixes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Authorship:
    """What `classify` decided: `kind` is AGENT, HUMAN or AUTOMATION,
    `agent` the `Agent.name` (None unless AGENT), `how` the signal, in words
    a report shows (`co-author trailer Claude <noreply@anthropic.com>`)."""

    kind: str
    agent: str | None
    how: str
    bot: str | None = None  # AUTOMATION's bot: a dependency bot's name, else its login


@dataclass(frozen=True)
class Commit:
    """What `classify` reads of one commit, all from one `git log` call
    (`gate.git.repo.Repo.history`): author and committer name and e-mail, the
    subject line (merge messages and squash subjects name the branch or the
    PR), and the values of its `Co-authored-by:` trailers as git parses
    them (`%(trailers:key=Co-authored-by,valueonly)`: the key in any case,
    only in the message's last paragraph)."""

    author_name: str
    author_email: str
    committer_name: str
    committer_email: str
    subject: str
    co_authors: tuple[str, ...] = ()


def _agents(key: str) -> tuple[Agent, ...]:
    """One list of `agents.json` beside this module (its schema:
    `agents.schema.json`), as `Agent` values."""
    return tuple(
        Agent(
            name=a["name"],
            logins=tuple(a.get("logins", ())),
            emails=tuple(a.get("emails", ())),
            branches=tuple(a.get("branches", ())),
            trust=a.get("trust", ""),
            markers=tuple(a.get("markers", ())),
            name_suffixes=tuple(a.get("name_suffixes", ())),
        )
        for a in package_data("base/agents.json")[key]
    )


# Dependency bots: they open pull requests, but they write no code a coding
# agent's budget is about (lock files and version bumps).  `classify` counts
# them as AUTOMATION, named (any other bot identity is AUTOMATION too, by
# its login); `gate init --from-history` leaves them out of the human
# percentile, since a lock-file refresh is not the size of a person's change.
DEPENDENCY_BOTS: tuple[Agent, ...] = _agents("dependency_bots")

# Review bots: they comment on pull requests and suggest edits; when a
# person commits a suggestion ("Apply suggestion from @Copilot"), GitHub
# adds a `Co-authored-by:` trailer naming the reviewer.  Such a trailer is
# a suggestion a person accepted, not an agent's change: `classify` passes
# over it (the commit stays as its other signals say).  Copilot's code
# review signs as `Copilot` with its own numeric id (175728472), which the
# coding agent's entries must not match: the review bot is compared first.
REVIEW_BOTS: tuple[Agent, ...] = _agents("review_bots")

# The coding agents: the facts (which logins, e-mails, branch prefixes and
# message markers each uses) are kept in `agents.json` and nowhere else; `classify` only
# compares.  Sources for every entry: docs/agents.md.  The Copilot CLI comes
# first: its trailer's no-reply address names the login `Copilot` too, and
# the first match decides.
AGENTS: tuple[Agent, ...] = _agents("agents")

# "Merge pull request #12 from owner/branch" (GitHub's merge commit) and
# "Merge branch 'name'" (git's own).  A squash merge's subject ends in
# "(#12)" and names no branch; its author and trailers are the PR's.
_MERGED_PR = re.compile(r"\AMerge pull request #([0-9]+) from [^/\s]+/(\S+)")
_MERGED_BRANCH = re.compile(r"\AMerge (?:remote-tracking )?branch '([^']+)'")
_SQUASHED_PR = re.compile(r"\(#([0-9]+)\)\s*\Z")
_NOREPLY = re.compile(r"\A(?:[0-9]+\+)?([^@]+)@users\.noreply\.github\.com\Z", re.IGNORECASE)
_NAME_ADDR = re.compile(r"\A(.*?)\s*<([^<>]*)>\s*\Z")


def merged_branch(subject: str) -> str | None:
    """The head branch a merge subject names, or None."""
    found = _MERGED_PR.match(subject) or _MERGED_BRANCH.match(subject)
    return found.group(found.lastindex or 1) if found else None


def pull_request(subject: str) -> int | None:
    """The PR number a merge or squash subject names, or None."""
    found = _MERGED_PR.match(subject) or _SQUASHED_PR.search(subject)
    return int(found.group(1)) if found else None


def _identity(agent: Agent, name: str, email: str) -> bool:
    """True when a name and e-mail are `agent`'s: one of its e-mails, a
    GitHub no-reply address or name that is one of its logins, or a name
    ending in one of its name suffixes."""
    address = email.strip().casefold()
    if address and address in (e.casefold() for e in agent.emails):
        return True
    spoken = name.strip().casefold()
    if any(spoken.endswith(suffix.casefold()) for suffix in agent.name_suffixes):
        return True
    logins = {login.casefold() for login in agent.logins}
    noreply = _NOREPLY.match(address)
    if noreply is not None and noreply.group(1) in logins:
        return True
    return name.strip().casefold() in logins and "[bot]" in name.casefold()


def bot_login(name: str, email: str) -> str | None:
    """The bot login an e-mail names, or None: a GitHub no-reply address
    whose login ends in `[bot]` (`12+mintlify[bot]@users.noreply.github.com`,
    any case), which only GitHub gives out."""
    noreply = _NOREPLY.match(email.strip())
    if noreply is not None and noreply.group(1).casefold().endswith("[bot]"):
        return noreply.group(1)
    return None


def bot_name(name: str) -> str | None:
    """A git name ending in `[bot]` (any case), or None: the committer's
    text, so weaker than `bot_login`, but no person's name ends so."""
    spoken = name.strip()
    return spoken if spoken.casefold().endswith("[bot]") else None


def classify(commit: Commit, table: Sequence[Agent] | None = None) -> Authorship:
    """AGENT, HUMAN or AUTOMATION for one commit, which agent or bot, and
    by which signal.

    The signals, strongest first: the author, then the committer, is a
    review bot (`REVIEW_BOTS`: AUTOMATION), one of an agent's identities
    (an e-mail, or a login as a bot name or a GitHub no-reply address:
    AGENT), a dependency bot (`DEPENDENCY_BOTS`: AUTOMATION) or any other
    bot's no-reply address (`bot_login`: AUTOMATION); then a
    `Co-authored-by:` trailer names one of an agent's e-mails (a review
    bot's trailer is a suggestion a person accepted and a plain bot's says
    nothing: both are passed over); then the merge subject names a head
    branch matching one of an agent's branch globs (case-folded, as
    `applies_to.head_branches`); then the author's or committer's name ends
    in `[bot]` (`bot_name`: AUTOMATION; after the agent signals, since a
    name is the committer's text and must not hide a trailer).  The first
    that matches decides.  Nothing matching is HUMAN: a person, as far as
    the history tells; a bot is never HUMAN.  A subject's words are no signal: the PR
    title names the topic (`agent`, `codex`) as often as the tool."""
    agents = AGENTS if table is None else tuple(table)
    everyone = (*((a, True) for a in agents), *((b, False) for b in DEPENDENCY_BOTS))

    def found(agent: Agent, coding: bool, how: str) -> Authorship:
        if coding:
            return Authorship(AGENT, agent.name, how)
        return Authorship(AUTOMATION, None, f"{how}; a dependency bot", agent.name)

    for role, name, email in (
        ("author", commit.author_name, commit.author_email),
        ("committer", commit.committer_name, commit.committer_email),
    ):
        shown = f"{role} {name} <{email}>"
        for reviewer in REVIEW_BOTS:
            if _identity(reviewer, name, email):
                return Authorship(AUTOMATION, None, f"{shown}; a review bot", reviewer.name)
        for agent, coding in everyone:
            if _identity(agent, name, email):
                return found(agent, coding, shown)
        login = bot_login(name, email)
        if login is not None:
            return Authorship(AUTOMATION, None, f"{shown}; a bot", login)
    for value in commit.co_authors:
        parsed = _NAME_ADDR.match(value.strip())
        name, email = (parsed.group(1), parsed.group(2)) if parsed else ("", value)
        if any(_identity(reviewer, name, email) for reviewer in REVIEW_BOTS):
            continue
        for agent, coding in everyone:
            if _identity(agent, name, email):
                return found(agent, coding, f"co-author trailer {value.strip()}")
    branch = merged_branch(commit.subject)
    if branch is not None:
        for agent, coding in everyone:
            if agent.branches and globs.matches(branch, agent.branches, globs.FOLDED):
                return found(agent, coding, f"merged branch {branch}")
    for role, name, email in (
        ("author", commit.author_name, commit.author_email),
        ("committer", commit.committer_name, commit.committer_email),
    ):
        login = bot_name(name)
        if login is not None:
            return Authorship(AUTOMATION, None, f"{role} {name} <{email}>; a bot", login)
    return Authorship(HUMAN, None, "no agent signal")
