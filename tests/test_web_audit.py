"""Call ids, audit log operations (rotation, SIGHUP, stdout) and the desk's offset index of the log."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from click.testing import CliRunner
from mcp import Client
from server_support import (
    HANG_S,
    SCHEMA_KEYS,
    child_env,
    doc_path,
    free_port,
    http_server,
    make_small_shelf,
    read_lines,
    write_launcher,
)
from web_support import QUOTE_OK, REF

from docshelf.errors import ServeError
from docshelf.server.app import create_server
from docshelf.server.audit import CALL_ID, META_KEY, AuditLog
from docshelf.server.commands import audit as audit_command
from docshelf.server.commands import serve
from docshelf.server.pin import Pin
from docshelf.web.auditindex import AuditIndex, Filters

MODES = ["auto", "legacy"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_shelf(tmp_path_factory.mktemp("calls") / "shelf")


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_every_result_carries_the_id_of_its_audit_record(small: Path, tmp_path: Path, mode: str) -> None:
    results: list[Any] = []
    with AuditLog(tmp_path / "audit.jsonl") as log:
        async with Client(create_server(small, pin=Pin.at(small), audit=log), mode=mode) as client:
            results.append(await client.call_tool("fetch", {"path": doc_path(small), "max_chars": 40}))
            results.append(await client.call_tool("verify_quote", {"quote": QUOTE_OK, "ref": REF}))
            results.append(await client.call_tool("verify_quote", {"items": [{"quote": QUOTE_OK, "ref": REF}]}))
            results.append(await client.call_tool("search", {"query": "хранение"}))
            results.append(await client.call_tool("fetch", {"path": "docs/none.md"}))  # a tool error
            resource = await client.read_resource("shelf://index.md")
    records = read_lines(tmp_path / "audit.jsonl")
    assert all(set(r) == SCHEMA_KEYS for r in records) and len({r["id"] for r in records}) == len(records)
    for result, record in zip(results, records, strict=False):
        call_id = record["id"]
        assert CALL_ID.match(call_id) and result.meta[META_KEY] == call_id
        assert all(call_id not in c.text for c in result.content)  # bookkeeping stays out of what a model reads
        if not result.is_error:
            assert result.structured_content["call_id"] == call_id
    assert results[-1].is_error and records[len(results) - 1]["outcome"] == "tool_error"
    assert resource.meta[META_KEY] == records[-1]["id"] and records[-1]["method"] == "resources/read"
    assert resource.contents[0].text.startswith("# Small shelf")  # the file itself is not touched


def _write(log: AuditLog, n: int) -> str:
    return log.write({"ts": f"2026-11-30T10:00:{n:02d}.000000Z", "client": "t", "tool": "fetch", "outcome": "ok"})


def test_the_log_follows_a_rotation_and_reopens_on_sighup(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    before = signal.getsignal(signal.SIGHUP)  # SIG_IGN under nohup, SIG_DFL otherwise
    with AuditLog(path) as log:
        first = _write(log, 1)
        path.rename(tmp_path / "audit.jsonl.1")  # logrotate's default: rename, then a new file
        second = _write(log, 2)
        assert [r["id"] for r in read_lines(tmp_path / "audit.jsonl.1")] == [first]
        assert [r["id"] for r in read_lines(path)] == [second]
        # A postrotate script sends SIGHUP: the log moves to the new file before any write.
        path.rename(tmp_path / "audit.jsonl.2")
        path.touch()
        os.kill(os.getpid(), signal.SIGHUP)
        deadline = time.monotonic() + HANG_S
        while log.file_id() != (path.stat().st_dev, path.stat().st_ino):
            assert time.monotonic() < deadline, "SIGHUP did not reopen the log"
            time.sleep(0.01)
        third = _write(log, 3)
    assert [r["id"] for r in read_lines(path)] == [third]
    assert signal.getsignal(signal.SIGHUP) == before  # the handler it replaced is put back on close


def test_serve_reopens_its_log_on_sighup(small: Path, tmp_path: Path) -> None:
    """``docshelf serve`` as an operator runs it: logrotate renames the log, then sends SIGHUP."""
    port, log = free_port(), tmp_path / "audit.jsonl"
    with http_server(write_launcher(tmp_path), ["--shelf", str(small), "--audit-log", str(log)], port) as proc:
        anyio.run(_one_call, port)
        log.rename(tmp_path / "audit.jsonl.1")
        proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + HANG_S
        while not log.exists():  # reopening creates the file before any call is written
            assert proc.poll() is None and time.monotonic() < deadline, "no new log after SIGHUP"
            time.sleep(0.05)
        anyio.run(_one_call, port)
    assert [r["tool"] for r in read_lines(tmp_path / "audit.jsonl.1")] == ["read_index"]
    assert [r["tool"] for r in read_lines(log)] == ["read_index"]


def test_line_breaks_that_some_readers_honour_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    odd = "a\x85b\u2028c\u2029d\ne\x0bf\x1cg"
    with AuditLog(path) as log:
        log.write({"arguments": {"quote": odd}})
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) == 1 and json.loads(text)["arguments"]["quote"] == odd


def test_serve_writes_the_audit_to_stdout(small: Path, tmp_path: Path) -> None:
    port = free_port()
    launcher = write_launcher(tmp_path)
    proc = subprocess.Popen(
        [
            sys.executable,
            str(launcher),
            "serve",
            "--shelf",
            str(small),
            "--transport",
            "http",
            "--port",
            str(port),
            "--audit-log",
            "-",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=child_env(),
    )
    try:
        anyio.run(_one_call, port)
    finally:
        proc.terminate()
        out, _err = proc.communicate(timeout=HANG_S)
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert [r["tool"] for r in records] == ["read_index"] and set(records[0]) == SCHEMA_KEYS
    stdio = CliRunner().invoke(serve, ["--shelf", str(small), "--audit-log", "-"])
    assert stdio.exit_code == 2 and "standard output carries the protocol" in stdio.output


async def _one_call(port: int) -> None:
    from mcp.client.streamable_http import streamable_http_client

    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + HANG_S
    async with httpx2.AsyncClient(timeout=HANG_S) as hc:
        while True:
            try:
                await hc.get(f"http://127.0.0.1:{port}/healthz")
                break
            except httpx2.TransportError:
                assert time.monotonic() < deadline, "server did not come up"
                await anyio.sleep(0.1)
        async with Client(streamable_http_client(url, http_client=hc)) as client:
            assert not (await client.call_tool("read_index", {})).is_error


def test_the_audit_command_reads_logs_with_ids(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    with AuditLog(path) as log:
        call_id = log.write({k: None for k in SCHEMA_KEYS} | {"ts": "2026-11-30T10:00:00.000000Z", "client": "bob"})
    result = CliRunner().invoke(audit_command, ["--log", str(path), "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["id"] == call_id
    one = CliRunner().invoke(audit_command, [call_id, "--log", str(path)])  # the call id a result carried
    assert one.exit_code == 0 and f"id: {call_id}\n" in one.output and "client: bob\n" in one.output
    assert (
        json.loads(CliRunner().invoke(audit_command, [call_id, "--log", str(path), "--json"]).output)["id"] == call_id
    )
    missing = CliRunner().invoke(audit_command, ["nope", "--log", str(path)])
    assert isinstance(missing.exception, ServeError) and "No audit record with id 'nope'" in str(missing.exception)


# --- the desk's index of the log ------------------------------------------------------------------


def test_the_index_reads_only_what_was_appended(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    legacy = {"ts": "2026-11-29T09:00:00.000000Z", "client": "old", "tool": "fetch", "outcome": "ok"}
    path.write_text(json.dumps(legacy) + "\nnot json\n", encoding="utf-8")
    index = AuditIndex(path)
    index.refresh()
    (old,) = index.page(Filters()).entries
    assert old.id == "o0" and index.get("o0") == old and index.record(old)["client"] == "old" and index.unreadable == 1
    with AuditLog(path) as log:
        ids = [_write(log, n) for n in range(3)]
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"id": "half')  # a line still being written
    assert [e.id for e in index.page(Filters()).entries] == [*ids[::-1], "o0"]
    assert index.get("half") is None
    with path.open("a", encoding="utf-8") as fh:
        fh.write('", "ts": "2026-11-30T11:00:00Z", "client": "t", "tool": "search"}\n')
    assert index.page(Filters(tool="search")).entries[0].id == "half"
    # Rotation: a new file under the same path is indexed from its start.
    path.rename(tmp_path / "audit.jsonl.1")
    with AuditLog(path) as log:
        fresh = _write(log, 9)
    assert [e.id for e in index.page(Filters()).entries] == [fresh] and index.get(ids[0]) is None
    path.write_text("", encoding="utf-8")  # truncated in place (copytruncate)
    assert index.page(Filters()).total == 0
