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
    (advisory: whoever opens a PR names its branch).  `markers`: text its
    tool writes into a commit message by default, matched case-folded as a
    substring (advisory: the committer's text, and easily turned off).
    `trust`: one sentence for the docs on how far its signals can be
    trusted."""

    name: str
    logins: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    branches: tuple[str, ...] = ()
    trust: str = ""
    markers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Authorship:
    """What `classify` decided: `kind` is AGENT or HUMAN, `agent` the
    `Agent.name` (None for HUMAN), `how` the signal, in words a report shows
    (`co-author trailer Claude <noreply@anthropic.com>`)."""

    kind: str
    agent: str | None
    how: str


# Sources for every entry: docs/agents.md (the table, with links and the
# public commits each identity was seen in).  Logins are exact (GitHub's
# `user.login`); e-mails are compared case-folded; branch globs are advisory.
AGENTS: tuple[Agent, ...] = (
    Agent(
        name="GitHub Copilot coding agent",
        logins=("Copilot", "copilot-swe-agent[bot]"),
        emails=("198982749+Copilot@users.noreply.github.com",),
        branches=("copilot/**",),
        trust="The PR's author login is GitHub's to give (the REST API reports `Copilot`, "
        "a Bot; events may name `copilot-swe-agent[bot]`), so `authors` is a strong "
        "selector; its commits carry the bot's e-mail; the `copilot/` branch is advisory.",
    ),
    Agent(
        name="GitHub Copilot CLI",
        emails=("223556219+Copilot@users.noreply.github.com",),
        markers=("Copilot-Session:",),
        trust="Runs on the developer's machine and pushes as the developer: the only "
        "signal is the `Co-authored-by: Copilot` trailer it adds (opt-out), text the "
        "committer controls.",
    ),
    Agent(
        name="Claude Code",
        emails=("noreply@anthropic.com",),
        markers=("Generated with [Claude Code]", "Generated with Claude Code"),
        branches=("claude/**",),
        trust="Runs as the developer (terminal, IDE, or the web app, which names its "
        "branches `claude/`); the `Co-Authored-By: Claude <noreply@anthropic.com>` "
        "trailer is on by default and can be turned off in settings, so it is advisory.",
    ),
    Agent(
        name="Claude Code GitHub Action",
        logins=("claude[bot]",),
        emails=(
            "209825114+claude[bot]@users.noreply.github.com",
            "41898282+claude[bot]@users.noreply.github.com",
        ),
        branches=("claude/**",),
        trust="Commits as the Claude GitHub App's bot (strong when the app's token is "
        "used); on an issue it pushes a `claude/` branch and links a prefilled PR that a "
        "person opens, so the PR's author is usually that person.",
    ),
    Agent(
        name="OpenAI Codex",
        emails=("noreply@openai.com", "codex@openai.com"),
        markers=("Generated with Codex", "Generated with OpenAI Codex"),
        branches=("codex/**",),
        trust="Codex cloud opens its PRs under the account of the person who asked, on a "
        "`codex/` branch; the connector bot's login reviews and comments rather than "
        "authors; trailers naming Codex are the committer's text.",
    ),
    Agent(
        name="Cursor agent",
        emails=("cursoragent@cursor.com",),
        branches=("cursor/**",),
        trust="Cursor's cloud agents commit as `Cursor Agent <cursoragent@cursor.com>` on "
        "`cursor/` branches and the editor adds a `Co-authored-by: Cursor` trailer; the PR "
        "is usually opened by the person (`cursor[bot]` is the Bugbot reviewer's login).",
    ),
    Agent(
        name="Devin",
        logins=("devin-ai-integration[bot]",),
        markers=("Generated with [Devin]",),
        emails=("158243242+devin-ai-integration[bot]@users.noreply.github.com",),
        branches=("devin/**",),
        trust="Devin opens PRs as its GitHub App bot (strong); its `devin/<timestamp>-` "
        "branches and `Co-Authored-By: Devin` trailers are advisory.",
    ),
    Agent(
        name="Google Jules",
        logins=("google-labs-jules[bot]",),
        emails=("161369871+google-labs-jules[bot]@users.noreply.github.com",),
        trust="Jules commits as its bot but usually opens the PR under the user's account, "
        "so the commit author or co-author, not the PR's login, is the signal.",
    ),
    Agent(
        name="Amazon Q Developer",
        logins=("amazon-q-developer[bot]",),
        trust="Its agent opens PRs as the `amazon-q-developer[bot]` app (strong); no commit "
        "e-mail or branch prefix is documented.",
    ),
    Agent(
        name="OpenHands",
        logins=("openhands-agent",),
        emails=("openhands@all-hands.dev",),
        branches=("openhands/**",),
        trust="The GitHub resolver pushes as whichever account's token it was given "
        "(`openhands-agent` by default in its workflow) and commits as "
        "`openhands <openhands@all-hands.dev>`: a login of a plain user account, so as "
        "strong as that account's token is well kept.",
    ),
    Agent(
        name="Sweep",
        logins=("sweep-ai[bot]",),
        branches=("sweep/**",),
        trust="Opens PRs as its GitHub App bot (strong); `sweep/` branches are advisory.",
    ),
    Agent(
        name="Aider",
        emails=("noreply@aider.chat",),
        trust="A local tool: it commits as the developer, marks the author name "
        "`(aider)` and adds a `Co-authored-by: aider (<model>) <noreply@aider.chat>` "
        "trailer, both configurable, so advisory.",
    ),
)
