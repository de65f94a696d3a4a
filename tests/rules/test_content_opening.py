"""The opening every content rule shares (`gate.rules._opening.versions`):
a file the rule names that the change deletes or renames away never passes,
whatever the source, whether or not it gives the file's text, and whatever
head text it gives for the old path."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gate.model.change import DELETED, RENAMED, ChangeSet, FileChange, FileTexts
from gate.model.rubric import Rule
from gate.rules import REGISTRY

F = "pkg/clamp_kit.py"
BASE = "import os\n\n\ndef clamp(x):\n    return x\n"
# Each content kind with parameters that the base version makes matter.
RULES = {
    "keep_lines": {"file": F, "lines": ["import os"]},
    "keep_symbols": {"file": F, "symbols": ["clamp"]},
    "confine_to_symbols": {"file": F, "symbols": ["clamp"]},
}
SOURCES = ("git", "patch", "api", "writer", "example")


@given(
    kind=st.sampled_from(sorted(RULES)),
    renamed=st.booleans(),
    source=st.sampled_from(SOURCES),
    texts=st.sampled_from(["none", "head absent", "head kept"]),
    tail=st.lists(st.sampled_from(["", "# a note", "y = 1", "z = y", "import sys"]), max_size=4),
)
def test_a_named_file_that_is_gone_never_passes(
    kind: str, renamed: bool, source: str, texts: str, tail: list[str]
) -> None:
    base = BASE + "".join(f"{line}\n" for line in tail)
    if renamed:
        change = FileChange("moved/clamp_kit.py", RENAMED, old_path=F, added=0, deleted=0)
    else:
        change = FileChange(F, DELETED, added=0, deleted=base.count("\n"))
    given_texts = {}
    if texts != "none":
        given_texts[F] = FileTexts(base, base if texts == "head kept" else None)
    changes = ChangeSet(files=(change,), texts=given_texts, source=source)  # type: ignore[arg-type]
    rule = Rule(id="R", kind=kind, params=RULES[kind])
    verdict = REGISTRY[kind].check(rule, changes)
    assert not verdict.passed, verdict.message
    assert '"pkg/clamp_kit.py" was ' in verdict.message
    assert F in verdict.paths


@given(kind=st.sampled_from(sorted(RULES)), source=st.sampled_from(SOURCES))
def test_an_untouched_file_passes_and_says_so(kind: str, source: str) -> None:
    changes = ChangeSet(files=(FileChange("other.py"),), source=source)  # type: ignore[arg-type]
    verdict = REGISTRY[kind].check(Rule(id="R", kind=kind, params=RULES[kind]), changes)
    assert verdict.passed
    assert verdict.message == '"pkg/clamp_kit.py" is untouched'
