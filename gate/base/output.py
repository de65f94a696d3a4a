"""Everything the command line prints goes through here: one path, one fence.

Outside a workflow, text goes out as it is (reports already escape what a
change controls).  Inside GitHub Actions (`GITHUB_ACTIONS=true`) the runner
obeys workflow commands (`::error::`, `::add-mask::`, `##[...]`) in any line a
step prints, and the gate's output echoes file names, patch lines and
messages a pull request controls.  So there:

- **stdout, text and markdown** is fenced: `::stop-commands::TOKEN` before
  the first byte, `::TOKEN::` when the command ends, with a fresh random
  token the text cannot guess;
- **stdout, `--format github`** is not fenced: it is workflow commands,
  each line built escaped (`gate.report.annotations`);
- **stdout, JSON** (and SARIF) is not fenced (a workflow pipes it into a file or `jq`);
  it is safe by construction, because `gate.base.jsontext.dumps` writes `##[` as
  `\\u0023#[` and no JSON line can start with `::`;
- **stderr** (error sentences, tracebacks under `GATE_DEBUG=1`, progress) is
  made inert line by line instead of fenced: control characters visible, each
  line starting with `gate:`, and `##[` broken.  Two fences on two streams
  could resume each other (the runner reads stdout and stderr as they come),
  so stderr needs no fence of its own.

`cli.main` calls `start` and `finish`; commands call `write` (stdout) and
never `print`; `cli.main` reports errors with `error`.  A test checks that no
module under `gate/` outside this one (and the Action's own log,
`gate.base.workflow.Log`) writes to `sys.stdout` or `sys.stderr`.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Mapping

# Formats printed without a fence: JSON and SARIF (safe by construction,
# see below) and `github`, whose workflow commands are the point and whose
# every line `gate.report.annotations` builds escaped.
UNFENCED = ("json", "sarif", "github")

# Invisible, and breaks the runner's `##[command]` syntax.
_ZERO_WIDTH_SPACE = "\u200b"


class _State:
    def __init__(self) -> None:
        self.in_workflow = False
        self.fence_stdout = False
        self.token: str | None = None  # set once the stdout fence is open
        self.line_open = False  # stdout's last byte was not a newline


_state = _State()


def start(environ: Mapping[str, str], fmt: str | None) -> None:
    """Begin a command's output.  `fmt` is its report format (`json` is never
    fenced); None for a command without one.  Python's parser warnings are
    not printed (unless `GATE_DEBUG=1`): they would reach stderr past this
    module, and they are about the text a run judges (a `SyntaxWarning` for
    `1if x else 2`, a `DeprecationWarning` for an invalid escape in a test
    file), not about the gate."""
    if environ.get("GATE_DEBUG") != "1":
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
    _state.in_workflow = environ.get("GITHUB_ACTIONS") == "true"
    _state.fence_stdout = _state.in_workflow and fmt not in UNFENCED
    _state.token = None
    _state.line_open = False


def finish() -> None:
    """Close the stdout fence, if one was opened (on a line of its own)."""
    if _state.token is not None:
        _raw_stdout(("\n" if _state.line_open else "") + f"::{_state.token}::\n")
        _state.token = None


def _raw_stdout(text: str) -> None:
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:  # a terminal that cannot show a path gets escapes, not a crash
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode(sys.stdout.encoding or "utf-8", "backslashreplace"))
    sys.stdout.flush()


def write(text: str) -> None:
    """Report text to stdout (fenced inside a workflow unless it is JSON)."""
    if not text:
        return
    if _state.fence_stdout and _state.token is None:
        from gate.base.workflow import new_token  # stdlib only: no network stack

        _state.token = new_token()
        _raw_stdout(f"::stop-commands::{_state.token}\n")
    _raw_stdout(text)
    _state.line_open = not text.endswith("\n")


def inert(line: str) -> str:
    """One stderr line that no CI runner reads as a command."""
    from gate.base.workflow import visible

    text = visible(line).replace("##[", "##" + _ZERO_WIDTH_SPACE + "[")
    return text if text.startswith("gate:") else "gate: " + text


def note(text: str, *, end: str = "\n") -> None:
    """Text for people on stderr (progress, tracebacks); inert inside a workflow."""
    if _state.in_workflow:
        text = "\n".join(inert(line) for line in (text + end).rstrip("\n").split("\n"))
        end = "\n"
    try:
        sys.stderr.write(text + end)
        sys.stderr.flush()
    except (OSError, ValueError, UnicodeEncodeError):
        pass  # stderr is gone or cannot encode: the exit code still carries the result


def relay(line: str, *, stderr: bool) -> None:
    """One line another program printed (the tests `gate frozen-tests`
    runs), passed through: stdout as report text (fenced inside a
    workflow), stderr as it is outside a workflow and, inside one, with
    nothing a runner reads as a command (`##[` broken, a leading `::`
    shifted), but no `gate:` prefix: it is not the gate's text."""
    if not stderr:
        write(line)
        return
    if _state.in_workflow:
        line = line.replace("##[", "##" + _ZERO_WIDTH_SPACE + "[")
        if line.lstrip().startswith("::"):
            line = _ZERO_WIDTH_SPACE + line
    try:
        sys.stderr.write(line)
        sys.stderr.flush()
    except (OSError, ValueError, UnicodeEncodeError):
        pass


def error(message: str) -> None:
    """`gate: error: MESSAGE` on stderr: the one sentence of a failed command."""
    note(f"gate: error: {message}")
