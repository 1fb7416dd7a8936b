"""Tables: finding ruled tables on PDF pages and rendering any table as a Markdown pipe table."""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from docshelf.convert.bands import find_band_tables, join_words
from docshelf.convert.grid import find_grids
from docshelf.model import Block


@dataclass(frozen=True)
class PageTable:
    bbox: tuple[float, float, float, float]
    block: Block


def markdown_table(rows: Sequence[Sequence[str | None]]) -> str:
    """Render rows (the first is the header) as a Markdown pipe table; cells keep their text."""
    width = max((len(r) for r in rows), default=0)
    if width == 0:
        return ""
    norm = [[_cell(c) for c in r] + [""] * (width - len(r)) for r in rows]
    out = ["| " + " | ".join(norm[0]) + " |", "|" + "---|" * width]
    out.extend("| " + " | ".join(r) + " |" for r in norm[1:])
    return "\n".join(out)


def _cell(value: str | None) -> str:
    if value is None:
        return ""
    lines = [" ".join(part.split()) for part in value.replace("\u00a0", " ").splitlines()]
    return "<br>".join(p for p in lines if p).replace("|", "\\|")


class _Words:
    """A page's words by the height of their centres, so that a cell looks only at its own rows."""

    def __init__(self, words: Sequence[tuple[Any, ...]]) -> None:
        placed = sorted((((w[1] + w[3]) / 2, (w[0] + w[2]) / 2, n) for n, w in enumerate(words)))
        self.words, self.ys, self.placed = words, [p[0] for p in placed], placed

    def in_box(self, box: tuple[float, float, float, float]) -> list[tuple[Any, ...]]:
        x0, y0, x1, y1 = box
        lo, hi = bisect.bisect_left(self.ys, y0), bisect.bisect_right(self.ys, y1)
        return [self.words[n] for _y, x, n in self.placed[lo:hi] if x0 <= x <= x1]


def _cell_text(words: _Words, box: tuple[float, float, float, float] | None) -> str | None:
    """The words whose centre lies in ``box``, in reading order; wrapped lines joined by a space."""
    if box is None:
        return None
    return join_words(sorted(words.in_box(box), key=lambda w: (w[5], w[6], w[7])))  # block, line, word number


_FRAME_WORDS = 150  # a cell holding this much running text…
_FRAME_SHARE = 0.85  # …and nearly all of its grid's words is a box drawn around the text, not a table
_BOX_WORDS = 50  # a grid whose only cell of more than a label's few words holds a paragraph is a text box
_LABEL_WORDS = 3


def _frame(rows: list[list[str | None]]) -> bool:
    """A grid that frames running text (a web page printed with its layout boxes: the whole page is one
    «cell»; a note drawn in a box): its text is read as paragraphs, not flattened into a table cell."""
    counts = [len((c or "").split()) for r in rows for c in r]
    biggest, total = max(counts, default=0), sum(counts)
    if biggest < _FRAME_SHARE * total:
        return False
    alone = sum(n > _LABEL_WORDS for n in counts) == 1
    return biggest >= _FRAME_WORDS or (alone and biggest >= _BOX_WORDS)


def find_tables(page: object) -> list[PageTable]:
    """Tables of one PDF page as table blocks, with their bounding boxes: ruled grids, and tables
    ruled only under their header row (``bands``)."""
    # The drawings are read once for both finders; the words (a second text extraction) only when a
    # grid or a header rule needs them — most pages draw neither.
    drawings = page.get_cdrawings()  # type: ignore[attr-defined]
    grids = find_grids(page, drawings)
    pno = page.number + 1  # type: ignore[attr-defined]
    words = functools.cache(lambda: page.get_text("words"))  # type: ignore[attr-defined]
    found = []
    placed = _Words(words() if grids else ())
    for grid in grids:
        rows = [[_cell_text(placed, box) for box in row] for row in grid.rows]
        rows = [r for r in rows if any((c or "").strip() for c in r)]
        if len(rows) < 2 or _frame(rows):
            continue
        found.append(PageTable(grid.bbox, Block(text=markdown_table(rows), page=pno, kind="table")))
    for band in find_band_tables(page, drawings, words, [t.bbox for t in found]):
        found.append(PageTable(band.bbox, Block(text=markdown_table(band.rows), page=pno, kind="table")))
    return sorted(found, key=lambda t: t.bbox[1])
