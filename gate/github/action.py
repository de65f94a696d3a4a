"""`gate action`: the container's entry point.

settings -> event -> pull request -> (git or API) change set + base rubric ->
built-ins -> `selftest.judge_change` (the rubric's examples first, as in
`gate check`) -> publish -> exit code.

The pull request's code is never checked out or executed: git is only asked
for objects (diff, cat-file) and to fetch the two commits; the API is only
asked for the listing and file bytes.  The rubric comes from the base commit.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from gate.changes import ChangeSet
from gate.errors import EXIT_ERROR, GateError, debug_enabled, internal_error
from gate.github import api_changes, merge_queue, publish
from gate.github.client import ApiError, PullInfo
from gate.github.settings import REPORT_NAME, Settings, output_paths
from gate.github.workflow import Log, append_summary, write_outputs
from gate.globs import matches
from gate.jsontext import dumps
from gate.model import DEFAULT_CHECK_NAME, WORKFLOW_EDITED, Result, Rubric
from gate.output import write_new_file
from gate.report import Report, to_json, to_text

ClientFactory = Callable[[Settings], Any]
WORKFLOWS_DIR = ".github/workflows/"


def _default_client(settings: Settings) -> Any:
    from gate.github.client import GitHubClient

    return GitHubClient(settings)


@dataclass
class Run:
    """State of one run, filled in as it goes."""

    settings: Settings
    log: Log
    factory: ClientFactory
    _client: Any = None
    pull: PullInfo | None = None
    queue: merge_queue.QueueEntry | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = self.factory(self.settings)
        return self._client


# -- the pull request ---------------------------------------------------------


def read_event(settings: Settings) -> dict[str, Any]:
    path = settings.event_path
    if not path:
        if settings.event_name == "workflow_dispatch":
            return {}
        raise GateError(
            "GITHUB_EVENT_PATH is not set; `gate action` needs the runner's event payload"
        )
    from gate.jsontext import loads

    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise GateError(f"event payload {path} does not exist (GITHUB_EVENT_PATH)") from None
    except OSError as exc:
        raise GateError(f"cannot read the event payload {path}: {exc.strerror or exc}") from None
    data = loads(raw, f"event payload {path}", fix="the runner's GITHUB_EVENT_PATH file is damaged")
    if not isinstance(data, dict):
        raise GateError(f"event payload {path} is not a JSON object")
    return data


def find_pull(run: Run, event: Mapping[str, Any]) -> PullInfo:
    settings = run.settings
    if settings.event_name == merge_queue.EVENT:
        return queue_pull(run, event)
    if settings.event_name in ("pull_request", "pull_request_target"):
        payload = event.get("pull_request")
        if not isinstance(payload, dict):
            raise GateError(
                f"the {settings.event_name} event payload has no pull_request object "
                f"({settings.event_path})"
            )
        try:
            return PullInfo.from_json(payload)
        except ValueError as exc:
            raise GateError(f"the event payload's pull request is unusable: {exc}") from None
    assert settings.pr_number is not None  # Settings requires it for workflow_dispatch
    return read_pull(run, settings.pr_number, "the pr-number input")


def read_pull(run: Run, number: int, source: str) -> PullInfo:
    """Pull request `number` from the API; `source` says where the number came from."""
    try:
        return run.client.get_pull(number)  # type: ignore[no-any-return]
    except ApiError as exc:
        raise GateError(
            f"cannot read pull request #{number} ({exc.message}); check {source} and the "
            "token's pull-requests: read permission"
        ) from None


def queue_pull(run: Run, event: Mapping[str, Any]) -> PullInfo:
    """Under merge_group: PR N's author, labels and branch, with the entry's commits."""
    entry = run.queue = merge_queue.parse_event(event, run.settings.event_path)
    pull = read_pull(run, entry.number, "merge_group.head_ref")
    run.notes.append(
        f"merge queue entry for pull request #{entry.number}: judged the change from "
        f"merge_group.base_sha {entry.base_sha} to head_sha {entry.head_sha} (what the entry "
        f"adds to the commit it merges onto), against the rubric at {entry.base_sha}"
    )
    return replace(
        pull,
        base_sha=entry.base_sha,
        head_sha=entry.head_sha,
        base_ref=entry.base_branch,
        changed_files=None,
    )


# -- git ----------------------------------------------------------------------


def open_git(run: Run, base: str, head: str) -> Any:
    """A `Repo` on the workspace holding both commits (fetched when missing), or None."""
    from gate.git import Repo

    workspace = run.settings.workspace
    if not workspace or not os.path.isdir(workspace):
        run.notes.append("no workspace checkout: the change was read from the GitHub API")
        return None
    repo = Repo(workspace, config=(f"safe.directory={workspace}",))
    try:
        repo.check_repository()
    except GateError:
        run.notes.append("the workspace is not a git repository: the change was read from the API")
        return None

    def usable() -> bool:
        if repo.try_rev_parse(base) is None or repo.try_rev_parse(head) is None:
            return False
        try:
            repo.merge_base(base, head)
        except GateError:
            return False
        return True

    if usable():
        return repo
    if not _has_origin(repo):
        run.notes.append(
            "the base or head commit is missing from the checkout and there is no origin "
            "remote: the change was read from the API"
        )
        return None
    fetch = ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules"]
    if repo.is_shallow():
        fetch.append("--unshallow")
    try:
        repo.run([*fetch, "origin", base, head])
    except GateError as exc:
        run.log.line(f"fetching the PR's commits failed ({exc.message}); using the API")
    repo = Repo(workspace, config=(f"safe.directory={workspace}",))  # fresh shallow state
    if usable():
        run.log.line("fetched the base and head commits from origin")
        return repo
    run.notes.append(
        "the base or head commit (or their merge base) is not in the checkout and could not "
        "be fetched: the change was read from the API (actions/checkout fetch-depth: 0 "
        "avoids this)"
    )
    return None


def _has_origin(repo: Any) -> bool:
    try:
        repo.run(["remote", "get-url", "origin"])
    except GateError:
        return False
    return True


# -- rubric -------------------------------------------------------------------


def read_rubric(run: Run, repo: Any, base: str) -> bytes | None:
    """The rubric's bytes at `base`, or None when no file is there."""
    from gate.git import short

    path = run.settings.rubric_path
    if repo is not None:
        data: bytes | None = repo.read_blob(base, path)
        return data
    try:
        found: bytes | None = run.client.get_file(base, path)
    except ApiError as exc:
        raise GateError(
            f"cannot read the rubric {path} at base {short(base)} ({exc.message})"
        ) from None
    return found


def missing_rubric(run: Run, base: str) -> str:
    """Why a missing rubric cannot be skipped, as the error sentence; "" when it can."""
    from gate.git import short

    settings = run.settings
    path = settings.rubric_path
    if settings.missing_rubric == "skip" and settings.rubric_sha256 is None:
        return ""
    if settings.missing_rubric == "skip":
        return (
            f"no rubric at {path} in base commit {short(base)}, and the rubric-sha256 input "
            "pins one: a pinned rubric is never skipped; remove the pin for branches "
            "without a rubric, or add the rubric to this base"
        )
    return (
        f"no rubric at {path} in base commit {short(base)}: add it in its own PR first "
        "(gate init writes a starter), or set missing-rubric: skip for bases that "
        "have none; a rubric that exists only in the PR is not a rubric"
    )


def load_rubric(run: Run, data: bytes, base: str) -> Rubric:
    from gate.git import short
    from gate.rubric import load_rubric_bytes, sha256_hex

    path = run.settings.rubric_path
    pin = run.settings.rubric_sha256
    actual = sha256_hex(data)
    if pin is not None and actual != pin:
        raise GateError(
            f"rubric {path} at base {short(base)} has SHA-256 {actual} but the rubric-sha256 "
            f"input pins {pin}: the rubric changed after it was pinned; review the change "
            "and update the pin"
        )
    return load_rubric_bytes(data, f"{short(base)}:{path}")


def applies(rubric: Rubric, pull: PullInfo) -> str | None:
    """None when the PR is judged; else why `applies_to` leaves it out."""
    spec = rubric.applies_to
    if spec is None:
        return None
    if spec.authors and pull.author in spec.authors:
        return None
    if spec.labels and any(label in spec.labels for label in pull.labels):
        return None
    if spec.head_branches and matches(pull.head_ref, spec.head_branches):
        return None
    return (
        f"author {pull.author!r}, labels {list(pull.labels)!r} and head branch "
        f"{pull.head_ref!r} match none of the rubric's applies_to entries"
    )


def read_stdout(settings: Settings) -> str | None:
    name = settings.stdout_file
    if name is None:
        return None
    path = name if os.path.isabs(name) else os.path.join(settings.workspace or ".", name)
    try:
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise GateError(
            f"stdout-file {name} does not exist in the workspace: write the captured test "
            "output there in an earlier step"
        ) from None
    except OSError as exc:
        raise GateError(f"cannot read stdout-file {name} ({exc.strerror})") from None


# -- built-ins ----------------------------------------------------------------


def workflow_edited(changes: ChangeSet, workflow_path: str | None) -> Result:
    """Built-in `gate.workflow-edited`: the change touches the workflow running the gate.

    Without GITHUB_WORKFLOW_REF the running workflow is unknown, so every file
    under .github/workflows/ counts (fail closed)."""
    touched = changes.touched_paths()
    if workflow_path is not None:
        hits = tuple(p for p in touched if p == workflow_path)
        watched = workflow_path
    else:
        hits = tuple(p for p in touched if p.startswith(WORKFLOWS_DIR))
        watched = f"{WORKFLOWS_DIR} (GITHUB_WORKFLOW_REF is not set)"
    if hits:
        message = (
            f"the change touches the workflow that runs the gate ({watched}); under "
            "pull_request that file comes from the PR itself, so a workflow change needs "
            "its own reviewed PR"
        )
    else:
        message = f"the workflow that runs the gate ({watched}) is untouched"
    return Result(id=WORKFLOW_EDITED, kind="builtin", passed=not hits, message=message, paths=hits)


# -- judging ------------------------------------------------------------------


def read_changes(
    run: Run, repo: Any, rubric: Rubric, pull: PullInfo, stdout: str | None
) -> tuple[ChangeSet, Result]:
    if repo is not None:
        from gate.git import changes_from_git

        changes = changes_from_git(
            repo, pull.base_sha, pull.head_sha, rubric.content_files(), stdout=stdout
        )
        return changes, api_changes.diff_incomplete(None)
    try:
        expected = pull.changed_files
        if expected is None:
            expected = run.client.get_pull(pull.number).changed_files
        found = api_changes.listing(run.client.iter_files(pull.number), expected)
        content_files = rubric.content_files()
        # Base-side texts come from the merge base, as in git mode; one compare
        # request finds it, made only when something is read there (a touched
        # content rule's file, a file listed without line counts).
        fork = pull.base_sha
        if api_changes.needs_merge_base(found, content_files):
            fork = run.client.merge_base(pull.base_sha, pull.head_sha)
        changes = api_changes.changes_from_api(
            found,
            base=pull.base_sha,
            head=pull.head_sha,
            content_files=content_files,
            read_file=run.client.get_file,
            stdout=stdout,
            merge_base=fork,
        )
    except ApiError as exc:
        raise GateError(
            f"cannot read the pull request's files from the API ({exc.message}); "
            "check the token's pull-requests: read and contents: read permissions"
        ) from None
    return changes, api_changes.diff_incomplete(found)


def head_moved_note(run: Run, pull: PullInfo) -> None:
    """Re-fetch the PR: if its head moved while judging, say so."""
    try:
        latest = run.client.get_pull(pull.number)
    except ApiError as exc:
        run.log.warning(f"could not re-read the pull request to see if its head moved: {exc}")
        return
    if latest.head_sha != pull.head_sha:
        run.notes.append(
            f"the pull request's head moved to {latest.head_sha} while the gate judged "
            f"{pull.head_sha}; this verdict is for {pull.head_sha}, and the new head gets its "
            "own run"
        )


def skip_report(run: Run, reason: str, rubric: Rubric | None) -> Report:
    """The report of a run that judged nothing (applies_to, or no rubric at the base)."""
    pull = run.pull
    assert pull is not None
    return Report(
        passed=True,
        failed=(),
        rule_count=len(rubric.rules) if rubric is not None else 0,
        rubric_sha256=rubric.sha256 if rubric is not None else None,
        base=pull.base_sha,
        head=pull.head_sha,
        stats=ChangeSet().stats(),
        results=(),
        notes=(f"skipped: {reason}", *run.notes),
    )


def queue_entry_differs(run: Run, changes: ChangeSet) -> str | None:
    """Under merge_group: why the entry is not PR N's change alone (None: it is)."""
    pull = run.pull
    assert pull is not None and run.queue is not None
    try:
        own = api_changes.listing(
            run.client.iter_files(pull.number), run.client.get_pull(pull.number).changed_files
        )
    except ApiError as exc:
        return f"the pull request's own files could not be listed ({exc.message})"
    if not api_changes.diff_incomplete(own).passed:
        return "the pull request's own files listing is incomplete"
    return merge_queue.differs(changes.files, own.files)


def judge(run: Run, event: Mapping[str, Any]) -> publish.Verdict:
    from gate.git import short
    from gate.selftest import judge_change

    settings = run.settings
    pull = run.pull = find_pull(run, event)
    queued = run.queue is not None
    what = "merge queue entry for pull request" if queued else "pull request"
    run.log.line(f"judging {what} #{pull.number}")
    run.log.untrusted(
        f"title: {pull.title}\nauthor: {pull.author}\nbase: {pull.base_ref} {pull.base_sha}\n"
        f"head: {pull.head_ref} {pull.head_sha}"
    )
    repo = open_git(run, pull.base_sha, pull.head_sha)
    if queued and repo is None:
        raise GateError(
            "a merge_group run reads the queue entry from git: check the repository out with "
            "actions/checkout (fetch-depth: 0) before the gate, so the workspace holds "
            f"merge_group.base_sha {short(pull.base_sha)} and head_sha {short(pull.head_sha)}"
        )
    run.log.line("reading the change from " + ("git" if repo is not None else "the GitHub API"))
    data = read_rubric(run, repo, pull.base_sha)
    if data is None:
        problem = missing_rubric(run, pull.base_sha)
        if problem:
            raise GateError(problem)
        return publish.no_rubric(
            settings.check_name,
            settings.rubric_path,
            skip_report(
                run,
                f"no rubric at {settings.rubric_path} in base commit {pull.base_sha} "
                "(missing-rubric: skip)",
                None,
            ),
        )
    rubric = load_rubric(run, data, pull.base_sha)
    reason = applies(rubric, pull)
    stdout = read_stdout(settings) if reason is None or queued else None
    changes: tuple[ChangeSet, Result] | None = None
    if reason is not None and queued:
        # PR N's author and labels speak for the entry only if it is PR N alone.
        changes = read_changes(run, repo, rubric, pull, stdout)
        other = queue_entry_differs(run, changes[0])
        if other is not None:
            run.notes.append(
                f"applies_to leaves pull request #{pull.number} out, but this queue entry is "
                f"not that pull request's change alone ({other}), so the entry is judged"
            )
            reason = None
    if reason is not None:
        return publish.skipped(settings.check_name, skip_report(run, reason, rubric))
    if changes is None:
        changes = read_changes(run, repo, rubric, pull, stdout)
    found, complete = changes
    builtins = [workflow_edited(found, settings.workflow_path), complete]
    if not queued:  # a queue entry's head never moves
        head_moved_note(run, pull)
    report = judge_change(  # the rubric's examples run first, as in `gate check`
        rubric,
        found,
        rubric_path=settings.rubric_path,
        builtins=builtins,
        notes=tuple(run.notes),
    )
    return publish.judged(report, settings.check_name)


# -- output -------------------------------------------------------------------


def report_json(verdict: publish.Verdict) -> str | None:
    if verdict.report is None:
        return None
    if verdict.state == "skipped":
        data = verdict.report.to_dict()
        data["skipped"] = True
        return dumps(data)
    return to_json(verdict.report)


def log_verdict(log: Log, verdict: publish.Verdict, check_name: str) -> None:
    title = check_name
    if verdict.state == "judged" and verdict.report is not None:
        if verdict.passed:
            log.notice(verdict.title, title=title)
        else:
            log.error(verdict.title, title=title)
        log.untrusted(to_text(verdict.report))
    elif verdict.state == "skipped":
        log.notice(verdict.title, title=title)
        if verdict.report is not None:
            log.untrusted("\n".join(verdict.report.notes))
    else:
        log.error(verdict.title, title=title)


def finish(run: Run, verdict: publish.Verdict) -> int:
    settings = run.settings
    log = run.log
    log_verdict(log, verdict, settings.check_name)

    report_value = ""
    data = report_json(verdict)
    if data is not None:
        target = os.path.join(settings.workspace or ".", REPORT_NAME)
        try:
            write_new_file(target, data)
            report_value = REPORT_NAME if settings.workspace else os.path.abspath(target)
        except OSError as exc:
            log.warning(f"could not write the JSON report {target}: {exc.strerror}")

    warnings: list[str] = []
    if run.pull is not None:
        if not settings.token:
            warnings.append("no github-token: the check run and the comment were not posted")
            log.warning(warnings[-1])
        else:
            try:
                result = publish.publish(
                    run.client,
                    verdict=verdict,
                    check_name=settings.check_name,
                    head_sha=run.pull.head_sha,
                    pr_number=run.pull.number,
                    comment_policy=settings.comment,
                    log=log,
                )
                warnings.extend(result.warnings)
                posted = "posted" if result.check_run_id is not None else "not posted"
                log.line(f"check run {posted}; comment: {result.comment_action}")
            except Exception as exc:  # publishing must never change the verdict
                warnings.append(f"publishing failed: {type(exc).__name__}: {exc}")
                log.warning(warnings[-1])

    summary = verdict.markdown
    if warnings:
        from gate.escape import markdown_text

        summary += "\n**Not published:**\n\n" + "".join(f"- {markdown_text(w)}\n" for w in warnings)
    try:
        append_summary(settings.summary_file, publish.fit(summary))
        write_outputs(
            settings.output_file,
            {
                "passed": "true" if verdict.passed else "false",
                "failed-rules": ",".join(verdict.failed),
                "report": report_value,
            },
        )
    except OSError as exc:
        log.warning(f"could not write the job summary or outputs: {exc}")
    return verdict.exit_code


def run(
    env: Mapping[str, str],
    *,
    client_factory: ClientFactory | None = None,
    out: TextIO | None = None,
) -> int:
    """Judge the pull request the runner's environment names; returns the exit code.

    Any exception the gate did not expect (a bug, RecursionError, MemoryError)
    is a "could not judge" verdict like a `GateError`: exit 2, `passed=false`,
    the job summary and a failing check run.  If publishing itself breaks,
    `last_resort` still leaves the outputs and the summary.
    """
    log = Log(out if out is not None else sys.stdout)
    state: Run | None = None
    try:
        try:
            settings = Settings.from_env(env)
        except GateError as exc:
            return last_resort(env, log, exc.message, None)
        state = Run(settings=settings, log=log, factory=client_factory or _default_client)
        try:
            event = read_event(settings)
            verdict = judge(state, event)
        except GateError as exc:
            verdict = publish.errored(settings.check_name, exc.message, state.notes)
        except ApiError as exc:
            verdict = publish.errored(
                settings.check_name, f"the GitHub API failed: {exc.message}", state.notes
            )
        except Exception as exc:  # not expected: never a verdict, always exit 2
            verdict = publish.errored(settings.check_name, internal_error(exc), state.notes)
            _debug_traceback(env, log, exc)
        return finish(state, verdict)
    except Exception as exc:  # finishing broke: leave outputs and a summary regardless
        _debug_traceback(env, log, exc)
        return last_resort(env, log, internal_error(exc), state)


def _debug_traceback(env: Mapping[str, str], log: Log, exc: BaseException) -> None:
    if debug_enabled(env):
        import traceback

        log.untrusted("".join(traceback.format_exception(exc)))


def last_resort(env: Mapping[str, str], log: Log, message: str, state: Run | None) -> int:
    """Fail closed when there are no settings or `finish` broke: the error in
    the log, `passed=false` in the outputs, the job summary, and (when the PR
    and a token are known) a failing check run.  Each step is tried on its
    own; nothing here may raise, and the exit code is always 2."""
    check_name = state.settings.check_name if state is not None else DEFAULT_CHECK_NAME
    verdict = publish.errored(check_name, message, state.notes if state is not None else ())
    with contextlib.suppress(Exception):
        log.error(message, title=f"{check_name}: could not judge")
    output_file, summary_file = output_paths(env)
    with contextlib.suppress(Exception):
        write_outputs(output_file, {"passed": "false", "failed-rules": "", "report": ""})
    with contextlib.suppress(Exception):
        append_summary(summary_file, verdict.markdown)
    if state is not None and state.pull is not None and state.settings.token:
        with contextlib.suppress(Exception):
            publish.publish(
                state.client,
                verdict=verdict,
                check_name=check_name,
                head_sha=state.pull.head_sha,
                pr_number=state.pull.number,
                comment_policy=state.settings.comment,
                log=log,
            )
    return EXIT_ERROR
