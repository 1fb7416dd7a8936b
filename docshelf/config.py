"""The shelf's ``.docshelf.json``: every key with its default, and loading with clear errors."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from .errors import NotAShelfError, ShelfError

CONFIG_FILE = ".docshelf.json"


@dataclass(frozen=True)
class SplitOptions:
    max_section_chars: int = 5000  # a leaf larger than this is cut again (≈1,500 tokens of Russian)
    min_split_chars: int = 6000  # a document shorter than this stays one file


@dataclass(frozen=True)
class ShelfConfig:
    name: str = "DocShelf shelf"
    description: str = "Regulations and manuals as Markdown sections with a table of contents."
    base_url: str = ""
    default_language: str = "ru"
    default_category: str = "general"
    pdf_engine: str = "docshelf"  # "docshelf" (own extractor, fast) or "layout" (pymupdf4llm layout model)
    split: SplitOptions = field(default_factory=SplitOptions)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=2) + "\n"


def load(root: Path) -> ShelfConfig:
    path = root / CONFIG_FILE
    if not path.is_file():
        raise NotAShelfError(
            f"{root} is not a shelf (no {CONFIG_FILE}). Create one with `docshelf init DIR`, "
            "or pass --shelf DIR / set DOCSHELF_SHELF."
        )
    try:
        raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ShelfError(f"{path} is not valid JSON ({exc}). Fix the file or restore it with git.") from exc
    known = {f.name for f in fields(ShelfConfig)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ShelfError(f"{path}: unknown key(s) {', '.join(unknown)}. Known keys: {', '.join(sorted(known))}.")
    split_raw = raw.pop("split", {}) or {}
    try:
        split = SplitOptions(**split_raw)
        return ShelfConfig(**raw, split=split)
    except TypeError as exc:
        raise ShelfError(f"{path}: {exc}. See the project's .docshelf.json for every key.") from exc
