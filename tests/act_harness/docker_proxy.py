"""A Docker API proxy on a unix socket that gives image builds the host's network.

act builds a Dockerfile action through the Docker API (`POST /build`) without a
network mode.  On a daemon started with `--bridge=none` (.ci/start-docker.sh),
a build's `RUN` then has no network and `pip install` cannot reach the package
registry.  act's runs use `DOCKER_HOST=unix://<this socket>`; the proxy passes
every request to the real daemon unchanged, except that a build request gets
`networkmode=host` in its query string.  Containers are not affected (act
already runs them on the host network).

How: each client connection carries one request.  The proxy reads the request
head, rewrites the target of a build, sets `Connection: close` (so the daemon
closes after answering and the client opens a new connection for its next
request, whose head is read again), then relays bytes both ways until both
sides are done, passing half-closes through.  A request that upgrades the
connection (attach, exec: `Upgrade: tcp`) keeps its headers and is relayed as
a raw stream, which is what the daemon's hijacked connections are.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import threading
import urllib.parse
from pathlib import Path

_BUILD = re.compile(rb"\A(?:/v[0-9.]+)?/build\Z")
_HEAD_LIMIT = 64 * 1024


def daemon_socket() -> str:
    """The real daemon's socket path, from DOCKER_HOST (unix:// only) or the default."""
    host = os.environ.get("DOCKER_HOST", "")
    if host.startswith("unix://"):
        return host[len("unix://") :]
    if host:
        raise ValueError(f"DOCKER_HOST={host!r}: only a unix:// daemon socket can be proxied")
    return "/var/run/docker.sock"


def rewrite_head(head: bytes) -> tuple[bytes, bool]:
    """The request head as sent upstream, and whether it is an image build.
    Builds get networkmode=host; every request that does not upgrade the
    connection gets `Connection: close`."""
    lines = head.split(b"\r\n")
    method, _, rest = lines[0].partition(b" ")
    target, _, version = rest.partition(b" ")
    path, question, query = target.partition(b"?")
    build = method == b"POST" and _BUILD.match(path) is not None
    if build:
        params = [
            (k, v)
            for k, v in urllib.parse.parse_qsl(query.decode("latin-1"), keep_blank_values=True)
            if k.lower() != "networkmode"
        ]
        params.append(("networkmode", "host"))
        target = path + b"?" + urllib.parse.urlencode(params).encode("latin-1")
    elif question:
        target = path + b"?" + query
    headers = [line for line in lines[1:] if line]
    upgrade = any(line.lower().startswith(b"upgrade:") for line in headers)
    if not upgrade:
        headers = [line for line in headers if not line.lower().startswith(b"connection:")]
        headers.append(b"Connection: close")
    first = method + b" " + target + b" " + version
    return b"\r\n".join([first, *headers]) + b"\r\n\r\n", build


def _relay(source: socket.socket, sink: socket.socket) -> None:
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


class DockerBuildNetworkProxy:
    """`with DockerBuildNetworkProxy(folder) as proxy:` then DOCKER_HOST=proxy.docker_host."""

    def __init__(self, folder: Path, upstream: str | None = None) -> None:
        self.path = folder / "docker.sock"
        self.upstream = upstream or daemon_socket()
        self.builds = 0  # build requests rewritten (a test can check the proxy was used)
        self._listener: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def docker_host(self) -> str:
        return f"unix://{self.path}"

    def start(self) -> DockerBuildNetworkProxy:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(self.path))
        listener.listen(64)
        self._listener = listener
        self._thread = threading.Thread(target=self._accept, name="docker-proxy", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._listener is None:
            return
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self._listener = None
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> DockerBuildNetworkProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _accept(self) -> None:
        assert self._listener is not None
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = client.recv(65536)
                if not chunk:
                    return
                data += chunk
                if len(data) > _HEAD_LIMIT:
                    return
            head, _, body = data.partition(b"\r\n\r\n")
            rewritten, build = rewrite_head(head)
            if build:
                with self._lock:
                    self.builds += 1
            upstream.connect(self.upstream)
            upstream.sendall(rewritten + body)
            back = threading.Thread(target=_relay, args=(upstream, client), daemon=True)
            back.start()
            _relay(client, upstream)
            back.join()
        except OSError:
            pass
        finally:
            upstream.close()
            client.close()
