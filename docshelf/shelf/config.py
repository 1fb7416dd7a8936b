"""The shelf's ``.docshelf.json``: loading it with clear errors (the keys and defaults are in ``build.options``)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from docshelf.build.options import QualityFloors, ShelfConfig, SplitOptions
from docshelf.errors import NotAShelfError, ShelfError

CONFIG_FILE = ".docshelf.json"


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
    quality_raw = raw.pop("quality", {}) or {}
    try:
        split = SplitOptions(**split_raw)
        return ShelfConfig(**raw, split=split, quality=QualityFloors(**quality_raw))
    except TypeError as exc:
        raise ShelfError(f"{path}: {exc}. See the project's .docshelf.json for every key.") from exc


__all__ = ["CONFIG_FILE", "QualityFloors", "ShelfConfig", "SplitOptions", "load"]
