"""One document from source bytes to its shelf files: convert → clean → structure → split → render.

Pure: no disk, no Git. ``shelf.py`` decides where the files go and commits them.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from docshelf import convert
from docshelf.build import quality, toc
from docshelf.build.addresses import printed_labels
from docshelf.build.clean import clean
from docshelf.build.completeness import (
    contents_blocks,
    contents_entries,
    contents_numbers,
    expected_clauses,
    missing_clauses,
    numbering_problems,
    paragraph_bookmarks,
)
from docshelf.build.docmap import Found, find_map
from docshelf.build.footnotes import attach_footnotes, notes_go_on
from docshelf.build.gist import gist
from docshelf.build.ids import category_path, derive_id, doc_slug
from docshelf.build.options import ShelfConfig
from docshelf.build.repeated import drop_repeated_notes, qualify_repeated
from docshelf.build.split import Section, split_document, whole_document
from docshelf.build.structure import find_headings
from docshelf.build.titles import document_title
from docshelf.law import grammar
from docshelf.law.census import Census, census
from docshelf.law.clauses import printed_headings, section_clauses
from docshelf.law.outline import Open
from docshelf.law.repealed import OPENING_LINES, repeal_notice, stated_repeal
from docshelf.model import Block
from docshelf.records import Clause, DocMeta, SectionMeta, SourceFile

_LATIN = re.compile(r"[A-Za-z]")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_LATIN_RUN = re.compile(r"[A-Za-z]+")
_CYRILLIC_RUN = re.compile(r"[А-Яа-яЁё]+")


@dataclass(frozen=True)
class DocOptions:
    """What the maintainer said about a document at ``add``; stored in its meta for ``rebuild``."""

    source: str  # file name under sources/
    category: str = ""
    id: str = ""
    title: str = ""
    quality: str = "fast"
    split: bool = True
    edition: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class BuiltDoc:
    """A built document: files relative to the shelf root, and its meta record."""

    id: str
    title: str
    category: str  # folder path under docs/
    slug: str
    files: dict[str, str]  # shelf-relative path -> text
    meta: DocMeta

    @property
    def meta_path(self) -> str:
        return f"docs/{self.category}/{self.slug}.meta.json"

    @property
    def entry_path(self) -> str:
        """The file a table of contents links to: the subindex of a split document, else the document."""
        return self.meta.entry


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def approx_tokens(text: str) -> int:
    """A tokenizer-free estimate: ~3.2 characters per token for Russian, ~4 for English."""
    head = text[:20000]
    cyr = sum(map(len, _CYRILLIC_RUN.findall(head)))  # letters counted by runs: a list of words, not of letters
    lat = sum(map(len, _LATIN_RUN.findall(head)))
    per_token = 3.2 if cyr >= lat else 4.0
    return max(1, round(len(text) / per_token))


def build_document(data: bytes, options: DocOptions, config: ShelfConfig) -> BuiltDoc:
    """Convert and split one source into its shelf files (see the module docstring)."""
    converted = convert.convert(data, name=options.source, quality=options.quality, pdf_engine=config.pdf_engine)
    blocks = clean(converted.blocks)
    if not any(b.text.strip() for b in blocks):
        from docshelf.errors import ConversionError

        raise ConversionError(
            f"{options.source}: the document is empty after conversion. Check that it has text.",
            source=options.source,
        )
    map_source, entries = contents_entries(converted.outline, blocks)
    printed = contents_blocks(blocks) if map_source == "contents" else frozenset()
    blocks, mapped, unmapped = find_map(blocks, entries, outline=map_source == "outline", contents=printed)
    headings = find_headings(blocks, contents_numbers(converted.outline, blocks), mapped)
    stem = options.source.rsplit(".", 1)[0]
    title, title_source = document_title(
        blocks, headings, given=options.title, metadata=converted.title, file_stem=stem
    )
    found_id = "" if options.id else derive_id(blocks, "")
    doc_id = options.id or found_id or stem
    id_source = "given" if options.id else "document" if found_id else "file name"
    english = _english(blocks, title)
    category = category_path(options.category or config.default_category)
    slug = doc_slug(doc_id)
    total = sum(len(b.text) for b in blocks)
    split = options.split and total >= config.split.min_split_chars
    if split:
        sections = split_document(
            blocks, headings, max_chars=config.split.max_section_chars, english=english, preamble_title=title
        )
    else:
        sections = [whole_document(blocks, headings, title)]
    base = f"docs/{category}/{slug}"
    files: dict[str, str] = {}
    records = []
    known: set[str] = set()  # the labels the document has placed so far: «6.1.1» nests under a known «6.1»
    # An English act's sections before its first article are its preamble: «(1)», «(2)» there are recitals.
    first_article = next((n for n, s in enumerate(sections) if english and grammar.is_en_article(s.clause)), None)
    if not split and english and any(h.kind == "article" for h in headings):
        first_article = 1  # one file: its text before the first article heading is the preamble
    act = first_article is not None
    titles = _unique_titles(sections)
    once = _headings_printed_once(sections)
    ids = census(s.markdown for s in sections)
    part = ""  # the annex or appendix the sections after its heading sit in, up to the next numbered one
    opened: list[Open] = []  # the clauses a piece leaves open, for the piece that goes on from it
    for n, s in enumerate(sections):
        if not s.continues:
            opened.clear()
        part = s.clause if s.clause.startswith(grammar.PART_PREFIXES) else part if not s.clause else ""
        path = f"{base}/{s.slug}.md" if split else f"{base}.md"
        markdown = _with_breadcrumb(s, doc_id, english)
        files[path] = markdown
        preamble = first_article is not None and n < first_article
        heading = titles.get(n, "")
        record = _section_record(
            path,
            s,
            markdown,
            english,
            known,
            preamble=preamble,
            title=heading,
            part=part,
            headings=once,
            census=ids,
            carried=opened,
        )
        records.append(record)
    records, footnotes = attach_footnotes(records, files, english, act=act)
    records = notes_go_on(records, files, [s.continues for s in sections])
    records, repeated = qualify_repeated(drop_repeated_notes(records), english)
    # A contents page not updated after the text was renumbered: the text's own numbers are the addresses.
    moved = {grammar.section_id(f.listed): grammar.section_id(f.number) for f in mapped if f.listed}
    meta = DocMeta(
        id=doc_id,
        title=title,
        category=category,
        entry=f"{base}/subindex.md" if split else f"{base}.md",
        source=SourceFile(f"sources/{options.source}", sha256(data), len(data)),
        converter={"name": converted.converter, "version": converted.converter_version},
        pages=converted.pages,
        language="en" if english else "ru",
        options={"quality": options.quality, "split": options.split},
        edition=_edition(options.edition, stated_repeal(b.text for b in blocks[:OPENING_LINES])),
        section_data=tuple(records),
        expected_clauses=tuple(moved.get(c, c) for c in expected_clauses(converted.outline, blocks, english)),
    )
    warnings = [
        *converted.warnings,
        *_renumbered_warning([f for f in mapped if f.listed]),
        *(f"completeness: {c} is announced by the document's contents but not found" for c in missing_clauses(meta)),
        *(f"numbering: {p}" for p in numbering_problems(meta)),
    ]
    if notice := repeal_notice(meta.edition.get("stated_repealed"), meta.edition):
        warnings.append(notice)
    report = quality.assess(
        contents=(map_source, entries, unmapped),
        blocks=blocks,
        headings=headings,
        sections=quality.section_view(records, files),
        meta=meta,
        title_source=title_source,
        id_source=id_source,
        addresses={**printed_labels(records, files), "footnotes": footnotes, "printed_twice": repeated},
        bookmarks=paragraph_bookmarks(converted.outline),
    )
    meta = replace(meta, warnings=tuple(warnings), quality=report)
    if split:
        files.update(toc.render_subindexes(meta))
    files[f"{base}.meta.json"] = meta.dumps()
    return BuiltDoc(doc_id, title, category, slug, files, meta)


def _renumbered_warning(moved: Sequence[Found]) -> list[str]:
    if not moved:
        return []
    shown = ", ".join(f"«{f.listed}» is «{f.number}»" for f in moved[:3])
    return [
        f"contents: the printed contents numbers {len(moved)} headings otherwise than the text ({shown}); the "
        "text's numbers are the addresses. Update the contents field of the source if it is a word processor's."
    ]


def _with_breadcrumb(s: Section, doc_id: str, english: bool) -> str:
    """Show the reader where the section sits: «> 152-ФЗ · ст. 12 · стр. 11–12», under its heading.

    A quote line (``>``) is DocShelf's mark for text that is not the act's own: verification skips it.
    """
    pages = "" if not s.pages[0] else str(s.pages[0]) if s.pages[0] == s.pages[1] else f"{s.pages[0]}–{s.pages[1]}"
    parts = [doc_id, s.part, s.clause, f"{'p.' if english else 'стр.'} {pages}" if pages else ""]
    line = grammar.editorial(" · ".join(p for p in parts if p))
    head, sep, rest = s.markdown.partition("\n\n")
    if head.startswith("#"):
        return f"{head}\n\n{line}\n\n{rest}" if sep else f"{head}\n\n{line}\n"
    return f"{line}\n\n{s.markdown}"


def _unique_titles(sections: list[Section]) -> dict[int, str]:
    """The headings of unnumbered sections that head one place only (the parts «(k/n)» of one section are
    one place), by section index: they qualify the section's list items."""
    bare = [_PART_SUFFIX.sub("", s.title).strip() if not s.clause else "" for s in sections]
    heads: dict[str, int] = {}  # sections headed so: a whole one or the first part of one
    for s, t in zip(sections, bare, strict=True):
        part = _PART_SUFFIX.search(s.title)
        if t and (part is None or part.group(1) == "1"):
            heads[t.casefold()] = heads.get(t.casefold(), 0) + 1
    return {n: t for n, t in enumerate(bare) if t and heads.get(t.casefold()) == 1}


_LANGUAGE_SAMPLE = 100_000  # characters of the text that decide its language


def _english(blocks: Sequence[Block], title: str) -> bool:
    """Whether the document is in English: by the letters of its text, not of its title (a Russian PDF with no
    title found is named by its Latin file name); by the title only when the text has no letters."""
    texts, size = [], 0
    for b in blocks:  # the first blocks only: a thousand-page text is not joined whole to count a sample
        texts.append(b.text)
        size += len(b.text)
        if size >= _LANGUAGE_SAMPLE:
            break
    sample = "".join(texts)[:_LANGUAGE_SAMPLE]
    latin, cyrillic = len(_LATIN.findall(sample)), len(_CYRILLIC.findall(sample))
    if latin == cyrillic == 0:
        latin, cyrillic = len(_LATIN.findall(title)), len(_CYRILLIC.findall(title))
    return latin > cyrillic


_PART_SUFFIX = re.compile(r"\s*\((\d+)/\d+\)$")


def _headings_printed_once(sections: list[Section]) -> frozenset[str]:
    """The heading lines printed once in the whole document: only such a heading names one place."""
    counts = Counter(h for s in sections for h in printed_headings(s.markdown))
    return frozenset(h for h, k in counts.items() if k == 1)


def _section_record(
    path: str,
    s: Section,
    markdown: str,
    english: bool,
    known: set[str],
    *,
    preamble: bool = False,
    title: str = "",
    part: str = "",
    headings: frozenset[str] = frozenset(),
    census: Census | None = None,
    carried: list[Open] | None = None,
) -> SectionMeta:
    annex = next(
        (grammar.annex_id(m.group(1)) for g in reversed(s.groups) if (m := grammar.ANNEX_HEADING.match(g))), ""
    )
    spans = tuple(
        Clause(c.id, c.start, c.end)
        for c in section_clauses(
            markdown,
            s.clause,
            english=english,
            approved=s.part,
            annex=annex,
            known=known,
            preamble=preamble,
            title=title,
            part=part,
            headings=headings,
            census=census,
            carried=carried,
        )
    )
    return SectionMeta(
        path=path,
        title=s.title,
        clause=s.clause,
        part=s.part,
        groups=tuple(s.groups),
        pages=tuple(s.pages),
        bytes=len(markdown.encode("utf-8")),
        tokens=approx_tokens(markdown),
        clauses=spans,
        gist=gist(markdown, s.clause, spans),
    )


def _edition(given: dict[str, str], said_repealed: str | None) -> dict[str, str]:
    """The edition the maintainer gave, with the document's own statement that it lost force, if it makes one."""
    edition = {k: v for k, v in given.items() if v and k != "stated_repealed"}
    return edition | ({"stated_repealed": said_repealed} if said_repealed else {})
