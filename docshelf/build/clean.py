"""Cleaning passes over converted blocks: repair extraction damage, never reword the text.

Each pass is a small pure function ``tuple[Block, ...] -> tuple[Block, ...]``; ``PASSES`` is their
order and ``clean`` runs them. Order matters: furniture goes first (so a running header does not
sit between the two halves of a paragraph split by a page break), page-break joins come after it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace

from docshelf.convert.wordbreaks import join_broken_words
from docshelf.law.grammar import HEADINGS, REFERENCE_CUT, STRUCTURAL_START
from docshelf.law.numbering import CONTENTS_LINE
from docshelf.model import Block

Blocks = tuple[Block, ...]

_EDGE = 2  # the outermost blocks of a page: running headers/footers even with a unique line between them
_CLAUSE_TEXT = re.compile(r"^\d+(?:\.\d+)*[.)]\s+\S+\s+\S+\s+\S+")
_MIN_DEEP_PAGES = 3  # a header of several lines is told from repeated text only over three pages or more
_DEEP_LINE_CHARS = 120  # past the two outermost blocks, only short lines can be a header's or footer's
_EDGE_ZONE = 8  # a header or footer of several lines continues up to this many blocks from the edge
_MIN_KNOWN_PAGES = 3
_RUNNING_PAGES = 3  # a line at a page's edge on this many pages in a row is a running header, whatever its share
_SMALL_PRINT = 0.9  # relative size below which a repeated line is page furniture wherever it sits
_ROMAN_PAGE = re.compile(r"^[ivxlc]{1,6}$")
_PAGE_CODE = re.compile(r"(?<!\w)[a-z]{1,2}-[a-z]{1,3}(?!\w)")  # «APPENDIX F-AC»: the family varies
# A line that is only a page number: «12», «- 12 -», «Page 12», «PAGE F-12», «Стр. 3 из 104», «Страница 4 из 28».
_PAGE_NUMBER = re.compile(
    r"^(?:[-–—]\s*)?(?:(?:page|стр\.?|страница)\s*)?(?:[A-Z]-)?(?P<n>\d{1,4})(?:\s*(?:of|из)\s*\d{1,4})?(?:\s*[-–—])?$",
    re.IGNORECASE,
)
# A line that is furniture by its words alone, wherever it sits (when it recurs on a few pages).
_KNOWN_FURNITURE = re.compile(
    r"^(?:This publication is available free of charge from:?\s*(?:https?://doi\.org/\S+)?|https?://doi\.org/\S+"
    r"|Страница \d+ из \d+|Стр\. \d+ из \d+)$"
)
# Furniture that may be glued into a paragraph by a page break.
_FURNITURE_TEXT = re.compile(
    r"Страница \d+ из \d+|Стр\. \d+ из \d+|This publication is available free of charge from:?\s*https?://\S+"
)
_FURNITURE_SHARE = 0.3
_DIGITS = re.compile(r"\d+")
_SOFT_HYPHEN_BREAK = re.compile(r"\u00ad[ \t]*(?:\n[ \t]*)*")
# «**Статья 5**<sup>1</sup> **. Особенности**» (pymupdf4llm) or «5<sup>1</sup>» (HTML): the article is 5.1.
_SUPERSCRIPT_NUMBER = re.compile(r"(\d)(?:\*\*|__)?\s*<sup>\s*(\d+)\s*</sup>(?:\s*(?:\*\*|__)\s*(?=\.)|\s+(?=\.))?")
_GLUED_LAW_NUMBER = re.compile(r"(?<=\d)(?=(?:ФЗ|ФКЗ)\b)")
_TERMINAL = (".", ";", ":", "!", "?", "»", '"')
_EDITORIAL = re.compile(
    r"^\(?\s*(?:в ред\.|в редакции|введ[её]н[аоы]?\s|утратил[аио]?\s+силу|часть .{1,12} (?:в ред|введ)|"
    r"п(?:п)?\.\s*[\d.«\"а-я]+.{0,10}(?:в ред|введ)|абзац .{0,20}(?:в ред|введ)|"
    r"дополнение стать[её]й|список изменяющих документов)",
    re.IGNORECASE,
)
# Case-sensitive on purpose: «ГАРАНТ» the publisher, not «гарантии» in the law's own text.
_PUBLISHER = re.compile(r"КонсультантПлюс|consultant\.ru|Документ предоставлен|Дата сохранения:|\bГАРАНТ\b|garant\.ru")
_NOTE_HEAD = re.compile(r"КонсультантПлюс:\s*примечание|Примечание\s+ГАРАНТ")
_FUTURE_EDITION = re.compile(r"См\.\s*будущую редакцию|См\.\s*текст в предыдущей редакции|См\.\s*предыдущую редакцию")
_SPACE_RUN = re.compile(r"[ \t\u00a0]{2,}")
# Letter-spaced emphasis (разрядка): «С т а т ь я 1.», «п о с т а н о в л я е т». Four or more single
# Cyrillic letters a space apart are one word: Russian has no run of four one-letter words.
_SPACED_WORD = re.compile(r"(?<![\w.])(?:[а-яё] ){3,}[а-яё](?![\w])", re.IGNORECASE)
_CLI_OUTPUT = re.compile(r"^(?:\$ |>>> |# |C:\\|Traceback \(most recent call last\)|[\w.-]+@[\w.-]+:[~/])")


def _furniture_key(block: Block) -> str:
    # Style is part of the key: a bold 14pt title equal to the 8pt running header is not furniture.
    # Numbers and page codes vary from page to page («PAGE F-12», «APPENDIX F-AC», «Страница 5 из 28»).
    text = " ".join(block.text.casefold().split())
    text = _PAGE_CODE.sub("#", _ROMAN_PAGE.sub("#", text))
    return f"{_DIGITS.sub('#', text)}|{block.bold}|{block.size:.1f}"


def _pages_of(blocks: Blocks) -> dict[int, list[int]]:
    by_page: dict[int, list[int]] = defaultdict(list)
    for i, b in enumerate(blocks):
        if b.page:
            by_page[b.page].append(i)
    return by_page


def _short_para(b: Block) -> bool:
    """A block that could be a header or footer: a short paragraph that does not open a numbered clause
    («2. Настоящий Указ вступает в силу …» at the foot of two pages is text, whatever its digits)."""
    return _short_line(b) and not _CLAUSE_TEXT.match(b.text)


def _short_line(b: Block) -> bool:
    return b.kind == "para" and not b.editorial and len(b.text) <= 200


def _in_a_row(pages: set[int]) -> bool:
    """The pages hold a run of ``_RUNNING_PAGES`` pages in a row, or every other page (a book's left and
    right pages carry different headers): a header that runs with a chapter («4.2. Configuration File
    Grammar» on the pages of 4.2) is on a few pages of many, but page after page."""
    run = 0
    for page in sorted(pages):
        run = run + 1 if page - 1 in pages or page - 2 in pages else 1
        if run >= _RUNNING_PAGES:
            return True
    return False


def _threshold(pages: int) -> float:
    # Few pages: only a line on every page counts; many pages: ≥30% (a header can skip title pages).
    return pages if pages < 5 else max(3, _FURNITURE_SHARE * pages)


def _edge_keys(by_page: dict[int, list[int]], keys: dict[int, str], depth: int) -> dict[str, set[int]]:
    """For each furniture key, the pages where it sits among the ``depth`` outermost blocks (top or bottom)."""
    pages: dict[str, set[int]] = defaultdict(set)
    for page, idxs in by_page.items():
        for i in idxs[:depth] + idxs[-depth:]:
            if i in keys:
                pages[keys[i]].add(page)
    return pages


def _deeper_layers(seqs: list[list[int]], keys: dict[int, str], threshold: float, drop: set[int]) -> set[int]:
    """A header or footer of several lines: past the two outermost blocks, peel layer by layer.

    Only pages whose outer blocks were all furniture go on, and a layer's line must repeat at that
    layer on enough pages («КонсультантПлюс / www.consultant.ru / Страница 4 из 28 / …»).
    """
    found: set[int] = set()
    open_seqs = [seq for seq in seqs if all(i in drop for i in seq[:_EDGE])]
    for layer in range(_EDGE, _EDGE_ZONE):
        here = [(seq, seq[layer]) for seq in open_seqs if layer < len(seq) and seq[layer] in keys]
        count = Counter(keys[i] for _seq, i in here)
        open_seqs = [seq for seq, i in here if count[keys[i]] >= threshold]
        found.update(seq[layer] for seq in open_seqs)
    return found


def _running_headers(blocks: Blocks, keys: dict[int, str], edges: set[int], at_edges: dict[str, set[int]]) -> set[int]:
    """Lines that run page after page at the edge and nowhere else but once (a chapter's header, even a
    numbered one: the section's own heading is the one other place). «- changes its state to Idle.»,
    repeated through an RFC's text and at some page edges by chance, stays text; so do contents lines."""
    inside = Counter(k for i, k in keys.items() if i not in edges)
    return {
        i
        for i in edges
        if i in keys
        and inside[keys[i]] <= 1
        and any(ch.isalpha() for ch in blocks[i].text)  # bare numbers are pages: ``_page_numbers`` checks their step
        and not CONTENTS_LINE.search(blocks[i].text)
        and _in_a_row(at_edges[keys[i]])
    }


def furniture_indexes(blocks: Blocks) -> set[int]:
    """Blocks that are running headers/footers or page numbers (see ``strip_furniture``)."""
    by_page = _pages_of(blocks)
    if len(by_page) < 2:
        return set()
    keys = {i: _furniture_key(b) for i, b in enumerate(blocks) if _short_para(b)}
    threshold = _threshold(len(by_page))
    edge_keys = {i: _furniture_key(b) for i, b in enumerate(blocks) if _short_line(b)}
    at_edges = _edge_keys(by_page, edge_keys, _EDGE)
    edges = {i for idxs in by_page.values() for i in idxs[:_EDGE] + idxs[-_EDGE:]}
    drop = {i for i in edges if i in keys and len(at_edges[keys[i]]) >= threshold}
    drop |= _running_headers(blocks, edge_keys, edges, at_edges) if len(by_page) > _RUNNING_PAGES else set()
    if len(by_page) >= _MIN_DEEP_PAGES:
        short = {i: k for i, k in keys.items() if len(blocks[i].text) <= _DEEP_LINE_CHARS}
        drop |= _deeper_layers(list(by_page.values()), short, threshold, drop)
        drop |= _deeper_layers([idxs[::-1] for idxs in by_page.values()], short, threshold, drop)
    # A small-print line (a DOI line set in the side margin) may sit anywhere in the reading order;
    # repeated on many pages, it is furniture wherever it is.
    anywhere: dict[str, set[int]] = defaultdict(set)
    for i, key in keys.items():
        anywhere[key].add(blocks[i].page)
    drop |= {i for i, key in keys.items() if blocks[i].size < _SMALL_PRINT and len(anywhere[key]) >= threshold}
    known = {i for i in keys if _KNOWN_FURNITURE.match(blocks[i].text.strip())}
    if len({blocks[i].page for i in known}) >= _MIN_KNOWN_PAGES:
        drop |= known
    return drop | _page_numbers(blocks, keys, threshold)


def _page_numbers(blocks: Blocks, keys: dict[int, str], threshold: float) -> set[int]:
    """Lines that are only a page number, wherever they sit: their number keeps step with the page.

    «1» before «Purpose» (a heading number on its own line) does not: only the lines whose number is
    the page's own, less the document's usual offset, are dropped.
    """
    offsets: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i in keys:
        if m := _PAGE_NUMBER.match(blocks[i].text.strip()):
            offsets[blocks[i].page - int(m.group("n"))][_DIGITS.sub("#", keys[i])].append(i)
    drop: set[int] = set()
    for by_style in offsets.values():
        for idxs in by_style.values():
            if len({blocks[i].page for i in idxs}) >= threshold:
                drop.update(idxs)
    return drop


def strip_furniture(blocks: Blocks) -> Blocks:
    """Drop running headers/footers: short lines at a page's edge that repeat on ≥30% of pages.

    A line that occurs once (an article heading at the top of a page) is never dropped.
    """
    drop = furniture_indexes(blocks)
    return tuple(b for i, b in enumerate(blocks) if i not in drop) if drop else blocks


def surviving_furniture(blocks: Blocks) -> list[str]:
    """Furniture left in cleaned text: page numbers, «Страница N из M», DOI lines, a page's repeated first or last line.

    Judged on the cleaned blocks, independently of what ``strip_furniture`` removed, so the build
    reports what it missed. Stricter than removal (the outermost line on half of the pages), so body
    lines that merely became a page's first line once the header went are not counted.
    """
    by_page = _pages_of(blocks)
    keys = {i: _furniture_key(b) for i, b in enumerate(blocks) if _short_para(b)}
    found: set[int] = set()
    if len(by_page) >= 2:
        outer = _edge_keys(by_page, keys, 1)
        half = max(_threshold(len(by_page)), 0.5 * len(by_page))
        found = {i for i in keys if len(outer.get(keys[i], ())) >= half and blocks[i].page}
        found &= {idxs[0] for idxs in by_page.values()} | {idxs[-1] for idxs in by_page.values()}
        found |= _page_numbers(blocks, keys, _threshold(len(by_page)))
    lines = [blocks[i].text for i in sorted(found)]
    for b in blocks:
        if b.kind != "table" and not b.editorial:
            lines += [m.group(0) for m in _FURNITURE_TEXT.finditer(b.text)]
    return lines


def fix_soft_hyphens(blocks: Blocks) -> Blocks:
    """Remove soft hyphens; a block that ends in one continues in the next block."""
    out: list[Block] = []
    continues = False
    for b in blocks:
        text = _SOFT_HYPHEN_BREAK.sub("", b.text)
        if continues and b.kind == "para":
            out[-1] = out[-1].with_text(out[-1].text + text.lstrip())
        else:
            out.append(b.with_text(text) if text != b.text else b)
        continues = b.text.rstrip(" \t\n").endswith("\u00ad")
    return tuple(out)


def join_page_breaks(blocks: Blocks) -> Blocks:
    """Rejoin a paragraph cut by a page break: no closing punctuation, and the next page starts in lowercase, or
    the break fell between a reference's word and its number («… described in Section» / «10. Each timer …»: the
    number is the reference's, no label opening a paragraph)."""
    out: list[Block] = []
    for b in blocks:
        # the notes printed at the foot of the page before (small print) stand between the two halves: the
        # paragraph is joined across them, and they follow it («… при которой» / «¹ Лицензия …» / «устанавливается:»)
        k = len(out) - 1
        while k >= 0 and len(out) - k <= _FOOT_NOTES and _foot_note(out[k], b):
            k -= 1
        prev = out[k] if k >= 0 else None
        if (
            prev is not None
            and prev.kind == b.kind == "para"
            and not prev.bold
            and not b.bold
            and not prev.text.rstrip().endswith(_TERMINAL)
            and b.page == prev.page + 1
            and (
                b.text[:1].islower()
                or (REFERENCE_CUT.search(prev.text) is not None and _NUMBER_FIRST.match(b.text) is not None)
            )
        ):
            sep = "" if prev.text.endswith("-") and not prev.text[-2:-1].isdigit() else " "
            text = (prev.text[:-1] if sep == "" else prev.text) + sep + b.text
            out[k:] = [prev.with_text(text), *out[k + 1 :]]
            continue
        out.append(b)
    return tuple(out)


_FOOT_NOTES = 3  # notes at a page's foot a paragraph is joined across


def _foot_note(block: Block, after: Block) -> bool:
    """A block of small print at the foot of the page before ``after``: a footnote, not the text going on."""
    return block.kind == "para" and block.page == after.page - 1 and 0 < block.size < _SMALL_PRINT


_NUMBER_FIRST = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.?\s")


def fix_superscripts(blocks: Blocks) -> Blocks:
    """``20<sup>1</sup>`` (pymupdf4llm, HTML) → ``20.1``: the article is 20.1, never 201."""
    return tuple(b.with_text(_SUPERSCRIPT_NUMBER.sub(r"\1.\2", b.text)) if "<sup>" in b.text else b for b in blocks)


def restore_law_hyphens(blocks: Blocks) -> Blocks:
    """``№ 24ФЗ`` (a hyphen eaten at a line end by other extractors) → ``№ 24-ФЗ``."""
    return tuple(b.with_text(_GLUED_LAW_NUMBER.sub("-", b.text)) if "ФЗ" in b.text else b for b in blocks)


def normalize_spaces(blocks: Blocks) -> Blocks:
    """NBSP and U+2011 produced by extraction → plain space / hyphen; runs of spaces collapsed; NFC."""

    def fix(text: str) -> str:
        text = unicodedata.normalize("NFC", text.replace("\u2011", "-"))
        lines = [_SPACE_RUN.sub(" ", ln.replace("\u00a0", " ")).strip() for ln in text.split("\n")]
        return "\n".join(lines)

    return tuple(b if b.kind == "table" else b.with_text(fix(b.text)) for b in blocks)


def join_letter_spacing(blocks: Blocks) -> Blocks:
    """«С т а т ь я 1. Основные понятия» → «Статья 1. Основные понятия»: a title, a search and a quote read words."""

    def join(m: re.Match[str]) -> str:
        return m.group(0).replace(" ", "")

    return tuple(b.with_text(_SPACED_WORD.sub(join, b.text)) if b.kind != "table" else b for b in blocks)


def drop_empty(blocks: Blocks) -> Blocks:
    return tuple(b for b in blocks if b.text.strip())


def mark_editorial(blocks: Blocks) -> Blocks:
    """Mark publishers' notes and amendment history: kept in place, but not the act's own text.

    The paragraph after «КонсультантПлюс: примечание.» is that note's body, and notes on future
    editions («С 01.09.2025 … См. будущую редакцию») are the publisher's, not the act's.
    """
    out: list[Block] = []
    for b in blocks:
        text = b.text.strip()
        # only after a head standing alone: a note printed in one paragraph («КонсультантПлюс: примечание.
        # Положения статьи 12.1 … применяются с 01.03.2025.») has its body, and the act goes on after it
        head = _NOTE_HEAD.search(out[-1].text) if out and out[-1].editorial else None
        after_note = head is not None and not out[-1].text[head.end() :].strip(" .:*_")
        editorial = b.kind == "para" and (
            (bool(_EDITORIAL.match(text)) and text.endswith(")"))
            or (bool(_PUBLISHER.search(text)) and len(text) < 400)
            or bool(_FUTURE_EDITION.search(text))
            or (after_note and len(text) < 1500)
        )
        out.append(replace(b, editorial=True) if editorial and not b.editorial else b)
    return tuple(out)


def merge_split_tables(blocks: Blocks) -> Blocks:
    """A table cut by a page break continues: join it, dropping the repeated header row."""
    out: list[Block] = []
    for b in blocks:
        prev = out[-1] if out else None
        if prev is not None and prev.kind == b.kind == "table" and b.page == prev.page + 1:
            p_rows, b_rows = prev.text.split("\n"), b.text.split("\n")
            if p_rows[0].count("|") == b_rows[0].count("|"):
                rest = b_rows[2:] if b_rows[0] == p_rows[0] else [b_rows[0], *b_rows[2:]]
                out[-1] = prev.with_text("\n".join(p_rows + rest))
                continue
        out.append(b)
    return tuple(out)


def demote_false_headings(blocks: Blocks) -> Blocks:
    """Headings a converter invented: body text (lowercase start, trailing comma), CLI output, colontitles.

    A demoted line that continues the previous paragraph is joined to it («# Федерации.»).
    """
    counts = Counter(" ".join(b.text.casefold().split()) for b in blocks if b.kind == "heading")
    out: list[Block] = []
    for b in blocks:
        prev = out[-1] if out else None
        unfinished = prev is not None and prev.kind == "para" and not prev.text.rstrip().endswith(_TERMINAL)
        if b.kind != "heading":
            out.append(b)
        elif unfinished and prev is not None and _continuation(b.text):
            out[-1] = prev.with_text(f"{prev.text} {b.text}")  # «…Конституцию Российской» + «# Федерации.»
        elif _false_heading(b.text, counts[" ".join(b.text.casefold().split())]):
            out.append(replace(b, kind="para", level=0))
        else:
            out.append(b)
    return tuple(out)


def _continuation(text: str) -> bool:
    """A heading line that reads as the end of the previous sentence, not as a title."""
    text = text.strip()
    structural = STRUCTURAL_START.match(text) or text[:1].isdigit()
    return not structural and (text[:1].islower() or text.endswith((".", ",", ";")))


def _false_heading(text: str, repeats: int) -> bool:
    text = text.strip()
    return (
        repeats >= 3  # a running title repeated on every page, not a section
        or text[:1].islower()
        or text.endswith((",", ";"))
        or len(text) > 300
        or bool(_CLI_OUTPUT.match(text))
    )


def merge_wrapped_headings(blocks: Blocks) -> Blocks:
    """A heading wrapped onto a second heading line («…(глава» + «1)», «Статья 20.2. … в» + «сети …»)."""
    out: list[Block] = []
    for b in blocks:
        prev = out[-1] if out else None
        if prev is not None and _continues_heading(prev, b):
            out[-1] = prev.with_text(f"{prev.text.rstrip()} {b.text.lstrip()}")
            continue
        out.append(b)
    return tuple(out)


def _continues_heading(prev: Block, b: Block) -> bool:
    same_style = (prev.kind == b.kind == "heading" and prev.level == b.level) or (
        prev.kind == b.kind == "para" and prev.bold and b.bold and _opens_heading(prev.text)
    )
    if not same_style or prev.text.rstrip().endswith(_TERMINAL):
        return False
    unbalanced = prev.text.count("(") > prev.text.count(")")
    return unbalanced or b.text[:1].islower() or bool(re.match(r"^\d+\)", b.text))


def _opens_heading(text: str) -> bool:
    """A line that starts like a heading of the grammar («Статья 5.», «III. Работы …», «2.1 Scope»)."""
    return STRUCTURAL_START.match(text) is not None or any(k.heading.match(text) for k in HEADINGS)


PASSES: tuple[Callable[[Blocks], Blocks], ...] = (
    drop_empty,
    demote_false_headings,
    merge_wrapped_headings,
    strip_furniture,
    fix_soft_hyphens,
    fix_superscripts,
    restore_law_hyphens,
    normalize_spaces,
    join_letter_spacing,
    drop_empty,
    merge_split_tables,
    join_broken_words,
    join_page_breaks,
    mark_editorial,
)


def clean(blocks: Blocks) -> Blocks:
    """Run every cleaning pass in order."""
    for step in PASSES:
        blocks = step(blocks)
    return blocks
