"""The ``serve``, ``token`` and ``audit`` commands, registered in the main CLI group by ``docshelf.cli``.

Like every DocShelf command they parse, call the library and print; ``DocShelfError`` (here
``ServeError``) becomes ``Error: …`` and exit 1 in ``cli.main``. In stdio mode nothing but the
protocol reaches stdout: every message goes to stderr.

The MCP SDK, uvicorn and Starlette are imported inside the commands: importing them costs about a
second, which every other ``docshelf`` command (and ``--help``) should not pay.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from docshelf.cliopts import LOG_FORMAT_OPTION, SHELF_OPTION
from docshelf.cliopts import shelf_root as _shelf
from docshelf.errors import ServeError
from docshelf.server import DEFAULT_INTERVAL_S, MAX_STREAMS, MAX_STREAMS_PER_CLIENT, ROLES, STREAM_IDLE_S

AUDIT_DEFAULT = Path(".docshelf") / "audit.jsonl"


TOKENS_OPTION = click.option(
    "--tokens",
    "tokens_file",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The tokens file (JSON; only SHA-256 hashes of tokens are stored).",
)


def _say(message: str) -> None:
    click.echo(message, err=True)


@click.command()
@SHELF_OPTION
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (http).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port (http).")
@click.option(
    "--tokens",
    "tokens_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Tokens file for HTTP bearer auth. Without it the server binds only to loopback.",
)
@click.option(
    "--audit-log",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Audit log, one JSON line per call (default: <shelf>/.docshelf/audit.jsonl); - for stdout (http only).",
)
@click.option("--at", default=None, help="Serve this commit, tag or branch, fixed (default: HEAD at start).")
@click.option("--follow", default=None, help="Follow this branch: fetch and switch to its tip on an interval.")
@click.option(
    "--follow-interval",
    default=DEFAULT_INTERVAL_S,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds between fetches of the followed branch.",
)
@click.option(
    "--allowed-host",
    "allowed_host",
    multiple=True,
    help="Host name clients use to reach the server (repeatable), e.g. docshelf.corp. Others get 421.",
)
@click.option(
    "--refs",
    "refs",
    multiple=True,
    help="Refs whose history `at` may read (repeatable; git for-each-ref patterns such as refs/heads/main, "
    "refs/tags/, refs/heads/release/*). Default: the served branch and the tags.",
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds a connection may take to send a request header (http); idle ones are closed after it.",
)
@click.option(
    "--max-builds",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Search-index builds for other commits (`at`) that run at once.",
)
@click.option(
    "--waiting-builds",
    default=4,
    show_default=True,
    type=click.IntRange(min=0),
    help="More builds that may wait for one; past them a call is told to retry later.",
)
@click.option(
    "--max-streams",
    default=MAX_STREAMS,
    show_default=True,
    type=click.IntRange(min=1),
    help="GET /mcp event streams open at once (http); past it a new one gets 503 and is audited.",
)
@click.option(
    "--max-streams-per-client",
    default=MAX_STREAMS_PER_CLIENT,
    show_default=True,
    type=click.IntRange(min=1),
    help="Event streams one client (its token, else its address) may hold; past it 429, audited.",
)
@click.option(
    "--stream-timeout",
    default=STREAM_IDLE_S,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds an event stream stays open; the stateless server sends nothing on it, a client reconnects.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    help="A reverse proxy's address (repeatable): its X-Forwarded-For names the client in the audit log, and its "
    "connections are exempt from the per-address idle cap. From anyone else the header is ignored.",
)
@LOG_FORMAT_OPTION
def serve(
    shelf_dir: Path | None,
    transport: str,
    host: str,
    port: int,
    tokens_file: Path | None,
    audit_log: Path | None,
    at: str | None,
    follow: str | None,
    follow_interval: float,
    allowed_host: tuple[str, ...],
    refs: tuple[str, ...],
    header_timeout: float,
    max_builds: int,
    waiting_builds: int,
    max_streams: int,
    max_streams_per_client: int,
    stream_timeout: float,
    trusted_proxies: tuple[str, ...],
    log_format: str,
) -> None:
    """Serve the shelf over MCP (read_index, fetch; shelf:// resources), pinned, audited and fenced."""
    if at is not None and follow is not None:
        raise click.UsageError("Give either --at REF or --follow BRANCH, not both.")
    if transport == "stdio" and tokens_file is not None:
        raise click.UsageError("--tokens applies to --transport http; stdio serves the one client that started it.")
    if transport == "stdio" and str(audit_log) == "-":
        raise click.UsageError("--audit-log - needs --transport http: on stdio, standard output carries the protocol.")
    from docshelf.server import logs
    from docshelf.server.run import ServeOptions, serve_shelf

    logs.configure(json_lines=log_format == "json")

    root = _shelf(shelf_dir)
    options = ServeOptions(
        root=root,
        transport=transport,
        host=host,
        port=port,
        tokens_file=tokens_file,
        audit_log=audit_log or root / AUDIT_DEFAULT,
        at=at,
        follow=follow,
        follow_interval=follow_interval,
        allowed_hosts=allowed_host,
        refs=refs,
        header_timeout=header_timeout,
        max_builds=max_builds,
        waiting_builds=waiting_builds,
        max_streams=max_streams,
        max_streams_per_client=max_streams_per_client,
        stream_idle_s=stream_timeout,
        trusted_proxies=trusted_proxies,
    )
    serve_shelf(options, say=logs.status)


@click.group()
def token() -> None:
    """Manage HTTP bearer tokens (one or more per client; only their hashes are stored)."""


@token.command("add")
@click.argument("name")
@TOKENS_OPTION
@click.option(
    "--role",
    type=click.Choice(ROLES),
    default="client",
    show_default=True,
    help="client: the MCP tools, and on the desk at most its own calls; investigator: the whole desk; "
    "admin: the desk and /metrics.",
)
def token_add(name: str, tokens_file: Path, role: str) -> None:
    """Create a token for client NAME and print it once (store it in the client's config)."""
    from docshelf.server.auth import add_token

    secret = add_token(tokens_file, name, role)
    click.echo(secret)
    _say(f"Token for {name} ({role}) added to {tokens_file}. It is shown only now; only its hash is stored.")


@token.command("list")
@TOKENS_OPTION
def token_list(tokens_file: Path) -> None:
    """List clients and token ids (never the tokens)."""
    from docshelf.server.auth import describe, load_tokens

    for entry in describe(load_tokens(tokens_file)):
        click.echo(f"{entry['name']}\t{entry['id']}\t{entry['role']}\t{entry['created']}")


@token.command("revoke")
@click.argument("name_or_id")
@TOKENS_OPTION
def token_revoke(name_or_id: str, tokens_file: Path) -> None:
    """Remove all tokens of client NAME, or the one token with that id; running servers stop accepting them."""
    from docshelf.server.auth import revoke_tokens

    removed = revoke_tokens(tokens_file, name_or_id)
    if not removed:
        raise ServeError(f"No token of {name_or_id!r} in {tokens_file}. See `docshelf token list --tokens FILE`.")
    _say(f"Revoked {removed} token(s) of {name_or_id}.")


@click.command()
@click.argument("call_id", required=False)
@SHELF_OPTION
@click.option(
    "--log",
    "log_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Audit log to read (default: <shelf>/.docshelf/audit.jsonl).",
)
@click.option("--since", default=None, help="Only calls at or after: 2026-11-30, 2026-11-30T10:00, or 15m / 2h / 7d.")
@click.option("--client", default=None, help="Only calls by this client (token name, or OS user on stdio).")
@click.option("--json", "as_json", is_flag=True, help="Print the records as JSON lines.")
def audit(
    call_id: str | None,
    shelf_dir: Path | None,
    log_file: Path | None,
    since: str | None,
    client: str | None,
    as_json: bool,
) -> None:
    """Print the server's audit log: who called what, at which commit, with what outcome.

    With CALL_ID (the call_id every result carries), print that one call's whole record.
    """
    from docshelf.server.audit import read_audit

    path = log_file or _shelf(shelf_dir) / AUDIT_DEFAULT
    records = read_audit(path, since=since, client=client)
    if call_id is not None:
        found = [r for r in records if r.get("id") == call_id]
        if not found:
            raise ServeError(f"No audit record with id {call_id!r} in {path}. List the calls with docshelf audit.")
        if as_json:
            click.echo(json.dumps(found[0], ensure_ascii=False))
        else:
            for key, value in found[0].items():
                shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                click.echo(f"{key}: {shown}")
        return
    for r in records:
        if as_json:
            click.echo(json.dumps(r, ensure_ascii=False))
            continue
        target = r.get("tool") or (r.get("arguments") or {}).get("uri") or (r.get("arguments") or {}).get("path")
        commit = (r.get("commit") or "-")[:12]
        paths = ",".join(r.get("paths") or []) or "-"
        extra = f"\t{r['verdict']}" if r.get("verdict") else ""
        click.echo(f"{r['ts']}\t{r['client']}\t{r['method']}\t{target}\t{commit}\t{r['outcome']}\t{paths}{extra}")
    if not as_json:
        _say(f"{len(records)} record(s)")
