"""max_lines `images: one`: a binary file whose every version is a
well-formed image of the format its name claims counts one line per
version; everything else, and every file under the default `images:
lines`, counts as any binary file does (every line of both versions).

Real images built byte by byte (tests/imagebytes.py), committed to real
repositories and judged through the git and the patch builders alike.
"""

from __future__ import annotations

import pytest

from gate.model.change import ChangeSet, FileChange
from tests.imagebytes import EXT, IMAGES, png, twins
from tests.rulecase import Files, RuleCase, edit

CASE = RuleCase("max_lines", id="L", limit=1000)
FORMATS = sorted(IMAGES)
SOURCES = ("git", "patch")


def lines_of(data: bytes) -> int:
    """Every line of `data` as the gate counts a binary file (\\n, \\r\\n or
    \\r end a line; a last line may have no ending), written apart from it."""
    count, pending, i = 0, False, 0
    while i < len(data):
        step = 2 if data[i : i + 2] == b"\r\n" else 1
        if data[i : i + 1] in (b"\r", b"\n"):
            count, pending = count + 1, False
        else:
            pending = True
        i += step
    return count + pending


def totals(change: Files, source: str, **params: object) -> str:
    """The rule's count, as its message starts: "N lines changed (A added, D deleted)"."""
    message = CASE.check(change, source=source, **params).message  # type: ignore[arg-type]
    return message.split("; limit")[0]


def shown(added: int, deleted: int) -> str:
    total = added + deleted
    return f"{total} line{'' if total == 1 else 's'} changed ({added} added, {deleted} deleted)"


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_well_formed_image_counts_one_line_per_version(fmt: str, source: str) -> None:
    """Added: 1 added line; deleted: 1 deleted; modified: 1 + 1; the message says so."""
    old, new = IMAGES[fmt](10), IMAGES[fmt](13)  # a \n and a \r among their bytes
    assert min(lines_of(old), lines_of(new)) > 2  # so one line per version is fewer
    path = "docs/shot" + EXT[fmt]
    for change, counts in (
        (edit(path, None, new), (1, 0)),
        (edit(path, old, None), (0, 1)),
        (edit(path, old, new), (1, 1)),
    ):
        assert totals(change, source, images="one") == shown(*counts)
        result = CASE.check(change, source=source, images="one")  # type: ignore[arg-type]
        assert result.message.endswith("; 1 image counted one line per version")
        whole = (lines_of(new) if counts[0] else 0, lines_of(old) if counts[1] else 0)
        assert totals(change, source) == shown(*whole)  # the default: every line


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_renamed_image_counts_one_line_per_version(fmt: str) -> None:
    """A pure rename counts nothing; a rename with new pixels 1 + 1 (git
    pairs the two names, or sees a deletion and an addition: 1 + 1 either way)."""
    old = IMAGES[fmt](1)
    path, moved = "a" + EXT[fmt], "img/b" + EXT[fmt]
    pure = Files(base={path: old}, head={moved: old})
    assert totals(pure, "git", images="one") == shown(0, 0)
    edited = Files(base={path: old}, head={moved: IMAGES[fmt](2)})
    assert totals(edited, "git", images="one") == shown(1, 1)


def test_a_renamed_and_edited_image_git_pairs_counts_one_line_per_version() -> None:
    """git pairs the two names (the bytes are alike): still 1 + 1, judged by
    the old name's extension on the old side and the new name's on the new."""
    old, new = png(1, extra=b"x" * 400), png(2, extra=b"x" * 400)
    change = Files(base={"a.png": old}, head={"img/b.png": new})
    (f,) = CASE.change(change, images="one").files
    assert (f.status, f.old_path, f.image) == ("renamed", "a.png", True)
    assert totals(change, "git", images="one") == shown(1, 1)
    # renamed to a name that claims another format: the new side is no JPEG
    jpg = Files(base={"a.png": old}, head={"img/b.jpg": new})
    assert totals(jpg, "git", images="one") == shown(lines_of(new), lines_of(old))


def twin_cases() -> list[tuple[str, str, bytes]]:
    """(label, path, bytes): files that look like an image and are not exactly one."""
    cases = [
        (f"{fmt} {label}", "docs/shot" + EXT[fmt], data)
        for fmt in FORMATS
        for label, data in twins(fmt, IMAGES[fmt](1)).items()
    ]
    cases += [
        ("a png named .jpg", "docs/shot.jpg", png(1)),
        ("a gif named .png", "docs/shot.png", IMAGES["gif"](1)),
        ("code with a NUL named .png", "tools/run.png", b"import os\0\nos.system('x')\n" * 3),
        ("a png named .bin", "docs/shot.bin", png(1)),
        ("a png named .svg", "docs/shot.svg", png(1)),
        ("a png with no extension", "docs/shot", png(1)),
    ]
    return cases


@pytest.mark.parametrize(
    ("path", "data"), [c[1:] for c in twin_cases()], ids=[c[0] for c in twin_cases()]
)
def test_hostile_twins_count_every_line(path: str, data: bytes) -> None:
    """Bytes appended after the end (a polyglot's payload), a bad CRC, a cut,
    another format's extension, code with a NUL: every line, as today."""
    assert b"\0" in data[:8000]  # git calls each binary
    added = edit(path, None, data)
    assert totals(added, "git", images="one") == shown(lines_of(data), 0)
    assert totals(added, "patch", images="one") == shown(lines_of(data), 0)
    (f,) = CASE.change(added, images="one").files
    assert not f.image


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_image_with_a_payload_appended_counts_both_versions_whole(fmt: str) -> None:
    """A real image modified into one with a payload after its end: every line
    of both versions, the well-formed old one too (one version not an image
    is enough)."""
    old = IMAGES[fmt](1)
    new = twins(fmt, old)["appended"]
    change = edit("a" + EXT[fmt], old, new)
    assert totals(change, "git", images="one") == shown(lines_of(new), lines_of(old))


def test_an_upper_case_extension_claims_its_format() -> None:
    """`Screenshot.PNG` claims PNG as `.png` does: the bytes decide, not the case."""
    change = edit("docs/Screenshot.PNG", None, png(1)) | edit(
        "docs/Photo.JPEG", None, IMAGES["jpeg"](1)
    )
    assert totals(change, "git", images="one") == shown(2, 0)


def test_images_mix_with_text_and_other_binaries_and_excludes() -> None:
    """Text counts its diff, another binary every line, an image one line per
    version; an excluded image counts nothing; `count: added` counts added
    versions only; over the limit, the image is listed with the others."""
    blob = b"\0blob\n" * 5
    change = (
        edit("a.py", "one\n", "two\nthree\n")
        | edit("data.bin", None, blob)
        | edit("docs/shot.png", png(1), png(2))
        | edit("docs/logo.gif", None, IMAGES["gif"](1))
    )
    assert totals(change, "git", images="one") == shown(2 + 5 + 1 + 1, 1 + 1)
    result = CASE.check(change, images="one", limit=9)
    assert not result.passed
    assert result.message == (
        "11 lines changed (9 added, 2 deleted); limit 9; 1 binary file counted whole, every "
        "old line deleted and every new line added (conservative); "
        "2 images counted one line per version"
    )
    assert list(result.paths) == ["a.py", "data.bin", "docs/logo.gif", "docs/shot.png"]
    assert totals(change, "git", images="one", exclude=["docs/"]) == shown(7, 1)
    added = CASE.check(change, images="one", count="added").message
    assert added.startswith("9 lines added")


def test_the_default_counts_an_image_whole_and_says_nothing_new() -> None:
    """`images: lines` (the default) is today's count and today's message."""
    image = png(1, extra=b"\n" * 40)
    change = edit("shot.png", None, image)
    for params in ({}, {"images": "lines"}):
        result = CASE.check(change, limit=10, **params)  # type: ignore[arg-type]
        assert result.message == (
            f"{lines_of(image)} lines changed ({lines_of(image)} added, 0 deleted); limit 10; "
            "1 binary file counted whole, every old line deleted and every new line added "
            "(conservative)"
        )


def test_sources_without_bytes_count_as_today() -> None:
    """A writer's result.json has no counts: unknown, the rule fails closed
    whatever `images` says; a change set built by counts alone marks no image."""
    unknown = ChangeSet(files=(FileChange("shot.png", added=None, deleted=None),), source="writer")
    result = CASE.check(unknown, images="one")
    assert not result.passed and "carries no line counts" in result.message
    counted = ChangeSet(files=(FileChange("shot.png", added=700, binary=True),))
    assert CASE.check(counted, images="one").message.startswith("700 lines changed")


def test_images_takes_only_lines_or_one() -> None:
    """Any other value is a rubric error (exit 2), naming the rule and the key."""
    from gate.base.errors import GateError

    with pytest.raises(GateError, match="images"):
        CASE.check(edit("a.png", None, png(1)), images="all")
