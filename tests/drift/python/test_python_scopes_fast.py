"""The quick answer to "is the name a store goes through the code's own
where it stands" (`shared._Bodies`, asked before the walk of every scope)
never says yes where the walk (`shared._visible_locals`) says no."""

from __future__ import annotations

import ast
import textwrap

import pytest

from gate.drift.python.shared import _Bodies, _visible_locals, shares_state
from gate.drift.python.tree import walk

CODE = [
    "def t(self):\n    self.x = 1",
    "def t():\n    m = object()\n    m.x = 1",
    "def t():\n    [0 for m in ()]\n    m.f = 1",
    "def t(m):\n    def inner():\n        m.f = 1\n    return inner",
    "def t():\n    def inner(m):\n        pass\n    m.f = 1",
    "def t(m):\n    class K:\n        m.f = 1",
    "def t():\n    class K:\n        m = 1\n        def f(self):\n            m.x = 1",
    "class T:\n    def a(self):\n        self.x = 1\n"
    "    def b(self, m=[0 for m.y in ()]):\n        pass",
    "class T:\n    m = 1\n    m.x = 2\n    def a(self):\n        m.x = 1",
    "def t(m, k: [0 for m.y in ()] = 1):\n    m.x = 1",
    "@d([0 for self.y in ()])\ndef t(self):\n    self.x = 1",
    "def t(self):\n    def f(a: [0 for self.y in ()]) -> [0 for self.z in ()]:\n        pass",
    "def t(self):\n    lambda: [0 for self.y in ()]",
    "def t(self):\n    [self.y for self in ()]\n    self.z = 1",
    "with x as m:\n    m.y = 1\n    def f(m):\n        m.z = 1",
    "async def t(self):\n    async with a() as s:\n        s.x = 1\n    self.y[0] = 2",
]


def _stores(node: ast.AST) -> list[tuple[ast.AST, str]]:
    out = []
    for sub in walk(node):
        if isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(
            sub.ctx, (ast.Store, ast.Del)
        ):
            root = sub.value
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if isinstance(root, ast.Name):
                out.append((sub, root.id))
    return out


@pytest.mark.parametrize("code", CODE)
def test_the_quick_answer_never_sees_a_name_the_scope_walk_does_not(code: str) -> None:
    node = ast.parse(textwrap.dedent(code)).body[0]
    nodes = walk(node)
    quick, full = _Bodies(node, nodes), _visible_locals(node)
    stores = _stores(node)
    assert stores
    for store, name in stores:
        if quick.sees(store, name):
            assert name in full.get(id(store), ()), (code, name)


@pytest.mark.parametrize(
    ("code", "shared"),
    [
        ("def t(self):\n    self.x = 1", False),
        ("def t(self):\n    def f(a: [0 for self.y in ()]):\n        pass", True),
        ("@d([0 for self.y in ()])\ndef t(self):\n    pass", True),
        ("class T:\n    def a(self):\n        self.x = 1", False),
        ("def t():\n    [0 for m in ()]\n    m.f = 1", True),
    ],
)
def test_a_store_through_a_name_the_scope_does_not_own_is_shared(code: str, shared: bool) -> None:
    node = ast.parse(code).body[0]
    assert shares_state(node) is shared


def test_the_quick_answer_sees_a_methods_own_objects() -> None:
    node = ast.parse("class T:\n    def a(self):\n        x = K()\n        x.y = self.z = 1").body[
        0
    ]
    quick = _Bodies(node, walk(node))
    assert all(quick.sees(store, name) for store, name in _stores(node))
