"""docs/writer-loop.md's `gate loop` walkthrough, followed as printed from a
fresh virtual environment: this checkout installed into a new venv the way
the page says (`pip install ./blast-radius-gate`, from a copy of the
checkout: a clone of it), then every command of the section from `gate demo
--keep clamp` on, in order, with that venv's `gate` and `python` first on
PATH (tests/test_docs.py's runner; writers and test commands inherit it).

No network: the new venv reads the libraries of the interpreter running the
tests (the gate's dependencies and pytest, what the page's `pip install`
adds) through a path file, not the checkout itself: `gate` there is the one
just installed.
"""

from __future__ import annotations

import os
import site
import subprocess
import sys
from pathlib import Path

from docs_markdown import ROOT, parse
from test_docs import run_section, sections

WALKTHROUGH = "docs/writer-loop.md"
STARTS_WITH = "$ gate demo --keep clamp"


def _walkthrough():  # type: ignore[no-untyped-def]
    doc = parse(ROOT / WALKTHROUGH)
    found = [s for s in sections(doc) if s.runnable and s.runnable[0].text.startswith(STARTS_WITH)]
    assert len(found) == 1, f"{WALKTHROUGH}: one section starts with `{STARTS_WITH}`"
    return found[0]


def _checkout_copy(target: Path) -> None:
    """The checkout's files as a clone has them (tracked and new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    for name in filter(None, listed.decode("utf-8", errors="surrogateescape").split("\0")):
        source = ROOT / name
        if not source.is_file() or source.is_symlink():
            continue
        dest = target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(source.read_bytes())
        dest.chmod(source.stat().st_mode & 0o777)


def _fresh_venv(folder: Path) -> Path:
    """A new venv with this checkout installed in it; its bin folder."""
    venv = folder / "gate-env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The libraries of this interpreter, as plain folders: their .pth files
    # (an editable install of this checkout among them) are not run.
    Path(purelib, "_walkthrough_libraries.pth").write_text(
        "".join(f"{p}\n" for p in site.getsitepackages()), encoding="utf-8"
    )
    clone = folder / "blast-radius-gate"
    _checkout_copy(clone)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    install = subprocess.run(
        [*pip, "install", "--quiet", "--no-deps", "--no-input", str(clone)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    where = subprocess.run(
        [str(python), "-c", "import gate; print(gate.__file__)"],
        cwd=folder,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(venv), f"gate imported from {where}, not the new venv"
    assert (venv / "bin" / "gate").is_file()
    return venv / "bin"


def test_the_writer_loop_walkthrough_runs_as_printed_from_a_fresh_venv(tmp_path: Path) -> None:
    section = _walkthrough()
    bin_dir = _fresh_venv(tmp_path / "install")
    (tmp_path / "run").mkdir()
    run_section(section, tmp_path / "run", bin_dir)
    clamp = tmp_path / "run" / "sandbox" / "clamp"
    report = (clamp / "report.html").read_text(encoding="utf-8")
    assert "<script" not in report and 'class="count"' in report
    assert (clamp / "merged.jsonl").is_file()
