"""Numbering read from the document: the labels a block starts with, in any scheme, and which of them
are a numbering.

The family grammar (``law.grammar``) knows the named kinds (Статья, часть, пункт, Section, Appendix)
and how people cite them. What no table can list is the numbering each document invents: «6.1.1»,
«A.5.1», «PR.AC-4», «CC6.1», «(a)», «(iv)», «b.», «2.1.Провести» glued to its first word, «3.1 термин: …» of a
terms section, a word the document repeats with its numbers («Step 2:», «Safeguard 1.2», «Этап 3 —»). This module reads
such a label off the start of a block (:func:`read_label`, one or more readings: «(i)» is a roman one
or the letter after «(h)») and decides by the evidence that makes labels a numbering
(:class:`Outline`): a label succeeds the one before it at its level (2 after 1, 6.1.2 after 6.1.1,
(c) after (b), PR.AC-5 after PR.AC-4), opens a new level with its first value (1, a, i, A), or nests
under a label it names as its parent (6.1.1 under 6.1). A lone number, a year, a page or a figure in a
table is none of these and is no label.

Labels are also atomised into an address key (:func:`address_key`): «§5.3.2 item 5.b», «5.3.2(5)(b)»
and «5.3.2 item 5.b» are one address, «AC-2 (1)» and «AC-2(1)» another. Citations fall back to the
key when the clause id is not spelled the way the build spelled it.

Pure: regular expressions and small functions, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from docshelf.law import shapes

if TYPE_CHECKING:
    from docshelf.law.census import Census

BLOCK = re.compile(r"[^\n]+(?:\n(?!\n)[^\n]*)*")  # a Markdown block: lines up to a blank line
# A printed contents line («1.1 Scope ........ 3»): its number is the contents', not a label of the text.
CONTENTS_LINE = re.compile(r"(?:\.\s?){4,}\s*[\divxlc]*\s*$|…{2,}", re.IGNORECASE)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_ROMAN_LABEL = re.compile(r"^(?:x{0,3})(?:ix|iv|v?i{0,3})$")
_LAT = "abcdefghijklmnopqrstuvwxyz"
_CYR = "абвгдежзиклмнопрстуфхцчшщэюя"  # how Russian acts letter their sub-points (no ё, й, ъ, ы, ь)


def trim_end(text: str, end: int) -> int:
    """``end`` moved back over the spaces and line breaks before it: where a block's text ends."""
    while end > 0 and text[end - 1] in "\n ":
        end -= 1
    return end


def block_labels(block: str) -> list[Label]:
    """The label readings a Markdown block starts with; none for a quote line, a heading, a table, a code
    block or a contents line («1.1 Scope ........ 3», whose number is the contents')."""
    if block.startswith((">", "#", "|", "```")) or CONTENTS_LINE.search(block[:300]) or _DATE.match(block):
        return []
    return read_label(block.replace("*", ""))


# «18 December 2000 on the protection …», «9 сентября 2015 г.»: a date a line break left at a block's start
_DATE = re.compile(
    r"^\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря)\b"
)


def roman_value(text: str) -> int:
    """The value of a lower- or upper-case roman numeral («iv» → 4); 0 when it is none."""
    t = text.casefold()
    if not t or not _ROMAN_LABEL.match(t):
        return 0
    total = 0
    for a, b in zip(t, t[1:] + " ", strict=True):
        v = _ROMAN[a]
        total += -v if b != " " and _ROMAN.get(b, 0) > v else v
    return total


def letter_value(text: str) -> int:
    """«a» → 1, «b» → 2, «aa» → 27 (lists that run past z double the letter); Cyrillic «а» → 1."""
    t = text.casefold()
    for alphabet in (_LAT, _CYR):
        if len(t) == 1 and t in alphabet:
            return alphabet.index(t) + 1
        if len(t) == 2 and t[0] == t[1] and t[0] in alphabet:
            return len(alphabet) + alphabet.index(t[0]) + 1
    return 0


@dataclass(frozen=True)
class Label:
    """One reading of the label a block starts with.

    ``style`` is the scheme without its value («(a)», «(1)», «(i)», «1.», «a)», «n.n.n», «X.n.n»,
    «XX.XX-n»): labels of one style at one level succeed each other. ``parent`` is the label the
    label itself names as its parent («6.1» for «6.1.1», «AC-2» for «AC-2 (1)»), "" when it names none.
    """

    text: str  # as printed, without the space after it («(a)», «6.1.1.», «PR.AC-4»)
    style: str
    value: int
    atom: str  # the label's own part of an address («a», «6.1.1», «PR.AC-4», «1» of «AC-2 (1)»)
    parent: str = ""
    glued: bool = False  # printed without a space before its first word («2.1.Провести»)
    length: int = 0  # characters of the block the label takes, the space after it included
    container: str = ""  # a label read by its shape: the label it nests under («T1059» for «T1059.001»)

    @property
    def first(self) -> bool:
        return self.value == 1


# Letters and numbers a label may be made of; what follows it: a space, the end, or (glued) a capital.
_AFTER = r"(?=\s|$)"
# «(1A)», «(2a)»: a label inserted after «(1)» by an amendment, numbered as its base and a letter
_PAREN = re.compile(r"^\((\d{1,3}[A-Za-z]?|[a-z]{1,2}|[A-Z]|[ivx]{2,5}|[а-я])\)(?=\s|$|[A-ZА-ЯЁ«\"“‘'(])")
_RPAREN = re.compile(r"^(\d{1,3}|[a-z]|[а-я]|[ivx]{2,5})\)" + _AFTER)
# A named kind and its id: «TASK P-1», «Task M-3», «Step 2-1» (NIST RMF tasks), cited «Task P-1».
_WORDED = re.compile(r"^(Task|TASK|Step|STEP|Practice|PRACTICE)\s+([A-Z]{1,3}|\d{1,2})-(\d{1,3})(?=[\s:.,]|$)")
# A label named by a word the document repeats with numbers that succeed each other: «Step 1:», «Principle 2.»,
# «Safeguard 1.2», «CIS Control 3:», «Шаг 2.», «Этап 3 —»; cited as printed, «Step 2». Not the grammar's named
# kinds (Article, Статья, Appendix …) nor a caption or a page line (Table 1, Рисунок 2, Page 3, Version 2).
_NAMED = re.compile(
    r"^((?:[A-Z]{2,6} )?[A-ZА-ЯЁ][a-zа-яё]{2,15}|[A-ZА-ЯЁ]{2,15}) (\d{1,3}(?:\.\d{1,3}){0,2})"
    r"(?=[:.]?(?:\s+[A-ZА-ЯЁ«\"(]|\s*$)|\s+[—–-]\s)"
)
_NOT_NAMED = frozenset(
    "article section sec chapter part subpart appendix annex attachment schedule exhibit recital paragraph clause "
    "item point table figure fig page note example version revision edition volume vol issue draft release rfc "
    "статья глава раздел подраздел часть приложение пункт подпункт абзац таблица рисунок рис страница стр "
    "примечание пример версия редакция издание том выпуск форма".split()
)
# «step n», «cis control n», «safeguard n.n»; «sr n.n re n»: a label printed after its parent's («SR 1.1 RE 1»)
NAMED_STYLE = re.compile(r"[^\W\d_]+(?: [^\W\d_]+)? n(?:\.n)*(?: [^\W\d_]+ n(?:\.n)*)?")
_ID_DASH = re.compile(r"^((?:[A-Z]{1,6}\.)*[A-Z]{1,6})-(\d{1,3})(?:\s?\((\d{1,3})\))?(?=[\s:.,]|$)")
_LETTERS_NUMBERED = re.compile(r"^([A-Z]{1,3}\d{1,2})\.(\d{1,3})(?=[\s:]|$)")
_ALPHA_DOTTED = re.compile(r"^([A-ZА-Я]{1,6})\.(\d{1,3}(?:\.\d{1,3})*)(\.?)(?=\s|$|:|[A-ZА-ЯЁ])")
# A multi-level number is followed by its text's first capital («6.1.1 Изложение»), never «3.5 мм».
_DOTTED = re.compile(
    r"^(\d{1,3}(?:\.\d{1,3})+)(\.?)(?=\s+[^\sa-zа-яё]|$|[A-ZА-ЯЁ]"
    # or a term defined in a standard's terms section, its words in lower case up to a colon or a dash:
    # «3.1 автоматизированная система; АС: Система …», «3.2 access control: means …» (not «3.5 мм толщина»)
    r"|\s+[a-zа-яё][^.:;\n]{0,80}?(?:[;,][^.:\n]{0,40})?(?::\s|\s[—–]\s))"
)
_INSERTED = re.compile(r"[A-Z](?=\s+[A-Z])")  # one capital after a number, then a title: an inserted label
_SINGLE_DOT = re.compile(r"^(\d{1,3}|[a-zA-Zа-яА-Я]|[IVXivx]{2,5})\.(?=\s|[A-ZА-ЯЁ])")
_BARE = re.compile(r"^(\d{1,2})\s+(?=[A-ZА-ЯЁ][a-zа-яё])")
_FOOTNOTE = re.compile(r"^<(\d{1,3})>" + _AFTER)


def read_label(text: str) -> list[Label]:
    """The readings of the label ``text`` starts with, most likely first; [] when it starts with none.

    The family readers come first; a label they read only a part of («APP.1.1» of «APP.1.1.A3») or none of
    («T1059.001», «AC.L2-3.1.3», «01.a», «Q3.») is read by its shape (:mod:`law.shapes`)."""
    out = _family_label(text)
    shape = shapes.read_shape(text)
    if shape is not None and (not out or len(out[0].text.rstrip(".:)")) < len(shape.atom)):
        return [
            Label(
                shape.printed,
                shape.style,
                shape.value,
                shape.atom,
                shape.series,
                length=shape.length,
                container=shape.container,
            )
        ]
    return out


@lru_cache(maxsize=1 << 14)  # asked for each clause id the build joins
def shaped_id(clause_id: str) -> bool:
    """Whether a clause id is a label read by its shape, cited as printed («T1059.001», «Q3», «01.a»), and not
    one a family reader names («УПД.1», «PR.AC-4»)."""
    labels = read_label(clause_id)
    return bool(labels) and labels[0].style.startswith(shapes.GENERIC) and labels[0].atom == clause_id


def _family_label(text: str) -> list[Label]:
    out: list[Label] = []
    if m := _PAREN.match(text):
        out.extend(_value_readings(m.group(1), "({})", m.group(0), m.end()))
    elif m := _RPAREN.match(text):
        out.extend(_value_readings(m.group(1), "{})", m.group(0), m.end()))
    elif m := _WORDED.match(text):
        word, series, number = m.group(1).capitalize(), m.group(2), m.group(3)
        atom = f"{word} {series}-{number}"
        out.append(Label(m.group(0), f"{word} X-n", int(number), atom, f"{word} {series}", length=m.end()))
    elif (m := _NAMED.match(text)) and m.group(1).split()[-1].casefold() not in _NOT_NAMED:
        word, number = m.group(1), m.group(2)
        parts = number.split(".")
        parent = f"{word} {'.'.join(parts[:-1])}" if len(parts) > 1 else ""
        style = f"{word.casefold()} " + ".".join("n" for _ in parts)
        rest = text[m.end() :]
        inner = _NAMED.match(rest.lstrip(" ")) if rest.startswith(" ") else None
        if (
            inner
            and inner.group(1).casefold() not in _NOT_NAMED
            and inner.group(1) != word
            and " " not in inner.group(1)
        ):
            # «SR 1.1 RE 1 Unique identification»: a label printed after its parent's, the parent's path kept
            at = m.end() + len(rest) - len(rest.lstrip(" ")) + inner.end()
            inner_parts = inner.group(2).split(".")
            outer = f"{word} {number}"
            parent = f"{outer} {inner.group(1)} {'.'.join(inner_parts[:-1])}" if len(inner_parts) > 1 else outer
            style += f" {inner.group(1).casefold()} " + ".".join("n" for _ in inner_parts)
            atom = f"{outer} {inner.group(1)} {inner.group(2)}"
            out.append(Label(text[:at], style, int(inner_parts[-1]), atom, parent, length=at))
        else:
            out.append(Label(m.group(0), style, int(parts[-1]), f"{word} {number}", parent, length=m.end()))
    elif m := _ID_DASH.match(text):
        prefix, number, enhancement = m.group(1), m.group(2), m.group(3)
        base = f"{prefix}-{number}"
        if enhancement:
            out.append(Label(m.group(0), "ID-n(n)", int(enhancement), enhancement, base, length=m.end()))
        else:
            out.append(Label(base, f"{_shape(prefix)}-n", int(number), base, prefix, length=m.end()))
    elif m := _LETTERS_NUMBERED.match(text):  # «CC6.1», «A1.2», «PI1.3» (a trust services criterion)
        head, number = m.group(1), m.group(2)
        style = f"{_shape(head.rstrip('0123456789'))}n.n"
        out.append(Label(m.group(0), style, int(number), m.group(0), head, length=m.end()))
    elif m := _ALPHA_DOTTED.match(text):
        head, numbers, dot = m.group(1), m.group(2), m.group(3)
        parts = numbers.split(".")
        parent = f"{head}.{'.'.join(parts[:-1])}" if len(parts) > 1 else head
        atom = f"{head}.{numbers}"
        glued = text[m.end() : m.end() + 1].isalpha()
        style = f"{_shape(head)}." + ".".join("n" for _ in parts)
        out.append(Label(atom + dot, style, int(parts[-1]), atom, parent, glued, m.end()))
    elif m := _DOTTED.match(text):
        numbers, dot = m.group(1), m.group(2)
        parts = numbers.split(".")
        glued = text[m.end() : m.end() + 1].isalpha()
        style = ".".join("n" for _ in parts)
        if not dot and _INSERTED.match(text, m.end()):  # «1.3A Virtualisation …»: inserted after «1.3»
            atom = numbers + text[m.end()]
            return [Label(atom, style, int(parts[-1]), atom, ".".join(parts[:-1]), length=m.end() + 1)]
        if glued and (not dot or _name_after(text, m.end())):
            return []  # «6.1Текст» is a figure run into a word, «0.2.10.IN-ADDR.ARPA.» a name, not a label
        out.append(Label(numbers + dot, style, int(parts[-1]), numbers, ".".join(parts[:-1]), glued, m.end()))
    elif m := _SINGLE_DOT.match(text):
        glued = text[m.end() : m.end() + 1].isalpha()
        if glued and (not m.group(1).isdigit() or _name_after(text, m.end())):
            return []  # «U.S.», «e.g.»: an abbreviation, «10.IN-ADDR.ARPA.» a domain name, not «2.Текст»
        out.extend(_value_readings(m.group(1), "{}.", m.group(0), m.end(), glued=glued))
    elif m := _FOOTNOTE.match(text):
        out.append(Label(m.group(0), "<n>", int(m.group(1)), m.group(1), length=m.end()))
    elif m := _BARE.match(text):
        out.append(Label(m.group(1), "n", int(m.group(1)), m.group(1), length=m.end()))
    return [label for label in out if label.value > 0]


def chained(text: str, first: Label) -> list[Label]:
    """The bracketed labels glued after a block's first one, each a first child of the one before it:
    «(b)(1) …» → [(1)], «(1)(i)(A) …» → [(i), (A)]; [] when the text goes on after the first label."""
    out: list[Label] = []
    at = len(first.text)
    while text[at : at + 1] == "(" and (m := _PAREN.match(text[at:])):
        readings = [r for r in _value_readings(m.group(1), "({})", m.group(0), m.end()) if r.value == 1]
        if not readings:
            break  # «(b)(2)» opens no first child: not a chain this reader follows
        out.append(readings[0])
        at += m.end()
    return out


def opens_item(line: str) -> bool:
    """Whether a line of a page opens with a label of an id series or one named by a word and closed by a
    colon or a period, or dotted («REQ-002: …», «PR.AC-4: …», «CC6.1 …», «Question 2: …», «Rule 3.1 …»): after
    a line that ends a sentence, such a line starts a paragraph of its own (a PDF sets them without a gap or an
    indent). Not a bare number or a name with a number («Windows 10 Enterprise»)."""
    for label in read_label(line):
        closed = line[label.length : label.length + 1] in (":", ".") or "." in label.style
        if (
            "-" in label.style
            or re.fullmatch(r"[XЯ]+n\.n", label.style)
            or (label.style.startswith(shapes.GENERIC) and any(ch.isalpha() for ch in label.atom))
            or (NAMED_STYLE.fullmatch(label.style) and closed)
        ):
            return True
    return False


def _name_after(text: str, at: int) -> bool:
    """Whether what a number is glued to is a name in capitals with dots or hyphens inside («IN-ADDR.ARPA.»,
    a host in a zone file), not the first word of a point («Провести», «ПРЕДМЕТ»)."""
    token = text[at:].split(maxsplit=1)[0] if text[at:].strip() else ""
    return not any(ch.islower() for ch in token) and re.search(r"\w[.-]\w", token) is not None


def _shape(text: str) -> str:
    """A prefix's shape for a style: «PR.AC» → «XX.XX», «A» → «X», «АБ» → «ЯЯ»."""
    return re.sub(r"[A-Z]", "X", re.sub(r"[А-Я]", "Я", text))


def _value_readings(value: str, frame: str, printed: str, length: int, *, glued: bool = False) -> list[Label]:
    """A one-part label's readings: a number, a letter, a roman numeral («i», «v», «x» are both)."""
    out: list[Label] = []
    if value[:-1].isdigit() and value[-1].isalpha():  # «(1A)»: numbered as its base, after it
        return [Label(printed.rstrip(), frame.format("1"), int(value[:-1]), value, glued=glued, length=length)]
    if value.isdigit():
        return [Label(printed.rstrip(), frame.format("1"), int(value), value, glued=glued, length=length)]
    cyrillic = value[0].casefold() in _CYR
    upper = value.isupper()
    letter = letter_value(value)
    roman = 0 if cyrillic else roman_value(value)
    letter_style = frame.format("Я" if cyrillic and upper else "я" if cyrillic else "A" if upper else "a")
    roman_style = frame.format("I" if upper else "i")
    readings = [(roman, roman_style), (letter, letter_style)]
    if len(value) == 1 and value.casefold() not in "ivx":
        readings.reverse()
    elif len(value) == 1:  # «i» is usually the ninth letter only where «h» came before it
        readings = [(letter, letter_style), (roman, roman_style)]
    for number, style in readings:
        if number:
            out.append(Label(printed.rstrip(), style, number, value, glued=glued, length=length))
    return out


# ---------------------------------------------------------------------------------------------------
# The outline: which labels are a numbering, and how deep each one is.


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

    def fit(self, readings: list[Label], ahead: list[list[Label]]) -> tuple[float, Label] | None:
        """(depth, reading) of the first reading that continues the outline; None: no label here."""
        for label in readings:
            depth = self._depth(label, ahead)
            if depth is not None:
                return depth, label
        return None

    def depth_of(self, label: Label, default: float) -> float:
        """A grammar kind's depth read from the document: that of an open label of its style, else one
        below the innermost open clause (a ГОСТ's «а)» inside «5.1.2», its «1)» inside «г)»)."""
        same = next((o for o in reversed(self.stack) if o.label and o.label.style == label.style), None)
        if same is not None:
            return same.depth
        return self.stack[-1].depth + 1 if self.stack else default

    def close(self, depth: float) -> list[Open]:
        """Pop and return the open clauses at ``depth`` or deeper, innermost first."""
        out = []
        while self.stack and self.stack[-1].depth >= depth:
            out.append(self.stack.pop())
        return out

    def push(self, entry: Open) -> None:
        self.stack.append(entry)
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
        if "-" in label.style and f"{label.parent}-{label.value - 1}" in self.known:
            return self._level_of(label.style)  # a series of ids goes on from an earlier section (TASK P-3)
        if LETTERS_NUMBERED_STYLE.fullmatch(label.style) and f"{label.parent}.{label.value - 1}" in self.known:
            return self._level_of(label.style)  # «V1.2 …» heading the section after «V1.1 …»
        if label.style == "1." and f"1.#{label.value - 1}" in self.known:
            return self._level_of(label.style)  # paragraphs numbered through the document (guidelines' «23.»)
        if label.first or (_follows(label, ahead) and label.style != "n"):
            # A list opens, or a new series at a level the style already holds (PR.DS-1 after PR.AC-7;
            # «(a)» again after «(1)» of «(b)»: a style keeps its level, it does not nest in itself).
            return self._level_of(label.style)
        return None

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
            if o.label is not None and full_label(o.label) == label.parent:
                return o.depth + 1
        if label.parent in self.known or label.parent == self.root:
            return self._below(floor=label.atom.count(".") + label.atom.count("-"))
        return None

    def _below(self, floor: float = 0) -> float:
        return max(self.stack[-1].depth + 1 if self.stack else 1, floor)


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


def full_label(label: Label) -> str:
    """The label's full name: «6.1.1», «PR.AC-4», «AC-2 (1)» as «AC-2(1)»."""
    if label.style == "ID-n(n)":
        return f"{label.parent}({label.atom})"
    return label.atom


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
        alphabet = _LAT if style.strip("().").casefold() == "a" else _CYR
        atom = alphabet[value - 1].upper() if style.strip("().").isupper() else alphabet[value - 1]
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
        alphabet = _LAT if kind.casefold() == "a" else _CYR
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


# ---------------------------------------------------------------------------------------------------
# Address keys: one spelling of a label path, whatever words and brackets a citation wraps it in.

_KIND_WORDS = re.compile(
    r"(?i)(?<![\w.])(?:§+|sections?|sect?\.|ss?\.|clauses?|items?|paragraphs?|para\.|points?|subparagraphs?|"
    r"requirements?|controls?|enhancements?|subcategor(?:y|ies)|categor(?:y|ies)|tasks?|practices?|criteri(?:on|a)|"
    r"п\.|пп\.|подп\.|пункт[а-я]*|подпункт[а-я]*|no\.|№|(?:sub-?)?techniques?|objectives?|measures?|мер[аеуы])(?![\w])"
)
_STATEMENT = re.compile(r"([a-z]{1,4}-\d{1,3})([a-z](?:\.\d{1,3})*)")
_ATOM = re.compile(r"\((\w{1,4})\)|([A-Za-zА-Яа-яЁё0-9]+(?:[.\-][A-Za-zА-Яа-яЁё0-9]+)*)")


# A citation naming a numbered paragraph or item by its word («paragraph 23», «para. 4», «item 5»).
PARAGRAPH_WORD = re.compile(r"(?i)\s*(?:paragraphs?|paras?\.|items?)\s")
# The words of an annex in an address key, before its letter («Annex A 5.1», «прил. А п. А.2»).
ANNEX_WORDS = frozenset({"annex", "appendix", "прил", "приложение"})
# Words that name a part of a document and stay in its address («Appendix C item 1», «Chapter 2»).
PART_WORDS = frozenset(
    "appendix annex attachment chapter part subpart article recital schedule exhibit footnote "
    "прил приложение раздел разд глава гл статья ст часть сноска".split()
)
# Words a citation may put before a heading it names by title («chapter «Catalog Zones»», «раздел «Общие положения»»).
TITLE_WORDS = re.compile(r"^(?:chapter|section|heading|глава|раздел|заголовок)\s+", re.IGNORECASE)


@lru_cache(maxsize=1 << 16)  # every clause id of a document is keyed again for each citation read by its path
def address_key(text: str) -> tuple[str, ...]:
    """The label path a clause id or a citation names, as atoms: «§5.3.2 item 5.b» → (5.3.2, 5, b).

    Words that only say a label's kind («§», «item», «п.», «control») drop out; brackets split
    atoms («11.10(a)(1)» → 11.10, a, 1); a number followed by one letter («5.b») is an item and its
    sub-item. Case and «ё» are folded.
    """
    out: list[str] = []
    for m in _ATOM.finditer(_KIND_WORDS.sub(" ", text)):
        atom = (m.group(1) or m.group(2)).casefold().replace("ё", "е")
        atom = "article" if atom == "art" else atom  # «Art. 5(1)» is «Article 5(1)»
        if re.fullmatch(r"\d{1,3}(?:\.\d{1,3})*\.[a-zа-я]", atom):  # «5.b», «03.01.01.a»: a point and its item
            out.extend(atom.rsplit(".", 1))
        elif statement := _STATEMENT.fullmatch(atom.rstrip(".")):  # «AC-2a.1.»: control AC-2, its statement a.1
            out.extend(statement.groups())
        else:
            out.append(atom.rstrip("."))
    return tuple(out)


__all__ = [
    "ANNEX_WORDS",
    "BLOCK",
    "CONTENTS_LINE",
    "LETTERS_NUMBERED_STYLE",
    "NAMED_STYLE",
    "PARAGRAPH_WORD",
    "PART_WORDS",
    "TITLE_WORDS",
    "Label",
    "Open",
    "Outline",
    "address_key",
    "block_labels",
    "chained",
    "full_label",
    "letter_value",
    "opens_item",
    "read_label",
    "roman_value",
    "run_in",
    "shaped_id",
    "trim_end",
]
