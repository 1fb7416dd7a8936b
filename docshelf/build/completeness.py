"""Completeness: is every article / section the document announces present on the shelf?

A missing article is the worst silent failure of a legal shelf. Two independent signals:
the document's own table of contents (a PDF outline, or a printed contents page with dot leaders
or page numbers) gives the clause numbers to expect; and article numbering must not jump or repeat.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

from docshelf.law import grammar as g
from docshelf.model import Block

_TOC_LINE = re.compile(r"(?:\.{3,}|…{2,})\s*\d{1,4}$")


def expected_clauses(outline: tuple[tuple[int, str, int], ...], blocks: tuple[Block, ...], english: bool) -> list[str]:
    """Clause ids the document's own table of contents announces (outline first, else printed contents)."""
    found = [_toc_clause(title, english) for _lvl, title, _page in outline]
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


def missing_clauses(meta: dict[str, Any]) -> list[str]:
    """Announced clauses that no section carries."""
    have = {cid for s in meta["sections"] for cid, _a, _b in s.get("clauses", [])}
    have |= {s["clause"] for s in meta["sections"]}
    english = meta.get("language") == "en"
    have |= {
        _toc_clause(g, english) for s in meta["sections"] for g in s.get("groups", [])
    }  # a heading kept as a group
    return [c for c in meta.get("expected_clauses", []) if c not in have]


def numbering_problems(meta: dict[str, Any]) -> list[str]:
    """Article numbers that repeat, go backwards or skip one («ст. 5» then «ст. 7»)."""
    seen: list[tuple[int, int]] = []
    for s in meta["sections"]:
        key = g.article_key(s.get("clause", ""))
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
