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

# Runtime dependencies and the build backend, every file pinned by hash.
COPY requirements.lock /opt/gate-src/requirements.lock
RUN python3 -m venv /opt/gate \
    && pip install --no-cache-dir --require-hashes -r /opt/gate-src/requirements.lock

# The package itself, built with the locked setuptools and nothing fetched.
COPY pyproject.toml README* /opt/gate-src/
COPY gate /opt/gate-src/gate
# The build backend is then removed: the Action never builds anything.
RUN pip install --no-cache-dir --no-deps --no-build-isolation /opt/gate-src \
    && pip uninstall --yes setuptools \
    && rm -rf /opt/gate-src \
    && gate --version

ENTRYPOINT ["gate", "action"]
