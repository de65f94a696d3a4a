"""What a CI edit changed: the analyzer (`gate.rules.workflow_changes`) on
tables of workflow edits, each also in generated hostile spellings (CRLF,
a byte-order mark, the whole file in flow style with every key quoted),
and the path rules' failures through real git repositories and `gate
check`, whose verdicts stay the same and whose JSON stays byte-identical."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.commands.cli import main
from gate.rules.workflow_changes import NODE_BUDGET, changed, pinned, read
from tests.gitrepo import GitRepo
from tests.rulecase import Files, RuleCase

SHA = "11bd71901bbe5b1630ceea73d27597364c9af683"
WF = ".github/workflows/ci.yml"

BASE = f"""name: ci
on:
  push:
    branches: [main]
permissions:
  contents: read
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@{SHA}
      - run: echo ${{{{ secrets.OLD }}}}
"""


def head(**swap: str) -> str:
    """BASE with lines replaced: key = the line's start, value = its new text."""
    text = BASE
    for old, new in swap.items():
        text = text.replace(old.replace("_", " "), new, 1)
    return text


def _with(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


# (base, head, a phrase the analyzer must say)
CHANGES: list[tuple[str, str, str]] = [
    # permissions, top level and per job, in several spellings
    (
        BASE,
        _with("  contents: read\n", "  contents: write\n"),
        "top level: contents: read -> write",
    ),
    (
        BASE,
        _with("permissions:\n  contents: read\n", "permissions: write-all\n"),
        "top level: write-all",
    ),
    (
        BASE,
        _with("permissions:\n  contents: read\n", "permissions: WRITE-ALL\n"),
        "top level: write-all",
    ),
    (
        BASE,
        _with("permissions:\n  contents: read\n", "Permissions: write-all\n"),
        "top level: write-all",
    ),
    (BASE, _with("permissions:\n  contents: read\n", ""), "top level: permissions block removed"),
    (
        BASE,
        _with(
            "permissions:\n  contents: read\n", "permissions: {contents: read, id-token: write}\n"
        ),
        "id-token: none -> write",
    ),
    (
        _with("permissions:\n  contents: read\n", "permissions: {}\n"),
        _with("permissions:\n  contents: read\n", "permissions: {issues: read}\n"),
        "issues: none -> read",
    ),
    (
        BASE,
        _with(
            "    runs-on: ubuntu-latest\n",
            "    runs-on: ubuntu-latest\n    permissions: write-all\n",
        ),
        "job test: write-all",
    ),
    (
        BASE,
        _with(
            "    runs-on: ubuntu-latest\n",
            "    runs-on: ubuntu-latest\n    permissions:\n      packages: write\n",
        ),
        "job test: packages: none -> write",
    ),
    (
        _with("    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-latest\n    permissions: {}\n"),
        BASE.replace("contents: read", "contents: write"),
        "job test: contents: none -> write",
    ),
    # an anchor and a merge key hide nothing
    (
        BASE,
        "x-perms: &p {contents: write}\n"
        + _with("permissions:\n  contents: read\n", "permissions: *p\n"),
        "top level: contents: read -> write",
    ),
    (
        BASE,
        "x-perms: &p {pull-requests: write}\n"
        + _with("permissions:\n  contents: read\n", "permissions:\n  <<: *p\n  contents: read\n"),
        "pull-requests: none -> write",
    ),
    # triggers
    (
        BASE,
        _with("on:\n  push:\n    branches: [main]\n", "on: [push, pull_request_target]\n"),
        "new trigger pull_request_target (runs with the repository's secrets",
    ),
    (
        BASE,
        _with(
            "on:\n  push:\n    branches: [main]\n",
            '"on":\n  push:\n  workflow_run:\n    workflows: [ci]\n',
        ),
        "new trigger workflow_run",
    ),
    (
        BASE,
        _with(
            "on:\n  push:\n    branches: [main]\n",
            "'on': {push: {}, issue_comment: {types: [created]}}\n",
        ),
        "new trigger issue_comment",
    ),
    (
        BASE,
        _with(
            "    branches: [main]\n", "    branches: [main]\n  schedule:\n    - cron: '0 0 * * *'\n"
        ),
        "new trigger schedule",
    ),
    # actions not pinned by a full commit SHA
    (BASE, _with(f"@{SHA}", "@v4"), '"actions/checkout@v4"'),
    (BASE, _with(f"@{SHA}", f"@{SHA.upper()}"), f'"actions/checkout@{SHA.upper()}"'),
    (BASE, _with(f"@{SHA}", f"@{SHA[:39]}"), f'"actions/checkout@{SHA[:39]}"'),
    (BASE, _with(f"@{SHA}", f"@{SHA[:7]}"), f'"actions/checkout@{SHA[:7]}"'),
    (
        BASE,
        _with(f"@{SHA}", f"@{SHA} # v4\n      - uses: docker://alpine:3"),
        '"docker://alpine:3"',
    ),
    (
        BASE,
        BASE + "  call:\n    uses: org/repo/.github/workflows/x.yml@main\n",
        '"org/repo/.github/workflows/x.yml@main"',
    ),
    (
        "x-step: &s {uses: evil/act@main}\n" + BASE,
        "x-step: &s {uses: evil/act@main}\n" + _with("      - run:", "      - *s\n      - run:"),
        "",  # an alias of a step the base already names adds no action
    ),
    # secrets
    (BASE, _with("secrets.OLD", "secrets.NPM_TOKEN"), 'new secrets read: "NPM_TOKEN"'),
    (BASE, _with("secrets.OLD", "secrets['npm_token']"), 'new secrets read: "NPM_TOKEN"'),
    (BASE, _with("secrets.OLD", "SECRETS . Npm_Token"), 'new secrets read: "NPM_TOKEN"'),
    (BASE, _with("secrets.OLD", "toJSON(secrets)"), "every secret (toJSON(secrets)"),
    (BASE, _with("secrets.OLD", "secrets[format('{0}', 'X')]"), "a secret named at run time"),
    (
        BASE,
        _with(
            "      - run:", "      - if: secrets.DEPLOY != ''\n        run: exit 0\n      - run:"
        ),
        '"DEPLOY"',
    ),
    (
        BASE,
        BASE + "  call:\n    uses: ./.github/workflows/x.yml\n    secrets: inherit\n",
        'every secret handed on by secrets: inherit (job "call")',
    ),
    (
        BASE,
        _with("on:\n  push:\n    branches: [main]\n", "on: [push, Pull_Request_Target]\n"),
        "Pull_Request_Target (runs with the repository's secrets",
    ),
]

# edits that add no risk: no phrase
QUIET = [
    _with("name: ci", "name: CI checks"),
    _with("  contents: read\n", "  contents: none\n"),
    _with("    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-24.04\n"),
    _with(
        "      - run: echo", "      - run: echo secrets.NOT_READ ; echo"
    ),  # outside an expression
    _with(f"@{SHA}", f"@{SHA}  # v4.2.2"),
    _with("      - run:", "      - uses: ./local-action\n      - run:"),
    _with("      - run:", f"      - uses: docker://alpine@sha256:{'ab' * 32}\n      - run:"),
    BASE.replace("contents: read", "contents: read\n  issues: none"),
]


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def bom(text: str) -> str:
    return "\ufeff" + text


def flow(text: str) -> str:
    """The same workflow in flow style, every key and value quoted (JSON
    is YAML)."""
    return json.dumps(read(text))


def upper_keys(text: str) -> str:
    """The workflow's keys GitHub reads in upper case (`ON:`, `PERMISSIONS:`)."""
    keys = "on|permissions|jobs|uses|secrets|if"
    return re.sub(
        rf"(?m)^(\s*(?:- )?['\"]?)({keys})(['\"]?:)", lambda m: m[1] + m[2].upper() + m[3], text
    )


SPELLINGS: dict[str, Callable[[str], str]] = {
    "as written": lambda t: t,
    "crlf": crlf,
    "bom": bom,
    "flow": flow,
    "upper-case keys": upper_keys,
}


def test_each_spelling_spells_it_otherwise() -> None:
    for name, respell in SPELLINGS.items():
        assert (respell(BASE) != BASE) is (name != "as written"), name
    assert "PERMISSIONS:" in upper_keys(BASE) and "- USES:" in upper_keys(BASE)


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
@pytest.mark.parametrize(("base", "after", "phrase"), CHANGES)
def test_each_risk_is_named_in_every_spelling(
    base: str, after: str, phrase: str, spelling: str
) -> None:
    respell = SPELLINGS[spelling]
    found = changed(WF, respell(base), respell(after))
    if not phrase:
        assert found == []
        return
    assert any(phrase in p for p in found), found


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
@pytest.mark.parametrize("after", QUIET)
def test_an_edit_without_risk_says_nothing(after: str, spelling: str) -> None:
    respell = SPELLINGS[spelling]
    assert changed(WF, respell(BASE), respell(after)) == []


def test_the_top_level_block_counts_only_where_a_job_runs_with_it() -> None:
    """Every job has a block of its own: the top level's moved into them widens nothing."""
    moved = _with("permissions:\n  contents: read\n", "").replace(
        "    runs-on: ubuntu-latest\n",
        "    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n",
    )
    assert changed(WF, BASE, moved) == []
    raised = moved.replace(
        "      contents: read\n", "      contents: read\n      id-token: write\n"
    )
    assert changed(WF, BASE, raised) == ["permissions widened (job test: id-token: none -> write)"]
    assert changed(WF, None, moved)[0].startswith("trigger push")


def test_a_new_workflow_is_described_whole() -> None:
    text = _with("on:\n  push:\n    branches: [main]\n", "on: [push, pull_request_target]\n")
    text = text.replace(f"@{SHA}", "@v4").replace("contents: read", "contents: write")
    found = changed(WF, None, text)
    assert "permissions granted (top level: contents: write)" in found
    assert any(
        p.startswith("triggers pull_request_target (") and p.endswith(", push") for p in found
    )
    assert '1 action not pinned by a full commit SHA ("actions/checkout@v4")' in found
    assert 'secrets read: "OLD"' in found
    bare = changed(WF, None, "on: push\njobs: {}\n")
    assert bare[0].startswith("permissions granted (top level: no permissions block")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("on: [push\n", "it is not YAML"),
        ("a: 1\n---\nb: 2\n", "it is not YAML"),
        ("- push\n", "not a mapping"),
        ("a: &a [*a]\n", "an alias refers to itself"),
        ("x: " + "[" * 5000 + "]" * 5000 + "\n", ""),
        (
            "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n"
                for i in range(6)
            ),
            f"expand past {NODE_BUDGET} nodes",
        ),
        ("a: " + "x" * (1 << 20) + "\n", "over 1 MiB"),
    ],
)
def test_an_unreadable_workflow_says_so_and_never_raises(text: str, why: str) -> None:
    (phrase,) = changed(WF, BASE, text)
    assert phrase.startswith("could not be read: ") and why in phrase, phrase
    found = changed(WF, text, BASE)  # an unreadable base: the head judged as new
    assert found[0].startswith("its base version could not be read")


def test_a_tag_is_never_constructed() -> None:
    """Only nodes are composed: a Python tag builds nothing, its text is read."""
    text = "on: !!python/object/apply:os.system [echo hi]\npermissions: write-all\n"
    assert "permissions widened (top level: write-all)" in changed(WF, BASE, text)


PIECES = [*"on:{}[],&*<-!'\"\n\r\t #|>%@$.", "secrets", "uses", "permissions", "jobs", "\ufeff"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=80).map("".join), st.sampled_from([None, BASE]))
def test_any_text_is_read_or_said_unreadable_never_raised(text: str, base: str | None) -> None:
    found = changed(WF, base, text)
    assert all(isinstance(p, str) and p for p in found)
    assert isinstance(changed(WF, text, BASE), list)


@pytest.mark.parametrize(
    ("ref", "pin"),
    [
        (f"actions/checkout@{SHA}", True),
        (f"actions/checkout@{SHA.upper()}", False),
        (f"actions/checkout@{SHA[:39]}", False),
        (f"actions/checkout@{SHA}0", False),
        (f"actions/checkout@{SHA[:7]}", False),
        ("actions/checkout@v4", False),
        ("actions/checkout", False),
        (f"org/repo/path@{SHA}", True),
        ("./local", True),
        ("../outside", False),
        (f"docker://alpine@sha256:{'a' * 64}", True),
        (f"docker://alpine@sha256:{'a' * 63}", False),
        (f"docker://alpine:3@sha256:{'a' * 64}x", False),
        ("docker://alpine:3", False),
    ],
)
def test_what_is_pinned(ref: str, pin: bool) -> None:
    assert pinned(ref) is pin


def test_action_metadata_is_read_too() -> None:
    base = f"name: a\nruns:\n  using: composite\n  steps:\n    - uses: actions/cache@{SHA}\n"
    after = base.replace(f"@{SHA}", "@v4") + "    - uses: docker://node:20\n"
    found = changed("action.yml", base, after)
    assert found == [
        '2 actions not pinned by a full commit SHA ("actions/cache@v4", "docker://node:20")'
    ]
    docker = "runs:\n  using: docker\n  image: docker://ghcr.io/o/i:latest\n"
    assert changed("sub/action.yaml", None, docker) == [
        '1 action not pinned by a full commit SHA ("docker://ghcr.io/o/i:latest")'
    ]


# --- the path rules, through real git repositories --------------------------

CI = RuleCase("forbidden_paths", id="CI", paths=["/.github/workflows/", "action.yml"])
UNPINNED = BASE.replace(f"@{SHA}", "@main")
RISKY = head(**{"  contents: read\n": "  contents: write\n"})


def test_the_ci_rule_names_what_changed_in_a_workflow() -> None:
    change = Files(base={WF: BASE, "src/a.py": "x\n"}, head={WF: RISKY, "src/a.py": "y\n"})
    result = CI.fails(
        change, f'1 touched path matches a forbidden glob; in "{WF}": permissions widened'
    )
    assert [(f.path, f.line) for f in result.findings] == [(WF, None)]
    assert "contents: read -> write" in result.findings[0].message
    assert result.paths == (WF,)


def test_a_quiet_edit_keeps_the_plain_failure() -> None:
    result = CI.fails(Files(base={WF: BASE}, head={WF: QUIET[0]}))
    assert result.message == "1 touched path matches a forbidden glob"
    assert result.findings == ()


@pytest.mark.parametrize(
    "path",
    [WF, ".GitHub/Workflows/ci.yml", ".github/workflows/sub/deploy.yaml", "tools/action.yml"],
)
def test_other_spellings_of_a_workflow_are_described(path: str) -> None:
    result = CI.fails(
        Files(base={path: BASE}, head={path: UNPINNED}), "not pinned by a full commit SHA"
    )
    assert result.paths == (path,)


def test_a_workflow_renamed_is_compared_across_its_paths() -> None:
    moved = ".github/workflows/release.yml"
    result = CI.fails(Files(base={WF: BASE}, head={moved: RISKY}), "permissions widened")
    assert "new trigger" not in result.message and "secrets" not in result.message
    brought = Files(base={"docs/ci.yml": BASE}, head={moved: BASE})  # from elsewhere: new
    result = CI.fails(brought, "trigger push")
    assert 'secrets read: "OLD"' in result.message


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("forbidden_path", {"prefix": ".github/"}),
        ("allowed_paths", {"paths": ["src/"]}),
    ],
)
def test_every_path_rule_names_it(kind: str, params: dict[str, object]) -> None:
    case = RuleCase(kind, id="P", **params)
    case.fails(Files(base={WF: BASE}, head={WF: RISKY}), "permissions widened")


def test_gate_check_names_it_and_stays_deterministic(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    rubric = (
        "version: 1\nrules:\n  - {id: CI, kind: forbidden_paths, paths: [/.github/workflows/]}\n"
    )
    repo.write(".github/blast-radius.yml", rubric)
    repo.write(WF, BASE)
    base = repo.commit("base")
    repo.write(
        WF, crlf(_with("on:\n  push:\n    branches: [main]\n", "on: [push, pull_request_target]\n"))
    )
    sha = repo.commit("ci")
    outputs = []
    for i in range(2):
        out = tmp_path / f"r{i}.json"
        argv = [
            "check",
            "--repo",
            str(repo.root),
            "--base",
            base,
            "--head",
            sha,
            "--output",
            str(out),
        ]
        assert main(argv) == 1
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    report = json.loads(outputs[0])
    (ci,) = [r for r in report["results"] if r["id"] == "CI"]
    assert ci["pass"] is False
    assert "new trigger pull_request_target" in ci["message"]
    assert report["failed"] == ["CI"]
