"""A newcomer's commands as a newcomer runs them: ``convert``, ``doctor``, and ``config`` for every client,
each configuration parsed and then started (stdio) or reached (HTTP) by the real MCP SDK client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
import yaml
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from server_support import HANG_S, free_port, http_server, make_small_shelf, write_launcher

from docshelf.server.auth import add_token
from docshelf.shelf import gitrepo

STDIO_CLIENTS = ["claude-desktop", "claude-code", "cursor", "continue"]
HTTP_CLIENTS = {"claude-code": "${DOCSHELF_TOKEN}", "cursor": "${env:DOCSHELF_TOKEN}", "continue": None}


def docshelf(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "docshelf", *args], capture_output=True, text=True,
                          encoding="utf-8", cwd=cwd, timeout=HANG_S)  # fmt: skip


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_shelf(tmp_path_factory.mktemp("firststeps") / "shelf")


def test_convert_prints_the_cleaned_markdown_without_a_shelf(regulation_pdf: Path, tmp_path: Path) -> None:
    text = docshelf("convert", str(regulation_pdf), cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("> 999-ФЗ · стр. 1–7\n")  # the document's breadcrumb, as on a shelf
    assert "Статья 1." in text.stdout and "Страница 1 из" not in text.stdout  # cleaned: no page furniture
    listed = docshelf("convert", str(regulation_pdf), "--sections", cwd=tmp_path)
    rows = [line.split("\t") for line in listed.stdout.splitlines()]
    assert len(rows) > 3 and all(r[0].endswith(".md") and r[3].endswith(" chars") for r in rows)
    assert any(r[1] == "ст. 1" for r in rows)
    meta = json.loads(docshelf("convert", str(regulation_pdf), "--json", cwd=tmp_path).stdout)
    assert [s["path"] for s in meta["sections"]] == [r[0] for r in rows] and "quality" in meta
    assert list(tmp_path.iterdir()) == []  # nothing written: no shelf, no cache


def test_convert_refuses_what_it_cannot_read_in_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"%PDF-1.4 not really")
    res = docshelf("convert", str(junk))
    assert res.returncode == 1 and res.stderr.startswith("Error: ") and "Traceback" not in res.stderr


def test_doctor_prints_one_line_a_part_and_fails_only_on_what_is_required(small: Path, tmp_path: Path) -> None:
    machine = docshelf("doctor", cwd=tmp_path)  # not a shelf: the machine only
    names = [line.split()[1] for line in machine.stdout.splitlines()]
    assert names == ["Python", "Git", "fonts", "OCR", "Node", "Chromium", "extras"], machine.stdout
    assert machine.returncode == 0 and machine.stdout.startswith("ok   Python")
    assert all(" → " in line for line in machine.stdout.splitlines() if not line.startswith("ok"))  # what to do
    healthy = docshelf("doctor", "--shelf", str(small))
    assert healthy.returncode == 0 and "ok   shelf" in healthy.stdout and "cache" in healthy.stdout
    broken = docshelf("doctor", "--shelf", str(tmp_path))
    assert broken.returncode == 1 and "FAIL shelf" in broken.stdout


def _entry(client: str, text: str) -> dict[str, Any]:
    if client == "continue":
        block = yaml.safe_load(text)
        (server,) = block["mcpServers"]
        assert server["name"] == "docshelf" and block["schema"] == "v1"
        return dict(server)
    return dict(json.loads(text)["mcpServers"]["docshelf"])


async def _read_index_stdio(entry: dict[str, Any], cwd: Path) -> str:
    # A client starts servers without the user's shell: no venv on PATH, another working directory.
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "DOCSHELF_SHELF")}
    env["PATH"] = "/usr/bin:/bin"
    params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env, cwd=str(cwd))
    async with Client(stdio_client(params)) as client:
        result = await client.call_tool("read_index", {})
    return str(result.structured_content["commit"])


@pytest.mark.parametrize("client", STDIO_CLIENTS)
def test_a_stdio_configuration_starts_as_pasted(client: str, small: Path, tmp_path: Path) -> None:
    res = docshelf("config", client, "--shelf", str(small.relative_to(small.parent)), cwd=small.parent)
    assert res.returncode == 0, res.stderr
    assert "paste into" in res.stderr
    entry = _entry(client, res.stdout)
    assert Path(entry["command"]).is_absolute() and str(small.resolve()) in entry["args"]
    assert anyio.run(_read_index_stdio, entry, tmp_path) == gitrepo.resolve(small)


async def _read_index_http(url: str, headers: dict[str, str]) -> str:
    async with httpx2.AsyncClient(headers=headers, timeout=HANG_S) as hc:
        async with Client(streamable_http_client(url, http_client=hc)) as client:
            result = await client.call_tool("read_index", {})
    return str(result.structured_content["commit"])


def test_http_configurations_reach_the_server_with_the_token_from_the_environment(small: Path, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.json"
    token = add_token(tokens, "cursor-user")
    port = free_port()
    args = ["--shelf", str(small), "--tokens", str(tokens), "--audit-log", str(tmp_path / "audit.jsonl")]
    with http_server(write_launcher(tmp_path), args, port):
        for client, placeholder in HTTP_CLIENTS.items():
            res = docshelf("config", client, "--url", f"http://127.0.0.1:{port}")
            assert res.returncode == 0, res.stderr
            entry = _entry(client, res.stdout)
            url = entry["url"]
            assert url == f"http://127.0.0.1:{port}/mcp"  # the plain-HTTP scheme serve speaks, and its path
            headers = entry.get("headers") or entry["requestOptions"]["headers"]
            bearer = headers["Authorization"]
            assert bearer == f"Bearer {placeholder or '${{ secrets.DOCSHELF_TOKEN }}'}"  # never the token itself
            expanded = {"Authorization": bearer.replace(bearer.removeprefix("Bearer "), token)}
            assert anyio.run(_read_index_http, url, expanded) == gitrepo.resolve(small)
            assert (entry.get("type"), client) in (
                ("http", "claude-code"),
                (None, "cursor"),
                ("streamable-http", "continue"),
            )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["claude-desktop", "--url", "http://127.0.0.1:8765/mcp"], "Settings → Connectors"),
        (["cursor", "--url", "ftp://host/mcp"], "is not an http:// or https:// URL"),
    ],
)
def test_configurations_that_cannot_work_are_refused_with_what_to_do(args: list[str], message: str) -> None:
    res = docshelf("config", *args)
    assert res.returncode == 1 and res.stderr.startswith("Error: ") and message in res.stderr
