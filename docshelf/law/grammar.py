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

from docshelf.law.lexicon import name_forms

# Letter-spaced headings («С т а т ь я  1.») appear in preformatted texts: allow one space between letters.
_SP = r"\s?"


def _spaced(word: str) -> str:
    return _SP.join(word)


_ORDINALS = "ПЕРВЫЙ|ВТОРОЙ|ТРЕТИЙ|ЧЕТВЕРТЫЙ|ЧЕТВЁРТЫЙ|ПЯТЫЙ|ШЕСТОЙ|СЕДЬМОЙ|ВОСЬМОЙ|ДЕВЯТЫЙ|ДЕСЯТЫЙ"
ARTICLE_NUMBER = r"\d+(?:\.\d+)*(?:-\d+)?"  # «10.2-1», «15.1», «7»
ANNEX_NUMBER = r"\d+(?:\.\d+)?"  # «Приложение N 1.2»
# ГОСТ annexes «Приложение А (обязательное)» (no З Й О Ч Ъ Ы Ь), or a Latin letter in a translated standard
# («Приложение C: Требования …» of ASVS in Russian, «прил. A» of an ISO/IEC standard); a ГОСТ Р's national
# annex «Приложение ДА», «ДБ» beside the annexes of the international text it adopts
ANNEX_LETTER = r"(?-i:Д[А-ЕЖИК-НП-УФ-ЩЭ-Я]|[А-ЕЖИК-НП-УФ-ЩЭ-ЯA-HJ-Z])(?![\w-])"
DECIMAL = r"\d+(?:\.\d+)*"  # «29.3.2», «4.2.1»
# RFC and standard sections, appendix subsections «A.1»; a section inserted by an amendment «12A», «1.3A»
SECTION_NUMBER = r"(?:[A-Z]\.)?\d+(?:\.\d+)*(?:[A-Z](?![\w.\-]))?"

# ---------------------------------------------------------------------------------------------------
# Headings: kinds of heading lines, in the order they are tried; ``rank`` orders levels (smaller = higher).


@dataclass(frozen=True)
class HeadingKind:
    name: str
    rank: int
    heading: re.Pattern[str]  # matches the heading's plain text; group 1 = its number
    prefix: str  # clause id prefix («ст.»), "" when the kind has no clause id


_NAMED_SECTION = r"\d{1,3}(?:\.\d{1,3})*[a-z]?"
_SECTION_WORD = r"Section|SECTION|Sec\.|SEC\."
# «ARTICLE IV GENERAL PROVISIONS» of an agreement, its «Section 4.01» inside: roman as well as arabic.
EN_ARTICLE_HEADING = re.compile(r"^(?:Article|ARTICLE)\s+(\d{1,3}[a-z]?|[IVXL]{1,7})(?=$|\.?\s+[A-Z‘'\"(])")
_CODE = r"[A-Z]{1,6}(?:[.-][A-Z0-9]{1,6}){1,5}"  # «AC-17», «PR.AC-4», «AC.L2-3.1.1», «A.5.1»: an id in brackets
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
        re.compile(rf"^(?:Приложение|ПРИЛОЖЕНИЕ)(?:\s+(?:N|№)?\s*({ANNEX_NUMBER}|{ANNEX_LETTER}))?(?=\s|$|\.|:)"),
        "прил.",
    ),
    # «Appendix F.1. Multiple Networks» (RFC 4271): a section of an appendix, cited «§F.1».
    HeadingKind("subappendix", 15, re.compile(r"^Appendix\s+([A-Z](?:\.\d+)+)\.?(?=\s|$)"), "§"),
    # «Appendix E. TCP Options», «Appendix A References»; not «Appendix B provides definitions …».
    HeadingKind(
        "appendix",
        10,
        re.compile(r"^(?:Appendix|APPENDIX)\s+([A-Z])(?=$|[.:—–]|\s+[–—-]\s|\s+[A-Z0-9«\"(])\.?"),
        "Appendix",
    ),
    # An English act's annex: «ANNEX III» on its line (the title follows), «Annex I List of …»; not «Annex III
    # shall …».
    HeadingKind("annex", 10, re.compile(r"^(?:ANNEX|Annex)\s+([IVXLC]+|[A-Z]|\d{1,2})(?=$|\s+[A-Z‘'\"(—–])"), "Annex"),
    # An English act's chapter and the sections inside it, in capitals («CHAPTER III» / «HIGH-RISK AI SYSTEMS»,
    # «SECTION 2»); a guide's «Chapter 2 The Fundamentals» with its title on its line. A NIST page header
    # «CHAPTER 1» alone is furniture, and «Chapter 2 of Title V» a reference.
    HeadingKind(
        "chapter",
        20,
        re.compile(r"^(?:CHAPTER|Chapter)\s+((?<=CHAPTER )[IVXLC]+(?=$|\s+[A-Z])|\d{1,2}(?=\s+[A-Z][A-Za-z]))"),
        "Chapter",
    ),
    # An act's part in capitals, «PART 2 SECURITY», «Part 3—Enforcement»; not «Part 2 of this Act applies …».
    HeadingKind(
        "en_part", 18, re.compile(r"^(?:PART|Part)\s+(\d{1,2}|[IVXLC]+)(?=$|\s*[—–]\s*[A-Z]|\s+[A-Z]{2})"), "Part"
    ),
    HeadingKind("act_section", 25, re.compile(r"^SECTION\s+(\d{1,2})(?=$|\s+[A-Z])"), ""),
    # A statute's or an order's section named with its word and a period: «Section 1. Definitions.», «Sec. 2.
    # Policy.», «SEC. 101. SHORT TITLE.», cited «Section 1(a)», «§101».
    # An agreement's «Section 4.01 Defined Terms.», dotted, needs no period after its number.
    HeadingKind(
        "named_section",
        40,
        re.compile(rf"^(?:{_SECTION_WORD})\s+({_NAMED_SECTION})(?:\.|(?<=\.\d)|(?<=\.\d\d)|(?<=\.\d\d\d))\s+[A-Z]"),
        "§",
    ),
    HeadingKind("glava", 20, re.compile(rf"^(?:{_spaced('Глава')}|ГЛАВА)\s+(\d+(?:\.\d+)*|[IVXLC]+)\b"), "гл."),
    # «I. Общие положения» … «XXXIX.»; a lone «C.» or «L.» is a letter of a list («A.», «B.», «C.»), not 100 or 50.
    HeadingKind("roman", 30, re.compile(r"^([IVX]+)\.\s+\S"), "разд."),
    # A section of a regulation's part, named by its sign («§ 11.10 Controls for closed systems.»), cited «§11.10».
    HeadingKind("paragraph_sign", 40, re.compile(r"^§\s*(\d+(?:\.\d+)*[a-z]?)\.?\s+[A-ZА-ЯЁ]"), "§"),
    HeadingKind("statya", 40, re.compile(rf"^(?:{_spaced('Статья')}|СТАТЬЯ)\s+({ARTICLE_NUMBER})(?=\.|\s|$)"), "ст."),
    # An English act's article (EU regulations, agreements): «Article 6» on its line, the title on the next
    # or after it in capitals; not a sentence that opens with it («Article 10 shall apply …»).
    HeadingKind("article", 40, EN_ARTICLE_HEADING, "Article"),
    # «1.2 Scope», «А.1 Общие», «12A Power to issue guidance» (a section an amendment inserted after 12)
    HeadingKind(
        "num",
        50,
        re.compile(r"^((?:[A-ZА-Я]\.)?\d{1,3}(?:\.\d{1,3})*(?:[A-Z](?=\s))?)\.?\s+[«\"(]?(?=\S*[^\W\d_])\w"),
        "п.",
    ),
    # A paragraph heading of a notice or a directive, set in bold: «(a) Comments Due Date» … «(q) Related
    # Information» (a Federal Register AD), cited «(h)(6)»; only bold, short and in a run (``build.structure``).
    HeadingKind("lettered", 55, re.compile(r"^\(([a-z])\)\s+[A-Z][^.;:]{2,140}$"), ""),
    # A NIST security control: its id and its title in capitals («AC-2 ACCOUNT MANAGEMENT»), cited «AC-2».
    HeadingKind("control", 58, re.compile(r"^([A-Z]{2}-\d{1,2})\s+[A-Z][A-Z ,&/()-]{3,80}$"), ""),
    # A security plan template's heading: its title, then the control in brackets («Remote Access (AC-17)», «Access
    # Control Policy (AC.L2-3.1.1)»: an id of letters and numbers joined by «.» or «-», one number at least), or
    # an enhancement named by its kind («Control Enhancement AC-17 (1)»), cited «AC-17», «AC-17(1)».
    HeadingKind(
        "titled_control",
        58,
        re.compile(
            rf"^(?:[A-Z][^()]{{2,120}}?\s\((?=(?=[^)]*\d){_CODE}\)$)"  # any id with a number: «(AC.L2-3.1.1)»
            r"|Control\s+Enhancement\s+(?=[A-Z]{2}-\d{1,2}\s?\(\d{1,2}\)$))"
            rf"({_CODE}(?:\s?\(\d{{1,2}}\))?)\)?$"
        ),
        "",
    ),
)
HEADING = {k.name: k for k in HEADINGS}
ARTICLE_KINDS = frozenset({"statya", "article"})  # the headings a law or an act is cut at

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
# «Annex A A.5.1.1», «прил. A п. A.5.1.1»: an annex named before a label that already carries its letter.
OWN_ANNEX = re.compile(
    r"^(?:annex|appendix|прил\.?|приложени[еяи])\s+([A-ZА-Я])\s*,?\s+(?=(?:control\s+|п\.\s*|пункт\s+)?\1\.\d)", re.I
)
ITEM = "item"  # a numbered list item in an English clause id: «§4.2 item 5.b», ««References» item 2»
# A group named by its title and its id in brackets: «Prepare the Organization (PO)», «Asset Management
# (ID.AM): The data …» — the id of a series whose members («PO.1», «ID.AM-1») the group holds.
BRACKETED_ID = r"\((?P<id>[A-Z]{2,}(?:[.-][A-Z\d]{1,4})*)\)"
MEASURE_ROW = re.compile(r"^\|\s*([A-ZА-Я]{2,5}\.\d+)\b")  # «| УПД.1 | …» a row of an annex measure table
# «| 2.1.1 | Verify that … | ✓ | ✓ | ✓ | 521 |» or «| V2.1.1 | …»: a row of an OWASP ASVS requirement table.
# «(1) The organization employs …» under a control heading: the control's enhancement «AC-2(1)».
CONTROL_ENHANCEMENT = re.compile(r"^\((\d{1,2})\)\s")
CONTROL_ID = re.compile(r"^[A-Z]{2}-\d{1,2}$")
# A control named by its kind before its id, as a security plan's template heads its parts: «Control AC-2»,
# «Control Enhancement AC-2 (1)».
NAMED_CONTROL = re.compile(
    r"^(?:Security\s+)?Control(?:\s+Enhancement)?\s+([A-Z]{2}-\d{1,2})(?:\s*\((\d{1,2})\))?$", re.I
)
REQUIREMENT_ROW = re.compile(r"^\|\s*V?(\d{1,2}\.\d{1,2}\.\d{1,2})\s*\|")
REQUIREMENT_HEADER = re.compile(r"^\|\s*(?:#|№|ID)\s*\|")  # only such a table's rows are requirements

# A line that ends with a reference's word: the number opening the next line is the reference's («… described in
# Section» / «10.  Each timer …»), no clause starting a paragraph.
REFERENCE_CUT = re.compile(
    r"(?i)(?:\b(?:sections?|articles?|appendix|annex|items?|paragraphs?|clauses?|rfc|статьи|статьей|пункта|пунктом|"
    r"пунктах?|части|раздела|разделе|приложения|приложении)|§|\bп\.|\bст\.|\bч\.)$"
)
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
# (a point's number glued to its first word, «3.2.1.Анализ документации», as contracts and Word exports print it)
PDF_PARAGRAPH_START = re.compile(
    r"^(?:\d+(?:\.\d+)*[.)]\s|\d{1,2}(?:\.\d{1,2})+\.(?=[A-ZА-ЯЁ][a-zа-яё])|\d+\.\d+\.\d+\s+[A-Z]|[а-яa-z]\)\s|\((?:\d{1,3}|[a-z]{1,2}|[ivx]{2,5})\)(?:\s|$)|"
    r"\(\d{1,3}\)(?=[A-Z‘“\"'])|[IVXLC]+\.\s|[A-Z]\.\s(?=[A-Z])|Статья\s|Глава\s|Раздел\s|Приложение|"
    r"ГЛАВА\s|РАЗДЕЛ\s|ПРИЛОЖЕНИЕ|-\s|•|–\s|—\s)"
)
# A numbered requirement opening its paragraph in an English standard: «3.1.1 Limit system access …» (NIST SP
# 800-171): three levels or more, then a capital; a clause inside its section («§3.1.1» in «§3.1»).
# A line of a printed contents («4.4.2 IAL2 Trusted Referee Proofing ........ 17») is none.
REQUIREMENT_START = re.compile(r"^(\d+(?:\.\d+){2,})\s+(?=[A-Z])(?!.*(?:\.\s?){4,})")
# A numbered section title on its own line (RFC and standard layouts), and one run into its text.
NUMBERED_TITLE = re.compile(rf"^{SECTION_NUMBER}\.?\s+[A-ZА-ЯЁ][^.;:]{{0,80}}$")
RUN_IN_TITLE = re.compile(r"^((?:[A-Z]\.)?\d+(?:\.\d+)+\.?\s+[A-Z][^.;:]{2,80}?)(\s{6,})(\S.*)$")
TEXT_NUMBERED_HEADING = re.compile(rf"^({DECIMAL})\.?( +)(\S.*)$")
TEXT_APPENDIX = re.compile(r"^Appendix ([A-Z](?:\.\d+)*)\.?\s")

# Contents pages: an article line, a numbered line ending in a page number.
CONTENTS_ARTICLE = re.compile(rf"^(?:Статья|СТАТЬЯ)\s+({ARTICLE_NUMBER})")
CONTENTS_NUMBERED = re.compile(rf"^({SECTION_NUMBER})\.?\s+\S.*?(?:\.{{2,}}|…+|\s)\s*\d{{1,4}}$")

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


FOOTNOTE_WORDS = {True: "footnote", False: "сноска"}  # english -> the word of a footnote's clause id
# «§3.5.3 footnote 22», «п. 5.1.2 подп. «г» пп. 2 сноска 2»: group 1 = the clause of its mark.
FOOTNOTE_ID = re.compile(rf"^(.*?) ?(?:{'|'.join(FOOTNOTE_WORDS.values())}) \d+$")


def footnote_id(owner: str, number: int, *, english: bool) -> str:
    """A footnote's clause id: the clause whose text carries its mark, the word, its number."""
    return f"{owner} {FOOTNOTE_WORDS[english]} {number}".strip()


def footnote_owner(clause: str) -> str | None:
    """The clause a footnote id belongs to («§3.5.3» of «§3.5.3 footnote 22»); None for any other id."""
    m = FOOTNOTE_ID.match(clause)
    return m.group(1) if m else None


# A standard's note to the clause it follows: ISO's «NOTE 2 …», «NOTE …», «Note: …»; a ГОСТ's «Примечание — …»,
# «Примечание 1 — …». Group 1: its number, when it has one. («Note that …» opens an ordinary sentence.)
NOTE_LINE = re.compile(
    r"^(?:NOTE(?:\s+(\d{1,2}))?(?:\s*[:—–-]\s*|\s+)(?=\S)|Note(?:\s+(\d{1,2}))?\s*[:—–]\s*"
    r"|Примечание(?:\s+(\d{1,2}))?\s*[.:—–-]\s*(?=\S))"  # a code's article ends with «Примечание. …»
)
# «Примечания:» (or «Примечания.») alone: the numbered paragraphs after it («1. …», «2. …») are notes 1, 2
NOTES_HEAD = re.compile(r"^Примечания\s*[.:]?\s*$")
# «Примечания 1 Для проверки … органами. 2 Результаты …»: a ГОСТ's numbered notes printed in one paragraph
NOTES_INLINE = re.compile(r"^Примечания\s*[.:—–-]?\s+(?=1\.?\s+\S)")
NOTE_WORDS = {True: "NOTE", False: "примечание"}  # english -> the word of a note's clause id
NOTE_ID = re.compile(rf" (?:{'|'.join(NOTE_WORDS.values())})(?: \d+)?$")  # «§6.1.3 NOTE 2», «п. 4.2 примечание»


def note_id(owner: str, number: str | None, *, english: bool) -> str:
    """A note's clause id: the clause it is a note to, the word, its number if it has one («§6.1.3 NOTE 2»)."""
    return " ".join(x for x in (owner, NOTE_WORDS[english], number or "") if x)


def note_number(m: re.Match[str]) -> str | None:
    return m.group(1) or m.group(2) or m.group(3)


def enhancement_id(control: str, number: str) -> str:
    return f"{control}({number})"


def requirement_id(number: str) -> str:
    """An ASVS requirement as it is cited: «V2.1.1» (the tables print «2.1.1» under the chapter «V2»)."""
    return f"V{number.removeprefix('V')}"


# An English chapter heading, its number spelled out as NIST and Sphinx manuals print it: «CHAPTER THREE».
_NUMBER_WORDS = "ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN FOURTEEN FIFTEEN".split()
CHAPTER_HEADING = re.compile(rf"^(?:CHAPTER|Chapter)\s+(\d{{1,2}}|{'|'.join(_NUMBER_WORDS)})\b")


def chapter_id(number: str) -> str:
    """«Chapter 3» for «3» or «THREE»."""
    value = str(_NUMBER_WORDS.index(number.upper()) + 1) if number.upper() in _NUMBER_WORDS else number
    return f"Chapter {value}"


def heading_clause_id(kind: str, number: str, *, english: bool = False) -> str:
    """The citation form of a heading: «ст. 10.2-1», «гл. 3», «п. 1.2», «§4.2.1», «прил. 2»."""
    if not number and kind != "prilozhenie":
        return ""
    # An English document's «I. Background»: a division cited «section I», «I.A.1», not a Russian «разд.».
    if (kind in ("num", "roman") and english) or kind in {"subappendix", "paragraph_sign", "named_section"}:
        return section_id(number)
    if kind in ("control", "titled_control"):
        return number.replace(" ", "")
    if kind == "lettered":
        return f"({number})"
    prefix = HEADING[kind].prefix if kind in HEADING else ""
    return f"{prefix} {number}".strip() if prefix else ""


def heading_id(text: str, *, english: bool = False, kinds: frozenset[str] | None = None) -> str:
    """The clause id of a heading's text («Глава 3. …» → «гл. 3», «CHAPTER THREE …» → «Chapter 3»), of its
    first matching kind (only ``kinds`` when given); "" when it is none of them."""
    plain = str(text).replace("*", "").strip()
    if kinds is None and (m := CHAPTER_HEADING.match(plain)):
        return chapter_id(m.group(1))
    for kind in HEADINGS:
        if (kinds is None or kind.name in kinds) and (m := kind.heading.match(plain)):
            return heading_clause_id(kind.name, m.group(1) or "", english=english)
    return ""


def is_article(clause: str) -> bool:
    return clause.startswith(ARTICLE + " ")


EN_ARTICLE = "Article"
RECITAL = "Recital"  # a numbered paragraph of an English act's preamble: «Recital 26»


def is_en_article(clause: str) -> bool:
    """An English act's article («Article 6»): its paragraphs are cited «Article 6(1)», its points «(1)(a)»."""
    return clause.startswith(EN_ARTICLE + " ") and clause[len(EN_ARTICLE) + 1 : len(EN_ARTICLE) + 2].isdigit()


def is_annex(clause: str) -> bool:
    return clause.startswith(ANNEX)


EN_ANNEX = "Annex"
# The parts whose name qualifies a label printed again inside them («Appendix I AC-2», «прил. 2 УПД.1»).
PART_PREFIXES = ("Appendix ", f"{EN_ANNEX} ", ANNEX)


def is_section(clause: str) -> bool:
    return clause.startswith(SECTION)


_ARTICLE_ID = re.compile(rf"^{re.escape(ARTICLE)} (\d+)(?:\.(\d+))?")


def article_key(clause: str) -> tuple[int, int] | None:
    """(number, sub-number) of an article clause id: «ст. 10.1» → (10, 1); None for other kinds."""
    m = _ARTICLE_ID.match(clause)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


EN_PARAGRAPHS = "paragraphs"  # the pieces of an English article: «(paragraphs 1–4)»


def range_label(prefix: str, first: str, last: str) -> str:
    """The clauses a piece of a split article covers: «ч. 1–7», «§4.2», «п. 3», «paragraphs 1–4»."""
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


# ---------------------------------------------------------------------------------------------------
# Citations: how people name a clause («п. 1 ч. 2 ст. 12», «статья 19 часть 1», «Section 4.2», «УПД.1»).
# A reference is read completely or refused: every token must be a component, a filler word, or part
# of the document id; what is left is named back to the caller (``ParsedRef.unread``).


@dataclass(frozen=True)
class CiteKind:
    slot: str  # the component it fills; one of CITE_ORDER
    pattern: re.Pattern[str]  # tried at the current position; group 1 (and 2) = the number
    spell: str  # format of the clause id component: {0} = group 1, {1} = group 2


# «абзац третий пункта 2»: how acts themselves cite paragraphs (1–12; «последний» depends on the text).
_ORDINALS_1_12 = "перв втор трет четв[её]рт пят шест седьм восьм девят десят одиннадцат двенадцат".split()
_ORDINAL_STEMS = "|".join(_ORDINALS_1_12)
_OPEN_Q = "[«\"„“']?"
_CLOSE_Q = "[»\"”']?"
_END = r"(?![\w.-]*\w)"  # the number ends here: «ст. 12» but not «ст. 12а»
CITE_KINDS: tuple[CiteKind, ...] = (
    CiteKind(
        "annex",
        re.compile(rf"(?:прил\.?|приложени[еяюи]м?)\s*(?:N|№)?\s*({ANNEX_NUMBER}|{ANNEX_LETTER})?{_END}", re.I),
        "прил. {0}",
    ),
    CiteKind(
        "division",
        re.compile(rf"(?:разд\.?|раздел[аеу]?)\s*([IVXLCDM]+|\d+|{_ORDINALS})(?![\w.])", re.I),
        "разд. {0}",
    ),
    CiteKind("chapter", re.compile(r"(?:гл\.?|глав[аеуы])\s*(\d+(?:\.\d+)*|[IVXLC]+)(?![\w.])", re.I), "гл. {0}"),
    # «Chapter 3» of a NIST SP, «Chapter III» of an EU act
    CiteKind("chapter", re.compile(r"chapter\s+(\d{1,2}|[IVXLC]+)(?![\w.])", re.I), "Chapter {0}"),
    CiteKind(
        "article", re.compile(rf"(?:ст\.?|стать[яиеюей]+|article\s+|art\.)\s*({ARTICLE_NUMBER}){_END}", re.I), "ст. {0}"
    ),
    CiteKind("part", re.compile(rf"(?:ч\.?|част[ьияию]+)\s*({DECIMAL}){_END}", re.I), "ч. {0}"),
    CiteKind(
        "letter",
        # (a ГОСТ names its list items «перечисления»: «п. 4.2, перечисление а)»)
        re.compile(
            rf"(?:подп\.?|подпункт[а-я]*+|пп\.?|перечислени[а-я]*+)\s*{_OPEN_Q}([а-яё]){_CLOSE_Q}\)?(?!\w)", re.I
        ),
        "подп. «{0}»",
    ),
    CiteKind(
        "subpoint",
        re.compile(rf"(?:подп\.?|подпункт[а-я]*|пп\.?|перечислени[а-я]*)\s*({DECIMAL}){_END}", re.I),
        "пп. {0}",
    ),
    CiteKind("point", re.compile(rf"(?:п\.?|пункт[а-я]*)\s*((?:[A-Z]\.)?{DECIMAL}){_END}", re.I), "п. {0}"),
    CiteKind("paragraph", re.compile(r"(?:абз\.?|абзац[а-я]*)\s*(\d+)(?![\w.])", re.I), "абз. {0}"),
    CiteKind("paragraph", re.compile(rf"(?:абз\.?|абзац[а-я]*)\s*({_ORDINAL_STEMS})[а-яё]*(?!\w)", re.I), "абз. {0}"),
    # «s. 3(1)(a)» of a Commonwealth act, as «section 3(1)(a)»
    CiteKind(
        "section",
        re.compile(rf"(?:§\s*|section\s+|sect?\.\s*|ss?\.\s*|clause\s+)({SECTION_NUMBER}){_END}", re.I),
        "§{0}",
    ),
    CiteKind("section", re.compile(r"(?:appendix\s+|app\.\s*)([A-Z](?:\.\d+)+)(?![\w.])", re.I), "§{0}"),
    CiteKind("appendix", re.compile(r"(?:appendix\s+|app\.\s*|appx\.?\s*)([A-Z])(?![\w.])", re.I), "Appendix {0}"),
    CiteKind("code", re.compile(r"([A-ZА-ЯЁ]{2,5})\.(\d+)(?![\w.])"), "{0}.{1}"),  # annex measures «УПД.1»
    CiteKind("requirement", re.compile(r"(V\d+(?:\.\d+){1,3})(?![\w.])"), "{0}"),  # OWASP ASVS «V2.1.1»
    CiteKind("control", re.compile(r"([A-Z]{2}-\d+)\s*(?:\((\d+)\))?(?![\w.-])"), "{0}"),  # NIST «AC-2(1)»
    CiteKind("bare", re.compile(rf"({SECTION_NUMBER}){_END}"), "{0}"),  # «RFC 4271 4.2», «ГОСТ … 5.1.1.2»
)
# The order of components in a clause id, outermost first: «прил. 2 УПД.1», «ст. 12 ч. 3 п. 2 подп. «а»».
CITE_ORDER = (
    "annex",
    "division",
    "chapter",
    "article",
    "code",
    "part",
    "point",
    "subpoint",
    "letter",
    "paragraph",
    "section",
    "appendix",
    "requirement",
    "control",
)
GROUP_SLOTS = frozenset({"division", "chapter"})  # name a group of sections, not a clause span
# Words that name the kind of document or join the parts of a reference: they carry no clause.
FILLER_WORDS = frozenset(
    "of the in to в к из от федеральный федерального федеральным закон закона законом фз кодекс кодекса "
    "приказ приказа приказом постановление постановления постановлением указ указа указом правительства "
    "президента российской федерации рф россии фстэк фсб requirement requirements control rfc "
    "standard стандарт стандарта гост nist sp level l1 l2 l3 утв утвержден утверждены утвержденных утвержденные "
    "утвержденного утвержденной утвержденным".split()
)
_SKIP = re.compile(r"[\s,;:()\[\]/–—−«»“”„\"-]+|[.№]+(?=\s|$)|№|\bN(?=\s*\d)")  # quotes: a title's, cut out
_WORD_AT = re.compile(r"[^\s,;:()\[\]]+")


@dataclass(frozen=True)
class ParsedRef:
    """A citation's clause part as read: the components found, in canonical order, and what was not read."""

    components: dict[str, str]  # slot -> clause id component («ст. 12»)
    unread: tuple[str, ...]  # tokens that are neither components, fillers nor the document id
    repeated: tuple[str, ...]  # slots named twice («ст. 5 ст. 6»): a reference to two places is refused
    name: str = ""  # the document part it names («Требования»), as the document spells it

    def clause(self, *, slots: frozenset[str] | None = None) -> str:
        return " ".join(
            self.components[s] for s in CITE_ORDER if s in self.components and (slots is None or s in slots)
        )


def parse_citation(text: str, *, english: bool = False, names: frozenset[str] = frozenset()) -> ParsedRef:
    """Read the clause part of a citation (the document id already cut out).

    ``names`` are words the document itself uses for its parts («Требования», «Правила»): fillers here.
    A bare number («4.2») is a section in an English document and a point in a Russian one.
    """
    found: dict[str, str] = {}
    unread: list[str] = []
    repeated: list[str] = []
    bare: list[str] = []
    folded_names = {form: n for n in names for form in name_forms(n)}
    name = ""
    pos = 0
    while pos < len(text):
        if (m := _SKIP.match(text, pos)) and m.end() > pos:
            pos = m.end()
            continue
        for kind in CITE_KINDS:
            m = kind.pattern.match(text, pos)
            if m is None or m.end() == pos:
                continue
            value = _spell(kind, m, english)
            slot = _slot(kind, english)
            if kind.slot == "bare":
                bare.append(m.group(0).strip())
            if slot in found and found[slot] != value:
                repeated.append(m.group(0).strip())
            found.setdefault(slot, value)
            pos = m.end()
            break
        else:
            w = _WORD_AT.match(text, pos)
            word = w.group(0) if w else text[pos]
            folded = word.casefold().strip(".").replace("ё", "е")  # «утверждённой» as «утвержденной»
            if folded in folded_names and not name:
                name = folded_names[folded]
            elif folded not in FILLER_WORDS:
                unread.append(word)
            pos += len(word)
    if bare and len(found) > 1:
        # A bare number is a clause only on its own («RFC 4271 4.2»); beside «ст. 5» it is unexplained.
        unread.extend(bare)
        found = {k: v for k, v in found.items() if v not in {_spell_bare(b, english) for b in bare}}
    return ParsedRef(found, tuple(unread), tuple(repeated), name)


def _spell_bare(number: str, english: bool) -> str:
    return section_id(number) if english else point_id(number)


def _slot(kind: CiteKind, english: bool) -> str:
    if kind.slot == "bare":
        return "section" if english else "point"
    return kind.slot


def _spell(kind: CiteKind, m: re.Match[str], english: bool) -> str:
    if kind.slot == "bare":
        return _spell_bare(m.group(1), english)
    if kind.slot == "control":
        return m.group(1) + (f"({m.group(2)})" if m.group(2) else "")
    if kind.slot == "annex":
        return annex_id(m.group(1))
    if kind.slot == "article" and english:  # an English act's «Article 6»
        return f"{EN_ARTICLE} {m.group(1)}"
    if kind.slot == "paragraph" and not m.group(1).isdigit():
        stem = m.group(1).casefold().replace("ё", "е")
        return paragraph_id(next(n for n, p in enumerate(_ORDINALS_1_12, 1) if re.fullmatch(p.replace("ё", "е"), stem)))
    groups = [g or "" for g in m.groups()]
    return kind.spell.format(*groups).strip()
