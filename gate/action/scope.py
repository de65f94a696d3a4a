"""The rubric at the pull request's base and whom it judges: the rubric read
from git or the API and its pin checked (`base_rubric`, `blob_reader`),
when a missing one may be skipped (`missing_rubric`), and whether the
rubric's `applies_to` judges the pull request (`applies`).
"""

from __future__ import annotations

from gate.base.errors import GateError
from gate.base.globs import FOLDED, matches
from gate.base.paths import fold
from gate.git.repo import Repo, short
from gate.github.client_types import ApiError, PullInfo, Reader
from gate.github.settings import Settings
from gate.model.rubric import Rubric
from gate.rubric.source import BlobReader, RubricSource


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
    normalization (`gate.base.paths.fold`, `gate.base.globs.FOLDED`), and a PR whose
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
