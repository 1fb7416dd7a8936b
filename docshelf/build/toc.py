"""Tables of contents: the root ``index.md`` (llms.txt-compatible) and ``subindex.md`` pages.

Pure and byte-stable: the same metas give the same Markdown. Every entry carries what a model needs
to choose without opening it: title, clause (range), pages, size and the section's gist (its own
first words per part or point, within a page budget). The pieces of a split article are listed
under its title, printed once. Links in subindex pages are shelf-absolute (``/docs/…``): the
same path from every page, what ``fetch`` takes, and what Git hosting renders from the repository
root.

The tree is balanced for a small navigating model: a page lists at most ``MAX_ENTRIES`` entries.
A longer document gets one subindex per top-level group (Раздел / Глава) under its own subindex; a
category with too many documents gets its own page under the root index. Short lists stay flat, so
no level exists only to hold two or three links.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator, Sequence

from slugify import slugify

from docshelf.law.editions import edition_facts
from docshelf.law.grammar import HEADINGS
from docshelf.records import DocMeta, SectionMeta

MAX_ENTRIES = 60
GIST_PAGE_CHARS = 4800  # all gists of one page together; each entry gets its share, 60–160 characters
GROUP_GIST_CHARS = 160  # a chapter's entry: the titles of what it holds, this long at most
_PIECE = re.compile(r"^(?P<title>.+?) \((?P<piece>[^()]+)\)$")  # «Статья 8. Право … (ч. 9–10)», «4.3. UPDATE (1/3)»


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


def _tidy(lines: list[str]) -> Iterable[str]:
    """Drop blank-line runs so the output is stable whatever the grouping."""
    prev_blank = False
    for ln in lines:
        blank = not ln.strip()
        if blank and prev_blank:
            continue
        prev_blank = blank
        yield ln


def _page(lines: list[str]) -> str:
    return "\n".join(_tidy(lines)).rstrip("\n") + "\n"


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


def _clip(gist: str, budget: int) -> str:
    """The gist cut to ``budget`` characters, at a part boundary when it has parts, else at a word."""
    if len(gist) <= budget:
        return gist
    kept = ""
    for piece in gist.split(" · "):
        if len(kept) + len(piece) + 3 > budget:
            break
        kept = f"{kept} · {piece}" if kept else piece
    return kept or gist[: budget - 1].rsplit(" ", 1)[0] + "…"


def _entry(s: SectionMeta, budget: int, label: str = "", indent: str = "") -> str:
    facts = (s.clause if not label else "", _pages(s.pages) if not label else "", _size(s.tokens, s.bytes))
    note = " · ".join(p for p in facts if p)
    gist = f" — {_clip(s.gist, budget)}" if s.gist and budget else ""
    return f"{indent}- [{label or s.title}]({link(s.path)}): {note}{gist}"


def _runs(sections: Sequence[SectionMeta]) -> Iterator[list[SectionMeta]]:
    """Consecutive sections, the pieces of one split article together (same clause, same title before «(…)»)."""
    run: list[SectionMeta] = []
    for s in sections:
        if (
            run
            and s.clause
            and s.clause == run[0].clause
            and s.groups == run[0].groups
            and _piece(s)[0]
            and (_piece(s)[0] == _piece(run[0])[0])
        ):
            run.append(s)
            continue
        if run:
            yield run
        run = [s]
    if run:
        yield run


def _piece(s: SectionMeta) -> tuple[str, str]:
    """(title, piece) of a split article's piece: «Статья 8. Право …», «ч. 9–10»; ("", "") otherwise."""
    m = _PIECE.match(s.title)
    return (m.group("title"), m.group("piece")) if m else ("", "")


def _listing(sections: Sequence[SectionMeta], skip: int) -> list[str]:
    """Entries with their group headings (groups after the first ``skip`` levels)."""
    budget = max(60, min(160, GIST_PAGE_CHARS // max(1, len(sections))))
    lines: list[str] = []
    current: list[str] = []
    for run in _runs(sections):
        groups = run[0].groups[skip:]
        common = 0
        while common < min(len(groups), len(current)) and groups[common] == current[common]:
            common += 1
        for depth in range(common, len(groups)):
            lines += ["", "#" * min(depth + 2, 6) + " " + groups[depth], ""]
        current = list(groups)
        if len(run) == 1:
            lines.append(_entry(run[0], budget))
            continue
        first, last = run[0], run[-1]
        span = _pages((first.pages[0], last.pages[-1])) if first.pages and last.pages else ""
        total = _size(sum(s.tokens for s in run), sum(s.bytes for s in run))
        head = " · ".join(p for p in (first.clause, span, f"{len(run)} parts", total) if p)
        lines.append(f"- {_piece(first)[0]}: {head}")
        lines += [_entry(s, budget, label=_piece(s)[1], indent="  ") for s in run]
    return lines


def _contents(members: Sequence[SectionMeta]) -> str:
    """What a group holds, in its own words: its sections' titles, numbers cut, each title once.

    «Глава 8. Служебное время и время отдыха» says nothing of leave; «Служебное время · Отпуска на
    гражданской службе» does. The group's own heading, repeated as a section, is left out.
    """
    named = dict.fromkeys(
        t for s in members if s.title and s.title != (s.groups[-1] if s.groups else "") and (t := _unnumbered(s))
    )
    return " · ".join(named)


def _unnumbered(s: SectionMeta) -> str:
    """The section's title without its label and number («Статья 46. », «4.3. », «Appendix F.1. »).

    The heading kinds are the grammar's: the same table that made the section's clause id.
    """
    title = _piece(s)[0] or s.title
    for kind in HEADINGS:
        if m := kind.heading.match(title):
            end = m.end(1) if m.group(1) is not None else m.end()
            return title[end:].lstrip(" .:").strip()
    return title.strip()


def _clause_range(sections: Sequence[SectionMeta]) -> str:
    clauses = [s.clause for s in sections if s.clause]
    if not clauses:
        return ""
    first, last = clauses[0], clauses[-1]
    prefix = first.split(" ")[0]
    if first == last or not last.startswith(prefix + " "):
        return first
    return f"{first}–{last[len(prefix) + 1 :]}"


def render_subindexes(meta: DocMeta) -> dict[str, str]:
    """Every subindex page of one split document: path -> Markdown."""
    entry = meta.entry
    here = posixpath.dirname(entry)
    sections = meta.sections
    tops = list(dict.fromkeys(s.groups[0] for s in sections if s.groups))
    if len(sections) <= MAX_ENTRIES or len(tops) < 2:
        return {entry: _page(_doc_header(meta, meta.title) + _listing(sections, 0))}
    pages: dict[str, str] = {}
    lines = _doc_header(meta, meta.title)
    for n, top in enumerate(tops, start=1):
        members = [s for s in sections if s.groups[:1] == (top,)]
        folder = f"{here}/g{n:02d}-{slugify(top, max_length=40, word_boundary=True) or 'group'}"
        tokens, size = sum(s.tokens for s in members), sum(s.bytes for s in members)
        facts = [_clause_range(members), f"{len(members)} sections", _size(tokens, size)]
        gist = _clip(_contents(members), GROUP_GIST_CHARS)
        note = " · ".join(f for f in facts if f) + (f" — {gist}" if gist else "")
        lines.append(f"- [{top}]({link(folder)}/subindex.md): {note}")
        body = [f"# {top}", "", f"> {meta.id} · {meta.title} · [up]({link(entry)})", ""]
        pages[f"{folder}/subindex.md"] = _page(body + _listing(members, 1))
    ungrouped = [s for s in sections if not s.groups]
    if ungrouped:
        lines += ["", "## Outside the chapters", "", *_listing(ungrouped, 0)]
    pages[entry] = _page(lines)
    return pages


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
            body = [
                f"# {cat}",
                "",
                f"> {len(docs)} documents of {name} · [up]({link('index.md')})",
                "",
            ]
            pages[path] = _page(body + [_doc_line(m, absolute=True) for m in docs])
        lines.append("")
    pages["index.md"] = _page(lines)
    return pages


def render_index(name: str, description: str, metas: Sequence[DocMeta]) -> str:
    """The root ``index.md`` alone."""
    return render_indexes(name, description, metas)["index.md"]
