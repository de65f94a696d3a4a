"""Workflow commands, step outputs and the job summary.

The runner obeys `::command::` at the start of a log line and `##[command]`
anywhere in a line.  Text that comes from a pull request (file names, branch
names, titles) is therefore only ever printed between `::stop-commands::TOKEN`
and `::TOKEN::`, with a fresh random token that does not occur in the text,
and with control characters made visible so that it stays on its own lines.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TextIO

ZERO_WIDTH_SPACE = "\u200b"


def escape_data(value: str) -> str:
    """Escape the message part of a workflow command."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """Escape a property value (`title=...`) of a workflow command."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command_line(name: str, message: str, **props: str) -> str:
    """`::name key=value,...::message`, one line whatever the parts hold:
    every property value and the message escaped (`escape_property`,
    `escape_data`: no raw newline, no `::` or `,` that ends a property), and
    `##[` (which the runner obeys anywhere in a line) broken with a
    zero-width space."""
    rendered = ",".join(f"{k}={escape_property(v)}" for k, v in props.items())
    text = f"::{name}{' ' + rendered if rendered else ''}::{escape_data(message)}"
    return text.replace("##[", "##" + ZERO_WIDTH_SPACE + "[")


def new_token(avoid: str = "") -> str:
    """A random token that does not occur in `avoid`."""
    while True:
        token = "gate-" + secrets.token_hex(16)
        if token not in avoid:
            return token


def visible(text: str) -> str:
    """Control characters (newlines included) as visible escapes: one log line stays one."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch == "\t":
            out.append(ch)
        elif code < 32 or code == 127 or 0x80 <= code < 0xA0 or ch in "\u2028\u2029":
            out.append(f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


class Log:
    """Writes the job log: our own workflow commands, and untrusted text fenced
    so that the runner executes none of it."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def line(self, text: str = "") -> None:
        """A line of our own (trusted) text."""
        self.out.write(text + "\n")
        self.out.flush()

    def command(self, name: str, message: str, **props: str) -> None:
        """One workflow command of our own (`command_line`)."""
        self.line(command_line(name, message, **props))

    def error(self, message: str, title: str | None = None) -> None:
        self.command("error", message, **({"title": title} if title else {}))

    def warning(self, message: str, title: str | None = None) -> None:
        self.command("warning", message, **({"title": title} if title else {}))

    def notice(self, message: str, title: str | None = None) -> None:
        self.command("notice", message, **({"title": title} if title else {}))

    def group(self, title: str) -> None:
        self.line(f"::group::{escape_data(title)}")

    def endgroup(self) -> None:
        self.line("::endgroup::")

    def untrusted(self, text: str) -> None:
        """Print text that may contain PR-controlled data, with commands stopped.

        Each line's control characters are made visible (a file name with a
        newline stays on one line); the resume token is random and absent
        from the text, so the text cannot resume command processing.
        """
        lines = [visible(line) for line in text.rstrip("\n").split("\n")]
        body = "\n".join(lines)
        token = new_token(body)
        self.out.write(f"::stop-commands::{token}\n{body}\n::{token}::\n")
        self.out.flush()


def _delimiter(name: str, value: str) -> str:
    while True:
        delim = "ghadelimiter_" + secrets.token_hex(16)
        if delim not in value and delim not in name:
            return delim


def format_output(name: str, value: str) -> str:
    """One `name<<DELIM` entry for GITHUB_OUTPUT; DELIM is random and absent from the value."""
    if not name or "\n" in name or "\r" in name or "<<" in name:
        raise ValueError(f"bad output name {name!r}")
    delim = _delimiter(name, value)
    return f"{name}<<{delim}\n{value}\n{delim}\n"


def write_outputs(path: str | None, outputs: Mapping[str, str]) -> None:
    """Append outputs to the GITHUB_OUTPUT file (nothing when there is none)."""
    if not path:
        return
    with open(path, "a", encoding="utf-8", newline="\n") as fh:
        for name, value in outputs.items():
            fh.write(format_output(name, value))


def append_summary(path: str | None, markdown: str) -> None:
    """Append markdown to the GITHUB_STEP_SUMMARY file (nothing when there is none)."""
    if not path:
        return
    with open(path, "a", encoding="utf-8", newline="\n") as fh:
        fh.write(markdown if markdown.endswith("\n") else markdown + "\n")
