"""`gate.frozen.plan`: what the frozen tree holds.  A shared file's test
part is the base's after a splice, or the run is refused: generated TOML,
INI and JSON spellings of a pull request's test configuration never reach
the frozen run."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.drift import runners
from gate.frozen.plan import GITLINK, plan, splice_shared

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# Ways a pyproject.toml can say pytest's options (all the same table to TOML).
PYTEST_SPELLINGS = [
    '[tool.pytest.ini_options]\naddopts = "{v}"\n',
    '[tool.pytest]\nini_options = {{ addopts = "{v}" }}\n',
    '[tool]\npytest.ini_options.addopts = "{v}"\n',
    '[ tool . "pytest" . ini_options ]\naddopts = "{v}"\n',
    "[tool.pytest.ini_options]\naddopts = '''{v}'''\n",
    '[tool.pytest.ini_options]\naddopts = "{v}"\n[tool.pytest.ini_options.markers]\n',
]
OTHER = [
    '[project]\nname = "app"\nversion = "{n}"\n',
    '[project]\nname = "app"\ndependencies = ["requests>={n}"]\n',
    "[tool.ruff]\nline-length = {n}\n",
    "",
]


@settings(max_examples=300, deadline=None)
@given(
    base_pytest=st.sampled_from(["", *PYTEST_SPELLINGS]),
    head_pytest=st.sampled_from(["", *PYTEST_SPELLINGS]),
    base_other=st.sampled_from(OTHER),
    head_other=st.sampled_from(OTHER),
    before=st.booleans(),
    values=st.tuples(st.sampled_from(["-q", "-k nothing", "-p no:x"]), st.integers(1, 9)),
)
def test_a_pyproject_splice_is_the_bases_test_part_or_refused(
    base_pytest: str,
    head_pytest: str,
    base_other: str,
    head_other: str,
    before: bool,
    values: tuple[str, int],
) -> None:
    opt, n = values
    base = base_other.format(n=1) + base_pytest.format(v="-q")
    head_parts = [head_other.format(n=n), head_pytest.format(v=opt)]
    head = "".join(head_parts if before else head_parts[::-1])
    try:
        tomllib.loads(head)
    except tomllib.TOMLDecodeError:
        return  # a spelling that clashes with another table: not a pyproject at all
    try:
        spliced = splice_shared("pyproject.toml", base.encode(), head.encode())
    except GateError as exc:
        assert "pyproject.toml" in exc.message and "cannot separate" in exc.message
        return
    text = head if spliced is None else spliced.decode()
    assert runners.section_change("pyproject.toml", base, text) is None
    if spliced is not None:
        kept = tomllib.loads(text)
        ours = tomllib.loads(head)
        assert kept.get("project") == ours.get("project")
        assert kept.get("tool", {}).get("ruff") == ours.get("tool", {}).get("ruff")


@settings(max_examples=200, deadline=None)
@given(
    base_jest=st.sampled_from([None, {"testMatch": ["**/*.test.js"]}]),
    head_jest=st.sampled_from([None, {"testMatch": ["nothing"]}, {"testMatch": ["**/*.test.js"]}]),
    base_test=st.sampled_from(["jest", "jest --ci"]),
    head_test=st.sampled_from(["jest", "jest --ci", "true", "echo ok"]),
    head_build=st.sampled_from(["tsc", "tsc -b", None]),
    version=st.sampled_from(["1.0.0", "2.0.0"]),
)
def test_a_package_json_splice_keeps_the_heads_rest(
    base_jest: object,
    head_jest: object,
    base_test: str,
    head_test: str,
    head_build: str | None,
    version: str,
) -> None:
    def doc(jest: object, test: str, build: str | None, ver: str) -> bytes:
        data: dict[str, object] = {"name": "app", "version": ver}
        scripts = {"test": test, **({"build": build} if build else {})}
        data["scripts"] = scripts
        if jest is not None:
            data["jest"] = jest
        return json.dumps(data, indent=2).encode()

    base = doc(base_jest, base_test, "tsc", "1.0.0")
    head = doc(head_jest, head_test, head_build, version)
    spliced = splice_shared("package.json", base, head)
    text = head if spliced is None else spliced
    assert runners.section_change("package.json", base.decode(), text.decode()) is None
    data = json.loads(text)
    assert data["version"] == version  # the head's own keys stay the head's


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ("pytest==8.0\n", "pytest @ git+https://example.invalid/pytest\n"),
        ("", "-e ./vendor/pytest\n"),
        ("pytest\n", "--index-url https://example.invalid/simple\npytest\n"),
    ],
)
def test_a_requirements_file_that_takes_a_test_tool_elsewhere_is_refused(
    base: str, head: str
) -> None:
    with pytest.raises(GateError, match="cannot separate"):
        splice_shared("requirements-dev.txt", base.encode(), head.encode())


def test_the_plan_restores_removes_and_never_touches_the_rest() -> None:
    base = {
        "tests/test_a.py": ("100644", "a1"),
        "tests/data/x.json": ("100644", "d1"),
        "src/app.py": ("100644", "s1"),
        "conftest.py": ("100644", "c1"),
    }
    head = {
        "tests/test_a.py": ("100644", "a2"),  # edited: restored
        "tests/test_new.py": ("100644", "n1"),  # new: removed
        "tests/data/x.json": ("120000", "l1"),  # now a symlink: restored as the file
        "src/app.py": ("100644", "s2"),  # the PR's code: kept
        "src/conftest.py": ("100644", "c2"),  # a new runner file anywhere: removed
    }
    frozen = plan(
        base, head, lambda p: p.startswith("tests/") or p.endswith("conftest.py"), lambda *_: None
    )
    assert dict(frozen.restore) == {
        "tests/test_a.py": ("100644", "a1"),
        "tests/data/x.json": ("100644", "d1"),
        "conftest.py": ("100644", "c1"),  # deleted by the PR: back
    }
    assert frozen.remove == ("src/conftest.py", "tests/test_new.py")
    assert frozen.frozen == 3


def test_a_submodule_at_a_test_path_the_head_changes_cannot_be_frozen() -> None:
    base = {"tests/vendor": (GITLINK, "a" * 40)}
    head = {"tests/vendor": (GITLINK, "b" * 40)}
    with pytest.raises(GateError, match="submodule"):
        plan(base, head, lambda p: p.startswith("tests/"), lambda *_: None)


@pytest.mark.parametrize(
    ("path", "base", "head", "gone", "kept"),
    [
        (
            "pyproject.toml",
            '[project]\nname = "app"\n',
            '[project]\nname = "app2"\n\n[tool.pytest.ini_options]\naddopts = "-k nothing"\n',
            "-k nothing",
            'name = "app2"',
        ),
        (
            "pyproject.toml",
            '[project]\nname = "app"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n',
            '[tool.pytest.ini_options]\naddopts = "-k nothing"\n\n[project]\nname = "app2"\n',
            "-k nothing",
            'name = "app2"',
        ),
        (
            "setup.cfg",
            "[metadata]\nname = app\n\n[tool:pytest]\naddopts = -q\n",
            "[metadata]\nname = app2\n\n[tool:pytest]\naddopts = -k nothing\n",
            "-k nothing",
            "name = app2",
        ),
    ],
)
def test_the_common_spellings_are_spliced_not_refused(
    path: str, base: str, head: str, gone: str, kept: str
) -> None:
    spliced = splice_shared(path, base.encode(), head.encode())
    assert spliced is not None
    text = spliced.decode()
    assert gone not in text and kept in text
    assert runners.section_change(path, base, text) is None
