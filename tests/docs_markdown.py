"""Reading the project's markdown as the docs tests need it: fenced blocks with
their `docs-test` directives, headings as GitHub anchors them, and links.

The docs-test markup, in HTML comments (GitHub does not show them):

    <!-- docs-test: skip: REASON -->   the next sh/console block is not run, for REASON
    <!-- docs-test: fixture NAME -->   later blocks run in a fresh sandbox made by NAME
    <!-- docs-test: file PATH -->      the next fenced block is written to PATH first
    <!-- docs-test: setup
    shell lines -->                    hidden commands, run in the sandbox (exit 0)

A ```sh block must exit 0 (run with `bash -euo pipefail`).  A ```console block
is `$ command` lines, each followed by its expected output (stdout and stderr
as a terminal shows them): a line that is only `...` stands for any lines,
`...` inside a line for any text, and a last line `[N]` for exit status N
(none: 0).  A command `cd DIR` (no output, status 0) moves the later
commands of the section into DIR, as it moves the reader's shell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHELL = ("sh", "console")
# Other names for a shell block: refused, so no command escapes the runner.
OTHER_SHELLS = ("bash", "shell", "shell-session", "zsh", "terminal", "shellsession")

_DIRECTIVE = re.compile(r"<!--\s*docs-test:\s*(?P<body>.*?)\s*-->", re.DOTALL)
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<lang>[^`\s]*)\s*$")


def doc_files() -> list[Path]:
    """README.md and every page under docs/: what a reader can find."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def rel(path: Path) -> str:
    """A page's name as messages show it: relative to the repository."""
    return path.relative_to(ROOT).as_posix() if ROOT in path.parents else str(path)


@dataclass
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    skip: str | None = None
    file: str | None = None  # docs-test: file PATH

    @property
    def where(self) -> str:
        return f"{rel(self.path)}:{self.line}"


@dataclass
class Step:
    """One thing a sandbox does, in document order."""

    kind: str  # "fixture", "setup", "block"
    line: int
    value: str = ""
    block: Block | None = None


@dataclass
class Doc:
    path: Path
    text: str
    blocks: list[Block] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    prose: str = ""  # the text outside fenced blocks and comments


def parse(path: Path) -> Doc:
    text = path.read_text(encoding="utf-8")
    doc = Doc(path, text)
    lines = text.split("\n")
    pending_skip: str | None = None
    pending_file: str | None = None
    prose: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if line.lstrip().startswith("<!--"):
            start = i
            chunk = line
            while "-->" not in chunk and i + 1 < len(lines):
                i += 1
                chunk += "\n" + lines[i]
            found = _DIRECTIVE.search(chunk)
            if found:
                body = found.group("body")
                where = f"{rel(path)}:{start + 1}"
                name, _, rest = body.partition("\n") if body.startswith("setup") else (body, "", "")
                if body.startswith("setup"):
                    if name.strip() != "setup" or not rest.strip():
                        doc.problems.append(f"{where}: setup takes shell lines on the next lines")
                    doc.steps.append(Step("setup", start + 1, rest))
                elif body.startswith("skip:"):
                    pending_skip = body[len("skip:") :].strip()
                    if not pending_skip:
                        doc.problems.append(f"{where}: skip needs a reason")
                elif body.startswith("fixture "):
                    doc.steps.append(Step("fixture", start + 1, body[len("fixture ") :].strip()))
                elif body.startswith("file "):
                    pending_file = body[len("file ") :].strip()
                else:
                    doc.problems.append(f"{where}: unknown docs-test directive {body!r}")
            i += 1
            continue
        if fence:
            indent, opener = fence.group("indent"), fence.group("fence")
            lang = fence.group("lang")
            start = i
            body_lines = []
            i += 1
            while i < len(lines) and lines[i].strip() != opener:
                line = lines[i]
                body_lines.append(line[len(indent) :] if line.startswith(indent) else line)
                i += 1
            if i == len(lines):
                doc.problems.append(f"{rel(path)}:{start + 1}: fence never closed")
            block = Block(path, start + 1, lang, "\n".join(body_lines) + "\n")
            block.skip, block.file = pending_skip, pending_file
            where = block.where
            if pending_skip is not None and lang not in SHELL:
                doc.problems.append(f"{where}: skip applies only to sh and console blocks")
            if lang in OTHER_SHELLS:
                doc.problems.append(f"{where}: write ```sh or ```console, not ```{lang}")
            if lang not in SHELL and re.search(r"^\$ ", block.text, re.MULTILINE):
                doc.problems.append(f"{where}: a `$ command` outside a console block")
            pending_skip = pending_file = None
            doc.blocks.append(block)
            if lang in SHELL or block.file is not None:
                doc.steps.append(Step("block", start + 1, block=block))
            i += 1
            continue
        prose.append(line)
        i += 1
    if pending_skip is not None or pending_file is not None:
        doc.problems.append(f"{rel(path)}: a docs-test directive with no block after it")
    doc.prose = "\n".join(prose)
    return doc


# --- console blocks -----------------------------------------------------------


@dataclass
class Command:
    line: int
    command: str
    expected: list[str]
    status: int


def commands(block: Block) -> list[Command]:
    """The `$ command` lines of a console block with their expected output."""
    out: list[Command] = []
    lines = block.text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"{block.where}: console output before any `$ command`")
        start = i
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + "\n" + lines[i]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        status = 0
        if expected and re.fullmatch(r"\[\d+\]", expected[-1]):
            status = int(expected.pop()[1:-1])
        out.append(Command(block.line + 1 + start, command, expected, status))
    return out


def expected_pattern(expected: list[str]) -> re.Pattern[str]:
    """`...` alone on a line: any lines (none too); `...` in a line: any text."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = line.rstrip().split("...")
            parts.append("[^\n]*?".join(re.escape(p) for p in pieces) + r"[ \t]*\n")
    return re.compile("".join(parts))


def _trimmed(lines: list[str]) -> list[str]:
    """Lines without trailing blanks, and without blank lines at the end."""
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def output_matches(expected: list[str], actual: str) -> bool:
    text = "".join(line + "\n" for line in _trimmed(actual.split("\n")))
    return expected_pattern(_trimmed(expected)).fullmatch(text) is not None


# --- headings and links --------------------------------------------------------


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: link text kept, lower case, punctuation
    dropped (letters, digits, `_`, `-` and spaces stay), spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(doc: Doc) -> set[str]:
    """Every heading's anchor, with GitHub's -1, -2 suffixes for repeats."""
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+?)\s*#*$", doc.prose, flags=re.MULTILINE):
        anchor = github_anchor(heading)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


_LINK = re.compile(r"\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s+(?P<target>\S+)", re.MULTILINE)


def links(doc: Doc) -> list[str]:
    """Link targets in the prose (code blocks and inline code left out)."""
    prose = re.sub(r"`[^`\n]*`", "", doc.prose)
    return [m.group("target") for m in (*_LINK.finditer(prose), *_REFERENCE.finditer(prose))]


def broken_link(doc: Doc, target: str) -> str | None:
    """Why `target` (a link in `doc`) does not resolve, or None."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):
        return None  # https:, mailto:: not ours to check offline
    path_part, _, anchor = target.partition("#")
    dest = (doc.path.parent / path_part).resolve() if path_part else doc.path
    if not dest.exists():
        return f"{target}: no such file"
    root = ROOT if ROOT in doc.path.parents else doc.path.parent
    if root not in dest.parents and dest != root:
        return f"{target}: outside the repository"
    if anchor:
        if dest.suffix != ".md":
            return f"{target}: an anchor into a file that is not markdown"
        if anchor not in anchors(parse(dest)):
            return f"{target}: no heading #{anchor} in {rel(dest)}"
    return None
