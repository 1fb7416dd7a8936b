"""The clause table: every article, part, item, point and annex measure of a section, with its span.

Clause ids are what a lawyer writes, normalised to one spelling: ``ст. 12 ч. 3 п. 2 подп. «а»``,
``п. 29.3.2``, ``Требования п. 13`` (a point of a document approved by the act), ``прил. 2 УПД.1``,
``§4.2.1``. Spans are character offsets into the section's Markdown exactly as stored (what
``fetch`` returns), so a quote can be checked against one clause and not its neighbours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PARA = re.compile(r"[^\n]+(?:\n(?!\n)[^\n]*)*")  # a Markdown paragraph: lines up to a blank line
_NUM_DOT = re.compile(r"^(\d+(?:\.\d+)*)\.\s")  # «3.» part of an article / «29.1.» point of an order
_NUM_PAREN = re.compile(r"^(\d+(?:\.\d+)*)\)\s")  # «2)» item
_LETTER = re.compile(r"^([а-яё])\)\s")  # «а)» sub-item
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_RFC_NUM = re.compile(r"^((?:[A-Z]\.)?\d+(?:\.\d+)*)\.?\s")
_MEASURE_ROW = re.compile(r"^\|\s*([A-ZА-Я]{2,5}\.\d+)\b")
_ARTICLE = re.compile(r"^(?:С\s?т\s?а\s?т\s?ь\s?я|СТАТЬЯ)\s+(\d+(?:\.\d+)*(?:-\d+)?)")
_ANNEX = re.compile(r"^(?:Приложение|ПРИЛОЖЕНИЕ)(?:\s+(?:N|№)?\s*(\d+(?:\.\d+)?))?(?=\s|$|\.)")
_APPROVED = re.compile(r"^(?:УТВЕРЖДЕН[АЫО]?|Утвержден[аыо]?)\b")
_APPROVED_NAME = re.compile(r"^([А-ЯЁ][А-ЯЁ]+)\b")


_EDITORIAL_LINE = re.compile(r"(?m)^>[^\n]*")  # DocShelf's mark for text that is not the act's own


def blank_editorial(text: str) -> str:
    """The text with editorial lines (``>``: notes, amendment history, breadcrumbs) turned into spaces.

    Offsets stay aligned, so clause spans and matches still index the stored text.
    """
    return _EDITORIAL_LINE.sub(lambda m: " " * len(m.group(0)), text)


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
    kind = "rfc" if english else "law" if section_clause.startswith("ст.") else "order"
    outer = section_clause if kind == "law" or section_clause.startswith("прил.") else annex
    base = outer or approved
    out: list[Clause] = [Clause(section_clause, 0, len(markdown))] if section_clause else []
    stack: list[tuple[int, str, int]] = []  # open clauses: (depth, id, start)
    closed: list[Clause] = []

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
                kind = "law" if label.startswith("ст.") else kind
                base = label if label.startswith(("ст.", "прил.")) else approved
                stack.append((0, label, start))
                continue
        elif text.startswith("|"):
            # A measure table: each row with a code («| УПД.1 | …») is its own clause under the annex.
            close(1, start)
            for row in re.finditer(r"[^\n]+", text):
                if code := _MEASURE_ROW.match(row.group(0)):
                    parent = next((cid for d, cid, _ in reversed(stack) if d < 1), base)
                    a = start + row.start()
                    closed.append(Clause(_join(parent, code.group(1), kind), a, start + row.end()))
            continue
        else:
            found = _clause_of(text, kind)
            if found is None:
                continue
            depth, label = found
            close(depth, start)
        parent = next((cid for d, cid, _ in reversed(stack) if d < depth), base)
        stack.append((depth, _join(parent, label, kind), start))
    close(-1, len(markdown))
    out.extend(sorted(closed, key=lambda c: (c.start, -c.end)))
    return out


def _heading_clause(text: str, kind: str) -> tuple[int, str] | None:
    """(depth, label) for a heading inside a section; depth 0 = an article or annex (a new base)."""
    text = text.replace("*", "").strip()
    if m := _ARTICLE.match(text):
        return 0, f"ст. {m.group(1)}"
    if m := _ANNEX.match(text):
        return 0, f"прил. {m.group(1) or ''}".strip()
    if m := _RFC_NUM.match(text):
        number = m.group(1)
        label = f"§{number}" if kind == "rfc" else f"п. {number}"
        return number.count(".") + 1, label
    return None


def _join(parent: str, label: str, kind: str) -> str:
    if kind == "rfc" or label.startswith("§"):
        return label
    if kind == "order" and label.startswith("п. ") and (at := parent.find("п. ")) >= 0:
        return f"{parent[:at]}{label}"  # «п. 1.2» under «п. 1» already carries the full number
    return f"{parent} {label}".strip()


def _trim(text: str, end: int) -> int:
    while end > 0 and text[end - 1] in "\n ":
        end -= 1
    return end


def _clause_of(text: str, kind: str) -> tuple[int, str] | None:
    """(depth, label) when a paragraph opens a clause: a part, an item, a point, an annex measure row."""
    if kind == "rfc":
        return None
    if m := _NUM_DOT.match(text):
        number = m.group(1)
        if kind == "law":
            return 1, f"ч. {number}"
        return number.count(".") + 1, f"п. {number}"
    if m := _NUM_PAREN.match(text):
        return (2, f"п. {m.group(1)}") if kind == "law" else (5, f"пп. {m.group(1)}")
    if m := _LETTER.match(text):
        return 6, f"подп. «{m.group(1)}»"
    return None
