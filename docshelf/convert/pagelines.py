"""Lines of a PDF page that its layout put in the wrong place, put right before paragraphs are made.

Two things a page's geometry tells and its reading order hides: a list label a word processor drew apart
from its line («A.» «B.» «C.» first, the paragraphs after them), and a running title set on the page
number's row of a header or footer («1.4. The Domain Name System (DNS)   3»), which a section of one page
shows only once, so no repetition gives it away. Pure: lines in, lines out.
"""

from __future__ import annotations

import re
from typing import Protocol, TypeVar

from docshelf.convert.columns import Cell


class PageLine(Protocol):
    text: str
    x0: float
    x1: float
    y1: float
    size: float
    margin: str
    cells: list[Cell]


L = TypeVar("L", bound=PageLine)

_LONE_LABEL = re.compile(r"^(?:(?:\d{1,3}|[A-Za-z]{1,2}|[ivxlc]{1,5})[.)]|\((?:\d{1,3}|[A-Za-z]{1,2}|[ivxlc]{1,5})\))$")
_HANG_GAP = 3.0  # font sizes at most between a hanging label and its line
_ROW = 2.5  # points between the baselines of one row
_FOLIO = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6})$")  # a page's printed number
_FOLIO_TEXT = 100  # a running title beside the page number is short


def hanging_labels(lines: list[L]) -> list[L]:
    """The lines with the labels a word processor drew apart from them put back («A.» «B.» «C.» first, then
    the paragraphs, in a Word-made PDF): a lone label whose row's text is not the next line read is joined to
    the start of the line on its row just to its right."""
    out = list(lines)
    for n, label in enumerate(lines):
        if not _LONE_LABEL.match(label.text.strip()):
            continue
        if n + 1 < len(lines) and _same_row(label, lines[n + 1]):
            continue  # read in order: the row joins as it is
        room = _HANG_GAP * max(label.size, 1.0)
        partner = next(
            (
                o
                for o in lines
                if o is not label
                and _same_row(label, o)
                and 0 <= o.x0 - label.x1 <= room
                and not _LONE_LABEL.match(o.text.strip())
            ),
            None,
        )
        if partner is None:
            continue
        partner.text = f"{label.text.strip()} {partner.text.lstrip()}"
        partner.x0 = label.x0
        partner.cells = [Cell(label.x0, partner.x1, partner.text)]
        out.remove(label)
    return out


def off_folio_rows(margin: list[L]) -> list[L]:
    """The header and footer lines without the running title printed on the page number's row: a
    section's title set beside the folio is furniture by its place on the page, even on the one page it
    heads. The folio itself stays (the cleaner checks its step)."""
    folios = [ln for ln in margin if _FOLIO.match(ln.text.strip())]
    if not folios:
        return margin
    return [
        ln
        for ln in margin
        if ln in folios
        or len(ln.text) > _FOLIO_TEXT
        or not any(_same_row(ln, f) and ln.margin == f.margin for f in folios)
    ]


def _same_row(a: PageLine, b: PageLine) -> bool:
    return abs(a.y1 - b.y1) < _ROW
