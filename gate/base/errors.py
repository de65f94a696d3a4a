"""The gate's one error type.

Findings are return values; an exception means the gate could not judge.
`GateError` carries the exit code the CLI returns (2 by default, 3 for a
patch that does not apply) and a message that is one sentence naming the
file, line or rule and what to do about it.
"""

from __future__ import annotations

from collections.abc import Mapping

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


# `GATE_DEBUG=1` adds the traceback to an internal error (never to an expected one).
DEBUG_ENV = "GATE_DEBUG"
_DETAIL_LIMIT = 300


def internal_error(exc: BaseException) -> str:
    """The one sentence for an exception the gate did not expect (exit 2); the
    CLI prints it after `gate: error: could not judge: `, the Action's check
    run after `could not judge: `.

    Such an exception is a bug in the gate or an exhausted machine (memory,
    recursion), never a verdict: the caller fails closed with exit 2, so an
    uncaught exception can no longer exit 1 ("a rule failed") or 0.  The
    exception's own text is shown on one line (control characters escaped,
    cut at a few hundred characters): it may echo hostile input.
    """
    from gate.base.escape import printable

    detail = printable(str(exc))
    if len(detail) > _DETAIL_LIMIT:
        detail = detail[: _DETAIL_LIMIT - 3] + "..."
    name = type(exc).__name__
    shown = f"{name}: {detail}" if detail else name
    if isinstance(exc, MemoryError):
        return (
            f"out of memory ({shown}); the input is too large to judge on "
            "this machine, give it more memory or judge a smaller change"
        )
    return (
        f"internal error ({shown}); this is a bug in the gate, please "
        f"report it with the command you ran ({DEBUG_ENV}=1 prints the traceback)"
    )


def debug_enabled(environ: Mapping[str, str]) -> bool:
    """`GATE_DEBUG` set to anything but empty or 0."""
    return environ.get(DEBUG_ENV, "") not in ("", "0")
