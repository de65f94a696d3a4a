"""A new Python script run by hand under a test folder (a file pytest does
not collect, with an `if __name__ == "__main__":` block, that no test
of the change imports) is no test module: its module-level code runs
only when someone runs it (gate.drift.judging.new_module,
gate.drift.python.units.script).  Each hostile twin (a test of the change
imports it, pytest collects it by name or by the base's `python_files`,
it has no main guard, it binds `__name__`, it defines a test) is still
judged by what its code does."""

from __future__ import annotations

import pytest

from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

EXISTING = "tests/test_kit.py"
BASE_TEST = "import clamp_kit\n\n\ndef test_reads():\n    assert clamp_kit.clamp(5) == 5\n"
# Module-level code that reaches other tests when it runs at import.
TOPS = [
    "sys.path.insert(0, str(ROOT))\n",
    "clamp_kit.LIMIT = 9\n",
    "logging.basicConfig(level=logging.INFO)\n",
]
BODY = (
    "import logging\nimport sys\nfrom pathlib import Path\n\nimport clamp_kit\n\n"
    "ROOT = Path(__file__).parent\n{top}\n\n"
    "def main():\n    (ROOT / 'corpus.json').write_text('{{}}')\n\n\n"
    'if __name__ == "__main__":\n    main()\n'
)
PLACES = ["tests/generate_corpus.py", "tests/fixtures/make_data.py", "tests/scripts/refresh.py"]


def _check(
    repo: RubricRepo, files: dict[str, str], base_files: dict[str, str] | None = None
) -> tuple[int, str]:
    repo.write_many({EXISTING: BASE_TEST, **(base_files or {})})
    base = repo.commit("base")
    repo.write_many(files)
    head = repo.commit("head")
    return repo.check(base, head, rubric=DRIFT_RUBRIC).code_and_message()


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("path", PLACES)
def test_a_new_script_no_test_imports_changes_no_test(
    rubric_repo: RubricRepo, path: str, top: str
) -> None:
    files = {path: BODY.format(top=top), "tests/README.md": "Run generate_corpus.py.\n"}
    code, message = _check(rubric_repo, files)
    assert code == 0, message


def _with_test(path: str, text: str, test: str) -> dict[str, str]:
    return {path: text, "tests/test_uses.py": test}


TWINS = {
    "a test of the change imports it": lambda p, t: _with_test(
        p, t, "from tests import generate_corpus\n\n\ndef test_x():\n    pass\n"
    ),
    "a test of the change imports it by a dotted name": lambda p, t: _with_test(
        p, t, "import importlib\n\nm = importlib.import_module('tests.generate_corpus')\n"
    ),
    "pytest collects it by name": lambda p, t: {p.replace("generate_corpus", "test_corpus"): t},
    "no main guard": lambda p, t: {p: t.replace('if __name__ == "__main__":', "if True:")},
    "a main guard with an else": lambda p, t: {p: t + "else:\n    main()\n"},
    "it binds __name__": lambda p, t: {p: t.replace("ROOT =", "__name__ = '__main__'\nROOT =")},
    "it defines a test": lambda p, t: {p: t + "\n\ndef test_x():\n    pass\n"},
}


@pytest.mark.parametrize("twin", sorted(TWINS))
def test_each_hostile_twin_is_still_judged_by_its_code(rubric_repo: RubricRepo, twin: str) -> None:
    files = TWINS[twin](PLACES[0], BODY.format(top=TOPS[1]))
    code, message = _check(rubric_repo, files)
    assert code == 1 and "changes what other tests see" in message, message


def test_a_script_the_base_configuration_collects_is_a_test_module(rubric_repo: RubricRepo) -> None:
    config = {"pytest.ini": "[pytest]\npython_files = *.py\n"}
    code, message = _check(rubric_repo, {PLACES[0]: BODY.format(top=TOPS[1])}, config)
    assert code == 1 and "changes what other tests see" in message, message


def test_a_script_where_pytest_imports_every_module_is_judged(rubric_repo: RubricRepo) -> None:
    config = {"pyproject.toml": "[tool.pytest.ini_options]\naddopts = '--doctest-modules'\n"}
    code, message = _check(rubric_repo, {PLACES[0]: BODY.format(top=TOPS[1])}, config)
    assert code == 1 and "changes what other tests see" in message, message


def test_an_edited_script_stays_drift(rubric_repo: RubricRepo) -> None:
    """Only a new script is let pass; an edited one is judged as the helper
    module it is (`gate.drift.python.helpers`): its changed statement fails."""
    path = PLACES[0]
    before = {path: BODY.format(top=TOPS[0])}
    code, message = _check(rubric_repo, {path: BODY.format(top=TOPS[1])}, before)
    assert code == 1 and path in message and "line 8" in message, message
