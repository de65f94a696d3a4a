"""Whether a patch is a *pure* unified diff (`check_pure`), the second of
`--patch` mode's three steps (`gate.changes.patch` reads, then applies).

A pure patch is git's format or plain `diff -u` and nothing else: prose
before, between or after the files, a markdown fence, a hunk cut short or
with extra lines, an empty file, a structural line ending in a carriage
return (the whole patch went through a CRLF conversion) are refused with
exit 3, because `git apply` silently skips garbage between files and a
skipped line may be half of the change.  The scanner walks every line, and
refuses a file header that says two things at once (`---`/`+++` names
other than its `diff --git` line's, `/dev/null` without the `new file
mode` or `deleted file mode` line that goes with it, or either line over a
file named on both sides, a `diff` command line among its header lines), so
that every reader of the patch sees the same files.  A patch of more than
`HUNK_LIMIT` hunks is too large to judge (exit 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gate.base.errors import GateError, PatchError
from gate.model.change import EMPTY_BLOBS

__all__ = ["HUNK_LIMIT", "check_pure"]

_SHOW_MAX = 80  # characters of an offending line quoted in a message

# --- line shapes -----------------------------------------------------------

_GIT_HEADER = re.compile(rb"^diff --git .+$")
_DIFF_CMD = re.compile(rb"^diff (?:-{1,2}[A-Za-z][A-Za-z0-9=-]* )+\S.*$")  # `diff -ruN a/x b/x`
_EXTENDED = (
    re.compile(rb"^index [0-9a-f]{4,64}\.\.[0-9a-f]{4,64}(?: [0-7]{6})?$"),
    re.compile(rb"^(?:old|new) mode [0-7]{6}$"),
    re.compile(rb"^(?:deleted|new) file mode [0-7]{6}$"),
    re.compile(rb"^(?:dis)?similarity index \d{1,3}%$"),
    re.compile(rb"^(?:rename|copy) (?:from|to) .+$"),
)
_INDEX = re.compile(rb"^index ([0-9a-f]+)\.\.([0-9a-f]+)")
_NEW_MODE = b"new file mode "
_DELETED_MODE = b"deleted file mode "
_OLD_FILE = re.compile(rb"^--- .+$")
_NEW_FILE = re.compile(rb"^\+\+\+ .+$")
# A hunk's line count longer than this is no real diff (and past 4300 digits
# Python refuses to convert it at all).
_COUNT_DIGITS = 19
_SPACE, _NEWLINE, _MINUS, _PLUS, _BACKSLASH = b" \n-+\\"  # a hunk line's first byte
_BLOCK = 1 << 16  # bytes of a hunk's body counted at once (`_Scanner._skip_body`)
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(?: .*)?$")
_BINARY_DIFFER = re.compile(rb"^Binary files .+ differ$")
_BINARY_START = b"GIT binary patch"
_BINARY_HUNK = re.compile(rb"^(?:literal|delta) \d+$")
_BASE85 = re.compile(rb"^[A-Za-z][0-9A-Za-z!#$%&()*+;<=>?@^_`{|}~-]+$")
_DEV_NULL = b"/dev/null"
_FENCE = re.compile(rb"^\s*(?:```|~~~)")

# A file section whose `index` line names only these blobs needs no hunk
# (a new or deleted empty file).  Prefixes of the empty blob, SHA-1 and SHA-256.
_EMPTY_BLOBS = tuple(name.encode("ascii") for name in EMPTY_BLOBS)


def _no_content(blob: bytes) -> bool:
    return set(blob) == {ord("0")} or any(e.startswith(blob) for e in _EMPTY_BLOBS)


# The most hunks a patch may have.  `git apply` rebuilds the whole file
# (its bytes and its table of lines) for every hunk it applies, so its time
# grows with hunks times the length of the file they patch: 10,000 hunks on a
# 1,000,000-line file take it 33 s (docs/development.md, "The git layer's
# figures"; bench/bench_hostile.py too-many-hunks).
# Splitting the hunks over several sections of one file, or over a chain of
# renames, does not help (every section patches the same lines), so the cap
# is on the whole patch, and past it the gate refuses before git runs.  A
# writer's patch for one task has tens or hundreds of hunks; a change this
# big is judged from commits (git mode runs no `git apply`).
HUNK_LIMIT = 10_000


def _too_many_hunks(name: str, lineno: int) -> GateError:
    """The error (exit 2: too large to judge) for the hunk past `HUNK_LIMIT`."""
    return GateError(
        f"{name}:{lineno}: the patch has more than {HUNK_LIMIT:,} hunks, too many to judge "
        "(git apply's time grows with hunks times the length of the file they patch): "
        "split it, or commit the change and judge it with gate check --base REV --head REV"
    )


# --- 2. purity -------------------------------------------------------------


def _show(line: bytes) -> str:
    """The line as a repr: control characters, CR and non-UTF-8 bytes visible."""
    text = line.decode("utf-8", errors="backslashreplace")
    if len(text) > _SHOW_MAX:
        text = text[:_SHOW_MAX] + "…"
    return repr(text)


@dataclass
class _Hunk:
    line: int  # where its `@@` header is
    old: int  # lines it promised on the old side
    new: int
    got_old: int = 0
    got_new: int = 0

    @property
    def complete(self) -> bool:
        return self.got_old == self.old and self.got_new == self.new

    def promised(self) -> str:
        return (
            f"the hunk at line {self.line} promised {self.old} old and {self.new} new lines "
            f"but has {self.got_old} and {self.got_new}"
        )


@dataclass
class _Section:
    """One file of the patch, for the checks made when it ends."""

    line: int
    git: bool
    header: bytes = b""  # its `diff --git` line
    has_header: bool = False  # any extended header line
    needs_content: bool = False  # an `index` line with real blobs
    has_content: bool = False  # hunks or a binary patch
    new_file: bool = False  # a `new file mode` line
    deleted_file: bool = False  # a `deleted file mode` line


class _Lines:
    """The lines of a patch (without their newlines), found in its bytes as the
    scanner asks for them: no list of millions of line objects.

    `data` ends with a newline.  The scanner reads forward with a few lines
    of lookahead; the last `_WINDOW` lines found are remembered, and a line
    further back (only an error message asks for one) is found again from
    the start."""

    _WINDOW = 16

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.count = data.count(b"\n")
        self._next = 0  # the next line to find ...
        self._at = 0  # ... starts here
        self._spans: dict[int, tuple[int, int]] = {}

    def __len__(self) -> int:
        return self.count

    def span(self, i: int) -> tuple[int, int]:
        """(start, end) offsets of line i (end: its newline)."""
        found = self._spans.get(i)
        if found is not None:
            return found
        if i < self._next:
            self.seek(0, 0)
        if not 0 <= i < self.count:
            raise IndexError(i)
        data, spans = self.data, self._spans
        while self._next <= i:
            end = data.index(b"\n", self._at)
            spans[self._next] = (self._at, end)
            spans.pop(self._next - self._WINDOW, None)
            self._next += 1
            self._at = end + 1
        return spans[i]

    def __getitem__(self, i: int) -> bytes:
        start, end = self.span(i)
        return self.data[start:end]

    def seek(self, i: int, start: int) -> None:
        """Go on from line i, which starts at offset `start`."""
        self._next = i
        self._at = start
        self._spans = {}


class _Scanner:
    """Walk every line of a patch; raise PatchError at the first impure one."""

    def __init__(self, lines: _Lines, name: str) -> None:
        self.lines = lines
        self.name = name
        self.files = 0
        self.hunks = 0
        self.last_hunk: _Hunk | None = None
        self.last_hunk_end = -1  # index of the first line after the last hunk

    def fail(self, lineno: int, why: str) -> PatchError:
        line = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else b""
        return PatchError(
            f"{self.name}:{lineno}: {_show(line)} {why}; "
            "the patch must be a pure unified diff (git diff or diff -u output and nothing else)"
        )

    def stray(self, i: int) -> PatchError:
        """The error for a line (index i) that is no part of a diff."""
        line = self.lines[i]
        lineno = i + 1
        if _FENCE.match(line):
            return self.fail(lineno, "is a markdown fence: strip the fence lines around the diff")
        if line.endswith(b"\r"):
            return self.fail(
                lineno,
                "ends with a carriage return (CRLF line endings): convert the patch to LF "
                "line endings, for example with dos2unix",
            )
        if self.files == 0:
            return self.fail(
                lineno, "comes before the first file header: remove the text before the diff"
            )
        hunk = self.last_hunk
        if hunk is not None and i == self.last_hunk_end and line[:1] in (b" ", b"+", b"-", b""):
            return self.fail(
                lineno,
                f"is past the end of the hunk at line {hunk.line}, which promised {hunk.old} "
                f"old and {hunk.new} new lines: fix the hunk header's counts or remove the line",
            )
        if line.strip() == b"":
            return self.fail(lineno, "is a blank line outside any hunk: remove it")
        return self.fail(lineno, "is not part of any file or hunk: remove the text around the diff")

    def end_section(self, section: _Section | None, lineno: int) -> None:
        if section is None:
            return
        if not section.has_content and section.needs_content:
            raise PatchError(
                f"{self.name}:{lineno - 1}: the patch is truncated: the file at line "
                f"{section.line} has an index line but no hunks; regenerate the complete diff"
            )
        if section.git and not section.has_header and not section.has_content:
            raise PatchError(
                f"{self.name}:{section.line}: {_show(section.header)} starts a "
                "file with no change at all; remove it or regenerate the complete diff"
            )

    def same_names(self, section: _Section, i: int) -> None:
        """The `---`/`+++` names at index i must be the ones the section's
        `diff --git` line names (git writes a tab after a name with a space).
        Otherwise git and other readers disagree on which file the hunks
        change.  And `/dev/null` stands on the `---` line exactly when the
        section says `new file mode`, on the `+++` line exactly when it says
        `deleted file mode`: otherwise readers disagree on whether the file
        is created, deleted or changed."""
        header = section.header[len(b"diff --git ") :]
        old = self.lines[i][4:].removesuffix(b"\t")
        new = self.lines[i + 1][4:].removesuffix(b"\t")
        if (old != _DEV_NULL and not header.startswith(old + b" ")) or (
            new != _DEV_NULL and not header.endswith(b" " + new)
        ):
            raise self.fail(
                i + 1,
                "names, with the '+++' line after it, other files than the 'diff --git' line "
                f"at line {section.line}: regenerate the diff with git diff",
            )
        for at, named, said, mode in (
            (i, old, section.new_file, "new file mode"),
            (i + 1, new, section.deleted_file, "deleted file mode"),
        ):
            if (named == _DEV_NULL) != said:
                what = "names /dev/null without" if said is False else "names a file despite"
                raise self.fail(
                    at + 1,
                    f"{what} a '{mode}' line in the file the 'diff --git' line at line "
                    f"{section.line} starts: regenerate the diff with git diff",
                )

    def run(self) -> int:
        lines = self.lines
        n = len(lines)
        i = 0  # index of the line being read; its number is i + 1
        section: _Section | None = None
        hunk_ok = False  # an `@@` may come next: right after `+++` or a hunk
        while i < n:
            line = lines[i]
            lineno = i + 1
            if line.endswith(b"\r"):
                raise self.stray(i)  # CRLF on a structural line
            m = _HUNK.match(line) if line[:2] == b"@@" else None  # first: the commonest
            if m:
                if section is None or not hunk_ok:
                    raise self.fail(lineno, "is a hunk without a '---'/'+++' file header")
                section.has_content = True
                i = self._hunk(i, m)
                continue
            if _GIT_HEADER.match(line):
                self.end_section(section, lineno)
                section = _Section(line=lineno, git=True, header=line)
                self.files += 1
                hunk_ok = False
                i += 1
                while (
                    i < n
                    and not lines[i].endswith(b"\r")
                    and any(p.match(lines[i]) for p in _EXTENDED)
                ):
                    section.has_header = True
                    section.new_file |= lines[i].startswith(_NEW_MODE)
                    section.deleted_file |= lines[i].startswith(_DELETED_MODE)
                    m = _INDEX.match(lines[i])
                    if m and not (_no_content(m.group(1)) and _no_content(m.group(2))):
                        section.needs_content = True
                    i += 1
                continue
            if _DIFF_CMD.match(line) and i + 1 < n and _OLD_FILE.match(lines[i + 1]):
                # `diff -ruN a/x b/x` before a plain file header
                if section is not None and section.git and not section.has_content:
                    raise self.fail(
                        lineno,
                        f"is a 'diff' command line inside the file the 'diff --git' line at "
                        f"line {section.line} starts, before its hunks, so readers disagree on "
                        "where that file ends: regenerate the diff with git diff",
                    )
                self.end_section(section, lineno)
                section = None
                hunk_ok = False
                i += 1
                continue
            if _OLD_FILE.match(line):
                if i + 1 >= n:
                    raise PatchError(
                        f"{self.name}:{lineno}: the patch is truncated after the '---' "
                        "header: no '+++' header follows; regenerate the complete diff"
                    )
                if lines[i + 1].endswith(b"\r"):
                    raise self.stray(i + 1)
                if not _NEW_FILE.match(lines[i + 1]):
                    raise self.fail(i + 2, "follows a '---' header where a '+++' header must be")
                if section is None or not section.git or section.has_content:
                    self.end_section(section, lineno)
                    section = _Section(line=lineno, git=False)
                    self.files += 1
                else:
                    self.same_names(section, i)
                i += 2
                if i >= n:
                    raise PatchError(
                        f"{self.name}:{i}: the patch is truncated after the '+++' header: "
                        "no hunk follows; regenerate the complete diff"
                    )
                if not _HUNK.match(lines[i]) or lines[i].endswith(b"\r"):
                    if lines[i].endswith(b"\r"):
                        raise self.stray(i)
                    raise self.fail(i + 1, "follows a '+++' header where an '@@' hunk must be")
                hunk_ok = True
                continue
            if _BINARY_DIFFER.match(line):
                if section is None or section.has_content:
                    self.end_section(section, lineno)
                    section = _Section(line=lineno, git=False)
                    self.files += 1
                section.has_content = True
                hunk_ok = False
                i += 1
                continue
            if line == _BINARY_START:
                if section is None or not section.git or section.has_content:
                    raise self.fail(lineno, "is a binary patch without a 'diff --git' header")
                section.has_content = True
                hunk_ok = False
                i = self._binary(i + 1)
                continue
            raise self.stray(i)
        self.end_section(section, n + 1)
        return self.files

    def _hunk(self, i: int, m: re.Match[bytes]) -> int:
        """Read the hunk whose header is at index i; return the index after it."""
        for count in (m.group(2), m.group(4)):
            if count is not None and len(count) > _COUNT_DIGITS:
                raise self.fail(
                    i + 1,
                    f"is a hunk header whose line count has {len(count)} digits; "
                    "no diff is that long, regenerate it",
                )
        self.hunks += 1
        if self.hunks > HUNK_LIMIT:
            raise _too_many_hunks(self.name, i + 1)
        _, old_count, _, new_count = m.groups()
        hunk = _Hunk(
            line=i + 1,
            old=int(old_count) if old_count is not None else 1,
            new=int(new_count) if new_count is not None else 1,
        )
        lines = self.lines
        count = lines.count
        data = lines.data
        at = lines.span(i)[1] + 1  # the header's newline, then the first body line
        i += 1
        if i < count and hunk.old + hunk.new > _BLOCK:
            i = self._skip_body(hunk, i)
            at = lines.span(i)[0]
        # The walk, on offsets into the patch's bytes (line i starts at `at`).
        got_old, got_new, old, new = hunk.got_old, hunk.got_new, hunk.old, hunk.new
        first = hunk.line  # index of the first body line
        while got_old < old or got_new < new:
            if i >= count:
                hunk.got_old, hunk.got_new = got_old, got_new
                raise PatchError(
                    f"{self.name}:{count}: the patch is truncated at line {count}: "
                    f"{hunk.promised()}; regenerate the complete diff"
                )
            kind = data[at]
            if kind in (_SPACE, _NEWLINE) and got_old < old and got_new < new:
                got_old += 1
                got_new += 1
            elif kind == _MINUS and got_old < old:
                got_old += 1
            elif kind == _PLUS and got_new < new:
                got_new += 1
            elif kind == _BACKSLASH and data.startswith(b"\\ ", at) and i > first:
                pass  # "\ No newline at end of file" after a body line
            else:
                hunk.got_old, hunk.got_new = got_old, got_new
                lines.seek(i, at)
                if kind in (_SPACE, _NEWLINE, _MINUS, _PLUS):
                    raise self.fail(i + 1, f"does not fit: {hunk.promised()} so far")
                raise self.fail(
                    i + 1, f"cuts the hunk short (the patch looks truncated): {hunk.promised()}"
                )
            at = data.index(b"\n", at) + 1
            i += 1
        hunk.got_old, hunk.got_new = got_old, got_new
        if i < count and data.startswith(b"\\ ", at):
            at = data.index(b"\n", at) + 1
            i += 1  # the marker after the hunk's last line
        lines.seek(i, at)
        self.last_hunk = hunk
        self.last_hunk_end = i
        return i

    def _skip_body(self, hunk: _Hunk, i: int) -> int:
        """Count a long hunk's body lines (it promises over `_BLOCK`) from
        index i a block of about 64 kB at a time (C-speed `bytes.count`, no
        line objects) while a block is plainly inside the hunk: every line a
        context, `-`, `+` or `\\ ` line, and the hunk still short of its
        promise after the block.  The line-by-line walk in `_hunk` judges the
        first line, the block where the hunk ends or anything looks wrong,
        and the rest; it gives the same verdict on every input, only slower
        (bench/bench_hostile.py tiny-lines measures both)."""
        data = self.lines.data
        size = len(data)
        if data.startswith(b"\\", self.lines.span(i)[0]):
            return i  # a marker first (which may not start a hunk): the walk's
        start = self.lines.span(i)[0]
        # A block holds at most _BLOCK // 2 lines, each adding at most 2 to
        # the counts: only a hunk still that far from its promise tries one,
        # so every block read is mostly skipped and the work stays linear.
        while (hunk.old - hunk.got_old) + (hunk.new - hunk.got_new) > _BLOCK:
            end = data.find(b"\n", min(start + _BLOCK, size - 1)) + 1
            if end == 0 or end >= size:
                break  # the patch's last block is the walk's
            total = data.count(b"\n", start, end)
            context = data.count(b"\n ", start - 1, end - 1)
            minus = data.count(b"\n-", start - 1, end - 1)
            plus = data.count(b"\n+", start - 1, end - 1)
            markers = data.count(b"\n\\ ", start - 1, end - 1)
            got_old = hunk.got_old + context + minus
            got_new = hunk.got_new + context + plus
            if (
                context + minus + plus + markers != total
                or got_old > hunk.old
                or got_new > hunk.new
                or (got_old == hunk.old and got_new == hunk.new)
            ):
                break  # something to judge line by line in this block (an empty
                # line is none of the kinds counted, so it lands here too)
            hunk.got_old, hunk.got_new = got_old, got_new
            i += total
            start = end
        self.lines.seek(i, start)
        return i

    def _binary(self, i: int) -> int:
        """Read `literal N`/`delta N` blocks from index i, each ended by a blank line."""
        lines = self.lines
        blocks = 0
        while i < len(lines) and _BINARY_HUNK.match(lines[i]):
            blocks += 1
            i += 1
            while i < len(lines) and lines[i] != b"":
                data = lines[i]
                if not _BASE85.match(data) or not _base85_length_ok(data):
                    raise self.fail(i + 1, "is not a line of a git binary patch")
                i += 1
            if i >= len(lines):
                raise PatchError(
                    f"{self.name}:{len(lines)}: the patch is truncated inside the binary patch "
                    "(no blank line ends it); regenerate it with git diff --binary"
                )
            i += 1  # the blank line
        if blocks == 0:
            raise self.fail(i + 1, "follows 'GIT binary patch' where 'literal N' must be")
        return i


def _base85_length_ok(data: bytes) -> bool:
    """A binary line starts with its byte count (A-Z 1-26, a-z 27-52), then 5 chars per 4 bytes."""
    c = data[0]
    count = c - ord("A") + 1 if ord("A") <= c <= ord("Z") else c - ord("a") + 27
    return len(data) - 1 == (count + 3) // 4 * 5


def _lines(data: bytes, name: str) -> _Lines:
    if not data.strip():
        raise PatchError(f"{name}: the patch is empty; pass a unified diff (git diff output)")
    if not data.endswith(b"\n"):
        last = data.count(b"\n") + 1
        tail = data.rsplit(b"\n", 1)[-1]
        raise PatchError(
            f"{name}:{last}: {_show(tail)} has no newline at the end: the patch looks "
            "truncated; end the file with a newline or regenerate the complete diff"
        )
    return _Lines(data)


def check_pure(data: bytes, name: str) -> None:
    """Refuse (PatchError, exit 3) anything but a pure unified diff with at
    least one file, and (GateError, exit 2) a patch of over `HUNK_LIMIT` hunks.

    Memory beyond the patch's own bytes stays small: the scanner finds lines
    in the bytes as it goes, and counts long hunk bodies in blocks."""
    files = _Scanner(_lines(data, name), name).run()
    if files == 0:
        raise PatchError(
            f"{name}: the patch changes no file; pass a unified diff (git diff output)"
        )
