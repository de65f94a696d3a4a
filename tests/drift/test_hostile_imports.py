"""Class 10 of docs/hostile-input.md: anything Python imports or runs
instead of a module the Python rules name fails them.

The oracle is Python itself: each case writes a real checkout (the kept
module and the file the change adds) into a folder and imports the module
in a fresh interpreter laid out as a run from the checkout's root (the
root first on `sys.path`, the module's folder on `PYTHONPATH`, a test
folder put first as pytest's default import mode does).  Every form that
really wins must fail `keep_symbols` and `confine_to_symbols`; the forms
the documentation calls near misses must really lose.
"""

from __future__ import annotations

import importlib.machinery
import keyword
import os
import py_compile
import shutil
import subprocess
import sys
import sysconfig
import venv
from importlib.util import source_hash
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gate.drift.python.finder import shadowed
from gate.model.change import ADDED, TYPE_CHANGED, ChangeSet, FileChange, from_paths
from gate.model.rubric import Rule
from gate.rules import REGISTRY

SETTINGS = settings(
    max_examples=int(os.environ.get("N", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
REAL = b'WHO = "source"\n\n\ndef clamp(x):\n    return x\n'
FAKE = b'WHO = "shadow"\n\n\ndef clamp(x):\n    return 0\n'
TAG = sys.implementation.cache_tag
TAKEN = set(sys.stdlib_module_names) | set(sys.builtin_module_names) | {"tests", "src", "lib"}

NAMES = st.from_regex(r"\A[a-z][a-z0-9_]{0,7}\Z").filter(
    lambda n: not keyword.iskeyword(n) and n not in TAKEN and not n.startswith("test")
)


def pyc(target: Path, source: bytes, mode: py_compile.PycInvalidationMode) -> None:
    """`source` compiled to `target` (a real pyc, as `py_compile` writes it)."""
    scratch = target.parent / f".scratch-{target.name}.py"
    scratch.parent.mkdir(parents=True, exist_ok=True)
    scratch.write_bytes(source)
    py_compile.compile(str(scratch), cfile=str(target), invalidation_mode=mode, doraise=True)
    scratch.unlink()


def checked_pyc(target: Path, source: bytes, claimed: bytes) -> None:
    """A checked hash-based pyc of `source` whose header claims the hash of
    `claimed` (the kept file's bytes, which a writer can read): Python checks
    the hash against the source, finds it equal, and runs the pyc's code."""
    pyc(target, source, py_compile.PycInvalidationMode.CHECKED_HASH)
    data = bytearray(target.read_bytes())
    data[8:16] = source_hash(claimed)  # magic (4), flags (4), source hash (8)
    target.write_bytes(bytes(data))


COMPILER = shutil.which("cc") or shutil.which("gcc")
EXTENSION_C = """#include <Python.h>
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "NAME", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_NAME(void) {
    PyObject *mod = PyModule_Create(&def);
    if (mod != NULL && PyModule_AddStringConstant(mod, "WHO", "shadow") < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
"""
_BUILT: dict[str, bytes] = {}


def extension(stem: str, scratch: Path) -> bytes:
    """A real extension module named `stem` (WHO = "shadow"), built with the C compiler."""
    if stem not in _BUILT:
        source = scratch / f"{stem}.c"
        source.write_text(EXTENSION_C.replace("NAME", stem))
        out = scratch / f"{stem}.so"
        include = sysconfig.get_paths()["include"]
        argv = [str(COMPILER), "-shared", "-fPIC", f"-I{include}", "-o", str(out), str(source)]
        subprocess.run(argv, check=True, capture_output=True)
        _BUILT[stem] = out.read_bytes()
    return _BUILT[stem]


def _write(root: Path, rel: str, data: bytes) -> str:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_bytes(data)
    return rel


def add_form(form: str, root: Path, folder: str, stem: str) -> str:
    """Write the file `form` names into the checkout; its repo path."""
    here = f"{folder}/" if folder else ""
    cache = f"{here}__pycache__/{stem}.{TAG}.pyc"
    if form == "package":
        return _write(root, f"{here}{stem}/__init__.py", FAKE)
    if form.startswith("extension"):
        suffix = importlib.machinery.EXTENSION_SUFFIXES[int(form[-1])]
        data = extension(stem, root.parent)
        if form.startswith("extension package"):
            return _write(root, f"{here}{stem}/__init__{suffix}", data)
        return _write(root, f"{here}{stem}{suffix}", data)
    if form == "sourceless package":
        rel = f"{here}{stem}/__init__.pyc"
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        pyc(root / rel, FAKE, py_compile.PycInvalidationMode.TIMESTAMP)
        return rel
    if form == "unchecked pyc":
        pyc(root / cache, FAKE, py_compile.PycInvalidationMode.UNCHECKED_HASH)
        return cache
    if form == "checked pyc":
        checked_pyc(root / cache, FAKE, REAL)
        return cache
    if form == "timestamp pyc":
        pyc(root / cache, FAKE, py_compile.PycInvalidationMode.TIMESTAMP)
        return cache
    if form == "test folder":
        return _write(root, f"tests/{stem}.py", FAKE)
    if form == "test folder package":
        return _write(root, f"tests/{stem}/__init__.py", FAKE)
    if form == "root module":
        return _write(root, f"{stem}.py", FAKE)
    if form == "root package":
        return _write(root, f"{stem}/__init__.py", FAKE)
    if form == "sourceless beside":
        rel = f"{here}{stem}.pyc"
        pyc(root / rel, FAKE, py_compile.PycInvalidationMode.UNCHECKED_HASH)
        return rel
    if form == "namespace beside":
        return _write(root, f"{here}{stem}/mod.py", FAKE)
    if form == "namespace at root":
        return _write(root, f"{stem}/mod.py", FAKE)
    raise AssertionError(form)


WINS = {
    "package": True,
    **{f"extension {n}": True for n in range(len(importlib.machinery.EXTENSION_SUFFIXES))},
    **{f"extension package {n}": True for n in range(len(importlib.machinery.EXTENSION_SUFFIXES))},
    "sourceless package": True,
    "unchecked pyc": True,
    "checked pyc": True,
    "test folder": True,
    "test folder package": True,
    "root module": True,  # for a module in a folder on PYTHONPATH (src/)
    "root package": True,
    "sourceless beside": False,  # the source comes first
    "namespace beside": False,  # a module anywhere comes first (PEP 420)
    "namespace at root": False,
    "timestamp pyc": True,  # when the source's mtime (seconds) and size match its header
}
# Forms that win or not by what the checkout does (a timestamp pyc wins when
# the checked-out source has the mtime and size its header names, as here,
# where both files are written in the same second with the same size): the
# gate fails them always.
FLAGGED_ANYWAY = {"timestamp pyc"}


def imported(root: Path, folder: str, stem: str) -> str:
    """What `import stem` gives in a fresh interpreter run from `root`, with
    `folder` on PYTHONPATH and `tests/` first on sys.path (pytest's prepend)."""
    code = f"import sys; sys.path.insert(0, 'tests'); import {stem}; print({stem}.WHO)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if folder:
        env["PYTHONPATH"] = folder
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def judged(kept: str, added: str) -> list[bool]:
    changes = ChangeSet(files=(FileChange(added, ADDED, added=1, deleted=0),))
    out = []
    for kind in ("keep_symbols", "confine_to_symbols"):
        rule = Rule(id="R", kind=kind, params={"file": kept, "symbols": ["clamp"]})
        verdict = REGISTRY[kind].check(rule, changes)
        out.append(verdict.passed)
        if not verdict.passed:
            assert "Python imports instead" in verdict.message
    return out


@SETTINGS
@given(
    stem=NAMES,
    folder=st.sampled_from(["", "src", "lib/vendor"]),
    form=st.sampled_from(sorted(f for f in WINS if COMPILER or not f.startswith("extension"))),
)
def test_every_form_that_wins_a_real_import_fails_the_python_rules(
    tmp_path_factory: pytest.TempPathFactory, stem: str, folder: str, form: str
) -> None:
    assume(folder or not form.startswith(("root", "namespace at root")))  # root: beside it
    root = tmp_path_factory.mktemp("checkout")
    kept = f"{folder}/{stem}.py" if folder else f"{stem}.py"
    _write(root, kept, REAL)
    (root / "tests").mkdir(exist_ok=True)
    assert imported(root, folder, stem) == "source"  # before the change
    added = add_form(form, root, folder, stem)
    wins = imported(root, folder, stem) == "shadow"
    if form not in FLAGGED_ANYWAY:
        assert wins is WINS[form], (form, kept, added)
    verdicts = judged(kept, added)
    if wins or form in FLAGGED_ANYWAY:
        assert verdicts == [False, False], (form, kept, added)
        assert shadowed(ChangeSet(files=(FileChange(added, ADDED),)), kept) is not None
    else:
        assert verdicts == [True, True], (form, kept, added)


def test_a_pth_file_or_sitecustomize_in_a_checked_in_venv_runs_first(tmp_path: Path) -> None:
    """A virtual environment inside the checkout (`.venv/`, which `python -m
    venv .venv` keeps when it exists) runs its site-packages' `.pth` import
    lines and `sitecustomize` at startup: it can replace any module."""
    root = tmp_path / "checkout"
    _write(root, "clamp_kit.py", REAL)
    venv.create(root / ".venv", with_pip=False)
    python = root / ".venv" / "bin" / "python"
    site = next((root / ".venv").glob("lib/python*/site-packages"))
    replace = (
        "import sys, types; m = types.ModuleType('clamp_kit'); m.WHO = 'shadow'; "
        "sys.modules['clamp_kit'] = m\n"
    )
    for name, text in (("evil.pth", replace), ("sitecustomize.py", replace)):
        target = site / name
        target.write_text(text)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        proc = subprocess.run(
            [str(python), "-c", "import clamp_kit; print(clamp_kit.WHO)"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
        )
        assert proc.stdout.strip() == "shadow", proc.stderr
        rel = target.relative_to(root).as_posix()
        assert judged("clamp_kit.py", rel) == [False, False], rel
        assert judged("src/deep/other.py", rel) == [False, False], rel  # any module
        target.unlink()
    # An editable install appends the project's folder after site-packages
    # (a path line in a .pth): a module there named like the file wins.
    _write(root, "src/clamp_kit.py", REAL)
    (site / "_editable.pth").write_text(f"{root / 'src'}\n")
    (root / "clamp_kit.py").unlink()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    argv = [str(python), "-c", "import clamp_kit; print(clamp_kit.WHO)"]
    run = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True)
    assert run.stdout.strip() == "source", run.stderr
    (site / "clamp_kit.py").write_bytes(FAKE)
    run = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True)
    assert run.stdout.strip() == "shadow", run.stderr
    rel = (site / "clamp_kit.py").relative_to(root).as_posix()
    assert judged("src/clamp_kit.py", rel) == [False, False], rel
    assert judged("src/other.py", rel) == [True, True], rel  # another name: not judged
    (site / "clamp_kit.py").unlink()
    _write(root, "clamp_kit.py", REAL)
    # a .pth elsewhere (model weights) is not read by Python, nor a
    # sitecustomize at the root (not on sys.path yet when site runs): not judged
    _write(root, "sitecustomize.py", replace.encode())
    _write(root, "models/clamp.pth", replace.encode())
    assert imported(root, "", "clamp_kit") == "source"
    assert judged("clamp_kit.py", "models/clamp.pth") == [True, True]
    assert judged("clamp_kit.py", "sitecustomize.py") == [True, True]


@pytest.mark.parametrize(
    "added",
    ["clamp_kit/__init__.py", "__pycache__/clamp_kit.cpython-312.pyc", "tests/clamp_kit.py"],
)
def test_a_shadow_known_by_name_or_changed_into_place_counts(added: str) -> None:
    """A writer's `result.json` lists paths without status, and a type change
    (a dangling symlink made a real file) puts a file where none was: both
    place a shadow, so both Python rules fail without the file being touched."""
    for changes in (
        ChangeSet(files=from_paths([added]), source="writer"),
        ChangeSet(files=(FileChange(added, TYPE_CHANGED, added=1, deleted=0),)),
    ):
        for kind in ("keep_symbols", "confine_to_symbols"):
            rule = Rule(id="R", kind=kind, params={"file": "clamp_kit.py", "symbols": ["clamp"]})
            verdict = REGISTRY[kind].check(rule, changes)
            assert not verdict.passed and "Python imports instead" in verdict.message
