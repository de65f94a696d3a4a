#!/usr/bin/env bash
# Start a Docker daemon for CI unless one already answers.
#   .ci/start-docker.sh PIDFILE LOGFILE
# Writes the started daemon's pid to PIDFILE (empty when one was already
# running, so the caller stops only what it started).  No bridge and no
# iptables: builds and containers use the host's network (--network host).
set -euo pipefail
pidfile="$1"
logfile="$2"
: >"$pidfile"
if docker info >/dev/null 2>&1; then
    echo "start-docker: a Docker daemon is already running; using it" >&2
    exit 0
fi
dockerd --bridge=none --iptables=false >"$logfile" 2>&1 &
pid=$!
printf '%s\n' "$pid" >"$pidfile"
for _ in $(seq 1 60); do
    if docker info >/dev/null 2>&1; then
        echo "start-docker: dockerd (pid $pid) is up; log in $logfile" >&2
        exit 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "start-docker: dockerd exited; last lines of $logfile:" >&2
        tail -n 20 "$logfile" >&2
        exit 1
    fi
    sleep 1
done
echo "start-docker: dockerd did not answer within 60 s; last lines of $logfile:" >&2
tail -n 20 "$logfile" >&2
exit 1
