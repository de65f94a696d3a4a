# The GitHub Action's image: `runs.using: docker` builds this file on the runner
# at the start of every job, so a cold build is what every PR pays.  A release
# publishes the same image prebuilt (.github/workflows/release.yml).
#
# BASE_IMAGE is pinned by digest (python:3.11-slim-bookworm, multi-arch index).
# CI builds the same file on a machine without a container registry by passing
# a stand-in made from Debian bookworm with the official image's apt settings
# and no git (.ci/make-base-image.sh), so this file's whole path runs there.
ARG BASE_IMAGE=python:3.11-slim-bookworm@sha256:2e32f7d302adc1c37428355c1e646897c0c53f4fd60b6a551245fb90ee129f91
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/gate/bin:${PATH}

# One layer, two installs at once (each mostly waits on the network):
#
# git: the gate reads the workspace with the real git binary, Debian's package,
# which follows bookworm's security updates (so no version is pinned).  It is
# installed with the libraries it links that the slim base lacks (libcurl and
# its own, for `git fetch` over https) but without the perl package (perl-base,
# in every Debian image, stays): git depends on it only for scripts the gate
# never runs (git svn, send-email, ...), and it is half the size of git's
# install.  dpkg also leaves out git's server and mail programs (daemon,
# http-backend, shell, http-push, imap-send, scalar, gitweb) and its Perl
# modules: the gate runs git's built-in commands and fetches over https.  One
# `apt-get download` and one dpkg run, because every apt-get run parses the
# package lists again (about a second each).  dpkg's database keeps git's
# unmet dependencies on perl, liberror-perl and git-man; nothing in the image
# runs apt again.  ldd proves that every library git and its https helper
# link is present.  The runner mounts the workspace owned by another uid; git
# refuses such a repository unless it is named safe, so only that one path is
# trusted.
#
# Python: a virtualenv without pip, filled by the base image's pip from the
# lock (the command line's dependencies and the `action` extra, PyGithub: see
# .ci/update-lock.sh), every file pinned by hash (--no-deps: the lock is complete), then
# byte-compiled so no run pays for compiling.
COPY requirements.lock /opt/gate-src/
# hadolint ignore=DL3003,DL3008,DL3013
RUN set -eu; \
    ( apt-get update -qq \
      && mkdir /tmp/debs && cd /tmp/debs \
      && apt-get download -qq git libcurl3-gnutls libbrotli1 libldap-2.5-0 libnghttp2-14 \
           libpsl5 librtmp1 libsasl2-2 libsasl2-modules-db libssh2-1 \
      && dpkg --force-depends \
        --path-exclude='/usr/lib/git-core/git-daemon' \
        --path-exclude='/usr/lib/git-core/git-http-backend' \
        --path-exclude='/usr/lib/git-core/git-http-push' \
        --path-exclude='/usr/lib/git-core/git-imap-send' \
        --path-exclude='/usr/lib/git-core/git-shell' --path-exclude='/usr/bin/git-shell' \
        --path-exclude='/usr/lib/git-core/scalar' --path-exclude='/usr/bin/scalar' \
        --path-exclude='/usr/share/gitweb/*' --path-exclude='/usr/share/perl5/*' \
        --install /tmp/debs/*.deb \
      && cd / && rm -rf /tmp/debs /var/lib/apt/lists/* \
      && git config --system --add safe.directory /github/workspace \
      && ldd /usr/bin/git /usr/lib/git-core/git-remote-http >/tmp/git.ldd \
      && ! grep 'not found' /tmp/git.ldd \
    ) >/tmp/git.log 2>&1 & \
    git_job=$!; \
    base_python="$(command -v python3)"; \
    "$base_python" -m venv --without-pip /opt/gate; \
    "$base_python" -m pip --python /opt/gate/bin/python install --quiet --no-cache-dir \
        --disable-pip-version-check --no-compile --no-deps \
        --require-hashes -r /opt/gate-src/requirements.lock; \
    python -m compileall -q -j 0 /opt/gate/lib >/dev/null; \
    if ! wait "$git_job"; then cat /tmp/git.log; exit 1; fi; \
    rm -rf /opt/gate-src /tmp/git.log /tmp/git.ldd; \
    git --version

# The package is pure Python: copied into the virtualenv's site-packages as a
# wheel install would put it (no build backend in the image), byte-compiled.
COPY gate /opt/gate-src/gate
RUN site="$(python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" \
    && cp -R /opt/gate-src/gate "$site/gate" \
    && rm -rf /opt/gate-src \
    && python -m compileall -q -j 0 "$site/gate" >/dev/null \
    && python -m gate --version

ENTRYPOINT ["python", "-m", "gate", "action"]
