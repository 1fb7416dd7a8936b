"""HTML → blocks: the document itself, without the site around it.

Saved web pages of regulators (fstec.ru is Joomla) carry menus, breadcrumbs, download widgets and
footers around the act; pravo.gov.ru exports are Word-made HTML where headings are ``<p class="T">``
made bold by the page's own CSS, inserted articles are numbered with superscripts (``7<sup>1</sup>``)
and publisher notes sit in ``<span class="mark">``; old acts are one ``<pre>`` of typewritten text.

Decisions (callers and later stages rely on them):

* the main container is a known article container (``itemprop="articleBody"``, ``.item-page``,
  ``article``, ``main`` …) holding at least half of the page's text, else the deepest element that
  holds 80 % of it; site chrome (nav, header, footer, forms, menus by class) is dropped first;
* ``<br>`` inside a paragraph starts a new paragraph block (legal HTML uses it between clauses),
  inside a heading it is a space and inside a table cell it is ``<br>``;
* tables: one block with a Markdown pipe table; the first row is the header row. A spanned cell's
  text is written once, in its top-left position; the other positions it covers stay empty, so no
  text is duplicated (quotes must match once). One-row or one-column tables are layout boxes and
  become ordinary paragraphs;
* links keep their text only (no targets); images are dropped; ``<sup>`` digits after a digit
  become «.N» (article 7¹ → «7.1», as in the PDF converter);
* a paragraph entirely inside ``<b>``/``<strong>`` or a CSS-bold class is ``bold=True``; one entirely
  inside pravo.gov.ru's ``span.mark`` (edition notes) is ``editorial=True``.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning
from bs4 import __version__ as bs4_version
from bs4.element import NavigableString, PreformattedString, Tag

from docshelf.convert.tables import markdown_table
from docshelf.convert.text import (
    clean_inline,
    decode_bytes,
    detect_layout,
    fence,
    meaningful_title,
    superscript,
    text_blocks,
)
from docshelf.errors import ConversionError
from docshelf.model import Block, Converted

CONVERTER_VERSION = "1"

_DROP_TAGS = [
    "script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form", "button",
    "input", "select", "textarea", "iframe", "svg", "canvas", "object", "embed", "img", "map", "video",
    "audio",
]  # fmt: skip
_CHROME_ROLES = {
    "navigation",
    "banner",
    "contentinfo",
    "search",
    "complementary",
    "menu",
    "menubar",
    "toolbar",
}
_CHROME_NAME = re.compile(
    r"breadcrumb|(?:^|[-_])(?:nav|navbar|menu|sidebar|pagination|pager|share|social|toolbar|cookies?|"
    r"banners?|tags|dropfiles|downloads?|rating|comments?|related|print)(?:[-_]|$)",
    re.IGNORECASE,
)
_KNOWN_CONTAINERS = ('[itemprop="articleBody"]', ".item-page", "article", "main", '[role="main"]', "#content")
_CONTAINER_TAGS = {"body", "div", "section", "article", "main", "center", "font", "span", "blockquote"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_BLOCK_TAGS = _HEADINGS | {
    "p", "div", "section", "article", "main", "pre", "table", "ul", "ol", "li", "dl", "dt", "dd", "tr",
    "td", "th", "blockquote", "figure", "figcaption", "address", "center", "hr", "caption", "fieldset",
    "tbody", "thead", "tfoot",
}  # fmt: skip
_BLOCK_LIST = sorted(_BLOCK_TAGS)
_EDITORIAL_CLASSES = {"mark", "markx"}  # pravo.gov.ru: «(В редакции …)», «(Утратил силу …)»
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)|encoding=["']([A-Za-z0-9_.:-]+)""", re.I)
_CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_CLASS_SELECTOR = re.compile(r"^(?:[a-z0-9]+)?\.([\w-]+)$", re.IGNORECASE)
_BOLD_WEIGHT = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)", re.IGNORECASE)
_NORMAL_WEIGHT = re.compile(r"font-weight\s*:\s*(normal|lighter|[1-5]00)", re.IGNORECASE)
_SUPER_ALIGN = re.compile(r"vertical-align\s*:\s*(super|top)", re.IGNORECASE)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


@dataclass(frozen=True)
class _Css:
    """What the page's own stylesheet says about its classes (only simple ``p.X``/``.X`` rules)."""

    bold: frozenset[str]
    normal: frozenset[str]
    sup: frozenset[str]


@dataclass(frozen=True)
class _Piece:
    """A run of inline text with the formatting that matters downstream; ``brk`` is a line break."""

    text: str
    bold: bool = False
    editorial: bool = False
    brk: bool = False


_BREAK = _Piece("\n", brk=True)


def convert_html(data: bytes, *, name: str) -> Converted:
    """Convert an HTML page into blocks of the document it carries (page=0 throughout)."""
    text, notes = decode_bytes(data, name=name, declared=_declared_charset(data))
    with warnings.catch_warnings():  # an XHTML prologue or a tiny fragment is still HTML to us
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        soup = BeautifulSoup(text, "lxml")
    css = _page_css(soup)
    page_title = _page_title(soup)
    container = _main_container(soup)
    walker = _Walker(css)
    walker.walk(container, bold=False, editorial=False)
    blocks = walker.blocks
    if not blocks:
        raise ConversionError(
            f"{name}: no document text found in the page. Check that the file is the saved document "
            "itself and not a login, redirect or search page.",
            source=name,
        )
    title = page_title or next((b.text for b in blocks if b.kind == "heading" and b.level == 1), None)
    title = title or next((b.text for b in blocks if b.bold and b.kind == "para"), None)
    return Converted(
        blocks=tuple(blocks),
        converter="docshelf-html",
        converter_version=f"{CONVERTER_VERSION} (beautifulsoup4 {bs4_version})",
        title=title,
        warnings=tuple(notes),
    )


def _declared_charset(data: bytes) -> str | None:
    m = _CHARSET.search(data[:4096])
    if not m:
        return None
    return (m.group(1) or m.group(2)).decode("ascii").lower()


def _page_css(soup: BeautifulSoup) -> _Css:
    bold: dict[str, bool] = {}
    sup: set[str] = set()
    for style in soup.find_all("style"):
        sheet = re.sub(r"/\*.*?\*/|<!--|-->", "", style.get_text(), flags=re.DOTALL)
        for selectors, body in _CSS_RULE.findall(sheet):
            for selector in selectors.split(","):
                m = _CLASS_SELECTOR.match(selector.strip())
                if not m:
                    continue
                if _BOLD_WEIGHT.search(body):
                    bold[m.group(1)] = True
                elif _NORMAL_WEIGHT.search(body):
                    bold[m.group(1)] = False  # later rules win, as in the browser
                if _SUPER_ALIGN.search(body):
                    sup.add(m.group(1))
    return _Css(
        bold=frozenset(k for k, v in bold.items() if v),
        normal=frozenset(k for k, v in bold.items() if not v),
        sup=frozenset(sup),
    )


def _page_title(soup: BeautifulSoup) -> str | None:
    """The article's own headline (schema.org, no site suffix), else a meaningful <title>."""
    headline = soup.find(None, {"itemprop": "headline"})
    if isinstance(headline, Tag) and clean_inline(headline.get_text()):
        return clean_inline(headline.get_text())
    return meaningful_title(soup.title.get_text()) if soup.title is not None else None


def _classes(tag: Tag) -> list[str]:
    value = tag.get("class")
    if isinstance(value, str):
        return value.split()
    return list(value or [])


def _hidden(tag: Tag) -> bool:
    style = tag.get("style")
    return (
        tag.has_attr("hidden")
        or tag.get("aria-hidden") == "true"
        or (isinstance(style, str) and bool(_HIDDEN_STYLE.search(style)))
    )


def _text_size(tag: Tag) -> int:
    return sum(len(part) for part in tag.get_text().split())


def _main_container(soup: BeautifulSoup) -> Tag:
    """Find the element that holds the document, after dropping the site chrome."""
    body = soup.body or soup
    for tag in body.find_all(_DROP_TAGS):
        tag.decompose()
    for tag in body.find_all(_hidden):
        tag.decompose()
    total = _text_size(body)
    container: Tag = body
    for selector in _KNOWN_CONTAINERS:
        found = body.select_one(selector)
        if found is not None and _text_size(found) * 2 >= total:
            container = found
            break
    else:
        # No known container: walk down while one child still holds 80 % of the text. Old sites lay
        # the page out as a table (menu cell | text cell), so a table's cells are candidates too; a
        # data table never has one cell with 80 % of the page's text.
        while True:
            kids = [k for k in container.find_all(True, recursive=False) if k.name in _CONTAINER_TAGS]
            for table in container.find_all("table", recursive=False):
                kids.extend(c for c in table.find_all(["td", "th"]) if c.find_parent("table") is table)
            best = max(kids, key=_text_size, default=None)
            if best is None or _text_size(best) * 5 < total * 4:
                break
            container = best
    _drop_chrome(container)
    return container


def _drop_chrome(container: Tag) -> None:
    """Remove menus, breadcrumbs, share and download widgets inside the container. A class name is
    only a hint, so an element holding a large share of the text is never removed."""
    total = _text_size(container)
    for tag in container.find_all(True):
        if tag.decomposed:
            continue
        names = [*_classes(tag), str(tag.get("id") or "")]
        chrome = tag.get("role") in _CHROME_ROLES or any(_CHROME_NAME.search(n) for n in names if n)
        if chrome and _text_size(tag) * 10 < total * 3:
            tag.decompose()


class _Walker:
    """Turns the container's element tree into blocks in reading order."""

    def __init__(self, css: _Css) -> None:
        self.css = css
        self.blocks: list[Block] = []
        self._prefix = ""  # list-item marker waiting for the item's first paragraph

    def walk(self, node: Tag, *, bold: bool, editorial: bool) -> None:
        run: list[_Piece] = []
        for child in node.children:
            if isinstance(child, Tag) and (child.name in _BLOCK_TAGS or child.find(_BLOCK_LIST) is not None):
                self._paragraphs(run)
                run = []
                child_bold, child_editorial = self._formatting(child, bold, editorial)
                self._block(child, bold=child_bold, editorial=child_editorial)
            else:
                self._inline(child, run, bold=bold, editorial=editorial)
        self._paragraphs(run)

    def _block(self, tag: Tag, *, bold: bool, editorial: bool) -> None:
        name = tag.name
        if name in _HEADINGS:
            pieces = self._pieces(tag, bold=bold, editorial=editorial)
            text = clean_inline("".join(" " if p.brk else p.text for p in pieces))
            if text:
                self.blocks.append(Block(text=text, kind="heading", level=int(name[1]), bold=_all(pieces, "bold")))
        elif name == "pre":
            self._pre(tag)
        elif name == "table":
            self._table(tag, bold=bold, editorial=editorial)
        elif name in ("ul", "ol"):
            self._list(tag, bold=bold, editorial=editorial)
        elif name != "hr":
            self.walk(tag, bold=bold, editorial=editorial)

    def _formatting(self, tag: Tag, bold: bool, editorial: bool) -> tuple[bool, bool]:
        classes = set(_classes(tag))
        style = str(tag.get("style") or "")
        if tag.name in ("b", "strong") or classes & self.css.bold or _BOLD_WEIGHT.search(style):
            bold = True
        elif classes & self.css.normal or _NORMAL_WEIGHT.search(style):
            bold = False
        return bold, editorial or bool(classes & _EDITORIAL_CLASSES)

    def _inline(self, node: object, out: list[_Piece], *, bold: bool, editorial: bool) -> None:
        if isinstance(node, PreformattedString):  # comments, CDATA, doctype
            return
        if isinstance(node, NavigableString):
            out.append(_Piece(str(node), bold, editorial))
            return
        if not isinstance(node, Tag) or _hidden(node):
            return
        if node.name == "br":
            out.append(_BREAK)
            return
        if node.name == "sup" or set(_classes(node)) & self.css.sup:
            # A superscript takes the weight of its line: pravo.gov.ru sets the «1» of «Статья 7¹»
            # in a normal-weight class inside a bold heading, and the heading is still bold.
            before = next((p.text for p in reversed(out) if p.text.strip()), "")
            out.append(_Piece(superscript(node.get_text(), before), bold, editorial))
            return
        bold, editorial = self._formatting(node, bold, editorial)
        block = node.name in _BLOCK_TAGS
        if block:
            out.append(_BREAK)  # nested blocks inside a cell or a list item: a line of their own
        for child in node.children:
            self._inline(child, out, bold=bold, editorial=editorial)
        if block:
            out.append(_BREAK)

    def _pieces(self, tag: Tag, *, bold: bool, editorial: bool) -> list[_Piece]:
        out: list[_Piece] = []
        for child in tag.children:
            self._inline(child, out, bold=bold, editorial=editorial)
        return out

    def _paragraphs(self, run: list[_Piece]) -> None:
        """One paragraph block per line of the run (``<br>`` separates clauses in legal HTML)."""
        line: list[_Piece] = []
        for piece in [*run, _BREAK]:
            if not piece.brk:
                line.append(piece)
                continue
            text = clean_inline("".join(p.text for p in line))
            if text:
                text, self._prefix = self._prefix + text, ""
                self.blocks.append(Block(text=text, bold=_all(line, "bold"), editorial=_all(line, "editorial")))
            line = []

    def _pre(self, tag: Tag) -> None:
        """Preformatted text: typewritten acts are rejoined into paragraphs, code and art fenced."""
        raw = "".join(p.text for p in self._pieces(tag, bold=False, editorial=False))
        lines = [ln.rstrip() for ln in raw.expandtabs(8).split("\n")]
        if not _prose(lines):
            if any(ln.strip() for ln in lines):
                self.blocks.append(Block(text=fence(lines)))
            return
        self.blocks.extend(text_blocks(lines, detect_layout(lines)))

    def _list(self, tag: Tag, *, bold: bool, editorial: bool) -> None:
        number = _int_attr(tag, "start", 1)
        kind = _list_type(tag)
        for item in tag.find_all("li", recursive=False):
            number = _int_attr(item, "value", number)
            self._prefix = f"{_marker(kind, number)}. " if tag.name == "ol" else "- "
            item_bold, item_editorial = self._formatting(item, bold, editorial)
            self.walk(item, bold=item_bold, editorial=item_editorial)
            self._prefix = ""
            number += 1

    def _table(self, tag: Tag, *, bold: bool, editorial: bool) -> None:
        grid = _prune(_grid(tag))
        if not grid:
            return
        if len(grid) == 1 or len(grid[0]) == 1:  # a layout box, not data: read the cells as text
            for cell in dict.fromkeys(c for row in grid for c in row if c is not None):
                self.walk(cell, bold=bold, editorial=editorial)
            return
        rows = [[self._cell_text(c) if c is not None else "" for c in row] for row in grid]
        self.blocks.append(Block(text=markdown_table(rows), kind="table"))

    def _cell_text(self, cell: Tag) -> str:
        pieces = self._pieces(cell, bold=False, editorial=False)
        lines = "".join(p.text for p in pieces).split("\n")
        return "\n".join(t for t in (clean_inline(ln) for ln in lines) if t)


# An ordered list prints its numbers as its ``type`` (or CSS ``list-style-type``) says: «a.», «A.», «i.», «I.».
_LIST_STYLES = {"lower-alpha": "a", "lower-latin": "a", "upper-alpha": "A", "upper-latin": "A",
                "lower-roman": "i", "upper-roman": "I", "decimal": "1"}  # fmt: skip
_LIST_STYLE = re.compile(r"list-style(?:-type)?\s*:\s*([a-z-]+)", re.I)


def _list_type(tag: Tag) -> str:
    given = str(tag.get("type") or "")
    if given in ("1", "a", "A", "i", "I"):
        return given
    style = _LIST_STYLE.search(str(tag.get("style") or ""))
    return _LIST_STYLES.get(style.group(1).lower(), "1") if style else "1"


def _marker(kind: str, number: int) -> str:
    """The number ``number`` of a list of ``kind`` as a browser prints it: 3 → «c», «C», «iii», «III» or «3»."""
    if kind in ("a", "A") and 1 <= number <= 26:
        letter = chr(ord("a") + number - 1)
        return letter if kind == "a" else letter.upper()
    if kind in ("i", "I") and 1 <= number < 40:
        ones = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"]
        roman = "x" * (number // 10) + ones[number % 10]
        return roman if kind == "i" else roman.upper()
    return str(number)


def _all(pieces: list[_Piece], attr: str) -> bool:
    texts = [p for p in pieces if not p.brk and p.text.strip()]
    return bool(texts) and all(getattr(p, attr) for p in texts)


def _int_attr(tag: Tag, attr: str, default: int) -> int:
    try:
        return int(str(tag.get(attr) or default))
    except ValueError:
        return default


def _prose(lines: list[str]) -> bool:
    """Whether preformatted text is prose (a typewritten act) rather than code: mostly letters."""
    chars = "".join(ln.strip() for ln in lines)
    words = sum(len(ln.split()) for ln in lines if ln.strip())
    nonblank = sum(1 for ln in lines if ln.strip())
    return (
        bool(chars) and sum(c.isalpha() for c in chars) >= 0.75 * len(chars.replace(" ", "")) and words >= 3 * nonblank
    )


def _grid(table: Tag) -> list[list[Tag | None]]:
    """The table's cells on a grid, honouring rowspan/colspan; covered positions hold None."""
    rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
    cells: dict[tuple[int, int], Tag | None] = {}
    for r, tr in enumerate(rows):
        c = 0
        for cell in tr.find_all(["td", "th"], recursive=False):
            while (r, c) in cells:
                c += 1
            rowspan = _int_attr(cell, "rowspan", 1) or len(rows) - r  # rowspan="0": to the end
            colspan = max(1, min(_int_attr(cell, "colspan", 1), 100))
            for dr in range(max(1, min(rowspan, len(rows) - r))):
                for dc in range(colspan):
                    cells[(r + dr, c + dc)] = cell if dr == dc == 0 else None
            c += colspan
    width = max((c for _, c in cells), default=-1) + 1
    return [[cells.get((r, c)) for c in range(width)] for r in range(len(rows))]


def _prune(grid: list[list[Tag | None]]) -> list[list[Tag | None]]:
    """Drop rows and columns without text (spacer cells of Word-made tables)."""

    def empty(cell: Tag | None) -> bool:
        return cell is None or not cell.get_text().strip()

    grid = [row for row in grid if not all(empty(c) for c in row)]
    keep = [i for i in range(len(grid[0]) if grid else 0) if not all(empty(row[i]) for row in grid)]
    return [[row[i] for i in keep] for row in grid] if keep else []
