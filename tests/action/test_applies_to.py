"""`applies_to` never leaves a PR out for the spelling of its login, label or branch."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from gate.action.scope import applies
from gate.github.client_types import PullInfo
from gate.model.rubric import AppliesTo, Rubric

WORDS = st.sampled_from(
    ["codex", "agent", "copilot-swe-agent[bot]", "r\u00e9vision", "stra\u00dfe"]
)
RESPELL = st.lists(
    st.sampled_from(["upper", "lower", "swapcase", "title", "NFC", "NFD"]), max_size=3
)


def respelled(text: str, hows: list[str]) -> str:
    for how in hows:
        text = unicodedata.normalize(how, text) if how in ("NFC", "NFD") else getattr(text, how)()
    return text


def pull(author: str = "someone", labels: tuple[str, ...] = (), head_ref: str = "main") -> PullInfo:
    return PullInfo(
        number=1,
        base_sha="0" * 40,
        head_sha="1" * 40,
        base_ref="main",
        head_ref=head_ref,
        author=author,
        labels=labels,
        title="t",
        changed_files=1,
    )


def rubric(spec: AppliesTo) -> Rubric:
    return Rubric(rules=(), sha256="0" * 64, applies_to=spec)


@settings(max_examples=200, deadline=None)
@given(WORDS, RESPELL, st.sampled_from(["authors", "labels", "head_branches"]))
def test_a_respelled_login_label_or_branch_is_still_judged(
    word: str, hows: list[str], key: str
) -> None:
    """The PR's side is respelled (letter case, NFC/NFD): it is judged
    (None), never skipped with a neutral check."""
    other = respelled(word, hows)
    if key == "authors":
        verdict = applies(rubric(AppliesTo(authors=(word,))), pull(author=other))
    elif key == "labels":
        verdict = applies(rubric(AppliesTo(labels=("x", word))), pull(labels=(other,)))
    else:
        verdict = applies(
            rubric(AppliesTo(head_branches=(word.replace("[", "\\[") + "/**",))),
            pull(head_ref=f"{other}/fix"),
        )
    assert verdict is None, (word, other, verdict)


def test_a_pr_matching_nothing_is_still_left_out() -> None:
    spec = AppliesTo(authors=("bot",), labels=("agent",), head_branches=("codex/**",))
    assert applies(rubric(spec), pull(author="human", labels=("docs",), head_ref="feature/x"))


GOOD = {
    "number": 7,
    "base": {"sha": "a" * 40, "ref": "main"},
    "head": {"sha": "b" * 40, "ref": "codex/fix"},
    "user": {"login": "copilot-swe-agent[bot]"},
    "labels": [{"name": "agent"}],
    "title": "t",
}
BROKEN = st.sampled_from(
    [None, "", 0, [], {}, [None], [{"name": None}], "agent", {"name": "agent"}]
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([("user", None), ("user", "login"), ("labels", None), ("head", "ref")]),
    BROKEN,
    st.sampled_from(["authors", "labels", "head_branches"]),
)
def test_a_field_the_payload_leaves_unknown_never_skips_the_pr(
    where: tuple[str, str | None], value: object, key: str
) -> None:
    """A payload whose author, labels or head branch is absent, null, empty
    or mistyped: the PR is judged when `applies_to` would decide on that
    field, never left out with a neutral check for what nobody could see."""
    import copy

    data: dict[str, object] = copy.deepcopy(GOOD)
    outer, inner = where
    if (inner is not None and isinstance(value, str) and value) or (
        outer == "labels" and value == []
    ):
        return  # a real login or branch name, or no labels: not broken
    if inner is None:
        data[outer] = value
    else:
        member = data[outer]
        assert isinstance(member, dict)
        member[inner] = value
    try:
        info = PullInfo.from_json(data)
    except ValueError:
        return  # refused outright (exit 2): closed as well
    spec = {
        "authors": AppliesTo(authors=("someone-else",)),
        "labels": AppliesTo(labels=("other",)),
        "head_branches": AppliesTo(head_branches=("elsewhere/**",)),
    }[key]
    field = {"user": "authors", "labels": "labels", "head": "head_branches"}[outer]
    verdict = applies(rubric(spec), info)
    if field == key:
        assert verdict is None, (where, value, key)
    else:
        assert verdict is not None  # a known field that does not match still leaves it out
