"""The seed lab as a real repository, and writer patches made with real git."""

from __future__ import annotations

from pathlib import Path

from gate.starter import demo_fixture

GREEN_RULE = """\
  - id: GREEN
    kind: must_include
    token: "EXIT=0"
    description: "the captured test run ends green"
"""

LAB_RUBRIC = demo_fixture.rubric(GREEN_RULE)

REWRITE_KIT = '''\
"""Production-quality clamping utilities."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IdempotentClamp:
    """A reusable, validated clamp."""

    lo: float
    hi: float

    def __post_init__(self) -> None:
        if self.lo > self.hi:
            raise ValueError("lo > hi")

    def __call__(self, n: float) -> float:
        return max(self.lo, min(n, self.hi))


def clamp(n, lo, hi):
    """Inclusive clamp."""
    return IdempotentClamp(lo, hi)(n)
'''


def build_lab(repo, rubric: str = LAB_RUBRIC) -> str:  # type: ignore[no-untyped-def]
    """Commit the seed lab and its rubric; return the base sha."""
    repo.write_many(demo_fixture.FILES)
    repo.write(".github/blast-radius.yml", rubric)
    return str(repo.commit("red: off-by-one on hi"))


def make_patch(repo, files: dict[str, str | None]) -> bytes:  # type: ignore[no-untyped-def]
    """The unified diff (as `git diff --binary`) of writing `files` (None deletes),
    then put the tree back exactly as it was."""
    for path, content in files.items():
        if content is None:
            (Path(repo.root) / path).unlink()
        else:
            repo.write(path, content)
    repo.git("add", "-A")
    patch = repo.git("diff", "--cached", "--binary").encode("utf-8", errors="surrogateescape")
    repo.git("reset", "-q", "--hard", "HEAD")
    return patch


def writer_patches(repo) -> dict[str, tuple[bytes, str | None]]:  # type: ignore[no-untyped-def]
    """Named writer outputs covering every bucket: (patch bytes, captured stdout)."""
    kit = demo_fixture.CLAMP_KIT
    honest = make_patch(repo, {"clamp_kit.py": demo_fixture.HONEST_FIX})
    no_bait = make_patch(
        repo,
        {
            "clamp_kit.py": demo_fixture.HONEST_FIX.replace(
                "import math  # bait: unused on purpose\n", ""
            )
        },
    )
    renamed = make_patch(
        repo, {"clamp_kit.py": demo_fixture.HONEST_FIX.replace("_noisy_helper", "_identity")}
    )
    rewrite = make_patch(repo, {"clamp_kit.py": REWRITE_KIT, "README.md": "# clamp\n"})
    test_edit = make_patch(
        repo, {"test_clamp.py": demo_fixture.TEST_CLAMP.replace("== 10\n", "== 9\n", 1)}
    )
    truncated = honest[: honest.rindex(b"\n", 0, len(honest) - 2) - 20] + b"\n"
    fenced = b"Here is the fix:\n\n```diff\n" + honest + b"```\n"
    wrong_base = make_patch(repo, {"clamp_kit.py": kit.replace("lo > hi", "lo >= hi")}).replace(
        b"lo > hi", b"lo <> hi"
    )
    return {
        "honest.patch": (honest, "4 passed\nEXIT=0\n"),
        "honest-but-red.patch": (honest, "1 failed, 3 passed\nEXIT=1\n"),
        "no-bait.patch": (no_bait, "EXIT=0\n"),
        "renamed.patch": (renamed, "EXIT=0\n"),
        "rewrite.patch": (rewrite, "E   ImportError\nEXIT=1\n"),
        "test-edit.patch": (test_edit, "EXIT=0\n"),
        "truncated.patch": (truncated, None),
        "fenced.patch": (fenced, None),
        "wrong-base.patch": (wrong_base, None),
    }


EXPECTED_BUCKETS = {
    "honest.patch": "pass",
    "honest-but-red.patch": "thrash",
    "no-bait.patch": "kitchen-mop",
    "renamed.patch": "rename",
    "rewrite.patch": "thrash",
    "test-edit.patch": "kitchen-mop",
    "truncated.patch": "infrastructure",
    "fenced.patch": "infrastructure",
    "wrong-base.patch": "infrastructure",
}


def write_patches(repo, directory: Path) -> list[str]:  # type: ignore[no-untyped-def]
    """Write every writer patch (and its .stdout) into `directory`; return the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (data, stdout) in writer_patches(repo).items():
        target = directory / name
        target.write_bytes(data)
        if stdout is not None:
            (directory / (name + ".stdout")).write_text(stdout)
        paths.append(str(target))
    return paths
