"""Items enumerated inside one paragraph: «The operator shall: (a) keep the register; (b) report every incident;
and (c) train its staff», «Оператор обязан: 1) вести реестр; 2) сообщать …; 3) обучать …».

A PDF or a web page often prints a clause's items run into its paragraph, in lower case after a colon, where
no label starts a block. They are labels all the same and cited so («Article 1(1)(b)», «ст. 1 ч. 1 п. 2»). A run
is read only where the document makes it a numbering: after a colon or a dash, a first label («(a)», «1)»,
«(i)», «а)»), then its successors in order, each after a «;», «,» or «.» (and «and», «or», «и», «или»). A lone «(a)»
or labels out of order («see points (a) and (c)») are no items. Pure: text in, offsets out.
"""

from __future__ import annotations

import re

from docshelf.law.numbering import Label, read_label
from docshelf.law.outline import successor

_OPENS = re.compile(r"[:—–]\s+")  # the colon (or dash) after which a list begins
_BEFORE_NEXT = re.compile(r"[;,.]\s+(?:(?:and|or|и|или|либо)\s+)?$")  # what stands before a later item
_STYLES = frozenset({"(a)", "(1)", "(i)", "a)", "1)", "я)", "(я)", "i)"})
_MIN_ITEMS = 2


def inline_items(text: str) -> list[tuple[int, int, Label]]:
    """(start, end, label) of each item enumerated inside ``text`` after a colon, in order; [] when it holds no
    run of two or more. ``end`` is where the next item's label starts, or the text's end, spaces trimmed."""
    for opened in _OPENS.finditer(text):
        at = opened.end()
        first = next((x for x in read_label(text[at:]) if x.first and x.style in _STYLES), None)
        if first is None:
            continue
        starts = [(at, first)]
        label: Label | None = first
        while label is not None and (nxt := successor(label)) is not None:
            found = _next_item(text, nxt.text, starts[-1][0] + len(label.text))
            if found < 0:
                break
            starts.append((found, nxt))
            label = nxt
        if len(starts) >= _MIN_ITEMS:
            ends = [s for s, _x in starts[1:]] + [len(text)]
            return [(s, _trim(text, e), x) for (s, x), e in zip(starts, ends, strict=True)]
    return []


def opened_before(text: str, label: Label) -> tuple[int, Label] | None:
    """The first item of ``label``'s list when it runs into the paragraph before, after a colon, and ``label``
    (its second) opens a block of its own («Optional Attribute Status: 1) The DelayOpen …» then «2) The
    DelayOpenTimer …»): the first item's offset in ``text`` and its label; None when ``text`` ends no such run."""
    if label.value != 2 or inline_items(text):
        return None
    for opened in reversed(list(_OPENS.finditer(text))):
        first = next((x for x in read_label(text[opened.end() :]) if x.first and x.style == label.style), None)
        nxt = successor(first) if first is not None else None
        if first is not None and nxt is not None and (nxt.atom, nxt.parent) == (label.atom, label.parent):
            return opened.end(), first
    return None


def _next_item(text: str, printed: str, after: int) -> int:
    """Where ``printed`` next stands as an item (after «;» or «,»), -1 when it does not."""
    at = text.find(printed, after)
    while at >= 0:
        if _BEFORE_NEXT.search(text, max(0, at - 12), at) and text[at + len(printed) : at + len(printed) + 1] == " ":
            return at
        at = text.find(printed, at + 1)
    return -1


def _trim(text: str, end: int) -> int:
    while end > 0 and text[end - 1] in " \n":
        end -= 1
    return end


__all__ = ["inline_items", "opened_before"]
