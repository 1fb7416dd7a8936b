"""DOCX → blocks with python-docx, reading the body XML so paragraphs and tables keep their order.

What the corpus taught (ConsultantPlus exports): article headings are ``ConsPlusTitle`` paragraphs,
bold by *style* rather than by run, so bold is resolved through run → character style → paragraph
style chain; «Документ предоставлен КонсультантПлюс» sits in the section header/footer (never read
here) but also in a cover-page table in the body (kept: a later pass marks editorial text); notes
(«КонсультантПлюс: примечание.») are one-cell layout tables, read as plain paragraphs.

Decisions:

* headings: a paragraph style named «Heading N» / «Заголовок N» (or based on one), or an outline
  level 1–6, gives ``kind="heading"`` with that level; «Title» is level 1;
* automatic list numbers (``w:numPr``) are not in the text runs, yet clause numbers must survive:
  they are rendered from ``numbering.xml`` («1.», «1.2.», «а)») and prefixed to the paragraph;
* tables follow the HTML rules: a Markdown pipe table, first row as header, a merged cell's text
  once in its top-left position; one-row or one-column tables are layout boxes → paragraphs;
* soft line breaks and tabs inside a paragraph become spaces; deleted (tracked) text is skipped.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from lxml import etree

from docshelf.convert.tables import markdown_table
from docshelf.convert.text import clean_inline, meaningful_title, superscript
from docshelf.errors import ConversionError, UnsupportedSourceError
from docshelf.model import Block, Converted

if TYPE_CHECKING:
    from docx.document import Document
    from docx.oxml.xmlchemy import BaseOxmlElement

CONVERTER_VERSION = "1"

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .doc, and password-protected .docx
_HEADING_STYLE = re.compile(r"^(?:heading|заголовок)\s*([1-9])$", re.IGNORECASE)
_TITLE_STYLE = re.compile(r"^(?:title|название)$", re.IGNORECASE)
_RUSSIAN_LETTERS = "абвгдежзиклмнопрстуфхцчшщэюя"  # Word's «а, б, в …» skips ё, й, ъ, ы, ь
_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"))
_ROMAN_SMALL = ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _w(tag: str) -> str:
    return f"{{{_W}}}{tag}"


@lru_cache(maxsize=128)
def _compiled(path: str) -> etree.XPath:
    return etree.XPath(path, namespaces={"w": _W})


def _xp(element: BaseOxmlElement, path: str) -> list[Any]:
    """XPath with the w: prefix bound; numbering.xml children are plain lxml elements without the
    python-docx ``xpath`` helper, so the namespace map is passed explicitly."""
    return list(_compiled(path)(element))


def _val(element: BaseOxmlElement, path: str) -> str | None:
    found = _xp(element, path)
    return str(found[0]) if found else None


def _on(value: str | None) -> bool:
    return value not in ("0", "false", "off", "none")


def convert_docx(data: bytes, *, name: str) -> Converted:
    """Convert a Word .docx into blocks (body only; headers and footers are ignored)."""
    document = _open(data, name)
    reader = _Reader(document)
    blocks = list(reader.container(document.element.body))
    if not blocks:
        raise ConversionError(
            f"{name}: the document body has no text. Check that it is the right file "
            "(text only in headers, footers or images is not read).",
            source=name,
        )
    return Converted(
        blocks=tuple(blocks),
        converter="docshelf-docx",
        converter_version=f"{CONVERTER_VERSION} (python-docx {version('python-docx')})",
        title=meaningful_title(document.core_properties.title),
    )


def _open(data: bytes, name: str) -> Document:
    import docx

    if data.startswith(_OLE_MAGIC):
        raise UnsupportedSourceError(
            f"{name}: a legacy Word 97–2003 .doc or a password-protected .docx. Open it in Word or "
            "LibreOffice, save it as an unprotected .docx (Word 2007+) and add that file.",
            source=name,
        )
    try:
        return docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zip, KeyError, ValueError and lxml errors
        raise ConversionError(
            f"{name}: not a readable .docx ({exc.__class__.__name__}: {exc}). The file is damaged or "
            "is another format renamed to .docx: open and re-save it in Word or LibreOffice.",
            source=name,
        ) from exc


@dataclass(frozen=True)
class _Style:
    name: str
    based_on: str | None
    bold: bool | None
    outline: int | None
    num: tuple[str, str | None] | None  # (numId, ilvl)


class _Styles:
    """Paragraph and character styles from styles.xml, resolved through ``w:basedOn``."""

    def __init__(self, document: Document) -> None:
        root = document.styles.element
        self._styles: dict[str, _Style] = {}
        self.default_paragraph: str | None = None
        for el in _xp(root, "./w:style"):
            style_id = _val(el, "./@w:styleId") or ""
            bold = _val(el, "./w:rPr/w:b/@w:val")
            has_bold = bool(_xp(el, "./w:rPr/w:b"))
            outline = _val(el, "./w:pPr/w:outlineLvl/@w:val")
            num_id = _val(el, "./w:pPr/w:numPr/w:numId/@w:val")
            self._styles[style_id] = _Style(
                name=_val(el, "./w:name/@w:val") or style_id,
                based_on=_val(el, "./w:basedOn/@w:val"),
                bold=_on(bold) if has_bold else None,
                outline=int(outline) if outline and outline.isdigit() else None,
                num=(num_id, _val(el, "./w:pPr/w:numPr/w:ilvl/@w:val")) if num_id else None,
            )
            if _val(el, "./@w:type") == "paragraph" and _on(_val(el, "./@w:default") or "0"):
                self.default_paragraph = style_id

    def chain(self, style_id: str | None) -> Iterator[_Style]:
        seen: set[str] = set()
        while style_id and style_id in self._styles and style_id not in seen:
            seen.add(style_id)
            yield self._styles[style_id]
            style_id = self._styles[style_id].based_on

    def bold(self, style_id: str | None) -> bool | None:
        return next((s.bold for s in self.chain(style_id) if s.bold is not None), None)

    def heading_level(self, style_id: str | None) -> int:
        for style in self.chain(style_id):
            m = _HEADING_STYLE.match(style.name.strip())
            if m:
                return int(m.group(1))
            if _TITLE_STYLE.match(style.name.strip()):
                return 1
            if style.outline is not None:
                return style.outline + 1 if style.outline < 6 else 0
        return 0

    def numbering(self, style_id: str | None) -> tuple[str, str | None] | None:
        return next((s.num for s in self.chain(style_id) if s.num is not None), None)


@dataclass(frozen=True)
class _Level:
    fmt: str
    text: str
    start: int


class _Numbering:
    """Renders automatic list labels from numbering.xml, counting per list (abstract definition) as Word does."""

    def __init__(self, document: Document) -> None:
        self._abstract: dict[str, dict[int, _Level]] = {}  # each list's levels, by its abstract definition
        self._counts: dict[str, dict[int, int]] = {}  # by list (abstract definition), level
        self._list: dict[str, str] = {}  # numId → the abstract definition it is an instance of
        self._restarts: dict[str, dict[int, int]] = {}  # numId → the levels it restarts, at what value
        self._started: set[tuple[str, int]] = set()  # (numId, level) numbered so far
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError):  # no numbering part: no automatic numbers
            return
        abstract: dict[str, dict[int, _Level]] = {}
        styled: dict[str, dict[int, _Level]] = {}  # a list style's levels, by the style's name
        linked: dict[str, str] = {}  # an abstract list that takes its levels from a list style
        for el in _xp(root, "./w:abstractNum"):
            levels = {}
            for lvl in _xp(el, "./w:lvl"):
                start = _val(lvl, "./w:start/@w:val") or "1"
                levels[int(_val(lvl, "./@w:ilvl") or 0)] = _Level(
                    fmt=_val(lvl, "./w:numFmt/@w:val") or "decimal",
                    text=_val(lvl, "./w:lvlText/@w:val") or "",
                    start=int(start) if start.isdigit() else 1,
                )
            key = _val(el, "./@w:abstractNumId") or ""
            abstract[key] = levels
            if style := _val(el, "./w:styleLink/@w:val"):
                styled[style] = levels
            if style := _val(el, "./w:numStyleLink/@w:val"):
                linked[key] = style
        for key, style in linked.items():
            # A template's lists often name a list style («GSACtrlList») instead of levels of their own: the
            # levels are the style's, defined by the abstract list that links to it. Without them «a.» is lost.
            abstract[key] = abstract[key] or styled.get(style, {})
        self._abstract = abstract
        for num in _xp(root, "./w:num"):
            num_id, key = _val(num, "./@w:numId") or "", _val(num, "./w:abstractNumId/@w:val") or ""
            levels = abstract.get(key, {})
            restarts: dict[int, int] = {}
            for override in _xp(num, "./w:lvlOverride"):
                ilvl = int(_val(override, "./@w:ilvl") or 0)
                restart = _val(override, "./w:startOverride/@w:val")
                if ilvl in levels and restart and restart.isdigit():
                    restarts[ilvl] = int(restart)
            self._list[num_id] = key
            self._restarts[num_id] = restarts

    def label(self, num_id: str, ilvl: int) -> str:
        levels = self._abstract.get(self._list.get(num_id, ""), {})
        level = levels.get(ilvl)
        if level is None or level.fmt == "none":
            return ""
        # Word counts a list on its abstract definition: every instance (numId) of it goes on with the same count,
        # and an instance that restarts a level (startOverride) restarts it where it first numbers that level.
        counts = self._counts.setdefault(self._list.get(num_id, num_id), {})
        if (num_id, ilvl) not in self._started:
            self._started.add((num_id, ilvl))
            if (restart := self._restarts.get(num_id, {}).get(ilvl)) is not None:
                counts[ilvl] = restart - 1
        counts[ilvl] = counts.get(ilvl, level.start - 1) + 1
        for deeper in [k for k in counts if k > ilvl]:
            del counts[deeper]  # a new «2.» restarts its «2.1.»
        if level.fmt == "bullet":
            return "- "

        def number(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            ref = levels.get(k, level)
            return _format_number(counts.get(k, ref.start), ref.fmt)

        return re.sub(r"%([1-9])", number, level.text).strip() + " "


def _format_number(n: int, fmt: str) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        text = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return text.upper() if fmt == "upperLetter" else text
    if fmt in ("russianLower", "russianUpper"):
        text = _RUSSIAN_LETTERS[(n - 1) % len(_RUSSIAN_LETTERS)] * ((n - 1) // len(_RUSSIAN_LETTERS) + 1)
        return text.upper() if fmt == "russianUpper" else text
    if fmt in ("lowerRoman", "upperRoman"):
        text = ""
        for value, digits in _ROMAN + _ROMAN_SMALL:
            while n >= value:
                text, n = text + digits, n - value
        return text.upper() if fmt == "upperRoman" else text
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)


class _Reader:
    """Walks body-like containers (the body, a table cell, a content control) in order."""

    def __init__(self, document: Document) -> None:
        self.styles = _Styles(document)
        self.numbering = _Numbering(document)

    def container(self, element: BaseOxmlElement, *, in_cell: bool = False) -> Iterator[Block]:
        for child in element.iterchildren():
            tag = child.tag
            if tag == _w("p"):
                block = self.paragraph(child, in_cell=in_cell)
                if block is not None:
                    yield block
            elif tag == _w("tbl"):
                yield from self.table(child)
            elif tag in (_w("sdt"), _w("customXml")):
                for content in _xp(child, "./w:sdtContent") or [child]:
                    yield from self.container(content, in_cell=in_cell)

    def paragraph(self, p: BaseOxmlElement, *, in_cell: bool = False) -> Block | None:
        style_id = _val(p, "./w:pPr/w:pStyle/@w:val") or self.styles.default_paragraph
        style_bold = bool(self.styles.bold(style_id))
        text, bold_flags = "", []
        for run in _xp(p, ".//w:r[not(ancestor::w:txbxContent) and not(ancestor::w:del)]"):
            piece = str(run.text)
            if _val(run, "./w:rPr/w:vertAlign/@w:val") == "superscript":
                piece = superscript(piece, text.rstrip())
            text += piece
            if piece.strip():
                bold_flags.append(self._run_bold(run, style_bold))
        # A soft line break is a space in running text but a «<br>» inside a table cell.
        lines = [clean_inline(ln) for ln in (self._label(p, style_id) + text).split("\n")]
        text = ("\n" if in_cell else " ").join(ln for ln in lines if ln)
        if not text:
            return None
        level = self.styles.heading_level(style_id)
        outline = _val(p, "./w:pPr/w:outlineLvl/@w:val")
        if outline and outline.isdigit():
            level = int(outline) + 1 if int(outline) < 6 else 0
        bold = bool(bold_flags) and all(bold_flags)
        return Block(text=text, kind="heading" if level else "para", level=level, bold=bold)

    def _run_bold(self, run: BaseOxmlElement, style_bold: bool) -> bool:
        if _xp(run, "./w:rPr/w:b"):
            return _on(_val(run, "./w:rPr/w:b/@w:val"))
        char_bold = self.styles.bold(_val(run, "./w:rPr/w:rStyle/@w:val"))
        return char_bold if char_bold is not None else style_bold

    def _label(self, p: BaseOxmlElement, style_id: str | None) -> str:
        num_id = _val(p, "./w:pPr/w:numPr/w:numId/@w:val")
        ilvl = _val(p, "./w:pPr/w:numPr/w:ilvl/@w:val")
        if num_id is None:
            from_style = self.styles.numbering(style_id)
            if from_style is None:
                return ""
            num_id, ilvl = from_style[0], ilvl or from_style[1]
        if num_id == "0":  # numbering explicitly switched off for this paragraph
            return ""
        return self.numbering.label(num_id, int(ilvl) if ilvl and ilvl.isdigit() else 0)

    def table(self, tbl: BaseOxmlElement) -> Iterator[Block]:
        grid = _prune(_grid(tbl))
        if not grid:
            return
        if len(grid) == 1 or len(grid[0]) == 1:  # a layout box (ConsultantPlus notes, cover page)
            for cell in dict.fromkeys(c for row in grid for c in row if c is not None):
                yield from self.container(cell)
            return
        rows = [
            ["\n".join(b.text for b in self.container(c, in_cell=True)) if c is not None else "" for c in row]
            for row in grid
        ]
        yield Block(text=markdown_table(rows), kind="table")


def _grid(tbl: BaseOxmlElement) -> list[list[BaseOxmlElement | None]]:
    """Cells on the table grid; positions covered by a horizontal or vertical merge hold None."""
    grid: list[list[BaseOxmlElement | None]] = []
    for tr in _xp(tbl, "./w:tr"):
        before = _val(tr, "./w:trPr/w:gridBefore/@w:val")
        row: list[BaseOxmlElement | None] = [None] * (int(before) if before and before.isdigit() else 0)
        for tc in _xp(tr, "./w:tc | ./w:sdt/w:sdtContent/w:tc"):
            span = _val(tc, "./w:tcPr/w:gridSpan/@w:val")
            merged = _xp(tc, "./w:tcPr/w:vMerge")
            continued = bool(merged) and _val(tc, "./w:tcPr/w:vMerge/@w:val") != "restart"
            row.append(None if continued else tc)
            row.extend([None] * ((int(span) if span and span.isdigit() else 1) - 1))
        grid.append(row)
    width = max((len(r) for r in grid), default=0)
    return [r + [None] * (width - len(r)) for r in grid]


def _prune(grid: list[list[BaseOxmlElement | None]]) -> list[list[BaseOxmlElement | None]]:
    """Drop rows and columns without text (Word's spacer cells)."""

    def empty(cell: BaseOxmlElement | None) -> bool:
        return cell is None or not "".join(str(t) for t in _xp(cell, ".//w:t/text()")).strip()

    grid = [row for row in grid if not all(empty(c) for c in row)]
    keep = [i for i in range(len(grid[0]) if grid else 0) if not all(empty(row[i]) for row in grid)]
    return [[row[i] for i in keep] for row in grid] if keep else []
