"""The clause table: every article, part, item, point and annex measure of a section, with its span.

Clause ids are what a lawyer writes, normalised to one spelling: ``ст. 12 ч. 3 п. 2 подп. «а»``,
``п. 29.3.2``, ``Требования п. 13`` (a point of a document approved by the act), ``прил. 2 УПД.1``,
``§4.2.1``. Spans are character offsets into the section's Markdown exactly as stored (what
``fetch`` returns), so a quote can be checked against one clause and not its neighbours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docshelf.law import grammar as g
from docshelf.law.grammar import blank_editorial

_PARA = re.compile(r"[^\n]+(?:\n(?!\n)[^\n]*)*")  # a Markdown paragraph: lines up to a blank line
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_CONTROL_DEPTH = 8  # below any numbered section («§3.1» is depth 2)


@dataclass(frozen=True)
class Clause:
    id: str
    start: int
    end: int


def section_clauses(
    markdown: str, section_clause: str, *, english: bool = False, approved: str = "", annex: str = ""
) -> list[Clause]:
    """Every clause inside one section's Markdown, outermost first, with spans into that text.

    ``approved`` names the document approved by the act (``Требования``) when the section belongs to
    it, so its points get ids like ``Требования п. 13``; ``annex`` (``прил. 2``) is the annex a
    section sits in, for its measure codes. Headings inside the text (a whole short document kept as
    one file) open their own articles, points or annexes.
    """
    kind = "rfc" if english else "law" if g.is_article(section_clause) else "order"
    outer = section_clause if kind == "law" or g.is_annex(section_clause) else annex
    base = outer or approved
    out: list[Clause] = [Clause(section_clause, 0, len(markdown))] if section_clause else []
    stack: list[tuple[int, str, int]] = []  # open clauses: (depth, id, start)
    closed: list[Clause] = []
    paragraphs = _Paragraphs()

    def close(depth: int, at: int) -> None:
        while stack and stack[-1][0] >= depth:
            _d, cid, begin = stack.pop()
            closed.append(Clause(cid, begin, _trim(markdown, at)))

    for m in _PARA.finditer(markdown):
        text, start = m.group(0), m.start()
        heading = _HEADING.match(text)
        if heading:
            found = _heading_clause(heading.group(1), kind)
            if found is None or found[1] == section_clause:
                continue
            depth, label = found
            close(depth, start)
            if depth == 0:
                kind = "law" if g.is_article(label) else kind
                base = label if g.is_article(label) or g.is_annex(label) else approved
                stack.append((0, label, start))
                continue
        elif text.startswith("|"):
            # A measure table: each row with a code («| УПД.1 | …») is its own clause under the annex.
            close(1, start)
            for row in re.finditer(r"[^\n]+", text):
                a = start + row.start()
                if code := g.MEASURE_ROW.match(row.group(0)):
                    parent = next((cid for d, cid, _ in reversed(stack) if d < 1), base)
                    closed.append(Clause(_join(parent, code.group(1), kind), a, start + row.end()))
                elif (requirement := g.REQUIREMENT_ROW.match(row.group(0))) and g.REQUIREMENT_HEADER.match(text):
                    closed.append(Clause(g.requirement_id(requirement.group(1)), a, start + row.end()))
            continue
        else:
            found = _clause_of(text, kind) or _enhancement(text, stack)
            if found is None:
                if not g.is_editorial(text):
                    owner = (stack[-1][1], stack[-1][2]) if stack else (base, -1)
                    paragraphs.add(owner, start, _trim(markdown, m.end()))
                continue
            depth, label = found
            close(depth, start)
        owner = next(((cid, b) for d, cid, b in reversed(stack) if d < depth), (base, -1))
        stack.append((depth, _join(owner[0], label, kind), start))
        if not heading:
            paragraphs.add(stack[-1][1:], start, _trim(markdown, m.end()))
    close(-1, len(markdown))
    if kind != "rfc":
        closed.extend(paragraphs.clauses(skip={"", approved}))
    out.extend(sorted(closed, key=lambda c: (c.start, -c.end)))
    return out


class _Paragraphs:
    """The paragraphs (абзацы) of each clause: its opening paragraph and the unnumbered ones after it.

    A clause's own paragraphs become «… абз. N» when there are two or more; a one-paragraph clause is
    its own абз. 1 (citations resolve it to the clause), and a lone lead-in before numbered children
    gets no id of its own.
    """

    def __init__(self) -> None:
        self.spans: dict[tuple[str, int], list[tuple[int, int]]] = {}

    def add(self, owner: tuple[str, int], start: int, end: int) -> None:
        self.spans.setdefault(owner, []).append((start, end))

    def clauses(self, skip: set[str]) -> list[Clause]:
        out: list[Clause] = []
        for key, spans in self.spans.items():
            if key[0] in skip or len(spans) < 2:
                continue
            out.extend(Clause(f"{key[0]} {g.paragraph_id(n)}", a, b) for n, (a, b) in enumerate(spans, start=1))
        return out


def _heading_clause(text: str, kind: str) -> tuple[int, str] | None:
    """(depth, label) for a heading inside a section; depth 0 = an article or annex (a new base)."""
    text = text.replace("*", "").strip()
    if m := g.ARTICLE_HEADING.match(text):
        return 0, g.article_id(m.group(1))
    if m := g.ANNEX_HEADING.match(text):
        return 0, g.annex_id(m.group(1))
    if m := g.HEADING["control"].heading.match(text):
        return _CONTROL_DEPTH, m.group(1)  # under the section it sits in; the next section heading closes it
    if m := g.SECTION_HEADING.match(text):
        number = m.group(1)
        label = g.section_id(number) if kind == "rfc" else g.point_id(number)
        return number.count(".") + 1, label
    return None


def _enhancement(text: str, stack: list[tuple[int, str, int]]) -> tuple[int, str] | None:
    """«(1) …» under an open control heading: the control's enhancement («AC-2(1)»)."""
    control = next((cid for d, cid, _ in stack if d == _CONTROL_DEPTH and g.CONTROL_ID.match(cid)), "")
    if control and (m := g.CONTROL_ENHANCEMENT.match(text)):
        return _CONTROL_DEPTH + 1, g.enhancement_id(control, m.group(1))
    return None


def _join(parent: str, label: str, kind: str) -> str:
    if kind == "rfc" or g.is_section(label) or "(" in label:
        return label
    point = g.point_id("")
    if kind == "order" and label.startswith(point) and (at := parent.find(point)) >= 0:
        return f"{parent[:at]}{label}"  # «п. 1.2» under «п. 1» already carries the full number
    return f"{parent} {label}".strip()


def _trim(text: str, end: int) -> int:
    while end > 0 and text[end - 1] in "\n ":
        end -= 1
    return end


def _clause_of(text: str, kind: str) -> tuple[int, str] | None:
    """(depth, label) when a paragraph opens a clause: a part, an item, a point, an annex measure row."""
    if kind == "rfc":
        m = g.REQUIREMENT_START.match(text)
        return (m.group(1).count(".") + 1, g.section_id(m.group(1))) if m else None
    if m := g.PART_DOT.match(text):
        number = m.group(1)
        if kind == "law":
            return 1, g.part_id(number)
        return number.count(".") + 1, g.point_id(number)
    if m := g.ITEM_PAREN.match(text):
        return (2, g.point_id(m.group(1))) if kind == "law" else (5, g.subpoint_id(m.group(1)))
    if m := g.LETTER_ITEM.match(text):
        return 6, g.letter_id(m.group(1))
    return None


__all__ = ["Clause", "blank_editorial", "section_clauses"]
