"""Bounded event streams: a ``GET /mcp`` stream is held only so long, and only so many at once.

A streamable-HTTP client may open ``GET /mcp`` for server-sent events and keep it open; the stateless
server sends nothing on it, so a held stream costs a connection and a task for no answer, and enough of
them turn every call away with 503. Here a stream counts against a cap per client (its bearer token,
else its address) and one for the server; past either the request is refused with 429 or 503 and a
``Retry-After``, and each refusal is written to the audit log with its reason. A stream is ended after
``idle_s`` seconds (the client reconnects when it wants events again). Everything else passes through.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from docshelf.server import MAX_STREAMS, MAX_STREAMS_PER_CLIENT, STREAM_IDLE_S

RETRY_AFTER_S = 30

Refused = Callable[[Scope, int, str], None]  # (the request, its status, the reason) -> audit it


def _ignore(_scope: Scope, _status: int, _reason: str) -> None:
    return None


@dataclass
class StreamLimits:
    """How many event streams are open, per client and in all; shared by every request of one server."""

    total: int = MAX_STREAMS
    per_client: int = MAX_STREAMS_PER_CLIENT
    idle_s: float = STREAM_IDLE_S
    on_refusal: Refused = _ignore
    open: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.total < 1 or self.per_client < 1 or self.idle_s <= 0:
            raise ValueError("the stream limits must be at least 1 and the idle timeout above 0")

    def take(self, client: str) -> tuple[int, str] | None:
        """Count a new stream of ``client``; or the (status, reason) it is refused with."""
        with self._lock:
            if self.open[client] >= self.per_client:
                return 429, "too_many_streams_from_client"
            if sum(self.open.values()) >= self.total:
                return 503, "too_many_streams"
            self.open[client] += 1
            return None

    def give_back(self, client: str) -> None:
        with self._lock:
            self.open[client] -= 1
            if self.open[client] <= 0:
                del self.open[client]


def client_key(scope: Scope) -> str:
    """Who a stream belongs to: its bearer token (hashed, never kept), else the peer's address."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return "token:" + hashlib.sha256(value).hexdigest()[:16]
    peer = scope.get("client")
    return f"addr:{peer[0]}" if peer else "addr:?"


def _is_stream(scope: Scope, path: str) -> bool:
    if scope["type"] != "http" or scope.get("method") != "GET" or scope.get("path") != path:
        return False
    return any(name == b"accept" and b"text/event-stream" in value for name, value in scope.get("headers", []))


class BoundedStreams:
    """ASGI middleware: ``GET`` event streams on ``path`` under ``limits`` (see the module docstring)."""

    def __init__(self, app: ASGIApp, limits: StreamLimits, path: str = "/mcp") -> None:
        self.app, self.limits, self.path = app, limits, path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_stream(scope, self.path):
            await self.app(scope, receive, send)
            return
        client = client_key(scope)
        refused = self.limits.take(client)
        if refused is not None:
            status, reason = refused
            self.limits.on_refusal(scope, status, reason)
            await _refuse(send, status, reason)
            return
        started = ended = False

        async def watched(message: Message) -> None:
            nonlocal started, ended
            started = started or message["type"] == "http.response.start"
            ended = ended or (message["type"] == "http.response.body" and not message.get("more_body", False))
            await send(message)

        try:
            with anyio.move_on_after(self.limits.idle_s):
                await self.app(scope, receive, watched)
            if started and not ended:  # held past the idle timeout: end it, the client reconnects when it wants
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.limits.give_back(client)


async def _refuse(send: Send, status: int, reason: str) -> None:
    body = (
        f'{{"error": "{reason}", "error_description": "Too many open event streams; close one or retry in '
        f'{RETRY_AFTER_S} s. Tool calls (POST) are not limited by this."}}'
    ).encode()
    headers = [(b"content-type", b"application/json"), (b"retry-after", str(RETRY_AFTER_S).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BoundedStreams", "StreamLimits", "client_key"]
