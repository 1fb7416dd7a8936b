"""How much of what a document prints as its addresses the build made addressable.

Every block that starts with a label in any scheme (:func:`law.numbering.read_label`: «6.1.1»,
«(a)», «PR.AC-4», «2.1.Провести») is a label the document prints; it is *addressed* when the build
made a clause start there. The share is the quality report's measure of addresses: ``add`` prints
it, and ``check --strict`` fails a document below the shelf's floor, so a document whose own
numbering is mostly lost never passes quietly. Pure: no disk, no Git.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from docshelf.law.numbering import read_label
from docshelf.records import SectionMeta

_BLOCK = re.compile(r"[^\n]+(?:\n(?!\n)[^\n]*)*")
_CONTENTS_LINE = re.compile(r"(?:\.\s?){4,}\s*[\divxlc]*\s*$|…{2,}", re.IGNORECASE)
_SHOWN = 5


def printed_labels(records: Sequence[SectionMeta], files: dict[str, str]) -> dict[str, Any]:
    """{printed, addressed, share, unplaced}: labels at block starts and those that open a clause."""
    printed = addressed = 0
    unplaced: list[str] = []
    for r in records:
        text = files.get(r.path, "")
        starts = {c.start for c in r.clauses}
        for m in _BLOCK.finditer(text):
            block = m.group(0)
            if block.startswith((">", "#", "|", "```")) or _CONTENTS_LINE.search(block[:300]):
                continue
            if not read_label(block.replace("*", "")):
                continue
            printed += 1
            if m.start() in starts:
                addressed += 1
            elif len(unplaced) < _SHOWN:
                unplaced.append(block[:40])
    share = round(addressed / printed, 3) if printed else None
    return {"printed": printed, "addressed": addressed, "share": share, "unplaced": unplaced}


__all__ = ["printed_labels"]
