"""Tables ruled only under their header row: the rule's segments are the columns (OWASP ASVS).

A requirement table of ASVS draws one rule under «# | Description | L1 | L2 | L3 | CWE», cut into
one segment per column, and no other rules. Without this the rows become paragraphs with the level
marks and CWE numbers glued into the text («✓ ✓ ✓ 319 9.1.2 Verify…»). Here the segments give the
column edges, the words below the rule are put into those columns, and a row starts where the
first column has text; a wrapped description stays in its row. Pure geometry over PyMuPDF's
drawings and words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

_FLAT = 1.5  # a filled rectangle this thin is a drawn rule
_JOIN = 1.5  # segments whose ends are this close continue one rule
_MIN_COLUMN = 8.0  # narrower segments are joints between columns, not columns
_MIN_COLUMNS = 3
_ROW_GAP = 1.8  # a vertical gap of this many line heights ends the table
_EDGE_SLACK = 3.0
_LARGER = 1.15  # words this much taller than the table's are a heading's, not a cell's

Word = tuple[Any, ...]  # PyMuPDF word: x0, y0, x1, y1, text, block, line, word


@dataclass(frozen=True)
class HeaderRule:
    y: float
    edges: tuple[float, ...]  # column boundaries, left to right


def header_rules(drawings: Iterable[dict[str, Any]]) -> list[HeaderRule]:
    """Horizontal rules cut into ≥3 abutting segments: the column edges of a table's header row."""
    segments: dict[int, list[tuple[float, float]]] = {}
    for path in drawings:
        for item in path.get("items", ()):
            if item[0] == "re":
                x0, y0, x1, y1 = item[1]
            elif item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
            else:
                continue
            if abs(y1 - y0) <= _FLAT and x1 - x0 > 0:
                segments.setdefault(round((y0 + y1) / 2), []).append((min(x0, x1), max(x0, x1)))
    out: list[HeaderRule] = []
    for y, segs in sorted(segments.items()):
        chain = _chain(sorted(segs))
        columns = [s for s in chain if s[1] - s[0] >= _MIN_COLUMN]
        if len(columns) >= _MIN_COLUMNS:
            out.append(HeaderRule(float(y), (columns[0][0], *(s[1] for s in columns))))
    return out


def _chain(segs: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The longest run of segments that continue one another."""
    best: list[tuple[float, float]] = []
    run: list[tuple[float, float]] = []
    for seg in segs:
        if run and seg[0] - run[-1][1] > _JOIN:
            best = max(best, run, key=len)
            run = []
        run.append(seg)
    return max(best, run, key=len)


def _column(edges: tuple[float, ...], word: Word) -> int | None:
    centre = (word[0] + word[2]) / 2
    for k in range(len(edges) - 1):
        if edges[k] - _EDGE_SLACK <= centre <= edges[k + 1] + _EDGE_SLACK:
            return k
    return None


def _join_words(words: list[Word]) -> str:
    return join_words(sorted(words, key=lambda w: (round(w[1]), w[0])))


def join_words(words: Iterable[Word]) -> str:
    """A cell's words, already in reading order, as one line; a word hyphenated at a line break is rejoined."""
    text = ""
    for w in words:
        word = str(w[4]).replace("\u00a0", " ")
        if text.endswith("-") and word[:1].islower() and not text[-2:-1].isdigit():
            text = text[:-1] + word  # line-break hyphenation inside a cell
        else:
            text = f"{text} {word}" if text else word
    return text


@dataclass(frozen=True)
class BandTable:
    bbox: tuple[float, float, float, float]
    rows: list[list[str]]  # the header first


def _lines(words: Sequence[Word], height: float) -> list[list[Word]]:
    """Words grouped into visual lines by their vertical centre, top to bottom."""
    out: list[list[Word]] = []
    for w in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        centre = (w[1] + w[3]) / 2
        if out and abs(centre - (out[-1][0][1] + out[-1][0][3]) / 2) < height / 2:
            out[-1].append(w)
        else:
            out.append([w])
    return out


def _rows(lines: list[list[Word]], edges: tuple[float, ...], height: float) -> list[list[list[Word]]]:
    """Lines into rows. Rows padded apart (a gap wider than the lines of one row have) are cut at the
    gaps, wherever the row's number sits (top or middle); else a row starts at a line with a number."""
    starts = [n for n, line in enumerate(lines) if any(_column(edges, w) == 0 for w in line)]
    if not starts:
        return []
    gaps = [lines[n][0][1] - max(w[3] for w in lines[n - 1]) for n in range(1, len(lines))]
    inner = sorted(gaps)[len(gaps) // 4] if gaps else 0.0  # a typical gap between lines of one row
    cuts = [0] + [n for n in range(1, len(lines)) if gaps[n - 1] > inner + 0.25 * height]
    bands = [lines[a:b] for a, b in zip(cuts, [*cuts[1:], len(lines)], strict=True)]
    numbered = [sum(1 for line in band for w in line if _column(edges, w) == 0) for band in bands]
    if len(bands) < 2 or any(n == 0 for n in numbered):
        bands = [lines[a:b] for a, b in zip(starts, [*starts[1:], len(lines)], strict=True)]
    rows: list[list[list[Word]]] = []
    for band in bands:
        row: list[list[Word]] = [[] for _ in edges[:-1]]
        for line in band:
            for w in line:
                if (k := _column(edges, w)) is not None:
                    row[k].append(w)
        rows.append(row)
    return rows


def band_table(rule: HeaderRule, words: Sequence[Word], bottom_margin: float) -> BandTable | None:
    """The table under one header rule: its header line just above the rule, its rows below it."""
    edges = rule.edges
    height = sorted(w[3] - w[1] for w in words)[len(words) // 2] if words else 10.0
    header: list[list[Word]] = [[] for _ in edges[:-1]]
    for w in words:
        if rule.y - 1.6 * height <= (w[1] + w[3]) / 2 <= rule.y and (k := _column(edges, w)) is not None:
            header[k].append(w)
    if sum(1 for cell in header if cell) < _MIN_COLUMNS:
        return None
    body: list[Word] = []
    last_bottom = rule.y
    for w in sorted((w for w in words if (w[1] + w[3]) / 2 > rule.y), key=lambda w: (w[1], w[0])):
        outside = _column(edges, w) is None or w[0] < edges[0] - _EDGE_SLACK or w[2] > edges[-1] + _EDGE_SLACK
        larger = any(c.isalpha() for c in str(w[4])) and w[3] - w[1] > _LARGER * height  # a heading
        if w[1] - last_bottom > _ROW_GAP * height or w[3] > bottom_margin or outside or larger:
            break  # a heading or paragraph after the table, or the page footer
        body.append(w)
        last_bottom = max(last_bottom, w[3])
    rows = _rows(_lines(body, height), edges, height)
    if not rows:
        return None
    top = min(w[1] for cell in header for w in cell)
    table = [[_join_words(cell) for cell in header], *([_join_words(cell) for cell in row] for row in rows)]
    return BandTable((edges[0] - _EDGE_SLACK, top - 1, edges[-1] + _EDGE_SLACK, last_bottom + 1), table)


def find_band_tables(
    page: Any,
    drawings: Sequence[dict[str, Any]],
    words: Callable[[], Sequence[Word]],
    taken: Sequence[tuple[float, float, float, float]],
) -> list[BandTable]:
    """Tables of one page ruled only under their header, outside the ``taken`` boxes (ruled tables).
    ``words`` is called only when a header rule is drawn: most pages have none."""
    rules = header_rules(drawings)
    if not rules:
        return []
    bottom = page.rect.height * 0.93
    out: list[BandTable] = []
    for rule in rules:
        if any(b[1] - 1 <= rule.y <= b[3] + 1 for b in taken) or any(t.bbox[1] <= rule.y <= t.bbox[3] for t in out):
            continue
        if (table := band_table(rule, words(), bottom)) is not None:
            out.append(table)
    return out
