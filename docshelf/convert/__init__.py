"""Converters: one function per format, chosen by file type; all return ``model.Converted``.

Heavy or optional backends are imported lazily, so the core imports fast and a missing extra
fails with the pip line that installs it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from docshelf.errors import UnsupportedSourceError
from docshelf.model import Converted

Converter = Callable[[bytes], Converted]

SUFFIXES = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
}


def detect_format(name: str, data: bytes) -> str:
    """The format of a source, from its content first and its file name second."""
    head = data[:1024].lstrip()
    if data.startswith(b"%PDF-"):
        return "pdf"
    suffix = Path(name).suffix.lower()
    if data.startswith(b"PK\x03\x04") and suffix == ".docx":
        return "docx"
    if suffix in SUFFIXES and SUFFIXES[suffix] not in ("pdf", "docx"):
        return SUFFIXES[suffix]
    if suffix in (".pdf", ".docx"):
        kind = "PDF" if suffix == ".pdf" else "DOCX"
        raise UnsupportedSourceError(
            f"{name}: the file is named {suffix} but is not a {kind} (the content does not match). "
            "Check that the download is complete and not an error page.",
            source=name,
        )
    if head[:15].lower().startswith((b"<!doctype html", b"<html")):
        return "html"
    raise UnsupportedSourceError(
        f"{name}: unsupported file type {suffix or '(no extension)'!r}. DocShelf reads "
        "PDF, DOCX, HTML, TXT and Markdown; convert other formats to one of these first.",
        source=name,
    )


def convert(data: bytes, *, name: str, quality: str = "fast", pdf_engine: str = "docshelf") -> Converted:
    """Convert one source file's bytes into blocks."""
    fmt = detect_format(name, data)
    if fmt == "pdf":
        if quality == "high":
            from docshelf.convert.marker import convert_marker

            return convert_marker(data, name=name)
        if pdf_engine == "layout":
            from docshelf.convert.pdf_layout import convert_pdf_layout

            return convert_pdf_layout(data, name=name)
        from docshelf.convert.pdf import convert_pdf

        return convert_pdf(data, name=name)
    if fmt == "docx":
        from docshelf.convert.docx import convert_docx

        return convert_docx(data, name=name)
    if fmt == "html":
        from docshelf.convert.html import convert_html

        return convert_html(data, name=name)
    from docshelf.convert.text import convert_markdown, convert_text

    return convert_markdown(data, name=name) if fmt == "markdown" else convert_text(data, name=name)
