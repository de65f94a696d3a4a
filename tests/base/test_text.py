"""gate.base.text: one notion of a file's text, its lines, a kept line and the line diff.

Issue 7, class 2: form feed, vertical tab, \\x1c-\\x1e, \\x85, U+2028, U+2029,
byte-order marks and CR/CRLF endings, in code, comments and string literals,
in the base or added by the change, never shift a line number, split a kept
line, fold one into a comment, or hide a changed line.  The generated
modules below sprinkle them; Python's own parser is the reference.
"""

from __future__ import annotations

import ast
import json
import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.base.text import BOM, decode, encode, kept_lines, kept_text, line_diff, lines
from gate.changes.example import line_counts
from gate.drift.python.tree import NotPython, module_statements
from gate.rubric.load import load_rubric_bytes
from gate.rules import confine_to_symbols
from tests.rulecase import RuleCase

PROPS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SPRINKLES = ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
ENDINGS = ["\n", "\r\n", "\r"]
F = "mod.py"
# The property tests judge hundreds of examples each: through the example
# builder (tests/test_rulecase.py holds it to the git builder's verdicts).
KEEP = RuleCase("keep_lines", id="K", file=F, source="example")
CONFINE = RuleCase("confine_to_symbols", id="S", file=F, symbols=["clamp"], source="example")


# --- lines, kept text, bytes ---


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("a", ["a"]),
        ("a\nb", ["a\n", "b"]),
        ("a\r\nb\rc\n", ["a\r\n", "b\r", "c\n"]),
        ("\r\r\n\n", ["\r", "\r\n", "\n"]),
        ("# note\u2028import math\n", ["# note\u2028import math\n"]),
        ("a\fb\vc\x1cd\x1de\x1ef\x85g\u2029h\r", ["a\fb\vc\x1cd\x1de\x1ef\x85g\u2029h\r"]),
    ],
)
def test_lines_end_at_newline_crlf_or_cr_only(text: str, expected: list[str]) -> None:
    assert lines(text) == expected


@given(st.text(alphabet=st.sampled_from(["a", " ", "\r", "\n", *SPRINKLES, BOM]), max_size=40))
def test_lines_rebuild_the_text_and_split_nowhere_else(text: str) -> None:
    found = lines(text)
    assert "".join(found) == text
    for line in found:
        body = line.rstrip("\r\n")
        assert "\r" not in body and "\n" not in body
        assert line[len(body) :] in ("", *ENDINGS)
    assert all(line.endswith(("\n", "\r")) for line in found[:-1])


def test_kept_text_strips_blanks_python_allows_and_nothing_else() -> None:
    assert kept_text(" \t\fimport math \t\r\n") == "import math"
    for ch in ["\v", "\x1c", "\x85", "\u2028", "\xa0", BOM]:
        assert kept_text(f"{ch}import math") != "import math"


def test_a_byte_order_mark_is_not_part_of_line_one() -> None:
    assert kept_lines(BOM + "import math\r\nx\n") == ["import math", "x"]
    assert kept_lines("x\n" + BOM + "import math\n")[1] != "import math"
    assert lines(BOM + "a\n") == [BOM + "a\n"]  # still part of the text: adding one is a change


@given(st.binary(max_size=64), st.binary(max_size=64))
def test_decode_is_reversible_so_different_bytes_stay_different(a: bytes, b: bytes) -> None:
    assert encode(decode(a)) == a
    if a != b:
        assert decode(a) != decode(b)


def test_undecodable_bytes_do_not_break_lines_or_compare_equal() -> None:
    # \x85 in Latin-1 bytes is not a line break once decoded, and two
    # different invalid bytes are not one replacement character.
    assert lines(decode(b"a\x85b\nc\n")) == ["a\udc85b\n", "c\n"]
    assert decode(b"x\xff") != decode(b"x\xfe")


# --- the line diff ---


def _alignment_holds(base: str, head: str) -> None:
    diff = line_diff(base, head)
    a = lines(base)
    b = lines(head)
    removed, added = set(diff.removed), set(diff.added)
    kept_a = [line for n, line in enumerate(a, 1) if n not in removed]
    kept_b = [line for n, line in enumerate(b, 1) if n not in added]
    assert kept_a == kept_b
    runs = [(i + k, j + k) for i, j, size in diff.unchanged for k in range(size)]
    assert [i for i, _ in runs] == [n for n in range(1, len(a) + 1) if n not in removed]
    assert [j for _, j in runs] == [n for n in range(1, len(b) + 1) if n not in added]
    assert all(a[i - 1] == b[j - 1] for i, j in runs)
    for n in diff.removed:
        assert 1 <= diff.head_anchor[n] <= max(len(b), 1)


@pytest.mark.parametrize("seed", range(40))
def test_line_diff_is_a_valid_alignment(seed: int) -> None:
    rng = random.Random(seed)
    vocab = ["\n", "    return x\n", "def f():\n", "pass\n", "x = 1\n", "y\n", "z", "w\r", "\f\n"]
    base = "".join(rng.choice(vocab) for _ in range(rng.randrange(0, 60)))
    found = lines(base)
    for _ in range(rng.randrange(0, 8)):
        op = rng.randrange(3)
        pos = rng.randrange(len(found) + 1)
        if op == 0:
            found.insert(pos, rng.choice(vocab))
        elif op == 1 and pos < len(found):
            del found[pos]
        elif pos < len(found):
            found[pos] = rng.choice(vocab)
    _alignment_holds(base, "".join(found))


LINE_WORDS = st.sampled_from(["a\n", "b\n", "c\n", "\n", "a\r\n", "a\r", "a", "x\u2028y\n"])


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE_WORDS, max_size=30), st.lists(LINE_WORDS, max_size=30))
def test_line_diff_is_a_valid_alignment_for_any_pair(a: list[str], b: list[str]) -> None:
    _alignment_holds("".join(a), "".join(b))


@pytest.mark.parametrize("seed", range(40))
def test_line_diff_out_of_budget_is_still_a_valid_alignment(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no budget at all every gap goes to the linear fallback: still valid."""
    import gate.base.text

    monkeypatch.setattr(gate.base.text, "_WORK_PER_LINE", 0)
    monkeypatch.setattr(gate.base.text, "_WORK_FIXED", 0)
    rng = random.Random(seed)
    vocab = ["a\n", "b\n", "c\n", "\n", "d\r\n"]
    base = "".join(rng.choice(vocab) for _ in range(rng.randrange(0, 200)))
    head = "".join(rng.choice(vocab) for _ in range(rng.randrange(0, 200)))
    _alignment_holds(base, head)
    _alignment_holds(base, base[: len(base) // 2] + "x\n" + base[len(base) // 2 :])


def test_line_diff_small_edit_in_a_large_repetitive_file() -> None:
    base = "".join(f"def f{i}(x):\n    y = x\n\n    return y\n\n" for i in range(2000))
    head = base.replace("def f1000(x):", "def g1000(x):")
    diff = line_diff(base, head)
    assert diff.removed == (5001,)
    assert diff.added == (5001,)
    assert diff.head_anchor == {5001: 5001}
    _alignment_holds(base, head)


def test_line_diff_regenerated_table_of_repeated_lines() -> None:
    """No line is unique: the fallback still finds the one-line replacements."""
    base = "0,\n" * 5000
    head = "".join("1,\n" if k % 10 == 0 else "0,\n" for k in range(5000))
    diff = line_diff(base, head)
    assert len(diff.removed) == len(diff.added) == 500
    _alignment_holds(base, head)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a\n", "b\n"]), max_size=12),
    st.lists(st.booleans(), min_size=12, max_size=12),
    st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_line_diff_matches_only_lines_with_equal_tags(
    found: list[str], base_tags: list[bool], head_tags: list[bool]
) -> None:
    text = "".join(found)
    diff = line_diff(
        text,
        text,
        base_tags=[int(t) for t in base_tags[: len(found)]],
        head_tags=[int(t) for t in head_tags[: len(found)]],
    )
    for i, j, size in diff.unchanged:
        assert all(base_tags[i + k - 1] == head_tags[j + k - 1] for k in range(size))
    if base_tags == head_tags:
        assert diff.removed == diff.added == ()


@pytest.mark.parametrize(
    ("before", "after", "counts"),
    [
        ("a\rb\r", "a\rc\r", (1, 1)),
        ("x\u2028y\n", "x\u2028z\n", (1, 1)),  # one line: U+2028 is not a line end
        (BOM + "a\n", "a\n", (1, 1)),  # a byte-order mark added or removed changes line 1
    ],
)
def test_example_counts_use_the_same_lines(
    before: str, after: str, counts: tuple[int, int]
) -> None:
    assert line_counts(before, after) == counts


STATEMENT = st.sampled_from(["a = 1", "b = 2", "a = 1  # x", "c = a", "", "# note", "  "])


@st.composite
def python_texts(draw: st.DrawFn) -> str:
    body = draw(st.lists(STATEMENT, max_size=12))
    return "".join(line + draw(st.sampled_from(ENDINGS)) for line in body)


def _spans(messages: list[str], prefix: str) -> set[int]:
    out: set[int] = set()
    for message in messages:
        if not message.startswith(prefix):
            continue
        span = message[len(prefix) :].split(" ", 1)[0]
        first, _, last = span.partition("-")
        out.update(range(int(first), int(last or first) + 1))
    return out


@PROPS
@given(before=python_texts(), after=python_texts())
def test_examples_and_content_rules_share_one_line_diff(before: str, after: str) -> None:
    """Issue 10, point 4: a rubric example's counts and a content rule's
    changed lines come from one line diff (`gate.base.text.line_diff`)."""
    rubric = load_rubric_bytes(
        json.dumps(
            {
                "rules": [{"id": "S", "kind": "confine_to_symbols", "file": F, "symbols": ["zz"]}],
                "examples": [
                    {
                        "name": "e",
                        "expect": "pass",
                        "change": [{"path": F, "before": before, "after": after}],
                    }
                ],
            }
        ).encode(),
        "r.json",
    )
    (example,) = rubric.examples
    (change,) = example.changes.files
    diff = line_diff(before, after)
    assert (change.added, change.deleted) == (len(diff.added), len(diff.removed))
    # No line is inside `zz`, so the rule names every changed line: the same lines.
    result = confine_to_symbols.check(rubric.rules[0], example.changes)
    messages = [f.message for f in result.findings]
    assert _spans(messages, "line ") | _spans(messages, "lines ") == set(diff.added)
    assert _spans(messages, "base line ") | _spans(messages, "base lines ") == set(diff.removed)
    assert result.passed is (not diff.added and not diff.removed)


# --- generated modules: Python's line numbers are the rules' line numbers ---


@dataclass
class Module:
    """A generated module: its text and each top-level statement's first and last line."""

    text: str
    spans: list[tuple[int, int]]
    names: list[str]


SAFE = st.sampled_from(["a", "b", " ", "#", "=", *SPRINKLES])  # in strings and comments
CODE_BLANK = st.sampled_from(["", "\f", " \f", "\t\f"])  # no indent: a form feed resets it
ANY_BLANK = st.sampled_from(["", " ", "\t", "\f", " \f "])


@st.composite
def modules(draw: st.DrawFn) -> Module:
    parts: list[list[str]] = []  # each part: its physical lines, without endings
    spans: list[tuple[int, int]] = []
    names: list[str] = []
    line = 1
    for k in range(draw(st.integers(1, 8))):
        lead = draw(CODE_BLANK)
        word = draw(st.text(SAFE, max_size=6))
        shape = draw(st.sampled_from(["assign", "comment", "blank", "triple", "def"]))
        name = f"n{k}"
        if shape == "assign":
            part = [f"{lead}{name} = '{word}'  # {draw(st.text(SAFE, max_size=4))}"]
        elif shape == "comment":
            part = [f"{draw(ANY_BLANK)}# {word}"]
        elif shape == "blank":
            part = [draw(ANY_BLANK) or " "]
        elif shape == "triple":
            part = [f"{lead}{name} = '''{word}", draw(st.text(SAFE, max_size=4)) + "'''"]
        else:
            part = [f"{lead}def {name}():", f"    return '{word}'"]
        if shape in ("assign", "triple", "def"):
            spans.append((line, line + len(part) - 1))
            names.append(name)
        parts.append(part)
        line += len(part)
    physical = [p for part in parts for p in part]
    endings = draw(
        st.lists(st.sampled_from(ENDINGS), min_size=len(physical), max_size=len(physical))
    )
    text = ""
    for content, ending in zip(physical, endings, strict=True):
        if text.endswith("\r") and content == "":
            content = " "  # "\r" then "\n" would be one CRLF ending
        text += content + ending
    if draw(st.booleans()):
        text = text.rstrip("\r\n")  # no ending on the last line
    if draw(st.booleans()):
        text = BOM + text
    return Module(text, spans, names)


@PROPS
@given(modules())
def test_python_line_numbers_are_the_rules_line_numbers(module: Module) -> None:
    statements = module_statements(F, "head", module.text)
    assert [(s.first, s.last) for s in statements] == module.spans
    found = lines(module.text)
    for (first, _), name in zip(module.spans, module.names, strict=True):
        assert kept_text(found[first - 1].removeprefix(BOM)).removeprefix("def ").startswith(name)


@PROPS
@given(modules(), st.sampled_from(SPRINKLES[1:]))
def test_a_separator_in_code_is_not_python_and_says_so(module: Module, sep: str) -> None:
    if not module.names:
        return
    text = module.text.replace(f"{module.names[0]} =", f"{module.names[0]}{sep}=", 1)
    text = text.replace(f"def {module.names[0]}(", f"def {module.names[0]}{sep}(", 1)
    with pytest.raises(NotPython):
        module_statements(F, "head", text)


KEPT = "import math"


@PROPS
@given(
    modules(),
    st.sampled_from(SPRINKLES),
    st.sampled_from(["# note", "x = 1", "", "'''"]),
    st.booleans(),
    st.sampled_from(ENDINGS),
)
def test_a_kept_line_is_never_split_or_folded(
    module: Module, sep: str, other: str, before: bool, ending: str
) -> None:
    base = module.text.removesuffix("\r").removesuffix("\n") + ending + KEPT + ending
    folded = f"{other}{sep}{KEPT}" if before else f"{KEPT}{sep}{other}"
    head = base.replace(KEPT, folded)
    KEEP.passes(KEEP.edit(base, base + "y = 2" + ending), "1 listed line", lines=[KEPT])
    lost = KEEP.check(KEEP.edit(base, head), lines=[KEPT])
    if kept_text(folded) != KEPT:  # a form feed is a blank around code
        assert not lost.passed
    # and a base that only has it folded does not have it at all
    unfolded = KEEP.check(KEEP.edit(head, base), lines=[KEPT])
    assert "not in the base version" in unfolded.message or kept_text(folded) == KEPT


@PROPS
@given(modules(), st.data())
def test_a_changed_line_is_never_invisible_to_confine_to_symbols(
    module: Module, data: st.DataObject
) -> None:
    base = "def clamp(x):\n    return x\n" + module.text.removeprefix(BOM)
    if module.text.startswith(BOM):
        base = BOM + base
    found = lines(base)
    outside = [n for n in range(3, len(found) + 1)]
    if not outside:
        return
    n = data.draw(st.sampled_from(outside))
    line = found[n - 1]
    body = line.rstrip("\r\n")
    pos = data.draw(st.integers(0, len(body)))
    insert = data.draw(st.sampled_from([*SPRINKLES, "z", " ", "\r", "\n", BOM]))
    changed = body[:pos] + insert + body[pos:] + line[len(body) :]
    if data.draw(st.booleans()):  # or fold it into the next line
        changed = body + data.draw(st.sampled_from(SPRINKLES))
    head = "".join([*found[: n - 1], changed, *found[n:]])
    if head == base:
        return
    CONFINE.fails(CONFINE.edit(base, head))
    inside = "".join([found[0], found[1].replace("x", "x + 1"), *found[2:]])
    CONFINE.passes(CONFINE.edit(base, inside))


# --- a coding declaration cannot move Python's lines off the bytes' lines ---

# Declared encodings Python accepts, and what each can smuggle into ASCII
# bytes: UTF-7 spells LF, CR, CRLF, `#` and quotes without those bytes; HZ
# swallows a newline after `~` and switches modes with `~{`/`~}`.
CODECS = {
    "utf-7": ["+AAo-", "+AA0-", "+AA0ACg-", "+ACM-", "+ACI-", "+-", "+AG4-"],
    "hz": ["~\n", "~\r\n", "~{", "~}", "~~"],
    "latin-1": ["\xe9", "\xa0"],
    "shift_jis": ["\x82\xa0", "\x81\x40"],
    "ascii": [],
}


@st.composite
def declared_modules(draw: st.DrawFn) -> tuple[str, bytes]:
    codec = draw(st.sampled_from(sorted(CODECS)))
    body: list[str] = []
    for k in range(draw(st.integers(1, 6))):
        shape = draw(st.sampled_from(["assign", "comment", "def", "triple"]))
        if shape == "assign":
            body.append(f"n{k} = 'w'  # c\n")
        elif shape == "comment":
            body.append("# note\n")
        elif shape == "def":
            body.append(f"def n{k}():\n    return 'w'\n")
        else:
            body.append(f"n{k} = '''w\nw'''\n")
    raw = (f"# -*- coding: {codec} -*-\n" + "".join(body)).encode("latin-1")
    smuggles = [s.encode("latin-1") for s in CODECS[codec]]
    for _ in range(draw(st.integers(0, 3) if smuggles else st.just(0))):
        at = draw(st.integers(len(raw.split(b"\n", 1)[0]) + 1, len(raw)))
        raw = raw[:at] + draw(st.sampled_from(smuggles)) + raw[at:]
    return codec, raw


@PROPS
@given(declared_modules())
def test_a_declared_encoding_never_moves_pythons_lines(module: tuple[str, bytes]) -> None:
    """Whatever encoding a file declares, either the content rules refuse it
    or each statement's line in Python's parse is that line of the bytes: a
    UTF-7 `+AAo-` (a newline) inside a listed function's line cannot start
    a module-level statement the rules place inside the function."""
    codec, data = module
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return  # not Python at all: other tests cover that
    try:
        statements = module_statements(F, "head", decode(data))
    except NotPython:
        assert codec in ("utf-7", "hz")  # the encodings that can move lines
        return
    found = lines(decode(data))
    for node, statement in zip(tree.body, statements, strict=True):
        names = [t.id for t in getattr(node, "targets", ()) if isinstance(t, ast.Name)]
        name = getattr(node, "name", None) or (names[0] if names else None)
        assert (statement.first, statement.last) == (node.lineno, node.end_lineno)
        # the gate's line, read in the declared encoding, is where Python found it
        if name is not None:
            assert name in encode(found[statement.first - 1]).decode(codec), (data, name)


@pytest.mark.parametrize(
    ("codec", "smuggled"),
    [
        ("utf-7", "x +AAo-helper = 2"),
        ("utf-7", "x +AAoACg-helper = 2"),
        ("hz", "x # ~\nhelper = 2 # ~\n"),
    ],
)
def test_a_line_break_smuggled_by_an_encoding_fails_confine_to_symbols(
    codec: str, smuggled: str
) -> None:
    base = f"# coding: {codec}\ndef clamp(x):\n    return x\n\n\ndef helper():\n    return 1\n"
    head = base.replace("return x\n", f"return {smuggled}\n", 1)
    reason = f"declares the source encoding {codec}"
    CONFINE.fails(CONFINE.edit(base, head), reason, source="git")
    # the same encoding without a smuggled break is read as usual
    honest = base.replace("return x\n", "return x * 2\n", 1)
    CONFINE.passes(CONFINE.edit(base, honest), source="git")
