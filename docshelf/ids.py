"""Citation ids and slugs for documents: «152-ФЗ», «ПП 1119», «RFC 4271» → stable ASCII slugs."""

from __future__ import annotations

import re

from slugify import slugify

from .model import Block

_LAW = re.compile(r"(?:N|№)\s*(\d+(?:-\d+)?-(?:ФЗ|ФКЗ))")
_RFC = re.compile(r"Request for Comments:\s*(\d{1,5})")
_ORDER = re.compile(r"^(ПРИКАЗ|ПОСТАНОВЛЕНИЕ|УКАЗ|РАСПОРЯЖЕНИЕ)\b.*?(?:N|№)\s*(\d+[\w-]*)", re.IGNORECASE)
_KIND_SHORT = {"приказ": "Приказ", "постановление": "ПП", "указ": "Указ", "распоряжение": "Распоряжение"}


def derive_id(blocks: tuple[Block, ...], fallback: str) -> str:
    """A sensible citation id from the document's own opening lines; ``fallback`` when none."""
    head = " ".join(b.text for b in blocks[:15])
    if m := _RFC.search(head):
        return f"RFC {m.group(1)}"
    if m := _LAW.search(head):
        return m.group(1)
    for b in blocks[:15]:
        if m := _ORDER.match(b.text.strip()):
            return f"{_KIND_SHORT[m.group(1).lower()]} № {m.group(2)}"
    return fallback


def doc_slug(doc_id: str) -> str:
    """ASCII, stable slug of a citation id: «Приказ ФСТЭК № 239» → ``prikaz-fstek-239``."""
    return slugify(doc_id.replace("№", " "), max_length=60, word_boundary=True) or "document"


def category_path(category: str) -> str:
    """A category as a safe relative folder path: each part slugified, no '..' or absolute parts."""
    parts = [slugify(p, max_length=40) for p in re.split(r"[\\/]+", category) if p.strip(". ")]
    parts = [p for p in parts if p]
    return "/".join(parts) or "general"
