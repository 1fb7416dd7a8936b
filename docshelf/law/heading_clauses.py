"""The clause a heading opens inside a section's Markdown (a whole short document kept as one file): an
article, an annex, a division or chapter around its points, a section «§4.2», a control «AC-2», a label named
by a word («CIS Control 1»), an act's «PART 2», a rule's «I. Background» and its «A. Purpose».

Depths order the levels as :class:`law.outline.Outline` does: 0 is a new base (an article, an annex), below
zero a group around its points (a division, a chapter, a part), above zero a clause inside the open one. Pure.
"""

from __future__ import annotations

import re

from docshelf.law import grammar as g
from docshelf.law import numbering
from docshelf.law.outline import Open

CONTROL_DEPTH = 8  # below any numbered section («§3.1» is depth 2)
# Divisions and chapters headed inside one file: their spans hold their points, but a point's id does not
# carry them («п. 3», not «разд. II п. 3»: the citation names the group, resolution checks the span).
_GROUP_DEPTHS = {"razdel": -2.0, "roman": -2.0, "glava": -1.0, "chapter": -1.0}


def section_kind(section_clause: str, english: bool, text: str = "") -> str:
    """How a section numbers its clauses: a Russian law's article (части, пункты), an English act's article
    («Article 6(1)(a)»), an English standard («§4.2», labels read from the text), a Russian order. ``text``:
    what follows the article's heading; a contract's «Статья 1. Предмет договора» that numbers its points
    «1.1.», «1.2.» after its own number is read as an order's points («ст. 1 п. 1.2»), not a law's parts."""
    if english:
        return "act" if g.is_en_article(section_clause) else "rfc"
    if not g.is_article(section_clause):
        return "order"
    first = _FIRST_NUMBERED.search(text)
    own_points = first is not None and first.group(2) is not None and first.group(1) == section_clause.split()[-1]
    return "order" if own_points else "law"


# What closes a word-named label in a heading: «CIS Control 1: …», «Этап 2. …», «Шаг 3 — …»; not «Top 10»
_CLOSED = frozenset({":", ".", "—", "–"})
_FIRST_NUMBERED = re.compile(r"(?m)^(\d{1,3})\.(?:(\d{1,3})\.?)?\s")  # «1. …» or «1.1. …» opening a line


ENGLISH = frozenset({"rfc", "act"})
# Headings an English text opens inside one file, and the depth each opens at: an article or an annex is a
# new base; a notice's «(h) Airplane Flight Manual Revisions» holds «(h)(1)».
_EN_HEADINGS = (("article", 0.0), ("annex", 0.0), ("lettered", 1.0))


def heading_clause(text: str, kind: str) -> tuple[float, str] | None:
    """(depth, label) for a heading inside a section; depth 0 = an article or annex (a new base)."""
    text = text.replace("*", "").strip()
    if m := g.ARTICLE_HEADING.match(text):
        return 0, g.article_id(m.group(1))
    for kind_name, at in _EN_HEADINGS if kind in ENGLISH else ():
        if m := g.HEADING[kind_name].heading.match(text):
            return at, g.heading_clause_id(kind_name, m.group(1), english=True)
    if m := g.ANNEX_HEADING.match(text):
        return 0, g.annex_id(m.group(1))
    named = numbering.read_label(text)
    if named and numbering.NAMED_STYLE.fullmatch(named[0].style) and text[named[0].length :][:2].strip() in _CLOSED:
        return 0, named[0].atom  # «CIS Control 1: Inventory …», «Этап 2. Анализ»: its «Safeguard 1.1» are inside
    if kind in ENGLISH and (m := g.HEADING["en_part"].heading.match(text)):
        # «PART 2 SECURITY» of an act: around its sections, «Part 2 s. 3(2)»
        return -2.0, g.heading_clause_id("en_part", m.group(1), english=True)
    if kind in ENGLISH and (m := g.HEADING["roman"].heading.match(text)):
        # «I. Background»: its «A.», «1.» restart inside it, «§I item A.1»
        return 0, g.heading_clause_id("roman", m.group(1), english=True)
    for kind_name, depth in _GROUP_DEPTHS.items():  # a division or chapter inside one file: around its points
        if m := g.HEADING[kind_name].heading.match(text):
            return depth, g.heading_clause_id(kind_name, m.group(1) or "")
    if m := g.HEADING["appendix"].heading.match(text):
        return 0, g.heading_clause_id("appendix", m.group(1) or "")
    if m := g.HEADING["paragraph_sign"].heading.match(text) or g.HEADING["named_section"].heading.match(text):
        return m.group(1).count(".") + 1, g.section_id(m.group(1))  # «§ 11.10 Controls …», «Section 2. Policy.»
    if m := g.HEADING["control"].heading.match(text):
        return CONTROL_DEPTH, m.group(1)  # under the section it sits in; the next section heading closes it
    if kind in ENGLISH and (m := g.HEADING["titled_control"].heading.match(text)):
        # «Remote Access (AC-17)», «Control Enhancement AC-17 (1)»: a security plan's headings
        return CONTROL_DEPTH, m.group(1).replace(" ", "")
    if kind in ENGLISH and (m := g.NAMED_CONTROL.match(text)):
        if m.group(2):  # an enhancement heads its own part, closing its control's like the next control does
            return CONTROL_DEPTH, g.enhancement_id(m.group(1), m.group(2))
        return CONTROL_DEPTH, m.group(1)
    if m := g.SECTION_HEADING.match(text):
        number = m.group(1)
        label = g.section_id(number) if kind in ENGLISH else g.point_id(number)
        return number.count(".") + 1, label
    return None


_LETTER_HEADING = re.compile(r"^([A-Z])\.\s+[A-Z][a-z]")


def lettered(text: str, kind: str, stack: list[Open]) -> tuple[float, str] | None:
    """An English heading «A. General Provisions»: a division of its own («§A», its «1.» cited «A.1»), or the
    lettered part of the division «I. Background» open above it («§I item A», cited «I.A»)."""
    m = _LETTER_HEADING.match(text.replace("*", "").strip()) if kind in ENGLISH else None
    if m is None or g.HEADING["roman"].heading.match(text.replace("*", "").strip()):
        return None
    inside = next((o for o in reversed(stack) if o.depth == 0 and numbering.roman_value(o.id.removeprefix("§"))), None)
    return (1, f"{inside.id} {g.ITEM} {m.group(1)}") if inside else (0, g.section_id(m.group(1)))


def sentence_case(text: str) -> bool:
    words = text.replace("*", "").split()
    return bool(words) and words[0][:1].isupper() and any(ch.islower() for ch in words[0])


def approved(text: str, before: list[tuple[str, int, int]]) -> bool:
    """A heading that titles a document approved by the act: capitals right after its approval stamp."""
    title = text.replace("*", "").strip()
    stamped = any(g.APPROVAL_STAMP.match(b.replace("*", "").lstrip("> ")) for b, _a, _z in before)
    return stamped and title.isupper() and g.APPROVED_TITLE.match(title) is not None


__all__ = ["CONTROL_DEPTH", "ENGLISH", "approved", "heading_clause", "lettered", "section_kind", "sentence_case"]
