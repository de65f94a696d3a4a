"""What a rule kind declares: the whole contract of one `kind:` value.

A rule kind is one module, `gate/rules/<kind>.py` (yamllint's shape), that
declares at module level:

* `KIND`: the rubric's `kind:` value.  Public API: never renamed.
* its docstring: the documentation.  The first paragraph is one sentence,
  "`kind`: what it judges"; the rest is the rule reference's section.
* `PARAMETERS`: parameter name -> a JSON-Schema fragment (Draft 2020-12)
  with a `description`.  A parameter with a `default` is optional and the
  loader fills the default in; one without is required (unless
  `FROM_RUBRIC` names it).  A fragment may `$ref` the parameter types the
  rubric schema shares: `#/$defs/globs`, `#/$defs/file`, `#/$defs/symbols`,
  `#/$defs/limit`; the loader checks those types' values beyond the schema
  (a glob it can use, a clean repo-relative path, Python names).
* `FROM_RUBRIC` (optional): parameter -> the rubric's top-level key whose
  value is its default (`test_drift`'s `paths` default to the rubric's
  `tests`).
* `READS`: what of a change the rule reads (`PATHS`, `LINES`, `TEXTS`,
  `STDOUT`, `TREE`: the base tree's layout, `gate.model.change.BaseTree`), and
  for `TEXTS` which files: `TEXTS_OF`, the parameters that name a file, and
  `TEXT_FILES`, files it always reads; `TEXT_GLOBS`, the glob parameters
  whose matches among the *modified* files it reads too, matched in the
  parameter's `GLOBS` mode (`test_drift` reads each test file a change
  modifies); `TEXT_NEAR` (optional), a function naming the base files it
  reads beside each path a change adds that its `TEXT_GLOBS` match
  (`test_drift`: the runner configuration above a new JS/TS test file);
  `TEXT_BESIDE` (optional), a function of the change's files and the base
  tree's layout naming the base files it reads where a source can
  (`test_drift`: every Go file of a modified Go test file's folder).
  What every change source reads (`gate.model.change.TextWants`) is
  derived from these.
* `GLOBS` (optional): glob parameter -> match mode (`gate.base.globs.EXACT`,
  `FOLDED` or `REACH`).
* `LAB` (optional, default `SCOPE`): the rule's part in `gate lab`'s buckets.
* `FORBIDS` (optional, default False): True when the rule fails as soon as a
  change touches a path its parameters name; `gate selftest --base` then
  only warns when those name nothing at base (a place still to come).
* `param_problem(params)` (optional): a check of the parameters that the
  schema cannot express, returning (key path inside the rule, message) or
  None.
* `check(rule, changes) -> RuleResult`: the verdict, pure.  The rule it
  gets carries every parameter (`Kind.judge` fills in the defaults).

`kind_from_module` turns such a module into a `Kind`; `gate.rules.register`
adds any `Kind` (a test registers a toy one) and everything about kinds (the
rubric schema, the loader's defaults, the rule reference, the lab's buckets,
the files whose texts are read) is derived from the registry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType, ModuleType
from typing import Any

from gate.base.globs import MODES
from gate.model.change import BaseTree, ChangeSet, FileChange
from gate.model.report import RuleResult
from gate.model.rubric import DEFAULT_TESTS, Rule

Check = Callable[[Rule, ChangeSet], RuleResult]
Problem = tuple[tuple[str | int, ...], str]
ParamCheck = Callable[[Mapping[str, Any]], Problem | None]
# `TEXT_BESIDE`: (the change's files, the base tree's layout) -> base files
Beside = Callable[[Sequence[FileChange], BaseTree], Iterable[str]]

# What of a change a rule reads, each with the words the rule reference uses.
PATHS = "paths"
LINES = "line counts"
TEXTS = "file texts"  # the base and head text of the files TEXTS_OF and TEXT_FILES name
STDOUT = "captured output"
# the base tree's top-level modules and packages (`gate.model.change.BaseTree`)
TREE = "base layout"
READABLE: Mapping[str, str] = MappingProxyType(
    {
        PATHS: "touched paths (status, renames, modes)",
        LINES: "line counts",
        TEXTS: "file texts",
        STDOUT: "the captured stdout",
        TREE: "the base tree's top-level modules and packages",
    }
)

# A rule's part in `gate lab`'s buckets (see gate.research.lab), with what a failure
# of the rule makes of a patch there.
BUDGET = "budget"
TESTS = "tests"
RENAME = "rename"
SCOPE = "scope"
LAB_ROLES: Mapping[str, str] = MappingProxyType(
    {
        BUDGET: "over budget: `thrash` with red tests, else `kitchen-mop`"
        " (`over-budget` alone, in `gate loop`)",
        TESTS: "red tests: `thrash`",
        RENAME: "a lost symbol: `rename`",
        SCOPE: "paths, bait lines or scope broken: `kitchen-mop`",
    }
)

# Rubric keys a parameter's default may come from (`FROM_RUBRIC`), with
# their values when the rubric leaves them out.
RUBRIC_DEFAULTS: Mapping[str, Any] = MappingProxyType({"tests": DEFAULT_TESTS})
# Keys every rule has besides its kind's parameters (`level`: `fail`, the
# default, or `warn`; see `gate.model.rubric.LEVELS`).
RULE_KEYS = ("id", "kind", "description", "level")

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_PREFIX = re.compile(r"^`(?P<kind>[a-z0-9_]+)`: ")


def _frozen(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))


@dataclass(frozen=True, eq=False)
class Kind:
    """One rule kind's contract (see the module docstring for each field).

    Compared and hashed by identity: a replaced kind is a new object, never
    equal to the one it replaced."""

    name: str
    check: Check
    doc: str
    parameters: Mapping[str, Mapping[str, Any]]
    reads: frozenset[str]
    texts_of: tuple[str, ...] = ()
    text_files: tuple[str, ...] = ()
    text_globs: tuple[str, ...] = ()
    text_matching: tuple[str, ...] = ()
    text_near: Callable[[str], Iterable[str]] | None = None
    text_hints: tuple[str, ...] = ()
    text_beside: Beside | None = None
    globs: Mapping[str, str] = field(default_factory=dict)
    from_rubric: Mapping[str, str] = field(default_factory=dict)
    lab: str = SCOPE
    forbids: bool = False
    param_problem: ParamCheck | None = None
    source: str | None = None  # the declaring module's path in the repository

    def __post_init__(self) -> None:
        for name in ("parameters", "globs", "from_rubric"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        object.__setattr__(self, "reads", frozenset(self.reads))
        problem = self._problem()
        if problem is not None:
            raise ValueError(f"rule kind {self.name!r}: {problem}")

    def _problem(self) -> str | None:
        if not _NAME.match(self.name):
            return "a kind is lower-case letters, digits and '_', starting with a letter"
        if not self.doc.strip():
            return "it needs documentation (the module docstring)"
        for key, fragment in self.parameters.items():
            if key in RULE_KEYS or not _NAME.match(key):
                return f"parameter {key!r}: not a usable parameter name"
            if not isinstance(fragment.get("description"), str):
                return f"parameter {key!r} needs a description"
        unknown = self.reads - set(READABLE)
        if not self.reads or unknown:
            return f"READS must name some of {list(READABLE)}, not {sorted(unknown)}"
        wants = self.texts_of or self.text_files or self.text_globs or self.text_matching
        wants = wants or self.text_hints
        if (TEXTS in self.reads) != bool(wants):
            return (
                "it reads TEXTS exactly when TEXTS_OF, TEXT_FILES, TEXT_GLOBS or "
                "TEXT_MATCHING names files"
            )
        for what, keys in (
            ("TEXTS_OF", self.texts_of),
            ("TEXT_GLOBS", self.text_globs),
            ("GLOBS", self.globs),
            ("FROM_RUBRIC", self.from_rubric),
        ):
            missing = [k for k in keys if k not in self.parameters]
            if missing:
                return f"{what} names {missing}, which are not parameters"
        if any(mode not in MODES for mode in self.globs.values()):
            return f"GLOBS modes are some of {MODES}"
        for key, source in self.from_rubric.items():
            if source not in RUBRIC_DEFAULTS or "default" in self.parameters[key]:
                return f"parameter {key!r} takes its default from one of {list(RUBRIC_DEFAULTS)}"
        if self.lab not in LAB_ROLES:
            return f"LAB is one of {list(LAB_ROLES)}"
        return None

    @property
    def required(self) -> tuple[str, ...]:
        """The parameters a rule must give: those with no default."""
        return tuple(
            key
            for key, fragment in self.parameters.items()
            if "default" not in fragment and key not in self.from_rubric
        )

    def defaults(self, rubric: Mapping[str, Any] = RUBRIC_DEFAULTS) -> dict[str, Any]:
        """Every optional parameter's default: its fragment's `default` (a
        list as a tuple), or for a `FROM_RUBRIC` parameter the value in
        `rubric` (the rubric's own top-level values)."""
        out = {}
        for key, fragment in self.parameters.items():
            if key in self.from_rubric:
                out[key] = rubric[self.from_rubric[key]]
            elif "default" in fragment:
                value = fragment["default"]
                out[key] = tuple(value) if isinstance(value, list) else value
        return out

    def complete(self, rule: Rule) -> Rule:
        """`rule` with this kind's default for every parameter it leaves
        out (`defaults`, the rubric's own values taken as their defaults
        too); `rule` itself when it gives them all, as a loaded rule does."""
        if all(key in rule.params for key in self.parameters):
            return rule
        return replace(rule, params={**self.defaults(), **rule.params})

    def judge(self, rule: Rule, changes: ChangeSet) -> RuleResult:
        """The verdict of `check` on `rule`, its left-out parameters at their defaults."""
        return self.check(self.complete(rule), changes)

    @property
    def summary(self) -> str:
        """The docstring's first paragraph as one sentence, without its
        "`kind`: " prefix, starting with a capital."""
        first = " ".join(self.doc.strip().split("\n\n")[0].split())
        first = _PREFIX.sub("", first, count=1)
        return first[:1].upper() + first[1:]

    def texts_for(self, rule: Rule) -> tuple[str, ...]:
        """The files whose base and head text `rule` reads."""
        named = tuple(str(rule.params[key]) for key in self.texts_of if key in rule.params)
        return named + self.text_files

    def touched_texts(self, rule: Rule) -> Callable[[str], bool] | None:
        """Which written paths' texts `rule` reads besides `texts_for`: a
        match of a `TEXT_GLOBS` parameter's globs, in its `GLOBS` mode, or of
        `TEXT_MATCHING`, folded (None: none)."""
        from gate.base import globs

        patterns = self._text_glob_matchers(rule)
        if self.text_matching:
            patterns.insert(0, globs.matcher(self.text_matching, globs.FOLDED))
        if not patterns:
            return None
        return globs.any_of(*patterns)

    def _text_glob_matchers(self, rule: Rule) -> list[Callable[[str], bool]]:
        """A matcher for each of `rule`'s `TEXT_GLOBS` parameters that is
        set (or has a default), in that parameter's `GLOBS` mode."""
        from gate.base import globs

        patterns = []
        for key in self.text_globs:
            value = rule.params.get(key, self.defaults().get(key))
            if value is None:
                continue
            found = [value] if isinstance(value, str) else [str(v) for v in value]
            patterns.append(globs.matcher(found, self.globs.get(key, globs.EXACT)))
        return patterns

    def hint_texts(self) -> Callable[[str], bool] | None:
        """Which modified paths' texts the kind reads where a source can
        (`TEXT_HINTS`, folded; None: none): a text missing there only
        proves less, never more."""
        if not self.text_hints:
            return None
        from gate.base import globs

        return globs.matcher(self.text_hints, globs.FOLDED)

    def near_texts(self, rule: Rule) -> Callable[[str], Iterable[str]] | None:
        """The base files `rule` reads beside a path a change adds: its
        `TEXT_NEAR` of each path its `TEXT_GLOBS` parameters match (None:
        none)."""
        near = self.text_near
        if near is None:
            return None
        from gate.base import globs

        patterns = self._text_glob_matchers(rule)
        if not patterns:
            return None
        matched = globs.any_of(*patterns)
        return lambda path: near(path) if matched(path) else ()


def kind_from_module(module: ModuleType) -> Kind:
    """The `Kind` a rule module declares (see this module's docstring)."""
    name = module.__name__
    return Kind(
        name=module.KIND,
        check=module.check,
        doc=module.__doc__ or "",
        parameters=module.PARAMETERS,
        reads=frozenset(module.READS),
        texts_of=tuple(getattr(module, "TEXTS_OF", ())),
        text_files=tuple(getattr(module, "TEXT_FILES", ())),
        text_globs=tuple(getattr(module, "TEXT_GLOBS", ())),
        text_matching=tuple(getattr(module, "TEXT_MATCHING", ())),
        text_near=getattr(module, "TEXT_NEAR", None),
        text_hints=tuple(getattr(module, "TEXT_HINTS", ())),
        text_beside=getattr(module, "TEXT_BESIDE", None),
        globs=getattr(module, "GLOBS", {}),
        from_rubric=getattr(module, "FROM_RUBRIC", {}),
        lab=getattr(module, "LAB", SCOPE),
        forbids=getattr(module, "FORBIDS", False),
        param_problem=getattr(module, "param_problem", None),
        source=name.replace(".", "/") + ".py" if name.startswith("gate.rules.") else None,
    )
