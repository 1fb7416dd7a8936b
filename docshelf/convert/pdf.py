"""PDF → blocks with DocShelf's own extractor over PyMuPDF's ``get_text("dict")``.

Why our own extractor: the layout engine of pymupdf4llm is ~40x slower, assigns heading levels
by font-size rank, eats real hyphens («24-ФЗ» → «24ФЗ») and sometimes drops a unique top-of-page
heading as a "page header". Here we keep every line, rebuild paragraphs from geometry (indent,
vertical gaps, style changes), repair line-break hyphenation with a document-wide vocabulary, and
hand typographic hints (bold, relative size) to the structure stage. Page furniture is *not*
removed here: lines in the top/bottom margins become their own blocks so that the generic
``clean.strip_furniture`` pass can drop the ones that repeat across pages.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from docshelf.convert import columns, ocr, tables
from docshelf.convert.pagelines import hanging_labels, off_folio_rows
from docshelf.convert.tables import markdown_table as tables_md
from docshelf.convert.text import meaningful_title
from docshelf.convert.wordbreaks import UNMAPPED, Vocabulary, attach_drop_caps, join_lines, without_unmapped
from docshelf.errors import ConversionError, NoTextLayerError
from docshelf.law.grammar import HEADINGS, NUMBERED_TITLE, PDF_PARAGRAPH_START, RUN_IN_TITLE
from docshelf.law.lexicon import ITEM_JOINS
from docshelf.law.numbering import opens_item, read_label
from docshelf.model import Block, Converted

# Heading kinds whose line always opens a new heading, even right under another bold line.
_OPENING_KINDS = frozenset({"paragraph_sign", "statya", "article"})
_BOLD_FLAG = 16
_SUPERSCRIPT_FLAG = 1
_MARGIN = 0.07  # share of the page height treated as header/footer zone
# A broken ToUnicode map gives tokens like «На8<5=>ва=85»: letters glued to symbols inside a word.
_GARBLED = re.compile(r"[^\W\d_][<>@=?;$!^|~]+[^\W_]|\d[<>@=?;$!^|~]+[^\W\d_]")
_SYMBOL_RUN = re.compile(r"[<>@=?;$!^|~]+")
_PLAIN_WORD = re.compile(r"^[(\"«]?[A-Za-zА-Яа-яЁё]{2,}[)\"».,;:]?$")
_ART = re.compile(r"[+|]-{2,}|-{2,}[+|]|\|.*\|.*\||\+\s*\+")
_TOC_LINE = re.compile(r"(?:\.{3,}|\s)\d{1,4}$")
_NOT_ACCENT = re.compile(r"italic|oblique|mono|courier|consol|code", re.IGNORECASE)
_ACCENT_LEVEL = 6
_CELL_GAP = 0.8  # a gap of this many font sizes between two pieces of a line separates table cells
_ACCENT_HEADING_CHARS = 150
_DOT_LEADER_END = re.compile(r"\.{3,}\s*(?:[A-Z]-)?(?:\d{1,4}|[ivxlc]{1,6})\s*$")  # «… 12», «… A-1», «… iv»


@dataclass
class _Line:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: bool
    page: int
    margin: str = ""  # "top" | "bottom" | ""
    font: str = ""  # the font most of the line is set in
    accent: bool = False  # set in another upright font than the body text («Calibri-Light» headings)
    cells: list[columns.Cell] = field(default_factory=list)  # pieces apart by a column's gap

    @property
    def blank(self) -> bool:
        return not self.text.strip()


@dataclass
class _Para:
    lines: list[_Line] = field(default_factory=list)
    table: Block | None = None  # an unruled table found among the page's lines (``columns``)

    @property
    def last(self) -> _Line:
        return self.lines[-1]


def _open(data: bytes, name: str) -> Any:
    import pymupdf

    try:
        doc = pymupdf.open(stream=data, filetype="pdf")  # type: ignore[no-untyped-call]
    except Exception as exc:  # pymupdf raises several types for damaged files
        raise ConversionError(
            f"{name}: not a readable PDF ({exc}). The file is corrupt or truncated: "
            "get a fresh copy of the original and add it again.",
            source=name,
        ) from exc
    if doc.needs_pass:
        raise ConversionError(
            f"{name}: the PDF is encrypted with a password. Save an unencrypted copy "
            "(e.g. `qpdf --decrypt --password=… in.pdf out.pdf`) and add that.",
            source=name,
        )
    if doc.page_count == 0:
        raise ConversionError(
            f"{name}: the PDF has no pages: it is corrupt or truncated. Get a fresh copy of the original.",
            source=name,
        )
    return doc


def pymupdf_version() -> str:
    import pymupdf

    return str(pymupdf.VersionBind)


def convert_pdf(data: bytes, *, name: str) -> Converted:
    """Convert a PDF with a text layer into blocks (one per paragraph, heading line or table)."""
    import pymupdf

    # MuPDF reports warnings through print(); stdout may be an MCP wire or a pipe of Markdown.
    with contextlib.redirect_stdout(io.StringIO()) as junk:
        doc = _open(data, name)
        pages: list[list[_Line]] = []
        page_tables: list[list[tables.PageTable]] = []
        ocr_pages: list[int] = []
        widths: list[float] = []
        for pno, page in enumerate(doc):
            widths.append(float(page.rect.width))
            found = tables.find_tables(page)
            lines = list(_page_lines(page, pno + 1, [t.bbox for t in found]))
            if _needs_ocr(page, lines) and ocr.ocr_languages():
                lines = list(_page_lines(page, pno + 1, [], textpage=ocr.ocr_textpage(page)))
                found = []
                ocr_pages.append(pno + 1)
            pages.append(lines)
            page_tables.append(found)
        outline = tuple((lvl, title, pg) for lvl, title, pg, *_ in doc.get_toc(simple=True))
        meta_title = (doc.metadata or {}).get("title") or None
        page_count = doc.page_count
    if junk.getvalue():
        print(junk.getvalue(), file=sys.stderr, end="")

    _check_text_layer(pages, name)
    unmapped = _repair_lines(pages)
    body_size = _body_size(pages)
    _mark_accents(pages, body_size)
    vocabulary = Vocabulary.of(ln.text for lines in pages for ln in lines)
    blocks: list[Block] = []
    for lines, found, width in zip(pages, page_tables, widths, strict=True):
        blocks.extend(_page_blocks(lines, found, body_size, vocabulary, width))
    return Converted(
        blocks=tuple(blocks),
        converter="docshelf-pdf",
        converter_version=f"1 (pymupdf {pymupdf.VersionBind})",
        pages=page_count,
        title=meaningful_title(meta_title),
        outline=outline,
        warnings=tuple(_warnings(ocr_pages, unmapped)),
    )


def _warnings(ocr_pages: list[int], unmapped: list[int]) -> Iterator[str]:
    if ocr_pages:
        yield f"OCR ({ocr.ocr_languages()}) read page(s) {', '.join(map(str, ocr_pages))}"
    if unmapped:
        yield (
            f"the text layer has no character for some glyphs on page(s) {', '.join(map(str, unmapped))}: each "
            "is set as a space between words; compare those lines with the PDF (re-export it with its fonts "
            "embedded, or OCR it) before quoting them"
        )


def _repair_lines(pages: list[list[_Line]]) -> list[int]:
    """Drop caps glued to the word they begin, unmapped glyphs made spaces (``wordbreaks``).

    Returns the pages where the text layer had glyphs without a character, for the build to say so.
    """
    unmapped: set[int] = set()
    for lines in pages:
        for i in sorted(attach_drop_caps(lines), reverse=True):
            del lines[i]
        for ln in lines:
            if UNMAPPED in ln.text:
                unmapped.add(ln.page)
                ln.text = without_unmapped(ln.text)
                ln.cells = [columns.Cell(c.x0, c.x1, without_unmapped(c.text)) for c in ln.cells]
    return sorted(unmapped)


def _needs_ocr(page: object, lines: list[_Line]) -> bool:
    """No words on a page that shows an image (a scan), or a garbled text layer."""
    text = [ln.text for ln in lines]
    if not any(t.strip() for t in text):
        return ocr.page_has_images(page)
    return _garbled_share(text) > 0.2


def _span_text(span: dict[str, object], prev_text: str) -> str:
    text = str(span["text"]).replace("\u00a0", " ").replace("\u2011", "-")
    # «Статья 20¹»: a superscript number right after a digit is a sub-number (20.1), not 201.
    if int(span["flags"]) & _SUPERSCRIPT_FLAG and text.strip().isdigit() and prev_text[-1:].isdigit():  # type: ignore[call-overload]
        return "." + text.strip()
    return text


def _page_lines(
    page: object, pno: int, table_boxes: list[tuple[float, float, float, float]], textpage: object = None
) -> Iterator[_Line]:
    """Visual lines of one page in content order; pieces on one baseline are merged."""
    height = page.rect.height  # type: ignore[attr-defined]
    raw = page.get_text("dict", flags=0, textpage=textpage)  # type: ignore[attr-defined]
    current: _Line | None = None
    for block in raw["blocks"]:
        for line in block.get("lines", []):
            spans = [s for s in line["spans"] if s["text"]]
            if not spans:
                continue
            x0, y0, x1, y1 = line["bbox"]
            if table_boxes and _inside_any((x0, y0, x1, y1), table_boxes):
                continue
            text = ""
            for span in spans:
                text += _span_text(span, text)
            main = [s for s in spans if str(s["text"]).strip() and not int(s["flags"]) & _SUPERSCRIPT_FLAG]
            size = max((float(s["size"]) for s in main), default=0.0)
            bold = bool(main) and all(_is_bold(s) for s in main)
            # Monospaced texts (RFCs) indent with spaces: count them, the bbox starts at the first one.
            lead = len(text) - len(text.lstrip(" "))
            if lead and text.strip():
                x0 += lead * (x1 - x0) / len(text)
            piece = _Line(text, x0, y0, x1, y1, size, bold, pno, font=_main_font(main))
            piece.cells = _span_cells(spans, size) if len(spans) > 1 else [columns.Cell(x0, x1, text)]
            if current is not None and _same_baseline(current, piece):
                _add_cell(current, piece)
                current.text = (
                    current.text.rstrip() + " " + piece.text.lstrip()
                    if _gap(current, piece)
                    else current.text + piece.text
                )
                current.x1, current.bold = piece.x1, current.bold and piece.bold
                current.size = max(current.size, piece.size)
                continue
            if current is not None:
                yield _with_margin(current, height)
            current = piece
    if current is not None:
        yield _with_margin(current, height)


def _span_cells(spans: list[dict[str, Any]], size: float) -> list[columns.Cell]:
    """The cells of one extracted line: its spans, cut where a column's gap separates two of them."""
    cells: list[columns.Cell] = []
    for span in spans:
        x0, _y0, x1, _y1 = span["bbox"]
        text = str(span["text"]).replace("\u00a0", " ")
        if cells and not text.strip():
            last = cells[-1]  # a space span: part of the text, not of the width (the gap is measured past it)
            cells[-1] = columns.Cell(last.x0, last.x1, last.text + text)
        elif cells and x0 - cells[-1].x1 <= _CELL_GAP * max(size, 1.0):
            last = cells[-1]
            cells[-1] = columns.Cell(last.x0, x1, last.text + text)
        elif text.strip() or not cells:
            cells.append(columns.Cell(x0, x1, text))
    return [columns.Cell(c.x0, c.x1, c.text.strip()) for c in cells if c.text.strip()] or [columns.Cell(0, 0, "")]


def _add_cell(line: _Line, piece: _Line) -> None:
    """A piece far right of the line (a column's gap, not a word space) is a cell of its own."""
    last = line.cells[-1]
    if piece.x0 - last.x1 > _CELL_GAP * max(line.size, piece.size, 1.0):
        line.cells.append(columns.Cell(piece.x0, piece.x1, piece.text))
    else:
        joined = f"{last.text.rstrip()} {piece.text.lstrip()}" if _gap(line, piece) else last.text + piece.text
        line.cells[-1] = columns.Cell(last.x0, piece.x1, joined)


def _inside_any(box: tuple[float, float, float, float], boxes: list[tuple[float, float, float, float]]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes)


def _is_bold(span: dict[str, object]) -> bool:
    return bool(int(span["flags"]) & _BOLD_FLAG) or "bold" in str(span["font"]).lower()  # type: ignore[call-overload]


def _same_baseline(a: _Line, b: _Line) -> bool:
    return abs(a.y1 - b.y1) < 2.5 and b.x0 >= a.x1 - 1.0 and b.x0 - a.x1 < 4 * max(a.size, b.size, 1.0)


def _gap(a: _Line, b: _Line) -> bool:
    """Whether two pieces on one baseline are separate words (a visible gap between them)."""
    return b.x0 - a.x1 > 0.15 * max(a.size, 1.0) or a.text.endswith(" ") or b.text.startswith(" ")


def _with_margin(line: _Line, height: float) -> _Line:
    if line.y1 <= height * _MARGIN:
        line.margin = "top"
    elif line.y0 >= height * (1 - _MARGIN):
        line.margin = "bottom"
    return line


def _check_text_layer(pages: list[list[_Line]], name: str) -> None:
    words = [w for lines in pages for ln in lines for w in ln.text.split()]
    if not words:
        raise NoTextLayerError(
            f"{name}: the PDF has no text layer (a scan or an empty document). Install Tesseract with Russian "
            "(`apt-get install tesseract-ocr-rus`) so DocShelf can OCR it, or run OCR first "
            "(`ocrmypdf -l rus in.pdf out.pdf`) and add the result.",
            source=name,
        )
    bad_pages = [lines[0].page for lines in pages if lines and _garbled_share([ln.text for ln in lines]) > 0.2]
    if bad_pages:
        raise NoTextLayerError(
            f"{name}: the text layer of page(s) {', '.join(map(str, bad_pages))} is garbled (broken font "
            "encoding). Re-export the PDF from its source, install `tesseract-ocr-rus` so DocShelf can OCR "
            "those pages, or OCR it yourself (`ocrmypdf --force-ocr -l rus`) and add the result.",
            source=name,
        )


def garbled_share(text: str) -> float:
    """Share of tokens that mix letters with the symbols a broken ToUnicode map produces."""
    return _garbled_share(text.splitlines())


def _garbled_share(lines: list[str]) -> float:
    if not _may_be_garbled("\n".join(lines)):
        return 0.0
    tokens = [t for ln in lines for t in ln.split() if len(t) > 2]
    if len(tokens) < 20:
        return 0.0
    words = sum(1 for t in tokens if _PLAIN_WORD.match(t))
    if words / len(tokens) > 0.5:  # mostly real words: code or formulas, not a broken font map
        return 0.0
    bad = sum(1 for t in tokens if _GARBLED.search(t))
    return bad / len(tokens)


def _may_be_garbled(text: str) -> bool:
    """Whether any token of ``text`` can match ``_GARBLED``: a run of its symbols between a letter and a
    letter or digit, or between a digit and a letter. Scanning the symbol runs is far cheaper than
    trying the pattern at every letter of a page, and most pages have none."""
    for run in _SYMBOL_RUN.finditer(text):
        start, end = run.span()
        before, after = text[start - 1 : start], text[end : end + 1]
        if not (before.isalnum() and after.isalnum()):
            continue
        if not before.isdecimal() or not after.isdecimal():
            return True
    return False


def _body_size(pages: list[list[_Line]]) -> float:
    sizes: Counter[float] = Counter()
    for lines in pages:
        for ln in lines:
            sizes[round(ln.size * 2) / 2] += len(ln.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _main_font(spans: list[dict[str, Any]]) -> str:
    if len(spans) == 1:  # most lines
        return str(spans[0]["font"]).split("+")[-1]
    chars: dict[str, int] = {}
    for span in spans:
        font = str(span["font"]).split("+")[-1]
        chars[font] = chars.get(font, 0) + len(str(span["text"]).strip())
    return max(chars, key=chars.__getitem__) if chars else ""  # the first of equals, as most_common gives


def _mark_accents(pages: list[list[_Line]], body_size: float) -> None:
    """Lines at body size set in another upright font than the body text: how many documents mark a
    heading («Testing Method» in Calibri Light among Calibri). Italic and monospaced fonts are emphasis
    and code, not headings."""
    chars: Counter[str] = Counter()
    for lines in pages:
        for ln in lines:
            chars[ln.font] += len(ln.text)
    body_font = chars.most_common(1)[0][0] if chars else ""
    for lines in pages:
        for ln in lines:
            other = ln.font and ln.font != body_font and not _NOT_ACCENT.search(ln.font)
            ln.accent = bool(other) and not ln.bold and abs(ln.size - body_size) <= 0.6 and not ln.blank


def _page_blocks(
    lines: list[_Line], found: list[tables.PageTable], body_size: float, vocab: Vocabulary, width: float
) -> Iterator[Block]:
    margin = off_folio_rows([ln for ln in lines if ln.margin and not ln.blank])
    top = [ln for ln in margin if ln.margin == "top"]
    bottom = [ln for ln in margin if ln.margin == "bottom"]
    body = hanging_labels([ln for ln in lines if not ln.margin])
    for ln in top:
        yield _block([ln], body_size, vocab)
    paras = list(_units(body, _left_margin(body, width), body_size))
    # A table goes after the last paragraph above it in reading order (the content stream may
    # start with a footer drawn first, so «the first paragraph below it» would put it first).
    after: dict[int, list[tables.PageTable]] = {}
    for t in sorted(found, key=lambda t: t.bbox[1]):
        after.setdefault(_table_place(paras, t.bbox), []).append(t)
    for group in after.values():  # two after one paragraph: the first column's, then the second's
        edge = min(t.bbox[2] for t in group) - 2.0
        group.sort(key=lambda t: (t.bbox[0] >= edge, t.bbox[1]))
    yield from (t.block for t in after.get(-1, []))
    for n, para in enumerate(paras):
        yield para.table if para.table is not None else _block(para.lines, body_size, vocab)
        yield from (t.block for t in after.get(n, []))
    for ln in bottom:
        yield _block([ln], body_size, vocab)


def _table_place(paras: list[_Para], box: tuple[float, float, float, float]) -> int:
    """The paragraph a table follows: the last one above it in its own column; a table at the head of a
    page's second column follows the first column (the paragraphs wholly left of it)."""
    x0, top, x1, _bottom = box
    column = [n for n, p in enumerate(paras) if p.lines[0].y0 < top and _spans(p, x0, x1)]
    if column:
        return max(column)
    return max((n for n, p in enumerate(paras) if max(ln.x1 for ln in p.lines) <= x0 + 2.0), default=-1)


def _spans(para: _Para, x0: float, x1: float) -> bool:
    return min(ln.x0 for ln in para.lines) < x1 and max(ln.x1 for ln in para.lines) > x0


def _units(lines: list[_Line], left: Margin, body_size: float) -> Iterator[_Para]:
    """Paragraphs, with runs of lines that form an unruled table (columns by x-position) as one table."""
    rows: list[list[_Line]] = []
    for ln in lines:
        prev = rows[-1][-1] if rows else None
        if prev is not None and abs(prev.y1 - ln.y1) < 2.5 and ln.x0 >= prev.x1 - 1.0:
            rows[-1].append(ln)
        else:
            rows.append([ln])
    visual = [
        columns.VisualRow(
            tuple(c for ln in row for c in _row_cells(ln)), min(ln.y0 for ln in row), max(ln.y1 for ln in row)
        )
        for row in rows
    ]
    stretch: list[_Line] = []
    tables = {t.start: t for t in columns.find_tables(visual)}
    n = 0
    while n < len(rows):
        table = tables.get(n)
        if table is None:
            stretch += rows[n]
            n += 1
            continue
        yield from _paragraphs(stretch, left, body_size)
        stretch = []
        first = rows[n][0]
        block = Block(text=tables_md(table.rows), page=first.page, kind="table")
        yield _Para(lines=[ln for row in rows[table.start : table.end] for ln in row], table=block)
        n = table.end
    yield from _paragraphs(stretch, left, body_size)


def _row_cells(ln: _Line) -> list[columns.Cell]:
    """A line's cells; figures, monospaced text and blank lines are never table cells."""
    if _is_art(ln) or ln.blank or _NOT_ACCENT.search(ln.font):
        return [columns.Cell(ln.x0, ln.x1, ln.text), columns.Cell(ln.x0, ln.x1, ln.text)]  # overlapping: not a row
    return ln.cells or [columns.Cell(ln.x0, ln.x1, ln.text)]


Margin = Callable[[_Line], float]
_MIN_COLUMN_LINES = 3


def _left_margin(lines: list[_Line], page_width: float) -> Margin:
    """Where a line's paragraph text starts: the most common start of the lines in its column.

    On a page set in two columns (lines that end before the middle and lines that start after it) each
    column has its own margin: the right column's is no indent in the left one.
    """

    def common(group: list[_Line]) -> float:
        xs = Counter(round(ln.x0) for ln in group if not ln.blank)
        return float(xs.most_common(1)[0][0]) if xs else 0.0

    mid = page_width / 2
    left_col = [ln for ln in lines if ln.x1 <= mid + 1.0]
    right_col = [ln for ln in lines if ln.x0 >= mid - 1.0]
    if min(len(left_col), len(right_col)) < _MIN_COLUMN_LINES or len(left_col) + len(right_col) < 0.9 * len(lines):
        whole = common(lines)
        return lambda _ln: whole
    margins = (common(left_col), common(right_col))
    return lambda ln: margins[ln.x0 >= mid - 1.0]


def _is_art(ln: _Line) -> bool:
    """A line of an ASCII figure or a preformatted table (RFCs): kept line by line, never reflowed."""
    text = ln.text
    return ("|" in text or "+" in text) and _ART.search(text) is not None  # every figure line has one of them


def _split_run_in(ln: _Line) -> list[_Line]:
    """«6.4.1. The contents …          Inverse queries …»: a heading run into its text in a monospaced
    PDF; a wide run of spaces after a numbered title separates the two."""
    m = RUN_IN_TITLE.match(ln.text)
    if not m:
        return [ln]
    width = (ln.x1 - ln.x0) / max(len(ln.text), 1)
    head = _Line(m.group(1), ln.x0, ln.y0, ln.x0 + width * len(m.group(1)), ln.y1, ln.size, ln.bold, ln.page)
    body = _Line(m.group(3), ln.x0 + width * m.start(3), ln.y0, ln.x1, ln.y1, ln.size, ln.bold, ln.page)
    # The body continues on the next lines; put a line's gap between it and the heading.
    head.y1 = ln.y0 - ln.size
    return [head, body]


def _paragraphs(lines: list[_Line], left: Margin, body_size: float) -> Iterator[_Para]:
    para = _Para()
    for ln in (part for line in lines for part in _split_run_in(line)):
        if ln.blank:
            if para.lines:
                yield para
            para = _Para()
            continue
        if para.lines and _starts_new(para, ln, left):
            yield para
            para = _Para()
        para.lines.append(ln)
    if para.lines:
        yield para


def _starts_new(para: _Para, ln: _Line, left: Margin) -> bool:
    prev = para.last
    if _is_art(prev) != _is_art(ln):
        return True
    size = max(prev.size, ln.size, 1.0)
    gap = ln.y0 - prev.y1
    if gap > 0.9 * size:  # a blank line's worth of space
        return True
    jump = gap < -size  # up into the next column
    if jump and not _goes_on_in_next_column(prev, ln):
        return True
    if prev.bold != ln.bold or abs(prev.size - ln.size) > 0.6 or prev.accent != ln.accent:
        return True
    if _DOT_LEADER_END.search(prev.text):
        return True  # a contents line «1.2 Scope ........ 2» ends its entry, bold or not
    if prev.bold:  # a wrapped bold heading continues on the next line, unless the line opens a heading
        # (an article's, or a section number after the heading's own: «7 Требования …» / «7.1 Общие требования»)
        opening = any(kind.heading.match(ln.text.strip()) for kind in HEADINGS if kind.name in _OPENING_KINDS)
        # (not a contents page's entries «2 Audience 9» / «3 AI Risks … 12»: a title that ends with its page)
        titles = _DECIMAL.match(para.lines[0].text.lstrip()) and _DECIMAL.match(ln.text.lstrip())
        entry = _PAGE_AT_END.search(" " + " ".join(x.text for x in para.lines))
        return opening or (titles is not None and not entry)
    indented = ln.x0 > left(ln) + 0.8 * size
    # (not inside a bracket the line opened: «… [Assignment:» / «organization-defined frequency]» goes on)
    ends_sentence = prev.text.rstrip().endswith((".", ";", ":", "!", "?")) and not _OPEN_BRACKET.search(prev.text)
    if indented and ends_sentence:
        return True
    # a short line ending a sentence, the next back at the margin: «e) … to the policy.» / «Topic-…»; an item's line
    # (its label hangs) need stop less short than a paragraph's indented first line
    short = (4 if PDF_PARAGRAPH_START.match(para.lines[0].text.lstrip()) else 8) * size
    if ends_sentence and ln.x0 < prev.x0 - 0.5 * size and prev.x1 < ln.x1 - short and not jump:
        return True
    if len(para.lines) == 1 and NUMBERED_TITLE.match(prev.text) and ln.x0 > prev.x0 + 0.8 * size and not jump:
        return True  # «6.4.1. The contents of …» at the margin, its text indented below (RFCs)
    clause = PDF_PARAGRAPH_START.match(ln.text.lstrip()) is not None or opens_item(ln.text.lstrip())
    # the next id of the series the paragraph opened with («REQ-SYS-020 …» / «Verification: T» / «REQ-SYS-021 …»)
    if opens_item(ln.text.lstrip()) and _succeeds(para.lines[0].text.lstrip(), ln.text.lstrip()):
        return True
    # An item followed by the next of its list after the conjunction joining them («1) … criteria; and» / «2)
    # criteria …»); not a sentence enumerating inline, whose next point a line break set at the margin («either
    # (a) originated the route, or» / «(b) created …»: the paragraph opens with no label).
    ends_item = _ENDS_ITEM.search(prev.text) is not None and _succeeds(para.lines[0].text.lstrip(), ln.text.lstrip())
    if clause and (ends_sentence or ends_item or _TOC_LINE.search(prev.text)):
        return True
    return indented and ln.x0 > prev.x0 + 0.8 * size and clause and not jump


def _succeeds(first: str, line: str) -> bool:
    """Whether ``line`` opens with the label that comes after the one ``first`` opens with («(2)» after «(1)»)."""
    return any(
        a.style == b.style and b.value == a.value + 1 and a.parent == b.parent
        for a in read_label(first)
        for b in read_label(line)
    )


_OPEN_BRACKET = re.compile(r"\[[^\]]*$")  # a square bracket opened and not closed on the line
_PAGE_AT_END = re.compile(r"\s\d{1,4}\s*$")
_DECIMAL = re.compile(r"\d{1,2}(?:\.\d{1,2})*\.?\s+[A-ZА-ЯЁ]")  # a section number and its title: «7.1 Общие …»


# A list item ending with the conjunction that joins it to the next («…; and», «…, или»); one ending a sentence
# starts the next anyway, and a comma alone may as well end a clause of one sentence («(1) … 12866,» / «(2) …»).
_ENDS_ITEM = re.compile(rf"[;,]\s*{ITEM_JOINS}\s*$")


def _goes_on_in_next_column(prev: _Line, ln: _Line) -> bool:
    """A sentence cut by a column break: the next line is up in the column to the right, in the same type,
    and goes on in lowercase after a line that ended no sentence (two-column journals, the Federal Register)."""
    return (
        ln.x0 >= prev.x1 - 1.0
        and ln.text.lstrip()[:1].islower()
        and not prev.text.rstrip().endswith((".", ";", ":", "!", "?"))
        and prev.bold == ln.bold
        and abs(prev.size - ln.size) <= 0.6
    )


def _block(lines: list[_Line], body_size: float, vocab: Vocabulary) -> Block:
    if _is_art(lines[0]):
        body = "\n".join(ln.text.rstrip() for ln in lines)
        return Block(text=f"```\n{body}\n```", page=lines[0].page)
    text = lines[0].text.strip()
    for ln in lines[1:]:
        text = join_lines(text, ln.text.strip(), vocab)
    text = re.sub(r"[ \t]{2,}", " ", text)
    size = max(ln.size for ln in lines)
    # A short line in an accent font is the source's hint of a heading (level unknown: the lowest).
    accent = all(ln.accent for ln in lines) and len(text) <= _ACCENT_HEADING_CHARS and not text.endswith(".")
    return Block(
        text=text,
        page=lines[0].page,
        level=_ACCENT_LEVEL if accent else 0,
        bold=all(ln.bold for ln in lines),
        size=round(size / body_size, 2) if body_size else 1.0,
    )
