"""`gate action`: the container's entry point, one function a stage.

    env --Settings.from_env--> Settings                       (settings.py)
        --read_event, find_target--> Target: the pull request
          or the merge queue entry                             (event.py)
        --open_checkout--> Checkout: git on the workspace when it
          holds both commits, else the API
        --base_rubric--> the Rubric at the base (None: missing-rubric: skip)
        --in_scope--> Skip (applies_to) or Change: the change set
          from git or the API, and built-in gate.diff-incomplete
        --gate.judge.judge--> Report (the rubric's examples first, with the
          built-ins, as in `gate check`) --publish.judged--> Verdict
        --finish--> the log, the JSON report, the check run and the
          comment, the job summary and the outputs --> exit code

Each stage takes values and returns values; notes travel in them and `judge`
joins them, so a stage that cannot judge still reports the notes so far.  The
injected parts are the API `Client` (tests pass the real PyGithub client
pointed at the API double) and the `Log`.

The pull request's code is never checked out or executed: git is only asked
for objects (diff, cat-file) and to fetch the two commits; the API is only
asked for the listing and file bytes.  The rubric comes from the base commit.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, TextIO

from gate import waivers
from gate.changes import ChangeSet
from gate.changes import api as api_changes
from gate.changes.git import changes_from_git
from gate.errors import EXIT_ERROR, GateError, debug_enabled, internal_error
from gate.escape import printable
from gate.files import read_captured, write_new_file
from gate.git.repo import Repo, short
from gate.github import merge_queue, publish
from gate.github.client import ApiError, Client, Comparison, PullInfo, Reader
from gate.github.event import Target, find_target, read_event
from gate.github.settings import REPORT_NAME, Settings, output_paths
from gate.github.workflow import Log, append_summary, write_outputs
from gate.globs import FOLDED, matches
from gate.jsontext import dumps
from gate.paths import fold
from gate.report import Report, RuleResult, to_json, to_text
from gate.rubric import DEFAULT_CHECK_NAME, Rubric
from gate.rubric.source import BlobReader, RubricSource
from gate.rules import text_wants
from gate.rules.builtin import diff_incomplete, workflow_edited

ClientFactory = Callable[[Settings], Client]


def default_client(settings: Settings) -> Client:
    """The PyGithub-backed client (imported here: nothing else loads PyGithub)."""
    from gate.github.client import GitHubClient

    return GitHubClient(settings)


# -- git ----------------------------------------------------------------------


@dataclass(frozen=True)
class Checkout:
    """Where the change is read: `repo`, the workspace holding both commits
    and their merge base, or None (the API); `notes` say why not git."""

    repo: Repo | None
    notes: tuple[str, ...] = ()


def open_checkout(workspace: str | None, log: Log, base: str, head: str) -> Checkout:
    """The workspace's git repository when it holds `base` and `head`
    (fetched from origin when missing), else the API."""
    if not workspace or not os.path.isdir(workspace):
        return Checkout(None, ("no workspace checkout: the change was read from the GitHub API",))
    repo = _workspace_repo(workspace)
    try:
        repo.check_repository()
    except GateError:
        return Checkout(
            None, ("the workspace is not a git repository: the change was read from the API",)
        )
    if _holds(repo, base, head):
        return Checkout(repo)
    if not _has_origin(repo):
        return Checkout(
            None,
            (
                "the base or head commit is missing from the checkout and there is no origin "
                "remote: the change was read from the API",
            ),
        )
    fetch = ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules"]
    if repo.is_shallow():
        fetch.append("--unshallow")
    try:
        repo.run([*fetch, "origin", base, head])
    except GateError as exc:
        log.line(f"fetching the PR's commits failed ({exc.message}); using the API")
    repo = _workspace_repo(workspace)  # fresh shallow state
    if _holds(repo, base, head):
        log.line("fetched the base and head commits from origin")
        return Checkout(repo)
    return Checkout(
        None,
        (
            "the base or head commit (or their merge base) is not in the checkout and could "
            "not be fetched: the change was read from the API (actions/checkout fetch-depth: 0 "
            "avoids this)",
        ),
    )


def _workspace_repo(workspace: str) -> Repo:
    return Repo(workspace, config=(f"safe.directory={workspace}",))


def _holds(repo: Repo, base: str, head: str) -> bool:
    """Whether `repo` has both commits and a merge base of them."""
    if repo.try_rev_parse(base) is None or repo.try_rev_parse(head) is None:
        return False
    try:
        repo.merge_base(base, head)
    except GateError:
        return False
    return True


def _has_origin(repo: Repo) -> bool:
    try:
        repo.run(["remote", "get-url", "origin"])
    except GateError:
        return False
    return True


def queue_needs_git(pull: PullInfo) -> str:
    """Why a merge_group run without the commits in git cannot judge."""
    return (
        "a merge_group run reads the queue entry from git: check the repository out with "
        "actions/checkout (fetch-depth: 0) before the gate, so the workspace holds "
        f"merge_group.base_sha {short(pull.base_sha)} and head_sha {short(pull.head_sha)}"
    )


# -- rubric -------------------------------------------------------------------


def base_rubric(settings: Settings, client: Reader, repo: Repo | None, base: str) -> Rubric | None:
    """The rubric at `base`, its pin checked; None when there is none and
    missing-rubric: skip allows that (else GateError)."""
    source = RubricSource(settings.rubric_path, sha256=settings.rubric_sha256)
    rubric = source.at_commit(blob_reader(client, repo), base)
    if rubric is None:
        problem = missing_rubric(settings, base)
        if problem:
            raise GateError(problem)
    return rubric


def blob_reader(client: Reader, repo: Repo | None) -> BlobReader:
    """Reads a file at a commit from git when there is a checkout, else from the API."""
    if repo is not None:
        return repo.read_blob

    def from_api(commit: str, path: str) -> bytes | None:
        try:
            return client.get_file(commit, path)
        except ApiError as exc:
            raise GateError(
                f"cannot read the rubric {path} at base {short(commit)} ({exc.message})"
            ) from None

    return from_api


def missing_rubric(settings: Settings, base: str) -> str:
    """Why a missing rubric cannot be skipped, as the error sentence; "" when it can."""
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


def applies(rubric: Rubric, pull: PullInfo) -> str | None:
    """None when the PR is judged; else why `applies_to` leaves it out.
    Logins, labels and branch globs match in any letter case and Unicode
    normalization (`gate.paths.fold`, `gate.globs.FOLDED`), and a PR whose
    author, labels or branch the payload left unknown is judged."""
    spec = rubric.applies_to
    if spec is None:
        return None
    # Folded (letter case, Unicode normalization): GitHub logins and label
    # names are case-insensitive, and a PR left out gets a neutral check, so
    # a spelling the rubric did not foresee must never skip a PR.
    wanted = {"authors": "author", "labels": "labels", "head_branches": "head_ref"}
    if any(getattr(spec, key) and field in pull.unknown for key, field in wanted.items()):
        return None  # the payload does not say: judge rather than skip
    if spec.authors and fold(pull.author) in {fold(a) for a in spec.authors}:
        return None
    if spec.labels and {fold(label) for label in pull.labels} & {fold(x) for x in spec.labels}:
        return None
    if spec.head_branches and matches(pull.head_ref, spec.head_branches, FOLDED):
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
    return read_captured(
        path,
        "stdout-file",
        name=printable(name),
        fix="write the captured test output there (in the workspace) in an earlier step",
    )


# -- the change ---------------------------------------------------------------


class Change(NamedTuple):
    """The change to judge, built-in `gate.diff-incomplete` on how completely
    it was read, and what the report should say about it."""

    changes: ChangeSet
    complete: RuleResult
    notes: tuple[str, ...] = ()


class Skip(NamedTuple):
    """The rubric's `applies_to` leaves the target out: why."""

    reason: str


def in_scope(
    settings: Settings, client: Reader, target: Target, repo: Repo | None, rubric: Rubric
) -> Change | Skip:
    """The change when the rubric judges the target, else why not."""
    pull = target.pull
    reason = applies(rubric, pull)
    if reason is None:
        return read_change(client, repo, rubric, pull, read_stdout(settings))
    if target.queue is None:
        return Skip(reason)
    # PR N's author and labels speak for the entry only if it is PR N alone.
    change = read_change(client, repo, rubric, pull, read_stdout(settings))
    other = queue_entry_differs(client, pull.number, change.changes)
    if other is None:
        return Skip(reason)
    note = (
        f"applies_to leaves pull request #{pull.number} out, but this queue entry is "
        f"not that pull request's change alone ({other}), so the entry is judged"
    )
    return change._replace(notes=(note,))


def read_change(
    client: Reader, repo: Repo | None, rubric: Rubric, pull: PullInfo, stdout: str | None
) -> Change:
    """The change `base...head` from git when `repo` holds it, else from the API."""
    if repo is not None:
        changes = changes_from_git(
            repo, pull.base_sha, pull.head_sha, text_wants(rubric.rules), stdout=stdout
        )
        return Change(changes, diff_incomplete(None))
    try:
        # The event's own two commits: the compare API's base...head, never
        # the PR files listing (the PR as it is now, maybe another head).
        comparison = client.compare(pull.base_sha, pull.head_sha)
        expected = pull.changed_files
        if expected is None:
            latest = client.get_pull(pull.number)
            same = (latest.base_sha, latest.head_sha) == (pull.base_sha, pull.head_sha)
            expected = latest.changed_files if same else None
        other = api_changes.other_history(comparison) or other_merge_base(client, comparison)
        if other is not None:
            raise GateError(
                f"{other}: the API names one merge base and cannot show what merging the "
                "change would do; check out both commits (actions/checkout with "
                "fetch-depth: 0) so the gate judges the merge from git"
            )
        found = api_changes.listing(comparison.files, expected)
        content_files = text_wants(rubric.rules)
        # Base-side texts come from the merge base, as in git mode.
        fork = comparison.merge_base
        changes = api_changes.changes_from_api(
            found,
            base=pull.base_sha,
            head=pull.head_sha,
            content_files=content_files,
            read_file=client.get_file,
            stdout=stdout,
            merge_base=fork,
            list_folder=client.list_folder,
        )
    except ApiError as exc:
        raise GateError(
            f"cannot read the pull request's files from the API ({exc.message}); "
            "check the token's pull-requests: read and contents: read permissions"
        ) from None
    return Change(changes, diff_incomplete(found))


def other_merge_base(client: Reader, comparison: Comparison) -> str | None:
    """Why base and head may have merge bases besides the one the compare API
    names (None: it is the only one).  Each commit outside the change that a
    commit of the change has as a parent must be an ancestor of that merge
    base (one compare request each, up to `api_changes.FORK_CHECKS`)."""
    fork = comparison.merge_base
    outside = api_changes.forks(comparison)
    if len(outside) > api_changes.FORK_CHECKS:
        return (
            f"the change's commits have {len(outside)} parents outside it besides the merge "
            f"base, over the {api_changes.FORK_CHECKS} the gate checks through the API"
        )
    for parent in outside:
        if client.compare(parent, fork).behind_by != 0:
            return (
                f"commit {short(parent)}, a parent of the change's commits, is not an "
                f"ancestor of the merge base {short(fork)}, so base and head have several "
                "merge bases"
            )
    return None


def queue_entry_differs(client: Reader, number: int, changes: ChangeSet) -> str | None:
    """Under merge_group: why the entry is not PR `number`'s change alone (None: it is)."""
    try:
        own = api_changes.listing(client.iter_files(number), client.get_pull(number).changed_files)
    except ApiError as exc:
        return f"the pull request's own files could not be listed ({exc.message})"
    if not diff_incomplete(own).passed:
        return "the pull request's own files listing is incomplete"
    return merge_queue.differs(changes.files, own.files)


def head_moved(client: Reader, log: Log, pull: PullInfo) -> tuple[str, ...]:
    """Re-read the PR: a note when its head moved while the gate judged."""
    try:
        latest = client.get_pull(pull.number)
    except ApiError as exc:
        log.warning(f"could not re-read the pull request to see if its head moved: {exc}")
        return ()
    if latest.head_sha == pull.head_sha:
        return ()
    return (
        f"the pull request's head moved to {latest.head_sha} while the gate judged "
        f"{pull.head_sha}; this verdict is for {pull.head_sha}, and the new head gets its "
        "own run",
    )


# -- judging ------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What judging hands to `finish`: the verdict, the pull request it is
    about (None: the event named none the gate could read), and the notes."""

    verdict: publish.Verdict
    pull: PullInfo | None = None
    notes: tuple[str, ...] = ()


def judge(settings: Settings, log: Log, client: Client) -> Outcome:
    """The verdict on the pull request or queue entry the event names.  A
    stage that cannot judge ends it with "could not judge" and the notes so far."""
    import gate.judge

    pull: PullInfo | None = None
    notes: tuple[str, ...] = ()
    try:
        target = find_target(settings, client, read_event(settings))
        pull, notes = target.pull, target.notes
        announce(log, target)
        checkout = open_checkout(settings.workspace, log, pull.base_sha, pull.head_sha)
        notes += checkout.notes
        repo = checkout.repo
        if target.queue is not None and repo is None:
            raise GateError(queue_needs_git(pull))
        log.line("reading the change from " + ("git" if repo is not None else "the GitHub API"))
        rubric = base_rubric(settings, client, repo, pull.base_sha)
        if rubric is None:
            why = (
                f"no rubric at {settings.rubric_path} in base commit {pull.base_sha} "
                "(missing-rubric: skip)"
            )
            report = skip_report(pull, why, None, notes)
            verdict = publish.no_rubric(settings.check_name, settings.rubric_path, report)
            return Outcome(verdict, pull, notes)
        scope = in_scope(settings, client, target, repo, rubric)
        if isinstance(scope, Skip):
            report = skip_report(pull, scope.reason, rubric, notes)
            return Outcome(publish.skipped(settings.check_name, report), pull, notes)
        notes += scope.notes
        if target.queue is None:  # a queue entry's head never moves
            notes += head_moved(client, log, pull)
        report = gate.judge.judge(  # the rubric's examples run first, as in `gate check`
            rubric,
            scope.changes,
            rubric_path=settings.rubric_path,
            builtins=(workflow_edited(scope.changes, settings.workflow_path), scope.complete),
            notes=notes,
        )
        report = waive(client, log, target, repo, scope.changes, report)
        return Outcome(publish.judged(report, settings.check_name), pull, notes)
    except Exception as exc:  # GateError, ApiError, or not expected: exit 2
        return Outcome(could_not_judge(settings, log, exc, notes), pull, notes)


# -- waivers ------------------------------------------------------------------


def waive(
    client: Reader,
    log: Log,
    target: Target,
    repo: Repo | None,
    changes: ChangeSet,
    report: Report,
) -> Report:
    """`report` with the failed rules that an approval waives cleared
    (`gate.waivers.decide`), and notes on what did not count.  The reviews
    are read only when a failed rule is waivable; when they cannot be read
    the verdict cannot be known, and the run could not judge (exit 2): an
    unread review is neither a waiver nor a failure."""
    left = tuple(w for w in report.waivable if w.rule in report.failed)
    if not left:
        return report
    blocked = waivers.blocked(path for f in changes.files for path in f.touched)
    if blocked is not None:
        return report.waive((), (blocked,))
    pull = target.pull
    head, why = pull.head_sha, None
    if target.queue is not None:
        head, why = approved_head(client, log, target.queue, repo)
        if why is not None:
            return report.waive((), (why,))
    try:
        reviews = client.reviews(pull.number)
    except ApiError as exc:
        raise GateError(
            f"pull request #{pull.number}'s reviews could not be read ({exc.message}), so "
            f"whether an approval waives {', '.join(w.rule for w in left)} is unknown: re-run "
            "the job once the API answers"
        ) from exc
    decision = waivers.decide(left, reviews, author=pull.author, head=head)
    for item in decision.waived:
        log.line(f"rule {item.rule} waived by {item.reviewer}'s approval of {item.commit}")
    return report.waive(decision.waived, decision.notes)


def approved_head(
    client: Reader, log: Log, entry: merge_queue.QueueEntry, repo: Repo | None
) -> tuple[str, str | None]:
    """Under merge_group: the pull request's head whose approvals may waive
    the queue entry's rules, or why none may (`merge_queue.adds_nothing`)."""
    try:
        head = client.get_pull(entry.number).head_sha
    except ApiError as exc:
        raise GateError(
            f"pull request #{entry.number} could not be read ({exc.message}), so whether its "
            "approvals waive the queue entry's failed rules is unknown: re-run the job once "
            "the API answers"
        ) from exc
    if repo is None:
        return head, "the queue entry is not in git: no waiver applies to it"
    if repo.try_rev_parse(head) is None:
        try:
            repo.run(["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "origin", head])
        except GateError as exc:
            log.line(f"fetching the approved head failed ({exc.message})")
    return head, merge_queue.adds_nothing(repo, entry, head)


def announce(log: Log, target: Target) -> None:
    pull = target.pull
    what = "pull request" if target.queue is None else "merge queue entry for pull request"
    log.line(f"judging {what} #{pull.number}")
    log.untrusted(
        f"title: {pull.title}\nauthor: {pull.author}\nbase: {pull.base_ref} {pull.base_sha}\n"
        f"head: {pull.head_ref} {pull.head_sha}"
    )


def could_not_judge(
    settings: Settings, log: Log, exc: Exception, notes: tuple[str, ...]
) -> publish.Verdict:
    """The "could not judge" verdict for `exc`; never a pass or a rule failure."""
    if isinstance(exc, GateError):
        message = exc.message
    elif isinstance(exc, ApiError):
        message = f"the GitHub API failed: {exc.message}"
    else:  # not expected: never a verdict, always exit 2
        message = internal_error(exc)
        if settings.debug:
            log_traceback(log, exc)
    return publish.errored(settings.check_name, message, notes)


def skip_report(
    pull: PullInfo, reason: str, rubric: Rubric | None, notes: tuple[str, ...]
) -> Report:
    """The report of a run that judged nothing (applies_to, or no rubric at the base)."""
    return Report(
        passed=True,
        failed=(),
        rule_count=len(rubric.rules) if rubric is not None else 0,
        rubric_sha256=rubric.sha256 if rubric is not None else None,
        base=pull.base_sha,
        head=pull.head_sha,
        stats=ChangeSet().stats(),
        results=(),
        notes=(f"skipped: {reason}", *notes),
    )


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


def write_report(workspace: str | None, log: Log, verdict: publish.Verdict) -> str:
    """Write the JSON report into the workspace; the `report` output ("" when none)."""
    data = report_json(verdict)
    if data is None:
        return ""
    target = os.path.join(workspace or ".", REPORT_NAME)
    try:
        write_new_file(target, data)
    except OSError as exc:
        log.warning(f"could not write the JSON report {target}: {exc.strerror}")
        return ""
    return REPORT_NAME if workspace else os.path.abspath(target)


def post(
    settings: Settings, log: Log, client: Client, verdict: publish.Verdict, pull: PullInfo
) -> tuple[str, ...]:
    """The check run and the comment on `pull`; what was not published, for the summary."""
    if not settings.token:
        warning = "no github-token: the check run and the comment were not posted"
        log.warning(warning)
        return (warning,)
    try:
        published = publish.publish(
            client,
            verdict=verdict,
            check_name=settings.check_name,
            head_sha=pull.head_sha,
            pr_number=pull.number,
            comment_policy=settings.comment,
            log=log,
        )
    except Exception as exc:  # publishing must never change the verdict
        warning = f"publishing failed: {type(exc).__name__}: {exc}"
        log.warning(warning)
        return (warning,)
    posted = "posted" if published.check_run_id is not None else "not posted"
    log.line(f"check run {posted}; comment: {published.comment_action}")
    return published.warnings


def finish(settings: Settings, log: Log, client: Client, outcome: Outcome) -> int:
    """Leave the verdict everywhere a user looks; its exit code."""
    verdict = outcome.verdict
    log_verdict(log, verdict, settings.check_name)
    report_value = write_report(settings.workspace, log, verdict)
    warnings: tuple[str, ...] = ()
    if outcome.pull is not None:
        warnings = post(settings, log, client, verdict, outcome.pull)
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
                "waived-rules": ",".join(verdict.waived),
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
    settings: Settings | None = None
    client: Client | None = None
    outcome: Outcome | None = None
    try:
        try:
            settings = Settings.from_env(env)
        except GateError as exc:
            return last_resort(env, log, exc.message)
        client = (client_factory or default_client)(settings)
        outcome = judge(settings, log, client)
        return finish(settings, log, client, outcome)
    except Exception as exc:  # finishing broke: leave outputs and a summary regardless
        if debug_enabled(env):
            log_traceback(log, exc)
        return last_resort(env, log, internal_error(exc), settings, client, outcome)


def log_traceback(log: Log, exc: BaseException) -> None:
    """`exc`'s traceback, fenced (GATE_DEBUG)."""
    import traceback

    log.untrusted("".join(traceback.format_exception(exc)))


def last_resort(
    env: Mapping[str, str],
    log: Log,
    message: str,
    settings: Settings | None = None,
    client: Client | None = None,
    outcome: Outcome | None = None,
) -> int:
    """Fail closed when there are no settings or `finish` broke: the error in
    the log, `passed=false` in the outputs, the job summary, and (when the PR
    and a client are known) a failing check run.  Each step is tried on its
    own; nothing here may raise, and the exit code is always 2."""
    check_name = settings.check_name if settings is not None else DEFAULT_CHECK_NAME
    verdict = publish.errored(check_name, message, outcome.notes if outcome is not None else ())
    with contextlib.suppress(Exception):
        log.error(message, title=f"{check_name}: could not judge")
    output_file, summary_file = output_paths(env)
    with contextlib.suppress(Exception):
        write_outputs(
            output_file,
            {"passed": "false", "failed-rules": "", "waived-rules": "", "report": ""},
        )
    with contextlib.suppress(Exception):
        append_summary(summary_file, verdict.markdown)
    pull = outcome.pull if outcome is not None else None
    if settings is not None and client is not None and pull is not None:
        with contextlib.suppress(Exception):
            post(settings, log, client, verdict, pull)
    return EXIT_ERROR
