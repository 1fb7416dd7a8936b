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

from docshelf.law.lexicon import ITEM_JOINS
from docshelf.law.numbering import Label, read_label
from docshelf.law.outline import predecessor, successor

_OPENS = re.compile(r"[:—–]\s+")  # the colon (or dash) after which a list begins
_BEFORE_NEXT = re.compile(rf"[;,.]\s+(?:{ITEM_JOINS}\s+)?$")  # what stands before a later item
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


def run_before(texts: list[str], label: Label) -> tuple[list[tuple[int, int, Label]], bool]:
    """The labels of ``label``'s series run into the paragraphs before the block it opens, that lead to it from the
    list's first: «Control: The organization: a. Develops …» … «…; b. Distributes …; c. …; d. Reviews …;» before
    «e. Revises …» (a PDF's text layer runs a control's items into its paragraphs). ``texts``: the paragraphs
    before, nearest first. Each is (paragraph index, offset, label), earliest first, each after «;», «,» or «.» (and
    «and», «or»); with whether the chain reaches the list's first label, printed after a colon or a dash. A chain
    that does not reach it goes on from a label the caller has open («(i) retain …, or (ii) replace …» before
    «(iii) renegotiate …»)."""
    out: list[tuple[int, int, Label]] = []
    want, where, end = label, 0, None
    while want.value > 1 and where < len(texts):
        found = _printed_before(texts[where], want, end)
        if found is None:
            where, end = where + 1, None
            continue
        at, earlier = found
        out.append((where, at, earlier))
        want, end = earlier, at
    complete = bool(out) and want.value == 1 and _OPENS_BEFORE.search(texts[out[-1][0]][: out[-1][1]]) is not None
    return out[::-1], complete


_OPENS_BEFORE = re.compile(r"[:—–]\s+$")
_BEFORE_EARLIER = re.compile(r"(?:[:;,.—–]|\band|\bor|\bи|\bили)\s+$")


def _printed_before(text: str, label: Label, end: int | None) -> tuple[int, Label] | None:
    """Where the label before ``label`` stands last in ``text`` (before ``end``) as a run-in item, and its reading."""
    printed = _earlier(label)
    at = text.rfind(printed, 0, len(text) if end is None else end) if printed else -1
    while at >= 0:
        if _BEFORE_EARLIER.search(text[max(0, at - 8) : at]) and text[at + len(printed) : at + len(printed) + 1] == " ":
            readings = [x for x in read_label(text[at:]) if x.style == label.style and x.value == label.value - 1]
            if readings:
                return at, readings[0]
        at = text.rfind(printed, 0, at)
    return None


def _earlier(label: Label) -> str:
    """How the label before ``label`` is printed («d.» before «e.», «(3)» before «(4)», «(ii)» before «(iii)»)."""
    if label.style in {"(1)", "1)", "1."}:
        return label.style.replace("1", str(label.value - 1), 1)
    return predecessor(label)


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


__all__ = ["inline_items", "run_before"]
