"""Tables of contents: the root ``index.md`` (llms.txt-compatible) and ``subindex.md`` pages.

Pure and byte-stable: the same metas give the same Markdown. Every entry carries what a model needs
to choose without opening it: title, clause (range), pages, size and the section's gist (its own
first words per part or point). The pieces of a split article are listed under its title, printed
once. Links in subindex pages are shelf-absolute (``/docs/…``): the same path from every page, what
``fetch`` takes, and what Git hosting renders from the repository root.

The tree is balanced for a small navigating model, which pays for every byte it reads: a subindex
page holds at most ``MAX_ENTRIES`` entries and ``PAGE_BYTES`` bytes. A document over either gets one
page per top-level group of its own (Раздел / Глава / Appendix) under its own subindex, and a group
still over gets pages per its own sub-groups, and so on; sections outside any group that still do
not fit are packed, in order, into pages of consecutive sections (a whole article number or control
family together where it fits). Gists share what a page's budget leaves: a short one whole, the rest
cut at a part boundary. A category with too many documents gets its own page under the root index.
Short lists stay flat, so no level exists only to hold two or three links.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby

from slugify import slugify

from docshelf.build.gist import fit
from docshelf.law.editions import edition_facts
from docshelf.law.grammar import HEADINGS
from docshelf.records import DocMeta, SectionMeta

MAX_ENTRIES = 60
# A subindex page's budget in UTF-8 bytes. Measured with bench/navigate.py (bench/README.md,
# "Navigation"): 8 KB keeps a chapter of a big law on one page with a few words of gist per article.
PAGE_BYTES = 8 * 1024
MIN_GIST_BYTES = 48  # less than this says nothing: a page that cannot give each gist this much is split
CONTENTS_BYTES = 240  # the least of a chapter's contents its parent page must have room for
_DASH = " — "
_PIECE = re.compile(r"^(?P<title>.+?) \((?P<piece>[^()]+)\)$")  # «Статья 8. Право … (ч. 9–10)», «4.3. UPDATE (1/3)»
# The family of a clause or a numbered title, for packing loose sections: «ст. 10.2-1» → «10»,
# «AC-2» → «AC», «V1.2 Аутентификация» → «V1»; a label word («Статья», «ст.») is skipped first.
_LABEL = re.compile(r"^[^\W\d]+\.?\s+")
_FAMILY = re.compile(r"^(?:[A-Z]{1,3}(?=-\d)|[^\W\d]{0,2}\d+)")

# A page line: its text, the gist it may show after « — » as far as the budget allows, and the least of
# that gist the page must have room for (else it is split further).
Line = tuple[str, str, int]


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


def _bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def _fit(lines: Sequence[Line], budget: int = PAGE_BYTES) -> str:
    """The page with every gist cut to its share of what the bare page leaves of ``budget``."""
    texts = [text for text, _gist, _least in lines]
    shown = fit([gist for _text, gist, _least in lines], budget - _bytes(_page(texts)), _DASH)
    return _page([f"{text}{_DASH}{gist}" if gist else text for text, gist in zip(texts, shown, strict=True)])


def _over(lines: Sequence[Line], budget: int = PAGE_BYTES) -> bool:
    """More entries than a model should scan, or no room for the least of every gist within the budget."""
    entries = sum(1 for text, _gist, _least in lines if text.lstrip().startswith("- ["))
    least = sum(min(least, _bytes(_DASH + gist)) for _text, gist, least in lines if gist)
    return entries > MAX_ENTRIES or _bytes(_page([text for text, _gist, _least in lines])) + least > budget


def _entry(s: SectionMeta, label: str = "", indent: str = "") -> Line:
    facts = (s.clause if not label else "", _pages(s.pages) if not label else "", _size(s.tokens, s.bytes))
    note = " · ".join(p for p in facts if p)
    return f"{indent}- [{label or s.title}]({link(s.path)}): {note}", s.gist, MIN_GIST_BYTES


def _runs(sections: Sequence[SectionMeta]) -> Iterator[list[SectionMeta]]:
    """Consecutive sections, the pieces of one split article together (same clause, same title before «(…)»;
    an unnumbered heading's pieces too, «APPENDIX H … (1/12)» to «(12/12)»)."""
    run: list[SectionMeta] = []
    for s in sections:
        if (
            run
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


def _heading(depth: int, text: str) -> list[Line]:
    return [("", "", 0), ("#" * min(depth + 2, 6) + " " + text, "", 0), ("", "", 0)]


def _listing(sections: Sequence[SectionMeta], skip: int) -> list[Line]:
    """Entries with their group headings (groups after the first ``skip`` levels)."""
    lines: list[Line] = []
    current: list[str] = []
    for run in _runs(sections):
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
        head = " · ".join(p for p in (first.clause, span, f"{len(run)} parts", total) if p)
        lines.append((f"- {_piece(first)[0]}: {head}", "", 0))
        lines += [_entry(s, label=_piece(s)[1], indent="  ") for s in run]
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
    title = _piece(s)[0] or s.title
    for kind in HEADINGS:
        if m := kind.heading.match(title):
            end = m.end(1) if m.group(1) is not None else m.end()
            return title[end:].lstrip(" .:").strip()
    return title.strip()


def _clause_range(sections: Sequence[SectionMeta]) -> str:
    """«ст. 1–20», «§2.1–§2.3», «AC-1–AU-9»: the range of the clauses of the commonest label (a chapter's
    own «гл. 1» beside its articles is left out); "" without clauses."""
    labels = [c.split(" ")[0] if " " in c else "" for s in sections if (c := s.clause)]
    if not labels:
        return ""
    label = Counter(labels).most_common(1)[0][0]
    clauses = [c for s in sections if (c := s.clause) and (c.split(" ")[0] if " " in c else "") == label]
    first, last = clauses[0], clauses[-1]
    if first == last:
        return first
    return f"{first}–{last[len(label) + 1 :]}" if label else f"{first}–{last}"


# ---------------------------------------------------------------------------------------------------
# Paging: what goes on a page, and what gets a page of its own below it.


@dataclass(frozen=True)
class _Loose:
    """Consecutive sections listed on the page itself (no group at this level, or it was expanded)."""

    sections: tuple[SectionMeta, ...]
    skip: int


@dataclass(frozen=True)
class _Child:
    """A page below: a group of the document's own (``kind`` «g») or a packed run of loose sections («p»)."""

    title: str
    members: tuple[SectionMeta, ...]
    skip: int  # group levels the child's page no longer prints as headings
    kind: str


_Item = _Loose | _Child | str  # a str is a group heading shown on the page, its depth in leading «#»


def _items(sections: Sequence[SectionMeta], skip: int, depth: int = 0) -> list[_Item]:
    """The page's items at group level ``skip``: a page per group, loose sections in place.

    A lone group (the Constitution's «РАЗДЕЛ ПЕРВЫЙ» around all its chapters) would make a level with
    one link: it becomes a heading over its own items instead. A section that only repeats the next
    group's heading («ГЛАВА 1» over «ОСНОВЫ …», outside the chapter) goes into that group's page.
    """
    keyed = groupby(sections, key=lambda s: s.groups[skip] if len(s.groups) > skip else None)
    runs = [(key, list(run)) for key, run in keyed]
    for n in range(len(runs) - 1, 0, -1):
        (before, loose), (key, members) = runs[n - 1], runs[n]
        if before is None and key is not None and _same(_piece(loose[-1])[0] or loose[-1].title, key):
            own = list(_runs(loose))[-1]  # the heading's text, all its pieces
            members[:0] = own
            del loose[-len(own) :]
    runs = [(key, run) for key, run in runs if run]
    grouped = [run for key, run in runs if key is not None]
    lone = len(grouped) == 1 and (len(runs) == 1 or any(len(s.groups) > skip + 1 for s in grouped[0]))
    out: list[_Item] = []
    for n, (key, run) in enumerate(runs):
        if lone and key is None and n and runs[n - 1][0] is not None:  # after the lone group: not in it
            out.append("#" * min(depth + 2, 6) + f" Outside {runs[n - 1][0]}")
        if key is None or len(list(_runs(run))) == 1:  # a group of one article: listed here, under its heading
            out.append(_Loose(tuple(run), skip))
        elif lone:
            out += ["#" * min(depth + 2, 6) + " " + key, *_items(run, skip + 1, depth + 1)]
        else:
            out.append(_Child(key, tuple(run), skip + 1, "g"))
    return out


def _same(title: str, heading: str) -> bool:
    return " ".join(title.split()).casefold() == " ".join(heading.split()).casefold()


def _family(s: SectionMeta) -> str | None:
    m = _FAMILY.match(_LABEL.sub("", s.clause or _piece(s)[0] or s.title, count=1))
    return m.group(0) if m else None


def _pack(sections: Sequence[SectionMeta], skip: int, room: int) -> list[tuple[SectionMeta, ...]]:
    """Consecutive runs of ``sections`` in pages of at most ``room`` bytes (bare, with the least gists).

    A family (article 10 with 10.1–10.7, control family AC) stays on one page where it fits: a reader
    looking for «10.4» expects it beside 10.3. A section without a number stays with the one before.
    """
    families: list[list[list[SectionMeta]]] = []
    last: str | None = None
    for run in _runs(sections):
        key = _family(run[0])
        if not families or (key is not None and key != last):
            families.append([])
        families[-1].append(run)
        last = key if key is not None else last

    def cost(runs: list[list[SectionMeta]]) -> tuple[int, int]:
        lines = [line for run in runs for line in _listing(run, skip)]
        entries = sum(1 for t, _g, _least in lines if t.lstrip().startswith("- ["))
        return sum(_bytes(t) + 1 + (least if g else 0) for t, g, least in lines), entries

    pages: list[list[list[SectionMeta]]] = [[]]
    for fam in families:
        parts = [fam] if cost(fam)[0] <= room else [[run] for run in fam]  # too big: its runs one by one
        for part in parts:
            size, entries = cost(pages[-1] + part)
            if pages[-1] and (size > room or entries > MAX_ENTRIES):
                pages.append([])
            pages[-1] += part
    return [tuple(s for run in page for s in run) for page in pages if page]


def _span(members: Sequence[SectionMeta]) -> str:
    """A packed page's title: its clause range where most of it has clauses, else its first title and
    the last numbered one («V1 Архитектура … V2.10 Аутентификация сервисов», not «… Ссылки»)."""
    if 2 * sum(1 for s in members if s.clause) >= len(members) and (span := _clause_range(members)):
        return span
    last = next((s for s in reversed(members) if _family(s)), members[-1])
    first, end = (" ".join((_piece(s)[0] or s.title).split()[:6]) for s in (members[0], last))
    return first if first == end else f"{first} … {end}"


def _child_line(child: _Child, path: str) -> Line:
    members = child.members
    span = _clause_range(members)
    facts = [span if span != child.title else "", f"{len(members)} sections"]
    facts.append(_size(sum(s.tokens for s in members), sum(s.bytes for s in members)))
    text = f"- [{child.title}]({link(path)}): " + " · ".join(f for f in facts if f)
    named = [t for t in _contents(members).split(" · ") if not _same(t, child.title)]
    return text, " · ".join(named), CONTENTS_BYTES


def _paths(items: Sequence[_Item], folder: str) -> dict[int, str]:
    """The subindex path of every child page: g01-… for groups, p01-… for packed runs, in order."""
    count = {"g": 0, "p": 0}
    out = {}
    for n, item in enumerate(items):
        if isinstance(item, _Child):
            count[item.kind] += 1
            slug = slugify(item.title, max_length=40, word_boundary=True) or "group"
            out[n] = f"{folder}/{item.kind}{count[item.kind]:02d}-{slug}/subindex.md"
    return out


def _lines(items: Sequence[_Item], paths: dict[int, str]) -> list[Line]:
    lines: list[Line] = []
    for n, item in enumerate(items):
        if isinstance(item, str):
            lines += [("", "", 0), (item, "", 0), ("", "", 0)]
        elif isinstance(item, _Child):
            lines.append(_child_line(item, paths[n]))
        elif len(groups := item.sections[0].groups) <= item.skip:
            lines += _listing(item.sections, item.skip)
        else:
            # A group of one article among pages of groups: its name over the entry, indented, not a
            # heading (a heading would seem to hold the links after it too).
            lines.append((f"- {' / '.join(groups[item.skip :])}: " + _clause_range(item.sections), "", 0))
            lines += [("  " + text, gist, least) for text, gist, least in _listing(item.sections, len(groups))]
    return lines


def _render(meta: DocMeta, path: str, head: list[str], sections: Sequence[SectionMeta], skip: int) -> dict[str, str]:
    """The page at ``path`` listing ``sections`` (groups above ``skip`` already shown), and the pages below it."""
    top = [(h, "", 0) for h in head]
    flat = top + _listing(sections, skip)
    if not _over(flat):
        return {path: _fit(flat)}
    items = _items(sections, skip)
    paths = _paths(items, posixpath.dirname(path))
    # What a packed page's entries may take: its header has a short title (a clause range, or the first
    # words of two titles) and the line back up here.
    room = PAGE_BYTES - _bytes(f"# {'x' * 240}\n\n> {meta.id} · {meta.title} · [up]({link(path)})\n\n")
    while _over(lines := top + _lines(items, paths)):
        # Still over: the biggest run of loose sections gets pages of its own (never one section alone).
        loose = [
            (len(_listing(it.sections, it.skip)), -n, n)
            for n, it in enumerate(items)
            if isinstance(it, _Loose) and len(list(_runs(it.sections))) > 1
        ]
        if not loose:
            break
        n = max(loose)[2]
        run = items[n]
        assert isinstance(run, _Loose)
        items[n : n + 1] = [_Child(_span(p), p, run.skip, "p") for p in _pack(run.sections, run.skip, room)]
        paths = _paths(items, posixpath.dirname(path))
    if not paths:
        return {path: _fit(flat)}  # nothing to split by: the gists shrink instead
    pages = {path: _fit(lines)}
    for n, child in paths.items():
        item = items[n]
        assert isinstance(item, _Child)
        body = [f"# {item.title}", "", f"> {meta.id} · {meta.title} · [up]({link(path)})", ""]
        if item.kind == "p":  # packed to fit: listed whole, never split again
            pages[child] = _fit([(h, "", 0) for h in body] + _listing(item.members, item.skip))
        else:
            pages.update(_render(meta, child, body, item.members, item.skip))
    return pages


def render_subindexes(meta: DocMeta) -> dict[str, str]:
    """Every subindex page of one split document: path -> Markdown, the document's own page first."""
    return _render(meta, meta.entry, _doc_header(meta, meta.title), meta.sections, 0)


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
            body = [f"# {cat}", "", f"> {len(docs)} documents of {name} · [up]({link('index.md')})", ""]
            pages[path] = _page(body + [_doc_line(m, absolute=True) for m in docs])
        lines.append("")
    pages["index.md"] = _page(lines)
    return pages


def render_index(name: str, description: str, metas: Sequence[DocMeta]) -> str:
    """The root ``index.md`` alone."""
    return render_indexes(name, description, metas)["index.md"]
