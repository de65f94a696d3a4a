"""The gate's one error type.

Findings are return values; an exception means the gate could not judge.
`GateError` carries the exit code the CLI returns (2 by default, 3 for a
patch that does not apply) and a message that is one sentence naming the
file, line or rule and what to do about it.
"""

from __future__ import annotations

EXIT_PASS = 0
EXIT_FAIL = 1
EXIT_ERROR = 2
EXIT_PATCH = 3


class GateError(Exception):
    """The gate cannot judge. Printed once by `cli.main`, never as a traceback."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class PatchError(GateError):
    """A `--patch` file is not a pure unified diff or does not apply (exit 3)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, EXIT_PATCH)
