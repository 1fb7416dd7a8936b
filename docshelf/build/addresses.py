"""How much of what a document prints as its addresses the build made addressable.

Every block that starts with a label in any scheme (:func:`law.numbering.read_label`: «6.1.1»,
«(a)», «PR.AC-4», «2.1.Провести») is a label the document prints; it is *addressed* when the build
made a clause start there, or the block lies inside the clause its label names (a template printing
«AC-2 (1) What is the solution …» inside control AC-2(1)). Gaps are counted only in series whose
labels name their parent («6.1.2», «A.5.3», «PR.AC-4»), where a skipped number is a lost label, not a
list that restarts. The share is the quality report's measure of addresses: ``add`` prints it, and
``check --strict`` fails a document below the shelf's floor, so a document whose own numbering is
mostly lost never passes quietly. Pure: no disk, no Git.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from docshelf.law.numbering import BLOCK, CONTENTS_LINE, address_key, block_labels, full_label
from docshelf.records import SectionMeta

_SHOWN = 5
_SHOWN_GAPS = 20
_POINT_ID = re.compile(r"^(?:§|п\. )((?:[A-ZА-Я]\.)?\d{1,3}(?:\.\d{1,3})+)$")  # «§3.4.2», «п. 6.1.2», «п. А.2»
_GAP = 10  # a jump larger than this is a new series or a restart, not a lost label
_ROOMY = 100  # three-digit section numbers (a CFR part's «164.502») skip numbers by design
_HEADING = re.compile(r"^#{1,6} ")
_CONTENTS_SHARE = 0.3  # a section with this share of dot-leader blocks is a printed contents page


def contents_page(blocks: Sequence[str]) -> bool:
    """A printed contents page: its «8 Release Notes» lines are the map's entries, not labels of the text."""
    leaders = sum(1 for b in blocks if CONTENTS_LINE.search(b))
    return leaders >= 3 and leaders >= _CONTENTS_SHARE * len(blocks)


def _inside_own_clause(record: SectionMeta, at: int, label: str) -> bool:
    """Whether the block at ``at`` lies inside a clause its label names: the same address printed again
    within the clause («AC-2 (1) What is the solution …» of a template, under control AC-2(1))."""
    want = address_key(label)
    return bool(want) and any(c.start < at < c.end and address_key(c.id)[-len(want) :] == want for c in record.clauses)


def printed_labels(records: Sequence[SectionMeta], files: dict[str, str]) -> dict[str, Any]:
    """{printed, addressed, share, unplaced, glued, gaps}: labels at block starts, those that open a clause,
    how many of those are glued to their first word («2.1.Провести»), and where a series skips a label
    («1.2 is followed by 1.4»)."""
    printed = addressed = glued = 0
    unplaced: list[str] = []
    last: dict[str, tuple[int, str]] = {}  # a parent's last numbered child: (number, label)
    gaps: list[str] = []
    for r in records:
        text = files.get(r.path, "")
        starts = {c.start for c in r.clauses}
        found = list(BLOCK.finditer(text))
        if contents_page([m.group(0) for m in found]):
            continue
        for m in found:
            block = _HEADING.sub("", m.group(0))  # a heading prints its label too («# 1.1 Scope»)
            readings = block_labels(block)
            if not readings:
                continue
            printed += 1
            if m.start() not in starts and not _inside_own_clause(r, m.start(), full_label(readings[0])):
                if len(unplaced) < _SHOWN:
                    unplaced.append(block[:40])
                continue
            addressed += 1
            glued += readings[0].glued
        for c in r.clauses:  # every clause, table rows too: a numbered point's series in reading order
            if (point := _POINT_ID.match(c.id)) is None:
                continue
            parent, _, number = point.group(1).rpartition(".")
            before = last.get(parent)
            # A code's sections are numbered with room («§ 164.502», «§ 164.504»): no label is lost there.
            if before is not None and before[0] + 1 < int(number) < before[0] + _GAP and int(number) < _ROOMY:
                gaps.append(f"{before[1]} is followed by {point.group(1)}")
            if before is None or int(number) > before[0]:
                last[parent] = (int(number), point.group(1))
    share = round(addressed / printed, 3) if printed else None
    return {
        "printed": printed,
        "addressed": addressed,
        "share": share,
        "unplaced": unplaced,
        "glued": glued,
        "gaps": gaps[:_SHOWN_GAPS],
    }


__all__ = ["printed_labels"]
