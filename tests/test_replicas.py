"""Replicas on one Git remote: three ``serve --follow`` processes fetching from a real ``git daemon`` on loopback.

While the branch moves on the remote, every answer from any replica names one commit and its text
is that commit's blob. A call pinned (``at``) to a commit a replica has not fetched yet is fetched
on demand when the served branch has it, and refused as retryable when it does not — never
answered from another commit.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import HANG_S, doc_path, free_port, git, http_server, make_small_shelf, make_version, write_launcher

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture
def remote(tmp_path: Path) -> Iterator[tuple[Path, Path, str]]:
    """(authoring clone, bare repository, git:// URL of the bare repository served by git daemon)."""
    author = make_small_shelf(tmp_path / "author")
    srv = tmp_path / "srv"
    srv.mkdir()
    bare = srv / "shelf.git"
    git(tmp_path, "clone", "--quiet", "--bare", str(author), str(bare))
    git(author, "remote", "add", "origin", str(bare))
    port = free_port()
    daemon = subprocess.Popen(
        [
            "git",
            "daemon",
            "--reuseaddr",
            "--export-all",
            "--informative-errors",
            f"--base-path={srv}",
            "--listen=127.0.0.1",
            f"--port={port}",
            str(srv),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + HANG_S
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "git daemon did not start"
                time.sleep(0.1)
        yield author, bare, f"git://127.0.0.1:{port}/shelf.git"
    finally:
        daemon.terminate()
        daemon.wait(timeout=HANG_S)


def replicas(stack: ExitStack, tmp_path: Path, url: str, n: int, interval: float) -> list[str]:
    """``n`` clones of ``url``, each served by ``serve --follow main`` over HTTP; their base URLs."""
    bases = []
    for i in range(n):
        clone = tmp_path / f"replica-{i}"
        git(tmp_path, "clone", "--quiet", url, str(clone))
        port = free_port()
        args = ["--shelf", str(clone), "--follow", "main", "--follow-interval", str(interval),
                "--audit-log", str(tmp_path / f"audit-{i}.jsonl")]  # fmt: skip
        stack.enter_context(http_server(write_launcher(tmp_path, name=f"launch_{i}.py"), args, port))
        bases.append(f"http://127.0.0.1:{port}")
    return bases


def call(base: str, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": args}}
    answer = httpx2.post(f"{base}/mcp", json=body, headers=HEADERS, timeout=HANG_S)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()["result"]
    return result


def blob(bare: Path, commit: str, path: str) -> bytes:
    return subprocess.run(["git", "-C", str(bare), "cat-file", "blob", f"{commit}:{path}"], check=True,
                          capture_output=True, timeout=HANG_S).stdout  # fmt: skip


def marker(text: str) -> str:
    [found] = re.findall(r"MARKER-\w+", text)
    return found


def test_three_replicas_answer_each_from_one_commit_while_the_branch_moves(
    remote: tuple[Path, Path, str], tmp_path: Path
) -> None:
    author, bare, url = remote
    path = doc_path(author)
    pushed: list[str] = [git(author, "rev-parse", "HEAD")]

    def move_the_branch() -> None:
        for n in range(2, 8):
            pushed.append(make_version(author, f"V{n}"))
            git(author, "push", "--quiet", "origin", "main")
            time.sleep(0.4)

    answers: list[tuple[str, str, dict[str, Any]]] = []
    with ExitStack() as stack:
        bases = replicas(stack, tmp_path, url, 3, interval=0.2)
        mover = threading.Thread(target=move_the_branch)
        mover.start()
        n = 0
        while mover.is_alive() or n < 60:
            base = bases[n % 3]
            answers.append((base, "read_index", call(base, "read_index", {})))
            answers.append((base, "fetch", call(base, "fetch", {"path": path})))
            seen = answers[-1][2]["structuredContent"]["commit"]
            # A commit one replica named, read from the next one: the same commit, or a clear refusal.
            answers.append((base, "pinned", call(bases[(n + 1) % 3], "fetch", {"path": path, "at": seen})))
            n += 1
        mover.join()
    commits = set()
    for base, kind, result in answers:
        assert not result.get("isError"), (base, kind, result)
        data = result["structuredContent"]
        commits.add(data["commit"])
        assert data["commit"] in pushed, (base, kind, data["commit"])
        if kind == "read_index":
            assert data["sha256"] == hashlib.sha256(blob(bare, data["commit"], "index.md")).hexdigest()
        else:  # the section's text carries its edition's marker: the one of the commit it names
            assert marker(result["content"][0]["text"]) == marker(blob(bare, data["commit"], path).decode("utf-8"))
    assert len(commits) >= 2  # the replicas did move with the branch


def test_a_commit_not_fetched_yet_is_fetched_on_demand_or_refused_as_retryable(
    remote: tuple[Path, Path, str], tmp_path: Path
) -> None:
    author, bare, url = remote
    path = doc_path(author)
    with ExitStack() as stack:
        [base] = replicas(stack, tmp_path, url, 1, interval=3600)  # it never fetches by itself here
        first = call(base, "fetch", {"path": path})["structuredContent"]["commit"]
        newer = make_version(author, "V2")
        git(author, "push", "--quiet", "origin", "main")
        on_demand = call(base, "fetch", {"path": path, "at": newer})
        current = call(base, "fetch", {"path": path})
        git(author, "checkout", "--quiet", "-b", "unreviewed")
        hidden = make_version(author, "HIDDEN")
        git(author, "push", "--quiet", "origin", "unreviewed")
        refused = call(base, "fetch", {"path": path, "at": hidden})
    assert on_demand["structuredContent"]["commit"] == newer
    assert marker(on_demand["content"][0]["text"]) == "MARKER-V2"
    assert current["structuredContent"]["commit"] == first  # the pin moves on its own schedule only
    assert refused["isError"] and "Retry in a few seconds" in refused["content"][0]["text"]
    assert hidden in git(bare, "rev-parse", "unreviewed")
