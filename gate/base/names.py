"""Public names with no dependencies, cheap to import before any work starts."""

DEFAULT_RUBRIC_PATH = ".github/blast-radius.yml"
DEFAULT_CHECK_NAME = "blast-radius"

# The branch a change merges into, when no --base names it: the first of
# these that resolves to a commit (`gate check`; `gate backtest` walks it).
DEFAULT_BASES = ("origin/HEAD", "main", "master")

# Every built-in rule id starts with it (`gate.rubric-edited`); rubrics may not.
BUILTIN_PREFIX = "gate."

# The tool's name and home in machine-read reports (SARIF's tool.driver).
TOOL_NAME = "Blast Radius Gate"
PROJECT_URL = "https://github.com/blast-radius-gate/blast-radius-gate"

# A rule's level (`level:` in the rubric, every kind): a failed `fail` rule
# fails the change; a failed `warn` rule is reported as warned everywhere and
# fails nothing.  Built-in `gate.*` rules are always `fail`.
FAIL = "fail"
WARN = "warn"
LEVELS = (FAIL, WARN)

# What the scope block of the issue a pull request closes may do to the
# rubric (`scope:` in the rubric; `gate.rubric.task_scope`): not read (the
# default), only add limits, or also replace budgets and relax levels.
SCOPE_NONE = "none"
SCOPE_TIGHTEN = "tighten"
SCOPE_LOOSEN = "loosen"
SCOPE_MODES = (SCOPE_NONE, SCOPE_TIGHTEN, SCOPE_LOOSEN)
