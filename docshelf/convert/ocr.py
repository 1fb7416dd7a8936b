"""OCR for pages without a usable text layer (scans, broken font encodings), when Tesseract is installed.

Uses PyMuPDF's Tesseract binding with the system's language data (Debian: ``tesseract-ocr-rus``);
nothing is downloaded. Without it such pages are refused with a message that says what to install.
OCR text is not the publisher's text layer: pages read this way are listed in the document's warnings.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

_WANTED = ("rus", "eng")
OCR_DPI = 300


@cache
def ocr_languages() -> str:
    """«rus+eng» (what is installed of it) when Tesseract language data is available, else ""."""
    if os.environ.get("DOCSHELF_NO_OCR"):
        return ""
    try:
        import pymupdf

        tessdata = Path(pymupdf.get_tessdata())  # type: ignore[no-untyped-call]
    except Exception:  # pymupdf raises when no tessdata folder can be found
        return ""
    have = [lang for lang in _WANTED if (tessdata / f"{lang}.traineddata").is_file()]
    return "+".join(have)


def ocr_textpage(page: Any) -> Any:
    """A text page recognised from the page image (keep ``page`` alive while it is used)."""
    return page.get_textpage_ocr(language=ocr_languages(), dpi=OCR_DPI, full=True)


def page_has_images(page: Any) -> bool:
    return bool(page.get_images(full=False))
