"""The document's own map first: find the entries of its outline or printed contents in its body.

A PDF outline (bookmarks) or a printed table of contents is the author's own statement of what the
sections are. Each entry is looked for in the body, in order: as one block, as a heading split over
two or three blocks («4.2» / «General Requirements», «CHAPTER TWO» / «THE FUNDAMENTALS»), or as
its title alone when the number is missing from the text layer (the number then comes from the
map; the text stays verbatim). What is found becomes a heading with the map's level; the grammar
and typography decide only where the map is silent. Pure: blocks in, blocks and headings out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from docshelf.build.completeness import ContentsEntry
from docshelf.law.grammar import HEADINGS
from docshelf.law.numbering import read_label
from docshelf.model import Block

_KEY_DROP = re.compile(r"[\W_]+")
_KEY_CHARS = 48
_MIN_RUN_IN_WORDS = 2
_MIN_PREFIX = 6  # an entry this short must equal its heading, not merely open it
_MAX_HEADING_CHARS = 300
_MAX_JOIN = 3  # a heading split over at most this many blocks
_PAGE_SLACK = 1  # an entry's heading may sit a page before or after the page the map names
_TOC_LINE = re.compile(r"(?:\.\s?){3,}\s*(?:[A-Z]-)?(?:\d{1,4}|[ivxlc]{1,6})\s*$|…{2,}\s*\d{1,4}$")
MAP_RANK = 100  # map headings rank below every grammar kind; their order comes from the map's levels
MIN_MATCHED = 3  # fewer entries found than this: the map does not describe this text (another edition)


_NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()
    )
}
_NUMBER_WORD = re.compile(rf"\b({'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE)


@lru_cache(maxsize=65536)
def key(text: str) -> str:
    """Letters and digits only, case-folded: how a map entry and a body line are compared.

    Number words are digits («CHAPTER ONE» in the body is «Chapter 1» in the outline).
    """
    text = unicodedata.normalize("NFKC", text).replace("ё", "е").replace("Ё", "Е").replace("*", "")  # «5¹» → «51»
    text = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)
    return _KEY_DROP.sub("", " ".join(text.split()).casefold())[:_KEY_CHARS]


@dataclass(frozen=True)
class Found:
    """A map entry found in the body: the block that is its heading and how to cite it."""

    index: int  # in the blocks returned by ``find_map``
    kind: str  # a grammar kind («num», «prilozhenie», «appendix», «statya» …) or «map» (no number)
    number: str
    rank: int
    listed: str = ""  # the number the map gives, when the body prints another («5.» listed, «4.1.» printed)


def _kind_of(title: str, number: str) -> tuple[str, str]:
    """The grammar's reading of a map entry («5.1 Титульный лист» → num 5.1; «Приложение А» → prilozhenie А)."""
    for kind in HEADINGS:
        if m := kind.heading.match(title):
            return kind.name, m.group(1) or ""
    if number:
        return "num", number
    return "map", ""


def _without_number(entry: ContentsEntry) -> str:
    return entry.title[len(entry.number) :].lstrip(" .") if entry.number else _after_label(entry.title)


_LABEL_END = re.compile(r"^[\s.:—–-]+")


@lru_cache(maxsize=65536)
def _after_label(text: str) -> str:
    """The title after the label a line opens with («1.1 Scope of Document» → «Scope of Document»,
    «Appendix A— The SSDF …» → «The SSDF …»); "" when it opens with none. Maps and bodies disagree on
    whether the number is printed: an outline may leave out what the heading prints, and the reverse."""
    end = 0
    for kind in HEADINGS:
        if (m := kind.heading.match(text)) and m.group(1):
            end = m.end(1)
            break
    else:
        if labels := read_label(text):
            end = labels[0].length
    if not end:
        return ""
    rest = _LABEL_END.sub("", text[end:])
    return rest if end < len(text) and rest[:1].isalpha() else ""


def _candidate(b: Block) -> bool:
    return b.kind != "table" and not b.editorial and len(b.text) <= _MAX_HEADING_CHARS and not _TOC_LINE.search(b.text)


def _same(block_key: str, entry_key: str) -> bool:
    """The block is the entry's heading: the same words, or the entry's words opening a short block
    («Приложение N 1 к Федеральному закону …» for the entry «Приложение N 1»)."""
    if not block_key or not entry_key:
        return False
    if block_key == entry_key:
        return True
    short = len(entry_key) >= _KEY_CHARS or len(block_key) <= 2 * len(entry_key) + 40
    return len(entry_key) >= _MIN_PREFIX and short and block_key.startswith(entry_key)


def _match_at(blocks: Sequence[Block], keys: list[str], i: int, entry: ContentsEntry) -> int:
    """How many blocks from ``i`` make the entry's heading (0 = not here)."""
    want = key(entry.title)
    if _same(keys[i], want):
        return 1
    joined = keys[i]
    for n in range(1, _MAX_JOIN):
        if i + n >= len(keys) or not keys[i + n] or not want.startswith(joined) or joined == want:
            break
        joined = (joined + keys[i + n])[:_KEY_CHARS]
        if _same(joined, want):
            return n + 1
    if len(want) >= 4 and key(_after_label(blocks[i].text)) == want:
        return 1  # the heading prints a number the map leaves out; the number comes from the body
    bare = key(_without_number(entry))
    if len(bare) >= 4 and _styled(blocks[i]) and _same(keys[i], bare):
        return 1  # the number is missing from the text layer; the map supplies it
    if renumbered(blocks[i], entry):
        return 1  # a word processor's contents field not updated: «5. Other Designated Contacts» is «4.1.» now
    return 0


_RENUMBERED_KEY = 12  # a title this long is one heading, whatever number and level the contents gave it


def renumbered(b: Block, entry: ContentsEntry) -> bool:
    """The block is a heading with the entry's whole title under another number than the map's: the body
    prints «4.1. Other Designated Contacts» where the contents page says «5.»; the body's number stands."""
    if not entry.number or not _styled(b):
        return False
    bare = key(_without_number(entry))
    if len(bare) < _MIN_PREFIX or key(_after_label(b.text)) != bare:
        return False  # asked of every block an entry is looked for in: the cheap tests first
    own = read_label(b.text)
    level = bool(own) and own[0].atom.count(".") == entry.number.count(".")  # «10.4.» in the contents, «9.4.» here
    return bool(own) and len(bare) >= (_MIN_PREFIX if level else _RENUMBERED_KEY) and own[0].atom != entry.number


def _styled(b: Block) -> bool:
    return b.bold or abs(b.size - 1.0) >= 0.08 or b.kind == "heading" or b.level > 0


def _in_window(b: Block, entry: ContentsEntry, offset: int | None) -> bool:
    if not entry.page or not b.page or offset is None:
        return True
    return abs(b.page - (entry.page + offset)) <= _PAGE_SLACK


def find_map(
    blocks: tuple[Block, ...],
    entries: Sequence[ContentsEntry],
    *,
    outline: bool,
    start: int = 0,
    contents: frozenset[int] = frozenset(),
) -> tuple[tuple[Block, ...], list[Found], list[ContentsEntry]]:
    """Find the map's entries as headings, in order; returns the blocks (split headings joined), the
    headings found and the entries not found.

    ``outline`` says the entries' pages are physical pages (a PDF outline); a printed contents page
    numbers pages its own way, so the offset is learnt from the first entry found. ``start`` is
    where the body begins (after a printed contents page); ``contents`` are the blocks of the printed
    contents page, which list the entries and are none of them.
    """
    work = list(blocks)
    keys = [key(b.text) if _candidate(b) and n not in contents else "" for n, b in enumerate(work)]
    offset: int | None = 0 if outline else None
    cursor = start
    spans: list[tuple[int, int, ContentsEntry]] = []
    missing: list[ContentsEntry] = []
    body = _in_page_order(_body_entries(entries)) if outline else _body_entries(entries)
    for k, entry in enumerate(body):
        hit = _search(work, keys, entry, cursor, offset)
        if hit is None:
            missing.append(entry)
            continue
        i, n = hit
        if n == 1 and k + 1 < len(body):
            _split_two_headings(work, keys, i, entry, body[k + 1])
        spans.append((i, n, entry))
        cursor = i + max(n, 1)
        if offset is None and entry.page and work[i].page:
            offset = work[i].page - entry.page
    if len(spans) < MIN_MATCHED:
        return blocks, [], list(entries)
    if missing and offset is not None:  # by the neighbours in page order, then in the map's own order
        for order in (body, _body_entries(entries)):
            spans, missing = _between_found(work, keys, order, spans, missing, start)
    return _joined(tuple(work), spans, missing)


def _whole_title(work: list[Block], keys: list[str], i: int, want: str) -> bool:
    """The block is the heading ``want`` names, with or without the label it prints."""
    return bool(keys[i]) and len(want) >= _MIN_PREFIX and want in (keys[i], key(_after_label(work[i].text)))


def _in_page_order(entries: list[ContentsEntry]) -> list[ContentsEntry]:
    """An outline's entries in the order of the pages they point to («Note to Readers» p. 6 listed after
    «Executive Summary» p. 8): an outline's pages are physical, the body is read in page order."""
    pages: list[int] = []
    for e in entries:  # an entry without a page keeps the place of the entry before it
        pages.append(e.page or (pages[-1] if pages else 0))
    return [e for _page, _k, e in sorted(zip(pages, range(len(entries)), entries, strict=True))]


def _between_found(
    work: list[Block],
    keys: list[str],
    body: list[ContentsEntry],
    spans: list[tuple[int, int, ContentsEntry]],
    missing: list[ContentsEntry],
    start: int,
) -> tuple[list[tuple[int, int, ContentsEntry]], list[ContentsEntry]]:
    """Entries the page window missed (an outline whose first entries all point to page 1), looked for
    between the headings found before and after them in the map's order, by their whole title only."""
    at = {id(e): i for i, _n, e in spans}
    taken = {i for i, _n, _e in spans}
    out = list(spans)
    still: list[ContentsEntry] = []
    lo = start
    for k, entry in enumerate(body):
        if id(entry) in at:
            lo = at[id(entry)] + 1
            continue
        if entry not in missing:
            continue
        hi = next((at[id(e)] for e in body[k + 1 :] if id(e) in at), len(work))
        want = key(entry.title)
        hit = next((i for i in range(lo, hi) if i not in taken and _whole_title(work, keys, i, want)), None)
        if hit is None:
            still.append(entry)
            continue
        out.append((hit, 1, entry))
        taken.add(hit)
        at[id(entry)] = hit
        lo = hit + 1
    return sorted(out, key=lambda span: span[0]), still


def _split_two_headings(work: list[Block], keys: list[str], i: int, entry: ContentsEntry, nxt: ContentsEntry) -> None:
    """Two headings the extractor set in one line («Security Verification Requirements V3.1 Fundamental
    Session Management Security»): when the rest of the block is the next entry, it becomes a block."""
    if keys[i] == key(entry.title) or not (cut := _run_in_end(work[i], entry.title)):
        return
    rest = work[i].with_text(work[i].text[cut:])
    if key(rest.text) != key(nxt.title):
        return
    work[i : i + 1] = [work[i].with_text(work[i].text[:cut].rstrip()), rest]
    keys[i : i + 1] = [key(work[i].text), key(rest.text)]


def _search(
    blocks: Sequence[Block], keys: list[str], entry: ContentsEntry, cursor: int, offset: int | None
) -> tuple[int, int] | None:
    """(index, blocks it spans) of the entry's heading; 0 blocks = run into the start of a paragraph."""
    run_in: tuple[int, int] | None = None
    for i in range(cursor, len(blocks)):
        b = blocks[i]
        if entry.page and offset is not None and b.page and b.page > entry.page + offset + _PAGE_SLACK:
            break
        if not _in_window(b, entry, offset):
            continue
        if keys[i] and (n := _match_at(blocks, keys, i, entry)):
            return i, n
        if run_in is None and offset is not None and entry.page and _run_in_end(b, entry.title):
            run_in = (i, 0)
    return run_in


def _run_in_end(b: Block, title: str) -> int:
    """Where the entry's title ends when a paragraph opens with it («Testing Method The ASVS …»), else 0.

    Only with a known page window (the caller's) and a title of two words or more: a heading the
    extractor ran into its first paragraph, not a sentence that happens to start the same way.
    """
    if b.kind != "para" or b.editorial or len(title.split()) < _MIN_RUN_IN_WORDS:
        return 0
    want = [c for c in title.casefold() if not c.isspace()]
    got = 0
    for pos, ch in enumerate(b.text):
        if ch.isspace():
            continue
        if got == len(want):
            return pos if b.text[pos - 1].isspace() and (ch.isupper() or ch.isdigit()) else 0
        if ch.casefold() != want[got]:
            return 0
        got += 1
    return 0


def _body_entries(entries: Sequence[ContentsEntry]) -> list[ContentsEntry]:
    """The entries to look for: a single top entry above all others is the document's title, not a section."""
    if not entries:
        return []
    top = min(e.level for e in entries)
    roots = [e for e in entries if e.level == top]
    if len(roots) == 1 and entries[0] is roots[0] and len(entries) > 1:
        return list(entries[1:])
    return list(entries)


def _joined(
    blocks: tuple[Block, ...], spans: list[tuple[int, int, ContentsEntry]], missing: list[ContentsEntry]
) -> tuple[tuple[Block, ...], list[Found], list[ContentsEntry]]:
    """Join the blocks of split headings into one and index the headings in the joined list."""
    levels = sorted({e.level for _i, _n, e in spans})
    level_rank = {lvl: MAP_RANK + n for n, lvl in enumerate(levels)}
    out: list[Block] = []
    found: list[Found] = []
    by_start = {i: (n, e) for i, n, e in spans}
    i = 0
    while i < len(blocks):
        if i not in by_start:
            out.append(blocks[i])
            i += 1
            continue
        n, entry = by_start[i]
        if n == 0:  # a run-in heading: the paragraph's opening words become the heading block
            cut = _run_in_end(blocks[i], entry.title)
            head = blocks[i].with_text(blocks[i].text[:cut].rstrip())
            kind, number = _kind_of(entry.title, entry.number)
            found.append(Found(len(out), kind, number, level_rank[entry.level]))
            out += [head, blocks[i].with_text(blocks[i].text[cut:])]
            i += 1
            continue
        parts = blocks[i : i + n]
        text = " ".join(p.text.strip() for p in parts)
        head = parts[0].with_text(text) if n > 1 else parts[0]
        kind, number = _kind_of(text, "")
        moved = renumbered(head, entry)
        if kind == "map" or (kind == "num" and entry.number and number != entry.number and not moved):
            kind, number = _kind_of(entry.title, entry.number)
        found.append(Found(len(out), kind, number, level_rank[entry.level], entry.number if moved else ""))
        out.append(head)
        i += n
    return tuple(out), found, missing


__all__ = ["MAP_RANK", "Found", "find_map", "key", "renumbered"]
