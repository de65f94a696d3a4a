"""Runs the real `go test` on a module folder, offline, for tests that show
a bend is real: what the gate refuses turns a red test green."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def run_go_test(module: Path, packages: str = "./...", *, vendor: bool = False) -> str:
    """`go test`'s output for `packages` of the module at `module`: no
    network (`GOPROXY=off`, the local toolchain), builds from `vendor/` when
    `vendor`, else from the module cache and `replace`d folders; the build
    cache beside the module's folder, shared by a test's runs."""
    env = {k: v for k, v in os.environ.items() if k != "GMODE"}
    mode = "-mod=vendor" if vendor else "-mod=mod"
    env = {**env, "GOFLAGS": mode, "GOPROXY": "off", "GOTOOLCHAIN": "local"}
    env.setdefault("GOCACHE", str(module.parent / "go-cache"))
    env.setdefault("GOPATH", str(module.parent / "go-path"))
    done = subprocess.run(
        ["go", "test", "-count=1", packages],
        cwd=module,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env=env,
    )
    return done.stdout + done.stderr
