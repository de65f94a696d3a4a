"""`parse_module`: a file parsed chunk by chunk, chunks reused across
versions, is exactly what `ast.parse` reads, positions included, for every
version; a text Python refuses is refused with Python's own error."""

from __future__ import annotations

import ast

import pytest

from gate.base.text import encode
from gate.drift.python.parsed import parse_module, settle

# Each a file whose column-0 lines are not all statement starts (the cuts a
# chunker could get wrong), or an ordinary one.
SHAPES = {
    "plain": "import os\n\nX = 1\n\n\ndef test_a():\n    assert X\n",
    "decorated": "import pytest\n@pytest.mark.a\n@pytest.mark.b(\n1,\n)\ndef test_a():\n    pass\n",
    "string at column 0": 'X = """\nY = 2\ndef test_b():\n"""\n\ndef test_a():\n    assert X\n',
    "bytes string": "X = b'''\nimport os\n'''\nZ = 1\n",
    "f-string": 'X = f"""\n{1}\nY = 3\n"""\n',
    "bracket at column 0": "X = [\n1,\n]\nY = (\n2\n)\n",
    "backslash": "X = 1 + \\\n2\nY = 3\n",
    "clauses": (
        "if X:\n    pass\nelif Y:\n    pass\nelse:\n    pass\n"
        "try:\n    pass\nexcept E:\n    pass\nfinally:\n    pass\n"
    ),
    "same chunk twice": "def test_a():\n    pass\n\ndef test_a():\n    pass\n",
    "comments only first": "# one\n# two\nX = 1\n",
    "no final newline": "X = 1\ndef test_a():\n    pass",
    "semicolons": "X = 1; Y = 2\nZ = 3\n",
    "future": "from __future__ import annotations\nX: int = 1\n",
    "latin-1": "# -*- coding: latin-1 -*-\nX = 'caf\xe9'\n",
    "crlf": "X = 1\r\nY = 2\r\n",
    "bom": "\ufeffX = 1\nY = 2\n",
    "nested function": (
        "def f():\n    def g():\n        return 1\n    return g\n\n"
        "class TestA:\n    def test_a(self):\n        pass\n"
    ),
    "broken": "X = 1\ndef test_a(:\n    pass\n",
    "broken string": 'X = """\nY = 1\n',
    "unclosed": "X = (\nY = 1\n",
    "indented first": "  X = 1\nY = 2\n",
    "match": "match X:\n    case 1:\n        pass\ncase = 2\n",
    "decorator first": (
        "@deco\n\n# note\ndef test_a():\n    pass\n@deco\nclass T:\n    pass\nX = 1\n"
    ),
    "clause-like names": "elsewhere = 1\nelse_ = 2\nfinally_ = 3\nexcepted = 4\n",
    "a NUL byte": "X = 1\n\0\nY = 2\n",
    "barry_as_FLUFL": "from __future__ import barry_as_FLUFL\nX = 1 <> 2\nY = 3\n",
    "wide characters": "X = '\u2603'\n\u00e9 = 1\nY = '\U0001f600'\n",
}


def _read(text: str, reader: object) -> str:
    try:
        data = encode(text)
        tree = reader(text, data)  # type: ignore[operator]
    except SyntaxError as exc:
        return f"SyntaxError {exc.msg} {exc.lineno}"
    except ValueError as exc:
        return f"ValueError {exc}"
    return ast.dump(tree, include_attributes=True)


def _versions(text: str) -> list[str]:
    """The text, moved down, grown at the end, edited in the middle, and back."""
    lines = text.splitlines(keepends=True)
    middle = len(lines) // 2
    return [
        text,
        "import sys\n\n" + text,
        text + "\n\ndef test_new():\n    pass\n",
        "".join(lines[:middle]) + "Q = 9\n" + "".join(lines[middle:]),
        "# moved\n" * 3 + text,
        text,
    ]


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_version_reads_as_python_reads_it(name: str) -> None:
    for text in _versions(SHAPES[name]):
        assert _read(text, parse_module) == _read(text, lambda _t, d: ast.parse(d)), text


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_reused_chunk_read_in_another_file_is_not_confused(name: str) -> None:
    # hostile twin: the same chunks placed after text that opens a string
    # or a bracket, so the chunks kept before must not be taken as whole
    kept = SHAPES[name]
    _read(kept, parse_module)
    for opener in ('X = """\n', "X = (\n", "X = 1 + \\\n", "@deco\n", "Y = '''\n"):
        for text in (opener + kept, opener + kept + '"""\n', opener + kept + ")\n"):
            assert _read(text, parse_module) == _read(text, lambda _t, d: ast.parse(d)), text


def test_nodes_of_an_unchanged_chunk_are_reused_with_their_lines_moved() -> None:
    test = "def test_kept():\n    assert 1\n"
    first = parse_module("X = 1\n" + test, encode("X = 1\n" + test))
    moved = "X = 1\nY = 2\nZ = 3\n" + test
    second = parse_module(moved, encode(moved))
    assert first.body[1] is second.body[3]
    assert (second.body[3].lineno, second.body[3].end_lineno) == (4, 5)
    assert ast.dump(second, include_attributes=True) == ast.dump(
        ast.parse(moved), include_attributes=True
    )


def _unsettled(text: str, data: bytes) -> ast.Module:
    """`parse_module` not settled: each statement's and decorator's lines
    are the file's already; every node's once each statement is settled."""
    tree = parse_module(text, data, settled=False)
    fresh = ast.parse(data)
    for statement, want in zip(tree.body, fresh.body, strict=True):
        decorators = getattr(statement, "decorator_list", [])
        wanted = getattr(want, "decorator_list", [])
        for node, line in ((statement, want), *zip(decorators, wanted, strict=True)):
            assert (node.lineno, node.end_lineno) == (line.lineno, line.end_lineno)
        settle(statement)
    return tree


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_moved_statement_settled_reads_as_python_reads_it(name: str) -> None:
    base = SHAPES[name]
    decorated = "@deco(\n    1,\n)\ndef test_d():\n    return [\n        2,\n    ]\n"
    for text in [*_versions(base), *_versions(base + decorated), decorated + base]:
        assert _read(text, _unsettled) == _read(text, lambda _t, d: ast.parse(d)), text


# A statement whose string holds lines at column 0 (a snapshot, a dedented
# script): its pieces do not parse alone, so it is kept as one chunk.
SNAPSHOT = 'EXPECTED = """\nline one\ndef not_code():\n"""\n'
AFTER = "def test_after():\n    assert EXPECTED\n"


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: "import sys\n" + t,
        lambda t: t + "\ndef test_new():\n    pass\n",
        lambda t: "# a comment\n\n" + t.replace(AFTER, "Q = 1\n" + AFTER),
    ],
)
def test_a_statement_across_pieces_is_reused_in_the_next_version(edit: object) -> None:
    text = "import os\n" + SNAPSHOT + AFTER
    first = parse_module(text, encode(text))
    edited = edit(text)  # type: ignore[operator]
    second = parse_module(edited, encode(edited))
    kept = {id(s) for s in first.body}
    # the snapshot and the test after it are the same nodes, lines moved
    assert sum(id(s) in kept for s in second.body) >= 2
    assert ast.dump(second, include_attributes=True) == ast.dump(
        ast.parse(edited), include_attributes=True
    )


@pytest.mark.parametrize(
    "around",
    [
        ("Z = '''\n", "'''\n"),
        ("Z = (\n", ")\n"),
        ("Z = '''\n", "'''\nW = 2\n"),
        ("@deco\n", ""),
        ("Z = 1 + \\\n", ""),
        ('Z = """\n', '"""\n'),
    ],
)
def test_a_kept_statement_across_pieces_inside_another_is_not_taken_whole(
    around: tuple[str, str],
) -> None:
    # hostile twin: the kept statement's exact text, now inside another
    # statement's string or bracket (or under a decorator), must not be
    # read as a statement of its own
    text = "import os\n" + SNAPSHOT + AFTER
    parse_module(text, encode(text))
    opener, closer = around
    hostile = "import os\n" + opener + SNAPSHOT + closer + AFTER
    assert _read(hostile, parse_module) == _read(hostile, lambda _t, d: ast.parse(d)), hostile


@pytest.mark.parametrize(
    "reader",
    ["X = __doc__\n", "import inspect\nY = inspect.getdoc(sys)\n", "Z = f.__doc__\n"],
)
def test_what_is_kept_on_a_reused_statement_follows_each_version(reader: str) -> None:
    # the facts kept on a statement (its binds, whether it spells __doc__)
    # are the statement's own: a version that adds a reader of the module
    # docstring beside reused statements makes it code, and removing the
    # reader makes it prose again
    from gate.drift.python.units import units

    text = '"""Prose about the tests."""\nimport sys\n\n\ndef test_a():\n    assert sys\n'
    later = text + reader

    def docstring(source: str) -> tuple[str, str]:
        first = units(source)[1]
        return first.key, first.drop

    assert docstring(text) == ("module docstring", "*")
    assert docstring(later)[1] == ""
    assert docstring(text + "\n") == ("module docstring", "*")
