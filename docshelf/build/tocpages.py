"""Paging a document's table of contents: what goes on a subindex page, and what gets a page below it.

The tree is balanced for a small navigating model, which pays for every byte it reads: a subindex
page holds at most ``MAX_ENTRIES`` entries and ``PAGE_BYTES`` bytes. A document over either gets one
page per top-level group of its own (Раздел / Глава / Appendix) under its own subindex, and a group
still over gets pages per its own sub-groups, and so on; sections outside any group that still do
not fit are packed, in order, into pages of consecutive sections (a whole article number or control
family together where it fits; a run of pieces too long for one page is cut between pieces). Gists
share what a page's budget leaves: a short one whole, the rest cut at a part boundary. Short lists
stay flat, so no level exists only to hold two or three links.

This module decides the pages; how a line reads is the renderer's (:mod:`docshelf.build.toc`), which
hands its lines in as a :class:`Lister` so that the budget is measured on the page as written.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Protocol

from slugify import slugify

from docshelf.build.gist import fit as fit_gists
from docshelf.records import SectionMeta

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


@dataclass(frozen=True)
class Loose:
    """Consecutive sections listed on the page itself (no group at this level, or it was expanded)."""

    sections: tuple[SectionMeta, ...]
    skip: int


@dataclass(frozen=True)
class Child:
    """A page below: a group of the document's own (``kind`` «g») or a packed run of loose sections («p»)."""

    title: str
    members: tuple[SectionMeta, ...]
    skip: int  # group levels the child's page no longer prints as headings
    kind: str


Item = Loose | Child | str  # a str is a group heading shown on the page, its depth in leading «#»


class Lister(Protocol):
    """The renderer's lines for one document, which paging measures against the budget."""

    def listing(self, sections: Sequence[SectionMeta], skip: int) -> list[Line]:
        """Entries for ``sections`` with their group headings (groups after the first ``skip`` levels)."""
        ...

    def items(self, items: Sequence[Item], paths: Mapping[int, str]) -> list[Line]:
        """A page's lines for ``items``; ``paths`` holds the subindex path of every ``Child`` by position."""
        ...

    def header(self, title: str, up: str) -> list[str]:
        """The header of a page below the page at ``up``."""
        ...


def page(lines: list[str]) -> str:
    """The page's text: blank-line runs dropped (so the output is stable whatever the grouping), one final newline."""
    return "\n".join(_tidy(lines)).rstrip("\n") + "\n"


def _tidy(lines: list[str]) -> Iterable[str]:
    prev_blank = False
    for ln in lines:
        blank = not ln.strip()
        if blank and prev_blank:
            continue
        prev_blank = blank
        yield ln


def _bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def fit(lines: Sequence[Line], budget: int = PAGE_BYTES) -> str:
    """The page with every gist cut to its share of what the bare page leaves of ``budget``."""
    texts = [text for text, _gist, _least in lines]
    shown = fit_gists([gist for _text, gist, _least in lines], budget - _bytes(page(texts)), _DASH)
    return page([f"{text}{_DASH}{gist}" if gist else text for text, gist in zip(texts, shown, strict=True)])


def over(lines: Sequence[Line], budget: int = PAGE_BYTES) -> bool:
    """More entries than a model should scan, or no room for the least of every gist within the budget."""
    entries = sum(1 for text, _gist, _least in lines if text.lstrip().startswith("- ["))
    least = sum(min(least, _bytes(_DASH + gist)) for _text, gist, least in lines if gist)
    return entries > MAX_ENTRIES or _bytes(page([text for text, _gist, _least in lines])) + least > budget


def runs(sections: Sequence[SectionMeta]) -> Iterator[list[SectionMeta]]:
    """Consecutive sections, the pieces of one split article together (same clause, same title before «(…)»;
    an unnumbered heading's pieces too, «APPENDIX H … (1/12)» to «(12/12)»). A run is never cut across pages."""
    run: list[SectionMeta] = []
    for s in sections:
        if (
            run
            and s.clause == run[0].clause
            and s.groups == run[0].groups
            and piece(s)[0]
            and (piece(s)[0] == piece(run[0])[0])
        ):
            run.append(s)
            continue
        if run:
            yield run
        run = [s]
    if run:
        yield run


def piece(s: SectionMeta) -> tuple[str, str]:
    """(title, piece) of a split article's piece: «Статья 8. Право …», «ч. 9–10»; ("", "") otherwise."""
    m = _PIECE.match(s.title)
    return (m.group("title"), m.group("piece")) if m else ("", "")


def same(title: str, heading: str) -> bool:
    """The same words, whatever the spacing and case («ГЛАВА 1» and «Глава  1»)."""
    return " ".join(title.split()).casefold() == " ".join(heading.split()).casefold()


def clause_range(sections: Sequence[SectionMeta]) -> str:
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


def _items(sections: Sequence[SectionMeta], skip: int, depth: int = 0) -> list[Item]:
    """The page's items at group level ``skip``: a page per group, loose sections in place.

    A lone group (the Constitution's «РАЗДЕЛ ПЕРВЫЙ» around all its chapters) would make a level with
    one link: it becomes a heading over its own items instead. A section that only repeats the next
    group's heading («ГЛАВА 1» over «ОСНОВЫ …», outside the chapter) goes into that group's page.
    """
    keyed = groupby(sections, key=lambda s: s.groups[skip] if len(s.groups) > skip else None)
    grouped_runs = [(key, list(run)) for key, run in keyed]
    for n in range(len(grouped_runs) - 1, 0, -1):
        (before, loose), (key, members) = grouped_runs[n - 1], grouped_runs[n]
        if before is None and key is not None and same(piece(loose[-1])[0] or loose[-1].title, key):
            own = list(runs(loose))[-1]  # the heading's text, all its pieces
            members[:0] = own
            del loose[-len(own) :]
    grouped_runs = [(key, run) for key, run in grouped_runs if run]
    grouped = [run for key, run in grouped_runs if key is not None]
    lone = len(grouped) == 1 and (len(grouped_runs) == 1 or any(len(s.groups) > skip + 1 for s in grouped[0]))
    out: list[Item] = []
    for n, (key, run) in enumerate(grouped_runs):
        if lone and key is None and n and grouped_runs[n - 1][0] is not None:  # after the lone group: not in it
            out.append("#" * min(depth + 2, 6) + f" Outside {grouped_runs[n - 1][0]}")
        if key is None or len(list(runs(run))) == 1:  # a group of one article: listed here, under its heading
            out.append(Loose(tuple(run), skip))
        elif lone:
            out += ["#" * min(depth + 2, 6) + " " + key, *_items(run, skip + 1, depth + 1)]
        else:
            out.append(Child(key, tuple(run), skip + 1, "g"))
    return out


def _family(s: SectionMeta) -> str | None:
    m = _FAMILY.match(_LABEL.sub("", s.clause or piece(s)[0] or s.title, count=1))
    return m.group(0) if m else None


def _pack(sections: Sequence[SectionMeta], skip: int, room: int, lister: Lister) -> list[tuple[SectionMeta, ...]]:
    """Consecutive runs of ``sections`` in pages of at most ``room`` bytes (bare, with the least gists).

    A family (article 10 with 10.1–10.7, control family AC) stays on one page where it fits: a reader
    looking for «10.4» expects it beside 10.3. A section without a number stays with the one before.
    """
    families: list[list[list[SectionMeta]]] = []
    last: str | None = None
    for run in runs(sections):
        key = _family(run[0])
        if not families or (key is not None and key != last):
            families.append([])
        families[-1].append(run)
        last = key if key is not None else last

    def cost(fam_runs: list[list[SectionMeta]]) -> tuple[int, int]:
        lines = [line for run in fam_runs for line in lister.listing(run, skip)]
        entries = sum(1 for t, _g, _least in lines if t.lstrip().startswith("- ["))
        return sum(_bytes(t) + 1 + (least if g else 0) for t, g, least in lines), entries

    def cut(run: list[SectionMeta]) -> list[list[list[SectionMeta]]]:
        """A run of pieces too long for any page (a fallback cut into a hundred parts): in page-sized runs."""
        if cost([run])[0] <= room:
            return [[run]]
        chunks: list[list[SectionMeta]] = [[]]
        for s in run:
            if chunks[-1] and (cost([chunks[-1] + [s]])[0] > room or len(chunks[-1]) >= MAX_ENTRIES - 1):
                chunks.append([])
            chunks[-1].append(s)
        return [[chunk] for chunk in chunks]

    pages: list[list[list[SectionMeta]]] = [[]]
    for fam in families:
        parts = [fam] if cost(fam)[0] <= room else [c for run in fam for c in cut(run)]  # too big: run by run
        for part in parts:
            size, entries = cost(pages[-1] + part)
            if pages[-1] and (size > room or entries > MAX_ENTRIES):
                pages.append([])
            pages[-1] += part
    return [tuple(s for run in packed for s in run) for packed in pages if packed]


def _span(members: Sequence[SectionMeta]) -> str:
    """A packed page's title: its clause range where most of it has clauses, else its first title and
    the last numbered one («V1 Архитектура … V2.10 Аутентификация сервисов», not «… Ссылки»)."""
    if 2 * sum(1 for s in members if s.clause) >= len(members) and (span := clause_range(members)):
        return span
    last = next((s for s in reversed(members) if _family(s)), members[-1])
    first, end = (" ".join((piece(s)[0] or s.title).split()[:6]) for s in (members[0], last))
    return first if first == end else f"{first} … {end}"


def _paths(items: Sequence[Item], folder: str) -> dict[int, str]:
    """The subindex path of every child page: g01-… for groups, p01-… for packed runs, in order."""
    count = {"g": 0, "p": 0}
    out = {}
    for n, item in enumerate(items):
        if isinstance(item, Child):
            count[item.kind] += 1
            slug = slugify(item.title, max_length=40, word_boundary=True) or "group"
            out[n] = f"{folder}/{item.kind}{count[item.kind]:02d}-{slug}/subindex.md"
    return out


def _packed_until_fits(items: list[Item], top: list[Line], room: int, lister: Lister, folder: str) -> list[Item]:
    """While the page is over, the biggest run of loose sections gets pages of its own (never one section
    alone; the pieces of one section only when they fill half a page: an act's preamble cut in fifty parts)."""
    items = list(items)
    while over(top + lister.items(items, _paths(items, folder))):
        loose = [
            (len(lister.listing(it.sections, it.skip)), -n, n)
            for n, it in enumerate(items)
            if isinstance(it, Loose)
            and (len(list(runs(it.sections))) > 1 or over(lister.listing(it.sections, it.skip), room // 2))
        ]
        if not loose:
            break
        n = max(loose)[2]
        run = items[n]
        assert isinstance(run, Loose)
        items[n : n + 1] = [Child(_span(p), p, run.skip, "p") for p in _pack(run.sections, run.skip, room, lister)]
    return items


def _inlined(items: list[Item], top: list[Line], room: int, lister: Lister, folder: str) -> list[Item]:
    """The items with a group whose own page would be only links to packed pages (SP 800-53's appendix F:
    AC-1–AT-5, AU-1–CM-9, …) linked from here instead, each named with its group, where this page has room
    once its loose sections are packed if need be: a reader reaches a control in one index read fewer, and the
    loose pages (appendices of tables) are a read further."""
    out = list(items)
    for n in range(len(out) - 1, -1, -1):
        child = out[n]
        if not isinstance(child, Child) or child.kind != "g":
            continue
        flat = lister.listing(child.members, child.skip)
        inner = _items(child.members, child.skip)
        if not over(flat) or len(inner) != 1 or not isinstance(inner[0], Loose):
            continue  # its page lists its sections, or has groups of its own: it stays a page
        packs = _pack(child.members, child.skip, room, lister)
        packed = [Child(f"{child.title}: {_span(p)}", p, child.skip, "p") for p in packs]
        trial = _packed_until_fits([*out[:n], *packed, *out[n + 1 :]], top, room, lister, folder)
        if not over(top + lister.items(trial, _paths(trial, folder))):
            out = trial
    return out


def paginate(path: str, head: list[str], sections: Sequence[SectionMeta], skip: int, lister: Lister) -> dict[str, str]:
    """The page at ``path`` listing ``sections`` under ``head`` (groups above ``skip`` already shown), and the
    pages below it: path -> Markdown, this page first."""
    top = [(h, "", 0) for h in head]
    flat = top + lister.listing(sections, skip)
    if not over(flat):
        return {path: fit(flat)}
    items, folder = _items(sections, skip), posixpath.dirname(path)
    # What a packed page's entries may take: its header has a short title (a clause range, or the first
    # words of two titles) and the line back up here; written as the header's lines join, blank line after.
    room = PAGE_BYTES - _bytes("\n".join(lister.header("x" * 240, path)) + "\n")
    items = _packed_until_fits(items, top, room, lister, folder)
    if not _paths(items, folder):
        return {path: fit(flat)}  # nothing to split by: the gists shrink instead
    items = _inlined(items, top, room, lister, folder)
    paths = _paths(items, folder)
    lines = top + lister.items(items, paths)
    pages = {path: fit(lines)}
    for n, child in paths.items():
        item = items[n]
        assert isinstance(item, Child)
        body = lister.header(item.title, path)
        if item.kind == "p":  # packed to fit: listed whole, never split again
            pages[child] = fit([(h, "", 0) for h in body] + lister.listing(item.members, item.skip))
        else:
            pages.update(paginate(child, body, item.members, item.skip, lister))
    return pages
