"""The official MCP Inspector CLI (npm) as a third-party client, over stdio and over HTTP with a bearer token.

Installed once into ``~/.cache/docshelf-test-npm`` (or ``$DOCSHELF_TEST_NPM_CACHE``); every test here
skips cleanly when npm is missing or the install fails (no network). The Inspector runs with HOME
set to a temporary directory, because it keeps a server catalog under ``~/.mcp-inspector``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from server_support import (
    HANG_S,
    TOOL_NAMES,
    free_port,
    http_server,
    make_small_shelf,
    npm_tool,
    read_lines,
    write_launcher,
)

from docshelf.server.auth import add_token
from docshelf.shelf import gitrepo

VERSION = "2.12.0"
DOC = "docs/internal/ptkh.md"


@pytest.fixture(scope="session")
def inspector() -> Path:
    return npm_tool("@modelcontextprotocol/inspector", VERSION, "mcp-inspector")


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_shelf(tmp_path_factory.mktemp("insp") / "shelf")


def run(inspector: Path, home: Path, *args: str) -> tuple[int, Any, str]:
    proc = subprocess.run(
        [str(inspector), "--cli", *args, "--format", "json"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=HANG_S,
        env={**os.environ, "HOME": str(home)},
    )
    out = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else proc.stdout
    return proc.returncode, out, proc.stderr


@pytest.fixture
def stdio_server(small: Path, tmp_path: Path) -> list[str]:
    """The Inspector's target: our CLI's `serve` (stdio) with the shelf baked in (it passes no env through)."""
    argv = ["serve", "--shelf", str(small), "--audit-log", str(tmp_path / "audit.jsonl")]
    launcher = write_launcher(tmp_path, argv, name="serve_stdio.py")
    prelude = f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
    launcher.write_text(prelude + launcher.read_text(encoding="utf-8"), encoding="utf-8")
    return [sys.executable, str(launcher)]


def test_inspector_over_stdio(inspector: Path, stdio_server: list[str], small: Path, tmp_path: Path) -> None:
    rc, listed, err = run(inspector, tmp_path, *stdio_server, "--method", "tools/list", "--strict")
    assert rc == 0, err
    tools = {t["name"]: t for t in listed["result"]["tools"]}
    assert set(tools) == TOOL_NAMES and tools["fetch"]["annotations"]["readOnlyHint"] is True
    assert "outputSchema" in tools["fetch"]
    args = ["--method", "tools/call", "--tool-name", "fetch", "--tool-arg", f"path={DOC}", "--tool-arg", "max_chars=40"]
    rc, called, err = run(inspector, tmp_path, *stdio_server, *args)
    assert rc == 0, err
    page = called["result"]["structuredContent"]
    assert page["commit"] == gitrepo.resolve(small) and page["next_start"] == 40
    traversal = ["--method", "tools/call", "--tool-name", "fetch", "--tool-arg", "path=../../etc/passwd"]
    rc, refused, err = run(inspector, tmp_path, *stdio_server, *traversal)
    assert rc == 5 and refused["result"]["isError"] is True and "tool_is_error" in err
    modern = ["--protocol-era", "modern", "--method", "resources/read", "--uri", "shelf://index.md"]
    rc, resource, err = run(inspector, tmp_path, *stdio_server, *modern)
    assert rc == 0 and resource["result"]["contents"][0]["text"].startswith("# Small shelf"), err
    records = read_lines(tmp_path / "audit.jsonl")
    assert [r["outcome"] for r in records] == ["ok", "tool_error", "ok"]
    assert records[0]["transport"] == "stdio" and records[0]["client_info"]["name"]


def test_inspector_over_http_with_a_token(inspector: Path, small: Path, tmp_path: Path) -> None:
    tokens, log, port = tmp_path / "tokens.json", tmp_path / "audit.jsonl", free_port()
    secret = add_token(tokens, "inspector")
    launcher = write_launcher(tmp_path)
    with http_server(launcher, ["--shelf", str(small), "--tokens", str(tokens), "--audit-log", str(log)], port):
        url = f"http://127.0.0.1:{port}/mcp"
        auth = ["--header", f"Authorization: Bearer {secret}", "--stored-auth-only"]
        rc, listed, err = run(inspector, tmp_path, url, *auth, "--method", "tools/list", "--strict")
        assert rc == 0, err
        assert {t["name"] for t in listed["result"]["tools"]} == TOOL_NAMES
        call = ["--protocol-era", "modern", "--method", "tools/call", "--tool-name", "read_index"]
        rc, index, err = run(inspector, tmp_path, url, *auth, *call)
        assert rc == 0 and index["result"]["structuredContent"]["path"] == "index.md", err
        rc, _, err = run(inspector, tmp_path, url, "--stored-auth-only", "--method", "tools/list")
        assert rc == 3 and "auth" in err
        wrong = ["--header", "Authorization: Bearer dsk_wrong", "--stored-auth-only", "--method", "tools/list"]
        rc, _, err = run(inspector, tmp_path, url, *wrong)
        assert rc == 3, err
    records = read_lines(log)
    assert {r["client"] for r in records if r["outcome"] == "ok"} == {"inspector"}
    assert any(r["outcome"] == "http_401" for r in records)
