"""The outline of a section: which labels read at its blocks' starts are a numbering, and how deep each one is.

A label succeeds the one before it at its level (2 after 1, 6.1.2 after 6.1.1, (c) after (b), PR.AC-5 after
PR.AC-4), opens a new level with its first value (1, a, i, A), or nests under a label it names as its parent
(6.1.1 under 6.1); a label read by its shape (:mod:`law.shapes`) needs that evidence in the section, in the
labels placed before it, or in the document's census (:mod:`law.census`). Labels that run into one block
after the first («1. Resolution 2. Validation …») are found by their successors (:func:`run_in`).

Pure: small classes and functions over :class:`law.numbering.Label`, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docshelf.law import shapes
from docshelf.law.numbering import CYRILLIC, LATIN, NAMED_STYLE, Label, full_label

if TYPE_CHECKING:
    from docshelf.law.census import Census


@dataclass
class Open:
    """A clause open on the outline's stack: what follows it at a greater depth is inside it."""

    depth: float
    id: str
    start: int
    label: Label | None = None  # the reading it was opened with; None for a clause the grammar named


class Outline:
    """The stack of open clauses of one section, fed block by block.

    Depths order the levels (smaller = outer). The family grammar gives its kinds fixed depths (an
    article's part, item, sub-item); a label read from the document takes the depth of the label it
    succeeds, one more than the label it names as its parent, or one more than the innermost open
    clause when it opens a new level with its first value. ``known`` are the labels placed before
    this section (heading numbers, earlier sections' labels): «6.1.1» nests under a known «6.1».
    """

    def __init__(self, root: str = "", known: frozenset[str] = frozenset(), census: Census | None = None) -> None:
        self.stack: list[Open] = []
        self.root = root
        self.known = set(known)
        self.census = census  # the id labels the whole document prints (law.census), for labels read by shape
        self.paused: list[Open] = []  # the list items a table closed: a successor after the table goes on from them

    def fit(self, readings: list[Label], ahead: list[list[Label]]) -> tuple[float, Label] | None:
        """(depth, reading) of the first reading that continues the outline; None: no label here. Where two
        readings do («(i)» the letter after «(h)» or the first roman numeral), the one whose successor the section
        prints next wins: «(ii)» ahead makes it roman, «(j)» a letter."""
        fits = [(depth, label) for label in readings if (depth := self._depth(label, ahead)) is not None]
        if len(fits) > 1:
            nearest = {
                x: next((n for n in range(len(ahead)) if _follows(x, ahead[n : n + 1])), len(ahead)) for _d, x in fits
            }
            return min(fits, key=lambda f: nearest[f[1]])  # ties: the first reading, min keeps it
        return fits[0] if fits else None

    def depth_of(self, label: Label, default: float) -> float:
        """A grammar kind's depth read from the document: that of an open label of its style, else one
        below the innermost open clause (a ГОСТ's «а)» inside «5.1.2», its «1)» inside «г)»)."""
        same = next((o for o in reversed(self.stack) if o.label and o.label.style == label.style), None)
        if same is not None:
            return same.depth
        return self.stack[-1].depth + 1 if self.stack else default

    def goes_on(self, label: Label) -> bool:
        """Whether the label before ``label`` in its series is open: ``label`` goes on from it."""
        return any(
            o.label is not None
            and (o.label.style, o.label.parent, o.label.value + 1) == (label.style, label.parent, label.value)
            for o in self.stack
        )

    def close(self, depth: float) -> list[Open]:
        """Pop and return the open clauses at ``depth`` or deeper, innermost first."""
        out = []
        while self.stack and self.stack[-1].depth >= depth:
            out.append(self.stack.pop())
        return out

    def push(self, entry: Open) -> None:
        self.stack.append(entry)
        if self.paused and entry.depth <= max(o.depth for o in self.paused):
            self.paused = []  # the list went on, or a label at its level or above ended it
        if entry.label is not None:
            self.known.add(full_label(entry.label))
            if entry.label.style == "1.":
                self.known.add(f"1.#{entry.label.value}")  # a numbered paragraph the next section may go on from

    def _depth(self, label: Label, ahead: list[list[Label]]) -> float | None:
        if label.style.startswith(shapes.GENERIC):
            return self._shape_depth(label, ahead)
        if _EXPLICIT.fullmatch(label.style):
            explicit = self._explicit(label)
            if explicit is not None or label.style == "ID-n(n)":
                return explicit
        for o in reversed(self.stack):
            top = o.label
            if top is None or top.style != label.style or top.parent != label.parent:
                continue
            if label.value == top.value + 1 or (label.value == top.value + 2 and _follows(label, ahead)):
                return o.depth
            if label.value == top.value and inserted(label):  # «(1A)» after «(1)» or «(1)(…)»; «(1B)» after it
                return o.depth
        floor = self.stack[-1].depth if self.stack else -1
        for o in self.paused:  # «(b)» after the table that closed «(a)» of «Section 6»
            if o.label and o.depth > floor and (o.label.style, o.label.parent) == (label.style, label.parent):
                if label.value == o.label.value + 1:
                    return o.depth
        if "-" in label.style and f"{label.parent}-{label.value - 1}" in self.known:
            return self._level_of(label.style)  # a series of ids goes on from an earlier section (TASK P-3)
        if _CODE_STYLE.fullmatch(label.style) and f"{label.parent}.{label.value - 1}" in self.known:
            # «V1.2 …» heading the section after «V1.1 …»; «АУД.9 …» of a measure table a page break set as a paragraph
            return self._level_of(label.style)
        if NAMED_STYLE.fullmatch(label.style) and predecessor(label) in self.known:
            return self._level_of(label.style)  # «Tier 3» after «Tier 2» its table closed; «Step 7» in the next piece
        if label.style == "1." and f"1.#{label.value - 1}" in self.known:
            return self._level_of(label.style)  # paragraphs numbered through the document (guidelines' «23.»)
        if label.first and self._lone_title(label) and not _follows(label, ahead):
            return None  # «Executive Summary 1 Part 1: …» of a contents page: a title and its page, no series
        if label.first or (_follows(label, ahead) and label.style != "n"):
            # A list opens, or a new series at a level the style already holds (PR.DS-1 after PR.AC-7;
            # «(a)» again after «(1)» of «(b)»: a style keeps its level, it does not nest in itself).
            return self._level_of(label.style)
        return None

    def _lone_title(self, label: Label) -> bool:
        """A label named by two title words («Control Objective 1», «Executive Summary 1») that no label of its
        words was placed before: its first value alone is no evidence of a series."""
        words = label.atom.rsplit(" ", 1)[0]
        if not NAMED_STYLE.fullmatch(label.style) or " " not in words or words.split()[0].isupper():
            return False
        return not any(k.startswith(f"{words} ") for k in self.known)

    def _shape_depth(self, label: Label, ahead: list[list[Label]]) -> float | None:
        """A label read by its shape is a label only by evidence: it succeeds the open label of its series
        («T1059.002» after «T1059.001»; «AC.L2-3.1.3» after «AC.L1-3.1.2», a level in the id changing), nests
        under its container open here or placed before («T1059.001» under «T1059»), goes on from its
        predecessor placed in an earlier section, or the section — or the document's census — prints its successor or
        a label it contains."""
        if self.census is not None and label.atom in self.census.codes:
            return None  # «P1» of every control's priority line: a code the document repeats
        for o in reversed(self.stack):
            top = o.label
            if (
                top is not None
                and top.style == label.style
                and label.value == top.value + 1
                and shapes.near_series(top.parent, label.parent)
            ):
                return o.depth
            if label.container and _names(o, label.container):
                return o.depth + 1
        before = shapes.neighbour(label.parent, label.style, label.value - 1)
        if before and before in self.known:
            return self._level_of(label.style)
        if label.container and label.container in self.known:
            return self._below()
        if _follows(label, ahead) or any(r.container == label.atom for rs in ahead for r in rs):
            return self._level_of(label.style)
        if self.census is not None and (self.census.neighbour(label, 1) or label.atom in self.census.containers):
            return self._level_of(label.style)  # its successor or a label nested in it heads a later section
        if self.census is not None and self.census.between(label):
            return self._level_of(label.style)  # a numbering by tens: «REQ-SYS-030» between «…-021» and «…-040»
        return None

    def _level_of(self, style: str) -> float:
        """The depth of the outermost open label of ``style``, else one below the innermost clause."""
        same = next((o for o in self.stack if o.label and o.label.style == style), None)
        return same.depth if same else self._below()

    def _explicit(self, label: Label) -> float | None:
        """«6.1.1» names its parent «6.1»: a level below it, open here or known to the document."""
        for o in reversed(self.stack):
            if o.label is not None and o.label.style == label.style and o.label.parent == label.parent:
                return o.depth if label.value > o.label.value else None
            if _names(o, label.parent):  # «4.6» under «4.6.», or under a heading's «п. 4» («# 4 Состав …»)
                return o.depth + 1
        if label.parent in self.known or label.parent == self.root:
            return self._below(floor=label.atom.count(".") + label.atom.count("-"))
        grandparent = label.parent.rpartition(".")[0]
        for o in reversed(self.stack):
            # «4.6.4.8» inside an open «4.6» whose «4.6.4» the text layer lost: nested there (the gap report says so)
            if grandparent and _names(o, grandparent):
                return o.depth + 1
        return None

    def _below(self, floor: float = 0) -> float:
        return max(self.stack[-1].depth + 1 if self.stack else 1, floor)


_CODE_STYLE = re.compile(r"[XЯ]+n\.n|[XЯ]{2,}\.n")  # «V1.1», «CC6.1»; «УПД.1», «АУД.9»
LETTERS_NUMBERED_STYLE = re.compile(r"[XЯ]+n\.n")  # «V1.1», «CC6.1»: letters, a number, a dot, a number
_EXPLICIT = re.compile(r"ID-n\(n\)|(?:[XЯ]+\.)?n(?:\.n)+|[XЯ]+\.n")  # styles whose label names its parent


def _names(entry: Open, label: str) -> bool:
    """Whether an open clause is the one ``label`` names: its own label, or its id's last word («§01»)."""
    if entry.label is not None:
        return full_label(entry.label) == label
    return entry.id.split()[-1].removeprefix("§") == label if entry.id else False


def inserted(label: Label) -> bool:
    """A label inserted by an amendment after the one of its number: «(1A)», «1.3A», «(2a)»."""
    return label.atom[-1:].isalpha() and label.atom[-2:-1].isdigit() and not label.style.startswith(shapes.GENERIC)


def _follows(label: Label, ahead: list[list[Label]]) -> bool:
    """Whether the label's successor at its level comes later in the section."""
    return any(
        r.style == label.style and r.parent == label.parent and r.value == label.value + 1 for rs in ahead for r in rs
    )


def successor(label: Label) -> Label | None:
    """The label that follows ``label`` in its series, as it would be printed («(b)» after «(a)»)."""
    value = label.value + 1
    style = label.style
    if style.startswith(shapes.GENERIC):
        if not (atom := shapes.neighbour(label.parent, style, value)):
            return None
        printed = atom + label.text[len(label.atom) :]
        return Label(printed, style, value, atom, label.parent, length=len(printed) + 1, container=label.container)
    if _EXPLICIT.fullmatch(style) and style != "ID-n(n)" and label.parent:
        atom = f"{label.parent}.{value}"
        printed = atom + ("." if label.text.endswith(".") else "")
        return Label(printed, style, value, atom, label.parent, length=len(printed) + 1)
    if style in {"(1)", "1)", "1.", "n"}:
        atom = str(value)
    elif style.strip("().") in {"a", "A", "я", "Я"} and value <= 26:
        alphabet = LATIN if style.strip("().").casefold() == "a" else CYRILLIC
        atom = alphabet[value - 1].upper() if style.strip("().").isupper() else alphabet[value - 1]
    elif style.strip("().") in {"i", "I"} and value <= len(_ROMANS):  # «(ii)» after «(i)»
        atom = _ROMANS[value - 1].upper() if style.strip("().") == "I" else _ROMANS[value - 1]
    else:
        return None
    printed = style.replace("1", atom, 1) if "1" in style else style.replace(style.strip("()."), atom, 1)
    return Label(printed, style, value, atom, label.parent, length=len(printed) + 1)


def predecessor(label: Label) -> str:
    """How the label before ``label`` in its letter, roman or word-named series is printed («(a)» before «(b)»,
    «в.» before «г.», «(ii)» before «(iii)», «Step 1» before «Step 2»); "" for a first label, a number or one
    spelled otherwise."""
    value, kind = label.value - 1, label.style.strip("().")
    if value < 1:
        return ""
    if NAMED_STYLE.fullmatch(label.style):  # «Safeguard 1.1» before «Safeguard 1.2»
        head, _, number = label.atom.rpartition(" ")
        return f"{head} {'.'.join([*number.split('.')[:-1], str(value)])}"
    if kind in {"a", "A", "я", "Я"} and len(label.atom) == 1:
        alphabet = LATIN if kind.casefold() == "a" else CYRILLIC
        atom = alphabet[value - 1] if value <= len(alphabet) else ""
    elif kind in {"i", "I"}:
        atom = _ROMANS[value - 1] if value <= len(_ROMANS) else ""
    else:
        return ""
    return label.style.replace(kind, atom.upper() if kind.isupper() else atom, 1) if atom else ""


_ROMANS = "i ii iii iv v vi vii viii ix x xi xii xiii xiv xv".split()


# After a sentence's end, with or without a footnote mark between («systems. 24 3.7.2», «platforms.21 3.1.20»).
_END = r"[.;:!?)»”\"]"
_SENTENCE_START = (
    "(?:"
    + "|".join((rf"(?<={_END}\s)", rf"(?<={_END}\s\d\s)", rf"(?<={_END}\s\d\d\s)", r"(?<=[.]\d\s)", r"(?<=[.]\d\d\s)"))
    + ")"
)


_BEFORE_RUN_IN = {pattern: re.compile(pattern) for pattern in (_SENTENCE_START, r"(?<=\s)")}
_RUN_IN_FOLLOW = re.compile(r"\s+(?=[A-ZА-ЯЁ«\"(])")


def _find_run_in(text: str, label: str, before: re.Pattern[str], at: int) -> tuple[int, int] | None:
    """(start, end) of the first ``label`` from ``at`` on where ``before`` holds and spaces and a capital
    follow — what one pattern per label would find, without compiling thousands of them."""
    start = text.find(label, at)
    while start >= 0:
        if before.match(text, start) and (follow := _RUN_IN_FOLLOW.match(text, start + len(label))):
            return start, follow.end()
        start = text.find(label, start + 1)
    return None


def run_in(text: str, first: Label) -> list[tuple[int, Label]]:
    """Labels of ``first``'s series run into the same block after it («1. Resolution 2. Validation …»,
    «(a) … paper. (b) This part …»): each successor in order, after a space, with text after it."""
    out: list[tuple[int, Label]] = []
    at, label = first.length, first
    # A numbered requirement run into the one before starts a sentence («… integrity. 3.4.3 Track …»); a
    # bare mention («as in 3.4.3 for») does not.
    explicit = _EXPLICIT.fullmatch(first.style) or first.style.startswith(shapes.GENERIC)
    before = _BEFORE_RUN_IN[_SENTENCE_START if explicit else r"(?<=\s)"]
    while (nxt := successor(label)) is not None:
        found = _find_run_in(text, nxt.text, before, at)
        if found is None:
            break
        out.append((found[0], nxt))
        at, label = found[1], nxt
    return out


__all__ = ["LETTERS_NUMBERED_STYLE", "Open", "Outline", "inserted", "predecessor", "run_in", "successor"]
