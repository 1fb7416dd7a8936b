"""The HTTP server's edge: connections that send no request cannot crowd out the ones that do.

uvicorn keeps a connection that never sends a request header open for as long as the client
likes, and its only cap (``limit_concurrency``) answers 503 to everybody once idle sockets fill
it. Here every connection that is *waiting* for a request header (just opened, or kept alive
after a response) is on one list, oldest first, and:

* it is closed when no complete header arrives within ``header_timeout`` seconds (slowloris: a
  header sent a byte at a time does not restart the clock), and a request whose body has not
  arrived complete within another ``header_timeout`` seconds after its header is closed too (a
  body dribbled a byte at a time would otherwise hold the connection for ever);
* one client address may hold at most ``per_client`` waiting connections that have not completed a
  request yet, and the server at most ``total`` waiting connections of any kind — over either, the
  oldest waiting one is closed to make room, once it has waited ``GRACE_S`` (a burst of clients that
  connect and send at once is read before anyone is judged idle). Kept-alive connections of clients
  that were answered count only toward ``total``, and so do all connections of a trusted proxy
  (``trusted``: the compose file's Caddy), whose clients share its address.

A connection that has sent its header is busy and never evicted, so a client that sends a
request right after connecting is answered however many idle sockets others hold. Every closed
connection is reported to ``on_refusal`` (the server writes it to the audit log).
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0
MAX_WAITING_PER_CLIENT = 128  # clients behind one proxy connect from one address, many at once
MAX_WAITING = 512
GRACE_S = 1.0  # a new connection is not judged idle before this: 300 clients connecting at once all get read

Refusal = Callable[[tuple[str, int] | None, str], None]


def _ignore(_peer: tuple[str, int] | None, _reason: str) -> None:
    return None


@dataclass
class ConnectionGuard:
    """What all connections of one server share: who is waiting for a request header, oldest first."""

    header_timeout: float = HEADER_TIMEOUT_S
    per_client: int = MAX_WAITING_PER_CLIENT
    total: int = MAX_WAITING
    on_refusal: Refusal = _ignore
    trusted: frozenset[str] = frozenset()  # proxies' addresses: their connections count only toward ``total``
    grace: float = GRACE_S
    waiting: OrderedDict[GuardedH11Protocol, None] = field(default_factory=OrderedDict)
    by_client: Counter[str] = field(default_factory=Counter)
    _recheck: asyncio.TimerHandle | None = None

    def __post_init__(self) -> None:
        if self.header_timeout <= 0 or self.per_client < 1 or self.total < 1 or self.grace < 0:
            raise ValueError("header_timeout must be > 0, the connection limits at least 1 and the grace >= 0")

    def start_waiting(self, conn: GuardedH11Protocol) -> None:
        """``conn`` now waits for a header; make room by closing the oldest waiting ones over a limit.

        The per-client limit counts connections that have not yet completed a request: a kept-alive
        connection between two requests of a real client (many clients behind one proxy share an
        address) counts only toward the server's total and the header timeout.
        """
        if conn in self.waiting:
            return
        conn.waiting_since = conn.loop.time()
        self.waiting[conn] = None
        if self._counted(conn):
            self.by_client[conn.peer_host] += 1
        self.make_room(conn.loop)

    def _counted(self, conn: GuardedH11Protocol) -> bool:
        """Whether ``conn`` counts toward its address's ``per_client`` cap."""
        return not conn.served and conn.peer_host not in self.trusted

    def make_room(self, loop: asyncio.AbstractEventLoop) -> None:
        """Close the oldest waiting connections over a cap that have waited out the grace; look again when
        the next one has, if some are over a cap but still new. Runs for every new waiting connection, so it
        takes only the oldest few over a cap, never a copy of every waiting connection."""
        now, later = loop.time(), False
        for host in [h for h, n in self.by_client.items() if n > self.per_client]:
            fresh = (c for c in self.waiting if c.peer_host == host and self._counted(c))
            for conn in list(islice(fresh, self.by_client[host] - self.per_client)):
                if now - conn.waiting_since < self.grace:
                    later = True
                    break
                self.refuse(conn, "too_many_idle_connections_from_client")
        for conn in list(islice(self.waiting, max(0, len(self.waiting) - self.total))):
            if now - conn.waiting_since < self.grace:
                later = True
                break
            self.refuse(conn, "too_many_idle_connections")
        if later and self._recheck is None:
            self._recheck = loop.call_later(self.grace, self._recheck_due, loop)

    def _recheck_due(self, loop: asyncio.AbstractEventLoop) -> None:
        self._recheck = None  # one pending look at a time, however many connections asked for room meanwhile
        self.make_room(loop)

    def stop_waiting(self, conn: GuardedH11Protocol) -> None:
        if self.waiting.pop(conn, 0) is None and self._counted(conn):
            self.by_client[conn.peer_host] -= 1
            if self.by_client[conn.peer_host] <= 0:
                del self.by_client[conn.peer_host]

    def refuse(self, conn: GuardedH11Protocol, reason: str) -> None:
        """Close a waiting connection and report why."""
        self.stop_waiting(conn)
        conn.close_waiting()
        self.on_refusal(conn.client, reason)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol under a ``ConnectionGuard``; make one per server with ``guarded_protocol``."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._last_cycle: object = None
        self.served = False  # answered a request: a kept-alive connection, not a fresh idle one
        self.waiting_since = 0.0  # the loop's clock when it began to wait for a header

    @property
    def peer_host(self) -> str:
        return self.client[0] if self.client else ""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_header()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None
        self.guard.stop_waiting(self)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and self.cycle is not self._last_cycle:
            # A complete request header arrived: the connection is busy, not idle.
            self._last_cycle = self.cycle
            self._stop_timer()
            self.guard.stop_waiting(self)
            if self.conn.their_state == h11.SEND_BODY:  # now the body has its own deadline
                self._body_timer = self.loop.call_later(self.guard.header_timeout, self._body_timed_out)
        if self._body_timer is not None and self.conn.their_state != h11.SEND_BODY:
            self._body_timer.cancel()
            self._body_timer = None

    def on_response_complete(self) -> None:
        self.served = True
        if not self.transport.is_closing():
            self._await_header()  # kept alive: waiting for the next request's header
        super().on_response_complete()

    def _await_header(self) -> None:
        self._stop_timer()
        self._header_timer = self.loop.call_later(self.guard.header_timeout, self._header_timed_out)
        self.guard.start_waiting(self)

    def _header_timed_out(self) -> None:
        self._header_timer = None
        if self in self.guard.waiting:
            self.guard.refuse(self, "request_header_timeout")

    def _body_timed_out(self) -> None:
        self._body_timer = None
        if self.conn.their_state == h11.SEND_BODY and not self.transport.is_closing():
            self.transport.close()
            self.guard.on_refusal(self.client, "request_body_timeout")

    def _stop_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def close_waiting(self) -> None:
        """Close this connection, which has no request in progress."""
        self._stop_timer()
        if not self.transport.is_closing():
            self.transport.close()


def guarded_protocol(guard: ConnectionGuard) -> type[GuardedH11Protocol]:
    """A protocol class bound to ``guard`` (uvicorn instantiates the class it is given per connection)."""
    return type("DocShelfH11Protocol", (GuardedH11Protocol,), {"guard": guard})
