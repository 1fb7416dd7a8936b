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

from docshelf.law.census import Census
from docshelf.law.grammar import PART_PREFIXES
from docshelf.law.numbering import (
    BLOCK,
    CONTENTS_LINE,
    NAMED_STYLE,
    Label,
    address_key,
    block_labels,
    full_label,
)
from docshelf.law.outline import predecessor
from docshelf.law.shapes import GENERIC
from docshelf.law.tablerows import ROW_WORDS, is_series, row_point
from docshelf.records import SectionMeta

_SHOWN = 5
_BEFORE = 3000  # characters before a letter label searched for the one that leads to it
_SHOWN_GAPS = 20
# «§3.4.2», «п. 6.1.2», «п. А.2», «§1.3A» (inserted after 1.3: it fills the place of 1.3 in the series)
_POINT_ID = re.compile(r"^(?:§|п\. )((?:[A-ZА-Я]\.)?\d{1,3}(?:\.\d{1,3})+)[A-Z]?$")
_GAP = 10  # a jump larger than this is a new series or a restart, not a lost label
_ROOMY = 100  # three-digit section numbers (a CFR part's «164.502») skip numbers by design
_HEADING = re.compile(r"^#{1,6} ")
_CONTENTS_SHARE = 0.3  # a section with this share of dot-leader blocks is a printed contents page


def contents_page(blocks: Sequence[str]) -> bool:
    """A printed contents page: its «8 Release Notes» lines are the map's entries, not labels of the text."""
    leaders = sum(1 for b in blocks if CONTENTS_LINE.search(b))
    return leaders >= 3 and leaders >= _CONTENTS_SHARE * len(blocks)


def _table_points(table: str, at: int, record: SectionMeta, placed: set[tuple[str, ...]]) -> list[tuple[bool, str]]:
    """The rows of a table that print a numbered point in their first cell with a statement after it
    («| A.5.1.1 | Policies for information security | Control: … |»), each with whether it is an address:
    a clause starts in its row, or the point is a clause elsewhere (a mapping table restating it). Ids of a
    series («| AC-1 | Access Control Policy | NFO |») are another document's in a mapping table: not counted."""
    out: list[tuple[bool, str]] = []
    shaped = [(row, label) for row in re.finditer(r"[^\n]+", table) if (label := _shaped_row(row.group(0)))]
    ids = Census.of([label for _row, label in shaped])
    for row, label in shaped:  # a catalogue of ids no family rule names: «| AC.L2-3.1.3 | Control the flow … |»
        if ids.neighbour(label, -1) or ids.neighbour(label, 1):
            a, b = at + row.start(), at + row.end()
            out.append((any(a <= c.start < b for c in record.clauses), row.group(0).strip("| ")))
    for row in re.finditer(r"[^\n]+", table):
        point = row_point(row.group(0), read=block_labels)
        if point is None or len(point[1].split()) < ROW_WORDS:
            continue
        label = point[0]
        a, b = at + row.start(), at + row.end()
        ok = any(a <= c.start < b for c in record.clauses) or address_key(label.atom)[-1:] in placed
        if ok or _own_letter(label.atom, record, at):
            out.append((ok, row.group(0).strip("| ")))
    return out


def _shaped_row(row: str) -> Label | None:
    """The id a table row opens with when it is read by its shape and the row states something after it."""
    cells = [c.strip() for c in row.strip("|").split("|") if c.strip()]
    while len(cells) > 1 and cells[0].rstrip(".").isdigit():
        cells = cells[1:]  # a row number before the id («| 3 | REQ-003 | The system …»)
    label = next((x for x in block_labels(cells[0]) if is_series(x)), None) if cells else None
    if label is None or not label.style.startswith(GENERIC):
        return None
    words = [w for w in " ".join(cells[1:]).split() if any(ch.islower() for ch in w)]
    return label if len(words) >= ROW_WORDS else None


def _own_letter(atom: str, record: SectionMeta, at: int) -> bool:
    """A lettered point («A.5.1.1») is the document's own only inside the annex of its letter."""
    if atom[:1].isdigit():
        return True
    letter = atom.split(".")[0]
    parts = [record.clause, *(c.id for c in record.clauses if c.start <= at < c.end)]
    return any(p.startswith(PART_PREFIXES) and p.split()[-1] == letter for p in parts)


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
    placed = {address_key(c.id)[-1:] for r in records for c in r.clauses}
    letters: dict[str, set[int]] = {}  # letter and roman values printed so far, by style
    read = {r.path: _read_blocks(files.get(r.path, "")) for r in records}
    points = {m.group(1) for r in records for c in r.clauses if (m := _POINT_ID.match(c.id))}
    lost: set[str] = set()
    ids = Census.of([label for blocks in read.values() for _m, labels in blocks for label in labels[:1]])
    for r in records:
        text = files.get(r.path, "")
        starts = {c.start for c in r.clauses}
        found = [m for m, _labels in read[r.path]]
        if contents_page([m.group(0) for m in found]):
            continue
        listing = _contents_lines([m.group(0) for m in found])
        for k, (m, readings) in enumerate(read[r.path]):
            if k in listing:
                continue  # a printed contents page inside a longer section: its lines list labels, they are none
            if m.group(0).startswith("|"):
                rows = _table_points(m.group(0), m.start(), r, placed)
                printed += len(rows)
                addressed += sum(ok for ok, _row in rows)
                unplaced += [row[:40] for ok, row in rows if not ok][: max(0, _SHOWN - len(unplaced))]
                continue
            if not readings:
                continue
            block = _HEADING.sub("", m.group(0))
            placed_here = m.start() in starts or _inside_own_clause(r, m.start(), full_label(readings[0]))
            stray = not ids.evidenced(readings[0]) or _stray_label(
                readings, letters, text[max(0, m.start() - _BEFORE) : m.start()]
            )
            if stray and not placed_here:
                continue  # a letter or a shape no series leads to is no label, unless the build found it one
            printed += 1
            if not placed_here:
                if len(unplaced) < _SHOWN:
                    unplaced.append(block[:40])
                continue
            addressed += 1
            glued += readings[0].glued
        for c in r.clauses:  # every clause, table rows too: a numbered point's series in reading order
            if (point := _POINT_ID.match(c.id)) is None:
                continue
            parent, _, number = point.group(1).rpartition(".")
            above = parent.rpartition(".")[0]
            if parent not in points and above in points and parent not in lost:
                lost.add(parent)  # «4.6.4.8» printed under «4.6»: the text layer lost «4.6.4»
                gaps.append(f"{above} is followed by {point.group(1)} ({parent} is not printed)")
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


_NEAR_LEADERS = 2  # blocks either side of a dot-leader line that belong to the same contents page


def _contents_lines(blocks: Sequence[str]) -> set[int]:
    """The blocks of a printed contents page kept in a longer section: dot-leader lines and the lines among them
    (a chapter's «5 Advanced DNS Features 111» between its sections' leader lines)."""
    leaders = [k for k, b in enumerate(blocks) if CONTENTS_LINE.search(b)]
    return {k for at in leaders for k in range(at - _NEAR_LEADERS, at + _NEAR_LEADERS + 1)}


def _read_blocks(text: str) -> list[tuple[re.Match[str], list[Label]]]:
    """Each block of a section with the label readings it starts with; a heading prints its label too
    («# 1.1 Scope»)."""
    return [(m, block_labels(_HEADING.sub("", m.group(0)))) for m in BLOCK.finditer(text)]


def _stray_label(readings: Sequence[Label], letters: dict[str, set[int]], before: str) -> bool:
    """A block opening with a letter, a roman numeral or a word and a number that no series leads to
    («г. Москва», «C. Smith», «AXFR 252 A request …» of a table of codes): no label, as a lone number is none.
    The one before it may open a block («б)» after «а)») or stand in the text before («… (a) the first;
    ⏎ (b) the second»); every reading is remembered."""
    stray = True
    for label in readings:
        named = NAMED_STYLE.fullmatch(label.style) is not None
        if any(ch.isdigit() for ch in label.atom) and not named:
            return False
        seen = letters.setdefault(f"{label.style} {label.parent}" if named else label.style, set())
        inline = bool(previous := predecessor(label)) and previous in before
        stray = stray and label.value > 1 and label.value - 1 not in seen and not inline
        seen.add(label.value)
    return stray


__all__ = ["printed_labels"]
