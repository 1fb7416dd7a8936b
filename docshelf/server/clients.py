"""Client configurations that work as pasted: ``docshelf config CLIENT`` (Claude Desktop and Code, Cursor, Continue).

A configuration names the server the way the client starts or reaches it:

* **stdio** — the absolute path of this installation's ``docshelf`` (clients start servers without
  the user's shell, so neither ``PATH`` nor an activated venv applies) and the absolute shelf path;
* **HTTP** — the URL as given, scheme included (``serve --transport http`` speaks plain HTTP; TLS is
  the reverse proxy's, on its own port), with the bearer token read from an environment variable in
  the client's own syntax, so no token is written into a file a project may commit.

Pure: the values in, the file's text out; ``docshelf.cli`` prints it.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from docshelf.errors import ServeError

CLIENTS = ("claude-desktop", "claude-code", "cursor", "continue")
SERVER_NAME = "docshelf"
TOKEN_ENV = "DOCSHELF_TOKEN"

# Where each client reads the file, and how it expands an environment variable inside a header.
_WHERE = {
    "claude-desktop": "~/.config/Claude/claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/…)",
    "claude-code": ".mcp.json in the project's root (or: claude mcp add-json docshelf '<the mcpServers entry>')",
    "cursor": "~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
    "continue": ".continue/mcpServers/docshelf.yaml in the workspace (or ~/.continue/mcpServers/)",
}
_ENV_SYNTAX = {"claude-code": "${%s}", "cursor": "${env:%s}", "continue": "${{ secrets.%s }}"}


@dataclass(frozen=True)
class ClientConfig:
    client: str
    transport: str  # "stdio" | "http"
    where: str  # where the client reads it
    text: str  # the file's content, ready to paste


def docshelf_command() -> list[str]:
    """This installation's ``docshelf`` as an absolute command (the script beside this Python, else ``-m``)."""
    script = Path(sys.executable).parent / "docshelf"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "docshelf"]


def _http_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServeError(
            f"--url {url!r} is not an http:// or https:// URL. Give the address clients reach the server at, "
            "e.g. http://127.0.0.1:8765/mcp (serve --transport http speaks plain HTTP) or https://docshelf.corp/mcp "
            "(TLS at the reverse proxy)."
        )
    return url if parts.path not in ("", "/") else url.rstrip("/") + "/mcp"


def client_config(client: str, *, shelf: Path | None, url: str | None, token_env: str = TOKEN_ENV) -> ClientConfig:
    """The configuration of ``client`` for this shelf over stdio, or for the server at ``url`` over HTTP."""
    if client not in CLIENTS:
        raise ServeError(f"Unknown client {client!r}. Choose one of: {', '.join(CLIENTS)}.")
    if url is None:
        if shelf is None:
            raise ServeError("Give the shelf to serve (--shelf DIR) or the server's address (--url URL).")
        command, *args = docshelf_command()
        entry: dict[str, object] = {"command": command, "args": [*args, "serve", "--shelf", str(shelf.resolve())]}
        return ClientConfig(client, "stdio", _WHERE[client], _render(client, entry))
    if client == "claude-desktop":
        raise ServeError(
            "Claude Desktop's configuration file starts local servers only; it reaches a remote one through "
            "Settings → Connectors. Generate the stdio configuration (--shelf DIR) on the machine that holds the "
            "shelf, or use claude-code, cursor or continue for the HTTP server."
        )
    header = "Bearer " + _ENV_SYNTAX[client] % token_env
    remote: dict[str, object] = {"url": _http_url(url), "headers": {"Authorization": header}}
    if client == "claude-code":
        remote = {"type": "http", **remote}
    return ClientConfig(client, "http", _WHERE[client], _render(client, remote))


def _render(client: str, entry: dict[str, object]) -> str:
    if client != "continue":
        return json.dumps({"mcpServers": {SERVER_NAME: entry}}, ensure_ascii=False, indent=2) + "\n"
    # Continue reads YAML blocks; every scalar is written as a JSON string, which YAML reads as the same string.
    lines = ["name: DocShelf", "version: 0.0.1", "schema: v1", "mcpServers:", f"  - name: {SERVER_NAME}"]
    if "command" in entry:
        lines += [f"    command: {json.dumps(entry['command'])}", "    args:"]
        lines += [f"      - {json.dumps(a, ensure_ascii=False)}" for a in entry["args"]]  # type: ignore[attr-defined]
    else:
        headers: dict[str, str] = entry["headers"]  # type: ignore[assignment]
        lines += ["    type: streamable-http", f"    url: {json.dumps(entry['url'])}", "    requestOptions:"]
        lines += ["      headers:", *(f"        {k}: {json.dumps(v)}" for k, v in headers.items())]
    return "\n".join(lines) + "\n"


def describe(cfg: ClientConfig, token_env: str = TOKEN_ENV) -> str:
    """What to do with it, for stderr: where the file goes, and the token for HTTP."""
    lines = [f"# {cfg.client}, {cfg.transport}: paste into {cfg.where}"]
    if cfg.transport == "http":
        lines.append(
            f"# the client reads the bearer token from ${token_env}: create one with "
            f"{shlex.join(docshelf_command())} token add NAME --tokens FILE"
        )
    return "\n".join(lines)


__all__ = ["CLIENTS", "ClientConfig", "client_config", "describe", "docshelf_command"]
