"""Completeness: is every article / section the document announces present on the shelf?

A missing article is the worst silent failure of a legal shelf. Two independent signals:
the document's own table of contents (a PDF outline, or a printed contents page with dot leaders
or page numbers) gives the clause numbers to expect; and article numbering must not jump or repeat.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from docshelf.law import grammar as g
from docshelf.law.numbering import read_label
from docshelf.model import Block
from docshelf.records import DocMeta

_TOC_LINE = re.compile(r"(?:\.{3,}|…{2,})\s*\d{1,4}$")
# A printed contents line of any family: «1.1 PURPOSE ........ 2», «APPENDIX A REFERENCES ....A-1», «Foreword … iv».
_LEADER_LINE = re.compile(
    r"^(?P<title>\S.*?)\s*(?:\.\s?){3,}\s*(?:[A-Z]-)?(?:\d{1,4}|[ivxlc]{1,6})$|^(?P<t2>\S.*?)…{2,}\s*\d{1,4}$"
)
_NUMBERED_ENTRY_TAIL = re.compile(r"(?:\.{2,}|…+|\s)\s*\d{1,4}$")
_ENTRY_NUMBER = re.compile(rf"^({g.SECTION_NUMBER})\.?\s")
_PRINTED_PAGE = re.compile(r"(?<![-\w])(\d{1,4})\s*$")  # «… 12» but not «… A-1» (an appendix's own pages)
# A list of tables or figures printed after the contents: captions, not the document's sections.
_CAPTION = re.compile(r"^(?:Table|Figure|Таблица|Рисунок)\s+[A-ZА-Я]?[-\d.]+\b")


@dataclass(frozen=True)
class ContentsEntry:
    """One entry of the document's own table of contents: its title as printed and its clause, if numbered."""

    title: str
    number: str = ""  # «4.2», «A.1» for a numbered entry
    clause: str = ""  # «ст. 5» for an article entry
    level: int = 1  # depth in the map: the outline level, or the depth of a printed entry's number
    page: int = 0  # the page it points to: physical for an outline, as printed for a contents page

    @property
    def label(self) -> str:
        return self.title if len(self.title) <= 60 else self.title[:57] + "…"


def contents_entries(
    outline: tuple[tuple[int, str, int], ...], blocks: tuple[Block, ...]
) -> tuple[str, list[ContentsEntry]]:
    """The document's own map, most trusted first: its PDF outline, else its printed contents page.

    Returns the map's name («outline», «contents» or «none») and its entries, without repeats.
    """
    if outline:
        if kept := _outline_map(outline)[0]:
            return "outline", list(kept)
        # An outline of bookmarked paragraphs only (a word processor's export of numbered paragraphs, no
        # heading among them) maps nothing: the printed contents or the body's own headings do.
    return ("contents", entries) if (entries := _printed_entries(blocks)) else ("none", [])


_PARAGRAPH_WORDS = 16  # an outline entry this long is a bookmarked paragraph, whatever its end
_RUN_IN = re.compile(r"^[^:;.]{3,40}:\s+(?:\S+\s+){3,}\S")  # «Potential Inputs: …» and four words or more
_MARKED_END = re.compile(r"\.\d{0,3}[A-Z]?$")  # «… reports.108F»: a footnote mark may follow the full stop
_NAMED_NUMBER = re.compile(r"^\w+\s+[\dA-ZА-Я][\d.]*\s*[-–—:.]\s")  # «Пример 1 - …», «Table 3: …»


def _named(title: str) -> bool:
    """The entry opens with a named kind of heading («§ 11.10 …», «Article 6», «Пример 1 - …»)."""
    return bool(_NAMED_NUMBER.match(title) or any(k.heading.match(title) for k in g.HEADINGS if k.name not in _BARE))


_BARE = frozenset({"num", "roman"})  # heading kinds that are a bare number: «1.», «IV.»
_LABEL = re.compile(r"^(?:\(\w{1,4}\)|\w{1,4}[.)]|(?:[A-Z]\.)?\d+(?:\.\d+)*\.?)\s+")  # «(a) », «1. », «4.2 »


def paragraph_bookmark(entry: ContentsEntry) -> bool:
    """An outline entry that bookmarks a paragraph of the text, not a heading («Potential Inputs: Risk
    management strategy; …», «Quick link to summary table for RMF tasks, responsibilities, and supporting
    roles.»): unnumbered and a sentence (four words or more ending in «.» or «;»; a run-in label and its
    text), or very long. A word processor's outline made from styles bookmarks what was styled, headings
    or not."""
    if entry.clause or _named(entry.title):
        return False
    if entry.number or read_label(entry.title):
        # A numbered paragraph («2. This Regulation does not apply to the processing of personal data:») is a
        # long sentence after its label; a numbered heading is a title, with a full stop at most.
        return _labelled_sentence(entry.title, _LABELLED_WORDS)
    title, words = entry.title, entry.title.split()
    if len(words) >= _PARAGRAPH_WORDS or (len(words) >= 4 and title.endswith((".", ";"))):
        return True
    # «Supporting Role: Mission or Business Owner; System Security Officer.65F»: a run-in label and its text
    return bool(_RUN_IN.match(title)) and (";" in title or bool(_MARKED_END.search(title)))


_LABELLED_WORDS = 8  # a labelled entry of this many words ending in «.», «;» or «:» is a paragraph
_BOOKMARKS_SHARE = 0.5  # an outline this much made of bookmarked paragraphs is no table of contents


def _labelled_sentence(title: str, words: int) -> bool:
    label = _LABEL.match(title)
    text = title[label.end() :] if label else title
    n = len(text.split())
    return n >= _PARAGRAPH_WORDS or (n >= words and text.endswith((".", ";", ":")))


def _point_text(title: str, *, among_points: bool = False) -> bool:
    """A labelled entry whose text reads as a point's, not a title: «(a) Union law; or», «(b) the monitoring …».
    Among an outline of points, a bullet's («– their parliament;») and a full stop after a label are too."""
    label = _LABEL.match(title) or (_BULLET.match(title) if among_points else None)
    text = title[label.end() :] if label else ""
    if not text:
        return False
    if among_points and (text.endswith(".") or text[:1].islower()):
        return True  # («1.1 purpose and applicability» in small capitals is a heading elsewhere)
    return ";" in text or text.endswith((":", ",")) or _labelled_sentence(title, _LABELLED_WORDS)


_BULLET = re.compile(r"^[–—•-]\s+")


@lru_cache(maxsize=8)  # one outline is asked for its map, its clauses and its bookmarks in one build
def _outline_map(
    outline: tuple[tuple[int, str, int], ...],
) -> tuple[tuple[ContentsEntry, ...], tuple[ContentsEntry, ...]]:
    """The outline's entries that map the document, and those left out as bookmarked paragraphs.

    When most entries bookmark paragraphs («1. This Regulation lays down rules …», «(a) the offering of
    goods …»: an outline made of every numbered paragraph), even a short labelled sentence is one; named
    headings («Article 6», «§ 11.10 …») and titles stay."""
    entries = _unique(_entry(t, level, page) for level, t, page in outline)
    points = [paragraph_bookmark(e) or (not _named(e.title) and _point_text(e.title)) for e in entries]
    if sum(points) >= _BOOKMARKS_SHARE * len(entries):
        among = [not _named(e.title) and _point_text(e.title, among_points=True) for e in entries]
        keep = [not (p or a) for p, a in zip(points, among, strict=True)]
    else:
        keep = [not paragraph_bookmark(e) for e in entries]
    kept = tuple(e for e, k in zip(entries, keep, strict=True) if k)
    return kept, tuple(e for e, k in zip(entries, keep, strict=True) if not k)


def paragraph_bookmarks(outline: tuple[tuple[int, str, int], ...]) -> list[str]:
    """The outline's entries left out of the map as bookmarked paragraphs (the quality record shows them)."""
    return [e.label for e in _outline_map(outline)[1]]


def _entry(title: str, level: int = 0, page: int = 0) -> ContentsEntry:
    title = " ".join(title.replace("\u00a0", " ").split())
    if m := g.CONTENTS_ARTICLE.match(title):
        return ContentsEntry(title, clause=g.article_id(m.group(1)), level=level or 1, page=page)
    if m := _ENTRY_NUMBER.match(title):
        number = m.group(1).rstrip(".")
        return ContentsEntry(title, number=number, level=level or number.count(".") + 1, page=page)
    return ContentsEntry(title, level=level or 1, page=page)


def _unique(entries: Iterable[ContentsEntry]) -> list[ContentsEntry]:
    """Entries in order, without the lists of tables and figures (captions, not sections).

    An entry repeated on the same page is one entry (a contents page printed twice); the same title
    on other pages («Control Objective», «References» in every chapter) is one heading each.
    """
    seen: set[tuple[str, str, int]] = set()
    out: list[ContentsEntry] = []
    for e in entries:
        ident = (e.title.casefold(), e.number, e.page)
        if e.title and not _CAPTION.match(e.title) and ident not in seen:
            seen.add(ident)
            out.append(e)
    return out


def _printed_entries(blocks: tuple[Block, ...]) -> list[ContentsEntry]:
    """Entries of a printed contents page: dot-leader lines, or runs of ≥3 «N. Title  page» lines."""
    out: list[ContentsEntry] = []
    for run in _contents_runs(blocks):
        for _at, line in run:
            leader = _LEADER_LINE.match(line)
            title = (leader.group("title") or leader.group("t2")) if leader else _NUMBERED_ENTRY_TAIL.sub("", line)
            page = _PRINTED_PAGE.search(line)
            out.append(_entry(title.rstrip(" .…"), 0, int(page.group(1)) if page else 0))
    return _unique(out)


def contents_blocks(blocks: tuple[Block, ...]) -> frozenset[int]:
    """The blocks of a printed contents page: its lines are the map's entries, never their headings (a Word
    document's contents lines «1. Information System Name/Title 13» print no dot leaders and would otherwise
    be found as the headings they list, the body filed under the last entry)."""
    return frozenset(at for run in _contents_runs(blocks) for at, _line in run)


def _contents_runs(blocks: tuple[Block, ...]) -> Iterable[list[tuple[int, str]]]:
    """Runs of three or more printed contents lines in the document's first blocks, each line with its block."""
    lines = [(n, ln.strip()) for n, b in enumerate(blocks[:600]) if b.kind != "table" for ln in b.text.split("\n")]
    run: list[tuple[int, str]] = []
    for n, line in [*lines, (-1, "")]:
        if _LEADER_LINE.match(line) or g.CONTENTS_NUMBERED.match(line):
            run.append((n, line))
            continue
        if len(run) >= 3:
            yield run
        run = []


def expected_clauses(outline: tuple[tuple[int, str, int], ...], blocks: tuple[Block, ...], english: bool) -> list[str]:
    """Clause ids the document's own table of contents announces (outline first, else printed contents);
    an outline's bookmarked paragraphs announce nothing."""
    mapped = {e.title for e in _outline_map(outline)[0]} if outline else set()
    found = [_toc_clause(title, english) for _lvl, title, _page in outline if _entry(title).title in mapped]
    ids = [c for c in found if c]
    if ids:
        return list(dict.fromkeys(ids))
    return list(dict.fromkeys(c for c in _printed_contents(blocks, english) if c))


def _printed_contents(blocks: tuple[Block, ...], english: bool) -> list[str]:
    """Entries of a printed contents page: dot-leader lines, or runs of ≥3 «N. Title  page» lines."""
    lines = [ln for b in blocks[:400] for ln in b.text.split("\n")]
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if _TOC_LINE.search(line) or g.CONTENTS_NUMBERED.match(line):
            run.append(line)
            continue
        if len(run) >= 3 or any(_TOC_LINE.search(r) for r in run):
            out.extend(_toc_clause(r, english) for r in run)
        run = []
    return out


def contents_numbers(outline: tuple[tuple[int, str, int], ...], blocks: tuple[Block, ...]) -> frozenset[str]:
    """Section numbers («4.2.1») the document's own table of contents lists, whatever its language."""
    ids = expected_clauses(outline, blocks, english=True)
    return frozenset(c[len(g.SECTION) :] for c in ids if g.is_section(c))


def _toc_clause(title: str, english: bool) -> str:
    title = " ".join(title.replace("\u00a0", " ").split())
    if m := g.CONTENTS_ARTICLE.match(title):
        return g.article_id(m.group(1))
    if english and (m := g.CONTENTS_NUMBERED.match(title) or g.SECTION_HEADING.match(title)):
        return g.section_id(m.group(1))
    return ""


def missing_clauses(meta: DocMeta) -> list[str]:
    """Announced clauses that no section carries."""
    have = {c.id for _s, c in meta.clauses()}
    have |= {s.clause for s in meta.sections}
    have |= {_toc_clause(text, meta.english) for s in meta.sections for text in s.groups}  # a heading kept as a group
    return [c for c in meta.expected_clauses if c not in have]


def numbering_problems(meta: DocMeta) -> list[str]:
    """Article numbers that repeat, go backwards or skip one («ст. 5» then «ст. 7»)."""
    seen: list[tuple[int, int]] = []
    for s in meta.sections:
        key = g.article_key(s.clause)
        if key is not None:
            if not seen or seen[-1] != key:
                seen.append(key)
    out = []
    for (a, a_sub), (b, b_sub) in pairwise(seen):
        if (b, b_sub) <= (a, a_sub):
            out.append(f"{g.article_id(str(b))} after {g.article_id(str(a))} (repeat or out of order)")
        elif b_sub == 0 and b > a + 1:
            out.append(
                f"{g.article_id(str(a))} is followed by {g.article_id(str(b))}; {g.article_id(str(a + 1))} is missing"
            )
    return out
