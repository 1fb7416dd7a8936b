"""Split a cleaned document into sections at its own headings and render them as Markdown.

A regulation is cut at its unit (Статья when it has articles, else its top-level heading);
a section still larger than ``max_chars`` is cut again at its next heading level, and a heading
with no deeper headings (a long article) at paragraph boundaries, its heading repeated in every
piece. Group headings with no text of their own (Глава above its articles) become groups in
the subindex, not files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from slugify import slugify

from docshelf.build.structure import Heading, clause_id, plain
from docshelf.law import grammar
from docshelf.model import Block


@dataclass(frozen=True)
class Section:
    """One output file's worth of a document."""

    title: str
    clause: str  # «ст. 5», «п. 1.2», «» for a preamble
    groups: tuple[str, ...]  # enclosing group headings, outermost first (Раздел, Глава)
    markdown: str
    pages: tuple[int, int]
    slug: str = ""
    numbers: tuple[str, ...] = field(default=())  # part/point numbers at paragraph starts
    slug_hint: str = ""  # text to build the slug from when the title alone would not tell pieces apart
    part: str = ""  # the document approved by the act this section belongs to («Требования»), if any
    continues: bool = False  # a later piece of a section cut between paragraphs: it goes on from the one before


@dataclass
class _Node:
    heading: Heading | None
    start: int  # first block index (the heading itself when there is one)
    end: int  # one past the last block


Item = tuple[int, Block]  # a block with its index in the document (headings are keyed by it)


def render(items: list[Item], head: Heading | None, level_base: int, headings: dict[int, Heading]) -> str:
    """Markdown for a run of blocks; headings nested under ``head`` get deeper ``#``s."""
    out: list[str] = []
    for i, b in items:
        h = headings.get(i)
        if h is not None:
            depth = 1 if head is not None and h.index == head.index else max(2, h.level - level_base + 1)
            out.append("#" * min(depth, 6) + " " + h.text)
        elif b.kind == "heading" and not b.text.startswith("#"):
            out.append("#" * min(max(b.level, 1), 6) + " " + plain(b.text))  # a source heading kept as one
        elif b.editorial:
            out.append(grammar.editorial(b.text))
        else:
            out.append(b.text)
    return "\n\n".join(out).strip() + "\n"


def split_document(
    blocks: tuple[Block, ...],
    headings: list[Heading],
    *,
    max_chars: int,
    english: bool = False,
    preamble_title: str = "",
) -> list[Section]:
    """Cut the document into sections; see the module docstring for the rules."""
    tagged: list[Item] = list(enumerate(blocks))
    by_index = {h.index: h for h in headings}
    unit = _unit_level(headings)
    cuts = [h for h in headings if h.level <= unit]
    sections: list[Section] = []
    groups: list[Heading] = []
    first = cuts[0].index if cuts else len(blocks)
    if first > 0:
        pre = tagged[:first]
        first_line = plain(pre[0][1].text)[:120]
        for sec in _emit(pre, None, (), by_index, max_chars, english, headings):
            if preamble_title and not sec.clause and sec.title.startswith(first_line):
                tail = sec.title[len(first_line) :]
                # The first heading the front matter holds says what it is («Сборник» «Предисловие»).
                inner = next((m.group(1) for m in _INNER_HEADING.finditer(sec.markdown) if m.start()), "")
                if inner and inner not in preamble_title and not tail:
                    tail = f" {inner}"
                sec = replace(sec, title=preamble_title + tail, slug_hint=preamble_title[:40] + tail)
            sections.append(sec)
    part = ""
    for n, h in enumerate(cuts):
        end = cuts[n + 1].index if n + 1 < len(cuts) else len(blocks)
        groups = [g for g in groups if g.level < h.level]
        if h.kind == "approved":
            part = h.text.split()[0].capitalize()  # «ТРЕБОВАНИЯ К ЗАЩИТЕ …» → «Требования»
        elif h.kind in ("prilozhenie", "appendix", "subappendix"):
            part = ""
        body = tagged[h.index : end]
        has_text = any(b.text.strip() for _, b in body[1:])
        if h.level < unit and not has_text:
            groups.append(h)  # a group heading (Глава) right above its articles
            continue
        emitted = _emit(body, h, tuple(g.text for g in groups), by_index, max_chars, english, headings)
        sections.extend(replace(sec, part=part) for sec in emitted)
        if h.level < unit:
            groups.append(h)
    return _with_slugs(sections)


_INNER_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)


def whole_document(blocks: tuple[Block, ...], headings: list[Heading], title: str) -> Section:
    """The document as one section (short documents, ``--no-split``), its headings kept as Markdown headings."""
    items: list[Item] = list(enumerate(blocks))
    by_index = {h.index: h for h in headings}
    base = min((h.level for h in headings), default=1) - 1
    text = render(items, None, base, by_index)
    pages = [b.page for b in blocks if b.page]
    return Section(title, "", (), text, (min(pages), max(pages)) if pages else (0, 0), slug="000-document")


def _unit_level(headings: list[Heading]) -> int:
    """The level a document is cut at: its articles, else its top level below annexes/appendices."""
    levels = [h.level for h in headings if h.kind in grammar.ARTICLE_KINDS]
    if levels:
        return min(levels)
    body = [h.level for h in headings if h.kind not in ("prilozhenie", "appendix", "subappendix")]
    return min(body or [h.level for h in headings] or [1])


def _emit(
    body: list[Item],
    head: Heading | None,
    groups: tuple[str, ...],
    by_index: dict[int, Heading],
    max_chars: int,
    english: bool,
    headings: list[Heading],
) -> list[Section]:
    level = head.level if head else 0
    text = render(body, head, level, by_index)
    if len(text) <= max_chars:
        return [_section(body, head, groups, text, by_index, english)]
    inner = [by_index[i] for i, _ in body if i in by_index and (head is None or i != head.index)]
    if inner:
        top = min(h.level for h in inner)
        cuts = [h for h in inner if h.level == top]
        out: list[Section] = []
        start = 0
        positions = [next(k for k, (i, _) in enumerate(body) if i == c.index) for c in cuts]
        lead = body[: positions[0]]
        if any(b.text.strip() for _, b in (lead[1:] if head is not None else lead)):
            out.extend(_pieces(lead, head, groups, by_index, max_chars, english))
        sub_groups = (*groups, head.text) if head else groups
        for n, pos in enumerate(positions):
            start, end = pos, positions[n + 1] if n + 1 < len(positions) else len(body)
            out.extend(_emit(body[start:end], cuts[n], sub_groups, by_index, max_chars, english, headings))
        return out
    return _pieces(body, head, groups, by_index, max_chars, english)


def _pieces(
    body: list[Item],
    head: Heading | None,
    groups: tuple[str, ...],
    by_index: dict[int, Heading],
    max_chars: int,
    english: bool,
) -> list[Section]:
    """Cut a run with no inner headings at paragraph boundaries; the heading opens every piece."""
    rest = body[1:] if head is not None else body
    chunks: list[list[Item]] = [[]]
    size = 0
    for item in rest:
        if chunks[-1] and size + len(item[1].text) > max_chars * 0.9:
            # Prefer to cut before a top-level part/point, so its items stay with it.
            current = chunks[-1]
            cut = max((k for k, (_, b) in enumerate(current) if grammar.TOP_PART.match(b.text)), default=0)
            if cut < len(current) * 0.3:
                cut = len(current)
            chunks[-1], tail = current[:cut], current[cut:]
            chunks.append(tail)
            size = sum(len(b.text) + 2 for _, b in tail)
        chunks[-1].append(item)
        size += len(item[1].text) + 2
    out = []
    base = _section(body, head, groups, "", by_index, english).title
    for n, chunk in enumerate(chunks):
        piece = ([body[0]] if head is not None else []) + chunk
        text = render(piece, head, head.level if head else 0, by_index)
        section = replace(_section(piece, head, groups, text, by_index, english), title=base)
        if len(chunks) > 1:
            label = ""
            if head is not None:  # numbers in a preamble are a printed table of contents, not clauses
                prefix = grammar.SECTION if english else grammar.POINT
                if head.kind in grammar.ARTICLE_KINDS:
                    prefix = grammar.EN_PARAGRAPHS if english else grammar.PART
                label = _range_label(chunk, prefix)
            label = label or f"{n + 1}/{len(chunks)}"
            section = replace(
                section, title=f"{section.title} ({label})", slug_hint=f"{section.title[:32]} {label}", continues=n > 0
            )
        out.append(section)
    return out


def _range_label(chunk: list[Item], prefix: str) -> str:
    # an article's parts (paragraphs) are «N.»
    pattern = grammar.PART_DOT if prefix in (grammar.PART, grammar.EN_PARAGRAPHS) else grammar.PART_NUMBER
    numbers = [m.group(1) for _, b in chunk if (m := pattern.match(b.text))]
    if not numbers or (prefix == grammar.SECTION and not all("." in n for n in numbers)):
        return ""  # «1.», «2.» of an English section are its list's items, not sections «§1–2»
    return grammar.range_label(prefix, numbers[0], numbers[-1])


def _section(
    body: list[Item],
    head: Heading | None,
    groups: tuple[str, ...],
    text: str,
    by_index: dict[int, Heading],
    english: bool,
) -> Section:
    pages = [b.page for _, b in body if b.page]
    title = head.text if head else plain(body[0][1].text)[:120] if body else ""
    numbers = tuple(m.group(1) for _, b in body if (m := grammar.PART_NUMBER.match(b.text)) and not b.editorial)
    return Section(
        title=title,
        clause=clause_id(head, english=english) if head else "",
        groups=groups,
        markdown=text,
        pages=(min(pages), max(pages)) if pages else (0, 0),
        numbers=numbers,
    )


def _unspace(text: str) -> str:
    """«С т а т ь я 37» → «Статья 37»: letter-spaced words make unreadable slugs."""
    return re.sub(r"\b([^\W\d_](?: [^\W\d_]){3,})\b", lambda m: m.group(1).replace(" ", ""), text)


def _with_slugs(sections: list[Section]) -> list[Section]:
    width = max(3, len(str(len(sections))))
    out = []
    for n, s in enumerate(sections, start=1):
        slug = slugify(_unspace(s.slug_hint or s.title), max_length=48, word_boundary=True) or "section"
        out.append(replace(s, slug=f"{n:0{width}d}-{slug}"))
    return out
