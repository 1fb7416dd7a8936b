"""Streamable HTTP with bearer tokens: in-process via ``httpx2.ASGITransport``, and one real uvicorn on 127.0.0.1."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from server_support import (
    HANG_S,
    SCHEMA_KEYS,
    free_port,
    http_server,
    make_small_shelf,
    payload,
    read_lines,
    write_launcher,
)
from starlette.applications import Starlette

from docshelf.errors import ServeError
from docshelf.server.app import create_server
from docshelf.server.audit import AuditLog
from docshelf.server.auth import TokenFileVerifier, add_token, load_tokens, revoke_tokens
from docshelf.server.commands import serve, token
from docshelf.server.httpapp import MAX_BODY_BYTES, allowed_hosts_for, create_http_app, is_loopback
from docshelf.server.pin import Pin
from docshelf.server.tools import MAX_QUOTE_CHARS, MAX_REF_CHARS
from docshelf.shelf import gitrepo

BASE = "http://127.0.0.1:8765"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
MODES = ["auto", "legacy"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_shelf(tmp_path_factory.mktemp("http") / "shelf")


@pytest.fixture
def tokens(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "tokens.json"
    return {"file": path, "alice": add_token(path, "alice"), "bob": add_token(path, "bob")}


@pytest.fixture
def audit_log(tmp_path: Path) -> Iterator[AuditLog]:
    with AuditLog(tmp_path / "audit.jsonl") as log:
        yield log


def make_app(root: Path, tokens_file: Path | None, log: AuditLog | None, **kw: Any) -> Starlette:
    verifier = TokenFileVerifier(tokens_file) if tokens_file else None
    server = create_server(root, pin=Pin.at(root), audit=log, token_verifier=verifier)
    return create_http_app(server, audit=log, **kw)


@asynccontextmanager
async def http(app: Starlette, token: str | None = None, host: str = "127.0.0.1:8765") -> AsyncIterator[Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with app.router.lifespan_context(app):  # ASGITransport does not run the lifespan
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url=f"http://{host}", headers=headers) as hc:
            yield hc


def rpc(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}


CALLS = [
    rpc(
        "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "0"}}
    ),
    rpc("tools/list"),
    rpc("tools/call", {"name": "read_index", "arguments": {}}),
    rpc("tools/call", {"name": "fetch", "arguments": {"path": "docs/internal/ptkh.md"}}),
    rpc("resources/read", {"uri": "shelf://index.md"}),
    rpc("resources/templates/list"),
    rpc("server/discover"),
    rpc("ping"),
]
BAD_AUTH = [
    {},
    {"Authorization": "Bearer"},
    {"Authorization": "Bearer "},
    {"Authorization": "Bearer dsk_not-a-real-token"},
    {"Authorization": "Basic YWxpY2U6cGFzcw=="},
    {"Authorization": "bearer"},
    {"Authorization": "Token abc"},
]


@pytest.mark.anyio
async def test_every_unauthenticated_call_gets_401(small: Path, tokens: dict[str, Any], audit_log: AuditLog) -> None:
    app = make_app(small, tokens["file"], audit_log)
    entry = load_tokens(tokens["file"])[0]
    bad = [*BAD_AUTH, {"Authorization": f"Bearer {entry['sha256']}"}, {"Authorization": f"Bearer {entry['id']}"}]
    bad.append({"Authorization": f"Bearer {tokens['alice']}x"})
    statuses = []
    async with http(app) as hc:
        for body in CALLS:
            for headers in bad:
                r = await hc.post("/mcp", json=body, headers={**HEADERS, **headers})
                statuses.append(r.status_code)
                assert "invalid_token" in r.headers.get("www-authenticate", "")
        for method in ("GET", "DELETE"):
            statuses.append((await hc.request(method, "/mcp", headers=HEADERS)).status_code)
    assert set(statuses) == {401} and len(statuses) == len(CALLS) * len(bad) + 2
    lines = read_lines(audit_log.path)
    assert len(lines) == len(statuses) and all(set(r) == SCHEMA_KEYS for r in lines)
    assert {(r["method"], r["outcome"], r["client"]) for r in lines} == {("http", "http_401", "unauthenticated")}


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_good_token_works_and_is_audited_by_name(
    small: Path, tokens: dict[str, Any], audit_log: AuditLog, mode: str
) -> None:
    app = make_app(small, tokens["file"], audit_log)
    async with http(app, tokens["alice"]) as hc:
        async with Client(streamable_http_client(f"{BASE}/mcp", http_client=hc), mode=mode) as client:
            index = await client.call_tool("read_index", {})
            page = await client.call_tool("fetch", {"path": "docs/internal/ptkh.md", "max_chars": 100})
            resource = await client.read_resource("shelf://index.md")
        health = await hc.get("/healthz")
    assert index.structured_content["commit"] == gitrepo.resolve(small) and page.structured_content["next_start"] == 100
    assert resource.contents[0].text == payload(index)["text"]
    assert health.status_code == 200 and health.json() == {"ok": True}
    calls = [r for r in read_lines(audit_log.path) if r["method"] != "http"]
    assert [r.get("tool") or r["method"] for r in calls] == ["read_index", "fetch", "resources/read"]
    assert all(r["client"] == "alice" and r["transport"] == "http" and r["peer"] for r in calls)


@pytest.mark.anyio
async def test_host_origin_and_body_size_are_checked(small: Path, tokens: dict[str, Any]) -> None:
    app = make_app(small, tokens["file"], None, allowed_hosts=allowed_hosts_for("0.0.0.0", ["docshelf.corp"]))
    body = rpc("tools/list")
    async with http(app, tokens["alice"], host="docshelf.corp") as hc:
        for host in ("evil.example:8765", "docshelf.corp.evil.example", "127.0.0.1.evil.example:80"):
            assert (await hc.post("/mcp", json=body, headers={**HEADERS, "Host": host})).status_code == 421
        assert (await hc.post("/mcp", json=body, headers=HEADERS)).status_code == 200
        evil = {**HEADERS, "Origin": "http://evil.example"}
        assert (await hc.post("/mcp", json=body, headers=evil)).status_code == 403
        big = rpc("tools/call", {"name": "fetch", "arguments": {"path": "x" * (MAX_BODY_BYTES + 1)}})
        assert (await hc.post("/mcp", json=big, headers=HEADERS)).status_code == 413
        assert (await hc.get("/../../etc/passwd")).status_code == 404


def _longest_quote(word: str) -> str:
    """A quote of exactly MAX_QUOTE_CHARS characters made of ``word`` (the most the tool accepts)."""
    return ((word + " ") * MAX_QUOTE_CHARS)[:MAX_QUOTE_CHARS]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("word", "ascii_json"),
    [("слово", False), ("слово", True), ("\U0001f4dc\u0439", True)],
    ids=["cyrillic-utf8", "cyrillic-escaped", "astral-escaped"],
)
async def test_any_quote_the_tool_accepts_passes_the_body_cap(small: Path, word: str, ascii_json: bool) -> None:
    """The body cap follows the tool limits: the longest quote gets a verdict, never 413, however it is encoded."""
    app = make_app(small, None, None)
    quote = _longest_quote(word)
    call = rpc("tools/call", {"name": "verify_quote", "arguments": {"quote": quote, "ref": "ПТХ " + "я" * 1000}})
    body = json.dumps(call, ensure_ascii=ascii_json).encode("utf-8")
    assert len(body) > 256 * 1024  # the fixed 256 KiB cap this replaced refused each of these with 413
    async with http(app) as hc:
        r = await hc.post("/mcp", content=body, headers=HEADERS)
        assert r.status_code == 200, r.text[:300]
        result = r.json()["result"]
        assert result["structuredContent"]["verdict"] in {"not_found", "too_short", "unknown_ref"}
        # One character more is refused by the tool (a tool error the model reads), not by the HTTP layer.
        call["params"]["arguments"]["quote"] = quote + "я"
        r = await hc.post("/mcp", content=json.dumps(call, ensure_ascii=ascii_json).encode("utf-8"), headers=HEADERS)
        assert r.status_code == 200 and r.json()["result"]["isError"]


@pytest.mark.anyio
async def test_a_batch_shares_the_single_call_budget(small: Path) -> None:
    app = make_app(small, None, None)
    half = _longest_quote("слово")[: MAX_QUOTE_CHARS // 2]
    items = [{"quote": half, "ref": "ПТХ"}, {"quote": half, "ref": "ПТХ"}]
    fits = rpc("tools/call", {"name": "verify_quote", "arguments": {"items": items}})
    over = rpc("tools/call", {"name": "verify_quote", "arguments": {"items": [*items, {"quote": half, "ref": "ПТХ"}]}})
    async with http(app) as hc:
        ok = await hc.post("/mcp", content=json.dumps(fits, ensure_ascii=True).encode("utf-8"), headers=HEADERS)
        refused = await hc.post("/mcp", content=json.dumps(over, ensure_ascii=True).encode("utf-8"), headers=HEADERS)
    assert ok.status_code == 200 and ok.json()["result"]["structuredContent"]["counts"]
    assert refused.status_code == 200 and refused.json()["result"]["isError"]
    assert "Split the quotes" in refused.json()["result"]["content"][0]["text"]
    assert MAX_REF_CHARS < MAX_QUOTE_CHARS


@pytest.mark.anyio
async def test_a_revoked_token_stops_working_without_a_restart(small: Path, tokens: dict[str, Any]) -> None:
    app = make_app(small, tokens["file"], None)
    body = rpc("tools/list")
    async with http(app, tokens["bob"]) as hc:
        assert (await hc.post("/mcp", json=body, headers=HEADERS)).status_code == 200
        assert revoke_tokens(tokens["file"], "bob") == 1
        assert (await hc.post("/mcp", json=body, headers=HEADERS)).status_code == 401
        alice = {**HEADERS, "Authorization": f"Bearer {tokens['alice']}"}
        assert (await hc.post("/mcp", json=body, headers=alice)).status_code == 200


@pytest.mark.anyio
async def test_without_tokens_loopback_serves_anonymously(small: Path, audit_log: AuditLog) -> None:
    app = make_app(small, None, audit_log)
    async with http(app) as hc:
        async with Client(streamable_http_client(f"{BASE}/mcp", http_client=hc)) as client:
            assert not (await client.call_tool("read_index", {})).is_error
    assert read_lines(audit_log.path)[-1]["client"] == "anonymous"


def test_tokens_file_stores_only_hashes(tmp_path: Path) -> None:
    path = tmp_path / "t" / "tokens.json"
    result = CliRunner().invoke(token, ["add", "ci-bot", "--tokens", str(path)])
    secret = result.stdout.strip()
    assert result.exit_code == 0 and secret.startswith("dsk_") and len(secret) > 40
    text = path.read_text(encoding="utf-8")
    assert secret not in text and json.loads(text)["tokens"][0]["name"] == "ci-bot"
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    listed = CliRunner().invoke(token, ["list", "--tokens", str(path)])
    assert "ci-bot" in listed.output and secret not in listed.output
    assert CliRunner().invoke(token, ["add", "ivan", "--role", "investigator", "--tokens", str(path)]).exit_code == 0
    rows = [line.split("\t") for line in CliRunner().invoke(token, ["list", "--tokens", str(path)]).output.splitlines()]
    assert [(r[0], r[2]) for r in rows] == [("ci-bot", "client"), ("ivan", "investigator")]
    assert CliRunner().invoke(token, ["add", "x", "--role", "root", "--tokens", str(path)]).exit_code == 2
    bad = CliRunner().invoke(token, ["add", "../x", "--tokens", str(path)])
    assert isinstance(bad.exception, ServeError)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--transport", "http", "--host", "0.0.0.0"], "Refusing to serve on 0.0.0.0 without --tokens"),
        (["--transport", "http", "--host", "10.1.2.3"], "without --tokens"),
        (["--transport", "http", "--tokens", "missing.json"], "No tokens file"),
        (["--transport", "http", "--allowed-host", "*"], "Invalid --allowed-host"),
        (["--transport", "http", "--host", "0.0.0.0", "--tokens", "t.json"], "needs --allowed-host NAME"),
    ],
)
def test_serve_refuses_unsafe_settings(small: Path, args: list[str], words: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(serve, ["--shelf", str(small), "--audit-log", str(tmp_path / "a.jsonl"), *args])
    assert isinstance(result.exception, ServeError) and words in str(result.exception)


def test_serve_usage_errors(small: Path) -> None:
    both = CliRunner().invoke(serve, ["--shelf", str(small), "--at", "HEAD", "--follow", "main"])
    stdio_tokens = CliRunner().invoke(serve, ["--shelf", str(small), "--tokens", "t.json"])
    assert both.exit_code == 2 and stdio_tokens.exit_code == 2


def test_loopback_and_allowed_hosts() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost") and is_loopback("127.8.0.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.0.0.1") and not is_loopback("localhost.evil")
    assert "10.0.0.5" in allowed_hosts_for("10.0.0.5") and "0.0.0.0" not in allowed_hosts_for("0.0.0.0")


@pytest.mark.anyio
async def test_real_uvicorn_on_loopback(small: Path, tokens: dict[str, Any], tmp_path: Path) -> None:
    """`docshelf serve --transport http` as an operator runs it: real socket, real tokens, real audit file."""
    port, log = free_port(), tmp_path / "audit.jsonl"
    launcher = write_launcher(tmp_path)
    with http_server(launcher, ["--shelf", str(small), "--tokens", str(tokens["file"]), "--audit-log", str(log)], port):
        url = f"http://127.0.0.1:{port}/mcp"
        async with httpx2.AsyncClient(timeout=HANG_S) as anon:
            assert (await anon.post(url, json=rpc("tools/list"), headers=HEADERS)).status_code == 401
        auth = {"Authorization": f"Bearer {tokens['bob']}"}
        async with httpx2.AsyncClient(headers=auth, timeout=HANG_S) as hc:
            for mode in MODES:
                async with Client(streamable_http_client(url, http_client=hc), mode=mode) as client:
                    res = await client.call_tool("fetch", {"path": "docs/internal/ptkh.md"})
                    assert res.structured_content["commit"] == gitrepo.resolve(small)
    records = read_lines(log)
    assert [r["outcome"] for r in records] == ["http_401", "ok", "ok"]
    assert records[1]["client"] == "bob" and records[1]["peer"].startswith("127.0.0.1:")


@pytest.mark.anyio
async def test_a_tokens_file_replaced_at_the_same_size_and_time_is_read_again(tmp_path: Path) -> None:
    """`token revoke` replaces the file atomically; a replacement of the same size within one mtime tick is a
    new file all the same (its inode), so the old grant ends at the next request."""
    live, other = tmp_path / "tokens.json", tmp_path / "next" / "tokens.json"
    old = add_token(live, "carol")
    new = add_token(other, "carol")  # same name, same token length: the same size
    verifier = TokenFileVerifier(live)
    assert (await verifier.verify_token(old)) is not None
    st = live.stat()
    assert other.stat().st_size == st.st_size
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, live)
    assert (await verifier.verify_token(old)) is None
    assert (await verifier.verify_token(new)) is not None
