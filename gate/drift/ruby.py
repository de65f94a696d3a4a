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
  exists at base is a new test.  A case whose body writes state other
  tests see (`_shares`: a global, a class variable, a constant, `ENV`, an
  object reached from one of them or from `self.class`, a local bound to
  such an object; `define_method`, `class_eval`, `include`, `require`,
  `Dir.chdir`, a mutator such as `<<` or `clear` on such an object, a
  `send` of one or of a computed name; a `def`, `class` or `module`
  inside it) is COLLECTION, still a test (`Unit.test`), kept to no block:
  new in an existing container, or in a new file, it reaches other tests.
  A `def` repeating a method name of its container, or the `test_<name>`
  method an ActiveSupport `test "name"` block before it defines, replaces
  the first: COLLECTION.
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
from gate.drift._treesitter import (
    ParsedText,
    UniqueKeys,
    bound_to,
    descendants,
    inside,
    parse,
    spelled_alike,
)
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
                self.case(nodes, "def", f"#{name}", place, (name,))
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
            self.case(nodes, name, title, place, ())
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

    def case(
        self, nodes: list[Node], kind: str, label: str, place: _Place, binds: tuple[str, ...]
    ) -> None:
        """Add a test case; one whose body writes state other tests see
        (`_shares`) is COLLECTION, still a test, kept to no block."""
        if any(_shares(n, self.source.text) for n in nodes):
            self.add(nodes, kind, label, place, COLLECTION, binds, test=True)
        else:
            self.add(nodes, kind, label, place, CASE, binds)

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
        test: bool = False,
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
                test=test or role == CASE,
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


def _shares(node: Node, text: Callable[[Node], str]) -> bool:
    """Whether the code of `node`, a test case, writes state that other
    tests see: an assignment to a global (`$x`), a class variable, a
    constant, or into an object reached from one of those or from
    `self.class` (`ENV["X"] = ...`, `Foo.bar = ...`, `Foo::LIST[0] = ...`),
    or into a local bound to such an object (`_aliases`); a call that
    changes a class, a module, the environment or the process
    (`KERNEL_CALLS`, `require` and the like, without a receiver too;
    `SHARED_CALLS`, `define_method`, `include`, ..., on such an object;
    `ENV.store` or another mutator on such an object; `send` of one of
    those or of a computed name, on such an object or without a
    receiver); a `def`, `class` or `module` inside the test (Ruby defines
    it on a shared class).  A local or the test's own instance variables
    are the test's own."""
    found = list(descendants(node))
    bindings = _bindings(found, text)
    aliases = _aliases(found, bindings, text)
    # locals holding what one place held (`original = $stdin`), every time
    captured = spelled_alike(bindings, text)
    restores = [(e, _restored(e, text, captured)) for e in found if e.type == "ensure"]
    put_back = {id(n) for _e, (_places, nodes) in restores for n in nodes}
    for current in found:
        kind = current.type
        if kind in _DEFINING:
            return True
        if kind in ("assignment", "operator_assignment"):
            left = current.child_by_field_name("left")
            targets = _targets(left) if left is not None else []
            if id(current) in put_back:
                continue  # `$stdin = original` in an `ensure`: the restore itself
            if any(
                _shared_target(t, text, aliases) and not _put_back(t, text, restores)
                for t in targets
            ):
                return True
        elif kind == "call":
            name = _method(current, text)
            receiver = current.child_by_field_name("receiver")
            # on an object the test made (`Client.new(...).public_send(m)`,
            # `obj.extend(M)`), a call changes that object alone
            shared = receiver is not None and _shared_root(receiver, text, aliases)
            if name in KERNEL_CALLS and (receiver is None or shared):
                return True
            if shared and (name in SHARED_CALLS or name in MUTATORS):
                return True
            if (receiver is None or shared) and name in _SENDS and _sends_shared(current, text):
                return True
        elif kind == "binary" and _operator(current, text) == "<<":
            left = current.child_by_field_name("left")
            if left is not None and _shared_root(left, text, aliases):
                return True
    return False


def _bindings(found: list[Node], text: Callable[[Node], str]) -> dict[str, list[Node]]:
    """Each local `found` assigns (`name = ...`, or a target of `a, b =
    ...`), with every right side assigned to it (each of a list's values
    for each of its targets: `a, b = $x, 1` may bind either to `$x`)."""
    out: dict[str, list[Node]] = {}
    for current in found:
        if current.type != "assignment":
            continue
        left, right = current.child_by_field_name("left"), current.child_by_field_name("right")
        if left is None or right is None:
            continue
        values = right.named_children if right.type == "right_assignment_list" else [right]
        for target in _targets(left):
            if target.type == "identifier":
                out.setdefault(text(target), []).extend(values)
    return out


def _aliases(
    found: list[Node], bindings: dict[str, list[Node]], text: Callable[[Node], str]
) -> set[str]:
    """The locals bound, by any of their assignments, to an object other
    tests share: one assigned from such an object or from another such
    local, however many hops (`a = Foo::LIST; b = a`), and a block's
    parameters where the block hangs on a call on such an object
    (`Foo::LIST.tap { |l| ... }`, `ENV.each { |k, v| ... }`)."""
    values = {name: list(rights) for name, rights in bindings.items()}
    for current in found:  # a block's parameters hold what its call's receiver holds
        receiver = current.child_by_field_name("receiver") if current.type == "call" else None
        block = current.child_by_field_name("block") if receiver is not None else None
        if receiver is not None and block is not None:
            for parameter in _block_parameters(block, text):
                values.setdefault(parameter, []).append(receiver)
    aliases: set[str] = set()
    return bound_to(values, lambda value: _shared_root(value, text, aliases), aliases)


def _block_parameters(block: Node, text: Callable[[Node], str]) -> list[str]:
    """The names a block's `|...|` binds, destructured ones included."""
    parameters = block.child_by_field_name("parameters")
    if parameters is None:
        return []
    return [text(n) for n in descendants(parameters) if n.type == "identifier"]


# Kernel's calls that change the process, without a receiver too.
KERNEL_CALLS = frozenset(
    {"require", "require_relative", "load", "autoload", "at_exit", "srand", "trap"}
    | {"set_trace_func", "trace_var"}
)
# Calls that change a class, a module, the environment or the process,
# on an object every test shares (without a receiver, in a test, they act
# on the test's own instance, or are RSpec's matchers: `include(...)`).
SHARED_CALLS = KERNEL_CALLS | frozenset(
    {"define_method", "define_singleton_method", "remove_method", "undef_method"}
    | {"alias_method", "class_eval", "module_eval", "class_exec", "module_exec"}
    | {"instance_variable_set", "class_variable_set", "const_set", "remove_const"}
    | {"remove_instance_variable", "remove_class_variable", "prepend", "include", "extend"}
    | {"attr_accessor", "attr_writer", "attr_reader", "private_constant", "public_constant"}
    | {"module_function", "private_class_method", "public_class_method", "refine", "using"}
    | {"setenv", "unsetenv", "chdir", "umask", "instance_eval", "instance_exec"}
    | {"singleton_class"}
)
# Methods that change the object they are called on (a receiver every
# test shares: a constant's, `ENV`'s, a global's; not `create!` or
# `save!` on a model class, whose rows a test's transaction rolls back).
MUTATORS = frozenset(
    {"[]=", "<<", "push", "pop", "shift", "unshift", "append", "prepend", "insert", "concat"}
    | {"clear", "delete", "delete_if", "keep_if", "store", "update", "replace", "merge!"}
    | {"add", "set", "register", "reset", "configure", "fill", "compact!", "sort!", "map!"}
)
_SENDS = frozenset({"send", "__send__", "public_send", "instance_variable_get", "method"})
# Nodes that define a method, class or module where they run.
_DEFINING = frozenset({"method", "singleton_method", "class", "module", "singleton_class"})
# The roots of an object every test of the run shares.
_SHARED_ROOTS = frozenset({"constant", "scope_resolution", "global_variable", "class_variable"})


def _restored(
    ensure: Node, text: Callable[[Node], str], captured: dict[str, str]
) -> tuple[frozenset[str], list[Node]]:
    """The places an `ensure` clause puts back, as spelled, and the
    assignments that do it: each `PLACE = local` whose local holds what
    PLACE held (`original = $stdin` ... `ensure $stdin = original`); not
    a new value, nor `ENV.delete` (the variable may have been set)."""
    places: set[str] = set()
    nodes: list[Node] = []
    for node in ensure.named_children:
        if node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or right.type != "identifier":
            continue
        if captured.get(text(right)) == text(left):
            places.add(text(left))
            nodes.append(node)
    return frozenset(places), nodes


def _put_back(
    target: Node,
    text: Callable[[Node], str],
    restores: list[tuple[Node, tuple[frozenset[str], list[Node]]]],
) -> bool:
    """Whether `target`, written in a test, is written back by an `ensure`
    whose `begin` (or `def`, or block body) holds the write, outside that
    `ensure`: the test puts back what it changed, whatever happens."""
    spelled = text(target)
    return any(
        spelled in places
        and ensure.parent is not None
        and inside(target, ensure.parent)
        and not inside(target, ensure)
        for ensure, (places, _nodes) in restores
    )


def _targets(left: Node) -> list[Node]:
    """The places an assignment's left side writes (`a, $b = ...` two)."""
    if left.type in ("left_assignment_list", "destructured_left_assignment"):
        return [t for c in left.named_children for t in _targets(c)]
    if left.type == "rest_assignment":
        return [t for c in left.named_children for t in _targets(c)]
    return [left]


def _shared_target(target: Node, text: Callable[[Node], str], aliases: set[str]) -> bool:
    if target.type in _SHARED_ROOTS:
        return True
    if target.type in ("call", "element_reference"):
        return _shared_root(target, text, aliases)
    return False


def _shared_root(node: Node, text: Callable[[Node], str], aliases: set[str]) -> bool:
    """Whether the object `node` reaches is shared: its chain of calls and
    indexes starts at a constant, a global, a class variable, `self.class`
    or a local in `aliases`; a `new`, `dup` or `clone` in the chain makes
    a fresh object, the test's own."""
    current = node
    while current.type in ("call", "element_reference", "parenthesized_statements"):
        if current.type == "call":
            method = _method(current, text)
            if method in ("new", "dup", "clone"):
                return False  # an object the test made
            if method == "class":
                return True  # `self.class.x`, `obj.class.x`: a class
            receiver = current.child_by_field_name("receiver")
        elif current.type == "element_reference":
            receiver = current.child_by_field_name("object") or (
                current.named_children[0] if current.named_children else None
            )
        else:
            receiver = current.named_children[0] if current.named_children else None
        if receiver is None:
            return False
        current = receiver
    if current.type in _SHARED_ROOTS:
        return True
    return current.type == "identifier" and text(current) in aliases


def _method(call: Node, text: Callable[[Node], str]) -> str:
    method = call.child_by_field_name("method")
    return text(method) if method is not None else ""


def _operator(node: Node, text: Callable[[Node], str]) -> str:
    operator = node.child_by_field_name("operator")
    return text(operator) if operator is not None else ""


def _sends_shared(call: Node, text: Callable[[Node], str]) -> bool:
    """Whether a `send` calls a method of `SHARED_CALLS` or `MUTATORS`, or
    one whose name it computes."""
    args = _arguments(call.child_by_field_name("arguments"))
    if not args:
        return True
    first = args[0]
    if first.type == "simple_symbol":
        name = text(first)[1:]
        return name in SHARED_CALLS or name in MUTATORS or name.endswith("=")
    if first.type == "string" and not _interpolated(first):
        name = text(first)[1:-1]
        return name in SHARED_CALLS or name in MUTATORS or name.endswith("=")
    return True


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
