"""Plain text (.txt) and Markdown (.md) → blocks, plus the text helpers the HTML/DOCX converters share.

TXT files come in two layouts and both are rebuilt into paragraphs here:

* *block* layout (RFCs, most English text): paragraphs are separated by blank lines and every line of
  a paragraph starts at the same column;
* *first-line indent* layout (typewritten Russian acts, ``<pre>`` exports of pravo.gov.ru): paragraphs
  follow each other without blank lines, the first line is indented and the rest start at column 0.

Hard-wrapped lines are joined with a space; a line that looks like a clause («1.», «а)», «Статья …») or
was broken on purpose (the next word would have fitted) starts a new paragraph. Figures and ASCII
tables are kept line for line in a fenced code block. Page furniture is *not* removed here: on paged
text (form feeds) the running header/footer lines become blocks of their own so that the generic
``clean.strip_furniture`` pass can drop the ones that repeat across pages.
"""

from __future__ import annotations

import codecs
import re
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from docshelf.errors import ConversionError
from docshelf.law.grammar import REFERENCE_CUT, TEXT_APPENDIX, TEXT_NUMBERED_HEADING, WRAPPED_PARAGRAPH_START
from docshelf.model import Block, Converted

CONVERTER_VERSION = "1"

# Characters that are extraction artefacts rather than text: spaces of every width become a space,
# invisible ones (soft hyphen, zero-width space, BOM) disappear.
_SPACE_LIKE = dict.fromkeys(
    map(ord, "\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"), " "
)
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)
_SUPERSCRIPT_SOURCE = "0123456789+-=()"
_SUPERSCRIPT_DIGITS = str.maketrans(_SUPERSCRIPT_SOURCE, "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾")

# Where a new paragraph starts inside hard-wrapped text: numbered clauses and items, lettered items,
# Roman section numbers, bullets, and the Russian structural words (also letter-spaced, as in
# typewritten acts: «С т а т ь я  1.»).
_BULLET = re.compile(r"^[-–—•*o]\s")
_LETTER_SPACED_END = re.compile(r"(?:^|\s)\w(?: \w){2,}$")  # «… С т а т ь я» right before a gap
_WIDE_GAP = re.compile(r"\S {3,}\S")
_BOX_DRAWING = re.compile(r"\+-+\+|\+-\+|[─│┌┐└┘├┤┬┴┼═║╔╗╚╝]|^\s*[|+].*[|+]\s*$")
_PAGE_NUMBER = re.compile(r"^\W*(?:page|стр\.?|страница)?\s*\d+(?:\s*(?:of|из)\s*\d+)?\W*$", re.IGNORECASE)
_FIGURE_GAP = re.compile(r"\S {6,}\S")
_TOC_ENTRY = re.compile(r"\.{4,}\s*\d+$")  # «4.2.  OPEN Message Format ....13» ends a line


# --------------------------------------------------------------------------- shared text helpers


def decode_bytes(data: bytes, *, name: str, declared: str | None = None) -> tuple[str, list[str]]:
    """Decode a text source: BOM, then UTF-8, then the declared charset, then cp1251.

    Returns the text and warnings. Strict UTF-8 goes before a declared charset because non-ASCII
    bytes that happen to be valid UTF-8 are practically never cp1251 text, while pages that declare
    windows-1251 but were re-saved as UTF-8 are common. cp1251 is the last resort: it decodes almost
    any byte string, and Russian files that are not UTF-8 are cp1251 far more often than anything else.
    """
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            return _lines(data.decode(codec, errors="replace")), []
    if b"\x00" in data[:4096]:
        raise ConversionError(
            f"{name}: contains NUL bytes, so it is a binary file rather than text. "
            "Check the file type and add the original document (PDF, DOCX, HTML, TXT or Markdown).",
            source=name,
        )
    warnings: list[str] = []
    for codec in [c for c in ("utf-8", declared, "cp1251") if c]:
        try:
            text = data.decode(codec)
        except (UnicodeDecodeError, LookupError):
            continue
        if declared and _codec(codec) != _codec(declared) and not data.isascii():
            warnings.append(f"{name}: the page declares charset {declared!r}, but the text was decoded as {codec}")
        return _lines(text), warnings
    raise ConversionError(  # cp1251 leaves only 0x98 undefined, so this is a genuinely odd file
        f"{name}: neither UTF-8 nor cp1251 text. Re-save the file as UTF-8 and add it again.", source=name
    )


def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name  # «windows-1251» and «cp1251» are one codec
    except LookupError:
        return name


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def clean_inline(text: str) -> str:
    """Normalise one paragraph's text: exotic spaces → space, invisible characters gone, whitespace
    collapsed. Letters, punctuation and ё are never touched (the text is quoted verbatim later)."""
    return " ".join(text.translate(_SPACE_LIKE).translate(_INVISIBLE).split())


# Titles a program writes for the author («Microsoft Word - 152.doc», «Untitled-1», a site's «Главная»).
_PLACEHOLDER_TITLE = re.compile(
    r"^(?:title|document\d*|документ\d*|заголовок|untitled(?:-\d+)?|без названия|complex|home|главная|index|"
    r"microsoft word(?: - .*)?|.*\.(?:docx?|pdf|rtf|odt|html?|txt))$",
    re.IGNORECASE,
)


def meaningful_title(text: str | None) -> str | None:
    """A source's own title field (PDF metadata, Word's core properties, HTML ``<title>``) on one line, or
    None when it is empty, a program's placeholder or holds no word."""
    title = clean_inline(text or "")
    if _PLACEHOLDER_TITLE.match(title) or sum(c.isalpha() for c in title) < 3:
        return None
    return title


def superscript(text: str, before: str) -> str:
    """Render superscript text the way the PDF converter does.

    «Статья 7<sup>1</sup>» is article 7.1 (the official numbering of inserted articles), so digits
    right after a digit become «.1»; other superscripts (units, footnote marks) use Unicode
    superscript digits when they all have one, else stay plain.
    """
    stripped = text.strip()
    if stripped.isdigit() and before[-1:].isdigit():
        return "." + stripped
    if stripped and all(c in _SUPERSCRIPT_SOURCE for c in stripped):
        return stripped.translate(_SUPERSCRIPT_DIGITS)
    return text


def squeeze(line: str) -> str:
    """Collapse runs of spaces in a preformatted line, keeping the double space that separates a
    letter-spaced word from the next one (typewritten «С т а т ь я  1.»): without it the words of
    letter-spaced text could not be told apart, and the heading stage relies on it."""
    line = line.translate(_SPACE_LIKE).translate(_INVISIBLE).strip()

    def gap(m: re.Match[str]) -> str:
        if len(m.group()) >= 2 and _LETTER_SPACED_END.search(m.string, 0, m.start()):
            return "  "
        return " "

    return re.sub(r"\s+", gap, line)


def fence(lines: Sequence[str]) -> str:
    """A figure or ASCII table as a fenced code block, line for line (common indentation removed)."""
    body = textwrap.dedent("\n".join(ln.rstrip() for ln in lines)).strip("\n")
    return f"```\n{body}\n```"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@dataclass(frozen=True)
class Layout:
    """How a run of hard-wrapped text is laid out (see the module docstring)."""

    first_line_indent: bool
    para_indent: int  # the usual indentation of a paragraph's first line (or of every line)
    width: int  # the column the text is wrapped at


def detect_layout(lines: Sequence[str]) -> Layout:
    nonblank = [ln for ln in lines if ln.strip()]
    if not nonblank:
        return Layout(False, 0, 0)
    indents = Counter(_indent(ln) for ln in nonblank if _indent(ln) > 0)
    para_indent = indents.most_common(1)[0][0] if indents else 0
    # Within a paragraph, block layout repeats the indentation from line to line; first-line
    # indentation drops back to column 0 after the first line.
    pairs = [(_indent(p), _indent(c)) for p, c in pairwise(lines) if p.strip() and c.strip()]
    drops = sum(1 for p, c in pairs if p > 0 and c == 0)
    repeats = sum(1 for p, c in pairs if p == c > 0)
    lengths = sorted(len(ln.rstrip()) for ln in nonblank)
    width = lengths[int(0.9 * (len(lengths) - 1))]
    return Layout(drops > 0 and drops >= repeats, para_indent, width)


def _aligned_under(first: str, column: int) -> bool:
    """Whether ``column`` is where a word (other than the first) of ``first`` starts: a hanging
    indent under a list marker or a heading number («8.1.1. Optional …» / «       Attributes»)."""
    return any(m.start() == column for m in re.finditer(r"(?<= )\S", first))


def _starts_paragraph(prev: str, cur: str, first: str, layout: Layout) -> bool:
    ind, prev_ind = _indent(cur), _indent(prev)
    stripped = cur.strip()
    if layout.first_line_indent:
        if prev_ind > 0 and ind > layout.para_indent + 1:
            return False  # the wrapped tail of a heading or a centred line, set deeper than text
        if ind > 0:
            return True
        if WRAPPED_PARAGRAPH_START.match(stripped) and not _BULLET.match(stripped):
            return True  # a dash at column 0 is a wrapped «водные ресурсы - …», not a bullet
    else:
        if REFERENCE_CUT.search(prev.rstrip()) and ind == prev_ind:
            return False
        if WRAPPED_PARAGRAPH_START.match(stripped) or _TOC_ENTRY.search(prev):
            return True
        if ind > prev_ind and _aligned_under(first, ind):
            return False
        if ind != prev_ind:
            return True
    # A line broken on purpose: the next word would have fitted on it («1 - OPEN» / «2 - UPDATE»).
    next_word = stripped.split(" ", 1)[0]
    return len(prev.rstrip()) + 1 + len(next_word) <= layout.width - 1


def _join(text: str, line: str) -> str:
    # «Inter-⏎Domain» keeps its hyphen and loses the break; anything else joins with a space.
    if re.search(r"\w-$", text) and line[:1].isalpha():
        return text + line
    return f"{text} {line}"


def reflow(lines: Sequence[str], layout: Layout) -> list[str]:
    """Rejoin hard-wrapped lines into paragraphs (blank lines always separate paragraphs)."""
    paras: list[str] = []
    current: list[str] = []  # raw lines of the paragraph being built
    for line in lines:
        if not line.strip():
            current = _flush(current, paras)
        elif current and not _starts_paragraph(current[-1], line, current[0], layout):
            current.append(line)
        else:
            current = _flush(current, paras)
            current.append(line)
    _flush(current, paras)
    return paras


def _flush(current: list[str], paras: list[str]) -> list[str]:
    if current:
        text = squeeze(current[0])
        for line in current[1:]:
            text = _join(text, squeeze(line))
        paras.append(text)
    return []


def is_figure(lines: Sequence[str]) -> bool:
    """ASCII art and tables: box-drawing characters, or several lines laid out in wide columns."""
    nonblank = [ln for ln in lines if ln.strip()]
    if any(_BOX_DRAWING.search(ln) for ln in nonblank):
        return True
    gapped = sum(1 for ln in nonblank if _FIGURE_GAP.search(ln.strip()))
    return len(nonblank) >= 2 and gapped * 2 >= len(nonblank)


# --------------------------------------------------------------------------- .txt


def convert_text(data: bytes, *, name: str) -> Converted:
    """Convert a plain-text file: pages at form feeds, paragraphs rebuilt from hard-wrapped lines."""
    text, warnings = decode_bytes(data, name=name)
    pages = text.expandtabs(8).split("\f")
    if len(pages) > 1 and not pages[-1].strip():
        pages.pop()  # the form feed after the last page does not open another one
    paged = len(pages) > 1
    all_lines = [ln.rstrip() for page in pages for ln in page.split("\n")]
    layout = detect_layout(all_lines)
    blocks: list[Block] = []
    for number, page in enumerate(pages, start=1):
        blocks.extend(_page_blocks([ln.rstrip() for ln in page.split("\n")], number if paged else 0, layout))
    if not blocks:
        raise ConversionError(f"{name}: the file has no text. Check that it is the right file.", source=name)
    return Converted(
        blocks=tuple(blocks),
        converter="docshelf-text",
        converter_version=CONVERTER_VERSION,
        pages=len(pages) if paged else 0,
        title=_text_title(all_lines),
        warnings=tuple(warnings),
    )


def _page_blocks(lines: list[str], page: int, layout: Layout) -> list[Block]:
    head, lines, tail = _split_furniture(lines, page)
    blocks = [Block(text=clean_inline(ln), page=page) for ln in head]
    blocks.extend(text_blocks(lines, layout, page))
    blocks.extend(Block(text=clean_inline(ln), page=page) for ln in tail)
    return blocks


def text_blocks(lines: list[str], layout: Layout, page: int = 0) -> list[Block]:
    """Blocks of hard-wrapped text: figures fenced, lone numbered lines as headings, the rest reflowed."""
    blocks: list[Block] = []
    figure: list[str] = []
    for chunk in _chunks(lines):
        if is_figure(chunk):
            figure.extend([*([""] if figure else []), *chunk])
            continue
        if figure:
            blocks.append(Block(text=fence(figure), page=page))
            figure = []
        heading = _heading(chunk, layout)
        if heading is not None:
            blocks.append(Block(text=heading[1], page=page, kind="heading", level=heading[0]))
        else:
            blocks.extend(Block(text=p, page=page) for p in reflow(chunk, layout))
    if figure:
        blocks.append(Block(text=fence(figure), page=page))
    return blocks


def _furniture_like(line: str) -> bool:
    return bool(_WIDE_GAP.search(line.strip()) or _PAGE_NUMBER.match(line.strip()))


def _split_furniture(lines: list[str], page: int) -> tuple[list[str], list[str], list[str]]:
    """Set a page's running header and footer line apart, so each becomes a block of its own even
    when no blank line separates it from the text. Unpaged text has no furniture."""
    idx = [i for i, ln in enumerate(lines) if ln.strip()]
    if page == 0 or not idx:
        return [], lines, []
    first, last = idx[0], idx[-1]
    head: list[str] = []
    tail: list[str] = []
    # Page 1 of an RFC opens with a two-column title block, not a running header: keep it whole
    # unless a blank line sets the first line apart.
    alone = first + 1 >= len(lines) or not lines[first + 1].strip()
    if _furniture_like(lines[first]) and (page > 1 or alone):
        head = [lines[first]]
        lines = [*lines[:first], "", *lines[first + 1 :]]
    if last != first and _furniture_like(lines[last]):
        tail = [lines[last]]
        lines = lines[:last]
    return head, lines, tail


def _chunks(lines: list[str]) -> list[list[str]]:
    """Runs of non-blank lines (blank lines separate them)."""
    chunks: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            chunks[-1].append(line)
        elif chunks[-1]:
            chunks.append([])
    return [c for c in chunks if c]


def _heading(chunk: list[str], layout: Layout) -> tuple[int, str] | None:
    """A numbered heading standing alone at column 0 («4.2.  OPEN Message Format»), or, in text
    whose body is indented (RFCs), an unnumbered one («Abstract», «Appendix A.  …»)."""
    if len(chunk) == 2 and _indent(chunk[0]) == 0 and (underline := _SETEXT.match(chunk[1])) and len(chunk[1]) >= 3:
        # «Title» over «=====»: an underlined title (setext style) is a heading, its underline is not text.
        return (1 if underline.group(1)[0] == "=" else 2), squeeze(chunk[0])
    if len(chunk) != 1 or _indent(chunk[0]) > 0:
        return None
    line = chunk[0].strip()
    if len(line) > 80 or len(line.split()) > 12 or line[-1] in ",;:":
        return None
    m = TEXT_NUMBERED_HEADING.match(line)
    if m:
        # «6.  BGP Error Handling.»: a two-space gap after the number marks an RFC heading even
        # with a final period; a clause «1. Утвердить …» has one space and ends with a period.
        if line.endswith(".") and len(m.group(2)) < 2:
            return None
        return m.group(1).count(".") + 1, squeeze(line)
    if layout.first_line_indent or layout.para_indent < 2 or line.endswith(".") or not line[0].isupper():
        return None
    appendix = TEXT_APPENDIX.match(line)  # «Appendix F.1.  …» sits one level below «Appendix F.  …»
    return (appendix.group(1).count(".") + 1 if appendix else 1), squeeze(line)


def _text_title(lines: list[str]) -> str | None:
    """An underlined first line («Title» over «=====»), else the first centred line near the top
    (RFC title, «ФЕДЕРАЛЬНЫЙ ЗАКОН»), if there is one."""
    filled = [ln for ln in lines if ln.strip()]
    if len(filled) >= 2 and _indent(filled[0]) == 0 and _SETEXT.match(filled[1]) and len(filled[1]) >= 3:
        return squeeze(filled[0])
    for line in [ln for ln in lines if ln.strip()][:40]:
        if _indent(line) >= 10 and not _WIDE_GAP.search(line.strip()) and len(line.strip()) <= 120:
            return squeeze(line)
    return None


# --------------------------------------------------------------------------- .md

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_TABLE_LINE = re.compile(r"^ {0,3}\|")
_BOLD_PARA = re.compile(r"^(\*\*|__)(?!\s).*\S\1$", re.DOTALL)


def convert_markdown(data: bytes, *, name: str) -> Converted:
    """Convert Markdown: ATX/setext headings become heading blocks; paragraphs, tables and code
    blocks stay verbatim (they already are Markdown)."""
    text, warnings = decode_bytes(data, name=name)
    lines = text.split("\n")
    title, lines = _front_matter(lines)
    blocks = _markdown_blocks(lines)
    if not blocks:
        raise ConversionError(f"{name}: the file has no text. Check that it is the right file.", source=name)
    if title is None:
        title = next((b.text for b in blocks if b.kind == "heading" and b.level == 1), None)
    return Converted(
        blocks=tuple(blocks),
        converter="docshelf-markdown",
        converter_version=CONVERTER_VERSION,
        title=title,
        warnings=tuple(warnings),
    )


def _front_matter(lines: list[str]) -> tuple[str | None, list[str]]:
    """Drop a YAML front matter block, keeping its ``title:`` (it is metadata, not text)."""
    if not lines or lines[0].strip() != "---":
        return None, lines
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            titles = [ln.split(":", 1)[1].strip().strip("'\"") for ln in lines[1:end] if ln.startswith("title:")]
            return (titles[0] or None) if titles else None, lines[end + 1 :]
    return None, lines


def _markdown_blocks(lines: list[str]) -> list[Block]:
    blocks: list[Block] = []
    para: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if _FENCE.match(line) or _TABLE_LINE.match(line) or _ATX.match(line) or not line.strip():
            _flush_markdown(para, blocks)
            i = _markdown_structure(lines, i, blocks)
            continue
        setext = _SETEXT.match(line)
        if setext and len(para) == 1:
            level = 1 if setext.group(1)[0] == "=" else 2
            blocks.append(Block(text=para.pop().strip(), kind="heading", level=level))
        elif _RULE.match(line):
            _flush_markdown(para, blocks)  # a thematic break is decoration, not text
        else:
            para.append(line)
        i += 1
    _flush_markdown(para, blocks)
    return [b for b in blocks if b.text.strip()]


def _markdown_structure(lines: list[str], i: int, blocks: list[Block]) -> int:
    """Emit the fence, table or ATX heading that starts at line ``i``; return the next line index."""
    line = lines[i].rstrip()
    fence_open = _FENCE.match(line)
    if fence_open:
        marker = fence_open.group(1)
        closing = [j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(marker)]
        end = closing[0] if closing else len(lines) - 1
        blocks.append(Block(text="\n".join(ln.rstrip() for ln in lines[i : end + 1])))
        return end + 1
    if _TABLE_LINE.match(line):
        end = i
        while end + 1 < len(lines) and _TABLE_LINE.match(lines[end + 1]):
            end += 1
        blocks.append(Block(text="\n".join(ln.strip() for ln in lines[i : end + 1]), kind="table"))
        return end + 1
    atx = _ATX.match(line)
    if atx:
        blocks.append(Block(text=(atx.group(2) or "").strip(), kind="heading", level=len(atx.group(1))))
    return i + 1


def _flush_markdown(para: list[str], blocks: list[Block]) -> None:
    """Move the collected paragraph lines (verbatim, line breaks kept) into a block."""
    if para:
        text = "\n".join(para).strip()
        blocks.append(Block(text=text, bold=bool(_BOLD_PARA.match(text))))
        para.clear()
