#!/usr/bin/env bash
# Build the stand-in for the Dockerfile's base image on a machine that can reach
# Debian's package mirror but no container registry.
#
#   .ci/make-base-image.sh            prints the image name (e.g. blast-radius-gate-base:3f2a...)
#
# The stand-in mirrors what the Dockerfile gets from python:3.11-slim-bookworm,
# so CI runs the Dockerfile's real path (the git install included) and its size
# and build-time figures are honest:
#   - Debian bookworm (debootstrap --variant=minbase) with python3, the venv
#     module (ensurepip), pip, a CA bundle, netbase and tzdata; NO git;
#   - the official Debian images' apt and dpkg configuration (debuerreotype's
#     "minimizing config" and the slim variant's path excludes): apt caches are
#     cleaned after every install, indexes stay gzip'd, no translations, and
#     docs, man pages and locales are not unpacked;
#   - apt sources for bookworm, bookworm-updates and bookworm-security, as in
#     debian:bookworm, with the mirrors this machine's apt uses, and the
#     updates from them installed.
# Known differences from the official image (none changes what the Dockerfile
# does): its python3 is Debian's 3.11 at /usr/bin (the official one is built
# from source at /usr/local/bin), pip comes from python3-pip (a Debian pip
# 23.0.1 that refuses system-wide installs, PEP 668; the official pip installs
# anywhere), and the build date of the Debian packages differs.
# The root filesystem tarball is cached under $BASE_CACHE_DIR, keyed on this
# script, the mirrors and the CA bundle, and the import is skipped when the
# image already exists.  It prints its size and how long it took on stderr.
set -euo pipefail

cache_dir="${BASE_CACHE_DIR:-/var/cache/blast-radius-gate}"
ca_bundle="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
suite="bookworm"
packages="python3,python3-venv,python3-pip,ca-certificates,netbase,tzdata"

log() { printf 'make-base-image: %s\n' "$*" >&2; }

# The first mirror apt uses for SUITE (deb822 .sources files, then one-line .list files).
apt_mirror() {
    local want="$1" f uri="" suites="" line
    shopt -s nullglob
    for f in /etc/apt/sources.list.d/*.sources; do
        uri="" suites=""
        while IFS= read -r line || [[ -n "$line" ]]; do
            case "$line" in
                URIs:*) uri="${line#URIs:}"; uri="${uri#"${uri%%[![:space:]]*}"}"; uri="${uri%% *}" ;;
                Suites:*) suites=" ${line#Suites:} " ;;
                "")
                    if [[ -n "$uri" && "$suites" == *" $want "* ]]; then printf '%s\n' "$uri"; return 0; fi
                    uri="" suites=""
                    ;;
            esac
        done <"$f"
        if [[ -n "$uri" && "$suites" == *" $want "* ]]; then printf '%s\n' "$uri"; return 0; fi
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -r "$f" ]] || continue
        # deb [options] URI SUITE COMPONENTS...
        uri="$(awk -v s="$want" '$1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                if ($(i + 1) == s) { print $i; exit } }' "$f")"
        if [[ -n "$uri" ]]; then printf '%s\n' "$uri"; return 0; fi
    done
    return 1
}

mirror="${DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
    mirror="$(apt_mirror "$suite")" || { log "no apt source for '$suite' in /etc/apt; set DEBIAN_MIRROR"; exit 2; }
fi
security="${DEBIAN_SECURITY_MIRROR:-}"
if [[ -z "$security" ]]; then
    security="$(apt_mirror "$suite-security")" || security="http://deb.debian.org/debian-security"
fi
[[ -r "$ca_bundle" ]] || { log "CA bundle $ca_bundle is missing; set CA_BUNDLE"; exit 2; }

key="$( { cat "${BASH_SOURCE[0]}"; printf '%s\n%s\n%s\n%s\n' "$mirror" "$security" "$suite" "$packages"; cat "$ca_bundle"; } \
        | sha256sum | cut -c1-16)"
image="blast-radius-gate-base:${key}"

report() {
    local size
    size="$(docker image inspect -f '{{.Size}}' "$image")"
    log "$image: $((size / 1000000)) MB ($size bytes)"
}

if docker image inspect "$image" >/dev/null 2>&1; then
    log "image $image already present"
    report
    printf '%s\n' "$image"
    exit 0
fi

# Files that debuerreotype writes into every official Debian image (and the
# slim variant's dpkg excludes); python:3.11-slim-bookworm is built on it.
write_official_config() {
    local root="$1"
    mkdir -p "$root/etc/apt/apt.conf.d" "$root/etc/dpkg/dpkg.cfg.d"
    cat >"$root/etc/dpkg/dpkg.cfg.d/docker-apt-speedup" <<'CFG'
# Package installs in a container build need no fsync.
force-unsafe-io
CFG
    cat >"$root/etc/apt/apt.conf.d/docker-autoremove-suggests" <<'CFG'
# Let `apt-get purge --auto-remove` remove what an install pulled in.
Apt::AutoRemove::SuggestsImportant "false";
CFG
    cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'CFG'
# Remove downloaded .deb files and apt's binary caches after every install.
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CFG
    cat >"$root/etc/apt/apt.conf.d/docker-gzip-indexes" <<'CFG'
# Keep the package indexes compressed on disk.
Acquire::GzipIndexes "true";
CFG
    cat >"$root/etc/apt/apt.conf.d/docker-no-languages" <<'CFG'
# No translated package descriptions.
Acquire::Languages "none";
CFG
    cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'CFG'
# The slim variant: files normally unnecessary in containers are not unpacked.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/man/*
CFG
    rm -f "$root/etc/apt/sources.list"
    cat >"$root/etc/apt/sources.list.d/debian.sources" <<CFG
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
CFG
}

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
    write_official_config "$rootfs"
    # The official images are rebuilt with bookworm's updates; so is the stand-in
    # (else the Dockerfile's apt install would pull upgrades the real base has).
    cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
    { chroot "$rootfs" apt-get update -q && chroot "$rootfs" apt-get upgrade -y -q; } \
        >>"$cache_dir/debootstrap-${key}.log" 2>&1 \
        || { log "apt-get upgrade in the stand-in failed; see $cache_dir/debootstrap-${key}.log"; exit 1; }
    : >"$rootfs/etc/resolv.conf"
    # This machine's CA bundle (after the upgrade, which rewrites it), so pip and
    # apt inside the build trust what the host trusts.
    install -m 0644 "$ca_bundle" "$rootfs/etc/ssl/certs/ca-certificates.crt"
    # What the slim excludes and docker-clean would have kept out had they been
    # in place during debootstrap.
    find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
    find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
    find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf -- {} +
    rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/groff/* \
        "$rootfs"/usr/share/lintian/* "$rootfs"/var/cache/apt/archives/*.deb \
        "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/*
    # Nothing may find git: the Dockerfile must install it, as on GitHub.
    if [[ -e "$rootfs/usr/bin/git" ]]; then log "git got into the stand-in"; exit 1; fi
    tar --numeric-owner -C "$rootfs" -cf "$tarball.part" .
    mv -f -- "$tarball.part" "$tarball"
    # Older stand-ins (another version of this script) only take space.
    find "$cache_dir" -maxdepth 1 \( -name 'base-*.tar' -o -name 'debootstrap-*.log' \) \
        ! -name "base-${key}.tar" ! -name "debootstrap-${key}.log" -delete
    log "root filesystem cached at $tarball (debootstrap took $((SECONDS - start)) s)"
else
    log "using cached root filesystem $tarball"
fi

docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["python3"]' \
    "$tarball" "$image" >/dev/null
log "imported $image"
report
printf '%s\n' "$image"
