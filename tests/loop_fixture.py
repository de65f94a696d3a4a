"""The clamp lab's writer loop: three replay writers x two prompts x three attempts.

Each recording is what a writer returned for one attempt: a patch it printed
(`N.patch`), files it wrote in place (`N.files/`), or nothing (no recording:
the replay writer exits 3).  The expected bucket of each attempt follows
from the real test run (pytest on the patched tree) and the lab's rubric.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lab_fixture import REWRITE_KIT, make_patch

from gate.starter import demo_fixture

ROOT = Path(__file__).resolve().parent.parent
WRITERS = ("careful", "remote", "tidy")
PROMPTS = {
    "strict": (
        "Fix the off-by-one in clamp() so the high bound is inclusive.\n"
        "Do not rename symbols.\nDo not touch imports.\nDo not edit tests.\n"
        "Return a unified diff against clamp_kit.py only.\n"
    ),
    "production": "Fix clamp() to production quality.\n",
}
ATTEMPTS = 3

HONEST = {"clamp_kit.py": demo_fixture.HONEST_FIX}
# Within clamp() only, tests green, six lines: over budget and nothing else.
VERBOSE = {
    "clamp_kit.py": demo_fixture.HONEST_FIX.replace(
        "    if n > hi:\n",
        "    if n > hi:\n"
        + "".join(f"        # {w}\n" for w in ("high", "edge", "is", "inclusive")),
    )
}
# One line inside clamp(): in budget, shape fine, and the suite goes red.
RED = {
    "clamp_kit.py": demo_fixture.HONEST_FIX.replace("_noisy_helper(lo)", "_noisy_helper(lo + 1)")
}
NO_BAIT = {"clamp_kit.py": demo_fixture.NO_BAIT_FIX}
RENAMED = {"clamp_kit.py": demo_fixture.HONEST_FIX.replace("_noisy_helper", "_identity")}
REWRITE = {"clamp_kit.py": REWRITE_KIT, "README.md": "# clamp\n"}  # green, but renames
BROKEN_REWRITE = {  # red and over budget
    "clamp_kit.py": REWRITE_KIT.replace("min(n, self.hi)", "min(n, self.hi - 1)"),
    "README.md": "# clamp\n",
}
TEST_EDIT = {"test_clamp.py": demo_fixture.TEST_CLAMP.replace("== 10\n", "== 9\n", 1)}

# (writer, prompt) -> per attempt: (how, files, expected bucket)
PLAN: dict[tuple[str, str], list[tuple[str, dict[str, str] | None, str]]] = {
    ("careful", "strict"): [("patch", HONEST, "pass")] * 3,
    ("careful", "production"): [
        ("patch", HONEST, "pass"),
        ("patch", VERBOSE, "over-budget"),
        ("patch", RED, "thrash"),
    ],
    ("tidy", "strict"): [
        ("patch", NO_BAIT, "kitchen-mop"),
        ("patch", HONEST, "pass"),
        ("patch", RENAMED, "rename"),
    ],
    ("tidy", "production"): [
        ("patch", BROKEN_REWRITE, "thrash"),
        ("patch", BROKEN_REWRITE, "thrash"),
        ("patch", REWRITE, "rename"),
    ],
    ("remote", "strict"): [
        ("truncated", HONEST, "infrastructure"),
        ("fenced", HONEST, "infrastructure"),
        ("patch", HONEST, "pass"),
    ],
    ("remote", "production"): [
        ("edits", HONEST, "pass"),
        ("patch", TEST_EDIT, "kitchen-mop"),
        ("none", None, "infrastructure"),
    ],
}

TEST_COMMAND = (
    f"PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {sys.executable} -m pytest -q -p no:cacheprovider "
    "test_clamp.py"
)


def record(repo, folder: Path) -> None:  # type: ignore[no-untyped-def]
    """Write every recording of PLAN under `folder` (patches made with real git)."""
    for (writer, prompt), attempts in PLAN.items():
        here = folder / writer / prompt
        here.mkdir(parents=True, exist_ok=True)
        for number, (how, files, _) in enumerate(attempts, start=1):
            if how == "none" or files is None:
                continue
            if how == "edits":
                for name, text in files.items():
                    target = here / f"{number}.files" / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(text, encoding="utf-8")
                continue
            patch = make_patch(repo, files)
            if how == "truncated":
                patch = patch[: patch.rindex(b"\n", 0, len(patch) - 2) - 20] + b"\n"
            elif how == "fenced":
                patch = b"Here is the fix:\n\n```diff\n" + patch + b"```\n"
            (here / f"{number}.patch").write_bytes(patch)


def write_prompts(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in PROMPTS.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


def writer_args(recordings: Path, log: Path | None = None) -> list[str]:
    """`--writer NAME=COMMAND` for each replay writer (the module from this checkout:
    the clean environment carries no PYTHONPATH, so the command sets it)."""
    logging = f'echo "$GATE_WRITER $GATE_PROMPT $GATE_ATTEMPT" >> {log}; ' if log else ""
    replay = "gate.research.writers.replay"
    command = f"{logging}exec env PYTHONPATH={ROOT} {sys.executable} -m {replay} {recordings}"
    return [arg for w in WRITERS for arg in ("--writer", f"{w}={command}")]


def expected_buckets() -> dict[tuple[str, str, int], str]:
    return {
        (w, p, n): bucket
        for (w, p), attempts in PLAN.items()
        for n, (_, _, bucket) in enumerate(attempts, start=1)
    }
