"""What an operator watches: ``/healthz`` (live), ``/readyz`` (ready to answer) and ``/metrics`` (Prometheus).

* ``/healthz`` is 200 while the process serves HTTP, naming the commit it serves.
* ``/readyz`` is 200 once the served commit is loaded and its search index is built, 503 before
  (at start, and for the moment after ``--follow`` moves to a new commit); load balancers route
  only to ready replicas. Both name the commit, so an operator can see which replica serves what.
* ``/metrics``: calls, errors and latency per tool, the served commit, search-index builds (and the
  bounded queue of builds for other commits: started, queued now, refused) and refused connections,
  every name prefixed ``docshelf_``. Each server has its own registry, so
  two servers in one process (tests) do not mix their counts.

None of them needs a token (a load balancer has none), and none says anything about the shelf's
content.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp.server.auth.provider import TokenVerifier
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.types import CallToolResult
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, Info, generate_latest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from docshelf.errors import DocShelfError
from docshelf.server.auth import role_of
from docshelf.server.pin import Pin
from docshelf.text import warmup
from docshelf.text.buildqueue import BUILDS

READY_POLL_S = 0.5  # how soon a moved pin is noticed and its index built


@dataclass
class Metrics:
    """The server's Prometheus metrics, in a registry of its own."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        r = self.registry
        self.calls = Counter("docshelf_calls", "MCP tool calls and resource reads.", ["tool", "outcome"], registry=r)
        self.errors = Counter("docshelf_errors", "Calls that ended in an error.", ["tool"], registry=r)
        self.latency = Histogram("docshelf_call_seconds", "Time to answer a call.", ["tool"], registry=r)
        self.served = Info("docshelf_served_commit", "The commit the server answers from.", registry=r)
        self.index_builds = Counter("docshelf_index_builds", "Search indexes built or loaded.", registry=r)
        self.index_seconds = Histogram("docshelf_index_build_seconds", "Time to build a search index.", registry=r)
        self.ready = Gauge("docshelf_ready", "1 when the served commit's search index is built.", registry=r)
        self.refused = Counter("docshelf_connections_refused", "Connections closed at the edge.", ["reason"],
                               registry=r)  # fmt: skip
        queue = "Index builds of the bounded queue (text/buildqueue.py)"
        self.builds = Gauge("docshelf_index_queue", f"{queue}: started, queued now, refused.", ["state"], registry=r)

    def read_queue(self) -> None:
        """The build queue's counts as they are now (read when /metrics is rendered)."""
        self.builds.labels("started").set(BUILDS.started)
        self.builds.labels("queued").set(BUILDS.queued)
        self.builds.labels("refused").set(BUILDS.refused)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class MetricsMiddleware:
    """MCP server middleware: count and time every ``tools/call`` and ``resources/read``.

    Labels come from the server's own names only: a tool name a client sends that the server does not have
    is counted as ``other``, so no client can grow ``/metrics`` (and the cost of rendering it) by inventing
    names.
    """

    def __init__(self, metrics: Metrics, tools: Iterable[str] = ()) -> None:
        self.metrics = metrics
        self.tools = frozenset(tools)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method not in ("tools/call", "resources/read"):
            return await call_next(ctx)
        params = dict(ctx.params or {})
        name = str(params.get("name") or "")
        tool = (name if name in self.tools else "other") if ctx.method == "tools/call" else "resource"
        t0 = time.perf_counter()
        outcome = "ok"
        try:
            result = await call_next(ctx)
            if _is_error(result):
                outcome = "tool_error"
            return result
        except Exception:
            outcome = "error"
            raise
        finally:
            self.metrics.calls.labels(tool, outcome).inc()
            if outcome != "ok":
                self.metrics.errors.labels(tool).inc()
            self.metrics.latency.labels(tool).observe(time.perf_counter() - t0)


def _is_error(result: Any) -> bool:
    if isinstance(result, CallToolResult):
        return bool(result.is_error)
    return isinstance(result, dict) and bool(result.get("isError"))


@dataclass
class Readiness:
    """Which commit is loaded with its search index built; ``watch`` keeps it at the pin."""

    root: Path
    pin: Pin
    metrics: Metrics
    ready_commit: str | None = None
    last_error: str | None = None
    # With tokens, /metrics answers only a bearer token of the tokens file: its labels name the tools and
    # the refusals, and rendering it has a cost no anonymous client should be able to call for.
    verifier: TokenVerifier | None = None

    def prepare(self, commit: str) -> None:
        """Read what calls on ``commit`` need (its search index, texts, clause tables: text/warmup.py); then it
        is the ready one."""
        t0 = time.perf_counter()
        warmup.prepare(self.root, commit)
        self.metrics.index_seconds.observe(time.perf_counter() - t0)
        self.metrics.index_builds.inc()
        self.ready_commit, self.last_error = commit, None
        self.metrics.served.info({"commit": commit, "label": self.pin.label})

    async def watch(self) -> None:
        """Prepare the pinned commit now and again whenever the pin moves (runs for the app's lifetime)."""
        while True:
            commit = self.pin.current
            if commit != self.ready_commit:
                try:
                    await anyio.to_thread.run_sync(self.prepare, commit)
                except DocShelfError as exc:
                    self.last_error = str(exc)  # /readyz says why; the next poll tries again
            self.metrics.ready.set(1 if self.ready_commit == self.pin.current else 0)
            await anyio.sleep(READY_POLL_S)

    async def healthz(self, _request: Request) -> JSONResponse:
        return JSONResponse({"ok": True, "commit": self.pin.current})

    async def readyz(self, _request: Request) -> JSONResponse:
        commit = self.pin.current
        if self.ready_commit == commit:
            return JSONResponse({"ready": True, "commit": commit})
        reason = self.last_error or "loading the commit and building its search index"
        return JSONResponse({"ready": False, "commit": commit, "reason": reason}, status_code=503)

    async def metrics_page(self, request: Request) -> Response:
        if self.verifier is not None:
            scheme, _, token = request.headers.get("authorization", "").partition(" ")
            access = await self.verifier.verify_token(token.strip()) if scheme.lower() == "bearer" else None
            if access is None:
                return JSONResponse(
                    {"error": "invalid_token", "error_description": "/metrics needs a bearer token of --tokens."},
                    status_code=401,
                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
                )
            if role_of(access) != "admin":  # its labels name the clients and what they were refused
                return JSONResponse(
                    {"error": "insufficient_scope", "error_description": "/metrics is for an admin token: "
                     "docshelf token add NAME --role admin --tokens FILE."},
                    status_code=403,
                )  # fmt: skip
        self.metrics.ready.set(1 if self.ready_commit == self.pin.current else 0)
        self.metrics.read_queue()
        return Response(self.metrics.render(), media_type=CONTENT_TYPE_LATEST)
