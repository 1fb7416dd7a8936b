"""Helpers for the web desk tests (no tests here): a small shelf, real MCP calls into an audit log, a new edition."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from server_support import doc_path, make_small_shelf

from docshelf.server.app import create_server
from docshelf.server.audit import AuditLog
from docshelf.server.pin import Pin
from docshelf.shelf import gitrepo

REF = "ПТХ ст. 1"
QUOTE_OK = "Оператор обязан хранить тестовые данные не более тридцати дней с момента их получения."
QUOTE_BAD = "Оператор обязан хранить тестовые данные не более шестидесяти дней с момента их получения."
# The new edition changes one word of ст. 1 (same length, so the clause table's offsets still hold).
OLD_WORD, NEW_WORD = "тридцати", "двадцати"


def build(tmp: Path) -> tuple[Path, Path]:
    """A small shelf and the path its audit log will have."""
    root = make_small_shelf(tmp / "shelf")
    return root, tmp / "audit" / "audit.jsonl"


async def _calls(root: Path, log: AuditLog) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with Client(create_server(root, pin=Pin.at(root), audit=log)) as client:
        out["read_index"] = await client.call_tool("read_index", {})
        out["fetch"] = await client.call_tool("fetch", {"path": doc_path(root)})
        out["search"] = await client.call_tool("search", {"query": "срок хранения тестовых данных"})
        out["verify_ok"] = await client.call_tool("verify_quote", {"quote": QUOTE_OK, "ref": REF})
        out["verify_bad"] = await client.call_tool("verify_quote", {"quote": QUOTE_BAD, "ref": REF})
        items = [{"quote": QUOTE_OK, "ref": REF}, {"quote": QUOTE_BAD, "ref": REF}]
        out["verify_batch"] = await client.call_tool("verify_quote", {"items": items})
        out["missing"] = await client.call_tool("fetch", {"path": "docs/internal/none.md"})
        out["resource"] = await client.read_resource("shelf://index.md")
    return out


def make_calls(root: Path, log_path: Path) -> dict[str, Any]:
    """Real MCP calls through the SDK client, audited to ``log_path``; their results by name."""
    with AuditLog(log_path) as log:
        return anyio.run(_calls, root, log)


def new_edition(root: Path) -> str:
    """Commit an edition that changes the quoted clause; returns its sha."""
    section = root / doc_path(root)
    text = section.read_text(encoding="utf-8")
    assert OLD_WORD in text
    section.write_text(text.replace(OLD_WORD, NEW_WORD), encoding="utf-8")
    return gitrepo.commit(root, "Edition 2: ст. 1 shortens the storage term")


def relabel_clients(log_path: Path, names: list[str]) -> dict[str, list[str]]:
    """Give the log's records these client names in turn (as if several clients had called); ids by client."""
    records = [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_client: dict[str, list[str]] = {name: [] for name in names}
    for n, record in enumerate(records):
        record["client"] = names[n % len(names)]
        by_client[record["client"]].append(record["id"])
    log_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return by_client
