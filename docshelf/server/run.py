"""``docshelf serve`` put together: check the settings, pin, open the audit log, build the server, run it."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import anyio
from mcp.server.mcpserver import MCPServer

from docshelf.errors import DocShelfError, ServeError
from docshelf.server import DEFAULT_INTERVAL_S, MAX_STREAMS, MAX_STREAMS_PER_CLIENT, STREAM_IDLE_S
from docshelf.server.app import create_server
from docshelf.server.audit import AuditLog
from docshelf.server.auth import TokenFileVerifier
from docshelf.server.edges import HEADER_TIMEOUT_S
from docshelf.server.follow import Follower
from docshelf.server.httpapp import (
    allowed_hosts_for,
    connection_guard,
    create_http_app,
    is_loopback,
    run_http,
    stream_limits,
)
from docshelf.server.ops import Metrics, Readiness
from docshelf.server.pin import Pin, ReadableRefs, check_pattern
from docshelf.shelf import gitrepo
from docshelf.text import buildqueue, warmup

Say = Callable[[str], None]


@dataclass(frozen=True)
class ServeOptions:
    root: Path
    audit_log: Path
    transport: str = "stdio"
    host: str = "127.0.0.1"
    port: int = 8765
    tokens_file: Path | None = None
    at: str | None = None
    follow: str | None = None
    follow_interval: float = DEFAULT_INTERVAL_S
    allowed_hosts: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()  # readable refs for `at`; empty: the served branch and the tags
    header_timeout: float = HEADER_TIMEOUT_S
    max_builds: int = buildqueue.RUNNING  # index builds for other commits at once (text.buildqueue)
    waiting_builds: int = buildqueue.WAITING  # more that may wait for a slot; past them a call is told to retry
    max_streams: int = MAX_STREAMS  # held GET /mcp event streams, in all and per client (server.streams)
    max_streams_per_client: int = MAX_STREAMS_PER_CLIENT
    stream_idle_s: float = STREAM_IDLE_S
    trusted_proxies: tuple[str, ...] = ()  # reverse proxies: X-Forwarded-For names their clients (server.edges)


def check_http(host: str, tokens_file: Path | None, allowed_hosts: tuple[str, ...]) -> None:
    """Refuse HTTP settings that would expose the shelf: no tokens off loopback, or a Host check nobody passes."""
    if tokens_file is None and not is_loopback(host):
        raise ServeError(
            f"Refusing to serve on {host} without --tokens: anyone who can reach it could read the shelf. "
            "Create tokens with `docshelf token add NAME --tokens FILE` and pass --tokens FILE, "
            "or bind to 127.0.0.1 for local use."
        )
    if host in ("0.0.0.0", "::") and not allowed_hosts:
        # Clients would send Host: <name>, which the DNS-rebinding check refuses (421) unless it is listed.
        raise ServeError(
            f"Serving on all interfaces ({host}) needs --allowed-host NAME: the host name (or address) "
            "clients use to reach this server, e.g. --allowed-host docshelf.corp."
        )


def _pin(root: Path, at: str | None, follow: str | None, refs: tuple[str, ...], say: Say) -> Pin:
    gitrepo.require_repo(root)  # NotAShelfError with its advice, before anything else
    readable = ReadableRefs(tuple(check_pattern(p) for p in refs)) if refs else None
    if follow is not None:
        return Follower.start_pin(root, follow, log=say, readable=readable)
    return Pin.at(root, at, readable=readable)


async def _serve_stdio(server: MCPServer, follower: Follower | None, warm: Callable[[], None]) -> None:
    async with anyio.create_task_group() as tg:
        if follower is not None:
            tg.start_soon(follower.run)
        tg.start_soon(_warm, warm)  # beside the handshake: `initialize` does not wait for it
        await server.run_stdio_async()
        tg.cancel_scope.cancel()


async def _warm(warm: Callable[[], None]) -> None:
    try:
        await anyio.to_thread.run_sync(warm)
    except DocShelfError:
        pass  # the first call meets the same error and reports it to its client


def serve_shelf(opts: ServeOptions, *, say: Say) -> None:
    """Serve until the client disconnects (stdio) or the process is interrupted (http)."""
    http = opts.transport == "http"
    if http:
        check_http(opts.host, opts.tokens_file, opts.allowed_hosts)
        for proxy in opts.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ServeError(
                    f"--trusted-proxy {proxy!r} is not an address or a network: give the proxy's IP (10.0.0.5) or "
                    "its network (10.0.0.0/24)."
                ) from None
    hosts = allowed_hosts_for(opts.host, opts.allowed_hosts) if http else []
    verifier = TokenFileVerifier(opts.tokens_file) if opts.tokens_file is not None else None
    pin = _pin(opts.root, opts.at, opts.follow, opts.refs, say)
    buildqueue.BUILDS.configure(opts.max_builds, opts.waiting_builds)
    follower = None
    if opts.follow is not None:
        follower = Follower(opts.root, opts.follow, pin, interval=opts.follow_interval, log=say,
                            prepare=lambda commit: warmup.prepare(opts.root, commit))  # fmt: skip
    with AuditLog(opts.audit_log) as log:
        metrics = Metrics()
        server = create_server(opts.root, pin=pin, audit=log, token_verifier=verifier, metrics=metrics)
        say(f"docshelf serve: shelf {opts.root} at {pin.current} ({pin.label}); audit log {log.path}")
        say(f"docshelf serve: `at` reads {pin.readable.describe()}")
        if not http:
            anyio.run(_serve_stdio, server, follower, lambda: warmup.prepare(opts.root, pin.current))
            return
        if verifier is None:
            say(f"docshelf serve: no --tokens, so no authentication: serving on loopback {opts.host} only.")
        background = [follower.run] if follower is not None else []
        readiness = Readiness(opts.root, pin, metrics, verifier=verifier)
        limits = stream_limits(log, readiness, total=opts.max_streams, per_client=opts.max_streams_per_client,
                               idle_s=opts.stream_idle_s)  # fmt: skip
        app = create_http_app(
            server, allowed_hosts=hosts, audit=log, background=background, readiness=readiness, streams=limits
        )
        say(f"docshelf serve: http://{opts.host}:{opts.port}/mcp (allowed hosts: {', '.join(hosts)})")
        guard = connection_guard(log, readiness, header_timeout=opts.header_timeout, trusted=opts.trusted_proxies)
        run_http(app, opts.host, opts.port, guard=guard, trusted_proxies=opts.trusted_proxies)
