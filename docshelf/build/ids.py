"""Slugs and folders for documents: «152-ФЗ», «ПП 1119», «RFC 4271» → stable ASCII paths.

The ids themselves are read by ``docshelf.law.docids.derive_id`` (re-exported here for the pipeline).
"""

from __future__ import annotations

import re

from slugify import slugify

from docshelf.law.docids import derive_id


def doc_slug(doc_id: str) -> str:
    """ASCII, stable slug of a citation id: «Приказ ФСТЭК № 239» → ``prikaz-fstek-239``."""
    slug = slugify(doc_id.replace("№", " "), max_length=60, word_boundary=True) or "document"
    return "subindex-doc" if slug == "subindex" else slug  # docs/<cat>/subindex.md is a category page


def category_path(category: str) -> str:
    """A category as a safe relative folder path: each part slugified, no '..' or absolute parts."""
    parts = [slugify(p, max_length=40) for p in re.split(r"[\\/]+", category) if p.strip(". ")]
    parts = [p for p in parts if p]
    return "/".join(parts) or "general"


__all__ = ["category_path", "derive_id", "doc_slug"]
