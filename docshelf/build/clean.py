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

from docshelf.law.grammar import STRUCTURAL_START
from docshelf.model import Block

Blocks = tuple[Block, ...]

_EDGE = 2  # how many blocks at the top and bottom of a page may be running headers/footers
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
_CLI_OUTPUT = re.compile(r"^(?:\$ |>>> |# |C:\\|Traceback \(most recent call last\)|[\w.-]+@[\w.-]+:[~/])")


def _furniture_key(block: Block) -> str:
    # Style is part of the key: a bold 14pt title equal to the 8pt running header is not furniture.
    text = _DIGITS.sub("#", " ".join(block.text.casefold().split()))
    return f"{text}|{block.bold}|{block.size:.1f}"


def strip_furniture(blocks: Blocks) -> Blocks:
    """Drop running headers/footers: short lines at a page's edge that repeat on ≥30% of pages.

    A line that occurs once (an article heading at the top of a page) is never dropped.
    """
    by_page: dict[int, list[int]] = defaultdict(list)
    for i, b in enumerate(blocks):
        if b.page:
            by_page[b.page].append(i)
    if len(by_page) < 2:
        return blocks
    edges: dict[int, str] = {}
    for idxs in by_page.values():
        for i in idxs[:_EDGE] + idxs[-_EDGE:]:
            if blocks[i].kind == "para" and len(blocks[i].text) <= 200:
                edges[i] = _furniture_key(blocks[i])
    pages_with: Counter[str] = Counter()
    for key in {(blocks[i].page, k) for i, k in edges.items()}:
        pages_with[key[1]] += 1
    # Few pages: only a line on every page counts; many pages: ≥30% (a header can skip title pages).
    threshold = len(by_page) if len(by_page) < 5 else max(3, _FURNITURE_SHARE * len(by_page))
    drop = {i for i, k in edges.items() if pages_with[k] >= threshold}
    return tuple(b for i, b in enumerate(blocks) if i not in drop)


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
    """Rejoin a paragraph cut by a page break: no closing punctuation, next page starts in lowercase."""
    out: list[Block] = []
    for b in blocks:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.kind == b.kind == "para"
            and b.page == prev.page + 1
            and not prev.bold
            and not b.bold
            and not prev.text.rstrip().endswith(_TERMINAL)
            and b.text[:1].islower()
        ):
            sep = "" if prev.text.endswith("-") and not prev.text[-2:-1].isdigit() else " "
            text = (prev.text[:-1] if sep == "" else prev.text) + sep + b.text
            out[-1] = prev.with_text(text)
            continue
        out.append(b)
    return tuple(out)


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
        after_note = bool(out) and out[-1].editorial and _NOTE_HEAD.search(out[-1].text) is not None
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
        prev.kind == b.kind == "para" and prev.bold and b.bold and STRUCTURAL_START.match(prev.text) is not None
    )
    if not same_style or prev.text.rstrip().endswith(_TERMINAL):
        return False
    unbalanced = prev.text.count("(") > prev.text.count(")")
    return unbalanced or b.text[:1].islower() or bool(re.match(r"^\d+\)", b.text))


PASSES: tuple[Callable[[Blocks], Blocks], ...] = (
    drop_empty,
    demote_false_headings,
    merge_wrapped_headings,
    strip_furniture,
    fix_soft_hyphens,
    fix_superscripts,
    restore_law_hyphens,
    normalize_spaces,
    drop_empty,
    merge_split_tables,
    join_page_breaks,
    mark_editorial,
)


def clean(blocks: Blocks) -> Blocks:
    """Run every cleaning pass in order."""
    for step in PASSES:
        blocks = step(blocks)
    return blocks
