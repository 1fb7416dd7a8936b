"""The ``web`` command, registered in the main CLI group by ``docshelf.cli``.

Starlette and uvicorn are imported inside the command, so other commands do not pay for them.
"""

from __future__ import annotations

from pathlib import Path

import click

from docshelf.cliopts import LOG_FORMAT_OPTION, SHELF_OPTION
from docshelf.cliopts import shelf_root as _shelf

AUDIT_DEFAULT = Path(".docshelf") / "audit.jsonl"  # where `docshelf serve` writes by default


@click.command()
@SHELF_OPTION
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8766, show_default=True, type=click.IntRange(0, 65535), help="Port.")
@click.option(
    "--tokens",
    "tokens_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The tokens file of `docshelf serve --tokens`: log in with a token. Without it, loopback only.",
)
@click.option(
    "--audit-log",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The audit log to show (default: <shelf>/.docshelf/audit.jsonl).",
)
@click.option(
    "--at", "today", default="HEAD", show_default=True, help="The ref that “today” means (the served branch)."
)
@click.option(
    "--allowed-host",
    "allowed_host",
    multiple=True,
    help="Host name browsers use to reach the desk (repeatable), e.g. docshelf.corp. Others get 421.",
)
@click.option(
    "--refs",
    "refs",
    multiple=True,
    help="Refs whose history the pages may read, as `serve --refs` (repeatable). Default: the served branch and "
    "the tags. Give the server's own list: the desk then shows exactly what `serve` answers.",
)
@LOG_FORMAT_OPTION
def web(
    shelf_dir: Path | None,
    host: str,
    port: int,
    tokens_file: Path | None,
    audit_log: Path | None,
    today: str,
    allowed_host: tuple[str, ...],
    refs: tuple[str, ...],
    log_format: str,
) -> None:
    """The investigator's desk: read-only web pages over the audit log and the shelf's history."""
    from docshelf.server import logs
    from docshelf.server.httpapp import allowed_hosts_for, run_http
    from docshelf.server.run import check_http
    from docshelf.shelf import gitrepo
    from docshelf.web.app import create_web_app

    logs.configure(json_lines=log_format == "json")
    root = _shelf(shelf_dir)
    gitrepo.require_repo(root)
    check_http(host, tokens_file, allowed_host)
    hosts = allowed_hosts_for(host, allowed_host)
    log = audit_log or root / AUDIT_DEFAULT
    app = create_web_app(root, log, tokens_file=tokens_file, allowed_hosts=hosts, today=today, refs=refs)
    logs.status(f"docshelf web: http://{host}:{port}/ (shelf {root}; audit log {log})")
    run_http(app, host, port)
