"""The one clause grammar: every kind of heading and clause DocShelf knows, as data.

For each kind the table says how it is recognised in a document (``heading`` for a heading line,
``opens`` for a paragraph that opens a clause inside a section), how its clause id is spelled
(``prefix`` + number: ``ст. 12``, ``ч. 3``, ``подп. «а»``, ``§4.2.1``) and how a citation names it
(``cite``: «статья 12», «ст.12», «п. 1», «Section 4.2»). Heading detection (``build.structure``),
the clause table (``law.clauses``), completeness, cleaning, splitting, the converters and citation
parsing (``text.citations``) all read these tables; a new document family is added here, with its
table tests, not as another copy of a regex in the module that needs it.

Pure: regular expressions and small functions, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Letter-spaced headings («С т а т ь я  1.») appear in preformatted texts: allow one space between letters.
_SP = r"\s?"


def _spaced(word: str) -> str:
    return _SP.join(word)


_ORDINALS = "ПЕРВЫЙ|ВТОРОЙ|ТРЕТИЙ|ЧЕТВЕРТЫЙ|ЧЕТВЁРТЫЙ|ПЯТЫЙ|ШЕСТОЙ|СЕДЬМОЙ|ВОСЬМОЙ|ДЕВЯТЫЙ|ДЕСЯТЫЙ"
ARTICLE_NUMBER = r"\d+(?:\.\d+)*(?:-\d+)?"  # «10.2-1», «15.1», «7»
ANNEX_NUMBER = r"\d+(?:\.\d+)?"  # «Приложение N 1.2»
DECIMAL = r"\d+(?:\.\d+)*"  # «29.3.2», «4.2.1»
SECTION_NUMBER = r"(?:[A-Z]\.)?\d+(?:\.\d+)*"  # RFC and standard sections, appendix subsections «A.1»

# ---------------------------------------------------------------------------------------------------
# Headings: kinds of heading lines, in the order they are tried; ``rank`` orders levels (smaller = higher).


@dataclass(frozen=True)
class HeadingKind:
    name: str
    rank: int
    heading: re.Pattern[str]  # matches the heading's plain text; group 1 = its number
    prefix: str  # clause id prefix («ст.»), "" when the kind has no clause id


HEADINGS: tuple[HeadingKind, ...] = (
    HeadingKind(
        "razdel",
        10,
        re.compile(rf"^(?:{_spaced('Раздел')}|РАЗДЕЛ)\s+([IVXLCDM]+|\d+|{_ORDINALS})\b", re.IGNORECASE),
        "разд.",
    ),
    HeadingKind(
        "prilozhenie",
        10,
        re.compile(rf"^(?:Приложение|ПРИЛОЖЕНИЕ)(?:\s+(?:N|№)?\s*({ANNEX_NUMBER}))?(?=\s|$|\.)"),
        "прил.",
    ),
    HeadingKind("appendix", 10, re.compile(r"^Appendix\s+([A-Z])\b\.?"), "Appendix"),
    HeadingKind("glava", 20, re.compile(rf"^(?:{_spaced('Глава')}|ГЛАВА)\s+(\d+(?:\.\d+)*|[IVXLC]+)\b"), "гл."),
    HeadingKind("roman", 30, re.compile(r"^([IVXLC]+)\.\s+\S"), "разд."),
    HeadingKind("statya", 40, re.compile(rf"^(?:{_spaced('Статья')}|СТАТЬЯ)\s+({ARTICLE_NUMBER})(?=\.|\s|$)"), "ст."),
    HeadingKind("num", 50, re.compile(r"^((?:[A-ZА-Я]\.)?\d{1,3}(?:\.\d{1,3})*)\.?\s+[«\"(]?(?=\S*[^\W\d_])\w"), "п."),
)
HEADING = {k.name: k for k in HEADINGS}

# A heading inside a section's Markdown (a whole short document kept as one file) opens its own clause.
ARTICLE_HEADING = re.compile(rf"^(?:{_spaced('Статья')}|СТАТЬЯ)\s+({ARTICLE_NUMBER})")
ANNEX_HEADING = HEADING["prilozhenie"].heading
SECTION_HEADING = re.compile(rf"^({SECTION_NUMBER})\.?\s")
# Any structural word that opens a heading (for joining wrapped headings and refusing false joins).
STRUCTURAL_START = re.compile(r"^(?:Статья|Глава|Раздел|Приложение|С т а т ь я)\s", re.IGNORECASE)

# A document approved by the act: the stamp («УТВЕРЖДЕНЫ постановлением …») and its title («ТРЕБОВАНИЯ …»).
APPROVAL_STAMP = re.compile(r"^(?:УТВЕРЖДЕН[АЫО]?|Утвержден[аыо]?)\b")
APPROVED_TITLE = re.compile(r"^[А-ЯЁ]{4,}\b")

# ---------------------------------------------------------------------------------------------------
# Clauses inside a section: what opens a part, item, sub-item or measure row, as a paragraph's start.

PART_DOT = re.compile(rf"^({DECIMAL})\.\s")  # «3.» part of an article / «29.1.» point of an order
ITEM_PAREN = re.compile(rf"^({DECIMAL})\)\s")  # «2)» item
LETTER_ITEM = re.compile(r"^([а-яё])\)\s")  # «а)» sub-item
PART_NUMBER = re.compile(rf"^({DECIMAL})[.)]\s")  # either: the numbers a split piece covers
TOP_PART = re.compile(r"^\d+\.\s")  # «3.» but not «3.1.»: where a long article may be cut
MEASURE_ROW = re.compile(r"^\|\s*([A-ZА-Я]{2,5}\.\d+)\b")  # «| УПД.1 | …» a row of an annex measure table

# Where a new paragraph starts inside hard-wrapped text: numbered clauses and items, lettered items,
# Roman section numbers, bullets, and the Russian structural words (also letter-spaced, as in
# typewritten acts: «С т а т ь я  1.»).
_WORDS = "Статья|Глава|Раздел|Приложение"
WRAPPED_PARAGRAPH_START = re.compile(
    r"^(?:\d+(?:\.\d+)*[.)](?:\s|$)|[а-яёa-z]\)\s|\([а-яёa-z0-9]{1,3}\)\s|[IVXLC]+\.\s|[-–—•*o]\s"
    rf"|(?:{_WORDS}|{_WORDS.upper()})\b"
    r"|С т а т ь я|Г л а в а|Р а з д е л)"
)
# The same for lines of a PDF page (where «-» and «•» also open list items).
PDF_PARAGRAPH_START = re.compile(
    r"^(?:\d+(?:\.\d+)*[.)]\s|[а-яa-z]\)\s|[IVXLC]+\.\s|Статья\s|Глава\s|Раздел\s|Приложение|"
    r"ГЛАВА\s|РАЗДЕЛ\s|ПРИЛОЖЕНИЕ|-\s|•|–\s|—\s)"
)
# A numbered section title on its own line (RFC and standard layouts), and one run into its text.
NUMBERED_TITLE = re.compile(rf"^{SECTION_NUMBER}\.?\s+[A-ZА-ЯЁ][^.;:]{{0,80}}$")
RUN_IN_TITLE = re.compile(r"^((?:[A-Z]\.)?\d+(?:\.\d+)+\.?\s+[A-Z][^.;:]{2,80}?)(\s{6,})(\S.*)$")
TEXT_NUMBERED_HEADING = re.compile(rf"^({DECIMAL})\.?( +)(\S.*)$")
TEXT_APPENDIX = re.compile(r"^Appendix ([A-Z](?:\.\d+)*)\.?\s")

# Contents pages: an article line, a numbered line ending in a page number.
CONTENTS_ARTICLE = re.compile(rf"^(?:Статья|СТАТЬЯ)\s+({ARTICLE_NUMBER})")
CONTENTS_NUMBERED = re.compile(rf"^({SECTION_NUMBER})\.?\s+\S.*?(?:\.{{2,}}|…+|\s)\s*\d{{1,4}}$")
CONTENTS_SECTION = re.compile(rf"^({SECTION_NUMBER})\.?\s")

# ---------------------------------------------------------------------------------------------------
# Clause ids: one spelling for each kind.

ARTICLE = "ст."
PART = "ч."
POINT = "п."
SUBPOINT = "пп."
LETTER = "подп."
PARAGRAPH = "абз."
ANNEX = "прил."
CHAPTER = "гл."
DIVISION = "разд."
SECTION = "§"


def article_id(number: str) -> str:
    return f"{ARTICLE} {number}"


def part_id(number: str) -> str:
    return f"{PART} {number}"


def point_id(number: str) -> str:
    return f"{POINT} {number}"


def subpoint_id(number: str) -> str:
    return f"{SUBPOINT} {number}"


def letter_id(letter: str) -> str:
    return f"{LETTER} «{letter}»"


def paragraph_id(number: int | str) -> str:
    return f"{PARAGRAPH} {number}"


def annex_id(number: str | None) -> str:
    return f"{ANNEX} {number or ''}".strip()


def section_id(number: str) -> str:
    return f"{SECTION}{number}"


def heading_clause_id(kind: str, number: str, *, english: bool = False) -> str:
    """The citation form of a heading: «ст. 10.2-1», «гл. 3», «п. 1.2», «§4.2.1», «прил. 2»."""
    if not number and kind != "prilozhenie":
        return ""
    if kind == "num" and english:
        return section_id(number)
    prefix = HEADING[kind].prefix if kind in HEADING else ""
    return f"{prefix} {number}".strip() if prefix else ""


def is_article(clause: str) -> bool:
    return clause.startswith(ARTICLE + " ")


def is_annex(clause: str) -> bool:
    return clause.startswith(ANNEX)


def is_section(clause: str) -> bool:
    return clause.startswith(SECTION)


_ARTICLE_ID = re.compile(rf"^{re.escape(ARTICLE)} (\d+)(?:\.(\d+))?")


def article_key(clause: str) -> tuple[int, int] | None:
    """(number, sub-number) of an article clause id: «ст. 10.1» → (10, 1); None for other kinds."""
    m = _ARTICLE_ID.match(clause)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


def range_label(prefix: str, first: str, last: str) -> str:
    """The clauses a piece of a split article covers: «ч. 1–7», «§4.2», «п. 3»."""
    sep = "" if prefix == SECTION else " "
    return f"{prefix}{sep}{first}" if first == last else f"{prefix}{sep}{first}–{last}"


# Search keys of clause references («ст_19»): the analyzer strips these to match a bare number.
REFERENCE_KEY = re.compile(r"^(?:ст|ч|п|гл)_(?=\d)")

# ---------------------------------------------------------------------------------------------------
# Editorial text: DocShelf marks what is not the act's own words (publisher notes, amendment history,
# breadcrumbs) as a Markdown quote line. Verification and clause diffs skip those lines.

EDITORIAL_MARK = "> "
_EDITORIAL_LINE = re.compile(r"(?m)^>[^\n]*")


def editorial(text: str) -> str:
    """``text`` as editorial lines."""
    return "\n".join(EDITORIAL_MARK + ln for ln in text.split("\n"))


def is_editorial(line: str) -> bool:
    return line.startswith(">")


def blank_editorial(text: str) -> str:
    """The text with editorial lines turned into spaces; offsets stay aligned with the stored text."""
    return _EDITORIAL_LINE.sub(lambda m: " " * len(m.group(0)), text)
