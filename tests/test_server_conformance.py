"""The official MCP conformance suite (npm ``@modelcontextprotocol/conformance``) against ``docshelf serve`` over HTTP.

The suite's other server scenarios call fixtures of its reference server (``test_simple_text``,
``test://static-text``, ``test_prompt_with_arguments``, sampling, elicitation, images, audio) that a
document shelf does not have, so only the scenarios that apply to a real server run here.
``logging-set-level`` is left out on purpose: DocShelf sends no log notifications, and the
2026-07-28 protocol revision deprecates ``logging/setLevel`` (SEP-2577), so it answers "method
not found". Skips cleanly where npm or the network is missing (see ``server_support.npm_tool``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from server_support import HANG_S, free_port, http_server, npm_tool, write_launcher

from docshelf.demo.walk import build_demo_shelf

VERSION = "0.1.13"  # runs on Node 20
SCENARIOS = [
    "server-initialize",
    "ping",
    "tools-list",
    "tools-call-error",
    "resources-list",
    "prompts-list",
    "completion-complete",
    "dns-rebinding-protection",
]


@pytest.fixture(scope="module")
def conformance() -> Path:
    return npm_tool("@modelcontextprotocol/conformance", VERSION, "conformance")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    base = tmp_path_factory.mktemp("conformance")
    return str(build_demo_shelf(base / "shelf")), base


def test_the_applicable_conformance_scenarios_pass(conformance: Path, served: tuple[str, Path]) -> None:
    shelf, base = served
    port, out = free_port(), base / "results"
    launcher = write_launcher(base)
    with http_server(launcher, ["--shelf", shelf, "--audit-log", str(base / "audit.jsonl")], port):
        failed: dict[str, list[str]] = {}
        for scenario in SCENARIOS:
            where = out / scenario
            cmd = [str(conformance), "server", "--url", f"http://127.0.0.1:{port}/mcp", "--scenario", scenario]
            proc = subprocess.run([*cmd, "-o", str(where)], capture_output=True, text=True, timeout=HANG_S)
            checks = [c for f in where.rglob("checks.json") for c in json.loads(f.read_text(encoding="utf-8"))]
            bad = [f"{c['id']}: {c['status']}" for c in checks if c["status"] != "SUCCESS"]
            if proc.returncode != 0 or bad or not checks:
                failed[scenario] = bad or [proc.stdout[-500:]]
    assert failed == {}
