#!/usr/bin/env bash
# Build the stand-in for the Dockerfile's base image on a machine that can reach
# Debian's package mirror but no container registry.
#
#   .ci/make-base-image.sh            prints the image name (e.g. blast-radius-gate-base:3f2a...)
#
# The stand-in gives what the Dockerfile assumes of python:3.11-slim-bookworm:
# `python3` with the venv module (ensurepip), git, a CA bundle, and a PATH.
# It is a debootstrap'd Debian bookworm (minbase) imported with `docker import`.
# The mirror is the one this machine's apt is configured with; nothing else is
# fetched.  The root filesystem tarball is cached under $BASE_CACHE_DIR, keyed on
# this script, the mirror and the CA bundle, and the import is skipped when the
# image already exists.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_dir="${BASE_CACHE_DIR:-/var/cache/blast-radius-gate}"
ca_bundle="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
suite="bookworm"
packages="python3,python3-venv,git,ca-certificates"

log() { printf 'make-base-image: %s\n' "$*" >&2; }

# The first Debian mirror apt uses for the plain suite (not -security/-updates).
apt_mirror() {
    local f uri="" suites="" line
    shopt -s nullglob
    for f in /etc/apt/sources.list.d/*.sources; do
        uri="" suites=""
        while IFS= read -r line || [[ -n "$line" ]]; do
            case "$line" in
                URIs:*) uri="${line#URIs:}"; uri="${uri#"${uri%%[![:space:]]*}"}"; uri="${uri%% *}" ;;
                Suites:*) suites=" ${line#Suites:} " ;;
                "")
                    if [[ -n "$uri" && "$suites" == *" $suite "* ]]; then printf '%s\n' "$uri"; return 0; fi
                    uri="" suites=""
                    ;;
            esac
        done <"$f"
        if [[ -n "$uri" && "$suites" == *" $suite "* ]]; then printf '%s\n' "$uri"; return 0; fi
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -r "$f" ]] || continue
        # deb [options] URI SUITE COMPONENTS...
        uri="$(awk -v s="$suite" '$1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                if ($(i + 1) == s) { print $i; exit } }' "$f")"
        if [[ -n "$uri" ]]; then printf '%s\n' "$uri"; return 0; fi
    done
    return 1
}

mirror="${DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
    mirror="$(apt_mirror)" || { log "no apt source for '$suite' in /etc/apt; set DEBIAN_MIRROR"; exit 2; }
fi
[[ -r "$ca_bundle" ]] || { log "CA bundle $ca_bundle is missing; set CA_BUNDLE"; exit 2; }

key="$( { cat "${BASH_SOURCE[0]}"; printf '%s\n%s\n%s\n' "$mirror" "$suite" "$packages"; cat "$ca_bundle"; } \
        | sha256sum | cut -c1-16)"
image="blast-radius-gate-base:${key}"

if docker image inspect "$image" >/dev/null 2>&1; then
    log "image $image already present"
    printf '%s\n' "$image"
    exit 0
fi

mkdir -p "$cache_dir"
tarball="$cache_dir/base-${key}.tar"
if [[ ! -s "$tarball" ]]; then
    rootfs="$(mktemp -d "${TMPDIR:-/tmp}/gate-rootfs.XXXXXX")"
    trap 'rm -rf -- "$rootfs" "$tarball.part"' EXIT
    log "debootstrap $suite from $mirror (minbase + $packages)"
    start=$SECONDS
    debootstrap --variant=minbase --include="$packages" "$suite" "$rootfs" "$mirror" \
        >"$cache_dir/debootstrap-${key}.log" 2>&1 \
        || { log "debootstrap failed; see $cache_dir/debootstrap-${key}.log"; tail -n 20 "$cache_dir/debootstrap-${key}.log" >&2; exit 1; }
    # This machine's CA bundle, so pip inside the build trusts what the host trusts.
    install -m 0644 "$ca_bundle" "$rootfs/etc/ssl/certs/ca-certificates.crt"
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
        "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
    tar --numeric-owner -C "$rootfs" -cf "$tarball.part" .
    mv -f -- "$tarball.part" "$tarball"
    # Older stand-ins (another version of this script) only take space.
    find "$cache_dir" -maxdepth 1 \( -name 'base-*.tar' -o -name 'debootstrap-*.log' \) \
        ! -name "base-${key}.tar" ! -name "debootstrap-${key}.log" -delete
    log "root filesystem cached at $tarball ($((SECONDS - start)) s)"
else
    log "using cached root filesystem $tarball"
fi

docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["/bin/bash"]' \
    "$tarball" "$image" >/dev/null
log "imported $image"
printf '%s\n' "$image"
