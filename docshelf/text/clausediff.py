"""Clause-level comparison of two editions: each clause's own text, compared typography-insensitively.

Each side's clauses come from its own clause table (the ``clauses`` spans of a document's meta), so an
inserted «ст. 3.1» is one added clause, not a renumbering of every later section. Editorial lines
(``>``) are blanked before comparing: they are not the act's text.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace

from docshelf.law.clauses import blank_editorial
from docshelf.records import DocMeta
from docshelf.text.normalize import normalize_text


@dataclass(frozen=True)
class ClauseChange:
    """One clause that differs: ``added`` / ``removed`` carry ``text``; ``changed`` a word diff."""

    clause: str
    status: str  # added | removed | changed
    path_a: str | None
    path_b: str | None
    text: str = ""  # the clause's text (new side; old side when removed)
    diff: str = ""  # «… context [-old words-]{+new words+} context …»
    ops: list[dict[str, str]] = field(default_factory=list)  # [{"op", "old", "new"}]


@dataclass(frozen=True)
class Unit:
    path: str
    own: str  # the clause without its sub-clauses, spaces collapsed, lines kept: what "changed" compares
    full: str  # the clause with its sub-clauses: what "added" / "removed" show
    order: int


def _own_texts(text: str, spans: list[tuple[str, int, int]]) -> list[tuple[str, str, str]]:
    """(clause id, own text, full text) per span; a span's own text leaves out the spans nested in it."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i][1], -spans[i][2], i))
    children: dict[int, list[int]] = {i: [] for i in order}
    stack: list[int] = []
    for i in order:
        while stack and spans[stack[-1]][2] < spans[i][2]:
            stack.pop()
        if stack:
            children[stack[-1]].append(i)
        stack.append(i)
    out = []
    for i, (cid, a, b) in enumerate(spans):
        pieces, pos = [], a
        for j in children[i]:
            pieces.append(text[pos : spans[j][1]])
            pos = max(pos, spans[j][2])
        pieces.append(text[pos:b])
        full = "\n".join(ln.rstrip() for ln in text[a:b].splitlines() if ln.strip())
        # Lines kept: a heading's «##» is markup only at a line's start, and two formats of one act set
        # headings at different levels (a PDF's «##» is a DOCX's «###»); normalization drops it there.
        own = "\n".join(" ".join(line.split()) for line in "\n".join(pieces).splitlines() if line.strip())
        out.append((cid, own, full))
    return out


def doc_units(meta: DocMeta, texts: dict[str, str]) -> dict[str, Unit]:
    """Clause id -> its text; a clause split over several section files (a long article) is joined."""
    units: dict[str, Unit] = {}
    for s in meta.sections:
        text = blank_editorial(texts.get(s.path, ""))
        spans = [(c.id, c.start, c.end) for c in s.clauses]
        if not any(a == 0 and b >= len(text.rstrip()) for _c, a, b in spans):
            spans.insert(0, (s.clause or f"«{s.title}»", 0, len(text)))  # text outside any clause
        for cid, own, full in _own_texts(text, spans):
            if (u := units.get(cid)) is None:
                units[cid] = Unit(s.path, own, full, len(units))
            else:
                units[cid] = replace(u, own=f"{u.own}\n{own}", full=f"{u.full}\n{full}")
    return units


def _document_order(ua: dict[str, Unit], ub: dict[str, Unit]) -> list[str]:
    """Clause ids of both sides in reading order: the new side's, removed ones after their old neighbour."""
    rank = {k: float(u.order) for k, u in ub.items()}
    anchor = -1.0
    for k in sorted(ua, key=lambda k: ua[k].order):
        if k in ub:
            anchor = rank[k]
        else:
            anchor += 1e-4
            rank[k] = anchor
    return sorted(rank, key=lambda k: rank[k])


def _inside(cid: str, group: set[str]) -> bool:
    """«ст. 3.1 ч. 2» inside an added «ст. 3.1»: shown once, with its parent."""
    return any(cid.startswith(p + " ") for p in group)


def compare(ua: dict[str, Unit], ub: dict[str, Unit], only: set[str] | None) -> list[ClauseChange]:
    added, removed = set(ub) - set(ua), set(ua) - set(ub)
    out = []
    for k in _document_order(ua, ub):
        if only is not None and k not in only:
            continue
        if k in added:
            if not _inside(k, added):
                out.append(ClauseChange(k, "added", None, ub[k].path, ub[k].full))
        elif k in removed:
            if not _inside(k, removed):
                out.append(ClauseChange(k, "removed", ua[k].path, None, ua[k].full))
        elif normalize_text(ua[k].own) != normalize_text(ub[k].own):
            text, ops = word_diff(ua[k].own, ub[k].own)
            out.append(ClauseChange(k, "changed", ua[k].path, ub[k].path, ub[k].full, text, ops))
    return out


def word_diff(old: str, new: str, *, context: int = 6) -> tuple[str, list[dict[str, str]]]:
    """A word-level diff: «… context [-old words-]{+new words+} context …» and its operations.

    Words are compared normalized (quotes, dashes, case), shown as written on each side.
    """
    wa, wb = old.split(), new.split()
    codes = difflib.SequenceMatcher(
        None, [normalize_text(w) for w in wa], [normalize_text(w) for w in wb], autojunk=False
    ).get_opcodes()
    parts: list[str] = []
    ops = []
    for n, (tag, i1, i2, j1, j2) in enumerate(codes):
        if tag == "equal":
            words = wa[i1:i2]
            first, last = n == 0, n == len(codes) - 1
            if first and len(words) > context:
                words = ["…", *words[-context:]]
            elif last and len(words) > context:
                words = [*words[:context], "…"]
            elif not first and not last and len(words) > 2 * context:
                words = [*words[:context], "…", *words[-context:]]
            parts.append(" ".join(words))
            continue
        old_words, new_words = " ".join(wa[i1:i2]), " ".join(wb[j1:j2])
        ops.append({"op": tag, "old": old_words, "new": new_words})
        parts.append((f"[-{old_words}-]" if old_words else "") + (f"{{+{new_words}+}}" if new_words else ""))
    return " ".join(p for p in parts if p), ops
