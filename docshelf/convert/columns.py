"""Unruled tables: rows of text whose pieces stand in the same columns, found by x-position.

A decree's salary table («3   Консультант   4150   2,5») has no rules at all; read as text its
figures leave their rows and its row numbers look like clause numbers. Here a run of visual rows
of two or more cells is a table when the cells fall into the same columns (x-intervals that do not
overlap); a row with one cell inside one column continues the row above (a wrapped cell). Pure:
the PDF converter hands in the rows, this returns which of them form tables and their cells.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, pairwise

_MIN_ROWS = 3  # fewer rows of two or more cells: a line with a wide gap, not a table
_LEADER = re.compile(r"(?:\.\s?){4,}")  # contents leaders «.....» or «. . . .»
_ID_CELL = re.compile(r"^(?:[A-Z]{1,3}-)?\d+(?:\.\d+)*\.?$")
_CONTENTS_ROWS = 5
_LIST_MARK = re.compile(r"^(?:[•▪◦·●o*\-–—]|[A-Za-zА-Яа-яЁё]{1,2}[.)]|\d{1,3}[.)]|\(\w{1,3}\))$")


@dataclass(frozen=True)
class Cell:
    x0: float
    x1: float
    text: str


@dataclass(frozen=True)
class VisualRow:
    """One visual line of a page: its pieces left to right (one piece = an ordinary line of text)."""

    cells: tuple[Cell, ...]
    y0: float = 0.0
    y1: float = 0.0


@dataclass(frozen=True)
class Table:
    start: int  # first row index
    end: int  # one past the last row
    rows: list[list[str]]  # the cells, the first row is the header


def _spans(row: VisualRow) -> list[tuple[float, float]]:
    """The x-intervals a row gives the columns: its cells', when it has two or more."""
    return [(c.x0, c.x1) for c in row.cells] if len(row.cells) >= 2 else []


def _columns(rows: Sequence[list[tuple[float, float]]]) -> list[tuple[float, float]]:
    """x-intervals of the columns: the union of overlapping cells of the rows with two or more cells
    (each row given by its ``_spans``)."""
    spans = sorted(chain.from_iterable(rows))
    out: list[tuple[float, float]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _column_of(cell: Cell, columns: list[tuple[float, float]]) -> int | None:
    hits = [k for k, (a, b) in enumerate(columns) if cell.x0 < b and cell.x1 > a]
    return hits[0] if len(hits) == 1 else None


def _fits(row: VisualRow, columns: list[tuple[float, float]]) -> bool:
    ks = [_column_of(c, columns) for c in row.cells]
    return None not in ks and len(set(ks)) == len(ks)


def _tabular(row: VisualRow) -> bool:
    return len(row.cells) >= 2 and not any(_LEADER.search(c.text) for c in row.cells)


def _run_end(rows: Sequence[VisualRow], tabular: Sequence[bool], start: int) -> int:
    """One past the last row of the run that starts at ``start``: tabular rows, with single-cell rows
    between them (wrapped cells) as long as another tabular row follows."""
    end = start
    k = start
    while k < len(rows):
        if tabular[k]:
            end = k + 1
        elif len(rows[k].cells) != 1:
            break
        k += 1
        if k - end > 2:  # more than two plain lines in a row: the table is over
            break
    return end


def find_tables(rows: Sequence[VisualRow]) -> list[Table]:
    """Runs of rows that form unruled tables, with their cells."""
    out: list[Table] = []
    # Read once per row: a run that is no table is tried again from each of its rows.
    tabular = [_tabular(r) for r in rows]
    spans = [_spans(r) for r in rows]
    i = 0
    while i < len(rows):
        if not tabular[i]:
            i += 1
            continue
        end = _run_end(rows, tabular, i)
        table = _table(rows, tabular, spans, i, end)
        if table is None:
            i += 1
            continue
        out.append(table)
        i = table.end
    return out


def _table(
    rows: Sequence[VisualRow],
    tabular: Sequence[bool],
    spans: Sequence[list[tuple[float, float]]],
    start: int,
    end: int,
) -> Table | None:
    run = rows[start:end]
    if sum(tabular[start:end]) < _MIN_ROWS:
        return None
    columns = _columns(spans[start:end])
    if len(columns) < 2:
        return None
    cells: list[list[str]] = []
    last = start
    padded = _padded_rows(run)
    for n, row in enumerate(run):
        if not _fits(row, columns):
            if not cells:
                return None
            break  # a line across the columns: the table ended before it
        line = [""] * len(columns)
        for c in row.cells:
            k = _column_of(c, columns)
            assert k is not None  # _fits checked it
            line[k] = c.text.strip()
        numbered = bool(line[0]) and _ID_CELL.match(line[0]) is not None  # «3.10.4»: a row of its own
        new_row = (n in padded or numbered) if padded else tabular[start + n]
        if new_row or not cells:
            cells.append(line)
        else:  # a wrapped cell: its words continue the cells above
            cells[-1] = [f"{a} {b}".strip() for a, b in zip(cells[-1], line, strict=True)]
        last = start + n + 1
    if sum(tabular[start:last]) < _MIN_ROWS or _contents_page(cells) or _list(cells):
        return None
    return Table(start, last, cells)


def _padded_rows(run: Sequence[VisualRow]) -> set[int]:
    """Where rows start when they are padded apart (a term and its definition both wrap in a
    glossary); empty when every line is spaced alike (then each line with two cells is a row)."""
    if len(run) < 2 or not all(r.y1 > r.y0 for r in run):
        return set()
    gaps = [run[n].y0 - run[n - 1].y1 for n in range(1, len(run))]
    height = sorted(r.y1 - r.y0 for r in run)[len(run) // 2]
    inner = sorted(gaps)[len(gaps) // 4]
    starts = {0} | {n for n in range(1, len(run)) if gaps[n - 1] > inner + 0.25 * height}
    return starts if 1 < len(starts) < len(run) else set()


def _list(cells: list[list[str]]) -> bool:
    """A list with hanging markers («•», «a.», «1.», «а)») laid out like two columns is a list, not a table."""
    marks = [row[0] for row in cells if row[0]]
    return bool(marks) and sum(1 for m in marks if _LIST_MARK.match(m)) >= 0.8 * len(marks)


def _contents_page(cells: list[list[str]]) -> bool:
    """Titles with page numbers that only grow, five or more of them: a printed table of contents
    without leader dots, which the structure stage reads as the document's map, not a table."""
    numbers = [row[-1] for row in cells if row[-1].isdigit() and len(row[-1]) <= 4]
    if len(numbers) < _CONTENTS_ROWS or len(numbers) < len(cells) - 1:
        return False
    pages = [int(n) for n in numbers]
    return all(a <= b for a, b in pairwise(pages))
