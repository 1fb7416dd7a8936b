"""Ruled tables found from a page's vector rules, without PyMuPDF's table finder.

``page.find_tables()`` costs ~0.3 s a page (it re-analyses every character); reading the rules
from ``get_cdrawings()`` and the words from ``get_text("words")`` costs a few milliseconds. A table
here is a connected set of horizontal and vertical rules; each row band is cut into cells at the
verticals that actually cross it, so merged cells stay one cell (its text in its first column).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

_TOL = 2.0  # points: rules this close are the same line or touch
_THIN = 3.0  # a filled rectangle thinner than this is a drawn rule


@dataclass
class _Rule:
    horizontal: bool
    pos: float  # y of a horizontal rule, x of a vertical one
    lo: float  # start along the rule
    hi: float  # end along the rule


@dataclass
class Grid:
    """One ruled table: its box and its cells, row by row (None = covered by a merged cell)."""

    bbox: tuple[float, float, float, float]
    rows: list[list[tuple[float, float, float, float] | None]] = field(default_factory=list)


def _rules(drawings: Iterable[dict[str, object]], page_w: float, page_h: float) -> list[_Rule]:
    out: list[_Rule] = []
    drawings = list(drawings)
    hidden = _shading_inside_shading(drawings)
    for path in drawings:
        for item in path.get("items", ()):  # type: ignore[attr-defined]
            if item[0] == "re" and (id(path), tuple(item[1])) in hidden:
                continue
            kind = item[0]
            if kind == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                if abs(y1 - y0) < _TOL:
                    out.append(_Rule(True, (y0 + y1) / 2, min(x0, x1), max(x0, x1)))
                elif abs(x1 - x0) < _TOL:
                    out.append(_Rule(False, (x0 + x1) / 2, min(y0, y1), max(y0, y1)))
            elif kind == "re":
                x0, y0, x1, y1 = item[1]
                w, h = x1 - x0, y1 - y0
                if (w < _THIN and h < _THIN) or (w > 0.9 * page_w and h > 0.9 * page_h):
                    continue  # a junction dot or the page background
                if h < _THIN:
                    out.append(_Rule(True, (y0 + y1) / 2, x0, x1))
                elif w < _THIN:
                    out.append(_Rule(False, (x0 + x1) / 2, y0, y1))
                else:
                    out += [
                        _Rule(True, y0, x0, x1),
                        _Rule(True, y1, x0, x1),
                        _Rule(False, x0, y0, y1),
                        _Rule(False, x1, y0, y1),
                    ]
    return _merge(out)


_MAX_SHADES = 400  # more filled boxes of one colour than this on a page: no shading check (a chart)


def _shading_inside_shading(drawings: list[dict[str, object]]) -> set[tuple[int, tuple[float, ...]]]:
    """Filled boxes lying inside a larger box filled with the same colour: a paragraph's shading drawn
    line by line inside its shaded table cell (Word does that). Their edges are invisible — same colour
    on same colour — so they rule nothing; read as rules they cut every shaded cell into a row a line."""
    by_fill: dict[object, list[tuple[int, tuple[float, ...]]]] = {}
    for path in drawings:
        if path.get("type") != "f" or path.get("fill") is None:
            continue
        for item in path.get("items", ()):  # type: ignore[attr-defined]
            x0, y0, x1, y1 = item[1] if item[0] == "re" else (0, 0, 0, 0)
            if x1 - x0 >= _THIN and y1 - y0 >= _THIN:
                by_fill.setdefault(path["fill"], []).append((id(path), tuple(item[1])))
    hidden: set[tuple[int, tuple[float, ...]]] = set()
    for boxes in by_fill.values():
        if len(boxes) > _MAX_SHADES:
            continue
        # Only a larger box can hold another: each box is compared with the larger ones alone (cells
        # shaded alike, all of one size, compare with none).
        boxes = sorted(boxes, key=lambda key: -_area(key[1]))
        areas = [-_area(key[1]) for key in boxes]
        for key in boxes:
            larger = boxes[: bisect.bisect_left(areas, -_area(key[1]))]
            if any(_inside(key[1], other[1]) for other in larger):
                hidden.add(key)
    return hidden


def _area(box: tuple[float, ...]) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether box ``a`` lies within the larger box ``b``."""
    within = b[0] - _TOL <= a[0] and b[1] - _TOL <= a[1] and a[2] <= b[2] + _TOL and a[3] <= b[3] + _TOL
    return within and _area(b) > _area(a)


def _merge(rules: list[_Rule]) -> list[_Rule]:
    """Join collinear rules that touch (Word draws one rule per cell edge)."""
    out: list[_Rule] = []
    for r in sorted(rules, key=lambda r: (r.horizontal, round(r.pos), r.lo)):
        last = out[-1] if out else None
        if last and last.horizontal == r.horizontal and abs(last.pos - r.pos) < _TOL and r.lo <= last.hi + _TOL:
            last.hi = max(last.hi, r.hi)
        else:
            out.append(_Rule(r.horizontal, r.pos, r.lo, r.hi))
    return out


def _crosses(h: _Rule, v: _Rule) -> bool:
    return h.lo - _TOL <= v.pos <= h.hi + _TOL and v.lo - _TOL <= h.pos <= v.hi + _TOL


def _components(rules: list[_Rule]) -> list[list[_Rule]]:
    hs = [r for r in rules if r.horizontal]
    vs = [r for r in rules if not r.horizontal]
    parent = list(range(len(hs) + len(vs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, h in enumerate(hs):
        for j, v in enumerate(vs):
            if _crosses(h, v):
                parent[find(i)] = find(len(hs) + j)
    groups: dict[int, list[_Rule]] = {}
    for k, r in enumerate(hs + vs):
        groups.setdefault(find(k), []).append(r)
    return list(groups.values())


def _cluster(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > _TOL:
            out.append(v)
    return out


Box = tuple[float, float, float, float]


def _grid(rules: list[_Rule]) -> Grid | None:
    hs = [r for r in rules if r.horizontal]
    vs = [r for r in rules if not r.horizontal]
    ys = _cluster([h.pos for h in hs])
    xs = _cluster([v.pos for v in vs])
    if len(ys) < 3 or len(xs) < 3:
        return None  # fewer than two rows or two columns: a frame, not a table
    grid = Grid((xs[0], ys[0], xs[-1], ys[-1]))
    owner: dict[int, int] = {}  # column -> index of the row whose cell a row-spanning cell extends
    for top, bottom in pairwise(ys):
        row = _row(xs, vs, top, bottom)
        if row is None:
            continue
        for k, box in enumerate(row):
            if box is None:
                continue
            upper = grid.rows[owner[k]][k] if k in owner else None
            if upper is not None and not _ruled_top(box, hs):
                # No rule along this cell's top: it continues the cell above (a row-spanning cell).
                grid.rows[owner[k]][k] = (upper[0], upper[1], box[2], box[3])
                row[k] = None
            else:
                owner[k] = len(grid.rows)
        grid.rows.append(row)
    grid.rows = [r for r in grid.rows if any(c is not None for c in r)]
    return grid if len(grid.rows) >= 2 else None


def _ruled_top(box: Box, hs: list[_Rule]) -> bool:
    mid = (box[0] + box[2]) / 2
    return any(abs(h.pos - box[1]) < _TOL and h.lo - _TOL <= mid <= h.hi + _TOL for h in hs)


def _row(xs: list[float], vs: list[_Rule], top: float, bottom: float) -> list[Box | None] | None:
    """Cells of one row band, cut at the verticals that cross its middle (merged cells stay one)."""
    mid = (top + bottom) / 2
    cuts = [x for x in xs if any(abs(v.pos - x) < _TOL and v.lo - _TOL <= mid <= v.hi + _TOL for v in vs)]
    if len(cuts) < 2:
        return None
    row: list[Box | None] = []
    for x in xs[:-1]:
        right = next((c for c in cuts if c > x + _TOL), None) if x in cuts else None
        row.append((x, top, right, bottom) if right is not None else None)
    return row


def find_grids(page: object, drawings: Sequence[dict[str, Any]]) -> list[Grid]:
    """Ruled tables on a PDF page (its ``get_cdrawings()``), top to bottom."""
    rect = page.rect  # type: ignore[attr-defined]
    rules = _rules(drawings, rect.width, rect.height)
    if len(rules) < 5:
        return []
    grids = [g for comp in _components(rules) if (g := _grid(comp)) is not None]
    return sorted(grids, key=lambda g: g.bbox[1])
