"""Options every ``docshelf`` command shares (the main group and the serving commands alike)."""

from __future__ import annotations

import os
from pathlib import Path

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
