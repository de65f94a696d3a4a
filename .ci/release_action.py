"""Write the release's action.yml: the same Action, run from a prebuilt image pinned by digest.

    python .ci/release_action.py --image ghcr.io/OWNER/blast-radius-gate@sha256:<64 hex> \\
        [--action action.yml] [--output action.yml]

On main, action.yml says `runs: {using: docker, image: Dockerfile}`: GitHub
builds the image on every job (`uses: ./` in this repository's own CI keeps
doing that).  A release commit says `image: docker://<registry>/<name>@sha256:<digest>`
instead, so a job only pulls the image the release workflow built, tested and
attested (.github/workflows/release.yml).  Only that one line changes; the
result is parsed again and must equal the input in everything but
`runs.image`.  A reference that is not pinned by a sha256 digest (a tag, a
short or upper-case digest) is refused: a tag can be moved after the release.

Exit 0 when the file was written; 2, with one sentence on stderr, when not.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import yaml

# A registry host (with an optional port) and a lower-case repository path,
# then @sha256: and 64 lower-case hex digits (the OCI reference grammar,
# restricted to a host-qualified name and a sha256 digest).
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_HOST = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*"
PINNED = re.compile(
    rf"\A(?P<host>{_HOST}(?::[0-9]+)?)(?P<path>(?:/{_COMPONENT})+)@sha256:(?P<digest>[0-9a-f]{{64}})\Z"
)
# The `image:` line of `runs:` in action.yml, as main has it.
_IMAGE_LINE = re.compile(r"(?m)^(?P<indent>[ \t]+)image:[ \t]*(?P<value>\S.*?)[ \t]*$")


class ReleaseError(Exception):
    """One sentence: what is wrong and how to fix it."""


def pinned_reference(reference: str) -> str:
    """`reference` if it names an image by registry host, path and sha256 digest;
    else ReleaseError.  A host has a dot or a port (or is localhost), as Docker
    tells a registry from a Docker Hub namespace."""
    found = PINNED.match(reference)
    host = found.group("host") if found else ""
    if not found or not ("." in host or ":" in host or host == "localhost"):
        raise ReleaseError(
            f"image {reference!r} is not <registry>/<lower-case name>@sha256:<64 lower-case "
            "hex digits>; give the digest the release workflow pushed "
            "(docker/build-push-action's digest output), never a tag"
        )
    return reference


def with_image(action_yml: str, image: str) -> str:
    """action.yml's text with its `runs.image` replaced by `image` (one line changed,
    comments and layout kept).  The input must run `image: Dockerfile`."""
    data = _load(action_yml, "action.yml")
    runs = data.get("runs")
    if not isinstance(runs, dict) or runs.get("using") != "docker":
        raise ReleaseError("action.yml does not say `runs: using: docker`; nothing to pin")
    if runs.get("image") != "Dockerfile":
        raise ReleaseError(
            f"action.yml runs image {runs.get('image')!r}, not Dockerfile: "
            "write the release from main's action.yml"
        )
    matches = [m for m in _IMAGE_LINE.finditer(action_yml) if m.group("value") == "Dockerfile"]
    if len(matches) != 1:
        raise ReleaseError(
            "action.yml must have exactly one `image: Dockerfile` line (under runs:)"
        )
    found = matches[0]
    line = f"{found.group('indent')}image: {image}"
    text = action_yml[: found.start()] + line + action_yml[found.end() :]
    after = _load(text, "the written action.yml")
    expected = dict(data)
    expected["runs"] = {**runs, "image": image}
    if after != expected:
        raise ReleaseError("replacing the image line changed more than runs.image; not written")
    return text


def release_action(action_yml: str, reference: str) -> str:
    """The release's action.yml: main's, running `docker://<reference>`."""
    return with_image(action_yml, "docker://" + pinned_reference(reference))


def _load(text: str, name: str) -> dict[str, Any]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ReleaseError(f"{name} is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ReleaseError(f"{name} is not a YAML mapping")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image", required=True, help="REGISTRY/NAME@sha256:DIGEST")
    parser.add_argument("--action", default="action.yml", type=Path, help="main's action.yml")
    parser.add_argument("--output", type=Path, help="where to write (default: --action)")
    args = parser.parse_args(argv)
    try:
        text = args.action.read_text(encoding="utf-8")
        written = release_action(text, args.image)
        (args.output or args.action).write_text(written, encoding="utf-8")
    except ReleaseError as exc:
        print(f"release_action: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            f"release_action: cannot read or write {exc.filename}: {exc.strerror}", file=sys.stderr
        )
        return 2
    print(f"{args.output or args.action}: runs.image = docker://{args.image}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
