"""Ruby test files as units (`READER`, `gate.drift.language.RUBY`):
minitest (`test/**/*_test.rb`, `test_*.rb`, with `Minitest::Spec`'s
`describe`/`it` and ActiveSupport's `test "..." do`) and RSpec
(`spec/**/*_spec.rb`), on tree-sitter's Ruby grammar (`tree-sitter-ruby`,
loaded on first use through `gate.drift._treesitter`).

Ruby's test groups are calls with a block (`describe X do ... end`), and
its classes are open (`class String` anywhere reopens `String` for every
test of the run), so the file is split into the statements of its
containers: the file, a `module`, a `class`, and the block of a group
call (`describe`, `context`, `feature`, `RSpec.describe`), at any depth.
Each statement is a unit keyed by its kind and the labels of the
containers around it (`def MCP::ToolTest#test_call`, `it JsonRpcHandler >
"#handle" > "returns a result"`), compared by its syntax tree's tokens
without comments (`Unit.same`: a comment or a reformat changes none; `foo
[1]` and `foo[1]` differ); a heredoc's body belongs to the statement that
opens it.  A container is a header unit (its name or title and
superclass) whose statements are its members (`Unit.parent`), its key in
their `Unit.scope`.

* **A case** is a `def test_*` in a test class, or an `it`, `specify`,
  `example`, `scenario` or `test` call without a receiver, with a block,
  whose arguments are string literals: a new one in a class or group that
  exists at base is a new test.  A `def` repeating a method name of its
  container, or the `test_<name>` method an ActiveSupport `test "name"`
  block before it defines, replaces the first: COLLECTION.
* **Test classes and groups** (the file's own blocks) are SUPPORT headers
  open to an existing container (`Unit.open`): a `describe`/`context`
  block whose arguments are strings or constants, a `class` whose
  superclass names a test framework's (`Minitest::Test`, `ActiveSupport::
  TestCase`, `*Test`, `*TestCase`, `*Spec`), and a class nested in a test
  class (a constant of that class's own).  Any other class (`class
  String`, `class Tool` in `module MCP`: a namespace, or a class Ruby
  reopens; in a group's block too, which opens no namespace) and a
  `module` are SUPPORT headers whose statements are judged as a module's:
  a `def` there is COLLECTION (a method of a shared class), and so is
  every other statement.
* **COLLECTION** is everything else: hooks (`setup`, `teardown`,
  `before`, `after`, `around`, `let`, `let!`, `subject`, `def setup`,
  `def teardown`, `def run`, ...), `include`, `extend`, `attr_*`,
  `private`, a constant, an `alias`, any receiverless call in a test
  class's body (a class macro), a `class << self`; a call with a receiver
  (`RSpec.configure`, `String.prepend`), a `def` on another object
  (`def Hash.x`), an assignment, an `if` around tests, `define_method`,
  `require`/`require_relative`/`load` but of the suite's helpers
  (`test_helper`, `spec_helper`, `rails_helper`, `helper`, in any folder),
  a test framework's entry point (`require "minitest/autorun"`) or a
  library of Ruby's own (`require "json"`), which are SUPPORT; a test or group skipped,
  focused, pending or given metadata (`xit`, `xdescribe`, `fit`,
  `pending`, `skip`, `omit`, `it "x", :focus`, `it "x"` without a block:
  `:focus` filters out every other test of the run), `shared_examples`;
  and the magic comments before the first statement (`#
  frozen_string_literal: true` changes every string literal of the file).
  The hooks, `include`/`extend`, `attr_*`, `private`, a constant, an
  `alias`, a class macro and a `class << self` act on their own block
  (`Unit.within`): welcome inside a new test class or group, drift inside
  one that exists at base.  A helper `def` (SUPPORT) is never open: a new
  one in an existing class or group can override what its superclass or
  an included module calls by name.
* **In a new file** (`reaches`), a COLLECTION unit reaches the tests of
  other files unless it keeps to one of the file's own blocks (`within`)
  or is a magic comment (the file's own).

Not seen: a new test class (in a new file, or a new class in an existing
one) named as another file's class with the same superclass, which Ruby
reopens rather than creates (a helper named as one of that class's could
then change its tests), and a new `def test_*` that overrides a test the
class inherits from a superclass in another file.  A text tree-sitter
cannot read without repair is `Unparsable`, and the file is judged as a
whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from gate.drift import CASE, COLLECTION, SUPPORT, Unit
from gate.drift._treesitter import ParsedText, UniqueKeys, parse
from gate.drift.reader import Reader

if TYPE_CHECKING:
    from tree_sitter import Node

# Calls that register one test; groups of tests.
TESTS = frozenset({"it", "specify", "example", "scenario", "test"})
GROUPS = frozenset({"describe", "context", "feature", "experiment"})
# Calls that skip or focus tests, or define shared groups by name.
FLAGS = frozenset(
    {"xit", "xspecify", "xexample", "xscenario", "xdescribe", "xcontext", "xfeature"}
    | {"fit", "fspecify", "fexample", "fscenario", "fdescribe", "fcontext", "ffeature"}
    | {"focus", "pending", "skip", "omit", "shared_examples", "shared_examples_for"}
    | {"shared_context"}
)
# Calls whose block runs around or before the tests of their group, or
# whose name the group's tests read: the group's shared setup.
HOOKS = frozenset(
    {"before", "after", "around", "let", "let!", "subject", "subject!", "setup", "teardown"}
    | {"prepend_before", "append_before", "prepend_after", "append_after", "before_all"}
    | {"after_all", "include_context", "include_examples", "it_behaves_like"}
    | {"it_should_behave_like", "include", "extend", "attr_reader", "attr_writer"}
    | {"attr_accessor", "private", "protected", "public", "alias_method", "module_function"}
    | {"parallelize_me!", "i_suck_and_my_tests_are_order_dependent!"}
)
# Methods minitest calls around each test (or instead of it).
HOOK_METHODS = frozenset(
    {"setup", "teardown", "before_setup", "after_setup", "before_teardown", "after_teardown"}
    | {"run", "initialize", "method_missing", "respond_to_missing?", "name", "time_it"}
    | {"capture_exceptions", "with_info_handler", "run_one_method", "runnable_methods"}
)
# Receiverless calls that act beyond the class body they stand in.
GLOBAL_CALLS = frozenset(
    {"require", "require_relative", "load", "autoload", "define_method", "at_exit", "srand"}
    | {"trap", "system", "exec", "fork", "spawn", "exit", "exit!", "abort", "eval"}
    | {"instance_eval", "class_eval", "module_eval", "set_trace_func", "prepend"}
    | {"using", "refine", "binding", "Signal", "warn"}
)
# The suite's standard helpers: every test file loads one first.
HELPERS = frozenset({"test_helper", "spec_helper", "rails_helper", "helper"})
REQUIRES = frozenset({"require", "require_relative", "load"})
# The test frameworks' own entry points, which every test file may load.
FRAMEWORKS = frozenset(
    {"minitest", "minitest/autorun", "minitest/spec", "minitest/mock", "rspec", "rspec/autorun"}
    | {"test/unit", "active_support/test_case"}
)
# Ruby's standard libraries, which a test file requires for its own use.
STANDARD = frozenset(
    {"base64", "json", "digest", "securerandom", "set", "time", "date", "uri", "net/http"}
    | {"tempfile", "tmpdir", "fileutils", "stringio", "open3", "socket", "logger", "timeout"}
    | {"openssl", "yaml", "erb", "pathname", "benchmark", "forwardable", "singleton", "zlib"}
    | {"shellwords", "optparse", "ostruct", "English", "cgi", "bigdecimal", "ipaddr", "pp"}
    | {"io/console", "objspace", "weakref", "monitor", "delegate", "observer", "csv", "open-uri"}
)
# A test framework's test classes: a class that inherits one is a test class.
_TEST_SUPER = re.compile(r"(?:\A|::)(?:Minitest::(?:Test|Spec)|\w*Test(?:Case)?|\w*Spec)\Z")
_MAGIC = re.compile(
    r"\A#\s*(?:-\*-.*)?(?:frozen_string_literal|encoding|coding|warn_indent"
    r"|shareable_constant_value|warn_past_scope)\s*[:=]"
)
_PLAIN_ARGS = frozenset({"string", "constant", "scope_resolution"})
_WORDS = re.compile(r"\w+")


def units(text: str) -> tuple[Unit, ...]:
    """The units of a Ruby test file (see the module's docstring).  Raises
    `gate.drift.Unparsable` when the grammar is not installed or the text
    does not parse."""
    splitter = _Units(parse(text, "ruby"))
    splitter.magic()
    splitter.statements(splitter.source.root, _Place())
    return tuple(splitter.found)


def reaches(unit: Unit) -> bool:
    """Whether `unit`, COLLECTION code of a NEW Ruby file, changes what the
    tests of other files see: all of it but what keeps to one of the
    file's own test classes or groups (`Unit.within`) and a magic comment."""
    return not unit.within and not unit.key.startswith("magic ")


class _Place:
    """Where a statement stands: the labels and keys of the containers
    around it, which of those keys are the file's own blocks, the header
    key of the innermost one, and that container's kind."""

    def __init__(
        self,
        labels: tuple[str, ...] = (),
        scope: tuple[str, ...] = (),
        own: tuple[str, ...] = (),
        kind: str = "program",
    ) -> None:
        self.labels = labels
        self.scope = scope
        self.own = own
        self.kind = kind
        self.defined: set[str] = set()

    @property
    def parent(self) -> str:
        return self.scope[-1] if self.scope else ""

    def inside(self, label: str, key: str, kind: str, own: bool) -> _Place:
        mine = (*self.own, key) if own else self.own
        return _Place((*self.labels, label), (*self.scope, key), mine, kind)


class _Units:
    def __init__(self, source: ParsedText) -> None:
        self.source = source
        self.found: list[Unit] = []
        self._keys = UniqueKeys()

    def magic(self) -> None:
        """The magic comments before the file's first statement, one unit."""
        lines = []
        first: Node | None = None
        for child in self.source.root.children:
            if child.type != "comment":
                break
            if _MAGIC.match(self.source.text(child)):
                first = first or child
                lines.append(child)
        if first is not None:
            text = "\n".join(self.source.text(c).strip() for c in lines)
            self.found.append(
                Unit(
                    key="magic comments",
                    name="magic comments",
                    role=COLLECTION,
                    code=text,
                    line=self.source.line(first),
                    uses=(),
                )
            )

    def statements(self, container: Node, place: _Place) -> None:
        for group in _grouped(container):
            self.statement(group, place)

    def statement(self, nodes: list[Node], place: _Place) -> None:
        node = nodes[0]
        kind = node.type
        text = self.source.text
        local = place.own  # the own blocks a unit keeping to its block sits in
        if kind == "class":
            self.class_(node, nodes, place)
        elif kind == "module":
            name = _name(node, text)
            header = _header(node, "body")
            key = self.add(header, "module", name, place, SUPPORT, (name,), open_=False)
            self.body(node.child_by_field_name("body"), place.inside(name, key, "module", False))
        elif kind == "method":
            name = _name(node, text)
            repeated = name in place.defined
            place.defined.add(name)
            if place.kind == "class" and name.startswith("test_") and not repeated:
                self.add(nodes, "def", f"#{name}", place, CASE, (name,))
            elif place.kind == "program" or place.kind == "module":
                self.add(nodes, "def", f"#{name}", place, COLLECTION, (name,))
            elif repeated or name in HOOK_METHODS:
                self.add(nodes, "def", f"#{name}", place, COLLECTION, (name,), within=local)
            else:
                self.add(nodes, "def", f"#{name}", place, SUPPORT, (name,), open_=False)
        elif kind == "singleton_method":
            name = _name(node, text)
            target = node.child_by_field_name("object")
            mine = target is not None and target.type == "self" and place.kind == "class"
            label = f".{name}" if mine else f"{text(target) if target else ''}.{name}"
            if mine:
                self.add(nodes, "def", label, place, SUPPORT, (name,), open_=False)
            else:
                self.add(nodes, "def", label, place, COLLECTION, (name,))
        elif kind == "call":
            self.call(node, nodes, place)
        elif kind == "identifier" and text(node) in HOOKS:  # `parallelize_me!` bare
            self.add(nodes, text(node), "", place, COLLECTION, (), within=local)
        elif kind == "singleton_class" and place.kind == "class" and _of_self(node):
            self.add(nodes, "class << self", "", place, COLLECTION, (), within=local)
        elif kind == "alias" and place.kind == "class":
            self.add(nodes, "alias", _first_line(text(node)), place, COLLECTION, (), within=local)
        elif kind == "assignment" and place.kind == "class" and _constant(node):
            left = node.child_by_field_name("left")
            name = text(left) if left is not None else ""
            self.add(nodes, "constant", name, place, COLLECTION, (name,), within=local)
        else:
            self.add(nodes, kind, _first_line(text(node)), place, COLLECTION, ())

    def class_(self, node: Node, nodes: list[Node], place: _Place) -> None:
        text = self.source.text
        name = _name(node, text)
        superclass = node.child_by_field_name("superclass")
        parent_name = text(superclass).lstrip("<").strip() if superclass is not None else ""
        # A class nested in a test class is a new constant of its own; one
        # in a group's block is not (a block opens no namespace: `class
        # String` there reopens `::String`).
        tested = bool(superclass and _TEST_SUPER.search(parent_name))
        own = (place.kind == "class" and bool(place.own)) or tested
        header = _header(node, "body")
        binds = (name.rsplit("::", 1)[-1],)
        # A class of any other superclass, or of none, may be one that
        # exists (`class Tool` in `module MCP`, `class String`): Ruby
        # reopens it, and its statements are judged as a module's.
        key = self.add(header, "class", name, place, SUPPORT, binds, open_=own)
        inner = place.inside(name, key, "class" if own else "module", own)
        self.body(node.child_by_field_name("body"), inner)

    def call(self, node: Node, nodes: list[Node], place: _Place) -> None:
        text = self.source.text
        method = node.child_by_field_name("method")
        name = text(method) if method is not None else ""
        receiver = node.child_by_field_name("receiver")
        block = node.child_by_field_name("block")
        arguments = node.child_by_field_name("arguments")
        args = _arguments(arguments)
        title = ", ".join(text(a) for a in args)
        local = place.own
        plain = all(a.type in _PLAIN_ARGS and not _interpolated(a) for a in args)
        spec = receiver is None or (text(receiver) == "RSpec" and name in GROUPS)
        flagged = name in TESTS | GROUPS and (not plain or block is None)
        if receiver is None and (name in FLAGS or flagged):
            # a test or group skipped, focused, pending (no block) or given
            # metadata (`:focus` filters out every other test of the run)
            self.add(nodes, name, title, place, COLLECTION, ())
        elif spec and name in GROUPS and block is not None and plain:
            header = _header(block, "body", before=[c for c in node.children if c != block])
            key = self.add(header, name, title, place, SUPPORT, (), open_=True)
            inner = place.inside(title, key, "group", True)
            self.body(block.child_by_field_name("body"), inner)
        elif receiver is None and name in TESTS and block is not None and plain:
            if name == "test" and len(args) == 1 and args[0].type == "string":
                # ActiveSupport defines the method `test_<name>`, which a
                # later `def` of that name replaces
                place.defined.add("test_" + "_".join(text(args[0])[1:-1].split()))
            self.add(nodes, name, title, place, CASE, ())
        elif receiver is None and name in REQUIRES and _harmless(name, args, text):
            self.add(nodes, name, title, place, SUPPORT, ())
        elif receiver is None and name in HOOKS and place.kind != "program":
            binds = tuple(_WORDS.findall(title)) if name.startswith(("let", "subject")) else ()
            self.add(nodes, name, title, place, COLLECTION, binds, within=local)
        elif receiver is None and place.kind == "class" and name not in GLOBAL_CALLS:
            self.add(nodes, name, title, place, COLLECTION, (), within=local)
        else:
            shown = f"{text(receiver)}.{name}" if receiver is not None else name
            self.add(nodes, shown, title, place, COLLECTION, ())

    def body(self, body: Node | None, place: _Place) -> None:
        if body is not None:
            self.statements(body, place)

    def add(
        self,
        nodes: list[Node],
        kind: str,
        label: str,
        place: _Place,
        role: str,
        binds: tuple[str, ...],
        *,
        open_: bool | None = None,
        within: tuple[str, ...] = (),
    ) -> str:
        """Add the unit of `nodes` as `kind label` in `place`; its unique key."""
        joined = " > ".join(place.labels)
        if kind == "def" or kind == "class" or kind == "module":
            shown = f"{'::'.join(place.labels)}{label}" if kind == "def" else label
            shown = f"{kind} {shown}"
        else:
            shown = " > ".join(p for p in (joined, label) if p)
            shown = f"{kind} {shown}"
        unique, name = self._keys.unit(shown.strip(), shown.strip())
        source = self.source
        tokens = tuple(t for n in nodes for t in _tokens(n, source))
        self.found.append(
            Unit(
                key=unique,
                name=name,
                role=role,
                code=source.span(nodes[0].start_byte, nodes[-1].end_byte),
                binds=tuple(dict.fromkeys(b for b in binds if b)),
                line=source.line(nodes[0]),
                parent=place.parent,
                uses=tuple(dict.fromkeys(w for t in tokens for w in _WORDS.findall(t))),
                same=lambda: "\n".join(tokens),
                scope=place.scope,
                open=open_,
                within=within,
                test=role == CASE,
            )
        )
        return unique


def _grouped(container: Node) -> Iterator[list[Node]]:
    """The statements of `container`, comments left out, each with the
    heredoc bodies that follow it (a heredoc's text is the statement's)."""
    group: list[Node] = []
    for child in container.named_children:
        if child.type == "comment":
            continue
        if child.type == "heredoc_body" and group:
            group.append(child)
            continue
        if group:
            yield group
        group = [child]
    if group:
        yield group


def _header(node: Node, field: str, before: list[Node] | None = None) -> list[Node]:
    """The nodes of `node` before its `field` (a class's name and
    superclass, a block's `do` and parameters), after `before`."""
    body = node.child_by_field_name(field)
    end = body.start_byte if body is not None else node.end_byte
    own = [c for c in node.children if c.end_byte <= end and c.type != "comment"]
    return [*(before or []), *own] or [node]


def _name(node: Node, text: Callable[[Node], str]) -> str:
    named = node.child_by_field_name("name")
    return text(named) if named is not None else ""


def _arguments(arguments: Node | None) -> list[Node]:
    if arguments is None:
        return []
    return [c for c in arguments.named_children if c.type != "comment"]


def _interpolated(node: Node) -> bool:
    return any(c.type == "interpolation" for c in node.named_children)


def _of_self(node: Node) -> bool:
    value = node.child_by_field_name("value")
    return value is not None and value.type == "self"


def _constant(node: Node) -> bool:
    left = node.child_by_field_name("left")
    return left is not None and left.type == "constant"


def _harmless(name: str, args: list[Node], text: Callable[[Node], str]) -> bool:
    """Whether a `require` loads one of the suite's standard helpers or a
    library of Ruby's own (`require "json"`), which every test file may
    load and none redefines."""
    if len(args) != 1 or args[0].type != "string" or _interpolated(args[0]):
        return False
    path = text(args[0])[1:-1].removesuffix(".rb")
    if path.rsplit("/", 1)[-1] in HELPERS:
        return True
    return name == "require" and (path in STANDARD or path in FRAMEWORKS)


def _first_line(code: str) -> str:
    return code.strip().split("\n", 1)[0][:60]


def _tokens(node: Node, source: ParsedText) -> list[str]:
    """`node`'s syntax tree as tokens without comments: each named node's
    type around its children, and each leaf's text (so `foo [1]` and
    `foo[1]`, one call and one index, differ)."""
    out: list[str] = []
    stack: list[Node | None] = [node]
    while stack:
        current = stack.pop()
        if current is None:
            out.append(")")
            continue
        if current.type == "comment":
            continue
        if current.child_count == 0:
            out.append(source.text(current))
            continue
        out.append(f"({current.type}")
        stack.append(None)
        stack.extend(reversed(current.children))
    return out


# What the engine reads Ruby test files with (`gate.drift.language.RUBY`).
READER = Reader(units=lambda text, _suffix: units(text), reaches=reaches)
