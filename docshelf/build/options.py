"""What a shelf's configuration says about building: split sizes, the PDF engine, quality floors. Pure values.

Loading them from ``.docshelf.json`` is the shelf layer's job (``docshelf.shelf.config``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class SplitOptions:
    max_section_chars: int = 5000  # a leaf larger than this is cut again (≈1,500 tokens of Russian)
    min_split_chars: int = 6000  # a document shorter than this stays one file


@dataclass(frozen=True)
class QualityFloors:
    """What ``docshelf check --strict`` demands of every document's build quality (see ``build.quality``)."""

    min_contents_found: float = 0.95  # share of the document's own contents entries found as headings
    max_furniture_lines: int = 0  # repeated page lines (headers, footers, page numbers) left in the text
    min_labels_addressed: float = 0.8  # share of the labels printed at block starts that are clauses


@dataclass(frozen=True)
class ShelfConfig:
    name: str = "DocShelf shelf"
    description: str = "Regulations and manuals as Markdown sections with a table of contents."
    base_url: str = ""
    default_language: str = "ru"
    default_category: str = "general"
    pdf_engine: str = "docshelf"  # "docshelf" (own extractor, fast) or "layout" (pymupdf4llm layout model)
    split: SplitOptions = field(default_factory=SplitOptions)
    quality: QualityFloors = field(default_factory=QualityFloors)
    # The meaning models the operator brings (text/models.py): {} is the bundled encoder and no reranker.
    encoder: dict[str, Any] = field(default_factory=dict)
    reranker: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=2) + "\n"
