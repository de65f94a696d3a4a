"""A module placed at the repository's root named like the test runner or a
standard-library module (docs/hostile-input.md, section 10): `python -m
pytest` from the root puts the root first on `sys.path`, so a root
`pytest.py` runs instead of pytest (and can print a green summary), and a
root `json.py` is every `import json`.  `test_drift` fails such a
placement, in each form Python imports, and no other root module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gate.drift.python.shadow import RUNNER_MODULES
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift")
BASE = {
    "app.py": "def clamp(x):\n    return x\n",
    "tests/test_app.py": "import app\n\n\ndef test_clamp():\n    assert app.clamp(5) == 5\n",
}
STDLIB = sorted(set(sys.stdlib_module_names) - set(sys.builtin_module_names) - {"test"})
NAMES = st.sampled_from(sorted(RUNNER_MODULES)) | st.sampled_from(STDLIB)
# What Python imports a top-level name from: a module, a package, a
# sourceless bytecode file, an extension module.
FORMS = st.sampled_from(
    ["{n}.py", "{n}/__init__.py", "{n}.pyc", "{n}.cpython-311-x86_64-linux-gnu.so"]
)


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_a_root_pytest_py_runs_instead_of_pytest(tmp_path: Path) -> None:
    """The oracle: `python -m pytest` from the root runs the root's
    `pytest.py`, which can say anything and exit 0 over a red test."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_red.py").write_text("def test_red():\n    assert 1 == 2\n")
    red = _run(tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider")
    assert red.returncode == 1 and "1 failed" in red.stdout
    (tmp_path / "pytest.py").write_text("print('1 passed in 0.01s')\n")
    faked = _run(tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider")
    assert faked.returncode == 0 and faked.stdout.strip() == "1 passed in 0.01s"


def test_a_root_module_named_like_the_standard_library_is_what_tests_import(
    tmp_path: Path,
) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import colorsys\n\n\ndef test_who():\n    assert colorsys.__name__ == 'colorsys'\n"
        "    assert not hasattr(colorsys, 'FAKE')\n"
    )
    assert _run(tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider").returncode == 0
    (tmp_path / "colorsys.py").write_text("FAKE = True\n")
    assert _run(tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider").returncode == 1


@settings(max_examples=40, deadline=None)
@given(NAMES, FORMS)
def test_a_root_module_named_like_the_runner_or_the_standard_library_fails(
    name: str, form: str
) -> None:
    path = form.format(n=name)
    placed = Files(base=BASE, head={**BASE, path: "print('hi')\n"})
    CASE.fails(placed, "at the repository's root", reported=[path])


@settings(max_examples=15, deadline=None)
@given(NAMES)
def test_a_root_module_renamed_to_such_a_name_fails(name: str) -> None:
    moved = {"tests/test_app.py": BASE["tests/test_app.py"], f"{name}.py": BASE["app.py"]}
    CASE.fails(Files(base=BASE, head=moved), "at the repository's root")


@settings(max_examples=15, deadline=None)
@given(NAMES)
def test_the_same_names_inside_a_package_or_a_data_file_pass(name: str) -> None:
    """Only the root's top-level names: a package's own module, a data file
    named like the module, and a namespace folder (which loses to any
    module or package of the name, PEP 420) stand in for nothing."""
    for path in (f"pkg/{name}.py", f"{name}.txt", f"{name}/data.json"):
        head = {**BASE, "pkg/__init__.py": "", path: "x = 1\n"}
        CASE.passes(Files(base={**BASE, "pkg/__init__.py": ""}, head=head))


def test_a_root_module_of_another_name_passes() -> None:
    for name in ("clamp_kit", "pytest_helpers", "jsonish", "main"):
        CASE.passes(Files(base=BASE, head={**BASE, f"{name}.py": "x = 1\n"}))
