"""One client against everyone: the attacks of issue 27 against a real `docshelf serve --transport http`.

Each phase runs against a server subprocess on loopback and prints what it cost and what the honest
client got meanwhile. Ratios, not absolute times: the server's CPU for a malformed request against a
valid one, measured in the same run from /proc.

1. cut-off bodies: N requests whose body stops half-way, then N valid calls: server CPU per request
   of each, and the ratio (target ≤ 1: a malformed request costs no more than a valid one);
2. a burst: N one-shot calls that connect at once from one address (a proxy's clients): how many are
   answered (target: all);
3. held streams: N `GET /mcp` event streams with one token, then calls: streams let in, refused (429),
   and calls answered meanwhile (target: all);
4. metrics labels: N calls naming invented tools: /metrics lines before and after (target: equal);
5. old-commit builds: searches `at` K different commits at once: answered, told to retry, and the queue's
   count of builds started (at most --max-builds run at once; past the waiting room a call is told to retry).

    python bench/hostile.py                  # N=300, K=8
    python bench/hostile.py --n 50 --k 3     # a quick run
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from server_support import HANG_S, free_port, http_server, make_small_shelf, make_version, write_launcher  # noqa: E402

from docshelf.server.auth import add_token  # noqa: E402

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read_index", "arguments": {}}}


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / 100.0


def _request(port: int, body: bytes, length: int | None = None) -> bytes:
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Length: {length or len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


def _read_all(sock: socket.socket) -> bytes:
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except OSError:
        pass
    return data


def _with_auth(request: bytes, auth: dict[str, str]) -> bytes:
    return request.replace(b"\r\n\r\n", f"\r\nAuthorization: {auth['Authorization']}\r\n\r\n".encode(), 1)


def _one_shots(port: int, request: bytes, n: int, *, answer: bool) -> None:
    for _ in range(n):
        with socket.create_connection(("127.0.0.1", port), timeout=HANG_S) as sock:
            sock.sendall(request)
            if answer:
                _read_all(sock)


def cut_off_bodies(port: int, pid: int, n: int, auth: dict[str, str]) -> dict[str, Any]:
    """Like with like: each cut-off request and each valid call on a connection of its own."""
    body = json.dumps(CALL).encode()
    cut = _with_auth(_request(port, body[: len(body) // 2], length=len(body)), auth)
    before = proc_cpu(pid)
    _one_shots(port, cut, n, answer=False)
    honest = httpx2.post(f"http://127.0.0.1:{port}/mcp", json=CALL, headers={**HEADERS, **auth}, timeout=HANG_S)
    time.sleep(1.0)  # let the server notice the last cut-offs before the reading
    bad = proc_cpu(pid) - before
    before = proc_cpu(pid)
    _one_shots(port, _with_auth(_request(port, body), auth), n, answer=True)
    good = proc_cpu(pid) - before
    return {"cut_off_cpu_per_request_ms": 1000 * bad / n, "valid_cpu_per_call_ms": 1000 * good / n,
            "ratio": bad / good if good else float("nan"), "honest_call": honest.status_code}  # fmt: skip


def burst(port: int, n: int, auth: dict[str, str]) -> dict[str, Any]:
    body = json.dumps(CALL).encode()
    request = _request(port, body).replace(
        b"\r\n\r\n", f"\r\nAuthorization: {auth['Authorization']}\r\n\r\n".encode(), 1
    )
    socks = [socket.create_connection(("127.0.0.1", port), timeout=HANG_S) for _ in range(n)]
    for sock in socks:
        sock.sendall(request)
    answers = [_read_all(sock) for sock in socks]
    for sock in socks:
        sock.close()
    return {"clients": n, "answered": sum(a.startswith(b"HTTP/1.1 200") for a in answers)}


def held_streams(port: int, n: int, auth: dict[str, str]) -> dict[str, Any]:
    url = f"http://127.0.0.1:{port}/mcp"
    codes: list[int] = []
    unbounded = httpx2.Limits(max_connections=None, max_keepalive_connections=None)
    with ExitStack() as held, httpx2.Client(timeout=HANG_S, limits=unbounded) as http:
        for _ in range(n):
            stream = http.stream("GET", url, headers={"Accept": "text/event-stream", **auth})
            response = stream.__enter__()
            codes.append(response.status_code)
            if response.status_code == 200:
                held.push(lambda *exc, s=stream: s.__exit__(*exc))  # held open until the calls are done
            else:
                stream.__exit__(None, None, None)
        with httpx2.Client(timeout=HANG_S) as caller:
            calls = [caller.post(url, json=CALL, headers={**HEADERS, **auth}).status_code for _ in range(14)]
    return {"streams": n, "let_in": codes.count(200), "refused_429": codes.count(429),
            "refused_503": codes.count(503), "calls_answered": calls.count(200), "calls": len(calls)}  # fmt: skip


def metric_labels(port: int, n: int, auth: dict[str, str]) -> dict[str, Any]:
    """/metrics after n/2 invented tool names and after n: the second half must add no line."""
    url = f"http://127.0.0.1:{port}"

    def invent(names: range) -> int:
        with httpx2.Client(timeout=HANG_S) as http:
            for i in names:
                made_up = {**CALL, "params": {"name": f"no_such_tool_{i}", "arguments": {}}}
                http.post(f"{url}/mcp", json=made_up, headers={**HEADERS, **auth})
            return len(http.get(f"{url}/metrics", headers=auth).text.splitlines())

    half = invent(range(n // 2))
    return {"invented_tools": n, "metrics_lines_at_half": half, "metrics_lines_at_all": invent(range(n // 2, n))}


def old_commit_builds(port: int, commits: list[str], auth: dict[str, str]) -> dict[str, Any]:
    url = f"http://127.0.0.1:{port}"

    def search(commit: str) -> str:
        call = {**CALL, "params": {"name": "search", "arguments": {"query": "срок хранения", "at": commit}}}
        answer = httpx2.post(f"{url}/mcp", json=call, headers={**HEADERS, **auth}, timeout=HANG_S).json()
        return "retry" if answer["result"].get("isError") else "ok"

    with ThreadPoolExecutor(len(commits)) as pool:
        outcomes = list(pool.map(search, commits))
    page = httpx2.get(f"{url}/metrics", headers=auth, timeout=HANG_S).text
    queue = dict(re.findall(r'docshelf_index_queue\{state="(\w+)"\} ([\d.]+)', page))
    started, refused = (int(float(queue.get(k, 0))) for k in ("started", "refused"))
    return {"commits": len(commits), "answered": outcomes.count("ok"), "told_to_retry": outcomes.count("retry"),
            "builds_started": started, "refused": refused}  # fmt: skip


def _ready(port: int) -> None:
    deadline = time.monotonic() + HANG_S
    while httpx2.get(f"http://127.0.0.1:{port}/readyz", timeout=HANG_S).status_code != 200:
        if time.monotonic() > deadline:
            raise SystemExit("the server never became ready")
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="requests, clients or streams per phase")
    parser.add_argument("--k", type=int, default=8, help="commits searched at once in the build phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = make_small_shelf(base / "shelf")
        commits = [make_version(root, f"V{i}") for i in range(2, args.k + 2)]
        tokens = base / "tokens.json"
        auth = {"Authorization": f"Bearer {add_token(tokens, 'hostile', 'admin')}"}
        port = free_port()
        serve = ["--shelf", str(root), "--tokens", str(tokens), "--audit-log", str(base / "audit.jsonl"),
                 "--refs", "refs/heads/", "--max-streams-per-client", "4"]  # fmt: skip
        with http_server(write_launcher(base), serve, port) as proc:
            _ready(port)  # the commit's index is built: its CPU is not the first phase's
            results = {
                "1 cut-off bodies": cut_off_bodies(port, proc.pid, args.n, auth),
                "2 burst from one address": burst(port, args.n, auth),
                "3 held event streams": held_streams(port, args.n, auth),
                "4 metrics labels": metric_labels(port, args.n, auth),
                "5 old-commit builds": old_commit_builds(port, commits, auth),
            }
    for phase, figures in results.items():
        shown = ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())
        print(f"{phase}: {shown}")


if __name__ == "__main__":
    main()
