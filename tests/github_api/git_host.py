"""The git side of GitHub for tests: bare repositories served on 127.0.0.1.

`GitHost(folder)` serves `folder` over plain HTTP, which git reads with its
"dumb" protocol through the same curl-based remote helper that `git fetch`
over https uses (fetching a commit by sha works too).  `publish()` makes a
bare repository at `<folder>/<owner>/<name>` holding chosen refs of a local
repository, so `f"{host.url}/{owner}/{name}"` is its clone URL, the way
`GITHUB_SERVER_URL/<owner>/<name>` is on GitHub.  Read-only: no push.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.gitrepo import GitRepo


@functools.cache
def _handler(directory: str) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=directory, **kwargs)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

    return Handler


class GitHost:
    """`with GitHost(folder) as host:` then `host.publish(...)` and `host.url`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.url = ""
        self._server: http.server.ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> GitHost:
        self.folder.mkdir(parents=True, exist_ok=True)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(str(self.folder)))
        server.daemon_threads = True
        self._server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = None

    def __enter__(self) -> GitHost:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def publish(self, full_name: str, source: Path, refs: Mapping[str, str]) -> str:
        """A bare `full_name` holding `refs` (full ref name -> commit of `source`);
        HEAD names the first ref.  Returns the clone URL."""
        bare = GitRepo.at(self.folder / full_name)
        bare.root.mkdir(parents=True, exist_ok=True)
        bare.git("init", "-q", "--bare")
        # One push per ref, in order: git's dumb protocol downloads whole packs,
        # so a ref's objects must not share a pack with an earlier ref's, or a
        # clone of main would hold the PR's head too (GitHub sends only what is
        # reachable from the refs fetched).
        for ref, sha in refs.items():
            GitRepo.at(source).git("push", "-q", "--force", str(bare.root), f"{sha}:{ref}")
        bare.git("symbolic-ref", "HEAD", next(iter(refs)))
        bare.git("update-server-info")
        return f"{self.url}/{full_name}"
