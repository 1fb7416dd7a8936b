"""The HTTP server as operators run it: health, readiness, metrics, and an edge that idle sockets cannot exhaust.

Every test runs ``docshelf serve --transport http`` in a subprocess on 127.0.0.1 and talks to it
over real sockets.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from server_support import HANG_S, child_env, free_port, http_server, make_small_shelf, read_lines, write_launcher

from docshelf.server.edges import MAX_WAITING, MAX_WAITING_PER_CLIENT
from docshelf.server.logs import OneLineFormatter
from docshelf.shelf import gitrepo

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read_index", "arguments": {}}}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_shelf(tmp_path_factory.mktemp("ops") / "shelf")


def serve(small: Path, tmp_path: Path, header_timeout: float) -> Iterator[tuple[str, Path]]:
    port, log = free_port(), tmp_path / "audit.jsonl"
    args = ["--shelf", str(small), "--audit-log", str(log), "--header-timeout", str(header_timeout)]
    with http_server(write_launcher(tmp_path), args, port):
        yield f"http://127.0.0.1:{port}", log


@pytest.fixture
def served(small: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    yield from serve(small, tmp_path, HANG_S)


@pytest.fixture
def impatient(small: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A server that closes connections without a complete request header after one second."""
    yield from serve(small, tmp_path, 1.0)


def wait_ready(base: str) -> httpx2.Response:
    deadline = time.monotonic() + HANG_S
    while True:
        ready = httpx2.get(f"{base}/readyz", timeout=HANG_S)
        if ready.status_code == 200 or time.monotonic() > deadline:
            return ready
        assert ready.status_code == 503 and ready.json()["ready"] is False
        time.sleep(0.1)


def test_health_and_readiness_name_the_served_commit(small: Path, served: tuple[str, Path]) -> None:
    base, _log = served
    head = gitrepo.resolve(small)
    assert httpx2.get(f"{base}/healthz", timeout=HANG_S).json() == {"ok": True, "commit": head}
    assert wait_ready(base).json() == {"ready": True, "commit": head}


def test_metrics_count_calls_errors_and_index_builds(small: Path, served: tuple[str, Path]) -> None:
    base, _log = served
    wait_ready(base)
    assert httpx2.post(f"{base}/mcp", json=CALL, headers=HEADERS, timeout=HANG_S).status_code == 200
    bad = {**CALL, "params": {"name": "fetch", "arguments": {"path": "docs/none.md"}}}
    assert httpx2.post(f"{base}/mcp", json=bad, headers=HEADERS, timeout=HANG_S).json()["result"]["isError"]
    page = httpx2.get(f"{base}/metrics", timeout=HANG_S)
    assert page.headers["content-type"].startswith("text/plain")
    lines = set(page.text.splitlines())
    head = gitrepo.resolve(small)
    assert 'docshelf_calls_total{outcome="ok",tool="read_index"} 1.0' in lines
    assert 'docshelf_calls_total{outcome="tool_error",tool="fetch"} 1.0' in lines
    assert 'docshelf_errors_total{tool="fetch"} 1.0' in lines
    assert 'docshelf_call_seconds_count{tool="read_index"} 1.0' in lines
    assert "docshelf_index_builds_total 1.0" in lines and "docshelf_ready 1.0" in lines
    assert {'docshelf_index_queue{state="queued"} 0.0', 'docshelf_index_queue{state="refused"} 0.0'} <= lines
    assert any(line.startswith('docshelf_index_queue{state="started"} ') for line in lines)
    assert f'docshelf_served_commit_info{{commit="{head}",label="HEAD"}} 1.0' in lines
    # Names a client invents are counted as «other»: they never become labels, so /metrics does not grow.
    sizes = []
    for batch in (range(5), range(5, 50)):
        for n in batch:
            made_up = {**CALL, "params": {"name": f"no_such_tool_{n}", "arguments": {}}}
            httpx2.post(f"{base}/mcp", json=made_up, headers=HEADERS, timeout=HANG_S)
        after = httpx2.get(f"{base}/metrics", timeout=HANG_S).text
        assert "no_such_tool" not in after and 'tool="other"' in after
        sizes.append(len(after.splitlines()))
    assert sizes[0] == sizes[1]  # 45 more invented names, not one line more


def test_a_thousand_idle_connections_do_not_keep_a_client_out(served: tuple[str, Path]) -> None:
    base, log = served
    port = int(base.rsplit(":", 1)[1])
    idle: list[socket.socket] = []
    try:
        for n in range(1000):
            sock = socket.create_connection(("127.0.0.1", port), timeout=HANG_S)
            if n % 2:
                sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # half a header, never finished
            idle.append(sock)
        answer = httpx2.post(f"{base}/mcp", json=CALL, headers=HEADERS, timeout=HANG_S)
        assert answer.status_code == 200 and "commit" in answer.json()["result"]["structuredContent"]
        # Once they have waited out the guard's grace, the idle ones over the per-client cap are closed.
        deadline = time.monotonic() + HANG_S
        while _evicted(log) < 1000 - MAX_WAITING_PER_CLIENT and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        for sock in idle:
            sock.close()
    assert _evicted(log) >= 1000 - MAX_WAITING_PER_CLIENT
    assert [r["outcome"] for r in read_lines(log)].count("ok") == 1


def _evicted(log: Path) -> int:
    return [r["outcome"] for r in read_lines(log)].count("conn_too_many_idle_connections_from_client")


def test_three_hundred_clients_that_connect_at_once_from_one_address_are_all_answered(
    served: tuple[str, Path],
) -> None:
    """Behind a proxy every client has its address: a connection that sends a whole request right away is
    read before anyone is judged idle, so none of 300 simultaneous one-shot calls is closed unanswered."""
    base, log = served
    port = int(base.rsplit(":", 1)[1])
    body = json.dumps(CALL).encode()
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n").encode()  # fmt: skip
    socks = [socket.create_connection(("127.0.0.1", port), timeout=HANG_S) for _ in range(300)]
    try:
        for sock in socks:
            sock.sendall(head + body)
        answers = [_read_all(sock) for sock in socks]
    finally:
        for sock in socks:
            sock.close()
    assert sum(a.startswith(b"HTTP/1.1 200") for a in answers) == 300
    assert _evicted(log) == 0


def _read_all(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def _exchange(sock: socket.socket, request: bytes) -> bytes:
    """Send one request on a kept-alive socket and read exactly its response (header, then Content-Length)."""
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return data  # closed by the server
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(ln.split(b":")[1] for ln in head.split(b"\r\n") if ln.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(4096)
    return head + b"\r\n\r\n" + body


def test_many_kept_alive_clients_on_one_address_are_not_cut_off(served: tuple[str, Path]) -> None:
    """Clients behind one proxy share an address: once answered, their idle keep-alive is not per-client capped."""
    base, log = served
    port = int(base.rsplit(":", 1)[1])
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    clients: list[socket.socket] = []
    try:
        for _ in range(2 * MAX_WAITING_PER_CLIENT):  # one at a time, so no more than one is fresh at any moment
            sock = socket.create_connection(("127.0.0.1", port), timeout=HANG_S)
            clients.append(sock)
            assert _exchange(sock, request).startswith(b"HTTP/1.1 200")
        for sock in clients:  # all kept alive and idle, twice the per-client limit: each answers again
            assert _exchange(sock, request).startswith(b"HTTP/1.1 200")
    finally:
        for sock in clients:
            sock.close()
    assert not [r for r in read_lines(log) if r["outcome"].startswith("conn_too_many")]


def test_a_request_body_that_never_arrives_whole_is_closed_and_audited(impatient: tuple[str, Path]) -> None:
    base, log = impatient
    port = int(base.rsplit(":", 1)[1])
    head = (
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=HANG_S) as sock:
        sock.sendall(head.encode("ascii") + b'{"jsonrpc":')  # 11 of the 100 bytes, then nothing
        assert sock.recv(1024) == b""  # closed by the server (a hang would raise the socket timeout)
    assert [r["outcome"] for r in read_lines(log)] == ["conn_request_body_timeout"]


def test_a_connection_that_sends_no_complete_header_is_closed_and_audited(impatient: tuple[str, Path]) -> None:
    base, log = impatient
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=HANG_S) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert sock.recv(1024) == b""  # closed by the server (a hang would raise the socket timeout)
    assert [r["outcome"] for r in read_lines(log)] == ["conn_request_header_timeout"]


def test_with_tokens_metrics_answer_only_an_admin_token_of_the_file(small: Path, tmp_path: Path) -> None:
    from docshelf.server.auth import add_token

    tokens = tmp_path / "tokens.json"
    token = add_token(tokens, "monitor", "admin")
    client = add_token(tokens, "model-1")  # a client's token: the tools, not the monitoring page
    port, log = free_port(), tmp_path / "audit.jsonl"
    args = ["--shelf", str(small), "--audit-log", str(log), "--tokens", str(tokens)]
    with http_server(write_launcher(tmp_path), args, port):
        base = f"http://127.0.0.1:{port}"
        wait_ready(base)
        anonymous = httpx2.get(f"{base}/metrics", timeout=HANG_S)
        wrong = httpx2.get(f"{base}/metrics", headers={"Authorization": "Bearer nope"}, timeout=HANG_S)
        other = httpx2.get(f"{base}/metrics", headers={"Authorization": f"Bearer {client}"}, timeout=HANG_S)
        right = httpx2.get(f"{base}/metrics", headers={"Authorization": f"Bearer {token}"}, timeout=HANG_S)
    assert (anonymous.status_code, wrong.status_code, other.status_code, right.status_code) == (401, 401, 403, 200)
    assert "--role admin" in other.json()["error_description"]
    assert "docshelf_calls" not in anonymous.text and "docshelf_ready" in right.text


def test_cut_off_bodies_cost_one_log_line_each_and_an_authorized_call_is_answered_meanwhile(
    small: Path, tmp_path: Path
) -> None:
    """A body the client stops sending is logged in one line, never as a rendered traceback on the event loop."""
    port, log = free_port(), tmp_path / "audit.jsonl"
    args = ["--shelf", str(small), "--audit-log", str(log)]
    with http_server(write_launcher(tmp_path), args, port) as proc:
        said: list[str] = []
        reader = threading.Thread(target=lambda: said.extend(proc.stderr), daemon=True)  # never let the pipe fill
        reader.start()
        head = (
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n"
        ).encode("ascii")
        for n in range(300):
            with socket.create_connection(("127.0.0.1", port), timeout=HANG_S) as sock:
                sock.sendall(head + b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", ' % n)  # then gone
        answer = httpx2.post(f"http://127.0.0.1:{port}/mcp", json=CALL, headers=HEADERS, timeout=HANG_S)
        assert answer.status_code == 200 and "commit" in answer.json()["result"]["structuredContent"]
        proc.terminate()
        proc.wait(timeout=HANG_S)
        reader.join(timeout=HANG_S)
    assert not [line for line in said if "Traceback" in line or line.startswith(("  File", "│", "╭"))]
    assert len(said) <= 300 + 10  # at most one line per cut-off request (and a few of shutdown)


def test_a_logged_exception_is_one_line_and_its_traceback_only_at_debug() -> None:
    try:
        raise ValueError("body cut off\nat byte 11")
    except ValueError:
        record = logging.LogRecord("mcp", logging.ERROR, __file__, 1, "Error handling POST", (), sys.exc_info())
    line = OneLineFormatter().format(record)
    assert "\n" not in line and line.endswith("Error handling POST (ValueError: body cut off at byte 11)")
    assert "Traceback" in OneLineFormatter(full_traces=True).format(record)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_every_line_the_server_logs_is_in_one_format(small: Path, tmp_path: Path, fmt: str) -> None:
    """The server's own status lines, uvicorn's and the SDK's all go through logging in the one format chosen:
    a dated text line, or one JSON object a line (`--log-format json`) for a log collector."""
    port, log = free_port(), tmp_path / "audit.jsonl"
    args = ["--shelf", str(small), "--audit-log", str(log), "--log-format", fmt]
    with http_server(write_launcher(tmp_path), args, port) as proc:
        assert (
            httpx2.post(f"http://127.0.0.1:{port}/mcp", json=CALL, headers=HEADERS, timeout=HANG_S).status_code == 200
        )
        with socket.create_connection(("127.0.0.1", port), timeout=HANG_S) as sock:  # a body cut off: an error line
            sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
        proc.terminate()
        _out, err = proc.communicate(timeout=HANG_S)
    lines = [line for line in err.splitlines() if line.strip()]
    assert any("docshelf serve: http://127.0.0.1" in line for line in lines), err
    if fmt == "json":
        records = [json.loads(line) for line in lines]  # every line is one JSON object
        assert all({"ts", "level", "logger", "message"} <= set(r) for r in records)
        assert any(r["logger"] == "docshelf" and r["level"] == "INFO" for r in records)
    else:
        stamp = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) \S+: ")
        assert [line for line in lines if not stamp.match(line)] == []


STREAM = {"Accept": "text/event-stream"}


def test_held_event_streams_are_capped_per_token_and_in_all_and_every_refusal_is_audited(
    small: Path, tmp_path: Path
) -> None:
    from docshelf.server.auth import add_token

    tokens = tmp_path / "tokens.json"
    one, two = add_token(tokens, "one"), add_token(tokens, "two")
    port, log = free_port(), tmp_path / "audit.jsonl"
    args = ["--shelf", str(small), "--audit-log", str(log), "--tokens", str(tokens),
            "--max-streams", "3", "--max-streams-per-client", "2"]  # fmt: skip
    base = f"http://127.0.0.1:{port}/mcp"
    with http_server(write_launcher(tmp_path), args, port), httpx2.Client(timeout=HANG_S) as http:
        with contextlib.ExitStack() as held:

            def stream(token: str) -> httpx2.Response:
                headers = {**STREAM, "Authorization": f"Bearer {token}"}
                return held.enter_context(http.stream("GET", base, headers=headers))

            assert [stream(one).status_code, stream(one).status_code] == [200, 200]
            third = stream(one)  # a third of one token's streams
            assert third.status_code == 429 and third.headers["retry-after"] == "30"
            assert stream(two).status_code == 200  # three in all now
            assert stream(two).status_code == 503  # the server's cap
            call = http.post(base, json=CALL, headers={**HEADERS, "Authorization": f"Bearer {two}"})
            assert call.status_code == 200  # tool calls are not held up by the streams
        # Closed streams give their places back once the server sees the disconnects (a moment later).
        deadline = time.monotonic() + HANG_S
        while True:
            with http.stream("GET", base, headers={**STREAM, "Authorization": f"Bearer {one}"}) as again:
                if again.status_code == 200 or time.monotonic() > deadline:
                    break
            time.sleep(0.1)
        assert again.status_code == 200
    refused = [(r["outcome"], r["error"]) for r in read_lines(log) if r["outcome"] in ("http_429", "http_503")]
    assert refused[:2] == [("http_429", "too_many_streams_from_client"), ("http_503", "too_many_streams")]
    assert set(refused[2:]) <= {("http_429", "too_many_streams_from_client")}  # the waits for a place, each audited


def test_an_idle_event_stream_is_ended_and_gives_its_place_back(small: Path, tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "audit.jsonl"
    args = ["--shelf", str(small), "--audit-log", str(log), "--stream-timeout", "0.5", "--max-streams-per-client", "1"]
    base = f"http://127.0.0.1:{port}/mcp"
    with http_server(write_launcher(tmp_path), args, port), httpx2.Client(timeout=HANG_S) as http:
        for _ in range(2):  # the second is allowed only because the first ended
            with http.stream("GET", base, headers=STREAM) as held:
                assert held.status_code == 200
                assert b"".join(held.iter_bytes()) == b""  # ends by itself: nothing was sent, then the end


@pytest.mark.parametrize("trusted", [False, True])
def test_a_forwarded_address_is_the_client_only_through_a_trusted_proxy(
    small: Path, tmp_path: Path, trusted: bool
) -> None:
    """Through a trusted proxy the audit log names the client it forwards for, and the proxy's own idle
    connections count only toward the server's total; from anyone else the header is ignored."""
    port, log = free_port(), tmp_path / "audit.jsonl"
    args = ["--shelf", str(small), "--audit-log", str(log), *(["--trusted-proxy", "127.0.0.1"] if trusted else [])]
    base = f"http://127.0.0.1:{port}/mcp"
    with http_server(write_launcher(tmp_path), args, port):
        forwarded = {**HEADERS, "X-Forwarded-For": "10.1.2.3"}
        assert httpx2.post(base, json=CALL, headers=forwarded, timeout=HANG_S).status_code == 200
        over = 40  # idle connections past the server's total cap: their eviction shows the guard has looked
        idle = [socket.create_connection(("127.0.0.1", port), timeout=HANG_S) for _ in range(MAX_WAITING + over)]
        # What the guard is to have done: from anyone else, the client's share evicted (it goes on closing
        # after the first few, so the wait is for all of them, not for the first «over»).
        done = over if trusted else MAX_WAITING + over - MAX_WAITING_PER_CLIENT
        try:
            deadline = time.monotonic() + HANG_S
            while (_closed(log) if trusted else _evicted(log)) < done and time.monotonic() < deadline:
                time.sleep(0.1)
            assert httpx2.post(base, json=CALL, headers=HEADERS, timeout=HANG_S).status_code == 200
        finally:
            for sock in idle:
                sock.close()
    (first, *_rest) = [r for r in read_lines(log) if r["outcome"] == "ok"]
    assert first["peer"].split(":")[0] == ("10.1.2.3" if trusted else "127.0.0.1")
    if trusted:
        assert _evicted(log) == 0 and _closed(log) >= over  # only the total cap applies to the proxy
    else:
        assert _evicted(log) >= done


def _closed(log: Path) -> int:
    """Idle connections the guard closed, for either cap."""
    return sum(r["outcome"].startswith("conn_too_many_idle") for r in read_lines(log))


def test_a_trusted_proxy_must_be_an_address_or_a_network(small: Path, tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, str(write_launcher(tmp_path)), "serve", "--shelf", str(small),
                          "--transport", "http", "--trusted-proxy", "caddy.local"], capture_output=True, text=True,
                         encoding="utf-8", env=child_env(), timeout=HANG_S)  # fmt: skip
    assert res.returncode == 1 and "--trusted-proxy 'caddy.local' is not an address or a network" in res.stderr
