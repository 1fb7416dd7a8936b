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

from docshelf.law import shapes

BLOCK = re.compile(r"[^\n]+(?:\n(?!\n)[^\n]*)*")  # a Markdown block: lines up to a blank line
# A printed contents line («1.1 Scope ........ 3»): its number is the contents', not a label of the text.
CONTENTS_LINE = re.compile(r"(?:\.\s?){4,}\s*[\divxlc]*\s*$|…{2,}", re.IGNORECASE)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_ROMAN_LABEL = re.compile(r"^(?:x{0,3})(?:ix|iv|v?i{0,3})$")
LATIN = "abcdefghijklmnopqrstuvwxyz"
CYRILLIC = "абвгдежзиклмнопрстуфхцчшщэюя"  # how Russian acts letter their sub-points (no ё, й, ъ, ы, ь)


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
    for alphabet in (LATIN, CYRILLIC):
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
_ROMAN_GLUED = re.compile(r"^\(([ivx]{2,5})\)(?=[a-z])")  # «(iii)any known …»: a print that lost the space
_RPAREN = re.compile(r"^(\d{1,3}|[a-z]|[а-я]|[ivx]{2,5})\)" + _AFTER)
# A named kind and its id: «TASK P-1», «Task M-3», «Step 2-1» (NIST RMF tasks), cited «Task P-1».
_WORDED = re.compile(r"^(Task|TASK|Step|STEP|Practice|PRACTICE)\s+([A-Z]{1,3}|\d{1,2})-(\d{1,3})(?=[\s:.,]|$)")
# A label named by a word (or two) the document repeats with numbers that succeed each other: «Step 1:», «Principle
# 2.», «Control Objective 1.2:», «Safeguard 1.2», «CIS Control 3:», «Шаг 2.», «Этап 3 —»; cited as printed, «Step 2».
# Not the grammar's named kinds (Article, Статья, Appendix …) nor a caption or a page line (Table 1, Рисунок 2, Page 3,
# Version 2).
_NAMED = re.compile(
    r"^((?:[A-Z]{2,6} |[A-Z][a-z]{2,15} )?[A-ZА-ЯЁ][a-zа-яё]{2,15}\.?|[A-ZА-ЯЁ]{2,15}) (\d{1,3}(?:\.\d{1,3}){0,2})"
    r"(?=[:.]?(?:\s+[A-ZА-ЯЁ«\"(]|\s*$)|\s+[—–-]\s)"
)
_NOT_NAMED = frozenset(
    "article section sec chapter part subpart appendix annex attachment schedule exhibit recital paragraph clause "
    "item point table figure fig page note example version revision edition volume vol issue draft release rfc "
    "art para tab tbl "
    "статья глава раздел подраздел часть приложение пункт подпункт абзац таблица рисунок рис страница стр "
    "примечание примечания пример версия редакция издание том выпуск форма".split()
)
# «step n», «cis control n», «safeguard n.n»; «sr n.n re n»: a label printed after its parent's («SR 1.1 RE 1»)
NAMED_STYLE = re.compile(r"[^\W\d_]+(?: [^\W\d_]+)? n(?:\.n)*(?: [^\W\d_]+ n(?:\.n)*)?")
# The clause id of a word-named label: «Step 2», «CIS Control 3», «Control Objective 1.2», «SR 1.1 RE 1»
NAMED_ID = re.compile(
    r"(?:[A-Z]{2,6} |[A-Z][a-z]{2,15} )?[^\W\d_]{2,16} \d{1,3}(?:\.\d{1,3}){0,2}(?: [^\W\d_]{2,16} \d{1,3})?"
)
_ID_DASH = re.compile(r"^((?:[A-Z]{1,6}\.)*[A-Z]{1,6})-(\d{1,3})(?:\s?\((\d{1,3})\))?(?=[\s:.,]|$)")
_LETTERS_NUMBERED = re.compile(r"^([A-Z]{1,3}\d{1,2})\.(\d{1,3})(?=[\s:]|$)")
_ALPHA_DOTTED = re.compile(r"^([A-ZА-Я]{1,6})\.(\d{1,3}(?:\.\d{1,3})*)(\.?)(?=\s|$|:|[A-ZА-ЯЁ])")
# A multi-level number is followed by its text's first capital («6.1.1 Изложение»), never «3.5 мм».
_DOTTED = re.compile(
    r"^(\d{1,3}(?:\.\d{1,3})+)(\.?)(?=\s+[^\sa-zа-яё]|$|[A-ZА-ЯЁ]|[a-z]\s+[A-Z]"
    # or a term defined in a standard's terms section, its words in lower case up to a colon or a dash:
    # «3.1 автоматизированная система; АС: Система …», «3.2 access control: means …» (not «3.5 мм толщина»)
    r"|\s+[a-zа-яё][^.:;\n]{0,80}?(?:[;,][^.:\n]{0,40})?(?::\s|\s[—–]\s))"
)
_INSERTED = re.compile(r"[A-Za-z](?=\s+[A-Z])")  # a letter after a number, then a title: an inserted label
_SINGLE_DOT = re.compile(r"^(\d{1,3}|[a-zA-Zа-яА-Я]|[IVXivx]{2,5})\.(?=\s|[A-ZА-ЯЁ])")
_BARE = re.compile(r"^(\d{1,2})\s+(?=[A-ZА-ЯЁ][a-zа-яё])")
_FOOTNOTE = re.compile(r"^<(\d{1,3}|\*{1,3})>" + _AFTER)  # «<1>», «<*>» (ConsultantPlus)


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
    elif m := _ROMAN_GLUED.match(text):
        out.extend(r for r in _value_readings(m.group(1), "({})", m.group(0), m.end(), glued=True) if r.style == "(i)")
    elif m := _RPAREN.match(text):
        out.extend(_value_readings(m.group(1), "{})", m.group(0), m.end()))
    elif m := _WORDED.match(text):
        word, series, number = m.group(1).capitalize(), m.group(2), m.group(3)
        atom = f"{word} {series}-{number}"
        out.append(Label(m.group(0), f"{word} X-n", int(number), atom, f"{word} {series}", length=m.end()))
    elif (m := _NAMED.match(text)) and m.group(1).split()[-1].rstrip(".").casefold() not in _NOT_NAMED:
        word, number = m.group(1).removesuffix("."), m.group(2)  # «Req. 1.2» is «Req 1.2» in an address
        parts = number.split(".")
        parent = f"{word} {'.'.join(parts[:-1])}" if len(parts) > 1 else ""
        style = f"{word.casefold()} " + ".".join("n" for _ in parts)
        rest = text[m.end() :]
        inner = _NAMED.match(rest.lstrip(" ")) if rest.startswith(" ") else None
        if (
            inner
            and inner.group(1).rstrip(".").casefold() not in _NOT_NAMED
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
        if parts[0] == "0" and any(len(p) > 2 or p.startswith("0") for p in parts[1:]):
            return []  # «0.046 Signatures per second», «0.9.26.»: a measure or a version, no label («0.1» is one)
        out.append(Label(numbers + dot, style, int(parts[-1]), numbers, ".".join(parts[:-1]), glued, m.end()))
    elif m := _SINGLE_DOT.match(text):
        glued = text[m.end() : m.end() + 1].isalpha()
        if glued and (not m.group(1).isdigit() or _name_after(text, m.end())):
            return []  # «U.S.», «e.g.»: an abbreviation, «10.IN-ADDR.ARPA.» a domain name, not «2.Текст»
        out.extend(_value_readings(m.group(1), "{}.", m.group(0), m.end(), glued=glued))
    elif m := _FOOTNOTE.match(text):
        mark = m.group(1)
        value = len(mark) if mark.startswith("*") else int(mark)
        out.append(Label(m.group(0), "<n>", value, mark, length=m.end()))
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
    cyrillic = value[0].casefold() in CYRILLIC
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


def full_label(label: Label) -> str:
    """The label's full name: «6.1.1», «PR.AC-4», «AC-2 (1)» as «AC-2(1)»."""
    if label.style == "ID-n(n)":
        return f"{label.parent}({label.atom})"
    return label.atom


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
    "appendix annex attachment chapter part subpart article recital schedule exhibit footnote note "
    "прил приложение раздел разд глава гл статья ст часть сноска примечание".split()
)
# Words a citation may put before a heading it names by title («chapter «Catalog Zones»», «раздел «Общие положения»»).
TITLE_WORDS = re.compile(r"^(?:chapter|section|heading|глава|раздел|заголовок)\s+", re.IGNORECASE)


# A part named in another case («приложения А», «статьи 5», «главы 2») is the part its clause id abbreviates.
_PART_FORMS = {"прилож": "прил", "статьи": "ст", "статье": "ст", "статья": "ст", "главы": "гл", "главе": "гл",
               "примеч": "примечание"}  # fmt: skip


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
        atom = _PART_FORMS.get(atom[:6], atom) if atom[:6] in _PART_FORMS and atom.isalpha() else atom
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
    "CYRILLIC",
    "LATIN",
    "NAMED_ID",
    "NAMED_STYLE",
    "PARAGRAPH_WORD",
    "PART_WORDS",
    "TITLE_WORDS",
    "Label",
    "address_key",
    "block_labels",
    "chained",
    "full_label",
    "letter_value",
    "opens_item",
    "read_label",
    "roman_value",
    "shaped_id",
    "trim_end",
]
