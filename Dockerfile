# The GitHub Action's image: `runs.using: docker` builds this file on the runner.
#
# BASE_IMAGE is pinned by digest (python:3.11-slim-bookworm, multi-arch index).
# CI builds the same file on a machine without a container registry by passing
# a stand-in made from Debian bookworm (.ci/make-base-image.sh); the stand-in
# provides what this file assumes of the base: `python3` with venv, a PATH and
# a CA bundle.  git is installed here only when the base lacks it.
ARG BASE_IMAGE=python:3.11-slim-bookworm@sha256:2e32f7d302adc1c37428355c1e646897c0c53f4fd60b6a551245fb90ee129f91
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/gate/bin:${PATH}

# The gate reads the workspace with the real git binary.  Debian's git follows
# bookworm's security updates, so it is not pinned to one version string.
# The runner mounts the workspace owned by another uid; git refuses such a
# repository unless it is named safe.  Only that one path is trusted.
# hadolint ignore=DL3008
RUN if ! command -v git >/dev/null 2>&1; then \
        apt-get update \
        && apt-get install -y --no-install-recommends git \
        && rm -rf /var/lib/apt/lists/*; \
    fi \
    && git config --system --add safe.directory /github/workspace

# Runtime dependencies and the build backend from the lock, every file pinned
# by hash; then the package itself with the locked setuptools, nothing else
# fetched.  One layer, so removing pip and setuptools (the Action never
# installs or builds anything) really makes the image smaller.
COPY requirements.lock pyproject.toml README* /opt/gate-src/
COPY gate /opt/gate-src/gate
RUN python3 -m venv /opt/gate \
    && pip install --no-cache-dir --require-hashes -r /opt/gate-src/requirements.lock \
    && pip install --no-cache-dir --no-deps --no-build-isolation /opt/gate-src \
    && python3 -m pip uninstall --yes --quiet setuptools pip \
    && rm -rf /opt/gate-src \
    && gate --version

ENTRYPOINT ["gate", "action"]
