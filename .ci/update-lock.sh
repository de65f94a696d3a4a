#!/usr/bin/env bash
# Regenerate requirements.lock (the Docker image's pinned runtime dependencies,
# the `action` extra's PyGithub included, every file by hash) from
# pyproject.toml with pip-compile.  The image copies
# the pure-Python package into its virtualenv instead of building it, so the
# build backend is not locked.
#   pip install pip-tools && bash .ci/update-lock.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT
# pip-compile builds the project's metadata; do it in a copy so a missing or
# half-written README cannot stop it and nothing is left in the checkout.
cp "$root/pyproject.toml" "$work/"
cp -r "$root/gate" "$work/"
if [[ -f "$root/README.md" ]]; then cp "$root/README.md" "$work/"; else : >"$work/README.md"; fi
cd "$work"
pip-compile --quiet --generate-hashes --strip-extras --extra action \
    --no-emit-index-url --no-emit-find-links --no-emit-trusted-host \
    --output-file=requirements.lock pyproject.toml
cp requirements.lock "$root/requirements.lock"
echo "wrote $root/requirements.lock"
