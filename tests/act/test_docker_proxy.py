"""The build-network proxy rewrites exactly what it says (no daemon needed)."""

from __future__ import annotations

import urllib.parse

import pytest
from act_harness.docker_proxy import rewrite_head


def _head(first: str, *headers: str) -> bytes:
    return "\r\n".join([first, "Host: docker", *headers]).encode("latin-1")


def _query(head: bytes) -> list[tuple[str, str]]:
    target = head.split(b"\r\n", 1)[0].split(b" ")[1].decode("latin-1")
    return urllib.parse.parse_qsl(urllib.parse.urlsplit(target).query, keep_blank_values=True)


@pytest.mark.parametrize("version", ["", "/v1.41", "/v1.43"])
@pytest.mark.parametrize("query", ["", "?t=act-x%3Alatest&rm=1", "?networkmode=default&t=a"])
def test_a_build_gets_the_host_network(version: str, query: str) -> None:
    head, build = rewrite_head(_head(f"POST {version}/build{query} HTTP/1.1"))
    assert build
    params = _query(head)
    assert [v for k, v in params if k.lower() == "networkmode"] == ["host"]
    original = urllib.parse.parse_qsl(query.lstrip("?"))
    assert [(k, v) for k, v in params if k != "networkmode"] == [
        (k, v) for k, v in original if k != "networkmode"
    ]
    assert head.endswith(b"\r\nConnection: close\r\n\r\n")


@pytest.mark.parametrize(
    "first",
    [
        "GET /v1.41/build HTTP/1.1",
        "POST /v1.41/builds HTTP/1.1",
        "POST /v1.41/containers/create?name=build HTTP/1.1",
        "POST /v1.41/images/create?fromImage=x&networkmode=bridge HTTP/1.1",
    ],
)
def test_anything_else_keeps_its_request_line(first: str) -> None:
    head, build = rewrite_head(_head(first, "Connection: keep-alive"))
    assert not build
    assert head.split(b"\r\n", 1)[0] == first.encode()
    assert b"keep-alive" not in head and head.endswith(b"\r\nConnection: close\r\n\r\n")


def test_an_upgrade_is_relayed_as_it_is() -> None:
    original = _head("POST /v1.41/exec/abc/start HTTP/1.1", "Connection: Upgrade", "Upgrade: tcp")
    head, build = rewrite_head(original)
    assert not build
    assert head == original + b"\r\n\r\n"
