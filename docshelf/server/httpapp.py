"""Streamable HTTP: the MCP endpoint at ``/mcp`` (JSON responses, stateless) and the ops pages, under uvicorn.

Stateless mode keeps no session between requests, so several replicas can serve one shelf
behind a load balancer (they share nothing but the Git repository and, if wanted, the audit
file, which is appended with O_APPEND). The fence on this side: bearer tokens (``auth``), the
Host/Origin allow-list (DNS rebinding; a wrong Host gets 421), a request body cap (413), the
connection guard of ``edges`` (idle and half-sent connections are closed, so they cannot crowd
out real clients), and an audit line for every request or connection refused before it reached
MCP. ``/healthz``, ``/readyz`` and ``/metrics`` are described in ``ops``.
"""

from __future__ import annotations

import ipaddress
import re
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Any

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from docshelf.errors import ServeError
from docshelf.server.audit import AuditLog, utc_now
from docshelf.server.edges import HEADER_TIMEOUT_S, ConnectionGuard, guarded_protocol
from docshelf.server.ops import Readiness
from docshelf.server.streams import BoundedStreams, StreamLimits
from docshelf.server.tools import MAX_ARGUMENT_CHARS, MAX_BATCH_ITEMS

MCP_PATH = "/mcp"
# The body cap follows the tools' argument limits, so every call a tool accepts gets through. A
# character is at most 12 bytes of JSON: one outside the BMP escaped as a surrogate pair
# "\ud83d\ude00" (a Cyrillic letter is 2 bytes raw, 6 as "\u0439"). Around the arguments: the
# JSON-RPC envelope, ``_meta`` and a batch's per-item keys.
JSON_BYTES_PER_CHAR = 12
ENVELOPE_BYTES = 64 * 1024 + 64 * MAX_BATCH_ITEMS
MAX_BODY_BYTES = JSON_BYTES_PER_CHAR * MAX_ARGUMENT_CHARS + ENVELOPE_BYTES  # about 2.5 MB
# A backstop only: idle connections are bounded by the guard (edges.MAX_WAITING), so this counts
# requests in progress; beyond it uvicorn answers 503 instead of queueing without bound.
MAX_CONNECTIONS = 2048
KEEP_ALIVE_S = 5
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
REFUSED = {401, 403, 413, 421}
_HOST = re.compile(r"^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)(?::\d{1,5})?$")

Job = Callable[[], Coroutine[Any, Any, None]]


def is_loopback(host: str) -> bool:
    """True for names and addresses that only this machine can reach."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts_for(bind_host: str, extra: Sequence[str] = ()) -> list[str]:
    """Host names clients may use: loopback, the bound address when it is a specific one, and ``extra``."""
    names = [*LOOPBACK_NAMES, *extra]
    if bind_host not in ("0.0.0.0", "::", "") and not is_loopback(bind_host):
        names.append(f"[{bind_host}]" if ":" in bind_host else bind_host)
    for name in names:
        if not _HOST.match(name):
            raise ServeError(f"Invalid --allowed-host {name!r}: give a host name or address, e.g. docshelf.corp.")
    return list(dict.fromkeys(n.lower() for n in names))


def transport_security(hosts: Sequence[str]) -> TransportSecuritySettings:
    """DNS-rebinding protection for exactly ``hosts`` (any port unless a name carries one)."""
    allowed: list[str] = []
    origins: list[str] = []
    for host in hosts:
        has_port = bool(re.search(r":\d+$", host))
        allowed += [host] if has_port else [host, f"{host}:*"]
        for scheme in ("http", "https"):
            origins += [f"{scheme}://{host}"] if has_port else [f"{scheme}://{host}", f"{scheme}://{host}:*"]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=allowed, allowed_origins=origins
    )


class RejectionAudit:
    """ASGI middleware: an audit line for each HTTP request refused before MCP saw it (401/403/413/421)."""

    def __init__(self, app: ASGIApp, log: AuditLog) -> None:
        self.app, self.log = app, log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = 0

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if status in REFUSED:
                self.log.write(_rejection(scope, status, (time.perf_counter() - t0) * 1000))


def _rejection(scope: Scope, status: int, ms: float) -> dict[str, object]:
    peer = scope.get("client")
    record = refusal_record(peer, f"http_{status}", str(scope.get("path", ""))[:1024])
    record.update(client="unauthenticated" if status == 401 else "unknown", duration_ms=round(ms, 3))
    return record


def refusal_record(peer: tuple[str, int] | None, outcome: str, path: str = "") -> dict[str, object]:
    """The audit record of a request or connection refused before MCP saw it."""
    return {
        "ts": utc_now(),
        "client": "unknown",
        "client_info": None,
        "transport": "http",
        "peer": f"{peer[0]}:{peer[1]}" if peer else None,
        "method": "http",
        "tool": None,
        "arguments": {"path": path},
        "commit": None,
        "paths": [],
        "verdict": None,
        "bytes_out": 0,
        "duration_ms": 0.0,
        "outcome": outcome,
        "error": None,
    }


def connection_guard(
    audit: AuditLog | None,
    readiness: Readiness | None = None,
    *,
    header_timeout: float = HEADER_TIMEOUT_S,
    trusted: Sequence[str] = (),
) -> ConnectionGuard:
    """The edge guard of one server: every connection it closes is audited and counted; ``trusted`` proxies'
    connections count only toward the server's total (their clients share the proxy's address)."""

    def refused(peer: tuple[str, int] | None, reason: str) -> None:
        if audit is not None:
            audit.write(refusal_record(peer, f"conn_{reason}"))
        if readiness is not None:
            readiness.metrics.refused.labels(reason).inc()

    return ConnectionGuard(header_timeout=header_timeout, on_refusal=refused, trusted=frozenset(trusted))


def stream_limits(
    audit: AuditLog | None, readiness: Readiness | None = None, *, total: int, per_client: int, idle_s: float
) -> StreamLimits:
    """The event-stream caps of one server: every stream it refuses is audited with its reason and counted."""

    def refused(scope: Scope, status: int, reason: str) -> None:
        if audit is not None:
            record = refusal_record(scope.get("client"), f"http_{status}", str(scope.get("path", ""))[:1024])
            audit.write(record | {"error": reason})
        if readiness is not None:
            readiness.metrics.refused.labels(reason).inc()

    return StreamLimits(total=total, per_client=per_client, idle_s=idle_s, on_refusal=refused)


async def healthz(_request: Request) -> JSONResponse:
    # Unauthenticated by design (load balancers); without a readiness tracker it names nothing.
    return JSONResponse({"ok": True})


def create_http_app(
    server: MCPServer,
    *,
    allowed_hosts: Sequence[str] = LOOPBACK_NAMES,
    audit: AuditLog | None = None,
    background: Sequence[Job] = (),
    max_body: int = MAX_BODY_BYTES,
    readiness: Readiness | None = None,
    streams: StreamLimits | None = None,
) -> Starlette:
    """The ASGI app: ``/mcp`` (streamable HTTP, JSON responses, stateless) and ``/healthz``.

    With ``readiness``, also ``/readyz`` and ``/metrics``, and ``/healthz`` names the served commit
    (see ``ops``). ``background`` jobs (the ``--follow`` loop) run for the app's lifetime. Build a
    new app per server: the SDK's session manager can be started only once.
    """
    jobs = [*background, *([readiness.watch] if readiness is not None else [])]
    mcp_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=True,
        stateless_http=True,
        max_request_body_size=max_body,
        transport_security=transport_security(allowed_hosts),
    )

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        # Starlette does not run a mounted app's lifespan, so the session manager is entered here.
        async with server.session_manager.run(), anyio.create_task_group() as tg:
            for job in jobs:
                tg.start_soon(job)
            yield
            tg.cancel_scope.cancel()

    middleware = [Middleware(RejectionAudit, log=audit)] if audit is not None else []
    # Held GET /mcp event streams are bounded per client and in all, and ended when idle (``streams``).
    middleware.append(Middleware(BoundedStreams, limits=streams or StreamLimits(), path=MCP_PATH))
    routes: list[Route | Mount] = [Route("/healthz", healthz, methods=["GET"])]
    if readiness is not None:
        routes = [
            Route("/healthz", readiness.healthz, methods=["GET"]),
            Route("/readyz", readiness.readyz, methods=["GET"]),
            Route("/metrics", readiness.metrics_page, methods=["GET"]),
        ]
    routes.append(Mount("/", app=mcp_app))
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


def run_http(
    app: Starlette, host: str, port: int, guard: ConnectionGuard | None = None, trusted_proxies: Sequence[str] = ()
) -> None:
    """Serve ``app`` with uvicorn until interrupted; logs go to stderr.

    ``guard`` (default: one that audits nothing) closes idle and half-sent connections (``edges``).
    ``X-Forwarded-For`` names the client only on a connection from one of ``trusted_proxies``; from anyone
    else (loopback included: uvicorn would trust it by default) it is ignored, so no client can put
    another address into the audit log.
    """
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        log_config=None,  # uvicorn's loggers go to the root logger: one line a record (server.logs)
        access_log=False,  # the audit log records every call and every refused request
        server_header=False,
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=KEEP_ALIVE_S,
        timeout_graceful_shutdown=5,
        http=guarded_protocol(guard or ConnectionGuard()),
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies),
    )
    uvicorn.Server(config).run()
