"""A package.json that states a key twice (`gate.drift.sections.package_json`):
Node reads the last value, so a repeated key that `test_drift` never reads
(`engines`, `files`, a tool's own key) is read that way and judges nothing.
A key repeated among the keys the rule reads (the runner section's keys,
the dependency maps, overrides, resolutions, `pnpm`), or inside one's value,
still fails closed: a reader of the diff sees the first value, a tool
whose parser keeps the first sees another test run than the one judged.
Hostile twins: the first value innocent and the last one moving the test
script or the runner, on either side, at the top or nested."""

from __future__ import annotations

import json

import pytest

from gate.base.structured import Unreadable, json_object
from gate.drift import runners
from gate.drift.elsewhere import JS_READS
from gate.drift.pins import pin_changes
from gate.drift.sections import package_json
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift")

SECTION = runners.section_for("package.json")
assert SECTION is not None
# Every top-level key the rule reads, from its owners (a key added there is
# added here).
READ = (*SECTION.keys, *JS_READS)
# Keys it does not read: Node's own and other tools'.
UNREAD = ("engines", "files", "main", "type", "exports", "eslintConfig", "prettier", "browserslist")

TEST = "test('a', () => { expect(1).toBe(1); });\n"


def _members(pairs: list[tuple[str, str]]) -> str:
    """A JSON object's text from (key, value as JSON text) pairs, repeats kept."""
    return "{\n" + ",\n".join(f"  {json.dumps(k)}: {v}" for k, v in pairs) + "\n}\n"


def _package(*extra: tuple[str, str], test: str = "jest") -> str:
    return _members(
        [
            ("name", '"app"'),
            ("scripts", json.dumps({"test": test})),
            ("devDependencies", json.dumps({"jest": "^29.0.0"})),
            *extra,
        ]
    )


def _change(base: str, head: str) -> Files:
    return Files(
        base={"package.json": base, "tests/a.test.js": TEST, "src/a.js": "x = 1\n"},
        head={"package.json": head, "tests/a.test.js": TEST, "src/a.js": "x = 2\n"},
    )


def test_the_named_keys_are_read() -> None:
    assert {"scripts", "devDependencies", "dependencies", "jest", "overrides"} <= set(READ)
    assert not set(UNREAD) & set(READ)


# --- relaxed: a repeated key the rule never reads ---------------------------


@pytest.mark.parametrize("key", UNREAD)
@pytest.mark.parametrize("side", ["base", "head", "both"])
def test_a_repeated_key_the_rule_never_reads_passes(key: str, side: str) -> None:
    twice = (("engines", '{"node": ">=16"}'), (key, '{"a": 1, "a": 2}'), (key, '"last"'))
    plain = _package()
    repeated = _package(*twice)
    base = repeated if side in ("base", "both") else plain
    head = repeated if side in ("head", "both") else plain
    assert runners.section_change("package.json", base, head) is None
    assert pin_changes("package.json", base, head) == ()
    CASE.passes(_change(base, head))


def test_the_last_value_of_an_unread_key_stands() -> None:
    data = package_json(SECTION.keys, _package(("engines", '"first"'), ("engines", '"last"')))
    assert data["engines"] == "last"
    assert list(data) == ["name", "scripts", "devDependencies", "engines"]


# --- still refused: a repeat among the keys it reads, or inside one ---------


@pytest.mark.parametrize("key", READ)
@pytest.mark.parametrize("side", ["base", "head"])
def test_a_repeated_key_the_rule_reads_fails_closed(key: str, side: str) -> None:
    """The first value is the same on both sides (what a reviewer sees);
    the repeat is on one side only."""
    plain = _members([("name", '"app"'), (key, '{"x": "1"}')])
    twice = _members([("name", '"app"'), (key, '{"x": "1"}'), (key, '{"x": "2"}')])
    base, head = (twice, plain) if side == "base" else (plain, twice)
    got = runners.section_change("package.json", base, head)
    assert got is not None and got.startswith(f"unreadable: the {side} version"), got
    assert f'duplicate key "{key}", a key the gate reads' in got
    with pytest.raises(Unreadable, match=f'duplicate key "{key}"'):
        pin_changes("package.json", base, head)


@pytest.mark.parametrize("key", READ)
@pytest.mark.parametrize("inner", ['{"x": 1, "x": 2}', '[{"x": 1}, {"y": {"x": 1, "x": 2}}]'])
def test_a_repeat_inside_a_read_keys_value_fails_closed(key: str, inner: str) -> None:
    plain = _members([("name", '"app"'), (key, '{"x": 2}')])
    twice = _members([("name", '"app"'), (key, inner)])
    got = runners.section_change("package.json", plain, twice)
    assert got is not None and got.startswith("unreadable: the head version"), got
    assert f'duplicate key "x" inside "{key}"' in got


HOSTILE = {
    # the first `scripts` is the base's, the last skips every test
    "scripts twice": _package(("scripts", json.dumps({"test": "jest --passWithNoTests -t none"}))),
    # a test script stated twice inside `scripts`
    "test twice in scripts": _members(
        [
            ("name", '"app"'),
            ("scripts", '{"test": "jest", "test": "jest --passWithNoTests -t none"}'),
            ("devDependencies", json.dumps({"jest": "^29.0.0"})),
        ]
    ),
    # the runner swapped for a copy the change controls
    "devDependencies twice": _package(("devDependencies", json.dumps({"jest": "file:./jest"}))),
    "jest in devDependencies twice": _members(
        [
            ("name", '"app"'),
            ("scripts", json.dumps({"test": "jest"})),
            ("devDependencies", '{"jest": "^29.0.0", "jest": "file:./jest"}'),
        ]
    ),
    "jest config twice": _package(("jest", '{"testMatch": []}'), ("jest", '{"bail": true}')),
    "an unread key beside a read twin": _package(
        ("engines", '"a"'), ("engines", '"b"'), ("scripts", json.dumps({"test": "true"}))
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_twin_of_a_repeated_key_fails(name: str) -> None:
    CASE.fails(_change(_package(), HOSTILE[name]), "duplicate key")
    CASE.fails(_change(HOSTILE[name], _package()), "duplicate key")


def test_a_file_read_whole_stays_strict() -> None:
    """`json_object` without `reads` (a reader of every key) refuses any repeat."""
    with pytest.raises(Unreadable, match='duplicate key "engines"'):
        json_object(_package(("engines", '"a"'), ("engines", '"b"')))
    assert json_object('{"a": {"b": 1, "b": 2}}', reads=("c",)) == {"a": {"b": 2}}
