"""How a clause is spelled: a label's id in the words of its kind, joined to the clause it is in.

A label the family grammar names is spelled as a lawyer writes it («ст. 12 ч. 3 п. 2», «п. 29.3.2», «AC-2(1)»); one
read from the document as the document prints it («§4.2 item 5.b», «§11.10(a)(1)», «PR.AC-4», «T1059.001»). Also the
paragraphs (абзацы) of a clause and the items a paragraph enumerates after a colon. Pure: strings in, strings out.
"""

from __future__ import annotations

import re

from docshelf.law import grammar as g
from docshelf.law import heading_clauses, numbering, shapes
from docshelf.law import outline as outline_
from docshelf.law.inline import inline_items
from docshelf.records import Clause

_CONTROL_DEPTH = heading_clauses.CONTROL_DEPTH
_ENGLISH = heading_clauses.ENGLISH
_PARTS = g.PART_PREFIXES  # parts that qualify an id printed again inside them
_ITEM = g.ITEM


def standalone(label: str) -> bool:
    """An id that carries its whole address («PR.AC-4», «AC-1», «PO.1.1», «T1059.001»), not a point or an item."""
    return ("-" in label and not label.startswith(("(", _ITEM))) or numbering.shaped_id(label)


def atom(clause: str) -> str:
    """A clause id's own label: «п. 6.1» → «6.1», «§4.2» → «4.2»."""
    return clause.split()[-1].removeprefix(g.SECTION) if clause else ""


def generic_id(label: numbering.Label, kind: str) -> str | None:
    """The clause id component of a label read from the document, in the spelling of its kind.

    None for what is read but is no clause here: a footnote's text (it belongs to the clause with its
    mark), a bare number or a roman numeral in an English text.
    """
    style = label.style
    if style in {"<n>"}:
        return None
    if style.startswith(shapes.GENERIC):
        return label.atom  # «T1059.001», «AC.L2-3.1.3», «01.a»: ids cited as printed
    if style == "ID-n(n)":
        return g.enhancement_id(label.parent, label.atom)
    if "-" in style or re.match(r"[XЯ]{2,}\.|[XЯ]+n\.n$", style) or numbering.NAMED_STYLE.fullmatch(style):
        return label.atom  # «PR.AC-4», «PO.1.1», «CC6.1», «Step 2»: ids cited as printed
    if re.fullmatch(r"(?:[XЯ]\.)?n(?:\.n)*", style) and "." in label.atom:
        return g.section_id(label.atom) if kind in _ENGLISH else g.point_id(label.atom)
    if style.startswith("("):
        return f"({label.atom})"
    if kind == "act":  # an article's paragraph «1.» is cited «Article 6(1)»
        return f"({label.atom})" if style == "1." else None
    if kind == "rfc":
        return None if style in {"n", "I."} else f"{_ITEM} {label.atom}"
    if style in {"1.", "n"}:
        return g.point_id(label.atom)
    if style == "1)":
        return g.subpoint_id(label.atom)
    if style in {"я)", "я."}:
        return g.letter_id(label.atom)
    return None


def join_generic(parent: str, label: str, kind: str) -> str:
    """A label read from the document under the clause it is in: «(a)» right after its parent
    («§11.10(a)(1)»), a list item as «§4.2 item 5», its sub-item as «§4.2 item 5.b»; "" for an item
    or a bracketed label under no clause at all (every unnumbered section would have its «item 1»)."""
    if (not parent and label.startswith(("(", _ITEM + " "))) or (parent.startswith("«") and label.startswith("(")):
        return ""  # an unnumbered section's title qualifies its list items only
    if label.startswith("("):
        return f"{parent}{label}"
    if label.startswith(_ITEM + " "):
        inner = parent.rsplit(" ", 2)
        if len(inner) >= 2 and inner[-2] == _ITEM:
            return f"{parent}.{label.removeprefix(_ITEM + ' ')}"
        return f"{parent} {label}".strip()
    if numbering.NAMED_ID.fullmatch(label):
        # «CIS Control 1 Safeguard 1.1»; under an unnumbered heading or none, the bare «Step 1» (one
        # restarting under each heading is spelled with it at the end: _restarted_under_headings); «SR 1.1 RE 1»
        # printed with its parent's label
        head = label.rsplit(" ", 2)[0] if label.count(" ") >= 3 else ""  # «SR 1.1» of «SR 1.1 RE 1»
        if head and (parent == head or parent.endswith(f" {head}")):
            return f"{parent[: -len(head)]}{label}"
        return label if not parent or parent.startswith("«") else f"{parent} {label}"
    if kind in _ENGLISH or g.is_section(label) or "-" in label or numbering.shaped_id(label):
        return label  # «§3.1.1», «PR.AC-4», «AC-2(1)», «01.a» carry their whole address
    return join(parent, label, kind)


class Paragraphs:
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


def inline_clauses(text: str, start: int, parent: str, kind: str, own: numbering.Label | None) -> list[Clause]:
    """The items a paragraph enumerates after a colon («… shall: (a) keep …; (b) report …»), each a clause
    inside the paragraph's own («Article 1(1)(b)», «ст. 1 ч. 1 п. 2»); none under no clause or a part, or of the style
    of the paragraph's own label (its run-in successors are read by :func:`law.outline.run_in`)."""
    out: list[Clause] = []
    # not under a part as a whole («Appendix B» of a glossary, whose definitions each enumerate their own «(i)»)
    for a, b, label in inline_items(text) if parent and not parent.startswith(("«", *_PARTS)) else ():
        if own is not None and label.style == own.style:
            return []
        named = clause_of(f"{label.text} x", kind)  # the grammar's spelling: «1)» is «п. 1» of a law's part
        spelled = named[1] if named else generic_id(label, kind)
        if spelled is None:
            return []
        cid = join(parent, spelled, kind) if named else join_generic(parent, spelled, kind)
        out.append(Clause(cid, start + a, start + b))
    return out


def enhancement(text: str, stack: list[outline_.Open]) -> tuple[float, str] | None:
    """«(1) …» under an open control heading: the control's enhancement («AC-2(1)»); not under an item of its
    statement open after it (a template's «(a) Develops …: (1) An access control policy …»: the item's own)."""
    control = next((o.id for o in stack if o.depth == _CONTROL_DEPTH and g.CONTROL_ID.match(o.id)), "")
    if control and stack[-1].id != control:
        return None
    if control and (m := g.CONTROL_ENHANCEMENT.match(text)):
        return _CONTROL_DEPTH + 1, g.enhancement_id(control, m.group(1))
    return None


def join(parent: str, label: str, kind: str) -> str:
    if kind in _ENGLISH or g.is_section(label) or "(" in label or numbering.shaped_id(label):
        return label
    point = g.point_id("")
    if kind == "order" and label.startswith(point) and (at := parent.find(point)) >= 0:
        return f"{parent[:at]}{label}"  # «п. 1.2» under «п. 1» already carries the full number
    return f"{parent} {label}".strip()


def clause_of(text: str, kind: str) -> tuple[float, str] | None:
    """(depth, label) when a paragraph opens a clause: a part, an item, a point, an annex measure row."""
    if kind == "act":  # «1. …» opens a paragraph of the article: «Article 6(1)»
        m = g.TOP_PART.match(text)
        return (1, f"({text[: m.end()].strip().rstrip('.')})") if m else None
    if kind == "rfc":
        if m := g.HEADING["named_section"].heading.match(text):  # «Sec. 2. Policy. It is …» run into its text
            return m.group(1).count(".") + 1, g.section_id(m.group(1))
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


__all__ = [
    "Paragraphs",
    "atom",
    "clause_of",
    "enhancement",
    "generic_id",
    "inline_clauses",
    "join",
    "join_generic",
    "standalone",
]
