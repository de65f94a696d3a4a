"""gate.drift.ruby's reader through `compare`: a Ruby test file (minitest
classes, ActiveSupport's `test "..." do`, Minitest::Spec and RSpec
`describe`/`it` blocks) judged statement by statement.  Each welcome
shape (a new `def test_*`, a new `it`/`test` block in an existing group,
a new test class or group with its own hooks, a comment or a reformat)
beside its hostile twins, generated over every test and every container
of the base (a body or assertion edited, a test removed or renamed, a new
hook, `let`, skip or focus, a monkey patch, a `require`, an `include`, a
helper shadowing a name base code spells), and the rule end to end on a
real repository."""

from __future__ import annotations

import pytest

from gate.drift import CASE, COLLECTION, SUPPORT, Unparsable, compare, reaching, units_for
from gate.drift.collected import is_test_module
from gate.drift.ruby import units
from gate.model.rubric import DEFAULT_TESTS
from tests.gitrepo import DRIFT_RUBRIC, RubricRepo

# A minitest file in the shape of modelcontextprotocol/ruby-sdk's tests.
MINITEST = """\
# frozen_string_literal: true

require "test_helper"

module MCP
  class ToolTest < ActiveSupport::TestCase
    class TestTool < Tool
      tool_name "test_tool"

      class << self
        def call(message:)
          Tool::Response.new([{ type: "text", content: message }])
        end
      end
    end

    setup do
      @tool = TestTool
    end

    test "#call returns the message" do
      # the response carries the text
      assert_equal "hi", @tool.call(message: "hi").content.first[:content]
    end

    def test_name
      assert_equal "test_tool", build.name_value
    end

    private

    def build
      TestTool
    end
  end
end
"""

# A spec file: Minitest::Spec or RSpec.
SPEC = """\
require "spec_helper"

RSpec.describe JsonRpcHandler do
  let(:registry) { {} }

  before do
    @response = nil
  end

  describe "#handle" do
    it "returns a result when jsonrpc is 2.0" do
      register("add") { |params| params[:a] + params[:b] }
      expect(handle(jsonrpc: "2.0", id: 1)).to eq(3)
    end

    context "with a batch" do
      it "returns every result" do
        expect(handle([1, 2]).size).to eq(2)
      end
    end
  end

  def register(name, &block)
    registry[name] = block
  end
end
"""

BASES = {"minitest": MINITEST, "spec": SPEC}

# Each test of each base: its exact code.
TESTS = {
    "minitest": {
        'test MCP > ToolTest > "#call returns the message"': (
            '    test "#call returns the message" do\n'
            "      # the response carries the text\n"
            '      assert_equal "hi", @tool.call(message: "hi").content.first[:content]\n'
            "    end"
        ),
        "def MCP::ToolTest#test_name": (
            '    def test_name\n      assert_equal "test_tool", build.name_value\n    end'
        ),
    },
    "spec": {
        'it JsonRpcHandler > "#handle" > "returns a result when jsonrpc is 2.0"': (
            '    it "returns a result when jsonrpc is 2.0" do\n'
            '      register("add") { |params| params[:a] + params[:b] }\n'
            '      expect(handle(jsonrpc: "2.0", id: 1)).to eq(3)\n'
            "    end"
        ),
        'it JsonRpcHandler > "#handle" > "with a batch" > "returns every result"': (
            '      it "returns every result" do\n'
            "        expect(handle([1, 2]).size).to eq(2)\n"
            "      end"
        ),
    },
}

# Where a statement is inserted in each container: a text of the base once,
# with `|` where it goes, and its indentation ("": appended to the file).
PLACES = {
    "minitest": {
        "the file": ("", ""),
        "module MCP": ("  end\n|end\n", "  "),
        "class ToolTest": ("|  end\nend\n", "    "),
    },
    "spec": {
        "the file": ("", ""),
        "describe JsonRpcHandler": ("|\n  def register", "  "),
        'describe "#handle"': ('|\n    context "with a batch"', "    "),
        'context "with a batch"': ("      end\n|    end\n  end\n", "      "),
    },
}
# The containers a new test goes into (the file's top level is no group).
GROUPS = [(b, p) for b in sorted(PLACES) for p in sorted(PLACES[b]) if p != "the file"]


def _edit(old: str, new: str, text: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _add(base: str, place: str, code: str) -> str:
    """`BASES[base]` with `code` (unindented) added in `place`."""
    text = BASES[base]
    anchor, indent = PLACES[base][place]
    lines = "".join(f"{indent}{line}\n" if line else "\n" for line in code.split("\n"))
    if not anchor:
        return text + "\n" + lines
    plain = anchor.replace("|", "")
    assert text.count(plain) == 1, anchor
    return _edit(plain, anchor.replace("|", lines), text)


def _drift(base: str, head: str) -> str:
    drift = compare(units(BASES[base]), units(head))
    return "ok" if drift.ok else drift.summary()


# --- welcome shapes --------------------------------------------------------

WELCOME = {
    ("minitest", "a def test_ in the existing class"): _add(
        "minitest", "class ToolTest", "def test_description\n  assert true\nend"
    ),
    ("minitest", "a test block in the existing class"): _add(
        "minitest", "class ToolTest", 'test "validates input" do\n  assert_nil nil\nend'
    ),
    ("minitest", "a new test class with setup and helpers in the module"): _add(
        "minitest",
        "module MCP",
        "class PromptTest < ActiveSupport::TestCase\n  setup do\n    @x = 1\n  end\n\n"
        '  def helper\n    @x\n  end\n\n  test "x" do\n    assert_equal 1, helper\n  end\nend',
    ),
    ("minitest", "a new Minitest::Test class at top level"): _add(
        "minitest",
        "the file",
        "class OtherTest < Minitest::Test\n  def setup\n    @y = 2\n  end\n\n"
        "  def test_y\n    assert_equal 2, @y\n  end\nend",
    ),
    ("minitest", "a comment edited in a test"): _edit(
        "# the response carries the text", "# the text comes back", MINITEST
    ),
    ("minitest", "a test reformatted"): _edit(
        '      assert_equal "hi", @tool.call(message: "hi").content.first[:content]',
        '      assert_equal "hi",\n        @tool.call(message: "hi").content.first[:content]',
        MINITEST,
    ),
    ("spec", "an it in the outer describe"): _add(
        "spec",
        "describe JsonRpcHandler",
        'it "rejects nil" do\n  expect(handle(nil)).to be_nil\nend',
    ),
    ("spec", "an it in a nested context"): _add(
        "spec", 'context "with a batch"', "it { expect(1).to eq(1) }"
    ),
    ("spec", "a new context with its own let and before"): _add(
        "spec",
        'describe "#handle"',
        'context "with notifications" do\n  let(:id) { nil }\n  before { @n = 1 }\n\n'
        '  it "returns nothing" do\n    expect(handle(id: id)).to be_nil\n  end\nend',
    ),
    ("spec", "a new top-level describe"): _add(
        "spec", "the file", 'RSpec.describe "Other" do\n  it "works" do\n  end\nend'
    ),
    ("spec", "every line reindented"): "\n".join(f"  {line}" for line in SPEC.split("\n")),
}


@pytest.mark.parametrize(("base", "name"), sorted(WELCOME))
def test_a_welcome_edit_passes(base: str, name: str) -> None:
    assert _drift(base, WELCOME[base, name]) == "ok"


def test_a_new_test_is_counted_as_added() -> None:
    drift = compare(
        units(MINITEST), units(WELCOME["minitest", "a def test_ in the existing class"])
    )
    assert drift.added == ("def MCP::ToolTest#test_description",)
    drift = compare(units(SPEC), units(WELCOME["spec", "an it in the outer describe"]))
    assert drift.added == ('it JsonRpcHandler > "rejects nil"',)


# --- hostile twins, generated over every test of each base -----------------

EDITS = {
    "its assertion edited": lambda code: code.replace("eq(", "be >= (", 1).replace(
        "assert_equal", "refute_equal", 1
    ),
    "its body emptied": lambda code: code.split("\n", 1)[0] + "\n" + code.rsplit("\n", 1)[1],
    "a skip added": lambda code: code.replace(" do\n", ' do\n  skip "later"\n', 1).replace(
        "def test_name\n", 'def test_name\n  skip "later"\n', 1
    ),
    "an early return added": lambda code: code.replace(" do\n", " do\n  next\n", 1).replace(
        "def test_name\n", "def test_name\n  return\n", 1
    ),
    "a string it reads edited": lambda code: (
        code.replace('"hi"', '"ho"', 1)
        .replace('"2.0"', '"1.0"', 1)
        .replace("[1, 2]", "[1]", 1)
        .replace('"test_tool"', '"other"', 1)
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize(("base", "key"), [(b, k) for b in sorted(TESTS) for k in sorted(TESTS[b])])
def test_every_existing_test_edited_fails(base: str, key: str, edit: str) -> None:
    code = TESTS[base][key]
    head = _edit(code, EDITS[edit](code), BASES[base])
    assert head != BASES[base]
    drift = compare(units(BASES[base]), units(head))
    assert drift.changed == (key,), drift.summary()


@pytest.mark.parametrize(("base", "key"), [(b, k) for b in sorted(TESTS) for k in sorted(TESTS[b])])
def test_every_existing_test_removed_or_renamed_fails(base: str, key: str) -> None:
    code = TESTS[base][key]
    for head in (
        _edit(code + "\n", "", BASES[base]),
        _edit(code, code.replace("re", "Re", 1).replace("name", "nam", 1), BASES[base]),
    ):
        drift = compare(units(BASES[base]), units(head))
        assert f"{key} removed" in drift.summary(), drift.summary()


# Statements that reach the existing tests of their container (or of the
# whole run) without being named: new in any container, they fail.
SHARED = {
    "a setup block": "setup do\n  @tool = nil\nend",
    "a teardown block": "teardown do\n  @tool = nil\nend",
    "a def setup": "def setup\n  super\nend",
    "a def teardown": "def teardown\nend",
    "a before block": "before { @response = 1 }",
    "a before(:all) block": "before(:all) do\n  @x = 1\nend",
    "an after block": "after { $x = 1 }",
    "an around block": "around { |ex| ex.run }",
    "a let": "let(:unseen) { 1 }",
    "a let!": "let!(:unseen) { 1 }",
    "a subject": "subject { 1 }",
    "an xit": 'xit "later" do\nend',
    "an xdescribe": 'xdescribe "later" do\nend',
    "an fit": 'fit "only this" do\nend',
    "an fdescribe": 'fdescribe "only this" do\nend',
    "an it with :focus": 'it "only this", :focus do\nend',
    "an it with skip metadata": 'it "x", skip: "later" do\nend',
    "a describe with :focus": 'describe "x", :focus do\nend',
    "a pending": 'pending "later"',
    "a skip": 'skip "later"',
    "an omit": 'omit "later"',
    "an it without a block (pending)": 'it "later"',
    "a require": 'require "webmock/minitest"',
    "a require_relative": 'require_relative "support/patches"',
    "an include": "include Helpers",
    "an extend": "extend Helpers",
    "a prepend": "prepend Patch",
    "a define_method": "define_method(:build) { nil }",
    "a monkey patch of String": "class String\n  def blank?\n    true\n  end\nend",
    "a reopened library class": "class Tool < Object\n  def call\n  end\nend",
    "a def self.": "def self.unseen\nend",
    "a singleton def on another object": "def Hash.unseen\nend",
    "a String.prepend": "String.prepend(Module.new)",
    "an RSpec.configure": "RSpec.configure { |c| c.filter_run_excluding :all }",
    "a shared_examples": 'shared_examples "x" do\nend',
    "an it_behaves_like": 'it_behaves_like "x"',
    "a global assignment": "$VERBOSE = nil",
    "an ENV write": 'ENV["MCP_DEBUG"] = "1"',
    "a constant": "LIMIT = 3",
    "an if around a test": 'if RUBY_VERSION > "3"\n  it "x" do\n  end\nend',
    "a parallelize_me!": "parallelize_me!",
    "an alias": "alias check assert",
}


@pytest.mark.parametrize("kind", sorted(SHARED))
@pytest.mark.parametrize(
    ("base", "place"), [(b, p) for b in sorted(PLACES) for p in sorted(PLACES[b])]
)
def test_new_shared_setup_fails_in_any_existing_container(base: str, place: str, kind: str) -> None:
    drift = _drift(base, _add(base, place, SHARED[kind]))
    if place == "class ToolTest" and kind == "a monkey patch of String":
        # in a test class, `class String` is a new ToolTest::String, which
        # no base code of the class names
        assert drift == "ok"
        return
    assert drift != "ok"


# A new helper of a name: fails in an existing container whatever the name
# (it may override what the superclass's code calls); at top level, it
# patches every object.
@pytest.mark.parametrize("name", ["build", "register", "unseen", "assert_equal", "name"])
@pytest.mark.parametrize(
    ("base", "place"), [(b, p) for b in sorted(PLACES) for p in sorted(PLACES[b])]
)
def test_a_new_helper_fails_in_an_existing_container(base: str, place: str, name: str) -> None:
    assert _drift(base, _add(base, place, f"def {name}\n  nil\nend")) != "ok"


def test_a_def_test_repeating_a_name_replaces_the_first_and_fails() -> None:
    head = _add("minitest", "class ToolTest", "def test_name\n  assert true\nend")
    assert "new def MCP::ToolTest#test_name #2 added to a class" in _drift("minitest", head)


def test_a_def_replacing_the_method_a_test_block_defines_fails() -> None:
    """ActiveSupport's `test "#call returns the message"` defines the method
    `test_#call_returns_the_message`; a later `def` of it replaces the test."""
    head = _add("minitest", "class ToolTest", "def test_name\nend")
    assert "test_name #2" in _drift("minitest", head)
    text = MINITEST.replace("def test_name", 'test "tool name" do\n    end\n\n    def x', 1)
    head = text.replace("    private\n", "    def test_tool_name\n    end\n\n    private\n")
    assert "new def MCP::ToolTest#test_tool_name" in _drift_from(text, head)


def _drift_from(base: str, head: str) -> str:
    drift = compare(units(base), units(head))
    return "ok" if drift.ok else drift.summary()


def test_a_new_magic_comment_fails() -> None:
    head = "# frozen_string_literal: true\n" + SPEC
    assert "new magic comments runs at collection" in _drift("spec", head)
    assert _drift("minitest", MINITEST.replace("true", "false", 1)) == "magic comments changed"


@pytest.mark.parametrize("kind", sorted(SHARED))
def test_a_new_test_class_reopening_nothing_keeps_its_own_hooks_only(kind: str) -> None:
    """Inside a NEW test class, its own setup, helpers and class macros
    are welcome; what acts beyond the class is refused there too."""
    code = "\n".join(f"  {line}" if line else "" for line in SHARED[kind].split("\n"))
    head = _add("minitest", "module MCP", f"class NewTest < Minitest::Test\n{code}\nend")
    local = {
        "a setup block",
        "a teardown block",
        "a def setup",
        "a def teardown",
        "a before block",
        "a before(:all) block",
        "an after block",
        "an around block",
        "a let",
        "a let!",
        "a subject",
        "an include",
        "an extend",
        "a def self.",
        "a constant",
        "a parallelize_me!",
        "an alias",
        "an it_behaves_like",
        "a monkey patch of String",
        "a reopened library class",  # NewTest::String
    }
    assert (_drift("minitest", head) == "ok") is (kind in local), _drift("minitest", head)


# --- roles, files, parse errors ---------------------------------------------


def test_roles_keys_and_parents() -> None:
    found = {u.key: u for u in units(MINITEST)}
    assert found["magic comments"].role == COLLECTION
    assert found['require "test_helper"'].role == SUPPORT
    assert (
        found["class ToolTest"].role == SUPPORT and found["class ToolTest"].parent == "module MCP"
    )
    assert found["class TestTool"].parent == "class ToolTest"
    assert found["setup MCP > ToolTest"].role == COLLECTION
    assert found["setup MCP > ToolTest"].within == ("class ToolTest",)
    assert found["def MCP::ToolTest#test_name"].role == CASE
    assert found["def MCP::ToolTest#build"].role == SUPPORT
    assert found['test MCP > ToolTest > "#call returns the message"'].role == CASE
    hooks = {u.key: u.role for u in units(MINITEST.replace("private\n", "def setup\n    end\n"))}
    assert hooks["def MCP::ToolTest#setup"] == COLLECTION  # minitest runs it around every test
    spec = {u.key: u for u in units(SPEC)}
    assert spec["let JsonRpcHandler > :registry"].binds == ("registry",)
    assert spec['describe JsonRpcHandler > "#handle"'].parent == "describe JsonRpcHandler"


@pytest.mark.parametrize("text", ["def x(\n", 'describe "x" do\n  it "y" do\nend\n', "class A <\n"])
def test_a_syntax_error_is_refused(text: str) -> None:
    with pytest.raises(Unparsable, match="syntax error at line"):
        units(text)


# What a new test's body may write: its locals, its own instance variables
# and objects it makes (welcome), or state every test of the run shares.
OWN_WRITES = [
    "x = 1\nassert_equal 1, x",
    "@a = 1\n@a.b = 2",
    "made = Foo.new\nmade.size = 3",
    "copy = Foo::LIST.dup\ncopy << 1",
    "assert_equal 1, Foo.bar",
    'User.create!(name: "x")',
    "Foo.stub(:bar, 1) { assert true }",
    "obj.send(:secret)",
    "Client.new(transport: t).public_send(method_name)",
    "made = Object.new\nmade.extend(Helpers)\nmade.instance_variable_set(:@x, 1)",
    "expect(list).to include(1)",
    "extend(Helpers)",
    "original = $stdin\nbegin\n  $stdin = StringIO.new\n  run\nensure\n  $stdin = original\nend",
    'old = ENV["A"]\nbegin\n  ENV["A"] = "1"\n  run\nensure\n  ENV["A"] = old\nend',
    "old = Foo.level\nbegin\n  Foo.level = :debug\nensure\n  Foo.level = old\nend",
    # a copy, however many locals away, or a block over the test's own object
    "a = Foo::LIST.dup\nb = a\nb << 1",
    "a = [1]\nb = a\nb.push(2)",
    "[1, 2].each { |x| x.to_s }",
    'Foo::ITEMS.each { |item| expect(item.name).to eq("x") }',
]
SHARED_WRITES = [
    'ENV["FOO"] = "1"',
    'ENV.delete("HOME")',
    'ENV.store("A", "b")',
    "ENV.clear",
    "$counter = 5",
    "$stdout = StringIO.new",
    "a, $b = 1, 2",
    "@@count += 1",
    "Foo::LIMIT = 3",
    "LIMIT = 3",
    "Foo.level = :debug",
    "Foo::Bar.config[:x] = 1",
    "self.class.calls = 0",
    "cfg = Foo.config\ncfg.timeout = 1",
    "list = Foo::LIST\nlist << 1",
    "Foo::LIST << 1",
    "Foo::LIST.push(1)",
    "Foo.registry.clear",
    "Foo.define_singleton_method(:bar) { 1 }",
    "Foo.class_eval { def x; end }",
    "Foo.send(:remove_const, :X)",
    "Foo.send(name, 1)",
    "send(:require, name)",
    "self.class.send(:define_method, :x) { 1 }",
    "klass = Foo\nklass.include(Bar)",
    # reached through more than one local, or a block's parameter
    "a = Foo::LIST\nb = a\nb << 1",
    'a = ENV\nb = a\nc = b\nc["X"] = "1"',
    "c = nil\nb = c\nc = Foo.config\nb.timeout = 1",
    "x, y = Foo::LIST, 1\nx.push(2)",
    "Foo::LIST.tap { |l| l << 1 }",
    'ENV.then do |env|\n  env.store("A", "b")\nend',
    "a = Foo.config\na.tap { |c| c.level = 1 }",
    "Foo.registry.each { |(k, v)| v.clear }",
    # put back from a local that does not hold what the place held
    "original = $stdin\noriginal = StringIO.new\n"
    "begin\n  $stdin = 2\nensure\n  $stdin = original\nend",
    # put back, but not around the write
    "begin\n  run\nensure\n  $stdin = original\nend\n$stdin = StringIO.new",
    "begin\n  run\nensure\n  $stdin = StringIO.new\nend",
    'begin\n  ENV["A"] = "1"\nensure\n  ENV.delete("B")\nend',
    "begin\n  $stdout = 1\nensure\n  $stdin = original\nend",
    'ENV["A"] = "1"\nrun\nENV.delete("A")',
    'begin\n  ENV["A"] = "1"\nensure\n  ENV.delete("A")\nend',
    "old = $stdout\nbegin\n  $stdin = 1\nensure\n  $stdin = old\nend",
    "original = $stdin\nbegin\n  run\nensure\n  $stdin = original\nend\n$stdin = 2",
    'Foo.public_send("level=", 1)',
    "String.prepend(Loud)",
    "Foo.include(Bar)",
    "Object.const_set(:X, 1)",
    "Foo.instance_variable_set(:@x, 1)",
    'require "mcp/patch"',
    'Dir.chdir("/tmp")',
    "srand(1)",
    "at_exit { puts 1 }",
    "def helper\nend",
    "class Foo\n  def x; end\nend",
    "class << Foo\n  def x; end\nend",
    "def Foo.x\nend",
]
# A new test written as each framework writes one, in an existing
# container of each base, around a body.
NEW_TESTS = {
    ("minitest", "class ToolTest"): "def test_new\n{}\nend",
    ("minitest", "class ToolTest", "block"): 'test "new" do\n{}\nend',
    ("spec", "describe JsonRpcHandler"): 'it "new" do\n{}\nend',
    ("spec", 'context "with a batch"'): 'specify "new" do\n{}\nend',
}


def _indented(body: str) -> str:
    return "\n".join(f"  {line}" for line in body.split("\n"))


@pytest.mark.parametrize("body", OWN_WRITES)
@pytest.mark.parametrize("where", sorted(NEW_TESTS))
def test_a_new_test_writing_only_its_own_state_passes(where: tuple[str, ...], body: str) -> None:
    base, place = where[0], where[1]
    assert _drift(base, _add(base, place, NEW_TESTS[where].format(_indented(body)))) == "ok"


@pytest.mark.parametrize("body", SHARED_WRITES)
@pytest.mark.parametrize("where", sorted(NEW_TESTS))
def test_a_new_test_writing_shared_state_fails(where: tuple[str, ...], body: str) -> None:
    base, place = where[0], where[1]
    head = _add(base, place, NEW_TESTS[where].format(_indented(body)))
    assert _drift(base, head) != "ok", head
    # and it is still a test
    new = [u for u in units(head) if "new" in u.key]
    assert [u.test for u in new] == [True] and new[0].role == COLLECTION


@pytest.mark.parametrize("body", SHARED_WRITES)
def test_a_new_file_whose_test_writes_shared_state_reaches_other_tests(body: str) -> None:
    body = _indented(_indented(body))
    text = f"class NewTest < Minitest::Test\n  def test_x\n{body}\n  end\nend\n"
    found = reaching("test/new_test.rb", units(text))
    assert [u.key for u in found] == ["def NewTest#test_x"], text


def test_a_new_file_reaches_other_tests_only_beyond_its_own_blocks() -> None:
    text = (
        '# frozen_string_literal: true\nrequire "test_helper"\nrequire "webmock"\n\n'
        "class String\n  def blank?\n  end\nend\n\ndef helper\nend\n\n"
        "module MCP\n  class NewTest < Minitest::Test\n    setup { @x = 1 }\n"
        "    include Helpers\n    def test_x\n    end\n  end\nend\n\n"
        'describe "y" do\n  before { @y = 1 }\n  it "z" do\n  end\nend\n'
    )
    text = text.replace(
        'require "webmock"\n',
        'require "webmock"\nrequire "minitest/autorun"\nrequire_relative "../test_helper"\n'
        'require "json"\n',
    )
    found = reaching("test/mcp/new_test.rb", units(text))
    assert [u.key for u in found] == ['require "webmock"', "def String#blank?", "def #helper"]


@pytest.mark.parametrize(
    ("path", "judged"),
    [
        ("test/mcp/tool_test.rb", True),
        ("test/test_tool.rb", True),
        ("spec/models/user_spec.rb", True),
        ("gems/core/test/unit/x_test.rb", True),
        ("test/test_helper.rb", False),
        ("test/instrumentation_test_helper.rb", False),
        ("spec/spec_helper.rb", False),
        ("test/support/fixtures.rb", False),
    ],
)
def test_ruby_test_files_are_test_modules(path: str, judged: bool) -> None:
    assert is_test_module(path) is judged


def test_the_default_tests_globs_name_ruby_tests() -> None:
    from gate.base import globs

    for path in ("lib/mcp/test/x_test.rb", "gems/a/test/test_b.rb", "spec/a_spec.rb"):
        assert globs.matches(path, DEFAULT_TESTS, globs.FOLDED), path


def test_units_for_picks_ruby_by_suffix() -> None:
    found = units_for("test/mcp/tool_test.rb", MINITEST)
    assert found is not None and any(u.key == "def MCP::ToolTest#test_name" for u in found)


# --- end to end -------------------------------------------------------------


def test_the_rule_judges_a_ruby_test_file_statement_by_statement(rubric_repo: RubricRepo) -> None:
    """On a real repository, the held-out shape of modelcontextprotocol/
    ruby-sdk (a `test "..." do` block added to an existing test class)
    passes; its hostile twins (an existing test edited, a new `setup`)
    fail naming the unit; a syntax error is judged as a whole file."""
    path = "test/mcp/tool_test.rb"
    rubric_repo.write_many({path: MINITEST})
    base = rubric_repo.commit("base")
    heads = {}
    rubric_repo.write(path, WELCOME["minitest", "a test block in the existing class"])
    heads["added"] = rubric_repo.commit("a test")
    rubric_repo.write(path, _edit('"hi", @tool', '"ho", @tool', MINITEST))
    heads["edited"] = rubric_repo.commit("an edit")
    rubric_repo.write(path, _add("minitest", "class ToolTest", SHARED["a setup block"]))
    heads["setup"] = rubric_repo.commit("a setup")
    rubric_repo.write(path, MINITEST + "\ndef broken(\n")
    heads["broken"] = rubric_repo.commit("a syntax error")
    got = {
        k: rubric_repo.check(base, h, rubric=DRIFT_RUBRIC).code_and_message()
        for k, h in heads.items()
    }
    assert got["added"][0] == 0, got["added"]
    assert got["edited"][0] == 1
    assert 'test MCP > ToolTest > "#call returns the message" changed' in got["edited"][1]
    assert got["setup"][0] == 1 and "new setup MCP > ToolTest #2" in got["setup"][1]
    assert got["broken"][0] == 1
    assert (
        "judged as a whole file: the head version the ruby grammar finds a syntax error"
        in (got["broken"][1])
    )
