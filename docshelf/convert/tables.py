"""Tables: finding ruled tables on PDF pages and rendering any table as a Markdown pipe table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..model import Block

_MIN_RULES = 6  # fewer drawn rules than this cannot form a grid worth asking find_tables about


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


def _cell_text(words: list[tuple[Any, ...]], box: tuple[float, float, float, float] | None) -> str | None:
    """The words whose centre lies in ``box``, in reading order; wrapped lines joined by a space."""
    if box is None:
        return None
    x0, y0, x1, y1 = box
    inside = [w for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1]
    inside.sort(key=lambda w: (w[5], w[6], w[7]))  # block, line, word number
    text = ""
    for w in inside:
        word = str(w[4]).replace("\u00a0", " ")
        if text.endswith("-") and word[:1].islower() and not text[-2:-1].isdigit():
            text = text[:-1] + word  # line-break hyphenation inside a cell
        else:
            text = f"{text} {word}" if text else word
    return text


def _ruled(page: object) -> bool:
    """Cheap test before the (slow) table finder: does the page draw enough straight rules?"""
    rules = 0
    for path in page.get_cdrawings():  # type: ignore[attr-defined]
        for item in path.get("items", ()):
            kind = item[0]
            if kind == "re" or (kind == "l" and (abs(item[1][0] - item[2][0]) < 1 or abs(item[1][1] - item[2][1]) < 1)):
                rules += 1
                if rules >= _MIN_RULES:
                    return True
    return False


def find_tables(page: object) -> list[PageTable]:
    """Ruled tables of one PDF page as table blocks, with their bounding boxes."""
    if not _ruled(page):
        return []
    found = []
    pno = page.number + 1  # type: ignore[attr-defined]
    words = page.get_text("words")  # type: ignore[attr-defined]
    for table in page.find_tables(strategy="lines").tables:  # type: ignore[attr-defined]
        # table.extract() drops spaces between spans and splits punctuation off; read cells from words.
        rows = [[_cell_text(words, box) for box in row.cells] for row in table.rows]
        rows = [r for r in rows if any((c or "").strip() for c in r)]
        if len(rows) < 2 or max(len(r) for r in rows) < 2:
            continue  # a framed paragraph, not a table
        text = markdown_table(rows)
        found.append(PageTable(tuple(table.bbox), Block(text=text, page=pno, kind="table")))
    return found
