"""A pytest plugin the repository's own distribution declares (its `pytest11`
entry points) is runner configuration: pytest loads it at start once a CI
job installs the repository (`pip install -e .`), and it can deselect any
test without a test file changing.  `test_drift` judges the declaration in
`pyproject.toml` (PEP 621, Poetry, Flit), `setup.cfg` and `setup.py`."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from gate.drift.runners import ENTRY_POINT_TABLES, PLUGIN_GROUP, section_change
from tests.real_pytest import run_pytest
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift")

PLUGIN = """\
def pytest_collection_modifyitems(items):
    items.clear()
"""


def test_a_declared_plugin_switches_off_a_red_test(tmp_path: Path) -> None:
    """What an installed distribution's `pytest11` entry point does, as
    `pip install -e .` leaves it (a `.dist-info` folder on the path): the
    failing test no longer runs."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_app.py").write_text("def test_red():\n    assert 1 == 2\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "quiet_plugin.py").write_text(PLUGIN)
    assert "1 failed" in run_pytest(tests, [site])
    info = site / "app-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: app\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{PLUGIN_GROUP}]\nquiet = quiet_plugin\n")
    ran = run_pytest(tests, [site])
    assert "failed" not in ran and "no tests ran" in ran, ran


PYPROJECT_BASE = '[project]\nname = "app"\nversion = "1.0"\n\n[project.scripts]\napp = "app:main"\n'


def _declared(table: str, spelling: str, target: str) -> str:
    """`PYPROJECT_BASE` with `table`'s pytest11 group declaring plugin
    `target`, in one of TOML's spellings."""
    if spelling == "header":
        return f'{PYPROJECT_BASE}\n[{table}.{PLUGIN_GROUP}]\nquiet = "{target}"\n'
    if spelling == "quoted":
        return f'{PYPROJECT_BASE}\n[{table}."{PLUGIN_GROUP}"]\nquiet = "{target}"\n'
    parent, _, last = table.rpartition(".")
    inline = f'{last} = {{ {PLUGIN_GROUP} = {{ quiet = "{target}" }} }}\n'
    if f"[{parent}]\n" in PYPROJECT_BASE:  # into the table that is there
        return PYPROJECT_BASE.replace(f"[{parent}]\n", f"[{parent}]\n{inline}", 1)
    return f"{PYPROJECT_BASE}\n[{parent}]\n{inline}"


SPELLINGS = st.sampled_from(["header", "quoted", "inline"])


@given(st.sampled_from(ENTRY_POINT_TABLES), SPELLINGS, SPELLINGS)
def test_pyproject_plugin_declarations_are_runner_configuration(
    table: str, spelling: str, other: str
) -> None:
    base = PYPROJECT_BASE
    head = _declared(table, spelling, "app.quiet")
    assert section_change("pyproject.toml", base, head) == "added"
    assert section_change("sub/pyproject.toml", head, base) == "removed"
    moved = _declared(table, other, "app.quieter")
    assert section_change("pyproject.toml", head, moved) == "changed"
    # the same declaration spelled another way is no change
    assert section_change("pyproject.toml", head, _declared(table, other, "app.quiet")) is None


def test_pyproject_other_entry_points_change_freely() -> None:
    base = PYPROJECT_BASE + '\n[project.entry-points."app.hooks"]\na = "app:a"\n'
    head = base.replace('app = "app:main"', 'app = "app.cli:main"').replace('"app:a"', '"app:b"')
    assert section_change("pyproject.toml", base, head) is None


SETUP_CFG = """\
[metadata]
name = app

[options.entry_points]
console_scripts =
    app = app:main
"""

KEY = st.sampled_from(["pytest11", "PYTEST11", "Pytest11", "pytest11 ", " pytest11"])
DELIMITER = st.sampled_from([" = ", "=", " : ", ":"])


@given(KEY, DELIMITER, st.booleans())
def test_setup_cfg_plugin_declarations_are_runner_configuration(
    key: str, delimiter: str, inline: bool
) -> None:
    """configparser folds option names to lower case and takes `=` or `:`;
    a value continues on the lines indented after its key."""
    key = key.lstrip()  # configparser reads an indented line as a continuation
    value = "quiet = app.quiet" if inline else "\n    quiet = app.quiet"
    head = f"{SETUP_CFG}{key}{delimiter}{value}\n"
    assert section_change("setup.cfg", SETUP_CFG, head) == "added"
    moved = head.replace("app.quiet", "app.quieter")
    assert section_change("setup.cfg", head, moved) == "changed"
    # console scripts beside the plugin change freely
    assert section_change("setup.cfg", head, head.replace("app = app:main", "x = app:x")) is None


def test_setup_cfg_other_entry_points_change_freely() -> None:
    head = SETUP_CFG.replace("app = app:main", "app = app.cli:main\n    other = app:other")
    assert section_change("setup.cfg", SETUP_CFG, head) is None


SETUP_PY = 'from setuptools import setup\n\nsetup(name="app", version="1.0")\n'


def test_a_setup_py_that_spells_its_entry_points_counts_whole() -> None:
    """A setup.py is a program: once either version spells `entry_points`
    or `pytest11`, any change to it may declare a plugin; one that spells
    neither declares none."""
    assert section_change("setup.py", SETUP_PY, SETUP_PY.replace("1.0", "1.1")) is None
    declared = SETUP_PY.replace(
        '"1.0")', f'"1.0", entry_points={{"{PLUGIN_GROUP}": ["quiet = app.quiet"]}})'
    )
    assert section_change("setup.py", SETUP_PY, declared) == "added"
    assert section_change("setup.py", declared, declared.replace("1.0", "1.1")) == "changed"
    # fullwidth letters in an identifier are the same name to Python
    wide = SETUP_PY.replace('"1.0")', '"1.0", ｅntry_points={})')
    assert section_change("setup.py", SETUP_PY, wide) == "added"


def test_a_change_that_declares_a_plugin_fails_test_drift() -> None:
    """Through the real builder and rubric: the plugin module is no test
    file and the pyproject.toml change touches no test, yet the rule fails
    naming the file; a change to the console scripts passes."""
    base = {"pyproject.toml": PYPROJECT_BASE, "src/app/__init__.py": ""}
    plugin = _declared("project.entry-points", "header", "app.quiet")
    declared = {"pyproject.toml": plugin, "src/app/quiet.py": PLUGIN}
    CASE.fails(Files(base=base, head={**base, **declared}), "pyproject.toml")
    scripts = {"pyproject.toml": PYPROJECT_BASE.replace("app:main", "app.cli:main")}
    CASE.passes(Files(base=base, head={**base, **scripts}))


def test_setup_cfg_spellings_configparser_reads_as_the_plugin_key() -> None:
    """configparser takes an indented header where no value goes on, an
    indented first key, and a key after a full-line comment; a line indented
    under another key is that key's value, not a key."""
    base = "[metadata]\nname = app\n"
    for head in (
        "[metadata]\nname = app\n  [options.entry_points]\n  pytest11 = quiet = app.quiet\n",
        "[metadata]\nname = app\n[options.entry_points]\n  pytest11 =\n    quiet = app.quiet\n",
        f"{SETUP_CFG}# plugins\n; for tests\npytest11 = quiet = app.quiet\n",
    ):
        assert section_change("setup.cfg", base, head) == "added", head
    inside = SETUP_CFG + "    pytest11 = quiet\n"  # a console script named pytest11
    assert section_change("setup.cfg", SETUP_CFG, inside) is None
