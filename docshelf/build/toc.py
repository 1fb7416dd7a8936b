"""Tables of contents: the root ``index.md`` (llms.txt-compatible) and ``subindex.md`` pages.

Pure and byte-stable: the same metas give the same Markdown. Every entry carries what a model needs
to choose without opening it: title, clause (range), pages, size and the section's gist (its own
first words per part or point). The pieces of a split article are listed under its title, printed
once. Links in subindex pages are shelf-absolute (``/docs/…``): the same path from every page, what
``fetch`` takes, and what Git hosting renders from the repository root.

This module writes the lines; which pages a document's table gets, within their byte budget, is
:mod:`docshelf.build.tocpages`. A category with too many documents gets its own page under the root
index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from docshelf.build.tocpages import (
    CONTENTS_BYTES,
    MAX_ENTRIES,
    MIN_GIST_BYTES,
    PAGE_BYTES,
    Child,
    Item,
    Line,
    clause_range,
    page,
    paginate,
    piece,
    runs,
    same,
)
from docshelf.law.editions import edition_facts
from docshelf.law.grammar import HEADINGS
from docshelf.records import CATEGORY_PAGES, DocMeta, SectionMeta


def _size(tokens: int, size_bytes: int) -> str:
    return f"~{tokens} tok, {size_bytes / 1024:.1f} KB"


def _pages(pages: Sequence[int]) -> str:
    if not pages or not pages[0]:
        return ""
    return f"p. {pages[0]}" if pages[0] == pages[1] else f"p. {pages[0]}–{pages[1]}"


def _edition_note(meta: DocMeta) -> str:
    # Only what is stored (dates, replacements): a status depends on the day it is read, and index
    # files must stay byte-stable in Git; read_index adds the status for the reader's date.
    return edition_facts(meta)


def _doc_header(meta: DocMeta, title: str) -> list[str]:
    facts = [meta.id]
    if meta.pages:
        facts.append(f"{meta.pages} pages")
    facts.append(f"source: {meta.source.file}")
    if note := _edition_note(meta):
        facts.append(note)
    return [f"# {title}", "", "> " + " · ".join(facts), ""]


def link(path: str) -> str:
    """A shelf-absolute link: the same from every page, and what ``fetch`` takes."""
    return "/" + path


def _entry(s: SectionMeta, label: str = "", indent: str = "") -> Line:
    facts = (s.clause if not label else "", _pages(s.pages) if not label else "", _size(s.tokens, s.bytes))
    note = " · ".join(p for p in facts if p)
    return f"{indent}- [{label or s.title}]({link(s.path)}): {note}", s.gist, MIN_GIST_BYTES


def _heading(depth: int, text: str) -> list[Line]:
    return [("", "", 0), ("#" * min(depth + 2, 6) + " " + text, "", 0), ("", "", 0)]


def _listing(sections: Sequence[SectionMeta], skip: int, doc_title: str = "", english: bool = False) -> list[Line]:
    """Entries with their group headings (groups after the first ``skip`` levels)."""
    lines: list[Line] = []
    current: list[str] = []
    for run in _alike_runs(runs(sections)):
        groups = run[0].groups[skip:]
        common = 0
        while common < min(len(groups), len(current)) and groups[common] == current[common]:
            common += 1
        for depth in range(common, len(groups)):
            lines += _heading(depth, groups[depth])
        current = list(groups)
        if len(run) == 1:
            lines.append(_entry(run[0]))
            continue
        first, last = run[0], run[-1]
        span = _pages((first.pages[0], last.pages[-1])) if first.pages and last.pages else ""
        total = _size(sum(s.tokens for s in run), sum(s.bytes for s in run))
        if not piece(first)[1]:  # sections with one title and one gist (a table's pages): one line, the gist once
            links = ", ".join(f"[{n}]({link(s.path)})" for n, s in enumerate(run, start=1))
            facts = " · ".join(p for p in (first.clause, span, total) if p)
            lines.append((f"- {first.title} ({links}): {facts}", first.gist, MIN_GIST_BYTES))
            continue
        name = piece(first)[0]
        if doc_title and same(name, doc_title):  # the title is the page's heading already: once is enough
            name = "the document's opening pages" if english else "начальные страницы документа"
        head = " · ".join(p for p in (first.clause, span, f"{len(run)} parts", total) if p)
        lines.append((f"- {name}: {head}", "", 0))
        lines += _parts(run)
    return lines


def _alike_runs(found: Iterable[list[SectionMeta]]) -> Iterator[list[SectionMeta]]:
    """The runs, with consecutive single sections that share title, clause, groups and gist joined into one:
    what a reader would see as the same line many times («APPENDIX D — SECURITY REQUIREMENTS NIST SP 800-53»).
    Sections whose gists differ stay apart: each entry's own words are what a reader chooses by."""
    pending: list[SectionMeta] = []
    for run in found:
        s = run[0]
        if len(run) == 1 and s.gist and pending and _key(pending[0]) == _key(s):
            pending.append(s)
            continue
        if pending:
            yield pending
        pending = list(run) if len(run) == 1 else []
        if len(run) > 1:
            yield run
    if pending:
        yield pending


def _key(s: SectionMeta) -> tuple[str, str, tuple[str, ...], str]:
    return (s.title, s.clause, tuple(s.groups), s.gist)


def _parts(run: Sequence[SectionMeta]) -> list[Line]:
    """A split article's parts, one line each; consecutive parts with the same gist (a table's repeated
    header, «SECURITY REQUIREMENTS NIST SP 800-53 ISO/IEC 27001») on one line, the gist once."""
    lines: list[Line] = []
    for gist, same_gist in groupby(run, key=lambda s: s.gist):
        alike = list(same_gist)
        if len(alike) == 1 or not gist:
            lines += [_entry(s, label=piece(s)[1], indent="  ") for s in alike]
            continue
        links = ", ".join(f"[{piece(s)[1]}]({link(s.path)})" for s in alike)
        size = _size(sum(s.tokens for s in alike), sum(s.bytes for s in alike))
        lines.append((f"  - {links}: {size}", gist, MIN_GIST_BYTES))
    return lines


def _contents(members: Sequence[SectionMeta]) -> str:
    """What a group holds, in its own words: its sections' titles, numbers cut, each title once.

    «Глава 8. Служебное время и время отдыха» says nothing of leave; «Служебное время · Отпуска на
    гражданской службе» does. The group's own heading, repeated as a section, is left out. A title
    that is only a number («Статья 12», «ГЛАВА 1» over «ОСНОВЫ КОНСТИТУЦИОННОГО СТРОЯ») gives way to
    the first words of the section's own gist.
    """
    named = dict.fromkeys(
        t
        for s in members
        if s.title and s.title != (s.groups[-1] if s.groups else "") and (t := _unnumbered(s) or _opening(s.gist))
    )
    return " · ".join(named)


def _opening(gist: str) -> str:
    """A gist's first part, its label («ч. 1: ») dropped."""
    return re.sub(r"^[^:]{1,16}: ", "", gist.split(" · ")[0]).rstrip("…")


def _unnumbered(s: SectionMeta) -> str:
    """The section's title without its label and number («Статья 46. », «4.3. », «Appendix F.1. »).

    The heading kinds are the grammar's: the same table that made the section's clause id.
    """
    title = piece(s)[0] or s.title
    for kind in HEADINGS:
        if m := kind.heading.match(title):
            end = m.end(1) if m.group(1) is not None else m.end()
            return title[end:].lstrip(" .:").strip()
    return title.strip()


def _child_line(child: Child, path: str) -> Line:
    members = child.members
    span = clause_range(members)
    facts = [span if span != child.title else "", f"{len(members)} sections"]
    facts.append(_size(sum(s.tokens for s in members), sum(s.bytes for s in members)))
    text = f"- [{child.title}]({link(path)}): " + " · ".join(f for f in facts if f)
    named = [t for t in _contents(members).split(" · ") if not same(t, child.title)]
    return text, " · ".join(named), CONTENTS_BYTES


def _lines(items: Sequence[Item], paths: Mapping[int, str], doc_title: str = "", english: bool = False) -> list[Line]:
    lines: list[Line] = []
    for n, item in enumerate(items):
        if isinstance(item, str):
            lines += [("", "", 0), (item, "", 0), ("", "", 0)]
        elif isinstance(item, Child):
            lines.append(_child_line(item, paths[n]))
        elif len(groups := item.sections[0].groups) <= item.skip:
            lines += _listing(item.sections, item.skip, doc_title, english)
        else:
            # A group of one article among pages of groups: its name over the entry, indented, not a
            # heading (a heading would seem to hold the links after it too).
            lines.append((f"- {' / '.join(groups[item.skip :])}: " + clause_range(item.sections), "", 0))
            listed = _listing(item.sections, len(groups), doc_title, english)
            lines += [("  " + text, gist, least) for text, gist, least in listed]
    return lines


@dataclass(frozen=True)
class _Lister:
    """One document's lines, for :func:`~docshelf.build.tocpages.paginate` to measure and place."""

    meta: DocMeta

    def listing(self, sections: Sequence[SectionMeta], skip: int) -> list[Line]:
        return _listing(sections, skip, self.meta.title, self.meta.english)

    def items(self, items: Sequence[Item], paths: Mapping[int, str]) -> list[Line]:
        return _lines(items, paths, self.meta.title, self.meta.english)

    def header(self, title: str, up: str) -> list[str]:
        # The document's title heads its own page; a chapter's page names the document by its id.
        return [f"# {title}", "", f"> {self.meta.id} · [up]({link(up)})", ""]


def render_subindexes(meta: DocMeta) -> dict[str, str]:
    """Every subindex page of one split document: path -> Markdown, the document's own page first."""
    return paginate(meta.entry, _doc_header(meta, meta.title), meta.sections, 0, _Lister(meta))


def render_subindex(meta: DocMeta) -> str:
    """The document's own (top) subindex page."""
    return render_subindexes(meta)[meta.entry]


def _doc_line(m: DocMeta, absolute: bool) -> str:
    tokens, size = m.size
    count = len(m.section_data)
    facts = [m.id, f"{count} sections" if count > 1 else "", _size(tokens, size)]
    if note := _edition_note(m):
        facts.append(note)
    return f"- [{m.title}]({link(m.entry) if absolute else m.entry}): " + " · ".join(f for f in facts if f)


def render_indexes(name: str, description: str, metas: Sequence[DocMeta]) -> dict[str, str]:
    """The root ``index.md`` (H1, ``>`` summary, H2 per category) and category pages for big categories."""
    pages: dict[str, str] = {}
    lines = [f"# {name}", "", f"> {description}", ""]
    if not metas:
        lines += ["No documents yet: add some with `docshelf add FILE`.", ""]
    by_cat: dict[str, list[DocMeta]] = {}
    for m in metas:
        by_cat.setdefault(m.category, []).append(m)
    for cat in sorted(by_cat):
        docs = sorted(by_cat[cat], key=lambda m: (m.id, m.entry))
        lines += [f"## {cat}", ""]
        if len(docs) <= MAX_ENTRIES:
            lines += [_doc_line(m, absolute=False) for m in docs]
        else:
            path = f"docs/{cat}/subindex.md"
            lines.append(f"- [{cat}: {len(docs)} documents]({path}): open the category's own index")
            entries = [_Listed(_doc_line(m, absolute=True), m.id, m.id, 1) for m in docs]
            pages.update(_category_pages(f"docs/{cat}", cat, f"documents of {name}", entries))
        lines.append("")
    pages["index.md"] = page(lines)
    return pages


@dataclass(frozen=True)
class _Listed:
    """A line of a category page: a document's, or a range page's (the ids it runs from and to)."""

    line: str
    first: str
    last: str
    documents: int


def _category_pages(folder: str, cat: str, what: str, entries: list[_Listed], level: int = 1) -> dict[str, str]:
    """A category's page; over a page's budget (entries or bytes), its documents go onto range pages of
    consecutive ids that it links instead («152-ФЗ … 58-ФЗ: 60 documents»), ranges of ranges as far as
    needed, so that no page a model reads grows with the shelf."""
    top = f"{folder}/subindex.md"
    total = sum(e.documents for e in entries)

    def head(summary: str, up: str) -> list[str]:
        return [f"# {cat}", "", f"> {summary} · [up]({link(up)})", ""]

    whole = page(head(f"{total} {what}", "index.md") + [e.line for e in entries])
    if len(entries) <= MAX_ENTRIES and len(whole.encode("utf-8")) <= PAGE_BYTES:
        return {top: whole}
    chunks: list[list[_Listed]] = [[]]
    room = PAGE_BYTES - 512  # the page's heading lines
    used = 0
    for e in entries:
        size = len(e.line.encode("utf-8")) + 1
        if chunks[-1] and (len(chunks[-1]) >= MAX_ENTRIES or used + size > room):
            chunks.append([])
            used = 0
        chunks[-1].append(e)
        used += size
    pages: dict[str, str] = {}
    ranges = []
    width = len(str(len(chunks)))
    for k, chunk in enumerate(chunks, start=1):
        path = f"{folder}/{CATEGORY_PAGES}/{level}-{k:0{width}d}/subindex.md"
        n = sum(e.documents for e in chunk)
        summary = f"{chunk[0].first} … {chunk[-1].last}: {n} of {total} {what}"
        pages[path] = page(head(summary, top) + [e.line for e in chunk])
        line = f"- [{chunk[0].first} … {chunk[-1].last}]({link(path)}): {n} documents"
        ranges.append(_Listed(line, chunk[0].first, chunk[-1].last, n))
    return pages | _category_pages(folder, cat, what, ranges, level + 1)


def render_index(name: str, description: str, metas: Sequence[DocMeta]) -> str:
    """The root ``index.md`` alone."""
    return render_indexes(name, description, metas)["index.md"]
