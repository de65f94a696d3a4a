"""gate/drift/python/ on a new plain import (`import json`, `import os as
j`), which binds a module object: existing code that spells the name only
as a bare word of data (`mode="json"`, `{"type": "json"}`, a bare string
annotation) reaches no module, so the import is welcome; a string a lookup
by name is handed (`getattr`, `monkeypatch.setattr`, `patch.object`, a
dotted patch target, a computed name) still reaches it.  Any other new
binding (`from m import x`, a def, a fixture, a value) is judged as before:
a bare word may name a fixture or a type."""

from __future__ import annotations

import ast
import keyword
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gate.drift import compare
from gate.drift.python.scopes import uses_of, words_of
from gate.drift.python.units import units

PROPS = settings(max_examples=120, deadline=None)

NAMES = st.from_regex(r"\A[a-z][a-z_]{1,8}\Z", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n)
)


def drift_of(base: str, head: str) -> str:
    found = compare(units(base), units(head))
    return "ok" if found.ok else found.summary()


# Where a base test spells NAME only as a bare word no lookup is handed.
DATA = [
    "def test_a(config):\n    assert config.model_dump(mode='{n}', exclude_none=True)\n",
    'def test_a():\n    assert {{"type": "{n}"}}\n',
    'def test_a():\n    assert ["{n}", "yaml"] and ("{n}", 1)\n',
    'def test_a(fmt="x"):\n    assert fmt == "{n}"\n',
    'def test_a() -> "{n}":\n    return "{n}"\n',
    'class TestA:\n    kind = "{n}"\n\n    def test_a(self):\n        assert self.kind\n',
    'KINDS = {{"{n}": 1}}\n\n\ndef test_a():\n    assert KINDS\n',
    '@pytest.mark.parametrize("fmt", ["{n}", "xml"])\ndef test_a(fmt):\n    assert fmt\n',
]
# Where a base test hands NAME to a lookup, or resolves it through the module.
LOOKED_UP = [
    "def test_a(monkeypatch):\n    monkeypatch.setattr('tests.this_mod.{n}.loads', str)\n",
    'def test_a():\n    with patch("pkg.mod.{n}"):\n        pass\n',
    'def test_a(x: "{n}.Decoder" = None):\n    pass\n',
    'def test_a():\n    assert getattr(sys.modules[__name__], "{n}")\n',
    'def test_a():\n    assert {{"type": "{n}"}} and globals()\n',
    'def test_a(request):\n    assert getattr(request.module, "{n}")\n',
    'def test_a(request):\n    assert hasattr(request.module, "{n}")\n',
    'def test_a(monkeypatch, request):\n    monkeypatch.setattr(request.module, "{n}", None)\n',
    'def test_a(monkeypatch, request):\n    monkeypatch.delattr(request.module, name="{n}")\n',
    'def test_a(request):\n    with patch.object(request.module, attribute="{n}"):\n        pass\n',
    'def test_a(request):\n    assert attrgetter("{n}")(request.module)\n',
    'def test_a(request):\n    assert getattr(request.module, *["{n}"])\n',
    'def test_a(request):\n    assert look(request.module, **{{"name": "{n}"}})\n',
    '@pytest.mark.usefixtures("{n}")\ndef test_a():\n    pass\n',
    'def test_a():\n    assert "{n}" and {n}\n',
]
MODULE_BINDERS = ["import {n}\n", "import os as {n}\n", "import os.path as {n}\n"]
OTHER_BINDERS = [
    "from fixtures import {n}\n",
    "from os import path as {n}\n",
    "{n} = 3\n",
    "@pytest.fixture\ndef {n}():\n    return 1\n",
    "class {n}:\n    pass\n",
]


def _head(base: str, binder: str, name: str) -> str:
    return base + "\n\n" + binder.format(n=name) + f"\n\ndef test_new():\n    assert {name}\n"


def _base(template: str, name: str) -> str:
    assume(name not in re.findall(r"\w+", template))
    return "import pytest\n\n\n" + template.format(n=name)


@PROPS
@given(NAMES, st.sampled_from(DATA), st.sampled_from(MODULE_BINDERS))
def test_a_new_module_import_whose_name_existing_code_holds_as_data_is_welcome(
    name: str, template: str, binder: str
) -> None:
    base = _base(template, name)
    assert drift_of(base, _head(base, binder, name)) == "ok"


@PROPS
@given(NAMES, st.sampled_from(DATA), st.sampled_from(OTHER_BINDERS))
def test_any_other_new_binding_of_a_word_existing_code_holds_is_drift(
    name: str, template: str, binder: str
) -> None:
    base = _base(template, name)
    assert f"binds {name}, a name existing code uses" in drift_of(base, _head(base, binder, name))


@PROPS
@given(NAMES, st.sampled_from(LOOKED_UP), st.sampled_from(MODULE_BINDERS + OTHER_BINDERS))
def test_a_new_binding_of_a_name_existing_code_looks_up_is_drift(
    name: str, template: str, binder: str
) -> None:
    base = _base(template, name)
    assert f"binds {name}, a name existing code uses" in drift_of(base, _head(base, binder, name))


@pytest.mark.parametrize(
    ("code", "uses", "words"),
    [
        ('f(mode="json")', {"f", "json"}, {"json"}),
        ('f("json")', {"f", "json"}, set()),
        ('getattr(m, "json")', {"getattr", "m", "json"}, set()),
        ('f(name="json")', {"f", "json"}, set()),
        ('f(*("json",))', {"f", "json"}, set()),
        ('f(**{"attribute": "json"})', {"f", "json", "attribute"}, {"attribute"}),
        ('x = {"type": "json"}', {"x", "type", "json"}, {"type", "json"}),
        ('x = ["a, b"]', {"x", "a", "b"}, {"a", "b"}),
        ('x = "pkg.mod.json"', {"x", "pkg", "mod", "json"}, set()),
        ('x = "Foo | None"', {"x", "Foo", "None"}, set()),
        ('x = "application/json"', {"x"}, set()),
        ('x = json or "json"', {"x", "json"}, set()),  # read as code too: no word
        ('x = f"{y}.json"', {"x", "y", "json"}, set()),  # an f-string's text counts whole
    ],
)
def test_words_are_the_bare_words_no_lookup_is_handed(
    code: str, uses: set[str], words: set[str]
) -> None:
    node = ast.parse(code).body[0]
    assert set(uses_of(node)) == uses
    assert set(words_of(node)) == words
    assert words_of(ast.parse(code).body[0], every_string=True) == ()


def test_a_json_import_beside_model_dump_mode_json_is_welcome() -> None:
    """temporalio/sdk-python 4f78fa41: a test file gains `import json` for a
    new test while an existing one calls `model_dump(mode="json")`; its
    twin hands the word to a lookup instead."""
    new = "\n\ndef test_new(config):\n    assert json.dumps(config)\n"
    for mode, verdict in (('mode="json"', "ok"), ('getattr(config, "json")', "drift")):
        base = f"def test_schema(config):\n    assert config.model_dump({mode})\n"
        found = drift_of(base, "import json\n\n\n" + base + new)
        assert (found == "ok") == (verdict == "ok"), found
