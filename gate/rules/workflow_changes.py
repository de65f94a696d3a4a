"""What a change did to a GitHub Actions workflow or an action's metadata,
in the words a reviewer needs without opening the file.

`changed(path, base, head)` compares the two texts of one file (None: the
file is absent on that side, so an added workflow is described whole)
and returns phrases, each one risk:

* **permissions widened**, at the top level and per job: `write-all`, a
  `permissions` block removed (the repository's default token permissions
  apply, which may be write-all), a scope raised (`contents: read ->
  write`, `id-token: none -> read`), `read-all` where scopes were listed;
  a job without its own block is judged by the top level's, and the top
  level's block is judged only when some job runs with it;
* **a new trigger**, named; `pull_request_target`, `workflow_run` and
  `issue_comment` are called out: they run with the repository's secrets
  on code or text from others;
* **an action not pinned by a commit SHA**: a `uses:` added or changed
  (a step's, a job's reusable workflow, an action's `runs.image`) whose
  reference is not a full 40-hex lower-case commit SHA; a local path
  (`./...`) and a Docker image by digest (`docker://...@sha256:` and 64
  hex digits) are pinned;
* **a new secret read**: `secrets.NAME` or `secrets['NAME']` in an
  expression (`${{ ... }}`, or an `if:`), letter case folded as GitHub
  folds it; `toJSON(secrets)` or `secrets` alone is every secret,
  `secrets[...]` of anything but a literal a secret chosen at run time,
  and a job's `secrets: inherit` hands every secret to the workflow it
  calls.

The YAML is read as GitHub reads it, with defences against a hostile
file: keys are taken as written (YAML 1.1 would read `on:` as the boolean
true; quoted or not, `on` is `on`), anchors and aliases are followed (GitHub
accepts them) within a budget of nodes (`NODE_BUDGET`, so a billion laughs
or a cyclic alias is refused), a merge key (`<<`, which GitHub refuses)
is applied as YAML 1.1 applies it, so nothing hides behind one; a text over
`TEXT_LIMIT` is not read.  A file that cannot be read (not YAML, several
documents, not a mapping, over a limit) never raises: its phrase says it
could not be read and why.  Pure, deterministic (every list sorted).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from gate.base import globs
from gate.base.paths import quoted
from gate.base.words import names, plural
from gate.model.change import RENAMED, ChangeSet
from gate.model.report import Finding, RuleResult
from gate.model.rubric import Rule
from gate.rules._common import result

# The files described: GitHub's workflows and actions' metadata (matched
# in any letter case: a reviewer is told about every spelling that a rule
# hits).
CI_GLOBS = (
    ".github/workflows/**/*.yml",
    ".github/workflows/**/*.yaml",
    "action.yml",
    "action.yaml",
)
TEXT_LIMIT = 1 << 20
NODE_BUDGET = 200_000

# Triggers that run with the repository's secrets on what others wrote.
RISKY_TRIGGERS = {
    "pull_request_target": "runs with the repository's secrets on others' pull requests",
    "workflow_run": "runs with the repository's secrets after workflows others' code can start",
    "issue_comment": "runs with the repository's secrets on anyone's comment",
}
_LEVELS = {"none": 0, "read": 1, "write": 2}
_SHA = re.compile(r"[0-9a-f]{40}")
_DIGEST = re.compile(r"@sha256:[0-9a-f]{64}\Z")
_EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)
_SECRETS = re.compile(r"(?<![\w.-])secrets\b", re.IGNORECASE)
_DOTTED = re.compile(r"\s*\.\s*([A-Za-z_][\w-]*)")
_INDEXED = re.compile(r"\s*\[\s*(?:'([^']*)'|\"([^\"]*)\")\s*\]")
_TO_JSON = re.compile(r"tojson\s*\(\s*$", re.IGNORECASE)
_MERGE = "tag:yaml.org,2002:merge"
ALL = "*"  # every secret
CHOSEN = "?"  # a secret named at run time
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def is_ci_file(path: str) -> bool:
    """Whether `path` is a workflow or an action's metadata, in any letter case."""
    return globs.matches(path, CI_GLOBS, globs.FOLDED)


class Unreadable(Exception):
    """The text is not a workflow the analyzer can read; the message says why."""


class _Budget(Exception):
    pass


def _plain(node: yaml.Node, budget: list[int]) -> Any:
    """`node` as plain values: mappings keyed by their keys' text as
    written, scalars as their text, aliases followed, merge keys applied,
    every node visit counted against `budget`."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _Budget
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, budget) for item in node.value]
    out: dict[str, Any] = {}
    merged: dict[str, Any] = {}
    for key, value in node.value:
        if key.tag == _MERGE:
            sources = value.value if isinstance(value, yaml.SequenceNode) else [value]
            for source in reversed(sources):
                got = _plain(source, budget)
                if isinstance(got, dict):
                    merged.update(got)
            continue
        name = key.value if isinstance(key, yaml.ScalarNode) else repr(_plain(key, budget))
        out[str(name)] = _plain(value, budget)
    return {**merged, **out}


def read(text: str) -> dict[str, Any]:
    """The workflow or metadata `text` as plain values (see the module
    docstring); raises `Unreadable` with the reason."""
    if len(text) > TEXT_LIMIT:
        raise Unreadable(f"it is over {TEXT_LIMIT // (1 << 20)} MiB")
    try:
        node = yaml.compose(text, Loader=_LOADER)
        value = {} if node is None else _plain(node, [NODE_BUDGET])
    except _Budget:
        raise Unreadable(f"its anchors and aliases expand past {NODE_BUDGET} nodes") from None
    except RecursionError:
        raise Unreadable("it nests too deeply, or an alias refers to itself") from None
    except (yaml.YAMLError, ValueError, TypeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Unreadable(f"it is not YAML ({first})") from None
    if not isinstance(value, dict):
        raise Unreadable("it is not a mapping of keys")
    return value


@dataclass(frozen=True)
class Facts:
    """What one version of a workflow or metadata file says about risk.

    `permissions`: scope ("" the top level, else a job id) -> the block as
    written (None absent, a string, or scope -> level), each job's the one
    it runs with (its own, else the top level's); `own`: the jobs with a
    block of their own."""

    triggers: frozenset[str] = frozenset()
    permissions: Mapping[str, Any] = field(default_factory=lambda: {"": None})
    own: frozenset[str] = frozenset()
    uses: frozenset[str] = frozenset()
    secrets: frozenset[str] = frozenset()
    inherit: frozenset[str] = frozenset()


def _triggers(value: Any) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, list):
        return frozenset(v for v in value if isinstance(v, str))
    if isinstance(value, dict):
        return frozenset(value)
    return frozenset()


def _walk(value: Any) -> Iterable[tuple[str | None, Any]]:
    """Every (key, value) pair of the tree, a list item's key None."""
    stack: list[tuple[str | None, Any]] = [(None, value)]
    while stack:
        key, item = stack.pop()
        yield key, item
        if isinstance(item, dict):
            stack.extend(item.items())
        elif isinstance(item, list):
            stack.extend((None, v) for v in item)


def _secret_reads(expression: str) -> set[str]:
    found = set()
    for match in _SECRETS.finditer(expression):
        rest = expression[match.end() :]
        dotted, indexed = _DOTTED.match(rest), _INDEXED.match(rest)
        if dotted:
            found.add(dotted.group(1).upper())
        elif indexed:
            found.add((indexed.group(1) or indexed.group(2) or "").upper())
        elif rest.lstrip().startswith("["):
            found.add(CHOSEN)
        else:
            found.add(ALL)  # toJSON(secrets), or the whole context handed on
    return found


def _get(tree: Any, key: str) -> Any:
    """`tree`'s value at `key`, or at the first key equal to it in another
    letter case (a spelling GitHub may accept is read, not skipped)."""
    if not isinstance(tree, dict):
        return None
    if key in tree:
        return tree[key]
    return next((v for k, v in tree.items() if k.lower() == key), None)


def _has(tree: Any, key: str) -> bool:
    return isinstance(tree, dict) and any(k.lower() == key for k in tree)


def facts(tree: Mapping[str, Any]) -> Facts:
    """The `Facts` of a read file (`read`)."""
    top = _get(tree, "permissions")
    permissions: dict[str, Any] = {"": top}
    own = set()
    jobs = _get(tree, "jobs")
    inherit = set()
    for job, body in jobs.items() if isinstance(jobs, dict) else ():
        if _has(body, "permissions"):
            own.add(job)
            permissions[job] = _get(body, "permissions")
        else:
            permissions[job] = top
        if str(_get(body, "secrets")).strip().lower() == "inherit":
            inherit.add(job)
    uses, secrets = set(), set()
    for key, value in _walk(tree):
        if not isinstance(value, str):
            continue
        name = (key or "").lower()
        if name == "uses" or (name == "image" and value.strip().startswith("docker://")):
            uses.add(value.strip())
        expressions = _EXPRESSION.findall(value)
        if name == "if":
            expressions.append(value)
        for expression in expressions:
            secrets |= _secret_reads(expression)
    return Facts(
        triggers=frozenset().union(*(_triggers(v) for k, v in tree.items() if k.lower() == "on")),
        permissions=permissions,
        own=frozenset(own),
        uses=frozenset(uses),
        secrets=frozenset(secrets),
        inherit=frozenset(inherit),
    )


def pinned(ref: str) -> bool:
    """Whether a `uses:` reference names an immutable thing: a local path,
    a Docker image by digest, or a full lower-case commit SHA."""
    if ref.startswith("./"):
        return True
    if ref.startswith("docker://"):
        return _DIGEST.search(ref) is not None
    _, at, version = ref.rpartition("@")
    return bool(at) and _SHA.fullmatch(version) is not None


def _level(block: Any, scope: str) -> str:
    if block is None:
        return "default"
    if isinstance(block, str):
        lowered = block.strip().lower()
        return {"write-all": "write", "read-all": "read"}.get(lowered, f"{block!r}")
    if isinstance(block, dict):
        value = block.get(scope, "none")
        return value.strip().lower() if isinstance(value, str) else repr(value)
    return repr(block)


def widened(before: Any, after: Any, *, new: bool = False) -> list[str]:
    """How the permissions block `after` grants more than `before` (each
    None when absent; `new`: the file is new, only grants of write count)."""
    if after is None:
        if new:
            return ["no permissions block, so the repository's default token permissions apply"]
        return (
            []
            if before is None
            else ["permissions block removed, so the repository's default token permissions apply"]
        )
    if isinstance(after, str):
        lowered = after.strip().lower()
        if lowered == "write-all":
            kept = isinstance(before, str) and before.strip().lower() == "write-all"
            return [] if kept and not new else ["write-all"]
        if lowered == "read-all":
            return ["read-all (every scope readable)"] if isinstance(before, dict) else []
        return [] if after == before else [f"permissions: {after!r}, not a value GitHub knows"]
    if not isinstance(after, dict):
        return [] if after == before else [f"permissions: {after!r}, not a mapping GitHub knows"]
    out = []
    for scope in sorted(after):
        now = _level(after, scope)
        was = "none" if new else _level(before, scope)
        if now not in _LEVELS:
            if now != was:
                out.append(f"{scope}: {now}, not a level GitHub knows")
            continue
        raised = was in _LEVELS and _LEVELS[now] > _LEVELS[was] and not new
        if new and now == "write":
            out.append(f"{scope}: write")
        elif (now == "write" and was != "write") or raised:
            out.append(f"{scope}: {was} -> {now}")
    return out


def _unpinned(refs: Iterable[str]) -> list[str]:
    return sorted(r for r in refs if not pinned(r))


def compare(base: Facts | None, head: Facts, *, workflow: bool = True) -> list[str]:
    """The phrases of what `head` adds to `base` (None: a new file); an
    action's metadata (`workflow` false) has no permissions or triggers."""
    new = base is None
    was = base if base is not None else Facts()
    out: list[str] = []
    perms: list[str] = []
    top = head.permissions
    jobs = [j for j in top if j]
    if not jobs or any(j not in head.own for j in jobs):  # else no job runs with it
        for phrase in widened(was.permissions.get(""), top.get(""), new=new):
            perms.append(f"top level: {phrase}")
    for job in sorted(jobs):
        if job not in head.own and (new or job not in was.own):
            continue  # runs with the top level's, described there
        before = was.permissions.get(job, was.permissions.get(""))
        for phrase in widened(before, top[job], new=new and job in head.own):
            perms.append(f"job {job}: {phrase}")
    if perms and workflow:
        out.append(f"permissions {'granted' if new else 'widened'} ({'; '.join(perms)})")
    triggers = sorted(head.triggers - was.triggers)
    if triggers and workflow:
        risky = {t: RISKY_TRIGGERS.get(t.lower()) for t in triggers}
        shown = [f"{t} ({risky[t]})" if risky[t] else t for t in triggers]
        word = plural(len(shown), "trigger" if new else "new trigger").split(" ", 1)[1]
        out.append(f"{word} {', '.join(shown)}")
    loose = _unpinned(head.uses - was.uses)
    if loose:
        out.append(
            f"{plural(len(loose), 'action')} not pinned by a full commit SHA ({names(loose, 3)})"
        )
    secrets = head.secrets - was.secrets
    read = []
    if ALL in secrets:
        read.append("every secret (toJSON(secrets) or the whole secrets context)")
    if CHOSEN in secrets:
        read.append("a secret named at run time (secrets[...])")
    named = sorted(secrets - {ALL, CHOSEN})
    if named:
        read.append(names(named, 5))
    inherited = sorted(head.inherit - was.inherit)
    if inherited:
        read.append(f"every secret handed on by secrets: inherit (job {names(inherited, 3)})")
    if read:
        out.append(f"{'secrets read' if new else 'new secrets read'}: {'; '.join(read)}")
    return out


def changed(path: str, base: str | None, head: str | None) -> list[str]:
    """What the change from `base` to `head` (None: absent) did to the
    workflow or metadata `path`, one phrase a risk; a version that cannot
    be read is one phrase saying so.  A deleted file adds no risk."""
    if head is None:
        return []
    workflow = path.rpartition("/")[2].lower() not in ("action.yml", "action.yaml")
    try:
        after = facts(read(head))
    except Unreadable as exc:
        return [f"could not be read: {exc}"]
    before = None
    if base is not None:
        try:
            before = facts(read(base))
        except Unreadable as exc:
            why = f"its base version could not be read ({exc}); judged as new"
            return [why, *compare(None, after, workflow=workflow)]
    return compare(before, after, workflow=workflow)


def phrases(changes: ChangeSet, paths: Iterable[str]) -> dict[str, list[str]]:
    """Each workflow or metadata file among `paths` (touched paths a rule
    names) that the change writes -> what the change did to it (`changed`;
    a renamed file compared across its two paths, a file renamed from a
    path that is no such file as new), when it did something a reviewer
    should see; a text the source withheld (too large) -> that it could
    not be read.  A source that gives no texts (a writer's result.json, an
    example given by counts) adds nothing."""
    wanted = {p for p in paths if is_ci_file(p)}
    out: dict[str, list[str]] = {}
    for f in changes.files:
        if f.path not in wanted or f.path in out:
            continue
        was: str | None = f.path
        if f.status == RENAMED and f.old_path is not None:
            was = f.old_path if is_ci_file(f.old_path) else None
        texts = changes.texts.get(f.path)
        before = changes.texts.get(was) if was is not None else None
        why = changes.withheld.get(f.path) or (changes.withheld.get(was) if was else None)
        if why is not None:
            out[f.path] = [f"could not be read: {why}"]
            continue
        if texts is None:
            continue
        base = before.base if before is not None else None
        found = changed(f.path, base, texts.head)
        if found:
            out[f.path] = found
    return out


def failure(rule: Rule, changes: ChangeSet, message: str, hits: Sequence[str]) -> RuleResult:
    """A path rule's failure on `hits` (its verdict, message and paths),
    its message followed by what the change did to each workflow or
    metadata file among them (`phrases`), with a finding for every hit:
    those phrases where there are some, else the message.  Without such
    phrases, the plain failure (no findings)."""
    found = phrases(changes, hits)
    if not found:
        return result(rule, False, message, paths=hits)
    words = [f"in {quoted(p)}: {'; '.join(found[p])}" for p in sorted(found)]
    findings = [
        Finding(p, f"{message}; {'; '.join(found[p])}" if p in found else message)
        for p in sorted(set(hits))
    ]
    return result(rule, False, f"{message}; {'; '.join(words)}", paths=hits, findings=findings)
