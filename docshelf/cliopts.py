"""Options every ``docshelf`` command shares (the main group and the serving commands alike)."""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path
from typing import Any

import click

SHELF_OPTION = click.option(
    "--shelf",
    "shelf_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The shelf directory (default: $DOCSHELF_SHELF or the current directory).",
)


def shelf_root(shelf_dir: Path | None) -> Path:
    """The shelf a command works on: --shelf, else $DOCSHELF_SHELF, else the current directory."""
    return shelf_dir or Path(os.environ.get("DOCSHELF_SHELF") or ".")


LOG_FORMAT_OPTION = click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="How stderr logs every line (the server's own, the SDK's, uvicorn's): text, or one JSON object a line.",
)

AS_OF_OPTION = click.option("--as-of", default=None, help="Date for edition statuses (YYYY-MM-DD; default: today).")


def as_of_date(text: str | None) -> date | None:
    """``--as-of`` as a date (YYYY-MM-DD or DD.MM.YYYY), or None for today."""
    from docshelf.law import editions

    return editions.parse_date(text) if text else None


def emit(data: dict[str, Any], as_json: bool, text: str) -> None:
    """Print ``text``, or with ``--json`` the result's ``to_dict()`` (what the MCP tool returns as structured)."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(text, nl=not text.endswith("\n"))
