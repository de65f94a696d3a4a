"""The Action's settings, read once from a mapping of the runner's environment.

`Settings.from_env(env)` is the only place in the gate that reads the
environment for the Action; everything downstream receives values.  Inputs
arrive as the runner builds them for a Docker action: `INPUT_<NAME>` with the
name upper-cased and its hyphens kept (`INPUT_RUBRIC-PATH`).  The runner
always passes every input declared in `action.yml`, with its default, so an
empty value means "not given".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

from gate.base.errors import GateError, debug_enabled
from gate.model.rubric import DEFAULT_CHECK_NAME, DEFAULT_RUBRIC_PATH, repo_path

C = TypeVar("C", bound=str)

# The kebab-case names declared in action.yml (a test compares them).
INPUTS = (
    "rubric-path",
    "github-token",
    "check-name",
    "comment",
    "pr-number",
    "stdout-file",
    "rubric-sha256",
    "missing-rubric",
    "mode",
)
OUTPUTS = ("passed", "failed-rules", "waived-rules", "warned-rules", "report")

# Defaults as action.yml declares them (the runner fills them in; these apply
# only when a variable is missing altogether, e.g. `gate action` run by hand).
INPUT_DEFAULTS: Mapping[str, str] = {
    "rubric-path": DEFAULT_RUBRIC_PATH,
    "github-token": "${{ github.token }}",
    "check-name": DEFAULT_CHECK_NAME,
    "comment": "on-failure",
    "missing-rubric": "fail",
    "mode": "enforce",
}

CommentPolicy = Literal["on-failure", "always", "never"]
COMMENT_POLICIES: tuple[CommentPolicy, ...] = get_args(CommentPolicy)
# What `missing-rubric` may say when the base commit has no rubric: fail (exit
# 2, the safe default) or skip (a neutral check run saying so, exit 0).
MissingRubricPolicy = Literal["fail", "skip"]
MISSING_RUBRIC_POLICIES: tuple[MissingRubricPolicy, ...] = get_args(MissingRubricPolicy)
# `mode`: enforce (the default: the check concludes success or failure) or
# report-only (a trial: every judged run concludes neutral and exits 0, its
# comment and summary saying what would fail; a run that cannot judge still
# fails closed, exit 2 and a failing check run).
Mode = Literal["enforce", "report-only"]
MODES: tuple[Mode, ...] = get_args(Mode)
Event = Literal[
    "pull_request", "pull_request_target", "workflow_dispatch", "workflow_run", "merge_group"
]
EVENTS: tuple[Event, ...] = get_args(Event)
DEFAULT_API_URL = "https://api.github.com"
# Where the JSON report goes, relative to the workspace (documented in docs/action.md).
REPORT_NAME = "blast-radius-report.json"

_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\Z")


def input_env_name(name: str) -> str:
    """The environment variable the runner sets for input `name`."""
    return "INPUT_" + name.upper()


@dataclass(frozen=True)
class Retry:
    """Retry policy for the API: `attempts` retries after the first try,
    exponential backoff from `base_seconds`, each wait at most `max_seconds`
    (a primary rate limit's reset and a Retry-After included), and no wait
    at all that would end past `budget_seconds` from the client's start: a
    run then fails closed (exit 2) instead of sleeping toward the job's
    timeout."""

    attempts: int = 4
    base_seconds: float = 2.0
    max_seconds: float = 60.0
    budget_seconds: float = 180.0


@dataclass(frozen=True)
class Settings:
    rubric_path: str
    token: str
    check_name: str
    comment: CommentPolicy
    pr_number: int | None
    stdout_file: str | None
    rubric_sha256: str | None
    missing_rubric: MissingRubricPolicy
    event_name: Event
    event_path: str | None
    repository: str
    api_url: str
    workspace: str | None
    output_file: str | None
    summary_file: str | None
    workflow_ref: str | None
    mode: Mode = "enforce"
    retry: Retry = Retry()
    debug: bool = False  # GATE_DEBUG: an internal error's traceback goes to the log

    @property
    def workflow_path(self) -> str | None:
        """The repository path of the workflow running the gate, from
        GITHUB_WORKFLOW_REF (`owner/repo/.github/workflows/x.yml@refs/...`)."""
        return workflow_path(self.workflow_ref, self.repository)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        def get_input(name: str) -> str | None:
            value = get(input_env_name(name))
            if value is None:
                value = INPUT_DEFAULTS.get(name)
            return value

        given_event = get("GITHUB_EVENT_NAME")
        if given_event is None:
            raise GateError(
                "GITHUB_EVENT_NAME is not set; `gate action` runs inside a GitHub Actions "
                "job (use `gate check` on a workstation)"
            )
        event_name = _one_of(
            given_event,
            EVENTS,
            f'the gate cannot judge a "{given_event}" event; run it on pull_request, '
            "pull_request_target, merge_group, workflow_run (after the review workflow), or "
            "workflow_dispatch with the pr-number input",
        )
        repository = get("GITHUB_REPOSITORY")
        if repository is None or not _REPOSITORY.match(repository):
            raise GateError(
                "GITHUB_REPOSITORY is missing or not OWNER/NAME; run the gate inside a "
                "GitHub Actions job"
            )

        api_url = (get("GITHUB_API_URL") or DEFAULT_API_URL).rstrip("/")
        if not api_url.lower().startswith(("https://", "http://")):
            raise GateError(
                "GITHUB_API_URL is not an http(s) URL; the runner sets it (unset it to use "
                f"{DEFAULT_API_URL})"
            )

        given = get_input("comment") or "on-failure"
        comment = _one_of(
            given,
            COMMENT_POLICIES,
            f'input comment is "{given}"; use one of on-failure, always, never',
        )

        rubric_path = repo_path(
            get_input("rubric-path") or DEFAULT_RUBRIC_PATH,
            name="input rubric-path",
            fix="set it like .github/blast-radius.yml",
        )

        check_name = get_input("check-name") or DEFAULT_CHECK_NAME
        if len(check_name) > 100 or any(ord(c) < 32 for c in check_name):
            raise GateError(
                "input check-name must be one line of at most 100 characters; "
                "set a short name such as blast-radius"
            )

        token = get_input("github-token") or ""
        if token.startswith("${{"):
            token = ""  # the literal default outside a runner: no token

        pr_number: int | None = None
        raw_number = get_input("pr-number")
        if raw_number is not None:
            text = raw_number.lstrip("#")
            if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) <= 0:
                shown = raw_number if len(raw_number) <= 24 else raw_number[:21] + "..."
                raise GateError(
                    f'input pr-number is "{shown}"; give a pull request number such as 42'
                )
            pr_number = int(text)
        if event_name == "workflow_dispatch" and pr_number is None:
            raise GateError(
                "a workflow_dispatch run needs the pr-number input naming the pull request "
                "to judge; add `pr-number: ${{ inputs.pr-number }}` to the step's `with:`"
            )

        given = get_input("missing-rubric") or "fail"
        missing_rubric = _one_of(
            given,
            MISSING_RUBRIC_POLICIES,
            f'input missing-rubric is "{given}"; use fail (the default: no rubric '
            "at the base is exit 2) or skip (a neutral check run saying so)",
        )

        given = get_input("mode") or "enforce"
        mode = _one_of(
            given,
            MODES,
            f'input mode is "{given}"; use enforce (the default: the check fails when a rule '
            "fails) or report-only (a trial: the check concludes neutral and blocks nothing)",
        )

        pin = get_input("rubric-sha256")
        if pin is not None:
            pin = pin.lower()
            if not _SHA256.match(pin):
                raise GateError(
                    "input rubric-sha256 must be 64 hexadecimal digits; "
                    "print it with `gate freeze .github/blast-radius.yml`"
                )

        return cls(
            rubric_path=rubric_path,
            token=token,
            check_name=check_name,
            comment=comment,
            pr_number=pr_number,
            stdout_file=get_input("stdout-file"),
            rubric_sha256=pin,
            missing_rubric=missing_rubric,
            event_name=event_name,
            event_path=get("GITHUB_EVENT_PATH"),
            repository=repository,
            api_url=api_url,
            workspace=get("GITHUB_WORKSPACE"),
            output_file=get("GITHUB_OUTPUT"),
            summary_file=get("GITHUB_STEP_SUMMARY"),
            workflow_ref=get("GITHUB_WORKFLOW_REF"),
            mode=mode,
            retry=_retry_from_env(env),
            debug=debug_enabled(env),
        )


def _one_of(value: str, choices: tuple[C, ...], error: str) -> C:
    """`value` as one of `choices` (typed as the choice); else GateError(`error`)."""
    for choice in choices:
        if choice == value:
            return choice
    raise GateError(error)


def output_paths(env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), for reporting a settings error."""
    return env.get("GITHUB_OUTPUT") or None, env.get("GITHUB_STEP_SUMMARY") or None


def _retry_from_env(env: Mapping[str, str]) -> Retry:
    """GATE_RETRY_ATTEMPTS / GATE_RETRY_BASE_SECONDS / GATE_RETRY_MAX_SECONDS /
    GATE_API_BUDGET_SECONDS."""
    default = Retry()

    def number(name: str, fallback: float, upper: float) -> float:
        raw = env.get(name, "").strip()
        if not raw:
            return fallback
        try:
            value = float(raw)
        except ValueError:
            raise GateError(f'{name} is "{raw}"; give a number of seconds or tries') from None
        if not 0 <= value <= upper:
            raise GateError(f"{name} is {raw}; give a number between 0 and {upper:g}")
        return value

    return Retry(
        attempts=int(number("GATE_RETRY_ATTEMPTS", default.attempts, 10)),
        base_seconds=number("GATE_RETRY_BASE_SECONDS", default.base_seconds, 60),
        max_seconds=number("GATE_RETRY_MAX_SECONDS", default.max_seconds, 300),
        budget_seconds=number("GATE_API_BUDGET_SECONDS", default.budget_seconds, 1800),
    )


def workflow_path(workflow_ref: str | None, repository: str) -> str | None:
    """`owner/repo/.github/workflows/x.yml@refs/pull/1/merge` -> `.github/workflows/x.yml`.

    None when the reference is absent, names another repository's file, or
    splits into a workflow path and a ref in more than one way (`@` in the
    branch name and in the file name: `a.yml@refs/heads/b@c.yml`); the
    built-in then watches every file under `.github/workflows/`.
    """
    if not workflow_ref:
        return None
    # A file name and a branch name may both hold `@`: split where the part
    # before is a workflow file (`.yml`/`.yaml`); when that is not one place,
    # the running workflow is unknown and every workflow file is watched.
    splits = [
        workflow_ref[:at]
        for at, ch in enumerate(workflow_ref)
        if ch == "@" and workflow_ref[:at].lower().endswith((".yml", ".yaml"))
    ]
    if "@" not in workflow_ref:
        splits = [workflow_ref]
    if len(splits) != 1:
        return None
    ref_path = splits[0]
    prefix = repository + "/"
    if not ref_path.lower().startswith(prefix.lower()):
        return None
    path = ref_path[len(prefix) :]
    return path or None
